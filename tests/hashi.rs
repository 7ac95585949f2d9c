//! Hashi end to end through the library: every formulation on the committed instances,
//! brute force on tiny boards (feasible and infeasible), the human-deduced fixings against
//! the unique solutions of the committed boards, the verifier against corrupted answers, the
//! time limit of the row-generation loop, and bad input.

use puzzlebench::engines::{cbc::CBC, highs::HIGHS, microlp::MICROLP, SolveOptions, Status};
use puzzlebench::puzzles::hashi::{self, base, generate, hdc, parse, verify, Hashi};
use puzzlebench::puzzles::{self, Solve};
use puzzlebench::rng::Rng;
use std::path::{Path, PathBuf};

mod common;

const FORMULATIONS: [&str; 4] = ["base", "hdc", "cuts", "cuts-hdc"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load_file(path: &Path) -> Vec<Hashi> {
    let text = std::fs::read_to_string(path).unwrap();
    parse::parse_file(path, &text).unwrap()
}

/// Every board in the instance folders `dirs` (relative to instances/hashi), with its file.
fn boards(dirs: &[&str]) -> Vec<(PathBuf, Hashi)> {
    let mut out = Vec::new();
    for d in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("instances/hashi").join(d))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e != "md"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "instances/hashi/{d} is empty");
        for f in files {
            for h in load_file(&f) {
                out.push((f.clone(), h));
            }
        }
    }
    out
}

fn bridges_of(r: &puzzles::RunResult) -> Vec<[usize; 5]> {
    serde_json::from_value(r.answer.as_ref().unwrap().json["bridges"].clone()).unwrap()
}

fn opts(presolve: bool) -> SolveOptions {
    SolveOptions {
        time_limit: Some(300.0),
        presolve,
        lp_relaxation: false,
        ..SolveOptions::default()
    }
}

#[test]
fn all_formulations_agree_on_the_committed_instances() {
    let mut solved = 0;
    for (_, h) in boards(&["report_range", "tatham"]) {
        let mut answers = Vec::new();
        for f in FORMULATIONS {
            for presolve in [true, false] {
                let r = h.solve(f, HIGHS, &opts(presolve)).unwrap();
                assert_eq!(
                    r.outcome.status,
                    Status::Optimal,
                    "{} {f} presolve {presolve}: {:?}",
                    h.name,
                    r.outcome
                );
                assert_eq!(r.verified(), Some(true), "{} {f}: {:?}", h.name, r.answer);
                let mut b = bridges_of(&r);
                b.sort();
                answers.push(b);
                solved += 1;
            }
        }
        // Every board of these folders has one solution (checked below), so all agree.
        assert!(
            answers.windows(2).all(|w| w[0] == w[1]),
            "{}: formulations found different answers",
            h.name
        );
    }
    assert!(solved >= 200, "only {solved} solves");
}

#[test]
fn other_backends_solve_the_small_instances() {
    let mut solved = 0;
    for (_, h) in boards(&["report_range"]) {
        for b in [CBC, MICROLP] {
            // microlp has no presolve or cutting planes: boards up to 15x15 only.
            if b == MICROLP && h.k() > 35 {
                continue;
            }
            for f in FORMULATIONS {
                let r = h.solve(f, b, &opts(true)).unwrap();
                assert_eq!(r.outcome.status, Status::Optimal, "{} {f} {b}", h.name);
                assert_eq!(r.verified(), Some(true), "{} {f} {b}", h.name);
                solved += 1;
            }
        }
    }
    assert!(solved >= 100, "only {solved} solves");
}

/// Every assignment of 0..=M bridges to the possible pairs that the verifier accepts.
fn brute_force(h: &Hashi) -> Vec<Vec<[usize; 5]>> {
    let pairs = h.pairs();
    let mut counts = vec![0usize; pairs.len()];
    let mut found = Vec::new();
    fn go(
        h: &Hashi,
        pairs: &[hashi::Pair],
        q: usize,
        counts: &mut Vec<usize>,
        found: &mut Vec<Vec<[usize; 5]>>,
    ) {
        if q == pairs.len() {
            let b: Vec<[usize; 5]> = pairs
                .iter()
                .zip(counts.iter())
                .filter(|(_, &n)| n > 0)
                .map(|(p, &n)| {
                    let (a, b) = (h.islands[p.a], h.islands[p.b]);
                    [a.row, a.col, b.row, b.col, n]
                })
                .collect();
            if verify::check(h, &b).is_ok() {
                found.push(b);
            }
            return;
        }
        for n in 0..=h.max_bridges as usize {
            counts[q] = n;
            go(h, pairs, q + 1, counts, found);
        }
        counts[q] = 0;
    }
    go(h, &pairs, 0, &mut counts, &mut found);
    found
}

