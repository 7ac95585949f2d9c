//! Records the git commit of the build in PUZZLEBENCH_GIT_COMMIT ("unknown" outside git)
//! and the compiler's `rustc --version` in PUZZLEBENCH_RUSTC ("unknown" when it cannot be
//! asked), for the machine record of every sweep.
use std::process::Command;

/// The trimmed standard output of `program args`, when it ran, succeeded and printed
/// something.
fn output_of(program: &str, args: &[&str]) -> Option<String> {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit =
        output_of("git", &["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = output_of("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=PUZZLEBENCH_GIT_COMMIT={commit}{suffix}");
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/index");
    // Cargo gives build scripts the compiler it builds with in RUSTC.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output_of(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=PUZZLEBENCH_RUSTC={version}");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
