//! The Circuit Board end to end through the library: every formulation against a brute
//! force on random tiny boards (feasible and infeasible, with and without S and T), on
//! every backend it runs on; the verifier against the brute force's own check; every
//! formulation on the committed boards; the generator; bad input; the report tables.

use puzzlebench::engines::{
    bc::BC, cbc::CBC, highs::HIGHS, in_process_engines_for, microlp::MICROLP, propagate::PROPAGATE,
    Engine, Kind, SolveOptions, Status,
};
use puzzlebench::puzzles::circuit::cm1::TreeRules;
use puzzlebench::puzzles::circuit::{generate, parse, verify, Cell, Circuit, Link};
use puzzlebench::puzzles::{self, Solve};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn parse_text(text: &str) -> Result<Vec<Circuit>, String> {
    parse::parse_file(Path::new("t.txt"), text).map_err(|e| e.to_string())
}

/// Every board of the files under instances/circuit/`dir`.
fn boards(dir: &str) -> Vec<Circuit> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("instances/circuit").join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "instances/circuit/{dir} is empty");
    files
        .iter()
        .flat_map(|f| parse::parse_file(f, &std::fs::read_to_string(f).unwrap()).unwrap())
        .collect()
}

fn opts(limit: f64) -> SolveOptions {
    SolveOptions {
        time_limit: Some(limit),
        lp_relaxation: false,
        ..SolveOptions::default()
    }
}

fn links_of(r: &puzzles::RunResult) -> Vec<Link> {
    let raw: Vec<[usize; 4]> =
        serde_json::from_value(r.answer.as_ref().unwrap().json["links"].clone()).unwrap();
    let mut l: Vec<Link> = raw
        .iter()
        .map(|l| Link::new((l[0], l[1]), (l[2], l[3])).unwrap())
        .collect();
    l.sort();
    l
}

/// A small deterministic generator for the tests.
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

/// The points and possible links of a board, computed here (not with the crate's graph).
fn points_and_links(p: &Circuit) -> (Vec<Cell>, Vec<Link>) {
    let points: Vec<Cell> = (0..p.rows)
        .flat_map(|r| (0..p.cols).map(move |c| (r, c)))
        .filter(|&c| p.is_point(c))
        .collect();
    let mut links = Vec::new();
    for &(r, c) in &points {
        for other in [(r, c + 1), (r + 1, c)] {
            if p.is_point(other) {
                links.push(Link((r, c), other));
            }
        }
    }
    (points, links)
}

/// The brute force's own check: a set of links is a tree over all points with degrees 1
/// and 3 holding the given links (union-find and counting; no code of the crate).
fn is_solution(p: &Circuit, points: &[Cell], chosen: &[Link]) -> bool {
    if chosen.len() + 1 != points.len() || !p.given.iter().all(|g| chosen.contains(g)) {
        return false;
    }
    let index = |c: Cell| points.iter().position(|&q| q == c).unwrap();
    let mut parent: Vec<usize> = (0..points.len()).collect();
    fn root(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            v = parent[v];
        }
        v
    }
    let mut degree = vec![0; points.len()];
    for &Link(a, b) in chosen {
        let (i, j) = (index(a), index(b));
        degree[i] += 1;
        degree[j] += 1;
        let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
        if ri == rj {
            return false;
        }
        parent[ri] = rj;
    }
    degree.iter().all(|&d| d == 1 || d == 3)
}

