//! n-Queens with walls ("blocked n-Queens", the blog post 001): place queens on an n×n
//! board on which some cells are walls. A queen attacks along its row, column and both
//! diagonals up to the next wall; no two queens may attack each other, and no queen stands
//! on a wall. The value of a board is the most queens it takes (n on a board without walls,
//! for n ≥ 4); walls can raise it, since two queens on one line are fine with a wall between
//! them.
//!
//! Formulations, on the cell binaries q[i,j] = 1 when a queen stands on cell (i, j):
//! * [`base`]: the post's base model for a given board: every row, column and diagonal is
//!   cut by the walls into segments, with at most one queen per segment; maximise the
//!   queens. Counting (`--count K`) counts its optimal placements (the objective fixed to
//!   the optimum first, as the post's counting model does).
//! * [`least_walls`]: the post's least-walls model: walls become binaries b[i,j]; q
//!   queens (the instance's `target`) must fit; per line and per pair of cells on it, the
//!   queens between them (inclusive) are at most one plus the walls strictly between
//!   them; minimise the walls. Counting counts the optimal boards (distinct wall sets).
//!
//! The verifier in [`verify`] walks the lines of the answer grid itself, sharing no code
//! with the formulations.

pub mod base;
pub mod least_walls;
pub mod parse;
pub mod picture;
pub mod tables;
pub mod user_schema;
pub mod verify;

use super::counting::nogood_of_ones;
use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;
use crate::model::{Model, Name, VarId, VarKind};

/// The registry entry of n-Queens with walls.
pub static PUZZLE: PuzzleDef<Queens> = PuzzleDef {
    key: "queens",
    description: "n-Queens with walls (blocked n-Queens): most queens on a board, or fewest walls for q queens",
    formulations: &[
        Formulation {
            key: "base",
            description: "q[i,j] = 1 iff a queen stands on cell (i,j); at most one queen per wall-bounded segment of each row, column and diagonal; maximise queens (blog post 001's base model)",
            kind: Kind::Mip,
            build: |p| Ok(base::build(p).0),
            solve: |p, run: &Run| run.compact(|| base::build(p), |c, v| p.answer(&c.decode(v), None)),
        },
        Formulation {
            key: "least-walls",
            description: "q[i,j] queen, b[i,j] = 1 iff cell (i,j) is a wall; target queens; per pair of cells on a line, queens between them <= 1 + walls strictly between; minimise walls (001's least-walls model; --count counts optimal boards)",
            kind: Kind::Mip,
            build: |p| least_walls::build(p).map(|b| b.0),
            solve: |p, run: &Run| {
                // Counting counts boards, not placements: the no-good of the wall
                // columns (every optimal board has the same number of walls).
                run.count_or_refuse(
                    || least_walls::build(p),
                    |c, v| nogood_of_ones(&c.b, v),
                    |c, v| p.answer(&c.decode(v), p.target),
                )
            },
        },
    ],
    formats: "text: 'queens N' (board side), optional 'target Q' (queens for least-walls), 'value V' (known most queens), \
              'least-walls W' (known fewest walls for the target), then optionally N lines of the board ('X' wall, '.' free; \
              no lines: no walls) and an optional 'solution' block ('Q' queen, 'X' wall, '.' empty); '#' comments",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: None,
    user: Some(user_schema::SCHEMA),
};

/// How the engine comparison's instances were chosen.
const COMPARISON: &str = "Chosen by difficulty: base on the empty 10×10 board and a 12×12 board with 4 walls (HiGHS about 0.1 and 0.25 s in the quick suite; 8×8 boards take it 4 to 70 ms), least-walls for 9 and 10 queens on 8×8 (HiGHS about 20 ms and 0.9 s), at a 5 s limit; each formulation answers its own question, so the two are ranked on their own instances. The full suite runs them at 600 s.";

