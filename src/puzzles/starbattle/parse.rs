//! The Star Battle text format, one puzzle per file:
//!
//! ```text
//! starbattle 1        # m: stars in every row, column and region (or 'starbattle R C K':
//!                     # R per row, C per column, K per region, for rectangular grids)
//! AABB.               # one line per row, a character per cell naming its region
//! ACCB.               # (letters or digits); '.' is a cell outside every region
//! ...
//! solution            # optional: the expected answer, '*' a star, '.' none
//! .*...
//! ```
//!
//! Everything after `#` on a line is a comment. Rows must have one length; every region
//! must have at least m cells; a solution must have the grid's size. With `R C K` the
//! stars must add up: h·R = w·C = K·(regions) on an h×w grid.

use super::StarBattle;
use crate::puzzles::InputError;
use std::path::Path;

/// The largest side accepted.
pub const MAX_SIDE: usize = 200;

/// Parses the text format.
pub fn parse_text(path: &Path, text: &str) -> Result<StarBattle, InputError> {
    let err = |line: usize, m: String| InputError::new(path, line, m);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((first, header)) = lines.next() else {
        return Err(err(
            0,
            "empty file: a puzzle starts with 'starbattle M'".into(),
        ));
    };
    let words: Vec<&str> = header.split_whitespace().collect();
    if words.first() != Some(&"starbattle") || !(words.len() == 2 || words.len() == 4) {
        return Err(err(
            first,
            "a puzzle starts with 'starbattle M' (M: stars per row, column and region) or \
             'starbattle R C K' (per row, per column, per region)"
                .into(),
        ));
    }
    let numbers = words[1..]
        .iter()
        .map(|w| {
            w.parse::<usize>()
                .ok()
                .filter(|&m| m >= 1)
                .ok_or_else(|| err(first, format!("'{w}' is not a number of stars (1 or more)")))
        })
        .collect::<Result<Vec<usize>, InputError>>()?;
    let (row_stars, col_stars, stars) = match numbers[..] {
        [m] => (m, m, m),
        [r, c, k] => (r, c, k),
        _ => unreachable!("two or four words"),
    };
    let mut rows: Vec<(usize, Vec<char>)> = Vec::new();
    let mut solution: Option<(usize, Vec<Vec<bool>>)> = None;
    for (k, line) in lines {
        if line == "solution" {
            if solution.is_some() {
                return Err(err(k, "a second 'solution' block".into()));
            }
            solution = Some((k, Vec::new()));
            continue;
        }
        if line.contains(char::is_whitespace) {
            return Err(err(
                k,
                format!("'{line}': a row is one word, a character per cell"),
            ));
        }
        match &mut solution {
            Some((_, grid)) => {
                if let Some(c) = line.chars().find(|&c| c != '*' && c != '.') {
                    return Err(err(
                        k,
                        format!("'{c}' in the solution: '*' is a star, '.' none"),
                    ));
                }
                grid.push(line.chars().map(|c| c == '*').collect());
            }
            None => {
                if let Some(c) = line
                    .chars()
                    .find(|&c| !(c.is_ascii_alphanumeric() || c == '.'))
                {
                    return Err(err(
                        k,
                        format!(
                            "'{c}' is not a region (letters or digits, '.' outside every region)"
                        ),
                    ));
                }
                rows.push((k, line.chars().collect()));
            }
        }
    }
    if rows.is_empty() {
        return Err(err(first, "no rows after the header".into()));
    }
    let w = rows[0].1.len();
    for (k, r) in &rows {
        if r.len() != w {
            return Err(err(
                *k,
                format!("this row has {} cells, the first {w}", r.len()),
            ));
        }
    }
    if rows.len() > MAX_SIDE || w > MAX_SIDE {
        return Err(err(
            first,
            format!("{}x{} is larger than {MAX_SIDE} on a side", w, rows.len()),
        ));
    }
    let mut letters: Vec<char> = Vec::new();
    let regions: Vec<Vec<Option<usize>>> = rows
        .iter()
        .map(|(_, r)| {
            r.iter()
                .map(|&c| {
                    (c != '.').then(|| match letters.iter().position(|&l| l == c) {
                        Some(k) => k,
                        None => {
                            letters.push(c);
                            letters.len() - 1
                        }
                    })
                })
                .collect()
        })
        .collect();
    for (k, &c) in letters.iter().enumerate() {
        let size = regions.iter().flatten().filter(|r| **r == Some(k)).count();
        if size < stars {
            return Err(err(
                first,
                format!("region {c} has {size} cells, fewer than the {stars} stars it needs"),
            ));
        }
    }
    let stem = path
        .file_stem()
        .map_or("starbattle".into(), |s| s.to_string_lossy().to_string());
    let (h, total) = (rows.len(), rows.len() * row_stars);
    if w * col_stars != total || letters.len() * stars != total {
        return Err(err(
            first,
            format!(
                "the stars do not add up: {h} rows × {row_stars} = {total}, {w} columns × {col_stars} = {}, \
                 {} regions × {stars} = {}",
                w * col_stars,
                letters.len(),
                letters.len() * stars
            ),
        ));
    }
    let mut p = StarBattle {
        name: stem,
        stars,
        row_stars,
        col_stars,
        regions,
        letters,
        solution: None,
    };
    if let Some((k, grid)) = solution {
        if grid.len() != p.height() || grid.iter().any(|r| r.len() != w) {
            return Err(err(
                k,
                format!("the solution is not {w} wide and {} high", p.height()),
            ));
        }
        p.solution = Some(grid);
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(text: &str) -> String {
        parse_text(Path::new("b.txt"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_regions_outside_cells_and_a_solution() {
        let p = parse_text(
            Path::new("p.txt"),
            "# comment\nstarbattle 1\nAAB.  # row 1\nACBB\nCCDD\nCCDD\nsolution\n.*..\n...*\n*...\n..*.\n",
        )
        .unwrap();
        assert_eq!(
            (p.width(), p.height(), p.stars, p.region_count()),
            (4, 4, 1, 4)
        );
        assert_eq!(p.regions[0][3], None);
        assert_eq!(p.regions[1][1], Some(2));
        assert!(p.solution.as_ref().unwrap()[0][1]);
        let again = parse_text(Path::new("p.txt"), &p.to_text()).unwrap();
        assert_eq!(again.regions, p.regions);
    }

    #[test]
    fn bad_files_name_the_line() {
        assert!(bad("stars 1\nA\n").contains(":1: a puzzle starts with 'starbattle M'"));
        assert!(bad("starbattle x\nA\n").contains(":1: 'x' is not a number"));
        assert!(bad("starbattle 1\nAB\nA\n").contains(":3: this row has 1 cells, the first 2"));
        assert!(bad("starbattle 1\nA-\n").contains(":2: '-' is not a region"));
        assert!(bad("starbattle 2\nAB\nAA\n").contains("region B has 1 cells"));
        assert!(bad("starbattle 1\nA\nsolution\n**\n").contains(":3: the solution is not 1 wide"));
        assert!(bad("").contains("empty file"));
        assert!(bad("starbattle 1 2\nA\n").contains(":1: a puzzle starts with"));
        assert!(bad("starbattle 1\nAA\nAA\n").contains(":1: the stars do not add up"));
        assert!(bad("starbattle 2 1 1\nAB\nAB\n").contains("2 rows × 2 = 4, 2 columns × 1 = 2"));
    }

    #[test]
    fn reads_a_rectangular_grid() {
        // 2 rows × 2 = 4 stars, 4 columns × 1, 2 regions × 2.
        let p = parse_text(Path::new("r.txt"), "starbattle 2 1 2\nAABB\nAABB\n").unwrap();
        assert_eq!((p.row_stars, p.col_stars, p.stars), (2, 1, 2));
        assert_eq!(p.to_text(), "starbattle 2 1 2\nAABB\nAABB\n");
    }
}
