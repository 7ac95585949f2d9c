//! The common path of every formulation, whatever the kind: a [`Run`] (the engine, the
//! settings it applies and the run's one [`Budget`]) builds the model (timed), refuses a
//! model the engine cannot take, solves the LP relaxation where the engine has one, hands
//! the problem to the engine, and decodes and verifies the answer into a [`Report`].
//! Formulations call one of [`Run::compact`], [`Run::row_generation`], [`Run::lazy_rows`],
//! [`Run::constraint_program`] or [`Run::count`], and nothing else about solving.

use crate::cp_model::CpModel;
use crate::engines::{Budget, Engine, Kind, Outcome, Problem, Settings, SolveOptions, Status};
use crate::lazy::{Cut, SearchHints, Separator, Tightening};
use crate::model::{Counts, Model, Name, VarId, VarKind};
use std::time::Instant;

/// A decoded and checked answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The solution in the puzzle's JSON shape (README, "Solutions as JSON").
    pub json: serde_json::Value,
    /// The solution drawn as text.
    pub text: String,
    /// `Ok` when the independent verifier accepts it, else its reason.
    pub verdict: Result<(), String>,
}

impl Answer {
    /// The answer of a 0/1 grid (stars, black cells) drawn one row per line, `mark` for
    /// a 1 and `.` for a 0, as text and as JSON `{"grid": [lines]}`, with the verifier's
    /// `verdict`.
    pub fn of_marked_grid(grid: &[Vec<bool>], mark: char, verdict: Result<(), String>) -> Answer {
        let lines = mark_lines(grid, mark);
        Answer {
            verdict,
            text: lines.join("\n") + "\n",
            json: serde_json::json!({ "grid": lines }),
        }
    }

    /// The 0/1 grid of an answer made by [`Answer::of_marked_grid`] with `mark`.
    pub fn marked_grid(&self, mark: char) -> Option<Vec<Vec<bool>>> {
        let lines: Vec<String> = serde_json::from_value(self.json["grid"].clone()).ok()?;
        Some(
            lines
                .iter()
                .map(|l| l.chars().map(|c| c == mark).collect())
                .collect(),
        )
    }
}

/// A 0/1 grid, one row per line: `mark` for a 1, `.` for a 0.
pub fn mark_lines(grid: &[Vec<bool>], mark: char) -> Vec<String> {
    grid.iter()
        .map(|r| r.iter().map(|&b| if b { mark } else { '.' }).collect())
        .collect()
}

/// Everything one run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// The solve: status, objective, bound, gap, nodes, seconds, and the engine's figures
    /// (rounds, rows added, inferences, solutions counted).
    pub outcome: Outcome,
    /// The LP-relaxation solve of the same model on the same engine (or the LP solver
    /// under it), where the engine solves LPs and the relaxation was asked for.
    pub lp: Option<Outcome>,
    /// Seconds spent building the model.
    pub build_seconds: f64,
    /// Size of the model (its last form, for formulations that add rows).
    pub counts: Counts,
    /// The decoded answer, when the solve found a solution.
    pub answer: Option<Answer>,
    /// Variables fixed by deductions before solving (formulations that make them).
    pub fixings: Option<u64>,
}

impl Report {
    /// A run not attempted: status `error` with `reason`, nothing built or solved.
    pub fn refused(reason: String) -> Report {
        Report {
            outcome: Outcome::error(reason, 0.0),
            lp: None,
            build_seconds: 0.0,
            counts: Counts::default(),
            answer: None,
            fixings: None,
        }
    }

    /// `Some(true)` when the verifier accepted the answer, `Some(false)` when it refused it,
    /// `None` when there was no answer to check.
    pub fn verified(&self) -> Option<bool> {
        self.answer.as_ref().map(|a| a.verdict.is_ok())
    }

    /// The LP bound: the LP optimum when the relaxation was solved to optimality.
    pub fn lp_bound(&self) -> Option<f64> {
        self.lp
            .as_ref()
            .filter(|lp| lp.status == Status::Optimal)
            .and_then(|lp| lp.objective)
    }
}

