//! One process per run. The parent starts `puzzlebench worker`, hands it a [`Job`] as
//! JSON on stdin and reads one [`Record`] as JSON from its stdout. A crash, abort, stack
//! overflow or allocation failure in a solver ends only that child; the parent pins the
//! child to its CPUs, puts it in a cgroup of its own (where the machine offers cgroups:
//! [`crate::cgroups`]) that measures the CPU time and peak memory of every process of the
//! run and enforces the memory limit, enforces a hard wall-clock limit (SIGKILL to the
//! whole cgroup and process group), and kills whatever the run left behind when it ends.
//! Without cgroups, CPU time and peak memory come from `wait4` and the memory limit caps
//! the worker's address space. A run on an engine with a Python driver has the driver's
//! fork server started here first, outside the run's cgroup ([`crate::engines::warm`]):
//! the worker moves the driver it forks into its own cgroup; without a cgroup, drivers
//! start cold, as the worker's own children.

use crate::cgroups::Cgroups;
use crate::engines::{Engine, SolveOptions};
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
    /// The timelines file the run streams its incumbents and bounds to, as they come.
    #[serde(default)]
    pub timelines: Option<PathBuf>,
    /// The race the run belongs to, whose name its run id holds
    /// ([`crate::record::race_run_id`]).
    #[serde(default)]
    pub race: Option<String>,
    /// The race's adaptive cap on the run, seconds ([`crate::runner::RunSpec::cap`]).
    #[serde(default)]
    pub cap: Option<f64>,
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
    /// Memory limit of the child's whole process tree in MiB (`None`: none): the cgroup's
    /// limit, or without cgroups a cap on the worker's address space.
    pub memory_mb: Option<u64>,
}

/// Where a child runs: its CPUs and the cgroups it is measured in.
#[derive(Clone, Copy, Debug, Default)]
pub struct Placement<'a> {
    /// Logical CPUs the child is pinned to (empty: not pinned).
    pub cpus: &'a [usize],
    /// The sweep's cgroups (`None`: measure with rusage).
    pub cgroups: Option<&'a Cgroups>,
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
    /// The kernel killed a process of the run for exceeding the cgroup's memory limit, and
    /// the worker printed no record.
    MemoryLimit,
    /// It died or exited without a record; the reason says how.
    Failed(String),
}

/// What the parent measured of a child's whole process tree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measurement {
    /// Wall-clock seconds from the start of the run (making its cgroup, spawning) to the
    /// child's exit, as the parent saw them.
    pub wall_seconds: f64,
    /// CPU seconds, user + system, of the process tree.
    pub cpu_seconds: Option<f64>,
    /// Peak memory in MiB.
    pub peak_memory_mb: Option<f64>,
    /// `cgroup2`, `cgroup1` or `rusage` (see [`Record::measured_by`]).
    pub measured_by: String,
    /// The memory limit applied, MiB.
    pub memory_limit_mb: Option<u64>,
    /// Processes the kernel killed at the cgroup's memory limit.
    pub oom_kills: u64,
}

/// The result of one isolated run.
#[derive(Clone, Debug, PartialEq)]
pub struct Isolated {
    /// How the child ended.
    pub ending: Ending,
    /// What was measured.
    pub measurement: Measurement,
}

/// A child process that ran to its end (or was killed), with its output.
#[derive(Debug)]
pub struct Finished {
    /// Its exit status (`None`: lost track of it).
    pub exit: Option<std::process::ExitStatus>,
    /// Why the parent killed it, if it did.
    pub killed: Option<Kill>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// What was measured.
    pub measurement: Measurement,
}

/// Why the parent killed a child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    /// The hard wall-clock limit passed.
    HardLimit,
    /// The stop flag was raised.
    Stopped,
}

