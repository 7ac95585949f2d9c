//! What the engines that run a solver in a child process share ([`super::cpsat`], the
//! driver definitions of [`super::definition`] and [`super::built_in_definitions`],
//! [`super::glpk`]): finding the program (the project's Python
//! environment, or `glpsol`), starting it, killing it when it outlives the run's budget,
//! and talking to the Python drivers.
//!
//! * **Where the solvers are**: the Python drivers run on `PUZZLEBENCH_PYTHON` when it is
//!   set, else on `.venv/bin/python` in the current folder or in a folder above the
//!   puzzlebench executable (the project's environment, made by
//!   `scripts/setup-python.sh`); `glpsol` is `PUZZLEBENCH_GLPSOL` when set, else found on
//!   the `PATH`. A solver that is absent gives status `error` with "not installed: …".
//! * **One driver process per run's solves**: a Python driver runs as a [`Session`]: it
//!   says hello with its solver's version, then reads messages (a model, rows to add, a
//!   solve) as lines of JSON on its standard input and answers each solve with a line of
//!   JSON, after the incumbents and bounds it found on the way, each a line of its own. A
//!   row-generation run keeps one session through all its rounds (the model goes over
//!   once, then only the added rows); [`driver_starts`] counts the processes started.
//!   `glpsol` runs once per solve ([`run_watched`]), its model in a file.
//! * **Warm or cold**: a driver process is forked, already past its solver's import, by
//!   the driver's fork server where it can be ([`super::warm`]: a few milliseconds
//!   instead of 0.1 to 0.5 s), else started cold as a fresh interpreter; the same pipes
//!   and messages either way. [`warm_starts`] counts the warm ones, and a row's
//!   `solver_version` ends in [`WARM_MARK`] for a driver started warm.
//! * **Enumeration** (counting on CP-SAT and SCIP): the driver prints each solution it
//!   finds as a line and waits for puzzlebench's [`Reply`] (go on, with a no-good row
//!   for SCIP, or stop) before its search goes on ([`Session::enumerate`]).
//! * **Two times**: the solver's own solve time (as it reports it) becomes `seconds`, and
//!   the wall-clock time of the whole call (process start or fork for a session's first
//!   solve, sending the model, loading it, the solve, reading the answer) `call_seconds`,
//!   so that start-up costs are never taken for solver speed.
//! * **The budget**: a driver gets the run's deadline as a Unix time and sets the solver's
//!   limit to what is left when it starts solving, so its own start-up is charged to the
//!   run; a child still at work [`GRACE`] seconds after the deadline is killed and the
//!   solve ends as `time_limit` without a solution.
//! * **Timelines**: a session passes each incumbent and bound a driver reports to the
//!   run's budget as the line arrives ([`Budget::record_at`]), mapped into the model's
//!   objective units by the engine (CP-SAT's scaling, the objective's constant).
//! * **Versions**: each outcome carries the version the driver reported in that run
//!   ([`Outcome::version`]), so a changed solver shows in the row.

use super::warm::{self, WarmChild};
use super::{Budget, Outcome, Status};
use crate::model::Model;
use crate::process::{self, existing, kill_tree, quote, Spawned};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use wait_timeout::ChildExt;

/// Seconds a child may run past the run's deadline before it is killed.
pub const GRACE: f64 = 3.0;

pub use crate::process::{python, python_output, temp_file, PYTHON_HINT, PYTHON_VAR};

/// `solve` with the drivers' interpreter ([`python`]), or an `error` outcome "not
/// installed: …" when there is none.
pub fn with_python(solve: impl FnOnce(&Path) -> Outcome) -> Outcome {
    match python() {
        Ok(p) => solve(&p),
        Err(e) => Outcome::error(format!("not installed: {e}"), 0.0),
    }
}

/// The run's deadline as Unix seconds, for a driver (None: no limit).
pub fn deadline_unix(budget: &Budget) -> Option<f64> {
    let left = budget.left()?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    Some(now + left.max(0.0))
}

