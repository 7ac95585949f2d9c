//! Drawing a `Chart` with `plotters`, the same for every plot kind and for both backends
//! (SVG and PNG): the title, the axes and their ticks, the series (lines and markers), the
//! legend to the right of the plotting area and the note, if any, on a line at the bottom.

use super::{Axis, Chart, Marker, Scale, GREY};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// Image width in pixels.
pub(super) const WIDTH: u32 = 800;
/// Image height in pixels.
pub(super) const HEIGHT: u32 = 520;
/// The top of the plotting area, under the title, in pixels.
const TOP: i32 = 46;
/// Height of a line of notes under the axes, in pixels.
const NOTE_LINE: i32 = 20;
/// Font family of every text: DejaVu Sans (Debian's fonts-dejavu-core), the font the text's
/// size is measured in, named as such in the SVG and embedded in the PDF; plotters falls
/// back to the system's sans-serif font where it is missing.
pub(super) const FONT: &str = "DejaVu Sans";

// ---------------------------------------------------------------------------------------
// Ticks.

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

/// A tick label: decimals from 0.0001 up to 10⁵ with enough places for four significant
/// digits (0.00025, not 0.0003), scientific notation outside (1e-5, 2.5e6), so that small
/// values never print as 0.000 or as one another.
fn tick_label(v: f64, integer: bool) -> String {
    if integer {
        return if (v - v.round()).abs() < 1e-9 {
            format!("{}", v.round() as i64)
        } else {
            String::new()
        };
    }
    if v == 0.0 {
        return "0".into();
    }
    // The exponent after rounding to four significant digits, so that 9.99999e-5 counts
    // as 1e-4.
    let sci = format!("{v:.3e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..5).contains(&exponent) {
        let decimals = (3 - exponent).max(4) as usize;
        trim_zeros(&format!("{v:.decimals$}")).to_string()
    } else {
        format!("{}e{exponent}", trim_zeros(mantissa))
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

/// A point of a chart where hovering shows a text: its series (index), its place in
/// pixels and the text.
pub(super) struct Mark {
    series: usize,
    x: i32,
    y: i32,
    tip: String,
}

/// Appends to an SVG drawn by [`render`] a transparent square over each of `marks` whose
/// `<title>` a browser shows on hover (in the group of class `hover`, the squares of each
/// series in a group whose `data-series` is the series), so that the SVG, opened or shown
/// as a document, tells the instance, configuration and value of every point. (The squares
/// are filled, black by default, at no opacity, which the group sets once: a pointer over
/// them still finds them.)
pub(super) fn add_hover_marks(svg: &mut String, marks: &[Mark]) {
    if marks.is_empty() {
        return;
    }
    let Some(end) = svg.rfind("</svg>") else {
        return;
    };
    let mut g = String::from("<g class=\"hover\" fill-opacity=\"0\">\n");
    let mut series = None;
    for m in marks {
        if series != Some(m.series) {
            if series.is_some() {
                g.push_str("</g>\n");
            }
            g.push_str(&format!("<g data-series=\"{}\">\n", m.series));
            series = Some(m.series);
        }
        g.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\"><title>{}</title></rect>\n",
            m.x - 6,
            m.y - 6,
            crate::xml::escape(&m.tip)
        ));
    }
    g.push_str("</g>\n</g>\n");
    svg.insert_str(end, &g);
}

