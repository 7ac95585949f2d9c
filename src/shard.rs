//! Sweeps split over machines: `--shard I/N` keeps the I-th of N parts of a run plan, so
//! that N independent processes (on N machines, or N tasks of a SLURM job array) run
//! every run of the plan exactly once; `merge` puts their results files back together.
//!
//! The partition depends only on the set of run ids and their cost estimates, never on
//! the order runs were planned in or on the machine, so every shard computes the same
//! partition. It is greedy by longest estimated cost first (Graham's LPT rule): runs are
//! taken in decreasing estimate (ties by run id) and each goes to the shard with the least
//! estimated work so far (ties to the lowest shard). A run's estimate is, in this order,
//! its time in an earlier results file (`--costs`), the median time of the same instance,
//! formulation and engine there, its time limit, or, with neither, the median of the
//! estimates known (1 s when none is): see [`Costs::estimate`].

use crate::record::Record;
use crate::stats::median;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The I-th of N parts of a plan (`--shard I/N`, I from 1 to N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 1.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("--shard {s}: {why}; write I/N with 1 ≤ I ≤ N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let index: usize = i.trim().parse().map_err(|_| bad("I is not a number"))?;
        let count: usize = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad("I is out of range"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What one run of a plan is, for estimating its cost.
#[derive(Clone, Debug)]
pub struct RunCost<'a> {
    /// Run id.
    pub run_id: &'a str,
    /// Puzzle key.
    pub puzzle: &'a str,
    /// Instance name.
    pub instance: &'a str,
    /// Formulation key.
    pub formulation: &'a str,
    /// Engine key.
    pub backend: &'a str,
    /// The run's time limit in seconds.
    pub time_limit: Option<f64>,
}

/// Where a run's cost estimate came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// The run itself, in a `--costs` file.
    SameRun,
    /// Runs of the same instance, formulation and engine in a `--costs` file.
    SameCombination,
    /// The run's time limit.
    TimeLimit,
    /// Nothing known: the median of the other estimates (or 1 s).
    Guess,
}

impl Source {
    /// How a summary names it.
    pub fn describe(self) -> &'static str {
        match self {
            Source::SameRun => "the same run in --costs",
            Source::SameCombination => "the same instance, formulation and engine in --costs",
            Source::TimeLimit => "the time limit",
            Source::Guess => "a guess (no time limit, nothing in --costs)",
        }
    }
}

/// Times of earlier runs (`--costs FILE`, results files of an earlier sweep), by run id
/// and by (puzzle, instance, formulation, engine).
#[derive(Clone, Debug, Default)]
pub struct Costs {
    by_run: HashMap<String, f64>,
    by_combination: HashMap<(String, String, String, String), Vec<Timed>>,
}

/// An earlier run's time, and the time limit that stopped it (its status `time_limit`):
/// then the time says only "at least this long".
#[derive(Clone, Copy, Debug)]
struct Timed {
    seconds: f64,
    stopped_at: Option<f64>,
}

/// The seconds a row took: the worker's wall-clock time, else the solve's.
fn row_seconds(r: &Record) -> Option<f64> {
    r.wall_seconds
        .or(r.seconds)
        .filter(|s| s.is_finite() && *s >= 0.0)
}

impl Costs {
    /// Reads the rows of results files.
    pub fn read(paths: &[PathBuf]) -> Result<Costs, String> {
        let mut rows = Vec::new();
        for p in paths {
            rows.extend(crate::record::read_results(p)?);
        }
        Ok(Costs::from_rows(&rows))
    }

    /// The times of `rows` (a run id seen twice keeps its larger time).
    pub fn from_rows(rows: &[Record]) -> Costs {
        let mut c = Costs::default();
        for r in rows {
            let Some(s) = row_seconds(r) else { continue };
            let e = c.by_run.entry(r.run_id.clone()).or_insert(s);
            *e = e.max(s);
            let stopped_at = if r.status == "time_limit" {
                Some(r.time_limit.unwrap_or(s))
            } else {
                None
            };
            c.by_combination
                .entry((
                    r.puzzle.clone(),
                    r.instance.clone(),
                    r.formulation.clone(),
                    r.backend.clone(),
                ))
                .or_default()
                .push(Timed {
                    seconds: s,
                    stopped_at,
                });
        }
        c
    }

