//! `puzzlebench merge`: the results files of a sharded sweep (`--shard I/N`) put back into
//! one, checked: the shards must come from one plan split one way and one build, a run
//! recorded twice must be recorded alike (exact duplicates are dropped, differing rows are
//! conflicts and fail the merge), and the runs of the plan that no file holds are named.
//! The sweep records and the timelines beside the inputs go beside the merged file.

use super::{failed, Failure};
use crate::machine::{read_sweeps, sweeps_path, SweepRecord};
use crate::record::{self, Record};
use crate::shard::ShardRecord;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What to merge and where.
pub struct MergeConfig {
    /// The results files, in the order their rows go out.
    pub inputs: Vec<PathBuf>,
    /// The merged results file (its sweep file is written beside it).
    pub out: PathBuf,
    /// Merge even when the files come from different plans, partitions or commits (said on
    /// stderr); conflicting rows still fail.
    pub force: bool,
    /// Fail when a run of the plan is missing.
    pub require_complete: bool,
}

/// One input file: its rows and sweep records.
struct Input {
    path: PathBuf,
    rows: Vec<Record>,
    sweeps: Vec<SweepRecord>,
}

impl Input {
    fn read(path: &Path) -> Result<Input, Failure> {
        if !crate::gz::existing(path).is_file() {
            return Err(failed(format!("{}: no such results file", path.display())));
        }
        Ok(Input {
            path: path.to_path_buf(),
            rows: record::read_results(path).map_err(failed)?,
            sweeps: read_sweeps(path).map_err(failed)?,
        })
    }

    /// The shard records of its sweeps, one per distinct shard (a requeued shard records
    /// one sweep per start).
    fn shards(&self) -> Vec<&ShardRecord> {
        let mut out: Vec<&ShardRecord> = Vec::new();
        for s in self.sweeps.iter().filter_map(|s| s.shard.as_ref()) {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    /// The command of its first sweep, for messages.
    fn command(&self) -> String {
        self.sweeps
            .first()
            .map_or("(no sweep file)".into(), |s| format!("`{}`", s.command))
    }
}

/// What a merge found.
#[derive(Debug, Default)]
pub struct Merged {
    /// The rows, one per run id, in input order.
    pub rows: Vec<Record>,
    /// Rows dropped as exact duplicates of an earlier one.
    pub duplicates: usize,
    /// Runs recorded differently in two places: run id, where each was, the columns
    /// that differ.
    pub conflicts: Vec<String>,
    /// Disagreements between the files' plans, partitions or commits.
    pub disagreements: Vec<String>,
    /// Runs of the plan that no file holds, by shard: "2/4" → run ids.
    pub missing: BTreeMap<String, Vec<String>>,
    /// Shards of the plan that have no file among the inputs.
    pub absent_shards: Vec<String>,
    /// Rows whose run id is not in the plan.
    pub strangers: Vec<String>,
    /// What the inputs are: "a plan of 150 runs in 4 shards" or "not sharded".
    pub plan: String,
    /// Runs of the plan with no row (those of absent shards included); None when the
    /// inputs are not shards.
    pub missing_runs: Option<usize>,
}

/// How two rows of one run differ: the columns, with the values where the outcome
/// differs (status, objective, verified), and whether only measurements differ.
fn difference(a: &Record, b: &Record) -> String {
    let cells = |r: &Record| -> Vec<String> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(vec![]);
        w.serialize(r).expect("a record serialises");
        let bytes = w.into_inner().expect("in memory");
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes.as_slice())
            .records()
            .next()
            .and_then(Result::ok)
            .map(|r| r.iter().map(String::from).collect())
            .unwrap_or_default()
    };
    let (ca, cb) = (cells(a), cells(b));
    let outcome = ["status", "objective", "best_bound", "verified", "error"];
    let mut parts = Vec::new();
    let mut measured_only = true;
    for (h, (x, y)) in Record::header().iter().zip(ca.iter().zip(&cb)) {
        if x == y {
            continue;
        }
        if outcome.contains(&h.as_str()) {
            measured_only = false;
            parts.push(format!("{h} {x:?} vs {y:?}"));
        } else {
            parts.push(h.to_string());
        }
    }
    format!(
        "{}{}",
        parts.join(", "),
        if measured_only {
            " differ (the same outcome, measured twice)"
        } else {
            " differ"
        }
    )
}

