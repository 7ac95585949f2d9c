//! Battleship end to end through the library: the formulations on every backend over the
//! committed instances, agreement with a brute force on tiny grids (solution counts and
//! infeasible sums), the verifier, the generator and the parser's errors.

use puzzlebench::engines::{
    highs::HIGHS, in_process_engines_for, Engine, Kind, SolveOptions, Status,
};
use puzzlebench::model::Model;
use puzzlebench::puzzles::battleship::{cbm, gbm, generate, parse, verify, Battleship, Cell, Grid};
use puzzlebench::puzzles::{self, Solve};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn parse_text(text: &str) -> Result<Vec<Battleship>, String> {
    parse::parse_file(Path::new("t.txt"), text).map_err(|e| e.to_string())
}

fn load_dir(rel: &str) -> Vec<Battleship> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(rel))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{rel} has no instance files");
    files
        .iter()
        .flat_map(|f| parse::parse_file(f, &std::fs::read_to_string(f).unwrap()).unwrap())
        .collect()
}

fn grid_of(report: &puzzles::RunResult) -> Grid {
    let lines: Vec<String> =
        serde_json::from_value(report.answer.as_ref().unwrap().json["grid"].clone()).unwrap();
    lines
        .iter()
        .map(|l| l.chars().map(|c| Cell::from_symbol(c).unwrap()).collect())
        .collect()
}

/// The largest grid (in cells) each backend and formulation is asked to solve here; larger
/// cases are measured in sweeps, where a time limit is recorded as such. HiGHS and CBC
/// solve every report-size instance in well under a second. microlp (no presolve, no cuts)
/// solves the GBM up to 10x10 (at most 7 s) but runs into a 60 s limit on most CBMs from
/// 8x8 on, so it is given the 6x6 CBMs only.
fn largest_tested(b: Engine, f: &str) -> usize {
    match (b.key(), f) {
        ("highs", _) | ("cbc", _) => 225,
        ("microlp", "gbm") => 100,
        ("microlp", _) => 36,
        ("sat", _) => 225,
        // The constraint solver takes no integer programs.
        _ => 0,
    }
}

#[test]
fn both_formulations_find_the_recorded_solution_of_every_report_size_puzzle() {
    let opts = SolveOptions {
        time_limit: Some(120.0),
        ..SolveOptions::default()
    };
    let puzzles = load_dir("instances/battleship/table_4_2");
    assert!(
        puzzles.len() >= 24,
        "expected 3 easy and 3 hard puzzles per size"
    );
    let mut runs = 0;
    for p in &puzzles {
        let want = p
            .solution
            .as_ref()
            .expect("generated puzzles carry their solution");
        for f in ["gbm", "cbm"] {
            for b in in_process_engines_for(Kind::Mip) {
                if p.m() * p.n() > largest_tested(b, f) {
                    continue;
                }
                let r = p.solve(f, b, &opts).unwrap();
                assert_eq!(
                    r.outcome.status,
                    Status::Optimal,
                    "{} {f} {b}: {:?}",
                    p.name,
                    r.outcome.message
                );
                assert_eq!(r.verified(), Some(true), "{} {f} {b}", p.name);
                assert_eq!(&grid_of(&r), want, "{} {f} {b}: another solution", p.name);
                runs += 1;
            }
        }
    }
    assert!(runs >= 24 * 4, "only {runs} runs");
}

#[test]
fn the_gbm_solves_the_scaling_puzzles_and_finds_their_unique_solution() {
    let opts = SolveOptions {
        time_limit: Some(300.0),
        lp_relaxation: false,
        ..SolveOptions::default()
    };
    for p in load_dir("instances/battleship/scaling") {
        let r = p.solve("gbm", HIGHS, &opts).unwrap();
        assert_eq!(r.outcome.status, Status::Optimal, "{}", p.name);
        assert_eq!(Some(&grid_of(&r)), p.solution.as_ref(), "{}", p.name);
    }
}

// ---------------------------------------------------------------- brute force

