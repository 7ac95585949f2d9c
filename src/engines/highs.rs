//! `highs`: HiGHS's own MIP solver (and its LP solvers), vendored and linked in process
//! through the `highs` crate, with `highs-sys` for the figures the safe wrapper does not
//! expose (the int64 node count, the version). HiGHS's MIP solver calls no lazy-constraint
//! callback, so lazy-row formulations run on `bc` (the project's branch and cut on HiGHS's
//! simplex) instead.

use super::{Budget, Capabilities, Declaration, Engine, EngineImpl, Outcome, Settings, Status};
use crate::model::{Model, Sense, VarKind};
use crate::progress;
use highs::{ColProblem, HighsModelStatus, HighsSolutionStatus};
use std::ffi::CStr;
use std::time::Instant;

/// "HiGHS 1.x.y", read from the linked library.
pub fn version() -> String {
    // SAFETY: Highs_version returns a pointer to a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(highs_sys::Highs_version()) };
    format!("HiGHS {}", v.to_string_lossy())
}

/// The engine.
pub const HIGHS: Engine = Engine::new(&Highs);

/// HiGHS's MIP solver.
pub struct Highs;

static DECLARATION: Declaration = Declaration {
    key: "highs",
    description: "HiGHS MIP solver, embedded (default for integer programs)",
    capabilities: Capabilities::MIP,
};

impl EngineImpl for Highs {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        version()
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        solve(model, settings, budget)
    }
}

/// Passes `model` to HiGHS, applies `settings` and what is left of `budget`, and solves.
/// LPs go to the interior point method (see below). Other engines that need an LP solved
/// once (the branch and cut's relaxation) call this too.
pub fn solve(model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    if model.vars.is_empty() {
        // The highs crate panics on the solution status of a model without columns (a
        // Hashi board of one island has none); such a model is decided by its rows alone.
        return if model.rows.iter().all(|r| r.lower <= 0.0 && 0.0 <= r.upper) {
            Outcome {
                objective: Some(model.objective_offset),
                values: Some(Vec::new()),
                ..Outcome::with_status(Status::Optimal, 0.0)
            }
        } else {
            Outcome::infeasible(0.0)
        };
    }
    let mut pb = ColProblem::default();
    let rows: Vec<highs::Row> = model
        .rows
        .iter()
        .map(|r| pb.add_row(r.lower..=r.upper))
        .collect();
    let (starts, index, value) = model.to_csc();
    for (j, v) in model.vars.iter().enumerate() {
        let factors = (starts[j]..starts[j + 1]).map(|k| (rows[index[k]], value[k]));
        let integer = v.kind != VarKind::Continuous;
        pb.add_column_with_integrality(v.objective, v.lower..=v.upper, factors, integer);
    }
    let sense = match model.sense {
        Sense::Minimize => highs::Sense::Minimise,
        Sense::Maximize => highs::Sense::Maximise,
    };
    let mut hm = match pb.try_optimise(sense) {
        Ok(m) => m,
        Err(e) => return Outcome::error(format!("HiGHS rejected the model: {e:?}"), 0.0),
    };
    hm.make_quiet();
    if std::env::var_os("PUZZLEBENCH_SOLVER_LOG").is_some() {
        // The solver's own log on standard output, for looking into a slow solve.
        let _ = hm.try_set_option("output_flag", true);
        let _ = hm.try_set_option("log_to_console", true);
    }
    if budget.expired() {
        return Outcome::time_limit(0.0);
    }
    let options: [(&str, Setting); 6] = [
        (
            "threads",
            Setting::Int(settings.threads.unwrap_or(1) as i32),
        ),
        (
            "mip_rel_gap",
            Setting::Float(settings.mip_gap.unwrap_or(0.0)),
        ),
        (
            "presolve",
            Setting::Str(if settings.presolve.unwrap_or(true) {
                "on"
            } else {
                "off"
            }),
        ),
        (
            "random_seed",
            Setting::Int((settings.seed.unwrap_or(0) % (i32::MAX as u64)) as i32),
        ),
        (
            "time_limit",
            Setting::Float(budget.left().unwrap_or(f64::INFINITY)),
        ),
        ("mip_abs_gap", Setting::Float(0.0)),
    ];
    for (name, value) in options {
        let r = match value {
            Setting::Int(v) => hm.try_set_option(name, v),
            Setting::Float(v) => hm.try_set_option(name, v),
            Setting::Str(v) => hm.try_set_option(name, v),
        };
        if let Err(e) = r {
            return Outcome::error(format!("HiGHS option {name}: {e:?}"), 0.0);
        }
    }
    if !model.has_integers() {
        // LP relaxations go to the interior point method: HiGHS's dual simplex stalls on
        // the degenerate relaxations of some puzzle models (16x16 Sudoku `values`: 4 s to
        // over 100 s with simplex, 0.8 s with IPM).
        if let Err(e) = hm.try_set_option("solver", "ipm") {
            return Outcome::error(format!("HiGHS option solver: {e:?}"), 0.0);
        }
    }
    let watch = Watch {
        budget,
        progress: progress::watching(),
    };
    if model.has_integers() && (watch.progress || budget.records()) {
        // SAFETY: the pointer is a live Highs instance; `watch` outlives the solve, and
        // the callback only reads it and the data HiGHS hands it.
        unsafe {
            let ptr = hm.as_mut_ptr();
            let data = &watch as *const Watch as *mut std::os::raw::c_void;
            highs_sys::Highs_setCallback(ptr, Some(report_progress), data);
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipInterrupt);
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipImprovingSolution);
        }
    }
    let start = Instant::now();
    let solved = match hm.try_solve() {
        Ok(s) => s,
        Err(e) => {
            return Outcome::error(
                format!("HiGHS run failed: {e:?}"),
                start.elapsed().as_secs_f64(),
            )
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let is_mip = model.has_integers();
    let has_point = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    let values = has_point.then(|| solved.get_solution().columns().to_vec());
    let objective = has_point.then(|| solved.objective_value());
    let best_bound = if is_mip {
        solved
            .double_info_value(c"mip_dual_bound")
            .ok()
            .filter(|b| b.is_finite())
    } else {
        None
    };
    let nodes = if is_mip {
        let mut n: i64 = 0;
        // SAFETY: the pointer is a live Highs instance and "mip_node_count" an int64 info.
        let rc = unsafe {
            highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut n)
        };
        (rc == 0).then_some(n.max(0) as u64)
    } else {
        None
    };
    let status = match solved.status() {
        HighsModelStatus::Optimal => Status::Optimal,
        HighsModelStatus::Infeasible => Status::Infeasible,
        // A model whose columns are all bounded cannot be unbounded, so "unbounded or
        // infeasible" after presolve means infeasible there; elsewhere it proves neither.
        HighsModelStatus::UnboundedOrInfeasible if model.is_bounded() => Status::Infeasible,
        HighsModelStatus::UnboundedOrInfeasible => {
            return Outcome::error(
                "HiGHS found the model unbounded or infeasible (it did not say which)".to_string(),
                seconds,
            );
        }
        HighsModelStatus::Unbounded => {
            return Outcome::error("HiGHS found the model unbounded".to_string(), seconds);
        }
        HighsModelStatus::ReachedTimeLimit => Status::TimeLimit,
        other => {
            let mut o = Outcome::error(format!("HiGHS model status {other:?}"), seconds);
            o.objective = objective;
            return o;
        }
    };
    let keep = status.has_solution() || status == Status::TimeLimit;
    Outcome {
        objective: if keep { objective } else { None },
        best_bound,
        nodes,
        // At the time limit the incumbent, if any, is kept so that it can be verified.
        values: if keep { values } else { None },
        ..Outcome::with_status(status, seconds)
    }
}

