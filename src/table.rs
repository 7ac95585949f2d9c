//! Tables as pure functions from rows to text, shared by the report and every puzzle's
//! tables: the [`Table`] type with its Markdown and LaTeX (booktabs) writers, number
//! formatting ([`seconds`], one unit per column: the header names it), the marks of a
//! cell without a figure ([`NOT_RUN`], [`FAILED`], [`NO_FIGURE`], explained by
//! [`marks_note`]), and rows grouped by instance size ([`size_groups`], [`SizeFigures`],
//! [`size_rows`]).

use crate::record::Record;
use crate::stats;
use std::collections::BTreeMap;

/// A function that makes a puzzle's tables from the rows of any results file (each puzzle
/// declares one in its registry entry; the report calls them all).
pub type TableFn = fn(&[Record]) -> Vec<Table>;

/// The mark of a cell where nothing ran: no run of that configuration there (or, beside
/// ours, none of the source's).
pub const NOT_RUN: &str = "–";

/// The mark of a cell whose runs all failed (time limit, error, or an answer the
/// verifier refused): it ran, and no run gave the figure.
pub const FAILED: &str = "✗";

/// The mark of a figure that does not exist for a row that ran: a count the engine (or
/// the source) does not give, a variation with one repeat, a bound no run proved.
pub const NO_FIGURE: &str = "n/a";

/// A table: a title, column headers, rows of cells and notes printed under it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// File stem, e.g. `sudoku_table_3_1`.
    pub stem: String,
    /// Title (Markdown heading and LaTeX caption).
    pub title: String,
    /// Column headers.
    pub columns: Vec<String>,
    /// How many leading columns name what a row is (instance, size, formulation,
    /// engine, ...); the columns after them hold its figures. LaTeX aligns the first
    /// left and the others right.
    pub labels: usize,
    /// Cells, row by row; every row has one cell per column.
    pub rows: Vec<Vec<String>>,
    /// Notes printed under the table (sources, definitions, deviations).
    pub notes: Vec<String>,
}

impl Table {
    /// Adds the [`marks_note`] of the table's cells to its notes, unless it has it or
    /// its cells use no mark.
    pub fn note_marks(&mut self) {
        if let Some(n) = marks_note(&self.rows) {
            if !self.notes.contains(&n) {
                self.notes.push(n);
            }
        }
    }

    /// The rows with nothing in them: every cell after the [`Table::labels`] holds
    /// nothing ([`holds_nothing`]). A row of failures is not one of them.
    pub fn rows_of_nothing(&self) -> impl Iterator<Item = &Vec<String>> {
        self.rows
            .iter()
            .filter(|r| r.iter().skip(self.labels).all(|c| holds_nothing(c)))
    }

    /// The table as GitHub Markdown, title as a level-3 heading, notes as a list.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("### {}\n\n", self.title);
        let esc = |c: &str| c.replace('|', "\\|");
        s.push_str(&format!(
            "| {} |\n",
            self.columns
                .iter()
                .map(|c| esc(c))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
        s.push_str(&format!(
            "|{}\n",
            self.columns.iter().map(|_| "---|").collect::<String>()
        ));
        for r in &self.rows {
            s.push_str(&format!(
                "| {} |\n",
                r.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" | ")
            ));
        }
        if !self.notes.is_empty() {
            s.push('\n');
            for n in &self.notes {
                s.push_str(&format!("- {n}\n"));
            }
        }
        s
    }

