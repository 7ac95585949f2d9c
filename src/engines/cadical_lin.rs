//! `cadical-lin`: CaDiCaL with the model's long linear rows propagated natively, through
//! its IPASIR-UP external propagator interface (CaDiCaL ≥ 1.6), for models whose columns
//! are all 0/1 and whose rows have whole coefficients. The solver is the CaDiCaL library
//! that the rustsat-cadical crate builds; a small C++ shim (`cadical_lin/shim.cpp`,
//! compiled by the build script against that crate's headers) forwards the propagator's
//! callbacks to the Rust propagator here.
//!
//! * **Rows**: the fixings and the form over literals with positive weights are those of
//!   [`super::cnf`] (`lb ≤ Σ w_i l_i ≤ ub`). Rows whose clauses are short stay clauses,
//!   encoded as the `sat` engine encodes them: units, one clause (at least one, at most
//!   n − 1), and at most one (or at least n − 1) with at most [`cnf::PAIRWISE_MAX`]
//!   literals as pairwise clauses. Every other row (longer at-most-one rows, cardinality
//!   rows with 2 ≤ k ≤ n − 2, weighted rows) is not encoded: the propagator keeps, for
//!   each, the weight of its true literals and of its literals that are not false, and
//!   when a literal no longer fits (true-sum + w > ub, or not-false-sum − w < lb) it
//!   propagates the literal's negation (or the literal). The reason clause is built only
//!   when CaDiCaL asks for it, from the row's literals assigned before the propagation
//!   (largest weights first, as few as make the bound bite); a row whose sums cross a
//!   side is reported as an external (forgettable) conflict clause. Every model CaDiCaL
//!   finds is checked against every native row before it is accepted.
//! * **Objective**: minimised by solution-improving search as in [`super::sat`], but the
//!   bound "cost ≤ c − 1" is one more native row whose upper side is tightened after each
//!   solution (no totalizer). The fixed-objective shortcut is that of `sat`.
//! * **Figures**: `nodes` holds CaDiCaL's decisions, `conflicts` its conflicts,
//!   `clauses` the clauses of the short rows, `inferences` the literals the native rows
//!   propagated, `aux_variables` 0 (nothing is encoded with auxiliary variables).
//! * **Settings**: as `sat`: the time limit stops the search from inside the solver (a
//!   terminator asks the budget's deadline), the seed s becomes CaDiCaL's `seed` option
//!   s mod (2^31 − 1), and `preprocesslight=0`.
//! * **Row generation** (and counting, which adds a no-good row per solution) is the
//!   shared loop of [`super::row_generation`]: each round a fresh solver on the grown
//!   model (no rows added to a live search, no lazy rows).

use super::cnf::{self, Encoder, Normalized};
use super::sat::Goal;
use super::Status;
use super::{
    Budget, Capabilities, Clock, Declaration, Engine, EngineImpl, Kind, Outcome, Settings,
};
use crate::model::{Model, VarId};
use crate::progress;
use rustsat::instances::Cnf;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::time::Instant;

/// The engine.
pub const CADICAL_LIN: Engine = Engine::new(&CadicalLin);

/// CaDiCaL with native linear rows.
pub struct CadicalLin;

static DECLARATION: Declaration = Declaration {
    key: "cadical-lin",
    description: "CaDiCaL SAT solver with long linear rows propagated natively (IPASIR-UP), in process: 0/1 models with whole coefficients; objectives by solution-improving search",
    capabilities: Capabilities {
        kinds: &[Kind::Mip, Kind::RowGeneration],
        continuous: false,
        general_integers: false,
        fractional_coefficients: false,
        lp_relaxation: false,
        incumbent_at_limit: true,
        clock: Clock::Wall,
        presolve: false,
        seed: true,
        threads: false,
        mip_gap: false,
        heuristics: false,
        clausal: true,
        external: false,
        general: true,
        timeline: true,
    },
};

/// "CaDiCaL 2.x.y with native linear rows (IPASIR-UP)", read once from the linked solver.
pub fn version() -> String {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION
        .get_or_init(|| {
            // SAFETY: a static, NUL-terminated string of the library.
            let sig = unsafe { CStr::from_ptr(ffi::pb_signature()) }.to_string_lossy();
            let v = sig.strip_prefix("cadical-").unwrap_or(&sig).to_string();
            format!("CaDiCaL {v} with native linear rows (IPASIR-UP)")
        })
        .clone()
}

impl EngineImpl for CadicalLin {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        version()
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        search(model, settings, budget)
    }
}

/// The C interface of the shim.
mod ffi {
    use std::ffi::{c_char, c_int, c_void};

