//! The independent KenKen checker: reads only the instance and a filled grid, never
//! formulation code, and computes every cage with exact integer arithmetic. A grid is
//! accepted when it is n×n, every cell holds 1..=n, every row and column holds each value
//! once, and every cage meets its clue: the values add up (+) or multiply (×) to the
//! target, the two values differ by it (−), or the larger is the target times the smaller
//! (÷); a one-cell cage holds its target.

use super::{KenKen, Op};

/// `Ok(())` when `grid` solves `puzzle`, else the first broken rule.
pub fn check(puzzle: &KenKen, grid: &[Vec<u32>]) -> Result<(), String> {
    let n = puzzle.n;
    if grid.len() != n || grid.iter().any(|r| r.len() != n) {
        return Err(format!("grid is not {n}x{n}"));
    }
    for (i, row) in grid.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if v < 1 || v as usize > n {
                return Err(format!("cell ({},{}) holds {v}, not 1..{n}", i + 1, j + 1));
            }
        }
    }
    for i in 0..n {
        let mut seen = vec![false; n + 1];
        for j in 0..n {
            if std::mem::replace(&mut seen[grid[i][j] as usize], true) {
                return Err(format!("row {} repeats {}", i + 1, grid[i][j]));
            }
        }
    }
    for j in 0..n {
        let mut seen = vec![false; n + 1];
        for row in grid {
            if std::mem::replace(&mut seen[row[j] as usize], true) {
                return Err(format!("column {} repeats {}", j + 1, row[j]));
            }
        }
    }
    let mut covered = vec![vec![false; n]; n];
    for cage in &puzzle.cages {
        let values: Vec<u128> = cage
            .cells
            .iter()
            .map(|&(i, j)| u128::from(grid[i][j]))
            .collect();
        for &(i, j) in &cage.cells {
            covered[i][j] = true;
        }
        let t = u128::from(cage.target);
        let ok = match cage.op {
            Op::Given => values.len() == 1 && values[0] == t,
            Op::Add => values.iter().sum::<u128>() == t,
            Op::Mul => {
                let mut p: u128 = 1;
                let mut fits = true;
                for v in &values {
                    match p.checked_mul(*v) {
                        Some(q) => p = q,
                        None => fits = false,
                    }
                }
                fits && p == t
            }
            Op::Sub => values.len() == 2 && values[0].abs_diff(values[1]) == t,
            Op::Div => {
                values.len() == 2 && {
                    let (lo, hi) = (values[0].min(values[1]), values[0].max(values[1]));
                    hi == lo * t
                }
            }
        };
        if !ok {
            let (i, j) = cage.cells[0];
            let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            return Err(format!(
                "the cage {} at ({},{}) holds {}",
                cage.clue(),
                i + 1,
                j + 1,
                shown.join(", ")
            ));
        }
    }
    if let Some((i, j)) = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .find(|&(i, j)| !covered[i][j])
    {
        return Err(format!("cell ({},{}) is in no cage", i + 1, j + 1));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::Cage;
    use super::*;

    /// 3×3 with every operation.
    fn puzzle() -> (KenKen, Vec<Vec<u32>>) {
        let grid = vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]];
        let cage = |op, target, cells: &[(usize, usize)]| Cage {
            op,
            target,
            cells: cells.to_vec(),
        };
        let k = KenKen {
            name: "t".into(),
            n: 3,
            cages: vec![
                cage(Op::Add, 3, &[(0, 0), (0, 1)]),
                cage(Op::Mul, 6, &[(0, 2), (1, 2), (2, 2)]),
                cage(Op::Sub, 1, &[(1, 0), (1, 1)]),
                cage(Op::Div, 3, &[(2, 0), (2, 1)]),
            ],
        };
        (k, grid)
    }

    #[test]
    fn accepts_a_solution() {
        let (k, g) = puzzle();
        assert_eq!(check(&k, &g), Ok(()));
    }

    #[test]
    fn refuses_broken_rules() {
        let (mut k, g) = puzzle();
        let mut bad = g.clone();
        bad[0].swap(0, 1); // rows fine, columns broken
        assert!(check(&k, &bad).unwrap_err().contains("column"));
        assert!(check(&k, &g[..2]).is_err());
        let mut bad = g.clone();
        bad[2][2] = 4;
        assert!(check(&k, &bad).unwrap_err().contains("not 1..3"));
        k.cages[1].target = 5;
        assert!(check(&k, &g).unwrap_err().contains("5*"));
        k.cages[1].target = 6;
        k.cages[3].target = 2;
        assert!(check(&k, &g).unwrap_err().contains("2/"));
        k.cages.pop();
        assert!(check(&k, &g).unwrap_err().contains("no cage"));
    }
}
