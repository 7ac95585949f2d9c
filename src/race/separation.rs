//! What a race compares between two candidates: the instances that separate them, and the
//! per-instance log ratios of their times, with runs that did not finish standing in as
//! bounds.
//!
//! * **Countable per pair** ([`separates`]): two candidates' times on an instance, each
//!   rounded to the millisecond ([`round_ms`]), separate them when they differ and the
//!   slower of the two took at least [`MIN_COUNTED_SECONDS`]. Nothing about a third
//!   candidate enters: dropping one never changes the evidence between two others.
//! * **A run that did not finish** (a failure at the time limit, or a run the race's
//!   adaptive cap stopped) is [`Obs::censored`]: its time is only known to be at least the
//!   limit or the cap. Between two such runs nothing is known, and the instance separates
//!   nothing; a finished run faster than the other's bound is faster for certain.
//! * **Log ratios** ([`LogRatios`]): on each separating instance `ln(t_a / t_b)`. Where one
//!   run is censored its true ratio is only bounded, and each of the two vectors takes the
//!   side that makes a test built on it conservative: `lower` understates how much slower
//!   `a` is (a censored `a` at its bound; a censored `b` as if `a` were infinitely faster,
//!   −∞), `upper` overstates it (a censored `a` infinitely slower, +∞; a censored `b` at
//!   its bound). A test that `a` is slower uses `lower`; a bound on how much slower it can
//!   be uses `upper` ([`super::signed_rank::interval`]).

/// The slower time of a pair, in seconds, under which an instance does not separate the
/// two: below it timings are mostly noise of the process and the clock.
pub const MIN_COUNTED_SECONDS: f64 = 0.010;

/// `seconds` rounded to the millisecond, the resolution at which a race compares times (two
/// runs within half a millisecond of each other tie).
pub fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// Whether times `a` and `b` (seconds) separate their two candidates: rounded to the
/// millisecond they differ, and the slower took at least [`MIN_COUNTED_SECONDS`]. A
/// missing time (NaN) separates nothing.
pub fn separates(a: f64, b: f64) -> bool {
    let (a, b) = (round_ms(a), round_ms(b));
    !a.is_nan() && !b.is_nan() && a != b && a.max(b) >= MIN_COUNTED_SECONDS
}

/// One run as a race counts it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obs {
    /// Seconds on the run clock; for a censored run, the bound (its cap or time limit).
    pub seconds: f64,
    /// The run did not finish: its true time is at least `seconds`.
    pub censored: bool,
}

impl Obs {
    /// A finished run of `seconds`.
    pub fn done(seconds: f64) -> Obs {
        Obs {
            seconds,
            censored: false,
        }
    }

    /// A run stopped at `bound` seconds (a failure at its limit, or capped).
    pub fn stopped(bound: f64) -> Obs {
        Obs {
            seconds: bound,
            censored: true,
        }
    }
}

/// Which of two runs on one instance was faster, if the instance separates them and the
/// order is known: `Some(true)` when `a` was faster, `Some(false)` when `b` was.
pub fn faster(a: Obs, b: Obs) -> Option<bool> {
    if (a.censored && b.censored) || !separates(a.seconds, b.seconds) {
        return None;
    }
    let (ra, rb) = (round_ms(a.seconds), round_ms(b.seconds));
    if a.censored {
        // a is at least its bound: slower for certain only when b finished below it.
        (rb < ra).then_some(false)
    } else if b.censored {
        (ra < rb).then_some(true)
    } else {
        Some(ra < rb)
    }
}

/// Over the instances both ran, those that separate `a` from `b` with a known order: (on
/// how many `a` was faster, on how many `b` was).
pub fn tally(runs: impl IntoIterator<Item = (Obs, Obs)>) -> (usize, usize) {
    let mut out = (0, 0);
    for (a, b) in runs {
        match faster(a, b) {
            Some(true) => out.0 += 1,
            Some(false) => out.1 += 1,
            None => {}
        }
    }
    out
}

