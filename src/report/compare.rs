//! Pairwise comparisons of configurations, judged the way the answer judges the best
//! against the runner-up: by the shifted geometric mean (one shift for every table, figure
//! and verdict, `--shift`, default [`crate::stats::DEFAULT_SHIFT`]) and its 95 % bootstrap
//! interval over instances and repeats ([`sgm_ratio_interval`]); a difference whose
//! interval holds 1 is "within noise" instead of naming a winner.
//!
//! A configuration is a (formulation, engine label) of one puzzle. Two configurations are
//! compared when they differ in exactly one of the two (the same engine and settings on two
//! formulations, or one formulation on two engines or settings), over the instances both
//! ran at the same time limit. A pair that differs in both is not compared: its difference
//! could come from either.

use crate::record::Record;
use crate::report::answer::TOO_FAST;
use crate::report::paired::{instance_solved, judge, Lean, Paired};
use crate::stats::{charged_seconds, succeeded};
use crate::table::{seconds, significant, Table};
use std::collections::{BTreeMap, BTreeSet};

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
    /// A solved more of the common instances: ahead whatever the times.
    AMoreSolved,
    /// B solved more of the common instances.
    BMoreSolved,
    /// A is faster by this factor (above 1): the interval of B/A lies above 1.
    AFaster(f64),
    /// B is faster by this factor (above 1): the interval of B/A lies below 1.
    BFaster(f64),
    /// The interval of B/A holds 1: the two cannot be told apart.
    WithinNoise,
    /// Both sides' median times are under [`TOO_FAST`] (timer resolution and process noise
    /// decide), or the pair shares one instance run once on each side (no variation
    /// measured): no verdict.
    NoVerdict,
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
    /// Common instances A solved (more than half of its repeats succeeded).
    pub solved_a: usize,
    /// Common instances B solved.
    pub solved_b: usize,
    /// A's shifted geometric mean over the common instances of its median charged time.
    pub sgm_a: f64,
    /// B's shifted geometric mean, as `sgm_a`.
    pub sgm_b: f64,
    /// B's SGM over A's, shifted: (SGM_B + s) / (SGM_A + s) (below 1: B faster).
    pub ratio: f64,
    /// The 95 % percentile bootstrap interval of `ratio`.
    pub interval: (f64, f64),
    /// The larger of the two sides' median times over the common instances (seconds):
    /// under [`SHOWN_FROM`] the pair is too fast to inform.
    pub slower_median: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// Pairs whose slower side's median time is under this (seconds) are left out of the
/// table (they stay in the CSV): below a millisecond, timer resolution and process noise
/// decide the order.
pub const SHOWN_FROM: f64 = TOO_FAST;

/// Pairs the table shows per puzzle and kind (formulations compared, engines compared),
/// the largest effects first; the CSV holds every pair.
pub const SHOWN_PER_KIND: usize = 3;

impl Comparison {
    /// The size of the effect: |ln(B/A)|, the same for a factor either way.
    pub fn effect(&self) -> f64 {
        self.ratio.ln().abs()
    }

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

    /// The verdict as the table prints it, naming the side ahead.
    pub fn verdict_text(&self) -> String {
        match self.verdict {
            Verdict::AMoreSolved => format!("{} ahead (more solved)", self.a_name()),
            Verdict::BMoreSolved => format!("{} ahead (more solved)", self.b_name()),
            Verdict::AFaster(r) => format!("{} faster (×{})", self.a_name(), significant(r)),
            Verdict::BFaster(r) => format!("{} faster (×{})", self.b_name(), significant(r)),
            Verdict::WithinNoise => "within noise".into(),
            Verdict::NoVerdict => "no verdict".into(),
        }
    }
}

