//! The answer first: per puzzle, which configuration (formulation × engine with its
//! settings) wins on the puzzle's comparison instances, by how much, and how sure.
//!
//! The comparison instances of a puzzle are those of its suite's engine comparison
//! ([`Chosen`]: the suite chose them by difficulty and says how), where the rows hold them;
//! for rows of other instances (a sweep of one's own), of the instance sets (each
//! instance with its time limit) that its configurations ran, the one with the most runs
//! over the configurations that ran all of it (their count times its size). Either way
//! the configurations that ran every comparison instance compete. Runs that
//! count solutions (`count` above 1) do a different task and are left out. Each
//! configuration gets one time per instance, the median over its repeats of the charged
//! seconds ([`charged_seconds`]: a failure at its time limit), and solves the instance when
//! more than half of its repeats succeeded. Configurations are ranked by instances solved,
//! then by the shifted geometric mean of those times with the report's one shift
//! ([`crate::stats::DEFAULT_SHIFT`] unless `--shift` says otherwise).
//!
//! The margin of the best over the runner-up is the ratio of their shifted geometric means
//! over the comparison instances, with a 95 % percentile bootstrap interval: instances are
//! drawn with replacement, and within each drawn instance each configuration's repeats are
//! drawn with replacement too (where it has repeats), [`RESAMPLES`] times with a fixed
//! seed. The verdict says "within noise" when the interval holds 1, and gives none when
//! either configuration's median time is under a millisecond, where timer resolution and
//! process noise decide the order.

use crate::record::Record;
use crate::stats::{
    charged_seconds, median, par2, sgm_ratio_interval, shifted_geometric_mean, succeeded, RESAMPLES,
};
use crate::table::{duration, Table, NO_FIGURE};
use std::collections::{BTreeMap, BTreeSet};

pub use crate::report::paired::TOO_FAST;

/// A configuration: a formulation on an engine with its settings (the engine label of the
/// rows, as `highs-nopresolve`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Config {
    /// Formulation key.
    pub formulation: String,
    /// Engine label ([`Record::backend_label`]).
    pub engine: String,
}

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::record::config_name(&self.formulation, &self.engine))
    }
}

/// How one configuration did on the comparison instances.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The configuration.
    pub config: Config,
    /// Comparison instances it solved: the verifier accepted its answer (or it proved
    /// infeasibility) in more than half its repeats. A run a race's cap stopped is never
    /// solved.
    pub solved: usize,
    /// Comparison instances on which a race's adaptive cap stopped it: its time there is
    /// its cap, a lower bound, and so is any mean over them ([`Standing::sgm_cell`]).
    pub stopped: usize,
    /// Its shifted geometric mean over the comparison instances (failures at the limit).
    pub sgm: f64,
    /// Its median time over the comparison instances.
    pub median: f64,
    /// Its PAR-2 score over the comparison instances: the mean over its runs of the time,
    /// a failure counting twice its limit ([`crate::stats::par2`]).
    pub par2: f64,
    /// Per comparison instance (in the order of [`Answer::instances`]), the charged seconds
    /// of each repeat.
    pub times: Vec<Vec<f64>>,
    /// For an answer judged on the run clock (a raced puzzle's), its SGM on the solve clock
    /// (`seconds`: without building, a child-process solver's start and the model's
    /// transfer), to show where the two clocks disagree ([`Answer::solve_clock_reverses`]).
    pub solve_sgm: Option<f64>,
}

impl Standing {
    /// Its SGM as a cell: seconds, with `≥` where some of its runs were stopped by a
    /// race's cap (they enter at their cap, a lower bound).
    pub fn sgm_cell(&self) -> String {
        let t = crate::table::secs(Some(self.sgm));
        if self.stopped > 0 {
            format!("≥ {t}")
        } else {
            t
        }
    }

    /// Its solved count over `n` instances as a cell, with the stopped ones where there
    /// are any: `10/12`, `2/12 (10 stopped)`.
    pub fn solved_cell(&self, n: usize) -> String {
        if self.stopped > 0 {
            format!("{}/{n} ({} stopped)", self.solved, self.stopped)
        } else {
            format!("{}/{n}", self.solved)
        }
    }
}

/// What the comparison says.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The best is ahead: the interval of the ratio lies above 1.
    Ahead,
    /// The interval of the ratio holds 1: the two cannot be told apart.
    WithinNoise,
    /// The runner-up's median (so both) is under [`TOO_FAST`]: no verdict.
    TooFast,
    /// The best solved more instances than the runner-up: ahead whatever the times.
    MoreSolved,
    /// A race's best and runner-up: what the race decided between them
    /// ([`crate::race::state::Verdict`]).
    Raced(RacedVerdict),
    /// Only one configuration ran the comparison instances.
    Alone,
}

/// What a race decided between its best and runner-up, as the answer shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RacedVerdict {
    /// The label: `ahead`, `equivalent within 10 %`, `undecided, because …`, or `dropped
    /// on X's test, not the best's`.
    pub label: String,
    /// Whether the best is ahead (the interval lies above 1).
    pub ahead: bool,
    /// Whether the two are equivalent within the margin.
    pub equivalent: bool,
    /// The ratio of the runner-up's time to the best's (Hodges–Lehmann over the instances
    /// separating them) with its interval at the race's level, as a cell; a lower bound
    /// where the runner-up's runs were stopped ([`crate::race::state::Verdict::ratio_cell`]).
    pub ratio_cell: String,
    /// The interval's lower end's level (one-sided), that of a drop.
    pub level: f64,
    /// The interval's upper end's level, that of an equivalence claim.
    pub equivalence_level: f64,
    /// The instances separating the two.
    pub instances: usize,
    /// Of those, the ones on which the runner-up's run was stopped.
    pub stopped: usize,
    /// Where the race's runs were too short for the verdict to be about solving: why
    /// ([`crate::report::race::short_runs`]).
    pub short_runs: Option<String>,
}

