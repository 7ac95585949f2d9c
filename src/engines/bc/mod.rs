//! `bc`: a small branch and cut with lazy constraints, written in the project because neither
//! Rust binding nor HiGHS's MIP solver offers one: HiGHS declares a lazy-constraint
//! callback that its MIP solver never calls, and CBC 2.10's cut callback lets incumbents
//! found by its heuristics bypass the check (see the README, "Circuit Board").
//!
//! The LP relaxations are solved by HiGHS's dual simplex ([`lp`]), one HiGHS instance for
//! the whole search, so that every node starts from the basis of the one before. The
//! search is depth first. At every node:
//!
//! 1. **Propagation** ([`domain`]): every row (the model's and every row added so far)
//!    tightens the bounds of its columns from the activity bounds of the others, integer
//!    columns rounded inwards; then the [`Separator`]'s own rules (for the lazy
//!    constraints, which are not all rows yet) tighten more; both repeat until nothing
//!    changes. A contradiction prunes the node.
//! 2. **Probing** (when [`SearchSettings::probing`] is on): every free binary column is set to 1
//!    and to 0 in turn and propagated; a value that leads to a contradiction is excluded,
//!    until no probe excludes anything. This is the classic probing of MIP presolve,
//!    applied at every node; with [`SearchSettings::probe_radius`], below the root only to
//!    the columns near the node's changes.
//! 3. **LP and cuts**: solve the LP; prune the node if infeasible or if its bound cannot
//!    beat the incumbent; ask the separator for violated rows (for an integral point it
//!    must return a violated row whenever the point breaks a lazy constraint, and none
//!    when the point is feasible); add them for the rest of the search (they are valid
//!    everywhere) and solve again, up to [`SearchSettings::rounds_per_node`] times for a
//!    fractional point and as often as needed for an integral one. An integral point that
//!    the separator accepts is a new incumbent.
//! 4. **Branching**: on the column chosen by [`Separator::branch`] (by default the most
//!    fractional integer column), the child nearer to the LP value first.
//!
//! With [`SearchSettings::restarts`], the search starts again from the root (with every
//! row added so far) after a growing number of nodes, until it has an incumbent. For a
//! model whose objective the rows fix (the hint `constant_objective`), the search takes
//! [`SearchSettings::one_point`].

mod domain;
pub mod lp;

use super::budget::Budget;
use super::capabilities::{Capabilities, Declaration, Settings};
use super::engine::Engine;
use super::highs;
use super::problem::{gap, Kind, Outcome, Status};
use super::EngineImpl;
use crate::lazy::{Cut, SearchHints, Separator};
use crate::model::{Model, Sense, VarKind};
use crate::progress;
use domain::{Domain, Rows};
use lp::{Lp, LpResult};
use rand::seq::IndexedRandom;
use rand::SeedableRng;

/// The engine.
pub const BC: Engine = Engine::new(&Bc);

/// The project's branch and cut.
pub struct Bc;

static DECLARATION: Declaration = Declaration {
    key: "bc",
    description: "the project's branch and cut for lazy rows: propagation, probing, depth first, on HiGHS's dual simplex (one thread, no presolve; default for lazy rows)",
    capabilities: Capabilities {
        kinds: &[Kind::LazyRows],
        presolve: false,
        threads: false,
        ..Capabilities::MIP
    },
};

