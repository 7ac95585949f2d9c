//! Plots of result rows, written as SVG and PNG with `plotters`.
//!
//! One set of plots per puzzle, every file stem prefixed with the puzzle key:
//!
//! * `<p>_time_vs_size`: solve time against instance size, one series per
//!   `formulation / backend`, points plus a line through the per-size medians;
//! * `<p>_lp_ratio`: LP bound / objective against instance size (only when some rows have a
//!   nonzero objective and an LP bound);
//! * `<p>_profile_<backend>` and `<p>_profile_<formulation>`: Dolan–Moré performance
//!   profiles comparing the formulations on one backend, or the backends on one formulation;
//! * `<p>_cactus`: instances solved against time;
//! * `<p>_scatter_<backend>_<f1>_vs_<f2>`: time of one formulation against another's, per
//!   instance, with the diagonal.
//!
//! Runs are first reduced to one value per (instance, formulation, backend): the median of
//! the charged seconds over the repeats ([`charged_seconds`]); the instance counts as solved
//! when more than half of its repeats succeeded ([`succeeded`]). Times are clamped to at
//! least 10⁻⁴ s so that log axes stay finite; a failed run with no known time is left out of
//! the time plots (it still counts as a failure in the profiles).

use crate::record::Record;
use crate::report::summary::{charged_seconds, median, succeeded};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One plot written: its file stem, title, and the files (SVG and PNG).
#[derive(Clone, Debug, PartialEq)]
pub struct PlotFile {
    /// File stem shared by both files, e.g. `sudoku_time_vs_size`.
    pub stem: String,
    /// The chart's title.
    pub title: String,
    /// The SVG file.
    pub svg: PathBuf,
    /// The PNG file.
    pub png: PathBuf,
}

/// Writes every plot that `rows` support into `dir` (created if missing), each as SVG and PNG
/// (same stem). Returns the plots written, in a stable order. Plots without data are skipped.
pub fn write_plots(rows: &[Record], dir: &Path) -> Result<Vec<PlotFile>, String> {
    let charts = charts(rows);
    if charts.is_empty() {
        return Ok(Vec::new());
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut used = BTreeSet::new();
    let mut written = Vec::with_capacity(charts.len());
    for mut chart in charts {
        let base = chart.stem.clone();
        let mut n = 2;
        while !used.insert(chart.stem.clone()) {
            chart.stem = format!("{base}_{n}");
            n += 1;
        }
        let svg = dir.join(format!("{}.svg", chart.stem));
        let png = dir.join(format!("{}.png", chart.stem));
        render(
            SVGBackend::new(&svg, (WIDTH, HEIGHT)).into_drawing_area(),
            &chart,
        )
        .map_err(|e| format!("{}: {e}", svg.display()))?;
        render(
            BitMapBackend::new(&png, (WIDTH, HEIGHT)).into_drawing_area(),
            &chart,
        )
        .map_err(|e| format!("{}: {e}", png.display()))?;
        written.push(PlotFile {
            stem: chart.stem,
            title: chart.title,
            svg,
            png,
        });
    }
    Ok(written)
}

const WIDTH: u32 = 800;
const HEIGHT: u32 = 520;
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
const GREY: RGBColor = RGBColor(90, 90, 90);
const FONT: &str = "sans-serif";

// ---------------------------------------------------------------------------------------
// Chart description, independent of the backend.

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
}

// ---------------------------------------------------------------------------------------
// Reducing rows to one cell per (instance, formulation, backend).

#[derive(Clone, Debug)]
struct Cell {
    size: Option<f64>,
    /// Median charged seconds over the repeats (not clamped; 0 when unknown).
    seconds: f64,
    /// More than half of the repeats succeeded.
    ok: bool,
    /// Median LP bound / objective over the repeats that have both.
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
}

