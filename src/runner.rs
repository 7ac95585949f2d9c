//! Runs: one (instance, formulation, backend, repeat) becomes one [`Record`], appended to
//! the results CSV and flushed as soon as the run ends.

use crate::backends::{Backend, SolveOptions, Status};
use crate::puzzles::{lp_bound, Instance, PuzzleInfo, Report};
use crate::record::Record;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Facts about the machine and build written into every row.
#[derive(Clone, Debug, Default)]
pub struct RunEnv {
    /// Commit of puzzlebench (set at build time).
    pub git_commit: String,
    /// Host name.
    pub host: String,
}

impl RunEnv {
    /// Reads the build's commit and this machine's host name.
    pub fn detect() -> Self {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        RunEnv {
            git_commit: env!("PUZZLEBENCH_GIT_COMMIT").to_string(),
            host,
        }
    }
}

/// What a sweep runs: every instance × formulation × backend × repeat.
pub struct Plan<'a> {
    /// The puzzle.
    pub puzzle: &'a PuzzleInfo,
    /// Loaded instances.
    pub instances: Vec<Box<dyn Instance>>,
    /// Formulation keys (checked against the puzzle).
    pub formulations: Vec<String>,
    /// Backends.
    pub backends: Vec<Backend>,
    /// Repeats per combination, from 1.
    pub repeats: u32,
    /// Solver settings.
    pub options: SolveOptions,
}

/// One run of a plan.
pub struct RunSpec<'a> {
    /// The instance.
    pub instance: &'a dyn Instance,
    /// Formulation key.
    pub formulation: &'a str,
    /// Backend.
    pub backend: Backend,
    /// Repeat number, from 1.
    pub repeat: u32,
}

impl Plan<'_> {
    /// The runs in order: instance, then formulation, then backend, then repeat.
    pub fn runs(&self) -> Vec<RunSpec<'_>> {
        let mut out = Vec::new();
        for inst in &self.instances {
            for f in &self.formulations {
                for &b in &self.backends {
                    for repeat in 1..=self.repeats {
                        out.push(RunSpec {
                            instance: inst.as_ref(),
                            formulation: f,
                            backend: b,
                            repeat,
                        });
                    }
                }
            }
        }
        out
    }
}

/// Fills a record from a report (or from the reason a run could not start).
pub fn to_record(
    puzzle: &str,
    spec: &RunSpec<'_>,
    options: &SolveOptions,
    env: &RunEnv,
    result: Result<Report, String>,
) -> Record {
    let mut r = Record {
        puzzle: puzzle.to_string(),
        instance: spec.instance.name().to_string(),
        formulation: spec.formulation.to_string(),
        backend: spec.backend.key().to_string(),
        repeat: spec.repeat,
        seed: options.seed,
        threads: options.threads,
        time_limit: options.time_limit,
        presolve: options.presolve,
        mip_gap: options.mip_gap,
        solver_version: spec.backend.version(),
        git_commit: env.git_commit.clone(),
        host: env.host.clone(),
        timestamp: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        ..Record::default()
    };
    match result {
        Err(e) => {
            r.status = Status::Error.key().into();
            r.error = Some(e);
        }
        Ok(rep) => {
            let o = &rep.outcome;
            r.status = o.status.key().into();
            r.seconds = Some(o.seconds);
            r.build_seconds = Some(rep.build_seconds);
            r.objective = o.objective;
            r.best_bound = o.best_bound;
            r.gap = o.gap;
            r.lp_bound = lp_bound(&rep);
            r.lp_seconds = rep.lp.as_ref().map(|l| l.seconds);
            r.nodes = o.nodes;
            r.variables = Some(rep.counts.variables);
            r.binaries = Some(rep.counts.binaries);
            r.integers = Some(rep.counts.integers);
            r.continuous = Some(rep.counts.continuous);
            r.constraints = Some(rep.counts.constraints);
            r.nonzeros = Some(rep.counts.nonzeros);
            r.verified = rep.verified();
            r.rounds = rep.rounds;
            r.cuts = rep.cuts;
            r.fixings = rep.fixings;
            r.inferences = rep.inferences;
            r.error = o.message.clone().or_else(|| {
                rep.answer
                    .as_ref()
                    .and_then(|a| a.verdict.clone().err())
                    .map(|e| format!("verifier: {e}"))
            });
        }
    }
    r
}

/// Runs one spec in this process.
pub fn run_in_process(
    puzzle: &str,
    spec: &RunSpec<'_>,
    options: &SolveOptions,
    env: &RunEnv,
) -> Record {
    let result = spec.instance.solve(spec.formulation, spec.backend, options);
    to_record(puzzle, spec, options, env, result)
}

/// An append-only results file: header written once, every row flushed as it comes.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens `path` for appending, creating it with the header when it is new or empty.
    /// An existing file must start with the same header; nothing in it is overwritten.
    pub fn open(path: &Path) -> Result<Self, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot create folder: {e}", dir.display()))?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        let mut existing = String::new();
        file.read_to_string(&mut existing)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let header = Record::header().join(",");
        if existing.is_empty() {
            writeln!(file, "{header}").map_err(|e| format!("{}: {e}", path.display()))?;
        } else {
            let first = existing.lines().next().unwrap_or("");
            if first != header {
                return Err(format!(
                    "{}:1: the file's header is not puzzlebench's; write to a new file",
                    path.display()
                ));
            }
            if !existing.ends_with('\n') {
                return Err(format!(
                    "{}: the last line is incomplete (a killed run?); repair it or write to a new file",
                    path.display()
                ));
            }
        }
        file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
        Ok(ResultsFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one row and flushes it to the operating system.
    pub fn append(&mut self, record: &Record) -> Result<(), String> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(vec![]);
        w.serialize(record).map_err(|e| e.to_string())?;
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        // One write call per row, so a row is never interleaved with another.
        self.file
            .write_all(&bytes)
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.path.display()))
    }
}

/// Reads every row of a results CSV.
pub fn read_results(path: &Path) -> Result<Vec<Record>, String> {
    let mut rd = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (i, rec) in rd.deserialize().enumerate() {
        rows.push(rec.map_err(|e| format!("{}:{}: {e}", path.display(), i + 2))?);
    }
    Ok(rows)
}

/// Runs a whole plan, appending each row to `out` as it ends; `on_row` sees every row
/// (for progress). Returns the rows written.
pub fn sweep(
    plan: &Plan<'_>,
    out: &Path,
    env: &RunEnv,
    mut on_row: impl FnMut(&Record),
) -> Result<Vec<Record>, String> {
    let mut file = ResultsFile::open(out)?;
    let mut rows = Vec::new();
    for spec in plan.runs() {
        let rec = run_in_process(plan.puzzle.key, &spec, &plan.options, env);
        file.append(&rec)?;
        on_row(&rec);
        rows.push(rec);
    }
    Ok(rows)
}
