//! Nonograms end to end: every committed puzzle solved and verified by every formulation,
//! which agree, and the count of two solutions agrees between the MIP engine and the SAT
//! backend; the goals of `.non` files and pictures are the answers of unique puzzles;
//! small random puzzles (unique, with several solutions, without any) against a brute
//! force over every grid on every in-process engine; Tatham's 4×4 example; bad files
//! name file and line; the picture generator from the command line.

mod common;
use common::{assert_bad_files, assert_matches_brute_force, pb};
use puzzlebench::engines::{
    highs::HIGHS, in_process_engines_for, sat::SAT, Kind, SolveOptions, Status,
};
use puzzlebench::puzzles::nonogram::{parse, verify, Nonogram, PUZZLE};
use puzzlebench::puzzles::{self, Instance, Solve};
use puzzlebench::rng::Rng;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(rel: &str) -> Vec<Nonogram> {
    let path = root().join(rel);
    parse::parse_file(&path, &std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn committed(folder: &str) -> Vec<Nonogram> {
    common::instance_files(&format!("nonogram/{folder}"))
        .iter()
        .flat_map(|f| load(f.strip_prefix(root()).unwrap().to_str().unwrap()))
        .collect()
}

/// Every formulation of the registry.
fn formulations() -> impl Iterator<Item = &'static str> {
    PUZZLE.formulations.iter().map(|f| f.key)
}

fn opts(count: u32) -> SolveOptions {
    SolveOptions {
        time_limit: Some(120.0),
        count,
        lp_relaxation: false,
        ..SolveOptions::default()
    }
}

fn grid(r: &puzzles::RunResult) -> Vec<Vec<bool>> {
    let lines: Vec<String> =
        serde_json::from_value(r.answer.as_ref().unwrap().json["grid"].clone()).unwrap();
    lines
        .iter()
        .map(|l| l.chars().map(|c| c == '#').collect())
        .collect()
}

#[test]
fn tathams_4x4_example_has_its_one_solution() {
    let p = parse::parse_pattern("4x4:2/1/2/1/1.1/2/1/1").unwrap();
    for f in formulations() {
        for e in in_process_engines_for(Kind::Mip) {
            let r = p.solve(f, e, &opts(2)).unwrap();
            assert_eq!(r.outcome.status, Status::Optimal, "{f} {e}");
            assert_eq!(r.outcome.solutions, Some(1), "{f} {e}");
            let want = ["#..#", "##..", "..#.", "..#."];
            let got: Vec<String> = Nonogram::draw(&grid(&r));
            assert_eq!(got, want, "{f} {e}");
        }
    }
}

/// Up to 45×45 every formulation on HiGHS and on the SAT backend; the 35×35 to 50×50
/// puzzles of `large` (HiGHS takes seconds to minutes on each) on the SAT backend with
/// Bosch's model and the state model, while the README's measurement runs them on both engines.
#[test]
fn every_committed_puzzle_agrees_between_formulations_and_mip_and_sat() {
    let mut checked = 0;
    for folder in ["tatham", "webpbn", "made", "large"] {
        let pairs: &[(&str, _)] = if folder == "large" {
            &[("bosch", SAT), ("states", SAT)]
        } else {
            &[
                ("bosch", HIGHS),
                ("bosch", SAT),
                ("dfa", HIGHS),
                ("dfa", SAT),
                ("states", HIGHS),
                ("states", SAT),
            ]
        };
        for p in committed(folder) {
            let mut counts = Vec::new();
            let mut grids = Vec::new();
            for &(f, e) in pairs {
                {
                    let r = p.solve(f, e, &opts(2)).unwrap();
                    let what = format!("{} {f} {e}: {:?}", p.name, r.outcome.message);
                    assert_eq!(r.outcome.status, Status::Optimal, "{what}");
                    assert_eq!(r.verified(), Some(true), "{what}");
                    counts.push(r.outcome.solutions);
                    grids.push(grid(&r));
                }
            }
            assert!(
                counts.windows(2).all(|w| w[0] == w[1]),
                "{}: counts {counts:?}",
                p.name
            );
            if counts[0] == Some(1) {
                assert!(grids.windows(2).all(|w| w[0] == w[1]), "{}", p.name);
                if let Some(goal) = &p.goal {
                    assert_eq!(&grids[0], goal, "{}: the goal is the answer", p.name);
                }
            }
            if p.name.starts_with("pattern") {
                assert_eq!(
                    counts[0],
                    Some(1),
                    "{}: Tatham's puzzles are unique",
                    p.name
                );
            }
            if p.name.starts_with("random") {
                assert_eq!(
                    counts[0],
                    Some(2),
                    "{}: the random pictures are not unique",
                    p.name
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 65, "{checked}");
}

/// Every solution of `p` by enumerating all grids, up to `limit`.
fn brute_force(p: &Nonogram, limit: usize) -> Vec<Vec<Vec<bool>>> {
    let (h, w) = (p.height(), p.width());
    let mut out = Vec::new();
    for code in 0u64..(1 << (h * w)) {
        let g: Vec<Vec<bool>> = (0..h)
            .map(|i| (0..w).map(|j| code >> (i * w + j) & 1 == 1).collect())
            .collect();
        if verify::check(p, &g).is_ok() {
            out.push(g);
            if out.len() >= limit {
                break;
            }
        }
    }
    out
}

#[test]
fn random_puzzles_agree_with_the_brute_force_on_every_engine() {
    let mut rng = Rng::new(20);
    let (mut none, mut one, mut several) = (0, 0, 0);
    for round in 0..30 {
        let (h, w) = (2 + round % 3, 3 + round % 2);
        let picture: Vec<Vec<bool>> = (0..h)
            .map(|_| (0..w).map(|_| rng.below(2) == 1).collect())
            .collect();
        let mut p = Nonogram::from_picture(&picture);
        p.goal = None;
        if round % 4 == 3 {
            // A clue moved: usually no grid meets both sides (kept only when the totals
            // still agree, so that the parser's check would let it through).
            let i = rng.below(h);
            if let Some(first) = p.rows[i].first_mut() {
                *first += 1;
                let k = rng.below(w);
                p.cols[k].push(1);
            }
        }
        if round % 5 == 0 {
            p.givens[0][0] = Some(picture[0][0]);
        }
        let all = brute_force(&p, usize::MAX);
        match all.len() {
            0 => none += 1,
            1 => one += 1,
            _ => several += 1,
        }
        for f in formulations() {
            for e in in_process_engines_for(Kind::Mip) {
                let r = p.solve(f, e, &opts(3)).unwrap();
                let what = format!(
                    "round {round} {f} {e}: {:?}\n{}",
                    r.outcome.status,
                    p.to_text()
                );
                assert_matches_brute_force(&r, &all, grid, &what);
            }
        }
    }
    assert!(none > 0 && one > 0 && several > 0, "{none} {one} {several}");
}

#[test]
fn bad_files_name_file_and_line_and_exit_2() {
    assert_bad_files(
        "nonogram",
        &[
            (
                "fit.txt",
                "3x2:1/1/1/4/1\n",
                ":1: row 1: the runs [4] do not fit",
            ),
            (
                "clues.txt",
                "# two puzzles\n2x2:1/1/1/1\n2x2:1/1/1\n",
                ":3: 3 clues",
            ),
            (
                "goal.non",
                "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal \"10\"\n",
                ":7: the goal has 2 cells",
            ),
            (
                "goalbad.non",
                "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"01\"\n",
                ":8: the goal does not meet column 1's clue 1: its runs are -",
            ),
            (
                "picture.txt",
                "nonogram\nrows\n1\ncolumns\n1\n-\npicture\n.#\n",
                ":8: the picture does not meet column 1's clue 1: its runs are -",
            ),
            (
                "colour.non",
                "width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\n",
                ":4: hints of two colours",
            ),
            (
                "text.txt",
                "nonogram\nrows\n1 x\ncolumns\n1\n",
                ":3: 'x' is not a run length",
            ),
        ],
    );
}

#[test]
fn the_generator_makes_puzzles_from_pictures_and_says_if_they_are_unique() {
    let image = root().join("tests/data/nonogram/smiley.png");
    for method in ["threshold", "squares"] {
        let o = pb()
            .args([
                "generate", "nonogram", "--size", "20x20", "--method", method, "--image",
            ])
            .arg(&image)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{method}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let says = |what: &str| text.lines().any(|l| l.starts_with(what));
        assert!(says("# unique") || says("# not unique"), "{text}");
        if method == "squares" {
            assert!(
                says("# squares: Σ|d − g| = ") && text.contains("(within --gap 0.0005)"),
                "{text}"
            );
        }
        let ps = parse::parse_non(std::path::Path::new("g.non"), &text).unwrap();
        let p = &ps[0];
        assert_eq!((p.width(), p.height()), (20, 20));
        // The picture meets its own clues, and the face is there: black cells inside.
        let goal = p.goal.as_ref().unwrap();
        assert_eq!(verify::check(p, goal), Ok(()));
        // The dark face is densely black, the light background sparsely (the squares
        // method dithers: a cell of grey v wants 9·(255 − v)/255 squares around it).
        let share = |cells: &[(usize, usize)]| {
            cells.iter().filter(|&&(i, j)| goal[i][j]).count() as f64 / cells.len() as f64
        };
        let face: Vec<_> = (8..12).flat_map(|i| (8..12).map(move |j| (i, j))).collect();
        let border: Vec<_> = (0..20)
            .flat_map(|k| [(0, k), (19, k), (k, 0), (k, 19)])
            .collect();
        let (inside, outside) = (share(&face), share(&border));
        assert!(
            inside >= 0.5 && outside <= 0.3 && inside > 2.0 * outside,
            "{method}: {inside} inside, {outside} outside"
        );
        if method == "threshold" {
            assert!(inside == 1.0 && outside == 0.0, "{inside} {outside}");
        }
    }
    // Random pictures: the same seed, the same puzzle; the text format parses.
    let run = |seed: &str| {
        pb().args([
            "generate", "nonogram", "--method", "random", "--size", "12x8", "--seed", seed,
            "--format", "text",
        ])
        .output()
        .unwrap()
    };
    let (a, b, c) = (run("3"), run("3"), run("4"));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    // The same puzzle; the uniqueness line's solve time ("0.01 s") may differ.
    let puzzle = |o: &std::process::Output| -> String {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| !l.starts_with("# unique"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(puzzle(&a), puzzle(&b));
    assert_ne!(puzzle(&a), puzzle(&c));
    let p = parse::parse_text(
        std::path::Path::new("r.txt"),
        &String::from_utf8_lossy(&a.stdout),
    )
    .unwrap();
    assert_eq!((p.width(), p.height()), (12, 8));
    // Bad parameters exit 2 with the parameter named.
    let o = pb()
        .args(["generate", "nonogram", "--size", "12", "--method", "random"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--size"));
    let o = pb()
        .args([
            "generate", "nonogram", "--size", "5x5", "--method", "squares",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--image"));
    // Several puzzles: a .non bundle, divided by `====`; the text format holds one.
    let o = pb()
        .args([
            "generate", "nonogram", "--size", "6x5", "--method", "random", "--count", "3",
        ])
        .output()
        .unwrap();
    let ps = parse::parse_non(
        std::path::Path::new("b.non"),
        &String::from_utf8_lossy(&o.stdout),
    )
    .unwrap();
    assert_eq!(ps.len(), 3);
    assert!(ps.iter().all(|p| p.goal.is_some() && p.width() == 6));
    assert_ne!(ps[0].goal, ps[1].goal);
    let o = pb()
        .args([
            "generate", "nonogram", "--size", "6x5", "--method", "random", "--count", "2",
            "--format", "text",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("one puzzle per file"));
}

#[test]
fn the_svg_shows_clues_and_answer() {
    let p = &committed("tatham")[0];
    let r = p.solve("bosch", SAT, &opts(1)).unwrap();
    let svg = p.svg(r.answer.as_ref()).unwrap();
    let clues: usize = p.rows.iter().chain(&p.cols).map(|c| c.len()).sum();
    assert_eq!(svg.matches("<text").count(), clues);
    let black: usize = p.rows.iter().flatten().sum();
    assert_eq!(svg.matches("fill=\"#1f1f1f\"").count(), black);
}
