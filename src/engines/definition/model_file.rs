//! The model as the file a defined engine's program reads ([`Input`]): free MPS, CPLEX LP,
//! OPB (pseudo-Boolean) or DIMACS CNF, always as a minimisation (a maximising model's
//! objective is negated; the objective of an answer is costed from its values on the
//! model itself, so nothing is lost), with its columns named by position so that an
//! answer maps back by name: `C0`, `C1`, ... in MPS and LP, `x1`, `x2`, ... in OPB (the
//! PB competition's names), DIMACS variable j + 1 for column j in CNF.

use crate::model::{Model, Name, Sense, VarId};
use std::fmt::Write as _;

/// The format of the file a definition's program reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Free MPS (columns `C0`, rows `R0`, no `OBJSENSE`, no objective constant).
    Mps,
    /// CPLEX LP (columns `C0`, rows `R0`, `Minimize`).
    Lp,
    /// OPB, the PB competition's pseudo-Boolean format (columns `x1`, ...): 0/1 models
    /// with whole coefficients.
    Opb,
    /// DIMACS CNF through the project's clause encoding ([`crate::engines::cnf`]): 0/1
    /// models with whole coefficients; an objective by solution-improving calls.
    Cnf,
    /// A driver program: the model goes over as free MPS by the driver protocol
    /// (docs/driver-protocol.md), and the driver answers in it.
    Driver,
}

impl Input {
    /// The keys a definition's `input` takes.
    pub const KEYS: &'static [&'static str] = &["mps", "lp", "opb", "cnf", "driver"];

    /// The input of key `key`.
    pub fn from_key(key: &str) -> Option<Input> {
        match key {
            "mps" => Some(Input::Mps),
            "lp" => Some(Input::Lp),
            "opb" => Some(Input::Opb),
            "cnf" => Some(Input::Cnf),
            "driver" => Some(Input::Driver),
            _ => None,
        }
    }

    /// Its key.
    pub fn key(self) -> &'static str {
        match self {
            Input::Mps => "mps",
            Input::Lp => "lp",
            Input::Opb => "opb",
            Input::Cnf => "cnf",
            Input::Driver => "driver",
        }
    }

    /// The suffix of the model file (some programs tell formats by it).
    pub fn suffix(self) -> &'static str {
        match self {
            Input::Mps | Input::Driver => ".mps",
            Input::Lp => ".lp",
            Input::Opb => ".opb",
            Input::Cnf => ".cnf",
        }
    }

    /// True for the formats of 0/1 models with whole coefficients (OPB, CNF).
    pub fn binary_only(self) -> bool {
        matches!(self, Input::Opb | Input::Cnf)
    }

    /// The name of column `j` in files of this format (DIMACS: its variable number).
    pub fn column_name(self, j: usize) -> String {
        match self {
            Input::Mps | Input::Lp | Input::Driver => format!("C{j}"),
            Input::Opb => format!("x{}", j + 1),
            Input::Cnf => format!("{}", j + 1),
        }
    }
}

/// `model` as a minimisation: the objective negated when it maximises (the constant is
/// left out: an answer is costed on the model itself).
fn minimisation(model: &Model) -> Vec<f64> {
    let sign = if model.sense == Sense::Maximize {
        -1.0
    } else {
        1.0
    };
    model.vars.iter().map(|v| sign * v.objective).collect()
}

/// Free MPS of `model` as a minimisation, columns and rows named by position, its `NAME`
/// line ending in `FREE`: CBC's reader (CoinMpsIO) guesses fixed columns otherwise, and
/// misreads short lines such as `    C0 R0 1`.
pub fn mps(model: &Model) -> String {
    let mut m = model.clone();
    for (v, c) in m.vars.iter_mut().zip(minimisation(model)) {
        v.objective = c;
    }
    m.sense = Sense::Minimize;
    m.objective_offset = 0.0;
    let text = m.to_mps_plain();
    match text.split_once('\n') {
        Some((name, rest)) => format!("{name} FREE\n{rest}"),
        None => text,
    }
}

/// CPLEX LP of `model` as a minimisation, columns `C0`, ... and rows `R0`, ...
pub fn lp(model: &Model) -> String {
    let mut m = model.clone();
    for (j, (v, c)) in m.vars.iter_mut().zip(minimisation(model)).enumerate() {
        v.objective = c;
        v.name = Name::Text(format!("C{j}"));
    }
    for (i, r) in m.rows.iter_mut().enumerate() {
        r.name = Name::Text(format!("R{i}"));
    }
    m.sense = Sense::Minimize;
    m.objective_offset = 0.0;
    m.to_lp()
}

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
pub fn opb(model: &Model) -> Result<String, String> {
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
    let objective: Vec<(usize, f64)> = minimisation(model)
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

/// DIMACS CNF text of `clauses` over `variables` variables.
pub fn dimacs(clauses: &rustsat::instances::Cnf, variables: u32) -> String {
    let mut s = format!("p cnf {} {}\n", variables.max(1), clauses.len());
    for c in clauses.iter() {
        for l in c.iter() {
            let _ = write!(s, "{} ", l.to_ipasir());
        }
        s.push_str("0\n");
    }
    s
}

/// The objective of `model` as a minimisation over its columns, the terms with a
/// nonzero coefficient (for the objective bound of the CNF calls).
pub fn minimised_objective(model: &Model) -> Vec<(VarId, f64)> {
    minimisation(model)
        .into_iter()
        .enumerate()
        .filter(|(_, c)| *c != 0.0)
        .map(|(j, c)| (VarId(j), c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::VarKind;

    /// max 3a + 2b s.t. a + b <= 1, 1 <= a + c <= 2, b = c.
    fn small() -> Model {
        let mut m = Model::new("small");
        m.sense = Sense::Maximize;
        let a = m.add_var("a", VarKind::Binary, 0.0, 1.0, 3.0);
        let b = m.add_var("b", VarKind::Binary, 0.0, 1.0, 2.0);
        let c = m.add_var("c", VarKind::Binary, 0.0, 1.0, 0.0);
        m.add_le("r", [(a, 1.0), (b, 1.0)], 1.0);
        m.add_row("s", [(a, 1.0), (c, 1.0)], 1.0, 2.0);
        m.add_row("t", [(b, 1.0), (c, -1.0)], 0.0, 0.0);
        m
    }

    #[test]
    fn opb_is_a_minimisation_with_every_side() {
        let text = opb(&small()).unwrap();
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
        assert!(opb(&m).unwrap_err().contains("0.5"));
    }

    #[test]
    fn mps_and_lp_minimise_with_positional_names() {
        let m = small();
        let mps = mps(&m);
        assert!(
            mps.contains("C0 OBJ -3") && !mps.contains("OBJSENSE"),
            "{mps}"
        );
        let lp = lp(&m);
        assert!(
            lp.starts_with("\\ Problem: small\nMinimize\n obj: - 3 C0 - 2 C1"),
            "{lp}"
        );
        assert!(lp.contains(" R1: C0 + C2 >= 1"), "{lp}");
    }

    #[test]
    fn dimacs_counts_its_clauses() {
        use rustsat::types::{Clause, Lit};
        let mut cnf = rustsat::instances::Cnf::new();
        cnf.add_clause(Clause::from([Lit::positive(0), Lit::negative(1)]));
        cnf.add_clause(Clause::from([Lit::positive(1)]));
        assert_eq!(dimacs(&cnf, 2), "p cnf 2 2\n1 -2 0\n2 0\n");
    }
}
