//! Rows over 0/1 columns as CNF clauses, for the `sat` engine ([`super::sat`]).
//!
//! First the columns that the bounds and rows fix are found by propagation ([`fixings`]:
//! a row whose other terms leave a column only one value fixes it, to a fixpoint, as a
//! SAT solver's unit propagation or a MIP presolve would); they are substituted into every
//! row, so that rows already satisfied and fixed literals never reach the solver. On a
//! Sudoku this leaves the candidates a human would pencil in after the singles, and a
//! fraction of the clauses.
//!
//! Column j of the model is SAT variable j; the auxiliary variables of the encodings come
//! after the columns. A row `lower ≤ Σ a_j x_j ≤ upper` with whole coefficients is first
//! written over literals with positive weights: a term with a < 0 is a + |a|·¬x, so the
//! row becomes `lb ≤ Σ w_i l_i ≤ ub` with w_i > 0. A side that every assignment meets is
//! dropped, a side that none meets is the empty clause. Then, with W = Σ w_i:
//!
//! * all weights equal (w): a cardinality row ⌈lb/w⌉ ≤ Σ l_i ≤ ⌊ub/w⌋, encoded by its shape:
//!   at least one is one clause, at least n (or at most 0) unit clauses, at most n − 1 one
//!   clause over the negations, at most one (and at least n − 1) an at-most-one encoding
//!   (pairwise binary clauses up to [`PAIRWISE_MAX`] literals, the ladder encoding of
//!   Gent and Nightingale beyond, both arc consistent under unit propagation), anything
//!   else rustsat's totalizer (Bailleux and Boufkhad 2003), one for both sides when
//!   neither has a short shape (as Star Battle's m stars per line, m ≥ 2);
//! * unequal weights: a pseudo-Boolean row, rustsat's generalised totalizer
//!   (Joshi, Martins and Manquinho 2015), both sides in one encoding for an equality.
//!
//! The objective is not encoded here: the engine bounds it while it searches.

use crate::model::{Model, VarId};
use rustsat::encodings::am1::{Encode as _, Ladder};
use rustsat::encodings::card::{BoundLower as _, BoundUpper as _, Totalizer};
use rustsat::encodings::{card, pb, CollectClauses};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::{CardConstraint, PbConstraint};
use rustsat::types::{Clause, Lit, Var};

/// Largest at-most-one row written as pairwise clauses (n(n − 1)/2 of them); larger ones
/// use the ladder encoding (3n − 4 clauses, n − 1 auxiliary variables). Measured on
/// Sudoku 16×16 and 25×25 (`benches/sat_encoding.rs`): see the README's `sat` section.
pub const PAIRWISE_MAX: usize = 16;

/// Why a row could not be encoded.
#[derive(Clone, Debug, PartialEq)]
pub enum EncodeError {
    /// A coefficient or side beyond what the encoding's integers hold (|a| ≥ 2^53).
    TooLarge,
    /// The solver ran out of memory while taking the clauses.
    OutOfMemory,
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EncodeError::TooLarge => f.write_str("a coefficient or side of 2^53 or more"),
            EncodeError::OutOfMemory => f.write_str("out of memory while adding clauses"),
        }
    }
}

impl From<rustsat::OutOfMemory> for EncodeError {
    fn from(_: rustsat::OutOfMemory) -> Self {
        EncodeError::OutOfMemory
    }
}

/// The SAT literal of column `v` (true when the column is 1).
pub fn lit(v: VarId) -> Lit {
    Lit::positive(v.0 as u32)
}

/// The term a·x (a ≠ 0) over a literal with a positive weight: (x, a) for a > 0, and
/// (¬x, −a) for a < 0, since a·x = a + |a|·¬x (the caller moves a to the constant).
pub fn positive_term(v: VarId, a: i64) -> (Lit, i64) {
    if a > 0 {
        (lit(v), a)
    } else {
        (!lit(v), -a)
    }
}

/// A coefficient or side as a whole number the encodings can add up.
pub fn whole(x: f64) -> Result<i64, EncodeError> {
    if x.abs() < 9.0e15 {
        Ok(x as i64)
    } else {
        Err(EncodeError::TooLarge)
    }
}

