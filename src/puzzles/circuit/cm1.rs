//! CM1, the report's spanning-tree model (5.1), with the subtour elimination rows (5.1e)
//! added lazily: by the project's branch and cut (engine `bc`, [`crate::engines::bc`]) or
//! by CBC's cut callback (engine `cbc`).
//!
//! Variables: `x[e]` (binary) is 1 when link e ∈ E is in the tree; `y[i]` (binary) is 1
//! when point i has degree 3 and 0 when it has degree 1.
//!
//! Rows: (5.1a) minimise Σ x_e; (5.1b) x_e = 1 for the given links, as lower bounds (as
//! the report's implementation does, its section 5.3); (5.1c) `deg[i]`:
//! Σ_{e ∋ i} x_e − 2 y_i = 1; (5.1d) `tree`: Σ_e x_e = |V| − 1; (5.1e)
//! Σ_{e ⊆ N} x_e ≤ |N| − 1 for the vertex sets N the search finds violated. Deviation: the
//! report's "∀ N ⊂ V, N ≠ ∅" includes N = V, whose row is (5.1d) as an inequality, and sets
//! of one vertex, whose row is 0 ≤ 0; neither is added.
//!
//! The lazy rows ([`Subtours`]): at an integral LP point, the components of the chosen
//! links; if there are several, the row (5.1e) of every component that holds a cycle
//! (with |V| − 1 links and more than one component, at least one does), so no integral
//! point that is not a tree is accepted: that is what makes them lazy constraints. At a
//! fractional point, the same on the components of the links with x_e > 0, where they are
//! violated. Rows are added for the rest of the search ((5.1e) holds for every solution).
//!
//! On an engine that reasons on clauses (`sat`) each lazy row is handed in clause form
//! instead: for every component N of the chosen links, some link leaves N
//! ([`cutset_row`], Σ_{e ∈ δ(N)} x_e ≥ 1), and for every cycle C among them, not all of
//! its links ([`cycles`], Σ_{e ∈ C} x_e ≤ |C| − 1, one clause over the negations). A
//! deviation from (5.1e) in form only: every tree meets these rows and every integral point
//! that is not a tree breaks one, and a SAT solver propagates a clause where (5.1e) would
//! need a cardinality encoding. The cycle clauses are implied by (5.1d) with the cutsets;
//! they are added because they cut the search down (10×10 of Table A.1: 6.8 s with the
//! cutsets alone, 1.3 s with both).
//!
//! The project's branch and cut (engine `bc`) also propagates at every node, as MIP solvers do: the rows (bounds
//! from activities, so the degree rows with integral y allow degrees 1 and 3 only), and
//! the tree rules of [`TreeRules`] (no link closing a cycle of fixed links; every component
//! of fixed links needs links leaving it, an odd number for an odd component and at
//! least two for an even one, since all degrees are odd; bridges of the links still
//! possible are fixed, and a bridge with an even number of points on its sides is a
//! contradiction; the same parity on the rings of 2-link cuts fixes their links or finds a
//! contradiction). With probing (each free column near the node's changes tried at 0 and
//! 1 and propagated) most boards of up to 20×20 are solved in about a hundred nodes. These
//! rules and probing are solver technique, not rows of the model: the model is (5.1) as
//! printed.
//!
//! On `bc` and `cbc` a row (5.1e) is added in the shortest of three forms that are equal
//! on every point meeting (5.1c) and (5.1d) ([`sparse_subtour_row`]), a deviation in form
//! only: the LP relaxation is the same, with fewer nonzeros (on a 20×20 board the rows of
//! large components had about 240 terms each).
//!
//! The objective (5.1a) is fixed at |V| − 1 by (5.1d) (report 5.4), so the first tree
//! found is optimal and the search stops there.

use super::graph::Graph;
use super::Circuit;
use crate::lazy::{Cut, SearchHints, Separator, Tightening};
use crate::model::{Model, Name, VarId, VarKind};
use crate::puzzles::{Run, RunResult};

