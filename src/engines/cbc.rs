//! `cbc`: COIN-OR CBC through `coin_cbc_sys` (Debian's CBC 2.10, linked with pkg-config).
//!
//! CBC is not thread-safe in process: every call into it holds one process-wide lock.
//! The sys crate is used rather than `coin_cbc` because the node count
//! (`Cbc_getNodeCount`) needs the raw model pointer, which `coin_cbc` keeps private.
//!
//! Settings as applied: the time limit is wall-clock time (`timeMode elapsed`; CBC's
//! default is processor time) and fractional seconds; the seed s becomes CBC's
//! `randomSeed` and `randomCbcSeed` s + 1, because CBC reads 0 as "seed from the time of
//! day" (so seeds stay reproducible and distinct); presolve switches CBC's presolve and
//! preprocessing together.
//!
//! The hard limit: CBC checks its time limit between its steps, not within an LP solve, so
//! an LP that takes long (the root LP of a 25×25 KenKen `log` model, over 10 s) used to
//! carry a run far past its limit, and a model without integers (the LP relaxation) had no
//! limit at all. So the deadline is also set on the LP solver, Clp, as its wall-clock limit
//! (`ClpModel::setMaximumWallSeconds`, which CBC 2.10's C interface does not expose: it is
//! called on the `ClpSimplex` behind the model's `OsiClpSolverInterface`, through the
//! `Cbc_Model` layout of Debian's `Coin_C_defines.h`); CBC copies it, as an instant, into
//! every LP solver it makes. For an LP it is the deadline itself; for a MIP it is
//! [`LP_GRACE`] seconds later, so that CBC's own limit ends the search as before and Clp's
//! only stops an LP CBC is stuck in. An LP cut short that way can make CBC conclude
//! wrongly (a node or the whole problem "infeasible", a bound from an unfinished LP), so a
//! solve that ends after Clp's limit is recorded as `time_limit` with its incumbent (a
//! checked solution) but neither a bound nor a proof.
//!
//! No timeline (`timeline: false`): CBC 2.10's C interface has no incumbent callback, and
//! its message callback (`Cbc_registerCallBack`) does not receive the branch and bound's
//! messages that carry the figures (Cbc0012I "Integer solution of … found", Cbc0010I
//! "… best solution, best possible …"): on a Circuit Board 10x10 `cm2` model it received
//! only the feasibility pump's lines while CBC found its incumbent, and it needs a log
//! level that also prints CBC's log to standard output. The row gets the final objective
//! and bound only.
//!
//! Lazy rows: CBC's own branch and cut with the separator as a cut generator through CBC
//! 2.10's cut callback, with preprocessing, presolve and CBC's heuristics off (so that
//! every incumbent comes from a node LP, and the row records presolve off). CBC 2.10 does
//! not call the generator on the solutions it accepts, so each result is checked by the
//! shared row-generation loop: an incumbent that breaks rows gets them added to the model
//! and CBC solves again. `rounds` counts the CBC solves (more than one means an incumbent
//! escaped the callback), `cuts` every row added, by the callback or after a solve.

use super::{
    row_generation, Budget, Capabilities, Declaration, Engine, EngineImpl, Kind, Outcome, Settings,
    SolveOptions, Status,
};
use crate::lazy::{Cut, SearchHints, Separator};
use crate::model::{Model, Sense, VarKind};
use coin_cbc_sys as sys;
use std::ffi::c_void;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::sync::Mutex;
use std::time::Instant;

static CBC_LOCK: Mutex<()> = Mutex::new(());

/// Seconds after the run's deadline at which Clp stops an LP of a MIP solve that CBC's own
/// time limit did not end (see the module's doc).
pub const LP_GRACE: f64 = 0.5;

/// "CBC 2.x.y", read from the linked library.
pub fn version() -> String {
    // SAFETY: Cbc_getVersion returns a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(sys::Cbc_getVersion()) };
    format!("CBC {}", v.to_string_lossy())
}