/// One run in progress: the engine, the options asked for, the settings the engine
/// applies, and the budget that started with the run.
pub struct Run<'a> {
    /// The engine.
    pub engine: Engine,
    /// The options asked for.
    pub options: &'a SolveOptions,
    /// The settings the engine applies (what the row records).
    pub settings: Settings,
    /// The run's one time budget.
    pub budget: Budget,
}

impl<'a> Run<'a> {
    /// A run of a formulation of `kind` on `engine`; its budget starts now.
    pub fn new(engine: Engine, kind: Kind, options: &'a SolveOptions) -> Run<'a> {
        Run {
            engine,
            options,
            settings: engine.settings(kind, options),
            budget: Budget::new(options.time_limit),
        }
    }

    /// Builds (timed), refuses a model the engine cannot take, and solves the LP
    /// relaxation when asked for. `Err` holds the refusal report.
    fn prepare<M>(
        &self,
        build: impl FnOnce() -> M,
        model: impl Fn(&M) -> &Model,
    ) -> Result<(M, f64, Option<Outcome>), Box<Report>> {
        let t = Instant::now();
        let built = build();
        let build_seconds = t.elapsed().as_secs_f64();
        let m = model(&built);
        if let Some(reason) = self.engine.model_refusal(m) {
            let mut r = Report::refused(reason);
            r.build_seconds = build_seconds;
            r.counts = m.counts();
            return Err(Box::new(r));
        }
        let lp = if self.options.lp_relaxation {
            self.engine.relaxation(m, &self.settings, &self.budget)
        } else {
            None
        };
        Ok((built, build_seconds, lp))
    }

    /// The report of a solve: the answer decoded from the outcome's values when it holds
    /// a solution (optimal, feasible, or an incumbent at the time limit, verified like any
    /// other; the run stays `time_limit`).
    fn report(
        outcome: Outcome,
        lp: Option<Outcome>,
        build_seconds: f64,
        counts: Counts,
        decode: impl FnOnce(&[f64]) -> Answer,
    ) -> Report {
        let answer = outcome
            .values
            .as_deref()
            .filter(|_| outcome.status.has_solution() || outcome.status == Status::TimeLimit)
            .map(decode);
        Report {
            outcome,
            lp,
            build_seconds,
            counts,
            answer,
            fixings: None,
        }
    }

    /// A formulation that is one model: build it, solve its LP relaxation and the integer
    /// program, decode the values and verify. With `options.count` above 1 the distinct
    /// answers are counted ([`Run::count_answers`]).
    pub fn compact<D>(
        &self,
        build: impl FnOnce() -> (Model, D),
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> Report {
        if self.options.count > 1 {
            return self.counted(
                || {
                    let (m, d) = build();
                    (m, d, NoRows)
                },
                Shape::Mip,
                None,
                decode,
            );
        }
        let ((model, d), build_seconds, lp) = match self.prepare(build, |b| &b.0) {
            Ok(p) => p,
            Err(r) => return *r,
        };
        let outcome = self
            .engine
            .solve(Problem::Mip(&model), &self.settings, &self.budget);
        Self::report(outcome, lp, build_seconds, model.counts(), |v| {
            decode(&d, v)
        })
    }

    /// Row generation: build the first round's model with its separator, then the
    /// engine's loop ([`crate::engines::row_generation`]) adds the rows it finds. The LP
    /// bound is that of the first round's model; the counts are those of the last. With
    /// `options.count` above 1 the distinct answers are counted ([`Run::count_answers`]).
    pub fn row_generation<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> Report {
        self.with_separator(build, Shape::RowGeneration, decode)
    }

    /// Lazy rows: build the model without them, with its separator; the engine's search
    /// calls the separator at its nodes. The LP bound is that of the model without lazy
    /// rows. With `options.count` above 1 the distinct answers are counted
    /// ([`Run::count_answers`]).
    pub fn lazy_rows<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        hints: SearchHints,
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> Report {
        self.with_separator(build, Shape::Lazy(hints), decode)
    }

    /// Row generation or lazy rows, by `shape`.
    fn with_separator<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        shape: Shape,
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> Report {
        if self.options.count > 1 {
            return self.counted(build, shape, None, decode);
        }
        let ((mut model, d, mut sep), build_seconds, lp) = match self.prepare(build, |b| &b.0) {
            Ok(p) => p,
            Err(r) => return *r,
        };
        let outcome = self.engine.solve(
            shape.problem(&mut model, &mut sep),
            &self.settings,
            &self.budget,
        );
        Self::report(outcome, lp, build_seconds, model.counts(), |v| {
            decode(&d, v)
        })
    }

    /// A constraint program: build it (timed) and solve it; no LP relaxation. The engine
    /// counts solutions itself (`options.count`).
    pub fn constraint_program<D>(
        &self,
        build: impl FnOnce() -> (CpModel, D),
        decode: impl FnOnce(&D, &[f64]) -> Answer,
    ) -> Report {
        let t = Instant::now();
        let (model, d) = build();
        let build_seconds = t.elapsed().as_secs_f64();
        let outcome = self
            .engine
            .solve(Problem::Cp(&model), &self.settings, &self.budget);
        let answer = outcome
            .values
            .as_deref()
            .filter(|_| outcome.status.has_solution())
            .map(|v| decode(&d, v));
        Report {
            outcome,
            lp: None,
            build_seconds,
            counts: model.counts(),
            answer,
            fixings: None,
        }
    }

    /// A formulation that is one model, with solutions counted up to `options.count`
    /// through the formulation's own no-good row (`nogood`, which must cut off exactly the
    /// solution it is given, in the columns that make the answer). See
    /// [`Run::count_answers`] for the rest; with a count of 1 this is [`Run::compact`] and
    /// the solutions column says whether it found one.
    pub fn count<D>(
        &self,
        build: impl FnOnce() -> (Model, D),
        nogood: impl Fn(&D, &[f64]) -> Cut,
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> Report {
        if self.options.count <= 1 {
            let mut r = self.compact(build, decode);
            if r.outcome.status != Status::Error {
                r.outcome.solutions = Some(u64::from(r.outcome.status.has_solution()));
            }
            return r;
        }
        self.counted(
            || {
                let (m, d) = build();
                (m, d, NoRows)
            },
            Shape::Mip,
            Some(&nogood),
            decode,
        )
    }

    /// Counting, the common path of every formulation asked for more than one solution
    /// (`options.count` = K above 1):
    /// 1. a model with an objective is first solved to optimality as usual, and its
    ///    objective becomes the row `objective` = optimum, so that what is counted are
    ///    the optimal solutions (refused with `--mip-gap` above 0, which proves no
    ///    optimum); a solve that ends without proven optimum is the run's report;
    /// 2. then after each solution the row that excludes it is added and the model solved
    ///    again, through the engine's row-generation loop (or, for lazy rows, in its
    ///    search), until K are found or none is left. The row is the formulation's own
    ///    no-good when it gives one; otherwise the no-good of every integer column, and
    ///    solutions are counted by their distinct answers (two assignments of the columns
    ///    that decode to one answer count once), so that the count is of puzzle
    ///    solutions whatever auxiliary columns the model has. A model with integer columns
    ///    beyond 0/1 has no such row without new columns and is refused.
    ///
    /// The answer is the first solution; the status is `optimal` when the count is
    /// settled (K found, or every solution found) and `feasible` (with the reason) when
    /// the time limit or the engine stopped it early; `solutions` holds the count,
    /// `rounds` the solves and `cuts` the rows added. The objective and bound are those of
    /// the first phase for an optimisation model; a feasibility model has neither.
    fn counted<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        shape: Shape,
        nogood: Option<&NogoodFn<'_, D>>,
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> Report {
        let ((mut model, d, mut sep), build_seconds, lp) = match self.prepare(build, |b| &b.0) {
            Ok(p) => p,
            Err(r) => return *r,
        };
        // The rows added for counting are not part of the formulation.
        let counts = model.counts();
        let refuse = |reason: String| Report {
            build_seconds,
            counts,
            ..Report::refused(format!("refused: {reason}"))
        };
        // Without a no-good of the formulation's own: that of every 0/1 column.
        let generic = match nogood {
            Some(_) => None,
            None => match IntegerColumns::of(&model) {
                Ok(c) => Some(c),
                Err(reason) => return refuse(reason),
            },
        };
        let optimising = model.vars.iter().any(|v| v.objective != 0.0);
        let mut first_phase = None;
        if optimising {
            if self.options.mip_gap > 0.0 {
                return refuse(
                    "counting the optimal solutions needs --mip-gap 0 (a gap proves no optimum)"
                        .into(),
                );
            }
            let o = self.engine.solve(
                shape.problem(&mut model, &mut sep),
                &self.settings,
                &self.budget,
            );
            if o.status != Status::Optimal {
                let mut o = o;
                if o.status != Status::Error && o.status != Status::Infeasible {
                    o.message.get_or_insert_with(|| {
                        "counting needs the optimum first; the solve ended without proving it"
                            .into()
                    });
                } else if o.status == Status::Infeasible {
                    o.solutions = Some(0);
                }
                return Self::report(o, lp, build_seconds, counts, |v| decode(&d, v));
            }
            let optimum = o.objective.expect("an optimal solve has an objective");
            fix_objective(&mut model, optimum);
            first_phase = Some(o);
        }
        let want = u64::from(self.options.count);
        let (found, first, mut o) = {
            let nogood_of = |x: &[f64]| match (nogood, &generic) {
                (Some(f), _) => f(&d, x),
                (None, c) => c.as_ref().expect("set without a no-good").nogood(x),
            };
            // With the generic no-good, answers are told apart by their JSON.
            let answer_key = |x: &[f64]| -> Option<String> {
                generic.as_ref().map(|_| decode(&d, x).json.to_string())
            };
            let mut counter = Counter {
                want,
                found: 0,
                first: None,
                seen: std::collections::HashSet::new(),
                nogood: nogood_of,
                key: answer_key,
                inner: &mut sep,
            };
            let o = self.engine.solve(
                shape.counting().problem(&mut model, &mut counter),
                &self.settings,
                &self.budget,
            );
            (counter.found, counter.first, o)
        };
        if found > 0 {
            let why = match o.status {
                Status::Infeasible | Status::Optimal | Status::Feasible => None,
                Status::TimeLimit => Some(format!(
                    "time limit reached after {found} of {want} solutions"
                )),
                s => Some(format!(
                    "counting stopped after {found} of {want} solutions: the engine said {s}{}",
                    o.message
                        .as_ref()
                        .map(|m| format!(" ({m})"))
                        .unwrap_or_default()
                )),
            };
            o.status = if why.is_some() {
                Status::Feasible
            } else {
                Status::Optimal
            };
            o.message = why;
            o.values = first;
            o.best_bound = None;
            o.gap = None;
        } else if o.status == Status::Optimal {
            // The loop ended without a solution passing through the counter (an engine
            // that reports optimal without values): nothing was counted.
            o.status = Status::Error;
            o.message = Some("counting: the engine ended without a solution to count".into());
        }
        if let Some(p) = first_phase {
            o.objective = p.objective;
            if found > 0 && o.status == Status::Optimal {
                o.best_bound = p.best_bound;
                o.gap = p.gap;
            }
            o.seconds += p.seconds;
            o.nodes = match (o.nodes, p.nodes) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
            };
            o.rounds = Some(o.rounds.unwrap_or(1) + p.rounds.unwrap_or(1));
            o.cuts = Some(o.cuts.unwrap_or(0) + p.cuts.unwrap_or(0));
            o.call_seconds = match (o.call_seconds, p.call_seconds) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
            };
        } else {
            o.objective = None;
        }
        o.solutions = Some(found);
        Self::report(o, lp, build_seconds, counts, |v| decode(&d, v))
    }
}

/// A formulation's own no-good row of a solution, from its decoding data and the values.
type NogoodFn<'a, D> = dyn Fn(&D, &[f64]) -> Cut + 'a;

/// How a formulation hands its model to the engine.
#[derive(Clone, Copy)]
enum Shape {
    /// One integer program (counted through the row-generation loop).
    Mip,
    /// Row generation.
    RowGeneration,
    /// Lazy rows in the engine's search.
    Lazy(SearchHints),
}

impl Shape {
    /// The shape that counts: one integer program is counted through the row-generation
    /// loop, the others as they are.
    fn counting(self) -> Shape {
        match self {
            Shape::Mip => Shape::RowGeneration,
            s => s,
        }
    }

