//! Wilcoxon's signed-rank test on per-instance log ratios, and the interval that inverts it.
//!
//! Two candidates' times on the `n` instances that separate them give the log ratios
//! `d_i = ln(t_a / t_b)` (positive: `a` slower). When the two are equally good, in the
//! sense that on each instance their times are exchangeable (either could have been the
//! other's), every `d_i` is symmetric about 0, whatever the instance's difficulty, the
//! distribution's tails or a censoring applied to both alike; the signed-rank statistic
//! then has its exact null distribution (F. Wilcoxon, "Individual comparisons by ranking
//! methods", Biometrics Bulletin 1945; W. J. Conover, *Practical Nonparametric
//! Statistics*, 3rd ed., 1999, §5.7).
//!
//! The statistic is counted over the **Walsh averages** `(d_i + d_j)/2`, `i ≤ j`: `W` is
//! the number of them above 0, which equals the sum of the ranks of the positive `d_i`
//! when no two `|d_i|` tie (J. W. Tukey 1949; Conover §5.7). Counting it so makes the test
//! and its interval one computation ([`interval`]): with `N = n(n+1)/2` Walsh averages
//! sorted, `A_1 ≤ … ≤ A_N`, and `w` the critical value at level γ ([`critical`]), the test
//! of "`a` is not slower" rejects at γ exactly when `A_{N−w+1} > 0`, the lower end of the
//! interval, and the test of "the location is at least δ" rejects exactly when
//! `A_w < δ`, its upper end. The centre is the Hodges–Lehmann estimate, the median of the
//! Walsh averages (J. L. Hodges and E. L. Lehmann, Ann. Math. Statist. 1963).
//!
//! A log ratio may be −∞ (a conservative stand-in for a censored run, [`super::pairs`]):
//! every Walsh average it enters is −∞, which the counting handles as any other value.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The exact null upper tails `P(W ≥ w)`, `w = 0..=n(n+1)/2`, of the signed-rank statistic
/// on `n` values (no ties), cached per `n`.
fn upper_tails(n: usize) -> Arc<Vec<f64>> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<Vec<f64>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(t) = cache.lock().unwrap().get(&n) {
        return t.clone();
    }
    // P(W = w) by adding ranks one at a time: rank r is in the positive set with
    // probability ½.
    let total = n * (n + 1) / 2;
    let mut p = vec![0.0f64; total + 1];
    p[0] = 1.0;
    let mut top = 0;
    for r in 1..=n {
        for w in (0..=top).rev() {
            let x = p[w] * 0.5;
            p[w] = x;
            p[w + r] += x;
        }
        top += r;
    }
    let mut tail = vec![0.0f64; total + 2];
    for w in (0..=total).rev() {
        tail[w] = tail[w + 1] + p[w];
    }
    tail.truncate(total + 1);
    for t in &mut tail {
        *t = t.min(1.0);
    }
    let tail = Arc::new(tail);
    cache.lock().unwrap().insert(n, tail.clone());
    tail
}

/// `P(W ≥ w)` under the null on `n` values: the exact one-sided p-value of a count `w`.
pub fn p_value(n: usize, w: usize) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let tails = upper_tails(n);
    tails.get(w).copied().unwrap_or(0.0)
}

