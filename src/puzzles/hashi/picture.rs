//! SVG picture of a Hashi board: islands as circles with their labels, bridges as one or
//! more parallel lines, on a faint grid. Cells are 26 px up to 20 columns and shrink for
//! larger boards so that the picture stays about 15 cm wide at most.

use super::Hashi;
use crate::xml::escape as xml_escape;
use std::fmt::Write as _;

/// Draws `puzzle`, with `bridges` (`[r1, c1, r2, c2, count]`) when given.
pub fn svg(puzzle: &Hashi, bridges: Option<&[[usize; 5]]>) -> String {
    let side = puzzle.rows.max(puzzle.cols) as f64;
    let cell = (560.0 / side).clamp(8.0, 26.0);
    let margin = cell * 0.6;
    let w = margin * 2.0 + cell * (puzzle.cols as f64 - 1.0);
    let h = margin * 2.0 + cell * (puzzle.rows as f64 - 1.0);
    let x = |c: usize| margin + c as f64 * cell;
    let y = |r: usize| margin + r as f64 * cell;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(s, r#"<title>Hashi {}</title>"#, xml_escape(&puzzle.name));
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w:.1}" height="{h:.1}" fill="white"/>"#
    );
    for r in 0..puzzle.rows {
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#e4e4e4" stroke-width="0.5"/>"##,
            x(0),
            y(r),
            x(puzzle.cols - 1),
            y(r)
        );
    }
    for c in 0..puzzle.cols {
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#e4e4e4" stroke-width="0.5"/>"##,
            x(c),
            y(0),
            x(c),
            y(puzzle.rows - 1)
        );
    }
    let gap = cell * 0.14;
    for &[r1, c1, r2, c2, n] in bridges.unwrap_or(&[]) {
        for i in 0..n {
            let off = (i as f64 - (n as f64 - 1.0) / 2.0) * gap;
            let (dx, dy) = if r1 == r2 { (0.0, off) } else { (off, 0.0) };
            let _ = writeln!(
                s,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#1f5fbf" stroke-width="{:.1}"/>"##,
                x(c1) + dx,
                y(r1) + dy,
                x(c2) + dx,
                y(r2) + dy,
                (cell * 0.06).max(0.8)
            );
        }
    }
    let radius = cell * 0.38;
    let font = cell * 0.45;
    for i in &puzzle.islands {
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{radius:.1}" fill="white" stroke="black" stroke-width="{:.1}"/>"#,
            x(i.col),
            y(i.row),
            (cell * 0.05).max(0.6)
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="middle">{}</text>"#,
            x(i.col),
            y(i.row) + font * 0.36,
            i.label
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::hashi::parse::parse_game_id;

    #[test]
    fn draws_islands_and_bridges() {
        let mut p = parse_game_id("3x3:2a3e1").unwrap();
        p.name = "a<b".into();
        let s = svg(&p, Some(&[[0, 0, 0, 2, 2], [0, 2, 2, 2, 1]]));
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<circle").count(), 3);
        assert_eq!(s.matches("#1f5fbf").count(), 3);
        assert!(s.contains("a&lt;b"));
        assert_eq!(svg(&p, None).matches("#1f5fbf").count(), 0);
    }
}
