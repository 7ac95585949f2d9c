//! `puzzlebench diff OLD NEW` on the committed example's results (2,310 rows of a real
//! quick-suite run) and on copies of it changed with the csv crate: a file against itself,
//! one configuration's times doubled, every time doubled on another machine (with one
//! configuration slower still), one objective changed, a differing answer hash on an
//! instance proved unique, the files it refuses, diff.html in a browser; and the
//! `answer_hash` column that every run writes.

mod common;

use common::{chromium, dump_dom, pb, root_attribute, stderr};
use puzzlebench::record::Record;
use std::path::{Path, PathBuf};
use std::process::Output;

const BASE: &str = "docs/example-report/results.csv";

fn base_rows() -> Vec<Record> {
    common::rows(&Path::new(env!("CARGO_MANIFEST_DIR")).join(BASE))
}

/// Writes `rows` as a results file `name` in `dir`.
fn write(dir: &Path, name: &str, rows: &[Record]) -> PathBuf {
    let path = dir.join(name);
    let mut w = csv::Writer::from_path(&path).unwrap();
    for r in rows {
        w.serialize(r).unwrap();
    }
    w.flush().unwrap();
    path
}

/// `puzzlebench diff OLD NEW --out DIR/out`.
fn diff(old: &Path, new: &Path, dir: &Path) -> Output {
    pb().arg("diff")
        .arg(old)
        .arg(new)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// The rows of `DIR/out/diff.csv` as maps of column to cell.
fn diff_rows(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    csv::Reader::from_path(dir.join("out/diff.csv"))
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect()
}

fn flagged(rows: &[std::collections::HashMap<String, String>]) -> Vec<String> {
    rows.iter()
        .filter(|r| r["verdict"] == "regression" || r["verdict"] == "improvement")
        .map(|r| {
            format!(
                "{} {} {} {}",
                r["puzzle"], r["formulation"], r["engine"], r["settings"]
            )
        })
        .collect()
}

#[test]
fn a_file_against_itself_has_no_regression_and_no_differing_answer() {
    let dir = tempfile::tempdir().unwrap();
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(BASE);
    let o = diff(&base, &base, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.path().join("out/diff.csv")).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        "puzzle,formulation,engine,settings,instances,old_sgm,new_sgm,ratio,ci_low,ci_high,verdict,status_changes,differing_answers,time_ratio,machine_factor,adjusted_ratio,adjusted_ci_low,adjusted_ci_high"
    );
    let rows = diff_rows(dir.path());
    assert!(rows.len() > 100, "{} configurations", rows.len());
    assert_eq!(flagged(&rows), Vec::<String>::new());
    assert!(rows
        .iter()
        .all(|r| r["differing_answers"] == "0" && r["status_changes"] == "0"));
    assert!(rows.iter().all(|r| r["ratio"] == "1"), "the same times");
    let out = stdout(&o);
    assert!(out.contains("0 differing answers ("), "{out}");
    assert!(out.contains("0 status changes"), "{out}");
    assert!(out.contains("The machines are the same"), "{out}");
    assert!(
        out.contains("The median time ratio NEW/OLD is 1.00 (95 % CI 1.00–1.00, over "),
        "{out}"
    );
    assert!(rows.iter().all(|r| r["machine_factor"] == "1"));
    assert!(!out.contains("regressions ("), "{out}");
    for f in ["diff.html", "diff.md", "diff.csv"] {
        assert!(out.contains(f), "{out}");
        assert!(dir.path().join("out").join(f).is_file());
    }
}

#[test]
fn one_configuration_with_doubled_times_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let rows = base_rows();
    let target = |r: &Record| {
        r.puzzle == "nonogram" && r.formulation == "dfa" && r.backend_label() == "highs"
    };
    let mut doubled = 0;
    let slow: Vec<Record> = rows
        .iter()
        .cloned()
        .map(|mut r| {
            if target(&r) {
                r.seconds = r.seconds.map(|s| 2.0 * s);
                doubled += 1;
            }
            r
        })
        .collect();
    assert!(doubled > 40, "{doubled} rows doubled");
    let old = write(dir.path(), "old.csv", &rows);
    let new = write(dir.path(), "new.csv", &slow);
    let o = diff(&old, &new, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let flagged = flagged(&diff_rows(dir.path()));
    assert!(
        flagged.contains(&"nonogram dfa highs ".to_string()),
        "{flagged:?}"
    );
    assert!(flagged.len() <= 3, "{flagged:?}");
    let out = stdout(&o);
    assert!(out.contains("regressions ("), "{out}");
    let regressions = &out[out.find("regressions (").unwrap()..];
    assert!(regressions.contains("nonogram: dfa on highs: "), "{out}");
}

