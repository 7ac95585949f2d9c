//! Engines: the solvers a run can use, one file each, all listed in [`ENGINES`].
//!
//! An engine is whatever makes the search: HiGHS's and CBC's MIP solvers, microlp, the
//! project's own branch and cut on HiGHS's LP ([`bc`]), its own constraint propagation
//! ([`propagate`]), and the CaDiCaL SAT solver on the clause encoding of 0/1 models
//! ([`sat`], with [`cnf`]). Each declares its [`Capabilities`] once: the kinds of problem it takes
//! ([`Kind`]: one integer program, row generation, lazy rows through a callback, a
//! constraint program), the variables and coefficients it accepts, whether it solves LP
//! relaxations and keeps an incumbent at the time limit, which clock its limit runs on,
//! and which settings it applies. A problem an engine cannot take is refused from those
//! declarations in one place ([`Engine::refusal`], [`Engine::model_refusal`]), with the
//! reason, and never attempted; the settings a row records are those the engine applied
//! ([`Engine::settings`]), empty where it has no such setting.
//!
//! Every engine draws on the run's one [`Budget`]. Adding an engine is a file in this
//! folder that implements [`Solver`] and one line in [`ENGINES`].

pub mod bc;
pub mod budget;
pub mod cbc;
pub mod cnf;
pub mod cpsat;
pub mod external;
pub mod glpk;
pub mod highs;
pub mod hitset;
pub mod microlp;
pub mod propagate;
pub mod row_generation;
pub mod sat;
pub mod scip;

pub use budget::Budget;
pub use propagate::Heuristics;

use crate::cp_model::CpModel;
use crate::lazy::{SearchHints, Separator};
use crate::model::{Model, VarKind};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Every engine, in the order `list` shows them. Adding an engine: a file in this folder
/// and a line here.
pub static ENGINES: &[Engine] = &[
    highs::HIGHS,
    cbc::CBC,
    microlp::MICROLP,
    bc::BC,
    propagate::PROPAGATE,
    sat::SAT,
    hitset::HITSET,
    cpsat::CPSAT,
    scip::SCIP,
    glpk::GLPK,
];

/// The engines that take problems of `kind`, in the order of [`ENGINES`].
pub fn engines_for(kind: Kind) -> Vec<Engine> {
    ENGINES.iter().copied().filter(|e| e.takes(kind)).collect()
}

/// The general engines in this process that take problems of `kind` (those of
/// [`engines_for`] without the external ones, which need their solvers installed and start
/// a process per solve, and without the special-purpose ones, [`Capabilities::general`]).
pub fn in_process_engines_for(kind: Kind) -> Vec<Engine> {
    engines_for(kind)
        .into_iter()
        .filter(|e| !e.capabilities().external && e.capabilities().general)
        .collect()
}

/// The kind of problem a formulation hands to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// One integer program (or LP), solved as it stands.
    Mip,
    /// An integer program completed by a separator on its integer solutions: solve, add
    /// the rows the solution breaks, solve again, until a solution breaks none.
    RowGeneration,
    /// An integer program with lazy rows: the separator is called at the nodes of the
    /// engine's own search (a callback), on fractional and integral points.
    LazyRows,
    /// A constraint program over finite domains ([`CpModel`]).
    Cp,
}

impl Kind {
    /// The key used in `list` and messages.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Mip => "mip",
            Kind::RowGeneration => "row-generation",
            Kind::LazyRows => "lazy-rows",
            Kind::Cp => "cp",
        }
    }

    /// The engine used for this kind when none is named: HiGHS for integer programs and
    /// row generation, the project's branch and cut for lazy rows, propagation for
    /// constraint programs.
    pub fn default_engine(self) -> Engine {
        match self {
            Kind::Mip | Kind::RowGeneration => highs::HIGHS,
            Kind::LazyRows => bc::BC,
            Kind::Cp => propagate::PROPAGATE,
        }
    }

    /// What a problem of this kind is, for refusals.
    fn phrase(self) -> &'static str {
        match self {
            Kind::Mip => "integer programs",
            Kind::RowGeneration => "integer programs by row generation",
            Kind::LazyRows => {
                "integer programs with lazy rows (it needs a callback at the nodes of its search)"
            }
            Kind::Cp => "constraint programs",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The clock an engine's time limit runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Wall-clock time (every engine here: CBC is set to elapsed time).
    Wall,
    /// Processor time of the process.
    Cpu,
}

