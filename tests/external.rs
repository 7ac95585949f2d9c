//! The engines that run their solver in a child process (cpsat, scip, glpk): where their
//! solver is installed, each solves a small Sudoku, a small Battleship and a Hashi
//! row-generation instance with verified answers that agree with HiGHS, keeps the sense
//! and constant of the objective, and records both times; CP-SAT's exact scaling of
//! fractional rows; and the paths where a solver is absent ("not installed", tested by
//! pointing an engine at a missing interpreter or program) or outlives its limit (killed).
//! For the Python drivers (cpsat, scip): a row-generation run starts one driver process
//! and ends within its limit and the grace; the incumbents and bounds the drivers report
//! are in the model's units and a run's timeline ends at its objective; a driver killed
//! or failing keeps the version it reported.

mod common;
use common::first;
use puzzlebench::engines::{
    built_in_definitions::{SCIP, SCIP_DEFINITION},
    cpsat::{self, CPSAT},
    external,
    glpk::{self, GLPK},
    highs::HIGHS,
    Budget, Engine, Kind, Settings, SolveOptions, Status,
};
use puzzlebench::model::{Model, Sense, VarKind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The external engines whose solvers are here; the others are named on standard error.
fn installed() -> Vec<Engine> {
    [CPSAT, SCIP, GLPK]
        .into_iter()
        .filter(|e| {
            let ok = e.installed();
            if !ok {
                eprintln!("skipped {e}: {}", e.version());
            }
            ok
        })
        .collect()
}

fn limit(seconds: f64) -> SolveOptions {
    SolveOptions {
        time_limit: Some(seconds),
        ..SolveOptions::default()
    }
}

#[test]
fn each_external_engine_solves_small_instances_with_verified_answers() {
    let cases = [
        ("sudoku", "sudoku/report_fig3_1.txt", "binary"),
        ("sudoku", "sudoku/report_fig3_1.txt", "values"),
        ("battleship", "battleship/table_4_2/6x6.txt", "gbm"),
        ("battleship", "battleship/table_4_2/6x6.txt", "cbm"),
        ("hashi", "hashi/tatham/t_07x07_m3.txt", "cuts"),
        ("hashi", "hashi/tatham/t_07x07_m3.txt", "base"),
        ("circuit", "circuit/table_a_1/4x4.txt", "cm1-rowgen"),
        ("zebra", "zebra/life_1962.txt", "ip"),
    ];
    for e in installed() {
        for (puzzle, file, f) in cases {
            let inst = first(puzzle, file);
            let what = format!("{puzzle} {file} {f} on {e}");
            let r = inst.solve(f, e, &limit(120.0)).unwrap();
            if let Some(why) = e.model_refusal(&inst.build(f).unwrap()) {
                // CP-SAT takes no continuous columns (Hashi's base has flows).
                assert_eq!(r.outcome.status, Status::Refused, "{what}");
                assert_eq!(r.outcome.message.as_deref(), Some(why.as_str()));
                continue;
            }
            let o = &r.outcome;
            assert_eq!(o.status, Status::Optimal, "{what}: {o:?}");
            assert_eq!(r.verified(), Some(true), "{what}");
            let reference = inst.solve(f, HIGHS, &limit(120.0)).unwrap().outcome;
            let (a, b) = (o.objective.unwrap(), reference.objective.unwrap());
            assert!((a - b).abs() < 1e-6, "{what}: objective {a}, HiGHS {b}");
            let call = o.call_seconds.expect("an external run records its call");
            assert!(call >= o.seconds && o.seconds >= 0.0, "{what}: {o:?}");
            let version = o.version.clone().unwrap();
            assert!(
                ["CP-SAT", "SCIP", "GLPK"]
                    .iter()
                    .any(|v| version.starts_with(v)),
                "{what}: {version}"
            );
            if f == "cuts" || f == "cm1-rowgen" {
                assert!(o.rounds.unwrap() >= 1 && o.cuts.is_some(), "{what}: {o:?}");
            }
        }
    }
}

/// max 8a + 11b + 6c + 4d + 2.5 s.t. 5a + 7b + 4c + 3d <= 14, binary: optimum 23.5.
fn knapsack_with_constant() -> Model {
    let mut m = Model::new("knap");
    m.sense = Sense::Maximize;
    m.objective_offset = 2.5;
    let w = [5.0, 7.0, 4.0, 3.0];
    let p = [8.0, 11.0, 6.0, 4.0];
    let vars: Vec<_> = (0..4)
        .map(|i| m.add_var(format!("x{i}"), VarKind::Binary, 0.0, 1.0, p[i]))
        .collect();
    m.add_le("cap", vars.iter().zip(w).map(|(v, w)| (*v, w)), 14.0);
    m
}

#[test]
fn the_sense_and_constant_of_the_objective_survive_the_transfer() {
    let m = knapsack_with_constant();
    for e in installed() {
        let o = e.solve_model(&m, &limit(60.0));
        assert_eq!(o.status, Status::Optimal, "{e}: {o:?}");
        assert!((o.objective.unwrap() - 23.5).abs() < 1e-9, "{e}: {o:?}");
        assert!((o.best_bound.unwrap() - 23.5).abs() < 1e-6, "{e}: {o:?}");
        assert_eq!(o.gap, Some(0.0), "{e}: {o:?}");
    }
}

#[test]
fn cpsat_scales_fractional_rows_exactly_and_refuses_what_it_cannot() {
    if !CPSAT.installed() {
        eprintln!("skipped: {}", CPSAT.version());
        return;
    }
    // max 1.5x + y + z/3 s.t. 0.5x + 0.25y + (1/3)z <= 0.6, binary: x alone, 1.5.
    let mut m = Model::new("frac");
    m.sense = Sense::Maximize;
    let x = m.add_var("x", VarKind::Binary, 0.0, 1.0, 1.5);
    let y = m.add_var("y", VarKind::Binary, 0.0, 1.0, 1.0);
    let z = m.add_var("z", VarKind::Binary, 0.0, 1.0, 1.0 / 3.0);
    m.add_le("r", [(x, 0.5), (y, 0.25), (z, 1.0 / 3.0)], 0.6);
    let o = CPSAT.solve_model(&m, &limit(60.0));
    let h = HIGHS.solve_model(&m, &limit(60.0));
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert!((o.objective.unwrap() - h.objective.unwrap()).abs() < 1e-9);
    assert!((o.best_bound.unwrap() - 1.5).abs() < 1e-9, "{o:?}");
    m.add_le("pi", [(x, std::f64::consts::PI), (y, 1.0)], 4.0);
    let o = CPSAT.solve_model(&m, &limit(60.0));
    assert_eq!(o.status, Status::Refused);
    let why = o.message.unwrap();
    assert!(why.starts_with("unsupported by cpsat: row pi"), "{why}");
}

#[test]
fn a_missing_interpreter_or_program_is_not_installed() {
    let m = knapsack_with_constant();
    let s = Settings::default();
    let missing = Path::new("/nonexistent/puzzlebench/python");
    for o in [
        cpsat::solve_with(missing, &m, &s, &Budget::unlimited()),
        SCIP_DEFINITION.solve_with(missing, &m, &s, &Budget::unlimited()),
        glpk::solve_with(
            Path::new("/nonexistent/puzzlebench/glpsol"),
            &m,
            &s,
            &Budget::unlimited(),
        ),
    ] {
        assert_eq!(o.status, Status::Error, "{o:?}");
        let why = o.message.unwrap();
        assert!(why.starts_with("not installed: "), "{why}");
    }
}

#[test]
fn the_command_line_records_not_installed_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let status = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .current_dir(root())
        .env("PUZZLEBENCH_PYTHON", "/nonexistent/puzzlebench/python")
        .env("PUZZLEBENCH_GLPSOL", "/nonexistent/puzzlebench/glpsol")
        .args([
            "run",
            "--puzzle",
            "sudoku",
            "--formulation",
            "binary,values",
            "--quiet",
            "--backend",
        ])
        .arg("cpsat,scip,glpk,highs")
        .arg("--instances")
        .arg("instances/sudoku/report_fig3_1.txt")
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(!status.success(), "three runs failed: a non-zero exit");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<puzzlebench::record::Record> = rd.deserialize().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 8, "two formulations on four engines: {text}");
    for r in &rows {
        if r.backend == "highs" {
            assert_eq!((r.status.as_str(), r.verified), ("optimal", Some(true)));
        } else {
            assert_eq!(r.status, "error", "{r:?}");
            assert!(
                r.error.as_deref().unwrap().starts_with("not installed: "),
                "{r:?}"
            );
            assert!(r.solver_version.starts_with("not installed"), "{r:?}");
        }
    }
    let list = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .env("PUZZLEBENCH_PYTHON", "/nonexistent/puzzlebench/python")
        .env("PUZZLEBENCH_GLPSOL", "/nonexistent/puzzlebench/glpsol")
        .arg("list")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    for key in ["cpsat", "scip", "glpk"] {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{key} ")))
            .unwrap();
        assert!(line.contains("[not installed: "), "{line}");
    }
}