/// The example's rows as if run on a machine twice as slow: every measured time doubled
/// (the time limit, a setting, stays), the machine id another; the configurations of
/// `slower` three times slower again.
fn on_a_slower_machine(rows: &[Record], slower: impl Fn(&Record) -> bool) -> Vec<Record> {
    rows.iter()
        .cloned()
        .map(|mut r| {
            let k = if slower(&r) { 6.0 } else { 2.0 };
            for t in [
                &mut r.seconds,
                &mut r.wall_seconds,
                &mut r.cpu_seconds,
                &mut r.call_seconds,
                &mut r.build_seconds,
                &mut r.run_seconds,
                &mut r.first_solution_seconds,
                &mut r.best_solution_seconds,
                &mut r.lp_seconds,
                &mut r.separator_seconds,
            ] {
                *t = t.map(|s| k * s);
            }
            r.machine = "0badc0de".into();
            r
        })
        .collect()
}

#[test]
fn on_a_machine_twice_as_slow_the_factor_is_2_and_only_what_moved_apart_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let rows = base_rows();
    let old = write(dir.path(), "old.csv", &rows);
    let new = write(
        dir.path(),
        "new.csv",
        &on_a_slower_machine(&rows, |_| false),
    );
    let o = diff(&old, &new, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("The machines differ."), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("NEW's machine is "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.starts_with("NEW's machine is 2.00× slower (95 % CI 2.00–2.00, median over ")
            && line.ends_with("configurations judged against it."),
        "{line}"
    );
    let diffed = diff_rows(dir.path());
    assert_eq!(flagged(&diffed), Vec::<String>::new());
    let factors: Vec<f64> = diffed
        .iter()
        .map(|r| r["machine_factor"].parse().unwrap())
        .collect();
    assert!(
        factors.iter().all(|f| (f - 2.0).abs() < 1e-9),
        "{factors:?}"
    );
    assert!(diffed.iter().all(|r| r["adjusted_ratio"] == "1"));
    // The plain ratios stay in diff.csv: shifted, those of a few milliseconds move less
    // (and those of failures at their limit not at all).
    let plain: Vec<f64> = diffed.iter().map(|r| r["ratio"].parse().unwrap()).collect();
    assert!(
        plain.iter().all(|r| (1.0..=2.0 + 1e-9).contains(r)),
        "{plain:?}"
    );
    assert!(plain.iter().any(|r| *r < 1.5), "{plain:?}");
    // The same files judged on plain ratios (as diff did before the factor): nearly every
    // configuration a regression.
    let o = pb()
        .arg("diff")
        .arg(&old)
        .arg(&new)
        .arg("--out")
        .arg(dir.path().join("out"))
        .args(["--machine-factor", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let unadjusted = flagged(&diff_rows(dir.path())).len();
    assert!(
        unadjusted * 2 > diffed.len(),
        "{unadjusted} of {}",
        diffed.len()
    );
    // One configuration three times slower than the rest: it alone is flagged.
    let target = |r: &Record| {
        r.puzzle == "nonogram" && r.formulation == "dfa" && r.backend_label() == "highs"
    };
    let new = write(dir.path(), "new3.csv", &on_a_slower_machine(&rows, target));
    let o = diff(&old, &new, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("NEW's machine is 2.00× slower"),
        "{}",
        stdout(&o)
    );
    let diffed = diff_rows(dir.path());
    assert_eq!(flagged(&diffed), ["nonogram dfa highs "]);
    let r = diffed
        .iter()
        .find(|r| {
            let key = [
                &r["puzzle"],
                &r["formulation"],
                &r["engine"],
                &r["settings"],
            ];
            key == ["nonogram", "dfa", "highs", ""]
        })
        .unwrap();
    assert_eq!(r["verdict"], "regression");
    let adjusted: f64 = r["adjusted_ratio"].parse().unwrap();
    eprintln!(
        "nonogram dfa highs: ratio {}, adjusted {adjusted}",
        r["ratio"]
    );
    assert!(adjusted > 2.0 && adjusted <= 3.0 + 1e-9, "{r:?}");
}

#[test]
fn a_machine_factor_that_is_not_above_0_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(BASE);
    for f in ["0", "-2", "nan"] {
        let o = pb()
            .arg("diff")
            .arg(&base)
            .arg(&base)
            .arg("--out")
            .arg(dir.path().join("out"))
            .args(["--machine-factor", f])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{f}: {}", stderr(&o));
        assert!(stderr(&o).contains("--machine-factor"), "{}", stderr(&o));
    }
}

#[test]
fn a_changed_objective_is_named_as_a_differing_answer_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let rows = base_rows();
    let at = rows
        .iter()
        .position(|r| {
            r.status == "optimal"
                && r.verified == Some(true)
                && r.count == 1
                && r.objective.is_some_and(|o| o > 1.0)
        })
        .unwrap();
    let mut changed = rows.clone();
    changed[at].objective = changed[at].objective.map(|o| o + 1.0);
    let old = write(dir.path(), "old.csv", &rows);
    let new = write(dir.path(), "new.csv", &changed);
    let o = diff(&old, &new, dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 differing answer"), "{}", stderr(&o));
    let out = stdout(&o);
    let r = &rows[at];
    let line = out
        .lines()
        .find(|l| l.contains(&r.run_id))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains(&r.instance) && line.contains("objective"),
        "{line}"
    );
    let counted: usize = diff_rows(dir.path())
        .iter()
        .map(|r| r["differing_answers"].parse::<usize>().unwrap())
        .sum();
    assert_eq!(counted, 1);
    // Shown first in the Markdown.
    let md = std::fs::read_to_string(dir.path().join("out/diff.md")).unwrap();
    let first = md.find("### ").unwrap();
    assert!(md[first..].starts_with("### Differing answers"), "{md}");
    assert!(md[first..md.find("### Regressions").unwrap()].contains(&r.run_id));
}