/// What an engine declares it can do. Refusals and the recorded settings follow from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The kinds of problem it takes.
    pub kinds: &'static [Kind],
    /// Continuous variables.
    pub continuous: bool,
    /// Integer variables beyond 0/1.
    pub general_integers: bool,
    /// Coefficients, bounds and sides that are not whole numbers.
    pub fractional_coefficients: bool,
    /// It solves the LP relaxation of a model (for the `lp_bound` column).
    pub lp_relaxation: bool,
    /// At the time limit it keeps its best solution (which is then verified).
    pub incumbent_at_limit: bool,
    /// The clock of its time limit.
    pub clock: Clock,
    /// Presolve can be switched on and off.
    pub presolve: bool,
    /// It takes a random seed.
    pub seed: bool,
    /// It takes a thread count.
    pub threads: bool,
    /// It stops at a relative MIP gap.
    pub mip_gap: bool,
    /// It takes the search heuristics of `--heuristics`.
    pub heuristics: bool,
    /// It reasons on clauses (a SAT solver): a formulation whose rows added while solving
    /// have a clause form that every solution meets (not necessarily as strong in the LP
    /// relaxation) hands it that form.
    pub clausal: bool,
    /// It runs its solver in a child process ([`external`]): each solve pays a process
    /// start, and the row records that in `call_seconds`.
    pub external: bool,
    /// It takes any model its other capabilities allow. False for a special-purpose search
    /// that takes models of one shape only and refuses the others with the reason
    /// ([`hitset`]: unit-cost set covering): plans leave the pairs it refuses out, and
    /// [`in_process_engines_for`] leaves it out.
    pub general: bool,
}

impl Capabilities {
    /// A MIP solver with everything: integer programs and row generation, every variable
    /// and coefficient, LP relaxations, an incumbent at the limit, the wall clock, and
    /// presolve, seed, threads and gap settings. Engines start from it and say what they
    /// lack.
    pub const MIP: Capabilities = Capabilities {
        kinds: &[Kind::Mip, Kind::RowGeneration],
        continuous: true,
        general_integers: true,
        fractional_coefficients: true,
        lp_relaxation: true,
        incumbent_at_limit: true,
        clock: Clock::Wall,
        presolve: true,
        seed: true,
        threads: true,
        mip_gap: true,
        heuristics: false,
        clausal: false,
        external: false,
        general: true,
    };

    /// One line for `list`: what it takes and which settings it applies.
    pub fn summary(&self) -> String {
        let kinds: Vec<&str> = self.kinds.iter().map(|k| k.key()).collect();
        let mut settings = Vec::new();
        for (on, name) in [
            (self.presolve, "presolve"),
            (self.seed, "seed"),
            (self.threads, "threads"),
            (self.mip_gap, "mip-gap"),
            (self.heuristics, "heuristics"),
        ] {
            if on {
                settings.push(name);
            }
        }
        let mut vars = vec!["binary"];
        if self.general_integers {
            vars.push("integer");
        }
        if self.continuous {
            vars.push("continuous");
        }
        format!(
            "takes {}; variables {}{}; settings {}; LP relaxation {}; incumbent at the limit {}; {} clock",
            kinds.join(", "),
            vars.join(", "),
            if self.fractional_coefficients { "" } else { " (integer coefficients)" },
            if settings.is_empty() { "none".to_string() } else { settings.join(", ") },
            if self.lp_relaxation { "yes" } else { "no" },
            if self.incumbent_at_limit { "kept" } else { "lost" },
            match self.clock {
                Clock::Wall => "wall",
                Clock::Cpu => "cpu",
            }
        )
    }
}

