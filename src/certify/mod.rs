//! Certified claims (issue 74): a claim beyond "this answer is valid" — `optimal`,
//! `unique`, `infeasible` — proved by a proof-logging search of the project's own and
//! checked by VeriPB (Bogaerts, Gocht, McCreesh and Nordström; the checker of the
//! pseudo-Boolean competition's certified track), whichever engine made the claim.
//!
//! * **What is proved**: the model as the project writes it, as an OPB file
//!   ([`crate::formats::opb::PbModel`]: 0/1 columns, whole coefficients):
//!   - *optimal* with the answer's values x: no 0/1 point of the model has a smaller
//!     objective than x's (the proof logs x as a solution, then derives a contradiction
//!     from the model and "objective ≤ value − 1"; the checker prints
//!     `s VERIFIED BOUNDS v <= obj <= v`);
//!   - *unique*: the model together with the rows that exclude the answers found (the
//!     no-good rows counting uses) has no 0/1 point (`s VERIFIED UNSATISFIABLE`);
//!   - *infeasible*: the model has no 0/1 point.
//! * **How** ([`search`]): every constraint is turned into clauses by rustsat's certified
//!   encodings (totalizers, generalized totalizers), each clause derived in the proof
//!   from its constraint; CaDiCaL searches with a proof tracer that logs each clause it
//!   learns as a reverse-unit-propagation step with its antecedents. The proof is
//!   written in VeriPB's format 2.0 (pigeons), which VeriPB 3 checks.
//! * **The check** ([`veripb`]): `veripb MODEL.opb PROOF.pbp`; a certificate is
//!   `checked` only when the checker prints the exact `s VERIFIED …` line the claim
//!   needs (its exit status alone is not enough: an empty conclusion passes too).
//! * **What it does not cover**: that a formulation states the puzzle's rules faithfully
//!   (the verifiers and the tests cover that side), and models beyond 0/1 columns with
//!   whole coefficients (those certificates are `none`, with the reason).

pub mod search;
pub mod veripb;

use crate::formats::opb::PbModel;
use crate::model::{Model, VarKind};
use std::path::PathBuf;
use std::time::Instant;

/// A claim to certify.
#[derive(Clone, Debug)]
pub enum Claim {
    /// The answer with these column values has the best objective of the model.
    Optimal {
        /// The values of the model's columns.
        values: Vec<f64>,
    },
    /// The model has no solution beyond those the rows `excluded` cut off (each the
    /// no-good row of an answer found).
    Unique {
        /// The no-good rows: (column, coefficient) terms, lower and upper side.
        excluded: Vec<crate::lazy::Cut>,
    },
    /// The model has no solution.
    Infeasible,
}

impl Claim {
    /// The claim's word in rows and messages.
    pub fn key(&self) -> &'static str {
        match self {
            Claim::Optimal { .. } => "optimal",
            Claim::Unique { .. } => "unique",
            Claim::Infeasible => "infeasible",
        }
    }
}

/// What became of a claim.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The checker accepted the proof: the checker and its version.
    Checked(String),
    /// The checker rejected the proof, or the certifying search refuted the claim: why.
    Rejected(String),
    /// No certificate: why (not a 0/1 model, the search's time limit, no checker).
    None(String),
}

impl Verdict {
    /// The `certificate` cell: `checked (veripb 3.0.2)`, `rejected: …`, `none: …`.
    pub fn cell(&self) -> String {
        match self {
            Verdict::Checked(by) => format!("checked ({by})"),
            Verdict::Rejected(why) => format!("rejected: {why}"),
            Verdict::None(why) => format!("none: {why}"),
        }
    }
}

/// A certificate and what it cost.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// What became of the claim.
    pub verdict: Verdict,
    /// Seconds of the proof-logging search (writing the model and the proof included).
    pub certify_seconds: Option<f64>,
    /// Seconds of the checker.
    pub check_seconds: Option<f64>,
    /// Size of the proof file.
    pub proof_bytes: Option<u64>,
    /// The model and proof files, where they were kept ([`certify`]'s `keep`).
    pub files: Option<(PathBuf, PathBuf)>,
    /// The claim's word ([`Claim::key`]), where a claim was certified, with what else
    /// was checked ("optimal, 412 rows witnessed by the verifier").
    pub claim: Option<String>,
}

impl Certificate {
    /// No certificate, with the reason.
    pub fn none(why: impl Into<String>) -> Certificate {
        Certificate {
            verdict: Verdict::None(why.into()),
            certify_seconds: None,
            check_seconds: None,
            proof_bytes: None,
            files: None,
            claim: None,
        }
    }

    /// The rejection's reason when the certifying search itself found a point the claim
    /// excludes (not when the checker refused a proof).
    pub fn found_by_search(&self) -> Option<&str> {
        match &self.verdict {
            Verdict::Rejected(why) if why.starts_with(FOUND) => Some(why),
            _ => None,
        }
    }

    /// The row's `certificate` cell: `checked (unique, veripb 3.0.2)`,
    /// `rejected (optimal): <the checker's reason>`, `none: <why>`.
    pub fn cell(&self) -> String {
        match (&self.verdict, self.claim.as_deref()) {
            (Verdict::Checked(by), Some(c)) => format!("checked ({c}, {by})"),
            (Verdict::Rejected(why), Some(c)) => format!("rejected ({c}): {why}"),
            (v, _) => v.cell(),
        }
    }
}

