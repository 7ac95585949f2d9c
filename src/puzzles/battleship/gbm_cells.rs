//! The grid-based model with cell columns (`gbm-cells`): the report's GBM (4.1) ([`super::gbm`])
//! with its row and column sums counted over cells rather than placements.
//!
//! Variables: `y[a]` (binary) is 1 when ship placement a is in the solution, as in the GBM;
//! `z[i,j]` (binary) is 1 when cell (i, j) holds a ship part.
//! Rows: the GBM's givens (4.1b), no-touch windows (4.1e) and fleet (4.1f), and
//! * cell: z[i,j] = Σ_{a covers (i,j)} y[a] (at most one placement covers a cell, by the
//!   windows);
//! * row and column sums: Σ_j z[i,j] = R_i and Σ_i z[i,j] = C_j.
//!
//! The GBM writes the sums over placements, a placement weighted by its cells in the row or
//! column (a horizontal ship of length 4 counts 4 in its row). Those are pseudo-Boolean
//! rows for a SAT encoding (generalised totalizers); here they are cardinality rows over the
//! cells (totalizers), and the cell rows are at-most-one rows with one clause. The linear
//! relaxation is the GBM's (z is a sum of y), so a MIP engine sees the same bound. Not in
//! the report: an auxiliary suggested in issue 40 for the `sat` engine.

use super::gbm::{build_with, Decoder, Sums};
use super::Battleship;
use crate::model::Model;

/// Builds the GBM with cell columns for `p`.
pub fn build(p: &Battleship) -> (Model, Decoder) {
    build_with(p, Sums::Cells)
}
