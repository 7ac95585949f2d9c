//! The KenKen model of the blog post "Sudoku and KenKen as MIPs", with logarithms.
//!
//! Variables: `x[i,j,k]` (binary, [`Latin`]) is 1 when cell (i, j) holds k; `d[c]`
//! (binary) chooses the sign of a − or ÷ cage c (d = 1: the first cell holds the larger
//! value). Rows: the Latin square of [`Latin`]; with v[i,j] = Σ_k k·x[i,j,k] the value of a
//! cell and log v[i,j] = Σ_k log(k)·x[i,j,k] its logarithm (the post's lemma, exact
//! because exactly one x[i,j,·] is 1), each cage c with target t:
//!
//! * one cell: v = t (`cage_c`);
//! * +: Σ_{cells} v = t;
//! * −: v[a] − v[b] = t·(2·d[c] − 1);
//! * ×: Σ_{cells} log v = log t;
//! * ÷: log v[a] − log v[b] = log t·(2·d[c] − 1).
//!
//! The objective is 0.
//!
//! The guard: the × and ÷ rows hold irrational coefficients, and a solver accepts a row
//! within its feasibility tolerance (about 1e-6 to 1e-9), while two products of a large
//! cage can have logarithms closer than that (ln(p+1) − ln(p) ≈ 1/p). So the model is
//! solved by row generation: every integer solution is checked cage by cage with exact
//! integer arithmetic, and a cage whose values do not meet its clue gets the no-good row
//! Σ_{(i,j) ∈ c} x[i,j,v(i,j)] ≤ |c| − 1, which cuts off exactly that filling of the cage
//! and no solution of the puzzle. The `rounds` and `cuts` columns count the solves and
//! those rows; on the committed puzzles the first solve is already right.
//!
//! Deviations from the post: v and log v are substituted into the cage rows instead of
//! being columns defined by accounting rows (the post notes a presolver removes them
//! anyway, and this keeps the model pure 0/1); the post's (LHS − RHS) form of the − and ÷
//! rows is written with d[c] on the left. The guard is not in the post.

use super::{KenKen, Latin, Op};
use crate::lazy::{Cut, Separator};
use crate::model::{Model, Name, VarId};
use crate::puzzles::{Run, RunResult};

/// Builds the model of the post for `p`, with the cage checker that guards it.
pub fn build(p: &KenKen) -> (Model, Latin, Guard) {
    let mut m = Model::new(format!("kenken_log_{}", p.name));
    let l = Latin::add(&mut m, p.n);
    let log_terms = |cell: (usize, usize), factor: f64| -> Vec<(VarId, f64)> {
        (2..=p.n)
            .map(|k| (l.at(cell, k), factor * (k as f64).ln()))
            .collect()
    };
    for (c, cage) in p.cages.iter().enumerate() {
        let name = Name::idx("cage", &[c + 1]);
        let t = cage.target as f64;
        match cage.op {
            Op::Given | Op::Add => {
                let terms = cage.cells.iter().flat_map(|&cell| l.value_terms(cell, 1.0));
                m.add_eq(name, terms, t);
            }
            Op::Mul => {
                let terms = cage.cells.iter().flat_map(|&cell| log_terms(cell, 1.0));
                m.add_eq(name, terms, t.ln());
            }
            Op::Sub | Op::Div => {
                let d = m.add_binary(Name::idx("d", &[c + 1]));
                let (a, b) = (cage.cells[0], cage.cells[1]);
                let (mut terms, side) = if cage.op == Op::Sub {
                    let mut terms = l.value_terms(a, 1.0);
                    terms.extend(l.value_terms(b, -1.0));
                    (terms, t)
                } else {
                    let mut terms = log_terms(a, 1.0);
                    terms.extend(log_terms(b, -1.0));
                    (terms, t.ln())
                };
                // v[a] − v[b] = side·(2d − 1)  ⇔  v[a] − v[b] − 2·side·d = −side
                terms.push((d, -2.0 * side));
                m.add_eq(name, terms, -side);
            }
        }
    }
    let guard = Guard {
        puzzle: p.clone(),
        columns: l.columns().to_vec(),
    };
    (m, l, guard)
}