    /// The problem of this shape on `model` with `sep`.
    fn problem<'a>(self, model: &'a mut Model, sep: &'a mut dyn Separator) -> Problem<'a> {
        match self {
            Shape::Mip => Problem::Mip(model),
            Shape::RowGeneration => Problem::RowGeneration(model, sep),
            Shape::Lazy(h) => Problem::LazyRows(model, sep, h),
        }
    }
}

/// The separator of a formulation without rows to add.
struct NoRows;

impl Separator for NoRows {
    fn separate(&mut self, _x: &[f64], _integral: bool) -> Vec<Cut> {
        Vec::new()
    }
}

/// Turns the objective of `model` into the row `objective` = `optimum` and clears it, so
/// that its solutions are the optimal ones. With integer coefficients on integer columns
/// the row is an equality on the rounded value; otherwise it allows 1e-6 relative.
fn fix_objective(model: &mut Model, optimum: f64) {
    let terms: Vec<(VarId, f64)> = model
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.objective != 0.0)
        .map(|(j, v)| (VarId(j), v.objective))
        .collect();
    let integral = model.vars.iter().all(|v| {
        v.objective == 0.0 || (v.kind != VarKind::Continuous && v.objective.fract() == 0.0)
    });
    let target = optimum - model.objective_offset;
    if integral {
        let t = target.round();
        model.add_eq(Name::from("objective"), terms, t);
    } else {
        let tol = 1e-6 * target.abs().max(1.0);
        model.add_row(Name::from("objective"), terms, target - tol, target + tol);
    }
    for v in &mut model.vars {
        v.objective = 0.0;
    }
}

