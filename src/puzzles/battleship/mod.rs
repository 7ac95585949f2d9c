//! Battleship solitaire (report chapter 4) on an m×n grid: place a fleet of straight ships so
//! that every row and column holds the given number of ship parts, no two ships touch (not
//! even diagonally), and the given cells keep their cell types.
//!
//! Formulations: [`gbm`] (the report's grid-based, ship-placement model (4.1)),
//! [`gbm_cells`] (the same with its sums over cell columns) and [`cbm`] (the cell-based
//! model of Meuffels and den Hertog, report (4.2)–(4.3)). The verifier in
//! [`verify`] reads ships off the grid of cell types and shares no code with either model.
//! [`generate`] makes puzzles with a unique solution.

pub mod cbm;
pub mod gbm;
pub mod gbm_cells;
pub mod generate;
pub mod parse;
pub mod picture;
pub mod tables;
pub mod user_schema;
pub mod verify;

use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;

/// The registry entry of Battleship.
pub static PUZZLE: PuzzleDef<Battleship> = PuzzleDef {
    key: "battleship",
    description: "Battleship solitaire on an m x n grid with row/column sums, a fleet and given cells",
    formulations: &[
        Formulation {
            key: "gbm",
            description: "y[a] = 1 iff ship placement a is chosen; sums, 2x2 no-touch windows, fleet (report (4.1))",
            kind: Kind::Mip,
            build: |p| Ok(gbm::build(p).0),
            solve: |p, run: &Run| run.compact(|| gbm::build(p), |d, v| p.answer(d.decode(v))),
        },
        Formulation {
            key: "gbm-cells",
            description: "gbm with z[i,j] = 1 iff cell (i,j) holds a ship part, z = sum of the placements covering it; the row/column sums count z (cardinality rows)",
            kind: Kind::Mip,
            build: |p| Ok(gbm_cells::build(p).0),
            solve: |p, run: &Run| run.compact(|| gbm_cells::build(p), |d, v| p.answer(d.decode(v))),
        },
        Formulation {
            key: "cbm",
            description: "x[i,j,k] = 1 iff cell (i,j) has cell type k, s[i,j,l] = 1 iff a ship of length l starts there (Meuffels and den Hertog, report (4.2)-(4.3))",
            kind: Kind::Mip,
            build: |p| Ok(cbm::build(p).0),
            solve: |p, run: &Run| run.compact(|| cbm::build(p), |d, v| p.answer(d.decode(v))),
        },
    ],
    formats: "text: 'fleet S1 S2 ...', 'rows R1 ...', 'cols C1 ...', then 'grid' and m lines of \
              n cells ('.' unknown, '~' water, '<' '>' '^' 'v' ship ends, '+' middle, 'o' \
              one-cell ship); optional 'puzzle NAME', 'level L', 'solution' block; '#' comments",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: Some(&generate::GENERATOR),
    user: Some(user_schema::SCHEMA),
};

/// The report's sizes and fleets (Table 4.2, easy and hard) and 30×20 beyond them; the
/// full suite adds the other 30×20, 20×20 and 30×30 puzzles and repeats every run three
/// times. The time limit caps the cell-based model on the large grids.
fn suite(quick: bool) -> super::Suite {
    let instances = if quick {
        vec!["battleship/table_4_2", "battleship/scaling/30x20.txt"]
    } else {
        vec!["battleship/table_4_2", "battleship/scaling"]
    };
    super::Suite {
        parts: vec![
            SuitePart::new(
                instances,
                vec!["gbm", "cbm"],
                if quick { 20.0 } else { 300.0 },
            )
            .also_on(&["gurobi"]),
            SuitePart::engines(
                if quick {
                    vec!["battleship/comparison/hard_15x15.txt"]
                } else {
                    vec![
                        "battleship/comparison/hard_15x15.txt",
                        "battleship/scaling/20x20.txt",
                    ]
                },
                vec!["gbm", "cbm"],
                if quick { 2.0 } else { 300.0 },
                3,
                "Chosen by difficulty: two hard 15×15 boards of Table 4.2's ladder, where HiGHS takes about 15 to 40 ms on gbm and 0.2 to 0.5 s on cbm in the quick suite (6×6 to 10×10 boards take it 1 to 20 ms: too easy to rank engines), at a 2 s limit; the full suite adds the 20×20 boards at 300 s.",
            ),
        ],
        repeats: if quick { 1 } else { 3 },
    }
}

/// The type of a cell (report Table 4.1: k = 0 … 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// k = 0, water (`~`).
    Water = 0,
    /// k = 1, the left end of a horizontal ship (`<`).
    Left = 1,
    /// k = 2, the right end of a horizontal ship (`>`).
    Right = 2,
    /// k = 3, the top end of a vertical ship (`^`).
    Top = 3,
    /// k = 4, the bottom end of a vertical ship (`v`).
    Bottom = 4,
    /// k = 5, a middle part of a ship of length 3 or more (`+`).
    Middle = 5,
    /// k = 6, a ship of length one (`o`).
    Single = 6,
}

impl Cell {
    /// All cell types in the order of k.
    pub const ALL: [Cell; 7] = [
        Cell::Water,
        Cell::Left,
        Cell::Right,
        Cell::Top,
        Cell::Bottom,
        Cell::Middle,
        Cell::Single,
    ];

