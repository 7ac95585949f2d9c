//! `sat`: the CaDiCaL SAT solver (through the rustsat crates, which build CaDiCaL from
//! their own sources), in process, for models whose columns are all 0/1 and whose rows
//! have whole coefficients. The model is encoded to clauses by [`super::cnf`].
//!
//! * **Objective**: minimised by solution-improving search. After each solution of cost c
//!   (the objective written over literals with positive weights, as [`super::cnf`] writes
//!   rows) the clauses of "cost ≤ c − 1" are added (rustsat's incremental totalizer when
//!   all weights are equal, its generalised totalizer otherwise) and the solver goes on;
//!   when no better solution exists the last one is optimal. An objective that an equality
//!   row fixes (Σ x_e = |V| − 1 and min Σ x_e in the Circuit Board's cm1) needs no search:
//!   its first solution is optimal, and the row's name is the proof. At the time limit
//!   the best solution stays, as `time_limit` with its objective and no bound (a SAT
//!   solver proves no bound short of the optimum).
//! * **Rows added while solving** (row generation, lazy rows, the no-good rows of
//!   counting): one solver for the whole run. Every solution goes to the separator; the
//!   rows it returns are encoded into the same solver, which keeps its learnt clauses, and
//!   the search goes on; a solution it accepts is a solution of the whole problem (so it
//!   may also bound the objective). `rounds` counts the solver calls, `cuts` the rows
//!   added. Search hints (probing) are for engines with a branching search of their own
//!   and are ignored here.
//! * **Figures**: `nodes` holds CaDiCaL's decisions, `conflicts` its conflicts (both over
//!   the whole run), `clauses` and `aux_variables` the size of the encoding as the solver
//!   finally held it (model rows, added rows and objective bounds; auxiliary variables are
//!   those beyond the model's columns).
//! * **Settings**: the time limit stops the search from inside the solver (CaDiCaL's
//!   terminate callback asks the run's budget); the seed s becomes CaDiCaL's `seed`
//!   option s mod (2^31 − 1). CaDiCaL has one thread: `threads` is not applied (the row
//!   leaves it empty), nor presolve or a gap.
//! * **CaDiCaL's configuration**: its defaults but one, `preprocesslight=0`: no light
//!   preprocessing (gate extraction, binary backbone, SAT sweeping, fast elimination)
//!   before the first search. Puzzles are small formulas that CaDiCaL solves in tens or
//!   hundreds of conflicts, and that preprocessing took most of a run: on one instance
//!   set per puzzle (nine puzzles, 3 repeats, docs/engines.md), the shifted geometric
//!   mean fell 1.5–3× on every puzzle but n-Queens and Sudoku (within noise). The inprocessing
//!   during the search (elimination, probing, vivification, ...) is left as it is, so a
//!   long search still simplifies its formula.

use super::cnf::{self, Encoder};
use super::Status;
use super::{
    Budget, Capabilities, Clock, Declaration, Engine, EngineImpl, Kind, Outcome, Settings,
};
use crate::lazy::{Cut, SearchHints, Separator};
use crate::model::{Model, Name, Sense, VarId};
use crate::progress;
use rustsat::encodings::card::{BoundUpper as _, BoundUpperIncremental as _, Totalizer};
use rustsat::encodings::pb::{BoundUpper as _, BoundUpperIncremental as _, GeneralizedTotalizer};
use rustsat::solvers::{
    ControlSignal, GetInternalStats, Solve, SolveStats, SolverResult, Terminate,
};
use rustsat::types::{Clause, Lit, TernaryVal};
use rustsat_cadical::CaDiCaL;
use std::time::Instant;

/// The engine.
pub const SAT: Engine = Engine::new(&Sat);

/// CaDiCaL on the CNF encoding of a model.
pub struct Sat;

static DECLARATION: Declaration = Declaration {
    key: "sat",
    description: "CaDiCaL SAT solver (rustsat), in process: 0/1 models with whole coefficients, encoded to clauses; objectives by solution-improving search",
    capabilities: Capabilities {
        kinds: &[Kind::Mip, Kind::RowGeneration, Kind::LazyRows],
        continuous: false,
        general_integers: false,
        fractional_coefficients: false,
        lp_relaxation: false,
        incumbent_at_limit: true,
        clock: Clock::Wall,
        presolve: false,
        seed: true,
        threads: false,
        mip_gap: false,
        heuristics: false,
        clausal: true,
        external: false,
        general: true,
        timeline: true,
    },
};

