//! A race's instances: a ladder of rungs of rising difficulty, read from a ladder file
//! (`instances/<puzzle>/ladder.txt`, or `ladder-<question>.txt` for a puzzle that asks
//! several questions). Each rung holds instances of one size; the race takes them rung by
//! rung, in a seeded random order within each rung ([`Ladder::shuffled`]).
//!
//! The format, one rung per line, in rising difficulty (`#` starts a comment):
//!
//! ```text
//! rung 16x16: sudoku/solo_4x4_basic.txt sudoku/ladder/16x16
//! ```
//!
//! Each path is a file or a folder (every file in it but `*.md`, sorted) relative to the
//! instances folder.

use crate::puzzles::Puzzle;
use crate::rng::Rng;
use crate::runner::Loaded;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One rung: a label (its size) and its instances.
pub struct Rung {
    /// The size the rung holds (`16x16`).
    pub label: String,
    /// Its instances, each with the file it came from.
    pub instances: Vec<Loaded>,
}

/// A ladder: rungs in rising difficulty.
pub struct Ladder {
    /// The file it was read from.
    pub file: PathBuf,
    /// The rungs.
    pub rungs: Vec<Rung>,
}

/// The ladder file of `puzzle` (and `question`, for a puzzle whose formulations answer
/// different questions) in `instances_dir`.
pub fn ladder_file(instances_dir: &Path, puzzle: &str, question: Option<&str>) -> PathBuf {
    let name = match question {
        Some(q) => format!("ladder-{q}.txt"),
        None => "ladder.txt".to_string(),
    };
    instances_dir.join(puzzle).join(name)
}

impl Ladder {
    /// Reads the ladder `file` of `puzzle`, loading every instance; paths are relative to
    /// `instances_dir`. An instance met twice (the same puzzle under two names) is kept
    /// once, in its first rung. Errors name the file and line.
    pub fn read(file: &Path, puzzle: &dyn Puzzle, instances_dir: &Path) -> Result<Ladder, String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut rungs = Vec::new();
        let mut seen = HashSet::new();
        for (i, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.display(), i + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some(rest) = line.strip_prefix("rung ") else {
                return Err(format!(
                    "{at}: expected `rung LABEL: PATH...` or a # comment, found `{line}`"
                ));
            };
            let Some((label, paths)) = rest.split_once(':') else {
                return Err(format!("{at}: no `:` after the rung's label"));
            };
            let label = label.trim();
            if label.is_empty() || label.contains(char::is_whitespace) {
                return Err(format!(
                    "{at}: a rung's label is one word (`16x16`), found `{label}`"
                ));
            }
            let mut instances = Vec::new();
            for p in paths.split_whitespace() {
                let path = instances_dir.join(p);
                let files = files_of(&path).map_err(|e| format!("{at}: {e}"))?;
                for f in files {
                    let loaded = puzzle.load(&f).map_err(|e| format!("{at}: {e}"))?;
                    for instance in loaded {
                        if seen.insert(instance.canonical()) {
                            instances.push(Loaded {
                                file: f.clone(),
                                instance,
                            });
                        }
                    }
                }
            }
            if instances.is_empty() {
                return Err(format!("{at}: rung {label} holds no instance"));
            }
            rungs.push(Rung {
                label: label.to_string(),
                instances,
            });
        }
        if rungs.is_empty() {
            return Err(format!("{}: no rung", file.display()));
        }
        Ok(Ladder {
            file: file.to_path_buf(),
            rungs,
        })
    }

    /// The same ladder with each rung's instances in the random order `seed` fixes (the
    /// same seed, the same order).
    pub fn shuffled(mut self, seed: u64) -> Ladder {
        let mut rng = Rng::new(seed);
        for rung in &mut self.rungs {
            rng.shuffle(&mut rung.instances);
        }
        self
    }

    /// Instances in all rungs.
    pub fn len(&self) -> usize {
        self.rungs.iter().map(|r| r.instances.len()).sum()
    }

    /// Whether the ladder holds no instance.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The instance files `path` names: itself, or a folder's files (sorted; not `*.md`, not
/// hidden ones, not ladders), as `run --instances` takes a folder.
fn files_of(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    if !path.is_dir() {
        return Err(format!("{}: no such file or folder", path.display()));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.is_file() && crate::puzzles::is_instance_file(f))
        .collect();
    files.sort();
    Ok(files)
}

/// Where a race takes its next instance from ([`Climb::next`]): it climbs a rung after
/// an instance that every survivor solved within [`FAST`] of the time limit, and once the
/// best fails it stays in the largest rung the best solved.
#[derive(Clone, Debug, Default)]
pub struct Climb {
    /// The rung of the last instance.
    pub rung: usize,
    /// The next unused instance of each rung.
    taken: Vec<usize>,
    /// The largest rung the best has solved an instance of.
    best_solved: Option<usize>,
    /// Set once the best failed: the race no longer climbs.
    held: bool,
}

