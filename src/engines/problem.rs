//! The problem an engine is handed and what it reports back: the [`Kind`] of a problem,
//! the [`Problem`] itself, how a solve ended ([`Status`]) and its [`Outcome`], with the one
//! gap definition every engine shares ([`gap`]). Engines, the branch and cut and the
//! row-generation loop import these without reaching back into the engine list.

use crate::cp_model::CpModel;
use crate::lazy::{SearchHints, Separator};
use crate::model::Model;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The kind of problem a formulation hands to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// One integer program (or LP), solved as it stands.
    Mip,
    /// An integer program completed by a separator on its integer solutions: solve, add
    /// the rows the solution breaks, solve again, until a solution breaks none.
    RowGeneration,
    /// An integer program with lazy rows: the separator is called at the nodes of the
    /// engine's own search (a callback), on fractional and integral points.
    LazyRows,
    /// A constraint program over finite domains ([`CpModel`]).
    Cp,
}

impl Kind {
    /// The key used in `list` and messages.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Mip => "mip",
            Kind::RowGeneration => "row-generation",
            Kind::LazyRows => "lazy-rows",
            Kind::Cp => "cp",
        }
    }

    /// What a problem of this kind is, for refusals.
    pub(crate) fn phrase(self) -> &'static str {
        match self {
            Kind::Mip => "integer programs",
            Kind::RowGeneration => "integer programs by row generation",
            Kind::LazyRows => {
                "integer programs with lazy rows (it needs a callback at the nodes of its search)"
            }
            Kind::Cp => "constraint programs",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A problem for an engine, of one [`Kind`].
pub enum Problem<'a> {
    /// One integer program or LP.
    Mip(&'a Model),
    /// Row generation: the model grows by the rows the separator finds.
    RowGeneration(&'a mut Model, &'a mut dyn Separator),
    /// Lazy rows in the engine's search.
    LazyRows(&'a mut Model, &'a mut dyn Separator, SearchHints),
    /// A constraint program.
    Cp(&'a CpModel),
}

impl Problem<'_> {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Problem::Mip(_) => Kind::Mip,
            Problem::RowGeneration(..) => Kind::RowGeneration,
            Problem::LazyRows(..) => Kind::LazyRows,
            Problem::Cp(_) => Kind::Cp,
        }
    }
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Solved to proven optimality (within the gap allowed; the row's gap says how close).
    Optimal,
    /// A feasible solution without proof of optimality.
    Feasible,
    /// Proven infeasible.
    Infeasible,
    /// Stopped at the time limit.
    TimeLimit,
    /// The engine or the formulation refused the run: the engine does not take its kind
    /// or its model (a column, coefficient or row added while solving it cannot take), or
    /// the formulation does not take the instance; nothing was searched, so it is neither
    /// a success nor a failure. The reason is in [`Outcome::message`].
    Refused,
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
            Status::Refused => "refused",
            Status::Error => "error",
        }
    }

    /// True when the run ended without a search result and [`Outcome::message`] says why
    /// (`error` and `refused`).
    pub fn has_reason(self) -> bool {
        matches!(self, Status::Error | Status::Refused)
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

/// What an engine reports about one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How the solve ended.
    pub status: Status,
    /// Objective of the best solution found, if any.
    pub objective: Option<f64>,
    /// Best proven bound on the objective, where the engine proved one.
    pub best_bound: Option<f64>,
    /// Relative gap |objective − bound| / max(|objective|, 1e-10), computed here the same
    /// way for every engine.
    pub gap: Option<f64>,
    /// Search nodes, where the engine gives them.
    pub nodes: Option<u64>,
    /// Wall-clock seconds spent in the engine (all rounds for row generation).
    pub seconds: f64,
    /// Values of the variables of the best solution found, by column: for `optimal` and
    /// `feasible`, and for `time_limit` when the engine holds an incumbent.
    pub values: Option<Vec<f64>>,
    /// Why the solve failed or was refused (statuses `error` and `refused`); a note for
    /// `feasible`.
    pub message: Option<String>,
    /// Solves of the row-generation loop, or LP solves after which the search added rows.
    pub rounds: Option<u64>,
    /// Rows added while solving.
    pub cuts: Option<u64>,
    /// Seconds of `seconds` spent finding rows between solves (the separator of a
    /// row-generation loop, the follower of minimum-clue Sudoku).
    pub separator_seconds: Option<f64>,
    /// Values removed from domains by propagators (constraint programs).
    pub inferences: Option<u64>,
    /// Logical inferences of a Prolog search (SWI-Prolog's `statistics(inferences, _)`
    /// around the search alone: the `prolog` engine); another measure than `inferences`.
    pub logical_inferences: Option<u64>,
    /// Solutions found, up to the count asked for, where the engine counted them.
    pub solutions: Option<u64>,
    /// Conflicts of a SAT search (the `sat` engine).
    pub conflicts: Option<u64>,
    /// Clauses the SAT solver held at the end: the encoded model, rows added while
    /// solving and objective bounds (the `sat` engine).
    pub clauses: Option<u64>,
    /// Auxiliary variables of the clause encoding, beyond the model's columns (the `sat`
    /// engine).
    pub aux_variables: Option<u64>,
    /// Wall-clock seconds of the whole call to a solver in a child process (process start,
    /// model transfer, solve, reading the answer; all rounds for row generation), where
    /// `seconds` holds the solver's own solve time (the external engines: [`external`]).
    pub call_seconds: Option<f64>,
    /// The solver's name and version as the run itself reported it (an external solver's
    /// driver), in place of [`Engine::version`].
    pub version: Option<String>,
}

impl Outcome {
    /// An outcome with `status` and nothing else known.
    pub fn with_status(status: Status, seconds: f64) -> Self {
        Outcome {
            status,
            objective: None,
            best_bound: None,
            gap: None,
            nodes: None,
            seconds,
            values: None,
            message: None,
            rounds: None,
            cuts: None,
            separator_seconds: None,
            inferences: None,
            logical_inferences: None,
            solutions: None,
            conflicts: None,
            clauses: None,
            aux_variables: None,
            call_seconds: None,
            version: None,
        }
    }

    /// An outcome with status `infeasible`.
    pub fn infeasible(seconds: f64) -> Self {
        Outcome::with_status(Status::Infeasible, seconds)
    }

    /// An outcome with status `time_limit` and nothing found.
    pub fn time_limit(seconds: f64) -> Self {
        Outcome::with_status(Status::TimeLimit, seconds)
    }

    /// An outcome with status `error` and the given reason.
    pub fn error(message: impl Into<String>, seconds: f64) -> Self {
        Outcome {
            message: Some(message.into()),
            ..Outcome::with_status(Status::Error, seconds)
        }
    }

    /// An outcome with status `refused` and the given reason (see [`Status::Refused`]).
    pub fn refused(message: impl Into<String>, seconds: f64) -> Self {
        Outcome {
            message: Some(message.into()),
            ..Outcome::with_status(Status::Refused, seconds)
        }
    }
}

/// The relative gap used for every engine: |primal − dual| / max(|primal|, 1e-10).
pub fn gap(objective: Option<f64>, bound: Option<f64>) -> Option<f64> {
    match (objective, bound) {
        (Some(p), Some(d)) if p.is_finite() && d.is_finite() => {
            Some((p - d).abs() / p.abs().max(1e-10))
        }
        _ => None,
    }
}
