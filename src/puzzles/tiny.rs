//! The tiny instance of each puzzle and formulation that every engine solves by itself:
//! `tests/engines.rs` runs every engine on it, and `puzzlebench engine check` runs a new
//! engine definition on it. A new puzzle names one here.

use super::Puzzle;
use std::path::Path;

/// The file, under `instances/`, of the tiny instance of `puzzle` that formulation
/// `formulation` can take (its first instance; cm3 needs S and T, cm1-full at most 16
/// points), or `None` for a puzzle without one.
pub fn tiny_file(puzzle: &str, formulation: &str) -> Option<&'static str> {
    Some(match (puzzle, formulation) {
        ("sudoku", _) => "sudoku/solo_2x2.txt",
        ("battleship", _) => "battleship/table_4_2/6x6.txt",
        ("circuit", "cm3") => "circuit/cm3/6x6.txt",
        ("circuit", _) => "circuit/table_a_1/4x4.txt",
        ("hashi", _) => "hashi/tatham/t_07x07_m3.txt",
        ("zebra", _) => "zebra/generated/zebra_5x5_s1.txt",
        ("kenken", _) => "kenken/tatham/keen_4de.txt",
        ("nonogram", _) => "nonogram/tatham/pattern_5x5.txt",
        ("starbattle", _) => "starbattle/generated/sb_05x05_m1_s1.txt",
        ("queens", "least-walls") => "queens/least/q09_8x8.txt",
        ("queens", _) => "queens/boards/b08_w2_a.txt",
        ("minclue", _) => "minclue/small/grid4_a.txt",
        ("nonogram-givens", _) => "nonogram-givens/tiny/switches_5x5.txt",
        _ => return None,
    })
}

/// The tiny instance of `puzzle` for `formulation` ([`tiny_file`]), read from the
/// instance folder `instances`.
pub fn tiny_instance(
    puzzle: &dyn Puzzle,
    formulation: &str,
    instances: &Path,
) -> Result<Box<dyn super::Instance>, String> {
    let file = tiny_file(puzzle.key(), formulation)
        .ok_or_else(|| format!("no tiny instance of {} (src/puzzles/tiny.rs)", puzzle.key()))?;
    let path = instances.join(file);
    let mut all = puzzle.load(&path).map_err(|e| e.to_string())?;
    if all.is_empty() {
        return Err(format!("{}: no instance", path.display()));
    }
    Ok(all.remove(0))
}
