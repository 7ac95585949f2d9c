//! Nonograms as one network flow per line: the integer programming form of the `regular`
//! constraint (Côté, Gendron and Rousseau, "Modeling the regular constraint with integer
//! programming", CPAIOR 2007), with the automaton of a nonogram clue.
//!
//! The automaton of a line with clue p_1 … p_k reads its cells left to right (rows) or
//! top to bottom (columns). Its states: G_t, "t clusters done and the last one closed by a
//! white cell (or no cluster yet, t = 0)", and B_{t,c}, "inside cluster t, c black cells of
//! it read". A white cell keeps G_t and closes a full cluster (B_{t,p_t} → G_{t+1}); a black
//! cell opens the next cluster (G_t → B_{t,1}) or extends the current one. It accepts in
//! G_k and in B_{k,p_k} (the last cluster touching the end of the line). Unrolled over the
//! line's positions, it is a layered graph whose paths from G_0 at the start to an
//! accepting state at the end are exactly the line's patterns; nodes that lie on no such
//! path (too early or too late for their state) are left out.
//!
//! Variables: `z[i,j]` (binary, [`Cells`]) is 1 when cell (i, j) is black; `f[line,a]`
//! (binary) is 1 when the line's path takes arc a of its layered graph; `s[line,pos,q]`
//! (binary) is 1 when the path is in state q before reading cell `pos` (after the last
//! cell for pos = len; the start node is the constant 1, not a column). Rows, per line:
//! * one unit of flow leaves the start node: Σ_{arcs out of it} f = 1 (`start`);
//! * a node is on the path exactly when one arc enters it and exactly when one arc
//!   leaves it: Σ_in f = s (`in`) and Σ_out f = s (`out`); together they conserve flow;
//! * one state per position: Σ_q s[pos,q] = 1 (`layer`);
//! * each cell is black exactly when the path crosses it on a black arc and white exactly
//!   when on a white arc: z = Σ_{black arcs at the cell} f (`cell`) and
//!   1 − z = Σ_{white arcs} f (`white`), once for its row and once for its column.
//!
//! Givens fix z. The objective is 0.
//!
//! Substituting s gives the flow model of Côté et al. (flow conservation at every node),
//! so the LP relaxation is the same: each line's rows form a network matrix, and the LP
//! of one line alone is the convex hull of its patterns, which Bosch's model does not
//! give. The node columns and the `layer` and `white` rows are implied by the flow; they
//! are written because they make every row a "one of these" row (an exactly-one over
//! arcs and the negated node or cell), which the SAT engine encodes so that unit
//! propagation reasons along the whole automaton (the support encoding of the regular
//! constraint, Bacchus 2007): Tatham's puzzles, which line-by-line reasoning solves, are
//! then solved by propagation alone. On the committed 30×30 and 50×50 Pattern puzzles
//! on `sat`, conservation rows alone took about 0.3 s and 4 s (hundreds to thousands of
//! conflicts), these rows about 0.01 s and 0.06 s (no conflict). The price against Bosch's model is more
//! columns (about the states times the line's slack, against the clusters times the
//! slack). A line whose clue does not fit has no path: an empty `start` row, 0 = 1.

use super::{Cells, Line, Nonogram};
use crate::model::{Model, Name, VarId};
use std::collections::HashMap;

/// A state of a clue's automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum State {
    /// t clusters done, the last closed (or none yet).
    Gap(usize),
    /// Inside cluster t (from 0), c of its cells read (c ≥ 1).
    Block(usize, usize),
}

impl State {
    /// A number for row names.
    pub(super) fn number(self, clue: &[usize]) -> usize {
        match self {
            State::Gap(t) => clue[..t].iter().sum::<usize>() + 2 * t + 1,
            State::Block(t, c) => clue[..t].iter().sum::<usize>() + 2 * t + 1 + c,
        }
    }
}

/// The state after reading one cell (`black`) in `s`, if any.
fn step(clue: &[usize], s: State, black: bool) -> Option<State> {
    match (s, black) {
        (State::Gap(t), false) => Some(State::Gap(t)),
        (State::Gap(t), true) => (t < clue.len()).then_some(State::Block(t, 1)),
        (State::Block(t, c), true) => (c < clue[t]).then_some(State::Block(t, c + 1)),
        (State::Block(t, c), false) => (c == clue[t]).then_some(State::Gap(t + 1)),
    }
}

