//! The `sat` engine on Sudoku `binary`, in three parts read from one run (README, "The
//! SAT backend"): `cnf`, the model-to-CNF encoding alone (fixings and clauses, written to
//! memory); `load`, the same with the clauses handed to a new CaDiCaL; `solve`, the whole
//! solve as a run makes it (load and CaDiCaL's search). On 9×9 (Tatham's 'extreme' and
//! 'unreasonable'), 16×16 ('basic' and 'extreme') and 25×25 ('basic' and 'intermediate') puzzles.

mod common;

use common::first;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use puzzlebench::engines::cnf::{self, Encoder};
use puzzlebench::engines::sat::{self, SAT};
use puzzlebench::engines::{Budget, Kind, SolveOptions};
use puzzlebench::puzzles::sudoku::Sudoku;
use puzzlebench::puzzles::Solve;

fn instances() -> Vec<(&'static str, Sudoku)> {
    vec![
        (
            "9x9-extreme",
            first("instances/sudoku/solo_3x3_extreme.txt"),
        ),
        (
            "9x9-unreasonable",
            first("instances/sudoku/solo_3x3_unreasonable.txt"),
        ),
        ("16x16-basic", first("instances/sudoku/solo_4x4_basic.txt")),
        (
            "16x16-extreme",
            first("instances/sudoku/solo_4x4_extreme.txt"),
        ),
        ("25x25-basic", first("instances/sudoku/solo_5x5_basic.txt")),
        (
            "25x25-intermediate",
            first("instances/sudoku/solo_5x5_intermediate.txt"),
        ),
    ]
}

fn encode_and_solve(c: &mut Criterion) {
    let options = SolveOptions::default();
    let settings = SAT.settings(Kind::Mip, &options);
    let mut g = c.benchmark_group("sudoku_sat");
    for (label, p) in instances() {
        let model = p.build("binary").unwrap();
        g.bench_with_input(BenchmarkId::new("cnf", label), &model, |b, m| {
            b.iter(|| {
                let mut clauses = rustsat::instances::Cnf::new();
                let mut enc = Encoder::new(cnf::fixings(m).unwrap());
                enc.model(m, &mut clauses).unwrap();
                clauses
            })
        });
        g.bench_with_input(BenchmarkId::new("load", label), &model, |b, m| {
            b.iter(|| sat::encode(m, &settings, &Budget::unlimited()).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("solve", label), &model, |b, m| {
            b.iter(|| SAT.solve_model(m, &options))
        });
    }
    g.finish();
}

criterion_group!(benches, encode_and_solve);
criterion_main!(benches);
