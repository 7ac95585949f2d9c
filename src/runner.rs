//! Runs: one (instance, formulation, engine, settings, repeat) becomes one [`Record`],
//! appended to the results CSV and flushed as soon as the run ends.

use crate::cgroups::Cgroups;
use crate::engines::{Engine, Kind, Settings, SolveOptions, Status};
use crate::isolation::{self, Ending, Job, Limits, Placement};
use crate::puzzles::{FormulationSource, Instance, Puzzle, RunResult};
use crate::record::{run_id, Record, ResultsFile};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Facts about the machine and build written into every row.
#[derive(Clone, Debug, Default)]
pub struct RunEnv {
    /// Commit of puzzlebench (set at build time).
    pub git_commit: String,
    /// Host name.
    pub host: String,
    /// Id of the machine record (empty in a worker: the parent fills it in).
    pub machine: String,
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
            machine: String::new(),
        }
    }
}

/// An instance together with the file it came from (a worker process reloads it from there).
pub struct Loaded {
    /// The instance file.
    pub file: PathBuf,
    /// The instance.
    pub instance: Box<dyn Instance>,
}

/// One run of a plan: which instance, formulation, engine, options and repeat, with the
/// settings the engine applies and the run id.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Index of the instance in [`Plan::instances`].
    pub instance: usize,
    /// Formulation key.
    pub formulation: String,
    /// The formulation's kind.
    pub kind: Kind,
    /// Where the formulation's model comes from.
    pub source: FormulationSource,
    /// The engine.
    pub engine: Engine,
    /// The options asked for.
    pub options: SolveOptions,
    /// The settings the engine applies to this formulation under `options`.
    pub settings: Settings,
    /// Repeat number, from 1.
    pub repeat: u32,
    /// The run id ([`run_id`]).
    pub run_id: String,
    /// A race's adaptive cap, seconds ([`crate::race::capping`]): the solver's time limit
    /// for this run when it is below the configuration's own. The row keeps the
    /// configuration's `time_limit` (and so its run id), says the cap in `cap_seconds`,
    /// and a run stopped by it says `capped`. `None`: no cap.
    pub cap: Option<f64>,
}

/// What a sweep runs: a list of runs over loaded instances.
pub struct Plan {
    /// The puzzle.
    pub puzzle: &'static dyn Puzzle,
    /// Loaded instances.
    pub instances: Vec<Loaded>,
    /// The runs, in order.
    pub runs: Vec<RunSpec>,
    /// What was left out, when the plan was asked to skip refused pairs, with the reason:
    /// a formulation none of the engines takes (`cm1`), or a formulation on an engine that
    /// refuses its model (`cm2 on sat`).
    pub skipped: Vec<(String, String)>,
    /// Instances that are the same puzzle as one listed before them (the same canonical
    /// text, so the same run ids): their name and the earlier one's. Their runs are the
    /// earlier one's, run once.
    pub same: Vec<(String, String)>,
    /// Repeats only where runs are cheap: when set, a run with repeat 2 or more is run
    /// only if the first repeat of the same configuration is not yet recorded, or
    /// succeeded within this fraction of its time limit ([`Plan::gate_repeats`];
    /// `reproduce --quick` sets it on the engine comparison). `None`: every repeat runs.
    pub repeat_gate: Option<f64>,
    /// The race these runs belong to (`puzzlebench race`): written in every row's `race`
    /// column. `None` for a sweep.
    pub race: Option<String>,
    /// The race's plan length and margin, written in every row's `race_plan` and
    /// `race_margin` columns, so that the race can be rebuilt from its rows alone.
    pub race_rule: Option<(usize, f64)>,
}

/// What to expand into a [`Plan`].
pub struct PlanRequest<'a> {
    /// Formulation keys (checked against the puzzle).
    pub formulations: &'a [String],
    /// Engines (empty: each formulation on the default engine of its kind).
    pub engines: &'a [Engine],
    /// Repeats per combination, from 1.
    pub repeats: u32,
    /// Settings to sweep, each a variant of its own.
    pub variants: &'a [SolveOptions],
    /// Leave out pairs the engine does not take (`reproduce`: each formulation runs on the
    /// chosen engines that take it), instead of recording their refusal as an `error` row
    /// (`run`, where the user asked for them): its kind, or the model of an instance (a
    /// column or coefficient the engine refuses: `sat` and general integers, `cpsat` and
    /// continuous flows).
    pub skip_refused: bool,
}

