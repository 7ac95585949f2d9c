//! Engines: the solvers a run can use, one file each, all listed in [`ENGINES`].
//!
//! An engine is whatever makes the search: HiGHS's and CBC's MIP solvers, microlp, the
//! project's own branch and cut on HiGHS's LP ([`bc`]), its own constraint propagation
//! ([`propagate`]), and the CaDiCaL SAT solver on the clause encoding of 0/1 models
//! ([`sat`], with [`cnf`]; [`cadical_lin`] with the long rows propagated natively). Each declares its [`Capabilities`] once: the kinds of problem it takes
//! ([`Kind`]: one integer program, row generation, lazy rows through a callback, a
//! constraint program), the variables and coefficients it accepts, whether it solves LP
//! relaxations and keeps an incumbent at the time limit, which clock its limit runs on,
//! and which settings it applies. A problem an engine cannot take is refused from those
//! declarations in one place ([`Engine::refusal`], [`Engine::model_refusal`]), with the
//! reason, and never attempted; the settings a row records are those the engine applied
//! ([`Engine::settings`]), empty where it has no such setting.
//!
//! Every engine draws on the run's one [`Budget`]. Adding an engine is a file in this
//! folder that implements [`EngineImpl`] and one line in [`ENGINES`], or, for a
//! command-line solver or a Python driver, a definition file (`engines/<key>.toml`,
//! [`definition`]) that [`registry`] adds beside the built-in engines at run time. The
//! built-in engines that run a Python driver (`scip`, `gurobi`, `cplex`, `xpress`,
//! `copt`) are such definitions, compiled in ([`built_in_definitions`]).
//!
//! This file holds the list and the trait only; the problem an engine is handed and its
//! outcome are in [`problem`], what it declares and the settings it applies in
//! [`capabilities`], and the [`Engine`] handle that looks engines up, refuses and
//! dispatches in [`engine`].

pub mod bc;
pub mod budget;
pub mod built_in_definitions;
pub mod cadical_lin;
pub mod capabilities;
pub mod cbc;
pub mod cnf;
pub mod cpsat;
pub mod definition;
pub mod driver_source;
pub mod engine;
pub mod external;
pub mod glpk;
pub mod highs;
pub mod hitset;
pub mod implied;
pub mod microlp;
pub mod mps_driver;
pub mod problem;
pub mod prolog;
pub mod propagate;
pub mod pumpkin;
pub mod registry;
pub mod row_generation;
pub mod sat;
#[cfg(test)]
pub mod test_models;
pub mod warm;

pub use budget::Budget;
pub use capabilities::{Capabilities, Clock, Declaration, Settings, SolveOptions};
pub use engine::Engine;
pub use problem::{gap, Kind, Outcome, Problem, Status};
pub use propagate::Heuristics;

use crate::cp_model::CpModel;
use crate::lazy::{Cut, SearchHints, Separator};
use crate::model::Model;

/// Every built-in engine, in the order `list` shows them. Adding an engine: a file in
/// this folder and a line here (or a definition file: [`registry::all`] holds both).
pub static ENGINES: &[Engine] = &[
    highs::HIGHS,
    cbc::CBC,
    microlp::MICROLP,
    bc::BC,
    propagate::PROPAGATE,
    sat::SAT,
    cadical_lin::CADICAL_LIN,
    hitset::HITSET,
    cpsat::CPSAT,
    built_in_definitions::SCIP,
    glpk::GLPK,
    built_in_definitions::GUROBI,
    built_in_definitions::CPLEX,
    built_in_definitions::XPRESS,
    built_in_definitions::COPT,
    prolog::PROLOG,
    pumpkin::PUMPKIN,
];

/// The engines that take problems of `kind`, built-in and defined, in the order of
/// [`registry::all`].
pub fn engines_for(kind: Kind) -> Vec<Engine> {
    registry::all()
        .iter()
        .copied()
        .filter(|e| e.takes(kind))
        .collect()
}

/// The general engines in this process that take problems of `kind` (those of
/// [`engines_for`] without the external ones, which need their solvers installed and start
/// a process per solve, and without the special-purpose ones, [`Capabilities::general`]).
pub fn in_process_engines_for(kind: Kind) -> Vec<Engine> {
    engines_for(kind)
        .into_iter()
        .filter(|e| !e.capabilities().external && e.capabilities().general)
        .collect()
}

