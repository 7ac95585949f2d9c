//! The report's grid-based model (GBM, report (4.1)): choose ship placements.
//!
//! A placement a is one ship of length l at one position and direction that fits on the
//! grid (the report's grid A_a holding one ship); P_l are the placements of length l, for
//! every l with S_l > 0. A one-cell ship has one placement per cell.
//!
//! Variables: `y[a]` (binary) is 1 when placement a is in the solution.
//! Rows, in the order the report found fastest (givens first):
//! * (4.1b) givens: a given ship part of type k at (i, j) is covered by exactly one chosen
//!   placement that has type k there; a given water cell by none;
//! * (4.1c), (4.1d) row and column sums: the chosen placements cover R_i cells of row i
//!   and C_j cells of column j;
//! * (4.1e) no touching: for every 2×2 window of cells, at most one chosen placement has a
//!   part in it;
//! * (4.1f) fleet: exactly S_l chosen placements of length l.
//!
//! The objective is 0 (a feasibility problem).
//!
//! Deviations from the printed model:
//! * (4.1b) is printed as Σ_a y_a A_ija = T_ij, a sum of cell-type codes. Its intent (the
//!   given type appears at (i, j)) is written here as one set-partitioning row per given
//!   ship part over the placements with that type there, and a row forcing to 0 the
//!   placements covering a given water cell. These rows have the same integer solutions
//!   and a tighter relaxation.
//! * E_ija is printed as "X_ija = 1, X_{i+1,j} = 1, X_{i−1,j} = 1 or X_{i,j+1} = 1". Taken
//!   literally (a cell and its orthogonal neighbours) it forbids two ships one water cell
//!   apart, which the rules allow. The intent is the 2×2 window with top-left cell (i, j):
//!   X_ija, X_{i+1,j}, X_{i,j+1} and X_{i+1,j+1}. Two ships touch (share an edge or a corner)
//!   exactly when some 2×2 window holds parts of both, so (4.1e) over all windows is the
//!   no-touch rule. On a grid of one row or one column the windows are 1×2 or 2×1.
//! * Windows that no two placements reach are left out (they would be rows of one term).

use super::{Battleship, Cell, Grid};
use crate::model::{Model, Name, VarId};

/// One ship placement: its top-left cell, its length and its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Row of the top or left end (0-based).
    pub row: usize,
    /// Column of the top or left end (0-based).
    pub col: usize,
    /// Length l.
    pub len: usize,
    /// Runs down a column.
    pub vertical: bool,
}

impl Placement {
    /// The cells of the placement with their cell types (the report's A_ija).
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize, Cell)> + '_ {
        (0..self.len).map(move |p| {
            let (r, c) = if self.vertical {
                (self.row + p, self.col)
            } else {
                (self.row, self.col + p)
            };
            let t = match (self.len, p, self.vertical) {
                (1, _, _) => Cell::Single,
                (_, 0, false) => Cell::Left,
                (_, 0, true) => Cell::Top,
                (l, p, false) if p == l - 1 => Cell::Right,
                (l, p, true) if p == l - 1 => Cell::Bottom,
                _ => Cell::Middle,
            };
            (r, c, t)
        })
    }
}

/// Every placement that fits on an m×n grid, for the lengths with S_l > 0, in order of
/// length, then position, horizontal before vertical.
pub fn placements(p: &Battleship) -> Vec<Placement> {
    let (m, n) = (p.m(), p.n());
    let mut out = Vec::new();
    for (l0, &count) in p.fleet.iter().enumerate() {
        let len = l0 + 1;
        if count == 0 {
            continue;
        }
        for row in 0..m {
            for col in 0..n {
                if col + len <= n {
                    out.push(Placement {
                        row,
                        col,
                        len,
                        vertical: false,
                    });
                }
                if len > 1 && row + len <= m {
                    out.push(Placement {
                        row,
                        col,
                        len,
                        vertical: true,
                    });
                }
            }
        }
    }
    out
}

/// Maps solver values back to a grid.
pub struct Decoder {
    m: usize,
    n: usize,
    /// The placements, with their variables.
    pub placements: Vec<(Placement, VarId)>,
}

impl Decoder {
    /// The grid drawn by the chosen placements (y > 0.5); the rest is water.
    pub fn decode(&self, values: &[f64]) -> Grid {
        let mut grid = vec![vec![Cell::Water; self.n]; self.m];
        for (a, y) in &self.placements {
            if values[y.0] > 0.5 {
                for (r, c, t) in a.cells() {
                    grid[r][c] = t;
                }
            }
        }
        grid
    }
}

/// How the row and column sums are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sums {
    /// Over the placements, each weighted by the cells it has in the row or column (the
    /// report's (4.1c), (4.1d)).
    Weighted,
    /// Over cell columns z[i,j] = Σ_{a covers (i,j)} y[a], one each (cardinality rows):
    /// [`super::gbm_cells`].
    Cells,
}

