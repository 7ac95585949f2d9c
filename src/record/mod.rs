//! The one result row. CSV files and JSON output both serialise [`Record`]; there is no
//! second schema. An empty CSV cell means "not known". Beside it: the run id that names a
//! run ([`run_id`]) and the results file that holds rows ([`file`]).

pub mod file;

pub use file::{check_results_file, header_problem, read_results, Existing, ResultsFile};

use crate::engines::{Engine, Settings, SolveOptions};
use serde::{Deserialize, Serialize};

/// The one spelling of a formulation key: words joined by `-`. Keys once joined by `_`
/// (Hashi's `cuts_hdc`, now `cuts-hdc`) are read in that spelling from the command line and
/// from old results files.
pub fn formulation_key(key: &str) -> String {
    key.replace('_', "-")
}

/// The one name of a configuration, `<formulation> on <engine label>` (`cm1 on bc`,
/// `cp on propagate-hroot`, `hdc on highs-nopresolve`), the engine label being
/// [`Record::backend_label`].
pub fn config_name(formulation: &str, engine_label: &str) -> String {
    format!("{formulation} on {engine_label}")
}

/// The run id: the first 16 hex digits of a SHA-256 over the instance's canonical content,
/// the puzzle, formulation, engine, the settings the engine applies, the time limit, the
/// LP-relaxation switch and the repeat. Settings an engine does not have leave no trace,
/// so asking for them twice gives one run.
pub fn run_id(
    puzzle: &str,
    canonical: &str,
    formulation: &str,
    engine: Engine,
    options: &SolveOptions,
    settings: &Settings,
    repeat: u32,
) -> String {
    let key = serde_json::json!({
        "instance": canonical,
        "puzzle": puzzle,
        "formulation": formulation,
        "backend": engine.key(),
        "settings": settings,
        "time_limit": options.time_limit,
        "lp_relaxation": options.lp_relaxation,
        "repeat": repeat,
    });
    // A certified run is another run; the key of a run without one is as it always was.
    let key = match options.certify {
        Some(limit) => {
            let mut k = key;
            k["certify"] = serde_json::json!(limit);
            k
        }
        None => key,
    };
    short_hash(key.to_string().as_bytes())
}

/// The run id of a run that the race `race` makes: [`run_id`]'s key with the race's name,
/// so that a race's runs are its own and never taken for a report part's run of the same
/// instance and configuration (or another race's).
pub fn race_run_id(race: &str, plain: &str) -> String {
    short_hash(format!("race {race} {plain}").as_bytes())
}

/// What `diff --pair` pairs: two engines, or two formulations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paired {
    /// Two engines' runs of the same instance, formulation and settings.
    Engines,
    /// Two formulations' runs of the same instance on the same engine and settings.
    Formulations,
}

/// The id of the run `r` without what `paired` pairs (its engine, or its formulation):
/// its instance, puzzle, the other of the two, the settings it records (seed, threads,
/// presolve, gap), time limit, race and repeat. Two engines' (or formulations') runs of
/// the same plan share it (`diff --pair`).
pub fn paired_run_id(r: &Record, paired: Paired) -> String {
    let (formulation, backend) = match paired {
        Paired::Engines => (r.formulation.as_str(), ""),
        Paired::Formulations => ("", r.backend.as_str()),
    };
    let key = serde_json::json!({
        "puzzle": r.puzzle,
        "instance": r.instance,
        "instance_info": r.instance_info,
        "formulation": formulation,
        "backend": backend,
        "seed": r.seed,
        "threads": r.threads,
        "presolve": r.presolve,
        "mip_gap": r.mip_gap,
        "time_limit": r.time_limit,
        "race": r.race,
        "repeat": r.repeat,
    });
    short_hash(key.to_string().as_bytes())
}

