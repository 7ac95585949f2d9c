//! `puzzlebench race`: race a puzzle's configurations up its ladder of instances and drop
//! those a test shows are worse (F-Race; the method is in [`crate::race`] and
//! docs/race.md). `reproduce` makes each puzzle's engine comparison this way.
//!
//! A race's candidates are those of the puzzle's engine comparison ([`SuitePart::every_engine`]):
//! every formulation on every chosen engine that takes its kind, with the part's settings
//! and time limit; a puzzle with two comparison parts (n-Queens) races each on its own. Each
//! round runs every survivor on the next instance of the ladder, one worker process per run
//! as every sweep does, in random order, each run a row of `DIR/results.csv` whose `race`
//! column names the race. The race is rebuilt from the rows when started again
//! ([`crate::race::state::RaceState`]), so a race killed and started again with the same
//! command goes on where it was, and `DIR/race.jsonl` is rewritten from the same state.

use super::{bad_input, failed, own_executable, parse_engines, stop_flag, Failure};
use crate::engines::{Engine, SolveOptions};
use crate::puzzles::{self, Puzzle, SuitePart};
use crate::race::capping::cap_after;
use crate::race::elimination::RaceConfig;
use crate::race::ladder::{ladder_file, Ladder};
use crate::race::state::{RaceState, CAPPED, ENOUGH, ONE_LEFT, PLAN_RUN};
use crate::record::{self, Record};
use crate::runner::{self, Loaded, Plan, PlanRequest, RunEnv, RunSpec, SweepConfig};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The seed of the instance order within each rung, unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = 1;

/// The instances a race plans, unless `--instances` says otherwise: three looks of 12.
pub const DEFAULT_INSTANCES: usize = 36;

/// One race: a puzzle's comparison part (or one of its questions) with its budget.
#[derive(Clone)]
pub struct RaceSpec {
    /// The race's name: the puzzle key, with `:question` for a puzzle that races several
    /// questions (`queens:base`).
    pub name: String,
    /// The puzzle.
    pub puzzle: &'static dyn Puzzle,
    /// The question (the formulations joined by `+`), when the puzzle races several.
    pub question: Option<String>,
    /// The formulations raced.
    pub formulations: Vec<String>,
    /// The settings swept (one candidate per formulation, engine and setting), with the
    /// time limit.
    pub variants: Vec<SolveOptions>,
    /// The time limit of every run, seconds.
    pub time_limit: f64,
    /// The instances the race plans (fewer when the ladder holds fewer).
    pub instances: usize,
    /// The safety cap: wall seconds of the race's runs after which it stops short of its
    /// plan (and says so).
    pub budget: f64,
}

