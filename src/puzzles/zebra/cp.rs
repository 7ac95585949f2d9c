//! The Zebra constraint program, after the report's CP model (Section 7.2.2, from Gregor
//! et al.), solved by the project's `propagate` engine, or by SWI-Prolog as the Prolog
//! program the report ran (engine `prolog`: houses with their attributes, one goal per
//! clue; see [`crate::engines::prolog`]).
//!
//! Variables: `pos[a,v]` ∈ {1..H} is the house of value v of attribute a (the report's
//! position(v); its x[i,v] = 1 exactly when pos[a,v] = i). Each attribute's H variables
//! form a permutation group: every house holds one value of every attribute (the report's
//! Σ_i x[i,v] = 1 with the one-value-per-house rule). Each clue becomes one constraint,
//! in the file's order:
//! * `same A B` (ACC): pos[A] = pos[B]; `not same`: pos[A] ≠ pos[B];
//! * `at A i` (DLC): pos[A] = i; `not at`: pos[A] ≠ i;
//! * `left A B`: pos[B] = pos[A] + 1; `right A B`: pos[B] = pos[A] − 1 (ILC), and their
//!   negations ≠;
//! * `next A B` (ILC): |pos[A] − pos[B]| = 1 (the report's Table 7.3); `not next`: ≠ 1.
//!
//! Deviation: the report writes the ACC as an implication from one house's nationality
//! to its colour (Table 7.3); over positions it is the equality above, which also holds
//! the converse that the implication gets from the permutations.
//!
//! The heuristics (`--heuristics none|1|12|123`) order the clues for the search: see
//! [`crate::engines::propagate`]; `prolog` takes its goals in the same orders.
//!
//! Deviation on `prolog`: the report does not print its Prolog program. Ours is written
//! from the model here (one `h/K` term per house, a `member/2`, `nth1/3`, `left_of/3` or
//! `next_to/3` goal per clue, negated clues placed and tested, the permutations checked
//! last by generate and test); its logical inferences are near the report's on the 1962
//! puzzle but not the same program's.

use super::{Relation, Solution, Zebra};
use crate::cp_model::{Constraint, CpModel};
use crate::puzzles::{Run, RunResult};

/// Builds the CP model of `z`: variable `a * H + v` is pos[a,v], counted from 0.
pub fn build(z: &Zebra) -> CpModel {
    let hs = z.houses;
    let var = |p: super::Prop| p.attr * hs + p.value;
    let mut vars = Vec::new();
    let mut groups = Vec::new();
    for a in &z.attributes {
        let first = vars.len();
        vars.extend(a.values.iter().map(|v| format!("pos[{}.{v}]", a.name)));
        groups.push((first..vars.len()).collect());
    }
    let constraints = z
        .clues
        .iter()
        .map(|c| match (c.relation, c.negated) {
            (Relation::Same(p, q), false) => Constraint::Same(var(p), var(q)),
            (Relation::Same(p, q), true) => Constraint::Differ(var(p), var(q)),
            (Relation::At(p, h), false) => Constraint::Is(var(p), h),
            (Relation::At(p, h), true) => Constraint::IsNot(var(p), h),
            (Relation::LeftOf(p, q), false) => Constraint::Offset(var(p), var(q), 1),
            (Relation::LeftOf(p, q), true) => Constraint::NotOffset(var(p), var(q), 1),
            (Relation::RightOf(p, q), false) => Constraint::Offset(var(p), var(q), -1),
            (Relation::RightOf(p, q), true) => Constraint::NotOffset(var(p), var(q), -1),
            (Relation::NextTo(p, q), false) => Constraint::Adjacent(var(p), var(q)),
            (Relation::NextTo(p, q), true) => Constraint::NotAdjacent(var(p), var(q)),
        })
        .collect();
    CpModel {
        name: format!("zebra_cp_{}", z.name),
        width: hs,
        vars,
        groups,
        constraints,
    }
}

/// Builds the CP model and solves it on the run's engine (`propagate` or `prolog`, with
/// the heuristics and count of the run).
pub fn solve(z: &Zebra, run: &Run) -> RunResult {
    run.constraint_program(|| (build(z), ()), |_, v| z.answer(decode(z, v)))
}

/// Turns pos[a,v] values (houses from 0) into a solution table.
pub fn decode(z: &Zebra, values: &[f64]) -> Solution {
    let hs = z.houses;
    let mut s = vec![vec![hs; z.attributes.len()]; hs];
    for a in 0..z.attributes.len() {
        for v in 0..hs {
            let h = values[a * hs + v] as usize;
            if h < hs {
                s[h][a] = v;
            }
        }
    }
    s
}
