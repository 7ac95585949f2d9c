//! A generator of dense Hashi boards (`puzzlebench generate hashi`), for sizes Simon
//! Tatham's generator does not reach in reasonable time (it lays about 160 islands on a
//! 50×50 grid in 13 s and fewer on 60×60; the benchmark of Coelho et al. has boards of
//! 400 islands).
//!
//! It grows a solution: the first island goes on a random cell; then, over and over, a
//! random island and a random direction are drawn and the free cells in that direction
//! are walked until the edge, an island or a bridge. With probability `extra`, when the
//! walk ends at an island not yet joined to the first one, the two are joined (this makes
//! cycles); otherwise a new island goes on one of the free cells, nearer ones more likely
//! (so boards are dense), joined by 1 to `max_bridges` bridges. Bridges never cross,
//! because islands and bridges only go on free cells. Labels are the bridge counts, so the
//! grown solution solves the board; unlike Tatham's boards, a generated board may have
//! other solutions too. The generator is deterministic for a seed (its own SplitMix64).

use super::{Hashi, Island};
use crate::generate::{Generator, Param, Params as GenParams};
use crate::rng::Rng;

/// `puzzlebench generate hashi`.
pub static GENERATOR: Generator = Generator {
    about: "Hashi: grow a random solution on the grid (new islands, and with probability \
            --extra bridges between existing ones) and print its labels. Solvable by \
            construction, not always uniquely.",
    params: &[
        Param::ROWS,
        Param::value("cols", "C", "Columns of the grid (default: as many as rows)"),
        Param::value("islands", "N", "Islands wanted (fewer when no more fit)"),
        Param::defaulted("max-bridges", "M", "2", "Most bridges per pair, 1 to 4"),
        Param::defaulted("extra", "P", "0.2", "Probability of joining two existing islands instead of laying a new one (makes cycles)"),
        Param::defaulted("format", "FORMAT", "id", "Output format: id (Tatham game IDs, one per line) or has (the .has format: one board, at most 2 bridges per pair)"),
    ],
    make,
    separator: crate::generate::concatenated,
};

