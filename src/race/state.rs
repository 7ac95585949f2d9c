//! A race as its rows tell it: the candidates, the instances raced in order, each
//! candidate's charged time on each, who refused, who was dropped and when. The `race`
//! command builds it instance by instance as it runs; the report rebuilds it from the rows
//! alone ([`replay`]), so a results file (merged from shards or not) holds every race
//! whole, and `race.jsonl` is a record of it, never the only one.

use super::elimination::{Decision, Look, Race, RaceConfig};
use super::sign::{sign_test_p, tally};
use crate::record::Record;
use crate::stats::{median, succeeded};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Why a race ended: one candidate left.
pub const ONE_LEFT: &str = "one candidate left";
/// Why a race ended: every planned instance raced.
pub const PLAN_RUN: &str = "plan run";
/// Why a race ended: the safety cap in seconds stopped it short of its plan.
pub const CAPPED: &str = "cut short by the time cap";
/// Why a race ended: after a look, the best and the runner-up shared at least
/// [`super::elimination::MIN_PAIR`] separating instances ([`RaceState::has_enough`]).
pub const ENOUGH: &str = "enough instances";
/// The shift (seconds) of [`RaceState::distance_from_best`], the report's default SGM
/// shift: differences well under 10 ms count little.
pub const CLOSENESS_SHIFT: f64 = 0.01;

/// The seconds a race charges a run, on the run clock (the clock of the time limit: model
/// building, LP relaxation, solve and, for a solver in a child process, its start and the
/// model's transfer; `run_seconds`): its run-clock time when it succeeded, else exactly its
/// time limit, as a failure, and as a run its adaptive cap stopped
/// ([`super::capping`]). The solve clock (`seconds`) stands in for rows without a run
/// clock (a run killed at its hard limit, rows of older versions).
pub fn race_seconds(r: &Record) -> f64 {
    let t = r.run_seconds.or(r.seconds).unwrap_or(0.0);
    if succeeded(r) {
        t
    } else {
        r.time_limit.unwrap_or(t)
    }
}

/// A candidate that refused an instance (a model over an engine's limit): it leaves the
/// race unranked from that instance on; a refusal is not a failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refusal {
    /// The candidate.
    pub candidate: String,
    /// The instance (1-based, in race order) it refused first.
    pub instance: usize,
    /// The engine's reason.
    pub reason: String,
}

/// One instance of a race, as raced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Raced {
    /// Its name, as the rows give it.
    pub name: String,
    /// Per candidate (in [`RaceState::candidates`] order) the time charged (seconds on the
    /// run clock, median over its runs, a failure or a capped run at its time limit:
    /// [`race_seconds`]); `None` for one not in the race.
    pub times: Vec<Option<f64>>,
    /// Per candidate, whether the race's adaptive cap stopped a run of it there
    /// ([`super::capping`]); `false` for one not in the race.
    #[serde(default)]
    pub capped: Vec<bool>,
    /// Per candidate, whether it solved the instance (verified); `false` for one not in
    /// the race.
    pub solved: Vec<bool>,
}

/// The race's evidence between its best and one other candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Separation {
    /// Separating instances on which the best was faster.
    pub best_faster: usize,
    /// Separating instances on which the other was faster.
    pub best_slower: usize,
    /// The one-sided sign test's p-value of the best being faster, over all their shared
    /// separating instances (after the race, not a test it made).
    pub p_value: f64,
    /// When a look of the race dropped the other with this best's test against it rejected:
    /// the instances raced then, the p-value and Holm's level it met. `None`: no test
    /// separated them.
    pub dropped_at: Option<(usize, f64, f64)>,
}

