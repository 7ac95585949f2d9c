//! The page of a diff: its lines, tables, CSV, Markdown and HTML, and the files
//! [`write`] makes ([`super`] holds the statistics they show).

use super::*;
use crate::report::answer::TOO_FAST;
use crate::table::{secs, Table};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

impl Diff {
    /// The configurations with verdict `change`.
    pub fn with(&self, change: Change) -> Vec<&ConfigDiff> {
        self.configs.iter().filter(|c| c.change == change).collect()
    }

    /// One line on a configuration's change: `zebra: binary on highs: 2.01× (95 % CI
    /// 1.93–2.10), SGM 0.0123 s → 0.0247 s, solved 9 → 9 of 9`; against a machine factor
    /// other than 1, the adjusted ratio too: `4.62× (95 % CI 4.40–4.85), ÷ machine factor
    /// 2.31: 2.00× (95 % CI 1.90–2.10), SGM …`.
    pub fn config_line(&self, c: &ConfigDiff) -> String {
        let adjusted = if self.factor == 1.0 {
            String::new()
        } else {
            format!(
                ", ÷ machine factor {:.2}: {:.2}× (95 % CI {:.2}–{:.2})",
                self.factor, c.adjusted_ratio, c.adjusted_interval.0, c.adjusted_interval.1
            )
        };
        format!(
            "{}: {}: {:.2}× (95 % CI {:.2}–{:.2}){adjusted}, SGM {} s → {} s, solved {} → {} of {}",
            c.key.puzzle,
            c.key.label(),
            c.ratio,
            c.interval.0,
            c.interval.1,
            secs(Some(c.old_sgm)),
            secs(Some(c.new_sgm)),
            c.old_solved,
            c.new_solved,
            c.instances
        )
    }

