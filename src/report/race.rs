//! The races in a report: each race's instances become its puzzle's comparison (the
//! instances of the best and the runner-up, ranked whole: [`answer::Chosen::exact`]), its
//! rows the only rows the verdict uses, and its course a note on the answer
//! ([`answer::RaceNote`]) and an elimination table on the puzzle's page.

use super::answer::{self, Answer, Chosen, RaceNote};
use crate::race::friedman::round_ms;
use crate::race::state::RaceState;
use crate::record::Record;
use crate::table::{Table, NO_FIGURE};
use std::collections::{BTreeMap, BTreeSet};

/// The comparisons of `chosen`, with those of every raced puzzle replaced by its races'
/// instances (for a puzzle that races two questions, both races' in one set).
pub fn chosen_with_races(chosen: &[Chosen], races: &[RaceState], rows: &[Record]) -> Vec<Chosen> {
    let limits: BTreeMap<(&str, &str), Option<f64>> = rows
        .iter()
        .filter(|r| !r.race.is_empty())
        .map(|r| ((r.race.as_str(), r.instance.as_str()), r.time_limit))
        .collect();
    let mut by_puzzle: BTreeMap<String, Chosen> = BTreeMap::new();
    for race in races {
        let Some(puzzle) = puzzle_of(race, rows) else {
            continue;
        };
        let runner = race.runner_up().or_else(|| race.best());
        let Some(runner) = runner else { continue };
        let entry = by_puzzle.entry(puzzle.clone()).or_insert_with(|| Chosen {
            puzzle: puzzle.clone(),
            suite: "race".into(),
            names: BTreeSet::new(),
            how: String::new(),
        });
        for name in race.instances_of(&runner) {
            let limit = limits
                .get(&(race.name.as_str(), name.as_str()))
                .copied()
                .flatten();
            entry.names.insert(answer::instance_key(&name, limit));
        }
        if !entry.how.is_empty() {
            entry.how.push(' ');
        }
        entry.how.push_str(&format!(
            "The race {}: {} candidates on {} instances of its ladder (up to {} of them counted toward a test); the comparison is the instances the best and the runner-up both ran.",
            race.name,
            race.candidates.len(),
            race.raced.len(),
            race.most_counted()
        ));
    }
    let mut out: Vec<Chosen> = chosen
        .iter()
        .filter(|c| !by_puzzle.contains_key(&c.puzzle))
        .cloned()
        .collect();
    out.extend(by_puzzle.into_values());
    out
}

/// The puzzle of a race, from its rows.
fn puzzle_of(race: &RaceState, rows: &[Record]) -> Option<String> {
    rows.iter()
        .find(|r| r.race == race.name)
        .map(|r| r.puzzle.clone())
}

/// The rows the answers use: of a raced puzzle, its races' rows only; of the others, all.
pub fn answer_rows(rows: &[Record]) -> Vec<Record> {
    let raced: BTreeSet<&str> = rows
        .iter()
        .filter(|r| !r.race.is_empty())
        .map(|r| r.puzzle.as_str())
        .collect();
    rows.iter()
        .filter(|r| !r.race.is_empty() || !raced.contains(r.puzzle.as_str()))
        .cloned()
        .collect()
}

