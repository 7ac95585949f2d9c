//! What an engine did over time: every improving incumbent and every improved bound of a
//! run, each with the moment it came, and the anytime measures made from them.
//!
//! * **Recording.** A run's [`Budget`](crate::engines::Budget) carries its [`Timeline`];
//!   engines report through [`Budget::incumbent`](crate::engines::Budget::incumbent) and
//!   [`Budget::bound`](crate::engines::Budget::bound) as their search goes (HiGHS from its
//!   MIP callback, the project's engines where they improve, external engines from their
//!   driver's messages or log). Only improvements are kept, by the objective's sense, so an
//!   engine may report the same figure often. Times are seconds since the run started, on
//!   the run clock, the one its time limit runs on (model building and the LP relaxation
//!   included), whose end is the row's `run_seconds`.
//! * **Kept beside the results.** A sweep streams each event as one JSON line to
//!   `<results>.timelines.jsonl` while the run goes ([`Sink`]), so a run killed at its hard
//!   limit keeps what it had. Each line names the run id and the attempt (a run stopped and
//!   resumed runs again under a new attempt; [`read`] keeps the last); a run that ended in
//!   its worker writes a last line with `"end": true` at the moment it ended.
//! * **Measures** ([`Measures`]): the time of the first solution, the time of the best
//!   (its last improvement), and the primal and primal–dual integrals of Berthold
//!   (*Measuring the impact of primal heuristics*, Operations Research Letters 41, 2013):
//!   the integral over the run of the primal gap γ(t) = |z* − z(t)| / max(|z*|, |z(t)|)
//!   (0 when both are 0, 1 without an incumbent or when the signs differ), with z* the
//!   reference objective, and of the same gap between incumbent and bound. Integrals are
//!   in seconds (a run that holds no solution for T seconds scores T).

use crate::model::Sense;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// One improvement: seconds since the run started, and the figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Seconds since the run started.
    pub t: f64,
    /// The incumbent's objective, or the bound.
    pub value: f64,
}

/// The improvements of one run, in time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Improving incumbents.
    pub incumbents: Vec<Point>,
    /// Improved bounds.
    pub bounds: Vec<Point>,
    /// Seconds from the start of the run to its end, when it ended in its worker (a run
    /// killed at its hard limit has none).
    pub end: Option<f64>,
}

/// The recorder of one run, shared by every part of it.
pub struct Timeline {
    start: Instant,
    state: Mutex<State>,
}

struct State {
    sense: Sense,
    trace: Trace,
    sink: Option<Sink>,
}

impl std::fmt::Debug for Timeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Timeline").finish_non_exhaustive()
    }
}

/// Relative tolerance under which a figure is no improvement.
const TOLERANCE: f64 = 1e-9;

fn better(sense: Sense, new: f64, old: f64, incumbent: bool) -> bool {
    let slack = TOLERANCE * old.abs().max(1.0);
    // A smaller incumbent or a larger bound improves a minimisation.
    match (sense, incumbent) {
        (Sense::Minimize, true) | (Sense::Maximize, false) => new < old - slack,
        (Sense::Minimize, false) | (Sense::Maximize, true) => new > old + slack,
    }
}

impl Timeline {
    /// A timeline whose clock started at `start`, streaming to `sink` when given.
    pub fn new(start: Instant, sink: Option<Sink>) -> Timeline {
        Timeline {
            start,
            state: Mutex::new(State {
                sense: Sense::Minimize,
                trace: Trace::default(),
                sink,
            }),
        }
    }

