//! Fewest clues that make a known solution unique, by row generation: the one loop of
//! minimum-clue Sudoku (the report 002, chapter 8) and of nonogram givens (the open
//! question of the paper "Nonokenken", section 3.3).
//!
//! A puzzle with its intended solution T, cells numbered row-major. A *clue* shows one
//! cell with T's value; the question is the fewest clues whose only solution is T. The
//! report writes it as a bilevel program (the leader picks clues, the follower looks for
//! another solution); since the follower only checks feasibility, it is solved in one
//! level:
//!
//! **Leader** (on the run's engine): y[k] = 1 iff cell k is a clue; minimise Σ y; one row
//! `set[i]`: Σ_{c ∈ U_i} y_c ≥ 1 per *unavoidable set* U_i known so far (the cells where some
//! other solution differs from T: every clue set that makes T unique shows one of them).
//! So the leader's optimum over the sets known is a lower bound on the minimum. The row
//! `upper`: Σ y ≤ |best| − 1 asks for fewer clues than the best unique set known (Σ y ≤
//! |best| when counting, which must find every minimum set); whenever the follower finds a
//! better set, the separator adds the cap Σ y ≤ |best| − 1. A leader left without a
//! solution thus proves the best set a minimum (the run reports `optimal`), and a leader
//! solution the follower accepts is a minimum by the engine's own proof.
//!
//! **Follower** ([`ClueFollower`], CaDiCaL with the puzzle's rules, the leader's clues as
//! assumptions), the separator of the engine's row generation ([`Run::row_generation`]:
//! each round a solve on MIP engines; on `sat` and `hitset` at every solution of one
//! search). For the leader's clues ([`round`]):
//! 1. the follower looks for another solution; none: the clues are unique, the engine's
//!    solution stands;
//! 2. otherwise the cells where it differs from T, shrunk to a minimal unavoidable set,
//!    become a row; one of its cells is added to the clues and the follower asked again,
//!    until the clues are unique: every set found this way is a row (many rows per round);
//! 3. the unique clue set reached, with every clue that is not needed taken out and (where
//!    the puzzle asks for it, [`Target::improves`]) improved by trading two clues for one
//!    ([`improve`]), replaces the best set when smaller (with a cap).
//!
//! The first best set is the follower's round from the instance's start clues (none, where
//! it has none), improved the same way; the seeding search of the puzzle (its
//! [`Target::seeds`]) fills the first model of the seeded formulation. At the time limit
//! the run ends as `time_limit` with the best clue set as its objective and the engine's
//! bound as its bound. `seconds` holds the whole search: the first round and the seeding
//! (made while the first model is built), then the loop (leader and follower);
//! `separator_seconds` the follower's share of it; `build_seconds` only the leader's
//! model. So the two formulations, seeded or not, are compared on all their search.

use super::clue_follower::{ClueFollower, Stopped};
use super::{Answer, Run, RunResult};
use crate::engines::{gap, Budget, Status};
use crate::lazy::{Cut, Separator};
use crate::model::{Model, Name, VarId, VarKind};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// A puzzle with an intended solution whose fewest clues are sought.
pub trait Target {
    /// Cells, numbered row-major.
    fn cells(&self) -> usize;
    /// The leader model's name.
    fn model_name(&self) -> String;
    /// The name of the leader's column y for cell `k` (`y(i,j)`).
    fn column(&self, k: usize) -> Name;
    /// The follower: CaDiCaL on the puzzle's rules, its queries stopped at `budget`'s
    /// deadline.
    fn follower(&self, budget: &Budget) -> ClueFollower;
    /// Clues to start from (the instance's own), where it has some; the first round adds
    /// clues to them until T is unique.
    fn start(&self) -> Option<Vec<bool>>;
    /// Unavoidable sets for the seeded formulation's first model, smallest first.
    fn seeds(&self, follower: &mut ClueFollower) -> Result<Vec<Vec<usize>>, Stopped>;
    /// Whether a unique clue set found is improved by trading two clues for one
    /// ([`improve`]) before it becomes the best: worth it where the leader's search is the
    /// hard part and a tight upper bound prunes it (minimum-clue Sudoku), not where the
    /// follower's questions with few clues are the cost (nonogram givens).
    fn improves(&self) -> bool {
        true
    }
}

