//! Nonograms with the states of each line's automaton and no arcs: the decomposition of
//! the `regular` constraint into one state variable per position and a transition
//! constraint between neighbouring positions (Quimper and Walsh, "Decomposing global
//! grammar constraints", CP 2007; Bacchus, "GAC via unit propagation", CP 2007), written
//! as clauses over the state columns.
//!
//! The automaton and its layered graph are [`super::dfa`]'s (states G_t, "t clusters
//! done", and B_{t,c}, "inside cluster t, c of its cells read"; positions 0 … len; nodes on
//! no accepted path left out). Here only its nodes are columns.
//!
//! Variables: `z[i,j]` (binary, [`Cells`]) is 1 when cell (i, j) is black; `s[line,pos,q]`
//! (binary) is 1 when the line's path is in state q before reading cell `pos` (after the
//! last cell for pos = len; the start node at pos = 0 is the constant 1, not a column).
//! Rows, per line, all but the first a clause (Σ of literals ≥ 1, a literal being s, z or
//! 1 − s, 1 − z):
//! * a state at each position: Σ_q s[pos,q] ≥ 1 (`layer`; at most one follows from the
//!   clauses below, see there);
//! * forward: a node with a white arc to q_w and a black arc to q_b: s[pos,q] ∧ white →
//!   s[pos+1,q_w], s[pos,q] ∧ black → s[pos+1,q_b], s[pos,q] → s[pos+1,q_w] ∨
//!   s[pos+1,q_b]; a node with one arc (to q', colour c): s[pos,q] → s[pos+1,q'] and
//!   s[pos,q] → the cell has colour c (`next`);
//! * backward: s[pos+1,q'] → the disjunction of its predecessors s[pos,q] (left out when
//!   the start node is one of them), and s[pos+1,q'] → the cell has the colour every arc
//!   into q' reads (B states are entered on black cells, G states on white) (`back`);
//! * the cell: black → a B state at pos+1, white → a G state at pos+1 (`cell`).
//!
//! Givens fix z. The objective is 0.
//!
//! The clauses alone make the states the path of the cells' colours: at pos = 1 the two
//! nodes are entered on different colours, so the cell's colour leaves one; a node at
//! pos + 1 > 1 needs a predecessor that is 1 and the colour of its arcs, so by induction
//! it is the path's next state; and from the path's state at pos the forward clauses
//! demand the successor on the cell's colour, which must be a node (an accepted path)
//! up to pos = len. So every solution's cells are a pattern of the clue, and each pattern
//! has one solution in s. (The clauses are redundant as a set: the forward clauses alone,
//! or the backward and colour clauses alone, already tie the states to the path; all are
//! written for what unit propagation derives from them.) The exactly-one over a position's states (as in [`super::dfa`])
//! is therefore left at "at least one": one sweep of the 45 pictures of issue 41 (twenty
//! random 40×40 and twenty 50×50, five webpbn), two runs each, `sat`, median of medians:
//! exactly one 0.224 s, at least one 0.154 s, no `layer` row 0.138 s (50×50: 0.444,
//! 0.261, 0.314 s); at least one also keeps a row that the LP relaxation sees.
//!
//! Why: on the SAT engine [`super::dfa`]'s arcs and its exactly-one rows over arcs make a
//! formula of about 142,000 columns and 0.6–0.9 million clauses on a random 50×50
//! picture, most of the time spent taking and propagating it rather than searching. Here
//! an arc is the conjunction of its node and its cell, which the clauses above express
//! without a column: unit propagation on them is generalised arc consistency on each
//! transition constraint (every remaining state has a successor and a predecessor of a
//! remaining colour, every remaining colour a state), and the chain of transition
//! constraints is Berge-acyclic, so it is arc consistency on the whole line, as with the
//! arcs. The LP relaxation is weaker than the flow's (the clauses are not a network
//! matrix): a formulation for SAT and CP engines, measured on MIP engines too.

use super::dfa::{arcs, State};
use super::{Cells, Line, Nonogram};
use crate::model::{Model, Name, VarId};
use std::collections::HashMap;

/// Builds the state model for `p`.
pub fn build(p: &Nonogram) -> (Model, Cells) {
    let mut m = Model::new(format!("nonogram_states_{}", p.name));
    let cells = Cells::add(&mut m, p);
    for line in p.lines() {
        add_line(&mut m, &cells, &line);
    }
    (m, cells)
}

/// A literal of a clause: the column and whether it appears positive.
type Literal = (VarId, bool);

/// Adds the clause "at least one of `lits`": Σ_{positive} x − Σ_{negative} x ≥ 1 − #negative.
fn clause(m: &mut Model, name: Name, lits: &[Literal]) {
    let negative = lits.iter().filter(|l| !l.1).count() as f64;
    let terms = lits
        .iter()
        .map(|&(v, positive)| (v, if positive { 1.0 } else { -1.0 }));
    m.add_ge(name, terms, 1.0 - negative);
}

