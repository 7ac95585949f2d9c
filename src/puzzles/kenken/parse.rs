//! KenKen input formats.
//!
//! 1. Simon Tatham's Keen game IDs, as printed by `sgt-keen --generate N PARAMS`, one per
//!    line: `W[dD][m]:BLOCKS,CLUES`. W is the side; `dD` (difficulty) and `m`
//!    (multiplication only) say how the puzzle was made and change nothing here. BLOCKS
//!    gives the cage walls in the block structure of Tatham's IDs, as Keen reads it
//!    ([`crate::puzzles::tatham`]). CLUES lists one clue per cage, cages in the reading
//!    order of their first cell: `a` (+), `m` (×), `s` (−) or `d` (÷) and the target; a
//!    one-cell cage is written `a` and its value.
//! 2. The text format, one puzzle per file:
//!
//!    ```text
//!    kenken 6            # the side n
//!    11+ r1c1 r2c1       # a cage: target, operation, cells (row and column from 1)
//!    2/ r1c2 r1c3        # operations: + - * (or x) / ; - and / take two cells
//!    5 r3c3              # a one-cell cage: its value, no operation
//!    ```
//!
//! Every cell is in exactly one cage; a one-cell `+` or `*` cage is a given.

use super::{Cage, KenKen, Op};
use crate::puzzles::tatham::{self, Dialect};
use crate::puzzles::{split_keyword, InputError};
use std::path::Path;

/// Largest side accepted (values are written as numbers, so any side would do; this keeps
/// models of a sane size).
pub const MAX_N: usize = 36;

/// Parses every puzzle in `text` (the contents of `path`): the text format when the first
/// line that is not blank or a comment starts with `kenken`, else one Keen ID per line.
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<KenKen>, InputError> {
    let first = text
        .lines()
        .map(|l| split_keyword(l).0)
        .find(|k| !k.is_empty());
    if first == Some("kenken") {
        let mut p = parse_text(path, text)?;
        p.name = path
            .file_stem()
            .map_or("kenken".into(), |s| s.to_string_lossy().to_string());
        return Ok(vec![p]);
    }
    crate::puzzles::parse_one_per_line(path, text, "kenken", parse_keen, |k, name| k.name = name)
}

/// Parses the text format; errors name the file and line.
pub fn parse_text(path: &Path, text: &str) -> Result<KenKen, InputError> {
    let mut n: Option<usize> = None;
    let mut cages: Vec<(usize, Cage)> = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = no + 1;
        let err = |m: String| InputError::new(path, line, m);
        let (key, rest) = split_keyword(raw);
        if key.is_empty() {
            continue;
        }
        if key == "kenken" {
            if n.is_some() {
                return Err(err("a second 'kenken' line (one puzzle per file)".into()));
            }
            let side: usize = rest
                .parse()
                .map_err(|_| err(format!("'kenken' takes the side n, not '{rest}'")))?;
            if !(1..=MAX_N).contains(&side) {
                return Err(err(format!("side {side} is outside 1..{MAX_N}")));
            }
            n = Some(side);
            continue;
        }
        let Some(side) = n else {
            return Err(err("the file must start with 'kenken N'".into()));
        };
        let (op, target) = parse_clue(key).map_err(&err)?;
        let cells = rest
            .split_whitespace()
            .map(|c| parse_cell(c, side))
            .collect::<Result<Vec<_>, _>>()
            .map_err(&err)?;
        let cage = make_cage(op, target, cells, side).map_err(&err)?;
        cages.push((line, cage));
    }
    let Some(n) = n else {
        return Err(InputError::new(path, 0, "no 'kenken N' line"));
    };
    let mut owner = vec![vec![0usize; n]; n];
    for (line, c) in &cages {
        for &(i, j) in &c.cells {
            if owner[i][j] != 0 {
                return Err(InputError::new(
                    path,
                    *line,
                    format!(
                        "cell r{}c{} is already in the cage of line {}",
                        i + 1,
                        j + 1,
                        owner[i][j]
                    ),
                ));
            }
            owner[i][j] = *line;
        }
    }
    for (i, row) in owner.iter().enumerate() {
        if let Some(j) = row.iter().position(|&o| o == 0) {
            return Err(InputError::new(
                path,
                0,
                format!("cell r{}c{} is in no cage", i + 1, j + 1),
            ));
        }
    }
    Ok(KenKen {
        name: String::new(),
        n,
        cages: cages.into_iter().map(|(_, c)| c).collect(),
    })
}