/// The verdict of a pair from what [`judge`] found: the side that solved more common
/// instances is ahead whatever the times; else no verdict when both medians are under
/// [`TOO_FAST`] or the pair rests on one instance run once on each side; else A or B
/// faster by the ratio when the 95 % interval of B/A lies above or below 1, within noise
/// when it holds 1 (the answer's rule, [`crate::report::answer`], for every pair).
fn verdict(p: &Paired) -> Verdict {
    match p.lean {
        Lean::AMoreSolved => Verdict::AMoreSolved,
        Lean::BMoreSolved => Verdict::BMoreSolved,
        Lean::AFaster => Verdict::AFaster(p.ratio),
        Lean::BFaster => Verdict::BFaster(1.0 / p.ratio),
        Lean::WithinNoise => Verdict::WithinNoise,
        Lean::NoVerdict => Verdict::NoVerdict,
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
    /// Solved: more than half of its repeats succeeded.
    fn is_solved(&self) -> bool {
        instance_solved(self.solved, self.times.len())
    }
}

/// Instance name and time limit (as bits, so that it orders).
type InstanceKey = (String, Option<u64>);
/// Formulation and engine label.
type Config = (String, String);

/// Every pair of configurations of each puzzle that differ in exactly one of formulation
/// and engine label and ran at least one common instance (same name, same time limit),
/// ordered by puzzle, then formulation comparisons before engine comparisons, then what is
/// held fixed, then A and B; their SGMs with shift `shift`.
///
/// Each instance's time on a side is the median over its repeats of
/// [`charged_seconds`] (a failed run at exactly its time limit, so that an instance both
/// sides failed is a tie); the ratio is B's SGM over A's (shifted), its interval and the verdict
/// are [`verdict`]'s. Counting runs (`count` above 1) and refused runs are left out, as
/// in the answer.
pub fn comparisons(rows: &[Record], shift: f64) -> Vec<Comparison> {
    let mut by_puzzle: BTreeMap<&str, BTreeMap<Config, BTreeMap<InstanceKey, Runs>>> =
        BTreeMap::new();
    for r in rows.iter().filter(|r| r.count <= 1 && !r.is_refused()) {
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
                if let Some(c) = compare(puzzle, varied, (a, runs_a), (b, runs_b), shift) {
                    out.push(c);
                }
            }
        }
    }
    out.sort_by(|x, y| (&x.puzzle, &x.varied, &x.a, &x.b).cmp(&(&y.puzzle, &y.varied, &y.a, &y.b)));
    out
}

/// One side of a pair: its configuration and its runs per instance.
type Side<'a> = (&'a Config, &'a BTreeMap<InstanceKey, Runs>);

/// The comparison of A and B over their common instances; `None` when they have none.
fn compare(puzzle: &str, varied: Varied, a: Side, b: Side, shift: f64) -> Option<Comparison> {
    let common: BTreeSet<&InstanceKey> = a.1.keys().filter(|k| b.1.contains_key(*k)).collect();
    if common.is_empty() {
        return None;
    }
    let (ra, rb): (Vec<&Runs>, Vec<&Runs>) = (
        common.iter().map(|k| &a.1[*k]).collect(),
        common.iter().map(|k| &b.1[*k]).collect(),
    );
    let tally = |rs: &[&Runs]| {
        (
            rs.iter().map(|r| r.times.len()).sum::<usize>(),
            rs.iter().map(|r| r.solved).sum::<usize>(),
        )
    };
    let repeats = |rs: &[&Runs]| rs.iter().map(|r| r.times.clone()).collect::<Vec<_>>();
    let solved = |rs: &[&Runs]| rs.iter().filter(|r| r.is_solved()).count();
    let (solved_a, solved_b) = (solved(&ra), solved(&rb));
    let p = judge(&repeats(&ra), &repeats(&rb), (solved_a, solved_b), shift);
    Some(Comparison {
        puzzle: puzzle.to_string(),
        varied,
        a: a.0.clone(),
        b: b.0.clone(),
        instances: common.len(),
        runs_a: tally(&ra),
        runs_b: tally(&rb),
        solved_a,
        solved_b,
        sgm_a: p.sgm_a,
        sgm_b: p.sgm_b,
        ratio: p.ratio,
        interval: p.interval,
        slower_median: p.median_a.max(p.median_b),
        verdict: verdict(&p),
    })
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
/// B, common instances, runs and successes of each side, instances each solved, the SGMs,
/// the ratio B/A with its interval, the slower side's median and the verdict.
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
        "solved_runs_a",
        "runs_b",
        "solved_runs_b",
        "solved_instances_a",
        "solved_instances_b",
        "sgm_a_seconds",
        "sgm_b_seconds",
        "ratio_b_over_a",
        "ci_low",
        "ci_high",
        "slower_median_seconds",
        "verdict",
    ])
    .map_err(err)?;
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
            c.solved_a.to_string(),
            c.solved_b.to_string(),
            six_digits(c.sgm_a),
            six_digits(c.sgm_b),
            six_digits(c.ratio),
            six_digits(c.interval.0),
            six_digits(c.interval.1),
            six_digits(c.slower_median),
            c.verdict_text(),
        ])
        .map_err(err)?;
    }
    w.flush().map_err(|e| format!("{}: {e}", path.display()))
}

