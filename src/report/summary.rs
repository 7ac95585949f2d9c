//! The summary of runs per puzzle, formulation and engine: solved counts, medians and
//! shifted geometric means ([`crate::stats`]).
//!
//! Failures are never dropped: a run that did not solve counts exactly at its time limit
//! (never at its overrun; without a limit, at its own recorded time) in the median and
//! the shifted geometric mean, and at twice its limit in PAR-2.

use crate::record::Record;
use crate::stats::{charged_seconds, median, shifted_geometric_mean, succeeded};
use std::collections::BTreeMap;

/// One line of the summary: a (puzzle, formulation, engine) group.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// Puzzle key.
    pub puzzle: String,
    /// Formulation key.
    pub formulation: String,
    /// Engine key.
    pub backend: String,
    /// Runs in the group.
    pub runs: usize,
    /// Runs that found a verified solution or proved infeasibility.
    pub solved: usize,
    /// Median seconds over all runs (failures at their charged time).
    pub median_seconds: Option<f64>,
    /// Shifted geometric mean of seconds, failures charged at the time limit.
    pub sgm_seconds: Option<f64>,
    /// Mean PAR-2 score over the runs: a failure counts twice its time limit
    /// ([`crate::stats::par2_seconds`]).
    pub par2_seconds: Option<f64>,
}

/// Groups rows by (puzzle, formulation, engine) and summarises each group.
pub fn summarise(rows: &[Record], shift: f64) -> Vec<SummaryRow> {
    let mut groups: BTreeMap<(String, String, String), Vec<&Record>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.puzzle.clone(), r.formulation.clone(), r.backend_label()))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|((puzzle, formulation, backend), rs)| {
            let times: Vec<f64> = rs.iter().map(|r| charged_seconds(r)).collect();
            SummaryRow {
                puzzle,
                formulation,
                backend,
                runs: rs.len(),
                solved: rs.iter().filter(|r| succeeded(r)).count(),
                median_seconds: median(&times),
                sgm_seconds: shifted_geometric_mean(&times, shift),
                par2_seconds: crate::stats::par2(&rs),
            }
        })
        .collect()
}

/// The summary as an aligned text table for the terminal: each column as wide as its
/// widest cell; times below a millisecond get six decimals, the rest four.
pub fn text_table(rows: &[SummaryRow], shift: f64) -> String {
    let f = |x: Option<f64>| {
        x.map_or("-".to_string(), |v| {
            if v < 0.001 {
                format!("{v:.6}")
            } else {
                format!("{v:.4}")
            }
        })
    };
    let mut cells: Vec<[String; 7]> = vec![[
        "puzzle".into(),
        "formulation".into(),
        "backend".into(),
        "runs".into(),
        "solved".into(),
        "median [s]".into(),
        format!("sgm{shift} [s]"),
    ]];
    for r in rows {
        cells.push([
            r.puzzle.clone(),
            r.formulation.clone(),
            r.backend.clone(),
            r.runs.to_string(),
            r.solved.to_string(),
            f(r.median_seconds),
            f(r.sgm_seconds),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for row in &cells {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                if i < 3 {
                    format!("{cell:<w$}", w = widths[i])
                } else {
                    format!("{cell:>w$}", w = widths[i])
                }
            })
            .collect();
        s.push_str(line.join("  ").trim_end());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_table_aligns_long_keys_and_shows_tiny_times() {
        let row = |backend: &str, t: f64| SummaryRow {
            puzzle: "zebra".into(),
            formulation: "cp".into(),
            backend: backend.into(),
            runs: 1,
            solved: 1,
            median_seconds: Some(t),
            sgm_seconds: Some(t),
            par2_seconds: Some(t),
        };
        let table = text_table(&[row("propagate-h123", 0.000029), row("highs", 12.5)], 1.0);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3);
        // Every line ends at the same column, and the engine column holds the long key.
        assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{table}");
        assert!(lines[1].contains("propagate-h123  "), "{table}");
        assert!(lines[1].ends_with("0.000029"), "{table}");
        assert!(lines[2].ends_with("12.5000"), "{table}");
    }

    #[test]
    fn failures_are_charged_the_limit() {
        let ok = Record {
            status: "optimal".into(),
            verified: Some(true),
            seconds: Some(0.5),
            time_limit: Some(10.0),
            ..Record::default()
        };
        let tl = Record {
            status: "time_limit".into(),
            seconds: Some(10.2),
            time_limit: Some(10.0),
            ..Record::default()
        };
        let bad = Record {
            status: "optimal".into(),
            verified: Some(false),
            seconds: Some(0.1),
            time_limit: Some(10.0),
            ..Record::default()
        };
        assert_eq!(charged_seconds(&ok), 0.5);
        // Stopped 0.2 s past its limit: charged the limit, not the overrun.
        assert_eq!(charged_seconds(&tl), 10.0);
        assert_eq!(charged_seconds(&bad), 10.0);
        let s = summarise(&[ok, tl, bad], 1.0);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].solved, 1);
        assert_eq!(s[0].runs, 3);
        assert_eq!(s[0].median_seconds, Some(10.0));
        assert_eq!(s[0].par2_seconds, Some((0.5 + 20.0 + 20.0) / 3.0));
    }
}
