//! `puzzlebench diff OLD NEW`: two results files of the same sweep (a new engine version,
//! another machine, a changed setting) compared run by run.
//!
//! **Matching.** Each file keeps the last attempt of each run id
//! ([`crate::record::last_attempts`]), and runs are matched by run id, which hashes the
//! instance's content, the puzzle, formulation, engine, settings, time limit and repeat: a
//! matched pair is the same run on the same instance, whatever the instance files were
//! called. Runs refused on either side (status `refused`), or stopped by a race's adaptive
//! cap (status `capped`), enter no statistic and are listed apart.
//!
//! **Per configuration** (puzzle, formulation, engine label with its settings), over the
//! instances both sides ran: each instance's time on each side is the median over its
//! repeats of the charged seconds ([`charged_seconds`]: a failure at its limit); the ratio
//! NEW/OLD of the shifted geometric means of those times, with a 95 % percentile bootstrap
//! interval over instances and repeats ([`sgm_ratio_interval`]). An instance is solved
//! when more than half of its repeats succeeded ([`succeeded`]). The verdict:
//! `regression` when NEW solved fewer instances or, solving as many, the interval lies
//! above 1; `improvement` when NEW solved more or the interval lies below 1; `no verdict`
//! when both sides' median times are under [`TOO_FAST`] (timer resolution and process
//! noise decide there) or the configuration has one instance run once on each side (the
//! interval is then that one ratio, which shows no noise); `within noise` otherwise. The repeats of one instance within a
//! configuration are the rows of one instance name, instance facts and time limit (rows
//! carry no hash of the instance alone).
//!
//! **Across machines** every configuration moves by the machine's speed, so the diff
//! estimates that **machine factor** ([`MachineFactor`]): the median over configurations
//! of their time ratios NEW/OLD ([`ConfigDiff::time_ratio`], without a shift). When the
//! two sides ran on different machines (their sets of `machine` ids, or hosts for rows
//! without one, differ), NEW's times of solved runs are divided by the factor before the
//! verdict (failures stay at their limit): a configuration is flagged only when it moved
//! differently from the rest, its interval excluding the factor. On the same machines the
//! factor is 1 and the estimate is only printed; `--machine-factor` gives one instead.
//! Solved counts are not adjusted: NEW solving fewer stays a regression on a slower
//! machine, since the factor cannot say which runs its limit would have cut.
//!
//! **Differing answers** (one side is wrong; shown first): a matched run that both sides
//! solved, with an answer the verifier accepted, and
//! - both proved optimal (status `optimal`, no MIP gap allowed) with objectives further
//!   apart than [`OBJECTIVE_TOLERANCE`] (relative, at least absolute); or
//! - both counted (`count` ≥ 2) and settled the count (status `optimal`) with different
//!   numbers of solutions; or
//! - different `answer_hash` values where the answer is known to be unique. An optimisation
//!   puzzle may have several optimal answers and a user's instance of a feasibility puzzle
//!   several solutions, so no puzzle is taken as unique by its name; uniqueness is known
//!   where a row of either file proves it (a counting run of the same instance and
//!   formulation, `count` ≥ 2, settled with one solution and that solution verified), or
//!   where the instance's own facts say so (`unique=yes` in `instance_info`, as Circuit
//!   Board's generator writes after checking). The proof counts for the formulation that
//!   counted, since two formulations of one puzzle may ask different questions (n-Queens'
//!   `base` and `least-walls`). The instance of a counting row is found by its name and
//!   facts, as for repeats. The hashes compared are always those of one run id on the two
//!   sides, so of one formulation and its one JSON shape.

use crate::machine::SweepRecord;
use crate::record::Record;
use crate::report::answer::TOO_FAST;
use crate::report::paired::{instance_solved, judge, Lean};
use crate::stats::{charged_seconds, median, succeeded};
use crate::table::info_value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;

mod page;

pub use page::{write, DiffFiles};

/// Two optimal objectives differ when they are further apart than this times the larger of
/// 1 and their magnitudes (optima of integer programs, printed by solvers with a little
/// floating-point noise: 7.999999999999904 against 8).
pub const OBJECTIVE_TOLERANCE: f64 = 1e-6;

/// The columns of `diff.csv`, one row per configuration.
pub const CSV_COLUMNS: [&str; 18] = [
    "puzzle",
    "formulation",
    "engine",
    "settings",
    "instances",
    "old_sgm",
    "new_sgm",
    "ratio",
    "ci_low",
    "ci_high",
    "verdict",
    "status_changes",
    "differing_answers",
    "time_ratio",
    "machine_factor",
    "adjusted_ratio",
    "adjusted_ci_low",
    "adjusted_ci_high",
];

/// One results file as `diff` reads it.
#[derive(Clone, Debug, Default)]
pub struct Side {
    /// The file.
    pub path: PathBuf,
    /// Its rows, the last attempt of each run id.
    pub rows: Vec<Record>,
    /// Earlier attempts of a run id that were set aside.
    pub set_aside: usize,
    /// The sweep records beside it (its machines).
    pub sweeps: Vec<SweepRecord>,
}

