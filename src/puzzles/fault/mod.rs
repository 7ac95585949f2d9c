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

use super::{solve_compact, Answer, FormulationInfo, InputError, Instance, PuzzleInfo, Report};
use crate::backends::{Backend, SolveOptions};
use crate::model::{Model, VarKind};
use std::path::Path;

/// The registry row of the fault puzzle (hidden from `list`).
pub const INFO: PuzzleInfo = PuzzleInfo {
    key: "fault",
    description: "test-only faults: ok, abort, panic, exit, sleep, oom, stack",
    formulations: &[
        FormulationInfo {
            key: "ok",
            description: "a one-variable model that solves",
        },
        FormulationInfo {
            key: "abort",
            description: "aborts the process",
        },
        FormulationInfo {
            key: "panic",
            description: "panics",
        },
        FormulationInfo {
            key: "exit",
            description: "exits with code 3, printing nothing",
        },
        FormulationInfo {
            key: "sleep",
            description: "sleeps an hour, ignoring the time limit",
        },
        FormulationInfo {
            key: "oom",
            description: "allocates until allocation fails",
        },
        FormulationInfo {
            key: "stack",
            description: "overflows the stack",
        },
    ],
    formats: "one instance name per line",
    hidden: true,
    load,
    tables: |_| Vec::new(),
    suite: |_| super::Suite {
        instances: vec![],
        formulations: vec![],
        repeats: 1,
        time_limit: 1.0,
        presolve: vec![true],
        own_backend: vec![],
        extra: vec![],
    },
};

/// A named fault instance.
#[derive(Clone, Debug)]
pub struct Fault {
    name: String,
}

fn load(path: &Path) -> Result<Vec<Box<dyn Instance>>, InputError> {
    let text = super::read_text(path)?;
    let out: Vec<Box<dyn Instance>> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            Box::new(Fault {
                name: l.to_string(),
            }) as Box<dyn Instance>
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
    fn build(&self, _formulation: &str) -> Result<Model, String> {
        Ok(one_variable())
    }
    fn solve(
        &self,
        formulation: &str,
        backend: Backend,
        options: &SolveOptions,
    ) -> Result<Report, String> {
        match formulation {
            "ok" => Ok(solve_compact(
                || (one_variable(), ()),
                backend,
                options,
                |_, v| Answer {
                    json: serde_json::json!({ "x": v[0] }),
                    text: format!("x = {}", v[0]),
                    verdict: if (v[0] - 1.0).abs() < 1e-6 {
                        Ok(())
                    } else {
                        Err("x is not 1".into())
                    },
                },
            )),
            "abort" => std::process::abort(),
            "panic" => panic!("injected panic in formulation 'panic'"),
            "exit" => std::process::exit(3),
            "sleep" => {
                std::thread::sleep(std::time::Duration::from_secs(3600));
                Err("woke up".into())
            }
            "oom" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    let chunk = vec![1u8; 64 << 20];
                    hoard.push(std::hint::black_box(chunk));
                }
            }
            "stack" => Err(format!("{}", recurse(0))),
            other => Err(INFO.formulation(other).map(|_| ()).unwrap_err()),
        }
    }
}
