//! Solver backends. Each backend solves a [`Model`] with the same [`SolveOptions`]
//! and reports an [`Outcome`]; the choice of backend is the [`Backend`] enum.
//!
//! Every backend is given the same time limit, thread count, relative MIP gap,
//! presolve switch and random seed. Where a solver has no such setting (microlp
//! has no presolve, no threads and no seed) the setting is ignored and the
//! README says so.
//!
//! `propagate` is of another kind: the project's own constraint-propagation solver for
//! constraint-programming formulations ([`propagate::CpModel`]). An integer program asked to
//! run on it, or a CP formulation on a MIP backend, is refused with a reason (status
//! `error`), not attempted.

pub mod cbc;
mod highs;
mod microlp;
pub mod propagate;

pub use propagate::Heuristics;

use crate::model::Model;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A solver backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// HiGHS, vendored and linked in process (the default).
    Highs,
    /// COIN-OR CBC, linked in process from the system library.
    Cbc,
    /// microlp, a pure-Rust LP/MIP solver.
    Microlp,
    /// The project's own finite-domain propagation and search, for CP formulations only.
    Propagate,
}

impl Backend {
    /// The integer-programming backends, the ones every MIP formulation runs on (every
    /// backend but `propagate`), in the order `list` shows them.
    pub const ALL: [Backend; 3] = [Backend::Highs, Backend::Cbc, Backend::Microlp];

    /// Every backend, MIP and CP, in the order `list` shows them.
    pub const EVERY: [Backend; 4] = [
        Backend::Highs,
        Backend::Cbc,
        Backend::Microlp,
        Backend::Propagate,
    ];

    /// True for the integer-programming backends; false for `propagate`.
    pub fn solves_mip(self) -> bool {
        self != Backend::Propagate
    }

    /// Why an integer program is not run on this backend (None when it can be).
    pub fn refuses_mip(self) -> Option<String> {
        (!self.solves_mip()).then(|| {
            format!(
                "refused: this formulation is an integer program and the {self} backend solves \
                 constraint-programming formulations only (use highs, cbc or microlp)"
            )
        })
    }

    /// The key used on the command line and in result rows.
    pub fn key(self) -> &'static str {
        match self {
            Backend::Highs => "highs",
            Backend::Cbc => "cbc",
            Backend::Microlp => "microlp",
            Backend::Propagate => "propagate",
        }
    }

    /// One line describing the backend.
    pub fn description(self) -> &'static str {
        match self {
            Backend::Highs => "HiGHS MIP solver, embedded (default)",
            Backend::Cbc => "COIN-OR CBC, system library, serialised in process",
            Backend::Microlp => {
                "microlp, pure Rust branch and bound (no presolve, threads or seed)"
            }
            Backend::Propagate => {
                "the project's finite-domain propagation and depth-first search, CP formulations only (--heuristics, --count)"
            }
        }
    }

    /// The solver's name and version, as written into result rows.
    pub fn version(self) -> String {
        match self {
            Backend::Highs => highs::version(),
            Backend::Cbc => cbc::version(),
            Backend::Microlp => "microlp 0.6".to_string(),
            Backend::Propagate => format!("puzzlebench propagate {}", env!("CARGO_PKG_VERSION")),
        }
    }

    /// Solves `model` (as an integer program if it has integer variables, else as an LP).
    /// `propagate` refuses it with status `error`.
    pub fn solve(self, model: &Model, options: &SolveOptions) -> Outcome {
        let mut outcome = match self {
            Backend::Highs => highs::solve(model, options),
            Backend::Cbc => cbc::solve(model, options),
            Backend::Microlp => microlp::solve(model, options),
            Backend::Propagate => {
                return Outcome::error(self.refuses_mip().unwrap_or_default(), 0.0)
            }
        };
        if outcome.status == Status::Optimal && outcome.best_bound.is_none() {
            // An LP optimum, or a MIP proven optimal: the bound is the objective.
            outcome.best_bound = outcome.objective;
        }
        outcome.gap = gap(outcome.objective, outcome.best_bound);
        outcome
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Backend::EVERY
            .into_iter()
            .find(|b| b.key() == s)
            .ok_or_else(|| {
                let keys: Vec<&str> = Backend::EVERY.iter().map(|b| b.key()).collect();
                format!("unknown backend '{s}'; valid backends: {}", keys.join(", "))
            })
    }
}

/// Settings applied identically on every backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Wall-clock limit for one solve, in seconds (`None`: no limit).
    pub time_limit: Option<f64>,
    /// Threads the solver may use (default 1).
    pub threads: u32,
    /// Relative MIP gap at which the solver may stop (default 0: prove optimality).
    pub mip_gap: f64,
    /// Presolve on (default) or off.
    pub presolve: bool,
    /// Random seed given to the solver (default 0).
    pub seed: u64,
    /// Also solve the LP relaxation for the `lp_bound` column (default true).
    pub lp_relaxation: bool,
    /// Search heuristics of the `propagate` backend (default 123); MIP backends ignore it.
    /// Left out of the serialised form when it is the default, so run ids made before it
    /// existed do not change.
    #[serde(default, skip_serializing_if = "Heuristics::is_default")]
    pub heuristics: Heuristics,
    /// Solutions to look for (default 1). With 2 a solve also proves uniqueness: it reports
    /// 1 when the solution is unique. Formulations that cannot count ignore it. Left out of
    /// the serialised form when it is 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: None,
            threads: 1,
            mip_gap: 0.0,
            presolve: true,
            seed: 0,
            lp_relaxation: true,
            heuristics: Heuristics::default(),
            count: 1,
        }
    }
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Solved to proven optimality (within the gap).
    Optimal,
    /// A feasible solution without proof of optimality.
    Feasible,
    /// Proven infeasible.
    Infeasible,
    /// Stopped at the time limit.
    TimeLimit,
    /// The solver failed; the reason is in [`Outcome::message`].
    Error,
}

