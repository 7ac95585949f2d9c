//! The races in a report: each race's instances become its puzzle's comparison (the
//! instances of the best and the runner-up, ranked whole: [`answer::Chosen::exact`]), its
//! rows the only rows the verdict uses, and its course a note on the answer
//! ([`answer::RaceNote`]) and an elimination table on the puzzle's page.

use super::answer::{self, Answer, Chosen, RaceNote};
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
        let best = race.best().unwrap_or_default();
        let ran = race.ran_by_both(&best, &runner);
        let capped = ran.len() - race.measured_by_both(&best, &runner).len();
        for name in ran {
            let limit = limits
                .get(&(race.name.as_str(), name.as_str()))
                .copied()
                .flatten();
            entry.names.insert(answer::instance_key(&name, limit));
        }
        // One line per race: [`attach`] keeps on each answer its own race's line.
        if !entry.how.is_empty() {
            entry.how.push('\n');
        }
        entry.how.push_str(&format!(
            "The race {}: {} candidates on {} instances of its ladder's plan ({} of them separate the best from the runner-up); the comparison is the instances the best and the runner-up both ran, on the run clock (the race's){}.",
            race.name,
            race.candidates.len(),
            race.raced.len(),
            race.counted_between(&best, &runner),
            match capped {
                0 => String::new(),
                n => format!("; on {n} of them the race's adaptive cap stopped one of the two (slower there than twice the race's best plus 0.1 s), which is charged its cap, a lower bound on its time: there the ratio understates the gap"),
            }
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

/// How each race ended, by name, from a race log (`race.jsonl`, or where it is missing its
/// gzip-compressed copy `race.jsonl.gz`: [`crate::gz`]): (reason, instances planned). Lines
/// that are not an `end` event are passed over; a log that cannot be read gives none.
pub fn endings(log: &std::path::Path) -> BTreeMap<String, (String, usize)> {
    let Ok(text) = crate::gz::read_to_string(log) else {
        return BTreeMap::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"] == "end")
        .filter_map(|v| {
            Some((
                v["race"].as_str()?.to_string(),
                (
                    v["reason"].as_str()?.to_string(),
                    v["planned_instances"].as_u64()? as usize,
                ),
            ))
        })
        .collect()
}

/// Sets each answer's race note from the race of its puzzle whose candidates it ranks, and
/// puts the race's best and runner-up first: the ratio and its interval are theirs, and the
/// verdict is the race's ([`answer::Verdict::Separated`] only where a look dropped the
/// runner-up against this best; otherwise not separated, saying when the runner-up solved
/// more or is faster by the SGM). `ends` are the races' endings from their log
/// ([`endings`]); a race without one says what its rows show.
pub fn attach(
    answers: &mut [Answer],
    races: &[RaceState],
    ends: &BTreeMap<String, (String, usize)>,
) {
    for a in answers.iter_mut() {
        let Some(race) = races.iter().find(|r| {
            r.puzzle == a.puzzle
                && a.standings
                    .iter()
                    .any(|s| r.candidates.contains(&s.config.to_string()))
        }) else {
            continue;
        };
        // Of a puzzle that raced two questions, the answer tells of its own race only.
        let own = format!("The race {}:", race.name);
        if let Some(line) = a.chosen.lines().find(|l| l.starts_with(&own)) {
            a.chosen = line.to_string();
        }
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
        let runner = a.runner_up().map(|r| r.config.to_string());
        let sep = runner.as_deref().map(|r| race.separation(r));
        if let (Some(r), Some(sep)) = (a.runner_up(), &sep) {
            let raced_pair = rb.as_deref() == Some(best.as_str())
                && rr.as_deref() == Some(r.config.to_string().as_str());
            if raced_pair {
                a.verdict = if sep.dropped_at.is_some() {
                    answer::Verdict::Separated
                } else if r.solved > a.best().solved {
                    answer::Verdict::RunnerUpSolvedMore
                } else if a.interval.is_some_and(|(_, hi)| hi < 1.0) {
                    answer::Verdict::RunnerUpFaster
                } else {
                    answer::Verdict::NotSeparated
                };
            }
        }
        let ended = match ends.get(&race.name) {
            Some((reason, _)) => reason.clone(),
            None if race.survivors().len() <= 1 => crate::race::state::ONE_LEFT.to_string(),
            None => format!("{} survivors (no race log)", race.survivors().len()),
        };
        a.race = Some(RaceNote {
            name: race.name.clone(),
            raced: race.raced.len(),
            planned: ends.get(&race.name).map(|e| e.1),
            ended,
            counted: runner
                .as_deref()
                .map_or(0, |r| race.counted_between(&best, r)),
            candidates: race.candidates.len(),
            not_separated: race
                .survivors()
                .into_iter()
                .filter(|c| *c != best)
                .collect(),
            best_wins: sep
                .as_ref()
                .map_or((0, 0), |s| (s.best_faster, s.best_slower)),
            separated_at: sep.as_ref().and_then(|s| s.dropped_at),
            dropped: race
                .decisions()
                .iter()
                .map(|d| {
                    format!(
                        "{} after {} instances (best faster on {} of {} separating; sign p = {:.2e}, Holm level {:.2e})",
                        d.candidate,
                        d.raced_instances,
                        d.best_faster,
                        d.counted_instances,
                        d.p_value,
                        d.level
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
                            "dropped after {} (best faster on {} of {} separating)",
                            d.raced_instances, d.best_faster, d.counted_instances
                        ),
                        d.test.clone(),
                        format!("{:.2e} (level {:.2e})", d.p_value, d.level),
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
            "Candidates from best to worst: the best (the most net wins over the other survivors), then every other by its share of wins against the best on the instances separating the two (surviving or dropped; among equal shares the nearest to the best by time), then those that refused. At a look (after every 12 planned instances) each survivor is compared with the best by the exact one-sided sign test over the instances separating the pair (times differ to the millisecond, the slower at 10 ms or more), Holm-adjusted over the look's comparisons at the look's level (alpha = 0.05 spent over the looks: 0.0304, 0.0076, 0.0034, ...); a candidate is dropped when its test is rejected and at least 10 instances separate it from the best. p-value: the sign test's, with the Holm level it met. A refusal (a model over an engine's limit) takes a candidate out unranked. {NO_FIGURE}: no test made. docs/race.md has the method."
        )],
    };
    t.note_marks();
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::race::state::replay;

    /// Rows of race "p": per candidate (engine), per instance, its time, or `None` for a
    /// failure at the 10 s limit.
    fn rows(times: &[(&str, Vec<Option<f64>>)]) -> Vec<Record> {
        let mut out = Vec::new();
        for (engine, t) in times {
            for (i, x) in t.iter().enumerate() {
                out.push(Record {
                    puzzle: "p".into(),
                    instance: format!("i{i:02}"),
                    race: "p".into(),
                    formulation: "f".into(),
                    backend: engine.to_string(),
                    status: if x.is_some() { "optimal" } else { "time_limit" }.into(),
                    verified: x.map(|_| true),
                    seconds: Some(x.unwrap_or(10.0)),
                    time_limit: Some(10.0),
                    ..Record::default()
                });
            }
        }
        out
    }

    fn answer_of(rows: &[Record]) -> Answer {
        let races = replay(rows);
        let chosen = chosen_with_races(&[], &races, rows);
        let mut answers = answer::answers(&answer_rows(rows), &chosen, 0.01);
        attach(&mut answers, &races, &BTreeMap::new());
        answers.remove(0)
    }

    #[test]
    fn each_answer_of_a_puzzle_with_two_races_tells_of_its_own_race() {
        // Two questions of puzzle p, as n-Queens' base and least-walls: formulations f and
        // g never share an instance, each raced on its own.
        let mut all = rows(&[("a", vec![Some(0.1); 12]), ("b", vec![Some(0.2); 12])]);
        for r in &mut all {
            r.race = "p:f".into();
        }
        let mut other = rows(&[("a", vec![Some(0.3); 12]), ("b", vec![Some(0.1); 12])]);
        for r in &mut other {
            r.race = "p:g".into();
            r.formulation = "g".into();
            r.instance = format!("j{}", r.instance);
        }
        all.extend(other);
        let races = replay(&all);
        let chosen = chosen_with_races(&[], &races, &all);
        let mut answers = answer::answers(&answer_rows(&all), &chosen, 0.01);
        attach(&mut answers, &races, &BTreeMap::new());
        assert_eq!(answers.len(), 2);
        for a in &answers {
            let race = &a.race.as_ref().unwrap().name;
            let other = if race == "p:f" { "p:g" } else { "p:f" };
            assert!(
                a.chosen.contains(&format!("The race {race}:")),
                "{}",
                a.chosen
            );
            assert!(
                !a.chosen.contains(&format!("The race {other}:")),
                "{}",
                a.chosen
            );
            assert!(!a.sentence().contains(other));
        }
    }

    #[test]
    fn no_ahead_without_a_separating_test() {
        // b twice as slow on 11 instances: the SGM interval lies far above 1, but no look
        // was made (the first comes after 12), so the race separated nothing.
        let a = answer_of(&rows(&[
            ("a", vec![Some(0.1); 11]),
            ("b", vec![Some(0.2); 11]),
        ]));
        assert_eq!(a.best().config.to_string(), "f on a");
        assert!(a.interval.unwrap().0 > 1.0);
        assert_eq!(a.verdict, answer::Verdict::NotSeparated);
        assert_eq!(answer::verdict_word(&a), "not separated");
        // With a twelfth instance the look drops b against a: ahead.
        let a = answer_of(&rows(&[
            ("a", vec![Some(0.1); 12]),
            ("b", vec![Some(0.2); 12]),
        ]));
        assert_eq!(a.verdict, answer::Verdict::Separated);
        assert_eq!(answer::verdict_word(&a), "ahead");
        assert!(a.race.as_ref().unwrap().separated_at.is_some());
        assert_eq!(a.race.as_ref().unwrap().counted, 12);
    }

    #[test]
    fn a_runner_up_that_solved_more_is_not_called_behind() {
        // a faster on 9 of 11 but fails the other 2; b solves all 11.
        let mut fast: Vec<Option<f64>> = vec![Some(0.1); 11];
        fast[3] = None;
        fast[7] = None;
        let a = answer_of(&rows(&[("a", fast), ("b", vec![Some(0.2); 11])]));
        assert_eq!(a.best().config.to_string(), "f on a");
        assert_eq!(a.runner_up().unwrap().solved, 11);
        assert_eq!(a.verdict, answer::Verdict::RunnerUpSolvedMore);
        assert!(
            a.sentence().contains("runner-up solved more"),
            "{}",
            a.sentence()
        );
        assert!(!answer::verdict_word(&a).starts_with("ahead"));
    }
}
