//! SVG picture of a Sudoku: the grid with thick box borders, givens in black and the
//! solved cells in blue, sized for a paper (about 6 cm for 9×9).

use super::Sudoku;
use std::fmt::Write as _;

/// Draws `puzzle`, filled with `solution` when given.
pub fn svg(puzzle: &Sudoku, solution: Option<&[Vec<u32>]>) -> String {
    let n = puzzle.n();
    let cell = if n > 16 { 22.0 } else { 28.0 };
    let margin = 4.0;
    let side = cell * n as f64;
    let total = side + 2.0 * margin;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{total}" viewBox="0 0 {total} {total}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(
        s,
        r#"<title>Sudoku {}</title>"#,
        crate::puzzles::xml_escape(&puzzle.name)
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{total}" height="{total}" fill="white"/>"#
    );
    for i in 0..=n {
        let pos = margin + i as f64 * cell;
        let thick_row = i % puzzle.box_rows == 0;
        let thick_col = i % puzzle.box_cols == 0;
        let w = |t: bool| if t { 2.2 } else { 0.6 };
        let _ = writeln!(
            s,
            r#"<line x1="{margin}" y1="{pos}" x2="{}" y2="{pos}" stroke="black" stroke-width="{}"/>"#,
            margin + side,
            w(thick_row)
        );
        let _ = writeln!(
            s,
            r#"<line x1="{pos}" y1="{margin}" x2="{pos}" y2="{}" stroke="black" stroke-width="{}"/>"#,
            margin + side,
            w(thick_col)
        );
    }
    let font = cell * if n > 9 { 0.5 } else { 0.62 };
    for i in 0..n {
        for j in 0..n {
            let given = puzzle.givens[i][j];
            let (v, colour, weight) = match (given, solution) {
                (g, _) if g != 0 => (g, "black", "bold"),
                (_, Some(sol)) if sol[i][j] != 0 => (sol[i][j], "#1f5fbf", "normal"),
                _ => continue,
            };
            let x = margin + (j as f64 + 0.5) * cell;
            let y = margin + (i as f64 + 0.5) * cell + font * 0.36;
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{y:.1}" font-size="{font:.1}" text-anchor="middle" fill="{colour}" font-weight="{weight}">{v}</text>"#
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
    fn draws_givens_and_solution() {
        let mut givens = vec![vec![0; 4]; 4];
        givens[0][0] = 1;
        let p = Sudoku {
            name: "a<b".into(),
            box_rows: 2,
            box_cols: 2,
            givens,
        };
        let sol = vec![
            vec![1, 2, 3, 4],
            vec![3, 4, 1, 2],
            vec![2, 1, 4, 3],
            vec![4, 3, 2, 1],
        ];
        let s = svg(&p, Some(&sol));
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<text").count(), 16);
        assert_eq!(s.matches("font-weight=\"bold\"").count(), 1);
        assert!(s.contains("a&lt;b"));
        assert_eq!(svg(&p, None).matches("<text").count(), 1);
    }
}