#[test]
fn a_child_that_outlives_its_limit_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("glpsol");
    std::fs::write(&fake, "#!/bin/sh\nsleep 60\n").unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let m = knapsack_with_constant();
    let start = Instant::now();
    let o = glpk::solve_with(&fake, &m, &Settings::default(), &Budget::new(Some(0.5)));
    let took = start.elapsed().as_secs_f64();
    assert_eq!(o.status, Status::TimeLimit, "{o:?}");
    assert!(o.message.unwrap().contains("killed"));
    assert!(o.values.is_none());
    assert!(
        took < 0.5 + puzzlebench::engines::external::GRACE + 5.0,
        "{took}"
    );
}

#[test]
fn the_time_limit_stops_each_solver_near_it() {
    // Battleship 30x20 cbm takes HiGHS over a minute: every external engine stops at 2 s.
    let inst = first("battleship", "battleship/scaling/30x20.txt");
    for e in installed() {
        let start = Instant::now();
        let r = inst.solve("cbm", e, &limit(2.0)).unwrap();
        let took = start.elapsed().as_secs_f64();
        let o = &r.outcome;
        assert!(
            matches!(o.status, Status::TimeLimit | Status::Optimal),
            "{e}: {o:?}"
        );
        assert!(took < 2.0 + 1.0 + 2.0, "{e}: {took} s");
        if o.status == Status::TimeLimit && o.values.is_some() {
            assert_eq!(r.verified(), Some(true), "{e}: an incumbent is verified");
        }
    }
}

