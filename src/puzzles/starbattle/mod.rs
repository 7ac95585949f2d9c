//! Star Battle (Parks): place stars (trees) in a grid divided into regions (parks) so that
//! every row, every column and every region holds exactly m of them and no two stars
//! touch, not even diagonally. A rectangular grid (h rows, w columns) takes R stars per
//! row, C per column and K per region, with h·R = w·C = K·(regions). In some puzzles cells lie outside every region; they take
//! no star (the blog post on Parks mentions such non-regular puzzles).
//!
//! Formulations, both on the cell binaries x[i,j] = 1 when cell (i, j) holds a star, with
//! Σ_row x = m, Σ_column x = m and Σ_region x = m, and x = 0 outside every region; they
//! differ in the rule that stars do not touch:
//! * [`window`]: the blog post's rows, one per 2×2 window of the grid, Σ_window x ≤ 1 (two
//!   touching cells always share a 2×2 window, and a window's cells all touch);
//! * [`pairwise`]: the naive rule, x_a + x_b ≤ 1 for every pair of touching cells (four
//!   pairs per cell: right, below, below left, below right).
//!
//! The verifier in [`verify`] counts stars and looks at neighbours from the instance and
//! the grid alone, sharing no code with the formulations.

pub mod generate;
pub mod pairwise;
pub mod parse;
pub mod picture;
pub mod tables;
pub mod url;
pub mod user_schema;
pub mod verify;
pub mod window;

use super::counting::nogood_of_ones;
use super::formulation::{grid_of_ones, mark_lines};
use super::{Answer, Formulation, InputError, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;
use crate::lazy::Cut;
use crate::model::{Model, Name, VarId, VarKind};
use std::path::Path;

/// The registry entry of Star Battle.
pub static PUZZLE: PuzzleDef<StarBattle> = PuzzleDef {
    key: "starbattle",
    description: "Star Battle (Parks): m stars in every row, column and region, no two touching",
    formulations: &[
        Formulation {
            key: "window",
            description: "x[i,j] = 1 iff cell (i,j) holds a star; m per row, column and region; at most one star per 2x2 window (Parks blog post)",
            kind: Kind::Mip,
            build: |p| Ok(window::build(p).0),
            solve: |p, run: &Run| {
                run.count(|| window::build(p), |c, v| c.nogood(v), |c, v| p.answer(&c.decode(v)))
            },
        },
        Formulation {
            key: "pairwise",
            description: "x[i,j] = 1 iff cell (i,j) holds a star; m per row, column and region; x_a + x_b <= 1 for every pair of touching cells",
            kind: Kind::Mip,
            build: |p| Ok(pairwise::build(p).0),
            solve: |p, run: &Run| {
                run.count(|| pairwise::build(p), |c, v| c.nogood(v), |c, v| p.answer(&c.decode(v)))
            },
        },
    ],
    formats: "text: 'starbattle M' (stars per row, column and region) or 'starbattle R C K' (a rectangular grid: per row, per column, per region), then one line per row with a \
              character per cell naming its region (letters or digits; '.' for a cell outside every region); \
              optional 'solution' block ('*' star, '.' empty); '#' comments; or puzz.link URLs, one per line ('https://puzz.link/p?starbattle/COLS/ROWS/STARS/BORDERS')",
    hidden: false,
    parse: parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: Some(&generate::GENERATOR),
    user: Some(user_schema::SCHEMA),
};

/// Parses the puzzles in `text` (the contents of `path`): puzz.link URLs, one per line
/// ([`url`]), or else the text format, one puzzle ([`parse`]).
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<StarBattle>, InputError> {
    if url::looks_like_urls(text) {
        return url::parse_urls(path, text);
    }
    parse::parse_text(path, text).map(|p| vec![p])
}
/// The committed puzzles, both formulations (quick: once each, 20 s; full: three times,
/// 60 s); the engine part compares every engine on a 10×10 puzzle with m = 2 (full: the
/// five 10×10 and the five 14×14 puzzles with m = 3; GLPK and microlp take up to a minute
/// on some 14×14 ones).
fn suite(quick: bool) -> super::Suite {
    let both = vec!["window", "pairwise"];
    let limit = if quick { 20.0 } else { 60.0 };
    let backends = if quick {
        vec![
            "starbattle/generated/sb_12x12_m2_s1.txt",
            "starbattle/generated/sb_14x14_m3_s4.txt",
        ]
    } else {
        (1..=5)
            .flat_map(|s| [BACKEND_10[s - 1], BACKEND_14[s - 1]])
            .collect()
    };
    super::Suite {
        parts: vec![
            SuitePart::new(vec!["starbattle/generated"], both.clone(), limit),
            SuitePart::engines(
                backends,
                both,
                if quick { 2.0 } else { limit },
                3,
                "Chosen by difficulty: a 12×12 puzzle with 2 stars and a 14×14 one with 3, where HiGHS takes about 30 to 60 ms in the quick suite (10×10 puzzles take it 3 to 30 ms, most under 10), at a 2 s limit; the full suite compares on five 10×10 and five 14×14 puzzles at 60 s.",
            ),
        ],
        repeats: if quick { 1 } else { 3 },
    }
}

/// The 10×10 puzzles (m = 2) of the full engine part.
const BACKEND_10: [&str; 5] = [
    "starbattle/generated/sb_10x10_m2_s1.txt",
    "starbattle/generated/sb_10x10_m2_s2.txt",
    "starbattle/generated/sb_10x10_m2_s3.txt",
    "starbattle/generated/sb_10x10_m2_s4.txt",
    "starbattle/generated/sb_10x10_m2_s5.txt",
];

/// The 14×14 puzzles (m = 3) of the full engine part.
const BACKEND_14: [&str; 5] = [
    "starbattle/generated/sb_14x14_m3_s1.txt",
    "starbattle/generated/sb_14x14_m3_s2.txt",
    "starbattle/generated/sb_14x14_m3_s3.txt",
    "starbattle/generated/sb_14x14_m3_s4.txt",
    "starbattle/generated/sb_14x14_m3_s5.txt",
];

/// A Star Battle instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StarBattle {
    /// Instance name.
    pub name: String,
    /// Stars in every region (m; in a square puzzle also in every row and column).
    pub stars: usize,
    /// Stars in every row (m in a square puzzle).
    pub row_stars: usize,
    /// Stars in every column (m in a square puzzle).
    pub col_stars: usize,
    /// The region of each cell, row by row (`None`: outside every region), regions
    /// numbered from 0 in the order their letters first appear.
    pub regions: Vec<Vec<Option<usize>>>,
    /// The letter of each region, for printing.
    pub letters: Vec<char>,
    /// The expected answer, where the file gives one.
    pub solution: Option<Vec<Vec<bool>>>,
}

