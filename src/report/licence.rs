//! What a table says of the engines that run under a vendor's licence (`gurobi`, `cplex`,
//! `xpress`, `copt`): the version and licence that ran here (beside the report's Gurobi
//! 11.0.3 for `gurobi`), the models their size-limited licences refused, which are left
//! out of every figure and so show as – (not run) in the table's cells, and what each
//! size-limited licence's terms say of publishing benchmark results made with it (read in
//! each package's licence text: docs/engines.md).

use crate::record::Record;
use crate::table::Table;
use std::collections::BTreeMap;

/// An engine whose licence a table notes.
struct Licensed {
    /// Its engine key.
    key: &'static str,
    /// What the note says after the versions that ran (the report's own version).
    report: String,
    /// The size limit of its size-limited licence, as a refusal note says it.
    limit: String,
    /// What its size-limited licence's terms say of publishing benchmark results.
    terms: String,
}

/// The engines the notes are about: those whose definition has a `[licence]` (the
/// built-in `gurobi`, `cplex`, `xpress`, `copt`: `src/engines/drivers/<key>.toml`, and a
/// user's), in the order of `list`; read once per process.
fn licensed_engines() -> &'static [Licensed] {
    static LICENSED: std::sync::OnceLock<Vec<Licensed>> = std::sync::OnceLock::new();
    LICENSED.get_or_init(|| {
        crate::engines::registry::all()
            .iter()
            .filter_map(|e| {
                let l = e.licence()?;
                Some(Licensed {
                    key: e.key(),
                    report: if l.note.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", l.note)
                    },
                    limit: l.limit,
                    terms: l.terms,
                })
            })
            .collect()
    })
}

/// The licensed engine of `backend`, if it is one.
fn licensed(backend: &str) -> Option<&'static Licensed> {
    licensed_engines().iter().find(|l| l.key == backend)
}

/// True for a refusal by a licensed engine's licence (its size limit, or a licence it
/// rejects).
pub fn refused_by_licence(r: &Record) -> bool {
    licensed(&r.backend).is_some()
        && r.is_refused()
        && r.error.as_deref().is_some_and(|e| e.contains("licence"))
}

/// What every note on `engine`'s runs `ran` begins with: the versions and licences that
/// ran and, under the size-limited licence, what its terms allow; None when none ran.
fn head(engine: &Licensed, ran: &[&Record]) -> Option<String> {
    if ran.is_empty() {
        return None;
    }
    let mut versions: Vec<&str> = ran.iter().map(|r| r.solver_version.as_str()).collect();
    versions.sort_unstable();
    versions.dedup();
    let mut text = format!(
        "{} here is {}{}.",
        engine.key,
        versions.join("; "),
        engine.report
    );
    if versions.iter().any(|v| v.contains("size-limited licence")) {
        text.push(' ');
        text.push_str(&engine.terms);
    }
    Some(text)
}

/// The note on `puzzle`'s runs of `engine` among `rows` (every row, refusals included),
/// or None when it did not run on it.
fn note_on(engine: &Licensed, puzzle: &str, rows: &[Record]) -> Option<String> {
    let ran: Vec<&Record> = rows
        .iter()
        .filter(|r| r.puzzle == puzzle && r.backend == engine.key)
        .collect();
    let mut text = head(engine, &ran)?;
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
            " Refused by its licence ({}), so – (not run) on {}: {}.",
            engine.limit,
            engine.key,
            list.join(", ")
        ));
    }
    Some(text)
}

/// What the overview says of each licensed engine whose size-limited licence ran among
/// `rows` (every row): its versions and what the licence's terms say of publishing
/// benchmark results, once per engine, wherever its results appear in the report.
pub fn overview_notes(rows: &[Record]) -> Vec<String> {
    licensed_engines()
        .iter()
        .filter_map(|e| {
            let ran: Vec<&Record> = rows.iter().filter(|r| r.backend == e.key).collect();
            let limited = ran
                .iter()
                .any(|r| r.solver_version.contains("size-limited licence"));
            if limited {
                head(e, &ran)
            } else {
                None
            }
        })
        .collect()
}

/// The notes on `puzzle`'s runs of every licensed engine among `rows`, one per engine
/// that ran on it.
pub fn notes(puzzle: &str, rows: &[Record]) -> Vec<String> {
    licensed_engines()
        .iter()
        .filter_map(|e| note_on(e, puzzle, rows))
        .collect()
}

