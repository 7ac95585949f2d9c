//! Certified claims (src/certify/): the proof-logging search and VeriPB on small models
//! whose truth brute force settles. A true claim (optimal, unique, infeasible) is
//! `checked`; a false one, a tampered proof and a proof of another model are `rejected`,
//! and the row says why; a model beyond 0/1 has no certificate (`none`). The checker is
//! installed by scripts/setup-veripb.sh (scripts/test.sh runs it); without it each test
//! says so and returns.

use puzzlebench::certify::{self, veripb, Claim, Verdict};
use puzzlebench::lazy::Cut;
use puzzlebench::model::{Model, Sense, VarId, VarKind};

/// True when VeriPB is here; else says why the test is skipped.
fn checker(test: &str) -> bool {
    match veripb::version() {
        Ok(_) => true,
        Err(why) => {
            eprintln!("skipped {test}: {why}");
            false
        }
    }
}

fn checked(v: &Verdict) -> bool {
    matches!(v, Verdict::Checked(by) if by.starts_with("veripb "))
}

/// p pigeons in h holes, each pigeon in a hole, each hole at most one pigeon.
fn pigeons(p: usize, h: usize) -> Model {
    let mut m = Model::new("pigeons");
    let x: Vec<Vec<VarId>> = (0..p)
        .map(|i| (0..h).map(|j| m.add_binary(format!("x_{i}_{j}"))).collect())
        .collect();
    for (i, row) in x.iter().enumerate() {
        m.add_row(
            format!("pigeon_{i}"),
            row.iter().map(|&v| (v, 1.0)),
            1.0,
            f64::INFINITY,
        );
    }
    for j in 0..h {
        m.add_row(
            format!("hole_{j}"),
            x.iter().map(|row| (row[j], 1.0)),
            f64::NEG_INFINITY,
            1.0,
        );
    }
    m
}

/// Every 0/1 point of `m` that meets its rows (brute force; tiny models only).
fn points(m: &Model) -> Vec<Vec<f64>> {
    let n = m.vars.len();
    (0..1u64 << n)
        .map(|bits| (0..n).map(|j| (bits >> j & 1) as f64).collect::<Vec<f64>>())
        .filter(|x| m.feasible(x))
        .collect()
}

/// A random model of `n` 0/1 columns: a few rows with coefficients in −4..=4 (some all
/// equal above 1, some with a weight beyond the slack: the cases rustsat 0.7.5 gets
/// wrong), and an objective with coefficients in −5..=5. Four in five are feasible by
/// construction.
fn random_model(n: usize, seed: u64, sense: Sense) -> Model {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |k: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % k
    };
    let mut m = Model::new("random");
    let x: Vec<VarId> = (0..n).map(|j| m.add_binary(format!("x{j}"))).collect();
    for v in &x {
        m.vars[v.0].objective = next(11) as f64 - 5.0;
    }
    m.sense = sense;
    let p: Vec<f64> = (0..n).map(|_| next(2) as f64).collect();
    let anchored = next(5) != 0;
    for i in 0..(2 + next(4)) {
        let equal_weights = next(4) == 0;
        let w = 1 + next(3) as i64;
        let mut terms: Vec<(VarId, f64)> = Vec::new();
        for &v in &x {
            if next(2) == 0 {
                let a = if equal_weights { w } else { next(9) as i64 - 4 };
                if a != 0 {
                    terms.push((v, a as f64));
                }
            }
        }
        if terms.is_empty() {
            continue;
        }
        // Most models keep the point p feasible (each row within reach of its activity
        // there); one in five is left to chance, and is often infeasible.
        let activity: f64 = terms.iter().map(|&(v, a)| a * p[v.0]).sum();
        let total: f64 = terms.iter().map(|t| t.1.abs()).sum();
        let rhs = if anchored {
            activity
        } else {
            (next(total as u64 + 1) as f64 - total / 3.0).round()
        };
        let slack = next(2) as f64;
        match next(3) {
            0 => m.add_row(format!("r{i}"), terms, rhs - slack, f64::INFINITY),
            1 => m.add_row(format!("r{i}"), terms, f64::NEG_INFINITY, rhs + slack),
            _ => m.add_row(format!("r{i}"), terms, rhs, rhs),
        }
    }
    m
}

/// The objective as the model counts it.
fn value(m: &Model, x: &[f64]) -> f64 {
    m.objective_value(x)
}

