//! Plots of result rows, drawn with `plotters` as SVG and PNG, converted from the SVG to
//! vector PDF (`pdf`) and written as PGFPlots sources with their data (`pgf`); which of
//! these formats are written is the caller's choice ([`FigureFormat`]).
//!
//! A figure that compares configurations is drawn on one instance set, which its title
//! names, with the configurations that ran every instance of it (`sets`): the overview's
//! **comparison instances** (the report's answer, when the plots are given it) and the
//! **instances outside the comparison** that the most configurations ran. One set of plots
//! per puzzle, every file stem prefixed with the puzzle key:
//!
//! * `<p>_time_vs_size`: solve time against instance size, one series per configuration
//!   (`formulation on engine`), points plus a line through the per-size medians, on the
//!   instances outside the comparison (the comparison's when there are none);
//! * `<p>_lp_ratio`: LP bound / objective against instance size on the same instances, one
//!   series per formulation (the LP bound depends on the formulation only; a note says when
//!   two engines' LP bounds of one formulation differ on an instance);
//! * per set (`<s>`: `comparison`, `rest`): `<p>_<s>_cactus` (instances solved against
//!   time), `<p>_<s>_profile` (a Dolan–Moré performance profile of its configurations),
//!   `<p>_<s>_scatter` (the best configuration's time against the runner-up's, per
//!   instance) and, for an optimisation puzzle whose runs have timelines,
//!   `<p>_<s>_primal_gap` (the mean primal gap over time of each configuration);
//! * `<p>_primal_gap_one`: the primal gap over time of each configuration's run on one
//!   instance of the comparison (of the rest when the comparison's runs have no timeline).
//!
//! Runs that count solutions (`count` above 1) do another task, and refused runs searched
//! nothing: neither is drawn. Runs are first reduced to one value per (configuration,
//! instance with its time limit): the median of the charged seconds over the repeats
//! ([`charged_seconds`]); the instance counts as solved when more than half of its repeats
//! succeeded ([`succeeded`]). Times are clamped to at least 10⁻⁴ s so that log axes stay
//! finite, and a plot that draws a time so clamped says so under its axes; a failed run
//! with no known time is left out of the time plots (it still counts as a failure in the
//! profiles and cactus plots).
//!
//! Every series of a puzzle has a look of its own ([`Look`]: colour, marker, dash) kept in
//! every figure of the puzzle; no two series of a puzzle share a colour and marker.
//!
//! The code follows the same cut: this module holds the chart description shared by every
//! kind (`Chart`, `Series`, `Axis`), the reduction of rows to cells and the list of charts
//! per puzzle; `sets` chooses the instance sets; each plot kind turns the cells into its
//! charts in a module of its own (`time_vs_size`, `lp_ratio`, `profile`, `cactus`,
//! `scatter`, `primal_gap`), and `render` draws any chart with `plotters`; `pdf` turns the
//! SVG into PDF and `pgf` writes a chart as PGFPlots.

mod cactus;
mod compact;
mod lp_ratio;
mod pdf;
mod pgf;
mod primal_gap;
mod profile;
mod race;
mod render;
mod scatter;
mod sets;
mod time_vs_size;

use crate::race::capping::stopped_at;
use crate::record::Record;
use crate::report::answer::{instance_key, Answer, Config, InstanceKey};
use crate::report::anytime::Timelines;
use crate::stats::{charged_seconds, median, DEFAULT_SHIFT};
use crate::table::TableFn;
use plotters::prelude::*;
use render::{render, HEIGHT, WIDTH};
use sets::Set;
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

/// One plot written: its file stem, title, caption, and the files.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotFile {
    /// File stem shared by every file, e.g. `sudoku_time_vs_size`.
    pub stem: String,
    /// The chart's title, which names the instance set it is drawn on.
    pub title: String,
    /// What a caption under the figure says: which instances and configurations it draws,
    /// which configurations it leaves out, which of the puzzle's tables hold its runs
    /// (empty for a figure without an instance set).
    pub caption: String,
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

