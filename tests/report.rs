//! Reports: tables from a fixed CSV compared with committed snapshots (set
//! UPDATE_SNAPSHOTS=1 to rewrite them after an intended change), `report` from a CSV, and
//! `reproduce --quick` on a tiny suite.

use puzzlebench::record::read_results;
use puzzlebench::record::Record;
use puzzlebench::report::all_tables;
use puzzlebench::report::tables::repeat_variation;
use std::path::PathBuf;
use std::process::Command;

mod common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn tables_match_their_snapshots() {
    let rows = read_results(&root().join("tests/data/report/results.csv")).unwrap();
    let tables = all_tables(&rows, 1.0, &puzzlebench::puzzles::table_functions());
    let stems: Vec<&str> = tables.iter().map(|t| t.stem.as_str()).collect();
    assert_eq!(
        stems,
        [
            "summary",
            "sudoku_backends",
            "comparisons",
            "sudoku_table_3_1",
            "sudoku_sizes"
        ]
    );
    let dir = root().join("tests/data/report/expected");
    common::assert_snapshots(&tables, &dir);
}

#[test]
fn summary_counts_the_time_limit_as_unsolved() {
    let rows = read_results(&root().join("tests/data/report/results.csv")).unwrap();
    let t = &all_tables(&rows, 1.0, &puzzlebench::puzzles::table_functions())[0];
    let cbc = t.rows.iter().find(|r| r[2] == "cbc").unwrap();
    assert_eq!(cbc[3], "1");
    assert_eq!(cbc[4], "0");
    // It stopped at 61.2 s, past its 60 s limit: charged the limit, never the overrun,
    // in the median and the SGM, and twice the limit in PAR-2.
    assert_eq!(cbc[5], "60.0");
    assert_eq!(cbc[6], "60.0");
    assert_eq!(cbc[7], "120");
    assert!(rows
        .iter()
        .any(|r| r.backend == "cbc" && r.seconds == Some(61.2)));
}

#[test]
fn comparisons_judge_every_pair_by_the_one_shift_and_its_interval() {
    let rows = read_results(&root().join("tests/data/report/results.csv")).unwrap();
    let shift = puzzlebench::stats::DEFAULT_SHIFT;
    let tables = all_tables(&rows, shift, &puzzlebench::puzzles::table_functions());
    let t = tables.iter().find(|t| t.stem == "comparisons").unwrap();
    let verdicts: Vec<(&str, &str, &str)> = t
        .rows
        .iter()
        .map(|r| (r[2].as_str(), r[3].as_str(), r[9].as_str()))
        .collect();
    // binary and values on highs: two repeats of 5 instances each, values about twice as
    // slow on four of them but three times as fast on the 4x4 (solo_2x2:3). The repeats
    // alone (about 7% apart) would call binary faster; the bootstrap over the instances
    // sees the spread, and its interval holds 1. cbc ran once, on one instance, and failed
    // it: highs solved more.
    assert_eq!(
        verdicts,
        [
            ("binary", "values", "within noise"),
            ("cbc", "highs", "highs ahead (more solved)")
        ]
    );
    let (lo, hi) = t.rows[0][8].split_once('–').unwrap();
    let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(lo < 1.0 && hi > 1.0, "{}", t.rows[0][8]);
    assert_eq!(t.rows[0][4], "5");
    assert_eq!(t.rows[1][4], "1");
    assert_eq!(t.rows[1][5], "0; 1");
    // The SGMs are the summary's, on the same shift.
    let summary = &tables[0];
    assert_eq!(summary.columns[6], "SGM0.01 (s)");
    let sgm = |f: &str| {
        summary
            .rows
            .iter()
            .find(|r| r[0] == "sudoku" && r[1] == f && r[2] == "highs")
            .unwrap()[6]
            .clone()
    };
    assert_eq!(
        t.rows[0][6],
        format!("{}; {}", sgm("binary"), sgm("values"))
    );
}

