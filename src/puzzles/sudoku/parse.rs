//! Sudoku input formats.
//!
//! 1. The line format: one puzzle per line, n·n characters, '.' or '0' for a blank,
//!    '1'–'9' then 'A'–'Z' (either case) for 10–35. The box shape follows from n: the
//!    box has as many rows as the largest divisor of n not above √n (so 6×6 has 2×3
//!    boxes, 12×12 has 3×4). Blank lines and lines starting with '#' are skipped.
//! 2. Simon Tatham's Solo game IDs, as printed by `sgt-solo --generate N PARAMS`:
//!    `CxR:DESC`, where each box is C rows by R columns (so n = C·R), and DESC lists the
//!    cells row by row: a number is a given, a letter 'a'–'z' is a run of 1–26 blanks,
//!    and '_' separates two adjacent numbers. Solo's variants (X diagonals, jigsaw,
//!    killer) are refused with an error.

use super::Sudoku;
use crate::puzzles::InputError;
use std::path::Path;

/// The character of a value in the line format ('.' for 0).
pub fn value_char(v: u32) -> char {
    match v {
        0 => '.',
        1..=9 => char::from_digit(v, 10).expect("digit"),
        _ => (b'A' + (v - 10) as u8) as char,
    }
}

/// Parses every puzzle in `text` (the contents of `path`). Instances are named after the
/// file stem, with `:LINE` appended when the file holds more than one puzzle.
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<Sudoku>, InputError> {
    crate::puzzles::parse_one_per_line(
        path,
        text,
        "sudoku",
        |line| {
            if line.contains(':') {
                parse_solo(line)
            } else {
                parse_line(line)
            }
        },
        |s, name| s.name = name,
    )
}

fn char_value(c: char) -> Option<u32> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => c.to_digit(10),
        'A'..='Z' => Some(c as u32 - 'A' as u32 + 10),
        'a'..='z' => Some(c as u32 - 'a' as u32 + 10),
        _ => None,
    }
}

/// Parses one puzzle in the line format.
pub fn parse_line(line: &str) -> Result<Sudoku, String> {
    let chars: Vec<char> = line.chars().collect();
    let len = chars.len();
    let n = (len as f64).sqrt().round() as usize;
    if n * n != len || n < 1 {
        return Err(format!(
            "a puzzle line has n*n characters; this one has {len}, which is not a square"
        ));
    }
    if n > 35 {
        return Err(format!(
            "grids above 35x35 do not fit the one-character format (n = {n})"
        ));
    }
    let box_rows = (1..=n)
        .filter(|d| n.is_multiple_of(*d) && d * d <= n)
        .max()
        .unwrap_or(1);
    let box_cols = n / box_rows;
    let mut givens = vec![vec![0u32; n]; n];
    for (k, &c) in chars.iter().enumerate() {
        let v = char_value(c).ok_or_else(|| {
            format!(
                "character {} is '{c}', not a digit, letter, '.' or '0'",
                k + 1
            )
        })?;
        if v as usize > n {
            return Err(format!("character {} is '{c}' = {v}, above n = {n}", k + 1));
        }
        givens[k / n][k % n] = v;
    }
    Ok(Sudoku {
        name: String::new(),
        box_rows,
        box_cols,
        givens,
    })
}

