//! `cplex`, `xpress` and `copt`: commercial solvers whose pip packages carry a free,
//! size-limited licence, each in a child process as `gurobi` is: the project's Python
//! environment (`scripts/setup-python.sh`) runs the driver `drivers/<key>.py` (part of
//! this binary), the solver's part of the JSON-lines protocol whose module
//! `puzzlebench_driver` serves it ([`super::driver_source`], docs/driver-protocol.md), as
//! the gurobi driver does, without its enumeration. The model goes over as a temporary
//! free MPS file and stays live in the driver for the whole run ([`super::mps_driver`]).
//!
//! * **Licences** (docs/engines.md, "CPLEX, Xpress and COPT"): each driver asks which
//!   licence runs when it starts, by a model one past the limit, and every row's version
//!   names it ("…; size-limited licence: …" or "…; full licence"), a full licence the user
//!   has being used where the solver finds one. Under the size-limited licence a model
//!   over the limit is refused before anything is started (status `refused`, the reason
//!   giving the numbers); a row-generation run whose model grows past it ends as the same
//!   refusal at the round that would pass it. The limits, measured here with the
//!   packages of setup-python.sh: CPLEX Community Edition (`cplex` 22.2) 1,000 variables
//!   and 1,000 rows; Xpress's community licence (`xpress` 9.9) 5,000 rows and columns
//!   together; COPT without a licence file (`coptpy` 8.0) 2,000 variables and 2,000 rows.
//! * **Settings**: the time limit (what is left of the run's budget when the driver starts
//!   solving), threads (1 unless asked), the gap, presolve (on or off), and the seed
//!   (CPLEX and Xpress; COPT has none). `seconds` is the solver's solve time,
//!   `call_seconds` the whole call; `nodes` and `best_bound` its own.
//! * **LP relaxation**: the relaxed model, solved the same way (`lp_bound`).
//! * **Row generation**: the shared loop on one live model; each round adds the rows
//!   found since and solves again.
//! * **Lazy rows** (`cplex`, `copt`): a callback at each integer-feasible candidate (CPLEX's
//!   generic callback in its candidate context, COPT's at a MIP solution) hands it to the
//!   separator and rejects it with the rows it returns, as `gurobi` does
//!   ([`mps_driver::solve_lazy`]). Xpress's driver has no callback, so `xpress` takes
//!   no lazy-row formulation (Circuit `cm1-rowgen` runs on it through the shared loop).
//! * No timeline or enumeration of their own (counting uses the shared no-good loop).

use super::driver_source::BuiltIn;
use super::external;
use super::gurobi::{thousands, Licence};
use super::mps_driver;
use super::{Budget, Capabilities, Declaration, Engine, EngineImpl, Kind, Outcome, Settings};
use crate::lazy::{SearchHints, Separator};
use crate::model::Model;
use std::sync::OnceLock;

/// What a size-limited licence takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeLimit {
    /// At most this many variables and this many rows (CPLEX, COPT).
    Each { variables: usize, rows: usize },
    /// At most this many rows and columns together (Xpress).
    Together(usize),
}

impl SizeLimit {
    /// Why a model of `vars` columns and `rows` rows is refused, if it is.
    pub fn refusal(self, vars: usize, rows: usize) -> Option<String> {
        match self {
            SizeLimit::Each { variables, rows: r } => {
                let mut over = Vec::new();
                if vars > variables {
                    over.push(format!("{} variables", thousands(vars)));
                }
                if rows > r {
                    over.push(format!("{} rows", thousands(rows)));
                }
                (!over.is_empty()).then(|| {
                    format!(
                        "the size-limited licence takes {} variables and {} rows; this model has {}",
                        thousands(variables),
                        thousands(r),
                        over.join(" and ")
                    )
                })
            }
            SizeLimit::Together(total) => (vars + rows > total).then(|| {
                format!(
                    "the size-limited licence takes {} rows and columns together; this model has {} columns and {} rows ({})",
                    thousands(total),
                    thousands(vars),
                    thousands(rows),
                    thousands(vars + rows)
                )
            }),
        }
    }
}

/// A solver with a size-limited licence through its Python driver.
pub struct Licensed {
    declaration: &'static Declaration,
    /// Its driver ([`super::driver_source`]: the protocol module ahead of it).
    driver: BuiltIn,
    limit: SizeLimit,
    version: &'static OnceLock<String>,
}

/// What each takes: integer programs, row generation, and lazy rows where the driver has
/// a callback for them (CPLEX's generic callback, COPT's; Xpress's has none here); the
/// seed where the solver has one.
const fn capabilities(seed: bool, lazy: bool) -> Capabilities {
    Capabilities {
        kinds: if lazy {
            &[Kind::Mip, Kind::RowGeneration, Kind::LazyRows]
        } else {
            &[Kind::Mip, Kind::RowGeneration]
        },
        external: true,
        general: true,
        timeline: false,
        seed,
        ..Capabilities::MIP
    }
}

