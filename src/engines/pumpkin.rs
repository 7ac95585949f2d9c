//! `pumpkin`: the Pumpkin lazy clause generation solver (the `pumpkin-solver` crate, TU
//! Delft's ConSol Lab), in process, for models whose columns are 0/1 or bounded integers and
//! whose rows have whole coefficients.
//!
//! Where [`super::sat`] encodes every row into clauses before the search, Pumpkin keeps each
//! row as a linear propagator over the columns and explains a propagation by a clause only
//! when a conflict needs it (lazy clause generation); learnt no-goods, restarts and
//! activity-based branching are as in a SAT solver.
//!
//! * **Model**: each column is an integer variable with its bounds (a 0/1 column has domain
//!   {0, 1}); each row is one linear propagator per finite side, `Σ a·x ≤ upper` and
//!   `Σ a·x ≥ lower`, or one equality when both sides are equal. Coefficients, bounds and
//!   sides must be whole and fit in 32 bits (Pumpkin's integers); a model that does not is
//!   refused with the row or column that breaks it, before anything is built.
//! * **Objective**: a new variable `z` with `Σ c·x − z = 0`, minimised (or maximised) by
//!   Pumpkin's solution-improving search (`LinearSatUnsat`): after each solution the bound
//!   on `z` is tightened and the search goes on, keeping its no-goods; when none is better
//!   the last is optimal. At the time limit the best solution stays, as `time_limit` with
//!   its objective and no bound (this search proves none short of the optimum). A model
//!   without objective is one `satisfy` call.
//! * **Row generation** (and counting, which adds a no-good row per solution) is the shared
//!   loop of [`super::row_generation`]: each round a fresh solver on the grown model.
//!   Lazy rows are not taken (this engine keeps no solver across rounds).
//! * **Figures**: `nodes` holds Pumpkin's decisions, `conflicts` its failures (conflicts),
//!   both read from the statistics it logs at the end of a solve.
//! * **Settings**: the time limit stops the search from inside the solver (its termination
//!   condition asks the run's budget); the seed seeds Pumpkin's random generator (its default
//!   is 42). Pumpkin has one thread: `threads` is not applied, nor presolve (it has none) or
//!   a gap.

use super::{
    Budget, Capabilities, Clock, Declaration, Engine, EngineImpl, Kind, Outcome, Settings, Status,
};
use crate::model::{Model, Sense};
use crate::progress;
use pumpkin_conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_solver::core::optimisation::linear_sat_unsat::LinearSatUnsat;
use pumpkin_solver::core::optimisation::OptimisationDirection;
use pumpkin_solver::core::options::SolverOptions;
use pumpkin_solver::core::rand::rngs::SmallRng;
use pumpkin_solver::core::rand::SeedableRng;
use pumpkin_solver::core::results::{
    OptimisationResult, ProblemSolution, SatisfactionResult, SolutionReference,
};
use pumpkin_solver::core::termination::TerminationCondition;
use pumpkin_solver::core::variables::{AffineView, DomainId, TransformableVariable};
use pumpkin_solver::core::{DefaultBrancher, Solver};
use std::cell::RefCell;
use std::io::Write;
use std::ops::ControlFlow;
use std::time::Instant;

/// The engine.
pub const PUMPKIN: Engine = Engine::new(&Pumpkin);

/// Pumpkin on the rows of a model, each a linear propagator.
pub struct Pumpkin;

static DECLARATION: Declaration = Declaration {
    key: "pumpkin",
    description: "Pumpkin lazy clause generation solver (pumpkin-solver crate), in process: 0/1 and bounded integer models with whole coefficients, each row a linear propagator explained by clauses on demand; objectives by solution-improving search",
    capabilities: Capabilities {
        kinds: &[Kind::Mip, Kind::RowGeneration],
        continuous: false,
        general_integers: true,
        fractional_coefficients: false,
        lp_relaxation: false,
        incumbent_at_limit: true,
        clock: Clock::Wall,
        presolve: false,
        seed: true,
        threads: false,
        mip_gap: false,
        heuristics: false,
        clausal: false,
        external: false,
        general: true,
        timeline: true,
    },
};