/// The fraction of the time limit within which every survivor must solve an instance for
/// the race to climb to the next rung.
pub const FAST: f64 = 0.1;

impl Climb {
    /// A climb at the first rung of a ladder of `rungs` rungs.
    pub fn new(rungs: usize) -> Climb {
        Climb {
            taken: vec![0; rungs],
            ..Climb::default()
        }
    }

    /// After an instance of rung `self.rung`: whether every survivor solved it fast,
    /// whether the best solved it.
    pub fn after(&mut self, all_fast: bool, best_solved: bool) {
        if best_solved {
            self.best_solved = Some(self.best_solved.map_or(self.rung, |r| r.max(self.rung)));
        } else {
            self.held = true;
            if let Some(r) = self.best_solved {
                self.rung = self.rung.min(r);
            }
        }
        if all_fast && !self.held {
            self.rung += 1;
        }
    }

    /// The next instance, as (rung, index within the rung) in `sizes` (instances per rung),
    /// or `None` when every rung is used up. From the current rung (the last one when past
    /// the top); when it is used up, the nearest rung with instances left, above it first
    /// while climbing and below it first once held.
    pub fn next(&mut self, sizes: &[usize]) -> Option<(usize, usize)> {
        let n = sizes.len();
        if n == 0 {
            return None;
        }
        let here = self.rung.min(n - 1);
        let mut order: Vec<usize> = vec![here];
        let (up, down): (Vec<usize>, Vec<usize>) =
            ((here + 1..n).collect(), (0..here).rev().collect());
        if self.held {
            order.extend(down);
            order.extend(up);
        } else {
            order.extend(up);
            order.extend(down);
        }
        let r = order.into_iter().find(|&r| self.taken[r] < sizes[r])?;
        self.rung = r;
        let i = self.taken[r];
        self.taken[r] += 1;
        Some((r, i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_climb_rises_while_every_survivor_is_fast_and_holds_once_the_best_fails() {
        let sizes = [2, 3, 3];
        let mut c = Climb::new(3);
        assert_eq!(c.next(&sizes), Some((0, 0)));
        c.after(true, true);
        assert_eq!(c.next(&sizes), Some((1, 0)));
        c.after(false, true); // someone slow: stay
        assert_eq!(c.next(&sizes), Some((1, 1)));
        c.after(true, true);
        assert_eq!(c.next(&sizes), Some((2, 0)));
        c.after(false, false); // the best failed in rung 2: back to rung 1, held
        assert_eq!(c.next(&sizes), Some((1, 2)));
        c.after(true, true); // fast, but held: no climbing
                             // rung 1 used up: below first once held
        assert_eq!(c.next(&sizes), Some((0, 1)));
        c.after(true, true);
        assert_eq!(c.next(&sizes), Some((2, 1)));
        assert_eq!(c.next(&sizes), Some((2, 2)));
        assert_eq!(c.next(&sizes), None);
    }

    #[test]
    fn a_bad_ladder_line_names_its_file_and_line() {
        let dir = std::env::temp_dir().join(format!("ladder-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ladder.txt");
        std::fs::write(&file, "# c\nrung 4x4 sudoku/solo_2x2.txt\n").unwrap();
        let sudoku = crate::puzzles::puzzle("sudoku").unwrap();
        let instances = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
        let e = Ladder::read(&file, sudoku, &instances).err().unwrap();
        assert!(e.contains("ladder.txt:2") && e.contains("no `:`"), "{e}");
        std::fs::write(&file, "rung 4x4: sudoku/nothing.txt\n").unwrap();
        let e = Ladder::read(&file, sudoku, &instances).err().unwrap();
        assert!(e.contains(":1:") && e.contains("no such file"), "{e}");
        std::fs::write(
            &file,
            "rung 4x4: sudoku/solo_2x2.txt\nrung 6x6: sudoku/solo_2x3_unreasonable.txt\n",
        )
        .unwrap();
        let l = Ladder::read(&file, sudoku, &instances).unwrap();
        assert_eq!(l.rungs.len(), 2);
        assert_eq!(l.len(), 10);
        let a: Vec<String> = l.shuffled(3).rungs[0]
            .instances
            .iter()
            .map(|i| i.instance.name().to_string())
            .collect();
        let l = Ladder::read(&file, sudoku, &instances).unwrap().shuffled(3);
        let b: Vec<String> = l.rungs[0]
            .instances
            .iter()
            .map(|i| i.instance.name().to_string())
            .collect();
        assert_eq!(a, b, "the same seed, the same order");
        std::fs::remove_dir_all(&dir).ok();
    }
}
