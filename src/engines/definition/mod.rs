//! Engine definitions: an engine added by a small TOML file instead of Rust
//! (`engines/<key>.toml`, docs/engines.md "Adding an engine without Rust"). A definition
//! names a command-line solver, the format of the model file it reads ([`Input`]), its
//! command line with placeholders, the reader of its answer ([`Reader`]) and, where it
//! needs them, patterns for its log and the meaning of its exit codes. [`Definition::load`]
//! reads and checks a file (every error names the file, and the line where it has one);
//! [`Definition::into_engine`] makes it an [`Engine`] like any other (leaked, as the
//! built-in engines are statics), which [`super::registry`] lists beside the built-ins.
//!
//! * **Settings**: a setting is applied when the command has its placeholder, and not
//!   applied (the row leaves it empty, as for glpk's threads) when it has not.
//! * **The run** ([`DefinedEngine`]): the model is written to a temporary file (always a
//!   minimisation, columns named by position: [`model_file`]), the command runs in a child
//!   process of its own group ([`external::run_watched`]), killed [`Definition::grace`]
//!   seconds after the run's deadline (the run is then `time_limit`, without a solution),
//!   and the answer is read from the solution file or standard output. Its values are
//!   checked against the model's bounds and integrality (to 1e-6) and its rows (to 1e-5
//!   of the size of their terms) before they count as a solution; integer columns are
//!   rounded. `seconds` is the whole call (the
//!   definition gives no solver time of its own), as is `call_seconds`.
//! * **Status**: killed at the deadline: `time_limit`; else the first of the log
//!   patterns that matches (`error`, `infeasible`, `time_limit`, `optimal`, `feasible`),
//!   else the exit code's meaning ([`Definition::exit_codes`]), else what the answer says.
//!   A solution with a status that proves nothing is `optimal` when the objective is
//!   constant (a feasibility puzzle), else `feasible`; a solution said `feasible` by a
//!   solver that takes no gap is `time_limit` (only its limit stopped it short of a proof).
//! * **CNF**: the model goes through the project's clause encoding
//!   ([`crate::engines::cnf`]), and an objective is minimised by calls that each ask for a
//!   better solution (the objective's bound added as clauses), the last call's
//!   "unsatisfiable" proving the optimum.

pub mod model_file;
pub mod readers;

pub use model_file::Input;
pub use readers::{Reader, Said, Source};

use super::cnf::{self, Encoder};
use super::external;
use super::mps_driver::{Launch, MpsDriver, SolveMessage};
use super::row_generation;
use super::{
    Budget, Capabilities, Clock, Declaration, Engine, EngineImpl, Kind, Outcome, Settings, Status,
};
use crate::lazy::Separator;
use crate::model::{Model, VarKind};
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

/// The placeholders a command may hold, each in braces.
pub const PLACEHOLDERS: &[&str] = &[
    "dir",
    "model",
    "solution",
    "time_limit",
    "time_limit_whole",
    "threads",
    "seed",
    "seed+1",
    "mip_gap",
    "presolve",
];

/// What `{time_limit}` and `{time_limit_whole}` give a run without a limit.
pub const NO_LIMIT: &str = "1000000000";

/// The default [`Definition::grace`], seconds: a run at a 1 s limit whose program is
/// killed ends within 1.5 s.
pub const DEFAULT_GRACE: f64 = 0.3;

/// A definition as written in its file (every key but these is an error).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    key: String,
    description: String,
    version: WrittenVersion,
    input: String,
    command: Vec<String>,
    #[serde(default)]
    reader: Option<String>,
    #[serde(default)]
    answer: Option<String>,
    #[serde(default)]
    applies: Option<Vec<String>>,
    #[serde(default)]
    takes: Option<Vec<String>>,
    #[serde(default)]
    variables: Option<String>,
    #[serde(default)]
    lp_relaxation: bool,
    #[serde(default)]
    limits: Limits,
    #[serde(default)]
    grace: Option<f64>,
    #[serde(default)]
    log: WrittenLog,
    #[serde(default)]
    exit_codes: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenVersion {
    command: Vec<String>,
    pattern: String,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct WrittenLog {
    optimal: Option<String>,
    feasible: Option<String>,
    infeasible: Option<String>,
    time_limit: Option<String>,
    error: Option<String>,
    objective: Option<String>,
    bound: Option<String>,
    nodes: Option<String>,
}

/// The size limits of a definition (a size-limited licence): a model over one is refused
/// with the numbers.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Most columns.
    pub variables: Option<usize>,
    /// Most rows.
    pub rows: Option<usize>,
    /// Most nonzero coefficients in the rows.
    pub nonzeros: Option<usize>,
}

/// The patterns a definition reads its solver's log with (standard output and error).
#[derive(Clone, Debug, Default)]
pub struct LogPatterns {
    /// Statuses, in the order they are tried: the first that matches gives the status.
    pub statuses: Vec<(Status, Regex)>,
    /// The objective of the answer (one group; the last match counts), in the model
    /// file's objective: for a solver that prints its values with fewer digits than its
    /// objective (lp_solve), else the objective is costed from the values.
    pub objective: Option<Regex>,
    /// The best bound (one group; the last match counts), in the model file's objective.
    pub bound: Option<Regex>,
    /// Search nodes (one group; the last match counts).
    pub nodes: Option<Regex>,
}