impl Plan {
    /// Every instance × formulation × engine × variant × repeat, in that nesting order.
    /// Runs with the same run id (variants that differ only in settings an engine does not
    /// have) appear once.
    pub fn new(
        puzzle: &'static dyn Puzzle,
        instances: Vec<Loaded>,
        request: &PlanRequest<'_>,
    ) -> Result<Plan, String> {
        let infos = request
            .formulations
            .iter()
            .map(|f| puzzle.formulation(f))
            .collect::<Result<Vec<_>, _>>()?;
        let mut runs = Vec::new();
        let mut skipped = Vec::new();
        let mut seen = HashSet::new();
        let mut same = Vec::new();
        let mut first_of: HashMap<String, String> = HashMap::new();
        for (i, loaded) in instances.iter().enumerate() {
            let canonical = loaded.instance.canonical();
            let name = loaded.instance.name().to_string();
            match first_of.get(&canonical) {
                Some(first) => same.push((name, first.clone())),
                None => {
                    first_of.insert(canonical.clone(), name);
                }
            }
            for f in &infos {
                let default = [f.kind.default_engine()];
                let engines = if request.engines.is_empty() {
                    &default[..]
                } else {
                    request.engines
                };
                if i == 0 && request.skip_refused && !engines.iter().any(|e| e.takes(f.kind)) {
                    let able: Vec<&str> = crate::engines::engines_for(f.kind)
                        .iter()
                        .map(|e| e.key())
                        .collect();
                    skipped.push((
                        f.key.to_string(),
                        format!(
                            "none of the chosen engines takes {} (engines that do: {})",
                            f.kind.key(),
                            able.join(", ")
                        ),
                    ));
                }
                let refused_models = if request.skip_refused
                    && f.kind != Kind::Cp
                    && engines
                        .iter()
                        .any(|e| e.takes(f.kind) && e.restricts_models())
                {
                    match loaded.instance.build(f.key) {
                        Ok(model) => engines
                            .iter()
                            .filter_map(|e| e.model_refusal(&model).map(|why| (*e, why)))
                            .collect(),
                        Err(_) => Vec::new(),
                    }
                } else {
                    Vec::new()
                };
                for &engine in engines {
                    if request.skip_refused && !engine.takes(f.kind) {
                        continue;
                    }
                    if let Some((_, why)) = refused_models.iter().find(|(e, _)| *e == engine) {
                        let what = format!("{} on {engine}", f.key);
                        if !skipped.iter().any(|(w, _)| *w == what) {
                            skipped.push((what, why.clone()));
                        }
                        continue;
                    }
                    for options in request.variants {
                        let settings = engine.settings(f.kind, options);
                        for repeat in 1..=request.repeats {
                            let id = run_id(
                                puzzle.key(),
                                &canonical,
                                f.key,
                                engine,
                                options,
                                &settings,
                                repeat,
                            );
                            if !seen.insert(id.clone()) {
                                continue;
                            }
                            runs.push(RunSpec {
                                instance: i,
                                formulation: f.key.to_string(),
                                kind: f.kind,
                                source: f.source,
                                engine,
                                options: options.clone(),
                                settings: settings.clone(),
                                repeat,
                                run_id: id,
                                cap: None,
                            });
                        }
                    }
                }
            }
        }
        Ok(Plan {
            puzzle,
            instances,
            runs,
            skipped,
            same,
            repeat_gate: None,
            race: None,
            race_rule: None,
        })
    }
}

/// The note that instances listed twice (the same puzzle under two names) are run
/// once, or `None` when there are none.
pub fn same_note(same: &[(String, String)]) -> Option<String> {
    if same.is_empty() {
        return None;
    }
    let shown: Vec<String> = same
        .iter()
        .take(5)
        .map(|(later, first)| format!("{later} = {first}"))
        .collect();
    let more = same.len().saturating_sub(5);
    let (count, verb) = match same.len() {
        1 => ("1 instance is".to_string(), "it is"),
        n => (format!("{n} instances are"), "they are"),
    };
    Some(format!(
        "{count} the same puzzle as one listed before, so {verb} run once, under the first name: {}{}",
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    ))
}

