//! `puzzlebench slurm (run|reproduce) ARGS --array N --out DIR`: a sweep as a SLURM job
//! array. It plans the sweep here (so bad arguments fail now, not on the cluster), splits
//! it into N shards ([`crate::shard`]) and writes into DIR:
//!
//! - `array.sbatch`: the job array; task I runs `run|reproduce ARGS --shard I/N --resume`
//!   into its own results file, on as many CPUs as the sweep's `--jobs` times its threads,
//!   with a time limit derived from the plan (the largest shard's time limits and grace
//!   summed, plus a margin); `--requeue`, so a preempted or requeued task starts again and
//!   `--resume` skips the runs it finished;
//! - `merge.sbatch`: merges the shards' results (`puzzlebench merge`) and writes the report
//!   (`puzzlebench report`);
//! - `submit.sh`: submits the array and the merge job, the latter with
//!   `--dependency=afterany` on the array, and prints their job ids.
//!
//! With `--submit` it runs `submit.sh` too.

use super::{bad_input, failed, Failure};
use crate::commands::reproduce::{self, ReproduceConfig};
use crate::commands::run::{self, RunConfig};
use crate::shard::{self, Shard};
use std::path::{Path, PathBuf};

/// The help of `puzzlebench slurm`.
pub const HELP: &str = "\
Write (and with --submit, submit) a sweep as a SLURM job array

Usage: puzzlebench slurm run ARGS... --array N --out DIR [OPTIONS]
       puzzlebench slurm reproduce ARGS... --array N --out DIR [OPTIONS]

ARGS are the arguments of `puzzlebench run` or `puzzlebench reproduce` (see their --help),
without --out, --shard and --resume, which each task gets: task I of N runs
`puzzlebench run|reproduce ARGS --shard I/N --resume` into DIR/shard-I-of-N.csv (run) or
DIR/shard-I-of-N/results.csv (reproduce). The sweep is planned here first, so bad arguments
fail now. Files written into DIR:
  array.sbatch   the job array (one task per shard, --requeue, logs in DIR/logs/)
  merge.sbatch   merges the shards into DIR/results.csv and writes the report into
                 DIR/report/ (run after the whole array, whatever its tasks' exit status)
  submit.sh      submits both (the merge job with --dependency=afterany:ARRAY)

Options:
  --array N            Tasks of the array, i.e. shards of the sweep (required)
  --out DIR            Folder of the scripts, logs and results (required)
  --task-time T        Time limit of each task in SLURM's format (minutes, H:MM:SS or
                       D-HH:MM:SS). Default: the largest shard's runs' time limits plus the
                       grace of each, summed, plus 10% and 10 minutes; required when some
                       run has no time limit
  --partition P        #SBATCH --partition
  --account A          #SBATCH --account
  --sbatch OPTION      Another #SBATCH line, e.g. --sbatch=--qos=short (repeatable)
  --exe PATH           The puzzlebench executable the tasks run (default: this one; it
                       must be reachable at that path on the compute nodes)
  --keep-machines-apart
                       Report the rows of different nodes apart (default: pooled, with a
                       note per node in every table: nodes of one cluster differ at least
                       in their host names)
  --submit             Submit with sbatch right away (runs DIR/submit.sh)
  -h, --help           Print this help
";

/// The sweep a SLURM job array runs, parsed from the forwarded arguments.
pub enum Sweep {
    /// `puzzlebench run`.
    Run(Box<RunConfig>),
    /// `puzzlebench reproduce`.
    Reproduce(Box<ReproduceConfig>),
}

impl Sweep {
    fn command(&self) -> &'static str {
        match self {
            Sweep::Run(_) => "run",
            Sweep::Reproduce(_) => "reproduce",
        }
    }
}

/// The options of `slurm` itself, taken out of its arguments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlurmOptions {
    /// Tasks of the array.
    pub array: usize,
    /// Folder of the scripts, logs and results.
    pub dir: PathBuf,
    /// Time limit of each task, SLURM's format.
    pub task_time: Option<String>,
    /// `#SBATCH --partition`.
    pub partition: Option<String>,
    /// `#SBATCH --account`.
    pub account: Option<String>,
    /// More `#SBATCH` lines.
    pub sbatch: Vec<String>,
    /// The executable the tasks run.
    pub exe: Option<PathBuf>,
    /// Keep the rows of different nodes apart in the report.
    pub keep_machines_apart: bool,
    /// Submit right away.
    pub submit: bool,
    /// `--help` was asked for.
    pub help: bool,
}