    /// The table as a LaTeX `table` environment with booktabs rules.
    pub fn to_latex(&self) -> String {
        let spec: String = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, _)| if i < self.labels.max(1) { 'l' } else { 'r' })
            .collect();
        let mut s = String::from("\\begin{table}[htbp]\n\\centering\n");
        s.push_str(&format!(
            "\\caption{{{}}}\n\\label{{tab:{}}}\n",
            latex(&self.title),
            self.stem
        ));
        s.push_str(&format!("\\begin{{tabular}}{{{spec}}}\n\\toprule\n"));
        s.push_str(&format!(
            "{} \\\\\n\\midrule\n",
            self.columns
                .iter()
                .map(|c| latex(c))
                .collect::<Vec<_>>()
                .join(" & ")
        ));
        for r in &self.rows {
            s.push_str(&format!(
                "{} \\\\\n",
                r.iter().map(|c| latex(c)).collect::<Vec<_>>().join(" & ")
            ));
        }
        s.push_str("\\bottomrule\n\\end{tabular}\n");
        for n in &self.notes {
            s.push_str(&format!(
                "\\par\\smallskip{{\\footnotesize {}}}\n",
                latex(n)
            ));
        }
        s.push_str("\\end{table}\n");
        // The failed mark is pifont's cross.
        let packages = if s.contains("\\ding{") {
            "\\usepackage{booktabs} and \\usepackage{pifont}"
        } else {
            "\\usepackage{booktabs}"
        };
        format!("% requires {packages}\n{s}")
    }
}

/// The words of a cell as the marks are looked for: split at spaces, each without the
/// separators around it (`;`, `,`, `(`, `)`, `·`, `/`), so that `– / 0.0100` holds the mark
/// `–` and `0/3 ✗` the mark `✗`, but a range `1.19–2.04` none.
fn words(cell: &str) -> impl Iterator<Item = &str> {
    cell.split_whitespace()
        .map(|w| w.trim_matches(|c| matches!(c, ';' | ',' | '(' | ')' | '·' | '/')))
}

/// Whether a cell holds nothing: no word but [`NOT_RUN`] and [`NO_FIGURE`] (`– / –`, `n/a`,
/// an empty cell). [`FAILED`] is something: that it ran and failed.
pub fn holds_nothing(cell: &str) -> bool {
    words(cell).all(|w| w.is_empty() || w == NOT_RUN || w == NO_FIGURE)
}

/// The note that says what the marks of `rows` mean, naming those their cells use;
/// `None` when they use none. One note for every table ([`Table::note_marks`]).
pub fn marks_note(rows: &[Vec<String>]) -> Option<String> {
    let meanings = [
        (NOT_RUN, "not run (nothing of this configuration, or of the source beside ours, ran here)"),
        (FAILED, "failed (it ran, and every run failed: time limit, error, or an answer the verifier refused)"),
        (NO_FIGURE, "no such figure (the engine or the source does not give it, or it was not measured)"),
    ];
    let used: Vec<String> = meanings
        .iter()
        .filter(|(m, _)| rows.iter().flatten().any(|c| words(c).any(|w| w == *m)))
        .map(|(m, meaning)| format!("{m} = {meaning}"))
        .collect();
    (!used.is_empty()).then(|| format!("Marks: {}.", used.join("; ")))
}

/// A cell of a figure taken from the runs of a group that succeeded: the figure; else
/// [`NOT_RUN`] when the group has no run, [`FAILED`] when none of its `runs` succeeded
/// (`solved` 0), [`NO_FIGURE`] when some did but none recorded it.
pub fn cell(runs: usize, solved: usize, figure: Option<String>) -> String {
    match figure {
        Some(f) => f,
        None if runs == 0 => NOT_RUN.into(),
        None if solved == 0 => FAILED.into(),
        None => NO_FIGURE.into(),
    }
}