/// The columns of the model.
#[derive(Clone, Debug)]
pub struct Columns {
    /// `x[e]`: link e in the tree.
    pub x: Vec<VarId>,
    /// `y[i]`: point i has degree 3.
    pub y: Vec<VarId>,
}

impl Columns {
    /// The links chosen in a solution.
    pub fn chosen(&self, values: &[f64]) -> Vec<bool> {
        self.x.iter().map(|v| values[v.0] > 0.5).collect()
    }
}

/// Builds (5.1a)–(5.1d) with (5.1f)–(5.1g); the rows (5.1e) are left to the search.
pub fn build(g: &Graph) -> (Model, Columns) {
    let mut m = Model::new("circuit_cm1");
    let x: Vec<VarId> = (0..g.edges.len())
        .map(|e| {
            let lower = if g.given[e] { 1.0 } else { 0.0 };
            m.add_var(Name::idx("x", &[e]), VarKind::Binary, lower, 1.0, 1.0)
        })
        .collect();
    let y: Vec<VarId> = (0..g.n())
        .map(|i| m.add_var(Name::idx("y", &[i]), VarKind::Binary, 0.0, 1.0, 0.0))
        .collect();
    for (i, (inc, &yi)) in g.incident.iter().zip(&y).enumerate() {
        let terms = inc.iter().map(|&e| (x[e], 1.0)).chain([(yi, -2.0)]);
        m.add_row(Name::idx("deg", &[i]), terms, 1.0, 1.0);
    }
    let n1 = g.n() as f64 - 1.0;
    m.add_row("tree", x.iter().map(|&v| (v, 1.0)), n1, n1);
    (m, Columns { x, y })
}

/// The row (5.1e) for the vertex set `inside` (a flag per vertex): Σ_{e ⊆ N} x_e ≤ |N| − 1.
pub fn subtour_row(g: &Graph, x: &[VarId], inside: &[bool]) -> Cut {
    let size = inside.iter().filter(|&&b| b).count();
    let terms = g
        .edges
        .iter()
        .enumerate()
        .filter(|(_, &(i, j))| inside[i] && inside[j])
        .map(|(e, _)| (x[e], 1.0))
        .collect();
    Cut {
        terms,
        lower: f64::NEG_INFINITY,
        upper: size as f64 - 1.0,
    }
}

/// The row (5.1e) for the vertex set `inside` in the form with the fewest terms among
/// three that are equal on every point meeting the degree rows (5.1c) and the tree row
/// (5.1d) (so the LP relaxation is the same whichever is added):
///
/// * (5.1e) itself, Σ_{e ⊆ N} x_e ≤ |N| − 1 (about 2|N| terms on a grid);
/// * summing (5.1c) over N, Σ_{i∈N} (1 + 2y_i) = 2 Σ_{e⊆N} x_e + Σ_{e∈δ(N)} x_e, so
///   (5.1e) is Σ_{e∈δ(N)} x_e − 2 Σ_{i∈N} y_i ≥ 2 − |N| (|δ(N)| + |N| terms);
/// * with (5.1d) as well, the same for M = V \ N: Σ_{e∈δ(N)} x_e + 2 Σ_{i∈M} y_i ≥ |M|
///   (|δ(N)| + |M| terms): the points outside a component must reach it or hold enough
///   points of degree 3.
///
/// The subtour rows of large components are the LP's densest rows; the last form keeps
/// them short. On the first 20×20 scaling board the LP's nonzeros at the end of a search
/// went from 32,741 (128 rows in form (5.1e)) to 9,342.
pub fn sparse_subtour_row(g: &Graph, x: &[VarId], y: &[VarId], inside: &[bool]) -> Cut {
    let size = inside.iter().filter(|&&b| b).count();
    let rest = g.n() - size;
    let internal = g
        .edges
        .iter()
        .filter(|&&(i, j)| inside[i] && inside[j])
        .count();
    let boundary = cutset_row(g, x, inside).terms;
    if internal <= boundary.len() + size.min(rest) {
        return subtour_row(g, x, inside);
    }
    let (side, coef, lower) = if size <= rest {
        (true, -2.0, 2.0 - size as f64)
    } else {
        (false, 2.0, rest as f64)
    };
    let mut terms = boundary;
    terms.extend(
        (0..g.n())
            .filter(|&i| inside[i] == side)
            .map(|i| (y[i], coef)),
    );
    Cut {
        terms,
        lower,
        upper: f64::INFINITY,
    }
}

