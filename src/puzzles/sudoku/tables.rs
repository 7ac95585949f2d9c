//! The Sudoku tables of the report suite: Table 3.1 of the report beside ours, model size
//! and build/solve times per grid size (plain Sudoku), and the variants (X, jigsaw,
//! killer) beside plain Sudoku.

use crate::record::config_name;
use crate::record::Record;
use crate::stats::{median, succeeded};
use crate::table::{
    cell, count_range, info_value, seconds, secs, size_groups, SizeFigures, Table, NO_FIGURE,
};
use std::collections::BTreeMap;

/// Report Table 3.1: solve times in seconds of ten 9×9 puzzles (Telegraph book) with
/// model (3.1) on Gurobi 11.0.3, with their clue counts.
pub const REPORT_TABLE_3_1: [(u32, f64); 10] = [
    (36, 0.02916),
    (32, 0.03869),
    (32, 0.04757),
    (31, 0.04716),
    (29, 0.01603),
    (26, 0.03181),
    (23, 0.01719),
    (23, 0.03190),
    (22, 0.03150),
    (22, 0.03841),
];

/// Median seconds per (instance, formulation, engine label) over repeats, successful
/// runs only.
fn medians<'a>(rows: &[&'a Record]) -> BTreeMap<(&'a str, &'a str, String), f64> {
    let mut m: BTreeMap<(&str, &str, String), Vec<f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| succeeded(r)) {
        if let Some(t) = r.seconds {
            m.entry((&r.instance, &r.formulation, r.backend_label()))
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
    let all: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "sudoku").collect();
    let plain: Vec<&Record> = all
        .iter()
        .copied()
        .filter(|r| variant(r) == "plain")
        .collect();
    let mut out = Vec::new();
    if !plain.is_empty() {
        out.push(table_3_1(&plain));
        out.push(sizes(&plain));
    }
    if all.iter().any(|r| variant(r) != "plain") {
        out.push(variants(&all));
    }
    out
}

/// The variant of a row's instance (`plain`, `x`, `jigsaw`, `killer`, `x+killer`, ...).
fn variant(r: &Record) -> &str {
    info_value(&r.instance_info, "variant").unwrap_or("plain")
}

/// Variants beside plain Sudoku: per grid and variant, each formulation on each engine.
fn variants(rows: &[&Record]) -> Table {
    let body = size_groups(rows, variant)
        .into_iter()
        .map(|((_, v, label, f, b), rs)| {
            let mut row = vec![label.to_string(), v.to_string(), f.to_string(), b];
            row.extend(SizeFigures::of(&rs).cells());
            row
        })
        .collect();
    Table {
        stem: "sudoku_variants".into(),
        title: "Sudoku variants (X, jigsaw, killer) beside plain Sudoku".into(),
        columns: ["grid", "variant", "formulation", "backend", "puzzles", "solved", "median solve (s)", "max solve (s)", "variables", "rows"]
            .map(String::from)
            .to_vec(),
        labels: 4,
        rows: body,
        notes: vec![
            "Variants from Simon Tatham's Solo (sgt-solo --generate: X 'x', jigsaw 'j', killer 'k', and their mixtures; instances/sudoku/variants). Jigsaw regions and X diagonals are more areas of one value each; a killer cage is KenKen's + cage row in binary and values (with each value at most once in it) and KenKen's combinations in combinations, which is binary where there are no cages.".into(),
            "Solved counts runs (a time-limited run is unsolved); every solved run was accepted by the independent verifier. Variables and rows are those of the model as built, a range over the group's puzzles.".into(),
        ],
    }
}

fn table_3_1(rows: &[&Record]) -> Table {
    let nine: Vec<&Record> = rows
        .iter()
        .copied()
        .filter(|r| r.size_label == "9x9")
        .collect();
    let med = medians(&nine);
    // Every configuration that ran, also one that failed every run.
    let mut series: Vec<(&str, String)> = nine
        .iter()
        .map(|r| (r.formulation.as_str(), r.backend_label()))
        .collect();
    series.sort();
    series.dedup();
    let (rep_min, rep_max) = REPORT_TABLE_3_1
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), (_, t)| {
            (lo.min(*t), hi.max(*t))
        });
    let rep_times: Vec<f64> = REPORT_TABLE_3_1.iter().map(|(_, t)| *t).collect();
    let range = |lo: f64, hi: f64| format!("{}–{}", seconds(lo), seconds(hi));
    let mut body = vec![vec![
        "report".to_string(),
        config_name("model (3.1)", "Gurobi 11.0.3"),
        "10".into(),
        "22–36".into(),
        range(rep_min, rep_max),
        secs(median(&rep_times)),
        NO_FIGURE.into(),
    ]];
    for (f, b) in &series {
        let mut clues = Vec::new();
        let mut puzzles = std::collections::BTreeSet::new();
        let mut runs = 0;
        let mut solved = 0;
        for r in nine
            .iter()
            .filter(|r| r.formulation == *f && r.backend_label() == *b)
        {
            runs += 1;
            solved += succeeded(r) as usize;
            puzzles.insert(r.instance.as_str());
            clues.extend(
                info_value(&r.instance_info, "clues").and_then(|c| c.parse::<usize>().ok()),
            );
        }
        let times: Vec<f64> = med
            .iter()
            .filter(|((_, ff, bb), _)| ff == f && bb == b)
            .map(|(_, t)| *t)
            .collect();
        let lo = times.iter().cloned().reduce(f64::min);
        let hi = times.iter().cloned().reduce(f64::max);
        body.push(vec![
            "ours".into(),
            config_name(f, b),
            puzzles.len().to_string(),
            count_range(clues.into_iter()),
            cell(runs, solved, lo.zip(hi).map(|(lo, hi)| range(lo, hi))),
            cell(runs, solved, median(&times).map(seconds)),
            format!("{solved}/{runs}"),
        ]);
    }
    Table {
        stem: "sudoku_table_3_1".into(),
        title: "Sudoku 9×9: solve times beside the report's Table 3.1".into(),
        columns: ["source", "configuration", "puzzles", "clues", "time range (s)", "median (s)", "solved"]
            .map(String::from)
            .to_vec(),
        labels: 2,
        rows: body,
        notes: vec![
            "Report Table 3.1: ten 9×9 puzzles from the Telegraph's book, model (3.1) on Gurobi 11.0.3, every one under 0.05 s with no link between clues (or difficulty) and time. Those puzzles are not public; ours are the report's Figure 3.1, the blog post's puzzle and Simon Tatham's Solo puzzles of five grades (instances/sudoku).".into(),
            "Times are the solver call's wall-clock seconds (median over repeats per puzzle); model building is separate (next table).".into(),
        ],
    }
}

