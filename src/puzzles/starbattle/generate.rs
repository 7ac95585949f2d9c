//! A generator of Star Battle puzzles with a unique solution (`puzzlebench generate
//! starbattle`), deterministic for a seed.
//!
//! 1. A random solution: m stars in every row and column, none touching, from the window
//!    rows with random objective weights, solved on HiGHS.
//! 2. Regions around it: the stars are grouped m at a time (a star with its nearest
//!    ungrouped stars), each group joined by shortest paths through free cells into a
//!    connected seed; `--outside K` cells without a star are set aside (outside every
//!    region); then the regions grow by random free neighbours until no cell is left
//!    (cells no region reaches stay outside). The planted solution solves the puzzle.
//! 3. Uniqueness: the puzzle is solved with the planted solution excluded (the window
//!    model on the SAT engine). While another solution exists, a cell where it has a
//!    star and the planted one has none moves to a neighbouring region (when its old
//!    region stays connected), which usually breaks that solution; after `--tries` moves
//!    without success the generator starts again from step 1 with the next seed draw.

use super::{window, StarBattle};
use crate::engines::{highs::HIGHS, sat::SAT, SolveOptions, Status};
use crate::generate::{Generator, Param, Params};
use crate::model::{Model, Name, Sense, VarKind};
use crate::rng::Rng;
use std::collections::VecDeque;

/// `puzzlebench generate starbattle`.
pub static GENERATOR: Generator = Generator {
    about: "Star Battle: plant a random solution, grow connected regions around groups of m \
            of its stars, and move cells between regions until the solution is unique \
            (checked with the window model on the SAT backend).",
    params: &[
        Param::value("size", "N", "Side of the square grid"),
        Param::defaulted("stars", "M", "1", "Stars in every row, column and region"),
        Param::defaulted(
            "outside",
            "K",
            "0",
            "Cells outside every region (a non-regular puzzle)",
        ),
        Param::defaulted("tries", "T", "400", "Region moves before starting again"),
    ],
    make,
    separator: crate::generate::concatenated,
};

fn make(params: &Params, seed: u64) -> Result<String, String> {
    let n: usize = params.need("size")?;
    let m: usize = params.need("stars")?;
    let outside: usize = params.need("outside")?;
    let tries: usize = params.need("tries")?;
    if !(1..=30).contains(&n) {
        return Err(format!("--size {n}: from 1 to 30"));
    }
    // Two touching rows hold at most one star per 2×2 window, so 2m ≤ n/2 rounded up:
    // n ≥ 4m − 1 (1×1 with one star aside).
    if m == 0 || (4 * m > n + 1 && n > 1) {
        return Err(format!(
            "--stars {m}: a {n}x{n} grid holds at most {} per line",
            (n + 1) / 4
        ));
    }
    if outside + n * m > n * n {
        return Err(format!(
            "--outside {outside}: more than the cells without a star"
        ));
    }
    let mut rng = Rng::new(seed);
    for _restart in 0..50 {
        let stars = plant(n, m, &mut rng)?;
        let Some(mut p) = regions(n, m, outside, &stars, &mut rng) else {
            continue;
        };
        p.name = format!("starbattle_{n}x{n}_m{m}_s{seed}");
        for _ in 0..tries {
            match other_solution(&p, &stars)? {
                None => {
                    p.solution = Some(stars.clone());
                    let mut text = format!(
                        "# puzzlebench generate starbattle --size {n} --stars {m} --outside {outside} --seed {seed}: unique (window on sat)\n"
                    );
                    text.push_str(&p.to_text());
                    text.push_str("solution\n");
                    text.push_str(&StarBattle::draw(&stars).join("\n"));
                    text.push('\n');
                    return Ok(text);
                }
                Some(other) => {
                    if !move_a_cell(&mut p, &stars, &other, &mut rng) {
                        break;
                    }
                }
            }
        }
    }
    Err(format!("no unique {n}x{n} puzzle with {m} stars found in 50 starts; try another --seed or more --tries"))
}