impl Plan {
    /// What each run is, for estimating its cost ([`crate::shard`]).
    pub fn run_costs(&self) -> Vec<crate::shard::RunCost<'_>> {
        self.runs
            .iter()
            .map(|r| crate::shard::RunCost {
                run_id: &r.run_id,
                puzzle: self.puzzle.key(),
                instance: self.instances[r.instance].instance.name(),
                formulation: &r.formulation,
                backend: r.engine.key(),
                time_limit: r.options.time_limit,
            })
            .collect()
    }

    /// The most threads any of its runs applies (1 when none says): the cores a worker
    /// needs.
    pub fn max_threads(&self) -> usize {
        self.runs
            .iter()
            .filter_map(|r| r.settings.threads)
            .max()
            .unwrap_or(1) as usize
    }

    /// Takes the later repeats (2 and on) out of a plan with a [`Plan::repeat_gate`], to be
    /// put back and gated ([`Plan::gate_repeats`]) once the first ones ran; nothing for a
    /// plan without a gate.
    pub fn take_later_repeats(&mut self) -> Vec<RunSpec> {
        if self.repeat_gate.is_none() {
            return Vec::new();
        }
        let (later, first) = std::mem::take(&mut self.runs)
            .into_iter()
            .partition(|r| r.repeat > 1);
        self.runs = first;
        later
    }

    /// Leaves out the later repeats ([`Plan::repeat_gate`]) whose first repeat is recorded
    /// in `rows` and failed or took more than the gate's fraction of its time limit
    /// (charged seconds); returns how many were left out. Runs of repeat 1, and every run
    /// of a plan without a gate, stay.
    pub fn gate_repeats(&mut self, rows: &[Record]) -> usize {
        let Some(fraction) = self.repeat_gate else {
            return 0;
        };
        let first: HashMap<&str, &Record> = rows.iter().map(|r| (r.run_id.as_str(), r)).collect();
        let keep: Vec<bool> = self
            .runs
            .iter()
            .map(|r| {
                if r.repeat <= 1 {
                    return true;
                }
                let canonical = self.instances[r.instance].instance.canonical();
                let id = run_id(
                    self.puzzle.key(),
                    &canonical,
                    &r.formulation,
                    r.engine,
                    &r.options,
                    &r.settings,
                    1,
                );
                match first.get(id.as_str()) {
                    None => true,
                    Some(row) => {
                        let limit = row.time_limit.unwrap_or(f64::INFINITY);
                        crate::stats::succeeded(row)
                            && crate::stats::charged_seconds(row) <= fraction * limit
                    }
                }
            })
            .collect();
        let before = self.runs.len();
        self.retain_runs(&keep);
        before - self.runs.len()
    }

    /// Keeps the runs whose flag is true (one flag per run, in plan order).
    pub fn retain_runs(&mut self, keep: &[bool]) {
        assert_eq!(keep.len(), self.runs.len());
        let mut flags = keep.iter();
        self.runs
            .retain(|_| *flags.next().expect("one flag per run"));
    }
}

