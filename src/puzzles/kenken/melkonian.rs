//! Melkonian's KenKen model ("An Integer Programming Model for the KenKen Problem",
//! American Journal of Operations Research 6, 2016), as the blog post "Sudoku and KenKen
//! as MIPs" describes it: prime factorisations for products and either-or (Big-M) rows
//! for quotients. Every column is 0/1 and every coefficient a whole number, so every MIP
//! engine and the SAT engine take it, and no tolerance can let a wrong filling through.
//!
//! Variables: `x[i,j,k]` (binary, [`Latin`]) is 1 when cell (i, j) holds k; `d[c]`
//! (binary) chooses the direction of a − or ÷ cage c. Rows: the Latin square of [`Latin`];
//! with v[i,j] = Σ_k k·x[i,j,k] the value of a cell, each cage c with target t:
//!
//! * one cell: v = t;
//! * +: Σ_{cells} v = t;
//! * −: v[a] − v[b] = t·(2·d[c] − 1) (the form the post attributes to Melkonian);
//! * ×: for every prime q ≤ n, Σ_{cells} Σ_k e_q(k)·x[i,j,k] = e_q(t), where e_q(k) is
//!   the exponent of q in k: by unique factorisation the product is t exactly when every
//!   exponent matches (`cage_c_q`); a prime factor of t above n leaves a row with no
//!   terms and a positive side, which no point meets, as no filling does;
//! * ÷: d[c] = 0 gives v[a] = t·v[b], d[c] = 1 gives v[b] = t·v[a], through the four rows
//!   the post quotes: v[a] − t·v[b] ≥ −M·d, v[a] − t·v[b] ≤ M·d,
//!   v[b] − t·v[a] ≥ −M·(1 − d), v[b] − t·v[a] ≤ M·(1 − d).
//!
//! The objective is 0.
//!
//! Deviations: the post gives no value for M; each of the four rows takes the smallest M
//! that keeps it slack when its side is switched off (t·n − 1 for the ≥ rows, n − t for
//! the ≤ rows, as v ranges over 1..=n). The issue text asks for Big-M rows for − as well;
//! the post says Melkonian writes − as the exact equation above, which is the Big-M
//! disjunction with the smallest M, so that is what is built. v is substituted into the
//! rows rather than kept as a column.

use super::{KenKen, Latin, Op};
use crate::model::{Model, Name, VarId};

/// The primes up to `n`.
fn primes(n: usize) -> Vec<u64> {
    (2..=n as u64)
        .filter(|&q| (2..q).take_while(|d| d * d <= q).all(|d| q % d != 0))
        .collect()
}

/// The exponent of the prime `q` in `k`.
fn exponent(mut k: u64, q: u64) -> u32 {
    let mut e = 0;
    while k > 0 && k.is_multiple_of(q) {
        k /= q;
        e += 1;
    }
    e
}

/// Builds Melkonian's model for `p`.
pub fn build(p: &KenKen) -> (Model, Latin) {
    let n = p.n;
    let mut m = Model::new(format!("kenken_melkonian_{}", p.name));
    let l = Latin::add(&mut m, n);
    let primes = primes(n);
    for (c, cage) in p.cages.iter().enumerate() {
        let t = cage.target as f64;
        match cage.op {
            Op::Given | Op::Add => {
                let terms = cage.cells.iter().flat_map(|&cell| l.value_terms(cell, 1.0));
                m.add_eq(Name::idx("cage", &[c + 1]), terms, t);
            }
            Op::Sub => {
                let d = m.add_binary(Name::idx("d", &[c + 1]));
                let mut terms = l.value_terms(cage.cells[0], 1.0);
                terms.extend(l.value_terms(cage.cells[1], -1.0));
                terms.push((d, -2.0 * t));
                m.add_eq(Name::idx("cage", &[c + 1]), terms, -t);
            }
            Op::Mul => {
                let mut rest = cage.target;
                for &q in &primes {
                    let terms = cage.cells.iter().flat_map(|&cell| {
                        (2..=n).filter_map(move |k| {
                            let e = exponent(k as u64, q);
                            (e > 0).then_some((cell, k, f64::from(e)))
                        })
                    });
                    let terms: Vec<(VarId, f64)> =
                        terms.map(|(cell, k, e)| (l.at(cell, k), e)).collect();
                    let e = exponent(cage.target, q);
                    rest /= q.pow(e);
                    m.add_eq(Name::idx("cage", &[c + 1, q as usize]), terms, f64::from(e));
                }
                if rest > 1 {
                    // A prime factor above n: no filling of the cage reaches t.
                    m.add_eq(Name::idx("cage", &[c + 1, 0]), std::iter::empty(), 1.0);
                }
            }
            Op::Div => {
                let d = m.add_binary(Name::idx("d", &[c + 1]));
                let (a, b) = (cage.cells[0], cage.cells[1]);
                let nf = n as f64;
                let big_ge = t * nf - 1.0;
                let big_le = (nf - t).max(0.0);
                // first − t·second, for (a, b) and for (b, a)
                let diff = |first, second| {
                    let mut terms = l.value_terms(first, 1.0);
                    terms.extend(l.value_terms(second, -t));
                    terms
                };
                let with = |mut terms: Vec<(VarId, f64)>, coef: f64| {
                    terms.push((d, coef));
                    terms
                };
                let name = |r: usize| Name::idx("cage", &[c + 1, r]);
                // v[a] − t·v[b] + M·d ≥ 0 and v[a] − t·v[b] − M·d ≤ 0
                m.add_ge(name(1), with(diff(a, b), big_ge), 0.0);
                m.add_le(name(2), with(diff(a, b), -big_le), 0.0);
                // v[b] − t·v[a] − M·d ≥ −M and v[b] − t·v[a] + M·d ≤ M
                m.add_ge(name(3), with(diff(b, a), -big_ge), -big_ge);
                m.add_le(name(4), with(diff(b, a), big_le), big_le);
            }
        }
    }
    (m, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_exponents() {
        assert_eq!(primes(9), vec![2, 3, 5, 7]);
        assert_eq!(primes(1), Vec::<u64>::new());
        assert_eq!(exponent(72, 2), 3);
        assert_eq!(exponent(72, 3), 2);
        assert_eq!(exponent(72, 5), 0);
    }
}
