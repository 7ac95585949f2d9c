//! The Battleship tables of the report suite: Table 4.3 of the report (GBM and CBM times by
//! size and level) beside ours, and the size and LP relaxation of both models.

use crate::record::Record;
use crate::stats::{charged_seconds, median, succeeded};
use crate::table::{info_value, secs, Table, NOT_RUN, NO_FIGURE};
use std::collections::{BTreeMap, BTreeSet};

/// Report Table 4.3: (size, level, GBM seconds, CBM seconds), Gurobi, one puzzle each from
/// the Puzzle Team's Battleships site, fleets of report Table 4.2.
pub const REPORT_TABLE_4_3: [(&str, &str, f64, f64); 8] = [
    ("6x6", "easy", 0.01, 0.01),
    ("6x6", "hard", 0.01, 0.12),
    ("8x8", "easy", 0.02, 0.08),
    ("8x8", "hard", 0.02, 0.22),
    ("10x10", "easy", 0.01, 0.02),
    ("10x10", "hard", 0.01, 0.05),
    ("15x15", "easy", 0.03, 0.21),
    ("15x15", "hard", 0.03, 0.15),
];

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "battleship").collect();
    if rows.is_empty() {
        return vec![];
    }
    vec![table_4_3(&rows), models(&rows)]
}

/// Cells of a size label `MxN` (for ordering).
fn cells(label: &str) -> u64 {
    label
        .split_once('x')
        .and_then(|(a, b)| Some(a.parse::<u64>().ok()? * b.parse::<u64>().ok()?))
        .unwrap_or(u64::MAX)
}

/// Time and solved count of one group of runs: the median charged seconds (a run that did
/// not solve counts at its time limit) and "solved/runs"; [`NOT_RUN`] for both without runs.
fn timing(rs: &[&Record]) -> (String, String) {
    if rs.is_empty() {
        return (NOT_RUN.into(), NOT_RUN.into());
    }
    let t: Vec<f64> = rs.iter().map(|r| charged_seconds(r)).collect();
    let solved = rs.iter().filter(|r| succeeded(r)).count();
    let mut time = secs(median(&t));
    if 2 * solved < rs.len() {
        time = format!("≥{time}");
    }
    (time, format!("{solved}/{}", rs.len()))
}

fn table_4_3(rows: &[&Record]) -> Table {
    type Key<'a> = (u64, &'a str, &'a str, String);
    let mut groups: BTreeMap<Key<'_>, BTreeMap<&str, Vec<&Record>>> = BTreeMap::new();
    for r in rows {
        let level = info_value(&r.instance_info, "level").unwrap_or(NO_FIGURE);
        groups
            .entry((
                cells(&r.size_label),
                &r.size_label,
                level,
                r.backend_label(),
            ))
            .or_default()
            .entry(&r.formulation)
            .or_default()
            .push(r);
    }
    let mut body = Vec::new();
    for ((_, size, level, backend), by_f) in &groups {
        let report = REPORT_TABLE_4_3
            .iter()
            .find(|(s, l, _, _)| s == size && l == level);
        let puzzles: BTreeSet<&str> = by_f
            .values()
            .flatten()
            .map(|r| r.instance.as_str())
            .collect();
        let (g, gs) = timing(by_f.get("gbm").map_or(&[][..], |v| v));
        let (c, cs) = timing(by_f.get("cbm").map_or(&[][..], |v| v));
        body.push(vec![
            size.to_string(),
            level.to_string(),
            report.map_or(NOT_RUN.into(), |r| format!("{:.2}", r.2)),
            report.map_or(NOT_RUN.into(), |r| format!("{:.2}", r.3)),
            backend.to_string(),
            puzzles.len().to_string(),
            g,
            c,
            gs,
            cs,
        ]);
    }
    Table {
        stem: "battleship_table_4_3".into(),
        title: "Battleship: GBM and CBM solve times beside the report's Table 4.3".into(),
        columns: [
            "size",
            "level",
            "report GBM (s)",
            "report CBM (s)",
            "backend",
            "puzzles",
            "GBM median (s)",
            "CBM median (s)",
            "GBM solved",
            "CBM solved",
        ]
        .map(String::from)
        .to_vec(),
        labels: 2,
        rows: body,
        notes: vec![
            "Report Table 4.3: one puzzle per size and level from the Puzzle Team's Battleships site, Gurobi, fleets of report Table 4.2. Those puzzles are not bundled; ours are generated with the same sizes and fleets (instances/battleship/README.md): `hard` keeps no redundant given, `easy` adds extra givens.".into(),
            "Medians over every run of the group; a run that did not solve counts at its time limit, and ≥ marks a median made of such runs. 20×20, 30×20 and 30×30 are beyond the report (it cites hours for the CBM on 30×20 in Meuffels and den Hertog's paper).".into(),
        ],
    }
}