/// The answer for one puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The puzzle.
    pub puzzle: String,
    /// The question, when the puzzle asks several: its formulations, comma-separated
    /// (n-Queens: `base`, and `least-walls`); `None` when all formulations answer one.
    pub question: Option<String>,
    /// How the comparison instances were chosen.
    pub chosen: String,
    /// The comparison instances, as `name` (with ` (limit S s)` when their time limits
    /// differ).
    pub instances: Vec<String>,
    /// The comparison instances as keys (name, time limit in milliseconds:
    /// [`instance_key`]), in the order of `instances`, to find their rows.
    pub keys: Vec<InstanceKey>,
    /// Every competing configuration, best first.
    pub standings: Vec<Standing>,
    /// Runner-up SGM over best SGM, where there is a runner-up.
    pub ratio: Option<f64>,
    /// Its 95 % bootstrap interval.
    pub interval: Option<(f64, f64)>,
    /// The verdict.
    pub verdict: Verdict,
    /// The largest number of repeats of any configuration on any instance.
    pub repeats: usize,
    /// The shift of the shifted geometric means, in seconds.
    pub shift: f64,
    /// The race the comparison comes from, when it comes from one (`puzzlebench race`).
    pub race: Option<RaceNote>,
}

impl RaceNote {
    /// The race in one short cell: `24/36 instances × 20 candidates (+ 8 refused),
    /// decided; 22 separate the two`.
    pub fn summary(&self) -> String {
        format!(
            "{}{} instances × {} candidates{}, {}; {} separate the two",
            self.raced,
            self.planned.map_or(String::new(), |p| format!("/{p}")),
            self.candidates,
            match self.refused.len() {
                0 => String::new(),
                n => format!(" (+ {n} refused)"),
            },
            self.ended,
            self.counted
        )
    }

