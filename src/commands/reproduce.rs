//! `puzzlebench reproduce`: the main job. Each puzzle's suite ([`crate::puzzles::Suite`])
//! is planned here: every part's formulations run on each of its engines that takes their
//! kind and model, once per presolve and heuristics setting the part names (settings an
//! engine does not have give one run, not several), with the part's time limit; then the
//! rows become the report with the report's figures beside ours.
//!
//! The engines of a part: by default, the part that compares engines
//! ([`SuitePart::every_engine`]) runs on every installed engine and the others on
//! [`DEFAULT_ENGINES`] (with the engines a part adds, [`SuitePart::also_on`]); with
//! `--backend`, every part runs on the engines named. `--without` leaves engines out of
//! either.

use super::{
    bad_input, failed, load_instances, own_executable, parse_engines, progress_bar, stop_flag,
    Failure,
};
use crate::engines::{Engine, SolveOptions};
use crate::puzzles::{self, Puzzle, SuitePart, PUZZLES};
use crate::record::{self, Record};
use crate::runner::{self, Plan, PlanRequest, RunEnv};
use crate::shard::Shard;
use std::path::{Path, PathBuf};

/// The engines of the parts that reproduce the report's tables, unless `--backend` names
/// others: one for each kind of formulation (HiGHS for integer programs and row
/// generation, the project's branch and cut for lazy rows, propagation for constraint
/// programs). The part that compares engines runs on every installed engine.
pub const DEFAULT_ENGINES: &str = "highs,bc,propagate";

/// The engines of each part: those named (`--backend`), else every installed engine for
/// the part that compares engines and [`DEFAULT_ENGINES`] for the others.
#[derive(Clone, Debug)]
pub enum EngineChoice {
    /// `--backend`: these engines for every part.
    Named(Vec<Engine>),
    /// The default: `installed` for the engines part, `default` for the others.
    Default {
        /// [`DEFAULT_ENGINES`].
        default: Vec<Engine>,
        /// Every installed engine.
        installed: Vec<Engine>,
    },
}

impl EngineChoice {
    /// The choice for `--backend KEYS` (None: the default), without the engines of
    /// `--without` (`without`) anywhere.
    pub fn new(keys: Option<&[String]>, without: &[String]) -> Result<EngineChoice, Failure> {
        let left_out = parse_engines(without)?;
        let keep = |e: Vec<Engine>| -> Vec<Engine> {
            e.into_iter().filter(|e| !left_out.contains(e)).collect()
        };
        match keys {
            Some(k) => Ok(EngineChoice::Named(keep(parse_engines(k)?))),
            None => {
                let keys: Vec<String> = DEFAULT_ENGINES.split(',').map(String::from).collect();
                Ok(EngineChoice::Default {
                    default: keep(parse_engines(&keys)?),
                    installed: keep(Engine::installed_engines()),
                })
            }
        }
    }

    /// The engines of `part` (by default with the installed ones of [`SuitePart::also_on`]).
    pub fn for_part(&self, part: &SuitePart) -> Vec<Engine> {
        match self {
            EngineChoice::Named(e) => e.clone(),
            EngineChoice::Default { installed, .. } if part.every_engine => installed.clone(),
            EngineChoice::Default { default, installed } => {
                let mut out = default.clone();
                for e in installed {
                    if part.also_on.contains(&e.key()) && !out.contains(e) {
                        out.push(*e);
                    }
                }
                out
            }
        }
    }

