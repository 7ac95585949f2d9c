//! The LP relaxations of the search: one HiGHS instance (through `highs-sys`) that keeps
//! its basis from one solve to the next, so that a node starts from the basis of the
//! node before (bound changes and added rows keep the basis valid; HiGHS's dual simplex
//! then needs few iterations).

use crate::lazy::Cut;
use crate::model::{Model, Sense};
use highs_sys as h;
use std::ffi::{c_void, CString};

/// One HiGHS instance holding the LP relaxation and every row added since.
pub struct Lp {
    ptr: *mut c_void,
    cols: usize,
    /// The column bounds HiGHS holds now.
    pub lower: Vec<f64>,
    /// See `lower`.
    pub upper: Vec<f64>,
}

impl Drop for Lp {
    fn drop(&mut self) {
        // SAFETY: created by Highs_create, destroyed once.
        unsafe { h::Highs_destroy(self.ptr) }
    }
}

/// How an LP solve of the search ended.
pub enum LpResult {
    /// Solved; the objective value.
    Optimal(f64),
    /// No point satisfies the rows within the bounds.
    Infeasible,
    /// The time limit struck first.
    TimeLimit,
    /// HiGHS failed; why.
    Failed(String),
}

impl Lp {
    /// The LP relaxation of `model` (integrality dropped), presolve off, HiGHS's
    /// simplex on one thread, with random seed `seed`.
    pub fn new(model: &Model, seed: u64) -> Result<Lp, String> {
        // SAFETY: a fresh instance, owned by the returned value.
        let ptr = unsafe { h::Highs_create() };
        let lp = Lp {
            ptr,
            cols: model.vars.len(),
            lower: model.vars.iter().map(|v| v.lower).collect(),
            upper: model.vars.iter().map(|v| v.upper).collect(),
        };
        lp.option_bool(
            "output_flag",
            std::env::var_os("PUZZLEBENCH_SOLVER_LOG").is_some(),
        )?;
        lp.option_str("presolve", "off")?;
        lp.option_str("solver", "simplex")?;
        lp.option_int("threads", 1)?;
        lp.option_int("random_seed", (seed % i32::MAX as u64) as i32)?;
        let (starts, index, value) = model.to_csc();
        let cost: Vec<f64> = model.vars.iter().map(|v| v.objective).collect();
        let row_lower: Vec<f64> = model.rows.iter().map(|r| r.lower).collect();
        let row_upper: Vec<f64> = model.rows.iter().map(|r| r.upper).collect();
        let starts: Vec<h::HighsInt> = starts[..lp.cols]
            .iter()
            .map(|&s| s as h::HighsInt)
            .collect();
        let index: Vec<h::HighsInt> = index.iter().map(|&i| i as h::HighsInt).collect();
        let sense = match model.sense {
            Sense::Minimize => h::kHighsObjSenseMinimize,
            Sense::Maximize => h::kHighsObjSenseMaximize,
        };
        // SAFETY: every array has the length HiGHS is told.
        let rc = unsafe {
            h::Highs_passLp(
                ptr,
                lp.cols as h::HighsInt,
                model.rows.len() as h::HighsInt,
                value.len() as h::HighsInt,
                h::kHighsMatrixFormatColwise,
                sense,
                model.objective_offset,
                cost.as_ptr(),
                lp.lower.as_ptr(),
                lp.upper.as_ptr(),
                row_lower.as_ptr(),
                row_upper.as_ptr(),
                starts.as_ptr(),
                index.as_ptr(),
                value.as_ptr(),
            )
        };
        if rc == h::kHighsStatusError {
            return Err("HiGHS rejected the LP".into());
        }
        Ok(lp)
    }

    fn option_bool(&self, name: &str, v: bool) -> Result<(), String> {
        let n = CString::new(name).expect("option name");
        // SAFETY: live instance, NUL-terminated name.
        let rc = unsafe { h::Highs_setBoolOptionValue(self.ptr, n.as_ptr(), v as h::HighsInt) };
        (rc != h::kHighsStatusError)
            .then_some(())
            .ok_or(format!("HiGHS option {name}"))
    }

    fn option_int(&self, name: &str, v: i32) -> Result<(), String> {
        let n = CString::new(name).expect("option name");
        // SAFETY: live instance, NUL-terminated name.
        let rc = unsafe { h::Highs_setIntOptionValue(self.ptr, n.as_ptr(), v as h::HighsInt) };
        (rc != h::kHighsStatusError)
            .then_some(())
            .ok_or(format!("HiGHS option {name}"))
    }

