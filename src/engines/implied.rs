//! At-most-one rows that a cardinality row forces to exactly one, written as equalities
//! before CP-SAT or SCIP enumerates solutions ([`super::cpsat`], the `scip` definition: [`super::built_in_definitions`]).
//!
//! Let C be a row Σ_{j∈S} x_j ≥ k over 0/1 columns (coefficients 1, k ≥ 2; counting turns
//! the objective into such a row, as the number of queens on an n-Queens board), and R an
//! at-most-one row Σ_{j∈R} x_j ≤ 1 with R ⊆ S. When the columns of S outside R (but those
//! fixed at 0, as the walls of an n-Queens board) are covered by k − 1 other at-most-one
//! rows, those columns sum to at most k − 1 in every solution,
//! so Σ_R x ≥ 1: R holds exactly one. On n-Queens without walls every row and column of
//! the board is such an R (the other n − 1 rows or columns cover the rest).
//!
//! The rows found are written as equalities; the solutions stay the same (every solution
//! of the model meets them). The cover is found greedily, the row covering the most
//! uncovered columns first, among the at-most-one rows inside S and disjoint from R: a
//! cover that greedy misses leaves R as it was, which is safe.
//!
//! Why: CP-SAT's enumeration of all solutions keeps only the presolve steps that keep
//! every solution, and then searches the 10-queens board written with at-most-one rows
//! and the queen count for about 41 s to find its 724 placements, against 0.45 s written
//! with one queen per row and column.

use crate::model::{Model, VarKind};
use std::borrow::Cow;

/// Whether column `j` of `m` is a 0/1 column.
fn binary(m: &Model, j: usize) -> bool {
    let v = &m.vars[j];
    v.kind != VarKind::Continuous && v.lower >= 0.0 && v.upper <= 1.0
}

/// Whether every term of row `r` has coefficient 1 on a 0/1 column.
fn unit_row(m: &Model, r: usize) -> bool {
    m.rows[r]
        .terms
        .iter()
        .all(|&(v, a)| a == 1.0 && binary(m, v.0))
}

/// The at-most-one rows of `m` that its cardinality rows force to exactly one (see the
/// module), as row indices, ascending.
pub fn forced_rows(m: &Model) -> Vec<usize> {
    let amo: Vec<usize> = (0..m.rows.len())
        .filter(|&r| {
            let row = &m.rows[r];
            row.upper == 1.0 && row.terms.len() >= 2 && unit_row(m, r)
        })
        .collect();
    let mut forced = vec![false; m.rows.len()];
    let mut in_s = vec![false; m.vars.len()];
    let mut uncovered = vec![false; m.vars.len()];
    let mut in_r = vec![false; m.vars.len()];
    for (c, row) in m.rows.iter().enumerate() {
        if !(row.lower >= 2.0 && row.lower.fract() == 0.0 && unit_row(m, c)) {
            continue;
        }
        let k = row.lower as usize;
        for &(v, _) in &row.terms {
            in_s[v.0] = true;
        }
        let inside: Vec<usize> = amo
            .iter()
            .copied()
            .filter(|&r| r != c && m.rows[r].terms.iter().all(|t| in_s[t.0 .0]))
            .collect();
        for &r in &inside {
            if forced[r] || m.rows[r].lower >= 1.0 {
                continue;
            }
            // The columns of S outside R (but those fixed at 0), to be covered by at
            // most k − 1 rows disjoint from R.
            for &(v, _) in &m.rows[r].terms {
                in_r[v.0] = true;
            }
            let mut left = 0;
            for &(v, _) in &row.terms {
                if !in_r[v.0] && m.vars[v.0].upper > 0.0 {
                    uncovered[v.0] = true;
                    left += 1;
                }
            }
            let candidates: Vec<usize> = inside
                .iter()
                .copied()
                .filter(|&o| o != r && !m.rows[o].terms.iter().any(|t| in_r[t.0 .0]))
                .collect();
            let mut used = 0;
            while left > 0 && used + 1 < k {
                let gain = |o: usize| m.rows[o].terms.iter().filter(|t| uncovered[t.0 .0]).count();
                let Some(best) = candidates.iter().copied().max_by_key(|&o| gain(o)) else {
                    break;
                };
                let g = gain(best);
                if g == 0 {
                    break;
                }
                for &(v, _) in &m.rows[best].terms {
                    uncovered[v.0] = false;
                }
                left -= g;
                used += 1;
            }
            if left == 0 {
                forced[r] = true;
            }
            for &(v, _) in &row.terms {
                uncovered[v.0] = false;
                in_r[v.0] = false;
            }
        }
        for &(v, _) in &row.terms {
            in_s[v.0] = false;
        }
    }
    (0..m.rows.len()).filter(|&r| forced[r]).collect()
}

