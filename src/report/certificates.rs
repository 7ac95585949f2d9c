//! What the report says of certified claims (`--certify`, [`crate::certify`]): the
//! summary's `certified` column per configuration, and the table of certificates per
//! puzzle, instance set, configuration and claim, with what they cost. Both appear only
//! when some row asked for a certificate.

use crate::record::Record;
use crate::stats;
use crate::table::{secs, Table, NO_FIGURE};
use std::collections::BTreeMap;

/// What became of one row's claim, read from its `certificate` cell.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// VeriPB accepted the proof of this claim.
    Checked(String),
    /// The checker or the certifying search refused this claim.
    Rejected(String),
    /// A claim not certified: the reason (the certifying search's time limit, not a 0/1
    /// model, rows added while solving).
    NotCertified(String),
    /// No claim beyond the answer (the verifier checked it): the reason.
    NoClaim(String),
}

/// The kind of `r`'s certificate, or None when none was asked for.
pub fn kind(r: &Record) -> Option<Kind> {
    let c = r.certificate.as_str();
    // "checked (unique, veripb 3.0.2)", "rejected (optimal): why".
    let claim = |rest: &str| -> String {
        rest.trim_start_matches(" (")
            .split([',', ')'])
            .next()
            .unwrap_or("")
            .to_string()
    };
    if let Some(rest) = c.strip_prefix("checked") {
        Some(Kind::Checked(claim(rest)))
    } else if let Some(rest) = c.strip_prefix("rejected") {
        Some(Kind::Rejected(claim(rest)))
    } else if let Some(why) = c.strip_prefix("none: ") {
        // The reason without its details in brackets, so that rows group by it.
        let short = why.split(" (").next().unwrap_or(why).trim().to_string();
        if why.starts_with("no claim") {
            Some(Kind::NoClaim(short))
        } else {
            Some(Kind::NotCertified(short))
        }
    } else {
        None
    }
}

/// True when some row asked for a certificate.
pub fn any(rows: &[Record]) -> bool {
    rows.iter().any(|r| !r.certificate.is_empty())
}

/// The summary's `certified` cell of a configuration's rows: "5 of 5 claims checked",
/// "3 of 5 claims checked, 1 REJECTED", "no claim" (only answers, which the verifier
/// checked), or the empty mark where no row asked.
pub fn cell(rows: &[&Record]) -> String {
    let kinds: Vec<Kind> = rows.iter().filter_map(|r| kind(r)).collect();
    if kinds.is_empty() {
        return NO_FIGURE.into();
    }
    let checked = kinds
        .iter()
        .filter(|k| matches!(k, Kind::Checked(_)))
        .count();
    let rejected = kinds
        .iter()
        .filter(|k| matches!(k, Kind::Rejected(_)))
        .count();
    let claims = kinds
        .iter()
        .filter(|k| !matches!(k, Kind::NoClaim(_)))
        .count();
    if claims == 0 {
        return "no claim".into();
    }
    let mut s = format!("{checked} of {claims} claims checked");
    if rejected > 0 {
        s.push_str(&format!(", {rejected} REJECTED"));
    }
    s
}

/// The note of the summary's `certified` column.
pub const CELL_NOTE: &str = "certified (--certify): of the runs' claims beyond a valid answer (optimal, unique or every solution found, infeasible), how many VeriPB checked from a proof of the project's proof-logging search (docs/certificates.md); REJECTED: the checker or the certifying search refused a claim; \"no claim\": the runs made none beyond their answers, which the verifier checked.";

