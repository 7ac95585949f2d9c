//! Scatter plot of the best configuration's time against the runner-up's, per instance of
//! an instance set (`<p>_<set>_scatter`).

use super::sets::Set;
use super::{
    clamp_note, log_axis, min_max, Axis, Chart, Look, Marker, Puzzle, Scale, Series, GREY, PALETTE,
};

impl Puzzle<'_> {
    /// `<p>_<set>_scatter`: the time of the best configuration of `set` (x) against the
    /// runner-up's (y), both named in the title, one point per instance of the set (a
    /// cross when either failed), with the diagonal y = x; both axes logarithmic over the
    /// same range, with a note under them when a time was drawn at the axis floor. `None`
    /// without a runner-up or without points.
    pub(super) fn scatter(&self, set: &Set) -> Option<Chart> {
        let [best, second, ..] = &set.configs[..] else {
            return None;
        };
        let c1 = self.cells.get(best)?;
        let c2 = self.cells.get(second)?;
        let mut points = Vec::new();
        let mut failed = Vec::new();
        let mut tips = (Vec::new(), Vec::new());
        let mut clamped = false;
        for k in &set.keys {
            let (Some(a), Some(c)) = (c1.get(k), c2.get(k)) else {
                continue;
            };
            let (Some(x), Some(y)) = (a.plot_seconds(), c.plot_seconds()) else {
                continue;
            };
            clamped |= a.clamped() || c.clamped();
            let tip = format!(
                "{}: {best} {}, {second} {}",
                k.0,
                crate::table::significant(x),
                crate::table::significant(y)
            );
            if a.ok && c.ok {
                points.push((x, y));
                tips.0.push(tip);
            } else {
                failed.push((x, y));
                tips.1.push(format!("{tip} (a run failed)"));
            }
        }
        let (lo, hi) = min_max(points.iter().chain(&failed).flat_map(|&(x, y)| [x, y]))?;
        let (lo, hi) = log_axis(lo, hi, 10.0);
        let axis = |label: String| Axis {
            label: format!("{label}: time (s)"),
            lo,
            hi,
            scale: Scale::Log(10.0),
            integer: false,
        };
        let mut diagonal = Series::new(
            format!("y = x (above: {best} faster)"),
            Look {
                color: GREY,
                marker: Marker::None,
                dashed: true,
            },
        );
        diagonal.line = vec![(lo, lo), (hi, hi)];
        let mut instances = Series::new(
            "instances".into(),
            Look {
                color: PALETTE[0],
                marker: Marker::Circle,
                dashed: false,
            },
        );
        instances.points = points;
        instances.failed = failed;
        instances.tips = tips.0.into_iter().chain(tips.1).collect();
        Some(Chart {
            stem: format!("{}_{}_scatter", self.stem, set.tag),
            title: format!(
                "{}, {}: {best} (best) against {second} (runner-up), time per instance",
                self.key, set.name
            ),
            x: axis(best.to_string()),
            y: axis(second.to_string()),
            series: vec![diagonal, instances],
            failed_label: "a run failed or was stopped (drawn at its limit or its race's cap)"
                .into(),
            notes: clamp_note(clamped).into_iter().collect(),
            caption: set.caption.clone(),
        })
    }
}
