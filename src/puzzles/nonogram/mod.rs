//! Nonograms (paint by numbers, Tatham's Pattern): colour each cell of an m×n grid black
//! or white so that the black runs of every row and column, in order, have the lengths
//! its clue lists (runs separated by at least one white cell).
//!
//! Formulations: [`bosch`] (Bosch's two interlocking tilings, as the paper "Nonokenken"
//! gives them: cluster-position binaries for rows and columns tied to cell binaries),
//! [`dfa`] (one network flow per line through the automaton of its clue, the integer
//! programming form of the `regular` constraint: each line's LP relaxation is the convex
//! hull of its patterns) and [`states`] (the same automaton with its states alone, tied
//! by transition clauses: the formula the SAT engine is fastest on). The verifier in
//! [`verify`] checks an answer from the clues alone and shares no code with any
//! formulation. [`generate`] turns a picture into a
//! puzzle (`puzzlebench generate nonogram --image`).

pub mod bosch;
pub mod dfa;
pub mod generate;
pub mod givens;
pub mod parse;
pub mod picture;
pub mod states;
pub mod tables;
pub mod user_schema;
pub mod verify;

use super::formulation::{grid_of_ones, mark_lines};
use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;
use crate::lazy::Cut;
use crate::model::{Model, Name, VarId, VarKind};

/// The registry entry of nonograms.
pub static PUZZLE: PuzzleDef<Nonogram> = PuzzleDef {
    key: "nonogram",
    description: "Nonograms (paint by numbers, Tatham's Pattern): black runs per row and column",
    formulations: &[
        Formulation {
            key: "bosch",
            description: "z[i,j] = 1 iff cell (i,j) is black; y/x[line,t,s] = 1 iff the t-th cluster of a row/column starts at s (Bosch, Nonokenken)",
            kind: Kind::Mip,
            build: |p| Ok(bosch::build(p).0),
            solve: |p, run: &Run| {
                run.count(|| bosch::build(p), |c, v| c.nogood(v), |c, v| p.answer(&c.decode(v)))
            },
        },
        Formulation {
            key: "dfa",
            description: "z[i,j] = 1 iff cell (i,j) is black; per line, f = 1 on the arcs and s = 1 on the states of its path through the layered automaton of its clue (the regular constraint as a network flow)",
            kind: Kind::Mip,
            build: |p| Ok(dfa::build(p).0),
            solve: |p, run: &Run| {
                run.count(|| dfa::build(p), |c, v| c.nogood(v), |c, v| p.answer(&c.decode(v)))
            },
        },
        Formulation {
            key: "states",
            description: "z[i,j] = 1 iff cell (i,j) is black; per line, s = 1 on the states of its path through the layered automaton of its clue, tied by transition clauses (the regular constraint decomposed, no arc columns)",
            kind: Kind::Mip,
            build: |p| Ok(states::build(p).0),
            solve: |p, run: &Run| {
                run.count(|| states::build(p), |c, v| c.nogood(v), |c, v| p.answer(&c.decode(v)))
            },
        },
    ],
    formats: "Simon Tatham's Pattern game IDs such as '4x4:2/1/2/1/1.1/2/1/1', one per line; \
              the webpbn .non format (width, height, rows, columns, goal; '====' between bundled puzzles); \
              or text: 'nonogram', then 'rows' and 'columns' blocks of space-separated numbers ('-' for an empty line), \
              or a 'picture' block of '#' and '.' lines",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: Some(&generate::GENERATOR),
    user: Some(user_schema::SCHEMA),
};

