//! The checker: VeriPB 3 (crate `veripb`, installed by `scripts/setup-deps.sh` with
//! `cargo install veripb --version 3.0.2 --locked`). It is found as `PUZZLEBENCH_VERIPB`
//! when that is set, else `veripb` on the `PATH`, else in cargo's own `bin` folder.
//! A proof is accepted only when the checker exits 0 and prints the exact `s VERIFIED …`
//! line the claim needs; anything else is a rejection with the checker's reason (its
//! `Error:` and `Caused by:` lines, naming the proof's line).

use super::Verdict;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

/// The environment variable naming the veripb program.
pub const VERIPB_VAR: &str = "PUZZLEBENCH_VERIPB";

/// What a check gave.
pub struct Check {
    /// Checked, rejected (why), or none (no checker: why).
    pub verdict: Verdict,
    /// Seconds the checker ran.
    pub seconds: Option<f64>,
}

/// The veripb program: [`VERIPB_VAR`], else `veripb` on the `PATH`, else cargo's `bin`.
pub fn program() -> PathBuf {
    if let Some(p) = std::env::var_os(VERIPB_VAR) {
        return PathBuf::from(p);
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join("veripb").is_file()));
    if on_path {
        return PathBuf::from("veripb");
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    match cargo_home.map(|c| c.join("bin/veripb")) {
        Some(p) if p.is_file() => p,
        _ => PathBuf::from("veripb"),
    }
}

/// The checker's name and version ("veripb 3.0.2"), or why it is not there.
pub fn version() -> Result<String, String> {
    static VERSION: OnceLock<Result<String, String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let program = program();
            let out = Command::new(&program)
                .arg("--version")
                .output()
                .map_err(|e| {
                    format!(
                        "no checker: cannot run {} ({e}); scripts/setup-deps.sh installs VeriPB",
                        program.display()
                    )
                })?;
            let text = String::from_utf8_lossy(&out.stdout);
            let version = text
                .split_whitespace()
                .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
                .ok_or_else(|| format!("no checker: {} printed no version", program.display()))?;
            Ok(format!("veripb {version}"))
        })
        .clone()
}

/// Checks the proof `pbp` of the OPB file `opb`, which must end in the line `expect`;
/// a checker still running after `seconds` is killed and the certificate is `none`.
pub fn check(opb: &Path, pbp: &Path, expect: &str, seconds: Option<f64>) -> Check {
    let version = match version() {
        Ok(v) => v,
        Err(why) => {
            return Check {
                verdict: Verdict::None(why),
                seconds: None,
            }
        }
    };
    let started = Instant::now();
    let mut command = Command::new(program());
    command.arg(opb).arg(pbp);
    let kill_at = seconds.map(|s| crate::process::after(started, s));
    let out = match crate::process::watched::run_watched(
        command,
        Vec::new(),
        kill_at,
        started,
        &|_, _| {},
    ) {
        Ok(o) => o,
        Err(e) => {
            return Check {
                verdict: Verdict::None(format!("no checker: {e}")),
                seconds: None,
            }
        }
    };
    let took = Some(started.elapsed().as_secs_f64());
    if out.killed {
        return Check {
            verdict: Verdict::None(format!(
                "the checker reached its time limit of {} s",
                seconds.unwrap_or(0.0)
            )),
            seconds: took,
        };
    }
    let seconds = took;
    let (stdout, stderr) = (&out.stdout, &out.stderr);
    let said = stdout.lines().any(|l| l.trim() == expect);
    let verdict = if out.success && said {
        Verdict::Checked(version)
    } else {
        Verdict::Rejected(reason(stdout, stderr, expect))
    };
    Check { verdict, seconds }
}

/// Why the checker did not accept a proof, in its own words (capped).
fn reason(stdout: &str, stderr: &str, expect: &str) -> String {
    let errors: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| {
            l.starts_with("Error") || l.starts_with("Caused by") || l.starts_with("Parsing error")
        })
        .collect();
    let why = if !errors.is_empty() {
        errors.join("; ")
    } else if let Some(s) = stdout.lines().map(str::trim).find(|l| l.starts_with("s ")) {
        format!("the checker says '{s}', not '{expect}'")
    } else {
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no output");
        format!("the checker did not verify it: {}", last.trim())
    };
    crate::process::quote(&why)
}
