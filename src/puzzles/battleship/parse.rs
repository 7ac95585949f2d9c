//! The Battleship text format.
//!
//! ```text
//! # a comment (a line whose first non-blank character is '#')
//! puzzle easy_6x6_1        # starts a puzzle and names it (optional for one puzzle)
//! level easy               # optional difficulty label
//! fleet 3 2 1              # S1 S2 S3 ...: ships of length 1, 2, 3, ...
//! rows 2 0 3 1 1 2         # ship parts per row, top to bottom (m numbers)
//! cols 1 2 1 2 0 3         # ship parts per column, left to right (n numbers)
//! grid                     # optional: m lines of n cells, spaces between cells allowed
//! ......
//! ..o...
//! ......
//! ~.....
//! ......
//! ....^.
//! solution                 # optional: the full grid, same symbols, no '.'
//! ...
//! ```
//!
//! Cells: `.` unknown, `~` water, `<` `>` left and right ends, `^` `v` top and bottom ends,
//! `+` a middle part, `o` a ship of length one. The sums must agree: the row sums, the
//! column sums and the fleet's ship parts (sum of l·S_l) are the same number. A given
//! solution must satisfy the puzzle (checked with the verifier).

use super::{verify, Battleship, Cell, Grid};
use crate::puzzles::InputError;
use std::path::Path;

/// The words that start a line outside a block of cells.
const KEYWORDS: [&str; 7] = [
    "puzzle", "level", "fleet", "rows", "cols", "grid", "solution",
];

/// A puzzle being read, with the line where each part was given.
#[derive(Default)]
struct Draft {
    line: usize,
    name: Option<String>,
    level: Option<String>,
    fleet: Option<Vec<u32>>,
    rows: Option<Vec<u32>>,
    cols: Option<Vec<u32>>,
    givens: Option<Vec<Vec<Option<Cell>>>>,
    solution: Option<(usize, Grid)>,
}

/// Which block of cell lines is being read.
enum Block {
    None,
    Grid(Vec<Vec<Option<Cell>>>),
    Solution(usize, Vec<Vec<Option<Cell>>>),
}

/// Parses every puzzle in `text` (the contents of `path`). A puzzle without a `puzzle NAME`
/// line is named after the file stem.
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<Battleship>, InputError> {
    let stem = path
        .file_stem()
        .map_or("battleship".into(), |s| s.to_string_lossy().to_string());
    let err = |line: usize, m: String| InputError::new(path, line, m);
    let mut done: Vec<Battleship> = Vec::new();
    let mut draft: Option<Draft> = None;
    let mut block = Block::None;
    let lines: Vec<&str> = text.lines().collect();
    for (idx, raw) in lines.iter().enumerate() {
        let no = idx + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // Inside a block, cell lines are read until m of them are there.
        let wanted = draft.as_ref().and_then(|d| d.rows.as_ref()).map(Vec::len);
        match &mut block {
            Block::Grid(cells) | Block::Solution(_, cells) => {
                let m = wanted.expect("a block starts only after rows");
                let n = draft
                    .as_ref()
                    .and_then(|d| d.cols.as_ref())
                    .map_or(0, Vec::len);
                let first = line.split_whitespace().next().unwrap_or("");
                if KEYWORDS.contains(&first) {
                    return Err(err(
                        no,
                        format!("'{first}' after {} of {m} grid lines", cells.len()),
                    ));
                }
                let row = parse_cells(line, n).map_err(|m| err(no, m))?;
                cells.push(row);
                if cells.len() == m {
                    let d = draft.as_mut().expect("a block belongs to a puzzle");
                    match std::mem::replace(&mut block, Block::None) {
                        Block::Grid(g) => d.givens = Some(g),
                        Block::Solution(at, g) => {
                            let mut grid = Vec::with_capacity(g.len());
                            for (r, row) in g.into_iter().enumerate() {
                                let full: Option<Vec<Cell>> = row.into_iter().collect();
                                grid.push(full.ok_or_else(|| {
                                    err(
                                        at + 1 + r,
                                        "a solution may not hold unknown cells '.'".into(),
                                    )
                                })?);
                            }
                            d.solution = Some((at, grid));
                        }
                        Block::None => unreachable!(),
                    }
                }
                continue;
            }
            Block::None => {}
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
        let numbers = |what: &str| -> Result<Vec<u32>, InputError> {
            if rest.is_empty() {
                return Err(err(no, format!("'{what}' needs at least one number")));
            }
            rest.split_whitespace()
                .map(|t| {
                    t.parse::<u32>().map_err(|_| {
                        err(
                            no,
                            format!("'{t}' in '{what}' is not a non-negative whole number"),
                        )
                    })
                })
                .collect()
        };
        let once = |present: bool, what: &str| -> Result<(), InputError> {
            if present {
                Err(err(no, format!("'{what}' given twice for this puzzle")))
            } else {
                Ok(())
            }
        };
        match key {
            "level" => {
                once(d.level.is_some(), "level")?;
                if rest.is_empty() {
                    return Err(err(no, "'level' needs a label".into()));
                }
                d.level = Some(rest.to_string());
            }
            "fleet" => {
                once(d.fleet.is_some(), "fleet")?;
                let f = numbers("fleet")?;
                if f.iter().all(|&s| s == 0) {
                    return Err(err(no, "the fleet has no ships".into()));
                }
                d.fleet = Some(f);
            }
            "rows" => {
                once(d.rows.is_some(), "rows")?;
                d.rows = Some(numbers("rows")?);
            }
            "cols" => {
                once(d.cols.is_some(), "cols")?;
                d.cols = Some(numbers("cols")?);
            }
            "grid" | "solution" => {
                if d.rows.is_none() || d.cols.is_none() {
                    return Err(err(no, format!("'{key}' must come after 'rows' and 'cols'")));
                }
                if !rest.is_empty() {
                    return Err(err(no, format!("'{key}' stands alone; its cells follow on the next lines")));
                }
                if key == "grid" {
                    once(d.givens.is_some(), "grid")?;
                    block = Block::Grid(Vec::new());
                } else {
                    once(d.solution.is_some(), "solution")?;
                    block = Block::Solution(no, Vec::new());
                }
            }
            _ => {
                return Err(err(
                    no,
                    format!("unknown line '{key}'; expected puzzle, level, fleet, rows, cols, grid or solution"),
                ))
            }
        }
    }
    match block {
        Block::Grid(cells) | Block::Solution(_, cells) => {
            let m = draft
                .as_ref()
                .and_then(|d| d.rows.as_ref())
                .map_or(0, Vec::len);
            return Err(err(
                lines.len(),
                format!("the file ends after {} of {m} grid lines", cells.len()),
            ));
        }
        Block::None => {}
    }
    if let Some(d) = draft {
        done.push(finish(path, d, &stem)?);
    }
    if done.is_empty() {
        return Err(err(
            0,
            "no puzzle found (every line is blank or a comment)".into(),
        ));
    }
    let mut names: Vec<&str> = done.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(err(0, format!("two puzzles are named '{}'", w[0])));
    }
    Ok(done)
}

