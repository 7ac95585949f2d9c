//! The cell-based model (CBM) of Meuffels and den Hertog, as printed in report (4.2)–(4.3).
//!
//! Variables:
//! * `x[i,j,k]` (binary) is 1 when cell (i, j) has cell type k (report Table 4.1: 0 water,
//!   1 left end, 2 right end, 3 top end, 4 bottom end, 5 middle, 6 one-cell ship);
//! * `s[i,j,l]` (binary) is 1 when a ship of length l starts at (i, j) (its left or top
//!   end), for l = 1 and every l ≥ 2 with S_l > 0, where such a ship fits.
//!
//! Rows: one type per cell (4.2b); givens (4.2c); row and column sums over the ship types
//! (4.2d), (4.2e); s[i,j,1] = x[i,j,6] (4.2f); a ship of length l ≥ 2 may start only where
//! its whole shape is drawn (4.3a); S_l starts of each length (4.3b); no diagonal contact
//! (4.3c), (4.3d); each end and middle type sits next to the types that continue its ship
//! and before water (4.3e)–(4.3p); nothing next to a one-cell ship (4.3q), (4.3r).
//! The objective is 0.
//!
//! Why the fleet is exact although (4.3a) only bounds s from above: every s = 1 marks a
//! distinct ship of exactly length l, so the S_l starts cover Σ l·S_l cells, which is every
//! ship cell (the row sums add up to it; the parser checks), and no other ship is left.
//!
//! Deviations from the printed model (the report's own implementation also handled the
//! grid border explicitly; report §4.3):
//! * Out-of-range cells count as water. A row that names an out-of-range cell on its
//!   right-hand side loses that term; a row that asks an out-of-range cell to hold a ship
//!   part becomes the bound x = 0 (e.g. a left end in the last column, (4.3e)); a row that
//!   asks an out-of-range cell to be water is dropped. s[i,j,l] exists only where a ship of
//!   length l fits.
//! * (4.3a) adds the horizontal and the vertical shape in one sum, which parts of other
//!   ships can fill up (a horizontal ship of length l−1 at (i, j) plus a vertical ship
//!   further down its column). It is split here into two rows, one per direction:
//!   l·s ≤ (left end, middles, right end) + l·x[i,j,3] and l·s ≤ (top end, middles, bottom
//!   end) + l·x[i,j,1]; each row binds only when the cell is not the other direction's end.
//!   The printed vertical sum also runs its index r from j+1; it is i+1.
//! * (4.3g) x[i,j,2] ≤ 1 − x[i,j+1,k] is written for all k ≠ 0 at once: x[i,j,2] ≤ x[i,j+1,0].
//! * (4.3h) is printed x[i,j,2] ≤ x[i,j−1,1] − x[i,j−1,5] over j ∈ M; it is
//!   x[i,j,2] ≤ x[i,j−1,1] + x[i,j−1,5] over j ∈ N, the mirror of (4.3e).
//! * (4.3k) is printed for i = I only; it holds for every row but the last.
//! * (4.3m) lacks x[i−1,j,5]; it is x[i,j,5] ≤ x[i−1,j,3] + x[i−1,j,5] + x[i,j+1,2] + x[i,j+1,5],
//!   like (4.3n)–(4.3p). Together the four say: a middle part has ship parts of its own
//!   ship either above and below, or left and right.
//! * (4.3q), (4.3r) are printed as equalities x[i,j,6] = 1 − x[i,j−1,6], which would force
//!   one-cell ships to alternate. Their stated intent is that a one-cell ship touches no
//!   other ship: x[i,j,6] ≤ x[i',j',0] for each orthogonal neighbour (i', j'). (Diagonal
//!   neighbours are covered by (4.3c), (4.3d).)

use super::{Battleship, Cell, Grid};
use crate::model::{Model, Name, VarId};

/// Maps solver values back to a grid.
pub struct Decoder {
    m: usize,
    n: usize,
    x: Vec<VarId>,
}

impl Decoder {
    /// The type k with x[i,j,k] = 1 in each cell (water where none is set).
    pub fn decode(&self, values: &[f64]) -> Grid {
        (0..self.m)
            .map(|i| {
                (0..self.n)
                    .map(|j| {
                        Cell::ALL
                            .into_iter()
                            .find(|t| values[self.x[(i * self.n + j) * 7 + t.k()].0] > 0.5)
                            .unwrap_or(Cell::Water)
                    })
                    .collect()
            })
            .collect()
    }
}

