//! Sweeps that survive faults: process isolation, hard limits, resume after SIGKILL,
//! repair of a truncated last line, clean stop on SIGINT.

use puzzlebench::record::Record;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{pb, rows, stderr};

#[test]
fn every_fault_costs_one_row_and_the_sweep_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.csv");
    let o = pb()
        .args([
            "run",
            "--puzzle",
            "fault",
            "--formulation",
            "abort,panic,exit,sleep,oom,stack,ok",
        ])
        .args([
            "--instances",
            "tests/data/fault/one.txt",
            "--time-limit",
            "2",
            "--grace",
            "6",
        ])
        .args([
            "--memory-limit",
            "600",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "runs failed, so exit 1: {}",
        stderr(&o)
    );
    let r = rows(&out);
    let by: BTreeMap<&str, &Record> = r.iter().map(|r| (r.formulation.as_str(), r)).collect();
    assert_eq!(r.len(), 7);
    for f in ["abort", "panic", "exit", "oom", "stack"] {
        assert_eq!(by[f].status, "error", "{f}");
        assert!(
            by[f].error.as_ref().is_some_and(|e| !e.is_empty()),
            "{f} has no reason"
        );
        assert!(by[f].peak_memory_mb.is_some(), "{f}");
    }
    assert!(by["abort"].error.as_ref().unwrap().contains("SIGABRT"));
    assert!(by["panic"]
        .error
        .as_ref()
        .unwrap()
        .contains("injected panic"));
    assert!(by["exit"].error.as_ref().unwrap().contains("code 3"));
    assert!(by["stack"].error.as_ref().unwrap().contains("overflow"));
    assert!(by["oom"].error.as_ref().unwrap().contains("memory"));
    assert_eq!(by["sleep"].status, "time_limit");
    // Hard limit: the run's 2 s plus 6 s grace, then SIGKILL. The limits leave a loaded
    // machine time to reach the memory cap before the hard limit.
    let wall = by["sleep"].wall_seconds.unwrap();
    assert!((8.0..20.0).contains(&wall), "killed after {wall} s");
    assert_eq!(by["ok"].status, "optimal");
    assert_eq!(by["ok"].verified, Some(true));
}

fn sudoku_sweep(out: &Path, extra: &[&str]) -> Command {
    let mut c = pb();
    c.args([
        "run",
        "--puzzle",
        "sudoku",
        "--formulation",
        "binary,values",
        "--backend",
        "highs,cbc",
    ])
    .args([
        "--instances",
        "instances/sudoku/solo_2x2.txt",
        "instances/sudoku/solo_2x3_unreasonable.txt",
    ])
    .args([
        "--time-limit",
        "30",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
    .args(extra);
    c
}

/// (run id, status, verified, objective) of every row, keyed by run id; panics on a duplicate.
fn results(path: &Path) -> BTreeMap<String, (String, Option<bool>, Option<f64>)> {
    let mut m = BTreeMap::new();
    for r in rows(path) {
        let old = m.insert(r.run_id.clone(), (r.status, r.verified, r.objective));
        assert!(old.is_none(), "run {} recorded twice", r.run_id);
    }
    m
}

#[test]
fn sigkill_then_resume_equals_an_uninterrupted_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("reference.csv");
    let o = sudoku_sweep(&reference, &[]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let want = results(&reference);
    assert_eq!(want.len(), 40);

    let out = dir.path().join("killed.csv");
    let mut child = sudoku_sweep(&out, &[])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&out)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines > 6 || start.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let partial = rows(&out).len();
    assert!(
        partial > 0 && partial < 40,
        "killed too late or too early: {partial} rows"
    );

    let o = sudoku_sweep(&out, &["--resume"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("skipped (--resume)"), "{}", stderr(&o));
    assert_eq!(results(&out), want);
}

#[test]
fn a_truncated_last_line_is_cut_and_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    let o = sudoku_sweep(&out, &[]).output().unwrap();
    assert!(o.status.success());
    let want = results(&out);
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::write(&out, &text[..text.len() - 25]).unwrap();
    let o = sudoku_sweep(&out, &["--resume"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("incomplete last line"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("1 runs appended"), "{}", stderr(&o));
    assert_eq!(results(&out), want);
}

#[test]
fn a_damaged_middle_row_is_refused_not_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.csv");
    let o = sudoku_sweep(&out, &[]).output().unwrap();
    assert!(o.status.success());
    let mut lines: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines[3] = "garbage,row".into();
    std::fs::write(&out, lines.join("\n") + "\n").unwrap();
    let o = sudoku_sweep(&out, &["--resume"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(":4:"), "names the line: {}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        lines.join("\n") + "\n",
        "file untouched"
    );
}

#[test]
fn sigint_stops_cleanly_without_a_partial_row() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let child = pb()
        .args(["run", "--puzzle", "fault", "--formulation", "ok,sleep"])
        .args([
            "--instances",
            "tests/data/fault/two.txt",
            "--time-limit",
            "100",
            "--order",
            "plan",
        ])
        .args(["--quiet", "--out", out.to_str().unwrap()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while rows_if_any(&out) < 1 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300)); // the sleep run is under way
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let t = Instant::now();
    let o = child.wait_with_output().unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "stop took {:?}",
        t.elapsed()
    );
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("ok "),
        "summary of what finished: {}",
        stderr(&o)
    );
    let r = rows(&out);
    assert_eq!(r.len(), 1, "only the finished run is recorded");
    assert_eq!(r[0].formulation, "ok");
    assert!(std::fs::read_to_string(&out).unwrap().ends_with('\n'));
}

