//! Minimum-clue Sudoku end to end: every 4×4 grid needs 4 clues on every engine that runs
//! the leader fast (and the verifier checks each minimum by trying every 3-clue set); the
//! minimum puzzles counted against a brute force; a 6×6 grid's minimum against a brute
//! force over every smaller clue set; the committed small grids on every in-process engine,
//! both formulations agreeing with the file's minimum; the report's Figure 8.1 grid at a
//! 40 s limit (a verified clue set, a bound no higher than 17); 16×16 clue sets checked by
//! the verifier; bad files name file and line.

mod common;
use common::{assert_bad_files, instance_files};
use puzzlebench::engines::{
    highs::HIGHS, hitset::HITSET, in_process_engines_for, sat::SAT, Kind, SolveOptions, Status,
};
use puzzlebench::puzzles::minclue::verify::{check, Counter};
use puzzlebench::puzzles::minclue::{parse, MinClue, PUZZLE};
use puzzlebench::puzzles::sudoku::parse::value_char;
use puzzlebench::puzzles::Solve;
use std::path::Path;

fn opts(limit: f64, count: u32) -> SolveOptions {
    SolveOptions {
        time_limit: Some(limit),
        count,
        lp_relaxation: false,
        ..SolveOptions::default()
    }
}

fn grid(line: &str) -> MinClue {
    parse::parse_line(line).unwrap().0
}

