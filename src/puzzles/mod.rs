//! The puzzle registry: one [`PuzzleDef`] per puzzle, each with its formulations as data
//! ([`Formulation`]: key, description, the [`Kind`] of problem it hands an engine, and
//! its build and solve functions), listed in [`PUZZLES`]; and the [`Instance`] trait that
//! every loaded puzzle implements so that the runner and the CLI can treat them alike.
//!
//! Adding a puzzle: its folder under `src/puzzles/`, one line in [`PUZZLES`] and its
//! instances under `instances/`. A formulation's key is written once, in its puzzle's
//! table of formulations; running one looks it up there and refuses an engine that does
//! not take its kind, with the reason, before anything is built.

pub mod battleship;
pub mod cages;
pub mod certified;
pub mod circuit;
pub mod clue_follower;
pub mod counting;
pub mod fault;
pub mod fewest_clues;
pub mod formulation;
pub mod hashi;
pub mod kenken;
pub mod minclue;
pub mod nonogram;
pub mod nonogram_givens;
pub mod queens;
pub mod starbattle;
pub mod sudoku;
pub mod tatham;
pub mod tiny;
pub mod user;
pub mod zebra;

pub use formulation::{Answer, Run, RunResult};

use crate::engines::{Engine, Heuristics, Kind, SolveOptions};
use crate::model::Model;
use crate::record::{formulation_key, Record};
use crate::table::{Table, TableFn};
use std::fmt;
use std::path::Path;

/// A formulation of puzzle type `P`: its key, what it is, the kind of problem it hands to
/// an engine, and its functions.
pub struct Formulation<P: 'static> {
    /// Key on the command line and in result rows.
    pub key: &'static str,
    /// One line describing the model (what its variables mean).
    pub description: &'static str,
    /// The kind of problem it hands to an engine: engines that do not take it are refused.
    pub kind: Kind,
    /// Builds its model as written out by `export` (the first round's model for row
    /// generation and lazy rows); an error says why there is none.
    pub build: fn(&P) -> Result<Model, String>,
    /// Builds, solves on the run's engine, decodes and verifies.
    pub solve: fn(&P, &Run) -> RunResult,
}

/// What the registry says of a formulation, whatever the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormulationInfo {
    /// Key on the command line and in result rows.
    pub key: &'static str,
    /// One line describing the model.
    pub description: &'static str,
    /// The kind of problem it hands to an engine.
    pub kind: Kind,
    /// Where its model comes from: this binary, or a command a file defines.
    pub source: FormulationSource,
}

/// Where a formulation's model comes from. One list holds both sources
/// ([`Puzzle::formulations`]); code asks the source, never the key's spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormulationSource {
    /// Built into this binary (Rust).
    BuiltIn,
    /// Written by a command a definition file names ([`user`]: a formulation written
    /// outside Rust, whose key puzzlebench gives the prefix `user:`).
    Command,
}

/// A puzzle's registry entry, for instances of type `P`.
pub struct PuzzleDef<P: 'static> {
    /// Key on the command line and in result rows.
    pub key: &'static str,
    /// One line describing the puzzle.
    pub description: &'static str,
    /// Formulations; the first is the default.
    pub formulations: &'static [Formulation<P>],
    /// Input formats accepted, for `--help` and `list`.
    pub formats: &'static str,
    /// Hidden from `list` and from the "valid puzzles" hint (test-only puzzles).
    pub hidden: bool,
    /// Reads every instance in a file's text (the path names errors and instances).
    pub parse: fn(&Path, &str) -> Result<Vec<P>, InputError>,
    /// What [`Instance::size`] counts (`islands`, `houses × attributes`), for the size axis
    /// of the plots; empty when it counts nothing worth naming.
    pub size_unit: &'static str,
    /// The tables this puzzle contributes to reports, from the rows of any CSV.
    pub tables: fn(&[Record]) -> Vec<Table>,
    /// What `reproduce` runs for this puzzle (`true`: the quick suite).
    pub suite: fn(bool) -> Suite,
    /// Its generator of random instances for `puzzlebench generate`, if it has one.
    pub generator: Option<&'static crate::generate::Generator>,
    /// Its instance as JSON and its answer variables, for formulations written outside
    /// Rust ([`user`]); `None` for a puzzle that takes none.
    pub user: Option<user::UserSchema<P>>,
}

