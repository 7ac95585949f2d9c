//! Tables as pure functions from rows to text, shared by the report and every puzzle's
//! tables: the [`Table`] type with its Markdown and LaTeX (booktabs) writers, number
//! formatting ([`secs`]), and rows grouped by instance size ([`size_groups`],
//! [`SizeFigures`], [`size_rows`]).

use crate::record::Record;
use crate::stats;
use std::collections::BTreeMap;

/// A function that makes a puzzle's tables from the rows of any results file (each puzzle
/// declares one in its registry entry; the report calls them all).
pub type TableFn = fn(&[Record]) -> Vec<Table>;

/// A table: a title, column headers, rows of cells and notes printed under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// File stem, e.g. `sudoku_table_3_1`.
    pub stem: String,
    /// Title (Markdown heading and LaTeX caption).
    pub title: String,
    /// Column headers.
    pub columns: Vec<String>,
    /// Cells, row by row; every row has one cell per column.
    pub rows: Vec<Vec<String>>,
    /// Notes printed under the table (sources, definitions, deviations).
    pub notes: Vec<String>,
}

impl Table {
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
            .map(|(i, _)| if i == 0 { 'l' } else { 'r' })
            .collect();
        let mut s =
            String::from("% requires \\usepackage{booktabs}\n\\begin{table}[htbp]\n\\centering\n");
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
        s
    }
}

/// Escapes LaTeX's special characters and writes ×, –, − (minus), ·, µ, τ, ₂, ², ³ and the footnote marks
/// †, ‡, § as math/text commands; `--` (an option's dashes) stays two hyphens, not a dash.
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

/// Seconds for tables, with three significant figures at every magnitude: in seconds
/// from a millisecond up ("0.00250", "14.1", "1800"), in microseconds below ("30.0 µs"),
/// so that no positive time prints as zero; "0" for zero and "–" when unknown.
pub fn secs(x: Option<f64>) -> String {
    let Some(v) = x else {
        return "–".into();
    };
    if v == 0.0 {
        return "0".into();
    }
    // Round first, so that 0.0009996 s counts as the 1.00 ms it prints as.
    let rounded: f64 = format!("{v:.2e}").parse().unwrap_or(v);
    if rounded.abs() < 1e-3 {
        format!("{} µs", significant(v * 1e6))
    } else {
        significant(v)
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

/// "a" when every count is a, "a–b" for a range, "–" when none is known (model sizes
/// over a group of runs).
pub fn count_range(counts: impl Iterator<Item = usize>) -> String {
    let counts: Vec<usize> = counts.collect();
    match (counts.iter().min(), counts.iter().max()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}–{b}"),
        _ => "–".into(),
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

    /// The median solve time of the runs that succeeded, as [`secs`] writes it.
    pub fn median_solve(&self) -> String {
        secs(stats::median(&self.solve_seconds))
    }

    /// The longest solve time of the runs that succeeded, as [`secs`] writes it.
    pub fn max_solve(&self) -> String {
        secs(self.solve_seconds.iter().cloned().reduce(f64::max))
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
    fn small_times_keep_three_significant_figures() {
        assert_eq!(secs(None), "–");
        assert_eq!(secs(Some(0.0)), "0");
        assert_eq!(secs(Some(3e-5)), "30.0 µs");
        assert_eq!(secs(Some(1.234e-6)), "1.23 µs");
        assert_eq!(secs(Some(0.000_999_6)), "0.00100");
        assert_eq!(secs(Some(0.0025)), "0.00250");
        assert_eq!(secs(Some(0.016)), "0.0160");
        assert_eq!(secs(Some(0.099_96)), "0.100");
        assert_eq!(secs(Some(10.957)), "11.0");
        assert_eq!(secs(Some(1800.0)), "1800");
        // Every positive time from a nanosecond to an hour reads back within rounding.
        let mut v = 1e-9;
        while v < 3600.0 {
            let text = secs(Some(v));
            let back = match text.strip_suffix(" µs") {
                Some(us) => us.parse::<f64>().unwrap() * 1e-6,
                None => text.parse::<f64>().unwrap(),
            };
            assert!((back - v).abs() <= 0.005 * v, "{v} printed as {text}");
            v *= 1.37;
        }
    }

    #[test]
    fn latex_writes_micro_and_footnote_marks() {
        assert_eq!(latex("30.0 µs"), "30.0 $\\mu$s");
        assert_eq!(latex("4n² + n³"), "4n$^2$ + n$^3$");
        assert_eq!(latex("--repeats 3"), "-{}-repeats 3");
        assert_eq!(latex("report --pool-machines"), "report -{}-pool-machines");
        assert_eq!(latex("a – b"), "a -- b");
        assert_eq!(latex("1/1 · 0.500"), "1/1 $\\cdot$ 0.500");
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
