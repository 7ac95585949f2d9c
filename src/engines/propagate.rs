//! `propagate`: the project's own finite-domain constraint solver, for constraint-programming
//! (CP) formulations such as Zebra's `cp`. It solves a [`CpModel`], not a linear
//! [`Model`](crate::model::Model); an integer program given to it is refused.
//!
//! **Variables and domains.** Every variable takes a value in `0..width` (for Zebra: the
//! house of one property); a domain is a bit set (`u64`, so `width` ≤ 64).
//!
//! **Propagators.** Each permutation group (`width` variables that take every value once:
//! Zebra's attributes) is propagated by value elimination (a fixed variable's value is
//! removed from the others), hidden singles (a value that only one variable can take is
//! fixed there; a value nobody can take is a failure) and Hall sets (when the domain D of
//! a variable contains the domains of exactly |D| variables, D is removed from all
//! others). Each [`Constraint`] has its own propagator that keeps the domains of its two
//! variables consistent with each other (bounds of shifted bit sets; the negative
//! constraints act once one side is fixed). Propagation runs to a fixpoint.
//!
//! **Search.** Depth-first, and ordered by the constraints as a Prolog program is ordered
//! by its goals: the constraints are taken one by one in the order that the
//! [`Heuristics`] give; the constraint at depth k is *posted* (its propagator switched
//! on) only when the search reaches it. A positive relation between two variables
//! (`Same`, `Offset`, `Adjacent`) is a choice point: the search branches on the pairs of
//! values that satisfy it. A unary or negative constraint is posted without branching.
//! When every constraint is posted, the variables still unfixed are labelled, smallest
//! domain first, values in increasing order. Branches are disjoint, so counting the
//! solutions is exact. Posting constraints in order is what lets the order matter, which
//! is what the report's heuristics (after Gregor et al.) are about; a solver that posts
//! everything at the root would make heuristic 1 a no-op. That usual CP search is the
//! setting `root` (the default): every constraint posted at the root, then labelling.
//!
//! **Counts.** `nodes` counts the root plus every search decision tried (a branch of a
//! choice point or a labelling value, whether it then fails or not). `inferences` counts
//! values removed from domains by propagators: a propagator that shrinks a domain from
//! {1,2,3} to {2} makes 2 inferences. Values removed by search decisions are not counted.
//!
//! **Limits.** The time limit is checked every 64 nodes; the search stops there with
//! status `time_limit` (or `feasible` when a solution was found but the count not
//! finished). Threads, MIP gap, presolve and seed do not apply.

use super::{
    Budget, Capabilities, Declaration, Engine, EngineImpl, Kind, Outcome, Settings, Status,
};
use crate::cp_model::{check, Class, Constraint, CpModel};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Instant;

/// The engine.
pub const PROPAGATE: Engine = Engine::new(&Propagate);

/// The project's constraint propagation and search.
pub struct Propagate;

static DECLARATION: Declaration = Declaration {
    key: "propagate",
    description: "the project's finite-domain propagation and depth-first search, constraint programs only (--heuristics, --count)",
    capabilities: Capabilities {
        kinds: &[Kind::Cp],
        continuous: false,
        fractional_coefficients: false,
        lp_relaxation: false,
        presolve: false,
        seed: false,
        threads: false,
        mip_gap: false,
        heuristics: true,
        clausal: false,
        external: false,
        general: true,
        ..Capabilities::MIP
    },
};

impl EngineImpl for Propagate {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        format!("puzzlebench propagate {}", env!("CARGO_PKG_VERSION"))
    }

    fn solve_cp(&self, model: &CpModel, settings: &Settings, budget: &Budget) -> Outcome {
        solve(
            model,
            settings.heuristics.unwrap_or_default(),
            settings.count,
            budget,
        )
    }
}