/// The answer a Python driver prints for a solve, as one JSON object (`kind` "answer").
#[derive(Debug, Deserialize)]
pub struct Answer {
    /// `optimal`, `feasible`, `infeasible`, `time_limit` or `error` (the driver maps its
    /// solver's statuses to these).
    pub status: String,
    /// The solver's status in its own words, for messages.
    #[serde(default)]
    pub solver_status: String,
    /// The solver's own solve time in seconds.
    pub seconds: f64,
    /// Best proven bound on the objective as the solver states it (for `cpsat`, on the
    /// scaled objective), without the model's objective constant.
    #[serde(default)]
    pub bound: Option<f64>,
    /// Search nodes (SCIP's nodes, CP-SAT's branches).
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Conflicts (CP-SAT).
    #[serde(default)]
    pub conflicts: Option<u64>,
    /// Rows the driver added in its search (SCIP's no-good rows when counting).
    #[serde(default)]
    pub cuts: Option<u64>,
    /// Values of the columns in model order, where the solver holds a solution.
    #[serde(default)]
    pub values: Option<Vec<f64>>,
    /// The solver's name and version (empty when the driver could not import it).
    #[serde(default)]
    pub version: String,
    /// Why it failed, for status `error`.
    #[serde(default)]
    pub message: Option<String>,
}

impl Answer {
    /// Checks what the answer says that puzzlebench takes as measured: `seconds` is a
    /// time of 0 or more, no longer than the driver process has lived (`lived`, plus a
    /// second for clocks). JSON numbers are finite already (NaN and Infinity are not
    /// JSON: such a line is no message, [`parse_message`]).
    pub fn check(&self, lived: f64) -> Result<(), String> {
        if !(self.seconds >= 0.0 && self.seconds <= lived + 1.0) {
            return Err(format!(
                "gives seconds {:?}, which is not a time of this solve (0 to the {lived:.3} s the driver has run)",
                self.seconds
            ));
        }
        Ok(())
    }
}

/// A line of a driver's standard output, read.
enum Parsed {
    /// A line the driver did not mean as a message (the solver's own output).
    NotMine,
    /// A line meant as a message (a JSON object with a `kind`) that is not one, and why.
    Bad(String),
    /// A message.
    Message(Message),
}

/// Reads `line`: a JSON object with a `kind` is a message, which must be valid (strict
/// JSON: Python's `json.dumps` writes NaN and Infinity unless given `allow_nan=False`,
/// and neither is JSON); anything else is the solver's own output.
fn parse_message(line: &str) -> Parsed {
    let t = line.trim();
    if !(t.starts_with('{') && t.contains("\"kind\"")) {
        return Parsed::NotMine;
    }
    match serde_json::from_str::<Message>(t) {
        Ok(m) => Parsed::Message(m),
        Err(e) => {
            let hint = if ["NaN", "Infinity"].iter().any(|w| t.contains(w)) {
                " (NaN and Infinity are not JSON: send null, or leave the field out)"
            } else {
                ""
            };
            Parsed::Bad(format!("a message that is not valid: {e}{hint}"))
        }
    }
}

/// What a Python driver prints, one JSON object a line, told apart by `kind`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Message {
    /// First, once its solver is imported: the solver's name and version.
    Hello { version: String },
    /// An improving incumbent, in the driver's objective units.
    Incumbent { value: f64 },
    /// A proven bound, in the driver's objective units.
    Bound { value: f64 },
    /// A solution found by an enumeration: the values of the columns. The driver waits
    /// for a [`Reply`] line before it goes on.
    Solution { values: Vec<f64> },
    /// The end of a solve.
    Answer(Answer),
}

