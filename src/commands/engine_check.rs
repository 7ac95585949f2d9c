//! `puzzlebench engine check FILE`: the first thing to run after writing an engine
//! definition. It reads the definition (its errors name the file and line), shows its
//! version and what it takes, then runs it on the tiny instance of every formulation it
//! takes ([`crate::puzzles::tiny`], those `tests/engines.rs` uses), each answer checked
//! by the puzzle's verifier and against the formulation's usual engine (the same
//! optimum, or both infeasible; the same LP bound where it solves LP relaxations), and
//! tries a 1 s limit on a hard instance, timing the whole run on the wall clock. It
//! prints what works, what it refused and why, and fails (exit status 1) when a run
//! failed or the limit was overrun by more than [`LIMIT_SLACK`] seconds.

use super::{bad_input, failed, Failure};
use crate::engines::{registry, Engine, Kind, SolveOptions, Status};
use crate::puzzles::{self, tiny, PUZZLES};
use std::path::Path;
use std::time::Instant;

/// The time limit of the hard run, seconds.
pub const HARD_LIMIT: f64 = 1.0;

/// Seconds past [`HARD_LIMIT`] a hard run may end before the check fails.
pub const LIMIT_SLACK: f64 = 0.5;

/// The time limit of each tiny run, seconds.
pub const TINY_LIMIT: f64 = 60.0;

/// The hard instances, tried in turn: the first whose model the engine takes. Circuit
/// Board 10×10 `cm2` (a flow model with continuous columns: HiGHS and CBC need more than
/// a second) for MPS and LP solvers, Battleship 40×40 `gbm` (0/1, whole coefficients:
/// CaDiCaL did not solve it in 60 s) for the others.
pub const HARD: &[(&str, &str, &str)] = &[
    ("circuit", "circuit/table_a_1/10x10.txt", "cm2"),
    ("battleship", "battleship/scaling/40x40.txt", "gbm"),
];

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    /// Tiny instances solved and verified, as the usual engine solved them.
    pub solved: usize,
    /// Formulations it refused (with the reasons printed).
    pub refused: usize,
    /// Runs that failed.
    pub failed: usize,
    /// Wall seconds of the run at the 1 s limit, where one ran.
    pub hard_seconds: Option<f64>,
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-6 * b.abs().max(1.0),
        (None, None) => true,
        _ => false,
    }
}

fn limit(seconds: f64) -> SolveOptions {
    SolveOptions {
        time_limit: Some(seconds),
        ..SolveOptions::default()
    }
}