/// What the leader's build hands to the loop besides the model (y and the seeded rows).
pub struct Leader {
    /// The clue columns y, row-major.
    pub y: Vec<VarId>,
    /// The follower (it found the seeded sets, and goes on learning).
    pub follower: ClueFollower,
    /// The best unique clue set known after the build (row-major): the first round's,
    /// with clues not needed taken out and improved; every cell when the deadline passed
    /// first.
    pub best: Vec<bool>,
    /// The deadline passed while building.
    pub stopped: bool,
    /// Seconds of the build spent searching (the first round and the seeding), not
    /// making the model.
    pub search_seconds: f64,
    /// The unavoidable sets of the first model's rows `set[i]`, in order.
    pub sets: Vec<Vec<usize>>,
}

/// Builds the leader for `p`: the columns y; when `seeded`, the rows of `p`'s seeds and
/// of the first round's sets; and the row `upper`: Σ y ≤ |best| − 1 ("fewer clues than
/// the best set known", so that an infeasible leader proves the best set a minimum), or
/// Σ y ≤ |best| when `counting` (every minimum set is to be found). The follower's
/// queries stop at `budget`'s deadline (none: unlimited).
pub fn build<T: Target>(
    p: &T,
    seeded: bool,
    counting: bool,
    budget: Option<&Budget>,
) -> (Model, Leader) {
    let cells = p.cells();
    let unlimited = Budget::unlimited();
    let mut follower = p.follower(budget.unwrap_or(&unlimited));
    let mut model = Model::new(p.model_name());
    let y: Vec<VarId> = (0..cells)
        .map(|k| model.add_var(p.column(k), VarKind::Binary, 0.0, 1.0, 1.0))
        .collect();
    let mut sets: Vec<Vec<usize>> = Vec::new();
    // Every cell shown makes T unique; the first round replaces it, then improves.
    let mut best = vec![true; cells];
    let mut first = || -> Result<(), Stopped> {
        let start = p.start().unwrap_or_else(|| vec![false; cells]);
        let r = round(&mut follower, &start)?;
        if seeded {
            sets.extend(r.sets);
        }
        best = match r.puzzle {
            Some(puzzle) => puzzle,
            None => without_needless_clues(&mut follower, start)?,
        };
        if p.improves() {
            improve(&mut follower, &mut best)?;
        }
        if seeded {
            let mut seeds = p.seeds(&mut follower)?;
            seeds.append(&mut sets);
            sets = seeds;
        }
        Ok(())
    };
    let searching = std::time::Instant::now();
    let stopped = first().is_err();
    let search_seconds = searching.elapsed().as_secs_f64();
    if let Some(b) = budget {
        // The follower's best clue set is the run's first incumbent.
        b.incumbent(count(&best) as f64);
    }
    for (i, s) in sets.iter().enumerate() {
        let row = set_row(&y, s.iter().copied());
        model.add_row(Name::idx("set", &[i + 1]), row.terms, row.lower, row.upper);
    }
    let upper = count(&best) - usize::from(!counting && count(&best) > 0);
    model.add_le("upper", y.iter().map(|&v| (v, 1.0)), upper as f64);
    (
        model,
        Leader {
            y,
            follower,
            best,
            stopped,
            search_seconds,
            sets,
        },
    )
}

/// The row Σ_{c ∈ cells} y_c ≥ 1: "show one of these cells".
fn set_row(y: &[VarId], cells: impl Iterator<Item = usize>) -> Cut {
    Cut {
        terms: cells.map(|c| (y[c], 1.0)).collect(),
        lower: 1.0,
        upper: f64::INFINITY,
    }
}

