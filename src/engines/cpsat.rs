//! `cpsat`: OR-Tools' CP-SAT solver, in a child process: the project's Python environment
//! runs the driver `drivers/cpsat.py` (part of this binary), which reads the model as
//! JSON on its standard input, builds CP-SAT's model proto directly and prints its answer
//! as JSON ([`super::external`]).
//!
//! * **Whole coefficients**: CP-SAT takes integer coefficients only. Each row is scaled by
//!   the least common multiple of its coefficients' denominators, each coefficient read
//!   as the exact fraction p/q (q ≤ 10⁶) whose floating-point value it is; the scaled
//!   sides are then rounded inwards, which is exact since every column is integral. A row
//!   or objective that no such scaling makes whole, or whose scaled numbers pass 2⁵³, is
//!   refused with status `error` naming it ("unsupported by cpsat: …"), as are columns
//!   without finite bounds (CP-SAT needs finite domains). The objective is scaled the same
//!   way; its bound is scaled back and the model's constant added.
//! * **Settings**: the time limit (`max_time_in_seconds`, set by the driver to what is
//!   left of the run's budget when it starts solving), threads (`num_workers`), the gap
//!   (`relative_gap_limit`), the seed (`random_seed`, s mod (2³¹ − 1)) and presolve
//!   (`cp_model_presolve`). `seconds` is CP-SAT's own wall time, `call_seconds` the whole
//!   call; `nodes` holds its branches, `conflicts` its conflicts. CP-SAT solves no LP
//!   relaxation of the model that puzzlebench could report: `lp_bound` stays empty.
//! * **Row generation**: each round a new call with the rows added so far (the shared
//!   loop of [`super::row_generation`]).

use super::external::{self, Answer};
use super::{Budget, Capabilities, Declaration, Engine, EngineImpl, Kind, Outcome, Settings};
use crate::model::{Model, Sense};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

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
        timeline: false,
        ..Capabilities::MIP
    },
};

/// The driver's source, run as `python -I -c`.
const DRIVER: &str = include_str!("drivers/cpsat.py");

impl EngineImpl for CpSat {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        job(model, &Settings::default(), &Budget::new(None)).err()
    }

    fn version(&self) -> String {
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        external::cached_version(&VERSION, || {
            external::python_output("import ortools; print(ortools.__version__)")
                .map(|v| format!("CP-SAT (OR-Tools {v})"))
        })
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        external::with_python(|python| solve_with(python, model, settings, budget))
    }
}

/// A row as the driver reads it: columns, whole coefficients, lower and upper side (None:
/// none).
type JobRow = (Vec<usize>, Vec<i64>, Option<i64>, Option<i64>);

/// The model as the driver reads it.
#[derive(Serialize)]
struct Job {
    vars: Vec<(i64, i64)>,
    rows: Vec<JobRow>,
    objective: Option<Objective>,
    deadline: Option<f64>,
    params: Params,
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
}

/// Solves `model` with the driver on the interpreter `python` (a missing interpreter is
/// "not installed").
pub fn solve_with(python: &Path, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let started = Instant::now();
    let (job, objective_scale) = match job(model, settings, budget) {
        Ok(j) => j,
        Err(why) => return Outcome::error(format!("unsupported by cpsat: {why}"), 0.0),
    };
    let input = serde_json::to_vec(&job).expect("the job serialises");
    let (answer, call): (Answer, f64) =
        match external::run_driver(python, DRIVER, input, budget, started) {
            Ok(a) => a,
            Err(o) => return *o,
        };
    let offset = model.objective_offset;
    external::outcome(model, answer, call, |b| b / objective_scale + offset)
}

/// The driver's job, and the factor the objective was multiplied by.
fn job(model: &Model, settings: &Settings, budget: &Budget) -> Result<(Job, f64), String> {
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
    let mut rows = Vec::with_capacity(model.rows.len());
    for r in &model.rows {
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
        rows.push((
            r.terms.iter().map(|t| t.0 .0).collect(),
            scaled,
            side(r.lower, true)?,
            side(r.upper, false)?,
        ));
    }
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
    let params = Params {
        num_workers: settings.threads.unwrap_or(1),
        random_seed: (settings.seed.unwrap_or(0) % (i32::MAX as u64)) as i64,
        relative_gap_limit: settings.mip_gap.unwrap_or(0.0),
        cp_model_presolve: settings.presolve.unwrap_or(true),
    };
    let job = Job {
        vars,
        rows,
        objective,
        deadline: external::deadline_unix(budget),
        params,
    };
    Ok((job, scale_obj))
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
