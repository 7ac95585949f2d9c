//! A hidden test puzzle that injects faults, so the tests can show that a sweep survives
//! them. It is not listed by `puzzlebench list`. Each non-comment line of an instance file
//! names one instance. Formulations:
//!
//! * `ok` — a one-variable model (maximise x, x binary), solved on the chosen engine;
//!   the verifier accepts x = 1.
//! * `abort` — the process aborts (SIGABRT), as a solver's failed assertion would.
//! * `panic` — a Rust panic.
//! * `exit` — the process exits with code 3 and prints nothing.
//! * `sleep` — sleeps an hour, ignoring every time limit, as a hung solver would.
//! * `oom` — allocates and touches memory until allocation fails.
//! * `stack` — unbounded recursion until the stack overflows.
//! * `busy` — burns one second of CPU time, then solves as `ok`.
//! * `spawn` — starts a child process (this executable as a worker running `busy`),
//!   waits for it, then solves as `ok`: a solver that runs in a child process.
//! * `detach` — starts a child process running `sleep` and leaves it running, then solves
//!   as `ok`: a solver that leaves a process behind. Children carry the environment
//!   variable `PUZZLEBENCH_FAULT_CHILD` = the instance name.

use super::{Answer, Formulation, InputError, Instance, PuzzleDef, Run, RunResult};
use crate::engines::{Kind, SolveOptions};
use crate::model::{Model, VarKind};
use std::path::Path;

/// A fault formulation: it never returns normally.
const fn fault(
    key: &'static str,
    description: &'static str,
    solve: fn(&Fault, &Run) -> RunResult,
) -> Formulation<Fault> {
    Formulation {
        key,
        description,
        kind: Kind::Mip,
        build: |_| Ok(one_variable()),
        solve,
    }
}

/// The registry entry of the fault puzzle (hidden from `list`).
pub static PUZZLE: PuzzleDef<Fault> = PuzzleDef {
    key: "fault",
    description: "test-only faults: ok, abort, panic, exit, sleep, oom, stack, busy, spawn, detach",
    formulations: &[
        Formulation {
            key: "ok",
            description: "a one-variable model that solves",
            kind: Kind::Mip,
            build: |_| Ok(one_variable()),
            solve: |_, run: &Run| solve_ok(run),
        },
        Formulation {
            key: "busy",
            description: "burns one second of CPU time, then solves as ok",
            kind: Kind::Mip,
            build: |_| Ok(one_variable()),
            solve: |_, run: &Run| {
                burn_cpu(1.0);
                solve_ok(run)
            },
        },
        Formulation {
            key: "spawn",
            description: "starts a child process that runs busy, waits for it, then solves as ok",
            kind: Kind::Mip,
            build: |_| Ok(one_variable()),
            solve: |f: &Fault, run: &Run| match child(f, "busy").and_then(|mut c| c.wait()) {
                Ok(_) => solve_ok(run),
                Err(e) => RunResult::failed(format!("cannot run the child: {e}")),
            },
        },
        Formulation {
            key: "detach",
            description:
                "starts a child process that runs sleep and leaves it running, then solves as ok",
            kind: Kind::Mip,
            build: |_| Ok(one_variable()),
            solve: |f: &Fault, run: &Run| match child(f, "sleep") {
                Ok(c) => {
                    std::mem::forget(c);
                    solve_ok(run)
                }
                Err(e) => RunResult::failed(format!("cannot run the child: {e}")),
            },
        },
        fault("abort", "aborts the process", |_, _| std::process::abort()),
        fault("panic", "panics", |_, _| {
            panic!("injected panic in formulation 'panic'")
        }),
        fault("exit", "exits with code 3, printing nothing", |_, _| {
            std::process::exit(3)
        }),
        fault(
            "sleep",
            "sleeps an hour, ignoring the time limit",
            |_, _| {
                std::thread::sleep(std::time::Duration::from_secs(3600));
                RunResult::failed("woke up".into())
            },
        ),
        fault("oom", "allocates until allocation fails", |_, _| {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                let chunk = vec![1u8; 64 << 20];
                hoard.push(std::hint::black_box(chunk));
            }
        }),
        fault("stack", "overflows the stack", |_, _| {
            RunResult::failed(format!("{}", recurse(0)))
        }),
    ],
    formats: "one instance name per line",
    hidden: true,
    parse,
    size_unit: "",
    tables: |_| Vec::new(),
    suite: |_| super::Suite {
        parts: vec![],
        repeats: 1,
    },
    generator: None,
    user: None,
};

/// A named fault instance.
#[derive(Clone, Debug)]
pub struct Fault {
    name: String,
    file: std::path::PathBuf,
}

fn parse(path: &Path, text: &str) -> Result<Vec<Fault>, InputError> {
    let out: Vec<Fault> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Fault {
            name: l.to_string(),
            file: path.to_path_buf(),
        })
        .collect();
    if out.is_empty() {
        return Err(InputError::new(path, 0, "no instance names"));
    }
    Ok(out)
}

/// Solves the one-variable model; the verifier accepts x = 1.
fn solve_ok(run: &Run) -> RunResult {
    run.compact(
        || (one_variable(), ()),
        |_, v| Answer {
            json: serde_json::json!({ "x": v[0] }),
            text: format!("x = {}", v[0]),
            verdict: if (v[0] - 1.0).abs() < 1e-6 {
                Ok(())
            } else {
                Err("x is not 1".into())
            },
        },
    )
}

/// Spins until this process has used `seconds` of CPU time.
fn burn_cpu(seconds: f64) {
    let used = || {
        // SAFETY: timespec is plain data; clock_gettime fills it.
        let mut t: libc::timespec = unsafe { std::mem::zeroed() };
        unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    };
    let start = used();
    let mut x = 0u64;
    while used() - start < seconds {
        for i in 0..10_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
    }
}

/// Starts this executable as a worker that runs `formulation` on the same instance, with
/// `PUZZLEBENCH_FAULT_CHILD` set to the instance's name, so a test can find it.
fn child(f: &Fault, formulation: &str) -> std::io::Result<std::process::Child> {
    use crate::engines::highs::HIGHS;
    use std::io::Write;
    let options = SolveOptions::default();
    let settings = HIGHS.settings(Kind::Mip, &options);
    let run_id =
        crate::record::run_id("fault", &f.name, formulation, HIGHS, &options, &settings, 1);
    let job = serde_json::json!({
        "puzzle": "fault",
        "file": f.file,
        "instance": f.name,
        "formulation": formulation,
        "backend": "highs",
        "repeat": 1,
        "options": options,
        "run_id": run_id,
    });
    let mut c = std::process::Command::new(std::env::current_exe()?)
        .arg("worker")
        .env("PUZZLEBENCH_FAULT_CHILD", &f.name)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    c.stdin
        .take()
        .expect("piped")
        .write_all(job.to_string().as_bytes())?;
    Ok(c)
}

fn one_variable() -> Model {
    let mut m = Model::new("fault_ok");
    m.sense = crate::model::Sense::Maximize;
    let x = m.add_var("x", VarKind::Binary, 0.0, 1.0, 1.0);
    m.add_le("cap", [(x, 1.0)], 1.0);
    m
}

#[allow(unconditional_recursion)]
fn recurse(depth: u64) -> u64 {
    let pad = std::hint::black_box([depth; 64]);
    recurse(depth + 1) + pad[3]
}

impl Instance for Fault {
    fn name(&self) -> &str {
        &self.name
    }
    fn canonical(&self) -> String {
        self.name.clone()
    }
    fn size_label(&self) -> String {
        "1".into()
    }
    fn size(&self) -> f64 {
        1.0
    }
    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
