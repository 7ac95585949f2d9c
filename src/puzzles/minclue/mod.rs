//! Minimum-clue Sudoku (chapter 8 of the report 002, after Tjusila et al. 2024): given a
//! complete Sudoku grid G, find the fewest clues (cells of G shown) whose only completion
//! is G.
//!
//! The report states it as a bilevel program: the leader picks clues y, the follower
//! (Sudoku with those clues, forced to differ from G somewhere) tries to show that G is
//! not the only completion. Since the follower only checks feasibility, the formulations
//! here solve it in one level by row generation ([`rowgen`]): the leader is the hitting-set
//! program min Σ y over rows Σ_{c ∈ U} y_c ≥ 1, one per unavoidable set U (a set of cells
//! whose values can be rearranged into another valid grid; every unique puzzle shows a
//! cell of each), solved on the run's engine; the follower ([`follower`]) is CaDiCaL with
//! the grid's Sudoku clauses and the clues as assumptions, and every other completion it
//! finds gives a new unavoidable set.
//!
//! Formulations:
//! * `rowgen`: the leader seeded with small unavoidable sets found by a search of its own
//!   ([`unavoidable`]: the two-digit rectangles, then the sets freed by blanking every
//!   pair and triple of digits and every pair of rows or columns within a band or stack),
//!   the smallest `seeds` of them (1000 unless the instance says `seeds=N`).
//! * `rowgen-plain`: the same loop without seeding: every row comes from the follower.
//!
//! The verifier in [`verify`] counts the completions of the answer's clues with a
//! backtracking search of its own (no SAT solver, no model) and checks that there is one
//! and that it is G; on 4×4 grids it also checks a claimed minimum by trying every
//! smaller clue set.

pub mod follower;
pub mod parse;
pub mod rowgen;
pub mod tables;
pub mod unavoidable;
pub mod verify;

use super::sudoku::Sudoku;
use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;

/// Unavoidable sets the `rowgen` leader starts with, unless the instance gives `seeds=N`
/// (Tjusila et al. found 1000 initial cuts their best setting).
pub const DEFAULT_SEEDS: usize = 1000;

/// The registry entry of minimum-clue Sudoku.
pub static PUZZLE: PuzzleDef<MinClue> = PuzzleDef {
    key: "minclue",
    description: "minimum-clue Sudoku: the fewest clues whose only completion is a given grid (report chapter 8)",
    formulations: &[
        Formulation {
            key: "rowgen",
            description: "leader: y[i,j] = 1 iff cell (i,j) is a clue, min sum y, one row sum_{c in U} y_c >= 1 per unavoidable set U (seeded with the smallest found by its own search); follower: CaDiCaL on the Sudoku with the clues, differing from G, whose other completions add rows",
            kind: Kind::RowGeneration,
            build: |p| Ok(rowgen::build(p, true)),
            solve: |p, run: &Run| rowgen::solve(p, run, true),
        },
        Formulation {
            key: "rowgen-plain",
            description: "rowgen without seeding: the leader starts with no rows and every unavoidable set comes from the follower",
            kind: Kind::RowGeneration,
            build: |p| Ok(rowgen::build(p, false)),
            solve: |p, run: &Run| rowgen::solve(p, run, false),
        },
    ],
    formats: "one complete grid per line: n*n characters (1-9 then A-Z; the box shape as for Sudoku's line format, \
              or box=RxC), optionally after an id (Tjusila et al.'s 'Id Sudoku Grid' files are read as they are), \
              then optional fields: min=K (known minimum, checked), start=PUZZLE (a known unique puzzle of the grid, \
              '.' or '0' blank: the first upper bound), seeds=N (unavoidable sets to seed), published=S (a published \
              solve time in seconds, shown beside ours); '#' comments",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: None,
    user: None,
};

/// The 4×4 and 6×6 grids on both formulations, also on `hitset` and `sat`, and a 4×4 grid
/// (full suite: the 6×6 grid `grid6_a`) on every engine; the full suite adds the report's Figure 8.1 grid and
/// the grids of the committed Sudoku puzzles, and five of Tjusila et al.'s 17-clue grids
/// (the five their paper solved fastest), each on the default engine and `hitset` with a
/// 1800 s limit.
fn suite(quick: bool) -> super::Suite {
    let mut parts = vec![
        SuitePart::new(vec!["minclue/small"], vec!["rowgen", "rowgen-plain"], 60.0)
            .also_on(&["hitset", "sat"]),
        SuitePart::engines(
            if quick {
                vec!["minclue/small/grid6_a.txt", "minclue/small/grid6_c.txt"]
            } else {
                vec![
                    "minclue/small/grid6_a.txt",
                    "minclue/small/grid6_b.txt",
                    "minclue/small/grid6_c.txt",
                ]
            },
            vec!["rowgen", "rowgen-plain"],
            if quick { 2.0 } else { 60.0 },
            3,
            "Chosen by difficulty: two 6×6 grids, where HiGHS as the leader takes about 6 to 160 ms in the quick suite (4×4 grids take it 1 to 9 ms), at a 2 s limit (CP-SAT's own search, on one worker, takes seconds a round here); the full suite adds the third 6×6 grid (about 1 s) at 60 s.",
        ),
    ];
    if !quick {
        parts.push(
            SuitePart::new(
                vec![
                    "minclue/report_fig8_1.txt",
                    "minclue/solved",
                    "minclue/tjusila/grid22.txt",
                    "minclue/tjusila/grid05.txt",
                    "minclue/tjusila/grid11.txt",
                    "minclue/tjusila/grid07.txt",
                    "minclue/tjusila/grid13.txt",
                ],
                vec!["rowgen"],
                1800.0,
            )
            .also_on(&["hitset"]),
        );
    }
    super::Suite { parts, repeats: 1 }
}

