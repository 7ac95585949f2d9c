//! The puzzle registry: one [`PuzzleInfo`] row per puzzle, and the [`Instance`] trait that
//! every loaded puzzle implements so that the runner and the CLI can treat them alike.

pub mod battleship;
pub mod circuit;
pub mod fault;
pub mod hashi;
pub mod sudoku;
pub mod zebra;

use crate::backends::{Backend, Outcome, SolveOptions, Status};
use crate::model::{Counts, Model};
use crate::record::Record;
use crate::report::tables::Table;
use std::fmt;
use std::path::Path;
use std::time::Instant;

/// A formulation of a puzzle: its key and what it is.
#[derive(Clone, Copy, Debug)]
pub struct FormulationInfo {
    /// Key on the command line and in result rows.
    pub key: &'static str,
    /// One line describing the model.
    pub description: &'static str,
}

/// Reads every instance in a file.
pub type Loader = fn(&Path) -> Result<Vec<Box<dyn Instance>>, InputError>;

/// One row of the registry.
pub struct PuzzleInfo {
    /// Key on the command line and in result rows.
    pub key: &'static str,
    /// One line describing the puzzle.
    pub description: &'static str,
    /// Formulations; the first is the default.
    pub formulations: &'static [FormulationInfo],
    /// Input formats accepted by [`PuzzleInfo::load`], for `--help` and `list`.
    pub formats: &'static str,
    /// Hidden from `list` and from the "valid puzzles" hint (test-only puzzles).
    pub hidden: bool,
    /// The tables this puzzle contributes to reports, from the rows of any CSV.
    pub tables: fn(&[Record]) -> Vec<Table>,
    /// What `reproduce` runs for this puzzle (`true`: the quick suite).
    pub suite: fn(bool) -> Suite,
    /// Reads every instance in a file.
    pub load: Loader,
}

/// What `reproduce` runs for one puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    /// Instance files or folders, relative to the instances folder (`instances/`).
    pub instances: Vec<&'static str>,
    /// Formulation keys.
    pub formulations: Vec<&'static str>,
    /// Repeats of every run.
    pub repeats: u32,
    /// Default time limit per solve in seconds.
    pub time_limit: f64,
    /// Presolve settings to run every combination with (`[true]`: presolve on only; the
    /// report measured some tables with presolve off).
    pub presolve: Vec<bool>,
    /// Runs on a backend of their own, whatever `reproduce --backend` says: the CP
    /// formulations on `propagate`, once per search-heuristics configuration.
    pub own_backend: Vec<OwnBackend>,
    /// More instances with formulations of their own (and their own time limit), run on
    /// the chosen backends like the main part: boards beyond the report's sizes where
    /// only some formulations are worth running.
    pub extra: Vec<SuitePart>,
}

/// Instances that `reproduce` runs with formulations and a time limit of their own.
#[derive(Clone, Debug, PartialEq)]
pub struct SuitePart {
    /// Instance files or folders, relative to the instances folder.
    pub instances: Vec<&'static str>,
    /// Formulation keys.
    pub formulations: Vec<&'static str>,
    /// Time limit per solve in seconds.
    pub time_limit: f64,
}

/// Formulations that `reproduce` runs on one given backend, once per heuristics setting.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnBackend {
    /// Formulation keys.
    pub formulations: Vec<&'static str>,
    /// The backend they run on.
    pub backend: Backend,
    /// The settings of `SolveOptions::heuristics` to run, each a sweep of its own.
    pub heuristics: Vec<crate::backends::Heuristics>,
}

/// The registry of puzzles.
pub static PUZZLES: &[PuzzleInfo] = &[
    sudoku::INFO,
    battleship::INFO,
    circuit::INFO,
    hashi::INFO,
    zebra::INFO,
    fault::INFO,
];

/// Looks a puzzle up by key; the error lists the valid keys.
pub fn puzzle(key: &str) -> Result<&'static PuzzleInfo, String> {
    PUZZLES.iter().find(|p| p.key == key).ok_or_else(|| {
        let keys: Vec<&str> = PUZZLES
            .iter()
            .filter(|p| !p.hidden)
            .map(|p| p.key)
            .collect();
        format!("unknown puzzle '{key}'; valid puzzles: {}", keys.join(", "))
    })
}

