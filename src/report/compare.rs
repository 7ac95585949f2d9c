//! Pairwise comparisons of configurations, with the run-to-run noise measured from
//! repeats: a difference smaller than that noise is flagged "within noise" instead of
//! naming a winner, the way hyperfine reports a relative speed with its ± figure.
//!
//! A configuration is a (formulation, engine label) of one puzzle. Two configurations are
//! compared when they differ in exactly one of the two (the same engine and settings on two
//! formulations, or one formulation on two engines or settings), over the instances both
//! ran at the same time limit. A pair that differs in both is not compared: its difference
//! could come from either.

use crate::record::Record;
use crate::stats::{charged_seconds, coefficient_of_variation, median, succeeded};
use crate::table::{significant, Table};
use std::collections::{BTreeMap, BTreeSet};

/// Times below this (in seconds) count as this in ratios, so that a run recorded at zero
/// seconds gives a finite ratio.
const TIME_FLOOR: f64 = 1e-6;

/// What two configurations differ in.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Varied {
    /// The formulations differ; the engine label, held fixed, is the one given.
    Formulation {
        /// The engine label both ran on.
        backend: String,
    },
    /// The engine labels differ; the formulation, held fixed, is the one given.
    Backend {
        /// The formulation both ran.
        formulation: String,
    },
}

/// The verdict on a pair.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// A is faster by this factor (above 1), beyond the measured noise.
    AFaster(f64),
    /// B is faster by this factor (above 1), beyond the measured noise.
    BFaster(f64),
    /// The difference is within the run-to-run variation.
    WithinNoise,
    /// One side (or both) ran once on the common instances: no variation to compare with.
    NoiseNotMeasured,
}

/// One compared pair of configurations of a puzzle, A before B in sorted order.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Puzzle key.
    pub puzzle: String,
    /// What the pair differs in (and what it holds fixed).
    pub varied: Varied,
    /// Configuration A: (formulation, engine label).
    pub a: (String, String),
    /// Configuration B: (formulation, engine label).
    pub b: (String, String),
    /// Instances both ran at the same time limit.
    pub instances: usize,
    /// Runs of A on those instances, and how many succeeded.
    pub runs_a: (usize, usize),
    /// Runs of B on those instances, and how many succeeded.
    pub runs_b: (usize, usize),
    /// B's time over A's: the geometric mean over the common instances of the per-instance
    /// ratio of median charged times (below 1: B faster).
    pub ratio: f64,
    /// Repeat variation of A on the common instances (`None`: one repeat).
    pub cv_a: Option<f64>,
    /// Repeat variation of B on the common instances (`None`: one repeat).
    pub cv_b: Option<f64>,
    /// The larger of the two sides' median times over the common instances (seconds):
    /// under [`SHOWN_FROM`] the pair is too fast to inform.
    pub slower_median: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// Pairs whose slower side's median time is under this (seconds) are left out of the
/// table (they stay in the CSV): below a millisecond, timer resolution and process noise
/// decide the order.
pub const SHOWN_FROM: f64 = 1e-3;

/// Pairs the table shows per puzzle and kind (formulations compared, engines compared),
/// the largest effects first; the CSV holds every pair.
pub const SHOWN_PER_KIND: usize = 3;

impl Comparison {
    /// The size of the effect: |ln(B/A)|, the same for a factor either way.
    pub fn effect(&self) -> f64 {
        self.ratio.ln().abs()
    }
}

impl Comparison {
    /// The part of A that differs from B (its formulation or its engine label).
    pub fn a_name(&self) -> &str {
        match self.varied {
            Varied::Formulation { .. } => &self.a.0,
            Varied::Backend { .. } => &self.a.1,
        }
    }

    /// The part of B that differs from A (its formulation or its engine label).
    pub fn b_name(&self) -> &str {
        match self.varied {
            Varied::Formulation { .. } => &self.b.0,
            Varied::Backend { .. } => &self.b.1,
        }
    }