/// Builds the CBM for `p`.
pub fn build(p: &Battleship) -> (Model, Decoder) {
    let (m, n) = (p.m(), p.n());
    let mut model = Model::new(format!("battleship_cbm_{}", p.name));
    let mut x = Vec::with_capacity(m * n * 7);
    for i in 0..m {
        for j in 0..n {
            for t in Cell::ALL {
                x.push(model.add_binary(Name::idx("x", &[i + 1, j + 1, t.k()])));
            }
        }
    }
    // x at a signed position: None outside the grid (water there).
    let at = |i: i64, j: i64, t: Cell| -> Option<VarId> {
        (i >= 0 && j >= 0 && (i as usize) < m && (j as usize) < n)
            .then(|| x[(i as usize * n + j as usize) * 7 + t.k()])
    };
    let ship_types = [
        Cell::Left,
        Cell::Right,
        Cell::Top,
        Cell::Bottom,
        Cell::Middle,
        Cell::Single,
    ];
    // (4.2b) one type per cell.
    for i in 0..m {
        for j in 0..n {
            model.add_eq(
                Name::idx("one", &[i + 1, j + 1]),
                Cell::ALL.map(|t| (x[(i * n + j) * 7 + t.k()], 1.0)),
                1.0,
            );
        }
    }
    // (4.2c) givens.
    for i in 0..m {
        for j in 0..n {
            if let Some(t) = p.givens[i][j] {
                model.add_eq(
                    Name::idx("given", &[i + 1, j + 1]),
                    [(x[(i * n + j) * 7 + t.k()], 1.0)],
                    1.0,
                );
            }
        }
    }
    // (4.2d), (4.2e) sums.
    for i in 0..m {
        model.add_eq(
            Name::idx("row", &[i + 1]),
            (0..n).flat_map(|j| ship_types.map(|t| (x[(i * n + j) * 7 + t.k()], 1.0))),
            p.rows[i] as f64,
        );
    }
    for j in 0..n {
        model.add_eq(
            Name::idx("col", &[j + 1]),
            (0..m).flat_map(|i| ship_types.map(|t| (x[(i * n + j) * 7 + t.k()], 1.0))),
            p.cols[j] as f64,
        );
    }
    // Ship starts: s[i,j,1] always, s[i,j,l] for l >= 2 in the fleet where it fits.
    let mut starts: Vec<(usize, Vec<VarId>)> = Vec::new();
    for (l0, &count) in p.fleet.iter().enumerate() {
        let l = l0 + 1;
        if l > 1 && count == 0 {
            continue;
        }
        let mut vars = Vec::new();
        for i in 0..m {
            for j in 0..n {
                let (ii, jj) = (i as i64, j as i64);
                let horizontal = j + l <= n;
                let vertical = i + l <= m;
                if l == 1 {
                    let s = model.add_binary(Name::idx("s", &[i + 1, j + 1, 1]));
                    // (4.2f)
                    model.add_eq(
                        Name::idx("single", &[i + 1, j + 1]),
                        [(s, 1.0), (x[(i * n + j) * 7 + Cell::Single.k()], -1.0)],
                        0.0,
                    );
                    vars.push(s);
                    continue;
                }
                if !horizontal && !vertical {
                    continue;
                }
                let s = model.add_binary(Name::idx("s", &[i + 1, j + 1, l]));
                let lf = l as f64;
                // (4.3a), one row per direction that fits.
                if horizontal {
                    let mut terms = vec![(s, lf)];
                    terms.push((at(ii, jj, Cell::Left).expect("in grid"), -1.0));
                    terms.push((at(ii, jj + l as i64 - 1, Cell::Right).expect("fits"), -1.0));
                    for c in 1..l as i64 - 1 {
                        terms.push((at(ii, jj + c, Cell::Middle).expect("fits"), -1.0));
                    }
                    if vertical {
                        terms.push((at(ii, jj, Cell::Top).expect("in grid"), -lf));
                    }
                    model.add_le(Name::idx("start_h", &[i + 1, j + 1, l]), terms, 0.0);
                }
                if vertical {
                    let mut terms = vec![(s, lf)];
                    terms.push((at(ii, jj, Cell::Top).expect("in grid"), -1.0));
                    terms.push((at(ii + l as i64 - 1, jj, Cell::Bottom).expect("fits"), -1.0));
                    for r in 1..l as i64 - 1 {
                        terms.push((at(ii + r, jj, Cell::Middle).expect("fits"), -1.0));
                    }
                    if horizontal {
                        terms.push((at(ii, jj, Cell::Left).expect("in grid"), -lf));
                    }
                    model.add_le(Name::idx("start_v", &[i + 1, j + 1, l]), terms, 0.0);
                }
                vars.push(s);
            }
        }
        starts.push((l, vars));
    }
    // (4.3b) the fleet.
    for (l, vars) in &starts {
        model.add_eq(
            Name::idx("fleet", &[*l]),
            vars.iter().map(|&s| (s, 1.0)),
            p.fleet[l - 1] as f64,
        );
    }
    // (4.3c), (4.3d) no diagonal contact.
    for i in 0..m as i64 {
        for j in 0..n as i64 {
            for (di, name) in [(1i64, "diag_down"), (-1, "diag_up")] {
                if at(i + di, j + 1, Cell::Water).is_none() {
                    continue;
                }
                let terms = ship_types
                    .iter()
                    .flat_map(|&t| [at(i, j, t), at(i + di, j + 1, t)])
                    .map(|v| (v.expect("in grid"), 1.0));
                model.add_le(
                    Name::idx(name, &[i as usize + 1, j as usize + 1]),
                    terms,
                    1.0,
                );
            }
        }
    }
    // (4.3e)-(4.3r): a type at (i, j) needs one of the listed types next to it.
    use Cell::*;
    const W: &[Cell] = &[Water];
    const AFTER_LEFT: &[Cell] = &[Right, Middle];
    const BEFORE_RIGHT: &[Cell] = &[Left, Middle];
    const AFTER_TOP: &[Cell] = &[Bottom, Middle];
    const BEFORE_BOTTOM: &[Cell] = &[Top, Middle];
    for i in 0..m as i64 {
        for j in 0..n as i64 {
            need(&mut model, &at, i, j, Left, &[(0, 1, AFTER_LEFT)], "e");
            need(&mut model, &at, i, j, Left, &[(0, -1, W)], "f");
            need(&mut model, &at, i, j, Right, &[(0, 1, W)], "g");
            need(&mut model, &at, i, j, Right, &[(0, -1, BEFORE_RIGHT)], "h");
            need(&mut model, &at, i, j, Top, &[(1, 0, AFTER_TOP)], "i");
            need(&mut model, &at, i, j, Top, &[(-1, 0, W)], "j");
            need(&mut model, &at, i, j, Bottom, &[(1, 0, W)], "k");
            need(
                &mut model,
                &at,
                i,
                j,
                Bottom,
                &[(-1, 0, BEFORE_BOTTOM)],
                "l",
            );
            // (4.3m)-(4.3p): above or right, above or left, below or left, below or right.
            let above: Side = (-1, 0, BEFORE_BOTTOM);
            let below: Side = (1, 0, AFTER_TOP);
            let left: Side = (0, -1, BEFORE_RIGHT);
            let right: Side = (0, 1, AFTER_LEFT);
            need(&mut model, &at, i, j, Middle, &[above, right], "m");
            need(&mut model, &at, i, j, Middle, &[above, left], "n");
            need(&mut model, &at, i, j, Middle, &[below, left], "o");
            need(&mut model, &at, i, j, Middle, &[below, right], "p");
            need(&mut model, &at, i, j, Single, &[(0, -1, W)], "q_left");
            need(&mut model, &at, i, j, Single, &[(0, 1, W)], "q_right");
            need(&mut model, &at, i, j, Single, &[(-1, 0, W)], "r_up");
            need(&mut model, &at, i, j, Single, &[(1, 0, W)], "r_down");
        }
    }
    (model, Decoder { m, n, x })
}