impl PuzzleInfo {
    /// Checks a formulation key; the error lists the valid ones.
    pub fn formulation(&self, key: &str) -> Result<&'static FormulationInfo, String> {
        self.formulations
            .iter()
            .find(|f| f.key == key)
            .ok_or_else(|| {
                let keys: Vec<&str> = self.formulations.iter().map(|f| f.key).collect();
                format!(
                    "unknown formulation '{key}' for {}; valid formulations: {}",
                    self.key,
                    keys.join(", ")
                )
            })
    }

    /// The default formulation.
    pub fn default_formulation(&self) -> &'static str {
        self.formulations[0].key
    }
}

/// A parse error: the file, the line (1-based, 0 when it concerns the whole file) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file.
    pub file: String,
    /// The line, from 1; 0 for the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error at `line` of `file`.
    pub fn new(file: &Path, line: usize, message: impl Into<String>) -> Self {
        InputError {
            file: file.display().to_string(),
            line,
            message: message.into(),
        }
    }
}

/// Reads an instance file as text, or says which file could not be read and why.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    std::fs::read_to_string(path).map_err(|e| InputError::new(path, 0, format!("cannot read: {e}")))
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for InputError {}

/// A loaded puzzle instance, whatever the puzzle.
pub trait Instance: Send + Sync {
    /// The instance name used in result rows.
    fn name(&self) -> &str;
    /// A canonical text of the instance, for run ids and for telling instances apart.
    fn canonical(&self) -> String;
    /// A size label for tables, e.g. `9x9`.
    fn size_label(&self) -> String;
    /// A number that orders instances by size (cells, islands, ...), for plots.
    fn size(&self) -> f64;
    /// Puzzle-specific facts for tables, as `key=value` pairs joined by `;` (e.g. `clues=29`).
    fn info(&self) -> String {
        String::new()
    }
    /// An SVG picture of the instance, filled in with `answer` when given.
    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let _ = answer;
        None
    }
    /// Builds the model of a formulation (for export and counting).
    fn build(&self, formulation: &str) -> Result<Model, String>;
    /// Builds, solves, decodes and verifies.
    fn solve(
        &self,
        formulation: &str,
        backend: Backend,
        options: &SolveOptions,
    ) -> Result<Report, String>;
}

/// A decoded and checked answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The solution in the puzzle's JSON shape (README, "Solutions as JSON").
    pub json: serde_json::Value,
    /// The solution drawn as text.
    pub text: String,
    /// `Ok` when the independent verifier accepts it, else its reason.
    pub verdict: Result<(), String>,
}

/// Everything one run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// The integer solve.
    pub outcome: Outcome,
    /// The LP-relaxation solve of the same model on the same backend.
    pub lp: Option<Outcome>,
    /// Seconds spent building the model.
    pub build_seconds: f64,
    /// Size of the model.
    pub counts: Counts,
    /// The decoded answer, when the solve found a solution.
    pub answer: Option<Answer>,
    /// Row-generation rounds.
    pub rounds: Option<u64>,
    /// Rows added by row generation.
    pub cuts: Option<u64>,
    /// Variables fixed by deductions.
    pub fixings: Option<u64>,
    /// Propagator-induced domain reductions.
    pub inferences: Option<u64>,
    /// Solutions found, up to `SolveOptions::count`, where the formulation counts them.
    pub solutions: Option<u64>,
}

impl Report {
    /// A run not attempted: status `error` with `reason`, nothing built or solved.
    pub fn refused(reason: String) -> Report {
        Report {
            outcome: Outcome::error(reason, 0.0),
            lp: None,
            build_seconds: 0.0,
            counts: Counts::default(),
            answer: None,
            rounds: None,
            cuts: None,
            fixings: None,
            inferences: None,
            solutions: None,
        }
    }

    /// The report of a formulation that adds rows as it goes (row generation or branch and
    /// cut): `model` is its last model (whose size is recorded), `rounds` and `cuts` its
    /// figures; the answer is decoded from the outcome's values when it has a solution.
    pub fn with_rows(
        model: &Model,
        outcome: Outcome,
        lp: Option<Outcome>,
        build_seconds: f64,
        (rounds, cuts): (u64, u64),
        decode: impl FnOnce(&[f64]) -> Answer,
    ) -> Report {
        let answer = solution_values(&outcome).map(decode);
        Report {
            counts: model.counts(),
            outcome,
            lp,
            build_seconds,
            answer,
            rounds: Some(rounds),
            cuts: Some(cuts),
            fixings: None,
            inferences: None,
            solutions: None,
        }
    }