    /// The race in sentences, for the puzzle's page.
    pub fn describe(&self) -> String {
        let others = if self.others.is_empty() {
            "no other candidate survived".to_string()
        } else {
            format!(
                "the other survivors: {}",
                self.others
                    .iter()
                    .map(|(c, label)| format!("{c} ({label})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        format!(
            "{} of {} planned instances raced with {} candidates{} (ended: {}); {} instances separate the best from the runner-up (to the millisecond, the slower at 10 ms or more): the best faster on {}, slower on {}; {others}",
            self.raced,
            self.planned.map_or("?".to_string(), |p| p.to_string()),
            self.candidates,
            match self.refused.len() {
                0 => String::new(),
                n => format!(" that ran (and {n} that refused)"),
            },
            self.ended,
            self.counted,
            self.best_wins.0,
            self.best_wins.1
        )
    }
}

/// What the race behind an answer did ([`crate::race::state::RaceState`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RaceNote {
    /// The race's name.
    pub name: String,
    /// Instances raced.
    pub raced: usize,
    /// Instances the race planned.
    pub planned: Option<usize>,
    /// Why it ended: one candidate left, decided, plan run, budget spent (from its log),
    /// or without the log what the rows show.
    pub ended: String,
    /// Instances that separate the best from the runner-up (both ran them; to the
    /// millisecond, the slower at 10 ms or more): what the race's test between them counts.
    pub counted: usize,
    /// Candidates that ran (those that refused left out).
    pub candidates: usize,
    /// Survivors other than the best, each with its label against it.
    pub others: Vec<(String, String)>,
    /// Of the separating instances, those on which the best was faster, and those on which
    /// it was slower.
    pub best_wins: (usize, usize),
    /// The drops, look by look: `12 after 16 instances`.
    pub dropped: Vec<String>,
    /// Each refusal: candidate and the instance from which it refused.
    pub refused: Vec<String>,
    /// Runs the race made.
    pub runs: usize,
    /// Wall seconds of the race's runs.
    pub spent: f64,
}

impl Answer {
    /// The puzzle with its question when it asks several: `queens`, `queens: base`.
    pub fn title(&self) -> String {
        match &self.question {
            Some(q) => format!("{}: {q}", self.puzzle),
            None => self.puzzle.clone(),
        }
    }

    /// The best configuration.
    pub fn best(&self) -> &Standing {
        &self.standings[0]
    }

    /// The runner-up, if any.
    pub fn runner_up(&self) -> Option<&Standing> {
        self.standings.get(1)
    }

    /// The answer as one sentence.
    pub fn sentence(&self) -> String {
        let b = self.best();
        let n = self.instances.len();
        let head = format!(
            "{}: solved {}, SGM {}{}",
            b.config,
            b.solved_cell(n),
            if b.stopped > 0 { "≥ " } else { "" },
            seconds(b.sgm)
        );
        let Some(r) = self.runner_up() else {
            return format!(
                "{head}; the only configuration that ran all {n} comparison instances."
            );
        };
        let ratio = self.ratio.unwrap_or(f64::NAN);
        let ci = self.interval.map_or(String::new(), |(lo, hi)| {
            format!(" (95 % CI {lo:.2}–{hi:.2})")
        });
        let raced = matches!(self.verdict, Verdict::Raced(_));
        let margin = if raced {
            format!(
                "runner-up {} (solved {}, SGM {}{}, descriptive)",
                r.config,
                r.solved_cell(n),
                if r.stopped > 0 { "≥ " } else { "" },
                seconds(r.sgm)
            )
        } else {
            format!(
                "runner-up {} (solved {}), SGM ratio {ratio:.2}{ci}",
                r.config,
                r.solved_cell(n)
            )
        };
        let verdict = match &self.verdict {
            Verdict::Ahead => "ahead".to_string(),
            Verdict::WithinNoise => "within noise".to_string(),
            Verdict::MoreSolved => {
                format!("ahead on instances solved ({} vs {})", b.solved, r.solved)
            }
            Verdict::TooFast => "no verdict: both run under a millisecond".to_string(),
            Verdict::Raced(v) => format!(
                "the race's verdict: {}, runner-up / best {} over {} separating instances{}",
                v.label,
                v.ratio_cell,
                v.instances,
                v.short_runs
                    .as_ref()
                    .map_or(String::new(), |why| format!("; {why}"))
            ),
            Verdict::Alone => unreachable!("a runner-up exists"),
        };
        let other = self
            .solve_clock_reverses()
            .filter(|_| !raced)
            .map_or(String::new(), |x| {
                format!(
                    " On the solve clock (without building, process start and model transfer) the ratio is {x:.2}: the order reverses."
                )
            });
        format!("{head}; {margin}: {verdict}.{other}")
    }

    /// The solve clock's ratio when it lies on the other side of 1 than the run clock's
    /// (the clock the answer is judged on), each at least 0.005 from 1 so that their two
    /// decimals show it: the order of best and runner-up reverses there.
    pub fn solve_clock_reverses(&self) -> Option<f64> {
        let (b, r) = (self.best().solve_sgm?, self.runner_up()?.solve_sgm?);
        let (run, solve) = (self.ratio?, crate::stats::shifted_ratio(b, r, self.shift));
        let apart = |x: f64| (x - 1.0).abs() >= 0.005;
        ((run - 1.0) * (solve - 1.0) < 0.0 && apart(run) && apart(solve)).then_some(solve)
    }

    /// Its instances and repeats in words: `8 instances × 3 repeats`.
    pub fn instances_and_repeats(&self) -> String {
        let (n, r) = (self.instances.len(), self.repeats);
        format!(
            "{n} instance{} × {r} repeat{}",
            if n == 1 { "" } else { "s" },
            if r == 1 { "" } else { "s" }
        )
    }

    /// The ratio column: a raced answer's ratio and interval as its race decided them
    /// ([`RacedVerdict::ratio_cell`]); another's SGM ratio with its bootstrap interval.
    pub fn ratio_column(&self) -> String {
        match (&self.verdict, self.interval) {
            (Verdict::Raced(v), _) => v.ratio_cell.clone(),
            (_, Some((lo, hi))) => format!("{} ({lo:.2}–{hi:.2})", self.ratio_cell()),
            _ => self.ratio_cell(),
        }
    }

    /// The SGM ratio as a table cell: two decimals, and the solve clock's where it
    /// reverses.
    pub fn ratio_cell(&self) -> String {
        match (self.ratio, self.solve_clock_reverses()) {
            (None, _) => NO_FIGURE.into(),
            (Some(x), None) => format!("{x:.2}"),
            (Some(x), Some(solve)) => format!("{x:.2} (solve clock {solve:.2})"),
        }
    }
}

/// Seconds with their unit, for sentences: `0.0189 s`, `28.5 µs` ([`duration`]).
pub fn seconds(t: f64) -> String {
    duration(t)
}

/// The instances a suite compares the engines of a puzzle on, and how it chose them.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen {
    /// Puzzle key.
    pub puzzle: String,
    /// Which suite: `quick` or `full`.
    pub suite: String,
    /// The instances: name and time limit in milliseconds (rows at another limit, such
    /// as those of the report's own parts, are not the comparison's).
    pub names: BTreeSet<InstanceKey>,
    /// How they were chosen, one or two sentences.
    pub how: String,
}

impl Chosen {
    /// Whether the instance `key` (name and time limit) is one of these.
    fn holds(&self, key: &InstanceKey) -> bool {
        self.names.contains(key)
    }

    /// Whether these are a race's instances (suite `race`): the configurations are ranked
    /// on all of them, those that ran fewer (dropped early) left out.
    pub fn exact(&self) -> bool {
        self.suite == "race"
    }
}

/// The answers of every puzzle in `rows` that has a comparison (puzzles alphabetically,
/// one answer per question, [`answer`]), on the comparison instances of `chosen` where the
/// rows hold them.
pub fn answers(rows: &[Record], chosen: &[Chosen], shift: f64) -> Vec<Answer> {
    let mut by_puzzle: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.count <= 1) {
        by_puzzle.entry(&r.puzzle).or_default().push(r);
    }
    by_puzzle
        .into_iter()
        .flat_map(|(p, rs)| {
            let sets: Vec<&Chosen> = chosen.iter().filter(|c| c.puzzle == p).collect();
            answer(p, &rs, &sets, shift)
        })
        .collect()
}

/// An instance of a comparison: its name and its time limit in milliseconds.
pub type InstanceKey = (String, Option<u64>);

/// The key of instance `name` run at `time_limit` seconds.
pub fn instance_key(name: &str, time_limit: Option<f64>) -> InstanceKey {
    (
        name.to_string(),
        time_limit.map(|t| (t * 1000.0).round() as u64),
    )
}

/// How comparison instances were taken when the rows hold none of a suite's.
pub const FALLBACK_CHOICE: &str = "These rows hold none of the suite's comparison instances: the instances are the set that the most configurations ran.";