/// The version of the `pumpkin-solver` crate this build links, as Cargo.lock pins it
/// (read by build.rs).
const CRATE_VERSION: &str = env!("PUZZLEBENCH_PUMPKIN_VERSION");

impl EngineImpl for Pumpkin {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        format!("Pumpkin {CRATE_VERSION} (pumpkin-solver crate)")
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        Integral::of(model).err()
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        solve(model, settings, budget)
    }
}

/// A sum's terms: (column, coefficient).
type Terms = Vec<(usize, i32)>;

/// A model's numbers as Pumpkin takes them: every bound, coefficient and side whole and
/// within 32 bits.
struct Integral {
    /// (lower, upper) by column.
    bounds: Vec<(i32, i32)>,
    /// By row: its terms, lower side, upper side.
    rows: Vec<(Terms, Option<i32>, Option<i32>)>,
    /// The objective's terms, minimised (the coefficients of a maximised
    /// objective are negated), and the objective's range over the bounds.
    objective: Option<(Terms, i32, i32)>,
    /// A row left without free columns whose sides its constant breaks, if any.
    empty_violated: Option<String>,
}

/// `x` as a 32-bit integer, or why not.
fn int(x: f64, what: impl Fn() -> String) -> Result<i32, String> {
    if x.fract() != 0.0 {
        return Err(format!("{} is not whole ({x})", what()));
    }
    if x < i32::MIN as f64 || x > i32::MAX as f64 {
        return Err(format!("{} ({x}) does not fit in 32 bits", what()));
    }
    Ok(x as i32)
}

impl Integral {
    /// The numbers of `model`, or the first that Pumpkin cannot take.
    fn of(model: &Model) -> Result<Integral, String> {
        let mut bounds = Vec::with_capacity(model.vars.len());
        for v in &model.vars {
            if !v.lower.is_finite() || !v.upper.is_finite() {
                return Err(format!("variable {} has no finite bounds", v.name));
            }
            bounds.push((
                int(v.lower.ceil(), || format!("the lower bound of {}", v.name))?,
                int(v.upper.floor(), || format!("the upper bound of {}", v.name))?,
            ));
        }
        let mut rows = Vec::with_capacity(model.rows.len());
        let mut empty_violated = None;
        for r in &model.rows {
            // Pumpkin's linear propagator needs a column it can watch: zero coefficients
            // are dropped, and fixed columns (lower = upper) moved into the sides.
            let mut terms = Vec::with_capacity(r.terms.len());
            let mut constant = 0i64;
            for &(v, a) in &r.terms {
                let a = int(a, || format!("a coefficient of row {}", r.name))?;
                let (l, u) = bounds[v.0];
                if a == 0 {
                    continue;
                } else if l == u {
                    constant += a as i64 * l as i64;
                } else {
                    terms.push((v.0, a));
                }
            }
            let side = |s: f64, which: &str| -> Result<Option<i32>, String> {
                if s.is_finite() {
                    int(s - constant as f64, || {
                        format!("the {which} side of row {}", r.name)
                    })
                    .map(Some)
                } else {
                    Ok(None)
                }
            };
            let (lower, upper) = (side(r.lower, "lower")?, side(r.upper, "upper")?);
            if terms.is_empty() {
                if lower.is_some_and(|l| l > 0) || upper.is_some_and(|u| u < 0) {
                    empty_violated.get_or_insert_with(|| r.name.to_string());
                }
                continue;
            }
            rows.push((terms, lower, upper));
        }
        let sign = match model.sense {
            Sense::Minimize => 1.0,
            Sense::Maximize => -1.0,
        };
        let mut terms = Vec::new();
        let (mut lo, mut hi) = (0i64, 0i64);
        for (j, v) in model.vars.iter().enumerate() {
            // Fixed columns add a constant, which does not change which solution is best.
            if v.objective == 0.0 || bounds[j].0 == bounds[j].1 {
                continue;
            }
            let c = int(sign * v.objective, || {
                format!("the objective coefficient of {}", v.name)
            })?;
            let (l, u) = (c as i64 * bounds[j].0 as i64, c as i64 * bounds[j].1 as i64);
            lo += l.min(u);
            hi += l.max(u);
            terms.push((j, c));
        }
        let objective = if terms.is_empty() {
            None
        } else {
            let range = |x: i64| int(x as f64, || "the objective's range".to_string());
            Some((terms, range(lo)?, range(hi)?))
        };
        Ok(Integral {
            bounds,
            rows,
            objective,
            empty_violated,
        })
    }
}

