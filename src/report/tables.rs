//! The report's own tables from rows: the summary per puzzle, formulation and engine, and
//! the run-to-run variation behind it. The table type and its writers are in
//! [`crate::table`].

use super::summary::{self, SummaryRow};
use crate::record::Record;
use crate::stats;
use crate::table::{secs, sgm_note, Table, NO_FIGURE};
use std::collections::BTreeMap;

/// The coefficient of variation (standard deviation / mean) of seconds over the repeats
/// of each run (instance, formulation, engine with its settings, time limit and seed:
/// everything but the repeat number), and its median per (puzzle, formulation, engine
/// label).
pub fn repeat_variation(rows: &[Record]) -> BTreeMap<(String, String, String), f64> {
    type RunKey = (String, String, String, String, Option<u64>, Option<u64>);
    let mut per_run: BTreeMap<RunKey, Vec<f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| stats::succeeded(r)) {
        if let Some(t) = r.seconds {
            per_run
                .entry((
                    r.puzzle.clone(),
                    r.formulation.clone(),
                    r.backend_label(),
                    r.instance.clone(),
                    r.time_limit.map(f64::to_bits),
                    r.seed,
                ))
                .or_default()
                .push(t);
        }
    }
    let mut cvs: BTreeMap<(String, String, String), Vec<f64>> = BTreeMap::new();
    for ((p, f, b, ..), ts) in per_run {
        if let Some(cv) = stats::coefficient_of_variation(&ts) {
            cvs.entry((p, f, b)).or_default().push(cv);
        }
    }
    cvs.into_iter()
        .filter_map(|(k, v)| stats::median(&v).map(|m| (k, m)))
        .collect()
}

/// The summary of every puzzle × formulation × engine: runs, solved, median and
/// shifted geometric mean of seconds, and run-to-run variation.
pub fn summary_table(rows: &[Record], shift: f64) -> Table {
    let cv = repeat_variation(rows);
    // With certificates asked for: the certified claims of each configuration.
    let certified = super::certificates::any(rows).then(|| {
        let mut by: BTreeMap<(String, String, String), Vec<&Record>> = BTreeMap::new();
        for r in rows {
            by.entry((r.puzzle.clone(), r.formulation.clone(), r.backend_label()))
                .or_default()
                .push(r);
        }
        by
    });
    let body = summary::summarise(rows, shift)
        .into_iter()
        .map(|s: SummaryRow| {
            let key = (s.puzzle.clone(), s.formulation.clone(), s.backend.clone());
            let certified_cell = certified.as_ref().map(|by| {
                by.get(&key)
                    .map_or(NO_FIGURE.to_string(), |rs| super::certificates::cell(rs))
            });
            let mut cells = vec![
                s.puzzle,
                s.formulation,
                s.backend,
                s.runs.to_string(),
                s.solved.to_string(),
                secs(s.median_seconds),
                secs(s.sgm_seconds),
                secs(s.par2_seconds),
                cv.get(&key)
                    .map_or(NO_FIGURE.into(), |c| format!("{:.0}%", c * 100.0)),
            ];
            cells.extend(certified_cell);
            cells
        })
        .collect();
    let mut columns: Vec<String> = [
        "puzzle",
        "formulation",
        "backend",
        "runs",
        "solved",
        "median (s)",
        &format!("SGM{shift} (s)"),
        "PAR-2 (s)",
        "repeat CV",
    ]
    .map(String::from)
    .to_vec();
    let mut notes = vec![
        "solved: verified solutions plus proofs of infeasibility; failed runs count at the time limit in the median and the SGM.".into(),
        sgm_note(shift),
        "PAR-2: the mean over the runs of the time, a failed run counting twice its time limit (the SAT competitions' penalised average runtime).".into(),
        format!("repeat CV: median over instances of the coefficient of variation of the solve time across repeats ({NO_FIGURE} with one repeat)."),
    ];
    if certified.is_some() {
        columns.push("certified".into());
        notes.push(super::certificates::CELL_NOTE.into());
    }
    Table {
        stem: "summary".into(),
        title: "Summary per puzzle, formulation and backend".into(),
        columns,
        labels: 3,
        rows: body,
        notes,
    }
}
