//! CM3, the report's shortest-path Circuit Board model (5.3): CM1 plus a path from s to t
//! along links of the tree, as short as possible.
//!
//! Variables: `x[e]` and `y[i]` as in [`super::cm1`]; `p[e]` (binary) is 1 when link e is
//! on the s–t path; `u[i]` (binary) is 1 when point i (not s or t) is on it.
//!
//! Rows: (5.3a) minimise Σ x_e + Σ p_e; (5.3b)–(5.3e) those of CM1, (5.3e) added lazily by
//! the same branch and cut; (5.3f) `on[e]`: p_e ≤ x_e; (5.3g) `end[s]`, `end[t]`:
//! Σ_{e ∋ s} p_e = 1 and the same at t; (5.3h) `pass[i]`: Σ_{e ∋ i} p_e = 2 u_i for every
//! other point.
//!
//! The links with p_e = 1 form an s–t path and possibly cycles; since p ≤ x and the x links
//! form a tree, there are no cycles, and the path is the tree's only s–t path. Σ x_e is
//! |V| − 1 in every solution, so the optimum is |V| − 1 plus the shortest s–t distance any
//! tree allows. Unlike CM1 the objective is not fixed: the search must also prove that no
//! tree has a shorter s–t path. No deviation from the printed model.

use super::cm1::{self, Subtours};
use super::graph::Graph;
use super::{Cell, Circuit};
use crate::lazy::{Cut, SearchHints, Separator, Tightening};
use crate::model::{Model, Name, VarId, VarKind};
use crate::puzzles::{Run, RunResult};

/// The columns that decode a solution.
#[derive(Clone, Debug)]
pub struct Columns {
    /// The columns of CM1.
    pub cm1: cm1::Columns,
    /// `p[e]`: link e on the s–t path.
    pub p: Vec<VarId>,
    /// The vertices s and t.
    pub s: usize,
    /// See `s`.
    pub t: usize,
}

/// Builds (5.3a)–(5.3j) without the rows (5.3e); an error when the board names no S and T.
pub fn build(c: &Circuit, g: &Graph) -> Result<(Model, Columns), String> {
    let (s_cell, t_cell) = c
        .endpoints
        .ok_or("cm3 needs a board with endpoints S and T")?;
    let s = g.vertex(s_cell).ok_or("S is not a point")?;
    let t = g.vertex(t_cell).ok_or("T is not a point")?;
    let (mut m, cols) = cm1::build(g);
    m.name = "circuit_cm3".into();
    let p: Vec<VarId> = (0..g.edges.len())
        .map(|e| m.add_var(Name::idx("p", &[e]), VarKind::Binary, 0.0, 1.0, 1.0))
        .collect();
    for (e, (&pe, &xe)) in p.iter().zip(&cols.x).enumerate() {
        m.add_le(Name::idx("on", &[e]), [(pe, 1.0), (xe, -1.0)], 0.0);
    }
    for i in 0..g.n() {
        let terms = g.incident[i].iter().map(|&e| (p[e], 1.0));
        if i == s || i == t {
            m.add_eq(Name::idx("end", &[i]), terms, 1.0);
        } else {
            let u = m.add_var(Name::idx("u", &[i]), VarKind::Binary, 0.0, 1.0, 0.0);
            m.add_eq(Name::idx("pass", &[i]), terms.chain([(u, -2.0)]), 0.0);
        }
    }
    Ok((m, Columns { cm1: cols, p, s, t }))
}

/// The s–t path of a solution, as cells from s to t, following the links with p_e = 1.
fn path(g: &Graph, cols: &Columns, values: &[f64]) -> Vec<Cell> {
    let on: Vec<bool> = cols.p.iter().map(|v| values[v.0] > 0.5).collect();
    let mut cells = vec![g.cells[cols.s]];
    let (mut at, mut from) = (cols.s, usize::MAX);
    while at != cols.t && cells.len() <= g.n() {
        let Some(&e) = g.incident[at].iter().find(|&&e| {
            let (a, b) = g.edges[e];
            on[e] && a != from && b != from
        }) else {
            break;
        };
        let (a, b) = g.edges[e];
        let next = if a == at { b } else { a };
        from = at;
        at = next;
        cells.push(g.cells[at]);
    }
    cells
}

