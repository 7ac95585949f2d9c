//! Counting solutions, the common path of every formulation asked for more than one
//! (`--count K`): the optimum first for a model with an objective, then a no-good row after
//! each solution, through the engine's row-generation loop or its lazy rows, until K are
//! found or none is left ([`Run::count`]).

use super::formulation::{NoRows, RunResult, Shape};
use super::{Answer, Run};
use crate::engines::Enumeration;
use crate::engines::Status;
use crate::lazy::{Cut, Separator, Tightening};
use crate::model::{Model, Name, VarId, VarKind};
use std::time::Instant;

impl Run<'_> {
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
    ) -> RunResult {
        if self.options.count <= 1 {
            let mut r = self.compact(build, decode);
            if !r.outcome.status.has_reason() {
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
    pub(super) fn counted<D, S: Separator>(
        &self,
        build: impl FnOnce() -> (Model, D, S),
        shape: Shape,
        nogood: Option<&NogoodFn<'_, D>>,
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> RunResult {
        let ((mut model, d, mut sep), build_seconds, lp) = match self.prepare(build, |b| &b.0) {
            Ok(p) => p,
            Err(r) => return *r,
        };
        // The rows added for counting are not part of the formulation.
        let counts = model.counts();
        let refuse = |reason: String| RunResult {
            build_seconds,
            counts,
            ..RunResult::refused(format!("refused: {reason}"))
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
        let offset = model.objective_offset;
        // The model as the formulation states it, for the certificate of the count.
        let stated = self.options.certify.map(|_| model.clone());
        let mut first_phase = None;
        if optimising {
            // Counting fixes the objective at its optimum as a row: an engine that takes
            // the model but not that row (hitset) is refused before the first solve.
            let mut fixed = model.clone();
            fix_objective(&mut fixed, 0.0);
            if let Some(why) = self.engine.model_refusal(&fixed) {
                return refuse(format!(
                    "{} cannot count the optimal solutions: counting fixes the objective as a row and adds no-good rows ({why})",
                    self.engine.key()
                ));
            }
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
                if !o.status.has_reason() && o.status != Status::Infeasible {
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
        let (found, first, excluded, added, mut o) = {
            let nogood_of = |x: &[f64]| match (nogood, &generic) {
                (Some(f), _) => f(&d, x),
                (None, c) => c.as_ref().expect("set without a no-good").nogood(x),
            };
            // With the generic no-good, answers are told apart by their JSON.
            let answer_key = |x: &[f64]| -> Option<String> {
                generic.as_ref().map(|_| decode(&d, x).json.to_string())
            };
            let timeline = (!optimising).then_some((&self.budget, offset));
            // A model without rows of its own is counted by the engine's enumeration
            // where it has one (CP-SAT, SCIP); solutions are then told apart by their
            // answers, or by their no-good rows when the formulation gives one (its
            // columns are those of the answer).
            let enumerated = match shape {
                Shape::Mip => {
                    let key = |x: &[f64]| -> Option<String> {
                        Some(match &generic {
                            Some(_) => decode(&d, x).json.to_string(),
                            None => format!("{:?}", nogood_of(x)),
                        })
                    };
                    let mut none = NoRows;
                    let mut counter = Counter::new(want, nogood_of, key, &mut none, timeline);
                    self.engine
                        .enumerate(
                            &model,
                            &self.settings,
                            &self.budget.unrecorded(),
                            &mut counter,
                        )
                        .map(|o| {
                            (
                                counter.found,
                                counter.first,
                                counter.excluded,
                                Vec::new(),
                                o,
                            )
                        })
                }
                _ => None,
            };
            if let Some(done) = enumerated {
                done
            } else {
                let mut counter = Counter::new(want, nogood_of, answer_key, &mut sep, timeline);
                counter.added = self.options.certify.map(|_| Vec::new());
                // The rounds after the first solution search for others, under no-good rows
                // (and with the objective fixed as a row): their incumbents and bounds are no
                // part of the run's timeline, which the counter keeps instead.
                let o = self.engine.solve(
                    shape.counting().problem(&mut model, &mut counter),
                    &self.settings,
                    &self.budget.unrecorded(),
                );
                (
                    counter.found,
                    counter.first,
                    counter.excluded,
                    counter.added.unwrap_or_default(),
                    o,
                )
            }
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
        // The optimum the count fixed, for its certificate.
        let optimum = first_phase.as_ref().and_then(|p| p.objective);
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
        let mut r = Self::report(o, lp, build_seconds, counts, |v| decode(&d, v));
        if let (Some(seconds), Some(stated)) = (self.options.certify, stated) {
            r.certificate = Some(if r.verified() == Some(false) {
                crate::certify::Certificate::none("the answer did not pass the verifier")
            } else {
                super::certified::of_count_with_rows(
                    &stated,
                    optimum,
                    (!matches!(shape, Shape::Mip)).then_some(&sep as &dyn crate::lazy::Separator),
                    &added,
                    &excluded,
                    (found, want, r.outcome.status),
                    seconds,
                )
            });
        }
        r
    }
}

/// A formulation's own no-good row of a solution, from its decoding data and the values.
type NogoodFn<'a, D> = dyn Fn(&D, &[f64]) -> Cut + 'a;

/// Turns the objective of `model` into the row `objective` = `optimum` and clears it, so
/// that its solutions are the optimal ones. With integer coefficients on integer columns
/// the row is an equality on the rounded value; otherwise it allows 1e-6 relative.
fn fix_objective(model: &mut Model, optimum: f64) {
    let terms = model.objective_terms();
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
    /// The no-good row of every solution recorded (the rows the search was given), for
    /// the certificate that no other solution is left.
    excluded: Vec<Cut>,
    /// The rows the formulation's separator added (row generation, lazy rows), kept for
    /// the same certificate only when one is asked for (`None` otherwise).
    added: Option<Vec<Cut>>,
    seen: std::collections::HashSet<String>,
    nogood: N,
    key: K,
    inner: &'s mut dyn Separator,
    /// Where the first solution of a feasibility model is recorded as the run's
    /// incumbent (with the model's constant objective); `None` for an optimisation model,
    /// whose first phase recorded its optimum.
    timeline: Option<(&'s crate::engines::Budget, f64)>,
}

impl<N, K> Separator for Counter<'_, N, K>
where
    N: Fn(&[f64]) -> Cut,
    K: Fn(&[f64]) -> Option<String>,
{
    fn separate(&mut self, x: &[f64], integral: bool) -> Vec<Cut> {
        let rows = self.inner.separate(x, integral);
        if let Some(added) = &mut self.added {
            added.extend(rows.iter().cloned());
        }
        if !rows.is_empty() || !integral {
            return rows;
        }
        if self.record(x) {
            vec![(self.nogood)(x)]
        } else {
            Vec::new()
        }
    }

    fn branch(&mut self, x: &[f64], candidates: &[usize]) -> usize {
        self.inner.branch(x, candidates)
    }

    fn propagate(&mut self, lower: &[f64], upper: &[f64], out: &mut Vec<Tightening>) -> bool {
        self.inner.propagate(lower, upper, out)
    }
}

impl<N, K> Enumeration for Counter<'_, N, K>
where
    N: Fn(&[f64]) -> Cut,
    K: Fn(&[f64]) -> Option<String>,
{
    fn found(&mut self, values: &[f64]) -> bool {
        self.record(values)
    }

    fn nogood(&self, values: &[f64]) -> Cut {
        (self.nogood)(values)
    }
}

impl<'s, N, K> Counter<'s, N, K>
where
    N: Fn(&[f64]) -> Cut,
    K: Fn(&[f64]) -> Option<String>,
{
    /// A counter that wants `want` solutions, none found yet.
    fn new(
        want: u64,
        nogood: N,
        key: K,
        inner: &'s mut dyn Separator,
        timeline: Option<(&'s crate::engines::Budget, f64)>,
    ) -> Self {
        Counter {
            want,
            found: 0,
            first: None,
            excluded: Vec::new(),
            added: None,
            seen: std::collections::HashSet::new(),
            nogood,
            key,
            inner,
            timeline,
        }
    }

    /// Counts the solution `x` when it is new (the first kept); true while more are
    /// wanted.
    fn record(&mut self, x: &[f64]) -> bool {
        self.excluded.push((self.nogood)(x));
        let new = match (self.key)(x) {
            Some(k) => self.seen.insert(k),
            None => true,
        };
        if new {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(x.to_vec());
                if let Some((budget, objective)) = self.timeline {
                    budget.incumbent(objective);
                }
            }
        }
        self.found < self.want
    }
}

impl Run<'_> {
    /// [`Run::count`] for a formulation whose build may refuse an instance (a model past
    /// its size limits): the refusal becomes the run's report, status `refused` with the
    /// reason and the time the build took before it gave up.
    pub fn count_or_refuse<D>(
        &self,
        build: impl FnOnce() -> Result<(Model, D), String>,
        nogood: impl Fn(&D, &[f64]) -> Cut,
        decode: impl Fn(&D, &[f64]) -> Answer,
    ) -> RunResult {
        let t = Instant::now();
        match build() {
            Err(e) => {
                let mut r = RunResult::refused(format!("refused: {e}"));
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
