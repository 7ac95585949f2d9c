//! CM1 by row generation on any engine: the model of [`super::cm1`] solved as an integer
//! program; the components of the solution's links give the violated rows (5.1e) (every
//! component that holds a cycle), which are added before solving again from scratch
//! ([`crate::engines::row_generation`]). A board whose points are not all joined by possible
//! links is infeasible at once. `rounds` counts the solves, `cuts` the rows added.
//!
//! This is the plain loop the report's lazy constraints replace; it is kept to measure
//! what the branch and cut of `cm1` gains, and because it runs on every engine.

use super::cm1::{self, Subtours};
use super::graph::Graph;
use super::Circuit;
use crate::lazy::{Cut, Separator};
use crate::puzzles::{Run, RunResult};

/// The separator of the loop: [`Subtours`] on integer solutions, and at once a
/// contradiction when the points are not all joined by possible links.
struct Rowgen<'a> {
    subtours: Subtours<'a>,
    connected: bool,
}

impl Separator for Rowgen<'_> {
    fn separate(&mut self, x: &[f64], _integral: bool) -> Vec<Cut> {
        if !self.connected {
            return vec![Cut::contradiction()];
        }
        self.subtours.separate(x, true)
    }
}

/// Runs the loop on the run's engine.
pub fn solve(p: &Circuit, run: &Run) -> RunResult {
    let g = Graph::new(p);
    let connected = g
        .components(&vec![true; g.edges.len()])
        .iter()
        .all(|&c| c == 0);
    run.row_generation(
        || {
            let (m, cols) = cm1::build(&g);
            let sep = Rowgen {
                subtours: Subtours::new(&g, cols.x.clone())
                    .with_clauses(run.engine.capabilities().clausal),
                connected,
            };
            (m, cols, sep)
        },
        |cols, v| p.answer(g.links(&cols.chosen(v)), None),
    )
}
