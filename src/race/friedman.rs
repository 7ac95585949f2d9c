//! The statistics of a race: ranks within each instance (a *block*), the Friedman test
//! with its tie correction, its Iman–Davenport F form, and Conover's post-hoc comparison of
//! a candidate with the current best, as F-Race (Birattari, Stützle, Paquete and
//! Varrentrapp, GECCO 2002) and irace (López-Ibáñez et al., Operations Research
//! Perspectives 2016) use them.
//!
//! The formulas are those of W. J. Conover, *Practical Nonparametric Statistics*, 3rd ed.
//! (Wiley, 1999), section 5.8 ("Several related samples", the Friedman test), in its
//! notation: `b` blocks (counted instances), `k` treatments (candidates), `R(X_ij)` the
//! mid-rank of candidate `j` within block `i` (rank 1 the fastest), and
//!
//! * `R_j = Σ_i R(X_ij)`, the rank sum of candidate `j`;
//! * `A1 = Σ_i Σ_j R(X_ij)²`, the sum of the squared ranks (`bk(k+1)(2k+1)/6` without ties);
//! * `C1 = bk(k+1)²/4`, the correction for the mean;
//! * `T1 = (k−1)(Σ_j R_j² − b·C1) / (A1 − C1)`, the Friedman statistic, tie-corrected
//!   through `A1` (without ties it is the textbook `12/(bk(k+1))·Σ R_j² − 3b(k+1)`, and with
//!   mid-ranks it equals the tie-corrected form of `scipy.stats.friedmanchisquare`);
//! * `T2 = (b−1)·T1 / (b(k−1) − T1)`, the Iman–Davenport form, referred to the F
//!   distribution with `k−1` and `(b−1)(k−1)` degrees of freedom;
//! * candidates `i` and `j` differ at level α when
//!   `|R_j − R_i| > t_{1−α/2} · [2(b·A1 − Σ_j R_j²) / ((b−1)(k−1))]^{1/2}`,
//!   with `t` on `(b−1)(k−1)` degrees of freedom. Equivalently (Conover writes both)
//!   `b·A1 − Σ R_j² = b(A1 − C1)(1 − T1/(b(k−1)))`, the form scikit-posthocs'
//!   `posthoc_conover_friedman` computes.
//!
//! Here the post-hoc statistic is `t = |R_j − R_best| / [2(b·A1 − Σ R_j²)/((b−1)(k−1))]^{1/2}`
//! with the two-sided p-value `2·P(T > t)`, so that "p < α" is Conover's criterion.

use serde::{Deserialize, Serialize};
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, FisherSnedecor, StudentsT};

/// The slowest survivor's time, in seconds, under which an instance does not count toward
/// any test: below it timings are mostly noise of the process and the clock.
pub const MIN_COUNTED_SECONDS: f64 = 0.010;

/// `seconds` rounded to the millisecond, the resolution at which a race ranks times (two
/// runs within half a millisecond of each other tie).
pub fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// The mid-ranks of one block: rank 1 for the smallest value, and values that are equal
/// share the mean of the ranks they occupy (two tied for first both get 1.5).
pub fn mid_ranks(block: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..block.len()).collect();
    order.sort_by(|&a, &b| block[a].total_cmp(&block[b]));
    let mut ranks = vec![0.0; block.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && block[order[j + 1]] == block[order[i]] {
            j += 1;
        }
        // Positions i..=j (0-based) hold ranks i+1..=j+1, whose mean is (i+j)/2 + 1.
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &o in &order[i..=j] {
            ranks[o] = rank;
        }
        i = j + 1;
    }
    ranks
}

/// Whether a block of (rounded) times counts toward the tests: at least two candidates,
/// not all of them tied, and the slowest at or above [`MIN_COUNTED_SECONDS`].
pub fn block_counts(block: &[f64]) -> bool {
    let Some(first) = block.first() else {
        return false;
    };
    let slowest = block.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    block.len() >= 2 && block.iter().any(|t| t != first) && slowest >= MIN_COUNTED_SECONDS
}