    /// The verdict as the table prints it, naming the faster configuration.
    pub fn verdict_text(&self) -> String {
        match self.verdict {
            Verdict::AFaster(r) => format!("{} faster (×{})", self.a_name(), significant(r)),
            Verdict::BFaster(r) => format!("{} faster (×{})", self.b_name(), significant(r)),
            Verdict::WithinNoise => "within noise".into(),
            Verdict::NoiseNotMeasured => "noise not measured (one repeat)".into(),
        }
    }
}

/// The verdict on a pair whose time ratio B/A is `ratio`, given the repeat variation
/// (coefficient of variation, standard deviation over mean) of each side.
///
/// Why the rule: a time measured with relative standard deviation `cv` has
/// sd(ln t) ≈ cv to first order, and the log of a ratio of two independent times is the
/// difference of their logs, so sd(ln(B/A)) ≈ sqrt(cv_A² + cv_B²): the first-order
/// propagation of relative standard deviations through a quotient that hyperfine uses
/// for the ± of its relative speeds (it assumes the two independent too). A difference
/// within twice that (about a 95% band for normal noise) is one that repeating the runs
/// could plausibly reverse, so no winner is named:
///
/// * `NoiseNotMeasured` when either variation is unknown (one repeat);
/// * `WithinNoise` when |ln ratio| ≤ 2·sqrt(cv_A² + cv_B²) (the boundary, and an exact
///   tie with no variation at all, count as noise);
/// * else `AFaster(ratio)` or `BFaster(1 / ratio)`.
///
/// The band is that of a single instance's ratio, not narrowed by the number of
/// instances: noise on one machine is often shared by runs close in time (load, clock
/// speed), so the per-instance ratios are not independent draws.
pub fn verdict(ratio: f64, cv_a: Option<f64>, cv_b: Option<f64>) -> Verdict {
    let (Some(a), Some(b)) = (cv_a, cv_b) else {
        return Verdict::NoiseNotMeasured;
    };
    let noise = 2.0 * (a * a + b * b).sqrt();
    if ratio.ln().abs() <= noise {
        Verdict::WithinNoise
    } else if ratio > 1.0 {
        Verdict::AFaster(ratio)
    } else {
        Verdict::BFaster(1.0 / ratio)
    }
}

/// The runs of one configuration on one instance at one time limit.
#[derive(Default)]
struct Runs {
    /// Charged seconds of each repeat.
    times: Vec<f64>,
    /// Repeats that succeeded.
    solved: usize,
}

impl Runs {
    /// The median charged time, floored.
    fn time(&self) -> f64 {
        median(&self.times).unwrap_or(0.0).max(TIME_FLOOR)
    }

    /// The coefficient of variation of the charged times (sample standard deviation over
    /// mean), when there are two repeats or more and a positive mean.
    fn cv(&self) -> Option<f64> {
        coefficient_of_variation(&self.times)
    }
}

/// Instance name and time limit (as bits, so that it orders).
type InstanceKey = (String, Option<u64>);
/// Formulation and engine label.
type Config = (String, String);