/// Solves `p` on the run's engine (`seeded`: with `p`'s seeds in the first model) through
/// the engine's row generation ([`Run::row_generation`]), with the follower as separator.
/// Afterwards the follower's best clue set is the answer: it is a minimum when the leader
/// found no set with fewer clues (the engine ends `infeasible` under the `upper` row and
/// its caps, which the run reports as `optimal`), and stands at the time limit beside the
/// leader's bound. The answer says whether the run claims a minimum.
/// `answer` makes the answer of a clue set (row-major), checked by the puzzle's verifier;
/// its flag says the run claims the set is a minimum. With `--count K` the minimum clue
/// sets are counted by the common path (the objective fixed at the minimum, each set's
/// no-good added in turn).
pub fn solve<T: Target>(
    p: &T,
    run: &Run,
    seeded: bool,
    answer: &dyn Fn(&[bool], bool) -> Answer,
    unavoidable: &Witness<'_>,
) -> RunResult {
    let cells = p.cells();
    let state: RefCell<Option<State>> = RefCell::new(None);
    let mut report = run.row_generation_certified_by_caller(
        || {
            let counting = run.options.count > 1;
            let (model, leader) = build(p, seeded, counting, Some(&run.budget));
            let y = leader.y.clone();
            *state.borrow_mut() = Some(State {
                build_follower_seconds: leader.follower.seconds,
                search_seconds: leader.search_seconds,
                follower: leader.follower,
                best: leader.best,
                stopped: leader.stopped,
                caps: !counting,
                sets: leader.sets,
            });
            (
                model,
                y.clone(),
                FollowerRows {
                    y,
                    state: &state,
                    budget: &run.budget,
                    improves: p.improves(),
                },
            )
        },
        |y, x| answer(&clues_of(y, x), false),
    );
    let Some(state) = state.into_inner() else {
        return report;
    };
    // The first round and the seeding are search: `seconds` (and the follower's share of
    // it) count them, `build_seconds` keeps the leader's model.
    let search = state.search_seconds.min(report.build_seconds);
    report.build_seconds -= search;
    let o = &mut report.outcome;
    o.seconds += search;
    o.separator_seconds = Some(o.separator_seconds.unwrap_or(0.0) + state.build_follower_seconds);
    if state.stopped && !o.status.has_reason() {
        o.status = Status::TimeLimit;
    }
    if run.options.count > 1 {
        // Counting (minimum clue sets, through the common path) keeps its own figures.
        return report;
    }
    if o.status == Status::Infeasible {
        // No clue set smaller than the best one: the best one is a minimum.
        o.status = Status::Optimal;
        o.best_bound = Some(count(&state.best) as f64);
    }
    let found = o.values.as_ref().map(|v| {
        // The values are the leader's columns y, in order.
        let y: Vec<bool> = v.iter().take(cells).map(|&x| x > 0.5).collect();
        y
    });
    let best = match found {
        Some(f) if count(&f) <= count(&state.best) => f,
        _ => state.best.clone(),
    };
    if matches!(
        o.status,
        Status::Optimal | Status::Feasible | Status::TimeLimit
    ) {
        let k = count(&best) as f64;
        o.objective = Some(k);
        let mut values = vec![0.0; report.counts.variables];
        for (c, &b) in best.iter().enumerate() {
            values[c] = f64::from(u8::from(b));
        }
        o.values = Some(values);
        if let Some(b) = o.best_bound {
            // (+ 0.0 writes −0 as 0.)
            o.best_bound = Some((b - 1e-6).ceil().min(k) + 0.0);
        }
        o.gap = gap(o.objective, o.best_bound);
        report.answer = Some(answer(&best, o.status == Status::Optimal));
    }
    if let Some(seconds) = run.options.certify {
        report.certificate = Some(certificate(
            p,
            &report,
            &best,
            &state.sets,
            unavoidable,
            seconds,
        ));
    }
    report
}

/// The independent check that a set of cells is unavoidable (the puzzle's verifier:
/// with every other cell shown, the puzzle has a solution besides the intended one).
pub type Witness<'a> = dyn Fn(&[usize]) -> Result<(), String> + 'a;

/// The certificate of a minimum found by row generation: (a) every row's set is
/// unavoidable, each checked by the puzzle's verifier (`unavoidable`), so every clue set
/// that makes the solution unique shows one of its cells; (b) the final leader problem
/// (minimise Σ y over those rows, without the caps, which are the search's own) has no
/// point with fewer clues than `best`, proved and checked by VeriPB; (c) `best` itself
/// makes the solution unique (the verifier checked the answer). Together: no clue set
/// smaller than `best` makes it unique.
fn certificate<T: Target>(
    p: &T,
    report: &RunResult,
    best: &[bool],
    sets: &[Vec<usize>],
    unavoidable: &Witness<'_>,
    seconds: f64,
) -> crate::certify::Certificate {
    use crate::certify::{certify, Certificate, Claim, Verdict};
    if report.outcome.status != Status::Optimal {
        return Certificate::none(format!(
            "no claim to certify: the run ended {}",
            report.outcome.status
        ));
    }
    if report.verified() != Some(true) {
        return Certificate::none("the answer did not pass the verifier");
    }
    let started = std::time::Instant::now();
    for (i, set) in sets.iter().enumerate() {
        if let Err(why) = unavoidable(set) {
            let mut c = Certificate::none("");
            c.verdict = Verdict::Rejected(format!("row set[{}]: {why}", i + 1));
            c.claim = Some("optimal".into());
            return c;
        }
    }
    let witness_seconds = started.elapsed().as_secs_f64();
    let mut master = Model::new(p.model_name());
    let y: Vec<VarId> = (0..p.cells())
        .map(|k| master.add_var(p.column(k), VarKind::Binary, 0.0, 1.0, 1.0))
        .collect();
    for (i, set) in sets.iter().enumerate() {
        let row = set_row(&y, set.iter().copied());
        master.add_row(Name::idx("set", &[i + 1]), row.terms, row.lower, row.upper);
    }
    let values: Vec<f64> = best.iter().map(|&b| f64::from(u8::from(b))).collect();
    let mut c = certify(&master, &Claim::Optimal { values }, Some(seconds), None);
    c.certify_seconds = c.certify_seconds.map(|s| s + witness_seconds);
    if c.claim.is_some() {
        c.claim = Some(format!(
            "optimal, {} rows witnessed by the verifier",
            sets.len()
        ));
    }
    c
}

