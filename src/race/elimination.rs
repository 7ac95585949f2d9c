//! The decision rule of a race: when to test, at which level, whom to drop, and when a
//! candidate is equivalent to the best.
//!
//! A race runs a plan of instances fixed before it starts ([`super::ladder::Ladder::plan`]),
//! and looks at it at the instance counts [`RaceConfig::looks`] gives (the first once its
//! test could drop a candidate slower on every instance, at least 12; then every 6; and
//! the plan's end). α = 0.05 is spent over exactly those looks ([`RaceConfig::alphas`]:
//! 25 % at the first, 60 % at the last, the rest shared between): the plan's length and
//! the candidates are known before the start, so every look's share is too, and they sum
//! to α (Bonferroni over the looks). At a look with `k ≥ 2`
//! survivors, with `α_t` the look's share:
//!
//! 1. **Tests.** For every ordered pair of survivors, Wilcoxon's exact one-sided
//!    signed-rank test of "`a` is slower than `b`" on the log ratios of their times over
//!    the instances that separate them ([`super::separation::LogRatios`], censored runs on
//!    the conservative side; [`super::signed_rank`]), p = 1 with fewer than
//!    [`RaceConfig::min_pair`] such instances. `P_a` is `a`'s smallest p-value: its test
//!    against the best of the others.
//! 2. **Drops, by the closure of "a is a best".** The hypotheses are `H_a`: candidate `a`
//!    is as good as every other (a best). For a set `S` of `m` survivors, `H_S` (all of `S`
//!    are bests) is tested by Bonferroni over the `m(k−1)` tests of a member against
//!    another survivor: rejected when some `P_a`, `a ∈ S`, is at most
//!    `c_m = α_t / (m(k−1))`. By the closure principle (R. Marcus, E. Peritz and K. R.
//!    Gabriel, Biometrika 1976) `H_a` is rejected, and `a` dropped, when every `H_S` with
//!    `a ∈ S` is; that holds exactly when `P_a ≤ c_{m_a}`, where `m_a` is the largest `m`
//!    such that at least `m − 1` other survivors have `P > c_m` (those that could still be
//!    bests with `a`). The chance of dropping any candidate as good as the best at a look
//!    is then at most `α_t` whatever the others are, and over the race at most α.
//!    Separated configurations cost little: where the other candidates are plainly worse,
//!    `m_a = 2` and the level is `α_t / (2(k−1))`, that of comparing each candidate with
//!    the best of the others (multiple comparisons with the best: J. C. Hsu, Ann. Statist.
//!    1984; the sequential elimination of Paulson 1964 as extended by D. G. Edwards, Ann.
//!    Statist. 1987, and of S.-H. Kim and B. L. Nelson, ACM TOMACS 2001); where all `k` are
//!    equal, `m_a = k` and the level is that of testing every ordered pair, which is what
//!    keeps a race of 30 equal candidates from dropping one. The best is never dropped.
//! 3. **Equivalence.** Each survivor's interval against the best
//!    ([`super::signed_rank::interval`]) has its lower end at its drop level `c_{m_a}` and
//!    its upper end at `α_t / (k−1)`; it is equivalent within the margin `M`
//!    ([`RaceConfig::margin`]) when the interval lies inside `[1/(1+M), 1+M]` and at least
//!    [`RaceConfig::min_pair`] instances separate the two: two one-sided tests (D. J.
//!    Schuirmann, J. Pharmacokin. Biopharm. 1987), each at a level no larger than
//!    `α_t / (k−1)`, Bonferroni over the `k − 1` survivors compared with the best. The
//!    same interval says "ahead" exactly when its lower end lies above 1.
//!
//! A race has **decided** at a look when no survivor is left but the best, or every
//! survivor is equivalent to it.
//!
//! The **best** is the survivor with the highest signed-rank score over the other
//! survivors ([`Race::best`]).

use serde::{Deserialize, Serialize};

use super::separation::{LogRatios, Obs};
use super::signed_rank::{critical, hodges_lehmann, interval, test_greater};

/// When to test, at which overall level, and the margin of equivalence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RaceConfig {
    /// The fewest instances before the first look.
    pub first_look: usize,
    /// Instances between two later looks (counted from the start: 18, 24, 30, ...).
    pub look_every: usize,
    /// The overall level, spent over the plan's looks ([`RaceConfig::alphas`]).
    pub alpha: f64,
    /// The share of α the first look gets.
    pub first_share: f64,
    /// The share of α the last look gets; the looks between share the rest equally.
    pub last_share: f64,
    /// The fewest instances separating two candidates for a test between them.
    pub min_pair: usize,
    /// The margin of equivalence: a ratio inside `[1/(1+M), 1+M]`.
    pub margin: f64,
}

/// The fewest instances before the first look.
pub const FIRST_LOOK: usize = 12;

/// Instances between two later looks.
pub const LOOK_EVERY: usize = 6;

/// The fewest separating instances a test needs.
pub const MIN_PAIR: usize = 10;

