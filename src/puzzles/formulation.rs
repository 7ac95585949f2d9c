//! The common path of every formulation, whatever the kind: a [`Run`] (the engine, the
//! settings it applies and the run's one [`Budget`]) builds the model (timed), refuses a
//! model the engine cannot take, solves the LP relaxation where the engine has one, hands
//! the problem to the engine, and decodes and verifies the answer into a [`Report`].
//! Formulations call one of [`Run::compact`], [`Run::row_generation`], [`Run::lazy_rows`],
//! [`Run::constraint_program`] or [`Run::count`], and nothing else about solving.

use crate::backends::{Budget, Engine, Kind, Outcome, Problem, Settings, SolveOptions, Status};
use crate::cp_model::CpModel;
use crate::lazy::{Cut, SearchHints, Separator};
use crate::model::{Counts, Model, VarId};
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
    /// program, decode the values and verify.
    pub fn compact<D>(
        &self,
        build: impl FnOnce() -> (Model, D),
        decode: impl FnOnce(&D, &[f64]) -> Answer,
    ) -> Report {
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
    /// engine's loop ([`crate::backends::row_generation`]) adds the rows it finds. The LP
    /// bound is that of the first round's model; the counts are those of the last.
    pub fn row_generation<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        decode: impl FnOnce(&D, &[f64]) -> Answer,
    ) -> Report {
        self.with_separator(build, None, decode)
    }

    /// Lazy rows: build the model without them, with its separator; the engine's search
    /// calls the separator at its nodes. The LP bound is that of the model without lazy
    /// rows.
    pub fn lazy_rows<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        hints: SearchHints,
        decode: impl FnOnce(&D, &[f64]) -> Answer,
    ) -> Report {
        self.with_separator(build, Some(hints), decode)
    }

    /// Row generation (`hints` `None`) or lazy rows (the hints of the search).
    fn with_separator<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        hints: Option<SearchHints>,
        decode: impl FnOnce(&D, &[f64]) -> Answer,
    ) -> Report {
        let ((mut model, d, mut sep), build_seconds, lp) = match self.prepare(build, |b| &b.0) {
            Ok(p) => p,
            Err(r) => return *r,
        };
        let problem = match hints {
            None => Problem::RowGeneration(&mut model, &mut sep),
            Some(h) => Problem::LazyRows(&mut model, &mut sep, h),
        };
        let outcome = self.engine.solve(problem, &self.settings, &self.budget);
        Self::report(outcome, lp, build_seconds, model.counts(), |v| {
            decode(&d, v)
        })
    }

    /// A constraint program: build it (timed) and solve it; no LP relaxation.
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

    /// A formulation that is one model, with solutions counted up to `options.count`:
    /// after each solution the row that excludes it (from `nogood`) is added and the model
    /// solved again, through the engine's row-generation loop, until the count is reached
    /// or no solution is left. The answer is the first solution; the status is `optimal`
    /// when the count is settled and `feasible` (with the reason) when the time limit or
    /// the engine stopped it early; `rounds` counts the solves and `cuts` the no-good rows.
    /// With a count of 1 this is [`Run::compact`].
    pub fn count<D>(
        &self,
        build: impl FnOnce() -> (Model, D),
        nogood: impl Fn(&D, &[f64]) -> Cut,
        decode: impl FnOnce(&D, &[f64]) -> Answer,
    ) -> Report {
        if self.options.count <= 1 {
            let mut r = self.compact(build, decode);
            if r.outcome.status != Status::Error {
                r.outcome.solutions = Some(u64::from(r.outcome.status.has_solution()));
            }
            return r;
        }
        let ((mut model, d), build_seconds, lp) = match self.prepare(build, |b| &b.0) {
            Ok(p) => p,
            Err(r) => return *r,
        };
        // The no-good rows are not part of the formulation: count the model without them.
        let counts = model.counts();
        let want = u64::from(self.options.count);
        let mut counter = Counter {
            want,
            found: 0,
            first: None,
            nogood: |x: &[f64]| nogood(&d, x),
        };
        let mut o = self.engine.solve(
            Problem::RowGeneration(&mut model, &mut counter),
            &self.settings,
            &self.budget,
        );
        let found = counter.found;
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
            o.values = counter.first;
            o.objective = o.values.as_deref().map(|v| model.objective_value(v));
            o.best_bound = None;
            o.gap = None;
        }
        o.solutions = Some(found);
        Self::report(o, lp, build_seconds, counts, |v| decode(&d, v))
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
        decode: impl FnOnce(&D, &[f64]) -> Answer,
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

/// The separator of [`Run::count`]: every integer solution of the (complete) model is a
/// solution; it is counted, the first kept, and until `want` are found its no-good row is
/// returned so that the loop looks for another.
struct Counter<F: Fn(&[f64]) -> Cut> {
    want: u64,
    found: u64,
    first: Option<Vec<f64>>,
    nogood: F,
}

impl<F: Fn(&[f64]) -> Cut> Separator for Counter<F> {
    fn separate(&mut self, x: &[f64], _integral: bool) -> Vec<Cut> {
        self.found += 1;
        if self.first.is_none() {
            self.first = Some(x.to_vec());
        }
        if self.found >= self.want {
            Vec::new()
        } else {
            vec![(self.nogood)(x)]
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
