//! The Hashi tables of the report suite: the report's Table A.4 beside ours, and every
//! formulation with presolve on and off per instance.

use crate::record::Record;
use crate::stats::{median, succeeded};
use crate::table::{cell, info_value, seconds, SizeFigures, Table, NOT_RUN, NO_FIGURE};
use std::collections::{BTreeMap, BTreeSet};

/// Report Table A.4: per board, n (grid side), k (islands), |B| (possible bridges), the
/// number of human-deduced constraints, and the solve times in seconds of model (6.1)
/// without and with them, on Gurobi with presolve off. The boards are from
/// puzzle-bridges.com and are not public.
pub const REPORT_TABLE_A_4: [(u32, u32, u32, u32, f64, f64); 20] = [
    (5, 8, 9, 7, 0.00244, 0.00064),
    (5, 7, 7, 9, 0.00261, 0.00206),
    (5, 11, 14, 20, 0.01229, 0.00203),
    (7, 10, 11, 9, 0.00259, 0.00432),
    (7, 12, 14, 21, 0.01125, 0.00237),
    (7, 13, 15, 15, 0.00842, 0.00237),
    (7, 14, 17, 11, 0.00913, 0.00736),
    (7, 14, 17, 24, 0.00388, 0.00337),
    (10, 20, 24, 21, 0.01082, 0.00995),
    (10, 22, 27, 25, 0.01315, 0.01003),
    (10, 23, 30, 21, 0.01466, 0.03081),
    (10, 25, 34, 26, 0.01138, 0.00949),
    (10, 25, 32, 15, 0.01221, 0.00930),
    (15, 26, 32, 36, 0.00648, 0.00358),
    (15, 29, 35, 41, 0.00748, 0.00959),
    (15, 33, 43, 47, 0.05117, 0.00592),
    (15, 33, 42, 54, 0.01518, 0.00554),
    (25, 63, 84, 62, 0.02206, 0.00852),
    (25, 83, 119, 70, 0.06532, 0.01806),
    (30, 127, 197, 93, 0.20876, 0.08316),
];

/// Instances whose name starts with this prefix make up our Table A.4.
pub const TABLE_A_4_PREFIX: &str = "a4_";

/// (instance, formulation, engine, presolve): the runs of one cell side.
type Key<'a> = (&'a str, &'a str, String, Option<bool>);

/// The engine of a row as these tables name it: its engine label without the presolve
/// setting, which they show in columns of their own (`highs`, `highs-t4`, `highs@node1`
/// where the report keeps machines apart).
fn engine(r: &Record) -> String {
    Record {
        presolve: None,
        ..r.clone()
    }
    .backend_label()
}

/// The runs per (instance, formulation, engine, presolve), every run: the tables show a
/// failure as one.
fn runs<'a>(rows: &[&'a Record]) -> BTreeMap<Key<'a>, Vec<&'a Record>> {
    let mut m: BTreeMap<Key<'a>, Vec<&'a Record>> = BTreeMap::new();
    for &r in rows {
        m.entry((&r.instance, &r.formulation, engine(r), r.presolve))
            .or_default()
            .push(r);
    }
    m
}

/// The runs of `formulation` on `engine` for `instance` with presolve `on`; those of an
/// engine without the setting (presolve not recorded) stand for both sides.
fn side<'m, 'a>(
    runs: &'m BTreeMap<Key<'a>, Vec<&'a Record>>,
    instance: &'a str,
    formulation: &'a str,
    engine: &str,
    on: bool,
) -> &'m [&'a Record] {
    let key = |p| (instance, formulation, engine.to_string(), p);
    runs.get(&key(Some(on)))
        .or_else(|| runs.get(&key(None)))
        .map_or(&[], |v| v.as_slice())
}

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "hashi").collect();
    if rows.is_empty() {
        return vec![];
    }
    vec![table_a_4(&rows), formulations(&rows)]
}

/// Facts of an instance from its rows: grid side label, islands, pairs, hdc fixings
/// (whether hdc ran, and the fixings it recorded).
struct Facts {
    label: String,
    side: u32,
    islands: u32,
    pairs: u32,
    hdc: bool,
    fixings: Option<u64>,
}