/// (formulation, backend) → instance → cell.
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
                    let ratios: Vec<f64> = rs
                        .iter()
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
fn charts(rows: &[Record]) -> Vec<Chart> {
    let mut puzzles: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        puzzles.entry(r.puzzle.as_str()).or_default().push(r);
    }
    let mut out = Vec::new();
    for (puzzle, rs) in puzzles {
        let cells = cells(&rs);
        let p = Puzzle {
            key: puzzle,
            stem: sanitize(puzzle),
            cells: &cells,
        };
        out.extend(p.time_vs_size());
        out.extend(p.lp_ratio());
        out.extend(p.profiles());
        out.extend(p.cactus());
        out.extend(p.scatters());
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

struct Puzzle<'a> {
    key: &'a str,
    stem: String,
    cells: &'a Cells,
}

impl Puzzle<'_> {
    /// The colour and marker of a (formulation, backend) series: by its place among the
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

    fn size_unit(&self) -> &'static str {
        if self.key == "sudoku" {
            "cells"
        } else {
            "size"
        }
    }

    /// Series of (size, value) per (formulation, backend); `None` when there are no points.
    fn against_size(
        &self,
        stem: &str,
        title: String,
        value: impl Fn(&Cell) -> Option<f64>,
        y_label: &str,
        y_log: bool,
    ) -> Option<Chart> {
        let mut series = Vec::new();
        for ((f, b), instances) in self.cells {
            let pts: Vec<(f64, f64, bool)> = instances
                .values()
                .filter_map(|c| Some((c.size?, value(c)?, c.ok)))
                .filter(|(s, v, _)| s.is_finite() && v.is_finite())
                .collect();
            if !pts.is_empty() {
                series.push((f, b, pts));
            }
        }
        let all = || series.iter().flat_map(|(_, _, p)| p.iter());
        let (xmin, xmax) = min_max(all().map(|p| p.0))?;
        let (ymin, ymax) = min_max(all().map(|p| p.1))?;
        let x_log = xmin > 0.0 && xmax / xmin > 20.0;
        let x = if x_log {
            log_axis(xmin, xmax, 10.0)
        } else {
            linear_axis(xmin, xmax)
        };
        let y = if y_log {
            log_axis(ymin, ymax, 10.0)
        } else {
            linear_axis(ymin, ymax)
        };
        let series = series
            .into_iter()
            .map(|(f, b, pts)| {
                let (color, marker) = self.look(f, b);
                let mut by_size: BTreeMap<u64, (f64, Vec<f64>)> = BTreeMap::new();
                for &(s, v, _) in &pts {
                    by_size.entry(order_key(s)).or_insert((s, vec![])).1.push(v);
                }
                Series {
                    name: format!("{f} / {b}"),
                    color,
                    marker,
                    points: pts.iter().filter(|p| p.2).map(|p| (p.0, p.1)).collect(),
                    failed: pts.iter().filter(|p| !p.2).map(|p| (p.0, p.1)).collect(),
                    line: by_size
                        .into_values()
                        .filter_map(|(s, vs)| Some((s, median(&vs)?)))
                        .collect(),
                    dashed: false,
                }
            })
            .collect();
        Some(Chart {
            stem: format!("{}_{stem}", self.stem),
            title,
            x: Axis {
                label: format!("instance size ({})", self.size_unit()),
                lo: x.0,
                hi: x.1,
                scale: if x_log {
                    Scale::Log(10.0)
                } else {
                    Scale::Linear
                },
                integer: false,
            },
            y: Axis {
                label: y_label.into(),
                lo: y.0,
                hi: y.1,
                scale: if y_log {
                    Scale::Log(10.0)
                } else {
                    Scale::Linear
                },
                integer: false,
            },
            series,
            failed_label: "failed (charged the time limit)".into(),
        })
    }

    fn time_vs_size(&self) -> Option<Chart> {
        self.against_size(
            "time_vs_size",
            format!("{}: solve time against instance size", self.key),
            Cell::plot_seconds,
            "time (s)",
            true,
        )
    }

    fn lp_ratio(&self) -> Option<Chart> {
        let mut chart = self.against_size(
            "lp_ratio",
            format!("{}: LP bound / objective against instance size", self.key),
            |c| c.lp_ratio,
            "LP bound / objective",
            false,
        )?;
        // Crosses would mark runs that failed, but the ratio of a failed run is not charged.
        chart.failed_label = "run not solved (best objective found)".into();
        Some(chart)
    }

    fn formulations_on(&self, backend: &str) -> Vec<&str> {
        self.cells
            .keys()
            .filter(|(_, b)| b == backend)
            .map(|(f, _)| f.as_str())
            .collect()
    }

    fn profiles(&self) -> Vec<Chart> {
        let backends: BTreeSet<&str> = self.cells.keys().map(|(_, b)| b.as_str()).collect();
        let formulations: BTreeSet<&str> = self.cells.keys().map(|(f, _)| f.as_str()).collect();
        let mut out = Vec::new();
        for b in &backends {
            let fs = self.formulations_on(b);
            if fs.len() < 2 {
                continue;
            }
            let series = fs
                .iter()
                .map(|f| (f.to_string(), *f, *b))
                .collect::<Vec<_>>();
            out.extend(self.profile(
                &format!("profile_{}", sanitize(b)),
                format!(
                    "{} on {b}: performance profile of the formulations",
                    self.key
                ),
                &series,
            ));
        }
        for f in &formulations {
            let bs: Vec<&str> = self
                .cells
                .keys()
                .filter(|(g, _)| g == f)
                .map(|(_, b)| b.as_str())
                .collect();
            if bs.len() < 2 {
                continue;
            }
            let series = bs
                .iter()
                .map(|b| (b.to_string(), *f, *b))
                .collect::<Vec<_>>();
            out.extend(self.profile(
                &format!("profile_{}", sanitize(f)),
                format!("{}, {f}: performance profile of the backends", self.key),
                &series,
            ));
        }
        out
    }

    /// A Dolan–Moré profile over the instances that every series ran.
    fn profile(&self, stem: &str, title: String, series: &[(String, &str, &str)]) -> Option<Chart> {
        let runs: Vec<&BTreeMap<String, Cell>> = series
            .iter()
            .map(|(_, f, b)| self.cells.get(&(f.to_string(), b.to_string())))
            .collect::<Option<_>>()?;
        let instances: Vec<&String> = runs[0]
            .keys()
            .filter(|i| runs.iter().all(|r| r.contains_key(*i)))
            .collect();
        if instances.is_empty() {
            return None;
        }
        // ratios[s] = performance ratios of series s, over the instances (infinite: failed).
        let mut ratios = vec![Vec::with_capacity(instances.len()); runs.len()];
        for i in &instances {
            let times: Vec<Option<f64>> = runs
                .iter()
                .map(|r| {
                    let c = &r[*i];
                    (c.ok && c.seconds.is_finite()).then(|| c.seconds.max(MIN_SECONDS))
                })
                .collect();
            let best = times
                .iter()
                .flatten()
                .copied()
                .fold(f64::INFINITY, f64::min);
            for (s, t) in times.iter().enumerate() {
                ratios[s].push(t.map_or(f64::INFINITY, |t| t / best));
            }
        }
        let max_ratio = ratios
            .iter()
            .flatten()
            .copied()
            .filter(|r| r.is_finite())
            .fold(1.0, f64::max);
        // Up to a power of two with some room after the last step.
        let k = (max_ratio * 1.1).log2().ceil().max(1.0);
        let x_hi = 2f64.powf(k) * 1.001;
        let n = instances.len() as f64;
        let series = series
            .iter()
            .zip(&ratios)
            .map(|((name, f, b), rs)| {
                let (color, _) = self.look(f, b);
                let mut finite: Vec<f64> = rs.iter().copied().filter(|r| r.is_finite()).collect();
                finite.sort_by(f64::total_cmp);
                let at_one = finite.iter().filter(|&&r| r <= 1.0).count();
                let mut line = vec![(1.0, at_one as f64 / n)];
                let mut count = at_one;
                for &r in finite.iter().skip(at_one) {
                    let before = count as f64 / n;
                    count += 1;
                    line.push((r, before));
                    line.push((r, count as f64 / n));
                }
                line.push((x_hi, count as f64 / n));
                Series {
                    name: name.clone(),
                    color,
                    marker: Marker::None,
                    points: vec![],
                    failed: vec![],
                    line,
                    dashed: false,
                }
            })
            .collect();
        Some(Chart {
            stem: format!("{}_{stem}", self.stem),
            title,
            x: Axis {
                label: "performance ratio τ = time / best time (log₂)".into(),
                lo: 1.0,
                hi: x_hi,
                scale: Scale::Log(2.0),
                integer: false,
            },
            y: Axis {
                label: format!(
                    "fraction of the {} instances with ratio ≤ τ",
                    instances.len()
                ),
                lo: 0.0,
                hi: 1.04,
                scale: Scale::Linear,
                integer: false,
            },
            series,
            failed_label: String::new(),
        })
    }

    fn cactus(&self) -> Option<Chart> {
        let mut series = Vec::new();
        let mut all = Vec::new();
        for ((f, b), instances) in self.cells {
            let mut times: Vec<f64> = instances
                .values()
                .filter(|c| c.ok)
                .filter_map(Cell::plot_seconds)
                .collect();
            if times.is_empty() {
                continue;
            }
            times.sort_by(f64::total_cmp);
            all.extend(times.iter().copied());
            let points: Vec<(f64, f64)> = times
                .iter()
                .enumerate()
                .map(|(k, &t)| (t, (k + 1) as f64))
                .collect();
            let mut line = vec![(times[0], 0.0)];
            for &(t, k) in &points {
                line.push((t, k - 1.0));
                line.push((t, k));
            }
            let (color, marker) = self.look(f, b);
            series.push(Series {
                name: format!("{f} / {b}"),
                color,
                marker,
                points,
                failed: vec![],
                line,
                dashed: false,
            });
        }
        let (tmin, tmax) = min_max(all.iter().copied())?;
        let x = log_axis(tmin, tmax, 10.0);
        let most = series.iter().map(|s| s.points.len()).max().unwrap_or(0) as f64;
        Some(Chart {
            stem: format!("{}_cactus", self.stem),
            title: format!("{}: instances solved against time (cactus)", self.key),
            x: Axis {
                label: "time (s)".into(),
                lo: x.0,
                hi: x.1,
                scale: Scale::Log(10.0),
                integer: false,
            },
            y: Axis {
                label: "instances solved".into(),
                lo: 0.0,
                hi: most * 1.05 + 0.3,
                scale: Scale::Linear,
                integer: true,
            },
            series,
            failed_label: String::new(),
        })
    }

    fn scatters(&self) -> Vec<Chart> {
        let backends: BTreeSet<&str> = self.cells.keys().map(|(_, b)| b.as_str()).collect();
        let mut out = Vec::new();
        for b in backends {
            let fs = self.formulations_on(b);
            for (i, f1) in fs.iter().enumerate() {
                for f2 in &fs[i + 1..] {
                    out.extend(self.scatter(b, f1, f2));
                }
            }
        }
        out
    }

    fn scatter(&self, b: &str, f1: &str, f2: &str) -> Option<Chart> {
        let c1 = self.cells.get(&(f1.to_string(), b.to_string()))?;
        let c2 = self.cells.get(&(f2.to_string(), b.to_string()))?;
        let mut points = Vec::new();
        let mut failed = Vec::new();
        for (instance, a) in c1 {
            let Some(c) = c2.get(instance) else { continue };
            let (Some(x), Some(y)) = (a.plot_seconds(), c.plot_seconds()) else {
                continue;
            };
            if a.ok && c.ok {
                points.push((x, y));
            } else {
                failed.push((x, y));
            }
        }
        let (lo, hi) = min_max(points.iter().chain(&failed).flat_map(|&(x, y)| [x, y]))?;
        let (lo, hi) = log_axis(lo, hi, 10.0);
        let axis = |f: &str| Axis {
            label: format!("{f}: time (s)"),
            lo,
            hi,
            scale: Scale::Log(10.0),
            integer: false,
        };
        Some(Chart {
            stem: format!(
                "{}_scatter_{}_{}_vs_{}",
                self.stem,
                sanitize(b),
                sanitize(f1),
                sanitize(f2)
            ),
            title: format!("{} on {b}: {f1} against {f2}, time per instance", self.key),
            x: axis(f1),
            y: axis(f2),
            series: vec![
                Series {
                    name: format!("y = x (above: {f1} faster)"),
                    color: GREY,
                    marker: Marker::None,
                    points: vec![],
                    failed: vec![],
                    line: vec![(lo, lo), (hi, hi)],
                    dashed: true,
                },
                Series {
                    name: "instances".into(),
                    color: PALETTE[0],
                    marker: Marker::Circle,
                    points,
                    failed,
                    line: vec![],
                    dashed: false,
                },
            ],
            failed_label: "a run failed (charged the time limit)".into(),
        })
    }
}

