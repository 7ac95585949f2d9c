//! `puzzlebench run`: a sweep of every instance × formulation × engine × settings ×
//! repeat, one CSV row each, each run in its own worker process.

use super::{
    bad_input, failure_reason, load_instances, own_executable, parse_engines, progress_bar,
    stop_flag, Failure,
};
use crate::engines::SolveOptions;
use crate::puzzles;
use crate::record::{self, Record};
use crate::report::summary;
use crate::runner::{self, Plan, PlanRequest, RunEnv};
use crate::shard::{Costs, Shard};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What to sweep and how.
pub struct RunConfig {
    /// Puzzle key.
    pub puzzle: String,
    /// Formulation keys (empty: all of the puzzle's).
    pub formulations: Vec<String>,
    /// Engine keys (empty: each formulation on the default engine of its kind).
    pub engines: Vec<String>,
    /// Instance files or folders.
    pub instances: Vec<PathBuf>,
    /// Repeats of every combination.
    pub repeats: u32,
    /// Results CSV (appended to).
    pub out: PathBuf,
    /// Shift of the shifted geometric mean in the summary.
    pub shift: f64,
    /// No progress bar.
    pub quiet: bool,
    /// Skip runs already in `out`.
    pub resume: bool,
    /// Workers, memory limit, cores, cgroups and run order.
    pub measuring: super::measuring::Measuring,
    /// Seconds a worker may run past its time limit before it is killed.
    pub grace: f64,
    /// Run in this process (no isolation).
    pub in_process: bool,
    /// The settings to sweep (one per `--heuristics` value).
    pub variants: Vec<SolveOptions>,
    /// Run only this shard of the plan (`--shard I/N`).
    pub shard: Option<Shard>,
    /// Results files of an earlier sweep whose times balance the shards (`--costs`).
    pub costs: Vec<PathBuf>,
    /// Only print what the plan costs ([`crate::shard::cost_table`]).
    pub dry_run: bool,
}

/// The whole plan of a `run` (every shard of it), checked.
pub fn plan(c: &RunConfig) -> Result<Plan, Failure> {
    let p = puzzles::puzzle(&c.puzzle).map_err(bad_input)?;
    let formulations: Vec<String> = if c.formulations.is_empty() {
        p.formulations().iter().map(|f| f.key.to_string()).collect()
    } else {
        c.formulations
            .iter()
            .map(|f| p.formulation(f).map(|f| f.key.to_string()))
            .collect::<Result<_, _>>()
            .map_err(bad_input)?
    };
    let engines = parse_engines(&c.engines)?;
    if c.repeats == 0 {
        return Err(bad_input("--repeats must be at least 1"));
    }
    if !(c.grace >= 0.0 && c.grace.is_finite()) {
        return Err(bad_input("--grace must be 0 or more seconds"));
    }
    super::check_shift(c.shift)?;
    let instances = load_instances(p, &c.instances)?;
    if instances.is_empty() {
        return Err(bad_input(super::no_instances(&c.instances)));
    }
    Plan::new(
        p,
        instances,
        &PlanRequest {
            formulations: &formulations,
            engines: &engines,
            repeats: c.repeats,
            variants: &c.variants,
            skip_refused: false,
        },
    )
    .map_err(bad_input)
}

/// Refuses `--costs` where nothing uses it (`used`: with `--shard` or `--dry-run`).
pub fn check_costs(used: bool, files: &[PathBuf]) -> Result<(), Failure> {
    if used || files.is_empty() {
        Ok(())
    } else {
        Err(bad_input(
            "--costs balances the shards of a sharded sweep; it goes with --shard or --dry-run",
        ))
    }
}

/// The cost estimates of `--costs`.
pub fn read_costs(files: &[PathBuf]) -> Result<Costs, Failure> {
    Costs::read(files).map_err(|e| bad_input(format!("--costs: {e}")))
}

