//! The area model of the blog post "Sudoku and KenKen as MIPs", with value variables.
//!
//! Variables: `x[i,j,k]` (binary) is 1 when cell (i, j) holds k; `v[i,j]` (integer, 1..=n)
//! is the value of cell (i, j), tied to x by the accounting row v[i,j] = Σ_k k·x[i,j,k].
//! Rows: value k once in every area a, where the areas are the rows, the columns and
//! the boxes (the post's set u[a,i,j]); one value per cell. Givens are fixed through
//! v: the bounds of v[i,j] are both c[i,j]. The objective is 0.
//!
//! Variants, as the post's areas suggest: a jigsaw region is an area in place of a box
//! (`area_g`), and so is each main diagonal of X-Sudoku (`area_d`). A killer cage c with
//! sum s adds the `+` cage row Σ_{(i,j) ∈ c} v[i,j] = s (`cagesum_c`) and, because its
//! values differ, each value at most once in it (`cage_c_k`).
//!
//! Against `binary` this adds n² integer columns and n² accounting rows, and replaces the
//! n-row fixing of each given by a bound on v, which the LP relaxation can meet with
//! fractional x (only Σ k·x is pinned, not which k).

use super::Sudoku;
use crate::model::{Model, Name, VarId, VarKind};

/// Maps solver values back to a grid through v.
pub struct Decoder {
    n: usize,
    v: Vec<VarId>,
}

impl Decoder {
    /// The rounded value of v[i,j] in each cell.
    pub fn decode(&self, values: &[f64]) -> Vec<Vec<u32>> {
        (0..self.n)
            .map(|i| {
                (0..self.n)
                    .map(|j| values[self.v[i * self.n + j].0].round().max(0.0) as u32)
                    .collect()
            })
            .collect()
    }
}

/// Builds the area model for `p`.
pub fn build(p: &Sudoku) -> (Model, Decoder) {
    let n = p.n();
    let mut m = Model::new(format!("sudoku_values_{}", p.name));
    let mut x = Vec::with_capacity(n * n * n);
    for i in 1..=n {
        for j in 1..=n {
            for k in 1..=n {
                x.push(m.add_binary(Name::idx("x", &[i, j, k])));
            }
        }
    }
    let mut v = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let g = p.givens[i][j] as f64;
            let (lo, hi) = if g > 0.0 { (g, g) } else { (1.0, n as f64) };
            v.push(m.add_var(
                Name::idx("v", &[i + 1, j + 1]),
                VarKind::Integer,
                lo,
                hi,
                0.0,
            ));
        }
    }
    let at = |i: usize, j: usize, k: usize| x[(i * n + j) * n + k];
    // The areas: rows, columns, boxes or regions, diagonals; rows named
    // area_r/c/s/g/d_<a>_<k>.
    for area in p.areas() {
        let prefix = match area.kind {
            "row" => "area_r",
            "col" => "area_c",
            "box" => "area_s",
            "region" => "area_g",
            _ => "area_d",
        };
        for k in 0..n {
            m.add_eq(
                Name::idx(prefix, &[area.index, k + 1]),
                area.cells.iter().map(|&(i, j)| (at(i, j, k), 1.0)),
                1.0,
            );
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
            let terms = std::iter::once((v[i * n + j], 1.0))
                .chain((0..n).map(|k| (at(i, j, k), -((k + 1) as f64))));
            m.add_eq(Name::idx("value", &[i + 1, j + 1]), terms, 0.0);
        }
    }
    for (c, cage) in p.cages.iter().enumerate() {
        let sum = cage.cells.iter().map(|&(i, j)| (v[i * n + j], 1.0));
        m.add_eq(Name::idx("cagesum", &[c + 1]), sum, cage.target as f64);
        for k in 0..n {
            let once = cage.cells.iter().map(|&(i, j)| (at(i, j, k), 1.0));
            m.add_le(Name::idx("cage", &[c + 1, k + 1]), once, 1.0);
        }
    }
    (m, Decoder { n, v })
}