/// A checked engine definition.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The engine's key.
    pub key: String,
    /// One line describing it.
    pub description: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// The command that prints the version, and the pattern whose group is the version.
    pub version: (Vec<String>, Regex),
    /// The model file's format.
    pub input: Input,
    /// The command, word by word, with placeholders.
    pub command: Vec<String>,
    /// The reader of the answer (None for a driver, which answers in the protocol).
    pub reader: Option<Reader>,
    /// Where the answer is read.
    pub source: Source,
    /// The kinds of problem it takes (integer programs, row generation).
    pub kinds: Vec<Kind>,
    /// It takes integer columns beyond 0/1.
    pub general_integers: bool,
    /// It solves LP relaxations (the same command on the relaxed model).
    pub lp_relaxation: bool,
    /// Its size limits.
    pub limits: Limits,
    /// Seconds past the run's deadline before the program is killed.
    pub grace: f64,
    /// Its log patterns.
    pub log: LogPatterns,
    /// What its exit codes mean.
    pub exit_codes: Vec<(i32, Status)>,
    /// The settings a driver applies, of [`DRIVER_SETTINGS`] (a command line applies
    /// those whose placeholders it holds).
    pub applies: Vec<String>,
}

/// The settings a driver's solve message carries beside its deadline, which a driver
/// definition's `applies` may name (all of them when it names none).
pub const DRIVER_SETTINGS: &[&str] = &["threads", "seed", "mip_gap", "presolve"];

/// Reads the TOML `text` of the definition file `file` into `T`; the error names the file
/// and the line.
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(
    text: &str,
    file: &Path,
) -> Result<T, String> {
    toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| {
            text[..s.start.min(text.len())].matches('\n').count() + 1
        });
        format!("{}:{line}: {}", file.display(), e.message().trim_end())
    })
}

/// The folder of the definition file `file`, absolute where it can be made so: what
/// `{dir}` stands for.
pub(crate) fn folder_of(file: &Path) -> String {
    let dir = file.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    dir.canonicalize()
        .unwrap_or_else(|_| dir.to_path_buf())
        .display()
        .to_string()
}

/// The line of the first occurrence of `needle` in `text` (1 when absent).
fn line_of(text: &str, needle: &str) -> usize {
    text.find(needle)
        .map_or(1, |at| text[..at].matches('\n').count() + 1)
}

/// The line where `key` is given (`key = ...`, or `[key]`), else 1.
pub(crate) fn line_of_key(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
                || l.starts_with(&format!("[{key}]"))
        })
        .map_or(1, |i| i + 1)
}

/// The placeholders of `word`, in order (the names between braces).
pub(crate) fn placeholders(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = word;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                out.push(&after[..close]);
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out
}

fn status_of(key: &str) -> Option<Status> {
    match key {
        "optimal" => Some(Status::Optimal),
        "feasible" => Some(Status::Feasible),
        "infeasible" => Some(Status::Infeasible),
        "time_limit" => Some(Status::TimeLimit),
        "error" => Some(Status::Error),
        _ => None,
    }
}