/// Every solution of a tiny puzzle, by trying every set of ship cells with the right count
/// and asking the verifier about the grid those cells draw.
fn brute_force(p: &Battleship) -> Vec<Grid> {
    let (m, n) = (p.m(), p.n());
    let total: u32 = p.rows.iter().sum();
    let mut found = Vec::new();
    for mask in 0u64..(1 << (m * n)) {
        if mask.count_ones() != total {
            continue;
        }
        let ship = |i: usize, j: usize| mask >> (i * n + j) & 1 == 1;
        let mut grid = vec![vec![Cell::Water; n]; m];
        for (i, row) in grid.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                if !ship(i, j) {
                    continue;
                }
                let (l, r) = (j > 0 && ship(i, j - 1), j + 1 < n && ship(i, j + 1));
                let (u, d) = (i > 0 && ship(i - 1, j), i + 1 < m && ship(i + 1, j));
                *cell = match (l, r, u, d) {
                    (false, false, false, false) => Cell::Single,
                    (false, true, false, false) => Cell::Left,
                    (true, false, false, false) => Cell::Right,
                    (false, false, false, true) => Cell::Top,
                    (false, false, true, false) => Cell::Bottom,
                    _ => Cell::Middle,
                };
            }
        }
        if verify::check(p, &grid).is_ok() {
            found.push(grid);
        }
    }
    found
}

/// Every solution by the GBM on HiGHS: solve, exclude the placements found, solve again.
fn gbm_solutions(p: &Battleship, cap: usize) -> Vec<Grid> {
    let (mut model, decoder): (Model, gbm::Decoder) = gbm::build(p);
    let opts = SolveOptions {
        lp_relaxation: false,
        ..SolveOptions::default()
    };
    let mut out = Vec::new();
    while out.len() < cap {
        let o = HIGHS.solve_model(&model, &opts);
        if o.status == Status::Infeasible {
            break;
        }
        assert_eq!(o.status, Status::Optimal);
        let values = o.values.unwrap();
        let chosen: Vec<_> = decoder
            .placements
            .iter()
            .filter(|(_, y)| values[y.0] > 0.5)
            .map(|(_, y)| (*y, 1.0))
            .collect();
        let k = chosen.len() as f64;
        model.add_le("exclude", chosen, k - 1.0);
        out.push(decoder.decode(&values));
    }
    out
}

/// A small deterministic generator for the tests (no dependency on the crate's RNG).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A random tiny puzzle: a random grid with a random fleet (any straight ships that do
/// not touch), its sums, and some cells revealed; with `break_sums`, one ship part moved
/// to another row so that the puzzle is usually infeasible.
fn tiny(rng: &mut Lcg, m: usize, n: usize, break_sums: bool) -> Battleship {
    loop {
        let mut grid = vec![vec![Cell::Water; n]; m];
        let mut fleet = vec![0u32; m.max(n)];
        for _ in 0..(2 + rng.next(3)) {
            let len = 1 + rng.next(3);
            let vertical = len > 1 && rng.next(2) == 1;
            let (r, c) = (rng.next(m), rng.next(n));
            let cells: Vec<(usize, usize)> = (0..len)
                .map(|k| if vertical { (r + k, c) } else { (r, c + k) })
                .collect();
            let free = cells.iter().all(|&(a, b)| {
                a < m
                    && b < n
                    && (a.saturating_sub(1)..=(a + 1).min(m - 1)).all(|x| {
                        (b.saturating_sub(1)..=(b + 1).min(n - 1))
                            .all(|y| grid[x][y] == Cell::Water)
                    })
            });
            if !free {
                continue;
            }
            for (k, &(a, b)) in cells.iter().enumerate() {
                grid[a][b] = match (len, k, vertical) {
                    (1, _, _) => Cell::Single,
                    (_, 0, false) => Cell::Left,
                    (_, 0, true) => Cell::Top,
                    (l, k, false) if k == l - 1 => Cell::Right,
                    (l, k, true) if k == l - 1 => Cell::Bottom,
                    _ => Cell::Middle,
                };
            }
            fleet[len - 1] += 1;
        }
        if fleet.iter().all(|&s| s == 0) {
            continue;
        }
        while fleet.last() == Some(&0) {
            fleet.pop();
        }
        let mut rows: Vec<u32> = grid
            .iter()
            .map(|r| r.iter().filter(|c| c.is_ship()).count() as u32)
            .collect();
        let cols: Vec<u32> = (0..n)
            .map(|j| grid.iter().filter(|r| r[j].is_ship()).count() as u32)
            .collect();
        if break_sums {
            let from = rng.next(m);
            let to = rng.next(m);
            if rows[from] == 0 || from == to || rows[to] as usize == n {
                continue;
            }
            rows[from] -= 1;
            rows[to] += 1;
        }
        let givens = grid
            .iter()
            .map(|r| r.iter().map(|&c| (rng.next(6) == 0).then_some(c)).collect())
            .collect();
        return Battleship {
            name: "tiny".into(),
            level: None,
            fleet,
            rows,
            cols,
            givens,
            solution: None,
        };
    }
}

