//! Nonogram input formats.
//!
//! 1. Simon Tatham's Pattern game IDs, as printed by `sgt-pattern --generate N WxH`, one
//!    per line: `W[xH]:CLUES[,SQUARES]` (H = W when left out). CLUES are the W column
//!    clues, left to right, then the H row clues, top to bottom, separated by `/`; a clue
//!    is its run lengths separated by `.`, empty for an empty line. SQUARES (newer
//!    versions) shows some cells from the start: reading the grid row by row, a letter
//!    skips as many cells as its distance from `a` and then shows the next one, black for
//!    a capital and white for a small letter, except `z`/`Z`, which skips 25 and shows
//!    none (facts from `pattern.c`, `validate_desc` and `new_game`).
//! 2. The webpbn `.non` format (as the nonogram-db project documents it): `width W` and
//!    `height H`, then `rows` followed by H lines and `columns` followed by W lines, each a
//!    comma-separated list of run lengths (a blank line or `0` for an empty line; a
//!    colour letter after a number is read and dropped, and a puzzle of more than one
//!    colour is refused), and optionally `goal "0110..."`, the answer row by row (`0`
//!    white, anything else black). `title`, `by`, `copyright`, `license` and `catalogue`
//!    are read (the licence is kept); other lines are ignored, as the format asks. One key
//!    is puzzlebench's own, since the format has none for it: `givens "??1?0..."`, cells
//!    shown from the start, row by row (`1` black, `0` white, `?` not shown), which must
//!    agree with the goal; other readers ignore it, as the format asks.
//!    Several puzzles in one file are separated by a line `====`.
//! 3. The text format, one puzzle per file: a line `nonogram`, then `rows` and H lines of
//!    run lengths separated by spaces (`-` or `0` for an empty line) and `columns` and W
//!    lines; or instead of the clues a `picture`, lines of `#` (black) and `.` (white),
//!    from which the clues are read and which becomes the goal (with clues, a picture is
//!    the goal). A `givens` block of `#`, `.` and `?` lines shows cells from the start
//!    (they must agree with the picture).

use super::{clue_text, runs, Nonogram};
use crate::puzzles::{parse_one_per_line, InputError};
use std::path::Path;

/// The largest side accepted.
pub const MAX_SIDE: usize = 500;

/// Parses every puzzle in `text` (the contents of `path`), in whichever format it is.
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<Nonogram>, InputError> {
    let words: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| !w.starts_with('#'))
        .collect();
    let stem = path
        .file_stem()
        .map_or("nonogram".into(), |s| s.to_string_lossy().to_string());
    if words.first() == Some(&"nonogram") {
        let mut p = parse_text(path, text)?;
        p.name = stem;
        return Ok(vec![p]);
    }
    if words.iter().any(|w| *w == "width" || *w == "height") {
        return parse_non(path, text);
    }
    parse_one_per_line(path, text, "nonogram", parse_pattern, |p, name| {
        p.name = name
    })
}

/// Checks the sizes and that every clue fits its line.
fn check_clues(p: &Nonogram) -> Result<(), String> {
    let (h, w) = (p.height(), p.width());
    if h == 0 || w == 0 || h > MAX_SIDE || w > MAX_SIDE {
        return Err(format!(
            "a grid of {w} x {h} cells: both sides must be 1 to {MAX_SIDE}"
        ));
    }
    for line in p.lines() {
        if line.clue.contains(&0) {
            return Err(format!(
                "{} {} has a run of length 0",
                line.kind(),
                line.index + 1
            ));
        }
        if !line.fits() {
            return Err(format!(
                "{} {}: the runs {:?} do not fit in {} cells",
                line.kind(),
                line.index + 1,
                line.clue,
                line.len
            ));
        }
    }
    let (black_rows, black_cols): (usize, usize) =
        (p.rows.iter().flatten().sum(), p.cols.iter().flatten().sum());
    if black_rows != black_cols {
        return Err(format!(
            "the row clues have {black_rows} black cells and the column clues {black_cols}: no grid meets both"
        ));
    }
    Ok(())
}

