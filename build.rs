//! Records the git commit of the build in PUZZLEBENCH_GIT_COMMIT ("unknown" outside git)
//! and the compiler's `rustc --version` in PUZZLEBENCH_RUSTC ("unknown" when it cannot be
//! asked), for the machine record of every sweep; the versions of the solver crates whose
//! version the code cannot ask (pumpkin-solver, microlp), as Cargo.lock pins them, in
//! PUZZLEBENCH_PUMPKIN_VERSION and PUZZLEBENCH_MICROLP_VERSION; and compiles the C++ shim of the
//! `cadical-lin` engine against the CaDiCaL headers of the rustsat-cadical crate (whose
//! build links the CaDiCaL library itself).
use std::path::PathBuf;
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
    for (package, var) in [
        ("pumpkin-solver", "PUZZLEBENCH_PUMPKIN_VERSION"),
        ("microlp", "PUZZLEBENCH_MICROLP_VERSION"),
    ] {
        println!("cargo:rustc-env={var}={}", locked_version(package));
    }
    println!("cargo:rerun-if-changed=Cargo.lock");
    shim();
}

/// The version Cargo.lock pins for `package` (the `version` line after its `name` line).
/// Panics, failing the build, when the lock file does not hold the package once: the
/// recorded version would otherwise be a guess.
fn locked_version(package: &str) -> String {
    let lock = std::fs::read_to_string("Cargo.lock").expect("reading Cargo.lock");
    let name = format!("name = \"{package}\"");
    let mut lines = lock.lines();
    let mut found = Vec::new();
    while let Some(line) = lines.next() {
        if line.trim() == name {
            let version = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "));
            found.push(
                version
                    .expect("a version line after the name")
                    .trim_matches('"'),
            );
        }
    }
    match found.as_slice() {
        [v] => v.to_string(),
        _ => panic!("Cargo.lock pins {package} {} times, not once", found.len()),
    }
}

/// The folder of the rustsat-cadical package in this build's dependency graph, from
/// `cargo metadata` for the target being built (the manifest path of the package named
/// rustsat-cadical).
fn rustsat_cadical_dir() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("Cargo.toml");
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let metadata = |offline: bool| {
        let mut c = Command::new(&cargo);
        c.args(["metadata", "--format-version", "1"]);
        if offline {
            c.arg("--offline");
        }
        c.args(["--filter-platform", &target, "--manifest-path"])
            .arg(&manifest)
            .output()
            .expect("running cargo metadata")
    };
    // Offline first: everything is cached once the project has been tested. A first
    // `cargo build` on a new machine has not fetched the dev-dependencies, which cargo
    // metadata lists too; then it may fetch them.
    let mut out = metadata(true);
    if !out.status.success() {
        out = metadata(false);
    }
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata JSON");
    let path = meta["packages"]
        .as_array()
        .expect("cargo metadata lists packages")
        .iter()
        .find(|p| p["name"] == "rustsat-cadical")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("rustsat-cadical is a dependency");
    PathBuf::from(path)
        .parent()
        .expect("a manifest path has a folder")
        .to_path_buf()
}

/// Compiles src/engines/cadical_lin/shim.cpp with the headers CaDiCaL was built from:
/// rustsat-cadical's `cppsrc/src` (or `CADICAL_SRC_DIR/src` when that crate was pointed at
/// other sources) and its `cpp-extension`, with the defines its build uses for CaDiCaL
/// 2.2 (so that the classes have the same layout).
fn shim() {
    let shim = "src/engines/cadical_lin/shim.cpp";
    println!("cargo:rerun-if-changed={shim}");
    println!("cargo:rerun-if-env-changed=CADICAL_SRC_DIR");
    let crate_dir = rustsat_cadical_dir();
    let src = match std::env::var("CADICAL_SRC_DIR") {
        Ok(d) => PathBuf::from(d).join("src"),
        Err(_) => crate_dir.join("cppsrc").join("src"),
    };
    assert!(
        src.join("cadical.hpp").exists(),
        "no cadical.hpp in {}",
        src.display()
    );
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++11")
        .include(&src)
        .include(crate_dir.join("cpp-extension"))
        .define("NDEBUG", None)
        .define("NTRACING", None)
        .opt_level(2)
        .warnings(false);
    for v in ["V154", "V160", "V190", "V194", "V200", "V213", "V220"] {
        build.define(v, None);
    }
    build.file(shim).compile("puzzlebench_cadical_shim");
}