struct CbcModel(*mut sys::Cbc_Model);

impl Drop for CbcModel {
    fn drop(&mut self) {
        // SAFETY: created by Cbc_newModel and deleted once.
        unsafe { sys::Cbc_deleteModel(self.0) }
    }
}

fn set(m: &CbcModel, name: &str, value: &str) {
    let n = CString::new(name).expect("parameter name");
    let v = CString::new(value).expect("parameter value");
    // SAFETY: live model, NUL-terminated strings.
    unsafe { sys::Cbc_setParameter(m.0, n.as_ptr(), v.as_ptr()) }
}

/// The engine.
pub const CBC: Engine = Engine::new(&Cbc);

/// CBC's branch and cut.
pub struct Cbc;

static DECLARATION: Declaration = Declaration {
    key: "cbc",
    description:
        "COIN-OR CBC, system library, serialised in process; lazy rows through its cut callback",
    capabilities: Capabilities {
        kinds: &[Kind::Mip, Kind::RowGeneration, Kind::LazyRows],
        timeline: false,
        ..Capabilities::MIP
    },
};

impl EngineImpl for Cbc {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        version()
    }

    /// Under the cut callback presolve is off, whatever was asked.
    fn applied(&self, kind: Kind, options: &SolveOptions) -> Settings {
        let mut s = Settings::from_capabilities(&DECLARATION.capabilities, options);
        if kind == Kind::LazyRows {
            s.presolve = Some(false);
        }
        s
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        solve_with(model, settings, budget, None)
    }

    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        _hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        row_generation::solve(model, separator, budget, |m, sep, round| {
            solve_with_cut_callback(m, settings, round, &mut |x| {
                let integral = x.iter().all(|v| (v - v.round()).abs() < 1e-6);
                sep.separate(x, integral)
            })
        })
    }
}

// The parts of CBC 2.10's C interface that `coin_cbc_sys` does not bind: the cut callback
// and the two accessors a callback needs (declared in Debian's Cbc_C_Interface.h).
extern "C" {
    fn Cbc_addCutCallback(
        model: *mut sys::Cbc_Model,
        cutcb: extern "C" fn(*mut c_void, *mut c_void, *mut c_void),
        name: *const c_char,
        app_data: *mut c_void,
    );
    fn Osi_getNumCols(osi: *mut c_void) -> c_int;
    fn Osi_getColSolution(osi: *mut c_void) -> *const f64;
    fn OsiCuts_addRowCut(
        osi_cuts: *mut c_void,
        nz: c_int,
        idx: *const c_int,
        coef: *const f64,
        sense: c_char,
        rhs: f64,
    );
    /// `ClpSimplex* OsiClpSolverInterface::getModelPtr() const`.
    #[link_name = "_ZNK21OsiClpSolverInterface11getModelPtrEv"]
    fn osi_clp_get_model_ptr(osi_clp: *const c_void) -> *mut c_void;
    /// `void ClpModel::setMaximumWallSeconds(double)`: Clp stops an LP solve that many
    /// wall-clock seconds from now.
    #[link_name = "_ZN8ClpModel21setMaximumWallSecondsEd"]
    fn clp_set_maximum_wall_seconds(clp_model: *mut c_void, seconds: f64);
}

/// Sets `seconds` from now as the wall-clock limit of the Clp behind `m`'s solver.
fn set_lp_wall_limit(m: &CbcModel, seconds: f64) {
    // SAFETY: a `Cbc_Model` starts with its `OsiClpSolverInterface *solver_` (Debian's
    // Coin_C_defines.h, CBC 2.10), the solver CBC solves with; its `ClpSimplex` is a
    // `ClpModel` at the same address (single inheritance).
    unsafe {
        let osi = *(m.0 as *const *const c_void);
        if osi.is_null() {
            return;
        }
        let clp = osi_clp_get_model_ptr(osi);
        if !clp.is_null() {
            clp_set_maximum_wall_seconds(clp, seconds.max(0.0));
        }
    }
}

