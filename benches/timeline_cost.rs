//! What recording a timeline costs a run: the quick suite's engine-comparison runs (each
//! puzzle's comparison instances and formulations, on the default engine of each
//! formulation's kind, at the part's time limit), each run alternately without and with
//! its timeline, so that a drift of the machine falls on both alike.
//!
//! Prints, per puzzle, the runs, the total wall time of the runs without and with, and the
//! median of the per-run ratios; then the same over every run. The target of issue 39 is
//! a cost under 2 % of a sweep's time.
//!
//! `cargo bench --bench timeline_cost` runs 3 pairs per run; under `cargo test`, one pair
//! of one puzzle, as a smoke test. With `PUZZLEBENCH_BENCH_ENGINE=KEY` the runs are on that
//! engine instead (those of its kinds and models only), and the times compared are the
//! solver's own (`seconds`, for an external engine without its process start), so that
//! what its callbacks cost is not hidden in the start.

use puzzlebench::engines::{Engine, SolveOptions};
use puzzlebench::puzzles::{self, Instance};
use std::path::Path;
use std::time::Instant;

/// One run's wall seconds (the solver's own seconds when `own`), without (`false`) or
/// with its timeline.
fn timed(
    inst: &dyn Instance,
    formulation: &str,
    engine: Engine,
    o: &SolveOptions,
    on: bool,
    own: bool,
) -> f64 {
    if !on {
        puzzlebench::timeline::skip_next_run();
    }
    let t = Instant::now();
    let r = inst
        .solve(formulation, engine, o)
        .expect("a formulation of the suite");
    let s = t.elapsed().as_secs_f64();
    assert_eq!(
        r.trace.as_ref().is_some_and(|_| true),
        on,
        "recording as asked"
    );
    if own {
        r.outcome.seconds
    } else {
        s
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let pairs = if full { 3 } else { 1 };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let forced: Option<Engine> = std::env::var("PUZZLEBENCH_BENCH_ENGINE")
        .ok()
        .map(|k| k.parse().expect("an engine key"));
    let (mut all_off, mut all_on, mut all_ratios) = (0.0, 0.0, Vec::new());
    println!("puzzle      runs   without (s)   with (s)   total ratio   median ratio");
    for p in puzzles::PUZZLES.iter().filter(|p| !p.hidden()) {
        if !full && p.key() != "circuit" {
            continue;
        }
        let suite = p.suite(true);
        let Some(part) = suite.parts.iter().find(|part| part.every_engine) else {
            continue;
        };
        let options = SolveOptions {
            time_limit: Some(part.time_limit),
            ..SolveOptions::default()
        };
        let (mut off, mut on, mut ratios) = (0.0, 0.0, Vec::new());
        let mut runs = 0;
        for file in &part.instances {
            let path = root.join(file);
            let Ok(instances) = p.load(&path) else {
                eprintln!("{}: cannot read, skipped", path.display());
                continue;
            };
            for inst in &instances {
                for f in &part.formulations {
                    let kind = p.formulation(f).expect("a suite formulation").kind;
                    let engine = match forced {
                        None => kind.default_engine(),
                        Some(e) => {
                            let refused = inst.build(f).map(|m| e.model_refusal(&m).is_some());
                            if !e.takes(kind) || refused.unwrap_or(true) {
                                continue;
                            }
                            e
                        }
                    };
                    let own = forced.is_some();
                    for _ in 0..pairs {
                        let a = timed(inst.as_ref(), f, engine, &options, false, own);
                        let b = timed(inst.as_ref(), f, engine, &options, true, own);
                        off += a;
                        on += b;
                        ratios.push(b / a.max(1e-9));
                        runs += 1;
                    }
                }
            }
        }
        if runs == 0 {
            continue;
        }
        println!(
            "{:<10} {runs:>5} {off:>13.3} {on:>10.3} {:>13.4} {:>14.4}",
            p.key(),
            on / off,
            median(ratios.clone())
        );
        all_off += off;
        all_on += on;
        all_ratios.extend(ratios);
    }
    println!(
        "{:<10} {:>5} {all_off:>13.3} {all_on:>10.3} {:>13.4} {:>14.4}",
        "all",
        all_ratios.len(),
        all_on / all_off,
        median(all_ratios)
    );
}