/// The first 16 hex digits of the SHA-256 of `bytes`.
fn short_hash(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The `answer_hash` of an answer: the first 16 hex digits of a SHA-256 over its
/// canonical JSON (the puzzle's JSON solution shape written compactly, object keys
/// sorted), so that two runs that give the same answer in the same shape give the same
/// hash, whatever order a map kept its keys in.
pub fn answer_hash(answer: &serde_json::Value) -> String {
    short_hash(canonical_json(answer).as_bytes())
}

/// `value` as compact JSON with the keys of every object sorted.
fn canonical_json(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", inner.join(","))
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), canonical_json(&map[k])))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        scalar => scalar.to_string(),
    }
}

/// One run: (instance, formulation, engine, repeat) and everything measured about it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Hash of the instance's content, puzzle, formulation, engine, settings and repeat:
    /// the key `--resume` uses to skip runs already recorded.
    pub run_id: String,
    /// Puzzle key, e.g. `sudoku`.
    pub puzzle: String,
    /// Instance name (file stem, plus `:line` when a file holds several puzzles).
    pub instance: String,
    /// The race the run belongs to (`sudoku`, `queens:base`; see `puzzlebench race`), empty
    /// for a run of a sweep or of a report part. A race's runs have run ids of their own
    /// ([`race_run_id`]): a report part's run of the same instance is never shared.
    #[serde(default)]
    pub race: String,
    /// The instances the run's race planned (its looks and their levels follow from it:
    /// [`crate::race::elimination::RaceConfig::looks`]); empty outside a race.
    #[serde(default)]
    pub race_plan: Option<usize>,
    /// The race's margin of equivalence (0.1: within 10 %); empty outside a race.
    #[serde(default)]
    pub race_margin: Option<f64>,
    /// Size label of the instance for tables, e.g. `9x9`.
    pub size_label: String,
    /// A number that orders instances by size (cells for Sudoku), for plots.
    pub size: Option<f64>,
    /// Puzzle-specific facts about the instance, `key=value` pairs joined by `;`.
    pub instance_info: String,
    /// Formulation key, e.g. `binary`.
    pub formulation: String,
    /// Engine key: the engine that made the search, e.g. `highs` (HiGHS's MIP solver) or
    /// `bc` (the project's branch and cut on HiGHS's simplex).
    pub backend: String,
    /// Repeat number, from 1.
    pub repeat: u32,
    /// Random seed the engine applied; empty for an engine without one (microlp,
    /// propagate).
    pub seed: Option<u64>,
    /// Threads the engine applied; empty for an engine without the setting.
    pub threads: Option<u32>,
    /// Time limit of the whole run in seconds (model building, LP relaxation and every
    /// solve draw on it), empty for none.
    pub time_limit: Option<f64>,
    /// A race's adaptive cap on the run in seconds, below `time_limit`: the solver's limit
    /// for this run alone, set from the race's best on the instance
    /// ([`crate::race::capping`]); empty for an uncapped run. A run stopped by it has
    /// status `capped`.
    #[serde(default)]
    pub cap_seconds: Option<f64>,
    /// Presolve as the engine applied it: on (true) or off (false), empty for an engine
    /// without presolve (CBC under its cut callback: always off).
    pub presolve: Option<bool>,
    /// Relative MIP gap the engine applied; empty for an engine without one.
    pub mip_gap: Option<f64>,
    /// Search heuristics of the `propagate` and `prolog` engines (`none`, `1`, `12`, `123`,
    /// `root`; `prolog` records `none` for `root`);
    /// empty for engines that have none.
    pub heuristics: Option<String>,
    /// Solutions asked for (`--count`; 2 proves uniqueness).
    #[serde(default = "one")]
    pub count: u32,
    /// `optimal`, `feasible`, `infeasible`, `time_limit`, `capped` (stopped by a race's
    /// adaptive cap, `cap_seconds`: slower there than the race's best by the cap's margin,
    /// neither a success nor a failure outside the race), `refused` (the engine or the
    /// formulation does not take the run: neither a success nor a failure) or `error`.
    pub status: String,
    /// Seconds of the solve, on the solve clock (wall-clock time around the engine's
    /// solve: all rounds for row generation; not the LP relaxation or the model building).
    /// For a solver in a child process (`cpsat`, `scip`, `glpk`), the solver's own solve
    /// time as it reports it. For a run killed at its hard limit, the worker's wall-clock
    /// time as the parent saw it.
    pub seconds: Option<f64>,
    /// For a solver in a child process (`cpsat`, `scip`, `glpk`): wall-clock seconds of the
    /// whole call, process start and model transfer included (all rounds for row
    /// generation), while `seconds` is the solver's own solve time; empty for engines in
    /// this process.
    pub call_seconds: Option<f64>,
    /// Seconds spent building the model, on the solve clock (wall-clock time around the
    /// build).
    pub build_seconds: Option<f64>,
    /// Objective of the best solution found.
    pub objective: Option<f64>,
    /// Best proven bound on the objective.
    pub best_bound: Option<f64>,
    /// |objective − best_bound| / max(|objective|, 1e-10).
    pub gap: Option<f64>,
    /// Seconds on the run clock (from the start of the run, where its time limit starts:
    /// model building, LP relaxation and, for a solver in a child process, the driver's
    /// start included) to the first solution the engine reported; empty where the engine
    /// reports no timeline (its `timeline` capability) or found none. Never above
    /// `best_solution_seconds`. The timeline itself is in `<results>.timelines.jsonl`.
    pub first_solution_seconds: Option<f64>,
    /// Seconds on the run clock to the last improvement of its best solution; empty as
    /// `first_solution_seconds`. Never above `run_seconds`.
    pub best_solution_seconds: Option<f64>,
    /// Seconds on the run clock from the start of the run to its end: the run's total,
    /// model building, LP relaxation and solve (and for a solver in a child process its
    /// start and model transfer), the horizon of its integrals; for every engine. Empty
    /// where the run's end was not seen: a run killed at its hard limit or whose worker
    /// failed, a run refused before it started, and rows of older versions.
    pub run_seconds: Option<f64>,
    /// Berthold's primal integral in seconds on the run clock: the primal gap to the
    /// reference objective, integrated from the start of the run to its end
    /// (`run_seconds`; 1 while no solution is held). Written where the reference is known
    /// when the row is: the optimum the run itself proved; the report fills the rest from
    /// the timelines, with the best objective of the instance in the results file as
    /// reference.
    pub primal_integral: Option<f64>,
    /// Berthold's primal–dual integral in seconds on the run clock: the gap between
    /// incumbent and bound as they stood, integrated over the run (1 while either is
    /// missing); empty where the engine reported no bound.
    pub primal_dual_integral: Option<f64>,
    /// Optimum of the LP relaxation of the same model on the same engine (or the LP solver
    /// under it: HiGHS for `bc`); empty for engines without LPs.
    pub lp_bound: Option<f64>,
    /// Seconds of the LP-relaxation solve, on the solve clock (wall-clock time around it).
    pub lp_seconds: Option<f64>,
    /// Branch-and-bound nodes, where the engine reports them.
    pub nodes: Option<u64>,
    /// Variables of the model.
    pub variables: Option<usize>,
    /// Binary variables.
    pub binaries: Option<usize>,
    /// General integer variables.
    pub integers: Option<usize>,
    /// Continuous variables.
    pub continuous: Option<usize>,
    /// Rows of the model.
    pub constraints: Option<usize>,
    /// Nonzero coefficients.
    pub nonzeros: Option<usize>,
    /// Whether the puzzle's independent verifier accepted the solution (empty: no solution to check).
    pub verified: Option<bool>,
    /// Hash of the verified answer ([`answer_hash`]: 16 hex digits of a SHA-256 over the
    /// answer's canonical JSON), so that two files can be told to hold the same answer or
    /// different ones (`puzzlebench diff`); empty when there is no verified answer, and in
    /// files of older versions.
    #[serde(default)]
    pub answer_hash: String,
    /// Solves of a row-generation loop (rounds), or LP solves after which a branch and cut
    /// added rows; for counting, the solves.
    pub rounds: Option<u64>,
    /// Rows added while solving (row generation, lazy rows, no-good rows of counting).
    pub cuts: Option<u64>,
    /// Seconds of `seconds` (on its solve clock) spent finding the rows to add (row
    /// generation: the separator between solves; minimum-clue Sudoku: the follower), so that the solver's
    /// share is `seconds` minus this; empty where nothing was separated between solves.
    pub separator_seconds: Option<f64>,
    /// Variables fixed by deductions before solving.
    pub fixings: Option<u64>,
    /// Propagator-induced domain reductions (propagation engines).
    pub inferences: Option<u64>,
    /// Logical inferences of a Prolog search, as SWI-Prolog counts them
    /// (`statistics(inferences, _)` around the search alone: engine `prolog`), the unit of
    /// the report's Table 7.5; another measure than `inferences`. Empty elsewhere and in
    /// files of older versions.
    #[serde(default)]
    pub logical_inferences: Option<u64>,
    /// Conflicts of the SAT search (engine `sat`; its decisions are in `nodes`).
    pub conflicts: Option<u64>,
    /// Clauses the SAT solver held at the end of the run: the encoded model, rows added
    /// while solving and objective bounds (engine `sat`).
    pub clauses: Option<u64>,
    /// Auxiliary variables of the clause encoding, beyond the model's columns (engine
    /// `sat`).
    pub aux_variables: Option<u64>,
    /// Solutions found, up to `count`, where the formulation counts them (with count 2:
    /// 1 means unique).
    pub solutions: Option<u64>,
    /// What became of the run's claim beyond a valid answer, with `--certify`
    /// ([`crate::certify`]): `checked (<claim>, <checker and version>)`,
    /// `rejected (<claim>): <the checker's reason>`, or `none: <why>`; empty when no
    /// certificate was asked for.
    #[serde(default)]
    pub certificate: String,
    /// Seconds of the certifying search (writing the model and the proof included).
    #[serde(default)]
    pub certify_seconds: Option<f64>,
    /// Seconds of the checker (VeriPB) on the proof.
    #[serde(default)]
    pub check_seconds: Option<f64>,
    /// Size of the proof in bytes.
    #[serde(default)]
    pub proof_bytes: Option<u64>,
    /// Why the run failed (status `error`) or was refused (status `refused`); why the
    /// verifier refused a solution.
    pub error: Option<String>,
    /// Wall-clock seconds of the whole worker process, as the parent measured them on its
    /// own clock (process start, reading the instance, the run, verifying); empty for a
    /// run in the parent's process (`solve`, `--in-process`).
    pub wall_seconds: Option<f64>,
    /// CPU seconds (user + system) of the worker's whole process tree, children included
    /// (how: `measured_by`).
    pub cpu_seconds: Option<f64>,
    /// Peak memory of the worker's whole process tree in MiB (how: `measured_by`). Files
    /// of older versions call it `peak_rss_mb`.
    #[serde(alias = "peak_rss_mb")]
    pub peak_memory_mb: Option<f64>,
    /// How `cpu_seconds` and `peak_memory_mb` were measured: `cgroup2` or `cgroup1` (a
    /// cgroup per run: every process of the run, children included, even those that were
    /// never waited for; peak memory of the cgroup, page cache included), or `rusage` (the
    /// fallback without cgroups: `wait4` of the worker, which counts the CPU time of
    /// children the worker waited for and the peak resident memory of its largest process).
    #[serde(default)]
    pub measured_by: String,
    /// The memory limit of the run in MiB, empty for none (enforced by the cgroup, or by an
    /// address-space limit with `rusage`).
    pub memory_limit_mb: Option<u64>,
    /// The logical CPUs the worker could run on, as the worker itself read its affinity
    /// ("0", "2,3").
    #[serde(default)]
    pub cores: String,
    /// Id of the machine the run ran on: the record of that machine is in the sweep file
    /// beside the results file (`<results>.sweeps.jsonl`).
    #[serde(default)]
    pub machine: String,
    /// The engine's name and version (for `bc`, with the LP solver underneath); for a
    /// solver in a Python driver, the version the driver reported, ending in ` [warm]`
    /// when the driver was forked by its fork server rather than started cold (see
    /// `engines::warm`).
    pub solver_version: String,
    /// Commit of puzzlebench that produced the row.
    pub git_commit: String,
    /// Host name of the machine.
    pub host: String,
    /// When the run ended, UTC, RFC 3339.
    pub timestamp: String,
    /// The label of the row's machine, set by the report when its rows come from more than
    /// one machine and are kept apart: [`Record::backend_label`] ends in `@<label>`. Never
    /// written or read.
    #[serde(skip)]
    pub machine_label: Option<String>,
}

