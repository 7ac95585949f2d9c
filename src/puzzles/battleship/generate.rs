//! Random Battleship puzzles with a unique solution.
//!
//! 1. Place the fleet at random, longest ships first, each uniformly among the placements
//!    that touch no ship placed before (start again when a ship finds no room).
//! 2. Derive the row and column sums.
//! 3. Reveal cells until the solution is unique: solve the grid-based model with a row
//!    that excludes the hidden solution (Σ over its placements y ≤ ships − 1); when HiGHS
//!    finds another solution, reveal the true type of a random cell where the two differ.
//!    Every round reveals a new cell, so this ends.
//! 4. The difficulty knob (`Level`): `hard` then drops every revealed cell whose removal
//!    keeps the solution unique (in random order), so no given is redundant; `easy` keeps
//!    the cells of step 3 and reveals `extra` more random cells.
//!
//! The same options and seed give the same puzzle (with the versions in Cargo.lock).

use super::gbm::{self, Placement};
use super::{verify, Battleship, Cell, Grid};
use crate::engines::{highs, Budget, Kind, Problem, SolveOptions, Status};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::SeedableRng;

use crate::generate::{Generator, Param, Params};

/// `puzzlebench generate battleship`.
pub static GENERATOR: Generator = Generator {
    about: "Battleship: place a random fleet, derive the sums, reveal cells until the solution \
            is unique (checked with the grid-based model on HiGHS); the solution is written too.\n\n\
            Levels: `hard` drops every given that is not needed for uniqueness; `easy` keeps the \
            revealed cells and adds --extra more.",
    params: &[
        Param::ROWS,
        Param::COLS,
        Param::value("fleet", "N,N,..", "Ships of each length, comma-separated, from length 1: `4,3,2,1` is four one-cell ships, three of length 2, two of length 3 and one of length 4"),
        Param::defaulted("level", "LEVEL", "hard", "Difficulty, which givens are kept: easy or hard"),
        Param::value("extra", "N", "Extra random givens of an easy puzzle (default: one cell in ten)"),
        Param::value("name", "PREFIX", "Name prefix (default: LEVEL_RxC); puzzles are named PREFIX_SEED"),
    ],
    make,
    separator: crate::generate::concatenated,
};

/// One puzzle of `puzzlebench generate battleship`, with the command that makes it and its
/// solution.
fn make(params: &Params, seed: u64) -> Result<String, String> {
    let rows: usize = params.need("rows")?;
    let cols: usize = params.need("cols")?;
    let fleet: Vec<u32> = params.list("fleet")?.ok_or("--fleet is required")?;
    let level = match params.text("level").unwrap_or("hard") {
        "easy" => Level::Easy,
        "hard" => Level::Hard,
        other => return Err(format!("--level {other}: easy or hard")),
    };
    let extra: Option<usize> = params.get("extra")?;
    let prefix = params
        .text("name")
        .map_or_else(|| format!("{}_{rows}x{cols}", level.label()), String::from);
    let fleet_text: Vec<String> = fleet.iter().map(|s| s.to_string()).collect();
    let mut command = format!(
        "puzzlebench generate battleship --rows {rows} --cols {cols} --fleet {} --level {}",
        fleet_text.join(","),
        level.label()
    );
    if let Some(e) = extra {
        command.push_str(&format!(" --extra {e}"));
    }
    let o = Options {
        rows,
        cols,
        fleet,
        level,
        extra: extra.unwrap_or(rows * cols / 10),
        seed,
        name: format!("{prefix}_{seed}"),
    };
    let p = generate(&o)?;
    let mut text = format!("# {command} --seed {seed}\n{}", p.to_text());
    if let Some(sol) = &p.solution {
        text.push_str("solution\n");
        for row in sol {
            text.extend(row.iter().map(|c| c.symbol()));
            text.push('\n');
        }
    }
    text.push('\n');
    Ok(text)
}

/// How many givens a generated puzzle keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The revealed cells plus `extra` more random cells.
    Easy,
    /// A set of givens from which no cell can be dropped without losing uniqueness.
    Hard,
}

impl Level {
    /// The label written into the puzzle (`easy`, `hard`).
    pub fn label(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Hard => "hard",
        }
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Rows m.
    pub rows: usize,
    /// Columns n.
    pub cols: usize,
    /// `fleet[l - 1]` ships of length l.
    pub fleet: Vec<u32>,
    /// The difficulty knob.
    pub level: Level,
    /// Extra random givens of an easy puzzle.
    pub extra: usize,
    /// Random seed.
    pub seed: u64,
    /// Name of the puzzle.
    pub name: String,
}