impl<P: Instance + 'static> PuzzleDef<P> {
    /// The formulation with `key`; the error lists the valid keys.
    pub fn find(&self, key: &str) -> Result<&'static Formulation<P>, String> {
        let wanted = formulation_key(key);
        self.formulations
            .iter()
            .find(|f| f.key == wanted)
            .ok_or_else(|| {
                unknown_formulation(self.key, key, self.formulations.iter().map(|f| f.key))
            })
    }

    /// Builds the model of formulation `key` for `p`.
    pub fn build(&self, p: &P, key: &str) -> Result<Model, String> {
        if let Some((schema, f)) = self.user_formulation(key)? {
            return user::run::model(p, schema, f);
        }
        (self.find(key)?.build)(p)
    }

    /// The schema and definition of `key` when it is not built in and this puzzle takes
    /// formulations written outside Rust (an error, listing the definitions, when none
    /// has the key); `None` for a built-in key, or on a puzzle that takes none (where
    /// [`PuzzleDef::find`] reports an unknown key).
    fn user_formulation(
        &self,
        key: &str,
    ) -> Result<
        Option<(
            &user::UserSchema<P>,
            &'static user::definition::UserFormulation,
        )>,
        String,
    > {
        let wanted = formulation_key(key);
        if self.formulations.iter().any(|f| f.key == wanted) {
            return Ok(None);
        }
        // Not built in: a definition's, where this puzzle takes them (the error of an
        // unknown key then lists the definitions and where they are read from).
        match self.user.as_ref() {
            Some(schema) => Ok(Some((schema, user::registry::find(self.key, key)?))),
            None => Ok(None),
        }
    }

    /// Runs formulation `key` on `p` with `engine`: refused with the reason when the
    /// engine does not take the formulation's kind; otherwise the run's one budget starts
    /// here and the formulation builds, solves, decodes and verifies. `Err` only for an
    /// unknown formulation.
    pub fn solve(
        &self,
        p: &P,
        key: &str,
        engine: Engine,
        options: &SolveOptions,
    ) -> Result<RunResult, String> {
        let user = self.user_formulation(key)?;
        let kind = match user {
            Some(_) => Kind::Mip,
            None => self.find(key)?.kind,
        };
        if let Some(reason) = engine.refusal(kind) {
            return Ok(RunResult::refused(format!(
                "refused: formulation {key} is {}; {reason}",
                kind.key()
            )));
        }
        let Some((schema, f)) = user else {
            let run = Run::new(engine, kind, options);
            let r = (self.find(key)?.solve)(p, &run);
            return Ok(finish(run, r));
        };
        // A formulation written outside Rust runs its command and reads its model first,
        // within the time limit; the run (its clock, and what is left of the limit)
        // starts with the model in hand.
        let built = match user::run::build(p, schema, f, options.time_limit) {
            Ok(b) => b,
            Err(e) => return Ok(e.into_result()),
        };
        let options = SolveOptions {
            time_limit: options.time_limit.map(|l| (l - built.seconds).max(0.0)),
            ..options.clone()
        };
        let run = Run::new(engine, kind, &options);
        let r = user::run::solve(p, schema, f, built, &run);
        Ok(finish(run, r))
    }
}

/// Ends a run: its timeline and run clock go into its report.
fn finish(run: Run, mut r: RunResult) -> RunResult {
    // What the formulation made of the engine's outcome (minimum-clue Sudoku turns an
    // infeasible leader into its best clue set, proven) ends the timeline, where it
    // improves on what was reported.
    run.budget.record_outcome(&r.outcome);
    run.budget.finish();
    r.trace = run.budget.trace();
    r.run_seconds = Some(run.budget.elapsed());
    r
}

fn unknown_formulation<'a>(puzzle: &str, key: &str, keys: impl Iterator<Item = &'a str>) -> String {
    let keys: Vec<&str> = keys.collect();
    format!(
        "unknown formulation '{key}' for {puzzle}; valid formulations: {}",
        keys.join(", ")
    )
}

/// A puzzle of the registry, whatever its instance type: what the CLI, the runner and
/// `reproduce` see.
pub trait Puzzle: Sync {
    /// Key on the command line and in result rows.
    fn key(&self) -> &'static str;
    /// One line describing the puzzle.
    fn description(&self) -> &'static str;
    /// Input formats, for `--help` and `list`.
    fn formats(&self) -> &'static str;
    /// Hidden from `list` (test-only puzzles).
    fn hidden(&self) -> bool;
    /// Its formulations, the default first.
    fn formulations(&self) -> Vec<FormulationInfo>;
    /// Reads every instance in a file.
    fn load(&self, path: &Path) -> Result<Vec<Box<dyn Instance>>, InputError>;
    /// What an instance's size counts, for the size axis of the plots (may be empty).
    fn size_unit(&self) -> &'static str;
    /// Its report tables.
    fn tables(&self) -> fn(&[Record]) -> Vec<Table>;
    /// What `reproduce` runs (`true`: the quick suite).
    fn suite(&self, quick: bool) -> Suite;
    /// Its generator, if it has one.
    fn generator(&self) -> Option<&'static crate::generate::Generator>;
    /// What its answer variables mean, when it takes formulations written outside Rust
    /// ([`user::UserSchema::meaning`]).
    fn user_meaning(&self) -> Option<&'static str>;

