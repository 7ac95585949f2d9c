//! The KenKen table of the report suite: per grid size and difficulty, each formulation on
//! each engine, with the model's size, its LP relaxation and the solve times.

use crate::record::Record;
use crate::table::{size_groups, SizeFigures, Table, NO_FIGURE};

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "kenken").collect();
    if rows.is_empty() {
        return vec![];
    }
    vec![sizes(&rows)]
}

/// The difficulty of a Tatham puzzle from its instance name (`keen_9dx:3` → `extreme`,
/// `keen_9dnm:1` → `normal, × only`), or [`NO_FIGURE`] for a puzzle of no grade (the blog
/// post's), with a rank that orders them.
pub fn difficulty(instance: &str) -> (usize, String) {
    let stem = instance.split(':').next().unwrap_or(instance);
    let flags = stem
        .strip_prefix("keen_")
        .and_then(|s| s.split_once('d'))
        .map(|(_, d)| d);
    let Some(flags) = flags else {
        return (2 * ORDER.len(), NO_FIGURE.into());
    };
    let rank = match flags.chars().next() {
        Some('e') => 0,
        Some('n') => 1,
        Some('h') => 2,
        Some('x') => 3,
        Some('u') => 4,
        _ => return (2 * ORDER.len(), NO_FIGURE.into()),
    };
    if flags.ends_with('m') {
        (2 * rank + 1, format!("{}, × only", ORDER[rank]))
    } else {
        (2 * rank, ORDER[rank].to_string())
    }
}

const ORDER: [&str; 5] = ["easy", "normal", "hard", "extreme", "unreasonable"];

fn sizes(rows: &[&Record]) -> Table {
    let body = size_groups(rows, |r| difficulty(&r.instance))
        .into_iter()
        .map(|((_, (_, level), label, f, b), rs)| {
            let lp = rs.iter().filter(|r| r.lp_bound.is_some()).count();
            let cuts: u64 = rs.iter().filter_map(|r| r.cuts).sum();
            let mut row = vec![label.to_string(), level, f.to_string(), b];
            row.extend(SizeFigures::of(&rs).cells());
            row.push(if lp == 0 {
                NO_FIGURE.into()
            } else {
                format!("{lp}/{} feasible", rs.len())
            });
            row.push(if f == "log" {
                cuts.to_string()
            } else {
                NO_FIGURE.into()
            });
            row
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
        labels: 4,
        rows: body,
        notes: vec![
            "Solved counts runs (a time-limited run is unsolved; a refused run, which did not run, is not counted); every solved run's grid was accepted by the independent verifier. Variables and rows are those of the model as built, before presolve, as a range over the group's puzzles.".into(),
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
        assert_eq!(difficulty("blog_003").1, "n/a");
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