/// Parses one Solo game ID.
pub fn parse_solo(id: &str) -> Result<Sudoku, String> {
    let (params, desc) = id.split_once(':').expect("caller checked for ':'");
    let digits_end = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let c_end = digits_end(params);
    let c: usize = params[..c_end]
        .parse()
        .map_err(|_| format!("Solo parameters '{params}' do not start with CxR"))?;
    let rest = &params[c_end..];
    if !rest.starts_with('x') || rest.len() < 2 {
        if rest.starts_with('j') {
            return Err("Solo jigsaw puzzles are not supported".into());
        }
        return Err(format!(
            "Solo parameters '{params}' are not of the form CxR"
        ));
    }
    let rest = &rest[1..];
    let r_end = digits_end(rest);
    let r: usize = rest[..r_end]
        .parse()
        .map_err(|_| format!("Solo parameters '{params}' are not of the form CxR"))?;
    match &rest[r_end..] {
        "" => {}
        flags if flags.contains('x') => {
            return Err("Solo X-diagonal puzzles are not supported".into())
        }
        flags if flags.contains('k') => return Err("Solo killer puzzles are not supported".into()),
        flags if flags.contains('j') => return Err("Solo jigsaw puzzles are not supported".into()),
        flags => return Err(format!("unknown Solo parameter flags '{flags}'")),
    }
    if c == 0 || r == 0 {
        return Err("Solo box dimensions must be positive".into());
    }
    let n = c * r;
    if n > 64 {
        return Err(format!("grid side {n} is too large"));
    }
    let mut cells: Vec<u32> = Vec::with_capacity(n * n);
    let bytes: Vec<char> = desc.chars().collect();
    let mut k = 0;
    while k < bytes.len() {
        let ch = bytes[k];
        if ch.is_ascii_lowercase() {
            let run = ch as usize - 'a' as usize + 1;
            cells.extend(std::iter::repeat_n(0, run));
            k += 1;
        } else if ch.is_ascii_digit() {
            let start = k;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            let s: String = bytes[start..k].iter().collect();
            let v: u32 = s
                .parse()
                .map_err(|_| format!("number '{s}' is too large"))?;
            if v == 0 || v as usize > n {
                return Err(format!("given {v} is outside 1..{n}"));
            }
            cells.push(v);
        } else if ch == '_' {
            k += 1;
        } else if ch == ',' {
            return Err(
                "Solo descriptions with extra sections (jigsaw or killer) are not supported".into(),
            );
        } else {
            return Err(format!(
                "unexpected character '{ch}' in the Solo description"
            ));
        }
        if cells.len() > n * n {
            return Err(format!("the description has more than {} cells", n * n));
        }
    }
    if cells.len() != n * n {
        return Err(format!(
            "the description has {} cells, a {n}x{n} grid needs {}",
            cells.len(),
            n * n
        ));
    }
    let givens = cells.chunks(n).map(|r| r.to_vec()).collect();
    Ok(Sudoku {
        name: String::new(),
        box_rows: c,
        box_cols: r,
        givens,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_format_shapes() {
        let s = parse_line(&".".repeat(81)).unwrap();
        assert_eq!((s.box_rows, s.box_cols), (3, 3));
        let s = parse_line(&".".repeat(36)).unwrap();
        assert_eq!((s.box_rows, s.box_cols), (2, 3));
        let s = parse_line(&format!("G{}", ".".repeat(255))).unwrap();
        assert_eq!(s.givens[0][0], 16);
    }

    #[test]
    fn line_format_errors() {
        assert!(parse_line(&".".repeat(80)).unwrap_err().contains("80"));
        assert!(parse_line(&format!("{}x", ".".repeat(80)))
            .unwrap_err()
            .contains("character 81"));
        assert!(parse_line(&format!("{}A", ".".repeat(80)))
            .unwrap_err()
            .contains("above n = 9"));
    }

    #[test]
    fn solo_ids() {
        let s = parse_solo("2x3:3a6g3a2_4h5_4a1g6a2").unwrap();
        assert_eq!((s.box_rows, s.box_cols), (2, 3));
        assert_eq!(s.givens[0], vec![3, 0, 6, 0, 0, 0]);
        assert_eq!(s.givens[2], vec![2, 4, 0, 0, 0, 0]);
        assert_eq!(s.givens[5], vec![0, 0, 0, 6, 0, 2]);
        assert!(parse_solo("3x3x:a").unwrap_err().contains("X-diagonal"));
        assert!(parse_solo("2x3:3a6").unwrap_err().contains("needs 36"));
        assert!(parse_solo("2x3:9z").unwrap_err().contains("outside"));
        assert!(parse_solo("axb:1").is_err());
    }

    #[test]
    fn file_errors_name_file_and_line() {
        let p = Path::new("puzzles.txt");
        let e = parse_file(p, "# c\n\n..x\n").unwrap_err();
        assert_eq!(e.to_string(), "puzzles.txt:3: a puzzle line has n*n characters; this one has 3, which is not a square");
        assert!(parse_file(p, "# only comments\n")
            .unwrap_err()
            .to_string()
            .contains("no puzzle"));
    }
}
