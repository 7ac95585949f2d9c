//! The anytime side of the report: the timelines beside the results files, the reference
//! objective of each instance, the primal integrals the rows could not hold when they were
//! written, and the `anytime` table of each optimisation puzzle.
//!
//! * **Reference**: the instance's optimum where a run proved it (status `optimal`, gap 0,
//!   solution verified); else the best verified objective in the rows, best by the sense
//!   the rows show (an incumbent above its bound is minimised); else none.
//! * **Filled integrals**: a row of an engine that reports a timeline, with its timeline in
//!   the file beside its results and no `primal_integral`, gets one against the reference,
//!   over the run up to its end on the run clock (`run_seconds`; in rows of older versions
//!   the timeline's end; for a run killed at its hard limit, its time limit).

use crate::engines::Engine;
use crate::record::Record;
use crate::stats::median;
use crate::table::{secs, Table};
use crate::timeline::{self, Trace};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// The timelines of every run, by run id, read from the files beside the results files.
#[derive(Clone, Debug, Default)]
pub struct Timelines(pub HashMap<String, Trace>);

impl Timelines {
    /// Reads `<csv>.timelines.jsonl` beside each of `csvs` (a missing file holds none).
    pub fn read(csvs: &[PathBuf]) -> Result<Timelines, String> {
        let mut all = HashMap::new();
        for c in csvs {
            all.extend(timeline::read(&timeline::path_beside(c))?);
        }
        Ok(Timelines(all))
    }

    /// The trace of `row`'s run, when its engine reports timelines and one was kept.
    pub fn of(&self, row: &Record) -> Option<&Trace> {
        let reports = Engine::by_key(&row.backend).is_ok_and(|e| e.capabilities().timeline);
        self.0.get(&row.run_id).filter(|_| reports)
    }
}

/// Whether a puzzle's rows minimise (`Some(true)`), maximise, or do not say: the side of
/// the bound on which their incumbents lie.
fn minimises(rows: &[&Record]) -> Option<bool> {
    rows.iter().find_map(|r| match (r.objective, r.best_bound) {
        (Some(z), Some(b)) if (z - b).abs() > 1e-6 * z.abs().max(1.0) => Some(b < z),
        _ => None,
    })
}

/// The reference objective of each (puzzle, instance), as the module says.
pub fn references<'a>(
    rows: impl IntoIterator<Item = &'a Record>,
) -> HashMap<(String, String), f64> {
    let mut by_puzzle: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        by_puzzle.entry(r.puzzle.as_str()).or_default().push(r);
    }
    let mut out = HashMap::new();
    for (puzzle, rs) in by_puzzle {
        let min = minimises(&rs);
        let mut best: BTreeMap<&str, (bool, f64)> = BTreeMap::new();
        for r in rs.iter().filter(|r| r.verified == Some(true)) {
            let Some(z) = r.objective.filter(|z| z.is_finite()) else {
                continue;
            };
            let proved = r.status == "optimal" && r.gap.is_some_and(|g| g <= 1e-9);
            let e = best.entry(r.instance.as_str()).or_insert((proved, z));
            let better = match (proved, e.0, min) {
                (true, false, _) => true,
                (false, true, _) => false,
                (_, _, Some(true)) => z < e.1,
                (_, _, Some(false)) => z > e.1,
                (_, _, None) => false,
            };
            if better {
                *e = (proved, z);
            }
        }
        for (instance, (proved, z)) in best {
            if proved || min.is_some() {
                out.insert((puzzle.to_string(), instance.to_string()), z);
            }
        }
    }
    out
}

/// Fills `primal_integral` where a row lacks it and its run's timeline and the instance's
/// reference are known (the module says how). Returns how many rows were filled.
pub fn fill(rows: &mut [Record], timelines: &Timelines) -> usize {
    let refs = references(rows.iter());
    let mut filled = 0;
    for r in rows.iter_mut() {
        if r.primal_integral.is_some() {
            continue;
        }
        let Some(trace) = timelines.of(r) else {
            continue;
        };
        let Some(&reference) = refs.get(&(r.puzzle.clone(), r.instance.clone())) else {
            continue;
        };
        let Some(end) = r.run_seconds.or(trace.end).or(r.time_limit) else {
            continue;
        };
        r.primal_integral = Some(trace.primal_integral(reference, end));
        filled += 1;
    }
    filled
}

/// True for a puzzle whose rows optimise something (some objective is not 0): Circuit
/// Board, minimum-clue Sudoku, n-Queens with walls.
pub fn optimises(rows: &[&Record]) -> bool {
    rows.iter().any(|r| r.objective.is_some_and(|z| z != 0.0))
}

