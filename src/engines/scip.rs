//! `scip`: the SCIP Optimization Suite (with SoPlex), in a child process: the project's
//! Python environment runs the driver `drivers/scip.py` (part of this binary) on
//! PySCIPOpt, which bundles SCIP. The model goes over as a temporary free MPS file
//! ([`Model::to_mps_plain`]: columns named by position, the sense handed over on its own,
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

use super::external::{self, Reply, Session};
use super::row_generation;
use super::{
    Budget, Capabilities, Declaration, Engine, EngineImpl, Enumeration, Outcome, Settings,
};
use crate::lazy::Separator;
use crate::model::{Model, Sense};
use serde::Serialize;
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
        let model = super::implied::with_forced_rows(model);
        Some(external::with_python(|python| {
            let mut driver = Driver::new(python);
            let outcome = driver.enumerate(&model, settings, budget, counter);
            driver.finish(outcome)
        }))
    }
}

/// The model the driver holds from now on (message `model`).
#[derive(Serialize)]
struct ModelMessage<'a> {
    op: &'static str,
    mps: &'a Path,
    maximize: bool,
}

/// A row as the driver reads it: columns, coefficients, lower and upper side (None: none).
type JobRow = (Vec<usize>, Vec<f64>, Option<f64>, Option<f64>);

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
    gap: f64,
    seed: Option<u64>,
    presolve: bool,
    timeline: bool,
}

/// Solves `model` with the driver on the interpreter `python` (a missing interpreter is
/// "not installed"): one driver process for this one solve.
pub fn solve_with(python: &Path, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let mut driver = Driver::new(python);
    let outcome = driver.solve(model, settings, budget);
    driver.finish(outcome)
}

/// One driver process serving the solves of one model as rows are added to it: the
/// model goes over as an MPS file at the first solve, later only the rows added since
/// (each solve is a fresh SCIP on the file and those rows). A session that ended (killed
/// at the deadline, failed) is started again, with the whole model, at the next solve.
struct Driver<'p> {
    python: &'p Path,
    session: Option<Session>,
    /// The MPS file the driver reads, kept while it may read it.
    file: Option<tempfile::TempPath>,
    /// Rows of the model the driver holds.
    rows_sent: usize,
    /// The version the last session reported.
    version: Option<String>,
}

impl<'p> Driver<'p> {
    fn new(python: &'p Path) -> Driver<'p> {
        Driver {
            python,
            session: None,
            file: None,
            rows_sent: 0,
            version: None,
        }
    }

    /// Makes the driver hold `model` as it stands: a session started with the whole
    /// model, or the rows added since sent to the live one; the error outcome when it
    /// cannot.
    fn hold(&mut self, model: &Model) -> Result<(), Box<Outcome>> {
        match self.session.as_mut().filter(|s| s.alive()) {
            Some(session) => {
                if model.rows.len() > self.rows_sent {
                    let finite = |x: f64| x.is_finite().then_some(x);
                    let rows = model.rows[self.rows_sent..]
                        .iter()
                        .map(|r| {
                            (
                                r.terms.iter().map(|t| t.0 .0).collect(),
                                r.terms.iter().map(|t| t.1).collect(),
                                finite(r.lower),
                                finite(r.upper),
                            )
                        })
                        .collect();
                    session.send(&RowsMessage { op: "rows", rows });
                    self.rows_sent = model.rows.len();
                }
            }
            None => {
                self.session = None;
                let file = match external::temp_file(&model.to_mps_plain(), ".mps") {
                    Ok(f) => f,
                    Err(e) => return Err(Box::new(Outcome::error(e, 0.0))),
                };
                let mut session = Session::start(self.python, DRIVER)?;
                session.send(&ModelMessage {
                    op: "model",
                    mps: &file,
                    maximize: model.sense == Sense::Maximize,
                });
                self.file = Some(file);
                self.session = Some(session);
                self.rows_sent = model.rows.len();
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
            gap: settings.mip_gap.unwrap_or(0.0),
            seed: settings.seed.map(|s| s % (i32::MAX as u64)),
            presolve: settings.presolve.unwrap_or(true),
            timeline: budget.records(),
        };
        let offset = model.objective_offset;
        let result = session.solve(&message, budget, |v| v + offset);
        if let Some(v) = session.version() {
            self.version = Some(v);
        }
        match result {
            Ok((answer, call)) => external::outcome(model, answer, call, |b| b + offset),
            Err(o) => *o,
        }
    }

    /// Enumerates the solutions of `model` (no objective) within `budget`, each handed to
    /// `counter`, whose no-good row of it the driver adds.
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
            gap: 0.0,
            seed: settings.seed.map(|s| s % (i32::MAX as u64)),
            presolve: settings.presolve.unwrap_or(true),
            timeline: false,
        };
        let result = session.enumerate(&message, budget, &mut |values| {
            if counter.found(values) {
                Reply::more(Some(&counter.nogood(values)))
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
