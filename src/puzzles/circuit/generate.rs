//! Random Circuit Board puzzles.
//!
//! 1. Grow a random tree with degrees 1 and 3 on the grid: start from a random link
//!    between two neighbouring cells; then, while the tree has fewer than the wanted
//!    number of points, take a leaf and join it to two free neighbouring cells (the leaf
//!    gets degree 3, the two new cells are leaves; a tree grown this way always has an
//!    even number of points). Among the possible moves the one whose two new cells have the
//!    fewest free neighbours is taken, ties broken at random, so that cells about to be
//!    cut off are taken first (the rule of Warnsdorff's knight's-tour heuristic). When no
//!    move is left before the tree is big enough, start again (up to `attempts` times;
//!    the second half of the tries take any move at random, which reaches trees the rule
//!    never makes, such as 8 points on 3×3).
//! 2. Every cell the tree does not reach is blacked out.
//! 3. A random `given` share of the tree's links is given.
//! 4. With `endpoints`, two points at least half the grid's width plus height apart (in
//!    grid steps) become S and T.
//! 5. Optionally, uniqueness is checked by solving `cm1` again with a row that excludes the
//!    tree (Σ_{e in tree} x_e ≤ |V| − 2) and recorded as `unique yes|no`.
//!
//! The difficulty knobs are the share of blacked-out cells (fewer points, fewer choices)
//! and the share of given links (more givens, fewer solutions). The same options and seed
//! give the same board (with the versions in Cargo.lock).

use super::{Cell, Circuit, Link};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use crate::generate::{Generator, Param, Params};

/// `puzzlebench generate circuit`.
pub static GENERATOR: Generator = Generator {
    about: "Circuit Board: grow a random tree with degrees 1 and 3 on the grid, black out the \
            cells it misses, give a share of its links; the tree is written as the solution.\n\n\
            Uniqueness is checked with cm1 on bc (a second solve that excludes the tree) and \
            recorded as `unique yes|no` (left out when --unique-time does not decide it).",
    params: &[
        Param::value("size", "K", "Rows and columns of a square grid (or give --rows and --cols)"),
        Param::ROWS,
        Param::COLS,
        Param::value("blocked", "P", "Share of cells blacked out, 0 to 1 (the points are the even number nearest to the rest; default 0.05)"),
        Param::value("points", "N", "Number of points instead of --blocked (even)"),
        Param::defaulted("given", "G", "0.15", "Share of the tree's links that are given, 0 to 1"),
        Param::flag("endpoints", "Also mark two endpoints S and T (the shortest-path variant, cm3)"),
        Param::defaulted("unique-time", "S", "60", "Seconds the uniqueness check of each board may take (0: no check)"),
        Param::value("name", "PREFIX", "Name prefix (default: cRxC); boards are named PREFIX_SEED"),
    ],
    make,
    separator: crate::generate::concatenated,
};

/// One board of `puzzlebench generate circuit`, with the command that makes it.
fn make(params: &Params, seed: u64) -> Result<String, String> {
    let (rows, cols) = match (
        params.get::<usize>("size")?,
        params.get::<usize>("rows")?,
        params.get::<usize>("cols")?,
    ) {
        (Some(k), None, None) => (k, k),
        (None, Some(r), Some(c)) => (r, c),
        _ => return Err("give --size K, or --rows R and --cols C".into()),
    };
    if rows == 0 || cols == 0 {
        return Err("the grid needs at least one row and one column".into());
    }
    let points = match (
        params.get::<f64>("blocked")?,
        params.get::<usize>("points")?,
    ) {
        (Some(_), Some(_)) => return Err("give --blocked or --points, not both".into()),
        (None, Some(n)) => n,
        (blocked, None) => {
            let b = blocked.unwrap_or(0.05);
            if !(0.0..=1.0).contains(&b) {
                return Err(format!("--blocked {b}: a share from 0 to 1"));
            }
            Options::points_for(rows, cols, b)
        }
    };
    let given: f64 = params.need("given")?;
    let unique_time: f64 = params.need("unique-time")?;
    let endpoints = params.flag("endpoints");
    let prefix = params
        .text("name")
        .map_or_else(|| format!("c{rows}x{cols}"), String::from);
    let mut command = format!(
        "puzzlebench generate circuit --rows {rows} --cols {cols} --points {points} --given {given}"
    );
    if endpoints {
        command.push_str(" --endpoints");
    }
    if let Some(name) = params.text("name") {
        command.push_str(&format!(" --name {name}"));
    }
    let o = Options {
        rows,
        cols,
        points,
        given,
        endpoints,
        seed,
        attempts: 10_000,
        name: format!("{prefix}_{seed}"),
    };
    let mut p = generate(&o)?;
    if unique_time > 0.0 {
        p.unique = is_unique(&p, unique_time)?;
    }
    Ok(format!("# {command} --seed {seed}\n{}\n", p.to_text()))
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// The number of points wanted (even, at least 2, at most rows·cols); the other
    /// cells are blacked out.
    pub points: usize,
    /// Share of the tree's links that are given, from 0 to 1.
    pub given: f64,
    /// Also name two endpoints S and T for the shortest-path variant.
    pub endpoints: bool,
    /// Random seed.
    pub seed: u64,
    /// Restarts of the growth before giving up.
    pub attempts: usize,
    /// Name of the board.
    pub name: String,
}