/// The script of an interactive SVG file ([`super::interactive`]), run where the file is
/// a document (opened, or in a page's `<object>`; an `<img>` runs none): clicking a legend
/// line hides or shows its series and the series' hover marks. Opened with `#toggle-test`
/// in its address, the file checks this itself (the browser test): `data-toggle` on its
/// root says `ok` when a click on the first legend line hid its series and a second click
/// showed it again.
const LEGEND_SCRIPT: &str = r#"<script><![CDATA[
(function () {
  var svg = document.documentElement;
  function toggle(entry) {
    var i = entry.getAttribute('data-series');
    var off = entry.getAttribute('data-off') !== '1';
    entry.setAttribute('data-off', off ? '1' : '0');
    entry.style.opacity = off ? 0.3 : 1;
    svg.querySelectorAll('g.series[data-series="' + i + '"], g.hover > g[data-series="' + i + '"]').forEach(function (el) {
      el.style.display = off ? 'none' : '';
    });
  }
  var entries = svg.querySelectorAll('g.legend-entry');
  entries.forEach(function (entry) {
    entry.style.cursor = 'pointer';
    entry.addEventListener('click', function () { toggle(entry); });
  });
  if (location.hash === '#toggle-test') {
    var result = 'no legend';
    if (entries.length > 0) {
      var entry = entries[0];
      var series = svg.querySelector('g.series[data-series="' + entry.getAttribute('data-series') + '"]');
      entry.dispatchEvent(new MouseEvent('click'));
      var hidden = series !== null && getComputedStyle(series).display === 'none';
      entry.dispatchEvent(new MouseEvent('click'));
      var shown = series !== null && getComputedStyle(series).display !== 'none';
      result = hidden && shown ? 'ok' : 'failed';
    }
    svg.setAttribute('data-toggle', result);
  }
})();
]]></script>
"#;

/// Appends [`LEGEND_SCRIPT`] to an SVG drawn by [`render`], as its last element.
pub(super) fn add_legend_script(svg: &mut String) {
    if let Some(end) = svg.rfind("</svg>") {
        svg.insert_str(end, LEGEND_SCRIPT);
    }
}

/// What the root element of an SVG file carries so that, shown in a page, it shrinks to
/// the width of its container and keeps its proportions (its `viewBox` gives them); a
/// page's own CSS still overrides it. Standalone, the SVG keeps its size.
pub(super) const SCALABLE: &str = r#"style="max-width: 100%; height: auto""#;

/// Adds [`SCALABLE`] to the root element of an SVG drawn by [`render`].
pub(super) fn make_scalable(svg: &mut String) {
    if let Some(at) = svg.find("<svg ") {
        svg.insert_str(at + "<svg ".len(), &format!("{SCALABLE} "));
    }
}

/// The text of a placeholder that [`render`] draws, in an SVG only, before each series
/// and each legend line, and after each: [`group_series`] turns them into groups.
const PLACEHOLDER: &str = "puzzlebench-group";

/// Draws a placeholder (see [`PLACEHOLDER`]): `Some((class, i))` opens a group of class
/// `class` (`series` or `legend-entry`) for series `i`; `None` closes the group opened
/// last.
fn placeholder<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    what: Option<(&str, usize)>,
) -> Result<(), String> {
    let text = match what {
        Some((class, i)) => format!("{PLACEHOLDER}:{class}:{i}"),
        None => format!("{PLACEHOLDER}:end"),
    };
    root.draw(&Text::new(text, (0, 0), (FONT, 1))).map_err(err)
}

