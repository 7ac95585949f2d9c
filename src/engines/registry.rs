//! The engines of this process: the built-in ones ([`super::ENGINES`]) and those its
//! engine definitions add ([`super::definition`]), read once from the definition folders:
//!
//! * the project's `engines/` folder: in the current folder, else in the first folder
//!   above the puzzlebench executable that has one (as the project's `.venv/` is found);
//! * the folders named by the environment variable [`ENGINES_VAR`] (separated as `PATH`
//!   is);
//! * the folders of the global `--engines DIR` option, which [`init`] adds to
//!   [`ENGINES_VAR`], so that the worker processes of a sweep and the drivers they start
//!   read the same definitions.
//!
//! Every `*.toml` file of a folder is a definition. A key that a built-in engine or
//! another definition already has is an error that names both files; so is a file that
//! is no valid definition ([`Definition::load`]).

use super::definition::Definition;
use super::{Engine, ENGINES};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable naming folders of engine definitions.
pub const ENGINES_VAR: &str = "PUZZLEBENCH_ENGINES";

/// An engine added by a definition, and the file it came from.
#[derive(Clone, Debug)]
pub struct Defined {
    /// The engine.
    pub engine: Engine,
    /// Its definition file.
    pub file: PathBuf,
}

struct Registry {
    all: Vec<Engine>,
    defined: Vec<Defined>,
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

/// The project's `engines/` folder: in the current folder, else above the executable.
pub fn project_folder() -> Option<PathBuf> {
    project_folder_named("engines")
}

/// The project's folder `name` (`engines`, `formulations`): in the current folder, else
/// in the first folder above the puzzlebench executable that has one.
pub fn project_folder_named(name: &str) -> Option<PathBuf> {
    crate::process::project_places()
        .into_iter()
        .map(|d| d.join(name))
        .find(|d| d.is_dir())
}

/// The folders of the environment variable `var` (separated as `PATH` is).
fn env_folders(var: &str) -> Vec<PathBuf> {
    std::env::var_os(var)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The definition folders, each once: the project's, then those of [`ENGINES_VAR`].
pub fn folders() -> Vec<PathBuf> {
    definition_folders("engines", ENGINES_VAR)
}

/// The folders of definitions of one sort, each once: the project's folder `name`, then
/// those of the environment variable `var`.
pub fn definition_folders(name: &str, var: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for f in project_folder_named(name)
        .into_iter()
        .chain(env_folders(var))
    {
        let f = f.canonicalize().unwrap_or(f);
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Adds the folders `extra` of the command-line option `option` (`--engines`) to the
/// environment variable `var`, so that the processes this one starts read them too; an
/// error names a folder that is not there. Call it before any thread starts.
pub fn add_folders_to_var(extra: &[PathBuf], var: &str, option: &str) -> Result<(), String> {
    if extra.is_empty() {
        return Ok(());
    }
    let mut named = env_folders(var);
    for f in extra {
        if !f.is_dir() {
            return Err(format!("{option} {}: no such folder", f.display()));
        }
        named.push(f.canonicalize().unwrap_or_else(|_| f.clone()));
    }
    let joined = std::env::join_paths(&named).map_err(|e| format!("{option}: {e}"))?;
    std::env::set_var(var, joined);
    Ok(())
}

/// The file of the built-in engine `key`, for messages.
fn builtin_file(key: &str) -> String {
    if let Some(file) = super::built_in_definitions::file_of(key) {
        return file.display().to_string();
    }
    match key {
        "bc" => "src/engines/bc/mod.rs".into(),
        k => format!("src/engines/{}.rs", k.replace('-', "_")),
    }
}

/// Why `key` (defined in `file`) cannot be added beside `known` and the built-ins, if it
/// cannot.
pub fn clash(key: &str, file: &Path, known: &[Defined]) -> Option<String> {
    if ENGINES.iter().any(|e| e.key() == key) {
        return Some(format!(
            "{}: the key '{key}' is that of the built-in engine in {}",
            file.display(),
            builtin_file(key)
        ));
    }
    known.iter().find(|d| d.engine.key() == key).map(|d| {
        format!(
            "{}: the key '{key}' is already defined by {}",
            file.display(),
            d.file.display()
        )
    })
}

/// Reads every definition of `folders`; the error lists every file that failed.
fn read(folders: &[PathBuf]) -> (Vec<Defined>, Vec<String>) {
    let mut defined = Vec::new();
    let mut errors = Vec::new();
    for folder in folders {
        let entries = match std::fs::read_dir(folder) {
            Ok(e) => e,
            Err(e) => {
                errors.push(format!(
                    "{}: cannot read the engine definitions: {e}",
                    folder.display()
                ));
                continue;
            }
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
            .collect();
        files.sort();
        for file in files {
            match Definition::load(&file) {
                Err(e) => errors.push(e),
                Ok(d) => match clash(&d.key, &file, &defined) {
                    Some(e) => errors.push(e),
                    None => defined.push(Defined {
                        engine: d.into_engine(),
                        file,
                    }),
                },
            }
        }
    }
    (defined, errors)
}

fn make(folders: &[PathBuf]) -> (Registry, Vec<String>) {
    let (defined, errors) = read(folders);
    let mut all = ENGINES.to_vec();
    all.extend(defined.iter().map(|d| d.engine));
    (Registry { all, defined }, errors)
}

/// Reads the definitions of the folders (the project's, [`ENGINES_VAR`]'s and `extra`,
/// from `--engines`), once per process, and adds `extra` to [`ENGINES_VAR`] for the
/// processes this one starts. Call it before anything asks for an engine; the error
/// lists every definition that could not be read or clashes.
pub fn init(extra: &[PathBuf]) -> Result<(), String> {
    // Before any thread starts (main calls this first).
    add_folders_to_var(extra, ENGINES_VAR, "--engines")?;
    let (registry, errors) = make(&folders());
    if REGISTRY.set(registry).is_err() {
        return Err("internal: the engine definitions were read before --engines".into());
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "bad engine definitions:\n  {}",
            errors.join("\n  ")
        ))
    }
}

fn registry() -> &'static Registry {
    REGISTRY.get_or_init(|| {
        let (registry, errors) = make(&folders());
        for e in errors {
            eprintln!("warning: {e}");
        }
        registry
    })
}

/// Every engine of this process: the built-in ones, then those of the definitions.
pub fn all() -> &'static [Engine] {
    &registry().all
}

/// The engines added by definitions, with their files.
pub fn defined() -> &'static [Defined] {
    &registry().defined
}