/// Fills a record from a report (or from the reason a run could not start).
pub fn to_record(
    puzzle: &str,
    instance: &dyn Instance,
    spec: &RunSpec,
    env: &RunEnv,
    result: Result<RunResult, String>,
) -> Record {
    let s = &spec.settings;
    let mut r = Record {
        run_id: spec.run_id.clone(),
        puzzle: puzzle.to_string(),
        instance: instance.name().to_string(),
        size_label: instance.size_label(),
        size: Some(instance.size()),
        instance_info: instance.info(),
        formulation: spec.formulation.clone(),
        backend: spec.engine.key().to_string(),
        repeat: spec.repeat,
        seed: s.seed,
        threads: s.threads,
        time_limit: spec.options.time_limit,
        presolve: s.presolve,
        mip_gap: s.mip_gap,
        heuristics: s.heuristics.map(|h| h.key().to_string()),
        count: s.count,
        git_commit: env.git_commit.clone(),
        host: env.host.clone(),
        machine: env.machine.clone(),
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
            r.call_seconds = o.call_seconds;
            r.solver_version = o.version.clone().unwrap_or_default();
            r.build_seconds = Some(rep.build_seconds);
            r.objective = o.objective;
            r.best_bound = o.best_bound;
            r.gap = o.gap;
            r.lp_bound = rep.lp_bound();
            r.lp_seconds = rep.lp.as_ref().map(|l| l.seconds);
            r.nodes = o.nodes;
            r.variables = Some(rep.counts.variables);
            r.binaries = Some(rep.counts.binaries);
            r.integers = Some(rep.counts.integers);
            r.continuous = Some(rep.counts.continuous);
            r.constraints = Some(rep.counts.constraints);
            r.nonzeros = Some(rep.counts.nonzeros);
            r.verified = rep.verified();
            r.answer_hash = rep
                .answer
                .as_ref()
                .filter(|a| a.verdict.is_ok())
                .map_or(String::new(), |a| crate::record::answer_hash(&a.json));
            r.rounds = o.rounds;
            r.cuts = o.cuts;
            r.separator_seconds = o.separator_seconds;
            r.fixings = rep.fixings;
            r.run_seconds = rep.run_seconds;
            if spec.engine.capabilities().timeline {
                if let (Some(trace), Some(end)) = (&rep.trace, rep.run_seconds) {
                    // The reference of the primal integral is known now only where the
                    // run proved its own optimum; the report fills the others.
                    let proved = o.status == Status::Optimal && o.gap.is_some_and(|g| g <= 1e-9);
                    let m = trace.measures(o.objective.filter(|_| proved), end);
                    r.first_solution_seconds = m.first_solution_seconds;
                    r.best_solution_seconds = m.best_solution_seconds;
                    r.primal_integral = m.primal_integral;
                    r.primal_dual_integral = m.primal_dual_integral;
                }
            }
            r.inferences = o.inferences;
            r.logical_inferences = o.logical_inferences;
            r.conflicts = o.conflicts;
            r.clauses = o.clauses;
            r.aux_variables = o.aux_variables;
            r.solutions = o.solutions;
            if let Some(c) = &rep.certificate {
                r.certificate = c.cell();
                r.certify_seconds = c.certify_seconds;
                r.check_seconds = c.check_seconds;
                r.proof_bytes = c.proof_bytes;
            }
            r.error = o.message.clone().or_else(|| {
                rep.answer
                    .as_ref()
                    .and_then(|a| a.verdict.clone().err())
                    .map(|e| format!("verifier: {e}"))
            });
        }
    }
    if r.solver_version.is_empty() {
        // An external solver's driver names itself in its answer; asking the engine
        // instead would start its interpreter once more.
        r.solver_version = spec.engine.version();
    }
    r
}

/// Runs one spec in this process, streaming its timeline to `timelines` when given (a
/// file that cannot be opened loses the timeline, not the run: the row says so).
pub fn run_in_process(
    puzzle: &str,
    instance: &dyn Instance,
    spec: &RunSpec,
    env: &RunEnv,
    timelines: Option<&Path>,
) -> Record {
    let mut sink_error = None;
    if let Some(path) = timelines {
        match crate::timeline::Sink::open(path, &spec.run_id) {
            Ok(sink) => crate::timeline::stream_next_run(sink),
            Err(e) => sink_error = Some(format!("timeline not kept: {e}")),
        }
    }
    let result = instance.solve(&spec.formulation, spec.engine, &spec.solver_options());
    // A run refused before it started took no sink; the next run must not inherit it.
    drop(crate::timeline::take_sink());
    let mut r = to_record(puzzle, instance, spec, env, result);
    spec.mark_capped(&mut r);
    r.cores = crate::cores::cpu_list(&crate::cores::allowed_cpus());
    if let Some(e) = sink_error {
        r.error = Some(r.error.map_or(e.clone(), |x| format!("{x}; {e}")));
    }
    r
}

impl RunSpec {
    /// The cap that binds this run: [`RunSpec::cap`] when it is below the configuration's
    /// time limit (or the configuration has none). A formulation written outside Rust is
    /// never capped: its command (an interpreter's start, a modelling library's import)
    /// runs before its run clock starts ([`crate::puzzles::user::run`]) and would spend a
    /// cap set from a built-in model's time.
    pub fn binding_cap(&self) -> Option<f64> {
        if self.source == FormulationSource::Command {
            return None;
        }
        self.cap
            .filter(|&c| self.options.time_limit.is_none_or(|limit| c < limit))
    }

