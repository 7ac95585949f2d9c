//! Plots of result rows, drawn with `plotters` as SVG and PNG, converted from the SVG to
//! vector PDF (`pdf`) and written as PGFPlots sources with their data (`pgf`); which of
//! these formats are written is the caller's choice ([`FigureFormat`]).
//!
//! One set of plots per puzzle, every file stem prefixed with the puzzle key:
//!
//! * `<p>_time_vs_size`: solve time against instance size, one series per
//!   `formulation / engine`, points plus a line through the per-size medians;
//! * `<p>_lp_ratio`: LP bound / objective against instance size (only when some rows have a
//!   nonzero objective the verifier accepted and an LP bound);
//! * `<p>_profile_<engine>` and `<p>_profile_<formulation>`: Dolan–Moré performance
//!   profiles comparing the formulations on one engine, or the engines on one formulation;
//! * `<p>_cactus`: instances solved against time;
//! * `<p>_scatter_<engine>_<f1>_vs_<f2>`: time of one formulation against another's, per
//!   instance, with the diagonal;
//! * `<p>_primal_gap` and `<p>_primal_gap_one`: for an optimisation puzzle whose runs have
//!   timelines, the primal gap over time, the mean over each configuration's runs and the
//!   runs on one instance (`primal_gap`).
//!
//! Runs are first reduced to one value per (instance, formulation, engine): the median of
//! the charged seconds over the repeats ([`charged_seconds`]); the instance counts as solved
//! when more than half of its repeats succeeded ([`succeeded`]). Times are clamped to at
//! least 10⁻⁴ s so that log axes stay finite, and a plot that draws a time so clamped says
//! so under its axes; a failed run with no known time is left out of the time plots (it
//! still counts as a failure in the profiles).
//!
//! The code follows the same cut: this module holds the chart description shared by every
//! kind (`Chart`, `Series`, `Axis`), the reduction of rows to cells and the list of charts
//! per puzzle; each plot kind turns the cells into its charts in a module of its own
//! (`time_vs_size`, `lp_ratio`, `profile`, `cactus`, `scatter`), and `render` draws any
//! chart with `plotters`; `pdf` turns the SVG into PDF and `pgf` writes a chart as PGFPlots.

mod cactus;
mod lp_ratio;
mod pdf;
mod pgf;
mod primal_gap;
mod profile;
mod render;
mod scatter;
mod time_vs_size;

use crate::record::Record;
use crate::report::anytime::Timelines;
use crate::stats::{charged_seconds, median, succeeded};
use plotters::prelude::*;
use render::{render, HEIGHT, WIDTH};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A file format of the plots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum FigureFormat {
    /// Vector PDF with the font embedded, converted from the SVG.
    Pdf,
    /// A PGFPlots `tikzpicture` (`.tex`) with its data in a CSV beside it.
    Pgf,
    /// SVG, as `plotters` draws it.
    Svg,
    /// PNG, as `plotters` draws it.
    Png,
}

impl FigureFormat {
    /// The extension of the format's file (`tex` for PGFPlots, whose data is a `.csv`).
    pub fn extension(self) -> &'static str {
        match self {
            FigureFormat::Pdf => "pdf",
            FigureFormat::Pgf => "tex",
            FigureFormat::Svg => "svg",
            FigureFormat::Png => "png",
        }
    }
}

/// The formats written unless told otherwise, as the command line takes them.
pub const DEFAULT_FIGURES: &str = "svg,pdf";

/// One plot written: its file stem, title, and the files.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotFile {
    /// File stem shared by every file, e.g. `sudoku_time_vs_size`.
    pub stem: String,
    /// The chart's title.
    pub title: String,
    /// Every file written, in the order of the formats asked for (PGFPlots: its `.csv`,
    /// then the `.tex`).
    pub files: Vec<PathBuf>,
}

impl PlotFile {
    /// The file of `format`, when it was written.
    pub fn file(&self, format: FigureFormat) -> Option<&Path> {
        self.files
            .iter()
            .find(|f| f.extension().is_some_and(|e| e == format.extension()))
            .map(PathBuf::as_path)
    }
}

/// Writes every plot that `rows` support into `dir` (created if missing), each in every one
/// of `formats` (same stem). Returns the plots written, in a stable order. Plots without data
/// are skipped. `size_units` name what each puzzle's instance size counts, as (puzzle key,
/// unit) pairs such as `("hashi", "islands")`: its size axis reads `size (islands)`, or
/// `size` for a puzzle not named there. The PGFPlots sources name their data as
/// `<dir's name>/<stem>.csv`, so that they are `\input` from the folder holding `dir`.
pub fn write_plots(
    rows: &[Record],
    dir: &Path,
    size_units: &[(&str, &str)],
    formats: &[FigureFormat],
) -> Result<Vec<PlotFile>, String> {
    write_plots_with_timelines(rows, &Timelines::default(), dir, size_units, formats)
}

