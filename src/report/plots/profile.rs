//! Dolan–Moré performance profiles (`<p>_<set>_profile`).

use super::sets::Set;
use super::{marks_along, Axis, Chart, Puzzle, Scale, Series, MIN_SECONDS};

/// Markers along each profile's line (the line has a step per instance).
const MARKS: usize = 8;

impl Puzzle<'_> {
    /// `<p>_<set>_profile`: a Dolan–Moré profile of the configurations of `set` (best
    /// first) over its instances, all of which each ran: for each configuration, the
    /// fraction of the instances it solved within a factor τ of the fastest configuration
    /// on that instance, as a step line against τ (log₂ axis), with markers along it. A
    /// failure never counts as solved. `None` with fewer than two configurations.
    pub(super) fn profile(&self, set: &Set) -> Option<Chart> {
        if set.configs.len() < 2 || set.keys.is_empty() {
            return None;
        }
        let instances: Vec<_> = set.keys.iter().collect();
        let runs: Vec<_> = set
            .configs
            .iter()
            .map(|c| self.cells.get(c))
            .collect::<Option<_>>()?;
        // ratios[s] = performance ratios of series s, over the instances (infinite: failed).
        let mut ratios = vec![Vec::with_capacity(instances.len()); runs.len()];
        for i in &instances {
            let times: Vec<Option<f64>> = runs
                .iter()
                .map(|r| {
                    let c = &r[*i];
                    (c.ok && c.seconds.is_finite()).then(|| c.seconds.max(MIN_SECONDS))
                })
                .collect();
            let best = times
                .iter()
                .flatten()
                .copied()
                .fold(f64::INFINITY, f64::min);
            for (s, t) in times.iter().enumerate() {
                ratios[s].push(t.map_or(f64::INFINITY, |t| t / best));
            }
        }
        let max_ratio = ratios
            .iter()
            .flatten()
            .copied()
            .filter(|r| r.is_finite())
            .fold(1.0, f64::max);
        // Up to a power of two with some room after the last step.
        let k = (max_ratio * 1.1).log2().ceil().max(1.0);
        let x_hi = 2f64.powf(k) * 1.001;
        let n = instances.len() as f64;
        let count = set.configs.len();
        let series = set
            .configs
            .iter()
            .zip(&ratios)
            .enumerate()
            .map(|(i, (c, rs))| {
                let mut finite: Vec<f64> = rs.iter().copied().filter(|r| r.is_finite()).collect();
                finite.sort_by(f64::total_cmp);
                let at_one = finite.iter().filter(|&&r| r <= 1.0).count();
                let mut s = Series::new(c.to_string(), self.look(c));
                s.line.push((1.0, at_one as f64 / n));
                let mut solved = at_one;
                for &r in finite.iter().skip(at_one) {
                    let before = solved as f64 / n;
                    solved += 1;
                    s.line.push((r, before));
                    s.line.push((r, solved as f64 / n));
                }
                s.line.push((x_hi, solved as f64 / n));
                let phase = (i as f64 + 0.5) / count as f64;
                s.points = marks_along(&s.line, 1.0, x_hi, true, MARKS, phase);
                s
            })
            .collect();
        Some(Chart {
            stem: format!("{}_{}_profile", self.stem, set.tag),
            title: format!("{}: performance profile, {}", self.key, set.name),
            x: Axis {
                label: "performance ratio τ = time / best time (log₂)".into(),
                lo: 1.0,
                hi: x_hi,
                scale: Scale::Log(2.0),
                integer: false,
            },
            y: Axis {
                label: format!(
                    "fraction of the {} instances with ratio ≤ τ",
                    instances.len()
                ),
                lo: 0.0,
                hi: 1.04,
                scale: Scale::Linear,
                integer: false,
            },
            series,
            failed_label: String::new(),
            notes: self.notes(set, None),
            caption: set.caption.clone(),
        })
    }
}