/// GLPK's log gives the run's timeline: on Circuit Board 6x6 (cm2) glpsol finds two
/// incumbents, each better, and proves the second optimal ("tree is empty").
#[test]
fn glpk_reports_each_incumbent_and_bound_its_log_shows() {
    if !GLPK.installed() {
        eprintln!("skipped: {}", GLPK.version());
        return;
    }
    assert!(GLPK.capabilities().timeline);
    let inst = first("circuit", "circuit/table_a_1/6x6.txt");
    let r = inst.solve("cm2", GLPK, &limit(60.0)).unwrap();
    let o = &r.outcome;
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert!(o.version.as_deref().unwrap().starts_with("GLPK "), "{o:?}");
    let trace = r.trace.clone().unwrap();
    let z = o.objective.unwrap();
    let inc: Vec<f64> = trace.incumbents.iter().map(|p| p.value).collect();
    assert!(inc.len() >= 2, "{trace:?}");
    assert!(inc.windows(2).all(|w| w[1] < w[0]), "{trace:?}");
    assert_eq!(inc.last().copied(), Some(z), "{trace:?}");
    let bounds: Vec<f64> = trace.bounds.iter().map(|p| p.value).collect();
    assert!(bounds.len() >= 2, "{trace:?}");
    assert!(bounds.iter().all(|&b| b <= z + 1e-9), "{trace:?}");
    assert_eq!(bounds.last().copied(), Some(z), "{trace:?}");
    let times: Vec<f64> = trace.incumbents.iter().map(|p| p.t).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{trace:?}");
    assert!(
        times
            .iter()
            .all(|&t| t > 0.0 && t <= r.run_seconds.unwrap()),
        "{trace:?}"
    );
}

