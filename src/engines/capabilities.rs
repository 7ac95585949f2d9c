//! What an engine declares it can do ([`Capabilities`], in its [`Declaration`]), the
//! options asked for on the command line ([`SolveOptions`], the same for every engine) and
//! the settings an engine really applies to one problem ([`Settings`], what a row records).

use super::problem::Kind;
use super::propagate::Heuristics;
use serde::{Deserialize, Serialize};

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
    /// It reports each improving incumbent (and, where it has them, its bounds) as its
    /// search finds them, so that the run's timeline and its anytime columns
    /// (`first_solution_seconds`, the primal integral) say when solutions came; an engine
    /// without it is known only by how its solve ended, and those columns stay empty.
    pub timeline: bool,
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
        timeline: true,
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
            "takes {}; variables {}{}; settings {}; LP relaxation {}; incumbent at the limit {}; timeline {}; {} clock",
            kinds.join(", "),
            vars.join(", "),
            if self.fractional_coefficients { "" } else { " (integer coefficients)" },
            if settings.is_empty() { "none".to_string() } else { settings.join(", ") },
            if self.lp_relaxation { "yes" } else { "no" },
            if self.incumbent_at_limit { "kept" } else { "lost" },
            if self.timeline { "reported" } else { "none" },
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
    /// Search heuristics of the `propagate` and `prolog` engines (default root; `prolog`
    /// applies `none` for it); other engines ignore it.
    /// Left out of the serialised form when it is the default.
    #[serde(default, skip_serializing_if = "Heuristics::is_default")]
    pub heuristics: Heuristics,
    /// Solutions to look for (default 1). With 2 a solve also proves uniqueness: it reports
    /// 1 when the solution is unique. Formulations that cannot count ignore it. Left out of
    /// the serialised form when it is 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: u32,
    /// Certify the run's claim (`optimal`, `unique`, `infeasible`) with a proof that VeriPB
    /// checks ([`crate::certify`]), the certifying search and the checker each limited to
    /// this many seconds; `None` (the default): no certificate. Left out of the serialised
    /// form when off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certify: Option<f64>,
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
            certify: None,
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
