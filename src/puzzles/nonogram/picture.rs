//! SVG picture of a nonogram: the column clues above the grid, the row clues to its left,
//! given cells marked, and the solution's black cells filled.

use super::Nonogram;
use std::fmt::Write as _;

/// Draws `puzzle`, filled with `solution` when given.
pub fn svg(puzzle: &Nonogram, solution: Option<&[Vec<bool>]>) -> String {
    let (h, w) = (puzzle.height(), puzzle.width());
    let cell = if w.max(h) > 30 { 10.0 } else { 16.0 };
    let font = cell * 0.62;
    let top_clues = puzzle
        .cols
        .iter()
        .map(|c| c.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let left_clues = puzzle
        .rows
        .iter()
        .map(|c| c.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let (left, top) = (left_clues as f64 * cell * 1.1, top_clues as f64 * cell);
    let (width, height) = (left + w as f64 * cell + 4.0, top + h as f64 * cell + 4.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(
        s,
        r#"<title>Nonogram {}</title>"#,
        crate::xml::escape(&puzzle.name)
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{width:.1}" height="{height:.1}" fill="white"/>"#
    );
    let x = |j: usize| left + j as f64 * cell;
    let y = |i: usize| top + i as f64 * cell;
    for i in 0..h {
        for j in 0..w {
            let black = solution.map(|g| g[i][j]).or(puzzle.givens[i][j]);
            if black == Some(true) {
                let colour = if puzzle.givens[i][j].is_some() {
                    "#444"
                } else {
                    "#1f1f1f"
                };
                let _ = writeln!(
                    s,
                    r#"<rect x="{:.1}" y="{:.1}" width="{cell}" height="{cell}" fill="{colour}"/>"#,
                    x(j),
                    y(i)
                );
            } else if puzzle.givens[i][j] == Some(false) {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#888"/>"##,
                    x(j) + cell / 2.0,
                    y(i) + cell / 2.0,
                    cell * 0.12
                );
            }
        }
    }
    for i in 0..=h {
        let thick = i % 5 == 0 || i == h;
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#000" stroke-width="{}"/>"##,
            x(0),
            y(i),
            x(w),
            y(i),
            if thick { 1.2 } else { 0.4 }
        );
    }
    for j in 0..=w {
        let thick = j % 5 == 0 || j == w;
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#000" stroke-width="{}"/>"##,
            x(j),
            y(0),
            x(j),
            y(h),
            if thick { 1.2 } else { 0.4 }
        );
    }
    for (j, clue) in puzzle.cols.iter().enumerate() {
        for (k, v) in clue.iter().rev().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="middle">{v}</text>"#,
                x(j) + cell / 2.0,
                top - k as f64 * cell - cell * 0.25
            );
        }
    }
    for (i, clue) in puzzle.rows.iter().enumerate() {
        for (k, v) in clue.iter().rev().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="end">{v}</text>"#,
                left - 3.0 - k as f64 * cell * 1.1,
                y(i) + cell * 0.75
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_clues_and_cells() {
        let p = Nonogram::from_picture(&[vec![true, false, true], vec![true, true, true]]);
        let s = svg(&p, p.goal.as_deref());
        // Clues: rows 1 1 and 3, columns 2, 1, 2: six numbers.
        assert_eq!(s.matches("<text").count(), 6);
        assert_eq!(s.matches("fill=\"#1f1f1f\"").count(), 5);
        assert_eq!(svg(&p, None).matches("#1f1f1f").count(), 0);
    }
}