/// The critical count at level `level` on `n` values: the smallest `w` with
/// `P(W ≥ w) ≤ level`; `None` when no count reaches it (the smallest p-value on `n`
/// values, `2^−n`, is above the level).
pub fn critical(n: usize, level: f64) -> Option<usize> {
    if n == 0 {
        return None;
    }
    let tails = upper_tails(n);
    // Tails fall as w rises: binary search for the first at or below the level.
    let (mut lo, mut hi) = (0usize, tails.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if tails[mid] <= level {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    (lo < tails.len()).then_some(lo)
}

/// The number of Walsh averages `(d_i + d_j)/2`, `i ≤ j`, above 0: the signed-rank count
/// (no NaN in `d`; −∞ allowed).
pub fn positive_walsh(d: &[f64]) -> usize {
    let mut s: Vec<f64> = d.to_vec();
    s.sort_by(f64::total_cmp);
    // For each i, the j ≥ i with s[i] + s[j] > 0: from the first such j to the end. As i
    // rises the first such j falls, so two pointers suffice.
    let n = s.len();
    let mut count = 0usize;
    let mut j = n; // first index with s[i] + s[j] > 0, searched downwards
    for i in 0..n {
        if j < i {
            j = i;
        }
        while j > i && s[i] + s[j - 1] > 0.0 {
            j -= 1;
        }
        count += n - j;
    }
    count
}

/// The number of Walsh averages `(d_i + d_j)/2`, `i ≤ j`, exactly 0 (finite `d`).
pub fn zero_walsh(d: &[f64]) -> usize {
    let mut s: Vec<f64> = d.to_vec();
    s.sort_by(f64::total_cmp);
    let mut count = 0;
    let (mut i, mut j) = (0usize, s.len());
    // Pairs i ≤ j with s[i] = −s[j]: walk from both ends.
    while i < j {
        let sum = s[i] + s[j - 1];
        if sum < 0.0 {
            i += 1;
        } else if sum > 0.0 {
            j -= 1;
        } else {
            // A run of equal values at each end.
            let (a, b) = (s[i], s[j - 1]);
            let mut ni = 0;
            while i < j && s[i] == a {
                ni += 1;
                i += 1;
            }
            let mut nj = 0;
            while j > i && s[j - 1] == b {
                nj += 1;
                j -= 1;
            }
            count += if a == b { ni * (ni + 1) / 2 } else { ni * nj };
        }
    }
    count
}

/// The `k`-th smallest (from 0) Walsh average of `d`.
pub fn walsh_at(d: &[f64], k: usize) -> f64 {
    let mut all = Vec::with_capacity(d.len() * (d.len() + 1) / 2);
    for i in 0..d.len() {
        for j in i..d.len() {
            all.push(walsh(d[i], d[j]));
        }
    }
    let k = k.min(all.len().saturating_sub(1));
    *all.select_nth_unstable_by(k, f64::total_cmp).1
}

/// One Walsh average, with ±∞ kept (never NaN: a +∞ and a −∞ never meet in one vector).
fn walsh(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY || b == f64::NEG_INFINITY {
        f64::NEG_INFINITY
    } else if a == f64::INFINITY || b == f64::INFINITY {
        f64::INFINITY
    } else {
        (a + b) / 2.0
    }
}

/// The Hodges–Lehmann estimate: the median of the Walsh averages (the mean of the two
/// middle ones when their number is even). NaN for no value.
pub fn hodges_lehmann(d: &[f64]) -> f64 {
    if d.is_empty() {
        return f64::NAN;
    }
    let n = d.len() * (d.len() + 1) / 2;
    if n % 2 == 1 {
        walsh_at(d, n / 2)
    } else {
        let (a, b) = (walsh_at(d, n / 2 - 1), walsh_at(d, n / 2));
        walsh(a, b)
    }
}

/// The one-sided test of "the location of `d` is at most 0" (for log ratios `ln(t_a /
/// t_b)`: `a` is not slower than `b`): its exact p-value `P(W ≥ positive_walsh(d))`.
pub fn test_greater(d: &[f64]) -> f64 {
    p_value(d.len(), positive_walsh(d))
}

/// The two ends of the interval that inverts the one-sided tests: the lower end at
/// `level_low` from `lower` (log ratios with censored runs replaced so as to understate
/// how much slower the first candidate is), the upper end at `level_high` from `upper`
/// (replaced so as to overstate it). An end is infinite where its level cannot be reached
/// on so few values. The lower end is above 0 exactly when [`test_greater`] on `lower` is
/// at most `level_low`.
pub fn interval(lower: &[f64], upper: &[f64], level_low: f64, level_high: f64) -> (f64, f64) {
    let lo = match critical(lower.len(), level_low) {
        Some(w) => {
            let total = lower.len() * (lower.len() + 1) / 2;
            walsh_at(lower, total - w)
        }
        None => f64::NEG_INFINITY,
    };
    let hi = match critical(upper.len(), level_high) {
        Some(w) => walsh_at(upper, w - 1),
        None => f64::INFINITY,
    };
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The count by brute force: every pair.
    fn brute(d: &[f64]) -> usize {
        let mut c = 0;
        for i in 0..d.len() {
            for j in i..d.len() {
                if walsh(d[i], d[j]) > 0.0 {
                    c += 1;
                }
            }
        }
        c
    }

    #[test]
    fn the_null_distribution_matches_known_values() {
        // n = 5: 32 sign patterns, W = 15 only for all positive: 1/32; W ≥ 14: 2/32;
        // W ≥ 13: 3/32; W ≥ 12: 5/32 (Conover's Table A12).
        assert_eq!(p_value(5, 15), 1.0 / 32.0);
        assert_eq!(p_value(5, 14), 2.0 / 32.0);
        assert_eq!(p_value(5, 13), 3.0 / 32.0);
        assert_eq!(p_value(5, 12), 5.0 / 32.0);
        assert_eq!(p_value(5, 0), 1.0);
        assert_eq!(p_value(5, 16), 0.0);
        // n = 10: one-sided 0.05 critical value 45 (P(W ≥ 45) = 0.042, P(W ≥ 44) = 0.053).
        assert!((p_value(10, 45) - 43.0 / 1024.0).abs() < 1e-12);
        assert_eq!(critical(10, 0.05), Some(45));
        // n = 12: nothing below 2^-12.
        assert_eq!(critical(12, 1e-4), None);
        assert_eq!(critical(12, 0.5f64.powi(12)), Some(78));
        // Symmetry: P(W ≥ w) = P(W ≤ N − w).
        let n = 20;
        let total = n * (n + 1) / 2;
        for w in 0..=total {
            let upper = p_value(n, w);
            let lower = 1.0 - p_value(n, total - w + 1);
            assert!((upper - lower).abs() < 1e-12, "{w}");
        }
    }

    #[test]
    fn the_count_equals_the_rank_sum_without_ties() {
        // d = 1, −2, 3, 4, −5: ranks of |d| 1..5, positive ranks 1 + 3 + 4 = 8.
        let d = [1.0, -2.0, 3.0, 4.0, -5.0];
        assert_eq!(positive_walsh(&d), 8);
        assert_eq!(brute(&d), 8);
        // With −∞ (a censored run): it never pairs positively.
        let d = [1.0, f64::NEG_INFINITY, 3.0];
        assert_eq!(positive_walsh(&d), brute(&d));
        assert_eq!(positive_walsh(&d), 3);
    }

    proptest! {
        #[test]
        fn the_fast_count_agrees_with_every_pair(
            d in prop::collection::vec(prop_oneof![
                (-50i32..50).prop_map(|x| x as f64 / 8.0),
                Just(f64::NEG_INFINITY),
            ], 0..30)
        ) {
            prop_assert_eq!(positive_walsh(&d), brute(&d));
        }

        #[test]
        fn zeros_are_counted_as_every_pair_counts_them(
            d in prop::collection::vec((-6i32..6).prop_map(|x| x as f64), 0..25)
        ) {
            let mut c = 0;
            for i in 0..d.len() {
                for j in i..d.len() {
                    if d[i] + d[j] == 0.0 {
                        c += 1;
                    }
                }
            }
            prop_assert_eq!(zero_walsh(&d), c);
        }

        #[test]
        fn the_lower_end_is_above_zero_exactly_when_the_test_rejects(
            d in prop::collection::vec((-80i32..120).prop_map(|x| x as f64 / 16.0), 1..30),
            level in prop_oneof![Just(0.05), Just(0.01), Just(1e-3), Just(1e-4)],
        ) {
            let (lo, hi) = interval(&d, &d, level, level);
            prop_assert_eq!(lo > 0.0, test_greater(&d) <= level);
            // And the upper end below δ exactly when the shifted test rejects "≥ δ".
            let delta = 0.3;
            let shifted: Vec<f64> = d.iter().map(|x| delta - x).collect();
            prop_assert_eq!(hi < delta, test_greater(&shifted) <= level);
            if lo.is_finite() && hi.is_finite() {
                prop_assert!(lo <= hodges_lehmann(&d) && hodges_lehmann(&d) <= hi);
            }
        }
    }

    #[test]
    fn the_hodges_lehmann_estimate_is_the_median_of_walsh_averages() {
        // Walsh averages of 1, 2, 6: 1, 1.5, 3.5, 2, 4, 6: median (2 + 3.5)/2 = 2.75.
        assert_eq!(hodges_lehmann(&[1.0, 2.0, 6.0]), 2.75);
        assert_eq!(hodges_lehmann(&[4.0]), 4.0);
        assert!(hodges_lehmann(&[]).is_nan());
    }
}
