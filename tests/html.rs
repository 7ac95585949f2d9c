//! The HTML report in a real browser: Debian's chromium, headless, opens every page from
//! the file system (no server); each page must run its script to the end with no script
//! error, load every figure, and every link and image must name a file that exists. Where
//! no chromium is installed (scripts/setup-browser.sh installs it; test.sh runs that), the
//! test says skipped with the reason.

mod common;

use common::{chromium, dump_dom, dump_dom_at, root_attribute};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `href`, `src` and `data` (an `<object>`'s file) targets in a dumped DOM.
fn targets(dom: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in [" href=\"", " src=\"", " data=\""] {
        let mut rest = dom;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].replace("&amp;", "&"));
            }
        }
    }
    out
}

/// Writes the report of the committed example's results into `out` (SVG figures).
fn write_example_report(out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .current_dir(root())
        .args([
            "report",
            "docs/example-report/results.csv",
            "--figures",
            "svg",
            "--out",
        ])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(printed.trim().ends_with("index.html"), "{printed}");
}

/// The HTML pages in `out`, by name.
fn pages(out: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 11, "{pages:?}");
    pages
}

/// The example report written to a temporary folder, with the chromium to read it in.
struct Example {
    /// The browser.
    chromium: PathBuf,
    /// The temporary folder, kept for the test's length (the report and a profile).
    dir: tempfile::TempDir,
    /// The report's folder inside it.
    out: PathBuf,
}

/// [`Example`], or `None` (the test skips, saying why) where no chromium is installed.
fn example_in_browser() -> Option<Example> {
    let chromium = chromium_or_skip()?;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    write_example_report(&out);
    Some(Example { chromium, dir, out })
}

/// The chromium executable, or None after saying the test is skipped.
fn chromium_or_skip() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        eprintln!(
            "skipped: no chromium installed (scripts/setup-browser.sh installs Debian's chromium)"
        );
    }
    found
}