    /// The propagator's callbacks (`pb_callbacks` in the shim).
    #[repr(C)]
    pub struct Callbacks {
        pub notify_assignment: unsafe extern "C" fn(*mut c_void, *const c_int, usize),
        pub notify_new_decision_level: unsafe extern "C" fn(*mut c_void),
        pub notify_backtrack: unsafe extern "C" fn(*mut c_void, usize),
        pub check_found_model: unsafe extern "C" fn(*mut c_void, *const c_int, usize) -> bool,
        pub propagate: unsafe extern "C" fn(*mut c_void) -> c_int,
        pub add_reason_clause_lit: unsafe extern "C" fn(*mut c_void, c_int) -> c_int,
        pub has_external_clause: unsafe extern "C" fn(*mut c_void, *mut bool) -> bool,
        pub add_external_clause_lit: unsafe extern "C" fn(*mut c_void) -> c_int,
    }

    extern "C" {
        pub fn pb_new() -> *mut c_void;
        pub fn pb_delete(s: *mut c_void);
        pub fn pb_signature() -> *const c_char;
        pub fn pb_set_option(s: *mut c_void, name: *const c_char, value: c_int) -> bool;
        pub fn pb_add(s: *mut c_void, lit: c_int);
        pub fn pb_connect(s: *mut c_void, cb: *const Callbacks, data: *mut c_void);
        pub fn pb_observe(s: *mut c_void, var: c_int);
        pub fn pb_connect_terminator(
            s: *mut c_void,
            stop: unsafe extern "C" fn(*mut c_void) -> bool,
            data: *mut c_void,
        );
        pub fn pb_solve(s: *mut c_void) -> c_int;
        pub fn pb_val(s: *mut c_void, lit: c_int) -> c_int;
        pub fn pb_statistic(s: *mut c_void, name: *const c_char) -> i64;
    }
}

/// A native row `lb ≤ Σ w_i l_i ≤ ub` over CaDiCaL literals (column j is variable j + 1),
/// weights positive, largest first; lb = 0 and ub = total where a side is absent.
#[derive(Clone, Debug)]
struct Row {
    lits: Vec<(i32, i64)>,
    lb: i64,
    ub: i64,
    total: i64,
}

/// A row's place in the occurrence list of a variable: the row literal is the variable
/// (`positive`) or its negation, with weight `w`.
#[derive(Clone, Copy, Debug)]
struct Occurrence {
    row: u32,
    w: i64,
    positive: bool,
}

/// Why a literal was propagated: row `row`'s upper side (else its lower side), by the
/// literals assigned before trail position `at`.
#[derive(Clone, Copy, Debug, Default)]
struct Reason {
    row: u32,
    upper: bool,
    at: u32,
}

/// The propagator of the native rows.
struct Lin {
    rows: Vec<Row>,
    /// Per row: the weight of its true literals.
    sum_true: Vec<i64>,
    /// Per row: the weight of its literals that are not false.
    sum_free: Vec<i64>,
    /// By variable: the rows it occurs in.
    occ: Vec<Vec<Occurrence>>,
    /// By variable: 1 true, −1 false, 0 unassigned (as notified).
    val: Vec<i8>,
    /// By variable: its position on `trail`.
    pos: Vec<u32>,
    /// The assigned literals, in the order notified.
    trail: Vec<i32>,
    /// The trail's length where each decision level above 0 starts.
    levels: Vec<usize>,
    /// Rows whose sums changed so that they may propagate or conflict.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// Rows to scan at the next propagation fixpoint whatever happens before (new rows,
    /// a tightened side).
    sticky: Vec<u32>,
    /// Propagations to hand out, each with its reason.
    queue: Vec<(i32, Reason)>,
    /// By variable: the reason of its last propagation.
    reason: Vec<Reason>,
    /// External clauses to hand out (conflicts, violated rows in a model).
    pending: Vec<Vec<i32>>,
    /// The external clause being handed out, and how far.
    current: Option<(Vec<i32>, usize)>,
    /// The reason clause being handed out, and how far.
    explaining: Option<(Vec<i32>, usize)>,
    /// Literals propagated.
    propagations: u64,
    /// Models refused by the final check (a native row violated: a propagation missed).
    rejected: u64,
}

