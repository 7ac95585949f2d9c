//! SCIP's solution file, as the `scip` shell's `write solution FILE` writes it: a line
//! `solution status: STATUS` (SCIPprintStatus: "optimal solution found", "infeasible",
//! "time limit reached", "gap limit reached", "unbounded", "unknown", ...), then what
//! SCIPprintBestSol writes: `objective value: X` and a line `name value (obj:c)` per
//! variable whose value is not zero (every variable with `set write printzeros TRUE`),
//! or `no solution available`. A file of SCIPprintSol alone (PySCIPOpt's `writeSol` and
//! `writeBestSol`) has no status line: it then states no status. The variables it leaves
//! out are 0 ([`super::Reading::values`] lists what the file gives).

use super::{number, ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    let mut status = None;
    let mut values: Option<Vec<(String, f64)>> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let bad = |why: String| ParseError { line: i + 1, why };
        if line.is_empty() || line == "no solution available" {
            continue;
        }
        if let Some(s) = line.strip_prefix("solution status:") {
            let s = s.trim();
            status = Some(said(s).ok_or_else(|| bad(format!("'{s}' is no status SCIP writes")))?);
        } else if let Some(z) = line.strip_prefix("objective value:") {
            number(z.trim(), "the objective value").map_err(bad)?;
            values.get_or_insert_with(Vec::new);
        } else {
            let out = values
                .as_mut()
                .ok_or_else(|| bad(format!("'{line}' comes before 'objective value:'")))?;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() < 2 || words[2..].iter().any(|w| !w.starts_with("(obj:")) {
                return Err(bad(format!("'{line}' is not 'name value (obj:c)'")));
            }
            let value = number(words[1], &format!("variable {}", words[0])).map_err(bad)?;
            out.push((words[0].to_string(), value));
        }
    }
    let values = match status {
        Some(Said::Infeasible | Said::Error(_)) => None,
        _ => values,
    };
    Ok(Reading { status, values })
}

/// What SCIP's status `text` says, `None` for a text it does not write.
fn said(text: &str) -> Option<Said> {
    Some(match text {
        "optimal solution found" => Said::Optimal,
        "infeasible" => Said::Infeasible,
        "time limit reached" => Said::TimeLimit,
        // Stopped within the definition's `mip_gap` (SCIP's limits/gap).
        "gap limit reached" => Said::Feasible,
        "unknown"
        | "user interrupt"
        | "node limit reached"
        | "total node limit reached"
        | "stall node limit reached"
        | "memory limit reached"
        | "primal limit reached"
        | "dual limit reached"
        | "solution limit reached"
        | "best solution limit reached"
        | "restart limit reached"
        | "termination signal received"
        | "unbounded"
        | "infeasible or unbounded" => Said::Error(format!("SCIP's solution file says: {text}")),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(v: &[(&str, f64)]) -> Option<Vec<(String, f64)>> {
        Some(v.iter().map(|&(n, x)| (n.to_string(), x)).collect())
    }

    // The samples are SCIP 10.0.2's: its shell (SCIPrunShell from the libscip of PyPI's
    // PySCIPOpt 6.3.0, called through ctypes as the `scip` program calls it) run as
    // `scip -c "read M.mps [set limits time T] opt write solution S.sol quit"` on free
    // MPS files written by hand as the engine writes them: `knap` (minimise -5 C0 - 4 C1
    // - 3 C2 over binaries, 2 C0 + 3 C1 + C2 <= 4), `infeas` (binaries C0 + C1 >= 3) and
    // `ms2` (a market-split instance: 10 binaries and 4 slack columns in two equality
    // rows) with `set limits time 0.001`.
    const OPTIMAL: &str = "solution status: optimal solution found\nobjective value:                                   -8\nC0                                                  1 \t(obj:-5)\nC2                                                  1 \t(obj:-3)\n";
    const INFEASIBLE: &str = "solution status: infeasible\nno solution available\n";
    const TIME_LIMIT: &str = "solution status: time limit reached\nobjective value:                                   76\nC5                                                  1 \t(obj:0)\nC6                                                  1 \t(obj:0)\nC7                                                  1 \t(obj:0)\nC9                                                  1 \t(obj:0)\nC10                                                24 \t(obj:1)\nC12                                                52 \t(obj:1)\n";

    #[test]
    fn optimal_infeasible_and_time_limit_files() {
        let r = read(OPTIMAL).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(r.values, pairs(&[("C0", 1.0), ("C2", 1.0)]));
        let r = read(INFEASIBLE).unwrap();
        assert_eq!((r.status, r.values), (Some(Said::Infeasible), None));
        let r = read(TIME_LIMIT).unwrap();
        assert_eq!(r.status, Some(Said::TimeLimit));
        let values = r.values.unwrap();
        assert_eq!(values.len(), 6);
        assert_eq!(values[5], ("C12".to_string(), 52.0));
        // `ms6` (50 binaries), `set limits time 0.01 set heuristics emphasis off`.
        let r = read("solution status: time limit reached\nno solution available\n").unwrap();
        assert_eq!((r.status, r.values), (Some(Said::TimeLimit), None));
        assert_eq!(read("").unwrap(), Reading::default());
    }

    #[test]
    fn other_statuses_and_files_without_one() {
        // `knap` with `set limits gap 0.9 set presolving emphasis off`.
        let gap = "solution status: gap limit reached\nobjective value:                                   -8\nC0                                                  1 \t(obj:-5)\n";
        let r = read(gap).unwrap();
        assert_eq!(r.status, Some(Said::Feasible));
        assert_eq!(r.values, pairs(&[("C0", 1.0)]));
        // Minimise -C0 + C1 subject to C0 + C1 >= 1.
        let unbounded = "solution status: unbounded\nobjective value:                                    0\nC0                                             100000 \t(obj:-1)\nC1                                             100000 \t(obj:1)\n";
        let r = read(unbounded).unwrap();
        assert!(matches!(r.status, Some(Said::Error(ref why)) if why.contains("unbounded")));
        assert_eq!(r.values, None);
        // `knap` with `set write printzeros TRUE`.
        let zeros = "solution status: optimal solution found\nobjective value:                                   -8\nC1                                                  0 \t(obj:-4)\nC0                                                  1 \t(obj:-5)\nC2                                                  1 \t(obj:-3)\n";
        assert_eq!(
            read(zeros).unwrap().values,
            pairs(&[("C1", 0.0), ("C0", 1.0), ("C2", 1.0)])
        );
        // PySCIPOpt 6.3.0's `writeBestSol` after `optimize` on `knap`, then on `infeas`.
        let r = read(&OPTIMAL.replace("solution status: optimal solution found\n", "")).unwrap();
        assert_eq!(r.status, None);
        assert_eq!(r.values, pairs(&[("C0", 1.0), ("C2", 1.0)]));
        assert_eq!(read("no solution available\n").unwrap(), Reading::default());
    }

    #[test]
    fn a_bad_line_is_an_error_with_its_number() {
        let e = read(&OPTIMAL.replace(" 1 \t(obj:-3)", " one \t(obj:-3)")).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.why.contains("C2") && e.why.contains("one"), "{}", e.why);
        assert_eq!(read("solution status: solved\n").unwrap_err().line, 1);
        let e = read(&OPTIMAL.replace("-8", "minus eight")).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(read("C0 1 \t(obj:-5)\n").unwrap_err().line, 1);
        let e = read(&format!("{OPTIMAL}C1\n")).unwrap_err();
        assert_eq!(e.line, 5);
        let e = read(&format!("{OPTIMAL}C1 0 extra\n")).unwrap_err();
        assert_eq!(e.line, 5);
    }
}
