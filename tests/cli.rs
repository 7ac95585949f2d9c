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

/// The test-only `fault` puzzle is not shown to users: not by `list`, not in any help
/// text, not in the hint of an unknown puzzle.
#[test]
fn the_fault_puzzle_is_not_shown() {
    let mut texts = vec![pb(&["list"]), pb(&["--help"])];
    for command in [
        "solve",
        "count",
        "run",
        "export",
        "reproduce",
        "report",
        "generate",
    ] {
        texts.push(pb(&[command, "--help"]));
    }
    for o in &texts {
        assert!(o.status.success(), "{}", stderr(o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            !out.split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "fault"),
            "{out}"
        );
    }
    let o = pb(&[
        "solve",
        "--puzzle",
        "nope",
        "instances/sudoku/report_fig3_1.txt",
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("valid puzzles: sudoku") && !e.contains("fault"),
        "{e}"
    );
}

/// Formulation keys join words with `-`; the old spelling with `_` (Hashi's `cuts_hdc`) is
/// still accepted and recorded in the one spelling.
#[test]
fn an_old_formulation_key_is_read_in_the_new_spelling() {
    let o = pb(&[
        "solve",
        "instances/hashi/tatham/t_07x07_m3.txt",
        "--puzzle",
        "hashi",
        "--formulation",
        "cuts_hdc",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(r#""formulation":"cuts-hdc""#), "{out}");
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
    // Every column of the CSV row, and the solution.
    for key in puzzlebench::record::Record::header()
        .iter()
        .map(String::as_str)
        .chain(["solution"])
    {
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
fn negative_numbers_are_read_and_refused_like_other_bad_values() {
    let file = "instances/sudoku/solo_2x2.txt";
    for (args, message) in [
        (
            vec!["solve", file, "--puzzle", "sudoku", "--time-limit", "-5"],
            "--time-limit must be a positive number of seconds, not -5",
        ),
        (
            vec!["solve", file, "--puzzle", "sudoku", "--time-limit", "0"],
            "--time-limit must be a positive number of seconds, not 0",
        ),
        (
            vec!["solve", file, "--puzzle", "sudoku", "--mip-gap", "-0.1"],
            "--mip-gap must be 0 or more, not -0.1",
        ),
        (
            vec!["reproduce", "--time-limit", "-1", "--out", "/nonexistent"],
            "--time-limit must be a positive number of seconds, not -1",
        ),
        (
            vec!["report", "tests/data/report/results.csv", "--shift", "-1"],
            "--shift must be 0 or more seconds, not -1",
        ),
    ] {
        let o = pb(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&o).trim(),
            format!("puzzlebench: {message}"),
            "{args:?}"
        );
    }
}

#[test]
fn a_results_file_without_a_column_is_named_with_the_column() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("tests/data/report/results.csv")).unwrap();
    // Drop the `status` column from every line (no cell before it holds a comma).
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let k = header.iter().position(|c| *c == "status").unwrap();
    let cut: String = text
        .lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.splitn(k + 2, ',').collect();
            cells.remove(k);
            cells.join(",") + "\n"
        })
        .collect();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, cut).unwrap();
    let bad = bad.to_str().unwrap();
    let o = pb(&[
        "report",
        bad,
        "--out",
        dir.path().join("r").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!(
            "{bad}:1: not a puzzlebench results file (missing column status)"
        )),
        "{}",
        stderr(&o)
    );
    let o = pb(&[
        "run",
        "--puzzle",
        "sudoku",
        "--instances",
        "instances/sudoku/solo_2x2.txt",
        "--out",
        bad,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("(missing column status: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_svg_that_cannot_be_written_fails_before_solving() {
    let o = pb(&[
        "solve",
        "instances/sudoku/solo_2x2.txt",
        "--puzzle",
        "sudoku",
        "--svg",
        "/nonexistent/folder/x.svg",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "solved before failing");
    assert!(
        stderr(&o).contains("/nonexistent/folder/x-1.svg: cannot write"),
        "{}",
        stderr(&o)
    );
    // A writable one is written, and the check leaves no stray files behind.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("one.svg");
    let o = pb(&[
        "solve",
        "instances/sudoku/blog_003.txt",
        "--puzzle",
        "sudoku",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
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
        "xpresso",
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
    // The same sweep again without --resume would record every run twice: refused, and
    // the file is left as it was.
    let before = std::fs::read(&out).unwrap();
    let o = pb(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("already holds 48 of the 48 runs") && stderr(&o).contains("--resume"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // A sweep of other runs into the same file appends and never overwrites.
    let mut more = args.to_vec();
    more[11] = "3";
    let o = pb(&[more.as_slice(), &["--resume"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<puzzlebench::record::Record> = csv::Reader::from_path(&out)
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(rows.len(), 48 + 24, "the third repeat of each run appended");
    assert!(rows.iter().skip(48).all(|r| r.repeat == 3));
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
    let nonsense = [
        "generate",
        "battleship",
        "--rows",
        "2",
        "--cols",
        "2",
        "--fleet",
        "0,0,3",
    ];
    let o = pb(&nonsense);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("could not place the fleet"),
        "{}",
        stderr(&o)
    );
    // ... and leaves no empty file behind, so the same command can run again.
    let failed = dir.path().join("none.txt");
    let o = pb(&[&nonsense[..], &["--out", failed.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(!failed.exists(), "{} left behind", failed.display());
}

#[test]
fn a_folder_without_instance_files_is_named_with_its_subfolders() {
    let o = pb(&["run", "--puzzle", "hashi", "--instances", "instances/hashi"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("instances/hashi: no instance files in this folder, only subfolders (comparison, ladder, large, report_range, tatham)"),
        "{e}"
    );
    let empty = tempfile::tempdir().unwrap();
    let o = pb(&[
        "run",
        "--puzzle",
        "hashi",
        "--instances",
        empty.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no instance files in this folder"),
        "{}",
        stderr(&o)
    );
}

/// An instance listed twice under two names (the same puzzle in two files) is run once,
/// and `run` says so on standard error instead of dropping it silently.
#[test]
fn the_same_puzzle_listed_twice_is_run_once_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let a = root().join("instances/queens/boards/b08_w0.txt");
    let b = dir.path().join("copy_of_b08.txt");
    std::fs::copy(&a, &b).unwrap();
    let out = dir.path().join("runs.csv");
    let o = pb(&[
        "run",
        "--puzzle",
        "queens",
        "--formulation",
        "base",
        "--instances",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--dry-run",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("1 instance is the same puzzle as one listed before, so it is run once, under the first name: copy_of_b08 = b08_w0"),
        "{err}"
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("queens") && l.split_whitespace().nth(2) == Some("1")),
        "{stdout}"
    );
}
