//! The shape of the code: dependencies point down, with no loop between the top-level
//! modules, and no puzzle borrows from another (minimum-clue Sudoku may use Sudoku's
//! grid and nonogram givens the nonogram's clues and search, each being a problem on the
//! other). Read from the sources as text: `crate::` paths and the
//! `super::` paths that leave a puzzle's folder, outside comments and test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without comments and without its `#[cfg(test)] mod tests` module.
/// Other test-only items (a test helper module declared in a list, a test-only method)
/// do not end the code: the rest of the file still counts.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths that follow `prefix` in `code`, as their segments.
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    code.match_indices(prefix)
        .map(|(i, _)| {
            let rest = &code[i + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            rest[..end].split("::").filter(|s| !s.is_empty()).collect()
        })
        .collect()
}

/// The top-level module of a file (`report` for `src/report/plots/mod.rs`, `main` for
/// `src/main.rs`).
fn top_module(path: &Path) -> String {
    let rel = path.strip_prefix(src()).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The puzzle folders under `src/puzzles/`.
fn puzzle_folders() -> BTreeSet<String> {
    fs::read_dir(src().join("puzzles"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        // `user/` is no puzzle but a shared piece in a folder, as cages.rs and counting.rs
        // are files: formulations written outside Rust, which every puzzle's
        // user_schema.rs serves.
        .filter(|name| name != "user")
        .collect()
}

#[test]
fn no_loop_between_top_level_modules() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in rust_files(&src()) {
        let from = top_module(&f);
        if from == "main" || from == "lib" {
            continue;
        }
        for path in paths_after(&code(&f), "crate::") {
            if let Some(to) = path.first() {
                if *to != from {
                    graph
                        .entry(from.clone())
                        .or_default()
                        .insert(to.to_string());
                }
            }
        }
    }
    assert!(
        graph.contains_key("runner"),
        "the graph was not read: {graph:?}"
    );
    // Depth-first search for a cycle.
    fn visit(
        v: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        stack.push(v.to_string());
        for w in graph.get(v).into_iter().flatten() {
            match state.get(w.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == w).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(w, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in graph.keys() {
        if !state.contains_key(v.as_str()) {
            if let Some(cycle) = visit(v, &graph, &mut state, &mut Vec::new()) {
                panic!("a loop between modules: {}", cycle.join(" → "));
            }
        }
    }
}

#[test]
fn the_ground_floor_depends_on_nothing_above_it() {
    let above = [
        "report",
        "runner",
        "commands",
        "isolation",
        "shard",
        "machine",
        "puzzles",
    ];
    for name in [
        "table.rs", "stats.rs", "rng.rs", "model.rs", "lazy.rs", "record",
    ] {
        let path = src().join(name);
        let files = if path.is_dir() {
            rust_files(&path)
        } else {
            vec![path]
        };
        for f in files {
            for p in paths_after(&code(&f), "crate::") {
                assert!(
                    !above.contains(&p[0]),
                    "{} imports crate::{}",
                    f.display(),
                    p.join("::")
                );
            }
        }
    }
    for p in paths_after(&code(&src().join("shard.rs")), "crate::") {
        assert_ne!(p[0], "runner", "shard.rs imports crate::{}", p.join("::"));
    }
}

/// The puzzles that are a problem on another puzzle, and may borrow from it: minimum-clue
/// Sudoku on Sudoku, nonogram givens on nonograms.
fn problem_on(own: &str, other: &str) -> bool {
    matches!(
        (own, other),
        ("minclue", "sudoku") | ("nonogram_givens", "nonogram")
    )
}

#[test]
fn puzzles_borrow_from_no_other_puzzle_and_not_from_report_or_runner() {
    let folders = puzzle_folders();
    assert!(folders.contains("sudoku") && folders.contains("minclue"));
    for f in rust_files(&src().join("puzzles")) {
        let rel = f.strip_prefix(src().join("puzzles")).unwrap();
        let own = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let c = code(&f);
        for p in paths_after(&c, "crate::") {
            assert!(
                !["report", "runner", "commands"].contains(&p[0]),
                "{} imports crate::{}",
                f.display(),
                p.join("::")
            );
            if p[0] == "puzzles" && p.len() > 1 {
                let other = p[1];
                let allowed = other == own || problem_on(&own, other);
                assert!(
                    allowed || !folders.contains(other),
                    "{} borrows from the puzzle {other}: crate::{}",
                    f.display(),
                    p.join("::")
                );
            }
        }
        // `super::other` from a puzzle's mod.rs, `super::super::other` from its files.
        let depth_prefix = if rel.components().count() == 2 && rel.ends_with("mod.rs") {
            "super::"
        } else {
            "super::super::"
        };
        if rel.components().count() >= 2 {
            for p in paths_after(&c, depth_prefix) {
                if let Some(other) = p.first().filter(|o| **o != "super") {
                    let allowed = *other == own || problem_on(&own, other);
                    assert!(
                        allowed || !folders.contains(*other),
                        "{} borrows from the puzzle {other}",
                        f.display()
                    );
                }
            }
        }
    }
}

#[test]
fn the_engine_list_file_holds_the_list_and_the_trait_only() {
    let text = code(&src().join("engines/mod.rs"));
    assert!(text.contains("pub static ENGINES") && text.contains("pub trait EngineImpl"));
    for item in [
        "pub struct Outcome",
        "pub enum Status",
        "pub struct Capabilities",
        "pub struct Engine(",
    ] {
        assert!(!text.contains(item), "engines/mod.rs still holds {item}");
    }
    // The branch and cut and the row-generation loop take the shared types from their own
    // files, not through the list.
    for f in ["engines/row_generation.rs", "engines/bc/mod.rs"] {
        let c = code(&src().join(f));
        assert!(!c.contains("ENGINES"), "{f} reaches the engine list");
    }
}

/// No source file is over 1,500 lines (issue 75: a file that long mixes two things).
#[test]
fn no_source_file_is_over_1500_lines() {
    let long: Vec<String> = rust_files(&src())
        .into_iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(&f).unwrap().lines().count();
            (n > 1500).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "over 1,500 lines: {long:?}");
}

/// The process layer (`src/process/`) and the XML escaping (`src/xml.rs`) are below the
/// engines, the formulations and the report: they import none of them.
#[test]
fn the_process_layer_knows_no_engine_formulation_or_report() {
    let above = [
        "engines", "puzzles", "report", "runner", "commands", "race", "record",
    ];
    let mut files = rust_files(&src().join("process"));
    assert!(!files.is_empty());
    files.push(src().join("xml.rs"));
    for f in files {
        for p in paths_after(&code(&f), "crate::") {
            assert!(
                !above.contains(&p[0]),
                "{} imports crate::{}",
                f.display(),
                p.join("::")
            );
        }
    }
}

/// One module per model format (issue 75): `src/formats/` imports nothing but the model,
/// and no file outside it writes or reads MPS, LP, OPB or DIMACS CNF text (their
/// section words are found nowhere else in the code).
#[test]
fn the_model_formats_live_in_one_place() {
    let dir = src().join("formats");
    let files = rust_files(&dir);
    assert!(files.len() >= 4, "{files:?}");
    for f in &files {
        for p in paths_after(&code(f), "crate::") {
            assert!(
                ["model", "formats"].contains(&p[0]),
                "{} imports crate::{}",
                f.display(),
                p.join("::")
            );
        }
    }
    let words = ["ENDATA", "\"p cnf", "#variable=", "Subject To", "RANGES"];
    for f in rust_files(&src()) {
        if f.starts_with(&dir) {
            continue;
        }
        let text = code(&f);
        for w in words {
            assert!(!text.contains(w), "{} has the format word {w}", f.display());
        }
    }
}

/// No loop between the files of `src/engines/` (issue 75: `external` started warm
/// children and `warm` asked `external` for the interpreter).
#[test]
fn no_loop_between_the_engine_files() {
    let dir = src().join("engines");
    let name = |f: &Path| -> String {
        let rel = f.strip_prefix(&dir).unwrap();
        rel.components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string()
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in rust_files(&dir) {
        let from = name(&f);
        if from == "mod" {
            continue;
        }
        let text = code(&f);
        let mut targets: Vec<String> = paths_after(&text, "crate::engines::")
            .into_iter()
            .filter_map(|p| p.first().map(|s| s.to_string()))
            .collect();
        // `super::x` from a file directly in engines/.
        if f.parent() == Some(dir.as_path()) {
            targets.extend(
                paths_after(&text, "super::")
                    .into_iter()
                    .filter_map(|p| p.first().map(|s| s.to_string())),
            );
        }
        for to in targets {
            let is_file = dir.join(format!("{to}.rs")).exists() || dir.join(&to).is_dir();
            if to != from && is_file {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    assert!(graph.contains_key("external"), "{graph:?}");
    for (a, outs) in &graph {
        for b in outs {
            assert!(
                !graph.get(b).is_some_and(|o| o.contains(a)),
                "a loop between engines/{a} and engines/{b}"
            );
        }
    }
}

/// Code asks a formulation's source ([`puzzlebench::puzzles::FormulationSource`]), never
/// the spelling of its key (issue 75: `"user:"` was tested in four places).
#[test]
fn no_code_tests_a_formulation_key_prefix() {
    for f in rust_files(&src()) {
        let text = code(&f);
        for (i, line) in text.lines().enumerate() {
            let tests_prefix = line.contains("starts_with(\"user:\")")
                || line.contains("starts_with(PREFIX)")
                || line.contains("::PREFIX)")
                || line.contains("definition::PREFIX");
            assert!(
                !tests_prefix,
                "{}:{}: tests a formulation key's prefix: {}",
                f.display(),
                i + 1,
                line.trim()
            );
        }
    }
}