    /// Sets the objective's sense (minimise until told).
    pub fn set_sense(&self, sense: Sense) {
        self.lock().sense = sense;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic in a callback while recording leaves figures that are still valid.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records `value` as an incumbent (`true`) or a bound, when finite and better than the
    /// last of its kind.
    pub fn record(&self, incumbent: bool, value: f64) {
        self.record_at(incumbent, value, Instant::now());
    }

    /// As [`Timeline::record`], for a figure that came at `at` (a solver's log line read
    /// after the fact, stamped when it arrived). Figures must come in time order.
    pub fn record_at(&self, incumbent: bool, value: f64, at: Instant) {
        if !value.is_finite() {
            return;
        }
        let t = at.saturating_duration_since(self.start).as_secs_f64();
        let mut s = self.lock();
        let sense = s.sense;
        let list = if incumbent {
            &mut s.trace.incumbents
        } else {
            &mut s.trace.bounds
        };
        if list
            .last()
            .is_some_and(|p| !better(sense, value, p.value, incumbent))
        {
            return;
        }
        list.push(Point { t, value });
        if let Some(sink) = &mut s.sink {
            sink.write(incumbent, t, value);
        }
    }

    /// The improvements so far.
    pub fn trace(&self) -> Trace {
        self.lock().trace.clone()
    }

    /// Marks the end of the run, now: the trace's `end`, and a last line in the sink.
    pub fn finish(&self) {
        let t = self.start.elapsed().as_secs_f64();
        let mut s = self.lock();
        s.trace.end = Some(t);
        if let Some(sink) = &mut s.sink {
            sink.write_line(Line {
                run_id: sink.run_id.clone(),
                attempt: sink.attempt,
                t,
                incumbent: None,
                bound: None,
                end: Some(true),
            });
        }
    }
}

/// Where a run streams its events: the timelines file, this run's id and attempt.
pub struct Sink {
    file: std::fs::File,
    run_id: String,
    attempt: u64,
}

impl Sink {
    /// Opens `path` for appending (created when missing) for run `run_id`; the attempt is
    /// the moment it opened, in microseconds since the Unix epoch.
    pub fn open(path: &Path, run_id: &str) -> Result<Sink, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: cannot open for appending: {e}", path.display()))?;
        let attempt = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_micros() as u64);
        Ok(Sink {
            file,
            run_id: run_id.to_string(),
            attempt,
        })
    }

    fn write(&mut self, incumbent: bool, t: f64, value: f64) {
        self.write_line(Line {
            run_id: self.run_id.clone(),
            attempt: self.attempt,
            t,
            incumbent: incumbent.then_some(value),
            bound: (!incumbent).then_some(value),
            end: None,
        });
    }

    fn write_line(&mut self, line: Line) {
        let line = serde_json::to_string(&line).expect("a timeline line serialises");
        // One write per line: appends of whole lines from runs side by side do not mix.
        // A failed write loses a figure of the timeline, never a row, so it is ignored.
        let _ = self.file.write_all(format!("{line}\n").as_bytes());
    }
}

thread_local! {
    static NEXT_SINK: std::cell::RefCell<Option<Sink>> = const { std::cell::RefCell::new(None) };
}

/// Makes the next run started on this thread stream its timeline to `sink`.
pub fn stream_next_run(sink: Sink) {
    NEXT_SINK.with(|s| *s.borrow_mut() = Some(sink));
}

/// The sink given to this thread for its next run, taken (the run starting now uses it).
pub fn take_sink() -> Option<Sink> {
    NEXT_SINK.with(|s| s.borrow_mut().take())
}

thread_local! {
    static NEXT_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Makes the next run started on this thread record no timeline (as [`SWITCH_VAR`] does for
/// a whole process): for measuring what recording costs, run by run.
pub fn skip_next_run() {
    NEXT_OFF.with(|c| c.set(true));
}

/// True when this run records a timeline: [`SWITCH_VAR`] is not `off` and
/// [`skip_next_run`] was not called for it (the call is used up).
pub fn recording_this_run() -> bool {
    let skipped = NEXT_OFF.with(|c| c.replace(false));
    !skipped && enabled()
}

/// The environment variable that turns timelines off when set to `off`: runs then record
/// nothing and engines install no callback for them. It exists to measure what recording
/// costs (docs/measurement.md); rows of such runs have empty anytime columns.
pub const SWITCH_VAR: &str = "PUZZLEBENCH_TIMELINES";

/// False when [`SWITCH_VAR`] is `off`.
pub fn enabled() -> bool {
    std::env::var(SWITCH_VAR).map_or(true, |v| v != "off")
}

/// One line of a timelines file.
#[derive(Serialize, Deserialize)]
struct Line {
    run_id: String,
    attempt: u64,
    t: f64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    incumbent: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    bound: Option<f64>,
    /// Present (true) on the last line of a run that ended in its worker, at `t`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    end: Option<bool>,
}

/// The timelines file beside a results file: `<results>.timelines.jsonl` (for
/// `results.csv.gz`, `results.csv.timelines.jsonl`, which [`read`] reads from its `.gz`).
pub fn path_beside(results: &Path) -> PathBuf {
    let mut name = crate::gz::plain(results).into_os_string();
    name.push(".timelines.jsonl");
    PathBuf::from(name)
}

/// Reads a timelines file (or, where it is missing, its gzip-compressed copy `.gz`:
/// [`crate::gz`]): each run's trace, from its last attempt. A missing file reads as none; a
/// line that is not a timeline event (a torn last line of a killed sweep) is skipped, since
/// a timeline only adds to the rows.
pub fn read(path: &Path) -> Result<HashMap<String, Trace>, String> {
    let (path, reader) = match crate::gz::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let path = path.as_path();
    let mut runs: HashMap<String, (u64, Trace)> = HashMap::new();
    for line in reader.lines() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let Ok(l) = serde_json::from_str::<Line>(&line) else {
            continue;
        };
        let entry = runs
            .entry(l.run_id)
            .or_insert_with(|| (l.attempt, Trace::default()));
        if l.attempt > entry.0 {
            *entry = (l.attempt, Trace::default());
        } else if l.attempt < entry.0 {
            continue;
        }
        if let Some(v) = l.incumbent {
            entry.1.incumbents.push(Point { t: l.t, value: v });
        }
        if let Some(v) = l.bound {
            entry.1.bounds.push(Point { t: l.t, value: v });
        }
        if l.end == Some(true) {
            entry.1.end = Some(l.t);
        }
    }
    Ok(runs.into_iter().map(|(k, (_, t))| (k, t)).collect())
}

/// The gap of Berthold's integrals between a solution's objective `z` and `reference`:
/// 0 when both are 0, 1 when their signs differ, else |reference − z| / max(|reference|,
/// |z|).
pub fn berthold_gap(z: f64, reference: f64) -> f64 {
    if z == 0.0 && reference == 0.0 {
        0.0
    } else if z * reference < 0.0 {
        1.0
    } else {
        ((reference - z).abs() / z.abs().max(reference.abs())).min(1.0)
    }
}

/// The anytime measures of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measures {
    /// Seconds to the first incumbent.
    pub first_solution_seconds: Option<f64>,
    /// Seconds to the best incumbent (its last improvement).
    pub best_solution_seconds: Option<f64>,
    /// ∫₀ᵀ γ(z(t), reference) dt, when a reference is known.
    pub primal_integral: Option<f64>,
    /// ∫₀ᵀ γ(z(t), b(t)) dt, when the engine reported bounds.
    pub primal_dual_integral: Option<f64>,
}

