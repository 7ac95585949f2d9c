//! The run of an engine definition ([`DefinedEngine`]): the model written, the command
//! watched, the answer read and checked ([`super`] explains the whole).

use super::schema::*;
use super::{Input, Said, Source};
use crate::engines::cnf::{self, Encoder};
use crate::engines::mps_driver::{self, Launch, MpsDriver, SolveMessage};
use crate::engines::{external, row_generation};
use crate::engines::{
    Budget, Declaration, Engine, EngineImpl, Enumeration, Outcome, Settings, Status,
};
use crate::lazy::{SearchHints, Separator};
use crate::model::{Model, VarKind};
use crate::process;
use regex::Regex;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

/// What a driver's version line holds where its solver refuses the licence (the text
/// after it says why).
const REFUSED: &str = "licence refused: ";

impl Definition {
    /// The engine of this definition, leaked to live as long as the process (as the
    /// built-in engines, which are statics).
    pub fn into_engine(self) -> Engine {
        Engine::new(self.into_defined())
    }

    /// The [`DefinedEngine`] of this definition, leaked as [`Definition::into_engine`]'s.
    pub fn into_defined(self) -> &'static DefinedEngine {
        let declaration: &'static Declaration = Box::leak(Box::new(Declaration {
            key: Box::leak(self.key.clone().into_boxed_str()),
            description: Box::leak(self.description.clone().into_boxed_str()),
            capabilities: self.capabilities(),
        }));
        Box::leak(Box::new(DefinedEngine {
            definition: self,
            declaration,
            version: OnceLock::new(),
        }))
    }
}

/// The engine a [`Definition`] makes.
pub struct DefinedEngine {
    definition: Definition,
    declaration: &'static Declaration,
    version: OnceLock<String>,
}

/// What one call of the program gave.
struct Call {
    /// Its status, where something said one (killed: `time_limit`).
    status: Option<Status>,
    /// The reason of an `error` status, or a note.
    message: Option<String>,
    /// The values the answer gave, by name.
    values: Option<Vec<(String, f64)>>,
    /// The objective its log gave (the model file's objective).
    objective: Option<f64>,
    /// The bound its log gave (the model file's objective).
    bound: Option<f64>,
    /// Nodes its log gave.
    nodes: Option<u64>,
    /// Wall seconds of the call.
    seconds: f64,
}

impl DefinedEngine {
    /// Its definition.
    pub fn definition(&self) -> &Definition {
        &self.definition
    }

    /// The error a run ends in where the program is not installed: as docs/engines.md
    /// says, a program whose version command (or driver's probe) cannot run or prints no
    /// version is not installed, and a run on it is an error with that reason.
    fn not_installed(&self) -> Option<Outcome> {
        let version = self.version();
        version
            .starts_with("not installed")
            .then(|| Outcome::error(version, 0.0))
    }

    /// One solve of `model` by the definition's driver script on the interpreter `python`
    /// (None for a definition without a script), its answer checked as every driver's
    /// is, with the version the driver said: for tests that stand in another interpreter
    /// (a fake one, a missing one).
    pub fn solve_with(
        &self,
        python: &Path,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
    ) -> Option<Outcome> {
        let script = self.definition.script.as_ref()?;
        let launch = Launch::Python(python, script.source);
        Some(self.checked_outcome(model, solve_once(launch, model, settings, budget)))
    }

    /// `run` on the definition's driver: its script on the project's Python environment
    /// (a missing environment is "not installed"), or its command.
    fn with_driver(&self, run: impl FnOnce(Launch) -> Outcome) -> Outcome {
        match &self.definition.script {
            Some(script) => {
                external::with_python(|python| run(Launch::Python(python, script.source)))
            }
            None => run(Launch::Program(&self.definition.command)),
        }
    }

    /// The command's words for one call.
    fn words(
        &self,
        model: &Path,
        solution: &Path,
        settings: &Settings,
        budget: &Budget,
    ) -> (Vec<String>, Option<f64>) {
        let left = budget.left();
        // The smallest time limit the command line gives the program, in seconds.
        let mut told: Option<f64> = None;
        let mut tell = |t: f64| told = Some(told.map_or(t, |u: f64| u.min(t)));
        let mut value = |p: &str| -> String {
            match p {
                "dir" => folder_of(&self.definition.file),
                "model" => model.display().to_string(),
                "solution" => solution.display().to_string(),
                "time_limit" => left.map_or(NO_LIMIT.into(), |l| {
                    let t = l.max(0.001);
                    tell(t);
                    format!("{t:.3}")
                }),
                "time_limit_whole" => left.map_or(NO_LIMIT.into(), |l| {
                    let whole = l.round().max(1.0);
                    tell(whole);
                    format!("{}", whole as u64)
                }),
                "threads" => settings.threads.unwrap_or(1).to_string(),
                "seed" => settings.seed.unwrap_or(0).to_string(),
                "seed+1" => (settings.seed.unwrap_or(0) + 1).to_string(),
                "mip_gap" => settings.mip_gap.unwrap_or(0.0).to_string(),
                "presolve" => if settings.presolve == Some(false) {
                    "off"
                } else {
                    "on"
                }
                .into(),
                _ => unreachable!("placeholders are checked when the definition is read"),
            }
        };
        let words = self
            .definition
            .command
            .iter()
            .map(|word| {
                let mut out = word.clone();
                for p in placeholders(word) {
                    out = out.replacen(&format!("{{{p}}}"), &value(p), 1);
                }
                out
            })
            .collect();
        (words, told)
    }

