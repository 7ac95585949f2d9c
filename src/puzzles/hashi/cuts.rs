//! Hashi without flow variables: connectivity by row generation, the way Coelho et al.
//! reach boards of 400 islands (they add the rows lazily in a branch-and-cut callback; the
//! Rust bindings of HiGHS and CBC have no such callback, so here each round is a full
//! solve).
//!
//! Variables: `x[n,a,b]` (binary) is 1 when exactly n bridges join islands a and b, as in
//! [`super::base`]. Rows: (6.1b) labels, (6.1c) one count per pair and (6.1d) no
//! crossings, as in [`super::base`]; no flow.
//!
//! The loop: solve; take the islands joined by the bridges of the solution and find the
//! connected components; if there is one, the solution is the answer. Otherwise add, for
//! every component C that does not hold all islands, the row `cut[r,i]` (round r, i-th
//! row of the round)
//!
//! Σ_{q ∈ δ(C)} Σ_{n ≥ 1} x^n_q ≥ 1,
//!
//! where δ(C) are the possible bridges with one end in C: at least one bridge leaves C.
//! Components with the same δ(C) (two components that are all the islands) give one row.
//! A component with δ(C) empty can never be joined to the others: the puzzle is infeasible.
//! Every row is valid for every solution of the puzzle, so the first connected solution
//! solves it and an infeasible round proves the puzzle infeasible.
//!
//! `cuts-hdc` also applies the fixings of [`super::hdc`] as bounds before the first round.
//!
//! Figures: `rounds` counts the solves, `cuts` the rows added; `seconds` is the wall-clock
//! time of the whole loop (solves and separation), `nodes` the sum over the rounds. The
//! time limit bounds the whole loop: each round gets what is left, and a round stopped by
//! the limit, or no time left before a round, ends the run as `time_limit`. The LP bound
//! is that of the first round's model; counts are those of the last round's model.

use super::base::{self, Decoder};
use super::{hdc, Hashi};
use crate::lazy::{Cut, Separator};
use crate::model::Model;
use crate::puzzles::{Run, RunResult};

/// Builds the first round's model (no connectivity rows); with `fixings`, the hdc bounds
/// are applied. Returns the model, its decoder and the number of bounds tightened.
pub fn build(p: &Hashi, fixings: bool) -> (Model, Decoder, usize) {
    let key = if fixings { "cuts-hdc" } else { "cuts" };
    let (mut m, d) = base::build_assignment(p, format!("hashi_{key}_{}", p.name));
    let n = if fixings {
        hdc::apply(&mut m, &d, &hdc::deductions(p))
    } else {
        0
    };
    (m, d, n)
}

/// The components of the islands joined by the bridges with `counts[q] > 0`, as a
/// component number per island.
pub fn components(p: &Hashi, d: &Decoder, counts: &[u32]) -> Vec<usize> {
    let k = p.k();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (pq, &n) in d.pairs.iter().zip(counts) {
        if n > 0 {
            adj[pq.a].push(pq.b);
            adj[pq.b].push(pq.a);
        }
    }
    let mut comp = vec![usize::MAX; k];
    let mut next = 0;
    for s in 0..k {
        if comp[s] != usize::MAX {
            continue;
        }
        comp[s] = next;
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            for &w in &adj[v] {
                if comp[w] == usize::MAX {
                    comp[w] = next;
                    stack.push(w);
                }
            }
        }
        next += 1;
    }
    comp
}

/// The cut sets δ(C) (pair indices, sorted) of every component but when there is only
/// one, duplicates removed. `None` when some component has no possible bridge leaving it.
pub fn separate(d: &Decoder, comp: &[usize]) -> Option<Vec<Vec<usize>>> {
    let count = comp.iter().max().map_or(0, |m| m + 1);
    if count <= 1 {
        return Some(Vec::new());
    }
    let mut delta: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (q, pq) in d.pairs.iter().enumerate() {
        let (ca, cb) = (comp[pq.a], comp[pq.b]);
        if ca != cb {
            delta[ca].push(q);
            delta[cb].push(q);
        }
    }
    if delta.iter().any(|s| s.is_empty()) {
        return None;
    }
    delta.sort();
    delta.dedup();
    Some(delta)
}

