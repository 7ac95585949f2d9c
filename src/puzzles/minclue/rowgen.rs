//! The `rowgen` and `rowgen-plain` formulations: the report's bilevel model (8.1)–(8.2)
//! solved in one level by row generation.
//!
//! **Leader** (on the run's engine): y[i,j] = 1 iff cell (i,j) of G is a clue; minimise
//! Σ y (8.1a); one row `set[k]`: Σ_{c ∈ U_k} y_c ≥ 1 per unavoidable set U_k known so far
//! (the seeded sets in the first model, then the rows the follower adds).
//! Every unique puzzle hits every unavoidable set, so the leader's optimum over the sets
//! known is a lower bound on the minimum; the (8.1b)/(8.1d) pair "the follower cannot find
//! another completion" becomes these rows, added as the follower finds them.
//!
//! The leader also holds the row `upper`: Σ y ≤ |best| − 1, fewer clues than the best
//! unique clue set known (Σ y ≤ |best| when counting, which must find every minimum set);
//! whenever the follower finds a better set, the separator adds the cap Σ y ≤ |best| − 1.
//! A leader left without a solution thus proves the best set a minimum (the run reports
//! `optimal`), and a leader solution the follower accepts is a minimum by the engine's own
//! proof.
//!
//! **Follower** ([`super::follower`], CaDiCaL): report (8.2) with z = 0 as clauses, the
//! leader's clues as assumptions, as the separator of the engine's row generation
//! ([`Run::row_generation`]: each round a solve on MIP engines; on `sat` and `hitset` at
//! every solution of one search). For the leader's clues:
//! 1. the follower looks for another completion; none: the clues are unique, the engine's
//!    solution stands;
//! 2. otherwise the cells where the completion differs from G, shrunk to a minimal
//!    unavoidable set, become a row; one of its cells is added to the clues and the
//!    follower asked again, until the clues are unique: every set found this way is a row
//!    (many rows per round);
//! 3. the unique clue set reached, with every clue that is not needed taken out and then
//!    improved by trading two clues for one ([`improve`]), replaces the best set when
//!    smaller (with a cap).
//!
//! The first best set is the instance's `start` puzzle, else the follower's round from no
//! clues, improved the same way. At the time limit the run ends as `time_limit` with the
//! best clue set as its objective and the engine's bound as its bound. `seconds` holds the
//! loop (leader and follower), `separator_seconds` the follower's share; the first best set
//! and the seeding search ([`super::unavoidable`]) are counted in `build_seconds`.
//!
//! Deviations from the report's model: (8.2g) is written as the clause "some cell differs
//! from G" instead of Σ x[i,j,G_ij] − z ≤ n² − 1 with the penalty z, since the follower is
//! only asked whether z = 0 is feasible; and the leader's (8.1b) z = 1 is replaced by the
//! unavoidable-set rows it implies (Tjusila et al.'s own reformulation).

use super::follower::{Follower, Stopped};
use super::{unavoidable, MinClue, DEFAULT_SEEDS};
use crate::engines::{gap, Budget, Status};
use crate::lazy::{Cut, Separator};
use crate::model::{Model, Name, VarId, VarKind};
use crate::puzzles::{Run, RunResult};
use std::cell::RefCell;

/// What the leader's build hands to the loop besides the model (y and the seeded rows).
pub struct Leader {
    /// The clue columns y, row-major.
    pub y: Vec<VarId>,
    /// The follower (it found the seeded sets, and goes on learning).
    pub follower: Follower,
    /// The best unique clue set known after the build (row-major): the instance's
    /// `start` or the follower's first round from no clues, with clues not needed taken
    /// out; the whole grid when the deadline passed first.
    pub best: Vec<bool>,
    /// The deadline passed while seeding.
    pub stopped: bool,
}