/// The answers of one puzzle from its rows, one per question (none when no configuration
/// ran anything), on the instances of `sets` (the puzzle's suites' comparisons) where the
/// rows hold them.
///
/// A puzzle asks more than one question when some of its formulations never share a
/// comparison instance with the others (n-Queens: `base`, the most queens on a board, and
/// `least-walls`, the fewest walls for q queens): the formulations fall into groups that
/// are linked by a shared instance, and each group is ranked on its own
/// ([`Answer::question`] names it).
pub fn answer(puzzle: &str, rows: &[&Record], sets: &[&Chosen], shift: f64) -> Vec<Answer> {
    let mut runs: BTreeMap<Config, BTreeMap<InstanceKey, Vec<&Record>>> = BTreeMap::new();
    for &r in rows {
        let c = Config {
            formulation: r.formulation.clone(),
            engine: r.backend_label(),
        };
        runs.entry(c)
            .or_default()
            .entry(instance_key(&r.instance, r.time_limit))
            .or_default()
            .push(r);
    }
    // The suite's comparison instances, where the rows hold them (the set of whichever
    // suite holds more of the rows' instances).
    // The suite whose comparison the rows ran most (configurations × instances, at the
    // comparison's limits), then the one with the fewest instances they lack: the quick
    // suite's for rows of the quick suite, although a full suite's instances may be among
    // the report parts' too.
    let held = |c: &Chosen| {
        runs.values()
            .map(|per| per.keys().filter(|k| c.holds(k)).count())
            .sum::<usize>()
    };
    let lacked = |c: &Chosen| {
        c.names
            .iter()
            .filter(|k| !runs.values().any(|per| per.contains_key(*k)))
            .count()
    };
    let suite = sets
        .iter()
        .filter(|c| held(c) > 0)
        .max_by_key(|c| (held(c), std::cmp::Reverse(lacked(c))));
    let keep = |k: &InstanceKey| suite.is_none_or(|c| c.holds(k));
    let exact = suite.is_some_and(|c| c.exact());
    let chosen = suite.map_or(FALLBACK_CHOICE.to_string(), |c| {
        if c.exact() {
            c.how.clone()
        } else {
            format!("The {} suite's engine comparison. {}", c.suite, c.how)
        }
    });
    let groups = questions(&runs, &keep);
    let several = groups.len() > 1;
    groups
        .into_iter()
        .filter_map(|group| {
            let own: Runs = runs
                .iter()
                .filter(|(c, _)| group.contains(&c.formulation))
                .map(|(c, per)| (c.clone(), per.clone()))
                .collect();
            let question = several.then(|| group.iter().cloned().collect::<Vec<_>>().join(", "));
            rank(puzzle, &own, &keep, exact, &chosen, question, shift)
        })
        .collect()
}

/// Every configuration's runs, by instance.
type Runs<'a> = BTreeMap<Config, BTreeMap<InstanceKey, Vec<&'a Record>>>;

/// The groups of formulations that share comparison instances (those `keep` holds): two
/// formulations are in one group when they ran a common instance, directly or through
/// others. Formulations that ran no comparison instance are in none.
fn questions(runs: &Runs, keep: &dyn Fn(&InstanceKey) -> bool) -> Vec<BTreeSet<String>> {
    let mut ran: BTreeMap<&str, BTreeSet<&InstanceKey>> = BTreeMap::new();
    for (c, per) in runs {
        ran.entry(c.formulation.as_str())
            .or_default()
            .extend(per.keys().filter(|k| keep(k)));
    }
    let mut groups: Vec<(BTreeSet<String>, BTreeSet<&InstanceKey>)> = Vec::new();
    for (f, keys) in ran.into_iter().filter(|(_, k)| !k.is_empty()) {
        let mut merged = (BTreeSet::from([f.to_string()]), keys);
        groups.retain(|(fs, ks)| {
            if ks.is_disjoint(&merged.1) {
                return true;
            }
            merged.0.extend(fs.iter().cloned());
            merged.1.extend(ks.iter().copied());
            false
        });
        groups.push(merged);
    }
    groups.into_iter().map(|(fs, _)| fs).collect()
}

