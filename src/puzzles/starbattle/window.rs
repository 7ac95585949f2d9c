//! The blog post's model of Parks ("Solving Parks (Star Battle) using Integer
//! Optimisation"): x[i,j] = 1 when cell (i, j) holds a star ([`Cells`], with m stars per
//! row, column and region), and one row per 2×2 window of the grid,
//! x[i,j] + x[i,j+1] + x[i+1,j] + x[i+1,j+1] ≤ 1 (`window`): two touching cells always lie
//! in a common window, and the cells of a window all touch each other, so these rows say
//! exactly that no two stars touch. (h − 1)(w − 1) rows instead of about 4hw pairs.
//!
//! The post writes the rows for i, j ∈ {1, …, n−1} on an n×n grid; on an h×w grid they
//! run over i < h and j < w. A grid one cell high or wide has no 2×2 window; its windows
//! are then 1×2 (or 2×1), which say the same on a line.

use super::{Cells, StarBattle};
use crate::model::{Model, Name};

/// Builds the window model for `p`.
pub fn build(p: &StarBattle) -> (Model, Cells) {
    let mut m = Model::new(format!("starbattle_window_{}", p.name));
    let cells = Cells::add(&mut m, p);
    let (h, w) = (p.height(), p.width());
    // Windows of 2×2, or of 1×2 / 2×1 when the grid is one cell wide or high.
    let (dh, dw) = (usize::from(h > 1), usize::from(w > 1));
    for i in 0..h.saturating_sub(dh) {
        for j in 0..w.saturating_sub(dw) {
            if dh == 0 && dw == 0 {
                continue;
            }
            let mut terms = Vec::new();
            for a in i..=i + dh {
                for b in j..=j + dw {
                    terms.push((cells.at(a, b), 1.0));
                }
            }
            m.add_le(Name::idx("window", &[i + 1, j + 1]), terms, 1.0);
        }
    }
    (m, cells)
}