/// glpsol takes whole seconds: with 0.1 s left it is given 1 s, and is killed
/// `KILL_AFTER` seconds after the deadline, so the call ends well before that second
/// (Circuit Board 10x10, cm2, takes glpsol far longer), as `time_limit` without a solution.
#[test]
fn glpk_is_killed_soon_after_a_deadline_its_whole_seconds_overrun() {
    if !GLPK.installed() {
        eprintln!("skipped: {}", GLPK.version());
        return;
    }
    let inst = first("circuit", "circuit/table_a_1/10x10.txt");
    let m = inst.build("cm2").unwrap();
    let start = Instant::now();
    let o = glpk::solve_with(
        &glpk::glpsol(),
        &m,
        &Settings::default(),
        &Budget::new(Some(0.1)),
    );
    let took = start.elapsed().as_secs_f64();
    assert_eq!(o.status, Status::TimeLimit, "{o:?}");
    assert!(
        o.message.as_deref().unwrap_or("").contains("killed"),
        "{o:?}"
    );
    assert!(o.values.is_none());
    // The kill comes at 0.1 + KILL_AFTER s; glpsol's own limit would end it after 1 s.
    assert!(took < 0.1 + glpk::KILL_AFTER + 0.35, "{took} s");
}

/// A 1 s limit ends a GLPK row-generation run (each round a glpsol call given what is
/// left, in whole seconds) within a second of the limit: Circuit Board 10x10, cm1-rowgen.
#[test]
fn a_one_second_limit_ends_glpk_row_generation_within_a_second_of_it() {
    if !GLPK.installed() {
        eprintln!("skipped: {}", GLPK.version());
        return;
    }
    for file in ["circuit/table_a_1/9x9.txt", "circuit/table_a_1/10x10.txt"] {
        let inst = first("circuit", file);
        for _ in 0..2 {
            let start = Instant::now();
            let r = inst.solve("cm1-rowgen", GLPK, &limit(1.0)).unwrap();
            let took = start.elapsed().as_secs_f64();
            eprintln!("{file} cm1-rowgen on glpk: {took:.3} s wall for a 1 s limit");
            assert!(
                matches!(r.outcome.status, Status::TimeLimit | Status::Optimal),
                "{file}: {:?}",
                r.outcome
            );
            assert!(took < 1.0 + 1.0, "{file}: {took} s for a 1 s limit");
        }
    }
}

#[test]
fn external_engines_declare_what_they_apply() {
    let o = SolveOptions::default();
    let c = CPSAT.settings(Kind::Mip, &o);
    assert_eq!(
        (c.threads, c.seed, c.presolve, c.mip_gap),
        (Some(1), Some(0), Some(true), Some(0.0))
    );
    let s = SCIP.settings(Kind::Mip, &o);
    assert_eq!((s.threads, s.seed), (None, Some(0)));
    let g = GLPK.settings(Kind::Mip, &o);
    assert_eq!((g.threads, g.seed, g.presolve), (None, None, Some(true)));
    assert!(!CPSAT.capabilities().lp_relaxation && SCIP.capabilities().lp_relaxation);
    for e in [CPSAT, SCIP, GLPK] {
        assert!(e.capabilities().external && !e.takes(Kind::LazyRows), "{e}");
    }
}

fn python_engines() -> Vec<Engine> {
    [CPSAT, SCIP]
        .into_iter()
        .filter(|e| {
            let ok = e.installed();
            if !ok {
                eprintln!("skipped {e}: {}", e.version());
            }
            ok
        })
        .collect()
}

#[test]
fn a_row_generation_run_starts_one_driver_process() {
    // Circuit Board 6x6 cm1-rowgen takes both engines 10 to 30 rounds.
    let inst = first("circuit", "circuit/table_a_1/6x6.txt");
    for e in python_engines() {
        let options = SolveOptions {
            lp_relaxation: false,
            ..limit(120.0)
        };
        let before = external::driver_starts();
        let r = inst.solve("cm1-rowgen", e, &options).unwrap();
        let started = external::driver_starts() - before;
        let o = &r.outcome;
        assert_eq!(o.status, Status::Optimal, "{e}: {o:?}");
        assert_eq!(r.verified(), Some(true), "{e}");
        assert!(o.rounds.unwrap() >= 3, "{e}: {o:?}");
        assert_eq!(started, 1, "{e}: {} rounds", o.rounds.unwrap());
        let call = o.call_seconds.unwrap();
        assert!(call >= o.seconds, "{e}: {o:?}");
    }
}