    /// True when no row gave a time.
    pub fn is_empty(&self) -> bool {
        self.by_run.is_empty()
    }

    /// The estimate of each run and where it came from: the run's own time in the costs,
    /// else the median of its combination's times (unless one of them was stopped by a
    /// lower time limit than this run's), either capped by its time limit; else its time
    /// limit; else the median of the estimates known so far (1 s when none).
    pub fn estimate(&self, runs: &[RunCost<'_>]) -> Vec<(f64, Source)> {
        let mut out: Vec<Option<(f64, Source)>> = runs
            .iter()
            .map(|r| {
                let cap = |s: f64| r.time_limit.map_or(s, |t| s.min(t));
                if let Some(&s) = self.by_run.get(r.run_id) {
                    return Some((cap(s), Source::SameRun));
                }
                let key = (
                    r.puzzle.to_string(),
                    r.instance.to_string(),
                    r.formulation.to_string(),
                    r.backend.to_string(),
                );
                if let Some(times) = self.by_combination.get(&key) {
                    // A time cut short by a lower limit than this run's tells nothing
                    // about this run (the Circuit Board's cm2: 2 s in the quick suite,
                    // 1800 s in the full one): then the time limit is the estimate.
                    let cut_short = times.iter().any(|t| {
                        t.stopped_at
                            .is_some_and(|at| r.time_limit.is_none_or(|limit| at < limit))
                    });
                    if !cut_short {
                        let seconds: Vec<f64> = times.iter().map(|t| t.seconds).collect();
                        return Some((
                            cap(median(&seconds).expect("a combination has times")),
                            Source::SameCombination,
                        ));
                    }
                }
                r.time_limit.map(|t| (t, Source::TimeLimit))
            })
            .collect();
        let known: Vec<f64> = out.iter().flatten().map(|(s, _)| *s).collect();
        let guess = median(&known).unwrap_or(1.0);
        for e in &mut out {
            e.get_or_insert((guess, Source::Guess));
        }
        out.into_iter().map(|e| e.expect("filled")).collect()
    }
}

/// The shard (0-based) of each run: runs in decreasing cost (ties by run id), each to the
/// shard with the least cost so far (ties to the lowest). The result depends only on the
/// pairs (run id, cost), not on their order.
pub fn partition(ids: &[&str], costs: &[f64], count: usize) -> Vec<usize> {
    assert_eq!(ids.len(), costs.len());
    let count = count.max(1);
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(ids[a].cmp(ids[b])));
    let mut load = vec![0.0f64; count];
    let mut shard = vec![0; ids.len()];
    for i in order {
        let least = (0..count)
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .expect("at least one shard");
        shard[i] = least;
        load[least] += costs[i];
    }
    shard
}

/// A digest of a whole plan: the first 16 hex digits of a SHA-256 over its sorted run ids,
/// so that the shards of one plan carry the same digest whatever their order.
pub fn plan_digest(ids: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut sorted: Vec<&str> = ids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    Sha256::digest(sorted.join("\n").as_bytes())
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a sharded sweep records about its shard in its sweep record, so that `merge` can
/// check that shards belong to one plan and tell which runs are missing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// `I/N`.
    pub shard: String,
    /// [`plan_digest`] of the whole plan.
    pub plan_digest: String,
    /// Runs in the whole plan.
    pub plan_runs: usize,
    /// A digest of the whole partition (every run id with its shard), the same in every
    /// shard exactly when they split the plan alike (same `--costs`).
    pub partition_digest: String,
    /// The run ids of this shard.
    pub runs: Vec<String>,
    /// The estimated seconds of this shard's runs.
    pub estimated_seconds: f64,
}

