//! The decision rule of a race: when to test, at which level, and whom to drop.
//!
//! A race runs a plan of instances fixed before it starts ([`super::ladder::Ladder::plan`]),
//! and looks after every [`RaceConfig::look_every`] instances of it. α = 0.05 is spent over
//! the looks as a convergent series: look `t` (from 1) gets `α·6/(π²t²)` (0.0304, 0.0076,
//! 0.0034, 0.0019, ...), which sums to α however many looks a race makes, so the split
//! needs neither the plan's length nor a guess of it (Bonferroni over the looks). At a look,
//! with two or more survivors:
//!
//! 1. the **best** is the survivor with the most net wins over the other survivors: on each
//!    instance that separates two survivors ([`super::sign::separates`]), the faster gains one and the
//!    slower loses one ([`Race::best`]);
//! 2. every ordered pair of survivors (`i` faster than `j`) is tested by the exact
//!    one-sided **sign test** over the instances that separate the pair ([`sign_test_p`]),
//!    a pair with fewer than [`RaceConfig::min_pair`] separating instances at p = 1;
//! 3. the `k(k−1)` p-values are adjusted by **Holm**'s step-down at the look's level
//!    ([`holm`]); a survivor against which some test is rejected is dropped (never the
//!    best).
//!
//! No omnibus test is made. Testing every pair rather than each survivor against the
//! data-chosen best is what keeps the level: a candidate as good as the best is dropped
//! only through a false rejection (no survivor is truly faster than it), and Holm keeps the
//! chance of any false rejection at a look at most the look's level whatever the other
//! candidates are. Against the best alone, the best is the luckiest of the equal
//! candidates and the tests against it are biased: 21.5 % of races of 30 equal candidates
//! dropped one in the synthetic races of `simulate.rs` (docs/race.md).

use serde::{Deserialize, Serialize};

use super::sign::{holm, sign_test_p, smallest_p, tally};

/// When to test and at which overall level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RaceConfig {
    /// A look after every this many instances of the plan.
    pub look_every: usize,
    /// The overall level, spent over the looks ([`RaceConfig::alpha_at`]).
    pub alpha: f64,
    /// The fewest instances separating a candidate from the best for it to be dropped: the
    /// verdict between the best and the runner-up then rests on at least this many.
    pub min_pair: usize,
}

/// Instances between two looks, unless a race says otherwise.
pub const LOOK_EVERY: usize = 12;

/// The fewest separating instances a drop needs.
pub const MIN_PAIR: usize = 10;

impl Default for RaceConfig {
    /// A look every [`LOOK_EVERY`] instances, α = 0.05, at least [`MIN_PAIR`] separating
    /// instances for a drop.
    fn default() -> RaceConfig {
        RaceConfig {
            look_every: LOOK_EVERY,
            alpha: 0.05,
            min_pair: MIN_PAIR,
        }
    }
}

impl RaceConfig {
    /// The level of look `t` (1 for the first): `α·6/(π²t²)`; the levels of all looks sum
    /// to α.
    pub fn alpha_at(&self, t: usize) -> f64 {
        let t = t.max(1) as f64;
        self.alpha * 6.0 / (std::f64::consts::PI.powi(2) * t * t)
    }

    /// Whether a look comes after `raced` instances.
    pub fn is_look(&self, raced: usize) -> bool {
        raced > 0 && raced.is_multiple_of(self.look_every.max(1))
    }

    /// The number of looks a plan of `planned` instances makes.
    pub fn looks_in(&self, planned: usize) -> usize {
        planned / self.look_every.max(1)
    }
}

/// One comparison of a look: a survivor against the best.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The survivor compared.
    pub candidate: String,
    /// Instances on which the best was faster (separating ones only).
    pub best_faster: usize,
    /// Instances on which the candidate was faster.
    pub best_slower: usize,
    /// The one-sided sign test's p-value of the best being faster (1 with fewer than
    /// [`RaceConfig::min_pair`] separating instances).
    pub p_value: f64,
    /// Holm's level that test was compared with.
    pub level: f64,
    /// Whether it was dropped (some survivor's test against it was rejected).
    pub dropped: bool,
    /// The survivors whose test against it was rejected (the best among them or not).
    pub beaten_by: Vec<String>,
    /// Why it could not be dropped whatever the p-value, if so: too few separating
    /// instances, or a level below the smallest p-value they allow.
    pub unreachable: Option<String>,
}

/// A look: the tests made after some instances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Look {
    /// Instances raced at the look.
    pub raced_instances: usize,
    /// The look's level (α spent on it: [`RaceConfig::alpha_at`]).
    pub alpha: f64,
    /// The best at the look.
    pub best: String,
    /// Every other survivor against the best.
    pub comparisons: Vec<Comparison>,
    /// The survivors after the look.
    pub survivors: Vec<String>,
}

