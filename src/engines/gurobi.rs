//! `gurobi`: the Gurobi Optimizer, the report's own solver (its chapter 2: Gurobi 11.0.3),
//! in a child process: the project's Python environment runs the driver
//! `drivers/gurobi.py` (part of this binary) on gurobipy. The model goes over as a
//! temporary free MPS file and stays live in the driver for the whole run
//! ([`super::mps_driver`]); the answer comes back as JSON ([`super::external`]).
//!
//! * **Licence**: gurobipy carries a size-limited licence (2,000 variables and 2,000
//!   rows); a full licence the user has is used instead when Gurobi finds one
//!   (`GRB_LICENSE_FILE`, or its default places). The driver asks which one runs when it
//!   starts (a model of 2,001 columns is refused by the size-limited one only), and the
//!   version in every row names it ("…; size-limited licence, expires …" or "…; full
//!   licence"). Under the size-limited licence a model over the limit is refused before
//!   anything is built or started ([`EngineImpl::refuses`]: status `refused`, the reason
//!   giving both numbers); a row-generation run whose model grows past it ends as the same
//!   refusal at the round that would pass it, with the rounds and rows it had. Rows added
//!   through the lazy-row callback, and no-good rows when counting, are not model rows:
//!   Gurobi takes them past the limit (measured: 1,999 rows and 50 lazy rows on 2,000
//!   columns solve), so they are not refused. A licence Gurobi rejects (expired, none) is
//!   a refusal of every model, and `list` says so.
//! * **Settings**: the time limit (`TimeLimit`, set by the driver to what is left of the
//!   run's budget when it starts solving), threads (`Threads`, 1 unless asked), the gap
//!   (`MIPGap`), the seed (`Seed`, s mod (2³¹ − 1)) and presolve (off: `Presolve=0`).
//!   `seconds` is Gurobi's `Runtime`, `call_seconds` the whole call; `nodes` its node
//!   count, `best_bound` its `ObjBound`.
//! * **LP relaxation**: the relaxed model, solved by Gurobi the same way (`lp_bound`).
//! * **Timeline**: with a timeline recorded, a callback reports each incumbent
//!   (`MIPSOL`) with the bound, and the bound as it improves (`MIP`, at most every
//!   20 ms); without one, no callback is installed.
//! * **Row generation**: the shared loop of [`super::row_generation`] on one live Gurobi
//!   model: each round adds the rows found since to it and optimizes again from scratch
//!   (`reset`).
//! * **Lazy rows** (`cm1-lazy`, the report's chapter 5 method): one branch and cut with
//!   `LazyConstraints=1` (for lazy-row runs only, since it restricts presolve). At each
//!   new incumbent the driver's callback first re-checks the lazy rows it already added
//!   (Gurobi may hand over a point violating one: they are added again), then asks
//!   puzzlebench's separator over the pipe; the rows it answers are added by `cbLazy`,
//!   and no row means the incumbent is a solution. `cuts` counts the lazy rows added.
//! * **Counting** (`--count K`): one search in which every incumbent goes to puzzlebench
//!   and is cut off by `cbLazy` with the no-good row puzzlebench answers (every answer,
//!   whatever columns it is read from), with `LazyConstraints=1` and dual reductions off
//!   so that no solution is lost, until K are counted or the tree is empty. (Gurobi's
//!   solution pool would count assignments of all columns, which differ from answers
//!   where a formulation has columns the answer is not read from; one path serves both.)

use super::driver_source::BuiltIn;
use super::external;
use super::mps_driver;
use super::{
    Budget, Capabilities, Declaration, Engine, EngineImpl, Enumeration, Kind, Outcome, Settings,
};
use crate::lazy::{SearchHints, Separator};
use crate::model::Model;

/// The engine.
pub const GUROBI: Engine = Engine::new(&Gurobi);

/// Gurobi through its Python driver.
pub struct Gurobi;

static DECLARATION: Declaration = Declaration {
    key: "gurobi",
    description: "Gurobi (gurobipy), in a child process (project Python environment), on the model as MPS; lazy rows through its callback",
    capabilities: Capabilities {
        kinds: &[Kind::Mip, Kind::RowGeneration, Kind::LazyRows],
        external: true,
        general: true,
        timeline: true,
        ..Capabilities::MIP
    },
};

/// The driver, run as `python -I -c` or by its fork server ([`super::warm`]), with the
/// protocol module ahead of it ([`super::driver_source`]).
static DRIVER: BuiltIn = BuiltIn::new(include_str!("drivers/gurobi.py"));

