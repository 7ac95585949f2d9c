//! SVG picture of a KenKen: thin cell lines, thick cage walls, each cage's clue in the
//! corner of its first cell, and the solution's values in blue.

use super::KenKen;
use std::fmt::Write as _;

/// Draws `puzzle`, filled with `solution` when given.
pub fn svg(puzzle: &KenKen, solution: Option<&[Vec<u32>]>) -> String {
    let n = puzzle.n;
    let cell = 36.0;
    let margin = 4.0;
    let side = cell * n as f64;
    let total = side + 2.0 * margin;
    let mut cage_of = vec![vec![usize::MAX; n]; n];
    for (c, cage) in puzzle.cages.iter().enumerate() {
        for &(i, j) in &cage.cells {
            cage_of[i][j] = c;
        }
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{total}" viewBox="0 0 {total} {total}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(
        s,
        r#"<title>KenKen {}</title>"#,
        crate::xml::escape(&puzzle.name)
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{total}" height="{total}" fill="white"/>"#
    );
    let at = |k: usize| margin + k as f64 * cell;
    let cage = |i: usize, j: usize| cage_of[i][j];
    // Cell edges: thick where two cages meet or at the border.
    for i in 0..n {
        for j in 0..=n {
            let wall = j == 0 || j == n || cage(i, j - 1) != cage(i, j);
            let _ = writeln!(
                s,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="black" stroke-width="{}"/>"#,
                at(i),
                at(i + 1),
                if wall { 2.4 } else { 0.5 },
                x = at(j)
            );
        }
    }
    for j in 0..n {
        for i in 0..=n {
            let wall = i == 0 || i == n || cage(i - 1, j) != cage(i, j);
            let _ = writeln!(
                s,
                r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="black" stroke-width="{}"/>"#,
                at(j),
                at(j + 1),
                if wall { 2.4 } else { 0.5 },
                y = at(i)
            );
        }
    }
    for cage in &puzzle.cages {
        let (i, j) = cage.cells[0];
        let clue = cage
            .clue()
            .replace('*', "×")
            .replace('/', "÷")
            .replace('-', "−");
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="9">{}</text>"#,
            at(j) + 3.0,
            at(i) + 10.0,
            crate::xml::escape(&clue)
        );
    }
    if let Some(grid) = solution {
        for (i, row) in grid.iter().enumerate().take(n) {
            for (j, &v) in row.iter().enumerate().take(n) {
                if v == 0 {
                    continue;
                }
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" font-size="17" text-anchor="middle" fill="#1f5fbf">{v}</text>"##,
                    at(j) + cell / 2.0,
                    at(i) + cell * 0.75
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_keen;
    use super::*;

    #[test]
    fn draws_clues_and_values() {
        let k = parse_keen("2:a_a,a5a1").unwrap();
        let s = svg(&k, Some(&[vec![2, 1], vec![1, 2]]));
        assert!(s.contains(">5+<"));
        assert!(s.contains(">1<"));
        assert!(s.contains("stroke-width=\"2.4\""));
        assert!(!svg(&k, None).contains("#1f5fbf"));
    }
}
