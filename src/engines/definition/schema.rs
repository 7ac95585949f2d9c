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
    #[serde(default)]
    version: Option<WrittenVersion>,
    input: String,
    #[serde(default)]
    command: Option<Vec<String>>,
    #[serde(default)]
    script: Option<String>,
    #[serde(default)]
    timeline: bool,
    #[serde(default)]
    enumerates: bool,
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
    #[serde(default)]
    licence: Option<WrittenLicence>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenLicence {
    terms: String,
    #[serde(default)]
    note: Option<String>,
}

/// What the report notes of an engine that runs under a vendor's licence (its
/// definition's `[licence]`): beside the versions that ran, what the size-limited
/// licence's terms say of publishing results, and the models its limits refuse.
#[derive(Clone, Debug, PartialEq)]
pub struct LicenceTerms {
    /// What the licence's terms say of publishing benchmark results (one sentence or
    /// two, for the tables' notes when the size-limited licence ran).
    pub terms: String,
    /// What the notes add after the versions that ran ("the report's tables used Gurobi
    /// 11.0.3"), or empty.
    pub note: String,
    /// The models the size limits refuse, as a note says it ("models over 2,000
    /// variables or 2,000 rows").
    pub limit: String,
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
    /// Most columns and rows together (Xpress's community licence).
    pub together: Option<usize>,
    /// The limits hold only when the engine's version line holds this text (a
    /// size-limited licence the driver's probe found: "size-limited licence"); a full
    /// licence the user has lifts them. Without it they always hold.
    pub when: Option<String>,
}

/// `n` with a comma between thousands.
pub(crate) fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Limits {
    /// The models these limits refuse, as a note says it ("models over 2,000 variables or
    /// 2,000 rows"; "no model" without limits).
    pub fn refused_phrase(&self) -> String {
        let n = thousands;
        let mut over = Vec::new();
        for (limit, what) in [
            (self.variables, "variables"),
            (self.rows, "rows"),
            (self.nonzeros, "nonzeros"),
        ] {
            if let Some(l) = limit {
                over.push(format!("{} {what}", n(l)));
            }
        }
        if let Some(t) = self.together {
            over.push(format!("{} rows and columns together", n(t)));
        }
        if over.is_empty() {
            "no model".into()
        } else {
            format!("models over {}", over.join(" or "))
        }
    }
}

/// What gives a definition's driver script by its name: its file and source, or why not.
pub type ScriptOf<'a> = dyn Fn(&str) -> Result<(PathBuf, String), String> + 'a;

/// How a definition's version is found.
#[derive(Clone, Debug)]
pub enum Version {
    /// A command, and the pattern whose one group is the version in its output.
    Command(Vec<String>, Regex),
    /// What the definition's driver script prints when run with the argument `probe`
    /// (docs/driver-protocol.md): its solver's name and version, and its licence.
    Probe,
}

/// A driver written in Python (`script`): run on the project's Python environment as a
/// built-in driver is, with the protocol module registered ahead of it, cold or forked by
/// its fork server.
#[derive(Clone, Debug)]
pub struct Script {
    /// Its file (for a built-in definition, its place in the source tree).
    pub file: PathBuf,
    /// The source to run (the module's registration, then the file).
    pub source: &'static str,
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
    /// How its version is found.
    pub version: Version,
    /// The model file's format.
    pub input: Input,
    /// The command, word by word, with placeholders (empty for a driver `script`).
    pub command: Vec<String>,
    /// Its driver, where it is a Python script run on the project's environment.
    pub script: Option<Script>,
    /// Its driver reports incumbents and bounds as it searches (a timeline).
    pub timeline: bool,
    /// Its driver enumerates solutions (`--count`): the `enumerate` message.
    pub enumerates: bool,
    /// The reader of the answer (None for a driver, which answers in the protocol).
    pub reader: Option<Reader>,
    /// Where the answer is read.
    pub source: Source,
    /// The kinds of problem it takes (integer programs, row generation, lazy rows through
    /// its driver's callback).
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
    /// What the report notes of its licence.
    pub licence: Option<LicenceTerms>,
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

    /// Checks the definition `text`, read from `file` (for messages); a driver `script` is
    /// read from the definition's folder.
    pub fn parse(text: &str, file: &Path) -> Result<Definition, String> {
        Definition::parse_with(text, file, &|name| {
            let path = Path::new(&folder_of(file)).join(name);
            std::fs::read_to_string(&path)
                .map(|source| (path.clone(), source))
                .map_err(|e| format!("script '{name}': cannot read {}: {e}", path.display()))
        })
    }

