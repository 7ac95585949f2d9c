//! `cpsat`: OR-Tools' CP-SAT solver, in a child process: the project's Python environment
//! runs the driver `drivers/cpsat.py` (part of this binary), which reads the model as
//! JSON on its standard input, builds CP-SAT's model proto directly and prints its answer
//! as JSON ([`super::external`]: one driver process serves a solve, or all the rounds of
//! a row-generation run).
//!
//! * **Whole coefficients**: CP-SAT takes integer coefficients only. Each row is scaled by
//!   the least common multiple of its coefficients' denominators, each coefficient read
//!   as the exact fraction p/q (q ≤ 10⁶) whose floating-point value it is; the scaled
//!   sides are then rounded inwards, which is exact since every column is integral. A row
//!   or objective that no such scaling makes whole, or whose scaled numbers pass 2⁵³, is
//!   refused (status `refused`) naming it ("unsupported by cpsat: …"), as are columns
//!   without finite bounds (CP-SAT needs finite domains). The objective is scaled the same
//!   way; its bound is scaled back and the model's constant added.
//! * **Settings**: the time limit (`max_time_in_seconds`, set by the driver to what is
//!   left of the run's budget when it starts solving), threads (`num_workers`), the gap
//!   (`relative_gap_limit`), the seed (`random_seed`, s mod (2³¹ − 1)) and presolve
//!   (`cp_model_presolve`); with one worker, a model with an objective whose rows are
//!   mostly clauses also gets `linearization_level` 2 and `add_lp_constraints_lazily`
//!   false ([`clause_lp`]). `seconds` is CP-SAT's own wall time, `call_seconds` the whole
//!   call; `nodes` holds its branches, `conflicts` its conflicts. CP-SAT solves no LP
//!   relaxation of the model that puzzlebench could report: `lp_bound` stays empty.
//! * **Timeline**: with a timeline recorded, a solution callback reports each improving
//!   incumbent with the best bound, and the bound callback each better bound, as CP-SAT
//!   finds them; they are unscaled here (divided by the objective's factor, the constant
//!   added).
//! * **Row generation**: the shared loop of [`super::row_generation`] on one driver
//!   process for the whole run: the model goes over at the first round, each later round
//!   sends only the rows added since, and the driver solves the model as it stands with a
//!   fresh `CpSolver` (no state is kept from one round to the next but the model), its
//!   limit what is left of the run's budget.
//! * **Counting** (`--count K`): CP-SAT's own enumeration (`enumerate_all_solutions`, one
//!   worker) on the model with its objective fixed, in one search on one driver process;
//!   each solution goes to puzzlebench, which counts distinct answers and stops the search
//!   at K. Asked for more than one thread, counting keeps the no-good loop. Before it, the
//!   at-most-one rows that a cardinality row forces to exactly one (the rows and columns of
//!   an n-Queens board without walls, by the queen count) are sent as equalities
//!   ([`super::implied`]): the solutions are the same, and CP-SAT's enumeration, which
//!   keeps only presolve steps that keep every solution, does not find them itself.

use super::driver_source::BuiltIn;
use super::external::{self, Reply, Session};
use super::implied;
use super::row_generation;
use super::{
    Budget, Capabilities, Declaration, Engine, EngineImpl, Enumeration, Kind, Outcome, Settings,
};
use crate::lazy::Separator;
use crate::model::{Model, Row, Sense, VarKind};
use serde::Serialize;
use std::path::Path;

/// The engine.
pub const CPSAT: Engine = Engine::new(&CpSat);

/// CP-SAT through its Python driver.
pub struct CpSat;

static DECLARATION: Declaration = Declaration {
    key: "cpsat",
    description: "OR-Tools CP-SAT, in a child process (project Python environment): integer models, coefficients scaled to whole numbers",
    capabilities: Capabilities {
        kinds: &[Kind::Mip, Kind::RowGeneration],
        continuous: false,
        lp_relaxation: false,
        external: true,
        general: true,
        timeline: true,
        ..Capabilities::MIP
    },
};

/// The driver, run as `python -I -c` or by its fork server ([`super::warm`]), with the
/// protocol module ahead of it ([`super::driver_source`]).
static DRIVER: BuiltIn = BuiltIn::new(include_str!("drivers/cpsat.py"));

