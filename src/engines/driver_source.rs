//! How every Python driver reaches `puzzlebench_driver`, the module that holds the driver
//! protocol once (`drivers/puzzlebench_driver.py`, part of this binary: the message loop,
//! hello, strict-JSON answers, failures as error answers, lazy rows, enumeration; see
//! docs/driver-protocol.md). Each driver does `import puzzlebench_driver` and supplies
//! only its solver's part; this is the one place where the Rust side makes that import
//! work:
//!
//! * **Driver scripts**: the built-in drivers (`cpsat`'s [`BuiltIn`]; `scip`, `gurobi`,
//!   `cplex`, `xpress` and `copt`, whose definitions are compiled in) and a definition's
//!   `script` (a Python file, [`composed`]) run as `python -I -c SOURCE` or forked by
//!   their fork server ([`super::warm`]), where no file of theirs exists and `-I` ignores
//!   `PYTHONPATH`. Their source is the driver's file behind one line that registers the
//!   module, from the binary's copy, in `sys.modules`. The fork server's own source is composed the same
//!   way, so the module is compiled once in the server and its forked drivers find it
//!   registered (the line keeps a module already there). The composed source is the same
//!   in every process of one build, so the fork server of a sweep's parent serves its
//!   workers.
//! * **A driver program** (an engine definition's `input = "driver"` with a `command`)
//!   is a command of its own. puzzlebench writes the module once into a private folder of the
//!   system's temporary folder (mode 0700, named after the user and the module's
//!   contents, so that one folder serves every process of one build) and starts the
//!   command with that folder first on `PYTHONPATH` and named by
//!   `PUZZLEBENCH_DRIVER_LIB` ([`program_env`]), for a command that ignores `PYTHONPATH`
//!   (`python -I`): `sys.path.insert(0, os.environ["PUZZLEBENCH_DRIVER_LIB"])`.

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The module's name, as drivers import it.
pub const MODULE_NAME: &str = "puzzlebench_driver";

/// The module's source.
pub const MODULE: &str = include_str!("drivers/puzzlebench_driver.py");

/// The environment variable that names the folder holding the module, for a user's
/// driver program.
pub const LIB_VAR: &str = "PUZZLEBENCH_DRIVER_LIB";

/// A built-in driver: its file's source, run with the module registered ahead of it.
pub struct BuiltIn {
    file: &'static str,
    composed: OnceLock<&'static str>,
}

impl BuiltIn {
    /// The driver whose source (`include_str!` of its file) is `file`.
    pub const fn new(file: &'static str) -> BuiltIn {
        BuiltIn {
            file,
            composed: OnceLock::new(),
        }
    }

    /// The source to run (`python -I -c` or the fork server): one line that registers the
    /// module, then the driver's file (its line numbers one more than the file's).
    pub fn source(&self) -> &'static str {
        self.composed
            .get_or_init(|| Box::leak(compose(self.file).into_boxed_str()))
    }
}

/// The source to run for a driver script read at run time (an engine definition's
/// `script`), composed as a built-in driver's is and kept for the life of the process.
pub fn composed(driver: &str) -> &'static str {
    Box::leak(compose(driver).into_boxed_str())
}

/// `driver` behind the line that registers the module (a JSON string is a Python string
/// literal). A module already registered (a fork server's, inherited by the drivers it
/// forks) is kept, so that a warm driver does not compile it again.
fn compose(driver: &str) -> String {
    let name = serde_json::to_string(MODULE_NAME).expect("a string");
    let file = serde_json::to_string(&format!("{MODULE_NAME}.py")).expect("a string");
    let module = serde_json::to_string(MODULE).expect("a string");
    format!(
        "import sys as _pb_sys, types as _pb_types; \
         _pb_m = _pb_sys.modules.get({name}) or _pb_types.ModuleType({name}); \
         _pb_sys.modules[{name}] = _pb_m; _pb_m.__file__ = {file}; \
         hasattr(_pb_m, 'serve') or exec(compile({module}, {file}, 'exec'), _pb_m.__dict__); \
         del _pb_sys, _pb_types, _pb_m\n{driver}"
    )
}

