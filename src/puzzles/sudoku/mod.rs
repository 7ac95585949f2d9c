//! Sudoku on an n×n grid with boxes of `box_rows` × `box_cols` cells (n = box_rows · box_cols):
//! 4×4, 6×6 (2×3 boxes), 9×9, 16×16, 25×25 and any other box shape; and its variants:
//! jigsaw (irregular regions instead of boxes), X (each main diagonal holds every value
//! once) and killer (cages whose values differ and add up to the cage's sum), alone or
//! together, as Simon Tatham's Solo makes them.
//!
//! Formulations: [`binary`] (the report's model (3.1), with a row per value and area for
//! regions and diagonals, and a killer cage as KenKen's `+` cage row), [`values`] (the area
//! model of the Sudoku/KenKen blog post, with value variables through which the givens are
//! fixed; regions and diagonals are more areas, as the post suggests) and
//! [`combinations`] (`binary` with every killer cage written as the combinations of
//! [`crate::puzzles::cages`]). The verifier in [`verify`] checks the
//! rules from the grid alone and shares no code with the formulations.

pub mod binary;
pub mod combinations;
pub mod parse;
pub mod picture;
pub mod tables;
pub mod user_schema;
pub mod values;
pub mod verify;

use super::cages::Cage;
use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;

/// The registry entry of Sudoku.
pub static PUZZLE: PuzzleDef<Sudoku> = PuzzleDef {
    key: "sudoku",
    description: "Sudoku with any box shape (4x4, 6x6, 9x9, 16x16, 25x25, ...)",
    formulations: &[
        Formulation {
            key: "binary",
            description: "x[i,j,k] = 1 iff cell (i,j) holds k; set partitioning per row, column, box, cell (report (3.1))",
            kind: Kind::Mip,
            build: |p| Ok(binary::build(p).0),
            solve: |p, run: &Run| {
                run.count(|| binary::build(p), |x, v| x.nogood(v), |x, v| p.answer(x.decode(v)))
            },
        },
        Formulation {
            key: "values",
            description: "area rows on x[i,j,k] plus value variables v[i,j] = sum k x[i,j,k]; givens fixed through v",
            kind: Kind::Mip,
            build: |p| Ok(values::build(p).0),
            solve: |p, run: &Run| run.compact(|| values::build(p), |x, v| p.answer(x.decode(v))),
        },
        Formulation {
            key: "combinations",
            description: "binary, with each killer cage's sum as one binary per set of values it can hold (the KenKen combinations model); binary itself without cages",
            kind: Kind::Mip,
            build: |p| combinations::build(p).map(|b| b.0),
            solve: combinations::solve,
        },
    ],
    formats: "one puzzle per line: n*n characters, '.' or '0' blank, 1-9 then A-Z for 10-35, '#' comments; \
              or Simon Tatham's Solo game IDs such as '3x3:a4_9_7h...', with the X, jigsaw and killer variants \
              ('3x3x:', '9j:', '3x3k:'); or the variant text format: 'sudoku N', 'boxes RxC', 'diagonals', \
              'regions' and n lines of region letters, 'givens' and n lines of cells, 'cage SUM r1c1 r1c2 ...'",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: None,
    user: Some(user_schema::SCHEMA),
};

/// Every committed instance, both formulations; the variants (X, jigsaw, killer) beside
/// them, `combinations` on the killer puzzles; the engine comparison on the report's
/// Figure 3.1, the blog puzzle and the 6×6 killer puzzles. The full suite repeats each run
/// three times.
fn suite(quick: bool) -> super::Suite {
    super::Suite {
        parts: vec![
            SuitePart::new(vec!["sudoku"], vec!["binary", "values"], 60.0).also_on(&["gurobi"]),
            SuitePart::new(
                vec!["sudoku/variants/x", "sudoku/variants/jigsaw"],
                vec!["binary", "values"],
                60.0,
            ),
            SuitePart::new(
                vec!["sudoku/variants/killer"],
                vec!["binary", "values", "combinations"],
                60.0,
            ),
            comparison(quick),
        ],
        repeats: if quick { 1 } else { 3 },
    }
}