impl Kind {
    /// The engine used for this kind when none is named: HiGHS for integer programs and
    /// row generation, the project's branch and cut for lazy rows, propagation for
    /// constraint programs.
    pub fn default_engine(self) -> Engine {
        match self {
            Kind::Mip | Kind::RowGeneration => highs::HIGHS,
            Kind::LazyRows => bc::BC,
            Kind::Cp => propagate::PROPAGATE,
        }
    }
}

/// What an engine file implements. Methods for kinds the engine does not declare are
/// never called (the [`Engine`] refuses first); their defaults say so.
pub trait EngineImpl: Sync {
    /// Its key, description and capabilities.
    fn declaration(&self) -> &'static Declaration;
    /// The engine's name and version (and the LP solver underneath, where it has one), as
    /// written into result rows.
    fn version(&self) -> String;
    /// The settings it applies to a problem of `kind` (default: those its capabilities name).
    fn applied(&self, kind: Kind, options: &SolveOptions) -> Settings {
        let _ = kind;
        Settings::from_capabilities(&self.declaration().capabilities, options)
    }
    /// Why it cannot take `model` beyond what its capabilities declare (default: no
    /// reason), for a check only a solve would otherwise make (CP-SAT: a row that no
    /// integer factor makes whole). [`Engine::model_refusal`] asks it after the declared
    /// checks, so that plans leave such pairs out and a run refuses them before building
    /// anything else.
    fn refuses(&self, model: &Model) -> Option<String> {
        let _ = model;
        None
    }
    /// What the report notes of its licence (None, the default: an engine without a
    /// vendor's licence to note): an engine definition's `[licence]`.
    fn licence(&self) -> Option<definition::LicenceTerms> {
        None
    }
    /// The source of the Python driver it runs its solver in (None, the default: it has
    /// none), so that a sweep can start the driver's fork server before a run needs it
    /// ([`warm`]).
    fn driver(&self) -> Option<&'static str> {
        None
    }
    /// Solves one integer program (or LP) within `budget`.
    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        let _ = (model, settings, budget);
        not_declared(self.declaration().key, Kind::Mip)
    }
    /// Row generation: by default the shared loop of [`row_generation`], each round a
    /// fresh [`EngineImpl::solve_mip`]; an engine that can add rows to a live solver may do
    /// better. Rows are added to `model`.
    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        row_generation::solve(model, separator, budget, |m, _, round| {
            self.solve_mip(m, settings, round)
        })
    }
    /// Lazy rows through the engine's own search. Rows it adds for good may be appended to
    /// `model`.
    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        let _ = (model, separator, hints, settings, budget);
        not_declared(self.declaration().key, Kind::LazyRows)
    }
    /// A constraint program.
    fn solve_cp(&self, model: &CpModel, settings: &Settings, budget: &Budget) -> Outcome {
        let _ = (model, settings, budget);
        not_declared(self.declaration().key, Kind::Cp)
    }
    /// Enumerates the solutions of `model` (a model without objective: counting has
    /// fixed it as a row) in one search of the engine's own, handing each to `counter`
    /// ([`Enumeration`]), until the counter says stop or none is left; `None` (the
    /// default) when the engine has no such search, and counting then solves again after
    /// each no-good row. The outcome is `optimal` when the search ended (every solution
    /// seen, or the counter stopped it), `time_limit` when the limit stopped it.
    fn enumerate(
        &self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
        counter: &mut dyn Enumeration,
    ) -> Option<Outcome> {
        let _ = (model, settings, budget, counter);
        None
    }
    /// The LP relaxation `relaxed` (integrality already dropped); by default
    /// [`EngineImpl::solve_mip`].
    fn solve_relaxation(&self, relaxed: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        self.solve_mip(relaxed, settings, budget)
    }
}

/// What an engine's enumeration ([`EngineImpl::enumerate`]) reports its solutions to:
/// counting, which tells solutions apart by their answers.
pub trait Enumeration {
    /// A solution (the values of the model's columns) was found; false when no more are
    /// wanted.
    fn found(&mut self, values: &[f64]) -> bool;
    /// The row that excludes `values` and every solution with the same answer, for an
    /// engine that adds rows as it enumerates (SCIP); one that enumerates complete
    /// assignments (CP-SAT) does not need it.
    fn nogood(&self, values: &[f64]) -> Cut;
}

fn not_declared(engine: &str, kind: Kind) -> Outcome {
    Outcome::error(
        format!(
            "internal: {engine} was handed {} without declaring them",
            kind.phrase()
        ),
        0.0,
    )
}
