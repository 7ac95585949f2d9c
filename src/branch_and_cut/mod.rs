//! A small branch and cut with lazy constraints, written in the project because neither
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
//! 2. **Probing** (when [`Settings::probing`] is on): every free binary column is set to 1
//!    and to 0 in turn and propagated; a value that leads to a contradiction is excluded,
//!    until no probe excludes anything. This is the classic probing of MIP presolve,
//!    applied at every node.
//! 3. **LP and cuts**: solve the LP; prune the node if infeasible or if its bound cannot
//!    beat the incumbent; ask the separator for violated rows (for an integral point it
//!    must return a violated row whenever the point breaks a lazy constraint, and none
//!    when the point is feasible); add them for the rest of the search (they are valid
//!    everywhere) and solve again, up to [`Settings::rounds_per_node`] times for a
//!    fractional point and as often as needed for an integral one. An integral point that
//!    the separator accepts is a new incumbent.
//! 4. **Branching**: on the column chosen by [`Separator::branch`] (by default the most
//!    fractional integer column), the child nearer to the LP value first.

mod domain;
pub mod lp;

use crate::backends::{gap, Outcome, SolveOptions, Status};
use crate::model::{Model, Sense, VarId, VarKind};
use domain::{Domain, Rows};
use lp::{Lp, LpResult};
use std::time::Instant;

/// A row found by a separator: `lower <= Σ coef·x <= upper`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    /// Coefficients by column.
    pub terms: Vec<(VarId, f64)>,
    /// Lower side (may be `f64::NEG_INFINITY`).
    pub lower: f64,
    /// Upper side (may be `f64::INFINITY`).
    pub upper: f64,
}

impl Cut {
    /// How far `x` lies outside the row (0 when it satisfies it).
    pub fn violation(&self, x: &[f64]) -> f64 {
        let a: f64 = self.terms.iter().map(|&(v, c)| c * x[v.0]).sum();
        (self.lower - a).max(a - self.upper).max(0.0)
    }
}

/// A bound change found by a separator's propagation: column, new lower, new upper.
pub type Tightening = (usize, f64, f64);

/// The problem-specific part of a branch and cut: the lazy constraints (separation and
/// propagation) and the branching choice.
pub trait Separator {
    /// Rows violated by the LP point `x` (values by column). When `integral` is true (every
    /// integer column is integral) the answer decides feasibility: no row means `x` is a
    /// solution, and otherwise at least one returned row must be violated by `x`.
    fn separate(&mut self, x: &[f64], integral: bool) -> Vec<Cut>;

    /// The integer column to branch on at the fractional point `x`, given the candidates
    /// (integer columns with a fractional value). The default takes the most fractional.
    fn branch(&mut self, x: &[f64], candidates: &[usize]) -> usize {
        let distance = |j: usize| (x[j] - x[j].floor() - 0.5).abs();
        *candidates
            .iter()
            .min_by(|&&a, &&b| distance(a).total_cmp(&distance(b)).then(a.cmp(&b)))
            .expect("branching needs a candidate")
    }

    /// Domain propagation of the lazy constraints: bound changes that every solution
    /// within `lower`/`upper` satisfies, pushed onto `out`. False when no solution lies
    /// within the bounds. The default finds nothing.
    fn propagate(&mut self, lower: &[f64], upper: &[f64], out: &mut Vec<Tightening>) -> bool {
        let _ = (lower, upper, out);
        true
    }
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Separation rounds at a node whose LP point is fractional before it is branched on.
    pub rounds_per_node: u32,
    /// Separation rounds at the root node for a fractional point.
    pub rounds_at_root: u32,
    /// Smallest violation for which a row is added.
    pub min_violation: f64,
    /// Probe every free binary column at every node.
    pub probing: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rounds_per_node: 3,
            rounds_at_root: 50,
            min_violation: 1e-6,
            probing: true,
        }
    }
}

/// What a search did besides its outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// Probing: every free binary column is set to 1 and to 0 in turn and propagated; a value
/// that leads to a contradiction is excluded (the column is fixed to the other value),
/// until no probe fixes anything. False when both values of some column fail.
fn probe(
    rows: &Rows,
    domain: &mut Domain,
    separator: &mut dyn Separator,
    binary: &[usize],
    figures: &mut Figures,
) -> bool {
    loop {
        let mut fixed_any = false;
        for &j in binary {
            if domain.lower[j] != 0.0 || domain.upper[j] != 1.0 {
                continue;
            }
            for value in [1.0, 0.0] {
                let mark = domain.mark();
                figures.probes += 1;
                let ok =
                    domain.tighten(rows, j, value, value) && propagate_all(rows, domain, separator);
                domain.undo(rows, mark);
                if !ok {
                    figures.probe_fixings += 1;
                    let other = 1.0 - value;
                    if !domain.tighten(rows, j, other, other)
                        || !propagate_all(rows, domain, separator)
                    {
                        return false;
                    }
                    fixed_any = true;
                    break;
                }
            }
        }
        if !fixed_any {
            return true;
        }
    }
}

