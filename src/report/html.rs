//! The HTML report: `index.html`, the overview that answers first (per puzzle and question
//! the best configuration, its margin over the runner-up with its interval, and the
//! verdict, then a glossary of every term and engine key it uses), and one page per puzzle
//! (`<puzzle>.html`): a contents list, per question its answer, a formulation × engine
//! heatmap over the comparison instances with its colour bar, the virtual best (the
//! fastest configuration per instance) and each configuration's share of it; the runs that
//! were refused (not run, with the reason); how far each configuration reaches on the
//! instances it ran; the puzzle's figures; its tables (sortable; the long ones folded);
//! and every run in a table that filters by configuration and status (its rows written by
//! the script from the runs the page holds once, compactly). The pages work offline from
//! the file system: the styles and the one small script (writing the run table, sorting
//! and filtering tables, and marking the page ready, the error that stopped it, and how
//! many images failed to load) are the files `report.css` and `report.js` beside them, and
//! the figures the files in `plots/`, which the pages refer to and never copy: images, and
//! the interactive ones
//! ([`super::plots::interactive`]) documents of their own (`<object>`), whose own script
//! hides and shows series. They read without horizontal scrolling from a window 800 px
//! wide.
//!
//! Written with the `maud` templating crate: HTML as Rust expressions, every text escaped
//! unless marked otherwise, checked when the project compiles.