/// Takes the options of `slurm` out of `args` (in any position, `--opt value` or
/// `--opt=value`) and returns them with the arguments left for the sweep. `--out`,
/// `--shard` and `--resume` belong to the tasks and are refused or dropped here; so is
/// `reproduce --fresh`, which would set a requeued task's results aside.
pub fn split_args(args: &[String]) -> Result<(SlurmOptions, Vec<String>), Failure> {
    let mut o = SlurmOptions::default();
    let mut rest = Vec::new();
    let mut array = None;
    let mut dir = None;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let takes_value = matches!(
            name,
            "--array"
                | "--out"
                | "--task-time"
                | "--partition"
                | "--account"
                | "--sbatch"
                | "--exe"
        );
        let value = if takes_value {
            match inline {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    Some(
                        args.get(i)
                            .cloned()
                            .ok_or_else(|| bad_input(format!("slurm: {name} needs a value")))?,
                    )
                }
            }
        } else {
            None
        };
        match name {
            "--array" => {
                let v = value.expect("a value");
                let n: usize = v.parse().map_err(|_| {
                    bad_input(format!("slurm: --array {v}: not a number of tasks"))
                })?;
                if n == 0 {
                    return Err(bad_input("slurm: --array must be at least 1"));
                }
                array = Some(n);
            }
            "--out" => dir = value.map(PathBuf::from),
            "--task-time" => {
                let v = value.expect("a value");
                if v.is_empty() || !v.chars().all(|c| c.is_ascii_digit() || c == ':' || c == '-')
                {
                    return Err(bad_input(format!(
                        "slurm: --task-time {v}: not a SLURM time (minutes, H:MM:SS or D-HH:MM:SS)"
                    )));
                }
                o.task_time = Some(v);
            }
            "--partition" => o.partition = value,
            "--account" => o.account = value,
            "--sbatch" => o.sbatch.push(value.expect("a value")),
            "--exe" => o.exe = value.map(PathBuf::from),
            "--keep-machines-apart" => o.keep_machines_apart = true,
            "--submit" => o.submit = true,
            "-h" | "--help" => o.help = true,
            "--resume" => {}
            "--shard" | "--fresh" | "--in-process" | "--dry-run" => {
                return Err(bad_input(format!(
                    "slurm: {name} does not go with a job array (each task gets its own --shard and --resume)"
                )))
            }
            _ => rest.push(a.clone()),
        }
        i += 1;
    }
    if o.help {
        return Ok((o, rest));
    }
    o.array = array.ok_or_else(|| bad_input("slurm: --array N is required (see slurm --help)"))?;
    o.dir = dir.ok_or_else(|| bad_input("slurm: --out DIR is required (see slurm --help)"))?;
    Ok((o, rest))
}

/// Quotes `s` for bash when it needs it.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=,@%+-".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `D-HH:MM:SS` (or `HH:MM:SS`) of `seconds`, rounded up to a minute.
pub fn slurm_time(seconds: f64) -> String {
    let minutes = (seconds / 60.0).ceil().max(1.0) as u64;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:00")
    } else {
        format!("{h:02}:{m:02}:00")
    }
}

/// What the plan says about the array: the summary, each shard's estimated seconds and
/// hard limit, and the CPUs and memory of a task.
struct Sizing {
    summary: String,
    plan_digest: String,
    partition_digest: String,
    loads: Vec<f64>,
    hard_limits: Vec<Option<f64>>,
    cpus: usize,
    memory_mb: Option<u64>,
    runs: usize,
}