impl Definition {
    /// Reads and checks the definition in `file`.
    pub fn load(file: &Path) -> Result<Definition, String> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("{}: cannot read the definition: {e}", file.display()))?;
        Definition::parse(&text, file)
    }

    /// Checks the definition `text`, read from `file` (for messages).
    pub fn parse(text: &str, file: &Path) -> Result<Definition, String> {
        let at = |key: &str, why: String| {
            format!("{}:{}: {why}", file.display(), line_of_key(text, key))
        };
        let w: Written = parse_toml(text, file)?;
        let key_ok = !w.key.is_empty()
            && w.key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !key_ok {
            return Err(at(
                "key",
                format!(
                    "key '{}': lower-case letters, digits, '-' and '_' only",
                    w.key
                ),
            ));
        }
        let input = Input::from_key(&w.input).ok_or_else(|| {
            at(
                "input",
                format!(
                    "unknown input '{}' (inputs: {})",
                    w.input,
                    Input::KEYS.join(", ")
                ),
            )
        })?;
        if w.command.is_empty() {
            return Err(at("command", "the command is empty".into()));
        }
        if w.version.command.is_empty() {
            return Err(at("version", "the version command is empty".into()));
        }
        let (reader, source, applies) = if input == Input::Driver {
            Definition::driver_keys(&w, &at)?
        } else {
            let key = w.reader.as_deref().ok_or_else(|| {
                at(
                    "input",
                    format!(
                        "no reader: an {} input needs one (readers: {})",
                        input.key(),
                        Reader::KEYS.join(", ")
                    ),
                )
            })?;
            let reader = Reader::from_key(key).ok_or_else(|| {
                at(
                    "reader",
                    format!(
                        "unknown reader '{key}' (readers: {})",
                        Reader::KEYS.join(", ")
                    ),
                )
            })?;
            let source = match w.answer.as_deref() {
                None => reader.default_source(),
                Some("file") => Source::File,
                Some("stdout") => Source::Stdout,
                Some(other) => {
                    return Err(at(
                        "answer",
                        format!("answer '{other}': 'file' (the {{solution}} file) or 'stdout'"),
                    ))
                }
            };
            if w.applies.is_some() {
                return Err(at(
                    "applies",
                    "applies: only a driver declares its settings this way; a command line applies the settings whose placeholders it holds".into(),
                ));
            }
            Definition::check_command(&w, text, file, reader, source)?;
            (Some(reader), source, Vec::new())
        };
        let pattern = |name: &str, p: &str, groups: bool| -> Result<Regex, String> {
            let r = Regex::new(p).map_err(|e| at(name, format!("{name}: bad pattern: {e}")))?;
            if groups && r.captures_len() != 2 {
                return Err(at(
                    name,
                    format!("{name}: the pattern needs exactly one group (…)"),
                ));
            }
            Ok(r)
        };
        let version = (
            w.version.command.clone(),
            pattern("version", &w.version.pattern, true)?,
        );
        let kinds = match &w.takes {
            None => vec![Kind::Mip, Kind::RowGeneration],
            Some(keys) => keys
                .iter()
                .map(|k| match k.as_str() {
                    "mip" => Ok(Kind::Mip),
                    "row-generation" => Ok(Kind::RowGeneration),
                    other => Err(at(
                        "takes",
                        format!("takes '{other}': a definition takes mip and row-generation"),
                    )),
                })
                .collect::<Result<_, _>>()?,
        };
        if !kinds.contains(&Kind::Mip) {
            return Err(at("takes", "takes: a definition takes at least mip".into()));
        }
        let general_integers = match w.variables.as_deref() {
            None => !input.binary_only(),
            Some("binary") => false,
            Some("general") if input.binary_only() => {
                return Err(at(
                    "variables",
                    format!(
                        "variables 'general': {} takes 0/1 columns only",
                        input.key()
                    ),
                ))
            }
            Some("general") => true,
            Some(other) => {
                return Err(at(
                    "variables",
                    format!("variables '{other}': 'binary' or 'general'"),
                ))
            }
        };
        if w.lp_relaxation && input.binary_only() {
            return Err(at(
                "lp_relaxation",
                format!("lp_relaxation: {} holds no continuous columns", input.key()),
            ));
        }
        let grace = w.grace.unwrap_or(DEFAULT_GRACE);
        if !(grace.is_finite() && grace >= 0.0) {
            return Err(at("grace", format!("grace {grace}: seconds, 0 or more")));
        }
        let mut statuses = Vec::new();
        for (name, p) in [
            ("error", &w.log.error),
            ("infeasible", &w.log.infeasible),
            ("time_limit", &w.log.time_limit),
            ("optimal", &w.log.optimal),
            ("feasible", &w.log.feasible),
        ] {
            if let Some(p) = p {
                statuses.push((status_of(name).expect("a status"), pattern(name, p, false)?));
            }
        }
        let log = LogPatterns {
            statuses,
            objective: w
                .log
                .objective
                .as_deref()
                .map(|p| pattern("objective", p, true))
                .transpose()?,
            bound: w
                .log
                .bound
                .as_deref()
                .map(|p| pattern("bound", p, true))
                .transpose()?,
            nodes: w
                .log
                .nodes
                .as_deref()
                .map(|p| pattern("nodes", p, true))
                .transpose()?,
        };
        let mut exit_codes = Vec::new();
        for (code, status) in &w.exit_codes {
            let c: i32 = code.parse().map_err(|_| {
                at(
                    "exit_codes",
                    format!("exit_codes: '{code}' is no exit code"),
                )
            })?;
            let s = status_of(status).ok_or_else(|| {
                at(
                    "exit_codes",
                    format!("exit_codes: '{status}' is none of optimal, feasible, infeasible, time_limit, error"),
                )
            })?;
            exit_codes.push((c, s));
        }
        let dir = folder_of(file);
        let command = if input == Input::Driver {
            w.command
                .iter()
                .map(|word| word.replace("{dir}", &dir))
                .collect()
        } else {
            w.command
        };
        let version = (
            version
                .0
                .iter()
                .map(|word| word.replace("{dir}", &dir))
                .collect(),
            version.1,
        );
        Ok(Definition {
            key: w.key,
            description: w.description,
            file: file.to_path_buf(),
            version,
            input,
            command,
            reader,
            source,
            applies,
            kinds,
            general_integers,
            lp_relaxation: w.lp_relaxation,
            limits: w.limits,
            grace,
            log,
            exit_codes,
        })
    }

    /// The reader, source and settings of a `driver` input (no reader, no placeholders,
    /// no log patterns or exit codes: a driver answers in the protocol).
    #[allow(clippy::type_complexity)]
    fn driver_keys(
        w: &Written,
        at: &dyn Fn(&str, String) -> String,
    ) -> Result<(Option<Reader>, Source, Vec<String>), String> {
        let protocol = "a driver answers in the protocol of docs/driver-protocol.md";
        if w.reader.is_some() {
            return Err(at(
                "reader",
                format!("reader: {protocol}, read by no reader"),
            ));
        }
        if w.answer.is_some() {
            return Err(at(
                "answer",
                format!("answer: {protocol}, on its standard output"),
            ));
        }
        let other = |word: &&String| placeholders(word).iter().any(|p| *p != "dir");
        if let Some(word) = w.command.iter().find(other) {
            return Err(at(
                "command",
                format!("the command of a driver takes no placeholder but {{dir}} ('{word}'): the model and the settings come in its messages"),
            ));
        }
        let log = &w.log;
        let any_log = [
            &log.optimal,
            &log.feasible,
            &log.infeasible,
            &log.time_limit,
            &log.error,
            &log.objective,
            &log.bound,
            &log.nodes,
        ]
        .iter()
        .any(|p| p.is_some());
        if any_log {
            return Err(at("log", format!("log: {protocol}, not in its log")));
        }
        if !w.exit_codes.is_empty() {
            return Err(at("exit_codes", format!("exit_codes: {protocol}")));
        }
        let applies = match &w.applies {
            None => DRIVER_SETTINGS.iter().map(|s| s.to_string()).collect(),
            Some(list) => {
                if let Some(bad) = list.iter().find(|s| !DRIVER_SETTINGS.contains(&s.as_str())) {
                    return Err(at(
                        "applies",
                        format!(
                            "applies: unknown setting '{bad}' (settings: {})",
                            DRIVER_SETTINGS.join(", ")
                        ),
                    ));
                }
                list.clone()
            }
        };
        Ok((None, Source::Stdout, applies))
    }

    /// Checks a command line's placeholders: each one known, the model file named, and
    /// the solution file where the answer is read from it.
    fn check_command(
        w: &Written,
        text: &str,
        file: &Path,
        reader: Reader,
        source: Source,
    ) -> Result<(), String> {
        let at = |key: &str, why: String| {
            format!("{}:{}: {why}", file.display(), line_of_key(text, key))
        };
        for word in &w.command {
            for p in placeholders(word) {
                if !PLACEHOLDERS.contains(&p) {
                    return Err(format!(
                        "{}:{}: unknown placeholder {{{p}}} (placeholders: {})",
                        file.display(),
                        line_of(text, &format!("{{{p}}}")),
                        PLACEHOLDERS
                            .iter()
                            .map(|p| format!("{{{p}}}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        let has = |p: &str| w.command.iter().any(|word| placeholders(word).contains(&p));
        if !has("model") {
            return Err(at(
                "command",
                "the command never names the model file, {model}".into(),
            ));
        }
        if source == Source::File && !has("solution") {
            return Err(at(
                "command",
                format!(
                    "the {} reader reads the solution file, which the command never names ({{solution}}); or set answer = \"stdout\"",
                    reader.key()
                ),
            ));
        }
        Ok(())
    }

    /// True when the definition applies the setting `name` (a placeholder of its command
    /// line, or a setting its driver applies).
    pub fn applies(&self, name: &str) -> bool {
        match self.input {
            Input::Driver => self.applies.iter().any(|s| s == name),
            _ => self.has(name),
        }
    }

    /// True when the command holds the placeholder `name`.
    pub fn has(&self, name: &str) -> bool {
        self.command
            .iter()
            .any(|word| placeholders(word).contains(&name))
    }

    /// What it declares: its kinds, variables (from its input), and the settings whose
    /// placeholders its command holds.
    fn capabilities(&self) -> Capabilities {
        let binary = self.input.binary_only();
        let kinds: &'static [Kind] = if self.kinds.contains(&Kind::RowGeneration) {
            &[Kind::Mip, Kind::RowGeneration]
        } else {
            &[Kind::Mip]
        };
        Capabilities {
            kinds,
            continuous: !binary,
            general_integers: self.general_integers,
            fractional_coefficients: !binary,
            lp_relaxation: self.lp_relaxation,
            incumbent_at_limit: true,
            clock: Clock::Wall,
            presolve: self.applies("presolve"),
            seed: self.applies("seed") || self.has("seed+1"),
            threads: self.applies("threads"),
            mip_gap: self.applies("mip_gap"),
            heuristics: false,
            clausal: false,
            external: true,
            general: true,
            timeline: false,
        }
    }

    /// The engine of this definition, leaked to live as long as the process (as the
    /// built-in engines, which are statics).
    pub fn into_engine(self) -> Engine {
        let declaration: &'static Declaration = Box::leak(Box::new(Declaration {
            key: Box::leak(self.key.clone().into_boxed_str()),
            description: Box::leak(self.description.clone().into_boxed_str()),
            capabilities: self.capabilities(),
        }));
        let engine: &'static DefinedEngine = Box::leak(Box::new(DefinedEngine {
            definition: self,
            declaration,
            version: OnceLock::new(),
        }));
        Engine::new(engine)
    }
}

