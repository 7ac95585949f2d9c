//! Formulations written outside Rust (docs/user-formulations.md): a definition file and a
//! program that writes LP or MPS join `solve`, `run`, `race` and `export` under their
//! `user:` key; their answers are read from the puzzle's answer variables and checked by
//! its verifier. The shipped examples (examples/formulations/): the report's Battleship
//! `gbm` in PuLP builds the built-in model plus its answer layer and solves and verifies
//! on highs, cbc, sat and cpsat; Sudoku `binary` in plain Python builds exactly the
//! built-in model; the deliberately wrong Star Battle model is caught on its first
//! instance, with the rule it breaks, and the sweep goes on. Bad definitions and bad
//! models give clear errors: a definition naming an unknown puzzle, a command that fails,
//! a model that does not parse, a missing answer variable, a non-binary answer value.

use puzzlebench::formats::{read_model, Format};
use puzzlebench::model::Model;
use puzzlebench::puzzles;
use puzzlebench::record::file::read_results;
use puzzlebench::record::Record;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn examples() -> String {
    root().join("examples/formulations").display().to_string()
}

fn pb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run puzzlebench")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// A fresh scratch folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pb-user-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// True when the project's Python has `module`; else says why the test is skipped.
fn python_has(module: &str, test: &str) -> bool {
    let python = root().join(".venv/bin/python");
    let ok = Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped {test}: {module} is not in .venv (scripts/setup-python.sh installs it)");
    }
    ok
}

