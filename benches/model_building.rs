//! Model building for Sudoku (9x9, 16x16, 25x25), both formulations, plus the solve of the
//! same instances on HiGHS, so that build time can be read against solve time in one run.

mod common;

use common::first;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use puzzlebench::engines::{highs::HIGHS, SolveOptions};
use puzzlebench::puzzles::sudoku::Sudoku;
use puzzlebench::puzzles::Solve;

fn instances() -> Vec<(&'static str, Sudoku)> {
    vec![
        ("9x9", first("instances/sudoku/solo_3x3_unreasonable.txt")),
        ("16x16", first("instances/sudoku/solo_4x4_basic.txt")),
        ("25x25", first("instances/sudoku/solo_5x5_basic.txt")),
    ]
}

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("sudoku_build");
    for (label, p) in instances() {
        for f in ["binary", "values"] {
            g.bench_with_input(BenchmarkId::new(f, label), &p, |b, p| {
                b.iter(|| p.build(f).unwrap())
            });
        }
    }
    g.finish();
}

fn solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("sudoku_solve_highs");
    g.sample_size(10);
    for (label, p) in instances() {
        let model = p.build("binary").unwrap();
        g.bench_with_input(BenchmarkId::new("binary", label), &model, |b, m| {
            b.iter(|| HIGHS.solve_model(m, &SolveOptions::default()))
        });
    }
    g.finish();
}

criterion_group!(benches, build, solve);
criterion_main!(benches);
