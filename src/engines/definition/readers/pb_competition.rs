//! The PB competition's output on standard output (clasp, Sat4j, RoundingSat, ...): `c`
//! comments, `o COST` for each better solution, one status line (`s OPTIMUM FOUND`, `s
//! SATISFIABLE`, `s UNSATISFIABLE`, `s UNKNOWN`, `s UNSUPPORTED`) and `v` lines of the
//! variables of the last solution, `x3` true and `-x3` false. A solver stopped by its
//! limit with a solution says `s SATISFIABLE`.

use super::{ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    let mut status = None;
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |why: String| ParseError { line: i + 1, why };
        if let Some(s) = line.strip_prefix("s ") {
            status = match s.trim() {
                "OPTIMUM FOUND" => Some(Said::Optimal),
                "SATISFIABLE" => Some(Said::Feasible),
                "UNSATISFIABLE" => Some(Said::Infeasible),
                "UNKNOWN" => None,
                "UNSUPPORTED" => Some(Said::Error("the solver says UNSUPPORTED".into())),
                other => return Err(bad(format!("'{other}' is no PB competition status"))),
            };
        } else if let Some(v) = line.strip_prefix('v') {
            for w in v.split_whitespace() {
                let (name, value) = match w.strip_prefix('-') {
                    Some(n) => (n, 0.0),
                    None => (w, 1.0),
                };
                let ok = name.len() > 1
                    && name.starts_with('x')
                    && name[1..].chars().all(|c| c.is_ascii_digit());
                if !ok {
                    return Err(bad(format!("'{w}' is no PB literal (x3 or -x3)")));
                }
                values.push((name.to_string(), value));
            }
        }
    }
    let solved = matches!(status, Some(Said::Optimal) | Some(Said::Feasible));
    let values = (solved && !values.is_empty()).then_some(values);
    Ok(Reading { status, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_literals() {
        let out = "c clasp\no 4\no 2\nv -x1 x2\nv -x3\ns OPTIMUM FOUND\n";
        let r = read(out).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(
            r.values.unwrap(),
            vec![
                ("x1".to_string(), 0.0),
                ("x2".to_string(), 1.0),
                ("x3".to_string(), 0.0)
            ]
        );
        assert_eq!(
            read("s UNSATISFIABLE\n").unwrap().status,
            Some(Said::Infeasible)
        );
        let e = read("s SATISFIABLE\nv x1 y2\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.why.contains("y2"));
    }
}
