//! The Circuit Board tables of the report suite: Tables A.1 (CM1) and A.2 (CM2) of the
//! report, board by board beside ours; Table A.3 (LP relaxations of CM1 and CM2 and
//! their ratio) per grid size beside ours; and a table of every formulation by grid size
//! (the scaling beyond the report, the row-generation variant and CM3).

use crate::record::Record;
use crate::stats::{charged_seconds, median, succeeded};
use crate::table::{info_value, secs, Table, FAILED, NOT_RUN, NO_FIGURE};
use std::collections::BTreeMap;

/// Report Table A.1, CM1 with Gurobi and lazy constraints: |V|, |E|, best upper bound,
/// best lower bound, optimality gap (%), seconds; five boards per size 3×3 … 10×10.
pub const REPORT_TABLE_A_1: [(u32, u32, f64, f64, f64, f64); 40] = [
    (4, 3, 3.0, 3.0, 0.0, 0.000),
    (4, 3, 3.0, 3.0, 0.0, 0.000),
    (6, 7, 5.0, 5.0, 0.0, 0.016),
    (6, 6, 5.0, 5.0, 0.0, 0.000),
    (8, 9, 7.0, 7.0, 0.0, 0.000),
    (10, 12, 9.0, 9.0, 0.0, 0.006),
    (12, 16, 11.0, 11.0, 0.0, 0.000),
    (12, 15, 11.0, 11.0, 0.0, 0.016),
    (14, 20, 13.0, 13.0, 0.0, 0.000),
    (14, 20, 13.0, 13.0, 0.0, 0.016),
    (20, 30, 19.0, 19.0, 0.0, 0.000),
    (20, 30, 19.0, 19.0, 0.0, 0.000),
    (22, 34, 21.0, 21.0, 0.0, 0.000),
    (22, 34, 21.0, 21.0, 0.0, 0.000),
    (22, 34, 21.0, 21.0, 0.0, 0.006),
    (30, 49, 29.0, 29.0, 0.0, 0.032),
    (30, 48, 29.0, 29.0, 0.0, 0.031),
    (32, 51, 31.0, 31.0, 0.0, 0.041),
    (34, 56, 33.0, 33.0, 0.0, 0.047),
    (34, 53, 33.0, 33.0, 0.0, 0.031),
    (42, 71, 41.0, 41.0, 0.0, 0.071),
    (42, 67, 41.0, 41.0, 0.0, 0.095),
    (44, 70, 43.0, 43.0, 0.0, 0.104),
    (46, 78, 45.0, 45.0, 0.0, 0.098),
    (48, 81, 47.0, 47.0, 0.0, 0.158),
    (58, 94, 57.0, 57.0, 0.0, 0.379),
    (58, 96, 57.0, 57.0, 0.0, 0.251),
    (62, 108, 61.0, 61.0, 0.0, 0.419),
    (62, 108, 61.0, 61.0, 0.0, 0.648),
    (62, 105, 61.0, 61.0, 0.0, 0.472),
    (76, 127, 75.0, 75.0, 0.0, 1.631),
    (76, 134, 75.0, 75.0, 0.0, 1.489),
    (78, 138, 77.0, 77.0, 0.0, 1.040),
    (78, 134, 77.0, 77.0, 0.0, 3.733),
    (78, 135, 77.0, 77.0, 0.0, 0.917),
    (94, 168, 93.0, 93.0, 0.0, 2.199),
    (94, 164, 93.0, 93.0, 0.0, 4.164),
    (96, 171, 95.0, 95.0, 0.0, 4.342),
    (98, 176, 97.0, 97.0, 0.0, 10.957),
    (98, 173, 97.0, 97.0, 0.0, 4.750),
];