/// Every complete 4×4 grid, by backtracking.
fn all_4x4_grids() -> Vec<String> {
    fn go(cells: &mut Vec<u32>, out: &mut Vec<String>) {
        let k = cells.len();
        if k == 16 {
            out.push(cells.iter().map(|v| v.to_string()).collect());
            return;
        }
        let (i, j) = (k / 4, k % 4);
        for v in 1..=4 {
            let clash = (0..k).any(|m| {
                let (a, b) = (m / 4, m % 4);
                cells[m] == v && (a == i || b == j || (a / 2 == i / 2 && b / 2 == j / 2))
            });
            if !clash {
                cells.push(v);
                go(cells, out);
                cells.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), &mut out);
    out
}

/// The sets of `k` cells whose clues make `p`'s grid unique, by trying every one.
fn unique_sets(p: &MinClue, k: usize, stop_at_first: bool) -> usize {
    let counter = Counter::new(p);
    let cells = p.n() * p.n();
    let mut found = 0;
    let mut clues = vec![false; cells];
    fn walk(
        c: &Counter,
        clues: &mut Vec<bool>,
        from: usize,
        left: usize,
        found: &mut usize,
        stop: bool,
    ) {
        if stop && *found > 0 {
            return;
        }
        if left == 0 {
            if c.completions(clues, 2).len() == 1 {
                *found += 1;
            }
            return;
        }
        for j in from..=clues.len() - left {
            clues[j] = true;
            walk(c, clues, j + 1, left - 1, found, stop);
            clues[j] = false;
        }
    }
    walk(&counter, &mut clues, 0, k, &mut found, stop_at_first);
    found
}

#[test]
fn every_4x4_grid_needs_four_clues_on_hitset_and_sat() {
    let grids = all_4x4_grids();
    assert_eq!(grids.len(), 288);
    for (i, g) in grids.iter().enumerate() {
        let p = grid(g);
        let mut engines = vec![HITSET, SAT];
        if i % 24 == 0 {
            engines.push(HIGHS);
        }
        for e in engines {
            let r = PUZZLE.solve(&p, "rowgen", e, &opts(60.0, 1)).unwrap();
            let what = format!("{g} on {e}: {:?}", r.outcome.message);
            assert_eq!(r.outcome.status, Status::Optimal, "{what}");
            assert_eq!(r.outcome.objective, Some(4.0), "{what}");
            // The verifier tried every 3-clue set for the claimed minimum.
            assert_eq!(r.verified(), Some(true), "{what}: {:?}", r.answer);
        }
    }
}

#[test]
fn minimum_puzzles_counted_as_brute_force_counts_them() {
    for g in ["3124421324311342", "1243341221344321", "1234341221434321"] {
        let p = grid(g);
        let want = unique_sets(&p, 4, false) as u64;
        assert!(want >= 1);
        for e in [HIGHS, SAT] {
            let r = PUZZLE.solve(&p, "rowgen", e, &opts(60.0, 1000)).unwrap();
            assert_eq!(r.outcome.status, Status::Optimal, "{g} on {e}");
            assert_eq!(r.outcome.solutions, Some(want), "{g} on {e}");
            assert_eq!(r.verified(), Some(true));
        }
    }
}

#[test]
fn a_6x6_grid_has_no_unique_puzzle_below_the_minimum_found() {
    let file = &instance_files("minclue/small")[2];
    let p = parse::parse_file(file, &std::fs::read_to_string(file).unwrap())
        .unwrap()
        .remove(0);
    assert_eq!(p.name, "grid6_a");
    let r = PUZZLE.solve(&p, "rowgen", HITSET, &opts(60.0, 1)).unwrap();
    assert_eq!(r.outcome.status, Status::Optimal);
    let k = r.outcome.objective.unwrap() as usize;
    assert_eq!(Some(k), p.known);
    assert_eq!(
        unique_sets(&p, k - 1, true),
        0,
        "a unique puzzle with {} clues",
        k - 1
    );
    assert!(unique_sets(&p, k, true) > 0);
}

#[test]
fn the_small_grids_agree_on_every_in_process_engine_and_formulation() {
    let mut runs = 0;
    for file in instance_files("minclue/small") {
        let text = std::fs::read_to_string(&file).unwrap();
        let p = parse::parse_file(&file, &text).unwrap().remove(0);
        let mut engines = in_process_engines_for(Kind::RowGeneration);
        engines.push(HITSET);
        // Minimising the clue count is slow on the engines of native rows: `cadical-lin`
        // and `pumpkin` did not finish grid6_a in 30 s where `sat` takes 0.1-0.7 s
        // (issue 57's note); the sweeps measure them with a time limit.
        engines.retain(|e| !matches!(e.key(), "cadical-lin" | "pumpkin"));
        for e in engines {
            for f in ["rowgen", "rowgen-plain"] {
                let r = PUZZLE.solve(&p, f, e, &opts(120.0, 1)).unwrap();
                let what = format!("{} {f} on {e}: {:?}", p.name, r.outcome.message);
                assert_eq!(r.outcome.status, Status::Optimal, "{what}");
                assert_eq!(r.outcome.objective.map(|v| v as usize), p.known, "{what}");
                assert_eq!(r.verified(), Some(true), "{what}");
                runs += 1;
            }
        }
    }
    assert!(runs >= 40, "{runs}");
}

#[test]
fn figure_8_1_gives_a_verified_clue_set_and_a_true_bound_at_a_short_limit() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/minclue/report_fig8_1.txt");
    let p = parse::parse_file(&file, &std::fs::read_to_string(&file).unwrap())
        .unwrap()
        .remove(0);
    assert_eq!(p.known, Some(17));
    let r = p.solve("rowgen", HITSET, &opts(40.0, 1)).unwrap();
    let o = &r.outcome;
    assert!(
        matches!(o.status, Status::Optimal | Status::TimeLimit),
        "{o:?}"
    );
    assert_eq!(r.verified(), Some(true), "{:?}", r.answer);
    // The bound must be true (at most the known 17) and the clue set at least as large;
    // how high the bound climbs within the limit depends on the machine's speed (on a
    // loaded 2-core machine it stayed at 0 within 40 s once, 8 or more unloaded), so its
    // height is measured in the docs' sweeps, not asserted here.
    let (found, bound) = (o.objective.unwrap(), o.best_bound.unwrap());
    assert!(
        (0.0..=17.0).contains(&bound) && found >= 17.0,
        "{found} {bound}"
    );
    if o.status == Status::Optimal {
        assert_eq!((found, bound), (17.0, 17.0));
    }
    assert!(o.separator_seconds.is_some() && o.cuts.is_some() && o.rounds.is_some());
}