    /// How the report's preamble names the engines, with those the parts of `puzzles`'
    /// suites add by default ([`SuitePart::also_on`]).
    pub fn describe(&self, puzzles: &[&'static dyn Puzzle], quick: bool) -> String {
        let keys = |e: &[Engine]| e.iter().map(|e| e.key()).collect::<Vec<_>>().join(",");
        match self {
            EngineChoice::Named(e) => format!("--backend {}", keys(e)),
            EngineChoice::Default { default, installed } => {
                let mut added = Vec::new();
                for p in puzzles {
                    for part in p
                        .suite(quick)
                        .parts
                        .iter()
                        .filter(|part| !part.every_engine)
                    {
                        let extra: Vec<&str> = self
                            .for_part(part)
                            .iter()
                            .filter(|e| !default.contains(e))
                            .map(|e| e.key())
                            .collect();
                        if !extra.is_empty() {
                            added.push(format!("{} for {}", extra.join(","), p.key()));
                        }
                    }
                }
                added.dedup();
                let added = if added.is_empty() {
                    String::new()
                } else {
                    format!(" (and {})", added.join(", "))
                };
                format!(
                    "the default engines: {} for the report's tables{added}, and every installed engine ({}) in the backend comparison",
                    keys(default),
                    keys(installed)
                )
            }
        }
    }
}

/// What to reproduce and where.
pub struct ReproduceConfig {
    /// The quick suite (every run once) or the full one.
    pub quick: bool,
    /// Certify the claims of the report's parts (not the races'), each certifying search
    /// and check limited to these seconds (`--certify`).
    pub certify: Option<f64>,
    /// Engine keys of `--backend` (None: the default, [`EngineChoice`]).
    pub engines: Option<Vec<String>>,
    /// Engine keys of `--without`: left out of every part.
    pub without: Vec<String>,
    /// Time limit of each run, replacing every suite's own.
    pub time_limit: Option<f64>,
    /// Output folder.
    pub out: PathBuf,
    /// Start a new results file (the old one kept under a dated name).
    pub fresh: bool,
    /// Only these puzzles (empty: all).
    pub puzzles: Vec<String>,
    /// Workers, memory limit, cores, cgroups and run order.
    pub measuring: super::measuring::Measuring,
    /// Shift of the shifted geometric mean.
    pub shift: f64,
    /// The folder holding the instance folders.
    pub instances_dir: PathBuf,
    /// No progress bars.
    pub quiet: bool,
    /// The formats of the report's plots.
    pub figures: Vec<crate::report::plots::FigureFormat>,
    /// Run only this shard of all the suites' runs (`--shard I/N`); the shard writes its
    /// rows only, and the report is made from the merged shards.
    pub shard: Option<Shard>,
    /// Results files of an earlier sweep whose times balance the shards (`--costs`).
    pub costs: Vec<PathBuf>,
    /// Only print what the plan costs ([`crate::shard::cost_table`]).
    pub dry_run: bool,
    /// The safety cap of each puzzle's race (wall seconds of its runs; None:
    /// [`RACE_BUDGET`]).
    pub race_budget: Option<f64>,
    /// The instances each race plans.
    pub race_instances: usize,
    /// Races at once, each running its runs one at a time (None: one per physical core).
    pub race_jobs: Option<usize>,
    /// The races' margin of equivalence.
    pub race_margin: f64,
    /// Once the runs are done, store the raw files (rows, timelines, race log)
    /// gzip-compressed, and link the compressed rows from the report.
    pub compress_raw: bool,
}

/// The raw files of a main job's folder that `--compress-raw` stores compressed.
pub const RAW_FILES: [&str; 3] = ["results.csv", "results.csv.timelines.jsonl", "race.jsonl"];

/// The safety cap of a race of the main job, wall seconds of its runs: a race plans its
/// instances ([`super::race::DEFAULT_INSTANCES`]), and the cap only stops one that would
/// run far too long on a slow machine (the report says where it did).
pub const RACE_BUDGET: f64 = 300.0;

/// The races of the chosen puzzles, each with the engines of its comparison part.
fn plan_races(
    c: &ReproduceConfig,
    engines: &EngineChoice,
    chosen: &[&'static dyn Puzzle],
) -> Result<Vec<(super::race::RaceSpec, Vec<Engine>)>, Failure> {
    let mut out = Vec::new();
    for &p in chosen {
        let Some(part) = p
            .suite(true)
            .parts
            .into_iter()
            .find(|part| part.every_engine)
        else {
            continue;
        };
        let ladder = crate::race::ladder::ladder_file(&c.instances_dir, p.key(), None);
        let specs = super::race::race_specs(
            p,
            c.quick,
            &[],
            c.time_limit,
            c.race_instances,
            c.race_budget.unwrap_or(RACE_BUDGET),
            c.race_margin,
        )?;
        for spec in specs {
            let file = crate::race::ladder::ladder_file(
                &c.instances_dir,
                p.key(),
                spec.question.as_deref(),
            );
            if !file.is_file() {
                eprintln!(
                    "{}: no ladder under {} ({}); its race is skipped",
                    spec.name,
                    c.instances_dir.display(),
                    ladder.display()
                );
                continue;
            }
            let on = engines.for_part(&part);
            let n = super::race::candidate_count(&spec, &on);
            if n < 2 {
                eprintln!(
                    "{}: {n} candidate(s) on the engines chosen; no race (a race needs two)",
                    spec.name
                );
                continue;
            }
            out.push((spec, on));
        }
    }
    Ok(out)
}

/// The races shard `shard` runs: each race whole in one shard, races given in turn to the
/// shard with the least budget so far.
fn shard_races<T>(
    races: Vec<(super::race::RaceSpec, T)>,
    shard: Shard,
) -> Vec<(super::race::RaceSpec, T)> {
    let mut load = vec![0.0f64; shard.count.max(1)];
    let mut out = Vec::new();
    for r in races {
        let (i, _) = load
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .expect("one shard at least");
        load[i] += r.0.budget;
        if i + 1 == shard.index {
            out.push(r);
        }
    }
    out
}

/// The plans of one puzzle's suite.
pub struct SuitePlans {
    /// The puzzle.
    pub puzzle: &'static dyn Puzzle,
    /// Its plans, each with its label for the summary.
    pub plans: Vec<(String, Plan)>,
}

/// The puzzles `reproduce` runs: those named, or every puzzle that is not hidden.
pub fn chosen_puzzles(names: &[String]) -> Result<Vec<&'static dyn Puzzle>, Failure> {
    if names.is_empty() {
        Ok(PUZZLES.iter().copied().filter(|p| !p.hidden()).collect())
    } else {
        names
            .iter()
            .map(|k| puzzles::puzzle(k))
            .collect::<Result<_, _>>()
            .map_err(bad_input)
    }
}

/// The plans of every chosen puzzle's suite whose instances are in the instances folder,
/// after checking the options; a puzzle without any is named on stderr and left out.
pub fn plan_all(
    c: &ReproduceConfig,
    engines: &EngineChoice,
    chosen: &[&'static dyn Puzzle],
) -> Result<Vec<SuitePlans>, Failure> {
    super::check_time_limit(c.time_limit)?;
    super::check_shift(c.shift)?;
    if !c.instances_dir.is_dir() {
        return Err(bad_input(format!(
            "{}: no such folder; run reproduce from the repository's root",
            c.instances_dir.display()
        )));
    }
    super::run::check_costs(c.shard.is_some() || c.dry_run, &c.costs)?;
    let mut out = Vec::new();
    for &p in chosen {
        let plans = plan_suite(
            p,
            c.quick,
            engines,
            c.time_limit,
            c.certify,
            &c.instances_dir,
        )?;
        if plans.is_empty() {
            // A suite whose instances are not in this instances folder is skipped, not
            // fatal (a test folder may hold the instances of some puzzles only).
            eprintln!(
                "{}: no instances of its suite under {}; skipped",
                p.key(),
                c.instances_dir.display()
            );
            continue;
        }
        out.push(SuitePlans { puzzle: p, plans });
    }
    Ok(out)
}

/// The seconds a worker of `reproduce` may run past its time limit before it is killed.
pub const GRACE_SECONDS: f64 = 5.0;

/// What each run of all `suites` is, for estimating its cost, in plan order.
pub fn run_costs(suites: &[SuitePlans]) -> Vec<crate::shard::RunCost<'_>> {
    suites
        .iter()
        .flat_map(|s| s.plans.iter().flat_map(|(_, plan)| plan.run_costs()))
        .collect()
}

/// Splits the runs of all `suites` into shards and keeps `shard`'s runs in each plan.
pub fn select_shard(
    suites: &mut [SuitePlans],
    shard: Shard,
    costs: &crate::shard::Costs,
) -> crate::shard::Selection {
    let selection = crate::shard::select(&run_costs(suites), costs, shard, GRACE_SECONDS);
    let mut flags = selection.keep.iter().copied();
    for s in suites.iter_mut() {
        for (_, plan) in &mut s.plans {
            let keep: Vec<bool> = flags.by_ref().take(plan.runs.len()).collect();
            plan.retain_runs(&keep);
        }
    }
    selection
}

/// The plans of one puzzle's suite, each with its label for the summary.
pub fn plan_suite(
    p: &'static dyn Puzzle,
    quick: bool,
    engines: &EngineChoice,
    time_limit: Option<f64>,
    certify: Option<f64>,
    instances_dir: &Path,
) -> Result<Vec<(String, Plan)>, Failure> {
    let suite = p.suite(quick);
    let mut plans = Vec::new();
    for part in &suite.parts {
        if part.every_engine {
            // The engine comparison is a race ([`super::race`]), run after the parts.
            continue;
        }
        let paths = present(instances_dir, &part.instances);
        if paths.is_empty() {
            continue;
        }
        let instances = load_instances(p, &paths)?;
        if instances.is_empty() {
            continue;
        }
        let formulations: Vec<String> = part.formulations.iter().map(|f| f.to_string()).collect();
        let variants = variants(part, time_limit, certify);
        let engines = engines.for_part(part);
        let request = |repeats| PlanRequest {
            formulations: &formulations,
            engines: &engines,
            repeats,
            variants: &variants,
            skip_refused: true,
        };
        let mut plan = Plan::new(
            p,
            instances,
            &request(part.repeats.unwrap_or(suite.repeats)),
        )
        .map_err(bad_input)?;
        // The part's own repeats run only where the first run was cheap
        // ([`SuitePart::repeats`]): `reproduce` runs the first repeats, then gates the rest.
        if part.repeats.is_some() {
            plan.repeat_gate = Some(puzzles::REPEAT_GATE);
        }
        plans.push((label(p.key(), part), plan));
    }
    Ok(plans)
}

/// The settings a part sweeps: each presolve setting × each heuristics setting, with the
/// part's time limit (or the one given) and the certificates asked for.
fn variants(part: &SuitePart, time_limit: Option<f64>, certify: Option<f64>) -> Vec<SolveOptions> {
    let mut out = Vec::new();
    for &presolve in &part.presolve {
        for &heuristics in &part.heuristics {
            out.push(SolveOptions {
                time_limit: Some(time_limit.unwrap_or(part.time_limit)),
                presolve,
                heuristics,
                count: part.count,
                certify,
                ..SolveOptions::default()
            });
        }
    }
    out
}

/// "hashi (base, hdc, cuts, cuts-hdc; presolve on and off)", "sudoku engines (binary,
/// values)".
fn label(puzzle: &str, part: &SuitePart) -> String {
    let what = if part.every_engine { " backends" } else { "" };
    let mut s = format!("{puzzle}{what} ({}", part.formulations.join(", "));
    if part.presolve.len() > 1 {
        s.push_str("; presolve on and off");
    }
    if part.count > 1 {
        s.push_str(&format!("; optimal solutions counted up to {}", part.count));
    }
    if part.heuristics.len() > 1 {
        s.push_str("; every heuristics setting");
    }
    s.push(')');
    s
}

/// The files or folders of a suite part that the instances folder holds.
fn present(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|i| dir.join(i))
        .filter(|p| p.exists())
        .collect()
}