/// [`write_plots`], and the primal gap over time of the optimisation puzzles from the runs'
/// `timelines` (`<p>_primal_gap`, `<p>_primal_gap_one`).
pub fn write_plots_with_timelines(
    rows: &[Record],
    timelines: &Timelines,
    dir: &Path,
    size_units: &[(&str, &str)],
    formats: &[FigureFormat],
) -> Result<Vec<PlotFile>, String> {
    let charts = charts(rows, size_units, timelines);
    if charts.is_empty() {
        return Ok(Vec::new());
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let formats: Vec<FigureFormat> = formats
        .iter()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let pdf = if formats.contains(&FigureFormat::Pdf) {
        Some(pdf::Converter::new()?)
    } else {
        None
    };
    let mut used = BTreeSet::new();
    let mut written = Vec::with_capacity(charts.len());
    for mut chart in charts {
        let base = chart.stem.clone();
        let mut n = 2;
        while !used.insert(chart.stem.clone()) {
            chart.stem = format!("{base}_{n}");
            n += 1;
        }
        let path = |f: FigureFormat| dir.join(format!("{}.{}", chart.stem, f.extension()));
        let mut svg = String::new();
        let mut marks = Vec::new();
        if formats.contains(&FigureFormat::Svg) || pdf.is_some() {
            marks = render(
                SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area(),
                &chart,
                true,
            )?;
            render::group_series(&mut svg);
        }
        // The PDF is made from the plain drawing; the SVG file also carries the hover marks.
        let plain_svg = svg.clone();
        render::add_hover_marks(&mut svg, &marks);
        let mut files = Vec::new();
        for &format in &formats {
            let file = path(format);
            match format {
                FigureFormat::Svg => std::fs::write(&file, &svg).map_err(|e| e.to_string()),
                FigureFormat::Png => render(
                    BitMapBackend::new(&file, (WIDTH, HEIGHT)).into_drawing_area(),
                    &chart,
                    false,
                )
                .map(|_| ()),
                FigureFormat::Pdf => pdf.as_ref().map_or(Ok(()), |c| c.write(&plain_svg, &file)),
                FigureFormat::Pgf => {
                    let csv = dir.join(format!("{}.csv", chart.stem));
                    let r = pgf::write(&chart, &file, &csv);
                    files.push(csv);
                    r
                }
            }
            .map_err(|e| format!("{}: {e}", file.display()))?;
            files.push(file);
        }
        written.push(PlotFile {
            stem: chart.stem,
            title: chart.title,
            files,
        });
    }
    Ok(written)
}

/// Times below this are drawn at this value (log axes cannot show zero).
const MIN_SECONDS: f64 = 1e-4;
/// Series colours, in the order series are assigned them (Tableau 10).
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
/// Colour of what belongs to no series: the diagonal, the legend's failure cross.
const GREY: RGBColor = RGBColor(90, 90, 90);

// ---------------------------------------------------------------------------------------
// Chart description, independent of the drawing backend (SVG or bitmap).

#[derive(Clone, Copy, Debug, PartialEq)]
enum Scale {
    Linear,
    /// Logarithmic with this base (10, or 2 for performance ratios).
    Log(f64),
}

#[derive(Clone, Debug)]
struct Axis {
    label: String,
    lo: f64,
    hi: f64,
    scale: Scale,
    /// Label only whole numbers (counts).
    integer: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Marker {
    Circle,
    Triangle,
    Square,
    Cross,
    None,
}

#[derive(Clone, Debug)]
struct Series {
    name: String,
    color: RGBColor,
    marker: Marker,
    /// Points drawn with `marker`.
    points: Vec<(f64, f64)>,
    /// Points of failed runs, drawn as crosses in the series colour.
    failed: Vec<(f64, f64)>,
    /// Polyline through these points (empty: none).
    line: Vec<(f64, f64)>,
    dashed: bool,
    /// What hovering a point of the SVG shows (instance, configuration, value), one per
    /// point of `points` then of `failed`; empty for a series without them.
    tips: Vec<String>,
}

#[derive(Clone, Debug)]
struct Chart {
    stem: String,
    title: String,
    x: Axis,
    y: Axis,
    series: Vec<Series>,
    /// Legend text for the crosses of failed runs, shown when there are any.
    failed_label: String,
    /// A line of text under the axes (what the reader must know to read the chart).
    note: Option<String>,
}

// ---------------------------------------------------------------------------------------
// Reducing rows to one cell per (instance, formulation, engine).

#[derive(Clone, Debug)]
struct Cell {
    size: Option<f64>,
    /// Median charged seconds over the repeats (not clamped; 0 when unknown).
    seconds: f64,
    /// More than half of the repeats succeeded.
    ok: bool,
    /// Median LP bound / objective over the repeats that have both and whose solution the
    /// verifier accepted.
    lp_ratio: Option<f64>,
}

impl Cell {
    /// The time to draw: clamped to [`MIN_SECONDS`]; `None` for a non-finite time or a
    /// failure without a known time.
    fn plot_seconds(&self) -> Option<f64> {
        if !self.seconds.is_finite() || (!self.ok && self.seconds <= 0.0) {
            None
        } else {
            Some(self.seconds.max(MIN_SECONDS))
        }
    }

    /// Its time is drawn, at [`MIN_SECONDS`], although it was shorter.
    fn clamped(&self) -> bool {
        self.plot_seconds().is_some() && self.seconds < MIN_SECONDS
    }
}

/// The note of a chart that drew some time at [`MIN_SECONDS`] although it was shorter
/// (`clamped`); `None` otherwise.
fn clamp_note(clamped: bool) -> Option<String> {
    clamped.then(|| format!("times below {MIN_SECONDS} s are drawn at {MIN_SECONDS} s"))
}

/// (formulation, engine) → instance → cell.
type Cells = BTreeMap<(String, String), BTreeMap<String, Cell>>;

fn cells(rows: &[&Record]) -> Cells {
    let mut groups: BTreeMap<(String, String), BTreeMap<String, Vec<&Record>>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.formulation.clone(), r.backend_label()))
            .or_default()
            .entry(r.instance.clone())
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|(key, instances)| {
            let by_instance = instances
                .into_iter()
                .map(|(instance, rs)| {
                    let times: Vec<f64> = rs.iter().map(|r| charged_seconds(r)).collect();
                    let ok = 2 * rs.iter().filter(|r| succeeded(r)).count() > rs.len();
                    // Only objectives the verifier accepted: an unchecked or refused
                    // solution's objective says nothing about the relaxation.
                    let ratios: Vec<f64> = rs
                        .iter()
                        .filter(|r| r.verified == Some(true))
                        .filter_map(|r| match (r.objective, r.lp_bound) {
                            (Some(obj), Some(lp))
                                if obj.is_finite() && lp.is_finite() && obj.abs() > 1e-9 =>
                            {
                                Some(lp / obj)
                            }
                            _ => None,
                        })
                        .collect();
                    let cell = Cell {
                        size: rs.iter().find_map(|r| r.size.filter(|s| s.is_finite())),
                        seconds: median(&times).unwrap_or(0.0),
                        ok,
                        lp_ratio: median(&ratios),
                    };
                    (instance, cell)
                })
                .collect();
            (key, by_instance)
        })
        .collect()
}