/// The clause form of (5.1e) for the vertex set `inside` (neither empty nor every point):
/// Σ_{e ∈ δ(N)} x_e ≥ 1, some link leaves N. Every tree meets it, so it cuts off the same
/// integral points as (5.1e) on a component of a forest; its LP relaxation is weaker, and it
/// is handed only to engines that reason on clauses (`sat`).
pub fn cutset_row(g: &Graph, x: &[VarId], inside: &[bool]) -> Cut {
    let terms = g
        .edges
        .iter()
        .enumerate()
        .filter(|(_, &(i, j))| inside[i] != inside[j])
        .map(|(e, _)| (x[e], 1.0))
        .collect();
    Cut {
        terms,
        lower: 1.0,
        upper: f64::INFINITY,
    }
}

/// The fundamental cycles of the chosen links, as link lists: for each chosen link that
/// closes a cycle among those before it, that link and the path between its ends.
pub fn cycles(g: &Graph, chosen: &[bool]) -> Vec<Vec<usize>> {
    let n = g.n();
    let mut parent: Vec<usize> = (0..n).collect();
    let mut forest: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    let mut out = Vec::new();
    for (e, &(a, b)) in g.edges.iter().enumerate() {
        if !chosen[e] {
            continue;
        }
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra] = rb;
            forest[a].push((b, e));
            forest[b].push((a, e));
            continue;
        }
        // The path from a to b in the forest, by a search that remembers the link used.
        let mut via = vec![usize::MAX; n];
        let mut seen = vec![false; n];
        let mut stack = vec![a];
        seen[a] = true;
        while let Some(v) = stack.pop() {
            if v == b {
                break;
            }
            for &(w, f) in &forest[v] {
                if !seen[w] {
                    seen[w] = true;
                    via[w] = f;
                    stack.push(w);
                }
            }
        }
        let mut cycle = vec![e];
        let mut v = b;
        while v != a {
            let f = via[v];
            cycle.push(f);
            v = if g.edges[f].0 == v {
                g.edges[f].1
            } else {
                g.edges[f].0
            };
        }
        out.push(cycle);
    }
    out
}

/// Union-find root with path halving.
fn find(parent: &mut [usize], mut v: usize) -> usize {
    while parent[v] != v {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    v
}

/// Domain propagation of the tree rules on the bounds of the `x` columns of one graph
/// (with buffers kept from call to call, since it runs for every probe).
///
/// The rules: a free link inside a component of links fixed to 1 would close a cycle
/// (fixed to 0); a component C of fixed links needs a link leaving it, and since every
/// degree is odd, |δ(C)| ≡ |C| (mod 2): with |C| odd and one free link leaving, that
/// link is fixed to 1; with |C| even at least two must leave, so two free links leaving
/// are both fixed to 1 and one alone is a contradiction; the links that may still be
/// chosen must connect all points, and each of their bridges is fixed to 1. The same
/// parity holds for every set R of points (Σ_{i∈R} deg_i = 2|E(R)| + |δ(R)| with every
/// degree odd, so the tree has |R| mod 2 links leaving R): a bridge, the only link leaving
/// the points on one of its sides, needs an odd number of points there, and the links of
/// a 2-link cut are fixed by the parity of the segments they leave (`Structure::ring`).
/// The 2-link cuts are found with random labels on the DFS tree of the bridge search (a
/// tree link's label is the XOR of the labels of the back links around it; equal labels,
/// equal cuts), and each is checked exactly before it fixes anything.
#[derive(Clone, Debug, Default)]
pub struct TreeRules {
    parent: Vec<usize>,
    size: Vec<usize>,
    leaving: Vec<u32>,
    first: Vec<[usize; 2]>,
    usable: Vec<bool>,
    low: Vec<usize>,
    stack: Vec<(usize, usize, usize)>,
    label: Vec<u64>,
    cuts: Vec<(u64, usize, usize)>,
    slots: Vec<(u64, u32)>,
    /// What the bridges and rings of the last two sets of usable links were (probing
    /// often comes back to a set it saw one or two calls before).
    seen: [Structure; 2],
    /// The graph's incidences in one array, (link, other end) from `start[v]` to
    /// `start[v + 1]` for point v, for a faster depth-first search.
    start: Vec<usize>,
    adjacent: Vec<(usize, usize)>,
}

/// A ring of 2-link cuts and what its parity decides.
#[derive(Clone, Debug)]
struct Ring {
    /// Its links in ring order (a range of [`Structure::links`]): its tree links, then
    /// its back link when it has one.
    links: std::ops::Range<usize>,
    /// What its parity decides.
    verdict: Verdict,
    /// Whether the exact check confirmed the ring (None: not checked yet).
    checked: std::cell::Cell<Option<bool>>,
    /// Its tree links (a range of [`Structure::tree`]).
    tree: std::ops::Range<usize>,
}

/// What the parity of a ring's segments decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Every segment is even: the tree takes every link of the ring.
    TakeAll,
    /// The two odd segments are neighbours: the tree takes every link but this one (its
    /// position in the ring).
    LeaveOut(usize),
    /// No tree crosses the ring.
    Impossible,
}