/// Parses one Pattern game ID.
pub fn parse_pattern(id: &str) -> Result<Nonogram, String> {
    let (params, desc) = id
        .split_once(':')
        .ok_or("a Pattern game ID has the form WxH:CLUES")?;
    let (w, h) = match params.split_once('x') {
        Some((w, h)) => (w.parse::<usize>(), h.parse::<usize>()),
        None => (params.parse::<usize>(), params.parse::<usize>()),
    };
    let (Ok(w), Ok(h)) = (w, h) else {
        return Err(format!(
            "Pattern parameters '{params}' are not of the form WxH"
        ));
    };
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!("both sides must be 1 to {MAX_SIDE}, not {w} x {h}"));
    }
    let (clues, squares) = match desc.split_once(',') {
        Some((c, s)) => (c, Some(s)),
        None => (desc, None),
    };
    let groups: Vec<&str> = clues.split('/').collect();
    if groups.len() != w + h {
        return Err(format!(
            "{} clues for {w} columns and {h} rows (they need {})",
            groups.len(),
            w + h
        ));
    }
    let mut lists = Vec::with_capacity(w + h);
    for (k, g) in groups.iter().enumerate() {
        let list: Vec<usize> = if g.is_empty() {
            Vec::new()
        } else {
            g.split('.')
                .map(|n| {
                    n.parse::<usize>()
                        .ok()
                        .filter(|&v| v > 0)
                        .ok_or_else(|| format!("clue {} has '{n}', not a positive number", k + 1))
                })
                .collect::<Result<_, _>>()?
        };
        lists.push(list);
    }
    let rows = lists.split_off(w);
    let mut p = Nonogram::new(rows, lists);
    if let Some(spec) = squares {
        let mut at = 0usize;
        for c in spec.chars() {
            if at >= w * h {
                return Err("too much data in the clue squares".into());
            }
            if !c.is_ascii_alphabetic() {
                return Err(format!("unexpected '{c}' in the clue squares"));
            }
            let skip = c.to_ascii_lowercase() as usize - 'a' as usize;
            at += skip;
            if skip < 25 && at < w * h {
                p.givens[at / w][at % w] = Some(c.is_ascii_uppercase());
                at += 1;
            }
            if at > w * h {
                return Err("too much data in the clue squares".into());
            }
        }
        if at < w * h {
            return Err(format!(
                "the clue squares cover {at} of the {} cells",
                w * h
            ));
        }
    }
    check_clues(&p)?;
    Ok(p)
}

/// Parses the webpbn `.non` format (several puzzles when the file bundles them).
pub fn parse_non(path: &Path, text: &str) -> Result<Vec<Nonogram>, InputError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let stem = path
        .file_stem()
        .map_or("nonogram".into(), |s| s.to_string_lossy().to_string());
    let mut chunks = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        if l.trim() == "====" {
            chunks.push((start, k));
            start = k + 1;
        }
    }
    chunks.push((start, lines.len()));
    let several = chunks.len() > 1;
    for (n, &(from, to)) in chunks.iter().enumerate() {
        let mut p = parse_non_one(path, &lines, from, to)?;
        p.name = if several {
            format!("{stem}:{}", n + 1)
        } else {
            stem.clone()
        };
        out.push(p);
    }
    Ok(out)
}