/// Rows of one run on one instance, solved in `seconds`, with the given presolve and repeat.
fn hashi_row(presolve: bool, repeat: u32, seconds: f64) -> Record {
    Record {
        puzzle: "hashi".into(),
        instance: "board".into(),
        formulation: "hdc".into(),
        backend: "highs".into(),
        repeat,
        presolve: Some(presolve),
        threads: Some(1),
        time_limit: Some(10.0),
        seed: Some(0),
        count: 1,
        status: "optimal".into(),
        verified: Some(true),
        seconds: Some(seconds),
        ..Record::default()
    }
}

#[test]
fn presolve_on_and_off_are_not_repeats_of_each_other() {
    // One repeat each with presolve on and off: no variation to report, and two summary
    // rows, one per setting.
    let rows = [hashi_row(true, 1, 0.1), hashi_row(false, 1, 1.0)];
    assert!(repeat_variation(&rows).is_empty());
    let summary = &all_tables(&rows, 1.0, &[])[0];
    let labels: Vec<&str> = summary.rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(labels, ["highs", "highs-nopresolve"]);
    assert!(
        summary.rows.iter().all(|r| r[8] == "n/a"),
        "{:?}",
        summary.rows
    );
    // Two repeats with presolve off: their variation, and none for presolve on.
    let rows = [
        hashi_row(true, 1, 0.1),
        hashi_row(false, 1, 1.0),
        hashi_row(false, 2, 3.0),
    ];
    let cv = repeat_variation(&rows);
    let key = |b: &str| ("hashi".to_string(), "hdc".to_string(), b.to_string());
    assert_eq!(cv.len(), 1);
    assert!((cv[&key("highs-nopresolve")] - 2f64.sqrt() / 2.0).abs() < 1e-12);
    // Compared as two backends of one formulation: presolve off's two repeats (1 s, 3 s)
    // against presolve on's 0.1 s; with the shift of 1 s the ratio is (2 + 1) / (0.1 + 1)
    // = 2.73, its interval from (1 + 1) / 1.1 = 1.82 to (3 + 1) / 1.1 = 3.64, clear of 1.
    let tables = all_tables(&rows, 1.0, &[]);
    let stems: Vec<&str> = tables.iter().map(|t| t.stem.as_str()).collect();
    assert_eq!(stems, ["summary", "hashi_backends", "comparisons"]);
    assert_eq!(
        tables[2].rows,
        [[
            "hashi",
            "formulation hdc",
            "highs",
            "highs-nopresolve",
            "1",
            "1; 1",
            "0.100; 2.00",
            "2.73",
            "1.82–3.64",
            "highs faster (×2.73)"
        ]]
    );
}

#[test]
fn report_rebuilds_tables_and_index_from_a_csv() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args(["report", "tests/data/report/results.csv", "--out"])
        .arg(dir.path())
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let index = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
    assert!(index.contains("beside the report's Table 3.1"));
    assert!(index.contains("| report | model (3.1) on Gurobi 11.0.3 |"));
    assert!(dir.path().join("tables/sudoku_table_3_1.tex").exists());
    // The default formats: SVG and PDF; PNG only when asked for.
    assert!(dir.path().join("plots/sudoku_time_vs_size.svg").exists());
    assert!(dir.path().join("plots/sudoku_time_vs_size.pdf").exists());
    assert!(!dir.path().join("plots/sudoku_time_vs_size.png").exists());
    assert!(dir.path().join("tables/comparisons.csv").exists());
}

