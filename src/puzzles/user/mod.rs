//! Formulations written outside Rust (docs/user-formulations.md): a user's program reads
//! an instance as JSON ([`UserSchema::instance`]) and writes its model as LP or MPS; the
//! model is read into the engine-neutral [`crate::model::Model`], solved by any engine
//! that takes integer programs, and its answer is read from the puzzle's *answer
//! variables* ([`UserSchema::answer_vars`]) and checked by the puzzle's independent
//! verifier, as the answer of a built-in formulation is.
//!
//! A puzzle takes such formulations when its registry entry has a [`UserSchema`]; its
//! definitions are files ([`definition`]), read once per process ([`registry`]) and
//! run by [`run`].

pub mod definition;
pub mod registry;
pub mod run;

use super::Answer;

/// What a puzzle gives a formulation written outside Rust: its instance as JSON and the
/// answer variables from which its solution is read. Numbering in both is from 1 (rows,
/// columns, values, points, islands), as the answer variables' names are.
pub struct UserSchema<P: 'static> {
    /// The instance in the puzzle's documented JSON shape (`export --json`): an object
    /// with `puzzle` and `name` and the puzzle's own fields.
    pub instance: fn(&P) -> serde_json::Value,
    /// The answer variables of an instance, in the order [`UserSchema::answer`] reads
    /// their values.
    pub answer_vars: fn(&P) -> Vec<AnswerVar>,
    /// The answer, decoded and verified, from the values of the answer variables in the
    /// order of [`UserSchema::answer_vars`], each already checked to be a whole number in
    /// its domain.
    pub answer: fn(&P, &[u32]) -> Answer,
    /// What the answer variables mean, one line (`cell_R_C_V = 1 iff ...`), for `list`,
    /// `export` and error messages.
    pub meaning: &'static str,
}

/// One answer variable: its name in the user's model and its domain 0..=`upper`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerVar {
    /// The variable's name, e.g. `cell_1_3_9`.
    pub name: String,
    /// The largest value it may take (1: binary).
    pub upper: u32,
}

impl AnswerVar {
    /// A 0/1 answer variable.
    pub fn binary(name: String) -> AnswerVar {
        AnswerVar { name, upper: 1 }
    }
}

/// Tolerance on a value's distance from a whole number, as the engines' integrality
/// tolerance (1e-6) with room for a value read back from a solution file.
pub const INTEGRALITY: f64 = 1e-5;

/// The values of the answer variables as whole numbers, or the first one that is not a
/// whole number in its domain, named.
pub fn whole_values(vars: &[AnswerVar], values: &[f64]) -> Result<Vec<u32>, String> {
    vars.iter()
        .zip(values)
        .map(|(v, &x)| {
            let r = x.round();
            if (x - r).abs() > INTEGRALITY || r < 0.0 || r > f64::from(v.upper) {
                let domain = if v.upper == 1 {
                    "0 or 1".to_string()
                } else {
                    format!("a whole number from 0 to {}", v.upper)
                };
                Err(format!(
                    "answer variable {} has the value {x}, not {domain}",
                    v.name
                ))
            } else {
                Ok(r as u32)
            }
        })
        .collect()
}

/// The names `prefix_R_C` of the cells of a grid of `rows` × `cols`, row by row, from 1.
pub fn grid_vars(prefix: &str, rows: usize, cols: usize) -> Vec<AnswerVar> {
    (1..=rows)
        .flat_map(|r| (1..=cols).map(move |c| AnswerVar::binary(format!("{prefix}_{r}_{c}"))))
        .collect()
}

/// The 0/1 grid of `rows` × `cols` from values in the order of [`grid_vars`].
pub fn grid_of(values: &[u32], cols: usize) -> Vec<Vec<bool>> {
    values
        .chunks(cols.max(1))
        .map(|r| r.iter().map(|&v| v == 1).collect())
        .collect()
}

/// The names `cell_R_C_V` of an n × n grid whose cells hold 1..=n, row by row, then by
/// value, from 1 (Sudoku, KenKen).
pub fn cell_value_vars(n: usize) -> Vec<AnswerVar> {
    (1..=n)
        .flat_map(|r| {
            (1..=n).flat_map(move |c| {
                (1..=n).map(move |v| AnswerVar::binary(format!("cell_{r}_{c}_{v}")))
            })
        })
        .collect()
}

