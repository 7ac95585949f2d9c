//! `scip`: the SCIP Optimization Suite (with SoPlex), in a child process: the project's
//! Python environment runs the driver `drivers/scip.py` (part of this binary) on
//! PySCIPOpt, which bundles SCIP. The model goes over as a temporary free MPS file
//! ([`crate::formats::mps::write_plain`]: columns named by position, the sense handed over on its own,
//! the objective's constant added back here); the answer comes back as JSON
//! ([`super::external`]: one driver process serves a solve, or all the rounds of a
//! row-generation run).
//!
//! * **Settings**: the time limit (`limits/time`, set by the driver to what is left of the
//!   run's budget when it starts solving), the gap (`limits/gap`), the seed
//!   (`randomization/randomseedshift`, s mod (2³¹ − 1)) and presolve (off:
//!   `setPresolve(OFF)`). SCIP's branch and bound runs on one thread: `threads` is not
//!   applied. `seconds` is SCIP's solving time (reading the file not included),
//!   `call_seconds` the whole call; `nodes` holds its nodes, `best_bound` its dual bound.
//! * **LP relaxation**: the relaxed model, solved by SCIP the same way (`lp_bound`).
//! * **Timeline**: with a timeline recorded, an event handler in the driver reports each
//!   best solution found and the dual bound as it improves (at most every 20 ms, and with
//!   each solution); the objective's constant is added here.
//! * **Row generation**: the shared loop of [`super::row_generation`] on one driver
//!   process for the whole run: the MPS file goes over at the first round, each later
//!   round sends only the rows added since, and the driver solves the model as it stands
//!   with a fresh SCIP (the file read again, the added rows added: nothing is kept from
//!   one round to the next), its limit what is left of the run's budget. The LP
//!   relaxation is a driver process of its own.
//! * **Counting** (`--count K`): one branch and bound on one driver process, in which a
//!   constraint handler of the driver's, checked and enforced after all others, rejects
//!   each solution, hands it to puzzlebench (which counts distinct answers) and adds the
//!   no-good row puzzlebench answers for good, until K are counted or the tree is empty.
//!   SCIP's counting settings keep every solution in the tree (`setParamsCountsols`: no
//!   restarts, no dual reductions, no symmetry handling; its own counter off). `cuts`
//!   holds the no-good rows added.

use super::driver_source::BuiltIn;
use super::external;
use super::mps_driver::{self, MpsDriver, SolveMessage};
use super::row_generation;
use super::{
    Budget, Capabilities, Declaration, Engine, EngineImpl, Enumeration, Outcome, Settings,
};
use crate::lazy::Separator;
use crate::model::Model;
use std::path::Path;

/// The engine.
pub const SCIP: Engine = Engine::new(&Scip);

/// SCIP through its Python driver.
pub struct Scip;

static DECLARATION: Declaration = Declaration {
    key: "scip",
    description:
        "SCIP (PySCIPOpt), in a child process (project Python environment), on the model as MPS",
    capabilities: Capabilities {
        threads: false,
        external: true,
        general: true,
        timeline: true,
        ..Capabilities::MIP
    },
};

/// The driver, run as `python -I -c` or by its fork server ([`super::warm`]), with the
/// protocol module ahead of it ([`super::driver_source`]).
static DRIVER: BuiltIn = BuiltIn::new(include_str!("drivers/scip.py"));

impl EngineImpl for Scip {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn driver(&self) -> Option<&'static str> {
        Some(DRIVER.source())
    }

    fn version(&self) -> String {
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        external::cached_version(&VERSION, || {
            crate::process::python_output(
                "import pyscipopt; print(f'SCIP {pyscipopt.Model().version()} (PySCIPOpt {pyscipopt.__version__})')",
            )
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
            let mut driver = MpsDriver::new(python, DRIVER.source());
            let outcome = row_generation::solve(model, separator, budget, |m, _, round| {
                driver.solve(m, &SolveMessage::new("solve", settings, round), round)
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
        Some(mps_driver::enumerate_once(
            DRIVER.source(),
            model,
            settings,
            budget,
            counter,
        ))
    }
}

/// Solves `model` with the driver on the interpreter `python` (a missing interpreter is
/// "not installed"): one driver process for this one solve.
pub fn solve_with(python: &Path, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    mps_driver::solve_once(python, DRIVER.source(), model, settings, budget)
}