#[test]
fn a_row_generation_run_on_a_driver_ends_within_its_limit_and_grace() {
    // Circuit Board 10x10 cm1-rowgen takes both engines well over a minute.
    let inst = first("circuit", "circuit/table_a_1/10x10.txt");
    for e in python_engines() {
        let start = Instant::now();
        let r = inst.solve("cm1-rowgen", e, &limit(2.0)).unwrap();
        let took = start.elapsed().as_secs_f64();
        let o = &r.outcome;
        assert_eq!(o.status, Status::TimeLimit, "{e}: {o:?}");
        assert!(took < 2.0 + external::GRACE + 1.0, "{e}: {took} s");
        let version = o.version.as_deref().unwrap_or("");
        assert!(
            version.starts_with("CP-SAT") || version.starts_with("SCIP"),
            "{e}: the driver's version reaches the row: {o:?}"
        );
    }
}

/// max 4a + 5.5b + 3c + 2d + 2.5 s.t. 5a + 7b + 4c + 3d <= 14, binary: optimum 13 (b, c,
/// d), with a coefficient CP-SAT scales by 2.
fn halved_knapsack() -> Model {
    let mut m = knapsack_with_constant();
    for v in &mut m.vars {
        v.objective /= 2.0;
    }
    m
}

#[test]
fn the_drivers_report_incumbents_and_bounds_in_the_models_units() {
    let python = match external::python() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("skipped: {e}");
            return;
        }
    };
    let m = halved_knapsack();
    let mut min = halved_knapsack();
    min.sense = Sense::Minimize;
    min.rows[0].lower = 8.0;
    min.rows[0].upper = f64::INFINITY;
    // min 4a + 5.5b + 3c + 2d + 2.5 s.t. 5a + 7b + 4c + 3d >= 8: a and d, 6 + 2.5.
    let min_optimum = 8.5;
    for e in python_engines() {
        for (model, optimum) in [(&m, 13.0), (&min, min_optimum)] {
            let budget = Budget::recording(None, None);
            budget.set_sense(model.sense);
            // The engine's own solve, not Engine::solve, which would record the outcome.
            let o = if e == CPSAT {
                cpsat::solve_with(&python, model, &Settings::default(), &budget)
            } else {
                SCIP_DEFINITION.solve_with(&python, model, &Settings::default(), &budget)
            };
            assert_eq!(o.status, Status::Optimal, "{e}: {o:?}");
            assert!((o.objective.unwrap() - optimum).abs() < 1e-9, "{e}: {o:?}");
            let trace = budget.trace().unwrap();
            let last = trace
                .incumbents
                .last()
                .expect("the driver reported incumbents");
            assert!((last.value - optimum).abs() < 1e-6, "{e}: {trace:?}");
            for p in &trace.incumbents {
                let feasible_side = match model.sense {
                    Sense::Maximize => p.value <= optimum + 1e-6,
                    Sense::Minimize => p.value >= optimum - 1e-6,
                };
                assert!(feasible_side, "{e}: incumbent {p:?} beyond the optimum");
            }
            for p in &trace.bounds {
                let valid = match model.sense {
                    Sense::Maximize => p.value >= optimum - 1e-6,
                    Sense::Minimize => p.value <= optimum + 1e-6,
                };
                assert!(valid, "{e}: bound {p:?} cuts off the optimum");
            }
        }
    }
}

#[test]
fn a_circuit_run_records_a_timeline_ending_at_its_objective() {
    // cm2 has continuous flows, which CP-SAT refuses: it runs cm1-rowgen.
    let inst = first("circuit", "circuit/table_a_1/6x6.txt");
    for e in python_engines() {
        let f = if e == CPSAT { "cm1-rowgen" } else { "cm2" };
        assert_eq!(
            e.model_refusal(&inst.build("cm2").unwrap()).is_some(),
            e == CPSAT
        );
        let r = inst.solve(f, e, &limit(120.0)).unwrap();
        let o = &r.outcome;
        assert_eq!(o.status, Status::Optimal, "{e} {f}: {o:?}");
        assert_eq!(r.verified(), Some(true), "{e} {f}");
        let trace = r.trace.as_ref().expect("a run records its timeline");
        let last = trace.incumbents.last().expect("an incumbent");
        assert_eq!(last.value, o.objective.unwrap(), "{e} {f}: {trace:?}");
        assert!(e.capabilities().timeline, "{e}");
    }
}

