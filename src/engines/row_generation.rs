//! The one row-generation loop, for every path that adds rows between solves: solve the
//! integer program, ask the separator about the solution, add the rows it returns, solve
//! again, until the separator accepts a solution or a round is infeasible. It serves Hashi
//! `cuts`, Circuit Board `cm1-rowgen`, solution counting (each solution's no-good row), and
//! CBC's lazy rows (each round a CBC solve with the separator as its cut callback, since
//! CBC 2.10 lets some incumbents pass the callback unchecked).
//!
//! The run's [`Budget`] bounds the whole loop: each round's solver gets what is left, and
//! when no time is left before a round the loop ends as `time_limit`. A round stopped by
//! the limit ends the run as `time_limit` with the round's bound (the round's model lacks
//! rows, so its bound is valid for the whole problem) and its incumbent only when the
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
        last_bound = o.best_bound.or(last_bound);
        if let Some(b) = o.best_bound {
            budget.bound(b);
        }
        match o.status {
            Status::Infeasible | Status::Error => break o,
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
    if outcome.status != Status::Error {
        outcome.message = None;
    }
    if outcome.values.is_none() {
        outcome.objective = None;
    }
    outcome
}