/// Escapes LaTeX's special characters and writes ×, –, − (minus), ·, ≤, ≥, ≈, ±, µ, τ, ₂, ²,
/// ³, the footnote marks †, ‡, § and the failed mark ✗ (pifont's `\ding{55}`) as math/text
/// commands; `--` (an option's dashes) stays two hyphens, not a dash.
pub fn latex(t: &str) -> String {
    let mut s = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' if chars.peek() == Some(&'-') => s.push_str("-{}"),
            '\\' => s.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                s.push('\\');
                s.push(c);
            }
            '~' => s.push_str("\\textasciitilde{}"),
            '^' => s.push_str("\\textasciicircum{}"),
            '×' => s.push_str("$\\times$"),
            '–' => s.push_str("--"),
            '−' => s.push_str("$-$"),
            'τ' => s.push_str("$\\tau$"),
            '₂' => s.push_str("$_2$"),
            '—' => s.push_str("---"),
            '·' => s.push_str("$\\cdot$"),
            '≤' => s.push_str("$\\le$"),
            '≥' => s.push_str("$\\ge$"),
            '≈' => s.push_str("$\\approx$"),
            '±' => s.push_str("$\\pm$"),
            '✗' => s.push_str("\\ding{55}"),
            '|' => s.push_str("$|$"),
            'µ' | 'μ' => s.push_str("$\\mu$"),
            '²' => s.push_str("$^2$"),
            '³' => s.push_str("$^3$"),
            '†' => s.push_str("\\textdagger{}"),
            '‡' => s.push_str("\\textdaggerdbl{}"),
            '§' => s.push_str("\\S{}"),
            _ => s.push(c),
        }
    }
    s
}

/// Seconds for a table cell, without the unit (the column's header names it): three
/// significant figures in fixed notation at every magnitude ("0.0000300", "0.000605",
/// "0.0250", "14.1", "1800"), so that a column of times is all in seconds and no positive
/// time prints as zero; "0" for zero.
pub fn seconds(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        significant(v)
    }
}

/// [`seconds`] of a time that may be unknown: [`NO_FIGURE`] when it is.
pub fn secs(x: Option<f64>) -> String {
    x.map_or(NO_FIGURE.into(), seconds)
}

/// A time with its unit, for text rather than a table column: three significant figures,
/// in seconds from a millisecond up ("0.0189 s", "14.1 s"), in microseconds below
/// ("28.5 µs"); "0 s" for zero.
pub fn duration(v: f64) -> String {
    // Round first, so that 0.0009996 s counts as the 1.00 ms it prints as.
    let rounded: f64 = format!("{v:.2e}").parse().unwrap_or(v);
    if v != 0.0 && rounded.abs() < 1e-3 {
        format!("{} µs", significant(v * 1e6))
    } else {
        format!("{} s", seconds(v))
    }
}

/// `v` with three significant figures in fixed notation (no exponent): "0.0300", "1.23",
/// "45.6"; all integer digits from 1000 up ("1800").
pub fn significant(v: f64) -> String {
    let exponent: i32 = format!("{v:.2e}")
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let decimals = (2 - exponent).max(0) as usize;
    format!("{v:.decimals$}")
}

/// The note that defines the shifted geometric mean with shift `shift` (seconds), under
/// every table that gives it.
pub fn sgm_note(shift: f64) -> String {
    format!("SGM{shift}: shifted geometric mean exp(mean(ln(t + {shift}))) − {shift}, in seconds.")
}

/// "a" when every count is a, "a–b" for a range, [`NO_FIGURE`] when none is known (model
/// sizes over a group of runs).
pub fn count_range(counts: impl Iterator<Item = usize>) -> String {
    let counts: Vec<usize> = counts.collect();
    match (counts.iter().min(), counts.iter().max()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}–{b}"),
        _ => NO_FIGURE.into(),
    }
}

/// A group of runs in a table by size: the instance size (in its unit, cells for grids),
/// a key of the table's own (`()` for none: a difficulty, a variant, an instance), the
/// size label, the formulation and the engine label.
pub type SizeKey<'a, K> = (u64, K, &'a str, &'a str, String);

