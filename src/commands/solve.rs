//! `puzzlebench solve`: solve every puzzle of a file and print each solution (text or
//! JSON), optionally drawn as SVG.

use super::{bad_input, failed, failure_reason, refusal_reason, Failure};
use crate::engines::{Engine, SolveOptions};
use crate::progress;
use crate::puzzles::{self, Answer};
use crate::record::{self, Record};
use crate::runner::{self, RunEnv, RunSpec};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to solve and how to show it.
pub struct SolveConfig {
    /// Instance file.
    pub file: PathBuf,
    /// Puzzle key.
    pub puzzle: String,
    /// Formulation key (default: the puzzle's first).
    pub formulation: Option<String>,
    /// Engine key (`None`: the default engine of the formulation's kind).
    pub engine: Option<String>,
    /// JSON lines instead of text.
    pub json: bool,
    /// Also draw instance and solution as SVG here (numbered when the file holds several).
    pub svg: Option<PathBuf>,
    /// Settings.
    pub options: SolveOptions,
    /// `puzzlebench count`: print the count of each puzzle (and its first solution only
    /// when `show`), and fail when a count is not settled.
    pub counting: Option<Counting>,
}

/// How `puzzlebench count` prints.
#[derive(Clone, Copy, Debug)]
pub struct Counting {
    /// Print the first solution found below the count.
    pub show: bool,
}

/// Solves every puzzle in the file; after printing them all, fails with exit 2 when a run
/// was refused (the engine or formulation does not take it: nothing ran), else 1 when a
/// run did not solve.
pub fn solve(c: &SolveConfig) -> Result<(), Failure> {
    let p = puzzles::puzzle(&c.puzzle).map_err(bad_input)?;
    let info = match &c.formulation {
        Some(f) => p.formulation(f).map_err(bad_input)?,
        None => p.formulation(p.default_formulation()).map_err(bad_input)?,
    };
    let engine: Engine = match &c.engine {
        Some(key) => key.parse().map_err(bad_input)?,
        None => info.kind.default_engine(),
    };
    let instances = p.load(&c.file).map_err(bad_input)?;
    let env = RunEnv::detect();
    let settings = engine.settings(info.kind, &c.options);
    let mut worst: Option<Failure> = None;
    let several = instances.len() > 1;
    let svg_path = |k: usize| {
        c.svg.as_ref().map(|path| {
            if several {
                numbered(path, k + 1)
            } else {
                path.clone()
            }
        })
    };
    // Every picture can be drawn and its file written, or nothing is solved. A file that
    // did not exist is created to try and removed again.
    if c.svg.is_some() && instances.first().is_some_and(|i| i.svg(None).is_none()) {
        return Err(bad_input(format!("{} has no picture", p.key())));
    }
    for k in 0..instances.len() {
        if let Some(path) = svg_path(k) {
            let existed = path.exists();
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| bad_input(format!("{}: cannot write: {e}", path.display())))?;
            if !existed {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    for (k, inst) in instances.iter().enumerate() {
        let spec = RunSpec {
            instance: k,
            formulation: info.key.to_string(),
            kind: info.kind,
            source: info.source,
            engine,
            options: c.options.clone(),
            settings: settings.clone(),
            repeat: 1,
            run_id: record::run_id(
                p.key(),
                &inst.canonical(),
                info.key,
                engine,
                &c.options,
                &settings,
                1,
            ),
            cap: None,
        };
        let what = format!("{} with {} on {engine}", inst.name(), info.key);
        let result = with_progress(&what, c.options.time_limit, || {
            inst.solve(info.key, engine, &c.options)
        });
        let answer = result.as_ref().ok().and_then(|r| r.answer.clone());
        let rec = runner::to_record(p.key(), inst.as_ref(), &spec, &env, result);
        match c.counting {
            Some(how) if !c.json => {
                print_count(&rec);
                if let (true, Some(a)) = (how.show, answer.as_ref()) {
                    println!("{}", a.text);
                }
            }
            _ => print_solution(c.json, &rec, answer.as_ref()),
        }
        if let Some(path) = svg_path(k) {
            match inst.svg(answer.as_ref()) {
                Some(svg) => std::fs::write(&path, svg)
                    .map_err(|e| failed(format!("{}: cannot write: {e}", path.display())))?,
                None => return Err(bad_input(format!("{} has no picture", p.key()))),
            }
        }
        let unsettled = (c.counting.is_some() && rec.status == "feasible").then(|| {
            format!(
                "the count is not settled: {}",
                rec.error.clone().unwrap_or_default()
            )
        });
        let ending = match refusal_reason(&rec) {
            Some(why) => Some(bad_input(format!(
                "{}: refused, not run: {why}",
                rec.instance
            ))),
            None => failure_reason(&rec)
                .or(unsettled)
                .map(|reason| failed(format!("{}: {reason}", rec.instance))),
        };
        // The highest exit code wins: a refusal (2, the combination asked for cannot run)
        // over a failure (1).
        if let Some(e) = ending.filter(|e| worst.as_ref().is_none_or(|w| e.code >= w.code)) {
            worst = Some(e);
        }
    }
    worst.map_or(Ok(()), Err)
}

/// Runs `work` with a progress line on standard error (on a terminal only) from its
/// first second on: what runs, the elapsed time against the limit (or that there is
/// none), and the incumbent, bound and nodes where the engine reports them.
fn with_progress<T>(what: &str, limit: Option<f64>, work: impl FnOnce() -> T) -> T {
    let done = Arc::new(AtomicBool::new(false));
    let shown = {
        let done = done.clone();
        let what = what.to_string();
        std::thread::spawn(move || {
            let start = Instant::now();
            let wait = |d: Duration| {
                let until = Instant::now() + d;
                while Instant::now() < until && !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20));
                }
                !done.load(Ordering::Relaxed)
            };
            if !wait(Duration::from_secs(1)) {
                return;
            }
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("template"));
            let limit = match limit {
                Some(l) => format!(" of {l} s"),
                None => " (no time limit; --time-limit S sets one)".into(),
            };
            loop {
                let live = progress::live().describe();
                let live = if live.is_empty() {
                    live
                } else {
                    format!(": {live}")
                };
                let t = start.elapsed().as_secs_f64();
                bar.set_message(format!("{what}: {t:.0} s{limit}{live}"));
                bar.tick();
                if !wait(Duration::from_millis(250)) {
                    break;
                }
            }
            bar.finish_and_clear();
        })
    };
    progress::watch(true);
    let out = work();
    progress::watch(false);
    done.store(true, Ordering::Relaxed);
    let _ = shown.join();
    out
}