/// The follower's side of a run, shared between the separator and [`solve`].
struct State {
    /// Seconds the follower spent in the build.
    build_follower_seconds: f64,
    /// Seconds of the build spent searching ([`Leader::search_seconds`]).
    search_seconds: f64,
    follower: ClueFollower,
    /// The best unique clue set found (row-major).
    best: Vec<bool>,
    /// The run's deadline passed in a follower query.
    stopped: bool,
    /// A better clue set adds the cap "fewer clues than it" (not when counting).
    caps: bool,
    /// Every unavoidable set made a row: the seeded ones, then the follower's.
    sets: Vec<Vec<usize>>,
}

/// The follower as the leader's separator: each round of [`round`] on the leader's clues,
/// its sets as rows `Σ_{c ∈ U} y_c ≥ 1`.
struct FollowerRows<'a> {
    y: Vec<VarId>,
    state: &'a RefCell<Option<State>>,
    /// The run's budget, whose timeline gets each better clue set as an incumbent.
    budget: &'a Budget,
    /// A better clue set is improved first ([`Target::improves`]).
    improves: bool,
}

impl Separator for FollowerRows<'_> {
    fn separate(&mut self, x: &[f64], integral: bool) -> Vec<Cut> {
        if !integral {
            return Vec::new();
        }
        let clues = clues_of(&self.y, x);
        let mut guard = self.state.borrow_mut();
        let state = guard.as_mut().expect("the build made the state");
        if state.stopped {
            return vec![self.unchecked(&clues)];
        }
        let result = round(&mut state.follower, &clues).and_then(|r| {
            let mut better = None;
            if let Some(puzzle) = &r.puzzle {
                if count(puzzle) < count(&state.best) {
                    // Improved in place, so that a stop keeps what it reached.
                    let mut puzzle = puzzle.clone();
                    let improved = if self.improves {
                        improve(&mut state.follower, &mut puzzle)
                    } else {
                        Ok(())
                    };
                    better = Some(count(&puzzle));
                    self.budget.incumbent(count(&puzzle) as f64);
                    state.best = puzzle;
                    improved?;
                }
            }
            Ok((r, better))
        });
        match result {
            Ok((r, better)) => {
                let mut rows: Vec<Cut> = r
                    .sets
                    .iter()
                    .map(|set| set_row(&self.y, set.iter().copied()))
                    .collect();
                state.sets.extend(r.sets);
                if let (Some(k), true) = (better, state.caps) {
                    rows.push(Cut {
                        terms: self.y.iter().map(|&v| (v, 1.0)).collect(),
                        lower: f64::NEG_INFINITY,
                        upper: k as f64 - 1.0,
                    });
                }
                rows
            }
            Err(Stopped) => {
                state.stopped = true;
                vec![self.unchecked(&clues)]
            }
        }
    }
}

impl FollowerRows<'_> {
    /// The row for clues the follower could not check before the deadline (the engine is
    /// stopping too): "show some other cell", which cuts them off so that they are not
    /// taken as a solution, in the shape of a set to hit that every engine takes. It is not
    /// a valid row, and the run ends as `time_limit` without a claim from it.
    fn unchecked(&self, clues: &[bool]) -> Cut {
        set_row(&self.y, (0..clues.len()).filter(|&c| !clues[c]))
    }
}

/// The clue set of the leader's point `x`.
fn clues_of(y: &[VarId], x: &[f64]) -> Vec<bool> {
    y.iter().map(|v| x[v.0] > 0.5).collect()
}

/// What one follower round found: the unavoidable sets (rows for the leader), and the
/// unique clue set it reached with clues not needed taken out (when it had to add clues).
pub struct Round {
    /// The minimal unavoidable sets found, in the order found.
    pub sets: Vec<Vec<usize>>,
    /// The unique clue set reached, when the clues given were not unique.
    pub puzzle: Option<Vec<bool>>,
}