/// Merges the inputs' rows and checks them against their plan.
fn merge_inputs(inputs: &[Input]) -> Merged {
    let mut m = Merged::default();
    // The plan and partition.
    let sharded: Vec<(&Input, Vec<&ShardRecord>)> =
        inputs.iter().map(|i| (i, i.shards())).collect();
    let with: Vec<&(&Input, Vec<&ShardRecord>)> =
        sharded.iter().filter(|(_, s)| !s.is_empty()).collect();
    let mut plan_runs: Option<BTreeMap<String, String>> = None;
    if with.is_empty() {
        m.plan =
            "not sharded (no shard records in the sweep files): missing runs cannot be told".into();
    } else {
        for (i, s) in &sharded {
            if s.is_empty() {
                m.disagreements.push(format!(
                    "{} is not a shard (no shard record in its sweep file), while {} is",
                    i.path.display(),
                    with[0].0.path.display()
                ));
            }
        }
        let first = with[0].1[0];
        let describe = |i: &Input, s: &ShardRecord| {
            format!(
                "{}: shard {} of plan {} ({} runs), partition {}, from {}",
                i.path.display(),
                s.shard,
                s.plan_digest,
                s.plan_runs,
                s.partition_digest,
                i.command()
            )
        };
        for (i, shards) in &with {
            if shards.len() > 1 {
                let names: Vec<&str> = shards.iter().map(|s| s.shard.as_str()).collect();
                m.disagreements.push(format!(
                    "{} holds more than one shard ({})",
                    i.path.display(),
                    names.join(", ")
                ));
            }
        }
        let differ = with.iter().flat_map(|(_, shards)| shards).any(|s| {
            s.plan_digest != first.plan_digest
                || s.partition_digest != first.partition_digest
                || shard_count(&s.shard) != shard_count(&first.shard)
        });
        if differ {
            let mut lines = vec![
                "the files are shards of different plans or split differently (other instances, options, build, or --costs):".to_string(),
            ];
            for (i, shards) in &with {
                for s in shards {
                    lines.push(format!("  {}", describe(i, s)));
                }
            }
            m.disagreements.push(lines.join("\n"));
        }
        let count = shard_count(&first.shard).unwrap_or(0);
        let mut owner = BTreeMap::new();
        let mut present = BTreeSet::new();
        for (_, shards) in &with {
            for s in shards {
                present.insert(s.shard.clone());
                for id in &s.runs {
                    owner.insert(id.clone(), s.shard.clone());
                }
            }
        }
        m.absent_shards = (1..=count)
            .map(|i| format!("{i}/{count}"))
            .filter(|s| !present.contains(s))
            .collect();
        m.plan = format!(
            "plan {} of {} runs in {count} shards ({} present)",
            first.plan_digest,
            first.plan_runs,
            present.len()
        );
        plan_runs = Some(owner);
    }
    // Commits.
    let mut commits: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
    for i in inputs {
        for r in &i.rows {
            *commits
                .entry(r.git_commit.as_str())
                .or_default()
                .entry(i.path.display().to_string())
                .or_default() += 1;
        }
    }
    if commits.len() > 1 {
        let mut lines = vec!["the rows come from different builds:".to_string()];
        for (commit, files) in &commits {
            let where_: Vec<String> = files
                .iter()
                .map(|(f, n)| format!("{f} ({n} rows)"))
                .collect();
            lines.push(format!("  commit {commit}: {}", where_.join(", ")));
        }
        m.disagreements.push(lines.join("\n"));
    }
    // Rows.
    let mut at: HashMap<String, (usize, String)> = HashMap::new();
    for i in inputs {
        for (n, r) in i.rows.iter().enumerate() {
            let place = format!("{}:{}", i.path.display(), n + 2);
            match at.get(&r.run_id) {
                None => {
                    at.insert(r.run_id.clone(), (m.rows.len(), place));
                    m.rows.push(r.clone());
                }
                Some((k, first_place)) => {
                    if m.rows[*k] == *r {
                        m.duplicates += 1;
                    } else {
                        m.conflicts.push(format!(
                            "run {} ({} {} {}) at {first_place} and {place}: {}",
                            r.run_id,
                            r.instance,
                            r.formulation,
                            r.backend_label(),
                            difference(&m.rows[*k], r)
                        ));
                    }
                }
            }
        }
    }
    if let Some(owner) = plan_runs {
        let total = with[0].1[0].plan_runs;
        let present = owner.keys().filter(|id| at.contains_key(*id)).count();
        m.missing_runs = Some(total.saturating_sub(present));
        for (id, shard) in &owner {
            if !at.contains_key(id) {
                m.missing.entry(shard.clone()).or_default().push(id.clone());
            }
        }
        // A race's runs are no runs of the plan: each race runs whole in one shard, and
        // the report rebuilds it from its rows.
        m.strangers = m
            .rows
            .iter()
            .filter(|r| r.race.is_empty() && !owner.contains_key(&r.run_id))
            .map(|r| {
                format!(
                    "{} ({} {} {})",
                    r.run_id, r.instance, r.formulation, r.backend
                )
            })
            .collect();
    }
    m
}