/// One board of `puzzlebench generate hashi`.
fn make(params: &GenParams, seed: u64) -> Result<String, String> {
    let rows: usize = params.need("rows")?;
    let p = Params {
        rows,
        cols: params.get("cols")?.unwrap_or(rows),
        islands: params.need("islands")?,
        max_bridges: params.need("max-bridges")?,
        extra: params.need("extra")?,
        seed,
    };
    let format = params.text("format").unwrap_or("id");
    if format == "has" && params.get::<u64>("count")?.unwrap_or(1) != 1 {
        return Err("--format has writes one board; use --count 1".into());
    }
    let (board, _) = generate(&p)?;
    match format {
        "id" => Ok(format!("{}\n", board.to_game_id())),
        "has" => to_has(&board),
        other => Err(format!("--format {other}: id or has")),
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// Islands wanted (the generator stops early when no island fits).
    pub islands: usize,
    /// Most bridges per pair, 1 to 4.
    pub max_bridges: u32,
    /// Probability of joining two existing islands instead of laying a new one, 0 to 1.
    pub extra: f64,
    /// Seed of the random numbers.
    pub seed: u64,
}

const FREE: u8 = 0;
const ISLAND: u8 = 1;
const BRIDGE: u8 = 2;

/// Generates a board and the solution it was grown from (`[r1, c1, r2, c2, count]`).
pub fn generate(p: &Params) -> Result<(Hashi, Vec<[usize; 5]>), String> {
    if p.rows == 0
        || p.cols == 0
        || p.rows > super::parse::MAX_SIDE
        || p.cols > super::parse::MAX_SIDE
    {
        return Err(format!("grid {}x{} is empty or too large", p.rows, p.cols));
    }
    if p.islands < 2 || p.islands > p.rows * p.cols {
        return Err(format!(
            "islands must be 2 to {} (the cells of the grid), not {}",
            p.rows * p.cols,
            p.islands
        ));
    }
    if !(1..=4).contains(&p.max_bridges) {
        return Err(format!("max bridges must be 1 to 4, not {}", p.max_bridges));
    }
    if !(0.0..=1.0).contains(&p.extra) {
        return Err(format!("extra must be between 0 and 1, not {}", p.extra));
    }
    let (rows, cols) = (p.rows as isize, p.cols as isize);
    let mut rng = Rng::new(p.seed);
    let mut cell = vec![FREE; p.rows * p.cols];
    let mut owner = vec![usize::MAX; p.rows * p.cols];
    let mut at: Vec<(isize, isize)> = Vec::new();
    let mut bridges: Vec<(usize, usize, usize)> = Vec::new();
    let mut joined = std::collections::HashSet::new();
    let idx = |r: isize, c: isize| (r * cols + c) as usize;
    let start = (
        rng.below_mod(p.rows) as isize,
        rng.below_mod(p.cols) as isize,
    );
    cell[idx(start.0, start.1)] = ISLAND;
    owner[idx(start.0, start.1)] = 0;
    at.push(start);
    let mut failures = 0usize;
    let patience = 50 * p.islands + 1000;
    while at.len() < p.islands && failures < patience {
        let i = rng.below_mod(at.len());
        let (dr, dc) = [(0, 1), (1, 0), (0, -1), (-1, 0)][rng.below_mod(4)];
        let (r0, c0) = at[i];
        let mut free = Vec::new();
        let (mut r, mut c) = (r0 + dr, c0 + dc);
        while r >= 0 && r < rows && c >= 0 && c < cols && cell[idx(r, c)] == FREE {
            free.push((r, c));
            r += dr;
            c += dc;
        }
        let end = (r >= 0 && r < rows && c >= 0 && c < cols && cell[idx(r, c)] == ISLAND)
            .then(|| owner[idx(r, c)]);
        let count = 1 + rng.below_mod(p.max_bridges as usize);
        if rng.unit() < p.extra {
            match end {
                Some(j) if joined.insert((i.min(j), i.max(j))) => {
                    for &(r, c) in &free {
                        cell[idx(r, c)] = BRIDGE;
                    }
                    bridges.push((i, j, count));
                    failures = 0;
                }
                _ => failures += 1,
            }
            continue;
        }
        if free.is_empty() {
            failures += 1;
            continue;
        }
        // Nearer cells more likely: the square of a uniform number favours small steps.
        let u = rng.unit();
        let d = ((u * u) * free.len() as f64) as usize;
        let (nr, nc) = free[d.min(free.len() - 1)];
        for &(r, c) in &free[..d.min(free.len() - 1)] {
            cell[idx(r, c)] = BRIDGE;
        }
        let j = at.len();
        cell[idx(nr, nc)] = ISLAND;
        owner[idx(nr, nc)] = j;
        at.push((nr, nc));
        joined.insert((i.min(j), i.max(j)));
        bridges.push((i, j, count));
        failures = 0;
    }
    let mut label = vec![0u32; at.len()];
    for &(i, j, n) in &bridges {
        label[i] += n as u32;
        label[j] += n as u32;
    }
    let mut islands: Vec<Island> = at
        .iter()
        .zip(&label)
        .map(|(&(r, c), &l)| Island {
            row: r as usize,
            col: c as usize,
            label: l,
        })
        .collect();
    islands.sort();
    let solution = bridges
        .iter()
        .map(|&(i, j, n)| {
            let (a, b) = (at[i].min(at[j]), at[i].max(at[j]));
            [a.0 as usize, a.1 as usize, b.0 as usize, b.1 as usize, n]
        })
        .collect();
    let board = Hashi {
        name: format!("gen_{}x{}_{}_s{}", p.rows, p.cols, islands.len(), p.seed),
        rows: p.rows,
        cols: p.cols,
        max_bridges: p.max_bridges,
        islands,
    };
    Ok((board, solution))
}

/// The board in the `.has` format (only for at most 2 bridges per pair and labels up to 8).
pub fn to_has(h: &Hashi) -> Result<String, String> {
    if h.max_bridges != 2 || h.islands.iter().any(|i| i.label > 8) {
        return Err("the .has format holds boards with at most 2 bridges per pair".into());
    }
    let mut g = vec![vec![0u32; h.cols]; h.rows];
    for i in &h.islands {
        g[i.row][i.col] = i.label;
    }
    let mut s = format!("{} {} {}\n", h.rows, h.cols, h.islands.len());
    for row in g {
        let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        s.push_str(&cells.join(" "));
        s.push('\n');
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::hashi::verify;

    #[test]
    fn grown_solutions_verify() {
        for seed in 0..30 {
            let p = Params {
                rows: 12,
                cols: 9,
                islands: 30,
                max_bridges: 1 + (seed % 4) as u32,
                extra: 0.3,
                seed,
            };
            let (h, sol) = generate(&p).unwrap();
            assert!(h.islands.len() >= 10, "seed {seed}: {}", h.islands.len());
            assert_eq!(verify::check(&h, &sol), Ok(()), "seed {seed}");
            let again = generate(&p).unwrap();
            assert_eq!(again.0, h, "deterministic");
        }
    }

    #[test]
    fn dense_boards_reach_their_target() {
        let p = Params {
            rows: 36,
            cols: 36,
            islands: 400,
            max_bridges: 2,
            extra: 0.2,
            seed: 1,
        };
        let (h, sol) = generate(&p).unwrap();
        assert_eq!(h.islands.len(), 400);
        assert_eq!(verify::check(&h, &sol), Ok(()));
        let text = to_has(&h).unwrap();
        let back = crate::puzzles::hashi::parse::parse_has(&text).unwrap();
        assert_eq!(back.islands, h.islands);
    }

    #[test]
    fn bad_parameters() {
        let mut p = Params {
            rows: 5,
            cols: 5,
            islands: 30,
            max_bridges: 2,
            extra: 0.0,
            seed: 0,
        };
        assert!(generate(&p).unwrap_err().contains("islands"));
        p.islands = 5;
        p.max_bridges = 5;
        assert!(generate(&p).unwrap_err().contains("max bridges"));
    }
}
