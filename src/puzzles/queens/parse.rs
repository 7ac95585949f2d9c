//! The n-Queens-with-walls text format, one board per file:
//!
//! ```text
//! queens 8            # board side n
//! target 11           # optional: queens the least-walls model must fit
//! value 9             # optional: the board's known value (most queens), checked
//! least-walls 3       # optional: the known fewest walls for the target, checked
//! ........            # optional: n lines of the board, 'X' a wall, '.' free
//! ...X....            #   (no lines: a board without walls)
//! ...
//! solution            # optional: an expected answer, 'Q' queen, 'X' wall, '.' empty
//! ```
//!
//! Everything after `#` on a line is a comment. The keyword lines come before the board.

use super::Queens;
use crate::puzzles::InputError;
use std::path::Path;

/// The largest side accepted.
pub const MAX_SIDE: usize = 100;

/// Parses the board in `text` (the contents of `path`).
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<Queens>, InputError> {
    parse_text(path, text).map(|p| vec![p])
}

/// Parses the text format.
pub fn parse_text(path: &Path, text: &str) -> Result<Queens, InputError> {
    let err = |line: usize, m: String| InputError::new(path, line, m);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((first, header)) = lines.next() else {
        return Err(err(0, "empty file: a board starts with 'queens N'".into()));
    };
    let words: Vec<&str> = header.split_whitespace().collect();
    if words.first() != Some(&"queens") || words.len() != 2 {
        return Err(err(
            first,
            "a board starts with 'queens N' (N: the side of the board)".into(),
        ));
    }
    let n: usize = words[1]
        .parse()
        .ok()
        .filter(|n| (1..=MAX_SIDE).contains(n))
        .ok_or_else(|| {
            err(
                first,
                format!("'{}' is not a board side (1 to {MAX_SIDE})", words[1]),
            )
        })?;
    let stem = path
        .file_stem()
        .map_or("queens".into(), |s| s.to_string_lossy().to_string());
    let mut p = Queens {
        name: stem,
        n,
        walls: vec![vec![false; n]; n],
        target: None,
        value: None,
        least_walls: None,
        solution: None,
    };
    let mut board: Vec<(usize, &str)> = Vec::new();
    let mut solution: Option<(usize, Vec<String>)> = None;
    for (k, line) in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let number =
            |what: &str, max: usize| -> Result<usize, InputError> {
                if words.len() != 2 {
                    return Err(err(k, format!("'{what}' takes one number")));
                }
                words[1].parse().ok().filter(|&v| v <= max).ok_or_else(|| {
                    err(k, format!("'{}' is not a number from 0 to {max}", words[1]))
                })
            };
        match words[0] {
            "target" | "value" | "least-walls" if !board.is_empty() || solution.is_some() => {
                return Err(err(k, format!("'{}' comes before the board", words[0])));
            }
            "target" => p.target = Some(number("target", n * n)?),
            "value" => p.value = Some(number("value", n * n)?),
            "least-walls" => p.least_walls = Some(number("least-walls", n * n)?),
            "solution" if words.len() == 1 => {
                if solution.is_some() {
                    return Err(err(k, "a second 'solution' block".into()));
                }
                solution = Some((k, Vec::new()));
            }
            _ if words.len() > 1 => {
                return Err(err(
                    k,
                    format!("'{line}': expected a keyword (target, value, least-walls, solution) or a row of the board"),
                ));
            }
            _ => match &mut solution {
                Some((_, rows)) => {
                    if let Some(c) = line.chars().find(|c| !matches!(c, 'Q' | 'X' | '.')) {
                        return Err(err(
                            k,
                            format!("'{c}' in the solution: 'Q' queen, 'X' wall, '.' empty"),
                        ));
                    }
                    rows.push(line.to_string());
                }
                None => {
                    if let Some(c) = line.chars().find(|c| !matches!(c, 'X' | '.')) {
                        return Err(err(
                            k,
                            format!("'{c}' on the board: 'X' is a wall, '.' a free cell"),
                        ));
                    }
                    board.push((k, line));
                }
            },
        }
    }
    if !board.is_empty() {
        if board.len() != n {
            return Err(err(
                board[0].0,
                format!("the board has {} rows, not {n}", board.len()),
            ));
        }
        for (i, (k, row)) in board.iter().enumerate() {
            if row.chars().count() != n {
                return Err(err(
                    *k,
                    format!("this row has {} cells, not {n}", row.chars().count()),
                ));
            }
            p.walls[i] = row.chars().map(|c| c == 'X').collect();
        }
    }
    if let Some(t) = p.target {
        if t > n * n - p.wall_count() {
            return Err(err(
                first,
                format!("target {t} is more queens than the board has free cells"),
            ));
        }
    }
    if let Some((k, rows)) = solution {
        if rows.len() != n || rows.iter().any(|r| r.chars().count() != n) {
            return Err(err(k, format!("the solution is not {n} by {n}")));
        }
        p.solution = Some(rows);
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
    fn reads_walls_keywords_and_a_solution() {
        let p = parse_text(
            Path::new("b4.txt"),
            "# c\nqueens 4\nvalue 5\n....\n.X..\n....\n..X.\nsolution\nQ.Q.\n.X..\n....\n..X.\n",
        )
        .unwrap();
        assert_eq!(
            (p.n, p.wall_count(), p.value, p.target),
            (4, 2, Some(5), None)
        );
        assert!(p.walls[1][1] && p.walls[3][2]);
        let again = parse_text(Path::new("b4.txt"), &p.to_text()).unwrap();
        assert_eq!(again.walls, p.walls);
        let empty = parse_text(Path::new("e.txt"), "queens 8\ntarget 9\n").unwrap();
        assert_eq!((empty.wall_count(), empty.target), (0, Some(9)));
    }

    #[test]
    fn bad_files_name_the_line() {
        assert!(bad("queen 8\n").contains(":1: a board starts with 'queens N'"));
        assert!(bad("queens 0\n").contains(":1: '0' is not a board side"));
        assert!(bad("queens 2\nX.\n").contains(":2: the board has 1 rows, not 2"));
        assert!(bad("queens 2\nX.\n.\n").contains(":3: this row has 1 cells, not 2"));
        assert!(bad("queens 2\nXo\n..\n").contains(":2: 'o' on the board"));
        assert!(bad("queens 2\ntarget x\n").contains(":2: 'x' is not a number"));
        assert!(bad("queens 2\nX.\n..\nvalue 1\n").contains(":4: 'value' comes before the board"));
        assert!(bad("queens 2\ntarget 4\nX.\n..\n").contains("target 4 is more queens"));
        assert!(bad("queens 2\ntarget 5\n").contains(":2: '5' is not a number from 0 to 4"));
        assert!(bad("queens 2\nsolution\nQ.\n").contains(":2: the solution is not 2 by 2"));
        assert!(bad("queens 2\nfoo bar\n").contains(":2: 'foo bar': expected a keyword"));
        assert!(bad("").contains("empty file"));
    }
}
