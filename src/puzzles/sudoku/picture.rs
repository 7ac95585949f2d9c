//! SVG picture of a Sudoku: the grid with thick box (or jigsaw region) borders, the
//! diagonals of X-Sudoku shaded, killer cages as dashed outlines with their sums, givens
//! in black and the solved cells in blue, sized for a paper (about 6 cm for 9×9).

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
        crate::xml::escape(&puzzle.name)
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{total}" height="{total}" fill="white"/>"#
    );
    let at = |k: usize| margin + k as f64 * cell;
    if puzzle.diagonals {
        for i in 0..n {
            for j in [i, n - 1 - i] {
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="#e8e8e8"/>"##,
                    at(j),
                    at(i)
                );
            }
        }
    }
    // Cell edges: thick at the border and between two boxes or regions.
    let w = |t: bool| if t { 2.2 } else { 0.6 };
    for i in 0..n {
        for j in 0..=n {
            let thick = j == 0 || j == n || puzzle.region(i, j - 1) != puzzle.region(i, j);
            let _ = writeln!(
                s,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="black" stroke-width="{}"/>"#,
                at(i),
                at(i + 1),
                w(thick),
                x = at(j)
            );
        }
    }
    for j in 0..n {
        for i in 0..=n {
            let thick = i == 0 || i == n || puzzle.region(i - 1, j) != puzzle.region(i, j);
            let _ = writeln!(
                s,
                r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="black" stroke-width="{}"/>"#,
                at(j),
                at(j + 1),
                w(thick),
                y = at(i)
            );
        }
    }
    // Killer cages: a dashed line inside the cell along each side that leaves the cage,
    // and the sum in the corner of the cage's first cell.
    let inset = cell * 0.1;
    for cage in &puzzle.cages {
        let inside =
            |i: isize, j: isize| i >= 0 && j >= 0 && cage.cells.contains(&(i as usize, j as usize));
        for &(i, j) in &cage.cells {
            let (x0, y0) = (at(j) + inset, at(i) + inset);
            let (x1, y1) = (at(j + 1) - inset, at(i + 1) - inset);
            let (ii, jj) = (i as isize, j as isize);
            let mut side = |xa: f64, ya: f64, xb: f64, yb: f64| {
                let _ = writeln!(
                    s,
                    r##"<line x1="{xa:.1}" y1="{ya:.1}" x2="{xb:.1}" y2="{yb:.1}" stroke="#555" stroke-width="0.8" stroke-dasharray="2,2"/>"##
                );
            };
            if !inside(ii - 1, jj) {
                side(x0, y0, x1, y0);
            }
            if !inside(ii + 1, jj) {
                side(x0, y1, x1, y1);
            }
            if !inside(ii, jj - 1) {
                side(x0, y0, x0, y1);
            }
            if !inside(ii, jj + 1) {
                side(x1, y0, x1, y1);
            }
        }
        let (i, j) = cage.cells[0];
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="{:.1}">{}</text>"#,
            at(j) + inset + 1.0,
            at(i) + inset + cell * 0.22,
            cell * 0.24,
            cage.target
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
            ..Sudoku::plain(2, 2, givens)
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
        // 4 rows of 5 vertical edges and 4 columns of 5 horizontal ones; thick: the
        // border (16) and the box walls (8).
        assert_eq!(s.matches("stroke-width=\"2.2\"").count(), 24);
    }

    #[test]
    fn draws_the_variants() {
        use crate::puzzles::cages::{Cage, Op};
        let p = Sudoku {
            name: "v".into(),
            diagonals: true,
            regions: Some((0..4).map(|i| vec![i; 4]).collect()),
            cages: vec![Cage {
                op: Op::Add,
                target: 7,
                cells: vec![(0, 0), (1, 0)],
            }],
            ..Sudoku::plain(4, 1, vec![vec![0; 4]; 4])
        };
        let s = svg(&p, None);
        assert_eq!(s.matches("#e8e8e8").count(), 8);
        // Regions are rows: thick horizontal walls between every two rows.
        assert_eq!(s.matches("stroke-width=\"2.2\"").count(), 16 + 12);
        assert_eq!(s.matches("stroke-dasharray").count(), 6);
        assert!(s.contains(">7</text>"));
    }
}