    /// `Some(true)` when the verifier accepted the answer, `Some(false)` when it refused it,
    /// `None` when there was no answer to check.
    pub fn verified(&self) -> Option<bool> {
        self.answer.as_ref().map(|a| a.verdict.is_ok())
    }
}

/// The common path of a formulation that is one model: build it (timed), solve its LP
/// relaxation and the integer program on `backend`, decode the values and verify. A
/// backend that solves no integer programs (`propagate`) is refused before anything is
/// built: status `error` with the reason.
pub fn solve_compact<D>(
    build: impl FnOnce() -> (Model, D),
    backend: Backend,
    options: &SolveOptions,
    decode: impl FnOnce(&D, &[f64]) -> Answer,
) -> Report {
    if let Some(reason) = backend.refuses_mip() {
        return Report::refused(reason);
    }
    let t = Instant::now();
    let (model, decoder) = build();
    let build_seconds = t.elapsed().as_secs_f64();
    let lp = options
        .lp_relaxation
        .then(|| backend.solve(&model.relax(), options));
    let outcome = backend.solve(&model, options);
    let answer = solution_values(&outcome).map(|values| decode(&decoder, values));
    Report {
        counts: model.counts(),
        outcome,
        lp,
        build_seconds,
        answer,
        rounds: None,
        cuts: None,
        fixings: None,
        inferences: None,
        solutions: None,
    }
}

/// The values of an outcome's solution, when it has one: status optimal or feasible, or
/// the incumbent of a run stopped at the time limit (verified like any other solution;
/// the run stays `time_limit`).
fn solution_values(outcome: &Outcome) -> Option<&[f64]> {
    outcome
        .values
        .as_deref()
        .filter(|_| outcome.status.has_solution() || outcome.status == Status::TimeLimit)
}

/// Splits a line of a keyword format into its keyword and the rest, both trimmed, after
/// dropping a `#` comment: `"grid 3 4  # note"` gives `("grid", "3 4")`.
pub fn split_keyword(line: &str) -> (&str, &str) {
    let content = line.split('#').next().unwrap_or("").trim();
    content
        .split_once(char::is_whitespace)
        .map_or((content, ""), |(k, r)| (k, r.trim()))
}

/// Reads `path` and parses it with `parse` (a puzzle's `parse_file`), boxing the instances:
/// the body of every puzzle's [`Loader`].
pub fn load_with<T: Instance + 'static>(
    path: &Path,
    parse: fn(&Path, &str) -> Result<Vec<T>, InputError>,
) -> Result<Vec<Box<dyn Instance>>, InputError> {
    let text = read_text(path)?;
    Ok(parse(path, &text)?
        .into_iter()
        .map(|p| Box::new(p) as Box<dyn Instance>)
        .collect())
}

/// Parses a file that holds one puzzle per line: blank lines and lines starting with `#`
/// are skipped, every other line goes to `parse_line`, whose error is reported with the
/// file and line. The instances are named after the file stem (`fallback` when the path
/// has none), with `:LINE` appended when the file holds more than one puzzle.
pub fn parse_one_per_line<T>(
    path: &Path,
    text: &str,
    fallback: &str,
    parse_line: impl Fn(&str) -> Result<T, String>,
    set_name: impl Fn(&mut T, String),
) -> Result<Vec<T>, InputError> {
    let stem = path
        .file_stem()
        .map_or(fallback.into(), |s| s.to_string_lossy().to_string());
    let mut found: Vec<(usize, T)> = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = parse_line(line).map_err(|m| InputError::new(path, no + 1, m))?;
        found.push((no + 1, puzzle));
    }
    if found.is_empty() {
        return Err(InputError::new(
            path,
            0,
            "no puzzle found (every line is blank or a comment)",
        ));
    }
    let several = found.len() > 1;
    Ok(found
        .into_iter()
        .map(|(no, mut puzzle)| {
            let name = if several {
                format!("{stem}:{no}")
            } else {
                stem.clone()
            };
            set_name(&mut puzzle, name);
            puzzle
        })
        .collect())
}

/// Escapes text for SVG and other XML: `&`, `<` and `>`.
pub fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The LP bound of a report: the LP optimum when the relaxation was solved to optimality.
pub fn lp_bound(report: &Report) -> Option<f64> {
    report
        .lp
        .as_ref()
        .filter(|lp| lp.status == Status::Optimal)
        .and_then(|lp| lp.objective)
}