/// The columns fixed by the bounds and, to a fixpoint, by the rows (`None`: free), or the
/// name of a row that no assignment within the fixings meets. Each row is read through its
/// activity range: with `min` and `max` the least and greatest value of Σ a_j x_j over the
/// free columns, a term a·x with a > 0 and `min + a > upper` fixes x to 0, and with
/// `max − a < lower` to 1 (mirrored for a < 0).
pub fn fixings(model: &Model) -> Result<Vec<Option<bool>>, String> {
    let n = model.vars.len();
    let mut fixed: Vec<Option<bool>> = vec![None; n];
    let mut pending = Vec::new();
    for (j, v) in model.vars.iter().enumerate() {
        match (v.lower > 0.0, v.upper < 1.0) {
            (true, true) => return Err(format!("the bounds of column {}", v.name)),
            (true, false) => fixed[j] = Some(true),
            (false, true) => fixed[j] = Some(false),
            (false, false) => continue,
        }
        pending.push(j);
    }
    // Each row's activity range over the free columns (kept up to date as columns are
    // fixed) and its largest |coefficient|: a row can fix a column only when that exceeds
    // its slack on one side, and only then are its terms read.
    let rows = &model.rows;
    let mut min: Vec<f64> = rows
        .iter()
        .map(|r| r.terms.iter().map(|t| t.1.min(0.0)).sum())
        .collect();
    let mut max: Vec<f64> = rows
        .iter()
        .map(|r| r.terms.iter().map(|t| t.1.max(0.0)).sum())
        .collect();
    let big: Vec<f64> = rows
        .iter()
        .map(|r| r.terms.iter().map(|t| t.1.abs()).fold(0.0, f64::max))
        .collect();
    // The sides by row, in arrays of their own: the loops below read them at random.
    let upper: Vec<f64> = rows.iter().map(|r| r.upper).collect();
    let lower: Vec<f64> = rows.iter().map(|r| r.lower).collect();
    // The upper side can fix a column (to its value that adds least) once the least
    // activity is within `big` of it, the lower side once the greatest is.
    let upper_can_fix = |k: usize, min: &[f64]| big[k] > upper[k] - min[k];
    let lower_can_fix = |k: usize, max: &[f64]| big[k] > max[k] - lower[k];
    // The rows of each column with its coefficient.
    let mut starts = vec![0usize; n + 1];
    for r in rows {
        for t in &r.terms {
            starts[t.0 .0 + 1] += 1;
        }
    }
    for j in 0..n {
        starts[j + 1] += starts[j];
    }
    let mut column = vec![(0usize, 0.0f64); starts[n]];
    let mut next = starts.clone();
    for (k, r) in rows.iter().enumerate() {
        for &(v, a) in &r.terms {
            column[next[v.0]] = (k, a);
            next[v.0] += 1;
        }
    }
    let mut queued = vec![false; rows.len()];
    let mut scan = Vec::new();
    for k in 0..rows.len() {
        if min[k] > upper[k] || max[k] < lower[k] {
            return Err(format!("row {}", rows[k].name));
        }
        if upper_can_fix(k, &min) || lower_can_fix(k, &max) {
            queued[k] = true;
            scan.push(k);
        }
    }
    loop {
        // Move the new fixings into the activity ranges of their rows.
        while let Some(j) = pending.pop() {
            let one = fixed[j] == Some(true);
            for &(k, a) in &column[starts[j]..starts[j + 1]] {
                // A row is read again only when the side its change tightened can fix a
                // column: fixings only raise the least activity and lower the greatest, and
                // only the upper side reads the least (the lower side the greatest). So a
                // row that fixed its other columns to 0 is not read again for each of them.
                // A 1 with a > 0 (or a 0 with a < 0) raises the least activity by |a|;
                // otherwise the greatest falls by |a|.
                let min_rose = one == (a > 0.0);
                if min_rose {
                    min[k] += a.abs();
                } else {
                    max[k] -= a.abs();
                }
                if min[k] > upper[k] || max[k] < lower[k] {
                    return Err(format!("row {}", rows[k].name));
                }
                let can_fix = if min_rose {
                    upper_can_fix(k, &min)
                } else {
                    lower_can_fix(k, &max)
                };
                if !queued[k] && can_fix {
                    queued[k] = true;
                    scan.push(k);
                }
            }
        }
        let Some(k) = scan.pop() else { break };
        queued[k] = false;
        let r = &rows[k];
        // Ranges as of now; fixings made in this pass reach them through `pending`.
        let (lo, hi) = (min[k], max[k]);
        for &(v, a) in &r.terms {
            if fixed[v.0].is_some() {
                continue;
            }
            let value = if a > 0.0 && lo + a > r.upper || a < 0.0 && hi + a < r.lower {
                false
            } else if a > 0.0 && hi - a < r.lower || a < 0.0 && lo - a > r.upper {
                true
            } else {
                continue;
            };
            fixed[v.0] = Some(value);
            pending.push(v.0);
        }
    }
    Ok(fixed)
}