impl EngineImpl for CpSat {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        convert(model).err()
    }

    fn driver(&self) -> Option<&'static str> {
        Some(DRIVER.source())
    }

    fn version(&self) -> String {
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        external::cached_version(&VERSION, || {
            crate::process::python_output("import ortools; print(ortools.__version__)")
                .map(|v| format!("CP-SAT (OR-Tools {v})"))
        })
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        external::with_python(|python| solve_with(python, model, settings, budget))
    }

    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        external::with_python(|python| {
            let mut driver = Driver::new(python);
            let outcome = row_generation::solve(model, separator, budget, |m, _, round| {
                driver.solve(m, settings, round)
            });
            driver.finish(outcome)
        })
    }

    fn enumerate(
        &self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
        counter: &mut dyn Enumeration,
    ) -> Option<Outcome> {
        // CP-SAT enumerates with one worker only: asked for more, counting keeps the loop.
        if settings.threads.is_some_and(|t| t > 1) {
            return None;
        }
        let model = implied::with_forced_rows(model);
        Some(external::with_python(|python| {
            let mut driver = Driver::new(python);
            let outcome = driver.enumerate(&model, settings, budget, counter);
            driver.finish(outcome)
        }))
    }
}

/// A row as the driver reads it: columns, whole coefficients, lower and upper side (None:
/// none).
type JobRow = (Vec<usize>, Vec<i64>, Option<i64>, Option<i64>);

/// The model as the driver reads it (message `model`).
#[derive(Serialize)]
struct ModelMessage {
    op: &'static str,
    vars: Vec<(i64, i64)>,
    rows: Vec<JobRow>,
    objective: Option<Objective>,
}

/// Rows added to the model the driver holds (message `rows`).
#[derive(Serialize)]
struct RowsMessage {
    op: &'static str,
    rows: Vec<JobRow>,
}

/// A solve of the model as it stands (message `solve`).
#[derive(Serialize)]
struct SolveMessage {
    op: &'static str,
    deadline: Option<f64>,
    params: Params,
    timeline: bool,
}

#[derive(Serialize)]
struct Objective {
    maximize: bool,
    vars: Vec<usize>,
    coefs: Vec<i64>,
}

/// CP-SAT's parameters, by their names in `SatParameters`.
#[derive(Serialize)]
struct Params {
    num_workers: u32,
    random_seed: i64,
    relative_gap_limit: f64,
    cp_model_presolve: bool,
    /// Set only where [`clause_lp`] asks for it (CP-SAT's defaults otherwise: 1 and true).
    #[serde(skip_serializing_if = "Option::is_none")]
    linearization_level: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    add_lp_constraints_lazily: Option<bool>,
}

/// Solves `model` with the driver on the interpreter `python` (a missing interpreter is
/// "not installed"): one driver process for this one solve.
pub fn solve_with(python: &Path, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let mut driver = Driver::new(python);
    let outcome = driver.solve(model, settings, budget);
    driver.finish(outcome)
}

/// One driver process serving the solves of one model as rows are added to it: the
/// model goes over at the first solve, later only the rows added since. A session that
/// ended (killed at the deadline, failed) is started again, with the whole model, at the
/// next solve.
struct Driver<'p> {
    python: &'p Path,
    session: Option<Session>,
    /// Rows of the model the driver holds.
    rows_sent: usize,
    /// The factor the objective was multiplied by.
    scale: f64,
    /// The version the last session reported.
    version: Option<String>,
}