    /// Checks a formulation key; the error lists the valid ones.
    fn formulation(&self, key: &str) -> Result<FormulationInfo, String> {
        let all = self.formulations();
        let wanted = formulation_key(key);
        all.iter()
            .find(|f| f.key == wanted)
            .copied()
            .ok_or_else(|| unknown_formulation(self.key(), key, all.iter().map(|f| f.key)))
    }

    /// The default formulation.
    fn default_formulation(&self) -> &'static str {
        self.formulations()[0].key
    }
}

impl<P: Instance + 'static> Puzzle for PuzzleDef<P> {
    fn key(&self) -> &'static str {
        self.key
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn formats(&self) -> &'static str {
        self.formats
    }

    fn hidden(&self) -> bool {
        self.hidden
    }

    /// The built-in formulations, then those written outside Rust (`user:...`).
    fn formulations(&self) -> Vec<FormulationInfo> {
        let user = match self.user {
            Some(_) => user::registry::of_puzzle(self.key).collect(),
            None => Vec::new(),
        };
        self.formulations
            .iter()
            .map(|f| FormulationInfo {
                key: f.key,
                description: f.description,
                kind: f.kind,
                source: FormulationSource::BuiltIn,
            })
            .chain(user.into_iter().map(|f| FormulationInfo {
                key: f.key.as_str(),
                description: f.description.as_str(),
                kind: Kind::Mip,
                source: FormulationSource::Command,
            }))
            .collect()
    }

    fn load(&self, path: &Path) -> Result<Vec<Box<dyn Instance>>, InputError> {
        let text = read_text(path)?;
        Ok((self.parse)(path, &text)?
            .into_iter()
            .map(|p| Box::new(p) as Box<dyn Instance>)
            .collect())
    }

    fn size_unit(&self) -> &'static str {
        self.size_unit
    }

    fn tables(&self) -> fn(&[Record]) -> Vec<Table> {
        self.tables
    }

    fn suite(&self, quick: bool) -> Suite {
        (self.suite)(quick)
    }

    fn generator(&self) -> Option<&'static crate::generate::Generator> {
        self.generator
    }

    fn user_meaning(&self) -> Option<&'static str> {
        self.user.as_ref().map(|u| u.meaning)
    }
}

/// What `reproduce` runs for one puzzle: parts, each a set of instances with the
/// formulations to run on them. Every formulation runs on each engine chosen with
/// `reproduce --backend` that takes its kind (the default choice holds an engine for
/// every kind), so a part names no engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    /// The parts, in the order they run.
    pub parts: Vec<SuitePart>,
    /// Repeats of every run.
    pub repeats: u32,
}

/// Instances with the formulations, time limit and settings to run on them.
#[derive(Clone, Debug, PartialEq)]
pub struct SuitePart {
    /// Instance files or folders, relative to the instances folder (`instances/`).
    pub instances: Vec<&'static str>,
    /// Formulation keys.
    pub formulations: Vec<&'static str>,
    /// Time limit of each run in seconds.
    pub time_limit: f64,
    /// Presolve settings, each a sweep of its own (`[true]`: on only; the report measured
    /// some tables with presolve off). Engines without presolve run once.
    pub presolve: Vec<bool>,
    /// Search heuristics, each a sweep of its own on engines that take them (Zebra's
    /// Table 7.5); other engines run once.
    pub heuristics: Vec<Heuristics>,
    /// The part that compares engines: by default `reproduce` runs it on every installed
    /// engine and the other parts on one engine per kind of formulation
    /// (`highs,bc,propagate`); with `--backend` every part runs
    /// on the engines named. Its instances are few, and its time limit is that of the part
    /// holding the same instances, so the default engines' runs are shared.
    pub every_engine: bool,
    /// Engine keys this part runs on by default besides the default ones, where installed
    /// (nonograms: `sat`, since the paper's point is the same model on a MIP solver and a
    /// SAT solver; the parts of the report's Gurobi tables 3.1, 4.3, A.1–A.4 and 7.5:
    /// `gurobi`, the report's own solver). With `--backend` only the engines named run.
    pub also_on: Vec<&'static str>,
    /// Solutions to count in each run (`--count`; 1: solve only), for parts that count
    /// optimal solutions (n-Queens).
    pub count: u32,
    /// Repeats of every run of this part, when not the suite's ([`Suite::repeats`]): the
    /// engine comparison runs three times, so that the report measures the noise of the
    /// times it ranks. Repeats after the first run only where runs are cheap: when the
    /// first succeeded within [`REPEAT_GATE`] of the time limit (a run that fails or
    /// nears the limit would only spend it again).
    pub repeats: Option<u32>,
    /// How the instances of an engine comparison were chosen, for the report (one
    /// sentence; empty for other parts).
    pub chosen: &'static str,
}