/// The boards (base model: most queens), then the optimal placements counted up to 1000
/// on four 8×8 boards (the full suite adds the other three and the 10×10 board's 724,
/// which HiGHS takes about 5 minutes to count), also on the SAT engine; the least-walls
/// problems for q = 9, 10, 11 on 8×8 (fewest walls), then their optimal boards counted
/// (quick: q = 9), also on the SAT engine; each formulation on every engine (the 8×8 board with 2 walls, and
/// q = 11).
fn suite(quick: bool) -> super::Suite {
    let limit = if quick { 20.0 } else { 600.0 };
    // HiGHS counts 88 placements in about 8 s and 8 boards for q = 11 in 13 s: those are
    // left to the full suite, as the 10×10 board and q = 10.
    let mut counted = vec![
        "queens/boards/b08_w0.txt",
        "queens/boards/b08_w1_a.txt",
        "queens/boards/b08_w3_a.txt",
        "queens/boards/b08_w3_b.txt",
    ];
    let mut boards_counted = vec!["queens/least/q09_8x8.txt"];
    if !quick {
        counted.extend([
            "queens/boards/b08_w1_b.txt",
            "queens/boards/b08_w2_a.txt",
            "queens/boards/b08_w2_b.txt",
            "queens/boards/b10_w0.txt",
        ]);
        boards_counted.extend(["queens/least/q10_8x8.txt", "queens/least/q11_8x8.txt"]);
    }
    super::Suite {
        parts: vec![
            SuitePart::new(vec!["queens/boards"], vec!["base"], limit),
            SuitePart::new(counted, vec!["base"], limit)
                .counting(1000)
                .also_on(&["sat"]),
            SuitePart::new(vec!["queens/least"], vec!["least-walls"], limit),
            SuitePart::new(boards_counted, vec!["least-walls"], limit)
                .counting(10_000)
                .also_on(&["sat"]),
            SuitePart::engines(
                vec!["queens/boards/b10_w0.txt", "queens/boards/b12_w4.txt"],
                vec!["base"],
                if quick { 5.0 } else { limit },
                3,
                COMPARISON,
            ),
            SuitePart::engines(
                vec!["queens/least/q09_8x8.txt", "queens/least/q10_8x8.txt"],
                vec!["least-walls"],
                if quick { 5.0 } else { limit },
                3,
                COMPARISON,
            ),
        ],
        repeats: if quick { 1 } else { 3 },
    }
}

/// An n-Queens board with walls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queens {
    /// Instance name.
    pub name: String,
    /// Board side n.
    pub n: usize,
    /// `walls[i][j]`: cell (i, j) is a wall.
    pub walls: Vec<Vec<bool>>,
    /// Queens to fit (the least-walls model), where given.
    pub target: Option<usize>,
    /// The board's known value (most queens), where given; the verifier checks it.
    pub value: Option<usize>,
    /// The known fewest walls for `target`, where given; the verifier checks it.
    pub least_walls: Option<usize>,
    /// An expected answer (`Q`, `X`, `.` per cell), where the file gives one.
    pub solution: Option<Vec<String>>,
}

/// A line a queen attacks along: the key of its rows (`row`, `col`, `diag`, `anti`), its
/// number among the lines of that kind (from 1) and its cells in order.
pub type QueenLine = (&'static str, usize, Vec<(usize, usize)>);

/// A cell of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing on it.
    Empty,
    /// A queen.
    Queen,
    /// A wall.
    Wall,
}

impl Cell {
    /// Its character: `Q`, `X` or `.`.
    pub fn char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Queen => 'Q',
            Cell::Wall => 'X',
        }
    }
}

impl Queens {
    /// The walls of the board.
    pub fn wall_count(&self) -> usize {
        self.walls.iter().flatten().filter(|&&w| w).count()
    }

    /// The puzzle in the text format.
    pub fn to_text(&self) -> String {
        let mut s = format!("queens {}\n", self.n);
        if let Some(t) = self.target {
            s.push_str(&format!("target {t}\n"));
        }
        if let Some(v) = self.value {
            s.push_str(&format!("value {v}\n"));
        }
        if let Some(w) = self.least_walls {
            s.push_str(&format!("least-walls {w}\n"));
        }
        if self.wall_count() > 0 {
            for row in &self.walls {
                s.extend(row.iter().map(|&w| if w { 'X' } else { '.' }));
                s.push('\n');
            }
        }
        s
    }

    /// The answer of a grid of cells, checked by the verifier: the queens are to number
    /// `queens` (the least-walls target) or, when `None`, the board's known value if any.
    pub fn answer(&self, grid: &[Vec<Cell>], queens: Option<usize>) -> Answer {
        let lines: Vec<String> = grid
            .iter()
            .map(|r| r.iter().map(|c| c.char()).collect())
            .collect();
        // The base model's answer has exactly the board's walls; the least-walls answer
        // has the known fewest, where the file gives them.
        let least = if queens.is_some() {
            self.least_walls
        } else {
            Some(self.wall_count())
        };
        let verdict = verify::check(self, &lines, queens.or(self.value), least);
        Answer {
            text: lines.join("\n") + "\n",
            json: serde_json::json!({ "grid": lines }),
            verdict,
        }
    }

