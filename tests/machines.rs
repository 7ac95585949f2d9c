//! Machines in reports: `report` on results of two machines keeps them apart (`@` labels
//! in every table and plot) or, with `--pool-machines`, says that it pooled them; every
//! table notes the machines of its rows, from the sweep files beside the CSVs.

use puzzlebench::machine::{append_sweep, Machine, SweepRecord};
use puzzlebench::record::read_results;
use puzzlebench::record::Record;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn machine(host: &str) -> Machine {
    Machine {
        host: host.into(),
        cpu_model: format!("CPU of {host}"),
        physical_cores: 2,
        logical_cores: 4,
        memory_mib: Some(8192),
        swap_mib: Some(0),
        numa_nodes: 1,
        kernel: "6.1.0".into(),
        os: "Test OS".into(),
        rustc: "rustc 1.91.0".into(),
        ..Machine::default()
    }
}

/// A solved Hashi run of `formulation` with presolve on, for the Hashi tables (which
/// group by engine and presolve, not by the backend label).
fn hashi_row(formulation: &str, repeat: u32, seconds: f64) -> Record {
    Record {
        run_id: format!("hashi-{formulation}-{repeat}"),
        puzzle: "hashi".into(),
        instance: "a4_07x07:1".into(),
        size_label: "7x7".into(),
        size: Some(10.0),
        instance_info: "islands=10;pairs=12".into(),
        formulation: formulation.into(),
        backend: "highs".into(),
        repeat,
        presolve: Some(true),
        time_limit: Some(10.0),
        status: "optimal".into(),
        seconds: Some(seconds),
        verified: Some(true),
        solver_version: "HiGHS 1.15.0".into(),
        git_commit: "0000000".into(),
        timestamp: "2026-11-22T00:00:00.000Z".into(),
        ..Record::default()
    }
}

/// Writes the rows of the committed report CSV plus a few Hashi rows, run on `m`, into
/// `dir/<name>.csv` with the sweep file beside it; times scaled by `slower`.
fn results_of(dir: &Path, name: &str, m: &Machine, slower: f64) -> PathBuf {
    let mut rows = read_results(&root().join("tests/data/report/results.csv")).unwrap();
    rows.extend([hashi_row("base", 1, 0.002), hashi_row("hdc", 1, 0.001)]);
    let csv = dir.join(format!("{name}.csv"));
    let mut w = csv::Writer::from_path(&csv).unwrap();
    for mut r in rows {
        r.machine = m.id();
        r.host = m.host.clone();
        r.seconds = r.seconds.map(|s| s * slower);
        w.serialize(&r).unwrap();
    }
    w.flush().unwrap();
    append_sweep(&csv, &SweepRecord::new(m.clone())).unwrap();
    csv
}

