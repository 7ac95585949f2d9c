//! Solve time against instance size (`<p>_time_vs_size`), and the chart against instance
//! size that it shares with the LP ratio plot (`Puzzle::against_size`).

use super::sets::Set;
use super::{
    clamp_note, linear_axis, log_axis, median, min_max, Axis, Cell, Chart, Look, Puzzle, Scale,
    Series,
};
use std::collections::BTreeMap;

/// A point against size: size, value, solved, instance name.
pub(super) type Point<'a> = (f64, f64, bool, &'a str);

impl Puzzle<'_> {
    /// A chart of values against instance size: one series per (name, look, points), the
    /// series without points left out; `None` when there are no points.
    pub(super) fn against_size(
        &self,
        stem: &str,
        title: String,
        sources: Vec<(String, Look, Vec<Point>)>,
        y_label: &str,
        y_log: bool,
    ) -> Option<Chart> {
        let series: Vec<_> = sources
            .into_iter()
            .map(|(name, look, pts)| {
                let pts: Vec<Point> = pts
                    .into_iter()
                    .filter(|(s, v, _, _)| s.is_finite() && v.is_finite())
                    .collect();
                (name, look, pts)
            })
            .filter(|(_, _, pts)| !pts.is_empty())
            .collect();
        let all = || series.iter().flat_map(|(_, _, p)| p.iter());
        let (xmin, xmax) = min_max(all().map(|p| p.0))?;
        let (ymin, ymax) = min_max(all().map(|p| p.1))?;
        let x_log = xmin > 0.0 && xmax / xmin > 20.0;
        let x = if x_log {
            log_axis(xmin, xmax, 10.0)
        } else {
            linear_axis(xmin, xmax)
        };
        let y = if y_log {
            log_axis(ymin, ymax, 10.0)
        } else {
            linear_axis(ymin, ymax)
        };
        let series = series
            .into_iter()
            .map(|(name, look, pts)| {
                let mut by_size: BTreeMap<u64, (f64, Vec<f64>)> = BTreeMap::new();
                // The line runs through the solved instances only, so that it ends at
                // the largest size the configuration solves; failures are crosses.
                for &(s, v, _, _) in pts.iter().filter(|p| p.2) {
                    by_size.entry(order_key(s)).or_insert((s, vec![])).1.push(v);
                }
                let tip = |p: &&Point| {
                    let what = if p.2 { "" } else { ", failed" };
                    format!(
                        "{} (size {}): {name}, {y_label} = {}{what}",
                        p.3,
                        crate::table::significant(p.0),
                        crate::table::significant(p.1)
                    )
                };
                let mut s = Series::new(name.clone(), look);
                s.tips = pts
                    .iter()
                    .filter(|p| p.2)
                    .chain(pts.iter().filter(|p| !p.2))
                    .map(|p| tip(&p))
                    .collect();
                s.points = pts.iter().filter(|p| p.2).map(|p| (p.0, p.1)).collect();
                s.failed = pts.iter().filter(|p| !p.2).map(|p| (p.0, p.1)).collect();
                s.line = by_size
                    .into_values()
                    .filter_map(|(s, vs)| Some((s, median(&vs)?)))
                    .collect();
                s
            })
            .collect();
        Some(Chart {
            stem: format!("{}_{stem}", self.stem),
            title,
            x: Axis {
                label: self.size_label.clone(),
                lo: x.0,
                hi: x.1,
                scale: if x_log {
                    Scale::Log(10.0)
                } else {
                    Scale::Linear
                },
                integer: false,
            },
            y: Axis {
                label: y_label.into(),
                lo: y.0,
                hi: y.1,
                scale: if y_log {
                    Scale::Log(10.0)
                } else {
                    Scale::Linear
                },
                integer: false,
            },
            series,
            failed_label: "failed or stopped (at its time limit or a race cap)".into(),
            notes: Vec::new(),
            caption: String::new(),
        })
    }

    /// `<p>_time_vs_size`: on the instances of `set`, the solve time of each instance
    /// against its size, one series per configuration of the set (best first): a marker
    /// per instance solved, a cross per failure (drawn at its charged time), and a line
    /// through the medians per size of the instances solved, which ends at the largest
    /// size the configuration solves. The time axis is logarithmic; so is the size axis
    /// when the sizes span more than a factor 20. A note under the axes says when a time
    /// was drawn at the axis floor.
    pub(super) fn time_vs_size(&self, set: &Set) -> Option<Chart> {
        let mut clamped = false;
        let sources = set
            .configs
            .iter()
            .map(|c| {
                let cells: Vec<_> = self.cells_on(c, set).collect();
                clamped |= cells
                    .iter()
                    .any(|(_, cell)| cell.size.is_some_and(f64::is_finite) && cell.clamped());
                let pts = cells
                    .into_iter()
                    .filter_map(|(k, cell)| {
                        Some((cell.size?, Cell::plot_seconds(cell)?, cell.ok, k.0.as_str()))
                    })
                    .collect();
                (c.to_string(), self.look(c), pts)
            })
            .collect();
        let mut chart = self.against_size(
            "time_vs_size",
            format!(
                "{}: solve time against instance size, {}",
                self.key, set.name
            ),
            sources,
            "time (s)",
            true,
        )?;
        chart.notes = self.notes(set, clamp_note(clamped));
        chart.caption = set.caption.clone();
        Some(chart)
    }
}

/// A key that sorts non-negative and negative floats in numeric order.
fn order_key(v: f64) -> u64 {
    let bits = v.to_bits();
    if v.is_sign_negative() {
        !bits
    } else {
        bits | (1 << 63)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_key_sorts_numerically() {
        let mut v = [3.0, -1.0, 0.5, -7.0, 100.0];
        v.sort_by_key(|x| order_key(*x));
        assert_eq!(v, [-7.0, -1.0, 0.5, 3.0, 100.0]);
    }
}
