//! Sudoku input formats.
//!
//! 1. The line format: one puzzle per line, n·n characters, '.' or '0' for a blank,
//!    '1'–'9' then 'A'–'Z' (either case) for 10–35. The box shape follows from n: the
//!    box has as many rows as the largest divisor of n not above √n (so 6×6 has 2×3
//!    boxes, 12×12 has 3×4). Blank lines and lines starting with '#' are skipped.
//! 2. Simon Tatham's Solo game IDs, as printed by `sgt-solo --generate N PARAMS`:
//!    `CxR:DESC`, where each box is C rows by R columns (so n = C·R), and DESC lists the
//!    cells row by row: a number is a given, a letter 'a'–'z' is a run of 1–26 blanks,
//!    and '_' separates two adjacent numbers; the variants X (`3x3x:`), jigsaw (`9j:`)
//!    and killer (`3x3k:`) add what [`parse_solo`] says.
//! 3. The variant text format, one puzzle per file:
//!
//!    ```text
//!    sudoku 9            # the side n (boxes as in the line format, or:)
//!    boxes 3x3           # box rows x box columns
//!    diagonals           # X-Sudoku: each main diagonal holds every value once
//!    regions             # jigsaw: n lines of n characters, one per region, follow
//!    givens              # n lines of n characters as in the line format follow
//!    cage 15 r1c1 r1c2   # killer cage: sum, then cells (row, column from 1)
//!    ```

use super::Sudoku;
use crate::puzzles::cages::{Cage, Op};
use crate::puzzles::tatham::{self, Dialect};
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
    let first = text
        .lines()
        .map(|l| crate::puzzles::split_keyword(l).0)
        .find(|k| !k.is_empty());
    if first == Some("sudoku") {
        let mut p = parse_text(path, text)?;
        p.name = path
            .file_stem()
            .map_or("sudoku".into(), |s| s.to_string_lossy().to_string());
        return Ok(vec![p]);
    }
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
    let (box_rows, box_cols) = default_boxes(n);
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
    Ok(Sudoku::plain(box_rows, box_cols, givens))
}