/// Settings asked for on the command line, the same for every engine. What an engine
/// really applies is [`Settings`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Wall-clock limit for the whole run in seconds (`None`: no limit): model building,
    /// LP relaxation and every solve draw on it ([`Budget`]).
    pub time_limit: Option<f64>,
    /// Threads the solver may use (default 1).
    pub threads: u32,
    /// Relative MIP gap at which the solver may stop (default 0: prove optimality).
    pub mip_gap: f64,
    /// Presolve on (default) or off.
    pub presolve: bool,
    /// Random seed given to the solver (default 0).
    pub seed: u64,
    /// Also solve the LP relaxation for the `lp_bound` column (default true).
    pub lp_relaxation: bool,
    /// Search heuristics of the `propagate` engine (default root); other engines ignore it.
    /// Left out of the serialised form when it is the default.
    #[serde(default, skip_serializing_if = "Heuristics::is_default")]
    pub heuristics: Heuristics,
    /// Solutions to look for (default 1). With 2 a solve also proves uniqueness: it reports
    /// 1 when the solution is unique. Formulations that cannot count ignore it. Left out of
    /// the serialised form when it is 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: None,
            threads: 1,
            mip_gap: 0.0,
            presolve: true,
            seed: 0,
            lp_relaxation: true,
            heuristics: Heuristics::default(),
            count: 1,
        }
    }
}

/// The settings an engine applies to one problem: `None` where it has no such setting.
/// These are what a result row records.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Threads.
    pub threads: Option<u32>,
    /// Relative MIP gap.
    pub mip_gap: Option<f64>,
    /// Presolve on or off.
    pub presolve: Option<bool>,
    /// Random seed (as puzzlebench numbers it; an engine may map it to its own range,
    /// one to one, as its file says).
    pub seed: Option<u64>,
    /// Search heuristics.
    pub heuristics: Option<Heuristics>,
    /// Solutions asked for.
    pub count: u32,
}

impl Settings {
    /// The settings of `options` that an engine with `caps` has.
    pub fn from_capabilities(caps: &Capabilities, options: &SolveOptions) -> Settings {
        Settings {
            threads: caps.threads.then_some(options.threads),
            mip_gap: caps.mip_gap.then_some(options.mip_gap),
            presolve: caps.presolve.then_some(options.presolve),
            seed: caps.seed.then_some(options.seed),
            heuristics: caps.heuristics.then_some(options.heuristics),
            count: options.count,
        }
    }
}

/// What an engine declares of itself, once: its key, a description and its capabilities.
pub struct Declaration {
    /// The key on the command line and in result rows.
    pub key: &'static str,
    /// One line describing the engine.
    pub description: &'static str,
    /// What it can do.
    pub capabilities: Capabilities,
}

/// What an engine file implements. Methods for kinds the engine does not declare are
/// never called (the [`Engine`] refuses first); their defaults say so.
pub trait Solver: Sync {
    /// Its key, description and capabilities.
    fn declaration(&self) -> &'static Declaration;
    /// The engine's name and version (and the LP solver underneath, where it has one), as
    /// written into result rows.
    fn version(&self) -> String;
    /// The settings it applies to a problem of `kind` (default: those its capabilities name).
    fn applied(&self, kind: Kind, options: &SolveOptions) -> Settings {
        let _ = kind;
        Settings::from_capabilities(&self.declaration().capabilities, options)
    }
    /// Why it cannot take `model` beyond what its capabilities declare (default: no
    /// reason), for a check only a solve would otherwise make (CP-SAT: a row that no
    /// integer factor makes whole). [`Engine::model_refusal`] asks it after the declared
    /// checks, so that plans leave such pairs out and a run refuses them before building
    /// anything else.
    fn refuses(&self, model: &Model) -> Option<String> {
        let _ = model;
        None
    }
    /// Solves one integer program (or LP) within `budget`.
    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        let _ = (model, settings, budget);
        not_declared(self.declaration().key, Kind::Mip)
    }
    /// Row generation: by default the shared loop of [`row_generation`], each round a
    /// fresh [`Solver::solve_mip`]; an engine that can add rows to a live solver may do
    /// better. Rows are added to `model`.
    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        row_generation::solve(model, separator, budget, |m, _| {
            self.solve_mip(m, settings, budget)
        })
    }
    /// Lazy rows through the engine's own search. Rows it adds for good may be appended to
    /// `model`.
    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        let _ = (model, separator, hints, settings, budget);
        not_declared(self.declaration().key, Kind::LazyRows)
    }
    /// A constraint program.
    fn solve_cp(&self, model: &CpModel, settings: &Settings, budget: &Budget) -> Outcome {
        let _ = (model, settings, budget);
        not_declared(self.declaration().key, Kind::Cp)
    }
    /// The LP relaxation `relaxed` (integrality already dropped); by default
    /// [`Solver::solve_mip`].
    fn solve_relaxation(&self, relaxed: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        self.solve_mip(relaxed, settings, budget)
    }
}

