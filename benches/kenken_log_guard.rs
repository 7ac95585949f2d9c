//! How often the KenKen log model, unguarded, returns a wrong product (README, "KenKen").
//!
//! 1. The arithmetic: for cages of m cells with values 1..=n, the two distinct products
//!    whose logarithms lie closest, against a solver's tolerances (about 1e-6 on a row,
//!    and 1e-6 on each binary's integrality, which log(n)·m turns into up to ~1e-5).
//! 2. Random n×n puzzles (a random Latin square; each cell a given with probability g,
//!    the rest in × cages of s cells grown over neighbours), each solved once by the log
//!    model as one integer program without its guard, on HiGHS and CBC; the grid is
//!    decoded as a run decodes it and checked by the verifier (exact integer arithmetic).
//! 3. A near miss: the same kind of puzzle with the largest × cage's target b made b + 1,
//!    chosen to have a prime factor above n, so that no filling meets it and the truth is
//!    "infeasible", while log(b + 1) − log(b) ≈ 1/b lies far below the tolerances; solved
//!    without the guard and with it (the formulation `log`).
//!
//! `cargo bench --bench kenken_log_guard` runs 20 puzzles per configuration and engine;
//! under `cargo test` one small puzzle, as a smoke test.

use puzzlebench::engines::{cbc::CBC, highs::HIGHS, Engine, SolveOptions, Status};
use puzzlebench::puzzles::kenken::{log, random, verify, KenKen, Op};
use puzzlebench::puzzles::Solve;
use puzzlebench::rng::Rng;
use std::time::Instant;

/// A random n×n puzzle: each cell a given with probability `given`, the others in ×
/// cages of `size` cells where they fit.
fn puzzle(rng: &mut Rng, n: usize, size: usize, given: f64) -> KenKen {
    let shape = random::Shape {
        n,
        max_cage: size,
        full_cages: true,
        given,
        ops: random::Ops::Mul,
    };
    random::puzzle(rng, shape).0
}

/// The closest two distinct products of `m` values in 1..=`n`, as the gap of their
/// logarithms and the two products.
fn closest_products(n: u64, m: usize) -> (f64, u64, u64) {
    let mut products = Vec::new();
    fn walk(n: u64, m: usize, low: u64, p: u64, out: &mut Vec<u64>) {
        if m == 0 {
            out.push(p);
            return;
        }
        for v in low..=n {
            walk(n, m - 1, v, p * v, out);
        }
    }
    walk(n, m, 1, 1, &mut products);
    products.sort_unstable();
    products.dedup();
    products
        .windows(2)
        .map(|w| (((w[1] as f64).ln() - (w[0] as f64).ln()), w[0], w[1]))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap()
}

/// The largest prime factor of `x`.
fn largest_prime_factor(mut x: u64) -> u64 {
    let mut largest = 1;
    let mut d = 2;
    while d * d <= x {
        while x.is_multiple_of(d) {
            largest = d;
            x /= d;
        }
        d += 1;
    }
    largest.max(x)
}

/// What one configuration of random puzzles gave on one engine.
#[derive(Default)]
struct Tally {
    right: usize,
    wrong: usize,
    infeasible: usize,
    limit: usize,
    times: Vec<f64>,
}

impl Tally {
    fn row(&mut self, what: &str) -> String {
        self.times.sort_by(f64::total_cmp);
        let median = self.times.get(self.times.len() / 2).copied().unwrap_or(0.0);
        format!(
            "{what:<34} {:>5} {:>5} {:>10} {:>10} {:>9.3}",
            self.right, self.wrong, self.infeasible, self.limit, median
        )
    }
}