impl Facts {
    /// The fixings as a cell: [`NOT_RUN`] where hdc did not run, [`NO_FIGURE`] where its
    /// runs recorded none.
    fn fixings(&self) -> String {
        match (self.hdc, self.fixings) {
            (_, Some(x)) => x.to_string(),
            (false, None) => NOT_RUN.into(),
            (true, None) => NO_FIGURE.into(),
        }
    }
}

fn facts<'a>(rows: &[&'a Record]) -> BTreeMap<&'a str, Facts> {
    let mut out: BTreeMap<&str, Facts> = BTreeMap::new();
    for r in rows {
        let num = |k: &str| {
            info_value(&r.instance_info, k)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        let side = r
            .size_label
            .split('x')
            .filter_map(|v| v.parse::<u32>().ok())
            .max()
            .unwrap_or(0);
        let e = out.entry(&r.instance).or_insert(Facts {
            label: r.size_label.clone(),
            side,
            islands: num("islands"),
            pairs: num("pairs"),
            hdc: false,
            fixings: None,
        });
        if r.formulation == "hdc" {
            e.hdc = true;
            e.fixings = r.fixings.or(e.fixings);
        }
    }
    out
}

/// Where an instance comes in its file: the file part of its name and the line after
/// `:` (0 without one), so that line 10 sorts after line 9.
fn file_order(instance: &str) -> (&str, u32) {
    match instance.rsplit_once(':') {
        Some((file, line)) => (file, line.parse().unwrap_or(0)),
        None => (instance, 0),
    }
}

/// Pairs the report's boards (indices into [`REPORT_TABLE_A_4`]) with ours of the same
/// side n, nearest island count first and each board used once; ties go to the report's
/// board printed first and to ours first in its file. This is the rule by which our boards
/// were picked (instances/hashi/README.md). Returns (report board, our board) with `None`
/// on the side that has no partner.
fn pair_boards<'a>(facts: &BTreeMap<&'a str, Facts>) -> Vec<(Option<usize>, Option<&'a str>)> {
    let mut ours: Vec<(&str, &Facts)> = facts.iter().map(|(i, f)| (*i, f)).collect();
    ours.sort_by_key(|(i, f)| (f.side, f.islands, file_order(i)));
    let mut candidates: Vec<(u32, usize, usize)> = Vec::new();
    for (r, &(n, k, ..)) in REPORT_TABLE_A_4.iter().enumerate() {
        for (o, (_, f)) in ours.iter().enumerate() {
            if f.side == n {
                candidates.push((k.abs_diff(f.islands), r, o));
            }
        }
    }
    candidates.sort();
    let mut report_partner: Vec<Option<usize>> = vec![None; REPORT_TABLE_A_4.len()];
    let mut taken = vec![false; ours.len()];
    for (_, r, o) in candidates {
        if report_partner[r].is_none() && !taken[o] {
            report_partner[r] = Some(o);
            taken[o] = true;
        }
    }
    let mut pairs: Vec<(Option<usize>, Option<&str>)> = report_partner
        .iter()
        .enumerate()
        .map(|(r, o)| (Some(r), o.map(|o| ours[o].0)))
        .collect();
    pairs.extend(
        ours.iter()
            .zip(&taken)
            .filter(|(_, t)| !**t)
            .map(|((i, _), _)| (None, Some(*i))),
    );
    pairs
}

/// "report / ours", with [`NOT_RUN`] for a side that is missing.
fn beside(report: Option<String>, ours: Option<String>) -> String {
    let none = || NOT_RUN.to_string();
    format!(
        "{} / {}",
        report.unwrap_or_else(none),
        ours.unwrap_or_else(none)
    )
}