/// Runs the branch and cut on `model` (minimisation or maximisation, integer columns
/// branched on) with the lazy constraints of `separator`. The time limit of `options`
/// bounds the whole search; threads and seed go to HiGHS; the gap stops the search
/// early when the incumbent is within it. Returns the outcome (status, objective, best
/// bound, nodes, the incumbent's values, the search's seconds) and its figures.
pub fn solve(
    model: &Model,
    separator: &mut dyn Separator,
    settings: &Settings,
    options: &SolveOptions,
) -> (Outcome, Figures) {
    let start = Instant::now();
    let mut figures = Figures::default();
    let mut lp = match Lp::new(model, options) {
        Ok(lp) => lp,
        Err(e) => return (Outcome::error(e, 0.0), figures),
    };
    let flip = if model.sense == Sense::Maximize {
        -1.0
    } else {
        1.0
    };
    let integer: Vec<usize> = (0..model.vars.len())
        .filter(|&j| model.vars[j].kind != VarKind::Continuous)
        .collect();
    let binary: Vec<usize> = integer
        .iter()
        .copied()
        .filter(|&j| model.vars[j].lower >= 0.0 && model.vars[j].upper <= 1.0)
        .collect();
    // With integer costs on integer columns only, objectives are whole numbers and a node
    // must beat the incumbent by 1.
    let whole = model.vars.iter().all(|v| {
        v.objective == 0.0 || (v.kind != VarKind::Continuous && v.objective.fract() == 0.0)
    }) && model.objective_offset.fract() == 0.0;
    let mut rows = Rows::new(model);
    let mut stack = vec![Node {
        lower: lp.lower.clone(),
        upper: lp.upper.clone(),
        branched: None,
        bound: f64::NEG_INFINITY,
    }];
    // The incumbent in minimisation terms (objective × flip) and its values.
    let mut incumbent: Option<(f64, Vec<f64>)> = None;
    let beats = |bound: f64, inc: &Option<(f64, Vec<f64>)>| match inc {
        None => true,
        Some((best, _)) => {
            let need = if whole {
                best - 1.0 + 1e-6
            } else {
                best - 1e-9 * best.abs().max(1.0)
            };
            let gap_ok = options.mip_gap > 0.0
                && (best - bound).abs() / best.abs().max(1e-10) <= options.mip_gap;
            bound <= need && !gap_ok
        }
    };
    let time_left = |start: &Instant| {
        options
            .time_limit
            .map(|l| l - start.elapsed().as_secs_f64())
    };
    let mut stopped = false;
    let mut failure: Option<String> = None;
    while let Some(node) = stack.pop() {
        if !beats(node.bound, &incumbent) {
            continue;
        }
        if time_left(&start).is_some_and(|t| t <= 0.0) {
            stack.push(node);
            stopped = true;
            break;
        }
        figures.nodes += 1;
        let root = figures.nodes == 1;
        let bound = node.bound;
        let mut domain = Domain::new(&rows, node.lower, node.upper, node.branched.is_none());
        if let Some(j) = node.branched {
            domain.touch(&rows, j);
        }
        let feasible = propagate_all(&rows, &mut domain, separator)
            && (!settings.probing || probe(&rows, &mut domain, separator, &binary, &mut figures));
        if !feasible {
            figures.pruned_by_propagation += 1;
            continue;
        }
        let (lower, upper) = (domain.lower, domain.upper);
        lp.set_bounds(&lower, &upper);
        let mut rounds_here = 0;
        loop {
            figures.lps += 1;
            let obj = match lp.solve(time_left(&start)) {
                LpResult::Optimal(o) => o * flip,
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
            if !beats(obj, &incumbent) {
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
                settings.rounds_at_root
            } else {
                settings.rounds_per_node
            };
            if integral || rounds_here < limit {
                let cuts: Vec<Cut> = separator
                    .separate(&x, integral)
                    .into_iter()
                    .filter(|c| c.violation(&x) > settings.min_violation)
                    .collect();
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
                incumbent = Some((obj, values));
                break;
            }
            let j = separator.branch(&x, &fractional);
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
    let open_bound = stack.iter().map(|n| n.bound).fold(f64::INFINITY, f64::min);
    let outcome = match (stopped, incumbent) {
        (false, Some((obj, values))) => Outcome {
            status: Status::Optimal,
            objective: Some(obj * flip),
            best_bound: Some(obj * flip),
            gap: Some(0.0),
            nodes: Some(figures.nodes),
            seconds,
            values: Some(values),
            message: None,
        },
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
                status: Status::TimeLimit,
                objective,
                best_bound,
                gap: gap(objective, best_bound),
                nodes: Some(figures.nodes),
                seconds,
                values: inc.map(|i| i.1),
                message: None,
            }
        }
    };
    (outcome, figures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::VarKind;

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
            let settings = Settings {
                probing,
                ..Settings::default()
            };
            let (o, f) = solve(
                &m,
                &mut NoNeighbours(8),
                &settings,
                &SolveOptions::default(),
            );
            assert_eq!(o.status, Status::Optimal);
            assert_eq!(o.objective, best);
            let x = o.values.unwrap();
            assert!((0..7).all(|i| x[i] + x[i + 1] <= 1.0), "{x:?}");
            assert!(f.cuts > 0 && f.nodes >= 1);
        }
    }

    #[test]
    fn infeasibility_through_lazy_rows_is_proven() {
        // At most 4 of 8 columns of a path avoid neighbours.
        let (m, best) = model(5.0);
        assert_eq!(best, None);
        let (o, _) = solve(
            &m,
            &mut NoNeighbours(8),
            &Settings::default(),
            &SolveOptions::default(),
        );
        assert_eq!(o.status, Status::Infeasible);
        let (m, best) = model(4.0);
        let (o, _) = solve(
            &m,
            &mut NoNeighbours(8),
            &Settings::default(),
            &SolveOptions::default(),
        );
        assert_eq!(o.objective, best);
    }

    #[test]
    fn an_exhausted_time_limit_is_reported() {
        let (m, _) = model(0.0);
        let options = SolveOptions {
            time_limit: Some(0.0),
            ..SolveOptions::default()
        };
        let (o, _) = solve(&m, &mut NoNeighbours(8), &Settings::default(), &options);
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