/// The engine a [`Definition`] makes.
pub struct DefinedEngine {
    definition: Definition,
    declaration: &'static Declaration,
    version: OnceLock<String>,
}

/// What one call of the program gave.
struct Call {
    /// Its status, where something said one (killed: `time_limit`).
    status: Option<Status>,
    /// The reason of an `error` status, or a note.
    message: Option<String>,
    /// The values the answer gave, by name.
    values: Option<Vec<(String, f64)>>,
    /// The objective its log gave (the model file's objective).
    objective: Option<f64>,
    /// The bound its log gave (the model file's objective).
    bound: Option<f64>,
    /// Nodes its log gave.
    nodes: Option<u64>,
    /// Wall seconds of the call.
    seconds: f64,
}

impl DefinedEngine {
    /// Its definition.
    pub fn definition(&self) -> &Definition {
        &self.definition
    }

    /// The command's words for one call.
    fn words(
        &self,
        model: &Path,
        solution: &Path,
        settings: &Settings,
        budget: &Budget,
    ) -> Vec<String> {
        let left = budget.left();
        let value = |p: &str| -> String {
            match p {
                "dir" => folder_of(&self.definition.file),
                "model" => model.display().to_string(),
                "solution" => solution.display().to_string(),
                "time_limit" => left.map_or(NO_LIMIT.into(), |l| format!("{:.3}", l.max(0.001))),
                "time_limit_whole" => left.map_or(NO_LIMIT.into(), |l| {
                    format!("{}", l.round().max(1.0) as u64)
                }),
                "threads" => settings.threads.unwrap_or(1).to_string(),
                "seed" => settings.seed.unwrap_or(0).to_string(),
                "seed+1" => (settings.seed.unwrap_or(0) + 1).to_string(),
                "mip_gap" => settings.mip_gap.unwrap_or(0.0).to_string(),
                "presolve" => if settings.presolve == Some(false) {
                    "off"
                } else {
                    "on"
                }
                .into(),
                _ => unreachable!("placeholders are checked when the definition is read"),
            }
        };
        self.definition
            .command
            .iter()
            .map(|word| {
                let mut out = word.clone();
                for p in placeholders(word) {
                    out = out.replacen(&format!("{{{p}}}"), &value(p), 1);
                }
                out
            })
            .collect()
    }

    /// The column that `name` names in the model file (`None`: no column of `n`).
    fn column(&self, name: &str, n: usize) -> Option<usize> {
        let digits = match self.definition.input {
            Input::Mps | Input::Lp | Input::Driver => name.strip_prefix('C')?,
            Input::Opb => name.strip_prefix('x')?,
            Input::Cnf => name,
        };
        let k: usize = digits.parse().ok()?;
        let j = match self.definition.input {
            Input::Mps | Input::Lp | Input::Driver => k,
            Input::Opb | Input::Cnf => k.checked_sub(1)?,
        };
        (j < n && digits == k.to_string()).then_some(j)
    }

