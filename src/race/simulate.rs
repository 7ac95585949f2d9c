//! Synthetic races that look like the real ones: candidates of known behaviour, no solver.
//!
//! A candidate's time on an instance is `d_i · f_c · e^(σ_run·z)`, charged its limit when
//! over it (a failure): `d_i = m · g^(rung) · e^(σ_inst·z_i)` the instance's difficulty,
//! shared by every candidate, with the rung taken in turn as a race's plan takes them
//! (four rungs, each `g` times harder than the one below), `f_c` the candidate's factor,
//! `z`, `z_i` standard normal draws from the project's seeded [`Rng`]. Times are compared
//! as the race compares them (rounded to the millisecond, an instance separating a pair
//! only when the slower took 10 ms or more), so fast worlds give many runs under 10 ms and
//! ties at the rounding, and slow ones failures at the limit. Runs are capped as the races
//! cap them ([`super::capping`]): the best so far sets the cap, and a run over it is charged
//! the limit.
//!
//! `races_keep_their_level` runs [`RACES`] races per scenario and world and prints, per
//! scenario: the chance of dropping a candidate as good as the best (asserted at most 5 %),
//! the share of worse candidates dropped, and the chance that two independent races
//! contradict each other (one drops `a` against best `b`, the other `b` against best `a`).
//! docs/race.md reports the figures.

use super::capping::{CAP_FACTOR, CAP_MARGIN_SECONDS};
use super::elimination::{Race, RaceConfig};
use crate::rng::Rng;

/// Races per scenario and world.
const RACES: u64 = 10_000;

/// Planned instances per race (three looks of 12), as `reproduce`'s races.
const PLANNED: usize = 36;

/// The distributions of a synthetic race.
#[derive(Clone, Copy, Debug)]
struct World {
    /// Its name in the printed table.
    name: &'static str,
    /// The median time of an instance of the lowest rung for a candidate of factor 1, s.
    median: f64,
    /// How much harder each rung is than the one below.
    rung_factor: f64,
    /// sd(ln) of the instances' difficulty within a rung.
    instance_sd: f64,
    /// sd(ln) of one run's noise.
    run_sd: f64,
    /// The time limit, in seconds.
    limit: f64,
}

const WORLDS: [World; 3] = [
    // Most runs between 10 ms and the limit, some failures on the top rung.
    World {
        name: "typical (0.05 s to 1.4 s by rung, limit 2 s)",
        median: 0.05,
        rung_factor: 3.0,
        instance_sd: 1.0,
        run_sd: 0.3,
        limit: 2.0,
    },
    // Most runs under 10 ms: ties at the millisecond, few separating instances.
    World {
        name: "fast (2 ms to 54 ms by rung)",
        median: 0.002,
        rung_factor: 3.0,
        instance_sd: 0.8,
        run_sd: 0.3,
        limit: 2.0,
    },
    // Many failures at the limit (ties at the limit).
    World {
        name: "hard (0.3 s to 8 s by rung, limit 2 s)",
        median: 0.3,
        rung_factor: 3.0,
        instance_sd: 1.0,
        run_sd: 0.3,
        limit: 2.0,
    },
];

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = 1.0 - rng.unit(); // in (0, 1]
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// One race's outcome: per candidate, whether it was dropped, and the pairs (best, dropped)
/// of its drops.
struct Outcome {
    dropped: Vec<bool>,
    drops: Vec<(usize, usize)>,
}

/// Runs one race of candidates with `factors` over a plan of [`PLANNED`] instances (to its
/// end or one candidate left).
fn run_race(factors: &[f64], world: World, seed: u64) -> Outcome {
    let names: Vec<String> = (0..factors.len()).map(|j| format!("c{j}")).collect();
    let mut race = Race::new(names, RaceConfig::default());
    let mut rng = Rng::new(seed);
    let mut out = Outcome {
        dropped: vec![false; factors.len()],
        drops: Vec::new(),
    };
    // Candidates in random order, so that no name (index) is favoured by a tie-break.
    let mut perm: Vec<usize> = (0..factors.len()).collect();
    rng.shuffle(&mut perm);
    for i in 0..PLANNED {
        if race.finished(PLANNED) {
            break;
        }
        let rung = (i % 4) as i32;
        let d = world.median
            * world.rung_factor.powi(rung)
            * (world.instance_sd * normal(&mut rng)).exp();
        let mut times: Vec<f64> = perm
            .iter()
            .map(|&c| (d * factors[c] * (world.run_sd * normal(&mut rng)).exp()).min(world.limit))
            .collect();
        // Adaptive capping as the races do it: the best so far runs first, and the others'
        // runs over its cap are charged the limit.
        if let Some(b) = race.best().filter(|&b| times[b] < world.limit) {
            let cap = CAP_FACTOR * times[b] + CAP_MARGIN_SECONDS;
            for (j, t) in times.iter_mut().enumerate() {
                if j != b && *t > cap {
                    *t = world.limit;
                }
            }
        }
        for decision in race.record(&times) {
            let j = perm[decision.candidate[1..].parse::<usize>().unwrap()];
            let b = perm[decision.best[1..].parse::<usize>().unwrap()];
            out.dropped[j] = true;
            out.drops.push((b, j));
        }
    }
    out
}