/// What the report knows besides the rows that the plots use.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// The runs' timelines, for the primal gap plots.
    pub timelines: &'a Timelines,
    /// The report's answers ([`crate::report::answer::answers`]): each puzzle's comparison
    /// instances and configurations, best first. A puzzle without one gets no comparison
    /// figures; its figures are drawn on the instances the most configurations ran.
    pub answers: &'a [Answer],
    /// The puzzles' table functions, so that a caption names the tables holding a figure's
    /// runs.
    pub tables: &'a [TableFn],
    /// The shift of the shifted geometric means that rank the configurations outside the
    /// comparison (the report's one shift).
    pub shift: f64,
    /// The races, rebuilt from every row of theirs (refusals included), for the survivors
    /// figure of each raced puzzle.
    pub races: &'a [crate::race::state::RaceState],
}

/// Writes every plot that `rows` support into `dir` (created if missing), each in every one
/// of `formats` (same stem), without the report's answers (so without comparison figures:
/// each puzzle's figures are on the instances the most configurations ran), timelines or
/// tables. Returns the plots written, in a stable order. Plots without data are skipped.
/// `size_units` name what each puzzle's instance size counts, as (puzzle key, unit) pairs
/// such as `("hashi", "islands")`: its size axis reads `size (islands)`, or `size` for a
/// puzzle not named there. The PGFPlots sources name their data as
/// `<dir's name>/<stem>.csv`, so that they are `\input` from the folder holding `dir`.
pub fn write_plots(
    rows: &[Record],
    dir: &Path,
    size_units: &[(&str, &str)],
    formats: &[FigureFormat],
) -> Result<Vec<PlotFile>, String> {
    let inputs = Inputs {
        timelines: &Timelines::default(),
        answers: &[],
        tables: &[],
        shift: DEFAULT_SHIFT,
        races: &[],
    };
    write_plots_with(rows, &inputs, dir, size_units, formats)
}

/// [`write_plots`] with what the report knows besides the rows ([`Inputs`]): the
/// comparison figures on each puzzle's comparison instances, the primal gap over time of
/// the optimisation puzzles from the runs' timelines, and captions that name the tables.
pub fn write_plots_with(
    rows: &[Record],
    inputs: &Inputs,
    dir: &Path,
    size_units: &[(&str, &str)],
    formats: &[FigureFormat],
) -> Result<Vec<PlotFile>, String> {
    let charts = charts(rows, size_units, inputs);
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
        // The PDF is made from the plain drawing; the SVG file also carries the hover marks,
        // scales down to the width of the page that shows it, and, where the page shows it
        // as a document of its own ([`interactive`]), carries the script of its legend; it
        // is written compactly ([`compact`]).
        let plain_svg = svg.clone();
        render::add_hover_marks(&mut svg, &marks);
        render::make_scalable(&mut svg);
        if interactive(&chart.stem) {
            render::add_legend_script(&mut svg);
        }
        let svg = compact::compact(&svg);
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
            caption: chart.caption,
            files,
        });
    }
    Ok(written)
}

/// Whether a figure is interactive: the time against size and the cactus plots, whose SVG
/// files carry a script (clicking a legend line hides or shows its series) and hover marks
/// (the time against size: what each point is), and which the HTML pages show as documents
/// of their own (`<object>`) so that both work; the other figures are images.
pub fn interactive(stem: &str) -> bool {
    stem.ends_with("_time_vs_size") || stem.ends_with("_cactus")
}

/// Times below this are drawn at this value (log axes cannot show zero).
const MIN_SECONDS: f64 = 1e-4;
/// Series colours, in the order series are given them: Okabe and Ito's palette for
/// colour-blind readers (blue, vermilion, bluish green, reddish purple, orange, sky blue,
/// black), without its yellow, which hardly shows on white.
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];
/// Series markers, in the order series are given them: each goes with every colour of
/// [`PALETTE`] before the next is taken (the cross marks failures and is not among them).
const MARKERS: [Marker; 8] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Diamond,
    Marker::OpenCircle,
    Marker::OpenTriangle,
    Marker::OpenSquare,
    Marker::OpenDiamond,
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
    Diamond,
    OpenCircle,
    OpenTriangle,
    OpenSquare,
    OpenDiamond,
    /// The mark of a failed run.
    Cross,
    None,
}