impl EngineImpl for Bc {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        format!(
            "puzzlebench bc {} on {}",
            env!("CARGO_PKG_VERSION"),
            highs::version()
        )
    }

    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        let search = SearchSettings {
            probing: hints.probing,
            ..if hints.constant_objective {
                SearchSettings::one_point(binary_columns(model).len())
            } else {
                SearchSettings::default()
            }
        };
        let (mut outcome, figures) = solve(model, separator, &search, settings, budget);
        outcome.rounds = Some(figures.rounds);
        outcome.cuts = Some(figures.cuts);
        outcome.separator_seconds = Some(figures.separation_seconds);
        if std::env::var_os("PUZZLEBENCH_BC_TRACE").is_some() {
            eprintln!("bc: {figures:?}");
        }
        outcome
    }

    /// The relaxation goes to HiGHS, the LP solver underneath.
    fn solve_relaxation(&self, relaxed: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        highs::solve(relaxed, settings, budget)
    }
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    /// Separation rounds at a node whose LP point is fractional before it is branched on.
    pub rounds_per_node: u32,
    /// Separation rounds at the root node for a fractional point.
    pub rounds_at_root: u32,
    /// Smallest violation for which a row is added.
    pub min_violation: f64,
    /// Probe free binary columns at every node.
    pub probing: bool,
    /// Below the root, probe only the binary columns within this many rows of the columns
    /// whose bounds changed at the node (the column branched on, what propagation and
    /// probing fixed there), counting only rows of at most [`SHORT_ROW`] terms; `None`
    /// probes every free binary column. The root probes every one.
    pub probe_radius: Option<usize>,
    /// Restarts with this many nodes as the unit: until the first incumbent, the search
    /// starts again from the root (the rows added kept) after Luby(k) · unit nodes at the
    /// k-th try, offering the separator's branching rule a random half of the candidates
    /// after the first restart. Against the heavy tails of searches for one feasible
    /// point; after an incumbent the search goes on without restarts, and as Luby's
    /// sequence grows without bound a search with no solution still ends with its proof.
    pub restarts: Option<u64>,
}

impl SearchSettings {
    /// The settings for a model whose objective is the same at every feasible point (such
    /// as `cm1`, where Σ x = |V| − 1 is a row), so that the first incumbent ends the
    /// search and the LP only guides the way there: rows are separated at integral points
    /// only (so nothing that breaks a lazy row is accepted), probing near the node's changes (radius 2), and restarts
    /// after Luby(k) · max(50, `binary` / 2) nodes, for a model of `binary` binary columns.
    /// Measured on 20×20 and 30×30 Circuit boards (docs/puzzles/circuit.md): the root's 50
    /// rounds took about a third of the run and the rows they added made every later LP
    /// slower (10 rounds were no better than none);
    /// probing every column took half the run and rarely fixed one; without restarts one
    /// run in five of a sample went on for minutes below a wrong early choice.
    pub fn one_point(binary: usize) -> Self {
        SearchSettings {
            rounds_per_node: 0,
            rounds_at_root: 0,
            probe_radius: Some(2),
            restarts: Some((binary as u64 / 2).max(50)),
            ..SearchSettings::default()
        }
    }
}

/// The longest row counted in the neighbourhood of [`SearchSettings::probe_radius`] (the
/// model's local rows, not dense rows such as a cardinality row or added cuts).
pub const SHORT_ROW: usize = 8;

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            rounds_per_node: 3,
            rounds_at_root: 50,
            min_violation: 1e-6,
            probing: true,
            probe_radius: None,
            restarts: None,
        }
    }
}

/// What a search did besides its outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Nodes looked at.
    pub nodes: u64,
    /// LP solves after which rows were added.
    pub rounds: u64,
    /// Rows added.
    pub cuts: u64,
    /// LP solves in all.
    pub lps: u64,
    /// Probes (a column set to a value and propagated).
    pub probes: u64,
    /// Columns fixed because a probe of the other value failed.
    pub probe_fixings: u64,
    /// Nodes pruned by propagation or probing.
    pub pruned_by_propagation: u64,
    /// Nodes pruned by an infeasible LP.
    pub pruned_by_lp: u64,
    /// Seconds in propagation and probing.
    pub propagation_seconds: f64,
    /// Seconds in LP solves.
    pub lp_seconds: f64,
    /// Seconds in the separator's `separate` (finding rows).
    pub separation_seconds: f64,
    /// Restarts from the root.
    pub restarts: u64,
}