/// Reads one line of cells, ignoring spaces; it must hold exactly `n` cells.
fn parse_cells(line: &str, n: usize) -> Result<Vec<Option<Cell>>, String> {
    let mut row = Vec::with_capacity(n);
    for c in line.chars().filter(|c| !c.is_whitespace()) {
        if c == '.' {
            row.push(None);
        } else {
            row.push(Some(Cell::from_symbol(c).ok_or_else(|| {
                format!("'{c}' is not a cell; use . ~ < > ^ v + o")
            })?));
        }
    }
    if row.len() != n {
        return Err(format!(
            "{} cells in this line; the grid has {n} columns",
            row.len()
        ));
    }
    Ok(row)
}

/// Checks a finished puzzle and turns it into an instance.
fn finish(path: &Path, d: Draft, stem: &str) -> Result<Battleship, InputError> {
    let err = |m: String| InputError::new(path, d.line, m);
    let fleet = d
        .fleet
        .ok_or_else(|| err("this puzzle has no 'fleet' line".into()))?;
    let rows = d
        .rows
        .ok_or_else(|| err("this puzzle has no 'rows' line".into()))?;
    let cols = d
        .cols
        .ok_or_else(|| err("this puzzle has no 'cols' line".into()))?;
    let (m, n) = (rows.len(), cols.len());
    if let Some((i, r)) = rows.iter().enumerate().find(|(_, &r)| r as usize > n) {
        return Err(err(format!(
            "row {} asks for {r} ship parts but has {n} cells",
            i + 1
        )));
    }
    if let Some((j, c)) = cols.iter().enumerate().find(|(_, &c)| c as usize > m) {
        return Err(err(format!(
            "column {} asks for {c} ship parts but has {m} cells",
            j + 1
        )));
    }
    let (sr, sc): (u64, u64) = (
        rows.iter().map(|&r| r as u64).sum(),
        cols.iter().map(|&c| c as u64).sum(),
    );
    let parts: u64 = fleet
        .iter()
        .enumerate()
        .map(|(l, &s)| (l as u64 + 1) * s as u64)
        .sum();
    if sr != sc || sr != parts {
        return Err(err(format!(
            "the sums disagree: rows add up to {sr}, columns to {sc}, and the fleet has {parts} ship parts"
        )));
    }
    let puzzle = Battleship {
        name: d.name.unwrap_or_else(|| stem.to_string()),
        level: d.level,
        fleet,
        rows,
        cols,
        givens: d.givens.unwrap_or_else(|| vec![vec![None; n]; m]),
        solution: None,
    };
    match d.solution {
        None => Ok(puzzle),
        Some((at, grid)) => {
            verify::check(&puzzle, &grid).map_err(|why| {
                InputError::new(
                    path,
                    at,
                    format!("the solution does not solve the puzzle: {why}"),
                )
            })?;
            Ok(Battleship {
                solution: Some(grid),
                ..puzzle
            })
        }
    }
}