thread_local! {
    static DRIVER_STARTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static WARM_STARTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many driver processes [`Session::start`] has started on the calling thread so far.
/// A run's solves happen on the thread that runs it, so the difference across a run is
/// the number of driver processes the run started (tests check that a row-generation
/// run of many rounds starts one).
pub fn driver_starts() -> u64 {
    DRIVER_STARTS.with(|c| c.get())
}

/// How many of the driver processes counted by [`driver_starts`] started warm (forked by
/// a fork server, [`super::warm`]).
pub fn warm_starts() -> u64 {
    WARM_STARTS.with(|c| c.get())
}

/// What a row's `solver_version` adds to the driver's version for a driver started warm.
pub const WARM_MARK: &str = " [warm]";

/// A row as a driver reads it: columns, coefficients, lower and upper side (None: none).
pub type ReplyRow = (Vec<usize>, Vec<f64>, Option<f64>, Option<f64>);

/// A row as a driver reads it, from its terms and sides (infinite sides as none).
pub fn reply_row(terms: &[(crate::model::VarId, f64)], lower: f64, upper: f64) -> ReplyRow {
    let finite = |x: f64| x.is_finite().then_some(x);
    (
        terms.iter().map(|t| t.0 .0).collect(),
        terms.iter().map(|t| t.1).collect(),
        finite(lower),
        finite(upper),
    )
}

/// What puzzlebench answers a point a driver reports ([`Session::exchange`]): go on (with
/// the row to add, for a driver that adds rows as it enumerates; with the lazy rows the
/// point violates, none when it is a solution) or stop.
#[derive(Debug, Serialize)]
pub struct Reply {
    op: &'static str,
    /// Go on: false stops the search.
    more: bool,
    /// The row to add before going on (columns, coefficients, lower and upper side).
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<ReplyRow>,
    /// Lazy rows to add (Gurobi's lazy-row callback); empty: the point is a solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    rows: Option<Vec<ReplyRow>>,
}

impl Reply {
    /// Stop the enumeration.
    pub fn stop() -> Reply {
        Reply {
            op: "reply",
            more: false,
            row: None,
            rows: None,
        }
    }

    /// Go on, after adding the lazy rows `cuts` (none: the point is a solution).
    pub fn rows(cuts: &[crate::lazy::Cut]) -> Reply {
        Reply {
            op: "reply",
            more: true,
            row: None,
            rows: Some(
                cuts.iter()
                    .map(|c| reply_row(&c.terms, c.lower, c.upper))
                    .collect(),
            ),
        }
    }

    /// Go on, after adding `row` when there is one.
    pub fn more(row: Option<&crate::lazy::Cut>) -> Reply {
        Reply {
            op: "reply",
            more: true,
            row: row.map(|c| reply_row(&c.terms, c.lower, c.upper)),
            rows: None,
        }
    }
}

/// A Python driver kept alive through a run's solves: one process that reads its
/// messages (a model, rows to add, a solve) as lines of JSON on its standard input and
/// answers each solve on its standard output, with the incumbents and bounds it finds on
/// the way.
///
/// The process starts warm where it can (forked by the driver's fork server, already
/// past the solver's import: [`super::warm`]), else cold (a fresh interpreter, this
/// thread's child). Either way it leads a process group of its own (killing it reaches
/// whatever it started) and is in the run's cgroup; a cold one is killed when the thread
/// that started it ends (`PR_SET_PDEATHSIG`), a warm one when the session is dropped or
/// the run's cgroup emptied. A reader thread stamps each line of its output as it
/// arrives; [`Session::solve`] passes incumbents and bounds to the budget as they come,
/// so a run killed later keeps them. A solve still running [`GRACE`] seconds after the
/// budget's deadline has its process killed, which ends the session. Dropping the
/// session kills the process.
pub struct Session {
    child: Proc,
    stdin: Option<File>,
    lines: Receiver<(Instant, String)>,
    /// What the driver wrote on its standard error, sent once it closed it.
    stderr: Option<Receiver<String>>,
    /// The version the driver reported (its hello, or an answer).
    version: Option<String>,
    /// False once the child was killed or its output ended.
    alive: bool,
    /// When the session was asked for, charged to its first solve's call time.
    started: Option<Instant>,
    /// Why the driver started cold (None: it started warm).
    cold_because: Option<String>,
    /// How a cold driver's process ended, once it was reaped.
    status: Option<std::process::ExitStatus>,
    /// True for a program a file added (an engine definition's driver): without a time
    /// limit it is stopped at the plug-in hard stop ([`process::plugin_deadline`]).
    plugin: bool,
    /// When the process started: no solve of it can have lasted longer.
    born: Instant,
}

/// A driver process: this thread's child (cold) or forked by a fork server (warm).
enum Proc {
    /// The child and the mark of its tree ([`process::spawn`]).
    Cold(Child, String),
    Warm(WarmChild),
}

impl Session {
    /// Starts `source` on the interpreter `python`: warm where it can, else as `python -I
    /// -c source` (-I ignores PYTHONPATH and the user's site folder, so only the
    /// environment's pinned packages are seen). A missing interpreter is an `error`
    /// outcome "not installed: …".
    pub fn start(python: &Path, source: &str) -> Result<Session, Box<Outcome>> {
        Session::start_with(python, source, &[])
    }

    /// [`Session::start`] with the arguments `args` (the driver's `sys.argv[1:]`).
    pub fn start_with(python: &Path, source: &str, args: &[&str]) -> Result<Session, Box<Outcome>> {
        let started = Instant::now();
        let python = existing(python)
            .map_err(|e| Box::new(Outcome::error(format!("not installed: {e}"), 0.0)))?;
        match warm::start(python, source, args) {
            Ok(w) => Ok(Session::serve(
                Proc::Warm(w.child),
                w.stdin,
                w.stdout,
                w.stderr,
                None,
                started,
            )),
            Err(why) => {
                let mut command = Command::new(python);
                command.arg("-I").arg("-c").arg(source).args(args);
                Session::cold(command, Some(why), started)
            }
        }
    }

    /// Starts the program `words[0]` with the arguments `words[1..]` as a driver (an
    /// engine definition's `driver` input): always cold, as this thread's child, with the
    /// protocol module on its `PYTHONPATH` ([`super::driver_source::program_env`]). A
    /// program that cannot be started is an `error` outcome ("not installed: …" when it
    /// is missing).
    pub fn start_program(words: &[String]) -> Result<Session, Box<Outcome>> {
        let started = Instant::now();
        let mut command = Command::new(&words[0]);
        command
            .args(&words[1..])
            .envs(super::driver_source::program_env());
        let mut session = Session::cold(
            command,
            Some("a definition's driver program".into()),
            started,
        )?;
        session.plugin = true;
        Ok(session)
    }

    /// A session of `command` started as this thread's child; `cold_because` says why a
    /// driver that could start warm did not.
    fn cold(
        command: Command,
        cold_because: Option<String>,
        started: Instant,
    ) -> Result<Session, Box<Outcome>> {
        let Spawned { mut child, mark } =
            process::spawn(command).map_err(|e| Box::new(Outcome::error(e, 0.0)))?;
        let pipe = |p: Option<OwnedFd>| File::from(p.expect("a piped stream"));
        let stdin = pipe(child.stdin.take().map(OwnedFd::from));
        let stdout = pipe(child.stdout.take().map(OwnedFd::from));
        let stderr = pipe(child.stderr.take().map(OwnedFd::from));
        Ok(Session::serve(
            Proc::Cold(child, mark),
            stdin,
            stdout,
            stderr,
            cold_because,
            started,
        ))
    }

    /// The session of a started process: a thread stamps each line of its output, another
    /// gathers its standard error.
    fn serve(
        child: Proc,
        stdin: File,
        stdout: File,
        stderr: File,
        cold_because: Option<String>,
        started: Instant,
    ) -> Session {
        DRIVER_STARTS.with(|c| c.set(c.get() + 1));
        if matches!(child, Proc::Warm(_)) {
            WARM_STARTS.with(|c| c.set(c.get() + 1));
        }
        let (tx, lines) = std::sync::mpsc::channel();
        // Read as bytes to the end, even once nobody listens: one byte that is not UTF-8
        // loses nothing, and the driver never dies of a closed pipe.
        std::thread::spawn(move || {
            process::read_lines(stdout, |at, l| {
                let _ = tx.send((at, l));
            });
        });
        let (err_tx, err_rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = err_tx.send(process::read_all(stderr));
        });
        Session {
            child,
            stdin: Some(stdin),
            lines,
            stderr: Some(err_rx),
            version: None,
            alive: true,
            started: Some(started),
            cold_because,
            status: None,
            plugin: false,
            born: started,
        }
    }

    /// Why the driver started cold (a fresh interpreter); None when it started warm.
    pub fn cold_because(&self) -> Option<&str> {
        self.cold_because.as_deref()
    }

    /// The driver's process id.
    pub fn pid(&self) -> u32 {
        match &self.child {
            Proc::Cold(c, _) => c.id(),
            Proc::Warm(w) => w.id(),
        }
    }

    /// True while the child may still answer (not killed, its output not ended).
    pub fn alive(&self) -> bool {
        self.alive
    }

    /// The solver's name and version as the driver reported it in this session, with
    /// [`WARM_MARK`] when the driver started warm.
    pub fn version(&self) -> Option<String> {
        self.version.as_deref().map(|v| self.marked(v))
    }

    /// `version` with [`WARM_MARK`] when the driver started warm.
    fn marked(&self, version: &str) -> String {
        match self.cold_because {
            None => format!("{version}{WARM_MARK}"),
            Some(_) => version.to_string(),
        }
    }

    /// Sends `message` as one line of JSON. A child that has ended is no error here: the
    /// next [`Session::solve`] reads what it said before it ended.
    pub fn send(&mut self, message: &impl Serialize) {
        let Some(stdin) = self.stdin.as_mut() else {
            return;
        };
        let mut line = serde_json::to_vec(message).expect("a driver message serialises");
        line.push(b'\n');
        if stdin.write_all(&line).and_then(|_| stdin.flush()).is_err() {
            self.stdin = None;
        }
    }

    /// Sends the solve request `message` and waits for the answer, passing each
    /// incumbent and bound the driver reports on the way to `budget` (mapped by `value`
    /// into the model's objective units) at the instant it arrived. Returns the answer
    /// and the call's wall-clock seconds (from the request, or from the session's start
    /// for its first solve, to the answer). Past the deadline plus [`GRACE`] the child is
    /// killed and the outcome is `time_limit` without a solution; a child whose output
    /// ends without an answer is an `error` with the last line of its standard error.
    pub fn solve(
        &mut self,
        message: &impl Serialize,
        budget: &Budget,
        value: impl Fn(f64) -> f64,
    ) -> Result<(Answer, f64), Box<Outcome>> {
        self.exchange(message, budget, value, &mut |_| Reply::stop())
    }

    /// [`Session::solve`] for an enumeration: each solution the driver reports is handed
    /// to `solution`, whose [`Reply`] goes back to the driver before it goes on.
    pub fn enumerate(
        &mut self,
        message: &impl Serialize,
        budget: &Budget,
        solution: &mut dyn FnMut(&[f64]) -> Reply,
    ) -> Result<(Answer, f64), Box<Outcome>> {
        self.exchange(message, budget, |v| v, solution)
    }

    /// Sends `message` and waits for the answer as [`Session::solve`] does, handing each
    /// point the driver reports (`solution` lines: an enumerated solution, an incumbent
    /// to check for lazy rows) to `solution`, whose [`Reply`] goes back before it goes on.
    pub fn exchange(
        &mut self,
        message: &impl Serialize,
        budget: &Budget,
        value: impl Fn(f64) -> f64,
        solution: &mut dyn FnMut(&[f64]) -> Reply,
    ) -> Result<(Answer, f64), Box<Outcome>> {
        let started = self.started.take().unwrap_or_else(Instant::now);
        let fail = |o: Outcome, version: Option<String>| {
            Box::new(Outcome {
                call_seconds: Some(started.elapsed().as_secs_f64()),
                version,
                ..o
            })
        };
        if !self.alive {
            return Err(fail(
                Outcome::error("driver failed: its process has ended".to_string(), 0.0),
                self.version(),
            ));
        }
        self.send(message);
        // Past the deadline and the grace the child is killed; a plug-in's driver run
        // without a time limit is stopped at the plug-in hard stop.
        let (kill_at, hard_stop) = match budget.deadline() {
            Some(d) => (Some(process::after(d, GRACE)), None),
            None if self.plugin => {
                let (at, why) = process::plugin_deadline(None, started);
                (Some(at), why)
            }
            None => (None, None),
        };
        // When the driver exited while a process it left still holds its output.
        let mut exited_at: Option<Instant> = None;
        loop {
            let poll = Duration::from_millis(100);
            let wait = kill_at.map_or(poll, |at| {
                at.saturating_duration_since(Instant::now()).min(poll)
            });
            match self.lines.recv_timeout(wait) {
                Ok((at, line)) => match parse_message(&line) {
                    // Anything else the solver printed is not the driver's.
                    Parsed::NotMine => {}
                    Parsed::Bad(why) => {
                        let stderr = self.kill();
                        let seconds = started.elapsed().as_secs_f64();
                        let tail = process::last_line(&stderr);
                        return Err(fail(
                            Outcome::error(
                                format!(
                                    "driver failed: {why}; the line: {}{}",
                                    quote(&line),
                                    if tail.is_empty() {
                                        String::new()
                                    } else {
                                        format!("; its standard error ends: {}", quote(tail))
                                    }
                                ),
                                seconds,
                            ),
                            self.version(),
                        ));
                    }
                    Parsed::Message(Message::Hello { version }) => self.note_version(version),
                    Parsed::Message(Message::Incumbent { value: v }) => {
                        budget.record_at(true, value(v), at)
                    }
                    Parsed::Message(Message::Bound { value: v }) => {
                        budget.record_at(false, value(v), at)
                    }
                    Parsed::Message(Message::Solution { values }) => {
                        let reply = solution(&values);
                        self.send(&reply);
                    }
                    Parsed::Message(Message::Answer(a)) => {
                        let call = started.elapsed().as_secs_f64();
                        if let Err(why) = a.check(self.born.elapsed().as_secs_f64()) {
                            self.kill();
                            return Err(fail(
                                Outcome::error(format!("driver failed: its answer {why}"), call),
                                self.version(),
                            ));
                        }
                        self.note_version(a.version.clone());
                        let mut a = a;
                        a.version = self.version().unwrap_or_default();
                        return Ok((a, call));
                    }
                },
                Err(RecvTimeoutError::Timeout) => {
                    if kill_at.is_some_and(|at| Instant::now() >= at) {
                        self.kill();
                        let seconds = started.elapsed().as_secs_f64();
                        let outcome = match &hard_stop {
                            Some(why) => Outcome::error(why.clone(), seconds),
                            None => Outcome {
                                message: Some(format!(
                                    "killed {GRACE} s after the run's deadline (the solver did not stop at its limit)"
                                )),
                                ..Outcome::time_limit(seconds)
                            },
                        };
                        return Err(fail(outcome, self.version()));
                    }
                    if self.exited() {
                        match exited_at {
                            None => exited_at = Some(Instant::now()),
                            // Its output should have ended with it: whatever it left
                            // holding the pipe is ended, and the next read sees the end.
                            Some(t) if t.elapsed() > Duration::from_millis(500) => {
                                self.kill_leftovers()
                            }
                            Some(_) => {}
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let stderr = self.end();
                    let ending = self.ending();
                    let tail = process::last_line(&stderr);
                    let why = match (tail.is_empty(), ending) {
                        (false, Some(e)) => format!("{} ({e})", quote(tail)),
                        (false, None) => quote(tail),
                        (true, Some(e)) => format!("no answer ({e}; nothing on standard error)"),
                        (true, None) => "no answer (nothing on standard error)".to_string(),
                    };
                    let seconds = started.elapsed().as_secs_f64();
                    return Err(fail(
                        Outcome::error(format!("driver failed: {why}"), seconds),
                        self.version(),
                    ));
                }
            }
        }
    }

    /// True when the driver process has ended (a cold one is reaped here; a warm one is
    /// its fork server's).
    fn exited(&mut self) -> bool {
        match &mut self.child {
            Proc::Cold(child, _) => {
                if let Ok(Some(status)) = child.try_wait() {
                    self.status.get_or_insert(status);
                    true
                } else {
                    self.status.is_some()
                }
            }
            Proc::Warm(child) => child.wait_timeout(Duration::ZERO),
        }
    }

    /// How a cold driver process ended, once it has ("exit code 1", "killed by signal 6
    /// (SIGABRT)"); None for a warm one or one still running.
    fn ending(&self) -> Option<String> {
        use std::os::unix::process::ExitStatusExt;
        let status = self.status?;
        Some(process::watched::ending(status.code(), status.signal()))
    }

    /// Ends what a cold driver left running (its process group and tree).
    fn kill_leftovers(&mut self) {
        if let Proc::Cold(child, mark) = &self.child {
            kill_tree(child.id(), mark);
        }
    }

    fn note_version(&mut self, version: String) {
        if !version.is_empty() {
            self.version = Some(version);
        }
    }

    /// Kills the child's tree, reaps the child, and returns its standard error.
    fn kill(&mut self) -> String {
        if self.alive {
            match &mut self.child {
                Proc::Cold(child, mark) => {
                    kill_tree(child.id(), mark);
                    let _ = child.kill();
                }
                Proc::Warm(child) => {
                    child.kill();
                }
            }
        }
        self.end()
    }

    /// Marks the session ended, reaps the child, ends what it left running and returns
    /// its standard error.
    fn end(&mut self) -> String {
        self.alive = false;
        self.stdin = None;
        match &mut self.child {
            Proc::Cold(child, mark) => {
                if self.status.is_none() {
                    // Its output ended: it is exiting; one still there after a second is
                    // killed.
                    let status = match child.wait_timeout(Duration::from_secs(1)) {
                        Ok(Some(s)) => Some(s),
                        _ => {
                            kill_tree(child.id(), mark);
                            let _ = child.kill();
                            child.wait().ok()
                        }
                    };
                    self.status = status;
                }
                // Whatever it left behind goes with it.
                kill_tree(child.id(), mark);
            }
            Proc::Warm(child) => {
                // Its fork server reaps it; one still there after a second is killed.
                if !child.wait_timeout(Duration::from_secs(1)) {
                    child.kill();
                }
            }
        }
        // A process that escaped the tree's mark may still hold the pipe: its standard
        // error is then cut after two seconds.
        self.stderr
            .take()
            .and_then(|r| r.recv_timeout(Duration::from_secs(2)).ok())
            .unwrap_or_default()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The outcome of a driver's answer on `model`: its status, the solver's time as
/// `seconds` and the call's as `call_seconds`, the objective costed from the values, the
/// bound mapped by `bound` (scaling, the objective's constant). A `time_limit` keeps the
/// values the solver held.
pub fn outcome(
    model: &Model,
    answer: Answer,
    call_seconds: f64,
    bound: impl Fn(f64) -> f64,
) -> Outcome {
    let status = match answer.status.as_str() {
        "optimal" => Status::Optimal,
        "feasible" => Status::Feasible,
        "infeasible" => Status::Infeasible,
        "time_limit" => Status::TimeLimit,
        "refused" => Status::Refused,
        _ => Status::Error,
    };
    let values = answer.values.filter(|v| v.len() == model.vars.len());
    let objective = values.as_deref().map(|v| model.objective_value(v));
    let message = match status {
        Status::Refused => Some(answer.message.unwrap_or_else(|| "refused".to_string())),
        Status::Error => Some(answer.message.unwrap_or_else(|| {
            format!(
                "the solver ended with status {} {}",
                answer.status, answer.solver_status
            )
        })),
        _ => None,
    };
    Outcome {
        objective,
        best_bound: answer.bound.filter(|b| b.is_finite()).map(bound),
        nodes: answer.nodes,
        conflicts: answer.conflicts,
        cuts: answer.cuts,
        values: if status == Status::Infeasible {
            None
        } else {
            values
        },
        message,
        call_seconds: Some(call_seconds),
        version: Some(answer.version),
        ..Outcome::with_status(status, answer.seconds)
    }
}

/// The version an external engine shows in `list` and machine records: `probe` run once
/// per process (it starts the solver's program), or "not installed: …".
pub fn cached_version(
    cell: &'static std::sync::OnceLock<String>,
    probe: impl FnOnce() -> Result<String, String>,
) -> String {
    cell.get_or_init(|| probe().unwrap_or_else(|e| format!("not installed: {e}")))
        .clone()
}

/// Runs the driver `source` with the arguments `args` on the drivers' interpreter (warm
/// where it can, as a [`Session`] starts), nothing on its standard input, and returns its
/// trimmed standard output, for version probes; none is an error with the last line of
/// its standard error.
pub fn driver_output(source: &str, args: &[&str]) -> Result<String, String> {
    let python = python()?;
    let mut session = Session::start_with(&python, source, args)
        .map_err(|o| o.message.unwrap_or_else(|| "cannot start".to_string()))?;
    session.stdin = None;
    let mut out = String::new();
    while let Ok((_, line)) = session.lines.recv() {
        out.push_str(&line);
        out.push('\n');
    }
    let err = session.end();
    if out.trim().is_empty() {
        let last = match process::last_line(&err) {
            "" => "no output".to_string(),
            l => quote(l),
        };
        return Err(format!("{}: {last}; {PYTHON_HINT}", python.display()));
    }
    Ok(out.trim().to_string())
}