/// What HiGHS's MIP callback reports to: the run's timeline (in its budget) and, when
/// someone watches, [`progress`].
struct Watch<'a> {
    budget: &'a Budget,
    progress: bool,
}

/// HiGHS's MIP callback: on each improving solution (its objective) and at each check of
/// its limits during the search (the dual bound, often), hands incumbent and bound to the
/// run's timeline, which keeps the improvements, and to [`progress`] for `solve`'s
/// progress line when someone watches.
unsafe extern "C" fn report_progress(
    kind: std::os::raw::c_int,
    _message: *const std::os::raw::c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    _input: *mut highs_sys::HighsCallbackDataIn,
    data: *mut std::os::raw::c_void,
) {
    // SAFETY: HiGHS passes valid pointers (or null) for the duration of the call; `data`
    // is the `Watch` set with the callback, alive until the solve returns.
    let (Some(out), Some(watch)) = (unsafe { out.as_ref() }, unsafe {
        (data as *const Watch).as_ref()
    }) else {
        return;
    };
    if kind == highs_sys::kHighsCallbackMipImprovingSolution as std::os::raw::c_int {
        watch.budget.incumbent(out.objective_function_value);
    } else {
        watch.budget.bound(out.mip_dual_bound);
    }
    if watch.progress {
        progress::report(
            Some(out.mip_primal_bound),
            Some(out.mip_dual_bound),
            Some(out.mip_node_count.max(0) as u64),
        );
    }
}

enum Setting {
    Int(i32),
    Float(f64),
    Str(&'static str),
}