/// Tiny boards: half grown by the generator (feasible), half with random labels (mostly
/// infeasible), some with a label changed (often infeasible), for M = 1, 2, 3.
fn tiny_boards() -> Vec<Hashi> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    for seed in 0..120u64 {
        let m = 1 + (seed % 3) as u32;
        let rows = 3 + rng.below_mod(3);
        let cols = 3 + rng.below_mod(3);
        let islands = 3 + rng.below_mod(5);
        let (mut h, _) = generate::generate(&generate::Params {
            rows,
            cols,
            islands,
            max_bridges: m,
            extra: 0.3,
            seed,
        })
        .unwrap();
        if h.pairs().len() > 9 {
            continue;
        }
        match seed % 4 {
            0 | 1 => {}
            2 => {
                let i = rng.below_mod(h.islands.len());
                h.islands[i].label = 1 + rng.below_mod(4 * m as usize) as u32;
            }
            _ => {
                for i in &mut h.islands {
                    i.label = 1 + rng.below_mod(3) as u32;
                }
            }
        }
        h.name = format!("tiny{seed}");
        out.push(h);
    }
    // Hand-made corner cases: two 1s alone (the only case where (6.2) must not apply), a
    // lone island, two separate pairs (labels fine, never connected), a 2-2 double pair.
    for id in [
        "3x1:1a1",
        "1x1:1",
        "3x3:1a1c1a1",
        "3x1:2a2",
        "3x3:2a2c2a2",
        "2x2:1221",
    ] {
        let mut h = parse::parse_game_id(id).unwrap();
        h.name = id.into();
        out.push(h);
    }
    out
}

#[test]
fn brute_force_agrees_on_tiny_boards() {
    let (mut feasible, mut infeasible) = (0, 0);
    for h in tiny_boards() {
        let truth = brute_force(&h);
        for f in FORMULATIONS {
            for b in [HIGHS, CBC, MICROLP] {
                let r = h.solve(f, b, &opts(true)).unwrap();
                if truth.is_empty() {
                    assert_eq!(
                        r.outcome.status,
                        Status::Infeasible,
                        "{} {} {f} {b}: brute force finds no solution",
                        h.name,
                        h.to_game_id()
                    );
                } else {
                    assert_eq!(
                        r.outcome.status,
                        Status::Optimal,
                        "{} {} {f} {b}: brute force finds {}",
                        h.name,
                        h.to_game_id(),
                        truth.len()
                    );
                    assert_eq!(r.verified(), Some(true));
                    let mut got = bridges_of(&r);
                    got.sort();
                    assert!(
                        truth.iter().any(|t| {
                            let mut t = t.clone();
                            t.sort();
                            t == got
                        }),
                        "{} {f} {b}: answer not among the brute-force solutions",
                        h.name
                    );
                }
            }
        }
        if truth.is_empty() {
            infeasible += 1;
        } else {
            feasible += 1;
        }
    }
    assert!(
        feasible >= 20 && infeasible >= 20,
        "{feasible} feasible, {infeasible} infeasible tiny boards"
    );
}

/// The solution of `h` from `base`, and whether it is the only one (the same model with a
/// row excluding it is infeasible).
fn solve_and_check_unique(h: &Hashi) -> (Vec<u32>, bool) {
    let (mut m, d) = base::build(h);
    let o = HIGHS.solve_model(&m, &opts(true));
    assert_eq!(o.status, Status::Optimal, "{}", h.name);
    let counts = d.decode(o.values.as_ref().unwrap());
    let chosen: Vec<_> = counts
        .iter()
        .enumerate()
        .map(|(q, &n)| (d.x[q][n as usize], 1.0))
        .collect();
    let len = chosen.len() as f64;
    m.add_le("exclude", chosen, len - 1.0);
    let again = HIGHS.solve_model(&m, &opts(true));
    (counts, again.status == Status::Infeasible)
}

