//! `puzzlebench export`: the model of a formulation as MPS or LP, or the instance as JSON
//! (the input of a formulation written outside Rust, [`crate::puzzles::user`]).

use super::{bad_input, failed, Failure};
use crate::puzzles;
use std::path::PathBuf;

/// What `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The model as free MPS.
    Mps,
    /// The model as CPLEX LP.
    Lp,
    /// The instance as JSON; `all`: every instance of the file, as an array.
    Json {
        /// Every instance of the file rather than the first.
        all: bool,
    },
}

/// What to export.
pub struct ExportConfig {
    /// Instance file (its first puzzle is exported, unless `--all`).
    pub file: PathBuf,
    /// Puzzle key.
    pub puzzle: String,
    /// Formulation key (default: the puzzle's first); not used for JSON.
    pub formulation: Option<String>,
    /// Where to write (`-`: standard output, for JSON).
    pub out: PathBuf,
    /// MPS, LP or JSON.
    pub what: Target,
}

/// Writes the model or the instance and says on standard error what it holds.
pub fn export(c: &ExportConfig) -> Result<(), Failure> {
    let p = puzzles::puzzle(&c.puzzle).map_err(bad_input)?;
    let instances = p.load(&c.file).map_err(bad_input)?;
    if let Target::Json { all } = c.what {
        let take = if all { instances.len() } else { 1 };
        let json: Vec<serde_json::Value> = instances[..take]
            .iter()
            .map(|i| i.instance_json())
            .collect::<Result<_, _>>()
            .map_err(bad_input)?;
        let value = if all {
            serde_json::Value::Array(json)
        } else {
            json.into_iter().next().unwrap_or_default()
        };
        let text = serde_json::to_string_pretty(&value).expect("JSON values serialize") + "\n";
        if c.out.as_os_str() == "-" {
            print!("{text}");
        } else {
            std::fs::write(&c.out, text)
                .map_err(|e| failed(format!("{}: cannot write: {e}", c.out.display())))?;
            eprintln!(
                "wrote {} ({take} instance(s) of {})",
                c.out.display(),
                c.puzzle
            );
        }
        return Ok(());
    }
    let formulation = match &c.formulation {
        Some(f) => p.formulation(f).map_err(bad_input)?.key,
        None => p.default_formulation(),
    };
    let model = instances[0].build(formulation).map_err(bad_input)?;
    let text = if c.what == Target::Mps {
        crate::formats::mps::write(&model)
    } else {
        crate::formats::lp::write(&model)
    };
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
