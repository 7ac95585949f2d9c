//! The survivors of each race against the instances raced (`<p>_race_survivors`): one
//! step line per race of the puzzle, a point after every instance, so that a reader sees
//! when the tests dropped candidates and how long the race went on with the rest.

use super::{Axis, Chart, Look, Scale, Series};
use crate::race::state::RaceState;

/// The chart of `puzzle`'s races (`None` when it has none).
pub(super) fn survivors_chart(puzzle: &str, stem: &str, races: &[&RaceState]) -> Option<Chart> {
    if races.is_empty() {
        return None;
    }
    let mut series = Vec::new();
    let (mut max_x, mut max_y) = (1.0f64, 1.0f64);
    for (i, race) in races.iter().enumerate() {
        let mut s = Series::new(race.name.clone(), Look::nth(i));
        let start = race.candidates.len() as f64;
        s.line.push((0.0, start));
        max_y = max_y.max(start);
        let mut before = start;
        for (k, inst) in race.raced.iter().enumerate() {
            let x = (k + 1) as f64;
            // The survivors after instance k: those that ran the next one, or at the end
            // the race's survivors.
            let after = race
                .raced
                .get(k + 1)
                .map_or(race.survivors().len() as f64, |n| {
                    n.runs.iter().filter(|t| t.is_some()).count() as f64
                });
            s.line.push((x, before));
            s.line.push((x, after));
            before = after;
            s.points.push((x, after));
            s.tips.push(format!(
                "{}: after instance {} ({}), {} survivors",
                race.name,
                k + 1,
                inst.name,
                after
            ));
            max_x = max_x.max(x);
        }
        series.push(s);
    }
    let names: Vec<&str> = races.iter().map(|r| r.name.as_str()).collect();
    Some(Chart {
        stem: format!("{stem}_race_survivors"),
        title: format!("{puzzle}: survivors of the race against instances raced"),
        x: Axis {
            label: "instances raced".into(),
            lo: 0.0,
            hi: max_x + 0.5,
            scale: Scale::Linear,
            integer: true,
        },
        y: Axis {
            label: "candidates in the race".into(),
            lo: 0.0,
            hi: max_y + 1.0,
            scale: Scale::Linear,
            integer: true,
        },
        series,
        failed_label: String::new(),
        notes: vec!["a step down: candidates dropped by a test, or a refusal".into()],
        caption: format!(
            "The race{} {}: how many candidates were still in it after each instance raced; the elimination table on this page says who left and when.",
            if names.len() > 1 { "s" } else { "" },
            names.join(" and ")
        ),
    })
}
