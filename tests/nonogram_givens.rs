//! Nonogram givens end to end: tiny random pictures against a brute force (every grid
//! with the clues enumerated, then every set of givens tried smallest first) on every
//! in-process engine and both formulations, counted minimum sets too; the committed
//! pictures with several solutions proved alike on every configuration; the verifier
//! refusing wrong answers; the greedy answer never below the minimum; `generate nonogram
//! --givens` making a unique puzzle of every method's picture in both formats; bad files.

mod common;
use common::{assert_bad_files, pb};
use puzzlebench::engines::Budget;
use puzzlebench::engines::{
    highs::HIGHS, hitset::HITSET, in_process_engines_for, sat::SAT, Kind, SolveOptions, Status,
};
use puzzlebench::puzzles::fewest_clues::Target;
use puzzlebench::puzzles::nonogram::givens::{greedy, NonogramGivens};
use puzzlebench::puzzles::nonogram::{self, parse as nonogram_parse, Nonogram};
use puzzlebench::puzzles::nonogram_givens::{answer, parse, PUZZLE};
use puzzlebench::puzzles::{Instance, RunResult};
use puzzlebench::rng::Rng;
use std::path::Path;

fn opts(limit: f64, count: u32) -> SolveOptions {
    SolveOptions {
        time_limit: Some(limit),
        count,
        lp_relaxation: false,
        ..SolveOptions::default()
    }
}