    /// The report's index k of this cell type.
    pub fn k(self) -> usize {
        self as usize
    }

    /// The character in the text format.
    pub fn symbol(self) -> char {
        match self {
            Cell::Water => '~',
            Cell::Left => '<',
            Cell::Right => '>',
            Cell::Top => '^',
            Cell::Bottom => 'v',
            Cell::Middle => '+',
            Cell::Single => 'o',
        }
    }

    /// The cell type of a character in the text format.
    pub fn from_symbol(c: char) -> Option<Cell> {
        Cell::ALL.into_iter().find(|t| t.symbol() == c)
    }

    /// Whether this is a ship part (anything but water).
    pub fn is_ship(self) -> bool {
        self != Cell::Water
    }
}

/// A grid of cell types, row by row.
pub type Grid = Vec<Vec<Cell>>;

/// A Battleship instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battleship {
    /// Instance name.
    pub name: String,
    /// Difficulty label from the file (`easy`, `hard`, ...), if any.
    pub level: Option<String>,
    /// `fleet[l - 1]` is S_l, the number of ships of length l.
    pub fleet: Vec<u32>,
    /// R_i: ship parts in row i (m entries).
    pub rows: Vec<u32>,
    /// C_j: ship parts in column j (n entries).
    pub cols: Vec<u32>,
    /// Given cells: `givens[i][j]` is the cell type shown at (i, j), or `None`.
    pub givens: Vec<Vec<Option<Cell>>>,
    /// The solution recorded in the file, if any.
    pub solution: Option<Grid>,
}

impl Battleship {
    /// Number of rows m.
    pub fn m(&self) -> usize {
        self.rows.len()
    }

    /// Number of columns n.
    pub fn n(&self) -> usize {
        self.cols.len()
    }

    /// Number of given cells.
    pub fn given_count(&self) -> usize {
        self.givens.iter().flatten().filter(|g| g.is_some()).count()
    }

    /// Number of ships in the fleet.
    pub fn ships(&self) -> u32 {
        self.fleet.iter().sum()
    }

    /// The fleet as `S1,S2,...`.
    pub fn fleet_label(&self) -> String {
        self.fleet
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Draws a grid of known cells (`None` as '.') with the row sums on the right and the
    /// column sums underneath, like report Figure 4.1.
    pub fn draw(&self, cells: &[Vec<Option<Cell>>]) -> String {
        let mut s = String::new();
        for (i, row) in cells.iter().enumerate() {
            for c in row {
                s.push(c.map_or('.', Cell::symbol));
                s.push(' ');
            }
            s.push_str(&format!("| {}\n", self.rows[i]));
        }
        s.push_str(&"--".repeat(self.n()));
        s.push('\n');
        let sums: Vec<String> = self.cols.iter().map(|c| c.to_string()).collect();
        s.push_str(&sums.join(" "));
        s.push('\n');
        s
    }

    /// The instance in the text format (without a solution block).
    pub fn to_text(&self) -> String {
        let join = |v: &[u32]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut s = format!("puzzle {}\n", self.name);
        if let Some(level) = &self.level {
            s.push_str(&format!("level {level}\n"));
        }
        s.push_str(&format!("fleet {}\n", join(&self.fleet)));
        s.push_str(&format!("rows {}\n", join(&self.rows)));
        s.push_str(&format!("cols {}\n", join(&self.cols)));
        s.push_str("grid\n");
        for row in &self.givens {
            let line: String = row.iter().map(|c| c.map_or('.', Cell::symbol)).collect();
            s.push_str(&line);
            s.push('\n');
        }
        s
    }

    /// The answer for a decoded grid: verdict of the independent verifier, text and JSON.
    pub fn answer(&self, grid: Grid) -> Answer {
        let known: Vec<Vec<Option<Cell>>> = grid
            .iter()
            .map(|r| r.iter().map(|&c| Some(c)).collect())
            .collect();
        let lines: Vec<String> = grid
            .iter()
            .map(|r| r.iter().map(|c| c.symbol()).collect())
            .collect();
        let ships: Vec<serde_json::Value> = verify::ships(&grid)
            .into_iter()
            .map(|s| {
                serde_json::json!([s.row, s.col, s.length, if s.vertical { "v" } else { "h" }])
            })
            .collect();
        Answer {
            verdict: verify::check(self, &grid),
            text: self.draw(&known),
            json: serde_json::json!({ "grid": lines, "ships": ships }),
        }
    }
}

impl Instance for Battleship {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        self.to_text()
    }

    fn size_label(&self) -> String {
        format!("{}x{}", self.m(), self.n())
    }

    fn size(&self) -> f64 {
        (self.m() * self.n()) as f64
    }

    fn info(&self) -> String {
        let mut s = format!("fleet={};givens={}", self.fleet_label(), self.given_count());
        if let Some(level) = &self.level {
            s.push_str(&format!(";level={level}"));
        }
        s
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let grid: Option<Grid> = answer.and_then(|a| {
            let lines: Vec<String> = serde_json::from_value(a.json["grid"].clone()).ok()?;
            lines
                .iter()
                .map(|l| l.chars().map(Cell::from_symbol).collect::<Option<Vec<_>>>())
                .collect()
        });
        Some(picture::svg(self, grid.as_deref()))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
