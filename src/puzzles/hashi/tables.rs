//! The Hashi tables of the report suite: the report's Table A.4 beside ours, and every
//! formulation with presolve on and off per instance.

use crate::record::Record;
use crate::stats::{median, succeeded};
use crate::table::{info_value, secs, Table};
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

type Key<'a> = (&'a str, &'a str, String, Option<bool>);

/// Median seconds per (instance, formulation, engine, presolve) over repeats, successful
/// runs only. The engine is the engine with its machine where the report keeps machines
/// apart ([`Record::backend_at_machine`]); presolve is a column of the tables.
fn medians<'a>(rows: &[&'a Record]) -> BTreeMap<Key<'a>, f64> {
    let mut m: BTreeMap<Key<'a>, Vec<f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| succeeded(r)) {
        if let Some(t) = r.seconds {
            m.entry((
                &r.instance,
                &r.formulation,
                r.backend_at_machine(),
                r.presolve,
            ))
            .or_default()
            .push(t);
        }
    }
    m.into_iter()
        .filter_map(|(k, v)| median(&v).map(|x| (k, x)))
        .collect()
}

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "hashi").collect();
    if rows.is_empty() {
        return vec![];
    }
    vec![table_a_4(&rows), formulations(&rows)]
}

/// Facts of an instance from its rows: grid side label, islands, pairs, hdc fixings.
struct Facts {
    label: String,
    side: u32,
    islands: u32,
    pairs: u32,
    fixings: Option<u64>,
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
            fixings: None,
        });
        if r.formulation == "hdc" && r.fixings.is_some() {
            e.fixings = r.fixings;
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

/// "report / ours", with – for a side that is missing.
fn beside(report: Option<String>, ours: Option<String>) -> String {
    let dash = || "–".to_string();
    format!(
        "{} / {}",
        report.unwrap_or_else(dash),
        ours.unwrap_or_else(dash)
    )
}

fn table_a_4(rows: &[&Record]) -> Table {
    let ours: Vec<&Record> = rows
        .iter()
        .copied()
        .filter(|r| r.instance.starts_with(TABLE_A_4_PREFIX))
        .collect();
    let med = medians(&ours);
    let facts = facts(&ours);
    let backends: BTreeSet<String> = ours.iter().map(|r| r.backend_at_machine()).collect();
    // (side, island count, report row) → row; ours without a partner after the report's.
    let mut body: Vec<((u32, u32, usize), Vec<String>)> = Vec::new();
    for (report, inst) in pair_boards(&facts) {
        let rep = report.map(|i| REPORT_TABLE_A_4[i]);
        let f = inst.map(|i| &facts[i]);
        let side = rep.map_or_else(|| f.map_or(0, |f| f.side), |r| r.0);
        let order = (
            side,
            rep.map_or_else(|| f.map_or(0, |f| f.islands), |r| r.1),
            report.unwrap_or(usize::MAX),
        );
        let on: Vec<Option<&str>> = match inst {
            Some(_) => backends.iter().map(|b| Some(b.as_str())).collect(),
            None => vec![None],
        };
        for b in on {
            let t = |form: &str, presolve: bool| {
                let (inst, b) = (inst?, b?.to_string());
                med.get(&(inst, form, b.clone(), Some(presolve)))
                    .or_else(|| med.get(&(inst, form, b, None)))
                    .copied()
            };
            let time = |x: Option<f64>| x.map(|x| secs(Some(x)));
            body.push((
                order,
                vec![
                    side.to_string(),
                    inst.unwrap_or("–").to_string(),
                    b.unwrap_or("–").to_string(),
                    beside(
                        rep.map(|r| r.1.to_string()),
                        f.map(|f| f.islands.to_string()),
                    ),
                    beside(rep.map(|r| r.2.to_string()), f.map(|f| f.pairs.to_string())),
                    beside(
                        rep.map(|r| r.3.to_string()),
                        f.and_then(|f| f.fixings).map(|x| x.to_string()),
                    ),
                    beside(rep.and_then(|r| time(Some(r.4))), time(t("base", false))),
                    beside(rep.and_then(|r| time(Some(r.5))), time(t("hdc", false))),
                    secs(t("base", true)),
                    secs(t("hdc", true)),
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
        rows: body.into_iter().map(|(_, r)| r).collect(),
        notes: vec![
            "Report Table A.4: boards from puzzle-bridges.com (not public), model (6.1) on Gurobi with presolve off; its column \"Number of HDC\" is given under fixings. Ours: Simon Tatham's Bridges boards of the same sides and similar island counts (instances/hashi/report_range; the 5×5 boards of 8 and 11 islands are from our generator, as Tatham's lays at most 7 on 5×5), presolve off in the base and hdc columns as in the report, and on in the last two.".into(),
            "Each row puts one report board beside the one of ours it faces: of the same n, nearest island count first, each board used once; where island counts tie, the report's boards in printed order face ours in file order (our board is named file:line). – on one side: no partner.".into(),
            "Our fixings are the variable bounds the deductions (6.2)–(6.11) tighten, each counted once. A pair can take several (x^1 = 1 from one end, x^0 = 0 from the other), so the count can exceed |B|, as it does on some of the report's boards; the report does not say how it counted.".into(),
            "Times are the solver call's wall-clock seconds, median over repeats; – means no successful run.".into(),
        ],
    }
}

fn formulations(rows: &[&Record]) -> Table {
    let med = medians(rows);
    let facts = facts(rows);
    let forms: Vec<&str> = ["base", "hdc", "cuts", "cuts-hdc"]
        .into_iter()
        .filter(|f| rows.iter().any(|r| r.formulation == *f))
        .collect();
    let backends: BTreeSet<String> = rows.iter().map(|r| r.backend_at_machine()).collect();
    // (instance, engine, presolve) → rounds and rows of the successful `cuts` runs.
    type Loops = (Vec<f64>, Vec<f64>);
    let mut rounds: BTreeMap<(&str, String, Option<bool>), Loops> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| succeeded(r) && r.formulation == "cuts")
    {
        let e = rounds
            .entry((&r.instance, r.backend_at_machine(), r.presolve))
            .or_default();
        e.0.extend(r.rounds.map(|x| x as f64));
        e.1.extend(r.cuts.map(|x| x as f64));
    }
    let mut order: Vec<(&str, &Facts)> = facts.iter().map(|(i, f)| (*i, f)).collect();
    order.sort_by_key(|(i, f)| (f.islands, *i));
    let mut body = Vec::new();
    for (inst, f) in order {
        for b in &backends {
            let mut row = vec![
                inst.to_string(),
                f.label.clone(),
                f.islands.to_string(),
                b.to_string(),
            ];
            for form in &forms {
                let t = |p: bool| {
                    secs(
                        med.get(&(inst, *form, b.clone(), Some(p)))
                            .or_else(|| med.get(&(inst, *form, b.clone(), None)))
                            .copied(),
                    )
                };
                row.push(format!("{} / {}", t(true), t(false)));
            }
            let loops = |p: bool| {
                rounds
                    .get(&(inst, b.clone(), Some(p)))
                    .or_else(|| rounds.get(&(inst, b.clone(), None)))
                    .map_or("–".into(), |(r, c)| {
                        let m = |v: &[f64]| median(v).map_or("–".into(), |x| format!("{x:.0}"));
                        format!("{}/{}", m(r), m(c))
                    })
            };
            row.push(format!("{}; {}", loops(true), loops(false)));
            body.push(row);
        }
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
        rows: body,
        notes: vec![
            "Each time cell is the median solve seconds with presolve on / off; – means no successful run (time limit, error or not run). For cuts and cuts-hdc the time is the whole row-generation loop. An engine without presolve (microlp) runs once and shows that run on both sides.".into(),
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
