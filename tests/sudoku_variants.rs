//! The Sudoku variants (X, jigsaw, killer) end to end: every committed variant puzzle is
//! solved, verified and unique, the formulations agree, the small ones on every
//! in-process engine; a Solo ID and its text form are the same puzzle; random 4×4 variant
//! puzzles (some without a solution, some with several) against a brute force over every
//! 4×4 Latin square; bad files name file and line.

mod common;
use common::assert_bad_files;
use puzzlebench::engines::{highs::HIGHS, in_process_engines_for, Kind, SolveOptions, Status};
use puzzlebench::puzzles::cages::{Cage, Op};
use puzzlebench::puzzles::sudoku::{parse, verify, Sudoku};
use puzzlebench::puzzles::{self, Instance, Solve};
use puzzlebench::rng::Rng;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(rel: &str) -> Vec<Sudoku> {
    let path = root().join(rel);
    parse::parse_file(&path, &std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn variants() -> Vec<Sudoku> {
    let mut out = Vec::new();
    for kind in ["x", "jigsaw", "killer"] {
        let dir = root().join("instances/sudoku/variants").join(kind);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for f in files {
            out.extend(load(f.strip_prefix(root()).unwrap().to_str().unwrap()));
        }
    }
    out
}

fn opts(count: u32) -> SolveOptions {
    SolveOptions {
        time_limit: Some(120.0),
        count,
        ..SolveOptions::default()
    }
}

fn grid(r: &puzzles::RunResult) -> Vec<Vec<u32>> {
    serde_json::from_value(r.answer.as_ref().unwrap().json["grid"].clone()).unwrap()
}

#[test]
fn every_committed_variant_is_unique_and_the_formulations_agree() {
    let mut seen = std::collections::BTreeSet::new();
    let mut solved = 0;
    for p in variants() {
        seen.insert(p.variant());
        let mut grids = Vec::new();
        for f in ["binary", "values", "combinations"] {
            let count = if f == "values" { 1 } else { 2 };
            let r = p.solve(f, HIGHS, &opts(count)).unwrap();
            let what = format!("{} {f}: {:?}", p.name, r.outcome.message);
            assert_eq!(r.outcome.status, Status::Optimal, "{what}");
            assert_eq!(r.verified(), Some(true), "{what}");
            if count == 2 {
                assert_eq!(r.outcome.solutions, Some(1), "{what}: not unique");
            }
            grids.push(grid(&r));
            solved += 1;
        }
        assert!(grids.windows(2).all(|w| w[0] == w[1]), "{}", p.name);
        // The small ones on every in-process engine that takes the model.
        if p.n() <= 6 {
            for f in ["binary", "values", "combinations"] {
                let model = p.build(f).unwrap();
                for e in in_process_engines_for(Kind::Mip) {
                    if e.model_refusal(&model).is_some() {
                        continue;
                    }
                    let r = p.solve(f, e, &opts(1)).unwrap();
                    assert_eq!(r.verified(), Some(true), "{} {f} {e}", p.name);
                    assert_eq!(grid(&r), grids[0], "{} {f} {e}", p.name);
                }
            }
        }
    }
    for v in [
        "x",
        "jigsaw",
        "jigsaw+x",
        "killer",
        "x+killer",
        "jigsaw+killer",
    ] {
        assert!(seen.contains(v), "no committed {v} puzzle: {seen:?}");
    }
    assert!(solved >= 3 * 100, "{solved}");
}

#[test]
fn a_solo_id_and_its_text_form_are_the_same_puzzle() {
    for (solo, text) in [
        ("jigsaw/solo_9jx.txt", "jigsaw/text_9jx.txt"),
        ("killer/solo_3x3xk.txt", "killer/text_3x3xk.txt"),
    ] {
        let dir = "instances/sudoku/variants/";
        let a = load(&format!("{dir}{solo}")).remove(0);
        let b = load(&format!("{dir}{text}")).remove(0);
        assert_eq!(a.givens, b.givens, "{solo}");
        assert_eq!(a.diagonals, b.diagonals, "{solo}");
        assert_eq!(a.regions, b.regions, "{solo}");
        assert_eq!(a.cages, b.cages, "{solo}");
        assert_eq!(a.canonical(), b.canonical(), "{solo}");
    }
}

/// Every 4×4 grid with values 1..4 once per row and column.
fn latin_squares() -> Vec<Vec<Vec<u32>>> {
    let perms: Vec<Vec<u32>> = {
        let mut out = Vec::new();
        for a in 1..=4u32 {
            for b in 1..=4u32 {
                for c in 1..=4u32 {
                    let Some(d) = 10u32.checked_sub(a + b + c) else {
                        continue;
                    };
                    let row = vec![a, b, c, d];
                    let mut s = row.clone();
                    s.sort();
                    if s == [1, 2, 3, 4] {
                        out.push(row);
                    }
                }
            }
        }
        out
    };
    let mut out = Vec::new();
    for r0 in &perms {
        for r1 in &perms {
            for r2 in &perms {
                for r3 in &perms {
                    let g = vec![r0.clone(), r1.clone(), r2.clone(), r3.clone()];
                    if (0..4).all(|j| {
                        let mut col: Vec<u32> = g.iter().map(|r| r[j]).collect();
                        col.sort();
                        col == [1, 2, 3, 4]
                    }) {
                        out.push(g);
                    }
                }
            }
        }
    }
    out
}

/// The jigsaw layouts of the random puzzles (besides the 2×2 boxes).
const LAYOUTS: [[[usize; 4]; 4]; 3] = [
    [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]],
    [[0, 0, 0, 1], [0, 2, 1, 1], [2, 2, 3, 1], [2, 3, 3, 3]],
    [[0, 0, 1, 1], [0, 2, 2, 1], [0, 2, 2, 1], [3, 3, 3, 3]],
];

#[test]
fn random_4x4_variants_agree_with_the_brute_force_on_every_engine() {
    let squares = latin_squares();
    assert_eq!(squares.len(), 576);
    let mut rng = Rng::new(7);
    let (mut none, mut one, mut several) = (0, 0, 0);
    for round in 0..30 {
        let mut p = Sudoku::plain(2, 2, vec![vec![0; 4]; 4]);
        p.name = format!("random{round}");
        if round % 3 == 1 {
            let layout = LAYOUTS[rng.below(LAYOUTS.len())];
            p.regions = Some(layout.iter().map(|r| r.to_vec()).collect());
            p.box_rows = 4;
            p.box_cols = 1;
        }
        p.diagonals = rng.below(3) == 0;
        // A solution to draw clues from: a square meeting the areas, when there is one.
        let fits: Vec<&Vec<Vec<u32>>> = squares
            .iter()
            .filter(|g| verify::check(&p, g).is_ok())
            .collect();
        let sol = if fits.is_empty() {
            squares[rng.below(squares.len())].clone()
        } else {
            fits[rng.below(fits.len())].clone()
        };
        // Killer cages: dominoes and trominoes of cells in one row or column chain.
        if round % 3 != 0 {
            let mut taken = [[false; 4]; 4];
            for _ in 0..3 {
                let (i, j) = (rng.below(4), rng.below(3));
                let cells: Vec<(usize, usize)> = if rng.below(2) == 0 {
                    vec![(i, j), (i, j + 1)]
                } else {
                    vec![(j, i), (j + 1, i)]
                };
                if cells.iter().any(|&(a, b)| taken[a][b]) {
                    continue;
                }
                for &(a, b) in &cells {
                    taken[a][b] = true;
                }
                let mut target: u64 = cells.iter().map(|&(a, b)| u64::from(sol[a][b])).sum();
                if round % 5 == 4 {
                    target += 1;
                }
                p.cages.push(Cage {
                    op: Op::Add,
                    target,
                    cells,
                });
            }
        }
        for _ in 0..rng.below(3) {
            let (i, j) = (rng.below(4), rng.below(4));
            p.givens[i][j] = sol[i][j];
        }
        let all: Vec<&Vec<Vec<u32>>> = squares
            .iter()
            .filter(|g| verify::check(&p, g).is_ok())
            .collect();
        match all.len() {
            0 => none += 1,
            1 => one += 1,
            _ => several += 1,
        }
        for f in ["binary", "values", "combinations"] {
            let model = p.build(f).unwrap();
            for e in in_process_engines_for(Kind::Mip) {
                if e.model_refusal(&model).is_some() {
                    continue;
                }
                let count = if f == "values" { 1 } else { 3 };
                let r = p.solve(f, e, &opts(count)).unwrap();
                let what = format!("{} {f} {e}: {:?}", p.canonical(), r.outcome.status);
                if all.is_empty() {
                    assert_eq!(r.outcome.status, Status::Infeasible, "{what}");
                    continue;
                }
                assert_eq!(r.outcome.status, Status::Optimal, "{what}");
                assert!(all.contains(&&grid(&r)), "{what}");
                if count == 3 {
                    assert_eq!(r.outcome.solutions, Some(all.len().min(3) as u64), "{what}");
                }
            }
        }
    }
    assert!(none > 0 && one > 0 && several > 0, "{none} {one} {several}");
}

#[test]
fn bad_variant_files_name_file_and_line_and_exit_2() {
    assert_bad_files(
        "sudoku",
        &[
            (
                "regions.txt",
                "sudoku 4\nregions\nAABB\nAABB\nCCDD\nCCDE\n",
                ":2: the regions must be 4 regions",
            ),
            (
                "short.txt",
                "sudoku 4\ngivens\n1...\n....\n",
                "'givens' needs 4 lines",
            ),
            (
                "cage.txt",
                "sudoku 4\ncage 3 r1c1 r1c2\ncage 4 r1c2 r2c2\n",
                ":3: cell r1c2 is already",
            ),
            (
                "key.txt",
                "sudoku 4\nboxes 3x3\n",
                ":2: boxes 3x3 do not tile",
            ),
            (
                "word.txt",
                "sudoku 4\ndiagonal\n",
                ":2: unknown keyword 'diagonal'",
            ),
            ("solo.txt", "9j:a,bb\n", ":1: "),
            ("killer.txt", "3x3k:zzzc\n", "needs its cages"),
        ],
    );
}