/// The search heuristics of the report's Table 7.5 (after Gregor et al. 2015): which
/// constraints the search takes first.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Heuristics {
    /// The constraints in the order the instance gives them ("original").
    #[serde(rename = "none")]
    None,
    /// Heuristic 1: direct-location constraints (`Is`, `IsNot`) first, the rest in order.
    #[serde(rename = "1")]
    H1,
    /// Heuristics 1 and 2: direct-location first, indirect-location constraints (`Offset`,
    /// `Adjacent` and their negations) last, the connection constraints between them.
    #[serde(rename = "12")]
    H12,
    /// Heuristics 1, 2 and 3: as 12, and within each of the three classes the constraints
    /// about mutually exclusive elements first: the next constraint is the one whose
    /// variables share their permutation group with the most variables of the constraints
    /// already placed (ties in the given order).
    #[serde(rename = "123")]
    H123,
    /// Not in the report: the usual CP search. Every constraint is posted at the root and
    /// the search labels variables smallest domain first, so the order of the constraints
    /// does not matter. The default, and what the generator uses.
    #[default]
    #[serde(rename = "root")]
    Root,
}

impl Heuristics {
    /// The configurations of Table 7.5 (and heuristic 1 alone), in its order.
    pub const ALL: [Heuristics; 4] = [
        Heuristics::None,
        Heuristics::H1,
        Heuristics::H12,
        Heuristics::H123,
    ];

    /// Every setting: those of Table 7.5, then `root`.
    pub const EVERY: [Heuristics; 5] = [
        Heuristics::None,
        Heuristics::H1,
        Heuristics::H12,
        Heuristics::H123,
        Heuristics::Root,
    ];

    /// The key on the command line and in result rows: `none`, `1`, `12`, `123` or `root`.
    pub fn key(self) -> &'static str {
        match self {
            Heuristics::None => "none",
            Heuristics::H1 => "1",
            Heuristics::H12 => "12",
            Heuristics::H123 => "123",
            Heuristics::Root => "root",
        }
    }

    /// True for the default (`root`), which is left out of run ids so that they stay stable.
    pub fn is_default(&self) -> bool {
        *self == Heuristics::default()
    }
}

impl fmt::Display for Heuristics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for Heuristics {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Heuristics::EVERY
            .into_iter()
            .find(|h| h.key() == s)
            .ok_or_else(|| format!("unknown heuristics '{s}'; valid: none, 1, 12, 123, root"))
    }
}

/// The order in which the search takes the constraints under `h`.
pub fn order(model: &CpModel, h: Heuristics) -> Vec<usize> {
    let n = model.constraints.len();
    let class = |i: usize| model.constraints[i].class();
    let mut order: Vec<usize> = (0..n).collect();
    match h {
        Heuristics::None | Heuristics::Root => {}
        Heuristics::H1 => order.sort_by_key(|&i| class(i) != Class::Direct),
        Heuristics::H12 | Heuristics::H123 => order.sort_by_key(|&i| class(i)),
    }
    if h != Heuristics::H123 {
        return order;
    }
    let mut group_of = vec![usize::MAX; model.vars.len()];
    for (g, vars) in model.groups.iter().enumerate() {
        for &x in vars {
            group_of[x] = g;
        }
    }
    // Placed variables per group, and whether each variable is placed.
    let mut placed = vec![false; model.vars.len()];
    let mut per_group = vec![0usize; model.groups.len()];
    let mut out = Vec::with_capacity(n);
    let mut rest = order;
    while !rest.is_empty() {
        let first_class = class(rest[0]);
        let score = |i: usize| -> usize {
            model.constraints[i]
                .vars()
                .iter()
                .filter(|&&x| group_of[x] != usize::MAX)
                .map(|&x| per_group[group_of[x]] - placed[x] as usize)
                .sum()
        };
        let best = (0..rest.len())
            .take_while(|&k| class(rest[k]) == first_class)
            .max_by_key(|&k| (score(rest[k]), std::cmp::Reverse(k)))
            .expect("rest is not empty");
        let i = rest.remove(best);
        for x in model.constraints[i].vars() {
            if !placed[x] {
                placed[x] = true;
                if group_of[x] != usize::MAX {
                    per_group[group_of[x]] += 1;
                }
            }
        }
        out.push(i);
    }
    out
}