use super::answer::{seconds, verdict_word, Answer, Standing, TOO_FAST};
use crate::engines::registry;
use crate::record::Record;
use crate::stats::{shifted_geometric_mean, succeeded, RESAMPLES};
use crate::table::{secs, Table};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The style of every page (and of `diff.html`, [`super::diff`]).
pub(crate) const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #222; }
h1, h2, h3 { font-weight: 600; }
nav a { margin-right: 0.8rem; display: inline-block; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.9rem; max-width: 100%; }
table.wide { font-size: 0.78rem; }
table.wide th, table.wide td { padding: 0.2rem 0.25rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.45rem; text-align: left; overflow-wrap: anywhere; vertical-align: top; }
th { background: #f3f3f3; }
td.num, td.n { white-space: nowrap; text-align: right; }
th.num { text-align: right; }
table.sortable th { cursor: pointer; }
table.sortable th::after { content: " ⇅"; color: #999; font-size: 0.8em; }
.note { color: #555; font-size: 0.85rem; }
.verdict-ahead { color: #0a6d2c; font-weight: 600; }
.verdict-noise { color: #8a6d00; }
.verdict-equivalent { color: #1f4e8c; font-weight: 600; }
.verdict-none { color: #777; }
.bar { display: inline-block; height: 0.7rem; background: #4a7fc1; vertical-align: middle; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 33rem), 1fr)); gap: 1rem; }
figure { margin: 0; min-width: 0; }
figure img { box-sizing: border-box; max-width: 100%; height: auto; border: 1px solid #ddd; }
figure object { display: block; box-sizing: border-box; width: 100%; max-width: 800px; aspect-ratio: 800 / 520; border: 1px solid #ddd; }
details { margin: 0.5rem 0 1rem; }
details > summary { cursor: pointer; font-weight: 600; }
.heatmap td.cell { text-align: center; white-space: nowrap; }
.heatmap.wide { font-size: 0.72rem; }
.heatmap.wide th, .heatmap.wide td { padding: 0.2rem 0.2rem; }
.heatmap td.best { outline: 3px solid #000; outline-offset: -3px; font-weight: 700; }
.heatmap td.none { background: #bdbdbd; color: #222; }
.heatmap td.notrun { color: #888; text-align: center; }
.colourbar { display: flex; align-items: center; gap: 0.6rem; flex-wrap: wrap; font-size: 0.85rem; margin: 0.3rem 0 1rem; }
.colourbar .scale { position: relative; width: 16rem; height: 1rem; border: 1px solid #888; }
.colourbar .ticks { position: relative; width: 16rem; height: 1rem; }
.colourbar .ticks span { position: absolute; transform: translateX(-50%); font-size: 0.75rem; }
.colourbar .swatch { display: inline-block; width: 1.2rem; height: 1rem; border: 1px solid #888; vertical-align: middle; }
tr.failed td { background: #fff1e6; }
tr.wrong td { background: #fbd5d5; }
tr.refused td { color: #777; }
dl.glossary dt { font-weight: 600; margin-top: 0.4rem; }
dl.glossary dd { margin-left: 1.5rem; }
.filters { display: flex; gap: 1rem; flex-wrap: wrap; margin: 0.5rem 0; font-size: 0.9rem; }
.filters select { max-width: 100%; }
#answers th, #answers td { overflow-wrap: normal; word-break: normal; hyphens: none; }
#answers td.num { white-space: normal; }
#answers .short { display: block; font-size: 0.8rem; color: #555; font-weight: normal; }
@media (max-width: 1100px) {
  #answers thead { display: none; }
  #answers, #answers tbody, #answers tr, #answers td { display: block; width: auto; }
  #answers tr { border: 1px solid #ccc; margin: 0 0 0.8rem; }
  #answers td { border: none; border-bottom: 1px solid #eee; text-align: left; }
  #answers td::before { content: attr(data-label) ": "; font-weight: 600; color: #555; }
}
"#;

/// The script of every page: sortable tables, the run table's filters (the interactive
/// figures carry their own script, [`crate::report::plots::interactive`]); `data-ready` on the root element once it ran, `data-error` with the message
/// when a script error stopped it (what the browser test reads).
const SCRIPT: &str = r#"
window.addEventListener('error', function (e) {
  document.documentElement.setAttribute('data-error', String(e.message));
});
// The long tables: their rows, written from the data the page holds (each column's
// distinct cells once, each row their indices); a cell that reads as a number is
// right-aligned, and its parts written "a \u00b7 b" go on lines of their own.
document.querySelectorAll('script.table-data').forEach(function (s) {
  var data = JSON.parse(s.textContent);
  var rows = document.createDocumentFragment();
  data.rows.forEach(function (r) {
    var tr = document.createElement('tr');
    r.forEach(function (k, j) {
      var text = data.values[j][k];
      var td = document.createElement('td');
      if (/^[0-9.\-\u2013+e\u00d7%\/ ]+$/.test(text.trim())) { td.className = 'n'; }
      text.split(' \u00b7 ').forEach(function (part, p) {
        if (p > 0) { td.appendChild(document.createElement('br')); }
        td.appendChild(document.createTextNode(part));
      });
      tr.appendChild(td);
    });
    rows.appendChild(tr);
  });
  s.parentNode.querySelector('tbody').appendChild(rows);
});
// The run table: its rows, written from the runs the page holds (one array each: indices
// into the lists of instances, configurations, statuses and reasons, and the numbers).
document.querySelectorAll('div.runs').forEach(function (box) {
  var data = JSON.parse(box.querySelector('script.runs-data').textContent);
  var classes = ['', 'failed', 'wrong', 'refused'];
  function fixed(x, d) { return x == null ? '\u2013' : x.toFixed(d); }
  var rows = document.createDocumentFragment();
  data.rows.forEach(function (r) {
    var tr = document.createElement('tr');
    var config = data.configs[r[1]], status = data.statuses[r[3]];
    if (r[10] > 0) { tr.className = classes[r[10]]; }
    tr.setAttribute('data-config', config);
    tr.setAttribute('data-status', status);
    [data.instances[r[0]], config, String(r[2]), status + (r[10] === 2 ? ' (wrong answer)' : ''),
     fixed(r[4], 4), fixed(r[5], 3), fixed(r[6], 3), fixed(r[7], 1),
     r[8] == null ? '\u2013' : String(r[8]),
     r[9] == null ? '\u2013' : (r[9] ? 'yes' : 'no')].forEach(function (text, k) {
      var td = document.createElement('td');
      td.textContent = text;
      if (k === 2 || (k >= 4 && k <= 8)) { td.className = 'num'; }
      if (k === 3 && r[11] != null) { td.title = data.errors[r[11]]; }
      tr.appendChild(td);
    });
    rows.appendChild(tr);
  });
  box.querySelector('tbody').appendChild(rows);
});
function cellValue(td) {
  var t = td.getAttribute('data-sort') || td.textContent.trim();
  var m = t.match(/^(-?[0-9.]+(?:e-?[0-9]+)?)/);
  if (m) { return parseFloat(m[1]); }
  return (t === '–' || t === '✗' || t === 'n/a' || t === '') ? Infinity : t.toLowerCase();
}
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th, col) {
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
// The run table: show the rows whose configuration and status match the filters.
document.querySelectorAll('div.runs').forEach(function (box) {
  var selects = box.querySelectorAll('select');
  function apply() {
    var shown = 0;
    box.querySelectorAll('tbody tr').forEach(function (tr) {
      var ok = true;
      selects.forEach(function (s) {
        if (s.value !== '' && tr.getAttribute('data-' + s.name) !== s.value) { ok = false; }
      });
      tr.style.display = ok ? '' : 'none';
      if (ok) { shown += 1; }
    });
    box.querySelector('.shown').textContent = String(shown);
  }
  selects.forEach(function (s) { s.addEventListener('change', apply); });
  apply();
});
// With #filter-test, the page checks the run table's filters: choosing the first
// configuration shows only its rows.
if (location.hash === '#filter-test') {
  var box = document.querySelector('div.runs');
  var res = 'no run table';
  if (box) {
    var sel = box.querySelector('select[name="config"]');
    var pick = sel.options[1].value;
    sel.value = pick;
    sel.dispatchEvent(new Event('change'));
    var rows = Array.prototype.slice.call(box.querySelectorAll('tbody tr'));
    var visible = rows.filter(function (r) { return r.style.display !== 'none'; });
    var right = visible.every(function (r) { return r.getAttribute('data-config') === pick; });
    var all = rows.filter(function (r) { return r.getAttribute('data-config') === pick; }).length;
    res = (visible.length > 0 && right && visible.length === all && visible.length < rows.length) ? 'ok' : 'failed';
  }
  document.documentElement.setAttribute('data-filter', res);
}
document.documentElement.setAttribute('data-ready', '1');
window.addEventListener('load', function () {
  var broken = 0;
  document.querySelectorAll('img').forEach(function (img) {
    if (!img.complete || img.naturalWidth === 0) { broken += 1; }
  });
  document.documentElement.setAttribute('data-broken-images', String(broken));
  document.documentElement.setAttribute('data-images', String(document.images.length));
  // With #layout-test, the page measures itself (the browser test): its height with every
  // folded section closed, then, with them all open, what reaches past the page's column
  // or makes the window scroll sideways.
  if (location.hash === '#layout-test') {
    var root = document.documentElement;
    root.setAttribute('data-height', String(root.scrollHeight));
    var none = document.querySelectorAll('td.none');
    var grey = Array.prototype.filter.call(none, function (td) {
      return getComputedStyle(td).backgroundColor === 'rgb(189, 189, 189)';
    });
    root.setAttribute('data-none-cells', String(none.length));
    root.setAttribute('data-grey-cells', String(grey.length));
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
    var column = document.body.getBoundingClientRect();
    var right = column.right - parseFloat(getComputedStyle(document.body).paddingRight) + 1;
    var wide = [];
    document.querySelectorAll('table, figure, svg, img, p, pre, div, dl, ul').forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > right) {
        wide.push((el.id || el.getAttribute('class') || el.tagName) + ' ' + Math.round(r.width) + 'px');
      }
    });
    root.setAttribute('data-overflow', String(wide.length));
    root.setAttribute('data-overflow-what', wide.slice(0, 5).join('; '));
    root.setAttribute('data-scroll-sideways', root.scrollWidth > root.clientWidth ? '1' : '0');
    // Words of the overview's answer table that wrap inside themselves (a word whose
    // letters lie on two lines; a break at a hyphen or dash is between two words).
    var split = [];
    var table = document.getElementById('answers');
    if (table) {
      var walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
      var node;
      while ((node = walker.nextNode())) {
        var re = /[^\s\-\u2013]+/g, m;
        while ((m = re.exec(node.data)) !== null) {
          var range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          var tops = {};
          Array.prototype.forEach.call(range.getClientRects(), function (r) {
            if (r.width > 0) { tops[Math.round(r.top)] = true; }
          });
          if (Object.keys(tops).length > 1) { split.push(m[0]); }
        }
      }
    }
    root.setAttribute('data-split-words', String(split.length));
    root.setAttribute('data-split-words-what', split.slice(0, 8).join(' '));
  }
});
"#;

/// The file of [`STYLE`] beside the pages, which each page links to (once for every page,
/// not a copy in each).
pub const STYLE_FILE: &str = "report.css";
/// The file of [`SCRIPT`] beside the pages, which each page runs at its end.
pub const SCRIPT_FILE: &str = "report.js";

/// One page: its title, the navigation to every page, and the body.
fn page(title: &str, puzzles: &[String], body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href=(STYLE_FILE);
            }
            body {
                nav {
                    a href="index.html" { "overview" }
                    @for p in puzzles {
                        a href={ (p) ".html" } { (p) }
                    }
                }
                (body)
                script src=(SCRIPT_FILE) {}
            }
        }
    }
    .into_string()
}

/// A table holds more rows than a reader reads through: it is folded, opened on demand.
const FOLD_ROWS: usize = 12;

/// A table's cells as HTML: each part of a cell written `a · b · c` on a line of its own,
/// so that a table of many such cells stays narrow.
fn cell_markup(c: &str) -> Markup {
    let parts: Vec<&str> = c.split(" · ").collect();
    html! {
        @for (i, p) in parts.iter().enumerate() {
            @if i > 0 { br; }
            (p)
        }
    }
}

/// Whether a cell reads as a number (right-aligned, never broken).
fn numeric(c: &str) -> bool {
    let c = c.trim();
    !c.is_empty()
        && c.chars()
            .all(|ch| ch.is_ascii_digit() || ".-–+e×%/ ".contains(ch))
}

/// A table's rows as HTML, compactly: the end tags of cells and rows left out (HTML ends
/// them where the next begins) and a number's cell marked `class=n` (right-aligned, never
/// broken); the long tables were most of a page.
fn rows_markup(rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            out.push_str(if numeric(c) { "<td class=n>" } else { "<td>" });
            out.push_str(&cell_markup(c).into_string());
        }
        out.push('\n');
    }
    out
}

/// A long table's rows as the page holds them: JSON, each column's distinct cells once
/// (`values`) and each row the indices of its cells there (`rows`), which the page's script
/// writes into the table (a long table's cells repeat: its instances, configurations,
/// statuses).
fn table_data(t: &Table) -> String {
    let mut values: Vec<Vec<String>> = vec![Vec::new(); t.columns.len()];
    let rows: Vec<Vec<usize>> = t
        .rows
        .iter()
        .map(|r| {
            r.iter()
                .zip(values.iter_mut())
                .map(|(c, v)| index_of(v, c))
                .collect()
        })
        .collect();
    serde_json::json!({ "values": values, "rows": rows })
        .to_string()
        .replace("</", "<\\/")
}

/// A table as HTML (sortable when asked), its notes under it; a long table (more than
/// [`FOLD_ROWS`] rows, the full tables a reader looks up rather than reads) folded into a
/// section that opens on a click, its rows held as data ([`table_data`]) that the page's
/// script writes into it.
fn table_markup(t: &Table, sortable: bool) -> Markup {
    let class = match (sortable, t.columns.len() > 7) {
        (true, true) => Some("sortable wide"),
        (true, false) => Some("sortable"),
        (false, true) => Some("wide"),
        (false, false) => None,
    };
    let folded = t.rows.len() > FOLD_ROWS;
    let body = html! {
        table class=[class] {
            thead { tr { @for c in &t.columns { th { (c) } } } }
            @if folded {
                tbody {}
            } @else {
                tbody { (PreEscaped(rows_markup(&t.rows))) }
            }
        }
        @if folded {
            script type="application/json" class="table-data" { (PreEscaped(table_data(t))) }
            noscript { p class="note" { "The rows of this table are written by the page's script, which is off: the table is in tables/" (t.stem) ".md." } }
        }
        @for n in &t.notes {
            p class="note" { (n) }
        }
    };
    if folded {
        html! {
            details id=(t.stem) {
                summary { (t.title) " (" (t.rows.len()) " rows: click to open)" }
                (body)
            }
        }
    } else {
        html! {
            h3 id=(t.stem) { (t.title) }
            (body)
        }
    }
}

/// The class of a verdict's text.
fn verdict_class(a: &Answer) -> &'static str {
    use super::answer::Verdict;
    match &a.verdict {
        Verdict::Ahead | Verdict::MoreSolved => "verdict-ahead",
        Verdict::Raced(v) if v.ahead => "verdict-ahead",
        Verdict::Raced(v) if v.equivalent => "verdict-equivalent",
        Verdict::WithinNoise => "verdict-noise",
        _ => "verdict-none",
    }
}

/// Seconds for a cell (the column's header says the unit).
fn s(t: f64) -> String {
    secs(Some(t))
}

/// The page of a puzzle with the anchor of its question's answer.
fn answer_link(a: &Answer) -> String {
    format!("{}.html#{}", a.puzzle, answer_id(a))
}

/// The anchor of an answer on its puzzle's page.
fn answer_id(a: &Answer) -> String {
    match &a.question {
        Some(q) => format!("answer-{}", q.replace([',', ' '], "")),
        None => "answer".into(),
    }
}

/// What the report's words and engine keys mean, once, on the overview.
fn glossary(shift: f64, rows: &[Record]) -> Markup {
    let used: BTreeSet<&str> = rows.iter().map(|r| r.backend.as_str()).collect();
    html! {
        h2 id="glossary" { "What the words mean" }
        dl class="glossary" {
            dt { "configuration" }
            dd { "A formulation (a way to write the puzzle as a model) on an engine with its settings, written " code { "formulation on engine" } ", as " code { "cm1 on bc" } ". The engine label adds the settings that differ from the engine's usual ones: " code { "-nopresolve" } ", " code { "-h123" } " (search heuristics), " code { "-t4" } " (threads), " code { "-gap0.01" } " (MIP gap), " code { "-count2" } " (solutions counted); " code { "@node1" } " names the machine when rows of several machines are kept apart." }
            dt { "comparison instances" }
            dd { "The instances a puzzle's suite chose, by difficulty, for every engine to run (each puzzle's page says how). The answer ranks the configurations that ran every one of them; figures that compare configurations are drawn on them and say so." }
            dt { "question" }
            dd { "A puzzle whose formulations answer different questions (n-Queens: " code { "base" } ", the most queens on a board; " code { "least-walls" } ", the fewest walls for q queens) never runs them on a common instance: each question gets its own line and its own ranking." }
            dt { "solved" }
            dd { "Instances on which more than half of the repeats found a solution the puzzle's independent verifier accepted, or proved that there is none; on every page and in every count. A run that was refused (the engine or the formulation does not take the model) is not run: it counts neither as solved nor as failed, and a candidate that refused is not counted among a race's candidates (the count of those that refused stands beside it)." }
            dt { "stopped" }
            dd { "A run a race's adaptive cap stopped (status " code { "capped" } "): it was slower there than " (crate::race::capping::in_words()) ", which is all that is known of it. It is never solved. Where a figure takes it at its cap (an SGM, a ratio), the figure is a lower bound and is marked " b { "≥" } "; a solved count says how many were stopped: " i { "2/12 (10 stopped)" } "." }
            dt { "SGM" (shift) " (s), descriptive" }
            dd { "The shifted geometric mean exp(mean(ln(t + " (shift) "))) − " (shift) " over the instances of each instance's median time over its repeats, in seconds; a failed run (time limit, error, an answer the verifier refused) counts at its time limit, a stopped run at its cap (" b { "≥" } "). It describes; on a raced puzzle it decides nothing (the race's test does). Times are on the solve clock (the " code { "seconds" } " column: for an engine in a child process, " code { "cpsat" } ", " code { "scip" } ", " code { "gurobi" } ", " code { "cplex" } ", " code { "xpress" } ", " code { "copt" } ", " code { "glpk" } ", " code { "prolog" } ", the solver's own time, without the process start and the model transfer, which the run clock of the time limit includes: " code { "run_seconds" } " in the rows; for an engine added by a definition, the whole call). The races, and the answers of raced puzzles, are on the run clock instead, the clock of the time limit: building, solve and a child-process solver's start and model transfer, what a user waits for. The shift, " (shift) " s, is the one used by every table, figure and verdict of this report (" code { "--shift" } " changes them all); docs/measurement.md says why." }
            dt { "PAR-2 (s)" }
            dd { "The mean over the runs of the time, a failed run counting twice its time limit (the penalised average runtime of the SAT competitions)." }
            dt { "runner-up / best (interval)" }
            dd { "On a raced puzzle: the Hodges–Lehmann estimate (the median of the pairwise means) of the runner-up's time over the best's, instance by instance, over the instances that separate them, and the interval that inverts the race's signed-rank tests: its lower end at the level a drop needed, its upper end at the level of an equivalence claim (docs/race.md; each puzzle's race table gives the levels). The verdict is read off it: " b { "ahead" } " exactly when the lower end lies above 1, " b { "equivalent" } " exactly when both ends lie within the margin. Where the runner-up was stopped on some instances the ratio is a lower bound with no upper end: " i { "≥ 3.29 (≥ 2.07; 10 of 12 stopped)" } ". Without a race: the runner-up's SGM over the best's, shifted ((SGM + s) / (SGM + s), s = " (shift) " s), with its 95 % percentile bootstrap interval over instances and repeats (" (RESAMPLES) " resamples, fixed seed)." }
            dt { "verdict" }
            dd {
                "On a raced puzzle, what its race decided between the best and the runner-up: "
                b { "ahead" } ": the race's test separated them (the runner-up was dropped with the best's own test meeting its level); "
                b { "equivalent within M" } ": the interval lies within [1/(1+M), 1+M], M the race's margin (10 % unless the race said otherwise), two one-sided tests at the race's level; "
                b { "undecided, because …" } ": neither, and why: " i { "the plan ran out" } " (every planned instance raced), " i { "the budget was spent" } " (the race's safety cap in seconds stopped it first), " i { "the runs are too fast to time" } " (most instances took both under 10 ms), or the race's rows end short of its plan. "
                b { "the verdict is about short runs" } " beside it: on the race's top rung the best takes less than 10 × the largest per-run overhead of the race's engines (a child process's start, the model's transfer), so the order there may be about starting a solver rather than solving. "
                "Without a race: " b { "ahead" } ": the interval lies above 1; " b { "ahead (more solved)" } ": the best solved more comparison instances; " b { "within noise" } ": the interval holds 1; " b { "no verdict (< 1 ms)" } ": the runner-up's median is under " (TOO_FAST * 1000.0) " ms; " b { "alone" } ": only one configuration ran every comparison instance."
            }
            dt { "race" }
            dd { "How a puzzle's engine comparison is made (" code { "puzzlebench race" } ", docs/race.md): every candidate (formulation on engine) runs the instances of a " b { "plan" } " fixed before the race (one from each " b { "rung" } " of the puzzle's " b { "ladder" } " of rising difficulty in turn, the same on any machine), one run at a time, the race's best first and the others under an adaptive cap; at " b { "looks" } " fixed before the race (after 12 to 17 instances, then every 6, and at the plan's end) its tests drop the candidates shown not to be a best and call equivalent those shown within the margin of it. The race column gives the instances raced / planned × the candidates that ran (and how many refused), why the race ended (" b { "decided" } ": every survivor but the best equivalent to it; " b { "one candidate left" } "; " b { "plan run" } "; " b { "budget spent" } "), and how many instances " b { "separate" } " the best from the runner-up." }
            dt { "separating instance" }
            dd { "An instance separates two candidates when both ran it, their times differ to the millisecond, the slower took 10 ms or more, and which was faster is known (not both stopped); only these count toward a test between the two, decided for each pair alone." }
            dt { "the race's test, best, runner-up" }
            dd { "At a look, every survivor's exact one-sided Wilcoxon signed-rank test against every other, on the log ratios of their times over the instances separating them, decides by the closure of \"a is a best\" (Marcus, Peritz and Gabriel): a candidate is dropped when its test against some survivor meets the level α" sub { "t" } "/(m(k−1)), α" sub { "t" } " the look's share of α = 0.05, k the survivors, m those that could still be bests with it; plainly worse candidates are tested as against the best of the others (m = 2), equal ones as every pair (m = k), so that a race drops a candidate as good as the best in at most 5 % of races. The " b { "best" } " has the highest signed-rank score over the other survivors; the " b { "runner-up" } " is the candidate whose test against the best is weakest (the largest p-value; survivors before dropped ones, and among those the ones that stayed longest; ties by more separating instances)." }
            dt { "virtual best" }
            dd { "The fastest configuration on each instance, taken instance by instance: a bound on what choosing the configuration per instance could give." }
            dt { "marks" }
            dd { "In the tables, " b { "–" } " means not run (nothing of that configuration ran there), " b { "✗" } " failed (it ran, and every run failed: time limit, error, or an answer the verifier refused), " b { "n/a" } " no such figure (the engine does not give it); each table's notes name the marks it uses." }
            dt { "engines" }
            dd {
                dl {
                    @for e in registry::all().iter().filter(|e| used.contains(e.key())) {
                        dt { code { (e.key()) } }
                        dd { (e.description()) }
                    }
                }
            }
        }
    }
}

/// What the overview says about the rows it left out of every statistic.
pub struct SetAside {
    /// Earlier attempts of run ids that appear more than once: only the last counts.
    pub earlier_attempts: usize,
    /// Runs refused by their engine or formulation (not run).
    pub refused: usize,
}

/// The overview page.
fn overview(
    answers: &[Answer],
    puzzles: &[String],
    rows: &[Record],
    machine_lines: &[String],
    preamble: &str,
    set_aside: &SetAside,
) -> String {
    let shift = answers
        .first()
        .map_or(crate::stats::DEFAULT_SHIFT, |a| a.shift);
    let answered: BTreeSet<&str> = answers.iter().map(|a| a.puzzle.as_str()).collect();
    let body = html! {
        h1 { "puzzlebench report" }
        p { "Which formulation on which engine wins each puzzle, by how much, and how sure. One line per puzzle (per question where a puzzle asks two); its page has the rest. The words and engine keys are explained " a href="#glossary" { "below the table" } "." }
        table class="sortable" id="answers" {
            thead {
                tr {
                    th { "puzzle" } th { "best configuration" } th class="num" { "solved" }
                    th class="num" { "SGM" (shift) " (s), descriptive" }
                    th { "runner-up" } th class="num" { "solved" }
                    th class="num" { "runner-up / best (interval)" } th { "verdict" } th { "race" }
                }
            }
            tbody {
                @for p in puzzles {
                    @for a in answers.iter().filter(|a| &a.puzzle == p) {
                        @let n = a.instances.len();
                        tr {
                            td data-label="puzzle" { a href=(answer_link(a)) { (a.title()) } }
                            td data-label="best" { (a.best().config.to_string()) }
                            td class="num" data-label="solved" { (a.best().solved_cell(n)) }
                            td class="num" data-label=(format!("SGM{shift} (s), descriptive")) { (a.best().sgm_cell()) }
                            td data-label="runner-up" { (a.runner_up().map_or("–".to_string(), |r| r.config.to_string())) }
                            td class="num" data-label="runner-up solved" { (a.runner_up().map_or("–".to_string(), |r| r.solved_cell(n))) }
                            td class="num" data-label="runner-up / best" { (a.ratio_column()) }
                            td class=(verdict_class(a)) data-label="verdict" {
                                @if let super::answer::Verdict::Raced(v) = &a.verdict {
                                    (v.label)
                                    @if let Some(why) = &v.short_runs { span class="short" { (why) } }
                                } @else {
                                    (verdict_word(a))
                                }
                            }
                            td data-label="race" { (a.race.as_ref().map_or(a.instances_and_repeats(), |r| r.summary())) }
                        }
                    }
                    @if !answered.contains(p.as_str()) {
                        tr {
                            td data-label="puzzle" { a href={ (p) ".html" } { (p) } }
                            td colspan="8" data-label="answer" { "no comparison: no configuration ran every instance another did" }
                        }
                    }
                }
            }
        }
        p class="note" {
            "Where a puzzle was raced, its line is its race's: the best (the highest signed-rank score over the other survivors) against the runner-up (the candidate whose test against it is weakest), on the instances both ran, with the race's ratio and interval and its verdict: " b { "ahead" } ", " b { "equivalent within the margin" } ", or " b { "undecided" } " with the reason. The SGM describes and decides nothing; a ≥ marks a figure that rests on runs the race's cap stopped, a lower bound. Every figure is over the comparison instances of its puzzle (each puzzle's page says how they were chosen)."
            @if set_aside.earlier_attempts > 0 {
                " " (set_aside.earlier_attempts) " earlier attempts of runs that the results hold more than once were set aside: each run counts once, its last attempt."
            }
            @if set_aside.refused > 0 {
                " " (set_aside.refused) " runs were refused by their engine or formulation (not run): they enter no statistic and no count of candidates; each puzzle's page lists them with the reason."
            }
        }
        @let licences = super::licence::overview_notes(rows);
        @if !licences.is_empty() {
            h2 id="licences" { "Licences" }
            @for l in &licences { p class="note" { (l) } }
        }
        (glossary(shift, rows))
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

/// The heatmap's colour scale runs from 1× the best's SGM to this many times it (a
/// configuration beyond it gets the darkest colour).
pub const HEAT_RANGE: f64 = 100.0;

/// Stops of the heatmap's scale, light to dark: ColorBrewer's sequential YlGnBu, which
/// reads in order for colour-blind readers too (it varies in lightness).
const HEAT_STOPS: [(u8, u8, u8); 7] = [
    (255, 255, 204),
    (199, 233, 180),
    (127, 205, 187),
    (65, 182, 196),
    (29, 145, 192),
    (34, 94, 168),
    (12, 44, 132),
];

/// The colour at `x` in [0, 1] of the heatmap's scale, and whether text on it must be
/// white.
fn heat_colour(x: f64) -> (String, bool) {
    let x = x.clamp(0.0, 1.0) * (HEAT_STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(HEAT_STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (HEAT_STOPS[i], HEAT_STOPS[i + 1]);
    let mix = |p: u8, q: u8| (p as f64 + f * (q as f64 - p as f64)).round() as u8;
    let (r, g, bl) = (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2));
    (
        format!("rgb({r}, {g}, {bl})"),
        x / (HEAT_STOPS.len() - 1) as f64 > 0.6,
    )
}

/// Where a ratio to the best lies on the heatmap's scale: log(ratio) / log([`HEAT_RANGE`]).
fn heat_position(ratio: f64) -> f64 {
    (ratio.max(1.0).ln() / HEAT_RANGE.ln()).clamp(0.0, 1.0)
}

/// The colour bar under a heatmap: the scale from 1× to [`HEAT_RANGE`]× with its ticks, and
/// the marks of the best cell and of a configuration that solved none.
fn colour_bar() -> Markup {
    let stops: Vec<String> = (0..=10)
        .map(|i| {
            let x = i as f64 / 10.0;
            format!("{} {:.0}%", heat_colour(x).0, 100.0 * x)
        })
        .collect();
    let gradient = format!(
        "background: linear-gradient(to right, {})",
        stops.join(", ")
    );
    let ticks = [1.0, 3.0, 10.0, 30.0, 100.0];
    html! {
        div class="colourbar" aria-label="colour bar" {
            span { "SGM over the best's:" }
            span {
                div class="scale" style=(gradient) {}
                div class="ticks" {
                    @for t in ticks {
                        span style=(format!("left: {:.1}%", 100.0 * heat_position(t))) { (t) "×" }
                    }
                }
            }
            span { span class="swatch" style="background: #bdbdbd" {} " solved none" }
            span { span class="swatch" style="outline: 3px solid #000; outline-offset: -3px" {} " ★ the best" }
        }
    }
}

/// The heatmap of a question's comparison: a row per formulation, a column per engine
/// label, each cell solved/instances and SGM, coloured by its SGM over the best's on a log
/// scale from 1× to [`HEAT_RANGE`]×, grey where the configuration solved none, the best
/// marked.
fn heatmap(a: &Answer) -> Markup {
    let formulations: BTreeSet<&str> = a
        .standings
        .iter()
        .map(|s| s.config.formulation.as_str())
        .collect();
    let mut engines: Vec<&str> = a
        .standings
        .iter()
        .map(|s| s.config.engine.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    engines.sort_by_key(|e| super::engines::column_key(e));
    let cell: BTreeMap<(&str, &str), &Standing> = a
        .standings
        .iter()
        .map(|s| ((s.config.formulation.as_str(), s.config.engine.as_str()), s))
        .collect();
    let best = a.best();
    let n = a.instances.len();
    let wide = engines.len() > 7;
    html! {
        table class=(if wide { "heatmap wide" } else { "heatmap" }) {
            thead { tr { th { "formulation \\ engine" } @for e in &engines { th { (e) } } } }
            tbody {
                @for f in &formulations {
                    tr {
                        td { (f) }
                        @for e in &engines {
                            @match cell.get(&(*f, *e)) {
                                Some(st) => {
                                    @let ratio = crate::stats::shifted_ratio(best.sgm, st.sgm, a.shift);
                                    @let is_best = st.config == best.config;
                                    @let tip = format!("{}: {} solved; SGM {} s, {ratio:.2}× the best's{}; PAR-2 {} s", st.config, st.solved_cell(n), st.sgm_cell(), if st.stopped > 0 { " (a lower bound: stopped runs at their cap)" } else { "" }, s(st.par2));
                                    @if st.solved == 0 {
                                        td class="cell none" title=(tip) data-ratio=(format!("{ratio:.3}")) {
                                            (heat_cell(st, n))
                                        }
                                    } @else {
                                        @let (colour, white) = heat_colour(heat_position(ratio));
                                        @let style = format!("background: {colour}; color: {}", if white { "#fff" } else { "#222" });
                                        td class=(if is_best { "cell best" } else { "cell" }) style=(style) title=(tip) data-ratio=(format!("{ratio:.3}")) {
                                            @if is_best { "★ " }
                                            (heat_cell(st, n))
                                        }
                                    }
                                }
                                None => { td class="notrun" title="not run on every comparison instance" { "–" } }
                            }
                        }
                    }
                }
            }
        }
        (colour_bar())
        p class="note" { "Each cell: comparison instances solved (the verifier accepted the answer) / " (n) ", then how many a race's cap stopped (if any), then SGM" (a.shift) " (s), descriptive: a stopped run enters at its cap, so that an SGM over stopped runs is a lower bound (≥). Colour: the cell's SGM over the best's (shifted), from 1× (light) to " (HEAT_RANGE) "× and beyond (dark), on a log scale; grey: solved none; ★ and the frame: the best (on a raced puzzle, its race's); –: this pair did not run every comparison instance. Hover a cell for its ratio and PAR-2." }
    }
}

/// A heatmap cell's text: solved / instances, those a race's cap stopped on a line of
/// their own (so that the column stays narrow), then the SGM (`≥` over stopped runs).
fn heat_cell(st: &Standing, n: usize) -> Markup {
    html! {
        (st.solved) "/" (n) br;
        @if st.stopped > 0 { (st.stopped) " stopped" br; }
        (st.sgm_cell())
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
    let vb_sgm = shifted_geometric_mean(&vbs, a.shift).unwrap_or(0.0);
    let mut shares: Vec<(String, usize)> = wins.into_iter().collect();
    shares.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    html! {
        p {
            "The virtual best (the fastest configuration on each instance) has an SGM" (a.shift) " of " (seconds(vb_sgm)) "; the best single configuration, " (a.best().config.to_string()) ", " (seconds(a.best().sgm)) " (" (format!("{:.2}", crate::stats::shifted_ratio(vb_sgm, a.best().sgm, a.shift))) "× the virtual best)."
        }
        table class="sortable" {
            thead { tr { th { "configuration" } th class="num" { "fastest on" } th { "share" } } }
            tbody {
                @for (c, w) in &shares {
                    @let share = *w as f64 / n.max(1) as f64;
                    tr {
                        td { (c) }
                        td class="num" { (w) "/" (n) }
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

/// The name of a row's configuration, as everywhere in the report: `formulation on engine`.
fn config_name(r: &Record) -> String {
    format!("{} on {}", r.formulation, r.backend_label())
}

/// An instance size and its label (`9x9`).
type Sized = (f64, String);

/// How far one configuration reaches on the instances it ran.
#[derive(Default)]
struct Reach {
    ran: BTreeSet<String>,
    solved: BTreeSet<String>,
    largest_solved: Option<Sized>,
    smallest_failed: Option<Sized>,
}

/// Per configuration of a puzzle (its rows, counting and refused runs left out): the
/// largest instance size it solved and the smallest it failed on, in one table per set of
/// instances run, so that configurations are set side by side only on the same
/// instances.
fn reach(rows: &[&Record]) -> Markup {
    let mut by: BTreeMap<String, Reach> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.count <= 1 && !r.is_refused()) {
        let e = by.entry(config_name(r)).or_default();
        e.ran.insert(r.instance.clone());
        let size = r.size.unwrap_or(0.0);
        if succeeded(r) {
            e.solved.insert(r.instance.clone());
            if e.largest_solved.as_ref().is_none_or(|(s, _)| size > *s) {
                e.largest_solved = Some((size, r.size_label.clone()));
            }
        } else if e.smallest_failed.as_ref().is_none_or(|(s, _)| size < *s) {
            e.smallest_failed = Some((size, r.size_label.clone()));
        }
    }
    let mut by_set: BTreeMap<&BTreeSet<String>, Vec<(&String, &Reach)>> = BTreeMap::new();
    for (c, e) in &by {
        by_set.entry(&e.ran).or_default().push((c, e));
    }
    let mut sets: Vec<_> = by_set.into_iter().collect();
    sets.sort_by_key(|(set, configs)| std::cmp::Reverse((set.len(), configs.len())));
    let tables = reach_tables(&sets);
    // A long list is looked up, not read: folded, as the run table is.
    if by.len() > REACH_OPEN_ROWS {
        html! {
            details {
                summary { (by.len()) " configurations (open to see each one's reach)" }
                (tables)
            }
        }
    } else {
        tables
    }
}

/// The most configurations [`reach`] shows unfolded.
const REACH_OPEN_ROWS: usize = 12;

/// The configurations that ran one instance set, with their reach.
type ReachSet<'a> = (&'a BTreeSet<String>, Vec<(&'a String, &'a Reach)>);

/// The reach tables of [`reach`], one per instance set.
fn reach_tables(sets: &[ReachSet]) -> Markup {
    html! {
        @for (set, configs) in sets {
            p class="note" {
                "On the same " (set.len()) " instance" @if set.len() != 1 { "s" } " (" (configs.len()) " configuration" @if configs.len() != 1 { "s" } "):"
            }
            table class="sortable" {
                thead { tr { th { "configuration" } th class="num" { "solved" } th { "largest solved" } th { "smallest failed" } } }
                tbody {
                    @for (c, e) in configs {
                        tr {
                            td { (c) }
                            td class="num" { (e.solved.len()) "/" (e.ran.len()) }
                            td data-sort=(e.largest_solved.as_ref().map_or(-1.0, |x| x.0)) { (e.largest_solved.as_ref().map_or("none".to_string(), |x| x.1.clone())) }
                            td data-sort=(e.smallest_failed.as_ref().map_or(f64::INFINITY, |x| x.0)) { (e.smallest_failed.as_ref().map_or("none failed".to_string(), |x| x.1.clone())) }
                        }
                    }
                }
            }
        }
    }
}

/// The refused pairs of a puzzle: each formulation on engine that was not run, how many
/// runs, and the reason (the first, when they differ).
fn not_run(refused: &[&Record]) -> Markup {
    let mut by: BTreeMap<String, (usize, BTreeSet<String>)> = BTreeMap::new();
    for r in refused {
        let e = by.entry(config_name(r)).or_default();
        e.0 += 1;
        e.1.insert(r.error.clone().unwrap_or_default());
    }
    html! {
        table class="sortable" {
            thead { tr { th { "configuration" } th class="num" { "runs refused" } th { "reason" } } }
            tbody {
                @for (c, (n, why)) in &by {
                    tr {
                        td { (c) }
                        td class="num" { (n) }
                        td { (why.iter().next().cloned().unwrap_or_default()) @if why.len() > 1 { " (and " (why.len() - 1) " other reasons)" } }
                    }
                }
            }
        }
    }
}

/// The status of a run as the run table shows it: its status, and whether its answer was
/// refused by the verifier (a wrong answer).
fn run_class(r: &Record) -> Option<&'static str> {
    if r.is_refused() {
        Some("refused")
    } else if r.verified == Some(false) {
        Some("wrong")
    } else if succeeded(r) {
        None
    } else {
        Some("failed")
    }
}

/// A number rounded to `decimals` decimals, as the run table shows it (JSON null when
/// unknown).
fn rounded(x: Option<f64>, decimals: i32) -> serde_json::Value {
    let scale = 10f64.powi(decimals);
    x.filter(|v| v.is_finite())
        .map_or(serde_json::Value::Null, |v| {
            serde_json::json!((v * scale).round() / scale)
        })
}

/// An objective as the run table's data holds it: a whole number without its `.0`.
fn objective(o: Option<f64>) -> serde_json::Value {
    match o.filter(|o| o.is_finite()) {
        Some(o) if o.fract() == 0.0 && o.abs() < 1e15 => serde_json::json!(o as i64),
        Some(o) => serde_json::json!(o),
        None => serde_json::Value::Null,
    }
}

/// The index of `item` in `list`, which it is added to when missing.
fn index_of(list: &mut Vec<String>, item: &str) -> usize {
    match list.iter().position(|x| x == item) {
        Some(i) => i,
        None => {
            list.push(item.to_string());
            list.len() - 1
        }
    }
}

/// The rows of the run table as the page holds them: JSON, each run one array of numbers
/// (instance, configuration, status and reason as indices into lists of their names, so
/// that no name is repeated; times and memory rounded to what the table shows; the
/// verifier's answer 1 or 0; unknowns at its end left out), which the page's script
/// writes into the table.
fn runs_data(rows: &[&Record]) -> String {
    let (mut instances, mut configs, mut statuses, mut errors) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let runs: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let class = match run_class(r) {
                None => 0,
                Some("failed") => 1,
                Some("wrong") => 2,
                Some(_) => 3,
            };
            let error = r
                .error
                .as_deref()
                .filter(|e| !e.is_empty())
                .map(|e| index_of(&mut errors, e));
            serde_json::json!([
                index_of(&mut instances, &r.instance),
                index_of(&mut configs, &config_name(r)),
                r.repeat,
                index_of(&mut statuses, &r.status),
                rounded(r.seconds, 4),
                rounded(r.wall_seconds, 3),
                rounded(r.cpu_seconds, 3),
                rounded(r.peak_memory_mb, 1),
                objective(r.objective),
                r.verified.map(u8::from),
                class,
                error,
            ])
        })
        .map(|mut run: serde_json::Value| {
            // Unknowns at the end of a run are left out (the script reads them as null).
            if let Some(a) = run.as_array_mut() {
                while a.last().is_some_and(serde_json::Value::is_null) {
                    a.pop();
                }
            }
            run
        })
        .collect();
    let data = serde_json::json!({
        "instances": instances,
        "configs": configs,
        "statuses": statuses,
        "errors": errors,
        "rows": runs,
    });
    // Inside a script element, `</` could end it: written `<\/`, which JSON reads the same.
    data.to_string().replace("</", "<\\/")
}

/// Every run of a puzzle, as BenchExec's table shows them: instance, configuration,
/// repeat, status, wall and CPU seconds and peak memory of the worker, objective and the
/// verifier's answer; failed runs and wrong answers marked; filtered by configuration and
/// status. Folded: it is looked up, not read. The page holds the runs once, compactly
/// ([`runs_data`]), and its script writes the table's rows from them when it loads (a
/// table of every run as HTML was up to half a page's size); without scripts the page says
/// where the runs are.
fn runs_table(rows: &[&Record]) -> Markup {
    let configs: BTreeSet<String> = rows.iter().map(|r| config_name(r)).collect();
    let statuses: BTreeSet<&str> = rows.iter().map(|r| r.status.as_str()).collect();
    html! {
        details id="runs" {
            summary { "Every run (" (rows.len()) "): status, time, memory, answer — click to open" }
            div class="runs" {
                div class="filters" {
                    label { "configuration " select name="config" {
                        option value="" { "all" }
                        @for c in &configs { option value=(c) { (c) } }
                    } }
                    label { "status " select name="status" {
                        option value="" { "all" }
                        @for st in &statuses { option value=(st) { (st) } }
                    } }
                    span { "shown: " span class="shown" { (rows.len()) } }
                }
                table class="sortable wide" {
                    thead {
                        tr {
                            th { "instance" } th { "configuration" } th class="num" { "repeat" } th { "status" }
                            th class="num" { "solve (s)" } th class="num" { "wall (s)" } th class="num" { "CPU (s)" }
                            th class="num" { "memory (MiB)" } th class="num" { "objective" } th { "verified" }
                        }
                    }
                    tbody {}
                }
                noscript { p class="note" { "The rows of this table are written by the page's script, which is off: every run is a row of the results file (results.csv) the report was made from." } }
                script type="application/json" class="runs-data" { (PreEscaped(runs_data(rows))) }
                p class="note" { "solve: the engine's own solve time; wall and CPU: the worker process as the runner measured it (CPU of every process of the run), memory its peak; objective: of the best solution found; verified: the independent verifier's answer (– where there was no solution to check). Rows marked: orange, a failed run (time limit, error); red, a wrong answer (the verifier refused it); grey, refused (not run). Hover a status for the reason." }
            }
        }
    }
}

/// One figure: its file, title, and whether it is interactive (shown as a document of its
/// own, `<object>`, whose script and hover marks work; the others are images).
type Figure = (String, String, bool);

/// The page of one puzzle.
fn puzzle_page(
    puzzle: &str,
    puzzles: &[String],
    answers: &[&Answer],
    rows: &[&Record],
    tables: &[&Table],
    plots: &[Figure],
) -> String {
    let (refused, measured): (Vec<&Record>, Vec<&Record>) =
        rows.iter().copied().partition(|r| r.is_refused());
    let contents: Vec<(String, String)> = answers
        .iter()
        .map(|a| {
            let what = match &a.question {
                Some(q) => format!("The answer: {q}"),
                None => "The answer".into(),
            };
            (answer_id(a), what)
        })
        .chain((!refused.is_empty()).then(|| ("not-run".into(), "Not run".into())))
        .chain([("reach".into(), "How far each configuration reaches".into())])
        .chain((!plots.is_empty()).then(|| ("figures".into(), "Figures".into())))
        .chain(tables.iter().map(|t| (t.stem.clone(), t.title.clone())))
        .chain([("runs".into(), "Every run".into())])
        .collect();
    let body = html! {
        h1 { (puzzle) }
        nav class="contents" aria-label="contents" {
            p class="note" { "On this page:" }
            ul { @for (id, what) in &contents { li { a href={ "#" (id) } { (what) } } } }
        }
        @if answers.is_empty() {
            p { "No comparison: no configuration ran every instance that another ran." }
        }
        @for a in answers {
            h2 id=(answer_id(a)) { @match &a.question { Some(q) => { "The answer: " (q) }, None => { "The answer" } } }
            p class=(verdict_class(a)) { (a.sentence()) }
            p class="note" { "Comparison instances: " (a.chosen) }
            @if let Some(r) = &a.race {
                p class="note" { "The race " (r.name) ": " (r.describe()) "; " (r.runs) " runs, " (format!("{:.1}", r.spent)) " s of wall time."
                    @if !r.dropped.is_empty() { " Dropped: " (r.dropped.join(", ")) " (the race table below gives each candidate's label, ratio and test)." }
                    @if !r.refused.is_empty() { " " (r.refused.len()) " candidates refused (not ranked; listed under Not run)." }
                }
            }
            details class="note" {
                summary { (a.instances.len()) " comparison instances, " (a.repeats) " repeat(s) at most (the list)" }
                p { (a.instances.join(", ")) }
            }
            h3 { "Formulation × engine" }
            (heatmap(a))
            h3 { "Virtual best" }
            (virtual_best(a))
        }
        @if !refused.is_empty() {
            h2 id="not-run" { "Not run" }
            p class="note" { "These runs were refused before anything was searched (the engine does not take the model, or the formulation does not take the instance): they are not failures, and they enter no statistic." }
            (not_run(&refused))
        }
        h2 id="reach" { "How far each configuration reaches" }
        p class="note" { "The largest instance each configuration solved and the smallest it did not (time limit, error or a refused answer), side by side only for configurations that ran the same instances." }
        (reach(&measured))
        @if !plots.is_empty() {
            h2 id="figures" { "Figures" }
            div class="figures" {
                @for (file, title, interactive) in plots {
                    figure {
                        @if *interactive {
                            object data=(file) type="image/svg+xml" aria-label=(title) {
                                a href=(file) { (title) }
                            }
                            figcaption class="note" { (title) " (click a legend line to hide or show its series; hover a point for what it is; " a href=(file) { "SVG file" } ")" }
                        } @else {
                            img src=(file) alt=(title);
                            figcaption class="note" { (title) }
                        }
                    }
                }
            }
        }
        @if !tables.is_empty() {
            h2 { "Tables" }
            @for t in tables { (table_markup(t, true)) }
        }
        h2 { "Every run" }
        (runs_table(rows))
    };
    page(&format!("puzzlebench: {puzzle}"), puzzles, body)
}

/// Writes `index.html` and a page per puzzle into `dir`; `rows` are the rows every
/// statistic counts and `refused` the runs refused (listed as not run); `plots` are the
/// plot files written (their SVGs are shown on the pages), `machine_lines` the machines of
/// the rows. Returns the pages written.
#[allow(clippy::too_many_arguments)]
pub fn write_html(
    dir: &Path,
    rows: &[Record],
    refused: &[Record],
    answers: &[Answer],
    tables: &[Table],
    plots: &[super::plots::PlotFile],
    machine_lines: &[String],
    preamble: &str,
    earlier_attempts: usize,
) -> Result<Vec<PathBuf>, String> {
    let puzzles: Vec<String> = rows
        .iter()
        .chain(refused)
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
    let set_aside = SetAside {
        earlier_attempts,
        refused: refused.len(),
    };
    for (name, text) in [(STYLE_FILE, STYLE), (SCRIPT_FILE, SCRIPT)] {
        let p = dir.join(name);
        std::fs::write(&p, text.trim_start()).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    let all: Vec<Record> = rows.iter().chain(refused).cloned().collect();
    write(
        "index.html".into(),
        overview(answers, &puzzles, &all, machine_lines, preamble, &set_aside),
    )?;
    for p in &puzzles {
        let prefix = format!("{p}_");
        let own_rows: Vec<&Record> = all.iter().filter(|r| &r.puzzle == p).collect();
        let own_tables: Vec<&Table> = tables
            .iter()
            .filter(|t| &t.stem == p || t.stem.starts_with(&prefix))
            .collect();
        // The time against size and the cactus plot are documents of their own
        // (`<object>`), so that clicking a legend line hides or shows its series and
        // hovering a point of the time against size shows what it is; the other figures are
        // images. Either way the page refers to the file in plots/ and holds no copy.
        let own_plots: Vec<Figure> = plots
            .iter()
            .filter(|f| f.stem.starts_with(&prefix))
            .filter_map(|f| {
                let svg = f.file(super::plots::FigureFormat::Svg)?;
                let rel = svg.strip_prefix(dir).ok()?;
                Some((
                    rel.display().to_string(),
                    f.title.clone(),
                    super::plots::interactive(&f.stem),
                ))
            })
            .collect();
        let own_answers: Vec<&Answer> = answers.iter().filter(|a| &a.puzzle == p).collect();
        write(
            format!("{p}.html"),
            puzzle_page(
                p,
                &puzzles,
                &own_answers,
                &own_rows,
                &own_tables,
                &own_plots,
            ),
        )?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heat_scale_runs_light_to_dark_over_one_to_a_hundred() {
        assert_eq!(heat_position(1.0), 0.0);
        assert_eq!(heat_position(0.5), 0.0);
        assert!((heat_position(10.0) - 0.5).abs() < 1e-12);
        assert_eq!(heat_position(1000.0), 1.0);
        // A 3× margin moves a third of the way or more along the scale, not a few degrees.
        assert!(heat_position(3.0) > 0.23);
        let light = |c: &str| -> u32 {
            let v: Vec<u32> = c
                .trim_start_matches("rgb(")
                .trim_end_matches(')')
                .split(", ")
                .map(|x| x.parse().unwrap())
                .collect();
            v.iter().sum()
        };
        let (a, wa) = heat_colour(0.0);
        let (b, _) = heat_colour(0.5);
        let (c, wc) = heat_colour(1.0);
        assert!(
            light(&a) > light(&b) && light(&b) > light(&c),
            "{a} {b} {c}"
        );
        assert!(!wa && wc);
    }

    #[test]
    fn numbers_are_told_from_words() {
        assert!(numeric("0.0123") && numeric("2/3") && numeric("1.19–2.04") && numeric("8 × 3"));
        assert!(!numeric("cm1 on bc") && !numeric("") && !numeric("ahead"));
    }
}
