//! The nonogram table of the report suite: per grid size, each formulation on each engine,
//! with the paper "Nonokenken"'s figure for 50×50 beside ours.

use crate::record::Record;
use crate::table::{published_size_row, size_rows, Table, NO_FIGURE, SIZE_COLUMNS, SIZE_LABELS};

/// The paper's figure: "general nonograms of size 50x50 in roughly 20 seconds", with its
/// model converted to CNF for MiniSat (GLPK alone being slower).
pub const PAPER_50X50_SECONDS: f64 = 20.0;

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "nonogram").collect();
    if rows.is_empty() {
        return vec![];
    }
    vec![sizes(&rows)]
}

fn sizes(rows: &[&Record]) -> Table {
    let paper_row = || {
        published_size_row(
            "50x50",
            "Nonokenken: Bosch's model as CNF",
            "MiniSat",
            NO_FIGURE,
            &format!("≈ {PAPER_50X50_SECONDS}"),
        )
    };
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut paper_row_done = false;
    for (cells, row) in size_rows(rows) {
        if cells >= 2500 && !paper_row_done {
            paper_row_done = true;
            body.push(paper_row());
        }
        body.push(row);
    }
    if !paper_row_done {
        // No 50×50 grid in these rows (the quick suite): the paper's figure still closes
        // the table, for comparison with the largest grids run.
        body.push(paper_row());
    }
    Table {
        stem: "nonogram_sizes".into(),
        title: "Nonograms by grid size: Bosch's model and the automaton flow model on every backend".into(),
        columns: SIZE_COLUMNS.map(String::from).to_vec(),
        labels: SIZE_LABELS,
        rows: body,
        notes: vec![
            "Solved counts runs (a time-limited run is unsolved); every solved run's grid was accepted by the independent verifier. Variables and rows are those of the model as built, a range over the group's puzzles.".into(),
            format!("The paper \"Nonokenken\" solved general 50×50 nonograms \"in roughly {PAPER_50X50_SECONDS} seconds\" with Bosch's model converted to CNF for MiniSat (its puzzles are not given; GLPK alone was slower). Ours: Tatham's Pattern puzzles, webpbn puzzles under CC BY 3.0 and random 50×50 pictures (instances/nonogram)."),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_row_comes_before_the_50x50_groups() {
        let run = |size: f64, label: &str| Record {
            puzzle: "nonogram".into(),
            instance: "p".into(),
            size_label: label.into(),
            size: Some(size),
            formulation: "bosch".into(),
            backend: "sat".into(),
            repeat: 1,
            status: "optimal".into(),
            seconds: Some(0.5),
            verified: Some(true),
            ..Record::default()
        };
        let rows = [run(900.0, "30x30"), run(2500.0, "50x50")];
        let t = &tables(&rows)[0];
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[0][0], "30x30");
        assert_eq!(t.rows[1][2], "MiniSat");
        assert_eq!(t.rows[1][5], "≈ 20", "in the column's unit, seconds");
        assert_eq!(t.rows[2][0], "50x50");
        let t = &tables(&rows[..1])[0];
        assert_eq!(
            t.rows.len(),
            2,
            "without a 50×50 run the paper's row closes the table"
        );
        assert_eq!(t.rows[1][2], "MiniSat");
    }
}
