//! Model (6.1) plus the report's "human-deduced constraints" (6.2)–(6.11), applied as
//! variable bounds as in the report's Section 6.3: a deduction x^n_q = 1 raises the lower
//! bound of x^n_q to 1, a deduction x^0_q = 0 ("at least one bridge") lowers the upper
//! bound of x^0_q to 0. The other variables of q are left to (6.1c), as in the report.
//!
//! Variables and rows are those of [`super::base`]. The deductions look only at the
//! labels and the possible bridges (S_a, the pairs at island a, and |S_a| its size):
//! - (6.2) two islands labelled 1 are not joined: x^0_q = 1. Only when k > 2: with two
//!   islands in all, the bridge between two 1s is the solution.
//! - (6.3) an island labelled 1 with one possible bridge: x^1_q = 1.
//! - (6.4) an island labelled 2 with one possible bridge: x^2_q = 1.
//! - (6.5) an island labelled 2 with two possible bridges, one of them to an island
//!   labelled 1: at least one bridge to the other island, x^0 = 0 on that pair.
//! - (6.6) label 3, two possible bridges: x^0_q = 0 on both.
//! - (6.7) label 4, two possible bridges: x^2_q = 1 on both.
//! - (6.8) label 5, three possible bridges: x^0_q = 0 on all three.
//! - (6.9) label 6, three possible bridges: x^2_q = 1 on all three.
//! - (6.10) label 7: x^0_q = 0 on all its possible bridges.
//! - (6.11) label 8: x^2_q = 1 on all its possible bridges.
//!
//! Deviation: (6.5)'s text and formula disagree. The formula, x^0_q = 0 for S_a = {q, r},
//! L_r = 1, L_q ≠ 1, does not require a's label to be 2 and asks that the far end of q is
//! not labelled 1. The text ("any island of label 2 with two adjacent islands, one of
//! which has label 1, must have at least a single bridge to the other island") is what is
//! implemented: a is labelled 2, and the other island may have any label (when both
//! neighbours are labelled 1, both pairs get the bound; the deduction holds because the
//! pair to a 1 carries at most one bridge).
//!
//! The rules are those of the usual game with at most 2 bridges per pair; for other
//! maxima they are not valid as stated and none is applied (0 fixings).
//!
//! The `fixings` column counts the bounds tightened: a bound already set by an earlier
//! rule is not counted twice. Should two rules ever contradict each other on one variable
//! (lower bound 1 and upper bound 0; it cannot happen with these rules, which fix x^0 to 1
//! only between two 1s and to 0 only next to an island labelled 2 or more), the second is
//! added as a row instead, so that the model is infeasible rather than malformed.

use super::base::{self, Decoder};
use super::Hashi;
use crate::model::{Model, Name};

/// One deduction: the variable x^n of pair `pair` (index into [`Hashi::pairs`]) is fixed
/// to `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixing {
    /// The pair, an index into [`Hashi::pairs`].
    pub pair: usize,
    /// Which variable of the pair: x^n.
    pub n: usize,
    /// The value it is fixed to (`true`: 1, a lower bound; `false`: 0, an upper bound).
    pub value: bool,
    /// The report's equation, e.g. "6.5".
    pub rule: &'static str,
}

/// Every deduction (6.2)–(6.11) for `p`, in island order, duplicates included.
pub fn deductions(p: &Hashi) -> Vec<Fixing> {
    let mut out = Vec::new();
    if p.max_bridges != 2 {
        return out;
    }
    let pairs = p.pairs();
    let inc = p.incident(&pairs);
    let label = |i: usize| p.islands[i].label;
    let other = |q: usize, a: usize| {
        if pairs[q].a == a {
            pairs[q].b
        } else {
            pairs[q].a
        }
    };
    let mut fix = |pair: usize, n: usize, value: bool, rule: &'static str| {
        out.push(Fixing {
            pair,
            n,
            value,
            rule,
        })
    };
    for (a, s) in inc.iter().enumerate() {
        let (l, deg) = (label(a), s.len());
        for &q in s {
            if l == 1 && label(other(q, a)) == 1 && p.k() > 2 && a < other(q, a) {
                fix(q, 0, true, "6.2");
            }
        }
        match (l, deg) {
            (1, 1) => fix(s[0], 1, true, "6.3"),
            (2, 1) => fix(s[0], 2, true, "6.4"),
            (2, 2) => {
                for (i, &q) in s.iter().enumerate() {
                    let r = s[1 - i];
                    if label(other(r, a)) == 1 {
                        fix(q, 0, false, "6.5");
                    }
                }
            }
            (3, 2) => s.iter().for_each(|&q| fix(q, 0, false, "6.6")),
            (4, 2) => s.iter().for_each(|&q| fix(q, 2, true, "6.7")),
            (5, 3) => s.iter().for_each(|&q| fix(q, 0, false, "6.8")),
            (6, 3) => s.iter().for_each(|&q| fix(q, 2, true, "6.9")),
            (7, _) => s.iter().for_each(|&q| fix(q, 0, false, "6.10")),
            (8, _) => s.iter().for_each(|&q| fix(q, 2, true, "6.11")),
            _ => {}
        }
    }
    out
}

/// Applies `fixings` to the x variables of `m` as bounds; returns how many bounds were
/// tightened.
pub fn apply(m: &mut Model, d: &Decoder, fixings: &[Fixing]) -> usize {
    let mut tightened = 0;
    for f in fixings {
        let id = d.x[f.pair][f.n];
        let var = &mut m.vars[id.0];
        let (lower, upper) = (var.lower, var.upper);
        let pq = d.pairs[f.pair];
        let name = Name::idx("conflict", &[f.n, pq.a, pq.b]);
        match f.value {
            true if lower >= 1.0 => {}
            true if upper < 1.0 => m.add_ge(name, [(id, 1.0)], 1.0),
            true => {
                var.lower = 1.0;
                tightened += 1;
            }
            false if upper <= 0.0 => {}
            false if lower > 0.0 => m.add_le(name, [(id, 1.0)], 0.0),
            false => {
                var.upper = 0.0;
                tightened += 1;
            }
        }
    }
    tightened
}

/// Builds model (6.1) with the fixings; returns the model, its decoder and the number of
/// bounds tightened.
pub fn build(p: &Hashi) -> (Model, Decoder, usize) {
    let (mut m, d) = base::build(p);
    m.name = format!("hashi_hdc_{}", p.name);
    let n = apply(&mut m, &d, &deductions(p));
    (m, d, n)
}