/// The shard of a plan's runs that `shard` keeps: which runs (a flag per run), the record
/// for the sweep file, and a summary line for stderr.
pub struct Selection {
    /// One flag per run of the plan, true for this shard's runs.
    pub keep: Vec<bool>,
    /// The record for the sweep file.
    pub record: ShardRecord,
    /// "shard 2/4: 37 of 150 runs, an estimated 1,234 s of 4,900 s (estimates: …)".
    pub summary: String,
    /// Each shard's estimated seconds, shard 1 first.
    pub loads: Vec<f64>,
    /// "6 runs in 2 shards, an estimated 180 s in all (estimates: 6 from the time limit)".
    pub plan_summary: String,
    /// Each shard's hard limit in seconds (the sum of its runs' time limits plus `grace`
    /// each), shard 1 first; None when a run of it has no time limit.
    pub hard_limits: Vec<Option<f64>>,
}

/// Splits the runs of a plan into `shard.count` parts and keeps part `shard.index`. A run
/// id planned twice (two parts of a suite that share a run) is one run, in one shard.
pub fn select(runs: &[RunCost<'_>], costs: &Costs, shard: Shard, grace: f64) -> Selection {
    let unique = unique_runs(runs);
    let estimates = costs.estimate(&unique);
    let ids: Vec<&str> = unique.iter().map(|r| r.run_id).collect();
    let cost: Vec<f64> = estimates.iter().map(|e| e.0).collect();
    let parts = partition(&ids, &cost, shard.count);
    let mut loads = vec![0.0; shard.count];
    let mut hard_limits = vec![Some(0.0); shard.count];
    for (i, &p) in parts.iter().enumerate() {
        loads[p] += cost[i];
        hard_limits[p] = match (hard_limits[p], unique[i].time_limit) {
            (Some(h), Some(t)) => Some(h + t + grace),
            _ => None,
        };
    }
    let me = shard.index - 1;
    let owner: HashMap<&str, usize> = ids.iter().copied().zip(parts.iter().copied()).collect();
    let keep: Vec<bool> = runs.iter().map(|r| owner[r.run_id] == me).collect();
    let mut sources: BTreeMap<Source, usize> = BTreeMap::new();
    for e in &estimates {
        *sources.entry(e.1).or_default() += 1;
    }
    let sources: Vec<String> = sources
        .iter()
        .map(|(s, n)| format!("{n} from {}", s.describe()))
        .collect();
    let mine: Vec<String> = ids
        .iter()
        .zip(&parts)
        .filter(|(_, p)| **p == me)
        .map(|(id, _)| id.to_string())
        .collect();
    let total: f64 = cost.iter().sum();
    let summary = format!(
        "shard {shard}: {} of {} runs, an estimated {:.0} s of {:.0} s (estimates: {})",
        mine.len(),
        ids.len(),
        loads[me],
        total,
        sources.join(", ")
    );
    let plan_summary = format!(
        "{} runs in {} shards, an estimated {:.0} s in all (estimates: {})",
        ids.len(),
        shard.count,
        total,
        sources.join(", ")
    );
    let assignment: Vec<String> = ids
        .iter()
        .zip(&parts)
        .map(|(id, p)| format!("{id}:{p}"))
        .collect();
    let assignment: Vec<&str> = assignment.iter().map(String::as_str).collect();
    let record = ShardRecord {
        shard: shard.to_string(),
        plan_digest: plan_digest(&ids),
        partition_digest: plan_digest(&assignment),
        plan_runs: ids.len(),
        runs: mine,
        estimated_seconds: loads[me],
    };
    Selection {
        keep,
        record,
        summary,
        plan_summary,
        loads,
        hard_limits,
    }
}

/// Each run id once, at its first place: a run that two parts of a suite share is one run.
fn unique_runs<'a>(runs: &[RunCost<'a>]) -> Vec<RunCost<'a>> {
    let mut seen = std::collections::HashSet::new();
    runs.iter()
        .filter(|r| seen.insert(r.run_id))
        .cloned()
        .collect()
}

/// The estimated wall time on each of `counts` shards of the runs `ids` with the estimates
/// `cost`: the largest shard's estimated seconds under [`partition`].
fn makespans(ids: &[&str], cost: &[f64], counts: &[usize]) -> Vec<(usize, f64)> {
    counts
        .iter()
        .map(|&n| {
            let mut loads = vec![0.0f64; n];
            for (i, p) in partition(ids, cost, n).into_iter().enumerate() {
                loads[p] += cost[i];
            }
            (n, loads.into_iter().fold(0.0, f64::max))
        })
        .collect()
}