/// The answer of one question: the configurations of `runs` ranked on the comparison
/// instances among those `keep` holds (none when no configuration ran one).
fn rank(
    puzzle: &str,
    runs: &Runs,
    keep: &dyn Fn(&InstanceKey) -> bool,
    exact: bool,
    chosen: &str,
    question: Option<String>,
    shift: f64,
) -> Option<Answer> {
    // The comparison instances: of the configurations' own instance sets (within the
    // suite's comparison), the one that the configurations running all of it cover best
    // (their count times its size).
    let sets: BTreeSet<BTreeSet<&InstanceKey>> = runs
        .values()
        .map(|per| per.keys().filter(|k| keep(k)).collect::<BTreeSet<_>>())
        .filter(|set| !set.is_empty())
        .collect();
    let covering = |set: &BTreeSet<&InstanceKey>| {
        runs.values()
            .filter(|per| set.iter().all(|k| per.contains_key(*k)))
            .count()
    };
    // A race's instances are taken whole: the largest set, that of the best and the
    // runner-up (the others were dropped on a part of it).
    let best_set = if exact {
        sets.iter().max_by_key(|set| (set.len(), covering(set)))?
    } else {
        sets.iter()
            .max_by_key(|set| (covering(set) * set.len(), covering(set), set.len()))?
    };
    let instances: Vec<InstanceKey> = best_set.iter().map(|k| (*k).clone()).collect();
    // A race's comparison is judged on the race's clock, the run clock; the others on the
    // solve clock.
    let charge: fn(&Record) -> f64 = if exact {
        raced_seconds
    } else {
        charged_seconds
    };
    // Solved means the verifier accepted an answer, everywhere: a run a race's cap stopped
    // is not solved (it is counted as stopped, at its cap).
    let ok: fn(&Record) -> bool = succeeded;
    let limits: BTreeSet<Option<u64>> = instances.iter().map(|k| k.1).collect();
    let mut standings: Vec<Standing> = runs
        .iter()
        .filter(|(_, per)| instances.iter().all(|k| per.contains_key(k)))
        .map(|(c, per)| {
            let times: Vec<Vec<f64>> = instances
                .iter()
                .map(|k| per[k].iter().map(|r| charge(r)).collect())
                .collect();
            let solved = instances
                .iter()
                .filter(|k| {
                    let rs = &per[*k];
                    crate::report::paired::instance_solved(
                        rs.iter().filter(|r| ok(r)).count(),
                        rs.len(),
                    )
                })
                .count();
            let per_instance: Vec<f64> = times.iter().map(|t| median(t).unwrap_or(0.0)).collect();
            let stopped = instances
                .iter()
                .filter(|k| per[*k].iter().any(|r| r.is_capped()))
                .count();
            Standing {
                config: c.clone(),
                solved,
                stopped,
                sgm: shifted_geometric_mean(&per_instance, shift).unwrap_or(0.0),
                median: median(&per_instance).unwrap_or(0.0),
                par2: {
                    let rs: Vec<&Record> = instances
                        .iter()
                        .flat_map(|k| per[k].iter().copied())
                        .collect();
                    if exact {
                        // On the race's clock, as the SGM: a success its run-clock time, a
                        // capped run its cap, a failure twice its limit.
                        let total: f64 = rs
                            .iter()
                            .map(|r| match r.time_limit.filter(|_| !ok(r)) {
                                Some(limit) => 2.0 * limit,
                                None => raced_seconds(r),
                            })
                            .sum();
                        total / rs.len().max(1) as f64
                    } else {
                        par2(&rs).unwrap_or(0.0)
                    }
                },
                solve_sgm: exact.then(|| {
                    let per_instance: Vec<f64> = instances
                        .iter()
                        .map(|k| {
                            // A capped run's solve clock is what it measured until its
                            // cap stopped it (a lower bound, as the cap is).
                            let t: Vec<f64> = per[k]
                                .iter()
                                .map(|r| match r.seconds.filter(|_| r.is_capped()) {
                                    Some(t) => t,
                                    None => charged_seconds(r),
                                })
                                .collect();
                            median(&t).unwrap_or(0.0)
                        })
                        .collect();
                    shifted_geometric_mean(&per_instance, shift).unwrap_or(0.0)
                }),
                times,
            }
        })
        .collect();
    standings.sort_by(|a, b| {
        b.solved
            .cmp(&a.solved)
            .then(a.sgm.total_cmp(&b.sgm))
            .then(a.config.cmp(&b.config))
    });
    let repeats = standings
        .iter()
        .flat_map(|s| s.times.iter().map(Vec::len))
        .max()
        .unwrap_or(0);
    let names = instances
        .iter()
        .map(|(name, limit)| match limit {
            Some(ms) if limits.len() > 1 => format!("{name} (limit {} s)", *ms as f64 / 1000.0),
            _ => name.clone(),
        })
        .collect();
    let (ratio, interval, verdict) = judge(&standings, shift);
    Some(Answer {
        puzzle: puzzle.to_string(),
        question,
        chosen: chosen.to_string(),
        instances: names,
        keys: instances,
        standings,
        ratio,
        interval,
        verdict,
        repeats,
        shift,
        race: None,
    })
}

/// The seconds a raced answer charges a run, on the run clock: as its race does
/// ([`crate::race::state::race_seconds`]), but a run the race's adaptive cap stopped is
/// charged its cap, a lower bound on its time (the race charges it its time limit, which
/// orders it right but would overstate a ratio).
pub fn raced_seconds(r: &Record) -> f64 {
    crate::race::capping::stopped_at(r).unwrap_or_else(|| crate::race::state::race_seconds(r))
}

/// The margin of the first of `standings` over the second: the ratio of their SGMs, its
/// bootstrap interval, and the verdict (no runner-up: [`Verdict::Alone`]).
pub fn judge(standings: &[Standing], shift: f64) -> (Option<f64>, Option<(f64, f64)>, Verdict) {
    match standings.get(1) {
        None => (None, None, Verdict::Alone),
        Some(r) => {
            let b = &standings[0];
            let ratio = crate::stats::shifted_ratio(b.sgm, r.sgm, shift);
            let interval = sgm_ratio_interval(&b.times, &r.times, shift);
            let verdict = if b.solved > r.solved {
                Verdict::MoreSolved
            } else if r.median < TOO_FAST {
                Verdict::TooFast
            } else if interval.0 <= 1.0 {
                Verdict::WithinNoise
            } else {
                Verdict::Ahead
            };
            (Some(ratio), Some(interval), verdict)
        }
    }
}