/// The state columns and clauses of one line.
fn add_line(m: &mut Model, cells: &Cells, line: &Line) {
    let clue = line.clue;
    let (node_letter, layer, next, back, cell) = if line.row {
        ("sr", "rowlayer", "rownext", "rowback", "rowcell")
    } else {
        ("sc", "collayer", "colnext", "colback", "colcell")
    };
    let arcs = arcs(clue, line.len);
    if arcs.is_empty() {
        // The clue does not fit: no path, no grid.
        m.add_eq(Name::idx(layer, &[line.index + 1, 0]), [], 1.0);
        return;
    }
    // The nodes after the start, in the order of the graph.
    let mut nodes: HashMap<(usize, State), VarId> = HashMap::new();
    let mut layers: Vec<Vec<(State, VarId)>> = vec![Vec::new(); line.len + 1];
    for a in &arcs {
        nodes.entry((a.pos + 1, a.to)).or_insert_with(|| {
            let v = m.add_binary(Name::idx(
                node_letter,
                &[line.index + 1, a.pos + 2, a.to.number(clue)],
            ));
            layers[a.pos + 1].push((a.to, v));
            v
        });
    }
    for (pos, states) in layers.iter().enumerate().skip(1) {
        let terms = states.iter().map(|&(_, v)| (v, 1.0));
        m.add_ge(Name::idx(layer, &[line.index + 1, pos + 1]), terms, 1.0);
    }
    // Out of each node: its arcs by colour; into each node: its predecessors.
    let mut out: HashMap<(usize, State), [Option<State>; 2]> = HashMap::new();
    let mut into: HashMap<(usize, State), Vec<State>> = HashMap::new();
    for a in &arcs {
        out.entry((a.pos, a.from)).or_default()[a.black as usize] = Some(a.to);
        into.entry((a.pos + 1, a.to)).or_default().push(a.from);
    }
    let mut froms: Vec<(usize, State)> = out.keys().copied().collect();
    froms.sort_unstable();
    for (pos, q) in froms {
        let z = cells.at(line.cell(pos));
        // The node as a negative literal; none for the start, which is the constant 1.
        let here: Vec<Literal> = if pos > 0 {
            vec![(nodes[&(pos, q)], false)]
        } else {
            Vec::new()
        };
        let number = |k: usize| Name::idx(next, &[line.index + 1, pos + 1, q.number(clue), k]);
        let to = |s: State| (nodes[&(pos + 1, s)], true);
        match out[&(pos, q)] {
            [Some(white), Some(black)] => {
                clause(m, number(1), &[&here[..], &[(z, true), to(white)]].concat());
                clause(
                    m,
                    number(2),
                    &[&here[..], &[(z, false), to(black)]].concat(),
                );
                clause(m, number(3), &[&here[..], &[to(white), to(black)]].concat());
            }
            [only_white, only_black] => {
                let (s, black) = match (only_white, only_black) {
                    (Some(s), None) => (s, false),
                    (None, Some(s)) => (s, true),
                    _ => unreachable!("a node in `out` has an arc"),
                };
                clause(m, number(1), &[&here[..], &[to(s)]].concat());
                clause(m, number(2), &[&here[..], &[(z, black)]].concat());
            }
        }
    }
    for (pos, states) in layers.iter().enumerate().skip(1) {
        let z = cells.at(line.cell(pos - 1));
        let mut black_states = vec![(z, false)];
        let mut white_states = vec![(z, true)];
        for &(q, v) in states {
            let number = |k: usize| Name::idx(back, &[line.index + 1, pos + 1, q.number(clue), k]);
            let preds = &into[&(pos, q)];
            if pos > 1 {
                let mut lits = vec![(v, false)];
                lits.extend(preds.iter().map(|&p| (nodes[&(pos - 1, p)], true)));
                clause(m, number(1), &lits);
            }
            let black = matches!(q, State::Block(..));
            clause(m, number(2), &[(v, false), (z, black)]);
            if black {
                black_states.push((v, true));
            } else {
                white_states.push((v, true));
            }
        }
        let number = |k: usize| Name::idx(cell, &[line.index + 1, pos, k]);
        clause(m, number(1), &black_states);
        clause(m, number(2), &white_states);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row of every clue up to length 5, all columns enumerated: each pattern of the
    /// clue has exactly one assignment of the state columns, every other line none (the
    /// claim that the clauses alone make the states the path, so that "at least one" per
    /// position suffices).
    #[test]
    fn each_pattern_has_one_state_assignment_and_other_lines_none() {
        let mut lines_checked = 0;
        for len in 1..=5usize {
            let mut clues: Vec<Vec<usize>> = (0..1u32 << len)
                .map(|code| super::super::runs((0..len).map(|k| code >> k & 1 == 1)))
                .collect();
            clues.sort();
            clues.dedup();
            clues.push(vec![len + 1]); // does not fit
            for clue in clues {
                let p = Nonogram::new(vec![clue.clone()], vec![Vec::new(); len]);
                let mut m = Model::new("line");
                let cells = Cells::add(&mut m, &p);
                let row = p.lines().next().expect("one row");
                add_line(&mut m, &cells, &row);
                let n = m.vars.len();
                assert!(n <= 22, "{clue:?} {len}: {n} columns");
                let mut per_line = vec![0usize; 1 << len];
                for code in 0u32..1 << n {
                    let x: Vec<f64> = (0..n).map(|j| f64::from(code >> j & 1)).collect();
                    if m.feasible(&x) {
                        let cells_code =
                            (0..len).fold(0, |c, k| c | (x[cells.at((0, k)).0] as usize) << k);
                        per_line[cells_code] += 1;
                    }
                }
                for (code, &count) in per_line.iter().enumerate() {
                    let line = (0..len).map(|k| code >> k & 1 == 1);
                    let want = usize::from(super::super::runs(line) == clue);
                    assert_eq!(count, want, "clue {clue:?} len {len} line {code:0len$b}");
                }
                lines_checked += 1;
            }
        }
        assert!(lines_checked > 20, "{lines_checked}");
    }
}
