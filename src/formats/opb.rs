//! OPB, the pseudo-Boolean competition's format (Roussel and Manquinho, "Input/Output
//! Format and Solver Requirements for the Competitions of Pseudo-Boolean Solvers"): the
//! writer. Columns are `x1`, `x2`, ... (column j is `x{j+1}`), the model a minimisation.
//! There is no OPB reader: OPB goes out to pseudo-Boolean solvers, and answers come back
//! in their own formats (the definitions' readers).

use crate::model::{Model, VarId};
use std::fmt::Write as _;

/// A coefficient or side as a whole number for OPB ("+3", "-2").
fn whole(x: f64) -> Result<i64, String> {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Ok(x as i64)
    } else {
        Err(format!("{x} is not a whole number OPB can hold"))
    }
}

/// OPB of `model` (0/1 columns, whole coefficients) as a minimisation: `min:` for a
/// non-constant objective, each row as `>=` (an upper side negated) or `=`, bounds that
/// fix a column as rows of their own. The error says why the model cannot be written
/// (a row no assignment meets, which makes the model infeasible, is written as such).
pub fn write(model: &Model) -> Result<String, String> {
    let name = |v: VarId| format!("x{}", v.0 + 1);
    let mut body = String::new();
    let mut count = 0usize;
    let mut constraint = |terms: &[(VarId, f64)], op: &str, rhs: f64, sign: f64| {
        let mut line = String::new();
        for &(v, a) in terms {
            let a = whole(sign * a)?;
            if a != 0 {
                let _ = write!(line, "{a:+} {} ", name(v));
            }
        }
        if line.is_empty() {
            // No term: 0 op rhs, written over the first column times 0 would be lost;
            // keep the truth of it with a column and its negation.
            line = "+1 x1 -1 x1 ".to_string();
        }
        let _ = writeln!(body, "{line}{op} {} ;", whole(sign * rhs)?);
        count += 1;
        Ok::<(), String>(())
    };
    for r in &model.rows {
        match (r.lower.is_finite(), r.upper.is_finite()) {
            (true, true) if r.lower == r.upper => constraint(&r.terms, "=", r.lower, 1.0)?,
            (lo, up) => {
                if lo {
                    constraint(&r.terms, ">=", r.lower, 1.0)?;
                }
                if up {
                    constraint(&r.terms, ">=", r.upper, -1.0)?;
                }
            }
        }
    }
    for (j, v) in model.vars.iter().enumerate() {
        if v.lower > 0.0 {
            constraint(&[(VarId(j), 1.0)], ">=", 1.0, 1.0)?;
        }
        if v.upper < 1.0 {
            constraint(&[(VarId(j), 1.0)], ">=", 0.0, -1.0)?;
        }
    }
    let mut s = format!(
        "* #variable= {} #constraint= {count}\n",
        model.vars.len().max(1)
    );
    let objective: Vec<(usize, f64)> = super::minimisation(model)
        .into_iter()
        .enumerate()
        .filter(|(_, c)| *c != 0.0)
        .collect();
    if !objective.is_empty() {
        s.push_str("min:");
        for (j, c) in objective {
            let _ = write!(s, " {:+} {}", whole(c)?, name(VarId(j)));
        }
        s.push_str(" ;\n");
    }
    s.push_str(&body);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::maximising as small;

    #[test]
    fn opb_is_a_minimisation_with_every_side() {
        let text = write(&small()).unwrap();
        assert_eq!(
            text,
            "* #variable= 3 #constraint= 4\n\
             min: -3 x1 -2 x2 ;\n\
             -1 x1 -1 x2 >= -1 ;\n\
             +1 x1 +1 x3 >= 1 ;\n\
             -1 x1 -1 x3 >= -2 ;\n\
             +1 x2 -1 x3 = 0 ;\n"
        );
        let mut m = small();
        m.rows[0].terms[0].1 = 0.5;
        assert!(write(&m).unwrap_err().contains("0.5"));
    }
}