/// Runs the sweep, prints a summary and the refused runs apart, and fails (exit 1) when
/// some run that ran did not solve (a refused run is no failure), 2 when the results file
/// already holds some of the sweep's runs and `--resume` was not given, 130 when stopped by
/// a signal.
pub fn run(c: &RunConfig) -> Result<(), Failure> {
    check_costs(c.shard.is_some() || c.dry_run, &c.costs)?;
    let mut plan = plan(c)?;
    if let Some(note) = runner::same_note(&plan.same) {
        eprintln!("{note}");
    }
    if c.dry_run {
        let costs = read_costs(&c.costs)?;
        print!("{}", crate::shard::cost_table(&plan.run_costs(), &costs));
        return Ok(());
    }
    let p = plan.puzzle;
    let shard_record = match c.shard {
        None => None,
        Some(shard) => {
            let costs = read_costs(&c.costs)?;
            let selection = crate::shard::select(&plan.run_costs(), &costs, shard, c.grace);
            plan.retain_runs(&selection.keep);
            eprintln!("{}", selection.summary);
            Some(selection.record)
        }
    };
    if !c.resume {
        check_not_recorded(&plan, &c.out)?;
    }
    let setup = c.measuring.setup(plan.max_threads(), c.in_process)?;
    let config = setup.config(
        &c.measuring,
        c.resume,
        c.grace,
        c.in_process,
        own_executable()?,
    );
    if !c.quiet {
        eprintln!("{}", setup.describe());
    }
    let stop = stop_flag()?;
    let bar = progress_bar(plan.runs.len() as u64, c.quiet, p.key());
    let mut env = RunEnv::detect();
    record::check_results_file(&c.out).map_err(bad_input)?;
    env.machine = setup.record_sweep(&c.measuring, &c.out, shard_record)?;
    let on_row = |r: &Record| super::show_row(&bar, r);
    let outcome = runner::sweep(&plan, &c.out, &env, &config, stop, &on_row).map_err(bad_input)?;
    bar.finish_and_clear();
    let rows = &outcome.rows;
    if outcome.repaired_bytes > 0 {
        eprintln!(
            "{}: cut off an incomplete last line ({} bytes) left by a killed run; that run is done again",
            c.out.display(),
            outcome.repaired_bytes
        );
    }
    if outcome.upgraded_columns {
        eprintln!(
            "{}: written by an older version; rewritten with today's columns (every value kept, the new columns empty for its rows)",
            c.out.display()
        );
    }
    if outcome.skipped > 0 {
        eprintln!(
            "{} runs already in {} were skipped (--resume)",
            outcome.skipped,
            c.out.display()
        );
    }
    eprintln!("{} runs appended to {}", rows.len(), c.out.display());
    let ran: Vec<Record> = rows.iter().filter(|r| !r.is_refused()).cloned().collect();
    eprint!(
        "{}",
        summary::text_table(&summary::summarise(&ran, c.shift), c.shift)
    );
    let refusals = super::refusal_lines(rows);
    if !refusals.is_empty() {
        eprintln!(
            "{} runs refused (status refused: not run, neither solved nor failed; --resume does not retry them):",
            rows.len() - ran.len()
        );
        for line in refusals {
            eprintln!("  {line}");
        }
    }
    if outcome.stopped {
        return Err(Failure::new(
            130,
            format!(
                "stopped by a signal: {} runs written, {} not run; run again with --resume to finish",
                rows.len(),
                outcome.not_run
            ),
        ));
    }
    let failed = ran.iter().filter(|r| failure_reason(r).is_some()).count();
    if failed > 0 {
        return Err(Failure::new(
            1,
            format!(
                "{failed} of {} runs did not solve (see the status and error columns)",
                ran.len()
            ),
        ));
    }
    Ok(())
}

/// Refuses (exit 2) a sweep without `--resume` into a results file that already holds some
/// of its runs: appending them again would record one run twice. The message names the
/// file, how many of the plan's runs it holds, and the two ways out.
fn check_not_recorded(plan: &Plan, out: &Path) -> Result<(), Failure> {
    let held: HashSet<String> = record::ResultsFile::recorded(out)
        .map_err(bad_input)?
        .into_iter()
        .map(|r| r.run_id)
        .collect();
    let n = plan
        .runs
        .iter()
        .filter(|r| held.contains(&r.run_id))
        .count();
    if n == 0 {
        return Ok(());
    }
    Err(bad_input(format!(
        "{}: already holds {n} of the {} runs of this sweep, and running them again would record them twice; add --resume to run only the {} it lacks, or write to another file with --out",
        out.display(),
        plan.runs.len(),
        plan.runs.len() - n
    )))
}
