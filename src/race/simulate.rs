//! Synthetic races that look like the real ones: candidates of known behaviour, no solver.
//!
//! A candidate's time on an instance is `d_i · f_c · e^(σ_c·z)`, stopped at the time limit
//! when over it (a failure): `d_i = m · g^(rung) · e^(σ_inst·z_i)` the instance's
//! difficulty, shared by every candidate, with the rungs taken in turn as a race's plan
//! takes them (four rungs, each `g` times harder than the one below), `f_c` the
//! candidate's factor and `σ_c` its per-instance noise, `z`, `z_i` standard normal draws
//! from the project's seeded [`Rng`]. Times are compared as the race compares them
//! (rounded to the millisecond, an instance separating a pair only when the slower took
//! 10 ms or more), so fast worlds give many runs under 10 ms and ties at the rounding, and
//! slow ones failures at the limit. Runs are capped as the races cap them
//! ([`super::capping`]): the best so far runs first, and another run over its cap is
//! stopped there. A race runs as the `race` command runs it: until one candidate is left,
//! it has decided ([`Race::decided`]), or its plan is run.
//!
//! [`races_keep_their_level_and_find_real_gaps`] runs a sample of the scenarios on every
//! test run and asserts the targets; `power_table` (ignored: `cargo test --release
//! power_table -- --ignored --nocapture`) runs [`RACES`] races per cell and prints the
//! tables of docs/race.md.

use super::capping::{CAP_FACTOR, CAP_MARGIN_SECONDS};
use super::elimination::{Decided, Race, RaceConfig};
use super::separation::Obs;
use crate::rng::Rng;

/// Races per cell of the tables in docs/race.md.
const RACES: u64 = 10_000;

/// Planned instances per race, as `reproduce`'s races.
const PLANNED: usize = 36;

/// The distributions of a synthetic race.
#[derive(Clone, Copy, Debug)]
struct World {
    /// Its name in the printed tables.
    name: &'static str,
    /// The median time of an instance of the lowest rung for a candidate of factor 1, s.
    median: f64,
    /// How much harder each rung is than the one below.
    rung_factor: f64,
    /// sd(ln) of the instances' difficulty within a rung.
    instance_sd: f64,
    /// The time limit, in seconds.
    limit: f64,
}

/// Most runs between 10 ms and the limit, some failures on the top rung.
const TYPICAL: World = World {
    name: "typical",
    median: 0.05,
    rung_factor: 3.0,
    instance_sd: 1.0,
    limit: 2.0,
};

/// Most runs under 10 ms: ties at the millisecond, few separating instances.
const FAST: World = World {
    name: "fast",
    median: 0.002,
    rung_factor: 3.0,
    instance_sd: 0.8,
    limit: 2.0,
};

/// Many failures at the limit (ties at the limit).
const HARD: World = World {
    name: "hard",
    median: 0.3,
    rung_factor: 3.0,
    instance_sd: 1.0,
    limit: 2.0,
};

/// A synthetic candidate.
#[derive(Clone, Copy, Debug)]
struct Cand {
    /// Its factor on every instance's difficulty.
    factor: f64,
    /// sd(ln) of its per-instance noise.
    noise: f64,
}

/// A scenario: its candidates, and a timing edge (a factor on the time of whichever
/// candidate runs first on an instance, as when the best was timed alone; 1 for none).
#[derive(Clone, Debug)]
struct Scenario {
    label: String,
    cands: Vec<Cand>,
    leader_edge: f64,
    /// The instances the race plans.
    planned: usize,
}

