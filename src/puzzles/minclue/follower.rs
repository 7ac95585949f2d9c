//! The follower of the bilevel model (report (8.2)), as a SAT problem: CaDiCaL holds the
//! Sudoku rules of the grid's shape over x[c,d] = 1 iff cell c holds d (one value per
//! cell, each value once per row, column and box, as report (8.2b)–(8.2e)) and the clause
//! "some cell differs from G" (8.2g with z = 0). A clue set is passed as assumptions
//! x[c,G_c] (8.2f), so one solver answers every query of a run and keeps what it learnt:
//! a solution is another completion G' of the clues, and the cells where G' differs from
//! G form an unavoidable set; no solution means the clues make G unique.
//!
//! Queries stop at the run's deadline (CaDiCaL's terminator); the time spent in them is
//! summed in [`Follower::seconds`].

use super::MinClue;
use crate::engines::Budget;
use rustsat::solvers::{ControlSignal, Solve, SolveIncremental, SolverResult, Terminate};
use rustsat::types::{Clause, Lit, TernaryVal};
use rustsat_cadical::CaDiCaL;
use std::time::Instant;

/// The run's deadline passed during a follower query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// CaDiCaL on the Sudoku of a grid, answering "which other completions do these clues
/// allow?".
pub struct Follower {
    solver: CaDiCaL<'static, 'static>,
    /// Side of the grid.
    n: usize,
    /// G, row-major.
    grid: Vec<u32>,
    /// Next free variable (activation literals for temporary clauses).
    next_var: u32,
    /// SAT calls made.
    pub calls: u64,
    /// Seconds spent in SAT calls.
    pub seconds: f64,
}

impl Follower {
    /// The follower of grid `p`, its queries stopped at `budget`'s deadline.
    pub fn new(p: &MinClue, budget: &Budget) -> Follower {
        let n = p.n();
        let grid: Vec<u32> = p.grid.iter().flatten().copied().collect();
        let mut solver = CaDiCaL::default();
        if let Some(deadline) = budget.deadline() {
            solver.attach_terminator(move || {
                if Instant::now() >= deadline {
                    ControlSignal::Terminate
                } else {
                    ControlSignal::Continue
                }
            });
        }
        let mut f = Follower {
            solver,
            n,
            grid,
            next_var: (n * n * n) as u32,
            calls: 0,
            seconds: 0.0,
        };
        let exactly_one = |lits: Vec<Lit>, s: &mut CaDiCaL<'static, 'static>| {
            s.add_clause(lits.iter().copied().collect::<Clause>())
                .expect("clause");
            for a in 0..lits.len() {
                for b in a + 1..lits.len() {
                    s.add_clause(Clause::from([!lits[a], !lits[b]]))
                        .expect("clause");
                }
            }
        };
        for k in 0..n * n {
            let lits = (1..=n as u32).map(|d| f.lit(k, d)).collect();
            exactly_one(lits, &mut f.solver);
        }
        let all = p.puzzle(&vec![false; n * n]);
        for area in all.areas() {
            for d in 1..=n as u32 {
                let lits = area
                    .cells
                    .iter()
                    .map(|&(i, j)| f.lit(i * n + j, d))
                    .collect();
                exactly_one(lits, &mut f.solver);
            }
        }
        let differs: Clause = (0..n * n).map(|k| !f.lit(k, f.grid[k])).collect();
        f.solver.add_clause(differs).expect("clause");
        f
    }

    /// The literal x[k,d].
    fn lit(&self, k: usize, d: u32) -> Lit {
        Lit::positive((k * self.n + d as usize - 1) as u32)
    }

    /// The literal "cell k holds G's value".
    fn given(&self, k: usize) -> Lit {
        self.lit(k, self.grid[k])
    }