fn sizes(rows: &[&Record]) -> Table {
    let body = size_groups(rows, |_| ())
        .into_iter()
        .map(|((_, (), label, f, b), rs)| {
            let g = SizeFigures::of(&rs);
            let build: Vec<f64> = rs.iter().filter_map(|r| r.build_seconds).collect();
            let ratio = g.of_solved(match (median(&build), median(&g.solve_seconds)) {
                (Some(bu), Some(so)) if so > 0.0 => Some(format!("{:.1}%", 100.0 * bu / so)),
                _ => None,
            });
            vec![
                label.to_string(),
                f.to_string(),
                b,
                g.solved_of_runs(),
                g.median_solve(),
                secs(median(&build)),
                ratio,
                g.variables,
                g.rows,
            ]
        })
        .collect();
    Table {
        stem: "sudoku_sizes".into(),
        title: "Sudoku by grid size: solve and build times, model size".into(),
        columns: ["grid", "formulation", "backend", "solved", "median solve (s)", "median build (s)", "build/solve", "variables", "rows"]
            .map(String::from)
            .to_vec(),
        labels: 3,
        rows: body,
        notes: vec![
            "Solved counts runs; a time-limited run counts as unsolved. Variables and rows are those of the model as built (before any presolve), as a range over the group's puzzles where they differ.".into(),
            "binary writes each given as a row of its own, x[i,j,c[i,j]] = 1 (3.1f), so its rows are 4n² plus the number of givens and differ between puzzles of one grid; values fixes each given by the bounds of v[i,j], so its rows (5n²) depend on n only. The variables of both (n³ for binary, n³ + n² for values) depend on n only.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved 9×9 run of `instance` with a model of `rows` rows.
    fn run(instance: &str, formulation: &str, rows: usize) -> Record {
        Record {
            puzzle: "sudoku".into(),
            instance: instance.into(),
            size_label: "9x9".into(),
            size: Some(81.0),
            instance_info: "clues=30".into(),
            formulation: formulation.into(),
            backend: "highs".into(),
            repeat: 1,
            status: "optimal".into(),
            seconds: Some(0.01),
            build_seconds: Some(3e-5),
            variables: Some(729),
            constraints: Some(rows),
            verified: Some(true),
            ..Record::default()
        }
    }

    #[test]
    fn the_size_table_shows_the_rows_givens_add() {
        let rows = [
            run("a", "binary", 4 * 81 + 28),
            run("b", "binary", 4 * 81 + 30),
            run("a", "values", 5 * 81),
            run("b", "values", 5 * 81),
        ];
        let t = &tables(&rows)[1];
        assert_eq!(t.rows[0][1], "binary");
        assert_eq!(t.rows[0][8], "352–354");
        assert_eq!(t.rows[1][8], "405");
        assert_eq!(
            t.rows[0][5], "0.0000300",
            "a build time of 3e-5 s, in seconds"
        );
        assert!(t
            .notes
            .iter()
            .any(|n| n.contains("4n² plus the number of givens")));
        assert!(!t.notes.iter().any(|n| n.contains("depend on n only).")));
    }

    #[test]
    fn runs_that_differ_in_a_setting_are_not_pooled() {
        let mut other = run("a", "binary", 352);
        other.heuristics = Some("1".into());
        let rows = [run("a", "binary", 352), other];
        let t = tables(&rows);
        let labels: Vec<&str> = t[1].rows.iter().map(|r| r[2].as_str()).collect();
        assert_eq!(labels, ["highs", "highs-h1"]);
        let series: Vec<(&str, &str)> = t[0]
            .rows
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect();
        assert_eq!(
            series,
            [
                ("report", "model (3.1) on Gurobi 11.0.3"),
                ("ours", "binary on highs"),
                ("ours", "binary on highs-h1")
            ]
        );
        assert_eq!(t[0].rows[1][6], "1/1");
    }
}
