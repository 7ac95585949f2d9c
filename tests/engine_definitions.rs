//! Engine definitions (`engines/*.toml`, docs/engines.md "Adding an engine without
//! Rust"): a definition of at most 20 lines adds a command-line MPS solver that passes
//! `engine check`, runs in a sweep and a race and writes its version into its rows;
//! every shipped definition whose program is installed solves and verifies the tiny
//! instances of every formulation it takes and stops near a 1 s limit (its wall time
//! printed, not asserted); bad definitions fail with clear errors (a missing program, an
//! unknown placeholder or reader, an answer that does not parse, a solver that ignores
//! its limit, a key that clashes). A driver definition (`input = "driver"`, the protocol
//! of docs/driver-protocol.md) passes `engine check` with the example driver, and a
//! driver that misbehaves (a wrong answer, no values, no answer by its deadline, a
//! definition with a reader or a placeholder) gives a clear error.

use puzzlebench::commands::engine_check;
use puzzlebench::engines::definition::Definition;
use puzzlebench::engines::{registry, Engine, SolveOptions, Status};
use puzzlebench::puzzles::{self, tiny};
use puzzlebench::record::file::read_results;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run puzzlebench")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// A scratch folder, removed when the test is done with it.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh scratch folder.
fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("pb-defs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// True when `program` runs; else says why the test is skipped.
fn installed(program: &str, test: &str) -> bool {
    let ok = Command::new(program).arg("--help").output().is_ok();
    if !ok {
        eprintln!("skipped {test}: {program} is not installed (scripts/setup-deps.sh installs it)");
    }
    ok
}

/// A command-line MPS solver in 20 lines or fewer: CBC's `cbc` program, under a key of
/// its own.
const SMALL: &str = r#"# CBC's program on MPS, as small as a definition gets.
key = "my-cbc"
description = "CBC's cbc program on the model as MPS"
version = { command = ["cbc", "-quit"], pattern = "Version: (\\S+)" }
input = "mps"
command = ["cbc", "{model}", "sec", "{time_limit}", "solve", "solution", "{solution}"]
reader = "cbc"
[log]
infeasible = "Problem proven infeasible|Problem is infeasible"
"#;

#[test]
fn a_short_definition_of_an_mps_solver_passes_its_check_and_runs_in_a_sweep_and_a_race() {
    if !installed("cbc", "the short definition") {
        return;
    }
    assert!(SMALL.lines().count() <= 20);
    let dir = scratch("small");
    let defs = dir.join("defs");
    std::fs::create_dir_all(&defs).unwrap();
    let file = defs.join("my-cbc.toml");
    std::fs::write(&file, SMALL).unwrap();
    let defs_arg = defs.display().to_string();

    // `engine check`: every tiny instance solved, verified and as HiGHS, the 1 s limit kept.
    let o = pb(&["engine", "check", &file.display().to_string()]);
    let out = text(&o.stdout);
    eprintln!("{out}");
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(out.contains("my-cbc"), "{out}");
    assert!(out.contains("  ok      sudoku binary: optimal"), "{out}");
    assert!(out.contains(", 0 failed"), "{out}");
    assert!(
        out.contains("circuit circuit/table_a_1/10x10.txt cm2"),
        "{out}"
    );

    // `list` shows it apart, with its file.
    let o = pb(&["--engines", &defs_arg, "list"]);
    let listing = text(&o.stdout);
    let apart = listing.split("Engine definitions").nth(1).unwrap_or("");
    assert!(
        apart.contains("my-cbc") && apart.contains("my-cbc.toml"),
        "{listing}"
    );

    // A sweep: its rows carry its key and version.
    let csv = dir.join("sweep.csv");
    let o = pb(&[
        "--engines",
        &defs_arg,
        "run",
        "--puzzle",
        "sudoku",
        "--formulation",
        "binary",
        "--backend",
        "my-cbc,highs",
        "--instances",
        "instances/sudoku/solo_2x2.txt",
        "--time-limit",
        "30",
        "--out",
        &csv.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = read_results(&csv).unwrap();
    let mine: Vec<_> = rows.iter().filter(|r| r.backend == "my-cbc").collect();
    assert!(!mine.is_empty());
    for r in &mine {
        assert_eq!(r.status, "optimal", "{:?}", r.error);
        assert_eq!(r.verified, Some(true));
        assert!(
            r.solver_version.starts_with("my-cbc 2."),
            "{}",
            r.solver_version
        );
    }

    // A race between it and HiGHS on two 9×9 puzzles.
    let inst = dir.join("instances/sudoku");
    std::fs::create_dir_all(&inst).unwrap();
    std::fs::copy(
        root().join("instances/sudoku/solo_3x3_basic.txt"),
        inst.join("solo_3x3_basic.txt"),
    )
    .unwrap();
    std::fs::write(
        inst.join("ladder.txt"),
        "rung 9x9: sudoku/solo_3x3_basic.txt\n",
    )
    .unwrap();
    let race = dir.join("race");
    let o = pb(&[
        "--engines",
        &defs_arg,
        "race",
        "--puzzle",
        "sudoku",
        "--backend",
        "my-cbc,highs",
        "--formulation",
        "binary",
        "--instances",
        "2",
        "--time-limit",
        "30",
        "--quiet",
        "--out",
        &race.display().to_string(),
        "--instances-dir",
        &dir.join("instances").display().to_string(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = read_results(&race.join("results.csv")).unwrap();
    let raced: Vec<_> = rows.iter().filter(|r| r.backend == "my-cbc").collect();
    assert_eq!(raced.len(), 2, "{rows:?}");
    // Each run either finished with an answer the verifier accepted or, where HiGHS ran
    // first and was fast, was stopped by the race's adaptive cap (status `capped`, never
    // solved; CBC may stop at the cap holding an incumbent, which the verifier then checks
    // like any time-limited answer, so its `verified` is empty or true, never false);
    // either way the definition's own solver ran it.
    assert!(
        raced.iter().all(|r| r.solver_version.starts_with("my-cbc ")
            && ((r.status == "optimal" && r.verified == Some(true))
                || (r.status == "capped"
                    && r.cap_seconds.is_some()
                    && r.verified != Some(false)
                    && !r.solved()))),
        "{raced:?}"
    );
}

/// The hard run's wall time of each shipped definition, printed for the closing note.
#[test]
fn every_installed_shipped_definition_solves_its_tiny_instances_and_stops_near_its_limit() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("engines"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let keys: Vec<String> = files
        .iter()
        .map(|f| Definition::load(f).unwrap().key)
        .collect();
    for k in [
        "cbc-cli",
        "lpsolve",
        "clasp",
        "sat4j",
        "minisat",
        "cadical-cli",
    ] {
        assert!(keys.iter().any(|x| x == k), "engines/{k}.toml is missing");
    }
    let mut ran = 0;
    for file in &files {
        let engine = registry::engine_of_file(file).unwrap();
        if !engine.installed() {
            eprintln!(
                "skipped {}: {} (scripts/setup-deps.sh installs it)",
                engine.key(),
                engine.version()
            );
            continue;
        }
        let mut log = String::new();
        let c = engine_check::check_with(file, &root().join("instances"), &mut |l| {
            log.push_str(l);
            log.push('\n');
        })
        .unwrap();
        eprintln!("{log}");
        assert_eq!(c.failed, 0, "{log}");
        assert!(c.solved >= 1, "{log}");
        eprintln!(
            "FIGURES {}: {} tiny instances solved and verified, {} refused; wall time at a 1 s limit: {}",
            engine.key(),
            c.solved,
            c.refused,
            c.hard_seconds.map_or("none".into(), |s| format!("{s:.3} s"))
        );
        ran += 1;
    }
    eprintln!("{ran} shipped definitions checked");
}

/// A definition in `dir` with `command` (TOML array items) and `extra` lines.
fn define(dir: &Path, key: &str, command: &str, extra: &str) -> PathBuf {
    let file = dir.join(format!("{key}.toml"));
    std::fs::write(
        &file,
        format!(
            "key = \"{key}\"\ndescription = \"a test\"\nversion = {{ command = [\"sh\", \"-c\", \"echo v1.0\"], pattern = \"v(\\\\S+)\" }}\ninput = \"mps\"\ncommand = [{command}]\nreader = \"name-value\"\n{extra}"
        ),
    )
    .unwrap();
    file
}

fn sudoku() -> Box<dyn puzzlebench::puzzles::Instance> {
    tiny::tiny_instance(
        puzzles::puzzle("sudoku").unwrap(),
        "binary",
        &root().join("instances"),
    )
    .unwrap()
}

fn engine(file: &Path) -> Engine {
    registry::engine_of_file(file).unwrap()
}

#[test]
fn a_missing_program_is_not_installed() {
    let dir = scratch("missing");
    let file = define(
        &dir,
        "t-missing",
        "\"no-such-solver-here\", \"{model}\", \"{solution}\"",
        "",
    );
    let mut text = std::fs::read_to_string(&file).unwrap();
    text = text.replace(
        "[\"sh\", \"-c\", \"echo v1.0\"]",
        "[\"no-such-solver-here\", \"--version\"]",
    );
    std::fs::write(&file, text).unwrap();
    let e = engine(&file);
    assert!(!e.installed());
    assert!(
        e.version().starts_with("not installed: "),
        "{}",
        e.version()
    );
    let r = sudoku()
        .solve("binary", e, &SolveOptions::default())
        .unwrap();
    assert_eq!(r.outcome.status, Status::Error);
    let m = r.outcome.message.unwrap();
    assert!(
        m.contains("not installed") && m.contains("no-such-solver-here"),
        "{m}"
    );
}

#[test]
fn an_unknown_placeholder_or_reader_names_the_file_and_line() {
    let dir = scratch("unknown");
    let file = define(&dir, "t-place", "\"sh\", \"{model}\", \"{soluton}\"", "");
    let e = Definition::load(&file).unwrap_err();
    let at = format!("{}:5:", file.display());
    assert!(
        e.starts_with(&at) && e.contains("{soluton}") && e.contains("{solution}"),
        "{e}"
    );
    let file = define(&dir, "t-reader", "\"sh\", \"{model}\", \"{solution}\"", "");
    let t = std::fs::read_to_string(&file)
        .unwrap()
        .replace("name-value", "mosek-xml");
    std::fs::write(&file, t).unwrap();
    let e = Definition::load(&file).unwrap_err();
    let at = format!("{}:6:", file.display());
    assert!(
        e.starts_with(&at) && e.contains("mosek-xml") && e.contains("sat-competition"),
        "{e}"
    );
    // A key the file does not know is an error with its line too.
    let file = define(
        &dir,
        "t-key",
        "\"sh\", \"{model}\", \"{solution}\"",
        "threads = 4\n",
    );
    let e = Definition::load(&file).unwrap_err();
    assert!(
        e.starts_with(&format!("{}:7:", file.display())) && e.contains("threads"),
        "{e}"
    );
    // Through the command line: `engine check` says so, with exit status 2.
    let o = pb(&["engine", "check", &file.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("t-key.toml:7:"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn an_answer_that_does_not_parse_is_an_error_with_its_line() {
    let dir = scratch("parse");
    let file = define(
        &dir,
        "t-parse",
        "\"sh\", \"-c\", \"printf 'C0 1\\\\nC1 one\\\\n' > \\\"$1\\\"\", \"{model}\", \"{solution}\"",
        "",
    );
    let r = sudoku()
        .solve("binary", engine(&file), &SolveOptions::default())
        .unwrap();
    assert_eq!(r.outcome.status, Status::Error, "{:?}", r.outcome.message);
    let m = r.outcome.message.unwrap();
    assert!(
        m.contains("name-value reader")
            && m.contains("solution file")
            && m.contains("line 2")
            && m.contains("one"),
        "{m}"
    );
}

#[test]
fn a_solver_that_ignores_its_limit_is_killed_at_the_deadline_and_grace() {
    let dir = scratch("sleep");
    let file = define(
        &dir,
        "t-sleep",
        "\"sh\", \"-c\", \"sleep 30\", \"{model}\", \"{solution}\"",
        "grace = 0.5\n",
    );
    let started = Instant::now();
    let r = sudoku()
        .solve(
            "binary",
            engine(&file),
            &SolveOptions {
                time_limit: Some(1.0),
                ..SolveOptions::default()
            },
        )
        .unwrap();
    let wall = started.elapsed().as_secs_f64();
    assert_eq!(r.outcome.status, Status::TimeLimit);
    let m = r.outcome.message.unwrap();
    assert!(m.contains("killed 0.5 s after the run's deadline"), "{m}");
    // Killed, not waited for: far from the 30 s it asked for.
    assert!(wall < 10.0, "{wall}");
    eprintln!("a solver that ignores a 1 s limit: killed, the run ended after {wall:.3} s");
}

/// A program told a whole-second limit (1.4 s left is told 1 s) that stops at it with
/// "s UNKNOWN" has run out of time, though the run's own deadline has not passed: the
/// row is a time limit, not an error (Debian's cadical did this in CI).
#[test]
fn a_program_that_stops_at_its_whole_second_limit_is_a_time_limit() {
    let dir = scratch("whole");
    let file = dir.join("t-whole.toml");
    std::fs::write(
        &file,
        "key = \"t-whole\"\ndescription = \"a test\"\nversion = { command = [\"sh\", \"-c\", \"echo v1.0\"], pattern = \"v(\\\\S+)\" }\ninput = \"cnf\"\ncommand = [\"sh\", \"-c\", \"sleep {time_limit_whole}; echo 's UNKNOWN'\", \"{model}\"]\nreader = \"sat-competition\"\n",
    )
    .unwrap();
    let r = sudoku()
        .solve(
            "binary",
            engine(&file),
            &SolveOptions {
                time_limit: Some(1.4),
                ..SolveOptions::default()
            },
        )
        .unwrap();
    assert_eq!(r.outcome.status, Status::TimeLimit, "{:?}", r.outcome);
    let m = r.outcome.message.unwrap_or_default();
    assert!(m.contains("1-second limit it was given"), "{m}");
}

#[test]
fn a_key_that_clashes_is_an_error_naming_both_files() {
    let dir = scratch("clash");
    let a = define(
        &dir,
        "t-same",
        "\"sh\", \"{model}\"",
        "answer = \"stdout\"\n",
    );
    let b = dir.join("u-same.toml");
    std::fs::copy(&a, &b).unwrap();
    let c = define(
        &dir,
        "highs",
        "\"sh\", \"{model}\"",
        "answer = \"stdout\"\n",
    );
    let o = pb(&["--engines", &dir.display().to_string(), "list"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    for f in [&a, &b, &c] {
        assert!(err.contains(&f.display().to_string()), "{err}");
    }
    assert!(err.contains("src/engines/highs.rs"), "{err}");
}

/// The project's Python environment, when it has PySCIPOpt (the example driver's solver);
/// else says why the test is skipped.
fn venv_with_pyscipopt(test: &str) -> bool {
    let python = root().join(".venv/bin/python");
    let ok = Command::new(&python)
        .args(["-c", "import pyscipopt"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped {test}: no PySCIPOpt in .venv (scripts/setup-python.sh installs it)");
    }
    ok
}

#[test]
fn the_example_driver_definition_passes_its_check() {
    if !venv_with_pyscipopt("the_example_driver_definition_passes_its_check") {
        return;
    }
    let o = pb(&["engine", "check", "examples/engines/scip-driver.toml"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("version: scip-driver "), "{out}");
    assert!(
        out.contains("28 tiny instances solved and verified, 0 refused, 0 failed"),
        "{out}"
    );
    assert!(out.contains("time_limit after"), "{out}");
}

/// A driver definition in `dir` whose driver is the Python program `program` (run by the
/// system's python3), with `extra` lines.
fn define_driver(dir: &Path, key: &str, program: &str, extra: &str) -> PathBuf {
    let script = dir.join(format!("{key}.py"));
    std::fs::write(&script, program).unwrap();
    let file = dir.join(format!("{key}.toml"));
    std::fs::write(
        &file,
        format!(
            "key = \"{key}\"\ndescription = \"a test driver\"\nversion = {{ command = [\"sh\", \"-c\", \"echo v1.0\"], pattern = \"v(\\\\S+)\" }}\ninput = \"driver\"\ncommand = [\"python3\", \"{{dir}}/{key}.py\"]\n{extra}"
        ),
    )
    .unwrap();
    file
}

/// A driver that answers every solve with `answer` (a Python expression of `n`, the
/// model's columns, counted in its MPS file).
fn answering(answer: &str) -> String {
    format!(
        r#"import json, sys
n = 0
for line in sys.stdin:
    job = json.loads(line)
    if job["op"] == "model":
        names = set()
        section = None
        for l in open(job["mps"]):
            if not l.startswith(" "):
                section = l.split()[0] if l.split() else None
            elif section == "COLUMNS" and l.split()[0][1:].isdigit():
                names.add(l.split()[0])
        n = len(names)
    elif job["op"] == "solve":
        print(json.dumps({answer}), flush=True)
"#
    )
}

#[test]
fn a_driver_that_misbehaves_gives_a_clear_error() {
    let dir = scratch("driver");
    // All zeros is no Sudoku: the rows say which row it breaks.
    let zeros = define_driver(
        &dir,
        "t-zeros",
        &answering(
            r#"{"kind": "answer", "status": "optimal", "seconds": 0.01, "values": [0.0] * n}"#,
        ),
        "",
    );
    let r = sudoku()
        .solve("binary", engine(&zeros), &SolveOptions::default())
        .unwrap();
    assert_eq!(r.outcome.status, Status::Error, "{:?}", r.outcome.message);
    let m = r.outcome.message.unwrap();
    assert!(m.starts_with("t-zeros: the answer breaks row R"), "{m}");
    assert_eq!(r.outcome.version.as_deref(), Some("t-zeros 1.0"));
    // "optimal" with one value too few: no solution.
    let short = define_driver(
        &dir,
        "t-short",
        &answering(
            r#"{"kind": "answer", "status": "optimal", "seconds": 0.01, "values": [0.0] * (n - 1)}"#,
        ),
        "",
    );
    let r = sudoku()
        .solve("binary", engine(&short), &SolveOptions::default())
        .unwrap();
    assert_eq!(r.outcome.status, Status::Error);
    let m = r.outcome.message.unwrap();
    assert!(
        m.contains("says optimal but gives no values (one per column"),
        "{m}"
    );
    // A driver that never answers is killed 3 s after the deadline: time_limit.
    let mute = define_driver(
        &dir,
        "t-mute",
        "import sys, time\nfor l in sys.stdin: time.sleep(60)\n",
        "",
    );
    let started = Instant::now();
    let r = sudoku()
        .solve(
            "binary",
            engine(&mute),
            &SolveOptions {
                time_limit: Some(1.0),
                ..SolveOptions::default()
            },
        )
        .unwrap();
    let wall = started.elapsed().as_secs_f64();
    assert_eq!(
        r.outcome.status,
        Status::TimeLimit,
        "{:?}",
        r.outcome.message
    );
    assert!(
        r.outcome
            .message
            .unwrap()
            .contains("killed 3 s after the run's deadline"),
        "killed"
    );
    assert!(wall < 20.0, "{wall}");
    // A driver that dies says why, from its standard error.
    let dies = define_driver(
        &dir,
        "t-dies",
        "import sys\nsys.exit('no licence for this solver')\n",
        "",
    );
    let r = sudoku()
        .solve("binary", engine(&dies), &SolveOptions::default())
        .unwrap();
    assert_eq!(r.outcome.status, Status::Error);
    let m = r.outcome.message.unwrap();
    assert!(m.contains("no licence for this solver"), "{m}");
    // A driver takes no reader and no placeholder but {dir}; its settings are known ones.
    for (extra, line, says) in [
        ("reader = \"cbc\"\n", 6, "read by no reader"),
        (
            "applies = [\"threads\", \"heuristics\"]\n",
            6,
            "unknown setting 'heuristics'",
        ),
    ] {
        let f = define_driver(&dir, "t-bad", "", extra);
        let e = Definition::load(&f).unwrap_err();
        assert!(
            e.starts_with(&format!("{}:{line}:", f.display())) && e.contains(says),
            "{e}"
        );
    }
    let f = define_driver(&dir, "t-place", "", "");
    let t = std::fs::read_to_string(&f)
        .unwrap()
        .replace("t-place.py\"]", "t-place.py\", \"{model}\"]");
    std::fs::write(&f, t).unwrap();
    let e = Definition::load(&f).unwrap_err();
    assert!(
        e.starts_with(&format!("{}:5:", f.display())) && e.contains("no placeholder but {dir}"),
        "{e}"
    );
}

/// A driver on the protocol module that finds every model infeasible, and says how it
/// was run.
const TOY: &str = r#"import sys
import puzzlebench_driver as pb


class Toy(pb.Driver):
    name = "toy"
    version = "toy 1.0 (" + ("script" if sys.argv[0] == "-c" else "command") + ")"

    def solve(self, job):
        return {"status": "infeasible", "seconds": 0.01, "message": "no"}


pb.serve(Toy())
"#;

#[test]
fn a_driver_script_runs_on_the_project_python_with_the_module_as_a_command_does() {
    let test = "a_driver_script_runs_on_the_project_python_with_the_module_as_a_command_does";
    if !root().join(".venv/bin/python").exists() {
        eprintln!("skipped {test}: no .venv (scripts/setup-python.sh makes it)");
        return;
    }
    let dir = scratch("script");
    std::fs::write(dir.join("toy.py"), TOY).unwrap();
    let script = dir.join("t-script.toml");
    std::fs::write(
        &script,
        "key = \"t-script\"\ndescription = \"a script\"\ninput = \"driver\"\nscript = \"toy.py\"\n",
    )
    .unwrap();
    let command = define_driver(&dir, "t-command", TOY, "");
    // The script's version is its probe's, named by the key; the command's, its command's.
    let e = engine(&script);
    assert_eq!(e.version(), "t-script toy 1.0 (script)");
    assert!(e.capabilities().external && !e.capabilities().timeline);
    for (file, how) in [(&script, "script"), (&command, "command")] {
        let r = sudoku()
            .solve("binary", engine(file), &SolveOptions::default())
            .unwrap();
        assert_eq!(
            r.outcome.status,
            Status::Infeasible,
            "{how}: {:?}",
            r.outcome
        );
    }
    // A script that is not there names the definition's line and the file.
    std::fs::remove_file(dir.join("toy.py")).unwrap();
    let o = pb(&["engine", "check", &script.display().to_string()]);
    let err = text(&o.stderr);
    assert_ne!(o.status.code(), Some(0));
    assert!(
        err.contains("t-script.toml:4: script 'toy.py': cannot read") && err.contains("toy.py"),
        "{err}"
    );
}
