//! The common path of every formulation, whatever the kind: a [`Run`] (the engine, the
//! settings it applies and the run's one [`Budget`]) builds the model (timed), refuses a
//! model the engine cannot take, solves the LP relaxation where the engine has one, hands
//! the problem to the engine, and decodes and verifies the answer into a [`RunResult`].
//! Formulations call one of [`Run::compact`], [`Run::row_generation`], [`Run::lazy_rows`],
//! [`Run::constraint_program`] or [`Run::count`] (in [`super::counting`]), and nothing
//! else about solving.

use crate::cp_model::CpModel;
use crate::engines::{Budget, Engine, Kind, Outcome, Problem, Settings, SolveOptions, Status};
use crate::lazy::{Cut, SearchHints, Separator};
use crate::model::{Counts, Model, VarId};
use crate::timeline::Trace;
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
pub struct RunResult {
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
    /// The incumbents and bounds the engine reported as it went, on the run's clock.
    pub trace: Option<Trace>,
    /// Seconds from the start of the run to its end, on the clock of its budget (model
    /// building, LP relaxation and solve): the horizon of its anytime measures.
    pub run_seconds: Option<f64>,
    /// The certificate of the run's claim, when one was asked for (`--certify`).
    pub certificate: Option<crate::certify::Certificate>,
}

impl RunResult {
    /// A run not attempted: status `refused` with `reason`, nothing built or solved.
    pub fn refused(reason: String) -> RunResult {
        RunResult {
            outcome: Outcome::refused(reason, 0.0),
            ..RunResult::failed(String::new())
        }
    }