    /// The column that `name` names in the model file (`None`: no column of `n`).
    fn column(&self, name: &str, n: usize) -> Option<usize> {
        let digits = match self.definition.input {
            Input::Mps | Input::Lp | Input::Driver => name.strip_prefix('C')?,
            Input::Opb => name.strip_prefix('x')?,
            Input::Cnf => name,
        };
        let k: usize = digits.parse().ok()?;
        let j = match self.definition.input {
            Input::Mps | Input::Lp | Input::Driver => k,
            Input::Opb | Input::Cnf => k.checked_sub(1)?,
        };
        (j < n && digits == k.to_string()).then_some(j)
    }

    /// Runs the program once on the model file `text` of a model of `n` columns.
    fn call(
        &self,
        text: &str,
        n: usize,
        settings: &Settings,
        budget: &Budget,
    ) -> Result<Call, Box<Outcome>> {
        let d = &self.definition;
        let started = Instant::now();
        if budget.left().is_some_and(|l| l <= 0.0) {
            return Err(Box::new(Outcome::time_limit(0.0)));
        }
        let model = process::temp_file(text, d.input.suffix())
            .map_err(|e| Box::new(Outcome::error(e, 0.0)))?;
        let solution =
            process::temp_file("", ".sol").map_err(|e| Box::new(Outcome::error(e, 0.0)))?;
        let (words, told) = self.words(&model, &solution, settings, budget);
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..]);
        // Killed its grace after the run's deadline; without a time limit, at the plug-in
        // hard stop.
        let (kill_at, hard_stop) = match budget.deadline() {
            Some(at) => (process::after(at, d.grace), None),
            None => process::plugin_deadline(None, started),
        };
        let finished = process::run_watched(
            cmd,
            Vec::new(),
            Some(kill_at),
            started,
            &|_: Instant, _: &str| {},
        )
        .map_err(|e| Box::new(Outcome::error(format!("{}: {e}", d.key), 0.0)))?;
        let seconds = started.elapsed().as_secs_f64();
        let program = &words[0];
        if finished.killed && hard_stop.is_some() {
            return Ok(Call {
                status: Some(Status::Error),
                message: hard_stop,
                values: None,
                objective: None,
                bound: None,
                nodes: None,
                seconds,
            });
        }
        if finished.killed {
            return Ok(Call {
                status: Some(Status::TimeLimit),
                message: Some(format!(
                    "killed {} s after the run's deadline ({program} had not stopped at its limit)",
                    d.grace
                )),
                values: None,
                objective: None,
                bound: None,
                nodes: None,
                seconds,
            });
        }
        let log = format!("{}\n{}", finished.stdout, finished.stderr);
        let (answer, place) = match d.source {
            Source::File => (
                std::fs::read(&solution)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default(),
                format!("the solution file {}", solution.display()),
            ),
            Source::Stdout => (
                finished.stdout.clone(),
                format!("the standard output of {program}"),
            ),
        };
        let reader = d.reader.expect("a command line's definition has a reader");
        let reading = reader
            .read(&answer, &|name: &str| self.column(name, n).is_some())
            .map_err(|e| {
                // Say what happened to the program, not only what the reader missed.
                let tail = process::last_line(&finished.stderr);
                let said = if tail.is_empty() {
                    String::new()
                } else {
                    format!("; its standard error ends: {}", process::quote(tail))
                };
                let why = if answer.trim().is_empty() {
                    format!(
                        "{place} is empty: {program} wrote no answer ({}{said})",
                        finished.ending()
                    )
                } else {
                    format!(
                        "the {} reader cannot read {place}, {} ({program} ended with {}{said})",
                        reader.key(),
                        process::quote(&e.to_string()),
                        finished.ending()
                    )
                };
                Box::new(Outcome {
                    call_seconds: Some(seconds),
                    version: Some(self.version()),
                    ..Outcome::error(format!("{}: {why}", d.key), seconds)
                })
            })?;
        let last = |r: &Regex| -> Option<String> {
            r.captures_iter(&log)
                .last()
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().to_string())
        };
        let mut message = None;
        let mut status = d.log.statuses.iter().find_map(|(s, r)| {
            r.find(&log).map(|m| {
                if *s == Status::Error {
                    let from = log[..m.start()].rfind('\n').map_or(0, |i| i + 1);
                    let to = log[m.start()..]
                        .find('\n')
                        .map_or(log.len(), |i| m.start() + i);
                    message = Some(format!(
                        "{program} said: {}",
                        process::quote(log[from..to].trim())
                    ));
                }
                *s
            })
        });
        if status.is_none() {
            status = finished.code.and_then(|c| {
                d.exit_codes
                    .iter()
                    .find(|(code, _)| *code == c)
                    .map(|(_, s)| *s)
            });
            if status == Some(Status::Error) {
                message = Some(format!(
                    "{program} ended with exit code {}",
                    finished.code.unwrap_or(-1)
                ));
            }
        }
        if status.is_none() {
            status = match reading.status {
                Some(Said::Optimal) => Some(Status::Optimal),
                Some(Said::Feasible) => Some(Status::Feasible),
                Some(Said::Infeasible) => Some(Status::Infeasible),
                Some(Said::TimeLimit) => Some(Status::TimeLimit),
                Some(Said::Error(why)) => {
                    message = Some(why);
                    Some(Status::Error)
                }
                None => None,
            };
        }
        // A program told a whole-second limit may stop at it before the run's own
        // deadline (1.4 s left is told 1 s): without an answer, that is its time limit.
        let stopped_at_its_limit = told.is_some_and(|t| seconds >= t * 0.98);
        if status.is_none() && reading.values.is_none() && stopped_at_its_limit {
            status = Some(Status::TimeLimit);
            message = Some(format!(
                "{program} stopped at the {}-second limit it was given, without an answer",
                told.unwrap_or_default()
            ));
        }
        if status.is_none() && reading.values.is_none() && !budget.expired() {
            let said = match (
                process::last_line(&finished.stderr),
                process::last_line(&finished.stdout),
            ) {
                ("", "") => "nothing on its standard error or output".to_string(),
                ("", out) => format!("its output ends: {}", process::quote(out)),
                (err, _) => format!("its standard error ends: {}", process::quote(err)),
            };
            message = Some(format!(
                "{program} gave no answer in {place} ({}); {said}",
                finished.ending()
            ));
            status = Some(Status::Error);
        }
        Ok(Call {
            status,
            message,
            values: reading.values,
            objective: d
                .log
                .objective
                .as_ref()
                .and_then(last)
                .and_then(|b| b.parse().ok()),
            bound: d
                .log
                .bound
                .as_ref()
                .and_then(last)
                .and_then(|b| b.parse().ok()),
            nodes: d
                .log
                .nodes
                .as_ref()
                .and_then(last)
                .and_then(|b| b.parse().ok()),
            seconds,
        })
    }

    /// The values of `model`'s columns from an answer's `pairs`: a column the answer
    /// leaves out is 0 where its bounds allow (solution files that list nonzeros only),
    /// integer columns are rounded; the error says why the values are no solution.
    fn solution(&self, model: &Model, pairs: &[(String, f64)]) -> Result<Vec<f64>, String> {
        let n = model.vars.len();
        let mut x: Vec<Option<f64>> = vec![None; n];
        for (name, v) in pairs {
            if let Some(j) = self.column(name, n) {
                x[j] = Some(*v);
            }
        }
        self.checked(model, x)
    }

    /// `x` (`None`: a column the answer left out) checked as [`DefinedEngine::solution`]
    /// says.
    fn checked(&self, model: &Model, x: Vec<Option<f64>>) -> Result<Vec<f64>, String> {
        let tol = 1e-6;
        // Integrality to 1e-5: the default integrality tolerance of Gurobi (IntFeasTol)
        // and CPLEX (mip tolerances integrality), whose drivers answer as they solve.
        let integral = 1e-5;
        let mut out = Vec::with_capacity(x.len());
        for (j, (v, value)) in model.vars.iter().zip(x).enumerate() {
            let name = self.definition.input.column_name(j);
            let mut value = match value {
                Some(value) => value,
                None if v.lower <= 0.0 && 0.0 <= v.upper => 0.0,
                None => {
                    return Err(format!(
                        "the answer gives no value for column {name} ({})",
                        v.name
                    ))
                }
            };
            if v.kind != VarKind::Continuous {
                if (value - value.round()).abs() > integral {
                    return Err(format!(
                        "column {name} ({}) is integer, but the answer gives it {value}",
                        v.name
                    ));
                }
                value = value.round();
            }
            if value < v.lower - tol || value > v.upper + tol {
                return Err(format!(
                    "the answer gives column {name} ({}) {value}, outside its bounds",
                    v.name
                ));
            }
            out.push(value);
        }
        // Rows to 1e-5 of the size of their terms: an answer printed with six digits
        // (lp_solve's) is off by up to 5e-6 of each value.
        for (i, r) in model.rows.iter().enumerate() {
            let a: f64 = r.terms.iter().map(|&(v, c)| c * out[v.0]).sum();
            let size: f64 = r.terms.iter().map(|&(v, c)| (c * out[v.0]).abs()).sum();
            let slack = 10.0 * tol * (1.0 + size);
            if a < r.lower - slack || a > r.upper + slack {
                return Err(format!(
                    "the answer breaks row R{i} ({}): its activity is {a}",
                    r.name
                ));
            }
        }
        Ok(out)
    }

    /// Why the definition refuses a model of this size, if it does: a licence its
    /// driver's version line says is refused ("licence refused: why") takes no model; the
    /// size limits hold where the version line holds their `when` text, or always.
    fn size_refusal(&self, model: &Model) -> Option<String> {
        let l = &self.definition.limits;
        if l.when.is_some() || self.definition.script.is_some() {
            let version = self.version();
            if let Some(i) = version.find(REFUSED) {
                let why = &version[i + REFUSED.len()..];
                return Some(format!(
                    "licence refused: {}",
                    why.strip_suffix(')').unwrap_or(why)
                ));
            }
            if l.when
                .as_ref()
                .is_some_and(|w| !version.contains(w.as_str()))
            {
                return None;
            }
        }
        let c = model.counts();
        let mut takes = Vec::new();
        let mut over = Vec::new();
        for (limit, has, what) in [
            (l.variables, c.variables, "variables"),
            (l.rows, c.constraints, "rows"),
            (l.nonzeros, c.nonzeros, "nonzeros"),
        ] {
            if let Some(limit) = limit {
                takes.push(format!("{} {what}", thousands(limit)));
                if has > limit {
                    over.push(format!("{} {what}", thousands(has)));
                }
            }
        }
        if let Some(total) = l.together {
            let (v, r) = (c.variables, c.constraints);
            takes.push(format!("{} rows and columns together", thousands(total)));
            if v + r > total {
                over.push(format!(
                    "{} columns and {} rows ({})",
                    thousands(v),
                    thousands(r),
                    thousands(v + r)
                ));
            }
        }
        if over.is_empty() {
            return None;
        }
        // A licence's limits say so in the words the report's licence notes read.
        Some(match &l.when {
            Some(_) => format!(
                "the size-limited licence takes {}; this model has {}",
                takes.join(" and "),
                over.join(" and ")
            ),
            None => format!(
                "its size limits ({}) take at most {}; this model has {}",
                self.definition.file.display(),
                takes.join(", "),
                over.join(" and ")
            ),
        })
    }

    /// One integer program (or LP) through a model file in MPS, LP or OPB.
    fn solve_file(
        &self,
        model: &Model,
        text: &str,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        let call = match self.call(text, model.vars.len(), settings, budget) {
            Ok(c) => c,
            Err(o) => return *o,
        };
        let constant = model.vars.iter().all(|v| v.objective == 0.0);
        let mut message = call.message;
        let mut status = call.status;
        let mut values = None;
        if let Some(pairs) = &call.values {
            if status != Some(Status::Infeasible) && status != Some(Status::Error) {
                match self.solution(model, pairs) {
                    Ok(x) => values = Some(x),
                    Err(why) if status == Some(Status::TimeLimit) => {
                        message = Some(format!("its incumbent was dropped: {why}"))
                    }
                    Err(why) => {
                        status = Some(Status::Error);
                        message = Some(format!("{}: {why}", self.definition.key));
                    }
                }
            }
        }
        let status = match status {
            Some(Status::Feasible) if constant && values.is_some() => Status::Optimal,
            // Short of a proof, only its limit stops a solver that takes no gap (a PB
            // solver's "s SATISFIABLE" at its time limit): its solution is an incumbent.
            Some(Status::Feasible) if values.is_some() && !self.definition.applies("mip_gap") => {
                Status::TimeLimit
            }
            Some(s @ (Status::Optimal | Status::Feasible)) if values.is_none() => {
                message = Some(format!(
                    "{}: the answer says {} but gives no solution",
                    self.definition.key,
                    s.key()
                ));
                Status::Error
            }
            Some(s) => s,
            None if values.is_some() && constant => Status::Optimal,
            None if values.is_some() => {
                message = Some(
                    "no status was read (the definition gives no log pattern for `optimal`)".into(),
                );
                Status::Feasible
            }
            None => Status::TimeLimit,
        };
        let sign = if model.sense == crate::model::Sense::Maximize {
            -1.0
        } else {
            1.0
        };
        let values = values.filter(|_| status != Status::Error);
        let logged = call
            .objective
            .filter(|z| z.is_finite())
            .map(|z| sign * z + model.objective_offset);
        Outcome {
            objective: values
                .as_deref()
                .map(|v| logged.unwrap_or_else(|| model.objective_value(v))),
            best_bound: call
                .bound
                .filter(|b| b.is_finite())
                .map(|b| sign * b + model.objective_offset),
            nodes: call.nodes,
            values,
            message: message.filter(|_| status != Status::Optimal && status != Status::Infeasible),
            call_seconds: Some(call.seconds),
            version: Some(self.version()),
            ..Outcome::with_status(status, call.seconds)
        }
    }

    /// A driver's answer for `model` checked as a command line's is: its values within
    /// the model's bounds, integrality and rows ([`DefinedEngine::checked`]), a claimed
    /// solution that comes without them an error; the version is the one a script's
    /// driver said, else the definition's.
    fn driver_outcome(&self, model: &Model, mut outcome: Outcome) -> Outcome {
        // A script says what ran (with the mark of a warm start), as the built-in drivers
        // always have; a command's version is its definition's.
        let said = outcome
            .version
            .take()
            .filter(|v| self.definition.script.is_some() && !v.trim().is_empty());
        outcome.version = Some(match said {
            Some(v) => named(&self.definition.key, &v),
            None => self.version(),
        });
        self.checked_outcome(model, outcome)
    }

    /// A driver's answer checked as [`DefinedEngine::driver_outcome`] says, with the
    /// version the driver said.
    fn checked_outcome(&self, model: &Model, mut outcome: Outcome) -> Outcome {
        let key = &self.definition.key;
        if let Some(values) = outcome.values.take() {
            match self.checked(model, values.into_iter().map(Some).collect()) {
                Ok(x) => {
                    outcome.objective = Some(model.objective_value(&x));
                    outcome.values = Some(x);
                }
                Err(why) if outcome.status == Status::TimeLimit => {
                    outcome.objective = None;
                    outcome.message = Some(format!("its incumbent was dropped: {why}"));
                }
                Err(why) => {
                    return Outcome {
                        version: outcome.version,
                        call_seconds: outcome.call_seconds,
                        ..Outcome::error(format!("{key}: {why}"), outcome.seconds)
                    };
                }
            }
        } else if matches!(outcome.status, Status::Optimal | Status::Feasible) {
            return Outcome {
                version: outcome.version,
                call_seconds: outcome.call_seconds,
                ..Outcome::error(
                    format!(
                        "{key}: the driver says {} but gives no values (one per column, in the model's order)",
                        outcome.status.key()
                    ),
                    outcome.seconds,
                )
            };
        }
        outcome
    }

    /// One integer program through DIMACS CNF: the clause encoding, then calls that each
    /// ask for a solution better than the last (an objective's bound added as clauses),
    /// until one says unsatisfiable (the last solution is optimal) or the budget ends.
    fn solve_cnf(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        use rustsat::instances::ManageVars as _;
        let start = Instant::now();
        let done =
            |status: Status, best: Option<Vec<f64>>, calls: u64, message: Option<String>| Outcome {
                objective: best.as_deref().map(|v| model.objective_value(v)),
                values: best,
                message,
                rounds: Some(calls),
                call_seconds: Some(start.elapsed().as_secs_f64()),
                version: Some(self.version()),
                ..Outcome::with_status(status, start.elapsed().as_secs_f64())
            };
        let fixed = match cnf::fixings(model) {
            Ok(f) => f,
            Err(_) => return done(Status::Infeasible, None, 0, None),
        };
        let mut enc = Encoder::new(fixed);
        let mut clauses = rustsat::instances::Cnf::new();
        if let Err(e) = enc.model(model, &mut clauses) {
            return Outcome::refused(format!("unsupported by {}: {e}", self.definition.key), 0.0);
        }
        let objective = crate::formats::minimised_objective(model);
        let n = model.vars.len();
        let mut best: Option<Vec<f64>> = None;
        let mut best_cost: Option<f64> = None;
        let mut calls = 0;
        loop {
            if clauses.iter().any(|c| c.is_empty()) {
                let s = if best.is_some() {
                    Status::Optimal
                } else {
                    Status::Infeasible
                };
                return done(s, best, calls, None);
            }
            if budget.expired() {
                return done(Status::TimeLimit, best, calls, None);
            }
            let text = crate::formats::cnf::write(&clauses, enc.vars().n_used());
            calls += 1;
            let call = match self.call(&text, n, settings, budget) {
                Ok(c) => c,
                Err(o) if o.status == Status::TimeLimit => {
                    return done(Status::TimeLimit, best, calls, None)
                }
                Err(o) => {
                    return Outcome {
                        rounds: Some(calls),
                        ..*o
                    }
                }
            };
            match (call.status, &call.values) {
                (Some(Status::Infeasible), _) => {
                    let s = if best.is_some() {
                        Status::Optimal
                    } else {
                        Status::Infeasible
                    };
                    return done(s, best, calls, None);
                }
                (Some(Status::Optimal | Status::Feasible) | None, Some(pairs)) => {
                    // The fixed columns are the encoding's; a free column a solver left
                    // out is 0.
                    let mut x = vec![None; n];
                    for (name, v) in pairs {
                        if let Some(j) = self.column(name, n) {
                            x[j] = Some(*v);
                        }
                    }
                    let x: Vec<Option<f64>> = (0..n)
                        .map(|j| match enc.fixed(j) {
                            Some(b) => Some(f64::from(u8::from(b))),
                            None => x[j],
                        })
                        .collect();
                    let x = match self.checked(model, x) {
                        Ok(x) => x,
                        Err(why) => {
                            let why = format!("{}: {why}", self.definition.key);
                            return done(Status::Error, None, calls, Some(why));
                        }
                    };
                    let cost: f64 = objective.iter().map(|&(v, c)| c * x[v.0]).sum();
                    // Each call after the first asked for a cost of at most the last one's
                    // less 1 (clauses of its file); an answer that is not is a solver that
                    // ignored clauses, which would otherwise be asked again and again.
                    if let Some(asked) = best_cost.map(|b: f64| b - 1.0) {
                        if cost > asked + 1e-6 {
                            let why = format!(
                                "{}: call {calls} answered a solution of cost {cost}, but its clauses asked for at most {asked}: the solver ignored clauses of its input",
                                self.definition.key
                            );
                            return done(Status::Error, best, calls, Some(why));
                        }
                    }
                    best_cost = Some(cost);
                    budget.incumbent(model.objective_value(&x));
                    best = Some(x);
                    if objective.is_empty() {
                        return done(Status::Optimal, best, calls, None);
                    }
                    if let Err(e) = enc.row(&objective, f64::NEG_INFINITY, cost - 1.0, &mut clauses)
                    {
                        return done(
                            Status::Error,
                            best,
                            calls,
                            Some(format!("bounding the objective: {e}")),
                        );
                    }
                }
                (Some(Status::Error), _) => {
                    return done(Status::Error, None, calls, call.message);
                }
                (Some(Status::Optimal | Status::Feasible), None) => {
                    return done(
                        Status::Error,
                        None,
                        calls,
                        Some(format!(
                            "{}: the answer says satisfiable but gives no values",
                            self.definition.key
                        )),
                    );
                }
                (Some(Status::TimeLimit) | Some(Status::Refused) | None, _) => {
                    return done(Status::TimeLimit, best, calls, call.message);
                }
            }
        }
    }
}

