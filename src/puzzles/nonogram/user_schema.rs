//! Nonograms for formulations written outside Rust ([`crate::puzzles::user`]): the
//! instance as JSON and the answer variables `paint_R_C` (docs/puzzles/nonogram.md,
//! "Formulations without Rust").

use super::Nonogram;
use crate::puzzles::user::{self, UserSchema};

/// Nonograms' JSON shape and answer variables.
pub const SCHEMA: UserSchema<Nonogram> = UserSchema {
    instance: to_json,
    answer_vars: |p| user::grid_vars("paint", p.height(), p.width()),
    answer: |p, v| p.answer(&user::grid_of(v, p.width())),
    meaning: "paint_R_C = 1 iff cell (R, C) is painted black (rows and columns from 1)",
};

/// The instance as JSON: `rows` and `cols` (the grid's height and width), `row_clues`
/// (one list per row, top to bottom, of the lengths of its black runs from left to
/// right; `[]` for an all-white row), `col_clues` (one list per column, left to right,
/// of its runs from top to bottom) and `givens`, the cells shown from the start as
/// `[row, col, colour]` (rows and columns from 1; colour 1 black, 0 white; empty in most
/// puzzles).
pub fn to_json(p: &Nonogram) -> serde_json::Value {
    let givens: Vec<[usize; 3]> = p
        .givens
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter_map(move |(c, g)| g.map(|black| [r + 1, c + 1, usize::from(black)]))
        })
        .collect();
    serde_json::json!({
        "puzzle": "nonogram",
        "name": p.name,
        "rows": p.height(),
        "cols": p.width(),
        "row_clues": p.rows,
        "col_clues": p.cols,
        "givens": givens,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::user::testing::{assert_names, at, committed, values};

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        // webpbn #1, 5 wide and 10 high, with its goal.
        let p: Nonogram = committed("nonogram/webpbn/1.non");
        let goal = p.goal.clone().unwrap();
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, 50);
        assert_eq!(vars[5].name, "paint_2_1");
        let mut v = values(&vars, |i| u32::from(goal[i[0] - 1][i[1] - 1]));
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        assert_eq!(answer.json["grid"][0], ".##..");
        // Cell (1, 1) painted as well: row 1 becomes a run of 3, not 2.
        v[at(&vars, "paint_1_1")] = 1;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        // Nothing painted at all.
        let blank = vec![0; v.len()];
        assert!((SCHEMA.answer)(&p, &blank).verdict.is_err());
        // A given white cell painted breaks the givens, even where the clues would hold.
        let mut given = p.clone();
        let v = values(&vars, |i| u32::from(goal[i[0] - 1][i[1] - 1]));
        given.givens[0][1] = Some(false);
        assert!((SCHEMA.answer)(&given, &v).verdict.is_err());
    }

    #[test]
    fn the_instance_as_json() {
        let mut p: Nonogram = committed("nonogram/webpbn/1.non");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "nonogram");
        assert_eq!(
            (j["rows"].clone(), j["cols"].clone()),
            (10.into(), 5.into())
        );
        assert_eq!(j["row_clues"][1], serde_json::json!([2, 1]));
        assert_eq!(j["col_clues"][1], serde_json::json!([2, 1, 3]));
        assert_eq!(j["givens"], serde_json::json!([]));
        p.givens[0][1] = Some(true);
        p.givens[0][0] = Some(false);
        p.givens[2][4] = Some(true);
        assert_eq!(
            to_json(&p)["givens"],
            serde_json::json!([[1, 1, 0], [1, 2, 1], [3, 5, 1]])
        );
    }
}