/// A race's state.
#[derive(Debug, Clone)]
pub struct RaceState {
    /// The race's name (the rows' `race` column).
    pub name: String,
    /// The puzzle raced.
    pub puzzle: String,
    /// Every candidate, by name (`formulation on engine`), sorted.
    pub candidates: Vec<String>,
    /// The instances raced, in order.
    pub raced: Vec<Raced>,
    /// The refusals.
    pub refusals: Vec<Refusal>,
    /// The wall seconds of the race's runs (worker starts included; a run in the parent's
    /// process counts its `seconds`).
    pub spent: f64,
    race: Race,
}

impl RaceState {
    /// A race of `puzzle`'s `candidates` (sorted here) that has run nothing, with the
    /// default rule ([`RaceConfig::default`]).
    pub fn new(name: &str, puzzle: &str, mut candidates: Vec<String>) -> RaceState {
        candidates.sort();
        candidates.dedup();
        RaceState {
            name: name.to_string(),
            puzzle: puzzle.to_string(),
            race: Race::new(candidates.clone(), RaceConfig::default()),
            candidates,
            raced: Vec::new(),
            refusals: Vec::new(),
            spent: 0.0,
        }
    }

    /// The candidates still in the race (neither dropped nor refused), in order.
    pub fn survivors(&self) -> Vec<String> {
        self.race
            .survivors()
            .into_iter()
            .map(|j| self.candidates[j].clone())
            .collect()
    }

    /// The drops made so far, in order.
    pub fn decisions(&self) -> &[Decision] {
        self.race.decisions()
    }

    /// The looks made so far, in order.
    pub fn looks(&self) -> &[Look] {
        self.race.looks()
    }

    /// The rule the race followed.
    pub fn config(&self) -> &RaceConfig {
        self.race.config()
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.candidates.iter().position(|c| c == name)
    }

    /// Over the instances both ran, those that separate `a` from `b` (to the millisecond,
    /// the slower at 10 ms or more: [`super::sign::separates`]): (on how many `a` was faster, on how
    /// many `b` was). (0, 0) for a name not in the race.
    pub fn versus(&self, a: &str, b: &str) -> (usize, usize) {
        let (Some(i), Some(j)) = (self.index(a), self.index(b)) else {
            return (0, 0);
        };
        tally(
            self.raced
                .iter()
                .filter_map(|r| Some((r.times[i]?, r.times[j]?))),
        )
    }

    /// The instances that separate `a` from `b` (of those both ran): what a test between
    /// the two counts.
    pub fn counted_between(&self, a: &str, b: &str) -> usize {
        let (x, y) = self.versus(a, b);
        x + y
    }

    /// The current best: the survivor with the most net wins over the other survivors
    /// ([`Race::best`]).
    pub fn best(&self) -> Option<String> {
        self.race.best().map(|j| self.candidates[j].clone())
    }

    /// The race's statistic for `candidate` against the best: its share of the instances
    /// separating the two on which it was faster (½ when none separates them), and how
    /// many separate them.
    pub fn share_against_best(&self, candidate: &str) -> (f64, usize) {
        let Some(best) = self.best() else {
            return (0.5, 0);
        };
        let (faster, slower) = self.versus(candidate, &best);
        let n = faster + slower;
        if n == 0 {
            (0.5, 0)
        } else {
            (faster as f64 / n as f64, n)
        }
    }

    /// How far `candidate` lies behind the best by time: the mean over the instances both
    /// measured ([`Self::measured_by_both`]) of ln((t + s) / (t_best + s)), with the
    /// report's shift s = 10 ms ([`CLOSENESS_SHIFT`]); infinite where they measured none
    /// together. It orders candidates of equal share ([`Self::order`]): a sign test cannot
    /// tell apart two candidates that lost every separating instance, their times can.
    pub fn distance_from_best(&self, candidate: &str) -> f64 {
        let Some(best) = self.best() else {
            return f64::INFINITY;
        };
        let (Some(i), Some(j)) = (self.index(candidate), self.index(&best)) else {
            return f64::INFINITY;
        };
        let capped = |r: &Raced, k: usize| r.capped.get(k).copied().unwrap_or(false);
        let logs: Vec<f64> = self
            .raced
            .iter()
            .filter(|r| !capped(r, i) && !capped(r, j))
            .filter_map(|r| Some((r.times[i]?, r.times[j]?)))
            .map(|(t, b)| ((t + CLOSENESS_SHIFT) / (b + CLOSENESS_SHIFT)).ln())
            .collect();
        if logs.is_empty() {
            f64::INFINITY
        } else {
            logs.iter().sum::<f64>() / logs.len() as f64
        }
    }

