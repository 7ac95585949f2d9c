//! Summary statistics over runs: solved counts, medians, shifted geometric means.
//!
//! Failures are never dropped: a run that did not solve counts at the time limit (or,
//! without a limit, at its own recorded time) in the shifted geometric mean.

use crate::record::Record;
use std::collections::BTreeMap;

/// The shifted geometric mean exp(mean(ln(t + s))) − s.
pub fn shifted_geometric_mean(times: &[f64], shift: f64) -> Option<f64> {
    if times.is_empty() {
        return None;
    }
    let mean = times.iter().map(|t| (t + shift).ln()).sum::<f64>() / times.len() as f64;
    Some(mean.exp() - shift)
}

/// The coefficient of variation of `values` (sample standard deviation over mean): `None`
/// with fewer than two values or a mean that is not positive.
pub fn coefficient_of_variation(values: &[f64]) -> Option<f64> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let var = values.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (mean > 0.0).then(|| var.sqrt() / mean)
}

/// The median (mean of the two middle values for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

/// One line of the summary: a (puzzle, formulation, backend) group.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// Puzzle key.
    pub puzzle: String,
    /// Formulation key.
    pub formulation: String,
    /// Backend key.
    pub backend: String,
    /// Runs in the group.
    pub runs: usize,
    /// Runs that found a verified solution or proved infeasibility.
    pub solved: usize,
    /// Median seconds over all runs (failures at their charged time).
    pub median_seconds: Option<f64>,
    /// Shifted geometric mean of seconds, failures charged at the time limit.
    pub sgm_seconds: Option<f64>,
}

/// The seconds a run is charged: its time when it succeeded, else the time limit (or its
/// own time when there was no limit).
pub fn charged_seconds(r: &Record) -> f64 {
    let t = r.seconds.unwrap_or(0.0);
    if succeeded(r) {
        t
    } else {
        r.time_limit.unwrap_or(t).max(t)
    }
}

/// A run succeeded when it proved infeasibility or found a solution the verifier accepted.
pub fn succeeded(r: &Record) -> bool {
    r.status == "infeasible" || (r.solved() && r.verified == Some(true))
}

/// Groups rows by (puzzle, formulation, backend) and summarises each group.
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
        };
        let table = text_table(&[row("propagate-h123", 0.000029), row("highs", 12.5)], 1.0);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3);
        // Every line ends at the same column, and the backend column holds the long key.
        assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{table}");
        assert!(lines[1].contains("propagate-h123  "), "{table}");
        assert!(lines[1].ends_with("0.000029"), "{table}");
        assert!(lines[2].ends_with("12.5000"), "{table}");
    }

    #[test]
    fn sgm_and_median() {
        let sgm = shifted_geometric_mean(&[1.0, 3.0], 1.0).unwrap();
        assert!((sgm - (8f64.sqrt() - 1.0)).abs() < 1e-12);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
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
        assert_eq!(charged_seconds(&tl), 10.2);
        assert_eq!(charged_seconds(&bad), 10.0);
        let s = summarise(&[ok, tl, bad], 1.0);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].solved, 1);
        assert_eq!(s[0].runs, 3);
    }
}
