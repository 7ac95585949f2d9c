//! What the benches share.

use puzzlebench::puzzles::sudoku::{self, Sudoku};
use std::path::Path;

/// The first puzzle of a committed Sudoku file (path from the repository's root).
pub fn first(file: &str) -> Sudoku {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    sudoku::parse::parse_file(&path, &text).unwrap().remove(0)
}
