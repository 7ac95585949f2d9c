//! The `gurobi` engine: the report's chapter 5 method (`cm1-lazy`, lazy rows through
//! Gurobi's callback) against the project's branch and cut on the Circuit Board boards of
//! Table A.1, and the size-limited licence's refusals, before the solve and when row
//! generation grows a model past the limit. Each test says so and returns when Gurobi is
//! not installed (scripts/setup-python.sh installs it) or the licence is not the one the
//! test needs.

use puzzlebench::engines::built_in_definitions::GUROBI;
use puzzlebench::engines::{bc::BC, Budget, Kind, Problem, SolveOptions, Status};
use puzzlebench::lazy::{Cut, Separator};
use puzzlebench::model::{Model, Name, Sense, VarId, VarKind};
use std::path::Path;

/// Columns and rows gurobipy's size-limited licence takes (src/engines/drivers/gurobi.toml).
const SIZE_LIMIT: usize = 2000;

/// The licence Gurobi runs under, as its version line names it.
#[derive(Debug, PartialEq)]
enum Licence {
    SizeLimited,
    Other,
}

/// The licence that runs here, or None (with the reason printed) when Gurobi is absent.
fn licence() -> Option<Licence> {
    let version = GUROBI.version();
    let licence = if version.starts_with("not installed") {
        None
    } else if version.contains("size-limited licence") {
        Some(Licence::SizeLimited)
    } else {
        Some(Licence::Other)
    };
    if licence.is_none() {
        eprintln!("skipped: gurobi is {version}");
    }
    licence
}

fn limit(seconds: f64) -> SolveOptions {
    SolveOptions {
        time_limit: Some(seconds),
        ..SolveOptions::default()
    }
}

#[test]
fn cm1_lazy_on_gurobi_finds_the_optimal_trees_of_bc_on_the_boards_of_table_a_1() {
    if licence().is_none() {
        return;
    }
    let circuit = puzzlebench::puzzles::puzzle("circuit").unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/circuit/table_a_1");
    let (mut boards, mut with_rows) = (0, 0);
    for size in 3..=10 {
        for inst in circuit
            .load(&dir.join(format!("{size}x{size}.txt")))
            .unwrap()
        {
            let ours = inst.solve("cm1-lazy", BC, &limit(120.0)).unwrap();
            let theirs = inst.solve("cm1-lazy", GUROBI, &limit(120.0)).unwrap();
            let what = format!(
                "{}: bc {:?}, gurobi {:?}",
                inst.name(),
                ours.outcome,
                theirs.outcome
            );
            assert_eq!(ours.outcome.status, Status::Optimal, "{what}");
            assert_eq!(theirs.outcome.status, Status::Optimal, "{what}");
            assert_eq!(theirs.verified(), Some(true), "{what}");
            let (a, b) = (
                ours.outcome.objective.unwrap(),
                theirs.outcome.objective.unwrap(),
            );
            assert!((a - b).abs() < 1e-6, "{what}");
            let rows = theirs.outcome.cuts.unwrap_or(0);
            eprintln!(
                "{}: {} s on gurobi ({rows} lazy rows), {} s on bc, objective {b}",
                inst.name(),
                theirs.outcome.seconds,
                ours.outcome.seconds
            );
            boards += 1;
            if rows > 0 {
                with_rows += 1;
            }
        }
    }
    assert_eq!(boards, 40, "Table A.1 has 40 boards");
    // The subtour rows are added lazily: on the larger boards Gurobi's first incumbents
    // hold cycles, which only the callback's rows cut off.
    assert!(
        with_rows >= 20,
        "lazy rows were added on {with_rows} of {boards} boards"
    );
}

/// A model of `vars` binary columns and `rows` rows x_i + x_{i+1} ≤ 1 (a path), maximising
/// the sum.
fn path(vars: usize, rows: usize) -> Model {
    let mut m = Model::new("path");
    m.sense = Sense::Maximize;
    for i in 0..vars {
        m.add_var(Name::idx("x", &[i]), VarKind::Binary, 0.0, 1.0, 1.0);
    }
    for i in 0..rows {
        let (a, b) = (i % vars, (i + 1) % vars);
        m.add_row(
            Name::idx("r", &[i]),
            vec![(VarId(a), 1.0), (VarId(b), 1.0)],
            f64::NEG_INFINITY,
            1.0,
        );
    }
    m
}

#[test]
fn the_size_limited_licence_refuses_a_model_over_the_limit_before_solving() {
    match licence() {
        Some(Licence::SizeLimited) => {}
        Some(other) => {
            eprintln!("skipped: the licence here is {other:?}, not the size-limited one");
            return;
        }
        None => return,
    }
    let settings = GUROBI.settings(Kind::Mip, &limit(60.0));
    // At the limit: it solves.
    let m = path(SIZE_LIMIT, SIZE_LIMIT);
    let o = GUROBI.solve(Problem::Mip(&m), &settings, &Budget::new(Some(60.0)));
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert_eq!(o.objective, Some(1000.0));
    // One column over: refused before anything runs, with both numbers.
    let m = path(SIZE_LIMIT + 1, 10);
    let o = GUROBI.solve(Problem::Mip(&m), &settings, &Budget::new(Some(60.0)));
    assert_eq!(o.status, Status::Refused, "{o:?}");
    let why = o.message.unwrap();
    assert!(
        why.contains("takes 2,000 variables") && why.contains("has 2,001 variables"),
        "{why}"
    );
    assert_eq!(o.call_seconds, None, "nothing was started");
    // One row over.
    let m = path(100, SIZE_LIMIT + 1);
    let o = GUROBI.solve(Problem::Mip(&m), &settings, &Budget::new(Some(60.0)));
    assert_eq!(o.status, Status::Refused, "{o:?}");
    assert!(o.message.unwrap().contains("has 2,001 rows"));
}

/// Adds `per_round` rows x_0 ≤ 1 (never binding) at every round: row generation that
/// never ends by itself.
struct Growing {
    per_round: usize,
}

impl Separator for Growing {
    fn separate(&mut self, _x: &[f64], _integral: bool) -> Vec<Cut> {
        (0..self.per_round)
            .map(|_| Cut {
                terms: vec![(VarId(0), 1.0)],
                lower: f64::NEG_INFINITY,
                upper: 1.0,
            })
            .collect()
    }
}

#[test]
fn a_model_that_grows_past_the_limit_by_row_generation_ends_as_a_refusal() {
    match licence() {
        Some(Licence::SizeLimited) => {}
        Some(other) => {
            eprintln!("skipped: the licence here is {other:?}, not the size-limited one");
            return;
        }
        None => return,
    }
    let mut m = path(50, SIZE_LIMIT - 5);
    let settings = GUROBI.settings(Kind::RowGeneration, &limit(60.0));
    let mut sep = Growing { per_round: 2 };
    let o = GUROBI.solve(
        Problem::RowGeneration(&mut m, &mut sep),
        &settings,
        &Budget::new(Some(60.0)),
    );
    assert_eq!(o.status, Status::Refused, "{o:?}");
    let why = o.message.clone().unwrap();
    assert!(why.contains("has 2,001 rows"), "{why}");
    assert!(why.contains("by row generation at round 4"), "{why}");
    // Three rounds solved (1,995, 1,997 and 1,999 rows), each adding two rows.
    assert_eq!(o.rounds, Some(4), "{o:?}");
    assert_eq!(o.cuts, Some(6), "{o:?}");
}
