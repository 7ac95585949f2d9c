//! Small models and their optimum by enumeration, for the tests of the engines that take
//! integer programs (`sat`, `cadical-lin`, `pumpkin`): each engine's answer is checked
//! against brute force on random models of a few columns.

use crate::model::{Model, Sense, VarId, VarKind};

/// A model of `n` columns in `lo..=hi` with objective `obj`, sense, and rows
/// (coefficients, lower, upper).
pub fn model_of(
    n: usize,
    (lo, hi): (i64, i64),
    obj: &[i64],
    sense: Sense,
    rows: &[(Vec<i64>, f64, f64)],
) -> Model {
    let mut m = Model::new("t");
    m.sense = sense;
    let kind = if (lo, hi) == (0, 1) {
        VarKind::Binary
    } else {
        VarKind::Integer
    };
    let x: Vec<VarId> = (0..n)
        .map(|j| m.add_var(format!("x{j}"), kind, lo as f64, hi as f64, obj[j] as f64))
        .collect();
    for (i, (coefs, l, u)) in rows.iter().enumerate() {
        m.add_row(
            format!("r{i}"),
            coefs.iter().zip(&x).map(|(&a, &v)| (v, a as f64)),
            *l,
            *u,
        );
    }
    m
}

/// The best objective over every integer point in the box that meets the rows.
pub fn brute_force(m: &Model, (lo, hi): (i64, i64)) -> Option<f64> {
    let n = m.vars.len();
    let width = (hi - lo + 1) as usize;
    (0..width.pow(n as u32))
        .map(|mut b| {
            (0..n)
                .map(|_| {
                    let v = lo + (b % width) as i64;
                    b /= width;
                    v as f64
                })
                .collect::<Vec<f64>>()
        })
        .filter(|x| m.feasible(x))
        .map(|x| m.objective_value(&x))
        .reduce(|a, b| match m.sense {
            Sense::Minimize => a.min(b),
            Sense::Maximize => a.max(b),
        })
}

/// [`model_of`] with 0/1 columns.
pub fn binary_model(n: usize, obj: &[i64], sense: Sense, rows: &[(Vec<i64>, f64, f64)]) -> Model {
    model_of(n, (0, 1), obj, sense, rows)
}

/// [`brute_force`] over the 0/1 points.
pub fn binary_brute_force(m: &Model) -> Option<f64> {
    brute_force(m, (0, 1))
}