/// Issue 54, points 12 and 13: a run written twice to one file (a sweep run again) counts
/// once, its last attempt, and a refused run (here a row of an older version: status
/// `error`, "unsupported by …") counts nowhere; `report` says what it set aside, and its
/// summary is that of the file without them.
#[test]
fn report_counts_a_run_id_once_and_no_refused_run() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("tests/data/report/results.csv")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let again = lines[1].to_string();
    let refused = lines[1]
        .replacen("9922f84c404a1f0b", "00000000000000aa", 1)
        .replacen(",binary,highs,", ",values,sat,", 1)
        .replacen(",optimal,", ",error,", 1)
        .replacen(",0.0,0.0,0.0,0.0,", ",,,,,", 1)
        .replacen(
            ",true,,,,,,",
            ",,,,,,unsupported by sat: variable v_1_1 is a general integer,",
            1,
        );
    lines.push(&again);
    lines.push(&refused);
    let csv = dir.path().join("twice.csv");
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let rows = read_results(&csv).unwrap();
    assert_eq!(rows.len(), 23);
    assert_eq!(rows[22].status, "refused", "{:?}", rows[22]);
    let report = |csv: &std::path::Path, out: &std::path::Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
            .arg("report")
            .arg(csv)
            .args(["--figures", "svg", "--out"])
            .arg(out)
            .current_dir(root())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    let err = report(&csv, &dir.path().join("twice"));
    assert!(err.contains("1 earlier attempt of a run"), "{err}");
    assert!(err.contains("1 refused run "), "{err}");
    let err = report(
        &root().join("tests/data/report/results.csv"),
        &dir.path().join("once"),
    );
    assert!(
        !err.contains("earlier attempt") && !err.contains("refused"),
        "{err}"
    );
    let summary =
        |d: &str| std::fs::read_to_string(dir.path().join(d).join("tables/summary.md")).unwrap();
    assert_eq!(summary("twice"), summary("once"));
    assert!(!summary("twice").contains("| sat |"));
    let index = std::fs::read_to_string(dir.path().join("twice/README.md")).unwrap();
    assert!(index.contains("1 earlier attempt of a run"), "{index}");
    // The library's tables count the same rows.
    let tables = all_tables(&rows, 1.0, &[]);
    let runs: usize = tables[0]
        .rows
        .iter()
        .map(|r| r[3].parse::<usize>().unwrap())
        .sum();
    assert_eq!(runs, 21);
}