fn one() -> u32 {
    1
}

impl Record {
    /// The engine with every search setting that differs from the usual one, for grouping
    /// rows in summaries, tables and plots, so that runs that differ in a setting are never
    /// pooled: `highs`, `highs-nopresolve`, `highs-t4-gap0.01`, `propagate-h123`,
    /// `bc-count2`. The parts, in this order: `h<heuristics>`, `nopresolve` (presolve
    /// applied off), `t<threads>` (more than one), `gap<mip gap>` (above 0), `count<n>`
    /// (more than one solution asked for). The seed is not part of it (seeds are what
    /// repeats vary), nor the time limit (each table states its limits). Last, when the
    /// report keeps rows of several machines apart, `@<machine label>`:
    /// `highs-nopresolve@node1`.
    pub fn backend_label(&self) -> String {
        let mut label = self.backend.clone();
        let mut add = |part: String| {
            label.push('-');
            label.push_str(&part);
        };
        match &self.heuristics {
            Some(h) if !h.is_empty() => add(format!("h{h}")),
            _ => {}
        }
        if self.presolve == Some(false) {
            add("nopresolve".into());
        }
        match self.threads {
            Some(t) if t > 1 => add(format!("t{t}")),
            _ => {}
        }
        match self.mip_gap {
            Some(g) if g > 0.0 => add(format!("gap{g}")),
            _ => {}
        }
        if self.count > 1 {
            add(format!("count{}", self.count));
        }
        label.push_str(&self.machine_suffix());
        label
    }

