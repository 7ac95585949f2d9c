//! The driver session of an engine definition's `driver` input (the built-in `scip`,
//! `gurobi`, `cplex`, `xpress` and `copt` among them, [`super::built_in_definitions`];
//! the protocol is docs/driver-protocol.md's), which hands its model over as an MPS
//! file: one driver process
//! serves all the solves of one model as rows are added to it. The model goes over as a
//! temporary free MPS file ([`crate::formats::mps::write_plain`]: columns named by position, the sense
//! handed over on its own) at the first solve, later only the rows added since; what the
//! driver does with them (a fresh solver each time, or one live model) is the engine's. A
//! session that ended (killed at the deadline, failed) is started again, with the whole
//! model, at the next solve. The messages are those of the drivers' docstrings: `model`,
//! `rows`, then a solve or an enumeration message of the engine's own shape.

use super::external::{self, Reply, ReplyRow, Session};
use super::{Budget, Enumeration, Outcome, Settings};
use crate::lazy::Separator;
use crate::model::{Model, Sense};
use serde::Serialize;
use std::path::Path;

/// The model the driver holds from now on (message `model`).
#[derive(Serialize)]
struct ModelMessage<'a> {
    op: &'static str,
    mps: &'a Path,
    maximize: bool,
}

/// Rows added to the model the driver holds (message `rows`).
#[derive(Serialize)]
struct RowsMessage {
    op: &'static str,
    rows: Vec<ReplyRow>,
}

/// A solve of the model the driver holds (message `solve`), or an enumeration of its
/// solutions (`enumerate`), under a run's settings: what both drivers read.
#[derive(Serialize)]
pub struct SolveMessage {
    op: &'static str,
    deadline: Option<f64>,
    gap: f64,
    seed: Option<u64>,
    presolve: bool,
    /// Threads, for an engine that applies them (none sent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    threads: Option<u32>,
    timeline: bool,
    /// Lazy rows through the solver's callback (Gurobi's driver only).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    lazy: bool,
}

impl SolveMessage {
    /// The request `op` ("solve" or "enumerate") under `settings` within `budget`: the
    /// run's deadline, the gap (none for an enumeration, which keeps every solution), the
    /// seed s mod (2³¹ − 1), presolve, the threads where applied, and the timeline when
    /// the run records one (solves only).
    pub fn new(op: &'static str, settings: &Settings, budget: &Budget) -> SolveMessage {
        SolveMessage {
            op,
            deadline: external::deadline_unix(budget),
            gap: match op {
                "solve" => settings.mip_gap.unwrap_or(0.0),
                _ => 0.0,
            },
            seed: settings.seed.map(|s| s % (i32::MAX as u64)),
            presolve: settings.presolve.unwrap_or(true),
            threads: settings.threads,
            timeline: op == "solve" && budget.records(),
            lazy: false,
        }
    }

    /// The same request with the lazy-row callback.
    pub fn lazy(self) -> SolveMessage {
        SolveMessage { lazy: true, ..self }
    }
}

/// Solves `model` with lazy rows through the callback of the driver `launch` starts
/// (gurobi, cplex, copt): each incumbent the solver finds is handed to
/// `separator`, whose rows reject it (none: it stands); a contradiction (a row no point
/// keeps) ends the search as `infeasible`. The separator's time is `separator_seconds`.
pub fn solve_lazy(
    launch: Launch,
    model: &Model,
    separator: &mut dyn Separator,
    settings: &Settings,
    budget: &Budget,
) -> Outcome {
    let mut driver = MpsDriver::launched(launch);
    let message = SolveMessage::new("solve", settings, budget).lazy();
    let started = std::time::Instant::now();
    let mut separating = 0.0;
    let mut contradiction = false;
    let mut outcome = driver.exchange(model, &message, budget, &mut |x| {
        let asked = std::time::Instant::now();
        let rows = separator.separate(x, true);
        separating += asked.elapsed().as_secs_f64();
        if rows.iter().any(|r| r.is_contradiction()) {
            contradiction = true;
            return Reply::stop();
        }
        Reply::rows(&rows)
    });
    if contradiction {
        outcome = Outcome {
            call_seconds: Some(started.elapsed().as_secs_f64()),
            ..Outcome::infeasible(outcome.seconds)
        };
    }
    outcome.separator_seconds = Some(separating);
    driver.finish(outcome)
}

