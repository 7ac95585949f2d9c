//! `scip`: the SCIP Optimization Suite (with SoPlex), in a child process: the project's
//! Python environment runs the driver `drivers/scip.py` (part of this binary) on
//! PySCIPOpt, which bundles SCIP. The model goes over as a temporary free MPS file
//! ([`Model::to_mps_plain`]: columns named by position, the sense handed over on its own,
//! the objective's constant added back here); the answer comes back as JSON
//! ([`super::external`]).
//!
//! * **Settings**: the time limit (`limits/time`, set by the driver to what is left of the
//!   run's budget when it starts solving), the gap (`limits/gap`), the seed
//!   (`randomization/randomseedshift`, s mod (2³¹ − 1)) and presolve (off:
//!   `setPresolve(OFF)`). SCIP's branch and bound runs on one thread: `threads` is not
//!   applied. `seconds` is SCIP's solving time (reading the file not included),
//!   `call_seconds` the whole call; `nodes` holds its nodes, `best_bound` its dual bound.
//! * **LP relaxation**: the relaxed model, solved by SCIP the same way (`lp_bound`).
//! * **Row generation**: each round a new call with the rows added so far (the shared
//!   loop of [`super::row_generation`]).

use super::external::{self, Answer};
use super::{Budget, Capabilities, Declaration, Engine, EngineImpl, Outcome, Settings};
use crate::model::{Model, Sense};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

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
        timeline: false,
        ..Capabilities::MIP
    },
};

/// The driver's source, run as `python -I -c`.
const DRIVER: &str = include_str!("drivers/scip.py");

impl EngineImpl for Scip {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        external::cached_version(&VERSION, || {
            external::python_output(
                "import pyscipopt; print(f'SCIP {pyscipopt.Model().version()} (PySCIPOpt {pyscipopt.__version__})')",
            )
        })
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        external::with_python(|python| solve_with(python, model, settings, budget))
    }
}

/// What the driver reads on its standard input.
#[derive(Serialize)]
struct Job<'a> {
    mps: &'a Path,
    maximize: bool,
    deadline: Option<f64>,
    gap: f64,
    seed: Option<u64>,
    presolve: bool,
}

/// Solves `model` with the driver on the interpreter `python` (a missing interpreter is
/// "not installed").
pub fn solve_with(python: &Path, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let started = Instant::now();
    let file = match external::temp_file(&model.to_mps_plain(), ".mps") {
        Ok(f) => f,
        Err(e) => return Outcome::error(e, 0.0),
    };
    let job = Job {
        mps: &file,
        maximize: model.sense == Sense::Maximize,
        deadline: external::deadline_unix(budget),
        gap: settings.mip_gap.unwrap_or(0.0),
        seed: settings.seed.map(|s| s % (i32::MAX as u64)),
        presolve: settings.presolve.unwrap_or(true),
    };
    let input = serde_json::to_vec(&job).expect("the job serialises");
    let (answer, call): (Answer, f64) =
        match external::run_driver(python, DRIVER, input, budget, started) {
            Ok(a) => a,
            Err(o) => return *o,
        };
    let offset = model.objective_offset;
    external::outcome(model, answer, call, |b| b + offset)
}