/// The bridges and 2-link rings of one set of usable links, and the depth-first tree they
/// were found on.
#[derive(Clone, Debug, Default)]
struct Structure {
    /// The usable links (fixed to 1 or free) it was computed for.
    usable: Vec<bool>,
    /// The usable links leave a point unreached, or a bridge has an even side.
    impossible: bool,
    /// The bridges.
    bridges: Vec<usize>,
    /// The rings whose parity decides something.
    rings: Vec<Ring>,
    /// The links of the rings, in ring order.
    links: Vec<usize>,
    /// The tree links of the rings (their child points), from the root down.
    tree: Vec<usize>,
    /// Discovery time of each point in the depth-first search.
    disc: Vec<usize>,
    /// Points in the subtree of each point.
    below: Vec<usize>,
}

impl TreeRules {
    /// Pushes the bound changes the rules imply onto `out` as (column, lower, upper);
    /// false on a contradiction.
    pub fn propagate(
        &mut self,
        g: &Graph,
        x: &[VarId],
        lower: &[f64],
        upper: &[f64],
        out: &mut Vec<(usize, f64, f64)>,
    ) -> bool {
        let n = g.n();
        let m = g.edges.len();
        let fixed = |e: usize| lower[x[e].0] > 0.5;
        let free = |e: usize| lower[x[e].0] < 0.5 && upper[x[e].0] > 0.5;
        self.parent.clear();
        self.parent.extend(0..n);
        for e in 0..m {
            if fixed(e) {
                let (a, b) = (
                    find(&mut self.parent, g.edges[e].0),
                    find(&mut self.parent, g.edges[e].1),
                );
                if a == b {
                    return false;
                }
                self.parent[a] = b;
            }
        }
        for v in 0..n {
            let r = find(&mut self.parent, v);
            self.parent[v] = r;
        }
        self.size.clear();
        self.size.resize(n, 0);
        self.leaving.clear();
        self.leaving.resize(n, 0);
        self.first.clear();
        self.first.resize(n, [usize::MAX; 2]);
        self.usable.clear();
        self.usable.resize(m, false);
        for v in 0..n {
            self.size[self.parent[v]] += 1;
        }
        for (e, &xe) in x.iter().enumerate().take(m) {
            if fixed(e) {
                self.usable[e] = true;
            } else if free(e) {
                let (a, b) = (self.parent[g.edges[e].0], self.parent[g.edges[e].1]);
                if a == b {
                    out.push((xe.0, 0.0, 0.0));
                    continue;
                }
                self.usable[e] = true;
                for c in [a, b] {
                    let k = self.leaving[c] as usize;
                    if k < 2 {
                        self.first[c][k] = e;
                    }
                    self.leaving[c] += 1;
                }
            }
        }
        for r in 0..n {
            if self.parent[r] != r || self.size[r] == n {
                continue;
            }
            match (self.size[r] % 2, self.leaving[r]) {
                (_, 0) | (0, 1) => return false,
                (0, 2) | (1, 1) => {
                    for &e in &self.first[r][..self.leaving[r] as usize] {
                        out.push((x[e].0, 1.0, 1.0));
                    }
                }
                _ => {}
            }
        }
        // The bridges and rings of the usable links: from one of the last two calls when
        // the usable links are the same, or found again.
        if self.seen[0].usable != self.usable {
            self.seen.swap(0, 1);
            if self.seen[0].usable != self.usable {
                self.structure(g);
            }
        }
        let st = &self.seen[0];
        if st.impossible {
            return false;
        }
        for &e in &st.bridges {
            if !fixed(e) {
                out.push((x[e].0, 1.0, 1.0));
            }
        }
        for ring in &st.rings {
            // The ring's changes, taken back unless the exact check confirms the ring.
            let mark = out.len();
            let mut contradiction = ring.verdict == Verdict::Impossible;
            for (i, &e) in st.links[ring.links.clone()].iter().enumerate() {
                let col = x[e].0;
                if ring.verdict == Verdict::LeaveOut(i) {
                    if lower[col] > 0.5 {
                        contradiction = true;
                    } else if upper[col] > 0.5 {
                        out.push((col, 0.0, 0.0));
                    }
                } else if lower[col] < 0.5 {
                    out.push((col, 1.0, 1.0));
                }
            }
            if !contradiction && out.len() == mark {
                continue;
            }
            let confirmed = ring.checked.get().unwrap_or_else(|| {
                let ok = st.is_ring(ring, g);
                ring.checked.set(Some(ok));
                ok
            });
            if !confirmed {
                out.truncate(mark);
            } else if contradiction {
                return false;
            }
        }
        true
    }

