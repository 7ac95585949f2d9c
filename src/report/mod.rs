//! Reports: tables (Markdown and LaTeX), plots (SVG, PNG, PDF, PGFPlots: the formats
//! asked for), the index `README.md` and `paper.tex`, which compiles every table and plot
//! into one document, all rebuilt from result rows alone, so a CSV gathered elsewhere gives the
//! same report. The puzzles' own tables come in as functions ([`crate::table::TableFn`]) and what their
//! instance sizes count as (puzzle key, unit) pairs, so this module knows no puzzle. Every
//! table notes the machines its rows ran on, and rows of several machines are kept apart
//! unless pooled ([`machines`]).

pub mod answer;
pub mod anytime;
pub mod certificates;
pub mod compare;
pub mod diff;
pub mod engines;
pub mod html;
pub mod licence;
pub mod machines;
pub mod paired;
pub mod paper;
pub mod plots;
pub mod race;
pub mod summary;
pub mod tables;

use crate::record::Record;
use crate::table::{Table, TableFn};
use machines::Machines;
use plots::FigureFormat;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a report sets aside before any table, figure or verdict sees its rows, for the
/// pages to say so.
#[derive(Clone, Debug, Default)]
pub struct SetAside {
    /// The refused runs (status `refused`, the last attempt of each): nothing was searched,
    /// so they enter no time statistic, solved count or verdict; the pages show each such
    /// pair as "not run" with its reason.
    pub refused: Vec<Record>,
    /// The runs a race's adaptive cap stopped (status `capped`): their race counts them
    /// (slower than its best there), and its answer charges them their cap (a lower bound
    /// on their time); they measured no time, so every other statistic leaves them out.
    pub capped: Vec<Record>,
    /// Earlier attempts of run ids written more than once (a sweep run again, or resumed
    /// after it was cut short), left out so that each run counts once, its last attempt
    /// ([`crate::record::last_attempts`]).
    pub earlier_attempts: usize,
}

impl SetAside {
    /// Splits `rows` into the rows a report counts (the last attempt of each run id, not
    /// refused) and what it sets aside.
    pub fn take_from(rows: Vec<Record>) -> (Vec<Record>, SetAside) {
        let (last, earlier_attempts) = crate::record::last_attempts(rows);
        let (refused, counted): (Vec<Record>, Vec<Record>) =
            last.into_iter().partition(Record::is_refused);
        let (capped, counted): (Vec<Record>, Vec<Record>) =
            counted.into_iter().partition(Record::is_capped);
        (
            counted,
            SetAside {
                refused,
                capped,
                earlier_attempts,
            },
        )
    }

    /// What was set aside, one sentence, or None when nothing was.
    pub fn sentence(&self) -> Option<String> {
        let mut parts = Vec::new();
        match self.refused.len() {
            0 => {}
            1 => parts.push("1 refused run (nothing searched: an engine or formulation that does not take it; the reason is in the error column) is left out of every statistic".to_string()),
            n => parts.push(format!("{n} refused runs (nothing searched: an engine or formulation that does not take them; the reasons are in the error column) are left out of every statistic")),
        }
        match self.capped.len() {
            0 => {}
            1 => parts.push(format!("1 run stopped by a race's adaptive cap (slower there than {}; its race counts it as slower than its cap, and its answer shows it as stopped, never solved) is left out of every other statistic", crate::race::capping::in_words())),
            n => parts.push(format!("{n} runs stopped by a race's adaptive cap (slower there than {}; their race counts them as slower than their cap, and its answer shows them as stopped, never solved) are left out of every other statistic", crate::race::capping::in_words())),
        }
        match self.earlier_attempts {
            0 => {}
            1 => parts.push("1 earlier attempt of a run written more than once is set aside (each run id counts once, its last attempt)".to_string()),
            n => parts.push(format!("{n} earlier attempts of runs written more than once are set aside (each run id counts once, its last attempt)")),
        }
        (!parts.is_empty()).then(|| parts.join("; ") + ".")
    }
}