impl StarBattle {
    /// Rows.
    pub fn height(&self) -> usize {
        self.regions.len()
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.regions.first().map_or(0, |r| r.len())
    }

    /// The number of regions.
    pub fn region_count(&self) -> usize {
        self.letters.len()
    }

    /// The puzzle in the text format.
    pub fn to_text(&self) -> String {
        let mut s = format!("starbattle {}\n", self.stars_text());
        for row in &self.regions {
            let line: String = row
                .iter()
                .map(|r| r.map_or('.', |k| self.letters[k]))
                .collect();
            s.push_str(&line);
            s.push('\n');
        }
        s
    }

    /// The stars as the header gives them: `M` when rows, columns and regions all take m,
    /// else `R C K` (per row, per column, per region).
    pub fn stars_text(&self) -> String {
        if self.row_stars == self.stars && self.col_stars == self.stars {
            self.stars.to_string()
        } else {
            format!("{} {} {}", self.row_stars, self.col_stars, self.stars)
        }
    }

    /// Draws a grid of stars, `*` for a star and `.` for an empty cell.
    pub fn draw(grid: &[Vec<bool>]) -> Vec<String> {
        mark_lines(grid, '*')
    }

    /// The answer of a grid of stars, checked by the verifier.
    pub fn answer(&self, grid: &[Vec<bool>]) -> Answer {
        Answer::of_marked_grid(grid, '*', verify::check(self, grid))
    }
}

/// The cell binaries and the rows both formulations share: x[i,j] is 1 when cell (i, j)
/// holds a star (fixed to 0 outside every region); m per row, column and region.
pub struct Cells {
    width: usize,
    x: Vec<VarId>,
}

impl Cells {
    /// Adds the columns x and the counting rows (`row`, `col`, `region`) to `m`.
    pub fn add(m: &mut Model, p: &StarBattle) -> Cells {
        let (h, w) = (p.height(), p.width());
        let mut x = Vec::with_capacity(h * w);
        for i in 0..h {
            for j in 0..w {
                let hi = if p.regions[i][j].is_some() { 1.0 } else { 0.0 };
                x.push(m.add_var(
                    Name::idx("x", &[i + 1, j + 1]),
                    VarKind::Binary,
                    0.0,
                    hi,
                    0.0,
                ));
            }
        }
        let cells = Cells { width: w, x };
        let stars = p.stars as f64;
        for i in 0..h {
            m.add_eq(
                Name::idx("row", &[i + 1]),
                (0..w).map(|j| (cells.at(i, j), 1.0)),
                p.row_stars as f64,
            );
        }
        for j in 0..w {
            m.add_eq(
                Name::idx("col", &[j + 1]),
                (0..h).map(|i| (cells.at(i, j), 1.0)),
                p.col_stars as f64,
            );
        }
        let mut members: Vec<Vec<(VarId, f64)>> = vec![Vec::new(); p.region_count()];
        for i in 0..h {
            for j in 0..w {
                if let Some(k) = p.regions[i][j] {
                    members[k].push((cells.at(i, j), 1.0));
                }
            }
        }
        for (k, terms) in members.into_iter().enumerate() {
            m.add_eq(Name::idx("region", &[k + 1]), terms, stars);
        }
        cells
    }

    /// The column x of cell (i, j).
    pub fn at(&self, i: usize, j: usize) -> VarId {
        self.x[i * self.width + j]
    }

    /// The grid of a solution.
    pub fn decode(&self, values: &[f64]) -> Vec<Vec<bool>> {
        grid_of_ones(&self.x, self.width, values)
    }

    /// The no-good row of a solution: every solution has the same number of stars, so
    /// Σ_{stars of this solution} x ≤ stars − 1 cuts exactly this one.
    pub fn nogood(&self, values: &[f64]) -> Cut {
        nogood_of_ones(&self.x, values)
    }
}

impl Instance for StarBattle {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        self.to_text()
    }

    fn size_label(&self) -> String {
        if self.row_stars == self.stars && self.col_stars == self.stars {
            format!("{}x{} m={}", self.width(), self.height(), self.stars)
        } else {
            format!(
                "{}x{} stars={}/{}/{}",
                self.width(),
                self.height(),
                self.row_stars,
                self.col_stars,
                self.stars
            )
        }
    }

    fn size(&self) -> f64 {
        (self.width() * self.height()) as f64
    }

    fn info(&self) -> String {
        let outside = self
            .regions
            .iter()
            .flatten()
            .filter(|r| r.is_none())
            .count();
        format!(
            "stars={};regions={};outside={outside};solution={}",
            self.stars,
            self.region_count(),
            self.solution.is_some()
        )
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let grid = answer.and_then(|a| a.marked_grid('*'));
        Some(picture::svg(self, grid.as_deref()))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
