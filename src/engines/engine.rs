//! The [`Engine`] handle: an engine of [`ENGINES`] or of an engine definition
//! ([`super::registry`]) looked up by key, asked what it takes,
//! refusing what it cannot take with the reason, and dispatching a [`Problem`] to its
//! implementation with the bound and gap made honest.

use super::budget::Budget;
use super::capabilities::{Capabilities, Settings, SolveOptions};
use super::problem::{gap, Kind, Outcome, Problem, Status};
use super::{registry, EngineImpl, ENGINES};
use crate::model::{Model, VarKind};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// An engine, built in ([`ENGINES`]) or defined ([`super::definition`]): a copyable
/// handle, compared, hashed, ordered, parsed and serialised by its key.
#[derive(Clone, Copy)]
pub struct Engine(&'static dyn EngineImpl);

impl Engine {
    /// The handle of a solver (each engine file makes its constant with it).
    pub const fn new(solver: &'static dyn EngineImpl) -> Engine {
        Engine(solver)
    }

    /// Looks an engine up by key, built in or defined; the error lists the valid keys.
    pub fn by_key(key: &str) -> Result<Engine, String> {
        registry::all()
            .iter()
            .copied()
            .find(|e| e.key() == key)
            .ok_or_else(|| {
                let keys: Vec<&str> = registry::all().iter().map(|e| e.key()).collect();
                format!(
                    "unknown backend '{key}'; valid backends: {}",
                    keys.join(", ")
                )
            })
    }

    /// The key used on the command line and in result rows.
    pub fn key(self) -> &'static str {
        self.0.declaration().key
    }

    /// One line describing the engine.
    pub fn description(self) -> &'static str {
        self.0.declaration().description
    }

    /// The engine's name and version, as written into result rows.
    pub fn version(self) -> String {
        self.0.version()
    }

    /// What the report notes of its licence, for an engine that runs under a vendor's
    /// licence (`gurobi`, `cplex`, `xpress`, `copt`, or a definition's `[licence]`).
    pub fn licence(self) -> Option<super::definition::LicenceTerms> {
        self.0.licence()
    }

    /// The source of its Python driver, for an engine that runs its solver in one
    /// (`cpsat`, `scip`, `gurobi`).
    pub fn driver(self) -> Option<&'static str> {
        self.0.driver()
    }

    /// False for an engine whose solver is absent (an external one: its version says
    /// "not installed: …"); such an engine's runs end as `error` with that reason.
    pub fn installed(self) -> bool {
        !self.version().starts_with("not installed")
    }

    /// The built-in engines ([`ENGINES`]) that are installed: the default of `race` and of
    /// `reproduce`'s engine comparison (an engine definition joins them when `--backend`
    /// names it).
    pub fn installed_engines() -> Vec<Engine> {
        ENGINES.iter().copied().filter(|e| e.installed()).collect()
    }

    /// True when some model could be refused by its columns or coefficients (the engine
    /// lacks continuous columns, general integers or fractional coefficients).
    pub fn restricts_models(self) -> bool {
        let c = self.capabilities();
        !(c.continuous && c.general_integers && c.fractional_coefficients)
    }

    /// What it can do.
    pub fn capabilities(self) -> &'static Capabilities {
        &self.0.declaration().capabilities
    }

    /// True when it takes problems of `kind`.
    pub fn takes(self, kind: Kind) -> bool {
        self.capabilities().kinds.contains(&kind)
    }

    /// Why a problem of `kind` is not run on this engine (None when it can be), naming the
    /// engines that take it, for messages that start with "refused: ".
    pub fn refusal(self, kind: Kind) -> Option<String> {
        if self.takes(kind) {
            return None;
        }
        let able: Vec<&str> = registry::all()
            .iter()
            .filter(|e| e.takes(kind))
            .map(|e| e.key())
            .collect();
        Some(format!(
            "the {self} engine does not solve {} (engines that do: {})",
            kind.phrase(),
            able.join(", ")
        ))
    }

    /// Why `model` is not run on this engine (None when it can be): the first variable or
    /// row it cannot take.
    pub fn model_refusal(self, model: &Model) -> Option<String> {
        let caps = self.capabilities();
        let whole = |x: f64| !x.is_finite() || x.fract() == 0.0;
        let integral =
            |v: &crate::model::Var| whole(v.lower) && whole(v.upper) && whole(v.objective);
        for v in &model.vars {
            let problem = match v.kind {
                VarKind::Continuous if !caps.continuous => Some("is continuous"),
                VarKind::Integer if !caps.general_integers && (v.lower < 0.0 || v.upper > 1.0) => {
                    Some("is a general integer")
                }
                _ if !caps.fractional_coefficients && !integral(v) => {
                    Some("has a fractional bound or objective coefficient")
                }
                _ => None,
            };
            if let Some(p) = problem {
                return Some(format!("unsupported by {self}: variable {} {p}", v.name));
            }
        }
        if !caps.fractional_coefficients {
            for r in &model.rows {
                if !(whole(r.lower) && whole(r.upper) && r.terms.iter().all(|t| whole(t.1))) {
                    return Some(format!(
                        "unsupported by {self}: row {} has a fractional coefficient or side",
                        r.name
                    ));
                }
            }
        }
        self.0
            .refuses(model)
            .map(|why| format!("unsupported by {self}: {why}"))
    }

    /// The settings it applies to a problem of `kind` under `options`.
    pub fn settings(self, kind: Kind, options: &SolveOptions) -> Settings {
        self.0.applied(kind, options)
    }

    /// Solves `problem` within `budget`: refused with the reason when the engine does not
    /// take its kind or model; otherwise the engine's outcome with the bound and gap made
    /// honest (an optimum counts as its own bound only when no gap was allowed).
    pub fn solve(self, problem: Problem<'_>, settings: &Settings, budget: &Budget) -> Outcome {
        if let Some(reason) = self.refusal(problem.kind()) {
            return Outcome::refused(format!("refused: {reason}"), 0.0);
        }
        let model_reason = match &problem {
            Problem::Mip(m) => self.model_refusal(m),
            Problem::RowGeneration(m, _) | Problem::LazyRows(m, _, _) => self.model_refusal(m),
            Problem::Cp(_) => None,
        };
        if let Some(reason) = model_reason {
            return Outcome::refused(reason, 0.0);
        }
        // The model's numbers are checked once, before any engine sees them: a model no
        // engine can take the same way is an error for all of them.
        let checked = match &problem {
            Problem::Mip(m) => m.check(),
            Problem::RowGeneration(m, _) | Problem::LazyRows(m, _, _) => m.check(),
            Problem::Cp(_) => Ok(()),
        };
        if let Err(why) = checked {
            return Outcome::error(format!("the model cannot be solved: {why}"), 0.0);
        }
        let sense = match &problem {
            Problem::Mip(m) => Some(m.sense),
            Problem::RowGeneration(m, _) | Problem::LazyRows(m, _, _) => Some(m.sense),
            Problem::Cp(_) => None,
        };
        if let Some(sense) = sense {
            budget.set_sense(sense);
        }
        let (outcome, integer) = match problem {
            Problem::Mip(m) => (self.0.solve_mip(m, settings, budget), m.has_integers()),
            Problem::RowGeneration(m, s) => (self.0.solve_rows(m, s, settings, budget), true),
            Problem::LazyRows(m, s, h) => (self.0.solve_lazy(m, s, h, settings, budget), true),
            Problem::Cp(m) => (self.0.solve_cp(m, settings, budget), true),
        };
        let outcome = finish(outcome, integer, settings);
        // What the engine ended with belongs to its timeline, in case it did not report
        // it as it went (recorded only where it improves on what was reported).
        budget.record_outcome(&outcome);
        outcome
    }

    /// Counts the solutions of `model` (no objective) by the engine's own enumeration
    /// ([`EngineImpl::enumerate`]), or `None` when it has none or does not take the
    /// model (counting then takes the no-good loop, which refuses with the reason).
    pub fn enumerate(
        self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
        counter: &mut dyn super::Enumeration,
    ) -> Option<Outcome> {
        if self.refusal(Kind::Mip).is_some()
            || self.model_refusal(model).is_some()
            || model.check().is_err()
        {
            return None;
        }
        budget.set_sense(model.sense);
        let outcome = self.0.enumerate(model, settings, budget, counter)?;
        let outcome = finish(outcome, true, settings);
        budget.record_outcome(&outcome);
        Some(outcome)
    }

    /// Solves one integer program (or LP) with the `options` asked for, its time limit as
    /// the budget: [`Engine::solve`] of [`Problem::Mip`] with [`Engine::settings`].
    pub fn solve_model(self, model: &Model, options: &SolveOptions) -> Outcome {
        let settings = self.settings(Kind::Mip, options);
        self.solve(
            Problem::Mip(model),
            &settings,
            &Budget::new(options.time_limit),
        )
    }

    /// The LP relaxation of `model` within `budget`, or `None` when the engine solves no
    /// LPs or the model is one it refuses.
    pub fn relaxation(
        self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
    ) -> Option<Outcome> {
        if !self.capabilities().lp_relaxation
            || self.model_refusal(model).is_some()
            || model.check().is_err()
        {
            return None;
        }
        let relaxed = model.relax();
        Some(finish(
            self.0
                .solve_relaxation(&relaxed, settings, &budget.unrecorded()),
            false,
            settings,
        ))
    }
}