/// The table of certificates, when some row asked for one: per puzzle, instance set (an
/// instance's file: its name before `:`), formulation, engine and claim (or the reason
/// there was no certificate), the runs, how many were checked and rejected, and the
/// median seconds of the certifying search and of the check, and the largest proof.
pub fn certificates_table(rows: &[Record]) -> Option<Table> {
    if !any(rows) {
        return None;
    }
    type Key = (String, String, String, String, String);
    let mut groups: BTreeMap<Key, Vec<(&Record, Kind)>> = BTreeMap::new();
    for r in rows {
        let Some(k) = kind(r) else { continue };
        let set = r.instance.split(':').next().unwrap_or("").to_string();
        let what = match &k {
            Kind::Checked(c) | Kind::Rejected(c) => c.clone(),
            Kind::NotCertified(why) => format!("not certified: {why}"),
            Kind::NoClaim(why) => why.clone(),
        };
        groups
            .entry((
                r.puzzle.clone(),
                set,
                r.formulation.clone(),
                r.backend_label(),
                what,
            ))
            .or_default()
            .push((r, k));
    }
    let body = groups
        .into_iter()
        .map(|((puzzle, set, formulation, backend, what), rs)| {
            let checked = rs
                .iter()
                .filter(|(_, k)| matches!(k, Kind::Checked(_)))
                .count();
            let rejected = rs
                .iter()
                .filter(|(_, k)| matches!(k, Kind::Rejected(_)))
                .count();
            let search: Vec<f64> = rs.iter().filter_map(|(r, _)| r.certify_seconds).collect();
            let check: Vec<f64> = rs.iter().filter_map(|(r, _)| r.check_seconds).collect();
            let proof = rs.iter().filter_map(|(r, _)| r.proof_bytes).max();
            vec![
                puzzle,
                set,
                formulation,
                backend,
                what,
                rs.len().to_string(),
                checked.to_string(),
                rejected.to_string(),
                secs(stats::median(&search)),
                secs(stats::median(&check)),
                proof.map_or(NO_FIGURE.into(), |b| format!("{:.0}", b as f64 / 1000.0)),
            ]
        })
        .collect();
    Some(Table {
        stem: "certificates".into(),
        title: "Certified claims".into(),
        columns: [
            "puzzle",
            "set",
            "formulation",
            "backend",
            "claim",
            "runs",
            "checked",
            "rejected",
            "search median (s)",
            "check median (s)",
            "largest proof (kB)",
        ]
        .map(String::from)
        .to_vec(),
        labels: 5,
        rows: body,
        notes: vec![
            "claim: what the runs claimed beyond a valid answer (optimal; unique, or every solution found, for a settled count; infeasible), certified on the model as the project writes it by a proof-logging search and checked by VeriPB; or, for runs without a certificate, why (\"not certified: …\" for a claim the project could not certify, else the runs made no claim beyond their answers, which the verifier checked).".into(),
            "search and check: seconds of the proof-logging search (writing the model and the proof included) and of the checker, not part of the runs' times.".into(),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(instance: &str, certificate: &str) -> Record {
        Record {
            puzzle: "sudoku".into(),
            instance: instance.into(),
            formulation: "binary".into(),
            backend: "sat".into(),
            status: "optimal".into(),
            certificate: certificate.into(),
            certify_seconds: Some(0.02),
            check_seconds: Some(0.05),
            proof_bytes: Some(1_000_000),
            ..Record::default()
        }
    }

    #[test]
    fn the_cells_count_checked_rejected_and_uncertified_claims_apart_from_answers() {
        let rows = [
            row("a:1", "checked (unique, veripb 3.0.2)"),
            row("a:2", "checked (unique, veripb 3.0.2)"),
            row("a:3", "rejected (unique): the certifying search found a solution the claim excludes"),
            row("b:1", "none: the certifying search reached its time limit"),
            row("b:2", "none: no claim beyond the answer, which the verifier checked (the model has no objective; --count 2 claims uniqueness)"),
        ];
        let refs: Vec<&Record> = rows.iter().collect();
        assert_eq!(cell(&refs), "2 of 4 claims checked, 1 REJECTED");
        assert_eq!(cell(&refs[4..]), "no claim");
        assert_eq!(cell(&[&Record::default()]), NO_FIGURE);
        let t = certificates_table(&rows).expect("a table");
        let lines: Vec<String> = t.rows.iter().map(|r| r[1..8].join(" ")).collect();
        assert_eq!(
            lines,
            [
                "a binary sat unique 3 2 1",
                "b binary sat no claim beyond the answer, which the verifier checked 1 0 0",
                "b binary sat not certified: the certifying search reached its time limit 1 0 0",
            ]
        );
        // Without a certificate asked for, neither the table nor the summary's column.
        let plain = [Record::default()];
        assert!(certificates_table(&plain).is_none());
        let summary = crate::report::tables::summary_table(&plain, 0.01);
        assert!(!summary.columns.iter().any(|c| c == "certified"));
        let summary = crate::report::tables::summary_table(&rows, 0.01);
        assert_eq!(summary.columns.last().unwrap(), "certified");
    }
}
