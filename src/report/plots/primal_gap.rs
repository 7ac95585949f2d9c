//! The primal gap over time of an optimisation puzzle's runs, from their timelines
//! (`<p>_<set>_primal_gap`: the mean over each configuration's runs on an instance set;
//! `<p>_primal_gap_one`: the runs on one instance). The gap is Berthold's (see [`crate::timeline`]) against the
//! instance's reference objective ([`crate::report::anytime::references`]): 1 until the
//! first solution, 0 once the reference is reached. After its end a run keeps its last gap.

use super::sets::Set;
use super::{config, log_axis, marks_along, Axis, Chart, Config, Puzzle, Scale, Series};
use crate::record::Record;
use crate::report::answer::instance_key;
use crate::report::anytime::{optimises, Timelines};
use crate::timeline::{berthold_gap, Trace};
use std::collections::{BTreeMap, HashMap};

/// A run's gap as a step function: (time, gap from then on), starting at (0, 1).
fn steps(trace: &Trace, reference: f64) -> Vec<(f64, f64)> {
    let mut v = vec![(0.0, 1.0)];
    for p in &trace.incumbents {
        v.push((p.t, berthold_gap(p.value, reference)));
    }
    v
}

/// The value of a step function at `t`.
fn at(steps: &[(f64, f64)], t: f64) -> f64 {
    steps
        .iter()
        .take_while(|(s, _)| *s <= t)
        .last()
        .map_or(1.0, |&(_, g)| g)
}

/// The polyline of a step function from `from` to `to` (horizontal, then vertical).
fn polyline(steps: &[(f64, f64)], from: f64, to: f64) -> Vec<(f64, f64)> {
    let mut line = vec![(from, at(steps, from))];
    for &(t, g) in steps.iter().filter(|(t, _)| *t > from && *t <= to) {
        let last = line.last().expect("starts with a point").1;
        line.push((t, last));
        line.push((t, g));
    }
    let last = line.last().expect("starts with a point").1;
    line.push((to, last));
    line
}

/// A run with a timeline: its instance, size, gap steps and end.
struct Run {
    instance: String,
    size: f64,
    steps: Vec<(f64, f64)>,
    end: f64,
}

/// The runs of each configuration, in a set's order.
type ConfigRuns = Vec<(Config, Vec<Run>)>;

/// The reference objective of each (puzzle, instance)
/// ([`crate::report::anytime::references`]).
pub(super) type References = HashMap<(String, String), f64>;

/// The runs with timelines of each configuration of `set` on its instances (with the
/// instances' reference objectives `refs`), the
/// configurations in the set's order (those without any left out), and the time axis over
/// all of them; `None` when the puzzle optimises nothing or no run has a timeline.
fn runs_of(
    set: &Set,
    rows: &[&Record],
    refs: &References,
    timelines: &Timelines,
) -> Option<(ConfigRuns, Axis)> {
    if !optimises(rows) || timelines.0.is_empty() {
        return None;
    }
    let mut runs: BTreeMap<Config, Vec<Run>> = BTreeMap::new();
    for r in rows {
        let c = config(r);
        if !set.keys.contains(&instance_key(&r.instance, r.time_limit)) || !set.configs.contains(&c)
        {
            continue;
        }
        let (Some(trace), Some(&reference)) = (
            timelines.of(r),
            refs.get(&(r.puzzle.clone(), r.instance.clone())),
        ) else {
            continue;
        };
        let Some(end) = trace.end.or(r.time_limit) else {
            continue;
        };
        runs.entry(c).or_default().push(Run {
            instance: r.instance.clone(),
            size: r.size.unwrap_or(0.0),
            steps: steps(trace, reference),
            end,
        });
    }
    let last = runs
        .values()
        .flatten()
        .map(|r| r.end)
        .fold(0.0f64, f64::max);
    let first = runs
        .values()
        .flatten()
        .flat_map(|r| r.steps.iter().map(|s| s.0))
        .filter(|&t| t > 0.0)
        .fold(f64::INFINITY, f64::min);
    if !first.is_finite() || last <= 0.0 {
        return None;
    }
    let (lo, hi) = log_axis(first, last, 10.0);
    let x = Axis {
        label: "time since the run started (s)".into(),
        lo,
        hi,
        scale: Scale::Log(10.0),
        integer: false,
    };
    let ordered = set
        .configs
        .iter()
        .filter_map(|c| Some((c.clone(), runs.remove(c)?)))
        .collect();
    Some((ordered, x))
}

/// The primal gap axis.
fn gap_axis() -> Axis {
    Axis {
        label: "primal gap".into(),
        lo: -0.02,
        hi: 1.05,
        scale: Scale::Linear,
        integer: false,
    }
}

/// Markers along each primal gap line.
const MARKS: usize = 8;

