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
//! * Row generation and lazy rows: the claim is proved on the model as built, before any
//!   row was added, a relaxation of the model solved ([`on_relaxation`]); where the
//!   relaxation has a better point there is no certificate.
//! * No certificate, with the reason: a model without objective solved once (its only
//!   claim is the answer, which the verifier checked), a run that ended without a claim
//!   (time limit, error), a count through rows added while solving, a count that reached
//!   N (its answers are the evidence).

use super::formulation::RunResult;
use crate::certify::{certify, Certificate, Claim, Verdict};
use crate::engines::Status;
use crate::lazy::{Cut, Separator};
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

/// The certificate of a run that added rows while solving (row generation, lazy rows):
/// its claim is proved on `as_built`, the model before any row was added. Every row of it
/// is a row of the model solved, so it is a relaxation: a bound proved on it holds for the
/// model solved, and so does infeasibility. Where the relaxation has a better point (the
/// rows added were needed for the bound), there is no certificate: the claim is not
/// refuted, only not certified this way.
pub fn on_relaxation(as_built: &Model, r: &RunResult, seconds: f64) -> Certificate {
    let mut c = of_one_model(as_built, r, seconds);
    if let Some(why) = c.found_by_search() {
        return Certificate::none(format!(
            "rows added while solving, and the model without them has a better point, so it certifies nothing ({why})"
        ));
    }
    if let Some(claim) = &mut c.claim {
        claim.push_str(" on the model without its added rows, a relaxation");
    }
    c
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

/// The certificate of a count, [`of_count`], where the formulation has a separator `sep`
/// (row generation, lazy rows; `None` for one model): on `model` with the `added` rows,
/// each of which the separator's witness (the puzzle's verifier, [`Separator::witness`])
/// must accept first. The rows hold for every solution, so the model with them has the
/// same solutions, and a proof that it has none besides those found covers the count. A
/// row without a witness leaves the count without a certificate; a row the witness
/// refuses rejects it. Where the model with the rows has a point the count did not find
/// (a row the search never added, or a propagation of one, would exclude it), there is no
/// certificate either: the claim is not refuted, only not certified this way.
pub fn of_count_with_rows(
    model: &Model,
    optimum: Option<f64>,
    sep: Option<&dyn Separator>,
    added: &[Cut],
    excluded: &[Cut],
    (found, want, status): (u64, u64, Status),
    seconds: f64,
) -> Certificate {
    let Some(sep) = sep else {
        return of_count(model, optimum, excluded, found, want, status, seconds);
    };
    let mut m = model.clone();
    let mut rows: Vec<&Cut> = Vec::new();
    for row in added {
        if !rows.contains(&row) {
            rows.push(row);
        }
    }
    for (i, row) in rows.iter().enumerate() {
        match sep.witness(row) {
            None => {
                return Certificate::none(
                    "rows added while solving (row generation or lazy rows) that the formulation has no witness for: a certificate of the model without them would not cover the count",
                )
            }
            Some(Err(why)) => {
                return Certificate {
                    verdict: Verdict::Rejected(format!(
                        "added row {} is refused by the verifier: {why}",
                        i + 1
                    )),
                    ..Certificate::none("")
                }
            }
            Some(Ok(())) => m.add_row(
                Name::idx("added", &[i]),
                row.terms.iter().copied(),
                row.lower,
                row.upper,
            ),
        }
    }
    let mut c = of_count(&m, optimum, excluded, found, want, status, seconds);
    if let Some(why) = c.found_by_search() {
        return Certificate::none(format!(
            "the model as built, with the {} rows added while counting, has a point the count did not find, which a row the search never added may exclude ({why})",
            rows.len()
        ));
    }
    if rows.is_empty() {
        return c;
    }
    if let Some(claim) = &mut c.claim {
        claim.push_str(&format!(
            ", {} added rows witnessed by the verifier",
            rows.len()
        ));
    }
    c
}

/// True when some column of `model` has an objective coefficient.
fn has_objective(model: &Model) -> bool {
    model.vars.iter().any(|v| v.objective != 0.0)
}
