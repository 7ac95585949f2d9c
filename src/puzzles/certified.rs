//! The claims of a run, certified when `--certify` asks for it ([`crate::certify`]): what
//! a run claims beyond "this answer is valid" (the verifier already checks that), on which
//! model, and the certificate that the proof-logging search and VeriPB give it.
//!
//! * One model with an objective, `optimal`: no 0/1 point has a better objective than the
//!   answer's (only once the verifier accepted the answer).
//! * `infeasible`: the model has no 0/1 point.
//! * Counting (`--count N`) that found fewer than N answers: the model with the no-good
//!   rows of every answer found has no 0/1 point, so there is no other answer (with N = 2
//!   and one answer: *unique*). For a model with an objective, the objective row is
//!   `objective ≤ optimum` (`≥` when maximising), so the same proof also shows that
//!   nothing is better.
//! * No certificate, with the reason: a model without objective solved once (its only
//!   claim is the answer, which the verifier checked), a run that ended without a claim
//!   (time limit, error), rows added while solving (row generation, lazy rows: the
//!   certificate would cover a model without them), a count that reached N (its answers
//!   are the evidence).

use super::formulation::RunResult;
use crate::certify::{certify, Certificate, Claim};
use crate::engines::Status;
use crate::lazy::Cut;
use crate::model::{Model, Name, Sense};

/// The certificate of a run of one model (`model` as it was solved), within `seconds`.
pub fn of_one_model(model: &Model, r: &RunResult, seconds: f64) -> Certificate {
    let claim = match r.outcome.status {
        Status::Optimal if !has_objective(model) => {
            return Certificate::none(
                "no claim beyond the answer, which the verifier checked (the model has no objective; --count 2 claims uniqueness)",
            )
        }
        Status::Optimal => match (r.verified(), &r.outcome.values) {
            (Some(true), Some(values)) => Claim::Optimal {
                values: values.clone(),
            },
            _ => return Certificate::none("the answer did not pass the verifier"),
        },
        Status::Infeasible => Claim::Infeasible,
        s => return Certificate::none(format!("no claim to certify: the run ended {s}")),
    };
    certify(model, &claim, Some(seconds), None)
}

/// The certificate of a count that found `found` of `want` answers and ended with
/// `status`: with fewer than `want` found and the count settled, `model` (its objective,
/// if any, turned into the row "as good as the optimum": `objective ≤ optimum` when
/// minimising, `≥` when maximising) with the `excluded` no-good rows has no 0/1 point.
pub fn of_count(
    model: &Model,
    optimum: Option<f64>,
    excluded: &[Cut],
    found: u64,
    want: u64,
    status: Status,
    seconds: f64,
) -> Certificate {
    if status == Status::Infeasible {
        return certify(model, &Claim::Infeasible, Some(seconds), None);
    }
    if status != Status::Optimal {
        return Certificate::none(format!("no claim to certify: the count ended {status}"));
    }
    if found >= want {
        return Certificate::none(format!(
            "no claim beyond the {found} answers found (the count reached {want})"
        ));
    }
    let mut m = model.clone();
    if let Some(v) = optimum {
        let terms = m.objective_terms();
        // The optimum of whole coefficients on 0/1 columns is whole; a little slack for
        // the engine's rounding. A model that is not 0/1 with whole coefficients has no
        // certificate anyway ([`certify`] says why). "As good as the optimum" is
        // `objective ≤ optimum` when minimising, `objective ≥ optimum` when maximising.
        let target = v - m.objective_offset;
        let (name, lower, upper) = match m.sense {
            Sense::Minimize => (
                "objective_at_most_optimum",
                f64::NEG_INFINITY,
                (target + 1e-6).floor(),
            ),
            Sense::Maximize => (
                "objective_at_least_optimum",
                (target - 1e-6).ceil(),
                f64::INFINITY,
            ),
        };
        m.add_row(Name::from(name), terms, lower, upper);
        for var in &mut m.vars {
            var.objective = 0.0;
        }
    }
    let claim = Claim::Unique {
        excluded: excluded.to_vec(),
    };
    let mut c = certify(&m, &claim, Some(seconds), None);
    if found > 1 && c.claim.is_some() {
        // The same proof: no solution beyond those found, which here are several.
        c.claim = Some("all solutions found".into());
    }
    c
}

/// True when some column of `model` has an objective coefficient.
fn has_objective(model: &Model) -> bool {
    model.vars.iter().any(|v| v.objective != 0.0)
}