/// Solves `model` with `heuristics`, looking for up to `count` solutions within `budget`.
/// The outcome carries the first solution (values by variable), the nodes, and the
/// inferences and solutions counted.
pub fn solve(model: &CpModel, heuristics: Heuristics, count: u32, budget: &Budget) -> Outcome {
    let start = Instant::now();
    if let Err(e) = check(model) {
        return Outcome::error(e, 0.0);
    }
    let full = if model.width == 64 {
        u64::MAX
    } else {
        (1u64 << model.width) - 1
    };
    let mut s = Search {
        model,
        order: order(model, heuristics),
        full,
        inferences: 0,
        nodes: 1,
        found: 0,
        want: count.max(1) as u64,
        first: None,
        budget,
        deadline: budget.deadline(),
        timed_out: false,
    };
    let mut d = vec![full; model.vars.len()];
    if heuristics == Heuristics::Root {
        let all = model.constraints.len();
        if s.propagate(&mut d, all) {
            s.label(&mut d);
        }
    } else if s.propagate(&mut d, 0) {
        s.descend(&mut d, 0);
    }
    let seconds = start.elapsed().as_secs_f64();
    let status = match (s.timed_out, s.found) {
        (false, 0) => Status::Infeasible,
        (false, _) => Status::Optimal,
        (true, 0) => Status::TimeLimit,
        (true, _) => Status::Feasible,
    };
    Outcome {
        nodes: Some(s.nodes),
        values: s
            .first
            .map(|v| v.iter().map(|&x| x.trailing_zeros() as f64).collect()),
        message: (status == Status::Feasible).then(|| {
            format!(
                "time limit reached after {} of {} solutions",
                s.found, s.want
            )
        }),
        inferences: Some(s.inferences),
        solutions: Some(s.found),
        ..Outcome::with_status(status, seconds)
    }
}

struct Search<'a> {
    model: &'a CpModel,
    order: Vec<usize>,
    full: u64,
    inferences: u64,
    nodes: u64,
    found: u64,
    want: u64,
    first: Option<Vec<u64>>,
    /// The run's budget, whose timeline gets the first solution (a constraint program has
    /// no objective: it is recorded as 0).
    budget: &'a Budget,
    deadline: Option<Instant>,
    timed_out: bool,
}

/// `m` shifted by `k` places (towards higher values for k > 0), cut to `full`.
fn shift(m: u64, k: i32, full: u64) -> u64 {
    if k >= 0 {
        (m << k) & full
    } else {
        m >> (-k)
    }
}

fn single(m: u64) -> bool {
    m.is_power_of_two()
}