impl Lin {
    fn new(vars: usize, rows: Vec<Row>) -> Lin {
        let mut occ = vec![Vec::new(); vars + 1];
        for (k, r) in rows.iter().enumerate() {
            for &(l, w) in &r.lits {
                occ[l.unsigned_abs() as usize].push(Occurrence {
                    row: k as u32,
                    w,
                    positive: l > 0,
                });
            }
        }
        let n = rows.len();
        Lin {
            sum_true: vec![0; n],
            sum_free: rows.iter().map(|r| r.total).collect(),
            rows,
            occ,
            val: vec![0; vars + 1],
            pos: vec![0; vars + 1],
            trail: Vec::new(),
            levels: Vec::new(),
            dirty: Vec::new(),
            is_dirty: vec![false; n],
            sticky: (0..n as u32).collect(),
            queue: Vec::new(),
            reason: vec![Reason::default(); vars + 1],
            pending: Vec::new(),
            current: None,
            explaining: None,
            propagations: 0,
            rejected: 0,
        }
    }

    /// The variables that occur in a row (to be observed).
    fn observed(&self) -> impl Iterator<Item = i32> + '_ {
        (1..self.occ.len())
            .filter(|&v| !self.occ[v].is_empty())
            .map(|v| v as i32)
    }

    fn value(&self, l: i32) -> i8 {
        let v = self.val[l.unsigned_abs() as usize];
        if l > 0 {
            v
        } else {
            -v
        }
    }

    /// Can row `k` propagate or conflict now (its largest weight exceeds a slack)?
    fn tight(&self, k: usize) -> bool {
        let r = &self.rows[k];
        let w = r.lits[0].1;
        self.sum_true[k] + w > r.ub || self.sum_free[k] - w < r.lb
    }

    fn mark(&mut self, k: usize) {
        if !self.is_dirty[k] {
            self.is_dirty[k] = true;
            self.dirty.push(k as u32);
        }
    }

    fn assign(&mut self, lit: i32) {
        let v = lit.unsigned_abs() as usize;
        if self.val[v] != 0 {
            // Notified again (root-level literals after a full renotification).
            debug_assert_eq!(self.val[v], if lit > 0 { 1 } else { -1 });
            return;
        }
        self.val[v] = if lit > 0 { 1 } else { -1 };
        self.pos[v] = self.trail.len() as u32;
        self.trail.push(lit);
        for i in 0..self.occ[v].len() {
            let o = self.occ[v][i];
            let k = o.row as usize;
            if o.positive == (lit > 0) {
                self.sum_true[k] += o.w;
            } else {
                self.sum_free[k] -= o.w;
            }
            if self.tight(k) {
                self.mark(k);
            }
        }
    }

    fn backtrack(&mut self, level: usize) {
        let start = self.levels.get(level).copied().unwrap_or(self.trail.len());
        self.levels.truncate(level);
        while self.trail.len() > start {
            let lit = self.trail.pop().expect("longer than start");
            let v = lit.unsigned_abs() as usize;
            self.val[v] = 0;
            for o in &self.occ[v] {
                let k = o.row as usize;
                if o.positive == (lit > 0) {
                    self.sum_true[k] -= o.w;
                } else {
                    self.sum_free[k] += o.w;
                }
            }
        }
        for &k in &self.dirty {
            self.is_dirty[k as usize] = false;
        }
        self.dirty.clear();
        self.queue.clear();
    }

    /// Scans row `k`: a conflict becomes an external clause; each literal that no longer
    /// fits is queued with its reason.
    fn scan(&mut self, k: usize) {
        let r = &self.rows[k];
        let (st, sf) = (self.sum_true[k], self.sum_free[k]);
        if st > r.ub {
            // The true literals (largest first) until they exceed ub: not all of them.
            let mut clause = Vec::new();
            let mut sum = 0;
            for &(l, w) in &r.lits {
                if self.value(l) > 0 {
                    clause.push(-l);
                    sum += w;
                    if sum > r.ub {
                        break;
                    }
                }
            }
            self.pending.push(clause);
            return;
        }
        if sf < r.lb {
            // The false literals until the rest cannot reach lb: one of them.
            let mut clause = Vec::new();
            let mut sum = 0;
            for &(l, w) in &r.lits {
                if self.value(l) < 0 {
                    clause.push(l);
                    sum += w;
                    if r.total - sum < r.lb {
                        break;
                    }
                }
            }
            self.pending.push(clause);
            return;
        }
        let at = self.trail.len() as u32;
        let (su, sl) = (r.ub - st, sf - r.lb);
        for &(l, w) in &r.lits {
            if w <= su && w <= sl {
                break;
            }
            if self.value(l) != 0 {
                continue;
            }
            let row = k as u32;
            if w > su {
                self.queue.push((
                    -l,
                    Reason {
                        row,
                        upper: true,
                        at,
                    },
                ));
            } else {
                self.queue.push((
                    l,
                    Reason {
                        row,
                        upper: false,
                        at,
                    },
                ));
            }
        }
    }

    fn propagate(&mut self) -> i32 {
        for i in 0..self.sticky.len() {
            let k = self.sticky[i] as usize;
            self.mark(k);
        }
        loop {
            while let Some((l, why)) = self.queue.pop() {
                if self.value(l) == 0 {
                    self.reason[l.unsigned_abs() as usize] = why;
                    self.propagations += 1;
                    return l;
                }
            }
            if !self.pending.is_empty() || self.current.is_some() {
                return 0;
            }
            let Some(k) = self.dirty.pop() else {
                self.sticky.clear();
                return 0;
            };
            self.is_dirty[k as usize] = false;
            self.scan(k as usize);
        }
    }

    /// The reason clause of `plit`: plit and the negations of the row literals that made
    /// it (assigned before it, largest weights first, as few as suffice).
    fn explain(&self, plit: i32) -> Vec<i32> {
        let v = plit.unsigned_abs() as usize;
        let Reason { row, upper, at } = self.reason[v];
        let r = &self.rows[row as usize];
        let w0 = r
            .lits
            .iter()
            .find(|(l, _)| l.unsigned_abs() as usize == v)
            .map_or(0, |&(_, w)| w);
        let mut clause = vec![plit];
        let mut sum = 0;
        // Upper side: true literals of weight > ub − w0; lower side: false literals of
        // weight > total − lb − w0.
        let need = if upper {
            r.ub - w0
        } else {
            r.total - r.lb - w0
        };
        let want = if upper { 1 } else { -1 };
        for &(l, w) in &r.lits {
            let u = l.unsigned_abs() as usize;
            if u != v && self.value(l) == want && self.pos[u] < at {
                clause.push(if upper { -l } else { l });
                sum += w;
                if sum > need {
                    break;
                }
            }
        }
        // A reason that does not force its literal would make the search unsound.
        assert!(sum > need, "the reason of {plit} does not force it");
        clause
    }

    /// Checks every native row on a complete model; a violated row becomes an external
    /// clause.
    fn check(&mut self, model: &[c_int]) -> bool {
        let mut val = vec![0i8; self.val.len()];
        for &l in model {
            let v = l.unsigned_abs() as usize;
            if v < val.len() {
                val[v] = if l > 0 { 1 } else { -1 };
            }
        }
        let value = |l: i32| {
            let x = val[l.unsigned_abs() as usize];
            if l > 0 {
                x
            } else {
                -x
            }
        };
        let mut ok = true;
        for r in &self.rows {
            let st: i64 = r
                .lits
                .iter()
                .filter(|&&(l, _)| value(l) > 0)
                .map(|p| p.1)
                .sum();
            let sf: i64 = r
                .lits
                .iter()
                .filter(|&&(l, _)| value(l) >= 0)
                .map(|p| p.1)
                .sum();
            if st > r.ub {
                let c = r.lits.iter().filter(|&&(l, _)| value(l) > 0).map(|p| -p.0);
                self.pending.push(c.collect());
                ok = false;
            } else if sf < r.lb {
                let c = r.lits.iter().filter(|&&(l, _)| value(l) < 0).map(|p| p.0);
                self.pending.push(c.collect());
                ok = false;
            }
        }
        self.rejected += u64::from(!ok);
        ok
    }
}