impl Trace {
    /// The integral over [0, `end`] of a step function that holds `gap(value)` from each
    /// point to the next and 1 before the first.
    fn integral(points: &[(f64, f64)], end: f64) -> f64 {
        let mut total = 0.0;
        let mut since = 0.0;
        let mut gap = 1.0;
        for &(t, g) in points {
            let t = t.clamp(0.0, end);
            total += gap * (t - since).max(0.0);
            since = since.max(t);
            gap = g;
        }
        total + gap * (end - since).max(0.0)
    }

    /// The primal integral over [0, `end`] against `reference`.
    pub fn primal_integral(&self, reference: f64, end: f64) -> f64 {
        let pts: Vec<(f64, f64)> = self
            .incumbents
            .iter()
            .map(|p| (p.t, berthold_gap(p.value, reference)))
            .collect();
        Trace::integral(&pts, end)
    }

    /// The primal–dual integral over [0, `end`]: the gap between the incumbent and the
    /// bound as each stood, 1 while either is missing.
    pub fn primal_dual_integral(&self, end: f64) -> f64 {
        let mut times: Vec<f64> = self
            .incumbents
            .iter()
            .chain(&self.bounds)
            .map(|p| p.t)
            .collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let at = |list: &[Point], t: f64| list.iter().take_while(|p| p.t <= t).last().copied();
        let pts: Vec<(f64, f64)> = times
            .iter()
            .map(|&t| {
                let g = match (at(&self.incumbents, t), at(&self.bounds, t)) {
                    (Some(z), Some(b)) => berthold_gap(z.value, b.value),
                    _ => 1.0,
                };
                (t, g)
            })
            .collect();
        Trace::integral(&pts, end)
    }

