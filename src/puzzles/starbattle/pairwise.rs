//! The naive no-touch rule, to measure the blog post's 2×2 windows against: x[i,j] = 1
//! when cell (i, j) holds a star ([`Cells`], with m stars per row, column and region), and
//! for every pair of touching cells x_a + x_b ≤ 1 (`touch`), each pair once: a cell with
//! its neighbour to the right, below, below left and below right. About 4hw rows, and a
//! weaker LP relaxation than the windows': x = 1/2 on the four cells of a 2×2 window
//! meets every pair row (each pair sums to 1) while the window row allows 1 in all.

use super::{Cells, StarBattle};
use crate::model::{Model, Name};

/// Builds the pairwise model for `p`.
pub fn build(p: &StarBattle) -> (Model, Cells) {
    let mut m = Model::new(format!("starbattle_pairwise_{}", p.name));
    let cells = Cells::add(&mut m, p);
    let (h, w) = (p.height() as isize, p.width() as isize);
    for i in 0..h {
        for j in 0..w {
            for (di, dj) in [(0, 1), (1, -1), (1, 0), (1, 1)] {
                let (a, b) = (i + di, j + dj);
                if a < h && (0..w).contains(&b) {
                    m.add_le(
                        Name::idx(
                            "touch",
                            &[
                                i as usize + 1,
                                j as usize + 1,
                                a as usize + 1,
                                b as usize + 1,
                            ],
                        ),
                        [
                            (cells.at(i as usize, j as usize), 1.0),
                            (cells.at(a as usize, b as usize), 1.0),
                        ],
                        1.0,
                    );
                }
            }
        }
    }
    (m, cells)
}
