//! SVG picture of a Battleship puzzle: the grid, the row sums on the right and the column
//! sums underneath (as in report Figure 4.1), ship parts drawn by type, given cells on a
//! grey background.

use super::{Battleship, Cell};
use std::fmt::Write as _;

/// Draws `puzzle`, filled with `solution` when given (else only the givens).
pub fn svg(puzzle: &Battleship, solution: Option<&[Vec<Cell>]>) -> String {
    let (m, n) = (puzzle.m(), puzzle.n());
    let cell = if m.max(n) > 15 { 16.0 } else { 24.0 };
    let margin = 4.0;
    let (w, h) = (
        2.0 * margin + cell * (n as f64 + 1.2),
        2.0 * margin + cell * (m as f64 + 1.2),
    );
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(
        s,
        "<title>Battleship {}</title>",
        crate::xml::escape(&puzzle.name)
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
    );
    let font = cell * 0.55;
    for i in 0..m {
        for j in 0..n {
            let (x, y) = (margin + j as f64 * cell, margin + i as f64 * cell);
            let given = puzzle.givens[i][j];
            let fill = if given.is_some() { "#d9d9d9" } else { "white" };
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#808080" stroke-width="0.6"/>"##
            );
            let t = given.or_else(|| solution.map(|g| g[i][j]));
            if let Some(t) = t {
                shape(&mut s, t, x, y, cell);
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="{font}" text-anchor="middle">{}</text>"#,
            margin + (n as f64 + 0.6) * cell,
            margin + (i as f64 + 0.72) * cell,
            puzzle.rows[i]
        );
    }
    for j in 0..n {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="{font}" text-anchor="middle">{}</text>"#,
            margin + (j as f64 + 0.5) * cell,
            margin + (m as f64 + 0.85) * cell,
            puzzle.cols[j]
        );
    }
    s.push_str("</svg>\n");
    s
}

/// One cell's ship part (or the water waves), drawn inside the cell at (x, y).
fn shape(s: &mut String, t: Cell, x: f64, y: f64, cell: f64) {
    let p = cell * 0.15;
    let (x0, y0, x1, y1) = (x + p, y + p, x + cell - p, y + cell - p);
    let (cx, cy, r) = (x + cell / 2.0, y + cell / 2.0, cell / 2.0 - p);
    let ink = "#1f3f6f";
    let _ = match t {
        Cell::Water => writeln!(
            s,
            r##"<path d="M{x0} {cy} q{q} -{q} {h} 0 t{h} 0" fill="none" stroke="#6fa8dc" stroke-width="1"/>"##,
            q = cell * 0.12,
            h = (x1 - x0) / 2.0
        ),
        Cell::Single => writeln!(s, r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{ink}"/>"#),
        Cell::Middle => writeln!(
            s,
            r#"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="{ink}"/>"#,
            x1 - x0,
            y1 - y0
        ),
        Cell::Left => writeln!(
            s,
            r#"<path d="M{x1} {y0} L{cx} {y0} A{r} {r} 0 0 0 {cx} {y1} L{x1} {y1} Z" fill="{ink}"/>"#
        ),
        Cell::Right => writeln!(
            s,
            r#"<path d="M{x0} {y0} L{cx} {y0} A{r} {r} 0 0 1 {cx} {y1} L{x0} {y1} Z" fill="{ink}"/>"#
        ),
        Cell::Top => writeln!(
            s,
            r#"<path d="M{x0} {y1} L{x0} {cy} A{r} {r} 0 0 1 {x1} {cy} L{x1} {y1} Z" fill="{ink}"/>"#
        ),
        Cell::Bottom => writeln!(
            s,
            r#"<path d="M{x0} {y0} L{x0} {cy} A{r} {r} 0 0 0 {x1} {cy} L{x1} {y0} Z" fill="{ink}"/>"#
        ),
    };
}