/// The margin of equivalence unless a race says otherwise: 10 %.
pub const MARGIN: f64 = 0.10;

/// The share of α spent at the first look.
pub const FIRST_SHARE: f64 = 0.25;

/// The share of α spent at the last look.
pub const LAST_SHARE: f64 = 0.6;

impl Default for RaceConfig {
    /// Looks from [`FIRST_LOOK`] instances on, then every [`LOOK_EVERY`] and at the plan's
    /// end; α = 0.05, [`FIRST_SHARE`] of it at the first look and [`LAST_SHARE`] at the
    /// last; tests on at least [`MIN_PAIR`] separating instances; equivalence within
    /// [`MARGIN`].
    fn default() -> RaceConfig {
        RaceConfig {
            first_look: FIRST_LOOK,
            look_every: LOOK_EVERY,
            alpha: 0.05,
            first_share: FIRST_SHARE,
            last_share: LAST_SHARE,
            min_pair: MIN_PAIR,
            margin: MARGIN,
        }
    }
}

impl RaceConfig {
    /// The default rule with the margin `margin`.
    pub fn with_margin(margin: f64) -> RaceConfig {
        RaceConfig {
            margin,
            ..RaceConfig::default()
        }
    }

    /// The instance count of the first look of a race of `k` candidates: the first from
    /// [`Self::first_look`] on at which a candidate slower than another on every instance
    /// could be dropped even when all the others could be bests with it: `2^−n`, the
    /// smallest p-value on `n` instances, at most the first look's level over every
    /// ordered pair, `α_1 / (k(k−1))`. Earlier, no look could drop anyone, and its share
    /// of α would be spent for nothing.
    pub fn first_look_for(&self, k: usize) -> usize {
        let pairs = (k.max(2) * (k.max(2) - 1)) as f64;
        let level = self.alpha * self.first_share / pairs;
        let needed = (1.0 / level).log2().ceil() as usize;
        needed.max(self.first_look.max(1))
    }

    /// The instance counts at which a plan of `planned` instances of a race of `k`
    /// candidates looks: the first look ([`Self::first_look_for`]), then every
    /// [`Self::look_every`] counted from the start, and the plan's end (a later look
    /// within half an interval of the end is left to the end's). One look, at the end,
    /// for a plan no longer than the first look.
    pub fn looks(&self, planned: usize, k: usize) -> Vec<usize> {
        if planned == 0 {
            return Vec::new();
        }
        let first = self.first_look_for(k);
        if planned <= first {
            return vec![planned];
        }
        let every = self.look_every.max(1);
        let mut out = vec![first];
        let mut at = (first / every + 1) * every;
        while at + every / 2 < planned {
            if at >= first + every / 2 {
                out.push(at);
            }
            at += every;
        }
        out.push(planned);
        out
    }

    /// The level of each look ([`Self::looks`]): the first [`Self::first_share`] of α,
    /// the last [`Self::last_share`], those between an equal share of the rest (two looks:
    /// the first its share, the last the rest; one look: all of α). They sum to α.
    pub fn alphas(&self, planned: usize, k: usize) -> Vec<f64> {
        let n = self.looks(planned, k).len();
        let a = self.alpha;
        match n {
            0 => Vec::new(),
            1 => vec![a],
            2 => vec![a * self.first_share, a * (1.0 - self.first_share)],
            _ => {
                let middle = a * (1.0 - self.first_share - self.last_share) / (n - 2) as f64;
                std::iter::once(a * self.first_share)
                    .chain(std::iter::repeat_n(middle, n - 2))
                    .chain(std::iter::once(a * self.last_share))
                    .collect()
            }
        }
    }

    /// The log of the margin's upper ratio, `ln(1 + M)`.
    pub fn log_margin(&self) -> f64 {
        (1.0 + self.margin).ln()
    }
}

/// One candidate against the best at a look.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The candidate.
    pub candidate: String,
    /// Instances separating it from the best (with a known order).
    pub instances: usize,
    /// Of those, the ones on which the best was faster.
    pub best_faster: usize,
    /// The ones on which the candidate was faster.
    pub best_slower: usize,
    /// Of those, the ones on which the candidate's run was stopped (capped or failed).
    pub stopped: usize,
    /// The signed-rank test's p-value of the candidate being slower than the best (1 with
    /// fewer than [`RaceConfig::min_pair`] separating instances).
    pub p_value: f64,
    /// Its smallest p-value against any survivor, `P_a`, and the survivor.
    pub strongest: f64,
    /// The survivor of [`Self::strongest`].
    pub strongest_against: String,
    /// The level its tests met or missed at this look, `α_t / (m(k−1))`: that of a drop,
    /// and of the interval's lower end.
    pub level: f64,
    /// The level of an equivalence claim, and of the interval's upper end: `α_t / (k−1)`
    /// (two one-sided tests at it, Bonferroni over the `k − 1` survivors compared with the
    /// best).
    #[serde(default)]
    pub equivalence_level: f64,
    /// The `m` of that level: how many survivors could still be bests with it (itself
    /// included).
    pub plausible: usize,
    /// The Hodges–Lehmann ratio of its time to the best's (from the log ratios that
    /// understate its time where it was stopped: a lower bound then).
    pub ratio: Option<f64>,
    /// The interval's lower end, as a ratio (None: unbounded).
    pub low: Option<f64>,
    /// The interval's upper end, as a ratio (None: unbounded, as where it was stopped).
    pub high: Option<f64>,
    /// Dropped at this look.
    pub dropped: bool,
    /// The survivors whose test against it met its level.
    pub beaten_by: Vec<String>,
    /// Equivalent to the best within the margin at this look.
    pub equivalent: bool,
    /// Why no test could drop it whatever its times, if so.
    pub unreachable: Option<String>,
}

