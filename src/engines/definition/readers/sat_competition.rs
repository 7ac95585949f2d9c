//! The SAT competition's output on standard output: `c` comments, one status line (`s
//! SATISFIABLE`, `s UNSATISFIABLE`, `s UNKNOWN`) and, when satisfiable, `v` lines of
//! DIMACS literals ending in `0` (CaDiCaL, Kissat, clasp, glucose, ...). Variable k is
//! named `k`: column k − 1 of the model.

use super::{dimacs_literals, ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    let mut status = None;
    let mut values = Vec::new();
    let mut closed = false;
    for (i, line) in text.lines().enumerate() {
        let bad = |why: String| ParseError { line: i + 1, why };
        if let Some(s) = line.strip_prefix("s ") {
            status = match s.trim() {
                "SATISFIABLE" => Some(Said::Feasible),
                "UNSATISFIABLE" => Some(Said::Infeasible),
                "UNKNOWN" => None,
                other => return Err(bad(format!("'{other}' is no SAT competition status"))),
            };
        } else if let Some(v) = line.strip_prefix('v') {
            closed |= dimacs_literals(v.split_whitespace(), &mut values).map_err(bad)?;
        }
    }
    let values =
        (status == Some(Said::Feasible) && (closed || !values.is_empty())).then_some(values);
    Ok(Reading { status, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_literals() {
        let out = "c CaDiCaL\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        let r = read(out).unwrap();
        assert_eq!(r.status, Some(Said::Feasible));
        let v = r.values.unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[1], ("2".to_string(), 0.0));
        assert_eq!(
            read("s UNSATISFIABLE\n").unwrap().status,
            Some(Said::Infeasible)
        );
        assert_eq!(
            read("c interrupted\ns UNKNOWN\n").unwrap(),
            Reading::default()
        );
        let e = read("s SATISFIABLE\nv 1 x2 0\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.why.contains("x2"));
    }
}