/// The committed file `rel` (under `instances/`), as nonogram-givens instances.
fn load(rel: &str) -> Vec<NonogramGivens> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances")
        .join(rel);
    parse::parse_file(&path, &std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The givens of a run's answer (row-major `true`: shown).
fn givens_of(r: &RunResult) -> Vec<bool> {
    let lines: Vec<String> =
        serde_json::from_value(r.answer.as_ref().unwrap().json["givens"].clone()).unwrap();
    lines
        .iter()
        .flat_map(|l| l.chars().map(|c| c != '?').collect::<Vec<_>>())
        .collect()
}

/// Brute force for a tiny picture: the sets of cells where each other grid with the
/// picture's clues differs from it (every grid enumerated), then the size of the
/// smallest set of cells meeting all of them and how many sets of that size do.
fn brute_force(p: &NonogramGivens) -> (usize, u64) {
    let (h, w) = (p.height(), p.width());
    let cells = h * w;
    let clues = Nonogram::from_picture(&p.picture);
    let mut others: Vec<u32> = Vec::new();
    let target: u32 = (0..cells).filter(|&k| p.black(k)).map(|k| 1 << k).sum();
    for code in 0u32..(1 << cells) {
        if code == target {
            continue;
        }
        let g: Vec<Vec<bool>> = (0..h)
            .map(|i| (0..w).map(|j| code >> (i * w + j) & 1 == 1).collect())
            .collect();
        if nonogram::verify::check(&clues, &g).is_ok() {
            others.push(code ^ target);
        }
    }
    for k in 0..=cells {
        let hits = (0u32..(1 << cells))
            .filter(|m| m.count_ones() as usize == k)
            .filter(|m| others.iter().all(|d| d & m != 0))
            .count() as u64;
        if hits > 0 {
            return (k, hits);
        }
    }
    unreachable!("showing every cell makes the picture unique")
}

fn random_picture(rng: &mut Rng, h: usize, w: usize) -> Vec<Vec<bool>> {
    (0..h)
        .map(|_| (0..w).map(|_| rng.below(2) == 1).collect())
        .collect()
}

#[test]
fn tiny_pictures_agree_with_the_brute_force_on_every_engine() {
    let mut rng = Rng::new(42);
    let mut needing = [0usize; 6];
    for round in 0..40 {
        let (h, w) = [(3, 3), (3, 4), (4, 4), (4, 3), (2, 5)][round % 5];
        let p =
            NonogramGivens::of_picture(&format!("tiny{round}"), &random_picture(&mut rng, h, w));
        let (min, sets) = brute_force(&p);
        needing[min.min(5)] += 1;
        let mut engines = in_process_engines_for(Kind::RowGeneration);
        engines.push(HITSET);
        for f in ["rowgen", "rowgen-plain"] {
            for &e in &engines {
                let r = PUZZLE.solve(&p, f, e, &opts(30.0, 1)).unwrap();
                let what = format!(
                    "round {round} {f} on {e}: {:?} {:?}",
                    r.outcome.status, r.outcome.message
                );
                assert_eq!(r.outcome.status, Status::Optimal, "{what}");
                assert_eq!(r.outcome.objective, Some(min as f64), "{what}");
                assert_eq!(fewest_clues_count(&givens_of(&r)), min, "{what}");
                // The verifier counted one solution and tried every smaller set.
                assert_eq!(r.verified(), Some(true), "{what}: {:?}", r.answer);
            }
        }
        if round % 4 == 0 && min > 0 {
            for e in [SAT, HIGHS] {
                let r = PUZZLE.solve(&p, "rowgen", e, &opts(30.0, 10_000)).unwrap();
                assert_eq!(r.outcome.status, Status::Optimal, "round {round} on {e}");
                assert_eq!(r.outcome.solutions, Some(sets), "round {round} on {e}");
            }
        }
    }
    // Pictures unique without givens and pictures that need some, up to several.
    assert!(
        needing[0] > 0 && needing[1] > 0 && needing[2..].iter().sum::<usize>() > 0,
        "{needing:?}"
    );
}

fn fewest_clues_count(g: &[bool]) -> usize {
    g.iter().filter(|&&b| b).count()
}

#[test]
fn the_committed_pictures_with_several_solutions_are_proved_alike() {
    // (file, the minimum as docs/puzzles/nonogram-givens.md reports it)
    for (file, fewest) in [
        ("nonogram/made/smiley_squares_20x20.non", 4.0),
        ("nonogram/large/random_50x50_s2.non", 2.0),
        ("nonogram/large/random_50x50_s1.non", 5.0),
    ] {
        let p = &load(file)[0];
        let mut configurations = vec![("rowgen", HITSET), ("rowgen-plain", HITSET)];
        if p.cells() <= 400 {
            configurations.extend([("rowgen", SAT), ("rowgen-plain", HIGHS)]);
        }
        for (f, e) in configurations {
            let r = PUZZLE.solve(p, f, e, &opts(300.0, 1)).unwrap();
            let what = format!("{file} {f} on {e}: {:?}", r.outcome.message);
            assert_eq!(r.outcome.status, Status::Optimal, "{what}");
            assert_eq!(r.outcome.objective, Some(fewest), "{what}");
            assert_eq!(r.verified(), Some(true), "{what}: {:?}", r.answer);
        }
    }
}

#[test]
fn the_verifier_refuses_what_is_not_a_unique_minimum() {
    // Two isolated black cells on a diagonal: the other diagonal has the same clues.
    let p = NonogramGivens::of_picture("diag", &[vec![true, false], vec![false, true]]);
    let verdict = |lines: &[&str], minimal: bool| {
        let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        puzzlebench::puzzles::nonogram_givens::verify::check(&p, &lines, minimal)
    };
    assert_eq!(verdict(&["#?", "??"], true), Ok(()));
    assert_eq!(verdict(&["?.", "??"], true), Ok(()));
    assert!(verdict(&["??", "??"], false)
        .unwrap_err()
        .contains("more than one solution"));
    assert!(verdict(&[".?", "??"], false)
        .unwrap_err()
        .contains("the picture has it black"));
    assert!(verdict(&["#.", "??"], true)
        .unwrap_err()
        .contains("claimed minimum 2"));
    assert!(verdict(&["#.", "??"], false).is_ok());
    assert!(verdict(&["#?"], false)
        .unwrap_err()
        .contains("1 rows, expected 2"));
    // The answer of the puzzle's own path carries the verdict.
    assert_eq!(
        answer(&p, &[true, false, false, false], true).verdict,
        Ok(())
    );
}

#[test]
fn the_greedy_answer_is_unique_and_never_below_the_minimum() {
    let mut rng = Rng::new(7);
    for round in 0..20 {
        let p = NonogramGivens::of_picture(&format!("g{round}"), &random_picture(&mut rng, 4, 4));
        let (min, _) = brute_force(&p);
        let mut f = p.follower(&Budget::unlimited());
        let g = greedy(&p, &mut f).unwrap();
        assert!(!g.capped);
        assert!(fewest_clues_count(&g.givens) >= min, "round {round}");
        assert_eq!(
            answer(&p, &g.givens, false).verdict,
            Ok(()),
            "round {round}"
        );
    }
    let p = &load("nonogram/made/smiley_squares_20x20.non")[0];
    let mut f = p.follower(&Budget::unlimited());
    let g = greedy(p, &mut f).unwrap();
    // 90 solutions in all (docs/puzzles/nonogram.md): 89 others.
    assert_eq!((g.solutions, g.capped), (89, false));
    assert_eq!(answer(p, &g.givens, false).verdict, Ok(()));
    assert!(fewest_clues_count(&g.givens) >= 4);
}

#[test]
fn generate_with_givens_makes_every_method_a_unique_puzzle_in_both_formats() {
    let image = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nonogram/smiley.png");
    for (method, givens) in [
        ("squares", "min"),
        ("random", "min"),
        ("threshold", "min"),
        ("squares", "greedy"),
    ] {
        for format in ["non", "text"] {
            let mut c = pb();
            c.args([
                "generate", "nonogram", "--size", "20x20", "--method", method, "--seed", "3",
            ])
            .args(["--givens", givens, "--format", format]);
            if method != "random" {
                c.arg("--image").arg(&image);
            }
            let o = c.output().unwrap();
            let what = format!("{method} {givens} {format}");
            assert!(
                o.status.success(),
                "{what}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let text = String::from_utf8_lossy(&o.stdout).to_string();
            assert!(
                text.contains("# unique: the only solution is the picture"),
                "{what}: {text}"
            );
            let note = text
                .lines()
                .find(|l| l.starts_with("# givens: "))
                .expect("a givens line");
            if givens == "min" {
                assert!(note.contains("the fewest (proved"), "{what}: {note}");
            }
            let name = if format == "non" { "g.non" } else { "g.txt" };
            let ps = nonogram_parse::parse_file(Path::new(name), &text).unwrap();
            let p = &ps[0];
            let goal = p.goal.clone().expect("the picture is the goal");
            // The puzzle with its givens has one solution, the picture (bosch on sat,
            // counting to 2), and the givens are the note's number.
            let r = puzzlebench::puzzles::Solve::solve(p, "bosch", SAT, &opts(60.0, 2)).unwrap();
            assert_eq!(r.outcome.solutions, Some(1), "{what}");
            assert_eq!(
                p.givens
                    .iter()
                    .flatten()
                    .filter(|g| g.is_some())
                    .count()
                    .to_string(),
                note["# givens: ".len()..]
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .unwrap(),
                "{what}"
            );
            // Read as nonogram-givens, the file's givens are the start, and unique.
            let q = &parse::parse_file(Path::new(name), &text).unwrap()[0];
            assert_eq!(q.picture, goal);
            if let Some(start) = &q.start {
                assert_eq!(answer(q, start, false).verdict, Ok(()), "{what}");
            }
        }
    }
    // The squares smiley has several solutions: the minimum shows some cells.
    let o = pb()
        .args([
            "generate", "nonogram", "--size", "20x20", "--method", "squares", "--givens", "min",
            "--image",
        ])
        .arg(&image)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("# givens: 4, the fewest"), "{text}");
    // Bad values are refused, naming the option.
    let o = pb()
        .args([
            "generate", "nonogram", "--size", "5x5", "--method", "random", "--givens", "all",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--givens all"));
}

#[test]
fn an_instance_names_itself_and_draws_its_givens() {
    let p = &load("nonogram/made/smiley_squares_20x20.non")[0];
    assert_eq!(p.size_label(), "20x20");
    let r = PUZZLE.solve(p, "rowgen", HITSET, &opts(60.0, 1)).unwrap();
    let svg = p.svg(r.answer.as_ref()).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("smiley_squares_20x20"),
        "{svg}"
    );
}

#[test]
fn bad_files_name_file_and_line() {
    assert_bad_files(
        "nonogram-givens",
        &[
            (
                "nogoal.txt",
                "4x4:2/1/2/1/1.1/2/1/1\n",
                "gives no intended picture",
            ),
            (
                "clash.non",
                "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal \"1001\"\ngivens \"0???\"\n",
                ":10: the givens show cell (1,1) white, the goal has it black",
            ),
        ],
    );
}