impl<'p> Driver<'p> {
    fn new(python: &'p Path) -> Driver<'p> {
        Driver {
            python,
            session: None,
            rows_sent: 0,
            scale: 1.0,
            version: None,
        }
    }

    /// Makes the driver hold `model` as it stands: a session started with the whole
    /// model, or the rows added since sent to the live one; the error outcome when it
    /// cannot.
    fn hold(&mut self, model: &Model) -> Result<(), Box<Outcome>> {
        let unsupported =
            |why: String| Outcome::refused(format!("unsupported by cpsat: {why}"), 0.0);
        match self.session.as_mut().filter(|s| s.alive()) {
            Some(session) => {
                if model.rows.len() > self.rows_sent {
                    let rows = match model.rows[self.rows_sent..]
                        .iter()
                        .map(job_row)
                        .collect::<Result<Vec<_>, _>>()
                    {
                        Ok(r) => r,
                        Err(why) => return Err(Box::new(unsupported(why))),
                    };
                    session.send(&RowsMessage { op: "rows", rows });
                    self.rows_sent = model.rows.len();
                }
            }
            None => {
                let (message, scale) = match convert(model) {
                    Ok(m) => m,
                    Err(why) => return Err(Box::new(unsupported(why))),
                };
                self.session = None;
                let mut session = Session::start(self.python, DRIVER.source())?;
                session.send(&message);
                self.session = Some(session);
                self.rows_sent = model.rows.len();
                self.scale = scale;
            }
        }
        Ok(())
    }

    /// Solves `model` as it stands within `budget`.
    fn solve(&mut self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        if let Err(o) = self.hold(model) {
            return *o;
        }
        let session = self.session.as_mut().expect("a session was started");
        let message = SolveMessage {
            op: "solve",
            deadline: external::deadline_unix(budget),
            params: params(model, settings),
            timeline: budget.records(),
        };
        let (scale, offset) = (self.scale, model.objective_offset);
        let unscale = move |v: f64| v / scale + offset;
        let result = session.solve(&message, budget, unscale);
        if let Some(v) = session.version() {
            self.version = Some(v);
        }
        match result {
            Ok((answer, call)) => external::outcome(model, answer, call, unscale),
            Err(o) => *o,
        }
    }

    /// Enumerates the solutions of `model` (no objective) within `budget`, each handed to
    /// `counter`.
    fn enumerate(
        &mut self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
        counter: &mut dyn Enumeration,
    ) -> Outcome {
        if let Err(o) = self.hold(model) {
            return *o;
        }
        let session = self.session.as_mut().expect("a session was started");
        let message = SolveMessage {
            op: "enumerate",
            deadline: external::deadline_unix(budget),
            params: params(model, settings),
            timeline: false,
        };
        let result = session.enumerate(&message, budget, &mut |values| {
            if counter.found(values) {
                Reply::more(None)
            } else {
                Reply::stop()
            }
        });
        if let Some(v) = session.version() {
            self.version = Some(v);
        }
        match result {
            Ok((answer, call)) => external::outcome(model, answer, call, |b| b),
            Err(o) => *o,
        }
    }

    /// `outcome` with the version the driver reported in this run, where it has none;
    /// the driver process ends here.
    fn finish(mut self, mut outcome: Outcome) -> Outcome {
        self.session = None;
        if outcome.version.is_none() {
            outcome.version = self.version.take();
        }
        outcome
    }
}

fn params(model: &Model, settings: &Settings) -> Params {
    let num_workers = settings.threads.unwrap_or(1);
    let clauses_in_lp = num_workers == 1 && clause_lp(model);
    Params {
        num_workers,
        random_seed: (settings.seed.unwrap_or(0) % (i32::MAX as u64)) as i64,
        relative_gap_limit: settings.mip_gap.unwrap_or(0.0),
        cp_model_presolve: settings.presolve.unwrap_or(true),
        linearization_level: clauses_in_lp.then_some(2),
        add_lp_constraints_lazily: clauses_in_lp.then_some(false),
    }
}

/// True when `model` has an objective and most of its rows are clauses (Σ x ≥ 1 over
/// binary columns, every coefficient 1: a hitting set, as the fewest-clues leader of
/// minimum-clue Sudoku and nonogram givens): with one worker, CP-SAT then gets
/// `linearization_level` 2 and `add_lp_constraints_lazily` false.
///
/// Why (issue 75): CP-SAT's presolve turns these rows into clauses (`bool_or`), and at its
/// default `linearization_level` 1 clauses are left out of its LP relaxation. The LP then
/// holds the objective and the cap and nothing else, so with one worker (puzzlebench's
/// default; a portfolio of several workers has a worker at level 2) the bound comes from
/// the clause search alone, which refutes the smaller hitting sets one by one: minimum-clue
/// `grid6_a`'s first `rowgen` round (238 rows, optimum 8) took 7 s and 0.45 million
/// branches, and the run ended at its 20 s limit with 9 clues and bound 8, on both
/// formulations. At level 2 the clauses are in the LP (bound 6 at the root) and the round
/// takes 0.05 s; with every clause in the LP from the start, not added as a cut when
/// violated, CP-SAT's rounds of the whole run take 0.13 s (level 2 alone: 18 rounds, 0.6–1.0
/// s), and the run about a second, its seeding included, as on HiGHS. Models without an
/// objective or whose rows are mostly not clauses (n-Queens, the feasibility puzzles) keep
/// CP-SAT's defaults: level 2 was mixed on n-Queens.
fn clause_lp(model: &Model) -> bool {
    if model.rows.is_empty() || model.vars.iter().all(|v| v.objective == 0.0) {
        return false;
    }
    let binary = |j: usize| {
        let v = &model.vars[j];
        v.kind != VarKind::Continuous && v.lower >= 0.0 && v.upper <= 1.0
    };
    let clause = |r: &&Row| {
        r.lower == 1.0
            && r.upper >= r.terms.len() as f64
            && r.terms.iter().all(|&(v, c)| c == 1.0 && binary(v.0))
    };
    2 * model.rows.iter().filter(clause).count() > model.rows.len()
}

/// A row with its coefficients and sides scaled to whole numbers.
fn job_row(r: &Row) -> Result<JobRow, String> {
    let coefs: Vec<f64> = r.terms.iter().map(|t| t.1).collect();
    let (m, scaled) = scale(&coefs).ok_or_else(|| {
        format!(
            "row {} has coefficients that no integer factor up to 10^9 makes whole",
            r.name
        )
    })?;
    let side = |x: f64, lower: bool| -> Result<Option<i64>, String> {
        if !x.is_finite() {
            return Ok(None);
        }
        let s = x * m;
        if s.abs() > MAX_WHOLE {
            return Err(format!("row {} has a side too large once scaled", r.name));
        }
        Ok(Some(inward(s, lower)))
    };
    Ok((
        r.terms.iter().map(|t| t.0 .0).collect(),
        scaled,
        side(r.lower, true)?,
        side(r.upper, false)?,
    ))
}

/// The model in the driver's terms, and the factor the objective was multiplied by.
fn convert(model: &Model) -> Result<(ModelMessage, f64), String> {
    let mut vars = Vec::with_capacity(model.vars.len());
    for v in &model.vars {
        if !v.lower.is_finite() || !v.upper.is_finite() {
            return Err(format!(
                "variable {} has no finite bound (CP-SAT needs finite domains)",
                v.name
            ));
        }
        vars.push((inward(v.lower, true), inward(v.upper, false)));
    }
    let rows = model.rows.iter().map(job_row).collect::<Result<_, _>>()?;
    let terms: Vec<(usize, f64)> = model
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.objective != 0.0)
        .map(|(j, v)| (j, v.objective))
        .collect();
    let coefs: Vec<f64> = terms.iter().map(|t| t.1).collect();
    let (scale_obj, scaled) = scale(&coefs).ok_or_else(|| {
        "the objective has coefficients that no integer factor up to 10^9 makes whole".to_string()
    })?;
    let objective = (!terms.is_empty()).then(|| Objective {
        maximize: model.sense == Sense::Maximize,
        vars: terms.iter().map(|t| t.0).collect(),
        coefs: scaled,
    });
    let message = ModelMessage {
        op: "model",
        vars,
        rows,
        objective,
    };
    Ok((message, scale_obj))
}