/// Every pair of configurations of each puzzle that differ in exactly one of formulation
/// and engine label and ran at least one common instance (same name, same time limit),
/// ordered by puzzle, then formulation comparisons before engine comparisons, then what is
/// held fixed, then A and B.
///
/// Each instance's time on a side is the median over its repeats of
/// [`charged_seconds`] (failed runs at the time limit); an instance that neither side
/// solved in any repeat counts as a tie (ratio 1), since the times past the limit say
/// nothing about speed. The repeat variation of a side is the median over the common
/// instances (those with two repeats or more) of the coefficient of variation of its
/// charged times across repeats. The verdict is [`verdict`]'s.
pub fn comparisons(rows: &[Record]) -> Vec<Comparison> {
    let mut by_puzzle: BTreeMap<&str, BTreeMap<Config, BTreeMap<InstanceKey, Runs>>> =
        BTreeMap::new();
    for r in rows {
        let runs = by_puzzle
            .entry(r.puzzle.as_str())
            .or_default()
            .entry((r.formulation.clone(), r.backend_label()))
            .or_default()
            .entry((r.instance.clone(), r.time_limit.map(f64::to_bits)))
            .or_default();
        runs.times.push(charged_seconds(r));
        runs.solved += usize::from(succeeded(r));
    }
    let mut out = Vec::new();
    for (puzzle, configs) in &by_puzzle {
        let configs: Vec<(&Config, &BTreeMap<InstanceKey, Runs>)> = configs.iter().collect();
        for (i, (a, runs_a)) in configs.iter().enumerate() {
            for (b, runs_b) in &configs[i + 1..] {
                let varied = match (a.0 == b.0, a.1 == b.1) {
                    (false, true) => Varied::Formulation {
                        backend: a.1.clone(),
                    },
                    (true, false) => Varied::Backend {
                        formulation: a.0.clone(),
                    },
                    _ => continue,
                };
                if let Some(c) = compare(puzzle, varied, a, runs_a, b, runs_b) {
                    out.push(c);
                }
            }
        }
    }
    out.sort_by(|x, y| (&x.puzzle, &x.varied, &x.a, &x.b).cmp(&(&y.puzzle, &y.varied, &y.a, &y.b)));
    out
}

/// The comparison of A and B over their common instances; `None` when they have none.
fn compare(
    puzzle: &str,
    varied: Varied,
    a: &Config,
    runs_a: &BTreeMap<InstanceKey, Runs>,
    b: &Config,
    runs_b: &BTreeMap<InstanceKey, Runs>,
) -> Option<Comparison> {
    let common: BTreeSet<&InstanceKey> =
        runs_a.keys().filter(|k| runs_b.contains_key(*k)).collect();
    if common.is_empty() {
        return None;
    }
    let mut log_sum = 0.0;
    let (mut cvs_a, mut cvs_b) = (Vec::new(), Vec::new());
    let (mut tally_a, mut tally_b) = ((0, 0), (0, 0));
    let (mut times_a, mut times_b) = (Vec::new(), Vec::new());
    for k in &common {
        let (ra, rb) = (&runs_a[*k], &runs_b[*k]);
        times_a.push(ra.time());
        times_b.push(rb.time());
        if ra.solved > 0 || rb.solved > 0 {
            log_sum += (rb.time() / ra.time()).ln();
        }
        cvs_a.extend(ra.cv());
        cvs_b.extend(rb.cv());
        tally_a = (tally_a.0 + ra.times.len(), tally_a.1 + ra.solved);
        tally_b = (tally_b.0 + rb.times.len(), tally_b.1 + rb.solved);
    }
    let ratio = (log_sum / common.len() as f64).exp();
    let (cv_a, cv_b) = (median(&cvs_a), median(&cvs_b));
    Some(Comparison {
        puzzle: puzzle.to_string(),
        varied,
        a: a.clone(),
        b: b.clone(),
        instances: common.len(),
        runs_a: tally_a,
        runs_b: tally_b,
        ratio,
        cv_a,
        cv_b,
        slower_median: median(&times_a)
            .unwrap_or(0.0)
            .max(median(&times_b).unwrap_or(0.0)),
        verdict: verdict(ratio, cv_a, cv_b),
    })
}

/// A coefficient of variation as a percentage: one decimal below 10% (small variations
/// decide verdicts), none above; "–" when not measured.
fn percent(cv: Option<f64>) -> String {
    match cv {
        None => "–".into(),
        Some(c) if c < 0.1 => format!("{:.1}%", c * 100.0),
        Some(c) => format!("{:.0}%", c * 100.0),
    }
}