/// "CaDiCaL 2.x.y (rustsat)", read once from the linked solver.
pub fn version() -> String {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION
        .get_or_init(|| {
            let s = CaDiCaL::default();
            let sig = s.signature();
            let v = sig.strip_prefix("cadical-").unwrap_or(sig);
            format!("CaDiCaL {v} (rustsat)")
        })
        .clone()
}

impl EngineImpl for Sat {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        version()
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        search(model, None, settings, budget).0
    }

    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        search_growing(model, separator, settings, budget)
    }

    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        _hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        search_growing(model, separator, settings, budget)
    }
}

/// The search with a separator; the rows it adds are appended to `model`.
fn search_growing(
    model: &mut Model,
    separator: &mut dyn Separator,
    settings: &Settings,
    budget: &Budget,
) -> Outcome {
    let (o, added) = search(model, Some(separator), settings, budget);
    for (i, r) in added.into_iter().enumerate() {
        model.add_row(Name::idx("row", &[i + 1]), r.terms, r.lower, r.upper);
    }
    o
}

/// The objective as literals with positive weights (minimised), when it is not constant
/// (also the `cadical-lin` engine's).
pub(super) struct Goal {
    /// (literal, weight) with weight > 0.
    pub(super) lits: Vec<(Lit, usize)>,
    /// The equality row that fixes its value on every solution, if there is one.
    pub(super) fixed_by: Option<String>,
}

impl Goal {
    /// The objective of `model` over the columns `enc` left free (fixed ones add a
    /// constant, which does not change which solution is best).
    pub(super) fn of(model: &Model, enc: &Encoder) -> Result<Option<Goal>, String> {
        let sign = match model.sense {
            Sense::Minimize => 1.0,
            Sense::Maximize => -1.0,
        };
        let mut lits = Vec::new();
        let mut support = Vec::new();
        for (j, v) in model.vars.iter().enumerate() {
            if v.objective == 0.0 {
                continue;
            }
            support.push((VarId(j), v.objective));
            if enc.fixed(j).is_some() {
                continue;
            }
            let d = cnf::whole(sign * v.objective)
                .map_err(|_| format!("the objective coefficient of {} is 2^53 or more", v.name))?;
            let (l, w) = cnf::positive_term(VarId(j), d);
            lits.push((l, w as usize));
        }
        if lits.is_empty() {
            return Ok(None);
        }
        // An equality row over exactly the objective's columns, with proportional
        // coefficients, fixes the objective's value.
        let fixed_by = model
            .rows
            .iter()
            .filter(|r| r.lower == r.upper && r.terms.len() == support.len())
            .find(|r| {
                let ratio = support[0].1 / r.terms[0].1;
                r.terms
                    .iter()
                    .zip(&support)
                    .all(|(t, s)| t.0 == s.0 && (s.1 - ratio * t.1).abs() <= 1e-9 * s.1.abs())
            })
            .map(|r| r.name.to_string());
        Ok(Some(Goal { lits, fixed_by }))
    }

    /// The cost of a solution (values by column): Σ weights of the true literals.
    pub(super) fn cost(&self, x: &[f64]) -> usize {
        self.lits
            .iter()
            .filter(|(l, _)| (x[l.var().idx()] > 0.5) != l.is_neg())
            .map(|(_, w)| w)
            .sum()
    }
}

/// The incremental encoding that bounds the cost from above.
enum Bound {
    /// All weights equal to the given one: a totalizer over the literals.
    Cardinality(Totalizer, usize),
    /// A generalised totalizer over the weighted literals.
    Weighted(GeneralizedTotalizer),
}

impl Bound {
    fn new(goal: &Goal) -> Bound {
        let w = goal.lits[0].1;
        if goal.lits.iter().all(|&(_, wi)| wi == w) {
            Bound::Cardinality(goal.lits.iter().map(|&(l, _)| l).collect(), w)
        } else {
            Bound::Weighted(goal.lits.iter().copied().collect())
        }
    }

