//! CM1 by row generation on any backend: the model of [`super::cm1`] solved as an integer
//! program; the components of the solution's links give the violated rows (5.1e) (every
//! component that holds a cycle), which are added before solving again from scratch
//! ([`crate::row_generation`]). A board whose points are not all joined by possible
//! links is infeasible at once. `rounds` counts the solves, `cuts` the rows added.
//!
//! This is the plain loop the report's lazy constraints replace; it is kept to measure
//! what the branch and cut of `cm1` gains, and because it runs on every backend.

use super::cm1::{self, subtour_row};
use super::graph::Graph;
use super::Circuit;
use crate::backends::{Backend, SolveOptions};
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
    let (outcome, figures) = row_generation::solve(&mut model, "sec", backend, options, |v| {
        if !connected {
            return Separation::Infeasible;
        }
        let comp = g.components(&cols.chosen(v));
        let count = comp.iter().max().map_or(0, |c| c + 1);
        if count <= 1 {
            return Separation::Feasible;
        }
        Separation::Rows(
            (0..count)
                .map(|k| {
                    let inside: Vec<bool> = comp.iter().map(|&c| c == k).collect();
                    subtour_row(g, &cols.x, &inside)
                })
                .filter(|cut| cut.violation(v) > 1e-6)
                .collect(),
        )
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