/// What a configuration's times did from OLD to NEW.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// NEW solved fewer instances, or the interval of the adjusted ratio
    /// ([`ConfigDiff::adjusted_interval`]) lies above 1.
    Regression,
    /// NEW solved more instances, or the interval lies below 1.
    Improvement,
    /// The interval holds 1.
    WithinNoise,
    /// Both sides' median times are under [`TOO_FAST`], or the configuration has one
    /// instance run once on each side (its interval is that one ratio: no noise shows).
    NoVerdict,
}

impl Change {
    /// The verdict as `diff.csv` writes it.
    pub fn word(self) -> &'static str {
        match self {
            Change::Regression => "regression",
            Change::Improvement => "improvement",
            Change::WithinNoise => "within noise",
            Change::NoVerdict => "no verdict",
        }
    }
}

/// A configuration: puzzle, formulation and engine label.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConfigKey {
    /// Puzzle key.
    pub puzzle: String,
    /// Formulation key.
    pub formulation: String,
    /// Engine key (`highs`).
    pub engine: String,
    /// The settings part of the engine label ([`Record::backend_label`] without the engine
    /// key: `nopresolve-t4`), empty for the usual settings.
    pub settings: String,
}

impl ConfigKey {
    fn of(r: &Record) -> ConfigKey {
        let label = r.backend_label();
        let settings = label
            .strip_prefix(&r.backend)
            .unwrap_or(&label)
            .trim_start_matches('-')
            .to_string();
        ConfigKey {
            puzzle: r.puzzle.clone(),
            formulation: r.formulation.clone(),
            engine: r.backend.clone(),
            settings,
        }
    }

    /// `formulation on engine-settings`.
    pub fn label(&self) -> String {
        if self.settings.is_empty() {
            format!("{} on {}", self.formulation, self.engine)
        } else {
            format!("{} on {}-{}", self.formulation, self.engine, self.settings)
        }
    }
}

/// One configuration compared.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigDiff {
    /// The configuration.
    pub key: ConfigKey,
    /// Instances both sides ran.
    pub instances: usize,
    /// Instances OLD solved.
    pub old_solved: usize,
    /// Instances NEW solved.
    pub new_solved: usize,
    /// OLD's shifted geometric mean of the instances' median times.
    pub old_sgm: f64,
    /// NEW's.
    pub new_sgm: f64,
    /// OLD's median of the instances' median times.
    pub old_median: f64,
    /// NEW's.
    pub new_median: f64,
    /// NEW's SGM over OLD's.
    pub ratio: f64,
    /// Its 95 % bootstrap interval.
    pub interval: (f64, f64),
    /// The configuration's time ratio NEW/OLD, what the machine factor is the median of:
    /// the median over its instances that both sides solved, with both median times at
    /// least [`TOO_FAST`], of NEW's median time over OLD's. Unlike `ratio` it has no
    /// shift, so that a configuration of a few milliseconds moves with the machine as much
    /// as one of seconds. `None` without such an instance.
    pub time_ratio: Option<f64>,
    /// `ratio` with NEW's times of solved runs divided by the factor judged against
    /// ([`Diff::factor`]; failures stay at their limit); `ratio` itself when it is 1.
    pub adjusted_ratio: f64,
    /// Its 95 % bootstrap interval, which the verdict reads.
    pub adjusted_interval: (f64, f64),
    /// The verdict.
    pub change: Change,
    /// Runs solved on one side and not on the other.
    pub status_changes: usize,
    /// Runs whose answers differ.
    pub differing_answers: usize,
}

/// A matched run, named for lists.
#[derive(Clone, Debug, PartialEq)]
pub struct RunName {
    /// The run id.
    pub run_id: String,
    /// Its configuration.
    pub key: ConfigKey,
    /// Instance name.
    pub instance: String,
    /// Repeat.
    pub repeat: u32,
}

impl std::fmt::Display for RunName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}, {}, repeat {} (run {})",
            self.key.puzzle,
            self.instance,
            self.key.label(),
            self.repeat,
            self.run_id
        )
    }
}

/// A run whose two answers cannot both be right.
#[derive(Clone, Debug, PartialEq)]
pub struct DifferingAnswer {
    /// The run.
    pub run: RunName,
    /// How they differ: `objective 12 in OLD, 13 in NEW`.
    pub what: String,
}

/// A run solved on one side and not on the other.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusChange {
    /// The run.
    pub run: RunName,
    /// OLD's outcome (`optimal`, `time_limit`, `optimal, refused by the verifier`).
    pub old: String,
    /// NEW's.
    pub new: String,
    /// True when OLD solved it (solved → failed), false for failed → solved.
    pub lost: bool,
}

