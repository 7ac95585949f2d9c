//! Reading CPLEX LP and MPS files into the engine-neutral [`Model`].
//!
//! Users write their formulations with modelling tools (PuLP, Pyomo, JuMP, ...), which
//! write CPLEX LP or MPS files; [`read_model`] turns such a file into a [`Model`]. Every
//! bad input gives a [`ReadError`] naming the file, the line and what is wrong; no input
//! makes the readers panic.
//!
//! # What the model gets
//!
//! * Variables and rows are named `Name::Text` exactly as in the file. Columns are in
//!   the order of their first appearance in the file (objective, rows, bounds or
//!   integrality sections alike); rows in file order.
//! * A variable declared integer whose bounds end up exactly 0 and 1 is
//!   [`VarKind::Binary`]; any other integer variable is [`VarKind::Integer`] (so an
//!   integer column with bounds 0..1 reads back as binary); the rest are continuous.
//! * Row terms on the same variable are summed (one entry per variable, sorted by
//!   column); coefficients written as zero are kept. Contradictory bounds (lower above
//!   upper) are kept as written: deciding that the model is infeasible is the solver's
//!   job.
//! * Numbers are read as Rust reads `f64`; a value is infinite only when written as such
//!   (`inf`, `infinity`, or too large for an `f64`): `1e30` stays `1e30`. Coefficients
//!   must be finite; NaN is refused everywhere.
//!
//! The two formats, their conventions and what is refused are described in [`lp`] and
//! [`mps`].

use crate::model::{Model, Name, Row, Sense, Var, VarKind};
use std::collections::HashMap;
use std::path::Path;

pub mod lp;
pub mod mps;

pub use lp::parse_lp;
pub use mps::parse_mps;

/// The format of a model file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// CPLEX LP format (see [`lp`]).
    Lp,
    /// Free or fixed MPS format (see [`mps`]).
    Mps,
}

impl Format {
    /// The format a file name announces: `.lp` or `.mps`, in any case; `None` otherwise
    /// (compressed files such as `.lp.gz` are not recognised).
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "lp" => Some(Format::Lp),
            "mps" => Some(Format::Mps),
            _ => None,
        }
    }
}

/// A model file that could not be read: the file, the line (1-based; 0 = whole file)
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The file, as given by the caller.
    pub file: String,
    /// 1-based line of the problem, or 0 when it concerns the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads the model in `path`, written in `format`.
pub fn read_model(path: &Path, format: Format) -> Result<Model, ReadError> {
    let whole = |message: String| ReadError {
        file: path.display().to_string(),
        line: 0,
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| whole(format!("cannot read the file: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        whole(format!(
            "the file is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    match format {
        Format::Lp => parse_lp(&text, path),
        Format::Mps => parse_mps(&text, path),
    }
}

/// Makes errors for one file.
#[derive(Clone)]
struct Errors {
    file: String,
}

impl Errors {
    fn new(file: &Path) -> Self {
        Errors {
            file: file.display().to_string(),
        }
    }

    fn at(&self, line: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            file: self.file.clone(),
            line,
            message: message.into(),
        }
    }
}

/// A column while the file is read.
struct VarDraft {
    name: String,
    integer: bool,
    /// Declared in an LP `Binaries` section: default bounds 0 and 1.
    binary_declared: bool,
    lower: Option<f64>,
    upper: Option<f64>,
    objective: f64,
}

/// A row while the file is read.
struct RowDraft {
    name: String,
    terms: Vec<(usize, f64)>,
    lower: f64,
    upper: f64,
}

/// The model as the readers collect it: columns by name in order of appearance, rows.
struct Draft {
    vars: Vec<VarDraft>,
    index: HashMap<String, usize>,
    rows: Vec<RowDraft>,
}

impl Draft {
    fn new() -> Self {
        Draft {
            vars: Vec::new(),
            index: HashMap::new(),
            rows: Vec::new(),
        }
    }

    /// The column named `name`, added (continuous, default bounds) when new.
    fn var(&mut self, name: &str) -> usize {
        if let Some(&j) = self.index.get(name) {
            return j;
        }
        self.vars.push(VarDraft {
            name: name.to_string(),
            integer: false,
            binary_declared: false,
            lower: None,
            upper: None,
            objective: 0.0,
        });
        self.index.insert(name.to_string(), self.vars.len() - 1);
        self.vars.len() - 1
    }

    fn finish(self, name: String, sense: Sense, offset: f64) -> Model {
        let vars = self
            .vars
            .into_iter()
            .map(|v| {
                let default_upper = if v.binary_declared {
                    1.0
                } else {
                    f64::INFINITY
                };
                let lower = v.lower.unwrap_or(0.0);
                let upper = v.upper.unwrap_or(default_upper);
                let kind = match (v.integer, lower == 0.0 && upper == 1.0) {
                    (true, true) => VarKind::Binary,
                    (true, false) => VarKind::Integer,
                    _ => VarKind::Continuous,
                };
                Var {
                    name: Name::Text(v.name),
                    kind,
                    lower,
                    upper,
                    objective: v.objective,
                }
            })
            .collect();
        let rows = self
            .rows
            .into_iter()
            .map(|r| Row {
                name: Name::Text(r.name),
                terms: merge_terms(r.terms),
                lower: r.lower,
                upper: r.upper,
            })
            .collect();
        Model {
            name,
            sense,
            objective_offset: offset,
            vars,
            rows,
        }
    }
}

/// Sorts terms by column and sums the coefficients of a repeated column.
fn merge_terms(mut terms: Vec<(usize, f64)>) -> Vec<(crate::model::VarId, f64)> {
    terms.sort_by_key(|t| t.0);
    let mut out: Vec<(crate::model::VarId, f64)> = Vec::with_capacity(terms.len());
    for (j, c) in terms {
        match out.last_mut() {
            Some(last) if last.0 .0 == j => last.1 += c,
            _ => out.push((crate::model::VarId(j), c)),
        }
    }
    out
}

/// The file's stem, as the name of a model whose file names none.
fn stem(file: &Path) -> String {
    file.file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("model")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_of_path() {
        assert_eq!(Format::of_path(Path::new("a/b.lp")), Some(Format::Lp));
        assert_eq!(Format::of_path(Path::new("B.MPS")), Some(Format::Mps));
        assert_eq!(Format::of_path(Path::new("b.Lp")), Some(Format::Lp));
        assert_eq!(Format::of_path(Path::new("b.lp.gz")), None);
        assert_eq!(Format::of_path(Path::new("lp")), None);
    }

    #[test]
    fn error_display() {
        let e = ReadError {
            file: "m.lp".into(),
            line: 3,
            message: "bad".into(),
        };
        assert_eq!(e.to_string(), "m.lp:3: bad");
        let e = ReadError { line: 0, ..e };
        assert_eq!(e.to_string(), "m.lp: bad");
    }

    #[test]
    fn read_model_reports_missing_files() {
        let e = read_model(Path::new("/nonexistent/x.lp"), Format::Lp).unwrap_err();
        assert_eq!(e.line, 0);
        assert!(e.message.contains("cannot read"), "{e}");
    }

    #[test]
    fn merge_sums_and_sorts() {
        let t = merge_terms(vec![(2, 1.0), (0, 2.0), (2, 3.0)]);
        assert_eq!(
            t,
            vec![(crate::model::VarId(0), 2.0), (crate::model::VarId(2), 4.0)]
        );
    }
}
