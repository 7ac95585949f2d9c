//! The independent Sudoku checker: reads only the instance and a filled grid, never
//! formulation code. A grid is accepted when it is n×n, every cell holds 1..=n, every
//! given is kept, and every row, column and box (or jigsaw region) holds each value once;
//! for X-Sudoku each main diagonal too; for killer Sudoku every cage's values differ and
//! add up to its sum.

use super::Sudoku;

/// `Ok(())` when `grid` solves `puzzle`, else the first broken rule.
pub fn check(puzzle: &Sudoku, grid: &[Vec<u32>]) -> Result<(), String> {
    let n = puzzle.box_rows * puzzle.box_cols;
    if grid.len() != n || grid.iter().any(|r| r.len() != n) {
        return Err(format!("grid is not {n}x{n}"));
    }
    for (i, row) in grid.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if v < 1 || v as usize > n {
                return Err(format!("cell ({},{}) holds {v}, not 1..{n}", i + 1, j + 1));
            }
            let g = puzzle.givens[i][j];
            if g != 0 && g != v {
                return Err(format!(
                    "cell ({},{}) holds {v} but the given is {g}",
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    let all_once = |cells: &mut dyn Iterator<Item = u32>| -> bool {
        let mut seen = vec![false; n + 1];
        for v in cells {
            if std::mem::replace(&mut seen[v as usize], true) {
                return false;
            }
        }
        true
    };
    for (i, row) in grid.iter().enumerate() {
        if !all_once(&mut row.iter().copied()) {
            return Err(format!("row {} repeats a value", i + 1));
        }
    }
    for j in 0..n {
        if !all_once(&mut grid.iter().map(|row| row[j])) {
            return Err(format!("column {} repeats a value", j + 1));
        }
    }
    if let Some(regions) = &puzzle.regions {
        for r in 0..n {
            let mut cells = (0..n * n)
                .filter(|&c| regions[c / n][c % n] == r)
                .map(|c| grid[c / n][c % n]);
            let count = (0..n * n).filter(|&c| regions[c / n][c % n] == r).count();
            if count != n || !all_once(&mut cells) {
                return Err(format!("region {} does not hold each value once", r + 1));
            }
        }
    } else {
        for top in (0..n).step_by(puzzle.box_rows) {
            for left in (0..n).step_by(puzzle.box_cols) {
                let mut cells = (top..top + puzzle.box_rows)
                    .flat_map(|r| (left..left + puzzle.box_cols).map(move |c| (r, c)))
                    .map(|(r, c)| grid[r][c]);
                if !all_once(&mut cells) {
                    return Err(format!(
                        "box at row {}, column {} repeats a value",
                        top + 1,
                        left + 1
                    ));
                }
            }
        }
    }
    if puzzle.diagonals {
        if !all_once(&mut (0..n).map(|i| grid[i][i])) {
            return Err("the main diagonal repeats a value".into());
        }
        if !all_once(&mut (0..n).map(|i| grid[i][n - 1 - i])) {
            return Err("the anti-diagonal repeats a value".into());
        }
    }
    for cage in &puzzle.cages {
        let values: Vec<u32> = cage.cells.iter().map(|&(i, j)| grid[i][j]).collect();
        let sum: u64 = values.iter().map(|&v| u64::from(v)).sum();
        let mut sorted = values.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let (i, j) = cage.cells[0];
        if sorted.len() != values.len() {
            return Err(format!(
                "the killer cage at ({},{}) repeats a value",
                i + 1,
                j + 1
            ));
        }
        if sum != cage.target {
            return Err(format!(
                "the killer cage at ({},{}) adds up to {sum}, not {}",
                i + 1,
                j + 1,
                cage.target
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved_4x4() -> (Sudoku, Vec<Vec<u32>>) {
        let grid = vec![
            vec![1, 2, 3, 4],
            vec![3, 4, 1, 2],
            vec![2, 1, 4, 3],
            vec![4, 3, 2, 1],
        ];
        let mut givens = vec![vec![0; 4]; 4];
        givens[0][0] = 1;
        (
            Sudoku {
                name: "t".into(),
                ..Sudoku::plain(2, 2, givens)
            },
            grid,
        )
    }

    #[test]
    fn accepts_a_solution() {
        let (p, g) = solved_4x4();
        assert_eq!(check(&p, &g), Ok(()));
    }

    #[test]
    fn rejects_broken_rules() {
        let (p, g) = solved_4x4();
        let mut bad = g.clone();
        bad[0].swap(0, 1); // breaks the given and the columns
        assert!(check(&p, &bad).is_err());
        let mut bad = g.clone();
        bad[1][1] = 5;
        assert!(check(&p, &bad).unwrap_err().contains("not 1..4"));
        // A Latin square whose boxes repeat: rows and columns fine, boxes not.
        let latin = vec![
            vec![1, 2, 3, 4],
            vec![2, 3, 4, 1],
            vec![3, 4, 1, 2],
            vec![4, 1, 2, 3],
        ];
        assert!(check(&p, &latin).unwrap_err().contains("box"));
        assert!(check(&p, &g[..3]).is_err());
    }

    #[test]
    fn variants() {
        use crate::puzzles::cages::{Cage, Op};
        let (p, g) = solved_4x4();
        // The solution's main diagonal is 1,4,4,1: not an X-Sudoku solution.
        let x = Sudoku {
            diagonals: true,
            ..p.clone()
        };
        assert!(check(&x, &g).unwrap_err().contains("main diagonal"));
        // Regions: the four rows as regions is a jigsaw layout the grid meets.
        let rows = Sudoku {
            regions: Some((0..4).map(|i| vec![i; 4]).collect()),
            ..p.clone()
        };
        assert_eq!(check(&rows, &g), Ok(()));
        // The boxes' 2x2 layout turned by columns: region c = column c also holds.
        let cols = Sudoku {
            regions: Some((0..4).map(|_| vec![0, 1, 2, 3]).collect()),
            ..p.clone()
        };
        assert_eq!(check(&cols, &g), Ok(()));
        let uneven = Sudoku {
            regions: Some(vec![
                vec![0, 0, 0, 0],
                vec![0, 1, 1, 1],
                vec![2, 2, 2, 2],
                vec![3, 3, 3, 3],
            ]),
            ..p.clone()
        };
        assert!(check(&uneven, &g).unwrap_err().contains("region 1"));
        let cage = |target, cells: &[(usize, usize)]| Cage {
            op: Op::Add,
            target,
            cells: cells.to_vec(),
        };
        let killer = Sudoku {
            cages: vec![cage(3, &[(0, 0), (0, 1)]), cage(5, &[(1, 0), (2, 0)])],
            ..p.clone()
        };
        assert_eq!(check(&killer, &g), Ok(()));
        let wrong = Sudoku {
            cages: vec![cage(4, &[(0, 0), (0, 1)])],
            ..p.clone()
        };
        assert!(check(&wrong, &g)
            .unwrap_err()
            .contains("adds up to 3, not 4"));
        // (0,0) = 1 and (3,3) = 1: a cage of both repeats a value.
        let twice = Sudoku {
            cages: vec![cage(2, &[(0, 0), (3, 3)])],
            ..p
        };
        assert!(check(&twice, &g).unwrap_err().contains("repeats"));
    }
}
