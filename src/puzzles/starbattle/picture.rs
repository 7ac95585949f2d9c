//! SVG picture of a Star Battle puzzle: thick walls between regions, cells outside every
//! region greyed, and the solution's stars.

use super::StarBattle;
use std::fmt::Write as _;

/// Draws `puzzle`, with the stars of `solution` when given.
pub fn svg(puzzle: &StarBattle, solution: Option<&[Vec<bool>]>) -> String {
    let (h, w) = (puzzle.height(), puzzle.width());
    let cell = if w.max(h) > 20 { 16.0 } else { 28.0 };
    let pad = 4.0;
    let (width, height) = (w as f64 * cell + 2.0 * pad, h as f64 * cell + 2.0 * pad);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}">"#
    );
    let _ = writeln!(
        s,
        r#"<title>Star Battle {} (stars {})</title>"#,
        crate::xml::escape(&puzzle.name),
        puzzle.stars_text()
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{width:.1}" height="{height:.1}" fill="white"/>"#
    );
    let x = |j: usize| pad + j as f64 * cell;
    let y = |i: usize| pad + i as f64 * cell;
    for i in 0..h {
        for j in 0..w {
            let fill = match puzzle.regions[i][j] {
                None => "#9a9a9a".to_string(),
                Some(k) => format!("hsl({}, 55%, 88%)", (k * 137) % 360),
            };
            let _ = writeln!(
                s,
                r##"<rect x="{:.1}" y="{:.1}" width="{cell}" height="{cell}" fill="{fill}" stroke="#bbb" stroke-width="0.5"/>"##,
                x(j),
                y(i)
            );
            if solution.is_some_and(|g| g[i][j]) {
                let _ = writeln!(
                    s,
                    r##"<circle class="star" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#1f1f1f"/>"##,
                    x(j) + cell / 2.0,
                    y(i) + cell / 2.0,
                    cell * 0.3
                );
            }
        }
    }
    // Walls between cells of different regions, and the border.
    let wall = |s: &mut String, x1: f64, y1: f64, x2: f64, y2: f64| {
        let _ = writeln!(
            s,
            r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#222" stroke-width="2.5" stroke-linecap="square"/>"##
        );
    };
    for i in 0..h {
        for j in 0..w {
            if j + 1 < w && puzzle.regions[i][j] != puzzle.regions[i][j + 1] {
                wall(&mut s, x(j + 1), y(i), x(j + 1), y(i + 1));
            }
            if i + 1 < h && puzzle.regions[i][j] != puzzle.regions[i + 1][j] {
                wall(&mut s, x(j), y(i + 1), x(j + 1), y(i + 1));
            }
        }
    }
    let _ = writeln!(
        s,
        r##"<rect x="{pad}" y="{pad}" width="{:.1}" height="{:.1}" fill="none" stroke="#222" stroke-width="2.5"/>"##,
        w as f64 * cell,
        h as f64 * cell
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn draws_walls_and_stars() {
        let p = super::super::parse::parse_text(
            std::path::Path::new("t.txt"),
            "starbattle 1\nAAB.\nACBB\nCCDD\nCCDD\n",
        )
        .unwrap();
        let grid: Vec<Vec<bool>> = [".*..", "...*", "*...", "..*."]
            .iter()
            .map(|r| r.chars().map(|c| c == '*').collect())
            .collect();
        let svg = super::svg(&p, Some(&grid));
        assert_eq!(svg.matches("class=\"star\"").count(), 4);
        assert_eq!(
            svg.matches("#9a9a9a").count(),
            1,
            "one cell outside every region"
        );
        assert!(svg.matches("<line").count() >= 6);
    }
}
