//! Timelines end to end (issue 39): sweeps stream each run's improving incumbents and
//! bounds beside the results file, the rows' anytime columns agree with them, and the
//! report's primal integrals order runs by how soon they found good solutions.

use puzzlebench::record::Record;
use puzzlebench::report::anytime::{self, Timelines};
use puzzlebench::timeline::{self, Trace};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod common;
use common::{pb, rows, stderr};

/// The first puzzle of an instance file, written to a file of its own in `dir`.
fn first_board(dir: &Path, file: &str, name: &str) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("instances")
            .join(file),
    )
    .unwrap();
    let second = text
        .match_indices("\npuzzle ")
        .nth(1)
        .map_or(text.len(), |(i, _)| i + 1);
    let path = dir.join(name);
    std::fs::write(&path, &text[..second]).unwrap();
    path
}

/// Runs `formulation` on `engine` on the board with `limit`, appending to `out`.
fn sweep(
    board: &Path,
    formulation: &str,
    engine: &str,
    limit: &str,
    out: &Path,
) -> std::process::Child {
    pb().args([
        "run",
        "--puzzle",
        "circuit",
        "--formulation",
        formulation,
        "--backend",
        engine,
    ])
    .args([
        "--instances",
        board.to_str().unwrap(),
        "--time-limit",
        limit,
        "--quiet",
    ])
    .args(["--out", out.to_str().unwrap()])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap()
}

fn python_engines_installed() -> bool {
    puzzlebench::engines::Engine::by_key("cpsat").is_ok_and(|e| e.installed())
        && puzzlebench::engines::Engine::by_key("scip").is_ok_and(|e| e.installed())
}

/// Checks that `t` holds improvements in time order within the run, and that its last
/// incumbent is the row's objective (none where the row holds no solution).
fn check(row: &Record, t: &Trace) {
    let what = format!(
        "{} on {}: {:?} {:?}",
        row.formulation, row.backend, row.status, t
    );
    for w in t.incumbents.windows(2) {
        assert!(w[0].t <= w[1].t && w[1].value < w[0].value, "{what}");
    }
    let end = t.end.expect("a run that ended in its worker marks its end");
    assert!(
        t.incumbents.iter().chain(&t.bounds).all(|p| p.t <= end),
        "{what}"
    );
    let last = t.incumbents.last().map(|p| p.value);
    if row.verified.is_some() {
        assert_eq!(last, row.objective, "{what}");
    } else {
        assert_eq!(last, None, "{what}");
    }
    let reports = puzzlebench::engines::Engine::by_key(&row.backend)
        .unwrap()
        .capabilities()
        .timeline;
    if reports {
        assert_eq!(
            row.first_solution_seconds,
            t.incumbents.first().map(|p| p.t),
            "{what}"
        );
        assert_eq!(
            row.best_solution_seconds,
            t.incumbents.last().map(|p| p.t),
            "{what}"
        );
    }
}

/// On a 20×20 board with a 30 s limit, each engine's timeline ends at its row's objective.
#[test]
fn on_a_20x20_board_each_engines_timeline_ends_at_its_rows_objective() {
    let dir = tempfile::tempdir().unwrap();
    let board = first_board(dir.path(), "circuit/scaling/20x20.txt", "c20.txt");
    let mut runs = vec![
        ("cm1", "bc"),
        ("cm2", "highs"),
        ("cm1", "sat"),
        ("cm2", "cbc"),
    ];
    if python_engines_installed() {
        runs.extend([("cm1-rowgen", "cpsat"), ("cm2", "scip")]);
    } else {
        eprintln!("cpsat and scip skipped: the project's Python environment is missing");
    }
    // Each engine to a file of its own, all at once: the rows' times do not matter here.
    let children: Vec<(PathBuf, std::process::Child)> = runs
        .iter()
        .map(|(f, e)| {
            let out = dir.path().join(format!("{e}.csv"));
            let c = sweep(&board, f, e, "30", &out);
            (out, c)
        })
        .collect();
    for ((f, e), (out, child)) in runs.iter().zip(children) {
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{f} on {e}: {}",
            stderr(&o)
        );
        let timelines = timeline::read(&timeline::path_beside(&out)).unwrap();
        let rs = rows(&out);
        assert_eq!(rs.len(), 1, "{f} on {e}");
        let row = &rs[0];
        assert_ne!(row.status, "error", "{f} on {e}: {:?}", row.error);
        check(row, &timelines[&row.run_id]);
    }
}