/// The free integer columns of a model whose integer columns are all 0/1 (or fixed), with
/// their bounds, for the no-good of a whole assignment.
struct IntegerColumns(Vec<(VarId, f64, f64)>);

impl IntegerColumns {
    /// The free 0/1 columns of `model`. A column with a wider integer range is left out
    /// when an equality row defines it from 0/1 columns (it is the row's only other
    /// column, as Sudoku's v[i,j] = Σ k·x[i,j,k]): the 0/1 columns then decide it. Any
    /// other wider integer column has no no-good row without new columns: the error
    /// names it.
    fn of(model: &Model) -> Result<IntegerColumns, String> {
        let binary = |v: &crate::model::Var| {
            v.kind != VarKind::Continuous && (v.lower == v.upper || v.upper - v.lower <= 1.0)
        };
        let mut defined = vec![false; model.vars.len()];
        for row in model.rows.iter().filter(|r| r.lower == r.upper) {
            let mut wide = row
                .terms
                .iter()
                .filter(|(v, c)| *c != 0.0 && !binary(&model.vars[v.0]));
            if let (Some((v, _)), None) = (wide.next(), wide.next()) {
                defined[v.0] = true;
            }
        }
        let mut cols = Vec::new();
        for (j, v) in model.vars.iter().enumerate() {
            if v.kind == VarKind::Continuous || v.lower == v.upper {
                continue;
            }
            if !binary(v) {
                if defined[j] && v.kind == VarKind::Integer {
                    continue;
                }
                return Err(format!(
                    "counting solutions needs no-good rows, and column {} ranges over {}..{}: \
                     only 0/1 columns have one without new columns (use a formulation on 0/1 columns)",
                    v.name, v.lower, v.upper
                ));
            }
            cols.push((VarId(j), v.lower, v.upper));
        }
        Ok(IntegerColumns(cols))
    }