/// Parses the puzzle on lines `from..to` (0-based) of a `.non` file.
fn parse_non_one(
    path: &Path,
    lines: &[&str],
    from: usize,
    to: usize,
) -> Result<Nonogram, InputError> {
    let err = |k: usize, m: String| InputError::new(path, k + 1, m);
    let (mut w, mut h): (Option<usize>, Option<usize>) = (None, None);
    let mut rows: Option<Vec<Vec<usize>>> = None;
    let mut cols: Option<Vec<Vec<usize>>> = None;
    let mut goal: Option<(usize, String)> = None;
    let mut givens: Option<(usize, String)> = None;
    let mut licence = None;
    let mut colours: Vec<char> = Vec::new();
    let mut k = from;
    while k < to {
        let line = lines[k].trim();
        let (key, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(a, b)| (a, b.trim()));
        match key {
            "width" | "height" => {
                let v: usize = rest
                    .parse()
                    .ok()
                    .filter(|&v| (1..=MAX_SIDE).contains(&v))
                    .ok_or_else(|| {
                        err(
                            k,
                            format!("'{key}' takes a number of 1 to {MAX_SIDE}, not '{rest}'"),
                        )
                    })?;
                if key == "width" {
                    w = Some(v);
                } else {
                    h = Some(v);
                }
            }
            "rows" | "columns" => {
                let count = if key == "rows" { h } else { w };
                let Some(count) = count else {
                    return Err(err(k, format!("'{key}' comes before 'width' and 'height'")));
                };
                let mut list = Vec::with_capacity(count);
                for j in 1..=count {
                    let Some(raw) = lines.get(k + j).filter(|_| k + j < to) else {
                        return Err(err(
                            k,
                            format!(
                                "'{key}' needs {count} lines, the puzzle ends after {}",
                                j - 1
                            ),
                        ));
                    };
                    list.push(non_clue(raw, &mut colours).map_err(|m| err(k + j, m))?);
                }
                if key == "rows" {
                    rows = Some(list);
                } else {
                    cols = Some(list);
                }
                k += count;
            }
            "goal" | "givens" => {
                let (text, end) =
                    quoted(lines, k, to, rest).map_err(|m| err(k, format!("the {key}'s {m}")))?;
                if key == "goal" {
                    goal = Some((k, text));
                } else {
                    givens = Some((k, text));
                }
                k = end;
            }
            "license" => licence = Some(rest.trim_matches('"').to_string()),
            _ => {}
        }
        k += 1;
    }
    let (Some(rows), Some(cols)) = (rows, cols) else {
        return Err(InputError::new(
            path,
            from + 1,
            "a .non puzzle needs width, height, rows and columns",
        ));
    };
    let mut p = Nonogram::new(rows, cols);
    p.licence = licence;
    if let Some((line, cells)) = goal {
        let (w, h) = (p.width(), p.height());
        let cells: Vec<char> = cells.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != w * h {
            return Err(err(
                line,
                format!("the goal has {} cells, the grid {}", cells.len(), w * h),
            ));
        }
        let g: Vec<Vec<bool>> = cells
            .chunks(w)
            .map(|r| r.iter().map(|&c| c != '0').collect())
            .collect();
        goal_meets_clues(&p, &g).map_err(|m| err(line, format!("the goal {m}")))?;
        p.goal = Some(g);
    }
    if let Some((line, cells)) = givens {
        let (w, h) = (p.width(), p.height());
        let cells: Vec<char> = cells.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != w * h {
            return Err(err(
                line,
                format!("the givens have {} cells, the grid {}", cells.len(), w * h),
            ));
        }
        for (at, &c) in cells.iter().enumerate() {
            p.givens[at / w][at % w] = match c {
                '1' => Some(true),
                '0' => Some(false),
                '?' => None,
                other => {
                    return Err(err(
                        line,
                        format!(
                            "the givens hold '{other}' at cell ({},{}); they take 1 (black), 0 (white) and ? (not given)",
                            at / w + 1,
                            at % w + 1
                        ),
                    ))
                }
            };
        }
        givens_meet_goal(&p).map_err(|m| err(line, m))?;
    }
    check_clues(&p).map_err(|m| InputError::new(path, from + 1, m))?;
    Ok(p)
}

/// The string value of a `.non` key whose value `rest` starts on line `k`: a quoted
/// string, which may go on over the next lines up to `to`, or the rest of the line; with
/// the line it ends on.
fn quoted(lines: &[&str], k: usize, to: usize, rest: &str) -> Result<(String, usize), String> {
    let mut text = rest.to_string();
    if !text.starts_with('"') {
        return Ok((text, k));
    }
    let mut end = k;
    while text[1..].find('"').is_none() && end + 1 < to {
        end += 1;
        text.push_str(lines[end].trim());
    }
    let Some(close) = text[1..].find('"') else {
        return Err("quotes are not closed".into());
    };
    Ok((text[1..1 + close].to_string(), end))
}

