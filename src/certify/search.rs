//! The proof-logging search: a pseudo-Boolean model ([`PbModel`]) turned into clauses by
//! rustsat's certified encodings and searched by CaDiCaL with a proof tracer, the proof
//! written for VeriPB (format 2.0, through pigeons).
//!
//! * **The proof's preamble**: VeriPB numbers the OPB file's constraints 1, 2, … (an `=`
//!   two, its `>=` half first). For an optimality claim, the answer is logged first
//!   (`soli`, before any auxiliary variable exists), which adds "objective ≤ value − 1"
//!   as the next constraint; it is encoded as any other.
//! * **The encodings**: each constraint, normalised to positive weights, goes through
//!   `rustsat::encodings::pb::cert::default_encode_pb_constraint`, which derives every
//!   clause it makes from the constraint's number. Two cases are handled here first,
//!   since rustsat 0.7.5 gets them wrong: a literal whose weight exceeds the slack (it is
//!   forced: logged as a unit, then weakened away, where rustsat's generalized totalizer
//!   panics), and equal weights above 1 (divided in the proof first: rustsat divides the
//!   bound but derives from the undivided constraint, which VeriPB rejects). Two kinds
//!   of row need no new variable and are written as clauses, each one unit-propagation
//!   step from the row: a clause itself (`b = 1`), and "at most one false" on up to 32
//!   literals, a clause per pair (a Sudoku's "at most one digit"); the encodings' new
//!   variables would each need a definition the checker verifies, which made the check
//!   of a 16×16 Sudoku's uniqueness 60× slower.
//! * **A claim one row settles**: where the objective is a multiple of a row's terms
//!   (cm1's tree row fixes it), the claim's "objective ≤ value − 1" plus that row is a
//!   contradiction, one `pol` step, and nothing is encoded or searched.
//! * **The tracer**: CaDiCaL (the factor/BVA technique off, whose RAT steps the bridge
//!   cannot log) reports each original clause, in the order they were added, each
//!   derived clause with its antecedents (logged as a reverse-unit-propagation step with
//!   them as hints), and each deletion of a learnt clause. Deletions of original clauses
//!   are not logged: keeping a constraint never breaks a proof.
//! * **The conclusion**: the empty clause's number, as `conclusion UNSAT` or, for an
//!   optimality claim, `conclusion BOUNDS v v`.

use crate::formats::opb::PbModel;
use pigeons::{
    AbsConstraintId, Axiom, Conclusion, ConstraintId, OperationSequence, OutputGuarantee, Proof,
    SubproofElement, VarLike,
};
use rustsat::encodings::cert::CollectClauses as CollectCertified;
use rustsat::encodings::pb::cert::default_encode_pb_constraint;
use rustsat::encodings::CollectClauses;
use rustsat::instances::BasicVarManager;
use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
use rustsat::types::constraints::PbConstraint;
use rustsat::types::{Clause, Lit, Var};
use rustsat::OutOfMemory;
use rustsat_cadical::{CaDiCaL, CaDiCaLClause, ClauseId, TraceProof};
use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// What the search gave.
#[derive(Debug)]
pub enum Proved {
    /// A contradiction, its proof written: the `s VERIFIED …` line the checker must print.
    Proof {
        /// The checker's line for this claim.
        expect: String,
    },
    /// A 0/1 point the claim excludes (a better objective, where there is one).
    Refuted {
        /// Its objective, for an optimality claim.
        objective: Option<i64>,
    },
    /// The deadline came first.
    TimeLimit,
}

/// Clauses with the proof numbers they were derived under.
#[derive(Default)]
struct Certified(Vec<(Clause, AbsConstraintId)>);

impl CollectClauses for Certified {
    fn n_clauses(&self) -> usize {
        self.0.len()
    }
    fn extend_clauses<T>(&mut self, clauses: T) -> Result<(), OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        // A certified encoder hands every clause over with its number; one without
        // would be missing from the proof, so it is kept under no number and the
        // tracer reports the gap (the proof then fails its check, loudly).
        self.0.extend(
            clauses
                .into_iter()
                .map(|c| (c, AbsConstraintId::new(usize::MAX))),
        );
        Ok(())
    }
}

impl CollectCertified for Certified {
    fn extend_cert_clauses<T>(&mut self, clauses: T) -> Result<(), OutOfMemory>
    where
        T: IntoIterator<Item = (Clause, AbsConstraintId)>,
    {
        self.0.extend(clauses);
        Ok(())
    }
}

