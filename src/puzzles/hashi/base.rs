//! The report's Hashi model (6.1).
//!
//! Sets: islands 0..k−1 in row-major order; B, the possible bridges q = (a, b) with a < b
//! ([`Hashi::pairs`]); A, the arcs (a, b) and (b, a) of every q ∈ B.
//!
//! Variables:
//! - `x[n,a,b]` (binary) is 1 when exactly n bridges join islands a and b, for
//!   n = 0..=M where M is the instance's most bridges per pair (the report has M = 2 and
//!   so x^0, x^1, x^2);
//! - `y[a,b]` (continuous, ≥ 0) is the flow on arc (a, b).
//!
//! Rows:
//! - (6.1b) `label[a]`: Σ_{q ∋ a} Σ_{n ≥ 1} n·x^n_q = L_a;
//! - (6.1c) `one[a,b]`: Σ_n x^n_q = 1;
//! - (6.1d) `cross[a,b,c,d]`: x^0_q + x^0_r ≥ 1 for every horizontal q = (a, b) and vertical
//!   r = (c, d) that cross;
//! - (6.1e) `flow[a]`: Σ_{(a,b) ∈ A} y_ab − Σ_{(b,a) ∈ A} y_ba = S_a, with S_0 = k − 1 and
//!   S_a = −1 otherwise;
//! - (6.1f) `cap[a,b]`: y_ab + y_ba ≤ (k − 1)(1 − x^0_q);
//! - (6.1g) `link[a,b]`: y_ab + y_ba ≥ 1 − x^0_q.
//!
//! The objective is 0 (a feasibility problem, (6.1a)).
//!
//! Deviations from the printed formulas:
//! - (6.1b) is printed with x_a^1 + 2x_a^2, subscripted by the island; the sum runs over
//!   the bridges λ ∋ a, so the variables are those of λ (x^1_λ + 2x^2_λ). With M ≠ 2
//!   the sum is Σ_{n=1..M} n·x^n.
//! - (6.1d) is printed with the index conditions a > c, b < d, j_a < j_c, j_b > j_c and
//!   "a ≠ b ≠ c ≠ d", which as a chain does not say that all four differ. With row-major
//!   indices the four inequalities already imply it, and they hold exactly when the
//!   horizontal bridge's row lies strictly between the vertical bridge's rows and the
//!   vertical bridge's column strictly between the horizontal bridge's columns; that
//!   geometric test is what is implemented ([`Hashi::crossings`]).
//! - (6.1e) is printed as Σ_{q ∈ A} y_q − Σ_{q' ∈ A} y_{q'} = S_a without saying which arcs;
//!   the intent (and what is implemented) is arcs leaving a minus arcs entering a.
//! - (6.1f) uses M = k − 1 (the most flow any arc can carry, as the report's design note
//!   shows) instead of the fixed 126, which is tighter on small boards and stays valid on
//!   boards with more than 127 islands.

use super::{Hashi, Pair};
use crate::model::{Model, Name, VarId, VarKind};

/// Maps solver values back to bridge counts.
#[derive(Clone, Debug)]
pub struct Decoder {
    /// The possible bridges, in the order of [`Hashi::pairs`].
    pub pairs: Vec<Pair>,
    /// `x[q][n]`: the variable x^n of pair q.
    pub x: Vec<Vec<VarId>>,
}

impl Decoder {
    /// The bridge count of every pair: the n with x^n_q = 1 (0 when none is set).
    pub fn decode(&self, values: &[f64]) -> Vec<u32> {
        self.x
            .iter()
            .map(|xs| {
                xs.iter()
                    .position(|v| values[v.0] > 0.5)
                    .map_or(0, |n| n as u32)
            })
            .collect()
    }
}

/// The rows (6.1b)–(6.1d) and the x variables, shared by [`build`] and the `cuts`
/// formulation (which has no flow).
pub fn build_assignment(p: &Hashi, name: String) -> (Model, Decoder) {
    let mut m = Model::new(name);
    let pairs = p.pairs();
    let big = p.max_bridges as usize;
    let x: Vec<Vec<VarId>> = pairs
        .iter()
        .map(|q| {
            (0..=big)
                .map(|n| m.add_binary(Name::idx("x", &[n, q.a, q.b])))
                .collect()
        })
        .collect();
    for (a, qs) in p.incident(&pairs).iter().enumerate() {
        let terms = qs
            .iter()
            .flat_map(|&q| (1..=big).map(move |n| (q, n)))
            .map(|(q, n)| (x[q][n], n as f64));
        m.add_eq(Name::idx("label", &[a]), terms, p.islands[a].label as f64);
    }
    for (q, pq) in pairs.iter().enumerate() {
        m.add_eq(
            Name::idx("one", &[pq.a, pq.b]),
            x[q].iter().map(|&v| (v, 1.0)),
            1.0,
        );
    }
    for (q, r) in p.crossings(&pairs) {
        let (pq, pr) = (pairs[q], pairs[r]);
        m.add_ge(
            Name::idx("cross", &[pq.a, pq.b, pr.a, pr.b]),
            [(x[q][0], 1.0), (x[r][0], 1.0)],
            1.0,
        );
    }
    (m, Decoder { pairs, x })
}

/// Builds model (6.1) for `p`.
pub fn build(p: &Hashi) -> (Model, Decoder) {
    let (mut m, d) = build_assignment(p, format!("hashi_base_{}", p.name));
    add_flow(p, &mut m, &d);
    (m, d)
}

/// Adds the flow variables and rows (6.1e)–(6.1g).
pub fn add_flow(p: &Hashi, m: &mut Model, d: &Decoder) {
    let k = p.k();
    let big_m = (k - 1) as f64;
    let mut out: Vec<Vec<VarId>> = vec![Vec::new(); k];
    let mut inn: Vec<Vec<VarId>> = vec![Vec::new(); k];
    for (q, pq) in d.pairs.iter().enumerate() {
        let ab = m.add_var(
            Name::idx("y", &[pq.a, pq.b]),
            VarKind::Continuous,
            0.0,
            f64::INFINITY,
            0.0,
        );
        let ba = m.add_var(
            Name::idx("y", &[pq.b, pq.a]),
            VarKind::Continuous,
            0.0,
            f64::INFINITY,
            0.0,
        );
        out[pq.a].push(ab);
        inn[pq.b].push(ab);
        out[pq.b].push(ba);
        inn[pq.a].push(ba);
        let x0 = d.x[q][0];
        m.add_le(
            Name::idx("cap", &[pq.a, pq.b]),
            [(ab, 1.0), (ba, 1.0), (x0, big_m)],
            big_m,
        );
        m.add_ge(
            Name::idx("link", &[pq.a, pq.b]),
            [(ab, 1.0), (ba, 1.0), (x0, 1.0)],
            1.0,
        );
    }
    for a in 0..k {
        let supply = if a == 0 { big_m } else { -1.0 };
        let terms = out[a]
            .iter()
            .map(|&v| (v, 1.0))
            .chain(inn[a].iter().map(|&v| (v, -1.0)));
        m.add_eq(Name::idx("flow", &[a]), terms, supply);
    }
}