/// Generates one puzzle with a unique solution, recorded in its `solution`.
pub fn generate(o: &Options) -> Result<Battleship, String> {
    if o.rows == 0 || o.cols == 0 {
        return Err("the grid needs at least one row and one column".into());
    }
    if o.fleet.iter().all(|&s| s == 0) {
        return Err("the fleet has no ships".into());
    }
    let mut rng = StdRng::seed_from_u64(o.seed);
    let ships = place_fleet(o, &mut rng)?;
    let mut solution = vec![vec![Cell::Water; o.cols]; o.rows];
    for a in &ships {
        for (r, c, t) in a.cells() {
            solution[r][c] = t;
        }
    }
    let mut puzzle = Battleship {
        name: o.name.clone(),
        level: Some(o.level.label().to_string()),
        fleet: o.fleet.clone(),
        rows: solution
            .iter()
            .map(|r| r.iter().filter(|c| c.is_ship()).count() as u32)
            .collect(),
        cols: (0..o.cols)
            .map(|j| solution.iter().filter(|r| r[j].is_ship()).count() as u32)
            .collect(),
        givens: vec![vec![None; o.cols]; o.rows],
        solution: None,
    };
    while let Some(other) = other_solution(&puzzle, &ships)? {
        let differ: Vec<(usize, usize)> = (0..o.rows)
            .flat_map(|i| (0..o.cols).map(move |j| (i, j)))
            .filter(|&(i, j)| other[i][j] != solution[i][j])
            .collect();
        let &(i, j) = differ
            .choose(&mut rng)
            .ok_or("the second solution equals the first")?;
        puzzle.givens[i][j] = Some(solution[i][j]);
    }
    match o.level {
        Level::Hard => {
            let mut given: Vec<(usize, usize)> = cells(&puzzle)
                .into_iter()
                .filter(|&(i, j)| puzzle.givens[i][j].is_some())
                .collect();
            given.shuffle(&mut rng);
            for (i, j) in given {
                let keep = puzzle.givens[i][j].take();
                if other_solution(&puzzle, &ships)?.is_some() {
                    puzzle.givens[i][j] = keep;
                }
            }
        }
        Level::Easy => {
            let mut hidden: Vec<(usize, usize)> = cells(&puzzle)
                .into_iter()
                .filter(|&(i, j)| puzzle.givens[i][j].is_none())
                .collect();
            hidden.shuffle(&mut rng);
            for (i, j) in hidden.into_iter().take(o.extra) {
                puzzle.givens[i][j] = Some(solution[i][j]);
            }
        }
    }
    verify::check(&puzzle, &solution)
        .map_err(|e| format!("internal error: the generated solution fails: {e}"))?;
    puzzle.solution = Some(solution);
    Ok(puzzle)
}

fn cells(p: &Battleship) -> Vec<(usize, usize)> {
    (0..p.m())
        .flat_map(|i| (0..p.n()).map(move |j| (i, j)))
        .collect()
}

/// Places the fleet at random, longest ships first, with no two ships touching.
fn place_fleet(o: &Options, rng: &mut StdRng) -> Result<Vec<Placement>, String> {
    let mut lengths: Vec<usize> = Vec::new();
    for (l0, &s) in o.fleet.iter().enumerate().rev() {
        lengths.extend(std::iter::repeat_n(l0 + 1, s as usize));
    }
    const TRIES: usize = 1000;
    'attempt: for _ in 0..TRIES {
        let mut taken = vec![vec![false; o.cols]; o.rows];
        let mut placed = Vec::new();
        for &len in &lengths {
            let mut options = Vec::new();
            for row in 0..o.rows {
                for col in 0..o.cols {
                    for vertical in [false, true] {
                        if vertical && len == 1 {
                            continue;
                        }
                        let a = Placement {
                            row,
                            col,
                            len,
                            vertical,
                        };
                        let fits = if vertical {
                            row + len <= o.rows
                        } else {
                            col + len <= o.cols
                        };
                        if fits && a.cells().all(|(r, c, _)| !near(&taken, r, c)) {
                            options.push(a);
                        }
                    }
                }
            }
            let Some(&a) = options.choose(rng) else {
                continue 'attempt;
            };
            for (r, c, _) in a.cells() {
                taken[r][c] = true;
            }
            placed.push(a);
        }
        return Ok(placed);
    }
    Err(format!(
        "could not place the fleet on a {}x{} grid in {TRIES} random tries; use a smaller fleet",
        o.rows, o.cols
    ))
}

/// Whether a ship part is at (r, c) or any of its eight neighbours.
fn near(taken: &[Vec<bool>], r: usize, c: usize) -> bool {
    let (m, n) = (taken.len() as i64, taken[0].len() as i64);
    (-1..=1).any(|dr| {
        (-1..=1).any(|dc| {
            let (a, b) = (r as i64 + dr, c as i64 + dc);
            a >= 0 && b >= 0 && a < m && b < n && taken[a as usize][b as usize]
        })
    })
}

/// A solution of `p` other than the one made of `ships`, if there is one (solved with the
/// grid-based model on HiGHS).
pub fn other_solution(p: &Battleship, ships: &[Placement]) -> Result<Option<Grid>, String> {
    let (mut model, decoder) = gbm::build(p);
    let chosen: Vec<_> = decoder
        .placements
        .iter()
        .filter(|(a, _)| ships.contains(a))
        .map(|(_, y)| (*y, 1.0))
        .collect();
    model.add_le("exclude_known", chosen, ships.len() as f64 - 1.0);
    let engine = highs::HIGHS;
    let settings = engine.settings(Kind::Mip, &SolveOptions::default());
    let outcome = engine.solve(Problem::Mip(&model), &settings, &Budget::unlimited());
    match outcome.status {
        Status::Infeasible => Ok(None),
        s if s.has_solution() => {
            let values = outcome
                .values
                .ok_or("HiGHS reported a solution without values")?;
            Ok(Some(decoder.decode(&values)))
        }
        _ => Err(format!(
            "the uniqueness check failed: {}",
            outcome.message.unwrap_or_else(|| "no reason given".into())
        )),
    }
}