/// A candidate dropped from a race, as a line of `race.jsonl` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The candidate dropped.
    pub candidate: String,
    /// The instances separating it from the best (those the test saw).
    pub counted_instances: usize,
    /// All instances raced so far.
    pub raced_instances: usize,
    /// The test: `"sign"` (exact, one-sided, Holm-adjusted).
    pub test: String,
    /// Of the separating instances, those on which the best was faster.
    pub best_faster: usize,
    /// Those on which the dropped candidate was faster.
    pub best_slower: usize,
    /// The sign test's p-value of the best against it.
    pub p_value: f64,
    /// Holm's level that p-value was compared with (met when the best is among
    /// `beaten_by`).
    pub level: f64,
    /// The look's level (α spent on it).
    pub alpha: f64,
    /// The best at the look, never dropped.
    pub best: String,
    /// The survivors whose one-sided sign test against it was rejected at the look (the
    /// best among them where the best separated it).
    pub beaten_by: Vec<String>,
    /// The survivors after the look.
    pub survivors: Vec<String>,
}

/// The state of a race: the candidates, who survives, every instance's times, and the
/// looks made so far.
#[derive(Debug, Clone)]
pub struct Race {
    config: RaceConfig,
    names: Vec<String>,
    alive: Vec<bool>,
    instances: Vec<Vec<f64>>,
    looks: Vec<Look>,
    decisions: Vec<Decision>,
}

impl Race {
    /// A race of the candidates `names`, all surviving, with no instance run.
    pub fn new(names: Vec<String>, config: RaceConfig) -> Self {
        let alive = vec![true; names.len()];
        Race {
            config,
            names,
            alive,
            instances: Vec::new(),
            looks: Vec::new(),
            decisions: Vec::new(),
        }
    }

    /// The rule the race follows.
    pub fn config(&self) -> &RaceConfig {
        &self.config
    }

    /// The indices of the surviving candidates, in their order.
    pub fn survivors(&self) -> Vec<usize> {
        (0..self.names.len()).filter(|&j| self.alive[j]).collect()
    }

    /// Takes candidate `j` out of the race without a test (it refused an instance): it is
    /// neither ranked nor dropped from then on.
    pub fn withdraw(&mut self, j: usize) {
        self.alive[j] = false;
    }

    /// The candidates' names, in their order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The drops made so far, in order.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The looks made so far, in order.
    pub fn looks(&self) -> &[Look] {
        &self.looks
    }

    /// The instances raced so far.
    pub fn raced(&self) -> usize {
        self.instances.len()
    }

    /// Whether `planned` instances are raced or one candidate is left.
    pub fn finished(&self, planned: usize) -> bool {
        self.instances.len() >= planned || self.survivors().len() < 2
    }

    /// Over the instances both ran, those that separate `a` from `b` ([`super::sign::separates`]):
    /// (on how many `a` was faster, on how many `b` was).
    pub fn versus(&self, a: usize, b: usize) -> (usize, usize) {
        tally(self.instances.iter().map(|row| (row[a], row[b])))
    }

    /// The net wins of survivor `j` over the other survivors: Σ (faster − slower) over the
    /// instances separating it from each.
    pub fn net_wins(&self, j: usize) -> i64 {
        self.survivors()
            .into_iter()
            .filter(|&o| o != j)
            .map(|o| {
                let (w, l) = self.versus(j, o);
                w as i64 - l as i64
            })
            .sum()
    }

    /// The summed charged time of candidate `j` over the instances it ran.
    pub fn total(&self, j: usize) -> f64 {
        self.instances
            .iter()
            .map(|r| r[j])
            .filter(|t| !t.is_nan())
            .sum()
    }

    /// The current best among the survivors: the most net wins ([`Self::net_wins`]), then
    /// the least total time, then the first in order; `None` in a race of no survivor.
    pub fn best(&self) -> Option<usize> {
        let s = self.survivors();
        let wins: Vec<(usize, i64)> = s.iter().map(|&j| (j, self.net_wins(j))).collect();
        wins.iter()
            .min_by(|a, b| {
                b.1.cmp(&a.1)
                    .then(self.total(a.0).total_cmp(&self.total(b.0)))
                    .then(a.0.cmp(&b.0))
            })
            .map(|w| w.0)
    }

