//! Summaries of result rows.

pub mod summary;
