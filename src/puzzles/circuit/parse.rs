//! The Circuit Board text format: the board is drawn.
//!
//! ```text
//! # a comment (outside a drawing, a line whose first non-blank character is '#')
//! puzzle c5x5_1          # starts a board and names it (optional for one board)
//! unique yes             # optional: the board has exactly one solution (yes or no)
//! grid 3 4               # rows and columns, then 2·rows − 1 lines of drawing
//! o-o o #
//! . | . .
//! S o-o o
//! . . . |
//! o o o T
//! solution               # optional: the same board with every link of a tree
//! ...
//! ```
//!
//! In a drawing, even lines are rows of cells and odd lines the gaps between two rows.
//! On a row of cells the characters at even positions (0, 2, 4, …) are the cells: `o` a
//! point, `#` a blacked-out cell, `S` and `T` the two points the shortest-path variant
//! joins (both or neither); between two cells `-` is a given link and ` ` or `.` none. On
//! a gap line the characters under the cells are `|` for a given link down and `.` or ` `
//! for none; the other characters must be blank. Trailing blanks may be left out, so a
//! gap line may be empty. Inside a drawing every line counts, blank or not, and `#` is a
//! cell, not a comment. A solution drawing must show the same cells and hold a tree that
//! solves the board (checked with the verifier).

use super::{verify, Cell, Circuit, Link};
use crate::puzzles::InputError;
use std::path::Path;

/// A board being read, with the line where each part was given.
#[derive(Default)]
struct Draft {
    line: usize,
    name: Option<String>,
    unique: Option<bool>,
    size: Option<(usize, usize)>,
    board: Option<Drawing>,
    solution: Option<(usize, Drawing)>,
}

/// A parsed drawing: blocked cells, endpoint marks and links.
#[derive(Clone, Debug, Default)]
struct Drawing {
    blocked: Vec<bool>,
    s: Option<Cell>,
    t: Option<Cell>,
    links: Vec<Link>,
}

/// Parses every board in `text` (the contents of `path`). A board without a `puzzle NAME`
/// line is named after the file stem.
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<Circuit>, InputError> {
    let stem = path
        .file_stem()
        .map_or("circuit".into(), |s| s.to_string_lossy().to_string());
    let err = |line: usize, m: String| InputError::new(path, line, m);
    let lines: Vec<&str> = text.lines().collect();
    let mut done: Vec<Circuit> = Vec::new();
    let mut draft: Option<Draft> = None;
    let mut i = 0;
    while i < lines.len() {
        let no = i + 1;
        let line = lines[i].trim();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = crate::puzzles::split_keyword(line);
        if key == "puzzle" {
            if let Some(d) = draft.take() {
                done.push(finish(path, d, &stem)?);
            }
            if rest.is_empty() {
                return Err(err(no, "'puzzle' needs a name".into()));
            }
            draft = Some(Draft {
                line: no,
                name: Some(rest.to_string()),
                ..Draft::default()
            });
            continue;
        }
        let d = draft.get_or_insert_with(|| Draft {
            line: no,
            ..Draft::default()
        });
        match key {
            "unique" => {
                if d.unique.is_some() {
                    return Err(err(no, "'unique' given twice for this board".into()));
                }
                d.unique = Some(match rest {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(err(no, format!("'unique {rest}': say yes or no"))),
                });
            }
            "grid" => {
                if d.size.is_some() {
                    return Err(err(no, "'grid' given twice for this board".into()));
                }
                let nums: Vec<&str> = rest.split_whitespace().collect();
                let size = match nums.as_slice() {
                    [r, c] => r.parse::<usize>().ok().zip(c.parse::<usize>().ok()),
                    _ => None,
                };
                let (r, c) = size
                    .filter(|&(r, c)| r >= 1 && c >= 1 && r <= 1000 && c <= 1000)
                    .ok_or_else(|| {
                        err(
                            no,
                            format!("'grid {rest}': give the rows and columns, two numbers from 1 to 1000"),
                        )
                    })?;
                d.size = Some((r, c));
                let drawing = read_drawing(path, &lines, &mut i, r, c)?;
                d.board = Some(drawing);
            }
            "solution" => {
                let (r, c) = d
                    .size
                    .ok_or_else(|| err(no, "'solution' must come after 'grid'".into()))?;
                if d.solution.is_some() {
                    return Err(err(no, "'solution' given twice for this board".into()));
                }
                if !rest.is_empty() {
                    return Err(err(
                        no,
                        "'solution' stands alone; its drawing follows on the next lines".into(),
                    ));
                }
                let drawing = read_drawing(path, &lines, &mut i, r, c)?;
                d.solution = Some((no, drawing));
            }
            _ => {
                return Err(err(
                    no,
                    format!("unknown line '{key}'; expected puzzle, unique, grid or solution"),
                ))
            }
        }
    }
    if let Some(d) = draft {
        done.push(finish(path, d, &stem)?);
    }
    if done.is_empty() {
        return Err(err(
            0,
            "no board found (every line is blank or a comment)".into(),
        ));
    }
    let mut names: Vec<&str> = done.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(err(0, format!("two boards are named '{}'", w[0])));
    }
    Ok(done)
}

