//! The HTML report: `index.html`, the overview that answers first (per puzzle the best
//! configuration, its margin over the runner-up with its interval, and the verdict), and
//! one page per puzzle (`<puzzle>.html`): its answer, a formulation × engine heatmap over
//! the comparison instances, the virtual best (the fastest configuration per instance) and
//! each configuration's share of it, the largest instance each configuration solved, the
//! puzzle's own tables (sortable) and its plots. The pages are self-contained and work
//! offline from the file system: styles and the one small script (sorting tables, and
//! marking the page ready, the error that stopped it, and how many images failed to load)
//! are inline, figures are local files beside them.
//!
//! Written with the `maud` templating crate: HTML as Rust expressions, every text escaped
//! unless marked otherwise, checked when the project compiles.

use super::answer::{verdict_word, Answer, Standing};
use crate::record::Record;
use crate::table::{secs, Table};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The style of every page.
const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #222; }
h1, h2, h3 { font-weight: 600; }
nav a { margin-right: 0.8rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; }
th { background: #f3f3f3; }
table.sortable th { cursor: pointer; }
table.sortable th::after { content: " ⇅"; color: #999; font-size: 0.8em; }
.note { color: #555; font-size: 0.85rem; }
.verdict-ahead { color: #0a6d2c; font-weight: 600; }
.verdict-noise { color: #8a6d00; }
.verdict-none { color: #777; }
.bar { display: inline-block; height: 0.7rem; background: #4a7fc1; vertical-align: middle; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
"#;

/// The script of every page: sortable tables; `data-ready` on the root element once it ran,
/// `data-error` with the message when a script error stopped it (what the browser test
/// reads).
const SCRIPT: &str = r#"
window.addEventListener('error', function (e) {
  document.documentElement.setAttribute('data-error', String(e.message));
});
function cellValue(td) {
  var t = td.getAttribute('data-sort') || td.textContent.trim();
  var m = t.match(/^(-?[0-9.]+(?:e-?[0-9]+)?)\s*(µs)?/);
  if (m) { return parseFloat(m[1]) * (m[2] ? 1e-6 : 1); }
  return t === '–' ? Infinity : t.toLowerCase();
}
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute('data-order') !== 'up';
      th.setAttribute('data-order', up ? 'up' : 'down');
      rows.sort(function (a, b) {
        var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
        var c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
        return up ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
// Inline figures: clicking a legend line hides or shows its series (and the series'
// hover marks).
function toggleSeries(svg, entry) {
  var i = entry.getAttribute('data-series');
  var off = entry.getAttribute('data-off') !== '1';
  entry.setAttribute('data-off', off ? '1' : '0');
  entry.style.opacity = off ? 0.3 : 1;
  svg.querySelectorAll('g.series[data-series="' + i + '"], g.hover rect[data-series="' + i + '"]').forEach(function (el) {
    el.style.display = off ? 'none' : '';
  });
}
document.querySelectorAll('figure svg').forEach(function (svg) {
  svg.querySelectorAll('g.legend-entry').forEach(function (entry) {
    entry.style.cursor = 'pointer';
    entry.addEventListener('click', function () { toggleSeries(svg, entry); });
  });
});
// With #toggle-test in the address, the page checks its own toggles (the browser test):
// data-toggle says ok when a click on the first legend line hid its series and a second
// click showed it again.
if (location.hash === '#toggle-test') {
  var svg = document.querySelector('figure svg');
  var entry = svg && svg.querySelector('g.legend-entry');
  var result = 'no legend';
  if (entry) {
    var series = svg.querySelector('g.series[data-series="' + entry.getAttribute('data-series') + '"]');
    entry.dispatchEvent(new MouseEvent('click'));
    var hidden = series && getComputedStyle(series).display === 'none';
    entry.dispatchEvent(new MouseEvent('click'));
    var shown = series && getComputedStyle(series).display !== 'none';
    result = hidden && shown ? 'ok' : 'failed';
  }
  document.documentElement.setAttribute('data-toggle', result);
}
document.documentElement.setAttribute('data-ready', '1');
window.addEventListener('load', function () {
  var broken = 0;
  document.querySelectorAll('img').forEach(function (img) {
    if (!img.complete || img.naturalWidth === 0) { broken += 1; }
  });
  document.documentElement.setAttribute('data-broken-images', String(broken));
  document.documentElement.setAttribute('data-images', String(document.images.length));
});
"#;

/// One page: its title, the navigation to every page, and the body.
fn page(title: &str, puzzles: &[String], body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                nav {
                    a href="index.html" { "overview" }
                    @for p in puzzles {
                        a href={ (p) ".html" } { (p) }
                    }
                }
                (body)
                script { (PreEscaped(SCRIPT)) }
            }
        }
    }
    .into_string()
}

/// A table as HTML (sortable when asked), its notes under it.
fn table_markup(t: &Table, sortable: bool) -> Markup {
    html! {
        h3 id=(t.stem) { (t.title) }
        table class=[sortable.then_some("sortable")] {
            thead { tr { @for c in &t.columns { th { (c) } } } }
            tbody {
                @for r in &t.rows {
                    tr { @for c in r { td { (c) } } }
                }
            }
        }
        @for n in &t.notes {
            p class="note" { (n) }
        }
    }
}

/// The class of a verdict's text.
fn verdict_class(a: &Answer) -> &'static str {
    match verdict_word(a) {
        "ahead" | "ahead (more solved)" => "verdict-ahead",
        "within noise" => "verdict-noise",
        _ => "verdict-none",
    }
}

/// Seconds for a cell.
fn s(t: f64) -> String {
    secs(Some(t))
}

/// The overview page.
fn overview(
    answers: &[Answer],
    puzzles: &[String],
    machine_lines: &[String],
    preamble: &str,
) -> String {
    let by_puzzle: BTreeMap<&str, &Answer> =
        answers.iter().map(|a| (a.puzzle.as_str(), a)).collect();
    let body = html! {
        h1 { "puzzlebench report" }
        p { "Which formulation on which engine wins each puzzle, by how much, and how sure. One line per puzzle; its page has the rest." }
        table class="sortable" id="answers" {
            thead {
                tr {
                    th { "puzzle" } th { "best configuration" } th { "solved" } th { "SGM (s)" } th { "PAR-2 (s)" }
                    th { "runner-up" } th { "ratio" } th { "95 % CI" } th { "verdict" }
                    th { "instances × repeats" }
                }
            }
            tbody {
                @for p in puzzles {
                    @if let Some(a) = by_puzzle.get(p.as_str()) {
                        tr {
                            td { a href={ (p) ".html" } { (p) } }
                            td { (a.best().config.to_string()) }
                            td { (a.best().solved) "/" (a.instances.len()) }
                            td { (s(a.best().sgm)) }
                            td { (s(a.best().par2)) }
                            td { (a.runner_up().map_or("–".to_string(), |r| r.config.to_string())) }
                            td { (a.ratio.map_or("–".into(), |x| format!("{x:.2}"))) }
                            td { (a.interval.map_or("–".into(), |(lo, hi)| format!("{lo:.2}–{hi:.2}"))) }
                            td class=(verdict_class(a)) { (verdict_word(a)) }
                            td { (a.instances.len()) " × " (a.repeats) }
                        }
                    } @else {
                        tr {
                            td { a href={ (p) ".html" } { (p) } }
                            td colspan="8" { "no comparison: no configuration ran every instance another did" }
                        }
                    }
                }
            }
        }
        p class="note" {
            "Per puzzle, the comparison instances are those of its suite's engine comparison, chosen by difficulty (each puzzle's page says how); for rows of other instances, the instance set (with time limits) that the most configurations ran. The configurations that ran every comparison instance compete. Ranked by instances solved, then by the shifted geometric mean (shift 0.01 s) of the median time over repeats, failures at their time limit. PAR-2: the best's mean time over its runs, a failure counting twice its limit (the SAT competitions' score). ratio: runner-up's SGM over the best's; 95 % CI: percentile bootstrap over instances and repeats; within noise: the interval holds 1; no verdict: both medians under 1 ms."
        }
        h2 { "How the rows were made" }
        div class="note" { (PreEscaped(markdown_lines(preamble))) }
        @if !machine_lines.is_empty() {
            h2 { "Machines" }
            ul { @for l in machine_lines { li { (l) } } }
        }
    };
    page("puzzlebench report", puzzles, body)
}

/// A little Markdown as HTML: each non-empty line a paragraph, its `[text](target)` links
/// as links and `code` spans as code; everything else escaped.
fn markdown_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| html! { p { (inline_markdown(l)) } }.into_string())
        .collect()
}

/// One line of Markdown's links and code spans as HTML.
fn inline_markdown(line: &str) -> Markup {
    let mut parts: Vec<Markup> = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let link = rest.find('[').and_then(|i| {
            let close = rest[i..].find("](")? + i;
            let end = rest[close..].find(')')? + close;
            Some((i, close, end))
        });
        let code = rest
            .find('`')
            .and_then(|i| Some((i, rest[i + 1..].find('`')? + i + 1)));
        match (link, code) {
            (Some((i, close, end)), c) if c.is_none_or(|(j, _)| i < j) => {
                let (text, target) = (&rest[i + 1..close], &rest[close + 2..end]);
                parts.push(html! { (&rest[..i]) a href=(target) { (text) } });
                rest = &rest[end + 1..];
            }
            (_, Some((i, end))) => {
                parts.push(html! { (&rest[..i]) code { (&rest[i + 1..end]) } });
                rest = &rest[end + 1..];
            }
            _ => {
                parts.push(html! { (rest) });
                rest = "";
            }
        }
    }
    html! { @for p in parts { (p) } }
}

/// The heatmap of a puzzle's comparison: a row per formulation, a column per engine label,
/// each cell solved/instances and SGM, coloured by its SGM over the best's (log scale).
fn heatmap(a: &Answer) -> Markup {
    let formulations: BTreeSet<&str> = a
        .standings
        .iter()
        .map(|s| s.config.formulation.as_str())
        .collect();
    let engines: BTreeSet<&str> = a
        .standings
        .iter()
        .map(|s| s.config.engine.as_str())
        .collect();
    let cell: BTreeMap<(&str, &str), &Standing> = a
        .standings
        .iter()
        .map(|s| ((s.config.formulation.as_str(), s.config.engine.as_str()), s))
        .collect();
    let best = a.best().sgm.max(1e-9);
    let n = a.instances.len();
    html! {
        table class="heatmap" {
            thead { tr { th { "formulation \\ engine" } @for e in &engines { th { (e) } } } }
            tbody {
                @for f in &formulations {
                    tr {
                        td { (f) }
                        @for e in &engines {
                            @match cell.get(&(*f, *e)) {
                                Some(st) => {
                                    @let ratio = (st.sgm / best).max(1.0);
                                    @let shade = (ratio.log10() / 3.0).min(1.0);
                                    @let colour = format!("background: hsl({:.0}, 70%, {:.0}%)", 120.0 * (1.0 - shade), 85.0 - 20.0 * shade);
                                    td style=(colour) title={ (st.config.to_string()) ": " (format!("{ratio:.2}")) "× the best's SGM; PAR-2 " (super::answer::seconds(st.par2)) } {
                                        (st.solved) "/" (n) " · " (s(st.sgm))
                                    }
                                }
                                None => { td { "–" } }
                            }
                        }
                    }
                }
            }
        }
        p class="note" { "Each cell: comparison instances solved / instances · SGM (s). Green is the best; the colour darkens to red at 1000× its SGM." }
    }
}

/// The virtual best of a comparison: per instance the fastest configuration that solved it
/// (median over repeats); each configuration's share of the instances it is fastest on.
fn virtual_best(a: &Answer) -> Markup {
    let n = a.instances.len();
    let mut wins: BTreeMap<String, usize> = BTreeMap::new();
    let mut vbs = Vec::new();
    for i in 0..n {
        let fastest = a
            .standings
            .iter()
            .map(|st| {
                (
                    st,
                    crate::stats::median(&st.times[i]).unwrap_or(f64::INFINITY),
                )
            })
            .min_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((st, t)) = fastest {
            *wins.entry(st.config.to_string()).or_default() += 1;
            vbs.push(t);
        }
    }
    let vb_sgm = crate::stats::shifted_geometric_mean(&vbs, a.shift).unwrap_or(0.0);
    let mut shares: Vec<(String, usize)> = wins.into_iter().collect();
    shares.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    html! {
        p {
            "The virtual best (the fastest configuration on each instance) has an SGM of " (super::answer::seconds(vb_sgm)) "; the best single configuration, " (a.best().config.to_string()) ", " (super::answer::seconds(a.best().sgm)) " (" (format!("{:.2}", a.best().sgm / vb_sgm.max(1e-12))) "× the virtual best)."
        }
        table class="sortable" {
            thead { tr { th { "configuration" } th { "fastest on" } th { "share" } } }
            tbody {
                @for (c, w) in &shares {
                    @let share = *w as f64 / n.max(1) as f64;
                    tr {
                        td { (c) }
                        td { (w) "/" (n) }
                        td data-sort=(format!("{share:.4}")) {
                            span class="bar" style=(format!("width: {:.1}rem", 8.0 * share)) {}
                            " " (format!("{:.0} %", 100.0 * share))
                        }
                    }
                }
            }
        }
    }
}

/// An instance size and its label (`9x9`).
type Sized = (f64, String);

/// Per configuration of a puzzle (all its rows, counting left out): the largest instance
/// size it solved, and the smallest it failed on.
fn reach(rows: &[&Record]) -> Markup {
    let mut by: BTreeMap<(String, String), (Option<Sized>, Option<Sized>)> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.count <= 1) {
        let e = by
            .entry((r.formulation.clone(), r.backend_label()))
            .or_default();
        let size = r.size.unwrap_or(0.0);
        if crate::stats::succeeded(r) {
            if e.0.as_ref().is_none_or(|(s, _)| size > *s) {
                e.0 = Some((size, r.size_label.clone()));
            }
        } else if e.1.as_ref().is_none_or(|(s, _)| size < *s) {
            e.1 = Some((size, r.size_label.clone()));
        }
    }
    html! {
        table class="sortable" {
            thead { tr { th { "formulation" } th { "engine" } th { "largest solved" } th { "smallest failed" } } }
            tbody {
                @for ((f, e), (ok, bad)) in &by {
                    tr {
                        td { (f) }
                        td { (e) }
                        td data-sort=(ok.as_ref().map_or(-1.0, |x| x.0)) { (ok.as_ref().map_or("–".to_string(), |x| x.1.clone())) }
                        td data-sort=(bad.as_ref().map_or(f64::INFINITY, |x| x.0)) { (bad.as_ref().map_or("–".to_string(), |x| x.1.clone())) }
                    }
                }
            }
        }
    }
}

/// The page of one puzzle.
fn puzzle_page(
    puzzle: &str,
    puzzles: &[String],
    answer: Option<&Answer>,
    rows: &[&Record],
    tables: &[&Table],
    plots: &[(String, String, Option<String>)],
) -> String {
    let body = html! {
        h1 { (puzzle) }
        @if let Some(a) = answer {
            p class=(verdict_class(a)) { (a.sentence()) }
            p class="note" id="chosen" { "Comparison instances: " (a.chosen) }
            h2 { "Formulation × engine" }
            details class="note" {
                summary { "On " (a.instances.len()) " comparison instances, " (a.repeats) " repeat(s) at most (the list)" }
                p { (a.instances.join(", ")) }
            }
            (heatmap(a))
            h2 { "Virtual best" }
            (virtual_best(a))
        } @else {
            p { "No comparison: no configuration ran every instance that another ran." }
        }
        h2 { "How far each configuration reaches" }
        p class="note" { "Over every run of the puzzle: the largest instance each configuration solved and the smallest it did not (time limit, error or a refused answer)." }
        (reach(rows))
        @if !plots.is_empty() {
            h2 { "Figures" }
            @for (file, title, inline) in plots {
                figure {
                    @if let Some(svg) = inline {
                        (PreEscaped(svg))
                        figcaption class="note" { (title) " (click a legend line to hide or show its series; hover a point for what it is; " a href=(file) { "SVG file" } ")" }
                    } @else {
                        img src=(file) alt=(title);
                        figcaption class="note" { (title) }
                    }
                }
            }
        }
        @if !tables.is_empty() {
            h2 { "Tables" }
            @for t in tables { (table_markup(t, true)) }
        }
    };
    page(&format!("puzzlebench: {puzzle}"), puzzles, body)
}

/// Writes `index.html` and a page per puzzle into `dir`; `plots` are the plot files
/// written (their SVGs are shown on the pages), `machine_lines` the machines of the rows,
/// `_set_aside` what the report left out of its statistics (refused runs, earlier attempts
/// of a run id; not shown yet). Returns the pages written.
#[allow(clippy::too_many_arguments)]
pub fn write_html(
    dir: &Path,
    rows: &[Record],
    answers: &[Answer],
    tables: &[Table],
    plots: &[super::plots::PlotFile],
    machine_lines: &[String],
    preamble: &str,
    // HOOK (issue 54, points 12 and 13): the refused runs, to show each such pair as
    // "not run" with its reason, and the count of earlier attempts set aside, for the
    // overview. Not shown yet.
    _set_aside: &super::SetAside,
) -> Result<Vec<PathBuf>, String> {
    let puzzles: Vec<String> = rows
        .iter()
        .map(|r| r.puzzle.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut written = Vec::new();
    let mut write = |name: String, text: String| -> Result<(), String> {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        written.push(p);
        Ok(())
    };
    write(
        "index.html".into(),
        overview(answers, &puzzles, machine_lines, preamble),
    )?;
    for p in &puzzles {
        let prefix = format!("{p}_");
        let own_rows: Vec<&Record> = rows.iter().filter(|r| &r.puzzle == p).collect();
        let own_tables: Vec<&Table> = tables
            .iter()
            .filter(|t| t.stem.starts_with(&prefix))
            .collect();
        // The time against size and the cactus plot are inlined, so that clicking a
        // legend line hides or shows its series and hovering a point of the time against
        // size shows what it is; the other figures are images.
        let own_plots: Vec<(String, String, Option<String>)> = plots
            .iter()
            .filter(|f| f.stem.starts_with(&prefix))
            .filter_map(|f| {
                let svg = f.file(super::plots::FigureFormat::Svg)?;
                let rel = svg.strip_prefix(dir).ok()?;
                let inline = if f.stem.ends_with("_time_vs_size") || f.stem.ends_with("_cactus") {
                    let text =
                        std::fs::read_to_string(svg).map_err(|e| format!("{}: {e}", svg.display()));
                    Some(text.map(|t| match t.find("<svg") {
                        Some(i) => t[i..].to_string(),
                        None => t,
                    }))
                } else {
                    None
                };
                Some((rel.display().to_string(), f.title.clone(), inline))
            })
            .map(|(file, title, inline)| Ok((file, title, inline.transpose()?)))
            .collect::<Result<_, String>>()?;
        let answer = answers.iter().find(|a| &a.puzzle == p);
        write(
            format!("{p}.html"),
            puzzle_page(p, &puzzles, answer, &own_rows, &own_tables, &own_plots),
        )?;
    }
    Ok(written)
}