#[test]
fn reproduce_quick_on_a_tiny_suite() {
    let dir = tempfile::tempdir().unwrap();
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
            .args([
                "reproduce",
                "--quick",
                "--quiet",
                "--instances-dir",
                "tests/data/reproduce",
                "--out",
            ])
            .arg(dir.path())
            .current_dir(root())
            .output()
            .unwrap()
    };
    let o = run();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = read_results(&dir.path().join("results.csv")).unwrap();
    // The parts of the report's Gurobi tables run on gurobi too where it is installed:
    // once more each.
    let on_gurobi = rows.iter().filter(|r| r.backend == "gurobi").count();
    let gurobi = puzzlebench::engines::built_in_definitions::GUROBI.installed();
    assert_eq!(on_gurobi, if gurobi { 20 } else { 0 }, "{rows:?}");
    let rows: Vec<_> = rows.into_iter().filter(|r| r.backend != "gurobi").collect();
    assert_eq!(
        rows.len(),
        20,
        "sudoku, battleship and circuit: 2 puzzles x 2 formulations; \
         hashi: 1 board x 4 formulations x presolve on/off"
    );
    assert_eq!(rows.iter().filter(|r| r.presolve == Some(false)).count(), 4);
    assert!(rows
        .iter()
        .all(|r| r.status == "optimal" && r.verified == Some(true)));
    let index = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
    assert!(index.contains("Summary per puzzle"));
    assert!(index.contains("pictures/sudoku.svg"));
    assert!(index.contains("pictures/battleship.svg"));
    assert!(index.contains("Table 4.3"));
    assert!(index.contains("Table A.1") && index.contains("Table A.3"));
    let pic = std::fs::read_to_string(dir.path().join("pictures/circuit.svg")).unwrap();
    assert!(
        pic.contains("#1f5fbf"),
        "the circuit picture shows a solved tree"
    );
    let pic = std::fs::read_to_string(dir.path().join("pictures/sudoku.svg")).unwrap();
    assert!(pic.starts_with("<svg") && pic.contains("<text"));
    let pic = std::fs::read_to_string(dir.path().join("pictures/hashi.svg")).unwrap();
    assert!(
        pic.contains("<circle") && pic.contains("#1f5fbf"),
        "solved picture"
    );
    // Running again resumes: nothing is lost and nothing is run twice.
    let o = run();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    let twice = if gurobi { 2 } else { 1 };
    for (p, n) in [
        ("sudoku (binary, values)", 4),
        ("battleship (gbm, cbm)", 4),
        ("circuit (cm1, cm2)", 4),
        ("hashi (base, hdc, cuts, cuts-hdc; presolve on and off)", 8),
    ] {
        assert!(
            err.contains(&format!("{p}: 0 runs appended, {} already", n * twice)),
            "{err}"
        );
    }
    // Each formulation ran on the default engine of its kind (cm1, lazy rows, on bc),
    // and on gurobi where it is installed.
    let rows = read_results(&dir.path().join("results.csv")).unwrap();
    assert!(rows
        .iter()
        .filter(|r| r.backend != "gurobi")
        .all(|r| (r.formulation == "cm1") == (r.backend == "bc")));
    assert_eq!(rows.len(), 20 * twice);
    // --compress-raw: the raw files are stored gzip-compressed and the report links the
    // compressed rows, which `report` reads as they are; a later run takes them back and
    // goes on (nothing run again, nothing lost).
    let plain = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args([
            "reproduce",
            "--quick",
            "--quiet",
            "--compress-raw",
            "--instances-dir",
            "tests/data/reproduce",
            "--out",
        ])
        .arg(dir.path())
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!dir.path().join("results.csv").exists());
    assert!(dir.path().join("results.csv.gz").exists());
    assert!(dir.path().join("results.csv.timelines.jsonl.gz").exists());
    let index = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
    assert!(
        index.contains("[results.csv.gz](results.csv.gz)"),
        "{index}"
    );
    assert!(index.contains("--compress-raw"), "{index}");
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(
        html.contains("href=\"results.csv.gz\""),
        "the overview links the rows"
    );
    assert_eq!(
        read_results(&dir.path().join("results.csv.gz"))
            .unwrap()
            .len(),
        rows.len()
    );
    let o = run();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("took back"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!dir.path().join("results.csv.gz").exists());
    let after = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert!(after.starts_with(&plain), "every row kept, in place");
    assert_eq!(
        read_results(&dir.path().join("results.csv")).unwrap().len(),
        rows.len(),
        "nothing run again"
    );
}

