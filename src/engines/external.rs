//! What the engines that run a solver in a child process share ([`super::cpsat`],
//! [`super::scip`], [`super::glpk`]): finding the program (the project's Python
//! environment, or `glpsol`), starting it with the model on its standard input or in a
//! file, killing it when it outlives the run's budget, and reading the JSON answer the
//! Python drivers print.
//!
//! * **Where the solvers are**: the Python drivers run on `PUZZLEBENCH_PYTHON` when it is
//!   set, else on `.venv/bin/python` in the current folder or in a folder above the
//!   puzzlebench executable (the project's environment, made by
//!   `scripts/setup-python.sh`); `glpsol` is `PUZZLEBENCH_GLPSOL` when set, else found on
//!   the `PATH`. A solver that is absent gives status `error` with "not installed: …".
//! * **Two times**: the solver's own solve time (as it reports it) becomes `seconds`, and
//!   the wall-clock time of the whole call (writing the model, process start, loading the
//!   model, the solve, reading the answer) `call_seconds`, so that start-up costs are
//!   never taken for solver speed.
//! * **The budget**: a driver gets the run's deadline as a Unix time and sets the solver's
//!   limit to what is left when it starts solving, so its own start-up is charged to the
//!   run; a child still alive [`GRACE`] seconds after the deadline is killed and the run
//!   ends as `time_limit` without a solution.

use super::{Budget, Outcome, Status};
use crate::model::Model;
use serde::Deserialize;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use wait_timeout::ChildExt;

/// Seconds a child may run past the run's deadline before it is killed.
pub const GRACE: f64 = 3.0;

/// The environment variable naming the Python interpreter of the drivers.
pub const PYTHON_VAR: &str = "PUZZLEBENCH_PYTHON";

/// How to install the Python solvers, for "not installed" messages.
pub const PYTHON_HINT: &str = "run scripts/setup-python.sh (or set PUZZLEBENCH_PYTHON)";

/// The Python interpreter of the drivers: `PUZZLEBENCH_PYTHON`, else the first
/// `.venv/bin/python` in the current folder or a folder above the executable.
pub fn python() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(PYTHON_VAR) {
        return Ok(PathBuf::from(p));
    }
    let venv = |dir: &Path| dir.join(".venv").join("bin").join("python");
    let mut places = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        places.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        places.extend(exe.ancestors().skip(1).map(Path::to_path_buf));
    }
    places
        .iter()
        .map(|d| venv(d))
        .find(|p| p.exists())
        .ok_or_else(|| {
            format!(
                "no project Python environment (.venv/bin/python in this folder or above the puzzlebench executable); {PYTHON_HINT}"
            )
        })
}

/// `python`, when it exists; else why it is not installed.
fn existing(python: &Path) -> Result<&Path, String> {
    if python.exists() {
        Ok(python)
    } else {
        Err(format!(
            "no Python interpreter at {}; {PYTHON_HINT}",
            python.display()
        ))
    }
}

/// `solve` with the drivers' interpreter ([`python`]), or an `error` outcome "not
/// installed: …" when there is none.
pub fn with_python(solve: impl FnOnce(&Path) -> Outcome) -> Outcome {
    match python() {
        Ok(p) => solve(&p),
        Err(e) => Outcome::error(format!("not installed: {e}"), 0.0),
    }
}

/// How a child process ended.
#[derive(Debug)]
pub struct Finished {
    /// Its standard output.
    pub stdout: String,
    /// The lines of its standard output, each with the moment it arrived (a solver that
    /// flushes its log line by line can be timed from it).
    pub lines: Vec<(Instant, String)>,
    /// Its standard error.
    pub stderr: String,
    /// True when it exited with status 0.
    pub success: bool,
    /// True when it was killed for outliving the deadline.
    pub killed: bool,
    /// Wall-clock seconds from the start of the call (before the model was written) to
    /// the end of the child.
    pub seconds: f64,
}

/// Runs `command` with `input` on its standard input, reading its output as it comes, and
/// kills it when it is alive [`GRACE`] seconds after `budget`'s deadline. `started` is
/// when the call began (before the model was written), for [`Finished::seconds`]. A
/// program that cannot be started because it does not exist is "not installed".
pub fn run(
    mut command: Command,
    input: Vec<u8>,
    budget: &Budget,
    started: Instant,
) -> Result<Finished, String> {
    let program = command.get_program().to_string_lossy().to_string();
    // The child leads a process group of its own, so that killing it reaches whatever it
    // started (a shell's children hold its pipes open), and dies with this process.
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::setpgid(0, 0);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
                format!("not installed: {program}: {e}")
            }
            _ => format!("cannot start {program}: {e}"),
        })?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    // A child that dies early closes its end; its stderr then says why.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = child.stdout.take().expect("piped stdout");
    let out = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stdout).lines() {
            match line {
                Ok(l) => lines.push((Instant::now(), l)),
                Err(_) => break,
            }
        }
        lines
    });
    let mut stderr = child.stderr.take().expect("piped stderr");
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    });
    let kill_at = budget
        .deadline()
        .map(|d| d + Duration::from_secs_f64(GRACE));
    let mut killed = false;
    let status = match kill_at {
        None => child.wait().map_err(|e| e.to_string())?,
        Some(at) => {
            let wait = at.saturating_duration_since(Instant::now());
            match child.wait_timeout(wait).map_err(|e| e.to_string())? {
                Some(s) => s,
                None => {
                    killed = true;
                    // SAFETY: a plain kill(2) of the child's process group.
                    unsafe {
                        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
                    }
                    let _ = child.kill();
                    child.wait().map_err(|e| e.to_string())?
                }
            }
        }
    };
    let _ = writer.join();
    let lines = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let mut stdout = String::new();
    for (_, l) in &lines {
        stdout.push_str(l);
        stdout.push('\n');
    }
    Ok(Finished {
        stdout,
        lines,
        stderr,
        success: status.success(),
        killed,
        seconds: started.elapsed().as_secs_f64(),
    })
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