unsafe extern "C" fn notify_assignment(data: *mut c_void, lits: *const c_int, n: usize) {
    let lin = &mut *(data as *mut Lin);
    for &l in std::slice::from_raw_parts(lits, n) {
        lin.assign(l);
    }
}

unsafe extern "C" fn notify_new_decision_level(data: *mut c_void) {
    let lin = &mut *(data as *mut Lin);
    lin.levels.push(lin.trail.len());
}

unsafe extern "C" fn notify_backtrack(data: *mut c_void, level: usize) {
    (*(data as *mut Lin)).backtrack(level);
}

unsafe extern "C" fn check_found_model(data: *mut c_void, model: *const c_int, n: usize) -> bool {
    let model = if n == 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(model, n)
    };
    (*(data as *mut Lin)).check(model)
}

unsafe extern "C" fn propagate(data: *mut c_void) -> c_int {
    (*(data as *mut Lin)).propagate()
}

unsafe extern "C" fn add_reason_clause_lit(data: *mut c_void, plit: c_int) -> c_int {
    let lin = &mut *(data as *mut Lin);
    if lin.explaining.is_none() {
        lin.explaining = Some((lin.explain(plit), 0));
    }
    let (clause, i) = lin.explaining.as_mut().expect("set above");
    if *i < clause.len() {
        *i += 1;
        clause[*i - 1]
    } else {
        lin.explaining = None;
        0
    }
}