/// A key that sorts non-negative and negative floats in numeric order.
fn order_key(v: f64) -> u64 {
    let bits = v.to_bits();
    if v.is_sign_negative() {
        !bits
    } else {
        bits | (1 << 63)
    }
}

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

/// A log range around [lo, hi] (values clamped to [`MIN_SECONDS`]): padded by a factor
/// 1.25, and widened to whole powers of `base` when it would otherwise hold fewer than two
/// of them (plotters puts log ticks only on powers of the base).
fn log_axis(lo: f64, hi: f64, base: f64) -> (f64, f64) {
    let lo = lo.max(MIN_SECONDS);
    let hi = hi.max(lo);
    let (a, b) = (lo / 1.25, hi * 1.25);
    let log = |v: f64| v.ln() / base.ln();
    if (log(b) - 1e-9).floor() - (log(a) + 1e-9).ceil() >= 1.0 {
        (a, b)
    } else {
        // Just outside the powers, so that rounding keeps them inside the axis.
        (
            base.powf((log(a) + 1e-9).floor()) * 0.999,
            base.powf((log(b) - 1e-9).ceil()) * 1.001,
        )
    }
}

/// Whole powers of the base a log axis spans (at least 1), as plotters counts them.
fn log_powers(axis: &Axis, base: f64) -> usize {
    ((axis.hi / axis.lo).ln() / base.ln()).floor().max(1.0) as usize
}

