//! Sweeps split into shards (`--shard I/N`) and merged (`merge`): the merged rows are
//! exactly the rows of the unsharded sweep (run ids, statuses, verified answers) for every
//! N, and `merge` refuses what does not belong together.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;
use common::{pb, rows, stderr};

/// The sweep of these tests: two Sudoku files on three engines, 90 runs in all, ten of
/// them refused (`values` on `sat`: general integers), so refusals are merged too.
fn sweep_args(time_limit: &'static str) -> Vec<&'static str> {
    vec![
        "run",
        "--puzzle",
        "sudoku",
        "--instances",
        "instances/sudoku/solo_2x2.txt",
        "instances/sudoku/solo_2x3_unreasonable.txt",
        "--backend",
        "highs,cbc,sat",
        "--time-limit",
        time_limit,
        "--quiet",
    ]
}

fn run_to(out: &Path, extra: &[&str]) -> std::process::Output {
    pb().args(sweep_args("60"))
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn merge(inputs: &[PathBuf], out: &Path, extra: &[&str]) -> std::process::Output {
    pb().arg("merge")
        .args(inputs)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// What must agree between two sweeps: per run id, the instance, formulation, engine,
/// status, verified and objective.
type Outcomes = BTreeMap<String, (String, String, String, String, Option<bool>, Option<i64>)>;

fn outcomes(path: &Path) -> Outcomes {
    let mut out = BTreeMap::new();
    for r in rows(path) {
        let previous = out.insert(
            r.run_id.clone(),
            (
                r.instance,
                r.formulation,
                r.backend,
                r.status,
                r.verified,
                r.objective.map(|o| o.round() as i64),
            ),
        );
        assert!(
            previous.is_none(),
            "{}: run {} twice",
            path.display(),
            r.run_id
        );
    }
    out
}

#[test]
fn merged_shards_have_exactly_the_rows_of_the_whole_sweep_for_every_n() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let o = run_to(&whole, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "ten refused runs, no failure: {}",
        stderr(&o)
    );
    let expected = outcomes(&whole);
    assert_eq!(expected.len(), 90);
    assert!(expected.values().any(|v| v.3 == "refused"));
    assert!(expected
        .values()
        .filter(|v| v.3 == "optimal")
        .all(|v| v.4 == Some(true)));
    for n in [1usize, 2, 3, 7] {
        let mut files = Vec::new();
        let mut sizes = Vec::new();
        for i in 1..=n {
            let f = dir.path().join(format!("n{n}-{i}.csv"));
            let o = run_to(&f, &["--shard", &format!("{i}/{n}")]);
            assert!(
                o.status.code() == Some(0) || o.status.code() == Some(1),
                "{}",
                stderr(&o)
            );
            assert!(
                stderr(&o).contains(&format!("shard {i}/{n}: ")),
                "{}",
                stderr(&o)
            );
            sizes.push(rows(&f).len());
            files.push(f);
        }
        // Balanced: every run has the same estimate (its time limit), so the counts differ
        // by at most one.
        let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
        assert!(hi - lo <= 1, "N={n}: shard sizes {sizes:?}");
        let merged = dir.path().join(format!("merged{n}.csv"));
        let o = merge(&files, &merged, &["--require-complete"]);
        assert!(o.status.success(), "N={n}: {}", stderr(&o));
        assert_eq!(outcomes(&merged), expected, "N={n}");
        // The timelines beside the shards go beside the merged file.
        let beside =
            |f: &Path| puzzlebench::timeline::read(&puzzlebench::timeline::path_beside(f)).unwrap();
        let mut kept = std::collections::HashMap::new();
        for f in &files {
            kept.extend(beside(f));
        }
        assert!(!kept.is_empty(), "N={n}: the shards kept timelines");
        assert_eq!(beside(&merged), kept, "N={n}");
    }
}

#[test]
fn costs_from_an_earlier_sweep_balance_by_time() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    run_to(&whole, &[]);
    let times: BTreeMap<String, f64> = rows(&whole)
        .into_iter()
        .map(|r| (r.run_id, r.wall_seconds.unwrap()))
        .collect();
    let mut loads = Vec::new();
    let mut files = Vec::new();
    for i in 1..=2 {
        let f = dir.path().join(format!("c{i}.csv"));
        let o = run_to(
            &f,
            &[
                "--shard",
                &format!("{i}/2"),
                "--costs",
                whole.to_str().unwrap(),
            ],
        );
        assert!(
            stderr(&o).contains("90 from the same run in --costs"),
            "{}",
            stderr(&o)
        );
        loads.push(rows(&f).iter().map(|r| times[&r.run_id]).sum::<f64>());
        files.push(f);
    }
    // Longest first, each to the lighter shard: the two loads differ by at most the longest
    // run (as estimated by the earlier sweep).
    let longest = times.values().cloned().fold(0.0, f64::max);
    assert!(
        (loads[0] - loads[1]).abs() <= longest + 1e-9,
        "{loads:?}, longest {longest}"
    );
    let merged = dir.path().join("m.csv");
    assert!(merge(&files, &merged, &["--require-complete"])
        .status
        .success());
    assert_eq!(
        outcomes(&merged).keys().collect::<Vec<_>>(),
        outcomes(&whole).keys().collect::<Vec<_>>()
    );
    // The shards of one plan split with other costs do not merge.
    let other = dir.path().join("other.csv");
    run_to(&other, &["--shard", "2/2"]);
    let o = merge(&[files[0].clone(), other], &dir.path().join("x.csv"), &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("split differently"), "{}", stderr(&o));
    assert!(!dir.path().join("x.csv").exists(), "nothing written");
}

#[test]
fn merge_drops_exact_duplicates_and_fails_on_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    let s = |i: usize| dir.path().join(format!("s{i}.csv"));
    for i in 1..=2 {
        run_to(&s(i), &["--shard", &format!("{i}/2")]);
    }
    // The same file twice: its rows are exact duplicates.
    let merged = dir.path().join("m.csv");
    let o = merge(&[s(1), s(2), s(1)], &merged, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let n1 = rows(&s(1)).len();
    assert!(
        stderr(&o).contains(&format!("{n1} exact duplicates dropped")),
        "{}",
        stderr(&o)
    );
    assert_eq!(rows(&merged).len(), 90);
    // Shard 1 run a second time: the same runs, measured again.
    let again = dir.path().join("again.csv");
    run_to(&again, &["--shard", "1/2"]);
    let o = merge(&[s(1), s(2), again.clone()], &dir.path().join("c.csv"), &[]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "{n1} runs are recorded twice with different results"
        )),
        "{e}"
    );
    assert!(
        e.contains("measured twice") && e.contains("again.csv:2"),
        "{e}"
    );
    assert!(!dir.path().join("c.csv").exists());
    // The merged file is never one of the inputs, and an existing one is replaced only
    // when none of its rows would be lost.
    let o = merge(&[s(1), merged.clone()], &merged, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = merge(&[s(1)], &merged, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not among the merged rows"),
        "{}",
        stderr(&o)
    );
    assert_eq!(rows(&merged).len(), 90, "kept");
    assert!(
        merge(&[s(1), s(2)], &merged, &[]).status.success(),
        "same rows: replaced"
    );
}

