//! LP bound / objective against instance size (`<p>_lp_ratio`).

use super::{Chart, Puzzle};

impl Puzzle<'_> {
    /// `<p>_lp_ratio`: the LP bound / objective of each instance against its size (median
    /// over the repeats that have both and a solution the verifier accepted), one series per
    /// `formulation / engine`, on a linear ratio axis: how tight the relaxation of each
    /// formulation is. `None` when no verified row has a nonzero objective and an LP bound.
    pub(super) fn lp_ratio(&self) -> Option<Chart> {
        let mut chart = self.against_size(
            "lp_ratio",
            format!("{}: LP bound / objective against instance size", self.key),
            |c| c.lp_ratio,
            "LP bound / objective",
            false,
        )?;
        // Crosses would mark runs that failed, but the ratio of a failed run is not charged.
        chart.failed_label = "run not solved (best objective found)".into();
        Some(chart)
    }
}