/// The runs grouped by instance size, then `key` of each run, the size label, the
/// formulation and the engine label, smallest first.
pub fn size_groups<'a, K: Ord>(
    rows: &[&'a Record],
    key: impl Fn(&'a Record) -> K,
) -> BTreeMap<SizeKey<'a, K>, Vec<&'a Record>> {
    let mut groups: BTreeMap<SizeKey<'a, K>, Vec<&'a Record>> = BTreeMap::new();
    for &r in rows {
        let size = r.size.unwrap_or(0.0) as u64;
        groups
            .entry((
                size,
                key(r),
                &r.size_label,
                &r.formulation,
                r.backend_label(),
            ))
            .or_default()
            .push(r);
    }
    groups
}

/// What the tables by size show of a group of runs: the runs that succeeded
/// ([`stats::succeeded`]) and their solve times, the distinct instances, and the model's
/// variables and rows (each a range over the runs).
pub struct SizeFigures<'a> {
    /// The runs that succeeded.
    pub solved: Vec<&'a Record>,
    /// The solve seconds of the runs that succeeded.
    pub solve_seconds: Vec<f64>,
    /// The runs of the group.
    pub runs: usize,
    /// The distinct instances of the group.
    pub instances: usize,
    /// The model's variables, as [`count_range`] writes them.
    pub variables: String,
    /// The model's rows, as [`count_range`] writes them.
    pub rows: String,
}

