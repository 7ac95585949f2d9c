//! The `rowgen` and `rowgen-plain` formulations: the report's bilevel model (8.1)–(8.2)
//! solved in one level by row generation, the loop shared with nonogram givens
//! ([`fewest_clues`], whose doc says it step by step).
//!
//! **Leader** (on the run's engine): y[i,j] = 1 iff cell (i,j) of G is a clue; minimise
//! Σ y (8.1a); one row `set[k]`: Σ_{c ∈ U_k} y_c ≥ 1 per unavoidable set U_k known so far
//! (the seeded sets in the first model, then the rows the follower adds), and the row
//! `upper` with the caps that make an infeasible leader a proof of the best set found.
//!
//! **Follower** ([`super::follower`], CaDiCaL): report (8.2) with z = 0 as clauses, the
//! leader's clues as assumptions. Each other completion gives an unavoidable set (the
//! cells where it differs from G), shrunk to a minimal one.
//!
//! The first best set is the follower's round from the instance's `start` puzzle (a
//! unique one: nothing to add), else from no clues; `rowgen` seeds the first model with
//! [`unavoidable::seed`]'s sets (as many as the instance's `seeds`, else
//! [`DEFAULT_SEEDS`]).
//!
//! Deviations from the report's model: (8.2g) is written as the clause "some cell differs
//! from G" instead of Σ x[i,j,G_ij] − z ≤ n² − 1 with the penalty z, since the follower is
//! only asked whether z = 0 is feasible; and the leader's (8.1b) z = 1 is replaced by the
//! unavoidable-set rows it implies (Tjusila et al.'s own reformulation).

use super::{unavoidable, MinClue, DEFAULT_SEEDS};
use crate::engines::Budget;
use crate::model::{Model, Name};
use crate::puzzles::clue_follower::{ClueFollower, Stopped};
use crate::puzzles::fewest_clues::{self, Target};
use crate::puzzles::{Run, RunResult};

impl Target for MinClue {
    fn cells(&self) -> usize {
        self.n() * self.n()
    }

    fn model_name(&self) -> String {
        format!("minclue_{}", self.name)
    }

    fn column(&self, k: usize) -> Name {
        Name::idx("y", &[k / self.n() + 1, k % self.n() + 1])
    }

    fn follower(&self, budget: &Budget) -> ClueFollower {
        super::follower::follower(self, budget)
    }

    fn start(&self) -> Option<Vec<bool>> {
        self.start.clone()
    }

    fn seeds(&self, follower: &mut ClueFollower) -> Result<Vec<Vec<usize>>, Stopped> {
        unavoidable::seed(self, follower, self.seeds.unwrap_or(DEFAULT_SEEDS))
    }
}

/// The leader's model for `p` (`seeded`: `rowgen`), as `export` writes it.
pub fn build(p: &MinClue, seeded: bool) -> Model {
    fewest_clues::build(p, seeded, false, None).0
}

/// Solves `p` on the run's engine (`seeded`: `rowgen`, else `rowgen-plain`).
pub fn solve(p: &MinClue, run: &Run, seeded: bool) -> RunResult {
    fewest_clues::solve(
        p,
        run,
        seeded,
        &|clues, minimal| p.answer(clues, minimal),
        &|set| super::verify::unavoidable(p, set),
    )
}