/// `m` with the rows of [`forced_rows`] written as equalities (`m` itself, not copied,
/// when there are none).
pub fn with_forced_rows(m: &Model) -> Cow<'_, Model> {
    let forced = forced_rows(m);
    if forced.is_empty() {
        return Cow::Borrowed(m);
    }
    let mut out = m.clone();
    for &r in &forced {
        out.rows[r].lower = 1.0;
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Name, VarId};
    use crate::rng::Rng;

    /// The n×n board: one column per cell, at most one queen per row, column and
    /// anti-diagonal, and the queen count ≥ n.
    fn queens(n: usize) -> Model {
        let mut m = Model::new("q");
        let q: Vec<VarId> = (0..n * n)
            .map(|c| m.add_binary(Name::idx("q", &[c])))
            .collect();
        let at = |i: usize, j: usize| q[i * n + j];
        for i in 0..n {
            m.add_le(Name::idx("row", &[i]), (0..n).map(|j| (at(i, j), 1.0)), 1.0);
        }
        for j in 0..n {
            m.add_le(Name::idx("col", &[j]), (0..n).map(|i| (at(i, j), 1.0)), 1.0);
        }
        for d in 0..2 * n - 1 {
            let diag: Vec<(VarId, f64)> = (0..n)
                .filter(|&i| d >= i && d - i < n)
                .map(|i| (at(i, d - i), 1.0))
                .collect();
            if diag.len() >= 2 {
                m.add_le(Name::idx("anti", &[d]), diag, 1.0);
            }
        }
        m.add_ge(Name::from("count"), q.iter().map(|&v| (v, 1.0)), n as f64);
        m
    }

    #[test]
    fn board_rows_and_columns_hold_exactly_one_queen() {
        let m = queens(6);
        let forced = forced_rows(&m);
        // Rows 0..6 are the board rows, 6..12 the columns; no diagonal is forced.
        assert_eq!(forced, (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn a_wall_fixed_at_zero_leaves_the_lines_forced() {
        let mut m = queens(6);
        // A wall on cell (0, 0): its column fixed at 0 and out of its row, column and
        // anti-diagonal, but still in the count.
        m.vars[0].upper = 0.0;
        let count = m.rows.len() - 1;
        for r in &mut m.rows[..count] {
            r.terms.retain(|t| t.0 .0 != 0);
        }
        assert_eq!(forced_rows(&m), (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn a_count_below_the_lines_forces_nothing() {
        let mut m = queens(6);
        let last = m.rows.len() - 1;
        m.rows[last].lower = 5.0;
        assert!(forced_rows(&m).is_empty());
        assert!(matches!(with_forced_rows(&m), Cow::Borrowed(_)));
    }

    /// Every 0/1 point of `m`'s columns that meets its rows.
    fn solutions(m: &Model) -> Vec<u32> {
        let n = m.vars.len();
        (0u32..1 << n)
            .filter(|&code| {
                let x: Vec<f64> = (0..n).map(|j| f64::from(code >> j & 1)).collect();
                m.feasible(&x)
            })
            .collect()
    }

    /// Random packing rows and a count: the rows made equalities keep every solution.
    #[test]
    fn forcing_keeps_the_solutions_of_random_models() {
        let mut rng = Rng::new(7);
        let mut forced_some = 0;
        for _ in 0..300 {
            let n = 4 + rng.below(7);
            let mut m = Model::new("r");
            let x: Vec<VarId> = (0..n)
                .map(|j| {
                    let upper = if rng.below(6) == 0 { 0.0 } else { 1.0 };
                    m.add_var(Name::idx("x", &[j]), VarKind::Binary, 0.0, upper, 0.0)
                })
                .collect();
            for r in 0..2 + rng.below(6) {
                let terms: Vec<(VarId, f64)> = x
                    .iter()
                    .filter(|_| rng.below(3) == 0)
                    .map(|&v| (v, 1.0))
                    .collect();
                m.add_le(Name::idx("p", &[r]), terms, 1.0);
            }
            let k = 2 + rng.below(3);
            m.add_ge(Name::from("count"), x.iter().map(|&v| (v, 1.0)), k as f64);
            if let Cow::Owned(tight) = with_forced_rows(&m) {
                forced_some += 1;
                assert_eq!(solutions(&tight), solutions(&m));
            }
        }
        assert!(forced_some > 10, "{forced_some}");
    }
}