/// Reads a clue such as `11+`, `240*`, `2/`, `3-` or `5`.
fn parse_clue(word: &str) -> Result<(Op, u64), String> {
    let digits_end = word
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(word.len());
    let (num, op) = word.split_at(digits_end);
    let target: u64 = num.parse().map_err(|_| {
        format!("a cage line starts with its clue (target and operation), not '{word}'")
    })?;
    let op = match op {
        "" | "=" => Op::Given,
        "+" => Op::Add,
        "-" | "−" => Op::Sub,
        "*" | "x" | "X" | "×" => Op::Mul,
        "/" | "÷" => Op::Div,
        other => {
            return Err(format!(
                "unknown operation '{other}' in clue '{word}' (use + - * / or none)"
            ))
        }
    };
    Ok((op, target))
}

/// Reads a cell `rRcC` (row and column from 1).
fn parse_cell(word: &str, n: usize) -> Result<(usize, usize), String> {
    let bad = || format!("cell '{word}' is not of the form r<row>c<column>");
    let lower = word.to_ascii_lowercase();
    let rest = lower.strip_prefix('r').ok_or_else(bad)?;
    let (r, c) = rest.split_once('c').ok_or_else(bad)?;
    let r: usize = r.parse().map_err(|_| bad())?;
    let c: usize = c.parse().map_err(|_| bad())?;
    if !(1..=n).contains(&r) || !(1..=n).contains(&c) {
        return Err(format!("cell '{word}' is outside the {n}x{n} grid"));
    }
    Ok((r - 1, c - 1))
}

/// A cage after the checks every format shares: cells sorted and distinct, two cells for
/// − and ÷, a positive target, a one-cell + or × cage turned into a given, a given within
/// 1..=n.
fn make_cage(
    op: Op,
    target: u64,
    mut cells: Vec<(usize, usize)>,
    n: usize,
) -> Result<Cage, String> {
    if cells.is_empty() {
        return Err("a cage needs at least one cell".into());
    }
    cells.sort_unstable();
    if let Some(w) = cells.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "cell r{}c{} is listed twice in one cage",
            w[0].0 + 1,
            w[0].1 + 1
        ));
    }
    if target == 0 {
        return Err("a cage's target must be positive".into());
    }
    let op = match (op, cells.len()) {
        (Op::Sub | Op::Div, 2) => op,
        (Op::Sub | Op::Div, k) => {
            return Err(format!(
                "a {} cage has two cells, this one has {k}",
                if op == Op::Sub { "-" } else { "/" }
            ))
        }
        (Op::Given | Op::Add | Op::Mul, 1) => Op::Given,
        (Op::Given, k) => {
            return Err(format!(
                "a clue without an operation gives one cell, this cage has {k}"
            ))
        }
        (op, _) => op,
    };
    if op == Op::Given && target as usize > n {
        return Err(format!("given {target} is outside 1..{n}"));
    }
    Ok(Cage { op, target, cells })
}