/// A base-2 axis over one doubling (1 to 2): plotters labels it 1, 1.2, … 2 when asked for
/// ten labels, and only 1 and 2 otherwise.
fn one_doubling(axis: &Axis) -> bool {
    axis.scale == Scale::Log(2.0) && log_powers(axis, 2.0) == 1
}

/// How many labels to ask plotters for. On a log axis, fewer than ten per power of the base,
/// so that it labels only the powers (with more it also labels 2, 3, … 9 times them).
fn label_count(axis: &Axis) -> usize {
    match axis.scale {
        Scale::Linear if axis.integer => ((axis.hi - axis.lo).floor() as usize + 1).clamp(2, 10),
        Scale::Linear => 8,
        Scale::Log(_) if one_doubling(axis) => 10,
        Scale::Log(base) => (log_powers(axis, base) + 1).min(10),
    }
}

/// Minor grid lines per label that plotters may draw (1: none between the labels).
fn light_lines(axis: &Axis) -> usize {
    if axis.scale == Scale::Log(10.0) {
        10
    } else {
        1
    }
}

/// A tick label: short decimals, scientific notation for very small or large values.
fn tick_label(v: f64, integer: bool) -> String {
    if integer {
        return if (v - v.round()).abs() < 1e-9 {
            format!("{}", v.round() as i64)
        } else {
            String::new()
        };
    }
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if !(1e-3..1e5).contains(&a) {
        let s = format!("{v:.2e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        format!("{}e{exponent}", trim_zeros(mantissa))
    } else {
        trim_zeros(&format!("{v:.4}")).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

// ---------------------------------------------------------------------------------------
// Drawing, generic over the backend.

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn render<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, chart: &Chart) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let (x, y) = (&chart.x, &chart.y);
    match (x.scale, y.scale) {
        (Scale::Linear, Scale::Linear) => draw(&root, chart, x.lo..x.hi, y.lo..y.hi),
        (Scale::Linear, Scale::Log(by)) => {
            draw(&root, chart, x.lo..x.hi, (y.lo..y.hi).log_scale().base(by))
        }
        (Scale::Log(bx), Scale::Linear) => {
            draw(&root, chart, (x.lo..x.hi).log_scale().base(bx), y.lo..y.hi)
        }
        (Scale::Log(bx), Scale::Log(by)) => draw(
            &root,
            chart,
            (x.lo..x.hi).log_scale().base(bx),
            (y.lo..y.hi).log_scale().base(by),
        ),
    }?;
    root.present().map_err(err)
}

/// One line of the legend.
struct Entry {
    label: String,
    color: RGBColor,
    marker: Marker,
    line: bool,
    dashed: bool,
}

fn legend_entries(chart: &Chart) -> Vec<Entry> {
    let mut entries: Vec<Entry> = chart
        .series
        .iter()
        .filter(|s| !s.name.is_empty())
        .map(|s| Entry {
            label: s.name.clone(),
            color: s.color,
            marker: if s.points.is_empty() {
                Marker::None
            } else {
                s.marker
            },
            line: !s.line.is_empty(),
            dashed: s.dashed,
        })
        .collect();
    if chart.series.iter().any(|s| !s.failed.is_empty()) {
        entries.push(Entry {
            label: chart.failed_label.clone(),
            color: GREY,
            marker: Marker::Cross,
            line: false,
            dashed: false,
        });
    }
    entries
}

/// Draws one marker at a position of `area`, in that area's coordinates.
fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    marker: Marker,
    color: RGBColor,
) -> Result<(), String>
where
    CT::From: Clone + 'static,
{
    let fill = color.filled();
    match marker {
        Marker::Circle => area.draw(&Circle::new(at, 4, fill)),
        Marker::Triangle => area.draw(&TriangleMarker::new(at, 6, fill)),
        Marker::Square => {
            area.draw(&(EmptyElement::at(at) + Rectangle::new([(-4, -4), (4, 4)], fill)))
        }
        Marker::Cross => area.draw(&Cross::new(at, 5, color.stroke_width(2))),
        Marker::None => Ok(()),
    }
    .map_err(err)
}