unsafe extern "C" fn has_external_clause(data: *mut c_void, forgettable: *mut bool) -> bool {
    let lin = &mut *(data as *mut Lin);
    if lin.current.is_none() {
        lin.current = lin.pending.pop().map(|c| (c, 0));
    }
    *forgettable = true;
    lin.current.is_some()
}

unsafe extern "C" fn add_external_clause_lit(data: *mut c_void) -> c_int {
    let lin = &mut *(data as *mut Lin);
    let Some((clause, i)) = lin.current.as_mut() else {
        return 0;
    };
    if *i < clause.len() {
        *i += 1;
        clause[*i - 1]
    } else {
        lin.current = None;
        0
    }
}

static CALLBACKS: ffi::Callbacks = ffi::Callbacks {
    notify_assignment,
    notify_new_decision_level,
    notify_backtrack,
    check_found_model,
    propagate,
    add_reason_clause_lit,
    has_external_clause,
    add_external_clause_lit,
};

unsafe extern "C" fn past_deadline(data: *mut c_void) -> bool {
    Instant::now() >= *(data as *const Instant)
}

/// A CaDiCaL of the shim with the propagator connected; the propagator and the deadline
/// live as long as the solver (dropped after it).
struct Solver {
    ptr: *mut c_void,
    lin: *mut Lin,
    deadline: Option<*mut Instant>,
    vars: usize,
}

impl Solver {
    fn new(lin: Lin, vars: usize, settings: &Settings, budget: &Budget) -> Solver {
        // SAFETY: the shim's functions on the solver it made; the propagator and deadline
        // are boxed and freed only after the solver (Drop).
        unsafe {
            let ptr = ffi::pb_new();
            let mut s = Solver {
                ptr,
                lin: Box::into_raw(Box::new(lin)),
                deadline: None,
                vars,
            };
            if let Some(seed) = settings.seed {
                s.set("seed", (seed % (i32::MAX as u64)) as i32);
            }
            s.set("preprocesslight", 0);
            if let Some(d) = budget.deadline() {
                let d = Box::into_raw(Box::new(d));
                s.deadline = Some(d);
                ffi::pb_connect_terminator(ptr, past_deadline, d as *mut c_void);
            }
            ffi::pb_connect(ptr, &CALLBACKS, s.lin as *mut c_void);
            let observed: Vec<i32> = (*s.lin).observed().collect();
            for v in observed {
                ffi::pb_observe(ptr, v);
            }
            s
        }
    }

    fn set(&mut self, name: &str, value: i32) {
        let c = CString::new(name).expect("no NUL in option names");
        // SAFETY: a live solver and a NUL-terminated name.
        let ok = unsafe { ffi::pb_set_option(self.ptr, c.as_ptr(), value) };
        assert!(ok, "CaDiCaL has a {name} option");
    }

    fn clause(&mut self, lits: impl IntoIterator<Item = i32>) {
        for l in lits {
            // SAFETY: a live solver.
            unsafe { ffi::pb_add(self.ptr, l) };
        }
        // SAFETY: a live solver.
        unsafe { ffi::pb_add(self.ptr, 0) };
    }

    /// 10 satisfiable, 20 unsatisfiable, 0 interrupted.
    fn solve(&mut self) -> i32 {
        // SAFETY: a live solver; no Rust reference to the propagator is held meanwhile.
        unsafe { ffi::pb_solve(self.ptr) }
    }

    /// The value of column j in the last model.
    fn column(&self, j: usize) -> bool {
        let v = j as i32 + 1;
        // SAFETY: a live solver after a satisfiable solve; columns beyond the variables
        // the solver saw occur nowhere and are false.
        j < self.vars && unsafe { ffi::pb_val(self.ptr, v) } > 0
    }

    fn statistic(&self, name: &str) -> u64 {
        let c = CString::new(name).expect("no NUL in statistic names");
        // SAFETY: a live solver and a NUL-terminated name.
        u64::try_from(unsafe { ffi::pb_statistic(self.ptr, c.as_ptr() as *const c_char) })
            .unwrap_or(0)
    }

    /// The propagator, between solves.
    fn lin(&mut self) -> &mut Lin {
        // SAFETY: only called while the solver is not solving.
        unsafe { &mut *self.lin }
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        // SAFETY: the shim disconnects the propagator and terminator before they are
        // freed here.
        unsafe {
            ffi::pb_delete(self.ptr);
            drop(Box::from_raw(self.lin));
            if let Some(d) = self.deadline {
                drop(Box::from_raw(d));
            }
        }
    }
}