/// Report Table A.2, CM2 with Gurobi, 1800 s limit: the same boards and columns. (The
/// printed row 78/135 has a lower bound of 79 above its upper bound 77 and a gap of
/// 11.69 %; it is copied as printed.)
pub const REPORT_TABLE_A_2: [(u32, u32, f64, f64, f64, f64); 40] = [
    (4, 3, 3.0, 3.0, 0.0, 0.000),
    (4, 3, 3.0, 3.0, 0.0, 0.000),
    (6, 7, 5.0, 5.0, 0.0, 0.000),
    (6, 6, 5.0, 5.0, 0.0, 0.000),
    (8, 9, 7.0, 7.0, 0.0, 0.000),
    (10, 12, 9.0, 9.0, 0.0, 0.016),
    (12, 16, 11.0, 11.0, 0.0, 0.016),
    (12, 15, 11.0, 11.0, 0.0, 0.000),
    (14, 20, 13.0, 13.0, 0.0, 0.016),
    (14, 20, 13.0, 13.0, 0.0, 0.000),
    (20, 30, 19.0, 19.0, 0.0, 0.047),
    (20, 30, 19.0, 19.0, 0.0, 0.016),
    (22, 34, 21.0, 21.0, 0.0, 0.080),
    (22, 34, 21.0, 21.0, 0.0, 0.126),
    (22, 34, 21.0, 21.0, 0.0, 0.132),
    (30, 49, 29.0, 29.0, 0.0, 0.235),
    (30, 48, 29.0, 29.0, 0.0, 0.189),
    (32, 51, 31.0, 31.0, 0.0, 0.251),
    (34, 56, 33.0, 33.0, 0.0, 0.691),
    (34, 53, 33.0, 33.0, 0.0, 0.142),
    (42, 71, 41.0, 41.0, 0.0, 14.106),
    (42, 67, 41.0, 41.0, 0.0, 1.058),
    (44, 70, 43.0, 43.0, 0.0, 0.646),
    (46, 78, 45.0, 45.0, 0.0, 54.991),
    (48, 81, 47.0, 47.0, 0.0, 61.646),
    (58, 94, 57.0, 57.0, 0.0, 9.072),
    (58, 96, 57.0, 57.0, 0.0, 359.293),
    (62, 108, 61.0, 56.0, 8.20, 1800.0),
    (62, 108, 61.0, 56.0, 6.56, 1800.0),
    (62, 105, 61.0, 58.0, 4.92, 1800.0),
    (76, 127, 75.0, 69.0, 6.67, 1800.0),
    (76, 134, 75.0, 66.0, 12.00, 1800.0),
    (78, 138, 77.0, 67.0, 12.99, 1800.0),
    (78, 134, 77.0, 69.0, 10.39, 1800.0),
    (78, 135, 77.0, 79.0, 11.69, 1800.0),
    (94, 168, 93.0, 77.0, 16.13, 1800.0),
    (94, 164, 93.0, 78.0, 16.13, 1800.0),
    (96, 171, 95.0, 80.0, 15.79, 1800.0),
    (98, 176, 97.0, 80.0, 16.49, 1800.0),
    (98, 173, 97.0, 81.0, 16.49, 1800.0),
];

/// Report Table A.3: |V|, |E|, z*_CM1, z*_CM2 and their ratio for one board per size.
pub const REPORT_TABLE_A_3: [(u32, u32, f64, f64, f64); 8] = [
    (6, 7, 5.000, 3.020, 0.604),
    (14, 20, 13.000, 8.000, 0.615),
    (22, 34, 21.000, 12.000, 0.571),
    (34, 56, 33.000, 17.020, 0.516),
    (42, 71, 41.000, 21.010, 0.512),
    (62, 108, 61.000, 31.010, 0.508),
    (76, 134, 75.000, 39.000, 0.520),
    (98, 176, 97.000, 49.480, 0.510),
];

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "circuit").collect();
    if rows.is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    for (f, stem, report, what) in [
        (
            "cm1",
            "circuit_table_a_1",
            &REPORT_TABLE_A_1,
            "CM1 (spanning tree, lazy subtour rows)",
        ),
        (
            "cm2",
            "circuit_table_a_2",
            &REPORT_TABLE_A_2,
            "CM2 (single-commodity flow)",
        ),
    ] {
        if rows
            .iter()
            .any(|r| r.formulation == f && side(&r.size_label) <= 10)
        {
            out.push(board_table(&rows, f, stem, report, what));
        }
    }
    if rows
        .iter()
        .any(|r| r.formulation == "cm2" && r.lp_bound.is_some())
    {
        out.push(table_a_3(&rows));
    }
    out.push(by_size(&rows));
    out
}