fn rows_if_any(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn parallel_jobs_record_every_run_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("j.csv");
    let o = sudoku_sweep(&out, &["--jobs", "2"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let r = results(&out);
    assert_eq!(r.len(), 40);
    assert!(r
        .values()
        .all(|(s, v, _)| s == "optimal" && *v == Some(true)));
}

#[test]
fn a_foreign_csv_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.csv");
    std::fs::write(&out, "a,b,c\n1,2,3\n").unwrap();
    let o = sudoku_sweep(&out, &[]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("header"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "a,b,c\n1,2,3\n");
}

/// `rows` of the CSV `text` without the columns named in `drop`.
fn without_columns(text: &str, drop: &[&str]) -> String {
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let header = rd.headers().unwrap().clone();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !drop.contains(&&header[i]))
        .collect();
    let mut w = csv::Writer::from_writer(vec![]);
    w.write_record(keep.iter().map(|&i| &header[i])).unwrap();
    for r in rd.records() {
        let r = r.unwrap();
        w.write_record(keep.iter().map(|&i| &r[i])).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

#[test]
fn a_file_of_an_older_version_is_rewritten_in_todays_columns_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("old.csv");
    let o = sudoku_sweep(&out, &[]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let want = results(&out);
    // Every optimal HiGHS run has its solution in the timelines file.
    let timelines =
        puzzlebench::timeline::read(&dir.path().join("old.csv.timelines.jsonl")).unwrap();
    for r in rows(&out)
        .iter()
        .filter(|r| r.backend == "highs" && r.status == "optimal")
    {
        let t = &timelines[&r.run_id];
        assert_eq!(
            t.incumbents.last().map(|p| p.value),
            r.objective,
            "{}",
            r.run_id
        );
        assert_eq!(r.first_solution_seconds, t.incumbents.first().map(|p| p.t));
    }
    // The file as an older version wrote it: without the anytime columns, and without its
    // last ten rows.
    let text = std::fs::read_to_string(&out).unwrap();
    let old = without_columns(
        &text,
        &[
            "first_solution_seconds",
            "best_solution_seconds",
            "primal_integral",
            "primal_dual_integral",
        ],
    );
    let lines: Vec<&str> = old.lines().collect();
    std::fs::write(&out, lines[..lines.len() - 10].join("\n") + "\n").unwrap();
    let o = sudoku_sweep(&out, &["--resume"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("older version"), "{}", stderr(&o));
    assert!(stderr(&o).contains("10 runs appended"), "{}", stderr(&o));
    assert_eq!(results(&out), want);
    let header = std::fs::read_to_string(&out).unwrap();
    assert_eq!(header.lines().next().unwrap(), Record::header().join(","));
    // A column this version does not know (a newer version's file) is refused, untouched.
    let newer = text.replacen("run_id,", "run_id,from_the_future,", 1);
    let newer = newer
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.to_string()
            } else {
                l.replacen(',', ",x,", 1)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    std::fs::write(&out, &newer).unwrap();
    let o = sudoku_sweep(&out, &["--resume"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("from_the_future"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), newer);
}

/// Issue 54, point 13: the same sweep run again without `--resume` would append its runs a
/// second time. It is refused before anything runs (exit 2, the file untouched), with a
/// message that names the file, how many of the sweep's runs it holds, and the two ways
/// out; a sweep that shares some runs with the file is refused the same way; `--resume`
/// then runs only what the file lacks.
#[test]
fn the_same_sweep_twice_without_resume_is_refused_and_the_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("twice.csv");
    let sweep = |backends: &str, extra: &[&str]| {
        pb().args(["run", "--puzzle", "sudoku", "--formulation", "binary"])
            .args(["--backend", backends])
            .args(["--instances", "instances/sudoku/solo_2x2.txt", "--quiet"])
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = sweep("highs", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = std::fs::read_to_string(&out).unwrap();
    assert_eq!(rows(&out).len(), 5);
    for backends in ["highs", "highs,cbc"] {
        let o = sweep(backends, &[]);
        assert_eq!(o.status.code(), Some(2), "{backends}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(&out.display().to_string()), "{e}");
        assert!(e.contains("already holds 5 of the"), "{e}");
        assert!(e.contains("--resume") && e.contains("--out"), "{e}");
        assert!(!e.contains("runs appended"), "nothing ran: {e}");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            first,
            "file untouched"
        );
    }
    let o = sweep("highs,cbc", &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("5 runs appended"), "{}", stderr(&o));
    assert_eq!(results(&out).len(), 10, "each run once");
}
