//! `name value` answers: a line per column, its name and its value, as Gurobi's `.sol`
//! files, the MIPLIB solution checker and many solvers' `-S` listings write. Lines whose
//! first word is no column of the model (comments, headers, rows, `=obj=`) are passed
//! over, so the reader also takes a listing on standard output (lp_solve's `-S3`); a
//! line that names a column must give it a number. It states no status: a definition
//! that reads it says its statuses by log patterns or exit codes.

use super::{number, ParseError, Reading};

/// Reads `text`.
pub fn read(text: &str, is_column: &dyn Fn(&str) -> bool) -> Result<Reading, ParseError> {
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { continue };
        if name.starts_with('#') || !is_column(name) {
            continue;
        }
        let value = words
            .next()
            .ok_or_else(|| format!("column {name} without a value"))
            .and_then(|w| number(w, &format!("column {name}")))
            .map_err(|why| ParseError { line: i + 1, why })?;
        values.push((name.to_string(), value));
    }
    Ok(Reading {
        status: None,
        values: (!values.is_empty()).then_some(values),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(n: &str) -> bool {
        n.starts_with('C') && n[1..].parse::<usize>().is_ok()
    }

    #[test]
    fn columns_are_read_and_other_lines_passed_over() {
        let sol = "# Objective value = 2\nC0 0\nC1 1.0000000001\n\nValue of objective function: 2\nR0 1\n";
        let r = read(sol, &col).unwrap();
        assert_eq!(r.status, None);
        assert_eq!(
            r.values.unwrap(),
            vec![("C0".to_string(), 0.0), ("C1".to_string(), 1.0000000001)]
        );
        assert_eq!(read("nothing here\n", &col).unwrap().values, None);
    }

    #[test]
    fn a_column_without_a_number_is_an_error_with_its_line() {
        let e = read("C0 1\nC1 one\n", &col).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.why.contains("C1") && e.why.contains("one"), "{}", e.why);
        assert_eq!(read("C0\n", &col).unwrap_err().line, 1);
    }
}