/// A row over 0/1 columns written over literals with positive weights.
#[derive(Clone, Debug, PartialEq)]
pub enum Normalized {
    /// Every assignment meets it (no side binds).
    Always,
    /// No assignment meets it.
    Never,
    /// `lb ≤ Σ w_i l_i ≤ ub` with every w_i > 0, at least one side present, and each side
    /// present only where it binds (0 < lb, ub < Σ w_i; lb ≤ ub).
    Row {
        /// (literal, weight), in the order of the row's terms.
        lits: Vec<(Lit, i64)>,
        /// The lower side, if it binds.
        lb: Option<i64>,
        /// The upper side, if it binds.
        ub: Option<i64>,
    },
}

/// Writes `lower ≤ Σ terms ≤ upper` (whole coefficients and sides; infinite sides are
/// absent) over literals with positive weights, with the columns fixed in `fixed`
/// substituted (see the module's notes).
pub fn normalize(
    fixed: &[Option<bool>],
    terms: &[(VarId, f64)],
    lower: f64,
    upper: f64,
) -> Result<Normalized, EncodeError> {
    // Positive weights on literals, and the constant that fixed columns and negations
    // move to the sides.
    let mut lits = Vec::with_capacity(terms.len());
    let mut shift = 0i64;
    let mut total = 0i64;
    for &(v, a) in terms {
        let a = whole(a)?;
        if let Some(value) = fixed[v.0] {
            if value {
                shift += a;
            }
        } else if a != 0 {
            let (l, w) = positive_term(v, a);
            lits.push((l, w));
            total += w;
            shift += a.min(0);
        }
    }
    let side = |x: f64| {
        x.is_finite()
            .then(|| whole(x).map(|b| b - shift))
            .transpose()
    };
    let lb = side(lower)?.filter(|&b| b > 0);
    let ub = side(upper)?.filter(|&b| b < total);
    let crossed = matches!((lb, ub), (Some(l), Some(u)) if l > u);
    if lb.is_some_and(|b| b > total) || ub.is_some_and(|b| b < 0) || crossed {
        return Ok(Normalized::Never);
    }
    if lb.is_none() && ub.is_none() {
        return Ok(Normalized::Always);
    }
    Ok(Normalized::Row { lits, lb, ub })
}

/// The encoder of one model: it substitutes the fixed columns and hands out auxiliary
/// variables after the model's columns.
pub struct Encoder {
    vars: BasicVarManager,
    fixed: Vec<Option<bool>>,
}

impl Encoder {
    /// An encoder for a model whose columns are fixed as in `fixed` (one entry per
    /// column, `None` for a free one).
    pub fn new(fixed: Vec<Option<bool>>) -> Encoder {
        let mut vars = BasicVarManager::default();
        if !fixed.is_empty() {
            vars.increase_next_free(Var::new(fixed.len() as u32));
        }
        Encoder { vars, fixed }
    }

    /// The fixed value of column `j`, if it is fixed.
    pub fn fixed(&self, j: usize) -> Option<bool> {
        self.fixed[j]
    }

    /// The variable manager, for encodings built outside this module (the objective).
    pub fn vars(&mut self) -> &mut BasicVarManager {
        &mut self.vars
    }

    /// Auxiliary variables handed out so far.
    pub fn aux_variables(&self) -> u64 {
        u64::from(self.vars.n_used()).saturating_sub(self.fixed.len() as u64)
    }

    /// Encodes every row of `model` into `out` (the column bounds are in the fixings). The
    /// error names the row.
    pub fn model<C: CollectClauses>(&mut self, model: &Model, out: &mut C) -> Result<(), String> {
        for r in &model.rows {
            self.row(&r.terms, r.lower, r.upper, out)
                .map_err(|e| format!("row {}: {e}", r.name))?;
        }
        Ok(())
    }