fn table_a_4(rows: &[&Record]) -> Table {
    let ours: Vec<&Record> = rows
        .iter()
        .copied()
        .filter(|r| r.instance.starts_with(TABLE_A_4_PREFIX))
        .collect();
    let runs = runs(&ours);
    let facts = facts(&ours);
    // (side, island count, report row) → row; ours without a partner after the report's.
    let mut body: Vec<((u32, u32, usize), Vec<String>)> = Vec::new();
    for (report, inst) in pair_boards(&facts) {
        let rep = report.map(|i| REPORT_TABLE_A_4[i]);
        let f = inst.map(|i| &facts[i]);
        let side_n = rep.map_or_else(|| f.map_or(0, |f| f.side), |r| r.0);
        let order = (
            side_n,
            rep.map_or_else(|| f.map_or(0, |f| f.islands), |r| r.1),
            report.unwrap_or(usize::MAX),
        );
        // A row per engine that ran this board with the table's formulations; one row
        // for a report board we have no partner for.
        let engines: BTreeSet<&str> = runs
            .keys()
            .filter(|(i, form, ..)| Some(*i) == inst && ["base", "hdc"].contains(form))
            .map(|(_, _, e, _)| e.as_str())
            .collect();
        let on: Vec<Option<&str>> = match inst {
            Some(_) => engines.into_iter().map(Some).collect(),
            None => vec![None],
        };
        for b in on {
            let t = |form: &'static str, presolve: bool| {
                let (inst, b) = (inst?, b?);
                Some(SizeFigures::of(side(&runs, inst, form, b, presolve)).median_solve())
            };
            let time = |x: f64| Some(seconds(x));
            body.push((
                order,
                vec![
                    side_n.to_string(),
                    inst.unwrap_or(NOT_RUN).to_string(),
                    b.unwrap_or(NOT_RUN).to_string(),
                    beside(
                        rep.map(|r| r.1.to_string()),
                        f.map(|f| f.islands.to_string()),
                    ),
                    beside(rep.map(|r| r.2.to_string()), f.map(|f| f.pairs.to_string())),
                    beside(rep.map(|r| r.3.to_string()), f.map(Facts::fixings)),
                    beside(rep.and_then(|r| time(r.4)), t("base", false)),
                    beside(rep.and_then(|r| time(r.5)), t("hdc", false)),
                    t("base", true).unwrap_or_else(|| NOT_RUN.into()),
                    t("hdc", true).unwrap_or_else(|| NOT_RUN.into()),
                ],
            ));
        }
    }
    body.sort_by_key(|(key, _)| *key);
    Table {
        stem: "hashi_table_a_4".into(),
        title: "Hashi: model (6.1) without and with the human-deduced fixings, beside the report's Table A.4".into(),
        columns: [
            "n",
            "our board",
            "backend",
            "k report / ours",
            "|B| report / ours",
            "fixings report / ours",
            "base report / ours (s)",
            "hdc report / ours (s)",
            "base, presolve on (s)",
            "hdc, presolve on (s)",
        ]
        .map(String::from)
        .to_vec(),
        labels: 3,
        rows: body.into_iter().map(|(_, r)| r).collect(),
        notes: vec![
            "Report Table A.4: boards from puzzle-bridges.com (not public), model (6.1) on Gurobi with presolve off; its column \"Number of HDC\" is given under fixings. Ours: Simon Tatham's Bridges boards of the same sides and similar island counts (instances/hashi/report_range; the 5×5 boards of 8 and 11 islands are from our generator, as Tatham's lays at most 7 on 5×5), presolve off in the base and hdc columns as in the report, and on in the last two.".into(),
            format!("Each row puts one report board beside the one of ours it faces: of the same n, nearest island count first, each board used once; where island counts tie, the report's boards in printed order face ours in file order (our board is named file:line). {NOT_RUN} on one side: no partner."),
            "Our fixings are the variable bounds the deductions (6.2)–(6.11) tighten, each counted once. A pair can take several (x^1 = 1 from one end, x^0 = 0 from the other), so the count can exceed |B|, as it does on some of the report's boards; the report does not say how it counted.".into(),
            "Times are the solver call's wall-clock seconds, median over the repeats that succeeded.".into(),
        ],
    }
}

