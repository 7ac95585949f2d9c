//! SVG picture of a Circuit Board: points as dots, blacked-out cells as dark squares,
//! given links thick and black, the solution's other links blue, the s–t path of the
//! shortest-path variant red, S and T ringed. Cells are 28 px up to 20 columns and shrink
//! for larger boards so that the picture stays about 15 cm wide at most.

use super::{Cell, Circuit, Link};
use crate::xml::escape as xml_escape;
use std::fmt::Write as _;

/// Draws `p`, with the links of a solution and its s–t path when given.
pub fn svg(p: &Circuit, links: Option<&[Link]>, path: Option<&[Cell]>) -> String {
    let side = p.rows.max(p.cols) as f64;
    let cell = (560.0 / side).clamp(8.0, 28.0);
    let margin = cell * 0.7;
    let w = margin * 2.0 + cell * (p.cols as f64 - 1.0);
    let h = margin * 2.0 + cell * (p.rows as f64 - 1.0);
    let x = |c: usize| margin + c as f64 * cell;
    let y = |r: usize| margin + r as f64 * cell;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}">"#
    );
    let _ = writeln!(s, "<title>Circuit Board {}</title>", xml_escape(&p.name));
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w:.1}" height="{h:.1}" fill="white"/>"#
    );
    for r in 0..p.rows {
        for c in 0..p.cols {
            if !p.is_point((r, c)) {
                let _ = writeln!(
                    s,
                    r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#333"/>"##,
                    x(c) - cell * 0.45,
                    y(r) - cell * 0.45,
                    cell * 0.9,
                    cell * 0.9
                );
            }
        }
    }
    let line = |s: &mut String, Link(a, b): Link, colour: &str, width: f64| {
        let _ = writeln!(
            s,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{width:.1}" stroke-linecap="round"/>"#,
            x(a.1),
            y(a.0),
            x(b.1),
            y(b.0)
        );
    };
    for &l in links.unwrap_or(&[]) {
        if p.given.binary_search(&l).is_err() {
            line(&mut s, l, "#1f5fbf", (cell * 0.1).max(1.0));
        }
    }
    for &l in &p.given {
        line(&mut s, l, "#000", (cell * 0.16).max(1.5));
    }
    for w in path.unwrap_or(&[]).windows(2) {
        if let Some(l) = Link::new(w[0], w[1]) {
            line(&mut s, l, "#d62728", (cell * 0.08).max(1.0));
        }
    }
    for r in 0..p.rows {
        for c in 0..p.cols {
            if p.is_point((r, c)) {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="black"/>"#,
                    x(c),
                    y(r),
                    (cell * 0.12).max(1.0)
                );
            }
        }
    }
    if let Some((a, b)) = p.endpoints {
        for (cell_at, label) in [(a, "S"), (b, "T")] {
            let _ = writeln!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#1f77b4" stroke-width="{:.1}"><title>{label}</title></circle>"##,
                x(cell_at.1),
                y(cell_at.0),
                cell * 0.3,
                (cell * 0.08).max(1.0)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}