    /// Checks the definition `text`, read from `file` (for messages), whose driver
    /// `script` (a name) `script_of` gives as its file and source: the folder's file, or
    /// for a built-in definition the copy compiled into the binary.
    pub fn parse_with(
        text: &str,
        file: &Path,
        script_of: &ScriptOf<'_>,
    ) -> Result<Definition, String> {
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
        let driver = input == Input::Driver;
        let script = match (&w.command, &w.script) {
            (Some(_), Some(_)) => {
                return Err(at(
                    "script",
                    "script and command: a driver is a Python script or a command, not both".into(),
                ))
            }
            (_, Some(_)) if !driver => {
                return Err(at(
                    "script",
                    "script: only a driver (input = \"driver\") is a Python script".into(),
                ))
            }
            (None, None) if driver => {
                return Err(at(
                    "input",
                    "a driver needs a command or a script (a Python file beside the definition)"
                        .into(),
                ))
            }
            (None, None) => return Err(at("input", "no command".into())),
            (Some(c), None) if c.is_empty() => {
                return Err(at("command", "the command is empty".into()))
            }
            (Some(_), None) => None,
            (None, Some(name)) => {
                let (path, source) = script_of(name).map_err(|why| at("script", why))?;
                Some(Script {
                    file: path,
                    source: super::super::driver_source::composed(&source),
                })
            }
        };
        for (on, name) in [(w.timeline, "timeline"), (w.enumerates, "enumerates")] {
            if on && !driver {
                return Err(at(
                    name,
                    format!("{name}: only a driver (input = \"driver\") reports this"),
                ));
            }
        }
        if w.version.as_ref().is_some_and(|v| v.command.is_empty()) {
            return Err(at("version", "the version command is empty".into()));
        }
        if w.version.is_none() && script.is_none() {
            return Err(at(
                "key",
                "no version: a command needs one (version = { command = [...], pattern = \"...\" }); only a driver script has its probe".into(),
            ));
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
        let version = match &w.version {
            Some(v) => Some((v.command.clone(), pattern("version", &v.pattern, true)?)),
            None => None,
        };
        let kinds = match &w.takes {
            None => vec![Kind::Mip, Kind::RowGeneration],
            Some(keys) => keys
                .iter()
                .map(|k| match k.as_str() {
                    "mip" => Ok(Kind::Mip),
                    "row-generation" => Ok(Kind::RowGeneration),
                    "lazy-rows" if driver => Ok(Kind::LazyRows),
                    "lazy-rows" => Err(at(
                        "takes",
                        "takes 'lazy-rows': only a driver takes lazy rows (through its solver's callback)".into(),
                    )),
                    other => Err(at(
                        "takes",
                        format!("takes '{other}': a definition takes mip, row-generation and (a driver) lazy-rows"),
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
                .flatten()
                .map(|word| word.replace("{dir}", &dir))
                .collect()
        } else {
            w.command.unwrap_or_default()
        };
        let version = match version {
            Some((words, pattern)) => Version::Command(
                words
                    .iter()
                    .map(|word| word.replace("{dir}", &dir))
                    .collect(),
                pattern,
            ),
            None => Version::Probe,
        };
        Ok(Definition {
            key: w.key,
            description: w.description,
            file: file.to_path_buf(),
            version,
            input,
            command,
            script,
            timeline: w.timeline,
            enumerates: w.enumerates,
            licence: w.licence.map(|l| LicenceTerms {
                terms: l.terms,
                note: l.note.unwrap_or_default(),
                limit: w.limits.refused_phrase(),
            }),
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
        if let Some(word) = w.command.iter().flatten().find(other) {
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
        for word in w.command.iter().flatten() {
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
        let has = |p: &str| {
            w.command
                .iter()
                .flatten()
                .any(|word| placeholders(word).contains(&p))
        };
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
        let kinds: &'static [Kind] = match (
            self.kinds.contains(&Kind::RowGeneration),
            self.kinds.contains(&Kind::LazyRows),
        ) {
            (true, true) => &[Kind::Mip, Kind::RowGeneration, Kind::LazyRows],
            (true, false) => &[Kind::Mip, Kind::RowGeneration],
            (false, true) => &[Kind::Mip, Kind::LazyRows],
            (false, false) => &[Kind::Mip],
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
            timeline: self.timeline,
        }
    }
}