#[test]
fn bad_files_name_file_and_line() {
    let fig = "876912534954387612213645789738456291561829347429731865642178953395264178187593426";
    let not_unique = format!("{fig} start=8{}", ".".repeat(80));
    assert_bad_files(
        "minclue",
        &[
            ("blank.txt", &fig.replacen('8', ".", 1), "is blank"),
            (
                "clash.txt",
                &fig.replacen('8', "7", 1),
                "not a valid Sudoku grid",
            ),
            (
                "field.txt",
                &format!("# c\n{fig} mni=17\n"),
                ":2: unknown field 'mni'",
            ),
            ("short.txt", "12345", "not a square"),
            (
                "start.txt",
                &not_unique,
                "start: the puzzle has more than one completion",
            ),
        ],
    );
}

#[test]
fn sixteen_by_sixteen_clue_sets_are_checked_within_the_run() {
    // The grid is the solution of Tatham's 16×16 puzzle (the first of
    // instances/sudoku/solo_4x4_basic.txt). The verifier accepts that puzzle, and a
    // 93-clue set the follower's first round once made (0.02 s; plain smallest-domain
    // backtracking took 103 s); it refuses every clue but the four of a rectangle a b / b a
    // in one band (two completions).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let sudoku_file = dir.join("sudoku/solo_4x4_basic.txt");
    let s = puzzlebench::puzzles::sudoku::parse::parse_file(
        &sudoku_file,
        &std::fs::read_to_string(&sudoku_file).unwrap(),
    )
    .unwrap()
    .remove(0);
    let grid_file = dir.join("minclue/sixteen/solo_4x4_a.txt");
    let p = parse::parse_file(&grid_file, &std::fs::read_to_string(&grid_file).unwrap())
        .unwrap()
        .remove(0);
    // The answer's lines of the values `value(i, j)` (0: no clue).
    let lines = |value: &dyn Fn(usize, usize) -> u32| -> Vec<String> {
        (0..16)
            .map(|i| (0..16).map(|j| value_char(value(i, j))).collect())
            .collect()
    };
    let tatham = lines(&|i, j| s.givens[i][j]);
    check(&p, &tatham, false).unwrap();
    let follower: Vec<String> = [
        "......C.8.F.....",
        ".........4..97..",
        ".E..A4..7...D.F2",
        "..2...FE.D53..68",
        "3...7...9F..8...",
        "...1..B.3..A.647",
        ".GE..D..C68.F3..",
        "...A.628.7.....B",
        "8.5..7.......A3C",
        "..F.2...1.......",
        "B.9G.A..........",
        ".4.6C.1..5...G.F",
        "2...4...G.9DB1..",
        "....6.85.B2.79..",
        ".6G........5...3",
        "974....BA.1.CD..",
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    check(&p, &follower, false).unwrap();
    // A rectangle a b / b a: rows in one band, columns in two stacks.
    let g = &p.grid;
    let rectangle = (0..16)
        .flat_map(|r1| (r1 + 1..(r1 / 4 + 1) * 4).map(move |r2| (r1, r2)))
        .flat_map(|(r1, r2)| {
            (0..16).flat_map(move |c1| ((c1 / 4 + 1) * 4..16).map(move |c2| (r1, r2, c1, c2)))
        })
        .find(|&(r1, r2, c1, c2)| g[r1][c1] == g[r2][c2] && g[r1][c2] == g[r2][c1])
        .expect("the grid has a rectangle");
    let (r1, r2, c1, c2) = rectangle;
    let corner = |i: usize, j: usize| (i == r1 || i == r2) && (j == c1 || j == c2);
    let open = lines(&|i, j| if corner(i, j) { 0 } else { g[i][j] });
    let e = check(&p, &open, false).unwrap_err();
    assert!(e.contains("more than one completion"), "{e}");
}