impl EngineImpl for DefinedEngine {
    fn declaration(&self) -> &'static Declaration {
        self.declaration
    }

    fn driver(&self) -> Option<&'static str> {
        self.definition.script.as_ref().map(|s| s.source)
    }

    fn licence(&self) -> Option<LicenceTerms> {
        self.definition.licence.clone()
    }

    fn version(&self) -> String {
        self.version
            .get_or_init(|| {
                let key = &self.definition.key;
                let (command, pattern) = match &self.definition.version {
                    Version::Probe => {
                        let source = self.definition.script.as_ref().map(|s| s.source);
                        let probed = source
                            .ok_or_else(|| "no script to probe".to_string())
                            .and_then(|source| external::driver_output(source, &["probe"]));
                        return match probed {
                            Ok(v) => named(key, &v),
                            Err(e) if e.starts_with("not installed") => e,
                            Err(e) => format!("not installed: {e}"),
                        };
                    }
                    Version::Command(command, pattern) => (command, pattern),
                };
                let mut cmd = Command::new(&command[0]);
                cmd.args(&command[1..]);
                let out = match process::run_watched(
                    cmd,
                    Vec::new(),
                    Some(Instant::now() + std::time::Duration::from_secs(10)),
                    Instant::now(),
                    &|_: Instant, _: &str| {},
                ) {
                    Ok(o) => o,
                    Err(e) if e.starts_with("not installed") => return e,
                    Err(e) => return format!("not installed: {e}"),
                };
                let text = format!("{}\n{}", out.stdout, out.stderr);
                match pattern.captures(&text).and_then(|c| c.get(1)) {
                    Some(v) => named(key, v.as_str().trim()),
                    None => format!(
                        "not installed: '{}' printed no version (nothing matches '{}')",
                        command.join(" "),
                        pattern.as_str()
                    ),
                }
            })
            .clone()
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        self.size_refusal(model)
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        if let Some(o) = self.not_installed() {
            return o;
        }
        if let Some(why) = self.size_refusal(model) {
            return Outcome::refused(
                format!("unsupported by {}: {why}", self.definition.key),
                0.0,
            );
        }
        match self.definition.input {
            Input::Mps => self.solve_file(
                model,
                &crate::formats::mps::write_minimisation(model),
                settings,
                budget,
            ),
            Input::Lp => self.solve_file(
                model,
                &crate::formats::lp::write_minimisation(model),
                settings,
                budget,
            ),
            Input::Opb => match crate::formats::opb::write(model) {
                Ok(text) => self.solve_file(model, &text, settings, budget),
                Err(why) => Outcome::refused(
                    format!("unsupported by {}: {why}", self.definition.key),
                    0.0,
                ),
            },
            Input::Cnf => self.solve_cnf(model, settings, budget),
            Input::Driver => self.with_driver(|launch| {
                let outcome = solve_once(launch, model, settings, budget);
                self.driver_outcome(model, outcome)
            }),
        }
    }

    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        if let Some(o) = self.not_installed() {
            return o;
        }
        if self.definition.input != Input::Driver {
            return row_generation::solve(model, separator, budget, |m, _, round| {
                self.solve_mip(m, settings, round)
            });
        }
        // One driver process for the whole loop: each round sends the rows found since.
        self.with_driver(|launch| {
            let mut driver = MpsDriver::launched(launch);
            let mut rounds = 0;
            let outcome = row_generation::solve(model, separator, budget, |m, _, round| {
                rounds += 1;
                if let Some(why) = self.size_refusal(m) {
                    return Outcome::refused(
                        format!(
                            "unsupported by {}: {why}: it grew past the limit by row generation at round {rounds}",
                            self.definition.key
                        ),
                        0.0,
                    );
                }
                let outcome = driver.solve(m, &SolveMessage::new("solve", settings, round), round);
                self.driver_outcome(m, outcome)
            });
            driver.finish(outcome)
        })
    }

    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        _hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        if let Some(o) = self.not_installed() {
            return o;
        }
        self.with_driver(|launch| {
            let outcome = mps_driver::solve_lazy(launch, model, separator, settings, budget);
            self.driver_outcome(model, outcome)
        })
    }

    fn enumerate(
        &self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
        counter: &mut dyn Enumeration,
    ) -> Option<Outcome> {
        if !self.definition.enumerates {
            return None;
        }
        if let Some(o) = self.not_installed() {
            return Some(o);
        }
        Some(self.with_driver(|launch| {
            mps_driver::enumerate_once(launch, model, settings, budget, counter)
        }))
    }
}