/// A statistic of `comparisons.csv` to six significant digits (a millionth of itself,
/// far below the noise of any time it is made of), not the sixteen of its float.
fn six_digits(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return x.to_string();
    }
    format!("{x:.5e}").parse::<f64>().unwrap_or(x).to_string()
}

/// The comparisons table (stem `comparisons`): the pairs of [`shown`] out of `all`, one
/// row each, with what the pair holds fixed, the two sides, the common instances, the
/// instances each solved there, each side's SGM (shift `shift`), the ratio B/A with its
/// 95 % interval and the verdict.
pub fn comparisons_table(all: &[Comparison], shift: f64) -> Table {
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
                format!("{}; {}", c.solved_a, c.solved_b),
                format!("{}; {}", seconds(c.sgm_a), seconds(c.sgm_b)),
                significant(c.ratio),
                format!(
                    "{}–{}",
                    significant(c.interval.0),
                    significant(c.interval.1)
                ),
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
        title: format!("Pairwise comparisons by SGM{shift}, with 95 % intervals"),
        columns: vec![
            "puzzle".into(),
            "held fixed".into(),
            "A".into(),
            "B".into(),
            "instances".into(),
            "solved A; B".into(),
            format!("SGM{shift} A; B (s)"),
            "B/A".into(),
            "95 % CI".into(),
            "verdict".into(),
        ],
        labels: 4,
        rows: body,
        notes: vec![
            count_note,
            "Pairs of configurations of a puzzle that differ in exactly one of formulation and backend (with its settings), over the instances both ran at the same time limit (instances); pairs that differ in both, or share no instance, are left out, as are counting and refused runs. solved A; B: instances each solved (more than half of its repeats succeeded).".into(),
            format!("SGM{shift}: shifted geometric mean exp(mean(ln(t + {shift}))) − {shift} over the instances of each side's median time over repeats, a failed run (time limit, error, answer the verifier refused) counting at its time limit; the same shift as every other table and the overview. B/A: B's SGM over A's, shifted: (SGM of B + {shift}) / (SGM of A + {shift}), so that differences well under the shift count little (below 1: B faster); 95 % CI: percentile bootstrap over instances and, within each, over repeats (2000 resamples, fixed seed)."),
            format!("verdict: the side that solved more instances is ahead whatever the times; else the faster side with its factor when the interval lies above or below 1, within noise when it holds 1; no verdict when both medians are under {} ms or the pair rests on one instance run once on each side.", TOO_FAST * 1000.0),
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
        let c = comparisons(&rows, 0.01);
        assert_eq!(c.len(), 1);
        let c = &c[0];
        assert_eq!(c.a, ("binary".to_string(), "highs".to_string()));
        assert_eq!(c.instances, 2);
        assert!(c.ratio > 1.05 && c.ratio < 1.15, "{}", c.ratio);
        assert!(c.interval.0 < 1.0 && c.interval.1 > 1.0, "{c:?}");
        assert_eq!(c.verdict, Verdict::WithinNoise);
        let t = comparisons_table(&comparisons(&rows, 0.01), 0.01);
        assert_eq!(t.rows[0][9], "within noise");
        assert_eq!(t.rows[0][1], "backend highs");
        assert_eq!(t.columns[6], "SGM0.01 A; B (s)");
    }

    #[test]
    fn a_clear_difference_names_the_faster_one_by_the_ratio_of_sgms() {
        // values takes twice as long as binary, with about 1% variation on each side.
        let mut rows = runs("binary", "highs", &[&[1.0, 1.01, 0.99], &[3.0, 3.03, 2.97]]);
        rows.extend(runs(
            "values",
            "highs",
            &[&[2.0, 2.02, 1.98], &[6.0, 6.06, 5.94]],
        ));
        let c = &comparisons(&rows, 0.0)[0];
        // Without a shift, the SGM ratio of times exactly doubled is 2.
        assert!((c.ratio - 2.0).abs() < 1e-9, "{}", c.ratio);
        assert!(c.interval.0 > 1.9 && c.interval.1 < 2.1, "{:?}", c.interval);
        assert!(matches!(c.verdict, Verdict::AFaster(r) if (r - 2.0).abs() < 1e-9));
        let t = comparisons_table(&comparisons(&rows, 0.0), 0.0);
        assert_eq!(t.rows[0][6], "1.73; 3.46");
        assert_eq!(t.rows[0][7], "2.00");
        assert_eq!(t.rows[0][9], "binary faster (×2.00)");
        // With the shift, the ratio is that of the geometric means of the shifted times
        // (the answer's ratio): (SGM + s) / (SGM + s), not the ratio of the SGMs.
        let c = &comparisons(&rows, 1.0)[0];
        let shifted_gm =
            |ts: [f64; 2]| ((ts[0] + 1.0f64).ln() / 2.0 + (ts[1] + 1.0f64).ln() / 2.0).exp();
        let want = shifted_gm([2.0, 6.0]) / shifted_gm([1.0, 3.0]);
        assert!((c.ratio - want).abs() < 1e-9, "{} against {want}", c.ratio);
        assert!(
            c.ratio < 2.0 - 0.2,
            "the shift pulls the ratio toward 1: {}",
            c.ratio
        );
        // The other way round, B is named.
        let mut rows = runs("binary", "highs", &[&[4.0, 4.04, 3.96], &[4.0, 4.1, 3.9]]);
        rows.extend(runs(
            "values",
            "highs",
            &[&[1.0, 1.01, 0.99], &[1.0, 1.02, 0.98]],
        ));
        let t = comparisons_table(&comparisons(&rows, 0.0), 0.0);
        assert_eq!(t.rows[0][7], "0.250");
        assert_eq!(t.rows[0][9], "values faster (×4.00)");
    }

    #[test]
    fn one_instance_run_once_gets_no_verdict_but_keeps_the_ratio() {
        let mut rows = runs("binary", "highs", &[&[1.0]]);
        rows.extend(runs("binary", "cbc", &[&[10.0]]));
        let c = &comparisons(&rows, 0.01)[0];
        assert_eq!(
            c.varied,
            Varied::Backend {
                formulation: "binary".into()
            }
        );
        // Sorted: cbc is A, highs is B.
        assert_eq!(c.a_name(), "cbc");
        // The SGM of one time is that time; the ratio is shifted: 1.01 / 10.01.
        assert!((c.ratio - 1.01 / 10.01).abs() < 1e-12, "{}", c.ratio);
        assert_eq!(c.verdict, Verdict::NoVerdict);
        // Repeated, the same factor is a verdict.
        let mut rows = runs("binary", "highs", &[&[1.0, 1.02, 0.98]]);
        rows.extend(runs("binary", "cbc", &[&[5.0, 5.1, 4.9]]));
        let c = &comparisons(&rows, 0.01)[0];
        assert!(matches!(c.verdict, Verdict::BFaster(_)), "{c:?}");
    }

    #[test]
    fn more_solved_is_ahead_whatever_the_times_and_tiny_times_get_no_verdict() {
        // A solves both instances slowly, B one fast and fails the other.
        let mut rows = runs("binary", "highs", &[&[9.0, 9.0], &[9.0, 9.0]]);
        rows.extend(runs("values", "highs", &[&[0.1, 0.1], &[11.0, 11.0]]));
        let c = &comparisons(&rows, 0.01)[0];
        assert_eq!((c.solved_a, c.solved_b), (2, 1));
        assert_eq!(c.verdict, Verdict::AMoreSolved);
        assert_eq!(c.verdict_text(), "binary ahead (more solved)");
        // Both under a millisecond: no verdict, and the table leaves the pair out.
        let mut rows = runs("binary", "highs", &[&[1e-4, 1e-4], &[1e-4, 1e-4]]);
        rows.extend(runs("values", "highs", &[&[5e-4, 5e-4], &[5e-4, 5e-4]]));
        let all = comparisons(&rows, 0.01);
        assert_eq!(all[0].verdict, Verdict::NoVerdict);
        assert!(comparisons_table(&all, 0.01).rows.is_empty());
    }

    #[test]
    fn pairs_differing_in_formulation_and_backend_are_not_compared() {
        let mut rows = runs("binary", "highs", &[&[1.0, 1.1]]);
        rows.extend(runs("values", "cbc", &[&[5.0, 5.5]]));
        assert!(comparisons(&rows, 0.01).is_empty());
        assert!(comparisons_table(&comparisons(&rows, 0.01), 0.01)
            .rows
            .is_empty());
        // Nothing to compare: the report has no comparisons table (but the engines side
        // by side).
        let stems: Vec<String> = crate::report::all_tables(&rows, 1.0, &[])
            .into_iter()
            .map(|t| t.stem)
            .collect();
        assert_eq!(stems, ["summary", "sudoku_backends"]);
        // Add the missing corner: binary on cbc faces both, values on cbc still not highs.
        rows.extend(runs("binary", "cbc", &[&[2.0, 2.2]]));
        let pairs: Vec<(String, String)> = comparisons(&rows, 0.01)
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
        let mut rows = runs("hdc", "highs", &[&[1.0, 1.01], &[1.0, 1.01]]);
        let mut off = runs("hdc", "highs", &[&[3.0, 3.03], &[3.0, 3.03]]);
        for r in &mut off {
            r.presolve = Some(false);
        }
        rows.extend(off);
        let t = comparisons_table(&comparisons(&rows, 0.0), 0.0);
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][1], "formulation hdc");
        assert_eq!(t.rows[0][9], "highs faster (×3.00)");
    }

    #[test]
    fn failures_are_charged_exactly_their_limit_and_both_failing_is_a_tie() {
        // Instance 0: both solve, B twice as slow. Instance 1: both fail, B past its
        // limit: each charged the 10 s limit, a tie.
        let mut rows = runs("binary", "highs", &[&[1.0, 1.0], &[10.2, 10.2]]);
        rows.extend(runs("values", "highs", &[&[2.0, 2.0], &[10.9, 10.9]]));
        let c = &comparisons(&rows, 0.0)[0];
        assert_eq!(c.runs_a, (4, 2));
        assert_eq!(c.runs_b, (4, 2));
        assert!((c.sgm_a - 10f64.sqrt()).abs() < 1e-12, "{}", c.sgm_a);
        assert!((c.ratio - 2f64.sqrt()).abs() < 1e-12, "{}", c.ratio);
        // A failure recorded before its limit is charged the limit, not its own time.
        let mut rows = vec![run("binary", "highs", "x", 1, 2.0)];
        let mut early = run("values", "highs", "x", 1, 0.5);
        early.status = "error".into();
        early.verified = None;
        rows.push(early);
        let c = &comparisons(&rows, 0.0)[0];
        assert!((c.ratio - 5.0).abs() < 1e-12, "{}", c.ratio);
        assert_eq!(c.verdict, Verdict::AMoreSolved);
    }

    #[test]
    fn only_instances_at_the_same_limit_are_common() {
        let mut rows = runs("binary", "highs", &[&[1.0]]);
        let mut other = runs("values", "highs", &[&[2.0]]);
        other[0].time_limit = Some(60.0);
        rows.extend(other.clone());
        assert!(comparisons(&rows, 0.01).is_empty());
        other[0].time_limit = Some(10.0);
        other[0].instance = "elsewhere".into();
        rows.push(other[0].clone());
        assert!(comparisons(&rows, 0.01).is_empty());
    }

    #[test]
    fn counting_and_refused_runs_are_not_compared() {
        let mut rows = runs("binary", "highs", &[&[1.0, 1.0]]);
        let mut counting = runs("values", "highs", &[&[2.0, 2.0]]);
        counting.iter_mut().for_each(|r| r.count = 2);
        let mut refused = runs("binary", "sat", &[&[0.0]]);
        refused[0].status = "refused".into();
        rows.extend(counting);
        rows.extend(refused);
        assert!(comparisons(&rows, 0.01).is_empty());
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
        let all = comparisons(&rows, 0.0);
        assert_eq!(all.len(), 10, "every pair of five engines");
        let shown: Vec<(&str, &str)> = shown(&all)
            .iter()
            .map(|c| (c.a_name(), c.b_name()))
            .collect();
        // a–b is under a millisecond on both sides: never shown; the three largest effects
        // of the rest, largest first.
        assert_eq!(shown, [("a", "e"), ("b", "e"), ("a", "d")]);
        let t = comparisons_table(&all, 0.0);
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
