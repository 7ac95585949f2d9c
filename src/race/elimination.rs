//! The decision rule of a race: when to test, at which level, and whom to drop.
//!
//! Tests run only at fixed checkpoints, counted in instances that count
//! ([`super::friedman::block_counts`] over the current survivors), by default after 5, 10,
//! 20 and 40; α = 0.05 is split evenly over them (Bonferroni over the looks, so 0.0125 a
//! look), which bounds the chance that a race drops a candidate that is no worse than the
//! best by about α whatever the number of looks actually made. At a checkpoint, with
//! three or more survivors: if the Iman–Davenport p-value is below the look's level, every
//! survivor whose Conover p-value against the current best is below it too is dropped
//! (F-Race's rule, Birattari et al. 2002). With two survivors the Friedman statistic is
//! the sign statistic `(wins − losses)²/n`, and its exact p-value, the two-sided sign test,
//! decides (the F and t approximations would drop a candidate that lost 5 of 5 instances,
//! which two equal candidates do once in 16 races). The best is never dropped.

use serde::{Deserialize, Serialize};

use super::friedman::{block_counts, friedman, round_ms, sign_test_p, Friedman};

/// When to test and at which overall level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RaceConfig {
    /// The numbers of counted instances after which a test runs, increasing.
    pub checkpoints: Vec<usize>,
    /// The overall level, split evenly over the checkpoints.
    pub alpha: f64,
    /// With two survivors, decide by the exact sign test (true, the default) rather than
    /// by the Iman–Davenport F and Conover t approximations (false: kept only to measure
    /// what those would do).
    pub exact_two: bool,
}

impl Default for RaceConfig {
    fn default() -> Self {
        RaceConfig {
            checkpoints: vec![5, 10, 20, 40],
            alpha: 0.05,
            exact_two: true,
        }
    }
}

impl RaceConfig {
    /// The level of each look: α divided by the number of checkpoints.
    pub fn alpha_per_look(&self) -> f64 {
        self.alpha / self.checkpoints.len().max(1) as f64
    }
}

/// One test made at a checkpoint over the survivors' counted instances.
#[derive(Debug, Clone, PartialEq)]
pub struct Look {
    /// The number of counted instances the test saw.
    pub counted: usize,
    /// The Friedman test of those instances.
    pub friedman: Friedman,
    /// The omnibus test's name: `"iman-davenport"`, or `"sign"` (exact) with two survivors.
    pub test: &'static str,
    /// The omnibus p-value the level is compared with.
    pub p_value: f64,
    /// The current best, as an index into the survivors given to [`look`].
    pub best: usize,
    /// Every other survivor with its post-hoc statistic and p-value against the best
    /// (`None`: infinite), and whether it is dropped.
    pub comparisons: Vec<(usize, Option<f64>, f64, bool)>,
}

/// The test at one checkpoint: `blocks` are the counted instances, one time per survivor
/// in a fixed order; `alpha` the look's level. `None` when there is no block or fewer than
/// two survivors.
pub fn look(blocks: &[Vec<f64>], alpha: f64, exact_two: bool) -> Option<Look> {
    let fr = friedman(blocks)?;
    let best = fr.best();
    let k = fr.candidates;
    let mut comparisons = Vec::new();
    let (test, p_value);
    if k == 2 && exact_two {
        let other = 1 - best;
        let wins = blocks.iter().filter(|b| b[best] < b[other]).count();
        let losses = blocks.iter().filter(|b| b[best] > b[other]).count();
        let p = sign_test_p(wins, losses);
        test = "sign";
        p_value = p;
        comparisons.push((other, finite(fr.chi_squared), p, p < alpha));
    } else {
        test = "iman-davenport";
        p_value = fr.p_value;
        for j in (0..k).filter(|&j| j != best) {
            let c = fr.conover(j, best);
            let drop = fr.p_value < alpha && c.p_value < alpha;
            comparisons.push((j, finite(c.t), c.p_value, drop));
        }
    }
    Some(Look {
        counted: blocks.len(),
        friedman: fr,
        test,
        p_value,
        best,
        comparisons,
    })
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A candidate dropped from a race, as a line of `race.jsonl` will hold it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The candidate dropped.
    pub candidate: String,
    /// The counted instances (over the survivors at the look) the test saw.
    pub counted_instances: usize,
    /// All instances raced so far, counted or not.
    pub raced_instances: usize,
    /// The omnibus test: `"iman-davenport"` (then Conover's post-hoc) or `"sign"` (exact,
    /// two survivors).
    pub test: String,
    /// The omnibus statistic: Iman–Davenport's T2, or with `"sign"` Friedman's T1 =
    /// (wins − losses)²/n; `None` when infinite (every counted instance ranked the
    /// survivors alike).
    pub statistic: Option<f64>,
    /// The omnibus p-value.
    pub p_value: f64,
    /// The candidate's post-hoc statistic against the best: Conover's t, or T1 with
    /// `"sign"`; `None` when infinite.
    pub posthoc_statistic: Option<f64>,
    /// The candidate's post-hoc p-value against the best (the sign test's with `"sign"`).
    pub posthoc_p_value: f64,
    /// The level of the look both p-values were below.
    pub alpha: f64,
    /// The best at the look (lowest rank sum), never dropped.
    pub best: String,
    /// The survivors after the look.
    pub survivors: Vec<String>,
}

