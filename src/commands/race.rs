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
use crate::race::ladder::{ladder_file, Ladder};
use crate::race::state::{RaceState, CAPPED, DECIDED, ONE_LEFT, PLAN_RUN};
use crate::record::{self, Record};
use crate::runner::{self, Loaded, Plan, PlanRequest, RunEnv, RunSpec, SweepConfig};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The seed of the instance order within each rung, unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = 1;

/// The instances a race plans, unless `--instances` says otherwise (fewer where its ladder
/// holds fewer): most of a race's time goes before its first look, when every candidate
/// runs; the instances after it, with few survivors, are cheap and decide the close pairs.
pub const DEFAULT_INSTANCES: usize = 48;

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
    /// The margin of equivalence (0.1: a survivor within 10 % of the best, both ways, at
    /// the race's level, is equivalent to it).
    pub margin: f64,
}

/// The races of `p`: one per engine-comparison part of its quick suite (or full, when not
/// `quick`) whose formulations `only` keeps (all when empty; a formulation written outside
/// Rust named there joins the parts of the built-in ones named with it, or the first
/// part), with `time_limit` replacing
/// the part's own when given, `instances` planned each, and the safety cap `budget`
/// (seconds of runs), and the margin of equivalence `margin`.
pub fn race_specs(
    p: &'static dyn Puzzle,
    quick: bool,
    only: &[String],
    time_limit: Option<f64>,
    instances: usize,
    budget: f64,
    margin: f64,
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
        .filter(|f| {
            p.formulation(f)
                .is_ok_and(|i| i.source == crate::puzzles::FormulationSource::Command)
        })
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
            margin,
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

/// Parses a margin of equivalence: a percentage (`10%`, `2.5 %`) or a fraction below 1
/// (`0.1`); it must lie above 0 and below 100 %.
pub fn parse_margin(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    let bad = || {
        format!(
            "--margin: `{text}` is not a margin; write a percentage (10%) or a fraction below 1 (0.1)"
        )
    };
    let v: f64 = num.parse().map_err(|_| bad())?;
    let m = v * scale;
    if !(m > 0.0 && m < 1.0 && m.is_finite()) {
        return Err(bad());
    }
    Ok(m)
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
    /// Where progress bars go when several races run at once.
    pub bars: Option<&'a indicatif::MultiProgress>,
}

/// How a race ended.
pub struct Ended {
    /// The race's state at the end.
    pub state: RaceState,
    /// Why it ended: [`ONE_LEFT`], [`DECIDED`], [`PLAN_RUN`] or [`CAPPED`].
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
    if let Some(row) = done.values().find(|row| {
        row.race_plan.is_some_and(|n| n != planned.len())
            || row
                .race_margin
                .is_some_and(|m| (m - spec.margin).abs() > 1e-12)
    }) {
        return Err(bad_input(format!(
            "{}: the race {} there planned {} instances with a margin of {}, this one {} with {}: start it with the same --instances and --margin, or use another --out",
            r.csv.display(),
            spec.name,
            row.race_plan.map_or("?".into(), |n| n.to_string()),
            row.race_margin.map_or("?".into(), crate::race::state::percent),
            planned.len(),
            crate::race::state::percent(spec.margin)
        )));
    }
    let total = planned.len();
    let mut state = RaceState::new(&spec.name, p.key(), names.clone(), total, spec.margin);
    let rule = state.config().clone();
    let mut events = vec![json!({
        "race": spec.name, "event": "start", "puzzle": p.key(),
        "candidates": names, "ladder": file.display().to_string(),
        "rungs": labels.iter().zip(&sizes).map(|(l, n)| json!({"rung": l, "instances": n})).collect::<Vec<_>>(),
        "seed": r.seed, "time_limit": spec.time_limit, "budget_seconds": spec.budget,
        "plan": plan_names, "looks": state.schedule().0, "alpha": rule.alpha,
        "alpha_by_look": state.schedule().1, "min_pair": rule.min_pair,
        "margin": rule.margin, "test": "signed-rank, closure of 'a is a best'",
        "runs_at_once": r.config.jobs,
    })];
    let bar = super::progress_bar(total.max(1) as u64, r.quiet, &spec.name);
    let bar = match r.bars {
        Some(m) => m.add(bar),
        None => bar,
    };
    let mut rungs = Vec::new();
    let mut plan = planned.into_iter();
    let reason = loop {
        if state.survivors().len() <= 1 {
            break ONE_LEFT;
        }
        if state.decided() {
            break DECIDED;
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
        let mut plan = round_plan(spec, &cands, &survivors, loaded, total)?;
        // Adaptive capping: the current best runs first; the others then run with a cap
        // from its time there. Every run of a race runs alone in it, one at a time
        // (`run_races` gives each race one worker), so the best and the others are timed
        // alike.
        let leader = state.leader().filter(|b| survivors.contains(b));
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
        log_look(&mut events, &spec.name, &state, k, &decisions)?;
        for f in &state.refusals[before..] {
            events.push(
                json!({"race": spec.name, "event": "refused", "candidate": f.candidate,
                "instance": f.instance, "reason": f.reason}),
            );
        }
        write_log(r.log, &spec.name, &events)?;
        bar.set_position(k as u64);
    };
    bar.finish_and_clear();
    // A race cut short of its plan by its budget makes one last look with the level its
    // plan's later looks would have had.
    let last = state.finish();
    let k = state.raced.len();
    log_look(&mut events, &spec.name, &state, k, &last)?;
    let best = state.best();
    let runner = state.runner_up();
    let verdict = runner.as_deref().and_then(|c| state.verdict(c, reason));
    events.push(json!({
        "race": spec.name, "event": "end", "reason": reason,
        "raced_instances": state.raced.len(), "planned_instances": total,
        "counted_best_runner_up": state.counted_between(
            &best.clone().unwrap_or_default(), &runner.clone().unwrap_or_default()),
        "best": best, "runner_up": runner, "survivors": state.survivors(),
        "verdict": verdict.as_ref().map(|v| v.label()),
        "ratio": verdict.as_ref().map(|v| v.ratio_cell()),
        "level": verdict.as_ref().map(|v| v.comparison.level),
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

/// Adds to `events` the look made after `k` instances, if one was, and its drops.
fn log_look(
    events: &mut Vec<serde_json::Value>,
    race: &str,
    state: &RaceState,
    k: usize,
    decisions: &[crate::race::elimination::Decision],
) -> Result<(), Failure> {
    if let Some(look) = state.looks().last().filter(|l| l.raced_instances == k) {
        let mut v = serde_json::to_value(look).map_err(failed)?;
        v["race"] = json!(race);
        v["event"] = json!("look");
        if !events.iter().any(|e| e == &v) {
            events.push(v);
        }
    }
    for d in decisions {
        let mut v = serde_json::to_value(d).map_err(failed)?;
        v["race"] = json!(race);
        v["event"] = json!("drop");
        events.push(v);
    }
    Ok(())
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
    planned: usize,
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
    plan.race_rule = Some((planned, spec.margin));
    Ok(plan)
}

/// Rewrites `log` with `events` for race `name`, keeping the lines of other races.
fn write_log(log: &Path, name: &str, events: &[serde_json::Value]) -> Result<(), Failure> {
    // Races running at once share the log: one rewrites it at a time.
    static LOG_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = LOG_LOCK.lock().unwrap_or_else(|e| e.into_inner());
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

/// Runs (or goes on with) `races`, each with its engines, up to `at_once` at a time, the
/// costliest first (candidates times the instances before the first look). Each
/// race has one worker of its own: its runs run one at a time, on the CPUs of one slot of
/// `r.config` (slot `i` for the `i`-th race running at once), so that within a race the
/// best and every other candidate are timed alike, each run alone in its race, while the
/// machine's other cores serve other races. `done` is called with each race as it ends.
/// Every race that can run does; the first failure is returned after them (a signal stops
/// them all).
pub fn run_races(
    races: &[(RaceSpec, Vec<Engine>)],
    r: &RaceRun,
    at_once: usize,
    done: &(dyn Fn(&Ended) + Sync),
) -> Result<Vec<Ended>, Failure> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = at_once.clamp(1, races.len().max(1));
    // The longest first (longest processing time first: the last race to end then runs
    // beside the others, not alone): most of a race's time goes before its first look,
    // when every candidate runs, so its cost grows as its candidates times that look.
    let rule = crate::race::elimination::RaceConfig::default();
    let mut order: Vec<usize> = (0..races.len()).collect();
    order.sort_by_key(|&i| {
        let (spec, engines) = &races[i];
        let k = candidate_count(spec, engines);
        std::cmp::Reverse(k * rule.first_look_for(k).min(spec.instances))
    });
    let next = AtomicUsize::new(0);
    let failed_once = AtomicBool::new(false);
    let out: Mutex<Vec<Option<Result<Ended, Failure>>>> =
        Mutex::new((0..races.len()).map(|_| None).collect());
    let multi = indicatif::MultiProgress::new();
    if r.quiet {
        multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    std::thread::scope(|scope| {
        for slot in 0..threads {
            let (next, failed_once, out, multi, order) =
                (&next, &failed_once, &out, &multi, &order);
            let mut config = r.config.clone();
            config.jobs = 1;
            config.cores = vec![r.config.cores.get(slot).cloned().unwrap_or_default()];
            scope.spawn(move || {
                let own = RaceRun {
                    config: &config,
                    bars: Some(multi),
                    ..*r
                };
                loop {
                    if failed_once.load(Ordering::SeqCst) || r.stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Some(&i) = order.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        return;
                    };
                    let (spec, engines) = &races[i];
                    let result = run_race(spec, engines, &own);
                    match &result {
                        Ok(ended) => {
                            multi.suspend(|| done(ended));
                        }
                        Err(_) => failed_once.store(true, Ordering::SeqCst),
                    }
                    out.lock().unwrap()[i] = Some(result);
                }
            });
        }
    });
    let mut ended = Vec::new();
    for result in out.into_inner().unwrap().into_iter().flatten() {
        ended.push(result?);
    }
    Ok(ended)
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
    /// Races at once (`--jobs`: each race runs its runs one at a time), memory limit,
    /// cores, cgroups and run order.
    pub measuring: super::measuring::Measuring,
    /// The folder holding the instance folders and ladders.
    pub instances_dir: PathBuf,
    /// No progress line.
    pub quiet: bool,
    /// The margin of equivalence, as written (`10%`, `0.1`).
    pub margin: String,
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
    let margin = parse_margin(&c.margin).map_err(bad_input)?;
    let specs = race_specs(
        p,
        true,
        &c.formulations,
        c.time_limit,
        c.instances,
        budget,
        margin,
    )?;
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
        bars: None,
    };
    let races: Vec<(RaceSpec, Vec<Engine>)> =
        specs.into_iter().map(|s| (s, engines.clone())).collect();
    run_races(&races, &run, c.measuring.jobs, &|ended| {
        println!("{}", summary(ended))
    })?;
    println!(
        "rows: {}; decisions: {}",
        csv.display(),
        c.out.join("race.jsonl").display()
    );
    Ok(())
}

/// A race's outcome in a few lines: why it ended, the best, and every other candidate's
/// label against it with its ratio and interval at the race's level.
pub fn summary(e: &Ended) -> String {
    let s = &e.state;
    let best = s.best().unwrap_or_else(|| "none".into());
    let mut out = format!(
        "{}: {} of {} planned instances raced, {:.1} s of runs; ended: {}.\n  best: {best}\n",
        s.name,
        s.raced.len(),
        e.planned,
        s.spent,
        e.reason
    );
    for (i, c) in s.order().iter().enumerate().skip(1) {
        let role = if i == 1 { "runner-up " } else { "" };
        if let Some(v) = s.verdict(c, &e.reason) {
            // The label speaks of the best: "ahead" here means the best is ahead of `c`.
            let label = match v.outcome {
                crate::race::state::Outcome::Ahead => "behind (the best is ahead)".to_string(),
                _ => v.label(),
            };
            let when = match s.decisions().iter().find(|d| &d.candidate == c) {
                Some(d) => format!("dropped after {} instances; ", d.raced_instances),
                None => String::new(),
            };
            out.push_str(&format!(
                "  {role}{c}: {label}; {when}ratio to the best {} on {} separating instances, p = {:.2e} at the level {:.2e}\n",
                v.ratio_cell(),
                v.comparison.instances,
                v.comparison.p_value,
                v.comparison.level
            ));
        }
    }
    for f in &s.refusals {
        out.push_str(&format!(
            "  {} refused from instance {}: {}\n",
            f.candidate, f.instance, f.reason
        ));
    }
    out.trim_end().to_string()
}