#[test]
fn merge_names_missing_runs_and_other_plans() {
    let dir = tempfile::tempdir().unwrap();
    let s = |i: usize| dir.path().join(format!("s{i}.csv"));
    for i in 1..=3 {
        run_to(&s(i), &["--shard", &format!("{i}/3")]);
    }
    // A shard without its file.
    let merged = dir.path().join("m.csv");
    let o = merge(&[s(1), s(3)], &merged, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let missing = rows(&s(2)).len();
    assert!(
        stderr(&o).contains(&format!("incomplete: {missing} runs of the plan missing"))
            && stderr(&o).contains("shard 2/3: no file"),
        "{}",
        stderr(&o)
    );
    let o = merge(
        &[s(1), s(3)],
        &dir.path().join("r.csv"),
        &["--require-complete"],
    );
    assert_eq!(o.status.code(), Some(1));
    // A shard cut short: its last rows gone.
    let text = std::fs::read_to_string(s(2)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(s(2), lines[..lines.len() - 2].join("\n") + "\n").unwrap();
    let o = merge(&[s(1), s(2), s(3)], &dir.path().join("cut.csv"), &[]);
    assert!(
        stderr(&o).contains("shard 2/3: 2 runs missing (run it again with --resume"),
        "{}",
        stderr(&o)
    );
    // Finishing it with --resume completes the plan.
    run_to(&s(2), &["--shard", "2/3", "--resume"]);
    let o = merge(
        &[s(1), s(2), s(3)],
        &dir.path().join("done.csv"),
        &["--require-complete"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // A shard of another plan (another time limit) is refused, with both commands.
    let other = dir.path().join("other.csv");
    pb().args(sweep_args("30"))
        .args(["--shard", "2/3", "--out"])
        .arg(&other)
        .output()
        .unwrap();
    let o = merge(&[s(1), other.clone(), s(3)], &dir.path().join("x.csv"), &[]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("different plans") && e.contains("--time-limit 30"),
        "{e}"
    );
    // A results file of an unsharded sweep beside shards is refused too.
    let plain = dir.path().join("plain.csv");
    run_to(&plain, &[]);
    let o = merge(&[s(1), plain], &dir.path().join("y.csv"), &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is not a shard"), "{}", stderr(&o));
}

#[test]
fn reproduce_shards_merge_into_the_rows_of_one_reproduce() {
    let dir = tempfile::tempdir().unwrap();
    let reproduce = |out: &Path, shard: Option<&str>| {
        let mut c = pb();
        c.args([
            "reproduce",
            "--quick",
            "--quiet",
            "--puzzle",
            "sudoku,hashi",
            "--instances-dir",
            "tests/data/reproduce",
            "--figures",
            "svg",
            "--out",
        ])
        .arg(out);
        if let Some(s) = shard {
            c.args(["--shard", s]);
        }
        c.output().unwrap()
    };
    let whole = dir.path().join("whole");
    let o = reproduce(&whole, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut files = Vec::new();
    for i in 1..=2 {
        let out = dir.path().join(format!("shard{i}"));
        let o = reproduce(&out, Some(&format!("{i}/2")));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("puzzlebench merge"), "{}", stderr(&o));
        assert!(!out.join("README.md").exists(), "a shard writes no report");
        files.push(out.join("results.csv"));
    }
    let merged = dir.path().join("merged.csv");
    let o = merge(&files, &merged, &["--require-complete"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(outcomes(&merged), outcomes(&whole.join("results.csv")));
    // The report works on the merged file.
    let report = dir.path().join("report");
    let o = pb()
        .arg("report")
        .arg(&merged)
        .args(["--figures", "svg", "--out"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(report.join("README.md").exists());
}

#[test]
fn bad_shard_arguments_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.csv");
    for (args, wanted) in [
        (vec!["--shard", "3/2"], "I is out of range"),
        (vec!["--shard", "1"], "no '/'"),
        (vec!["--costs", "whatever.csv"], "goes with --shard"),
        (
            vec!["--shard", "1/2", "--costs", "no-such.csv"],
            "--costs: no-such.csv",
        ),
    ] {
        let o = run_to(&out, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(wanted), "{args:?}: {}", stderr(&o));
    }
}
