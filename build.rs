//! Records the git commit of the build in PUZZLEBENCH_GIT_COMMIT ("unknown" outside git)
//! and the compiler's `rustc --version` in PUZZLEBENCH_RUSTC ("unknown" when it cannot be
//! asked), for the machine record of every sweep; the versions of the solver crates whose
//! version the code cannot ask (pumpkin-solver, microlp), as `cargo metadata` resolves
//! them from Cargo.lock, in PUZZLEBENCH_PUMPKIN_VERSION and PUZZLEBENCH_MICROLP_VERSION;
//! and compiles the C++ shim of the `cadical-lin` engine against the CaDiCaL headers of the rustsat-cadical crate (whose
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
    let meta = metadata();
    for (name, var) in [
        ("pumpkin-solver", "PUZZLEBENCH_PUMPKIN_VERSION"),
        ("microlp", "PUZZLEBENCH_MICROLP_VERSION"),
    ] {
        let version = package(&meta, name)["version"]
            .as_str()
            .expect("cargo metadata gives each package's version");
        println!("cargo:rustc-env={var}={version}");
    }
    println!("cargo:rerun-if-changed=Cargo.lock");
    shim(&meta);
}

/// This build's dependency graph for the target being built: `cargo metadata`, offline
/// first (everything is cached once the project has been tested); a first `cargo build` on
/// a new machine has not fetched the dev-dependencies, which cargo metadata lists too, so
/// then it may fetch them.
fn metadata() -> serde_json::Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("Cargo.toml");
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let run = |offline: bool| {
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
    let mut out = run(true);
    if !out.status.success() {
        out = run(false);
    }
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata JSON")
}

/// The package named `name` in `meta`. Panics, failing the build, unless the graph holds
/// it exactly once: a version or folder recorded otherwise would be a guess.
fn package<'a>(meta: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    let found: Vec<&serde_json::Value> = meta["packages"]
        .as_array()
        .expect("cargo metadata lists packages")
        .iter()
        .filter(|p| p["name"] == name)
        .collect();
    match found.as_slice() {
        [p] => p,
        _ => panic!(
            "the dependency graph holds {name} {} times, not once",
            found.len()
        ),
    }
}

/// Compiles src/engines/cadical_lin/shim.cpp with the headers CaDiCaL was built from:
/// rustsat-cadical's `cppsrc/src` (or `CADICAL_SRC_DIR/src` when that crate was pointed at
/// other sources) and its `cpp-extension`, with the defines its build uses for CaDiCaL
/// 2.2 (so that the classes have the same layout).
fn shim(meta: &serde_json::Value) {
    let shim = "src/engines/cadical_lin/shim.cpp";
    println!("cargo:rerun-if-changed={shim}");
    println!("cargo:rerun-if-env-changed=CADICAL_SRC_DIR");
    let manifest = package(meta, "rustsat-cadical")["manifest_path"]
        .as_str()
        .expect("cargo metadata gives each package's manifest path");
    let crate_dir = PathBuf::from(manifest)
        .parent()
        .expect("a manifest path has a folder")
        .to_path_buf();
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