/// Columns and rows the size-limited licence takes.
pub const SIZE_LIMIT: usize = 2000;

/// The licence Gurobi runs under, as the driver found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Licence {
    /// The licence gurobipy carries: at most [`SIZE_LIMIT`] columns and rows.
    SizeLimited,
    /// A licence without a size limit.
    Full,
    /// Gurobi rejects the licence (expired, none found): its message.
    Refused(String),
}

impl Licence {
    /// The licence a version line names (as the driver writes it).
    pub fn of_version(version: &str) -> Option<Licence> {
        if let Some(i) = version.find("licence refused: ") {
            let rest = &version[i + "licence refused: ".len()..];
            let why = rest.strip_suffix(')').unwrap_or(rest);
            return Some(Licence::Refused(why.to_string()));
        }
        if version.contains("size-limited licence") {
            return Some(Licence::SizeLimited);
        }
        version.contains("full licence").then_some(Licence::Full)
    }
}

/// Why the size-limited licence refuses a model of `vars` columns and `rows` rows, if it
/// does.
pub fn size_refusal(vars: usize, rows: usize) -> Option<String> {
    if vars <= SIZE_LIMIT && rows <= SIZE_LIMIT {
        return None;
    }
    let mut over = Vec::new();
    if vars > SIZE_LIMIT {
        over.push(format!("{} variables", thousands(vars)));
    }
    if rows > SIZE_LIMIT {
        over.push(format!("{} rows", thousands(rows)));
    }
    Some(format!(
        "the size-limited licence takes {} variables and {} rows; this model has {}",
        thousands(SIZE_LIMIT),
        thousands(SIZE_LIMIT),
        over.join(" and ")
    ))
}

/// `n` with a comma between thousands.
pub(crate) fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Gurobi {
    /// The licence that runs here (None: Gurobi is not installed).
    fn licence(&self) -> Option<Licence> {
        Licence::of_version(&self.version())
    }
}

impl EngineImpl for Gurobi {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn driver(&self) -> Option<&'static str> {
        Some(DRIVER.source())
    }

    fn version(&self) -> String {
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        external::cached_version(&VERSION, || {
            external::driver_output(DRIVER.source(), &["probe"])
        })
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        match self.licence()? {
            Licence::SizeLimited => size_refusal(model.vars.len(), model.rows.len()),
            Licence::Full => None,
            Licence::Refused(why) => Some(format!("licence refused: {why}")),
        }
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        external::with_python(|python| {
            mps_driver::solve_once(python, DRIVER.source(), model, settings, budget)
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
                DRIVER.source(),
                model,
                separator,
                settings,
                budget,
                |v, r| size_refusal(v, r).filter(|_| limited),
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
            mps_driver::solve_lazy(python, DRIVER.source(), model, separator, settings, budget)
        })
    }

    fn enumerate(
        &self,
        model: &Model,
        settings: &Settings,
        budget: &Budget,
        counter: &mut dyn Enumeration,
    ) -> Option<Outcome> {
        Some(mps_driver::enumerate_once(
            DRIVER.source(),
            model,
            settings,
            budget,
            counter,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_licence_is_read_from_the_version_line() {
        let v = "Gurobi 13.0.3 (gurobipy 13.0.3; size-limited licence, expires 2027-11-29)";
        assert_eq!(Licence::of_version(v), Some(Licence::SizeLimited));
        let v = "Gurobi 13.0.3 (gurobipy 13.0.3; full licence)";
        assert_eq!(Licence::of_version(v), Some(Licence::Full));
        let v = "Gurobi 13.0.3 (gurobipy 13.0.3; licence refused: License expired (Gurobi error 10009))";
        assert_eq!(
            Licence::of_version(v),
            Some(Licence::Refused(
                "License expired (Gurobi error 10009)".to_string()
            ))
        );
        assert_eq!(Licence::of_version("not installed: gurobipy"), None);
    }

    #[test]
    fn the_size_refusal_gives_the_numbers() {
        assert_eq!(size_refusal(2000, 2000), None);
        assert_eq!(
            size_refusal(4096, 12).unwrap(),
            "the size-limited licence takes 2,000 variables and 2,000 rows; this model has 4,096 variables"
        );
        assert!(size_refusal(10, 2001).unwrap().ends_with("has 2,001 rows"));
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