/// Two runs on one 10×10 board whose order is known by far: the branch and cut on the
/// spanning-tree model proves the optimum in well under a second, the flow model on HiGHS
/// takes seconds to its first solutions. The sooner run has the smaller primal integral, its
/// own (its row holds it: it proved its optimum) and the one the report fills for the other
/// from its timeline, against that optimum.
#[test]
fn the_run_that_finds_the_optimum_sooner_has_the_smaller_primal_integral() {
    let dir = tempfile::tempdir().unwrap();
    let board = first_board(dir.path(), "circuit/table_a_1/10x10.txt", "c10.txt");
    let out = dir.path().join("r.csv");
    for (f, e) in [("cm1", "bc"), ("cm2", "highs")] {
        let o = sweep(&board, f, e, "10", &out).wait_with_output().unwrap();
        assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
    }
    let mut rs = rows(&out);
    let timelines = Timelines::read(std::slice::from_ref(&out)).unwrap();
    let by: HashMap<String, Record> = rs.iter().map(|r| (r.backend.clone(), r.clone())).collect();
    let (bc, highs) = (&by["bc"], &by["highs"]);
    assert_eq!(bc.status, "optimal");
    assert!(
        bc.primal_integral.is_some(),
        "a proven optimum is its own reference"
    );
    check(bc, &timelines.0[&bc.run_id]);
    check(highs, &timelines.0[&highs.run_id]);
    let highs_found = highs.best_solution_seconds.unwrap_or(f64::INFINITY);
    assert!(
        bc.best_solution_seconds.unwrap() < highs_found,
        "{bc:?}\n{highs:?}"
    );
    anytime::fill(&mut rs, &timelines);
    let pi = |b: &str| {
        rs.iter()
            .find(|r| r.backend == b)
            .unwrap()
            .primal_integral
            .unwrap()
    };
    assert!(
        pi("bc") < pi("highs"),
        "bc {} against highs {}",
        pi("bc"),
        pi("highs")
    );
    // Against the optimum, a run scores at least the time before its first solution.
    let first = highs.first_solution_seconds.unwrap_or(10.0);
    assert!(pi("highs") >= first - 1e-9);
}

/// Minimum-clue Sudoku's incumbents come from its follower (the build's best clue set, and
/// each better one a round finds), not from the leader, whose last round is infeasible:
/// the timeline still ends at the proven minimum, and starts before the solve ends.
#[test]
fn minimum_clue_runs_record_the_followers_clue_sets() {
    let inst = common::first("minclue", "minclue/small/grid6_a.txt");
    for engine in ["hitset", "highs"] {
        let e = puzzlebench::engines::Engine::by_key(engine).unwrap();
        let options = puzzlebench::engines::SolveOptions {
            time_limit: Some(30.0),
            ..Default::default()
        };
        let r = inst.solve("rowgen", e, &options).unwrap();
        assert_eq!(
            r.outcome.status,
            puzzlebench::engines::Status::Optimal,
            "{engine}"
        );
        let t = r.trace.expect("a run records its timeline");
        assert_eq!(
            t.incumbents.last().map(|p| p.value),
            r.outcome.objective,
            "{engine}"
        );
        assert!(
            t.incumbents.len() >= 2,
            "{engine}: the build's set, then a better one: {t:?}"
        );
        assert!(t.incumbents[0].t < r.run_seconds.unwrap(), "{engine}");
        assert_eq!(
            t.bounds.last().map(|p| p.value),
            r.outcome.objective,
            "{engine}"
        );
    }
}

/// Issue 54, point 2: every row of a real sweep holds first_solution_seconds ≤
/// best_solution_seconds ≤ run_seconds, all three on the run clock, for engines in this
/// process with timelines (highs, bc, sat), without (microlp), and in a child process
/// (cpsat, scip, glpk, when installed), solved, at the time limit or refused; every row of
/// a run that ended in its worker knows run_seconds. The check is the library's
/// ([`puzzlebench::record::clock_problems`]), which the example report is checked with
/// too.
#[test]
fn every_row_of_a_sweep_holds_first_before_best_before_the_end_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let boards = [
        first_board(dir.path(), "circuit/table_a_1/5x5.txt", "c5.txt"),
        first_board(dir.path(), "circuit/table_a_1/6x6.txt", "c6.txt"),
    ];
    let mut engines = vec!["highs", "bc", "sat", "microlp"];
    for e in ["cpsat", "scip", "glpk"] {
        if puzzlebench::engines::Engine::by_key(e).is_ok_and(|e| e.installed()) {
            engines.push(e);
        } else {
            eprintln!("{e} skipped: not installed");
        }
    }
    let out = dir.path().join("r.csv");
    let o = pb()
        .args(["run", "--puzzle", "circuit"])
        .args(["--formulation", "cm1,cm1-rowgen,cm2"])
        .args(["--backend", &engines.join(",")])
        .arg("--instances")
        .args(&boards)
        .args(["--time-limit", "5", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
    let problems = puzzlebench::record::clock_problems(&out).unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let rs = rows(&out);
    let ran: Vec<&Record> = rs.iter().filter(|r| r.status != "refused").collect();
    // Each engine runs one formulation at least, on both boards.
    assert!(ran.len() >= 2 * engines.len(), "{} rows ran", ran.len());
    for r in &ran {
        assert!(
            r.run_seconds.is_some(),
            "{} on {}: {:?} without run_seconds",
            r.formulation,
            r.backend,
            r.status
        );
    }
    // The check is not empty: most runs found a solution, and some later than their solve
    // time, on the other clock (the run clock counts building, the LP relaxation and a
    // driver's start): why the anytime columns are never compared with `seconds`.
    let timed: Vec<&&Record> = ran
        .iter()
        .filter(|r| r.first_solution_seconds.is_some())
        .collect();
    assert!(
        timed.len() * 2 > ran.len(),
        "{} of {} with a first solution",
        timed.len(),
        ran.len()
    );
    assert!(timed.iter().any(|r| r.first_solution_seconds > r.seconds));
}
