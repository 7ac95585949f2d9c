//! Rows that a formulation adds while it is being solved, because there are too many to
//! write out: the [`Cut`] type and the [`Separator`] that finds them. Formulations
//! implement separators; engines call them (at the nodes of a search for lazy rows, or on
//! each integer solution for row generation). Neither side depends on the other: both
//! depend on this module and on the model.

use crate::model::VarId;

/// A row found by a separator: `lower <= Σ coef·x <= upper`.
///
/// Every row a separator returns must be valid for every solution of the puzzle, so that
/// an engine may keep it for the rest of the search. A row with no terms that 0 does not
/// satisfy (see [`Cut::is_contradiction`]) says that no solution exists at all.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    /// Coefficients by column.
    pub terms: Vec<(VarId, f64)>,
    /// Lower side (may be `f64::NEG_INFINITY`).
    pub lower: f64,
    /// Upper side (may be `f64::INFINITY`).
    pub upper: f64,
}

impl Cut {
    /// How far `x` lies outside the row (0 when it satisfies it).
    pub fn violation(&self, x: &[f64]) -> f64 {
        let a: f64 = self.terms.iter().map(|&(v, c)| c * x[v.0]).sum();
        (self.lower - a).max(a - self.upper).max(0.0)
    }

    /// True for a row without terms that no point satisfies (0 outside `lower..=upper`):
    /// the separator's way of saying the puzzle has no solution.
    pub fn is_contradiction(&self) -> bool {
        self.terms.is_empty() && (self.lower > 0.0 || self.upper < 0.0)
    }

    /// The row that no point satisfies ([`Cut::is_contradiction`]).
    pub fn contradiction() -> Cut {
        Cut {
            terms: Vec::new(),
            lower: 1.0,
            upper: f64::INFINITY,
        }
    }
}

/// A bound change found by a separator's propagation: column, new lower, new upper.
pub type Tightening = (usize, f64, f64);

/// The problem-specific part of a search with rows added as it goes: which rows a point
/// violates (separation), and optionally bound propagation and the branching choice, which
/// engines with their own search (the project's branch and cut) use.
pub trait Separator {
    /// Rows violated by the point `x` (values by column). When `integral` is true (every
    /// integer column is integral) the answer decides feasibility: no row means `x` is a
    /// solution, and otherwise at least one returned row must be violated by `x`.
    fn separate(&mut self, x: &[f64], integral: bool) -> Vec<Cut>;

    /// The integer column to branch on at the fractional point `x`, given the candidates
    /// (integer columns with a fractional value). The default takes the most fractional.
    fn branch(&mut self, x: &[f64], candidates: &[usize]) -> usize {
        let distance = |j: usize| (x[j] - x[j].floor() - 0.5).abs();
        *candidates
            .iter()
            .min_by(|&&a, &&b| distance(a).total_cmp(&distance(b)).then(a.cmp(&b)))
            .expect("branching needs a candidate")
    }

    /// Domain propagation of the rows not yet added: bound changes that every solution
    /// within `lower`/`upper` satisfies, pushed onto `out`. False when no solution lies
    /// within the bounds. The default finds nothing.
    fn propagate(&mut self, lower: &[f64], upper: &[f64], out: &mut Vec<Tightening>) -> bool {
        let _ = (lower, upper, out);
        true
    }

    /// Whether `row`, one this separator returned, holds for every solution of the
    /// puzzle, as the puzzle's verifier judges it: `Some(Ok(()))` accepted, `Some(Err)`
    /// refused with the reason, `None` when the separator has no such check. A count's
    /// certificate covers the rows added while counting only when each is accepted
    /// (`--certify`, src/puzzles/certified.rs). The default has no check.
    fn witness(&self, row: &Cut) -> Option<Result<(), String>> {
        let _ = row;
        None
    }
}

/// How an engine with a search of its own may use a separator (engines without one
/// ignore it): the project's branch and cut probes free binary columns at every node
/// when `probing` is on, and searches for one point when `constant_objective` is (rows at
/// integral points only, probing near each node's changes, restarts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchHints {
    /// Probe free binary columns at every node (with the separator's propagation).
    pub probing: bool,
    /// The rows fix the objective's value at every feasible point (as `cm1`'s Σ x =
    /// |V| − 1 does), so the first solution found is optimal and the LP serves only to
    /// guide the search towards one.
    pub constant_objective: bool,
}

impl Default for SearchHints {
    fn default() -> Self {
        SearchHints {
            probing: true,
            constant_objective: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn violation_and_contradiction() {
        let c = Cut {
            terms: vec![(VarId(0), 1.0), (VarId(1), 1.0)],
            lower: f64::NEG_INFINITY,
            upper: 1.0,
        };
        assert_eq!(c.violation(&[1.0, 1.0]), 1.0);
        assert_eq!(c.violation(&[0.5, 0.5]), 0.0);
        assert!(!c.is_contradiction());
        assert!(Cut::contradiction().is_contradiction());
        let fine = Cut {
            terms: vec![],
            lower: f64::NEG_INFINITY,
            upper: 0.0,
        };
        assert!(!fine.is_contradiction());
    }
}
