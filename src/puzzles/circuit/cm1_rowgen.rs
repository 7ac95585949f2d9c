//! CM1 by row generation on any backend: the model of [`super::cm1`] solved as an integer
//! program; the components of the solution's links give the violated rows (5.1e) (every
//! component that holds a cycle), which are added before solving again from scratch
//! ([`crate::row_generation`]). A board whose points are not all joined by possible
//! links is infeasible at once. `rounds` counts the solves, `cuts` the rows added.
//!
//! This is the plain loop the report's lazy constraints replace; it is kept to measure
//! what the branch and cut of `cm1` gains, and because it runs on every backend.

use super::cm1::{self, Subtours};
use super::graph::Graph;
use super::Circuit;
use crate::backends::{Backend, SolveOptions};
use crate::branch_and_cut::Separator;
use crate::puzzles::Report;
use crate::row_generation::{self, Separation};
use std::time::Instant;

/// Runs the loop.
pub fn solve(p: &Circuit, g: &Graph, backend: Backend, options: &SolveOptions) -> Report {
    if let Some(reason) = backend.refuses_mip() {
        return Report::refused(reason);
    }
    let t = Instant::now();
    let (mut model, cols) = cm1::build(g);
    let build_seconds = t.elapsed().as_secs_f64();
    let lp = options
        .lp_relaxation
        .then(|| backend.solve(&model.relax(), options));
    let connected = g
        .components(&vec![true; g.edges.len()])
        .iter()
        .all(|&c| c == 0);
    let mut subtours = Subtours::new(g, cols.x.clone());
    let (outcome, figures) = row_generation::solve(&mut model, "sec", backend, options, |v| {
        if !connected {
            return Separation::Infeasible;
        }
        let rows = subtours.separate(v, true);
        if rows.is_empty() {
            Separation::Feasible
        } else {
            Separation::Rows(rows)
        }
    });
    Report::with_rows(
        &model,
        outcome,
        lp,
        build_seconds,
        (figures.rounds, figures.cuts),
        |v| p.answer(g.links(&cols.chosen(v)), None),
    )
}