/// Turns the placeholders that [`render`] drew into an SVG (with `groups`) into groups:
/// each series' lines and markers into `<g class="series" data-series="i">`, each legend
/// line into `<g class="legend-entry" data-series="i">`, so that a page can show and hide
/// a series by clicking its legend line. Nothing else changes.
pub(super) fn group_series(svg: &mut String) {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg.as_str();
    while let Some(at) = rest.find(PLACEHOLDER) {
        let (Some(start), Some(end)) = (
            rest[..at].rfind("<text"),
            rest[at..].find("</text>").map(|e| at + e + "</text>".len()),
        ) else {
            break;
        };
        out.push_str(&rest[..start]);
        let what = &rest[at + PLACEHOLDER.len()..];
        // plotters writes the text on a line of its own: trim it.
        let what = what[..what.find('<').unwrap_or(0)].trim();
        match what.trim_start_matches(':').split_once(':') {
            Some((class, i)) => {
                out.push_str(&format!("<g class=\"{class}\" data-series=\"{i}\">"));
            }
            None => out.push_str("</g>"),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    *svg = out;
}

/// Draws `chart` on `root` and presents it (writes the file); returns the hover marks of
/// the series that have them. With `groups` (SVG only), each series and each legend line
/// is drawn between placeholders that [`group_series`] turns into groups.
pub(super) fn render<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    chart: &Chart,
    groups: bool,
) -> Result<Vec<Mark>, String> {
    let marks = RefCell::new(Vec::new());
    root.fill(&WHITE).map_err(err)?;
    let (x, y) = (&chart.x, &chart.y);
    match (x.scale, y.scale) {
        (Scale::Linear, Scale::Linear) => {
            draw(&root, chart, x.lo..x.hi, y.lo..y.hi, &marks, groups)
        }
        (Scale::Linear, Scale::Log(by)) => draw(
            &root,
            chart,
            x.lo..x.hi,
            (y.lo..y.hi).log_scale().base(by),
            &marks,
            groups,
        ),
        (Scale::Log(bx), Scale::Linear) => draw(
            &root,
            chart,
            (x.lo..x.hi).log_scale().base(bx),
            y.lo..y.hi,
            &marks,
            groups,
        ),
        (Scale::Log(bx), Scale::Log(by)) => draw(
            &root,
            chart,
            (x.lo..x.hi).log_scale().base(bx),
            (y.lo..y.hi).log_scale().base(by),
            &marks,
            groups,
        ),
    }?;
    root.present().map_err(err)?;
    Ok(marks.into_inner())
}

/// One line of the legend.
struct Entry {
    /// The series it names (`None`: the failures' line).
    series: Option<usize>,
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
        .enumerate()
        .filter(|(_, s)| !s.name.is_empty())
        .map(|(i, s)| Entry {
            series: Some(i),
            label: s.name.clone(),
            color: s.color,
            // Its marker even when it drew none (a configuration that solved nothing), so
            // that each legend line shows the series' colour and marker.
            marker: s.marker,
            line: !s.line.is_empty(),
            dashed: s.dashed,
        })
        .collect();
    if chart.series.iter().any(|s| !s.failed.is_empty()) {
        entries.push(Entry {
            series: None,
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
    let open = color.stroke_width(2);
    let diamond = [(0, -5), (5, 0), (0, 5), (-5, 0)];
    match marker {
        Marker::Circle => area.draw(&Circle::new(at, 4, fill)),
        Marker::OpenCircle => area.draw(&Circle::new(at, 4, open)),
        Marker::Triangle => area.draw(&TriangleMarker::new(at, 6, fill)),
        Marker::OpenTriangle => area.draw(
            &(EmptyElement::at(at) + PathElement::new([(0, -5), (5, 4), (-5, 4), (0, -5)], open)),
        ),
        Marker::Square => {
            area.draw(&(EmptyElement::at(at) + Rectangle::new([(-4, -4), (4, 4)], fill)))
        }
        Marker::OpenSquare => {
            area.draw(&(EmptyElement::at(at) + Rectangle::new([(-4, -4), (4, 4)], open)))
        }
        Marker::Diamond => area.draw(&(EmptyElement::at(at) + Polygon::new(diamond, fill))),
        Marker::OpenDiamond => area.draw(
            &(EmptyElement::at(at)
                + PathElement::new([diamond.as_slice(), &diamond[..1]].concat(), open)),
        ),
        Marker::Cross => area.draw(&Cross::new(at, 5, color.stroke_width(2))),
        Marker::None => Ok(()),
    }
    .map_err(err)
}

fn draw<DB, X, Y>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
    xs: X,
    ys: Y,
    marks: &RefCell<Vec<Mark>>,
    groups: bool,
) -> Result<(), String>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let entries = legend_entries(c);
    // Each note has a line of its own at the bottom, under the axis label.
    let note_h = NOTE_LINE * c.notes.len() as i32;
    // The legend's lines are 22 pixels apart, closer (to 12) where that many do not fit
    // between the top of the plotting area and the notes, their text smaller with them.
    let room = HEIGHT as i32 - TOP - 16 - note_h;
    let row = (room / entries.len().max(1) as i32).clamp(12, 22);
    let font = TextStyle::from((FONT, (row * 16 / 22).max(9)).into_font())
        .pos(Pos::new(HPos::Left, VPos::Center));
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
        .margin_top(TOP as u32)
        .margin_right(legend_w + 24)
        .margin_bottom(14 + note_h)
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
            // Opaque greys, the colours of 15 % and 5 % black on white: the same look as
            // translucent black, without a transparency group per line in the PDF.
            .bold_line_style(RGBColor(217, 217, 217))
            .light_line_style(RGBColor(242, 242, 242));
        // Minor lines only at 2…9 × the powers of ten of a decimal log axis: plotters
        // spaces those of a base-2 axis unevenly, and on linear axes they crowd the plot.
        mesh.x_max_light_lines(light_lines(&c.x))
            .y_max_light_lines(light_lines(&c.y));
        mesh.draw().map_err(err)?;
    }

    let style = TextStyle::from((FONT, 14).into_font())
        .color(&GREY)
        .pos(Pos::new(HPos::Left, VPos::Bottom));
    let lines = c.notes.len() as i32;
    for (i, note) in c.notes.iter().enumerate() {
        let y = HEIGHT as i32 - 8 - NOTE_LINE * (lines - 1 - i as i32);
        root.draw(&Text::new(note.as_str(), (14, y), style.clone()))
            .map_err(err)?;
    }

    for (i, s) in c.series.iter().enumerate() {
        if groups {
            placeholder(root, Some(("series", i)))?;
        }
        for (p, tip) in s.points.iter().chain(&s.failed).zip(&s.tips) {
            let (x, y) = chart.backend_coord(p);
            marks.borrow_mut().push(Mark {
                series: i,
                x,
                y,
                tip: tip.clone(),
            });
        }
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
        if groups {
            placeholder(root, None)?;
        }
    }

    if entries.is_empty() {
        return Ok(());
    }
    let area = chart.plotting_area();
    let (px, py) = area.get_base_pixel();
    let x0 = px + area.dim_in_pixel().0 as i32 + 14;
    let corners = [
        (x0, py),
        (x0 + legend_w, py + 8 + row * entries.len() as i32),
    ];
    root.draw(&Rectangle::new(corners, WHITE.filled()))
        .map_err(err)?;
    root.draw(&Rectangle::new(corners, BLACK.stroke_width(1)))
        .map_err(err)?;
    for (i, e) in entries.iter().enumerate() {
        let group = e.series.filter(|_| groups);
        if let Some(series) = group {
            placeholder(root, Some(("legend-entry", series)))?;
        }
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
        if group.is_some() {
            placeholder(root, None)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(0.0001, false), "0.0001");
        assert_eq!(tick_label(0.001, false), "0.001");
        assert_eq!(tick_label(0.00025, false), "0.00025");
        assert_eq!(tick_label(0.00012, false), "0.00012");
        assert_eq!(tick_label(9.999999e-5, false), "0.0001");
        assert_eq!(tick_label(1e-5, false), "1e-5");
        assert_eq!(tick_label(2.5e-7, false), "2.5e-7");
        assert_eq!(tick_label(0.30000000000000004, false), "0.3");
        assert_eq!(tick_label(625.0, false), "625");
        assert_eq!(tick_label(2.5e6, false), "2.5e6");
        assert_eq!(tick_label(3.0, true), "3");
        assert_eq!(tick_label(2.5, true), "");
    }

    #[test]
    fn small_tick_labels_are_distinct_and_not_zero() {
        let ticks = [1e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3];
        let labels: Vec<String> = ticks.iter().map(|&v| tick_label(v, false)).collect();
        let distinct: BTreeSet<&String> = labels.iter().collect();
        assert_eq!(distinct.len(), labels.len(), "{labels:?}");
        for (v, l) in ticks.iter().zip(&labels) {
            let back: f64 = l.parse().unwrap_or_else(|_| panic!("{l} is no number"));
            assert!((back / v - 1.0).abs() < 1e-9, "{v}: {l}");
        }
    }
}
