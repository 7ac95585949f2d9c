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

/// A pseudo-Boolean model as its OPB file states it: whole coefficients over 0/1
/// columns `x1`, `x2`, ... (index j is `x{j+1}`), each constraint `>=` or `=`, the
/// objective a minimisation. The checker of a certificate numbers the constraints 1, 2,
/// ... in this order, an `=` taking two numbers (its `>=` half first).
#[derive(Clone, Debug, PartialEq)]
pub struct PbModel {
    /// Columns.
    pub columns: usize,
    /// The objective to minimise: (column, coefficient), none for a constant one.
    pub objective: Vec<(usize, i64)>,
    /// The constraints, in the file's order.
    pub constraints: Vec<PbConstraint>,
}

/// One OPB constraint: `terms >= rhs`, or `terms = rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct PbConstraint {
    /// (column, coefficient) pairs, none zero.
    pub terms: Vec<(usize, i64)>,
    /// `=` rather than `>=`.
    pub equal: bool,
    /// The right-hand side.
    pub rhs: i64,
}

impl PbModel {
    /// `model` (0/1 columns, whole coefficients) as a minimisation: each row as `>=` (an
    /// upper side negated) or `=`, bounds that fix a column as constraints of their own.
    /// The error says why the model cannot be written.
    pub fn of(model: &Model) -> Result<PbModel, String> {
        let mut pb = PbModel {
            columns: model.vars.len(),
            objective: Vec::new(),
            constraints: Vec::new(),
        };
        for r in &model.rows {
            pb.add_row(&r.terms, r.lower, r.upper)?;
        }
        for (j, v) in model.vars.iter().enumerate() {
            if v.lower > 0.0 {
                pb.add_row(&[(VarId(j), 1.0)], 1.0, f64::INFINITY)?;
            }
            if v.upper < 1.0 {
                pb.add_row(&[(VarId(j), 1.0)], f64::NEG_INFINITY, 0.0)?;
            }
        }
        for (j, c) in super::minimisation(model).into_iter().enumerate() {
            if c != 0.0 {
                pb.objective.push((j, whole(c)?));
            }
        }
        Ok(pb)
    }

    /// Adds the row `lower ≤ Σ terms ≤ upper` as OPB constraints: `=` where both sides
    /// are one number, else `>=` its lower side and `>=` its upper side negated.
    pub fn add_row(
        &mut self,
        terms: &[(VarId, f64)],
        lower: f64,
        upper: f64,
    ) -> Result<(), String> {
        let mut push = |equal: bool, rhs: f64, sign: f64| {
            let mut out = Vec::new();
            for &(v, a) in terms {
                let a = whole(sign * a)?;
                if a != 0 {
                    out.push((v.0, a));
                }
            }
            if out.is_empty() {
                // No term: 0 op rhs, kept true to its truth with a column and its negation.
                out = vec![(0, 1), (0, -1)];
            }
            self.constraints.push(PbConstraint {
                terms: out,
                equal,
                rhs: whole(sign * rhs)?,
            });
            Ok::<(), String>(())
        };
        match (lower.is_finite(), upper.is_finite()) {
            (true, true) if lower == upper => push(true, lower, 1.0),
            (lo, up) => {
                if lo {
                    push(false, lower, 1.0)?;
                }
                if up {
                    push(false, upper, -1.0)?;
                }
                Ok(())
            }
        }
    }

    /// The OPB file, with its objective or without.
    pub fn to_opb(&self, with_objective: bool) -> String {
        let mut s = format!(
            "* #variable= {} #constraint= {}\n",
            self.columns.max(1),
            self.constraints.len()
        );
        if with_objective && !self.objective.is_empty() {
            s.push_str("min:");
            for &(j, c) in &self.objective {
                let _ = write!(s, " {c:+} x{}", j + 1);
            }
            s.push_str(" ;\n");
        }
        for c in &self.constraints {
            for &(j, a) in &c.terms {
                let _ = write!(s, "{a:+} x{} ", j + 1);
            }
            let op = if c.equal { "=" } else { ">=" };
            let _ = writeln!(s, "{op} {} ;", c.rhs);
        }
        s
    }

    /// The objective's value at the 0/1 point `x`.
    pub fn objective_at(&self, x: &[bool]) -> i64 {
        self.objective
            .iter()
            .filter(|&&(j, _)| x[j])
            .map(|&(_, c)| c)
            .sum()
    }
}

/// OPB of `model` (0/1 columns, whole coefficients) as a minimisation ([`PbModel::of`]):
/// `min:` for a non-constant objective, each row as `>=` (an upper side negated) or `=`,
/// bounds that fix a column as rows of their own. The error says why the model cannot
/// be written.
pub fn write(model: &Model) -> Result<String, String> {
    Ok(PbModel::of(model)?.to_opb(true))
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