/// Runs `report` on `csvs` with `extra` arguments into a new folder, returning the folder.
fn report(csvs: &[&Path], extra: &[&str]) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .arg("report")
        .args(csvs)
        .args(["--figures", "svg", "--out"])
        .arg(out.path())
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// Every Markdown table of a report, (stem, text).
fn tables(out: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(out.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            (stem, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// The table cells of a Markdown table (the lines between the header and the notes).
fn cells(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("|---"))
        .skip(1)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn two_machines_are_kept_apart_or_pooled_and_every_table_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let (alpha, beta) = (machine("alpha"), machine("beta"));
    assert_ne!(alpha.id(), beta.id());
    let a = results_of(dir.path(), "a", &alpha, 1.0);
    let b = results_of(dir.path(), "b", &beta, 3.0);
    let line = |m: &Machine, label: &str| format!("- Machine {}{label}: {}", m.id(), m.describe());

    // Kept apart by default.
    let out = report(&[&a, &b], &[]);
    let ts = tables(out.path());
    let stems: Vec<&str> = ts.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        stems,
        [
            "answers",
            "comparisons",
            "hashi_backends",
            "hashi_formulations",
            "hashi_table_a_4",
            "sudoku_backends",
            "sudoku_sizes",
            "sudoku_table_3_1",
            "summary"
        ]
    );
    for (stem, md) in &ts {
        assert!(
            md.contains("- Rows from 2 machines, kept apart"),
            "{stem}: {md}"
        );
        assert!(md.contains(&line(&alpha, " (@alpha)")), "{stem}: {md}");
        assert!(md.contains(&line(&beta, " (@beta)")), "{stem}: {md}");
        assert!(!md.contains("pooled:"), "{stem}");
    }
    // The summary: one row per machine of each (puzzle, formulation, backend), none without
    // its machine.
    let summary = &ts.iter().find(|(s, _)| s == "summary").unwrap().1;
    let backends: Vec<String> = cells(summary).iter().map(|r| r[2].clone()).collect();
    assert!(backends.iter().all(|b| b.contains('@')), "{backends:?}");
    let sudoku_binary: Vec<(String, String)> = cells(summary)
        .iter()
        .filter(|r| r[0] == "sudoku" && r[1] == "binary" && r[2].starts_with("highs@"))
        .map(|r| (r[2].clone(), r[5].clone()))
        .collect();
    assert_eq!(sudoku_binary.len(), 2, "{summary}");
    assert_eq!(sudoku_binary[0].0, "highs@alpha");
    assert_eq!(sudoku_binary[1].0, "highs@beta");
    assert_ne!(
        sudoku_binary[0].1, sudoku_binary[1].1,
        "times of each machine"
    );
    // The backends side by side: a column per machine of each engine.
    let sudoku_backends = &ts.iter().find(|(s, _)| s == "sudoku_backends").unwrap().1;
    assert!(
        sudoku_backends.contains("| formulation | instances | highs@alpha | highs@beta |"),
        "{sudoku_backends}"
    );
    // The Hashi tables group by engine and presolve: still one row per machine.
    for stem in ["hashi_formulations", "hashi_table_a_4"] {
        let md = &ts.iter().find(|(s, _)| s == stem).unwrap().1;
        let on: Vec<Vec<String>> = cells(md)
            .into_iter()
            .filter(|r| r.iter().any(|c| c == "a4_07x07:1"))
            .collect();
        let engines: Vec<&str> = on
            .iter()
            .map(|r| {
                r.iter()
                    .find(|c| c.starts_with("highs"))
                    .map_or("", |c| c.as_str())
            })
            .collect();
        assert_eq!(engines, ["highs@alpha", "highs@beta"], "{stem}: {md}");
    }
    // The index lists the machines; the plots name them in their series.
    let index = std::fs::read_to_string(out.path().join("README.md")).unwrap();
    assert!(index.contains(&line(&alpha, " (@alpha)")), "{index}");
    assert!(index.contains(&line(&beta, " (@beta)")), "{index}");
    let svg = std::fs::read_to_string(out.path().join("plots/sudoku_time_vs_size.svg")).unwrap();
    let texts = common::svg_texts(&svg);
    assert!(texts.iter().any(|t| t.contains("highs@alpha")), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("highs@beta")), "{texts:?}");

    // Pooled on request: no labels, and every table says it pooled two machines.
    let out = report(&[&a, &b], &["--pool-machines"]);
    for (stem, md) in tables(out.path()) {
        assert!(!md.contains('@'), "{stem}: {md}");
        assert!(
            md.contains(&format!(
                "- Rows from 2 machines pooled: {} (alpha), {} (beta)",
                alpha.id(),
                beta.id()
            )),
            "{stem}: {md}"
        );
        assert!(md.contains(&line(&alpha, "")), "{stem}: {md}");
        assert!(md.contains(&line(&beta, "")), "{stem}: {md}");
    }
    let summary = &tables(out.path())
        .into_iter()
        .find(|(s, _)| s == "summary")
        .unwrap()
        .1;
    let sudoku_binary = cells(summary)
        .into_iter()
        .filter(|r| r[0] == "sudoku" && r[1] == "binary" && r[2] == "highs")
        .collect::<Vec<_>>();
    assert_eq!(sudoku_binary.len(), 1);
    assert_eq!(sudoku_binary[0][3], "20", "the runs of both machines");
}

#[test]
fn one_machine_gets_its_line_and_old_files_say_they_have_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let alpha = machine("alpha");
    let a = results_of(dir.path(), "a", &alpha, 1.0);
    let out = report(&[&a], &[]);
    for (stem, md) in tables(out.path()) {
        assert!(
            !md.contains('@') && !md.contains("Rows from"),
            "{stem}: {md}"
        );
        assert!(
            md.contains(&format!("- Machine {}: {}", alpha.id(), alpha.describe())),
            "{stem}: {md}"
        );
    }
    // The LaTeX tables carry the note too.
    let tex = std::fs::read_to_string(out.path().join("tables/summary.tex")).unwrap();
    assert!(
        tex.contains(&format!("Machine {}: host alpha", alpha.id())),
        "{tex}"
    );
    // A file of an older version: no machine column, no sweep file.
    let old = root().join("tests/data/report/results.csv");
    let out = report(&[&old], &[]);
    for (stem, md) in tables(out.path()) {
        assert!(
            md.contains("- Machine: host testhost (no machine record)"),
            "{stem}: {md}"
        );
    }
    // Old rows beside new ones of another host: two machines, kept apart.
    let out = report(&[&old, &a], &[]);
    let summary = std::fs::read_to_string(out.path().join("tables/summary.md")).unwrap();
    assert!(summary.contains("highs@testhost"), "{summary}");
    assert!(summary.contains("highs@alpha"), "{summary}");
    assert!(
        summary.contains("- Machine (@testhost): host testhost (no machine record)"),
        "{summary}"
    );
}

#[test]
fn a_damaged_sweep_file_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let a = results_of(dir.path(), "a", &machine("alpha"), 1.0);
    let sweeps = dir.path().join("a.sweeps.jsonl");
    let mut text = std::fs::read_to_string(&sweeps).unwrap();
    text.push_str("not json\n");
    std::fs::write(&sweeps, text).unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .arg("report")
        .arg(&a)
        .args(["--figures", "svg", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a.sweeps.jsonl:2: not a sweep record"),
        "{err}"
    );
}
