//! Sudoku end to end through the library: every formulation on every backend, golden
//! answers, the verifier, infeasible givens, the LP bound and the exported models.

use puzzlebench::engines::{
    highs::HIGHS, in_process_engines_for, Engine, Kind, SolveOptions, Status,
};
use puzzlebench::formats::{lp, mps};
use puzzlebench::puzzles::{self, sudoku, Instance, Solve};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(rel: &str) -> Vec<Box<dyn Instance>> {
    puzzles::puzzle("sudoku")
        .unwrap()
        .load(&root().join(rel))
        .unwrap()
}

fn committed_instances() -> Vec<Box<dyn Instance>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("instances/sudoku"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        // The ladder of `race` is a list of instance files, not an instance.
        .filter(|p| p.file_name().is_none_or(|n| n != "ladder.txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "instances/sudoku is missing files");
    files
        .iter()
        .flat_map(|f| puzzles::puzzle("sudoku").unwrap().load(f).unwrap())
        .collect()
}

/// The largest grid (in cells) each backend and formulation is asked to solve here.
/// HiGHS solves everything committed in well under a second. CBC needs up to 40 s on
/// 25x25 `binary` and several seconds on 16x16 `values`; microlp (no presolve, no cuts)
/// solves `binary` to 9x9 but `values`, whose LP is weaker, only to 6x6. Larger cases are
/// measured in sweeps, where a time limit is recorded as such.
fn largest_tested(b: Engine, f: &str) -> f64 {
    match (b.key(), f) {
        ("highs", _) => f64::INFINITY,
        ("cbc", "binary") => 256.0,
        ("cbc", _) => 81.0,
        ("microlp", "binary") => 81.0,
        ("microlp", _) => 36.0,
        ("sat", "binary") => f64::INFINITY,
        // `values` has general integers, which `sat` refuses (tests/sat.rs).
        ("sat", _) => 0.0,
        // Not a MIP backend: in_process_engines_for(Kind::Mip) does not hold it.
        _ => 0.0,
    }
}

fn grid_of(report: &puzzles::RunResult) -> Vec<Vec<u32>> {
    serde_json::from_value(report.answer.as_ref().unwrap().json["grid"].clone()).unwrap()
}

#[test]
fn every_formulation_and_backend_solves_the_committed_instances() {
    let opts = SolveOptions {
        time_limit: Some(120.0),
        ..SolveOptions::default()
    };
    let mut solved = 0;
    for inst in committed_instances() {
        let mut grids = Vec::new();
        for f in ["binary", "values"] {
            for b in in_process_engines_for(Kind::Mip) {
                if inst.size() > largest_tested(b, f) {
                    continue;
                }
                let r = inst.solve(f, b, &opts).unwrap();
                assert_eq!(
                    r.outcome.status,
                    Status::Optimal,
                    "{} {f} {b}: {:?}",
                    inst.name(),
                    r.outcome
                );
                assert_eq!(
                    r.verified(),
                    Some(true),
                    "{} {f} {b}: {:?}",
                    inst.name(),
                    r.answer
                );
                grids.push(grid_of(&r));
                solved += 1;
            }
        }
        // Solo puzzles have unique solutions, so all formulations and backends agree.
        assert!(
            grids.windows(2).all(|w| w[0] == w[1]),
            "{} answers differ",
            inst.name()
        );
    }
    assert!(solved > 100);
}

fn golden(rel: &str, solution: &str) {
    let want: Vec<Vec<u32>> = std::fs::read_to_string(root().join(solution))
        .unwrap()
        .lines()
        .map(|l| l.chars().map(|c| c.to_digit(10).unwrap()).collect())
        .collect();
    for f in ["binary", "values"] {
        let r = load(rel)[0]
            .solve(f, HIGHS, &SolveOptions::default())
            .unwrap();
        assert_eq!(grid_of(&r), want, "{rel} {f}");
    }
}

#[test]
fn report_figure_3_1_gives_figure_3_2() {
    golden(
        "instances/sudoku/report_fig3_1.txt",
        "tests/data/sudoku/report_fig3_2.solution",
    );
}

#[test]
fn blog_puzzle_gives_the_posts_answer() {
    golden(
        "instances/sudoku/blog_003.txt",
        "tests/data/sudoku/blog_003.solution",
    );
}

#[test]
fn verifier_rejects_corrupted_solutions() {
    let p = sudoku::parse::parse_line(
        std::fs::read_to_string(root().join("instances/sudoku/blog_003.txt"))
            .unwrap()
            .lines()
            .nth(1)
            .unwrap(),
    )
    .unwrap();
    let r = p.solve("binary", HIGHS, &SolveOptions::default()).unwrap();
    let good = grid_of(&r);
    assert_eq!(sudoku::verify::check(&p, &good), Ok(()));
    // Swap two cells of a row: rows stay fine, columns break.
    let mut g = good.clone();
    g[4].swap(0, 8);
    assert!(sudoku::verify::check(&p, &g).is_err());
    // Every single-cell change is caught.
    for i in 0..9 {
        for j in 0..9 {
            let mut g = good.clone();
            g[i][j] = g[i][j] % 9 + 1;
            assert!(
                sudoku::verify::check(&p, &g).is_err(),
                "change at ({i},{j}) accepted"
            );
        }
    }
}

#[test]
fn contradictory_givens_are_infeasible_on_every_engine() {
    for file in [
        "tests/data/sudoku/infeasible_subtle.txt",
        "tests/data/sudoku/infeasible_clash.txt",
    ] {
        let inst = &load(file)[0];
        for f in ["binary", "values"] {
            let model = inst.build(f).unwrap();
            for b in in_process_engines_for(Kind::Mip) {
                if b.model_refusal(&model).is_some() {
                    continue;
                }
                for presolve in [true, false] {
                    let opts = SolveOptions {
                        presolve,
                        ..SolveOptions::default()
                    };
                    let r = inst.solve(f, b, &opts).unwrap();
                    assert_eq!(
                        r.outcome.status,
                        Status::Infeasible,
                        "{file} {f} {b} presolve {presolve}: {:?}",
                        r.outcome
                    );
                    assert!(r.answer.is_none());
                }
            }
        }
    }
}

#[test]
fn lp_bound_and_model_counts_are_reported() {
    let inst = &load("instances/sudoku/report_fig3_1.txt")[0];
    for b in in_process_engines_for(Kind::Mip) {
        if !b.capabilities().lp_relaxation {
            continue;
        }
        let r = inst.solve("binary", b, &SolveOptions::default()).unwrap();
        let lp = r.lp.as_ref().unwrap();
        assert_eq!(lp.status, Status::Optimal, "{b}");
        assert_eq!(r.lp_bound(), Some(0.0), "{b}");
        assert_eq!(r.counts.binaries, 729);
        assert_eq!(r.counts.constraints, 4 * 81 + 29);
        let c = inst.build("values").unwrap().counts();
        assert_eq!(c.integers, 81);
        assert_eq!(c.constraints, 4 * 81 + 81);
    }
}

#[test]
fn box_shapes_follow_solo() {
    // In Solo's CxR each box is C rows by R columns: 2x3 puzzles solve with 2-row boxes,
    // and the solution satisfies the 2x3 box rule.
    let text =
        std::fs::read_to_string(root().join("instances/sudoku/solo_2x3_unreasonable.txt")).unwrap();
    let mut swapped_infeasible = 0;
    for id in text.lines().filter(|l| l.starts_with("2x3:")) {
        let p = sudoku::parse::parse_solo(id).unwrap();
        assert_eq!((p.box_rows, p.box_cols), (2, 3));
        let r = p.solve("binary", HIGHS, &SolveOptions::default()).unwrap();
        assert_eq!(r.verified(), Some(true));
        // Read the other way round (3-row boxes), the same givens are often unsolvable.
        let q = sudoku::parse::parse_solo(&id.replacen("2x3", "3x2", 1)).unwrap();
        let r = q.solve("binary", HIGHS, &SolveOptions::default()).unwrap();
        swapped_infeasible += (r.outcome.status == Status::Infeasible) as usize;
    }
    assert!(
        swapped_infeasible > 0,
        "the box orientation made no difference"
    );
}

fn highs_read_and_solve(path: &Path) -> (i32, f64) {
    use std::ffi::CString;
    let name = CString::new(path.to_str().unwrap()).unwrap();
    unsafe {
        let h = highs_sys::Highs_create();
        highs_sys::Highs_setBoolOptionValue(h, c"output_flag".as_ptr(), 0);
        assert_eq!(
            highs_sys::Highs_readModel(h, name.as_ptr()),
            0,
            "HiGHS could not read {}",
            path.display()
        );
        highs_sys::Highs_run(h);
        let status = highs_sys::Highs_getModelStatus(h);
        let obj = highs_sys::Highs_getObjectiveValue(h);
        highs_sys::Highs_destroy(h);
        (status, obj)
    }
}

#[test]
fn exported_models_read_back_into_highs() {
    let dir = tempfile::tempdir().unwrap();
    let optimal = highs_sys::MODEL_STATUS_OPTIMAL;
    let infeasible = highs_sys::MODEL_STATUS_INFEASIBLE;
    for (file, want) in [
        ("instances/sudoku/report_fig3_1.txt", optimal),
        ("tests/data/sudoku/infeasible_subtle.txt", infeasible),
    ] {
        let inst = &load(file)[0];
        for f in ["binary", "values"] {
            let model = inst.build(f).unwrap();
            let mps = dir.path().join(format!("{f}.mps"));
            let lp = dir.path().join(format!("{f}.lp"));
            std::fs::write(&mps, mps::write(&model)).unwrap();
            std::fs::write(&lp, lp::write(&model)).unwrap();
            assert_eq!(
                mps::write(&inst.build(f).unwrap()),
                mps::write(&model),
                "MPS bytes differ between builds"
            );
            assert_eq!(highs_read_and_solve(&mps).0, want, "{file} {f} MPS");
            assert_eq!(highs_read_and_solve(&lp).0, want, "{file} {f} LP");
            let direct = HIGHS.solve_model(&model, &SolveOptions::default());
            let want_status = if want == optimal {
                Status::Optimal
            } else {
                Status::Infeasible
            };
            assert_eq!(direct.status, want_status);
        }
    }
}