/// Whether a line may end in `s`.
fn accepts(clue: &[usize], s: State) -> bool {
    let k = clue.len();
    match s {
        State::Gap(t) => t == k,
        State::Block(t, c) => k > 0 && t == k - 1 && c == clue[t],
    }
}

/// One arc of a layered graph: from the state at `pos` to the state at `pos + 1`, reading
/// a black or white cell.
pub(super) struct Arc {
    /// The position of the cell read (from 0).
    pub(super) pos: usize,
    /// The state before reading it.
    pub(super) from: State,
    /// The state after reading it.
    pub(super) to: State,
    /// Whether the cell read is black.
    pub(super) black: bool,
}

/// The arcs of the line's layered graph that lie on some accepted path.
pub(super) fn arcs(clue: &[usize], len: usize) -> Vec<Arc> {
    // Forward: the states reachable at each position.
    let mut forward: Vec<Vec<State>> = vec![vec![State::Gap(0)]];
    for pos in 0..len {
        let mut next: Vec<State> = forward[pos]
            .iter()
            .flat_map(|&s| {
                [false, true]
                    .into_iter()
                    .filter_map(move |b| step(clue, s, b))
            })
            .collect();
        next.sort_unstable();
        next.dedup();
        forward.push(next);
    }
    // Backward: keep the states from which an accepting state is reached at the end.
    let mut alive: Vec<Vec<State>> = vec![Vec::new(); len + 1];
    alive[len] = forward[len]
        .iter()
        .copied()
        .filter(|&s| accepts(clue, s))
        .collect();
    let mut out = Vec::new();
    for pos in (0..len).rev() {
        let mut keep = Vec::new();
        for &s in &forward[pos] {
            for black in [false, true] {
                if let Some(t) = step(clue, s, black) {
                    if alive[pos + 1].binary_search(&t).is_ok() {
                        out.push(Arc {
                            pos,
                            from: s,
                            to: t,
                            black,
                        });
                        keep.push(s);
                    }
                }
            }
        }
        keep.sort_unstable();
        keep.dedup();
        alive[pos] = keep;
    }
    out.reverse();
    out
}

/// Builds the flow model for `p`.
pub fn build(p: &Nonogram) -> (Model, Cells) {
    let mut m = Model::new(format!("nonogram_dfa_{}", p.name));
    let cells = Cells::add(&mut m, p);
    for line in p.lines() {
        add_line(&mut m, &cells, &line);
    }
    (m, cells)
}

