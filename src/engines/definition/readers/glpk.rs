//! glpsol's plain solution file (`-w FILE`): `c` comment lines, a status line `s mip
//! ROWS COLS STATUS OBJ` (integer programs: `o` optimal, `f` feasible, `n` no
//! solution, `u` undefined) or `s bas ROWS COLS PRIM DUAL OBJ` (LPs: `f f` optimal,
//! `n` infeasible), `i` lines for rows and `j` lines for columns (`j COL VALUE` for a
//! MIP, `j COL STAT PRIM DUAL` for an LP), `e o f` at the end. Columns are numbered
//! from 1: column `j` is the model file's `C{j-1}`.

use super::{number, ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    let mut status = None;
    let mut integer = true;
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = |why: String| ParseError { line: i + 1, why };
        match f.first().copied() {
            Some("s") => {
                integer = f.get(1) == Some(&"mip");
                status = Some(match (integer, f.get(4).copied(), f.get(5).copied()) {
                    (true, Some("o"), _) => Said::Optimal,
                    (true, Some("f"), _) => Said::Feasible,
                    (true, Some("n"), _) | (false, Some("n"), _) => Said::Infeasible,
                    (false, Some("f"), Some("f")) => Said::Optimal,
                    // No dual feasible solution beside a primal one: the LP is unbounded.
                    (false, Some("f"), Some("n")) => {
                        Said::Error("the LP is unbounded (no dual feasible solution)".into())
                    }
                    (false, _, Some("n")) => Said::Error(
                        "the LP has no dual feasible solution (infeasible or unbounded)".into(),
                    ),
                    (true, Some("u"), _) => Said::TimeLimit,
                    _ => {
                        return Err(bad(format!(
                            "'{}' is no status line glpsol writes",
                            line.trim()
                        )))
                    }
                });
            }
            Some("j") => {
                let j: usize = f
                    .get(1)
                    .and_then(|j| j.parse().ok())
                    .filter(|&j| j > 0)
                    .ok_or_else(|| bad(format!("'{}' names no column", line.trim())))?;
                let word = if integer { f.get(2) } else { f.get(3) };
                let word = word.ok_or_else(|| bad(format!("column {j} without a value")))?;
                let value = number(word, &format!("column {j}")).map_err(bad)?;
                values.push((format!("C{}", j - 1), value));
            }
            _ => {}
        }
    }
    let values = match status {
        Some(Said::Optimal) | Some(Said::Feasible) => Some(values),
        _ => None,
    };
    Ok(Reading { status, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_and_lp_files() {
        let mip = "c Problem:\ns mip 2 3 o 2\ni 1 1\nj 1 0\nj 2 1\nj 3 0\ne o f\n";
        let r = read(mip).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(r.values.unwrap()[1], ("C1".to_string(), 1.0));
        let lp = "s bas 1 2 f f 1.5\nj 1 b 0.5 0\nj 2 b 1 0\n";
        let r = read(lp).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(r.values.unwrap()[0], ("C0".to_string(), 0.5));
        assert_eq!(
            read("s mip 1 1 n 0\n").unwrap().status,
            Some(Said::Infeasible)
        );
        assert_eq!(read("s mip 2 3 o 2\nj x 1\n").unwrap_err().line, 2);
        assert!(matches!(
            read("s bas 1 2 f n 0\n").unwrap().status,
            Some(Said::Error(why)) if why.contains("unbounded")
        ));
    }
}