/// Counts the solutions of `model` (no objective) in one enumeration of the driver
/// `launch` starts, each handed to `counter`, whose no-good row of
/// it the driver adds; the at-most-one rows a cardinality row forces to exactly one are
/// sent as equalities first ([`super::implied`]).
pub fn enumerate_once(
    launch: Launch,
    model: &Model,
    settings: &Settings,
    budget: &Budget,
    counter: &mut dyn Enumeration,
) -> Outcome {
    let model = super::implied::with_forced_rows(model);
    let mut driver = MpsDriver::launched(launch);
    let message = SolveMessage::new("enumerate", settings, budget);
    let outcome = driver.enumerate(&model, &message, budget, counter);
    driver.finish(outcome)
}

/// How a driver process is started.
#[derive(Clone, Copy)]
pub enum Launch<'p> {
    /// A driver of the project's (its source) on the interpreter given.
    Python(&'p Path, &'static str),
    /// A program and its arguments (an engine definition's `driver` input).
    Program(&'p [String]),
}

/// One driver process serving the solves of one model.
pub struct MpsDriver<'p> {
    launch: Launch<'p>,
    session: Option<Session>,
    /// The MPS file the driver reads, kept while it may read it.
    file: Option<tempfile::TempPath>,
    /// Rows of the model the driver holds.
    rows_sent: usize,
    /// The version the last session reported.
    version: Option<String>,
}

impl<'p> MpsDriver<'p> {
    /// A driver started by `launch`, not yet started.
    pub fn launched(launch: Launch<'p>) -> MpsDriver<'p> {
        MpsDriver {
            launch,
            session: None,
            file: None,
            rows_sent: 0,
            version: None,
        }
    }

    /// Makes the driver hold `model` as it stands: a session started with the whole
    /// model, or the rows added since sent to the live one; the error outcome when it
    /// cannot.
    fn hold(&mut self, model: &Model) -> Result<&mut Session, Box<Outcome>> {
        let live = self.session.as_ref().is_some_and(|s| s.alive());
        if live {
            let session = self.session.as_mut().expect("a live session");
            if model.rows.len() > self.rows_sent {
                let rows = model.rows[self.rows_sent..]
                    .iter()
                    .map(|r| external::reply_row(&r.terms, r.lower, r.upper))
                    .collect();
                session.send(&RowsMessage { op: "rows", rows });
                self.rows_sent = model.rows.len();
            }
        } else {
            self.session = None;
            let file = crate::process::temp_file(&crate::formats::mps::write_plain(model), ".mps")
                .map_err(|e| Box::new(Outcome::error(e, 0.0)))?;
            let mut session = match self.launch {
                Launch::Python(python, source) => Session::start(python, source)?,
                Launch::Program(words) => Session::start_program(words)?,
            };
            session.send(&ModelMessage {
                op: "model",
                mps: &file,
                maximize: model.sense == Sense::Maximize,
            });
            self.file = Some(file);
            self.session = Some(session);
            self.rows_sent = model.rows.len();
        }
        Ok(self.session.as_mut().expect("a session was started"))
    }

    /// Solves `model` as it stands within `budget` with the solve request `message`
    /// (incumbents and bounds mapped by the objective's constant).
    pub fn solve(&mut self, model: &Model, message: &impl Serialize, budget: &Budget) -> Outcome {
        self.exchange(model, message, budget, &mut |_| Reply::stop())
    }

    /// Sends `message` for `model` as it stands and answers each point the driver reports
    /// with `point`'s reply (lazy rows, enumeration), until the driver answers.
    pub fn exchange(
        &mut self,
        model: &Model,
        message: &impl Serialize,
        budget: &Budget,
        point: &mut dyn FnMut(&[f64]) -> Reply,
    ) -> Outcome {
        let session = match self.hold(model) {
            Ok(s) => s,
            Err(o) => return *o,
        };
        let offset = model.objective_offset;
        let result = session.exchange(message, budget, |v| v + offset, point);
        if let Some(v) = session.version() {
            self.version = Some(v);
        }
        match result {
            Ok((answer, call)) => external::outcome(model, answer, call, |b| b + offset),
            Err(o) => *o,
        }
    }

    /// Enumerates the solutions of `model` (no objective) with the request `message`, each
    /// handed to `counter`, whose no-good row of it the driver adds.
    pub fn enumerate(
        &mut self,
        model: &Model,
        message: &impl Serialize,
        budget: &Budget,
        counter: &mut dyn Enumeration,
    ) -> Outcome {
        self.exchange(model, message, budget, &mut |values| {
            if counter.found(values) {
                Reply::more(Some(&counter.nogood(values)))
            } else {
                Reply::stop()
            }
        })
    }

    /// `outcome` with the version the driver reported in this run, where it has none;
    /// the driver process ends here.
    pub fn finish(mut self, mut outcome: Outcome) -> Outcome {
        self.session = None;
        if outcome.version.is_none() {
            outcome.version = self.version.take();
        }
        outcome
    }
}