    /// One SAT call under `assumptions`: the completion found, if any.
    fn call(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<u32>>, Stopped> {
        let t = Instant::now();
        self.calls += 1;
        let result = self.solver.solve_assumps(assumptions);
        let out = match result {
            Ok(SolverResult::Sat) => {
                let n = self.n;
                let grid = (0..n * n)
                    .map(|k| {
                        (1..=n as u32)
                            .find(|&d| {
                                self.solver.lit_val(self.lit(k, d)).ok() == Some(TernaryVal::True)
                            })
                            .expect("one value per cell")
                    })
                    .collect();
                Ok(Some(grid))
            }
            Ok(SolverResult::Unsat) => Ok(None),
            Ok(SolverResult::Interrupted) | Err(_) => Err(Stopped),
        };
        self.seconds += t.elapsed().as_secs_f64();
        out
    }

    /// The cells where `other` differs from G.
    fn diff(&self, other: &[u32]) -> Vec<usize> {
        (0..other.len())
            .filter(|&k| other[k] != self.grid[k])
            .collect()
    }

    /// Another completion of the clues `clues` (row-major `true`: shown), as the set of
    /// cells where it differs from G; `None` when the clues make G unique.
    pub fn unavoidable_outside(&mut self, clues: &[bool]) -> Result<Option<Vec<usize>>, Stopped> {
        let assumptions: Vec<Lit> = (0..clues.len())
            .filter(|&k| clues[k])
            .map(|k| self.given(k))
            .collect();
        Ok(self.call(&assumptions)?.map(|g| self.diff(&g)))
    }

    /// Shrinks the unavoidable set `set` to a minimal one inside it: each cell in turn is
    /// fixed to G with every cell outside the set; if another completion remains, the set
    /// becomes its (smaller) difference, else the cell is needed. A cell found needed
    /// stays needed as the set shrinks (fixing more cells only removes completions).
    pub fn minimise(&mut self, set: Vec<usize>) -> Result<Vec<usize>, Stopped> {
        let cells = self.n * self.n;
        let mut current = set;
        let mut needed: Vec<usize> = Vec::new();
        while let Some(&c) = current.iter().find(|c| !needed.contains(c)) {
            let mut inside = vec![false; cells];
            for &k in &current {
                inside[k] = true;
            }
            inside[c] = false;
            let assumptions: Vec<Lit> = (0..cells)
                .filter(|&k| !inside[k])
                .map(|k| self.given(k))
                .collect();
            match self.call(&assumptions)? {
                Some(g) => current = self.diff(&g),
                None => needed.push(c),
            }
        }
        current.sort_unstable();
        Ok(current)
    }

    /// Every other completion that agrees with G outside `free` (row-major `true`: may
    /// change), up to `limit`, as their sets of differing cells. The completions found are
    /// excluded by clauses that hold only for this enumeration (an activation literal,
    /// switched off at the end).
    pub fn completions_within(
        &mut self,
        free: &[bool],
        limit: usize,
    ) -> Result<Vec<Vec<usize>>, Stopped> {
        let act = Lit::positive(self.next_var);
        self.next_var += 1;
        let mut assumptions: Vec<Lit> = (0..free.len())
            .filter(|&k| !free[k])
            .map(|k| self.given(k))
            .collect();
        assumptions.push(act);
        let mut found = Vec::new();
        let result = loop {
            if found.len() >= limit {
                break Ok(());
            }
            match self.call(&assumptions) {
                Err(s) => break Err(s),
                Ok(None) => break Ok(()),
                Ok(Some(g)) => {
                    // Not this completion again: some free cell takes another value.
                    let block: Clause = std::iter::once(!act)
                        .chain(
                            (0..free.len())
                                .filter(|&k| free[k])
                                .map(|k| !self.lit(k, g[k])),
                        )
                        .collect();
                    self.solver.add_clause(block).expect("clause");
                    found.push(self.diff(&g));
                }
            }
        };
        self.solver
            .add_clause(Clause::from([!act]))
            .expect("clause");
        result.map(|_| found)
    }
}