impl Options {
    /// The number of points for a share `blocked` of blacked-out cells: the even number
    /// nearest to (1 − blocked)·rows·cols, at least 2.
    pub fn points_for(rows: usize, cols: usize, blocked: f64) -> usize {
        let want = (1.0 - blocked.clamp(0.0, 1.0)) * (rows * cols) as f64;
        let even = 2 * ((want / 2.0).round() as usize);
        even.clamp(2, rows * cols - (rows * cols) % 2)
    }
}

/// Generates one board (its tree recorded as `solution`; `unique` left unknown).
pub fn generate(o: &Options) -> Result<Circuit, String> {
    if o.rows * o.cols < 2 {
        return Err("the grid needs at least two cells".into());
    }
    if o.points < 2 || o.points % 2 == 1 || o.points > o.rows * o.cols {
        return Err(format!(
            "{} points: a tree with degrees 1 and 3 has an even number of points, from 2 to the {} cells",
            o.points,
            o.rows * o.cols
        ));
    }
    if !(0.0..=1.0).contains(&o.given) {
        return Err(format!("--given {}: a share from 0 to 1", o.given));
    }
    let mut rng = StdRng::seed_from_u64(o.seed);
    let attempts = o.attempts.max(2);
    for k in 0..attempts {
        // The first half of the tries follow the rule; the second half grow uniformly at
        // random, which reaches trees the rule never makes (8 points on 3x3).
        if let Some(tree) = grow(o, &mut rng, k < attempts / 2) {
            return Ok(finish(o, tree, &mut rng));
        }
    }
    Err(format!(
        "no tree of {} points on {}x{} in {} random tries; black out more cells",
        o.points, o.rows, o.cols, o.attempts
    ))
}

/// The grid's four neighbours of a cell.
fn neighbours(o: &Options, (r, c): Cell) -> impl Iterator<Item = Cell> + '_ {
    let up = r.checked_sub(1).map(|r| (r, c));
    let left = c.checked_sub(1).map(|c| (r, c));
    let down = (r + 1 < o.rows).then_some((r + 1, c));
    let right = (c + 1 < o.cols).then_some((r, c + 1));
    [up, left, down, right].into_iter().flatten()
}

