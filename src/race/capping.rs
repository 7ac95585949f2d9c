//! Adaptive capping: a race stops a run once it cannot rank ahead of the best on its
//! instance, as irace (Pérez Cáceres, López-Ibáñez, Hoos and Stützle, LION 2017) and
//! ParamILS (Hutter, Hoos, Leyton-Brown and Stützle, JAIR 2009, "aggressive capping" with a
//! bound multiplier of 2) do for run-time races.
//!
//! On each instance the race first runs its current best alone. When the best succeeded,
//! every other survivor runs with a cap ([`cap_after`]): [`CAP_FACTOR`] times the best's
//! time on the run clock plus [`CAP_MARGIN_SECONDS`], on the clock of the time limit (the
//! run clock: building, LP relaxation, solve and a child process's start). A run the cap
//! stops has status `capped` ([`crate::record::CAPPED`]), its cap in `cap_seconds`, and
//! the configuration's own `time_limit` (so its run id is the uncapped run's).
//!
//! What the race makes of it: a run stopped at its cap is only known to be slower than the
//! cap ([`crate::race::separation`]): slower than the best (which took less than half of
//! it) and than any candidate that finished under it; against another stopped run nothing
//! is known, and the instance separates nothing. In the log ratios a test uses, it stands
//! at its cap on the side where that understates the gap the test looks for, and as
//! unbounded on the other, so that capping never makes a test reject more easily than the
//! uncapped runs would have. Everywhere a capped run is "stopped", never solved: the race takes it as a
//! time of at least its cap ([`crate::race::separation::Obs::stopped`]), and the report's
//! figures and means that take it at its cap mark them as lower bounds
//! ([`crate::report::answer::raced_seconds`]).

use crate::record::Record;
use crate::stats::succeeded;

/// The cap's multiple of the best's time (ParamILS's bound multiplier).
pub const CAP_FACTOR: f64 = 2.0;

/// The cap's margin over [`CAP_FACTOR`] times the best's time, seconds: room for the
/// timer's resolution on the shortest runs. A run as fast as the best is capped only
/// when its time is more than twice the best's on the instance; a stopped run is only
/// taken as slower than its cap, which is then true. (It was 0.1 s, then 0.05 s: most of
/// a race's time went into runs stopped at their caps, of hopeless candidates before the
/// first look; each 0.01 s of margin cost about 25 s of a main job's runs.)
pub const CAP_MARGIN_SECONDS: f64 = 0.02;

pub use crate::runner::{kill_after, CAP_KILL_SLACK_SECONDS};

/// The cap in words, for the report's notes: `twice the race's best plus 0.02 s`.
pub fn in_words() -> String {
    format!(
        "{} times the race's best plus {} s",
        if CAP_FACTOR == 2.0 {
            "twice".to_string()
        } else {
            format!("{CAP_FACTOR}")
        },
        CAP_MARGIN_SECONDS
    )
    .replace("twice times", "twice")
}

/// The cap of the other survivors' runs on an instance after the best's run `best` there:
/// [`CAP_FACTOR`] × its run-clock time + [`CAP_MARGIN_SECONDS`] when it succeeded; none when
/// it failed (the others then run to the time limit) or its run clock is unknown.
pub fn cap_after(best: &Record) -> Option<f64> {
    if !succeeded(best) {
        return None;
    }
    let t = best.run_seconds.or(best.seconds)?;
    Some(CAP_FACTOR * t + CAP_MARGIN_SECONDS)
}

/// The cap of a run the race's adaptive cap stopped (status `capped`), a lower bound on
/// its time; `None` for any other run.
pub fn stopped_at(r: &Record) -> Option<f64> {
    r.cap_seconds.filter(|_| r.is_capped())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: &str, verified: Option<bool>, run: Option<f64>) -> Record {
        Record {
            status: status.into(),
            verified,
            seconds: Some(0.2),
            run_seconds: run,
            time_limit: Some(10.0),
            ..Record::default()
        }
    }

    #[test]
    fn the_cap_is_twice_the_best_run_plus_the_margin() {
        let c = cap_after(&row("optimal", Some(true), Some(0.3))).unwrap();
        assert!((c - 0.62).abs() < 1e-12, "{c}");
        // Without a run clock, the solve clock.
        let c = cap_after(&row("optimal", Some(true), None)).unwrap();
        assert!((c - 0.42).abs() < 1e-12, "{c}");
        assert_eq!(in_words(), "twice the race's best plus 0.02 s");
        assert!((kill_after(0.1) - 0.2).abs() < 1e-12);
        assert!((kill_after(2.0) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn no_cap_after_a_best_that_failed_or_was_wrong() {
        assert_eq!(cap_after(&row("time_limit", None, Some(10.0))), None);
        assert_eq!(cap_after(&row("optimal", Some(false), Some(0.3))), None);
        assert_eq!(cap_after(&row("error", None, Some(0.3))), None);
    }
}
