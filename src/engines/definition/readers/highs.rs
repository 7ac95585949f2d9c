//! HiGHS's solution file (`highs --solution_file FILE`) in its raw style, the default
//! `write_solution_style = 0`: `Model status` and on the next line the model status as
//! HiGHS's `modelStatusToString` spells it ("Optimal", "Infeasible", "Time limit
//! reached", "Unbounded", ...), then `# Primal solution values` and the primal solution
//! status (`Feasible`, `Infeasible`, or `None`: no values), `Objective VALUE`,
//! `# Columns N` and N lines `name value`, then `# Rows N`, the dual values and the
//! basis, which are passed over. The sparse style (`write_solution_style = 4`) is read
//! too: `# Columns -N` and N lines `name value index`, the nonzero columns only.

use super::{number, ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    let last = text.lines().count().max(1);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((n, first)) = lines.next() else {
        return Ok(Reading::default());
    };
    if first != "Model status" {
        return Err(ParseError {
            line: n,
            why: format!("'{first}' is not 'Model status': no raw HiGHS solution file"),
        });
    }
    let ends_before = |what: &str| ParseError {
        line: last,
        why: format!("the file ends before {what}"),
    };
    let (n, text_status) = lines
        .next()
        .ok_or_else(|| ends_before("the model status"))?;
    let status = said(text_status).ok_or_else(|| ParseError {
        line: n,
        why: format!("'{text_status}' is no model status HiGHS writes"),
    })?;
    if text_status == "Empty" {
        // A model without columns: its only solution has no value to give.
        return Ok(Reading {
            status: Some(status),
            values: Some(Vec::new()),
        });
    }
    lines
        .find(|(_, l)| *l == "# Primal solution values")
        .ok_or_else(|| ends_before("'# Primal solution values'"))?;
    let (n, primal) = lines
        .next()
        .ok_or_else(|| ends_before("the primal solution status"))?;
    let feasible = match primal {
        "Feasible" => true,
        "Infeasible" => false,
        "None" => {
            return Ok(Reading {
                status: Some(status),
                values: None,
            })
        }
        _ => {
            return Err(ParseError {
                line: n,
                why: format!(
                    "'{primal}' is no primal solution status (Feasible, Infeasible, None)"
                ),
            })
        }
    };
    let (header, count) = loop {
        let (n, line) = lines.next().ok_or_else(|| ends_before("'# Columns'"))?;
        if line.starts_with("Objective") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["#", "Columns", count] => match count.parse::<i64>() {
                Ok(count) => break (n, count.unsigned_abs()),
                Err(_) => {
                    return Err(ParseError {
                        line: n,
                        why: format!("'{count}' is no number of columns"),
                    })
                }
            },
            _ => {
                return Err(ParseError {
                    line: n,
                    why: format!("'{line}' is not '# Columns N'"),
                })
            }
        }
    };
    let mut values = Vec::new();
    while (values.len() as u64) < count {
        let Some((n, line)) = lines.next().filter(|(_, l)| !l.starts_with('#')) else {
            return Err(ParseError {
                line: header,
                why: format!(
                    "{count} columns, but the file gives {} before it ends or goes on",
                    values.len()
                ),
            });
        };
        let bad = |why: String| ParseError { line: n, why };
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or_default();
        let value = words
            .next()
            .ok_or_else(|| bad(format!("column {name} without a value")))?;
        values.push((
            name.to_string(),
            number(value, &format!("column {name}")).map_err(bad)?,
        ));
    }
    let values = match status {
        Said::Infeasible | Said::Error(_) => None,
        _ => feasible.then_some(values),
    };
    Ok(Reading {
        status: Some(status),
        values,
    })
}

