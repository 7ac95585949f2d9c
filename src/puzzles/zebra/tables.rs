//! The Zebra tables of the report suite: Table 7.5 of the report (IP time, CP time and
//! inferences per heuristics configuration on the 1962 puzzle) beside ours, and the same
//! comparison over the generated puzzles, by size, with medians.

use crate::record::Record;
use crate::stats::{median, succeeded};
use crate::table::Table;
use std::collections::BTreeMap;

/// The instance name of the 1962 puzzle (instances/zebra/life_1962.txt).
pub const LIFE_1962: &str = "life_1962";

/// Report Table 7.5 (Section 7.4.1): method, inferences, milliseconds (the
/// report gives 0.050, 0.005, 0.001 and <0.001 s). Gurobi for the IP; Prolog for the CP
/// model, with the heuristics of Gregor et al.
pub const REPORT_TABLE_7_5: [(&str, Option<u64>, &str); 4] = [
    ("report: Gurobi (IP)", None, "50"),
    ("report: Prolog (CP), original", Some(21_612), "5"),
    ("report: Prolog (CP), heuristics 1 & 2", Some(5_174), "1"),
    ("report: Prolog (CP), heuristics 1, 2 & 3", Some(663), "<1"),
];

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "zebra").collect();
    if rows.is_empty() {
        return vec![];
    }
    let (life, generated): (Vec<&Record>, Vec<&Record>) =
        rows.iter().partition(|r| r.instance == LIFE_1962);
    let mut out = Vec::new();
    if !life.is_empty() {
        out.push(table_7_5(&life));
    }
    if !generated.is_empty() {
        out.push(by_size(&generated));
    }
    out
}

/// A (formulation, engine-with-heuristics) series, in a fixed order: ip first, then cp
/// by heuristics none, 1, 12, 123.
fn series_key(r: &Record) -> (u8, String, String) {
    let h = match r.heuristics.as_deref() {
        None | Some("") => 0,
        Some("none") => 1,
        Some("1") => 2,
        Some("12") => 3,
        Some(_) => 4,
    };
    (h, r.formulation.clone(), r.backend_label())
}

/// "ours: cp on propagate, heuristics 123"; the engine with its machine where the report
/// keeps machines apart (`propagate@node1`).
fn label(r: &Record) -> String {
    let engine = r.backend_at_machine();
    match r.heuristics.as_deref() {
        Some(h) if !h.is_empty() => {
            format!("ours: {} on {engine}, heuristics {h}", r.formulation)
        }
        _ => format!("ours: {} on {engine}", r.formulation),
    }
}

/// Medians over a group of runs: solved/runs, seconds, inferences, nodes.
struct Figures {
    runs: usize,
    solved: usize,
    seconds: Option<f64>,
    inferences: Option<f64>,
    nodes: Option<f64>,
}

fn figures(rs: &[&Record]) -> Figures {
    let ok: Vec<&&Record> = rs.iter().filter(|r| succeeded(r)).collect();
    let pick = |f: &dyn Fn(&Record) -> Option<f64>| {
        median(&ok.iter().filter_map(|r| f(r)).collect::<Vec<_>>())
    };
    Figures {
        runs: rs.len(),
        solved: ok.len(),
        seconds: pick(&|r| r.seconds),
        inferences: pick(&|r| r.inferences.map(|x| x as f64)),
        nodes: pick(&|r| r.nodes.map(|x| x as f64)),
    }
}

/// Milliseconds with three significant digits (the CP times go down to microseconds).
fn ms(x: Option<f64>) -> String {
    match x.map(|s| s * 1000.0) {
        None => "–".into(),
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) if v >= 10.0 => format!("{v:.1}"),
        Some(v) if v >= 1.0 => format!("{v:.2}"),
        Some(v) => format!("{v:.3}"),
    }
}

fn count(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{v:.0}"))
}