/// Scaled numbers beyond this are refused (integers are exact in f64 up to 2^53).
const MAX_WHOLE: f64 = 9_007_199_254_740_992.0;

/// The largest denominator tried for one coefficient.
const MAX_DENOMINATOR: i64 = 1_000_000;

/// The largest factor a row may be multiplied by.
const MAX_FACTOR: i64 = 1_000_000_000;

/// x rounded inwards to a whole number (up for a lower side, down for an upper), where
/// values within 1e-9 (relative) of a whole number count as that number, so that a side
/// scaled in floating point (3 · (1/3)) is not moved by its rounding error.
fn inward(x: f64, lower: bool) -> i64 {
    let r = x.round();
    if (x - r).abs() <= 1e-9 * x.abs().max(1.0) {
        r as i64
    } else if lower {
        x.ceil() as i64
    } else {
        x.floor() as i64
    }
}

/// The exact fraction p/q (q ≤ [`MAX_DENOMINATOR`]) whose floating-point value is `x`,
/// found among the convergents of its continued fraction.
fn fraction(x: f64) -> Option<(i64, i64)> {
    if x.fract() == 0.0 {
        return (x.abs() <= MAX_WHOLE).then_some((x as i64, 1));
    }
    let (mut p0, mut q0, mut p1, mut q1) = (0i64, 1i64, 1i64, 0i64);
    let mut y = x;
    for _ in 0..64 {
        let a = y.floor();
        if a.abs() > MAX_WHOLE {
            return None;
        }
        let a = a as i64;
        let (p2, q2) = (
            a.checked_mul(p1)?.checked_add(p0)?,
            a.checked_mul(q1)?.checked_add(q0)?,
        );
        if q2 > MAX_DENOMINATOR {
            return None;
        }
        if p2 as f64 / q2 as f64 == x {
            return Some((p2, q2));
        }
        (p0, q0, p1, q1) = (p1, q1, p2, q2);
        let rest = y - a as f64;
        if rest == 0.0 {
            return None;
        }
        y = 1.0 / rest;
    }
    None
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The least factor that makes every coefficient whole, and the scaled coefficients; None
/// when a coefficient is no fraction with a small denominator or the result is too large.
fn scale(coefs: &[f64]) -> Option<(f64, Vec<i64>)> {
    let fractions: Vec<(i64, i64)> = coefs.iter().map(|&c| fraction(c)).collect::<Option<_>>()?;
    let mut m: i64 = 1;
    for &(_, q) in &fractions {
        m = (m / gcd(m, q)).checked_mul(q)?;
        if m > MAX_FACTOR {
            return None;
        }
    }
    let scaled = fractions
        .iter()
        .map(|&(p, q)| {
            let s = p.checked_mul(m / q)?;
            (s.unsigned_abs() as f64 <= MAX_WHOLE).then_some(s)
        })
        .collect::<Option<Vec<i64>>>()?;
    Some((m as f64, scaled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fractions_are_exact() {
        assert_eq!(fraction(3.0), Some((3, 1)));
        assert_eq!(fraction(-0.5), Some((-1, 2)));
        assert_eq!(fraction(1.0 / 3.0), Some((1, 3)));
        assert_eq!(fraction(2.0 / 7.0), Some((2, 7)));
        assert_eq!(fraction(std::f64::consts::PI), None);
        assert_eq!(fraction(1e-12), None);
    }

    #[test]
    fn rows_scale_by_the_least_common_multiple() {
        let (m, s) = scale(&[0.5, 1.0 / 3.0, 2.0]).unwrap();
        assert_eq!((m, s), (6.0, vec![3, 2, 12]));
        assert!(scale(&[std::f64::consts::E]).is_none());
        assert_eq!(inward(2.5, true), 3);
        assert_eq!(inward(2.5, false), 2);
        assert_eq!(inward(3.0 * (1.0 / 3.0) * 3.0, false), 3);
    }

    /// A hitting set with an objective asks for the LP over clauses with one worker; the
    /// same rows without an objective, with two workers, or outnumbered by other rows
    /// keep CP-SAT's default.
    #[test]
    fn clause_lp_only_for_an_objective_over_mostly_clauses() {
        use crate::model::Name;
        let hitting = |objective: f64, others: usize| {
            let mut m = Model::new("h");
            let y: Vec<_> = (0..4)
                .map(|k| m.add_var(format!("y{k}"), VarKind::Binary, 0.0, 1.0, objective))
                .collect();
            for (i, pair) in [[0, 1], [1, 2], [2, 3]].iter().enumerate() {
                m.add_row(
                    Name::idx("set", &[i]),
                    pair.iter().map(|&k| (y[k], 1.0)),
                    1.0,
                    f64::INFINITY,
                );
            }
            for i in 0..others {
                m.add_row(
                    Name::idx("cap", &[i]),
                    y.iter().map(|&v| (v, 2.0)),
                    f64::NEG_INFINITY,
                    6.0,
                );
            }
            m
        };
        let level = |m: &Model, threads: u32| {
            let s = Settings {
                threads: Some(threads),
                ..Settings::default()
            };
            let p = params(m, &s);
            assert_eq!(
                p.add_lp_constraints_lazily,
                p.linearization_level.map(|_| false)
            );
            p.linearization_level
        };
        assert_eq!(level(&hitting(1.0, 1), 1), Some(2));
        assert_eq!(level(&hitting(1.0, 1), 2), None);
        assert_eq!(level(&hitting(0.0, 1), 1), None);
        assert_eq!(level(&hitting(1.0, 3), 1), None);
        let json = serde_json::to_string(&params(&hitting(0.0, 0), &Settings::default())).unwrap();
        assert!(!json.contains("linearization_level"), "{json}");
        assert!(!json.contains("add_lp_constraints_lazily"), "{json}");
    }

    proptest! {
        /// Any p/q with small q is found exactly, and scaling by the factor gives p·m/q.
        #[test]
        fn small_fractions_scale_exactly(p in -1000i64..1000, q in 1i64..1000, r in 1i64..50) {
            let x = p as f64 / q as f64;
            let (m, s) = scale(&[x, 1.0 / r as f64]).unwrap();
            prop_assert!((s[0] as f64 - x * m).abs() < 1e-6);
            prop_assert_eq!(s[1] as f64, m / r as f64);
        }
    }
}