/// What `--dry-run` prints: per puzzle and engine the runs, the sum of their time limits
/// (what they cost at most, grace aside) and the estimate, then the estimated wall time on
/// 1, 2, 4, ... 64 shards.
pub fn cost_table(runs: &[RunCost<'_>], costs: &Costs) -> String {
    let unique = unique_runs(runs);
    let estimates = costs.estimate(&unique);
    #[derive(Default)]
    struct Line {
        runs: usize,
        limit: f64,
        unlimited: usize,
        estimate: f64,
        measured: usize,
    }
    let mut lines: BTreeMap<(&str, &str), Line> = BTreeMap::new();
    for (r, (e, source)) in unique.iter().zip(&estimates) {
        let l = lines.entry((r.puzzle, r.backend)).or_default();
        l.runs += 1;
        match r.time_limit {
            Some(t) => l.limit += t,
            None => l.unlimited += 1,
        }
        l.estimate += e;
        if matches!(source, Source::SameRun | Source::SameCombination) {
            l.measured += 1;
        }
    }
    let hours = |s: f64| format!("{:.1} h", s / 3600.0);
    let mut out = format!(
        "{:<12} {:<10} {:>6} {:>12} {:>12} {:>9}\n",
        "puzzle", "backend", "runs", "limits", "estimate", "measured"
    );
    let mut total = Line::default();
    for ((p, b), l) in &lines {
        let limit = if l.unlimited > 0 {
            format!("{}+{} none", hours(l.limit), l.unlimited)
        } else {
            hours(l.limit)
        };
        out.push_str(&format!(
            "{p:<12} {b:<10} {:>6} {limit:>12} {:>12} {:>9}\n",
            l.runs,
            hours(l.estimate),
            l.measured
        ));
        total.runs += l.runs;
        total.limit += l.limit;
        total.unlimited += l.unlimited;
        total.estimate += l.estimate;
        total.measured += l.measured;
    }
    out.push_str(&format!(
        "{:<12} {:<10} {:>6} {:>12} {:>12} {:>9}\n",
        "all",
        "",
        total.runs,
        hours(total.limit),
        hours(total.estimate),
        total.measured
    ));
    out.push_str("limits: the runs' time limits summed (what they take at most, grace aside); estimate: as for --shard (measured: runs estimated from --costs)\n");
    let ids: Vec<&str> = unique.iter().map(|r| r.run_id).collect();
    let cost: Vec<f64> = estimates.iter().map(|e| e.0).collect();
    let spans = makespans(&ids, &cost, &[1, 2, 4, 8, 16, 32, 64]);
    out.push_str("estimated wall time on N shards (the largest shard's estimate):");
    for (n, s) in spans {
        out.push_str(&format!(" {n}: {}", hours(s)));
        if n != 64 {
            out.push(';');
        }
    }
    out.push('\n');
    out
}

/// The path `merge` and the SLURM scripts use for shard `index` of `count` results files
/// in `dir` for `run`: `dir/shard-01-of-04.csv`.
pub fn shard_csv(dir: &Path, index: usize, count: usize) -> PathBuf {
    dir.join(format!("{}.csv", shard_stem(index, count)))
}

/// `shard-01-of-04`: the name of shard `index` of `count`, zero-padded so that names sort.
pub fn shard_stem(index: usize, count: usize) -> String {
    let width = count.to_string().len();
    format!("shard-{index:0width$}-of-{count}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(n: usize) -> Vec<(String, Option<f64>)> {
        (0..n)
            .map(|i| (format!("{:016x}", i * 7919 + 13), Some((i % 7 + 1) as f64)))
            .collect()
    }

    fn as_costs(v: &[(String, Option<f64>)]) -> Vec<RunCost<'_>> {
        v.iter()
            .map(|(id, t)| RunCost {
                run_id: id,
                puzzle: "sudoku",
                instance: "a",
                formulation: "binary",
                backend: "highs",
                time_limit: *t,
            })
            .collect()
    }

    #[test]
    fn every_run_lands_in_exactly_one_shard_whatever_the_order() {
        let v = runs(101);
        for n in [1, 2, 3, 4, 7, 101, 150] {
            let mut owner: HashMap<String, usize> = HashMap::new();
            for i in 1..=n {
                let sel = select(
                    &as_costs(&v),
                    &Costs::default(),
                    Shard { index: i, count: n },
                    5.0,
                );
                for id in &sel.record.runs {
                    assert!(owner.insert(id.clone(), i).is_none(), "{id} twice (N={n})");
                }
            }
            assert_eq!(owner.len(), v.len(), "N={n}");
            // The same runs in another order give the same shards.
            let mut rev = v.clone();
            rev.reverse();
            for i in 1..=n {
                let sel = select(
                    &as_costs(&rev),
                    &Costs::default(),
                    Shard { index: i, count: n },
                    5.0,
                );
                assert!(sel.record.runs.iter().all(|id| owner[id] == i));
            }
        }
    }

    #[test]
    fn shards_are_balanced_by_cost_not_count() {
        // One long run and many short ones: the long one gets a shard of its own.
        let mut v: Vec<(String, Option<f64>)> =
            (0..10).map(|i| (format!("short{i}"), Some(1.0))).collect();
        v.push(("long".into(), Some(10.0)));
        let sel = select(
            &as_costs(&v),
            &Costs::default(),
            Shard::from_str("1/2").unwrap(),
            0.0,
        );
        assert_eq!(sel.record.runs, vec!["long".to_string()]);
        assert_eq!(sel.loads, vec![10.0, 10.0]);
        assert_eq!(sel.hard_limits, vec![Some(10.0), Some(10.0)]);
    }

    #[test]
    fn an_earlier_time_beats_the_time_limit_and_a_guess_fills_the_rest() {
        let v = vec![
            ("a".to_string(), Some(100.0)),
            ("b".to_string(), Some(100.0)),
            ("c".to_string(), None),
        ];
        let earlier = Record {
            run_id: "a".into(),
            wall_seconds: Some(2.0),
            ..Record::default()
        };
        let costs = Costs::from_rows(&[earlier]);
        let e = costs.estimate(&as_costs(&v));
        assert_eq!(e[0], (2.0, Source::SameRun));
        // The earlier row names no instance, so b has no combination to go by.
        assert_eq!(e[1], (100.0, Source::TimeLimit));
        assert_eq!(e[2], (51.0, Source::Guess));
    }

    #[test]
    fn a_time_cut_short_by_a_lower_limit_is_no_estimate() {
        let earlier = |status: &str| Record {
            run_id: "quick".into(),
            puzzle: "sudoku".into(),
            instance: "a".into(),
            formulation: "binary".into(),
            backend: "highs".into(),
            status: status.into(),
            time_limit: Some(5.0),
            wall_seconds: Some(5.2),
            ..Record::default()
        };
        let v = vec![("full".to_string(), Some(1800.0))];
        let stopped = Costs::from_rows(&[earlier("time_limit")]).estimate(&as_costs(&v));
        assert_eq!(stopped[0], (1800.0, Source::TimeLimit));
        let solved = Costs::from_rows(&[earlier("optimal")]).estimate(&as_costs(&v));
        assert_eq!(solved[0], (5.2, Source::SameCombination));
    }

    #[test]
    fn shard_arguments_are_checked() {
        assert_eq!(
            Shard::from_str("2/4").unwrap(),
            Shard { index: 2, count: 4 }
        );
        for bad in ["0/4", "5/4", "1/0", "x/2", "2", "1/-1"] {
            let e = Shard::from_str(bad).unwrap_err();
            assert!(e.contains("--shard") && e.contains("I/N"), "{e}");
        }
    }

    #[test]
    fn digests_ignore_order_and_names_sort() {
        assert_eq!(plan_digest(&["a", "b"]), plan_digest(&["b", "a"]));
        assert_ne!(plan_digest(&["a", "b"]), plan_digest(&["a", "c"]));
        assert_eq!(shard_stem(3, 12), "shard-03-of-12");
        assert_eq!(shard_stem(1, 4), "shard-1-of-4");
    }
}
