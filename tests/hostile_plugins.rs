//! Plug-ins tried as a hostile user would (issue 75): bad numbers in a model, drivers that
//! lie or crash, commands that leave children behind or ignore their input, definitions
//! with absurd settings. Each case failed before the process layer (`src/process/`), the
//! model check ([`puzzlebench::model::Model::check`]) and the driver answer checks: a
//! panic, an abort, a hang, a leftover process, a lost answer, a mislabelled status or a
//! message that hid its cause. Every case must end, promptly, with a clear status.

use puzzlebench::engines::definition::Definition;
use puzzlebench::engines::{registry, Engine, SolveOptions, Status};
use puzzlebench::model::{Model, Name, Var, VarKind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A fresh scratch folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pb-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Two binaries `x0 + x1 = 1`, minimising `x0`: optimal at `x = (0, 1)`, objective 0.
fn small() -> Model {
    let mut m = Model::new("small");
    let a = m.add_binary("x0");
    let b = m.add_binary("x1");
    m.vars[a.0].objective = 1.0;
    m.add_eq("one", [(a, 1.0), (b, 1.0)], 1.0);
    m
}

fn options(limit: Option<f64>) -> SolveOptions {
    SolveOptions {
        time_limit: limit,
        ..SolveOptions::default()
    }
}

/// The processes whose command line holds `word` as one of its words.
fn processes_with(word: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        if cmd.split(|&b| b == 0).any(|w| w == word.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

/// Waits up to 3 s for the processes holding `word` to be gone; true when they are.
fn gone(word: &str) -> bool {
    (0..60).any(|_| {
        if processes_with(word).is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
        false
    })
}

/// A command-line definition `key` in `dir` with the TOML lines `body` (its command,
/// reader and so on), its version from `echo`.
fn define(dir: &Path, key: &str, body: &str) -> PathBuf {
    let file = dir.join(format!("{key}.toml"));
    std::fs::write(
        &file,
        format!(
            "key = \"{key}\"\ndescription = \"a hostile test\"\nversion = {{ command = [\"sh\", \"-c\", \"echo v1.0\"], pattern = \"v(\\\\S+)\" }}\n{body}\n"
        ),
    )
    .unwrap();
    file
}

/// A driver definition `key` in `dir` whose driver (Python, on the system's python3)
/// answers each solve by running `on_solve` (Python statements; `emit(text)` writes a
/// line and flushes).
fn driver(dir: &Path, key: &str, on_solve: &str) -> Engine {
    let script = dir.join(format!("{key}.py"));
    std::fs::write(
        &script,
        format!(
            "import json, os, sys, subprocess, signal\n\
             def emit(text):\n    sys.stdout.write(text + '\\n'); sys.stdout.flush()\n\
             for line in sys.stdin:\n    job = json.loads(line)\n    if job['op'] == 'solve':\n{}\n",
            on_solve
                .lines()
                .map(|l| format!("        {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    )
    .unwrap();
    let file = define(
        dir,
        key,
        &format!("input = \"driver\"\ncommand = [\"python3\", \"{{dir}}/{key}.py\"]"),
    );
    registry::engine_of_file(&file).unwrap()
}

/// Solves `model` on `engine` on a thread of its own, failing the test when it takes
/// more than `within` seconds (a hang) rather than waiting for it.
fn solve_within(
    engine: Engine,
    model: Model,
    limit: Option<f64>,
    within: f64,
) -> puzzlebench::engines::Outcome {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(engine.solve_model(&model, &options(limit)));
    });
    rx.recv_timeout(Duration::from_secs_f64(within))
        .unwrap_or_else(|_| panic!("{} did not end within {within} s", engine.key()))
}

#[test]
fn a_model_with_bad_numbers_is_the_same_error_on_every_engine() {
    let cases: Vec<(&str, Model)> = vec![
        ("an empty binary domain", {
            let mut m = small();
            m.vars[0].lower = 1.0;
            m.vars[0].upper = 0.0;
            m
        }),
        ("a right-hand side of 1e300", {
            let mut m = small();
            let (a, b) = (m.vars.len() - 2, m.vars.len() - 1);
            m.add_le(
                "huge",
                [
                    (puzzlebench::model::VarId(a), 1.0),
                    (puzzlebench::model::VarId(b), 1.0),
                ],
                1e300,
            );
            m
        }),
        ("a column fixed at infinity", {
            let mut m = small();
            m.vars.push(Var {
                name: Name::from("y"),
                kind: VarKind::Continuous,
                lower: f64::INFINITY,
                upper: f64::INFINITY,
                objective: 0.0,
            });
            m
        }),
        ("an objective coefficient of 1e300", {
            let mut m = small();
            m.vars[1].objective = 1e300;
            m
        }),
        ("a NaN coefficient", {
            let mut m = small();
            m.rows[0].terms[0].1 = f64::NAN;
            m
        }),
        ("an integer column with no integer in its bounds", {
            let mut m = small();
            m.vars.push(Var {
                name: Name::from("z"),
                kind: VarKind::Integer,
                lower: 0.2,
                upper: 0.8,
                objective: 0.0,
            });
            m
        }),
    ];
    for (what, model) in &cases {
        assert!(model.check().is_err(), "{what}: the check let it through");
        for engine in registry::all() {
            let o = solve_within(*engine, model.clone(), Some(5.0), 60.0);
            let message = o.message.clone().unwrap_or_default();
            assert!(
                (o.status == Status::Error && message.starts_with("the model cannot be solved: "))
                    || o.status == Status::Refused,
                "{what} on {}: {:?} {message}",
                engine.key(),
                o.status
            );
        }
    }
}

#[test]
fn an_unbounded_model_is_never_answered_with_a_number() {
    // minimise −y with y ≥ 0 continuous and unbounded above, beside a binary.
    let mut m = small();
    let y = m.add_var("y", VarKind::Continuous, 0.0, f64::INFINITY, -1.0);
    let x = puzzlebench::model::VarId(0);
    m.add_ge("link", [(y, 1.0), (x, -1.0)], 0.0);
    assert!(m.check().is_ok());
    for engine in registry::all() {
        let o = solve_within(*engine, m.clone(), Some(5.0), 60.0);
        assert!(
            matches!(
                o.status,
                Status::Error | Status::Refused | Status::TimeLimit
            ),
            "{}: {:?} {:?} (values {:?})",
            engine.key(),
            o.status,
            o.message,
            o.values
        );
        assert!(
            o.values
                .as_deref()
                .is_none_or(|v| v.iter().all(|x| x.is_finite())),
            "{}",
            engine.key()
        );
    }
}

#[test]
fn a_grace_beyond_an_hour_is_refused_with_its_line() {
    let dir = scratch("grace");
    for grace in ["1e300", "1e19", "-1", "nan"] {
        let text = format!(
            "key = \"t\"\ndescription = \"d\"\nversion = {{ command = [\"sh\", \"-c\", \"echo v1\"], pattern = \"v(\\\\S+)\" }}\ninput = \"mps\"\ncommand = [\"sh\", \"{{model}}\", \"{{solution}}\"]\nreader = \"cbc\"\ngrace = {grace}\n"
        );
        let file = dir.join("t.toml");
        match Definition::parse(&text, &file) {
            Ok(_) => panic!("grace {grace} was accepted"),
            Err(e) => assert!(
                e.starts_with(&format!("{}:7: grace", file.display())) || e.contains(":7:"),
                "{grace}: {e}"
            ),
        }
    }
}

#[test]
fn driver_answers_with_bad_numbers_are_errors_that_say_which() {
    let dir = scratch("numbers");
    let answer = |fields: &str| {
        format!("emit('{{\"kind\": \"answer\", \"status\": \"optimal\", \"values\": [0.0, 1.0]{fields}}}')")
    };
    let cases = [
        (
            "nan",
            answer(", \"seconds\": NaN"),
            "NaN and Infinity are not JSON",
        ),
        (
            "inf",
            answer(", \"seconds\": 0.1, \"bound\": Infinity"),
            "NaN and Infinity are not JSON",
        ),
        ("null", answer(", \"seconds\": null"), "not valid"),
        ("missing", answer(""), "missing field `seconds`"),
        ("negative", answer(", \"seconds\": -5"), "gives seconds -5"),
        (
            "huge",
            answer(", \"seconds\": 1e308"),
            "gives seconds 1e308",
        ),
        (
            "nodes",
            answer(", \"seconds\": 0.1, \"nodes\": -3"),
            "not valid",
        ),
    ];
    for (key, solve, expect) in cases {
        // No time limit: a bad answer that were ignored would leave the run waiting.
        let e = driver(&dir, &format!("t-{key}"), &solve);
        let started = Instant::now();
        let o = solve_within(e, small(), None, 20.0);
        let m = o.message.clone().unwrap_or_default();
        assert_eq!(o.status, Status::Error, "{key}: {m}");
        assert!(m.contains(expect), "{key}: {m}");
        assert!(started.elapsed() < Duration::from_secs(10), "{key}");
    }
    // The same driver with a sound answer is optimal: the cases above fail on their
    // numbers, not on the driver.
    let e = driver(&dir, "t-sound", &answer(", \"seconds\": 0.1"));
    let o = solve_within(e, small(), None, 20.0);
    assert_eq!(o.status, Status::Optimal, "{:?}", o.message);
}

#[test]
fn a_byte_that_is_not_utf8_loses_nothing() {
    let dir = scratch("utf8");
    let e = driver(
        &dir,
        "t-bytes",
        "sys.stdout.buffer.write(b'solver banner \\xff\\xfe\\n' * 3)\n\
         emit('{\"kind\": \"answer\", \"status\": \"optimal\", \"seconds\": 0.1, \"values\": [0.0, 1.0]}')",
    );
    let o = solve_within(e, small(), Some(10.0), 20.0);
    assert_eq!(o.status, Status::Optimal, "{:?}", o.message);
    assert_eq!(o.objective, Some(0.0));
    // The same through a command line's standard output.
    let file = define(
        &dir,
        "t-bytes-cli",
        "input = \"mps\"\ncommand = [\"sh\", \"-c\", \"printf 'banner \\\\377\\\\nC0 0\\\\nC1 1\\\\n'; true {model}\"]\nreader = \"name-value\"\nanswer = \"stdout\"",
    );
    let o = solve_within(
        registry::engine_of_file(&file).unwrap(),
        small(),
        Some(10.0),
        20.0,
    );
    assert!(o.status.has_solution(), "{:?} {:?}", o.status, o.message);
    assert_eq!(o.objective, Some(0.0));
}

#[test]
fn a_driver_that_crashes_or_floods_says_how() {
    let dir = scratch("crash");
    let e = driver(
        &dir,
        "t-abort",
        "sys.stderr.write('about to abort\\n'); sys.stderr.flush()\nos.kill(os.getpid(), signal.SIGABRT)",
    );
    let o = solve_within(e, small(), Some(10.0), 20.0);
    let m = o.message.unwrap_or_default();
    assert_eq!(o.status, Status::Error, "{m}");
    assert!(m.contains("about to abort") && m.contains("SIGABRT"), "{m}");
    let e = driver(
        &dir,
        "t-flood",
        "sys.stderr.write('x' * 3000000 + '\\n'); sys.exit(1)",
    );
    let o = solve_within(e, small(), Some(10.0), 20.0);
    let m = o.message.unwrap_or_default();
    assert_eq!(o.status, Status::Error);
    assert!(
        m.len() < 2000 && m.contains("3000000 bytes in all"),
        "{}",
        m.len()
    );
    let e = driver(
        &dir,
        "t-garbage",
        "emit('{\"kind\": \"answer\", ' + 'y' * 3000000)",
    );
    let o = solve_within(e, small(), None, 20.0);
    let m = o.message.unwrap_or_default();
    assert_eq!(o.status, Status::Error);
    assert!(m.len() < 2000, "{}", m.len());
}

#[test]
fn a_background_child_neither_holds_the_run_nor_outlives_it() {
    let dir = scratch("background");
    // A driver that starts a child holding its standard output and exits unanswered.
    let e = driver(
        &dir,
        "t-holder",
        "subprocess.Popen(['sleep', '37.125'])\nsys.exit(0)",
    );
    let started = Instant::now();
    let o = solve_within(e, small(), None, 30.0);
    assert_eq!(o.status, Status::Error, "{:?}", o.message);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(
        gone("37.125"),
        "the driver's background child survived the run"
    );
    // A driver that answers well but leaves a detached child (a session of its own).
    let e = driver(
        &dir,
        "t-detach",
        "subprocess.Popen(['setsid', 'sleep', '38.25'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)\n\
         emit('{\"kind\": \"answer\", \"status\": \"optimal\", \"seconds\": 0.1, \"values\": [0.0, 1.0]}')",
    );
    let o = solve_within(e, small(), Some(10.0), 30.0);
    assert_eq!(o.status, Status::Optimal, "{:?}", o.message);
    assert!(
        gone("38.25"),
        "the driver's detached child survived the run"
    );
    // A command line that leaves a child holding its output, with a 3 s limit.
    let file = define(
        &dir,
        "t-cli-holder",
        "input = \"mps\"\ncommand = [\"sh\", \"-c\", \"sleep 39.5 & echo C0 0; echo C1 1; true {model}\"]\nreader = \"name-value\"\nanswer = \"stdout\"",
    );
    let started = Instant::now();
    let o = solve_within(
        registry::engine_of_file(&file).unwrap(),
        small(),
        Some(3.0),
        30.0,
    );
    assert!(o.status.has_solution(), "{:?} {:?}", o.status, o.message);
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    assert!(
        gone("39.5"),
        "the command's background child survived the run"
    );
}

#[test]
fn a_killed_puzzlebench_leaves_no_child() {
    let dir = scratch("killed");
    let defs = dir.join("defs");
    std::fs::create_dir_all(&defs).unwrap();
    define(
        &defs,
        "t-slow",
        "input = \"mps\"\ncommand = [\"sh\", \"-c\", \"sleep 40.75; true {model} {solution}\"]\nreader = \"cbc\"",
    );
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args([
            "--engines",
            &defs.display().to_string(),
            "solve",
            "--puzzle",
            "sudoku",
            "--backend",
            "t-slow",
            "instances/sudoku/solo_2x2.txt",
        ])
        .current_dir(&root)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let seen = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        !processes_with("40.75").is_empty()
    });
    assert!(seen, "the definition's command never started");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(gone("40.75"), "the command's child outlived puzzlebench");
}

#[test]
fn command_lines_that_fail_say_why() {
    let dir = scratch("why");
    // No solution file: the program's end and its last words, not "no output".
    let file = define(
        &dir,
        "t-nofile",
        "input = \"mps\"\ncommand = [\"sh\", \"-c\", \"echo licence expired >&2; exit 3; true {model} {solution}\"]\nreader = \"cbc\"",
    );
    let o = solve_within(
        registry::engine_of_file(&file).unwrap(),
        small(),
        Some(10.0),
        20.0,
    );
    let m = o.message.unwrap_or_default();
    assert_eq!(o.status, Status::Error);
    assert!(
        m.contains("the solution file")
            && m.contains("exit code 3")
            && m.contains("licence expired"),
        "{m}"
    );
    // A version command that cannot run: not installed, and a run on it is an error.
    let file = define(
        &dir,
        "t-noversion",
        "input = \"mps\"\ncommand = [\"sh\", \"-c\", \"echo C0 0; echo C1 1; true {model}\"]\nreader = \"name-value\"\nanswer = \"stdout\"",
    );
    let text = std::fs::read_to_string(&file).unwrap().replace(
        "[\"sh\", \"-c\", \"echo v1.0\"]",
        "[\"no-such-version-program\"]",
    );
    std::fs::write(&file, text).unwrap();
    let o = solve_within(
        registry::engine_of_file(&file).unwrap(),
        small(),
        Some(10.0),
        20.0,
    );
    assert_eq!(o.status, Status::Error, "{:?}", o.message);
    assert!(o.message.unwrap_or_default().contains("not installed"));
}

#[test]
fn a_sat_solver_that_ignores_the_bound_clauses_is_an_error_not_a_loop() {
    let dir = scratch("cnf");
    // Always "x0 and x1 true" (cost 2), whatever the clauses ask.
    let file = define(
        &dir,
        "t-stubborn",
        "input = \"cnf\"\ncommand = [\"sh\", \"-c\", \"printf 's SATISFIABLE\\\\nv 1 2 0\\\\n'; true {model}\"]\nreader = \"sat-competition\"",
    );
    // minimise x0 + x1 with x0 + x1 ≥ 1: the second call asks for cost ≤ 1.
    let mut m = Model::new("cnf");
    let a = m.add_binary("x0");
    let b = m.add_binary("x1");
    m.vars[a.0].objective = 1.0;
    m.vars[b.0].objective = 1.0;
    m.add_ge("one", [(a, 1.0), (b, 1.0)], 1.0);
    let started = Instant::now();
    let o = solve_within(
        registry::engine_of_file(&file).unwrap(),
        m,
        Some(20.0),
        40.0,
    );
    let msg = o.message.unwrap_or_default();
    assert_eq!(o.status, Status::Error, "{msg}");
    assert!(msg.contains("ignored clauses"), "{msg}");
    assert_eq!(o.rounds, Some(2));
    assert!(started.elapsed() < Duration::from_secs(5));
}