/// What one side's rows ran on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Provenance {
    /// One line per machine (its record where the sweep file has it, else its host).
    pub machines: Vec<String>,
    /// The machines' ids (hosts for rows without one), to tell whether the sides differ.
    pub machine_keys: BTreeSet<String>,
    /// Engine key → the versions its rows name.
    pub engines: BTreeMap<String, BTreeSet<String>>,
    /// puzzlebench commits of the rows.
    pub commits: BTreeSet<String>,
}

/// The machine factor: the median over configurations of their time ratios NEW/OLD
/// ([`ConfigDiff::time_ratio`]), with an exact distribution-free interval from order
/// statistics (no resampling): the k-th smallest and k-th largest of the n ratios, k the
/// largest with P(Bin(n, ½) < k) ≤ 2.5 %, which hold the median of the distribution the
/// configurations' ratios are taken as drawn from with probability at least 95 % (the
/// sign test's interval). Under 6 configurations no k qualifies: the interval is then the
/// smallest to the largest ratio, and its [`coverage`](MachineFactor::coverage) below 95 %.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineFactor {
    /// The median of the configurations' time ratios.
    pub median: f64,
    /// Its interval.
    pub interval: (f64, f64),
    /// The probability that the interval holds the median (≥ 0.95 from 6 configurations).
    pub coverage: f64,
    /// The configurations with a time ratio.
    pub configurations: usize,
}

impl MachineFactor {
    /// The estimate from the configurations' time ratios (those not finite and positive
    /// left out); `None` without one.
    pub fn estimate(ratios: &[f64]) -> Option<MachineFactor> {
        let mut v: Vec<f64> = ratios
            .iter()
            .copied()
            .filter(|r| r.is_finite() && *r > 0.0)
            .collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = median(&v)?;
        let (k, coverage) = median_rank(n);
        Some(MachineFactor {
            median,
            interval: (v[k - 1], v[n - k]),
            coverage,
            configurations: n,
        })
    }

    /// `95 % CI 2.18–2.45`, or `range 1.90–2.10, coverage 88 %` under 6 configurations.
    fn interval_text(&self, scale: impl Fn(f64) -> f64) -> String {
        let (a, b) = (scale(self.interval.0), scale(self.interval.1));
        let (lo, hi) = (a.min(b), a.max(b));
        if self.coverage >= 0.95 {
            format!("95 % CI {lo:.2}–{hi:.2}")
        } else {
            format!(
                "range {lo:.2}–{hi:.2}, coverage {:.0} %",
                100.0 * self.coverage
            )
        }
    }
}

/// For the order-statistics interval of the median of `n ≥ 1` values: the largest k ≥ 1
/// with P(Bin(n, ½) ≤ k − 1) ≤ 2.5 % (1 when there is none, under 6 values), and the
/// interval's coverage 1 − 2 P(Bin(n, ½) ≤ k − 1). The binomial terms are summed in
/// log space, so that ½ⁿ does not underflow the first ones to 0 for large n.
fn median_rank(n: usize) -> (usize, f64) {
    let first = -(n as f64) * std::f64::consts::LN_2; // ln P(B = 0)
    let mut ln_term = first;
    let (mut cdf, mut k, mut below) = (0.0, 0, 0.0);
    for j in 0..n {
        cdf += ln_term.exp();
        if cdf > 0.025 {
            break;
        }
        (k, below) = (j + 1, cdf);
        ln_term += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
    }
    if k == 0 {
        (1, 1.0 - 2.0 * first.exp())
    } else {
        (k, 1.0 - 2.0 * below)
    }
}

/// Where the factor the configurations are judged against comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FactorFrom {
    /// The sides ran on the same machines: 1.
    #[default]
    SameMachines,
    /// The machines differ: the estimate.
    Estimated,
    /// The machines differ, but no configuration has a time ratio: 1.
    NoEstimate,
    /// `--machine-factor`.
    Given,
}

/// The comparison of two results files.
#[derive(Clone, Debug, Default)]
pub struct Diff {
    /// The OLD file.
    pub old_path: PathBuf,
    /// The NEW file.
    pub new_path: PathBuf,
    /// Run ids of each side (after keeping the last attempts): OLD, NEW.
    pub runs: (usize, usize),
    /// Earlier attempts set aside: OLD, NEW.
    pub set_aside: (usize, usize),
    /// Run ids both sides hold.
    pub shared: usize,
    /// Shared runs refused on either side, or stopped by a race's adaptive cap (status
    /// `capped`: no time measured): the run, OLD's and NEW's status and reason.
    pub refused: Vec<(RunName, String, String)>,
    /// The configurations, puzzle, formulation, engine and settings in order.
    pub configs: Vec<ConfigDiff>,
    /// Status changes, in OLD's row order.
    pub status_changes: Vec<StatusChange>,
    /// Differing answers, in OLD's row order.
    pub differing: Vec<DifferingAnswer>,
    /// Matched runs whose answers could be compared: by optimal objective (both proved
    /// optimal with no gap allowed), and by answer hash (both hashed, the answer known to
    /// be unique), so that "no differing answer" says how much was checked.
    pub compared: (usize, usize),
    /// What OLD ran on.
    pub old: Provenance,
    /// What NEW ran on.
    pub new: Provenance,
    /// The shift of the shifted geometric means, seconds.
    pub shift: f64,
    /// The machine factor estimated over the configurations, applied or not.
    pub estimate: Option<MachineFactor>,
    /// The factor the configurations are judged against (NEW's times divided by it).
    pub factor: f64,
    /// Where it comes from.
    pub factor_from: FactorFrom,
}