/// The main job writes into an ignored folder: after `reproduce --quick` with its defaults
/// in a fresh clone of the committed tree, git sees no change, and the report is there.
#[test]
fn reproduce_leaves_a_clean_clone_clean() {
    if !root().join(".git").exists() {
        eprintln!("not a git checkout: nothing to clone");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("clone");
    let git = |args: &[&str], cwd: &std::path::Path| {
        let o = Command::new("git")
            .args(args)
            .current_dir(cwd)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    git(
        &[
            "clone",
            "--quiet",
            root().to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
        dir.path(),
    );
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args([
            "reproduce",
            "--quick",
            "--puzzle",
            "zebra",
            "--time-limit",
            "1",
            "--quiet",
            "--race-budget",
            "10s",
        ])
        .current_dir(&clone)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(clone.join("results/README.md").exists());
    assert!(clone.join("results/results.csv").exists());
    assert_eq!(git(&["status", "--porcelain", "--ignored=no"], &clone), "");
}

#[test]
fn every_suite_compares_its_engines_on_instances_it_says_how_it_chose() {
    let dir = root().join("instances");
    for p in puzzlebench::puzzles::PUZZLES.iter().filter(|p| !p.hidden()) {
        for quick in [true, false] {
            let parts: Vec<_> = p
                .suite(quick)
                .parts
                .into_iter()
                .filter(|part| part.every_engine)
                .collect();
            assert!(
                !parts.is_empty(),
                "{} (quick {quick}): no comparison",
                p.key()
            );
            for part in &parts {
                assert!(
                    part.chosen.starts_with("Chosen by difficulty"),
                    "{}: {}",
                    p.key(),
                    part.chosen
                );
                assert_eq!(part.repeats, Some(3), "{}", p.key());
                for file in &part.instances {
                    let path = dir.join(file);
                    assert!(path.is_file(), "{}: {file} is no file", p.key());
                    assert!(!p.load(&path).unwrap().is_empty(), "{file}");
                }
            }
        }
    }
    let sets = puzzlebench::puzzles::comparison_instances(&dir);
    let quick: Vec<&str> = sets.iter().filter(|c| c.quick).map(|c| c.puzzle).collect();
    assert_eq!(quick.len(), 11, "{quick:?}");
    let kenken = sets
        .iter()
        .find(|c| c.quick && c.puzzle == "kenken")
        .unwrap();
    assert_eq!(
        kenken.names,
        [
            ("keen_8dx:2".to_string(), 2.0),
            ("keen_8dx:3".to_string(), 2.0)
        ],
        "the names of the report's rows, at the comparison's limit"
    );
}

/// Every table the report makes of the committed example's rows: the answers (on the
/// instances the most configurations ran, as for rows of no suite) and [`all_tables`].
fn example_tables() -> Vec<puzzlebench::table::Table> {
    let rows = read_results(&root().join("docs/example-report/results.csv")).unwrap();
    let shift = puzzlebench::stats::DEFAULT_SHIFT;
    let answers = puzzlebench::report::answer::answers(&rows, &[], shift);
    let mut tables: Vec<_> = puzzlebench::report::answer::answers_table(&answers)
        .into_iter()
        .collect();
    tables.extend(all_tables(
        &rows,
        shift,
        &puzzlebench::puzzles::table_functions(),
    ));
    assert!(tables.len() > 30, "{} tables", tables.len());
    tables
}

/// The units written after the numbers of a cell: `605 µs` and `605µs` give `µs`.
fn units_in(cell: &str) -> Vec<&'static str> {
    const UNITS: [&str; 8] = ["ns", "µs", "μs", "us", "ms", "s", "min", "h"];
    let number = |w: &str| {
        w.trim_start_matches(['≈', '≥', '≤', '<', '>', '~'])
            .parse::<f64>()
            .is_ok()
    };
    let words: Vec<&str> = cell
        .split_whitespace()
        .map(|w| w.trim_end_matches([',', ';', ')']))
        .collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let digits = w.trim_end_matches(|c: char| c.is_alphabetic());
        let glued = &w[digits.len()..];
        for u in UNITS {
            if (number(w) && words.get(i + 1) == Some(&u)) || (number(digits) && glued == u) {
                out.push(u);
            }
        }
    }
    out
}

#[test]
fn no_table_column_mixes_units() {
    assert_eq!(units_in("605 µs"), ["µs"]);
    assert_eq!(units_in("≈ 20 s"), ["s"]);
    assert_eq!(units_in("0.0120"), Vec::<&str>::new());
    for t in example_tables() {
        for (c, header) in t.columns.iter().enumerate() {
            // A verdict is words, not a measurement: "no verdict (< 10 ms)" names the
            // rule's floor (an instance under 10 ms counts toward no test).
            if header == "verdict" {
                continue;
            }
            let cells: Vec<&str> = t.rows.iter().map(|r| r[c].as_str()).collect();
            let mut units: Vec<&str> = cells.iter().flat_map(|x| units_in(x)).collect();
            units.sort_unstable();
            units.dedup();
            // A unit in a cell only where the header names it and every number of the
            // column carries it; else the header's unit alone.
            assert!(
                units.len() <= 1,
                "{}: column {header} mixes {units:?}",
                t.stem
            );
            if let Some(u) = units.first() {
                assert!(
                    header.contains(&format!("({u}")),
                    "{}: column {header} has cells in {u}",
                    t.stem
                );
                for x in &cells {
                    let numbers = x.split_whitespace().filter(|w| w.parse::<f64>().is_ok());
                    assert_eq!(
                        units_in(x).len(),
                        numbers.count(),
                        "{}: {x} in column {header}",
                        t.stem
                    );
                }
            }
        }
    }
}

#[test]
fn no_table_has_a_row_of_nothing_and_every_mark_is_explained() {
    for t in example_tables() {
        let nothing: Vec<&Vec<String>> = t.rows_of_nothing().collect();
        assert!(nothing.is_empty(), "{}: {nothing:?}", t.stem);
        if let Some(note) = puzzlebench::table::marks_note(&t.rows) {
            assert!(t.notes.contains(&note), "{}: {:?}", t.stem, t.notes);
        }
    }
}

#[test]
fn every_table_is_plain_ascii_in_latex() {
    // pdflatex stops at a character it has no definition for: every symbol is a command.
    for t in example_tables() {
        let tex = t.to_latex();
        let odd: Vec<char> = tex.chars().filter(|c| !c.is_ascii()).collect();
        assert!(odd.is_empty(), "{}: {odd:?}", t.stem);
    }
}

/// A 9×9 Sudoku run of `formulation` on `backend`, solved in half a second.
fn sudoku_run(formulation: &str, backend: &str) -> Record {
    Record {
        puzzle: "sudoku".into(),
        instance: "p1".into(),
        size_label: "9x9".into(),
        size: Some(81.0),
        formulation: formulation.into(),
        backend: backend.into(),
        repeat: 1,
        count: 1,
        time_limit: Some(10.0),
        status: "optimal".into(),
        verified: Some(true),
        seconds: Some(0.5),
        ..Record::default()
    }
}

#[test]
fn a_failed_configuration_and_one_not_run_have_marks_of_their_own() {
    // binary and values on highs solve; binary on cbc fails; values never ran on cbc.
    let failed = Record {
        status: "time_limit".into(),
        verified: None,
        seconds: Some(10.0),
        ..sudoku_run("binary", "cbc")
    };
    let rows = [
        sudoku_run("binary", "highs"),
        sudoku_run("values", "highs"),
        failed,
    ];
    let tables = all_tables(&rows, 1.0, &puzzlebench::puzzles::table_functions());
    let table = |stem: &str| tables.iter().find(|t| t.stem == stem).unwrap();
    let engines = table("sudoku_backends");
    assert_eq!(
        engines.columns,
        ["formulation", "instances", "highs", "cbc"]
    );
    assert_eq!(engines.rows[0][3], "0/1 ✗", "binary on cbc failed");
    assert_eq!(engines.rows[1][3], "–", "values on cbc did not run");
    // The tables of the puzzle: a row for the failure, none for what did not run.
    let sizes = table("sudoku_sizes");
    let cbc: Vec<&Vec<String>> = sizes.rows.iter().filter(|r| r[2] == "cbc").collect();
    assert_eq!(cbc.len(), 1, "{:?}", sizes.rows);
    assert_eq!((cbc[0][1].as_str(), cbc[0][4].as_str()), ("binary", "✗"));
    let table_3_1 = table("sudoku_table_3_1");
    let failed = table_3_1
        .rows
        .iter()
        .find(|r| r[1] == "binary on cbc")
        .expect("the failed configuration has its row");
    assert_eq!(failed[4..], ["✗", "✗", "0/1"]);
    for t in [engines, sizes, table_3_1] {
        let note = t.notes.iter().find(|n| n.starts_with("Marks:"));
        assert!(
            note.is_some_and(|n| n.contains("✗ = failed")),
            "{}: {:?}",
            t.stem,
            t.notes
        );
    }
    assert!(engines.notes.iter().any(|n| n.contains("– = not run")));
}

#[test]
fn the_zebra_table_names_configurations_as_the_overview_does() {
    let rows = read_results(&root().join("docs/example-report/results.csv")).unwrap();
    let answers = puzzlebench::report::answer::answers(&rows, &[], 0.01);
    let zebra = answers.iter().find(|a| a.puzzle == "zebra").unwrap();
    let table = puzzlebench::puzzles::zebra::tables::tables(&rows).remove(0);
    assert_eq!(table.stem, "zebra_table_7_5");
    let names: Vec<&str> = table.rows.iter().map(|r| r[1].as_str()).collect();
    let life: Vec<String> = zebra
        .standings
        .iter()
        .map(|s| s.config.to_string())
        .filter(|n| n.starts_with("cp on propagate-h"))
        .collect();
    assert!(!life.is_empty(), "{:?}", zebra.standings);
    for name in &life {
        assert!(names.contains(&name.as_str()), "{name} not in {names:?}");
    }
    assert!(names.contains(&"cp on propagate-hroot"), "{names:?}");
}

/// Issue 54, point 2: every row of the committed example report holds
/// first_solution_seconds ≤ best_solution_seconds ≤ run_seconds, on the run clock (1,918
/// of the 2,308 rows of the example before that issue had a first solution after their
/// `seconds`, with no end of the run clock to check it against).
#[test]
fn the_example_report_holds_the_clock_order_on_every_row() {
    let path = root().join("docs/example-report/results.csv");
    let rows = read_results(&path).unwrap();
    assert!(rows.len() > 1000, "{} rows", rows.len());
    assert!(rows.iter().any(|r| r.first_solution_seconds.is_some()));
    let problems = puzzlebench::record::clock_problems(&path).unwrap();
    assert!(
        problems.is_empty(),
        "{} rows break it, first: {}",
        problems.len(),
        problems[..problems.len().min(5)].join("\n")
    );
}

/// The size of every file under `dir`, in bytes.
fn bytes_under(dir: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| {
            let p = e.path();
            if p.is_dir() {
                bytes_under(&p)
            } else {
                e.metadata().map_or(0, |m| m.len())
            }
        })
        .sum()
}

