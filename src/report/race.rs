//! The races in a report: each race's instances become its puzzle's comparison (the
//! instances of the best and the runner-up, ranked whole: [`answer::Chosen::exact`]), its
//! rows the only rows the verdict uses, and its course a note on the answer
//! ([`answer::RaceNote`]) and an elimination table on the puzzle's page.

use super::answer::{self, Answer, Chosen, RaceNote};
use crate::race::state::{Outcome, RaceState};
use crate::record::Record;
use crate::stats::succeeded;
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
            "The race {}: the instances its best and runner-up both ran ({} of the {} raced, taken from the rungs of its ladder in turn), on the run clock (the race's){}.",
            race.name,
            race.ran_by_both(&best, &runner).len(),
            race.raced.len(),
            match capped {
                0 => String::new(),
                n => format!("; on {n} of them the race's adaptive cap stopped one of the two (slower there than {}): those runs are stopped, not solved, and a figure that takes them at their cap is a lower bound (≥)", crate::race::capping::in_words()),
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

/// What a race's log (`race.jsonl`) says of it beyond its rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RaceLog {
    /// Why it ended (its `end` event), if it did.
    pub reason: Option<String>,
    /// The instances it planned.
    pub planned: Option<usize>,
    /// The ladder's rungs, lowest first (its `start` event).
    pub rungs: Vec<String>,
    /// The rung of each instance raced (its `instance` events).
    pub rung_of: BTreeMap<String, String>,
}