    /// Finds the bridges and rings of `self.usable` into `self.seen[0]`: one depth-first
    /// search (iterative Tarjan for the bridges, XOR labels for the 2-link cuts).
    fn structure(&mut self, g: &Graph) {
        let n = g.n();
        if self.start.len() != n + 1 {
            self.start.clear();
            self.adjacent.clear();
            for v in 0..n {
                self.start.push(self.adjacent.len());
                for &e in &g.incident[v] {
                    let (a, b) = g.edges[e];
                    self.adjacent.push((e, if a == v { b } else { a }));
                }
            }
            self.start.push(self.adjacent.len());
        }
        let st = &mut self.seen[0];
        st.usable.clone_from(&self.usable);
        st.impossible = false;
        st.bridges.clear();
        st.rings.clear();
        st.links.clear();
        st.tree.clear();
        st.disc.clear();
        st.disc.resize(n, usize::MAX);
        st.below.clear();
        st.below.resize(n, 1);
        self.low.clear();
        self.low.resize(n, 0);
        self.stack.clear();
        self.label.clear();
        self.label.resize(n, 0);
        self.cuts.clear();
        st.disc[0] = 0;
        let mut time = 1;
        self.stack.push((0, usize::MAX, self.start[0]));
        while let Some(top) = self.stack.last_mut() {
            let (v, via) = (top.0, top.1);
            if top.2 < self.start[v + 1] {
                let (e, w) = self.adjacent[top.2];
                top.2 += 1;
                if e == via || !self.usable[e] {
                    continue;
                }
                if st.disc[w] == usize::MAX {
                    st.disc[w] = time;
                    self.low[w] = time;
                    time += 1;
                    self.stack.push((w, e, self.start[w]));
                } else {
                    self.low[v] = self.low[v].min(st.disc[w]);
                    if st.disc[w] < st.disc[v] {
                        // A back link to an ancestor, seen from below: its random label
                        // goes on both ends, so that a tree link's label (the XOR over the
                        // subtree below it) is the XOR of the back links around it.
                        let l = link_label(e);
                        self.label[v] ^= l;
                        self.label[w] ^= l;
                        self.cuts.push((l, e, usize::MAX));
                    }
                }
            } else {
                self.stack.pop();
                if let Some(&(p, _, _)) = self.stack.last() {
                    self.low[p] = self.low[p].min(self.low[v]);
                    st.below[p] += st.below[v];
                    self.label[p] ^= self.label[v];
                    if self.label[v] != 0 {
                        self.cuts.push((self.label[v], via, v));
                    }
                    if self.low[v] > st.disc[p] {
                        // A bridge: the only link between the points below v and the rest,
                        // so the tree's only link across, and an even side cannot be.
                        if st.below[v].is_multiple_of(2) {
                            st.impossible = true;
                            return;
                        }
                        st.bridges.push(via);
                    }
                }
            }
        }
        if st.disc.contains(&usize::MAX) {
            st.impossible = true;
            return;
        }
        // Two links with the same label leave the same set of points (a 2-link cut): keep
        // the labels seen twice (an open-addressing count, as most labels are unique) and
        // group their links, the tree links of a group from the root down.
        let bits = (2 * self.cuts.len())
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        self.slots.clear();
        self.slots.resize(1 << bits, (0, 0));
        let slot = |slots: &[(u64, u32)], l: u64| {
            let mut i = (l >> (64 - bits)) as usize;
            while slots[i].1 != 0 && slots[i].0 != l {
                i = (i + 1) & (slots.len() - 1);
            }
            i
        };
        for &(l, _, _) in &self.cuts {
            let i = slot(&self.slots, l);
            self.slots[i] = (l, self.slots[i].1 + 1);
        }
        let slots = &self.slots;
        self.cuts.retain(|&(l, _, _)| slots[slot(slots, l)].1 >= 2);
        let disc = &st.disc;
        self.cuts
            .sort_unstable_by_key(|&(l, _, v)| (l, disc.get(v).copied().unwrap_or(usize::MAX)));
        let mut i = 0;
        while i < self.cuts.len() {
            let mut j = i + 1;
            while j < self.cuts.len() && self.cuts[j].0 == self.cuts[i].0 {
                j += 1;
            }
            if j - i >= 2 {
                st.ring(&self.cuts[i..j], n);
            }
            i = j;
        }
    }
}