/// The blocks of `blocks` that count ([`block_counts`]), in their order.
pub fn counted_blocks(blocks: &[Vec<f64>]) -> Vec<Vec<f64>> {
    blocks.iter().filter(|b| block_counts(b)).cloned().collect()
}

/// The Friedman test over `b` blocks of `k` candidates (Conover 1999, §5.8), with the
/// quantities the post-hoc test needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Friedman {
    /// `b`: the number of blocks (counted instances).
    pub blocks: usize,
    /// `k`: the number of candidates.
    pub candidates: usize,
    /// `R_j`: each candidate's sum of mid-ranks over the blocks (lower is faster).
    pub rank_sums: Vec<f64>,
    /// `A1`: the sum of all squared mid-ranks.
    pub a1: f64,
    /// `T1`: the tie-corrected Friedman statistic (χ² with `k−1` degrees of freedom for
    /// large `b`); 0 when every block is a complete tie (`A1 = C1`).
    pub chi_squared: f64,
    /// `T2`: the Iman–Davenport statistic; infinite when every block ranks the candidates
    /// alike with no tie (`T1 = b(k−1)`).
    pub f: f64,
    /// The degrees of freedom of `T2`: `(k−1, (b−1)(k−1))`.
    pub df: (f64, f64),
    /// `P(F > T2)`: the Iman–Davenport p-value (1 when `T1 = 0` or `b < 2`, 0 when `T2` is
    /// infinite).
    pub p_value: f64,
}

/// Conover's post-hoc comparison of one candidate with another (the current best).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Conover {
    /// `|R_j − R_best|`: the difference of the rank sums.
    pub rank_sum_difference: f64,
    /// `t`: that difference over its standard error; infinite when the standard error is 0
    /// and the difference is not.
    pub t: f64,
    /// The degrees of freedom of `t`: `(b−1)(k−1)`.
    pub df: f64,
    /// The two-sided p-value `2·P(T > t)` (1 when the difference is 0).
    pub p_value: f64,
}

/// The Friedman test of `blocks`, each holding one value per candidate in the same order
/// (already rounded and filtered by the caller): `None` with no block, fewer than two
/// candidates, or blocks of unequal length.
pub fn friedman(blocks: &[Vec<f64>]) -> Option<Friedman> {
    let b = blocks.len();
    let k = blocks.first()?.len();
    if k < 2 || blocks.iter().any(|bl| bl.len() != k) {
        return None;
    }
    let mut rank_sums = vec![0.0; k];
    let mut a1 = 0.0;
    for block in blocks {
        for (j, r) in mid_ranks(block).into_iter().enumerate() {
            rank_sums[j] += r;
            a1 += r * r;
        }
    }
    let (bf, kf) = (b as f64, k as f64);
    let c1 = bf * kf * (kf + 1.0).powi(2) / 4.0;
    let sum_r2: f64 = rank_sums.iter().map(|r| r * r).sum();
    let spread = a1 - c1;
    // Rank sums are sums of halves, so A1 − C1 is exact in f64 up to far more blocks than
    // any race runs; a small tolerance guards the complete-tie case all the same.
    let chi_squared = if spread > 1e-9 {
        ((kf - 1.0) * (sum_r2 - bf * c1) / spread).max(0.0)
    } else {
        0.0
    };
    let df = (kf - 1.0, (bf - 1.0) * (kf - 1.0));
    let room = bf * (kf - 1.0) - chi_squared;
    let (f, p_value) = if chi_squared <= 0.0 || b < 2 {
        (0.0, 1.0)
    } else if room <= 1e-9 * bf * kf {
        (f64::INFINITY, 0.0)
    } else {
        let f = (bf - 1.0) * chi_squared / room;
        let dist = FisherSnedecor::new(df.0, df.1).ok()?;
        (f, dist.sf(f))
    };
    Some(Friedman {
        blocks: b,
        candidates: k,
        rank_sums,
        a1,
        chi_squared,
        f,
        df,
        p_value,
    })
}

