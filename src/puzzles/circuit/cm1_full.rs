//! CM1 with every row (5.1e) written out: the model of [`super::cm1`] plus
//! Σ_{e ⊆ N} x_e ≤ |N| − 1 for every vertex set N with 2 ≤ |N| < |V| (sets of one vertex
//! give 0 ≤ 0 and N = V is (5.1d); the report counts 2^|V| − 2 rows). For cross-checking
//! the lazy versions on tiny boards: boards of more than [`MAX_POINTS`] points are refused.

use super::cm1::{self, Columns};
use super::graph::Graph;
use super::Circuit;
use crate::model::{Model, Name};
use crate::puzzles::{Run, RunResult};

/// The most points for which every subset's row is written (2^16 sets).
pub const MAX_POINTS: usize = 16;

/// Builds the model with all rows (5.1e); an error for boards above [`MAX_POINTS`].
pub fn build(g: &Graph) -> Result<(Model, Columns), String> {
    build_check(g)?;
    let n = g.n();
    let (mut m, cols) = cm1::build(g);
    m.name = "circuit_cm1_full".into();
    for set in 1u32..(1u32 << n) - 1 {
        if set.count_ones() < 2 {
            continue;
        }
        let inside: Vec<bool> = (0..n).map(|i| set >> i & 1 == 1).collect();
        let cut = cm1::subtour_row(g, &cols.x, &inside);
        if cut.terms.is_empty() {
            continue;
        }
        m.add_row(
            Name::idx("sec", &[set as usize]),
            cut.terms,
            cut.lower,
            cut.upper,
        );
    }
    Ok((m, cols))
}

/// Refuses boards of more than [`MAX_POINTS`] points.
fn build_check(g: &Graph) -> Result<(), String> {
    let n = g.n();
    if n > MAX_POINTS {
        return Err(format!(
            "cm1-full writes 2^|V| - 2 rows and takes boards of at most {MAX_POINTS} points; this one has {n}"
        ));
    }
    Ok(())
}

/// Solves the full model as one integer program on the run's engine.
pub fn solve(p: &Circuit, run: &Run) -> RunResult {
    let g = Graph::new(p);
    if let Err(e) = build_check(&g) {
        return RunResult::refused(format!("refused: {e}"));
    }
    let build_ok = || build(&g).expect("size checked above");
    run.compact(build_ok, |cols, v| p.answer(g.links(&cols.chosen(v)), None))
}