fn models(rows: &[&Record]) -> Table {
    type Key<'a> = (u64, &'a str, &'a str, String);
    let mut groups: BTreeMap<Key<'_>, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((
                cells(&r.size_label),
                &r.size_label,
                &r.formulation,
                r.backend_label(),
            ))
            .or_default()
            .push(r);
    }
    let med = |v: Vec<f64>| median(&v);
    let count = |v: Option<f64>| v.map_or(NO_FIGURE.into(), |x| format!("{x:.0}"));
    let body = groups
        .into_iter()
        .map(|((_, size, f, b), rs)| {
            let lp: Vec<&&Record> = rs.iter().filter(|r| r.lp_bound.is_some()).collect();
            vec![
                size.to_string(),
                f.to_string(),
                b.to_string(),
                count(med(rs
                    .iter()
                    .filter_map(|r| r.variables.map(|v| v as f64))
                    .collect())),
                count(med(rs
                    .iter()
                    .filter_map(|r| r.constraints.map(|v| v as f64))
                    .collect())),
                count(med(rs
                    .iter()
                    .filter_map(|r| r.nonzeros.map(|v| v as f64))
                    .collect())),
                format!("{}/{}", lp.len(), rs.len()),
                secs(med(rs.iter().filter_map(|r| r.lp_seconds).collect())),
                secs(med(rs.iter().filter_map(|r| r.build_seconds).collect())),
            ]
        })
        .collect();
    Table {
        stem: "battleship_models".into(),
        title: "Battleship: size of both models and their LP relaxations".into(),
        columns: [
            "size",
            "formulation",
            "backend",
            "variables",
            "rows",
            "nonzeros",
            "LP solved",
            "median LP (s)",
            "median build (s)",
        ]
        .map(String::from)
        .to_vec(),
        labels: 3,
        rows: body,
        notes: vec![
            "Medians over the instances of a size. Both models have the objective 0, so the LP bound is 0 whenever the relaxation is feasible; 'LP solved' counts runs whose relaxation was solved to optimality (an infeasible relaxation proves the puzzle infeasible), and the LP time shows how hard each relaxation is.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_that_differ_in_a_setting_are_not_pooled() {
        let run = |formulation: &str, heuristics: Option<&str>| Record {
            puzzle: "battleship".into(),
            instance: "b6".into(),
            size_label: "6x6".into(),
            instance_info: "level=hard".into(),
            formulation: formulation.into(),
            backend: "highs".into(),
            heuristics: heuristics.map(String::from),
            repeat: 1,
            status: "optimal".into(),
            seconds: Some(0.01),
            verified: Some(true),
            ..Record::default()
        };
        let rows = [
            run("gbm", None),
            run("gbm", Some("1")),
            run("cbm", None),
            run("cbm", Some("1")),
        ];
        let t = tables(&rows);
        let backends = |t: &Table, column: usize| -> Vec<String> {
            t.rows.iter().map(|r| r[column].clone()).collect()
        };
        assert_eq!(backends(&t[0], 4), ["highs", "highs-h1"]);
        assert!(t[0].rows.iter().all(|r| r[8] == "1/1" && r[9] == "1/1"));
        assert_eq!(
            backends(&t[1], 2),
            ["highs", "highs-h1", "highs", "highs-h1"]
        );
    }
}