/// The races of `p`: one per engine-comparison part of its quick suite (or full, when not
/// `quick`) whose formulations `only` keeps (all when empty; a formulation written outside
/// Rust named there joins the parts of the built-in ones named with it, or the first
/// part), with `time_limit` replacing
/// the part's own when given, `instances` planned each, and the safety cap `budget`
/// (seconds of runs).
pub fn race_specs(
    p: &'static dyn Puzzle,
    quick: bool,
    only: &[String],
    time_limit: Option<f64>,
    instances: usize,
    budget: f64,
) -> Result<Vec<RaceSpec>, Failure> {
    for f in only {
        p.formulation(f).map_err(bad_input)?;
    }
    let only: Vec<String> = only
        .iter()
        .map(|f| {
            p.formulation(f)
                .map(|i| i.key.to_string())
                .unwrap_or_default()
        })
        .collect();
    let parts: Vec<SuitePart> = p
        .suite(quick)
        .parts
        .into_iter()
        .filter(|part| part.every_engine)
        .collect();
    let several = parts.len() > 1;
    // Formulations written outside Rust race in no part of their own: each named one joins
    // every part that races a built-in formulation named beside it, or the first part
    // when only such formulations are named.
    let user: Vec<String> = only
        .iter()
        .filter(|f| f.starts_with(crate::puzzles::user::definition::PREFIX))
        .cloned()
        .collect();
    let only_user = !user.is_empty() && user.len() == only.len();
    let mut out = Vec::new();
    for (n, part) in parts.iter().enumerate() {
        let mut formulations: Vec<String> = part
            .formulations
            .iter()
            .map(|f| f.to_string())
            .filter(|f| only.is_empty() || only.contains(f))
            .collect();
        if !formulations.is_empty() || (only_user && n == 0) {
            formulations.extend(user.iter().cloned());
        }
        if formulations.is_empty() {
            continue;
        }
        let question = several.then(|| part.formulations.join("+"));
        let limit = time_limit.unwrap_or(part.time_limit);
        let mut variants = Vec::new();
        for &presolve in &part.presolve {
            for &heuristics in &part.heuristics {
                variants.push(SolveOptions {
                    time_limit: Some(limit),
                    presolve,
                    heuristics,
                    ..SolveOptions::default()
                });
            }
        }
        out.push(RaceSpec {
            name: match &question {
                Some(q) => format!("{}:{q}", p.key()),
                None => p.key().to_string(),
            },
            puzzle: p,
            question,
            formulations,
            variants,
            time_limit: limit,
            instances,
            budget,
        });
    }
    if out.is_empty() {
        return Err(bad_input(format!(
            "{}: no engine comparison races the formulations named",
            p.key()
        )));
    }
    Ok(out)
}

/// Parses a budget: seconds (`90`), or a number with `s`, `m` or `h` (`90s`, `5m`, `1.5h`).
pub fn parse_budget(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, unit) = match t.char_indices().last() {
        Some((i, 's')) => (&t[..i], 1.0),
        Some((i, 'm')) => (&t[..i], 60.0),
        Some((i, 'h')) => (&t[..i], 3600.0),
        _ => (t, 1.0),
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v * unit),
        _ => Err(format!(
            "--budget: `{text}` is not a duration; write seconds (90), or a number with s, m or h (90s, 5m, 1.5h)"
        )),
    }
}

/// A candidate: a formulation on an engine with one setting.
#[derive(Clone)]
struct Candidate {
    formulation: String,
    engine: Engine,
    options: SolveOptions,
}

/// The name rows give a run of `spec`'s formulation, engine and settings
/// ([`Record::config_name`]).
fn run_name(
    formulation: &str,
    engine: Engine,
    options: &SolveOptions,
    kind: crate::engines::Kind,
) -> String {
    let s = engine.settings(kind, options);
    Record {
        formulation: formulation.to_string(),
        backend: engine.key().to_string(),
        threads: s.threads,
        presolve: s.presolve,
        mip_gap: s.mip_gap,
        heuristics: s.heuristics.map(|h| h.key().to_string()),
        count: s.count,
        ..Record::default()
    }
    .config_name()
}

/// The candidates of `spec` on `engines`, by name.
fn candidates(spec: &RaceSpec, engines: &[Engine]) -> Result<BTreeMap<String, Candidate>, Failure> {
    let mut out = BTreeMap::new();
    for f in &spec.formulations {
        let info = spec.puzzle.formulation(f).map_err(bad_input)?;
        for &e in engines.iter().filter(|e| e.takes(info.kind)) {
            for v in &spec.variants {
                out.insert(
                    run_name(info.key, e, v, info.kind),
                    Candidate {
                        formulation: info.key.to_string(),
                        engine: e,
                        options: v.clone(),
                    },
                );
            }
        }
    }
    Ok(out)
}

/// The number of candidates `spec` has on `engines` (a race needs two).
pub fn candidate_count(spec: &RaceSpec, engines: &[Engine]) -> usize {
    candidates(spec, engines).map_or(0, |c| c.len())
}

