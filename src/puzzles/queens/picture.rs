//! SVG picture of an n-Queens board: a chequered board, walls as dark squares and the
//! answer's queens as crowns (circles).

use super::Queens;
use std::fmt::Write as _;

/// Draws `board`, with the walls and queens of `answer` (rows of `Q`, `X`, `.`) when
/// given.
pub fn svg(board: &Queens, answer: Option<&[String]>) -> String {
    let n = board.n;
    let cell = if n > 20 { 16.0 } else { 28.0 };
    let pad = 4.0;
    let side = n as f64 * cell + 2.0 * pad;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side:.0}" height="{side:.0}" viewBox="0 0 {side:.1} {side:.1}">"#
    );
    let _ = writeln!(
        s,
        r#"<title>n-Queens with walls {} ({n}x{n})</title>"#,
        crate::xml::escape(&board.name)
    );
    let rows: Vec<Vec<char>> = match answer {
        Some(a) => a.iter().map(|r| r.chars().collect()).collect(),
        None => board
            .walls
            .iter()
            .map(|r| r.iter().map(|&w| if w { 'X' } else { '.' }).collect())
            .collect(),
    };
    for i in 0..n {
        for j in 0..n {
            let c = rows.get(i).and_then(|r| r.get(j)).copied().unwrap_or('.');
            let fill = match c {
                'X' => "#3a3a3a",
                _ if (i + j) % 2 == 0 => "#f0e6d2",
                _ => "#c8b48c",
            };
            let (x, y) = (pad + j as f64 * cell, pad + i as f64 * cell);
            let _ = writeln!(
                s,
                r##"<rect x="{x:.1}" y="{y:.1}" width="{cell}" height="{cell}" fill="{fill}"/>"##
            );
            if c == 'Q' {
                let _ = writeln!(
                    s,
                    r##"<circle class="queen" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#8b1a1a" stroke="white" stroke-width="1"/>"##,
                    x + cell / 2.0,
                    y + cell / 2.0,
                    cell * 0.32
                );
            }
        }
    }
    let _ = writeln!(
        s,
        r##"<rect x="{pad}" y="{pad}" width="{w:.1}" height="{w:.1}" fill="none" stroke="#222" stroke-width="2"/>"##,
        w = n as f64 * cell
    );
    s.push_str("</svg>\n");
    s
}