    /// The candidates from best to worst: the best, then every other candidate that did not
    /// refuse (surviving or dropped, whichever test dropped it) by its share of wins
    /// against the best on the instances separating the two ([`Self::share_against_best`]),
    /// among equal shares the nearer to the best by time first
    /// ([`Self::distance_from_best`]), then more separating instances, then by name; then
    /// those that refused.
    pub fn order(&self) -> Vec<String> {
        let Some(best) = self.best() else {
            return self.candidates.clone();
        };
        let mut others: Vec<(String, f64, f64, usize)> = self
            .candidates
            .iter()
            .filter(|c| **c != best && !self.refused(c))
            .map(|c| {
                let (share, n) = self.share_against_best(c);
                (c.clone(), share, self.distance_from_best(c), n)
            })
            .collect();
        others.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then(a.2.total_cmp(&b.2))
                .then(b.3.cmp(&a.3))
                .then(a.0.cmp(&b.0))
        });
        let mut names = vec![best];
        names.extend(others.into_iter().map(|o| o.0));
        for r in &self.refusals {
            if !names.contains(&r.candidate) {
                names.push(r.candidate.clone());
            }
        }
        names
    }

    /// Whether the race has enough instances: a look has just been made (the instances
    /// raced are a multiple of the look interval) and the best and the runner-up share at
    /// least [`RaceConfig::min_pair`] separating instances. A race ends there: its verdict
    /// between the two rests on as many instances as a drop needs, and a later look could
    /// only add drops (docs/race.md).
    pub fn has_enough(&self) -> bool {
        let rule = self.config();
        if !rule.is_look(self.raced.len()) {
            return false;
        }
        match (self.best(), self.runner_up()) {
            (Some(b), Some(r)) => self.counted_between(&b, &r) >= rule.min_pair,
            _ => false,
        }
    }

    /// The runner-up: the candidate the race's statistic places second
    /// ([`Self::order`]), survivor or dropped; never one that refused.
    pub fn runner_up(&self) -> Option<String> {
        let best = self.best()?;
        self.order()
            .into_iter()
            .find(|c| *c != best && !self.refused(c))
    }

    /// What the race says of the best against `other`: the sign test on the instances
    /// separating them, and whether a test of the race dropped `other` against this best.
    pub fn separation(&self, other: &str) -> Separation {
        let best = self.best().unwrap_or_default();
        let (best_faster, best_slower) = self.versus(&best, other);
        let drop = self
            .decisions()
            .iter()
            .find(|d| d.candidate == other && d.beaten_by.contains(&best));
        Separation {
            best_faster,
            best_slower,
            p_value: sign_test_p(best_faster, best_slower),
            dropped_at: drop.map(|d| (d.raced_instances, d.p_value, d.level)),
        }
    }

    /// Whether `candidate` refused an instance.
    pub fn refused(&self, candidate: &str) -> bool {
        self.refusals.iter().any(|r| r.candidate == candidate)
    }

    /// The instances `candidate` ran, in race order (names).
    pub fn instances_of(&self, candidate: &str) -> Vec<String> {
        let Some(j) = self.candidates.iter().position(|c| c == candidate) else {
            return Vec::new();
        };
        self.raced
            .iter()
            .filter(|r| r.times[j].is_some())
            .map(|r| r.name.clone())
            .collect()
    }

    /// The instances both `a` and `b` ran, capped or not, in race order (names): where a
    /// raced verdict's ratio is taken, a capped run charged its cap.
    pub fn ran_by_both(&self, a: &str, b: &str) -> Vec<String> {
        let (Some(i), Some(j)) = (self.index(a), self.index(b)) else {
            return Vec::new();
        };
        self.raced
            .iter()
            .filter(|r| r.times[i].is_some() && r.times[j].is_some())
            .map(|r| r.name.clone())
            .collect()
    }

    /// The instances both `a` and `b` ran and neither was capped on, in race order (names):
    /// those on which both times are measured.
    pub fn measured_by_both(&self, a: &str, b: &str) -> Vec<String> {
        let (Some(i), Some(j)) = (self.index(a), self.index(b)) else {
            return Vec::new();
        };
        let capped = |r: &Raced, k: usize| r.capped.get(k).copied().unwrap_or(false);
        self.raced
            .iter()
            .filter(|r| r.times[i].is_some() && r.times[j].is_some())
            .filter(|r| !capped(r, i) && !capped(r, j))
            .map(|r| r.name.clone())
            .collect()
    }

    /// How many runs of `candidate` the race's adaptive cap stopped.
    pub fn capped_runs(&self, candidate: &str) -> usize {
        let Some(j) = self.index(candidate) else {
            return 0;
        };
        self.raced
            .iter()
            .filter(|r| r.capped.get(j).copied().unwrap_or(false))
            .count()
    }

    /// Adds the instance `name` from its rows (every row of this race on it): each
    /// survivor's rows give its charged time, the median over its runs; a survivor that
    /// refused leaves the race. Returns the drops the test made, if a checkpoint was
    /// reached. `None` when some survivor has no row (the instance is not complete).
    pub fn add(&mut self, name: &str, rows: &[&Record]) -> Option<Vec<Decision>> {
        let alive = self.race.survivors();
        let mut by: BTreeMap<String, Vec<&Record>> = BTreeMap::new();
        for r in rows {
            by.entry(r.config_name()).or_default().push(r);
        }
        if alive.iter().any(|&j| !by.contains_key(&self.candidates[j])) {
            return None;
        }
        let k = self.raced.len() + 1;
        let n = self.candidates.len();
        let mut times = vec![None; n];
        let mut solved = vec![false; n];
        let mut capped = vec![false; n];
        for &j in &alive {
            let rs = &by[&self.candidates[j]];
            if let Some(r) = rs.iter().find(|r| r.status == "refused") {
                self.refusals.push(Refusal {
                    candidate: self.candidates[j].clone(),
                    instance: k,
                    reason: r.error.clone().unwrap_or_default(),
                });
                self.race.withdraw(j);
                continue;
            }
            let charged: Vec<f64> = rs.iter().map(|r| race_seconds(r)).collect();
            times[j] = median(&charged);
            capped[j] = rs.iter().any(|r| r.is_capped());
            solved[j] = rs.iter().filter(|r| succeeded(r)).count() * 2 > rs.len();
        }
        for rs in by.values() {
            self.spent += rs
                .iter()
                .map(|r| r.wall_seconds.or(r.seconds).unwrap_or(0.0))
                .sum::<f64>();
        }
        let row: Vec<f64> = times.iter().map(|t| t.unwrap_or(f64::NAN)).collect();
        let decisions = self.race.record(&row);
        self.raced.push(Raced {
            name: name.to_string(),
            times,
            solved,
            capped,
        });
        Some(decisions)
    }
}