impl Puzzle<'_> {
    /// A primal gap series of configuration `c` (the `i`-th of `count`) along `line`, with
    /// markers spread over the time axis `x`.
    fn gap_series(
        &self,
        name: String,
        c: &Config,
        line: Vec<(f64, f64)>,
        x: &Axis,
        (i, count): (usize, usize),
    ) -> Series {
        let mut s = Series::new(name, self.look(c));
        let phase = (i as f64 + 0.5) / count as f64;
        s.points = marks_along(&line, x.lo, x.hi, true, MARKS, phase);
        s.line = line;
        s
    }

    /// `<p>_<set>_primal_gap`: for an optimisation puzzle whose runs have timelines, the
    /// mean primal gap over time of each configuration of `set` (best first) over its runs
    /// on the set's instances; configurations whose runs have no timeline are named in a
    /// note. `None` otherwise.
    pub(super) fn primal_gap(
        &self,
        set: &Set,
        rows: &[&Record],
        timelines: &Timelines,
    ) -> Option<Chart> {
        let (runs, x) = runs_of(set, rows, &self.references, timelines)?;
        let count = runs.len();
        let series = runs
            .iter()
            .enumerate()
            .map(|(i, (c, rs))| {
                let mut times: Vec<f64> = rs
                    .iter()
                    .flat_map(|r| r.steps.iter().map(|s| s.0))
                    .filter(|&t| t > x.lo)
                    .collect();
                times.sort_by(f64::total_cmp);
                times.dedup();
                let mean_at =
                    |t: f64| rs.iter().map(|r| at(&r.steps, t)).sum::<f64>() / rs.len() as f64;
                let mut mean = vec![(x.lo, mean_at(x.lo))];
                for t in times {
                    mean.push((t, mean_at(t)));
                }
                let line = polyline(&mean, x.lo, x.hi);
                self.gap_series(format!("{c} ({} runs)", rs.len()), c, line, &x, (i, count))
            })
            .collect();
        let without: Vec<String> = set
            .configs
            .iter()
            .filter(|c| !runs.iter().any(|(d, _)| d == *c))
            .map(|c| c.to_string())
            .collect();
        let mut notes = vec![
            "gap to the instance's best known objective; 1 until a first solution".to_string(),
        ];
        if !without.is_empty() {
            notes.push(format!("no timeline: {}", without.join(", ")));
        }
        notes.extend(set.left_out_note());
        Some(Chart {
            stem: format!("{}_{}_primal_gap", self.stem, set.tag),
            title: format!("{}: mean primal gap over time, {}", self.key, set.name),
            x,
            y: gap_axis(),
            series,
            failed_label: String::new(),
            notes,
            caption: set.caption.clone(),
        })
    }

    /// `<p>_primal_gap_one`: the primal gap over time of each configuration's run on one
    /// instance: of the first of `sets` (the comparison) whose runs on it have timelines
    /// from two configurations or more, the instance the most configurations ran with a
    /// timeline (the largest on a tie). `None` where there is none.
    pub(super) fn primal_gap_one(
        &self,
        sets: &[Set],
        rows: &[&Record],
        timelines: &Timelines,
    ) -> Option<Chart> {
        let (set, runs, x) = sets.iter().find_map(|s| {
            let (runs, x) = runs_of(s, rows, &self.references, timelines)?;
            (runs.len() > 1).then_some((s, runs, x))
        })?;
        let mut per_instance: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
        for (_, rs) in &runs {
            let mut seen = std::collections::BTreeSet::new();
            for r in rs {
                if seen.insert(r.instance.as_str()) {
                    let e = per_instance
                        .entry(r.instance.as_str())
                        .or_insert((0, r.size));
                    e.0 += 1;
                }
            }
        }
        let instance = per_instance
            .iter()
            .max_by(|a, b| a.1 .0.cmp(&b.1 .0).then(a.1 .1.total_cmp(&b.1 .1)))
            .map(|(i, _)| i.to_string())?;
        let count = runs.len();
        let series = runs
            .iter()
            .enumerate()
            .filter_map(|(i, (c, rs))| {
                let r = rs.iter().find(|r| r.instance == instance)?;
                let line = polyline(&r.steps, x.lo, r.end.max(x.lo));
                Some(self.gap_series(c.to_string(), c, line, &x, (i, count)))
            })
            .collect();
        Some(Chart {
            stem: format!("{}_primal_gap_one", self.stem),
            title: format!(
                "{}: primal gap over time on {instance}, one of the {}",
                self.key, set.name
            ),
            x,
            y: gap_axis(),
            series,
            failed_label: String::new(),
            notes: vec!["each line ends where its run ended".into()],
            caption: set.caption.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::Point;

    #[test]
    fn a_step_function_holds_each_gap_until_the_next() {
        let trace = Trace {
            incumbents: vec![
                Point {
                    t: 1.0,
                    value: 20.0,
                },
                Point {
                    t: 3.0,
                    value: 10.0,
                },
            ],
            bounds: Vec::new(),
            end: Some(5.0),
        };
        let s = steps(&trace, 10.0);
        assert_eq!((at(&s, 0.5), at(&s, 2.0), at(&s, 4.0)), (1.0, 0.5, 0.0));
        let line = polyline(&s, 0.1, 5.0);
        assert_eq!(line.first(), Some(&(0.1, 1.0)));
        assert_eq!(line.last(), Some(&(5.0, 0.0)));
        assert!(line.contains(&(1.0, 1.0)) && line.contains(&(1.0, 0.5)));
    }
}
