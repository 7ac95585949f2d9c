//! MiniSat's result file (`minisat IN OUT`): `SAT` and a line of DIMACS literals ending
//! in `0`, `UNSAT`, or `INDET` (stopped by a limit). Variable k is named `k`.

use super::{dimacs_literals, ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Ok(Reading::default());
    };
    let status = match first.trim() {
        "SAT" => Said::Feasible,
        "UNSAT" => Said::Infeasible,
        "INDET" => Said::TimeLimit,
        other => {
            return Err(ParseError {
                line: 1,
                why: format!("'{other}' is none of SAT, UNSAT and INDET"),
            })
        }
    };
    let mut values = Vec::new();
    for (i, line) in lines {
        dimacs_literals(line.split_whitespace(), &mut values)
            .map_err(|why| ParseError { line: i + 1, why })?;
    }
    let values = (status == Said::Feasible).then_some(values);
    Ok(Reading {
        status: Some(status),
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_answers() {
        let r = read("SAT\n1 -2 3 0\n").unwrap();
        assert_eq!(r.status, Some(Said::Feasible));
        assert_eq!(r.values.unwrap()[1], ("2".to_string(), 0.0));
        assert_eq!(read("UNSAT\n").unwrap().status, Some(Said::Infeasible));
        assert_eq!(read("INDET\n").unwrap().status, Some(Said::TimeLimit));
        assert_eq!(read("SAT\n1 two 0\n").unwrap_err().line, 2);
        assert_eq!(read("MAYBE\n").unwrap_err().line, 1);
    }
}