/// Whether every given cell of `p` has the goal's colour, where `p` has a goal; else the
/// first that does not.
fn givens_meet_goal(p: &Nonogram) -> Result<(), String> {
    let Some(goal) = &p.goal else {
        return Ok(());
    };
    for (i, row) in p.givens.iter().enumerate() {
        for (j, g) in row.iter().enumerate() {
            if let Some(black) = *g {
                if black != goal[i][j] {
                    let colour = |b: bool| if b { "black" } else { "white" };
                    return Err(format!(
                        "the givens show cell ({},{}) {}, the goal has it {}",
                        i + 1,
                        j + 1,
                        colour(black),
                        colour(goal[i][j])
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether `goal` (of the grid's size) has the runs of every clue; else which line
/// breaks its clue ("does not meet row 2's clue 1 1: its runs are 2").
fn goal_meets_clues(p: &Nonogram, goal: &[Vec<bool>]) -> Result<(), String> {
    let show = |c: &[usize]| clue_text(c, " ", "-");
    for (i, (row, clue)) in goal.iter().zip(&p.rows).enumerate() {
        let got = runs(row.iter().copied());
        if &got != clue {
            return Err(format!(
                "does not meet row {}'s clue {}: its runs are {}",
                i + 1,
                show(clue),
                show(&got)
            ));
        }
    }
    for (j, clue) in p.cols.iter().enumerate() {
        let got = runs(goal.iter().map(|r| r[j]));
        if &got != clue {
            return Err(format!(
                "does not meet column {}'s clue {}: its runs are {}",
                j + 1,
                show(clue),
                show(&got)
            ));
        }
    }
    Ok(())
}

/// One clue line of a `.non` file: hints separated by commas, each a number and an
/// optional colour letter (noted in `colours`; a second colour is refused).
fn non_clue(raw: &str, colours: &mut Vec<char>) -> Result<Vec<usize>, String> {
    let line = raw.trim();
    if line.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for hint in line.split(',') {
        let hint = hint.trim();
        let digits = hint
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(hint.len());
        let n: usize = hint[..digits]
            .parse()
            .map_err(|_| format!("'{hint}' is not a run length"))?;
        if let Some(c) = hint[digits..]
            .chars()
            .next()
            .filter(|c| c.is_ascii_alphabetic())
        {
            if !colours.contains(&c) {
                colours.push(c);
            }
            if colours.len() > 1 {
                return Err(format!(
                    "hints of two colours ('{}' and '{}'): colour nonograms are not supported",
                    colours[0], colours[1]
                ));
            }
        }
        if n > 0 {
            out.push(n);
        } else if line.split(',').count() > 1 {
            return Err(format!("a run of length 0 among others in '{line}'"));
        }
    }
    Ok(out)
}

/// Parses the text format; errors name the file and line.
pub fn parse_text(path: &Path, text: &str) -> Result<Nonogram, InputError> {
    let lines: Vec<&str> = text.lines().collect();
    let (mut rows, mut cols, mut picture, mut givens) = (None, None, None, None);
    let mut seen_header = false;
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k].split('#').next().unwrap_or("").trim();
        let key = line.split_whitespace().next().unwrap_or("");
        let here = k;
        let err = |m: String| InputError::new(path, here + 1, m);
        match key {
            "" => {}
            "nonogram" => {
                if seen_header {
                    return Err(err("a second 'nonogram' line (one puzzle per file)".into()));
                }
                seen_header = true;
            }
            _ if !seen_header => return Err(err("the file must start with 'nonogram'".into())),
            "rows" | "columns" => {
                let mut list = Vec::new();
                while k + 1 < lines.len() {
                    let next = lines[k + 1].split('#').next().unwrap_or("").trim();
                    let first = next.split_whitespace().next().unwrap_or("");
                    if ["rows", "columns", "picture", "givens"].contains(&first) {
                        break;
                    }
                    k += 1;
                    if next.is_empty() {
                        continue;
                    }
                    let clue: Vec<usize> = if next == "-" || next == "0" {
                        Vec::new()
                    } else {
                        next.split_whitespace()
                            .map(|n| {
                                n.parse::<usize>().ok().filter(|&v| v > 0).ok_or_else(|| {
                                    InputError::new(path, k + 1, format!("'{n}' is not a run length (a positive number; '-' for an empty line)"))
                                })
                            })
                            .collect::<Result<_, _>>()?
                    };
                    list.push(clue);
                }
                if key == "rows" {
                    rows = Some(list);
                } else {
                    cols = Some(list);
                }
            }
            "picture" | "givens" => {
                let mut grid: Vec<Vec<Option<bool>>> = Vec::new();
                while k + 1 < lines.len() {
                    let next = lines[k + 1].trim();
                    if next.is_empty() || !next.chars().all(|c| matches!(c, '#' | '.' | '?')) {
                        break;
                    }
                    k += 1;
                    if key == "picture" && next.contains('?') {
                        return Err(InputError::new(
                            path,
                            k + 1,
                            "a picture has '#' and '.' only",
                        ));
                    }
                    grid.push(
                        next.chars()
                            .map(|c| match c {
                                '#' => Some(true),
                                '.' => Some(false),
                                _ => None,
                            })
                            .collect(),
                    );
                }
                if grid.is_empty() || grid.iter().any(|r| r.len() != grid[0].len()) {
                    return Err(err(format!(
                        "'{key}' needs lines of '#' and '.' of one length"
                    )));
                }
                if key == "picture" {
                    picture = Some((k, grid));
                } else {
                    givens = Some((k, grid));
                }
            }
            other => {
                return Err(err(format!(
                    "unknown keyword '{other}' (nonogram, rows, columns, picture, givens)"
                )))
            }
        }
        k += 1;
    }
    let picture: Option<(usize, Vec<Vec<bool>>)> = picture.map(|(line, g)| {
        (
            line,
            g.into_iter()
                .map(|r| r.into_iter().map(|c| c == Some(true)).collect())
                .collect(),
        )
    });
    let mut p = match (rows, cols, &picture) {
        (Some(r), Some(c), _) => Nonogram::new(r, c),
        (None, None, Some((_, pic))) => Nonogram::from_picture(pic),
        _ => {
            return Err(InputError::new(
                path,
                0,
                "a nonogram needs 'rows' and 'columns', or a 'picture'",
            ))
        }
    };
    if let Some((line, pic)) = picture {
        if pic.len() != p.height() || pic.iter().any(|r| r.len() != p.width()) {
            return Err(InputError::new(
                path,
                line + 1,
                "the picture's size is not the grid's",
            ));
        }
        goal_meets_clues(&p, &pic)
            .map_err(|m| InputError::new(path, line + 1, format!("the picture {m}")))?;
        p.goal = Some(pic);
    }
    if let Some((line, g)) = givens {
        if g.len() != p.height() || g.iter().any(|r| r.len() != p.width()) {
            return Err(InputError::new(
                path,
                line + 1,
                "the givens' size is not the grid's",
            ));
        }
        p.givens = g;
        givens_meet_goal(&p).map_err(|m| InputError::new(path, line + 1, m))?;
    }
    check_clues(&p).map_err(|m| InputError::new(path, 0, m))?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_ids() {
        let p = parse_pattern("4x4:2/1/2/1/1.1/2/1/1").unwrap();
        assert_eq!(p.cols, vec![vec![2], vec![1], vec![2], vec![1]]);
        assert_eq!(p.rows, vec![vec![1, 1], vec![2], vec![1], vec![1]]);
        let p = parse_pattern("3:1//3/1.1/1/1").unwrap();
        assert_eq!(p.cols[1], Vec::<usize>::new());
        assert_eq!(p.width(), 3);
        // Clue squares: 'C' skips two cells and shows the third black, 'a' shows the next
        // one white; the squares must cover the grid.
        let p = parse_pattern("2x2:1/1/1/1,Ca").unwrap();
        assert_eq!(p.givens[1][0], Some(true));
        assert_eq!(p.givens[1][1], Some(false));
        assert_eq!(p.givens[0][0], None);
        assert!(parse_pattern("2x2:1/1/1/1,C")
            .unwrap_err()
            .contains("cover 3 of the 4"));
        assert!(parse_pattern("2x2:1/1/1/1,Caa")
            .unwrap_err()
            .contains("too much"));
        // 'z' skips 25 cells and shows none.
        let p = parse_pattern("5x5:1/1/1/1/1/1/1/1/1/1,z").unwrap();
        assert!(p.givens.iter().flatten().all(|g| g.is_none()));
        assert!(parse_pattern("2x2:1/1/1").unwrap_err().contains("3 clues"));
        assert!(parse_pattern("2x2:3/1/1/1")
            .unwrap_err()
            .contains("do not fit"));
        assert!(parse_pattern("2x2:1/1/2/0")
            .unwrap_err()
            .contains("positive"));
        assert!(parse_pattern("2x2:2/2/1/1")
            .unwrap_err()
            .contains("black cells"));
        assert!(parse_pattern("axb:1").is_err());
    }

    #[test]
    fn non_files() {
        let text = "catalogue \"webpbn.com #1\"\ntitle \"Demo\"\nlicense CC-BY-3.0\nwidth 5\nheight 10\n\nrows\n2\n2,1\n1,1\n3\n1,1\n1,1\n2\n1,1\n1,2\n2\n\ncolumns\n2,1\n2,1,3\n7\n1,3\n2,1\n\ngoal \"01100011010010101110101001010000110010100101111000\"\n";
        let ps = parse_non(Path::new("d.non"), text).unwrap();
        assert_eq!(ps.len(), 1);
        let p = &ps[0];
        assert_eq!((p.width(), p.height()), (5, 10));
        assert_eq!(p.rows[1], vec![2, 1]);
        assert_eq!(p.licence.as_deref(), Some("CC-BY-3.0"));
        let goal = p.goal.as_ref().unwrap();
        assert_eq!(super::super::verify::check(p, goal), Ok(()));
        // Bundles, blank lines as empty clues, colour letters of one colour.
        let two = "width 2\nheight 1\nrows\n1a\ncolumns\n1a\n\n====\nwidth 1\nheight 2\nrows\n1\n\ncolumns\n1\n";
        let ps = parse_non(Path::new("b.nonpack"), two).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].cols[1], Vec::<usize>::new());
        assert_eq!(ps[1].rows[1], Vec::<usize>::new());
        assert_eq!(ps[1].name, "b:2");
        let bad = |t: &str| parse_non(Path::new("x.non"), t).unwrap_err().to_string();
        assert!(bad("width 2\nheight 1\nrows\n1a\ncolumns\n1b\n0\n")
            .contains("x.non:6: hints of two colours"));
        assert!(bad("width 2\nheight 2\nrows\n1\n").contains("x.non:3: 'rows' needs 2 lines"));
        assert!(bad("rows\n1\n").contains("before 'width'"));
        assert!(bad("width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal \"10\"\n")
            .contains(":7: the goal has 2 cells"));
        assert!(
            bad("width 1\nheight 1\nrows\n1\ncolumns\nx\n").contains(":6: 'x' is not a run length")
        );
        // puzzlebench's own key: givens, which must agree with the goal.
        let head = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n";
        let ps = parse_non(
            Path::new("g.non"),
            &format!("{head}goal \"1001\"\ngivens \"1???\"\n"),
        )
        .unwrap();
        assert_eq!(ps[0].givens, vec![vec![Some(true), None], vec![None, None]]);
        assert_eq!(
            parse_non(Path::new("g.non"), &ps[0].to_non("t")).unwrap()[0],
            {
                let mut q = ps[0].clone();
                q.name = "g".into();
                q
            }
        );
        assert!(bad(&format!("{head}goal \"1001\"\ngivens \"0???\"\n"))
            .contains(":10: the givens show cell (1,1) white, the goal has it black"));
        assert!(bad(&format!("{head}givens \"1?x?\"\n"))
            .contains(":9: the givens hold 'x' at cell (2,1)"));
        assert!(bad(&format!("{head}givens \"1??\"\n")).contains(":9: the givens have 3 cells"));
    }

    #[test]
    fn text_format() {
        let p = parse_text(Path::new("t"), "nonogram\nrows\n1 1\n-\ncolumns\n1\n0\n1\n").unwrap();
        assert_eq!(p.rows, vec![vec![1, 1], vec![]]);
        let p = parse_text(
            Path::new("t"),
            "nonogram # a cross\npicture\n.#.\n###\n.#.\n",
        )
        .unwrap();
        assert_eq!(p.rows, vec![vec![1], vec![3], vec![1]]);
        assert!(p.goal.is_some());
        let back = parse_text(Path::new("t"), &p.to_text()).unwrap();
        assert_eq!((back.rows, back.cols), (p.rows.clone(), p.cols.clone()));
        let bad = |t: &str| parse_text(Path::new("t.txt"), t).unwrap_err().to_string();
        assert!(bad("rows\n1\n").contains("t.txt:1: the file must start"));
        assert!(
            bad("nonogram\nrows\n1 x\ncolumns\n1\n").contains("t.txt:3: 'x' is not a run length")
        );
        assert!(bad("nonogram\nrows\n1\ncolumns\n1\n1\n").contains("black cells"));
        assert!(bad("nonogram\nfoo\n").contains("t.txt:2: unknown keyword"));
        assert!(bad("nonogram\npicture\n#.\n#\n").contains("one length"));
        let p = parse_text(Path::new("t"), "nonogram\nrows\n1\ncolumns\n1\ngivens\n#\n").unwrap();
        assert_eq!(p.givens[0][0], Some(true));
    }
}
