//! The Zebra tables of the report suite: Table 7.5 of the report (IP time, CP time and
//! inferences per heuristics configuration on the 1962 puzzle) beside ours, and the same
//! comparison over the generated puzzles, by size, with medians. Two counts stand in
//! columns of their own: `inferences` (values removed from domains by `propagate`) and
//! `logical inferences` (SWI-Prolog's, on the `prolog` engine: the unit of the report's
//! figures, which sit in that column).

use crate::record::Record;
use crate::stats::{median, succeeded};
use crate::table::{cell, significant, Table, NO_FIGURE};
use std::collections::BTreeMap;

/// The instance name of the 1962 puzzle (instances/zebra/life_1962.txt).
pub const LIFE_1962: &str = "life_1962";

/// Report Table 7.5 (Section 7.4.1): method, inferences, milliseconds (the
/// report gives 0.050, 0.005, 0.001 and <0.001 s). Gurobi for the IP; Prolog for the CP
/// model, with the heuristics of Gregor et al. The inferences are Prolog's logical
/// inferences: the unit of our `logical_inferences` column (engine `prolog`).
pub const REPORT_TABLE_7_5: [(&str, Option<u64>, &str); 4] = [
    ("Gurobi (IP)", None, "50"),
    ("Prolog (CP), original", Some(21_612), "5"),
    ("Prolog (CP), heuristics 1 & 2", Some(5_174), "1"),
    ("Prolog (CP), heuristics 1, 2 & 3", Some(663), "<1"),
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

/// Medians over a group of runs: solved/runs, seconds, inferences (propagate's), logical
/// inferences (Prolog's), nodes.
struct Figures {
    runs: usize,
    solved: usize,
    seconds: Option<f64>,
    inferences: Option<f64>,
    logical: Option<f64>,
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
        logical: pick(&|r| r.logical_inferences.map(|x| x as f64)),
        nodes: pick(&|r| r.nodes.map(|x| x as f64)),
    }
}

impl Figures {
    /// The cells of the figures: inferences, logical inferences, nodes, milliseconds
    /// (three significant figures, in the column's unit: the report's is ms), each
    /// [`crate::table::FAILED`] when no run succeeded and [`NO_FIGURE`] when the engine
    /// does not count it ([`cell`]).
    fn cells(&self) -> [String; 4] {
        let c = |x: Option<f64>, show: fn(f64) -> String| cell(self.runs, self.solved, x.map(show));
        [
            c(self.inferences, count),
            c(self.logical, count),
            c(self.nodes, count),
            c(self.seconds, |s| significant(s * 1000.0)),
        ]
    }
}