    /// Adds the clauses that force cost ≤ `ub` to `solver`.
    fn force(&mut self, ub: usize, solver: &mut CaDiCaL, enc: &mut Encoder) -> Result<(), String> {
        let units = match self {
            Bound::Cardinality(t, w) => {
                let k = ub / *w;
                t.encode_ub_change(k..=k, solver, enc.vars())
                    .map_err(|e| e.to_string())?;
                t.enforce_ub(k).map_err(|e| e.to_string())?
            }
            Bound::Weighted(g) => {
                g.encode_ub_change(ub..=ub, solver, enc.vars())
                    .map_err(|e| e.to_string())?;
                g.enforce_ub(ub).map_err(|e| e.to_string())?
            }
        };
        for u in units {
            solver
                .add_clause(Clause::from([u]))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// A new CaDiCaL with the seed applied, the budget's deadline as its terminator, and no
/// light preprocessing before the first search (`preprocesslight=0`; see the module's
/// Settings).
fn new_solver(settings: &Settings, budget: &Budget) -> CaDiCaL<'static, 'static> {
    let mut solver = CaDiCaL::default();
    if let Some(seed) = settings.seed {
        let s = (seed % (i32::MAX as u64)) as i32;
        solver
            .set_option("seed", s)
            .expect("CaDiCaL has a seed option");
    }
    solver
        .set_option("preprocesslight", 0)
        .expect("CaDiCaL has a preprocesslight option");
    if let Some(deadline) = budget.deadline() {
        solver.attach_terminator(move || {
            if Instant::now() >= deadline {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
    }
    solver
}

/// How encoding a model ended.
pub enum Encoded {
    /// The solver with every row of the model, and the encoder (with the fixings).
    Ready(CaDiCaL<'static, 'static>, Encoder),
    /// The fixings found that no solution exists; the row or bound that says so.
    Infeasible(String),
}

/// Finds the fixed columns and encodes `model` into a new solver. The error names the row
/// that could not be encoded.
pub fn encode(model: &Model, settings: &Settings, budget: &Budget) -> Result<Encoded, String> {
    let fixed = match cnf::fixings(model) {
        Ok(f) => f,
        Err(why) => return Ok(Encoded::Infeasible(why)),
    };
    let mut solver = new_solver(settings, budget);
    let mut enc = Encoder::new(fixed);
    enc.model(model, &mut solver)?;
    Ok(Encoded::Ready(solver, enc))
}

/// The search: encode, solve, hand each solution to the separator (the rows it returns
/// are encoded, and returned beside the outcome), bound the objective after each accepted
/// solution, until the solver finds none (or the budget ends).
fn search(
    model: &Model,
    mut separator: Option<&mut dyn Separator>,
    settings: &Settings,
    budget: &Budget,
) -> (Outcome, Vec<Cut>) {
    let start = Instant::now();
    let mut added = Vec::new();
    if budget.expired() {
        return (Outcome::time_limit(0.0), added);
    }
    let (mut solver, mut enc) = match encode(model, settings, budget) {
        Ok(Encoded::Ready(s, e)) => (s, e),
        Ok(Encoded::Infeasible(_)) => {
            let o = Outcome {
                nodes: Some(0),
                conflicts: Some(0),
                clauses: Some(0),
                aux_variables: Some(0),
                ..Outcome::infeasible(start.elapsed().as_secs_f64())
            };
            return (o, added);
        }
        Err(e) => {
            return (
                Outcome::refused(format!("unsupported by sat: {e}"), 0.0),
                added,
            )
        }
    };
    let goal = match Goal::of(model, &enc) {
        Ok(g) => g,
        Err(e) => {
            return (
                Outcome::refused(format!("unsupported by sat: {e}"), 0.0),
                added,
            )
        }
    };
    let mut bound = goal
        .as_ref()
        .filter(|g| g.fixed_by.is_none())
        .map(Bound::new);
    let n = model.vars.len();
    let mut best: Option<Vec<f64>> = None;
    let mut rounds = 0u64;
    let mut separating = 0.0;
    // Err: the status (`error` or `refused`) and its reason.
    let ending: Result<Status, (Status, String)> = loop {
        if budget.expired() {
            break Ok(Status::TimeLimit);
        }
        rounds += 1;
        match solver.solve() {
            Ok(SolverResult::Sat) => {}
            Ok(SolverResult::Unsat) if best.is_some() => break Ok(Status::Optimal),
            Ok(SolverResult::Unsat) => break Ok(Status::Infeasible),
            Ok(SolverResult::Interrupted) => break Ok(Status::TimeLimit),
            Err(e) => break Err((Status::Error, format!("CaDiCaL: {e}"))),
        }
        let value = |l: Lit| solver.lit_val(l).is_ok_and(|v| v == TernaryVal::True);
        let x: Vec<f64> = (0..n)
            .map(|j| enc.fixed(j).unwrap_or_else(|| value(cnf::lit(VarId(j)))))
            .map(|b| f64::from(u8::from(b)))
            .collect();
        if let Some(sep) = separator.as_deref_mut() {
            let asked = Instant::now();
            let rows = sep.separate(&x, true);
            separating += asked.elapsed().as_secs_f64();
            if !rows.is_empty() {
                if let Some(e) = rows
                    .iter()
                    .find_map(|r| enc.row(&r.terms, r.lower, r.upper, &mut solver).err())
                {
                    break Err((
                        Status::Refused,
                        format!("unsupported by sat: a row added while solving has {e}"),
                    ));
                }
                added.extend(rows);
                continue;
            }
        }
        if progress::watching() {
            progress::report(
                Some(model.objective_value(&x)),
                None,
                Some(solver.decisions() as u64),
            );
        }
        let cost = goal.as_ref().map(|g| g.cost(&x));
        budget.incumbent(model.objective_value(&x));
        best = Some(x);
        match (cost, bound.as_mut()) {
            (Some(c), Some(b)) if c > 0 => {
                if let Err(e) = b.force(c - 1, &mut solver, &mut enc) {
                    break Err((Status::Error, format!("bounding the objective: {e}")));
                }
            }
            _ => break Ok(Status::Optimal),
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let mut o = match ending {
        Ok(status) => Outcome {
            objective: best.as_deref().map(|v| model.objective_value(v)),
            values: best,
            ..Outcome::with_status(status, seconds)
        },
        Err((status, e)) => Outcome {
            message: Some(e),
            ..Outcome::with_status(status, seconds)
        },
    };
    o.nodes = Some(solver.decisions() as u64);
    o.conflicts = Some(solver.conflicts() as u64);
    o.clauses = Some(solver.n_clauses() as u64);
    o.aux_variables = Some(enc.aux_variables());
    if separator.is_some() {
        o.rounds = Some(rounds);
        o.cuts = Some(added.len() as u64);
        o.separator_seconds = Some(separating);
    }
    (o, added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::test_models::{
        binary_brute_force as brute_force, binary_model as model_of,
    };
    use crate::engines::SolveOptions;
    use proptest::prelude::*;

    fn settings() -> Settings {
        SAT.settings(Kind::Mip, &SolveOptions::default())
    }

    #[test]
    fn a_weighted_knapsack_is_solved_to_optimality() {
        // max 8a + 11b + 6c + 4d, 5a + 7b + 4c + 3d <= 14: optimum 21 (b, c, d).
        let m = model_of(
            4,
            &[8, 11, 6, 4],
            Sense::Maximize,
            &[(vec![5, 7, 4, 3], f64::NEG_INFINITY, 14.0)],
        );
        let o = SAT.solve_model(&m, &SolveOptions::default());
        assert_eq!(o.status, Status::Optimal, "{o:?}");
        assert_eq!(o.objective, Some(21.0));
        assert_eq!((o.best_bound, o.gap), (Some(21.0), Some(0.0)));
        assert!(o.clauses.unwrap() > 0 && o.conflicts.is_some() && o.nodes.is_some());
    }

    #[test]
    fn an_objective_fixed_by_an_equality_row_needs_no_bounding() {
        let m = model_of(
            4,
            &[1, 1, 1, 1],
            Sense::Minimize,
            &[(vec![1, 1, 1, 1], 2.0, 2.0)],
        );
        let goal = Goal::of(&m, &Encoder::new(vec![None; 4])).unwrap().unwrap();
        assert_eq!(goal.fixed_by.as_deref(), Some("r0"));
        let o = SAT.solve_model(&m, &SolveOptions::default());
        assert_eq!((o.status, o.objective), (Status::Optimal, Some(2.0)));
        // Not proportional: bounded by search.
        let m = model_of(
            4,
            &[1, 2, 1, 1],
            Sense::Minimize,
            &[(vec![1, 1, 1, 1], 2.0, 2.0)],
        );
        assert!(Goal::of(&m, &Encoder::new(vec![None; 4]))
            .unwrap()
            .unwrap()
            .fixed_by
            .is_none());
        assert_eq!(
            SAT.solve_model(&m, &SolveOptions::default()).objective,
            Some(2.0)
        );
    }

    #[test]
    fn infeasible_by_fixings_and_by_search() {
        let by_fixings = model_of(
            2,
            &[0, 0],
            Sense::Minimize,
            &[(vec![1, 1], 3.0, f64::INFINITY)],
        );
        let o = SAT.solve_model(&by_fixings, &SolveOptions::default());
        assert_eq!(o.status, Status::Infeasible);
        // x0 + x1 = 1, x1 + x2 = 1, x0 + x2 = 1: an odd cycle, nothing fixed.
        let odd = model_of(
            3,
            &[0, 0, 0],
            Sense::Minimize,
            &[
                (vec![1, 1, 0], 1.0, 1.0),
                (vec![0, 1, 1], 1.0, 1.0),
                (vec![1, 0, 1], 1.0, 1.0),
            ],
        );
        assert!(cnf::fixings(&odd).unwrap().iter().all(|f| f.is_none()));
        assert_eq!(
            SAT.solve_model(&odd, &SolveOptions::default()).status,
            Status::Infeasible
        );
    }

    #[test]
    fn refused_models_name_their_reason() {
        let mut m = model_of(1, &[1], Sense::Minimize, &[]);
        m.add_var("z", crate::model::VarKind::Integer, 0.0, 5.0, 0.0);
        let o = SAT.solve_model(&m, &SolveOptions::default());
        assert_eq!(o.status, Status::Refused);
        assert_eq!(
            o.message.as_deref(),
            Some("unsupported by sat: variable z is a general integer")
        );
        let half = model_of(
            2,
            &[0, 0],
            Sense::Minimize,
            &[(vec![1, 1], f64::NEG_INFINITY, 1.0)],
        );
        let mut half = half;
        half.rows[0].upper = 1.5;
        let o = SAT.solve_model(&half, &SolveOptions::default());
        assert!(o
            .message
            .unwrap()
            .contains("row r0 has a fractional coefficient"));
    }

    #[test]
    fn an_expired_budget_ends_at_once() {
        let m = model_of(2, &[1, 1], Sense::Minimize, &[]);
        let o = SAT.solve_model(
            &m,
            &SolveOptions {
                time_limit: Some(0.0),
                ..SolveOptions::default()
            },
        );
        assert_eq!(o.status, Status::TimeLimit);
    }

    /// Each solution is handed to the separator; rows it returns join the same solver.
    #[test]
    fn separator_rows_join_the_search() {
        // Without rows: min -x0 - x1 - x2 → all ones. The separator forbids two ones
        // together, one pair at a time, so the optimum becomes -1.
        struct Pairs(u32);
        impl Separator for Pairs {
            fn separate(&mut self, x: &[f64], _: bool) -> Vec<Cut> {
                self.0 += 1;
                let ones: Vec<usize> = (0..3).filter(|&j| x[j] > 0.5).collect();
                if ones.len() < 2 {
                    return Vec::new();
                }
                vec![Cut {
                    terms: vec![(VarId(ones[0]), 1.0), (VarId(ones[1]), 1.0)],
                    lower: f64::NEG_INFINITY,
                    upper: 1.0,
                }]
            }
        }
        let mut m = model_of(3, &[-1, -1, -1], Sense::Minimize, &[]);
        let mut sep = Pairs(0);
        let o = SAT.solve(
            crate::engines::Problem::RowGeneration(&mut m, &mut sep),
            &settings(),
            &Budget::unlimited(),
        );
        assert_eq!(
            (o.status, o.objective),
            (Status::Optimal, Some(-1.0)),
            "{o:?}"
        );
        assert!(o.cuts.unwrap() >= 2 && o.rounds.unwrap() > o.cuts.unwrap());
        assert_eq!(
            m.rows.len() as u64,
            o.cuts.unwrap(),
            "rows appended to the model"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The optimum (or infeasibility) agrees with enumeration on random small models.
        #[test]
        fn random_models_agree_with_brute_force(
            obj in proptest::collection::vec(-3i64..=3, 5),
            maximize in any::<bool>(),
            rows in proptest::collection::vec(
                (proptest::collection::vec(-2i64..=2, 5), -3i64..=3, 0i64..=4),
                0..=4,
            ),
        ) {
            let rows: Vec<(Vec<i64>, f64, f64)> = rows
                .into_iter()
                .map(|(c, lo, w)| (c, lo as f64, (lo + w) as f64))
                .collect();
            let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
            let m = model_of(5, &obj, sense, &rows);
            let o = SAT.solve_model(&m, &SolveOptions::default());
            match brute_force(&m) {
                None => prop_assert_eq!(o.status, Status::Infeasible),
                Some(best) => {
                    prop_assert_eq!(o.status, Status::Optimal);
                    prop_assert_eq!(o.objective, Some(best));
                    let x = o.values.unwrap();
                    prop_assert_eq!(m.objective_value(&x), best);
                }
            }
        }
    }
}
