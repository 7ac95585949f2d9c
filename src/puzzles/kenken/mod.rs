//! KenKen (Simon Tatham's Keen): an n×n Latin square (each value 1..=n once per row and
//! once per column) whose cells are split into cages, each with an operation and a
//! target: the values of a `+` cage add up to the target, those of a `×` cage multiply to
//! it, the two values of a `−` cage differ by it, and the larger of the two values of a
//! `÷` cage is the target times the smaller; a one-cell cage gives its value.
//!
//! Formulations, all on the cell binaries of [`Latin`]: [`log`] (the blog post "Sudoku and
//! KenKen as MIPs": logarithms for × and ÷, a sign binary for − and ÷; guarded by row
//! generation because logarithms are only as exact as the solver's tolerances),
//! [`melkonian`] (Melkonian's model as the blog post cites it: prime-exponent rows for ×,
//! Big-M either-or rows for ÷) and [`combinations`] (the paper "Nonokenken": one binary per
//! admissible multiset of values of a cage). Killer Sudoku's cages go through the same cage
//! rows (`crate::puzzles::sudoku`). The verifier in [`verify`] checks an answer with exact
//! integer arithmetic and shares no code with the formulations.

pub mod combinations;
pub mod log;
pub mod melkonian;
pub mod parse;
pub mod picture;
pub mod random;
pub mod tables;
pub mod user_schema;
pub mod verify;

pub use super::cages::{Cage, Op};
use super::counting::nogood_of_ones;
use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;
use crate::lazy::Cut;
use crate::model::{Model, Name, VarId};

/// The registry entry of KenKen.
pub static PUZZLE: PuzzleDef<KenKen> = PuzzleDef {
    key: "kenken",
    description: "KenKen (Tatham's Keen): Latin square with +, -, x, / cages",
    formulations: &[
        Formulation {
            key: "combinations",
            description: "x[i,j,k] = 1 iff cell (i,j) holds k; f[c,m] = 1 iff cage c holds the multiset m of values, one per admissible multiset (Nonokenken)",
            kind: Kind::Mip,
            build: |p| combinations::build(p).map(|b| b.0),
            solve: |p, run: &Run| combinations::solve(p, run),
        },
        Formulation {
            key: "melkonian",
            description: "x[i,j,k]; prime-exponent rows for x cages, Big-M either-or rows with a binary d[c] for / cages, d[c] sign of - cages (Melkonian)",
            kind: Kind::Mip,
            build: |p| Ok(melkonian::build(p).0),
            solve: |p, run: &Run| {
                run.count(|| melkonian::build(p), |l, v| l.nogood(v), |l, v| p.answer(&l.decode(v)))
            },
        },
        Formulation {
            key: "log",
            description: "x[i,j,k]; sum of log(k) x rows for x and / cages, sign binaries d[c] for - and / (blog post), a wrong product cut off by row generation",
            kind: Kind::RowGeneration,
            build: |p| Ok(log::build(p).0),
            solve: |p, run: &Run| log::solve(p, run),
        },
    ],
    formats: "Simon Tatham's Keen game IDs such as '4:b_7a_ba_a3,a7s1a6s1m4m4m6', one per line; \
              or text: 'kenken N', then one cage per line 'TARGET[OP] r1c1 r1c2 ...' with OP one of + - * x / \
              (none for a one-cell cage); '#' comments",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: None,
    user: Some(user_schema::SCHEMA),
};

/// The 'extreme' Keen puzzle files of every size, 4×4 to 9×9 (five puzzles each).
pub const EXTREME: [&str; 6] = [
    "kenken/tatham/keen_4dx.txt",
    "kenken/tatham/keen_5dx.txt",
    "kenken/tatham/keen_6dx.txt",
    "kenken/tatham/keen_7dx.txt",
    "kenken/tatham/keen_8dx.txt",
    "kenken/tatham/keen_9dx.txt",
];