/// The separator of CM3: the rows (5.3e) of CM1 on the `x` columns, and s–t cut rows on
/// the `p` columns: for a vertex set S with s ∈ S and t ∉ S, Σ_{e ∈ δ(S)} p_e ≥ 1 (every
/// solution's path leaves S). These are valid for every solution of (5.3) but not among its
/// rows: without them the LP bound of the path is about 2 whatever the distance from s to
/// t, and the search has to prove the optimum by enumeration. They are found by a maximum
/// flow from s to t with capacities p_e: a flow below 1 gives the set S of the vertices
/// still reachable from s.
pub struct PathCuts<'a> {
    /// The rows of CM1.
    pub tree: Subtours<'a>,
    /// The `p` columns.
    pub p: Vec<VarId>,
    /// The vertices s and t.
    pub s: usize,
    /// See `s`.
    pub t: usize,
}

impl Separator for PathCuts<'_> {
    fn separate(&mut self, x: &[f64], integral: bool) -> Vec<Cut> {
        let mut cuts = self.tree.separate(x, integral);
        let g = self.tree.g;
        let cap: Vec<f64> = self.p.iter().map(|v| x[v.0].max(0.0)).collect();
        if let Some(side) = st_cut(g, &cap, self.s, self.t) {
            let terms = (0..g.edges.len())
                .filter(|&e| side[g.edges[e].0] != side[g.edges[e].1])
                .map(|e| (self.p[e], 1.0))
                .collect();
            cuts.push(Cut {
                terms,
                lower: 1.0,
                upper: f64::INFINITY,
            });
        }
        cuts
    }

    fn propagate(&mut self, lower: &[f64], upper: &[f64], out: &mut Vec<Tightening>) -> bool {
        self.tree.propagate(lower, upper, out)
    }
}

/// When the maximum s–t flow with capacities `cap` (per edge, both directions) is below
/// 1, the vertices reachable from s in the residual graph (a flag per vertex); else `None`.
fn st_cut(g: &Graph, cap: &[f64], s: usize, t: usize) -> Option<Vec<bool>> {
    const EPS: f64 = 1e-9;
    // flow[e] > 0 runs from edges[e].0 to edges[e].1.
    let mut flow = vec![0.0f64; g.edges.len()];
    let mut total = 0.0;
    let residual = |flow: &[f64], e: usize, from: usize| {
        if g.edges[e].0 == from {
            cap[e] - flow[e]
        } else {
            cap[e] + flow[e]
        }
    };
    loop {
        let mut via = vec![usize::MAX; g.n()];
        let mut seen = vec![false; g.n()];
        seen[s] = true;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            for &e in &g.incident[v] {
                let (a, b) = g.edges[e];
                let w = if a == v { b } else { a };
                if !seen[w] && residual(&flow, e, v) > EPS {
                    seen[w] = true;
                    via[w] = e;
                    queue.push_back(w);
                }
            }
        }
        if !seen[t] {
            return (total < 1.0 - 1e-6).then_some(seen);
        }
        // The bottleneck along the path, then push it.
        let mut push = f64::INFINITY;
        let mut w = t;
        while w != s {
            let e = via[w];
            let (a, b) = g.edges[e];
            let v = if a == w { b } else { a };
            push = push.min(residual(&flow, e, v));
            w = v;
        }
        let mut w = t;
        while w != s {
            let e = via[w];
            let (a, b) = g.edges[e];
            let v = if a == w { b } else { a };
            flow[e] += if a == v { push } else { -push };
            w = v;
        }
        total += push;
        if total >= 1.0 - 1e-6 {
            return None;
        }
    }
}

/// Solves CM3 on the run's engine with the rows (5.3e) and the s–t cut rows of
/// [`PathCuts`] lazy (on `bc` with CM1's propagation and probing); a board without S and
/// T is refused.
pub fn solve(c: &Circuit, run: &Run) -> RunResult {
    let g = Graph::new(c);
    if let Err(e) = build(c, &g) {
        return RunResult::refused(format!("refused: {e}"));
    }
    run.lazy_rows(
        || {
            let (model, cols) = build(c, &g).expect("checked above");
            let sep = PathCuts {
                tree: Subtours::new(&g, cols.cm1.x.clone())
                    .with_clauses(run.engine.capabilities().clausal),
                p: cols.p.clone(),
                s: cols.s,
                t: cols.t,
            };
            (model, cols, sep)
        },
        SearchHints::default(),
        |cols, v| c.answer(g.links(&cols.cm1.chosen(v)), Some(path(&g, cols, v))),
    )
}