#[test]
fn both_formulations_agree_with_brute_force_on_tiny_grids() {
    let mut rng = Lcg(7);
    let opts = SolveOptions::default();
    let (mut feasible, mut infeasible, mut several) = (0, 0, 0);
    for case in 0..120 {
        let (m, n) = [(3, 3), (3, 4), (4, 4), (4, 5), (5, 4)][case % 5];
        let p = tiny(&mut rng, m, n, case % 3 == 2);
        let mut want = brute_force(&p);
        let mut got = gbm_solutions(&p, 1000);
        want.sort();
        got.sort();
        assert_eq!(
            got, want,
            "case {case}: GBM solutions differ from brute force for {p:?}"
        );
        for f in ["cbm", "gbm-cells"] {
            let r = p.solve(f, HIGHS, &opts).unwrap();
            let what = format!("case {case}: {f} for {p:?}");
            if want.is_empty() {
                assert_eq!(r.outcome.status, Status::Infeasible, "{what}");
            } else {
                assert_eq!(r.outcome.status, Status::Optimal, "{what}");
                assert!(want.contains(&grid_of(&r)), "{what}: not a solution");
            }
        }
        if want.is_empty() {
            infeasible += 1;
        } else {
            feasible += 1;
            several += (want.len() > 1) as usize;
        }
    }
    // The cases must cover all three outcomes, or the test proves little.
    assert!(
        feasible > 30 && infeasible > 10 && several >= 5,
        "{feasible} {infeasible} {several}"
    );
}

#[test]
fn both_formulations_on_sat_agree_with_brute_force_on_tiny_grids() {
    let mut rng = Lcg(17);
    let opts = SolveOptions::default();
    let (mut feasible, mut infeasible) = (0, 0);
    for case in 0..60 {
        let (m, n) = [(3, 3), (3, 4), (4, 4), (4, 5), (5, 4)][case % 5];
        let p = tiny(&mut rng, m, n, case % 3 == 2);
        let want = brute_force(&p);
        for f in ["gbm", "gbm-cells", "cbm"] {
            let r = p.solve(f, puzzlebench::engines::sat::SAT, &opts).unwrap();
            let what = format!("case {case}: {f} on sat for {p:?}: {:?}", r.outcome);
            if want.is_empty() {
                assert_eq!(r.outcome.status, Status::Infeasible, "{what}");
            } else {
                assert_eq!(r.outcome.status, Status::Optimal, "{what}");
                assert!(want.contains(&grid_of(&r)), "{what}: not a solution");
            }
        }
        if want.is_empty() {
            infeasible += 1;
        } else {
            feasible += 1;
        }
    }
    assert!(feasible > 15 && infeasible > 5, "{feasible} {infeasible}");
}

#[test]
fn the_cbm_counts_the_same_solutions_as_brute_force() {
    // Count CBM solutions by excluding each found grid (one cell-type pattern per row).
    let mut rng = Lcg(11);
    for case in 0..25 {
        let p = tiny(&mut rng, 4, 4, false);
        let want = brute_force(&p).len();
        let (mut model, decoder) = cbm::build(&p);
        let mut count = 0;
        let opts = SolveOptions {
            lp_relaxation: false,
            ..SolveOptions::default()
        };
        loop {
            let o = HIGHS.solve_model(&model, &opts);
            if o.status == Status::Infeasible {
                break;
            }
            let values = o.values.unwrap();
            let grid = decoder.decode(&values);
            assert!(verify::check(&p, &grid).is_ok(), "case {case}");
            count += 1;
            assert!(
                count <= want,
                "case {case}: more CBM solutions than brute force"
            );
            // Exclude this grid: sum of x[i,j,grid[i][j]] <= cells - 1 (variables in order).
            let terms: Vec<_> = (0..4)
                .flat_map(|i| (0..4).map(move |j| (i, j)))
                .map(|(i, j)| {
                    let k = grid[i][j] as usize;
                    (puzzlebench::model::VarId((i * 4 + j) * 7 + k), 1.0)
                })
                .collect();
            model.add_le("exclude", terms, 15.0);
        }
        assert_eq!(count, want, "case {case}");
    }
}