/// The no-good row of the point `x` (0/1): every other point meets it.
fn nogood(x: &[f64]) -> Cut {
    let terms: Vec<(VarId, f64)> = x
        .iter()
        .enumerate()
        .map(|(j, &a)| (VarId(j), if a > 0.5 { -1.0 } else { 1.0 }))
        .collect();
    let ones = x.iter().filter(|&&a| a > 0.5).count() as f64;
    Cut {
        terms,
        lower: 1.0 - ones,
        upper: f64::INFINITY,
    }
}

#[test]
fn pigeonholes_are_certified_infeasible_and_a_free_hole_is_not() {
    if !checker("pigeonholes") {
        return;
    }
    for p in 3..=7 {
        let c = certify::certify(&pigeons(p, p - 1), &Claim::Infeasible, Some(60.0), None);
        assert!(checked(&c.verdict), "{p} pigeons: {:?}", c.verdict);
        assert!(c.proof_bytes.unwrap() > 0 && c.check_seconds.is_some());
    }
    let c = certify::certify(&pigeons(4, 4), &Claim::Infeasible, Some(60.0), None);
    assert!(
        matches!(&c.verdict, Verdict::Rejected(why) if why.contains("found a solution")),
        "{:?}",
        c.verdict
    );
}

#[test]
fn an_objective_a_row_fixes_is_certified_from_that_row_and_a_worse_claim_is_not() {
    if !checker("a row that fixes the objective") {
        return;
    }
    // min Σ 2x over five columns with Σ x ≥ 3 and x0 + x1 ≤ 1 (optimum 6), and max Σ x
    // with Σ x = 3 (optimum 3): the objective is a multiple of a row, so the proof is one
    // `pol` step from that row (no clause, no search). A claim of 8 is no contradiction
    // with the row: the search runs and finds the 6.
    let build = |sense: Sense, equal: bool| {
        let mut m = Model::new("fixed");
        let x: Vec<VarId> = (0..5).map(|j| m.add_binary(format!("x{j}"))).collect();
        m.sense = sense;
        for v in &x {
            m.vars[v.0].objective = if sense == Sense::Minimize { 2.0 } else { 1.0 };
        }
        let upper = if equal { 3.0 } else { f64::INFINITY };
        m.add_row("count", x.iter().map(|&v| (v, 1.0)), 3.0, upper);
        m.add_row("pair", [(x[0], 1.0), (x[1], 1.0)], f64::NEG_INFINITY, 1.0);
        m
    };
    let three = vec![1.0, 0.0, 1.0, 1.0, 0.0];
    for (sense, equal) in [(Sense::Minimize, false), (Sense::Maximize, true)] {
        let m = build(sense, equal);
        let keep = tempfile::tempdir().unwrap();
        let c = certify::certify(
            &m,
            &Claim::Optimal {
                values: three.clone(),
            },
            Some(60.0),
            Some(keep.path()),
        );
        assert!(checked(&c.verdict), "{sense:?}: {:?}", c.verdict);
        let proof = std::fs::read_to_string(keep.path().join("proof.pbp")).unwrap();
        assert!(proof.lines().any(|l| l.starts_with("pol ")), "{proof}");
        assert!(!proof.lines().any(|l| l.starts_with("rup ")), "{proof}");
    }
    let four = vec![1.0, 0.0, 1.0, 1.0, 1.0];
    let c = certify::certify(
        &build(Sense::Minimize, false),
        &Claim::Optimal { values: four },
        Some(60.0),
        None,
    );
    assert!(
        matches!(&c.verdict, Verdict::Rejected(why) if why.contains("objective 6")),
        "{:?}",
        c.verdict
    );
}