/// CaDiCaL's proof events, written as VeriPB steps.
struct Tracer<W: Write> {
    proof: Proof<W>,
    /// The proof numbers of the clauses, in the order they were added.
    queue: VecDeque<AbsConstraintId>,
    /// CaDiCaL's clause numbers to the proof's.
    ids: HashMap<i64, AbsConstraintId>,
    /// The proof number of the empty clause, once derived.
    empty: Option<AbsConstraintId>,
    /// The first error writing the proof.
    error: Option<String>,
}

impl<W: Write> Tracer<W> {
    fn rup(&mut self, clause: &CaDiCaLClause, hints: Vec<ConstraintId>) -> Option<AbsConstraintId> {
        match self.proof.reverse_unit_prop(clause, hints) {
            Ok(id) => Some(id),
            Err(e) => {
                self.error.get_or_insert(e.to_string());
                None
            }
        }
    }
}

impl<W: Write> TraceProof for Tracer<W> {
    fn add_original_clause(
        &mut self,
        id: ClauseId,
        _redundant: bool,
        clause: &CaDiCaLClause,
        restored: bool,
    ) {
        if restored {
            // The clause is still in the proof's database (original deletions are not
            // logged): unit propagation derives it again.
            if let Some(pid) = self.rup(clause, vec![]) {
                self.ids.insert(id.0, pid);
            }
            return;
        }
        match self.queue.pop_front() {
            Some(pid) if pid != AbsConstraintId::new(usize::MAX) => {
                self.ids.insert(id.0, pid);
            }
            _ => {
                self.error
                    .get_or_insert(format!("clause {} has no derivation in the proof", id.0));
            }
        }
    }

    fn add_derived_clause(
        &mut self,
        id: ClauseId,
        _redundant: bool,
        clause: &CaDiCaLClause,
        antecedents: &[ClauseId],
    ) {
        let mut hints = Vec::with_capacity(antecedents.len());
        for a in antecedents {
            match self.ids.get(&a.0) {
                Some(pid) => hints.push(ConstraintId::from(*pid)),
                None => {
                    // Without every antecedent, plain unit propagation must find it.
                    hints.clear();
                    break;
                }
            }
        }
        if let Some(pid) = self.rup(clause, hints) {
            self.ids.insert(id.0, pid);
            if clause.is_empty() {
                self.empty.get_or_insert(pid);
            }
        }
    }

    fn delete_clause(&mut self, id: ClauseId, redundant: bool, _clause: &CaDiCaLClause) {
        if !redundant {
            return;
        }
        if let Some(pid) = self.ids.remove(&id.0) {
            if Some(pid) == self.empty {
                return;
            }
            let deleted = self.proof.delete_ids::<Var, Clause, _, _>(
                [ConstraintId::from(pid)],
                None::<SubproofElement<Var, Clause>>,
            );
            if let Err(e) = deleted {
                self.error.get_or_insert(e.to_string());
            }
        }
    }
}

/// Column j's literal (`x{j+1}` in the proof).
fn lit(j: usize) -> Lit {
    Lit::positive(u32::try_from(j).expect("fewer than 2³² columns"))
}

/// `Σ a l ≥ b` with weights of any sign as `Σ w l ≥ b'` with every w > 0 (as VeriPB
/// normalises it).
fn normalize(terms: &[(Lit, isize)], b: isize) -> (Vec<(Lit, isize)>, isize) {
    let mut out = Vec::with_capacity(terms.len());
    let mut rhs = b;
    for &(l, a) in terms {
        if a < 0 {
            out.push((!l, -a));
            rhs -= a;
        } else if a > 0 {
            out.push((l, a));
        }
    }
    (out, rhs)
}

/// The literals of a normalised `Σ w l ≥ b` whose weight exceeds its slack Σw − b: each
/// is forced true.
fn forced(terms: &[(Lit, isize)], b: isize) -> Vec<(Lit, isize)> {
    let total: isize = terms.iter().map(|t| t.1).sum();
    if b <= 0 || b > total {
        return Vec::new(); // a tautology, or no point meets it: rustsat handles both
    }
    terms
        .iter()
        .filter(|&&(_, a)| a > total - b)
        .copied()
        .collect()
}

/// The most literals of a row "at most one false" written as a clause per pair.
const PAIRWISE_AT_MOST: usize = 32;

