//! A race as its rows tell it: the candidates, the instances raced in order, each
//! candidate's charged time on each, who refused, who was dropped and when. The `race`
//! command builds it instance by instance as it runs; the report rebuilds it from the rows
//! alone ([`replay`]), so a results file (merged from shards or not) holds every race
//! whole, and `race.jsonl` is a record of it, never the only one.

use super::elimination::{Decision, Race, RaceConfig};
use super::friedman::{block_counts, friedman, round_ms};
use crate::record::Record;
use crate::stats::{charged_seconds, median, succeeded};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

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
    /// Per candidate (in [`RaceState::candidates`] order) the time charged (seconds,
    /// median over its runs, a failure at its limit); `None` for one not in the race.
    pub times: Vec<Option<f64>>,
    /// Per candidate, whether it solved the instance (verified); `false` for one not in
    /// the race.
    pub solved: Vec<bool>,
    /// Whether the instance counts toward the tests (the survivors do not all tie, and
    /// the slowest took 10 ms or more).
    pub counted: bool,
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
    /// A race of `puzzle`'s `candidates` (sorted here) that has run nothing.
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

    /// The instances that counted toward the tests so far, over the current survivors.
    pub fn counted(&self) -> usize {
        self.race.counted_blocks().len()
    }

    /// The most instances any of its tests counted: what each test saw (over the
    /// survivors then), and what counts over the survivors now. [`Self::counted`] alone
    /// is 0 for a race that ended with one candidate left.
    pub fn most_counted(&self) -> usize {
        self.decisions()
            .iter()
            .map(|d| d.counted_instances)
            .chain([self.counted()])
            .max()
            .unwrap_or(0)
    }

    /// The instances that counted toward the race's tests (over the survivors at the
    /// time: not all tied, the slowest at 10 ms or more) that both `a` and `b` ran.
    pub fn counted_between(&self, a: &str, b: &str) -> usize {
        let (Some(i), Some(j)) = (
            self.candidates.iter().position(|c| c == a),
            self.candidates.iter().position(|c| c == b),
        ) else {
            return 0;
        };
        self.raced
            .iter()
            .filter(|r| r.counted && r.times[i].is_some() && r.times[j].is_some())
            .count()
    }

    /// The current best: the survivor with the lowest rank sum over the counted
    /// instances, or with none counted, the lowest total charged time.
    pub fn best(&self) -> Option<String> {
        let s = self.race.survivors();
        if friedman(&self.race.counted_blocks()).is_some() {
            return self.race.best().map(|j| self.candidates[j].clone());
        }
        s.into_iter()
            .min_by(|&a, &b| self.total(a).total_cmp(&self.total(b)))
            .map(|j| self.candidates[j].clone())
    }

    fn total(&self, j: usize) -> f64 {
        self.raced.iter().filter_map(|r| r.times[j]).sum()
    }

    /// The candidates from best to worst: the survivors by rank sum over the counted
    /// instances (then total time), then the dropped from the last dropped to the first,
    /// then those that refused.
    pub fn order(&self) -> Vec<String> {
        let s = self.race.survivors();
        let ranks: BTreeMap<usize, f64> = match friedman(&self.race.counted_blocks()) {
            Some(fr) => s
                .iter()
                .copied()
                .zip(fr.rank_sums.iter().copied())
                .collect(),
            None => s.iter().map(|&j| (j, 0.0)).collect(),
        };
        let mut out: Vec<usize> = s.clone();
        out.sort_by(|&a, &b| {
            ranks[&a]
                .total_cmp(&ranks[&b])
                .then(self.total(a).total_cmp(&self.total(b)))
        });
        let mut names: Vec<String> = out.iter().map(|&j| self.candidates[j].clone()).collect();
        for d in self.decisions().iter().rev() {
            if !names.contains(&d.candidate) {
                names.push(d.candidate.clone());
            }
        }
        for r in &self.refusals {
            if !names.contains(&r.candidate) {
                names.push(r.candidate.clone());
            }
        }
        names
    }

    /// The runner-up: the strongest survivor after the best, else the last candidate
    /// dropped.
    pub fn runner_up(&self) -> Option<String> {
        let order = self.order();
        let best = self.best()?;
        order.into_iter().find(|c| *c != best && !self.refused(c))
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
            let charged: Vec<f64> = rs.iter().map(|r| charged_seconds(r)).collect();
            times[j] = median(&charged);
            solved[j] = rs.iter().filter(|r| succeeded(r)).count() * 2 > rs.len();
        }
        for rs in by.values() {
            self.spent += rs
                .iter()
                .map(|r| r.wall_seconds.or(r.seconds).unwrap_or(0.0))
                .sum::<f64>();
        }
        let row: Vec<f64> = times.iter().map(|t| t.unwrap_or(f64::NAN)).collect();
        let block: Vec<f64> = self
            .race
            .survivors()
            .iter()
            .map(|&j| round_ms(row[j]))
            .collect();
        let counted = block_counts(&block);
        let decisions = self.race.record(&row);
        self.raced.push(Raced {
            name: name.to_string(),
            times,
            solved,
            counted,
        });
        Some(decisions)
    }

    /// Whether every survivor solved the last instance within `fraction` of `limit`, and
    /// whether `best` solved it.
    pub fn last_was_fast(&self, fraction: f64, limit: f64, best: &str) -> (bool, bool) {
        let Some(last) = self.raced.last() else {
            return (true, true);
        };
        let alive: Vec<usize> = (0..self.candidates.len())
            .filter(|&j| last.times[j].is_some())
            .collect();
        let fast = alive
            .iter()
            .all(|&j| last.solved[j] && last.times[j].unwrap_or(f64::INFINITY) <= fraction * limit);
        let b = self.candidates.iter().position(|c| c == best);
        let best_solved = b.is_none_or(|j| last.solved[j] || last.times[j].is_none());
        (fast, best_solved)
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
