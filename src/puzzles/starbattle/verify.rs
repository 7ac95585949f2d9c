//! The independent Star Battle checker: reads only the instance and a grid, never
//! formulation code. A grid is accepted when it has the puzzle's size, holds no star
//! outside every region, exactly m stars in every row, column and region, and no two
//! stars in cells that share an edge or a corner.

use super::StarBattle;

/// `Ok(())` when `grid` solves `puzzle`, else the first broken rule.
pub fn check(puzzle: &StarBattle, grid: &[Vec<bool>]) -> Result<(), String> {
    let h = puzzle.regions.len();
    let w = puzzle.regions.first().map_or(0, |r| r.len());
    if grid.len() != h || grid.iter().any(|r| r.len() != w) {
        return Err(format!("grid is not {w} wide and {h} high"));
    }
    let (per_row, per_col, m) = (puzzle.row_stars, puzzle.col_stars, puzzle.stars);
    let star = |i: usize, j: usize| grid[i][j];
    for i in 0..h {
        for j in 0..w {
            if star(i, j) && puzzle.regions[i][j].is_none() {
                return Err(format!(
                    "a star at ({},{}), outside every region",
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    for i in 0..h {
        let n = (0..w).filter(|&j| star(i, j)).count();
        if n != per_row {
            return Err(format!("row {} has {n} stars, not {per_row}", i + 1));
        }
    }
    for j in 0..w {
        let n = (0..h).filter(|&i| star(i, j)).count();
        if n != per_col {
            return Err(format!("column {} has {n} stars, not {per_col}", j + 1));
        }
    }
    let mut per_region = std::collections::BTreeMap::new();
    for i in 0..h {
        for j in 0..w {
            if let Some(k) = puzzle.regions[i][j] {
                *per_region.entry(k).or_insert(0usize) += usize::from(star(i, j));
            }
        }
    }
    for (k, n) in per_region {
        if n != m {
            let letter = puzzle.letters.get(k).copied().unwrap_or('?');
            return Err(format!("region {letter} has {n} stars, not {m}"));
        }
    }
    for i in 0..h {
        for j in 0..w {
            if !star(i, j) {
                continue;
            }
            for a in i.saturating_sub(1)..=(i + 1).min(h - 1) {
                for b in j.saturating_sub(1)..=(j + 1).min(w - 1) {
                    if (a, b) != (i, j) && star(a, b) {
                        return Err(format!(
                            "the stars at ({},{}) and ({},{}) touch",
                            i + 1,
                            j + 1,
                            a + 1,
                            b + 1
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle() -> StarBattle {
        super::super::parse::parse_text(
            std::path::Path::new("t.txt"),
            "starbattle 1\nAAB.\nACBB\nCCDD\nCCDD\n",
        )
        .unwrap()
    }

    #[test]
    fn accepts_and_refuses() {
        let p = puzzle();
        let g = |rows: [&str; 4]| -> Vec<Vec<bool>> {
            rows.iter()
                .map(|r| r.chars().map(|c| c == '*').collect())
                .collect()
        };
        // One star per row, column and region, none touching.
        assert_eq!(check(&p, &g([".*..", "...*", "*...", "..*."])), Ok(()));
        assert!(check(&p, &g(["...*", ".*..", "*...", "..*."]))
            .unwrap_err()
            .contains("outside"));
        assert!(check(&p, &g([".*..", "..*.", "*...", "...*"]))
            .unwrap_err()
            .contains("touch"));
        assert!(check(&p, &g([".*..", "...*", "*...", "...."]))
            .unwrap_err()
            .contains("row 4"));
        assert!(check(&p, &g([".*.."; 4])).is_err());
    }
}