/// `out.svg` with index 3 becomes `out-3.svg`.
fn numbered(path: &Path, k: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("picture".into(), |s| s.to_string_lossy().to_string());
    let ext = path
        .extension()
        .map_or("svg".into(), |e| e.to_string_lossy().to_string());
    path.with_file_name(format!("{stem}-{k}.{ext}"))
}

/// Seconds with their unit ([`crate::table::duration`]): "0.0211 s", "41.8 µs"; "–"
/// when unknown.
fn seconds_text(t: Option<f64>) -> String {
    t.map_or("–".into(), crate::table::duration)
}

/// One line per puzzle for `puzzlebench count`: the count and whether it is complete,
/// what ran and how long it took, the objective an optimisation model's solutions share,
/// and whether the first solution passed the verifier.
fn print_count(r: &Record) {
    if let Some(why) = refusal_reason(r) {
        println!(
            "{}: not counted: refused, not run ({} on {}): {why}",
            r.instance,
            r.formulation,
            r.backend_label()
        );
        return;
    }
    let secs = seconds_text(r.seconds);
    let what = match (r.solutions, r.status.as_str()) {
        (Some(0), "infeasible") => "no solution".to_string(),
        (Some(n), "optimal") if n >= u64::from(r.count) => {
            format!("at least {n} solutions (stopped at --limit {})", r.count)
        }
        (Some(1), "optimal") => "1 solution: unique".to_string(),
        (Some(n), "optimal") => format!("{n} solutions, all there are"),
        (Some(n), _) => format!(
            "at least {n} solutions, not settled: {}",
            r.error.clone().unwrap_or_else(|| r.status.clone())
        ),
        (None, "optimal" | "feasible") if r.count == 1 => {
            "at least 1 solution (stopped at --limit 1)".to_string()
        }
        (None, "infeasible") => "no solution".to_string(),
        (None, s) => format!(
            "not counted: {s}{}",
            r.error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        ),
    };
    let objective = r
        .objective
        .filter(|_| r.solutions.is_some_and(|n| n > 0))
        .map(|o| {
            let v = if (o - o.round()).abs() < 1e-6 {
                format!("{}", o.round())
            } else {
                crate::table::significant(o)
            };
            format!(", each with objective {v}")
        })
        .unwrap_or_default();
    let verified = match r.verified {
        Some(true) => ", first solution verified",
        Some(false) => ", first solution REFUSED by the verifier",
        None => "",
    };
    println!(
        "{}: {what}{objective} ({} on {}, {secs}{verified})",
        r.instance,
        r.formulation,
        r.backend_label()
    );
    if let Some(line) = certificate_line(r) {
        println!("  {line}");
    }
}