/// The log ratios `ln(t_a / t_b)` of two candidates over the instances that separate them
/// with a known order ([`faster`]), with censored runs replaced on the conservative side of
/// each use (the module's documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogRatios {
    /// For tests that `a` is slower and for the lower end of an interval: a censored `a` at
    /// its bound, a censored `b` as −∞.
    pub lower: Vec<f64>,
    /// For the upper end of an interval: a censored `a` as +∞, a censored `b` at its bound.
    pub upper: Vec<f64>,
    /// Of these instances, those on which `a` was censored (stopped, slower than `b`).
    pub a_censored: usize,
    /// Those on which `b` was censored.
    pub b_censored: usize,
}

impl LogRatios {
    /// The log ratios of `a` against `b` over pairs of runs on the same instances.
    pub fn of(runs: impl IntoIterator<Item = (Obs, Obs)>) -> LogRatios {
        let mut out = LogRatios::default();
        for (a, b) in runs {
            if faster(a, b).is_none() {
                continue;
            }
            let d = (round_ms(a.seconds).max(1e-6) / round_ms(b.seconds).max(1e-6)).ln();
            if a.censored {
                out.lower.push(d);
                out.upper.push(f64::INFINITY);
                out.a_censored += 1;
            } else if b.censored {
                out.lower.push(f64::NEG_INFINITY);
                out.upper.push(d);
                out.b_censored += 1;
            } else {
                out.lower.push(d);
                out.upper.push(d);
            }
        }
        out
    }

    /// The instances counted.
    pub fn len(&self) -> usize {
        self.lower.len()
    }

    /// Whether no instance separates the two.
    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ms_rounds_to_the_millisecond() {
        assert_eq!(round_ms(0.0124), 0.012);
        assert_eq!(round_ms(0.0126), 0.013);
        assert_eq!(round_ms(1.23449), 1.234);
    }

    #[test]
    fn separation_is_decided_by_the_pair_alone() {
        // Both under 10 ms: no, however far apart.
        assert!(!separates(0.001, 0.009));
        // The slower at 10 ms: yes.
        assert!(separates(0.001, 0.010));
        // Equal at the millisecond: no.
        assert!(!separates(0.5004, 0.4996));
        assert!(separates(0.5, 0.6));
        assert!(!separates(10.0, 10.0));
        assert!(!separates(f64::NAN, 1.0));
    }

    #[test]
    fn censored_runs_order_only_what_they_prove() {
        let (d, s) = (Obs::done, Obs::stopped);
        // A finished run under the other's bound: faster for certain.
        assert_eq!(faster(d(0.3), s(0.7)), Some(true));
        assert_eq!(faster(s(0.7), d(0.3)), Some(false));
        // Both stopped: nothing known.
        assert_eq!(faster(s(0.7), s(2.0)), None);
        // A finished run slower than the other's bound: the order is unknown.
        assert_eq!(faster(d(0.8), s(0.7)), None);
        // The log ratios: a stopped at 0.7 against b's 0.35: lower ln 2, upper +∞.
        let r = LogRatios::of([(s(0.7), d(0.35)), (d(0.2), d(0.1)), (d(0.1), s(0.3))]);
        assert_eq!(r.len(), 3);
        assert!((r.lower[0] - 2f64.ln()).abs() < 1e-12);
        assert_eq!(r.upper[0], f64::INFINITY);
        assert_eq!(r.lower[1], r.upper[1]);
        assert_eq!(r.lower[2], f64::NEG_INFINITY);
        assert!((r.upper[2] - (1.0f64 / 3.0).ln()).abs() < 1e-12);
        assert_eq!((r.a_censored, r.b_censored), (1, 1));
        assert_eq!(
            tally([(s(0.7), d(0.35)), (d(0.2), d(0.1)), (d(0.1), s(0.3))]),
            (1, 2)
        );
    }
}