/// The engine comparison: every formulation (`combinations` is `binary` on a Sudoku
/// without cages) on a 16×16 Sudoku and a killer 9×9 one, where HiGHS takes about 7 to
/// 50 ms in the quick suite (9×9 Sudokus take it 2 to 4 ms: too fast to rank engines);
/// the full suite adds two 25×25 Sudokus (40 to 90 ms) and runs to the report parts'
/// limit.
fn comparison(quick: bool) -> SuitePart {
    let mut instances = vec![
        "sudoku/comparison/solo_4x4_extreme.txt",
        "sudoku/comparison/solo_3x3kde.txt",
    ];
    if !quick {
        instances.push("sudoku/comparison/solo_5x5_basic.txt");
    }
    SuitePart::engines(
        instances,
        vec!["binary", "values", "combinations"],
        if quick { 2.0 } else { 60.0 },
        3,
        "Chosen by difficulty: HiGHS (the default engine) takes about 7 to 50 ms on them in the quick suite, between the 10 ms under which timer and process noise decide and a tenth of the 2 s limit; 9×9 Sudokus (2 to 4 ms) are too easy. A 16×16 Sudoku and a killer 9×9 one; the full suite adds two 25×25 Sudokus at a 60 s limit.",
    )
}

/// A Sudoku instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku {
    /// Instance name.
    pub name: String,
    /// Rows of one box.
    pub box_rows: usize,
    /// Columns of one box.
    pub box_cols: usize,
    /// Givens, row by row: `givens[i][j]` is 0 for a blank, else the value 1..=n.
    pub givens: Vec<Vec<u32>>,
    /// Jigsaw regions in place of the boxes: `regions[i][j]` numbers the region of cell
    /// (i, j) from 0 (n regions of n cells); `None` for boxes.
    pub regions: Option<Vec<Vec<usize>>>,
    /// X-Sudoku: each of the two main diagonals holds every value once.
    pub diagonals: bool,
    /// Killer cages: the values of a cage's cells differ and add up to its target (their
    /// operation is always [`crate::puzzles::cages::Op::Add`]).
    pub cages: Vec<Cage>,
}

/// A set of cells that holds every value once: a row, a column, a box or region, or a
/// diagonal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    /// Its kind, used in row names: `row`, `col`, `box`, `region` or `diag`.
    pub kind: &'static str,
    /// Its number within its kind, from 1.
    pub index: usize,
    /// Its cells (row, column), from 0.
    pub cells: Vec<(usize, usize)>,
}

impl Sudoku {
    /// Side of the grid: box_rows · box_cols.
    pub fn n(&self) -> usize {
        self.box_rows * self.box_cols
    }

    /// A plain Sudoku (no variant) with these boxes and givens.
    pub fn plain(box_rows: usize, box_cols: usize, givens: Vec<Vec<u32>>) -> Sudoku {
        Sudoku {
            name: String::new(),
            box_rows,
            box_cols,
            givens,
            regions: None,
            diagonals: false,
            cages: Vec::new(),
        }
    }

    /// The variant: `plain`, or the variants joined by `+` (`x`, `jigsaw`, `killer`).
    pub fn variant(&self) -> String {
        let mut v = Vec::new();
        if self.regions.is_some() {
            v.push("jigsaw");
        }
        if self.diagonals {
            v.push("x");
        }
        if !self.cages.is_empty() {
            v.push("killer");
        }
        if v.is_empty() {
            "plain".into()
        } else {
            v.join("+")
        }
    }

    /// The box or region of cell (i, j), numbered from 0 (boxes in reading order).
    pub fn region(&self, i: usize, j: usize) -> usize {
        match &self.regions {
            Some(r) => r[i][j],
            None => (i / self.box_rows) * (self.n() / self.box_cols) + j / self.box_cols,
        }
    }