/// Solves `p` with the log model without its guard on `e`, and tallies the answer: a
/// grid the verifier accepts, a grid it refuses (a wrong product let through), a claim of
/// infeasibility, or the time limit (an incumbent at the limit is checked too).
fn unguarded(
    p: &KenKen,
    e: Engine,
    opts: &SolveOptions,
    t: &mut Tally,
    example: &mut Option<String>,
) {
    let (model, latin, _guard) = log::build(p);
    let started = Instant::now();
    let o = e.solve_model(&model, opts);
    t.times.push(started.elapsed().as_secs_f64());
    match (o.status, &o.values) {
        (Status::Infeasible, _) => t.infeasible += 1,
        (Status::Optimal | Status::TimeLimit, Some(values)) => {
            match verify::check(p, &latin.decode(values)) {
                Ok(()) => t.right += 1,
                Err(why) => {
                    t.wrong += 1;
                    example.get_or_insert(format!("{} on {e}: {why}", p.name));
                }
            }
        }
        (Status::TimeLimit, None) => t.limit += 1,
        (s, _) => panic!("{e}: {s}: {:?}", o.message),
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let per = if full { 20 } else { 1 };
    let engines = if full { vec![HIGHS, CBC] } else { vec![HIGHS] };
    let opts = SolveOptions {
        time_limit: Some(10.0),
        lp_relaxation: false,
        ..SolveOptions::default()
    };

    println!("1. closest distinct products of m values in 1..n (gap of natural logarithms)");
    let gaps: &[(u64, usize)] = if full {
        &[(9, 9), (16, 9), (25, 7)]
    } else {
        &[(9, 5)]
    };
    for &(n, most) in gaps {
        for m in 2..=most {
            let (gap, a, b) = closest_products(n, m);
            println!("   n = {n:2}, m = {m}: {a} and {b}, gap {gap:.2e}");
        }
    }

    println!("\n2. random puzzles: each cell given with probability g, the others in x cages");
    println!("   of s cells; the log model without its guard, 10 s limit");
    println!(
        "{:<34} {:>5} {:>5} {:>10} {:>10} {:>9}",
        "   engine, n, g, s", "right", "wrong", "infeasible", "time limit", "median s"
    );
    let configs: &[(usize, f64, usize)] = if full {
        &[(9, 0.4, 4), (9, 0.4, 6), (16, 0.5, 6), (25, 0.5, 6)]
    } else {
        &[(9, 0.5, 4)]
    };
    let mut example = None;
    for &e in &engines {
        for &(n, g, s) in configs {
            let mut rng = Rng::new(1000 + (n * 10 + s) as u64);
            let mut t = Tally::default();
            for _ in 0..per {
                let p = puzzle(&mut rng, n, s, g);
                unguarded(&p, e, &opts, &mut t, &mut example);
            }
            println!("{}", t.row(&format!("   {e}, {n}, {g}, {s}")));
        }
    }

    println!("\n3. a near miss: the same puzzles with the largest x cage's target b made b + 1,");
    println!("   which has a prime factor above n, so no filling meets it and the truth is");
    println!("   'infeasible'; without the guard, then with it (the formulation log)");
    let near: &[(usize, f64, usize)] = if full {
        &[(16, 0.5, 6), (25, 0.5, 6)]
    } else {
        &[(9, 0.5, 4)]
    };
    for &(n, g, s) in near {
        let mut rng = Rng::new(1000 + (n * 10 + s) as u64);
        let mut puzzles = Vec::new();
        while puzzles.len() < per {
            let mut p = puzzle(&mut rng, n, s, g);
            let Some(k) = (0..p.cages.len())
                .filter(|&k| p.cages[k].op == Op::Mul)
                .max_by_key(|&k| p.cages[k].target)
            else {
                continue;
            };
            let b = p.cages[k].target;
            if largest_prime_factor(b + 1) as usize <= n {
                continue;
            }
            p.cages[k].target = b + 1;
            p.name = format!("near miss {b}+1");
            puzzles.push(p);
        }
        for &e in &engines {
            let mut t = Tally::default();
            for p in &puzzles {
                unguarded(p, e, &opts, &mut t, &mut example);
            }
            println!("{}", t.row(&format!("   unguarded {e}, {n}, {g}, {s}")));
            let mut t = Tally::default();
            for p in &puzzles {
                let started = Instant::now();
                let r = p.solve("log", e, &opts).unwrap();
                t.times.push(started.elapsed().as_secs_f64());
                match r.outcome.status {
                    Status::Infeasible => t.infeasible += 1,
                    Status::TimeLimit if r.answer.is_none() => t.limit += 1,
                    _ if r.verified() == Some(true) => t.right += 1,
                    _ => t.wrong += 1,
                }
            }
            println!("{}", t.row(&format!("   guarded {e}, {n}, {g}, {s}")));
        }
    }
    if let Some(x) = example {
        println!("\nfirst wrong grid: {x}");
    }
}
