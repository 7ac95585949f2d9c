//! The report's Zebra integer program (7.1) with its clue rows, for any size.
//!
//! Variables: `x[a,v,h]` (binary) is 1 when house h has value v of attribute a (the
//! report's x_ij^attribute with i = h, j = v), for a = 1..A, v, h = 1..H. Objective 0.
//!
//! Rows:
//! * `house[a,h]`: Σ_v x[a,v,h] = 1, one value of each attribute per house (7.1a);
//! * `value[a,v]`: Σ_h x[a,v,h] = 1, each value in one house (7.1b);
//! * `same` (ACC, "A in the same house as B"): x[A,h] − x[B,h] = 0 for every h;
//! * `at` (DLC, "A in house i"): x[A,i] = 1;
//! * `left` ("A immediately left of B"): x[B,h] ≤ x[A,h−1] and x[A,h] ≤ x[B,h+1] for
//!   every h, a term outside 1..H being 0 (so x[B,1] = 0 and x[A,H] = 0); `right` is
//!   `left` with A and B swapped;
//! * `next` (ILC, "A next to B"): x[A,h] ≤ x[B,h−1] + x[B,h+1] and
//!   x[B,h] ≤ x[A,h−1] + x[A,h+1] for every h;
//! * negations: `not same`: x[A,h] + x[B,h] ≤ 1; `not at`: x[A,i] = 0;
//!   `not left`: x[A,h] + x[B,h+1] ≤ 1; `not next`: x[A,h] + x[B,h+1] ≤ 1 and
//!   x[B,h] + x[A,h+1] ≤ 1, for every h where both terms exist.
//!
//! Deviations from the printed model:
//! * The report's ILC row (clue 14) sums products of two binaries, which is not linear.
//!   Here each side is bounded by the neighbouring houses of the other, as above: with
//!   (7.1b) in force this says exactly that the two are neighbours, and it is linear.
//!   Both directions are written (one would do for integer points); they tighten the LP.
//! * The report fixes a DLC variable's value; here it is the row x[A,i] = 1, which is the
//!   same for every solver (presolve removes it).
//! * The report numbers values alphabetically; here they keep the file's order.
//!
//! Counting (`--count N` with N ≥ 2): after each solution, the no-good row
//! Σ_{x = 1 in it} x ≤ H·A − 1 excludes it and the program is solved again, until N
//! solutions are found or the program becomes infeasible. `rounds` is the number of
//! integer solves and `cuts` the number of no-good rows.

use super::{Relation, Solution, Zebra};
use crate::model::{Model, Name, VarId};
use crate::puzzles::counting::nogood_of_ones;
use crate::puzzles::{Run, RunResult};

/// Maps solver values back to a solution.
pub struct Decoder {
    houses: usize,
    attrs: usize,
    x: Vec<VarId>,
}

impl Decoder {
    fn var(&self, a: usize, v: usize, h: usize) -> VarId {
        self.x[(a * self.houses + v) * self.houses + h]
    }

    /// The value v with x[a,v,h] = 1 for each house and attribute (H, out of range, where
    /// none is set, which the verifier refuses).
    pub fn decode(&self, values: &[f64]) -> Solution {
        (0..self.houses)
            .map(|h| {
                (0..self.attrs)
                    .map(|a| {
                        (0..self.houses)
                            .find(|&v| values[self.var(a, v, h).0] > 0.5)
                            .unwrap_or(self.houses)
                    })
                    .collect()
            })
            .collect()
    }
}

