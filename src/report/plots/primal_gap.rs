//! The primal gap over time of an optimisation puzzle's runs, from their timelines
//! (`<p>_primal_gap`: the mean over each configuration's runs; `<p>_primal_gap_one`: the
//! runs on one instance). The gap is Berthold's (see [`crate::timeline`]) against the
//! instance's reference objective ([`crate::report::anytime::references`]): 1 until the
//! first solution, 0 once the reference is reached. After its end a run keeps its last gap.

use super::{log_axis, Axis, Chart, Marker, Puzzle, Scale, Series};
use crate::record::Record;
use crate::report::anytime::{optimises, references, Timelines};
use crate::timeline::{berthold_gap, Trace};
use std::collections::BTreeMap;

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

impl Puzzle<'_> {
    /// The primal gap charts of the puzzle's `rows`, when it optimises something and some
    /// runs have timelines; empty otherwise.
    pub(super) fn primal_gap(&self, rows: &[&Record], timelines: &Timelines) -> Vec<Chart> {
        if !optimises(rows) || timelines.0.is_empty() {
            return Vec::new();
        }
        let refs = references(rows.iter().copied());
        // (formulation, engine) → runs: (instance, size, steps, end).
        type Run = (String, f64, Vec<(f64, f64)>, f64);
        let mut runs: BTreeMap<(String, String), Vec<Run>> = BTreeMap::new();
        for r in rows {
            let (Some(trace), Some(&reference)) = (
                timelines.of(r),
                refs.get(&(r.puzzle.clone(), r.instance.clone())),
            ) else {
                continue;
            };
            let Some(end) = trace.end.or(r.time_limit) else {
                continue;
            };
            runs.entry((r.formulation.clone(), r.backend_label()))
                .or_default()
                .push((
                    r.instance.clone(),
                    r.size.unwrap_or(0.0),
                    steps(trace, reference),
                    end,
                ));
        }
        if runs.is_empty() {
            return Vec::new();
        }
        let ends = runs.values().flatten().map(|r| r.3);
        let last = ends.fold(0.0f64, f64::max);
        let first = runs
            .values()
            .flatten()
            .flat_map(|r| r.2.iter().map(|s| s.0))
            .filter(|&t| t > 0.0)
            .fold(f64::INFINITY, f64::min);
        if !first.is_finite() || last <= 0.0 {
            return Vec::new();
        }
        let (lo, hi) = log_axis(first, last, 10.0);
        let x = Axis {
            label: "time since the run started (s)".into(),
            lo,
            hi,
            scale: Scale::Log(10.0),
            integer: false,
        };
        let y = Axis {
            label: "primal gap".into(),
            lo: -0.02,
            hi: 1.05,
            scale: Scale::Linear,
            integer: false,
        };
        let series = |name: String, f: &str, b: &str, line: Vec<(f64, f64)>| {
            // Lines without marks: a colour used again (past the palette's ten) is dashed.
            let (color, marker) = self.look(f, b);
            Series {
                name,
                color,
                marker: Marker::None,
                points: Vec::new(),
                failed: Vec::new(),
                line,
                dashed: marker != Marker::Circle,
                tips: Vec::new(),
            }
        };
        let mut mean_series = Vec::new();
        for ((f, b), rs) in &runs {
            let mut times: Vec<f64> = rs
                .iter()
                .flat_map(|r| r.2.iter().map(|s| s.0))
                .filter(|&t| t > lo)
                .collect();
            times.sort_by(f64::total_cmp);
            times.dedup();
            let mean_at = |t: f64| rs.iter().map(|r| at(&r.2, t)).sum::<f64>() / rs.len() as f64;
            let mut mean = vec![(lo, mean_at(lo))];
            for t in times {
                mean.push((t, mean_at(t)));
            }
            mean_series.push(series(
                format!("{f} / {b} ({} runs)", rs.len()),
                f,
                b,
                polyline(&mean, lo, hi),
            ));
        }
        let mut charts = vec![Chart {
            stem: format!("{}_primal_gap", self.stem),
            title: format!(
                "{}: mean primal gap over time (timelines of every run)",
                self.key
            ),
            x: x.clone(),
            y: y.clone(),
            series: mean_series,
            failed_label: String::new(),
            note: Some(
                "gap to the instance's best known objective; 1 until a first solution".into(),
            ),
        }];
        // One instance: the one most configurations ran, the largest on a tie.
        let mut per_instance: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
        for rs in runs.values() {
            let mut seen = std::collections::BTreeSet::new();
            for r in rs {
                if seen.insert(r.0.as_str()) {
                    let e = per_instance.entry(r.0.as_str()).or_insert((0, r.1));
                    e.0 += 1;
                }
            }
        }
        let chosen = per_instance
            .iter()
            .max_by(|a, b| a.1 .0.cmp(&b.1 .0).then(a.1 .1.total_cmp(&b.1 .1)))
            .map(|(i, _)| i.to_string());
        if let Some(instance) = chosen.filter(|_| runs.len() > 1) {
            let mut one = Vec::new();
            for ((f, b), rs) in &runs {
                if let Some(r) = rs.iter().find(|r| r.0 == instance) {
                    one.push(series(
                        format!("{f} / {b}"),
                        f,
                        b,
                        polyline(&r.2, lo, r.3.max(lo)),
                    ));
                }
            }
            charts.push(Chart {
                stem: format!("{}_primal_gap_one", self.stem),
                title: format!("{}: primal gap over time on {instance}", self.key),
                x,
                y,
                series: one,
                failed_label: String::new(),
                note: Some("each line ends where its run ended".into()),
            });
        }
        charts
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