/// The integer columns with bounds within [0, 1], the ones probing tries.
fn binary_columns(model: &Model) -> Vec<usize> {
    (0..model.vars.len())
        .filter(|&j| {
            let v = &model.vars[j];
            v.kind != VarKind::Continuous && v.lower >= 0.0 && v.upper <= 1.0
        })
        .collect()
}

/// The i-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... (Luby,
/// Sinclair and Zuckerman 1993), the restart lengths in units.
fn luby(mut i: u64) -> u64 {
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// Integrality tolerance.
const INT_TOL: f64 = 1e-6;

/// An open node: its column bounds (after propagation at its parent, plus the branching
/// bound), the column branched on to make it, and its parent's LP bound.
struct Node {
    lower: Vec<f64>,
    upper: Vec<f64>,
    branched: Option<usize>,
    bound: f64,
}

/// Propagates the queued rows and the separator's rules to a fixed point; false when
/// infeasible.
fn propagate_all(rows: &Rows, domain: &mut Domain, separator: &mut dyn Separator) -> bool {
    let mut found = Vec::new();
    loop {
        if !domain.propagate(rows) {
            return false;
        }
        found.clear();
        if !separator.propagate(&domain.lower, &domain.upper, &mut found) {
            return false;
        }
        let mut changed = false;
        for &(j, lo, up) in &found {
            if lo > domain.lower[j] || up < domain.upper[j] {
                if !domain.tighten(rows, j, lo, up) {
                    return false;
                }
                changed = true;
            }
        }
        if !changed {
            return true;
        }
    }
}

/// How probing at a node ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probed {
    /// Nothing more to fix.
    Done,
    /// Both values of some column fail: the node holds no solution.
    Infeasible,
    /// The budget ran out before probing finished (the node is left as it was found).
    OutOfTime,
}

/// Which columns probing looks at below the root: those near the node's changes.
struct Near<'a> {
    /// For each column, the columns it shares a short row with.
    neighbours: &'a [Vec<usize>],
    /// How many short rows away from a change a probed column may be.
    radius: usize,
    /// The bounds before the node's changes (its parent's after probing).
    lower: &'a [f64],
    /// See `lower`.
    upper: &'a [f64],
    /// The column branched on to make the node.
    branched: Option<usize>,
}

impl Near<'_> {
    /// The columns of `binary` within the radius of a column whose bounds in `domain`
    /// differ from the parent's (breadth-first from every changed column).
    fn select(&self, domain: &Domain, binary: &[usize]) -> Vec<usize> {
        let n = domain.lower.len();
        let mut dist = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        for (j, d) in dist.iter_mut().enumerate() {
            if domain.lower[j] != self.lower[j]
                || domain.upper[j] != self.upper[j]
                || Some(j) == self.branched
            {
                *d = 0;
                queue.push_back(j);
            }
        }
        while let Some(j) = queue.pop_front() {
            if dist[j] >= self.radius {
                continue;
            }
            for &k in &self.neighbours[j] {
                if dist[k] == usize::MAX {
                    dist[k] = dist[j] + 1;
                    queue.push_back(k);
                }
            }
        }
        binary
            .iter()
            .copied()
            .filter(|&j| dist[j] != usize::MAX)
            .collect()
    }
}

/// Probing: every free binary column (of those `near` selects, when given) is set to 1
/// and to 0 in turn and propagated; a value that leads to a contradiction is excluded (the
/// column is fixed to the other value), until no probe fixes anything (the selection is
/// made again after each pass, so it grows with the fixings). The clock is looked at every
/// 64 probes.
fn probe(
    rows: &Rows,
    domain: &mut Domain,
    separator: &mut dyn Separator,
    binary: &[usize],
    near: Option<&Near>,
    figures: &mut Figures,
    budget: &Budget,
) -> Probed {
    loop {
        let mut fixed_any = false;
        let selected = near.map(|near| near.select(domain, binary));
        for &j in selected.as_deref().unwrap_or(binary) {
            if domain.lower[j] != 0.0 || domain.upper[j] != 1.0 {
                continue;
            }
            for value in [1.0, 0.0] {
                let mark = domain.mark();
                figures.probes += 1;
                if figures.probes.is_multiple_of(64) && budget.expired() {
                    domain.undo(rows, mark);
                    return Probed::OutOfTime;
                }
                let ok =
                    domain.tighten(rows, j, value, value) && propagate_all(rows, domain, separator);
                domain.undo(rows, mark);
                if !ok {
                    figures.probe_fixings += 1;
                    let other = 1.0 - value;
                    if !domain.tighten(rows, j, other, other)
                        || !propagate_all(rows, domain, separator)
                    {
                        return Probed::Infeasible;
                    }
                    fixed_any = true;
                    break;
                }
            }
        }
        if !fixed_any {
            return Probed::Done;
        }
    }
}