/// What the cut callback works with: the separator, and what it did.
struct Callback<'a> {
    separate: &'a mut dyn FnMut(&[f64]) -> Vec<Cut>,
    cuts: u64,
    panicked: bool,
}

/// Called by CBC at its nodes with the LP point of `osi`; adds the separator's rows to
/// `cuts`. A panic in the separator is caught (it must not unwind into C) and recorded.
extern "C" fn cut_callback(osi: *mut c_void, cuts: *mut c_void, app: *mut c_void) {
    // SAFETY: `app` is the `Callback` passed to Cbc_addCutCallback, alive for the solve.
    let state = unsafe { &mut *(app as *mut Callback) };
    let rows = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: CBC hands a live OsiSolverInterface with a solution of that many columns.
        let x = unsafe {
            let n = Osi_getNumCols(osi).max(0) as usize;
            std::slice::from_raw_parts(Osi_getColSolution(osi), n)
        };
        (state.separate)(x)
    }));
    let Ok(rows) = rows else {
        state.panicked = true;
        return;
    };
    // A row without terms (the separator's "no solution at all") cannot be a CBC cut; the
    // check after the solve finds it again and ends the run as infeasible.
    for row in rows.into_iter().filter(|r| !r.terms.is_empty()) {
        let idx: Vec<c_int> = row.terms.iter().map(|t| t.0 .0 as c_int).collect();
        let coef: Vec<f64> = row.terms.iter().map(|t| t.1).collect();
        let sides: Vec<(u8, f64)> = if row.lower == row.upper {
            vec![(b'E', row.upper)]
        } else {
            let mut v = Vec::new();
            if row.upper.is_finite() {
                v.push((b'L', row.upper));
            }
            if row.lower.is_finite() {
                v.push((b'G', row.lower));
            }
            v
        };
        for (sense, rhs) in sides {
            // SAFETY: idx and coef have nz entries; `cuts` is CBC's OsiCuts.
            unsafe {
                OsiCuts_addRowCut(
                    cuts,
                    idx.len() as c_int,
                    idx.as_ptr(),
                    coef.as_ptr(),
                    sense as c_char,
                    rhs,
                )
            };
            state.cuts += 1;
        }
    }
}

/// Solves `model` with `separate` registered as a cut generator: CBC calls it at its
/// nodes with the LP point and adds the rows it returns. Preprocessing, presolve and
/// CBC's heuristics are switched off so that the columns CBC works on are the model's and
/// every incumbent comes from a node LP. CBC 2.10 does not call the generator on the
/// solutions it accepts, so the caller must check the result. The outcome's `cuts` are
/// the rows the callback added.
fn solve_with_cut_callback(
    model: &Model,
    settings: &Settings,
    budget: &Budget,
    separate: &mut dyn FnMut(&[f64]) -> Vec<Cut>,
) -> Outcome {
    let mut state = Callback {
        separate,
        cuts: 0,
        panicked: false,
    };
    let outcome = solve_with(model, settings, budget, Some(&mut state));
    let outcome = if state.panicked {
        Outcome::error("the cut callback panicked", outcome.seconds)
    } else {
        outcome
    };
    Outcome {
        cuts: Some(state.cuts),
        ..outcome
    }
}

/// CBC's seed for puzzlebench's seed `s`: s + 1, because CBC reads 0 as "from the time of
/// day"; one to one for every s below 2^31 − 2.
fn cbc_seed(s: u64) -> i64 {
    (s % (i32::MAX as u64 - 1)) as i64 + 1
}