#[test]
fn hdc_fixings_never_cut_off_the_unique_solution_of_the_committed_boards() {
    let mut checked = 0;
    let mut fixings = 0;
    // Tatham's boards, and the three generated 5x5 boards picked for having one solution.
    for (_, h) in boards(&["report_range", "tatham"]) {
        let (sol, unique) = solve_and_check_unique(&h);
        assert!(unique, "{}: the board has a second solution", h.name);
        for f in hdc::deductions(&h) {
            let n = sol[f.pair] as usize;
            let holds = if f.value { n == f.n } else { n != f.n };
            assert!(
                holds,
                "{}: ({}) fixes x^{} of pair {:?} to {}, the solution has {n} bridges",
                h.name,
                f.rule,
                f.n,
                h.pairs()[f.pair],
                f.value as u8
            );
            fixings += 1;
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} boards");
    assert!(fixings >= 200, "only {fixings} fixings checked");
}

#[test]
fn hdc_rules_on_hand_made_boards() {
    // 4 . 2      the 4 has two neighbours: (6.7) doubles to both; each 2 has one
    // . . .      neighbour: (6.4) doubles to it.
    // 2 . .
    let h = parse::parse_game_id("3x3:4a2c2b").unwrap();
    let rules: Vec<&str> = hdc::deductions(&h).iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["6.7", "6.7", "6.4", "6.4"]);
    // (6.5) by its text: a 2 between a 1 and a 3 needs a bridge to the 3, and a 2 between
    // two 1s needs one to each (the printed formula would skip the latter).
    let h = parse::parse_game_id("3x1:123").unwrap();
    let f = hdc::deductions(&h);
    assert!(f
        .iter()
        .any(|f| f.rule == "6.5" && f.n == 0 && !f.value && h.pairs()[f.pair].b == 2));
    let h = parse::parse_game_id("3x1:121").unwrap();
    assert_eq!(
        hdc::deductions(&h)
            .iter()
            .filter(|f| f.rule == "6.5")
            .count(),
        2
    );
    // (6.2) is not applied when the two 1s are the only islands.
    let h = parse::parse_game_id("2x1:11").unwrap();
    assert!(hdc::deductions(&h).iter().all(|f| f.rule != "6.2"));
    // No rules for M = 3.
    let h = parse::parse_game_id("3x1m3:4a4").unwrap();
    assert!(hdc::deductions(&h).is_empty());
    // Duplicates are counted once: (6.4) from each 2 and (6.7) from the 4 fix the same
    // two variables.
    let (_, _, n) = hdc::build(&parse::parse_game_id("3x1:242").unwrap());
    assert_eq!(n, 2);
}

#[test]
fn verifier_rejects_every_single_change() {
    let mut checked = 0;
    for (_, h) in boards(&["report_range"]).into_iter().take(8) {
        let r = h.solve("hdc", HIGHS, &opts(true)).unwrap();
        let good = bridges_of(&r);
        assert_eq!(verify::check(&h, &good), Ok(()));
        let pairs = h.pairs();
        let at = |i: usize| (h.islands[i].row, h.islands[i].col);
        // Change one count, drop one bridge, or add one where there was none.
        for i in 0..good.len() {
            let mut without = good.clone();
            without.remove(i);
            assert!(
                verify::check(&h, &without).is_err(),
                "{}: dropped {i}",
                h.name
            );
            for n in 0..=h.max_bridges as usize + 1 {
                if n == good[i][4] {
                    continue;
                }
                let mut g = good.clone();
                g[i][4] = n;
                assert!(
                    verify::check(&h, &g).is_err(),
                    "{}: count {n} at {i}",
                    h.name
                );
                checked += 1;
            }
        }
        for p in &pairs {
            let ((r1, c1), (r2, c2)) = (at(p.a), at(p.b));
            if good
                .iter()
                .any(|b| (b[0], b[1], b[2], b[3]) == (r1, c1, r2, c2))
            {
                continue;
            }
            for n in 1..=h.max_bridges as usize {
                let mut g = good.clone();
                g.push([r1, c1, r2, c2, n]);
                assert!(verify::check(&h, &g).is_err(), "{}: added {p:?}", h.name);
                checked += 1;
            }
        }
        // Move an end to a water cell or to an island further along.
        let mut g = good.clone();
        g[0][2] += 100;
        assert!(verify::check(&h, &g).is_err());
        // List a bridge twice as two halves.
        let mut g = good.clone();
        let mut half = g[0];
        if half[4] == 2 {
            g[0][4] = 1;
            half[4] = 1;
            g.push(half);
            assert!(verify::check(&h, &g).is_err());
        }
    }
    assert!(checked > 100);
}

#[test]
fn verifier_refuses_crossings_even_when_labels_and_connection_hold() {
    // . 1 .      the two bridges cross; each island has one bridge, but the board of
    // 1 . 1      four 1s cannot be connected, so the crossing answer is the only one
    // . 1 .      meeting labels, and it is refused.
    let h = parse::parse_game_id("3x3:a1a1a1a1a").unwrap();
    let e = verify::check(&h, &[[0, 1, 2, 1, 1], [1, 0, 1, 2, 1]]).unwrap_err();
    assert!(e.contains("crosses"), "{e}");
    for f in FORMULATIONS {
        let r = h.solve(f, HIGHS, &opts(true)).unwrap();
        assert_eq!(r.outcome.status, Status::Infeasible, "{f}");
    }
}

