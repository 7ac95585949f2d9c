//! The Star Battle table of the report suite: per grid size and star count, each
//! formulation on each engine, with the blog post's times beside them.

use crate::record::Record;
use crate::table::{published_size_row, size_rows, Table, SIZE_COLUMNS, SIZE_LABELS};

/// The blog post's figures: SCIP through OR-Tools solved its 5×5 puzzle (m = 1) in 0.009 s
/// and its 9×9 puzzle (m = 2) in 0.026 s, with the window model.
pub const POST_SECONDS: [(&str, f64); 2] = [("5x5 m=1", 0.009), ("9x9 m=2", 0.026)];

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "starbattle").collect();
    if rows.is_empty() {
        return vec![];
    }
    let mut body: Vec<Vec<String>> = Vec::new();
    for (_, row) in size_rows(&rows) {
        // The post's row goes before the first group of its size.
        let first_of_size = body.last().is_none_or(|b| b[0] != row[0]);
        let post = POST_SECONDS.iter().find(|(l, _)| *l == row[0]);
        if let Some((label, s)) = post.filter(|_| first_of_size) {
            body.push(published_size_row(
                label,
                "window",
                "SCIP (blog post)",
                "1",
                &s.to_string(),
            ));
        }
        body.push(row);
    }
    vec![Table {
        stem: "starbattle_sizes".into(),
        title: "Star Battle by grid size and stars: the 2×2 windows against the pairwise no-touch rows".into(),
        columns: SIZE_COLUMNS.map(String::from).to_vec(),
        labels: SIZE_LABELS,
        rows: body,
        notes: vec![
            "Solved counts runs (a time-limited run is unsolved); every solved run's grid was accepted by the independent verifier. Variables and rows are those of the model as built.".into(),
            "The blog post \"Solving Parks (Star Battle) using Integer Optimisation\" solved its 5×5 (m = 1) puzzle in 0.009 s and its 9×9 (m = 2) puzzle in 0.026 s with SCIP through OR-Tools; its region maps are only in its figures, so its rows here are other puzzles of those sizes.".into(),
        ],
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_posts_row_comes_before_the_first_group_of_its_size() {
        let run = |label: &str, f: &str| Record {
            puzzle: "starbattle".into(),
            instance: "p".into(),
            size_label: label.into(),
            size: Some(81.0),
            formulation: f.into(),
            backend: "highs".into(),
            repeat: 1,
            status: "optimal".into(),
            seconds: Some(0.01),
            verified: Some(true),
            ..Record::default()
        };
        let rows = [
            run("9x9 m=2", "window"),
            run("9x9 m=2", "pairwise"),
            run("8x8 m=1", "window"),
        ];
        let t = &tables(&rows)[0];
        let backends: Vec<&str> = t.rows.iter().map(|r| r[2].as_str()).collect();
        assert_eq!(t.rows.len(), 4, "{backends:?}");
        let post = t
            .rows
            .iter()
            .position(|r| r[2] == "SCIP (blog post)")
            .unwrap();
        assert_eq!(t.rows[post][5], "0.026");
        assert_eq!(t.rows[post][6], "n/a", "the post gives no longest time");
        assert_eq!(t.rows[post + 1][0], "9x9 m=2");
    }
}