    /// Records one instance: `times[j]` is candidate `j`'s time in seconds, charged as the
    /// SGM charges it (a failure at its limit); values of candidates out of the race are
    /// ignored. At a look ([`RaceConfig::is_look`]) the tests run, and the drops they make
    /// are returned.
    ///
    /// # Panics
    /// When `times` does not hold one value per candidate.
    pub fn record(&mut self, times: &[f64]) -> Vec<Decision> {
        assert_eq!(times.len(), self.names.len(), "one time per candidate");
        let row = times
            .iter()
            .enumerate()
            .map(|(j, &t)| if self.alive[j] { t } else { f64::NAN })
            .collect();
        self.instances.push(row);
        if !self.config.is_look(self.instances.len()) || self.survivors().len() < 2 {
            return Vec::new();
        }
        self.look()
    }

    fn look(&mut self) -> Vec<Decision> {
        let best = self.best().expect("two survivors");
        let s = self.survivors();
        let alpha = self.config.alpha_at(self.looks.len() + 1);
        // Every ordered pair (i faster than j) of survivors: its separating instances and
        // one-sided p-value; a pair with fewer than `min_pair` separating instances is
        // tested at p = 1 (it stays in Holm's count, so the level holds).
        let mut pairs: Vec<(usize, usize, usize, usize)> = Vec::new();
        for &i in &s {
            for &j in s.iter().filter(|&&j| j != i) {
                let (w, l) = self.versus(i, j);
                pairs.push((i, j, w, l));
            }
        }
        let ps: Vec<f64> = pairs
            .iter()
            .map(|&(_, _, w, l)| {
                if w + l < self.config.min_pair {
                    1.0
                } else {
                    sign_test_p(w, l)
                }
            })
            .collect();
        let adjusted = holm(&ps, alpha);
        let mut comparisons = Vec::new();
        for &j in s.iter().filter(|&&j| j != best) {
            // The test of the best against j, and every survivor whose test against j was
            // rejected.
            let at = pairs
                .iter()
                .position(|&(a, b, _, _)| a == best && b == j)
                .expect("the pair is there");
            let (_, _, w, l) = pairs[at];
            let (_, level) = adjusted[at];
            let beaten_by: Vec<String> = pairs
                .iter()
                .zip(&adjusted)
                .filter(|((_, b, _, _), (rejected, _))| *b == j && *rejected)
                .map(|((a, _, _, _), _)| self.names[*a].clone())
                .collect();
            let n = w + l;
            let unreachable = if n < self.config.min_pair {
                Some(format!(
                    "{n} separating instances, fewer than {}",
                    self.config.min_pair
                ))
            } else if smallest_p(n) > level {
                Some(format!(
                    "{n} separating instances allow p ≥ {:.2e}, above the level {level:.2e}",
                    smallest_p(n)
                ))
            } else {
                None
            };
            comparisons.push(Comparison {
                candidate: self.names[j].clone(),
                best_faster: w,
                best_slower: l,
                p_value: ps[at],
                level,
                dropped: !beaten_by.is_empty(),
                beaten_by,
                unreachable,
            });
        }
        for c in &comparisons {
            if c.dropped {
                let j = self
                    .names
                    .iter()
                    .position(|n| *n == c.candidate)
                    .expect("a name");
                self.alive[j] = false;
            }
        }
        let survivors: Vec<String> = self
            .survivors()
            .iter()
            .map(|&j| self.names[j].clone())
            .collect();
        let raced = self.instances.len();
        let made: Vec<Decision> = comparisons
            .iter()
            .filter(|c| c.dropped)
            .map(|c| Decision {
                candidate: c.candidate.clone(),
                counted_instances: c.best_faster + c.best_slower,
                raced_instances: raced,
                test: "sign".into(),
                best_faster: c.best_faster,
                best_slower: c.best_slower,
                p_value: c.p_value,
                level: c.level,
                alpha,
                best: self.names[best].clone(),
                beaten_by: c.beaten_by.clone(),
                survivors: survivors.clone(),
            })
            .collect();
        self.looks.push(Look {
            raced_instances: raced,
            alpha,
            best: self.names[best].clone(),
            comparisons,
            survivors,
        });
        self.decisions.extend(made.iter().cloned());
        made
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(k: usize) -> Vec<String> {
        (0..k).map(|j| format!("c{j}")).collect()
    }

    #[test]
    fn alpha_is_spent_over_the_looks_and_sums_to_alpha() {
        let c = RaceConfig::default();
        assert!((c.alpha_at(1) - 0.05 * 6.0 / std::f64::consts::PI.powi(2)).abs() < 1e-15);
        assert!(c.alpha_at(2) < c.alpha_at(1) / 3.9);
        let all: f64 = (1..100_000).map(|t| c.alpha_at(t)).sum();
        assert!(all <= 0.05 && all > 0.0499, "{all}");
        assert!(c.is_look(12) && c.is_look(24) && !c.is_look(30) && !c.is_look(0));
        assert_eq!(c.looks_in(36), 3);
    }

    #[test]
    fn a_candidate_always_last_is_dropped_at_the_first_look() {
        let mut race = Race::new(names(3), RaceConfig::default());
        // c2 always last, c0 and c1 trade first place.
        for i in 0..11 {
            let t = if i % 2 == 0 {
                [0.1, 0.2, 0.9]
            } else {
                [0.2, 0.1, 0.9]
            };
            assert!(race.record(&t).is_empty());
        }
        let d = race.record(&[0.1, 0.2, 0.9]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].candidate, "c2");
        assert_eq!((d[0].best_faster, d[0].best_slower), (12, 0));
        assert_eq!(d[0].counted_instances, 12);
        assert_eq!(d[0].best, "c0");
        assert_eq!(d[0].survivors, vec!["c0", "c1"]);
        assert!(d[0].p_value <= d[0].level);
        // The record is a line of race.jsonl and reads back the same.
        let line = serde_json::to_string(&d[0]).unwrap();
        let back: Decision = serde_json::from_str(&line).unwrap();
        assert_eq!(back, d[0]);
        // The look is kept with every comparison, the one not dropped too.
        let look = &race.looks()[0];
        assert_eq!(look.comparisons.len(), 2);
        assert!(look
            .comparisons
            .iter()
            .any(|c| c.candidate == "c1" && !c.dropped));
    }