// ---------------------------------------------------------------- verifier

const SIX: &str = "puzzle six
fleet 3 2 1
rows 2 1 1 2 1 3
cols 1 3 2 0 1 3
grid
.~...~
......
......
......
......
......
solution
o~o~~~
~~~~o~
~^~~~~
~v~~~^
~~~~~+
~<>~~v
";

#[test]
fn the_verifier_rejects_every_single_cell_change() {
    let p = &parse_text(SIX).unwrap()[0];
    let sol = p.solution.clone().unwrap();
    assert_eq!(verify::check(p, &sol), Ok(()));
    for i in 0..6 {
        for j in 0..6 {
            for t in Cell::ALL {
                if t == sol[i][j] {
                    continue;
                }
                let mut g = sol.clone();
                g[i][j] = t;
                assert!(verify::check(p, &g).is_err(), "({i},{j}) -> {t:?} accepted");
            }
        }
    }
}

#[test]
fn the_verifier_names_the_broken_rule() {
    let p = |rows: &str, cols: &str, fleet: &str| Battleship {
        name: "v".into(),
        level: None,
        fleet: fleet.split(' ').map(|s| s.parse().unwrap()).collect(),
        rows: rows.split(' ').map(|s| s.parse().unwrap()).collect(),
        cols: cols.split(' ').map(|s| s.parse().unwrap()).collect(),
        givens: vec![vec![None; 3]; 3],
        solution: None,
    };
    let g = |s: &str| -> Grid {
        s.split('/')
            .map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect())
            .collect()
    };
    // Two one-cell ships touching diagonally.
    let e = verify::check(&p("1 1 0", "1 1 0", "2"), &g("o~~/~o~/~~~")).unwrap_err();
    assert!(e.contains("diagonally"), "{e}");
    // A bent ship.
    let e = verify::check(&p("2 1 0", "2 1 0", "0 0 1"), &g("<>~/^~~/~~~")).unwrap_err();
    assert!(e.contains("straight") || e.contains("should be"), "{e}");
    // Right cells, wrong fleet: one ship of length 2 where the fleet wants two singles.
    let e = verify::check(&p("2 0 0", "1 1 0", "2"), &g("<>~/~~~/~~~")).unwrap_err();
    assert!(e.contains("fleet"), "{e}");
    // Two ships end to end look like one with wrong symbols.
    let e = verify::check(&p("3 0 0", "1 1 1", "1 1"), &g("o<>/~~~/~~~")).unwrap_err();
    assert!(e.contains("should be"), "{e}");
}

// ---------------------------------------------------------------- generator

fn options(
    rows: usize,
    cols: usize,
    fleet: &[u32],
    level: generate::Level,
    seed: u64,
) -> generate::Options {
    generate::Options {
        rows,
        cols,
        fleet: fleet.to_vec(),
        level,
        extra: 3,
        seed,
        name: "g".into(),
    }
}

#[test]
fn generated_puzzles_are_unique_deterministic_and_hard_ones_minimal() {
    for seed in 1..=3 {
        let o = options(7, 7, &[3, 2, 1], generate::Level::Hard, seed);
        let p = generate::generate(&o).unwrap();
        assert_eq!(
            p,
            generate::generate(&o).unwrap(),
            "seed {seed} is not deterministic"
        );
        let sol = p.solution.clone().unwrap();
        assert_eq!(verify::check(&p, &sol), Ok(()));
        let all = brute_force_by_gbm(&p);
        assert_eq!(all, vec![sol.clone()], "seed {seed}: not unique");
        // Hard: dropping any given loses uniqueness.
        for i in 0..7 {
            for j in 0..7 {
                if p.givens[i][j].is_some() {
                    let mut q = p.clone();
                    q.givens[i][j] = None;
                    assert!(
                        brute_force_by_gbm(&q).len() > 1,
                        "seed {seed}: given ({i},{j}) is redundant"
                    );
                }
            }
        }
        // Easy: the same puzzle family with more givens, still unique.
        let e =
            generate::generate(&options(7, 7, &[3, 2, 1], generate::Level::Easy, seed)).unwrap();
        assert_eq!(brute_force_by_gbm(&e).len(), 1);
        assert!(e.given_count() >= 3);
    }
}