fn cands(factors: &[f64], noise: f64) -> Vec<Cand> {
    factors
        .iter()
        .map(|&factor| Cand { factor, noise })
        .collect()
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = 1.0 - rng.unit(); // in (0, 1]
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// One race's outcome.
struct Outcome {
    /// Per candidate (by scenario index), whether it was dropped.
    dropped: Vec<bool>,
    /// The pairs (best, dropped) of its drops.
    drops: Vec<(usize, usize)>,
    /// Instances raced.
    raced: usize,
    /// The race's best and runner-up (scenario indices) and what it decided between them.
    line: Option<(usize, usize, Decided)>,
}

/// Runs one race of `s`'s candidates over a plan of [`PLANNED`] instances.
fn run_race(s: &Scenario, world: World, seed: u64) -> Outcome {
    let k = s.cands.len();
    let names: Vec<String> = (0..k).map(|j| format!("c{j}")).collect();
    let mut race = Race::new(names, RaceConfig::default(), s.planned);
    let mut rng = Rng::new(seed);
    // Candidates in random order, so that no index is favoured by a tie-break.
    let mut perm: Vec<usize> = (0..k).collect();
    rng.shuffle(&mut perm);
    for i in 0..s.planned {
        if race.finished() {
            break;
        }
        let rung = (i % 4) as i32;
        let d = world.median
            * world.rung_factor.powi(rung)
            * (world.instance_sd * normal(&mut rng)).exp();
        let mut times: Vec<f64> = perm
            .iter()
            .map(|&c| {
                let c = s.cands[c];
                d * c.factor * (c.noise * normal(&mut rng)).exp()
            })
            .collect();
        let leader = race.leader();
        if let Some(b) = leader {
            times[b] *= s.leader_edge;
        }
        let cap = leader
            .filter(|&b| times[b] < world.limit)
            .map(|b| CAP_FACTOR * times[b] + CAP_MARGIN_SECONDS);
        let runs: Vec<Option<Obs>> = times
            .iter()
            .enumerate()
            .map(|(j, &t)| {
                let bound = match cap {
                    Some(c) if Some(j) != leader => c.min(world.limit),
                    _ => world.limit,
                };
                Some(if t >= bound {
                    Obs::stopped(bound)
                } else {
                    Obs::done(t)
                })
            })
            .collect();
        race.record(&runs);
    }
    race.finish();
    let index = |name: &str| perm[name[1..].parse::<usize>().unwrap()];
    let dropped_names: Vec<usize> = race
        .decisions()
        .iter()
        .map(|d| index(&d.candidate))
        .collect();
    let mut dropped = vec![false; k];
    for &j in &dropped_names {
        dropped[j] = true;
    }
    let drops = race
        .decisions()
        .iter()
        .map(|d| (index(&d.best), index(&d.candidate)))
        .collect();
    let order = race.order(&[]);
    let line = match (order.first(), order.get(1)) {
        (Some(&b), Some(&r)) => race.outcome(r).map(|o| (perm[b], perm[r], o)),
        _ => None,
    };
    Outcome {
        dropped,
        drops,
        raced: race.raced(),
        line,
    }
}

/// What a scenario's races measured.
#[derive(Clone, Debug, Default)]
struct Rates {
    /// Share of races that dropped a candidate whose factor is the smallest.
    false_drop: f64,
    /// Share of the worse candidates dropped, over all races.
    power: f64,
    /// Share of pairs of races (1 and 2, 3 and 4, ...) in which one dropped `a` against
    /// best `b` and the other `b` against `a`.
    contradict: f64,
    /// Shares of races whose line (best against runner-up) ended ahead, equivalent,
    /// undecided, or dropped on another's test.
    ahead: f64,
    equivalent: f64,
    undecided: f64,
    other: f64,
    /// Share of races whose best is not a candidate of the smallest factor.
    wrong_best: f64,
    /// Share of races whose line says "ahead" with a best of the smallest factor and a
    /// runner-up of the same factor (a false "ahead").
    false_ahead: f64,
    /// Share of races whose line says "equivalent" with a runner-up more than the margin
    /// from the best by factor.
    false_equivalent: f64,
    /// Mean instances raced.
    instances: f64,
}

fn measure(s: &Scenario, world: World, seed: u64, races: u64) -> Rates {
    let best = s
        .cands
        .iter()
        .map(|c| c.factor)
        .fold(f64::INFINITY, f64::min);
    let worse = s.cands.iter().filter(|c| c.factor > best).count();
    let margin = RaceConfig::default().margin;
    let outcomes: Vec<Outcome> = std::thread::scope(|scope| {
        let threads = 2u64;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (0..races)
                        .filter(|r| r % threads == t)
                        .map(|r| {
                            (
                                r,
                                run_race(s, world, seed.wrapping_add(r.wrapping_mul(0x9e37_79b9))),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(u64, Outcome)> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        all.sort_by_key(|x| x.0);
        all.into_iter().map(|x| x.1).collect()
    });
    let n = races as f64;
    let mut r = Rates::default();
    let mut worse_dropped = 0usize;
    let mut previous: Option<&Outcome> = None;
    let mut contradictions = 0;
    for o in &outcomes {
        if (0..s.cands.len()).any(|j| o.dropped[j] && s.cands[j].factor == best) {
            r.false_drop += 1.0;
        }
        worse_dropped += (0..s.cands.len())
            .filter(|&j| o.dropped[j] && s.cands[j].factor > best)
            .count();
        match previous.take() {
            None => previous = Some(o),
            Some(p) => {
                if p.drops.iter().any(|&(b, j)| o.drops.contains(&(j, b))) {
                    contradictions += 1;
                }
            }
        }
        r.instances += o.raced as f64;
        if let Some((b, ru, d)) = &o.line {
            let (fb, fr) = (s.cands[*b].factor, s.cands[*ru].factor);
            if fb > best {
                r.wrong_best += 1.0;
            }
            match d {
                Decided::Ahead => {
                    r.ahead += 1.0;
                    if fb == fr {
                        r.false_ahead += 1.0;
                    }
                }
                Decided::Equivalent => {
                    r.equivalent += 1.0;
                    let ratio = fr / fb;
                    if ratio > 1.0 + margin || ratio < 1.0 / (1.0 + margin) {
                        r.false_equivalent += 1.0;
                    }
                }
                Decided::Open => r.undecided += 1.0,
                Decided::DroppedBy(_) => r.other += 1.0,
            }
        }
    }
    for x in [
        &mut r.false_drop,
        &mut r.ahead,
        &mut r.equivalent,
        &mut r.undecided,
        &mut r.other,
        &mut r.wrong_best,
        &mut r.false_ahead,
        &mut r.false_equivalent,
        &mut r.instances,
    ] {
        *x /= n;
    }
    r.power = if worse == 0 {
        f64::NAN
    } else {
        worse_dropped as f64 / (worse as f64 * n)
    };
    r.contradict = contradictions as f64 / (races / 2).max(1) as f64;
    r
}

/// The power table's scenario: a best, a runner-up `gap` times slower, and `k − 2` others
/// spread evenly (by log) from 1.5 to 6 times the runner-up, all with per-instance noise
/// `noise`.
fn gap_scenario(k: usize, gap: f64, noise: f64) -> Scenario {
    let mut f = vec![1.0, gap];
    let others = k - 2;
    for j in 0..others {
        let t = if others > 1 {
            j as f64 / (others - 1) as f64
        } else {
            0.0
        };
        f.push(gap * 1.5 * 4f64.powf(t));
    }
    Scenario {
        label: format!("{k} candidates, runner-up {gap}x, noise {noise}"),
        cands: cands(&f, noise),
        leader_edge: 1.0,
        planned: PLANNED,
    }
}

/// The level scenarios: all equal, partly equal (several as good as the best, others
/// worse), graded, equal factors with unequal noise, and a timing edge.
fn level_scenarios(noise: f64) -> Vec<Scenario> {
    let s = |label: &str, f: Vec<f64>| Scenario {
        label: format!("{label}, noise {noise}"),
        cands: cands(&f, noise),
        leader_edge: 1.0,
        planned: PLANNED,
    };
    let mut many = vec![1.0; 4];
    many.extend((0..26).map(|j| 1.5 + 0.33 * j as f64));
    let mut eight = vec![1.0, 1.0];
    eight.extend([1.25; 8]);
    let mut ten_equal_edge = s("10 equal, the first to run 5 % faster", vec![1.0; 10]);
    ten_equal_edge.leader_edge = 0.95;
    let mut two_equal_edge = s("2 equal, the first to run 5 % faster", vec![1.0; 2]);
    two_equal_edge.leader_edge = 0.95;
    let mut unequal_noise = s("2 equal factors, noise 0.1 and 0.5", vec![1.0, 1.0]);
    unequal_noise.cands[0].noise = 0.1;
    unequal_noise.cands[1].noise = 0.5;
    unequal_noise.label = "2 equal factors, noise 0.1 and 0.5".into();
    vec![
        s("2 equal", vec![1.0, 1.0]),
        s("4 equal", vec![1.0; 4]),
        s("10 equal", vec![1.0; 10]),
        s("30 equal", vec![1.0; 30]),
        s("4 equal best, 2 at 3x", vec![1.0, 1.0, 1.0, 1.0, 3.0, 3.0]),
        s("4 equal best, 26 at 1.5x-9.8x", many),
        s("2 equal best, 8 at 1.25x", eight),
        s("1 best, 1.25x, 2x, 3x", vec![1.0, 1.25, 2.0, 3.0]),
        unequal_noise,
        two_equal_edge,
        ten_equal_edge,
    ]
}

fn pct(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        format!("{:.1} %", 100.0 * x)
    }
}

/// The level table's line of `r`.
fn level_line(world: World, s: &Scenario, r: &Rates) -> String {
    format!(
        "| {} | {} | {} | {} | {} | {} | {:.1} |",
        world.name,
        s.label,
        pct(r.false_drop),
        pct(r.power),
        pct(r.false_ahead),
        pct(r.contradict),
        r.instances
    )
}

/// The power table's line of `r`.
fn power_line(k: usize, noise: f64, gap: f64, r: &Rates) -> String {
    format!(
        "| {k} | {noise} | {gap}× | {} | {} | {} | {} | {} | {:.1} |",
        pct(r.ahead),
        pct(r.equivalent),
        pct(r.undecided),
        pct(r.other),
        pct(r.false_drop),
        r.instances
    )
}

/// On every test run, a sample of the scenarios with fewer races: the targets of issue
/// 73 hold (a candidate as good as the best dropped in at most 5 % of races; a 1.5× gap
/// called ahead in at least 90 %; two equal candidates with noise 0.1 called equivalent in
/// at least 80 %; a 1.25× gap called equivalent in at most 5 %), with the sampling error of
/// 1,000 races (about 0.7 points at 5 %) below the slack of each bound the table shows.
#[test]
fn races_keep_their_level_and_find_real_gaps() {
    let races = 1_000;
    for (k, s) in level_scenarios(0.3).iter().enumerate() {
        if s.leader_edge != 1.0 {
            continue;
        }
        let r = measure(s, TYPICAL, 0x5ace_0000 + 1000 * k as u64, races);
        eprintln!("{}", level_line(TYPICAL, s, &r));
        assert!(r.false_drop <= 0.05, "{}: {:?}", s.label, r);
    }
    let r = measure(&gap_scenario(30, 1.5, 0.3), TYPICAL, 0x9a9, races);
    eprintln!("{}", power_line(30, 0.3, 1.5, &r));
    assert!(r.ahead >= 0.90, "{r:?}");
    let r = measure(&gap_scenario(10, 1.0, 0.1), TYPICAL, 0x9aa, races);
    eprintln!("{}", power_line(10, 0.1, 1.0, &r));
    assert!(r.equivalent >= 0.80, "{r:?}");
    assert!(r.false_drop <= 0.05, "{r:?}");
    let r = measure(&gap_scenario(10, 1.25, 0.1), TYPICAL, 0x9ab, races);
    eprintln!("{}", power_line(10, 0.1, 1.25, &r));
    assert!(r.equivalent <= 0.05, "{r:?}");
}

/// A candidate three times as slow as the best, in the typical world, is dropped and
/// called "behind" with the best ahead in nearly every race of 18 candidates, and the race
/// does not end before its test could separate them (issue 73: a race of 18 that ended at
/// its first look with nobody droppable).
#[test]
fn a_three_times_slower_runner_up_among_eighteen_is_found() {
    let s = gap_scenario(18, 3.0, 0.3);
    let r = measure(&s, TYPICAL, 0x3003, 300);
    eprintln!("{}", power_line(18, 0.3, 3.0, &r));
    assert!(r.ahead >= 0.99, "{r:?}");
    assert_eq!(r.undecided, 0.0, "{r:?}");
}

/// The tables of docs/race.md, [`RACES`] races per cell (or `POWER_TABLE_RACES` per cell
/// of the power table and `LEVEL_TABLE_RACES` per cell of the level table, to try a change
/// quickly: the level table's 66 cells take most of the hour).
#[test]
#[ignore]
fn power_table() {
    let races = std::env::var("POWER_TABLE_RACES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(RACES);
    let level_races = std::env::var("LEVEL_TABLE_RACES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(RACES);
    eprintln!("{races} races per cell");
    eprintln!("| candidates | noise | runner-up | ahead | equivalent within 10 % | undecided | dropped on another's test | equal candidate dropped | mean instances |");
    eprintln!("|---|---|---|---|---|---|---|---|---|");
    for k in [10usize, 30] {
        for noise in [0.1, 0.3] {
            for (g, gap) in [1.0, 1.1, 1.25, 1.5, 2.0, 3.0].into_iter().enumerate() {
                let s = gap_scenario(k, gap, noise);
                let seed = 0x7a00_0000 + (k as u64) * 1000 + (noise * 100.0) as u64 * 10 + g as u64;
                let r = measure(&s, TYPICAL, seed, races);
                eprintln!("{}", power_line(k, noise, gap, &r));
            }
        }
    }
    eprintln!();
    eprintln!("{level_races} races per cell");
    eprintln!("| world | scenario | equal candidate dropped | worse dropped | false ahead | contradiction | mean instances |");
    eprintln!("|---|---|---|---|---|---|---|");
    for world in [TYPICAL, FAST, HARD] {
        for noise in [0.1, 0.3] {
            for (k, s) in level_scenarios(noise).iter().enumerate() {
                let seed = 0x5ace_0000 + 1000 * k as u64 + (noise * 100.0) as u64;
                let r = measure(s, world, seed, level_races);
                eprintln!("{}", level_line(world, s, &r));
            }
        }
    }
}