/// Issue 63: the example report at most 5 MB, none of it repeated. The report of the
/// example's rows (as the example holds it: SVG figures, no PDF) is written again, and
/// counted with what the example keeps besides (its rows, timelines and race log, stored
/// gzip-compressed; its sweep record; the pictures). A page refers to the plot files and
/// holds no copy of one (each was a third of its page), and no page grows past 300 kB.
#[test]
fn the_example_report_stays_under_5_mb_and_its_pages_hold_no_plot() {
    use std::io::Write;
    let example = root().join("docs/example-report");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .current_dir(root())
        .args([
            "report",
            "docs/example-report/results.csv",
            "--figures",
            "svg",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut pages = 0;
    for e in std::fs::read_dir(&out).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "html") {
            pages += 1;
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            assert!(!text.contains("<svg"), "{name} inlines an SVG");
            assert!(text.len() <= 300_000, "{name}: {} bytes", text.len());
        }
    }
    assert!(pages >= 12, "{pages} pages");
    let written = bytes_under(&out);
    // The example's data, at its size as the example keeps it: gzip-compressed (a file
    // still held plain is counted compressed, as it is to be committed).
    let mut data = 0;
    for name in ["results.csv", "results.csv.timelines.jsonl", "race.jsonl"] {
        let plain = example.join(name);
        let gz = puzzlebench::gz::with_gz(&plain);
        data += if gz.exists() {
            std::fs::metadata(&gz).unwrap().len()
        } else {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            e.write_all(&std::fs::read(&plain).unwrap()).unwrap();
            e.finish().unwrap().len() as u64
        };
    }
    let kept = std::fs::metadata(example.join("results.sweeps.jsonl")).map_or(0, |m| m.len())
        + bytes_under(&example.join("pictures"));
    let total = written + data + kept;
    eprintln!("report {written} bytes, data {data}, sweeps and pictures {kept}: {total}");
    assert!(total <= 5_000_000, "the example would be {total} bytes");
}