impl Friedman {
    /// The current best: the candidate with the lowest rank sum (the first of those tied).
    pub fn best(&self) -> usize {
        let mut best = 0;
        for (j, r) in self.rank_sums.iter().enumerate() {
            if *r < self.rank_sums[best] {
                best = j;
            }
        }
        best
    }

    /// Conover's comparison of candidate `j` with candidate `best` (Conover 1999, §5.8):
    /// `t = |R_j − R_best| / [2(b·A1 − Σ R_j²)/((b−1)(k−1))]^{1/2}` on `(b−1)(k−1)` degrees
    /// of freedom, two-sided. A zero difference has p = 1; a zero standard error (every
    /// block ranks the candidates alike, or fewer than two blocks) with a non-zero
    /// difference has t = ∞ and p = 0 only when `b ≥ 2`.
    pub fn conover(&self, j: usize, best: usize) -> Conover {
        let (bf, kf) = (self.blocks as f64, self.candidates as f64);
        let df = (bf - 1.0) * (kf - 1.0);
        let diff = (self.rank_sums[j] - self.rank_sums[best]).abs();
        let sum_r2: f64 = self.rank_sums.iter().map(|r| r * r).sum();
        let pooled = (bf * self.a1 - sum_r2).max(0.0);
        let mut out = Conover {
            rank_sum_difference: diff,
            t: 0.0,
            df,
            p_value: 1.0,
        };
        if diff == 0.0 || self.blocks < 2 {
            return out;
        }
        if pooled <= 1e-9 {
            out.t = f64::INFINITY;
            out.p_value = 0.0;
            return out;
        }
        let se = (2.0 * pooled / df).sqrt();
        out.t = diff / se;
        out.p_value = match StudentsT::new(0.0, 1.0, df) {
            Ok(dist) => (2.0 * dist.sf(out.t)).min(1.0),
            Err(_) => 1.0,
        };
        out
    }
}