/// Builds the model for `z`.
pub fn build(z: &Zebra) -> (Model, Decoder) {
    let hs = z.houses;
    let na = z.attributes.len();
    let mut m = Model::new(format!("zebra_ip_{}", z.name));
    let mut x = Vec::with_capacity(na * hs * hs);
    for a in 1..=na {
        for v in 1..=hs {
            for h in 1..=hs {
                x.push(m.add_binary(Name::idx("x", &[a, v, h])));
            }
        }
    }
    let d = Decoder {
        houses: hs,
        attrs: na,
        x,
    };
    for a in 0..na {
        for h in 0..hs {
            let terms = (0..hs).map(|v| (d.var(a, v, h), 1.0));
            m.add_eq(Name::idx("house", &[a + 1, h + 1]), terms, 1.0);
        }
    }
    for a in 0..na {
        for v in 0..hs {
            let terms = (0..hs).map(|h| (d.var(a, v, h), 1.0));
            m.add_eq(Name::idx("value", &[a + 1, v + 1]), terms, 1.0);
        }
    }
    let xv = |p: super::Prop, h: usize| d.var(p.attr, p.value, h);
    for (k, clue) in z.clues.iter().enumerate() {
        let c = k + 1;
        // "p immediately left of q" rows, or their negation.
        let left = |m: &mut Model, p, q, neg: bool| {
            for h in 0..hs {
                if neg {
                    if h + 1 < hs {
                        m.add_le(
                            Name::idx("notleft", &[c, h + 1]),
                            [(xv(p, h), 1.0), (xv(q, h + 1), 1.0)],
                            1.0,
                        );
                    }
                    continue;
                }
                // x[q,h] <= x[p,h-1]; x[p,h] <= x[q,h+1].
                let mut t = vec![(xv(q, h), 1.0)];
                if h > 0 {
                    t.push((xv(p, h - 1), -1.0));
                }
                m.add_le(Name::idx("left_q", &[c, h + 1]), t, 0.0);
                let mut t = vec![(xv(p, h), 1.0)];
                if h + 1 < hs {
                    t.push((xv(q, h + 1), -1.0));
                }
                m.add_le(Name::idx("left_p", &[c, h + 1]), t, 0.0);
            }
        };
        match (clue.relation, clue.negated) {
            (Relation::Same(p, q), false) => {
                for h in 0..hs {
                    m.add_eq(
                        Name::idx("same", &[c, h + 1]),
                        [(xv(p, h), 1.0), (xv(q, h), -1.0)],
                        0.0,
                    );
                }
            }
            (Relation::Same(p, q), true) => {
                for h in 0..hs {
                    m.add_le(
                        Name::idx("notsame", &[c, h + 1]),
                        [(xv(p, h), 1.0), (xv(q, h), 1.0)],
                        1.0,
                    );
                }
            }
            (Relation::At(p, i), neg) => {
                let rhs = if neg { 0.0 } else { 1.0 };
                m.add_eq(Name::idx("at", &[c]), [(xv(p, i), 1.0)], rhs);
            }
            (Relation::LeftOf(p, q), neg) => left(&mut m, p, q, neg),
            (Relation::RightOf(p, q), neg) => left(&mut m, q, p, neg),
            (Relation::NextTo(p, q), false) => {
                for (a, b, tag) in [(p, q, "next_a"), (q, p, "next_b")] {
                    for h in 0..hs {
                        let mut t = vec![(xv(a, h), 1.0)];
                        if h > 0 {
                            t.push((xv(b, h - 1), -1.0));
                        }
                        if h + 1 < hs {
                            t.push((xv(b, h + 1), -1.0));
                        }
                        m.add_le(Name::idx(tag, &[c, h + 1]), t, 0.0);
                    }
                }
            }
            (Relation::NextTo(p, q), true) => {
                for (a, b, tag) in [(p, q, "notnext_a"), (q, p, "notnext_b")] {
                    for h in 0..hs.saturating_sub(1) {
                        m.add_le(
                            Name::idx(tag, &[c, h + 1]),
                            [(xv(a, h), 1.0), (xv(b, h + 1), 1.0)],
                            1.0,
                        );
                    }
                }
            }
        }
    }
    (m, d)
}

/// Builds, solves (counting solutions with no-good rows when `--count` is 2 or more),
/// decodes and verifies.
pub fn solve(z: &Zebra, run: &Run) -> RunResult {
    run.count(
        || build(z),
        |d, x| nogood_of_ones(&d.x, x),
        |d, v| z.answer(d.decode(v)),
    )
}
