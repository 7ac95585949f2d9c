//! Hashi input formats.
//!
//! 1. Simon Tatham's Bridges game IDs, as printed by `sgt-bridges --generate N PARAMS`:
//!    `WxH[flags]:DESC`. W is the number of columns, H of rows. The flags are `m` and the
//!    most bridges per pair (default 2), and the generator's `i` (island percentage),
//!    `e` (expansion) and `d` (difficulty), each followed by a number, which are read and
//!    ignored. `L` (loops forbidden, a rule the models do not have) is refused. DESC lists
//!    the cells row by row: `1`–`9` and `A`–`G` (10–16) are islands, `a`–`z` a run of 1–26
//!    water cells. One ID per line; blank lines and lines starting with `#` are skipped.
//! 2. The `.has` format of the Hashi benchmark of Coelho et al.: a first line
//!    `rows cols islands`, then `rows` lines of `cols` numbers separated by white space,
//!    0 for water and 1–8 for an island. The island count must match. At most 2 bridges
//!    per pair. A file is read in this format when its first line holds three numbers.
//!
//! Instances are named after the file stem, with `:LINE` appended when a file holds more
//! than one puzzle.

use super::{Hashi, Island};
use crate::puzzles::InputError;
use std::path::Path;

/// Largest grid side accepted (a guard against absurd input).
pub const MAX_SIDE: usize = 1000;

/// The character of a label in a game ID: `1`–`9`, then `A` for 10 up to `G` for 16.
pub fn label_char(l: u32) -> char {
    match l {
        1..=9 => char::from_digit(l, 10).expect("digit"),
        10..=35 => (b'A' + (l - 10) as u8) as char,
        _ => '?',
    }
}

/// Parses every puzzle in `text` (the contents of `path`).
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<Hashi>, InputError> {
    let stem = path
        .file_stem()
        .map_or("hashi".into(), |s| s.to_string_lossy().to_string());
    let first = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    if let Some((_, line)) = first {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() == 3 && fields.iter().all(|f| f.parse::<u64>().is_ok()) {
            let mut h = parse_has(text).map_err(|(line, m)| InputError::new(path, line, m))?;
            h.name = stem;
            return Ok(vec![h]);
        }
    }
    crate::puzzles::parse_one_per_line(path, text, "hashi", parse_game_id, |h, name| h.name = name)
}

/// Reads a number made of the digits at the front of `s`; returns it and the rest.
fn number(s: &str) -> Option<(usize, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 || end > 6 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// Parses one Bridges game ID.
pub fn parse_game_id(id: &str) -> Result<Hashi, String> {
    let Some((params, desc)) = id.split_once(':') else {
        if id.contains('#') {
            return Err("random-seed IDs ('PARAMS#SEED') are not supported; give the descriptive game ID (with ':')".into());
        }
        return Err(format!(
            "'{}' is not a Bridges game ID (PARAMS:DESC)",
            short(id)
        ));
    };
    let bad = || {
        format!(
            "Bridges parameters '{}' are not of the form WxH",
            short(params)
        )
    };
    let (w, rest) = number(params).ok_or_else(bad)?;
    let rest = rest.strip_prefix('x').ok_or_else(bad)?;
    let (h, mut rest) = number(rest).ok_or_else(bad)?;
    if w == 0 || h == 0 {
        return Err("the grid must have at least one row and one column".into());
    }
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!("grid {w}x{h} is larger than {MAX_SIDE}x{MAX_SIDE}"));
    }
    let mut max_bridges = 2u32;
    while let Some(flag) = rest.chars().next() {
        rest = &rest[flag.len_utf8()..];
        match flag {
            'm' | 'i' | 'e' | 'd' => {
                let (v, r) = number(rest)
                    .ok_or_else(|| format!("Bridges parameter '{flag}' needs a number"))?;
                rest = r;
                if flag == 'm' {
                    if !(1..=4).contains(&v) {
                        return Err(format!("at most 1 to 4 bridges per pair, not {v}"));
                    }
                    max_bridges = v as u32;
                }
            }
            'L' => {
                return Err(
                    "Bridges with loops forbidden ('L') is not supported: the models allow loops"
                        .into(),
                )
            }
            other => return Err(format!("unknown Bridges parameter flag '{other}'")),
        }
    }
    let mut islands = Vec::new();
    let mut cell = 0usize;
    let cells = w * h;
    for ch in desc.chars() {
        let label = match ch {
            'a'..='z' => {
                cell += (ch as usize - 'a' as usize) + 1;
                if cell > cells {
                    return Err(format!("the description has more than {cells} cells"));
                }
                continue;
            }
            '1'..='9' => ch as u32 - '0' as u32,
            'A'..='G' => ch as u32 - 'A' as u32 + 10,
            _ => {
                return Err(format!(
                    "unexpected character '{ch}' in the Bridges description"
                ))
            }
        };
        if cell >= cells {
            return Err(format!("the description has more than {cells} cells"));
        }
        islands.push(Island {
            row: cell / w,
            col: cell % w,
            label,
        });
        cell += 1;
    }
    if cell != cells {
        return Err(format!(
            "the description has {cell} cells, a {w}x{h} grid needs {cells}"
        ));
    }
    if islands.is_empty() {
        return Err("the puzzle has no islands".into());
    }
    Ok(Hashi {
        name: String::new(),
        rows: h,
        cols: w,
        max_bridges,
        islands,
    })
}

