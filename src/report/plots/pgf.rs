//! PGFPlots plots: a chart as a `tikzpicture` holding one `axis` (log modes, ranges and
//! labels as in the SVG), its data in a CSV beside it, so that a paper draws it in its own
//! fonts with `\input{plots/<stem>.tex}` (`\usepackage{pgfplots}`).
//!
//! The CSV has two columns per drawn set of points: `x<i>`, `y<i>` for the markers of
//! series `i`, `fx<i>`, `fy<i>` for its failed runs and `lx<i>`, `ly<i>` for its line;
//! shorter columns are padded with `nan`, which PGFPlots leaves out.

use super::{Chart, Marker, Scale, Series, GREY};
use crate::table::latex;
use plotters::style::RGBColor;
use std::fmt::Write as _;
use std::path::Path;

/// The PGFPlots name of a marker's shape (filled or open, as in the SVG).
fn shape(marker: Marker) -> &'static str {
    match marker {
        Marker::Circle => "*",
        Marker::Triangle => "triangle*",
        Marker::Square => "square*",
        Marker::Diamond => "diamond*",
        Marker::OpenCircle => "o",
        Marker::OpenTriangle => "triangle",
        Marker::OpenSquare => "square",
        Marker::OpenDiamond => "diamond",
        Marker::Cross => "x",
        Marker::None => "none",
    }
}

/// The options of markers without a line.
fn mark(marker: Marker) -> String {
    format!("only marks, mark={}", shape(marker))
}

/// The style of a series' line (without its markers).
fn line(s: &Series) -> &'static str {
    if s.dashed {
        "thick, dashed"
    } else {
        "thick"
    }
}

/// The axis options of one axis (`x` or `y`).
fn axis_options(out: &mut String, name: char, axis: &super::Axis) {
    let _ = writeln!(out, "  {name}label={{{}}},", latex(&axis.label));
    let _ = writeln!(out, "  {name}min={}, {name}max={},", axis.lo, axis.hi);
    match axis.scale {
        Scale::Log(base) => {
            let _ = writeln!(
                out,
                "  {name}mode=log, log basis {name}={base}, log ticks with fixed point,"
            );
        }
        Scale::Linear if axis.integer => {
            let step = ((axis.hi - axis.lo) / 8.0).ceil().max(1.0);
            let _ = writeln!(out, "  {name}tick distance={step},");
        }
        Scale::Linear => {}
    }
}

fn color(c: RGBColor) -> String {
    format!("{{rgb,255:red,{};green,{};blue,{}}}", c.0, c.1, c.2)
}

/// Writes `chart` as a PGFPlots `.tex` to `tex` and its data to `csv`; the `.tex` names the
/// CSV by its folder's name and its own (`plots/<stem>.csv`).
pub(super) fn write(chart: &Chart, tex: &Path, csv: &Path) -> Result<(), String> {
    let file = csv
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    let data = match csv.parent().and_then(Path::file_name) {
        Some(folder) => format!("{}/{file}", folder.to_string_lossy()),
        None => file,
    };
    let mut columns: Vec<(String, &[(f64, f64)])> = Vec::new();
    let mut plots = String::new();
    let mut legend = String::new();
    for (i, s) in chart.series.iter().enumerate() {
        let c = color(s.color);
        for (prefix, points, style) in [
            ("l", &s.line, format!("no marks, {}", line(s))),
            ("", &s.points, mark(s.marker)),
            ("f", &s.failed, mark(Marker::Cross)),
        ] {
            if points.is_empty() {
                continue;
            }
            let (x, y) = (format!("{prefix}x{i}"), format!("{prefix}y{i}"));
            let _ = writeln!(
                plots,
                "\\addplot[{style}, color={c}, forget plot] table[x={x}, y={y}] {{{data}}};"
            );
            columns.push((format!("{x},{y}"), points));
        }
        if !s.name.is_empty() {
            // Its marker whether or not it drew points, as in the SVG's legend.
            let look = if s.line.is_empty() {
                mark(s.marker)
            } else {
                format!("{}, mark={}", line(s), shape(s.marker))
            };
            let _ = writeln!(
                legend,
                "\\addlegendimage{{{look}, color={c}}}\n\\addlegendentry{{{}}}",
                latex(&s.name)
            );
        }
    }
    if chart.series.iter().any(|s| !s.failed.is_empty()) {
        let _ = writeln!(
            legend,
            "\\addlegendimage{{{}, color={}}}\n\\addlegendentry{{{}}}",
            mark(Marker::Cross),
            color(GREY),
            latex(&chart.failed_label)
        );
    }

    let mut out = format!(
        "% {}\n% PGFPlots figure written by puzzlebench: needs \\usepackage{{pgfplots}};\n\
         % its data, {data}, is named from the folder that \\input's this file.\n\
         \\begin{{tikzpicture}}\n\\begin{{axis}}[\n  width=0.62\\linewidth, height=0.45\\linewidth,\n",
        chart.title
    );
    axis_options(&mut out, 'x', &chart.x);
    axis_options(&mut out, 'y', &chart.y);
    out.push_str(
        "  legend pos=outer north east, legend cell align=left,\n  \
         legend style={font=\\footnotesize}, mark size=1.5pt,\n  \
         table/col sep=comma, unbounded coords=discard,\n]\n",
    );
    out.push_str(&legend);
    out.push_str(&plots);
    out.push_str("\\end{axis}\n");
    if !chart.notes.is_empty() {
        let notes: Vec<String> = chart.notes.iter().map(|n| latex(n)).collect();
        let _ = writeln!(
            out,
            "\\node[anchor=north west, font=\\footnotesize, align=left] at (current axis.outer south west) {{{}}};",
            notes.join("\\\\ ")
        );
    }
    out.push_str("\\end{tikzpicture}\n");
    std::fs::write(tex, out).map_err(|e| e.to_string())?;

    let rows = columns.iter().map(|(_, p)| p.len()).max().unwrap_or(0);
    let mut text = columns
        .iter()
        .map(|(h, _)| h.as_str())
        .collect::<Vec<_>>()
        .join(",");
    text.push('\n');
    for r in 0..rows {
        let cells: Vec<String> = columns
            .iter()
            .map(|(_, p)| {
                p.get(r)
                    .map_or("nan,nan".into(), |(x, y)| format!("{x},{y}"))
            })
            .collect();
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    std::fs::write(csv, text).map_err(|e| e.to_string())
}