/// The side of a square size label `KxK` (its row count), for ordering.
fn side(label: &str) -> u32 {
    label
        .split_once('x')
        .and_then(|(a, _)| a.parse().ok())
        .unwrap_or(u32::MAX)
}

/// A number from the instance info, or 0.
fn info_num(r: &Record, key: &str) -> u32 {
    info_value(&r.instance_info, key)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Marks an upper bound taken from an incumbent the verifier refused.
const REFUSED: &str = "†";
/// Marks an upper bound taken from an incumbent the verifier did not check.
const UNCHECKED: &str = "‡";
/// Marks a row of the report printed with its lower bound above its upper bound.
const AS_PRINTED: &str = "§";

/// Upper bound, lower bound, gap (%), median seconds (charged at the limit for runs that
/// did not solve, marked ≥) over the runs of one board. The upper bound is the best
/// objective of a solution the verifier accepted; without one, that of an incumbent it
/// refused (marked †) or did not check (‡, rows from before limited runs were checked),
/// and the gap measured from it carries the same mark; with no incumbent at all, the runs
/// failed ([`FAILED`]). A bound no run proved, and a gap without both, are [`NO_FIGURE`].
fn figures(rs: &[&Record]) -> [String; 4] {
    let best = |verdict: Option<bool>| {
        rs.iter()
            .filter(|r| r.verified == verdict)
            .filter_map(|r| r.objective)
            .fold(f64::INFINITY, f64::min)
    };
    let (ub, mark) = [(Some(true), ""), (Some(false), REFUSED), (None, UNCHECKED)]
        .into_iter()
        .map(|(verdict, mark)| (best(verdict), mark))
        .find(|(ub, _)| ub.is_finite())
        .unwrap_or((f64::INFINITY, ""));
    let lb = rs
        .iter()
        .filter_map(|r| r.best_bound)
        .fold(f64::NEG_INFINITY, f64::max);
    let num = |x: f64| {
        if x.is_finite() {
            format!("{x:.0}")
        } else {
            NO_FIGURE.into()
        }
    };
    let gap = if ub.is_finite() && lb.is_finite() {
        format!("{:.2}{mark}", 100.0 * (ub - lb).abs() / ub.abs().max(1e-10))
    } else {
        NO_FIGURE.into()
    };
    let ub = if ub.is_finite() {
        format!("{ub:.0}{mark}")
    } else {
        FAILED.into()
    };
    let t: Vec<f64> = rs.iter().map(|r| charged_seconds(r)).collect();
    let solved = rs.iter().filter(|r| succeeded(r)).count();
    let mut time = secs(median(&t));
    if 2 * solved < rs.len() {
        time = format!("≥{time}");
    }
    [ub, num(lb), gap, time]
}

/// Tables A.1 / A.2: our boards of 3×3 … 10×10, in order of size, points and links, the
/// k-th board of a size beside the report's k-th (ours have the same point counts).
fn board_table(
    rows: &[&Record],
    formulation: &str,
    stem: &str,
    report: &[(u32, u32, f64, f64, f64, f64); 40],
    what: &str,
) -> Table {
    type Key<'a> = (String, u32, u32, u32, &'a str);
    let mut boards: BTreeMap<Key<'_>, Vec<&Record>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.formulation == formulation && side(&r.size_label) <= 10)
    {
        boards
            .entry((
                r.backend_label(),
                side(&r.size_label),
                info_num(r, "points"),
                info_num(r, "links"),
                &r.instance,
            ))
            .or_default()
            .push(r);
    }
    let mut body = Vec::new();
    let mut index: BTreeMap<(&str, u32), usize> = BTreeMap::new();
    for ((backend, side, points, links, _), rs) in &boards {
        let k = index.entry((backend.as_str(), *side)).or_default();
        let rep = (*side >= 3)
            .then(|| report.get(5 * (*side as usize - 3) + *k))
            .flatten();
        *k += 1;
        let [ub, lb, gap, time] = figures(rs);
        let pair = |ours: u32, theirs: Option<u32>| match theirs {
            Some(t) => format!("{t} / {ours}"),
            None => format!("{NOT_RUN} / {ours}"),
        };
        body.push(vec![
            format!("{side}x{side}"),
            pair(*points, rep.map(|r| r.0)),
            pair(*links, rep.map(|r| r.1)),
            rep.map_or(NOT_RUN.into(), |r| format!("{:.0}", r.2)),
            rep.map_or(NOT_RUN.into(), |r| {
                let mark = if r.3 > r.2 { AS_PRINTED } else { "" };
                format!("{:.0}{mark}", r.3)
            }),
            rep.map_or(NOT_RUN.into(), |r| format!("{:.2}", r.4)),
            rep.map_or(NOT_RUN.into(), |r| format!("{:.3}", r.5)),
            backend.to_string(),
            ub,
            lb,
            gap,
            time,
        ]);
    }
    let table = if formulation == "cm1" { "A.1" } else { "A.2" };
    let mut notes = vec![
        format!("Report Table {table}: five boards per size designed by the report's authors, Gurobi, 1800 s limit. Those boards are not published; ours are generated with the same point counts (instances/circuit/README.md), so the k-th board of a size faces the report's k-th. |E| is the number of possible links."),
        "UB: best objective (number of links) of a solution the puzzle's verifier accepted; LB: best proven bound; gap = (UB − LB)/UB. Time: median over the repeats; ≥ marks runs stopped at the time limit, with their bound and gap. The report's times are copied as printed, to the millisecond (0.000: under half a millisecond).".into(),
    ];
    let marked =
        |column: usize, mark: &str| body.iter().any(|r: &Vec<String>| r[column].ends_with(mark));
    if marked(4, AS_PRINTED) {
        notes.push(format!("{AS_PRINTED} Printed so in the report: the lower bound is above the upper bound. Copied as printed, not corrected."));
    }
    if marked(8, REFUSED) {
        notes.push(format!("{REFUSED} Objective of an incumbent the verifier refused (not a tree: CM2 allows cycles, and an incumbent held at the time limit can have more than |V| − 1 links; the reason is in the CSV's error column): not a solution, so not an upper bound of the puzzle's. The gap beside it is measured from it."));
    }
    if marked(8, UNCHECKED) {
        notes.push(format!("{UNCHECKED} Objective of an incumbent the verifier did not check (rows recorded before time-limited incumbents were checked): not shown as a plain upper bound, since it may not be a tree. The gap beside it is measured from it."));
    }
    if formulation == "cm1" {
        notes.push("Our cm1 is a branch and cut written in the project on HiGHS's simplex (lazy subtour rows, row and tree propagation, probing at every node); the report's used Gurobi's lazy-constraint callback. See the README, Circuit Board.".into());
    }
    Table {
        stem: stem.into(),
        title: format!("Circuit Board: {what} beside the report's Table {table}"),
        columns: [
            "size",
            "|V| report / ours",
            "|E| report / ours",
            "report UB",
            "report LB",
            "report gap (%)",
            "report time (s)",
            "backend",
            "UB",
            "LB",
            "gap (%)",
            "time (s)",
        ]
        .map(String::from)
        .to_vec(),
        labels: 1,
        rows: body,
        notes,
    }
}