#[test]
fn random_models_true_claims_are_checked_and_false_ones_rejected() {
    if !checker("random models") {
        return;
    }
    let (mut optimal, mut infeasible, mut unique, mut refuted) = (0, 0, 0, 0);
    for seed in 0..60 {
        let sense = if seed % 2 == 0 {
            Sense::Minimize
        } else {
            Sense::Maximize
        };
        let m = random_model(4 + (seed as usize % 6), seed, sense);
        let all = points(&m);
        let what = format!("seed {seed}: {m:?}");
        if all.is_empty() {
            let c = certify::certify(&m, &Claim::Infeasible, Some(60.0), None);
            assert!(checked(&c.verdict), "{what}: {:?}", c.verdict);
            infeasible += 1;
            continue;
        }
        // The best point by brute force is certified; a worse one is refuted.
        let better = |a: f64, b: f64| {
            if sense == Sense::Minimize {
                a < b
            } else {
                a > b
            }
        };
        let best = all.iter().fold(&all[0], |b, x| {
            if better(value(&m, x), value(&m, b)) {
                x
            } else {
                b
            }
        });
        let c = certify::certify(
            &m,
            &Claim::Optimal {
                values: best.clone(),
            },
            Some(60.0),
            None,
        );
        if m.vars.iter().any(|v| v.objective != 0.0) {
            assert!(checked(&c.verdict), "{what}: {:?}", c.verdict);
            optimal += 1;
            if let Some(worse) = all.iter().find(|x| better(value(&m, best), value(&m, x))) {
                let c = certify::certify(
                    &m,
                    &Claim::Optimal {
                        values: worse.clone(),
                    },
                    Some(60.0),
                    None,
                );
                assert!(
                    matches!(&c.verdict, Verdict::Rejected(why) if why.contains("better")),
                    "{what}: {:?}",
                    c.verdict
                );
                refuted += 1;
            }
        }
        // "Infeasible" is false here.
        let c = certify::certify(&m, &Claim::Infeasible, Some(60.0), None);
        assert!(
            matches!(c.verdict, Verdict::Rejected(_)),
            "{what}: {:?}",
            c.verdict
        );
        // "Unique" holds exactly when there is one point.
        let excluded = vec![nogood(&all[0])];
        let c = certify::certify(&m, &Claim::Unique { excluded }, Some(60.0), None);
        if all.len() == 1 {
            assert!(checked(&c.verdict), "{what}: {:?}", c.verdict);
            unique += 1;
        } else {
            assert!(
                matches!(c.verdict, Verdict::Rejected(_)),
                "{what}: {:?}",
                c.verdict
            );
        }
    }
    eprintln!("checked: {optimal} optimal, {infeasible} infeasible, {unique} unique; {refuted} worse answers refuted");
    assert!(
        optimal >= 10 && infeasible >= 1 && refuted >= 5,
        "the seeds cover each case"
    );
}

#[test]
fn a_tampered_proof_or_a_proof_of_another_model_is_rejected_with_its_line() {
    if !checker("tampered") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("kept");
    let c = certify::certify(&pigeons(5, 4), &Claim::Infeasible, Some(60.0), Some(&keep));
    assert!(checked(&c.verdict), "{:?}", c.verdict);
    let (opb, pbp) = c.files.unwrap();
    let proof = std::fs::read_to_string(&pbp).unwrap();
    // A derived step changed: drop the last literal of the first RUP step.
    let at = proof.find("\nrup ").expect("a rup step") + 1;
    let end = at + proof[at..].find('\n').unwrap();
    let line = &proof[at..end];
    let cut = line.rfind(" x").unwrap();
    let tampered = format!("{}{} >= 1 ;{}", &proof[..at], &line[..cut], &proof[end..]);
    let bad = dir.path().join("bad.pbp");
    std::fs::write(&bad, &tampered).unwrap();
    let check = veripb::check(&opb, &bad, "s VERIFIED UNSATISFIABLE", None);
    assert!(
        matches!(&check.verdict, Verdict::Rejected(why) if why.contains("bad.pbp")),
        "{:?}",
        check.verdict
    );
    // The same proof against another model (a pigeon fewer: it has solutions).
    let other = dir.path().join("other.opb");
    let text = puzzlebench::formats::opb::write(&pigeons(4, 4)).unwrap();
    std::fs::write(&other, text).unwrap();
    let check = veripb::check(&other, &pbp, "s VERIFIED UNSATISFIABLE", None);
    assert!(
        matches!(check.verdict, Verdict::Rejected(_)),
        "{:?}",
        check.verdict
    );
    // A proof whose conclusion is not the claim's.
    let check = veripb::check(&opb, &pbp, "s VERIFIED BOUNDS 0 <= obj <= 0", None);
    assert!(
        matches!(&check.verdict, Verdict::Rejected(why) if why.contains("VERIFIED UNSATISFIABLE")),
        "{:?}",
        check.verdict
    );
}

#[test]
fn a_model_beyond_zero_one_has_no_certificate() {
    let mut m = Model::new("general");
    let x = m.add_var("x", VarKind::Integer, 0.0, 5.0, 1.0);
    m.add_row("r", [(x, 1.0)], 2.0, f64::INFINITY);
    let c = certify::certify(&m, &Claim::Infeasible, Some(10.0), None);
    assert!(
        matches!(&c.verdict, Verdict::None(why) if why.contains("not a 0/1 model")),
        "{:?}",
        c.verdict
    );
    let mut m = pigeons(2, 2);
    m.rows[0].terms[0].1 = 0.5;
    let c = certify::certify(&m, &Claim::Infeasible, Some(10.0), None);
    assert!(
        matches!(&c.verdict, Verdict::None(why) if why.contains("0.5")),
        "{:?}",
        c.verdict
    );
}