    /// The options the solver is given: the configuration's, with the binding cap as the
    /// time limit.
    pub fn solver_options(&self) -> SolveOptions {
        let mut o = self.options.clone();
        if let Some(c) = self.binding_cap() {
            o.time_limit = Some(c);
        }
        o
    }

    /// Marks the row of a capped run: its cap in `cap_seconds`, and status `capped` where
    /// it stopped at its limit (the cap). The row's `time_limit` stays the
    /// configuration's.
    pub fn mark_capped(&self, r: &mut Record) {
        if let Some(c) = self.binding_cap() {
            r.time_limit = self.options.time_limit;
            r.cap_seconds = Some(c);
            if r.status == Status::TimeLimit.key() {
                r.status = crate::record::CAPPED.into();
            }
        }
    }
}

/// How a sweep runs its runs.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// Runs at once (each in its own process).
    pub jobs: usize,
    /// Skip runs whose run id is already in the results file.
    pub resume: bool,
    /// Cap on a worker's address space in MiB.
    pub memory_mb: Option<u64>,
    /// Seconds a worker may run past its solver time limits before it is killed.
    pub grace_seconds: f64,
    /// Run in this process instead of a worker process (no isolation; for debugging).
    pub in_process: bool,
    /// The puzzlebench executable that serves as worker.
    pub exe: PathBuf,
    /// The CPUs of each worker slot (`--jobs` slots; empty lists: not pinned).
    pub cores: Vec<Vec<usize>>,
    /// The cgroups runs are measured in (`None`: rusage).
    pub cgroups: Option<Arc<Cgroups>>,
    /// The order the runs are started in.
    pub order: Order,
}

/// The order a sweep starts its runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// As planned: instance by instance, then formulation, engine, settings and repeat.
    Plan,
    /// Shuffled with this seed, so that a slow drift of the machine (heat, other load,
    /// frequency) spreads over all formulations and engines instead of favouring whichever
    /// ran first.
    Random(u64),
}

impl Order {
    /// `plan` or `random`.
    pub fn key(self) -> &'static str {
        match self {
            Order::Plan => "plan",
            Order::Random(_) => "random",
        }
    }

    /// The seed of a random order.
    pub fn seed(self) -> Option<u64> {
        match self {
            Order::Plan => None,
            Order::Random(s) => Some(s),
        }
    }
}

/// The positions of `n` planned runs in the order they start: 0..n for [`Order::Plan`], a
/// permutation fixed by the seed for [`Order::Random`] (the same seed gives the same order
/// with the same build).
pub fn run_order(n: usize, order: Order) -> Vec<usize> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut v: Vec<usize> = (0..n).collect();
    if let Order::Random(seed) = order {
        v.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    }
    v
}

/// What a sweep did.
#[derive(Debug, Default)]
pub struct SweepOutcome {
    /// Rows written by this sweep, in the order they ended.
    pub rows: Vec<Record>,
    /// Runs skipped because the file already had them (`--resume`).
    pub skipped: usize,
    /// Runs not started because the sweep was stopped.
    pub not_run: usize,
    /// True when a stop signal ended the sweep early.
    pub stopped: bool,
    /// Bytes of an incomplete last line cut off the results file.
    pub repaired_bytes: usize,
    /// The results file had the columns of an older version and was rewritten in today's.
    pub upgraded_columns: bool,
}

/// The hard wall-clock limit of one worker: the run's one time limit (model building, LP
/// relaxation and every solve draw on it) plus the grace for starting the worker, loading
/// the instance, decoding and verifying, and an engine's overrun of its own limit, plus
/// the limits of a certificate's search and check (`--certify`).
pub fn hard_limit(options: &SolveOptions, grace: f64) -> Option<f64> {
    // A certificate's search and its check each have their own limit, after the run's.
    let certify = options.certify.map_or(0.0, |c| 2.0 * c);
    options.time_limit.map(|t| t + grace + certify)
}