/// The answer a Python driver prints as one JSON object.
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
    /// Values of the columns in model order, where the solver holds a solution.
    #[serde(default)]
    pub values: Option<Vec<f64>>,
    /// The solver's name and version.
    pub version: String,
    /// Why it failed, for status `error`.
    #[serde(default)]
    pub message: Option<String>,
}

/// Runs a Python driver: `source` as the program, `input` (JSON) on its standard input.
pub fn run_driver(
    python: &Path,
    source: &str,
    input: Vec<u8>,
    budget: &Budget,
    started: Instant,
) -> Result<(Answer, f64), Box<Outcome>> {
    let python = existing(python)
        .map_err(|e| Box::new(Outcome::error(format!("not installed: {e}"), 0.0)))?;
    let mut command = Command::new(python);
    // -I: ignore PYTHONPATH and the user's site folder, so only the environment's
    // pinned packages are seen.
    command.arg("-I").arg("-c").arg(source);
    let finished =
        run(command, input, budget, started).map_err(|e| Box::new(Outcome::error(e, 0.0)))?;
    if finished.killed {
        return Err(Box::new(Outcome {
            message: Some(format!(
                "killed {GRACE} s after the run's deadline (the solver did not stop at its limit)"
            )),
            call_seconds: Some(finished.seconds),
            ..Outcome::time_limit(finished.seconds)
        }));
    }
    let last = finished.stdout.lines().rev().find(|l| !l.trim().is_empty());
    match last.map(serde_json::from_str::<Answer>) {
        Some(Ok(a)) => Ok((a, finished.seconds)),
        _ => {
            let why = finished
                .stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no answer")
                .to_string();
            Err(Box::new(Outcome {
                call_seconds: Some(finished.seconds),
                ..Outcome::error(format!("driver failed: {why}"), finished.seconds)
            }))
        }
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
        _ => Status::Error,
    };
    let values = answer.values.filter(|v| v.len() == model.vars.len());
    let objective = values.as_deref().map(|v| model.objective_value(v));
    let message = match status {
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

/// A temporary file holding `text`, removed when dropped.
pub fn temp_file(text: &str, suffix: &str) -> Result<tempfile::TempPath, String> {
    let mut f = tempfile::Builder::new()
        .prefix("puzzlebench-")
        .suffix(suffix)
        .tempfile()
        .map_err(|e| format!("cannot write a temporary model file: {e}"))?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.flush())
        .map_err(|e| format!("cannot write a temporary model file: {e}"))?;
    Ok(f.into_temp_path())
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

/// Runs `python -I -c code` and returns its trimmed standard output, for version probes.
pub fn python_output(code: &str) -> Result<String, String> {
    let python = python()?;
    let python = existing(&python)?;
    let out = Command::new(python)
        .arg("-I")
        .arg("-c")
        .arg(code)
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("{}: {last}; {PYTHON_HINT}", python.display()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// As [`run`], for a solver whose log says how its search goes: `on_line` gets each line
/// of the child's standard output with the moment it arrived, as it arrives (so that what
/// the log reported stays known when the child is killed), and the child is killed when it
/// is alive `kill_after` seconds after `budget`'s deadline rather than [`GRACE`].
pub fn run_watched(
    mut command: Command,
    input: Vec<u8>,
    budget: &Budget,
    started: Instant,
    kill_after: f64,
    on_line: &(dyn Fn(Instant, &str) + Sync),
) -> Result<Finished, String> {
    let program = command.get_program().to_string_lossy().to_string();
    // As in `run`: a process group of its own, killed with this process.
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::setpgid(0, 0);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
                format!("not installed: {program}: {e}")
            }
            _ => format!("cannot start {program}: {e}"),
        })?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let kill_at = budget
        .deadline()
        .map(|d| d + Duration::from_secs_f64(kill_after.max(0.0)));
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = scope.spawn(move || {
            let mut lines = Vec::new();
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        let at = Instant::now();
                        on_line(at, &l);
                        lines.push((at, l));
                    }
                    Err(_) => break,
                }
            }
            lines
        });
        let err = scope.spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.read_to_end(&mut buf);
            String::from_utf8_lossy(&buf).into_owned()
        });
        let mut killed = false;
        let status = match kill_at {
            None => child.wait().map_err(|e| e.to_string())?,
            Some(at) => {
                let wait = at.saturating_duration_since(Instant::now());
                match child.wait_timeout(wait).map_err(|e| e.to_string())? {
                    Some(s) => s,
                    None => {
                        killed = true;
                        // SAFETY: a plain kill(2) of the child's process group.
                        unsafe {
                            libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
                        }
                        let _ = child.kill();
                        child.wait().map_err(|e| e.to_string())?
                    }
                }
            }
        };
        let _ = writer.join();
        let lines = out.join().unwrap_or_default();
        let stderr = err.join().unwrap_or_default();
        let mut stdout = String::new();
        for (_, l) in &lines {
            stdout.push_str(l);
            stdout.push('\n');
        }
        Ok(Finished {
            stdout,
            lines,
            stderr,
            success: status.success(),
            killed,
            seconds: started.elapsed().as_secs_f64(),
        })
    })
}
