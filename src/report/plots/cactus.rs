//! Cactus plot: instances solved against time (`<p>_cactus`).

use super::{clamp_note, log_axis, min_max, Axis, Cell, Chart, Puzzle, Scale, Series};

impl Puzzle<'_> {
    /// `<p>_cactus`: for each `formulation / engine`, the number of instances solved
    /// against time: its solved instances sorted by time, one step (and marker) each. The
    /// time axis is logarithmic; a note under the axes says when a time was drawn at the
    /// axis floor. `None` when no instance was solved.
    pub(super) fn cactus(&self) -> Option<Chart> {
        let mut series = Vec::new();
        let mut all = Vec::new();
        let mut clamped = false;
        for ((f, b), instances) in self.cells {
            clamped |= instances.values().any(|c| c.ok && c.clamped());
            let mut times: Vec<f64> = instances
                .values()
                .filter(|c| c.ok)
                .filter_map(Cell::plot_seconds)
                .collect();
            if times.is_empty() {
                continue;
            }
            times.sort_by(f64::total_cmp);
            all.extend(times.iter().copied());
            let points: Vec<(f64, f64)> = times
                .iter()
                .enumerate()
                .map(|(k, &t)| (t, (k + 1) as f64))
                .collect();
            let mut line = vec![(times[0], 0.0)];
            for &(t, k) in &points {
                line.push((t, k - 1.0));
                line.push((t, k));
            }
            let (color, marker) = self.look(f, b);
            series.push(Series {
                name: format!("{f} / {b}"),
                color,
                marker,
                points,
                failed: vec![],
                line,
                dashed: false,
                tips: Vec::new(),
            });
        }
        let (tmin, tmax) = min_max(all.iter().copied())?;
        let x = log_axis(tmin, tmax, 10.0);
        let most = series.iter().map(|s| s.points.len()).max().unwrap_or(0) as f64;
        Some(Chart {
            stem: format!("{}_cactus", self.stem),
            title: format!("{}: instances solved against time (cactus)", self.key),
            x: Axis {
                label: "time (s)".into(),
                lo: x.0,
                hi: x.1,
                scale: Scale::Log(10.0),
                integer: false,
            },
            y: Axis {
                label: "instances solved".into(),
                lo: 0.0,
                hi: most * 1.05 + 0.3,
                scale: Scale::Linear,
                integer: true,
            },
            series,
            failed_label: String::new(),
            note: clamp_note(clamped),
        })
    }
}