    /// A run that failed before it reached the engine: status `error` with `reason`,
    /// nothing built or solved.
    pub fn failed(reason: String) -> RunResult {
        RunResult {
            outcome: Outcome::error(reason, 0.0),
            lp: None,
            build_seconds: 0.0,
            counts: Counts::default(),
            answer: None,
            fixings: None,
            trace: None,
            run_seconds: None,
            certificate: None,
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
    /// A run of a formulation of `kind` on `engine`; its budget starts now and records the
    /// run's timeline (streamed to the sink this thread was given, [`crate::timeline::stream_next_run`]).
    pub fn new(engine: Engine, kind: Kind, options: &'a SolveOptions) -> Run<'a> {
        Run {
            engine,
            options,
            settings: engine.settings(kind, options),
            budget: match crate::timeline::take_sink() {
                _ if !crate::timeline::recording_this_run() => Budget::new(options.time_limit),
                sink => Budget::recording(options.time_limit, sink),
            },
        }
    }

    /// Builds (timed), refuses a model the engine cannot take, and solves the LP
    /// relaxation when asked for. `Err` holds the refusal report.
    pub(super) fn prepare<M>(
        &self,
        build: impl FnOnce() -> M,
        model: impl Fn(&M) -> &Model,
    ) -> Result<(M, f64, Option<Outcome>), Box<RunResult>> {
        let t = Instant::now();
        let built = build();
        let build_seconds = t.elapsed().as_secs_f64();
        let m = model(&built);
        if let Some(reason) = self.engine.model_refusal(m) {
            let mut r = RunResult::refused(reason);
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
    pub(super) fn report(
        outcome: Outcome,
        lp: Option<Outcome>,
        build_seconds: f64,
        counts: Counts,
        decode: impl FnOnce(&[f64]) -> Answer,
    ) -> RunResult {
        let answer = outcome
            .values
            .as_deref()
            .filter(|_| outcome.status.has_solution() || outcome.status == Status::TimeLimit)
            .map(decode);
        RunResult {
            outcome,
            lp,
            build_seconds,
            counts,
            answer,
            fixings: None,
            trace: None,
            run_seconds: None,
            certificate: None,
        }
    }

    /// A formulation that is one model: build it, solve its LP relaxation and the integer
    /// program, decode the values and verify. With `options.count` above 1 the distinct
    /// answers are counted ([`Run::count_answers`]).
    pub fn compact<D>(
        &self,
        build: impl FnOnce() -> (Model, D),
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> RunResult {
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
        let mut r = Self::report(outcome, lp, build_seconds, model.counts(), |v| {
            decode(&d, v)
        });
        if let Some(seconds) = self.options.certify {
            r.certificate = Some(super::certified::of_one_model(&model, &r, seconds));
        }
        r
    }

    /// Row generation: build the first round's model with its separator, then the
    /// engine's loop ([`crate::engines::row_generation`]) adds the rows it finds. The LP
    /// bound is that of the first round's model; the counts are those of the last. With
    /// `options.count` above 1 the distinct answers are counted ([`Run::count_answers`]).
    pub fn row_generation<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> RunResult {
        self.with_separator(build, Shape::RowGeneration, decode, true)
    }

    /// [`Run::row_generation`] for a formulation that makes its own certificate (the
    /// fewest-clues loop: its rows' witnesses and its final leader): no certificate on the
    /// model as built is made here.
    pub fn row_generation_certified_by_caller<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> RunResult {
        self.with_separator(build, Shape::RowGeneration, decode, false)
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
    ) -> RunResult {
        self.with_separator(build, Shape::Lazy(hints), decode, true)
    }

    /// Row generation or lazy rows, by `shape`; with `--certify` and `certify`, the claim
    /// certified on the model as built ([`super::certified::on_relaxation`]).
    fn with_separator<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        shape: Shape,
        decode: impl Fn(&D, &[f64]) -> Answer,
        certify: bool,
    ) -> RunResult {
        if self.options.count > 1 {
            return self.counted(build, shape, None, decode);
        }
        let ((mut model, d, mut sep), build_seconds, lp) = match self.prepare(build, |b| &b.0) {
            Ok(p) => p,
            Err(r) => return *r,
        };
        // The model as built, before any row is added: a relaxation of the one solved.
        let as_built = self
            .options
            .certify
            .filter(|_| certify)
            .map(|_| model.clone());
        let outcome = self.engine.solve(
            shape.problem(&mut model, &mut sep),
            &self.settings,
            &self.budget,
        );
        let mut r = Self::report(outcome, lp, build_seconds, model.counts(), |v| {
            decode(&d, v)
        });
        if let (Some(seconds), Some(as_built)) = (self.options.certify, as_built) {
            r.certificate = Some(super::certified::on_relaxation(&as_built, &r, seconds));
        }
        r
    }

    /// A constraint program: build it (timed) and solve it; no LP relaxation. The engine
    /// counts solutions itself (`options.count`).
    pub fn constraint_program<D>(
        &self,
        build: impl FnOnce() -> (CpModel, D),
        decode: impl FnOnce(&D, &[f64]) -> Answer,
    ) -> RunResult {
        let t = Instant::now();
        let (model, d) = build();
        let build_seconds = t.elapsed().as_secs_f64();
        let outcome = self
            .engine
            .solve(Problem::Cp(&model), &self.settings, &self.budget);
        let certificate = self.options.certify.map(|_| {
            crate::certify::Certificate::none(
                "a constraint program: certificates cover 0/1 integer programs",
            )
        });
        let answer = outcome
            .values
            .as_deref()
            .filter(|_| outcome.status.has_solution())
            .map(|v| decode(&d, v));
        RunResult {
            outcome,
            lp: None,
            build_seconds,
            counts: model.counts(),
            answer,
            fixings: None,
            trace: None,
            run_seconds: None,
            certificate,
        }
    }
}

/// How a formulation hands its model to the engine.
#[derive(Clone, Copy)]
pub(super) enum Shape {
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
    pub(super) fn counting(self) -> Shape {
        match self {
            Shape::Mip => Shape::RowGeneration,
            s => s,
        }
    }

    /// The problem of this shape on `model` with `sep`.
    pub(super) fn problem<'a>(
        self,
        model: &'a mut Model,
        sep: &'a mut dyn Separator,
    ) -> Problem<'a> {
        match self {
            Shape::Mip => Problem::Mip(model),
            Shape::RowGeneration => Problem::RowGeneration(model, sep),
            Shape::Lazy(h) => Problem::LazyRows(model, sep, h),
        }
    }
}

/// The separator of a formulation without rows to add.
pub(super) struct NoRows;

impl Separator for NoRows {
    fn separate(&mut self, _x: &[f64], _integral: bool) -> Vec<Cut> {
        Vec::new()
    }
}

/// The 0/1 grid of a solution over `columns`, laid out row by row, `width` to a row.
pub fn grid_of_ones(columns: &[VarId], width: usize, x: &[f64]) -> Vec<Vec<bool>> {
    columns
        .chunks(width.max(1))
        .map(|row| row.iter().map(|v| x[v.0] > 0.5).collect())
        .collect()
}
