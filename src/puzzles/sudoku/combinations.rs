//! Killer Sudoku with its cages as combinations: the cage model of KenKen's
//! [`crate::puzzles::cages`] (the paper "Nonokenken") on the cells of
//! [`binary`].
//!
//! Variables: `x[i,j,k]` (binary) is 1 when cell (i, j) holds k; `f[c,m]` (binary) is 1
//! when killer cage c holds the set of values m, one column for each set of |c| distinct
//! values in 1..=n that adds up to the cage's sum. Rows: model (3.1) with the areas of the
//! variants ([`binary::build_areas`]: rows, columns, boxes or jigsaw regions, diagonals,
//! cells, givens); each cage holds one set, Σ_m f[c,m] = 1 (`pick_c`); and each value k
//! lies in the cage as often as in the chosen set (0 or 1),
//! Σ_{(i,j) ∈ c} x[i,j,k] = Σ_{m ∋ k} f[c,m] (`link_c_k`), which also makes the cage's
//! values differ. The objective is 0. Without cages this is `binary`.

use super::binary::{self, Decoder};
use super::Sudoku;
use crate::model::Model;
use crate::puzzles::cages::add_cage;
use crate::puzzles::{Run, RunResult};

/// Builds the model, or says why the cages have too many combinations.
pub fn build(p: &Sudoku) -> Result<(Model, Decoder), String> {
    let (mut m, d) = binary::build_areas(p);
    let (mut steps, mut columns) = (0u64, 0usize);
    for (c, cage) in p.cages.iter().enumerate() {
        add_cage(
            &mut m,
            &|cell, k| d.at(cell, k),
            p.n(),
            cage,
            c + 1,
            &|_, _| true,
            &mut steps,
            &mut columns,
        )?;
    }
    Ok((m, d))
}

/// Builds (or refuses, with the reason), solves (counting solutions with `--count`),
/// decodes and verifies.
pub fn solve(p: &Sudoku, run: &Run) -> RunResult {
    run.count_or_refuse(
        || build(p),
        |x, v| x.nogood(v),
        |x, v| p.answer(x.decode(v)),
    )
}
