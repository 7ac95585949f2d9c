//! `paper.tex`: one LaTeX document holding every table and plot of a report, compiled in
//! the report's folder with `pdflatex paper.tex`. A section per puzzle (the tables of no
//! puzzle, such as the summary, come first); the plots are `\input` as PGFPlots when those
//! were written, else included as PDF (or PNG).

use super::plots::{FigureFormat, PlotFile};
use crate::table::{latex, Table};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The preamble: Latin Modern (outline fonts for every symbol, also textcomp's), booktabs for the tables, amssymb and textcomp for the symbols they use
/// ($\times$, $\mu$, \textdagger, \S), pifont for the failed mark (\ding{55}), graphicx and
/// pgfplots for the plots.
const PREAMBLE: &str = "\\documentclass{article}
\\usepackage[margin=2.2cm]{geometry}
\\usepackage{lmodern}
\\usepackage{booktabs}
\\usepackage{amssymb}
\\usepackage{textcomp}
\\usepackage{pifont}
\\usepackage{graphicx}
\\usepackage{pgfplots}
\\pgfplotsset{compat=1.16}
% A section may hold more tables and figures than LaTeX keeps waiting by default.
\\extrafloats{100}
\\title{puzzlebench report}
\\date{}
\\begin{document}
\\maketitle
";

/// The puzzle of a table or plot stem: the longest of `puzzles` it starts with (then `_`);
/// `None` for the tables of no puzzle (the summary).
pub fn puzzle_of<'a>(stem: &str, puzzles: &BTreeSet<&'a str>) -> Option<&'a str> {
    puzzles
        .iter()
        .copied()
        .filter(|p| stem.starts_with(&format!("{p}_")))
        .max_by_key(|p| p.len())
}

/// The LaTeX of one plot: a figure with its title and caption ([`PlotFile::caption`]) as
/// caption; `None` when none of its formats can go into a PDF (SVG only).
fn figure(p: &PlotFile) -> Option<String> {
    let body = if p.file(FigureFormat::Pgf).is_some() {
        format!("\\input{{plots/{}.tex}}", p.stem)
    } else {
        let f = [FigureFormat::Pdf, FigureFormat::Png]
            .into_iter()
            .find(|&f| p.file(f).is_some())?;
        format!(
            "\\includegraphics[width=\\linewidth]{{plots/{}.{}}}",
            p.stem,
            f.extension()
        )
    };
    // The caption: the title, then what the plot's caption says (its instances, the
    // configurations left out, the tables that hold its runs); the title alone in lists.
    let title = latex(&p.title);
    let caption = if p.caption.is_empty() {
        format!("{{{title}}}")
    } else {
        format!("[{title}]{{{title}. {}}}", latex(&p.caption))
    };
    Some(format!(
        "\\begin{{figure}}[htbp]\n\\centering\n{body}\n\\caption{caption}\n\\label{{fig:{}}}\n\\end{{figure}}\n",
        p.stem
    ))
}

/// Writes `dir/paper.tex`, which inputs `tables/<stem>.tex` for each of `tables` and each
/// of `plots` from `plots/`, grouped by the puzzles their stems begin with.
pub fn write_paper(
    dir: &Path,
    tables: &[Table],
    plots: &[PlotFile],
    puzzles: &BTreeSet<&str>,
    licences: &[String],
) -> Result<PathBuf, String> {
    let mut out = String::from(PREAMBLE);
    // The terms of size-limited licences whose engines' results the paper shows (some
    // restrict publishing them), before any table, as on the HTML overview.
    if !licences.is_empty() {
        out.push_str("\\section*{Solver licences}\n\\begin{itemize}\n");
        for note in licences {
            let _ = writeln!(out, "\\item {}", latex(note));
        }
        out.push_str("\\end{itemize}\n");
    }
    let sections = std::iter::once(None).chain(puzzles.iter().map(|p| Some(*p)));
    for section in sections {
        let mut body = String::new();
        for t in tables
            .iter()
            .filter(|t| puzzle_of(&t.stem, puzzles) == section)
        {
            let _ = writeln!(body, "\\input{{tables/{}.tex}}", t.stem);
        }
        for p in plots
            .iter()
            .filter(|p| puzzle_of(&p.stem, puzzles) == section)
        {
            body.extend(figure(p));
        }
        if body.is_empty() {
            continue;
        }
        let title = section.map_or("Summary".to_string(), latex);
        let _ = writeln!(out, "\\clearpage\n\\section{{{title}}}\n{body}");
    }
    out.push_str("\\end{document}\n");
    let path = dir.join("paper.tex");
    std::fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}