/// A neighbour of a cell, as (row offset, column offset, the types allowed there).
type Side<'a> = (i64, i64, &'a [Cell]);

/// Adds x[i,j,t] ≤ Σ over `sides` of the allowed types at that neighbour (one of the rows
/// (4.3e)–(4.3r)). Outside the grid only water is there: a side that allows water makes
/// the row hold always (it is dropped); a side that does not contributes nothing, and when
/// nothing is left the row becomes the bound x[i,j,t] = 0.
fn need(
    model: &mut Model,
    at: &dyn Fn(i64, i64, Cell) -> Option<VarId>,
    i: i64,
    j: i64,
    t: Cell,
    sides: &[Side],
    name: &'static str,
) {
    let me = at(i, j, t).expect("in grid");
    let mut terms = vec![(me, 1.0)];
    for &(di, dj, types) in sides {
        if at(i + di, j + dj, Cell::Water).is_some() {
            for &u in types {
                terms.push((at(i + di, j + dj, u).expect("in grid"), -1.0));
            }
        } else if types.contains(&Cell::Water) {
            return;
        }
    }
    if terms.len() == 1 {
        model.vars[me.0].upper = 0.0;
    } else {
        model.add_le(
            Name::idx(name, &[i as usize + 1, j as usize + 1]),
            terms,
            0.0,
        );
    }
}