/// What HiGHS's model status `text` says, `None` for a text it does not write.
fn said(text: &str) -> Option<Said> {
    Some(match text {
        "Optimal" | "Empty" => Said::Optimal,
        "Infeasible" => Said::Infeasible,
        "Time limit reached" => Said::TimeLimit,
        "Not Set"
        | "Load error"
        | "Model error"
        | "Presolve error"
        | "Solve error"
        | "Postsolve error"
        | "Primal infeasible or unbounded"
        | "Unbounded"
        | "Bound on objective reached"
        | "Target for objective reached"
        | "Iteration limit reached"
        | "Unknown"
        | "Solution limit reached"
        | "Interrupted by user"
        | "Memory limit reached"
        | "Interrupted by HiGHS" => Said::Error(format!("HiGHS's solution file says: {text}")),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(v: &[(&str, f64)]) -> Option<Vec<(String, f64)>> {
        Some(v.iter().map(|&(n, x)| (n.to_string(), x)).collect())
    }

    // The samples are HiGHS 1.15.1's (the `highs` program of PyPI's highsbox 1.15.1):
    // `highs --model_file M.mps --solution_file S.sol` on free MPS files written by hand
    // as the engine writes them: `knap` (minimise -5 C0 - 4 C1 - 3 C2 over binaries,
    // 2 C0 + 3 C1 + C2 <= 4), `infeas` (binaries C0 + C1 >= 3) and `ms2` (a market-split
    // instance: 10 binaries and 4 slack columns in two equality rows), the last with
    // `--time_limit 0.005`.
    const OPTIMAL: &str = "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective -8\n# Columns 3\nC0 1\nC1 0\nC2 1\n# Rows 1\nR0 3\n\n# Dual solution values\nNone\n\n# Basis\nHiGHS_basis_file v2\nNone\n";
    const INFEASIBLE: &str = "Model status\nInfeasible\n\n# Primal solution values\nNone\n\n# Dual solution values\nNone\n\n# Basis\nHiGHS_basis_file v2\nNone\n";
    const TIME_LIMIT: &str = "Model status\nTime limit reached\n\n# Primal solution values\nFeasible\nObjective 8\n# Columns 14\nC0 1\nC1 0\nC2 1\nC3 1\nC4 0\nC5 1\nC6 1\nC7 0\nC8 1\nC9 0\nC10 2\nC11 0\nC12 6\nC13 0\n# Rows 2\nR0 259\nR1 256\n\n# Dual solution values\nNone\n\n# Basis\nHiGHS_basis_file v2\nNone\n";

    #[test]
    fn optimal_infeasible_and_time_limit_files() {
        let r = read(OPTIMAL).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(r.values, pairs(&[("C0", 1.0), ("C1", 0.0), ("C2", 1.0)]));
        let r = read(INFEASIBLE).unwrap();
        assert_eq!((r.status, r.values), (Some(Said::Infeasible), None));
        let r = read(TIME_LIMIT).unwrap();
        assert_eq!(r.status, Some(Said::TimeLimit));
        let values = r.values.unwrap();
        assert_eq!(values.len(), 14);
        assert_eq!(values[12], ("C12".to_string(), 6.0));
        // `ms6` (50 binaries) with `--time_limit 0`: stopped before any solution.
        let none = "Model status\nTime limit reached\n\n# Primal solution values\nNone\n\n# Dual solution values\nNone\n\n# Basis\nHiGHS_basis_file v2\nNone\n";
        let r = read(none).unwrap();
        assert_eq!((r.status, r.values), (Some(Said::TimeLimit), None));
        assert_eq!(read("").unwrap(), Reading::default());
    }

    #[test]
    fn an_lp_an_unbounded_model_and_the_sparse_style() {
        // `knap` without its integer markers: the dual section has columns too.
        let lp = "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective -9.3333333333333\n# Columns 3\nC0 1\nC1 0.3333333333333\nC2 1\n# Rows 1\nR0 4\n\n# Dual solution values\nFeasible\n# Columns 3\nC0 -2.3333333333333\nC1 0\nC2 -1.6666666666667\n# Rows 1\nR0 -1.3333333333333\n\n# Basis\nHiGHS_basis_file v2\nValid\n# Columns 3\nC0 2\nC1 1\nC2 2\n# Rows 1\nR0 2\n";
        let r = read(lp).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(
            r.values,
            pairs(&[("C0", 1.0), ("C1", 0.3333333333333), ("C2", 1.0)])
        );
        // Minimise -C0 + C1 subject to C0 + C1 >= 1.
        let unbounded = "Model status\nUnbounded\n\n# Primal solution values\nFeasible\nObjective -1\n# Columns 2\nC0 1\nC1 0\n# Rows 1\nR0 1\n\n# Dual solution values\nInfeasible\n# Columns 2\nC0 0\nC1 2\n# Rows 1\nR0 -1\n";
        let r = read(unbounded).unwrap();
        assert!(matches!(r.status, Some(Said::Error(ref why)) if why.contains("Unbounded")));
        assert_eq!(r.values, None);
        // `knap` with an options file `write_solution_style = 4`.
        let sparse = "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective -8\n# Columns -2\nC0 1 0\nC2 1 2\n";
        let r = read(sparse).unwrap();
        assert_eq!(r.values, pairs(&[("C0", 1.0), ("C2", 1.0)]));
        // A model without columns.
        let empty = "Model status\nEmpty\n\n# Primal solution values\nNone\n";
        let r = read(empty).unwrap();
        assert_eq!(
            (r.status, r.values),
            (Some(Said::Optimal), Some(Vec::new()))
        );
    }

    #[test]
    fn a_bad_or_truncated_file_is_an_error_with_its_line() {
        let e = read(&OPTIMAL.replace("C1 0\n", "C1 zero\n")).unwrap_err();
        assert_eq!(e.line, 9);
        assert!(e.why.contains("C1") && e.why.contains("zero"), "{}", e.why);
        let cut = &OPTIMAL[..OPTIMAL.find("C1 0").unwrap()];
        let e = read(cut).unwrap_err();
        assert_eq!(e.line, 7, "{}", e.why);
        assert!(e.why.contains("gives 1"), "{}", e.why);
        let e = read(&OPTIMAL.replace("C2 1\n", "")).unwrap_err();
        assert_eq!(e.line, 7, "{}", e.why);
        assert_eq!(read("Model status\nSolved\n").unwrap_err().line, 2);
        assert_eq!(read("Optimal\n").unwrap_err().line, 1);
        assert_eq!(read("Model status\nOptimal\n").unwrap_err().line, 2);
        let e = read("Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective -8\n# Columns three\n").unwrap_err();
        assert_eq!(e.line, 7);
    }
}
