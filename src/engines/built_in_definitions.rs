//! The built-in engines that run a Python driver: `scip`, `gurobi`, `cplex`, `xpress` and
//! `copt` are engine definitions compiled into the binary (`drivers/<key>.toml` and the
//! driver `drivers/<key>.py` beside it), run by the same code as a user's definition
//! ([`super::definition`]): the same protocol, model file, answer checks and refusals.
//! What only these needed once had a Rust wrapper each and is now a field a user's
//! definition may give too: the driver as a `script` on the project's Python environment
//! (cold or forked by its fork server), the version from the driver's `probe`, size
//! limits that hold under a size-limited licence only (`limits.when`, `limits.together`),
//! lazy rows through the solver's callback (`takes = [..., "lazy-rows"]`), counting
//! (`enumerates`) and the timeline (`timeline`).
//!
//! `cpsat` keeps its own protocol ([`super::cpsat`]): its model goes over as CP-SAT's own
//! model message (integer variables, linear and Boolean constraints), not as an MPS file,
//! and its driver adds what no MPS reader has (hints, clause rows, objective scaling).
//! `glpk` and `prolog` run programs through the process layer but read what no
//! definition reads: glpsol's log as a timeline and its solve time from the arrival of
//! its log lines ([`super::glpk`]); a Prolog program generated from the model
//! ([`super::prolog`]).

use super::definition::{DefinedEngine, Definition};
use super::{Budget, Declaration, Engine, EngineImpl, Enumeration, Outcome, Settings};
use crate::lazy::{SearchHints, Separator};
use crate::model::Model;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A definition compiled into the binary: its TOML, its driver, and the engine they
/// make, built at first use.
pub struct BuiltInDefinition {
    /// The definition file's place in the source tree (for messages).
    file: &'static str,
    /// The definition's text.
    toml: &'static str,
    /// Its driver script's name and source.
    script: (&'static str, &'static str),
    engine: OnceLock<&'static DefinedEngine>,
}

impl BuiltInDefinition {
    const fn new(
        file: &'static str,
        toml: &'static str,
        script: (&'static str, &'static str),
    ) -> BuiltInDefinition {
        BuiltInDefinition {
            file,
            toml,
            script,
            engine: OnceLock::new(),
        }
    }

    /// The definition, checked as a user's is (a built-in one that fails its checks is a
    /// bug of this build: the tests read every one).
    pub fn definition(&self) -> Result<Definition, String> {
        let (name, source) = self.script;
        let folder = Path::new(self.file).parent().unwrap_or(Path::new(""));
        Definition::parse_with(self.toml, Path::new(self.file), &|wanted| {
            if wanted == name {
                Ok((folder.join(name), source.to_string()))
            } else {
                Err(format!("script '{wanted}': no such built-in driver"))
            }
        })
    }

    /// One solve by its driver on the interpreter `python` ([`DefinedEngine::solve_with`]:
    /// for tests that stand in another interpreter).
    pub fn solve_with(
        &self,
        python: &Path,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        self.engine()
            .solve_with(python, model, settings, budget)
            .expect("a built-in definition has a script")
    }

    /// The engine the definition makes.
    fn engine(&self) -> &'static DefinedEngine {
        self.engine.get_or_init(|| {
            let definition = self
                .definition()
                .unwrap_or_else(|e| panic!("a built-in engine definition fails its checks: {e}"));
            definition.into_defined()
        })
    }

    /// The definition file's place in the source tree.
    pub fn file(&self) -> PathBuf {
        PathBuf::from(self.file)
    }
}

/// Makes a [`BuiltInDefinition`] of `drivers/<key>.toml` and `drivers/<key>.py`.
macro_rules! built_in {
    ($key:literal) => {
        BuiltInDefinition::new(
            concat!("src/engines/drivers/", $key, ".toml"),
            include_str!(concat!("drivers/", $key, ".toml")),
            (
                concat!($key, ".py"),
                include_str!(concat!("drivers/", $key, ".py")),
            ),
        )
    };
}