/// The grid of values from 0/1 values in the order of [`cell_value_vars`]: a cell holds
/// the value whose variable is 1, 0 when none is, and the sum of its values' numbers when
/// several are (so that the verifier refuses it: no value of 1..=n is two of them).
pub fn cell_value_grid(values: &[u32], n: usize) -> Vec<Vec<u32>> {
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let at = (r * n + c) * n;
                    let ones: Vec<u32> = (0..n)
                        .filter(|&v| values[at + v] == 1)
                        .map(|v| v as u32 + 1)
                        .collect();
                    match ones.as_slice() {
                        [] => 0,
                        [one] => *one,
                        several => several.iter().sum::<u32>().max(n as u32 + 1),
                    }
                })
                .collect()
        })
        .collect()
}

/// Helpers of the puzzles' tests of their schemas.
#[cfg(test)]
pub(crate) mod testing {
    use super::AnswerVar;
    use crate::puzzles::Instance;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The first instance of a committed file under `instances/`.
    pub fn committed<P: Instance + 'static>(file: &str) -> P {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("instances")
            .join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        (P::puzzle().parse)(&path, &text).unwrap().remove(0)
    }

    /// The numbers in a variable's name after its prefix (`ship_3_4`: [3, 4]).
    pub fn numbers(name: &str) -> Vec<usize> {
        name.split('_')
            .skip(1)
            .map(|x| x.parse().unwrap())
            .collect()
    }

    /// The values of `vars` from a function of the numbers in their names.
    pub fn values(vars: &[AnswerVar], value: impl Fn(&[usize]) -> u32) -> Vec<u32> {
        vars.iter().map(|v| value(&numbers(&v.name))).collect()
    }

    /// Asserts that the names are distinct and that there are `count` of them.
    pub fn assert_names(vars: &[AnswerVar], count: usize) {
        let names: BTreeSet<&str> = vars.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names.len(), vars.len(), "names repeat");
        assert_eq!(vars.len(), count);
    }

    /// The verified answer of formulation `key` on HiGHS.
    pub fn solved<P: Instance + 'static>(p: &P, key: &str) -> crate::puzzles::Answer {
        let options = crate::engines::SolveOptions::default();
        let r = P::puzzle()
            .solve(p, key, crate::engines::highs::HIGHS, &options)
            .unwrap();
        let answer = r.answer.expect("a solution");
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        answer
    }

    /// The index in `vars` of the variable named `name`.
    pub fn at(vars: &[AnswerVar], name: &str) -> usize {
        vars.iter()
            .position(|v| v.name == name)
            .unwrap_or_else(|| panic!("no answer variable {name}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_outside_their_domain_are_named() {
        let vars = vec![
            AnswerVar::binary("a".into()),
            AnswerVar {
                name: "b".into(),
                upper: 2,
            },
        ];
        assert_eq!(whole_values(&vars, &[1.0, 2.0]), Ok(vec![1, 2]));
        assert_eq!(whole_values(&vars, &[0.999_999_9, 0.0]), Ok(vec![1, 0]));
        let e = whole_values(&vars, &[0.5, 0.0]).unwrap_err();
        assert!(
            e.contains("answer variable a has the value 0.5, not 0 or 1"),
            "{e}"
        );
        let e = whole_values(&vars, &[1.0, 3.0]).unwrap_err();
        assert!(
            e.contains("b has the value 3, not a whole number from 0 to 2"),
            "{e}"
        );
        assert!(whole_values(&vars, &[-1.0, 0.0]).is_err());
    }

    #[test]
    fn a_cell_with_two_values_is_no_value_of_the_grid() {
        let n = 2;
        // cell (1,1) = 2; (1,2) = none; (2,1) = 1 and 2; (2,2) = 1.
        let v = [0, 1, 0, 0, 1, 1, 1, 0];
        assert_eq!(cell_value_grid(&v, n), vec![vec![2, 0], vec![3, 1]]);
        let names: Vec<String> = cell_value_vars(2).into_iter().map(|v| v.name).collect();
        assert_eq!(names[..3], ["cell_1_1_1", "cell_1_1_2", "cell_1_2_1"]);
        assert_eq!(
            grid_of(&[1, 0, 0, 1], 2),
            vec![vec![true, false], vec![false, true]]
        );
        assert_eq!(grid_vars("ship", 1, 2)[1].name, "ship_1_2");
    }
}