/// Sets each answer's race note from the race of its puzzle whose candidates it ranks, puts
/// the race's best and runner-up first (the ratio and verdict are then theirs), and where the best and the runner-up took under 10 ms on every instance, the
/// verdict [`answer::Verdict::Under10Ms`] (an instance under 10 ms counts toward no test).
pub fn attach(answers: &mut [Answer], races: &[RaceState]) {
    for a in answers.iter_mut() {
        let Some(race) = races.iter().find(|r| {
            r.puzzle == a.puzzle
                && a.standings
                    .iter()
                    .any(|s| r.candidates.contains(&s.config.to_string()))
        }) else {
            continue;
        };
        // The race's best and runner-up lead, the others follow by the SGM ranking.
        let (rb, rr) = (race.best(), race.runner_up());
        let place = |s: &answer::Standing| {
            let name = s.config.to_string();
            if Some(&name) == rb.as_ref() {
                0
            } else if Some(&name) == rr.as_ref() {
                1
            } else {
                2
            }
        };
        a.standings.sort_by_key(place);
        (a.ratio, a.interval, a.verdict) = answer::judge(&a.standings, a.shift);
        let best = a.best().config.to_string();
        if let Some(r) = a.runner_up() {
            let slowest = a
                .best()
                .times
                .iter()
                .chain(&r.times)
                .filter_map(|t| crate::stats::median(t))
                .fold(0.0f64, f64::max);
            let decided = matches!(
                a.verdict,
                answer::Verdict::MoreSolved | answer::Verdict::Alone
            );
            if !decided && round_ms(slowest) < crate::race::friedman::MIN_COUNTED_SECONDS {
                a.verdict = answer::Verdict::Under10Ms;
            }
        }
        let counted = a
            .runner_up()
            .map_or(0, |r| race.counted_between(&best, &r.config.to_string()));
        let wins = a.runner_up().map_or((0, 0), |r| {
            let med = |t: &Vec<f64>| round_ms(crate::stats::median(t).unwrap_or(0.0));
            a.best()
                .times
                .iter()
                .zip(&r.times)
                .fold((0, 0), |(w, l), (b, r)| {
                    let (b, r) = (med(b), med(r));
                    (w + usize::from(b < r), l + usize::from(b > r))
                })
        });
        a.race = Some(RaceNote {
            name: race.name.clone(),
            raced: race.raced.len(),
            counted,
            candidates: race.candidates.len(),
            not_separated: race
                .survivors()
                .into_iter()
                .filter(|c| *c != best)
                .collect(),
            best_wins: wins,
            dropped: race
                .decisions()
                .iter()
                .map(|d| {
                    format!(
                        "{} after {} instances ({} counted; {} p = {:.2e})",
                        d.candidate,
                        d.raced_instances,
                        d.counted_instances,
                        d.test,
                        d.posthoc_p_value
                    )
                })
                .collect(),
            refused: race
                .refusals
                .iter()
                .map(|f| format!("{} refused from instance {}", f.candidate, f.instance))
                .collect(),
            runs: race
                .raced
                .iter()
                .map(|i| i.times.iter().filter(|t| t.is_some()).count())
                .sum::<usize>()
                + race.refusals.len(),
            spent: race.spent,
        });
    }
}

/// The elimination table of `puzzle`'s races (stem `<puzzle>_race`): one row per
/// candidate, from the best down: when it left the race (or that it survived), by which
/// test, the p-value, and the instances it ran. `None` when the puzzle has no race.
pub fn elimination_table(puzzle: &str, races: &[RaceState], rows: &[Record]) -> Option<Table> {
    let mine: Vec<&RaceState> = races
        .iter()
        .filter(|r| puzzle_of(r, rows).as_deref() == Some(puzzle))
        .collect();
    if mine.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for race in &mine {
        let best = race.best();
        for c in race.order() {
            let ran = race.instances_of(&c).len();
            let (what, test, p) =
                if let Some(d) = race.decisions().iter().find(|d| d.candidate == c) {
                    (
                        format!(
                            "dropped after {} ({} counted)",
                            d.raced_instances, d.counted_instances
                        ),
                        d.test.clone(),
                        format!("{:.2e}", d.posthoc_p_value),
                    )
                } else if let Some(f) = race.refusals.iter().find(|f| f.candidate == c) {
                    (
                        format!("refused from instance {}", f.instance),
                        NO_FIGURE.to_string(),
                        NO_FIGURE.to_string(),
                    )
                } else if Some(&c) == best.as_ref() {
                    (
                        "best".to_string(),
                        NO_FIGURE.to_string(),
                        NO_FIGURE.to_string(),
                    )
                } else {
                    (
                        "survived (not separated from the best)".to_string(),
                        NO_FIGURE.to_string(),
                        NO_FIGURE.to_string(),
                    )
                };
            out.push(vec![race.name.clone(), c, what, test, p, ran.to_string()]);
        }
    }
    let mut t = Table {
        stem: format!("{puzzle}_race"),
        title: format!("{puzzle}: the race, who left it and when"),
        columns: ["race", "candidate", "left the race", "test", "p-value", "instances run"]
            .map(String::from)
            .to_vec(),
        labels: 2,
        rows: out,
        notes: vec![format!(
            "Candidates from best to worst: the survivors by rank sum over the counted instances, then the dropped from the last to the first, then those that refused. A candidate is dropped when, at a look after 5, 10, 20 or 40 counted instances (the slowest survivor at 10 ms or more, not all tied), the Friedman test (Iman–Davenport F, tie-corrected) and Conover's post-hoc test against the best both fall below 0.05/4 (with two survivors, the exact sign test); p-value: the post-hoc one. A refusal (a model over an engine's limit) takes a candidate out unranked. {NO_FIGURE}: no test made. docs/race.md has the method."
        )],
    };
    t.note_marks();
    Some(t)
}