/// The most rows of a table that the index (`README.md`) shows; a longer table is named
/// there with a link to its file in `tables/`.
pub const INDEX_ROWS: usize = 25;

/// Where a report went.
#[derive(Debug, Default)]
pub struct Written {
    /// Table files (.md and .tex).
    pub tables: Vec<PathBuf>,
    /// Plot files (those of every format written).
    pub plots: Vec<PathBuf>,
    /// The index.
    pub index: PathBuf,
    /// The LaTeX document of every table and plot.
    pub paper: PathBuf,
    /// The HTML pages: `index.html` (the overview) first, then one per puzzle.
    pub html: Vec<PathBuf>,
    /// The rows the report left out of its statistics ([`SetAside`]).
    pub set_aside: SetAside,
}

/// Every table for `rows`: the summary first, then each puzzle's engines side by side
/// ([`engines::engine_tables`]), then the pairwise comparisons (when any two
/// configurations of a puzzle can be compared), then those of each of `puzzle_tables`;
/// over the rows a report counts ([`SetAside::take_from`]). Each table whose cells use a
/// mark says what it means ([`Table::note_marks`]).
pub fn all_tables(rows: &[Record], shift: f64, puzzle_tables: &[TableFn]) -> Vec<Table> {
    let (rows, _) = SetAside::take_from(rows.to_vec());
    tables_of(
        &rows,
        shift,
        puzzle_tables,
        &compare::comparisons(&rows, shift),
    )
}

/// [`all_tables`] with the pairs of [`compare::comparisons`] already made.
fn tables_of(
    rows: &[Record],
    shift: f64,
    puzzle_tables: &[TableFn],
    pairs: &[compare::Comparison],
) -> Vec<Table> {
    let mut out = vec![tables::summary_table(rows, shift)];
    out.extend(certificates::certificates_table(rows));
    out.extend(engines::engine_tables(rows, shift));
    let comparisons = compare::comparisons_table(pairs, shift);
    if !comparisons.rows.is_empty() {
        out.push(comparisons);
    }
    for f in puzzle_tables {
        out.extend(f(rows));
    }
    let mut by_puzzle: std::collections::BTreeMap<&str, Vec<&Record>> = Default::default();
    for r in rows {
        by_puzzle.entry(r.puzzle.as_str()).or_default().push(r);
    }
    for (p, rs) in by_puzzle {
        out.extend(anytime::anytime_table(p, &rs));
    }
    for t in &mut out {
        t.note_marks();
    }
    out
}