/// Adds each licensed engine's note on a puzzle to each of that puzzle's tables among
/// `tables` that shows the engine or reproduces one of the report's tables (stem
/// `<puzzle>_table_…`), and the versions and licence to every other table with a cell of
/// the engine (the answers, the comparisons, the races).
pub fn annotate(tables: &mut [Table], rows: &[Record]) {
    for engine in licensed_engines() {
        let shows = |t: &Table| t.rows.iter().flatten().any(|c| mentions(c, engine.key));
        let mut puzzles: Vec<&str> = rows
            .iter()
            .filter(|r| r.backend == engine.key)
            .map(|r| r.puzzle.as_str())
            .collect();
        puzzles.sort_unstable();
        puzzles.dedup();
        for p in puzzles {
            let Some(n) = note_on(engine, p, rows) else {
                continue;
            };
            let prefix = format!("{p}_");
            for t in tables.iter_mut().filter(|t| t.stem.starts_with(&prefix)) {
                let reproduces = t.stem.starts_with(&format!("{p}_table_"));
                if (shows(t) || reproduces) && !t.notes.contains(&n) {
                    t.notes.push(n.clone());
                }
            }
        }
        let ran: Vec<&Record> = rows.iter().filter(|r| r.backend == engine.key).collect();
        let Some(n) = head(engine, &ran) else {
            continue;
        };
        let opening = format!("{} here is", engine.key);
        let noted = |t: &Table| t.notes.iter().any(|x| x.starts_with(&opening));
        for t in tables.iter_mut() {
            if shows(t) && !noted(t) {
                t.notes.push(n.clone());
            }
        }
    }
}

/// True when a table's cell `cell` names engine `key` as a word (so `cplex` is not found
/// in `cplex-cli`, nor `copt` in a longer key).
fn mentions(cell: &str, key: &str) -> bool {
    cell.match_indices(key).any(|(i, _)| {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        let before = cell[..i].chars().next_back().is_none_or(|c| !word(c));
        let after = cell[i + key.len()..]
            .chars()
            .next()
            .is_none_or(|c| !word(c));
        before && after
    })
}
#[cfg(test)]
mod tests {
    use super::*;

    fn row(formulation: &str, size: &str, status: &str, error: Option<&str>) -> Record {
        Record {
            puzzle: "sudoku".into(),
            formulation: formulation.into(),
            backend: "gurobi".into(),
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
        let n = notes("sudoku", &rows).remove(0);
        assert!(
            n.starts_with("gurobi here is Gurobi 13.0.3 (gurobipy 13.0.3; size-limited licence"),
            "{n}"
        );
        assert!(
            n.contains("binary on 16x16 (2 runs), values on 25x25 (1 run)"),
            "{n}"
        );
        assert!(n.contains("forbid publishing benchmark results"), "{n}");
        assert!(n.contains("Refused by its licence (models over 2,000 variables or 2,000 rows), so – (not run) on gurobi"), "{n}");
        assert!(notes("kenken", &rows).is_empty());
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

    #[test]
    fn each_licensed_engine_gets_its_own_limit_and_terms_and_only_where_its_key_is_a_word() {
        let version = "Xpress 9.9.1 (optimizer 47.01.02; size-limited licence: community licence, 5,000 rows and columns together)";
        let over = "unsupported by xpress: the size-limited licence takes 5,000 rows and columns together; this model has 4,096 columns and 1,126 rows (5,222)";
        let mut rows = vec![
            Record {
                backend: "xpress".into(),
                solver_version: version.into(),
                ..row("binary", "9x9", "optimal", None)
            },
            Record {
                backend: "xpress".into(),
                solver_version: version.into(),
                ..row("binary", "16x16", "refused", Some(over))
            },
        ];
        let n = notes("sudoku", &rows);
        assert_eq!(n.len(), 1, "{n:?}");
        assert!(n[0].starts_with("xpress here is Xpress 9.9.1"), "{}", n[0]);
        assert!(!n[0].contains("Gurobi 11.0.3"), "{}", n[0]);
        assert!(n[0].contains("without FICO's written consent"), "{}", n[0]);
        assert!(
            n[0].contains("(models over 5,000 rows and columns together), so – (not run) on xpress: binary on 16x16 (1 run)"),
            "{}",
            n[0]
        );
        // With gurobi too, each engine gets its own note.
        rows.push(row("binary", "9x9", "optimal", None));
        assert_eq!(notes("sudoku", &rows).len(), 2);
        // A cell naming a longer key is not a cell of the engine.
        let mut tables = vec![Table {
            stem: "answers".into(),
            rows: vec![vec!["binary on xpress-cli".into()]],
            ..Table::default()
        }];
        annotate(&mut tables, &rows);
        assert!(tables[0].notes.is_empty(), "{:?}", tables[0].notes);
        tables[0].rows[0][0] = "binary on xpress".into();
        annotate(&mut tables, &rows);
        assert_eq!(tables[0].notes.len(), 1, "{:?}", tables[0].notes);
        assert!(mentions("binary/cplex (ahead)", "cplex"));
        assert!(!mentions("cplexish", "cplex"));
    }
}