/// Loads `model` into CBC, applies `settings` and what is left of `budget`, registers the
/// cut callback if any and solves.
fn solve_with(
    model: &Model,
    settings: &Settings,
    budget: &Budget,
    callback: Option<&mut Callback>,
) -> Outcome {
    let _guard = CBC_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    if budget.expired() {
        return Outcome::time_limit(0.0);
    }
    let (starts, index, value) = model.to_csc();
    let starts: Vec<sys::CoinBigIndex> = starts.iter().map(|&s| s as sys::CoinBigIndex).collect();
    let index: Vec<c_int> = index.iter().map(|&i| i as c_int).collect();
    let clamp = |x: f64| x.clamp(-f64::MAX, f64::MAX);
    let col_lb: Vec<f64> = model.vars.iter().map(|v| clamp(v.lower)).collect();
    let col_ub: Vec<f64> = model.vars.iter().map(|v| clamp(v.upper)).collect();
    let obj: Vec<f64> = model.vars.iter().map(|v| v.objective).collect();
    let row_lb: Vec<f64> = model.rows.iter().map(|r| clamp(r.lower)).collect();
    let row_ub: Vec<f64> = model.rows.iter().map(|r| clamp(r.upper)).collect();
    // SAFETY: Cbc_newModel returns a fresh model owned by the guard below.
    let m = CbcModel(unsafe { sys::Cbc_newModel() });
    // SAFETY: array lengths match the column and row counts given.
    unsafe {
        sys::Cbc_loadProblem(
            m.0,
            model.vars.len() as c_int,
            model.rows.len() as c_int,
            starts.as_ptr(),
            index.as_ptr(),
            value.as_ptr(),
            col_lb.as_ptr(),
            col_ub.as_ptr(),
            obj.as_ptr(),
            row_lb.as_ptr(),
            row_ub.as_ptr(),
        );
        sys::Cbc_setObjSense(
            m.0,
            if model.sense == Sense::Maximize {
                -1.0
            } else {
                1.0
            },
        );
        for (j, v) in model.vars.iter().enumerate() {
            if v.kind != VarKind::Continuous {
                sys::Cbc_setInteger(m.0, j as c_int);
            }
        }
    }
    // SAFETY: live model.
    unsafe { sys::Cbc_setLogLevel(m.0, 0) };
    set(&m, "log", "0");
    set(&m, "slog", "0");
    set(&m, "threads", &settings.threads.unwrap_or(1).to_string());
    set(&m, "ratioGap", &settings.mip_gap.unwrap_or(0.0).to_string());
    set(&m, "allowableGap", "0");
    let seed = cbc_seed(settings.seed.unwrap_or(0)).to_string();
    set(&m, "randomSeed", &seed);
    set(&m, "randomCbcSeed", &seed);
    if settings.presolve == Some(false) {
        set(&m, "presolve", "off");
        set(&m, "preprocess", "off");
    }
    set(&m, "timeMode", "elapsed");
    let is_mip = model.has_integers();
    // When Clp's own limit passes, its LPs stop wherever they are (see the module's doc).
    let lp_deadline = budget
        .deadline()
        .map(|d| d + std::time::Duration::from_secs_f64(if is_mip { LP_GRACE } else { 0.0 }));
    if let Some(t) = budget.left() {
        set(&m, "sec", &format!("{:.3}", t.max(0.001)));
    }
    if let Some(d) = lp_deadline {
        set_lp_wall_limit(
            &m,
            d.saturating_duration_since(Instant::now()).as_secs_f64(),
        );
    }
    if let Some(state) = callback {
        set(&m, "preprocess", "off");
        set(&m, "presolve", "off");
        set(&m, "heuristicsOnOff", "off");
        let name = CString::new("lazy").expect("name");
        // SAFETY: live model; `state` outlives the solve below, which is the only time
        // CBC calls the callback.
        unsafe {
            Cbc_addCutCallback(
                m.0,
                cut_callback,
                name.as_ptr(),
                state as *mut Callback as *mut c_void,
            )
        };
    }
    let start = Instant::now();
    // SAFETY: live model.
    unsafe { sys::Cbc_solve(m.0) };
    let seconds = start.elapsed().as_secs_f64();
    let lp_stopped = lp_deadline.is_some_and(|d| Instant::now() >= d);
    let past_deadline = budget.deadline().is_some_and(|d| Instant::now() >= d);
    // SAFETY: live model; the solution arrays have one entry per column.
    let (optimal, infeasible, time_limit, abandoned, obj_value, bound, nodes, values, n_inf) = unsafe {
        let n = model.vars.len();
        let sol = sys::Cbc_getColSolution(m.0);
        let values = if sol.is_null() {
            None
        } else {
            Some(std::slice::from_raw_parts(sol, n).to_vec())
        };
        (
            sys::Cbc_isProvenOptimal(m.0) != 0,
            sys::Cbc_isProvenInfeasible(m.0) != 0,
            sys::Cbc_isSecondsLimitReached(m.0) != 0,
            sys::Cbc_isAbandoned(m.0) != 0,
            sys::Cbc_getObjValue(m.0),
            sys::Cbc_getBestPossibleObjValue(m.0),
            sys::Cbc_getNodeCount(m.0),
            values,
            sys::Cbc_numberPrimalInfeasibilities(m.0),
        )
    };
    // A point is usable when CBC holds an incumbent: it reports an objective below its
    // "no solution" sentinel (1e50 for minimisation) and no primal infeasibilities.
    let has_point = values.is_some() && obj_value.abs() < 1e49 && n_inf == 0;
    if lp_stopped && (is_mip || !(optimal || infeasible)) {
        // Clp's limit may have cut an LP short: CBC's conclusions are not proofs (Clp's own
        // on an LP are: a stopped LP is neither optimal nor infeasible). A MIP's incumbent
        // is a checked solution and is kept; an unfinished LP's point is no solution.
        let keep = is_mip && has_point;
        return Outcome {
            objective: keep.then_some(obj_value),
            values: if keep { values } else { None },
            nodes: is_mip.then_some(nodes.max(0) as u64),
            message: Some(format!(
                "stopped by the wall-clock limit set on CBC's LP solver (Clp), {} s after the deadline; no bound kept",
                if is_mip { LP_GRACE } else { 0.0 }
            )),
            ..Outcome::time_limit(seconds)
        };
    }
    let status = if optimal {
        Status::Optimal
    } else if infeasible && (time_limit || past_deadline) {
        // Stopped by its time limit early (in preprocessing or at the root), CBC may flag
        // a feasible problem infeasible (seen at limits of about 0.1 s on Battleship `cbm`
        // and nonogram `dfa`, puzzles with solutions): no proof is taken from a run its
        // limit ended.
        return Outcome {
            message: Some(
                "CBC flagged the problem infeasible as its time limit stopped it; not taken as a proof"
                    .into(),
            ),
            ..Outcome::time_limit(seconds)
        };
    } else if infeasible {
        Status::Infeasible
    } else if time_limit {
        Status::TimeLimit
    } else if abandoned {
        return Outcome::error("CBC abandoned the solve (numerical trouble)", seconds);
    } else if has_point {
        Status::Feasible
    } else {
        return Outcome::error("CBC stopped without a status", seconds);
    };
    let objective = (has_point && status != Status::Infeasible).then_some(obj_value);
    Outcome {
        objective,
        best_bound: if is_mip && bound.abs() < 1e49 {
            Some(bound)
        } else {
            None
        },
        nodes: is_mip.then_some(nodes.max(0) as u64),
        // At the time limit the incumbent, if any, is kept so that it can be verified.
        values: if status.has_solution() || (status == Status::TimeLimit && has_point) {
            values
        } else {
            None
        },
        ..Outcome::with_status(status, seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_map_one_to_one_and_never_to_cbcs_time_of_day_seed() {
        let mapped: Vec<i64> = (0..1000).map(cbc_seed).collect();
        assert!(
            mapped.iter().all(|&s| s >= 1),
            "0 means the time of day to CBC"
        );
        let distinct: std::collections::BTreeSet<i64> = mapped.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            mapped.len(),
            "seeds 0 and 1 no longer collide"
        );
    }
}
