//! The combinations model of the paper "Nonokenken" (section 4): instead of writing a
//! cage's arithmetic as rows, enumerate every multiset of values the cage can hold and
//! choose one.
//!
//! Variables: `x[i,j,k]` (binary, [`Latin`]) is 1 when cell (i, j) holds k;
//! `f[c,m]` (binary) is 1 when cage c holds the multiset m, one column for each multiset
//! of |c| values in 1..=n that meets the clue (sum, product, difference or quotient) and
//! that can be placed in the cage with different values in any two cells that must differ
//! (cells of one row or one column; in Killer Sudoku, any two cells of a cage).
//! Rows: the Latin square of [`Latin`]; each cage holds one multiset,
//! Σ_m f[c,m] = 1 (`pick_c`); and for each cage c and value k, the cage holds k as often
//! as the chosen multiset does, Σ_{(i,j) ∈ c} x[i,j,k] = Σ_m h(m,k)·f[c,m] (`link_c_k`),
//! where h(m,k) is the multiplicity of k in m. The objective is 0.
//!
//! Deviations from the paper: it links a multiset to the cells by
//! h·f ≤ Σ_{(i,j) ∈ c} x[i,j,k] for the values k of the multiset, leaves the choice of
//! exactly one multiset implicit, and enumerates the multisets by hand; here the
//! enumeration is automatic (the paper's future work), one multiset per cage is a row,
//! and the link is an equality for every value, which implies the paper's rows and is
//! tighter in the LP relaxation (a value outside the chosen multiset cannot enter the
//! cage). Multisets that cannot be placed without two equal values in a row or column are
//! left out, as the issue asks ("respecting that cells sharing a row or column differ").
//! A cage with no admissible multiset gets an empty `pick` row (0 = 1): the model is
//! infeasible, as the puzzle is.

use super::{KenKen, Latin};
use crate::model::Model;
use crate::puzzles::cages::add_cage;
use crate::puzzles::{Run, RunResult};

/// Builds the combinations model of `p`, or says why it is too large.
pub fn build(p: &KenKen) -> Result<(Model, Latin), String> {
    let mut m = Model::new(format!("kenken_combinations_{}", p.name));
    let l = Latin::add(&mut m, p.n);
    let (mut steps, mut columns) = (0u64, 0usize);
    for (c, cage) in p.cages.iter().enumerate() {
        let cells = &cage.cells;
        let differ = |a: usize, b: usize| cells[a].0 == cells[b].0 || cells[a].1 == cells[b].1;
        add_cage(
            &mut m,
            &|cell, k| l.at(cell, k),
            p.n,
            cage,
            c + 1,
            &differ,
            &mut steps,
            &mut columns,
        )?;
    }
    Ok((m, l))
}

/// Builds (or refuses, with the reason, a model past the limits), solves (counting
/// solutions with `--count`), decodes and verifies.
pub fn solve(p: &KenKen, run: &Run) -> RunResult {
    run.count_or_refuse(
        || build(p),
        |l, v| l.nogood(v),
        |l, v| p.answer(&l.decode(v)),
    )
}
