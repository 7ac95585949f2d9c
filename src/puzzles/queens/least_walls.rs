//! The blog post's least-walls model (001, "Least Walls Model"): the fewest walls that
//! let q queens stand on the board. q[i,j] = 1 when a queen stands on cell (i, j)
//! ([`QueenCells`]), b[i,j] = 1 when cell (i, j) is a wall; minimise Σ b with
//! * `queens`: Σ q = target;
//! * `row`, `col`, `diag`, `anti` (per line and per pair of its cells a < c, indexed by
//!   line and the two positions): Σ_{a ≤ k ≤ c} q_k ≤ 1 + Σ_{a < k < c} b_k — with w walls
//!   strictly between two cells, at most w + 1 queens stand from one to the other;
//! * `cell`: q[i,j] + b[i,j] ≤ 1.
//!
//! Deviations from the post: the `cell` rows are added (the post's rows do not keep a
//! queen off a wall: a wall at the end of a pair's range is not counted, so a queen and a
//! wall on one cell would pass); the instance's own walls, if any, are b = 1 (the post
//! starts from an empty board). The pair rows over all lines, as the post writes them, make
//! O(n³) rows; the LP relaxation is weak (q = 1/2 everywhere fits the pairs of adjacent
//! cells without walls).

use super::{QueenCells, Queens};
use crate::model::{Model, Name, Sense, VarKind};

/// Builds the least-walls model for `p`; an error when the instance gives no target.
pub fn build(p: &Queens) -> Result<(Model, QueenCells), String> {
    let n = p.n;
    let target = p.target.ok_or_else(|| {
        format!(
            "instance {} gives no 'target Q' (the queens the least-walls model must fit)",
            p.name
        )
    })?;
    let mut m = Model::new(format!("queens_least_walls_{}", p.name));
    m.sense = Sense::Minimize;
    let q = QueenCells::add_queens(&mut m, p, 0.0, false);
    let mut b = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let lo = if p.walls[i][j] { 1.0 } else { 0.0 };
            b.push(m.add_var(
                Name::idx("b", &[i + 1, j + 1]),
                VarKind::Binary,
                lo,
                1.0,
                1.0,
            ));
        }
    }
    let cells = QueenCells {
        n,
        q,
        b,
        walls: p.walls.clone(),
    };
    m.add_eq(
        Name::from("queens"),
        cells.q.iter().map(|&v| (v, 1.0)),
        target as f64,
    );
    for i in 0..n {
        for j in 0..n {
            m.add_le(
                Name::idx("cell", &[i + 1, j + 1]),
                [(cells.at(i, j), 1.0), (cells.b[i * n + j], 1.0)],
                1.0,
            );
        }
    }
    for (kind, k, line) in p.lines() {
        for a in 0..line.len() {
            for c in a + 1..line.len() {
                let mut terms: Vec<(crate::model::VarId, f64)> = (a..=c)
                    .map(|t| (cells.at(line[t].0, line[t].1), 1.0))
                    .collect();
                terms.extend((a + 1..c).map(|t| (cells.b[line[t].0 * n + line[t].1], -1.0)));
                terms.sort_by_key(|t| t.0);
                m.add_le(Name::idx(kind, &[k, a + 1, c + 1]), terms, 1.0);
            }
        }
    }
    Ok((m, cells))
}
