//! Star Battle puzzles as puzz.link (pzprjs) URLs, one per line:
//! `https://puzz.link/p?starbattle/COLS/ROWS/STARS/BORDERS` (any address before `?`).
//!
//! The format as pzprjs writes it (its `starbattle` variety and its border codec): the
//! stars per row, column and region, then the region borders as base-32 digits (`0`–`9`,
//! `a`–`v`), five borders per digit, most significant bit first: first the (COLS − 1)·ROWS
//! borders between horizontally adjacent cells, row by row, padded to whole digits; then
//! the COLS·(ROWS − 1) borders between vertically adjacent cells, row by row. A 1 is a
//! region border; the regions are the groups of cells joined without crossing one. Missing
//! digits at the end mean no border.

use super::StarBattle;
use crate::puzzles::InputError;
use std::path::Path;

/// The letters regions get, in the order they are found (62 at most).
const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// True when the first line with content is a puzz.link Star Battle URL.
pub fn looks_like_urls(text: &str) -> bool {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.contains("?starbattle/"))
}

/// Every URL in `text` (one per line; blank lines and `#` comment lines skipped), named
/// after the file (with the line number when there are several).
pub fn parse_urls(path: &Path, text: &str) -> Result<Vec<StarBattle>, InputError> {
    crate::puzzles::parse_one_per_line(path, text, "starbattle", decode, |p, name| p.name = name)
}

/// Decodes one URL.
pub fn decode(url: &str) -> Result<StarBattle, String> {
    let body = url
        .split_once("?starbattle/")
        .map(|(_, b)| b)
        .ok_or_else(|| {
            format!(
                "'{url}' is not a puzz.link Star Battle URL (…?starbattle/COLS/ROWS/STARS/BORDERS)"
            )
        })?;
    let parts: Vec<&str> = body.split('/').collect();
    if parts.len() < 3 || parts.len() > 4 {
        return Err(format!(
            "'{body}': expected COLS/ROWS/STARS/BORDERS after '?starbattle/'"
        ));
    }
    let number = |s: &str, what: &str| -> Result<usize, String> {
        s.parse::<usize>()
            .ok()
            .filter(|v| (1..=super::parse::MAX_SIDE).contains(v))
            .ok_or_else(|| format!("'{s}' is not a number of {what}"))
    };
    let (cols, rows, stars) = (
        number(parts[0], "columns")?,
        number(parts[1], "rows")?,
        number(parts[2], "stars")?,
    );
    let digits = parts.get(3).copied().unwrap_or("");
    let mut bits = Vec::with_capacity(digits.len() * 5);
    for c in digits.chars() {
        let v = c
            .to_digit(32)
            .ok_or_else(|| format!("'{c}' is not a base-32 digit of the borders (0-9, a-v)"))?;
        bits.extend((0..5).rev().map(|b| v >> b & 1 == 1));
    }
    let vertical = (cols - 1) * rows;
    let horizontal = cols * (rows - 1);
    let first = vertical.div_ceil(5) * 5;
    let need = first + horizontal.div_ceil(5) * 5;
    if bits.len() > need {
        return Err(format!(
            "{} border digits, more than the {} a {cols}x{rows} grid has",
            digits.len(),
            need / 5
        ));
    }
    let bit = |k: usize| bits.get(k).copied().unwrap_or(false);
    // Between (i, j) and (i, j + 1); between (i, j) and (i + 1, j).
    let right = |i: usize, j: usize| bit(i * (cols - 1) + j);
    let below = |i: usize, j: usize| bit(first + i * cols + j);
    let mut region = vec![vec![usize::MAX; cols]; rows];
    let mut count = 0;
    for si in 0..rows {
        for sj in 0..cols {
            if region[si][sj] != usize::MAX {
                continue;
            }
            region[si][sj] = count;
            let mut stack = vec![(si, sj)];
            while let Some((i, j)) = stack.pop() {
                let mut next = Vec::new();
                if j + 1 < cols && !right(i, j) {
                    next.push((i, j + 1));
                }
                if j > 0 && !right(i, j - 1) {
                    next.push((i, j - 1));
                }
                if i + 1 < rows && !below(i, j) {
                    next.push((i + 1, j));
                }
                if i > 0 && !below(i - 1, j) {
                    next.push((i - 1, j));
                }
                for (a, b) in next {
                    if region[a][b] == usize::MAX {
                        region[a][b] = count;
                        stack.push((a, b));
                    }
                }
            }
            count += 1;
        }
    }
    if count > LETTERS.len() {
        return Err(format!(
            "{count} regions, more than the {} this reader names",
            LETTERS.len()
        ));
    }
    let letters: Vec<char> = LETTERS.chars().take(count).collect();
    let mut text = format!("starbattle {stars}\n");
    for row in &region {
        text.extend(row.iter().map(|&k| letters[k]));
        text.push('\n');
    }
    // The text reader checks the rest (region sizes, that the stars add up).
    super::parse::parse_text(Path::new("url"), &text).map_err(|e| e.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_borders_into_regions() {
        // AABB / AABB / CCDD / CCDD: vertical borders 010 per row (12 bits: 01001 00100
        // 10 padded: 9 4 g), horizontal 0000 1111 0000 (00001 11100 00: 1 s 0).
        let p = decode("https://puzz.link/p?starbattle/4/4/1/94g1s0").unwrap();
        assert_eq!(p.to_text(), "starbattle 1\nAABB\nAABB\nCCDD\nCCDD\n");
        assert_eq!(p.region_count(), 4);
    }

    #[test]
    fn bad_urls_say_why() {
        assert!(decode("p?starbattle/4/4")
            .unwrap_err()
            .contains("expected COLS/ROWS/STARS"));
        assert!(decode("p?starbattle/4/x/1/0")
            .unwrap_err()
            .contains("'x' is not a number of rows"));
        assert!(decode("p?starbattle/4/4/1/9w")
            .unwrap_err()
            .contains("'w' is not a base-32 digit"));
        assert!(decode("p?starbattle/4/4/1/0000000")
            .unwrap_err()
            .contains("more than the 6"));
        // No borders: one region of 16 cells, rows of 4 with 1 star: 4 ≠ 1·1 region.
        assert!(decode("p?starbattle/4/4/1/")
            .unwrap_err()
            .contains("do not add up"));
    }
}