/// How a rejection by the certifying search begins ([`Certificate::found_by_search`]).
const FOUND: &str = "the certifying search found";

/// Why `model` has no certificate here, if it has none: a column that is not 0/1, or a
/// coefficient that is not whole.
pub fn unsupported(model: &Model) -> Option<String> {
    pb_model(model).err()
}

/// `model` as the OPB file states it, or why it has no certificate here.
fn pb_model(model: &Model) -> Result<PbModel, String> {
    for v in &model.vars {
        let binary = v.kind != VarKind::Continuous && v.lower >= 0.0 && v.upper <= 1.0;
        if !binary {
            return Err(format!("not a 0/1 model (column {} is not 0/1)", v.name));
        }
    }
    PbModel::of(model).map_err(|why| format!("not a 0/1 model with whole coefficients ({why})"))
}

/// Certifies `claim` on `model`: writes the model as OPB, proves the claim by the
/// proof-logging search within `seconds` (None: no limit), and checks the proof with
/// VeriPB. The files go to a temporary folder, kept in `keep` when it is given.
pub fn certify(
    model: &Model,
    claim: &Claim,
    seconds: Option<f64>,
    keep: Option<&std::path::Path>,
) -> Certificate {
    let mut c = certify_claim(model, claim, seconds, keep);
    if !matches!(c.verdict, Verdict::None(_)) {
        c.claim = Some(claim.key().to_string());
    }
    c
}

/// [`certify`] without the claim's word.
fn certify_claim(
    model: &Model,
    claim: &Claim,
    seconds: Option<f64>,
    keep: Option<&std::path::Path>,
) -> Certificate {
    let mut pb = match pb_model(model) {
        Ok(pb) => pb,
        Err(why) => return Certificate::none(why),
    };
    let (with_objective, point) = match claim {
        Claim::Optimal { values } => {
            if pb.objective.is_empty() {
                return Certificate::none(
                    "no objective: optimality of a constant objective is feasibility",
                );
            }
            if values.len() != pb.columns {
                return Certificate::none("the answer's values do not match the model's columns");
            }
            let x: Vec<bool> = values.iter().map(|&v| v > 0.5).collect();
            if !satisfies(&pb, &x) {
                return Certificate {
                    verdict: Verdict::Rejected(
                        "the answer breaks a constraint of the model as written".into(),
                    ),
                    ..Certificate::none("")
                };
            }
            (true, Some(x))
        }
        Claim::Unique { excluded } => {
            for cut in excluded {
                if let Err(why) = pb.add_row(&cut.terms, cut.lower, cut.upper) {
                    return Certificate::none(format!("a no-good row: {why}"));
                }
            }
            (false, None)
        }
        Claim::Infeasible => (false, None),
    };
    let dir = match tempfile::Builder::new()
        .prefix("puzzlebench-certify-")
        .tempdir()
    {
        Ok(d) => d,
        Err(e) => return Certificate::none(format!("cannot make a folder for the proof: {e}")),
    };
    let opb = dir.path().join("model.opb");
    let pbp = dir.path().join("proof.pbp");
    let started = Instant::now();
    let deadline = seconds.map(|s| started + std::time::Duration::from_secs_f64(s.max(0.0)));
    let proved = search::prove(&pb, with_objective, point.as_deref(), &opb, &pbp, deadline);
    let certify_seconds = Some(started.elapsed().as_secs_f64());
    let expect = match proved {
        Ok(search::Proved::Proof { expect }) => expect,
        Ok(search::Proved::Refuted { objective }) => {
            let why = match (claim, objective) {
                (Claim::Optimal { .. }, Some(v)) => {
                    format!("{FOUND} a solution with objective {v}, better than the claim's")
                }
                _ => format!("{FOUND} a solution the claim excludes"),
            };
            return Certificate {
                verdict: Verdict::Rejected(why),
                certify_seconds,
                ..Certificate::none("")
            };
        }
        Ok(search::Proved::TimeLimit) => {
            return Certificate {
                certify_seconds,
                ..Certificate::none("the certifying search reached its time limit")
            }
        }
        Err(why) => {
            return Certificate {
                certify_seconds,
                ..Certificate::none(format!("the certifying search failed: {why}"))
            }
        }
    };
    let proof_bytes = std::fs::metadata(&pbp).ok().map(|m| m.len());
    let check = veripb::check(&opb, &pbp, &expect, seconds);
    let files = keep.and_then(|k| {
        std::fs::create_dir_all(k).ok()?;
        let (a, b) = (k.join("model.opb"), k.join("proof.pbp"));
        std::fs::copy(&opb, &a).ok()?;
        std::fs::copy(&pbp, &b).ok()?;
        Some((a, b))
    });
    Certificate {
        verdict: check.verdict,
        certify_seconds,
        check_seconds: check.seconds,
        proof_bytes,
        files,
        claim: None,
    }
}

/// True when the 0/1 point `x` meets every constraint of `pb`.
pub fn satisfies(pb: &PbModel, x: &[bool]) -> bool {
    pb.constraints.iter().all(|c| {
        let lhs: i64 = c
            .terms
            .iter()
            .filter(|&&(j, _)| x[j])
            .map(|&(_, a)| a)
            .sum();
        if c.equal {
            lhs == c.rhs
        } else {
            lhs >= c.rhs
        }
    })
}