/// The exact two-sided sign test: with `wins` blocks won by one candidate and `losses` by
/// the other (ties left out), `min(1, 2·P(X ≥ max(wins, losses)))` for X ~ Binomial(n, ½).
/// With two candidates and no tied block the Friedman statistic is `T1 = (wins − losses)²/n`
/// (Conover 1999, §5.8, notes that the test then reduces to the sign test of §3.4), so this
/// is the exact p-value of `T1`, where the F and t approximations are too liberal on a few
/// blocks (five wins out of five give T2 = ∞ and p = 0, but happen by chance once in 16).
pub fn sign_test_p(wins: usize, losses: usize) -> f64 {
    let n = wins + losses;
    if n == 0 {
        return 1.0;
    }
    let top = wins.max(losses) as u64;
    let Ok(dist) = Binomial::new(0.5, n as u64) else {
        return 1.0;
    };
    // P(X ≥ top) = 1 − P(X ≤ top − 1).
    let tail = if top == 0 { 1.0 } else { dist.sf(top - 1) };
    (2.0 * tail).min(1.0)
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
    fn mid_ranks_share_ties() {
        assert_eq!(mid_ranks(&[3.0, 1.0, 2.0]), vec![3.0, 1.0, 2.0]);
        assert_eq!(mid_ranks(&[1.0, 1.0, 2.0]), vec![1.5, 1.5, 3.0]);
        assert_eq!(mid_ranks(&[5.0, 5.0, 5.0, 1.0]), vec![3.0, 3.0, 3.0, 1.0]);
        assert_eq!(mid_ranks(&[2.0, 2.0]), vec![1.5, 1.5]);
    }

    #[test]
    fn blocks_that_tie_or_are_too_fast_are_not_counted() {
        let blocks = vec![
            vec![0.5, 0.5, 0.5],       // every candidate ties: out
            vec![0.002, 0.009, 0.003], // slowest under 10 ms: out
            vec![0.002, 0.010, 0.003], // slowest exactly 10 ms: in
            vec![0.5, 0.5, 0.7],       // a partial tie: in
            vec![0.5],                 // one candidate: out
        ];
        let kept = counted_blocks(&blocks);
        assert_eq!(kept, vec![vec![0.002, 0.010, 0.003], vec![0.5, 0.5, 0.7]]);
        assert!(!block_counts(&[]));
    }

    /// A small example with ties, by hand. Blocks (times, candidates A, B, C):
    ///   1: 1, 2, 3   → ranks 1, 2, 3
    ///   2: 1, 3, 2   → 1, 3, 2
    ///   3: 2, 1, 3   → 2, 1, 3
    ///   4: 1, 2, 2   → 1, 2.5, 2.5
    ///   5: 1, 2, 3   → 1, 2, 3
    /// R = (6, 10.5, 13.5); A1 = 14·3 + 14 + (1 + 6.25 + 6.25) = 69.5; C1 = 5·3·16/4 = 60;
    /// Σ R² = 36 + 110.25 + 182.25 = 328.5; T1 = 2(328.5 − 300)/(69.5 − 60) = 57/9.5 = 6;
    /// T2 = 4·6/(10 − 6) = 6 on (2, 8) df; P(F(2,8) > 6) = (1 + 2·6/8)^(−4) = 2.5^(−4) = 0.0256.
    /// Conover C vs A: b·A1 − Σ R² = 347.5 − 328.5 = 19; se = √(2·19/8) = √4.75;
    /// t = 7.5/√4.75 = 3.441236; B vs A: t = 4.5/√4.75 = 2.064742; both on 8 df.
    /// scipy 1.17.1: friedmanchisquare → statistic 6.0, p 0.049787 (χ²);
    /// f.sf(6, 2, 8) = 0.025600; 2·t.sf(3.441236, 8) = 0.0088078, 2·t.sf(2.064742, 8) = 0.072822;
    /// scikit-posthocs 0.17.1 posthoc_conover_friedman (p_adjust None): A–C 0.0088078,
    /// A–B 0.072822.
    #[test]
    fn hand_computed_example_with_ties() {
        let blocks = vec![
            vec![1.0, 2.0, 3.0],
            vec![1.0, 3.0, 2.0],
            vec![2.0, 1.0, 3.0],
            vec![1.0, 2.0, 2.0],
            vec![1.0, 2.0, 3.0],
        ];
        let fr = friedman(&blocks).unwrap();
        assert_eq!(fr.rank_sums, vec![6.0, 10.5, 13.5]);
        assert_eq!(fr.a1, 69.5);
        assert!(close(fr.chi_squared, 6.0, 1e-12));
        assert!(close(fr.f, 6.0, 1e-12));
        assert_eq!(fr.df, (2.0, 8.0));
        assert!(close(fr.p_value, 2.5f64.powi(-4), 1e-9), "{}", fr.p_value);
        assert_eq!(fr.best(), 0);
        let c = fr.conover(2, 0);
        assert!(close(c.t, 7.5 / 4.75f64.sqrt(), 1e-12));
        assert_eq!(c.df, 8.0);
        assert!(close(c.p_value, 0.0088078, 1e-6), "{}", c.p_value);
        let b = fr.conover(1, 0);
        assert!(close(b.t, 4.5 / 4.75f64.sqrt(), 1e-12));
        assert!(close(b.p_value, 0.072822, 1e-6), "{}", b.p_value);
        assert_eq!(fr.conover(0, 0).p_value, 1.0);
        // Conover's second form of the pooled variance: b(A1 − C1)(1 − T1/(b(k−1))).
        let pooled = 5.0 * (69.5 - 60.0) * (1.0 - 6.0 / 10.0);
        assert!(close(pooled, 5.0 * 69.5 - 328.5, 1e-12));
    }

    /// Without ties, T1 is the textbook 12/(bk(k+1))·ΣR² − 3b(k+1). Four blocks of four:
    /// ranks (1,2,3,4), (2,1,3,4), (1,3,2,4), (1,2,4,3): R = (5, 8, 12, 15), Σ R² = 458,
    /// T1 = 12·458/80 − 60 = 8.7; T2 = 3·8.7/(12 − 8.7) = 7.909091 on (3, 9) df.
    /// scipy 1.17.1: friedmanchisquare statistic 8.7, p 0.033556; f.sf(7.909091, 3, 9) =
    /// 0.0068277. Conover D vs A: b·A1 − ΣR² = 4·120 − 458 = 22, se = √(2·22/9), t = 10/se =
    /// 4.522670, 2·t.sf(4.522670, 9) = 0.0014413 (scikit-posthocs agrees).
    #[test]
    fn hand_computed_example_without_ties() {
        let blocks = vec![
            vec![1.0, 2.0, 3.0, 4.0],
            vec![2.0, 1.0, 3.0, 4.0],
            vec![1.0, 3.0, 2.0, 4.0],
            vec![1.0, 2.0, 4.0, 3.0],
        ];
        let fr = friedman(&blocks).unwrap();
        assert_eq!(fr.rank_sums, vec![5.0, 8.0, 12.0, 15.0]);
        assert!(close(fr.chi_squared, 8.7, 1e-12));
        assert!(close(fr.f, 3.0 * 8.7 / 3.3, 1e-12));
        assert!(close(fr.p_value, 0.0068277, 1e-6), "{}", fr.p_value);
        let c = fr.conover(3, 0);
        assert!(close(c.t, 10.0 / (44.0f64 / 9.0).sqrt(), 1e-12));
        assert!(close(c.p_value, 0.0014413, 1e-6), "{}", c.p_value);
    }

    /// With two candidates and no tied block, T1 = d²/n (d = wins − losses) and Conover's
    /// t² equals the Iman–Davenport F, both (n−1)d²/(n² − d²).
    #[test]
    fn two_candidates_reduce_to_the_sign_statistic() {
        // 7 blocks won by A, 3 by B.
        let mut blocks = vec![vec![1.0, 2.0]; 7];
        blocks.extend(vec![vec![2.0, 1.0]; 3]);
        let fr = friedman(&blocks).unwrap();
        let (n, d) = (10.0, 4.0);
        assert!(close(fr.chi_squared, d * d / n, 1e-12));
        let f = (n - 1.0) * d * d / (n * n - d * d);
        assert!(close(fr.f, f, 1e-12));
        let c = fr.conover(1, 0);
        assert!(close(c.t * c.t, f, 1e-12));
        assert!(close(c.p_value, fr.p_value, 1e-9));
        // Every block won by A: T2 and t are infinite.
        let all = friedman(&vec![vec![1.0, 2.0]; 5]).unwrap();
        assert!(all.f.is_infinite() && all.p_value == 0.0);
        assert_eq!(all.conover(1, 0).p_value, 0.0);
        // Every block a tie (the caller filters these, but the test must not divide by 0).
        let ties = friedman(&vec![vec![1.0, 1.0]; 5]).unwrap();
        assert_eq!((ties.chi_squared, ties.p_value), (0.0, 1.0));
        assert_eq!(ties.conover(1, 0).p_value, 1.0);
    }

    #[test]
    fn sign_test_matches_the_binomial() {
        // 5 of 5: 2/32; 9 of 10: 2·11/1024; 16 of 20: 2·6196/1048576 (scipy binomtest).
        assert!(close(sign_test_p(5, 0), 0.0625, 1e-12));
        assert!(close(sign_test_p(1, 9), 22.0 / 1024.0, 1e-12));
        assert!(close(sign_test_p(16, 4), 2.0 * 6196.0 / 1_048_576.0, 1e-9));
        assert_eq!(sign_test_p(5, 5), 1.0);
        assert_eq!(sign_test_p(0, 0), 1.0);
    }
}