    /// The areas whose cells hold every value once: rows, columns, boxes (or jigsaw
    /// regions) and, for X-Sudoku, the two diagonals (main, then anti-diagonal).
    pub fn areas(&self) -> Vec<Area> {
        let n = self.n();
        let mut areas = Vec::with_capacity(3 * n + 2);
        for i in 0..n {
            let cells = (0..n).map(|j| (i, j)).collect();
            areas.push(Area {
                kind: "row",
                index: i + 1,
                cells,
            });
        }
        for j in 0..n {
            let cells = (0..n).map(|i| (i, j)).collect();
            areas.push(Area {
                kind: "col",
                index: j + 1,
                cells,
            });
        }
        let kind = if self.regions.is_some() {
            "region"
        } else {
            "box"
        };
        let mut regions = vec![Vec::new(); n];
        for i in 0..n {
            for j in 0..n {
                regions[self.region(i, j)].push((i, j));
            }
        }
        for (r, cells) in regions.into_iter().enumerate() {
            areas.push(Area {
                kind,
                index: r + 1,
                cells,
            });
        }
        if self.diagonals {
            areas.push(Area {
                kind: "diag",
                index: 1,
                cells: (0..n).map(|i| (i, i)).collect(),
            });
            areas.push(Area {
                kind: "diag",
                index: 2,
                cells: (0..n).map(|i| (i, n - 1 - i)).collect(),
            });
        }
        areas
    }

    /// Number of given cells.
    pub fn clues(&self) -> usize {
        self.givens.iter().flatten().filter(|&&v| v != 0).count()
    }

    /// The instance as one line: "RxC:" then the cells, '.' for blanks; a variant adds
    /// `|x`, `|regions:` and the region of each cell, `|cage:SUM:` and its cells.
    pub fn to_line(&self) -> String {
        let mut s = format!("{}x{}:", self.box_rows, self.box_cols);
        for v in self.givens.iter().flatten() {
            s.push(parse::value_char(*v));
        }
        if self.diagonals {
            s.push_str("|x");
        }
        if let Some(regions) = &self.regions {
            s.push_str("|regions:");
            let ids: Vec<String> = regions.iter().flatten().map(|r| r.to_string()).collect();
            s.push_str(&ids.join(","));
        }
        for c in &self.cages {
            s.push_str(&format!("|cage:{}:", c.target));
            let cells: Vec<String> = c
                .cells
                .iter()
                .map(|(i, j)| format!("r{}c{}", i + 1, j + 1))
                .collect();
            s.push_str(&cells.join(","));
        }
        s
    }

    /// Draws a grid (givens or a solution) with box separators; 0 is drawn as '.'.
    /// Jigsaw regions are not drawn (the SVG picture shows them).
    pub fn draw(&self, grid: &[Vec<u32>]) -> String {
        let width = if self.n() > 9 { 2 } else { 1 };
        let boxed = self.regions.is_none();
        let lines: Vec<String> = grid
            .iter()
            .map(|row| {
                let mut line = String::new();
                for (j, v) in row.iter().enumerate() {
                    if boxed && j > 0 && j % self.box_cols == 0 {
                        line.push_str(" |");
                    }
                    let cell = if *v == 0 {
                        ".".to_string()
                    } else {
                        v.to_string()
                    };
                    line.push_str(&format!(" {cell:>width$}"));
                }
                line
            })
            .collect();
        let mut s = String::new();
        for (i, line) in lines.iter().enumerate() {
            if boxed && i > 0 && i % self.box_rows == 0 {
                let sep: String = line
                    .chars()
                    .map(|c| if c == '|' { '+' } else { '-' })
                    .collect();
                s.push_str(&sep);
                s.push('\n');
            }
            s.push_str(line);
            s.push('\n');
        }
        s
    }
}

impl Instance for Sudoku {
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
        if self.cages.is_empty() && self.regions.is_none() && !self.diagonals {
            format!("clues={}", self.clues())
        } else {
            format!(
                "clues={};variant={};cages={}",
                self.clues(),
                self.variant(),
                self.cages.len()
            )
        }
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

impl Sudoku {
    pub(crate) fn answer(&self, grid: Vec<Vec<u32>>) -> Answer {
        Answer {
            verdict: verify::check(self, &grid),
            text: self.draw(&grid),
            json: serde_json::json!({ "grid": grid }),
        }
    }
}