#[test]
fn every_page_opens_in_a_browser_with_its_figures_and_links() {
    let Some(Example { chromium, dir, out }) = example_in_browser() else {
        return;
    };
    let pages = pages(&out);
    let profile = dir.path().join("profile");
    let mut images = 0;
    for page in &pages {
        let dom = dump_dom(&chromium, page, &profile);
        let name = page.file_name().unwrap().to_string_lossy();
        // A page refers to its figures' files and holds no copy of one.
        assert!(!dom.contains("<svg"), "{name} inlines an SVG");
        if name == "circuit.html" {
            // Its time against size is a document of its own, whose points each have the
            // text that hovering shows.
            let figure = "plots/circuit_time_vs_size.svg";
            assert!(
                dom.contains(&format!("<object data=\"{figure}\"")),
                "circuit.html: no interactive time against size"
            );
            let svg = std::fs::read_to_string(out.join(figure)).unwrap();
            let marks = svg.matches("<title>").count();
            assert!(marks > 20, "{figure}: {marks} hover marks");
            // A point's text names its instance (a Circuit board, `cRxC_k`) and its size.
            assert!(
                svg.split("<title>c")
                    .skip(1)
                    .any(|t| t.contains("x") && t.split('<').next().unwrap().contains(" (size")),
                "{figure}: no hover text"
            );
        }
        assert_eq!(
            root_attribute(&dom, "data-error"),
            None,
            "{name}: a script error"
        );
        assert_eq!(
            root_attribute(&dom, "data-ready"),
            Some("1"),
            "{name}: the script did not run to its end"
        );
        assert_eq!(
            root_attribute(&dom, "data-broken-images"),
            Some("0"),
            "{name}: a figure did not load"
        );
        images += root_attribute(&dom, "data-images")
            .unwrap()
            .parse::<usize>()
            .unwrap();
        for t in targets(&dom) {
            if t.starts_with("http") || t.starts_with('#') || t.starts_with("data:") {
                continue;
            }
            let file = t.split('#').next().unwrap();
            assert!(
                out.join(file).exists(),
                "{name}: a link to {t}, which does not exist"
            );
        }
    }
    assert!(images > 0, "no page shows a figure");
    // Clicking a legend line of an interactive figure hides its series, a second click
    // shows it (the SVG file's own script checks this when opened with #toggle-test).
    for figure in ["circuit_time_vs_size", "hashi_comparison_cactus"] {
        let file = out.join(format!("plots/{figure}.svg"));
        let dom = dump_dom(
            &chromium,
            Path::new(&format!("{}#toggle-test", file.display())),
            &profile,
        );
        assert_eq!(
            svg_root_attribute(&dom, "data-toggle"),
            Some("ok"),
            "{figure}: series toggles"
        );
    }
    // The overview answers first: its first table names a best configuration per puzzle.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for p in ["sudoku", "circuit", "hashi", "nonogram"] {
        assert!(index.contains(&format!("href=\"{p}.html\"")), "{p}");
    }
    // A best configuration and a runner-up ("formulation on engine") for each of the
    // eleven puzzles, whichever won in this report, and the interval of their ratio.
    // n-Queens asks two questions (its formulations never share an instance): a line each,
    // so twelve lines.
    let first = &index[index.find("<table").unwrap()..];
    let first = &first[..first.find("</table>").unwrap()];
    let cells = |label: &str| -> Vec<String> {
        first
            .split(&format!("data-label=\"{label}\">"))
            .skip(1)
            .map(|c| c[..c.find("</td>").unwrap()].to_string())
            .collect()
    };
    assert_eq!(cells("best").len(), 12, "{first}");
    assert!(cells("best").iter().all(|c| c.contains(" on ")));
    assert!(cells("runner-up").iter().all(|c| c.contains(" on ")));
    assert!(first.contains(">queens: base<") && first.contains(">queens: least-walls<"));
    assert!(index.contains("runner-up / best (interval)"));
    // Every line says what its race decided, in one of the three words.
    for v in cells("verdict") {
        // A cell that opens with a tag (`<span ...>ahead</span>`) starts after it.
        let v = match v.strip_prefix('<') {
            Some(tagged) => tagged
                .trim_start_matches(|c| c != '>')
                .trim_start_matches('>'),
            None => v.as_str(),
        };
        assert!(
            v.starts_with("ahead")
                || v.starts_with("equivalent within ")
                || v.starts_with("undecided, because "),
            "{v}"
        );
    }
    // Each configuration the overview names, and each engine key, is explained once on it.
    for key in ["sat", "hitset", "bc", "propagate", "highs"] {
        assert!(
            index.contains(&format!("<dt><code>{key}</code></dt>")),
            "the glossary lacks {key}"
        );
    }
    for term in [
        "SGM0.01 (s), descriptive",
        "PAR-2 (s)",
        "virtual best",
        "verdict",
        "solved",
        "stopped",
        "runner-up / best (interval)",
        "separating instance",
    ] {
        assert!(
            index.contains(&format!("<dt>{term}</dt>")),
            "glossary: {term}"
        );
    }
}

/// The value of attribute `name` on the root element of a dumped SVG document.
fn svg_root_attribute<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let start = dom.find("<svg")?;
    let tag = &dom[start..start + dom[start..].find('>')?];
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// A root attribute's value as a number.
fn number(dom: &str, name: &str) -> f64 {
    root_attribute(dom, name)
        .unwrap_or_else(|| panic!("no {name}"))
        .parse()
        .unwrap()
}