fn size(sweep: &Sweep, count: usize) -> Result<Sizing, Failure> {
    let shard = Shard { index: 1, count };
    match sweep {
        Sweep::Run(c) => {
            let plan = run::plan(c)?;
            let costs = run::read_costs(&c.costs)?;
            let sel = shard::select(&plan.run_costs(), &costs, shard, c.grace);
            Ok(Sizing {
                plan_digest: sel.record.plan_digest.clone(),
                partition_digest: sel.record.partition_digest.clone(),
                summary: sel.plan_summary,
                loads: sel.loads,
                hard_limits: sel.hard_limits,
                cpus: c.measuring.jobs.max(1) * plan.max_threads(),
                memory_mb: c.measuring.memory_limit,
                runs: sel.record.plan_runs,
            })
        }
        Sweep::Reproduce(c) => {
            let engines = reproduce::EngineChoice::new(c.engines.as_deref(), &c.without)?;
            let chosen = reproduce::chosen_puzzles(&c.puzzles)?;
            let suites = reproduce::plan_all(c, &engines, &chosen)?;
            let costs = run::read_costs(&c.costs)?;
            let sel = shard::select(
                &reproduce::run_costs(&suites),
                &costs,
                shard,
                reproduce::GRACE_SECONDS,
            );
            Ok(Sizing {
                plan_digest: sel.record.plan_digest.clone(),
                partition_digest: sel.record.partition_digest.clone(),
                summary: sel.plan_summary,
                loads: sel.loads,
                hard_limits: sel.hard_limits,
                cpus: c.measuring.jobs.max(1),
                memory_mb: c.measuring.memory_limit,
                runs: sel.record.plan_runs,
            })
        }
    }
}

