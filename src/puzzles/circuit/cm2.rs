//! CM2, the report's minimum-cost network-flow model (5.2), after Cheng-Wei Lu.
//!
//! Variables: `f[a]` (continuous, ≥ 0) is the flow on arc a, two arcs (i→j and j→i) per
//! possible link; `z[e]` (binary) is 1 when link e is used; `y[i]` (binary) is 1 when point
//! i has degree 3, 0 when it has degree 1. (The report calls the flow x_ij.)
//!
//! Rows: (5.2a) minimise Σ z_e; (5.2b) `flow[i]`: flow out − flow in = S_i, with
//! S_0 = |V| − 1 at the first point (row-major order) and S_i = −1 at every other point;
//! (5.2c) `cap[e]`: f_ij + f_ji ≤ M z_e; (5.2d) `use[e]`: M (f_ij + f_ji) ≥ z_e;
//! (5.2e) `deg[i]`: Σ_{e ∋ i} z_e − 2 y_i = 1; (5.2f) z_e = 1 for given links, as lower
//! bounds (as the report's implementation does, 5.3).
//!
//! Deviations from the printed model: M = |V| − 1, the most flow a link can carry, where
//! the report fixes M = 99 (too small above 100 points, as the report itself notes);
//! (5.2c)–(5.2d) are indexed by links e = (i, j) ∈ E, the flow by arcs of possible links
//! only (the printed (5.2g)–(5.2h) range over all pairs i, j ∈ V).
//!
//! The objective is not fixed: the flow forces a connected choice of links, and the
//! fewest links that connect |V| points are a tree, |V| − 1 of them; the solver must prove
//! that, which is where the weak LP relaxation (about |V|/2, report Table A.3) hurts.
//! Nothing in (5.2) forbids cycles, so on a board that has no tree with degrees 1 and 3
//! but has a connected choice of links with those degrees, CM2 returns that choice (with
//! more than |V| − 1 links) as its optimum, and the verifier refuses it; the tests keep
//! such a board. The model is kept as printed. For the same reason an incumbent held at the
//! time limit may have more than |V| − 1 links; the verifier refuses it.

use super::graph::Graph;
use super::Circuit;
use crate::model::{Model, Name, VarId, VarKind};
use crate::puzzles::{Run, RunResult};

/// The columns that decode a solution.
#[derive(Clone, Debug)]
pub struct Columns {
    /// `z[e]`: link e used.
    pub z: Vec<VarId>,
}

/// Builds (5.2a)–(5.2i).
pub fn build(g: &Graph) -> (Model, Columns) {
    let mut m = Model::new("circuit_cm2");
    let n = g.n();
    let big_m = (n as f64 - 1.0).max(1.0);
    let mut out_arc = Vec::with_capacity(g.edges.len());
    let mut in_arc = Vec::with_capacity(g.edges.len());
    for e in 0..g.edges.len() {
        out_arc.push(m.add_var(
            Name::idx("f", &[e, 0]),
            VarKind::Continuous,
            0.0,
            f64::INFINITY,
            0.0,
        ));
        in_arc.push(m.add_var(
            Name::idx("f", &[e, 1]),
            VarKind::Continuous,
            0.0,
            f64::INFINITY,
            0.0,
        ));
    }
    let z: Vec<VarId> = (0..g.edges.len())
        .map(|e| {
            let lower = if g.given[e] { 1.0 } else { 0.0 };
            m.add_var(Name::idx("z", &[e]), VarKind::Binary, lower, 1.0, 1.0)
        })
        .collect();
    let y: Vec<VarId> = (0..n)
        .map(|i| m.add_var(Name::idx("y", &[i]), VarKind::Binary, 0.0, 1.0, 0.0))
        .collect();
    for i in 0..n {
        // Arc (e, 0) runs from the first end of e to the second, (e, 1) back.
        let terms = g.incident[i].iter().flat_map(|&e| {
            let sign = if g.edges[e].0 == i { 1.0 } else { -1.0 };
            [(out_arc[e], sign), (in_arc[e], -sign)]
        });
        let supply = if i == 0 { n as f64 - 1.0 } else { -1.0 };
        m.add_eq(Name::idx("flow", &[i]), terms, supply);
    }
    for e in 0..g.edges.len() {
        m.add_le(
            Name::idx("cap", &[e]),
            [(out_arc[e], 1.0), (in_arc[e], 1.0), (z[e], -big_m)],
            0.0,
        );
        m.add_ge(
            Name::idx("use", &[e]),
            [(out_arc[e], big_m), (in_arc[e], big_m), (z[e], -1.0)],
            0.0,
        );
    }
    for (i, (inc, &yi)) in g.incident.iter().zip(&y).enumerate() {
        let terms = inc.iter().map(|&e| (z[e], 1.0)).chain([(yi, -2.0)]);
        m.add_eq(Name::idx("deg", &[i]), terms, 1.0);
    }
    (m, Columns { z })
}

/// Solves CM2 as one integer program.
pub fn solve(p: &Circuit, run: &Run) -> RunResult {
    let g = Graph::new(p);
    run.compact(
        || build(&g),
        |cols, v| {
            let chosen: Vec<bool> = cols.z.iter().map(|z| v[z.0] > 0.5).collect();
            p.answer(g.links(&chosen), None)
        },
    )
}