/// One growth of a tree to `o.points` points; `None` when it gets stuck.
fn grow(o: &Options, rng: &mut StdRng, warnsdorff: bool) -> Option<Vec<Link>> {
    let mut used = vec![false; o.rows * o.cols];
    let mut degree = vec![0u8; o.rows * o.cols];
    let at = |(r, c): Cell| r * o.cols + c;
    let start = (rng.random_range(0..o.rows), rng.random_range(0..o.cols));
    let first: Vec<Cell> = neighbours(o, start).collect();
    let &next = first.choose(rng)?;
    let mut links = vec![Link::new(start, next).expect("neighbours")];
    let mut leaves = vec![start, next];
    for c in [start, next] {
        used[at(c)] = true;
        degree[at(c)] = 1;
    }
    let mut points = 2;
    while points < o.points {
        let free_degree =
            |c: Cell, used: &[bool]| neighbours(o, c).filter(|&n| !used[at(n)]).count();
        let mut best: Vec<(Cell, Cell, Cell)> = Vec::new();
        let mut best_score = usize::MAX;
        for &u in &leaves {
            let free: Vec<Cell> = neighbours(o, u).filter(|&n| !used[at(n)]).collect();
            for i in 0..free.len() {
                for j in i + 1..free.len() {
                    let score = if warnsdorff {
                        free_degree(free[i], &used) + free_degree(free[j], &used)
                    } else {
                        0
                    };
                    if score < best_score {
                        best_score = score;
                        best.clear();
                    }
                    if score == best_score {
                        best.push((u, free[i], free[j]));
                    }
                }
            }
        }
        let &(u, a, b) = best.choose(rng)?;
        for c in [a, b] {
            used[at(c)] = true;
            degree[at(c)] = 1;
            links.push(Link::new(u, c).expect("neighbours"));
            leaves.push(c);
        }
        degree[at(u)] = 3;
        leaves.retain(|&l| degree[at(l)] == 1);
        points += 2;
    }
    let _ = used;
    links.sort();
    Some(links)
}

/// Blacks out the cells the tree missed, picks the given links and the endpoints.
fn finish(o: &Options, tree: Vec<Link>, rng: &mut StdRng) -> Circuit {
    let mut blocked = vec![true; o.rows * o.cols];
    for &Link(a, b) in &tree {
        blocked[a.0 * o.cols + a.1] = false;
        blocked[b.0 * o.cols + b.1] = false;
    }
    let count = (o.given * tree.len() as f64).round() as usize;
    let mut given: Vec<Link> = tree.sample(rng, count).copied().collect();
    given.sort();
    let endpoints = o.endpoints.then(|| {
        let points: Vec<Cell> = (0..o.rows)
            .flat_map(|r| (0..o.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| !blocked[r * o.cols + c])
            .collect();
        let far = (o.rows + o.cols) / 2;
        let pairs: Vec<(Cell, Cell)> = points
            .iter()
            .flat_map(|&s| points.iter().map(move |&t| (s, t)))
            .filter(|&(s, t)| s < t && s.0.abs_diff(t.0) + s.1.abs_diff(t.1) >= far)
            .collect();
        *pairs
            .choose(rng)
            .unwrap_or(&(points[0], points[points.len() - 1]))
    });
    Circuit {
        name: o.name.clone(),
        rows: o.rows,
        cols: o.cols,
        blocked,
        given,
        endpoints,
        unique: None,
        solution: Some(tree),
    }
}

/// Whether `p`'s recorded solution is its only one: `cm1` is solved again (on `bc`) with the row
/// Σ_{e in the solution} x_e ≤ |V| − 2, which every other tree satisfies and this one does
/// not. `Some(true)` when that is infeasible, `Some(false)` when another tree is found,
/// `None` when `time_limit` seconds do not decide it.
pub fn is_unique(p: &Circuit, time_limit: f64) -> Result<Option<bool>, String> {
    use super::cm1::{self, Subtours};
    use super::graph::Graph;
    use crate::engines::{bc, Budget, Kind, Problem, SolveOptions, Status};
    use crate::lazy::SearchHints;
    let tree = p
        .solution
        .as_ref()
        .ok_or("the board has no solution to compare with")?;
    let g = Graph::new(p);
    let (mut model, cols) = cm1::build(&g);
    let known: Vec<_> = (0..g.edges.len())
        .filter(|&e| tree.binary_search(&g.link(e)).is_ok())
        .map(|e| (cols.x[e], 1.0))
        .collect();
    model.add_le("exclude_known", known, g.n() as f64 - 2.0);
    let mut sep = Subtours::new(&g, cols.x);
    let settings = bc::BC.settings(Kind::LazyRows, &SolveOptions::default());
    let outcome = bc::BC.solve(
        Problem::LazyRows(&mut model, &mut sep, SearchHints::default()),
        &settings,
        &Budget::new(Some(time_limit)),
    );
    match outcome.status {
        Status::Infeasible => Ok(Some(true)),
        Status::Optimal | Status::Feasible => Ok(Some(false)),
        Status::TimeLimit => Ok(None),
        Status::Error | Status::Refused => Err(format!(
            "the uniqueness check failed: {}",
            outcome.message.unwrap_or_default()
        )),
    }
}
