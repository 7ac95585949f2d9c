//! `puzzlebench export`: the model of a formulation as MPS or LP.

use super::{bad_input, failed, Failure};
use crate::puzzles;
use std::path::PathBuf;

/// What to export.
pub struct ExportConfig {
    /// Instance file (its first puzzle is exported).
    pub file: PathBuf,
    /// Puzzle key.
    pub puzzle: String,
    /// Formulation key (default: the puzzle's first).
    pub formulation: Option<String>,
    /// Where to write, and whether as MPS (true) or LP (false).
    pub out: PathBuf,
    /// MPS (true) or CPLEX LP (false).
    pub mps: bool,
}

/// Writes the model and says on standard error what it holds.
pub fn export(c: &ExportConfig) -> Result<(), Failure> {
    let p = puzzles::puzzle(&c.puzzle).map_err(bad_input)?;
    let formulation = match &c.formulation {
        Some(f) => p.formulation(f).map_err(bad_input)?.key,
        None => p.default_formulation(),
    };
    let instances = p.load(&c.file).map_err(bad_input)?;
    let model = instances[0].build(formulation).map_err(bad_input)?;
    let text = if c.mps { model.to_mps() } else { model.to_lp() };
    std::fs::write(&c.out, text)
        .map_err(|e| failed(format!("{}: cannot write: {e}", c.out.display())))?;
    let n = model.counts();
    eprintln!(
        "wrote {} ({} variables, {} rows, {} nonzeros)",
        c.out.display(),
        n.variables,
        n.constraints,
        n.nonzeros
    );
    Ok(())
}