/// Parses one Keen game ID.
pub fn parse_keen(id: &str) -> Result<KenKen, String> {
    let (params, desc) = id
        .split_once(':')
        .ok_or("a Keen game ID has the form W:DESCRIPTION")?;
    let digits_end = params
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(params.len());
    let w: usize = params[..digits_end]
        .parse()
        .map_err(|_| format!("Keen parameters '{params}' do not start with the side"))?;
    check_keen_flags(&params[digits_end..])?;
    if !(2..=MAX_N).contains(&w) {
        return Err(format!("side {w} is outside 2..{MAX_N}"));
    }
    let (blocks, clues) = desc
        .split_once(',')
        .ok_or("expected ',' after the block structure")?;
    // Cages in the reading order of their first cell, each with its cells in reading order.
    let members = tatham::blocks(&tatham::decode_blocks(blocks, w, Dialect::Keen)?, w);
    let chars: Vec<char> = clues.chars().collect();
    let mut at = 0;
    let mut cages = Vec::with_capacity(members.len());
    for (k, cells) in members.into_iter().enumerate() {
        let (r, c) = (cells[0].0 + 1, cells[0].1 + 1);
        let Some(&ch) = chars.get(at) else {
            return Err(format!(
                "too few clues: the cage at r{r}c{c} (number {}) has none",
                k + 1
            ));
        };
        let op = match ch {
            'a' => Op::Add,
            'm' => Op::Mul,
            's' => Op::Sub,
            'd' => Op::Div,
            _ => {
                return Err(format!(
                    "clue {} starts with '{ch}', not a, m, s or d",
                    k + 1
                ))
            }
        };
        at += 1;
        let start = at;
        while at < chars.len() && chars[at].is_ascii_digit() {
            at += 1;
        }
        let number: String = chars[start..at].iter().collect();
        let target: u64 = number
            .parse()
            .map_err(|_| format!("clue {} ('{ch}') has no number", k + 1))?;
        let cage =
            make_cage(op, target, cells, w).map_err(|e| format!("the cage at r{r}c{c}: {e}"))?;
        cages.push(cage);
    }
    if at < chars.len() {
        let rest: String = chars[at..].iter().collect();
        return Err(format!(
            "too many clues for the block structure: '{rest}' is left"
        ));
    }
    Ok(KenKen {
        name: String::new(),
        n: w,
        cages,
    })
}