/// Each race's log, by name, from a race log file (`race.jsonl`, or where it is missing
/// its gzip-compressed copy `race.jsonl.gz`: [`crate::gz`]). Lines that do not parse are
/// passed over; a log that cannot be read gives none.
pub fn endings(log: &std::path::Path) -> BTreeMap<String, RaceLog> {
    let Ok(text) = crate::gz::read_to_string(log) else {
        return BTreeMap::new();
    };
    let mut out: BTreeMap<String, RaceLog> = BTreeMap::new();
    for v in text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
    {
        let Some(name) = v["race"].as_str() else {
            continue;
        };
        let e = out.entry(name.to_string()).or_default();
        match v["event"].as_str() {
            Some("start") => {
                e.rungs = v["rungs"]
                    .as_array()
                    .map(|rs| {
                        rs.iter()
                            .filter_map(|r| r["rung"].as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                e.planned = v["plan"].as_array().map(Vec::len).or(e.planned);
            }
            Some("instance") => {
                if let (Some(i), Some(r)) = (v["name"].as_str(), v["rung"].as_str()) {
                    e.rung_of.insert(i.to_string(), r.to_string());
                }
            }
            Some("end") => {
                e.reason = v["reason"].as_str().map(String::from);
                e.planned = v["planned_instances"]
                    .as_u64()
                    .map(|n| n as usize)
                    .or(e.planned);
            }
            _ => {}
        }
    }
    out
}

/// The per-run overhead of an engine in a race: the median over its finished runs of the
/// run clock less the solve clock, the model's building and the LP relaxation (what is
/// left: a child process's start, the model's transfer, the answer's return).
fn overheads(race: &RaceState, rows: &[Record]) -> BTreeMap<String, f64> {
    let mut by: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.race == race.name && succeeded(r)) {
        if let (Some(run), Some(solve)) = (r.run_seconds, r.seconds) {
            let o = (run - solve - r.build_seconds.unwrap_or(0.0) - r.lp_seconds.unwrap_or(0.0))
                .max(0.0);
            by.entry(r.backend_label()).or_default().push(o);
        }
    }
    by.into_iter()
        .filter_map(|(e, v)| Some((e, crate::stats::median(&v)?)))
        .collect()
}

/// Where a race's verdict is about short runs rather than solving: the best's median run
/// time (run clock) on the race's top rung, taken from its log (or, without one, the
/// instances of the largest size raced), is under [`SHORT_RUNS_FACTOR`] times the largest
/// per-run overhead of the race's engines ([`overheads`]); `None` where solving dominates
/// or nothing tells.
pub fn short_runs(race: &RaceState, rows: &[Record], log: Option<&RaceLog>) -> Option<String> {
    let best = race.best()?;
    let ours: Vec<&Record> = rows.iter().filter(|r| r.race == race.name).collect();
    let raced: BTreeSet<&str> = race.raced.iter().map(|r| r.name.as_str()).collect();
    let top: (String, BTreeSet<String>) = match log.filter(|l| !l.rung_of.is_empty()) {
        Some(l) => {
            let rank = |r: &str| l.rungs.iter().position(|x| x == r).unwrap_or(0);
            let rung = l
                .rung_of
                .iter()
                .filter(|(i, _)| raced.contains(i.as_str()))
                .map(|(_, r)| r.clone())
                .max_by_key(|r| rank(r))?;
            let set = l
                .rung_of
                .iter()
                .filter(|(i, r)| **r == rung && raced.contains(i.as_str()))
                .map(|(i, _)| i.clone())
                .collect();
            (format!("rung {rung}"), set)
        }
        None => {
            let size = ours
                .iter()
                .filter_map(|r| r.size)
                .fold(f64::NEG_INFINITY, f64::max);
            let set: BTreeSet<String> = ours
                .iter()
                .filter(|r| r.size == Some(size))
                .map(|r| r.instance.clone())
                .collect();
            let label = ours
                .iter()
                .find(|r| r.size == Some(size))
                .map_or(String::new(), |r| r.size_label.clone());
            (format!("the largest instances raced ({label})"), set)
        }
    };
    let times: Vec<f64> = ours
        .iter()
        .filter(|r| r.config_name() == best && top.1.contains(&r.instance) && succeeded(r))
        .filter_map(|r| r.run_seconds.or(r.seconds))
        .collect();
    let t = crate::stats::median(&times)?;
    let (engine, o) = overheads(race, rows)
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (t < SHORT_RUNS_FACTOR * o).then(|| {
        format!(
            "the verdict is about short runs: on {} the best takes {} (median), under {SHORT_RUNS_FACTOR} × the largest per-run overhead of the race's engines, {} ({engine})",
            top.0,
            crate::table::duration(t),
            crate::table::duration(o)
        )
    })
}

/// How many times the largest per-run overhead a race's best must take on its top rung
/// for its verdict to be about solving ([`short_runs`]).
pub const SHORT_RUNS_FACTOR: f64 = 10.0;

/// Sets each answer's race note from the race of its puzzle whose candidates it ranks, and
/// puts the race's best and runner-up first, with the race's verdict between them
/// ([`answer::Verdict::Raced`]: its label, and its ratio with the interval at the race's
/// level). `logs` are the races' logs ([`endings`]); a race without one says what its
/// rows show.
pub fn attach(
    answers: &mut [Answer],
    races: &[RaceState],
    logs: &BTreeMap<String, RaceLog>,
    rows: &[Record],
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
        let log = logs.get(&race.name);
        let ended = match log.and_then(|l| l.reason.clone()) {
            Some(reason) => reason,
            None if race.survivors().len() <= 1 => crate::race::state::ONE_LEFT.to_string(),
            None if race.decided() => crate::race::state::DECIDED.to_string(),
            None if race.raced.len() >= race.planned() => crate::race::state::PLAN_RUN.to_string(),
            None => crate::race::state::STOPPED.to_string(),
        };
        let best = a.best().config.to_string();
        let raced_pair = rb.as_deref() == Some(best.as_str())
            && a.runner_up().map(|r| r.config.to_string()) == rr;
        let verdict = rr
            .as_deref()
            .filter(|_| raced_pair)
            .and_then(|r| race.verdict(r, &ended));
        if let Some(v) = &verdict {
            a.verdict = answer::Verdict::Raced(answer::RacedVerdict {
                label: v.label(),
                ahead: v.outcome == Outcome::Ahead,
                equivalent: v.outcome == Outcome::Equivalent,
                ratio_cell: v.ratio_cell(),
                level: v.comparison.level,
                equivalence_level: v.comparison.equivalence_level,
                instances: v.comparison.instances,
                stopped: v.comparison.stopped,
                short_runs: short_runs(race, rows, log),
            });
        }
        let refused: BTreeSet<&str> = race.refusals.iter().map(|f| f.candidate.as_str()).collect();
        a.race = Some(RaceNote {
            name: race.name.clone(),
            raced: race.raced.len(),
            planned: Some(race.planned()),
            ended: ended.clone(),
            counted: rr.as_deref().map_or(0, |r| race.counted_between(&best, r)),
            candidates: race.candidates.len() - refused.len(),
            others: race
                .survivors()
                .into_iter()
                .filter(|c| *c != best)
                .map(|c| {
                    let label = race
                        .verdict(&c, &ended)
                        .map_or(String::new(), |v| v.label());
                    (c, label)
                })
                .collect(),
            best_wins: verdict.as_ref().map_or((0, 0), |v| {
                (v.comparison.best_faster, v.comparison.best_slower)
            }),
            dropped: {
                let mut at: BTreeMap<usize, usize> = BTreeMap::new();
                for d in race.decisions() {
                    *at.entry(d.raced_instances).or_default() += 1;
                }
                at.into_iter()
                    .map(|(k, n)| format!("{n} after {k} instances"))
                    .collect()
            },
            refused: race
                .refusals
                .iter()
                .map(|f| format!("{} refused from instance {}", f.candidate, f.instance))
                .collect(),
            runs: race
                .raced
                .iter()
                .map(|i| i.runs.iter().filter(|t| t.is_some()).count())
                .sum::<usize>()
                + race.refusals.len(),
            spent: race.spent,
        });
    }
}

/// The race table of `puzzle`'s races (stem `<puzzle>_race`): one row per candidate, from
/// the best down: its label against the best (ahead, equivalent within the margin,
/// undecided and why, or refused), when it left the race, its ratio to the best with the
/// interval at the race's level, the p-value of its test against the best with the level
/// it had to meet, and the instances it ran. `None` when the puzzle has no race.
pub fn elimination_table(
    puzzle: &str,
    races: &[RaceState],
    rows: &[Record],
    logs: &BTreeMap<String, RaceLog>,
) -> Option<Table> {
    let mine: Vec<&RaceState> = races
        .iter()
        .filter(|r| puzzle_of(r, rows).as_deref() == Some(puzzle))
        .collect();
    if mine.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut margin = crate::race::elimination::MARGIN;
    for race in &mine {
        margin = race.config().margin;
        let best = race.best();
        let ended = logs
            .get(&race.name)
            .and_then(|l| l.reason.clone())
            .unwrap_or_else(|| crate::race::state::STOPPED.to_string());
        for c in race.order() {
            let ran = race.instances_of(&c).len();
            let left = match race.decisions().iter().find(|d| d.candidate == c) {
                Some(d) => format!("dropped after {}", d.raced_instances),
                None if race.refused(&c) => "refused".to_string(),
                None => "survived".to_string(),
            };
            let row = if let Some(f) = race.refusals.iter().find(|f| f.candidate == c) {
                vec![
                    format!("refused from instance {} (not ranked)", f.instance),
                    left,
                    NO_FIGURE.to_string(),
                    NO_FIGURE.to_string(),
                ]
            } else if Some(&c) == best.as_ref() {
                vec![
                    "best".to_string(),
                    left,
                    "1".to_string(),
                    NO_FIGURE.to_string(),
                ]
            } else if let Some(v) = race.verdict(&c, &ended) {
                vec![
                    v.label(),
                    left,
                    v.ratio_cell(),
                    format!(
                        "{:.2e} (level {:.2e})",
                        v.comparison.p_value, v.comparison.level
                    ),
                ]
            } else {
                vec![
                    NO_FIGURE.to_string(),
                    left,
                    NO_FIGURE.to_string(),
                    NO_FIGURE.to_string(),
                ]
            };
            let mut line = vec![race.name.clone(), c];
            line.extend(row);
            line.push(ran.to_string());
            out.push(line);
        }
    }
    let mut t = Table {
        stem: format!("{puzzle}_race"),
        title: format!("{puzzle}: the race, each candidate against its best"),
        columns: [
            "race",
            "candidate",
            "against the best",
            "left the race",
            "ratio to the best (interval)",
            "p-value (level)",
            "instances run",
        ]
        .map(String::from)
        .to_vec(),
        labels: 2,
        rows: out,
        notes: vec![format!(
            "Candidates from the best down: the best (the highest signed-rank score over the other survivors), then the other survivors, the one whose test against the best is weakest (largest p-value) first, then the dropped ones the same way, then those that refused (not ranked). At each look every survivor's exact one-sided signed-rank test against every other, on the log ratios of their times over the instances separating them (a stopped run at its bound, on the side that makes the test conservative), decides by the closure of \"a is a best\": a candidate is dropped when its test against some survivor meets its level alpha_t/(m(k-1)) (alpha_t the look's share of 0.05; k survivors; m those that could still be bests with it), never the best. ahead: dropped with the best's own test; equivalent within {}: its ratio's interval lies within the margin; undecided, because ...: neither, and why. ratio to the best: the Hodges-Lehmann estimate of the per-instance ratio of its time to the best's, with the interval whose lower end is at the level above and whose upper end at alpha_t/(k-1), the level of an equivalence claim; a lower bound (≥) where it was stopped. p-value: its test against the best on the instances both ran, with the level it had to meet. {NO_FIGURE}: none (the best itself, or a refusal). docs/race.md has the method.",
            crate::race::state::percent(margin)
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
        attach(&mut answers, &races, &BTreeMap::new(), rows);
        answers.remove(0)
    }

    fn raced(a: &Answer) -> &answer::RacedVerdict {
        match &a.verdict {
            answer::Verdict::Raced(v) => v,
            other => panic!("not a raced verdict: {other:?}"),
        }
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
        attach(&mut answers, &races, &BTreeMap::new(), &all);
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
    fn ahead_holds_exactly_when_the_interval_lies_above_one() {
        // b twice as slow on 12 instances of a 36-instance plan: the look after 12 drops
        // it with the best's own test, and the interval of the ratio lies above 1.
        let a = answer_of(&rows(&[
            ("a", vec![Some(0.1); 12]),
            ("b", vec![Some(0.2); 12]),
        ]));
        assert_eq!(a.best().config.to_string(), "f on a");
        let v = raced(&a);
        assert_eq!(v.label, "ahead");
        assert!(v.ahead && !v.equivalent);
        let low: f64 = v
            .ratio_cell
            .split(['(', '–'])
            .nth(1)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(low > 1.0, "{}", v.ratio_cell);
        assert_eq!(verdict_word_of(&a), "ahead");
    }

    #[test]
    fn undecided_says_why() {
        // a and b trade places by 30 % either way over 24 instances of a 36-instance plan:
        // no test separates them and they are not within 10 %, and the rows end short of
        // the plan, as a race stopped would leave them.
        let wobble: Vec<Option<f64>> = (0..24)
            .map(|i| Some(if i % 2 == 0 { 0.13 } else { 0.08 }))
            .collect();
        let a = answer_of(&rows(&[("a", vec![Some(0.1); 24]), ("b", wobble)]));
        let v = raced(&a);
        assert!(!v.ahead && !v.equivalent, "{v:?}");
        assert!(v.label.starts_with("undecided, because "), "{}", v.label);
        // Both under 10 ms on every instance: too fast to time.
        let a = answer_of(&rows(&[
            ("a", vec![Some(0.001); 24]),
            ("b", vec![Some(0.002); 24]),
        ]));
        assert_eq!(
            raced(&a).label,
            "undecided, because the runs are too fast to time (< 10 ms)"
        );
    }

    #[test]
    fn a_runner_up_stopped_on_most_instances_has_a_bound_for_a_ratio_and_no_solved_count_there() {
        // Issue 73's n-Queens least-walls: the runner-up was stopped by the cap on 10 of
        // its 12 instances and faster than the best on the 2 both finished. Its solved
        // count leaves the stopped ones out, and its ratio is a lower bound with no upper
        // end (the old report printed "12/12 solved" and "3.29 (2.07–5.05)").
        let mut rs = rows(&[
            ("best", vec![Some(0.2); 12]),
            ("capped", vec![Some(0.15); 12]),
        ]);
        for r in rs.iter_mut() {
            let i: usize = r.instance[1..].parse().unwrap();
            if r.backend == "capped" && i >= 2 {
                r.status = crate::record::CAPPED.into();
                r.cap_seconds = Some(0.5);
                r.verified = None;
                r.seconds = Some(0.45);
            }
        }
        let a = answer_of(&rs);
        assert_eq!(a.best().config.to_string(), "f on best");
        let r = a.runner_up().unwrap();
        assert_eq!((r.solved, r.stopped), (2, 10));
        assert_eq!(r.solved_cell(12), "2/12 (10 stopped)");
        assert!(r.sgm_cell().starts_with("≥ "), "{}", r.sgm_cell());
        let v = raced(&a);
        assert_eq!(v.stopped, 10);
        assert!(
            v.ratio_cell.starts_with("≥ ") && v.ratio_cell.contains("10 of 12 stopped"),
            "{}",
            v.ratio_cell
        );
        assert!(
            !v.ratio_cell.contains('–'),
            "no upper end: {}",
            v.ratio_cell
        );
        // The table of answers says the same.
        let t = answer::answers_table(std::slice::from_ref(&a)).unwrap();
        assert_eq!(t.rows[0][5], "2/12 (10 stopped)");
        assert!(t.rows[0][6].starts_with("≥ "));
    }

    #[test]
    fn a_verdict_on_runs_shorter_than_ten_overheads_says_it_is_about_short_runs() {
        // "a" in process (no overhead) takes 0.05 s on the largest instances; "b" pays
        // 0.1 s a run outside its solve (a child process's start).
        let make = |best: f64| {
            let other = 3.0 * best;
            let mut rs = rows(&[("a", vec![Some(best); 12]), ("b", vec![Some(other); 12])]);
            for r in rs.iter_mut() {
                let i: usize = r.instance[1..].parse().unwrap();
                r.size = Some((i % 3) as f64);
                r.size_label = format!("{}x{}", i % 3, i % 3);
                let solve = r.seconds.unwrap();
                r.run_seconds = Some(if r.backend == "b" { solve + 0.1 } else { solve });
            }
            rs
        };
        let rs = make(0.05);
        let race = replay(&rs).remove(0);
        let why = short_runs(&race, &rs, None).expect("short runs");
        assert!(
            why.contains("about short runs") && why.contains("(b)") && why.contains("2x2"),
            "{why}"
        );
        // With a log, the top rung is the log's.
        let mut log = RaceLog {
            rungs: vec!["low".into(), "top".into()],
            ..RaceLog::default()
        };
        for i in 0..12 {
            let rung = if i < 6 { "low" } else { "top" };
            log.rung_of.insert(format!("i{i:02}"), rung.into());
        }
        assert!(short_runs(&race, &rs, Some(&log))
            .unwrap()
            .contains("rung top"));
        // 2 s on the top rung is twenty overheads: about solving.
        let rs = make(2.0);
        let race = replay(&rs).remove(0);
        assert_eq!(short_runs(&race, &rs, None), None);
    }

    fn verdict_word_of(a: &Answer) -> String {
        answer::verdict_word(a)
    }
}
