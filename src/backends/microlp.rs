//! microlp backend: pure-Rust simplex and branch and bound.
//!
//! microlp has no presolve, no threads and no random seed: those settings are ignored.
//! Integer bounds must fit in i32.

use super::{Outcome, SolveOptions, Status};
use crate::model::{Model, Sense, VarKind};
use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOutcome};
use std::time::{Duration, Instant};

/// Translates `model`, applies the time limit and gap, and solves.
pub fn solve(model: &Model, options: &SolveOptions) -> Outcome {
    let dir = match model.sense {
        Sense::Minimize => OptimizationDirection::Minimize,
        Sense::Maximize => OptimizationDirection::Maximize,
    };
    let mut pb = Problem::new(dir);
    let mut vars = Vec::with_capacity(model.vars.len());
    for v in &model.vars {
        let var = if v.kind == VarKind::Continuous {
            pb.add_var(v.objective, (v.lower, v.upper))
        } else {
            let lo = v.lower.ceil();
            let hi = v.upper.floor();
            let range = i32::MIN as f64..=i32::MAX as f64;
            if !range.contains(&lo) || !range.contains(&hi) {
                return Outcome::error(
                    format!("microlp needs i32 bounds on integer variable {}", v.name),
                    0.0,
                );
            }
            if lo > hi {
                return Outcome::infeasible(0.0);
            }
            pb.add_integer_var(v.objective, (lo as i32, hi as i32))
        };
        vars.push(var);
    }
    for r in &model.rows {
        let expr: Vec<(microlp::Variable, f64)> =
            r.terms.iter().map(|(v, c)| (vars[v.0], *c)).collect();
        match (r.lower.is_finite(), r.upper.is_finite()) {
            (true, true) if r.lower == r.upper => {
                pb.add_constraint(expr.as_slice(), ComparisonOp::Eq, r.lower)
            }
            (lo, hi) => {
                if lo {
                    pb.add_constraint(expr.as_slice(), ComparisonOp::Ge, r.lower);
                }
                if hi {
                    pb.add_constraint(expr.as_slice(), ComparisonOp::Le, r.upper);
                }
            }
        }
    }
    let mut opts = microlp::SolveOptions::default();
    opts.mip_gap = options.mip_gap;
    opts.time_limit = options.time_limit.map(Duration::from_secs_f64);
    let start = Instant::now();
    let result = pb.solve_with(opts);
    let seconds = start.elapsed().as_secs_f64();
    let outcome = match result {
        Ok(o) => o,
        Err(microlp::Error::Infeasible) => return Outcome::infeasible(seconds),
        Err(e) => return Outcome::error(format!("microlp: {e}"), seconds),
    };
    let stats = outcome.stats();
    let is_mip = model.has_integers();
    let nodes = is_mip.then_some(stats.nodes_solved);
    match outcome {
        SolveOutcome::Solution(sol) => {
            let status = match sol.termination_reason() {
                microlp::TerminationReason::ProvenOptimal => Status::Optimal,
                microlp::TerminationReason::MipGap => Status::Optimal,
                microlp::TerminationReason::TimeLimit => Status::TimeLimit,
                _ => Status::Feasible,
            };
            let values: Vec<f64> = vars.iter().map(|v| sol.var_value(*v)).collect();
            Outcome {
                status,
                objective: Some(sol.objective()),
                best_bound: if is_mip { stats.best_bound } else { None },
                gap: None,
                nodes,
                seconds,
                values: status.has_solution().then_some(values),
                message: None,
            }
        }
        SolveOutcome::Interrupted(_) => Outcome {
            status: Status::TimeLimit,
            objective: None,
            best_bound: stats.best_bound,
            gap: None,
            nodes,
            seconds,
            values: None,
            message: None,
        },
    }
}