/// Stops Pumpkin's search at the run's deadline.
struct Deadline(Option<Instant>);

impl TerminationCondition for Deadline {
    fn should_stop(&mut self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }
}

thread_local! {
    /// What Pumpkin's statistics logger wrote on this thread since it was last taken.
    static LOGGED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The writer Pumpkin's statistics go to: this thread's buffer, so that runs on several
/// threads keep their figures apart.
struct ThreadBuffer;

impl Write for ThreadBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        LOGGED.with(|l| l.borrow_mut().extend_from_slice(buf));
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Pumpkin's decisions and conflicts so far, from the statistics it logs.
fn figures(
    solver: &Solver,
    brancher: &DefaultBrancher,
    resolver: &ResolutionResolver,
) -> (Option<u64>, Option<u64>) {
    static CONFIGURED: std::sync::Once = std::sync::Once::new();
    CONFIGURED.call_once(|| {
        pumpkin_solver::core::statistics::configure_statistic_logging(
            "%%pumpkin",
            None,
            None,
            Some(Box::new(ThreadBuffer)),
        )
    });
    LOGGED.with(|l| l.borrow_mut().clear());
    solver.log_statistics(brancher, resolver, false);
    let text = LOGGED.with(|l| String::from_utf8_lossy(&l.take()).into_owned());
    let read = |name: &str| {
        text.lines()
            .filter_map(|l| l.strip_prefix("%%pumpkin "))
            .filter_map(|l| l.split_once('='))
            .find(|(k, _)| *k == name)
            .and_then(|(_, v)| v.trim().parse::<u64>().ok())
    };
    (read("nodes"), read("failures"))
}

/// Builds the solver for `model` and searches.
fn solve(model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let start = Instant::now();
    if budget.expired() {
        return Outcome::time_limit(0.0);
    }
    let numbers = match Integral::of(model) {
        Ok(n) => n,
        Err(e) => return Outcome::refused(format!("unsupported by pumpkin: {e}"), 0.0),
    };
    let mut options = SolverOptions::default();
    if let Some(seed) = settings.seed {
        options.random_generator = SmallRng::seed_from_u64(seed);
    }
    let mut solver = Solver::with_options(options);
    let columns: Vec<DomainId> = numbers
        .bounds
        .iter()
        .map(|&(l, u)| solver.new_bounded_integer(l, u))
        .collect();
    let view = |terms: &[(usize, i32)], sign: i32| -> Vec<AffineView<DomainId>> {
        terms
            .iter()
            .map(|&(j, a)| columns[j].scaled(sign * a))
            .collect()
    };
    for (terms, lower, upper) in &numbers.rows {
        let tag = solver.new_constraint_tag();
        match (lower, upper) {
            (Some(l), Some(u)) if l == u => solver
                .add_constraint(pumpkin_constraints::equals(view(terms, 1), *u, tag))
                .post(),
            _ => {
                if let Some(u) = upper {
                    solver
                        .add_constraint(pumpkin_constraints::less_than_or_equals(
                            view(terms, 1),
                            *u,
                            tag,
                        ))
                        .post();
                }
                if let Some(l) = lower {
                    solver
                        .add_constraint(pumpkin_constraints::less_than_or_equals(
                            view(terms, -1),
                            -*l,
                            tag,
                        ))
                        .post();
                }
            }
        }
    }
    let objective = numbers.objective.as_ref().map(|(terms, lo, hi)| {
        let z = solver.new_bounded_integer(*lo, *hi);
        let mut sum = view(terms, 1);
        sum.push(z.scaled(-1));
        let tag = solver.new_constraint_tag();
        solver
            .add_constraint(pumpkin_constraints::equals(sum, 0, tag))
            .post();
        z
    });
    // Posting stops at the first row that the root's propagation finds violated.
    let infeasible_at_root = solver.is_inconsistent() || numbers.empty_violated.is_some();
    if infeasible_at_root {
        return Outcome {
            nodes: Some(0),
            conflicts: Some(0),
            ..Outcome::infeasible(start.elapsed().as_secs_f64())
        };
    }
    let values_of = |s: &dyn Fn(DomainId) -> i32| -> Vec<f64> {
        columns.iter().map(|&c| f64::from(s(c))).collect()
    };
    let mut brancher = solver.default_brancher();
    let mut resolver = ResolutionResolver::default();
    let mut stop = Deadline(budget.deadline());
    let (status, best, figures) = match objective {
        None => match solver.satisfy(&mut brancher, &mut stop, &mut resolver) {
            SatisfactionResult::Satisfiable(s) => {
                let x = values_of(&|c| s.solution().get_integer_value(c));
                let f = figures(s.solver(), s.brancher(), s.conflict_resolver());
                (Status::Optimal, Some(x), f)
            }
            SatisfactionResult::Unsatisfiable(s, b, r) => {
                (Status::Infeasible, None, figures(s, b, r))
            }
            SatisfactionResult::Unknown(s, b, r) => (Status::TimeLimit, None, figures(s, b, r)),
        },
        Some(z) => {
            let direction = OptimisationDirection::Minimise;
            let callback = |_: &Solver,
                            s: SolutionReference,
                            _: &DefaultBrancher,
                            _: &ResolutionResolver|
             -> ControlFlow<()> {
                let x = values_of(&|c| s.get_integer_value(c));
                let value = model.objective_value(&x);
                budget.incumbent(value);
                if progress::watching() {
                    progress::report(Some(value), None, None);
                }
                ControlFlow::Continue(())
            };
            let result = solver.optimise(
                &mut brancher,
                &mut stop,
                &mut resolver,
                LinearSatUnsat::new(direction, z, callback),
            );
            let f = figures(&solver, &brancher, &resolver);
            match result {
                OptimisationResult::Optimal(s) => (
                    Status::Optimal,
                    Some(values_of(&|c| s.get_integer_value(c))),
                    f,
                ),
                OptimisationResult::Satisfiable(s) | OptimisationResult::Stopped(s, ()) => (
                    Status::TimeLimit,
                    Some(values_of(&|c| s.get_integer_value(c))),
                    f,
                ),
                OptimisationResult::Unsatisfiable => (Status::Infeasible, None, f),
                OptimisationResult::Unknown => (Status::TimeLimit, None, f),
            }
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    Outcome {
        objective: best.as_deref().map(|v| model.objective_value(v)),
        values: best,
        nodes: figures.0,
        conflicts: figures.1,
        ..Outcome::with_status(status, seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::test_models::{brute_force, model_of};
    use crate::engines::SolveOptions;
    use crate::model::VarKind;
    use proptest::prelude::*;

    #[test]
    fn a_weighted_knapsack_is_solved_to_optimality() {
        let m = model_of(
            4,
            (0, 1),
            &[8, 11, 6, 4],
            Sense::Maximize,
            &[(vec![5, 7, 4, 3], f64::NEG_INFINITY, 14.0)],
        );
        let o = PUMPKIN.solve_model(&m, &SolveOptions::default());
        assert_eq!(o.status, Status::Optimal, "{o:?}");
        assert_eq!(o.objective, Some(21.0));
        assert_eq!((o.best_bound, o.gap), (Some(21.0), Some(0.0)));
        assert!(o.nodes.is_some() && o.conflicts.is_some(), "{o:?}");
    }

    #[test]
    fn refusals_name_the_column_or_row() {
        let mut m = model_of(1, (0, 1), &[1], Sense::Minimize, &[]);
        m.add_var("free", VarKind::Integer, 0.0, f64::INFINITY, 0.0);
        let o = PUMPKIN.solve_model(&m, &SolveOptions::default());
        assert_eq!(o.status, Status::Refused);
        assert!(o
            .message
            .unwrap()
            .contains("variable free has no finite bounds"));
        let mut big = model_of(
            2,
            (0, 1),
            &[0, 0],
            Sense::Minimize,
            &[(vec![1, 1], 0.0, 1.0)],
        );
        big.rows[0].upper = 5e9;
        let o = PUMPKIN.solve_model(&big, &SolveOptions::default());
        assert_eq!(o.status, Status::Refused);
        assert!(o.message.unwrap().contains("the upper side of row r0"));
    }

    #[test]
    fn infeasible_at_the_root_and_by_search() {
        let root = model_of(
            2,
            (0, 1),
            &[0, 0],
            Sense::Minimize,
            &[(vec![1, 1], 3.0, 3.0)],
        );
        assert_eq!(
            PUMPKIN.solve_model(&root, &SolveOptions::default()).status,
            Status::Infeasible
        );
        let odd = model_of(
            3,
            (0, 1),
            &[0, 0, 0],
            Sense::Minimize,
            &[
                (vec![1, 1, 0], 1.0, 1.0),
                (vec![0, 1, 1], 1.0, 1.0),
                (vec![1, 0, 1], 1.0, 1.0),
            ],
        );
        assert_eq!(
            PUMPKIN.solve_model(&odd, &SolveOptions::default()).status,
            Status::Infeasible
        );
    }

    #[test]
    fn an_expired_budget_ends_at_once() {
        let m = model_of(2, (0, 1), &[1, 1], Sense::Minimize, &[]);
        let o = PUMPKIN.solve_model(
            &m,
            &SolveOptions {
                time_limit: Some(0.0),
                ..SolveOptions::default()
            },
        );
        assert_eq!(o.status, Status::TimeLimit);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The optimum (or infeasibility) agrees with enumeration on small models, 0/1 and
        /// integer.
        #[test]
        fn random_models_agree_with_brute_force(
            obj in proptest::collection::vec(-3i64..=3, 4),
            maximize in any::<bool>(),
            integer in any::<bool>(),
            rows in proptest::collection::vec(
                (proptest::collection::vec(-2i64..=2, 4), -3i64..=3, 0i64..=4),
                0..=4,
            ),
        ) {
            let range = if integer { (-1, 2) } else { (0, 1) };
            let rows: Vec<(Vec<i64>, f64, f64)> = rows
                .into_iter()
                .map(|(c, lo, w)| (c, lo as f64, (lo + w) as f64))
                .collect();
            let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
            let m = model_of(4, range, &obj, sense, &rows);
            let o = PUMPKIN.solve_model(&m, &SolveOptions::default());
            match brute_force(&m, range) {
                None => prop_assert_eq!(o.status, Status::Infeasible),
                Some(best) => {
                    prop_assert_eq!(o.status, Status::Optimal);
                    prop_assert_eq!(o.objective, Some(best));
                    prop_assert!(m.feasible(o.values.as_ref().unwrap()));
                }
            }
        }
    }
}