/// Is the row short enough to stay clauses (units, one clause, pairwise at most one)?
fn short(lits: &[(rustsat::types::Lit, i64)], lb: Option<i64>, ub: Option<i64>) -> bool {
    let w = lits[0].1;
    if lits.iter().any(|&(_, x)| x != w) {
        return false;
    }
    let n = lits.len() as i64;
    let lo = lb.map_or(0, |b| (b + w - 1) / w);
    let hi = ub.map_or(n, |b| b / w);
    let pairwise = lits.len() <= cnf::PAIRWISE_MAX;
    let lo_short = lo <= 1 || lo >= n || (lo + 1 == n && pairwise);
    let hi_short = hi >= n - 1 || hi <= 0 || (hi == 1 && pairwise);
    lo > hi || lo_short && hi_short
}

/// A row's terms with each column once (coefficients added up).
fn merged(terms: &[(VarId, f64)]) -> Vec<(VarId, f64)> {
    let mut t = terms.to_vec();
    t.sort_by_key(|p| p.0 .0);
    t.dedup_by(|b, a| {
        if a.0 == b.0 {
            a.1 += b.1;
            true
        } else {
            false
        }
    });
    t
}

/// A native row from the normalized form, largest weights first.
fn native(lits: Vec<(rustsat::types::Lit, i64)>, lb: Option<i64>, ub: Option<i64>) -> Row {
    let total = lits.iter().map(|p| p.1).sum();
    let mut lits: Vec<(i32, i64)> = lits.into_iter().map(|(l, w)| (l.to_ipasir(), w)).collect();
    lits.sort_by_key(|p| std::cmp::Reverse(p.1));
    Row {
        lits,
        lb: lb.unwrap_or(0),
        ub: ub.unwrap_or(total),
        total,
    }
}