/// Every race in `rows` (rows with a `race` column), rebuilt from the rows alone: the
/// instances in the order their first row appears, the candidates those of the race's
/// rows; an instance whose rows are not complete ends the replay.
pub fn replay(rows: &[Record]) -> Vec<RaceState> {
    let mut by_race: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.race.is_empty()) {
        by_race.entry(&r.race).or_default().push(r);
    }
    by_race
        .into_iter()
        .map(|(name, rs)| {
            let candidates: BTreeSet<String> = rs.iter().map(|r| r.config_name()).collect();
            let mut order: Vec<&str> = Vec::new();
            let mut per: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
            for r in &rs {
                if !per.contains_key(r.instance.as_str()) {
                    order.push(&r.instance);
                }
                per.entry(&r.instance).or_default().push(r);
            }
            let puzzle = rs.first().map_or("", |r| r.puzzle.as_str());
            let mut state = RaceState::new(name, puzzle, candidates.into_iter().collect());
            for i in order {
                if state.add(i, &per[i]).is_none() {
                    break;
                }
            }
            state
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A race's rows: per instance, per candidate (formulation `f` on engine `e`), its time.
    fn rows(times: &[(&str, Vec<f64>)], instances: usize) -> Vec<Record> {
        let mut out = Vec::new();
        for i in 0..instances {
            for (engine, t) in times {
                out.push(Record {
                    puzzle: "p".into(),
                    instance: format!("i{i:02}"),
                    race: "p".into(),
                    formulation: "f".into(),
                    backend: engine.to_string(),
                    status: "optimal".into(),
                    verified: Some(true),
                    seconds: Some(t[i % t.len()]),
                    time_limit: Some(10.0),
                    ..Record::default()
                });
            }
        }
        out
    }

    #[test]
    fn a_race_has_enough_after_a_look_where_best_and_runner_up_share_ten_separating_instances() {
        // "b" is 1.5 times "a" on every instance: each instance separates them.
        let pair = [("a", vec![0.1]), ("b", vec![0.15])];
        let first_look = replay(&rows(&pair, 12)).remove(0);
        assert_eq!(first_look.counted_between("f on a", "f on b"), 12);
        assert!(
            first_look.has_enough(),
            "12 separating instances at the first look"
        );
        // Between looks a race has not enough, whatever its counts.
        let between = replay(&rows(&pair, 11)).remove(0);
        assert!(!between.has_enough(), "no look after 11 instances");
        // Where only 9 of the 12 separate the two (3 ties to the millisecond), it goes on.
        let mut b = vec![0.15; 12];
        for t in b.iter_mut().take(3) {
            *t = 0.1;
        }
        let few = replay(&rows(&[("a", vec![0.1]), ("b", b)], 12)).remove(0);
        assert_eq!(few.counted_between("f on a", "f on b"), 9);
        assert!(!few.has_enough(), "9 separating instances are not enough");
    }

    #[test]
    fn the_runner_up_is_placed_second_by_the_races_statistic_not_by_name() {
        // "a" always fastest; "b-close" loses 11 of 12 to it (wins one), "c-far" loses all:
        // both are dropped at the first look, and the runner-up is the closer one, though
        // the later name (the old rule took the last of a look's drops by name).
        let mut close = vec![0.3; 12];
        close[5] = 0.05;
        let race = replay(&rows(
            &[("a", vec![0.1]), ("b-close", close), ("c-far", vec![0.9])],
            12,
        ))
        .remove(0);
        assert_eq!(race.survivors(), vec!["f on a"]);
        assert_eq!(race.decisions().len(), 2);
        assert_eq!(race.best().as_deref(), Some("f on a"));
        assert_eq!(race.runner_up().as_deref(), Some("f on b-close"));
        assert_eq!(race.order(), ["f on a", "f on b-close", "f on c-far"]);
        let sep = race.separation("f on b-close");
        assert_eq!((sep.best_faster, sep.best_slower), (11, 1));
        assert_eq!(sep.dropped_at.map(|d| d.0), Some(12));
        assert_eq!(race.counted_between("f on a", "f on b-close"), 12);
    }

    #[test]
    fn among_candidates_that_lost_every_separating_instance_the_nearer_by_time_is_runner_up() {
        // "a" fastest everywhere; "b-far" (5×) and "c-near" (1.5×) lose all 12: equal
        // shares (0) and equal separating counts, so only their times can tell which is
        // nearer. The old tie-break took the first by name ("b-far").
        let race = replay(&rows(
            &[
                ("a", vec![0.1]),
                ("b-far", vec![0.5]),
                ("c-near", vec![0.15]),
            ],
            12,
        ))
        .remove(0);
        assert_eq!(race.best().as_deref(), Some("f on a"));
        assert_eq!(race.share_against_best("f on b-far"), (0.0, 12));
        assert_eq!(race.share_against_best("f on c-near"), (0.0, 12));
        assert!(race.distance_from_best("f on c-near") < race.distance_from_best("f on b-far"));
        assert_eq!(race.runner_up().as_deref(), Some("f on c-near"));
    }

    #[test]
    fn separation_is_counted_per_pair() {
        // a at 1 ms, b at 2 ms: nothing separates them, though c at 1 s makes every
        // instance's slowest survivor take 10 ms or more.
        let race = replay(&rows(
            &[("a", vec![0.001]), ("b", vec![0.002]), ("c", vec![1.0])],
            24,
        ))
        .remove(0);
        assert_eq!(race.counted_between("f on a", "f on b"), 0);
        // c, slower than both on every instance, is dropped at the first look (12).
        assert_eq!(race.counted_between("f on a", "f on c"), 12);
        assert!(!race.survivors().contains(&"f on c".to_string()));
        // Not separated: no test between a and b, so neither can be called ahead.
        assert!(race.survivors().contains(&"f on a".to_string()));
        assert!(race.survivors().contains(&"f on b".to_string()));
        let other = if race.best().as_deref() == Some("f on a") {
            "f on b"
        } else {
            "f on a"
        };
        assert_eq!(race.separation(other).dropped_at, None);
    }

    #[test]
    fn a_capped_run_is_charged_its_limit_and_counts_only_where_its_direction_is_known() {
        // "a" is the best (0.1 s); "b" ran 0.5 s on i00; "c" and "d" were capped on i00
        // (charged their 10 s limit, as a failure), "d" failed at its limit on i01.
        let mut rs = rows(
            &[
                ("a", vec![0.1]),
                ("b", vec![0.5]),
                ("c", vec![0.3]),
                ("d", vec![0.3]),
            ],
            2,
        );
        for r in rs.iter_mut() {
            // The run clock is what the race charges.
            r.run_seconds = r.seconds.map(|s| s + 0.01);
            if r.instance == "i00" && (r.backend == "c" || r.backend == "d") {
                r.status = crate::record::CAPPED.into();
                r.cap_seconds = Some(0.32);
                r.verified = None;
            }
            if r.instance == "i01" && r.backend == "d" {
                r.status = "time_limit".into();
                r.verified = None;
            }
        }
        let race = replay(&rs).remove(0);
        assert_eq!(
            race.raced[0].times[2],
            Some(10.0),
            "a capped run is charged its limit"
        );
        assert_eq!(race.raced[1].times[0], Some(0.11), "the run clock");
        assert!(race.raced[0].capped[2] && !race.raced[1].capped[2]);
        // On i00 the best beat both capped runs; "b" (finished) beat them too; "c" and "d"
        // (both capped) tie. On i01 "c" (0.31 s) beat "d" (a failure).
        assert_eq!(race.versus("f on a", "f on c"), (2, 0));
        assert_eq!(race.versus("f on b", "f on c"), (1, 1));
        assert_eq!(race.versus("f on c", "f on d"), (1, 0));
        assert_eq!(race.capped_runs("f on c"), 1);
        // A raced ratio is measured where neither was capped.
        assert_eq!(race.measured_by_both("f on a", "f on c"), vec!["i01"]);
        assert_eq!(
            race.measured_by_both("f on a", "f on b"),
            vec!["i00", "i01"]
        );
    }
}
