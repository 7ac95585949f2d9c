//! The SAT backend end to end: every formulation whose models are all 0/1 solves the
//! committed small instances on `sat` with verified answers and the SAT figures in its
//! rows; counting agrees with a MIP backend; a model it cannot take is refused with the
//! reason, as a row, while the sweep goes on; and `list` shows it with its version.

mod common;

use common::{pb, rows, stderr};
use puzzlebench::record::Record;
use std::collections::BTreeMap;

/// Runs a sweep into a fresh CSV and returns its rows; every run must solve.
fn sweep(
    puzzle: &str,
    formulations: &str,
    backends: &str,
    files: &[&str],
    extra: &[&str],
) -> Vec<Record> {
    let (rows, o) = sweep_output(puzzle, formulations, backends, files, extra);
    assert!(o.status.success(), "{}", stderr(&o));
    rows
}

/// Runs a sweep into a fresh CSV: its rows and the process output.
fn sweep_output(
    puzzle: &str,
    formulations: &str,
    backends: &str,
    files: &[&str],
    extra: &[&str],
) -> (Vec<Record>, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let mut args = vec![
        "run",
        "--puzzle",
        puzzle,
        "--formulation",
        formulations,
        "--backend",
        backends,
        "--time-limit",
        "60",
        "--order",
        "plan",
        "--out",
        out.to_str().unwrap(),
        "--instances",
    ];
    args.extend(files);
    args.extend(extra);
    let o = pb().args(&args).output().unwrap();
    (rows(&out), o)
}

#[test]
fn every_pure_binary_formulation_solves_on_sat_with_verified_answers() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "sudoku",
            "binary",
            &[
                "instances/sudoku/solo_3x3_extreme.txt",
                "instances/sudoku/report_fig3_1.txt",
            ],
        ),
        (
            "battleship",
            "gbm,cbm",
            &["instances/battleship/table_4_2/8x8.txt"],
        ),
        (
            "zebra",
            "ip",
            &[
                "instances/zebra/generated/zebra_5x5_s1.txt",
                "instances/zebra/life_1962.txt",
            ],
        ),
        (
            "circuit",
            "cm1,cm1-lazy,cm1-rowgen",
            &["instances/circuit/table_a_1/6x6.txt"],
        ),
        ("circuit", "cm3", &["instances/circuit/cm3/6x6.txt"]),
        (
            "hashi",
            "cuts,cuts-hdc",
            &["instances/hashi/tatham/t_07x07_m3.txt"],
        ),
    ];
    let mut seen = 0;
    for (puzzle, formulations, files) in cases {
        let got = sweep(puzzle, formulations, "sat", files, &[]);
        assert!(!got.is_empty(), "{puzzle}");
        for r in &got {
            let what = format!("{puzzle} {} {}: {:?}", r.formulation, r.instance, r.error);
            assert_eq!(
                (r.status.as_str(), r.verified),
                ("optimal", Some(true)),
                "{what}"
            );
            assert_eq!(r.backend, "sat");
            assert!(
                r.solver_version.starts_with("CaDiCaL "),
                "{}",
                r.solver_version
            );
            assert!(
                r.conflicts.is_some() && r.nodes.is_some(),
                "{what}: decisions and conflicts"
            );
            assert!(
                r.clauses.is_some() && r.aux_variables.is_some(),
                "{what}: encoding size"
            );
            // What CaDiCaL applies: the seed; not threads, presolve or a gap.
            assert_eq!(
                (r.seed, r.threads, r.presolve, r.mip_gap),
                (Some(0), None, None, None)
            );
            assert_eq!(r.lp_bound, None, "a SAT solver solves no LP");
            seen += 1;
        }
        // Formulations with rows added while solving say how many.
        if formulations.contains("cm1") || formulations.contains("cuts") {
            assert!(got.iter().all(|r| r.rounds.is_some() && r.cuts.is_some()));
        }
    }
    assert!(seen >= 20, "{seen} rows");
}

#[test]
fn counting_on_sat_agrees_with_highs() {
    // The committed puzzle (unique) and the same puzzle with its last five clues left
    // out, which has several solutions.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("instances/zebra/generated/zebra_5x5_s1.txt"),
    )
    .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let loose = dir.path().join("loose.txt");
    std::fs::write(&loose, lines[..lines.len() - 5].join("\n") + "\n").unwrap();
    let files = [
        "instances/zebra/generated/zebra_5x5_s1.txt",
        loose.to_str().unwrap(),
    ];
    let got = sweep("zebra", "ip", "sat,highs", &files, &["--count", "4"]);
    let mut by: BTreeMap<(String, String), u64> = BTreeMap::new();
    for r in &got {
        assert_eq!(r.verified, Some(true), "{} {}", r.backend, r.instance);
        by.insert(
            (r.instance.clone(), r.backend.clone()),
            r.solutions.unwrap(),
        );
    }
    assert_eq!(by[&("zebra_5x5_s1".into(), "sat".into())], 1);
    assert_eq!(by[&("zebra_5x5_s1".into(), "highs".into())], 1);
    let (s, h) = (
        by[&("loose".into(), "sat".into())],
        by[&("loose".into(), "highs".into())],
    );
    assert_eq!(s, h, "sat and highs count the loose puzzle alike");
    assert!(s > 1, "the loose puzzle has several solutions: {s}");
}

#[test]
fn a_model_sat_cannot_take_is_a_row_with_the_reason_and_the_sweep_goes_on() {
    let (got, o) = sweep_output(
        "sudoku",
        "values,binary",
        "sat",
        &["instances/sudoku/solo_2x2.txt"],
        &[],
    );
    // The sweep ran every run, and lists the refused ones apart: they are no failures.
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("values on sat: 5 runs refused, not run: unsupported by sat"),
        "{}",
        stderr(&o)
    );
    let values: Vec<&Record> = got.iter().filter(|r| r.formulation == "values").collect();
    let binary: Vec<&Record> = got.iter().filter(|r| r.formulation == "binary").collect();
    assert!(!values.is_empty() && values.len() == binary.len());
    for r in values {
        assert_eq!(r.status, "refused");
        let why = r.error.as_deref().unwrap();
        assert!(
            why.starts_with("unsupported by sat: variable v_")
                && why.ends_with("is a general integer"),
            "{why}"
        );
    }
    assert!(binary
        .iter()
        .all(|r| r.status == "optimal" && r.verified == Some(true)));
}

#[test]
fn list_shows_the_sat_engine_with_its_version() {
    let o = pb().arg("list").output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("sat"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("CaDiCaL"), "{line}");
}
