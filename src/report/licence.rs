//! What a table says of the `gurobi` engine: the version and licence that ran here beside
//! the report's Gurobi 11.0.3, and the models the size-limited licence refused (over 2,000
//! variables or rows), which are left out of every figure and so show as – (not run) in
//! the table's cells. Under the size-limited licence the note also says that its terms
//! forbid publishing the benchmark results made with it.

use crate::record::Record;
use crate::table::Table;
use std::collections::BTreeMap;

/// The engine key the notes are about.
const GUROBI: &str = "gurobi";

/// True for a refusal by Gurobi's licence (its size limit, or a licence it rejects).
pub fn refused_by_licence(r: &Record) -> bool {
    r.backend == GUROBI
        && r.is_refused()
        && r.error.as_deref().is_some_and(|e| e.contains("licence"))
}

/// What every note on Gurobi's runs `ran` begins with: the versions and licences that ran
/// and, under the size-limited licence, what its terms allow; None when none ran.
fn head(ran: &[&Record]) -> Option<String> {
    if ran.is_empty() {
        return None;
    }
    let mut versions: Vec<&str> = ran.iter().map(|r| r.solver_version.as_str()).collect();
    versions.sort_unstable();
    versions.dedup();
    let mut text = format!(
        "gurobi here is {} (the report's tables used Gurobi 11.0.3).",
        versions.join("; ")
    );
    if versions.iter().any(|v| v.contains("size-limited licence")) {
        text.push_str(" Its size-limited licence (gurobipy's evaluation licence) is for internal evaluation, and its terms forbid publishing benchmark results made with it (docs/engines.md).");
    }
    Some(text)
}

/// The note on `puzzle`'s Gurobi runs among `rows` (every row, refusals included), or
/// None when Gurobi did not run on it.
pub fn note(puzzle: &str, rows: &[Record]) -> Option<String> {
    let ran: Vec<&Record> = rows
        .iter()
        .filter(|r| r.puzzle == puzzle && r.backend == GUROBI)
        .collect();
    let mut text = head(&ran)?;
    let mut refused: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in ran.iter().filter(|r| refused_by_licence(r)) {
        *refused
            .entry((r.formulation.as_str(), r.size_label.as_str()))
            .or_default() += 1;
    }
    if !refused.is_empty() {
        let list: Vec<String> = refused
            .iter()
            .map(|((f, size), n)| {
                let runs = if *n == 1 { "run" } else { "runs" };
                format!("{f} on {size} ({n} {runs})")
            })
            .collect();
        text.push_str(&format!(
            " Refused by its licence (models over 2,000 variables or 2,000 rows), so – (not run) on gurobi: {}.",
            list.join(", ")
        ));
    }
    Some(text)
}

/// Adds [`note`] to each of `puzzle`'s tables among `tables` that shows Gurobi or
/// reproduces one of the report's tables (stem `<puzzle>_table_…`), and the versions and
/// licence to every other table with a Gurobi cell (the answers, the comparisons).
pub fn annotate(tables: &mut [Table], rows: &[Record]) {
    let shows = |t: &Table| t.rows.iter().flatten().any(|c| c.contains(GUROBI));
    let mut puzzles: Vec<&str> = rows
        .iter()
        .filter(|r| r.backend == GUROBI)
        .map(|r| r.puzzle.as_str())
        .collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    for p in puzzles {
        let Some(n) = note(p, rows) else { continue };
        let prefix = format!("{p}_");
        for t in tables.iter_mut().filter(|t| t.stem.starts_with(&prefix)) {
            let reproduces = t.stem.starts_with(&format!("{p}_table_"));
            if (shows(t) || reproduces) && !t.notes.contains(&n) {
                t.notes.push(n.clone());
            }
        }
    }
    let ran: Vec<&Record> = rows.iter().filter(|r| r.backend == GUROBI).collect();
    let Some(n) = head(&ran) else { return };
    let noted = |t: &Table| t.notes.iter().any(|x| x.starts_with("gurobi here is"));
    for t in tables.iter_mut() {
        if shows(t) && !noted(t) {
            t.notes.push(n.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(formulation: &str, size: &str, status: &str, error: Option<&str>) -> Record {
        Record {
            puzzle: "sudoku".into(),
            formulation: formulation.into(),
            backend: GUROBI.into(),
            size_label: size.into(),
            status: status.into(),
            error: error.map(String::from),
            solver_version:
                "Gurobi 13.0.3 (gurobipy 13.0.3; size-limited licence, expires 2027-11-29)".into(),
            ..Record::default()
        }
    }

    #[test]
    fn the_note_names_the_version_and_the_models_over_the_limit() {
        let over = "unsupported by gurobi: the size-limited licence takes 2,000 variables and 2,000 rows; this model has 4,096 variables";
        let rows = vec![
            row("binary", "9x9", "optimal", None),
            row("binary", "16x16", "refused", Some(over)),
            row("binary", "16x16", "refused", Some(over)),
            row("values", "25x25", "refused", Some(over)),
        ];
        let n = note("sudoku", &rows).unwrap();
        assert!(
            n.starts_with("gurobi here is Gurobi 13.0.3 (gurobipy 13.0.3; size-limited licence"),
            "{n}"
        );
        assert!(
            n.contains("binary on 16x16 (2 runs), values on 25x25 (1 run)"),
            "{n}"
        );
        assert!(n.contains("forbid publishing benchmark results"), "{n}");
        assert_eq!(note("kenken", &rows), None);
        let mut tables = vec![
            Table {
                stem: "sudoku_table_3_1".into(),
                ..Table::default()
            },
            Table {
                stem: "sudoku_sizes".into(),
                ..Table::default()
            },
        ];
        annotate(&mut tables, &rows);
        assert_eq!(tables[0].notes, vec![n]);
        assert!(
            tables[1].notes.is_empty(),
            "no gurobi cell, no report table"
        );
        // A table of every puzzle with a Gurobi cell gets the versions and the terms.
        let mut answers = vec![Table {
            stem: "answers".into(),
            rows: vec![vec!["queens".into(), "base on gurobi".into()]],
            ..Table::default()
        }];
        annotate(&mut answers, &rows);
        assert_eq!(answers[0].notes.len(), 1);
        assert!(answers[0].notes[0].contains("forbid publishing"));
    }
}