/// Every chart the rows support, per puzzle in key order.
fn charts(rows: &[Record], size_units: &[(&str, &str)], timelines: &Timelines) -> Vec<Chart> {
    let mut puzzles: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        puzzles.entry(r.puzzle.as_str()).or_default().push(r);
    }
    let mut out = Vec::new();
    for (puzzle, rs) in puzzles {
        let cells = cells(&rs);
        let unit = size_units
            .iter()
            .find(|(key, unit)| *key == puzzle && !unit.is_empty())
            .map(|(_, unit)| *unit);
        let p = Puzzle {
            key: puzzle,
            stem: sanitize(puzzle),
            size_label: unit.map_or("size".into(), |u| format!("size ({u})")),
            cells: &cells,
        };
        out.extend(p.time_vs_size());
        out.extend(p.lp_ratio());
        out.extend(p.profiles());
        out.extend(p.cactus());
        out.extend(p.scatters());
        out.extend(p.primal_gap(&rs, timelines));
    }
    out
}

/// A file-name-safe version of a key.
fn sanitize(key: &str) -> String {
    let s: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "unnamed".into()
    } else {
        s
    }
}

/// One puzzle's cells, with what every plot kind needs to name and colour its charts.
struct Puzzle<'a> {
    key: &'a str,
    stem: String,
    /// The label of its size axis, with what the size counts: `size (islands)`.
    size_label: String,
    cells: &'a Cells,
}