/// The clauses of a normalised `Σ w l ≥ b` that needs no new variable, where there are:
/// `b = 1` with every weight at least 1 is one clause; every weight 1 and `b = n − 1` on
/// n ≤ [`PAIRWISE_AT_MOST`] literals ("at most one false", a Sudoku cell's or unit's
/// "at most one digit") is the clause `l_i ∨ l_j` per pair. Each clause follows from the
/// row by unit propagation, one step the checker verifies at once, where the general
/// encodings add variables whose definitions it must check one by one.
fn clauses_of(terms: &[(Lit, isize)], b: isize) -> Option<Vec<Clause>> {
    let n = terms.len();
    if b == 1 && terms.iter().all(|t| t.1 >= 1) {
        return Some(vec![terms.iter().map(|t| t.0).collect()]);
    }
    let unit = terms.iter().all(|t| t.1 == 1);
    if !unit || !(2..=PAIRWISE_AT_MOST).contains(&n) || b != n as isize - 1 {
        return None;
    }
    let mut out = Vec::with_capacity(n * (n - 1) / 2);
    for i in 0..n {
        for j in i + 1..n {
            out.push([terms[i].0, terms[j].0].into_iter().collect());
        }
    }
    Some(out)
}

fn gcd(a: isize, b: isize) -> isize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// What a step needs: where the clauses go, the auxiliary variables, the proof.
struct Encoding<'a, W: Write> {
    clauses: &'a mut Certified,
    vars: &'a mut BasicVarManager,
    proof: &'a mut Proof<W>,
}

impl<W: Write> Encoding<'_, W> {
    fn pb(&mut self, c: PbConstraint, id: AbsConstraintId) -> Result<(), String> {
        default_encode_pb_constraint((c, id), self.clauses, self.vars, self.proof)
            .map_err(|e| e.to_string())
    }

    /// The clauses of the normalised `Σ w l ≥ b`, the proof's constraint `id`.
    fn at_least(
        &mut self,
        terms: Vec<(Lit, isize)>,
        b: isize,
        id: AbsConstraintId,
    ) -> Result<(), String> {
        let fixed = forced(&terms, b);
        if fixed.is_empty() {
            let g = terms.iter().fold(0, |g, t| gcd(g, t.1));
            if g > 1 && b > 0 {
                // Divide in the proof first (`pol id g d`), then encode the divided row.
                let divisor = usize::try_from(g).expect("a positive divisor");
                let divided = self
                    .proof
                    .operations(&(OperationSequence::<Var>::from(id) / divisor))
                    .map_err(|e| e.to_string())?;
                let terms = terms.iter().map(|&(l, a)| (l, a / g)).collect();
                return self.at_least(terms, (b + g - 1) / g, divided);
            }
            if let Some(pairs) = clauses_of(&terms, b) {
                for clause in pairs {
                    let cid = self
                        .proof
                        .reverse_unit_prop(&clause, [ConstraintId::from(id)])
                        .map_err(|e| e.to_string())?;
                    self.clauses
                        .add_cert_clause(clause, cid)
                        .map_err(|e| e.to_string())?;
                }
                return Ok(());
            }
            return self.pb(PbConstraint::new_lb(terms, b), id);
        }
        // Each forced literal as a unit clause derived from the row, then weakened away:
        // id + a·¬l for each gives "the rest ≥ b − Σa".
        let mut ops = OperationSequence::<Var>::from(id);
        for &(l, a) in &fixed {
            let unit: Clause = [l].into_iter().collect();
            let uid = self
                .proof
                .reverse_unit_prop(&unit, [ConstraintId::from(id)])
                .map_err(|e| e.to_string())?;
            self.clauses
                .add_cert_clause(unit, uid)
                .map_err(|e| e.to_string())?;
            ops += OperationSequence::<Var>::from(Axiom::<Var>::from(!l))
                * usize::try_from(a).expect("a positive weight");
        }
        if fixed.len() == terms.len() {
            return Ok(());
        }
        let weakened = self.proof.operations(&ops).map_err(|e| e.to_string())?;
        let gone: isize = fixed.iter().map(|t| t.1).sum();
        let rest = terms.into_iter().filter(|t| !fixed.contains(t)).collect();
        self.at_least(rest, b - gone, weakened)
    }

    /// The clauses of `Σ a x ≥ rhs` (or `≤ rhs`, or `= rhs`), the proof's constraint `id`
    /// (an `=`: `≥` at `id`, `≤` at `id + 1`).
    fn row(
        &mut self,
        terms: &[(Lit, isize)],
        op: Op,
        rhs: isize,
        id: AbsConstraintId,
    ) -> Result<(), String> {
        let (lo, lb) = normalize(terms, rhs);
        let negated: Vec<(Lit, isize)> = terms.iter().map(|&(l, a)| (l, -a)).collect();
        let (hi, hb) = normalize(&negated, -rhs);
        match op {
            Op::AtLeast => self.at_least(lo, lb, id),
            Op::AtMost => self.at_least(hi, hb, id),
            Op::Equal => {
                self.at_least(lo, lb, id)?;
                self.at_least(hi, hb, id + 1)
            }
        }
    }
}