    /// The row that excludes the assignment `x` of these columns and nothing else:
    /// Σ_{x_j at its lower bound} (x_j − l_j) + Σ_{x_j at its upper bound} (u_j − x_j) ≥ 1.
    fn nogood(&self, x: &[f64]) -> Cut {
        let mut lower = 1.0;
        let terms = self
            .0
            .iter()
            .map(|&(v, l, u)| {
                if x[v.0] - l < u - x[v.0] {
                    lower += l;
                    (v, 1.0)
                } else {
                    lower -= u;
                    (v, -1.0)
                }
            })
            .collect();
        Cut {
            terms,
            lower,
            upper: f64::INFINITY,
        }
    }
}

/// The separator of counting ([`Run::counted`]): an integer solution that the
/// formulation's own separator (`inner`) accepts is a solution; it is counted (once per
/// distinct answer when `key` gives answers), the first kept, and until `want` are found
/// its no-good row is returned so that the search looks for another.
struct Counter<'s, N, K>
where
    N: Fn(&[f64]) -> Cut,
    K: Fn(&[f64]) -> Option<String>,
{
    want: u64,
    found: u64,
    first: Option<Vec<f64>>,
    seen: std::collections::HashSet<String>,
    nogood: N,
    key: K,
    inner: &'s mut dyn Separator,
}