/// A stand-in for the drivers' interpreter: a shell script that says hello as `version`
/// and then runs `rest`.
fn fake_python(dir: &Path, version: &str, rest: &str) -> PathBuf {
    let fake = dir.join("python");
    std::fs::write(
        &fake,
        format!("#!/bin/sh\necho '{{\"kind\": \"hello\", \"version\": \"{version}\"}}'\n{rest}\n"),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    fake
}

#[test]
fn a_driver_that_outlives_its_limit_is_killed_and_its_version_kept() {
    let dir = tempfile::tempdir().unwrap();
    let m = knapsack_with_constant();
    let s = Settings::default();
    let fake = fake_python(dir.path(), "Fake CP-SAT 0.1", "sleep 60");
    let start = Instant::now();
    let o = cpsat::solve_with(&fake, &m, &s, &Budget::new(Some(0.5)));
    let took = start.elapsed().as_secs_f64();
    assert_eq!(o.status, Status::TimeLimit, "{o:?}");
    assert!(o.message.as_deref().unwrap().contains("killed"), "{o:?}");
    assert!(o.values.is_none());
    assert_eq!(o.version.as_deref(), Some("Fake CP-SAT 0.1"));
    assert!(took < 0.5 + external::GRACE + 2.0, "{took}");
    let fake = fake_python(dir.path(), "Fake SCIP 0.2", "echo 'it broke' >&2; exit 1");
    let o = SCIP_DEFINITION.solve_with(&fake, &m, &s, &Budget::new(Some(30.0)));
    assert_eq!(o.status, Status::Error, "{o:?}");
    // Its last words on standard error, and how it ended.
    assert_eq!(
        o.message.as_deref(),
        Some("driver failed: it broke (exit code 1)")
    );
    assert_eq!(o.version.as_deref(), Some("Fake SCIP 0.2"));
}

/// Counting on CP-SAT and SCIP is their own enumeration, one search in one driver process
/// (after the optimum's solve in another, for an optimisation model), and finds the
/// counts of the SAT engine's no-good loop on every committed counting instance of the
/// suite: the optimal n-Queens placements of the counted boards (92 and 724 on the empty
/// 8×8 and 10×10 boards) and the optimal boards of the least-walls problems, whose
/// counting is projected on the wall columns (CP-SAT leaves out the two it takes over 10 s
/// on). A limit below the count stops it there.
#[test]
fn counting_on_cpsat_and_scip_enumerates_in_one_search_and_agrees_with_sat() {
    use puzzlebench::engines::sat::SAT;
    let cases = [
        ("queens/boards/b08_w0.txt", "base"),
        ("queens/boards/b08_w1_a.txt", "base"),
        ("queens/boards/b08_w1_b.txt", "base"),
        ("queens/boards/b08_w2_a.txt", "base"),
        ("queens/boards/b08_w2_b.txt", "base"),
        ("queens/boards/b08_w3_a.txt", "base"),
        ("queens/boards/b08_w3_b.txt", "base"),
        ("queens/boards/b10_w0.txt", "base"),
        ("queens/least/q09_8x8.txt", "least-walls"),
        ("queens/least/q10_8x8.txt", "least-walls"),
        ("queens/least/q11_8x8.txt", "least-walls"),
    ];
    let engines = python_engines();
    for (file, f) in cases {
        let inst = first("queens", file);
        let options = SolveOptions {
            count: 10_000,
            lp_relaxation: false,
            ..limit(300.0)
        };
        let want = inst.solve(f, SAT, &options).unwrap().outcome.solutions;
        for &e in &engines {
            // CP-SAT's enumeration takes 12 to 23 s on the 9- and 10-queen least-walls
            // problems (it enumerates placements, counted by board): measured in the
            // sweeps of docs/puzzles/queens.md, not here.
            let slow = ["q09_8x8.txt", "q10_8x8.txt"];
            if e == CPSAT && slow.iter().any(|s| file.ends_with(s)) {
                continue;
            }
            let before = external::driver_starts();
            let r = inst.solve(f, e, &options).unwrap();
            let started = external::driver_starts() - before;
            let o = &r.outcome;
            let what = format!("{file} {f} on {e}: {:?}", o.message);
            assert_eq!(o.status, Status::Optimal, "{what}");
            assert_eq!(r.verified(), Some(true), "{what}");
            assert_eq!(o.solutions, want, "{what}");
            // The optimum, then one enumeration (not a solve per solution).
            assert_eq!(started, 2, "{what}");
        }
    }
    let inst = first("queens", "queens/boards/b10_w0.txt");
    for e in engines {
        let options = SolveOptions {
            count: 100,
            lp_relaxation: false,
            ..limit(60.0)
        };
        let o = inst.solve("base", e, &options).unwrap().outcome;
        assert_eq!((o.status, o.solutions), (Status::Optimal, Some(100)), "{e}");
    }
}

/// The Python engines whose solvers are here and that start warm in this process (not
/// with `PUZZLEBENCH_WARM=0`).
fn warm_engines() -> Vec<Engine> {
    if !puzzlebench::engines::warm::enabled() {
        eprintln!("skipped: warm starts are off (PUZZLEBENCH_WARM=0)");
        return Vec::new();
    }
    python_engines()
}

/// Two runs on one engine fork their drivers from one fork server, started once; their
/// versions say so. A server that has died is found so and started again.
#[test]
fn two_runs_on_one_engine_reuse_its_fork_server() {
    use puzzlebench::engines::warm;
    let m = knapsack_with_constant();
    let python = external::python().unwrap_or_default();
    for e in warm_engines() {
        let driver = e.driver().expect("a Python engine has a driver");
        let run = || {
            let before = (external::driver_starts(), external::warm_starts());
            let o = e.solve_model(&m, &limit(60.0));
            assert_eq!(o.status, Status::Optimal, "{e}: {o:?}");
            let version = o.version.clone().unwrap_or_default();
            assert!(version.ends_with(external::WARM_MARK), "{e}: {version}");
            let after = (external::driver_starts(), external::warm_starts());
            assert_eq!(
                (after.0 - before.0, after.1 - before.1),
                (1, 1),
                "{e}: one driver, started warm"
            );
            warm::server_pid(&python, driver).expect("its fork server runs")
        };
        let first = run();
        // The servers' sockets are in a folder only this user may enter.
        for (var, dir) in warm::worker_env(Some(driver), true) {
            if var == warm::DIR_VAR {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o700, "{e}: {dir:?} has mode {mode:o}");
            }
        }
        let second = run();
        assert_eq!(first, second, "{e}: the second run used the first's server");
        // A server that died is replaced by a new one.
        // SAFETY: a plain kill(2) of the fork server this process started.
        unsafe { libc::kill(first as libc::pid_t, libc::SIGKILL) };
        std::thread::sleep(std::time::Duration::from_millis(200));
        let third = run();
        assert_ne!(first, third, "{e}: a dead server is started again");
    }
}