/// The LP figures of one board: z*_CM1, z*_CM2 (when solved) and its points.
#[derive(Clone, Copy, Default)]
struct Relaxations {
    cm1: Option<f64>,
    cm2: Option<f64>,
    points: u32,
}

/// The LP solver of a row: what its engine solves LP relaxations with (the part of the
/// solver version after " on ", for an engine on another's LP: `bc` on HiGHS), without
/// what the version adds in brackets (Gurobi's interface and licence: the table's note
/// names them).
fn lp_solver(r: &Record) -> &str {
    let lp = r
        .solver_version
        .split_once(" on ")
        .map_or(r.solver_version.as_str(), |(_, lp)| lp);
    lp.split_once(" (").map_or(lp, |(name, _)| name)
}

/// Table A.3: LP relaxations of CM1 and CM2 per size, beside the report's. The two
/// relaxations of a board are paired by LP solver, since CM1 runs on an engine of its own
/// (`bc`) whose LPs are HiGHS's, as CM2's are on `highs`.
fn table_a_3(rows: &[&Record]) -> Table {
    // Keyed by LP solver with the machine where the report keeps machines apart.
    let mut lp: BTreeMap<(String, u32, &str), Relaxations> = BTreeMap::new();
    for r in rows.iter().filter(|r| side(&r.size_label) <= 10) {
        let solver = format!("{}{}", lp_solver(r), r.machine_suffix());
        let e = lp
            .entry((solver, side(&r.size_label), &r.instance))
            .or_default();
        e.points = info_num(r, "points");
        match r.formulation.as_str() {
            "cm1" => e.cm1 = e.cm1.or(r.lp_bound),
            "cm2" => e.cm2 = e.cm2.or(r.lp_bound),
            _ => {}
        }
    }
    // Per (engine, size): (z*_CM1, z*_CM2, points) of every board with both.
    let mut per_size: BTreeMap<(String, u32), Vec<[f64; 3]>> = BTreeMap::new();
    for ((backend, side, _), b) in lp {
        if let (Some(z1), Some(z2)) = (b.cm1, b.cm2) {
            per_size
                .entry((backend, side))
                .or_default()
                .push([z1, z2, b.points as f64]);
        }
    }
    let mut body = Vec::new();
    for ((backend, side), boards) in per_size {
        let rep = (side >= 3)
            .then(|| REPORT_TABLE_A_3.get(side as usize - 3))
            .flatten();
        let med = |k: usize| median(&boards.iter().map(|b| b[k]).collect::<Vec<_>>());
        let ratios: Vec<f64> = boards
            .iter()
            .filter(|b| b[0] > 0.0)
            .map(|b| b[1] / b[0])
            .collect();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &r| {
                (a.min(r), b.max(r))
            });
        body.push(vec![
            format!("{side}x{side}"),
            rep.map_or(NOT_RUN.into(), |r| format!("{} / {}", r.0, r.1)),
            rep.map_or(NOT_RUN.into(), |r| format!("{:.3}", r.2)),
            rep.map_or(NOT_RUN.into(), |r| format!("{:.3}", r.3)),
            rep.map_or(NOT_RUN.into(), |r| format!("{:.3}", r.4)),
            backend.to_string(),
            boards.len().to_string(),
            med(2).map_or(NO_FIGURE.into(), |v| format!("{v:.0}")),
            med(0).map_or(NO_FIGURE.into(), |v| format!("{v:.3}")),
            med(1).map_or(NO_FIGURE.into(), |v| format!("{v:.3}")),
            median(&ratios).map_or(NO_FIGURE.into(), |v| format!("{v:.3}")),
            if ratios.is_empty() {
                NO_FIGURE.into()
            } else {
                format!("{lo:.3}–{hi:.3}")
            },
        ]);
    }
    Table {
        stem: "circuit_table_a_3".into(),
        title: "Circuit Board: LP relaxations of CM1 and CM2 beside the report's Table A.3".into(),
        columns: [
            "size",
            "report |V| / |E|",
            "report z*CM1",
            "report z*CM2",
            "report ratio",
            "LP solver",
            "boards",
            "median |V|",
            "median z*CM1",
            "median z*CM2",
            "median ratio",
            "ratio range",
        ]
        .map(String::from)
        .to_vec(),
        labels: 1,
        rows: body,
        notes: vec![
            "z*: optimum of the LP relaxation of the model as built (CM1 without any subtour row; (5.1d) fixes it at |V| − 1). The report gives one board per size; ours are the medians over the five boards of Table A.1 and their range.".into(),
        ],
    }
}