/// How the engine comparison's instances were chosen.
const COMPARISON: &str = "Chosen by difficulty: two extreme 8×8 puzzles of Tatham's Keen, where HiGHS takes about 4 to 15 ms on combinations and melkonian and 0.35 to 1.2 s on log in the quick suite (puzzles up to 6×6 take it 1 to 6 ms on every linearization: too easy), at a 2 s limit; the full suite adds the extreme 9×9 puzzles at 60 s.";

/// The blog post's 6×6 and Tatham's Keen puzzles, all three formulations on the chosen
/// engines: the quick suite takes the 'extreme' puzzles of every size (one run each, 20 s
/// limit), the full suite every committed puzzle (three repeats, 60 s). The engine part
/// compares every engine on the blog puzzle and the 6×6 'extreme' puzzles, and in the full
/// suite also on the 9×9 'extreme' ones, at the same limits.
fn suite(quick: bool) -> super::Suite {
    let all = vec!["combinations", "melkonian", "log"];
    let mut report = vec!["kenken/blog_003.txt"];
    let mut parts = Vec::new();
    if quick {
        report.extend(EXTREME);
        parts.push(SuitePart::new(report, all.clone(), 20.0));
        parts.push(SuitePart::engines(
            vec!["kenken/comparison/keen_8dx.txt"],
            all,
            2.0,
            3,
            COMPARISON,
        ));
    } else {
        report.push("kenken/tatham");
        parts.push(SuitePart::new(report, all.clone(), 60.0));
        parts.push(SuitePart::engines(
            vec![
                "kenken/comparison/keen_8dx.txt",
                "kenken/tatham/keen_9dx.txt",
            ],
            all,
            60.0,
            3,
            COMPARISON,
        ));
    }
    super::Suite {
        parts,
        repeats: if quick { 1 } else { 3 },
    }
}

/// A KenKen instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KenKen {
    /// Instance name.
    pub name: String,
    /// Side of the grid: values are 1..=n.
    pub n: usize,
    /// The cages; every cell is in exactly one.
    pub cages: Vec<Cage>,
}

impl KenKen {
    /// The puzzle in the text format (`kenken N` and one cage per line).
    pub fn to_text(&self) -> String {
        let mut s = format!("kenken {}\n", self.n);
        for c in &self.cages {
            s.push_str(&c.clue());
            for &(i, j) in &c.cells {
                s.push_str(&format!(" r{}c{}", i + 1, j + 1));
            }
            s.push('\n');
        }
        s
    }

    /// Draws a filled grid, one row per line.
    pub fn draw(&self, grid: &[Vec<u32>]) -> String {
        grid.iter()
            .map(|row| {
                row.iter()
                    .map(|v| format!("{v:>2}"))
                    .collect::<String>()
                    .trim_start()
                    .to_string()
                    + "\n"
            })
            .collect()
    }

    /// The answer for a decoded grid, checked by the verifier.
    pub fn answer(&self, grid: &[Vec<u32>]) -> Answer {
        Answer {
            verdict: verify::check(self, grid),
            text: self.draw(grid),
            json: serde_json::json!({ "grid": grid }),
        }
    }

    /// The largest cage.
    pub fn largest_cage(&self) -> usize {
        self.cages.iter().map(|c| c.cells.len()).max().unwrap_or(0)
    }
}

impl Instance for KenKen {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        self.to_text()
    }

    fn size_label(&self) -> String {
        format!("{0}x{0}", self.n)
    }

    fn size(&self) -> f64 {
        (self.n * self.n) as f64
    }

    fn info(&self) -> String {
        let ops = |op: Op| self.cages.iter().filter(|c| c.op == op).count();
        format!(
            "cages={};largest={};add={};sub={};mul={};div={};given={}",
            self.cages.len(),
            self.largest_cage(),
            ops(Op::Add),
            ops(Op::Sub),
            ops(Op::Mul),
            ops(Op::Div),
            ops(Op::Given)
        )
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let grid: Option<Vec<Vec<u32>>> =
            answer.and_then(|a| serde_json::from_value(a.json["grid"].clone()).ok());
        Some(picture::svg(self, grid.as_deref()))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}