/// Where and how a race runs its runs.
pub struct RaceRun<'a> {
    /// The results file.
    pub csv: &'a Path,
    /// The race log (`race.jsonl` beside the results).
    pub log: &'a Path,
    /// Facts written in every row.
    pub env: &'a RunEnv,
    /// How runs run.
    pub config: &'a SweepConfig,
    /// Set by a signal.
    pub stop: &'a AtomicBool,
    /// The folder the ladders are in.
    pub instances_dir: &'a Path,
    /// The seed of the instance order within each rung.
    pub seed: u64,
    /// No progress line.
    pub quiet: bool,
}

/// How a race ended.
pub struct Ended {
    /// The race's state at the end.
    pub state: RaceState,
    /// Why it ended: [`ONE_LEFT`], [`ENOUGH`], [`PLAN_RUN`] or [`CAPPED`].
    pub reason: String,
    /// The rungs' labels, by instance raced.
    pub rungs: Vec<String>,
    /// The instances planned (the plan's length).
    pub planned: usize,
}

/// Runs (or goes on with) the race `spec` on `engines`.
pub fn run_race(spec: &RaceSpec, engines: &[Engine], r: &RaceRun) -> Result<Ended, Failure> {
    let p = spec.puzzle;
    let cands = candidates(spec, engines)?;
    if cands.len() < 2 {
        return Err(bad_input(format!(
            "{}: {} candidate(s) ({}); a race needs two: name more engines or formulations",
            spec.name,
            cands.len(),
            cands.keys().cloned().collect::<Vec<_>>().join(", ")
        )));
    }
    let file = ladder_file(r.instances_dir, p.key(), spec.question.as_deref());
    if !file.is_file() {
        return Err(bad_input(format!(
            "{}: no ladder for {} (a race takes its instances from it; see docs/race.md)",
            file.display(),
            spec.name
        )));
    }
    let ladder = Ladder::read(&file, p, r.instances_dir).map_err(bad_input)?;
    let labels: Vec<String> = ladder.rungs.iter().map(|g| g.label.clone()).collect();
    let sizes: Vec<usize> = ladder.rungs.iter().map(|g| g.instances.len()).collect();
    let planned = ladder.plan(r.seed, spec.instances);
    let plan_names: Vec<String> = planned
        .iter()
        .map(|(_, l)| l.instance.name().to_string())
        .collect();
    let names: Vec<String> = cands.keys().cloned().collect();
    // Rows this race already has (a race started again goes on from them).
    let mut done: HashMap<String, Record> = HashMap::new();
    if r.csv.exists() {
        for row in record::read_results(r.csv).map_err(bad_input)? {
            if row.race == spec.name {
                done.insert(row.run_id.clone(), row);
            }
        }
    }
    if let Some(other) = done
        .values()
        .map(|row| row.config_name())
        .find(|c| !cands.contains_key(c))
    {
        return Err(bad_input(format!(
            "{}: the race {} there has a candidate this one lacks ({other}): it was started with other engines or formulations; start it with the same ones, or use another --out",
            r.csv.display(),
            spec.name
        )));
    }
    if let Some(other) = done
        .values()
        .find(|row| !plan_names.contains(&row.instance))
    {
        return Err(bad_input(format!(
            "{}: the race {} there ran {}, which this race's plan lacks: it was started with another --seed, --instances or ladder; start it with the same ones, or use another --out",
            r.csv.display(),
            spec.name,
            other.instance
        )));
    }
    let mut state = RaceState::new(&spec.name, p.key(), names.clone());
    let rule = RaceConfig::default();
    let total = planned.len();
    let mut events = vec![json!({
        "race": spec.name, "event": "start", "puzzle": p.key(),
        "candidates": names, "ladder": file.display().to_string(),
        "rungs": labels.iter().zip(&sizes).map(|(l, n)| json!({"rung": l, "instances": n})).collect::<Vec<_>>(),
        "seed": r.seed, "time_limit": spec.time_limit, "cap_seconds": spec.budget,
        "plan": plan_names, "look_every": rule.look_every, "alpha": rule.alpha,
        "alpha_by_look": (1..=rule.looks_in(total).max(1)).map(|t| rule.alpha_at(t)).collect::<Vec<_>>(),
        "min_pair": rule.min_pair,
    })];
    let bar = super::progress_bar(total.max(1) as u64, r.quiet, &spec.name);
    let mut rungs = Vec::new();
    let mut plan = planned.into_iter();
    let reason = loop {
        if state.survivors().len() <= 1 {
            break ONE_LEFT;
        }
        if state.has_enough() {
            break ENOUGH;
        }
        if state.spent >= spec.budget {
            break CAPPED;
        }
        let Some((g, loaded)) = plan.next() else {
            break PLAN_RUN;
        };
        let survivors = state.survivors();
        bar.set_message(format!(
            "instance {} of {total} ({}), {} survivors",
            state.raced.len() + 1,
            labels[g],
            survivors.len()
        ));
        let mut plan = round_plan(spec, &cands, &survivors, loaded)?;
        // Adaptive capping: the current best runs first, alone; the others then run with a
        // cap from its time there.
        let leader = state.best().filter(|b| survivors.contains(b));
        let (first, rest): (Vec<RunSpec>, Vec<RunSpec>) = std::mem::take(&mut plan.runs)
            .into_iter()
            .partition(|s| Some(run_name(&s.formulation, s.engine, &s.options, s.kind)) == leader);
        plan.runs = first;
        let mut rows = run_round(&plan, &done, r)?;
        let cap = rows.as_ref().and_then(|rs| rs.first()).and_then(cap_after);
        if rows.is_some() {
            plan.runs = rest
                .into_iter()
                .map(|mut s| {
                    s.cap = cap;
                    s
                })
                .collect();
            rows =
                run_round(&plan, &done, r)?.map(|more| [rows.unwrap_or_default(), more].concat());
        }
        let Some(rows) = rows else {
            bar.finish_and_clear();
            write_log(r.log, &spec.name, &events)?;
            return Err(stopped());
        };
        // By name: the rows come in the order the runs ended.
        let capped: Vec<String> = rows
            .iter()
            .filter(|row| row.is_capped())
            .map(|row| row.config_name())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let name = plan.instances[0].instance.name().to_string();
        let refs: Vec<&Record> = rows.iter().collect();
        let before = state.refusals.len();
        let Some(decisions) = state.add(&name, &refs) else {
            return Err(failed(format!(
                "{}: instance {name}: a survivor has no row after its runs",
                spec.name
            )));
        };
        rungs.push(labels[g].clone());
        let best = state.best().unwrap_or_default();
        let k = state.raced.len();
        events.push(json!({
            "race": spec.name, "event": "instance", "instance": k, "name": name,
            "rung": labels[g], "survivors": state.survivors(),
            "best": best, "spent_seconds": round3(state.spent),
            "ran_first": leader, "cap_seconds": cap.map(round3), "capped": capped,
        }));
        if rule.is_look(k) {
            if let Some(look) = state.looks().last().filter(|l| l.raced_instances == k) {
                let mut v = serde_json::to_value(look).map_err(failed)?;
                v["race"] = json!(spec.name);
                v["event"] = json!("look");
                events.push(v);
            }
        }
        for f in &state.refusals[before..] {
            events.push(
                json!({"race": spec.name, "event": "refused", "candidate": f.candidate,
                "instance": f.instance, "reason": f.reason}),
            );
        }
        for d in decisions {
            let mut v = serde_json::to_value(&d).map_err(failed)?;
            v["race"] = json!(spec.name);
            v["event"] = json!("drop");
            events.push(v);
        }
        write_log(r.log, &spec.name, &events)?;
        bar.set_position(k as u64);
    };
    bar.finish_and_clear();
    events.push(json!({
        "race": spec.name, "event": "end", "reason": reason,
        "raced_instances": state.raced.len(), "planned_instances": total,
        "counted_best_runner_up": state.counted_between(
            &state.best().unwrap_or_default(), &state.runner_up().unwrap_or_default()),
        "best": state.best(), "runner_up": state.runner_up(), "survivors": state.survivors(),
        "spent_seconds": round3(state.spent),
    }));
    write_log(r.log, &spec.name, &events)?;
    Ok(Ended {
        state,
        reason: reason.to_string(),
        rungs,
        planned: total,
    })
}