    /// The measures of a run that ended `end` seconds after it started, against
    /// `reference` where one is known. The times hold 0 ≤ first ≤ best ≤ `end` whatever
    /// the trace holds: a point stamped after the end counts at the end, and the best
    /// never before the first.
    pub fn measures(&self, reference: Option<f64>, end: f64) -> Measures {
        let end = end.max(0.0);
        let first = self.incumbents.first().map(|p| p.t.clamp(0.0, end));
        let best = self
            .incumbents
            .last()
            .zip(first)
            .map(|(p, first)| p.t.clamp(first, end));
        Measures {
            first_solution_seconds: first,
            best_solution_seconds: best,
            primal_integral: reference.map(|r| self.primal_integral(r, end)),
            primal_dual_integral: (!self.bounds.is_empty()).then(|| self.primal_dual_integral(end)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(inc: &[(f64, f64)], bounds: &[(f64, f64)]) -> Trace {
        let pts = |v: &[(f64, f64)]| v.iter().map(|&(t, value)| Point { t, value }).collect();
        Trace {
            incumbents: pts(inc),
            bounds: pts(bounds),
            end: None,
        }
    }

    #[test]
    fn only_improvements_are_kept() {
        let tl = Timeline::new(Instant::now(), None);
        for v in [10.0, 10.0, 12.0, 8.0, 9.0, 7.0] {
            tl.record(true, v);
        }
        for b in [1.0, 0.5, 3.0, f64::NAN, 3.0] {
            tl.record(false, b);
        }
        let t = tl.trace();
        let vals: Vec<f64> = t.incumbents.iter().map(|p| p.value).collect();
        assert_eq!(vals, [10.0, 8.0, 7.0]);
        let b: Vec<f64> = t.bounds.iter().map(|p| p.value).collect();
        assert_eq!(b, [1.0, 3.0]);
        let max = Timeline::new(Instant::now(), None);
        max.set_sense(Sense::Maximize);
        for v in [3.0, 2.0, 5.0] {
            max.record(true, v);
        }
        assert_eq!(max.trace().incumbents.len(), 2);
    }

    #[test]
    fn the_primal_integral_follows_berthold() {
        // No solution for 2 s, then 15 against an optimum of 10 (gap 1/3) for 3 s, then
        // the optimum: 2 + 1 = 3 over a 10 s run.
        let t = trace(&[(2.0, 15.0), (5.0, 10.0)], &[]);
        assert!((t.primal_integral(10.0, 10.0) - 3.0).abs() < 1e-12);
        let m = t.measures(Some(10.0), 10.0);
        assert_eq!(m.first_solution_seconds, Some(2.0));
        assert_eq!(m.best_solution_seconds, Some(5.0));
        assert_eq!(m.primal_dual_integral, None);
        // A run without a solution scores its whole length.
        assert_eq!(Trace::default().primal_integral(10.0, 4.0), 4.0);
        // Finding the optimum sooner gives a smaller integral.
        let sooner = trace(&[(1.0, 15.0), (2.0, 10.0)], &[]);
        assert!(sooner.primal_integral(10.0, 10.0) < t.primal_integral(10.0, 10.0));
    }

    #[test]
    fn the_measures_hold_first_before_best_before_the_end() {
        // A figure stamped after the end (a log line read late) counts at the end, and
        // a best stamped before the first (figures out of order) counts at the first.
        let late = trace(&[(2.0, 15.0), (7.5, 10.0)], &[]);
        let m = late.measures(None, 5.0);
        assert_eq!(m.first_solution_seconds, Some(2.0));
        assert_eq!(m.best_solution_seconds, Some(5.0));
        let all_late = trace(&[(6.0, 15.0), (7.0, 10.0)], &[]);
        let m = all_late.measures(None, 5.0);
        assert_eq!(
            (m.first_solution_seconds, m.best_solution_seconds),
            (Some(5.0), Some(5.0))
        );
        let unordered = trace(&[(3.0, 15.0), (1.0, 10.0)], &[]);
        let m = unordered.measures(None, 5.0);
        assert_eq!(
            (m.first_solution_seconds, m.best_solution_seconds),
            (Some(3.0), Some(3.0))
        );
        assert_eq!(Trace::default().measures(None, 5.0), Measures::default());
    }

    #[test]
    fn the_primal_dual_integral_pairs_incumbent_and_bound() {
        // Bound 5 from 1 s, incumbent 10 from 2 s (gap 0.5), bound 10 from 4 s: 2 + 1 = 3.
        let t = trace(&[(2.0, 10.0)], &[(1.0, 5.0), (4.0, 10.0)]);
        assert!((t.primal_dual_integral(6.0) - 3.0).abs() < 1e-12);
        assert_eq!(berthold_gap(0.0, 0.0), 0.0);
        assert_eq!(berthold_gap(-1.0, 2.0), 1.0);
    }

    #[test]
    fn a_timelines_file_keeps_the_last_attempt_of_each_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv.timelines.jsonl");
        let mut a = Sink::open(&path, "run1").unwrap();
        a.write(true, 0.5, 4.0);
        std::thread::sleep(std::time::Duration::from_millis(2));
        let mut b = Sink::open(&path, "run1").unwrap();
        b.write(true, 0.7, 5.0);
        b.write(false, 0.8, 5.0);
        b.write_line(Line {
            run_id: "run1".into(),
            attempt: b.attempt,
            t: 0.9,
            incumbent: None,
            bound: None,
            end: Some(true),
        });
        let mut c = Sink::open(&path, "run2").unwrap();
        c.write(true, 0.1, 1.0);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"run_id\":\"run2\",\"att")
            .unwrap();
        let runs = read(&path).unwrap();
        assert_eq!(runs.len(), 2);
        let mut want = trace(&[(0.7, 5.0)], &[(0.8, 5.0)]);
        want.end = Some(0.9);
        assert_eq!(runs["run1"], want);
        assert_eq!(runs["run2"].incumbents.len(), 1);
        assert!(read(&dir.path().join("none")).unwrap().is_empty());
    }
}