    /// Runs the program once on the model file `text` of a model of `n` columns.
    fn call(
        &self,
        text: &str,
        n: usize,
        settings: &Settings,
        budget: &Budget,
    ) -> Result<Call, Box<Outcome>> {
        let d = &self.definition;
        let started = Instant::now();
        if budget.left().is_some_and(|l| l <= 0.0) {
            return Err(Box::new(Outcome::time_limit(0.0)));
        }
        let model = external::temp_file(text, d.input.suffix())
            .map_err(|e| Box::new(Outcome::error(e, 0.0)))?;
        let solution =
            external::temp_file("", ".sol").map_err(|e| Box::new(Outcome::error(e, 0.0)))?;
        let words = self.words(&model, &solution, settings, budget);
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..]);
        let finished = external::run_watched(
            cmd,
            Vec::new(),
            budget,
            started,
            d.grace,
            &|_: Instant, _: &str| {},
        )
        .map_err(|e| Box::new(Outcome::error(format!("{}: {e}", d.key), 0.0)))?;
        let seconds = started.elapsed().as_secs_f64();
        let program = &words[0];
        if finished.killed {
            return Ok(Call {
                status: Some(Status::TimeLimit),
                message: Some(format!(
                    "killed {} s after the run's deadline ({program} had not stopped at its limit)",
                    d.grace
                )),
                values: None,
                objective: None,
                bound: None,
                nodes: None,
                seconds,
            });
        }
        let log = format!("{}\n{}", finished.stdout, finished.stderr);
        let (answer, place) = match d.source {
            Source::File => (
                std::fs::read_to_string(&solution).unwrap_or_default(),
                format!("the solution file {}", solution.display()),
            ),
            Source::Stdout => (
                finished.stdout.clone(),
                format!("the standard output of {program}"),
            ),
        };
        let reader = d.reader.expect("a command line's definition has a reader");
        let reading = reader
            .read(&answer, &|name: &str| self.column(name, n).is_some())
            .map_err(|e| {
                Box::new(Outcome {
                    call_seconds: Some(seconds),
                    version: Some(self.version()),
                    ..Outcome::error(
                        format!(
                            "{}: the {} reader cannot read {place}, {e}",
                            d.key,
                            reader.key()
                        ),
                        seconds,
                    )
                })
            })?;
        let last = |r: &Regex| -> Option<String> {
            r.captures_iter(&log)
                .last()
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().to_string())
        };
        let mut message = None;
        let mut status = d.log.statuses.iter().find_map(|(s, r)| {
            r.find(&log).map(|m| {
                if *s == Status::Error {
                    let from = log[..m.start()].rfind('\n').map_or(0, |i| i + 1);
                    let to = log[m.start()..]
                        .find('\n')
                        .map_or(log.len(), |i| m.start() + i);
                    message = Some(format!("{program} said: {}", log[from..to].trim()));
                }
                *s
            })
        });
        if status.is_none() {
            status = finished.code.and_then(|c| {
                d.exit_codes
                    .iter()
                    .find(|(code, _)| *code == c)
                    .map(|(_, s)| *s)
            });
            if status == Some(Status::Error) {
                message = Some(format!(
                    "{program} ended with exit code {}",
                    finished.code.unwrap_or(-1)
                ));
            }
        }
        if status.is_none() {
            status = match reading.status {
                Some(Said::Optimal) => Some(Status::Optimal),
                Some(Said::Feasible) => Some(Status::Feasible),
                Some(Said::Infeasible) => Some(Status::Infeasible),
                Some(Said::TimeLimit) => Some(Status::TimeLimit),
                Some(Said::Error(why)) => {
                    message = Some(why);
                    Some(Status::Error)
                }
                None => None,
            };
        }
        if status.is_none() && reading.values.is_none() && !budget.expired() {
            let tail = |s: &str| {
                s.lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .map(str::to_string)
            };
            let last_line = tail(&finished.stderr)
                .or_else(|| tail(&finished.stdout))
                .unwrap_or_else(|| "no output".into());
            message = Some(format!(
                "{program} gave no answer ({}): {last_line}",
                finished
                    .code
                    .map_or("ended by a signal".to_string(), |c| format!(
                        "exit code {c}"
                    ))
            ));
            status = Some(Status::Error);
        }
        Ok(Call {
            status,
            message,
            values: reading.values,
            objective: d
                .log
                .objective
                .as_ref()
                .and_then(last)
                .and_then(|b| b.parse().ok()),
            bound: d
                .log
                .bound
                .as_ref()
                .and_then(last)
                .and_then(|b| b.parse().ok()),
            nodes: d
                .log
                .nodes
                .as_ref()
                .and_then(last)
                .and_then(|b| b.parse().ok()),
            seconds,
        })
    }

    /// The values of `model`'s columns from an answer's `pairs`: a column the answer
    /// leaves out is 0 where its bounds allow (solution files that list nonzeros only),
    /// integer columns are rounded; the error says why the values are no solution.
    fn solution(&self, model: &Model, pairs: &[(String, f64)]) -> Result<Vec<f64>, String> {
        let n = model.vars.len();
        let mut x: Vec<Option<f64>> = vec![None; n];
        for (name, v) in pairs {
            if let Some(j) = self.column(name, n) {
                x[j] = Some(*v);
            }
        }
        self.checked(model, x)
    }

    /// `x` (`None`: a column the answer left out) checked as [`DefinedEngine::solution`]
    /// says.
    fn checked(&self, model: &Model, x: Vec<Option<f64>>) -> Result<Vec<f64>, String> {
        let tol = 1e-6;
        let mut out = Vec::with_capacity(x.len());
        for (j, (v, value)) in model.vars.iter().zip(x).enumerate() {
            let name = self.definition.input.column_name(j);
            let mut value = match value {
                Some(value) => value,
                None if v.lower <= 0.0 && 0.0 <= v.upper => 0.0,
                None => {
                    return Err(format!(
                        "the answer gives no value for column {name} ({})",
                        v.name
                    ))
                }
            };
            if v.kind != VarKind::Continuous {
                if (value - value.round()).abs() > tol {
                    return Err(format!(
                        "column {name} ({}) is integer, but the answer gives it {value}",
                        v.name
                    ));
                }
                value = value.round();
            }
            if value < v.lower - tol || value > v.upper + tol {
                return Err(format!(
                    "the answer gives column {name} ({}) {value}, outside its bounds",
                    v.name
                ));
            }
            out.push(value);
        }
        // Rows to 1e-5 of the size of their terms: an answer printed with six digits
        // (lp_solve's) is off by up to 5e-6 of each value.
        for (i, r) in model.rows.iter().enumerate() {
            let a: f64 = r.terms.iter().map(|&(v, c)| c * out[v.0]).sum();
            let size: f64 = r.terms.iter().map(|&(v, c)| (c * out[v.0]).abs()).sum();
            let slack = 10.0 * tol * (1.0 + size);
            if a < r.lower - slack || a > r.upper + slack {
                return Err(format!(
                    "the answer breaks row R{i} ({}): its activity is {a}",
                    r.name
                ));
            }
        }
        Ok(out)
    }

    /// Why the definition's limits refuse a model of this size, if they do.
    fn size_refusal(&self, model: &Model) -> Option<String> {
        let c = model.counts();
        let l = &self.definition.limits;
        let t = super::gurobi::thousands;
        let mut takes = Vec::new();
        let mut over = Vec::new();
        for (limit, has, what) in [
            (l.variables, c.variables, "variables"),
            (l.rows, c.constraints, "rows"),
            (l.nonzeros, c.nonzeros, "nonzeros"),
        ] {
            if let Some(limit) = limit {
                takes.push(format!("{} {what}", t(limit)));
                if has > limit {
                    over.push(format!("{} {what}", t(has)));
                }
            }
        }
        (!over.is_empty()).then(|| {
            format!(
                "its size limits ({}) take at most {}; this model has {}",
                self.definition.file.display(),
                takes.join(", "),
                over.join(" and ")
            )
        })
    }

    /// One integer program (or LP) through a model file in MPS, LP or OPB.
    fn solve_file(
        &self,
        model: &Model,
        text: &str,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        let call = match self.call(text, model.vars.len(), settings, budget) {
            Ok(c) => c,
            Err(o) => return *o,
        };
        let constant = model.vars.iter().all(|v| v.objective == 0.0);
        let mut message = call.message;
        let mut status = call.status;
        let mut values = None;
        if let Some(pairs) = &call.values {
            if status != Some(Status::Infeasible) && status != Some(Status::Error) {
                match self.solution(model, pairs) {
                    Ok(x) => values = Some(x),
                    Err(why) if status == Some(Status::TimeLimit) => {
                        message = Some(format!("its incumbent was dropped: {why}"))
                    }
                    Err(why) => {
                        status = Some(Status::Error);
                        message = Some(format!("{}: {why}", self.definition.key));
                    }
                }
            }
        }
        let status = match status {
            Some(Status::Feasible) if constant && values.is_some() => Status::Optimal,
            // Short of a proof, only its limit stops a solver that takes no gap (a PB
            // solver's "s SATISFIABLE" at its time limit): its solution is an incumbent.
            Some(Status::Feasible) if values.is_some() && !self.definition.applies("mip_gap") => {
                Status::TimeLimit
            }
            Some(s @ (Status::Optimal | Status::Feasible)) if values.is_none() => {
                message = Some(format!(
                    "{}: the answer says {} but gives no solution",
                    self.definition.key,
                    s.key()
                ));
                Status::Error
            }
            Some(s) => s,
            None if values.is_some() && constant => Status::Optimal,
            None if values.is_some() => {
                message = Some(
                    "no status was read (the definition gives no log pattern for `optimal`)".into(),
                );
                Status::Feasible
            }
            None => Status::TimeLimit,
        };
        let sign = if model.sense == crate::model::Sense::Maximize {
            -1.0
        } else {
            1.0
        };
        let values = values.filter(|_| status != Status::Error);
        let logged = call
            .objective
            .filter(|z| z.is_finite())
            .map(|z| sign * z + model.objective_offset);
        Outcome {
            objective: values
                .as_deref()
                .map(|v| logged.unwrap_or_else(|| model.objective_value(v))),
            best_bound: call
                .bound
                .filter(|b| b.is_finite())
                .map(|b| sign * b + model.objective_offset),
            nodes: call.nodes,
            values,
            message: message.filter(|_| status != Status::Optimal && status != Status::Infeasible),
            call_seconds: Some(call.seconds),
            version: Some(self.version()),
            ..Outcome::with_status(status, call.seconds)
        }
    }

    /// A driver's answer for `model` checked as a command line's is: its values within
    /// the model's bounds, integrality and rows ([`DefinedEngine::checked`]), a claimed
    /// solution that comes without them an error; the version is the definition's.
    fn driver_outcome(&self, model: &Model, mut outcome: Outcome) -> Outcome {
        let key = &self.definition.key;
        outcome.version = Some(self.version());
        if let Some(values) = outcome.values.take() {
            match self.checked(model, values.into_iter().map(Some).collect()) {
                Ok(x) => {
                    outcome.objective = Some(model.objective_value(&x));
                    outcome.values = Some(x);
                }
                Err(why) if outcome.status == Status::TimeLimit => {
                    outcome.objective = None;
                    outcome.message = Some(format!("its incumbent was dropped: {why}"));
                }
                Err(why) => {
                    return Outcome {
                        version: outcome.version,
                        call_seconds: outcome.call_seconds,
                        ..Outcome::error(format!("{key}: {why}"), outcome.seconds)
                    };
                }
            }
        } else if matches!(outcome.status, Status::Optimal | Status::Feasible) {
            return Outcome {
                version: outcome.version,
                call_seconds: outcome.call_seconds,
                ..Outcome::error(
                    format!(
                        "{key}: the driver says {} but gives no values (one per column, in the model's order)",
                        outcome.status.key()
                    ),
                    outcome.seconds,
                )
            };
        }
        outcome
    }

    /// One integer program through DIMACS CNF: the clause encoding, then calls that each
    /// ask for a solution better than the last (an objective's bound added as clauses),
    /// until one says unsatisfiable (the last solution is optimal) or the budget ends.
    fn solve_cnf(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        use rustsat::instances::ManageVars as _;
        let start = Instant::now();
        let done =
            |status: Status, best: Option<Vec<f64>>, calls: u64, message: Option<String>| Outcome {
                objective: best.as_deref().map(|v| model.objective_value(v)),
                values: best,
                message,
                rounds: Some(calls),
                call_seconds: Some(start.elapsed().as_secs_f64()),
                version: Some(self.version()),
                ..Outcome::with_status(status, start.elapsed().as_secs_f64())
            };
        let fixed = match cnf::fixings(model) {
            Ok(f) => f,
            Err(_) => return done(Status::Infeasible, None, 0, None),
        };
        let mut enc = Encoder::new(fixed);
        let mut clauses = rustsat::instances::Cnf::new();
        if let Err(e) = enc.model(model, &mut clauses) {
            return Outcome::refused(format!("unsupported by {}: {e}", self.definition.key), 0.0);
        }
        let objective = model_file::minimised_objective(model);
        let n = model.vars.len();
        let mut best: Option<Vec<f64>> = None;
        let mut calls = 0;
        loop {
            if clauses.iter().any(|c| c.is_empty()) {
                let s = if best.is_some() {
                    Status::Optimal
                } else {
                    Status::Infeasible
                };
                return done(s, best, calls, None);
            }
            if budget.expired() {
                return done(Status::TimeLimit, best, calls, None);
            }
            let text = model_file::dimacs(&clauses, enc.vars().n_used());
            calls += 1;
            let call = match self.call(&text, n, settings, budget) {
                Ok(c) => c,
                Err(o) if o.status == Status::TimeLimit => {
                    return done(Status::TimeLimit, best, calls, None)
                }
                Err(o) => {
                    return Outcome {
                        rounds: Some(calls),
                        ..*o
                    }
                }
            };
            match (call.status, &call.values) {
                (Some(Status::Infeasible), _) => {
                    let s = if best.is_some() {
                        Status::Optimal
                    } else {
                        Status::Infeasible
                    };
                    return done(s, best, calls, None);
                }
                (Some(Status::Optimal | Status::Feasible) | None, Some(pairs)) => {
                    // The fixed columns are the encoding's; a free column a solver left
                    // out is 0.
                    let mut x = vec![None; n];
                    for (name, v) in pairs {
                        if let Some(j) = self.column(name, n) {
                            x[j] = Some(*v);
                        }
                    }
                    let x: Vec<Option<f64>> = (0..n)
                        .map(|j| match enc.fixed(j) {
                            Some(b) => Some(f64::from(u8::from(b))),
                            None => x[j],
                        })
                        .collect();
                    let x = match self.checked(model, x) {
                        Ok(x) => x,
                        Err(why) => {
                            let why = format!("{}: {why}", self.definition.key);
                            return done(Status::Error, None, calls, Some(why));
                        }
                    };
                    budget.incumbent(model.objective_value(&x));
                    let cost: f64 = objective.iter().map(|&(v, c)| c * x[v.0]).sum();
                    best = Some(x);
                    if objective.is_empty() {
                        return done(Status::Optimal, best, calls, None);
                    }
                    if let Err(e) = enc.row(&objective, f64::NEG_INFINITY, cost - 1.0, &mut clauses)
                    {
                        return done(
                            Status::Error,
                            best,
                            calls,
                            Some(format!("bounding the objective: {e}")),
                        );
                    }
                }
                (Some(Status::Error), _) => {
                    return done(Status::Error, None, calls, call.message);
                }
                (Some(Status::Optimal | Status::Feasible), None) => {
                    return done(
                        Status::Error,
                        None,
                        calls,
                        Some(format!(
                            "{}: the answer says satisfiable but gives no values",
                            self.definition.key
                        )),
                    );
                }
                (Some(Status::TimeLimit) | Some(Status::Refused) | None, _) => {
                    return done(Status::TimeLimit, best, calls, call.message);
                }
            }
        }
    }
}