/// Writes the scripts for `sweep` (parsed from `forwarded`) into `o.dir`, and submits them
/// with `o.submit`.
pub fn slurm(sweep: Sweep, forwarded: &[String], o: &SlurmOptions) -> Result<(), Failure> {
    let n = o.array;
    let sizing = size(&sweep, n)?;
    let what = sweep.command();
    let task_time = match (&o.task_time, sizing.hard_limits.iter().copied().collect::<Option<Vec<f64>>>()) {
        (Some(t), _) => t.clone(),
        (None, Some(limits)) => {
            let worst = limits.iter().copied().fold(0.0, f64::max);
            slurm_time(worst * 1.1 + 600.0)
        }
        (None, None) => {
            return Err(bad_input(
                "slurm: some runs have no time limit, so no task time follows from the plan; give the sweep a --time-limit, or the array a --task-time",
            ))
        }
    };
    if sizing.runs < n {
        eprintln!(
            "warning: {n} tasks for {} runs: {} tasks will have nothing to do",
            sizing.runs,
            n - sizing.runs
        );
    }
    std::fs::create_dir_all(o.dir.join("logs"))
        .map_err(|e| bad_input(format!("{}: {e}", o.dir.display())))?;
    let dir = o
        .dir
        .canonicalize()
        .map_err(|e| failed(format!("{}: {e}", o.dir.display())))?;
    let cwd = std::env::current_dir().map_err(|e| failed(format!("the current folder: {e}")))?;
    let exe = match &o.exe {
        Some(e) => e.clone(),
        None => super::own_executable()?,
    };
    let exe = if exe.is_absolute() {
        exe
    } else {
        cwd.join(exe)
    };
    let width = n.to_string().len();
    let args = forwarded
        .iter()
        .map(|a| quote(a))
        .collect::<Vec<_>>()
        .join(" ");
    let made_by = format!("puzzlebench slurm {what} {args}");
    let head = vec![
        "#!/bin/bash".to_string(),
        format!("# Made by `{made_by}`"),
        format!("# on {}.", chrono::Utc::now().format("%Y-%m-%d %H:%M UTC")),
    ];
    let sbatch = |lines: &mut Vec<String>, extra: &[String]| {
        if let Some(p) = &o.partition {
            lines.push(format!("#SBATCH --partition={p}"));
        }
        if let Some(a) = &o.account {
            lines.push(format!("#SBATCH --account={a}"));
        }
        for s in &o.sbatch {
            lines.push(format!("#SBATCH {s}"));
        }
        lines.extend(extra.iter().cloned());
    };
    let q = |p: &Path| quote(&p.display().to_string());
    let (task_out, shard_files) = match what {
        "run" => (
            "\"$dir/$name.csv\"".to_string(),
            (1..=n)
                .map(|i| shard::shard_csv(&dir, i, n))
                .collect::<Vec<_>>(),
        ),
        _ => (
            "\"$dir/$name\"".to_string(),
            (1..=n)
                .map(|i| dir.join(shard::shard_stem(i, n)).join("results.csv"))
                .collect(),
        ),
    };
    // Shards of another sweep in DIR would be resumed into, and merged with, this one.
    for f in &shard_files {
        for sweep in crate::machine::read_sweeps(f).map_err(bad_input)? {
            if let Some(r) = sweep.shard {
                if r.plan_digest != sizing.plan_digest
                    || r.partition_digest != sizing.partition_digest
                {
                    return Err(bad_input(format!(
                        "slurm: {} is a shard of another sweep (`{}`); choose another --out, or the same arguments",
                        f.display(),
                        sweep.command
                    )));
                }
            }
        }
    }
    let mut array = head.clone();
    array.push(format!(
        "# The plan: {}.\n# Each task's time limit: {task_time} ({}).",
        sizing.summary,
        if o.task_time.is_some() {
            "--task-time".to_string()
        } else {
            "the largest shard's time limits and grace summed, plus 10% and 10 minutes".into()
        }
    ));
    array.push(format!(
        "# Estimated seconds per shard: {}.",
        sizing
            .loads
            .iter()
            .map(|l| format!("{l:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut extra = vec![
        "#SBATCH --job-name=puzzlebench".to_string(),
        format!("#SBATCH --array=1-{n}"),
        "#SBATCH --ntasks=1".into(),
        format!("#SBATCH --cpus-per-task={}", sizing.cpus),
        format!("#SBATCH --time={task_time}"),
        "#SBATCH --requeue".into(),
        "#SBATCH --open-mode=append".into(),
        format!("#SBATCH --output={}/logs/%x-%a.log", dir.display()),
        format!("#SBATCH --chdir={}", cwd.display()),
    ];
    if let Some(mb) = sizing.memory_mb {
        // The runs' own limit for each worker at once, and room for the sweep's parent.
        extra.push(format!(
            "#SBATCH --mem={}M",
            mb * jobs_of(&sweep) as u64 + 1024
        ));
    }
    sbatch(&mut array, &extra);
    array.extend([
        "set -euo pipefail".to_string(),
        "# The folder the sweep was planned in (its instance paths are relative to it); also".into(),
        "# --chdir above, and here for running this script by hand (SLURM_ARRAY_TASK_ID=1 bash ...).".into(),
        format!("cd {}", q(&cwd)),
        format!("dir={}", q(&dir)),
        format!("n={n}"),
        "i=${SLURM_ARRAY_TASK_ID:?not in a SLURM array task}".into(),
        format!("name=$(printf 'shard-%0{width}d-of-%d' \"$i\" \"$n\")"),
        "echo \"shard $i/$n on $(hostname), start $((${SLURM_RESTART_COUNT:-0} + 1)), $(date -u +%Y-%m-%dT%H:%M:%SZ)\"".into(),
        format!(
            "exec {} {what} {args} --shard \"$i/$n\"{} --out {task_out}",
            q(&exe),
            // reproduce always resumes its results file.
            if what == "run" { " --resume" } else { "" }
        ),
    ]);
    let merged = dir.join("results.csv");
    let mut merge = head;
    merge.push("# Merges the shards of the array and writes the report.".into());
    sbatch(
        &mut merge,
        &[
            "#SBATCH --job-name=puzzlebench-merge".to_string(),
            "#SBATCH --ntasks=1".into(),
            "#SBATCH --cpus-per-task=1".into(),
            "#SBATCH --time=01:00:00".into(),
            "#SBATCH --open-mode=append".into(),
            format!("#SBATCH --output={}/logs/%x.log", dir.display()),
            format!("#SBATCH --chdir={}", cwd.display()),
        ],
    );
    merge.extend([
        "set -euo pipefail".to_string(),
        format!("cd {}", q(&cwd)),
        "# A shard whose task never started has no file; merge names its runs as missing.".into(),
        "files=()".into(),
        format!(
            "for f in {}; do",
            shard_files
                .iter()
                .map(|f| q(f))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        "  if [ -e \"$f\" ]; then files+=(\"$f\"); fi".into(),
        "done".into(),
        "if [ ${#files[@]} -eq 0 ]; then echo \"no shard wrote a results file: see the array's logs\" >&2; exit 1; fi".into(),
        format!("{} merge \"${{files[@]}}\" --out {}", q(&exe), q(&merged)),
        format!(
            "{} report {} --out {}{}",
            q(&exe),
            q(&merged),
            q(&dir.join("report")),
            if o.keep_machines_apart {
                ""
            } else {
                " --pool-machines"
            }
        ),
    ]);
    let submit = vec![
        "#!/bin/bash".to_string(),
        format!("# Submits the array of `{made_by}` and its merge job."),
        "set -euo pipefail".into(),
        "cd \"$(dirname \"$0\")\"".into(),
        "array=$(sbatch --parsable array.sbatch)".into(),
        "array=${array%%;*}".into(),
        "merge=$(sbatch --parsable --dependency=afterany:\"$array\" merge.sbatch)".into(),
        "merge=${merge%%;*}".into(),
        format!(
            "echo \"submitted array job $array ({n} tasks) and merge job $merge; the merged rows go to {}, the report to {}\"",
            merged.display(),
            dir.join("report").display()
        ),
    ];
    for (name, lines) in [
        ("array.sbatch", &array),
        ("merge.sbatch", &merge),
        ("submit.sh", &submit),
    ] {
        let path = dir.join(name);
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(&path, text).map_err(|e| failed(format!("{}: {e}", path.display())))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| failed(format!("{}: {e}", path.display())))?;
    }
    eprintln!(
        "the plan: {}\nwrote {}/array.sbatch ({n} tasks of {} CPU(s), --time={task_time}), merge.sbatch and submit.sh",
        sizing.summary,
        dir.display(),
        sizing.cpus
    );
    if o.submit {
        let status = std::process::Command::new("bash")
            .arg(dir.join("submit.sh"))
            .status()
            .map_err(|e| failed(format!("cannot run submit.sh: {e}")))?;
        if !status.success() {
            return Err(failed(format!(
                "submitting failed ({status}); is sbatch on the PATH and the cluster up?"
            )));
        }
    } else {
        eprintln!("submit with: bash {}", dir.join("submit.sh").display());
    }
    Ok(())
}

/// The sweep's `--jobs`: the workers a task runs at once.
fn jobs_of(sweep: &Sweep) -> usize {
    match sweep {
        Sweep::Run(c) => c.measuring.jobs.max(1),
        Sweep::Reproduce(c) => c.measuring.jobs.max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn slurm_options_are_taken_out_wherever_they_stand() {
        let (o, rest) = split_args(&strings(&[
            "--puzzle",
            "sudoku",
            "--array=4",
            "--instances",
            "a b",
            "--out",
            "dir",
            "--resume",
            "--sbatch",
            "--qos=short",
            "--time-limit",
            "10",
        ]))
        .unwrap();
        assert_eq!(o.array, 4);
        assert_eq!(o.dir, PathBuf::from("dir"));
        assert_eq!(o.sbatch, ["--qos=short"]);
        assert_eq!(
            rest,
            strings(&[
                "--puzzle",
                "sudoku",
                "--instances",
                "a b",
                "--time-limit",
                "10"
            ])
        );
        assert!(split_args(&strings(&["--out", "d"])).is_err(), "no --array");
        assert!(split_args(&strings(&["--array", "2"])).is_err(), "no --out");
        let e =
            split_args(&strings(&["--array", "2", "--out", "d", "--shard", "1/2"])).unwrap_err();
        assert!(e.message.contains("--shard"), "{}", e.message);
        assert!(split_args(&strings(&["--array", "0", "--out", "d"])).is_err());
        assert!(split_args(&strings(&[
            "--array",
            "2",
            "--out",
            "d",
            "--task-time",
            "1h"
        ]))
        .is_err());
    }

    #[test]
    fn quoting_and_times() {
        assert_eq!(quote("instances/sudoku"), "instances/sudoku");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(slurm_time(59.0), "00:01:00");
        assert_eq!(slurm_time(3601.0), "01:01:00");
        assert_eq!(slurm_time(90000.0), "1-01:00:00");
    }
}