/// The answers as a table (stem `answers`), one row per puzzle: the best configuration,
/// its solved count and SGM (descriptive), the runner-up and its solved count, the ratio
/// with its interval (a raced puzzle's: the race's, at the race's level) and the verdict
/// ([`NO_FIGURE`] without a runner-up), and the race, with the notes on what each means.
/// `None` when no puzzle has one.
pub fn answers_table(answers: &[Answer]) -> Option<Table> {
    let shift = answers.first()?.shift;
    let rows = answers
        .iter()
        .map(|a| {
            let b = a.best();
            let n = a.instances.len();
            let r = a.runner_up();
            vec![
                a.title(),
                b.config.to_string(),
                b.solved_cell(n),
                b.sgm_cell(),
                r.map_or(NO_FIGURE.into(), |r| r.config.to_string()),
                r.map_or(NO_FIGURE.into(), |r| r.solved_cell(n)),
                a.ratio_column(),
                verdict_word(a),
                a.race
                    .as_ref()
                    .map_or(a.instances_and_repeats(), RaceNote::summary),
            ]
        })
        .collect();
    let mut table = Table {
        stem: "answers".into(),
        title: "The answer: the best configuration of each puzzle on its comparison instances".into(),
        columns: [
            "puzzle",
            "best configuration",
            "solved",
            &format!("SGM{shift} (s), descriptive"),
            "runner-up",
            "solved",
            "runner-up / best (interval)",
            "verdict",
            "race",
        ]
        .map(String::from)
        .to_vec(),
        labels: 1,
        rows,
        notes: vec![
            format!("Comparison instances: per puzzle, those of its race: the instances its best and runner-up both ran (a raced puzzle's page says how the race chose them); for rows without a race, those of its suite's engine comparison, or the instance set (with time limits) that the most configurations ran. solved: the verifier accepted the answer; a run a race's adaptive cap stopped is never solved, and the count says how many were stopped. SGM{shift}: the shifted geometric mean with a shift of {shift} s of the median time over repeats (failures at their limit; a stopped run at its cap, so that an SGM over stopped runs is a lower bound, marked ≥), on a raced puzzle on the run clock (building, solve and a child-process solver's start); it describes, it decides nothing."),
            "Raced puzzles (docs/race.md): the best is the race's (the highest signed-rank score over the other survivors), the runner-up the candidate whose test against it is weakest (largest p-value; survivors before dropped ones, and among dropped ones those that stayed longest first). runner-up / best: the Hodges-Lehmann estimate of the per-instance ratio of the runner-up's time to the best's over the instances separating them, with the interval that inverts the race's signed-rank tests: its lower end at the level a drop needed, its upper end at the level of an equivalence claim (both one-sided; docs/race.md gives them per race). Where the runner-up was stopped on some of them the ratio is a lower bound with no upper limit (≥ x (≥ lower end; k of n stopped)). ahead: the race dropped the runner-up with the best's own test (its interval lies above 1); equivalent within M: the interval lies within [1/(1+M), 1+M]; undecided, because ...: neither, and why (the plan ran out, the budget was spent, the runs are too fast to time). A verdict that says it is about short runs: the best's runs on the race's top rung take less than 10 times the largest per-run overhead (a child process's start, the model's transfer) of the engines in the race.".to_string(),
            format!("Rows without a race: the ratio is the runner-up's SGM over the best's, shifted ((SGM + s) / (SGM + s)), with its 95 % percentile bootstrap interval over instances and repeats ({RESAMPLES} resamples, fixed seed); ahead: the interval lies above 1; within noise: it holds 1; no verdict: both medians under {} ms.", TOO_FAST * 1000.0),
            "race: instances raced / planned × candidates that ran (and those that refused, which are not ranked), why it ended (decided: every survivor but the best equivalent to it; one candidate left; plan run; budget spent), and how many instances separate the best from the runner-up (both ran them, their times differ to the millisecond and the slower took 10 ms or more).".to_string(),
        ],
    };
    table.note_marks();
    Some(table)
}