/// Builds the GBM for `p`.
pub fn build(p: &Battleship) -> (Model, Decoder) {
    build_with(p, Sums::Weighted)
}

/// Builds the GBM for `p` with its sums written as `sums` says.
pub fn build_with(p: &Battleship, sums: Sums) -> (Model, Decoder) {
    let (m, n) = (p.m(), p.n());
    let all = placements(p);
    let name = match sums {
        Sums::Weighted => "gbm",
        Sums::Cells => "gbm_cells",
    };
    let mut model = Model::new(format!("battleship_{name}_{}", p.name));
    let y: Vec<VarId> = all
        .iter()
        .map(|a| {
            model.add_binary(Name::idx(
                "y",
                &[a.len, a.row + 1, a.col + 1, a.vertical as usize],
            ))
        })
        .collect();
    // cover[i * n + j]: the placements with a part at (i, j), with the part's type.
    let mut cover: Vec<Vec<(usize, Cell)>> = vec![Vec::new(); m * n];
    for (a, pl) in all.iter().enumerate() {
        for (r, c, t) in pl.cells() {
            cover[r * n + c].push((a, t));
        }
    }
    // (4.1b) givens.
    for i in 0..m {
        for j in 0..n {
            match p.givens[i][j] {
                None => {}
                Some(Cell::Water) => {
                    let terms: Vec<(VarId, f64)> =
                        cover[i * n + j].iter().map(|&(a, _)| (y[a], 1.0)).collect();
                    if !terms.is_empty() {
                        model.add_eq(Name::idx("given", &[i + 1, j + 1]), terms, 0.0);
                    }
                }
                Some(k) => model.add_eq(
                    Name::idx("given", &[i + 1, j + 1]),
                    cover[i * n + j]
                        .iter()
                        .filter(|&&(_, t)| t == k)
                        .map(|&(a, _)| (y[a], 1.0)),
                    1.0,
                ),
            }
        }
    }
    // (4.1c) row sums and (4.1d) column sums: a placement counts once per covered cell,
    // or through the cell columns.
    let mut row_terms: Vec<Vec<(VarId, f64)>> = vec![Vec::new(); m];
    let mut col_terms: Vec<Vec<(VarId, f64)>> = vec![Vec::new(); n];
    match sums {
        Sums::Weighted => {
            for (a, pl) in all.iter().enumerate() {
                for (r, c, _) in pl.cells() {
                    row_terms[r].push((y[a], 1.0));
                    col_terms[c].push((y[a], 1.0));
                }
            }
        }
        Sums::Cells => {
            for i in 0..m {
                for j in 0..n {
                    let z = model.add_binary(Name::idx("z", &[i + 1, j + 1]));
                    model.add_eq(
                        Name::idx("cell", &[i + 1, j + 1]),
                        std::iter::once((z, 1.0))
                            .chain(cover[i * n + j].iter().map(|&(a, _)| (y[a], -1.0))),
                        0.0,
                    );
                    row_terms[i].push((z, 1.0));
                    col_terms[j].push((z, 1.0));
                }
            }
        }
    }
    for (i, terms) in row_terms.into_iter().enumerate() {
        model.add_eq(Name::idx("row", &[i + 1]), terms, p.rows[i] as f64);
    }
    for (j, terms) in col_terms.into_iter().enumerate() {
        model.add_eq(Name::idx("col", &[j + 1]), terms, p.cols[j] as f64);
    }
    // (4.1e) at most one placement with a part in each 2×2 window.
    let mut mark = vec![usize::MAX; all.len()];
    for i in 0..m.saturating_sub(1).max(1) {
        for j in 0..n.saturating_sub(1).max(1) {
            let window = i * n + j;
            let mut terms = Vec::new();
            for r in i..(i + 2).min(m) {
                for c in j..(j + 2).min(n) {
                    for &(a, _) in &cover[r * n + c] {
                        if mark[a] != window {
                            mark[a] = window;
                            terms.push((y[a], 1.0));
                        }
                    }
                }
            }
            if terms.len() > 1 {
                model.add_le(Name::idx("touch", &[i + 1, j + 1]), terms, 1.0);
            }
        }
    }
    // (4.1f) the fleet.
    for (l0, &count) in p.fleet.iter().enumerate() {
        if count == 0 {
            continue;
        }
        model.add_eq(
            Name::idx("fleet", &[l0 + 1]),
            all.iter()
                .enumerate()
                .filter(|(_, a)| a.len == l0 + 1)
                .map(|(a, _)| (y[a], 1.0)),
            count as f64,
        );
    }
    let decoder = Decoder {
        m,
        n,
        placements: all.into_iter().zip(y).collect(),
    };
    (model, decoder)
}