#[test]
fn the_cuts_loop_counts_rounds_and_honours_the_time_limit() {
    let h = load_file(&root().join("instances/hashi/tatham/t_20x20.txt")).remove(0);
    let r = h.solve("cuts", HIGHS, &opts(true)).unwrap();
    assert_eq!(r.outcome.status, Status::Optimal);
    let (rounds, cuts) = (r.outcome.rounds.unwrap(), r.outcome.cuts.unwrap());
    assert!(
        rounds >= 1 && (rounds == 1) == (cuts == 0),
        "{rounds} {cuts}"
    );
    assert_eq!(
        r.counts.constraints,
        h.build("cuts").unwrap().rows.len() + cuts as usize
    );
    // A limit too short for anything: recorded as time_limit, never as a solution.
    let tiny = SolveOptions {
        time_limit: Some(1e-9),
        ..opts(true)
    };
    for f in ["cuts", "cuts-hdc"] {
        let r = h.solve(f, HIGHS, &tiny).unwrap();
        assert_eq!(r.outcome.status, Status::TimeLimit, "{f}: {:?}", r.outcome);
        assert!(r.answer.is_none() && r.outcome.objective.is_none());
    }
}

#[test]
fn fixings_are_recorded() {
    let h = load_file(&root().join("instances/hashi/tatham/t_20x20.txt")).remove(0);
    let base = h.solve("base", HIGHS, &opts(true)).unwrap();
    let hdc = h.solve("hdc", HIGHS, &opts(true)).unwrap();
    let cuts_hdc = h.solve("cuts-hdc", HIGHS, &opts(true)).unwrap();
    assert_eq!(base.fixings, None);
    assert!(hdc.fixings.unwrap() > 0);
    assert_eq!(hdc.fixings, cuts_hdc.fixings);
    assert_eq!(hdc.counts, base.counts, "fixings are bounds, not rows");
}

#[test]
fn has_and_game_id_give_the_same_board() {
    let has = load_file(&root().join("tests/data/hashi/small.has")).remove(0);
    let id = parse::parse_game_id(&has.to_game_id()).unwrap();
    assert_eq!(has.islands, id.islands);
    assert_eq!((has.rows, has.cols, has.max_bridges), (id.rows, id.cols, 2));
    let r = has.solve("base", HIGHS, &opts(true)).unwrap();
    assert_eq!(r.verified(), Some(true));
}

#[test]
fn bad_input_names_file_and_line() {
    let cases = [
        (
            "bad_cells.txt",
            3,
            "the description has 20 cells, a 5x5 grid needs 25",
        ),
        ("bad_flag.txt", 2, "loops forbidden"),
        (
            "bad_count.has",
            1,
            "the header says 5 islands, the grid has 4",
        ),
        ("bad_row.has", 4, "row 3 has 3 cells, the header says 4"),
    ];
    for (file, line, msg) in cases {
        let path = root().join("tests/data/hashi").join(file);
        let e = puzzles::puzzle("hashi")
            .unwrap()
            .load(&path)
            .err()
            .unwrap_or_else(|| panic!("{file} loaded"));
        assert_eq!(e.line, line, "{file}: {e}");
        assert!(e.to_string().contains(msg), "{file}: {e}");
        assert!(e.to_string().starts_with(&path.display().to_string()));
    }
}

#[test]
fn generate_command_prints_boards_that_load() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args([
            "generate",
            "hashi",
            "--rows",
            "12",
            "--islands",
            "40",
            "--seed",
            "5",
            "--count",
            "3",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let boards = parse::parse_file(Path::new("gen.txt"), &text).unwrap();
    assert_eq!(boards.len(), 3);
    for h in boards {
        let r = h.solve("cuts", HIGHS, &opts(true)).unwrap();
        assert_eq!(r.verified(), Some(true));
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args(["generate", "sudoku", "--rows", "3", "--islands", "3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn tables_match_their_snapshots() {
    // Rows of a real sweep (three boards, all formulations, presolve on and off); set
    // UPDATE_SNAPSHOTS=1 to rewrite the snapshots after an intended change.
    let dir = root().join("tests/data/hashi/report");
    let rows = puzzlebench::record::read_results(&dir.join("results.csv")).unwrap();
    let tables = hashi::tables::tables(&rows);
    let stems: Vec<&str> = tables.iter().map(|t| t.stem.as_str()).collect();
    assert_eq!(stems, ["hashi_table_a_4", "hashi_formulations"]);
    // One row per report board, ours beside the one it faces (two of ours ran here).
    let a4 = &tables[0];
    assert_eq!(a4.rows.len(), hashi::tables::REPORT_TABLE_A_4.len());
    let row = |board: &str| a4.rows.iter().find(|r| r[1] == board).unwrap();
    assert_eq!(row("a4_30x30")[3], "127 / 129");
    assert_eq!(row("a4_05x05:3")[3], "7 / 7");
    common::assert_snapshots(&tables, &dir.join("expected"));
}