/// The committed puzzles, every formulation on the default engine and on the SAT engine
/// (the paper's comparison: one model on a MIP solver and on a SAT solver): the quick
/// suite takes Tatham's puzzles up to 30×30, the webpbn puzzles and the puzzles made from
/// the test picture, once each with 20 s; the full one adds the 35×35 to 50×50 puzzles,
/// three times each with 60 s. The engine part compares every engine with `bosch` and
/// `dfa` (`states` is the SAT engine's formulation) on the 15×15
/// puzzles (quick; GLPK and microlp leave many 20×20 puzzles at the limit) or the 20×20,
/// 30×30 and 50×50 ones (full; GLPK is the paper's MIP solver).
fn suite(quick: bool) -> super::Suite {
    let both = vec!["bosch", "dfa"];
    let mut report = vec!["nonogram/tatham", "nonogram/webpbn", "nonogram/made"];
    let limit = if quick { 20.0 } else { 60.0 };
    let backends = if quick {
        vec!["nonogram/comparison/pattern_25x25.txt"]
    } else {
        report.push("nonogram/large");
        vec![
            "nonogram/tatham/pattern_20x20.txt",
            "nonogram/tatham/pattern_30x30.txt",
            "nonogram/large/pattern_50x50.txt",
        ]
    };
    super::Suite {
        parts: vec![
            SuitePart::new(report, vec!["bosch", "dfa", "states"], limit).also_on(&["sat"]),
            SuitePart::engines(
                backends,
                both,
                if quick { 2.0 } else { limit },
                3,
                "Chosen by difficulty: two 25×25 puzzles of Tatham's Pattern, where HiGHS takes about 40 ms on dfa and 130 to 190 ms on bosch in the quick suite (15×15 puzzles take it 7 to 19 ms), at a 2 s limit; the full suite compares on 20×20, 30×30 and 50×50 puzzles at 60 s.",
            ),
        ],
        repeats: if quick { 1 } else { 3 },
    }
}

/// A nonogram instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nonogram {
    /// Instance name.
    pub name: String,
    /// The clue of each row, top to bottom: the lengths of its black runs, left to right
    /// (empty for an all-white row).
    pub rows: Vec<Vec<usize>>,
    /// The clue of each column, left to right: run lengths top to bottom.
    pub cols: Vec<Vec<usize>>,
    /// Cells the puzzle shows from the start (Tatham's clue squares): `Some(true)` black,
    /// `Some(false)` white, `None` to be found.
    pub givens: Vec<Vec<Option<bool>>>,
    /// The expected answer, where the file gives one (the `.non` goal, a picture).
    pub goal: Option<Vec<Vec<bool>>>,
    /// The licence the file states (`.non` files), for the record.
    pub licence: Option<String>,
}

impl Nonogram {
    /// A puzzle with these clues, no givens, no goal.
    pub fn new(rows: Vec<Vec<usize>>, cols: Vec<Vec<usize>>) -> Nonogram {
        let givens = vec![vec![None; cols.len()]; rows.len()];
        Nonogram {
            name: String::new(),
            rows,
            cols,
            givens,
            goal: None,
            licence: None,
        }
    }

    /// The puzzle whose answer is `picture` (its clues computed from it), with the picture
    /// as its goal.
    pub fn from_picture(picture: &[Vec<bool>]) -> Nonogram {
        let w = picture.first().map_or(0, |r| r.len());
        let rows = picture.iter().map(|r| runs(r.iter().copied())).collect();
        let cols = (0..w).map(|j| runs(picture.iter().map(|r| r[j]))).collect();
        let mut p = Nonogram::new(rows, cols);
        p.goal = Some(picture.to_vec());
        p
    }

    /// Rows (m).
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// Columns (n).
    pub fn width(&self) -> usize {
        self.cols.len()
    }

