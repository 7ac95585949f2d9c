//! The HTML report in a real browser: Debian's chromium, headless, opens every page from
//! the file system (no server); each page must run its script to the end with no script
//! error, load every figure, and every link and image must name a file that exists. Where
//! no chromium is installed (scripts/setup-browser.sh installs it; test.sh runs that), the
//! test says skipped with the reason.

mod common;

use common::{chromium, dump_dom, root_attribute};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `href` and `src` targets in a dumped DOM.
fn targets(dom: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
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

#[test]
fn every_page_opens_in_a_browser_with_its_figures_and_links() {
    let Some(chromium) = chromium() else {
        eprintln!(
            "skipped: no chromium installed (scripts/setup-browser.sh installs Debian's chromium)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let o = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .current_dir(root())
        .args([
            "report",
            "docs/example-report/results.csv",
            "--figures",
            "svg",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(printed.trim().ends_with("index.html"), "{printed}");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 11, "{pages:?}");
    let profile = dir.path().join("profile");
    let mut images = 0;
    for page in &pages {
        let dom = dump_dom(&chromium, page, &profile);
        let name = page.file_name().unwrap().to_string_lossy();
        if name == "circuit.html" {
            // Its time against size is inline, each point with the text hovering shows.
            let marks = dom.matches("data-series=").count();
            assert!(marks > 20, "circuit.html: {marks} hover marks");
            assert!(
                dom.contains("<title>c10x10_1 (size"),
                "circuit.html: no hover text"
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
    // Clicking a legend line of an inline figure hides its series, a second click shows it
    // (the page checks this itself when opened with #toggle-test).
    let page = out.join("circuit.html");
    let dom = dump_dom(
        &chromium,
        Path::new(&format!("{}#toggle-test", page.display())),
        &profile,
    );
    assert_eq!(
        root_attribute(&dom, "data-toggle"),
        Some("ok"),
        "series toggles"
    );
    // The overview answers first: its first table names a best configuration per puzzle.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for p in ["sudoku", "circuit", "hashi", "nonogram"] {
        assert!(index.contains(&format!("href=\"{p}.html\"")), "{p}");
    }
    // A best configuration and a runner-up ("formulation on engine") for each of the
    // eleven puzzles, whichever won in this report, and the interval of their ratio.
    let first = &index[index.find("<table").unwrap()..];
    let first = &first[..first.find("</table>").unwrap()];
    assert_eq!(first.matches(" on ").count(), 22, "{first}");
    assert!(index.contains("95 % CI"));
}
