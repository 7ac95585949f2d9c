//! Random instances for `puzzlebench generate PUZZLE`: each puzzle that can make its own
//! instances declares a [`Generator`] in its registry entry (its parameters and a function
//! that makes one instance from them and a seed), and the command line builds the
//! subcommand from that declaration, so a new puzzle's generator needs no hand-written
//! subcommand. Every generator also takes `--seed` (of the first instance; instance k
//! uses seed + k − 1), `--count` and `--out` (a new file, never overwritten; standard
//! output by default), handled once in [`write`].

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

/// A puzzle's generator.
pub struct Generator {
    /// What it makes, for `generate PUZZLE --help` (first line: the short help).
    pub about: &'static str,
    /// Its own parameters (besides `--seed`, `--count` and `--out`).
    pub params: &'static [Param],
    /// Makes the text of one instance, in the puzzle's own format, from the parameters and
    /// a seed; the same parameters and seed give the same text. An error names the
    /// parameter that is wrong.
    pub make: fn(&Params, u64) -> Result<String, String>,
    /// What goes between two instances of one output with these parameters (`--count`
    /// above 1): nothing for formats whose instances follow each other ([`concatenated`]),
    /// a divider line for a bundle; an error when the format holds one instance per file.
    pub separator: fn(&Params) -> Result<&'static str, String>,
}

/// The separator of formats whose instances simply follow each other.
pub fn concatenated(_: &Params) -> Result<&'static str, String> {
    Ok("")
}

/// One parameter of a generator: `--NAME VALUE`, or a flag `--NAME`.
pub struct Param {
    /// The name, without the dashes.
    pub name: &'static str,
    /// What it means, for `--help`.
    pub help: &'static str,
    /// The placeholder of its value in `--help` (`None`: a flag without value).
    pub value: Option<&'static str>,
    /// Its default, if it has one.
    pub default: Option<&'static str>,
}

impl Param {
    /// `--rows R`: the rows of a grid.
    pub const ROWS: Param = Param::value("rows", "R", "Rows of the grid");

    /// `--cols C`: the columns of a grid.
    pub const COLS: Param = Param::value("cols", "C", "Columns of the grid");

    /// `--NAME VALUE`, with no default.
    pub const fn value(name: &'static str, value: &'static str, help: &'static str) -> Param {
        Param {
            name,
            help,
            value: Some(value),
            default: None,
        }
    }

    /// `--NAME VALUE` with a default.
    pub const fn defaulted(
        name: &'static str,
        value: &'static str,
        default: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            name,
            help,
            value: Some(value),
            default: Some(default),
        }
    }

    /// A flag `--NAME`.
    pub const fn flag(name: &'static str, help: &'static str) -> Param {
        Param {
            name,
            help,
            value: None,
            default: None,
        }
    }
}

/// The values given to a generator: every parameter given or defaulted, by name (a flag
/// given has the value `true`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params {
    values: BTreeMap<String, String>,
}

impl Params {
    /// The parameters with these values.
    pub fn new(values: impl IntoIterator<Item = (String, String)>) -> Params {
        Params {
            values: values.into_iter().collect(),
        }
    }

    /// The value of `name`, as given, if any.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// True when the flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The value of `name` parsed as `T`, if given; an error names the parameter.
    pub fn get<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.text(name)
            .map(|t| {
                t.parse()
                    .map_err(|_| format!("--{name} {t}: not a valid value"))
            })
            .transpose()
    }

    /// The value of `name` parsed as `T`; an error when it was not given.
    pub fn need<T: std::str::FromStr>(&self, name: &str) -> Result<T, String> {
        self.get(name)?
            .ok_or_else(|| format!("--{name} is required"))
    }

    /// A comma-separated list of values of `name`, if given.
    pub fn list<T: std::str::FromStr>(&self, name: &str) -> Result<Option<Vec<T>>, String> {
        self.text(name)
            .map(|t| {
                t.split(',')
                    .map(|x| {
                        x.trim()
                            .parse()
                            .map_err(|_| format!("--{name} {t}: '{x}' is not a valid value"))
                    })
                    .collect()
            })
            .transpose()
    }
}

/// Writes `count` instances made by `generator` from seeds `seed`, `seed + 1`, ... to a new
/// file (never overwriting one) or to standard output, calling `progress` after each. When
/// the first instance cannot be made, the new file is removed again.
pub fn write(
    generator: &Generator,
    params: &Params,
    seed: u64,
    count: u64,
    out: Option<&Path>,
    progress: &mut dyn FnMut(),
) -> Result<(), GenerateError> {
    if count == 0 {
        return Err(GenerateError::Input("--count must be at least 1".into()));
    }
    if let Some(dir) = out
        .and_then(Path::parent)
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| {
            GenerateError::Input(format!("{}: cannot create folder: {e}", dir.display()))
        })?;
    }
    let mut sink: Box<dyn std::io::Write> = match out {
        Some(path) => Box::new(
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| {
                    GenerateError::Input(format!("cannot create {}: {e}", path.display()))
                })?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let separator = if count > 1 {
        (generator.separator)(params).map_err(GenerateError::Input)?
    } else {
        ""
    };
    let cannot_write =
        |e: std::io::Error| GenerateError::Output(format!("cannot write the puzzle: {e}"));
    for k in 0..count {
        let text = match (generator.make)(params, seed.saturating_add(k)) {
            Ok(t) => t,
            Err(e) => {
                // A file made here and still empty goes again, so that the same command
                // can be run again; the instances already written stay.
                if let (0, Some(path)) = (k, out) {
                    drop(sink);
                    let _ = std::fs::remove_file(path);
                }
                return Err(GenerateError::Input(e));
            }
        };
        if k > 0 {
            sink.write_all(separator.as_bytes()).map_err(cannot_write)?;
        }
        sink.write_all(text.as_bytes()).map_err(cannot_write)?;
        progress();
    }
    sink.flush().map_err(cannot_write)
}

/// Why generating failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// Bad parameters, or parameters no instance fits (exit code 2).
    Input(String),
    /// The output could not be written (exit code 1).
    Output(String),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Input(m) | GenerateError::Output(m) => f.write_str(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_parse_and_name_the_bad_one() {
        let p = Params::new([
            ("rows".to_string(), "5".to_string()),
            ("fleet".to_string(), "4,3,x".to_string()),
            ("endpoints".to_string(), "true".to_string()),
        ]);
        assert_eq!(p.get::<usize>("rows"), Ok(Some(5)));
        assert_eq!(p.get::<usize>("cols"), Ok(None));
        assert!(p.need::<usize>("cols").unwrap_err().contains("--cols"));
        assert!(p.flag("endpoints") && !p.flag("other"));
        let e = p.list::<u32>("fleet").unwrap_err();
        assert!(e.contains("--fleet") && e.contains("'x'"), "{e}");
    }
}