/// A random grid with m stars per row and column, none touching.
fn plant(n: usize, m: usize, rng: &mut Rng) -> Result<Vec<Vec<bool>>, String> {
    let mut model = Model::new("starbattle_plant");
    model.sense = Sense::Maximize;
    let x: Vec<Vec<_>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let w = rng.below(1000) as f64;
                    model.add_var(
                        Name::idx("x", &[i + 1, j + 1]),
                        VarKind::Binary,
                        0.0,
                        1.0,
                        w,
                    )
                })
                .collect()
        })
        .collect();
    for (i, row) in x.iter().enumerate() {
        model.add_eq(
            Name::idx("row", &[i + 1]),
            row.iter().map(|&v| (v, 1.0)),
            m as f64,
        );
        model.add_eq(
            Name::idx("col", &[i + 1]),
            x.iter().map(|r| (r[i], 1.0)),
            m as f64,
        );
    }
    for i in 0..n.saturating_sub(1) {
        for j in 0..n.saturating_sub(1) {
            let t = [
                (x[i][j], 1.0),
                (x[i + 1][j], 1.0),
                (x[i][j + 1], 1.0),
                (x[i + 1][j + 1], 1.0),
            ];
            model.add_le(Name::idx("window", &[i + 1, j + 1]), t, 1.0);
        }
    }
    let opts = SolveOptions {
        lp_relaxation: false,
        mip_gap: 0.5,
        ..SolveOptions::default()
    };
    let o = HIGHS.solve_model(&model, &opts);
    let v = o
        .values
        .filter(|_| o.status.has_solution())
        .ok_or_else(|| format!("no {n}x{n} grid holds {m} stars per line ({})", o.status))?;
    Ok(x.iter()
        .map(|r| r.iter().map(|c| v[c.0] > 0.5).collect())
        .collect())
}

/// Regions grown around groups of m stars (None: a group could not be joined).
fn regions(
    n: usize,
    m: usize,
    outside: usize,
    stars: &[Vec<bool>],
    rng: &mut Rng,
) -> Option<StarBattle> {
    let mut region: Vec<Vec<Option<usize>>> = vec![vec![None; n]; n];
    let mut blocked = vec![vec![false; n]; n];
    let mut free: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| !stars[i][j])
        .collect();
    rng.shuffle(&mut free);
    for &(i, j) in free.iter().take(outside) {
        blocked[i][j] = true;
    }
    let mut left: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| stars[i][j])
        .collect();
    rng.shuffle(&mut left);
    let mut k = 0;
    while let Some(first) = left.pop() {
        region[first.0][first.1] = Some(k);
        for _ in 1..m {
            // The nearest ungrouped star, joined by a shortest path through free cells.
            left.sort_by_key(|&(a, b)| {
                std::cmp::Reverse(a.abs_diff(first.0) + b.abs_diff(first.1))
            });
            let target = left.pop()?;
            let path = path_to(&region, &blocked, stars, k, target)?;
            for (a, b) in path {
                region[a][b] = Some(k);
            }
        }
        k += 1;
    }
    // Grow: random regions take random free neighbours.
    loop {
        let mut frontier = Vec::new();
        for i in 0..n {
            for j in 0..n {
                if region[i][j].is_none() && !blocked[i][j] {
                    for (a, b) in neighbours(n, i, j) {
                        if let Some(r) = region[a][b] {
                            frontier.push((i, j, r));
                        }
                    }
                }
            }
        }
        if frontier.is_empty() {
            break;
        }
        let (i, j, r) = frontier[rng.below(frontier.len())];
        region[i][j] = Some(r);
    }
    let letters: Vec<char> = ('A'..='Z')
        .chain('a'..='z')
        .chain('0'..='9')
        .take(k)
        .collect();
    if letters.len() < k {
        return None;
    }
    Some(StarBattle {
        name: String::new(),
        stars: m,
        row_stars: m,
        col_stars: m,
        regions: region,
        letters,
        solution: None,
    })
}