/// Builds the leader for `p`: the columns y; when `seeded`, the rows of the smallest
/// unavoidable sets found by [`unavoidable::seed`] (as many as the instance's `seeds`, else
/// [`DEFAULT_SEEDS`]); and the row `upper`: Σ y ≤ |best| − 1 ("fewer clues than the best
/// set known", so that an infeasible leader proves the best set a minimum), or Σ y ≤ |best|
/// when `counting` (every minimum set is to be found). The seeding search stops at
/// `budget`'s deadline (none: unlimited).
pub fn build(
    p: &MinClue,
    seeded: bool,
    counting: bool,
    budget: Option<&Budget>,
) -> (Model, Leader) {
    let n = p.n();
    let unlimited = Budget::unlimited();
    let mut follower = Follower::new(p, budget.unwrap_or(&unlimited));
    let mut model = Model::new(format!("minclue_{}", p.name));
    let y: Vec<VarId> = (0..n * n)
        .map(|k| {
            model.add_var(
                Name::idx("y", &[k / n + 1, k % n + 1]),
                VarKind::Binary,
                0.0,
                1.0,
                1.0,
            )
        })
        .collect();
    let mut sets: Vec<Vec<usize>> = Vec::new();
    // The whole grid is unique; the start (or a first round) replaces it, then improves.
    let mut best = p.start.clone().unwrap_or_else(|| vec![true; n * n]);
    let mut first = || -> Result<(), Stopped> {
        if p.start.is_none() {
            // One follower round from no clues: its sets, and a unique clue set.
            let round = follower_round(&mut follower, &vec![false; n * n])?;
            if seeded {
                sets.extend(round.sets);
            }
            if let Some(puzzle) = round.puzzle {
                best = puzzle;
            }
        }
        best = without_needless_clues(&mut follower, best.clone())?;
        best = improve(&mut follower, best.clone())?;
        if seeded {
            let mut seeds = unavoidable::seed(p, &mut follower, p.seeds.unwrap_or(DEFAULT_SEEDS))?;
            seeds.append(&mut sets);
            sets = seeds;
        }
        Ok(())
    };
    let stopped = first().is_err();
    if let Some(b) = budget {
        // The follower's best clue set is the run's first incumbent.
        b.incumbent(count(&best) as f64);
    }
    for (i, s) in sets.iter().enumerate() {
        add_set(&mut model, &y, i + 1, s);
    }
    let upper = count(&best) - usize::from(!counting);
    model.add_le("upper", y.iter().map(|&v| (v, 1.0)), upper as f64);
    (
        model,
        Leader {
            y,
            follower,
            best,
            stopped,
        },
    )
}

/// Adds the row `set[index]`: Σ_{c ∈ set} y_c ≥ 1.
fn add_set(model: &mut Model, y: &[VarId], index: usize, set: &[usize]) {
    let row = set_row(y, set.iter().copied());
    model.add_row(Name::idx("set", &[index]), row.terms, row.lower, row.upper);
}

/// The row Σ_{c ∈ cells} y_c ≥ 1: "show one of these cells".
fn set_row(y: &[VarId], cells: impl Iterator<Item = usize>) -> Cut {
    Cut {
        terms: cells.map(|c| (y[c], 1.0)).collect(),
        lower: 1.0,
        upper: f64::INFINITY,
    }
}

/// Solves `p` on the run's engine (`seeded`: `rowgen`, else `rowgen-plain`) through the
/// engine's row generation ([`Run::row_generation`]), with the follower as separator.
/// Afterwards the follower's best clue set is the answer: it is a minimum when the leader
/// found no set with fewer clues (the engine ends `infeasible` under the `upper` row and
/// its caps, which the run reports as `optimal`), and stands at the time limit beside the
/// leader's bound. The answer says whether the run claims a minimum.
/// With `--count K` the minimum clue sets are counted by the common path (the objective
/// fixed at the minimum, each set's no-good added in turn).
pub fn solve(p: &MinClue, run: &Run, seeded: bool) -> RunResult {
    let state: RefCell<Option<State>> = RefCell::new(None);
    let mut report = run.row_generation(
        || {
            let counting = run.options.count > 1;
            let (model, leader) = build(p, seeded, counting, Some(&run.budget));
            let y = leader.y.clone();
            *state.borrow_mut() = Some(State {
                follower: leader.follower,
                best: leader.best,
                stopped: leader.stopped,
                caps: !counting,
            });
            (
                model,
                y.clone(),
                FollowerRows {
                    y,
                    state: &state,
                    budget: &run.budget,
                },
            )
        },
        |y, x| p.answer(&clues_of(y, x), false),
    );
    let Some(state) = state.into_inner() else {
        return report;
    };
    let o = &mut report.outcome;
    if state.stopped && o.status != Status::Error {
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
        let y: Vec<bool> = v.iter().take(p.n() * p.n()).map(|&x| x > 0.5).collect();
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
        report.answer = Some(p.answer(&best, o.status == Status::Optimal));
    }
    report
}