/// A look: the tests made after some instances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Look {
    /// Instances raced at the look.
    pub raced_instances: usize,
    /// The look's level (its share of α).
    pub alpha: f64,
    /// The survivors tested (`k`).
    pub tested: usize,
    /// The best at the look.
    pub best: String,
    /// Every other survivor against the best.
    pub comparisons: Vec<Comparison>,
    /// The survivors after the look.
    pub survivors: Vec<String>,
    /// Whether the race decided here: one survivor left, or every other equivalent to the
    /// best.
    pub decided: bool,
}

/// A candidate dropped from a race, as a line of `race.jsonl` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The candidate dropped.
    pub candidate: String,
    /// The instances separating it from the best (those the best's test saw).
    pub counted_instances: usize,
    /// All instances raced so far.
    pub raced_instances: usize,
    /// The test: `"signed-rank"` (exact, one-sided, in the closure of "a is a best").
    pub test: String,
    /// Of the separating instances, those on which the best was faster.
    pub best_faster: usize,
    /// Those on which the dropped candidate was faster.
    pub best_slower: usize,
    /// The p-value of the best's test against it.
    pub p_value: f64,
    /// The level its tests had to meet.
    pub level: f64,
    /// The look's level (its share of α).
    pub alpha: f64,
    /// The best at the look, never dropped.
    pub best: String,
    /// The survivors whose test against it met the level (the best among them where the
    /// best's test did).
    pub beaten_by: Vec<String>,
    /// The ratio's interval at the level, as the look computed it.
    pub low: Option<f64>,
    /// Its upper end.
    pub high: Option<f64>,
    /// The survivors after the look.
    pub survivors: Vec<String>,
}

/// What a race decided between its best and another candidate ([`Race::outcome`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decided {
    /// Dropped with the best's own test meeting its level: the best is ahead.
    Ahead,
    /// Equivalent to the best within the margin at the race's last look.
    Equivalent,
    /// Dropped on another survivor's test (named), not the best's.
    DroppedBy(String),
    /// Neither: the race left it open.
    Open,
}

/// The state of a race: the candidates, who survives, every instance's runs, and the
/// looks made so far.
#[derive(Debug, Clone)]
pub struct Race {
    config: RaceConfig,
    planned: usize,
    names: Vec<String>,
    alive: Vec<bool>,
    runs: Vec<Vec<Option<Obs>>>,
    looks: Vec<Look>,
    decisions: Vec<Decision>,
    alphas: Vec<f64>,
    look_at: Vec<usize>,
}

/// What one ordered pair's test gives.
#[derive(Clone, Copy, Debug)]
struct PairTest {
    /// p of "a is slower than b".
    p: f64,
}

impl Race {
    /// A race of the candidates `names` over a plan of `planned` instances, all surviving,
    /// with no instance run.
    pub fn new(names: Vec<String>, config: RaceConfig, planned: usize) -> Self {
        let alive = vec![true; names.len()];
        let alphas = config.alphas(planned, names.len());
        let look_at = config.looks(planned, names.len());
        Race {
            config,
            planned,
            names,
            alive,
            runs: Vec::new(),
            looks: Vec::new(),
            decisions: Vec::new(),
            alphas,
            look_at,
        }
    }

    /// The rule the race follows.
    pub fn config(&self) -> &RaceConfig {
        &self.config
    }

    /// The instances the race planned.
    pub fn planned(&self) -> usize {
        self.planned
    }

    /// The instance counts of the plan's looks, and each one's level.
    pub fn schedule(&self) -> (&[usize], &[f64]) {
        (&self.look_at, &self.alphas)
    }

    /// The indices of the surviving candidates, in their order.
    pub fn survivors(&self) -> Vec<usize> {
        (0..self.names.len()).filter(|&j| self.alive[j]).collect()
    }

    /// Takes candidate `j` out of the race without a test (it refused an instance): it is
    /// neither ranked nor dropped from then on.
    pub fn withdraw(&mut self, j: usize) {
        self.alive[j] = false;
    }

    /// The candidates' names, in their order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The drops made so far, in order.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The looks made so far, in order.
    pub fn looks(&self) -> &[Look] {
        &self.looks
    }

    /// The instances raced so far.
    pub fn raced(&self) -> usize {
        self.runs.len()
    }