/// A shortest path from region `k` to `target` through cells of no region, not set
/// aside and without a star (but the target): the cells to add, target included.
fn path_to(
    region: &[Vec<Option<usize>>],
    blocked: &[Vec<bool>],
    stars: &[Vec<bool>],
    k: usize,
    target: (usize, usize),
) -> Option<Vec<(usize, usize)>> {
    let n = region.len();
    let mut prev: Vec<Vec<Option<(usize, usize)>>> = vec![vec![None; n]; n];
    let mut seen = vec![vec![false; n]; n];
    let mut queue = VecDeque::new();
    for i in 0..n {
        for j in 0..n {
            if region[i][j] == Some(k) {
                seen[i][j] = true;
                queue.push_back((i, j));
            }
        }
    }
    while let Some((i, j)) = queue.pop_front() {
        if (i, j) == target {
            let mut out = vec![(i, j)];
            let mut at = (i, j);
            while let Some(p) = prev[at.0][at.1] {
                if region[p.0][p.1] == Some(k) {
                    break;
                }
                out.push(p);
                at = p;
            }
            return Some(out);
        }
        for (a, b) in neighbours(n, i, j) {
            let open =
                (a, b) == target || (region[a][b].is_none() && !blocked[a][b] && !stars[a][b]);
            if !seen[a][b] && open {
                seen[a][b] = true;
                prev[a][b] = Some((i, j));
                queue.push_back((a, b));
            }
        }
    }
    None
}

/// The edge neighbours of (i, j) on an n×n grid.
fn neighbours(n: usize, i: usize, j: usize) -> impl Iterator<Item = (usize, usize)> {
    [(0isize, 1isize), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .filter_map(move |(di, dj)| {
            let (a, b) = (i as isize + di, j as isize + dj);
            ((0..n as isize).contains(&a) && (0..n as isize).contains(&b))
                .then_some((a as usize, b as usize))
        })
}

/// A solution of `p` other than `planted`, if one exists (the window model with the
/// planted solution's no-good row, on the SAT engine).
fn other_solution(p: &StarBattle, planted: &[Vec<bool>]) -> Result<Option<Vec<Vec<bool>>>, String> {
    let (mut model, cells) = window::build(p);
    let n = p.height();
    let on: Vec<_> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| planted[i][j])
        .map(|(i, j)| (cells.at(i, j), 1.0))
        .collect();
    let upper = on.len() as f64 - 1.0;
    model.add_le(Name::Text("planted".into()), on, upper);
    let opts = SolveOptions {
        lp_relaxation: false,
        time_limit: Some(60.0),
        ..SolveOptions::default()
    };
    let o = SAT.solve_model(&model, &opts);
    match o.status {
        Status::Infeasible => Ok(None),
        s if s.has_solution() => Ok(o.values.map(|v| cells.decode(&v))),
        s => Err(format!("the uniqueness check ended {s}: {:?}", o.message)),
    }
}

/// Moves a cell where `other` has a star and `planted` none into a neighbouring region,
/// keeping every region connected; false when no such move exists.
fn move_a_cell(
    p: &mut StarBattle,
    planted: &[Vec<bool>],
    other: &[Vec<bool>],
    rng: &mut Rng,
) -> bool {
    let n = p.height();
    let mut moves = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let Some(own) = p.regions[i][j] else { continue };
            if !other[i][j] || planted[i][j] {
                continue;
            }
            for (a, b) in neighbours(n, i, j) {
                if let Some(r) = p.regions[a][b] {
                    if r != own {
                        moves.push((i, j, r));
                    }
                }
            }
        }
    }
    rng.shuffle(&mut moves);
    for (i, j, r) in moves {
        let own = p.regions[i][j];
        p.regions[i][j] = Some(r);
        if own.is_some_and(|k| connected(p, k)) {
            return true;
        }
        p.regions[i][j] = own;
    }
    false
}

/// Whether region `k` is one piece (edge neighbours), and not empty.
fn connected(p: &StarBattle, k: usize) -> bool {
    let n = p.height();
    let cells: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| p.regions[i][j] == Some(k))
        .collect();
    let Some(&start) = cells.first() else {
        return false;
    };
    let mut seen = vec![vec![false; n]; n];
    seen[start.0][start.1] = true;
    let mut queue = VecDeque::from([start]);
    let mut count = 1;
    while let Some((i, j)) = queue.pop_front() {
        for (a, b) in neighbours(n, i, j) {
            if !seen[a][b] && p.regions[a][b] == Some(k) {
                seen[a][b] = true;
                count += 1;
                queue.push_back((a, b));
            }
        }
    }
    count == cells.len()
}
