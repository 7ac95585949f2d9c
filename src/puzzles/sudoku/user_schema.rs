//! Sudoku for formulations written outside Rust ([`crate::puzzles::user`]): the instance
//! as JSON and the answer variables `cell_R_C_V` (docs/puzzles/sudoku.md, "Formulations without
//! Rust").

use super::Sudoku;
use crate::puzzles::user::{self, UserSchema};

/// Sudoku's JSON shape and answer variables.
pub const SCHEMA: UserSchema<Sudoku> = UserSchema {
    instance: to_json,
    answer_vars: |p| user::cell_value_vars(p.n()),
    answer: |p, v| p.answer(user::cell_value_grid(v, p.n())),
    meaning: "cell_R_C_V = 1 iff cell (R, C) holds the value V (rows, columns and values from 1)",
};

/// The instance as JSON: `size` n, `box_rows` and `box_cols`, `givens` (n rows of n
/// values, 0 for a blank), `regions` (n rows of region numbers from 1 for a jigsaw, else
/// `null`), `diagonals` (X-Sudoku) and `cages` (killer: each `{"sum", "cells": [[row,
/// col], ...]}`, rows and columns from 1).
pub fn to_json(p: &Sudoku) -> serde_json::Value {
    let regions = p.regions.as_ref().map(|r| {
        r.iter()
            .map(|row| row.iter().map(|&k| k + 1).collect::<Vec<usize>>())
            .collect::<Vec<_>>()
    });
    let cages: Vec<serde_json::Value> = p
        .cages
        .iter()
        .map(|c| {
            let cells: Vec<[usize; 2]> = c.cells.iter().map(|&(r, k)| [r + 1, k + 1]).collect();
            serde_json::json!({ "sum": c.target, "cells": cells })
        })
        .collect();
    serde_json::json!({
        "puzzle": "sudoku",
        "name": p.name,
        "size": p.n(),
        "box_rows": p.box_rows,
        "box_cols": p.box_cols,
        "givens": p.givens,
        "regions": regions,
        "diagonals": p.diagonals,
        "cages": cages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::sudoku::parse;
    use std::path::Path;

    fn puzzle(line: &str) -> Sudoku {
        parse::parse_file(Path::new("t.txt"), line)
            .unwrap()
            .remove(0)
    }

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        // A 4x4 Sudoku and its solution.
        let p = puzzle("1.3...1.2....3.1");
        let solution = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]];
        let vars = (SCHEMA.answer_vars)(&p);
        assert_eq!(vars.len(), 64);
        let mut values: Vec<u32> = vars
            .iter()
            .map(|v| {
                let i: Vec<usize> = v.name[5..].split('_').map(|x| x.parse().unwrap()).collect();
                u32::from(solution[i[0] - 1][i[1] - 1] == i[2])
            })
            .collect();
        let answer = (SCHEMA.answer)(&p, &values);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        assert_eq!(answer.json["grid"][1], serde_json::json!([3, 4, 1, 2]));
        // Cell (1, 1) holds 2 instead of 1: the verifier names the broken rule.
        values[0] = 0;
        values[1] = 1;
        assert!((SCHEMA.answer)(&p, &values).verdict.is_err());
        let json = to_json(&p);
        assert_eq!(json["givens"][0], serde_json::json!([1, 0, 3, 0]));
        assert_eq!(json["size"], 4);
    }
}
