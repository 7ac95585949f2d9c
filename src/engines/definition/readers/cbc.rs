//! CBC's solution file (`solution FILE` after `solve`): a first line with the status
//! ("Optimal - objective value 2.00000000", "Infeasible - ...", "Stopped on time -
//! ...", "Integer infeasible - ...", "Unbounded - ..."), then a line per column (those
//! with a nonzero value or reduced cost): its index, name, value and reduced cost, with
//! `**` in front of a value outside its bounds. CBC writes no file when it stops before
//! a solve (a model it cannot read): the definition's log patterns say why.

use super::{number, ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Ok(Reading::default());
    };
    let head = first.trim();
    let status = if head.starts_with("Optimal") {
        Said::Optimal
    } else if head.starts_with("Infeasible") || head.starts_with("Integer infeasible") {
        Said::Infeasible
    } else if head.starts_with("Stopped on time") {
        Said::TimeLimit
    } else if head.starts_with("Unbounded") || head.starts_with("Stopped on") {
        Said::Error(format!("CBC's solution file says: {head}"))
    } else {
        return Err(ParseError {
            line: 1,
            why: format!("'{head}' is no status CBC writes"),
        });
    };
    let mut values = Vec::new();
    for (i, line) in lines {
        let words: Vec<&str> = line
            .trim_start_matches([' ', '*'])
            .split_whitespace()
            .collect();
        let row = |why: String| ParseError { line: i + 1, why };
        if words.len() < 3 {
            return Err(row(format!(
                "'{}' is not 'index name value reduced-cost'",
                line.trim()
            )));
        }
        words[0]
            .parse::<usize>()
            .map_err(|_| row(format!("'{}' is no column index", words[0])))?;
        let value = number(words[2], &format!("column {}", words[1])).map_err(row)?;
        values.push((words[1].to_string(), value));
    }
    let values = match status {
        Said::Infeasible | Said::Error(_) => None,
        _ => Some(values),
    };
    Ok(Reading {
        status: Some(status),
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_values() {
        let sol = "Optimal - objective value 2.00000000\n      0 C0      0      1\n      1 C1      1      2\n";
        let r = read(sol).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(
            r.values.unwrap(),
            vec![("C0".to_string(), 0.0), ("C1".to_string(), 1.0)]
        );
        let t = read("Stopped on time - objective value 79\n**   3 C3  1.5  0\n").unwrap();
        assert_eq!(t.status, Some(Said::TimeLimit));
        assert_eq!(t.values.unwrap(), vec![("C3".to_string(), 1.5)]);
        let i = read("Infeasible - objective value 0\n 0 C0 1 0\n").unwrap();
        assert_eq!((i.status, i.values), (Some(Said::Infeasible), None));
        assert_eq!(read("").unwrap(), Reading::default());
    }

    #[test]
    fn a_bad_line_is_an_error_with_its_number() {
        assert_eq!(read("Solved somehow\n").unwrap_err().line, 1);
        let e = read("Optimal - objective value 1\n 0 C0 1 0\n 1 C1 x 0\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.why.contains("C1"), "{}", e.why);
    }
}