/// How a series looks: its colour, marker, and whether its line is dashed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Look {
    color: RGBColor,
    marker: Marker,
    dashed: bool,
}

impl Look {
    /// The `i`-th look: colours first, then markers, so that the first
    /// `PALETTE.len() × MARKERS.len()` looks differ in colour or marker; lines are dashed
    /// from the second round of colours on, so that lines of one colour differ too.
    fn nth(i: usize) -> Look {
        let round = i / PALETTE.len();
        Look {
            color: PALETTE[i % PALETTE.len()],
            marker: MARKERS[round % MARKERS.len()],
            dashed: round % 2 == 1,
        }
    }
}

#[derive(Clone, Debug)]
struct Series {
    name: String,
    color: RGBColor,
    /// The marker of `points`, and of the series' line in the legend.
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

impl Series {
    /// A series named `name` with `look` and nothing to draw yet.
    fn new(name: String, look: Look) -> Series {
        Series {
            name,
            color: look.color,
            marker: look.marker,
            points: Vec::new(),
            failed: Vec::new(),
            line: Vec::new(),
            dashed: look.dashed,
            tips: Vec::new(),
        }
    }
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
    /// Lines of text under the axes (what the reader must know to read the chart).
    notes: Vec<String>,
    /// What a caption says about the chart ([`PlotFile::caption`]).
    caption: String,
}

// ---------------------------------------------------------------------------------------
// Reducing rows to one cell per (configuration, instance with its time limit).

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

/// Configuration → instance (with its time limit) → cell.
type Cells = BTreeMap<Config, BTreeMap<InstanceKey, Cell>>;

/// The configuration of a row.
fn config(r: &Record) -> Config {
    Config {
        formulation: r.formulation.clone(),
        engine: r.backend_label(),
    }
}

/// Whether a row is drawn: not a counting run, not a refused one.
fn drawn(r: &Record) -> bool {
    r.count <= 1 && !r.is_refused()
}

fn cells(rows: &[&Record]) -> Cells {
    let mut groups: BTreeMap<Config, BTreeMap<InstanceKey, Vec<&Record>>> = BTreeMap::new();
    for r in rows {
        groups
            .entry(config(r))
            .or_default()
            .entry(instance_key(&r.instance, r.time_limit))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|(key, instances)| {
            let by_instance = instances
                .into_iter()
                .map(|(instance, rs)| {
                    // A run a race's adaptive cap stopped is not solved: it is drawn as
                    // unsolved, at its cap (a lower bound on its time).
                    let times: Vec<f64> = rs
                        .iter()
                        .map(|r| stopped_at(r).unwrap_or_else(|| charged_seconds(r)))
                        .collect();
                    let ok = crate::report::paired::instance_solved(
                        rs.iter().filter(|r| crate::stats::succeeded(r)).count(),
                        rs.len(),
                    );
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
fn charts(rows: &[Record], size_units: &[(&str, &str)], inputs: &Inputs) -> Vec<Chart> {
    let mut puzzles: BTreeMap<&str, Vec<Record>> = BTreeMap::new();
    for r in rows {
        puzzles
            .entry(r.puzzle.as_str())
            .or_default()
            .push(r.clone());
    }
    let mut out = Vec::new();
    let races = inputs.races;
    for (puzzle, all) in puzzles {
        let rs: Vec<&Record> = all.iter().filter(|r| drawn(r)).collect();
        let cells = cells(&rs);
        let answers: Vec<&Answer> = inputs
            .answers
            .iter()
            .filter(|a| a.puzzle == puzzle)
            .collect();
        let source = sets::Source {
            puzzle,
            rows: &rs,
            cells: &cells,
            all: &all,
            tables: inputs.tables,
        };
        let sets = sets::sets(&source, &answers, inputs.shift);
        let unit = size_units
            .iter()
            .find(|(key, unit)| *key == puzzle && !unit.is_empty())
            .map(|(_, unit)| *unit);
        let p = Puzzle {
            key: puzzle,
            stem: sanitize(puzzle),
            size_label: unit.map_or("size".into(), |u| format!("size ({u})")),
            looks: looks(&cells, &sets),
            cells: &cells,
            // From every row of the puzzle, as the anytime table's integrals: a counting
            // run that proves an optimum proves it for all.
            references: crate::report::anytime::references(&all),
        };
        // The figures against size on the instances outside the comparison, which hold
        // the sizes the suites sweep; on the comparison's where there are none.
        if let Some(s) = sets.last() {
            out.extend(p.time_vs_size(s));
            out.extend(p.lp_ratio(s, &rs));
        }
        for s in &sets {
            out.extend(p.cactus(s));
            out.extend(p.profile(s));
            out.extend(p.scatter(s));
            out.extend(p.primal_gap(s, &rs, inputs.timelines));
        }
        out.extend(p.primal_gap_one(&sets, &rs, inputs.timelines));
        let mine: Vec<&crate::race::state::RaceState> = races
            .iter()
            .filter(|r| all.iter().any(|row| row.race == r.name))
            .collect();
        out.extend(race::survivors_chart(puzzle, &p.stem, &mine));
    }
    out
}

/// The look of each configuration of a puzzle: in the order of the sets (the rest first,
/// whose figures show the most points, then the comparison's, each best first), then
/// every other configuration in key order, the `i`-th gets [`Look::nth`].
fn looks(cells: &Cells, sets: &[Set]) -> BTreeMap<Config, Look> {
    let mut order: Vec<&Config> = Vec::new();
    for c in sets
        .iter()
        .rev()
        .flat_map(|s| s.configs.iter())
        .chain(cells.keys())
    {
        if !order.contains(&c) {
            order.push(c);
        }
    }
    order
        .into_iter()
        .enumerate()
        .map(|(i, c)| (c.clone(), Look::nth(i)))
        .collect()
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
    /// The look of each configuration, the same in every figure of the puzzle.
    looks: BTreeMap<Config, Look>,
    /// The reference objective of each instance, for the primal gap.
    references: primal_gap::References,
}

impl Puzzle<'_> {
    /// The look of configuration `c` ([`looks`]).
    fn look(&self, c: &Config) -> Look {
        self.looks.get(c).copied().unwrap_or(Look::nth(0))
    }

    /// The cells of configuration `c` on the instances of `set`.
    fn cells_on<'s>(
        &'s self,
        c: &Config,
        set: &'s Set,
    ) -> impl Iterator<Item = (&'s InstanceKey, &'s Cell)> + 's {
        self.cells
            .get(c)
            .into_iter()
            .flat_map(|per| per.iter())
            .filter(move |(k, _)| set.keys.contains(*k))
    }

    /// The notes of a chart on `set`: `first` (if any), then the configurations left out.
    fn notes(&self, set: &Set, first: Option<String>) -> Vec<String> {
        first.into_iter().chain(set.left_out_note()).collect()
    }
}

/// Points along the step line `line` (each vertex holds its value until the next) at
/// `count` places spread evenly over [`lo`, `hi`] (on a log scale when `log`), shifted by
/// the fraction `phase` of a spacing, so that lines drawn over one another show their
/// markers side by side.
fn marks_along(
    line: &[(f64, f64)],
    lo: f64,
    hi: f64,
    log: bool,
    count: usize,
    phase: f64,
) -> Vec<(f64, f64)> {
    (0..count)
        .filter_map(|j| {
            let f = (j as f64 + phase) / count as f64;
            let x = if log {
                lo * (hi / lo).powf(f)
            } else {
                lo + (hi - lo) * f
            };
            let y = line.iter().take_while(|p| p.0 <= x).last()?.1;
            Some((x, y))
        })
        .collect()
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