/// Parses the variant text format; errors name the file and line.
pub fn parse_text(path: &Path, text: &str) -> Result<Sudoku, InputError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut n: Option<usize> = None;
    let mut boxes: Option<(usize, usize)> = None;
    let mut diagonals = false;
    let mut regions: Option<Vec<Vec<usize>>> = None;
    let mut givens: Option<Vec<Vec<u32>>> = None;
    let mut cages: Vec<(usize, Cage)> = Vec::new();
    let mut no = 0;
    while no < lines.len() {
        let line = no + 1;
        let err = |m: String| InputError::new(path, line, m);
        let (key, rest) = crate::puzzles::split_keyword(lines[no]);
        no += 1;
        if key.is_empty() {
            continue;
        }
        if key == "sudoku" {
            if n.is_some() {
                return Err(err("a second 'sudoku' line (one puzzle per file)".into()));
            }
            let side: usize = rest
                .parse()
                .map_err(|_| err(format!("'sudoku' takes the side n, not '{rest}'")))?;
            if !(1..=35).contains(&side) {
                return Err(err(format!("side {side} is outside 1..35")));
            }
            n = Some(side);
            continue;
        }
        let Some(side) = n else {
            return Err(err("the file must start with 'sudoku N'".into()));
        };
        match key {
            "boxes" => {
                let (r, c) = rest
                    .split_once('x')
                    .and_then(|(r, c)| {
                        Some((
                            r.trim().parse::<usize>().ok()?,
                            c.trim().parse::<usize>().ok()?,
                        ))
                    })
                    .ok_or_else(|| err(format!("'boxes' takes RxC, not '{rest}'")))?;
                if r * c != side || r == 0 {
                    return Err(err(format!(
                        "boxes {r}x{c} do not tile a {side}x{side} grid"
                    )));
                }
                boxes = Some((r, c));
            }
            "diagonals" => diagonals = true,
            "regions" | "givens" => {
                let block = grid_lines(path, &lines, &mut no, side, key)?;
                if key == "regions" {
                    regions = Some(region_ids(path, line, &block, side)?);
                } else {
                    let mut g = vec![vec![0u32; side]; side];
                    for (i, row) in block.iter().enumerate() {
                        for (j, ch) in row.chars().enumerate() {
                            let v = char_value(ch).filter(|&v| v as usize <= side).ok_or_else(
                                || {
                                    InputError::new(
                                        path,
                                        line + 1 + i,
                                        format!("'{ch}' is not a value of 1..{side} or '.'"),
                                    )
                                },
                            )?;
                            g[i][j] = v;
                        }
                    }
                    givens = Some(g);
                }
            }
            "cage" => {
                let mut words = rest.split_whitespace();
                let sum: u64 = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .filter(|&v| v > 0)
                    .ok_or_else(|| {
                        err("'cage' takes its sum (a positive number) and then its cells".into())
                    })?;
                let mut cells = Vec::new();
                for w in words {
                    let cell = parse_cell(w, side).map_err(&err)?;
                    if cells.contains(&cell) {
                        return Err(err(format!("cell '{w}' is listed twice")));
                    }
                    cells.push(cell);
                }
                if cells.is_empty() || cells.len() > side {
                    return Err(err(format!(
                        "a cage has 1 to {side} cells, this one {}",
                        cells.len()
                    )));
                }
                cells.sort_unstable();
                for (other, c) in &cages {
                    if let Some(&(i, j)) = c.cells.iter().find(|x| cells.contains(x)) {
                        return Err(err(format!(
                            "cell r{}c{} is already in the cage of line {other}",
                            i + 1,
                            j + 1
                        )));
                    }
                }
                cages.push((
                    line,
                    Cage {
                        op: Op::Add,
                        target: sum,
                        cells,
                    },
                ));
            }
            _ => {
                return Err(err(format!(
                    "unknown keyword '{key}' (sudoku, boxes, diagonals, regions, givens, cage)"
                )))
            }
        }
    }
    let Some(n) = n else {
        return Err(InputError::new(path, 0, "no 'sudoku N' line"));
    };
    let (box_rows, box_cols) = match (&regions, boxes) {
        (Some(_), _) => (n, 1),
        (None, Some(b)) => b,
        (None, None) => default_boxes(n),
    };
    let mut p = Sudoku::plain(
        box_rows,
        box_cols,
        givens.unwrap_or_else(|| vec![vec![0; n]; n]),
    );
    p.regions = regions;
    p.diagonals = diagonals;
    p.cages = cages.into_iter().map(|(_, c)| c).collect();
    Ok(p)
}

/// The `n` lines after a `regions` or `givens` line (blank lines and comments skipped),
/// each of `n` characters once spaces are removed; `no` moves past them.
fn grid_lines(
    path: &Path,
    lines: &[&str],
    no: &mut usize,
    n: usize,
    what: &str,
) -> Result<Vec<String>, InputError> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let Some(raw) = lines.get(*no) else {
            return Err(InputError::new(
                path,
                *no,
                format!(
                    "'{what}' needs {n} lines, the file ends after {}",
                    out.len()
                ),
            ));
        };
        *no += 1;
        let content: String = raw
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if content.is_empty() {
            continue;
        }
        if content.chars().count() != n {
            return Err(InputError::new(
                path,
                *no,
                format!(
                    "a line of '{what}' has {n} characters, this one {}",
                    content.chars().count()
                ),
            ));
        }
        out.push(content);
    }
    Ok(out)
}

/// Region numbers (from 0, in the reading order of each region's first cell) from lines
/// of region characters; n regions of n cells each.
fn region_ids(
    path: &Path,
    line: usize,
    block: &[String],
    n: usize,
) -> Result<Vec<Vec<usize>>, InputError> {
    let mut symbols: Vec<char> = Vec::new();
    let mut ids = vec![vec![0; n]; n];
    for (i, row) in block.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            let k = match symbols.iter().position(|&s| s == ch) {
                Some(k) => k,
                None => {
                    symbols.push(ch);
                    symbols.len() - 1
                }
            };
            ids[i][j] = k;
        }
    }
    let count = |k: usize| ids.iter().flatten().filter(|&&r| r == k).count();
    if symbols.len() != n || (0..n).any(|k| count(k) != n) {
        return Err(InputError::new(
            path,
            line,
            format!(
                "the regions must be {n} regions of {n} cells; these are {} regions",
                symbols.len()
            ),
        ));
    }
    Ok(ids)
}

