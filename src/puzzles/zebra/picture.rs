//! SVG picture of a Zebra puzzle: a row of houses (columns) with one line per attribute,
//! filled in with the solution when there is one (empty cells otherwise).

use super::{Solution, Zebra};
use crate::xml::escape as xml_escape;
use std::fmt::Write as _;

/// Draws `puzzle`, filled with `solution` when given.
pub fn svg(puzzle: &Zebra, solution: Option<&Solution>) -> String {
    let hs = puzzle.houses;
    let na = puzzle.attributes.len();
    let longest = |it: &mut dyn Iterator<Item = usize>| it.max().unwrap_or(4).max(4) as f64;
    let label_w = 8.0 + 7.0 * longest(&mut puzzle.attributes.iter().map(|a| a.name.len()));
    let cell_w = 10.0
        + 7.0
            * longest(
                &mut puzzle
                    .attributes
                    .iter()
                    .flat_map(|a| a.values.iter().map(|v| v.len())),
            );
    let cell_h = 22.0;
    let margin = 4.0;
    let width = 2.0 * margin + label_w + cell_w * hs as f64;
    let height = 2.0 * margin + cell_h * (na + 1) as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<title>Zebra {}</title>"#, xml_escape(&puzzle.name));
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"#
    );
    let text = |s: &mut String, x: f64, y: f64, t: &str, bold: bool, colour: &str| {
        let weight = if bold { "bold" } else { "normal" };
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-weight="{weight}" fill="{colour}">{}</text>"#,
            y + 15.0,
            xml_escape(t)
        );
    };
    for h in 0..hs {
        let x = margin + label_w + cell_w * (h as f64 + 0.5);
        text(
            &mut s,
            x,
            margin,
            &format!("house {}", h + 1),
            true,
            "black",
        );
    }
    for (a, at) in puzzle.attributes.iter().enumerate() {
        let y = margin + cell_h * (a + 1) as f64;
        text(&mut s, margin + label_w / 2.0, y, &at.name, true, "black");
        for h in 0..hs {
            let x0 = margin + label_w + cell_w * h as f64;
            let _ = writeln!(
                s,
                r##"<rect x="{x0:.1}" y="{y:.1}" width="{cell_w:.1}" height="{cell_h}" fill="none" stroke="#888" stroke-width="0.6"/>"##
            );
            if let Some(v) = solution.and_then(|sol| sol.get(h)?.get(a).copied()) {
                if let Some(name) = at.values.get(v) {
                    text(&mut s, x0 + cell_w / 2.0, y, name, false, "#1f5fbf");
                }
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_str;
    use super::*;

    #[test]
    fn draws_the_table() {
        let z = parse_str("houses 2\nattribute c R G\nattribute p D C\n").unwrap();
        let s = svg(&z, Some(&vec![vec![0, 1], vec![1, 0]]));
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<text").count(), 2 + 2 + 4);
        assert_eq!(svg(&z, None).matches("<text").count(), 4);
    }
}
