//! Reading minimum-clue instances: one complete grid per line, n*n characters as in
//! Sudoku's line format, optionally after an id, then `key=value` fields (`min`, `start`,
//! `seeds`, `published`, `box`). Tjusila et al.'s instance files (a header line
//! `Id Sudoku Grid`, then `ID GRID` per line) are read as they are, each grid named by its
//! id. The grid must be a valid complete Sudoku, and a `start` puzzle must show only cells
//! of it and have no other completion.

use super::MinClue;
use crate::puzzles::sudoku::{self, Sudoku};
use crate::puzzles::InputError;
use std::path::Path;

/// Parses every grid in `text` (the contents of `path`). Grids are named after the file
/// stem, with `:ID` (the line's id) or `:LINE` appended when the file holds more than one.
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<MinClue>, InputError> {
    // Tjusila et al.'s header line is a comment here (kept as a line, so numbers hold).
    let text: String = text
        .lines()
        .map(|l| {
            let words: Vec<String> = l.split_whitespace().map(str::to_lowercase).collect();
            if words == ["id", "sudoku", "grid"] {
                "# Id Sudoku Grid"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let grids =
        crate::puzzles::parse_one_per_line(path, &text, "minclue", parse_line, |(g, id), name| {
            g.name = match (id, name.split_once(':')) {
                (Some(id), Some((stem, _))) => format!("{stem}:{id}"),
                _ => name,
            }
        })?;
    Ok(grids.into_iter().map(|(g, _)| g).collect())
}

/// Parses one line: the grid and its id, if the line gives one.
pub fn parse_line(line: &str) -> Result<(MinClue, Option<String>), String> {
    let words: Vec<&str> = line
        .split('#')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let (fields, plain): (Vec<&str>, Vec<&str>) = words.iter().partition(|w| w.contains('='));
    let (id, grid) = match plain.as_slice() {
        [grid] => (None, *grid),
        [id, grid] => (Some(id.to_string()), *grid),
        [] => return Err("no grid on the line".into()),
        _ => {
            return Err(format!(
                "expected [ID] GRID [key=value ...], found {} words without '='",
                plain.len()
            ))
        }
    };
    let mut boxes: Option<(usize, usize)> = None;
    let mut known = None;
    let mut start_text = None;
    let mut seeds = None;
    let mut published = None;
    for f in fields {
        let (k, v) = f.split_once('=').expect("partitioned on '='");
        let number = |what: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{what}={v}: not a whole number"))
        };
        match k {
            "min" => known = Some(number("min")?),
            "seeds" => seeds = Some(number("seeds")?),
            "start" => start_text = Some(v.to_string()),
            "published" => {
                published = Some(
                    v.parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s >= 0.0)
                        .ok_or_else(|| format!("published={v}: not a time in seconds"))?,
                )
            }
            "box" => {
                let (r, c) = v
                    .split_once(['x', 'X'])
                    .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
                    .filter(|&(r, c): &(usize, usize)| r > 0 && c > 0)
                    .ok_or_else(|| format!("box={v}: expected RxC, e.g. 2x3"))?;
                boxes = Some((r, c));
            }
            _ => {
                return Err(format!(
                    "unknown field '{k}'; valid fields: min, start, seeds, published, box"
                ))
            }
        }
    }
    let mut g = sudoku::parse::parse_line(grid).map_err(|e| format!("grid: {e}"))?;
    let n = g.n();
    if let Some((r, c)) = boxes {
        if r * c != n {
            return Err(format!("box={r}x{c} does not fit a {n}x{n} grid"));
        }
        g.box_rows = r;
        g.box_cols = c;
    }
    if let Some(k) = g.givens.iter().flatten().position(|&v| v == 0) {
        return Err(format!(
            "the grid is not complete: cell {} (row {}, column {}) is blank",
            k + 1,
            k / n + 1,
            k % n + 1
        ));
    }
    sudoku::verify::check(&g, &g.givens).map_err(|e| format!("not a valid Sudoku grid: {e}"))?;
    let start = match start_text {
        None => None,
        Some(t) => Some(start_clues(&g, &t)?),
    };
    if known.is_some_and(|k| k > n * n) {
        return Err(format!(
            "min={} is above the {} cells",
            known.unwrap(),
            n * n
        ));
    }
    let p = MinClue {
        name: String::new(),
        box_rows: g.box_rows,
        box_cols: g.box_cols,
        grid: g.givens,
        known,
        start,
        seeds,
        published,
    };
    if let Some(clues) = &p.start {
        if super::verify::Counter::new(&p).completions(clues, 2).len() > 1 {
            return Err("start: the puzzle has more than one completion".into());
        }
    }
    Ok((p, id))
}

/// The clue cells of a `start` puzzle, which must show only values of the grid `g`.
fn start_clues(g: &Sudoku, text: &str) -> Result<Vec<bool>, String> {
    let p = sudoku::parse::parse_line(text).map_err(|e| format!("start: {e}"))?;
    let n = g.n();
    if p.n() != n {
        return Err(format!("start: a {0}x{0} puzzle for a {n}x{n} grid", p.n()));
    }
    let mut clues = vec![false; n * n];
    for (i, row) in clues.chunks_mut(n).enumerate() {
        for (j, clue) in row.iter_mut().enumerate() {
            let v = p.givens[i][j];
            if v != 0 && v != g.givens[i][j] {
                return Err(format!(
                    "start: row {}, column {} shows {v}, the grid has {}",
                    i + 1,
                    j + 1,
                    g.givens[i][j]
                ));
            }
            *clue = v != 0;
        }
    }
    Ok(clues)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG: &str =
        "876912534954387612213645789738456291561829347429731865642178953395264178187593426";

    #[test]
    fn reads_tjusila_files_with_ids() {
        let text = format!("Id Sudoku Grid\n0 {FIG}\n7 {FIG} min=17\n");
        let g = parse_file(Path::new("x/sel.txt"), &text).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].name, "sel:0");
        assert_eq!(g[1].name, "sel:7");
        assert_eq!(g[1].known, Some(17));
        assert_eq!((g[0].box_rows, g[0].box_cols), (3, 3));
    }

    #[test]
    fn refuses_bad_grids_with_line() {
        let mut bad = FIG.to_string();
        bad.replace_range(0..1, "7");
        let e = parse_file(Path::new("g.txt"), &format!("# c\n{bad}\n")).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not a valid Sudoku grid"), "{e}");
        let blank = FIG.replacen('8', ".", 1);
        let e = parse_file(Path::new("g.txt"), &blank).unwrap_err();
        assert!(e.message.contains("not complete"), "{e}");
        let e = parse_file(Path::new("g.txt"), &format!("{FIG} foo=1")).unwrap_err();
        assert!(e.message.contains("unknown field 'foo'"), "{e}");
        let e = parse_file(Path::new("g.txt"), &format!("{FIG} box=2x2")).unwrap_err();
        assert!(e.message.contains("does not fit"), "{e}");
        let wrong_start = format!("{FIG} start=9{}", ".".repeat(80));
        let e = parse_file(Path::new("g.txt"), &wrong_start).unwrap_err();
        assert!(e.message.contains("shows 9"), "{e}");
    }

    #[test]
    fn round_trips_through_its_line() {
        let start = format!(".{}", &FIG[1..]);
        let text = format!("{FIG} min=17 seeds=20 start={start}");
        let g = parse_line(&text).unwrap().0;
        let again = parse_line(&g.to_line()).unwrap().0;
        assert_eq!(g, again);
    }
}
