//! Scatter plots of one formulation's time against another's, per instance
//! (`<p>_scatter_<backend>_<f1>_vs_<f2>`).

use super::{
    log_axis, min_max, sanitize, Axis, Chart, Marker, Puzzle, Scale, Series, GREY, PALETTE,
};
use std::collections::BTreeSet;

impl Puzzle<'_> {
    /// Every scatter plot of the puzzle: one per backend and pair of formulations run on it
    /// (in key order).
    pub(super) fn scatters(&self) -> Vec<Chart> {
        let backends: BTreeSet<&str> = self.cells.keys().map(|(_, b)| b.as_str()).collect();
        let mut out = Vec::new();
        for b in backends {
            let fs = self.formulations_on(b);
            for (i, f1) in fs.iter().enumerate() {
                for f2 in &fs[i + 1..] {
                    out.extend(self.scatter(b, f1, f2));
                }
            }
        }
        out
    }

    /// `<p>_scatter_<b>_<f1>_vs_<f2>`: the time of `f1` (x) against that of `f2` (y) on
    /// backend `b`, one point per instance both ran (a cross when either failed), with the
    /// diagonal y = x; both axes logarithmic over the same range. `None` without points.
    fn scatter(&self, b: &str, f1: &str, f2: &str) -> Option<Chart> {
        let c1 = self.cells.get(&(f1.to_string(), b.to_string()))?;
        let c2 = self.cells.get(&(f2.to_string(), b.to_string()))?;
        let mut points = Vec::new();
        let mut failed = Vec::new();
        for (instance, a) in c1 {
            let Some(c) = c2.get(instance) else { continue };
            let (Some(x), Some(y)) = (a.plot_seconds(), c.plot_seconds()) else {
                continue;
            };
            if a.ok && c.ok {
                points.push((x, y));
            } else {
                failed.push((x, y));
            }
        }
        let (lo, hi) = min_max(points.iter().chain(&failed).flat_map(|&(x, y)| [x, y]))?;
        let (lo, hi) = log_axis(lo, hi, 10.0);
        let axis = |f: &str| Axis {
            label: format!("{f}: time (s)"),
            lo,
            hi,
            scale: Scale::Log(10.0),
            integer: false,
        };
        Some(Chart {
            stem: format!(
                "{}_scatter_{}_{}_vs_{}",
                self.stem,
                sanitize(b),
                sanitize(f1),
                sanitize(f2)
            ),
            title: format!("{} on {b}: {f1} against {f2}, time per instance", self.key),
            x: axis(f1),
            y: axis(f2),
            series: vec![
                Series {
                    name: format!("y = x (above: {f1} faster)"),
                    color: GREY,
                    marker: Marker::None,
                    points: vec![],
                    failed: vec![],
                    line: vec![(lo, lo), (hi, hi)],
                    dashed: true,
                },
                Series {
                    name: "instances".into(),
                    color: PALETTE[0],
                    marker: Marker::Circle,
                    points,
                    failed,
                    line: vec![],
                    dashed: false,
                },
            ],
            failed_label: "a run failed (charged the time limit)".into(),
        })
    }
}