/// What a scenario's races measured.
struct Rates {
    /// Share of races that dropped a candidate whose factor is the smallest.
    false_drop: f64,
    /// Share of the worse candidates dropped, over all races.
    power: f64,
    /// Share of pairs of races (1 and 2, 3 and 4, ...) in which one dropped `a` against
    /// best `b` and the other `b` against best `a`.
    contradict: f64,
}

fn measure(factors: &[f64], world: World, seed: u64) -> Rates {
    let best = factors.iter().copied().fold(f64::INFINITY, f64::min);
    let worse = factors.iter().filter(|&&f| f > best).count();
    let mut false_drops = 0;
    let mut worse_dropped = 0;
    let mut contradictions = 0;
    let mut previous: Option<Outcome> = None;
    for r in 0..RACES {
        let o = run_race(
            factors,
            world,
            seed.wrapping_add(r.wrapping_mul(0x9e37_79b9)),
        );
        if (0..factors.len()).any(|j| o.dropped[j] && factors[j] == best) {
            false_drops += 1;
        }
        worse_dropped += (0..factors.len())
            .filter(|&j| o.dropped[j] && factors[j] > best)
            .count();
        match previous.take() {
            None => previous = Some(o),
            Some(p) => {
                if p.drops.iter().any(|&(b, j)| o.drops.contains(&(j, b))) {
                    contradictions += 1;
                }
            }
        }
    }
    Rates {
        false_drop: false_drops as f64 / RACES as f64,
        power: if worse == 0 {
            f64::NAN
        } else {
            worse_dropped as f64 / (worse as f64 * RACES as f64)
        },
        contradict: contradictions as f64 / (RACES / 2) as f64,
    }
}

/// The scenarios: all equal, partly equal (several as good as the best, others worse), one
/// best ahead of graded others.
fn scenarios() -> Vec<(&'static str, Vec<f64>)> {
    let mut many = vec![1.0; 4];
    many.extend((0..26).map(|j| 1.5 + 0.33 * j as f64));
    vec![
        ("2 equal", vec![1.0, 1.0]),
        ("4 equal", vec![1.0; 4]),
        ("30 equal", vec![1.0; 30]),
        ("4 equal best, 2 at 3x", vec![1.0, 1.0, 1.0, 1.0, 3.0, 3.0]),
        ("4 equal best, 26 at 1.5x-9.8x", many),
        ("2 equal best, 8 at 1.25x", {
            let mut v = vec![1.0, 1.0];
            v.extend([1.25; 8]);
            v
        }),
        ("1 best, 1.25x, 2x, 3x", vec![1.0, 1.25, 2.0, 3.0]),
    ]
}

/// The chance of dropping a candidate as good as the best is at most 5 % in every scenario
/// and world ([`RACES`] seeded races each); the table docs/race.md gives is printed.
#[test]
fn races_keep_their_level() {
    let mut worst = 0.0f64;
    for world in WORLDS {
        for (k, (label, factors)) in scenarios().into_iter().enumerate() {
            let r = measure(&factors, world, 0x5ace_0000 + 1000 * k as u64);
            eprintln!(
                "| {} | {label} | {:.2} % | {} | {:.2} % |",
                world.name,
                100.0 * r.false_drop,
                if r.power.is_nan() {
                    "–".to_string()
                } else {
                    format!("{:.1} %", 100.0 * r.power)
                },
                100.0 * r.contradict
            );
            assert!(
                r.false_drop <= 0.05,
                "{}: {label}: a candidate as good as the best dropped in {:.2} % of races",
                world.name,
                100.0 * r.false_drop
            );
            worst = worst.max(r.false_drop);
        }
    }
    eprintln!("worst false-drop rate: {:.2} %", 100.0 * worst);
}

/// A candidate twice as slow as the best, in the typical world, is dropped by the end of
/// the plan in most races, and the best never (a check that the test has power, not only
/// level).
#[test]
fn a_candidate_twice_as_slow_is_usually_dropped() {
    let world = WORLDS[0];
    let races = 500;
    let dropped = (0..races)
        .filter(|&r| run_race(&[1.0, 2.0], world, 0xd0_0000 + r).dropped[1])
        .count();
    let best_dropped = (0..races)
        .filter(|&r| run_race(&[1.0, 2.0], world, 0xd0_0000 + r).dropped[0])
        .count();
    eprintln!("2x dropped in {dropped} of {races} races; the best in {best_dropped}");
    assert!(dropped as f64 >= 0.9 * races as f64, "{dropped} of {races}");
    assert_eq!(best_dropped, 0);
}
