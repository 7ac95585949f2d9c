//! The one row-generation loop, for every path that adds rows between solves: solve the
//! integer program, ask the separator about the solution, add the rows it returns, solve
//! again, until the separator accepts a solution or a round is infeasible. It serves Hashi
//! `cuts`, Circuit Board `cm1-rowgen`, solution counting (each solution's no-good row), and
//! CBC's lazy rows (each round a CBC solve with the separator as its cut callback, since
//! CBC 2.10 lets some incumbents pass the callback unchecked).
//!
//! The run's [`Budget`] bounds the whole loop: each round's solver gets what is left, and
//! when no time is left before a round the loop ends as `time_limit`. A round stopped by
//! the limit ends the run as `time_limit` with the best bound of the rounds (each round's
//! model lacks rows, so its bound is valid for the whole problem) and its incumbent only when the
//! separator accepts it (an incumbent that breaks rows not yet added is no solution).
//!
//! The timeline: each round solves under a relaxed budget ([`Budget::relaxed`]), so the
//! engine's incumbents within a round (solutions of a model that lacks rows) are not
//! recorded, but its bounds are; the loop records each round's bound and the solution the
//! separator accepts.

use super::budget::Budget;
use super::problem::{Outcome, Status};
use crate::lazy::Separator;
use crate::model::{Model, Name};

/// Runs the loop on `model`, adding rows named `row[ROUND,I]` to it; `solve_round` solves
/// the model as it stands within the budget it is given (it may itself call the
/// separator, as a callback, and report the rows it added there in its outcome's `cuts`). The outcome's `seconds` is the whole
/// loop (solves and separation), `nodes` the sum over the rounds, `rounds` the solves,
/// `cuts` every row added, `separator_seconds` the separator's share of `seconds`,
/// `values` those of the accepted solution. When the rounds run in
/// a child process (their outcomes carry `call_seconds`), `seconds` leaves out what the
/// calls spent beyond the solver's own time (process start, model transfer), and
/// `call_seconds` is the whole loop.
pub fn solve(
    model: &mut Model,
    separator: &mut dyn Separator,
    budget: &Budget,
    mut solve_round: impl FnMut(&Model, &mut dyn Separator, &Budget) -> Outcome,
) -> Outcome {
    let start = std::time::Instant::now();
    let (mut rounds, mut cuts) = (0u64, 0u64);
    let mut nodes: Option<u64> = None;
    let mut last_bound = None;
    let mut overhead: Option<f64> = None;
    let mut separating = 0.0;
    let round_budget = budget.relaxed();
    let outcome = loop {
        if budget.expired() {
            break Outcome {
                best_bound: last_bound,
                ..Outcome::time_limit(0.0)
            };
        }
        rounds += 1;
        let mut o = solve_round(model, separator, &round_budget);
        if let Some(call) = o.call_seconds {
            *overhead.get_or_insert(0.0) += (call - o.seconds).max(0.0);
        }
        if let Some(n) = o.nodes {
            nodes = Some(nodes.unwrap_or(0) + n);
        }
        cuts += o.cuts.unwrap_or(0);
        // Every round's bound is valid for the whole problem (rows are only added), so
        // the run keeps the best of them: a round stopped early may prove less than the
        // round before it, or nothing.
        last_bound = match (o.best_bound, last_bound) {
            (Some(b), Some(l)) => Some(match model.sense {
                crate::model::Sense::Minimize => b.max(l),
                crate::model::Sense::Maximize => b.min(l),
            }),
            (b, l) => b.or(l),
        };
        if let Some(b) = o.best_bound {
            budget.bound(b);
        }
        match o.status {
            Status::Infeasible | Status::Error | Status::Refused => break o,
            Status::TimeLimit => {
                let accepted = o
                    .values
                    .as_deref()
                    .is_some_and(|v| separator.separate(v, true).is_empty());
                if !accepted {
                    o.values = None;
                    o.objective = None;
                } else if let Some(z) = o.objective {
                    budget.incumbent(z);
                }
                o.best_bound = last_bound;
                break o;
            }
            Status::Optimal | Status::Feasible => {}
        }
        let Some(values) = o.values.as_deref() else {
            break Outcome::error(
                format!("round {rounds}: status {} without a solution", o.status),
                o.seconds,
            );
        };
        let asked = std::time::Instant::now();
        let rows = separator.separate(values, true);
        separating += asked.elapsed().as_secs_f64();
        if rows.is_empty() {
            if let Some(z) = o.objective {
                budget.incumbent(z);
            }
            break o;
        }
        if rows.iter().any(|r| r.is_contradiction()) {
            break Outcome::infeasible(0.0);
        }
        for (i, row) in rows.into_iter().enumerate() {
            model.add_row(
                Name::idx("row", &[rounds as usize, i]),
                row.terms,
                row.lower,
                row.upper,
            );
            cuts += 1;
        }
    };
    let wall = start.elapsed().as_secs_f64();
    let mut outcome = Outcome {
        seconds: wall - overhead.unwrap_or(0.0),
        call_seconds: overhead.map(|_| wall),
        nodes,
        rounds: Some(rounds),
        cuts: Some(cuts),
        separator_seconds: Some(separating),
        ..outcome
    };
    if !outcome.status.has_reason() {
        outcome.message = None;
    }
    if outcome.values.is_none() {
        outcome.objective = None;
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lazy::Cut;
    use crate::model::{Sense, VarId, VarKind};

    /// A separator that always asks for one more row.
    struct Always;

    impl Separator for Always {
        fn separate(&mut self, _x: &[f64], _integral: bool) -> Vec<Cut> {
            vec![Cut {
                terms: vec![(VarId(0), 1.0)],
                lower: 0.0,
                upper: f64::INFINITY,
            }]
        }
    }

    /// Rounds with bounds 3 and 5, then a round stopped by the limit with a weaker bound
    /// (or none): the run keeps the best bound proved (5 when minimising, 3 when
    /// maximising), not the last round's.
    #[test]
    fn a_round_stopped_by_the_limit_keeps_the_best_bound_of_the_rounds() {
        for (sense, last, want) in [
            (Sense::Minimize, None, Some(5.0)),
            (Sense::Minimize, Some(4.0), Some(5.0)),
            (Sense::Maximize, Some(4.0), Some(3.0)),
            (Sense::Maximize, None, Some(3.0)),
        ] {
            let mut model = Model::new("m");
            model.sense = sense;
            model.add_var("x", VarKind::Binary, 0.0, 1.0, 1.0);
            let bounds = [Some(3.0), Some(5.0), last];
            let mut round = 0;
            let o = solve(&mut model, &mut Always, &Budget::new(None), |_, _, _| {
                let b = bounds[round];
                round += 1;
                if round < bounds.len() {
                    Outcome {
                        objective: b,
                        best_bound: b,
                        values: Some(vec![0.0]),
                        ..Outcome::with_status(Status::Optimal, 0.0)
                    }
                } else {
                    Outcome {
                        best_bound: b,
                        ..Outcome::time_limit(0.0)
                    }
                }
            });
            assert_eq!(o.status, Status::TimeLimit, "{sense:?} {last:?}");
            assert_eq!(o.best_bound, want, "{sense:?} {last:?}");
            assert_eq!(o.rounds, Some(3));
        }
    }
}
