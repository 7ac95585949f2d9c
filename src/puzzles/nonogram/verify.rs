//! The independent nonogram checker: reads only the instance and a grid, never
//! formulation code. A grid is accepted when it has the puzzle's size, keeps every given
//! cell, and the black runs of each row (left to right) and each column (top to bottom)
//! are exactly its clue.

use super::Nonogram;

/// `Ok(())` when `grid` solves `puzzle`, else the first broken rule.
pub fn check(puzzle: &Nonogram, grid: &[Vec<bool>]) -> Result<(), String> {
    let (h, w) = (puzzle.rows.len(), puzzle.cols.len());
    if grid.len() != h || grid.iter().any(|r| r.len() != w) {
        return Err(format!("grid is not {w} wide and {h} high"));
    }
    for (i, row) in grid.iter().enumerate() {
        for (j, &b) in row.iter().enumerate() {
            if let Some(g) = puzzle.givens[i][j] {
                if g != b {
                    return Err(format!(
                        "cell ({},{}) is {} but the puzzle gives it {}",
                        i + 1,
                        j + 1,
                        colour(b),
                        colour(g)
                    ));
                }
            }
        }
    }
    for (i, row) in grid.iter().enumerate() {
        let got = blocks(row);
        if got != puzzle.rows[i] {
            return Err(format!(
                "row {} has runs {got:?}, its clue is {:?}",
                i + 1,
                puzzle.rows[i]
            ));
        }
    }
    for j in 0..w {
        let column: Vec<bool> = grid.iter().map(|r| r[j]).collect();
        let got = blocks(&column);
        if got != puzzle.cols[j] {
            return Err(format!(
                "column {} has runs {got:?}, its clue is {:?}",
                j + 1,
                puzzle.cols[j]
            ));
        }
    }
    Ok(())
}

fn colour(b: bool) -> &'static str {
    if b {
        "black"
    } else {
        "white"
    }
}

/// The lengths of the maximal black runs of a line.
fn blocks(line: &[bool]) -> Vec<usize> {
    line.split(|&b| !b)
        .map(|run| run.len())
        .filter(|&n| n > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_refuses() {
        // The 4x4 puzzle from Tatham's pattern.c: 4x4:2/1/2/1/1.1/2/1/1.
        let p = Nonogram::new(
            vec![vec![1, 1], vec![2], vec![1], vec![1]],
            vec![vec![2], vec![1], vec![2], vec![1]],
        );
        let g = |rows: [&str; 4]| -> Vec<Vec<bool>> {
            rows.iter()
                .map(|r| r.chars().map(|c| c == '#').collect())
                .collect()
        };
        let good = g(["#..#", "##..", "..#.", "..#."]);
        assert_eq!(check(&p, &good), Ok(()));
        assert!(check(&p, &g(["#..#", "##..", "..#.", "...#"]))
            .unwrap_err()
            .contains("column 3"));
        assert!(check(&p, &g(["##..", "##..", "..#.", "..#."]))
            .unwrap_err()
            .contains("row 1"));
        assert!(check(&p, &good[..3]).is_err());
        let mut given = p.clone();
        given.givens[0][1] = Some(true);
        // (0,1) is white in the answer.
        assert!(check(&given, &good).unwrap_err().contains("gives it black"));
    }
}