/// One solve of `model` by one driver process that `launch` starts (its answer as the
/// driver gave it).
fn solve_once(launch: Launch, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let mut driver = MpsDriver::launched(launch);
    let outcome = driver.solve(model, &SolveMessage::new("solve", settings, budget), budget);
    driver.finish(outcome)
}

/// The version `text` a definition's program gave, named by the engine's `key` unless it
/// names its solver already ("SCIP 10.0.2 (PySCIPOpt 6.0.0)" for `scip`).
fn named(key: &str, text: &str) -> String {
    let starts = text
        .get(..key.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(key));
    if starts {
        text.to_string()
    } else {
        format!("{key} {text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{Capabilities, Kind};

    const CBC: &str = r#"key = "t-cbc"
description = "a test"
version = { command = ["cbc", "-quit"], pattern = "Version: (\\S+)" }
input = "mps"
command = ["cbc", "{model}", "sec", "{time_limit}", "threads", "{threads}", "randomCbcSeed", "{seed+1}", "solve", "solution", "{solution}"]
reader = "cbc"
limits = { variables = 2, rows = 5 }
"#;

    fn parse(text: &str) -> Result<Definition, String> {
        Definition::parse(text, Path::new("defs/t.toml"))
    }

    #[test]
    fn settings_are_applied_where_the_command_has_their_placeholders() {
        let d = parse(CBC).unwrap();
        let c = d.capabilities();
        assert!(c.threads && c.seed && !c.mip_gap && !c.presolve);
        assert!(c.continuous && c.general_integers && !c.lp_relaxation);
        assert_eq!(c.kinds, &[Kind::Mip, Kind::RowGeneration]);
        let e = d.into_engine();
        let s = e.settings(
            Kind::Mip,
            &crate::engines::SolveOptions {
                seed: 7,
                threads: 2,
                ..Default::default()
            },
        );
        assert_eq!(
            (s.threads, s.seed, s.mip_gap, s.presolve),
            (Some(2), Some(7), None, None)
        );
    }

    #[test]
    fn the_words_of_a_call() {
        let d = parse(CBC).unwrap();
        let engine = DefinedEngine {
            definition: d,
            declaration: Box::leak(Box::new(Declaration {
                key: "t-cbc",
                description: "",
                capabilities: Capabilities::MIP,
            })),
            version: OnceLock::new(),
        };
        let settings = Settings {
            threads: Some(2),
            seed: Some(7),
            ..Settings::default()
        };
        let (w, told) = engine.words(
            Path::new("/tmp/m.mps"),
            Path::new("/tmp/s.sol"),
            &settings,
            &Budget::unlimited(),
        );
        assert_eq!(w[1], "/tmp/m.mps");
        assert_eq!(w[3], NO_LIMIT);
        assert_eq!(told, None);
        assert_eq!((w[5].as_str(), w[7].as_str()), ("2", "8"));
        let (w, told) = engine.words(
            Path::new("m"),
            Path::new("s"),
            &settings,
            &Budget::new(Some(2.5)),
        );
        let left: f64 = w[3].parse().unwrap();
        assert!(left > 2.0 && left <= 2.5, "{left}");
        assert!(told.is_some_and(|t| (t - left).abs() < 1e-3), "{told:?}");
        // Columns by position; other names are none.
        assert_eq!(engine.column("C1", 2), Some(1));
        assert_eq!(engine.column("C2", 2), None);
        assert_eq!(engine.column("C01", 2), None);
        assert_eq!(engine.column("R0", 2), None);
    }

    #[test]
    fn size_limits_refuse_with_the_numbers() {
        let e = parse(CBC).unwrap().into_engine();
        let mut m = Model::new("m");
        for j in 0..3 {
            m.add_binary(format!("x{j}"));
        }
        let why = e.model_refusal(&m).unwrap();
        assert!(
            why.contains("at most 2 variables, 5 rows")
                && why.contains("this model has 3 variables"),
            "{why}"
        );
    }

    #[test]
    fn mistakes_name_the_file_and_line() {
        let cases = [
            (
                CBC.replace("{threads}", "{thread}"),
                5,
                "unknown placeholder {thread}",
            ),
            (
                CBC.replace("\"cbc\"\nlimits", "\"xml\"\nlimits"),
                6,
                "unknown reader 'xml'",
            ),
            (CBC.replace("\"mps\"", "\"gms\""), 4, "unknown input 'gms'"),
            (
                CBC.replace("Version: (\\\\S+)", "Version"),
                3,
                "exactly one group",
            ),
            (
                CBC.replace("\"solution\", \"{solution}\"", "\"x\""),
                5,
                "never names ({solution})",
            ),
            (format!("{CBC}nodes = 3\n"), 8, "nodes"),
            (
                format!("{CBC}takes = [\"lazy-rows\"]\n"),
                8,
                "takes 'lazy-rows'",
            ),
            (
                CBC.replace("\"mps\"", "\"opb\"") + "variables = \"general\"\n",
                8,
                "0/1 columns only",
            ),
        ];
        for (text, line, why) in cases {
            let e = parse(&text).unwrap_err();
            assert!(
                e.starts_with(&format!("defs/t.toml:{line}: ")) && e.contains(why),
                "{e} (wanted line {line}: {why})"
            );
        }
    }

    /// A driver definition of a `script` given in memory, its version set to `version`.
    fn scripted(extra: &str, version: &str) -> &'static DefinedEngine {
        let text = format!(
            "key = \"t-lic\"\ndescription = \"a test\"\ninput = \"driver\"\nscript = \"t.py\"\n{extra}"
        );
        let d = Definition::parse_with(&text, Path::new("defs/t.toml"), &|name| {
            Ok((Path::new("defs").join(name), "pass".to_string()))
        })
        .unwrap();
        assert!(
            matches!(d.version, Version::Probe),
            "a script's version is its probe"
        );
        let e = d.into_defined();
        e.version.set(version.to_string()).unwrap();
        e
    }

    fn model(vars: usize, rows: usize) -> Model {
        let mut m = Model::new("m");
        let x: Vec<_> = (0..vars).map(|j| m.add_binary(format!("x{j}"))).collect();
        for i in 0..rows {
            m.add_row(format!("r{i}"), vec![(x[0], 1.0)], 0.0, 1.0);
        }
        m
    }

    #[test]
    fn a_licences_limits_hold_under_the_size_limited_licence_only() {
        let each = "limits = { variables = 1000, rows = 1000, when = \"size-limited licence\" }";
        let limited = "CPLEX 22.2.0.0 (cplex 22.2.0.1; size-limited licence: Community Edition)";
        let e = scripted(each, limited);
        assert_eq!(e.refuses(&model(1000, 1000)), None);
        assert_eq!(
            e.refuses(&model(2916, 12)).unwrap(),
            "the size-limited licence takes 1,000 variables and 1,000 rows; this model has 2,916 variables"
        );
        let full = scripted(each, "CPLEX 22.2.0.0 (cplex 22.2.0.1; full licence)");
        assert_eq!(
            full.refuses(&model(2916, 12)),
            None,
            "a full licence lifts them"
        );
        let together = "limits = { together = 5000, when = \"size-limited licence\" }";
        let x = scripted(
            together,
            "Xpress 9.9.1 (size-limited licence: community licence)",
        );
        assert_eq!(x.refuses(&model(4000, 1000)), None);
        assert_eq!(
            x.refuses(&model(4000, 1001)).unwrap(),
            "the size-limited licence takes 5,000 rows and columns together; this model has 4,000 columns and 1,001 rows (5,001)"
        );
        let refused = scripted(
            each,
            "Gurobi 13.0.3 (gurobipy 13.0.3; licence refused: License expired (Gurobi error 10009))",
        );
        assert_eq!(
            refused.refuses(&model(1, 0)).unwrap(),
            "licence refused: License expired (Gurobi error 10009)"
        );
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn a_version_names_the_engine_once() {
        assert_eq!(named("scip", "SCIP 10.0.2"), "SCIP 10.0.2");
        assert_eq!(
            named("scip-driver", "SCIP 10.0.2"),
            "scip-driver SCIP 10.0.2"
        );
        assert_eq!(named("cbc", "2.10.12"), "cbc 2.10.12");
        assert_eq!(named("cbc", "c"), "cbc c");
    }

    #[test]
    fn a_script_and_what_only_a_driver_reports_are_checked() {
        let driver = "key = \"t-d\"\ndescription = \"d\"\ninput = \"driver\"\n";
        let cases = [
            (
                format!("{driver}script = \"no-such-file.py\"\n"),
                4,
                "script 'no-such-file.py': cannot read",
            ),
            (
                format!("{driver}script = \"a.py\"\ncommand = [\"x\"]\n"),
                4,
                "not both",
            ),
            (driver.to_string(), 3, "a command or a script"),
            (format!("{driver}command = [\"x\"]\n"), 1, "no version"),
            (
                format!("{CBC}timeline = true\n"),
                8,
                "timeline: only a driver",
            ),
            (
                format!("{CBC}enumerates = true\n"),
                8,
                "enumerates: only a driver",
            ),
            (format!("{CBC}script = \"a.py\"\n"), 8, "not both"),
            (
                CBC.lines()
                    .map(|l| {
                        if l.starts_with("command") {
                            "script = \"a.py\""
                        } else {
                            l
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
                5,
                "script: only a driver",
            ),
        ];
        for (text, line, why) in cases {
            let e = parse(&text).unwrap_err();
            assert!(
                e.starts_with(&format!("defs/t.toml:{line}: ")) && e.contains(why),
                "{e} (wanted line {line}: {why})"
            );
        }
    }
}