/// An instance within a configuration: name, facts, time limit in milliseconds.
type InstanceKey = (String, String, Option<u64>);

/// The matched runs of one instance within a configuration, OLD's and NEW's: its repeats.
type Repeats<'a> = Vec<(&'a Record, &'a Record)>;

/// One side's charged seconds of each repeat of each instance, those of solved runs
/// divided by `factor` (failures stay at their limit).
fn side_times(per: &[Repeats], new: bool, factor: f64) -> Vec<Vec<f64>> {
    per.iter()
        .map(|rs| {
            rs.iter()
                .map(|p| {
                    let r = pick(p, new);
                    if succeeded(r) {
                        charged_seconds(r) / factor
                    } else {
                        charged_seconds(r)
                    }
                })
                .collect()
        })
        .collect()
}

/// A configuration's time ratio NEW/OLD ([`ConfigDiff::time_ratio`]).
fn time_ratio(per: &[Repeats]) -> Option<f64> {
    let ratios: Vec<f64> = per
        .iter()
        .filter_map(|rs| {
            let time = |new: bool| {
                let ok = rs.iter().filter(|p| succeeded(pick(p, new))).count();
                let times: Vec<f64> = rs.iter().map(|p| charged_seconds(pick(p, new))).collect();
                let t = median(&times)?;
                (instance_solved(ok, rs.len()) && t >= TOO_FAST).then_some(t)
            };
            Some(time(true)? / time(false)?)
        })
        .filter(|r| r.is_finite())
        .collect();
    median(&ratios)
}

fn instance_key(r: &Record) -> InstanceKey {
    (
        r.instance.clone(),
        r.instance_info.clone(),
        r.time_limit.map(|t| (t * 1000.0).round() as u64),
    )
}

fn run_name(r: &Record) -> RunName {
    RunName {
        run_id: r.run_id.clone(),
        key: ConfigKey::of(r),
        instance: r.instance.clone(),
        repeat: r.repeat,
    }
}

/// NEW's row of a matched pair when `new`, else OLD's.
fn pick<'a>(pair: &(&'a Record, &'a Record), new: bool) -> &'a Record {
    if new {
        pair.1
    } else {
        pair.0
    }
}

/// A run's outcome in a few words: its status, and the verifier's refusal where it refused.
fn outcome(r: &Record) -> String {
    if r.solved() && r.verified != Some(true) {
        format!("{}, refused by the verifier", r.status)
    } else {
        r.status.clone()
    }
}

/// The instances (puzzle, name, facts, formulation) whose answer is known to be unique in
/// `rows`: a settled count of one verified solution, or `unique=yes` among the facts.
fn unique_instances<'a>(
    rows: impl Iterator<Item = &'a Record>,
) -> BTreeSet<(String, String, String, String)> {
    rows.filter(|r| r.count >= 2 && r.status == "optimal" && r.solutions == Some(1) && succeeded(r))
        .map(|r| {
            (
                r.puzzle.clone(),
                r.instance.clone(),
                r.instance_info.clone(),
                r.formulation.clone(),
            )
        })
        .collect()
}

/// True when both rows claim a proven optimum (status `optimal` with no MIP gap allowed)
/// and give an objective.
fn exact_optima(a: &Record, b: &Record) -> bool {
    [a, b].iter().all(|r| {
        r.status == "optimal" && r.mip_gap.is_none_or(|g| g == 0.0) && r.objective.is_some()
    })
}

/// Why the answers of one run on the two sides cannot both be right, if they cannot.
/// `unique` says whether the run's answer is known to be unique.
fn differing(a: &Record, b: &Record, unique: bool) -> Option<String> {
    if !(succeeded(a) && succeeded(b) && a.solved() && b.solved()) {
        return None;
    }
    if let (true, Some(x), Some(y)) = (exact_optima(a, b), a.objective, b.objective) {
        if (x - y).abs() > OBJECTIVE_TOLERANCE * x.abs().max(y.abs()).max(1.0) {
            return Some(format!("optimal objective {x} in OLD, {y} in NEW"));
        }
    }
    if let (true, "optimal", "optimal", Some(x), Some(y)) = (
        a.count >= 2,
        a.status.as_str(),
        b.status.as_str(),
        a.solutions,
        b.solutions,
    ) {
        if x != y {
            return Some(format!("settled count of {x} solutions in OLD, {y} in NEW"));
        }
    }
    let hashes = !a.answer_hash.is_empty() && !b.answer_hash.is_empty();
    if unique && hashes && a.answer_hash != b.answer_hash {
        return Some(format!(
            "answer {} in OLD, {} in NEW, on an instance with one solution",
            a.answer_hash, b.answer_hash
        ));
    }
    None
}