impl EngineImpl for DefinedEngine {
    fn declaration(&self) -> &'static Declaration {
        self.declaration
    }

    fn version(&self) -> String {
        self.version
            .get_or_init(|| {
                let (command, pattern) = &self.definition.version;
                let key = &self.definition.key;
                let mut cmd = Command::new(&command[0]);
                cmd.args(&command[1..]);
                let out = match external::run_watched(
                    cmd,
                    Vec::new(),
                    &Budget::new(Some(10.0)),
                    Instant::now(),
                    0.0,
                    &|_: Instant, _: &str| {},
                ) {
                    Ok(o) => o,
                    Err(e) if e.starts_with("not installed") => return e,
                    Err(e) => return format!("not installed: {e}"),
                };
                let text = format!("{}\n{}", out.stdout, out.stderr);
                match pattern.captures(&text).and_then(|c| c.get(1)) {
                    Some(v) => format!("{key} {}", v.as_str().trim()),
                    None => format!(
                        "not installed: '{}' printed no version (nothing matches '{}')",
                        command.join(" "),
                        pattern.as_str()
                    ),
                }
            })
            .clone()
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        self.size_refusal(model)
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        if let Some(why) = self.size_refusal(model) {
            return Outcome::refused(
                format!("unsupported by {}: {why}", self.definition.key),
                0.0,
            );
        }
        match self.definition.input {
            Input::Mps => self.solve_file(model, &model_file::mps(model), settings, budget),
            Input::Lp => self.solve_file(model, &model_file::lp(model), settings, budget),
            Input::Opb => match model_file::opb(model) {
                Ok(text) => self.solve_file(model, &text, settings, budget),
                Err(why) => Outcome::refused(
                    format!("unsupported by {}: {why}", self.definition.key),
                    0.0,
                ),
            },
            Input::Cnf => self.solve_cnf(model, settings, budget),
            Input::Driver => {
                let mut driver = MpsDriver::launched(Launch::Program(&self.definition.command));
                let outcome =
                    driver.solve(model, &SolveMessage::new("solve", settings, budget), budget);
                let outcome = driver.finish(outcome);
                self.driver_outcome(model, outcome)
            }
        }
    }

    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        if self.definition.input != Input::Driver {
            return row_generation::solve(model, separator, budget, |m, _, round| {
                self.solve_mip(m, settings, round)
            });
        }
        // One driver process for the whole loop: each round sends the rows found since.
        let mut driver = MpsDriver::launched(Launch::Program(&self.definition.command));
        let outcome = row_generation::solve(model, separator, budget, |m, _, round| {
            if let Some(why) = self.size_refusal(m) {
                return Outcome::refused(
                    format!("unsupported by {}: {why}", self.definition.key),
                    0.0,
                );
            }
            let outcome = driver.solve(m, &SolveMessage::new("solve", settings, round), round);
            self.driver_outcome(m, outcome)
        });
        driver.finish(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CBC: &str = r#"key = "t-cbc"
description = "a test"
version = { command = ["cbc", "-quit"], pattern = "Version: (\\S+)" }
input = "mps"
command = ["cbc", "{model}", "sec", "{time_limit}", "threads", "{threads}", "randomCbcSeed", "{seed+1}", "solve", "solution", "{solution}"]
reader = "cbc"
limits = { variables = 2, rows = 5 }
"#;

    fn parse(text: &str) -> Result<Definition, String> {
        Definition::parse(text, Path::new("defs/t.toml"))
    }

    #[test]
    fn settings_are_applied_where_the_command_has_their_placeholders() {
        let d = parse(CBC).unwrap();
        let c = d.capabilities();
        assert!(c.threads && c.seed && !c.mip_gap && !c.presolve);
        assert!(c.continuous && c.general_integers && !c.lp_relaxation);
        assert_eq!(c.kinds, &[Kind::Mip, Kind::RowGeneration]);
        let e = d.into_engine();
        let s = e.settings(
            Kind::Mip,
            &crate::engines::SolveOptions {
                seed: 7,
                threads: 2,
                ..Default::default()
            },
        );
        assert_eq!(
            (s.threads, s.seed, s.mip_gap, s.presolve),
            (Some(2), Some(7), None, None)
        );
    }

    #[test]
    fn the_words_of_a_call() {
        let d = parse(CBC).unwrap();
        let engine = DefinedEngine {
            definition: d,
            declaration: Box::leak(Box::new(Declaration {
                key: "t-cbc",
                description: "",
                capabilities: Capabilities::MIP,
            })),
            version: OnceLock::new(),
        };
        let settings = Settings {
            threads: Some(2),
            seed: Some(7),
            ..Settings::default()
        };
        let w = engine.words(
            Path::new("/tmp/m.mps"),
            Path::new("/tmp/s.sol"),
            &settings,
            &Budget::unlimited(),
        );
        assert_eq!(w[1], "/tmp/m.mps");
        assert_eq!(w[3], NO_LIMIT);
        assert_eq!((w[5].as_str(), w[7].as_str()), ("2", "8"));
        let w = engine.words(
            Path::new("m"),
            Path::new("s"),
            &settings,
            &Budget::new(Some(2.5)),
        );
        let left: f64 = w[3].parse().unwrap();
        assert!(left > 2.0 && left <= 2.5, "{left}");
        // Columns by position; other names are none.
        assert_eq!(engine.column("C1", 2), Some(1));
        assert_eq!(engine.column("C2", 2), None);
        assert_eq!(engine.column("C01", 2), None);
        assert_eq!(engine.column("R0", 2), None);
    }

    #[test]
    fn size_limits_refuse_with_the_numbers() {
        let e = parse(CBC).unwrap().into_engine();
        let mut m = Model::new("m");
        for j in 0..3 {
            m.add_binary(format!("x{j}"));
        }
        let why = e.model_refusal(&m).unwrap();
        assert!(
            why.contains("at most 2 variables, 5 rows")
                && why.contains("this model has 3 variables"),
            "{why}"
        );
    }

    #[test]
    fn mistakes_name_the_file_and_line() {
        let cases = [
            (
                CBC.replace("{threads}", "{thread}"),
                5,
                "unknown placeholder {thread}",
            ),
            (
                CBC.replace("\"cbc\"\nlimits", "\"xml\"\nlimits"),
                6,
                "unknown reader 'xml'",
            ),
            (CBC.replace("\"mps\"", "\"gms\""), 4, "unknown input 'gms'"),
            (
                CBC.replace("Version: (\\\\S+)", "Version"),
                3,
                "exactly one group",
            ),
            (
                CBC.replace("\"solution\", \"{solution}\"", "\"x\""),
                5,
                "never names ({solution})",
            ),
            (format!("{CBC}nodes = 3\n"), 8, "nodes"),
            (
                format!("{CBC}takes = [\"lazy-rows\"]\n"),
                8,
                "takes 'lazy-rows'",
            ),
            (
                CBC.replace("\"mps\"", "\"opb\"") + "variables = \"general\"\n",
                8,
                "0/1 columns only",
            ),
        ];
        for (text, line, why) in cases {
            let e = parse(&text).unwrap_err();
            assert!(
                e.starts_with(&format!("defs/t.toml:{line}: ")) && e.contains(why),
                "{e} (wanted line {line}: {why})"
            );
        }
    }
}