    /// Encodes `lower ≤ Σ terms ≤ upper` (whole coefficients and sides; infinite sides
    /// are absent), with the fixed columns substituted, into `out`.
    pub fn row<C: CollectClauses>(
        &mut self,
        terms: &[(VarId, f64)],
        lower: f64,
        upper: f64,
        out: &mut C,
    ) -> Result<(), EncodeError> {
        let (lits, lb, ub) = match normalize(&self.fixed, terms, lower, upper)? {
            Normalized::Always => return Ok(()),
            Normalized::Never => {
                out.add_clause(Clause::new())?;
                return Ok(());
            }
            Normalized::Row { lits, lb, ub } => (lits, lb, ub),
        };
        let w = lits[0].1;
        if lits.iter().all(|&(_, wi)| wi == w) {
            let n = lits.len() as i64;
            let lo = lb.map_or(0, |b| (b + w - 1) / w);
            let hi = ub.map_or(n, |b| b / w);
            let only: Vec<Lit> = lits.into_iter().map(|(l, _)| l).collect();
            self.cardinality(&only, lo as usize, hi as usize, out)
        } else {
            let weighted = lits.into_iter().map(|(l, w)| (l, w as isize));
            let constr = match (lb, ub) {
                (Some(l), Some(u)) if l == u => PbConstraint::new_eq(weighted, l as isize),
                (Some(l), Some(u)) => {
                    let both: Vec<(Lit, isize)> = weighted.collect();
                    pb::default_encode_pb_constraint(
                        PbConstraint::new_lb(both.iter().copied(), l as isize),
                        out,
                        &mut self.vars,
                    )?;
                    PbConstraint::new_ub(both, u as isize)
                }
                (Some(l), None) => PbConstraint::new_lb(weighted, l as isize),
                (None, Some(u)) => PbConstraint::new_ub(weighted, u as isize),
                (None, None) => unreachable!("both sides dropped above"),
            };
            pb::default_encode_pb_constraint(constr, out, &mut self.vars)?;
            Ok(())
        }
    }

    /// `lo ≤ Σ lits ≤ hi` with 0 ≤ lo ≤ hi ≤ n, at least one side binding.
    fn cardinality<C: CollectClauses>(
        &mut self,
        lits: &[Lit],
        lo: usize,
        hi: usize,
        out: &mut C,
    ) -> Result<(), EncodeError> {
        let n = lits.len();
        if lo > hi {
            out.add_clause(Clause::new())?;
            return Ok(());
        }
        if lo == n {
            return Ok(out.extend_clauses(lits.iter().map(|&l| Clause::from([l])))?);
        }
        if hi == 0 {
            return Ok(out.extend_clauses(lits.iter().map(|&l| Clause::from([!l])))?);
        }
        // Both sides past the short shapes: one totalizer whose outputs serve both bounds
        // (two would each have their own outputs and clauses).
        let general = |k: usize| k >= 2 && k + 2 <= n;
        if general(lo) && general(hi) {
            let mut t: Totalizer = lits.iter().copied().collect();
            t.encode_lb(lo..=lo, out, &mut self.vars)?;
            t.encode_ub(hi..=hi, out, &mut self.vars)?;
            let mut units = t.enforce_lb(lo).expect("the lower bound was just encoded");
            units.extend(t.enforce_ub(hi).expect("the upper bound was just encoded"));
            return Ok(out.extend_clauses(units.into_iter().map(|u| Clause::from([u])))?);
        }
        // The lower side: at least one is a clause, at least n − 1 is at most one false.
        match lo {
            0 => {}
            1 => out.add_clause(lits.iter().copied().collect())?,
            _ if lo + 1 == n => self.at_most_one(&negated(lits), out)?,
            _ => {
                let c = CardConstraint::new_lb(lits.iter().copied(), lo);
                card::default_encode_cardinality_constraint(c, out, &mut self.vars)?;
            }
        }
        match hi {
            _ if hi >= n => {}
            1 => self.at_most_one(lits, out)?,
            _ if hi + 1 == n => out.add_clause(negated(lits).into_iter().collect())?,
            _ => {
                let c = CardConstraint::new_ub(lits.iter().copied(), hi);
                card::default_encode_cardinality_constraint(c, out, &mut self.vars)?;
            }
        }
        Ok(())
    }