fn draw<DB, X, Y>(root: &DrawingArea<DB, Shift>, c: &Chart, xs: X, ys: Y) -> Result<(), String>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let font = TextStyle::from((FONT, 16).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let entries = legend_entries(c);
    let mut text_w = 0;
    for e in &entries {
        text_w = text_w.max(root.estimate_text_size(&e.label, &font).map_err(err)?.0 as i32);
    }
    // The legend sits to the right of the plotting area, so it never covers data.
    let legend_w = if entries.is_empty() { 0 } else { text_w + 58 };

    // The title, centred over the whole image and made smaller until it fits.
    let mut size = 24.0;
    let title_font = loop {
        let f = TextStyle::from((FONT, size).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
        let (w, _) = root.estimate_text_size(&c.title, &f).map_err(err)?;
        if w + 20 <= WIDTH || size <= 12.0 {
            break f;
        }
        size -= 1.0;
    };
    root.draw(&Text::new(
        c.title.as_str(),
        (WIDTH as i32 / 2, 10),
        title_font,
    ))
    .map_err(err)?;

    let mut chart = ChartBuilder::on(root)
        .margin(14)
        .margin_top(46)
        .margin_right(legend_w + 24)
        .x_label_area_size(46)
        .y_label_area_size(78)
        .build_cartesian_2d(xs, ys)
        .map_err(err)?;

    // Each label once: plotters can hand the same tick over twice (the end of a base-2
    // axis), and drawing it twice smudges the text.
    let (x_seen, y_seen) = (RefCell::new(BTreeSet::new()), RefCell::new(BTreeSet::new()));
    let once = |seen: &RefCell<BTreeSet<String>>, label: String| {
        if seen.borrow_mut().insert(label.clone()) {
            label
        } else {
            String::new()
        }
    };
    let x_fmt = |v: &f64| once(&x_seen, tick_label(*v, c.x.integer));
    let y_fmt = |v: &f64| once(&y_seen, tick_label(*v, c.y.integer));
    {
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(c.x.label.as_str())
            .y_desc(c.y.label.as_str())
            .x_labels(label_count(&c.x))
            .y_labels(label_count(&c.y))
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .bold_line_style(BLACK.mix(0.15))
            .light_line_style(BLACK.mix(0.05));
        // Minor lines only at 2…9 × the powers of ten of a decimal log axis: plotters
        // spaces those of a base-2 axis unevenly, and on linear axes they crowd the plot.
        mesh.x_max_light_lines(light_lines(&c.x))
            .y_max_light_lines(light_lines(&c.y));
        mesh.draw().map_err(err)?;
    }

    for s in &c.series {
        if !s.line.is_empty() {
            let style = s.color.stroke_width(2);
            if s.dashed {
                chart
                    .draw_series(DashedLineSeries::new(s.line.iter().copied(), 8, 5, style))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(LineSeries::new(s.line.iter().copied(), style))
                    .map_err(err)?;
            }
        }
        let area = chart.plotting_area();
        for &p in &s.points {
            draw_marker(area, p, s.marker, s.color)?;
        }
        for &p in &s.failed {
            draw_marker(area, p, Marker::Cross, s.color)?;
        }
    }

    if entries.is_empty() {
        return Ok(());
    }
    let area = chart.plotting_area();
    let (px, py) = area.get_base_pixel();
    let x0 = px + area.dim_in_pixel().0 as i32 + 14;
    let row = 22;
    let corners = [
        (x0, py),
        (x0 + legend_w, py + 8 + row * entries.len() as i32),
    ];
    root.draw(&Rectangle::new(corners, WHITE.filled()))
        .map_err(err)?;
    root.draw(&Rectangle::new(corners, BLACK.stroke_width(1)))
        .map_err(err)?;
    for (i, e) in entries.iter().enumerate() {
        let y = py + 4 + row * i as i32 + row / 2;
        let sample = [(x0 + 8, y), (x0 + 40, y)];
        if e.line && e.dashed {
            root.draw(&DashedPathElement::new(
                sample,
                6,
                4,
                e.color.stroke_width(2),
            ))
            .map_err(err)?;
        } else if e.line {
            root.draw(&PathElement::new(sample, e.color.stroke_width(2)))
                .map_err(err)?;
        }
        draw_marker(root, (x0 + 24, y), e.marker, e.color)?;
        root.draw(&Text::new(e.label.as_str(), (x0 + 48, y), font.clone()))
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(0.0001, false), "1e-4");
        assert_eq!(tick_label(0.001, false), "0.001");
        assert_eq!(tick_label(0.30000000000000004, false), "0.3");
        assert_eq!(tick_label(625.0, false), "625");
        assert_eq!(tick_label(2.5e6, false), "2.5e6");
        assert_eq!(tick_label(3.0, true), "3");
        assert_eq!(tick_label(2.5, true), "");
    }

    #[test]
    fn log_axis_holds_two_powers() {
        let (a, b) = log_axis(0.3, 0.6, 10.0);
        assert!(a < 0.1 && a > 0.09 && b > 1.0 && b < 1.01, "{a} {b}");
        let (a, b) = log_axis(0.002, 5.0, 10.0);
        assert!((a - 0.0016).abs() < 1e-12 && (b - 6.25).abs() < 1e-12);
        let (a, _) = log_axis(0.0, 0.0, 10.0);
        assert!(a > 0.0);
    }

    #[test]
    fn order_key_sorts_numerically() {
        let mut v = [3.0, -1.0, 0.5, -7.0, 100.0];
        v.sort_by_key(|x| order_key(*x));
        assert_eq!(v, [-7.0, -1.0, 0.5, 3.0, 100.0]);
    }
}