/// A complete grid whose minimum clue set is sought.
#[derive(Clone, Debug, PartialEq)]
pub struct MinClue {
    /// Instance name.
    pub name: String,
    /// Rows of one box.
    pub box_rows: usize,
    /// Columns of one box.
    pub box_cols: usize,
    /// The complete grid G, row by row, values 1..=n.
    pub grid: Vec<Vec<u32>>,
    /// The known minimum number of clues, where the file gives it; the verifier checks it.
    pub known: Option<usize>,
    /// A known unique puzzle of the grid (`true`: a clue, row-major), where the file gives
    /// one: the first upper bound.
    pub start: Option<Vec<bool>>,
    /// Unavoidable sets to seed `rowgen` with, where the file says.
    pub seeds: Option<usize>,
    /// A published solve time for this grid in seconds (Tjusila et al.'s), shown beside ours.
    pub published: Option<f64>,
}

impl MinClue {
    /// Side of the grid.
    pub fn n(&self) -> usize {
        self.box_rows * self.box_cols
    }

    /// The value of G at cell k (row-major index).
    pub fn value(&self, k: usize) -> u32 {
        self.grid[k / self.n()][k % self.n()]
    }

    /// The puzzle showing the cells of `clues` (row-major), as a Sudoku.
    pub fn puzzle(&self, clues: &[bool]) -> Sudoku {
        let n = self.n();
        let givens = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| if clues[i * n + j] { self.grid[i][j] } else { 0 })
                    .collect()
            })
            .collect();
        let mut s = Sudoku::plain(self.box_rows, self.box_cols, givens);
        s.name = self.name.clone();
        s
    }

    /// The clue set as a puzzle line (`.` for a cell not shown).
    pub fn puzzle_line(&self, clues: &[bool]) -> String {
        (0..self.n() * self.n())
            .map(|k| {
                if clues[k] {
                    super::sudoku::parse::value_char(self.value(k))
                } else {
                    '.'
                }
            })
            .collect()
    }

    /// The instance as one line of its format (the grid, then its fields).
    pub fn to_line(&self) -> String {
        let mut s: String = self
            .grid
            .iter()
            .flatten()
            .map(|&v| super::sudoku::parse::value_char(v))
            .collect();
        s.push_str(&format!(" box={}x{}", self.box_rows, self.box_cols));
        if let Some(k) = self.known {
            s.push_str(&format!(" min={k}"));
        }
        if let Some(start) = &self.start {
            s.push_str(&format!(" start={}", self.puzzle_line(start)));
        }
        if let Some(k) = self.seeds {
            s.push_str(&format!(" seeds={k}"));
        }
        s
    }

    /// The answer for the clue set `clues` (row-major), checked by the verifier; `optimal`
    /// says the run claims it is a minimum, which the verifier checks against the known
    /// minimum (and by brute force on 4×4 grids).
    pub fn answer(&self, clues: &[bool], optimal: bool) -> Answer {
        let n = self.n();
        let line = self.puzzle_line(clues);
        let lines: Vec<String> = (0..n)
            .map(|i| line[i * n..(i + 1) * n].to_string())
            .collect();
        let count = clues.iter().filter(|&&c| c).count();
        let verdict = verify::check(self, &lines, optimal);
        let puzzle = self.puzzle(clues);
        Answer {
            text: format!(
                "{count} clues\n{}\n",
                puzzle.draw(&puzzle.givens).trim_end()
            ),
            json: serde_json::json!({ "clues": lines, "count": count }),
            verdict,
        }
    }
}

impl Instance for MinClue {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        self.to_line()
    }

    fn size_label(&self) -> String {
        format!("{0}x{0}", self.n())
    }

    fn size(&self) -> f64 {
        (self.n() * self.n()) as f64
    }

    fn info(&self) -> String {
        let mut info = vec![format!("n={}", self.n())];
        if let Some(k) = self.known {
            info.push(format!("known={k}"));
        }
        if let Some(s) = &self.start {
            info.push(format!("start={}", s.iter().filter(|&&c| c).count()));
        }
        if let Some(p) = self.published {
            info.push(format!("published={p}"));
        }
        info.join(";")
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let lines: Option<Vec<String>> =
            answer.and_then(|a| serde_json::from_value(a.json["clues"].clone()).ok());
        let n = self.n();
        let clues: Vec<bool> = match &lines {
            Some(l) => l.iter().flat_map(|r| r.chars().map(|c| c != '.')).collect(),
            None => vec![true; n * n],
        };
        let puzzle = self.puzzle(&clues);
        Some(super::sudoku::picture::svg(&puzzle, Some(&self.grid)))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