fn not_declared(engine: &str, kind: Kind) -> Outcome {
    Outcome::error(
        format!(
            "internal: {engine} was handed {} without declaring them",
            kind.phrase()
        ),
        0.0,
    )
}

/// A problem for an engine, of one [`Kind`].
pub enum Problem<'a> {
    /// One integer program or LP.
    Mip(&'a Model),
    /// Row generation: the model grows by the rows the separator finds.
    RowGeneration(&'a mut Model, &'a mut dyn Separator),
    /// Lazy rows in the engine's search.
    LazyRows(&'a mut Model, &'a mut dyn Separator, SearchHints),
    /// A constraint program.
    Cp(&'a CpModel),
}

impl Problem<'_> {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Problem::Mip(_) => Kind::Mip,
            Problem::RowGeneration(..) => Kind::RowGeneration,
            Problem::LazyRows(..) => Kind::LazyRows,
            Problem::Cp(_) => Kind::Cp,
        }
    }
}

/// An engine of [`ENGINES`]: a copyable handle, compared, hashed, ordered, parsed and
/// serialised by its key.
#[derive(Clone, Copy)]
pub struct Engine(&'static dyn Solver);

impl Engine {
    /// The handle of a solver (each engine file makes its constant with it).
    pub const fn new(solver: &'static dyn Solver) -> Engine {
        Engine(solver)
    }

    /// Looks an engine up by key; the error lists the valid keys.
    pub fn by_key(key: &str) -> Result<Engine, String> {
        ENGINES
            .iter()
            .copied()
            .find(|e| e.key() == key)
            .ok_or_else(|| {
                let keys: Vec<&str> = ENGINES.iter().map(|e| e.key()).collect();
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

    /// False for an engine whose solver is absent (an external one: its version says
    /// "not installed: …"); such an engine's runs end as `error` with that reason.
    pub fn installed(self) -> bool {
        !self.version().starts_with("not installed")
    }

    /// The engines of [`ENGINES`] that are installed.
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
        let able: Vec<&str> = ENGINES
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
            return Outcome::error(format!("refused: {reason}"), 0.0);
        }
        let model_reason = match &problem {
            Problem::Mip(m) => self.model_refusal(m),
            Problem::RowGeneration(m, _) | Problem::LazyRows(m, _, _) => self.model_refusal(m),
            Problem::Cp(_) => None,
        };
        if let Some(reason) = model_reason {
            return Outcome::error(reason, 0.0);
        }
        let (outcome, integer) = match problem {
            Problem::Mip(m) => (self.0.solve_mip(m, settings, budget), m.has_integers()),
            Problem::RowGeneration(m, s) => (self.0.solve_rows(m, s, settings, budget), true),
            Problem::LazyRows(m, s, h) => (self.0.solve_lazy(m, s, h, settings, budget), true),
            Problem::Cp(m) => (self.0.solve_cp(m, settings, budget), true),
        };
        finish(outcome, integer, settings)
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
        if !self.capabilities().lp_relaxation || self.model_refusal(model).is_some() {
            return None;
        }
        let relaxed = model.relax();
        Some(finish(
            self.0.solve_relaxation(&relaxed, settings, budget),
            false,
            settings,
        ))
    }
}

/// The bound and gap of an outcome: an LP optimum is its own bound; a MIP optimum is its
/// own bound when the engine gave none and no gap was allowed (with a gap allowed, an
/// engine that reports no bound has proved none).
fn finish(mut o: Outcome, integer: bool, settings: &Settings) -> Outcome {
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
    /// In the order of [`ENGINES`].
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let pos = |e: &Engine| ENGINES.iter().position(|x| x == e);
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

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Solved to proven optimality (within the gap allowed; the row's gap says how close).
    Optimal,
    /// A feasible solution without proof of optimality.
    Feasible,
    /// Proven infeasible.
    Infeasible,
    /// Stopped at the time limit.
    TimeLimit,
    /// The solver failed or the run was refused; the reason is in [`Outcome::message`].
    Error,
}

impl Status {
    /// The key written into result rows.
    pub fn key(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::TimeLimit => "time_limit",
            Status::Error => "error",
        }
    }

    /// True when the run found a solution (optimal or feasible).
    pub fn has_solution(self) -> bool {
        matches!(self, Status::Optimal | Status::Feasible)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// What an engine reports about one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How the solve ended.
    pub status: Status,
    /// Objective of the best solution found, if any.
    pub objective: Option<f64>,
    /// Best proven bound on the objective, where the engine proved one.
    pub best_bound: Option<f64>,
    /// Relative gap |objective − bound| / max(|objective|, 1e-10), computed here the same
    /// way for every engine.
    pub gap: Option<f64>,
    /// Search nodes, where the engine gives them.
    pub nodes: Option<u64>,
    /// Wall-clock seconds spent in the engine (all rounds for row generation).
    pub seconds: f64,
    /// Values of the variables of the best solution found, by column: for `optimal` and
    /// `feasible`, and for `time_limit` when the engine holds an incumbent.
    pub values: Option<Vec<f64>>,
    /// Why the solve failed, for status `error`; a note for `feasible`.
    pub message: Option<String>,
    /// Solves of the row-generation loop, or LP solves after which the search added rows.
    pub rounds: Option<u64>,
    /// Rows added while solving.
    pub cuts: Option<u64>,
    /// Seconds of `seconds` spent finding rows between solves (the separator of a
    /// row-generation loop, the follower of minimum-clue Sudoku).
    pub separator_seconds: Option<f64>,
    /// Values removed from domains by propagators (constraint programs).
    pub inferences: Option<u64>,
    /// Solutions found, up to the count asked for, where the engine counted them.
    pub solutions: Option<u64>,
    /// Conflicts of a SAT search (the `sat` engine).
    pub conflicts: Option<u64>,
    /// Clauses the SAT solver held at the end: the encoded model, rows added while
    /// solving and objective bounds (the `sat` engine).
    pub clauses: Option<u64>,
    /// Auxiliary variables of the clause encoding, beyond the model's columns (the `sat`
    /// engine).
    pub aux_variables: Option<u64>,
    /// Wall-clock seconds of the whole call to a solver in a child process (process start,
    /// model transfer, solve, reading the answer; all rounds for row generation), where
    /// `seconds` holds the solver's own solve time (the external engines: [`external`]).
    pub call_seconds: Option<f64>,
    /// The solver's name and version as the run itself reported it (an external solver's
    /// driver), in place of [`Engine::version`].
    pub version: Option<String>,
}

impl Outcome {
    /// An outcome with `status` and nothing else known.
    pub fn with_status(status: Status, seconds: f64) -> Self {
        Outcome {
            status,
            objective: None,
            best_bound: None,
            gap: None,
            nodes: None,
            seconds,
            values: None,
            message: None,
            rounds: None,
            cuts: None,
            separator_seconds: None,
            inferences: None,
            solutions: None,
            conflicts: None,
            clauses: None,
            aux_variables: None,
            call_seconds: None,
            version: None,
        }
    }

    /// An outcome with status `infeasible`.
    pub fn infeasible(seconds: f64) -> Self {
        Outcome::with_status(Status::Infeasible, seconds)
    }

    /// An outcome with status `time_limit` and nothing found.
    pub fn time_limit(seconds: f64) -> Self {
        Outcome::with_status(Status::TimeLimit, seconds)
    }

    /// An outcome with status `error` and the given reason.
    pub fn error(message: impl Into<String>, seconds: f64) -> Self {
        Outcome {
            message: Some(message.into()),
            ..Outcome::with_status(Status::Error, seconds)
        }
    }
}

/// The relative gap used for every engine: |primal − dual| / max(|primal|, 1e-10).
pub fn gap(objective: Option<f64>, bound: Option<f64>) -> Option<f64> {
    match (objective, bound) {
        (Some(p), Some(d)) if p.is_finite() && d.is_finite() => {
            Some((p - d).abs() / p.abs().max(1e-10))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::VarKind;

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
        let e = "gurobi".parse::<Engine>().unwrap_err();
        assert!(
            e.contains("highs, cbc, microlp, bc, propagate, sat, hitset, cpsat, scip, glpk"),
            "{e}"
        );
    }

    #[test]
    fn refusals_come_from_the_capabilities() {
        let m = knapsack();
        let s = Settings::default();
        let o = propagate::PROPAGATE.solve(Problem::Mip(&m), &s, &Budget::unlimited());
        assert_eq!(o.status, Status::Error);
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
