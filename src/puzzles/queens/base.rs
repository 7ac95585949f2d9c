//! The blog post's base model of blocked n-Queens (001, "Base Model"): q[i,j] = 1 when a
//! queen stands on cell (i, j) ([`QueenCells`]); every row, column, diagonal and
//! anti-diagonal is split by the walls on it into segments, and each segment of two or
//! more cells holds at most one queen (`row`, `col`, `diag`, `anti`, indexed by line and
//! segment); maximise Σ q. The walls shape the rows, so the model is as small as the
//! classic n-Queens model: one row per segment instead of one per pair of cells.
//!
//! Deviation from the post: its zimpl code shows no row keeping queens off the walls (a
//! wall cell falls in the segment after it), while the game forbids them there; here a
//! wall cell's q has upper bound 0 and belongs to no segment.

use super::{QueenCells, Queens};
use crate::model::{Model, Name, Sense};

/// Builds the base model for `p`.
pub fn build(p: &Queens) -> (Model, QueenCells) {
    let n = p.n;
    let mut m = Model::new(format!("queens_base_{}", p.name));
    m.sense = Sense::Maximize;
    let cells = QueenCells {
        n,
        q: QueenCells::add_queens(&mut m, p, 1.0, true),
        b: Vec::new(),
        walls: p.walls.clone(),
    };
    for (kind, k, line) in p.lines() {
        for (s, segment) in line
            .split(|&(i, j)| p.walls[i][j])
            .filter(|s| s.len() > 1)
            .enumerate()
        {
            m.add_le(
                Name::idx(kind, &[k, s + 1]),
                segment.iter().map(|&(i, j)| (cells.at(i, j), 1.0)),
                1.0,
            );
        }
    }
    (m, cells)
}