/// Every formulation by size: boards, runs, solved, median time, nodes, cut rounds, rows.
fn by_size(rows: &[&Record]) -> Table {
    type Key<'a> = (u32, &'a str, &'a str, String);
    let mut groups: BTreeMap<Key<'_>, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((
                side(&r.size_label),
                &r.size_label,
                &r.formulation,
                r.backend_label(),
            ))
            .or_default()
            .push(r);
    }
    let med_u = |rs: &[&Record], f: fn(&Record) -> Option<u64>| {
        median(
            &rs.iter()
                .filter_map(|r| f(r).map(|v| v as f64))
                .collect::<Vec<_>>(),
        )
        .map_or(NO_FIGURE.into(), |v| format!("{v:.0}"))
    };
    let body = groups
        .into_iter()
        .map(|((_, size, f, b), rs)| {
            let boards: std::collections::BTreeSet<&str> =
                rs.iter().map(|r| r.instance.as_str()).collect();
            let t: Vec<f64> = rs.iter().map(|r| charged_seconds(r)).collect();
            let solved = rs.iter().filter(|r| succeeded(r)).count();
            let max = t.iter().cloned().fold(0.0f64, f64::max);
            vec![
                size.to_string(),
                f.to_string(),
                b,
                boards.len().to_string(),
                format!("{solved}/{}", rs.len()),
                secs(median(&t)),
                secs(Some(max)),
                med_u(&rs, |r| r.nodes),
                med_u(&rs, |r| r.rounds),
                med_u(&rs, |r| r.cuts),
            ]
        })
        .collect();
    Table {
        stem: "circuit_by_size".into(),
        title: "Circuit Board: every formulation by grid size".into(),
        columns: [
            "size",
            "formulation",
            "backend",
            "boards",
            "solved",
            "median (s)",
            "max (s)",
            "median nodes",
            "median rounds",
            "median rows added",
        ]
        .map(String::from)
        .to_vec(),
        labels: 3,
        rows: body,
        notes: vec![
            "Times count unsolved runs at their limit. rounds: LP solves after which rows were added (cm1, cm3) or integer solves (cm1-rowgen); rows added: subtour rows (and s–t cut rows for cm3). 12×12, 15×15 and 20×20 are beyond the report.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run on board `instance` of side `side` with `points` points.
    fn run(instance: &str, side: u32, points: u32, formulation: &str) -> Record {
        Record {
            puzzle: "circuit".into(),
            instance: instance.into(),
            size_label: format!("{side}x{side}"),
            instance_info: format!("points={points};links={}", 2 * points),
            formulation: formulation.into(),
            backend: "highs".into(),
            repeat: 1,
            status: "optimal".into(),
            seconds: Some(0.5),
            objective: Some(points as f64 - 1.0),
            best_bound: Some(points as f64 - 1.0),
            verified: Some(true),
            ..Record::default()
        }
    }

    /// A run stopped at the time limit with an incumbent of `objective` links.
    fn limited(mut r: Record, objective: f64, verified: Option<bool>) -> Record {
        r.status = "time_limit".into();
        r.time_limit = Some(2.0);
        r.seconds = Some(2.0);
        r.objective = Some(objective);
        r.best_bound = Some(46.0);
        r.verified = verified;
        r
    }

    /// The five 9×9 boards of the report's Table A.2 (76, 76, 78, 78, 78 points).
    fn nine_by_nine(formulation: &str) -> Vec<Record> {
        [76, 76, 78, 78, 78]
            .iter()
            .enumerate()
            .map(|(k, &p)| run(&format!("c9x9_{}", k + 1), 9, p, formulation))
            .collect()
    }

    fn table(rows: &[Record], stem: &str) -> Table {
        tables(rows).into_iter().find(|t| t.stem == stem).unwrap()
    }

    #[test]
    fn a_refused_incumbent_is_marked_not_shown_as_an_upper_bound() {
        let mut rows = nine_by_nine("cm2");
        rows[0] = limited(rows[0].clone(), 79.0, Some(false));
        // Board 2: one repeat refused, one accepted: the accepted one is the UB.
        let mut accepted = rows[1].clone();
        accepted.repeat = 2;
        rows[1] = limited(rows[1].clone(), 81.0, Some(false));
        rows.push(accepted);
        rows[2] = limited(rows[2].clone(), 79.0, None);
        let t = table(&rows, "circuit_table_a_2");
        assert_eq!(t.rows[0][8], "79†");
        assert_eq!(t.rows[0][10], "41.77†");
        assert_eq!(t.rows[1][8], "75");
        assert_eq!(t.rows[2][8], "79‡");
        assert_eq!(t.rows[3][8], "77");
        assert!(t.notes.iter().any(|n| n.starts_with("† ")
            && n.contains("verifier refused")
            && n.contains("not an upper bound")));
        assert!(t.notes.iter().any(|n| n.starts_with("‡ ")));
        assert!(t.to_latex().contains("79\\textdagger{}"));
        // Without refused or unchecked incumbents there is no mark and no note for them.
        let t = table(&nine_by_nine("cm2"), "circuit_table_a_2");
        assert!(t.rows.iter().all(|r| !r[8].contains(['†', '‡'])));
        assert!(!t.notes.iter().any(|n| n.starts_with(['†', '‡'])));
    }

    #[test]
    fn the_reports_lower_bound_above_its_upper_bound_carries_a_footnote() {
        let t = table(&nine_by_nine("cm2"), "circuit_table_a_2");
        let last = t.rows.last().unwrap();
        assert_eq!(
            (last[1].as_str(), last[2].as_str()),
            ("78 / 78", "135 / 156")
        );
        assert_eq!((last[3].as_str(), last[4].as_str()), ("77", "79§"));
        let marked: Vec<_> = t.rows.iter().filter(|r| r[4].contains('§')).collect();
        assert_eq!(marked.len(), 1);
        assert!(t
            .notes
            .iter()
            .any(|n| n.starts_with("§ Printed so in the report")));
        let a1 = table(&nine_by_nine("cm1"), "circuit_table_a_1");
        assert!(a1.rows.iter().all(|r| !r[4].contains('§')));
        assert!(!a1.notes.iter().any(|n| n.starts_with('§')));
    }

    #[test]
    fn the_branch_and_cut_note_is_under_table_a_1_only() {
        let mut rows = nine_by_nine("cm1");
        rows.extend(nine_by_nine("cm2"));
        let bc = |t: &Table| t.notes.iter().any(|n| n.contains("branch and cut"));
        assert!(bc(&table(&rows, "circuit_table_a_1")));
        assert!(!bc(&table(&rows, "circuit_table_a_2")));
    }

    #[test]
    fn runs_that_differ_in_a_setting_are_not_pooled() {
        let mut rows = nine_by_nine("cm2");
        let mut other = rows[0].clone();
        other.heuristics = Some("1".into());
        other.objective = Some(77.0);
        rows.push(other);
        let t = table(&rows, "circuit_table_a_2");
        let first: Vec<_> = t.rows.iter().filter(|r| r[2] == "127 / 152").collect();
        assert_eq!(first.len(), 2, "{:?}", t.rows);
        assert_eq!(first[0][7], "highs");
        assert_eq!(first[1][7], "highs-h1");
        let by_size = table(&rows, "circuit_by_size");
        let backends: Vec<&str> = by_size.rows.iter().map(|r| r[2].as_str()).collect();
        assert_eq!(backends, ["highs", "highs-h1"]);
    }
}