/// The definition file of `engine`, when a definition added it.
pub fn file_of(engine: Engine) -> Option<&'static Path> {
    defined()
        .iter()
        .find(|d| d.engine == engine)
        .map(|d| d.file.as_path())
}

/// The engine of the definition in `file`: the one this process already added from that
/// file, else a new one (an error when the file is no valid definition, or its key is
/// taken by another engine).
pub fn engine_of_file(file: &Path) -> Result<Engine, String> {
    let d = Definition::load(file)?;
    let same = |p: &Path| p.canonicalize().ok() == file.canonicalize().ok();
    if let Some(known) = defined().iter().find(|k| k.engine.key() == d.key) {
        if same(&known.file) {
            return Ok(known.engine);
        }
    }
    match clash(&d.key, file, defined()) {
        Some(e) => Err(e),
        None => Ok(d.into_engine()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, key: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(
            &p,
            format!(
                "key = \"{key}\"\ndescription = \"t\"\nversion = {{ command = [\"true\"], pattern = \"(.*)\" }}\ninput = \"mps\"\ncommand = [\"true\", \"{{model}}\"]\nreader = \"name-value\"\nanswer = \"stdout\"\n"
            ),
        )
        .unwrap();
        p
    }

    #[test]
    fn a_clash_names_both_files() {
        let dir = tempfile::tempdir().unwrap();
        let a = write(dir.path(), "a.toml", "mine");
        let b = write(dir.path(), "b.toml", "mine");
        let c = write(dir.path(), "c.toml", "cbc");
        let (defined, errors) = read(&[dir.path().to_path_buf()]);
        assert_eq!(defined.len(), 1);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].contains(&b.display().to_string())
                && errors[0].contains(&a.display().to_string()),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].contains(&c.display().to_string())
                && errors[1].contains("src/engines/cbc.rs"),
            "{}",
            errors[1]
        );
    }
}
