//! The schema of an engine definition: the TOML as written ([`Written`]), its checks, and
//! the checked [`Definition`] with its capabilities ([`super`] explains the whole).

use super::{Input, Reader, Source};
use crate::engines::{Capabilities, Clock, Kind, Status};
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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

/// The largest [`Definition::grace`] a file may give, seconds (an hour): a grace is time a
/// solver may overrun its limit, and a larger one (`1e300`) would only overflow the clock.
pub const MAX_GRACE: f64 = 3600.0;

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
        if !(grace.is_finite() && (0.0..=MAX_GRACE).contains(&grace)) {
            return Err(at(
                "grace",
                format!("grace {grace}: seconds from 0 to {MAX_GRACE}"),
            ));
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
    pub(super) fn capabilities(&self) -> Capabilities {
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
}