#[test]
fn pages_read_at_800_and_1400_pixels_without_sideways_scrolling_and_fold_what_is_looked_up() {
    let Some(Example { chromium, dir, out }) = example_in_browser() else {
        return;
    };
    let profile = dir.path().join("profile");
    for page in pages(&out) {
        let name = page.file_name().unwrap().to_string_lossy().to_string();
        let at = Path::new(&format!("{}#layout-test", page.display())).to_path_buf();
        for width in [800, 1400] {
            let dom = dump_dom_at(&chromium, &at, &profile, width);
            assert_eq!(root_attribute(&dom, "data-error"), None, "{name}");
            // With every folded section open, nothing reaches past the page's column and
            // the window does not scroll sideways.
            assert_eq!(
                number(&dom, "data-overflow"),
                0.0,
                "{name} at {width} px: {}",
                root_attribute(&dom, "data-overflow-what").unwrap_or("")
            );
            assert_eq!(
                root_attribute(&dom, "data-scroll-sideways"),
                Some("0"),
                "{name} at {width} px scrolls sideways"
            );
            if name == "index.html" {
                // The overview's answer table reads at a glance at either width: no word
                // of it wraps inside itself ("ahea/d", "verd/ict", "no|t se|pa|rat|ed",
                // "bat|tles|hip" once did).
                assert_eq!(
                    number(&dom, "data-split-words"),
                    0.0,
                    "index.html at {width} px splits {}",
                    root_attribute(&dom, "data-split-words-what").unwrap_or("")
                );
            }
            if width == 1400 {
                // Folded, no page is taller than 8,000 px (hashi.html was 15,229).
                let height = number(&dom, "data-height");
                assert!(height <= 8000.0, "{name}: {height} px tall");
                // Grey for a configuration that solved none, in the browser's own colours.
                assert_eq!(
                    number(&dom, "data-grey-cells"),
                    number(&dom, "data-none-cells"),
                    "{name}: a cell that solved none is not grey"
                );
            }
        }
    }
}

#[test]
fn puzzle_pages_have_a_colour_bar_a_marked_best_and_a_run_table_that_filters() {
    let Some(Example { chromium, dir, out }) = example_in_browser() else {
        return;
    };
    let profile = dir.path().join("profile");
    for page in pages(&out) {
        let name = page.file_name().unwrap().to_string_lossy().to_string();
        if name == "index.html" {
            continue;
        }
        let html = std::fs::read_to_string(&page).unwrap();
        // Each answer's heatmap: its colour bar and one marked best cell.
        let maps = html.matches("<table class=\"heatmap").count();
        assert!(maps >= 1, "{name}: no heatmap");
        assert_eq!(
            html.matches("aria-label=\"colour bar\"").count(),
            maps,
            "{name}"
        );
        assert_eq!(html.matches("class=\"cell best\"").count(), maps, "{name}");
        // A grey cell (solved none) is never the marked best.
        assert!(!html.contains("class=\"cell none best\""), "{name}");
        // Contents first; the long tables and the run table folded.
        assert!(html.contains("aria-label=\"contents\""), "{name}");
        assert!(html.contains("<details id=\"runs\">"), "{name}");
        // The run table's columns, as BenchExec's table shows a run.
        let runs = &html[html.find("<details id=\"runs\">").unwrap()..];
        for col in [
            "status",
            "wall (s)",
            "CPU (s)",
            "memory (MiB)",
            "objective",
            "verified",
        ] {
            assert!(runs.contains(&format!(">{col}</th>")), "{name}: no {col}");
        }
    }
    // (The example's comparisons are races: candidates that failed everything were
    // dropped before the instances the heatmap ranks on, so it need hold no grey cell.)
    // Choosing a configuration in the run table's filter shows its rows and only them.
    let dom = dump_dom(
        &chromium,
        Path::new(&format!("{}#filter-test", out.join("hashi.html").display())),
        &profile,
    );
    assert_eq!(root_attribute(&dom, "data-filter"), Some("ok"));
}

/// The rows of the committed example, read as the report reads them.
fn example_rows() -> Vec<puzzlebench::record::Record> {
    puzzlebench::record::read_results(&root().join("docs/example-report/results.csv")).unwrap()
}

