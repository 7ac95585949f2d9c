//! The command line: exit codes, error messages, JSON shape, CSV rows.

use std::path::PathBuf;
use std::process::{Command, Output};

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

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn list_names_puzzles_formulations_backends() {
    let o = pb(&["list"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    for word in [
        "sudoku", "binary", "values", "highs", "cbc", "microlp", "HiGHS 1.", "CBC 2.",
    ] {
        assert!(out.contains(word), "missing {word} in:\n{out}");
    }
}

#[test]
fn solve_json_has_the_documented_fields() {
    let o = pb(&[
        "solve",
        "instances/sudoku/report_fig3_1.txt",
        "--puzzle",
        "sudoku",
        "--format",
        "json",
        "--backend",
        "cbc",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in [
        "puzzle",
        "instance",
        "formulation",
        "backend",
        "status",
        "seconds",
        "build_seconds",
        "objective",
        "best_bound",
        "gap",
        "lp_bound",
        "verified",
        "solution",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["verified"], true);
    assert_eq!(v["backend"], "cbc");
    assert_eq!(
        v["solution"]["grid"][0],
        serde_json::json!([3, 6, 8, 4, 5, 2, 9, 1, 7])
    );
}

#[test]
fn solve_text_draws_the_grid() {
    let o = pb(&[
        "solve",
        "instances/sudoku/blog_003.txt",
        "--puzzle",
        "sudoku",
        "--formulation",
        "values",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("optimal"), "{out}");
    assert!(out.contains(" 5 3 4 | 6 7 8 | 9 1 2"), "{out}");
}

#[test]
fn infeasible_givens_exit_zero_with_status_infeasible() {
    let o = pb(&[
        "solve",
        "tests/data/sudoku/infeasible_subtle.txt",
        "--puzzle",
        "sudoku",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"], "infeasible");
    assert_eq!(v["solution"], serde_json::Value::Null);
}

#[test]
fn malformed_files_name_file_and_line_and_exit_nonzero() {
    for (file, line, what) in [
        ("tests/data/sudoku/bad_length.txt", 2, "not a square"),
        ("tests/data/sudoku/bad_char.txt", 2, "'x'"),
        ("tests/data/sudoku/bad_solo.txt", 2, "needs 81"),
    ] {
        let o = pb(&["solve", file, "--puzzle", "sudoku"]);
        assert_eq!(o.status.code(), Some(2), "{file}");
        let e = stderr(&o);
        assert!(e.contains(&format!("{file}:{line}:")), "{e}");
        assert!(e.contains(what), "{e}");
        assert_eq!(e.lines().count(), 1, "one line expected: {e}");
    }
    let o = pb(&["solve", "no/such/file.txt", "--puzzle", "sudoku"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.txt"));
}

#[test]
fn unknown_keys_list_the_valid_ones() {
    let o = pb(&[
        "solve",
        "instances/sudoku/blog_003.txt",
        "--puzzle",
        "sudokku",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("valid puzzles: sudoku"),
        "{}",
        stderr(&o)
    );
    let o = pb(&[
        "solve",
        "instances/sudoku/blog_003.txt",
        "--puzzle",
        "sudoku",
        "--formulation",
        "x",
    ]);
    assert!(
        stderr(&o).contains("valid formulations: binary, values"),
        "{}",
        stderr(&o)
    );
    let o = pb(&[
        "solve",
        "instances/sudoku/blog_003.txt",
        "--puzzle",
        "sudoku",
        "--backend",
        "gurobi",
    ]);
    assert!(
        stderr(&o).contains("valid backends: highs, cbc, microlp"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_appends_one_flushed_row_per_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let out_s = out.to_str().unwrap();
    let args = [
        "run",
        "--puzzle",
        "sudoku",
        "--formulation",
        "binary,values",
        "--backend",
        "highs,cbc",
        "--instances",
        "instances/sudoku/report_fig3_1.txt",
        "instances/sudoku/solo_2x2.txt",
        "--repeats",
        "2",
        "--time-limit",
        "60",
        "--quiet",
        "--out",
        out_s,
    ];
    let o = pb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("sgm"),
        "summary table expected: {}",
        stderr(&o)
    );
    let mut rd = csv::Reader::from_path(&out).unwrap();
    let rows: Vec<puzzlebench::record::Record> = rd.deserialize().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 6 * 2 * 2 * 2);
    assert!(rows
        .iter()
        .all(|r| r.status == "optimal" && r.verified == Some(true)));
    assert!(rows
        .iter()
        .all(|r| r.lp_bound == Some(0.0) && r.seconds.is_some() && r.variables.is_some()));
    assert!(rows.iter().all(|r| r.time_limit == Some(60.0)
        && r.threads == Some(1)
        && !r.solver_version.is_empty()));
    // A second run appends and never overwrites.
    let o = pb(&args);
    assert!(o.status.success());
    let n = csv::Reader::from_path(&out).unwrap().records().count();
    assert_eq!(n, 2 * 48);
}

#[test]
fn export_writes_mps_and_lp() {
    let dir = tempfile::tempdir().unwrap();
    let mps = dir.path().join("m.mps");
    let lp = dir.path().join("m.lp");
    let f = "instances/sudoku/report_fig3_1.txt";
    let o = pb(&[
        "export",
        f,
        "--puzzle",
        "sudoku",
        "--mps",
        mps.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = pb(&[
        "export",
        f,
        "--puzzle",
        "sudoku",
        "--formulation",
        "values",
        "--lp",
        lp.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&mps)
        .unwrap()
        .starts_with("NAME sudoku_binary_report_fig3_1"));
    assert!(std::fs::read_to_string(&lp).unwrap().contains("Generals"));
    let o = pb(&["export", f, "--puzzle", "sudoku"]);
    assert_eq!(o.status.code(), Some(2), "--mps or --lp is required");
}

#[test]
fn generate_battleship_writes_puzzles_that_solve_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.txt");
    let out_s = out.to_str().unwrap();
    let args = [
        "generate",
        "battleship",
        "--rows",
        "7",
        "--cols",
        "6",
        "--fleet",
        "2,2,1",
        "--seed",
        "5",
        "--count",
        "2",
        "--out",
        out_s,
    ];
    let o = pb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(
        "# puzzlebench generate battleship --rows 7 --cols 6 --fleet 2,2,1 --level hard --seed 5"
    ));
    assert!(text.contains("puzzle hard_7x6_6"), "{text}");
    // The file loads and both formulations find the recorded solutions.
    for f in ["gbm", "cbm"] {
        let o = pb(&[
            "solve",
            out_s,
            "--puzzle",
            "battleship",
            "--formulation",
            f,
            "--format",
            "json",
        ]);
        assert!(o.status.success(), "{f}: {}", stderr(&o));
    }
    // A second run refuses to overwrite, keeping the file as it was.
    let o = pb(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot create"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    // Nonsense is refused with exit 2.
    let o = pb(&[
        "generate",
        "battleship",
        "--rows",
        "2",
        "--cols",
        "2",
        "--fleet",
        "0,0,3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("could not place the fleet"),
        "{}",
        stderr(&o)
    );
}
