//! Cactus plot: instances solved against time (`<p>_<set>_cactus`).

use super::sets::Set;
use super::{clamp_note, log_axis, min_max, Axis, Cell, Chart, Puzzle, Scale, Series};

impl Puzzle<'_> {
    /// `<p>_<set>_cactus`: on the instances of `set`, for each of its configurations (best
    /// first), the number of instances solved against time: its solved instances sorted
    /// by time, one step (and marker) each; a configuration that solved none keeps its
    /// legend line. The time axis is logarithmic, the count axis runs to the set's size;
    /// a note under the axes says when a time was drawn at the axis floor. `None` when no
    /// instance was solved.
    pub(super) fn cactus(&self, set: &Set) -> Option<Chart> {
        let mut series = Vec::new();
        let mut all = Vec::new();
        let mut clamped = false;
        for c in &set.configs {
            let cells: Vec<&Cell> = self.cells_on(c, set).map(|(_, cell)| cell).collect();
            clamped |= cells.iter().any(|c| c.ok && c.clamped());
            let mut times: Vec<f64> = cells
                .iter()
                .filter(|c| c.ok)
                .filter_map(|c| c.plot_seconds())
                .collect();
            times.sort_by(f64::total_cmp);
            all.extend(times.iter().copied());
            let mut s = Series::new(c.to_string(), self.look(c));
            s.points = times
                .iter()
                .enumerate()
                .map(|(k, &t)| (t, (k + 1) as f64))
                .collect();
            if let Some(&first) = times.first() {
                s.line.push((first, 0.0));
            }
            for &(t, k) in &s.points {
                s.line.push((t, k - 1.0));
                s.line.push((t, k));
            }
            series.push(s);
        }
        let (tmin, tmax) = min_max(all.iter().copied())?;
        let x = log_axis(tmin, tmax, 10.0);
        let n = set.keys.len() as f64;
        Some(Chart {
            stem: format!("{}_{}_cactus", self.stem, set.tag),
            title: format!("{}: instances solved against time, {}", self.key, set.name),
            x: Axis {
                label: "time (s)".into(),
                lo: x.0,
                hi: x.1,
                scale: Scale::Log(10.0),
                integer: false,
            },
            y: Axis {
                label: format!("instances solved (of {})", set.keys.len()),
                lo: 0.0,
                hi: n * 1.05 + 0.3,
                scale: Scale::Linear,
                integer: true,
            },
            series,
            failed_label: String::new(),
            notes: self.notes(set, clamp_note(clamped)),
            caption: set.caption.clone(),
        })
    }
}