/// A row's sense.
#[derive(Clone, Copy)]
enum Op {
    AtLeast,
    AtMost,
    Equal,
}

/// Proves the claim on `pb`, writing the OPB file `opb` (with its objective when
/// `with_objective`) and the proof `pbp`: with `point`, that no point has a smaller
/// objective than it (its objective must be that of a point meeting every constraint);
/// without, that no point meets every constraint. `deadline` stops the search.
pub fn prove(
    pb: &PbModel,
    with_objective: bool,
    point: Option<&[bool]>,
    opb: &Path,
    pbp: &Path,
    deadline: Option<Instant>,
) -> Result<Proved, String> {
    let optimal = point.is_some() && with_objective;
    std::fs::write(opb, pb.to_opb(optimal)).map_err(|e| format!("{}: {e}", opb.display()))?;
    let count: usize = pb
        .constraints
        .iter()
        .map(|c| if c.equal { 2 } else { 1 })
        .sum();
    let file = BufWriter::new(File::create(pbp).map_err(|e| format!("{}: {e}", pbp.display()))?);
    let mut proof = Proof::new(file, count, optimal).map_err(|e| e.to_string())?;
    let mut clauses = Certified::default();
    let columns = u32::try_from(pb.columns).map_err(|_| "too many columns".to_string())?;
    let mut vars = BasicVarManager::from_next_free(Var::new(columns));
    let mut value = 0;
    // "Objective ≤ value − 1", for an optimality claim.
    let mut improving = None;
    if let (true, Some(x)) = (optimal, point) {
        // The first step, before any auxiliary variable exists.
        let sol = proof
            .improve_solution(
                x.iter()
                    .enumerate()
                    .map(|(j, &b)| Var::new(j as u32).axiom(!b)),
            )
            .map_err(|e| e.to_string())?;
        value = pb.objective_at(x);
        if let Some((row, p, q)) = contradicting_row(pb, value) {
            // The claim follows from one row: no clause, no search.
            let ops = OperationSequence::<Var>::from(sol) * p
                + OperationSequence::<Var>::from(AbsConstraintId::new(row)) * q;
            let contradiction = proof.operations(&ops).map_err(|e| e.to_string())?;
            return conclude_bounds(proof, value, contradiction);
        }
        improving = Some(sol);
    }
    {
        let mut enc = Encoding {
            clauses: &mut clauses,
            vars: &mut vars,
            proof: &mut proof,
        };
        if let Some(sol) = improving {
            let terms: Vec<(Lit, isize)> = pb
                .objective
                .iter()
                .map(|&(j, c)| (lit(j), c as isize))
                .collect();
            enc.row(&terms, Op::AtMost, value as isize - 1, sol)?;
        }
        let mut next = 1;
        for c in &pb.constraints {
            let terms: Vec<(Lit, isize)> =
                c.terms.iter().map(|&(j, a)| (lit(j), a as isize)).collect();
            let op = if c.equal { Op::Equal } else { Op::AtLeast };
            enc.row(&terms, op, c.rhs as isize, AbsConstraintId::new(next))?;
            next += if c.equal { 2 } else { 1 };
        }
    }
    let mut solver = CaDiCaL::default();
    solver
        .set_option("factor", 0)
        .map_err(|e| format!("CaDiCaL's option factor: {e}"))?;
    if let Some(deadline) = deadline {
        solver.attach_terminator(move || {
            if Instant::now() >= deadline {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
    }
    let tracer = Tracer {
        proof,
        queue: clauses.0.iter().map(|(_, id)| *id).collect(),
        ids: HashMap::new(),
        empty: None,
        error: None,
    };
    let handle = solver.connect_proof_tracer(tracer, true);
    for (clause, _) in clauses.0 {
        Solve::add_clause(&mut solver, clause).map_err(|e| e.to_string())?;
    }
    match solver.solve().map_err(|e| e.to_string())? {
        SolverResult::Sat => {
            let x: Vec<bool> = (0..pb.columns)
                .map(|j| matches!(solver.lit_val(lit(j)), Ok(rustsat::types::TernaryVal::True)))
                .collect();
            let _ = solver.disconnect_proof_tracer(handle);
            Ok(Proved::Refuted {
                objective: optimal.then(|| pb.objective_at(&x)),
            })
        }
        SolverResult::Interrupted => {
            let _ = solver.disconnect_proof_tracer(handle);
            Ok(Proved::TimeLimit)
        }
        SolverResult::Unsat => {
            let tracer = solver
                .disconnect_proof_tracer(handle)
                .map_err(|e| e.to_string())?;
            if let Some(e) = tracer.error {
                return Err(format!("the proof tracer: {e}"));
            }
            let mut proof = tracer.proof;
            let empty = match tracer.empty {
                Some(id) => id,
                None => proof
                    .reverse_unit_prop(&Clause::new(), std::iter::empty::<ConstraintId>())
                    .map_err(|e| e.to_string())?,
            };
            if optimal {
                return conclude_bounds(proof, value, empty);
            }
            conclude(
                proof,
                &Conclusion::<Var>::Unsat(Some(empty.into())),
                "s VERIFIED UNSATISFIABLE".to_string(),
            )
        }
    }
}

/// Ends an optimality proof: `contradiction` (a constraint no point meets, derived with
/// "objective ≤ value − 1" in force) shows that `value` is the optimum.
fn conclude_bounds<W: Write>(
    proof: Proof<W>,
    value: i64,
    contradiction: AbsConstraintId,
) -> Result<Proved, String> {
    let conclusion = Conclusion::<Var>::Bounds {
        range: value as isize..value as isize + 1,
        lb_id: Some(contradiction.into()),
        ub_sol: None,
    };
    conclude(
        proof,
        &conclusion,
        format!("s VERIFIED BOUNDS {value} <= obj <= {value}"),
    )
}

/// Writes the proof's `conclusion` and ends it; `expect` is the line the checker must
/// print for it.
fn conclude<W: Write>(
    proof: Proof<W>,
    conclusion: &Conclusion<Var>,
    expect: String,
) -> Result<Proved, String> {
    let mut w = proof
        .conclude(OutputGuarantee::None, conclusion)
        .map_err(|e| e.to_string())?;
    w.flush().map_err(|e| e.to_string())?;
    Ok(Proved::Proof { expect })
}

/// A row of `pb` that contradicts "objective ≤ value − 1" on its own, as in a model whose
/// row fixes its objective (the Circuit Board's tree row (5.1d), Σ x = |V| − 1): its
/// terms `a` are a positive multiple of the objective's `c` (`q·a = p·c`, p and q
/// positive), so `p·(c x ≤ value − 1) + q·(a x ≥ b)` reads `0 ≥ q·b − p·(value − 1)`, no
/// point meets it when the right side is positive. Returns the row's proof number (an
/// `=` row's `≥` half, or its `≤` half read as `−a x ≥ −b`) and (p, q).
fn contradicting_row(pb: &PbModel, value: i64) -> Option<(usize, usize, usize)> {
    let mut c = pb.objective.clone();
    c.sort_unstable();
    let &(_, c0) = c.first()?;
    let mut id = 1;
    for row in &pb.constraints {
        // Only a row with as many terms as the objective can be a multiple of it.
        let halves: &[(i64, usize)] = if row.terms.len() != c.len() {
            &[]
        } else if row.equal {
            &[(1, 0), (-1, 1)]
        } else {
            &[(1, 0)]
        };
        for &(sign, offset) in halves {
            let mut a: Vec<(usize, i64)> = row.terms.iter().map(|&(j, w)| (j, sign * w)).collect();
            a.sort_unstable();
            let b = sign * row.rhs;
            let Some(&(_, a0)) = a.first() else { continue };
            if a0.signum() != c0.signum() {
                continue;
            }
            let g = gcd(a0.abs() as isize, c0.abs() as isize) as i64;
            let (p, q) = (a0.abs() / g, c0.abs() / g);
            let proportional = a
                .iter()
                .zip(&c)
                .all(|(&(ja, wa), &(jc, wc))| ja == jc && q * wa == p * wc);
            if proportional && q * b > p * (value - 1) {
                return Some((id + offset, p as usize, q as usize));
            }
        }
        id += if row.equal { 2 } else { 1 };
    }
    None
}
