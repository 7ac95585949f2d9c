//! The formulations written outside Rust that this process knows, read once from the
//! definition folders, as the engine definitions are ([`crate::engines::registry`]):
//!
//! * the project's `formulations/` folder: in the current folder, else in the first
//!   folder above the puzzlebench executable that has one;
//! * the folders named by the environment variable [`FORMULATIONS_VAR`] (separated as
//!   `PATH` is);
//! * the folders of the global `--formulations DIR` option, which [`init`] adds to
//!   [`FORMULATIONS_VAR`], so that the worker processes of a sweep read the same
//!   definitions.
//!
//! Every `*.toml` file of a folder, or of a folder inside it (`formulations/<puzzle>/`), is
//! a definition. A key that another definition already has is an error naming both files.

use super::definition::UserFormulation;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable naming folders of formulation definitions.
pub const FORMULATIONS_VAR: &str = "PUZZLEBENCH_FORMULATIONS";

static REGISTRY: OnceLock<Vec<UserFormulation>> = OnceLock::new();

/// The definition folders, each once: the project's `formulations/`, then those of
/// [`FORMULATIONS_VAR`].
pub fn folders() -> Vec<PathBuf> {
    crate::engines::registry::definition_folders("formulations", FORMULATIONS_VAR)
}

/// The `*.toml` files of `folder` and of the folders inside it, sorted.
fn definition_files(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let read = |dir: &Path| -> Result<Vec<PathBuf>, String> {
        Ok(std::fs::read_dir(dir)
            .map_err(|e| {
                format!(
                    "{}: cannot read the formulation definitions: {e}",
                    dir.display()
                )
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect())
    };
    let mut files = Vec::new();
    for entry in read(folder)? {
        if entry.is_dir() {
            files.extend(read(&entry)?.into_iter().filter(|p| p.is_file()));
        } else {
            files.push(entry);
        }
    }
    files.retain(|p| p.extension().is_some_and(|x| x == "toml"));
    files.sort();
    Ok(files)
}

/// Reads every definition of `folders`: the formulations, and an error for every file
/// that failed or whose key is taken.
pub fn read(folders: &[PathBuf]) -> (Vec<UserFormulation>, Vec<String>) {
    let mut found: Vec<UserFormulation> = Vec::new();
    let mut errors = Vec::new();
    for folder in folders {
        let files = match definition_files(folder) {
            Ok(f) => f,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for file in files {
            match UserFormulation::load(&file) {
                Err(e) => errors.push(e),
                Ok(d) => match found.iter().find(|k| k.key == d.key) {
                    Some(known) => errors.push(format!(
                        "{}: the key '{}' is already defined by {}",
                        file.display(),
                        d.key,
                        known.file.display()
                    )),
                    None => found.push(d),
                },
            }
        }
    }
    (found, errors)
}

/// Reads the definitions of the folders (the project's, [`FORMULATIONS_VAR`]'s and
/// `extra`, from `--formulations`), once per process, and adds `extra` to
/// [`FORMULATIONS_VAR`] for the processes this one starts. Call it before anything asks
/// for a formulation; the error lists every definition that could not be read.
pub fn init(extra: &[PathBuf]) -> Result<(), String> {
    // Before any thread starts (main calls this first).
    crate::engines::registry::add_folders_to_var(extra, FORMULATIONS_VAR, "--formulations")?;
    let (found, errors) = read(&folders());
    if REGISTRY.set(found).is_err() {
        return Err("internal: the formulation definitions were read before --formulations".into());
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "bad formulation definitions:\n  {}",
            errors.join("\n  ")
        ))
    }
}

/// Every formulation written outside Rust that this process knows.
pub fn all() -> &'static [UserFormulation] {
    REGISTRY.get_or_init(|| {
        let (found, errors) = read(&folders());
        for e in errors {
            eprintln!("warning: {e}");
        }
        found
    })
}

/// The user formulations of `puzzle`.
pub fn of_puzzle(puzzle: &str) -> impl Iterator<Item = &'static UserFormulation> + '_ {
    all().iter().filter(move |f| f.puzzle == puzzle)
}

/// The user formulation of `puzzle` with `key` (`user:...`); the error lists those there are.
pub fn find(puzzle: &str, key: &str) -> Result<&'static UserFormulation, String> {
    of_puzzle(puzzle).find(|f| f.key == key).ok_or_else(|| {
        let known: Vec<&str> = of_puzzle(puzzle).map(|f| f.key.as_str()).collect();
        let folders: Vec<String> = folders().iter().map(|f| f.display().to_string()).collect();
        format!(
            "unknown formulation '{key}' for {puzzle}: no definition has it ({}; definitions are read from {})",
            if known.is_empty() {
                "there is none for this puzzle".to_string()
            } else {
                format!("those there are: {}", known.join(", "))
            },
            if folders.is_empty() {
                "formulations/, PUZZLEBENCH_FORMULATIONS and --formulations DIR, none of which is there".to_string()
            } else {
                folders.join(", ")
            }
        )
    })
}
