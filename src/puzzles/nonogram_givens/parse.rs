//! Reading nonogram-givens instances: any nonogram file (the formats of
//! [`crate::puzzles::nonogram::parse`]) whose puzzles give their intended picture (the
//! `.non` goal, the text format's `picture`). A puzzle without one is refused: the
//! question is about a picture. Givens the file shows become the instance's start.

use super::NonogramGivens;
use crate::puzzles::nonogram::parse as nonogram;
use crate::puzzles::InputError;
use std::path::Path;

/// Parses every puzzle in `text` (the contents of `path`).
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<NonogramGivens>, InputError> {
    let puzzles = nonogram::parse_file(path, text)?;
    puzzles
        .into_iter()
        .map(|mut p| {
            let Some(picture) = p.goal.take() else {
                return Err(InputError::new(
                    path,
                    0,
                    format!(
                        "puzzle '{}' gives no intended picture: nonogram-givens needs one (a .non 'goal', or a text 'picture')",
                        p.name
                    ),
                ));
            };
            let start = p.has_givens().then(|| {
                p.givens
                    .iter()
                    .flatten()
                    .map(|g| g.is_some())
                    .collect::<Vec<bool>>()
            });
            for row in &mut p.givens {
                row.iter_mut().for_each(|g| *g = None);
            }
            Ok(NonogramGivens {
                name: p.name.clone(),
                puzzle: p,
                picture,
                start,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_and_givens_are_read_and_a_missing_picture_refused() {
        let text = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal \"1001\"\ngivens \"?0??\"\n";
        let ps = parse_file(Path::new("d.non"), text).unwrap();
        assert_eq!(ps[0].picture, vec![vec![true, false], vec![false, true]]);
        assert_eq!(ps[0].start, Some(vec![false, true, false, false]));
        assert!(ps[0].puzzle.givens.iter().flatten().all(|g| g.is_none()));
        let e = parse_file(Path::new("t.txt"), "3x3:1/1/1/1/1/1")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.txt") && e.contains("no intended picture"),
            "{e}"
        );
    }
}
