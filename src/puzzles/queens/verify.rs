//! The independent checker of n-Queens with walls: reads only the instance and an answer
//! grid of characters (`Q` queen, `X` wall, `.` empty), never formulation code. An answer
//! is accepted when it is n by n, keeps every wall of the instance, puts no queen on a
//! wall, and no queen sees another along a row, column or diagonal without a wall between
//! them; and, where asked, holds the expected number of queens and walls.

use super::Queens;

/// `Ok(())` when `grid` is a legal answer for `board` with `queens` queens and `walls`
/// walls (each when given), else the first broken rule.
pub fn check(
    board: &Queens,
    grid: &[String],
    queens: Option<usize>,
    walls: Option<usize>,
) -> Result<(), String> {
    let n = board.n;
    let cells: Vec<Vec<char>> = grid.iter().map(|r| r.chars().collect()).collect();
    if cells.len() != n || cells.iter().any(|r| r.len() != n) {
        return Err(format!("the answer is not {n} by {n}"));
    }
    for (i, row) in cells.iter().enumerate() {
        for (j, &c) in row.iter().enumerate() {
            if !matches!(c, 'Q' | 'X' | '.') {
                return Err(format!("'{c}' at ({},{})", i + 1, j + 1));
            }
            if board.walls[i][j] && c != 'X' {
                return Err(format!(
                    "the wall at ({},{}) is missing or holds a queen",
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    // From every queen, look in the four directions that follow it (right, down,
    // down-right, down-left) until a wall or the edge.
    for i in 0..n {
        for j in 0..n {
            if cells[i][j] != 'Q' {
                continue;
            }
            for (di, dj) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
                let (mut a, mut b) = (i as isize + di, j as isize + dj);
                while a >= 0 && b >= 0 && (a as usize) < n && (b as usize) < n {
                    match cells[a as usize][b as usize] {
                        'X' => break,
                        'Q' => {
                            return Err(format!(
                                "the queens at ({},{}) and ({},{}) see each other",
                                i + 1,
                                j + 1,
                                a + 1,
                                b + 1
                            ))
                        }
                        _ => {}
                    }
                    a += di;
                    b += dj;
                }
            }
        }
    }
    let count = |ch: char| cells.iter().flatten().filter(|&&c| c == ch).count();
    if let Some(q) = queens {
        let got = count('Q');
        if got != q {
            return Err(format!("{got} queens, not {q}"));
        }
    }
    if let Some(w) = walls {
        let got = count('X');
        if got != w {
            return Err(format!("{got} walls, not {w}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: usize, walls: &[(usize, usize)]) -> Queens {
        let mut w = vec![vec![false; n]; n];
        for &(i, j) in walls {
            w[i][j] = true;
        }
        Queens {
            name: "t".into(),
            n,
            walls: w,
            target: None,
            value: None,
            least_walls: None,
            solution: None,
        }
    }

    fn g(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|r| r.to_string()).collect()
    }

    #[test]
    fn accepts_queens_behind_walls_and_refuses_attacks() {
        let b = board(3, &[(0, 1)]);
        assert_eq!(check(&b, &g(&["QXQ", "...", "..."]), Some(2), None), Ok(()));
        assert!(check(&b, &g(&["QX.", "...", "..Q"]), None, None)
            .unwrap_err()
            .contains("see each other"));
        assert!(check(&b, &g(&["QX.", "..Q", "..."]), None, None).is_ok());
        assert!(check(&b, &g(&["Q..", "...", "..."]), None, None)
            .unwrap_err()
            .contains("wall at (1,2)"));
        assert!(check(&b, &g(&["QXQ", "...", "..."]), Some(3), None)
            .unwrap_err()
            .contains("2 queens, not 3"));
        assert!(check(&b, &g(&["QXQ", "...", ".X."]), None, Some(1))
            .unwrap_err()
            .contains("2 walls"));
        // Anti-diagonal attack.
        assert!(check(&board(3, &[]), &g(&["..Q", ".Q.", "..."]), None, None).is_err());
    }
}
