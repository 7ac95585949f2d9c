//! The KenKen table of the report suite: per grid size and difficulty, each formulation on
//! each backend, with the model's size, its LP relaxation and the solve times.

use crate::record::Record;
use crate::stats::{median, succeeded};
use crate::table::{count_range, secs, Table};
use std::collections::BTreeMap;

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "kenken").collect();
    if rows.is_empty() {
        return vec![];
    }
    vec![sizes(&rows)]
}

/// The difficulty of a Tatham puzzle from its instance name (`keen_9dx:3` → `extreme`,
/// `keen_9dnm:1` → `normal, × only`), or `–`, with a rank that orders them.
pub fn difficulty(instance: &str) -> (usize, String) {
    let stem = instance.split(':').next().unwrap_or(instance);
    let flags = stem
        .strip_prefix("keen_")
        .and_then(|s| s.split_once('d'))
        .map(|(_, d)| d);
    let Some(flags) = flags else {
        return (2 * ORDER.len(), "–".into());
    };
    let rank = match flags.chars().next() {
        Some('e') => 0,
        Some('n') => 1,
        Some('h') => 2,
        Some('x') => 3,
        Some('u') => 4,
        _ => return (2 * ORDER.len(), "–".into()),
    };
    if flags.ends_with('m') {
        (2 * rank + 1, format!("{}, × only", ORDER[rank]))
    } else {
        (2 * rank, ORDER[rank].to_string())
    }
}

const ORDER: [&str; 5] = ["easy", "normal", "hard", "extreme", "unreasonable"];

fn sizes(rows: &[&Record]) -> Table {
    type Key<'a> = (u64, (usize, String), &'a str, &'a str, String);
    let mut groups: BTreeMap<Key<'_>, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        let cells = r.size.unwrap_or(0.0) as u64;
        groups
            .entry((
                cells,
                difficulty(&r.instance),
                &r.size_label,
                &r.formulation,
                r.backend_label(),
            ))
            .or_default()
            .push(r);
    }
    let body = groups
        .into_iter()
        .map(|((_, (_, level), label, f, b), rs)| {
            let ok: Vec<&&Record> = rs.iter().filter(|r| succeeded(r)).collect();
            let solve: Vec<f64> = ok.iter().filter_map(|r| r.seconds).collect();
            let lp: Vec<f64> = rs.iter().filter_map(|r| r.lp_bound).collect();
            let puzzles: std::collections::BTreeSet<&str> =
                rs.iter().map(|r| r.instance.as_str()).collect();
            let cuts: u64 = rs.iter().filter_map(|r| r.cuts).sum();
            vec![
                label.to_string(),
                level,
                f.to_string(),
                b,
                puzzles.len().to_string(),
                format!("{}/{}", ok.len(), rs.len()),
                secs(median(&solve)),
                secs(solve.iter().cloned().reduce(f64::max)),
                count_range(rs.iter().filter_map(|r| r.variables)),
                count_range(rs.iter().filter_map(|r| r.constraints)),
                if lp.is_empty() {
                    "–".into()
                } else {
                    format!("{}/{} feasible", lp.len(), rs.len())
                },
                if f == "log" {
                    cuts.to_string()
                } else {
                    "–".into()
                },
            ]
        })
        .collect();
    Table {
        stem: "kenken_sizes".into(),
        title: "KenKen by grid size and difficulty: three cage formulations on every backend".into(),
        columns: [
            "grid",
            "difficulty",
            "formulation",
            "backend",
            "puzzles",
            "solved",
            "median solve (s)",
            "max solve (s)",
            "variables",
            "rows",
            "LP relaxation",
            "guard rows",
        ]
        .map(String::from)
        .to_vec(),
        rows: body,
        notes: vec![
            "Solved counts runs (a time-limited or refused run is unsolved); every solved run's grid was accepted by the independent verifier. Variables and rows are those of the model as built, before presolve, as a range over the group's puzzles.".into(),
            "The three models have no objective, so the LP bound of every feasible relaxation is 0: the column says how many runs solved their LP relaxation to a (feasible) optimum.".into(),
            "Guard rows: the no-good rows the log model's exact cage check added (a product or quotient its tolerances let through); 0 means every solve was right the first time.".into(),
            "Puzzles: the blog post's 6×6 ('Sudoku and KenKen as MIPs') and Simon Tatham's Keen puzzles (sgt-keen --generate; difficulty from the file name, instances/kenken/README.md).".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulty_from_the_name() {
        assert_eq!(difficulty("keen_9dx:3").1, "extreme");
        assert_eq!(difficulty("keen_4de").1, "easy");
        assert_eq!(difficulty("keen_9dnm:2").1, "normal, × only");
        assert!(difficulty("keen_9dnm:2").0 < difficulty("keen_9dh:2").0);
        assert_eq!(difficulty("blog_003").1, "–");
    }

    #[test]
    fn groups_by_size_difficulty_formulation_backend() {
        let run = |instance: &str, f: &str, status: &str, seconds: f64| Record {
            puzzle: "kenken".into(),
            instance: instance.into(),
            size_label: "9x9".into(),
            size: Some(81.0),
            formulation: f.into(),
            backend: "highs".into(),
            repeat: 1,
            status: status.into(),
            seconds: Some(seconds),
            variables: Some(800),
            constraints: Some(300),
            lp_bound: Some(0.0),
            cuts: Some(1),
            verified: Some(status == "optimal"),
            ..Record::default()
        };
        let rows = [
            run("keen_9dx:1", "log", "optimal", 0.1),
            run("keen_9dx:2", "log", "time_limit", 60.0),
            run("keen_9dh:1", "log", "optimal", 0.2),
        ];
        let t = &tables(&rows)[0];
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0][1], "hard");
        assert_eq!(t.rows[1][1], "extreme");
        assert_eq!(t.rows[1][5], "1/2");
        assert_eq!(t.rows[1][11], "2");
        assert_eq!(t.rows[1][10], "2/2 feasible");
    }
}