/// `scip`'s definition (`drivers/scip.toml`).
pub static SCIP_DEFINITION: BuiltInDefinition = built_in!("scip");
static GUROBI_DEFINITION: BuiltInDefinition = built_in!("gurobi");
static CPLEX_DEFINITION: BuiltInDefinition = built_in!("cplex");
static XPRESS_DEFINITION: BuiltInDefinition = built_in!("xpress");
static COPT_DEFINITION: BuiltInDefinition = built_in!("copt");

/// SCIP (PySCIPOpt).
pub const SCIP: Engine = Engine::new(&SCIP_DEFINITION);
/// The Gurobi Optimizer (gurobipy), the report's own solver.
pub const GUROBI: Engine = Engine::new(&GUROBI_DEFINITION);
/// IBM CPLEX (Community Edition unless a licence is found).
pub const CPLEX: Engine = Engine::new(&CPLEX_DEFINITION);
/// FICO Xpress (community licence unless a licence is found).
pub const XPRESS: Engine = Engine::new(&XPRESS_DEFINITION);
/// COPT (size-limited unless a licence is found).
pub const COPT: Engine = Engine::new(&COPT_DEFINITION);

/// Every built-in definition, in the order of [`super::ENGINES`].
pub static ALL: &[&BuiltInDefinition] = &[
    &SCIP_DEFINITION,
    &GUROBI_DEFINITION,
    &CPLEX_DEFINITION,
    &XPRESS_DEFINITION,
    &COPT_DEFINITION,
];

/// The definition file of the built-in engine `key`, where a definition makes it.
pub fn file_of(key: &str) -> Option<PathBuf> {
    ALL.iter()
        .find(|d| d.file.ends_with(&format!("/{key}.toml")))
        .map(|d| d.file())
}

impl EngineImpl for BuiltInDefinition {
    fn declaration(&self) -> &'static Declaration {
        self.engine().declaration()
    }

    fn driver(&self) -> Option<&'static str> {
        self.engine().driver()
    }

    fn licence(&self) -> Option<super::definition::LicenceTerms> {
        self.engine().licence()
    }

    fn version(&self) -> String {
        self.engine().version()
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        self.engine().refuses(model)
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        self.engine().solve_mip(model, settings, budget)
    }

    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        self.engine().solve_rows(model, separator, settings, budget)
    }

    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        self.engine()
            .solve_lazy(model, separator, hints, settings, budget)
    }

    fn enumerate(
        &self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
        counter: &mut dyn Enumeration,
    ) -> Option<Outcome> {
        self.engine().enumerate(model, settings, budget, counter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Kind;

    #[test]
    fn every_built_in_definition_passes_the_checks_of_a_users() {
        for d in ALL {
            let def = d.definition().unwrap_or_else(|e| panic!("{e}"));
            assert!(def.script.is_some(), "{}", d.file);
            assert!(file_of(&def.key).is_some_and(|f| f.ends_with(format!("{}.toml", def.key))));
        }
        let keys: Vec<&str> = [SCIP, GUROBI, CPLEX, XPRESS, COPT]
            .iter()
            .map(|e| e.key())
            .collect();
        assert_eq!(keys, ["scip", "gurobi", "cplex", "xpress", "copt"]);
    }

    #[test]
    fn what_each_takes_is_what_its_wrapper_declared() {
        let lazy = |e: Engine| e.takes(Kind::LazyRows);
        assert!(!lazy(SCIP) && lazy(GUROBI) && lazy(CPLEX) && !lazy(XPRESS) && lazy(COPT));
        for e in [SCIP, GUROBI, CPLEX, XPRESS, COPT] {
            let c = e.capabilities();
            assert!(
                e.takes(Kind::Mip) && e.takes(Kind::RowGeneration),
                "{}",
                e.key()
            );
            assert!(c.external && c.general && c.lp_relaxation && c.general_integers);
            assert!(c.presolve && c.mip_gap, "{}", e.key());
            assert_eq!(c.threads, e.key() != "scip", "{}", e.key());
            assert_eq!(c.seed, e.key() != "copt", "{}", e.key());
            assert_eq!(
                c.timeline,
                ["scip", "gurobi"].contains(&e.key()),
                "{}",
                e.key()
            );
        }
    }
}