impl<N, K> Separator for Counter<'_, N, K>
where
    N: Fn(&[f64]) -> Cut,
    K: Fn(&[f64]) -> Option<String>,
{
    fn separate(&mut self, x: &[f64], integral: bool) -> Vec<Cut> {
        let rows = self.inner.separate(x, integral);
        if !rows.is_empty() || !integral {
            return rows;
        }
        let new = match (self.key)(x) {
            Some(k) => self.seen.insert(k),
            None => true,
        };
        if new {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(x.to_vec());
            }
        }
        if self.found >= self.want {
            Vec::new()
        } else {
            vec![(self.nogood)(x)]
        }
    }

    fn branch(&mut self, x: &[f64], candidates: &[usize]) -> usize {
        self.inner.branch(x, candidates)
    }

    fn propagate(&mut self, lower: &[f64], upper: &[f64], out: &mut Vec<Tightening>) -> bool {
        self.inner.propagate(lower, upper, out)
    }
}

impl Run<'_> {
    /// [`Run::count`] for a formulation whose build may refuse an instance (a model past
    /// its size limits): the refusal becomes the run's report, status `error` with the
    /// reason and the time the build took before it gave up.
    pub fn count_or_refuse<D>(
        &self,
        build: impl FnOnce() -> Result<(Model, D), String>,
        nogood: impl Fn(&D, &[f64]) -> Cut,
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> Report {
        let t = Instant::now();
        match build() {
            Err(e) => {
                let mut r = Report::refused(format!("refused: {e}"));
                r.build_seconds = t.elapsed().as_secs_f64();
                r
            }
            Ok(built) => {
                let seconds = t.elapsed().as_secs_f64();
                let mut r = self.count(move || built, nogood, decode);
                r.build_seconds += seconds;
                r
            }
        }
    }
}

/// The 0/1 grid of a solution over `columns`, laid out row by row, `width` to a row.
pub fn grid_of_ones(columns: &[VarId], width: usize, x: &[f64]) -> Vec<Vec<bool>> {
    columns
        .chunks(width.max(1))
        .map(|row| row.iter().map(|v| x[v.0] > 0.5).collect())
        .collect()
}

/// The no-good row of a 0/1 solution over `columns`, for models whose solutions all set
/// the same number of these columns to 1 (an assignment): Σ_{j ∈ ones} x_j ≤ |ones| − 1.
pub fn nogood_of_ones(columns: &[VarId], x: &[f64]) -> Cut {
    let ones: Vec<(VarId, f64)> = columns
        .iter()
        .filter(|v| x[v.0] > 0.5)
        .map(|&v| (v, 1.0))
        .collect();
    let upper = ones.len() as f64 - 1.0;
    Cut {
        terms: ones,
        lower: f64::NEG_INFINITY,
        upper,
    }
}
