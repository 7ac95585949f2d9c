//! The follower of the bilevel model (report (8.2)), as a SAT problem: CaDiCaL holds the
//! Sudoku rules of the grid's shape over x[c,d] = 1 iff cell c holds d (one value per
//! cell, each value once per row, column and box, as report (8.2b)–(8.2e)); the shared
//! [`ClueFollower`] adds the clause "some cell differs from G" (8.2g with z = 0) and
//! passes a clue set as assumptions x[c,G_c] (8.2f), so one solver answers every query of
//! a run and keeps what it learnt.

use super::MinClue;
use crate::engines::Budget;
use crate::puzzles::clue_follower::{new_solver, CellLiterals, ClueFollower};
use rustsat::solvers::Solve;
use rustsat::types::{Clause, Lit};

/// The follower of grid `p`, its queries stopped at `budget`'s deadline.
pub fn follower(p: &MinClue, budget: &Budget) -> ClueFollower {
    let n = p.n();
    let mut solver = new_solver(budget);
    // x[k,d] is variable k·n + d − 1.
    let lit = |k: usize, d: u32| Lit::positive((k * n + d as usize - 1) as u32);
    let mut exactly_one = |lits: Vec<Lit>| {
        solver
            .add_clause(lits.iter().copied().collect::<Clause>())
            .expect("clause");
        for a in 0..lits.len() {
            for b in a + 1..lits.len() {
                solver
                    .add_clause(Clause::from([!lits[a], !lits[b]]))
                    .expect("clause");
            }
        }
    };
    for k in 0..n * n {
        exactly_one((1..=n as u32).map(|d| lit(k, d)).collect());
    }
    let all = p.puzzle(&vec![false; n * n]);
    for area in all.areas() {
        for d in 1..=n as u32 {
            exactly_one(area.cells.iter().map(|&(i, j)| lit(i * n + j, d)).collect());
        }
    }
    let cells = (0..n * n)
        .map(|k| CellLiterals::Free {
            values: (1..=n as u32).map(|d| lit(k, d)).collect(),
            target: p.value(k) as usize - 1,
        })
        .collect();
    ClueFollower::new(solver, cells, (n * n * n) as u32)
}
