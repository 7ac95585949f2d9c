//! Fewest givens for a nonogram's picture: the cells to show from the start (each with
//! the picture's colour) so that the intended picture P is the puzzle's only solution. The
//! search is the fewest-clues row generation of minimum-clue Sudoku
//! ([`fewest_clues`]: a hitting-set leader over unavoidable sets, a SAT follower); this
//! module gives it the nonogram's side ([`NonogramGivens`] as its [`Target`]):
//!
//! * the **follower** ([`follower`]): Bosch's model as clauses in CaDiCaL, with the clause
//!   "some cell differs from P" and the givens as assumptions. Each other solution gives an
//!   unavoidable set: the cells where it differs from P;
//! * the **seeds** of `rowgen` ([`regions`]): the unavoidable sets found in small regions,
//!   every other solution that changes only two rows, only two columns or a 4×4 window;
//! * the **greedy** answer to compare the minimum with ([`greedy`]).
//!
//! The puzzle `nonogram-givens` (its own folder) runs it as a benchmark with its own
//! verifier; `generate nonogram --givens` uses it to make a picture a unique puzzle.

use super::{bosch, Nonogram};
use crate::engines::cnf;
use crate::engines::sat::{encode, Encoded};
use crate::engines::{Budget, Settings};
use crate::model::Name;
use crate::puzzles::clue_follower::{CellLiterals, ClueFollower, Stopped};
use crate::puzzles::fewest_clues::{self, Target};
use rustsat::instances::ManageVars;

/// A nonogram with its intended picture, whose fewest givens are sought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonogramGivens {
    /// Instance name.
    pub name: String,
    /// The clues (without givens).
    pub puzzle: Nonogram,
    /// The intended picture P, row by row, `true` black.
    pub picture: Vec<Vec<bool>>,
    /// The givens the file shows (row-major `true`: shown), where it shows some: the
    /// first clues the search starts from.
    pub start: Option<Vec<bool>>,
}

impl NonogramGivens {
    /// The question for `picture`: its clues, no start.
    pub fn of_picture(name: &str, picture: &[Vec<bool>]) -> NonogramGivens {
        let mut puzzle = Nonogram::from_picture(picture);
        puzzle.goal = None;
        puzzle.name = name.to_string();
        NonogramGivens {
            name: name.to_string(),
            puzzle,
            picture: picture.to_vec(),
            start: None,
        }
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.picture.len()
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.puzzle.width()
    }

    /// P's colour at cell k (row-major): `true` black.
    pub fn black(&self, k: usize) -> bool {
        self.picture[k / self.width()][k % self.width()]
    }

    /// The nonogram that shows the cells of `givens` (row-major) with P's colours, and P
    /// as its goal.
    pub fn with_givens(&self, givens: &[bool]) -> Nonogram {
        let mut p = self.puzzle.clone();
        let w = self.width();
        for (k, &g) in givens.iter().enumerate() {
            p.givens[k / w][k % w] = g.then(|| self.black(k));
        }
        p.goal = Some(self.picture.clone());
        p.name = self.name.clone();
        p
    }

    /// The givens as lines: `#` a black given, `.` a white one, `?` a cell not shown.
    pub fn lines(&self, givens: &[bool]) -> Vec<String> {
        let w = self.width();
        (0..self.height())
            .map(|i| {
                (0..w)
                    .map(|j| match (givens[i * w + j], self.picture[i][j]) {
                        (false, _) => '?',
                        (true, true) => '#',
                        (true, false) => '.',
                    })
                    .collect()
            })
            .collect()
    }
}

impl Target for NonogramGivens {
    fn cells(&self) -> usize {
        self.width() * self.height()
    }

    fn model_name(&self) -> String {
        format!("nonogram_givens_{}", self.name)
    }

    fn column(&self, k: usize) -> Name {
        Name::idx("y", &[k / self.width() + 1, k % self.width() + 1])
    }

    fn follower(&self, budget: &Budget) -> ClueFollower {
        follower(self, budget)
    }

    fn start(&self) -> Option<Vec<bool>> {
        self.start.clone()
    }

    fn seeds(&self, follower: &mut ClueFollower) -> Result<Vec<Vec<usize>>, Stopped> {
        fewest_clues::seed_regions(follower, Vec::new(), regions(self), PER_REGION, SEEDS)
    }

    /// No: on nonograms the leader is never the hard part, and trading two givens for one
    /// asks the follower about sets of few givens, each a hard question on a large
    /// picture. Over the twenty random 50×50 pictures (`rowgen-plain` on `hitset`, one run
    /// each) the improvement made the runs from no givens 6 % slower (median ratio) and
    /// those from greedy givens 16 % slower (at most 26 s against 8.8 s), with the same
    /// minima.
    fn improves(&self) -> bool {
        false
    }
}

