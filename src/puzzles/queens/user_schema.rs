//! n-Queens with walls for formulations written outside Rust ([`crate::puzzles::user`]):
//! the instance as JSON and the answer variables `queen_R_C` (docs/puzzles/queens.md,
//! "Formulations without Rust"). The question is the base model's: the most queens on
//! the board as given (its walls fixed).

use super::{Cell, Queens};
use crate::puzzles::user::{self, UserSchema};

/// n-Queens' JSON shape and answer variables.
pub const SCHEMA: UserSchema<Queens> = UserSchema {
    instance: to_json,
    answer_vars: |p| user::grid_vars("queen", p.n, p.n),
    answer: |p, v| p.answer(&cells(p, &user::grid_of(v, p.n)), None),
    meaning: "queen_R_C = 1 iff a queen stands on cell (R, C) (rows and columns from 1)",
};

/// The instance as JSON: `size` n (the board is n × n), `walls` (the walls as `[row,
/// col]`, rows and columns from 1; a queen sees along its row, column and diagonals up
/// to the next wall, and stands on none) and `value` (the most queens the board takes,
/// when the file knows it, else `null`; the verifier then also checks the count).
pub fn to_json(p: &Queens) -> serde_json::Value {
    let walls: Vec<[usize; 2]> = (0..p.n)
        .flat_map(|r| (0..p.n).map(move |c| (r, c)))
        .filter(|&(r, c)| p.walls[r][c])
        .map(|(r, c)| [r + 1, c + 1])
        .collect();
    serde_json::json!({
        "puzzle": "queens",
        "name": p.name,
        "size": p.n,
        "walls": walls,
        "value": p.value,
    })
}

/// The answer grid: the board's walls, and a queen wherever the values put one (also on
/// a wall, which the verifier refuses).
fn cells(p: &Queens, queens: &[Vec<bool>]) -> Vec<Vec<Cell>> {
    queens
        .iter()
        .zip(&p.walls)
        .map(|(row, walls)| {
            row.iter()
                .zip(walls)
                .map(|(&q, &w)| match (q, w) {
                    (true, _) => Cell::Queen,
                    (false, true) => Cell::Wall,
                    (false, false) => Cell::Empty,
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::user::testing::{assert_names, at, committed, solved, values};

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        // 8×8 with a wall at (4, 4): 9 queens.
        let p: Queens = committed("queens/boards/b08_w1_a.txt");
        let built = solved(&p, "base");
        let grid: Vec<String> = serde_json::from_value(built.json["grid"].clone()).unwrap();
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, 64);
        let queen = |r: usize, c: usize| grid[r - 1].as_bytes()[c - 1] == b'Q';
        let mut v = values(&vars, |i| u32::from(queen(i[0], i[1])));
        assert_eq!(v.iter().sum::<u32>(), 9);
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        assert_eq!(answer.json["grid"][3].as_str().unwrap().as_bytes()[3], b'X');
        // One queen fewer than the board's value.
        let first = v.iter().position(|&x| x == 1).unwrap();
        v[first] = 0;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        // A queen on the wall instead.
        v[at(&vars, "queen_4_4")] = 1;
        let e = (SCHEMA.answer)(&p, &v).verdict.unwrap_err();
        assert!(e.contains("(4,4)"), "{e}");
    }

    #[test]
    fn the_instance_as_json() {
        let p: Queens = committed("queens/boards/b08_w1_a.txt");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "queens");
        assert_eq!(j["size"], 8);
        assert_eq!(j["walls"], serde_json::json!([[4, 4]]));
        assert_eq!(j["value"], 9);
    }
}
