//! KenKen for formulations written outside Rust ([`crate::puzzles::user`]): the instance
//! as JSON and the answer variables `cell_R_C_V`, as Sudoku's (docs/puzzles/kenken.md,
//! "Formulations without Rust").

use super::{KenKen, Op};
use crate::puzzles::user::{self, UserSchema};

/// KenKen's JSON shape and answer variables.
pub const SCHEMA: UserSchema<KenKen> = UserSchema {
    instance: to_json,
    answer_vars: |p| user::cell_value_vars(p.n),
    answer: |p, v| p.answer(&user::cell_value_grid(v, p.n)),
    meaning: "cell_R_C_V = 1 iff cell (R, C) holds the value V (rows, columns and values from 1)",
};

/// The instance as JSON: `size` n (an n × n Latin square of the values 1..=n) and
/// `cages`, each `{"op", "target", "cells": [[row, col], ...]}` (rows and columns from
/// 1; every cell in one cage), `op` one of `+` (the values add up to the target), `*`
/// (they multiply to it), `-` (two cells whose values differ by it), `/` (two cells, the
/// larger value the target times the smaller) and `=` (one cell holding the target).
pub fn to_json(p: &KenKen) -> serde_json::Value {
    let cages: Vec<serde_json::Value> = p
        .cages
        .iter()
        .map(|c| {
            let op = match c.op {
                Op::Given => "=",
                other => other.symbol(),
            };
            let cells: Vec<[usize; 2]> = c.cells.iter().map(|&(r, k)| [r + 1, k + 1]).collect();
            serde_json::json!({ "op": op, "target": c.target, "cells": cells })
        })
        .collect();
    serde_json::json!({
        "puzzle": "kenken",
        "name": p.name,
        "size": p.n,
        "cages": cages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::user::testing::{assert_names, at, committed, values};

    /// The blog post's published solution of its 6×6 puzzle (in the file's comment).
    const SOLUTION: [[usize; 6]; 6] = [
        [5, 6, 3, 4, 1, 2],
        [6, 1, 4, 5, 2, 3],
        [4, 5, 2, 3, 6, 1],
        [3, 4, 1, 2, 5, 6],
        [2, 3, 6, 1, 4, 5],
        [1, 2, 5, 6, 3, 4],
    ];

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        let p: KenKen = committed("kenken/blog_003.txt");
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, 216);
        let mut v = values(&vars, |i| u32::from(SOLUTION[i[0] - 1][i[1] - 1] == i[2]));
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        assert_eq!(
            answer.json["grid"][0],
            serde_json::json!([5, 6, 3, 4, 1, 2])
        );
        // Cell (1, 1) holds 5 and 6.
        v[at(&vars, "cell_1_1_6")] = 1;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        // Cell (1, 1) holds nothing.
        v[at(&vars, "cell_1_1_6")] = 0;
        v[at(&vars, "cell_1_1_5")] = 0;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        // Rows 1 and 2 swapped: still a Latin square, but the cages break.
        let swapped = values(&vars, |i| {
            let r = [2, 1, 3, 4, 5, 6][i[0] - 1];
            u32::from(SOLUTION[r - 1][i[1] - 1] == i[2])
        });
        let e = (SCHEMA.answer)(&p, &swapped).verdict.unwrap_err();
        assert!(e.contains("cage"), "{e}");
    }

    #[test]
    fn the_instance_as_json() {
        let p: KenKen = committed("kenken/blog_003.txt");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "kenken");
        assert_eq!(j["size"], 6);
        assert_eq!(j["cages"].as_array().unwrap().len(), 15);
        assert_eq!(
            j["cages"][0],
            serde_json::json!({"op": "+", "target": 11, "cells": [[1, 1], [2, 1]]})
        );
        assert_eq!(j["cages"][1]["op"], "/");
        let given = KenKen {
            name: "g".into(),
            n: 1,
            cages: vec![super::super::Cage {
                op: Op::Given,
                target: 1,
                cells: vec![(0, 0)],
            }],
        };
        assert_eq!(to_json(&given)["cages"][0]["op"], "=");
    }
}
