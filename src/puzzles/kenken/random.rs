//! Random KenKen puzzles for tests and benchmarks: a random Latin square, cages grown from
//! random cells over their neighbours, each cage's clue computed from the square. Such a
//! puzzle has at least that square as a solution, often more (it is not a Keen puzzle:
//! nothing makes it unique); `tests/kenken.rs` compares them with a brute force and
//! `benches/kenken_log_guard.rs` feeds them to the log model.

use super::{Cage, KenKen, Op};
use crate::rng::Rng;

/// The operations a random puzzle's cages may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ops {
    /// + and × for any cage; − and ÷ (where the quotient is whole) for two cells.
    All,
    /// × only.
    Mul,
}

/// What to make.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// The side n.
    pub n: usize,
    /// The most cells of a cage (a cage stops growing earlier when it is walled in).
    pub max_cage: usize,
    /// Each cage takes exactly `max_cage` cells where it can, rather than 1..=max_cage.
    pub full_cages: bool,
    /// The chance of each cell to be a given (a one-cell cage) before the cages grow.
    pub given: f64,
    /// The operations.
    pub ops: Ops,
}

/// A random puzzle of `shape` and the square its clues were computed from.
pub fn puzzle(rng: &mut Rng, shape: Shape) -> (KenKen, Vec<Vec<u32>>) {
    let n = shape.n;
    // A cyclic Latin square with its rows, columns and symbols shuffled.
    let mut rows: Vec<usize> = (0..n).collect();
    let mut cols: Vec<usize> = (0..n).collect();
    let mut syms: Vec<u32> = (1..=n as u32).collect();
    rng.shuffle(&mut rows);
    rng.shuffle(&mut cols);
    rng.shuffle(&mut syms);
    let square: Vec<Vec<u32>> = (0..n)
        .map(|i| (0..n).map(|j| syms[(rows[i] + cols[j]) % n]).collect())
        .collect();
    let mut owner = vec![vec![usize::MAX; n]; n];
    let mut groups: Vec<Vec<(usize, usize)>> = Vec::new();
    for (i, row) in owner.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            if (rng.below(1_000_000) as f64) < shape.given * 1e6 {
                *cell = groups.len();
                groups.push(vec![(i, j)]);
            }
        }
    }
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    for start in order {
        let (i, j) = (start / n, start % n);
        if owner[i][j] != usize::MAX {
            continue;
        }
        let size = if shape.full_cages {
            shape.max_cage
        } else {
            1 + rng.below(shape.max_cage)
        };
        let c = groups.len();
        owner[i][j] = c;
        let mut cells = vec![(i, j)];
        while cells.len() < size {
            let free: Vec<(usize, usize)> = cells
                .iter()
                .flat_map(|&(a, b)| {
                    [
                        (a.wrapping_sub(1), b),
                        (a + 1, b),
                        (a, b.wrapping_sub(1)),
                        (a, b + 1),
                    ]
                })
                .filter(|&(a, b)| a < n && b < n && owner[a][b] == usize::MAX)
                .collect();
            if free.is_empty() {
                break;
            }
            let (a, b) = free[rng.below(free.len())];
            owner[a][b] = c;
            cells.push((a, b));
        }
        groups.push(cells);
    }
    let cages = groups
        .into_iter()
        .map(|mut cells| {
            cells.sort_unstable();
            let values: Vec<u64> = cells
                .iter()
                .map(|&(a, b)| u64::from(square[a][b]))
                .collect();
            let (hi, lo) = (
                values[0].max(values[values.len() - 1]),
                values[0].min(values[values.len() - 1]),
            );
            let (op, target) = match (cells.len(), shape.ops, rng.below(4)) {
                (1, _, _) => (Op::Given, values[0]),
                (_, Ops::Mul, _) => (Op::Mul, values.iter().product()),
                (2, Ops::All, 0) => (Op::Sub, hi - lo),
                (2, Ops::All, 1) if hi % lo == 0 => (Op::Div, hi / lo),
                (_, Ops::All, 2) => (Op::Mul, values.iter().product()),
                _ => (Op::Add, values.iter().sum()),
            };
            Cage { op, target, cells }
        })
        .collect();
    (
        KenKen {
            name: "random".into(),
            n,
            cages,
        },
        square,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_square_solves_the_puzzle() {
        let mut rng = Rng::new(3);
        for (n, ops, given) in [(4, Ops::All, 0.0), (6, Ops::Mul, 0.3), (9, Ops::All, 0.5)] {
            let shape = Shape {
                n,
                max_cage: 4,
                full_cages: false,
                given,
                ops,
            };
            let (p, square) = puzzle(&mut rng, shape);
            assert_eq!(super::super::verify::check(&p, &square), Ok(()));
            if ops == Ops::Mul {
                assert!(p.cages.iter().all(|c| matches!(c.op, Op::Mul | Op::Given)));
            }
        }
    }
}