fn count(x: f64) -> String {
    format!("{x:.0}")
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
                "report".into(),
                m.to_string(),
                NO_FIGURE.into(),
                inf.map_or(NO_FIGURE.into(), |i| i.to_string()),
                NO_FIGURE.into(),
                t.to_string(),
                NO_FIGURE.into(),
            ]
        })
        .collect();
    for rs in groups.values() {
        let f = figures(rs);
        let [inferences, logical, nodes, time] = f.cells();
        body.push(vec![
            "ours".into(),
            rs[0].config_name(),
            inferences,
            logical,
            nodes,
            time,
            format!("{}/{}", f.solved, f.runs),
        ]);
    }
    Table {
        stem: "zebra_table_7_5".into(),
        title: "Zebra, the 1962 puzzle: IP against CP with the search heuristics, beside the report's Table 7.5".into(),
        columns: [
            "source",
            "configuration",
            "inferences (propagate)",
            "logical inferences (Prolog)",
            "nodes",
            "time (ms)",
            "solved",
        ]
            .map(String::from)
            .to_vec(),
        labels: 2,
        rows: body,
        notes: vec![
            "Report Table 7.5: Gurobi for the IP model, Prolog for the CP model of Gregor et al.; heuristic 1 puts the direct-location clues first, 2 the indirect-location clues last, 3 the mutually exclusive elements first. The report gives no figures for heuristic 1 alone. Ours: formulation on engine; propagate-h<k> is the project's propagation searching the clues in order k (none, 1, 12, 123, or root: every clue posted at once); prolog-h<k> is SWI-Prolog running the CP model as a Prolog program, one goal per clue in order k, generate and test (root runs as none there).".into(),
            "Two counts: inferences (propagate) are values removed from domains by its propagators (`inferences` column); logical inferences (Prolog) are SWI-Prolog's statistics(inferences) around the search alone (`logical_inferences` column), the unit of the report's figures, which are shown in that column: the report's Prolog rows compare with the prolog rows directly, and with the propagate rows only by trend. Nodes: propagate's root plus every search decision tried.".into(),
            "Times are the solver call's wall-clock time in milliseconds, median over repeats, each run in a fresh worker process; ip includes the MIP solver's own start-up; for prolog, the search's own wall-clock time measured inside SWI-Prolog (not starting swipl or loading the program: the row's call_seconds).".into(),
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
            let solved = inst.iter().filter(|f| f.solved * 2 > f.runs).count();
            // No puzzle solved in most repeats: failed, whatever a lucky repeat found.
            let med = |f: &dyn Fn(&Figures) -> Option<f64>| {
                let v: Vec<f64> = inst.iter().filter_map(f).collect();
                median(&v).filter(|_| solved > 0)
            };
            let over = Figures {
                runs: inst.len(),
                solved,
                seconds: med(&|f| f.seconds),
                inferences: med(&|f| f.inferences),
                logical: med(&|f| f.logical),
                nodes: med(&|f| f.nodes),
            };
            let [inferences, logical, nodes, time] = over.cells();
            vec![
                size,
                rs[0].config_name(),
                format!("{solved}/{}", inst.len()),
                time,
                inferences,
                logical,
                nodes,
            ]
        })
        .collect();
    Table {
        stem: "zebra_generated".into(),
        title: "Zebra, generated puzzles (houses × attributes): IP against CP by heuristics, medians".into(),
        columns: [
            "size",
            "configuration",
            "solved",
            "median time (ms)",
            "median inferences (propagate)",
            "median logical inferences (Prolog)",
            "median nodes",
        ]
            .map(String::from)
            .to_vec(),
        labels: 2,
        rows: body,
        notes: vec![
            "Puzzles made by `puzzlebench generate zebra` (instances/zebra/README.md): unique, no redundant clue. Size is houses × attributes.".into(),
            "Per puzzle the median over repeats, then the median over the puzzles of the size among the solved ones; solved counts puzzles solved in most repeats within the time limit. Heuristics none, 1, 12 and 123 search clue by clue, posting each clue when the search reaches it, as a Prolog program does; root posts every clue at once and labels smallest domain first. prolog is that Prolog program itself (generate and test, no propagation): it grows fast with the puzzle, and its failed sizes are marked.".into(),
        ],
    }
}

/// (houses, attributes) from a size label `HxA`, for sorting.
fn dims(label: &str) -> (u64, u64) {
    let mut it = label.split('x').map(|n| n.parse().unwrap_or(0));
    (it.next().unwrap_or(0), it.next().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run on the 1962 puzzle of `formulation` on `backend` with `heuristics`, solved in
    /// `seconds` or (`None`) stopped at its 1 s limit.
    fn run(
        formulation: &str,
        backend: &str,
        heuristics: Option<&str>,
        seconds: Option<f64>,
    ) -> Record {
        Record {
            puzzle: "zebra".into(),
            instance: LIFE_1962.into(),
            formulation: formulation.into(),
            backend: backend.into(),
            heuristics: heuristics.map(String::from),
            repeat: 1,
            time_limit: Some(1.0),
            status: if seconds.is_some() {
                "optimal"
            } else {
                "time_limit"
            }
            .into(),
            verified: seconds.map(|_| true),
            seconds: Some(seconds.unwrap_or(1.0)),
            inferences: heuristics.map(|_| 141),
            nodes: Some(7),
            ..Record::default()
        }
    }

    #[test]
    fn configurations_by_their_one_name_and_a_failure_by_its_mark() {
        let rows = [
            run("cp", "propagate", Some("root"), Some(6.88e-5)),
            run("ip", "highs", None, None),
        ];
        let t = &tables(&rows)[0];
        let ours: Vec<Vec<&str>> = t
            .rows
            .iter()
            .filter(|r| r[0] == "ours")
            .map(|r| r.iter().map(|c| c.as_str()).collect())
            .collect();
        assert_eq!(
            ours,
            [
                ["ours", "ip on highs", "✗", "✗", "✗", "✗", "0/1"],
                [
                    "ours",
                    "cp on propagate-hroot",
                    "141",
                    "n/a",
                    "7",
                    "0.0688",
                    "1/1"
                ],
            ]
        );
        assert_eq!(ours[1][1], rows[0].config_name());
        // The report's rows: a figure it does not give is no figure, not a failure.
        assert_eq!(t.rows[0][..4], ["report", "Gurobi (IP)", "n/a", "n/a"]);
        // The report's Prolog figures are logical inferences: in that column.
        assert_eq!(t.rows[1][2..4], ["n/a", "21612"]);
    }
}