/// The machines, engine versions and commits of `side`'s rows.
fn provenance(side: &Side) -> Provenance {
    let records: HashMap<&str, &SweepRecord> = side
        .sweeps
        .iter()
        .map(|s| (s.machine_id.as_str(), s))
        .collect();
    let mut p = Provenance::default();
    let mut seen = BTreeSet::new();
    for r in &side.rows {
        if !r.solver_version.is_empty() {
            p.engines
                .entry(r.backend.clone())
                .or_default()
                .insert(r.solver_version.clone());
        }
        if !r.git_commit.is_empty() {
            p.commits.insert(r.git_commit.clone());
        }
        let key = if r.machine.is_empty() {
            format!("host {}", r.host)
        } else {
            r.machine.clone()
        };
        if seen.insert(key.clone()) {
            p.machines.push(match records.get(r.machine.as_str()) {
                Some(s) => format!("{} ({})", s.machine.describe(), s.machine_id),
                None if r.machine.is_empty() => {
                    format!("host {} (no machine record)", r.host)
                }
                None => format!(
                    "host {}, machine {} (no record in the sweep file)",
                    r.host, r.machine
                ),
            });
            p.machine_keys.insert(key);
        }
    }
    p
}

/// Compares `old` with `new` (rows already the last attempts), with shift `shift` for the
/// shifted geometric means, judging the configurations against the machine factor
/// estimated when the machines differ. Fails when they share no run id.
pub fn compare(old: &Side, new: &Side, shift: f64) -> Result<Diff, String> {
    compare_with_factor(old, new, shift, None)
}

