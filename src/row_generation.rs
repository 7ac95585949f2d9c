//! Row generation on any backend: solve the integer program, ask the separator about the
//! solution, add the rows it returns, solve again from scratch, until the separator
//! accepts a solution or a round is infeasible. This is how rows that are too many to
//! write out are added when the solver offers no lazy-constraint callback; each round is
//! a full solve. (Hashi `cuts`, Circuit Board `cm1-rowgen`.)
//!
//! The time limit bounds the whole loop: each round gets what is left, and a round stopped
//! by the limit, or no time left before a round, ends the run as `time_limit`, with no
//! solution (an incumbent that breaks rows not yet added is no solution of the puzzle).

use crate::backends::{Backend, Outcome, SolveOptions, Status};
use crate::branch_and_cut::Cut;
use crate::model::{Model, Name};
use std::time::Instant;

/// What the separator says of an integer solution.
pub enum Separation {
    /// The solution satisfies every row: it is the answer.
    Feasible,
    /// No solution can exist (e.g. a part that can never be joined to the rest).
    Infeasible,
    /// Rows the solution violates (at least one).
    Rows(Vec<Cut>),
}

/// Rounds (solves) and rows added by one loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Integer solves.
    pub rounds: u64,
    /// Rows added.
    pub cuts: u64,
}

/// Runs the loop on `model`, adding rows named `prefix_ROUND_I` to it. The outcome's
/// `seconds` is the whole loop (solves and separation), `nodes` the sum over the rounds,
/// `values` those of the accepted solution.
pub fn solve(
    model: &mut Model,
    prefix: &'static str,
    backend: Backend,
    options: &SolveOptions,
    mut separate: impl FnMut(&[f64]) -> Separation,
) -> (Outcome, Figures) {
    let start = Instant::now();
    let mut figures = Figures::default();
    let mut nodes: Option<u64> = None;
    let outcome = loop {
        let elapsed = start.elapsed().as_secs_f64();
        let mut opts = options.clone();
        if let Some(limit) = options.time_limit {
            if elapsed >= limit {
                break Outcome {
                    status: Status::TimeLimit,
                    ..Outcome::error("", elapsed)
                };
            }
            opts.time_limit = Some(limit - elapsed);
        }
        figures.rounds += 1;
        let o = backend.solve(model, &opts);
        if let Some(n) = o.nodes {
            nodes = Some(nodes.unwrap_or(0) + n);
        }
        let values = match (o.status, &o.values) {
            (s, Some(v)) if s.has_solution() => v,
            (Status::Infeasible | Status::TimeLimit | Status::Error, _) => break o,
            (s, None) => {
                break Outcome::error(
                    format!("round {}: status {s} without a solution", figures.rounds),
                    o.seconds,
                )
            }
            (_, Some(_)) => unreachable!("has_solution covers the other statuses"),
        };
        match separate(values) {
            Separation::Feasible => break o,
            Separation::Infeasible => break Outcome::infeasible(o.seconds),
            Separation::Rows(rows) => {
                if rows.is_empty() {
                    break Outcome::error(
                        format!(
                            "round {}: the separator refused the solution without a row",
                            figures.rounds
                        ),
                        o.seconds,
                    );
                }
                for (i, row) in rows.into_iter().enumerate() {
                    model.add_row(
                        Name::idx(prefix, &[figures.rounds as usize, i]),
                        row.terms,
                        row.lower,
                        row.upper,
                    );
                    figures.cuts += 1;
                }
            }
        }
    };
    let mut outcome = Outcome {
        seconds: start.elapsed().as_secs_f64(),
        nodes,
        ..outcome
    };
    if outcome.status != Status::Error {
        outcome.message = None;
    }
    if !outcome.status.has_solution() {
        outcome.objective = None;
        outcome.gap = None;
        outcome.values = None;
    }
    (outcome, figures)
}