fn formulations(rows: &[&Record]) -> Table {
    let forms: Vec<&str> = ["base", "hdc", "cuts", "cuts-hdc"]
        .into_iter()
        .filter(|f| rows.iter().any(|r| r.formulation == *f))
        .collect();
    let rows: Vec<&Record> = rows
        .iter()
        .copied()
        .filter(|r| forms.contains(&r.formulation.as_str()))
        .collect();
    let runs = runs(&rows);
    let facts = facts(&rows);
    // A row per instance and engine that ran it, islands first.
    let mut order: Vec<(u32, &str, &str)> = runs
        .keys()
        .map(|(i, _, e, _)| (facts[i].islands, *i, e.as_str()))
        .collect();
    order.sort();
    order.dedup();
    let mut body = Vec::new();
    for (_, inst, b) in order {
        let f = &facts[inst];
        let mut row = vec![
            inst.to_string(),
            f.label.clone(),
            f.islands.to_string(),
            b.to_string(),
        ];
        for form in &forms {
            let t = |p: bool| SizeFigures::of(side(&runs, inst, form, b, p)).median_solve();
            row.push(format!("{} / {}", t(true), t(false)));
        }
        // Rounds and rows of the `cuts` runs that succeeded.
        let loops = |p: bool| {
            let rs = side(&runs, inst, "cuts", b, p);
            let ok: Vec<&&Record> = rs.iter().filter(|r| succeeded(r)).collect();
            let m = |v: Vec<f64>| median(&v).map_or(NO_FIGURE.into(), |x| format!("{x:.0}"));
            let figure = (!ok.is_empty()).then(|| {
                let rounds = ok.iter().filter_map(|r| r.rounds).map(|x| x as f64);
                let cuts = ok.iter().filter_map(|r| r.cuts).map(|x| x as f64);
                format!("{}/{}", m(rounds.collect()), m(cuts.collect()))
            });
            cell(rs.len(), ok.len(), figure)
        };
        row.push(format!("{}; {}", loops(true), loops(false)));
        body.push(row);
    }
    let mut columns: Vec<String> = ["instance", "grid", "islands", "backend"]
        .map(String::from)
        .to_vec();
    columns.extend(forms.iter().map(|f| format!("{f} on / off (s)")));
    columns.push("cuts rounds/rows on; off".into());
    Table {
        stem: "hashi_formulations".into(),
        title: "Hashi: every formulation with presolve on and off".into(),
        columns,
        labels: 4,
        rows: body,
        notes: vec![
            "Each time cell is the median solve seconds of the runs that succeeded, with presolve on / off; a row per instance and engine that ran it. For cuts and cuts-hdc the time is the whole row-generation loop. An engine without presolve (microlp) runs once and shows that run on both sides.".into(),
            "cuts rounds/rows: median solves and connectivity rows added by the cuts formulation, with presolve on; off.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved run of model (6.1) with presolve off on board `instance` of side `n`.
    fn run(instance: &str, n: u32, islands: u32) -> Record {
        Record {
            puzzle: "hashi".into(),
            instance: instance.into(),
            size_label: format!("{n}x{n}"),
            instance_info: format!("islands={islands};pairs={}", 2 * islands),
            formulation: "base".into(),
            backend: "highs".into(),
            presolve: Some(false),
            repeat: 1,
            status: "optimal".into(),
            seconds: Some(0.001),
            verified: Some(true),
            ..Record::default()
        }
    }

    #[test]
    fn each_report_board_faces_one_of_ours_even_where_island_counts_tie() {
        let rows = [
            run("a4_07x07:3", 7, 10),
            run("a4_07x07:4", 7, 12),
            run("a4_07x07:5", 7, 13),
            // Two boards of 14 islands facing the report's two; line 10 after line 9.
            run("a4_07x07:10", 7, 14),
            run("a4_07x07:9", 7, 14),
            // A board with no report partner.
            run("a4_07x07:11", 7, 30),
            run("a4_10x10:3", 10, 25),
            run("a4_10x10:4", 10, 26),
        ];
        let t = &tables(&rows)[0];
        // Every report board once, plus our board without a partner.
        assert_eq!(t.rows.len(), REPORT_TABLE_A_4.len() + 1);
        let facing = |board: &str| -> Vec<&str> {
            let rs: Vec<&Vec<String>> = t.rows.iter().filter(|r| r[1] == board).collect();
            assert_eq!(rs.len(), 1, "{board} in one row");
            rs[0][3..6].iter().map(|c| c.as_str()).collect()
        };
        // The report's 7×7 boards of 14 islands: |B| 17 with 11 and with 24 HDC, in
        // printed order.
        assert_eq!(facing("a4_07x07:9"), ["14 / 14", "17 / 28", "11 / –"]);
        assert_eq!(facing("a4_07x07:10"), ["14 / 14", "17 / 28", "24 / –"]);
        assert_eq!(facing("a4_07x07:3"), ["10 / 10", "11 / 20", "9 / –"]);
        assert_eq!(facing("a4_07x07:11"), ["– / 30", "– / 60", "– / –"]);
        // The report's 10×10 boards of 25 islands: the first faces our 25, the second 26.
        assert_eq!(facing("a4_10x10:3"), ["25 / 25", "34 / 50", "26 / –"]);
        assert_eq!(facing("a4_10x10:4"), ["25 / 26", "32 / 52", "15 / –"]);
        let ours = t.rows.iter().find(|r| r[1] == "a4_10x10:3").unwrap();
        assert_eq!(ours[6], "0.0114 / 0.00100");
    }

    #[test]
    fn rows_only_for_what_ran_with_failures_apart_from_runs_not_made() {
        let failed = Record {
            formulation: "hdc".into(),
            presolve: Some(true),
            status: "time_limit".into(),
            seconds: Some(10.0),
            time_limit: Some(10.0),
            verified: None,
            ..run("a4_07x07:3", 7, 10)
        };
        // Threads are a setting: a row of their own, not pooled with the usual highs.
        let threads = Record {
            threads: Some(4),
            seconds: Some(0.002),
            ..run("a4_07x07:3", 7, 10)
        };
        let rows = [
            run("a4_07x07:3", 7, 10),
            failed,
            threads,
            Record {
                backend: "cbc".into(),
                ..run("a4_07x07:4", 7, 12)
            },
        ];
        let t = &tables(&rows)[1];
        let cells: Vec<Vec<&str>> = t
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.as_str()).collect())
            .collect();
        assert_eq!(
            cells,
            [
                [
                    "a4_07x07:3",
                    "7x7",
                    "10",
                    "highs",
                    "– / 0.00100",
                    "✗ / –",
                    "–; –"
                ],
                [
                    "a4_07x07:3",
                    "7x7",
                    "10",
                    "highs-t4",
                    "– / 0.00200",
                    "– / –",
                    "–; –"
                ],
                [
                    "a4_07x07:4",
                    "7x7",
                    "12",
                    "cbc",
                    "– / 0.00100",
                    "– / –",
                    "–; –"
                ],
            ]
        );
        let a4 = &tables(&rows)[0];
        let ours: Vec<(&str, &str, &str)> = a4
            .rows
            .iter()
            .filter(|r| r[1].starts_with("a4_"))
            .map(|r| (r[1].as_str(), r[2].as_str(), r[9].as_str()))
            .collect();
        assert_eq!(
            ours,
            [
                ("a4_07x07:3", "highs", "✗"),
                ("a4_07x07:3", "highs-t4", "–"),
                ("a4_07x07:4", "cbc", "–")
            ]
        );
    }

    #[test]
    fn machines_kept_apart_get_rows_of_their_own() {
        let on = |machine: &str, seconds: f64| Record {
            machine_label: Some(machine.into()),
            seconds: Some(seconds),
            ..run("a4_07x07:3", 7, 10)
        };
        let rows = [on("fast", 0.001), on("slow", 0.004)];
        for t in tables(&rows) {
            let column = t.columns.iter().position(|c| c == "backend").unwrap();
            let mine: Vec<(&str, &str)> = t
                .rows
                .iter()
                .filter(|r| r.iter().any(|c| c == "a4_07x07:3"))
                .map(|r| (r[column].as_str(), r[column + 1].as_str()))
                .collect();
            assert_eq!(mine.len(), 2, "{}: {:?}", t.stem, t.rows);
            assert_eq!(mine[0].0, "highs@fast", "{}", t.stem);
            assert_eq!(mine[1].0, "highs@slow", "{}", t.stem);
        }
        let f = &tables(&rows)[1];
        let times: Vec<&str> = f.rows.iter().map(|r| r[4].as_str()).collect();
        assert_eq!(times, ["– / 0.00100", "– / 0.00400"]);
    }
}