impl Status {
    /// The key written into result rows.
    pub fn key(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::TimeLimit => "time_limit",
            Status::Error => "error",
        }
    }

    /// True when the run found a solution (optimal or feasible).
    pub fn has_solution(self) -> bool {
        matches!(self, Status::Optimal | Status::Feasible)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// What a backend reports about one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How the solve ended.
    pub status: Status,
    /// Objective of the best solution found, if any.
    pub objective: Option<f64>,
    /// Best proven bound on the objective, where the solver gives one.
    pub best_bound: Option<f64>,
    /// Relative gap |objective − bound| / max(|objective|, 1e-10), computed here the same way for every backend.
    pub gap: Option<f64>,
    /// Branch-and-bound nodes, where the solver gives them.
    pub nodes: Option<u64>,
    /// Wall-clock seconds spent in the solver call.
    pub seconds: f64,
    /// Values of the variables of the best solution found, by column: for `optimal` and
    /// `feasible`, and for `time_limit` when the solver holds an incumbent.
    pub values: Option<Vec<f64>>,
    /// Why the solve failed, for status `error`.
    pub message: Option<String>,
}

impl Outcome {
    /// An outcome with status `infeasible`.
    pub fn infeasible(seconds: f64) -> Self {
        Outcome {
            status: Status::Infeasible,
            message: None,
            ..Outcome::error("", seconds)
        }
    }

    /// An outcome with status `error` and the given reason.
    pub fn error(message: impl Into<String>, seconds: f64) -> Self {
        Outcome {
            status: Status::Error,
            objective: None,
            best_bound: None,
            gap: None,
            nodes: None,
            seconds,
            values: None,
            message: Some(message.into()),
        }
    }
}

/// The relative gap used for every backend: |primal − dual| / max(|primal|, 1e-10).
pub fn gap(objective: Option<f64>, bound: Option<f64>) -> Option<f64> {
    match (objective, bound) {
        (Some(p), Some(d)) if p.is_finite() && d.is_finite() => {
            Some((p - d).abs() / p.abs().max(1e-10))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::VarKind;

    /// max 5x + 4y + 3z s.t. 2x + 3y + z <= 5, 4x + y + 2z <= 11, 3x + 4y + 2z <= 8, integer:
    /// optimum 13 at (2, 0, 1); LP optimum 13 too. A knapsack variant below has a gap.
    fn knapsack() -> Model {
        let mut m = Model::new("knap");
        m.sense = crate::model::Sense::Maximize;
        let w = [5.0, 7.0, 4.0, 3.0];
        let p = [8.0, 11.0, 6.0, 4.0];
        let vars: Vec<_> = (0..4)
            .map(|i| m.add_var(format!("x{i}"), VarKind::Binary, 0.0, 1.0, p[i]))
            .collect();
        m.add_le("cap", vars.iter().zip(w).map(|(v, w)| (*v, w)), 14.0);
        m
    }

    #[test]
    fn every_backend_solves_a_knapsack() {
        let m = knapsack();
        for b in Backend::ALL {
            let o = b.solve(&m, &SolveOptions::default());
            assert_eq!(o.status, Status::Optimal, "{b}: {o:?}");
            assert!((o.objective.unwrap() - 21.0).abs() < 1e-6, "{b}: {o:?}");
            let v = o.values.unwrap();
            assert!((m.objective_value(&v) - 21.0).abs() < 1e-6);
            let lp = b.solve(&m.relax(), &SolveOptions::default());
            assert_eq!(lp.status, Status::Optimal, "{b}");
            assert!((lp.objective.unwrap() - 22.0).abs() < 1e-6, "{b}: {lp:?}");
        }
    }

    #[test]
    fn every_backend_reports_infeasible() {
        let mut m = Model::new("inf");
        let x = m.add_binary("x");
        let y = m.add_binary("y");
        m.add_ge("r", [(x, 1.0), (y, 1.0)], 3.0);
        for b in Backend::ALL {
            let o = b.solve(&m, &SolveOptions::default());
            assert_eq!(o.status, Status::Infeasible, "{b}: {o:?}");
        }
    }

    #[test]
    fn unknown_backend_lists_valid_keys() {
        let e = "gurobi".parse::<Backend>().unwrap_err();
        assert!(e.contains("highs, cbc, microlp, propagate"), "{e}");
    }

    #[test]
    fn propagate_refuses_an_integer_program() {
        let o = Backend::Propagate.solve(&knapsack(), &SolveOptions::default());
        assert_eq!(o.status, Status::Error);
        assert!(o.message.unwrap().contains("refused"));
    }

    #[test]
    fn default_settings_keep_their_old_serialised_form() {
        let json = serde_json::to_string(&SolveOptions::default()).unwrap();
        assert!(
            !json.contains("heuristics") && !json.contains("count"),
            "{json}"
        );
        let back: SolveOptions = serde_json::from_str(&json).unwrap();
        assert_eq!(back, SolveOptions::default());
        let h = SolveOptions {
            heuristics: Heuristics::None,
            count: 2,
            ..SolveOptions::default()
        };
        let json = serde_json::to_string(&h).unwrap();
        assert!(json.contains(r#""heuristics":"none""#) && json.contains(r#""count":2"#));
        assert_eq!(serde_json::from_str::<SolveOptions>(&json).unwrap(), h);
    }

    #[test]
    fn gap_definition() {
        assert_eq!(gap(Some(10.0), Some(8.0)), Some(0.2));
        assert_eq!(gap(Some(0.0), Some(0.0)), Some(0.0));
        assert_eq!(gap(None, Some(1.0)), None);
    }
}