impl Search<'_> {
    fn done(&self) -> bool {
        self.timed_out || self.found >= self.want
    }

    /// Counts a node and looks at the clock every 64 nodes.
    fn node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) {
            if let Some(t) = self.deadline {
                if Instant::now() >= t {
                    self.timed_out = true;
                }
            }
        }
    }

    /// Narrows `d[x]` to `d[x] & mask`, counting the removed values. `Err` on a wipe-out;
    /// `Ok(true)` when the domain changed.
    fn narrow(&mut self, d: &mut [u64], x: usize, mask: u64) -> Result<bool, ()> {
        let old = d[x];
        let new = old & mask;
        if new == old {
            return Ok(false);
        }
        self.inferences += (old & !new).count_ones() as u64;
        d[x] = new;
        if new == 0 {
            Err(())
        } else {
            Ok(true)
        }
    }

    /// Propagates the groups and the first `posted` constraints of the order to a fixpoint;
    /// false on a failure.
    fn propagate(&mut self, d: &mut [u64], posted: usize) -> bool {
        let model = self.model;
        loop {
            let mut changed = false;
            for g in &model.groups {
                match self.group(d, g) {
                    Ok(c) => changed |= c,
                    Err(()) => return false,
                }
            }
            for k in 0..posted {
                let c = model.constraints[self.order[k]];
                match self.constraint(d, c) {
                    Ok(c) => changed |= c,
                    Err(()) => return false,
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn group(&mut self, d: &mut [u64], vars: &[usize]) -> Result<bool, ()> {
        let mut changed = false;
        // Value elimination.
        let mut fixed = 0u64;
        for &x in vars {
            if single(d[x]) {
                if fixed & d[x] != 0 {
                    return Err(());
                }
                fixed |= d[x];
            }
        }
        if fixed != 0 {
            for &x in vars {
                if !single(d[x]) {
                    changed |= self.narrow(d, x, !fixed)?;
                }
            }
        }
        // Hidden singles.
        let (mut once, mut twice) = (0u64, 0u64);
        for &x in vars {
            twice |= once & d[x];
            once |= d[x];
        }
        if once != self.full {
            return Err(());
        }
        let singles = once & !twice;
        if singles != 0 {
            for &x in vars {
                let s = d[x] & singles;
                if s != 0 && s != d[x] {
                    if !single(s) {
                        return Err(());
                    }
                    changed |= self.narrow(d, x, s)?;
                }
            }
        }
        // Hall sets equal to one variable's domain.
        for &x in vars {
            let dom = d[x];
            let size = dom.count_ones() as usize;
            if size == 1 || size == vars.len() {
                continue;
            }
            let inside = vars.iter().filter(|&&y| d[y] & !dom == 0).count();
            if inside > size {
                return Err(());
            }
            if inside == size {
                for &y in vars {
                    if d[y] & !dom != 0 {
                        changed |= self.narrow(d, y, !dom)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    fn constraint(&mut self, d: &mut [u64], c: Constraint) -> Result<bool, ()> {
        let full = self.full;
        let around = |m: u64| shift(m, 1, full) | shift(m, -1, full);
        Ok(match c {
            Constraint::Is(x, v) => self.narrow(d, x, 1 << v)?,
            Constraint::IsNot(x, v) => self.narrow(d, x, !(1 << v))?,
            Constraint::Same(x, y) => {
                let a = self.narrow(d, x, d[y])?;
                self.narrow(d, y, d[x])? | a
            }
            Constraint::Differ(x, y) => {
                let mut ch = false;
                if single(d[x]) {
                    ch |= self.narrow(d, y, !d[x])?;
                }
                if single(d[y]) {
                    ch |= self.narrow(d, x, !d[y])?;
                }
                ch
            }
            Constraint::Offset(x, y, k) => {
                let a = self.narrow(d, y, shift(d[x], k, full))?;
                self.narrow(d, x, shift(d[y], -k, full))? | a
            }
            Constraint::NotOffset(x, y, k) => {
                let mut ch = false;
                if single(d[x]) {
                    ch |= self.narrow(d, y, !shift(d[x], k, full))?;
                }
                if single(d[y]) {
                    ch |= self.narrow(d, x, !shift(d[y], -k, full))?;
                }
                ch
            }
            Constraint::Adjacent(x, y) => {
                let a = self.narrow(d, y, around(d[x]))?;
                self.narrow(d, x, around(d[y]))? | a
            }
            Constraint::NotAdjacent(x, y) => {
                let mut ch = false;
                if single(d[x]) {
                    ch |= self.narrow(d, y, !around(d[x]))?;
                }
                if single(d[y]) {
                    ch |= self.narrow(d, x, !around(d[y]))?;
                }
                ch
            }
        })
    }

    /// `d` is at the fixpoint of the first `k` constraints of the order; go on from there.
    fn descend(&mut self, d: &mut [u64], k: usize) {
        if self.done() {
            return;
        }
        let Some(&i) = self.order.get(k) else {
            self.label(d);
            return;
        };
        let c = self.model.constraints[i];
        if !c.branches() {
            if self.propagate(d, k + 1) {
                self.descend(d, k + 1);
            }
            return;
        }
        let full = self.full;
        let (x, y, options): (usize, usize, Vec<(u64, u64)>) = match c {
            Constraint::Same(x, y) => (x, y, bits(d[x] & d[y]).map(|b| (b, b)).collect()),
            Constraint::Offset(x, y, o) => (
                x,
                y,
                bits(d[x] & shift(d[y], -o, full))
                    .map(|b| (b, shift(b, o, full)))
                    .collect(),
            ),
            Constraint::Adjacent(x, y) => {
                let dy = d[y];
                let mut pairs = Vec::new();
                for b in bits(d[x]) {
                    for n in [shift(b, -1, full), shift(b, 1, full)] {
                        if dy & n != 0 {
                            pairs.push((b, n));
                        }
                    }
                }
                (x, y, pairs)
            }
            _ => unreachable!("only positive relations branch"),
        };
        for (bx, by) in options {
            self.node();
            if self.done() {
                return;
            }
            let mut e = d.to_vec();
            e[x] = bx;
            e[y] = by;
            if self.propagate(&mut e, k + 1) {
                self.descend(&mut e, k + 1);
            }
        }
    }

    /// Every constraint is posted: label the unfixed variables, smallest domain first.
    fn label(&mut self, d: &mut [u64]) {
        if self.done() {
            return;
        }
        let pick = (0..d.len())
            .filter(|&x| !single(d[x]))
            .min_by_key(|&x| d[x].count_ones());
        let Some(x) = pick else {
            self.found += 1;
            if self.first.is_none() {
                self.budget.incumbent(0.0);
                self.first = Some(d.to_vec());
            }
            return;
        };
        let posted = self.order.len();
        for b in bits(d[x]) {
            self.node();
            if self.done() {
                return;
            }
            let mut e = d.to_vec();
            e[x] = b;
            if self.propagate(&mut e, posted) {
                self.label(&mut e);
            }
        }
    }
}

/// The one-bit masks of `m`, lowest first.
fn bits(mut m: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m & m.wrapping_neg();
            m &= !b;
            Some(b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Solves with heuristics `root` for up to `count` solutions.
    fn run(m: &CpModel, count: u32) -> Outcome {
        solve(m, Heuristics::Root, count, &Budget::unlimited())
    }

    /// Two groups of three variables: a = [a0, a1, a2], b = [b0, b1, b2].
    fn two_by_three(constraints: Vec<Constraint>) -> CpModel {
        CpModel {
            name: "t".into(),
            width: 3,
            vars: ["a0", "a1", "a2", "b0", "b1", "b2"]
                .map(String::from)
                .to_vec(),
            groups: vec![vec![0, 1, 2], vec![3, 4, 5]],
            constraints,
        }
    }

    #[test]
    fn counts_permutations_without_constraints() {
        let m = two_by_three(vec![]);
        let o = run(&m, 100);
        assert_eq!(o.solutions, Some(36));
        let none = solve(&m, Heuristics::None, 100, &Budget::unlimited());
        assert_eq!(none.solutions, Some(36));
        assert_eq!(o.status, Status::Optimal);
    }

    #[test]
    fn constraints_cut_the_count() {
        // a0 at 0, b0 with a0, b1 right after a1: a0=0,b0=0; a1∈{1,2}, b1=a1+1 → a1=1,b1=2.
        let m = two_by_three(vec![
            Constraint::Is(0, 0),
            Constraint::Same(0, 3),
            Constraint::Offset(1, 4, 1),
        ]);
        let o = run(&m, 10);
        assert_eq!(o.solutions, Some(1));
        let v = o.values.unwrap();
        assert_eq!(v, vec![0.0, 1.0, 2.0, 0.0, 2.0, 1.0]);
        assert!(o.inferences.unwrap() > 0);
    }

    #[test]
    fn infeasible_and_time_limit() {
        let m = two_by_three(vec![Constraint::Same(0, 3), Constraint::Differ(0, 3)]);
        assert_eq!(run(&m, 1).status, Status::Infeasible);
        let m = two_by_three(vec![Constraint::Adjacent(0, 1), Constraint::Adjacent(0, 2)]);
        // a0 in the middle, a1 and a2 on either side: 2 orders of a, 6 of b.
        assert_eq!(run(&m, 100).solutions, Some(12));
    }

    #[test]
    fn heuristics_order_the_classes() {
        let m = two_by_three(vec![
            Constraint::Adjacent(0, 1),
            Constraint::Same(0, 3),
            Constraint::Is(2, 0),
        ]);
        assert_eq!(order(&m, Heuristics::None), vec![0, 1, 2]);
        assert_eq!(order(&m, Heuristics::H1), vec![2, 0, 1]);
        assert_eq!(order(&m, Heuristics::H12), vec![2, 1, 0]);
        assert_eq!(order(&m, Heuristics::H123), vec![2, 1, 0]);
        for h in Heuristics::EVERY {
            assert_eq!(h.key().parse::<Heuristics>(), Ok(h));
        }
    }
}