/// Reads the 2·rows − 1 drawing lines that start at `lines[*i]`, advancing `*i` past them.
fn read_drawing(
    path: &Path,
    lines: &[&str],
    i: &mut usize,
    rows: usize,
    cols: usize,
) -> Result<Drawing, InputError> {
    let height = 2 * rows - 1;
    let width = 2 * cols - 1;
    let mut d = Drawing {
        blocked: vec![false; rows * cols],
        ..Drawing::default()
    };
    let mut down: Vec<Cell> = Vec::new();
    for k in 0..height {
        let no = *i + 1;
        let Some(raw) = lines.get(*i) else {
            return Err(InputError::new(
                path,
                lines.len(),
                format!("the file ends after {k} of the drawing's {height} lines"),
            ));
        };
        *i += 1;
        let err =
            |col: usize, m: String| InputError::new(path, no, format!("column {}: {m}", col + 1));
        let chars: Vec<char> = raw.trim_end().chars().collect();
        if chars.len() > width {
            return Err(InputError::new(
                path,
                no,
                format!(
                    "{} characters; a drawing of {cols} columns is at most {width} wide",
                    chars.len()
                ),
            ));
        }
        let r = k / 2;
        if k % 2 == 0 {
            if chars.len() < width {
                return Err(InputError::new(
                    path,
                    no,
                    format!(
                        "a row of {cols} cells is {width} characters wide ('o', '#', 'S' or 'T' at every other position), this line has {}",
                        chars.len()
                    ),
                ));
            }
            for (x, &ch) in chars.iter().enumerate() {
                if x % 2 == 0 {
                    let c = x / 2;
                    match ch {
                        'o' => {}
                        '#' => d.blocked[r * cols + c] = true,
                        'S' | 'T' => {
                            let slot = if ch == 'S' { &mut d.s } else { &mut d.t };
                            if slot.is_some() {
                                return Err(err(x, format!("a second '{ch}'; a board has one")));
                            }
                            *slot = Some((r, c));
                        }
                        _ => {
                            return Err(err(
                                x,
                                format!(
                                    "'{ch}' is not a cell; use o (point), # (blacked out), S or T"
                                ),
                            ))
                        }
                    }
                } else {
                    match ch {
                        ' ' | '.' => {}
                        '-' => d.links.push(Link((r, x / 2), (r, x / 2 + 1))),
                        _ => {
                            return Err(err(
                                x,
                                format!(
                                "'{ch}' between two cells; use - for a link, . or a blank for none"
                            ),
                            ))
                        }
                    }
                }
            }
        } else {
            for (x, &ch) in chars.iter().enumerate() {
                match (x % 2, ch) {
                    (_, ' ') | (0, '.') => {}
                    (0, '|') => down.push((r, x / 2)),
                    (0, _) => {
                        return Err(err(
                            x,
                            format!(
                                "'{ch}' under a cell; use | for a link down, . or a blank for none"
                            ),
                        ))
                    }
                    _ => {
                        return Err(err(
                            x,
                            format!("'{ch}' on a gap line between cells; only blanks go there"),
                        ))
                    }
                }
            }
        }
    }
    for (r, c) in down {
        d.links.push(Link((r, c), (r + 1, c)));
    }
    let first = *i - height + 1;
    for &Link(a, b) in &d.links {
        for cell in [a, b] {
            if d.blocked[cell.0 * cols + cell.1] {
                let line = first + 2 * a.0 + usize::from(!Link(a, b).horizontal());
                return Err(InputError::new(
                    path,
                    line,
                    format!(
                        "the link between ({}, {}) and ({}, {}) touches a blacked-out cell",
                        a.0, a.1, b.0, b.1
                    ),
                ));
            }
        }
    }
    d.links.sort();
    Ok(d)
}

/// Checks a finished board and turns it into an instance.
fn finish(path: &Path, d: Draft, stem: &str) -> Result<Circuit, InputError> {
    let err = |m: String| InputError::new(path, d.line, m);
    let (rows, cols) = d
        .size
        .ok_or_else(|| err("this board has no 'grid' line".into()))?;
    let board = d.board.expect("a grid line reads its drawing");
    let endpoints = match (board.s, board.t) {
        (Some(s), Some(t)) => Some((s, t)),
        (None, None) => None,
        _ => {
            return Err(err(
                "the board marks S without T or T without S; mark both or neither".into(),
            ))
        }
    };
    if board.blocked.iter().all(|&b| b) {
        return Err(err("every cell is blacked out".into()));
    }
    let puzzle = Circuit {
        name: d.name.unwrap_or_else(|| stem.to_string()),
        rows,
        cols,
        blocked: board.blocked,
        given: board.links,
        endpoints,
        unique: d.unique,
        solution: None,
    };
    match d.solution {
        None => Ok(puzzle),
        Some((at, sol)) => {
            let at_err = |m: String| InputError::new(path, at, m);
            if sol.blocked != puzzle.blocked {
                return Err(at_err(
                    "the solution's cells differ from the board's ('#' in other places)".into(),
                ));
            }
            if (sol.s.is_some() || sol.t.is_some()) && (sol.s, sol.t) != (board.s, board.t) {
                return Err(at_err(
                    "the solution marks S or T elsewhere than the board".into(),
                ));
            }
            verify::check(&puzzle, &sol.links, None)
                .map_err(|why| at_err(format!("the solution does not solve the board: {why}")))?;
            Ok(Circuit {
                solution: Some(sol.links),
                ..puzzle
            })
        }
    }
}