/// Every solution of a tiny board, by trying every set of |V| − 1 possible links.
fn brute_force(p: &Circuit) -> Vec<Vec<Link>> {
    let (points, links) = points_and_links(p);
    let k = points.len().saturating_sub(1);
    let mut out = Vec::new();
    if points.len() < 2 || k > links.len() {
        return out;
    }
    let mut pick: Vec<usize> = (0..k).collect();
    loop {
        let chosen: Vec<Link> = pick.iter().map(|&i| links[i]).collect();
        if is_solution(p, &points, &chosen) {
            out.push(chosen);
        }
        // Next combination.
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if pick[i] < links.len() - k + i {
                break;
            }
        }
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// The length of the s–t path in a tree (breadth-first search over its links).
fn path_length(tree: &[Link], s: Cell, t: Cell) -> usize {
    let mut dist = std::collections::BTreeMap::from([(s, 0usize)]);
    let mut queue = std::collections::VecDeque::from([s]);
    while let Some(v) = queue.pop_front() {
        for &Link(a, b) in tree {
            let w = if a == v {
                b
            } else if b == v {
                a
            } else {
                continue;
            };
            if !dist.contains_key(&w) {
                dist.insert(w, dist[&v] + 1);
                queue.push_back(w);
            }
        }
    }
    dist[&t]
}

/// A random tiny board: some cells blacked out, some possible links given, sometimes S
/// and T. Many have no solution (odd point counts, given links that cannot be kept).
fn tiny(rng: &mut Lcg) -> Circuit {
    let (rows, cols) = [(2, 3), (3, 3), (2, 4), (3, 4), (4, 3)][rng.next(5)];
    if rng.next(2) == 0 {
        // Half of them from the generator (always solvable), the solution forgotten.
        let points = 2 * (1 + rng.next(rows * cols / 2));
        if let Ok(mut p) = generate::generate(&generate::Options {
            rows,
            cols,
            points,
            given: [0.0, 0.2, 0.4][rng.next(3)],
            endpoints: rng.next(2) == 0,
            seed: rng.next(1000) as u64,
            attempts: 200,
            name: "tiny".into(),
        }) {
            p.solution = None;
            return p;
        }
    }
    loop {
        let blocked: Vec<bool> = (0..rows * cols).map(|_| rng.next(5) == 0).collect();
        if blocked.iter().all(|&b| b) {
            continue;
        }
        let mut p = Circuit {
            name: "tiny".into(),
            rows,
            cols,
            blocked,
            given: Vec::new(),
            endpoints: None,
            unique: None,
            solution: None,
        };
        let (points, links) = points_and_links(&p);
        if !links.is_empty() {
            for _ in 0..rng.next(3) {
                let l = links[rng.next(links.len())];
                if !p.given.contains(&l) {
                    p.given.push(l);
                }
            }
        }
        p.given.sort();
        if points.len() >= 2 && rng.next(2) == 0 {
            let s = points[rng.next(points.len())];
            let t = points[rng.next(points.len())];
            if s != t {
                p.endpoints = Some((s, t));
            }
        }
        return p;
    }
}

#[test]
fn every_formulation_agrees_with_brute_force_on_tiny_boards() {
    let mut rng = Lcg(7);
    let (mut feasible, mut infeasible, mut with_path, mut cm2_cycles) = (0, 0, 0, 0);
    for _ in 0..120 {
        let p = tiny(&mut rng);
        let solutions = brute_force(&p);
        let set: BTreeSet<Vec<Link>> = solutions.iter().cloned().collect();
        let points = points_and_links(&p).0.len();
        let mut runs: Vec<(&str, Engine)> = vec![("cm1-full", HIGHS), ("cm1-full", CBC)];
        runs.push(("cm1-full", puzzlebench::engines::sat::SAT));
        for b in in_process_engines_for(Kind::LazyRows) {
            runs.push(("cm1", b));
            runs.push(("cm1-lazy", b));
        }
        for b in in_process_engines_for(Kind::Mip) {
            runs.push(("cm1-rowgen", b));
            // CM2's flows are continuous, which `sat` refuses (tests/sat.rs).
            if b.capabilities().continuous {
                runs.push(("cm2", b));
            }
        }
        for (f, b) in runs {
            let r = p.solve(f, b, &opts(60.0)).unwrap();
            if set.is_empty() && f == "cm2" && r.outcome.status.has_solution() {
                // CM2 asks for connectivity, not for a tree: with no tree to be had, it may
                // return a connected choice with a cycle, which the verifier refuses.
                assert_eq!(r.verified(), Some(false), "{f} {b} on\n{}", p.to_text());
                assert!(r.outcome.objective.unwrap() > points as f64 - 1.0);
                cm2_cycles += 1;
            } else if set.is_empty() {
                assert_eq!(
                    r.outcome.status,
                    Status::Infeasible,
                    "{f} {b} on\n{}",
                    p.to_text()
                );
            } else {
                assert_eq!(
                    r.outcome.status,
                    Status::Optimal,
                    "{f} {b} on\n{}",
                    p.to_text()
                );
                assert_eq!(r.verified(), Some(true), "{f} {b}: {:?}", r.answer);
                assert!(
                    set.contains(&links_of(&r)),
                    "{f} {b}: a tree the brute force lacks"
                );
                assert_eq!(r.outcome.objective, Some(points as f64 - 1.0), "{f} {b}");
            }
        }
        for (b, (s, t)) in in_process_engines_for(Kind::LazyRows)
            .into_iter()
            .filter_map(|b| Some((b, p.endpoints?)))
        {
            let r = p.solve("cm3", b, &opts(60.0)).unwrap();
            if set.is_empty() {
                assert_eq!(
                    r.outcome.status,
                    Status::Infeasible,
                    "cm3 on {b}\n{}",
                    p.to_text()
                );
            } else {
                let best = solutions
                    .iter()
                    .map(|t_| path_length(t_, s, t))
                    .min()
                    .unwrap();
                assert_eq!(
                    r.outcome.status,
                    Status::Optimal,
                    "cm3 on {b}\n{}",
                    p.to_text()
                );
                assert_eq!(r.verified(), Some(true), "cm3 on {b}: {:?}", r.answer);
                assert_eq!(
                    r.outcome.objective,
                    Some((points - 1 + best) as f64),
                    "cm3 must find the shortest s-t path any tree allows, on\n{}",
                    p.to_text()
                );
                let path = r.answer.as_ref().unwrap().json["path"]
                    .as_array()
                    .unwrap()
                    .len();
                assert_eq!(path, best + 1, "the reported path has the optimal length");
                with_path += 1;
            }
        }
        if set.is_empty() {
            infeasible += 1;
        } else {
            feasible += 1;
        }
    }
    assert!(
        feasible >= 20 && infeasible >= 20,
        "{feasible} feasible, {infeasible} infeasible"
    );
    assert!(with_path >= 10, "{with_path} boards with a path");
    assert!(
        cm2_cycles > 0,
        "some infeasible board shows CM2's missing acyclicity"
    );
}

#[test]
fn the_verifier_agrees_with_the_brute_force_on_every_link_set() {
    let mut rng = Lcg(11);
    let mut checked = 0;
    for _ in 0..40 {
        let p = tiny(&mut rng);
        let (points, links) = points_and_links(&p);
        if links.len() > 12 {
            continue;
        }
        for mask in 0u32..(1 << links.len()) {
            let chosen: Vec<Link> = (0..links.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| links[i])
                .collect();
            let verdict = verify::check(&p, &chosen, None);
            assert_eq!(
                verdict.is_ok(),
                points.len() >= 2 && is_solution(&p, &points, &chosen),
                "{chosen:?} on\n{}: {verdict:?}",
                p.to_text()
            );
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

const BOARD: &str = "\
puzzle small
grid 3 3
o # o
. . .
o o o
| . .
o o o
";

#[test]
fn the_verifier_names_the_broken_rule() {
    let p = &parse_text(BOARD).unwrap()[0];
    let l = |a: Cell, b: Cell| Link::new(a, b).unwrap();
    let tree = vec![
        l((0, 0), (1, 0)),
        l((1, 0), (2, 0)),
        l((1, 0), (1, 1)),
        l((1, 1), (1, 2)),
        l((1, 1), (2, 1)),
        l((0, 2), (1, 2)),
        l((1, 2), (2, 2)),
    ];
    assert_eq!(verify::check(p, &tree, None), Ok(()));
    assert_eq!(
        brute_force(p),
        vec![{
            let mut t = tree.clone();
            t.sort();
            t
        }]
    );
    let mut two = tree.clone();
    two.retain(|&x| x != l((1, 2), (2, 2)));
    two.push(l((2, 1), (2, 2)));
    let e = verify::check(p, &two, None).unwrap_err();
    assert!(e.contains("the point (1, 2) has 2 links"), "{e}");
    let mut missing = tree.clone();
    missing.retain(|&x| x != l((1, 0), (2, 0)));
    missing.push(l((2, 0), (2, 1)));
    let e = verify::check(p, &missing, None).unwrap_err();
    assert!(e.contains("given link (1, 0)-(2, 0) is missing"), "{e}");
    let mut blocked = tree.clone();
    blocked.push(Link((0, 0), (0, 1)));
    assert!(verify::check(p, &blocked, None)
        .unwrap_err()
        .contains("not a point"));
    let mut twice = tree.clone();
    twice.push(tree[0]);
    assert!(verify::check(p, &twice, None)
        .unwrap_err()
        .contains("twice"));
    let far = vec![Link((0, 0), (2, 0))];
    assert!(verify::check(p, &far, None)
        .unwrap_err()
        .contains("not neighbours"));
    let mut short = tree.clone();
    short.pop();
    let e = verify::check(p, &short, None).unwrap_err();
    assert!(e.contains("(1, 2) has 2 links"), "{e}");
    // Paths: only with S and T, along links, from S to T.
    assert!(verify::check(p, &tree, Some(&[(0, 0)]))
        .unwrap_err()
        .contains("no S and T"));
    let mut st = p.clone();
    st.endpoints = Some(((0, 0), (2, 2)));
    let path = [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)];
    assert_eq!(verify::check(&st, &tree, Some(&path)), Ok(()));
    let e = verify::check(&st, &tree, Some(&[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)])).unwrap_err();
    assert!(e.contains("without a link"), "{e}");
    let e = verify::check(&st, &tree, Some(&[(1, 0), (1, 1), (1, 2), (2, 2)])).unwrap_err();
    assert!(e.contains("from S"), "{e}");
}

#[test]
fn every_formulation_solves_the_report_size_boards() {
    for p in boards("table_a_1") {
        let r = p.solve("cm1", BC, &opts(60.0)).unwrap();
        assert_eq!(r.outcome.status, Status::Optimal, "{}", p.name);
        assert_eq!(r.verified(), Some(true), "{}", p.name);
        let points = p.points() as f64;
        assert_eq!(r.outcome.objective, Some(points - 1.0));
        // The recorded tree is one solution; a board recorded unique has no other.
        if p.unique == Some(true) {
            assert_eq!(Some(links_of(&r)), p.solution.clone(), "{}", p.name);
        }
        if p.rows <= 6 {
            for (f, b) in [
                ("cm1", CBC),
                ("cm1-lazy", BC),
                ("cm1-rowgen", HIGHS),
                ("cm1-rowgen", CBC),
                ("cm2", HIGHS),
                ("cm2", CBC),
            ] {
                let r = p.solve(f, b, &opts(120.0)).unwrap();
                assert_eq!(r.outcome.status, Status::Optimal, "{} {f} {b}", p.name);
                assert_eq!(r.verified(), Some(true), "{} {f} {b}", p.name);
                if p.unique == Some(true) {
                    assert_eq!(Some(links_of(&r)), p.solution.clone(), "{} {f}", p.name);
                }
            }
        }
        if p.points() <= 12 {
            let r = p.solve("cm1-full", HIGHS, &opts(60.0)).unwrap();
            assert_eq!(r.verified(), Some(true), "{} cm1-full", p.name);
        }
    }
}

#[test]
fn cm1_solves_the_scaling_boards_and_cm3_its_boards() {
    for p in boards("scaling") {
        let r = p.solve("cm1", BC, &opts(600.0)).unwrap();
        assert_eq!(
            r.outcome.status,
            Status::Optimal,
            "{}: {:?}",
            p.name,
            r.outcome
        );
        assert_eq!(r.verified(), Some(true), "{}", p.name);
    }
    for p in boards("cm3") {
        let r = p.solve("cm3", BC, &opts(600.0)).unwrap();
        assert_eq!(
            r.outcome.status,
            Status::Optimal,
            "{}: {:?}",
            p.name,
            r.outcome
        );
        assert_eq!(r.verified(), Some(true), "{}", p.name);
        // The optimum is no longer than the path in the recorded tree.
        let (s, t) = p.endpoints.unwrap();
        let recorded = path_length(p.solution.as_ref().unwrap(), s, t);
        let points = p.points() as f64;
        let found = (r.outcome.objective.unwrap() - (points - 1.0)).round();
        assert!(found <= recorded as f64, "{}: {found} > {recorded}", p.name);
    }
}

#[test]
fn cm3_and_cm1_full_refuse_what_they_cannot_take() {
    let p = &boards("table_a_1")[0];
    for b in in_process_engines_for(Kind::LazyRows) {
        let r = p.solve("cm3", b, &opts(10.0)).unwrap();
        assert_eq!(r.outcome.status, Status::Refused, "{b}");
        assert!(r.outcome.message.unwrap().contains("S and T"), "{b}");
    }
    let big = boards("table_a_1")
        .into_iter()
        .find(|b| b.points() > 16)
        .unwrap();
    let r = big.solve("cm1-full", HIGHS, &opts(10.0)).unwrap();
    assert_eq!(r.outcome.status, Status::Refused);
    assert!(r.outcome.message.unwrap().contains("at most 16 points"));
    // Lazy rows need an engine with a callback; a plain integer program does not go to
    // the branch and cut of lazy rows. The reason names the engines that take it.
    for (f, b, able) in [
        ("cm1", MICROLP, "bc"),
        ("cm1", HIGHS, "bc"),
        ("cm3", HIGHS, "cbc"),
        ("cm2", BC, "highs"),
        ("cm1-rowgen", BC, "microlp"),
        ("cm2", PROPAGATE, "cbc"),
    ] {
        let q = boards("cm3").remove(0);
        let r = q.solve(f, b, &opts(10.0)).unwrap();
        assert_eq!(r.outcome.status, Status::Refused, "{f} {b}");
        let why = r.outcome.message.unwrap();
        assert!(
            why.starts_with("refused") && why.contains(able),
            "{f} {b}: {why}"
        );
        assert_eq!(r.build_seconds, 0.0, "{f} {b}: refused before building");
    }
}

#[test]
fn cm2_uses_a_big_m_of_the_board_size() {
    let p = boards("scaling")
        .into_iter()
        .find(|b| b.points() > 100)
        .unwrap();
    let m = p.build("cm2").unwrap();
    let cap = m
        .rows
        .iter()
        .find(|r| r.name.to_string() == "cap_0")
        .unwrap();
    let coef = cap.terms.iter().map(|t| t.1).fold(0.0f64, f64::min);
    assert_eq!(coef, -(p.points() as f64 - 1.0), "M = |V| - 1, not 99");
}

/// Whatever a 1 s limit leaves on the largest report board, the row says what happened
/// and claims nothing more: a bound is at most the optimum (|V| − 1; a minimisation), a
/// gap appears only with both an objective and a bound, and an incumbent is reported only
/// when the verifier has seen it. CM2's incumbents are connected but may have more links
/// than a tree until the optimum; the verifier accepts exactly those with |V| − 1 links.
/// Row generation keeps an incumbent only when the separator accepts it (then it is a
/// tree). Which of these happens depends on the machine, so each is allowed.
#[test]
fn a_limited_run_is_recorded_honestly_whatever_the_outcome() {
    let p = boards("table_a_1").into_iter().last().unwrap();
    let points = p.points() as f64;
    for (f, b) in [("cm2", HIGHS), ("cm2", CBC), ("cm1-rowgen", HIGHS)] {
        let r = p.solve(f, b, &opts(1.0)).unwrap();
        let o = &r.outcome;
        let what = format!("{f} {b}: {o:?}");
        assert!(o.seconds < 3.0, "{what}");
        if let Some(bound) = o.best_bound {
            assert!(bound <= points - 1.0 + 1e-6, "{what}");
        }
        assert_eq!(
            o.gap.is_some(),
            o.objective.is_some() && o.best_bound.is_some(),
            "{what}"
        );
        match (o.status, o.objective) {
            (Status::Optimal, obj) => {
                assert_eq!(r.verified(), Some(true), "{what}");
                assert_eq!(obj, Some(points - 1.0), "{what}");
                assert_eq!(o.gap, Some(0.0), "{what}");
            }
            (Status::TimeLimit, Some(obj)) => {
                let tree = obj.round() == points - 1.0;
                assert_eq!(r.verified(), Some(tree), "{what}: {:?}", r.answer);
                if f == "cm1-rowgen" {
                    assert_eq!(r.verified(), Some(true), "{what}");
                }
            }
            (Status::TimeLimit, None) => assert_eq!(r.verified(), None, "{what}"),
            (s, _) => panic!("{what}: {s}"),
        }
    }
}

#[test]
fn generated_boards_are_deterministic_and_their_trees_check() {
    for (size, points, endpoints) in [(3, 8, false), (6, 34, true), (10, 96, false)] {
        let o = generate::Options {
            rows: size,
            cols: size,
            points,
            given: 0.2,
            endpoints,
            seed: 5,
            attempts: 10_000,
            name: "g".into(),
        };
        let a = generate::generate(&o).unwrap();
        assert_eq!(a, generate::generate(&o).unwrap(), "same seed, same board");
        assert_eq!(a.points(), points);
        let tree = a.solution.clone().unwrap();
        assert_eq!(verify::check(&a, &tree, None), Ok(()));
        assert!(a.given.iter().all(|g| tree.contains(g)));
        assert_eq!(a.given.len(), (0.2 * (points - 1) as f64).round() as usize);
        assert_eq!(a.endpoints.is_some(), endpoints);
        if let Some((s, t)) = a.endpoints {
            assert!(s.0.abs_diff(t.0) + s.1.abs_diff(t.1) >= size);
        }
        // It reads back from its own text.
        let back = parse_text(&a.to_text()).unwrap().remove(0);
        assert_eq!(back, a);
        let other = generate::generate(&generate::Options { seed: 6, ..o }).unwrap();
        assert_ne!(other, a, "another seed, another board");
    }
    let odd = generate::Options {
        rows: 3,
        cols: 3,
        points: 7,
        given: 0.0,
        endpoints: false,
        seed: 1,
        attempts: 10,
        name: "g".into(),
    };
    assert!(generate::generate(&odd)
        .unwrap_err()
        .contains("even number"));
}

#[test]
fn the_uniqueness_check_agrees_with_brute_force() {
    let mut seen = [0, 0];
    for seed in 1..30 {
        let (size, points) = [(3, 6), (3, 8), (4, 10), (4, 12)][seed as usize % 4];
        let mut p = generate::generate(&generate::Options {
            rows: size,
            cols: size,
            points,
            given: 0.2,
            endpoints: false,
            seed,
            attempts: 10_000,
            name: "u".into(),
        })
        .unwrap();
        let count = brute_force(&p).len();
        assert!(count >= 1);
        let unique = generate::is_unique(&p, 60.0).unwrap();
        assert_eq!(unique, Some(count == 1), "seed {seed}: {count} solutions");
        seen[usize::from(count == 1)] += 1;
        p.unique = unique;
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
}

#[test]
fn bad_files_name_the_line_and_the_problem() {
    let cases: [(&str, &str); 11] = [
        (
            "grid 2 2\no o\n. .\no x\n",
            "t.txt:4: column 3: 'x' is not a cell",
        ),
        (
            "grid 2 2\no o o\n",
            "t.txt:2: 5 characters; a drawing of 2 columns is at most 3 wide",
        ),
        (
            "grid 2 2\no\n",
            "t.txt:2: a row of 2 cells is 3 characters wide",
        ),
        (
            "grid 2 2\no-#\n. .\no o\n",
            "t.txt:2: the link between (0, 0) and (0, 1) touches a blacked-out cell",
        ),
        (
            "grid 2 2\no o\n. .\n",
            "t.txt:3: the file ends after 2 of the drawing's 3 lines",
        ),
        (
            "grid 2 2\nS o\n. .\no o\n",
            "t.txt:1: the board marks S without T",
        ),
        ("size 2 2\n", "t.txt:1: unknown line 'size'"),
        (
            "grid two 2\n",
            "t.txt:1: 'grid two 2': give the rows and columns",
        ),
        (
            "grid 2 2\no o\n.-.\no o\n",
            "t.txt:3: column 2: '-' on a gap line",
        ),
        ("# nothing\n", "t.txt: no board found"),
        (
            "grid 2 2\no o\n| .\no o\nsolution\no-o\n. .\no o\n",
            "t.txt:5: the solution does not solve the board",
        ),
    ];
    for (text, want) in cases {
        let e = parse_text(text).unwrap_err();
        assert!(e.starts_with(want), "{text:?}: got {e}, want {want}");
    }
    // A gap line may be empty, and '#' inside a drawing is a cell, not a comment.
    let p = &parse_text("# a comment\ngrid 2 2\n# o\n\no o\n").unwrap()[0];
    assert_eq!(p.points(), 3);
    assert!(p.given.is_empty());
}

#[test]
fn the_cli_generates_solves_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&[
        "generate",
        "circuit",
        "--size",
        "5",
        "--points",
        "22",
        "--seed",
        "3",
        "--count",
        "2",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        text.matches("\npuzzle ").count() + usize::from(text.starts_with("puzzle")),
        2
    );
    assert!(text.contains("# puzzlebench generate circuit --rows 5 --cols 5 --points 22"));
    let o = run(&[
        "solve",
        file.to_str().unwrap(),
        "--puzzle",
        "circuit",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["verified"], true);
        assert!(v["solution"]["links"].as_array().unwrap().len() == 21);
        assert!(v["rounds"].is_u64() && v["cuts"].is_u64());
    }
    // Writing over an existing file is refused.
    let o = run(&[
        "generate",
        "circuit",
        "--size",
        "5",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "grid 2 2\no o\n. .\no q\n").unwrap();
    let o = run(&["solve", bad.to_str().unwrap(), "--puzzle", "circuit"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.txt:4: column 3: 'q' is not a cell"),
        "{err}"
    );
    let o = run(&["generate", "circuit", "--size", "3", "--points", "7"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 54, point 12: the sweep of the issue, `cm1,cm2` on `bc,highs,sat` over Table A.1
/// boards, records the pairs the engines do not take (cm1 on highs, cm2 on bc, cm2 on
/// sat) as `refused` with the reason, prints them apart from the failures, and does not
/// fail for them; `--resume` does not retry them; the report's summary does not charge
/// them (no "0 solved, PAR-2" line for a pair that never ran). `solve` of a refused pair
/// exits 2 and says it was refused.
#[test]
fn refused_pairs_are_recorded_as_refused_and_never_charged() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let run = |extra: &[&str]| {
        common::pb()
            .args(["run", "--puzzle", "circuit", "--formulation", "cm1,cm2"])
            .args(["--backend", "bc,highs,sat", "--time-limit", "20", "--quiet"])
            .args([
                "--instances",
                "instances/circuit/table_a_1/3x3.txt",
                "--out",
            ])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&[]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(0), "refusals are no failures: {err}");
    let rows = common::rows(&out);
    assert_eq!(rows.len(), 30);
    let refused = ["cm1 highs", "cm2 bc", "cm2 sat"];
    for r in &rows {
        let pair = format!("{} {}", r.formulation, r.backend);
        if refused.contains(&pair.as_str()) {
            assert_eq!(r.status, "refused", "{pair}");
            assert!(r.error.as_ref().is_some_and(|e| !e.is_empty()), "{pair}");
        } else {
            assert_eq!(
                (r.status.as_str(), r.verified),
                ("optimal", Some(true)),
                "{pair}"
            );
        }
    }
    assert!(err.contains("15 runs refused"), "{err}");
    assert!(
        err.contains("cm1 on highs: 5 runs refused, not run: formulation cm1 is lazy-rows"),
        "{err}"
    );
    assert!(!err.contains("did not solve"), "{err}");
    // The summary on the terminal holds the runs that ran only.
    let summary_pairs: Vec<String> = err
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() > 3 && w[0] == "circuit")
        .map(|w| format!("{} {}", w[1], w[2]))
        .collect();
    assert_eq!(summary_pairs, ["cm1 bc", "cm1 sat", "cm2 highs"], "{err}");
    // Resumed: nothing is retried.
    let o = run(&["--resume"]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "{err}");
    assert!(err.contains("0 runs appended"), "{err}");
    assert_eq!(common::rows(&out).len(), 30);
    // The report: no line for a refused pair in the summary, and it says what it left out.
    let report = dir.path().join("report");
    let o = common::pb()
        .arg("report")
        .arg(&out)
        .args(["--figures", "svg", "--out"])
        .arg(&report)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "{err}");
    assert!(err.contains("15 refused runs"), "{err}");
    let summary = std::fs::read_to_string(report.join("tables/summary.md")).unwrap();
    let lines: Vec<&str> = summary
        .lines()
        .filter(|l| l.starts_with("| circuit"))
        .collect();
    assert_eq!(lines.len(), 3, "{summary}");
    for pair in ["| cm1 | highs |", "| cm2 | bc |", "| cm2 | sat |"] {
        assert!(!summary.contains(pair), "{pair} charged: {summary}");
    }
    // `solve` of a refused pair: exit 2, printed as a refusal.
    let o = common::pb()
        .args([
            "solve",
            "instances/circuit/table_a_1/3x3.txt",
            "--puzzle",
            "circuit",
        ])
        .args(["--formulation", "cm2", "--backend", "bc"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("refused, not run (cm2 / bc)"), "{stdout}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("refused, not run"));
}

#[test]
fn tables_match_their_snapshots() {
    // UPDATE_SNAPSHOTS=1 rewrites the snapshots after an intended change.
    let rows =
        puzzlebench::record::read_results(&root().join("tests/data/circuit/report/results.csv"))
            .unwrap();
    let tables = puzzles::circuit::tables::tables(&rows);
    let stems: Vec<&str> = tables.iter().map(|t| t.stem.as_str()).collect();
    assert_eq!(
        stems,
        [
            "circuit_table_a_1",
            "circuit_table_a_2",
            "circuit_table_a_3",
            "circuit_by_size"
        ]
    );
    // The k-th board of a size faces the report's k-th: 10x10 ends with 98 / 98 points.
    let a1 = &tables[0];
    let last = a1.rows.last().unwrap();
    assert_eq!(last[0], "10x10");
    assert_eq!(last[1], "98 / 98");
    assert!(
        a1.rows.iter().any(|r| r[0] == "10x10" && r[6] == "10.957"),
        "the report's 10.957 s, as printed"
    );
    // The report's row with LB 79 above UB 77 carries its footnote; the note on cm1's
    // branch and cut is under Table A.1 only.
    let a2 = &tables[1];
    assert!(a2.rows.iter().any(|r| r[2] == "135 / 138" && r[4] == "79§"));
    let bc = |t: &puzzlebench::table::Table| t.notes.iter().any(|n| n.contains("branch and cut"));
    assert!(bc(a1) && !bc(a2));
    let dir = root().join("tests/data/circuit/report/expected");
    common::assert_snapshots(&tables, &dir);
}

/// `cm1`'s short forms of the subtour rows (5.1e) keep the row's slack (scaled by 2 in the
/// forms over δ(N) and y) at every 0/1 point that meets the degree rows and the tree row,
/// so the LP relaxation does not change with the form. Every such point of a 4×4 board
/// with two corners blacked out (14 points, 20 links: every link set is tried; a grid's
/// two colour classes must both be odd for degrees 1 and 3 with |V| − 1 links), against
/// 300 vertex sets each.
#[test]
fn the_short_subtour_rows_have_the_slack_of_5_1e() {
    use puzzlebench::model::VarId;
    use puzzlebench::puzzles::circuit::{cm1, graph::Graph};
    let p = &parse_text("grid 4 4\n# o o o\n\no o o o\n\no o o o\n\n# o o o\n").unwrap()[0];
    let g = Graph::new(p);
    let (n, m) = (g.n(), g.edges.len());
    let x: Vec<VarId> = (0..m).map(VarId).collect();
    let y: Vec<VarId> = (m..m + n).map(VarId).collect();
    let mut rng = Lcg(11);
    let (mut points, mut short) = (0, 0);
    for set in 0u32..1 << m {
        if set.count_ones() as usize != n - 1 {
            continue;
        }
        let mut degree = vec![0; n];
        for (e, &(a, b)) in g.edges.iter().enumerate() {
            if set >> e & 1 == 1 {
                degree[a] += 1;
                degree[b] += 1;
            }
        }
        if degree.iter().any(|&d| d != 1 && d != 3) {
            continue;
        }
        points += 1;
        let mut value: Vec<f64> = (0..m).map(|e| (set >> e & 1) as f64).collect();
        value.extend(degree.iter().map(|&d| ((d - 1) / 2) as f64));
        for _ in 0..300 {
            let inside: Vec<bool> = (0..n).map(|_| rng.next(2) == 1).collect();
            let size = inside.iter().filter(|&&b| b).count();
            if size == 0 || size == n {
                continue;
            }
            let slack = |c: &puzzlebench::lazy::Cut| {
                let a: f64 = c.terms.iter().map(|&(v, k)| k * value[v.0]).sum();
                if c.upper.is_finite() {
                    c.upper - a
                } else {
                    a - c.lower
                }
            };
            let plain = slack(&cm1::subtour_row(&g, &x, &inside));
            let row = cm1::sparse_subtour_row(&g, &x, &y, &inside);
            let factor = if row.upper.is_finite() { 1.0 } else { 2.0 };
            short += (factor == 2.0) as usize;
            assert_eq!(slack(&row), factor * plain, "{inside:?} at {set:b}");
        }
    }
    assert!(
        points >= 10,
        "{points} points meet the degree and tree rows"
    );
    assert!(short > 50, "the short forms were taken {short} times");
}

/// The bound changes `rules` push at given bounds, or None on a contradiction.
fn tree_rules(
    rules: &mut TreeRules,
    p: &Circuit,
    lower: &[f64],
    upper: &[f64],
) -> Option<Vec<(usize, f64, f64)>> {
    let g = puzzlebench::puzzles::circuit::graph::Graph::new(p);
    let x: Vec<_> = (0..g.edges.len()).map(puzzlebench::model::VarId).collect();
    let mut out = Vec::new();
    rules
        .propagate(&g, &x, lower, upper, &mut out)
        .then_some(out)
}

#[test]
fn the_tree_rules_fix_only_what_every_tree_has() {
    // A 2×3 board. The two links across each column boundary are a 2-link cut with an
    // even number of points on each side, so every tree takes both. The two links and the
    // upright of an outer column form a ring of three segments (two single points and the
    // other four): the upright, between the two odd ones, is left out. The older rules
    // fix nothing here; the brute force has the one tree (an H).
    let ladder = parse_text("grid 2 3\no o o\n. . .\no o o\n")
        .unwrap()
        .remove(0);
    let (_, links) = points_and_links(&ladder);
    let free = (vec![0.0; links.len()], vec![1.0; links.len()]);
    let fixed: BTreeSet<(Link, bool)> =
        tree_rules(&mut TreeRules::default(), &ladder, &free.0, &free.1)
            .unwrap()
            .into_iter()
            .map(|(e, lo, hi)| {
                assert_eq!(lo, hi);
                (links[e], lo == 1.0)
            })
            .collect();
    let expected: BTreeSet<(Link, bool)> = links
        .iter()
        .filter(|l| l.0 .1 != 1 || l.1 .1 != 1)
        .map(|&l| (l, l.0 .0 == l.1 .0))
        .collect();
    assert_eq!(expected.len(), 6);
    assert_eq!(fixed, expected);
    assert_eq!(brute_force(&ladder).len(), 1);

    // Random tiny boards and random bounds: every change pushed holds in every tree that
    // meets the bounds, and a contradiction only where none does (brute force). One
    // `TreeRules` serves a board's calls, as in a search (it keeps what it found for the
    // last sets of usable links), and answers as a fresh one does.
    let mut rng = Lcg(11);
    let (mut pushed, mut refused) = (0, 0);
    for _ in 0..150 {
        let p = tiny(&mut rng);
        let (points, links) = points_and_links(&p);
        let index = |c: Cell| points.iter().position(|&q| q == c).unwrap();
        // The crate's graph lists links as points in row-major order, right then down;
        // `points_and_links` does the same, which the first check of each board confirms.
        let g = puzzlebench::puzzles::circuit::graph::Graph::new(&p);
        let same: Vec<(usize, usize)> = links.iter().map(|l| (index(l.0), index(l.1))).collect();
        assert_eq!(g.edges, same);
        let trees: Vec<Vec<bool>> = brute_force(&p)
            .iter()
            .map(|t| links.iter().map(|l| t.contains(l)).collect())
            .collect();
        let mut rules = TreeRules::default();
        for round in 0..20 {
            let mut lower = vec![0.0; links.len()];
            let mut upper = vec![1.0; links.len()];
            for e in 0..links.len() {
                // Half of the rounds fix links as one tree has them, so that some trees
                // meet the bounds; the other half fix at random.
                let value = match (&trees[..], round % 2) {
                    ([t, ..], 0) => Some(t[e]),
                    _ => Some(rng.next(2) == 1),
                };
                if rng.next(4) == 0 {
                    let v = if value.unwrap() { 1.0 } else { 0.0 };
                    lower[e] = v;
                    upper[e] = v;
                }
            }
            let meeting: Vec<&Vec<bool>> = trees
                .iter()
                .filter(|t| {
                    (0..links.len())
                        .all(|e| lower[e] <= t[e] as u8 as f64 && t[e] as u8 as f64 <= upper[e])
                })
                .collect();
            let answer = tree_rules(&mut rules, &p, &lower, &upper);
            assert_eq!(
                answer,
                tree_rules(&mut TreeRules::default(), &p, &lower, &upper)
            );
            // The same usable links with more of them fixed to 1: the kept structure.
            let mut more = lower.clone();
            for e in 0..links.len() {
                if upper[e] == 1.0 && rng.next(3) == 0 {
                    more[e] = 1.0;
                }
            }
            assert_eq!(
                tree_rules(&mut rules, &p, &more, &upper),
                tree_rules(&mut TreeRules::default(), &p, &more, &upper)
            );
            match answer {
                None => {
                    assert!(
                        meeting.is_empty(),
                        "a contradiction with a tree on\n{}",
                        p.to_text()
                    );
                    refused += 1;
                }
                Some(out) => {
                    for (e, lo, hi) in out {
                        for t in &meeting {
                            let v = t[e] as u8 as f64;
                            assert!(
                                lo <= v && v <= hi,
                                "link {e} to [{lo}, {hi}] cuts a tree off\n{}",
                                p.to_text()
                            );
                        }
                        pushed += 1;
                    }
                }
            }
        }
    }
    assert!(
        pushed > 100 && refused > 100,
        "{pushed} changes, {refused} contradictions"
    );
}
