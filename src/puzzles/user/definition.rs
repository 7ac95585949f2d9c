//! A formulation definition: a small TOML file that names a puzzle, a key, a description
//! and the command that writes the model of an instance (docs/user-formulations.md):
//!
//! ```toml
//! puzzle = "battleship"
//! key = "gbm-pulp"               # listed and recorded as user:gbm-pulp
//! description = "the report's gbm, written in PuLP"
//! command = ["{python}", "{dir}/gbm_pulp.py", "{instance_json}", "{model}"]
//! model = "lp"                   # the format the command writes: "lp" or "mps"
//! ```
//!
//! Placeholders of the command: `{instance_json}` (the instance as JSON, in the puzzle's
//! documented shape), `{model}` (the file the command must write, ending in `.lp` or
//! `.mps`), `{dir}` (the definition's folder) and `{python}` (the project's Python,
//! `.venv/bin/python`, where there is one, else `python3`). Every key but these is an
//! error naming the file and line.

use crate::engines::definition::{folder_of, line_of_key, parse_toml, placeholders};
use crate::formats::Format;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The prefix of a user formulation's key on the command line and in result rows.
pub const PREFIX: &str = "user:";

/// The placeholders a formulation's command may hold, each in braces.
pub const PLACEHOLDERS: &[&str] = &["instance_json", "model", "dir", "python"];

/// A formulation written outside Rust, as its definition file gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct UserFormulation {
    /// The puzzle's key.
    pub puzzle: String,
    /// The key with its prefix, as listed and recorded: `user:gbm-pulp`.
    pub key: String,
    /// One line saying what the model is.
    pub description: String,
    /// The command, word by word, with `{dir}` already replaced.
    pub command: Vec<String>,
    /// The format the command writes.
    pub format: Format,
    /// The definition file.
    pub file: PathBuf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    puzzle: String,
    key: String,
    description: String,
    command: Vec<String>,
    model: String,
}

impl UserFormulation {
    /// Reads and checks the definition in `file`.
    pub fn load(file: &Path) -> Result<UserFormulation, String> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("{}: cannot read the definition: {e}", file.display()))?;
        UserFormulation::parse(&text, file)
    }

    /// Checks the definition `text`, read from `file` (for messages). The puzzle must be
    /// one that takes formulations written outside Rust.
    pub fn parse(text: &str, file: &Path) -> Result<UserFormulation, String> {
        let at = |key: &str, why: String| {
            format!("{}:{}: {why}", file.display(), line_of_key(text, key))
        };
        let w: Written = parse_toml(text, file)?;
        let puzzle = crate::puzzles::puzzle(&w.puzzle).map_err(|e| at("puzzle", e))?;
        if puzzle.user_meaning().is_none() {
            return Err(at(
                "puzzle",
                format!(
                    "{} takes no formulations written outside Rust (those that do: {})",
                    w.puzzle,
                    takers().join(", ")
                ),
            ));
        }
        let bare = w.key.strip_prefix(PREFIX).unwrap_or(&w.key);
        let key_ok = !bare.is_empty()
            && bare
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !key_ok {
            return Err(at(
                "key",
                format!("key '{}': lower-case letters, digits and '-' only", w.key),
            ));
        }
        let format = match w.model.to_ascii_lowercase().as_str() {
            "lp" => Format::Lp,
            "mps" => Format::Mps,
            other => {
                return Err(at(
                    "model",
                    format!("model '{other}': the format the command writes, \"lp\" or \"mps\""),
                ))
            }
        };
        if w.command.is_empty() {
            return Err(at("command", "the command is empty".into()));
        }
        for word in &w.command {
            for p in placeholders(word) {
                if !PLACEHOLDERS.contains(&p) {
                    return Err(at(
                        "command",
                        format!(
                            "unknown placeholder {{{p}}} (placeholders: {})",
                            PLACEHOLDERS
                                .iter()
                                .map(|p| format!("{{{p}}}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
        }
        let has = |p: &str| w.command.iter().any(|word| placeholders(word).contains(&p));
        if !has("model") {
            return Err(at(
                "command",
                "the command does not name the model it writes ({model})".into(),
            ));
        }
        if !has("instance_json") {
            return Err(at(
                "command",
                "the command does not take the instance ({instance_json})".into(),
            ));
        }
        let dir = folder_of(file);
        Ok(UserFormulation {
            puzzle: w.puzzle,
            key: format!("{PREFIX}{bare}"),
            description: w.description,
            command: w
                .command
                .iter()
                .map(|word| word.replace("{dir}", &dir))
                .collect(),
            format,
            file: file.to_path_buf(),
        })
    }
}

/// The keys of the puzzles that take formulations written outside Rust.
pub fn takers() -> Vec<&'static str> {
    crate::puzzles::PUZZLES
        .iter()
        .filter(|p| !p.hidden() && p.user_meaning().is_some())
        .map(|p| p.key())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
puzzle = "sudoku"
key = "binary-py"
description = "report (3.1) in plain Python"
command = ["{python}", "{dir}/binary.py", "{instance_json}", "{model}"]
model = "lp"
"#;

    fn parse(text: &str) -> Result<UserFormulation, String> {
        UserFormulation::parse(text, Path::new("defs/binary-py.toml"))
    }

    #[test]
    fn a_definition_gives_its_key_with_the_prefix_and_its_folder() {
        let d = parse(GOOD).unwrap();
        assert_eq!(d.key, "user:binary-py");
        assert_eq!(d.puzzle, "sudoku");
        assert_eq!(d.format, Format::Lp);
        assert!(d.command[1].ends_with("defs/binary.py"), "{:?}", d.command);
        assert_eq!(d.command[0], "{python}");
    }

    #[test]
    fn bad_definitions_name_the_file_line_and_problem() {
        let cases = [
            (
                GOOD.replace("sudoku", "sudok"),
                ":2: unknown puzzle 'sudok'",
            ),
            (
                GOOD.replace("sudoku", "minclue"),
                ":2: minclue takes no formulations written outside Rust",
            ),
            (
                GOOD.replace("binary-py", "Binary py"),
                ":3: key 'Binary py'",
            ),
            (GOOD.replace("\"lp\"", "\"nl\""), ":6: model 'nl'"),
            (
                GOOD.replace("{model}", "{modle}"),
                ":5: unknown placeholder {modle}",
            ),
            (
                GOOD.replace(", \"{model}\"", ""),
                ":5: the command does not name the model",
            ),
            (
                GOOD.replace("{instance_json}", "x.json"),
                ":5: the command does not take the instance",
            ),
            (
                GOOD.replace("model = \"lp\"", "model = \"lp\"\nsolver = 1"),
                ":7: unknown field `solver`",
            ),
            (GOOD.replace("model = \"lp\"", ""), "missing field `model`"),
            (
                GOOD.replace("command = [", "command = [\n]\nx = ["),
                "defs/binary-py.toml:",
            ),
        ];
        for (text, want) in cases {
            let e = parse(&text).unwrap_err();
            assert!(e.contains(want), "{e}\n  wanted: {want}");
            assert!(e.starts_with("defs/binary-py.toml:"), "{e}");
        }
    }
}
