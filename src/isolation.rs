//! One process per run. The parent starts `puzzlebench worker`, hands it a [`Job`] as
//! JSON on stdin and reads one [`Record`] as JSON from its stdout. A crash, abort, stack
//! overflow or allocation failure in a solver ends only that child; the parent enforces
//! a hard wall-clock limit (kill with SIGKILL), optionally caps the child's address space,
//! and reads the child's peak resident memory from `wait4`.

use crate::backends::{Engine, SolveOptions};
use crate::puzzles::Puzzle;
use crate::record::Record;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a worker runs: one instance of one file, one formulation, one engine, one repeat.
/// Puzzle and engine travel as their keys and arrive as registry entries (a key the
/// worker does not know fails to deserialise).
#[derive(Clone, Serialize, Deserialize)]
pub struct Job {
    /// The puzzle.
    #[serde(with = "puzzle_key")]
    pub puzzle: &'static dyn Puzzle,
    /// The instance file.
    pub file: PathBuf,
    /// The instance's name within the file.
    pub instance: String,
    /// Formulation key.
    pub formulation: String,
    /// The engine.
    #[serde(rename = "backend")]
    pub engine: Engine,
    /// Repeat number.
    pub repeat: u32,
    /// Solver settings.
    pub options: SolveOptions,
    /// The run id written on the row.
    pub run_id: String,
}

/// A puzzle as its key in a [`Job`].
mod puzzle_key {
    use crate::puzzles::{self, Puzzle};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &&'static dyn Puzzle, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.key())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static dyn Puzzle, D::Error> {
        let key = String::deserialize(d)?;
        puzzles::puzzle(&key).map_err(serde::de::Error::custom)
    }
}

/// Limits the parent enforces on a child.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Kill the child after this many wall-clock seconds (`None`: never).
    pub hard_seconds: Option<f64>,
    /// Cap on the child's address space, in MiB (`None`: no cap).
    pub memory_mb: Option<u64>,
}

/// How a child ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// It printed a record and exited 0.
    Finished(Box<Record>),
    /// The parent killed it at the hard limit.
    HardLimit,
    /// The parent killed it because the sweep is stopping.
    Stopped,
    /// It died or exited without a record; the reason says how.
    Failed(String),
}

/// The result of one isolated run.
#[derive(Clone, Debug, PartialEq)]
pub struct Isolated {
    /// How the child ended.
    pub ending: Ending,
    /// Wall-clock seconds from spawn to exit, as the parent saw them.
    pub wall_seconds: f64,
    /// Peak resident set of the child in MiB.
    pub peak_rss_mb: Option<f64>,
}

/// Runs `job` in a child process of `exe` and waits for it under `limits`. `stop` is
/// polled: when it becomes true the child is killed and [`Ending::Stopped`] returned.
pub fn run_isolated(exe: &Path, job: &Job, limits: Limits, stop: &AtomicBool) -> Isolated {
    let start = Instant::now();
    let mut cmd = Command::new(exe);
    cmd.arg("worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: a Ctrl-C at the terminal reaches the parent only, which
        // then kills the child itself and writes no partial row.
        .process_group(0);
    if let Some(mb) = limits.memory_mb {
        let bytes = mb.saturating_mul(1024 * 1024) as libc::rlim_t;
        // SAFETY: setrlimit is async-signal-safe and touches only the child.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Isolated {
                ending: Ending::Failed(format!("cannot start the worker: {e}")),
                wall_seconds: start.elapsed().as_secs_f64(),
                peak_rss_mb: None,
            }
        }
    };
    let pid = child.id() as libc::pid_t;
    let job_json = serde_json::to_vec(job).expect("job serialises");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&job_json);
    });
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data; wait4 fills it for our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        let _ = tx.send((rc, status, usage.ru_maxrss));
    });
    let deadline = limits
        .hard_seconds
        .map(|s| start + Duration::from_secs_f64(s));
    let mut killed_for: Option<Ending> = None;
    let (rc, status, maxrss_kb) = loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(r) => break r,
            Err(mpsc::RecvTimeoutError::Disconnected) => break (-1, 0, 0),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if killed_for.is_some() {
            continue;
        }
        let reason = if stop.load(Ordering::SeqCst) {
            Some(Ending::Stopped)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Ending::HardLimit)
        } else {
            None
        };
        if let Some(r) = reason {
            // SAFETY: pid is our child, not yet reaped (the waiter thread reaps it).
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed_for = Some(r);
        }
    };
    let wall_seconds = start.elapsed().as_secs_f64();
    let _ = writer.join();
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    drop(child);
    let peak_rss_mb = (rc > 0 && maxrss_kb > 0).then(|| maxrss_kb as f64 / 1024.0);
    let ending = if let Some(k) = killed_for {
        k
    } else if rc <= 0 {
        Ending::Failed("lost track of the worker process".into())
    } else {
        let exit = std::process::ExitStatus::from_raw(status);
        let record = out
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| serde_json::from_str::<Record>(l).ok());
        match (exit.success(), record) {
            (true, Some(r)) => Ending::Finished(Box::new(r)),
            _ => Ending::Failed(describe_failure(exit, &err, limits)),
        }
    };
    Isolated {
        ending,
        wall_seconds,
        peak_rss_mb,
    }
}

/// A short reason from the exit status and the last lines of stderr.
fn describe_failure(exit: std::process::ExitStatus, stderr: &str, limits: Limits) -> String {
    let how = match (exit.code(), exit.signal()) {
        (Some(c), _) => format!("worker exited with code {c}"),
        (None, Some(s)) => format!("worker killed by signal {s} ({})", signal_name(s)),
        _ => "worker ended abnormally".into(),
    };
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("note:") && !l.starts_with("stack backtrace"))
        .filter(|l| !l.chars().next().is_some_and(|c| c.is_ascii_digit()) && !l.starts_with("at "))
        .collect();
    let said = lines
        .iter()
        .take(2)
        .copied()
        .collect::<Vec<_>>()
        .join(" / ");
    let said: String = said.chars().take(300).collect();
    let mut reason = if said.is_empty() {
        how
    } else {
        format!("{how}: {said}")
    };
    if let Some(mb) = limits.memory_mb {
        if said.contains("memory allocation") || said.contains("alloc") {
            reason.push_str(&format!(" (memory limit {mb} MiB)"));
        }
    }
    reason
}

fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        _ => "signal",
    }
}