/// A driver that sleeps through its solve: says hello, reads the request, sleeps.
const SLEEPER: &str = "import json, sys, time
print(json.dumps({'kind': 'hello', 'version': 'Sleeper 1'}), flush=True)
sys.stdin.readline()
time.sleep(60)
";

/// A warm driver that outlives the run's deadline is killed at the deadline plus the
/// grace, as a cold one is, and is gone (no process left); it keeps its version.
#[test]
fn a_warm_driver_killed_at_its_deadline_is_gone() {
    if warm_engines().is_empty() {
        return;
    }
    let python = external::python().unwrap();
    let mut session = external::Session::start(&python, SLEEPER).unwrap();
    assert_eq!(session.cold_because(), None, "it started warm");
    let pid = session.pid();
    let proc_dir = PathBuf::from(format!("/proc/{pid}"));
    assert!(proc_dir.exists(), "the driver runs");
    let start = Instant::now();
    let budget = Budget::new(Some(0.5));
    let request = serde_json::json!({"op": "solve"});
    let o = *session.solve(&request, &budget, |v| v).unwrap_err();
    let took = start.elapsed().as_secs_f64();
    assert_eq!(o.status, Status::TimeLimit, "{o:?}");
    assert!(o.message.as_deref().unwrap().contains("killed"), "{o:?}");
    assert_eq!(o.version.as_deref(), Some("Sleeper 1 [warm]"));
    assert!(
        took > 0.5 + external::GRACE - 0.1,
        "killed at the grace: {took}"
    );
    assert!(took < 0.5 + external::GRACE + 2.0, "{took}");
    assert!(!session.alive());
    // Its fork server reaps it at once: no process, not even a zombie.
    let gone = (0..50).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        !proc_dir.exists()
    });
    assert!(gone, "process {pid} is still there");
}