static CPLEX_DECLARATION: Declaration = Declaration {
    key: "cplex",
    description: "IBM CPLEX (cplex, Community Edition unless a licence is found), in a child process (project Python environment), on the model as MPS",
    capabilities: capabilities(true, true),
};
static CPLEX_VERSION: OnceLock<String> = OnceLock::new();

static CPLEX_IMPL: Licensed = Licensed {
    declaration: &CPLEX_DECLARATION,
    driver: BuiltIn::new(include_str!("drivers/cplex.py")),
    limit: SizeLimit::Each {
        variables: 1000,
        rows: 1000,
    },
    version: &CPLEX_VERSION,
};

static XPRESS_DECLARATION: Declaration = Declaration {
    key: "xpress",
    description: "FICO Xpress (xpress, community licence unless a licence is found; its terms forbid publishing benchmark results without FICO's consent), in a child process (project Python environment), on the model as MPS",
    capabilities: capabilities(true, false),
};
static XPRESS_VERSION: OnceLock<String> = OnceLock::new();

static XPRESS_IMPL: Licensed = Licensed {
    declaration: &XPRESS_DECLARATION,
    driver: BuiltIn::new(include_str!("drivers/xpress.py")),
    limit: SizeLimit::Together(5000),
    version: &XPRESS_VERSION,
};

static COPT_DECLARATION: Declaration = Declaration {
    key: "copt",
    description: "COPT, Cardinal Optimizer (coptpy, size-limited for non-commercial use unless a licence is found), in a child process (project Python environment), on the model as MPS (no seed)",
    capabilities: capabilities(false, true),
};
static COPT_VERSION: OnceLock<String> = OnceLock::new();

static COPT_IMPL: Licensed = Licensed {
    declaration: &COPT_DECLARATION,
    driver: BuiltIn::new(include_str!("drivers/copt.py")),
    limit: SizeLimit::Each {
        variables: 2000,
        rows: 2000,
    },
    version: &COPT_VERSION,
};

/// IBM CPLEX.
pub const CPLEX: Engine = Engine::new(&CPLEX_IMPL);
/// FICO Xpress.
pub const XPRESS: Engine = Engine::new(&XPRESS_IMPL);
/// COPT.
pub const COPT: Engine = Engine::new(&COPT_IMPL);

impl Licensed {
    /// The licence that runs here (None: the solver is not installed).
    fn licence(&self) -> Option<Licence> {
        Licence::of_version(&self.version())
    }
}

impl EngineImpl for Licensed {
    fn declaration(&self) -> &'static Declaration {
        self.declaration
    }

    fn driver(&self) -> Option<&'static str> {
        Some(self.driver.source())
    }

    fn version(&self) -> String {
        external::cached_version(self.version, || {
            external::driver_output(self.driver.source(), &["probe"])
        })
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        match self.licence()? {
            Licence::SizeLimited => self.limit.refusal(model.vars.len(), model.rows.len()),
            Licence::Full => None,
            Licence::Refused(why) => Some(format!("licence refused: {why}")),
        }
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        external::with_python(|python| {
            mps_driver::solve_once(python, self.driver.source(), model, settings, budget)
        })
    }

    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        let limited = self.licence() == Some(Licence::SizeLimited);
        external::with_python(|python| {
            mps_driver::solve_rows(
                python,
                self.driver.source(),
                model,
                separator,
                settings,
                budget,
                |v, r| self.limit.refusal(v, r).filter(|_| limited),
            )
        })
    }

    fn solve_lazy(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        _hints: SearchHints,
        settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        external::with_python(|python| {
            mps_driver::solve_lazy(
                python,
                self.driver.source(),
                model,
                separator,
                settings,
                budget,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_refusals_give_the_numbers() {
        let each = SizeLimit::Each {
            variables: 1000,
            rows: 1000,
        };
        assert_eq!(each.refusal(1000, 1000), None);
        assert_eq!(
            each.refusal(2916, 12).unwrap(),
            "the size-limited licence takes 1,000 variables and 1,000 rows; this model has 2,916 variables"
        );
        let together = SizeLimit::Together(5000);
        assert_eq!(together.refusal(4000, 1000), None);
        assert_eq!(
            together.refusal(4000, 1001).unwrap(),
            "the size-limited licence takes 5,000 rows and columns together; this model has 4,000 columns and 1,001 rows (5,001)"
        );
    }

    #[test]
    fn the_licence_is_read_from_the_version_line() {
        let v = "Xpress 9.9.1 (optimizer 47.01.02; size-limited licence: community licence, 5,000 rows and columns together)";
        assert_eq!(Licence::of_version(v), Some(Licence::SizeLimited));
        let v = "CPLEX 22.2.0.0 (cplex 22.2.0.1; full licence)";
        assert_eq!(Licence::of_version(v), Some(Licence::Full));
    }
}