/// Runs a sweep and returns its rows.
fn sweep(dir: &Path, args: &[&str]) -> Vec<Record> {
    let out = dir.join("results.csv");
    let mut all = vec!["run", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = pb(&all);
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "{}\n{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    read_results(&out).unwrap()
}

/// The model a user formulation writes for the first instance of `file`, read back.
fn user_model(puzzle: &str, file: &str, key: &str, dir: &Path) -> Model {
    let out = dir.join(format!("{}.mps", key.replace(':', "-")));
    let o = pb(&[
        "--formulations",
        &examples(),
        "export",
        file,
        "--puzzle",
        puzzle,
        "--formulation",
        key,
        "--mps",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    read_model(&out, Format::Mps).unwrap()
}

#[test]
fn the_pulp_gbm_is_the_built_in_gbm_plus_its_answer_layer_and_verifies_on_four_engines() {
    if !python_has("pulp", "the PuLP gbm") {
        return;
    }
    let dir = scratch("gbm");
    let p = puzzles::puzzle("battleship").unwrap();
    let mut instances = 0;
    for file in ["6x6", "8x8", "10x10", "15x15"] {
        let path = format!("instances/battleship/table_4_2/{file}.txt");
        let loaded = p.load(&root().join(&path)).unwrap();
        instances += loaded.len();
        let instance = &loaded[0];
        let built_in_model = instance.build("gbm").unwrap();
        let user_model = user_model("battleship", &path, "user:gbm-pulp", &dir);
        let (built_in, user) = (built_in_model.counts(), user_model.counts());
        // The answer layer: a column ship_R_C and a row link_R_C per cell, whose terms
        // are the cell's column and the placements covering it.
        let json = instance.instance_json().unwrap();
        let cells = (json["rows"].as_u64().unwrap() * json["cols"].as_u64().unwrap()) as usize;
        let covering: usize = (1..=json["fleet"].as_array().unwrap().len())
            .filter(|l| json["fleet"][l - 1].as_u64().unwrap() > 0)
            .map(|l| placements_cells(&json, l))
            .sum();
        assert_eq!(user.variables, built_in.variables + cells, "{file}");
        assert_eq!(user.binaries, built_in.binaries + cells, "{file}");
        assert_eq!(user.constraints, built_in.constraints + cells, "{file}");
        assert_eq!(
            user.nonzeros,
            built_in.nonzeros + cells + covering,
            "{file}"
        );
    }
    let mut engines = vec!["highs", "cbc", "sat"];
    if python_has("ortools", "cpsat on the PuLP gbm") {
        engines.push("cpsat");
    }
    let rows = sweep(
        &dir,
        &[
            "--formulations",
            &examples(),
            "--puzzle",
            "battleship",
            "--instances",
            "instances/battleship/table_4_2",
            "--formulation",
            "gbm,user:gbm-pulp",
            "--backend",
            &engines.join(","),
            "--time-limit",
            "60",
        ],
    );
    assert_eq!(rows.len(), instances * 2 * engines.len());
    for r in &rows {
        assert_eq!(
            r.status, "optimal",
            "{} {} {}: {:?}",
            r.instance, r.formulation, r.backend, r.error
        );
        assert_eq!(
            r.verified,
            Some(true),
            "{} {} {}",
            r.instance,
            r.formulation,
            r.backend
        );
    }
    // Both formulations give the same answer on every instance and engine.
    for r in rows.iter().filter(|r| r.formulation == "user:gbm-pulp") {
        let twin = rows
            .iter()
            .find(|b| b.formulation == "gbm" && b.instance == r.instance && b.backend == r.backend)
            .unwrap();
        assert_eq!(
            r.answer_hash, twin.answer_hash,
            "{} {}",
            r.instance, r.backend
        );
        assert_eq!(r.lp_bound, twin.lp_bound, "{} {}", r.instance, r.backend);
        assert!(r.build_seconds > Some(0.0));
    }
}

/// Asserts that `user`'s first columns and rows are `built_in`'s, term for term and bound
/// for bound (names aside), and returns how many columns and rows `user` has beyond them.
fn same_model_then(built_in: &Model, user: &Model, what: &str) -> (usize, usize) {
    assert!(user.vars.len() >= built_in.vars.len(), "{what}");
    assert!(user.rows.len() >= built_in.rows.len(), "{what}");
    for (j, (a, b)) in built_in.vars.iter().zip(&user.vars).enumerate() {
        assert_eq!(
            (a.kind, a.lower, a.upper, a.objective),
            (b.kind, b.lower, b.upper, b.objective),
            "{what}: column {j} ({} and {})",
            a.name,
            b.name
        );
    }
    for (i, (a, b)) in built_in.rows.iter().zip(&user.rows).enumerate() {
        assert_eq!(
            (&a.terms, a.lower, a.upper),
            (&b.terms, b.lower, b.upper),
            "{what}: row {i} ({} and {})",
            a.name,
            b.name
        );
    }
    (
        user.vars.len() - built_in.vars.len(),
        user.rows.len() - built_in.rows.len(),
    )
}

/// Σ over the placements of ships of length `l` of their cells, on the grid of `json`.
fn placements_cells(json: &serde_json::Value, l: usize) -> usize {
    let (m, n) = (
        json["rows"].as_u64().unwrap() as usize,
        json["cols"].as_u64().unwrap() as usize,
    );
    let across = if l <= n { m * (n - l + 1) } else { 0 };
    let down = if l > 1 && l <= m { n * (m - l + 1) } else { 0 };
    (across + down) * l
}

#[test]
fn the_plain_python_sudoku_is_the_built_in_binary_model_and_verifies() {
    let dir = scratch("sudoku");
    let p = puzzles::puzzle("sudoku").unwrap();
    for file in [
        "instances/sudoku/report_fig3_1.txt",
        "instances/sudoku/comparison/solo_3x3kde.txt",
        "instances/sudoku/comparison/solo_4x4_extreme.txt",
    ] {
        let instance = &p.load(&root().join(file)).unwrap()[0];
        let built_in = instance.build("binary").unwrap();
        let user = user_model("sudoku", file, "user:binary-py", &dir);
        assert_eq!(user.counts(), built_in.counts(), "{file}");
        assert_eq!(same_model_then(&built_in, &user, file), (0, 0));
    }
    let rows = sweep(
        &dir,
        &[
            "--formulations",
            &examples(),
            "--puzzle",
            "sudoku",
            "--instances",
            "instances/sudoku/report_fig3_1.txt",
            "instances/sudoku/variants/x",
            "instances/sudoku/variants/killer",
            "instances/sudoku/variants/jigsaw",
            "--formulation",
            "binary,user:binary-py",
            "--time-limit",
            "60",
        ],
    );
    assert!(rows.len() >= 8, "{}", rows.len());
    for r in &rows {
        assert_eq!(
            r.verified,
            Some(true),
            "{} {}: {:?}",
            r.instance,
            r.formulation,
            r.error
        );
    }
    for r in rows.iter().filter(|r| r.formulation == "user:binary-py") {
        let twin = rows
            .iter()
            .find(|b| b.formulation == "binary" && b.instance == r.instance)
            .unwrap();
        assert_eq!(r.answer_hash, twin.answer_hash, "{}", r.instance);
        assert_eq!(
            (r.variables, r.constraints, r.nonzeros),
            (twin.variables, twin.constraints, twin.nonzeros),
            "{}",
            r.instance
        );
    }
}

#[test]
fn the_wrong_star_battle_model_is_caught_on_its_first_instance_and_the_sweep_goes_on() {
    let dir = scratch("starbattle");
    let rows = sweep(
        &dir,
        &[
            "--formulations",
            &examples(),
            "--puzzle",
            "starbattle",
            "--instances",
            "instances/starbattle/generated",
            "--formulation",
            "user:no-regions",
            "--time-limit",
            "60",
            "--order",
            "plan",
        ],
    );
    let files = std::fs::read_dir(root().join("instances/starbattle/generated"))
        .unwrap()
        .count();
    assert_eq!(rows.len(), files, "one row per instance: the sweep went on");
    let first = &rows[0];
    assert_eq!(
        first.verified,
        Some(false),
        "{}: {:?}",
        first.instance,
        first.error
    );
    let wrong = rows.iter().filter(|r| r.verified == Some(false)).count();
    eprintln!("the wrong model: {wrong} of {} answers refused", rows.len());
    // The verifier names the rule: a region's stars.
    let o = pb(&[
        "--formulations",
        &examples(),
        "solve",
        &format!("instances/starbattle/generated/{}.txt", first.instance),
        "--puzzle",
        "starbattle",
        "--formulation",
        "user:no-regions",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let all = text(&o.stdout) + &text(&o.stderr);
    assert!(all.contains("region"), "{all}");
}

/// A definition whose command copies `model` (a file beside it) to `{model}`.
fn copying(dir: &Path, key: &str, model: &str, body: &str) -> String {
    let defs = dir.join("defs");
    std::fs::create_dir_all(&defs).unwrap();
    std::fs::write(defs.join(model), body).unwrap();
    let format = if model.ends_with(".mps") { "mps" } else { "lp" };
    std::fs::write(
        defs.join(format!("{key}.toml")),
        format!(
            "puzzle = \"sudoku\"\nkey = \"{key}\"\ndescription = \"test\"\n\
             command = [\"sh\", \"-c\", \"cp \\\"$0\\\" \\\"$1\\\"\", \"{{dir}}/{model}\", \"{{model}}\", \"{{instance_json}}\"]\n\
             model = \"{format}\"\n"
        ),
    )
    .unwrap();
    defs.display().to_string()
}

/// A 4x4 Sudoku's binary model in LP, as the plain Python example writes it, with
/// `change` applied to its text.
fn sudoku_lp(change: impl Fn(String) -> String) -> String {
    let dir = scratch("lp-source");
    let file = "instances/sudoku/solo_2x2.txt";
    let p = puzzles::puzzle("sudoku").unwrap();
    let json = dir.join("i.json");
    std::fs::write(
        &json,
        p.load(&root().join(file)).unwrap()[0]
            .instance_json()
            .unwrap()
            .to_string(),
    )
    .unwrap();
    let lp = dir.join("m.lp");
    let o = Command::new("python3")
        .arg(root().join("examples/formulations/sudoku/binary_lp.py"))
        .arg(&json)
        .arg(&lp)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    change(std::fs::read_to_string(lp).unwrap())
}

/// Solves the first 4x4 Sudoku with the definitions of `defs` and `key`: its JSON row.
fn solve_json(defs: &str, key: &str) -> (serde_json::Value, Output) {
    let o = pb(&[
        "--formulations",
        defs,
        "solve",
        "instances/sudoku/solo_2x2.txt",
        "--puzzle",
        "sudoku",
        "--formulation",
        key,
        "--format",
        "json",
    ]);
    let first = text(&o.stdout).lines().next().unwrap_or("{}").to_string();
    (serde_json::from_str(&first).unwrap(), o)
}

#[test]
fn bad_models_give_an_error_row_naming_the_instance_and_the_problem() {
    let dir = scratch("bad-models");
    // The model lacks an answer variable: cell_1_1_1 is renamed.
    let defs = copying(
        &dir,
        "missing",
        "missing.lp",
        &sudoku_lp(|t| t.replace("cell_1_1_1", "x_1_1_1")),
    );
    let (row, o) = solve_json(&defs, "user:missing");
    assert_ne!(o.status.code(), Some(0));
    assert_eq!(row["status"], "error");
    let e = row["error"].as_str().unwrap();
    assert!(e.contains("no answer variable cell_1_1_1"), "{e}");
    assert!(e.contains("instance solo_2x2"), "{e}");
    // An answer variable that is not binary: every cell variable is continuous and
    // cell_1_1_1 is forced to 0.5.
    let half = "Minimize\n obj: 0 cell_1_1_1\nSubject To\n c1: cell_1_1_1 = 0.5\nBounds\n"
        .to_string()
        + &(1..=4)
            .flat_map(|r| {
                (1..=4).flat_map(move |c| {
                    (1..=4).map(move |v| format!(" 0 <= cell_{r}_{c}_{v} <= 1\n"))
                })
            })
            .collect::<String>()
        + "End\n";
    let defs = copying(&dir, "half", "half.lp", &half);
    let (row, _) = solve_json(&defs, "user:half");
    assert_eq!(row["status"], "error");
    let e = row["error"].as_str().unwrap();
    assert!(
        e.contains("answer variable cell_1_1_1 has the value 0.5, not 0 or 1"),
        "{e}"
    );
    // The model does not parse: the error names the line and the problem.
    let defs = copying(
        &dir,
        "broken",
        "broken.lp",
        &sudoku_lp(|t| t.replacen(" = 1\n", " = = 1\n", 1)),
    );
    let (row, _) = solve_json(&defs, "user:broken");
    assert_eq!(row["status"], "error");
    let e = row["error"].as_str().unwrap();
    assert!(e.contains("does not read: line"), "{e}");
    // The command fails: its exit status and last words.
    let defs = dir.join("fails");
    std::fs::create_dir_all(&defs).unwrap();
    std::fs::write(
        defs.join("fails.toml"),
        "puzzle = \"sudoku\"\nkey = \"fails\"\ndescription = \"test\"\n\
         command = [\"sh\", \"-c\", \"echo cannot import pulp >&2; exit 3\", \"{instance_json}\", \"{model}\"]\nmodel = \"lp\"\n",
    )
    .unwrap();
    let (row, _) = solve_json(defs.to_str().unwrap(), "user:fails");
    assert_eq!(row["status"], "error");
    let e = row["error"].as_str().unwrap();
    assert!(
        e.contains("exited with status 3: cannot import pulp"),
        "{e}"
    );
}

#[test]
fn bad_definitions_fail_with_the_file_line_and_problem() {
    let dir = scratch("bad-defs");
    std::fs::write(
        dir.join("x.toml"),
        "key = \"x\"\npuzzle = \"sudokuu\"\ndescription = \"\"\ncommand = [\"a\", \"{instance_json}\", \"{model}\"]\nmodel = \"lp\"\n",
    )
    .unwrap();
    let o = pb(&["--formulations", dir.to_str().unwrap(), "list"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let e = text(&o.stderr);
    assert!(e.contains("x.toml:2: unknown puzzle 'sudokuu'"), "{e}");
    // An unknown user key says which there are.
    let o = pb(&[
        "--formulations",
        &examples(),
        "solve",
        "instances/sudoku/solo_2x2.txt",
        "--puzzle",
        "sudoku",
        "--formulation",
        "user:binary-pi",
    ]);
    assert_ne!(o.status.code(), Some(0));
    let e = text(&o.stderr);
    assert!(
        e.contains("unknown formulation 'user:binary-pi'") && e.contains("user:binary-py"),
        "{e}"
    );
    // `list` shows the examples apart, each with its file.
    let o = pb(&["--formulations", &examples(), "list"]);
    let l = text(&o.stdout);
    assert!(l.contains("user:gbm-pulp"), "{l}");
    assert!(l.contains("gbm-pulp.toml"), "{l}");
}