/// An interpreter on which no fork server starts (a stand-in that says hello instead of
/// ready) gives cold drivers that work as before; the server is not tried again.
#[test]
fn drivers_start_cold_when_the_fork_server_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let fake = fake_python(
        dir.path(),
        "Fake CP-SAT 0.3",
        "read line; echo '{\"kind\": \"answer\", \"status\": \"infeasible\", \"seconds\": 0.25}'",
    );
    for attempt in 0..2 {
        let before = external::warm_starts();
        let mut session = external::Session::start(&fake, "anything").unwrap();
        let why = session.cold_because().expect("it started cold").to_string();
        if puzzlebench::engines::warm::enabled() {
            assert!(
                why.contains("the fork server did not start"),
                "{attempt}: {why}"
            );
        }
        let (answer, _) = session
            .solve(
                &serde_json::json!({"op": "solve"}),
                &Budget::unlimited(),
                |v| v,
            )
            .unwrap();
        assert_eq!(answer.status, "infeasible");
        assert_eq!(answer.version, "Fake CP-SAT 0.3", "no warm mark");
        assert_eq!(external::warm_starts(), before);
    }
}

/// A sweep measured in cgroups forks its drivers warm and moves them into each run's
/// cgroup: the solver's CPU time is in the row's. Its workers start their drivers cold
/// with `PUZZLEBENCH_WARM=0` and without cgroups (`--no-cgroups`).
#[test]
fn a_sweep_forks_its_drivers_warm_into_each_runs_cgroup() {
    if !python_engines().contains(&CPSAT) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sweep = |name: &str, file: &str, extra: &[&str], warm: &str, seconds: &str| {
        let out = dir.path().join(name);
        Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
            .current_dir(root())
            .env("PUZZLEBENCH_WARM", warm)
            .args([
                "run",
                "--quiet",
                "--backend",
                "cpsat",
                "--time-limit",
                seconds,
            ])
            .args(["--puzzle", file.split('/').next().unwrap()])
            .arg("--instances")
            .arg(format!("instances/{file}"))
            .arg("--out")
            .arg(&out)
            .args(extra)
            .status()
            .unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        let rows: Vec<puzzlebench::record::Record> = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .map(|r| r.unwrap())
            .collect();
        assert!(!rows.is_empty(), "{text}");
        rows
    };
    let rows = sweep(
        "warm.csv",
        "battleship/scaling/30x20.txt",
        &["--formulation", "cbm"],
        "1",
        "2",
    );
    let measured = rows[0].measured_by.starts_with("cgroup");
    for r in &rows {
        let warm = r.solver_version.ends_with(external::WARM_MARK);
        assert_eq!(warm, measured, "warm where measured in cgroups: {r:?}");
        let (seconds, cpu) = (r.seconds.unwrap(), r.cpu_seconds.unwrap());
        if measured && seconds > 0.5 {
            // The solver's CPU time (one worker) is the run's: its driver is in the
            // run's cgroup. Outside it, the row would hold the worker's few hundredths.
            assert!(
                cpu > 0.2 * seconds,
                "cpu {cpu} s for a solve of {seconds} s: {r:?}"
            );
        }
    }
    assert!(
        !measured || rows.iter().any(|r| r.seconds.unwrap() > 0.5),
        "a solve long enough to tell: {rows:?}"
    );
    let small = "sudoku/report_fig3_1.txt";
    for (name, extra, warm) in [
        ("off.csv", &["--formulation", "binary"][..], "0"),
        (
            "rusage.csv",
            &["--formulation", "binary", "--no-cgroups"][..],
            "1",
        ),
    ] {
        // A cold start under the load of the other tests may take seconds.
        for r in sweep(name, small, extra, warm, "60") {
            assert_eq!(r.status, "optimal", "{name}: {r:?}");
            assert!(
                !r.solver_version.ends_with(external::WARM_MARK),
                "{name}: cold: {r:?}"
            );
        }
    }
}