/// The follower of `p`, its queries stopped at `budget`'s deadline: Bosch's nonogram
/// model as clauses in CaDiCaL, through the `sat` engine's encoding
/// ([`crate::engines::sat::encode`]: the columns its rows alone fix are substituted, each
/// row encoded by its shape). Each cell's literals are its z and ¬z; a cell the encoding
/// fixes has none (it holds P's colour in every solution). The shared [`ClueFollower`]
/// adds "some cell differs from P" and takes the givens as assumptions.
///
/// Bosch's model rather than `dfa`, the faster nonogram model on `sat` for Tatham's
/// puzzles: the follower asks thousands of questions, nearly all with most cells assumed,
/// and each costs about the propagation of the whole formula. On the random 50×50 picture
/// `random_50x50_s1`, `dfa` has 140,941 columns against Bosch's 16,258, and such a call
/// took about 12 ms against about 1 ms; the first round from no givens took 9.6 s against
/// 1.6 s (one run each, `rowgen-plain` on `hitset`).
pub fn follower(p: &NonogramGivens, budget: &Budget) -> ClueFollower {
    let (model, cells) = bosch::build(&p.puzzle);
    let (solver, mut enc) = match encode(&model, &Settings::default(), budget) {
        Ok(Encoded::Ready(s, e)) => (s, e),
        // The parsers check that the picture meets every clue, so a solution exists, and
        // every row of Bosch's model is a cardinality row the encoder takes.
        Ok(Encoded::Infeasible(why)) => unreachable!("the picture solves the clues: {why}"),
        Err(e) => unreachable!("Bosch's model has cardinality rows only: {e}"),
    };
    let w = p.width();
    let literals: Vec<CellLiterals> = (0..p.cells())
        .map(|k| {
            let z = cells.at((k / w, k % w));
            match enc.fixed(z.0) {
                Some(_) => CellLiterals::Fixed,
                None => CellLiterals::Free {
                    values: vec![cnf::lit(z), !cnf::lit(z)],
                    target: usize::from(!p.black(k)),
                },
            }
        })
        .collect();
    let next = enc.vars().new_var().idx32();
    ClueFollower::new(solver, literals, next)
}

/// Other solutions the seeding takes from one region.
pub const PER_REGION: usize = 50;

/// Unavoidable sets `rowgen` is seeded with at most, smallest first.
pub const SEEDS: usize = 1000;

/// Side of the square windows of the seeding.
const WINDOW: usize = 4;

/// The regions of the seeding, as cell masks (row-major `true`: free), in this order:
/// every pair of rows (a solution that changes two rows only changes each column in two
/// cells: the switches of black and white between two lines), every pair of columns,
/// every 4×4 window (the whole picture when smaller). Each frees a few cells and keeps
/// every other cell at P's colour.
pub fn regions(p: &NonogramGivens) -> Vec<Vec<bool>> {
    let (h, w) = (p.height(), p.width());
    let mask = |free: &dyn Fn(usize, usize) -> bool| -> Vec<bool> {
        (0..h * w).map(|k| free(k / w, k % w)).collect()
    };
    let mut out = Vec::new();
    for a in 0..h {
        for b in a + 1..h {
            out.push(mask(&|i, _| i == a || i == b));
        }
    }
    for a in 0..w {
        for b in a + 1..w {
            out.push(mask(&|_, j| j == a || j == b));
        }
    }
    for top in 0..=h.saturating_sub(WINDOW) {
        for left in 0..=w.saturating_sub(WINDOW) {
            out.push(mask(&|i, j| {
                (top..top + WINDOW).contains(&i) && (left..left + WINDOW).contains(&j)
            }));
        }
    }
    out
}

/// Most other solutions the greedy rule enumerates at a time.
pub const GREEDY_SOLUTIONS: usize = 10_000;

/// The greedy givens and how they were found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Greedy {
    /// The givens (row-major `true`: shown), which make P unique.
    pub givens: Vec<bool>,
    /// Other solutions the clues (and the start's givens) allow, as far as counted: all
    /// of them unless `capped`.
    pub solutions: usize,
    /// An enumeration was cut at [`GREEDY_SOLUTIONS`].
    pub capped: bool,
}

/// The greedy answer, to compare the minimum with: show the cell that rules out the most
/// other solutions, until P is the only one left, from `p`'s start (none where it has
/// none).
///
/// The other solutions of the clues and the givens so far are enumerated with the
/// follower ([`ClueFollower::others_within`]), at most [`GREEDY_SOLUTIONS`] at a time;
/// the cell where most of them differ from P is shown (the first cell, row-major, on a
/// tie), the solutions it rules out are dropped, and so on until none is left; then the
/// solutions are enumerated again, which finds none unless the enumeration was cut. When
/// every other solution fits in one enumeration this is exactly "the cell that removes
/// the most solutions"; beyond, it is that rule over the solutions enumerated.
pub fn greedy(p: &NonogramGivens, follower: &mut ClueFollower) -> Result<Greedy, Stopped> {
    let cells = follower.len();
    let mut shown = p.start.clone().unwrap_or_else(|| vec![false; cells]);
    let mut capped = false;
    let mut solutions = None;
    loop {
        let free: Vec<bool> = shown.iter().map(|&s| !s).collect();
        let mut others = follower.others_within(&free, GREEDY_SOLUTIONS)?;
        solutions.get_or_insert(others.len());
        if others.is_empty() {
            break;
        }
        capped |= others.len() >= GREEDY_SOLUTIONS;
        while !others.is_empty() {
            let mut differ = vec![0usize; cells];
            for d in &others {
                for &c in d {
                    differ[c] += 1;
                }
            }
            let pick = (0..cells)
                .max_by_key(|&c| (differ[c], std::cmp::Reverse(c)))
                .expect("a picture has cells");
            shown[pick] = true;
            others.retain(|d| !d.contains(&pick));
        }
    }
    Ok(Greedy {
        givens: shown,
        solutions: solutions.unwrap_or(0),
        capped,
    })
}