    /// What the two sides ran on, and whether that differs: machines, engine versions and
    /// puzzlebench commits, one sentence each.
    pub fn provenance_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (name, p) in [("OLD", &self.old), ("NEW", &self.new)] {
            out.push(format!("{name} ran on: {}.", p.machines.join("; ")));
        }
        out.push(if self.old.machine_keys == self.new.machine_keys {
            "The machines are the same.".into()
        } else {
            "The machines differ.".into()
        });
        let engines: BTreeSet<&String> = self
            .old
            .engines
            .keys()
            .filter(|k| self.new.engines.contains_key(*k))
            .collect();
        let join = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
        let changed: Vec<String> = engines
            .iter()
            .filter(|k| self.old.engines[**k] != self.new.engines[**k])
            .map(|k| {
                format!(
                    "{k}: {} → {}",
                    join(&self.old.engines[*k]),
                    join(&self.new.engines[*k])
                )
            })
            .collect();
        let same: Vec<String> = engines
            .iter()
            .filter(|k| self.old.engines[**k] == self.new.engines[**k])
            .map(|k| format!("{k} {}", join(&self.old.engines[*k])))
            .collect();
        if !changed.is_empty() {
            out.push(format!("Engine versions differ: {}.", changed.join("; ")));
        }
        if !same.is_empty() {
            out.push(format!("Engine versions the same: {}.", same.join(", ")));
        }
        out.push(if self.old.commits == self.new.commits {
            format!(
                "puzzlebench commit: {} on both sides.",
                join(&self.old.commits)
            )
        } else {
            format!(
                "puzzlebench commits differ: {} → {}.",
                join(&self.old.commits),
                join(&self.new.commits)
            )
        });
        out
    }

    /// One line on the machine factor: what the configurations are judged against and the
    /// estimate. `NEW's machine is 2.31× slower (95 % CI 2.18–2.45, median over 233
    /// configurations' time ratios NEW/OLD); configurations judged against it.`
    pub fn factor_line(&self) -> String {
        let estimate = |m: &MachineFactor| {
            format!(
                "{:.2} ({}, over {} configurations)",
                m.median,
                m.interval_text(|x| x),
                m.configurations
            )
        };
        let none = format!(
            "no configuration has an instance both sides solved in {} ms or more",
            TOO_FAST * 1000.0
        );
        match (self.factor_from, &self.estimate) {
            (FactorFrom::Estimated, Some(m)) => {
                let (speed, scale): (&str, fn(f64) -> f64) = if m.median >= 1.0 {
                    ("slower", |x| x)
                } else {
                    ("faster", |x| 1.0 / x)
                };
                format!(
                    "NEW's machine is {:.2}× {speed} ({}, median over {} configurations' time ratios NEW/OLD); configurations judged against it.",
                    scale(m.median),
                    m.interval_text(scale),
                    m.configurations
                )
            }
            (FactorFrom::Given, m) => format!(
                "Configurations judged against the machine factor {} of --machine-factor; the median time ratio NEW/OLD is {}.",
                self.factor,
                m.as_ref().map_or(none, estimate)
            ),
            (FactorFrom::SameMachines, Some(m)) => format!(
                "The median time ratio NEW/OLD is {}; the machines are the same, so configurations are judged against 1.",
                estimate(m)
            ),
            (FactorFrom::SameMachines, None) => format!(
                "No median time ratio NEW/OLD: {none}; the machines are the same, so configurations are judged against 1."
            ),
            (FactorFrom::NoEstimate | FactorFrom::Estimated, _) => format!(
                "The machines differ, but {none}: no machine factor, configurations judged against 1."
            ),
        }
    }

    /// The counts in one paragraph.
    pub fn summary(&self) -> String {
        let n = |c| self.with(c).len();
        format!(
            "{} runs in OLD, {} in NEW ({} and {} earlier attempts set aside); {} matched by run id, {} of them refused or capped on a side. {} configurations: {} regressions, {} improvements, {} within noise, {} without a verdict (both under {} ms, or a single run). {} differing answers ({} runs' optima compared, {} answers compared by hash where known to be unique), {} status changes.",
            self.runs.0,
            self.runs.1,
            self.set_aside.0,
            self.set_aside.1,
            self.shared,
            self.refused.len(),
            self.configs.len(),
            n(Change::Regression),
            n(Change::Improvement),
            n(Change::WithinNoise),
            n(Change::NoVerdict),
            TOO_FAST * 1000.0,
            self.differing.len(),
            self.compared.0,
            self.compared.1,
            self.status_changes.len()
        )
    }

    /// The tables of the diff, in the order they are shown: differing answers, then
    /// regressions and improvements, status changes, every configuration, refused runs.
    pub fn tables(&self) -> Vec<Table> {
        let mut out = Vec::new();
        out.push(runs_table(
            "differing_answers",
            "Differing answers: one side is wrong",
            &["what differs"],
            self.differing
                .iter()
                .map(|x| (&x.run, vec![x.what.clone()]))
                .collect(),
            vec![format!("A run both sides solved with a verified answer, and: both proved optimal (no MIP gap allowed) with objectives more than {OBJECTIVE_TOLERANCE} (relative) apart; or both settled a count with different numbers of solutions; or the answers' hashes differ on an instance whose answer is known to be unique (a settled count of one solution of the same instance and formulation in either file, or unique=yes among the instance's facts).")],
        ));
        // Against a factor other than 1, the adjusted ratio and its interval follow the
        // plain ones.
        let adjusted = self.factor != 1.0;
        let config_rows = |cs: &[&ConfigDiff]| -> Vec<Vec<String>> {
            cs.iter()
                .map(|c| {
                    let mut row = vec![
                        c.key.puzzle.clone(),
                        c.key.label(),
                        format!("{} → {} of {}", c.old_solved, c.new_solved, c.instances),
                        secs(Some(c.old_sgm)),
                        secs(Some(c.new_sgm)),
                        format!("{:.2}", c.ratio),
                        format!("{:.2}–{:.2}", c.interval.0, c.interval.1),
                    ];
                    if adjusted {
                        row.push(format!("{:.2}", c.adjusted_ratio));
                        row.push(format!(
                            "{:.2}–{:.2}",
                            c.adjusted_interval.0, c.adjusted_interval.1
                        ));
                    }
                    row.extend([
                        c.change.word().to_string(),
                        c.status_changes.to_string(),
                        c.differing_answers.to_string(),
                    ]);
                    row
                })
                .collect()
        };
        let shift = self.shift;
        let mut columns: Vec<String> = [
            "puzzle".to_string(),
            "configuration".into(),
            "solved OLD → NEW".into(),
            format!("OLD SGM{shift} (s)"),
            format!("NEW SGM{shift} (s)"),
            "ratio NEW/OLD".into(),
            "95 % CI".into(),
        ]
        .to_vec();
        if adjusted {
            columns.push("ratio ÷ factor".into());
            columns.push("95 % CI ÷ factor".into());
        }
        columns.extend(["verdict", "status changes", "differing answers"].map(String::from));
        let flagged: Vec<&ConfigDiff> = self
            .configs
            .iter()
            .filter(|c| matches!(c.change, Change::Regression | Change::Improvement))
            .collect();
        let verdict_note = format!("Per configuration, over the instances both sides ran: each instance's time is the median over its repeats, a failure counting at its limit; SGM{shift}: shifted geometric mean exp(mean(ln(t + {shift}))) − {shift}, in seconds; ratio: NEW's SGM over OLD's, 95 % CI by percentile bootstrap over instances and repeats. regression: NEW solved fewer instances, or the interval lies above 1; improvement: NEW solved more, or the interval lies below 1; within noise: the interval holds 1; no verdict: both medians under {} ms, or one instance run once on each side.", TOO_FAST * 1000.0);
        let verdict_note = if adjusted {
            format!("{verdict_note} Judged against the machine factor {:.2}: NEW's times of solved runs divided by it (failures stay at their limit) before the ratio ÷ factor, its interval and the verdict, so that a configuration is flagged when it moved differently from the rest.", self.factor)
        } else {
            verdict_note
        };
        out.push(Table {
            stem: "changes".into(),
            title: "Regressions and improvements".into(),
            columns: columns.clone(),
            labels: 2,
            rows: config_rows(&flagged),
            notes: vec![verdict_note.clone()],
        });
        out.push(runs_table(
            "status_changes",
            "Status changes: solved on one side, not on the other",
            &["OLD", "NEW"],
            self.status_changes
                .iter()
                .map(|x| (&x.run, vec![x.old.clone(), x.new.clone()]))
                .collect(),
            vec!["Solved: a verified solution, or proven infeasible.".into()],
        ));
        out.push(Table {
            stem: "configurations".into(),
            title: "Every configuration".into(),
            columns,
            labels: 2,
            rows: config_rows(&self.configs.iter().collect::<Vec<_>>()),
            notes: vec![verdict_note],
        });
        out.push(runs_table(
            "refused",
            "Runs refused or capped on a side (in no statistic)",
            &["OLD", "NEW"],
            self.refused
                .iter()
                .map(|(run, a, b)| (run, vec![a.clone(), b.clone()]))
                .collect(),
            vec![],
        ));
        out
    }

    /// `diff.csv`: one row per configuration, the columns of [`CSV_COLUMNS`].
    pub fn to_csv(&self) -> Result<String, String> {
        let mut w = csv::Writer::from_writer(vec![]);
        w.write_record(CSV_COLUMNS).map_err(|e| e.to_string())?;
        for c in &self.configs {
            w.write_record([
                c.key.puzzle.clone(),
                c.key.formulation.clone(),
                c.key.engine.clone(),
                c.key.settings.clone(),
                c.instances.to_string(),
                c.old_sgm.to_string(),
                c.new_sgm.to_string(),
                c.ratio.to_string(),
                c.interval.0.to_string(),
                c.interval.1.to_string(),
                c.change.word().to_string(),
                c.status_changes.to_string(),
                c.differing_answers.to_string(),
                c.time_ratio.map(|r| r.to_string()).unwrap_or_default(),
                self.factor.to_string(),
                c.adjusted_ratio.to_string(),
                c.adjusted_interval.0.to_string(),
                c.adjusted_interval.1.to_string(),
            ])
            .map_err(|e| e.to_string())?;
        }
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|e| e.to_string())
    }

    /// `diff.md`.
    pub fn to_markdown(&self) -> String {
        let mut md = format!(
            "# puzzlebench diff\n\nOLD: `{}`; NEW: `{}`.\n\n{}\n\n{}\n\n",
            self.old_path.display(),
            self.new_path.display(),
            self.summary(),
            self.factor_line()
        );
        for l in self.provenance_lines() {
            let _ = writeln!(md, "- {l}");
        }
        md.push('\n');
        for t in self.tables() {
            if t.rows.is_empty() {
                let _ = writeln!(md, "### {}\n\nNone.\n", t.title);
            } else {
                md.push_str(&t.to_markdown());
                md.push('\n');
            }
        }
        md
    }

    /// `diff.html`: a self-contained page in the report's style.
    pub fn to_html(&self) -> String {
        html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { "puzzlebench diff" }
                    style { (PreEscaped(crate::report::html::STYLE)) (PreEscaped(DIFF_STYLE)) }
                }
                body {
                    h1 { "puzzlebench diff" }
                    p { "OLD: " code { (self.old_path.display()) } "; NEW: " code { (self.new_path.display()) } "." }
                    p { (self.summary()) }
                    p { (self.factor_line()) }
                    ul class="note" { @for l in self.provenance_lines() { li { (l) } } }
                    label class="note" {
                        input type="checkbox" id="only-flagged";
                        " show only flagged configurations (regressions, improvements, status changes, differing answers)"
                    }
                    @for t in self.tables() { (table_html(&t)) }
                    script { (PreEscaped(DIFF_SCRIPT)) }
                }
            }
        }
        .into_string()
    }
}