/// The bound and gap of an outcome: an LP optimum is its own bound; a MIP optimum is its
/// own bound when the engine gave none and no gap was allowed (with a gap allowed, an
/// engine that reports no bound has proved none).
///
/// An answer with a value that is not finite (an engine's `optimal` on an unbounded
/// model: `x = inf`) is no answer: the run is an `error` that says which column.
fn finish(mut o: Outcome, integer: bool, settings: &Settings) -> Outcome {
    let bad = o
        .values
        .as_deref()
        .and_then(|v| v.iter().position(|x| !x.is_finite()).map(|j| (j, v[j])));
    if let Some((j, x)) = bad {
        return Outcome {
            message: Some(format!(
                "the engine answered {x} for column {j} (status {}): an answer must be finite; the model may be unbounded",
                o.status.key()
            )),
            call_seconds: o.call_seconds,
            version: o.version.take(),
            ..Outcome::error(String::new(), o.seconds)
        };
    }
    if o.status == Status::Optimal && o.best_bound.is_none() {
        let gap_allowed = integer && settings.mip_gap.is_some_and(|g| g > 0.0);
        if !gap_allowed {
            o.best_bound = o.objective;
        }
    }
    o.gap = gap(o.objective, o.best_bound);
    o
}

impl PartialEq for Engine {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Engine {}

impl std::hash::Hash for Engine {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}

impl PartialOrd for Engine {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Engine {
    /// In the order of [`registry::all`]: the built-in engines, then the definitions.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let pos = |e: &Engine| registry::all().iter().position(|x| x == e);
        pos(self).cmp(&pos(other))
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Engine::by_key(s)
    }
}

impl Serialize for Engine {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

impl<'de> Deserialize<'de> for Engine {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = String::deserialize(d)?;
        Engine::by_key(&key).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{bc, cbc, highs, microlp, propagate, Heuristics};
    use super::*;