/// Runs one spec in a worker process pinned to `cpus`, its timeline streamed to
/// `timelines`, and turns what happened into a record.
pub fn run_isolated(
    plan: &Plan,
    spec: &RunSpec,
    env: &RunEnv,
    config: &SweepConfig,
    cpus: &[usize],
    stop: &AtomicBool,
    timelines: &Path,
) -> Option<Record> {
    let loaded = &plan.instances[spec.instance];
    let instance = loaded.instance.as_ref();
    let puzzle = plan.puzzle.key();
    let job = Job {
        puzzle: plan.puzzle,
        file: loaded.file.clone(),
        instance: instance.name().to_string(),
        formulation: spec.formulation.clone(),
        engine: spec.engine,
        repeat: spec.repeat,
        options: spec.options.clone(),
        run_id: spec.run_id.clone(),
        timelines: Some(timelines.to_path_buf()),
        race: plan.race.clone(),
        cap: spec.cap,
    };
    let limits = Limits {
        // A capped run is stopped soon after its cap, whether or not its engine honours
        // its limit promptly: it is slower than the cap either way.
        hard_seconds: match spec.binding_cap() {
            Some(cap) => Some(kill_after(cap)),
            None => hard_limit(&spec.solver_options(), config.grace_seconds),
        },
        memory_mb: config.memory_mb,
    };
    let placement = Placement {
        cpus,
        cgroups: config.cgroups.as_deref(),
    };
    let iso = isolation::run_isolated(&config.exe, &job, limits, placement, stop);
    let m = &iso.measurement;
    let mut rec = match iso.ending {
        Ending::Stopped => return None,
        Ending::Finished(r) => {
            let mut r = *r;
            if m.oom_kills > 0 {
                let note = format!(
                    "{} process(es) of the run killed at the memory limit of {} MiB",
                    m.oom_kills,
                    m.memory_limit_mb.unwrap_or(0)
                );
                r.error = Some(match r.error {
                    Some(e) => format!("{e}; {note}"),
                    None => note,
                });
            }
            r
        }
        Ending::HardLimit => {
            let mut r = to_record(puzzle, instance, spec, env, Err(String::new()));
            r.status = Status::TimeLimit.key().into();
            r.seconds = Some(m.wall_seconds);
            r.error = Some(match spec.binding_cap() {
                Some(cap) => format!(
                    "stopped {:.2} s after its worker started, past its race's cap of {cap:.3} s (its engine had not stopped at it)",
                    limits.hard_seconds.unwrap_or(0.0)
                ),
                None => format!(
                    "killed at the hard limit of {:.1} s (the run overran its time limit by more than the grace)",
                    limits.hard_seconds.unwrap_or(0.0)
                ),
            });
            spec.mark_capped(&mut r);
            r
        }
        Ending::MemoryLimit => to_record(
            puzzle,
            instance,
            spec,
            env,
            Err(format!(
                "out of memory: the run went over its memory limit of {} MiB and the kernel killed it ({})",
                m.memory_limit_mb.unwrap_or(0),
                m.measured_by
            )),
        ),
        Ending::Failed(reason) => to_record(puzzle, instance, spec, env, Err(reason)),
    };
    if rec.cores.is_empty() {
        rec.cores = crate::cores::cpu_list(cpus);
    }
    rec.machine = env.machine.clone();
    // The row's time is when its worker was reaped, taken by the clock that timed it: the
    // worker's own stamp comes before its exit, so `timestamp - wall_seconds` would fall
    // before the worker started by however long the exit took.
    rec.timestamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    rec.wall_seconds = Some(m.wall_seconds);
    rec.cpu_seconds = m.cpu_seconds;
    rec.peak_memory_mb = m.peak_memory_mb;
    rec.measured_by = m.measured_by.clone();
    rec.memory_limit_mb = m.memory_limit_mb;
    Some(rec)
}