/// The cost of certificates on the puzzles' own claims (a benchmark, run by hand:
/// `cargo test --release --test certify -- --ignored --nocapture`): n-Queens' most
/// queens (`base`) on the committed 8×8 boards, each optimum from HiGHS certified, and the
/// uniqueness of the committed Sudoku puzzles (`binary`, whose columns are all answer
/// columns, so the no-good of the answer excludes exactly it). For each: the plain search
/// (the `sat` engine, CaDiCaL without a proof, on the same model and claim), the
/// proof-logging search, the check, and the proof's size.
#[test]
#[ignore]
fn certificate_cost_on_puzzle_claims() {
    use puzzlebench::engines::{highs::HIGHS, sat::SAT, SolveOptions, Status};
    use puzzlebench::puzzles;
    if !checker("certificate cost") {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let mut cases: Vec<(Box<dyn puzzles::Instance>, &str, &str)> = Vec::new();
    let queens = puzzles::puzzle("queens").unwrap();
    for f in std::fs::read_dir(root.join("queens/boards")).unwrap() {
        let f = f.unwrap().path();
        if f.file_name().unwrap().to_string_lossy().starts_with("b08") {
            for inst in queens.load(&f).unwrap() {
                cases.push((inst, "base", "optimal"));
            }
        }
    }
    let sudoku = puzzles::puzzle("sudoku").unwrap();
    for name in [
        "solo_2x3_unreasonable",
        "solo_3x3_basic",
        "solo_3x3_extreme",
        "report_fig3_1",
    ] {
        for inst in sudoku
            .load(&root.join(format!("sudoku/{name}.txt")))
            .unwrap()
        {
            cases.push((inst, "binary", "unique"));
        }
    }
    let options = SolveOptions {
        time_limit: Some(60.0),
        lp_relaxation: false,
        ..SolveOptions::default()
    };
    let (mut prove_ratio, mut check_ratio) = (Vec::new(), Vec::new());
    println!("| instance | claim | plain search (s) | proof-logging search (s) | check (s) | proof (bytes) | certificate |");
    println!("|---|---|---|---|---|---|---|");
    for (inst, formulation, kind) in &cases {
        let model = inst.build(formulation).unwrap();
        let answer = inst.solve(formulation, HIGHS, &options).unwrap();
        assert_eq!(answer.outcome.status, Status::Optimal, "{}", inst.name());
        assert_eq!(answer.verified(), Some(true), "{}", inst.name());
        let values = answer.outcome.values.clone().unwrap();
        let claim = match *kind {
            "optimal" => Claim::Optimal {
                values: values.clone(),
            },
            _ => Claim::Unique {
                excluded: vec![nogood(&values)],
            },
        };
        // The plain search of the same claim: the optimum again, or no second answer.
        let plain = match &claim {
            Claim::Unique { excluded } => {
                let mut m = model.clone();
                for c in excluded {
                    m.add_row("nogood", c.terms.clone(), c.lower, c.upper);
                }
                SAT.solve_model(&m, &options)
            }
            _ => SAT.solve_model(&model, &options),
        };
        let c = certify::certify(&model, &claim, Some(600.0), None);
        assert!(checked(&c.verdict), "{}: {:?}", inst.name(), c.verdict);
        let (p, s, k) = (
            plain.seconds,
            c.certify_seconds.unwrap(),
            c.check_seconds.unwrap(),
        );
        prove_ratio.push(s / p.max(1e-6));
        check_ratio.push(k / p.max(1e-6));
        println!(
            "| {} | {kind} | {p:.4} | {s:.4} | {k:.3} | {} | {} |",
            inst.name(),
            c.proof_bytes.unwrap(),
            c.verdict.cell()
        );
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let worst = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    println!(
        "{} claims checked; proof-logging search / plain search: median {:.1}, worst {:.1}; check / plain search: median {:.1}, worst {:.1}",
        cases.len(),
        median(&mut prove_ratio),
        worst(&prove_ratio),
        median(&mut check_ratio),
        worst(&check_ratio)
    );
}

fn pb(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run puzzlebench")
}

/// The JSON rows `count`/`solve --format json` print, one per line.
fn json_rows(out: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// The JSON rows of `puzzlebench <args> --certify --format json`, which must succeed.
fn certified_rows(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = args.to_vec();
    all.extend(["--certify", "--format", "json"]);
    let o = pb(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    json_rows(&o)
}

#[test]
fn a_row_says_what_was_checked_and_why_nothing_was() {
    if !checker("row certificates") {
        return;
    }
    // A unique Sudoku counted to 2 on two engines: one answer, and the proof that the
    // model with its no-good row has no other is checked.
    for engine in ["highs", "sat"] {
        let rows = certified_rows(&[
            "count",
            "instances/sudoku/report_fig3_1.txt",
            "--puzzle",
            "sudoku",
            "--limit",
            "2",
            "--backend",
            engine,
        ]);
        assert_eq!(rows[0]["solutions"], 1);
        let cell = rows[0]["certificate"].as_str().unwrap();
        assert!(
            cell.starts_with("checked (unique, veripb 3."),
            "{engine}: {cell}"
        );
        assert!(rows[0]["proof_bytes"].as_u64().unwrap() > 0);
        assert!(rows[0]["check_seconds"].as_f64().unwrap() > 0.0);
    }
    // Every way to place the most queens (a maximisation) on the empty 8x8 board and on
    // one with walls, counted: the 92 (and 10) answers are all there are, and the proof
    // that nothing else is as good is checked.
    for (board, solutions) in [("b08_w0", 92), ("b08_w1_a", 10)] {
        let rows = certified_rows(&[
            "count",
            &format!("instances/queens/boards/{board}.txt"),
            "--puzzle",
            "queens",
            "--formulation",
            "base",
            "--backend",
            "sat",
            "--limit",
            "1000",
        ]);
        assert_eq!(rows[0]["solutions"], solutions, "{board}");
        let cell = rows[0]["certificate"].as_str().unwrap();
        assert!(
            cell.starts_with("checked (all solutions found, veripb 3."),
            "{board}: {cell}"
        );
    }
    // n-Queens' most queens on an 8x8 board with a wall: the optimum is checked.
    let rows = certified_rows(&[
        "solve",
        "instances/queens/boards/b08_w1_a.txt",
        "--puzzle",
        "queens",
        "--formulation",
        "base",
    ]);
    let cell = rows[0]["certificate"].as_str().unwrap();
    assert!(cell.starts_with("checked (optimal, veripb 3."), "{cell}");
    // A Zebra puzzle without solution: infeasible, checked; as a constraint program it has
    // no 0/1 model. A Sudoku solved once claims nothing beyond its answer. Without
    // --certify the cells stay empty.
    for (file, puzzle, formulation, want) in [
        (
            "tests/data/zebra/infeasible.txt",
            "zebra",
            "ip",
            "checked (infeasible, veripb 3.",
        ),
        (
            "tests/data/zebra/infeasible.txt",
            "zebra",
            "cp",
            "none: a constraint program",
        ),
        (
            "instances/sudoku/report_fig3_1.txt",
            "sudoku",
            "binary",
            "none: no claim beyond the answer",
        ),
    ] {
        let rows = certified_rows(&[
            "solve",
            file,
            "--puzzle",
            puzzle,
            "--formulation",
            formulation,
        ]);
        let cell = rows[0]["certificate"].as_str().unwrap();
        assert!(cell.starts_with(want), "{cell}");
    }
    let o = pb(&[
        "solve",
        "instances/sudoku/report_fig3_1.txt",
        "--puzzle",
        "sudoku",
        "--format",
        "json",
    ]);
    assert_eq!(json_rows(&o)[0]["certificate"], "");
    assert!(json_rows(&o)[0]["certify_seconds"].is_null());
    // A limit that is no number of seconds is a clear error.
    let o = pb(&[
        "solve",
        "instances/sudoku/report_fig3_1.txt",
        "--puzzle",
        "sudoku",
        "--certify",
        "--certify-limit",
        "0",
    ]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--certify-limit must be a positive"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn an_engine_that_says_optimal_with_a_worse_answer_is_rejected_in_its_row() {
    use puzzlebench::engines::{highs::HIGHS, SolveOptions, Status};
    use puzzlebench::puzzles::{self, certified};
    if !checker("a false optimal") {
        return;
    }
    // The most queens on an 8x8 board with a wall, solved by highs; then the same answer
    // with one queen taken away: still a valid placement (the verifier accepts it), but
    // an engine that called it optimal would be wrong, and the certificate says so.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let queens = puzzles::puzzle("queens").unwrap();
    let inst = queens
        .load(&root.join("queens/boards/b08_w1_a.txt"))
        .unwrap()
        .remove(0);
    let model = inst.build("base").unwrap();
    let mut r = inst.solve("base", HIGHS, &SolveOptions::default()).unwrap();
    assert_eq!(r.outcome.status, Status::Optimal);
    let right = certified::of_one_model(&model, &r, 60.0);
    assert!(
        right.cell().starts_with("checked (optimal, "),
        "{}",
        right.cell()
    );
    let values = r.outcome.values.as_mut().unwrap();
    let queen = values
        .iter()
        .position(|&v| v > 0.5 && v < 1.5)
        .expect("a queen");
    values[queen] = 0.0;
    let wrong = certified::of_one_model(&model, &r, 60.0);
    assert!(
        wrong.cell().starts_with(
            "rejected (optimal): the certifying search found a solution with objective"
        ),
        "{}",
        wrong.cell()
    );
}

#[test]
fn row_generation_minima_carry_their_witnesses_and_lazy_claims_their_relaxation() {
    if !checker("row generation certificates") {
        return;
    }
    // The fewest clues of a 4x4 Sudoku and the fewest givens of a 5x5 nonogram: every row
    // of the final leader is an unavoidable set the puzzle's verifier confirms, and VeriPB
    // checks that no smaller clue set hits them all. A Circuit Board's cm1 (lazy subtour
    // rows on bc), on a small board and a large one, is certified on the model without
    // its lazy rows, a relaxation whose row (5.1d) already fixes the objective.
    for (file, puzzle, formulation, engine, want) in [
        (
            "instances/minclue/small/grid4_a.txt",
            "minclue",
            "rowgen",
            "highs",
            "checked (optimal, ",
        ),
        (
            "instances/minclue/small/grid4_a.txt",
            "minclue",
            "rowgen-plain",
            "sat",
            "checked (optimal, ",
        ),
        (
            "instances/nonogram-givens/tiny/switches_5x5.txt",
            "nonogram-givens",
            "rowgen-plain",
            "highs",
            "checked (optimal, ",
        ),
        (
            "instances/circuit/table_a_1/4x4.txt",
            "circuit",
            "cm1",
            "bc",
            "checked (optimal on the model without its added rows, a relaxation, veripb 3.",
        ),
        (
            "instances/circuit/table_a_1/10x10.txt",
            "circuit",
            "cm1",
            "bc",
            "checked (optimal on the model without its added rows, a relaxation, veripb 3.",
        ),
    ] {
        let row = &certified_rows(&[
            "solve",
            file,
            "--puzzle",
            puzzle,
            "--formulation",
            formulation,
            "--backend",
            engine,
        ])[0];
        let cell = row["certificate"].as_str().unwrap();
        assert!(cell.starts_with(want), "{puzzle} {formulation}: {cell}");
        if puzzle != "circuit" {
            assert_eq!(row["status"], "optimal");
            assert!(
                cell.contains("rows witnessed by the verifier, veripb 3."),
                "{cell}"
            );
        }
    }
    // Counts through rows added while counting: Hashi's connectivity rows (cuts) are each
    // witnessed by the verifier (without the row's pairs the islands fall apart), and
    // the uniqueness is proved on the model with them. cm1's subtour rows have no
    // witness, and where the model as built has another point (its tree rules pruned it
    // without a row) the row says there is no certificate, not that the claim is false.
    let rows = certified_rows(&[
        "count",
        "instances/hashi/report_range/a4_30x30.txt",
        "--puzzle",
        "hashi",
        "--formulation",
        "cuts",
        "--backend",
        "highs",
        "--limit",
        "2",
    ]);
    let cell = rows[0]["certificate"].as_str().unwrap();
    assert!(cell.starts_with("checked (unique, "), "{cell}");
    assert!(
        cell.contains(" added rows witnessed by the verifier, veripb 3."),
        "{cell}"
    );
    let rows = certified_rows(&[
        "count",
        "instances/circuit/table_a_1/4x4.txt",
        "--puzzle",
        "circuit",
        "--formulation",
        "cm1",
        "--backend",
        "bc",
        "--limit",
        "2",
    ]);
    assert!(rows
        .iter()
        .all(|r| !r["certificate"].as_str().unwrap().starts_with("rejected")));
    assert!(
        rows.iter()
            .any(|r| r["certificate"].as_str().unwrap().starts_with(
                "none: the model as built, with the 0 rows added while counting, has a point"
            )),
        "{rows:?}"
    );
}