    /// The name of this row's configuration, as every table and the overview write it:
    /// [`config_name`] of its formulation and [`Record::backend_label`]
    /// (`cp on propagate-hroot`).
    pub fn config_name(&self) -> String {
        config_name(&self.formulation, &self.backend_label())
    }

    /// `@<machine label>` when the report keeps machines apart (see
    /// [`Record::machine_label`]), else empty.
    pub fn machine_suffix(&self) -> String {
        self.machine_label
            .as_deref()
            .map_or(String::new(), |m| format!("@{m}"))
    }

    /// The engine key with [`Record::machine_suffix`] (`highs`, `highs@node1`), for tables
    /// that show the settings in columns of their own.
    pub fn backend_at_machine(&self) -> String {
        format!("{}{}", self.backend, self.machine_suffix())
    }

    /// The columns a results file must have for its rows to be read; the others (empty
    /// cells, "not known") may be missing, as in files of older versions.
    pub const REQUIRED: [&'static str; 13] = [
        "run_id",
        "puzzle",
        "instance",
        "size_label",
        "instance_info",
        "formulation",
        "backend",
        "repeat",
        "status",
        "solver_version",
        "git_commit",
        "host",
        "timestamp",
    ];

    /// Columns of older versions that a field reads under another name today.
    pub const OLD_NAMES: [&'static str; 1] = ["peak_rss_mb"];

    /// The CSV header, in column order.
    pub fn header() -> Vec<String> {
        let mut w = csv::Writer::from_writer(vec![]);
        w.serialize(Record::default())
            .expect("serialise default record");
        let bytes = w.into_inner().expect("flush");
        let text = String::from_utf8(bytes).expect("utf-8");
        text.lines()
            .next()
            .unwrap_or("")
            .split(',')
            .map(String::from)
            .collect()
    }

    /// True when the run found a solution.
    pub fn solved(&self) -> bool {
        self.status == "optimal" || self.status == "feasible"
    }

    /// True when the engine or the formulation refused the run (status `refused`, the
    /// reason in `error`): nothing was searched, so the run is neither a success nor a
    /// failure and enters no time statistic, solved count or verdict.
    pub fn is_refused(&self) -> bool {
        self.status == "refused"
    }

    /// True when a race's adaptive cap stopped the run (status `capped`): it was slower
    /// there than the race's best by the cap's margin, which the race counts; outside the
    /// race it is neither a success nor a failure and enters no statistic.
    pub fn is_capped(&self) -> bool {
        self.status == CAPPED
    }
}

/// The status of a run a race's adaptive cap stopped ([`Record::is_capped`]).
pub const CAPPED: &str = "capped";

/// What is wrong with the times of `r` on the run clock, or None when they hold
/// `first_solution_seconds` ≤ `best_solution_seconds` ≤ `run_seconds`: each known time is 0
/// or more, the first and the best solution are known together, and a row that knows them
/// knows `run_seconds` (the end of the clock they are on).
pub fn clock_problem(r: &Record) -> Option<String> {
    let named = [
        ("first_solution_seconds", r.first_solution_seconds),
        ("best_solution_seconds", r.best_solution_seconds),
        ("run_seconds", r.run_seconds),
    ];
    if let Some((name, t)) = named
        .iter()
        .find_map(|(n, t)| t.filter(|t| !(*t >= 0.0 && t.is_finite())).map(|t| (n, t)))
    {
        return Some(format!("{name} is {t}, not a time"));
    }
    match (r.first_solution_seconds, r.best_solution_seconds, r.run_seconds) {
        (None, None, _) => None,
        (Some(_), None, _) | (None, Some(_), _) => Some(
            "first_solution_seconds and best_solution_seconds are not known together".into(),
        ),
        (Some(_), Some(_), None) => Some(
            "first and best solution times without run_seconds, the end of their clock".into(),
        ),
        (Some(first), Some(best), Some(run)) => (!(first <= best && best <= run)).then(|| {
            format!(
                "first_solution_seconds {first} ≤ best_solution_seconds {best} ≤ run_seconds {run} does not hold"
            )
        }),
    }
}

/// Every row of the results file at `path` whose run-clock times break the order of
/// [`clock_problem`], as `path:line: run <run id>: problem` (an empty list when every row
/// holds it).
pub fn clock_problems(path: &std::path::Path) -> Result<Vec<String>, String> {
    Ok(read_results(path)?
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            clock_problem(r)
                .map(|why| format!("{}:{}: run {}: {why}", path.display(), i + 2, r.run_id))
        })
        .collect())
}

