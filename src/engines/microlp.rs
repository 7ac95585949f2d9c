//! `microlp`: a pure-Rust simplex and branch and bound.
//!
//! microlp has no presolve, no threads and no random seed: it declares none, so rows leave
//! those settings empty. It keeps its incumbent at the time limit. Integer bounds must fit
//! in i32.
//!
//! The hard limit: microlp takes a time limit, but checks it only every thousand simplex
//! pivots, which on a large LP can take seconds. So the solve runs on a thread of its own,
//! and a solve still running [`GRACE`] seconds after the run's deadline is abandoned: the
//! run ends as `time_limit` without a solution or bound, saying so, while the thread goes
//! on to microlp's next check of its limit (already past), where it stops by itself and
//! its result is dropped. microlp 0.6 offers no other way to interrupt a solve (no
//! callback, no stop flag).

use super::{Budget, Capabilities, Declaration, Engine, EngineImpl, Outcome, Settings, Status};
use crate::model::{Model, Sense, VarKind};
use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOutcome};
use std::time::{Duration, Instant};

/// Seconds after the run's deadline at which a microlp solve that has not stopped is
/// abandoned (see the module's doc).
pub const GRACE: f64 = 0.5;

/// The engine.
pub const MICROLP: Engine = Engine::new(&Microlp);

/// microlp's branch and bound.
pub struct Microlp;

static DECLARATION: Declaration = Declaration {
    key: "microlp",
    description: "microlp, pure Rust branch and bound (no presolve, threads or seed)",
    capabilities: Capabilities {
        presolve: false,
        seed: false,
        threads: false,
        timeline: false,
        ..Capabilities::MIP
    },
};

impl EngineImpl for Microlp {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        // The crate cannot be asked; build.rs reads the version Cargo.lock pins.
        format!("microlp {}", env!("PUZZLEBENCH_MICROLP_VERSION"))
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        solve(model, settings, budget)
    }
}

/// Translates `model`, applies the gap and what is left of `budget`, and solves.
fn solve(model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    if budget.expired() {
        return Outcome::time_limit(0.0);
    }
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
    opts.mip_gap = settings.mip_gap.unwrap_or(0.0);
    opts.time_limit = budget.left().map(Duration::from_secs_f64);
    let start = Instant::now();
    let result = match budget.deadline() {
        None => pb.solve_with(opts),
        Some(deadline) => {
            let (tx, rx) = std::sync::mpsc::channel();
            let spawned = std::thread::Builder::new()
                .name("microlp".into())
                .spawn(move || {
                    let _ = tx.send(pb.solve_with(opts));
                });
            if let Err(e) = spawned {
                return Outcome::error(format!("cannot start microlp's thread: {e}"), 0.0);
            }
            let give_up = deadline + Duration::from_secs_f64(GRACE);
            match rx.recv_timeout(give_up.saturating_duration_since(Instant::now())) {
                Ok(r) => r,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Outcome::error(
                        "microlp's solve panicked",
                        start.elapsed().as_secs_f64(),
                    )
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    return Outcome {
                        message: Some(format!(
                            "microlp had not stopped {GRACE} s after the deadline (it checks its limit every thousand pivots); its solve was abandoned"
                        )),
                        ..Outcome::time_limit(start.elapsed().as_secs_f64())
                    }
                }
            }
        }
    };
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
            // At the time limit the incumbent is kept, so that it can be verified.
            let values: Vec<f64> = vars.iter().map(|v| sol.var_value(*v)).collect();
            Outcome {
                objective: Some(sol.objective()),
                best_bound: if is_mip { stats.best_bound } else { None },
                nodes,
                values: Some(values),
                ..Outcome::with_status(status, seconds)
            }
        }
        SolveOutcome::Interrupted(_) => Outcome {
            best_bound: stats.best_bound,
            nodes,
            ..Outcome::time_limit(seconds)
        },
    }
}
