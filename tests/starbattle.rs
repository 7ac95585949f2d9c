//! Star Battle end to end: every committed puzzle solved and verified by both
//! formulations, which agree with each other and with the file's solution, unique on
//! HiGHS and on the SAT backend; random region maps (with and without cells outside every
//! region) against a brute force over every placement of one star per row, on every
//! in-process engine; the generator from the command line; bad files name file and line.

mod common;
use common::{assert_bad_files, assert_matches_brute_force, instance_files, pb};
use puzzlebench::engines::{
    highs::HIGHS, in_process_engines_for, sat::SAT, Kind, SolveOptions, Status,
};
use puzzlebench::puzzles::starbattle::{self, parse, verify, StarBattle};
use puzzlebench::puzzles::{self, Solve};
use puzzlebench::rng::Rng;
use std::path::Path;

fn opts(count: u32) -> SolveOptions {
    SolveOptions {
        time_limit: Some(60.0),
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
        .map(|l| l.chars().map(|c| c == '*').collect())
        .collect()
}

#[test]
fn every_committed_puzzle_is_unique_and_both_formulations_agree() {
    let mut checked = 0;
    // The large puzzles (17×17 to 25×25) on the SAT engine only: HiGHS takes seconds to
    // minutes on each to rule out a second solution.
    for (folder, engines) in [
        ("starbattle/generated", &[HIGHS, SAT][..]),
        ("starbattle/large", &[SAT][..]),
    ] {
        for f in instance_files(folder) {
            let p = &starbattle::parse_file(&f, &std::fs::read_to_string(&f).unwrap()).unwrap()[0];
            for form in ["window", "pairwise"] {
                for &e in engines {
                    let r = p.solve(form, e, &opts(2)).unwrap();
                    let what = format!("{} {form} {e}: {:?}", p.name, r.outcome.message);
                    assert_eq!(r.outcome.status, Status::Optimal, "{what}");
                    assert_eq!(r.verified(), Some(true), "{what}");
                    assert_eq!(r.outcome.solutions, Some(1), "{what}");
                    if let Some(s) = &p.solution {
                        assert_eq!(&grid(&r), s, "{what}");
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked}");
}

/// Random regions: n seeds grown at random over the grid, some cells left outside.
fn random_puzzle(rng: &mut Rng, n: usize, outside: usize) -> StarBattle {
    let mut region: Vec<Vec<Option<usize>>> = vec![vec![None; n]; n];
    let mut cells: Vec<(usize, usize)> = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect();
    rng.shuffle(&mut cells);
    let mut blocked = vec![vec![false; n]; n];
    for &(i, j) in &cells[..outside] {
        blocked[i][j] = true;
    }
    for (k, &(i, j)) in cells[outside..outside + n].iter().enumerate() {
        region[i][j] = Some(k);
    }
    loop {
        let mut options = Vec::new();
        for i in 0..n {
            for j in 0..n {
                if region[i][j].is_none() && !blocked[i][j] {
                    for (a, b) in [
                        (i.wrapping_sub(1), j),
                        (i + 1, j),
                        (i, j.wrapping_sub(1)),
                        (i, j + 1),
                    ] {
                        if a < n && b < n {
                            if let Some(k) = region[a][b] {
                                options.push((i, j, k));
                            }
                        }
                    }
                }
            }
        }
        if options.is_empty() {
            break;
        }
        let (i, j, k) = options[rng.below(options.len())];
        region[i][j] = Some(k);
    }
    let letters: String = "ABCDEFGH".chars().take(n).collect();
    let mut text = String::from("starbattle 1\n");
    for row in &region {
        let line: String = row
            .iter()
            .map(|r| r.map_or('.', |k| letters.as_bytes()[k] as char))
            .collect();
        text.push_str(&line);
        text.push('\n');
    }
    parse::parse_text(Path::new("random.txt"), &text).unwrap()
}

/// Every solution with one star per row, by trying every column for every row.
fn brute_force(p: &StarBattle) -> Vec<Vec<Vec<bool>>> {
    let n = p.height();
    let mut out = Vec::new();
    let mut cols = vec![0usize; n];
    loop {
        let g: Vec<Vec<bool>> = (0..n)
            .map(|i| (0..n).map(|j| cols[i] == j).collect())
            .collect();
        if verify::check(p, &g).is_ok() {
            out.push(g);
        }
        let mut k = 0;
        while k < n {
            cols[k] += 1;
            if cols[k] < n {
                break;
            }
            cols[k] = 0;
            k += 1;
        }
        if k == n {
            return out;
        }
    }
}

#[test]
fn random_region_maps_agree_with_the_brute_force_on_every_engine() {
    let mut rng = Rng::new(21);
    let (mut none, mut one, mut several) = (0, 0, 0);
    for round in 0..40 {
        let n = 4 + round % 3;
        let outside = if round % 4 == 3 { 2 } else { 0 };
        let p = random_puzzle(&mut rng, n, outside);
        let all = brute_force(&p);
        match all.len() {
            0 => none += 1,
            1 => one += 1,
            _ => several += 1,
        }
        for f in ["window", "pairwise"] {
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
fn the_window_rows_are_fewer_than_the_pairs() {
    let f = &instance_files("starbattle/generated")[0];
    let p = &starbattle::parse_file(f, &std::fs::read_to_string(f).unwrap()).unwrap()[0];
    let (w, h) = (p.width(), p.height());
    let counting = h + w + p.region_count();
    assert_eq!(
        p.build("window").unwrap().counts().constraints,
        counting + (h - 1) * (w - 1)
    );
    let pairs = h * (w - 1) + (h - 1) * w + 2 * (h - 1) * (w - 1);
    assert_eq!(
        p.build("pairwise").unwrap().counts().constraints,
        counting + pairs
    );
}

#[test]
fn the_generator_makes_unique_puzzles_repeatably() {
    let run = |args: &[&str]| {
        pb().args(["generate", "starbattle"])
            .args(args)
            .output()
            .unwrap()
    };
    for (size, stars, outside) in [("6", "1", "0"), ("10", "2", "0"), ("8", "1", "3")] {
        let args = [
            "--size",
            size,
            "--stars",
            stars,
            "--outside",
            outside,
            "--seed",
            "5",
        ];
        let (a, b) = (run(&args), run(&args));
        assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
        assert_eq!(a.stdout, b.stdout, "the same seed gives the same puzzle");
        let text = String::from_utf8_lossy(&a.stdout).to_string();
        let p = parse::parse_text(Path::new("g.txt"), &text).unwrap();
        assert_eq!(p.height().to_string(), size);
        let outside_cells = p.regions.iter().flatten().filter(|r| r.is_none()).count();
        assert!(outside_cells >= outside.parse().unwrap());
        let r = p.solve("window", SAT, &opts(2)).unwrap();
        assert_eq!(r.outcome.solutions, Some(1), "{text}");
        assert_eq!(Some(grid(&r)), p.solution, "{text}");
    }
    let o = run(&["--size", "5", "--stars", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--stars"));
}

#[test]
fn bad_files_name_file_and_line_and_exit_2() {
    assert_bad_files(
        "starbattle",
        &[
            (
                "header.txt",
                "stars 1\nA\n",
                ":1: a puzzle starts with 'starbattle M'",
            ),
            (
                "short.txt",
                "starbattle 1\nAB\nA\n",
                ":3: this row has 1 cells, the first 2",
            ),
            (
                "region.txt",
                "starbattle 1\nA-\n",
                ":2: '-' is not a region",
            ),
            (
                "small.txt",
                "starbattle 2\nAB\nAA\n",
                "region B has 1 cells",
            ),
            (
                "solution.txt",
                "starbattle 1\nA\nsolution\n*x\n",
                ":4: 'x' in the solution",
            ),
        ],
    );
}

/// A puzz.link URL of `p` (square, every cell in a region), written here from the format
/// pzprjs documents in its border codec: borders between horizontal neighbours row by row,
/// then between vertical neighbours, five to a base-32 digit, most significant first.
fn to_url(p: &StarBattle) -> String {
    let (h, w) = (p.height(), p.width());
    let digits = |bits: Vec<bool>| -> String {
        bits.chunks(5)
            .map(|c| {
                let v = c
                    .iter()
                    .enumerate()
                    .fold(0u32, |v, (k, &b)| v | (u32::from(b) << (4 - k)));
                char::from_digit(v, 32).unwrap()
            })
            .collect()
    };
    let mut vertical = Vec::new();
    for i in 0..h {
        for j in 0..w - 1 {
            vertical.push(p.regions[i][j] != p.regions[i][j + 1]);
        }
    }
    let mut horizontal = Vec::new();
    for i in 0..h - 1 {
        for j in 0..w {
            horizontal.push(p.regions[i][j] != p.regions[i + 1][j]);
        }
    }
    format!(
        "https://puzz.link/p?starbattle/{w}/{h}/{}/{}{}",
        p.stars,
        digits(vertical),
        digits(horizontal)
    )
}

#[test]
fn puzz_link_urls_of_the_committed_puzzles_read_back_to_the_same_regions_and_solution() {
    let mut checked = 0;
    let mut urls = String::new();
    let files = [
        instance_files("starbattle/generated"),
        instance_files("starbattle/large"),
    ];
    for f in files.concat() {
        let p = &starbattle::parse_file(&f, &std::fs::read_to_string(&f).unwrap()).unwrap()[0];
        let outside = p.regions.iter().flatten().any(|r| r.is_none());
        if outside || p.row_stars != p.stars || p.col_stars != p.stars {
            continue; // a URL has neither cells outside regions nor separate counts
        }
        let url = to_url(p);
        let q = &starbattle::parse_file(Path::new("u.txt"), &url).unwrap()[0];
        // Same partition: two cells share a region in one iff they do in the other.
        let cells: Vec<(usize, usize)> = (0..p.height())
            .flat_map(|i| (0..p.width()).map(move |j| (i, j)))
            .collect();
        for &(a, b) in &cells {
            for &(c, d) in &cells {
                assert_eq!(
                    p.regions[a][b] == p.regions[c][d],
                    q.regions[a][b] == q.regions[c][d],
                    "{}: {url}",
                    p.name
                );
            }
        }
        let r = q.solve("window", SAT, &opts(2)).unwrap();
        assert_eq!(r.outcome.solutions, Some(1), "{}", p.name);
        assert_eq!(Some(grid(&r)), p.solution, "{}", p.name);
        urls.push_str(&url);
        urls.push('\n');
        checked += 1;
    }
    assert!(checked >= 24, "{checked}");
    // A file of several URLs: one puzzle per line, named by line.
    let all = starbattle::parse_file(Path::new("all.txt"), &urls).unwrap();
    assert_eq!(all.len(), checked);
    assert_eq!(all[1].name, "all:2");
}
