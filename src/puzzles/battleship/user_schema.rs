//! Battleship for formulations written outside Rust ([`crate::puzzles::user`]): the
//! instance as JSON and the answer variables `ship_R_C` (docs/puzzles/battleship.md,
//! "Formulations without Rust").

use super::{Battleship, Cell, Grid};
use crate::puzzles::user::{self, UserSchema};

/// Battleship's JSON shape and answer variables.
pub const SCHEMA: UserSchema<Battleship> = UserSchema {
    instance: to_json,
    answer_vars: |p| user::grid_vars("ship", p.m(), p.n()),
    answer: |p, v| p.answer(cell_types(&user::grid_of(v, p.n()))),
    meaning: "ship_R_C = 1 iff cell (R, C) holds part of a ship (rows and columns from 1)",
};

/// The instance as JSON: `rows` m and `cols` n (the grid's size), `row_sums` (m numbers:
/// the ship parts in each row, top to bottom), `col_sums` (n numbers, left to right),
/// `fleet` (`fleet[l - 1]` is the number of ships of length l, as in the text format) and
/// `givens`, the cells shown from the start as `[row, col, "type"]` (rows and columns
/// from 1), the type a character as in the solution's `grid`: `~` water, `<` `>` the left
/// and right ends of a horizontal ship, `^` `v` the top and bottom ends of a vertical one,
/// `+` a middle part, `o` a ship of one cell.
pub fn to_json(p: &Battleship) -> serde_json::Value {
    let givens: Vec<serde_json::Value> = p
        .givens
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter().enumerate().filter_map(move |(c, g)| {
                g.map(|t| serde_json::json!([r + 1, c + 1, t.symbol().to_string()]))
            })
        })
        .collect();
    serde_json::json!({
        "puzzle": "battleship",
        "name": p.name,
        "rows": p.m(),
        "cols": p.n(),
        "row_sums": p.rows,
        "col_sums": p.cols,
        "fleet": p.fleet,
        "givens": givens,
    })
}

/// The cell types of a grid of ship parts, read from each part's neighbours: a part with
/// ship parts beside it (left or right) but none above or below is the left end, the right
/// end or a middle part of a horizontal ship, and the other way round for a vertical one;
/// a part alone is a one-cell ship. A part with neighbours both ways (no straight ship)
/// is marked a middle part, which the verifier refuses with the ship around it.
fn cell_types(ships: &[Vec<bool>]) -> Grid {
    let at = |r: usize, c: usize, dr: isize, dc: isize| {
        let (rr, cc) = (r as isize + dr, c as isize + dc);
        rr >= 0
            && cc >= 0
            && ships
                .get(rr as usize)
                .and_then(|row| row.get(cc as usize))
                .copied()
                .unwrap_or(false)
    };
    ships
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(|(c, &ship)| {
                    let (left, right) = (at(r, c, 0, -1), at(r, c, 0, 1));
                    let (up, down) = (at(r, c, -1, 0), at(r, c, 1, 0));
                    match (ship, left || right, up || down) {
                        (false, _, _) => Cell::Water,
                        (true, false, false) => Cell::Single,
                        (true, true, false) if !left => Cell::Left,
                        (true, true, false) if !right => Cell::Right,
                        (true, false, true) if !up => Cell::Top,
                        (true, false, true) if !down => Cell::Bottom,
                        _ => Cell::Middle,
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::user::testing::{assert_names, at, committed, values};

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        let p: Battleship = committed("battleship/table_4_2/10x10.txt");
        let solution = p.solution.clone().unwrap();
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, 100);
        let mut v = values(&vars, |i| u32::from(solution[i[0] - 1][i[1] - 1].is_ship()));
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        let grid: Vec<String> = serde_json::from_value(answer.json["grid"].clone()).unwrap();
        let file: Vec<String> = solution
            .iter()
            .map(|r| r.iter().map(|c| c.symbol()).collect())
            .collect();
        assert_eq!(grid, file);
        // The three-cell ship (9,3)..(9,5) loses its right end.
        let end = at(&vars, "ship_9_5");
        v[end] = 0;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        // A part below its middle bends it (and breaks the sums).
        v[end] = 1;
        v[at(&vars, "ship_10_4")] = 1;
        let e = (SCHEMA.answer)(&p, &v).verdict.unwrap_err();
        assert!(!e.is_empty());
    }

    #[test]
    fn cell_types_follow_the_neighbours() {
        let g = |rows: &[&str]| -> Vec<Vec<bool>> {
            rows.iter()
                .map(|r| r.chars().map(|c| c == '#').collect())
                .collect()
        };
        let types = cell_types(&g(&["###.#", ".....", "#.#.#", "#.#..", "#...."]));
        let symbols: Vec<String> = types
            .iter()
            .map(|r| r.iter().map(|c| c.symbol()).collect())
            .collect();
        assert_eq!(symbols, ["<+>~o", "~~~~~", "^~^~o", "+~v~~", "v~~~~"]);
        // An L of parts: the corner is neither end.
        let bent = cell_types(&g(&["##", "#."]));
        assert_eq!(bent[0][0], Cell::Middle);
    }

    #[test]
    fn the_instance_as_json() {
        let p: Battleship = committed("battleship/table_4_2/10x10.txt");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "battleship");
        assert_eq!(j["rows"], 10);
        assert_eq!(j["fleet"], serde_json::json!([4, 3, 2, 1]));
        assert_eq!(j["row_sums"][8], 4);
        assert_eq!(j["col_sums"][4], 4);
        // Row 1's given water at column 3, then row 3's right end at column 3.
        assert_eq!(j["givens"][0], serde_json::json!([1, 3, "~"]));
        assert_eq!(j["givens"][2], serde_json::json!([3, 3, ">"]));
    }
}
