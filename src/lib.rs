//! puzzlebench: a benchmarking harness for integer-programming formulations of logic
//! puzzles, run across solver backends.
//!
//! A puzzle ([`puzzles::PUZZLES`]) loads instances from files; each instance builds a
//! backend-neutral [`model::Model`] per formulation; a [`backends::Backend`] solves it;
//! the puzzle's independent verifier checks the answer; the [`runner`] writes one
//! [`record::Record`] per run to CSV.
//!
//! ```
//! use puzzlebench::backends::{Backend, SolveOptions};
//! use puzzlebench::puzzles::{sudoku::parse::parse_line, Instance};
//!
//! let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let puzzle = parse_line(line).unwrap();
//! let report = puzzle.solve("binary", Backend::Highs, &SolveOptions::default()).unwrap();
//! assert_eq!(report.verified(), Some(true));
//! ```

pub mod backends;
pub mod branch_and_cut;
pub mod isolation;
pub mod model;
pub mod puzzles;
pub mod record;
pub mod report;
pub mod row_generation;
pub mod runner;