fn table_7_5(rows: &[&Record]) -> Table {
    let mut groups: BTreeMap<(u8, String, String), Vec<&Record>> = BTreeMap::new();
    for r in rows {
        groups.entry(series_key(r)).or_default().push(r);
    }
    let mut body: Vec<Vec<String>> = REPORT_TABLE_7_5
        .iter()
        .map(|(m, inf, t)| {
            vec![
                m.to_string(),
                inf.map_or("–".into(), |i| i.to_string()),
                "–".into(),
                t.to_string(),
                "–".into(),
            ]
        })
        .collect();
    for rs in groups.values() {
        let f = figures(rs);
        body.push(vec![
            label(rs[0]),
            count(f.inferences),
            count(f.nodes),
            time(&f, rs[0]),
            format!("{}/{}", f.solved, f.runs),
        ]);
    }
    Table {
        stem: "zebra_table_7_5".into(),
        title: "Zebra, the 1962 puzzle: IP against CP with the search heuristics, beside the report's Table 7.5".into(),
        columns: ["method", "inferences", "nodes", "time (ms)", "solved"]
            .map(String::from)
            .to_vec(),
        rows: body,
        notes: vec![
            "Report Table 7.5: Gurobi for the IP model, Prolog for the CP model of Gregor et al.; heuristic 1 puts the direct-location clues first, 2 the indirect-location clues last, 3 the mutually exclusive elements first. The report gives no figures for heuristic 1 alone.".into(),
            "Our inferences are values removed from domains by propagators (README, `inferences`); Prolog counts logical inferences (predicate calls), so the two scales differ and only the trend compares. Nodes: the root plus every search decision tried.".into(),
            "Times are the solver call's wall-clock time, median over repeats, each run in a fresh worker process; ip includes the MIP solver's own start-up. A configuration that never finished shows the time limit.".into(),
        ],
    }
}

fn by_size(rows: &[&Record]) -> Table {
    type Key = ((u64, u64), String, (u8, String, String));
    let mut groups: BTreeMap<Key, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((dims(&r.size_label), r.size_label.clone(), series_key(r)))
            .or_default()
            .push(r);
    }
    // One value per instance first (the median over repeats), then medians over instances.
    let body = groups
        .into_iter()
        .map(|((_, size, _), rs)| {
            let mut per: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
            for r in &rs {
                per.entry(r.instance.as_str()).or_default().push(r);
            }
            let inst: Vec<Figures> = per.values().map(|v| figures(v)).collect();
            let med = |f: &dyn Fn(&Figures) -> Option<f64>| {
                median(&inst.iter().filter_map(f).collect::<Vec<_>>())
            };
            let solved = inst.iter().filter(|f| f.solved * 2 > f.runs).count();
            let t = if solved == 0 {
                limit(rs[0])
            } else {
                ms(med(&|f| f.seconds))
            };
            vec![
                size,
                label(rs[0]).trim_start_matches("ours: ").to_string(),
                format!("{solved}/{}", inst.len()),
                t,
                count(med(&|f| f.inferences)),
                count(med(&|f| f.nodes)),
            ]
        })
        .collect();
    Table {
        stem: "zebra_generated".into(),
        title: "Zebra, generated puzzles (houses × attributes): IP against CP by heuristics, medians".into(),
        columns: ["size", "method", "solved", "median time (ms)", "median inferences", "median nodes"]
            .map(String::from)
            .to_vec(),
        rows: body,
        notes: vec![
            "Puzzles made by `puzzlebench generate zebra` (instances/zebra/README.md): unique, no redundant clue. Size is houses × attributes.".into(),
            "Per puzzle the median over repeats, then the median over the puzzles of the size among the solved ones; solved counts puzzles solved in most repeats within the time limit. Heuristics none, 1, 12 and 123 search clue by clue, posting each clue when the search reaches it, as a Prolog program does; root posts every clue at once and labels smallest domain first.".into(),
        ],
    }
}

/// (houses, attributes) from a size label `HxA`, for sorting.
fn dims(label: &str) -> (u64, u64) {
    let mut it = label.split('x').map(|n| n.parse().unwrap_or(0));
    (it.next().unwrap_or(0), it.next().unwrap_or(0))
}

/// "> N s (limit)" for a series that never finished.
fn limit(r: &Record) -> String {
    r.time_limit
        .map_or("unsolved".into(), |t| format!("> {t} s (limit)"))
}

fn time(f: &Figures, r: &Record) -> String {
    if f.solved == 0 {
        limit(r)
    } else {
        ms(f.seconds)
    }
}