/// A table with a row per run: the run's puzzle, instance, configuration, repeat and id,
/// then a cell per column of `extra`.
fn runs_table(
    stem: &str,
    title: &str,
    extra: &[&str],
    runs: Vec<(&RunName, Vec<String>)>,
    notes: Vec<String>,
) -> Table {
    let mut columns: Vec<String> = ["puzzle", "instance", "configuration", "repeat", "run id"]
        .map(String::from)
        .to_vec();
    columns.extend(extra.iter().map(|c| c.to_string()));
    Table {
        stem: stem.into(),
        title: title.into(),
        columns,
        labels: 5,
        rows: runs
            .into_iter()
            .map(|(r, cells)| {
                let mut row = vec![
                    r.key.puzzle.clone(),
                    r.instance.clone(),
                    r.key.label(),
                    r.repeat.to_string(),
                    r.run_id.clone(),
                ];
                row.extend(cells);
                row
            })
            .collect(),
        notes,
    }
}

/// A table of the diff as HTML: each configuration row marked with its verdict (for the
/// colours and the filter), "None." for a table without rows.
fn table_html(t: &Table) -> Markup {
    let verdict_at = t.columns.iter().position(|c| c == "verdict");
    let counts_at = t.columns.iter().position(|c| c == "status changes");
    let interval_at: Vec<bool> = t.columns.iter().map(|c| c.starts_with("95 % CI")).collect();
    html! {
        h2 id=(t.stem) { (t.title) }
        @if t.rows.is_empty() {
            p { "None." }
        } @else {
            table id={ "t-" (t.stem) } {
                thead { tr { @for c in &t.columns { th { (c) } } } }
                tbody {
                    @for r in &t.rows {
                        @let verdict = verdict_at.map(|i| r[i].as_str());
                        @let changed = counts_at.is_some_and(|i| r[i] != "0" || r[i + 1] != "0");
                        tr data-verdict=[verdict] data-changed=[changed.then_some("1")] class=[verdict.map(|v| format!("v-{}", v.replace(' ', "-")))] {
                            @for (i, c) in r.iter().enumerate() {
                                td class=[interval_at.get(i).is_some_and(|x| *x).then_some("interval")] { (c) }
                            }
                        }
                    }
                }
            }
        }
        @for n in &t.notes { p class="note" { (n) } }
    }
}