/// `<p>_anytime`: per configuration (formulation, engine with its settings, time limit) of
/// an optimisation puzzle, the runs, how many had a timeline, the median seconds to the
/// first and to the best solution and the median length of those runs (`run_seconds`), all
/// three on the run clock and over the runs that found a solution, and the mean primal and
/// primal–dual integrals. `None` for a
/// puzzle that optimises nothing or whose rows have no anytime figures.
pub fn anytime_table(puzzle: &str, rows: &[&Record]) -> Option<Table> {
    if !optimises(rows) {
        return None;
    }
    type Key = (String, String, String);
    let mut groups: BTreeMap<Key, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        let limit = r.time_limit.map_or("none".into(), |l| format!("{l}"));
        groups
            .entry((r.formulation.clone(), r.backend_label(), limit))
            .or_default()
            .push(r);
    }
    let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    let fmt = secs;
    let mut table_rows = Vec::new();
    for ((f, b, limit), rs) in &groups {
        let with: Vec<&&Record> = rs
            .iter()
            .filter(|r| r.primal_integral.is_some() || r.first_solution_seconds.is_some())
            .collect();
        if with.is_empty() {
            continue;
        }
        let pick = |g: fn(&Record) -> Option<f64>| -> Vec<f64> {
            with.iter().filter_map(|r| g(r)).collect()
        };
        // The runs that found a solution: the three run-clock medians are over them, so
        // that first ≤ best ≤ whole run, which holds in each row, holds in the medians.
        let found: Vec<&&Record> = with
            .iter()
            .copied()
            .filter(|r| r.first_solution_seconds.is_some())
            .collect();
        let on_run_clock = |g: fn(&Record) -> Option<f64>| -> Option<f64> {
            median(&found.iter().filter_map(|r| g(r)).collect::<Vec<f64>>())
        };
        table_rows.push(vec![
            f.clone(),
            b.clone(),
            limit.clone(),
            rs.len().to_string(),
            with.len().to_string(),
            fmt(on_run_clock(|r| r.first_solution_seconds)),
            fmt(on_run_clock(|r| r.best_solution_seconds)),
            fmt(on_run_clock(|r| r.run_seconds)),
            fmt(mean(&pick(|r| r.primal_integral))),
            fmt(mean(&pick(|r| r.primal_dual_integral))),
        ]);
    }
    if table_rows.is_empty() {
        return None;
    }
    let columns = [
        "formulation",
        "engine",
        "limit (s)",
        "runs",
        "with timeline",
        "first solution (run clock, s, median)",
        "best solution (run clock, s, median)",
        "whole run (run clock, s, median)",
        "primal integral (s, mean)",
        "primal-dual integral (s, mean)",
    ];
    let t = Table {
        stem: format!("{puzzle}_anytime"),
        title: format!("{puzzle}: how soon each configuration found good solutions"),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        labels: 3,
        rows: table_rows,
        notes: vec![
            "Run clock: seconds from the start of the run (model building, LP relaxation and, for an engine in a child process, its start included), the clock of the time limit; whole run: the run's total on it (run_seconds). The three are medians over the runs that found a solution, so they compare with one another, not with the solve times (seconds, SGM, PAR-2) of the other tables. The primal integral (Berthold 2013) integrates the primal gap to the instance's reference objective (its proven optimum, else the best verified objective in these results) over the run; the primal-dual integral the gap between incumbent and bound; both count 1 per second while nothing is known, so smaller is better. Engines that report no timeline (microlp) have none.".into(),
        ],
    };
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::Point;

    fn row(instance: &str, backend: &str, status: &str, z: f64, bound: Option<f64>) -> Record {
        Record {
            run_id: format!("{instance}-{backend}-{status}-{z}"),
            puzzle: "circuit".into(),
            instance: instance.into(),
            formulation: "cm2".into(),
            backend: backend.into(),
            status: status.into(),
            objective: Some(z),
            best_bound: bound,
            gap: crate::engines::gap(Some(z), bound),
            verified: Some(true),
            time_limit: Some(10.0),
            ..Record::default()
        }
    }

    #[test]
    fn the_reference_is_the_proven_optimum_else_the_best_by_sense() {
        let rows = vec![
            row("a", "highs", "time_limit", 12.0, Some(8.0)),
            row("a", "cbc", "optimal", 10.0, Some(10.0)),
            row("b", "highs", "time_limit", 15.0, Some(9.0)),
            row("b", "cbc", "time_limit", 14.0, Some(9.0)),
        ];
        let refs = references(&rows);
        assert_eq!(refs[&("circuit".into(), "a".into())], 10.0);
        assert_eq!(refs[&("circuit".into(), "b".into())], 14.0);
    }

    #[test]
    fn integrals_are_filled_from_the_timelines_against_the_reference() {
        let mut rows = vec![
            row("a", "highs", "time_limit", 12.0, Some(8.0)),
            row("a", "cbc", "optimal", 10.0, Some(10.0)),
            row("a", "microlp", "time_limit", 12.0, Some(8.0)),
        ];
        rows[2].run_id = "m".into();
        let trace = Trace {
            incumbents: vec![
                Point {
                    t: 1.0,
                    value: 20.0,
                },
                Point {
                    t: 2.0,
                    value: 12.0,
                },
            ],
            bounds: vec![],
            end: Some(10.0),
        };
        let mut map = HashMap::new();
        map.insert(rows[0].run_id.clone(), trace.clone());
        map.insert("m".to_string(), trace);
        let n = fill(&mut rows, &Timelines(map));
        // 1 s without a solution, 1 s at gap 0.5, 8 s at gap 1/6.
        let want = 1.0 + 0.5 + 8.0 / 6.0;
        assert!((rows[0].primal_integral.unwrap() - want).abs() < 1e-9);
        // No timeline for the CBC row; microlp reports none, so its trace is not used.
        assert_eq!(
            (n, rows[1].primal_integral, rows[2].primal_integral),
            (1, None, None)
        );
        let refs: Vec<&Record> = rows.iter().collect();
        let t = anytime_table("circuit", &refs).unwrap();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][1], "highs");
    }
}