    /// Whether the race is over: its plan raced, one candidate left, or decided at its
    /// last look.
    pub fn finished(&self) -> bool {
        self.runs.len() >= self.planned
            || self.survivors().len() < 2
            || self
                .looks
                .last()
                .is_some_and(|l| l.decided && l.raced_instances == self.runs.len())
    }

    /// Whether the last look decided the race.
    pub fn decided(&self) -> bool {
        self.survivors().len() < 2
            || self
                .looks
                .last()
                .is_some_and(|l| l.decided && l.raced_instances == self.runs.len())
    }

    /// Candidate `a`'s runs against `b`'s on the instances both ran.
    fn pair_runs(&self, a: usize, b: usize) -> impl Iterator<Item = (Obs, Obs)> + '_ {
        self.runs.iter().filter_map(move |r| Some((r[a]?, r[b]?)))
    }

    /// The log ratios of `a`'s times to `b`'s over the instances separating them.
    pub fn log_ratios(&self, a: usize, b: usize) -> LogRatios {
        LogRatios::of(self.pair_runs(a, b))
    }

    /// The p-values of "a is slower than b" and "b is slower than a".
    fn pair_tests(&self, lr: &LogRatios) -> (PairTest, PairTest) {
        if lr.len() < self.config.min_pair {
            return (PairTest { p: 1.0 }, PairTest { p: 1.0 });
        }
        let flipped: Vec<f64> = lr.upper.iter().map(|x| -x).collect();
        (
            PairTest {
                p: test_greater(&lr.lower),
            },
            PairTest {
                p: test_greater(&flipped),
            },
        )
    }

    /// The signed-rank score of survivor `j` over the other survivors: for each, the share
    /// of Walsh averages of the log ratios on which the other was slower, minus the share
    /// on which `j` was (each between −1 and 1; 0 where nothing separates them).
    pub fn score(&self, j: usize) -> f64 {
        self.survivors()
            .into_iter()
            .filter(|&o| o != j)
            .map(|o| self.pair_score(j, o))
            .sum()
    }

    fn pair_score(&self, j: usize, o: usize) -> f64 {
        let lr = self.log_ratios(o, j);
        if lr.is_empty() {
            return 0.0;
        }
        let n = lr.len();
        let total = (n * (n + 1) / 2) as f64;
        let o_slower = super::signed_rank::positive_walsh(&lr.lower) as f64;
        let j_slower = if lr.a_censored == 0 && lr.b_censored == 0 {
            // The same values both ways: the Walsh averages not above 0 are below it or 0.
            total - o_slower - super::signed_rank::zero_walsh(&lr.lower) as f64
        } else {
            let flipped: Vec<f64> = lr.upper.iter().map(|x| -x).collect();
            super::signed_rank::positive_walsh(&flipped) as f64
        };
        (o_slower - j_slower) / total
    }

    /// The summed log time of candidate `j` over the instances it ran (a stopped run at
    /// its bound): the tie-break of [`Self::best`].
    fn log_total(&self, j: usize) -> f64 {
        self.runs
            .iter()
            .filter_map(|r| r[j])
            .map(|o| o.seconds.max(1e-6).ln())
            .sum()
    }

    /// The current best among the survivors: the highest score ([`Self::score`]), then the
    /// least summed log time, then the first in order; `None` in a race of no survivor.
    pub fn best(&self) -> Option<usize> {
        let s = self.survivors();
        let scored: Vec<(usize, f64, f64)> = s
            .iter()
            .map(|&j| (j, self.score(j), self.log_total(j)))
            .collect();
        scored
            .iter()
            .min_by(|a, b| {
                b.1.total_cmp(&a.1)
                    .then(a.2.total_cmp(&b.2))
                    .then(a.0.cmp(&b.0))
            })
            .map(|w| w.0)
    }

    /// The candidate that runs first on the next instance and sets the others' cap
    /// ([`super::capping`]): the best of the last look while it survives; before the first
    /// look, the survivor with the least summed log time over the instances raced (a
    /// stopped run at its bound), ties to the first in order. Cheaper than [`Self::best`]
    /// between looks, where it needs no test.
    pub fn leader(&self) -> Option<usize> {
        if let Some(l) = self.looks.last() {
            if let Some(j) = self.names.iter().position(|n| *n == l.best) {
                if self.alive[j] {
                    return Some(j);
                }
            }
        }
        self.survivors()
            .into_iter()
            .map(|j| (j, self.log_total(j)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
            .map(|x| x.0)
    }

    /// Records one instance: `runs[j]` is candidate `j`'s run (`None` for one not in the
    /// race); values of candidates out of the race are ignored. At a look of the plan the
    /// tests run, and the drops they make are returned.
    ///
    /// # Panics
    /// When `runs` does not hold one value per candidate.
    pub fn record(&mut self, runs: &[Option<Obs>]) -> Vec<Decision> {
        assert_eq!(runs.len(), self.names.len(), "one run per candidate");
        let row = runs
            .iter()
            .enumerate()
            .map(|(j, &t)| if self.alive[j] { t } else { None })
            .collect();
        self.runs.push(row);
        let raced = self.runs.len();
        let Some(t) = self.look_at.iter().position(|&at| at == raced) else {
            return Vec::new();
        };
        if self.survivors().len() < 2 {
            return Vec::new();
        }
        self.look(self.alphas[t])
    }

    /// The level not spent yet: the shares of the plan's looks after the instances raced.
    pub fn unspent_alpha(&self) -> f64 {
        let raced = self.runs.len();
        self.look_at
            .iter()
            .zip(&self.alphas)
            .filter(|(&at, _)| at > raced)
            .map(|(_, a)| a)
            .sum()
    }

    /// Ends a race cut short of its plan (by its budget, or its rows ending): where the
    /// instances raced are not a look of the plan and two or more candidates survive, one
    /// last look spends the level the plan's later looks would have had. Returns its drops.
    pub fn finish(&mut self) -> Vec<Decision> {
        let raced = self.runs.len();
        if raced == 0
            || self.survivors().len() < 2
            || self
                .looks
                .last()
                .is_some_and(|l| l.raced_instances == raced)
        {
            return Vec::new();
        }
        let alpha = self.unspent_alpha();
        if alpha <= 0.0 {
            return Vec::new();
        }
        self.look(alpha)
    }

    fn look(&mut self, alpha: f64) -> Vec<Decision> {
        let best = self.best().expect("two survivors");
        let s = self.survivors();
        let k = s.len();
        let idx = |j: usize| s.iter().position(|&x| x == j).expect("a survivor");
        // p[a][b]: "a is slower than b", over survivors in order.
        let mut p = vec![vec![1.0f64; k]; k];
        for x in 0..k {
            for y in (x + 1)..k {
                let lr = self.log_ratios(s[x], s[y]);
                let (xy, yx) = self.pair_tests(&lr);
                p[x][y] = xy.p;
                p[y][x] = yx.p;
            }
        }
        let strongest: Vec<(f64, usize)> = (0..k)
            .map(|x| {
                (0..k)
                    .filter(|&y| y != x)
                    .map(|y| (p[x][y], y))
                    .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                    .unwrap_or((1.0, x))
            })
            .collect();
        let c = |m: usize| alpha / (m as f64 * (k - 1) as f64);
        // m_a: the largest m with at least m − 1 other survivors whose P exceeds c_m.
        let plausible: Vec<usize> = (0..k)
            .map(|x| {
                (1..=k)
                    .rev()
                    .find(|&m| {
                        m == 1
                            || (0..k).filter(|&y| y != x && strongest[y].0 > c(m)).count() >= m - 1
                    })
                    .unwrap_or(1)
            })
            .collect();
        let level: Vec<f64> = plausible.iter().map(|&m| c(m)).collect();
        let dropped: Vec<bool> = (0..k)
            .map(|x| s[x] != best && strongest[x].0 <= level[x])
            .collect();
        let b = idx(best);
        let delta = self.config.log_margin();
        let mut comparisons = Vec::new();
        for x in (0..k).filter(|&x| x != b) {
            let j = s[x];
            let lr = self.log_ratios(j, best);
            let n = lr.len();
            let (best_slower, best_faster) = super::separation::tally(self.pair_runs(j, best));
            let eq_level = alpha / (k - 1) as f64;
            let (lo, hi) = interval(&lr.lower, &lr.upper, level[x], eq_level);
            let enough = n >= self.config.min_pair;
            let equivalent = !dropped[x] && enough && lo > -delta && hi < delta;
            let unreachable = if !enough {
                Some(format!(
                    "{n} separating instances, fewer than {}",
                    self.config.min_pair
                ))
            } else if critical(n, level[x]).is_none() {
                Some(format!(
                    "{n} separating instances allow p ≥ {:.2e}, above the level {:.2e}",
                    0.5f64.powi(n as i32),
                    level[x]
                ))
            } else {
                None
            };
            let beaten_by: Vec<String> = (0..k)
                .filter(|&y| y != x && p[x][y] <= level[x] && dropped[x])
                .map(|y| self.names[s[y]].clone())
                .collect();
            let finite = |v: f64| v.is_finite().then_some(v.exp());
            comparisons.push(Comparison {
                candidate: self.names[j].clone(),
                instances: n,
                best_faster,
                best_slower,
                stopped: lr.a_censored,
                p_value: p[x][b],
                strongest: strongest[x].0,
                strongest_against: self.names[s[strongest[x].1]].clone(),
                level: level[x],
                equivalence_level: eq_level,
                plausible: plausible[x],
                ratio: finite(hodges_lehmann(&lr.lower)),
                low: finite(lo),
                high: finite(hi),
                dropped: dropped[x],
                beaten_by,
                equivalent,
                unreachable,
            });
        }
        for x in 0..k {
            if dropped[x] {
                self.alive[s[x]] = false;
            }
        }
        let survivors: Vec<String> = self
            .survivors()
            .iter()
            .map(|&j| self.names[j].clone())
            .collect();
        let decided = survivors.len() < 2
            || comparisons
                .iter()
                .filter(|c| !c.dropped)
                .all(|c| c.equivalent);
        let raced = self.runs.len();
        let made: Vec<Decision> = comparisons
            .iter()
            .filter(|c| c.dropped)
            .map(|c| Decision {
                candidate: c.candidate.clone(),
                counted_instances: c.instances,
                raced_instances: raced,
                test: "signed-rank".into(),
                best_faster: c.best_faster,
                best_slower: c.best_slower,
                p_value: c.p_value,
                level: c.level,
                alpha,
                best: self.names[best].clone(),
                beaten_by: c.beaten_by.clone(),
                low: c.low,
                high: c.high,
                survivors: survivors.clone(),
            })
            .collect();
        self.looks.push(Look {
            raced_instances: raced,
            alpha,
            tested: k,
            best: self.names[best].clone(),
            comparisons,
            survivors,
            decided,
        });
        self.decisions.extend(made.iter().cloned());
        made
    }

    /// The race's best at the end: the best of its last look where that look was made on
    /// every instance raced (its drops may change who scores highest among the rest, but
    /// the look's tests were made against it), else [`Self::best`].
    pub fn final_best(&self) -> Option<usize> {
        match self
            .looks
            .last()
            .filter(|l| l.raced_instances == self.runs.len())
        {
            Some(l) => self.names.iter().position(|n| *n == l.best),
            None => self.best(),
        }
    }

    /// The signed-rank test of candidate `j` being slower than candidate `best` on every
    /// instance both ran: (p-value, separating instances); p = 1 under
    /// [`RaceConfig::min_pair`] instances.
    pub fn test_against(&self, j: usize, best: usize) -> (f64, usize) {
        if j == best {
            return (1.0, 0);
        }
        let lr = self.log_ratios(j, best);
        let n = lr.len();
        if n < self.config.min_pair {
            (1.0, n)
        } else {
            (test_greater(&lr.lower), n)
        }
    }

    /// Every candidate but those in `out` (refused) from best to worst: the final best;
    /// then the other survivors, the one whose test against the best is weakest (largest
    /// p-value) first, ties by more separating instances, then by order; then the dropped
    /// ones, those that stayed longest first (the tests that needed more instances to drop
    /// them were the weaker: p-values on different numbers of instances do not compare),
    /// among those dropped at one look the same way as the survivors.
    pub fn order(&self, out: &[usize]) -> Vec<usize> {
        let Some(best) = self.final_best() else {
            return Vec::new();
        };
        // A dropped candidate's key: how long it stayed (a test that needed more
        // instances to drop it was the weaker one), then its p-value on them.
        let stayed = |j: usize| {
            self.decisions
                .iter()
                .find(|d| d.candidate == self.names[j])
                .map_or(usize::MAX, |d| d.raced_instances)
        };
        let mut others: Vec<(usize, usize, f64, usize)> = (0..self.names.len())
            .filter(|&j| j != best && !out.contains(&j))
            .map(|j| {
                let (p, n) = self.test_against(j, best);
                (j, stayed(j), p, n)
            })
            .collect();
        others.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(b.2.total_cmp(&a.2))
                .then(b.3.cmp(&a.3))
                .then(a.0.cmp(&b.0))
        });
        std::iter::once(best)
            .chain(others.into_iter().map(|o| o.0))
            .collect()
    }

    /// What the race decided between its final best and candidate `j`
    /// ([`Self::final_best`]); `None` for the best itself.
    pub fn outcome(&self, j: usize) -> Option<Decided> {
        let best = self.final_best()?;
        if j == best {
            return None;
        }
        let best_name = &self.names[best];
        if let Some(d) = self.decisions.iter().find(|d| d.candidate == self.names[j]) {
            return Some(if d.beaten_by.contains(best_name) {
                Decided::Ahead
            } else {
                Decided::DroppedBy(d.beaten_by.first().cloned().unwrap_or(d.best.clone()))
            });
        }
        let equivalent = self
            .looks
            .last()
            .filter(|l| l.raced_instances == self.runs.len() && l.best == *best_name)
            .and_then(|l| l.comparisons.iter().find(|c| c.candidate == self.names[j]))
            .is_some_and(|c| c.equivalent);
        Some(if equivalent {
            Decided::Equivalent
        } else {
            Decided::Open
        })
    }

    /// The last comparison of candidate `name` with the best at a look: at its drop, or at
    /// the last look it survived.
    pub fn last_comparison(&self, name: &str) -> Option<(&Look, &Comparison)> {
        self.looks.iter().rev().find_map(|l| {
            l.comparisons
                .iter()
                .find(|c| c.candidate == name)
                .map(|c| (l, c))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(k: usize) -> Vec<String> {
        (0..k).map(|j| format!("c{j}")).collect()
    }

    fn done(t: &[f64]) -> Vec<Option<Obs>> {
        t.iter().map(|&x| Some(Obs::done(x))).collect()
    }

    #[test]
    fn the_plan_s_looks_and_levels_are_fixed_before_the_start_and_sum_to_alpha() {
        let c = RaceConfig::default();
        // Two or three candidates: the first look at 12.
        assert_eq!(c.looks(36, 2), vec![12, 18, 24, 30, 36]);
        assert_eq!(c.looks(36, 3), vec![12, 18, 24, 30, 36]);
        assert_eq!(c.looks(31, 3), vec![12, 18, 24, 31]);
        assert_eq!(c.looks(8, 3), vec![8]);
        assert_eq!(c.looks(12, 3), vec![12]);
        // Ten: 2^-13 is the first under 0.0125/90 = 1.4e-4, so the first look waits for 13
        // instances; thirty: 2^-17 = 7.6e-6 is the first under 0.0125/870 = 1.4e-5.
        assert_eq!(c.first_look_for(10), 13);
        assert_eq!(c.looks(36, 10), vec![13, 18, 24, 30, 36]);
        assert_eq!(c.first_look_for(30), 17);
        assert_eq!(c.looks(36, 30), vec![17, 24, 30, 36]);
        for k in [2, 3, 10, 30, 60] {
            for planned in [1, 8, 12, 13, 17, 31, 36, 100] {
                let a = c.alphas(planned, k);
                assert_eq!(a.len(), c.looks(planned, k).len());
                let sum: f64 = a.iter().sum();
                assert!((sum - 0.05).abs() < 1e-12, "{planned}, {k}: {sum}");
                let looks = c.looks(planned, k);
                assert!(looks.windows(2).all(|w| w[0] < w[1]), "{looks:?}");
                assert_eq!(looks.last(), Some(&planned));
            }
        }
        let a = c.alphas(36, 3);
        assert!((a[0] - 0.0125).abs() < 1e-12);
        assert!((a[4] - 0.03).abs() < 1e-12);
        assert!((a[1] - 0.0075 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_candidate_always_last_is_dropped_at_the_first_look_and_the_best_says_ahead() {
        let mut race = Race::new(names(3), RaceConfig::default(), 36);
        // c2 three times slower always, c0 and c1 trade first place.
        for i in 0..11 {
            let t = if i % 2 == 0 {
                [0.1, 0.11, 0.3]
            } else {
                [0.11, 0.1, 0.3]
            };
            assert!(race.record(&done(&t)).is_empty());
        }
        let d = race.record(&done(&[0.1, 0.11, 0.3]));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].candidate, "c2");
        assert_eq!((d[0].best_faster, d[0].best_slower), (12, 0));
        assert!(d[0].p_value <= d[0].level);
        assert!(d[0].beaten_by.contains(&d[0].best));
        // The interval excludes 1: ahead holds exactly when it does.
        assert!(d[0].low.unwrap() > 1.0);
        let line = serde_json::to_string(&d[0]).unwrap();
        let back: Decision = serde_json::from_str(&line).unwrap();
        assert_eq!(back, d[0]);
    }

    #[test]
    fn equal_twins_become_equivalent_and_end_the_race() {
        // Two candidates within a few per cent of each other, in either order.
        let mut race = Race::new(names(2), RaceConfig::default(), 36);
        let mut decided_at = None;
        for i in 0..36 {
            let base = 0.1 * (1.0 + (i % 5) as f64);
            let wobble = if i % 2 == 0 { 1.02 } else { 0.98 };
            race.record(&done(&[base, base * wobble]));
            if race.decided() {
                decided_at = Some(i + 1);
                break;
            }
        }
        assert_eq!(decided_at, Some(12), "{:?}", race.looks());
        let c = &race.looks()[0].comparisons[0];
        assert!(c.equivalent && !c.dropped);
        assert!(c.low.unwrap() > 1.0 / 1.1 && c.high.unwrap() < 1.1, "{c:?}");
        assert!(race.finished());
    }

    #[test]
    fn ties_and_fast_instances_decide_nothing() {
        let mut race = Race::new(names(2), RaceConfig::default(), 48);
        for _ in 0..48 {
            assert!(race.record(&done(&[0.5, 0.5])).is_empty());
        }
        assert_eq!(race.survivors(), vec![0, 1]);
        assert!(!race.decided());
        let mut race = Race::new(names(2), RaceConfig::default(), 48);
        for _ in 0..48 {
            race.record(&done(&[0.001, 0.009]));
        }
        assert_eq!(race.survivors(), vec![0, 1]);
        let c = &race.looks().last().unwrap().comparisons[0];
        assert!(!c.equivalent);
        assert!(c
            .unreachable
            .as_deref()
            .is_some_and(|u| u.contains("fewer than 10")));
    }

    /// Candidate 0 faster than everyone on every instance, the others equal among
    /// themselves (times within 10 % of one another, in random order).
    fn one_ahead_of_equals(k: usize, instances: usize) -> Race {
        let mut race = Race::new(names(k), RaceConfig::default(), 36);
        let mut z = 1u64;
        let mut noise = || {
            z = z
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            1.0 + ((z >> 33) % 1000) as f64 / 10_000.0
        };
        for _ in 0..instances {
            let mut t: Vec<f64> = (0..k).map(|_| 0.5 * noise()).collect();
            t[0] = 0.1;
            race.record(&done(&t));
        }
        race
    }

    #[test]
    fn candidates_slower_on_every_instance_go_at_the_first_look_that_can_drop_them() {
        // Six candidates: every other lost all 12 instances to c0 (p = 2^-12 = 2.4e-4,
        // below c_m = α_1/(5m) for every m ≤ 6), so none of them can be a best with
        // another: m = 2 (itself and c0), the level α_1/(2·5) = 1.25e-3, and all go.
        let race = one_ahead_of_equals(6, 12);
        let look = &race.looks()[0];
        for c in &look.comparisons {
            assert_eq!(c.plausible, 2, "{c:?}");
            assert!((c.level - 0.0125 / 10.0).abs() < 1e-15);
            assert!(c.dropped, "{c:?}");
            assert_eq!(c.strongest_against, "c0");
        }
        assert_eq!(race.survivors(), vec![0]);
        // Thirty: at 12 instances 2^-12 lies above α_1/(30·29) = 1.4e-5, so had it looked
        // then, every loser could have been a best with all the others (m = 30) and none
        // could go: a race of 30 equal candidates must not lose one to chance. The first
        // look comes after 17 instances, where 2^-17 lies below every level, and drops
        // them all.
        let race = one_ahead_of_equals(30, 16);
        assert!(race.looks().is_empty());
        assert_eq!(race.survivors().len(), 30);
        let race = one_ahead_of_equals(30, 17);
        assert_eq!(race.looks()[0].raced_instances, 17);
        assert_eq!(race.survivors(), vec![0]);
        // A plan of 12 looks once, at its end, with all of α: still out of reach.
        let mut at_twelve = Race::new(names(30), RaceConfig::default(), 12);
        let early = one_ahead_of_equals(30, 12);
        for i in 0..12 {
            at_twelve.record(&early.runs[i]);
        }
        assert!(at_twelve.looks()[0]
            .comparisons
            .iter()
            .all(|c| c.plausible == 30 && !c.dropped));
    }

    #[test]
    fn plainly_worse_candidates_are_tested_as_against_the_best_of_the_others() {
        // c0 best, c1 close to it (1.1× or 0.95× in turn), c2..c5 graded 3× to 6×: for a
        // plainly worse one, only c0 and c1 stay plausible, m = 3.
        let mut race = Race::new(names(6), RaceConfig::default(), 36);
        for i in 0..12 {
            let d = 0.05 * (1.0 + (i % 4) as f64);
            let close = if i % 2 == 0 { 1.1 } else { 0.95 };
            let t: Vec<f64> = [1.0, close, 3.0, 4.0, 5.0, 6.0]
                .iter()
                .map(|f| f * d)
                .collect();
            race.record(&done(&t));
        }
        let look = &race.looks()[0];
        for c in look.comparisons.iter().filter(|c| c.candidate != "c1") {
            assert_eq!(c.plausible, 3, "{c:?}");
            assert!(c.dropped, "{c:?}");
        }
        assert_eq!(race.survivors(), vec![0, 1]);
    }

    #[test]
    fn the_best_has_the_highest_score() {
        // c1 beats c0 by 1.2× on 7 of 11, c2 is beaten by both: c1 is the best.
        let mut race = Race::new(names(3), RaceConfig::default(), 36);
        for i in 0..11 {
            let t = if i < 7 {
                [0.36, 0.3, 0.9]
            } else {
                [0.3, 0.36, 0.9]
            };
            race.record(&done(&t));
        }
        assert_eq!(race.best(), Some(1));
    }

    #[test]
    fn a_race_cut_short_spends_what_its_later_looks_would_have_had() {
        let mut race = Race::new(names(2), RaceConfig::default(), 36);
        for _ in 0..15 {
            race.record(&done(&[0.1, 0.3]));
        }
        // The first look dropped c1 already (15 > 12): nothing to finish.
        assert_eq!(race.survivors(), vec![0]);
        let mut race = Race::new(names(2), RaceConfig::default(), 36);
        for _ in 0..11 {
            race.record(&done(&[0.1, 0.3]));
        }
        assert!((race.unspent_alpha() - 0.05).abs() < 1e-12);
        let d = race.finish();
        assert_eq!(d.len(), 1);
        assert!((race.looks()[0].alpha - 0.05).abs() < 1e-12);
        // After the look at 12 (0.0125), a stop at 14 spends the other 0.0375.
        let mut race = Race::new(names(2), RaceConfig::default(), 36);
        for i in 0..14 {
            let wobble = if i % 2 == 0 { 1.3 } else { 0.8 };
            race.record(&done(&[0.1, 0.1 * wobble]));
        }
        assert_eq!(race.looks().len(), 1);
        race.finish();
        assert!((race.looks()[1].alpha - 0.0375).abs() < 1e-12);
        assert!(race.finish().is_empty(), "one look at a stop");
    }
}