#[test]
fn a_differing_answer_hash_counts_where_the_answer_is_proved_unique() {
    // b08_w3_a: both counting runs of the example found its one optimal board; the zebra
    // instance has no such proof (the hashes may differ there: several optima or
    // solutions are allowed).
    let dir = tempfile::tempdir().unwrap();
    let rows = base_rows();
    let unique = |r: &Record| r.instance == "b08_w3_a" && r.count == 1;
    let unproved = |r: &Record| r.puzzle == "zebra" && r.verified == Some(true);
    assert!(rows
        .iter()
        .any(|r| r.instance == "b08_w3_a" && r.count == 1000 && r.solutions == Some(1)));
    let with_hash = |h: &str| -> Vec<Record> {
        let mut seen_zebra = false;
        rows.iter()
            .cloned()
            .map(|mut r| {
                if unique(&r) || (!seen_zebra && unproved(&r)) {
                    seen_zebra |= unproved(&r);
                    r.answer_hash = h.repeat(16);
                }
                r
            })
            .collect()
    };
    let old = write(dir.path(), "old.csv", &with_hash("a"));
    let new = write(dir.path(), "new.csv", &with_hash("b"));
    let o = diff(&old, &new, dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    // Every run of b08_w3_a that counts nothing (count 1) differs; the zebra one does not.
    let n = rows.iter().filter(|r| unique(r)).count();
    assert!(n >= 1);
    assert!(
        out.contains(&format!("differing answers, one side is wrong ({n})")),
        "{out}"
    );
    let line = out.lines().find(|l| l.contains("b08_w3_a")).unwrap();
    assert!(
        line.contains(&"a".repeat(16)) && line.contains(&"b".repeat(16)),
        "{line}"
    );
    // The same hashes on both sides: nothing differs.
    let same = write(dir.path(), "same.csv", &with_hash("a"));
    let o = diff(&old, &same, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn files_that_are_not_results_or_share_no_run_are_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(BASE);
    let other = dir.path().join("other.csv");
    std::fs::write(&other, "name,value\na,1\n").unwrap();
    let o = diff(&base, &other, dir.path());
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("other.csv:1:") && e.contains("not a puzzlebench results file"),
        "{e}"
    );
    // A damaged row is named by its line.
    let text = puzzlebench::gz::read_to_string(&base).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[5] = "x,y";
    let damaged = dir.path().join("damaged.csv");
    std::fs::write(&damaged, lines.join("\n") + "\n").unwrap();
    let o = diff(&damaged, &base, dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("damaged.csv:6:"), "{}", stderr(&o));
    let o = diff(&dir.path().join("missing.csv"), &base, dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing.csv: no such results file"),
        "{}",
        stderr(&o)
    );
    // No run in common.
    let renamed: Vec<Record> = base_rows()
        .into_iter()
        .map(|mut r| {
            r.run_id = format!("{}0", r.run_id);
            r
        })
        .collect();
    let apart = write(dir.path(), "apart.csv", &renamed);
    let o = diff(&base, &apart, dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("share no run id"), "{}", stderr(&o));
    assert!(!dir.path().join("out/diff.csv").exists());
}

#[test]
fn diff_html_runs_its_script_in_a_browser() {
    let Some(chromium) = chromium() else {
        eprintln!(
            "skipped: no chromium installed (scripts/setup-browser.sh installs Debian's chromium)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let rows = base_rows();
    let mut changed = rows.clone();
    for r in changed.iter_mut().filter(|r| r.puzzle == "hashi") {
        r.seconds = r.seconds.map(|s| 3.0 * s);
    }
    let old = write(dir.path(), "old.csv", &rows);
    let new = write(dir.path(), "new.csv", &changed);
    let o = diff(&old, &new, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let configurations = diff_rows(dir.path()).len();
    let dom = dump_dom(
        &chromium,
        &dir.path().join("out/diff.html"),
        &dir.path().join("profile"),
    );
    assert_eq!(root_attribute(&dom, "data-error"), None, "a script error");
    assert_eq!(
        root_attribute(&dom, "data-ready"),
        Some("1"),
        "the script did not end"
    );
    // Unfiltered, the configurations table shows every configuration.
    assert_eq!(
        root_attribute(&dom, "data-rows"),
        Some(configurations.to_string().as_str())
    );
    assert!(dom.contains("v-regression"), "the regressions are marked");
}

#[test]
fn every_run_writes_the_hash_of_its_verified_answer() {
    // solve --format json: each row's answer_hash is the hash of the solution it prints.
    let file = "instances/sudoku/solo_3x3_basic.txt";
    let o = pb()
        .args(["solve", file, "--puzzle", "sudoku", "--format", "json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let mut solved = std::collections::HashMap::new();
    for line in stdout(&o).lines() {
        let line: serde_json::Value = serde_json::from_str(line).unwrap();
        let hash = line["answer_hash"].as_str().unwrap().to_string();
        assert_eq!(hash, puzzlebench::record::answer_hash(&line["solution"]));
        assert_eq!(hash.len(), 16);
        solved.insert(line["instance"].as_str().unwrap().to_string(), hash);
    }
    assert_eq!(solved.len(), 5, "the file's five puzzles");
    // run: every formulation of these unique Sudokus gives the same answer, so the same
    // hash, and the same as solve's.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let o = pb()
        .args([
            "run",
            "--puzzle",
            "sudoku",
            "--instances",
            file,
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = common::rows(&out);
    assert!(rows.len() >= 15, "{} rows", rows.len());
    for r in &rows {
        assert_eq!(
            r.answer_hash, solved[&r.instance],
            "{} with {} on {}",
            r.instance, r.formulation, r.backend
        );
    }
}

#[test]
fn two_engines_are_paired_run_by_run_on_the_run_clock() {
    let dir = tempfile::tempdir().unwrap();
    // One file holding HiGHS's Battleship runs outside the race (the report's tables: a
    // race's runs are mostly capped) and a copy of them as engine "highs-x", whose gbm
    // runs take twice as long on the run clock.
    let highs: Vec<Record> = base_rows()
        .into_iter()
        .filter(|r| r.backend == "highs" && r.puzzle == "battleship" && r.race.is_empty())
        .collect();
    assert!(highs.len() >= 10, "{} highs rows", highs.len());
    let copy: Vec<Record> = highs
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.backend = "highs-x".into();
            r.run_id = format!("{}x", r.run_id);
            if r.formulation == "gbm" && r.status == "optimal" {
                r.run_seconds = r.run_seconds.map(|s| 2.0 * s + 0.05);
            }
            r
        })
        .collect();
    let both: Vec<Record> = highs.iter().cloned().chain(copy).collect();
    let file = write(dir.path(), "both.csv", &both);
    let o = pb()
        .arg("diff")
        .arg(&file)
        .arg(&file)
        .args(["--pair", "highs=highs-x", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("engines paired: highs in"), "{out}");
    assert!(
        out.contains(&format!("{} matched by run id", highs.len())),
        "{out}"
    );
    let rows = diff_rows(dir.path());
    let flagged = flagged(&rows);
    assert!(
        flagged
            .iter()
            .any(|f| f.starts_with("battleship gbm highs→highs-x")),
        "{flagged:?}"
    );
    assert!(!flagged.iter().any(|f| f.contains(" cbm ")), "{flagged:?}");
    // Without --pair the two engines share no run; an engine a side lacks is bad input.
    let o = diff(&file, &file, dir.path());
    assert_eq!(o.status.code(), Some(0));
    let o = pb()
        .arg("diff")
        .arg(&file)
        .arg(&file)
        .args(["--pair", "highs=cbc", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no run on engine cbc (its engines: highs, highs-x)"),
        "{}",
        stderr(&o)
    );
    // Two formulations pair the same way, each on its engine, by solve time.
    let o = pb()
        .arg("diff")
        .arg(&file)
        .arg(&file)
        .args(["--pair", "gbm=cbm", "--out"])
        .arg(dir.path().join("out-f"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        out.contains("formulations paired: gbm in"),
        "{out}{}",
        stderr(&o)
    );
    assert!(out.contains("gbm→cbm on highs"), "{out}");
}