    /// The lines of the board a queen attacks along: rows, columns, diagonals (i − j
    /// fixed) and anti-diagonals (i + j fixed), each as the key of its rows (`row`, `col`,
    /// `diag`, `anti`), its number among the lines of that kind (from 1) and its cells in
    /// order. Lines of one cell are left out.
    pub fn lines(&self) -> Vec<QueenLine> {
        let n = self.n;
        let mut out = Vec::new();
        for i in 0..n {
            out.push(("row", (0..n).map(|j| (i, j)).collect()));
        }
        for j in 0..n {
            out.push(("col", (0..n).map(|i| (i, j)).collect()));
        }
        for d in 0..2 * n - 1 {
            // Diagonal: cells with j − i = d − (n − 1).
            let diag: Vec<(usize, usize)> = (0..n)
                .filter_map(|i| {
                    let j = i as isize + d as isize - (n as isize - 1);
                    (0..n as isize).contains(&j).then_some((i, j as usize))
                })
                .collect();
            out.push(("diag", diag));
            // Anti-diagonal: cells with i + j = d.
            let anti: Vec<(usize, usize)> = (0..n)
                .filter_map(|i| d.checked_sub(i).filter(|&j| j < n).map(|j| (i, j)))
                .collect();
            out.push(("anti", anti));
        }
        out.retain(|(_, cells)| cells.len() > 1);
        let mut numbered: Vec<QueenLine> = Vec::new();
        for (kind, cells) in out {
            let k = 1 + numbered.iter().filter(|(x, _, _)| *x == kind).count();
            numbered.push((kind, k, cells));
        }
        numbered
    }
}

/// The queen binaries both formulations share: q[i,j] = 1 when a queen stands on cell
/// (i, j), row by row.
pub struct QueenCells {
    /// Board side.
    pub n: usize,
    /// The columns q, row by row.
    pub q: Vec<VarId>,
    /// The wall columns b of the least-walls model (empty for the base model, whose walls
    /// are given).
    pub b: Vec<VarId>,
    /// The given walls (the base model's answer shows them).
    pub walls: Vec<Vec<bool>>,
}

impl QueenCells {
    /// Adds the queen columns q to `m`, row by row, each with `objective` in the
    /// objective; with `off_walls`, q is fixed to 0 on the board's walls.
    pub fn add_queens(m: &mut Model, p: &Queens, objective: f64, off_walls: bool) -> Vec<VarId> {
        let mut q = Vec::with_capacity(p.n * p.n);
        for i in 0..p.n {
            for j in 0..p.n {
                let hi = if off_walls && p.walls[i][j] { 0.0 } else { 1.0 };
                q.push(m.add_var(
                    Name::idx("q", &[i + 1, j + 1]),
                    VarKind::Binary,
                    0.0,
                    hi,
                    objective,
                ));
            }
        }
        q
    }

    /// The column q of cell (i, j).
    pub fn at(&self, i: usize, j: usize) -> VarId {
        self.q[i * self.n + j]
    }

    /// The answer grid of a solution: queens from q, walls from b (or the given walls).
    pub fn decode(&self, values: &[f64]) -> Vec<Vec<Cell>> {
        (0..self.n)
            .map(|i| {
                (0..self.n)
                    .map(|j| {
                        let k = i * self.n + j;
                        let wall = match self.b.get(k) {
                            Some(b) => values[b.0] > 0.5,
                            None => self.walls[i][j],
                        };
                        if values[self.q[k].0] > 0.5 {
                            Cell::Queen
                        } else if wall {
                            Cell::Wall
                        } else {
                            Cell::Empty
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

impl Instance for Queens {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        self.to_text()
    }

    fn size_label(&self) -> String {
        match self.target {
            Some(t) => format!("{0}x{0} q={t}", self.n),
            None => format!("{0}x{0} walls={1}", self.n, self.wall_count()),
        }
    }

    fn size(&self) -> f64 {
        (self.n * self.n) as f64
    }

    fn info(&self) -> String {
        let opt = |v: Option<usize>| v.map_or("-".to_string(), |v| v.to_string());
        format!(
            "walls={};target={};value={};least_walls={}",
            self.wall_count(),
            opt(self.target),
            opt(self.value),
            opt(self.least_walls)
        )
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let grid: Option<Vec<String>> =
            answer.and_then(|a| serde_json::from_value(a.json["grid"].clone()).ok());
        Some(picture::svg(self, grid.as_deref()))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