/// Runs the suites, keeps every row in `out/results.csv` (resumed when it exists), draws
/// one picture per puzzle and writes the report.
pub fn reproduce(c: &ReproduceConfig) -> Result<(), Failure> {
    let engines = EngineChoice::new(c.engines.as_deref(), &c.without)?;
    let chosen = chosen_puzzles(&c.puzzles)?;
    let mut suites = plan_all(c, &engines, &chosen)?;
    let mut races = plan_races(c, &engines, &chosen)?;
    if c.dry_run {
        let costs = super::run::read_costs(&c.costs)?;
        print!("{}", crate::shard::cost_table(&run_costs(&suites), &costs));
        let budget: f64 = races.iter().map(|r| r.0.budget).sum();
        println!(
            "and {} races (the engine comparisons), budgets of {budget:.0} s of runs in all, each race whole in one shard",
            races.len(),
        );
        return Ok(());
    }
    if let Some(shard) = c.shard {
        races = shard_races(races, shard);
    }
    let shard_record = match c.shard {
        None => None,
        Some(shard) => {
            let costs = super::run::read_costs(&c.costs)?;
            let selection = select_shard(&mut suites, shard, &costs);
            eprintln!("{}", selection.summary);
            Some(selection.record)
        }
    };
    std::fs::create_dir_all(&c.out).map_err(|e| bad_input(format!("{}: {e}", c.out.display())))?;
    let csv = c.out.join("results.csv");
    // Raw files an earlier `--compress-raw` stored compressed are taken back, so that the
    // runs append to them and skip what they hold.
    for f in RAW_FILES {
        let path = c.out.join(f);
        if crate::gz::decompress(&path).map_err(|e| failed(format!("{}: {e}", path.display())))? {
            eprintln!("took back {} from its .gz to go on", path.display());
        }
    }
    if c.fresh && csv.exists() {
        let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
        let kept = c.out.join(format!("results-{stamp}.csv"));
        std::fs::rename(&csv, &kept).map_err(|e| failed(format!("{}: {e}", csv.display())))?;
        eprintln!("kept the previous results as {}", kept.display());
    }
    let stop = stop_flag()?;
    let mut env = RunEnv::detect();
    let exe = own_executable()?;
    let setup = c.measuring.setup(1, false)?;
    if !c.quiet {
        eprintln!("{}", setup.describe());
    }
    record::check_results_file(&csv).map_err(|e| {
        bad_input(format!(
            "{e}; or run reproduce --fresh, which keeps it as results-DATE.csv and starts a new one"
        ))
    })?;
    env.machine = setup.record_sweep(&c.measuring, &csv, shard_record)?;
    let config = setup.config(&c.measuring, true, GRACE_SECONDS, false, exe);
    let pictures = c.out.join("pictures");
    if c.shard.is_none() {
        std::fs::create_dir_all(&pictures)
            .map_err(|e| failed(format!("{}: {e}", pictures.display())))?;
    }
    for suite in &mut suites {
        let (p, plans) = (suite.puzzle, &mut suite.plans);
        if c.shard.is_none() {
            draw_picture(p, &plans[0].1, &pictures)?;
        }
        let total: usize = plans.iter().map(|(_, plan)| plan.runs.len()).sum();
        let bar = progress_bar(total as u64, c.quiet, p.key());
        let on_row = |r: &Record| super::show_row(&bar, r);
        let mut summary = Vec::new();
        // Sweeps `plan`, says what it appended; true when a signal stopped it.
        let sweep_plan = |plan: &Plan, label: &str, summary: &mut Vec<String>| {
            let outcome =
                runner::sweep(plan, &csv, &env, &config, stop, &on_row).map_err(bad_input)?;
            summary.push(format!(
                "{label}: {} runs appended, {} already in {}",
                outcome.rows.len(),
                outcome.skipped,
                csv.display()
            ));
            Ok::<bool, Failure>(outcome.stopped)
        };
        for (label, plan) in plans.iter_mut() {
            for (f, reason) in &plan.skipped {
                summary.push(format!("{label}: {f} not run: {reason}"));
            }
            // A gated plan runs its first repeats, then the later ones that the first runs
            // left cheap ([`Plan::repeat_gate`]); any other plan runs once, whole.
            let later = plan.take_later_repeats();
            let mut stopped = sweep_plan(plan, label, &mut summary)?;
            if !stopped && !later.is_empty() {
                plan.runs = later;
                let left_out = plan.gate_repeats(&record::read_results(&csv).map_err(bad_input)?);
                bar.set_length(bar.length().unwrap_or(0).saturating_sub(left_out as u64));
                summary.push(format!(
                    "{label}: {left_out} repeats not run: their first run failed or took more than a tenth of its time limit"
                ));
                stopped = sweep_plan(plan, label, &mut summary)?;
            }
            if stopped {
                bar.finish_and_clear();
                return Err(Failure::new(
                    130,
                    "stopped by a signal; run reproduce again to finish (finished runs are kept)",
                ));
            }
        }
        bar.finish_and_clear();
        for line in summary {
            eprintln!("{line}");
        }
    }
    // The races run one run per physical core (BenchExec's rule: never two on one core),
    // the report parts as `--jobs` says (by default the same).
    let race_measuring = super::measuring::Measuring {
        jobs: c
            .race_jobs
            .unwrap_or_else(|| crate::cores::physical_cores().len().max(1)),
        ..c.measuring.clone()
    };
    let race_setup = race_measuring.setup(1, false)?;
    let mut race_env = env.clone();
    if !races.is_empty() {
        race_env.machine = race_setup.record_sweep(&race_measuring, &csv, None)?;
        if !c.quiet {
            eprintln!("races: {}", race_setup.describe());
        }
    }
    let race_config = race_setup.config(
        &race_measuring,
        true,
        GRACE_SECONDS,
        false,
        own_executable()?,
    );
    let run = super::race::RaceRun {
        csv: &csv,
        log: &c.out.join("race.jsonl"),
        env: &race_env,
        config: &race_config,
        stop,
        instances_dir: &c.instances_dir,
        seed: super::race::DEFAULT_SEED,
        quiet: c.quiet,
        bars: None,
    };
    super::race::run_races(&races, &run, race_measuring.jobs, &|ended| {
        eprintln!("{}", super::race::summary(ended))
    })?;
    if let Some(shard) = c.shard {
        eprintln!(
            "shard {shard} done: its rows are in {}; when every shard is done, `puzzlebench merge` their results.csv files and `puzzlebench report` the merged file",
            csv.display()
        );
        return Ok(());
    }
    let rows = record::read_results(&csv).map_err(bad_input)?;
    let mut raw_link = "results.csv".to_string();
    if c.compress_raw {
        for f in RAW_FILES {
            let path = c.out.join(f);
            crate::gz::compress(&path).map_err(|e| failed(format!("{}: {e}", path.display())))?;
        }
        raw_link = "results.csv.gz".to_string();
    }
    let mut command = String::from("puzzlebench reproduce");
    if c.quick {
        command.push_str(" --quick");
    }
    if !c.without.is_empty() {
        command.push_str(&format!(" --without {}", c.without.join(",")));
    }
    if c.compress_raw {
        command.push_str(" --compress-raw");
    }
    let default_figures = [
        crate::report::plots::FigureFormat::Svg,
        crate::report::plots::FigureFormat::Pdf,
    ];
    if c.figures[..] != default_figures[..] {
        let names: Vec<&str> = c.figures.iter().map(|f| f.extension()).collect();
        command.push_str(&format!(" --figures {}", names.join(",")));
    }
    let suite = if c.quick { "" } else { " (full suite)" };
    let mut preamble = format!(
        "Made by `{command}`{suite} with {} on {}. Raw rows: [{raw_link}]({raw_link}){}. The report's parts ran {} run(s) at once, each on a physical core of its own.\n",
        engines.describe(&chosen, c.quick),
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        if c.compress_raw {
            " (gzip-compressed, as are the timelines and the race log beside it; `puzzlebench report` and `diff` read them as they are)"
        } else {
            ""
        },
        c.measuring.jobs
    );
    if !races.is_empty() {
        let limits: Vec<String> = races
            .iter()
            .map(|(s, _)| format!("{} {} s", s.name, s.time_limit))
            .collect();
        preamble.push_str(&format!(
            "\nThe races (each puzzle's engine comparison, docs/race.md) planned {} instances each (fewer where a ladder holds fewer), with looks fixed before the start (the first once a test could drop a candidate, then every {} instances, and at the plan's end; alpha = 0.05 spent over them), a margin of equivalence of {}, and a safety cap of {} s of runs per race. They ran {} races at once, each race one run at a time (so that its best and the others are timed alike); each run's time limit: {}. On each instance the race's best so far ran first and the others under an adaptive cap of {} (a capped run is stopped: slower than its cap, never solved). Races compare the run clock (building, solve and a child-process solver's start: the clock of the time limit). A verdict holds for its ladder's instances, not beyond them.\n",
            c.race_instances,
            crate::race::elimination::LOOK_EVERY,
            crate::race::state::percent(c.race_margin),
            c.race_budget.unwrap_or(RACE_BUDGET),
            race_measuring.jobs,
            limits.join(", "),
            crate::race::capping::in_words()
        ));
    }
    super::report::write(
        &rows,
        &[csv],
        false,
        &c.instances_dir,
        &c.out,
        c.shift,
        &preamble,
        &c.figures,
    )
}