/// N of "I/N".
fn shard_count(s: &str) -> Option<usize> {
    s.parse::<crate::shard::Shard>().ok().map(|s| s.count)
}

/// At most `n` lines of `items`, then how many more.
fn first_lines(items: &[String], n: usize) -> String {
    let mut out: Vec<String> = items.iter().take(n).map(|s| format!("  {s}")).collect();
    if items.len() > n {
        out.push(format!("  ... and {} more", items.len() - n));
    }
    out.join("\n")
}

/// Merges the files, prints what it found, and writes `out` (and its sweep file) unless the
/// merge fails: conflicting rows, or (without `force`) files of different plans or builds.
pub fn merge(c: &MergeConfig) -> Result<(), Failure> {
    if c.inputs.is_empty() {
        return Err(super::bad_input("merge needs at least one results file"));
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    };
    if let Some(i) = c.inputs.iter().find(|i| same(i, &c.out)) {
        return Err(super::bad_input(format!(
            "{}: the merged file cannot be one of the inputs; choose another --out",
            i.display()
        )));
    }
    let inputs = c
        .inputs
        .iter()
        .map(|p| Input::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let m = merge_inputs(&inputs);
    eprintln!(
        "{} files, {} rows: {} runs, {} exact duplicates dropped; {}",
        inputs.len(),
        inputs.iter().map(|i| i.rows.len()).sum::<usize>(),
        m.rows.len(),
        m.duplicates,
        m.plan
    );
    if !m.disagreements.is_empty() {
        let text = m.disagreements.join("\n");
        if !c.force {
            return Err(failed(format!(
                "not merged: {text}\n(--force merges them anyway)"
            )));
        }
        eprintln!("warning (--force): {text}");
    }
    if !m.strangers.is_empty() {
        let text = format!(
            "{} rows are runs outside the plan of the shards:\n{}",
            m.strangers.len(),
            first_lines(&m.strangers, 10)
        );
        if !c.force {
            return Err(failed(format!("not merged: {text}\n(--force keeps them)")));
        }
        eprintln!("warning (--force): {text}");
    }
    if !m.conflicts.is_empty() {
        return Err(failed(format!(
            "not merged: {} runs are recorded twice with different results (a shard run twice, or files of different sweeps); keep one of each and merge again:\n{}",
            m.conflicts.len(),
            first_lines(&m.conflicts, 10)
        )));
    }
    let missing = m.missing_runs.unwrap_or(0);
    let mut incomplete = Vec::new();
    for s in &m.absent_shards {
        incomplete.push(format!(
            "shard {s}: no file among the inputs, so all its runs are missing"
        ));
    }
    for (s, ids) in &m.missing {
        incomplete.push(format!(
            "shard {s}: {} runs missing (run it again with --resume to finish it): {}",
            ids.len(),
            ids.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
                + if ids.len() > 5 { ", ..." } else { "" }
        ));
    }
    if !incomplete.is_empty() {
        let text = format!(
            "incomplete: {missing} runs of the plan missing\n{}",
            first_lines(&incomplete, 20)
        );
        if c.require_complete {
            return Err(failed(format!("not merged: {text}")));
        }
        eprintln!("warning: {text}");
    }
    write_merged(&c.out, &m.rows, &inputs)?;
    eprintln!("wrote {} ({} rows)", c.out.display(), m.rows.len());
    Ok(())
}

/// Writes the rows to `out` and the inputs' sweep records (with those already beside
/// `out`) to its sweep file, each through a temporary file renamed into place. An existing
/// `out` is replaced only when every row of it is among the merged rows.
fn write_merged(out: &Path, rows: &[Record], inputs: &[Input]) -> Result<(), Failure> {
    let mut sweeps: Vec<SweepRecord> = Vec::new();
    if out.exists() {
        let old = record::read_results(out).map_err(|e| {
            failed(format!(
                "{e}; --out exists and is not a results file: choose another --out"
            ))
        })?;
        let merged: HashMap<&str, &Record> = rows.iter().map(|r| (r.run_id.as_str(), r)).collect();
        let lost = old
            .iter()
            .filter(|r| merged.get(r.run_id.as_str()) != Some(r))
            .count();
        if lost > 0 {
            return Err(failed(format!(
                "{}: exists and holds {lost} rows that are not among the merged rows; name it as an input too, or choose another --out",
                out.display()
            )));
        }
        sweeps.extend(read_sweeps(out).map_err(failed)?);
    }
    for s in inputs.iter().flat_map(|i| &i.sweeps) {
        if !sweeps.contains(s) {
            sweeps.push(s.clone());
        }
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| failed(format!("{}: {e}", dir.display())))?;
    }
    let mut w = csv::WriterBuilder::new().from_writer(vec![]);
    for r in rows {
        w.serialize(r).map_err(|e| failed(e.to_string()))?;
    }
    let mut bytes = w.into_inner().map_err(|e| failed(e.to_string()))?;
    if rows.is_empty() {
        bytes = format!("{}\n", Record::header().join(",")).into_bytes();
    }
    let mut lines = String::new();
    for s in &sweeps {
        lines.push_str(&serde_json::to_string(s).map_err(|e| failed(e.to_string()))?);
        lines.push('\n');
    }
    replace(&sweeps_path(out), lines.as_bytes())?;
    // The timelines of every input (and of the file merged into), each line once: a reader
    // keeps each run's last attempt, so lines of runs merged from several files agree.
    let mut timelines = String::new();
    let mut seen = std::collections::HashSet::new();
    for p in std::iter::once(out).chain(inputs.iter().map(|i| i.path.as_path())) {
        if let Ok(text) = std::fs::read_to_string(crate::timeline::path_beside(p)) {
            for line in text.lines().filter(|l| !l.is_empty()) {
                if seen.insert(line.to_string()) {
                    timelines.push_str(line);
                    timelines.push('\n');
                }
            }
        }
    }
    if !timelines.is_empty() {
        replace(&crate::timeline::path_beside(out), timelines.as_bytes())?;
    }
    replace(out, &bytes)
}

/// Writes `bytes` to a temporary file beside `path` and renames it into place.
fn replace(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| failed(format!("{}: {e}", dir.display())))?;
    tmp.write_all(bytes)
        .and_then(|_| tmp.flush())
        .map_err(|e| failed(format!("{}: {e}", path.display())))?;
    tmp.persist(path)
        .map_err(|e| failed(format!("{}: {e}", path.display())))?;
    Ok(())
}
