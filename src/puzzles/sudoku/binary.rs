//! The report's Sudoku model (3.1), for any box shape.
//!
//! Variables: `x[i,j,k]` (binary) is 1 when cell (i, j) holds the value k, for i, j, k in 1..=n.
//! Rows: each value once per column (3.1b), per row (3.1c) and per box (3.1d); each cell
//! one value (3.1e); each given c[i,j] as the row x[i,j,c[i,j]] = 1 (3.1f). The objective is 0.
//!
//! Variants (not in the report): a jigsaw region takes the place of a box
//! (`region_r_k`); X-Sudoku adds each value once per main diagonal (`diag_d_k`); a killer
//! cage c with sum s adds the `+` cage row of KenKen's log and Melkonian models,
//! Σ_{(i,j) ∈ c} Σ_k k·x[i,j,k] = s (`cagesum_c`), and, because its values differ, each
//! value at most once in it, Σ_{(i,j) ∈ c} x[i,j,k] ≤ 1 (`cage_c_k`).
//!
//! Deviation from the report: (3.1d) assumes square boxes of side m = √n; here a box is
//! `box_rows` × `box_cols`, which is the same model when both equal √n.

use super::Sudoku;
use crate::model::{Model, Name, VarId};

/// Maps solver values back to a grid.
pub struct Decoder {
    n: usize,
    x: Vec<VarId>,
}

impl Decoder {
    /// The value k with x[i,j,k] = 1 in each cell (0 where none is set).
    pub fn decode(&self, values: &[f64]) -> Vec<Vec<u32>> {
        let n = self.n;
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        (0..n)
                            .find(|&k| values[self.x[(i * n + j) * n + k].0] > 0.5)
                            .map_or(0, |k| k as u32 + 1)
                    })
                    .collect()
            })
            .collect()
    }
}

/// Builds model (3.1) for `p`, with its variants' rows.
pub fn build(p: &Sudoku) -> (Model, Decoder) {
    let (mut m, d) = build_areas(p);
    let at = |(i, j): (usize, usize), k: usize| d.x[(i * d.n + j) * d.n + k - 1];
    for (c, cage) in p.cages.iter().enumerate() {
        let sum = cage
            .cells
            .iter()
            .flat_map(|&cell| (1..=d.n).map(move |k| (at(cell, k), k as f64)));
        m.add_eq(Name::idx("cagesum", &[c + 1]), sum, cage.target as f64);
        for k in 1..=d.n {
            let once = cage.cells.iter().map(|&cell| (at(cell, k), 1.0));
            m.add_le(Name::idx("cage", &[c + 1, k]), once, 1.0);
        }
    }
    (m, d)
}

impl Decoder {
    /// The no-good row of a solution (for `--count`): the same value in every cell is
    /// excluded.
    pub fn nogood(&self, values: &[f64]) -> crate::lazy::Cut {
        crate::puzzles::counting::nogood_of_ones(&self.x, values)
    }

    /// The column x[i,j,k] (cell from 0, k in 1..=n).
    pub fn at(&self, (i, j): (usize, usize), k: usize) -> VarId {
        self.x[(i * self.n + j) * self.n + k - 1]
    }
}

/// Model (3.1) with the areas of the variants (jigsaw regions, diagonals), without the
/// killer cages.
pub fn build_areas(p: &Sudoku) -> (Model, Decoder) {
    let n = p.n();
    let mut m = Model::new(format!("sudoku_binary_{}", p.name));
    let mut x = Vec::with_capacity(n * n * n);
    for i in 1..=n {
        for j in 1..=n {
            for k in 1..=n {
                x.push(m.add_binary(Name::idx("x", &[i, j, k])));
            }
        }
    }
    let at = |i: usize, j: usize, k: usize| x[(i * n + j) * n + k];
    for j in 0..n {
        for k in 0..n {
            m.add_eq(
                Name::idx("col", &[j + 1, k + 1]),
                (0..n).map(|i| (at(i, j, k), 1.0)),
                1.0,
            );
        }
    }
    for i in 0..n {
        for k in 0..n {
            m.add_eq(
                Name::idx("row", &[i + 1, k + 1]),
                (0..n).map(|j| (at(i, j, k), 1.0)),
                1.0,
            );
        }
    }
    if p.regions.is_none() {
        for bi in 0..p.box_cols {
            for bj in 0..p.box_rows {
                for k in 0..n {
                    let cells =
                        (0..p.box_rows).flat_map(|di| (0..p.box_cols).map(move |dj| (di, dj)));
                    let terms = cells
                        .map(|(di, dj)| (at(bi * p.box_rows + di, bj * p.box_cols + dj, k), 1.0));
                    m.add_eq(Name::idx("box", &[bi + 1, bj + 1, k + 1]), terms, 1.0);
                }
            }
        }
    }
    for area in p.areas() {
        if area.kind == "region" || area.kind == "diag" {
            for k in 0..n {
                let terms = area.cells.iter().map(|&(i, j)| (at(i, j, k), 1.0));
                m.add_eq(Name::idx(area.kind, &[area.index, k + 1]), terms, 1.0);
            }
        }
    }
    for i in 0..n {
        for j in 0..n {
            m.add_eq(
                Name::idx("cell", &[i + 1, j + 1]),
                (0..n).map(|k| (at(i, j, k), 1.0)),
                1.0,
            );
        }
    }
    for i in 0..n {
        for j in 0..n {
            let g = p.givens[i][j] as usize;
            if g != 0 {
                m.add_eq(
                    Name::idx("given", &[i + 1, j + 1]),
                    [(at(i, j, g - 1), 1.0)],
                    1.0,
                );
            }
        }
    }
    (m, Decoder { n, x })
}