    /// Every line: the rows (`true`, index i) then the columns (`false`, index j), each
    /// with its clue.
    pub fn lines(&self) -> impl Iterator<Item = Line<'_>> {
        let rows = self.rows.iter().enumerate().map(|(i, c)| Line {
            row: true,
            index: i,
            clue: c,
            len: self.width(),
        });
        let cols = self.cols.iter().enumerate().map(|(j, c)| Line {
            row: false,
            index: j,
            clue: c,
            len: self.height(),
        });
        rows.chain(cols)
    }

    /// The puzzle in the text format (`nonogram`, `rows`, `columns`).
    pub fn to_text(&self) -> String {
        let clue = |c: &Vec<usize>| clue_text(c, " ", "-");
        let mut s = String::from("nonogram\nrows\n");
        for r in &self.rows {
            s.push_str(&clue(r));
            s.push('\n');
        }
        s.push_str("columns\n");
        for c in &self.cols {
            s.push_str(&clue(c));
            s.push('\n');
        }
        s
    }

    /// The puzzle in the webpbn `.non` format, with its goal when it has one.
    pub fn to_non(&self, title: &str) -> String {
        let clue = |c: &Vec<usize>| clue_text(c, ",", "0");
        let mut s = format!(
            "title \"{title}\"\nwidth {}\nheight {}\n\nrows\n",
            self.width(),
            self.height()
        );
        for r in &self.rows {
            s.push_str(&clue(r));
            s.push('\n');
        }
        s.push_str("\ncolumns\n");
        for c in &self.cols {
            s.push_str(&clue(c));
            s.push('\n');
        }
        if let Some(goal) = &self.goal {
            let cells: String = goal
                .iter()
                .flatten()
                .map(|&b| if b { '1' } else { '0' })
                .collect();
            s.push_str(&format!("\ngoal \"{cells}\"\n"));
        }
        if self.has_givens() {
            // puzzlebench's own key (the format has none for givens; others ignore it).
            let cells: String = self
                .givens
                .iter()
                .flatten()
                .map(|g| match g {
                    Some(true) => '1',
                    Some(false) => '0',
                    None => '?',
                })
                .collect();
            s.push_str(&format!("givens \"{cells}\"\n"));
        }
        s
    }

    /// Whether the puzzle shows some cell from the start.
    pub fn has_givens(&self) -> bool {
        self.givens.iter().flatten().any(|g| g.is_some())
    }

    /// The text format's `givens` block (`#` black, `.` white, `?` not shown), empty when
    /// the puzzle shows no cell.
    pub fn givens_text(&self) -> String {
        if !self.has_givens() {
            return String::new();
        }
        let mut s = String::from("givens\n");
        for r in &self.givens {
            let line: String = r
                .iter()
                .map(|g| match g {
                    Some(true) => '#',
                    Some(false) => '.',
                    None => '?',
                })
                .collect();
            s.push_str(&line);
            s.push('\n');
        }
        s
    }

    /// Draws a grid, `#` for black and `.` for white, one row per line.
    pub fn draw(grid: &[Vec<bool>]) -> Vec<String> {
        mark_lines(grid, '#')
    }

    /// The answer for a decoded grid, checked by the verifier (and against the goal, when
    /// the puzzle has one and the goal is its only solution, by the tests).
    pub fn answer(&self, grid: &[Vec<bool>]) -> Answer {
        Answer::of_marked_grid(grid, '#', verify::check(self, grid))
    }
}

/// A clue as text: its run lengths joined by `sep`, or `empty` for a line without runs
/// (the text format writes `2 1` and `-`, the `.non` format `2,1` and `0`).
pub fn clue_text(clue: &[usize], sep: &str, empty: &str) -> String {
    if clue.is_empty() {
        return empty.to_string();
    }
    clue.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The black runs of a line, as a clue.
pub fn runs(cells: impl Iterator<Item = bool>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut run = 0;
    for b in cells {
        if b {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    if run > 0 {
        out.push(run);
    }
    out
}

/// One line of a puzzle: a row or a column, its index, its clue and its length.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// A row (else a column).
    pub row: bool,
    /// Its index among the rows or the columns.
    pub index: usize,
    /// Its clue.
    pub clue: &'a [usize],
    /// The number of cells.
    pub len: usize,
}

impl Line<'_> {
    /// "row" or "column", for messages.
    pub fn kind(&self) -> &'static str {
        if self.row {
            "row"
        } else {
            "column"
        }
    }

    /// The cell (row, column) at position `k` of the line.
    pub fn cell(&self, k: usize) -> (usize, usize) {
        if self.row {
            (self.index, k)
        } else {
            (k, self.index)
        }
    }

    /// The earliest and latest start of each cluster (0-based): cluster t starts no
    /// earlier than the clusters before it need (their lengths and one white each) and no
    /// later than the clusters after it allow.
    pub fn windows(&self) -> Vec<(usize, usize)> {
        let k = self.clue.len();
        let mut out = Vec::with_capacity(k);
        let total: usize = self.clue.iter().sum::<usize>() + k.saturating_sub(1);
        let slack = self.len.saturating_sub(total);
        let mut earliest = 0;
        for &p in self.clue {
            out.push((earliest, earliest + slack));
            earliest += p + 1;
        }
        out
    }

    /// Whether the clue fits the line at all.
    pub fn fits(&self) -> bool {
        let k = self.clue.len();
        self.clue.iter().sum::<usize>() + k.saturating_sub(1) <= self.len
    }
}