impl Puzzle<'_> {
    /// The colour and marker of a (formulation, engine) series: by its place among the
    /// puzzle's series, so that a series looks the same in every plot of the puzzle.
    fn look(&self, formulation: &str, backend: &str) -> (RGBColor, Marker) {
        let i = self
            .cells
            .keys()
            .position(|(f, b)| f == formulation && b == backend)
            .unwrap_or(0);
        let markers = [Marker::Circle, Marker::Triangle, Marker::Square];
        (
            PALETTE[i % PALETTE.len()],
            markers[(i / PALETTE.len()) % markers.len()],
        )
    }

    /// The formulations that ran on exactly one engine, each with its engine, in key order,
    /// when those engines are at least two (the Circuit Board's `cm1` on `bc` and `cm2` on
    /// `highs`); empty otherwise.
    fn own_engines(&self) -> Vec<(&str, &str)> {
        let mut engines: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (f, b) in self.cells.keys() {
            engines.entry(f.as_str()).or_default().push(b.as_str());
        }
        let single: Vec<(&str, &str)> = engines
            .iter()
            .filter(|(_, bs)| bs.len() == 1)
            .map(|(f, bs)| (*f, bs[0]))
            .collect();
        let distinct: BTreeSet<&str> = single.iter().map(|(_, b)| *b).collect();
        if distinct.len() < 2 {
            return Vec::new();
        }
        single
    }

    /// The engine that ran the most (formulation, instance) cells, the first in key order
    /// on a tie: the puzzle's main engine, on which its formulations are compared (the
    /// other engines ran only the engine comparison's few instances).
    fn main_engine(&self) -> Option<&str> {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for ((_, b), per) in self.cells {
            *count.entry(b.as_str()).or_default() += per.len();
        }
        let most = *count.values().max()?;
        count.into_iter().find(|(_, n)| *n == most).map(|(b, _)| b)
    }

    /// The formulation that ran on the most engines (then on the most instances, then the
    /// first in key order), when some formulation ran on two or more: the one whose
    /// engines a profile compares.
    fn most_engines_formulation(&self) -> Option<&str> {
        let mut seen: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for ((f, _), per) in self.cells {
            let e = seen.entry(f.as_str()).or_default();
            e.0 += 1;
            e.1 += per.len();
        }
        let best = *seen.values().max()?;
        if best.0 < 2 {
            return None;
        }
        seen.into_iter().find(|(_, v)| *v == best).map(|(f, _)| f)
    }

    /// The formulations run on `backend`, in key order.
    fn formulations_on(&self, backend: &str) -> Vec<&str> {
        self.cells
            .keys()
            .filter(|(_, b)| b == backend)
            .map(|(f, _)| f.as_str())
            .collect()
    }
}

// ---------------------------------------------------------------------------------------
// Axis ranges, shared by the plot kinds.

/// The smallest and largest finite value (`None` when there is none).
fn min_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// A linear range around [lo, hi] with 5 % padding (never empty).
fn linear_axis(lo: f64, hi: f64) -> (f64, f64) {
    let span = hi - lo;
    if span > 0.0 {
        (lo - 0.05 * span, hi + 0.05 * span)
    } else {
        let pad = if lo == 0.0 { 1.0 } else { 0.1 * lo.abs() };
        (lo - pad, hi + pad)
    }
}

/// A log range around [lo, hi] (values clamped to [`MIN_SECONDS`]) that starts at or below
/// the power of `base` at or below `lo`, so that the lowest value has a labelled tick at or
/// under it (plotters puts log ticks only on powers of the base): padded by a factor 1.25,
/// and reaching the next power up at least, so that it holds two labelled powers.
fn log_axis(lo: f64, hi: f64, base: f64) -> (f64, f64) {
    let lo = lo.max(MIN_SECONDS);
    let hi = hi.max(lo);
    let log = |v: f64| v.ln() / base.ln();
    let bottom = (log(lo) + 1e-9).floor();
    // Just outside the powers, so that rounding keeps them inside the axis.
    let a = (lo / 1.25).min(base.powf(bottom) * 0.999);
    let b = (hi * 1.25).max(base.powf(bottom + 1.0) * 1.001);
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axis_starts_at_a_power_and_holds_two() {
        let (a, b) = log_axis(0.3, 0.6, 10.0);
        assert!(a < 0.1 && a > 0.09 && b > 1.0 && b < 1.01, "{a} {b}");
        let (a, b) = log_axis(0.002, 5.0, 10.0);
        assert!((a - 0.000999).abs() < 1e-12 && (b - 6.25).abs() < 1e-12);
        // A power at the lowest value: padded below it, not a whole power further.
        let (a, _) = log_axis(0.01, 5.0, 10.0);
        assert!((a - 0.008).abs() < 1e-12, "{a}");
        let (a, _) = log_axis(0.0, 0.0, 10.0);
        assert!(a > 0.0);
    }
}