/// [`compare`], judging the configurations against `given` when it is some (a factor
/// above 0: NEW's times of solved runs are divided by it before the verdict).
pub fn compare_with_factor(
    old: &Side,
    new: &Side,
    shift: f64,
    given: Option<f64>,
) -> Result<Diff, String> {
    let by_id: HashMap<&str, &Record> = new
        .rows
        .iter()
        .filter(|r| !r.run_id.is_empty())
        .map(|r| (r.run_id.as_str(), r))
        .collect();
    let pairs: Vec<(&Record, &Record)> = old
        .rows
        .iter()
        .filter_map(|a| Some((a, *by_id.get(a.run_id.as_str())?)))
        .collect();
    if pairs.is_empty() {
        return Err(format!(
            "{} and {} share no run id: they hold no run of the same instance, formulation, engine, settings, time limit and repeat, so there is nothing to compare",
            old.path.display(),
            new.path.display()
        ));
    }
    let unique = unique_instances(old.rows.iter().chain(&new.rows).filter(|r| !r.is_refused()));
    let is_unique = |r: &Record| {
        info_value(&r.instance_info, "unique") == Some("yes")
            || unique.contains(&(
                r.puzzle.clone(),
                r.instance.clone(),
                r.instance_info.clone(),
                r.formulation.clone(),
            ))
    };
    let mut d = Diff {
        old_path: old.path.clone(),
        new_path: new.path.clone(),
        runs: (old.rows.len(), new.rows.len()),
        set_aside: (old.set_aside, new.set_aside),
        shared: pairs.len(),
        old: provenance(old),
        new: provenance(new),
        shift,
        ..Diff::default()
    };
    let mut grouped: BTreeMap<ConfigKey, BTreeMap<InstanceKey, Repeats>> = BTreeMap::new();
    let mut changes: HashMap<ConfigKey, (usize, usize)> = HashMap::new();
    for &(a, b) in &pairs {
        if a.is_refused() || b.is_refused() || a.is_capped() || b.is_capped() {
            let why = |r: &Record| match (&r.error, r.cap_seconds) {
                (Some(e), _) if r.is_refused() => format!("refused: {e}"),
                (_, Some(c)) if r.is_capped() => format!("capped at {c:.3} s by its race"),
                _ => r.status.clone(),
            };
            d.refused.push((run_name(a), why(a), why(b)));
            continue;
        }
        let key = ConfigKey::of(a);
        let counts = changes.entry(key.clone()).or_default();
        if succeeded(a) != succeeded(b) {
            counts.0 += 1;
            d.status_changes.push(StatusChange {
                run: run_name(a),
                old: outcome(a),
                new: outcome(b),
                lost: succeeded(a),
            });
        }
        let both = succeeded(a) && succeeded(b) && a.solved() && b.solved();
        if both && exact_optima(a, b) {
            d.compared.0 += 1;
        }
        if both && is_unique(a) && !a.answer_hash.is_empty() && !b.answer_hash.is_empty() {
            d.compared.1 += 1;
        }
        if let Some(what) = differing(a, b, is_unique(a)) {
            counts.1 += 1;
            d.differing.push(DifferingAnswer {
                run: run_name(a),
                what,
            });
        }
        grouped
            .entry(key)
            .or_default()
            .entry(instance_key(a))
            .or_default()
            .push((a, b));
    }
    let grouped: Vec<(ConfigKey, Vec<Repeats>)> = grouped
        .into_iter()
        .map(|(key, per)| (key, per.into_values().collect()))
        .collect();
    let ratios: Vec<Option<f64>> = grouped.iter().map(|(_, per)| time_ratio(per)).collect();
    d.estimate = MachineFactor::estimate(&ratios.iter().flatten().copied().collect::<Vec<_>>());
    (d.factor, d.factor_from) = match (given, &d.estimate) {
        (Some(f), _) => (f, FactorFrom::Given),
        _ if d.old.machine_keys == d.new.machine_keys => (1.0, FactorFrom::SameMachines),
        (None, Some(m)) => (m.median, FactorFrom::Estimated),
        (None, None) => (1.0, FactorFrom::NoEstimate),
    };
    for ((key, per), time_ratio) in grouped.into_iter().zip(ratios) {
        let solved = |new: bool| {
            per.iter()
                .filter(|rs| {
                    instance_solved(
                        rs.iter().filter(|p| succeeded(pick(p, new))).count(),
                        rs.len(),
                    )
                })
                .count()
        };
        let solved = (solved(false), solved(true));
        let old_times = side_times(&per, false, 1.0);
        let p = judge(&old_times, &side_times(&per, true, 1.0), solved, shift);
        let adjusted = if d.factor == 1.0 {
            p.clone()
        } else {
            judge(&old_times, &side_times(&per, true, d.factor), solved, shift)
        };
        let change = match adjusted.lean {
            // OLD is A, NEW is B: OLD ahead is a regression.
            Lean::AMoreSolved | Lean::AFaster => Change::Regression,
            Lean::BMoreSolved | Lean::BFaster => Change::Improvement,
            Lean::WithinNoise => Change::WithinNoise,
            Lean::NoVerdict => Change::NoVerdict,
        };
        let (status_changes, differing_answers) = changes.get(&key).copied().unwrap_or_default();
        d.configs.push(ConfigDiff {
            instances: per.len(),
            old_solved: solved.0,
            new_solved: solved.1,
            old_sgm: p.sgm_a,
            new_sgm: p.sgm_b,
            old_median: p.median_a,
            new_median: p.median_b,
            ratio: p.ratio,
            interval: p.interval,
            time_ratio,
            adjusted_ratio: adjusted.ratio,
            adjusted_interval: adjusted.interval,
            change,
            status_changes,
            differing_answers,
            key,
        });
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(run_id: &str, instance: &str, repeat: u32, seconds: f64) -> Record {
        Record {
            run_id: run_id.into(),
            puzzle: "sudoku".into(),
            instance: instance.into(),
            formulation: "binary".into(),
            backend: "highs".into(),
            repeat,
            count: 1,
            status: "optimal".into(),
            verified: Some(true),
            seconds: Some(seconds),
            time_limit: Some(10.0),
            objective: Some(0.0),
            answer_hash: "aaaa".into(),
            ..Record::default()
        }
    }

    fn side(rows: Vec<Record>) -> Side {
        Side {
            path: "x.csv".into(),
            rows,
            ..Side::default()
        }
    }

    fn base() -> Vec<Record> {
        (0..12)
            .map(|i| {
                row(
                    &format!("r{i}"),
                    &format!("i{i}"),
                    1,
                    0.05 + 0.01 * i as f64,
                )
            })
            .collect()
    }

    #[test]
    fn the_same_rows_are_within_noise_and_twice_the_time_a_regression() {
        let d = compare(&side(base()), &side(base()), 0.01).unwrap();
        assert_eq!(d.configs.len(), 1);
        assert_eq!(d.configs[0].change, Change::WithinNoise);
        assert_eq!(d.configs[0].ratio, 1.0);
        let slow: Vec<Record> = base()
            .into_iter()
            .map(|r| Record {
                seconds: r.seconds.map(|s| 2.0 * s),
                ..r
            })
            .collect();
        let d = compare(&side(base()), &side(slow.clone()), 0.01).unwrap();
        let c = &d.configs[0];
        assert_eq!(c.change, Change::Regression, "{c:?}");
        assert!(c.interval.0 > 1.5 && c.ratio > 1.7, "{c:?}");
        let d = compare(&side(slow), &side(base()), 0.01).unwrap();
        assert_eq!(d.configs[0].change, Change::Improvement);
    }

    #[test]
    fn fewer_solved_is_a_regression_whatever_the_times_and_under_a_millisecond_no_verdict() {
        let fast: Vec<Record> = base()
            .into_iter()
            .map(|r| Record {
                seconds: Some(1e-4),
                ..r
            })
            .collect();
        let mut failed = fast.clone();
        failed[3].status = "time_limit".into();
        failed[3].verified = None;
        failed[3].seconds = Some(1e-4);
        let d = compare(&side(fast.clone()), &side(failed), 0.01).unwrap();
        assert_eq!(d.configs[0].change, Change::Regression);
        assert_eq!(d.status_changes.len(), 1);
        assert!(d.status_changes[0].lost);
        let mut slower = fast.clone();
        for r in &mut slower {
            r.seconds = Some(5e-4);
        }
        let d = compare(&side(fast), &side(slower), 0.01).unwrap();
        assert_eq!(d.configs[0].change, Change::NoVerdict);
        // One instance, one run a side: a ratio with nothing to judge its noise by.
        let one = vec![row("r", "i", 1, 1.0)];
        let twice = vec![row("r", "i", 1, 2.0)];
        let d = compare(&side(one), &side(twice), 0.01).unwrap();
        assert_eq!(d.configs[0].change, Change::NoVerdict);
    }

    #[test]
    fn refused_runs_enter_no_statistic() {
        let mut new = base();
        new[0].status = "refused".into();
        new[0].error = Some("unsupported by highs".into());
        let d = compare(&side(base()), &side(new), 0.01).unwrap();
        assert_eq!(d.refused.len(), 1);
        assert_eq!(d.configs[0].instances, 11);
        assert!(d.status_changes.is_empty());
        assert_eq!(d.configs[0].change, Change::WithinNoise);
    }

    #[test]
    fn answers_differ_by_objective_by_count_and_by_hash_only_where_unique() {
        let mut new = base();
        new[1].objective = Some(1.0);
        new[2].answer_hash = "bbbb".into();
        // Floating-point noise in an optimum is no difference.
        new[4].objective = Some(1e-9);
        let d = compare(&side(base()), &side(new.clone()), 0.01).unwrap();
        assert_eq!(d.differing.len(), 1, "{:?}", d.differing);
        assert_eq!(d.differing[0].run.instance, "i1");
        // A counting run proves i2 unique for binary: now its hashes must agree.
        let mut counted = row("c2", "i2", 1, 0.1);
        counted.count = 2;
        counted.solutions = Some(1);
        let mut old = base();
        old.push(counted.clone());
        let d = compare(&side(old.clone()), &side(new.clone()), 0.01).unwrap();
        let names: Vec<&str> = d
            .differing
            .iter()
            .map(|x| x.run.instance.as_str())
            .collect();
        assert_eq!(names, ["i1", "i2"]);
        assert_eq!(d.compared, (12, 1), "twelve optima, and i2 by hash");
        assert!(d.differing[1].what.contains("bbbb"), "{:?}", d.differing);
        // The proof counts for its formulation only.
        let mut other = counted.clone();
        other.formulation = "values".into();
        let mut old2 = base();
        old2.push(other);
        let d = compare(&side(old2), &side(new.clone()), 0.01).unwrap();
        assert_eq!(d.differing.len(), 1);
        // unique=yes among the facts is known uniqueness too.
        let mark = |rs: Vec<Record>| -> Vec<Record> {
            rs.into_iter()
                .map(|r| Record {
                    instance_info: "unique=yes".into(),
                    ..r
                })
                .collect()
        };
        let d = compare(&side(mark(base())), &side(mark(new)), 0.01).unwrap();
        assert_eq!(d.differing.len(), 2);
        // Counts that differ, both settled.
        let mut two = counted.clone();
        two.solutions = Some(2);
        let d = compare(&side(vec![counted]), &side(vec![two]), 0.01).unwrap();
        assert!(d.differing[0].what.contains("count"), "{:?}", d.differing);
    }

    #[test]
    fn the_factors_interval_is_the_sign_tests_order_statistics() {
        // n = 10: P(Bin(10, ½) ≤ 1) = 11/1024 ≤ 2.5 % < P(≤ 2) = 56/1024, so the 2nd
        // smallest to the 2nd largest.
        let ten: Vec<f64> = (1..=10).rev().map(f64::from).collect();
        let m = MachineFactor::estimate(&ten).unwrap();
        assert_eq!(
            (m.median, m.interval, m.configurations),
            (5.5, (2.0, 9.0), 10)
        );
        assert!((m.coverage - (1.0 - 22.0 / 1024.0)).abs() < 1e-12, "{m:?}");
        // 233 values: the sign test's k = 102 (normal approximation 101.5); the terms of
        // ½²³³ do not underflow.
        let many: Vec<f64> = (1..=233).map(f64::from).collect();
        let m = MachineFactor::estimate(&many).unwrap();
        assert_eq!((m.median, m.interval), (117.0, (102.0, 132.0)));
        assert!(m.coverage >= 0.95 && m.coverage < 0.96, "{m:?}");
        // Under 6: the whole range, and what it covers; what is not a ratio is left out.
        let m = MachineFactor::estimate(&[2.0, f64::NAN, 1.0, -1.0, 4.0, 3.0, 0.0]).unwrap();
        assert_eq!(
            (m.median, m.interval, m.configurations),
            (2.5, (1.0, 4.0), 4)
        );
        assert_eq!(m.coverage, 1.0 - 2.0 / 16.0);
        assert!(m.interval_text(|x| x).contains("coverage 88 %"));
        assert_eq!(MachineFactor::estimate(&[f64::INFINITY]), None);
        assert_eq!(MachineFactor::estimate(&[]), None);
    }

    /// Five configurations of `base()`'s twelve instances on machine `machine`, each
    /// configuration's times times `scale(formulation)`.
    fn machine_rows(machine: &str, scale: impl Fn(&str) -> f64) -> Vec<Record> {
        let mut rows = Vec::new();
        for f in ["a", "b", "c", "d", "e"] {
            for r in base() {
                rows.push(Record {
                    run_id: format!("{}{f}", r.run_id),
                    formulation: f.to_string(),
                    seconds: r.seconds.map(|s| s * scale(f)),
                    machine: machine.into(),
                    ..r
                });
            }
        }
        rows
    }

    #[test]
    fn across_machines_a_configuration_is_flagged_only_when_it_moved_apart_from_the_rest() {
        let old = side(machine_rows("m1", |_| 1.0));
        // Every time doubled on another machine: the factor is 2, nothing is flagged.
        let d = compare(&old, &side(machine_rows("m2", |_| 2.0)), 0.01).unwrap();
        let m = d.estimate.clone().unwrap();
        assert_eq!(
            (m.median, m.interval, m.configurations),
            (2.0, (2.0, 2.0), 5)
        );
        assert_eq!((d.factor, d.factor_from), (2.0, FactorFrom::Estimated));
        for c in &d.configs {
            assert_eq!(c.change, Change::WithinNoise, "{c:?}");
            assert_eq!((c.adjusted_ratio, c.time_ratio), (1.0, Some(2.0)));
            // The plain ratio is the shifted one, below 2.
            assert!(c.ratio > 1.8 && c.ratio < 2.0, "{c:?}");
        }
        assert!(
            d.factor_line()
                .starts_with("NEW's machine is 2.00× slower (range 2.00–2.00"),
            "{}",
            d.factor_line()
        );
        // One configuration 3× slower again: it alone is flagged.
        let slow = |f: &str| if f == "c" { 6.0 } else { 2.0 };
        let d = compare(&old, &side(machine_rows("m2", slow)), 0.01).unwrap();
        assert_eq!(d.factor, 2.0);
        let flagged: Vec<&str> = d
            .with(Change::Regression)
            .iter()
            .map(|c| c.key.formulation.as_str())
            .collect();
        assert_eq!(flagged, ["c"]);
        assert!(d.with(Change::Improvement).is_empty());
        let c = d.with(Change::Regression)[0];
        assert!(c.adjusted_interval.0 > 2.5, "{c:?}");
        assert!(d.config_line(c).contains("÷ machine factor 2.00: "));
        // A NEW machine twice as fast.
        let d = compare(&old, &side(machine_rows("m2", |_| 0.5)), 0.01).unwrap();
        assert_eq!(d.factor, 0.5);
        assert!(d.with(Change::Improvement).is_empty());
        assert!(d.factor_line().starts_with("NEW's machine is 2.00× faster"));
        // --machine-factor 1: the plain ratios, every configuration a regression.
        let d =
            compare_with_factor(&old, &side(machine_rows("m2", |_| 2.0)), 0.01, Some(1.0)).unwrap();
        assert_eq!(d.with(Change::Regression).len(), 5);
        assert!(d.factor_line().contains("of --machine-factor"));
        // On the same machine the factor is 1 and only printed.
        let d = compare(&old, &side(machine_rows("m1", |_| 2.0)), 0.01).unwrap();
        assert_eq!((d.factor, d.factor_from), (1.0, FactorFrom::SameMachines));
        assert_eq!(d.with(Change::Regression).len(), 5);
        assert!(
            d.factor_line()
                .starts_with("The median time ratio NEW/OLD is 2.00"),
            "{}",
            d.factor_line()
        );
    }

    #[test]
    fn files_that_share_no_run_are_refused() {
        let mut other = base();
        for r in &mut other {
            r.run_id.push('x');
        }
        let e = compare(&side(base()), &side(other), 0.01).unwrap_err();
        assert!(e.contains("share no run id"), "{e}");
    }

    #[test]
    fn the_csv_has_exactly_the_columns_and_one_row_per_configuration() {
        let mut new = base();
        new.push(Record {
            run_id: "z".into(),
            presolve: Some(false),
            ..row("z", "i0", 1, 0.1)
        });
        let mut old = base();
        old.push(new.last().unwrap().clone());
        let d = compare(&side(old), &side(new), 0.01).unwrap();
        let text = d.to_csv().unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), CSV_COLUMNS.join(","));
        let rows: Vec<&str> = lines.collect();
        assert_eq!(rows.len(), 2);
        assert!(
            rows[1].starts_with("sudoku,binary,highs,nopresolve,1,"),
            "{}",
            rows[1]
        );
    }
}
