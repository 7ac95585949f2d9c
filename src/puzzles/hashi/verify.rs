//! The independent Hashi checker: reads only the instance and a list of bridges, never
//! formulation code. Bridges are `[r1, c1, r2, c2, count]` with 0-based cells.
//!
//! Accepted when: both ends of every bridge are islands, in the same row or column and
//! distinct; every cell strictly between them is water (no island); the count is 1 to the
//! instance's maximum; no pair of islands is listed twice; no two bridges cross (no water
//! cell is under both a horizontal and a vertical bridge); every island has as many bridges
//! as its label; and all islands are connected.

use super::Hashi;

/// `Ok(())` when `bridges` solve `puzzle`, else the first broken rule.
pub fn check(puzzle: &Hashi, bridges: &[[usize; 5]]) -> Result<(), String> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    // The grid: island number + 1 in island cells, 0 for water.
    let mut grid = vec![0usize; rows * cols];
    for (i, s) in puzzle.islands.iter().enumerate() {
        grid[s.row * cols + s.col] = i + 1;
    }
    let island_at = |r: usize, c: usize| -> Option<usize> {
        (r < rows && c < cols && grid[r * cols + c] != 0).then(|| grid[r * cols + c] - 1)
    };
    // 1 for a horizontal bridge over a water cell, 2 for a vertical one.
    let mut over = vec![0u8; rows * cols];
    let mut degree = vec![0u64; puzzle.islands.len()];
    let mut seen = std::collections::HashSet::new();
    let mut parent: Vec<usize> = (0..puzzle.islands.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &[r1, c1, r2, c2, n] in bridges {
        let at = format!("bridge ({r1},{c1})-({r2},{c2})");
        let (Some(a), Some(b)) = (island_at(r1, c1), island_at(r2, c2)) else {
            return Err(format!("{at}: an end is not an island"));
        };
        if a == b {
            return Err(format!("{at}: both ends are the same island"));
        }
        if r1 != r2 && c1 != c2 {
            return Err(format!("{at}: not in one row or column"));
        }
        if n == 0 || n > puzzle.max_bridges as usize {
            return Err(format!(
                "{at}: {n} bridges, allowed 1 to {}",
                puzzle.max_bridges
            ));
        }
        if !seen.insert((a.min(b), a.max(b))) {
            return Err(format!("{at}: the pair is listed twice"));
        }
        let (mark, cells): (u8, Vec<(usize, usize)>) = if r1 == r2 {
            (1, (c1.min(c2) + 1..c1.max(c2)).map(|c| (r1, c)).collect())
        } else {
            (2, (r1.min(r2) + 1..r1.max(r2)).map(|r| (r, c1)).collect())
        };
        for (r, c) in cells {
            if island_at(r, c).is_some() {
                return Err(format!("{at}: passes over the island at ({r},{c})"));
            }
            let cell = &mut over[r * cols + c];
            if *cell != 0 {
                return Err(format!("{at}: crosses another bridge at ({r},{c})"));
            }
            *cell = mark;
        }
        degree[a] += n as u64;
        degree[b] += n as u64;
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    for (i, s) in puzzle.islands.iter().enumerate() {
        if degree[i] != s.label as u64 {
            return Err(format!(
                "island ({},{}) has {} bridges, its label is {}",
                s.row, s.col, degree[i], s.label
            ));
        }
    }
    let r0 = root(&mut parent, 0);
    for i in 1..puzzle.islands.len() {
        if root(&mut parent, i) != r0 {
            let s = puzzle.islands[i];
            return Err(format!(
                "island ({},{}) is not connected to island ({},{})",
                s.row, s.col, puzzle.islands[0].row, puzzle.islands[0].col
            ));
        }
    }
    Ok(())
}

/// `Ok(())` when every solution of `puzzle` builds a bridge between one of the `pairs`
/// (`[r1, c1, r2, c2]`, the cells of two islands), else why not: each pair must join two
/// islands with only water between them in one row or column, and the islands joined by
/// every other such pair must fall apart into more than one group. Then no connected set
/// of bridges avoids the pairs. This is the witness of a connectivity row ("a bridge of
/// these pairs is built") that a formulation adds while solving.
pub fn separates(puzzle: &Hashi, pairs: &[[usize; 4]]) -> Result<(), String> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let mut grid = vec![None; rows * cols];
    for (i, s) in puzzle.islands.iter().enumerate() {
        grid[s.row * cols + s.col] = Some(i);
    }
    let island_at =
        |r: usize, c: usize| (r < rows && c < cols).then(|| grid[r * cols + c]).flatten();
    // Every pair a bridge could join: each island and the next island right and below.
    let mut possible = std::collections::HashSet::new();
    for (i, s) in puzzle.islands.iter().enumerate() {
        if let Some(j) = (s.col + 1..cols).find_map(|c| island_at(s.row, c)) {
            possible.insert((i, j));
        }
        if let Some(j) = (s.row + 1..rows).find_map(|r| island_at(r, s.col)) {
            possible.insert((i, j));
        }
    }
    let mut cut = std::collections::HashSet::new();
    for &[r1, c1, r2, c2] in pairs {
        let pair = match (island_at(r1, c1), island_at(r2, c2)) {
            (Some(a), Some(b)) => (a.min(b), a.max(b)),
            _ => {
                return Err(format!(
                    "pair ({r1},{c1})-({r2},{c2}): an end is not an island"
                ))
            }
        };
        if !possible.contains(&pair) {
            return Err(format!(
                "pair ({r1},{c1})-({r2},{c2}): no bridge can join these islands"
            ));
        }
        cut.insert(pair);
    }
    let mut parent: Vec<usize> = (0..puzzle.islands.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &(a, b) in possible.difference(&cut) {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    let r0 = root(&mut parent, 0);
    if (1..puzzle.islands.len()).all(|i| root(&mut parent, i) == r0) {
        return Err(format!(
            "the islands stay connected without these {} pairs",
            cut.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::hashi::parse::parse_game_id;

    #[test]
    fn small_board() {
        // 2 . 3
        // . . .
        // . . 1
        let p = parse_game_id("3x3:2a3e1").unwrap();
        // Islands: (0,0)=2, (0,2)=3, (2,2)=1.
        assert_eq!(check(&p, &[[0, 0, 0, 2, 2], [0, 2, 2, 2, 1]]), Ok(()));
        assert!(check(&p, &[[0, 0, 0, 2, 2]]).unwrap_err().contains("label"));
        assert!(
            check(&p, &[[0, 0, 0, 2, 2], [0, 2, 2, 2, 1], [0, 2, 2, 2, 1]])
                .unwrap_err()
                .contains("twice")
        );
        assert!(check(&p, &[[0, 0, 0, 2, 3], [0, 2, 2, 2, 1]])
            .unwrap_err()
            .contains("allowed"));
        assert!(check(&p, &[[0, 0, 2, 2, 1]])
            .unwrap_err()
            .contains("row or column"));
        assert!(check(&p, &[[0, 0, 1, 0, 1]])
            .unwrap_err()
            .contains("not an island"));
    }

    #[test]
    fn a_cut_separates_only_when_the_islands_fall_apart_without_it() {
        // 2 . 3
        // . . .
        // 1 . 1
        let p = parse_game_id("3x3:2a3c1a1").unwrap();
        // The top pair and the left pair: island (0,0) is left alone.
        assert_eq!(separates(&p, &[[0, 0, 0, 2], [0, 0, 2, 0]]), Ok(()));
        // The top pair alone: the rest still joins everything.
        let e = separates(&p, &[[0, 0, 0, 2]]).unwrap_err();
        assert!(e.contains("stay connected"), "{e}");
        // A diagonal is no bridge.
        let e = separates(&p, &[[0, 0, 2, 2]]).unwrap_err();
        assert!(e.contains("no bridge"), "{e}");
        let e = separates(&p, &[[1, 1, 0, 0]]).unwrap_err();
        assert!(e.contains("not an island"), "{e}");
    }

    #[test]
    fn crossing_and_connection() {
        // . 1 .
        // 1 . 1
        // . 1 .
        let p = parse_game_id("3x3:a1a1a1a1a").unwrap();
        let e = check(&p, &[[0, 1, 2, 1, 1], [1, 0, 1, 2, 1]]).unwrap_err();
        assert!(e.contains("crosses"), "{e}");
        // Two separate pairs: labels met, not connected.
        let p = parse_game_id("3x3:1a1c1a1").unwrap();
        let e = check(&p, &[[0, 0, 0, 2, 1], [2, 0, 2, 2, 1]]).unwrap_err();
        assert!(e.contains("not connected"), "{e}");
        // Jumping over an island.
        let p = parse_game_id("3x1:111").unwrap();
        let e = check(&p, &[[0, 0, 0, 2, 1]]).unwrap_err();
        assert!(e.contains("passes over"), "{e}");
    }
}
