//! The minimum-clue table of the report suite: per grid, formulation and engine, the
//! clues found, the lower bound proved, the known minimum, the leader's rounds and rows
//! added, the time (and the follower's share of it), and Tjusila et al.'s published time
//! for the grid where there is one.

use crate::record::Record;
use crate::stats;
use crate::table::{info_value, secs, size_groups, Table, NO_FIGURE};

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "minclue").collect();
    if rows.is_empty() {
        return vec![];
    }
    let whole = |v: Option<f64>| v.map_or(NO_FIGURE.into(), |x| format!("{}", x.round() as i64));
    let body = size_groups(&rows, |r| r.instance.as_str())
        .into_iter()
        .map(|((_, instance, _, f, b), rs)| {
            let last = rs[rs.len() - 1];
            let times: Vec<f64> = rs.iter().filter_map(|r| r.seconds).collect();
            let follower: Vec<f64> = rs.iter().filter_map(|r| r.separator_seconds).collect();
            let total = |r: &&Record| r.seconds.unwrap_or(0.0) + r.build_seconds.unwrap_or(0.0);
            let median_total = stats::median(&rs.iter().map(total).collect::<Vec<_>>());
            let published =
                info_value(&last.instance_info, "published").and_then(|p| p.parse::<f64>().ok());
            let statuses: Vec<&str> = rs.iter().map(|r| r.status.as_str()).collect();
            let verified = rs.iter().filter(|r| r.verified == Some(true)).count();
            vec![
                instance.to_string(),
                last.size_label.clone(),
                f.to_string(),
                b,
                format!("{} ({verified}/{} verified)", statuses.join(", "), rs.len()),
                whole(last.objective),
                whole(last.best_bound),
                info_value(&last.instance_info, "known")
                    .unwrap_or(NO_FIGURE)
                    .to_string(),
                last.rounds.map_or(NO_FIGURE.into(), |r| r.to_string()),
                last.cuts.map_or(NO_FIGURE.into(), |r| r.to_string()),
                secs(stats::median(&times)),
                secs(stats::median(&follower)),
                secs(median_total),
                published.map_or(NO_FIGURE.into(), |p| format!("{p:.0}")),
                match (published, median_total) {
                    (Some(p), Some(t)) if t > 0.0 => format!("{:.0}×", p / t),
                    _ => NO_FIGURE.into(),
                },
            ]
        })
        .collect();
    vec![Table {
        stem: "minclue".into(),
        title: "Minimum-clue Sudoku: fewest clues for a unique puzzle of a grid, by row generation (leader: hitting set on the engine; follower: CaDiCaL)".into(),
        columns: [
            "grid",
            "size",
            "formulation",
            "backend",
            "status",
            "clues",
            "lower bound",
            "known",
            "rounds",
            "rows added",
            "search (s)",
            "follower (s)",
            "with build (s)",
            "published (s)",
            "published / ours",
        ]
        .map(String::from)
        .to_vec(),
        labels: 4,
        rows: body,
        notes: vec![
            "clues: the best unique clue set found; lower bound: the leader's proved bound (equal to clues when optimal); known: the minimum given with the grid. rounds: leader solves; rows added: unavoidable sets the follower found (the seeded sets are in the first model). search: the whole search (the follower's first round and, for rowgen, the seeding, then the loop of leader and follower); follower: its share; with build: search plus building the leader's model. Medians over repeats; clues, bound, rounds and rows are those of the last repeat.".into(),
            "published: Tjusila et al.'s time for the grid with 1000 initial unavoidable-set cuts, on an Intel Xeon E5-2630 v4 with a 96-hour limit (gtjusila/minimum-sudoku, computational_result/9by9.csv); published / ours compares it with our time with build, on another machine.".into(),
            "The report (002, Figure 8.1) shows a 17-clue answer for its grid, found with MibS through BilevelJuMP, without times.".into(),
        ],
    }]
}