/// Checks the definition in `file` on the instances under `instances`, printing as it
/// goes with `out`.
pub fn check_with(
    file: &Path,
    instances: &Path,
    out: &mut dyn FnMut(&str),
) -> Result<Checked, Failure> {
    let engine = registry::engine_of_file(file).map_err(bad_input)?;
    out(&format!(
        "{} ({}): {}",
        engine.key(),
        file.display(),
        engine.description()
    ));
    let version = engine.version();
    out(&format!("  version: {version}"));
    out(&format!("  {}", engine.capabilities().summary()));
    if !engine.installed() {
        return Err(failed(format!("{}: {version}", engine.key())));
    }
    let mut c = Checked::default();
    out("Tiny instances (each verified, and checked against the formulation's usual engine):");
    for p in PUZZLES.iter().filter(|p| !p.hidden()) {
        for f in p.formulations() {
            if !engine.takes(f.kind) {
                continue;
            }
            let what = format!("{} {}", p.key(), f.key);
            let inst = match tiny::tiny_instance(*p, f.key, instances) {
                Ok(i) => i,
                Err(e) => {
                    out(&format!("  FAILED  {what}: {e}"));
                    c.failed += 1;
                    continue;
                }
            };
            let started = Instant::now();
            let r = match inst.solve(f.key, engine, &limit(TINY_LIMIT)) {
                Ok(r) => r,
                Err(e) => {
                    out(&format!("  FAILED  {what}: {e}"));
                    c.failed += 1;
                    continue;
                }
            };
            let wall = started.elapsed().as_secs_f64();
            let o = &r.outcome;
            if o.status == Status::Refused {
                out(&format!(
                    "  refused {what}: {}",
                    o.message.clone().unwrap_or_default()
                ));
                c.refused += 1;
                continue;
            }
            let usual: Engine = f.kind.default_engine();
            let reference = inst.solve(f.key, usual, &limit(TINY_LIMIT));
            let verdict = match (&reference, o.status) {
                (_, Status::Optimal) if r.verified() != Some(true) => Err(format!(
                    "the verifier refused its answer: {}",
                    r.answer
                        .as_ref()
                        .and_then(|a| a.verdict.clone().err())
                        .unwrap_or_else(|| "no answer".into())
                )),
                (Ok(x), Status::Optimal) if x.outcome.status == Status::Optimal => {
                    if !close(o.objective, x.outcome.objective) {
                        Err(format!(
                            "objective {:?}, but {usual} finds {:?}",
                            o.objective, x.outcome.objective
                        ))
                    } else if engine.capabilities().lp_relaxation
                        && f.kind == Kind::Mip
                        && !close(r.lp_bound(), x.lp_bound())
                    {
                        Err(format!(
                            "LP bound {:?}, but {usual}'s is {:?}",
                            r.lp_bound(),
                            x.lp_bound()
                        ))
                    } else {
                        Ok(format!(
                            "optimal {}, verified, as {usual}",
                            o.objective.map_or("-".into(), |z| format!("{z}"))
                        ))
                    }
                }
                (Ok(x), Status::Infeasible) if x.outcome.status == Status::Infeasible => {
                    Ok(format!("infeasible, as {usual}"))
                }
                (Ok(x), s) => Err(format!(
                    "{s}{}, but {usual} ends {}",
                    o.message
                        .as_ref()
                        .map_or(String::new(), |m| format!(" ({m})")),
                    x.outcome.status
                )),
                (Err(e), _) => Err(format!("{usual} cannot run it: {e}")),
            };
            match verdict {
                Ok(v) => {
                    out(&format!("  ok      {what}: {v} ({wall:.3} s)"));
                    c.solved += 1;
                }
                Err(e) => {
                    out(&format!("  FAILED  {what}: {e}"));
                    c.failed += 1;
                }
            }
        }
    }
    out(&format!("A {HARD_LIMIT} s limit on a hard instance:"));
    let mut tried = false;
    for (puzzle, path, f) in HARD {
        let p = puzzles::puzzle(puzzle).map_err(bad_input)?;
        let Ok(mut all) = p.load(&instances.join(path)) else {
            continue;
        };
        if all.is_empty() {
            continue;
        }
        let inst = all.remove(0);
        let kind = p
            .formulations()
            .into_iter()
            .find(|x| x.key == *f)
            .map(|x| x.kind);
        let takes = kind.is_some_and(|k| engine.takes(k))
            && inst
                .build(f)
                .is_ok_and(|m| engine.model_refusal(&m).is_none());
        if !takes {
            continue;
        }
        tried = true;
        let started = Instant::now();
        let r = inst.solve(f, engine, &limit(HARD_LIMIT));
        let wall = started.elapsed().as_secs_f64();
        c.hard_seconds = Some(wall);
        let what = format!("{puzzle} {path} {f}");
        match r {
            Ok(r) => {
                let o = &r.outcome;
                let within = wall <= HARD_LIMIT + LIMIT_SLACK;
                let bad_answer = r.verified() == Some(false);
                let line = format!(
                    "{what}: {} after {wall:.2} s of wall time{}{}",
                    o.status,
                    o.message
                        .as_ref()
                        .map_or(String::new(), |m| format!(" ({m})")),
                    if r.verified() == Some(true) {
                        ", its answer verified"
                    } else {
                        ""
                    }
                );
                if within && !bad_answer && o.status != Status::Error {
                    out(&format!("  ok      {line}"));
                } else {
                    out(&format!(
                        "  FAILED  {line}{}",
                        if within {
                            String::new()
                        } else {
                            format!(" (more than {} s)", HARD_LIMIT + LIMIT_SLACK)
                        }
                    ));
                    c.failed += 1;
                }
            }
            Err(e) => {
                out(&format!("  FAILED  {what}: {e}"));
                c.failed += 1;
            }
        }
        break;
    }
    if !tried {
        out("  none of the hard instances is one it takes");
    }
    out(&format!(
        "{} tiny instances solved and verified, {} refused, {} failed",
        c.solved, c.refused, c.failed
    ));
    Ok(c)
}

/// `puzzlebench engine check FILE`: [`check_with`] printing to standard output; exit
/// status 1 when something failed or nothing was solved.
pub fn check(file: &Path, instances: &Path) -> Result<(), Failure> {
    let c = check_with(file, instances, &mut |line| println!("{line}"))?;
    if c.failed > 0 {
        Err(failed(format!(
            "{}: {} checks failed",
            file.display(),
            c.failed
        )))
    } else if c.solved == 0 {
        Err(failed(format!(
            "{}: no tiny instance was solved",
            file.display()
        )))
    } else {
        Ok(())
    }
}