/// The pairs the table shows: per puzzle and kind (formulations compared, engines
/// compared), the [`SHOWN_PER_KIND`] largest effects among the pairs whose slower side
/// takes [`SHOWN_FROM`] or more; in the order of [`comparisons`] by puzzle and kind, the
/// largest effect first within each.
pub fn shown(all: &[Comparison]) -> Vec<&Comparison> {
    let kind = |c: &Comparison| matches!(c.varied, Varied::Backend { .. });
    let mut groups: BTreeMap<(&str, bool), Vec<&Comparison>> = BTreeMap::new();
    for c in all.iter().filter(|c| c.slower_median >= SHOWN_FROM) {
        groups.entry((&c.puzzle, kind(c))).or_default().push(c);
    }
    groups
        .into_values()
        .flat_map(|mut g| {
            g.sort_by(|x, y| y.effect().total_cmp(&x.effect()));
            g.truncate(SHOWN_PER_KIND);
            g
        })
        .collect()
}

/// What a pair holds fixed, as the table and the CSV say it.
fn fixed(c: &Comparison) -> String {
    match &c.varied {
        Varied::Formulation { backend } => format!("backend {backend}"),
        Varied::Backend { formulation } => format!("formulation {formulation}"),
    }
}

/// Writes every pair of [`comparisons`] as CSV to `path`: puzzle, what is held fixed, A,
/// B, common instances, runs and successes of each side, the ratio B/A, the variations,
/// the slower side's median and the verdict.
pub fn write_csv(all: &[Comparison], path: &std::path::Path) -> Result<(), String> {
    let err = |e: csv::Error| format!("{}: {e}", path.display());
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    w.write_record([
        "puzzle",
        "held_fixed",
        "a",
        "b",
        "instances",
        "runs_a",
        "solved_a",
        "runs_b",
        "solved_b",
        "ratio_b_over_a",
        "cv_a",
        "cv_b",
        "slower_median_seconds",
        "verdict",
    ])
    .map_err(err)?;
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for c in all {
        w.write_record([
            c.puzzle.clone(),
            fixed(c),
            c.a_name().to_string(),
            c.b_name().to_string(),
            c.instances.to_string(),
            c.runs_a.0.to_string(),
            c.runs_a.1.to_string(),
            c.runs_b.0.to_string(),
            c.runs_b.1.to_string(),
            c.ratio.to_string(),
            opt(c.cv_a),
            opt(c.cv_b),
            c.slower_median.to_string(),
            c.verdict_text(),
        ])
        .map_err(err)?;
    }
    w.flush().map_err(|e| format!("{}: {e}", path.display()))
}