impl Structure {
    /// The parity rule on one group of links that pairwise cut the usable links (a ring):
    /// removing the k links of the group leaves k segments S_0 … S_{k−1} in a ring, link
    /// r_i joining S_i and S_{i+1 mod k}. A tree has |S_i| mod 2 links leaving S_i and
    /// crosses the ring connectedly, so either it takes every r_i and every segment is
    /// even, or it leaves out exactly one r_i and S_i, S_{i+1} are the only odd segments.
    /// With no odd segment every r_i is fixed to 1; with two odd neighbours (k ≥ 3) the
    /// link between them is fixed to 0 and the others to 1; any other pattern is a
    /// contradiction. The ring is recorded with that verdict; the labels only propose it,
    /// and before it fixes anything [`Structure::is_ring`] checks it exactly.
    fn ring(&mut self, group: &[(u64, usize, usize)], n: usize) {
        let back = group.iter().filter(|c| c.2 == usize::MAX).count();
        if back > 1 {
            return; // two back links with one label: a collision, no ring
        }
        let tree = &group[..group.len() - back];
        let t = tree.len();
        let below = |k: usize| self.below[tree[k].2];
        // The segments' sizes in ring order, and the links between them.
        let mut sizes = Vec::with_capacity(t + 1);
        if back == 0 {
            sizes.push(n - below(0) + below(t - 1));
        } else {
            sizes.push(n - below(0));
        }
        for k in 1..t {
            if below(k - 1) <= below(k) {
                return; // not nested: a collision, no ring
            }
            sizes.push(below(k - 1) - below(k));
        }
        if back == 1 {
            sizes.push(below(t - 1));
        }
        let k = sizes.len();
        let odd: Vec<usize> = (0..k).filter(|&i| sizes[i] % 2 == 1).collect();
        let verdict = match odd[..] {
            [] => Verdict::TakeAll,
            [_, _] if k == 2 => return, // one of the two, either
            [a, b] if b == a + 1 => Verdict::LeaveOut(a),
            [0, b] if b == k - 1 => Verdict::LeaveOut(k - 1),
            _ => Verdict::Impossible,
        };
        let start = self.links.len();
        self.links.extend(tree.iter().map(|c| c.1));
        if back == 1 {
            self.links.push(group[t].1);
        }
        let tree_start = self.tree.len();
        self.tree.extend(tree.iter().map(|c| c.2));
        self.rings.push(Ring {
            links: start..self.links.len(),
            verdict,
            checked: std::cell::Cell::new(None),
            tree: tree_start..self.tree.len(),
        });
    }