/// Runs a whole plan, appending each row to `out` as it ends and each run's timeline to
/// `<out>.timelines.jsonl` as it goes; `on_row` sees every row
/// (for progress). With `config.resume`, runs already in `out` are skipped. When `stop`
/// turns true, running workers are killed and no partial row is written.
pub fn sweep(
    plan: &Plan,
    out: &Path,
    env: &RunEnv,
    config: &SweepConfig,
    stop: &AtomicBool,
    on_row: &(dyn Fn(&Record) + Sync),
) -> Result<SweepOutcome, String> {
    let (file, existing) = ResultsFile::open(out)?;
    let timelines = &crate::timeline::path_beside(out);
    let done: HashSet<String> = if config.resume {
        existing.rows.iter().map(|r| r.run_id.clone()).collect()
    } else {
        HashSet::new()
    };
    let todo: Vec<&RunSpec> = run_order(plan.runs.len(), config.order)
        .into_iter()
        .map(|i| &plan.runs[i])
        .filter(|s| !done.contains(&s.run_id))
        .collect();
    let skipped = plan.runs.len() - todo.len();
    let next = AtomicUsize::new(0);
    let file = Mutex::new(file);
    let written = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let puzzle = plan.puzzle.key();
    std::thread::scope(|scope| {
        for slot in 0..config.jobs.max(1) {
            let cpus: &[usize] = config.cores.get(slot).map_or(&[], |c| c.as_slice());
            let (next, file, written, failure, todo) = (&next, &file, &written, &failure, &todo);
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) || failure.lock().unwrap().is_some() {
                    return;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(spec) = todo.get(i) else { return };
                let rec = if config.in_process {
                    let instance = plan.instances[spec.instance].instance.as_ref();
                    Some(run_in_process(puzzle, instance, spec, env, Some(timelines)))
                } else {
                    run_isolated(plan, spec, env, config, cpus, stop, timelines)
                };
                let Some(mut rec) = rec else { return };
                if let Some(race) = &plan.race {
                    rec.race = race.clone();
                    rec.race_plan = plan.race_rule.map(|r| r.0);
                    rec.race_margin = plan.race_rule.map(|r| r.1);
                }
                if stop.load(Ordering::SeqCst) && rec.status == Status::Error.key() {
                    // The worker died because the sweep is stopping: not a result.
                    return;
                }
                let mut f = file.lock().unwrap();
                if let Err(e) = f.append(&rec) {
                    *failure.lock().unwrap() = Some(e);
                    return;
                }
                drop(f);
                on_row(&rec);
                written.lock().unwrap().push(rec);
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let rows = written.into_inner().unwrap();
    Ok(SweepOutcome {
        not_run: todo.len() - rows.len(),
        stopped: stop.load(Ordering::SeqCst),
        rows,
        skipped,
        repaired_bytes: existing.repaired_bytes,
        upgraded_columns: existing.upgraded_columns,
    })
}

/// The least slack past its cap (a race's adaptive cap, `crate::race::capping`) after
/// which a capped run's worker is stopped, seconds of wall time from the worker's start
/// ([`kill_after`]).
pub const CAP_KILL_SLACK_SECONDS: f64 = 0.1;

/// The wall time from its worker's start after which a run capped at `cap` is stopped:
/// the cap plus half of it, and at least [`CAP_KILL_SLACK_SECONDS`] (room for the
/// worker's start, and for decoding and verifying an answer found just under the cap).
/// Some engines check their limit coarsely (glpsol in whole seconds): without this a run
/// capped at 0.1 s went on for 0.6 s. A run stopped there is recorded as capped, its time
/// at least its cap, which is what the race takes it for.
pub fn kill_after(cap: f64) -> f64 {
    cap + (0.5 * cap).max(CAP_KILL_SLACK_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::highs::HIGHS;

    /// The run id is the key `--resume` matches finished runs by: a change of how it is
    /// computed (a field, the order of the hashed keys) makes every recorded run run again.
    /// The value was taken from the build before the JSON output changed.
    #[test]
    fn run_ids_stay_the_same_from_build_to_build() {
        let options = SolveOptions::default();
        let settings = HIGHS.settings(Kind::Mip, &options);
        let id = run_id("sudoku", "1.2.\n", "binary", HIGHS, &options, &settings, 1);
        assert_eq!(id, RECORDED);
    }

    const RECORDED: &str = "2c5eaaa754b44061";

    /// A plan of the 9×9 Sudoku of the report on HiGHS, both formulations, three repeats,
    /// a 10 s limit, its later repeats gated.
    fn gated_plan() -> Plan {
        let puzzle = crate::puzzles::puzzle("sudoku").unwrap();
        let file =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("instances/sudoku/report_fig3_1.txt");
        let instances = puzzle
            .load(&file)
            .unwrap()
            .into_iter()
            .map(|instance| Loaded {
                file: file.clone(),
                instance,
            })
            .collect();
        let options = SolveOptions {
            time_limit: Some(10.0),
            ..SolveOptions::default()
        };
        let mut plan = Plan::new(
            puzzle,
            instances,
            &PlanRequest {
                formulations: &["binary".to_string(), "values".to_string()],
                engines: &[HIGHS],
                repeats: 3,
                variants: &[options],
                skip_refused: true,
            },
        )
        .unwrap();
        plan.repeat_gate = Some(0.1);
        plan
    }

    #[test]
    fn later_repeats_run_only_where_the_first_run_was_cheap() {
        let mut plan = gated_plan();
        assert_eq!(plan.runs.len(), 6);
        let first_of = |plan: &Plan, f: &str| {
            plan.runs
                .iter()
                .find(|r| r.formulation == f && r.repeat == 1)
                .unwrap()
                .run_id
                .clone()
        };
        let (binary, values) = (first_of(&plan, "binary"), first_of(&plan, "values"));
        let row = |id: String, status: &str, seconds: f64| Record {
            run_id: id,
            status: status.into(),
            verified: (status == "optimal").then_some(true),
            seconds: Some(seconds),
            time_limit: Some(10.0),
            count: 1,
            ..Record::default()
        };
        // binary took 0.5 s (cheap: under 1 s), values reached its limit.
        let rows = vec![
            row(binary.clone(), "optimal", 0.5),
            row(values, "time_limit", 10.0),
        ];
        assert_eq!(plan.gate_repeats(&rows), 2);
        let kept: Vec<(&str, u32)> = plan
            .runs
            .iter()
            .map(|r| (r.formulation.as_str(), r.repeat))
            .collect();
        assert_eq!(
            kept,
            [("binary", 1), ("binary", 2), ("binary", 3), ("values", 1)]
        );
        // Solved, but in more than a tenth of the limit: not repeated either; a first run
        // not recorded (another shard's): its repeats run.
        let mut plan = gated_plan();
        let rows = vec![row(binary, "optimal", 2.0)];
        assert_eq!(plan.gate_repeats(&rows), 2);
        assert!(
            plan.runs
                .iter()
                .filter(|r| r.formulation == "values")
                .count()
                == 3
        );
        // No gate: every repeat stays.
        let mut plan = gated_plan();
        plan.repeat_gate = None;
        assert_eq!(plan.gate_repeats(&rows), 0);
        assert_eq!(plan.runs.len(), 6);
    }

    #[test]
    fn the_same_seed_gives_the_same_order() {
        assert_eq!(run_order(5, Order::Plan), vec![0, 1, 2, 3, 4]);
        let a = run_order(50, Order::Random(7));
        assert_eq!(a, run_order(50, Order::Random(7)));
        assert_ne!(a, run_order(50, Order::Random(8)));
        assert_ne!(a, run_order(50, Order::Plan));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>(), "a permutation");
    }

    #[test]
    fn a_capped_run_keeps_its_configurations_limit_and_says_capped() {
        let plan = gated_plan();
        let mut spec = plan.runs[0].clone();
        let uncapped_id = spec.run_id.clone();
        // A cap at or above the limit does not bind.
        spec.cap = Some(10.0);
        assert_eq!(spec.binding_cap(), None);
        assert_eq!(spec.solver_options().time_limit, Some(10.0));
        // One below it is the solver's limit; the row keeps the configuration's.
        spec.cap = Some(1e-6);
        assert_eq!(spec.solver_options().time_limit, Some(1e-6));
        let inst = plan.instances[spec.instance].instance.as_ref();
        let r = run_in_process("sudoku", inst, &spec, &RunEnv::default(), None);
        assert_eq!(r.status, "capped", "{:?}", r.error);
        assert!(r.is_capped() && !crate::stats::succeeded(&r));
        assert_eq!(r.time_limit, Some(10.0));
        assert_eq!(r.cap_seconds, Some(1e-6));
        assert_eq!(r.run_id, uncapped_id);
        // A run that finished under its cap keeps its status, and says its cap.
        let mut done = Record {
            status: "optimal".into(),
            ..Record::default()
        };
        spec.cap = Some(5.0);
        spec.mark_capped(&mut done);
        assert_eq!(done.status, "optimal");
        assert_eq!(done.cap_seconds, Some(5.0));
        // Without a cap nothing changes.
        spec.cap = None;
        let mut failed = Record {
            status: "time_limit".into(),
            time_limit: Some(10.0),
            ..Record::default()
        };
        spec.mark_capped(&mut failed);
        assert_eq!(failed.status, "time_limit");
        assert_eq!(failed.cap_seconds, None);
    }
}
