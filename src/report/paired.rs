//! Two sides run on the same instances, judged as the report judges every such pair (the
//! `comparisons` table's two configurations, `diff`'s OLD and NEW of one configuration):
//! each side's shifted geometric mean of its instances' median charged times, the ratio
//! B/A with its 95 % bootstrap interval over instances and repeats
//! ([`sgm_ratio_interval`]), and which side the evidence favours.

use crate::stats::{median, sgm_ratio_interval, shifted_geometric_mean};

/// Below this median time (seconds) a comparison gets no verdict.
pub const TOO_FAST: f64 = 1e-3;

/// Which side a pair's evidence favours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lean {
    /// A solved more instances: ahead whatever the times.
    AMoreSolved,
    /// B solved more instances.
    BMoreSolved,
    /// The interval of B/A lies above 1: A is faster.
    AFaster,
    /// The interval of B/A lies below 1: B is faster.
    BFaster,
    /// The interval holds 1.
    WithinNoise,
    /// Both medians are under [`TOO_FAST`], or the pair is one instance run once on each
    /// side (no variation measured).
    NoVerdict,
}

/// The figures of a pair and its [`Lean`].
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// A's SGM over the instances of its median charged time.
    pub sgm_a: f64,
    /// B's SGM, as `sgm_a`.
    pub sgm_b: f64,
    /// A's median over the instances of its median charged time.
    pub median_a: f64,
    /// B's median, as `median_a`.
    pub median_b: f64,
    /// B's SGM over A's, shifted: (SGM_B + s) / (SGM_A + s) ([`crate::stats::shifted_ratio`]).
    pub ratio: f64,
    /// The 95 % percentile bootstrap interval of `ratio`.
    pub interval: (f64, f64),
    /// The side the evidence favours.
    pub lean: Lean,
}

/// Whether an instance counts as solved: more than half of its `repeats` succeeded.
pub fn instance_solved(succeeded: usize, repeats: usize) -> bool {
    2 * succeeded > repeats
}

/// Judges A against B: `a[i]` and `b[i]` hold each side's charged seconds of every repeat
/// on instance `i` (the same instances, in the same order), `solved_a` and `solved_b` the
/// instances each solved ([`instance_solved`]). The side that solved more is ahead; else
/// no verdict when both medians are under [`TOO_FAST`] or the pair is one instance run once
/// on each side; else A or B faster when the interval lies above or below 1, within noise
/// when it holds 1.
pub fn judge(a: &[Vec<f64>], b: &[Vec<f64>], solved: (usize, usize), shift: f64) -> Paired {
    let medians =
        |t: &[Vec<f64>]| -> Vec<f64> { t.iter().map(|x| median(x).unwrap_or(0.0)).collect() };
    let (ma, mb) = (medians(a), medians(b));
    let sgm_a = shifted_geometric_mean(&ma, shift).unwrap_or(0.0);
    let sgm_b = shifted_geometric_mean(&mb, shift).unwrap_or(0.0);
    let (median_a, median_b) = (median(&ma).unwrap_or(0.0), median(&mb).unwrap_or(0.0));
    let interval = sgm_ratio_interval(a, b, shift);
    let single = a.len() == 1 && a[0].len() == 1 && b[0].len() == 1;
    let lean = if solved.0 > solved.1 {
        Lean::AMoreSolved
    } else if solved.1 > solved.0 {
        Lean::BMoreSolved
    } else if (median_a < TOO_FAST && median_b < TOO_FAST) || single {
        Lean::NoVerdict
    } else if interval.0 > 1.0 {
        Lean::AFaster
    } else if interval.1 < 1.0 {
        Lean::BFaster
    } else {
        Lean::WithinNoise
    };
    Paired {
        sgm_a,
        sgm_b,
        median_a,
        median_b,
        ratio: crate::stats::shifted_ratio(sgm_a, sgm_b, shift),
        interval,
        lean,
    }
}