    /// Whether `ring` is one: its tree links nested from the root down, and every usable
    /// link outside the ring inside one segment.
    fn is_ring(&self, ring: &Ring, g: &Graph) -> bool {
        let tree = &self.tree[ring.tree.clone()];
        let links = &self.links[ring.links.clone()];
        let back = links.len() > tree.len();
        let t = tree.len();
        let inside = |u: usize, v: usize| {
            self.disc[u] >= self.disc[v] && self.disc[u] < self.disc[v] + self.below[v]
        };
        if tree.windows(2).any(|w| !inside(w[1], w[0]) || w[1] == w[0]) {
            return false;
        }
        let segment = |u: usize| {
            let s = tree.iter().take_while(|&&v| inside(u, v)).count();
            if !back && s == t {
                0
            } else {
                s
            }
        };
        let k = links.len();
        for (e, &(a, b)) in g.edges.iter().enumerate() {
            if !self.usable[e] {
                continue;
            }
            let (sa, sb) = (segment(a), segment(b));
            match links.iter().position(|&r| r == e) {
                Some(i) => {
                    if !((sa == i && sb == (i + 1) % k) || (sb == i && sa == (i + 1) % k)) {
                        return false;
                    }
                }
                None => {
                    if sa != sb {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// A link's random label for finding 2-link cuts (splitmix64 of its index, so runs repeat).
fn link_label(e: usize) -> u64 {
    let mut z = (e as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The lazy rows (5.1e) of CM1 and the propagation of the tree rules, for the branch and
/// cut.
pub struct Subtours<'a> {
    /// The graph.
    pub g: &'a Graph,
    /// The `x` columns.
    pub x: Vec<VarId>,
    /// Buffers of the propagation.
    pub rules: TreeRules,
    /// Rows in their clause form ([`cutset_row`]) instead of (5.1e), for engines that
    /// reason on clauses.
    pub clauses: bool,
    /// The `y` columns, when the model has the degree rows (5.1c) and the tree row (5.1d)
    /// as written by [`build`]: rows (5.1e) are then added in their shortest equal form
    /// ([`sparse_subtour_row`]).
    pub y: Option<Vec<VarId>>,
}

impl<'a> Subtours<'a> {
    /// The separator for the `x` columns of `g`, with rows (5.1e).
    pub fn new(g: &'a Graph, x: Vec<VarId>) -> Self {
        Subtours {
            g,
            x,
            rules: TreeRules::default(),
            clauses: false,
            y: None,
        }
    }

    /// The same separator, writing rows (5.1e) in their shortest form over `x` and the `y`
    /// columns of [`build`].
    pub fn with_degree_columns(self, y: Vec<VarId>) -> Self {
        Subtours { y: Some(y), ..self }
    }

    /// The same separator, with rows in clause form when `clauses` is true.
    pub fn with_clauses(self, clauses: bool) -> Self {
        Subtours { clauses, ..self }
    }
}

impl Separator for Subtours<'_> {
    /// The rows (5.1e) of the components of the chosen links (integral point) or of the
    /// links above 0 (fractional point) that the point violates; in clause form, the
    /// cutset row of every component.
    fn separate(&mut self, values: &[f64], integral: bool) -> Vec<Cut> {
        let threshold = if integral { 0.5 } else { 1e-6 };
        let chosen: Vec<bool> = self.x.iter().map(|v| values[v.0] > threshold).collect();
        let comp = self.g.components(&chosen);
        let count = comp.iter().max().map_or(0, |c| c + 1);
        if count <= 1 {
            return Vec::new();
        }
        let mut cuts: Vec<Cut> = (0..count)
            .map(|k| {
                let inside: Vec<bool> = comp.iter().map(|&c| c == k).collect();
                let row = if self.clauses {
                    cutset_row(self.g, &self.x, &inside)
                } else {
                    subtour_row(self.g, &self.x, &inside)
                };
                (row, inside)
            })
            .filter(|(cut, _)| cut.violation(values) > 1e-6)
            .map(|(cut, inside)| match &self.y {
                Some(y) if !self.clauses => sparse_subtour_row(self.g, &self.x, y, &inside),
                _ => cut,
            })
            .collect();
        if self.clauses && integral {
            cuts.extend(cycles(self.g, &chosen).into_iter().map(|c| Cut {
                lower: f64::NEG_INFINITY,
                upper: c.len() as f64 - 1.0,
                terms: c.into_iter().map(|e| (self.x[e], 1.0)).collect(),
            }));
        }
        cuts
    }

    fn propagate(&mut self, lower: &[f64], upper: &[f64], out: &mut Vec<Tightening>) -> bool {
        self.rules.propagate(self.g, &self.x, lower, upper, out)
    }
}

/// The lazy rows of [`Subtours`] without its propagation: the plain branch and cut of
/// `cm1-lazy` (the rows still propagate, as in any MIP solver; no tree rules, no probing).
pub struct LazyOnly<'a>(pub Subtours<'a>);

impl Separator for LazyOnly<'_> {
    fn separate(&mut self, values: &[f64], integral: bool) -> Vec<Cut> {
        self.0.separate(values, integral)
    }
}

/// Builds CM1 and solves it on the run's engine with the rows (5.1e) lazy: on `bc` the
/// project's branch and cut (its LP relaxation, without any row (5.1e), is the report's
/// z*_CM1 = |V| − 1), on `cbc` CBC's cut callback with every incumbent checked again.
///
/// With `tree_rules` false this is `cm1-lazy`: the separator without the tree rules (and
/// the hints switch probing off), so the search has the lazy rows alone.
pub fn solve(p: &Circuit, run: &Run, hints: SearchHints, tree_rules: bool) -> RunResult {
    let g = Graph::new(p);
    let clauses = run.engine.capabilities().clausal;
    let decode = |cols: &Columns, v: &[f64]| p.answer(g.links(&cols.chosen(v)), None);
    // With --certify, the claim is proved on the model without its lazy rows, a
    // relaxation whose tree row (5.1d) already fixes the objective
    // (crate::puzzles::certified::on_relaxation).
    solve_lazy(&g, run, hints, tree_rules, clauses, decode)
}

/// [`solve`]'s run: cm1's model with its separator, the tree rules and probing when
/// `tree_rules`.
fn solve_lazy(
    g: &Graph,
    run: &Run,
    hints: SearchHints,
    tree_rules: bool,
    clauses: bool,
    decode: impl Fn(&Columns, &[f64]) -> crate::puzzles::Answer,
) -> RunResult {
    if tree_rules {
        run.lazy_rows(
            || {
                let (m, cols) = build(g);
                let sep = Subtours::new(g, cols.x.clone())
                    .with_clauses(clauses)
                    .with_degree_columns(cols.y.clone());
                (m, cols, sep)
            },
            hints,
            decode,
        )
    } else {
        run.lazy_rows(
            || {
                let (m, cols) = build(g);
                let sep = LazyOnly(Subtours::new(g, cols.x.clone()).with_clauses(clauses));
                (m, cols, sep)
            },
            hints,
            decode,
        )
    }
}