/// Checks the flags after the side: `d` and a difficulty letter, `m`.
fn check_keen_flags(flags: &str) -> Result<(), String> {
    let mut rest = flags;
    if let Some(r) = rest.strip_prefix('d') {
        let mut it = r.chars();
        match it.next() {
            Some('e' | 'n' | 'h' | 'x' | 'u') => rest = it.as_str(),
            _ => {
                return Err(format!(
                    "unknown Keen difficulty in '{flags}' (e, n, h, x or u)"
                ))
            }
        }
    }
    if let Some(r) = rest.strip_prefix('m') {
        rest = r;
    }
    if !rest.is_empty() {
        return Err(format!("unknown Keen parameter flags '{rest}'"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells_of(k: &KenKen, clue: &str) -> Vec<Vec<(usize, usize)>> {
        k.cages
            .iter()
            .filter(|c| c.clue() == clue)
            .map(|c| c.cells.clone())
            .collect()
    }

    #[test]
    fn keen_id_of_a_4x4() {
        // sgt-keen --generate 1 4de
        let k = parse_keen("4:b_7a_ba_a3,a7s1a6s1m4m4m6").unwrap();
        assert_eq!(k.n, 4);
        assert_eq!(k.cages.len(), 7);
        let covered: usize = k.cages.iter().map(|c| c.cells.len()).sum();
        assert_eq!(covered, 16);
        // The first cage holds r1c1; clues follow the reading order of first cells.
        assert_eq!(k.cages[0].cells[0], (0, 0));
        assert_eq!(k.cages[0].clue(), "7+");
        let mut firsts: Vec<(usize, usize)> = k.cages.iter().map(|c| c.cells[0]).collect();
        let sorted = {
            let mut s = firsts.clone();
            s.sort();
            s
        };
        assert_eq!(firsts, sorted);
        firsts.dedup();
        assert_eq!(firsts.len(), 7);
        assert!(k
            .cages
            .iter()
            .all(|c| c.op != Op::Sub || c.cells.len() == 2));
    }

    #[test]
    fn keen_blocks_by_hand() {
        // 2x2: the inner edges are (0,0)|(0,1), (1,0)|(1,1), then (0,0)/(1,0), (0,1)/(1,1),
        // then the virtual one. "a_a": one open edge and a wall, a wall, one open edge and
        // the final wall. Cages: {(0,0),(0,1),(1,1)} and {(1,0)}.
        let e = parse_keen("2:a_a,a5a3").unwrap_err();
        assert!(e.contains("given 3 is outside 1..2"), "{e}");
        let k = parse_keen("2:a_a,a5a1").unwrap();
        assert_eq!(k.cages[0].cells, vec![(0, 0), (0, 1), (1, 1)]);
        assert_eq!(k.cages[1].cells, vec![(1, 0)]);
        assert_eq!(k.cages[1].op, Op::Given);
        // A repeat count: "_5" is five walls (four edges and the virtual one).
        let k = parse_keen("2:_5,a1a2a2a1").unwrap();
        assert_eq!(k.cages.len(), 4);
    }

    #[test]
    fn keen_errors() {
        assert!(parse_keen("4b_7a").unwrap_err().contains("W:"));
        assert!(parse_keen("4:b_7a_ba_a3").unwrap_err().contains("','"));
        assert!(parse_keen("4:b_7a_ba_a,a7s1a6s1m4m4m6")
            .unwrap_err()
            .contains("edges"));
        assert!(parse_keen("4:b_7a_ba_a3,a7s1a6s1m4m4")
            .unwrap_err()
            .contains("too few"));
        assert!(parse_keen("4:b_7a_ba_a3,a7s1a6s1m4m4m6a1")
            .unwrap_err()
            .contains("too many"));
        assert!(parse_keen("4:b_7a_ba_a3,a7s1a6s1q4m4m6")
            .unwrap_err()
            .contains("not a, m"));
        assert!(parse_keen("4dq:b_7a_ba_a3,a7s1a6s1m4m4m6")
            .unwrap_err()
            .contains("difficulty"));
        assert!(parse_keen("4:b_7a_ba_a3!,a7").unwrap_err().contains("'!'"));
        // A subtraction clue on a cage of three cells.
        assert!(parse_keen("2:a_a,s1a1").unwrap_err().contains("two cells"));
        assert!(parse_keen("4dxm:b_7a_ba_a3,a7s1a6s1m4m4m6").is_ok());
    }

    #[test]
    fn text_format() {
        let p = Path::new("k.txt");
        let text = "# two by two\nkenken 2\n3+ r1c1 r1c2\n2/ r2c1 r2c2\n";
        let k = parse_text(p, text).unwrap();
        assert_eq!(k.n, 2);
        assert_eq!(k.cages[1].op, Op::Div);
        assert_eq!(cells_of(&k, "2/"), vec![vec![(1, 0), (1, 1)]]);
        let bad = |t: &str| parse_text(p, t).unwrap_err().to_string();
        assert!(bad("kenken 2\n3+ r1c1 r1c2\n").contains("in no cage"));
        assert!(bad("kenken 2\n3+ r1c1 r1c2\n2/ r1c2 r2c2\n1 r2c1").starts_with("k.txt:3:"));
        assert!(bad("kenken 2\n3? r1c1 r1c2\n").contains("unknown operation"));
        assert!(bad("kenken 2\n3+ r1c1 r3c2\n").contains("outside"));
        assert!(bad("kenken 2\n3- r1c1 r1c2 r2c1\n").contains("two cells"));
        assert!(bad("3+ r1c1\n").contains("start with 'kenken N'"));
        assert!(bad("kenken 2\n3 r1c1 r1c2\n").contains("one cell"));
        assert!(bad("kenken 2\n0+ r1c1 r1c2\n").contains("positive"));
        assert!(bad("kenken 2\n3+ r1c1 rxc2\n").contains("r<row>c<column>"));
        let k = parse_text(p, "kenken 1\n1 r1c1\n").unwrap();
        assert_eq!(k.cages[0].op, Op::Given);
    }

    #[test]
    fn text_round_trip() {
        let k = parse_keen("4:_a_7a4_a3,d2d2s1a5s2m12a3m6").unwrap();
        let back = parse_text(Path::new("x"), &k.to_text()).unwrap();
        assert_eq!(back.cages, k.cages);
    }
}