/// The follower's side of a run, shared between the separator and [`solve`].
struct State {
    follower: Follower,
    /// The best unique clue set found (row-major).
    best: Vec<bool>,
    /// The run's deadline passed in a follower query.
    stopped: bool,
    /// A better clue set adds the cap "fewer clues than it" (not when counting).
    caps: bool,
}

/// The follower as the leader's separator: each round of [`follower_round`] on the
/// leader's clues, its sets as rows `Σ_{c ∈ U} y_c ≥ 1`.
struct FollowerRows<'a> {
    y: Vec<VarId>,
    state: &'a RefCell<Option<State>>,
    /// The run's budget, whose timeline gets each better clue set as an incumbent.
    budget: &'a Budget,
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
        let round = follower_round(&mut state.follower, &clues).and_then(|round| {
            let mut better = None;
            if let Some(puzzle) = &round.puzzle {
                if count(puzzle) < count(&state.best) {
                    let puzzle = improve(&mut state.follower, puzzle.clone())?;
                    better = Some(count(&puzzle));
                    self.budget.incumbent(count(&puzzle) as f64);
                    state.best = puzzle;
                }
            }
            Ok((round, better))
        });
        match round {
            Ok((round, better)) => {
                let mut rows: Vec<Cut> = round
                    .sets
                    .iter()
                    .map(|set| set_row(&self.y, set.iter().copied()))
                    .collect();
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
struct Round {
    sets: Vec<Vec<usize>>,
    puzzle: Option<Vec<bool>>,
}

/// Step 3 of the loop for the leader's clues `clues`.
fn follower_round(f: &mut Follower, clues: &[bool]) -> Result<Round, Stopped> {
    let mut shown = clues.to_vec();
    let mut sets: Vec<Vec<usize>> = Vec::new();
    while let Some(diff) = f.unavoidable_outside(&shown)? {
        let set = f.minimise(diff)?;
        // Show the cell of the new set that most of this round's sets hold (the first on a
        // tie), so that the next completion differs elsewhere.
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

/// Takes out of the unique clue set `shown`, one at a time, every clue without which the
/// grid stays unique.
fn without_needless_clues(f: &mut Follower, mut shown: Vec<bool>) -> Result<Vec<bool>, Stopped> {
    for k in 0..shown.len() {
        if shown[k] {
            shown[k] = false;
            if f.unavoidable_outside(&shown)?.is_some() {
                shown[k] = true;
            }
        }
    }
    Ok(shown)
}

/// Local search for a smaller unique clue set from the unique set `puzzle`: take out two
/// clues a and b, and try each cell of the first other completion's difference as the one
/// clue that makes the grid unique again (a cell outside it cannot rule that completion
/// out); on success, start again from the smaller set with needless clues taken out. Ends
/// when no pair can be traded for one cell.
fn improve(f: &mut Follower, mut puzzle: Vec<bool>) -> Result<Vec<bool>, Stopped> {
    'better: loop {
        let shown: Vec<usize> = (0..puzzle.len()).filter(|&k| puzzle[k]).collect();
        for (i, &a) in shown.iter().enumerate() {
            for &b in &shown[i + 1..] {
                let mut fewer = puzzle.clone();
                fewer[a] = false;
                fewer[b] = false;
                let Some(diff) = f.unavoidable_outside(&fewer)? else {
                    puzzle = without_needless_clues(f, fewer)?;
                    continue 'better;
                };
                for c in diff {
                    fewer[c] = true;
                    if f.unavoidable_outside(&fewer)?.is_none() {
                        puzzle = without_needless_clues(f, fewer)?;
                        continue 'better;
                    }
                    fewer[c] = false;
                }
            }
        }
        return Ok(puzzle);
    }
}

fn count(clues: &[bool]) -> usize {
    clues.iter().filter(|&&c| c).count()
}