/// The separator of the loop: the rows of every component that does not hold all islands
/// (one row per distinct δ(C)); a component that no possible bridge leaves is a
/// contradiction (the puzzle has no solution).
pub struct Connectivity<'a> {
    /// The puzzle.
    pub p: &'a Hashi,
    /// The columns.
    pub d: Decoder,
}

impl Separator for Connectivity<'_> {
    fn separate(&mut self, values: &[f64], _integral: bool) -> Vec<Cut> {
        let counts = self.d.decode(values);
        match separate(&self.d, &components(self.p, &self.d, &counts)) {
            None => vec![Cut::contradiction()],
            Some(sets) => sets
                .iter()
                .map(|set| Cut {
                    terms: set
                        .iter()
                        .flat_map(|&q| self.d.x[q][1..].iter().map(|&v| (v, 1.0)))
                        .collect(),
                    lower: 1.0,
                    upper: f64::INFINITY,
                })
                .collect(),
        }
    }

    /// A row is witnessed when it is "Σ_{q ∈ S} Σ_{n ≥ 1} x^n_q ≥ 1" for a set S of pairs
    /// that [`super::verify::separates`] accepts: without them the islands fall apart.
    fn witness(&self, row: &Cut) -> Option<Result<(), String>> {
        let mut pairs = Vec::new();
        let mut terms: Vec<_> = row.terms.clone();
        for (q, xs) in self.d.x.iter().enumerate() {
            let built = &xs[1..];
            let n = terms.iter().filter(|(v, _)| built.contains(v)).count();
            if n == 0 {
                continue;
            }
            if n != built.len() {
                return Some(Err(
                    "a pair's bridge counts are only partly in the row".into()
                ));
            }
            terms.retain(|(v, _)| !built.contains(v));
            let (a, b) = (
                self.p.islands[self.d.pairs[q].a],
                self.p.islands[self.d.pairs[q].b],
            );
            pairs.push([a.row, a.col, b.row, b.col]);
        }
        let unit = row.terms.iter().all(|&(_, c)| c == 1.0);
        if !terms.is_empty() || !unit || row.lower != 1.0 || row.upper != f64::INFINITY {
            return Some(Err(
                "not of the form: a bridge between these pairs is built".into(),
            ));
        }
        Some(super::verify::separates(self.p, &pairs))
    }
}

/// Runs the row-generation loop for `p` on the run's engine; `fixings` selects `cuts-hdc`.
pub fn solve(p: &Hashi, fixings: bool, run: &Run) -> RunResult {
    let mut tightened = 0;
    let mut report = run.row_generation(
        || {
            let (model, d, n) = build(p, fixings);
            tightened = n;
            let sep = Connectivity { p, d: d.clone() };
            (model, d, sep)
        },
        |d, v| p.answer(&d.pairs, &d.decode(v)),
    );
    report.fixings = fixings.then_some(tightened as u64);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::hashi::parse::parse_game_id;

    #[test]
    fn a_row_is_witnessed_only_when_its_pairs_cut_the_islands_apart() {
        // 2 . 3
        // . . .
        // 1 . 1
        let p = parse_game_id("3x3:2a3c1a1").unwrap();
        let (_, d, _) = build(&p, false);
        let sep = Connectivity {
            p: &p,
            d: d.clone(),
        };
        let built = |pairs: &[usize]| Cut {
            terms: pairs
                .iter()
                .flat_map(|&q| d.x[q][1..].iter().map(|&v| (v, 1.0)))
                .collect(),
            lower: 1.0,
            upper: f64::INFINITY,
        };
        // The pairs that touch island 0 (the top-left corner): without them it is alone.
        let around: Vec<usize> = (0..d.pairs.len()).filter(|&q| d.pairs[q].a == 0).collect();
        assert_eq!(around.len(), 2);
        assert_eq!(sep.witness(&built(&around)), Some(Ok(())));
        // One of them alone leaves the islands connected: refused.
        let e = sep.witness(&built(&around[..1])).unwrap().unwrap_err();
        assert!(e.contains("stay connected"), "{e}");
        // A row of another form: refused.
        let mut half = built(&around);
        half.terms.pop();
        assert!(sep.witness(&half).unwrap().is_err());
        let mut two = built(&around);
        two.lower = 2.0;
        assert!(sep.witness(&two).unwrap().is_err());
    }
}