/// The cell binaries every formulation starts from, with the rows of a Latin square:
/// `x[i,j,k]` (binary) is 1 when cell (i, j) holds the value k, for i, j, k in 1..=n;
/// each cell holds one value (`cell_i_j`), each value is once in each row (`row_i_k`)
/// and once in each column (`col_j_k`).
pub struct Latin {
    n: usize,
    x: Vec<VarId>,
}

impl Latin {
    /// Adds the columns x and the Latin-square rows to `m`.
    pub fn add(m: &mut Model, n: usize) -> Latin {
        let mut x = Vec::with_capacity(n * n * n);
        for i in 1..=n {
            for j in 1..=n {
                for k in 1..=n {
                    x.push(m.add_binary(Name::idx("x", &[i, j, k])));
                }
            }
        }
        let l = Latin { n, x };
        for i in 0..n {
            for j in 0..n {
                m.add_eq(
                    Name::idx("cell", &[i + 1, j + 1]),
                    (1..=n).map(|k| (l.at((i, j), k), 1.0)),
                    1.0,
                );
            }
        }
        for i in 0..n {
            for k in 1..=n {
                m.add_eq(
                    Name::idx("row", &[i + 1, k]),
                    (0..n).map(|j| (l.at((i, j), k), 1.0)),
                    1.0,
                );
            }
        }
        for j in 0..n {
            for k in 1..=n {
                m.add_eq(
                    Name::idx("col", &[j + 1, k]),
                    (0..n).map(|i| (l.at((i, j), k), 1.0)),
                    1.0,
                );
            }
        }
        l
    }

    /// The side n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The column x[cell, k] (cell from 0, k in 1..=n).
    pub fn at(&self, (i, j): (usize, usize), k: usize) -> VarId {
        self.x[(i * self.n + j) * self.n + k - 1]
    }

    /// Every column x, cell by cell.
    pub fn columns(&self) -> &[VarId] {
        &self.x
    }

    /// The value k with x[i,j,k] = 1 in each cell (0 where none is set).
    pub fn decode(&self, values: &[f64]) -> Vec<Vec<u32>> {
        (0..self.n)
            .map(|i| {
                (0..self.n)
                    .map(|j| {
                        (1..=self.n)
                            .find(|&k| values[self.at((i, j), k).0] > 0.5)
                            .map_or(0, |k| k as u32)
                    })
                    .collect()
            })
            .collect()
    }

    /// The no-good row of a solution: the same values in every cell are excluded.
    pub fn nogood(&self, values: &[f64]) -> Cut {
        nogood_of_ones(&self.x, values)
    }

    /// The terms Σ_k k·x[cell, k] (the cell's value), times `factor`.
    pub fn value_terms(&self, cell: (usize, usize), factor: f64) -> Vec<(VarId, f64)> {
        (1..=self.n)
            .map(|k| (self.at(cell, k), factor * k as f64))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_rows_and_columns() {
        let mut m = Model::new("t");
        let l = Latin::add(&mut m, 3);
        assert_eq!(m.counts().binaries, 27);
        assert_eq!(m.counts().constraints, 27);
        assert_eq!(l.at((1, 2), 3), l.columns()[(3 + 2) * 3 + 2]);
    }

    #[test]
    fn clue_text() {
        let c = Cage {
            op: Op::Mul,
            target: 240,
            cells: vec![(0, 0), (0, 1)],
        };
        assert_eq!(c.clue(), "240*");
        let k = KenKen {
            name: "t".into(),
            n: 2,
            cages: vec![c],
        };
        assert!(k.to_text().contains("240* r1c1 r1c2"));
    }
}
