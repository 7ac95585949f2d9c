//! The independent Battleship verifier. It reads ships off the grid of cell types as groups
//! of orthogonally connected ship parts and checks every rule from the grid alone; it
//! shares no code with the formulations (no placement lists, no cell-type rows).

use super::{Battleship, Cell};

/// A ship found on a grid: its top-left cell (0-based), its length and its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ship {
    /// Row of the top or left end.
    pub row: usize,
    /// Column of the top or left end.
    pub col: usize,
    /// Number of cells.
    pub length: usize,
    /// Whether it runs down a column (a one-cell ship counts as horizontal).
    pub vertical: bool,
}

/// Groups of orthogonally connected ship parts, as lists of cells in reading order.
fn groups(grid: &[Vec<Cell>]) -> Vec<Vec<(usize, usize)>> {
    let m = grid.len();
    let mut seen: Vec<Vec<bool>> = grid.iter().map(|r| vec![false; r.len()]).collect();
    let mut out = Vec::new();
    for i in 0..m {
        for j in 0..grid[i].len() {
            if seen[i][j] || !grid[i][j].is_ship() {
                continue;
            }
            let mut group = vec![];
            let mut stack = vec![(i, j)];
            seen[i][j] = true;
            while let Some((r, c)) = stack.pop() {
                group.push((r, c));
                let mut next = vec![(r + 1, c), (r, c + 1)];
                if r > 0 {
                    next.push((r - 1, c));
                }
                if c > 0 {
                    next.push((r, c - 1));
                }
                for (a, b) in next {
                    if a < m && b < grid[a].len() && !seen[a][b] && grid[a][b].is_ship() {
                        seen[a][b] = true;
                        stack.push((a, b));
                    }
                }
            }
            group.sort_unstable();
            out.push(group);
        }
    }
    out
}

/// The ships on `grid`: one per group of orthogonally connected ship parts, whether or
/// not the group is a well-formed ship (that is for [`check`] to say).
pub fn ships(grid: &[Vec<Cell>]) -> Vec<Ship> {
    groups(grid)
        .into_iter()
        .map(|g| Ship {
            row: g[0].0,
            col: g[0].1,
            length: g.len(),
            vertical: g.len() > 1 && g[1].1 == g[0].1,
        })
        .collect()
}

/// Checks `grid` against every rule of `puzzle`: its shape, the given cells, the row and
/// column sums, straight ships drawn with the right end and middle symbols, no two ships
/// touching (also diagonally), and exactly the fleet. Returns the first broken rule.
pub fn check(puzzle: &Battleship, grid: &[Vec<Cell>]) -> Result<(), String> {
    let (m, n) = (puzzle.rows.len(), puzzle.cols.len());
    if grid.len() != m || grid.iter().any(|r| r.len() != n) {
        return Err(format!("the grid is not {m}x{n}"));
    }
    for (i, (givens, row)) in puzzle.givens.iter().zip(grid).enumerate() {
        for (j, (&given, &cell)) in givens.iter().zip(row).enumerate() {
            if let Some(g) = given {
                if cell != g {
                    return Err(format!(
                        "cell ({}, {}) is given as '{}' but holds '{}'",
                        i + 1,
                        j + 1,
                        g.symbol(),
                        cell.symbol()
                    ));
                }
            }
        }
    }
    for (i, row) in grid.iter().enumerate() {
        let count = row.iter().filter(|c| c.is_ship()).count();
        if count != puzzle.rows[i] as usize {
            return Err(format!(
                "row {} has {count} ship parts, not {}",
                i + 1,
                puzzle.rows[i]
            ));
        }
    }
    for j in 0..n {
        let count = grid.iter().filter(|row| row[j].is_ship()).count();
        if count != puzzle.cols[j] as usize {
            return Err(format!(
                "column {} has {count} ship parts, not {}",
                j + 1,
                puzzle.cols[j]
            ));
        }
    }
    let groups = groups(grid);
    let mut owner = vec![vec![usize::MAX; n]; m];
    let mut lengths: Vec<u32> = Vec::new();
    for (g, cells) in groups.iter().enumerate() {
        for &(r, c) in cells {
            owner[r][c] = g;
        }
        let (r0, c0) = cells[0];
        let same_row = cells.iter().all(|&(r, _)| r == r0);
        let same_col = cells.iter().all(|&(_, c)| c == c0);
        if !same_row && !same_col {
            return Err(format!(
                "the ship parts around ({}, {}) do not form a straight ship",
                r0 + 1,
                c0 + 1
            ));
        }
        let len = cells.len();
        for (p, &(r, c)) in cells.iter().enumerate() {
            let want = if len == 1 {
                Cell::Single
            } else if p == 0 {
                if same_row {
                    Cell::Left
                } else {
                    Cell::Top
                }
            } else if p == len - 1 {
                if same_row {
                    Cell::Right
                } else {
                    Cell::Bottom
                }
            } else {
                Cell::Middle
            };
            if grid[r][c] != want {
                return Err(format!(
                    "cell ({}, {}) of a ship of length {len} should be '{}', not '{}'",
                    r + 1,
                    c + 1,
                    want.symbol(),
                    grid[r][c].symbol()
                ));
            }
        }
        if lengths.len() < len {
            lengths.resize(len, 0);
        }
        lengths[len - 1] += 1;
    }
    for i in 0..m.saturating_sub(1) {
        for j in 0..n {
            for dj in [-1i64, 1] {
                let jj = j as i64 + dj;
                if jj < 0 || jj >= n as i64 {
                    continue;
                }
                let jj = jj as usize;
                let (a, b) = (owner[i][j], owner[i + 1][jj]);
                if a != usize::MAX && b != usize::MAX && a != b {
                    return Err(format!(
                        "ships touch diagonally at ({}, {}) and ({}, {})",
                        i + 1,
                        j + 1,
                        i + 2,
                        jj + 1
                    ));
                }
            }
        }
    }
    let longest = lengths.len().max(puzzle.fleet.len());
    for l in 1..=longest {
        let have = lengths.get(l - 1).copied().unwrap_or(0);
        let want = puzzle.fleet.get(l - 1).copied().unwrap_or(0);
        if have != want {
            return Err(format!(
                "{have} ships of length {l} on the grid; the fleet has {want}"
            ));
        }
    }
    Ok(())
}