fn brute_force_by_gbm(p: &Battleship) -> Vec<Grid> {
    gbm_solutions(p, 3)
}

#[test]
fn the_generator_refuses_a_fleet_that_does_not_fit() {
    let o = options(3, 3, &[0, 0, 0, 2], generate::Level::Hard, 1);
    let e = generate::generate(&o).unwrap_err();
    assert!(e.contains("could not place the fleet"), "{e}");
}

// ---------------------------------------------------------------- parser

#[test]
fn bad_files_name_the_line_and_the_problem() {
    let cases: [(&str, &str); 10] = [
        (
            "fleet 1\nrows 1 1\ncols 1 1\n",
            "t.txt:1: the sums disagree",
        ),
        (
            "fleet 1\nrows 1\ncols 1\ngrid\nx\n",
            "t.txt:5: 'x' is not a cell",
        ),
        (
            "fleet 1\nrows 1\ncols 1 0\ngrid\n.\n",
            "t.txt:5: 1 cells in this line; the grid has 2 columns",
        ),
        (
            "fleet 1\nrows 1 0\ncols 1 0\ngrid\n..\n",
            "t.txt:5: the file ends after 1 of 2 grid lines",
        ),
        (
            "fleet 1\nrows 1 0\ncols 1 0\ngrid\n..\nsolution\n",
            "t.txt:6: 'solution' after 1 of 2 grid lines",
        ),
        (
            "rows 1\ncols 1\n",
            "t.txt:1: this puzzle has no 'fleet' line",
        ),
        (
            "fleet 1\nrows x\n",
            "t.txt:2: 'x' in 'rows' is not a non-negative whole number",
        ),
        (
            "fleet 1\nrows 1\ncols 1\nships 3\n",
            "t.txt:4: unknown line 'ships'",
        ),
        (
            "fleet 1\nrows 1\ncols 1\nsolution\n~\n",
            "t.txt:4: the solution does not solve the puzzle",
        ),
        (
            "grid\n",
            "t.txt:1: 'grid' must come after 'rows' and 'cols'",
        ),
    ];
    for (text, want) in cases {
        let e = parse_text(text).unwrap_err();
        assert!(e.starts_with(want), "{text:?}: got {e}");
    }
    assert!(parse_text("# nothing\n")
        .unwrap_err()
        .contains("no puzzle found"));
    let two = "puzzle a\nfleet 1\nrows 1\ncols 1\npuzzle a\nfleet 1\nrows 1\ncols 1\n";
    assert!(parse_text(two)
        .unwrap_err()
        .contains("two puzzles are named 'a'"));
}

#[test]
fn a_puzzle_survives_writing_and_reading_back() {
    let p = &parse_text(SIX).unwrap()[0];
    let back = &parse_text(&p.to_text()).unwrap()[0];
    assert_eq!(back.givens, p.givens);
    assert_eq!(
        (&back.rows, &back.cols, &back.fleet),
        (&p.rows, &p.cols, &p.fleet)
    );
}

#[test]
fn impossible_givens_are_infeasible_on_every_engine() {
    // A left end in the last column can start no ship.
    let text = "fleet 1 1\nrows 2 1\ncols 1 1 1\ngrid\n..<\n...\n";
    let p = &parse_text(text).unwrap()[0];
    for f in ["gbm", "gbm-cells", "cbm"] {
        for b in in_process_engines_for(Kind::Mip) {
            for presolve in [true, false] {
                let opts = SolveOptions {
                    presolve,
                    ..SolveOptions::default()
                };
                let r = p.solve(f, b, &opts).unwrap();
                assert_eq!(
                    r.outcome.status,
                    Status::Infeasible,
                    "{f} {b} presolve {presolve}: {:?}",
                    r.outcome
                );
            }
        }
    }
}