    /// max 8a + 11b + 6c + 4d s.t. 5a + 7b + 4c + 3d <= 14, binary: optimum 21, LP 22.
    fn knapsack() -> Model {
        let mut m = Model::new("knap");
        m.sense = crate::model::Sense::Maximize;
        let w = [5.0, 7.0, 4.0, 3.0];
        let p = [8.0, 11.0, 6.0, 4.0];
        let vars: Vec<_> = (0..4)
            .map(|i| m.add_var(format!("x{i}"), VarKind::Binary, 0.0, 1.0, p[i]))
            .collect();
        m.add_le("cap", vars.iter().zip(w).map(|(v, w)| (*v, w)), 14.0);
        m
    }

    /// Every engine that takes integer programs and is installed (the external ones need
    /// their solvers).
    /// The installed engines that take integer programs, without those that refuse `m`
    /// for its shape (`hitset`: set covering only), which must say why.
    fn mip_engines(m: &Model) -> Vec<Engine> {
        ENGINES
            .iter()
            .copied()
            .filter(|e| e.takes(Kind::Mip) && e.installed())
            .filter(|e| match e.model_refusal(m) {
                None => true,
                Some(why) => {
                    assert!(why.contains(e.key()), "{e}: {why}");
                    false
                }
            })
            .collect()
    }

    #[test]
    fn every_mip_engine_solves_a_knapsack_and_its_relaxation() {
        let m = knapsack();
        let engines = mip_engines(&m);
        assert!(engines.len() >= 3);
        for e in engines {
            let s = e.settings(Kind::Mip, &SolveOptions::default());
            let o = e.solve(Problem::Mip(&m), &s, &Budget::unlimited());
            assert_eq!(o.status, Status::Optimal, "{e}: {o:?}");
            assert!((o.objective.unwrap() - 21.0).abs() < 1e-6, "{e}: {o:?}");
            assert_eq!(o.gap, Some(0.0), "{e}");
            let v = o.values.unwrap();
            assert!((m.objective_value(&v) - 21.0).abs() < 1e-6);
            if !e.capabilities().lp_relaxation {
                assert!(e.relaxation(&m, &s, &Budget::unlimited()).is_none(), "{e}");
                continue;
            }
            let lp = e.relaxation(&m, &s, &Budget::unlimited()).unwrap();
            assert_eq!(lp.status, Status::Optimal, "{e}");
            assert!((lp.objective.unwrap() - 22.0).abs() < 1e-6, "{e}: {lp:?}");
        }
    }

