//! Scatter plots of one formulation's time against another's, per instance
//! (`<p>_scatter_<engine>_<f1>_vs_<f2>` on one engine; `<p>_scatter_<f1>_<b1>_vs_<f2>_<b2>`
//! for two formulations that each ran on one engine of their own, such as the Circuit
//! Board's `cm1` on `bc` and `cm2` on `highs`).

use super::{
    clamp_note, log_axis, min_max, sanitize, Axis, Chart, Marker, Puzzle, Scale, Series, GREY,
    PALETTE,
};

impl Puzzle<'_> {
    /// The scatter plots of the puzzle: on the main engine ([`Puzzle::main_engine`]), the
    /// two formulations that solved the most instances (then the first in key order; the
    /// pair in key order), then one per pair of formulations that ran on one engine each,
    /// the two engines different.
    pub(super) fn scatters(&self) -> Vec<Chart> {
        let mut out = Vec::new();
        if let Some(b) = self.main_engine() {
            let fs = self.formulations_on(b);
            let solved = |f: &str| {
                self.cells
                    .get(&(f.to_string(), b.to_string()))
                    .map_or(0, |per| per.values().filter(|c| c.ok).count())
            };
            // The two that solved the most (then the first in key order): one scatter.
            let mut ranked = fs.clone();
            ranked.sort_by_key(|f| std::cmp::Reverse(solved(f)));
            if let [lead, second, ..] = ranked[..] {
                let (f1, f2) = if lead < second {
                    (lead, second)
                } else {
                    (second, lead)
                };
                out.extend(self.scatter((f1, b), (f2, b)));
            }
        }
        let own = self.own_engines();
        for (i, (f1, b1)) in own.iter().enumerate() {
            for (f2, b2) in own[i + 1..].iter().filter(|(_, b2)| b2 != b1) {
                out.extend(self.scatter((f1, b1), (f2, b2)));
            }
        }
        out
    }

    /// `<p>_scatter_<b>_<f1>_vs_<f2>` (or `<p>_scatter_<f1>_<b1>_vs_<f2>_<b2>` for two
    /// engines): the time of `f1` on `b1` (x) against that of `f2` on `b2` (y), one point
    /// per instance both ran (a cross when either failed), with the diagonal y = x; both
    /// axes logarithmic over the same range, with a note under them when a time was drawn
    /// at the axis floor. `None` without points.
    fn scatter(&self, (f1, b1): (&str, &str), (f2, b2): (&str, &str)) -> Option<Chart> {
        let c1 = self.cells.get(&(f1.to_string(), b1.to_string()))?;
        let c2 = self.cells.get(&(f2.to_string(), b2.to_string()))?;
        let mut points = Vec::new();
        let mut failed = Vec::new();
        let mut clamped = false;
        for (instance, a) in c1 {
            let Some(c) = c2.get(instance) else { continue };
            let (Some(x), Some(y)) = (a.plot_seconds(), c.plot_seconds()) else {
                continue;
            };
            clamped |= a.clamped() || c.clamped();
            if a.ok && c.ok {
                points.push((x, y));
            } else {
                failed.push((x, y));
            }
        }
        let (lo, hi) = min_max(points.iter().chain(&failed).flat_map(|&(x, y)| [x, y]))?;
        let (lo, hi) = log_axis(lo, hi, 10.0);
        let same = b1 == b2;
        let name = |f: &str, b: &str| {
            if same {
                f.to_string()
            } else {
                format!("{f} on {b}")
            }
        };
        let axis = |label: String| Axis {
            label: format!("{label}: time (s)"),
            lo,
            hi,
            scale: Scale::Log(10.0),
            integer: false,
        };
        let (n1, n2) = (name(f1, b1), name(f2, b2));
        let (stem, title) = if same {
            (
                format!(
                    "{}_scatter_{}_{}_vs_{}",
                    self.stem,
                    sanitize(b1),
                    sanitize(f1),
                    sanitize(f2)
                ),
                format!("{} on {b1}: {f1} against {f2}, time per instance", self.key),
            )
        } else {
            (
                format!(
                    "{}_scatter_{}_{}_vs_{}_{}",
                    self.stem,
                    sanitize(f1),
                    sanitize(b1),
                    sanitize(f2),
                    sanitize(b2)
                ),
                format!("{}: {n1} against {n2}, time per instance", self.key),
            )
        };
        Some(Chart {
            stem,
            title,
            x: axis(n1.clone()),
            y: axis(n2),
            series: vec![
                Series {
                    name: format!("y = x (above: {n1} faster)"),
                    color: GREY,
                    marker: Marker::None,
                    points: vec![],
                    failed: vec![],
                    line: vec![(lo, lo), (hi, hi)],
                    dashed: true,
                    tips: Vec::new(),
                },
                Series {
                    name: "instances".into(),
                    color: PALETTE[0],
                    marker: Marker::Circle,
                    points,
                    failed,
                    line: vec![],
                    dashed: false,
                    tips: Vec::new(),
                },
            ],
            failed_label: "a run failed (charged the time limit)".into(),
            note: clamp_note(clamped),
        })
    }
}
