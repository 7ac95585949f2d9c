//! The statistics of a race: whether an instance separates two candidates, the exact
//! one-sided sign test of one candidate against the best, and Holm's step-down adjustment
//! over the comparisons of one look.
//!
//! * **Countable per pair** ([`separates`]): two candidates' times on an instance, each
//!   rounded to the millisecond ([`round_ms`]), separate them when they differ and the
//!   slower of the two took at least [`MIN_COUNTED_SECONDS`]. Nothing about a third
//!   candidate enters: dropping one never changes the evidence between two others.
//! * **The sign test** ([`sign_test_p`]): on the `n` instances that separate a candidate
//!   from the best, the number `w` on which the best was faster is Binomial(`n`, ½) when
//!   the two are equally good (each is as likely to be the faster one). The p-value is
//!   `P(X ≥ w)`, exact (W. J. Conover, *Practical Nonparametric Statistics*, 3rd ed.,
//!   Wiley 1999, §3.4). One-sided, because a race drops a candidate only when the best is
//!   faster: the error it guards against (dropping a candidate as good as the best) lies on
//!   that side alone.
//! * **Holm** ([`holm`]): S. Holm, "A simple sequentially rejective multiple test
//!   procedure", *Scandinavian Journal of Statistics* 6 (1979): the `m` p-values of a look
//!   sorted, the `i`-th smallest (from 0) rejected while it is at most `α/(m − i)`. It keeps
//!   the chance of any false rejection among the `m` at most `α` whatever the others' truth.

use statrs::distribution::{Binomial, DiscreteCDF};

/// The slower time of a pair, in seconds, under which an instance does not separate the
/// two: below it timings are mostly noise of the process and the clock.
pub const MIN_COUNTED_SECONDS: f64 = 0.010;

/// `seconds` rounded to the millisecond, the resolution at which a race compares times (two
/// runs within half a millisecond of each other tie).
pub fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// Whether times `a` and `b` (seconds, charged as the SGM charges them: a failure at its
/// limit) separate their two candidates: rounded to the millisecond they differ, and the
/// slower took at least [`MIN_COUNTED_SECONDS`]. A missing time (NaN) separates nothing.
pub fn separates(a: f64, b: f64) -> bool {
    let (a, b) = (round_ms(a), round_ms(b));
    !a.is_nan() && !b.is_nan() && a != b && a.max(b) >= MIN_COUNTED_SECONDS
}

/// Over pairs of times (`a`'s, `b`'s) of the instances two candidates both ran, those
/// that separate them ([`separates`]): (on how many `a` was faster, on how many `b` was).
pub fn tally(times: impl IntoIterator<Item = (f64, f64)>) -> (usize, usize) {
    let mut out = (0, 0);
    for (a, b) in times {
        if separates(a, b) {
            if round_ms(a) < round_ms(b) {
                out.0 += 1;
            } else {
                out.1 += 1;
            }
        }
    }
    out
}

/// The exact one-sided sign test: the chance that a fair coin tossed `wins + losses` times
/// shows at least `wins` heads, `P(X ≥ wins)` for X ~ Binomial(n, ½). 1 with no toss.
pub fn sign_test_p(wins: usize, losses: usize) -> f64 {
    let n = wins + losses;
    if n == 0 || wins == 0 {
        return 1.0;
    }
    let Ok(dist) = Binomial::new(0.5, n as u64) else {
        return 1.0;
    };
    // P(X ≥ wins) = 1 − P(X ≤ wins − 1).
    dist.sf(wins as u64 - 1).min(1.0)
}

/// The smallest p-value the sign test can give on `n` separating instances: every one won,
/// `2^−n`. A comparison whose level is below it cannot reject, whatever the times.
pub fn smallest_p(n: usize) -> f64 {
    0.5f64.powi(n as i32)
}

/// Holm's step-down procedure at level `alpha` over `p_values`: for each, whether it is
/// rejected, and the level it was compared with (`alpha/(m − i)` for the `i`-th smallest;
/// the first level not met, for those after the step-down stopped).
pub fn holm(p_values: &[f64], alpha: f64) -> Vec<(bool, f64)> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]).then(a.cmp(&b)));
    let mut out = vec![(false, alpha); m];
    let mut going = true;
    let mut stopped_at = alpha;
    for (i, &j) in order.iter().enumerate() {
        let level = alpha / (m - i) as f64;
        if going && p_values[j] <= level {
            out[j] = (true, level);
        } else {
            if going {
                stopped_at = level;
            }
            going = false;
            out[j] = (false, stopped_at);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * (1.0 + b.abs())
    }

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
        // Both failed at the limit: a tie.
        assert!(!separates(10.0, 10.0));
        assert!(!separates(f64::NAN, 1.0));
    }

    #[test]
    fn sign_test_matches_the_binomial() {
        // One-sided: 5 of 5: 1/32; 9 of 10: 11/1024; 16 of 20: 6196/1048576 (scipy
        // binomtest(k, n, 0.5, alternative="greater")).
        assert!(close(sign_test_p(5, 0), 1.0 / 32.0, 1e-12));
        assert!(close(sign_test_p(9, 1), 11.0 / 1024.0, 1e-12));
        assert!(close(sign_test_p(16, 4), 6196.0 / 1_048_576.0, 1e-9));
        // The best losing more than it wins is no evidence against the other.
        assert!(sign_test_p(1, 9) > 0.99);
        assert_eq!(sign_test_p(0, 0), 1.0);
        assert_eq!(smallest_p(10), 1.0 / 1024.0);
        assert!(close(sign_test_p(10, 0), smallest_p(10), 1e-12));
    }

    #[test]
    fn holm_steps_down_and_stops_at_the_first_failure() {
        // m = 4 at 0.04: levels 0.01, 0.0133, 0.02, 0.04.
        let r = holm(&[0.03, 0.005, 0.012, 0.5], 0.04);
        assert_eq!(r[1], (true, 0.01));
        assert_eq!(r[2], (true, 0.04 / 3.0));
        // 0.03 > 0.02: stops there, and 0.5 is not rejected either.
        assert_eq!(r[0], (false, 0.02));
        assert_eq!(r[3], (false, 0.02));
        // Nothing rejected when the smallest misses α/m.
        assert!(holm(&[0.011, 0.011], 0.02).iter().all(|x| !x.0));
        assert!(holm(&[], 0.05).is_empty());
    }
}
