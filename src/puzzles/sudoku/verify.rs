//! The independent Sudoku checker: reads only the instance and a filled grid, never
//! formulation code. A grid is accepted when it is n×n, every cell holds 1..=n, every
//! given is kept, and every row, column and box holds each value once.

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
                box_rows: 2,
                box_cols: 2,
                givens,
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
}