/// The state of a race: the candidates, who survives, every instance's times, and the
/// decisions made so far.
#[derive(Debug, Clone)]
pub struct Race {
    config: RaceConfig,
    names: Vec<String>,
    alive: Vec<bool>,
    instances: Vec<Vec<f64>>,
    next_look: usize,
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
            next_look: 0,
            decisions: Vec::new(),
        }
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

    /// The instances raced so far, counted or not.
    pub fn raced(&self) -> usize {
        self.instances.len()
    }

    /// Whether every checkpoint has been passed or one candidate is left.
    pub fn finished(&self) -> bool {
        self.next_look >= self.config.checkpoints.len() || self.survivors().len() < 2
    }

    /// The counted instances over the current survivors: each raced instance restricted to
    /// them, kept when it counts ([`block_counts`]).
    pub fn counted_blocks(&self) -> Vec<Vec<f64>> {
        let s = self.survivors();
        self.instances
            .iter()
            .map(|row| s.iter().map(|&j| row[j]).collect::<Vec<f64>>())
            .filter(|b| block_counts(b))
            .collect()
    }

    /// The current best among the survivors (lowest rank sum over the counted instances;
    /// the first survivor when none counts; `None` in a race of no candidate).
    pub fn best(&self) -> Option<usize> {
        let s = self.survivors();
        match friedman(&self.counted_blocks()) {
            Some(fr) => Some(s[fr.best()]),
            None => s.first().copied(),
        }
    }

    /// Records one instance: `times[j]` is candidate `j`'s time in seconds, charged as the
    /// SGM charges it (a failure at its limit); values of dropped candidates are ignored.
    /// Times are rounded to the millisecond ([`round_ms`]). When the counted instances
    /// reach the next checkpoint the test runs, and the drops it makes are returned.
    ///
    /// # Panics
    /// When `times` does not hold one value per candidate.
    pub fn record(&mut self, times: &[f64]) -> Vec<Decision> {
        assert_eq!(times.len(), self.names.len(), "one time per candidate");
        let row = times
            .iter()
            .enumerate()
            .map(|(j, &t)| if self.alive[j] { round_ms(t) } else { f64::NAN })
            .collect();
        self.instances.push(row);
        let blocks = self.counted_blocks();
        let Some(&at) = self.config.checkpoints.get(self.next_look) else {
            return Vec::new();
        };
        if blocks.len() < at || self.survivors().len() < 2 {
            return Vec::new();
        }
        self.next_look += 1;
        let alpha = self.config.alpha_per_look();
        let Some(look) = look(&blocks, alpha, self.config.exact_two) else {
            return Vec::new();
        };
        let s = self.survivors();
        let dropped: Vec<usize> = look
            .comparisons
            .iter()
            .filter(|c| c.3)
            .map(|c| s[c.0])
            .collect();
        for &j in &dropped {
            self.alive[j] = false;
        }
        let survivors: Vec<String> = self
            .survivors()
            .iter()
            .map(|&j| self.names[j].clone())
            .collect();
        let statistic = if look.test == "sign" {
            finite(look.friedman.chi_squared)
        } else {
            finite(look.friedman.f)
        };
        let made: Vec<Decision> = look
            .comparisons
            .iter()
            .filter(|c| c.3)
            .map(|c| Decision {
                candidate: self.names[s[c.0]].clone(),
                counted_instances: look.counted,
                raced_instances: self.instances.len(),
                test: look.test.to_string(),
                statistic,
                p_value: look.p_value,
                posthoc_statistic: c.1,
                posthoc_p_value: c.2,
                alpha,
                best: self.names[s[look.best]].clone(),
                survivors: survivors.clone(),
            })
            .collect();
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
    fn alpha_is_split_over_the_looks() {
        assert_eq!(RaceConfig::default().alpha_per_look(), 0.0125);
    }

    #[test]
    fn a_candidate_always_last_is_dropped_at_the_first_look() {
        let mut race = Race::new(names(3), RaceConfig::default());
        // c2 always last, c0 and c1 trade first place.
        for i in 0..4 {
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
        assert_eq!(d[0].counted_instances, 5);
        assert_eq!(d[0].best, "c0");
        assert_eq!(d[0].survivors, vec!["c0", "c1"]);
        assert!(d[0].p_value < 0.0125 && d[0].posthoc_p_value < 0.0125);
        // The record is a line of race.jsonl and reads back the same.
        let line = serde_json::to_string(&d[0]).unwrap();
        let back: Decision = serde_json::from_str(&line).unwrap();
        assert_eq!(back, d[0]);
    }

    #[test]
    fn two_candidates_all_ties_drop_nothing() {
        let mut race = Race::new(names(2), RaceConfig::default());
        for _ in 0..50 {
            assert!(race.record(&[0.5, 0.5]).is_empty());
        }
        // No instance counts, so no look was even made.
        assert_eq!(race.counted_blocks().len(), 0);
        assert_eq!(race.survivors(), vec![0, 1]);
        // Fast instances do not count either.
        let mut race = Race::new(names(2), RaceConfig::default());
        for _ in 0..50 {
            race.record(&[0.001, 0.009]);
        }
        assert_eq!(race.survivors(), vec![0, 1]);
    }

    #[test]
    fn two_candidates_use_the_exact_sign_test() {
        // Five wins of five: p = 1/16, not below 0.0125, so nothing is dropped at 5.
        let mut race = Race::new(names(2), RaceConfig::default());
        for _ in 0..5 {
            assert!(race.record(&[0.2, 0.4]).is_empty());
        }
        // Ten of ten: p = 2/1024 < 0.0125: c1 is dropped at the second look.
        for _ in 0..4 {
            assert!(race.record(&[0.2, 0.4]).is_empty());
        }
        let d = race.record(&[0.2, 0.4]);
        assert_eq!(d.len(), 1);
        assert_eq!(
            (d[0].candidate.as_str(), d[0].test.as_str()),
            ("c1", "sign")
        );
        assert!((d[0].p_value - 2.0 / 1024.0).abs() < 1e-12);
        assert_eq!(d[0].statistic, Some(10.0));
        assert!(race.finished());
        // With the approximations instead, five of five give F = ∞ and a drop at once.
        let config = RaceConfig {
            exact_two: false,
            ..RaceConfig::default()
        };
        let mut race = Race::new(names(2), config);
        let mut made = Vec::new();
        for _ in 0..5 {
            made.extend(race.record(&[0.4, 0.2]));
        }
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].candidate, "c0");
        assert_eq!(made[0].statistic, None);
    }

    #[test]
    fn ties_with_the_best_are_not_dropped() {
        // c0 and c1 tie everywhere, c2 always slower: only c2 goes, and c1 (tied with the
        // best on every instance, p = 1) stays.
        let mut race = Race::new(names(3), RaceConfig::default());
        let mut made = Vec::new();
        for i in 0..10 {
            let slow = 0.5 + 0.01 * i as f64;
            made.extend(race.record(&[0.3, 0.3, slow]));
        }
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].candidate, "c2");
        assert_eq!(race.survivors(), vec![0, 1]);
        assert_eq!(race.best(), Some(0));
        // Between the two left every instance is a tie: none counts, nothing more happens.
        for _ in 0..50 {
            assert!(race.record(&[0.3, 0.3, 0.0]).is_empty());
        }
        assert_eq!(race.survivors(), vec![0, 1]);
    }
}
