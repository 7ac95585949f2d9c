//! `puzzlebench slurm`: the scripts it writes, run by hand with bash (everywhere), and
//! submitted to a real single-node SLURM on this machine (where `scripts/setup-slurm.sh`
//! could install and start one; skipped with the reason otherwise): the merged rows are
//! those of the same sweep run locally, and a task requeued mid-run finishes with
//! `--resume`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::{pb, rows, stderr};

/// The sweep: the `fault` puzzle's `busy` formulation (one second of CPU time, then a
/// one-variable model solved and verified), and its `ok` formulation unless `busy_only`,
/// `repeats` times.
fn sweep(busy_only: bool, repeats: u32) -> Vec<String> {
    [
        "--puzzle",
        "fault",
        "--formulation",
        if busy_only { "busy" } else { "busy,ok" },
        "--instances",
        "tests/data/fault/one.txt",
        "--repeats",
        &repeats.to_string(),
        "--time-limit",
        "30",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Per run id: formulation, status, verified.
fn outcomes(path: &Path) -> BTreeMap<String, (String, String, Option<bool>)> {
    rows(path)
        .into_iter()
        .map(|r| (r.run_id, (r.formulation, r.status, r.verified)))
        .collect()
}

fn local(dir: &Path, busy_only: bool, repeats: u32) -> PathBuf {
    let out = dir.join("local.csv");
    let o = pb()
        .arg("run")
        .args(sweep(busy_only, repeats))
        .args(["--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

fn write_scripts(
    dir: &Path,
    busy_only: bool,
    repeats: u32,
    tasks: usize,
    extra: &[&str],
) -> std::process::Output {
    pb().args(["slurm", "run"])
        .args(sweep(busy_only, repeats))
        .args(["--array", &tasks.to_string(), "--out"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn the_scripts_run_by_hand_give_the_rows_of_the_local_sweep() {
    let tmp = tempfile::tempdir().unwrap();
    let expected = outcomes(&local(tmp.path(), false, 3));
    assert_eq!(expected.len(), 6);
    let dir = tmp.path().join("array");
    let o = write_scripts(&dir, false, 3, 4, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("6 runs in 4 shards"), "{}", stderr(&o));
    let array = std::fs::read_to_string(dir.join("array.sbatch")).unwrap();
    for wanted in [
        "#SBATCH --array=1-4",
        "#SBATCH --cpus-per-task=1",
        "#SBATCH --requeue",
        // Two runs of 30 s plus 5 s of grace each, plus 10% and 10 minutes: 11.3 minutes.
        "#SBATCH --time=00:12:00",
        "--shard \"$i/$n\" --resume --out \"$dir/$name.csv\"",
    ] {
        assert!(array.contains(wanted), "{wanted} not in\n{array}");
    }
    run_by_hand(&dir, 4);
    assert!(dir.join("shard-3-of-4.csv").exists());
    assert_eq!(outcomes(&dir.join("results.csv")), expected);
    // The same arguments again: the scripts are rewritten and the tasks would resume.
    assert!(write_scripts(&dir, false, 3, 4, &[]).status.success());
    // Another sweep into the same folder is refused: its tasks would resume into shards
    // of this one.
    let o = write_scripts(&dir, false, 4, 4, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is a shard of another sweep"),
        "{}",
        stderr(&o)
    );
}

/// Runs every task of the array in `dir`, then its merge job, as SLURM would (the #SBATCH
/// lines are comments to bash), and checks that the report is there.
fn run_by_hand(dir: &Path, tasks: usize) {
    for i in 1..=tasks {
        let o = Command::new("bash")
            .arg(dir.join("array.sbatch"))
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .output()
            .unwrap();
        assert!(o.status.success(), "task {i}: {}", stderr(&o));
    }
    let o = Command::new("bash")
        .arg(dir.join("merge.sbatch"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("report/README.md").exists());
}

#[test]
fn reproduce_as_an_array_run_by_hand_gives_the_rows_of_one_reproduce() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = [
        "--quick",
        "--puzzle",
        "sudoku,hashi",
        "--instances-dir",
        "tests/data/reproduce",
        "--figures",
        "svg",
    ];
    let whole = tmp.path().join("whole");
    let o = pb()
        .arg("reproduce")
        .args(suite)
        .arg("--quiet")
        .arg("--out")
        .arg(&whole)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = tmp.path().join("array");
    let o = pb()
        .args(["slurm", "reproduce"])
        .args(suite)
        .args(["--array", "2", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let array = std::fs::read_to_string(dir.join("array.sbatch")).unwrap();
    assert!(
        array.contains("reproduce --quick") && array.contains("--out \"$dir/$name\""),
        "{array}"
    );
    run_by_hand(&dir, 2);
    assert!(dir.join("shard-2-of-2/results.csv").exists());
    assert_eq!(
        outcomes(&dir.join("results.csv")),
        outcomes(&whole.join("results.csv"))
    );
}

#[test]
fn slurm_says_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("a");
    let without_limit = |extra: &[&str]| {
        pb().args(["slurm", "run", "--puzzle", "fault", "--formulation", "ok"])
            .args([
                "--instances",
                "tests/data/fault/one.txt",
                "--array",
                "2",
                "--out",
            ])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = without_limit(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--task-time"), "{}", stderr(&o));
    let o = without_limit(&["--task-time", "30"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let array = std::fs::read_to_string(dir.join("array.sbatch")).unwrap();
    assert!(array.contains("#SBATCH --time=30\n"), "{array}");
    // The sweep's own errors come from run's parser and checks.
    let o = pb()
        .args(["slurm", "run", "--puzzle", "nosuch", "--instances", "x"])
        .args(["--array", "2", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = pb()
        .args(["slurm", "run", "--puzzle", "fault", "--bogus"])
        .args(["--array", "2", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("slurm run:") && stderr(&o).contains("--bogus"),
        "{}",
        stderr(&o)
    );
    let o = pb().args(["slurm", "sweep"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = pb().args(["slurm", "--help"]).output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("--array N"));
}

/// Why SLURM cannot be used here, or None when it answers: `scripts/setup-slurm.sh`
/// installs (when missing), configures and starts it; `scripts/test.sh` runs it before the
/// tests.
fn slurm_unavailable() -> Option<String> {
    let o = Command::new("bash")
        .arg("scripts/setup-slurm.sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match o {
        Err(e) => Some(format!("cannot run scripts/setup-slurm.sh: {e}")),
        Ok(o) if !o.status.success() => Some(format!(
            "scripts/setup-slurm.sh failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(_) => None,
    }
}

/// Runs a command and returns its standard output, trimmed; panics with its stderr.
fn sh(cmd: &str, args: &[&str]) -> String {
    let o = Command::new(cmd).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{cmd} {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Waits until `squeue` lists none of the jobs, at most `limit`.
fn wait_for_jobs(jobs: &[&str], limit: Duration) {
    let start = Instant::now();
    loop {
        // Once SLURM has dropped a finished job's record, squeue says "Invalid job id"
        // and exits 1 with nothing on stdout: finished too.
        let o = Command::new("squeue")
            .args(["-h", "-j", &jobs.join(","), "-o", "%i %T"])
            .output()
            .unwrap();
        let listed = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if listed.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < limit,
            "jobs still queued after {limit:?}:\n{listed}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_real_slurm_runs_the_array_and_a_requeued_task_resumes() {
    if let Some(why) = slurm_unavailable() {
        eprintln!("SKIPPED: no local SLURM ({why})");
        println!("SKIPPED: no local SLURM ({why})");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // Ten runs of one second each, five per task.
    let expected = outcomes(&local(tmp.path(), true, 10));
    assert_eq!(expected.len(), 10);
    let dir = tmp.path().join("array");
    let o = write_scripts(&dir, true, 10, 2, &["--submit"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // "submitted array job A (2 tasks) and merge job M; ..."
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    let after = |what: &str| -> String {
        said.split(what)
            .nth(1)
            .and_then(|s| s.split([' ', ';']).next())
            .unwrap_or_else(|| panic!("no {what:?} in {said:?}"))
            .to_string()
    };
    let (array, merge) = (after("array job "), after("merge job "));
    // Task 1 gets requeued after its first row: SIGTERM, then it starts again.
    let shard1 = dir.join("shard-1-of-2.csv");
    let start = Instant::now();
    loop {
        let n = if shard1.exists() {
            rows(&shard1).len()
        } else {
            0
        };
        if n >= 1 {
            assert!(n < 5, "task 1 ended before it could be requeued");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "task 1 wrote no row in 180 s; squeue:\n{}",
            sh("squeue", &[])
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let task = format!("{array}_1");
    sh("scontrol", &["requeue", &task]);
    wait_for_jobs(&[&array, &merge], Duration::from_secs(300));
    let log = std::fs::read_to_string(dir.join("logs/puzzlebench-1.log")).unwrap();
    assert!(
        log.contains("start 1,") && log.contains("start 2,"),
        "{log}"
    );
    assert!(log.contains("stopped by a signal"), "{log}");
    assert!(
        log.contains("were skipped (--resume)"),
        "the requeued task resumed:\n{log}"
    );
    let merge_log = std::fs::read_to_string(dir.join("logs/puzzlebench-merge.log")).unwrap();
    assert!(merge_log.contains("wrote"), "{merge_log}");
    assert_eq!(outcomes(&dir.join("results.csv")), expected, "{merge_log}");
    assert!(dir.join("report/README.md").exists(), "{merge_log}");
}