/// Checks every cage of an integer solution with exact arithmetic and cuts off the
/// filling of each cage that breaks its clue.
pub struct Guard {
    puzzle: KenKen,
    columns: Vec<VarId>,
}

impl Guard {
    /// The value of each cell in `x` (0 where no x[i,j,·] is set).
    fn value(&self, x: &[f64], (i, j): (usize, usize)) -> u64 {
        let n = self.puzzle.n;
        (1..=n)
            .find(|&k| x[self.columns[(i * n + j) * n + k - 1].0] > 0.5)
            .map_or(0, |k| k as u64)
    }

    /// Whether `values` meet the clue `op`, `target`, by exact arithmetic.
    fn meets(op: Op, target: u64, values: &[u64]) -> bool {
        match op {
            Op::Given | Op::Add => values.iter().sum::<u64>() == target,
            Op::Mul => values.iter().try_fold(1u64, |p, &v| p.checked_mul(v)) == Some(target),
            Op::Sub => values[0].abs_diff(values[1]) == target,
            Op::Div => {
                let (lo, hi) = (values[0].min(values[1]), values[0].max(values[1]));
                lo.checked_mul(target) == Some(hi)
            }
        }
    }
}

impl Separator for Guard {
    fn separate(&mut self, x: &[f64], integral: bool) -> Vec<Cut> {
        if !integral {
            return Vec::new();
        }
        let n = self.puzzle.n;
        let mut cuts = Vec::new();
        for cage in &self.puzzle.cages {
            let values: Vec<u64> = cage.cells.iter().map(|&c| self.value(x, c)).collect();
            if values.contains(&0) || Self::meets(cage.op, cage.target, &values) {
                continue;
            }
            let terms: Vec<(VarId, f64)> = cage
                .cells
                .iter()
                .zip(&values)
                .map(|(&(i, j), &v)| (self.columns[(i * n + j) * n + v as usize - 1], 1.0))
                .collect();
            cuts.push(Cut {
                upper: terms.len() as f64 - 1.0,
                lower: f64::NEG_INFINITY,
                terms,
            });
        }
        cuts
    }
}

/// Solves the guarded model by row generation, decodes and verifies.
pub fn solve(p: &KenKen, run: &Run) -> RunResult {
    run.row_generation(|| build(p), |l, v| p.answer(&l.decode(v)))
}

#[cfg(test)]
mod tests {
    use super::super::Cage;
    use super::*;

    #[test]
    fn the_guard_cuts_a_wrong_product_and_nothing_else() {
        // 2x2, two × cages of one row each: the solution has 1,2 / 2,1.
        let p = KenKen {
            name: "t".into(),
            n: 2,
            cages: vec![
                Cage {
                    op: Op::Mul,
                    target: 2,
                    cells: vec![(0, 0), (0, 1)],
                },
                Cage {
                    op: Op::Mul,
                    target: 3,
                    cells: vec![(1, 0), (1, 1)],
                },
            ],
        };
        let (m, l, mut g) = build(&p);
        let mut x = vec![0.0; m.counts().variables];
        for (cell, k) in [((0, 0), 1), ((0, 1), 2), ((1, 0), 2), ((1, 1), 1)] {
            x[l.at(cell, k).0] = 1.0;
        }
        let cuts = g.separate(&x, true);
        assert_eq!(cuts.len(), 1, "only the second cage is wrong");
        assert_eq!(cuts[0].upper, 1.0);
        assert!(cuts[0].violation(&x) > 0.5);
        assert!(cuts[0].terms.contains(&(l.at((1, 0), 2), 1.0)));
        assert!(g.separate(&x, false).is_empty());
    }
}
