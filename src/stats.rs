//! Statistics over runs, shared by the report, the puzzles' tables and the shard planner:
//! the median, the shifted geometric mean, the coefficient of variation, and the time a
//! run is charged (failures at the time limit, never dropped).

use crate::record::Record;

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

/// The run's PAR-2 score (penalised average runtime, factor 2, as the SAT competitions
/// rank solvers): its time when it succeeded, else twice its time limit (its own time
/// when there was no limit).
pub fn par2_seconds(r: &Record) -> f64 {
    let t = r.seconds.unwrap_or(0.0);
    if succeeded(r) {
        t
    } else {
        r.time_limit.map_or(t, |l| 2.0 * l).max(t)
    }
}

/// The mean PAR-2 score of `rows` ([`par2_seconds`]); `None` without rows.
pub fn par2(rows: &[&Record]) -> Option<f64> {
    (!rows.is_empty())
        .then(|| rows.iter().map(|r| par2_seconds(r)).sum::<f64>() / rows.len() as f64)
}

/// A run succeeded when it proved infeasibility or found a solution the verifier accepted.
pub fn succeeded(r: &Record) -> bool {
    r.status == "infeasible" || (r.solved() && r.verified == Some(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgm_and_median() {
        let sgm = shifted_geometric_mean(&[1.0, 3.0], 1.0).unwrap();
        assert!((sgm - (8f64.sqrt() - 1.0)).abs() < 1e-12);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn failures_are_charged_the_limit_and_success_needs_the_verifier() {
        let ok = Record {
            status: "optimal".into(),
            verified: Some(true),
            seconds: Some(0.5),
            time_limit: Some(10.0),
            ..Record::default()
        };
        let bad = Record {
            verified: Some(false),
            ..ok.clone()
        };
        let infeasible = Record {
            status: "infeasible".into(),
            verified: None,
            ..ok.clone()
        };
        assert!(succeeded(&ok) && !succeeded(&bad) && succeeded(&infeasible));
        assert_eq!(charged_seconds(&ok), 0.5);
        assert_eq!(charged_seconds(&bad), 10.0);
        let cv = coefficient_of_variation(&[1.0, 3.0]).unwrap();
        assert!((cv - 2f64.sqrt() / 2.0).abs() < 1e-12);
        assert_eq!(coefficient_of_variation(&[1.0]), None);
    }

    #[test]
    fn par2_charges_a_failure_twice_its_limit() {
        let run = |status: &str, seconds: f64| Record {
            status: status.into(),
            verified: (status == "optimal").then_some(true),
            seconds: Some(seconds),
            time_limit: Some(10.0),
            ..Record::default()
        };
        let (ok, failed) = (run("optimal", 1.0), run("time_limit", 10.0));
        assert_eq!(par2_seconds(&ok), 1.0);
        assert_eq!(par2_seconds(&failed), 20.0);
        // A solution the verifier refused is a failure too.
        let refused = Record {
            verified: Some(false),
            ..run("optimal", 3.0)
        };
        assert_eq!(par2_seconds(&refused), 20.0);
        assert_eq!(par2(&[&ok, &failed]), Some(10.5));
        assert_eq!(par2(&[]), None);
    }
}