/// The last attempt of each run id on each machine, in the order of `rows` (a row with no
/// id, from a hand-made file, is its own run), and how many earlier attempts were set
/// aside: a run written twice to one file (run again, or resumed after it was cut short)
/// counts once, while the same planned run measured on two machines (two hosts or machine
/// records) is two measurements.
pub fn last_attempts(rows: Vec<Record>) -> (Vec<Record>, usize) {
    let key = |r: &Record| (r.run_id.clone(), r.machine.clone(), r.host.clone());
    let mut last: std::collections::HashMap<(String, String, String), usize> = Default::default();
    for (i, r) in rows.iter().enumerate() {
        if !r.run_id.is_empty() {
            last.insert(key(r), i);
        }
    }
    let before = rows.len();
    let kept: Vec<Record> = rows
        .into_iter()
        .enumerate()
        .filter(|(i, r)| r.run_id.is_empty() || last[&key(r)] == *i)
        .map(|(_, r)| r)
        .collect();
    let set_aside = before - kept.len();
    (kept, set_aside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_check_holds_first_before_best_before_the_end() {
        let row = |first: Option<f64>, best: Option<f64>, run: Option<f64>| Record {
            first_solution_seconds: first,
            best_solution_seconds: best,
            run_seconds: run,
            ..Record::default()
        };
        assert_eq!(clock_problem(&row(Some(1.0), Some(2.0), Some(2.0))), None);
        assert_eq!(clock_problem(&row(None, None, Some(2.0))), None);
        assert_eq!(clock_problem(&row(None, None, None)), None);
        // The example report's rows before issue 54: a first solution after `seconds`,
        // and no end of the run clock to check it against.
        let old = row(Some(0.539), Some(0.539), None);
        assert!(clock_problem(&old).unwrap().contains("without run_seconds"));
        for bad in [
            row(Some(3.0), Some(2.0), Some(5.0)),
            row(Some(1.0), Some(6.0), Some(5.0)),
            row(Some(1.0), None, Some(5.0)),
            row(Some(-1.0), Some(1.0), Some(5.0)),
            row(None, None, Some(f64::NAN)),
        ] {
            assert!(clock_problem(&bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn a_run_id_counts_once_its_last_attempt() {
        let row = |id: &str, status: &str| Record {
            run_id: id.into(),
            status: status.into(),
            ..Record::default()
        };
        let rows = vec![
            row("a", "time_limit"),
            row("b", "optimal"),
            row("", "optimal"),
            row("a", "optimal"),
            row("", "optimal"),
        ];
        let (kept, set_aside) = last_attempts(rows);
        assert_eq!(set_aside, 1);
        let ids: Vec<(&str, &str)> = kept
            .iter()
            .map(|r| (r.run_id.as_str(), r.status.as_str()))
            .collect();
        assert_eq!(
            ids,
            [
                ("b", "optimal"),
                ("", "optimal"),
                ("a", "optimal"),
                ("", "optimal")
            ]
        );
        // The same run id on another machine is another measurement, kept.
        let mut elsewhere = row("b", "optimal");
        elsewhere.machine = "other".into();
        let (kept, set_aside) = last_attempts(vec![row("b", "optimal"), elsewhere]);
        assert_eq!((kept.len(), set_aside), (2, 0));
    }

    #[test]
    fn the_answer_hash_is_the_same_for_the_same_answer_in_any_key_order() {
        let a: serde_json::Value =
            serde_json::from_str(r#"{"grid": ["12", "21"], "ships": [[0, 1, 2, "v"]]}"#).unwrap();
        let mut map = serde_json::Map::new();
        map.insert("ships".into(), a["ships"].clone());
        map.insert("grid".into(), a["grid"].clone());
        let b = serde_json::Value::Object(map);
        assert_eq!(
            canonical_json(&a),
            r#"{"grid":["12","21"],"ships":[[0,1,2,"v"]]}"#
        );
        assert_eq!(answer_hash(&a), answer_hash(&b));
        assert_eq!(answer_hash(&a).len(), 16);
        let other: serde_json::Value = serde_json::from_str(r#"{"grid": ["21", "12"]}"#).unwrap();
        assert_ne!(answer_hash(&a), answer_hash(&other));
        let h = Record::header();
        let at = |c: &str| h.iter().position(|x| x == c).unwrap();
        assert_eq!(at("answer_hash"), at("verified") + 1);
    }

    #[test]
    fn header_has_the_design_columns() {
        let h = Record::header();
        for col in [
            "puzzle",
            "instance",
            "formulation",
            "backend",
            "repeat",
            "seed",
            "threads",
            "time_limit",
            "status",
            "seconds",
            "build_seconds",
            "objective",
            "best_bound",
            "gap",
            "lp_bound",
            "nodes",
            "variables",
            "binaries",
            "integers",
            "continuous",
            "constraints",
            "nonzeros",
            "verified",
            "solver_version",
            "git_commit",
            "host",
            "timestamp",
        ] {
            assert!(h.iter().any(|c| c == col), "missing column {col}");
        }
    }

    #[test]
    fn backend_label_names_every_setting_that_differs_from_the_usual() {
        let usual = Record {
            backend: "highs".into(),
            presolve: Some(true),
            threads: Some(1),
            mip_gap: Some(0.0),
            count: 1,
            ..Record::default()
        };
        assert_eq!(usual.backend_label(), "highs");
        let off = Record {
            presolve: Some(false),
            ..usual.clone()
        };
        assert_eq!(off.backend_label(), "highs-nopresolve");
        let all = Record {
            threads: Some(4),
            mip_gap: Some(0.01),
            count: 2,
            ..off.clone()
        };
        assert_eq!(all.backend_label(), "highs-nopresolve-t4-gap0.01-count2");
        let cp = Record {
            backend: "propagate".into(),
            heuristics: Some("123".into()),
            ..Record::default()
        };
        assert_eq!(cp.backend_label(), "propagate-h123");
        let elsewhere = Record {
            machine_label: Some("node1".into()),
            ..off.clone()
        };
        assert_eq!(elsewhere.backend_label(), "highs-nopresolve@node1");
        assert_eq!(elsewhere.backend_at_machine(), "highs@node1");
        assert_eq!(off.backend_at_machine(), "highs");
    }

    #[test]
    fn the_machine_label_is_never_written() {
        let r = Record {
            machine: "1a2b3c4d".into(),
            machine_label: Some("node1".into()),
            ..Record::default()
        };
        assert!(!Record::header().iter().any(|c| c == "machine_label"));
        let mut w = csv::Writer::from_writer(vec![]);
        w.serialize(&r).unwrap();
        let bytes = w.into_inner().unwrap();
        let back: Record = csv::Reader::from_reader(bytes.as_slice())
            .deserialize()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(back.machine, "1a2b3c4d");
        assert_eq!(back.machine_label, None);
    }

    #[test]
    fn the_required_columns_are_exactly_those_a_row_cannot_be_read_without() {
        let read = |columns: &[&str]| {
            let text = format!(
                "{}\n{}\n",
                columns.join(","),
                vec!["1"; columns.len()].join(",")
            );
            let mut rd = csv::Reader::from_reader(text.as_bytes());
            rd.deserialize::<Record>().next().unwrap().is_ok()
        };
        assert!(read(&Record::REQUIRED));
        for k in 0..Record::REQUIRED.len() {
            let mut fewer = Record::REQUIRED.to_vec();
            fewer.remove(k);
            assert!(!read(&fewer), "{} is not needed", Record::REQUIRED[k]);
        }
    }

    #[test]
    fn files_of_older_versions_keep_their_peak_memory() {
        let text = format!(
            "{},peak_rss_mb\n{},12.5\n",
            Record::REQUIRED.join(","),
            vec!["1"; 13].join(",")
        );
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        let r: Record = rd.deserialize().next().unwrap().unwrap();
        assert_eq!(r.peak_memory_mb, Some(12.5));
    }

    #[test]
    fn csv_round_trip_keeps_empty_cells_empty() {
        let r = Record {
            puzzle: "sudoku".into(),
            status: "time_limit".into(),
            best_bound: Some(1.5),
            error: Some("a, \"quoted\" reason".into()),
            ..Record::default()
        };
        let mut w = csv::Writer::from_writer(vec![]);
        w.serialize(&r).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut rd = csv::Reader::from_reader(bytes.as_slice());
        let back: Record = rd.deserialize().next().unwrap().unwrap();
        assert_eq!(back, r);
        assert_eq!(back.objective, None);
    }
}