/// The comparisons table (stem `comparisons`): the pairs of [`shown`] out of `all`, one
/// row each, with what the pair holds fixed, the two sides, the common instances, the
/// runs each solved there, the ratio B/A, the repeat variation of each side and the
/// verdict.
pub fn comparisons_table(all: &[Comparison]) -> Table {
    let shown = shown(all);
    let body = shown
        .iter()
        .map(|c| {
            vec![
                c.puzzle.clone(),
                fixed(c),
                c.a_name().to_string(),
                c.b_name().to_string(),
                c.instances.to_string(),
                format!(
                    "{}/{}; {}/{}",
                    c.runs_a.1, c.runs_a.0, c.runs_b.1, c.runs_b.0
                ),
                significant(c.ratio),
                percent(c.cv_a),
                percent(c.cv_b),
                c.verdict_text(),
            ]
        })
        .collect();
    let count_note = format!(
        "{} of {} pairs shown: per puzzle, the {SHOWN_PER_KIND} largest effects (|ln B/A|) among the pairs of formulations and among the pairs of engines whose slower side's median time is {} ms or more. Every pair is in comparisons.csv beside this table.",
        shown.len(),
        all.len(),
        SHOWN_FROM * 1000.0
    );
    Table {
        stem: "comparisons".into(),
        title: "Pairwise comparisons, with run-to-run noise".into(),
        columns: [
            "puzzle",
            "held fixed",
            "A",
            "B",
            "instances",
            "solved A; B",
            "B/A",
            "CV A",
            "CV B",
            "verdict",
        ]
        .map(String::from)
        .to_vec(),
        rows: body,
        notes: vec![
            count_note,
            "Pairs of configurations of a puzzle that differ in exactly one of formulation and backend (with its settings), over the instances both ran at the same time limit (instances); pairs that differ in both, or share no instance, are left out. solved A; B: runs that succeeded out of runs, on those instances.".into(),
            "B/A: geometric mean over the instances of B's time over A's, each the median over repeats of the charged time: a failed run (time limit, error, solution the verifier refused) counts exactly at its time limit, never at its overrun (the rows keep the overrun); an instance neither side solved in any repeat counts as a tie (ratio 1). Below 1: B faster. It is one factor over all instances; the scatter plots of two formulations show each instance.".into(),
            "CV A, CV B: median over the instances of the coefficient of variation of the charged time across repeats (– with one repeat).".into(),
            "verdict: within noise when |ln(B/A)| ≤ 2 × sqrt(cv_A² + cv_B²), twice the relative standard deviation of a ratio of two noisy times (first-order propagation, as in hyperfine's ± on a relative speed); otherwise the faster side with its factor. With one repeat on either side no winner is named, since the noise is not measured: run with --repeats 3 or more.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of `formulation` on `backend` on `instance`, repeat `repeat`, with a 10 s
    /// limit: solved in `seconds`, or (`seconds` above the limit) a time-limit failure.
    fn run(formulation: &str, backend: &str, instance: &str, repeat: u32, seconds: f64) -> Record {
        let solved = seconds <= 10.0;
        Record {
            puzzle: "sudoku".into(),
            instance: instance.into(),
            formulation: formulation.into(),
            backend: backend.into(),
            repeat,
            time_limit: Some(10.0),
            count: 1,
            status: if solved { "optimal" } else { "time_limit" }.into(),
            verified: solved.then_some(true),
            seconds: Some(seconds),
            ..Record::default()
        }
    }

    /// Runs of one configuration: `times[i]` holds the repeats on instance `i`.
    fn runs(formulation: &str, backend: &str, times: &[&[f64]]) -> Vec<Record> {
        let mut out = Vec::new();
        for (i, reps) in times.iter().enumerate() {
            for (k, &t) in reps.iter().enumerate() {
                out.push(run(formulation, backend, &format!("i{i}"), k as u32 + 1, t));
            }
        }
        out
    }

    #[test]
    fn a_difference_smaller_than_the_variation_is_within_noise() {
        // B is 10% slower on average, but each side varies by about 20% across repeats.
        let mut rows = runs("binary", "highs", &[&[1.0, 1.4, 0.8], &[2.0, 2.8, 1.6]]);
        rows.extend(runs(
            "values",
            "highs",
            &[&[1.1, 1.5, 0.9], &[2.2, 3.0, 1.8]],
        ));
        let c = comparisons(&rows);
        assert_eq!(c.len(), 1);
        let c = &c[0];
        assert_eq!(c.a, ("binary".to_string(), "highs".to_string()));
        assert_eq!(c.instances, 2);
        assert!(c.ratio > 1.05 && c.ratio < 1.15, "{}", c.ratio);
        assert!(c.cv_a.unwrap() > 0.15 && c.cv_b.unwrap() > 0.15, "{c:?}");
        assert_eq!(c.verdict, Verdict::WithinNoise);
        let t = comparisons_table(&comparisons(&rows));
        assert_eq!(t.rows[0][9], "within noise");
        assert_eq!(t.rows[0][1], "backend highs");
    }

    #[test]
    fn a_clear_difference_with_low_variation_names_the_faster_one() {
        // values takes twice as long as binary, with about 1% variation on each side.
        let mut rows = runs("binary", "highs", &[&[1.0, 1.01, 0.99], &[3.0, 3.03, 2.97]]);
        rows.extend(runs(
            "values",
            "highs",
            &[&[2.0, 2.02, 1.98], &[6.0, 6.06, 5.94]],
        ));
        let c = &comparisons(&rows)[0];
        assert!((c.ratio - 2.0).abs() < 1e-9, "{}", c.ratio);
        assert!(matches!(c.verdict, Verdict::AFaster(r) if (r - 2.0).abs() < 1e-9));
        let t = comparisons_table(&comparisons(&rows));
        assert_eq!(t.rows[0][6], "2.00");
        assert_eq!(t.rows[0][9], "binary faster (×2.00)");
        // The other way round, B is named.
        let mut rows = runs("binary", "highs", &[&[4.0, 4.04, 3.96]]);
        rows.extend(runs("values", "highs", &[&[1.0, 1.01, 0.99]]));
        let t = comparisons_table(&comparisons(&rows));
        assert_eq!(t.rows[0][6], "0.250");
        assert_eq!(t.rows[0][9], "values faster (×4.00)");
    }

    #[test]
    fn single_repeats_give_noise_not_measured_but_keep_the_ratio() {
        // Three repeats on A, one on B: a factor of 10, yet no winner without B's noise.
        let mut rows = runs("binary", "highs", &[&[1.0, 1.0, 1.0]]);
        rows.extend(runs("binary", "cbc", &[&[10.0]]));
        let c = &comparisons(&rows)[0];
        assert_eq!(
            c.varied,
            Varied::Backend {
                formulation: "binary".into()
            }
        );
        // Sorted: cbc is A, highs is B.
        assert_eq!(c.a_name(), "cbc");
        assert!((c.ratio - 0.1).abs() < 1e-12);
        assert_eq!(c.cv_a, None);
        assert_eq!(c.cv_b, Some(0.0));
        assert_eq!(c.verdict, Verdict::NoiseNotMeasured);
        let t = comparisons_table(&comparisons(&rows));
        assert_eq!(
            t.rows[0][2..],
            [
                "cbc",
                "highs",
                "1",
                "1/1; 3/3",
                "0.100",
                "–",
                "0.0%",
                "noise not measured (one repeat)"
            ]
        );
    }

    #[test]
    fn pairs_differing_in_formulation_and_backend_are_not_compared() {
        let mut rows = runs("binary", "highs", &[&[1.0, 1.1]]);
        rows.extend(runs("values", "cbc", &[&[5.0, 5.5]]));
        assert!(comparisons(&rows).is_empty());
        assert!(comparisons_table(&comparisons(&rows)).rows.is_empty());
        // Nothing to compare: the report has no comparisons table (but the engines side
        // by side).
        let stems: Vec<String> = crate::report::all_tables(&rows, 1.0, &[])
            .into_iter()
            .map(|t| t.stem)
            .collect();
        assert_eq!(stems, ["summary", "sudoku_backends"]);
        // Add the missing corner: binary on cbc faces both, values on cbc still not highs.
        rows.extend(runs("binary", "cbc", &[&[2.0, 2.2]]));
        let pairs: Vec<(String, String)> = comparisons(&rows)
            .iter()
            .map(|c| (c.a_name().to_string(), c.b_name().to_string()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("binary".to_string(), "values".to_string()),
                ("cbc".to_string(), "highs".to_string())
            ]
        );
    }

    #[test]
    fn settings_make_another_backend_label() {
        // Presolve off is a setting of the same engine: compared as two engines.
        let mut rows = runs("hdc", "highs", &[&[1.0, 1.01]]);
        let mut off = runs("hdc", "highs", &[&[3.0, 3.03]]);
        for r in &mut off {
            r.presolve = Some(false);
        }
        rows.extend(off);
        let t = comparisons_table(&comparisons(&rows));
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][1], "formulation hdc");
        assert_eq!(t.rows[0][9], "highs faster (×3.00)");
    }

    #[test]
    fn failures_are_charged_at_the_limit_and_ties_when_both_fail() {
        // Instance 0: A solves in 1 s, B fails (charged the 10 s limit though it stopped
        // at 10.5 s). Instance 1: both fail, at different overshoots: a tie.
        let mut rows = runs("binary", "highs", &[&[1.0, 1.0], &[10.2, 10.2]]);
        rows.extend(runs("values", "highs", &[&[10.5, 10.5], &[10.9, 10.9]]));
        let c = &comparisons(&rows)[0];
        assert_eq!(c.runs_a, (4, 2));
        assert_eq!(c.runs_b, (4, 0));
        // B/A on instance 0 is 10 / 1 (a failure past its limit is charged the limit, not
        // its overrun), on instance 1 a tie: geometric mean sqrt(10).
        assert!((c.ratio - 10f64.sqrt()).abs() < 1e-12, "{}", c.ratio);
        assert!(matches!(c.verdict, Verdict::AFaster(_)));
        // A failure recorded before its limit is charged the limit, not its own time.
        let mut rows = vec![run("binary", "highs", "x", 1, 2.0)];
        let mut early = run("values", "highs", "x", 1, 0.5);
        early.status = "error".into();
        early.verified = None;
        rows.push(early);
        let c = &comparisons(&rows)[0];
        assert!((c.ratio - 5.0).abs() < 1e-12, "{}", c.ratio);
    }

    #[test]
    fn only_instances_at_the_same_limit_are_common() {
        let mut rows = runs("binary", "highs", &[&[1.0]]);
        let mut other = runs("values", "highs", &[&[2.0]]);
        other[0].time_limit = Some(60.0);
        rows.extend(other.clone());
        assert!(comparisons(&rows).is_empty());
        other[0].time_limit = Some(10.0);
        other[0].instance = "elsewhere".into();
        rows.push(other[0].clone());
        assert!(comparisons(&rows).is_empty());
    }

    #[test]
    fn the_rule_at_its_boundary() {
        // 2·sqrt(0.1² + 0.1²) ≈ 0.283: a ratio of e^0.28 is noise, e^0.29 is not.
        let cv = Some(0.1);
        assert_eq!(verdict(0.28f64.exp(), cv, cv), Verdict::WithinNoise);
        assert!(matches!(
            verdict(0.29f64.exp(), cv, cv),
            Verdict::AFaster(_)
        ));
        assert!(matches!(
            verdict((-0.29f64).exp(), cv, cv),
            Verdict::BFaster(_)
        ));
        // An exact tie with no variation at all is not a win.
        assert_eq!(verdict(1.0, Some(0.0), Some(0.0)), Verdict::WithinNoise);
        assert_eq!(verdict(1.0, Some(0.0), None), Verdict::NoiseNotMeasured);
    }

    #[test]
    fn the_table_shows_the_largest_effects_above_a_millisecond_and_the_csv_every_pair() {
        // Five engines of one formulation, each a factor slower than the one before; the
        // two fastest run in microseconds.
        let mut rows = Vec::new();
        for (e, t) in [
            ("a", 1e-5),
            ("b", 2e-5),
            ("c", 0.01),
            ("d", 0.1),
            ("e", 2.0),
        ] {
            rows.extend(runs("binary", e, &[&[t, t], &[t, t]]));
        }
        let all = comparisons(&rows);
        assert_eq!(all.len(), 10, "every pair of five engines");
        let shown: Vec<(&str, &str)> = shown(&all)
            .iter()
            .map(|c| (c.a_name(), c.b_name()))
            .collect();
        // a–b is under a millisecond on both sides: never shown; the three largest effects
        // of the rest, largest first.
        assert_eq!(shown, [("a", "e"), ("b", "e"), ("a", "d")]);
        let t = comparisons_table(&all);
        assert_eq!(t.rows.len(), 3);
        assert!(
            t.notes[0].starts_with("3 of 10 pairs shown"),
            "{}",
            t.notes[0]
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("comparisons.csv");
        write_csv(&all, &path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 11, "a header and every pair");
        assert!(text.starts_with("puzzle,held_fixed,a,b,instances,"));
    }
}