/// Runs `cmd` with `input` on its standard input, pinned and measured as `placement` says,
/// under `limits`; polls `stop`. Every process the child starts is measured with it (in
/// its cgroup; with rusage, those it waits for) and killed when it ends: the whole cgroup,
/// and the child's process group.
pub fn run_command(
    mut cmd: Command,
    input: Vec<u8>,
    limits: Limits,
    placement: Placement<'_>,
    stop: &AtomicBool,
) -> Result<Finished, String> {
    let start = Instant::now();
    let group = placement
        .cgroups
        .map(|c| c.run(limits.memory_mb))
        .transpose()
        .unwrap_or_else(|e| {
            eprintln!("warning: cannot make the run's cgroup ({e}); measuring with rusage");
            None
        });
    if group.is_none() {
        // Without a cgroup of its own, a driver forked by a fork server would be measured
        // and limited with nothing: the worker's drivers start cold.
        cmd.env(crate::engines::warm::WARM_VAR, "0");
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: a Ctrl-C at the terminal reaches the parent only, which
        // then kills the child itself and writes no partial row.
        .process_group(0);
    let fds = group.as_ref().map(|g| g.enter_fds()).unwrap_or_default();
    let cpus = placement.cpus.to_vec();
    let address_cap = match (&group, limits.memory_mb) {
        (None, Some(mb)) => Some(mb.saturating_mul(1024 * 1024) as libc::rlim_t),
        _ => None,
    };
    // SAFETY: between fork and exec the hook makes system calls only (sched_setaffinity,
    // write, setrlimit) on data prepared before the fork.
    unsafe {
        cmd.pre_exec(move || {
            crate::cgroups::enter(&fds)?;
            if !cpus.is_empty() {
                crate::cores::set_affinity(&cpus)?;
            }
            if let Some(bytes) = address_cap {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().map_err(|e| format!("cannot start {e}"))?;
    let pid = child.id() as libc::pid_t;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
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
        let _ = tx.send((rc, status, usage));
    });
    let deadline = limits
        .hard_seconds
        .map(|s| start + Duration::from_secs_f64(s));
    let mut killed: Option<Kill> = None;
    let kill_tree = |group: &Option<crate::cgroups::RunCgroup>| {
        kill_group(pid);
        if let Some(g) = group {
            g.kill_all();
        }
    };
    let (rc, status, usage) = loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(r) => break r,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // SAFETY: all-zero rusage is a valid value.
                break (-1, 0, unsafe { std::mem::zeroed() });
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if killed.is_some() {
            continue;
        }
        let reason = if stop.load(Ordering::SeqCst) {
            Some(Kill::Stopped)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Kill::HardLimit)
        } else {
            None
        };
        if let Some(r) = reason {
            kill_tree(&group);
            killed = Some(r);
        }
    };
    let wall_seconds = start.elapsed().as_secs_f64();
    // Whatever the worker left behind (a solver it started and did not wait for) goes too,
    // before the pipes are read to their end.
    kill_tree(&group);
    let _ = writer.join();
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    drop(child);
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let measurement = match &group {
        Some(g) => {
            let u = g.usage();
            Measurement {
                wall_seconds,
                cpu_seconds: u.cpu_seconds,
                peak_memory_mb: u.peak_memory_mb,
                measured_by: g.version().key().into(),
                memory_limit_mb: limits.memory_mb,
                oom_kills: u.oom_kills,
            }
        }
        None => Measurement {
            wall_seconds,
            cpu_seconds: (rc > 0).then(|| tv(usage.ru_utime) + tv(usage.ru_stime)),
            peak_memory_mb: (rc > 0 && usage.ru_maxrss > 0)
                .then(|| usage.ru_maxrss as f64 / 1024.0),
            measured_by: crate::cgroups::RUSAGE.into(),
            memory_limit_mb: limits.memory_mb,
            oom_kills: 0,
        },
    };
    drop(group);
    Ok(Finished {
        exit: (rc > 0).then(|| std::process::ExitStatus::from_raw(status)),
        killed,
        stdout,
        stderr,
        measurement,
    })
}

/// Kills every process of the process group `pgid` (the worker's: the worker and what it
/// started, unless they left the group) and waits, up to a second, until none is left.
fn kill_group(pgid: libc::pid_t) {
    let deadline = Instant::now() + Duration::from_secs(1);
    // SAFETY: plain system calls on our child's process group (its id stays ours while
    // any member lives).
    while unsafe { libc::kill(-pgid, libc::SIGKILL) } == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Runs `job` in a child process of `exe` (`exe worker`) and waits for it under `limits`,
/// placed as `placement` says. `stop` is polled: when it becomes true the child is killed
/// and [`Ending::Stopped`] returned.
pub fn run_isolated(
    exe: &Path,
    job: &Job,
    limits: Limits,
    placement: Placement<'_>,
    stop: &AtomicBool,
) -> Isolated {
    let start = Instant::now();
    let mut cmd = Command::new(exe);
    cmd.arg("worker");
    // The engine's fork server, started here (outside every run's cgroup) when the run
    // has a cgroup to move the driver into; else its drivers start cold.
    let warm = crate::engines::warm::worker_env(job.engine.driver(), placement.cgroups.is_some());
    cmd.envs(warm);
    let job_json = serde_json::to_vec(job).expect("job serialises");
    let done = match run_command(cmd, job_json, limits, placement, stop) {
        Ok(d) => d,
        Err(e) => {
            return Isolated {
                ending: Ending::Failed(format!("the worker: {e}")),
                measurement: Measurement {
                    wall_seconds: start.elapsed().as_secs_f64(),
                    ..Measurement::default()
                },
            }
        }
    };
    let ending = match (done.killed, done.exit) {
        (Some(Kill::Stopped), _) => Ending::Stopped,
        (Some(Kill::HardLimit), _) => Ending::HardLimit,
        (None, None) => Ending::Failed("lost track of the worker process".into()),
        (None, Some(exit)) => {
            let record = done
                .stdout
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .and_then(|l| serde_json::from_str::<Record>(l).ok());
            match (exit.success(), record) {
                (true, Some(r)) => Ending::Finished(Box::new(r)),
                _ if done.measurement.oom_kills > 0 => Ending::MemoryLimit,
                _ if killed_from_outside(exit) && stopping_soon(stop) => Ending::Stopped,
                _ => Ending::Failed(describe_failure(exit, &done.stderr, limits)),
            }
        }
    };
    Isolated {
        ending,
        measurement: done.measurement,
    }
}

/// Whether a signal that stops a whole job killed the worker: SIGTERM, SIGINT or SIGHUP,
/// which the parent never sends (it kills with SIGKILL). A batch system that requeues or
/// cancels a task sends SIGTERM to every process of it at once.
fn killed_from_outside(exit: std::process::ExitStatus) -> bool {
    matches!(
        exit.signal(),
        Some(libc::SIGTERM | libc::SIGINT | libc::SIGHUP)
    )
}

/// Whether the sweep is stopping, waiting up to 2 s for it: the parent's own signal may
/// arrive a little after its worker died of the same one, and a worker killed because the
/// whole job stops is not a result.
fn stopping_soon(stop: &AtomicBool) -> bool {
    let deadline = Instant::now() + std::time::Duration::from_secs(2);
    while Instant::now() < deadline {
        if stop.load(std::sync::atomic::Ordering::SeqCst) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    stop.load(std::sync::atomic::Ordering::SeqCst)
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