impl SuitePart {
    /// A part with presolve on and the default heuristics.
    pub fn new(
        instances: Vec<&'static str>,
        formulations: Vec<&'static str>,
        time_limit: f64,
    ) -> SuitePart {
        SuitePart {
            instances,
            formulations,
            time_limit,
            presolve: vec![true],
            heuristics: vec![Heuristics::default()],
            every_engine: false,
            also_on: Vec::new(),
            count: 1,
            repeats: None,
            chosen: "",
        }
    }

    /// The same part, counting up to `count` solutions in each run ([`SuitePart::count`]).
    pub fn counting(self, count: u32) -> SuitePart {
        SuitePart { count, ..self }
    }

    /// The same part, run by default on `engines` too ([`SuitePart::also_on`]).
    pub fn also_on(self, engines: &[&'static str]) -> SuitePart {
        SuitePart {
            also_on: engines.to_vec(),
            ..self
        }
    }

    /// A part that compares every installed engine ([`SuitePart::every_engine`]) on
    /// instance files (not folders, so that the report knows them by name) chosen as
    /// `chosen` says, each run `repeats` times.
    pub fn engines(
        instances: Vec<&'static str>,
        formulations: Vec<&'static str>,
        time_limit: f64,
        repeats: u32,
        chosen: &'static str,
    ) -> SuitePart {
        SuitePart {
            every_engine: true,
            repeats: Some(repeats),
            chosen,
            ..SuitePart::new(instances, formulations, time_limit)
        }
    }
}

/// The fraction of the time limit within which a first run of an engine comparison must
/// succeed for its repeats to run ([`SuitePart::repeats`]).
pub const REPEAT_GATE: f64 = 0.1;

/// The instances of one puzzle's engine comparison in one suite, and how they were
/// chosen: what the report ranks the configurations on.
#[derive(Clone, Debug, PartialEq)]
pub struct ComparisonInstances {
    /// Puzzle key.
    pub puzzle: &'static str,
    /// The quick suite's comparison, or the full one's.
    pub quick: bool,
    /// The instances' names, as their rows give them, each with its time limit in
    /// seconds (that of its part).
    pub names: Vec<(String, f64)>,
    /// How they were chosen ([`SuitePart::chosen`] of each comparison part, joined).
    pub chosen: String,
}

/// The engine comparisons of every puzzle's quick and full suites, their instances read
/// from `instances_dir` (files it lacks or that do not read are left out).
pub fn comparison_instances(instances_dir: &Path) -> Vec<ComparisonInstances> {
    let mut out = Vec::new();
    for p in PUZZLES.iter().filter(|p| !p.hidden()) {
        for quick in [true, false] {
            let parts: Vec<SuitePart> = p
                .suite(quick)
                .parts
                .into_iter()
                .filter(|part| part.every_engine)
                .collect();
            let names: Vec<(String, f64)> = parts
                .iter()
                .flat_map(|part| part.instances.iter().map(|f| (f, part.time_limit)))
                .filter_map(|(file, limit)| Some((p.load(&instances_dir.join(file)).ok()?, limit)))
                .flat_map(|(loaded, limit)| {
                    loaded
                        .into_iter()
                        .map(move |i| (i.name().to_string(), limit))
                })
                .collect();
            if names.is_empty() {
                continue;
            }
            let mut chosen: Vec<&str> = parts.iter().map(|part| part.chosen).collect();
            chosen.dedup();
            out.push(ComparisonInstances {
                puzzle: p.key(),
                quick,
                names,
                chosen: chosen.join(" "),
            });
        }
    }
    out
}

/// Whether `f` is an instance file of a folder: not hidden, not `*.md`, not a ladder of
/// `race` (`ladder*.txt`).
pub fn is_instance_file(f: &Path) -> bool {
    let name = f
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let ladder = name.starts_with("ladder") && name.ends_with(".txt");
    !name.starts_with('.') && !name.ends_with(".md") && !ladder
}

/// The registry of puzzles. Adding a puzzle: its folder and a line here.
pub static PUZZLES: &[&dyn Puzzle] = &[
    &sudoku::PUZZLE,
    &battleship::PUZZLE,
    &circuit::PUZZLE,
    &hashi::PUZZLE,
    &zebra::PUZZLE,
    &kenken::PUZZLE,
    &nonogram::PUZZLE,
    &starbattle::PUZZLE,
    &queens::PUZZLE,
    &minclue::PUZZLE,
    &nonogram_givens::PUZZLE,
    &fault::PUZZLE,
];

/// The table functions of every puzzle, for the report.
pub fn table_functions() -> Vec<TableFn> {
    PUZZLES.iter().map(|p| p.tables()).collect()
}

/// What the instance size of every puzzle counts, as (puzzle key, unit) pairs, for
/// the report.
pub fn size_units() -> Vec<(&'static str, &'static str)> {
    PUZZLES.iter().map(|p| (p.key(), p.size_unit())).collect()
}

/// Looks a puzzle up by key; the error lists the valid keys.
pub fn puzzle(key: &str) -> Result<&'static dyn Puzzle, String> {
    PUZZLES
        .iter()
        .copied()
        .find(|p| p.key() == key)
        .ok_or_else(|| {
            let keys: Vec<&str> = PUZZLES
                .iter()
                .filter(|p| !p.hidden())
                .map(|p| p.key())
                .collect();
            format!("unknown puzzle '{key}'; valid puzzles: {}", keys.join(", "))
        })
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

/// A loaded puzzle instance, whatever the puzzle. A puzzle's instance type implements the
/// methods that describe it and names its registry entry ([`Instance::puzzle`]); building
/// and solving come with it ([`Solve`], from the entry).
pub trait Instance: Solve + Send + Sync {
    /// The instance name used in result rows.
    fn name(&self) -> &str;
    /// A canonical text of the instance, for run ids and for telling instances apart.
    fn canonical(&self) -> String;
    /// A size label for tables, e.g. `9x9`.
    fn size_label(&self) -> String;
    /// A number that orders instances by size, for plots: it counts the puzzle's
    /// [`PuzzleDef::size_unit`] (cells, islands, ...).
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
    /// The registry entry of its puzzle, whose formulations build and solve it.
    fn puzzle() -> &'static PuzzleDef<Self>
    where
        Self: Sized;
}

/// Building and solving an instance through its puzzle's registry entry: implemented once
/// for every [`Instance`], so a puzzle writes none of it.
pub trait Solve {
    /// Builds the model of a formulation (for export and counting): the puzzle's
    /// [`PuzzleDef::build`].
    fn build(&self, formulation: &str) -> Result<Model, String>;
    /// Builds, solves on `engine`, decodes and verifies: the puzzle's [`PuzzleDef::solve`].
    fn solve(
        &self,
        formulation: &str,
        engine: Engine,
        options: &SolveOptions,
    ) -> Result<RunResult, String>;
    /// The instance in its puzzle's JSON shape ([`user::UserSchema::instance`]); an error
    /// for a puzzle that has none.
    fn instance_json(&self) -> Result<serde_json::Value, String>;
}

impl<P: Instance + 'static> Solve for P {
    fn build(&self, formulation: &str) -> Result<Model, String> {
        P::puzzle().build(self, formulation)
    }

    fn solve(
        &self,
        formulation: &str,
        engine: Engine,
        options: &SolveOptions,
    ) -> Result<RunResult, String> {
        P::puzzle().solve(self, formulation, engine, options)
    }

    fn instance_json(&self) -> Result<serde_json::Value, String> {
        let def = P::puzzle();
        def.user
            .as_ref()
            .map(|u| (u.instance)(self))
            .ok_or_else(|| {
                format!(
                    "{} has no JSON form: it takes no formulations written outside Rust",
                    def.key
                )
            })
    }
}

/// Splits a line of a keyword format into its keyword and the rest, both trimmed, after
/// dropping a `#` comment: `"grid 3 4  # note"` gives `("grid", "3 4")`.
pub fn split_keyword(line: &str) -> (&str, &str) {
    let content = line.split('#').next().unwrap_or("").trim();
    content
        .split_once(char::is_whitespace)
        .map_or((content, ""), |(k, r)| (k, r.trim()))
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