/// The search: rows to clauses or the propagator, solve, and bound the objective after
/// each solution until none is better (or the budget ends).
fn search(model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let start = Instant::now();
    if budget.expired() {
        return Outcome::time_limit(0.0);
    }
    let refused = |e: String| Outcome::refused(format!("unsupported by cadical-lin: {e}"), 0.0);
    let fixed = match cnf::fixings(model) {
        Ok(f) => f,
        Err(_) => {
            return Outcome {
                nodes: Some(0),
                conflicts: Some(0),
                clauses: Some(0),
                aux_variables: Some(0),
                ..Outcome::infeasible(start.elapsed().as_secs_f64())
            }
        }
    };
    let mut enc = Encoder::new(fixed.clone());
    let goal = match Goal::of(model, &enc) {
        Ok(g) => g,
        Err(e) => return refused(e),
    };
    let mut cnf = Cnf::new();
    let mut rows = Vec::new();
    for r in &model.rows {
        let terms = merged(&r.terms);
        let norm = match cnf::normalize(&fixed, &terms, r.lower, r.upper) {
            Ok(n) => n,
            Err(e) => return refused(format!("row {}: {e}", r.name)),
        };
        match norm {
            Normalized::Always => {}
            Normalized::Never => cnf.add_clause(rustsat::types::Clause::new()),
            Normalized::Row { lits, lb, ub } if !short(&lits, lb, ub) => {
                rows.push(native(lits, lb, ub));
            }
            Normalized::Row { .. } => {
                if let Err(e) = enc.row(&terms, r.lower, r.upper, &mut cnf) {
                    return refused(format!("row {}: {e}", r.name));
                }
            }
        }
    }
    // The objective's bound: a native row whose upper side starts at its total.
    let objective_row = goal.as_ref().filter(|g| g.fixed_by.is_none()).map(|g| {
        let lits = g.lits.iter().map(|&(l, w)| (l, w as i64)).collect();
        rows.push(native(lits, None, None));
        rows.len() - 1
    });
    let n = model.vars.len();
    let lin = Lin::new(n, rows);
    let mut solver = Solver::new(lin, n, settings, budget);
    let clauses = cnf.len() as u64;
    for c in cnf {
        solver.clause(c.iter().map(|l| l.to_ipasir()));
    }
    let mut best: Option<Vec<f64>> = None;
    let status = loop {
        if budget.expired() {
            break Status::TimeLimit;
        }
        match solver.solve() {
            10 => {}
            20 if best.is_some() => break Status::Optimal,
            20 => break Status::Infeasible,
            _ => break Status::TimeLimit,
        }
        let x: Vec<f64> = (0..n)
            .map(|j| fixed[j].unwrap_or_else(|| solver.column(j)))
            .map(|b| f64::from(u8::from(b)))
            .collect();
        if progress::watching() {
            progress::report(
                Some(model.objective_value(&x)),
                None,
                Some(solver.statistic("decisions")),
            );
        }
        let cost = goal.as_ref().map(|g| g.cost(&x));
        budget.incumbent(model.objective_value(&x));
        best = Some(x);
        match (cost, objective_row) {
            (Some(c), Some(k)) if c > 0 => {
                let lin = solver.lin();
                lin.rows[k].ub = c as i64 - 1;
                lin.sticky.push(k as u32);
            }
            _ => break Status::Optimal,
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    Outcome {
        objective: best.as_deref().map(|v| model.objective_value(v)),
        values: best,
        nodes: Some(solver.statistic("decisions")),
        conflicts: Some(solver.statistic("conflicts")),
        clauses: Some(clauses),
        aux_variables: Some(enc.aux_variables()),
        inferences: Some(solver.lin().propagations),
        ..Outcome::with_status(status, seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::test_models::{
        binary_brute_force as brute_force, binary_model as model_of,
    };
    use crate::engines::SolveOptions;
    use crate::model::Sense;
    use proptest::prelude::*;

    #[test]
    fn short_rows_stay_clauses_and_long_sums_go_native() {
        let l = |n: usize, w: i64| -> Vec<(rustsat::types::Lit, i64)> {
            (0..n)
                .map(|j| (rustsat::types::Lit::positive(j as u32), w))
                .collect()
        };
        assert!(short(&l(10, 1), Some(1), Some(1))); // exactly one, pairwise
        assert!(!short(&l(20, 1), Some(1), Some(1))); // exactly one beyond pairwise
        assert!(short(&l(20, 1), Some(1), None)); // a clause
        assert!(!short(&l(10, 1), Some(2), Some(2))); // two of ten
        assert!(short(&l(10, 1), None, Some(9))); // a no-good
        let mut weighted = l(4, 1);
        weighted[0].1 = 3;
        assert!(!short(&weighted, Some(2), None));
    }

    #[test]
    fn a_weighted_knapsack_is_solved_to_optimality() {
        // max 8a + 11b + 6c + 4d, 5a + 7b + 4c + 3d <= 14: optimum 21 (b, c, d).
        let m = model_of(
            4,
            &[8, 11, 6, 4],
            Sense::Maximize,
            &[(vec![5, 7, 4, 3], f64::NEG_INFINITY, 14.0)],
        );
        let o = CADICAL_LIN.solve_model(&m, &SolveOptions::default());
        assert_eq!(o.status, Status::Optimal, "{o:?}");
        assert_eq!(o.objective, Some(21.0));
        assert_eq!((o.best_bound, o.gap), (Some(21.0), Some(0.0)));
        assert_eq!(o.clauses, Some(0), "nothing encoded");
        assert!(o.conflicts.is_some() && o.nodes.is_some());
    }

    #[test]
    fn cardinality_rows_are_propagated() {
        // Ten columns, exactly three ones in each of two overlapping windows, minimise
        // the ones: the windows share 4 columns, so the optimum puts three there.
        let mut a = vec![1; 7];
        a.extend([0, 0, 0]);
        let mut b = vec![0, 0, 0];
        b.extend([1; 7]);
        let m = model_of(
            10,
            &[1; 10],
            Sense::Minimize,
            &[(a, 3.0, 3.0), (b, 3.0, 3.0)],
        );
        let o = CADICAL_LIN.solve_model(&m, &SolveOptions::default());
        assert_eq!(
            (o.status, o.objective),
            (Status::Optimal, Some(3.0)),
            "{o:?}"
        );
        assert!(m.feasible(o.values.as_ref().unwrap()));
    }

    #[test]
    fn infeasible_by_fixings_and_by_search() {
        let by_fixings = model_of(
            2,
            &[0, 0],
            Sense::Minimize,
            &[(vec![1, 1], 3.0, f64::INFINITY)],
        );
        let o = CADICAL_LIN.solve_model(&by_fixings, &SolveOptions::default());
        assert_eq!(o.status, Status::Infeasible);
        // Three columns, each pair sums to 1 (an odd cycle), as long rows: 2x0 + 2x1 = 2.
        let odd = model_of(
            3,
            &[0, 0, 0],
            Sense::Minimize,
            &[
                (vec![2, 2, 0], 2.0, 2.0),
                (vec![0, 3, 3], 3.0, 3.0),
                (vec![1, 0, 1], 1.0, 1.0),
            ],
        );
        assert_eq!(
            CADICAL_LIN
                .solve_model(&odd, &SolveOptions::default())
                .status,
            Status::Infeasible
        );
        // Pigeons: 5 columns, at least 3 ones and at most 2.
        let pigeons = model_of(
            5,
            &[0; 5],
            Sense::Minimize,
            &[
                (vec![1; 5], 3.0, f64::INFINITY),
                (vec![1; 5], f64::NEG_INFINITY, 2.0),
            ],
        );
        assert_eq!(
            CADICAL_LIN
                .solve_model(&pigeons, &SolveOptions::default())
                .status,
            Status::Infeasible
        );
    }

    /// The rows are propagated during the search: no model breaks one (the final check
    /// refuses none), and the reasons handed out force their literals (asserted).
    #[test]
    fn the_search_needs_no_model_refused() {
        // 12 columns in a 3×4 grid, exactly 2 ones per row and per column is impossible
        // (6 ≠ 8); 2 per row and at most 2 per column, 1 + 2·x weighted, is not.
        let lits = |cols: &[usize]| -> Vec<(i32, i64)> {
            cols.iter().map(|&c| (c as i32 + 1, 1)).collect()
        };
        let row = |cols: &[usize], lb: i64, ub: i64| Row {
            lits: lits(cols),
            lb,
            ub,
            total: cols.len() as i64,
        };
        let mut rows = Vec::new();
        for i in 0..3 {
            let c: Vec<usize> = (0..4).map(|j| 4 * i + j).collect();
            rows.push(row(&c, 2, 2));
        }
        for j in 0..4 {
            let c: Vec<usize> = (0..3).map(|i| 4 * i + j).collect();
            rows.push(row(&c, 2, 2));
        }
        let settings = CADICAL_LIN.settings(Kind::Mip, &SolveOptions::default());
        let mut s = Solver::new(
            Lin::new(12, rows.clone()),
            12,
            &settings,
            &Budget::unlimited(),
        );
        assert_eq!(s.solve(), 20);
        assert_eq!(s.lin().rejected, 0);
        for r in rows.iter_mut().skip(3) {
            r.lb = 0;
        }
        let mut s = Solver::new(Lin::new(12, rows), 12, &settings, &Budget::unlimited());
        assert_eq!(s.solve(), 10);
        assert_eq!(s.lin().rejected, 0);
        assert!(s.lin().propagations > 0);
        let ones: usize = (0..12).filter(|&j| s.column(j)).count();
        assert_eq!(ones, 6);
    }

    #[test]
    fn an_expired_budget_ends_at_once() {
        let m = model_of(2, &[1, 1], Sense::Minimize, &[]);
        let o = CADICAL_LIN.solve_model(
            &m,
            &SolveOptions {
                time_limit: Some(0.0),
                ..SolveOptions::default()
            },
        );
        assert_eq!(o.status, Status::TimeLimit);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The optimum (or infeasibility) agrees with enumeration on random small models
        /// with long and weighted rows.
        #[test]
        fn random_models_agree_with_brute_force(
            obj in proptest::collection::vec(-3i64..=3, 7),
            maximize in any::<bool>(),
            rows in proptest::collection::vec(
                (proptest::collection::vec(-3i64..=3, 7), -4i64..=4, 0i64..=5),
                0..=5,
            ),
        ) {
            let rows: Vec<(Vec<i64>, f64, f64)> = rows
                .into_iter()
                .map(|(c, lo, w)| (c, lo as f64, (lo + w) as f64))
                .collect();
            let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
            let m = model_of(7, &obj, sense, &rows);
            let o = CADICAL_LIN.solve_model(&m, &SolveOptions::default());
            match brute_force(&m) {
                None => prop_assert_eq!(o.status, Status::Infeasible),
                Some(best) => {
                    prop_assert_eq!(o.status, Status::Optimal);
                    prop_assert_eq!(o.objective, Some(best));
                    let x = o.values.unwrap();
                    prop_assert!(m.feasible(&x));
                    prop_assert_eq!(m.objective_value(&x), best);
                }
            }
        }

        /// Cardinality rows over 0/1 columns (sums of ±1, both sides), as in the puzzles.
        #[test]
        fn random_cardinality_models_agree_with_brute_force(
            obj in proptest::collection::vec(-2i64..=2, 10),
            rows in proptest::collection::vec(
                (proptest::collection::vec(0i64..=1, 10), 0i64..=6, 0i64..=3),
                1..=6,
            ),
        ) {
            let rows: Vec<(Vec<i64>, f64, f64)> = rows
                .into_iter()
                .map(|(c, lo, w)| (c, lo as f64, (lo + w) as f64))
                .collect();
            let m = model_of(10, &obj, Sense::Minimize, &rows);
            let o = CADICAL_LIN.solve_model(&m, &SolveOptions::default());
            match brute_force(&m) {
                None => prop_assert_eq!(o.status, Status::Infeasible),
                Some(best) => {
                    prop_assert_eq!(o.status, Status::Optimal);
                    prop_assert_eq!(o.objective, Some(best));
                    prop_assert!(m.feasible(o.values.as_ref().unwrap()));
                }
            }
        }
    }
}
