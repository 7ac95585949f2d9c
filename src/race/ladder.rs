//! A race's instances: a ladder of rungs of rising difficulty, read from a ladder file
//! (`instances/<puzzle>/ladder.txt`, or `ladder-<question>.txt` for a puzzle that asks
//! several questions). Each rung holds instances of one size; a race's plan takes one from each
//! rung in turn, in a seeded random order within each rung ([`Ladder::plan`]).
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

    /// The race's plan: at most `size` instances, in the order a race runs them, each with
    /// its rung's index. Stratified over the rungs: one instance from each rung in turn,
    /// from the lowest up, round after round (a rung used up is passed over), each rung's
    /// instances in the order `seed` fixes ([`Ladder::shuffled`]). The plan depends on the
    /// ladder, the seed and the size alone: the same on any machine and with any engines.
    pub fn plan(self, seed: u64, size: usize) -> Vec<(usize, Loaded)> {
        let mut rungs: Vec<std::vec::IntoIter<Loaded>> = self
            .shuffled(seed)
            .rungs
            .into_iter()
            .map(|r| r.instances.into_iter())
            .collect();
        let mut out = Vec::new();
        while out.len() < size {
            let before = out.len();
            for (g, rung) in rungs.iter_mut().enumerate() {
                if out.len() == size {
                    break;
                }
                if let Some(l) = rung.next() {
                    out.push((g, l));
                }
            }
            if out.len() == before {
                break;
            }
        }
        out
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_plan_takes_each_rung_in_turn_and_depends_on_the_seed_alone() {
        let sudoku = crate::puzzles::puzzle("sudoku").unwrap();
        let instances = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
        let file = ladder_file(&instances, "sudoku", None);
        let names = |seed, size| -> Vec<(usize, String)> {
            Ladder::read(&file, sudoku, &instances)
                .unwrap()
                .plan(seed, size)
                .into_iter()
                .map(|(g, l)| (g, l.instance.name().to_string()))
                .collect()
        };
        let a = names(1, 36);
        assert_eq!(a.len(), 36);
        assert_eq!(a, names(1, 36), "the same seed, the same plan");
        assert_ne!(a, names(2, 36));
        // The first round takes one instance of each rung, from the lowest up.
        let rungs = Ladder::read(&file, sudoku, &instances).unwrap().rungs.len();
        let first: Vec<usize> = a.iter().take(rungs).map(|x| x.0).collect();
        assert_eq!(first, (0..rungs).collect::<Vec<_>>());
        // A shorter plan is the longer one's beginning.
        assert_eq!(names(1, 12)[..], a[..12]);
        // No instance twice; a plan longer than the ladder holds the whole ladder.
        let all = names(1, 10_000);
        let unique: HashSet<&String> = all.iter().map(|x| &x.1).collect();
        assert_eq!(unique.len(), all.len());
        assert_eq!(
            all.len(),
            Ladder::read(&file, sudoku, &instances).unwrap().len()
        );
    }
}