impl<'a> SizeFigures<'a> {
    /// The figures of the runs `rs`.
    pub fn of(rs: &[&'a Record]) -> SizeFigures<'a> {
        let solved: Vec<&Record> = rs.iter().copied().filter(|r| stats::succeeded(r)).collect();
        let solve_seconds = solved.iter().filter_map(|r| r.seconds).collect();
        let instances: std::collections::BTreeSet<&str> =
            rs.iter().map(|r| r.instance.as_str()).collect();
        SizeFigures {
            solved,
            solve_seconds,
            runs: rs.len(),
            instances: instances.len(),
            variables: count_range(rs.iter().filter_map(|r| r.variables)),
            rows: count_range(rs.iter().filter_map(|r| r.constraints)),
        }
    }

    /// Solved over runs, as `3/5`.
    pub fn solved_of_runs(&self) -> String {
        format!("{}/{}", self.solved.len(), self.runs)
    }

    /// The median solve time of the runs that succeeded, in [`seconds`]; [`FAILED`] when
    /// none did ([`cell`]).
    pub fn median_solve(&self) -> String {
        self.of_solved(stats::median(&self.solve_seconds).map(seconds))
    }

    /// The longest solve time of the runs that succeeded, in [`seconds`]; [`FAILED`] when
    /// none did ([`cell`]).
    pub fn max_solve(&self) -> String {
        self.of_solved(
            self.solve_seconds
                .iter()
                .cloned()
                .reduce(f64::max)
                .map(seconds),
        )
    }

    /// The [`cell`] of a figure of the runs that succeeded.
    pub fn of_solved(&self, figure: Option<String>) -> String {
        cell(self.runs, self.solved.len(), figure)
    }

    /// The cells every table by size shows, in its order: instances, solved/runs, median
    /// and longest solve, variables and rows.
    pub fn cells(self) -> [String; 6] {
        let (median, max) = (self.median_solve(), self.max_solve());
        [
            self.instances.to_string(),
            self.solved_of_runs(),
            median,
            max,
            self.variables,
            self.rows,
        ]
    }
}

/// One table row per grid size, formulation and engine, smallest grids first (the
/// grid's size in cells with each row, for tables that insert rows of their own): the
/// size label, formulation, engine label, puzzles, solved/runs, median and maximum
/// solve time of the solved runs, and the model's variables and rows (a range). A run
/// counts as solved when [`stats::succeeded`] says so.
pub fn size_rows(rows: &[&Record]) -> Vec<(u64, Vec<String>)> {
    size_groups(rows, |_| ())
        .into_iter()
        .map(|((cells, (), label, f, b), rs)| {
            let mut row = vec![label.to_string(), f.to_string(), b];
            row.extend(SizeFigures::of(&rs).cells());
            (cells, row)
        })
        .collect()
}

/// The leading columns of [`size_rows`] that name a row: grid, formulation, engine.
pub const SIZE_LABELS: usize = 3;

/// The columns of [`size_rows`].
pub const SIZE_COLUMNS: [&str; 9] = [
    "grid",
    "formulation",
    "backend",
    "puzzles",
    "solved",
    "median solve (s)",
    "max solve (s)",
    "variables",
    "rows",
];

/// A row of [`SIZE_COLUMNS`] for a figure published beside ours: its grid, formulation,
/// engine and puzzles, its median solve time as printed (in seconds, the column's unit),
/// and [`NO_FIGURE`] in the columns it gives nothing for.
pub fn published_size_row(
    grid: &str,
    formulation: &str,
    engine: &str,
    puzzles: &str,
    median_seconds: &str,
) -> Vec<String> {
    let mut row = vec![NO_FIGURE.to_string(); SIZE_COLUMNS.len()];
    row[..4].clone_from_slice(&[grid, formulation, engine, puzzles].map(String::from));
    row[5] = median_seconds.into();
    row
}

/// The value of `key` in an `instance_info` text (`key=value;key=value`).
pub fn info_value<'a>(info: &'a str, key: &str) -> Option<&'a str> {
    info.split(';').find_map(|kv| {
        kv.split_once('=')
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_and_latex_escape() {
        let t = Table {
            stem: "t".into(),
            title: "A & B".into(),
            columns: vec!["x_1".into(), "n×n".into()],
            labels: 1,
            rows: vec![vec!["a|b".into(), "50%".into()]],
            notes: vec!["note".into()],
        };
        assert_eq!(
            t.to_markdown(),
            "### A & B\n\n| x_1 | n×n |\n|---|---|\n| a\\|b | 50% |\n\n- note\n"
        );
        let l = t.to_latex();
        assert!(l.contains("\\caption{A \\& B}"));
        assert!(l.contains("x\\_1 & n$\\times$n \\\\"));
        assert!(l.contains("a$|$b & 50\\% \\\\"));
        assert!(l.contains("\\toprule") && l.contains("\\bottomrule"));
    }

    #[test]
    fn times_in_cells_are_seconds_at_every_magnitude() {
        assert_eq!(secs(None), "n/a");
        assert_eq!(secs(Some(0.0)), "0");
        assert_eq!(seconds(3e-5), "0.0000300");
        assert_eq!(seconds(1.234e-6), "0.00000123");
        assert_eq!(seconds(0.000_605), "0.000605");
        assert_eq!(seconds(0.000_999_6), "0.00100");
        assert_eq!(seconds(0.0025), "0.00250");
        assert_eq!(seconds(0.016), "0.0160");
        assert_eq!(seconds(0.099_96), "0.100");
        assert_eq!(seconds(10.957), "11.0");
        assert_eq!(seconds(1800.0), "1800");
        // Every positive time from a nanosecond to an hour reads back, in seconds, within
        // rounding: no unit but the column's.
        let mut v = 1e-9;
        while v < 3600.0 {
            let text = seconds(v);
            let back = text.parse::<f64>().unwrap();
            assert!((back - v).abs() <= 0.005 * v, "{v} printed as {text}");
            v *= 1.37;
        }
    }

    #[test]
    fn durations_in_text_carry_their_unit() {
        assert_eq!(duration(0.0), "0 s");
        assert_eq!(duration(3e-5), "30.0 µs");
        assert_eq!(duration(0.000_605), "605 µs");
        assert_eq!(duration(0.000_999_6), "0.00100 s");
        assert_eq!(duration(0.0189), "0.0189 s");
        assert_eq!(duration(14.07), "14.1 s");
    }

    #[test]
    fn a_cell_without_a_figure_says_whether_it_failed_or_did_not_run() {
        assert_eq!(cell(3, 2, Some("0.500".into())), "0.500");
        assert_eq!(cell(0, 0, None), NOT_RUN);
        assert_eq!(cell(3, 0, None), FAILED);
        assert_eq!(cell(3, 1, None), NO_FIGURE);
        assert_ne!(NOT_RUN, FAILED);
        // The figures of a group whose runs all failed.
        let failed = Record {
            status: "time_limit".into(),
            seconds: Some(10.0),
            time_limit: Some(10.0),
            ..Record::default()
        };
        let g = SizeFigures::of(&[&failed, &failed]);
        assert_eq!(
            (g.median_solve(), g.max_solve()),
            (FAILED.into(), FAILED.into())
        );
        assert_eq!(g.solved_of_runs(), "0/2");
    }

    #[test]
    fn rows_of_nothing_and_the_marks_note() {
        let t = Table {
            labels: 2,
            rows: [
                ["a", "highs", "0.0100", "– / –"],
                ["b", "highs", "✗ / –", "–"],
                ["c", "cbc", "– / –", "n/a"],
                ["d", "cbc", "", "–; –"],
                ["e", "sat", "1.19–2.04", "–"],
            ]
            .map(|r| r.map(String::from).to_vec())
            .to_vec(),
            ..Table::default()
        };
        // A failure is something; a range is not the mark.
        let nothing: Vec<&str> = t.rows_of_nothing().map(|r| r[0].as_str()).collect();
        assert_eq!(nothing, ["c", "d"]);
        assert_eq!(
            marks_note(&t.rows).unwrap(),
            "Marks: – = not run (nothing of this configuration, or of the source beside ours, ran here); ✗ = failed (it ran, and every run failed: time limit, error, or an answer the verifier refused); n/a = no such figure (the engine or the source does not give it, or it was not measured)."
        );
        let only_failed = [vec!["0/3 ✗".to_string()]];
        let note = marks_note(&only_failed).unwrap();
        assert!(
            note.starts_with("Marks: ✗ = failed") && !note.contains("not run"),
            "{note}"
        );
        assert_eq!(marks_note(&[vec!["1.19–2.04".to_string()]]), None);
        // Noted once.
        let mut t = t;
        t.note_marks();
        t.note_marks();
        assert_eq!(t.notes.len(), 1);
    }

    #[test]
    fn the_failed_mark_in_latex_asks_for_pifont_and_labels_align_left() {
        let t = Table {
            stem: "t".into(),
            columns: ["instance", "engine", "time (s)"]
                .map(String::from)
                .to_vec(),
            labels: 2,
            rows: vec![["a", "highs", FAILED].map(String::from).to_vec()],
            ..Table::default()
        };
        let l = t.to_latex();
        assert!(l.starts_with("% requires \\usepackage{booktabs} and \\usepackage{pifont}\n"));
        assert!(l.contains("\\begin{tabular}{llr}"), "{l}");
        assert!(l.contains("a & highs & \\ding{55} \\\\"), "{l}");
        let plain = Table {
            rows: vec![["a", "highs", "0.0100"].map(String::from).to_vec()],
            ..t
        };
        assert!(plain
            .to_latex()
            .starts_with("% requires \\usepackage{booktabs}\n"));
    }

    #[test]
    fn latex_writes_micro_and_footnote_marks() {
        assert_eq!(latex("30.0 µs"), "30.0 $\\mu$s");
        assert_eq!(latex("4n² + n³"), "4n$^2$ + n$^3$");
        assert_eq!(latex("--repeats 3"), "-{}-repeats 3");
        assert_eq!(latex("report --pool-machines"), "report -{}-pool-machines");
        assert_eq!(latex("a – b"), "a -- b");
        assert_eq!(latex("1/1 · 0.500"), "1/1 $\\cdot$ 0.500");
        assert_eq!(latex("≈ 20 ± 1"), "$\\approx$ 20 $\\pm$ 1");
        assert_eq!(
            latex("77† 79§ 41‡"),
            "77\\textdagger{} 79\\S{} 41\\textdaggerdbl{}"
        );
    }

    #[test]
    fn info_values() {
        assert_eq!(info_value("clues=29;n=9", "n"), Some("9"));
        assert_eq!(info_value("clues=29", "k"), None);
    }
}
