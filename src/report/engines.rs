//! Every engine side by side: per puzzle, a table with one row per formulation and one
//! column per engine label, each cell the solved runs, the median and the shifted
//! geometric mean of that group of [`summary::summarise`], over the instances that every
//! engine of the row ran (a suite may run its slow engines on fewer instances).

use super::summary::{self, SummaryRow};
use crate::record::Record;
use crate::table::{secs, sgm_note, Table, FAILED, NOT_RUN};
use std::collections::{BTreeMap, BTreeSet};

/// Engine keys in the order of the tables' columns; labels of other engines come after
/// them, alphabetically.
pub const ENGINE_ORDER: [&str; 9] = [
    "highs",
    "cbc",
    "microlp",
    "bc",
    "propagate",
    "sat",
    "cpsat",
    "scip",
    "glpk",
];

/// Where a engine label's column goes: the rank of its engine (the label up to its first
/// `-` or `@`, so `highs-nopresolve@node1` is `highs`) in [`ENGINE_ORDER`], then the label.
pub(crate) fn column_key(label: &str) -> (usize, &str) {
    let engine = label.split(['-', '@']).next().unwrap_or(label);
    let rank = ENGINE_ORDER
        .iter()
        .position(|e| *e == engine)
        .unwrap_or(ENGINE_ORDER.len());
    (rank, label)
}

/// One table per puzzle of `rows` (puzzles alphabetically), stem `<puzzle>_backends`: a
/// row per formulation (alphabetically), a column per engine label (in [`ENGINE_ORDER`]),
/// each cell `solved/runs · median · SGM` in seconds, `0/runs ✗` ([`FAILED`]) where every
/// run failed, [`NOT_RUN`] where the engine did not run that formulation. `shift` is the
/// SGM's shift in seconds. A race's rows are left out: its candidates ran different
/// numbers of instances (each until it was dropped), and its answer's heatmap and race
/// table show them on the instances its best and runner-up both ran; a configuration then
/// has one figure per measure on its puzzle's page.
pub fn engine_tables(rows: &[Record], shift: f64) -> Vec<Table> {
    let outside: Vec<Record> = rows.iter().filter(|r| r.race.is_empty()).cloned().collect();
    let (common, instances) = common_runs(&outside);
    let mut by_puzzle: BTreeMap<String, Vec<SummaryRow>> = BTreeMap::new();
    for s in summary::summarise(&common, shift) {
        by_puzzle.entry(s.puzzle.clone()).or_default().push(s);
    }
    by_puzzle
        .iter()
        .map(|(puzzle, groups)| puzzle_table(puzzle, groups, &instances, shift))
        .collect()
}

/// An instance as a comparison counts it: its name and the run's time limit.
type InstanceKey = (String, Option<u64>);

/// The rows a side-by-side comparison is fair on: per puzzle and formulation, the runs of
/// the instances (each with its time limit) that every engine label of that formulation
/// ran; all its runs where no instance was run by every label. Also the number of those
/// instances per (puzzle, formulation).
fn common_runs(rows: &[Record]) -> (Vec<Record>, BTreeMap<(String, String), usize>) {
    let key = |r: &Record| -> InstanceKey {
        (
            r.instance.clone(),
            r.time_limit.map(|t| (t * 1000.0) as u64),
        )
    };
    let mut ran: BTreeMap<(&str, &str), BTreeMap<String, BTreeSet<InstanceKey>>> = BTreeMap::new();
    for r in rows {
        ran.entry((&r.puzzle, &r.formulation))
            .or_default()
            .entry(r.backend_label())
            .or_default()
            .insert(key(r));
    }
    let mut common: BTreeMap<(&str, &str), BTreeSet<InstanceKey>> = BTreeMap::new();
    for (pf, labels) in &ran {
        let mut sets = labels.values();
        let first = sets.next().cloned().unwrap_or_default();
        let both = sets.fold(first, |acc, s| acc.intersection(s).cloned().collect());
        let keep = if both.is_empty() {
            labels.values().flatten().cloned().collect()
        } else {
            both
        };
        common.insert(*pf, keep);
    }
    let kept = rows
        .iter()
        .filter(|r| common[&(r.puzzle.as_str(), r.formulation.as_str())].contains(&key(r)))
        .cloned()
        .collect();
    let counts = common
        .iter()
        .map(|((p, f), set)| ((p.to_string(), f.to_string()), set.len()))
        .collect();
    (kept, counts)
}