/// The error of a race a signal stopped.
fn stopped() -> Failure {
    Failure::new(
        130,
        "stopped by a signal; run the same command again to go on (finished runs are kept)",
    )
}

/// The rows of `plan`'s runs: those `done` already holds, and the others run now. `None`
/// when a signal stopped the sweep.
fn run_round(
    plan: &Plan,
    done: &HashMap<String, Record>,
    r: &RaceRun,
) -> Result<Option<Vec<Record>>, Failure> {
    let mut rows: Vec<Record> = plan
        .runs
        .iter()
        .filter_map(|s| done.get(&s.run_id).cloned())
        .collect();
    if rows.len() < plan.runs.len() {
        let outcome = runner::sweep(plan, r.csv, r.env, r.config, r.stop, &|_: &Record| {})
            .map_err(bad_input)?;
        if outcome.stopped {
            return Ok(None);
        }
        rows.extend(outcome.rows);
    }
    Ok(Some(rows))
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The runs of one round: every survivor on `loaded`, with the race's own run ids.
fn round_plan(
    spec: &RaceSpec,
    cands: &BTreeMap<String, Candidate>,
    survivors: &[String],
    loaded: Loaded,
) -> Result<Plan, Failure> {
    let mut runs: Vec<RunSpec> = Vec::new();
    let mut plan: Option<Plan> = None;
    let mut loaded = Some(loaded);
    for name in survivors {
        let c = &cands[name];
        let one = Plan::new(
            spec.puzzle,
            match plan.take() {
                Some(p) => p.instances,
                None => vec![loaded.take().expect("the instance")],
            },
            &PlanRequest {
                formulations: std::slice::from_ref(&c.formulation),
                engines: &[c.engine],
                repeats: 1,
                variants: std::slice::from_ref(&c.options),
                skip_refused: false,
            },
        )
        .map_err(bad_input)?;
        runs.extend(one.runs.iter().cloned().map(|mut s| {
            s.run_id = record::race_run_id(&spec.name, &s.run_id);
            s
        }));
        plan = Some(one);
    }
    let mut plan = plan.expect("at least one survivor");
    plan.runs = runs;
    plan.race = Some(spec.name.clone());
    Ok(plan)
}

/// Rewrites `log` with `events` for race `name`, keeping the lines of other races.
fn write_log(log: &Path, name: &str, events: &[serde_json::Value]) -> Result<(), Failure> {
    let mut lines: Vec<String> = match std::fs::read_to_string(log) {
        Ok(text) => text
            .lines()
            .filter(|l| {
                serde_json::from_str::<serde_json::Value>(l)
                    .map_or(true, |v| v["race"].as_str() != Some(name))
            })
            .map(String::from)
            .collect(),
        Err(_) => Vec::new(),
    };
    lines.extend(events.iter().map(|e| e.to_string()));
    let tmp = log.with_extension("jsonl.tmp");
    std::fs::write(&tmp, lines.join("\n") + "\n")
        .and_then(|_| std::fs::rename(&tmp, log))
        .map_err(|e| failed(format!("{}: {e}", log.display())))
}

/// What `puzzlebench race` was asked.
pub struct RaceCommand {
    /// Puzzle key.
    pub puzzle: String,
    /// Engine keys (None: every installed engine).
    pub engines: Option<Vec<String>>,
    /// Formulation keys (empty: those of the puzzle's engine comparison).
    pub formulations: Vec<String>,
    /// The safety cap per race (seconds of runs), as written.
    pub budget: String,
    /// The instances each race plans.
    pub instances: usize,
    /// Time limit of each run (None: the comparison's own).
    pub time_limit: Option<f64>,
    /// Output folder.
    pub out: PathBuf,
    /// The seed of the instance order within each rung.
    pub seed: u64,
    /// Workers, memory limit, cores, cgroups and run order.
    pub measuring: super::measuring::Measuring,
    /// The folder holding the instance folders and ladders.
    pub instances_dir: PathBuf,
    /// No progress line.
    pub quiet: bool,
}

/// The seconds a worker of a race may run past its time limit before it is killed.
pub const GRACE_SECONDS: f64 = 5.0;

/// `puzzlebench race`.
pub fn race(c: &RaceCommand) -> Result<(), Failure> {
    let budget = parse_budget(&c.budget).map_err(bad_input)?;
    super::check_time_limit(c.time_limit)?;
    let p = puzzles::puzzle(&c.puzzle).map_err(bad_input)?;
    let engines = match &c.engines {
        Some(k) => parse_engines(k)?,
        None => Engine::installed_engines(),
    };
    if c.instances == 0 {
        return Err(bad_input("--instances: a race plans at least one instance"));
    }
    let specs = race_specs(p, true, &c.formulations, c.time_limit, c.instances, budget)?;
    std::fs::create_dir_all(&c.out).map_err(|e| bad_input(format!("{}: {e}", c.out.display())))?;
    let csv = c.out.join("results.csv");
    record::check_results_file(&csv).map_err(bad_input)?;
    let stop = stop_flag()?;
    let mut env = RunEnv::detect();
    let setup = c.measuring.setup(1, false)?;
    if !c.quiet {
        eprintln!("{}", setup.describe());
    }
    env.machine = setup.record_sweep(&c.measuring, &csv, None)?;
    let config = setup.config(&c.measuring, true, GRACE_SECONDS, false, own_executable()?);
    let run = RaceRun {
        csv: &csv,
        log: &c.out.join("race.jsonl"),
        env: &env,
        config: &config,
        stop,
        instances_dir: &c.instances_dir,
        seed: c.seed,
        quiet: c.quiet,
    };
    for spec in &specs {
        let ended = run_race(spec, &engines, &run)?;
        println!("{}", summary(&ended));
    }
    println!(
        "rows: {}; decisions: {}",
        csv.display(),
        c.out.join("race.jsonl").display()
    );
    Ok(())
}

/// A race's outcome in a few lines.
pub fn summary(e: &Ended) -> String {
    let s = &e.state;
    let best = s.best().unwrap_or_else(|| "none".into());
    let runner = s.runner_up().unwrap_or_else(|| "none".into());
    let mut out = format!(
        "{}: {} of {} planned instances raced, {:.1} s of runs; ended: {}.\n",
        s.name,
        s.raced.len(),
        e.planned,
        s.spent,
        e.reason
    );
    let (w, l) = s.versus(&best, &runner);
    out.push_str(&format!(
        "  best: {best}; runner-up: {runner}; {} instances separate them (best faster on {w}, slower on {l})\n",
        w + l
    ));
    let others: Vec<String> = s
        .survivors()
        .into_iter()
        .filter(|c| Some(c) != s.best().as_ref())
        .collect();
    if !others.is_empty() {
        out.push_str(&format!(
            "  not separated from the best: {}\n",
            others.join(", ")
        ));
    }
    for d in s.decisions() {
        out.push_str(&format!(
            "  dropped {} after {} instances: best faster on {} of {} separating, sign test p = {:.2e} (Holm level {:.2e})\n",
            d.candidate, d.raced_instances, d.best_faster, d.counted_instances, d.p_value, d.level
        ));
    }
    for f in &s.refusals {
        out.push_str(&format!(
            "  {} refused from instance {}: {}\n",
            f.candidate, f.instance, f.reason
        ));
    }
    out.trim_end().to_string()
}