/// Runs the branch and cut on `model` (minimisation or maximisation, integer columns
/// branched on) with the lazy constraints of `separator`. The budget bounds the whole
/// search (nodes, LPs and probing look at the same deadline); the seed goes to HiGHS; the
/// gap of `settings` stops the search early when the incumbent is within it, and the best
/// bound then reported is the lowest bound of the nodes pruned that way, so the reported
/// gap is one the search proved. Returns the outcome (status, objective, best bound,
/// nodes, the incumbent's values, the search's seconds) and its figures.
pub fn solve(
    model: &Model,
    separator: &mut dyn Separator,
    search: &SearchSettings,
    settings: &Settings,
    budget: &Budget,
) -> (Outcome, Figures) {
    let start = std::time::Instant::now();
    let mut figures = Figures::default();
    let mut lp = match Lp::new(model, settings.seed.unwrap_or(0)) {
        Ok(lp) => lp,
        Err(e) => return (Outcome::error(e, 0.0), figures),
    };
    let mip_gap = settings.mip_gap.unwrap_or(0.0);
    let flip = if model.sense == Sense::Maximize {
        -1.0
    } else {
        1.0
    };
    let integer: Vec<usize> = (0..model.vars.len())
        .filter(|&j| model.vars[j].kind != VarKind::Continuous)
        .collect();
    let binary = binary_columns(model);
    // With integer costs on integer columns only, objectives are whole numbers and a node
    // must beat the incumbent by 1.
    let whole = model.vars.iter().all(|v| {
        v.objective == 0.0 || (v.kind != VarKind::Continuous && v.objective.fract() == 0.0)
    }) && model.objective_offset.fract() == 0.0;
    let mut rows = Rows::new(model);
    let neighbours = match search.probe_radius {
        Some(_) => rows.neighbours(SHORT_ROW),
        None => Vec::new(),
    };
    let (root_lower, root_upper) = (lp.lower.clone(), lp.upper.clone());
    // The root again after a restart keeps the bound its LP proved the first time (the
    // rows added since are valid everywhere), so a search stopped there still has it.
    let root_node = |bound: f64| Node {
        lower: root_lower.clone(),
        upper: root_upper.clone(),
        branched: None,
        bound,
    };
    let mut root_bound = f64::NEG_INFINITY;
    let mut restart_at = search.restarts.map(|unit| luby(1) * unit);
    let mut nodes_this_try = 0u64;
    let mut rng = rand::rngs::StdRng::seed_from_u64(settings.seed.unwrap_or(0));
    let mut stack = vec![root_node(root_bound)];
    // The incumbent in minimisation terms (objective × flip) and its values.
    let mut incumbent: Option<(f64, Vec<f64>)> = None;
    // The lowest bound of the nodes pruned only because the incumbent was within the gap.
    let mut gap_bound = f64::INFINITY;
    // What a node with LP bound `bound` is worth: Keep it, or prune it (and when pruned on
    // the gap alone, its bound stays a bound of the search).
    let judge = |bound: f64, inc: &Option<(f64, Vec<f64>)>, gap_bound: &mut f64| -> bool {
        let Some((best, _)) = inc else {
            return true;
        };
        let need = if whole {
            best - 1.0 + 1e-6
        } else {
            best - 1e-9 * best.abs().max(1.0)
        };
        if bound > need {
            return false;
        }
        let within_gap = mip_gap > 0.0 && (best - bound).abs() / best.abs().max(1e-10) <= mip_gap;
        if within_gap {
            *gap_bound = gap_bound.min(bound);
            return false;
        }
        true
    };
    let mut stopped = false;
    let mut failure: Option<String> = None;
    while let Some(node) = stack.pop() {
        if !judge(node.bound, &incumbent, &mut gap_bound) {
            continue;
        }
        if budget.expired() {
            stack.push(node);
            stopped = true;
            break;
        }
        if incumbent.is_none() && restart_at.is_some_and(|at| nodes_this_try >= at) {
            figures.restarts += 1;
            restart_at = search
                .restarts
                .map(|unit| luby(figures.restarts + 1) * unit);
            nodes_this_try = 0;
            stack.clear();
            stack.push(root_node(root_bound));
            continue;
        }
        figures.nodes += 1;
        nodes_this_try += 1;
        let root = node.branched.is_none();
        let bound = node.bound;
        // The search's bound: the lowest bound of the open nodes. Taking it costs a pass
        // over the stack, so the timeline gets it every 16 nodes (a bound reported late
        // is never reported early).
        let watching = progress::watching();
        if watching || (budget.records() && figures.nodes % 16 == 1) {
            let best = incumbent.as_ref().map(|i| i.0);
            let open = stack.iter().map(|n| n.bound).fold(bound, f64::min);
            let open = open.min(gap_bound).min(best.unwrap_or(f64::INFINITY));
            budget.bound(open * flip);
            if watching {
                progress::report(
                    best.map(|b| b * flip),
                    Some(open * flip),
                    Some(figures.nodes),
                );
            }
        }
        let (node_lower, node_upper) = (node.lower.clone(), node.upper.clone());
        let mut domain = Domain::new(&rows, node.lower, node.upper, node.branched.is_none());
        if let Some(j) = node.branched {
            domain.touch(&rows, j);
        }
        let propagating = std::time::Instant::now();
        let mut feasible = propagate_all(&rows, &mut domain, separator);
        let near = search.probe_radius.filter(|_| !root).map(|radius| Near {
            neighbours: &neighbours,
            radius,
            lower: &node_lower,
            upper: &node_upper,
            branched: node.branched,
        });
        let probed = if feasible && search.probing {
            probe(
                &rows,
                &mut domain,
                separator,
                &binary,
                near.as_ref(),
                &mut figures,
                budget,
            )
        } else {
            Probed::Done
        };
        figures.propagation_seconds += propagating.elapsed().as_secs_f64();
        match probed {
            Probed::Done => {}
            Probed::Infeasible => feasible = false,
            Probed::OutOfTime => {
                stack.push(Node {
                    lower: node_lower,
                    upper: node_upper,
                    branched: None,
                    bound,
                });
                stopped = true;
                break;
            }
        }
        if !feasible {
            figures.pruned_by_propagation += 1;
            continue;
        }
        let (lower, upper) = (domain.lower, domain.upper);
        lp.set_bounds(&lower, &upper);
        let mut rounds_here = 0;
        loop {
            figures.lps += 1;
            let solving = std::time::Instant::now();
            let solved = lp.solve(budget.left());
            figures.lp_seconds += solving.elapsed().as_secs_f64();
            let obj = match solved {
                LpResult::Optimal(o) => {
                    if root {
                        root_bound = root_bound.max(o * flip);
                    }
                    o * flip
                }
                LpResult::Infeasible => {
                    figures.pruned_by_lp += 1;
                    break;
                }
                LpResult::TimeLimit => {
                    stack.push(Node {
                        lower: lower.clone(),
                        upper: upper.clone(),
                        branched: None,
                        bound,
                    });
                    stopped = true;
                    break;
                }
                LpResult::Failed(e) => {
                    failure = Some(e);
                    break;
                }
            };
            if !judge(obj, &incumbent, &mut gap_bound) {
                break;
            }
            let x = lp.values();
            let fractional: Vec<usize> = integer
                .iter()
                .copied()
                .filter(|&j| (x[j] - x[j].round()).abs() > INT_TOL)
                .collect();
            let integral = fractional.is_empty();
            let limit = if root {
                search.rounds_at_root
            } else {
                search.rounds_per_node
            };
            if integral || rounds_here < limit {
                let separating = std::time::Instant::now();
                let cuts: Vec<Cut> = separator
                    .separate(&x, integral)
                    .into_iter()
                    .filter(|c| c.is_contradiction() || c.violation(&x) > search.min_violation)
                    .collect();
                figures.separation_seconds += separating.elapsed().as_secs_f64();
                if cuts.iter().any(|c| c.is_contradiction()) {
                    // A row no point satisfies: the problem has no solution at all.
                    stack.clear();
                    incumbent = None;
                    break;
                }
                if !cuts.is_empty() {
                    lp.add_rows(&cuts);
                    figures.rounds += 1;
                    figures.cuts += cuts.len() as u64;
                    rounds_here += 1;
                    for c in cuts {
                        rows.push(c);
                    }
                    continue;
                }
            }
            if integral {
                let mut values = x;
                for &j in &integer {
                    values[j] = values[j].round();
                }
                // A whole-number objective is whole at an integral point (the LP's value
                // differs by rounding only).
                let obj = if whole { obj.round() } else { obj };
                budget.incumbent(obj * flip);
                incumbent = Some((obj, values));
                break;
            }
            // After a restart, a random half of the candidates, so that the try differs.
            let offered: Vec<usize> = if figures.restarts > 0 && fractional.len() > 1 {
                fractional
                    .sample(&mut rng, fractional.len().div_ceil(2))
                    .copied()
                    .collect()
            } else {
                fractional
            };
            let j = separator.branch(&x, &offered);
            let (down, up) = (x[j].floor(), x[j].ceil());
            let child = |lo: f64, hi: f64| {
                let mut n = Node {
                    lower: lower.clone(),
                    upper: upper.clone(),
                    branched: Some(j),
                    bound: obj,
                };
                n.lower[j] = lo;
                n.upper[j] = hi;
                n
            };
            let down_child = child(lower[j], down);
            let up_child = child(up, upper[j]);
            // Depth first, the child nearer to the LP value first (popped last pushed).
            if x[j] - down >= 0.5 {
                stack.push(down_child);
                stack.push(up_child);
            } else {
                stack.push(up_child);
                stack.push(down_child);
            }
            break;
        }
        if stopped || failure.is_some() {
            break;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(e) = failure {
        let mut o = Outcome::error(e, seconds);
        o.nodes = Some(figures.nodes);
        return (o, figures);
    }
    let open_bound = stack.iter().map(|n| n.bound).fold(gap_bound, f64::min);
    let outcome = match (stopped, incumbent) {
        (false, Some((obj, values))) => {
            let bound = obj.min(gap_bound) * flip;
            Outcome {
                objective: Some(obj * flip),
                best_bound: Some(bound),
                gap: gap(Some(obj * flip), Some(bound)),
                nodes: Some(figures.nodes),
                values: Some(values),
                ..Outcome::with_status(Status::Optimal, seconds)
            }
        }
        (false, None) => Outcome {
            nodes: Some(figures.nodes),
            ..Outcome::infeasible(seconds)
        },
        (true, inc) => {
            let best = inc.as_ref().map(|i| i.0);
            let bound = open_bound.min(best.unwrap_or(f64::INFINITY));
            let objective = best.map(|b| b * flip);
            let best_bound = bound.is_finite().then_some(bound * flip);
            Outcome {
                objective,
                best_bound,
                gap: gap(objective, best_bound),
                nodes: Some(figures.nodes),
                values: inc.map(|i| i.1),
                ..Outcome::time_limit(seconds)
            }
        }
    };
    (outcome, figures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{VarId, VarKind};

    /// No two neighbouring columns of a path of `n` both at 1, as lazy rows.
    struct NoNeighbours(usize);

    impl Separator for NoNeighbours {
        fn separate(&mut self, x: &[f64], _integral: bool) -> Vec<Cut> {
            (0..self.0 - 1)
                .filter(|&i| x[i] + x[i + 1] > 1.0 + 1e-9)
                .map(|i| Cut {
                    terms: vec![(VarId(i), 1.0), (VarId(i + 1), 1.0)],
                    lower: f64::NEG_INFINITY,
                    upper: 1.0,
                })
                .collect()
        }
    }

    fn weights() -> Vec<f64> {
        vec![3.0, 5.0, 4.0, 1.0, 6.0, 2.0, 5.0, 4.0]
    }

    /// max Σ w_i x_i, Σ x ≥ `at_least`, binaries; the best by trying every set.
    fn model(at_least: f64) -> (Model, Option<f64>) {
        let w = weights();
        let mut m = Model::new("path");
        m.sense = Sense::Maximize;
        let v: Vec<VarId> = w
            .iter()
            .enumerate()
            .map(|(i, &wi)| m.add_var(format!("x{i}"), VarKind::Binary, 0.0, 1.0, wi))
            .collect();
        m.add_ge("count", v.iter().map(|&x| (x, 1.0)), at_least);
        let best = (0u32..1 << w.len())
            .filter(|s| s & (s >> 1) == 0 && s.count_ones() as f64 >= at_least)
            .map(|s| (0..w.len()).filter(|i| s >> i & 1 == 1).map(|i| w[i]).sum())
            .fold(None, |b: Option<f64>, x| Some(b.map_or(x, |b| b.max(x))));
        (m, best)
    }

    #[test]
    fn lazy_rows_give_the_brute_force_optimum() {
        for probing in [false, true] {
            let (m, best) = model(0.0);
            let search = SearchSettings {
                probing,
                ..SearchSettings::default()
            };
            let (o, f) = solve(
                &m,
                &mut NoNeighbours(8),
                &search,
                &Settings::default(),
                &Budget::unlimited(),
            );
            assert_eq!(o.status, Status::Optimal);
            assert_eq!(o.objective, best);
            let x = o.values.unwrap();
            assert!((0..7).all(|i| x[i] + x[i + 1] <= 1.0), "{x:?}");
            assert!(f.cuts > 0 && f.nodes >= 1);
        }
    }

    #[test]
    fn luby_sequence() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    /// No two neighbours on a cycle of `n` columns both at 1, as lazy rows (with n odd
    /// the LP has fractional points, so the search branches).
    struct NoNeighboursOnACycle(usize);

    impl Separator for NoNeighboursOnACycle {
        fn separate(&mut self, x: &[f64], _integral: bool) -> Vec<Cut> {
            let n = self.0;
            (0..n)
                .filter(|&i| x[i] + x[(i + 1) % n] > 1.0 + 1e-9)
                .map(|i| Cut {
                    terms: vec![(VarId(i), 1.0), (VarId((i + 1) % n), 1.0)],
                    lower: f64::NEG_INFINITY,
                    upper: 1.0,
                })
                .collect()
        }
    }

    #[test]
    fn restarts_and_local_probing_keep_the_optimum_and_the_proofs() {
        // max Σ w_i x_i on a cycle of 9 with Σ x ≥ k; a restart after every node (unit
        // 1), so the search restarts before its first incumbent; the answers must still
        // be the brute force's, and "no solution" (k = 5) must still be proved. With equal
        // weights the LP's optimum is 1/2 everywhere, so the search branches.
        let w = [1.0; 9];
        let n = w.len();
        let mut restarted = 0;
        for at_least in [0.0, 3.0, 4.0, 5.0] {
            let mut m = Model::new("cycle");
            m.sense = Sense::Maximize;
            let v: Vec<VarId> = (0..n)
                .map(|i| m.add_var(format!("x{i}"), VarKind::Binary, 0.0, 1.0, w[i]))
                .collect();
            m.add_ge("count", v.iter().map(|&x| (x, 1.0)), at_least);
            let best = (0u32..1 << n)
                .filter(|&s| {
                    (0..n).all(|i| s >> i & 1 == 0 || s >> ((i + 1) % n) & 1 == 0)
                        && s.count_ones() as f64 >= at_least
                })
                .map(|s| (0..n).filter(|i| s >> i & 1 == 1).map(|i| w[i]).sum())
                .fold(None, |b: Option<f64>, x| Some(b.map_or(x, |b| b.max(x))));
            for probing in [false, true] {
                let search = SearchSettings {
                    probing,
                    restarts: Some(1),
                    probe_radius: Some(1),
                    ..SearchSettings::one_point(n)
                };
                let (o, f) = solve(
                    &m,
                    &mut NoNeighboursOnACycle(n),
                    &search,
                    &Settings::default(),
                    &Budget::unlimited(),
                );
                let expected = if best.is_some() {
                    Status::Optimal
                } else {
                    Status::Infeasible
                };
                assert_eq!(o.status, expected, "at least {at_least}, probing {probing}");
                assert_eq!(o.objective, best, "at least {at_least}, probing {probing}");
                restarted += f.restarts;
            }
        }
        assert!(restarted > 0, "no restart happened");
    }

    #[test]
    fn infeasibility_through_lazy_rows_is_proven() {
        // At most 4 of 8 columns of a path avoid neighbours.
        let (m, best) = model(5.0);
        assert_eq!(best, None);
        let (o, _) = solve(
            &m,
            &mut NoNeighbours(8),
            &SearchSettings::default(),
            &Settings::default(),
            &Budget::unlimited(),
        );
        assert_eq!(o.status, Status::Infeasible);
        let (m, best) = model(4.0);
        let (o, _) = solve(
            &m,
            &mut NoNeighbours(8),
            &SearchSettings::default(),
            &Settings::default(),
            &Budget::unlimited(),
        );
        assert_eq!(o.objective, best);
    }

    #[test]
    fn an_exhausted_time_limit_is_reported() {
        let (m, _) = model(0.0);
        let (o, _) = solve(
            &m,
            &mut NoNeighbours(8),
            &SearchSettings::default(),
            &Settings::default(),
            &Budget::new(Some(0.0)),
        );
        assert_eq!(o.status, Status::TimeLimit);
        assert!(o.objective.is_none());
    }

    #[test]
    fn propagation_is_undone_exactly() {
        let (m, _) = model(4.0);
        let rows = Rows::new(&m);
        let lower: Vec<f64> = m.vars.iter().map(|v| v.lower).collect();
        let upper: Vec<f64> = m.vars.iter().map(|v| v.upper).collect();
        let mut d = Domain::new(&rows, lower.clone(), upper.clone(), true);
        assert!(d.propagate(&rows));
        let mark = d.mark();
        // Fix five columns to 0: Σ x ≥ 4 over the other three is impossible.
        for j in 0..5 {
            assert!(d.tighten(&rows, j, 0.0, 0.0));
        }
        assert!(!d.propagate(&rows));
        d.undo(&rows, mark);
        assert_eq!(
            (d.lower.clone(), d.upper.clone()),
            (lower.clone(), upper.clone())
        );
        // Four at 0: the other four are forced to 1.
        for j in 0..4 {
            assert!(d.tighten(&rows, j, 0.0, 0.0));
        }
        assert!(d.propagate(&rows));
        assert_eq!(&d.lower[4..], &[1.0; 4]);
        d.undo(&rows, mark);
        let fresh = Domain::new(&rows, lower, upper, false);
        assert_eq!(d.lower, fresh.lower);
        assert_eq!(
            d.activities(),
            fresh.activities(),
            "the activities are back too"
        );
    }
}