/// The flow columns and rows of one line.
fn add_line(m: &mut Model, cells: &Cells, line: &Line) {
    let clue = line.clue;
    let (letter, node_letter, start, enter, leave, layer, cell, white_tag) = if line.row {
        (
            "fr", "sr", "rowstart", "rowin", "rowout", "rowlayer", "rowcell", "rowwhite",
        )
    } else {
        (
            "fc", "sc", "colstart", "colin", "colout", "collayer", "colcell", "colwhite",
        )
    };
    let arcs = arcs(clue, line.len);
    let f: Vec<VarId> = arcs
        .iter()
        .map(|a| {
            m.add_binary(Name::idx(
                letter,
                &[
                    line.index + 1,
                    a.pos + 1,
                    a.from.number(clue),
                    a.to.number(clue),
                ],
            ))
        })
        .collect();
    // The nodes: s[pos, state] = 1 when the path is in `state` before reading cell `pos`
    // (pos = 0 the start, pos = len the end); the start node is the constant 1.
    let mut nodes: HashMap<(usize, State), VarId> = HashMap::new();
    for a in &arcs {
        for (pos, st) in [(a.pos, a.from), (a.pos + 1, a.to)] {
            if pos > 0 {
                nodes.entry((pos, st)).or_insert_with(|| {
                    m.add_binary(Name::idx(
                        node_letter,
                        &[line.index + 1, pos + 1, st.number(clue)],
                    ))
                });
            }
        }
    }
    // Flow out of and into each node (out of the start: 1; no arcs: the clue does not
    // fit, 0 = 1).
    let mut out: HashMap<(usize, State), Vec<(VarId, f64)>> = HashMap::new();
    let mut into: HashMap<(usize, State), Vec<(VarId, f64)>> = HashMap::new();
    for (a, &v) in arcs.iter().zip(&f) {
        out.entry((a.pos, a.from)).or_default().push((v, 1.0));
        into.entry((a.pos + 1, a.to)).or_default().push((v, 1.0));
    }
    m.add_eq(
        Name::idx(start, &[line.index + 1]),
        out.remove(&(0, State::Gap(0))).unwrap_or_default(),
        1.0,
    );
    let mut keys: Vec<(usize, State)> = nodes.keys().copied().collect();
    keys.sort();
    for key in keys {
        let s_var = nodes[&key];
        let number = [line.index + 1, key.0 + 1, key.1.number(clue)];
        for (tag, terms) in [(enter, into.remove(&key)), (leave, out.remove(&key))] {
            if let Some(mut terms) = terms {
                terms.push((s_var, -1.0));
                m.add_eq(Name::idx(tag, &number), terms, 0.0);
            }
        }
    }
    // One state per position.
    let mut layers: Vec<Vec<(VarId, f64)>> = vec![Vec::new(); line.len + 1];
    for (&(pos, _), &v) in &nodes {
        layers[pos].push((v, 1.0));
    }
    for (pos, mut terms) in layers.into_iter().enumerate().skip(1) {
        terms.sort_by_key(|t| t.0);
        if !terms.is_empty() {
            m.add_eq(Name::idx(layer, &[line.index + 1, pos + 1]), terms, 1.0);
        }
    }
    // Each cell is black exactly when the path crosses it on a black arc, and white
    // exactly when on a white arc.
    let mut black: Vec<Vec<(VarId, f64)>> = vec![Vec::new(); line.len];
    let mut white: Vec<Vec<(VarId, f64)>> = vec![Vec::new(); line.len];
    for (a, &v) in arcs.iter().zip(&f) {
        if a.black {
            black[a.pos].push((v, -1.0));
        } else {
            white[a.pos].push((v, 1.0));
        }
    }
    for (k, (mut b, mut w)) in black.into_iter().zip(white).enumerate() {
        let z = cells.at(line.cell(k));
        b.push((z, 1.0));
        m.add_eq(Name::idx(cell, &[line.index + 1, k + 1]), b, 0.0);
        w.push((z, 1.0));
        m.add_eq(Name::idx(white_tag, &[line.index + 1, k + 1]), w, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pattern of a line, by walking the layered graph's paths.
    fn patterns(clue: &[usize], len: usize) -> Vec<Vec<bool>> {
        let arcs = arcs(clue, len);
        let mut out = Vec::new();
        fn walk(
            arcs: &[Arc],
            pos: usize,
            s: State,
            len: usize,
            path: &mut Vec<bool>,
            out: &mut Vec<Vec<bool>>,
        ) {
            if pos == len {
                out.push(path.clone());
                return;
            }
            for a in arcs.iter().filter(|a| a.pos == pos && a.from == s) {
                path.push(a.black);
                walk(arcs, pos + 1, a.to, len, path, out);
                path.pop();
            }
        }
        walk(&arcs, 0, State::Gap(0), len, &mut Vec::new(), &mut out);
        out.sort();
        out
    }

    #[test]
    fn the_graph_holds_exactly_the_patterns_of_the_clue() {
        for len in 0..=7usize {
            // Every line of this length, grouped by its clue.
            let mut by_clue: std::collections::BTreeMap<Vec<usize>, Vec<Vec<bool>>> =
                std::collections::BTreeMap::new();
            for code in 0..(1u32 << len) {
                let line: Vec<bool> = (0..len).map(|k| code >> k & 1 == 1).collect();
                by_clue
                    .entry(super::super::runs(line.iter().copied()))
                    .or_default()
                    .push(line);
            }
            for (clue, mut lines) in by_clue {
                lines.sort();
                assert_eq!(patterns(&clue, len), lines, "clue {clue:?} len {len}");
            }
            // A clue that does not fit has no path.
            assert!(arcs(&[len + 1], len).is_empty());
        }
    }
}