/// Parses a `.has` file; errors carry their line (1-based).
pub fn parse_has(text: &str) -> Result<Hashi, (usize, String)> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let (hno, header) = lines.next().ok_or((0, "empty file".to_string()))?;
    let nums: Vec<usize> = header
        .split_whitespace()
        .map(|f| f.parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            (
                hno + 1,
                "the first line must be 'rows cols islands'".to_string(),
            )
        })?;
    let [rows, cols, count] = nums[..] else {
        return Err((hno + 1, "the first line must be 'rows cols islands'".into()));
    };
    if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
        return Err((
            hno + 1,
            format!("grid {rows}x{cols} is empty or larger than {MAX_SIDE}x{MAX_SIDE}"),
        ));
    }
    let mut islands = Vec::new();
    let mut last = hno;
    for r in 0..rows {
        let (no, line) = lines.next().ok_or_else(|| {
            (
                last + 2,
                format!("the grid has {r} rows, the header says {rows}"),
            )
        })?;
        last = no;
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != cols {
            return Err((
                no + 1,
                format!(
                    "row {} has {} cells, the header says {cols}",
                    r + 1,
                    fields.len()
                ),
            ));
        }
        for (c, f) in fields.iter().enumerate() {
            let v: u32 =
                f.parse().ok().filter(|v| *v <= 8).ok_or_else(|| {
                    (no + 1, format!("cell {} is '{}', not 0-8", c + 1, short(f)))
                })?;
            if v > 0 {
                islands.push(Island {
                    row: r,
                    col: c,
                    label: v,
                });
            }
        }
    }
    if let Some((no, _)) = lines.next() {
        return Err((no + 1, format!("more rows than the {rows} the header says")));
    }
    if islands.len() != count {
        return Err((
            hno + 1,
            format!(
                "the header says {count} islands, the grid has {}",
                islands.len()
            ),
        ));
    }
    if islands.is_empty() {
        return Err((hno + 1, "the puzzle has no islands".into()));
    }
    Ok(Hashi {
        name: String::new(),
        rows,
        cols,
        max_bridges: 2,
        islands,
    })
}

/// The start of a long text, for error messages.
fn short(s: &str) -> String {
    let mut out: String = s.chars().take(30).collect();
    if s.chars().count() > 30 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids() {
        let h = parse_game_id("9x5m2:3a3a4a5a1a3a2g2a3e2d5a21h").unwrap();
        assert_eq!((h.rows, h.cols, h.max_bridges), (5, 9, 2));
        assert_eq!(
            h.islands[0],
            Island {
                row: 0,
                col: 0,
                label: 3
            }
        );
        assert_eq!(
            h.islands[5],
            Island {
                row: 1,
                col: 1,
                label: 3
            }
        );
        let last = h.islands.last().unwrap();
        assert_eq!((last.row, last.col, last.label), (4, 0, 1));
        let h = parse_game_id("7x7m4:6bAb5e4a4a4k1b7a7h4aBc7").unwrap();
        assert_eq!(h.max_bridges, 4);
        assert_eq!(h.islands[1].label, 10);
        assert_eq!(parse_game_id(&h.to_game_id()).unwrap().islands, h.islands);
        let h = parse_game_id("7x7i30e10m3d0:3c6a3n7c9a7g4a2b1b3d5").unwrap();
        assert_eq!(h.max_bridges, 3);
    }

    #[test]
    fn game_id_errors() {
        assert!(parse_game_id("7x7m2L:2a").unwrap_err().contains("loops"));
        assert!(parse_game_id("7x7m2#1234")
            .unwrap_err()
            .contains("random-seed"));
        assert!(parse_game_id("3x3:1a").unwrap_err().contains("needs 9"));
        assert!(parse_game_id("3x3:1z").unwrap_err().contains("more than 9"));
        assert!(parse_game_id("3x3:i").unwrap_err().contains("no islands"));
        assert!(parse_game_id("3x3m9:1h").unwrap_err().contains("1 to 4"));
        assert!(parse_game_id("3x3q:1h").unwrap_err().contains("flag 'q'"));
        assert!(parse_game_id("3:1h").unwrap_err().contains("WxH"));
        assert!(parse_game_id("2x1:1H").unwrap_err().contains("'H'"));
    }

    #[test]
    fn has_files() {
        let h = parse_has("3 4 3\n1 0 0 2\n0 0 0 0\n0 0 0 1\n").unwrap();
        assert_eq!((h.rows, h.cols, h.islands.len()), (3, 4, 3));
        assert_eq!(
            h.islands[2],
            Island {
                row: 2,
                col: 3,
                label: 1
            }
        );
        assert_eq!(
            parse_has("3 4 2\n1 0 0 2\n0 0 0 0\n0 0 0 1\n")
                .unwrap_err()
                .0,
            1
        );
        assert_eq!(parse_has("2 2 1\n1 0\n0\n").unwrap_err().0, 3);
        assert_eq!(parse_has("2 2 1\n1 0\n0 9\n").unwrap_err().0, 3);
        assert_eq!(parse_has("2 2 1\n1 0\n").unwrap_err().0, 3);
        assert_eq!(parse_has("1 2 1\n1 0\n0 0\n").unwrap_err().0, 3);
    }

    #[test]
    fn file_errors_name_file_and_line() {
        let p = Path::new("b.txt");
        let e = parse_file(p, "# c\n\n3x3:1a\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "b.txt:3: the description has 2 cells, a 3x3 grid needs 9"
        );
        let e = parse_file(Path::new("b.has"), "2 2 1\n1 x\n0 0\n").unwrap_err();
        assert_eq!(e.to_string(), "b.has:2: cell 2 is 'x', not 0-8");
        let several = parse_file(p, "3x3:1a1f\n3x3:2a2f\n").unwrap();
        assert_eq!(several[1].name, "b:2");
    }
}