/// Reads a cell `rRcC` (row and column from 1).
fn parse_cell(word: &str, n: usize) -> Result<(usize, usize), String> {
    let bad = || format!("cell '{word}' is not of the form r<row>c<column>");
    let lower = word.to_ascii_lowercase();
    let (r, c) = lower
        .strip_prefix('r')
        .and_then(|r| r.split_once('c'))
        .ok_or_else(bad)?;
    let (r, c): (usize, usize) = (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
    if !(1..=n).contains(&r) || !(1..=n).contains(&c) {
        return Err(format!("cell '{word}' is outside the {n}x{n} grid"));
    }
    Ok((r - 1, c - 1))
}

/// The box shape of the line format for side n: as many rows as the largest divisor of n
/// not above √n.
fn default_boxes(n: usize) -> (usize, usize) {
    let box_rows = (1..=n)
        .filter(|d| n.is_multiple_of(*d) && d * d <= n)
        .max()
        .unwrap_or(1);
    (box_rows, n / box_rows)
}

/// Parses one Solo game ID: `PARAMS:DESC`. PARAMS is `CxR` (boxes of C rows and R
/// columns), or `N` alone (N×N boxes), then flags: `j` jigsaw (the grid is C·R wide and
/// the boxes give way to regions), `x` the X diagonals, `k` killer cages; symmetry (`r2`,
/// `m4`, `md2`, `a`, ...) and difficulty (`db`, `de`, ...) say how the puzzle was made and
/// change nothing here. DESC is the givens, then for jigsaw `,` and the regions, then for
/// killer `,` the cages and `,` their sums: the regions and cages in the block structure
/// of Tatham's IDs as Solo reads it ([`crate::puzzles::tatham`]), the sums as a grid like
/// the givens with each cage's sum in one of its cells.
pub fn parse_solo(id: &str) -> Result<Sudoku, String> {
    let (params, desc) = id.split_once(':').expect("caller checked for ':'");
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let c_end = digits(params);
    let mut c: usize = params[..c_end]
        .parse()
        .map_err(|_| format!("Solo parameters '{params}' do not start with CxR"))?;
    let mut rest = &params[c_end..];
    let mut r = c;
    let mut seen_r = false;
    if let Some(after) = rest.strip_prefix('x') {
        let r_end = digits(after);
        r = after[..r_end]
            .parse()
            .map_err(|_| format!("Solo parameters '{params}' are not of the form CxR"))?;
        seen_r = true;
        rest = &after[r_end..];
    }
    let (mut jigsaw, mut diagonals, mut killer) = (false, false, false);
    let mut flags = rest.chars().peekable();
    while let Some(f) = flags.next() {
        match f {
            'j' => {
                if seen_r {
                    c *= r;
                }
                r = 1;
                jigsaw = true;
            }
            'x' => diagonals = true,
            'k' => killer = true,
            'r' | 'm' | 'a' => {
                if f == 'm' && flags.peek() == Some(&'d') {
                    flags.next();
                }
                while flags.peek().is_some_and(|d| d.is_ascii_digit()) {
                    flags.next();
                }
            }
            'd' => match flags.next() {
                Some('t' | 'b' | 'i' | 'a' | 'e' | 'u') => {}
                _ => return Err(format!("unknown Solo difficulty in '{params}'")),
            },
            _ => return Err(format!("unknown Solo parameter flag '{f}' in '{params}'")),
        }
    }
    if c == 0 || r == 0 {
        return Err("Solo box dimensions must be positive".into());
    }
    let n = c * r;
    if n > 64 {
        return Err(format!("grid side {n} is too large"));
    }
    let mut parts = desc.split(',');
    let givens = grid_spec(parts.next().unwrap_or(""), n, n as u64, "givens")?;
    let mut sudoku = Sudoku::plain(
        c,
        r,
        givens
            .chunks(n)
            .map(|row| row.iter().map(|&v| v as u32).collect())
            .collect(),
    );
    sudoku.diagonals = diagonals;
    if jigsaw {
        let spec = parts.next().ok_or(
            "a jigsaw ID needs its regions after the givens (a ',' and the block structure)",
        )?;
        let blocks = tatham::blocks(&tatham::decode_blocks(spec, n, Dialect::Solo)?, n);
        if blocks.len() != n || blocks.iter().any(|b| b.len() != n) {
            return Err(format!(
                "a jigsaw grid of side {n} needs {n} regions of {n} cells; this one has {} regions",
                blocks.len()
            ));
        }
        let mut regions = vec![vec![0; n]; n];
        for (k, b) in blocks.iter().enumerate() {
            for &(i, j) in b {
                regions[i][j] = k;
            }
        }
        sudoku.regions = Some(regions);
    }
    if killer {
        let spec = parts.next().ok_or(
            "a killer ID needs its cages after the givens (a ',' and the block structure)",
        )?;
        let cages = tatham::blocks(&tatham::decode_blocks(spec, n, Dialect::Solo)?, n);
        let sums = parts
            .next()
            .ok_or("a killer ID needs the cages' sums after the cages (a ',' and a grid)")?;
        let sums = grid_spec(sums, n, (n * n * n) as u64, "killer sums")?;
        for cells in cages {
            let clues: Vec<u64> = cells
                .iter()
                .map(|&(i, j)| sums[i * n + j])
                .filter(|&v| v > 0)
                .collect();
            let (i, j) = cells[0];
            if clues.len() != 1 {
                return Err(format!(
                    "the killer cage at r{}c{} has {} sums, not one",
                    i + 1,
                    j + 1,
                    clues.len()
                ));
            }
            if cells.len() > n {
                return Err(format!(
                    "the killer cage at r{}c{} has {} cells, more than the {n} values",
                    i + 1,
                    j + 1,
                    cells.len()
                ));
            }
            sudoku.cages.push(Cage {
                op: Op::Add,
                target: clues[0],
                cells,
            });
        }
    }
    if let Some(extra) = parts.next() {
        return Err(format!(
            "unexpected data after the description: ',{extra}' (is a j or k flag missing?)"
        ));
    }
    Ok(sudoku)
}

/// Reads a grid of Solo's description: a number is a cell's value, a letter 'a'–'z' is a
/// run of 1–26 empty cells, '_' separates two numbers. Values lie in 1..=`max`.
fn grid_spec(spec: &str, n: usize, max: u64, what: &str) -> Result<Vec<u64>, String> {
    let mut cells: Vec<u64> = Vec::with_capacity(n * n);
    let chars: Vec<char> = spec.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        let ch = chars[k];
        if ch.is_ascii_lowercase() {
            let run = ch as usize - 'a' as usize + 1;
            cells.extend(std::iter::repeat_n(0, run));
            k += 1;
        } else if ch.is_ascii_digit() {
            let start = k;
            while k < chars.len() && chars[k].is_ascii_digit() {
                k += 1;
            }
            let s: String = chars[start..k].iter().collect();
            let v: u64 = s
                .parse()
                .map_err(|_| format!("number '{s}' is too large"))?;
            if v == 0 || v > max {
                return Err(format!("{what}: {v} is outside 1..{max}"));
            }
            cells.push(v);
        } else if ch == '_' {
            k += 1;
        } else {
            return Err(format!("unexpected character '{ch}' in the {what}"));
        }
        if cells.len() > n * n {
            return Err(format!("the {what} have more than {} cells", n * n));
        }
    }
    if cells.len() != n * n {
        return Err(format!(
            "the {what} have {} cells, a {n}x{n} grid needs {}",
            cells.len(),
            n * n
        ));
    }
    Ok(cells)
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