    #[test]
    fn ties_and_fast_instances_separate_nothing() {
        let mut race = Race::new(names(2), RaceConfig::default());
        for _ in 0..48 {
            assert!(race.record(&[0.5, 0.5]).is_empty());
        }
        assert_eq!(race.versus(0, 1), (0, 0));
        assert_eq!(race.survivors(), vec![0, 1]);
        let mut race = Race::new(names(2), RaceConfig::default());
        for _ in 0..48 {
            race.record(&[0.001, 0.009]);
        }
        assert_eq!(race.survivors(), vec![0, 1]);
        assert!(race.looks()[0].comparisons[0]
            .unreachable
            .as_deref()
            .is_some_and(|u| u.contains("fewer than 10")));
    }

    #[test]
    fn a_third_candidate_changes_nothing_between_two() {
        // c0 at 1 ms, c1 at 2 ms: never separated, whatever c2 does (the old rule counted
        // these instances once a slow c2 made the slowest survivor take 10 ms).
        let mut race = Race::new(names(3), RaceConfig::default());
        for _ in 0..24 {
            race.record(&[0.001, 0.002, 1.0]);
        }
        assert_eq!(race.versus(0, 1), (0, 0));
        assert!(race.survivors().contains(&1));
        assert!(!race.survivors().contains(&2));
    }

    #[test]
    fn no_drop_below_what_the_exact_test_can_reach() {
        // Ten candidates, nine lose every one of 12 instances to c0 and tie among
        // themselves: p = 2^-12 = 2.4e-4 is below the first look's 0.0304/90 = 3.4e-4
        // (90 ordered pairs), so all nine go.
        let mut race = Race::new(names(10), RaceConfig::default());
        let mut made = Vec::new();
        for _ in 0..12 {
            let mut t = vec![0.5; 10];
            t[0] = 0.1;
            made.extend(race.record(&t));
        }
        assert_eq!(made.len(), 9);
        // With a look after 8 instances: 2^-8 = 3.9e-3 is above 0.0304/29, and 8 < 10
        // separating instances: nothing can go, though every other candidate lost them all.
        let config = RaceConfig {
            look_every: 8,
            ..RaceConfig::default()
        };
        let mut race = Race::new(names(30), config);
        for _ in 0..8 {
            let mut t = vec![0.5; 30];
            t[0] = 0.1;
            assert!(race.record(&t).is_empty());
        }
        assert_eq!(race.survivors().len(), 30);
        assert!(race.finished(8));
        let c = &race.looks()[0].comparisons[0];
        assert!(c.unreachable.is_some(), "{c:?}");
    }

    #[test]
    fn the_best_has_the_most_net_wins() {
        // c1 beats c0 on 7 of 11, c2 is beaten by both: c1 is the best (before any look).
        let mut race = Race::new(names(3), RaceConfig::default());
        for i in 0..11 {
            let t = if i < 7 {
                [0.3, 0.2, 0.9]
            } else {
                [0.2, 0.3, 0.9]
            };
            race.record(&t);
        }
        assert_eq!(race.net_wins(1), 7 - 4 + 11);
        assert_eq!(race.best(), Some(1));
    }
}