/// The table of one puzzle from its summary groups.
fn puzzle_table(
    puzzle: &str,
    groups: &[SummaryRow],
    instances: &BTreeMap<(String, String), usize>,
    shift: f64,
) -> Table {
    let mut backends: Vec<&str> = groups.iter().map(|s| s.backend.as_str()).collect();
    backends.sort_by_key(|b| column_key(b));
    backends.dedup();
    let mut formulations: Vec<&str> = groups.iter().map(|s| s.formulation.as_str()).collect();
    formulations.sort_unstable();
    formulations.dedup();
    let cells: BTreeMap<(&str, &str), String> = groups
        .iter()
        .map(|s| {
            let cell = if s.solved == 0 {
                format!("0/{} {FAILED}", s.runs)
            } else {
                format!(
                    "{}/{} · {} · {}",
                    s.solved,
                    s.runs,
                    secs(s.median_seconds),
                    secs(s.sgm_seconds)
                )
            };
            ((s.formulation.as_str(), s.backend.as_str()), cell)
        })
        .collect();
    let body = formulations
        .iter()
        .map(|&f| {
            let n = instances
                .get(&(puzzle.to_string(), f.to_string()))
                .copied()
                .unwrap_or(0);
            [f.to_string(), n.to_string()]
                .into_iter()
                .chain(backends.iter().map(|&b| {
                    cells
                        .get(&(f, b))
                        .cloned()
                        .unwrap_or_else(|| NOT_RUN.into())
                }))
                .collect()
        })
        .collect();
    Table {
        stem: format!("{puzzle}_backends"),
        title: format!("{puzzle}: every backend side by side"),
        columns: ["formulation", "instances"]
            .into_iter()
            .chain(backends.iter().copied())
            .map(String::from)
            .collect(),
        labels: 1,
        rows: body,
        notes: vec![
            format!("Each cell: solved/runs · median (s) · SGM{shift} (s) of the formulation (row) on the backend (column); solved counts verified solutions plus proofs of infeasibility."),
            "instances: those every backend of the row ran, with the same time limit, outside the puzzle's race (the race's runs are in its answer's heatmap and its race table, on the instances its best and runner-up both ran); only their runs count here (all runs where no instance was run by every backend).".into(),
            sgm_note(shift),
            format!("Failed runs count at the time limit in the median and the SGM; a cell whose runs all failed shows 0/runs {FAILED} instead of those limits, and one of a formulation the backend did not run {NOT_RUN} (a run plan leaves out the formulations an engine does not take)."),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of `puzzle`'s `formulation` on `backend` taking `seconds`, solved and verified
    /// or (`solved` false) stopped at the 10 s time limit.
    fn run(puzzle: &str, formulation: &str, backend: &str, seconds: f64, solved: bool) -> Record {
        Record {
            puzzle: puzzle.into(),
            formulation: formulation.into(),
            backend: backend.into(),
            status: if solved { "optimal" } else { "time_limit" }.into(),
            seconds: Some(seconds),
            verified: solved.then_some(true),
            time_limit: Some(10.0),
            count: 1,
            ..Default::default()
        }
    }

    fn rows() -> Vec<Record> {
        let mut rows = Vec::new();
        // Sudoku: binary and values on highs and cbc, binary only on propagate.
        for (f, b) in [
            ("values", "cbc"),
            ("binary", "highs"),
            ("values", "highs"),
            ("binary", "cbc"),
        ] {
            rows.push(run("sudoku", f, b, 0.5, true));
        }
        // binary on propagate: 1 s and 3 s solved, one failure charged the 10 s limit.
        rows.push(run("sudoku", "binary", "propagate", 1.0, true));
        rows.push(run("sudoku", "binary", "propagate", 3.0, true));
        rows.push(run("sudoku", "binary", "propagate", 2.0, false));
        rows.push(run("zebra", "cp", "propagate", 0.25, true));
        rows
    }

    #[test]
    fn one_table_per_puzzle_with_backends_in_engine_order() {
        let tables = engine_tables(&rows(), 1.0);
        let stems: Vec<&str> = tables.iter().map(|t| t.stem.as_str()).collect();
        assert_eq!(stems, ["sudoku_backends", "zebra_backends"]);
        let t = &tables[0];
        assert_eq!(t.title, "sudoku: every backend side by side");
        assert_eq!(
            t.columns,
            ["formulation", "instances", "highs", "cbc", "propagate"]
        );
        let firsts: Vec<&str> = t.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(firsts, ["binary", "values"]);
        // Median of 1, 3, 10 is 3; SGM1 is (2·4·11)^(1/3) − 1 = 3.4482…
        assert_eq!(t.rows[0][4], "2/3 · 3.00 · 3.45");
        assert_eq!(t.rows[0][2], "1/1 · 0.500 · 0.500");
        assert_eq!(
            t.rows[1],
            [
                "values",
                "1",
                "1/1 · 0.500 · 0.500",
                "1/1 · 0.500 · 0.500",
                "–"
            ]
        );
        assert!(t.rows.iter().all(|r| r.len() == t.columns.len()));
        assert_eq!(tables[1].columns, ["formulation", "instances", "propagate"]);
        assert_eq!(tables[1].rows, [["cp", "1", "1/1 · 0.250 · 0.250"]]);
    }

    #[test]
    fn a_backend_that_did_not_run_a_formulation_gets_a_dash() {
        // Without values on cbc either, cbc keeps its column for binary.
        let rows: Vec<Record> = rows()
            .into_iter()
            .filter(|r| !(r.formulation == "values" && r.backend == "cbc"))
            .collect();
        let t = &engine_tables(&rows, 1.0)[0];
        assert_eq!(
            t.columns,
            ["formulation", "instances", "highs", "cbc", "propagate"]
        );
        assert_eq!(t.rows[1], ["values", "1", "1/1 · 0.500 · 0.500", "–", "–"]);
        assert_eq!(t.rows[0][3], "1/1 · 0.500 · 0.500");
        assert!(t
            .notes
            .iter()
            .any(|n| n.contains("SGM1: shifted geometric mean")));
    }

    #[test]
    fn a_cell_that_failed_and_a_cell_not_run_are_told_apart() {
        // binary on cbc ran and failed; values never ran on cbc.
        let rows: Vec<Record> = rows()
            .into_iter()
            .filter(|r| r.backend != "cbc")
            .chain([run("sudoku", "binary", "cbc", 10.0, false)])
            .collect();
        let mut t = engine_tables(&rows, 1.0).remove(0);
        assert_eq!(t.columns[3], "cbc");
        assert_eq!(t.rows[0][3], "0/1 ✗");
        assert_eq!(t.rows[1][3], "–");
        t.note_marks();
        let note = t.notes.last().unwrap();
        assert!(
            note.contains("– = not run") && note.contains("✗ = failed"),
            "{note}"
        );
    }

    #[test]
    fn only_the_instances_every_engine_ran_are_compared() {
        let mut rows = Vec::new();
        for (i, t) in [(1, 1.0), (2, 2.0), (3, 9.0)] {
            let mut r = run("sudoku", "binary", "highs", t, true);
            r.instance = format!("p{i}");
            rows.push(r);
        }
        let mut r = run("sudoku", "binary", "cpsat", 4.0, true);
        r.instance = "p2".into();
        rows.push(r);
        let t = &engine_tables(&rows, 1.0)[0];
        assert_eq!(t.columns, ["formulation", "instances", "highs", "cpsat"]);
        assert_eq!(
            t.rows[0],
            ["binary", "1", "1/1 · 2.00 · 2.00", "1/1 · 4.00 · 4.00"]
        );
    }

    #[test]
    fn settings_and_unknown_engines_order_after_their_engine() {
        let mut labels = [
            "zz",
            "sat",
            "highs-nopresolve",
            "glpk",
            "bc",
            "highs",
            "aa",
            "cpsat@node1",
            "microlp",
        ];
        labels.sort_by_key(|l| column_key(l));
        assert_eq!(
            labels,
            [
                "highs",
                "highs-nopresolve",
                "microlp",
                "bc",
                "sat",
                "cpsat@node1",
                "glpk",
                "aa",
                "zz"
            ]
        );
    }
}