/// The verdict in a few words, for tables.
pub fn verdict_word(a: &Answer) -> String {
    match &a.verdict {
        Verdict::Ahead => "ahead".into(),
        Verdict::WithinNoise => "within noise".into(),
        Verdict::TooFast => "no verdict (< 1 ms)".into(),
        Verdict::MoreSolved => "ahead (more solved)".into(),
        Verdict::Raced(v) => match &v.short_runs {
            Some(_) => format!("{}; about short runs", v.label),
            None => v.label.clone(),
        },
        Verdict::Alone => "alone".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        instance: &str,
        formulation: &str,
        engine: &str,
        repeat: u32,
        seconds: f64,
        ok: bool,
    ) -> Record {
        Record {
            puzzle: "p".into(),
            instance: instance.into(),
            formulation: formulation.into(),
            backend: engine.into(),
            repeat,
            count: 1,
            status: if ok { "optimal" } else { "time_limit" }.into(),
            verified: ok.then_some(true),
            seconds: Some(seconds),
            time_limit: Some(10.0),
            ..Record::default()
        }
    }

    /// `fast` takes 0.1 s and `slow` a factor longer on each of 8 instances, 3 repeats
    /// with ±2 % noise.
    fn rows(factor: f64) -> Vec<Record> {
        let mut out = Vec::new();
        for i in 0..8 {
            for rep in 1..=3u32 {
                let noise = 1.0 + 0.02 * (rep as f64 - 2.0);
                let t = 0.1 * (1.0 + i as f64 / 4.0) * noise;
                out.push(row(&format!("i{i}"), "a", "fast", rep, t, true));
                out.push(row(&format!("i{i}"), "a", "slow", rep, t * factor, true));
            }
        }
        out
    }

    #[test]
    fn a_clear_winner_is_ahead_with_an_interval_around_its_ratio() {
        let a = &answers(&rows(2.0), &[], 0.01)[0];
        assert_eq!(a.shift, 0.01);
        assert_eq!(a.best().config.engine, "fast");
        assert_eq!(a.instances.len(), 8);
        assert_eq!(a.repeats, 3);
        let ratio = a.ratio.unwrap();
        assert!((1.7..2.0).contains(&ratio), "{ratio}");
        let (lo, hi) = a.interval.unwrap();
        assert!(lo > 1.0 && lo <= ratio && ratio <= hi, "{lo} {ratio} {hi}");
        assert_eq!(a.verdict, Verdict::Ahead);
        assert!(
            a.sentence().contains("runner-up a on slow (solved 8/8)")
                && a.sentence().ends_with(": ahead."),
            "{}",
            a.sentence()
        );
    }

    /// A raced comparison (suite `race`) of `child`, whose solves are short but whose runs
    /// pay a child process's start, against `inproc`, slower to solve but started in process.
    /// A race's comparison of instances i0 .. i{n-1} of puzzle p at a 10 s limit.
    fn raced(n: usize) -> Chosen {
        Chosen {
            puzzle: "p".into(),
            suite: "race".into(),
            names: (0..n)
                .map(|i| instance_key(&format!("i{i}"), Some(10.0)))
                .collect(),
            how: "raced".into(),
        }
    }

    fn clocks_apart() -> Vec<Answer> {
        let mut rows = Vec::new();
        for i in 0..8 {
            let mut r = row(&format!("i{i}"), "a", "child", 1, 0.020, true);
            r.run_seconds = Some(0.300);
            rows.push(r);
            let mut r = row(&format!("i{i}"), "a", "inproc", 1, 0.050, true);
            r.run_seconds = Some(0.060);
            rows.push(r);
        }
        answers(&rows, &[raced(8)], 0.01)
    }

    #[test]
    fn a_raced_answer_whose_order_reverses_on_the_solve_clock_says_so() {
        let a = &clocks_apart()[0];
        // Judged on the run clock: in process wins.
        assert_eq!(a.best().config.engine, "inproc");
        let solve = a
            .solve_clock_reverses()
            .expect("the solve clock reverses the order");
        assert!(solve < 1.0, "{solve}");
        assert!(a.ratio.unwrap() > 1.0);
        assert!(a.ratio_cell().contains("solve clock"), "{}", a.ratio_cell());
        assert!(
            a.sentence().contains("the order reverses"),
            "{}",
            a.sentence()
        );
        let table = answers_table(std::slice::from_ref(a)).unwrap();
        assert!(table.rows[0].iter().any(|c| c.contains("solve clock")));
        // Clocks a hair apart on either side of 1 (two decimals: 1.00 and 1.00) say nothing.
        let mut hair_rows = Vec::new();
        for i in 0..8 {
            let mut r = row(&format!("i{i}"), "a", "child", 1, 0.0500, true);
            r.run_seconds = Some(0.0501);
            hair_rows.push(r);
            let mut r = row(&format!("i{i}"), "a", "inproc", 1, 0.0502, true);
            r.run_seconds = Some(0.0500);
            hair_rows.push(r);
        }
        let hair = &answers(&hair_rows, &[raced(8)], 0.01)[0];
        assert_eq!(hair.solve_clock_reverses(), None, "{}", hair.ratio_cell());
        // An unraced answer is on the solve clock alone and says nothing of the other.
        let plain = &answers(&rows(2.0), &[], 0.01)[0];
        assert_eq!(plain.solve_clock_reverses(), None);
        assert!(!plain.ratio_cell().contains("solve clock"));
    }

    #[test]
    fn a_raced_answer_charges_a_capped_run_its_cap_and_counts_it_stopped_not_solved() {
        // The runner-up is a little faster than the best on 4 instances and was capped at
        // 0.2 s on the other 4: left out, those would make it look faster (ratio < 1).
        let mut rows = Vec::new();
        for i in 0..8 {
            let mut b = row(&format!("i{i}"), "a", "best", 1, 0.05, true);
            b.run_seconds = Some(0.05);
            rows.push(b);
            let mut r = row(&format!("i{i}"), "a", "runner", 1, 0.04, true);
            r.run_seconds = Some(0.04);
            if i % 2 == 1 {
                r.status = crate::record::CAPPED.into();
                r.verified = None;
                r.cap_seconds = Some(0.2);
                r.seconds = Some(0.19);
                r.run_seconds = Some(0.2);
            }
            rows.push(r);
        }
        let a = &answers(&rows, &[raced(8)], 0.01)[0];
        assert_eq!(a.best().config.engine, "best");
        let r = a.runner_up().unwrap();
        assert_eq!(
            (r.solved, r.stopped),
            (4, 4),
            "a capped run is stopped, never solved"
        );
        assert!(r.sgm_cell().starts_with("≥ "), "a lower bound");
        assert_eq!(a.instances.len(), 8, "the capped instances are compared");
        // SGM of the runner-up: (0.04 + s)^½ (0.2 + s)^½ − s with s = 0.01, 0.0925.
        assert!((r.sgm - 0.0925).abs() < 1e-3, "{}", r.sgm);
        assert!(a.ratio.unwrap() > 1.5, "{:?}", a.ratio);
        // Outside a race the same rows count the capped runs as failures at the limit.
        let plain = &answers(&rows, &[], 0.01)[0];
        assert_eq!(plain.runner_up().unwrap().solved, 4);
    }

    #[test]
    fn equal_configurations_are_within_noise() {
        let a = &answers(&rows(1.0), &[], 0.01)[0];
        let (lo, hi) = a.interval.unwrap();
        assert!(lo <= 1.0 && hi >= 1.0, "{lo} {hi}");
        assert_eq!(a.verdict, Verdict::WithinNoise);
    }

    #[test]
    fn more_solved_wins_whatever_the_times_and_tiny_times_get_no_verdict() {
        let mut rs = rows(1.0);
        for r in rs
            .iter_mut()
            .filter(|r| r.backend == "fast" && r.instance == "i0")
        {
            r.status = "time_limit".into();
            r.verified = None;
        }
        let a = &answers(&rs, &[], 0.01)[0];
        assert_eq!(a.best().config.engine, "slow");
        assert_eq!(a.verdict, Verdict::MoreSolved);
        let mut tiny = rows(1.5);
        for r in &mut tiny {
            r.seconds = r.seconds.map(|s| s * 1e-3);
        }
        assert_eq!(answers(&tiny, &[], 0.01)[0].verdict, Verdict::TooFast);
        // A best under a millisecond far ahead of a runner-up above it: judged.
        let mut apart = rows(1.5);
        for r in apart.iter_mut().filter(|r| r.backend == "fast") {
            r.seconds = r.seconds.map(|s| s * 1e-3);
        }
        let a = &answers(&apart, &[], 0.01)[0];
        assert_eq!(a.verdict, Verdict::Ahead, "{}", a.sentence());
    }

    #[test]
    fn only_the_instances_most_configurations_ran_count_and_counting_runs_are_left_out() {
        let mut rs = rows(2.0);
        // A third configuration on one instance only, and a counting run.
        rs.push(row("i0", "b", "fast", 1, 0.01, true));
        rs.push(Record {
            count: 10,
            ..row("i0", "a", "fast", 1, 5.0, true)
        });
        let a = &answers(&rs, &[], 0.01)[0];
        assert_eq!(a.instances.len(), 8);
        assert_eq!(a.standings.len(), 2, "{:?}", a.standings);
        let t = answers_table(std::slice::from_ref(a)).unwrap();
        assert_eq!(t.rows[0][1], "a on fast");
        assert_eq!(t.rows[0][7], "ahead");
        assert_eq!(t.rows[0][8], "8 instances × 3 repeats");
        assert!(answers_table(&[]).is_none());
        let alone = answer("p", &[&row("x", "a", "fast", 1, 0.5, true)], &[], 0.01).remove(0);
        assert_eq!(alone.verdict, Verdict::Alone);
        assert!(alone.sentence().contains("only configuration"));
        // No runner-up: no such figure, and the table says what its mark means.
        let t = answers_table(&[alone]).unwrap();
        assert_eq!(t.rows[0][4..7], ["n/a", "n/a", "n/a"]);
        assert_eq!(t.rows[0][8], "1 instance × 1 repeat");
        assert!(t
            .notes
            .last()
            .unwrap()
            .starts_with("Marks: n/a = no such figure"));
    }

    #[test]
    fn the_suites_comparison_instances_are_ranked_on_where_the_rows_hold_them() {
        // Eight instances; the suite compares on i6 and i7, where
        // `slow` is 2× slower, and a third configuration ran those two only.
        let mut rs = rows(2.0);
        for i in ["i6", "i7"] {
            for rep in 1..=3 {
                rs.push(row(i, "b", "fast", rep, 0.15, true));
            }
        }
        // The rows' limit is 10 s.
        let key = |name: &str| (name.to_string(), Some(10_000));
        let chosen = Chosen {
            puzzle: "p".into(),
            suite: "quick".into(),
            names: [key("i6"), key("i7")].into(),
            how: "The two largest.".into(),
        };
        let other = Chosen {
            names: [key("nowhere")].into(),
            ..chosen.clone()
        };
        // The full suite's comparison holds the quick one's and more: rows that lack the
        // rest are the quick suite's.
        let full = Chosen {
            suite: "full".into(),
            names: [key("i6"), key("i7"), key("i99")].into(),
            ..chosen.clone()
        };
        let a = &answers(&rs, &[full, other.clone(), chosen], 0.01)[0];
        assert_eq!(a.instances, ["i6", "i7"]);
        assert_eq!(a.standings.len(), 3, "all three ran both");
        assert!(
            a.chosen.contains("quick suite") && a.chosen.contains("two largest"),
            "{}",
            a.chosen
        );
        // Rows that hold none of them: the set most configurations ran, said so.
        let a = &answers(&rs, &[other], 0.01)[0];
        assert_eq!(a.instances.len(), 8);
        assert_eq!(a.chosen, FALLBACK_CHOICE);
    }

    #[test]
    fn formulations_that_share_no_instance_answer_separate_questions() {
        // `a` on i0..i7 (fast ahead of slow); `b` on j0, j1 only, where `slow` is ahead.
        let mut rs = rows(2.0);
        for i in ["j0", "j1"] {
            for rep in 1..=3 {
                rs.push(row(i, "b", "fast", rep, 0.4, true));
                rs.push(row(i, "b", "slow", rep, 0.1, true));
            }
        }
        let all = answers(&rs, &[], 0.01);
        assert_eq!(all.len(), 2, "{all:?}");
        let titles: Vec<String> = all.iter().map(Answer::title).collect();
        assert_eq!(titles, ["p: a", "p: b"]);
        assert_eq!(all[0].best().config.engine, "fast");
        assert_eq!(all[0].instances.len(), 8);
        assert_eq!(all[1].best().config.to_string(), "b on slow");
        assert_eq!(all[1].instances, ["j0", "j1"]);
        // One question: no question named.
        let one = answers(&rows(2.0), &[], 0.01);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].question, None);
        assert_eq!(one[0].title(), "p");
        let t = answers_table(&all).unwrap();
        assert_eq!(t.rows[0][0], "p: a");
        assert_eq!(t.rows[1][0], "p: b");
    }
}