/// A reviewer's reading of the example in the browser: no run a race's cap stopped is
/// called solved anywhere, the overview's counts are the puzzle pages' counts, every word
/// a verdict uses is defined on the overview, and the licences that restrict publishing
/// results are stated wherever their engines' results appear.
#[test]
fn a_reviewer_finds_no_capped_run_solved_no_two_counts_that_disagree_and_no_undefined_word() {
    let Some(Example { chromium, dir, out }) = example_in_browser() else {
        return;
    };
    let profile = dir.path().join("profile");
    let rows = example_rows();
    // Per puzzle and configuration, the instances its race runs solved (verified).
    let mut solved: std::collections::BTreeMap<(String, String), usize> = Default::default();
    for r in rows.iter().filter(|r| !r.race.is_empty()) {
        if puzzlebench::stats::succeeded(r) {
            *solved
                .entry((r.puzzle.clone(), r.config_name()))
                .or_default() += 1;
        }
    }
    let index_dom = dump_dom(&chromium, &out.join("index.html"), &profile);
    let table = &index_dom[index_dom.find("id=\"answers\"").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    for page in pages(&out) {
        let name = page.file_name().unwrap().to_string_lossy().to_string();
        if name == "index.html" {
            continue;
        }
        let puzzle = name.trim_end_matches(".html").to_string();
        let dom = dump_dom(&chromium, &page, &profile);
        // Each heatmap cell's tip: "CONFIG: S/N solved" or "CONFIG: S/N (K stopped) solved".
        for tip in dom.split("title=\"").skip(1) {
            let tip = &tip[..tip.find('"').unwrap()];
            let Some((config, rest)) = tip.split_once(": ") else {
                continue;
            };
            let Some(count) = rest
                .split(" solved;")
                .next()
                .filter(|_| rest.contains(" solved;"))
            else {
                continue;
            };
            let s: usize = count.split('/').next().unwrap().trim().parse().unwrap();
            let have = solved
                .get(&(puzzle.clone(), config.to_string()))
                .copied()
                .unwrap_or(0);
            assert!(
                s <= have,
                "{name}: {config} shown with {s} solved, its race rows solve {have}"
            );
        }
        // The overview gives the same solved counts as the page's heatmap for the best and
        // the runner-up it names.
        for row in table.split("<tr>").skip(2) {
            let cell = |label: &str| -> Option<String> {
                let at = row.find(&format!("data-label=\"{label}\">"))?;
                let c = &row[at + label.len() + 14..];
                Some(c[..c.find("</td>")?].to_string())
            };
            let Some(link) = cell("puzzle") else { continue };
            if !link.contains(&format!("href=\"{puzzle}.html")) {
                continue;
            }
            for (who, count) in [("best", "solved"), ("runner-up", "runner-up solved")] {
                let (Some(config), Some(n)) = (cell(who), cell(count)) else {
                    continue;
                };
                assert!(
                    dom.contains(&format!("title=\"{config}: {n} solved;")),
                    "{name}: the overview says {config} solved {n}; the heatmap does not"
                );
            }
        }
    }
    // Every verdict the overview prints is defined in its glossary.
    let glossary = &index_dom[index_dom.find("id=\"glossary\"").unwrap()..];
    for word in [
        "ahead",
        "equivalent within M",
        "undecided, because",
        "stopped",
    ] {
        assert!(glossary.contains(word), "the glossary lacks {word}");
    }
    assert!(
        glossary.contains("≥"),
        "the glossary says what a ≥ (a lower bound) means"
    );
    // A licence that restricts publishing results is stated on the overview, and in
    // paper.tex before its tables, where its engine ran.
    let paper = std::fs::read_to_string(out.join("paper.tex")).unwrap();
    for (engine, words) in [
        ("xpress", "forbid publishing"),
        ("gurobi", "forbid publishing"),
    ] {
        let ran = rows
            .iter()
            .any(|r| r.backend == engine && r.solver_version.contains("size-limited licence"));
        if ran {
            assert!(
                index_dom.contains(&format!("{engine} here is")) && index_dom.contains(words),
                "the overview does not state {engine}'s licence"
            );
            let licences = paper
                .find("\\section*{Solver licences}")
                .map(|at| {
                    &paper[at..paper[at..]
                        .find("\\end{itemize}")
                        .map_or(paper.len(), |e| at + e)]
                })
                .unwrap_or_else(|| panic!("paper.tex has no licence section"));
            assert!(
                licences.contains(&format!("{engine} here is")) && licences.contains(words),
                "paper.tex does not state {engine}'s licence"
            );
            assert!(
                paper.find("\\section*{Solver licences}") < paper.find("\\input{tables/"),
                "paper.tex states the licences after its tables"
            );
        }
    }
}
