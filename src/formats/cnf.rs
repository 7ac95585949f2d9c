//! DIMACS CNF, the SAT competition's format: the writer (clauses from the project's
//! encoding, [`crate::engines::cnf`]; DIMACS variable j + 1 is column j). Answers come
//! back in the SAT competition's output format (the definitions' readers).

use std::fmt::Write as _;

/// DIMACS CNF text of `clauses` over `variables` variables.
pub fn write(clauses: &rustsat::instances::Cnf, variables: u32) -> String {
    let mut s = format!("p cnf {} {}\n", variables.max(1), clauses.len());
    for c in clauses.iter() {
        for l in c.iter() {
            let _ = write!(s, "{} ", l.to_ipasir());
        }
        s.push_str("0\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_counts_its_clauses() {
        use rustsat::types::{Clause, Lit};
        let mut cnf = rustsat::instances::Cnf::new();
        cnf.add_clause(Clause::from([Lit::positive(0), Lit::negative(1)]));
        cnf.add_clause(Clause::from([Lit::positive(1)]));
        assert_eq!(write(&cnf, 2), "p cnf 2 2\n1 -2 0\n2 0\n");
    }
}