/// One picture per puzzle: the first run of its first plan, solved in this process
/// without a time limit.
fn draw_picture(p: &dyn Puzzle, plan: &Plan, pictures: &Path) -> Result<(), Failure> {
    let Some(first) = plan.runs.first() else {
        return Ok(());
    };
    let instance = plan.instances[first.instance].instance.as_ref();
    let report = instance
        .solve(&first.formulation, first.engine, &SolveOptions::default())
        .ok();
    let answer = report.and_then(|r| r.answer);
    if let Some(svg) = instance.svg(answer.as_ref()) {
        let path = pictures.join(format!("{}.svg", p.key()));
        std::fs::write(&path, svg).map_err(|e| failed(format!("{}: {e}", path.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_race_runs_whole_in_the_shard_with_the_least_budget_so_far() {
        let sudoku = puzzles::puzzle("sudoku").unwrap();
        let spec = |budget| {
            let mut s = super::super::race::race_specs(sudoku, true, &[], None, 36, budget, 0.1)
                .unwrap()
                .remove(0);
            s.name = format!("r{budget}");
            (s, ())
        };
        let races = || vec![spec(100.0), spec(40.0), spec(30.0), spec(20.0), spec(10.0)];
        let names = |i| -> Vec<String> {
            shard_races(races(), Shard { index: i, count: 2 })
                .into_iter()
                .map(|r| r.0.name)
                .collect()
        };
        // 100 to shard 1; 40, 30, 20 and 10 to shard 2 (100 > 90).
        assert_eq!(names(1), ["r100"]);
        assert_eq!(names(2), ["r40", "r30", "r20", "r10"]);
    }

    #[test]
    fn a_part_that_adds_an_engine_runs_on_it_and_the_preamble_says_so() {
        let choice = EngineChoice::new(None, &[]).unwrap();
        let nonogram = puzzles::puzzle("nonogram").unwrap();
        let report_part = nonogram
            .suite(true)
            .parts
            .into_iter()
            .find(|p| !p.every_engine)
            .unwrap();
        let keys: Vec<&str> = choice
            .for_part(&report_part)
            .iter()
            .map(|e| e.key())
            .collect();
        assert_eq!(keys, ["highs", "bc", "propagate", "sat"]);
        let text = choice.describe(&[nonogram], true);
        assert!(
            text.contains("highs,bc,propagate for the report's tables (and sat for nonogram)"),
            "{text}"
        );
        let kenken = puzzles::puzzle("kenken").unwrap();
        assert!(!choice.describe(&[kenken], true).contains("(and"));
        // The parts of the report's Gurobi tables add gurobi, where it is installed.
        let sudoku = puzzles::puzzle("sudoku").unwrap();
        let table_3_1 = sudoku.suite(true).parts.remove(0);
        let on = choice.for_part(&table_3_1);
        let gurobi = crate::engines::built_in_definitions::GUROBI;
        assert_eq!(on.contains(&gurobi), gurobi.installed(), "{on:?}");
        let named = EngineChoice::new(Some(&["highs".to_string()]), &[]).unwrap();
        assert_eq!(
            named.for_part(&report_part).len(),
            1,
            "--backend names every engine"
        );
    }

    #[test]
    fn without_leaves_an_engine_out_of_every_part() {
        let sudoku = puzzles::puzzle("sudoku").unwrap();
        let parts = sudoku.suite(true).parts;
        let keys = |s: &[&str]| s.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let without = keys(&["gurobi", "highs"]);
        let default = EngineChoice::new(None, &without).unwrap();
        let named = EngineChoice::new(Some(&keys(&["highs", "sat", "gurobi"])), &without).unwrap();
        for part in &parts {
            for choice in [&default, &named] {
                let on = choice.for_part(part);
                assert!(!on.is_empty(), "{:?}", part.formulations);
                assert!(
                    on.iter().all(|e| e.key() != "gurobi" && e.key() != "highs"),
                    "{:?}: {on:?}",
                    part.formulations
                );
            }
        }
        assert_eq!(named.for_part(&parts[0]).len(), 1, "sat only");
        // The rest of the default stays.
        let every = parts.iter().find(|p| p.every_engine).unwrap();
        assert!(default.for_part(every).iter().any(|e| e.key() == "sat"));
        assert!(EngineChoice::new(None, &keys(&["no-such-engine"])).is_err());
    }
}