/// "certificate: checked (unique, veripb 3.0.2), search 12 ms, check 40 ms, proof 210 kB"
/// when a certificate was asked for.
fn certificate_line(r: &Record) -> Option<String> {
    if r.certificate.is_empty() {
        return None;
    }
    let mut parts = vec![format!("certificate: {}", r.certificate)];
    if let Some(s) = r.certify_seconds {
        parts.push(format!("search {}", seconds_text(Some(s))));
    }
    if let Some(s) = r.check_seconds {
        parts.push(format!("check {}", seconds_text(Some(s))));
    }
    if let Some(b) = r.proof_bytes {
        parts.push(format!("proof {:.0} kB", b as f64 / 1000.0));
    }
    Some(parts.join(", "))
}

fn print_solution(json: bool, r: &Record, answer: Option<&Answer>) {
    if json {
        // Every column of the CSV row in its order, then the solution in the puzzle's shape.
        #[derive(serde::Serialize)]
        struct Line<'a> {
            #[serde(flatten)]
            row: &'a Record,
            solution: Option<&'a serde_json::Value>,
        }
        let obj = serde_json::to_string(&Line {
            row: r,
            solution: answer.map(|a| &a.json),
        })
        .expect("a record is plain data");
        println!("{obj}");
        return;
    }
    if let Some(why) = refusal_reason(r) {
        println!(
            "{}: refused, not run ({} / {}): {why}",
            r.instance,
            r.formulation,
            r.backend_label()
        );
        return;
    }
    let secs = seconds_text;
    println!(
        "{}: {} ({} / {}) in {}, build {}, LP bound {}, verified {}",
        r.instance,
        r.status,
        r.formulation,
        r.backend_label(),
        secs(r.seconds),
        secs(r.build_seconds),
        r.lp_bound.map_or("-".into(), |b| format!("{b}")),
        r.verified.map_or("-".into(), |v| if v {
            "yes".into()
        } else {
            "NO".to_string()
        }),
    );
    let mut extra = Vec::new();
    if let Some(h) = &r.heuristics {
        extra.push(format!("heuristics {h}"));
    }
    if let (Some(n), true) = (r.nodes, r.inferences.is_some()) {
        extra.push(format!("{n} nodes"));
    }
    if let Some(i) = r.inferences {
        extra.push(format!("{i} inferences"));
    }
    if let Some(call) = r.call_seconds {
        extra.push(format!(
            "whole call {} (process start and model transfer included)",
            secs(Some(call))
        ));
    }
    if let (Some(d), Some(c)) = (r.nodes, r.conflicts) {
        // The sat engine counts decisions in `nodes`, CP-SAT its branches.
        let what = if r.backend == "cpsat" {
            "branches"
        } else {
            "decisions"
        };
        extra.push(format!("{d} {what}, {c} conflicts"));
    }
    if let (Some(c), Some(a)) = (r.clauses, r.aux_variables) {
        extra.push(format!("{c} clauses, {a} auxiliary variables"));
    }
    if let (Some(rounds), Some(cuts)) = (r.rounds, r.cuts) {
        let nodes = r
            .nodes
            .filter(|_| r.conflicts.is_none())
            .map(|n| format!(", {n} nodes"))
            .unwrap_or_default();
        extra.push(format!("{rounds} cut rounds, {cuts} rows added{nodes}"));
    }
    if let Some(sep) = r.separator_seconds {
        extra.push(format!("{} of it finding rows", secs(Some(sep))));
    }
    if r.status != "optimal" {
        if let (Some(o), Some(b)) = (r.objective, r.best_bound) {
            let gap = r
                .gap
                .map_or(String::new(), |g| format!(", gap {:.1}%", 100.0 * g));
            extra.push(format!("best {o}, bound {b}{gap}"));
        }
    }
    if let Some(f) = r.fixings {
        extra.push(format!("{f} fixings"));
    }
    // When solutions came: worth saying where the best came later than the first.
    if let (Some(first), Some(best)) = (r.first_solution_seconds, r.best_solution_seconds) {
        if best > first {
            extra.push(format!(
                "first solution after {}, best after {}",
                secs(Some(first)),
                secs(Some(best))
            ));
        }
    }
    if let Some(n) = r.solutions.filter(|_| r.count > 1) {
        let what = match (n, n >= u64::from(r.count), r.status == "optimal") {
            (n, true, _) => format!("{n} solutions found (stopped at --count {})", r.count),
            (1, false, true) => "1 solution: unique".to_string(),
            (n, false, true) => format!("{n} solutions, all there are"),
            (n, false, false) => format!("at least {n} solutions (the count was stopped)"),
        };
        extra.push(what);
    }
    if !extra.is_empty() {
        println!("  {}", extra.join(", "));
    }
    if let Some(e) = &r.error {
        println!("  reason: {e}");
    }
    if let Some(line) = certificate_line(r) {
        println!("  {line}");
    }
    if let Some(a) = answer {
        println!("{}", a.text);
    }
}