/// Writes tables into `dir/tables`, plots into `dir/plots` (in each of `figures`), the
/// index `dir/README.md` and `dir/paper.tex`. `preamble` is Markdown placed under the index's title (how the rows were made);
/// `machines` are the records of the rows' machines and whether to pool them: under every
/// table a note names the machines of its rows, and rows of several machines are kept
/// apart (`highs@node1`) unless pooled; `puzzle_tables` make the puzzles' own tables;
/// `size_units` name what each puzzle's instance size counts, (puzzle key, unit), for the
/// size axis of its plots; `chosen` are the suites' comparison instances, on which the
/// answer ranks the configurations ([`answer::answers`]); `timelines` are the runs'
/// timelines, which fill the primal integrals the rows lack ([`anytime::fill`]) and draw
/// the primal gap plots; `race_ends` say how each race ended and how many instances it
/// planned ([`race::endings`], from its `race.jsonl`). Every table, figure and verdict sees the rows a report counts:
/// the last attempt of each run id, refusals left out ([`SetAside`]; what was set aside is
/// in [`Written::set_aside`] and handed to the HTML pages).
#[allow(clippy::too_many_arguments)]
pub fn write_report(
    rows: &[Record],
    dir: &Path,
    shift: f64,
    preamble: &str,
    machines: &Machines,
    puzzle_tables: &[TableFn],
    size_units: &[(&str, &str)],
    chosen: &[answer::Chosen],
    figures: &[FigureFormat],
    timelines: &anytime::Timelines,
    race_ends: &std::collections::BTreeMap<String, race::RaceLog>,
) -> Result<Written, String> {
    let tdir = dir.join("tables");
    std::fs::create_dir_all(&tdir).map_err(|e| format!("{}: {e}", tdir.display()))?;
    let mut written = Written::default();
    let every = machines.label(rows);
    let (mut counted, set_aside) = SetAside::take_from(rows.to_vec());
    anytime::fill(&mut counted, timelines);
    let labelled = machines.label(&counted);
    let rows = labelled.as_slice();
    // Races are rebuilt from every row of theirs, refusals included (a refusal takes a
    // candidate out of its race); their verdicts use their own rows only.
    let races = crate::race::state::replay(&every);
    let chosen = race::chosen_with_races(chosen, &races, &every);
    // A raced answer charges a capped run its cap: the runs its race's cap stopped join
    // the rows its answer sees.
    let with_capped: Vec<Record> = rows
        .iter()
        .cloned()
        .chain(machines.label(&set_aside.capped))
        .collect();
    let mut answers = answer::answers(&race::answer_rows(&with_capped), &chosen, shift);
    race::attach(&mut answers, &races, race_ends, &every);
    let pairs = compare::comparisons(rows, shift);
    let mut tables = tables_of(rows, shift, puzzle_tables, &pairs);
    let mut raced: Vec<&str> = every
        .iter()
        .filter(|r| !r.race.is_empty())
        .map(|r| r.puzzle.as_str())
        .collect();
    raced.sort_unstable();
    raced.dedup();
    for p in raced {
        tables.extend(race::elimination_table(p, &races, &every, race_ends));
    }
    if let Some(t) = answer::answers_table(&answers) {
        tables.insert(0, t);
    }
    licence::annotate(&mut tables, &every);
    // The HTML report names the machines once, on its overview; the Markdown and LaTeX
    // tables, which may be taken one by one into a paper, each name theirs.
    let plain_tables = tables.clone();
    machines.annotate(&mut tables, rows);
    for t in &tables {
        for (ext, text) in [("md", t.to_markdown()), ("tex", t.to_latex())] {
            let p = tdir.join(format!("{}.{ext}", t.stem));
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
            written.tables.push(p);
        }
    }
    let pairs_csv = tdir.join("comparisons.csv");
    compare::write_csv(&pairs, &pairs_csv)?;
    written.tables.push(pairs_csv);
    // The figures of a raced answer show what it ranks: its capped runs at their cap.
    let plots = plots::write_plots_with(
        &with_capped,
        &plots::Inputs {
            timelines,
            answers: &answers,
            tables: puzzle_tables,
            shift,
            races: &races,
        },
        &dir.join("plots"),
        size_units,
        figures,
    )?;
    for p in &plots {
        written.plots.extend(p.files.iter().cloned());
    }
    let puzzles: BTreeSet<&str> = rows.iter().map(|r| r.puzzle.as_str()).collect();
    let licences = licence::overview_notes(rows);
    written.paper = paper::write_paper(dir, &tables, &plots, &puzzles, &licences)?;
    let mut md = String::from("# puzzlebench report\n\n");
    if !answers.is_empty() {
        md.push_str("## The answer\n\nWhich formulation on which engine wins each puzzle's comparison instances, by how much, and how sure (the table `answers` below says how):\n\n");
        for a in &answers {
            let _ = writeln!(
                md,
                "- **{}** — {}\n  <br>{}",
                a.title(),
                a.sentence(),
                a.chosen
            );
        }
        md.push('\n');
    }
    md.push_str(preamble);
    md.push('\n');
    let solvers: BTreeSet<&str> = rows.iter().map(|r| r.solver_version.as_str()).collect();
    let commits: BTreeSet<&str> = rows.iter().map(|r| r.git_commit.as_str()).collect();
    let hosts: BTreeSet<&str> = rows.iter().map(|r| r.host.as_str()).collect();
    let _ = writeln!(
        md,
        "{} rows; solvers: {}; puzzlebench commit: {}; hosts: {}.\n",
        rows.len(),
        join(&solvers),
        join(&commits),
        join(&hosts)
    );
    if let Some(s) = set_aside.sentence() {
        let _ = writeln!(md, "{s}\n");
    }
    let machine_lines = machines.index_lines(rows);
    let one_machine = machine_lines.len() <= 1;
    written.html = html::write_html(
        dir,
        rows,
        &set_aside.refused,
        &answers,
        &plain_tables,
        &plots,
        &machine_lines,
        preamble,
        set_aside.earlier_attempts,
    )?;
    if !machine_lines.is_empty() {
        md.push_str("Machines (their records are in the sweep files beside the results files, `<results>.sweeps.jsonl`):\n\n");
        for line in machine_lines {
            let _ = writeln!(md, "- {line}");
        }
        md.push('\n');
    }
    md.push_str("Every table is also in `tables/` as Markdown and LaTeX (booktabs); every plot in `plots/` as the formats asked for (SVG, PNG, PDF, PGFPlots `.tex` with its data in a `.csv`); `paper.tex` holds them all (`pdflatex paper.tex` in this folder). `puzzlebench report CSV --out DIR --figures svg,png,pdf,pgf` rebuilds all of them from a results CSV.\n\n## Tables\n\n");
    // One machine: the index names it once, above, and its tables without the note that
    // each table file carries; rows of several machines keep each table's own note.
    let index_tables = if one_machine { &plain_tables } else { &tables };
    // The index shows the tables a reader reads through; a longer one (more than
    // INDEX_ROWS rows, looked up rather than read) is named with its size and a link to its
    // file, which holds it once.
    for t in index_tables {
        if t.rows.len() > INDEX_ROWS {
            let _ = writeln!(
                md,
                "### {}\n\n{} rows: [tables/{2}.md](tables/{2}.md) (LaTeX: [tables/{2}.tex](tables/{2}.tex))\n",
                t.title,
                t.rows.len(),
                t.stem
            );
            continue;
        }
        md.push_str(&t.to_markdown());
        let _ = writeln!(md, "\n(LaTeX: [tables/{0}.tex](tables/{0}.tex))\n", t.stem);
    }
    if !plots.is_empty() {
        md.push_str("## Plots\n\n");
        for p in &plots {
            let _ = writeln!(md, "### {}\n", p.title);
            if !p.caption.is_empty() {
                let _ = writeln!(md, "{}\n", p.caption);
            }
            let shown = [FigureFormat::Png, FigureFormat::Svg]
                .into_iter()
                .find(|&f| p.file(f).is_some());
            if let Some(f) = shown {
                let _ = writeln!(md, "![{}](plots/{}.{})\n", p.title, p.stem, f.extension());
            }
            let links: Vec<String> = [FigureFormat::Svg, FigureFormat::Pdf, FigureFormat::Pgf]
                .into_iter()
                .filter(|&f| p.file(f).is_some())
                .map(|f| {
                    let name = format!("{f:?}").to_uppercase();
                    format!("[{name}](plots/{}.{})", p.stem, f.extension())
                })
                .collect();
            let _ = writeln!(md, "{}\n", links.join(" · "));
        }
    }
    let pics = dir.join("pictures");
    if let Ok(entries) = std::fs::read_dir(&pics) {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().to_string()))
            .filter(|n| n.ends_with(".svg"))
            .collect();
        names.sort();
        if !names.is_empty() {
            md.push_str("## Pictures\n\n");
            for n in names {
                let _ = writeln!(md, "![{n}](pictures/{n})\n");
            }
        }
    }
    written.index = dir.join("README.md");
    std::fs::write(&written.index, md).map_err(|e| format!("{}: {e}", written.index.display()))?;
    written.set_aside = set_aside;
    Ok(written)
}

fn join(set: &BTreeSet<&str>) -> String {
    let v: Vec<&str> = set.iter().copied().filter(|s| !s.is_empty()).collect();
    if v.is_empty() {
        "–".into()
    } else {
        v.join(", ")
    }
}