/// The environment a user's driver program starts with: the module's folder first on
/// `PYTHONPATH` and in [`LIB_VAR`]. Empty when the folder cannot be made (the driver's
/// import then fails, and its standard error says so).
pub fn program_env() -> Vec<(&'static str, OsString)> {
    let Ok(dir) = lib_dir() else {
        return Vec::new();
    };
    let mut path = dir.as_os_str().to_owned();
    if let Some(old) = std::env::var_os("PYTHONPATH").filter(|p| !p.is_empty()) {
        path.push(":");
        path.push(old);
    }
    vec![("PYTHONPATH", path), (LIB_VAR, dir.as_os_str().to_owned())]
}

/// The folder holding the module for user driver programs, written once per process
/// (see the module's doc); why it cannot be made.
pub fn lib_dir() -> Result<&'static Path, String> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| make_lib_dir(&std::env::temp_dir()))
        .as_deref()
        .map_err(Clone::clone)
}

/// The module's folder in `tmp`: `puzzlebench-driver-<uid>-<hash of the module>`, used
/// when it is this user's, private (mode 0700) and holds the module as it is; else made
/// (a private folder of its own, written, then renamed into place). When another user's
/// or a changed folder holds the name, a private folder of this process's own serves (and
/// stays).
fn make_lib_dir(tmp: &Path) -> Result<PathBuf, String> {
    // SAFETY: getuid(2) cannot fail.
    let uid = unsafe { libc::getuid() };
    let dir = tmp.join(format!("puzzlebench-driver-{uid}-{:016x}", fnv1a(MODULE)));
    if holds_module(&dir, uid) {
        return Ok(dir);
    }
    let fresh = tempfile::Builder::new()
        .prefix("puzzlebench-driver-")
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir_in(tmp)
        .map_err(|e| format!("cannot make a folder for {MODULE_NAME}: {e}"))?;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(fresh.path().join(format!("{MODULE_NAME}.py")))
        .and_then(|mut f| f.write_all(MODULE.as_bytes()))
        .map_err(|e| format!("cannot write {MODULE_NAME}: {e}"))?;
    let fresh = fresh.keep();
    if std::fs::rename(&fresh, &dir).is_ok() || holds_module(&dir, uid) {
        // Renamed into place, or another process put it there first.
        if fresh.exists() {
            let _ = std::fs::remove_dir_all(&fresh);
        }
        return Ok(dir);
    }
    Ok(fresh)
}

/// True when `dir` is a folder (not a link) of the user `uid` that no one else may enter,
/// holding the module (a plain file of the user's) as this build has it.
fn holds_module(dir: &Path, uid: u32) -> bool {
    let file = dir.join(format!("{MODULE_NAME}.py"));
    std::fs::symlink_metadata(dir)
        .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o077 == 0)
        && std::fs::symlink_metadata(&file).is_ok_and(|m| m.is_file() && m.uid() == uid)
        && std::fs::read(&file).is_ok_and(|b| b == MODULE.as_bytes())
}

/// FNV-1a of `text`: the same in every build.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_built_in_driver_imports_the_module_registered_ahead_of_it() {
        static DRIVER: BuiltIn = BuiltIn::new(
            "import puzzlebench_driver as pb\nprint(pb.by_position(['C1', 'C0'], str))\n",
        );
        let source = DRIVER.source();
        assert!(std::ptr::eq(source, DRIVER.source()), "composed once");
        assert_eq!(source.lines().count(), 3, "one line ahead of the driver's");
        let Ok(python) = super::super::external::python() else {
            eprintln!("skipped: no project Python environment");
            return;
        };
        let out = std::process::Command::new(python)
            .args(["-I", "-c", source])
            .output()
            .expect("python runs");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "['C0', 'C1']");
    }

    #[test]
    fn the_modules_folder_is_private_and_shared_by_one_build() {
        let tmp = tempfile::tempdir().unwrap();
        let a = make_lib_dir(tmp.path()).unwrap();
        let b = make_lib_dir(tmp.path()).unwrap();
        assert_eq!(a, b, "one folder for one build");
        let mode = std::fs::metadata(&a).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "private");
        assert_eq!(
            std::fs::read_to_string(a.join("puzzlebench_driver.py")).unwrap(),
            MODULE
        );
        assert_eq!(
            std::fs::read_dir(tmp.path()).unwrap().count(),
            1,
            "nothing left over"
        );
        // A folder under the name whose module differs is not used.
        std::fs::write(a.join("puzzlebench_driver.py"), "print('not it')").unwrap();
        let c = make_lib_dir(tmp.path()).unwrap();
        assert_ne!(c, a);
        assert_eq!(
            std::fs::read_to_string(c.join("puzzlebench_driver.py")).unwrap(),
            MODULE
        );
    }
}