/// The diff page's own colours on top of the report's style.
const DIFF_STYLE: &str = r#"
td.interval { white-space: nowrap; }
tr.v-regression td { background: #fbe3d6; }
tr.v-improvement td { background: #dbe9f6; }
#t-differing_answers td { background: #f6d2d2; font-weight: 600; }
body.only-flagged #t-configurations tr[data-verdict="within noise"]:not([data-changed]),
body.only-flagged #t-configurations tr[data-verdict="no verdict"]:not([data-changed]) { display: none; }
"#;

/// The diff page's script: the filter of the configurations table, and `data-ready` on the
/// root element once it ran, `data-error` with the message when a script error stopped it
/// (what the browser test reads).
const DIFF_SCRIPT: &str = r#"
window.addEventListener('error', function (e) {
  document.documentElement.setAttribute('data-error', String(e.message));
});
var box = document.getElementById('only-flagged');
function applyFilter() { document.body.classList.toggle('only-flagged', box.checked); }
box.addEventListener('change', applyFilter);
applyFilter();
var shown = Array.prototype.filter.call(
  document.querySelectorAll('#t-configurations tbody tr'),
  function (tr) { return getComputedStyle(tr).display !== 'none'; });
document.documentElement.setAttribute('data-rows', String(shown.length));
document.documentElement.setAttribute('data-ready', '1');
"#;

/// The files `diff` writes into a folder.
#[derive(Clone, Debug)]
pub struct DiffFiles {
    /// `diff.html`.
    pub html: PathBuf,
    /// `diff.md`.
    pub markdown: PathBuf,
    /// `diff.csv`.
    pub csv: PathBuf,
}

/// Writes `diff.html`, `diff.md` and `diff.csv` into `dir` (made when missing).
pub fn write(d: &Diff, dir: &Path) -> Result<DiffFiles, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot create folder: {e}", dir.display()))?;
    let files = DiffFiles {
        html: dir.join("diff.html"),
        markdown: dir.join("diff.md"),
        csv: dir.join("diff.csv"),
    };
    for (path, text) in [
        (&files.html, d.to_html()),
        (&files.markdown, d.to_markdown()),
        (&files.csv, d.to_csv()?),
    ] {
        std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    Ok(files)
}
