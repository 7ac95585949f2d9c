//! Sudoku on an n×n grid with boxes of `box_rows` × `box_cols` cells (n = box_rows · box_cols):
//! 4×4, 6×6 (2×3 boxes), 9×9, 16×16, 25×25 and any other box shape.
//!
//! Formulations: [`binary`] (the report's model (3.1)) and [`values`] (the area model of
//! the Sudoku/KenKen blog post, with value variables through which the givens are fixed).
//! The verifier in [`verify`] checks the rules from the grid alone and shares no code
//! with either formulation.

pub mod binary;
pub mod parse;
pub mod picture;
pub mod tables;
pub mod values;
pub mod verify;

use super::{Answer, Formulation, Instance, PuzzleDef, Report, Run, SuitePart};
use crate::backends::{Engine, Kind, SolveOptions};
use crate::model::Model;

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
            solve: |p, run: &Run| run.compact(|| binary::build(p), |x, v| p.answer(x.decode(v))),
        },
        Formulation {
            key: "values",
            description: "area rows on x[i,j,k] plus value variables v[i,j] = sum k x[i,j,k]; givens fixed through v",
            kind: Kind::Mip,
            build: |p| Ok(values::build(p).0),
            solve: |p, run: &Run| run.compact(|| values::build(p), |x, v| p.answer(x.decode(v))),
        },
    ],
    formats: "one puzzle per line: n*n characters, '.' or '0' blank, 1-9 then A-Z for 10-35, '#' comments; \
              or Simon Tatham's Solo game IDs such as '3x3:a4_9_7h...'",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: None,
};

/// Every committed instance, both formulations; the full suite repeats each run three times.
fn suite(quick: bool) -> super::Suite {
    super::Suite {
        parts: vec![
            SuitePart::new(vec!["sudoku"], vec!["binary", "values"], 60.0),
            SuitePart::backends(
                vec!["sudoku/report_fig3_1.txt", "sudoku/blog_003.txt"],
                vec!["binary", "values"],
                60.0,
            ),
        ],
        repeats: if quick { 1 } else { 3 },
    }
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
}

impl Sudoku {
    /// Side of the grid: box_rows · box_cols.
    pub fn n(&self) -> usize {
        self.box_rows * self.box_cols
    }

    /// Number of given cells.
    pub fn clues(&self) -> usize {
        self.givens.iter().flatten().filter(|&&v| v != 0).count()
    }

    /// The instance as one line: "RxC:" then the cells, '.' for blanks.
    pub fn to_line(&self) -> String {
        let mut s = format!("{}x{}:", self.box_rows, self.box_cols);
        for v in self.givens.iter().flatten() {
            s.push(parse::value_char(*v));
        }
        s
    }

    /// Draws a grid (givens or a solution) with box separators; 0 is drawn as '.'.
    pub fn draw(&self, grid: &[Vec<u32>]) -> String {
        let width = if self.n() > 9 { 2 } else { 1 };
        let lines: Vec<String> = grid
            .iter()
            .map(|row| {
                let mut line = String::new();
                for (j, v) in row.iter().enumerate() {
                    if j > 0 && j % self.box_cols == 0 {
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
            if i > 0 && i % self.box_rows == 0 {
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
        format!("clues={}", self.clues())
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let grid: Option<Vec<Vec<u32>>> =
            answer.and_then(|a| serde_json::from_value(a.json["grid"].clone()).ok());
        Some(picture::svg(self, grid.as_deref()))
    }

    fn build(&self, formulation: &str) -> Result<Model, String> {
        PUZZLE.build(self, formulation)
    }

    fn solve(
        &self,
        formulation: &str,
        engine: Engine,
        options: &SolveOptions,
    ) -> Result<Report, String> {
        PUZZLE.solve(self, formulation, engine, options)
    }
}

impl Sudoku {
    fn answer(&self, grid: Vec<Vec<u32>>) -> Answer {
        Answer {
            verdict: verify::check(self, &grid),
            text: self.draw(&grid),
            json: serde_json::json!({ "grid": grid }),
        }
    }
}
