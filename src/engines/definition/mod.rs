//! Engine definitions: an engine added by a small TOML file instead of Rust
//! (`engines/<key>.toml`, docs/engines.md "Adding an engine without Rust"). A definition
//! names a command-line solver, the format of the model file it reads ([`Input`]), its
//! command line with placeholders, the reader of its answer ([`Reader`]) and, where it
//! needs them, patterns for its log and the meaning of its exit codes; or a driver
//! (docs/driver-protocol.md): a Python `script` run on the project's environment, or a
//! program, with what it does beyond one solve (lazy rows, counting, a timeline, a
//! licence's limits). The built-in `scip`, `gurobi`, `cplex`, `xpress` and `copt` are
//! definitions of this kind compiled into the binary
//! ([`crate::engines::built_in_definitions`]). [`Definition::load`]
//! reads and checks a file (every error names the file, and the line where it has one);
//! [`Definition::into_engine`] makes it an [`crate::engines::Engine`] like any other (leaked, as the
//! built-in engines are statics), which [`super::registry`] lists beside the built-ins.
//!
//! * **Settings**: a setting is applied when the command has its placeholder, and not
//!   applied (the row leaves it empty, as for glpk's threads) when it has not.
//! * **The run** ([`DefinedEngine`]): the model is written to a temporary file (always a
//!   minimisation, columns named by position: [`input`], written by [`crate::formats`]),
//!   the command runs in a child process of its own group ([`crate::process::run_watched`]),
//!   killed [`Definition::grace`] seconds after the run's deadline (the run is then `time_limit`, without a solution),
//!   and the answer is read from the solution file or standard output. Its values are
//!   checked against the model's bounds (to 1e-6) and integrality (to 1e-5) and its rows (to 1e-5
//!   of the size of their terms) before they count as a solution; integer columns are
//!   rounded. `seconds` is the whole call (the
//!   definition gives no solver time of its own), as is `call_seconds`.
//! * **Status**: killed at the deadline: `time_limit`; else the first of the log
//!   patterns that matches (`error`, `infeasible`, `time_limit`, `optimal`, `feasible`),
//!   else the exit code's meaning ([`Definition::exit_codes`]), else what the answer says.
//!   A solution with a status that proves nothing is `optimal` when the objective is
//!   constant (a feasibility puzzle), else `feasible`; a solution said `feasible` by a
//!   solver that takes no gap is `time_limit` (only its limit stopped it short of a proof).
//! * **CNF**: the model goes through the project's clause encoding
//!   ([`crate::engines::cnf`]), and an objective is minimised by calls that each ask for a
//!   better solution (the objective's bound added as clauses), the last call's
//!   "unsatisfiable" proving the optimum.

pub mod input;
pub mod readers;

pub use input::Input;
pub use readers::{Reader, Said, Source};

mod run;
mod schema;

pub use run::DefinedEngine;
pub use schema::*;
