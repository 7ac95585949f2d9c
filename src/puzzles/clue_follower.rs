//! The follower of a fewest-clues problem ([`super::fewest_clues`]): CaDiCaL holding the
//! rules of one puzzle and the clause "some cell differs from the intended solution T",
//! answering "which other solutions do these clues allow?". A clue set is passed as
//! assumptions (each shown cell agrees with T), so one solver answers every query of a run
//! and keeps what it learnt: a solution is another solution T' of the clues, and the cells
//! where T' differs from T form an *unavoidable set* (every clue set that makes T unique
//! shows one of its cells); no solution means the clues make T unique.
//!
//! A puzzle hands over the solver with its rules and, per cell, the literals of the cell's
//! possible values and the one of T's value ([`CellLiterals`]); minimum-clue Sudoku gives
//! one literal per digit, nonograms the cell's black literal and its negation. A cell
//! whose value the rules alone fix (to T's, since T obeys them) has no literal.
//!
//! Queries stop at the deadline of the budget the solver's terminator watches; the time
//! spent in them is summed in [`ClueFollower::seconds`].

use crate::engines::Budget;
use rustsat::solvers::{ControlSignal, Solve, SolveIncremental, SolverResult, Terminate};
use rustsat::types::{Clause, Lit, TernaryVal};
use rustsat_cadical::CaDiCaL;
use std::time::Instant;

/// The run's deadline passed during a follower query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// The literals of one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellLiterals {
    /// The rules alone fix the cell to T's value: it never differs.
    Fixed,
    /// Exactly one of `values` is true in every solution; `values[target]` is T's value.
    Free {
        /// One literal per value the cell may take.
        values: Vec<Lit>,
        /// The index of T's value among them.
        target: usize,
    },
}

impl CellLiterals {
    /// The literal "the cell holds T's value", `None` for a fixed cell.
    fn agrees(&self) -> Option<Lit> {
        match self {
            CellLiterals::Fixed => None,
            CellLiterals::Free { values, target } => Some(values[*target]),
        }
    }
}

/// CaDiCaL on the rules of a puzzle, asked which other solutions clues allow.
pub struct ClueFollower {
    solver: CaDiCaL<'static, 'static>,
    cells: Vec<CellLiterals>,
    /// Next free variable (activation literals for temporary clauses).
    next_var: u32,
    /// SAT calls made.
    pub calls: u64,
    /// Seconds spent in SAT calls.
    pub seconds: f64,
}

/// A new CaDiCaL whose queries stop at `budget`'s deadline.
pub fn new_solver(budget: &Budget) -> CaDiCaL<'static, 'static> {
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
    solver
}

impl ClueFollower {
    /// The follower over `solver`, which holds the puzzle's rules; `cells` gives each
    /// cell's literals (row-major), `next_var` the first variable the rules leave unused.
    /// Adds the clause "some cell differs from T".
    pub fn new(
        mut solver: CaDiCaL<'static, 'static>,
        cells: Vec<CellLiterals>,
        next_var: u32,
    ) -> ClueFollower {
        let differs: Clause = cells
            .iter()
            .filter_map(|c| c.agrees())
            .map(|l| !l)
            .collect();
        solver.add_clause(differs).expect("clause");
        ClueFollower {
            solver,
            cells,
            next_var,
            calls: 0,
            seconds: 0.0,
        }
    }

    /// Cells of the puzzle.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the puzzle has no cell.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The assumptions "every cell of `shown` holds T's value".
    fn showing(&self, shown: &[bool]) -> Vec<Lit> {
        (0..shown.len())
            .filter(|&k| shown[k])
            .filter_map(|k| self.cells[k].agrees())
            .collect()
    }

    /// One SAT call under `assumptions`: the value literal true in each cell of the
    /// solution found (`None` for a fixed cell), if any.
    fn call(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<Option<Lit>>>, Stopped> {
        let t = Instant::now();
        self.calls += 1;
        let result = self.solver.solve_assumps(assumptions);
        let out = match result {
            Ok(SolverResult::Sat) => {
                let values = self
                    .cells
                    .iter()
                    .map(|c| match c {
                        CellLiterals::Fixed => None,
                        CellLiterals::Free { values, .. } => Some(
                            *values
                                .iter()
                                .find(|&&l| self.solver.lit_val(l).ok() == Some(TernaryVal::True))
                                .expect("one value per cell"),
                        ),
                    })
                    .collect();
                Ok(Some(values))
            }
            Ok(SolverResult::Unsat) => Ok(None),
            Ok(SolverResult::Interrupted) | Err(_) => Err(Stopped),
        };
        self.seconds += t.elapsed().as_secs_f64();
        out
    }

    /// The cells where a solution's values differ from T.
    fn diff(&self, solution: &[Option<Lit>]) -> Vec<usize> {
        (0..solution.len())
            .filter(|&k| solution[k].is_some() && solution[k] != self.cells[k].agrees())
            .collect()
    }

    /// Another solution of the clues `shown` (row-major `true`: shown with T's value), as
    /// the set of cells where it differs from T; `None` when the clues make T unique.
    pub fn other_outside(&mut self, shown: &[bool]) -> Result<Option<Vec<usize>>, Stopped> {
        let assumptions = self.showing(shown);
        Ok(self.call(&assumptions)?.map(|s| self.diff(&s)))
    }

    /// Shrinks the unavoidable set `set` to a minimal one inside it: each cell in turn is
    /// shown with every cell outside the set; if another solution remains, the set becomes
    /// its (smaller) difference, else the cell is needed. A cell found needed stays needed
    /// as the set shrinks (showing more cells only removes solutions).
    pub fn minimise(&mut self, set: Vec<usize>) -> Result<Vec<usize>, Stopped> {
        let cells = self.cells.len();
        let mut current = set;
        let mut needed: Vec<usize> = Vec::new();
        while let Some(&c) = current.iter().find(|c| !needed.contains(c)) {
            let mut shown = vec![true; cells];
            for &k in &current {
                shown[k] = false;
            }
            shown[c] = true;
            match self.other_outside(&shown)? {
                Some(d) => current = d,
                None => needed.push(c),
            }
        }
        current.sort_unstable();
        Ok(current)
    }

    /// Every other solution that agrees with T outside `free` (row-major `true`: may
    /// change), up to `limit`, as their sets of differing cells. The solutions found are
    /// excluded by clauses that hold only for this enumeration (an activation literal,
    /// switched off at the end).
    pub fn others_within(
        &mut self,
        free: &[bool],
        limit: usize,
    ) -> Result<Vec<Vec<usize>>, Stopped> {
        let act = Lit::positive(self.next_var);
        self.next_var += 1;
        let fixed: Vec<bool> = free.iter().map(|&f| !f).collect();
        let mut assumptions = self.showing(&fixed);
        assumptions.push(act);
        let mut found = Vec::new();
        let result = loop {
            if found.len() >= limit {
                break Ok(());
            }
            match self.call(&assumptions) {
                Err(s) => break Err(s),
                Ok(None) => break Ok(()),
                Ok(Some(s)) => {
                    // Not this solution again: some free cell takes another value.
                    let block: Clause = std::iter::once(!act)
                        .chain(
                            (0..free.len())
                                .filter(|&k| free[k])
                                .filter_map(|k| s[k].map(|l| !l)),
                        )
                        .collect();
                    self.solver.add_clause(block).expect("clause");
                    found.push(self.diff(&s));
                }
            }
        };
        self.solver
            .add_clause(Clause::from([!act]))
            .expect("clause");
        result.map(|_| found)
    }
}