    #[test]
    fn every_mip_engine_reports_infeasible() {
        let mut m = Model::new("inf");
        let x = m.add_binary("x");
        let y = m.add_binary("y");
        m.add_ge("r", [(x, 1.0), (y, 1.0)], 3.0);
        for e in mip_engines(&m) {
            let s = e.settings(Kind::Mip, &SolveOptions::default());
            let o = e.solve(Problem::Mip(&m), &s, &Budget::unlimited());
            assert_eq!(o.status, Status::Infeasible, "{e}: {o:?}");
        }
    }

    #[test]
    fn unknown_engine_lists_valid_keys() {
        let e = "no-such-engine".parse::<Engine>().unwrap_err();
        assert!(
            e.contains(
                "highs, cbc, microlp, bc, propagate, sat, cadical-lin, hitset, cpsat, scip, glpk, gurobi, cplex, xpress, copt"
            ),
            "{e}"
        );
    }

    #[test]
    fn refusals_come_from_the_capabilities() {
        let m = knapsack();
        let s = Settings::default();
        let o = propagate::PROPAGATE.solve(Problem::Mip(&m), &s, &Budget::unlimited());
        assert_eq!(o.status, Status::Refused);
        let why = o.message.unwrap();
        assert!(why.starts_with("refused") && why.contains("highs"), "{why}");
        assert!(bc::BC.refusal(Kind::Mip).is_some());
        assert!(bc::BC.refusal(Kind::LazyRows).is_none());
        assert!(highs::HIGHS
            .refusal(Kind::LazyRows)
            .unwrap()
            .contains("bc, "));
    }

    #[test]
    fn each_kind_has_a_default_engine_that_takes_it() {
        for k in [Kind::Mip, Kind::RowGeneration, Kind::LazyRows, Kind::Cp] {
            assert!(k.default_engine().takes(k), "{k}");
        }
    }

    #[test]
    fn engines_round_trip_through_their_keys() {
        for &e in ENGINES {
            assert_eq!(e.key().parse::<Engine>(), Ok(e));
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(json, format!("\"{}\"", e.key()));
            assert_eq!(serde_json::from_str::<Engine>(&json).unwrap(), e);
        }
        assert!(serde_json::from_str::<Engine>("\"nope\"").is_err());
    }

    #[test]
    fn settings_are_empty_where_an_engine_has_none() {
        let o = SolveOptions::default();
        let m = microlp::MICROLP.settings(Kind::Mip, &o);
        assert_eq!((m.presolve, m.seed, m.threads), (None, None, None));
        assert_eq!(m.mip_gap, Some(0.0));
        let h = highs::HIGHS.settings(Kind::Mip, &o);
        assert_eq!(
            (h.presolve, h.seed, h.threads),
            (Some(true), Some(0), Some(1))
        );
        assert_eq!(h.heuristics, None);
        let c = cbc::CBC.settings(Kind::LazyRows, &o);
        assert_eq!(c.presolve, Some(false), "CBC's callback needs presolve off");
        let p = propagate::PROPAGATE.settings(Kind::Cp, &o);
        assert_eq!(p.heuristics, Some(Heuristics::Root));
        assert_eq!(p.mip_gap, None);
    }

    #[test]
    fn default_options_keep_their_serialised_form() {
        let json = serde_json::to_string(&SolveOptions::default()).unwrap();
        assert!(
            !json.contains("heuristics") && !json.contains("count"),
            "{json}"
        );
        let back: SolveOptions = serde_json::from_str(&json).unwrap();
        assert_eq!(back, SolveOptions::default());
        let h = SolveOptions {
            heuristics: Heuristics::None,
            count: 2,
            ..SolveOptions::default()
        };
        let json = serde_json::to_string(&h).unwrap();
        assert!(json.contains(r#""heuristics":"none""#) && json.contains(r#""count":2"#));
        assert_eq!(serde_json::from_str::<SolveOptions>(&json).unwrap(), h);
    }

    #[test]
    fn a_gap_is_claimed_only_when_proved() {
        let settings = Settings {
            mip_gap: Some(0.5),
            ..Settings::default()
        };
        let o = Outcome {
            objective: Some(10.0),
            ..Outcome::with_status(Status::Optimal, 0.0)
        };
        let f = finish(o.clone(), true, &settings);
        assert_eq!((f.best_bound, f.gap), (None, None));
        let f = finish(o, true, &Settings::default());
        assert_eq!((f.best_bound, f.gap), (Some(10.0), Some(0.0)));
    }

    #[test]
    fn gap_definition() {
        assert_eq!(gap(Some(10.0), Some(8.0)), Some(0.2));
        assert_eq!(gap(Some(0.0), Some(0.0)), Some(0.0));
        assert_eq!(gap(None, Some(1.0)), None);
    }
}
