//! CBC backend through `coin_cbc_sys` (Debian's CBC 2.10, linked with pkg-config).
//!
//! CBC is not thread-safe in process: every call into it holds one process-wide lock.
//! The sys crate is used rather than `coin_cbc` because the node count
//! (`Cbc_getNodeCount`) needs the raw model pointer, which `coin_cbc` keeps private.

use super::{Outcome, SolveOptions, Status};
use crate::branch_and_cut::Cut;
use crate::model::{Model, Sense, VarKind};
use coin_cbc_sys as sys;
use std::ffi::c_void;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::sync::Mutex;
use std::time::Instant;

static CBC_LOCK: Mutex<()> = Mutex::new(());

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

/// Loads `model` into CBC, applies `options` and solves.
pub fn solve(model: &Model, options: &SolveOptions) -> Outcome {
    solve_with(model, options, None)
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
    for row in rows {
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
/// solutions it accepts, so the caller must check the result. Returns the outcome and the
/// rows the callback added.
pub fn solve_with_cut_callback(
    model: &Model,
    options: &SolveOptions,
    separate: &mut dyn FnMut(&[f64]) -> Vec<Cut>,
) -> (Outcome, u64) {
    let mut state = Callback {
        separate,
        cuts: 0,
        panicked: false,
    };
    let outcome = solve_with(model, options, Some(&mut state));
    if state.panicked {
        return (
            Outcome::error("the cut callback panicked", outcome.seconds),
            state.cuts,
        );
    }
    (outcome, state.cuts)
}

/// Loads `model` into CBC, applies `options`, registers the cut callback if any and solves.
fn solve_with(model: &Model, options: &SolveOptions, callback: Option<&mut Callback>) -> Outcome {
    let _guard = CBC_LOCK.lock().unwrap_or_else(|p| p.into_inner());
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
    set(&m, "threads", &options.threads.to_string());
    set(&m, "ratioGap", &options.mip_gap.to_string());
    set(&m, "allowableGap", "0");
    set(
        &m,
        "randomSeed",
        &(options.seed % (i32::MAX as u64)).max(1).to_string(),
    );
    set(
        &m,
        "randomCbcSeed",
        &(options.seed % (i32::MAX as u64)).max(1).to_string(),
    );
    if !options.presolve {
        set(&m, "presolve", "off");
        set(&m, "preprocess", "off");
    }
    if let Some(t) = options.time_limit {
        // CBC's "sec" takes whole seconds; round up so the limit is never shorter than asked.
        set(&m, "sec", &(t.ceil().max(1.0) as i64).to_string());
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
    let is_mip = model.has_integers();
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
    let status = if optimal {
        Status::Optimal
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
        status,
        objective,
        best_bound: if is_mip && bound.abs() < 1e49 {
            Some(bound)
        } else {
            None
        },
        gap: None,
        nodes: is_mip.then_some(nodes.max(0) as u64),
        seconds,
        // At the time limit the incumbent, if any, is kept so that it can be verified.
        values: if status.has_solution() || (status == Status::TimeLimit && has_point) {
            values
        } else {
            None
        },
        message: None,
    }
}
