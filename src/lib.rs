//! puzzlebench: a benchmarking harness for integer-programming formulations of logic
//! puzzles, run across solver engines.
//!
//! A puzzle ([`puzzles::PUZZLES`]) loads instances from files; each of its formulations
//! builds a model (a engine-neutral [`model::Model`], or a [`cp_model::CpModel`]) and hands
//! it to an engine ([`engines::ENGINES`]) that declares what it can take; the puzzle's
//! independent verifier checks the answer; the [`runner`] writes one [`record::Record`]
//! per run to CSV, beside it a sweep file with the [`machine`] of every sweep; [`report`]
//! turns rows into tables and plots. The [`commands`] are what the `puzzlebench` binary
//! runs.
//!
//! ```
//! use puzzlebench::engines::{highs::HIGHS, SolveOptions};
//! use puzzlebench::puzzles::{sudoku::parse::parse_line, Solve};
//!
//! let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let puzzle = parse_line(line).unwrap();
//! let report = puzzle.solve("binary", HIGHS, &SolveOptions::default()).unwrap();
//! assert_eq!(report.verified(), Some(true));
//! ```

pub mod certify;
pub mod cgroups;
pub mod commands;
pub mod cores;
pub mod cp_model;
pub mod engines;
pub mod formats;
pub mod generate;
pub mod gz;
pub mod isolation;
pub mod lazy;
pub mod machine;
pub mod model;
pub mod process;
pub mod progress;
pub mod puzzles;
pub mod race;
pub mod record;
pub mod report;
pub mod rng;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod table;
pub mod timeline;
pub mod xml;