    /// At most one of `lits`: pairwise clauses up to [`PAIRWISE_MAX`], the ladder beyond.
    fn at_most_one<C: CollectClauses>(
        &mut self,
        lits: &[Lit],
        out: &mut C,
    ) -> Result<(), EncodeError> {
        if lits.len() <= PAIRWISE_MAX {
            for (i, &a) in lits.iter().enumerate() {
                out.extend_clauses(lits[i + 1..].iter().map(|&b| Clause::from([!a, !b])))?;
            }
            Ok(())
        } else {
            let mut ladder = Ladder::from(lits.to_vec());
            Ok(ladder.encode(out, &mut self.vars)?)
        }
    }
}

fn negated(lits: &[Lit]) -> Vec<Lit> {
    lits.iter().map(|&l| !l).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rustsat::instances::Cnf;
    use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
    use rustsat_cadical::CaDiCaL;

    /// Is the encoding of the row satisfiable with the columns fixed to `x`?
    fn satisfiable(terms: &[(VarId, f64)], lower: f64, upper: f64, x: &[bool]) -> bool {
        let mut cnf = Cnf::new();
        let mut enc = Encoder::new(vec![None; x.len()]);
        enc.row(terms, lower, upper, &mut cnf).unwrap();
        let mut s = CaDiCaL::default();
        s.add_cnf(cnf).unwrap();
        let assumptions: Vec<Lit> = x
            .iter()
            .enumerate()
            .map(|(j, &b)| if b { lit(VarId(j)) } else { !lit(VarId(j)) })
            .collect();
        s.solve_assumps(&assumptions).unwrap() == SolverResult::Sat
    }

    /// Checks the encoding of one row against its arithmetic on every 0/1 point.
    fn agrees(n: usize, coefs: &[i64], lower: f64, upper: f64) {
        let terms: Vec<(VarId, f64)> = coefs
            .iter()
            .enumerate()
            .filter(|(_, &a)| a != 0)
            .map(|(j, &a)| (VarId(j), a as f64))
            .collect();
        for bits in 0..1u32 << n {
            let x: Vec<bool> = (0..n).map(|j| bits >> j & 1 == 1).collect();
            let sum: f64 = terms
                .iter()
                .map(|&(v, a)| if x[v.0] { a } else { 0.0 })
                .sum();
            let feasible = lower <= sum && sum <= upper;
            assert_eq!(
                satisfiable(&terms, lower, upper, &x),
                feasible,
                "{coefs:?} in [{lower}, {upper}] at {x:?}"
            );
        }
    }

    #[test]
    fn each_shape_agrees_with_arithmetic() {
        let inf = f64::INFINITY;
        agrees(4, &[1, 1, 1, 1], 1.0, 1.0); // exactly one
        agrees(4, &[1, 1, 1, 1], -inf, 1.0); // at most one
        agrees(4, &[1, 1, 1, 1], 1.0, inf); // clause
        agrees(4, &[1, 1, 1, 1], 3.0, inf); // at least n − 1
        agrees(4, &[1, 1, 1, 1], -inf, 3.0); // at most n − 1 (a no-good)
        agrees(5, &[1, 1, 1, 1, 1], 2.0, 3.0); // one totalizer for both sides
        agrees(7, &[1, 1, 1, 1, 1, 1, 1], 3.0, 3.0); // one totalizer, an equality
        agrees(7, &[1, -1, 1, -1, 1, 1, 1], 1.0, 1.0); // the same over negations
        agrees(6, &[1, 1, 1, 1, 1, 1], 2.0, 5.0); // totalizer below, a no-good above
        agrees(4, &[1, 1, -1, -1], 0.0, 0.0); // negated terms
        agrees(4, &[2, 2, 2, 2], 3.0, 5.0); // equal weights, rounded sides
        agrees(4, &[3, -2, 1, 1], -1.0, 2.0); // pseudo-Boolean, both sides
        agrees(4, &[3, 2, 1, 5], 6.0, 6.0); // pseudo-Boolean equality
        agrees(3, &[1, 1, 1], 4.0, inf); // impossible
        agrees(3, &[1, 1, 1], -inf, 5.0); // always true
        agrees(3, &[0, 0, 0], 1.0, inf); // no terms, impossible
    }

    #[test]
    fn long_at_most_one_uses_the_ladder_and_agrees() {
        let n = PAIRWISE_MAX + 2;
        let terms: Vec<(VarId, f64)> = (0..n).map(|j| (VarId(j), 1.0)).collect();
        let mut cnf = Cnf::new();
        let mut enc = Encoder::new(vec![None; n]);
        enc.row(&terms, 1.0, 1.0, &mut cnf).unwrap();
        assert_eq!(enc.aux_variables(), n as u64 - 1, "ladder variables");
        assert!(cnf.len() < n * 4, "{} clauses", cnf.len());
        for ones in [vec![], vec![3], vec![0, n - 1], vec![5, 6]] {
            let x: Vec<bool> = (0..n).map(|j| ones.contains(&j)).collect();
            assert_eq!(
                satisfiable(&terms, 1.0, 1.0, &x),
                ones.len() == 1,
                "{ones:?}"
            );
        }
    }

    #[test]
    fn a_huge_coefficient_is_refused() {
        let mut enc = Encoder::new(vec![None]);
        let e = enc.row(&[(VarId(0), 1e17)], 0.0, 1.0, &mut Cnf::new());
        assert_eq!(e, Err(EncodeError::TooLarge));
    }

    /// A model of `n` binary columns and the rows (coefficients, lower, upper).
    fn model_of(n: usize, rows: &[(Vec<i64>, f64, f64)]) -> Model {
        let mut m = Model::new("t");
        let x: Vec<VarId> = (0..n).map(|j| m.add_binary(format!("x{j}"))).collect();
        for (i, (coefs, lo, hi)) in rows.iter().enumerate() {
            let terms = coefs.iter().zip(&x).map(|(&a, &v)| (v, a as f64));
            m.add_row(format!("r{i}"), terms, *lo, *hi);
        }
        m
    }

    #[test]
    fn fixings_follow_rows_to_a_fixpoint() {
        // x0 = 1; x0 + x1 <= 1 fixes x1 = 0; x1 + x2 >= 1 then fixes x2 = 1.
        let m = model_of(
            4,
            &[
                (vec![1, 0, 0, 0], 1.0, 1.0),
                (vec![1, 1, 0, 0], f64::NEG_INFINITY, 1.0),
                (vec![0, 1, 1, 0], 1.0, f64::INFINITY),
            ],
        );
        let f = fixings(&m).unwrap();
        assert_eq!(f, vec![Some(true), Some(false), Some(true), None]);
        let bad = model_of(2, &[(vec![1, 1], 3.0, f64::INFINITY)]);
        assert_eq!(fixings(&bad), Err("row r0".to_string()));
    }

    proptest! {
        /// Fixings hold in every feasible point, and "infeasible" only where none exists.
        #[test]
        fn fixings_are_sound(
            rows in proptest::collection::vec(
                (proptest::collection::vec(-2i64..=2, 4), -3i64..=3, 0i64..=3),
                1..=4,
            ),
        ) {
            let rows: Vec<(Vec<i64>, f64, f64)> = rows
                .into_iter()
                .map(|(c, lo, w)| (c, lo as f64, (lo + w) as f64))
                .collect();
            let m = model_of(4, &rows);
            let feasible: Vec<Vec<f64>> = (0..16u32)
                .map(|b| (0..4).map(|j| f64::from(b >> j & 1)).collect::<Vec<f64>>())
                .filter(|x| m.feasible(x))
                .collect();
            match fixings(&m) {
                Err(_) => prop_assert!(feasible.is_empty()),
                Ok(f) => {
                    for x in &feasible {
                        for (j, fj) in f.iter().enumerate() {
                            if let Some(v) = fj {
                                prop_assert_eq!(x[j] > 0.5, *v);
                            }
                        }
                    }
                }
            }
        }

        #[test]
        fn random_rows_agree_with_arithmetic(
            coefs in proptest::collection::vec(-3i64..=3, 1..=5),
            lower in -6i64..=6,
            width in 0i64..=6,
            lower_open in any::<bool>(),
            upper_open in any::<bool>(),
        ) {
            let lo = if lower_open { f64::NEG_INFINITY } else { lower as f64 };
            let hi = if upper_open { f64::INFINITY } else { (lower + width) as f64 };
            agrees(coefs.len(), &coefs, lo, hi);
        }
    }
}