/// Steps 1–3 of the loop for the clues `clues`.
pub fn round(f: &mut ClueFollower, clues: &[bool]) -> Result<Round, Stopped> {
    let mut shown = clues.to_vec();
    let mut sets: Vec<Vec<usize>> = Vec::new();
    while let Some(diff) = f.other_outside(&shown)? {
        let set = f.minimise(diff)?;
        // Show the cell of the new set that most of this round's sets hold (the first on a
        // tie), so that the next solution differs elsewhere.
        let pick = *set
            .iter()
            .max_by_key(|&&c| {
                (
                    sets.iter().filter(|s| s.contains(&c)).count(),
                    std::cmp::Reverse(c),
                )
            })
            .expect("an unavoidable set is not empty");
        shown[pick] = true;
        sets.push(set);
    }
    let puzzle = if sets.is_empty() {
        None
    } else {
        Some(without_needless_clues(f, shown)?)
    };
    Ok(Round { sets, puzzle })
}

/// Takes out of the unique clue set `shown`, one at a time, every clue without which T
/// stays unique.
pub fn without_needless_clues(
    f: &mut ClueFollower,
    mut shown: Vec<bool>,
) -> Result<Vec<bool>, Stopped> {
    without_needless_clues_in(f, &mut shown)?;
    Ok(shown)
}

/// [`without_needless_clues`] in place: `shown` stays a unique clue set at every step, also
/// when the deadline stops it (`Err`).
fn without_needless_clues_in(f: &mut ClueFollower, shown: &mut [bool]) -> Result<(), Stopped> {
    for k in 0..shown.len() {
        if shown[k] {
            shown[k] = false;
            let other = f.other_outside(shown);
            // Kept when another solution remains, or when the deadline left it unknown.
            if !matches!(other, Ok(None)) {
                shown[k] = true;
            }
            other?;
        }
    }
    Ok(())
}

/// Local search for a smaller unique clue set from the unique set `puzzle`: take out two
/// clues a and b, and try each cell of the first other solution's difference as the one
/// clue that makes T unique again (a cell outside it cannot rule that solution out); on
/// success, start again from the smaller set with needless clues taken out. Ends when no
/// pair can be traded for one cell. `puzzle` holds the smallest unique set found so far,
/// also when the deadline stops the search (`Err`).
pub fn improve(f: &mut ClueFollower, puzzle: &mut Vec<bool>) -> Result<(), Stopped> {
    'better: loop {
        let shown: Vec<usize> = (0..puzzle.len()).filter(|&k| puzzle[k]).collect();
        for (i, &a) in shown.iter().enumerate() {
            for &b in &shown[i + 1..] {
                let mut fewer = puzzle.clone();
                fewer[a] = false;
                fewer[b] = false;
                let Some(diff) = f.other_outside(&fewer)? else {
                    *puzzle = fewer;
                    without_needless_clues_in(f, puzzle)?;
                    continue 'better;
                };
                for c in diff {
                    fewer[c] = true;
                    if f.other_outside(&fewer)?.is_none() {
                        *puzzle = fewer;
                        without_needless_clues_in(f, puzzle)?;
                        continue 'better;
                    }
                    fewer[c] = false;
                }
            }
        }
        return Ok(());
    }
}

/// Seeds from regions: every other solution that agrees with T outside each region of
/// `regions` (cell masks, row-major `true`: free), up to `per_region` a region, shrunk to
/// a minimal unavoidable set unless it holds one already known; with the sets `known`
/// (minimal already), without duplicates, smallest first, at most `limit`. `Err` when the
/// deadline passed (what was found is lost with it: the run has no time left to use it).
pub fn seed_regions(
    follower: &mut ClueFollower,
    known: Vec<Vec<usize>>,
    regions: impl IntoIterator<Item = Vec<bool>>,
    per_region: usize,
    limit: usize,
) -> Result<Vec<Vec<usize>>, Stopped> {
    let cells = follower.len();
    let mut found: BTreeSet<(usize, Vec<usize>)> =
        known.into_iter().map(|s| (s.len(), s)).collect();
    for free in regions {
        for set in follower.others_within(&free, per_region)? {
            // A set that holds a known one would mostly shrink back to it.
            let mut mask = vec![false; cells];
            for &k in &set {
                mask[k] = true;
            }
            if found.iter().any(|(_, s)| s.iter().all(|&k| mask[k])) {
                continue;
            }
            let minimal = follower.minimise(set)?;
            found.insert((minimal.len(), minimal));
        }
    }
    Ok(found.into_iter().take(limit).map(|(_, s)| s).collect())
}

/// Clues shown in `clues`.
pub fn count(clues: &[bool]) -> usize {
    clues.iter().filter(|&&c| c).count()
}
