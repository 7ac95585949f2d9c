//! Synthetic races: candidates of known behaviour, no solver. A candidate's time on an
//! instance is `d_i · f_c · e^(σ_run·z)`, capped at the limit (a failure is charged its
//! limit): `d_i = m · e^(σ_inst·z_i)` the instance's difficulty, shared by every candidate,
//! `f_c` the candidate's factor, `z`, `z_i` standard normal draws from the project's
//! seeded [`Rng`]. docs/race.md reports what these tests print.

use super::elimination::{Race, RaceConfig};
use crate::rng::Rng;

/// The distributions of a synthetic race.
#[derive(Clone, Copy)]
struct World {
    /// The median instance's time for a candidate of factor 1, in seconds.
    median: f64,
    /// sd(ln) of the instances' difficulty.
    instance_sd: f64,
    /// sd(ln) of one run's noise.
    run_sd: f64,
    /// The time limit, in seconds.
    limit: f64,
}

const REALISTIC: World = World {
    median: 0.5,
    instance_sd: 1.0,
    run_sd: 0.3,
    limit: 10.0,
};

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = 1.0 - rng.unit(); // in (0, 1]
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Runs one race of candidates with `factors` to its end (every checkpoint passed or one
/// left; at most 1000 instances) and returns, per candidate, the counted instances after
/// which it was dropped (`None`: it survived).
fn run_race(factors: &[f64], world: World, seed: u64, config: &RaceConfig) -> Vec<Option<usize>> {
    let names = (0..factors.len()).map(|j| format!("c{j}")).collect();
    let mut race = Race::new(names, config.clone());
    let mut rng = Rng::new(seed);
    let mut dropped = vec![None; factors.len()];
    while !race.finished() && race.raced() < 1000 {
        let d = world.median * (world.instance_sd * normal(&mut rng)).exp();
        let times: Vec<f64> = factors
            .iter()
            .map(|f| (d * f * (world.run_sd * normal(&mut rng)).exp()).min(world.limit))
            .collect();
        for decision in race.record(&times) {
            let j: usize = decision.candidate[1..].parse().unwrap();
            dropped[j] = Some(decision.counted_instances);
        }
    }
    dropped
}

/// Per race, per candidate, the counted instances after which it was dropped (`None`:
/// never).
type Outcomes = Vec<Vec<Option<usize>>>;

/// For each checkpoint, the share of `races` races in which candidate `j` had been dropped
/// by then, with the seeds `base + r`.
fn drop_shares(
    factors: &[f64],
    world: World,
    races: u64,
    base: u64,
    j: usize,
) -> (Vec<(usize, f64)>, Outcomes) {
    let config = RaceConfig::default();
    let outcomes: Outcomes = (0..races)
        .map(|r| run_race(factors, world, base + r, &config))
        .collect();
    let shares = config
        .checkpoints
        .iter()
        .map(|&c| {
            let n = outcomes
                .iter()
                .filter(|o| o[j].is_some_and(|at| at <= c))
                .count();
            (c, n as f64 / races as f64)
        })
        .collect();
    (shares, outcomes)
}

/// (a) and (b): a candidate twice as slow as the best is dropped after at most N = 20
/// counted instances in at least 95 % of 200 seeded races (two candidates, and four; with
/// run noise sd(ln) 0.3: 99 % and 100 % by 20, 62 % and 93.5 % by 10), and the best is
/// never dropped.
#[test]
fn a_candidate_twice_as_slow_is_dropped_and_the_best_never() {
    for (factors, slow, label) in [
        (vec![1.0, 2.0], 1, "k = 2: 1x, 2x"),
        (vec![1.0, 1.25, 2.0, 3.0], 2, "k = 4: 1x, 1.25x, 2x, 3x"),
    ] {
        for run_sd in [0.1, 0.3] {
            let world = World {
                run_sd,
                ..REALISTIC
            };
            let (shares, outcomes) = drop_shares(&factors, world, 200, 0x5ace_0000, slow);
            eprintln!("{label}, run sd(ln) {run_sd}: share of 200 races with 2x dropped by checkpoint {shares:?}");
            let n = shares.iter().find(|s| s.1 >= 0.95).map(|s| s.0);
            eprintln!("{label}, run sd(ln) {run_sd}: N = {n:?}");
            assert!(n.is_some_and(|n| n <= 20), "{label}: {shares:?}");
            let best_dropped = outcomes.iter().filter(|o| o[0].is_some()).count();
            assert_eq!(best_dropped, 0, "{label}: the best was dropped");
        }
    }
}

/// (c): two candidates of the same distribution: the share of 1000 seeded races (≥ 200)
/// in which one of them is dropped is at most 5 % (measured 1.3 %). Printed beside it: the
/// rate the F and t approximations would give with two candidates (8.2 %, why `exact_two`
/// is the default), and four equal candidates' (5.6 %, only guarded at 8 %).
#[test]
fn equal_candidates_are_rarely_told_apart() {
    let races = 1000;
    for (factors, config, label) in [
        (
            vec![1.0, 1.0],
            RaceConfig::default(),
            "k = 2, exact sign test",
        ),
        (
            vec![1.0, 1.0],
            RaceConfig {
                exact_two: false,
                ..RaceConfig::default()
            },
            "k = 2, Iman-Davenport F and Conover t",
        ),
        (
            vec![1.0; 4],
            RaceConfig::default(),
            "k = 4, Iman-Davenport and Conover",
        ),
    ] {
        let false_drops = (0..races)
            .filter(|r| {
                run_race(&factors, REALISTIC, 0xe0a1_0000 + r, &config)
                    .iter()
                    .any(|d| d.is_some())
            })
            .count();
        let rate = false_drops as f64 / races as f64;
        eprintln!(
            "{label}: a candidate dropped in {false_drops} of {races} races (rate {rate:.3})"
        );
        if factors.len() == 2 && config.exact_two {
            assert!(rate <= 0.05, "{label}: false-drop rate {rate}");
        }
        if factors.len() == 4 {
            // Measured 0.056 (56 of 1000): slightly over 5 %, from the F and t
            // approximations on few instances (docs/race.md); a guard, not the promise.
            assert!(rate <= 0.08, "{label}: false-drop rate {rate}");
        }
    }
}