    fn option_f64(&self, name: &str, v: f64) -> Result<(), String> {
        let n = CString::new(name).expect("option name");
        // SAFETY: live instance, NUL-terminated name.
        let rc = unsafe { h::Highs_setDoubleOptionValue(self.ptr, n.as_ptr(), v) };
        (rc != h::kHighsStatusError)
            .then_some(())
            .ok_or(format!("HiGHS option {name}"))
    }

    fn option_str(&self, name: &str, v: &str) -> Result<(), String> {
        let n = CString::new(name).expect("option name");
        let v = CString::new(v).expect("option value");
        // SAFETY: live instance, NUL-terminated strings.
        let rc = unsafe { h::Highs_setStringOptionValue(self.ptr, n.as_ptr(), v.as_ptr()) };
        (rc != h::kHighsStatusError)
            .then_some(())
            .ok_or(format!("HiGHS option {name}"))
    }

    /// Sets the column bounds to `lower`/`upper`, passing only the ones that change.
    pub fn set_bounds(&mut self, lower: &[f64], upper: &[f64]) {
        let mut set: Vec<h::HighsInt> = Vec::new();
        let (mut lo, mut up) = (Vec::new(), Vec::new());
        for j in 0..self.cols {
            if lower[j] != self.lower[j] || upper[j] != self.upper[j] {
                set.push(j as h::HighsInt);
                lo.push(lower[j]);
                up.push(upper[j]);
            }
        }
        if set.is_empty() {
            return;
        }
        // SAFETY: the three arrays have set.len() entries, indices are columns.
        unsafe {
            h::Highs_changeColsBoundsBySet(
                self.ptr,
                set.len() as h::HighsInt,
                set.as_ptr(),
                lo.as_ptr(),
                up.as_ptr(),
            );
        }
        self.lower.copy_from_slice(lower);
        self.upper.copy_from_slice(upper);
    }

    /// Adds rows for the rest of the search.
    pub fn add_rows(&mut self, cuts: &[Cut]) {
        for c in cuts {
            let index: Vec<h::HighsInt> = c.terms.iter().map(|t| t.0 .0 as h::HighsInt).collect();
            let value: Vec<f64> = c.terms.iter().map(|t| t.1).collect();
            // SAFETY: index and value have the length given.
            unsafe {
                h::Highs_addRow(
                    self.ptr,
                    c.lower,
                    c.upper,
                    index.len() as h::HighsInt,
                    index.as_ptr(),
                    value.as_ptr(),
                );
            }
        }
    }

    /// Solves from the current basis, within `time_left` seconds when given.
    pub fn solve(&mut self, time_left: Option<f64>) -> LpResult {
        if let Some(t) = time_left {
            // HiGHS's run clock accumulates over the runs of one instance.
            // SAFETY: live instance.
            let used = unsafe { h::Highs_getRunTime(self.ptr) };
            if let Err(e) = self.option_f64("time_limit", used + t.max(0.0)) {
                return LpResult::Failed(e);
            }
        }
        // SAFETY: live instance with a model.
        let rc = unsafe { h::Highs_run(self.ptr) };
        if rc == h::kHighsStatusError {
            return LpResult::Failed("HiGHS failed on an LP of the search".into());
        }
        // SAFETY: live instance.
        match unsafe { h::Highs_getModelStatus(self.ptr) } {
            h::kHighsModelStatusOptimal => {
                // SAFETY: live instance.
                LpResult::Optimal(unsafe { h::Highs_getObjectiveValue(self.ptr) })
            }
            h::kHighsModelStatusInfeasible | h::kHighsModelStatusUnboundedOrInfeasible => {
                LpResult::Infeasible
            }
            h::kHighsModelStatusTimeLimit => LpResult::TimeLimit,
            s => LpResult::Failed(format!("HiGHS LP status {s} in the search")),
        }
    }

    /// The values of the columns at the last solve.
    pub fn values(&self) -> Vec<f64> {
        let mut x = vec![0.0; self.cols];
        // SAFETY: x has one entry per column; null pointers skip the other vectors.
        unsafe {
            h::Highs_getSolution(
                self.ptr,
                x.as_mut_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
        }
        x
    }
}
