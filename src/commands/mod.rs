//! What each `puzzlebench` subcommand does. The binary (`src/main.rs`) parses the command
//! line into the configurations defined here and calls one function; everything else,
//! including the planning of `reproduce`, the worker side of process isolation and the
//! generators, is in the library.

pub mod diff;
pub mod engine_check;
pub mod export;
pub mod generate;
pub mod list;
pub mod measuring;
pub mod merge;
pub mod race;
pub mod report;
pub mod reproduce;
pub mod run;
pub mod slurm;
pub mod solve;
pub mod worker;

use crate::engines::Engine;
use crate::puzzles::Puzzle;
use crate::record::Record;
use crate::runner::Loaded;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// A failure and its exit code: 2 for bad input, 1 for a run that failed, 130 for a stop
/// by a signal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The process's exit code.
    pub code: u8,
    /// What went wrong, one line.
    pub message: String,
}

impl Failure {
    /// A failure with `code`.
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
}

/// Bad input (exit code 2).
pub fn bad_input(e: impl ToString) -> Failure {
    Failure::new(2, e.to_string())
}

/// A failure of the work itself (exit code 1).
pub fn failed(e: impl ToString) -> Failure {
    Failure::new(1, e.to_string())
}

/// Parses engine keys; the error lists the valid ones.
pub fn parse_engines(keys: &[String]) -> Result<Vec<Engine>, Failure> {
    keys.iter()
        .map(|b| b.parse())
        .collect::<Result<_, _>>()
        .map_err(bad_input)
}

/// Checks a `--time-limit`: a positive, finite number of seconds.
pub fn check_time_limit(t: Option<f64>) -> Result<(), Failure> {
    match t {
        Some(t) if !(t > 0.0 && t.is_finite()) => Err(bad_input(format!(
            "--time-limit must be a positive number of seconds, not {t}"
        ))),
        _ => Ok(()),
    }
}

/// Checks a `--shift` of the shifted geometric mean: a finite number, 0 or more.
pub fn check_shift(shift: f64) -> Result<(), Failure> {
    if shift >= 0.0 && shift.is_finite() {
        Ok(())
    } else {
        Err(bad_input(format!(
            "--shift must be 0 or more seconds, not {shift}"
        )))
    }
}

/// Every instance file named: files as they are, folders as their files (not `*.md`, and not
/// `ladder*.txt`, the ladders of `race`), sorted.
pub fn instance_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| bad_input(format!("{}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && crate::puzzles::is_instance_file(f))
                .collect();
            inner.sort();
            files.extend(inner);
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            return Err(bad_input(format!(
                "{}: no such file or folder",
                p.display()
            )));
        }
    }
    Ok(files)
}

/// Why `paths` gave no instance files: each folder among them holds none, and, where it
/// has subfolders, their names (folders are not searched recursively).
pub fn no_instances(paths: &[PathBuf]) -> String {
    let folders: Vec<String> = paths
        .iter()
        .filter(|p| p.is_dir())
        .map(|p| empty_folder(p))
        .collect();
    if folders.is_empty() {
        "no instance files found".to_string()
    } else {
        folders.join("; ")
    }
}

/// What an empty folder holds instead of instance files.
fn empty_folder(dir: &Path) -> String {
    let mut subfolders: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|d| d.is_dir())
                .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().to_string()))
                .collect()
        })
        .unwrap_or_default();
    subfolders.sort();
    if subfolders.is_empty() {
        format!("{}: no instance files in this folder", dir.display())
    } else {
        format!(
            "{}: no instance files in this folder, only subfolders ({}), which are not searched: name them",
            dir.display(),
            subfolders.join(", ")
        )
    }
}

/// Loads every instance of the named files and folders.
pub fn load_instances(p: &dyn Puzzle, paths: &[PathBuf]) -> Result<Vec<Loaded>, Failure> {
    let mut instances = Vec::new();
    for f in instance_files(paths)? {
        for instance in p.load(&f).map_err(bad_input)? {
            instances.push(Loaded {
                file: f.clone(),
                instance,
            });
        }
    }
    Ok(instances)
}

/// A progress bar on standard error (hidden with `quiet`).
pub fn progress_bar(total: u64, quiet: bool, prefix: &str) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} {elapsed_precise} [{bar:30}] {pos}/{len} eta {eta} {msg}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    bar.set_prefix(prefix.to_string());
    bar
}

/// What a sweep's progress bar shows after each row: the run that ended, and one more
/// step.
pub fn show_row(bar: &ProgressBar, r: &Record) {
    bar.set_message(format!(
        "{} {} {} {}",
        r.instance,
        r.formulation,
        r.backend_label(),
        r.status
    ));
    bar.inc(1);
}

/// Why a run counts as a failure for the exit code, or None when it solved or proved
/// infeasibility, or was refused (not a failure: nothing ran; see [`refusal_reason`]).
pub fn failure_reason(r: &Record) -> Option<String> {
    match r.status.as_str() {
        "infeasible" | "refused" => None,
        "optimal" | "feasible" if r.verified == Some(true) => None,
        "optimal" | "feasible" => Some(format!(
            "the verifier refused the solution: {}",
            r.error.clone().unwrap_or_default()
        )),
        s => Some(format!(
            "{s}{}",
            r.error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        )),
    }
}

/// Why a refused run was refused (its `error`, without the leading "refused: "), or None
/// for a run that was not.
pub fn refusal_reason(r: &Record) -> Option<&str> {
    r.is_refused().then(|| {
        let why = r.error.as_deref().unwrap_or("no reason given");
        why.strip_prefix("refused: ").unwrap_or(why)
    })
}

/// One line per configuration (formulation on engine label) with refused runs among
/// `rows`: how many, and the reason of the first (refusals are listed apart from the
/// failures: nothing ran).
pub fn refusal_lines(rows: &[Record]) -> Vec<String> {
    let mut by: std::collections::BTreeMap<(String, String), (usize, &str)> = Default::default();
    for r in rows {
        if let Some(why) = refusal_reason(r) {
            by.entry((r.formulation.clone(), r.backend_label()))
                .or_insert((0, why))
                .0 += 1;
        }
    }
    by.into_iter()
        .map(|((f, e), (n, why))| {
            let runs = if n == 1 { "run" } else { "runs" };
            format!("{f} on {e}: {n} {runs} refused, not run: {why}")
        })
        .collect()
}

/// The flag that SIGINT and SIGTERM set (the handler is installed on first use), so that a
/// sweep stops cleanly, keeping every row written.
pub fn stop_flag() -> Result<&'static AtomicBool, Failure> {
    static STOP: AtomicBool = AtomicBool::new(false);
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst))
                .map_err(|e| format!("cannot install the signal handler: {e}"))
        })
        .clone()
        .map_err(failed)?;
    Ok(&STOP)
}

/// The running executable, which serves as worker.
pub fn own_executable() -> Result<PathBuf, Failure> {
    std::env::current_exe().map_err(|e| failed(format!("cannot find my own executable: {e}")))
}