/// The cell binaries both formulations share: `z[i,j]` is 1 when cell (i, j) is black;
/// givens fix their bounds.
pub struct Cells {
    width: usize,
    z: Vec<VarId>,
}

impl Cells {
    /// Adds the columns z to `m`.
    pub fn add(m: &mut Model, p: &Nonogram) -> Cells {
        let (h, w) = (p.height(), p.width());
        let mut z = Vec::with_capacity(h * w);
        for i in 0..h {
            for j in 0..w {
                let (lo, hi) = match p.givens[i][j] {
                    Some(true) => (1.0, 1.0),
                    Some(false) => (0.0, 0.0),
                    None => (0.0, 1.0),
                };
                z.push(m.add_var(
                    Name::idx("z", &[i + 1, j + 1]),
                    VarKind::Binary,
                    lo,
                    hi,
                    0.0,
                ));
            }
        }
        Cells { width: w, z }
    }

    /// The column z of cell (i, j).
    pub fn at(&self, (i, j): (usize, usize)) -> VarId {
        self.z[i * self.width + j]
    }

    /// The grid of a solution.
    pub fn decode(&self, values: &[f64]) -> Vec<Vec<bool>> {
        grid_of_ones(&self.z, self.width, values)
    }

    /// The no-good row of a solution: Σ_{black} (1 − z) + Σ_{white} z ≥ 1, written as a
    /// row on z alone. Unlike Sudoku, the number of black cells may differ between
    /// solutions, so both sides count.
    pub fn nogood(&self, values: &[f64]) -> Cut {
        let black = self.z.iter().filter(|v| values[v.0] > 0.5).count() as f64;
        let terms = self
            .z
            .iter()
            .map(|v| (*v, if values[v.0] > 0.5 { -1.0 } else { 1.0 }))
            .collect();
        Cut {
            terms,
            lower: 1.0 - black,
            upper: f64::INFINITY,
        }
    }
}

impl Instance for Nonogram {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        self.to_text() + &self.givens_text()
    }

    fn size_label(&self) -> String {
        format!("{}x{}", self.width(), self.height())
    }

    fn size(&self) -> f64 {
        (self.width() * self.height()) as f64
    }

    fn info(&self) -> String {
        let clues: usize = self.lines().map(|l| l.clue.len()).sum();
        let black: usize = self.rows.iter().flatten().sum();
        format!(
            "clusters={clues};black={black};givens={};goal={}",
            self.givens.iter().flatten().filter(|g| g.is_some()).count(),
            self.goal.is_some()
        )
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let grid = answer.and_then(|a| a.marked_grid('#'));
        Some(picture::svg(self, grid.as_deref()))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_windows() {
        assert_eq!(runs([true, true, false, true].into_iter()), vec![2, 1]);
        assert_eq!(runs([false, false].into_iter()), Vec::<usize>::new());
        let l = Line {
            row: true,
            index: 0,
            clue: &[2, 1],
            len: 6,
        };
        // 2 + 1 + 1 = 4 of 6: slack 2.
        assert_eq!(l.windows(), vec![(0, 2), (3, 5)]);
        assert!(l.fits());
        let p = Nonogram::from_picture(&[vec![true, false], vec![true, true]]);
        assert_eq!(p.rows, vec![vec![1], vec![2]]);
        assert_eq!(p.cols, vec![vec![2], vec![1]]);
    }

    #[test]
    fn the_nogood_cuts_exactly_one_grid() {
        let p = Nonogram::new(vec![vec![], vec![]], vec![vec![], vec![]]);
        let mut m = Model::new("t");
        let c = Cells::add(&mut m, &p);
        let x = [1.0, 0.0, 0.0, 1.0];
        let cut = c.nogood(&x);
        assert!(cut.violation(&x) > 0.5);
        for other in [[0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0], [0.0; 4]] {
            assert_eq!(cut.violation(&other), 0.0, "{other:?}");
        }
    }
}
