//! A hidden test puzzle that injects faults, so the tests can show that a sweep survives
//! them. It is not listed by `puzzlebench list`. Each non-comment line of an instance file
//! names one instance. Formulations:
//!
//! * `ok` — a one-variable model (maximise x, x binary), solved on the chosen backend;
//!   the verifier accepts x = 1.
//! * `abort` — the process aborts (SIGABRT), as a solver's failed assertion would.
//! * `panic` — a Rust panic.
//! * `exit` — the process exits with code 3 and prints nothing.
//! * `sleep` — sleeps an hour, ignoring every time limit, as a hung solver would.
//! * `oom` — allocates and touches memory until allocation fails.
//! * `stack` — unbounded recursion until the stack overflows.

use super::{Answer, Formulation, InputError, Instance, PuzzleDef, Report, Run};
use crate::backends::{Engine, Kind, SolveOptions};
use crate::model::{Model, VarKind};
use std::path::Path;

/// A fault formulation: it never returns normally.
const fn fault(
    key: &'static str,
    description: &'static str,
    solve: fn(&Fault, &Run) -> Report,
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
    description: "test-only faults: ok, abort, panic, exit, sleep, oom, stack",
    formulations: &[
        Formulation {
            key: "ok",
            description: "a one-variable model that solves",
            kind: Kind::Mip,
            build: |_| Ok(one_variable()),
            solve: |_, run: &Run| {
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
                Report::refused("woke up".into())
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
            Report::refused(format!("{}", recurse(0)))
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
};

/// A named fault instance.
#[derive(Clone, Debug)]
pub struct Fault {
    name: String,
}

fn parse(path: &Path, text: &str) -> Result<Vec<Fault>, InputError> {
    let out: Vec<Fault> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Fault {
            name: l.to_string(),
        })
        .collect();
    if out.is_empty() {
        return Err(InputError::new(path, 0, "no instance names"));
    }
    Ok(out)
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
    fn build(&self, formulation: &str) -> Result<Model, String> {
        PUZZLE.build(self, formulation)
    }
    fn solve(
        &self,
        formulation: &str,
        engine: Engine,
        options: &SolveOptions,
    ) -> Result<Report, String> {
        PUZZLE.solve(self, formulation, engine, options)
    }
}
