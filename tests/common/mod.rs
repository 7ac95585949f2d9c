//! Helpers shared by the integration tests (each test file that needs them says
//! `mod common;`; each uses some of them, hence no dead-code warnings here).
#![allow(dead_code)]

use puzzlebench::table::Table;
use std::path::Path;

/// Compares each table's Markdown and LaTeX with `DIR/STEM.md` and `DIR/STEM.tex`; with
/// the environment variable UPDATE_SNAPSHOTS set, writes them first (after an intended
/// change of a table).
pub fn assert_snapshots(tables: &[Table], dir: &Path) {
    let update = std::env::var("UPDATE_SNAPSHOTS").is_ok();
    for t in tables {
        for (ext, text) in [("md", t.to_markdown()), ("tex", t.to_latex())] {
            let path = dir.join(format!("{}.{ext}", t.stem));
            if update {
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(&path, &text).unwrap();
            }
            let want = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("missing snapshot {}", path.display()));
            assert_eq!(text, want, "{} differs from its snapshot", path.display());
        }
    }
}

/// The first instance of a committed file under `instances/`.
pub fn first(puzzle: &str, file: &str) -> Box<dyn puzzlebench::puzzles::Instance> {
    let p = puzzlebench::puzzles::puzzle(puzzle).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances")
        .join(file);
    p.load(&path).unwrap().remove(0)
}

/// The contents of an SVG's `<text>` elements, trimmed.
pub fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

/// The `puzzlebench` binary under test, run from the repository's root.
pub fn pb() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlebench"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Every row of a results CSV (or of its gzip-compressed copy, as the example report may
/// store it: [`puzzlebench::gz`]).
pub fn rows(path: &Path) -> Vec<puzzlebench::record::Record> {
    csv::Reader::from_reader(puzzlebench::gz::open(path).unwrap().1)
        .deserialize()
        .map(|r| r.unwrap())
        .collect()
}

/// A process's standard error as text.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Each `(file name, text, wanted)`: written to a temporary folder, `solve --puzzle
/// PUZZLE` on it exits 2 with one error that names the file and contains `wanted`.
pub fn assert_bad_files(puzzle: &str, cases: &[(&str, &str, &str)]) {
    let dir = std::env::temp_dir().join(format!("pb-bad-{puzzle}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let o = pb()
            .args(["solve", path.to_str().unwrap(), "--puzzle", puzzle])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(name) && err.contains(want), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The instance files in `instances/FOLDER`, sorted, README files left out.
#[allow(dead_code)]
pub fn instance_files(folder: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    files.sort();
    files
}

/// One solve checked against a brute force's list of every solution (`all`): with none
/// the run is infeasible; else it is optimal, its grid (`grid`) is one of them, and, asked
/// to count up to 3, it found min(|all|, 3). `what` names the run in a failure.
#[allow(dead_code)]
pub fn assert_matches_brute_force<G: PartialEq + std::fmt::Debug>(
    r: &puzzlebench::puzzles::RunResult,
    all: &[G],
    grid: impl FnOnce(&puzzlebench::puzzles::RunResult) -> G,
    what: &str,
) {
    use puzzlebench::engines::Status;
    if all.is_empty() {
        assert_eq!(r.outcome.status, Status::Infeasible, "{what}");
        return;
    }
    assert_eq!(r.outcome.status, Status::Optimal, "{what}");
    assert!(all.contains(&grid(r)), "{what}");
    assert_eq!(r.outcome.solutions, Some(all.len().min(3) as u64), "{what}");
}

/// The chromium executable, if one is installed (scripts/setup-browser.sh installs
/// Debian's).
pub fn chromium() -> Option<std::path::PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(std::path::PathBuf::from)
        .find(|p| p.exists())
}

/// The DOM of `page` after its scripts ran, as chromium headless dumps it, with its
/// profile in `profile`.
pub fn dump_dom(chromium: &Path, page: &Path, profile: &Path) -> String {
    dump_dom_at(chromium, page, profile, 1400)
}

/// [`dump_dom`] in a window `width` pixels wide (900 high).
pub fn dump_dom_at(chromium: &Path, page: &Path, profile: &Path, width: u32) -> String {
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--window-size={width},900"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed on {}: {}",
        page.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The value of attribute `name` on the root element of a dumped DOM.
pub fn root_attribute<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let start = dom.find("<html")?;
    let tag = &dom[start..start + dom[start..].find('>')?];
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// One line of the legend of an SVG plot the report drew: its text, the colour of its
/// marker (of its line where it has no marker) and its marker's shape (`none` without one:
/// the element, its number of points, filled or open).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LegendLine {
    pub label: String,
    pub color: String,
    pub marker: String,
}

/// The value of attribute `name` in an element's attributes.
fn attribute<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let at = attrs.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&attrs[at..at + attrs[at..].find('"')?])
}

/// The legend lines of the series of an SVG plot (`<g class="legend-entry">` groups), in
/// order; the line of the failures' crosses, which names no series, is not among them.
pub fn legend_lines(svg: &str) -> Vec<LegendLine> {
    svg.split(r#"<g class="legend-entry""#)
        .skip(1)
        .map(|entry| {
            let entry = &entry[..entry.find("</g>").unwrap_or(entry.len())];
            let mut line = LegendLine {
                label: svg_texts(entry).concat(),
                color: String::new(),
                marker: "none".into(),
            };
            for element in entry.split('<').skip(1) {
                let (tag, attrs) = element.split_once(' ').unwrap_or((element, ""));
                let attrs = format!(" {attrs}");
                let points =
                    attribute(&attrs, "points").map_or(0, |p| p.split_whitespace().count());
                let fill = attribute(&attrs, "fill").unwrap_or("none");
                let stroke = attribute(&attrs, "stroke").unwrap_or("none");
                match tag {
                    // A sample of the series' line (a dashed one is drawn in pieces, which
                    // the SVG file joins into one path), whose colour counts where there
                    // is no marker.
                    "polyline" | "line" | "path" if points <= 2 && line.marker == "none" => {
                        line.color = stroke.to_string();
                    }
                    "polyline" | "line" | "path" if points <= 2 => {}
                    "circle" | "rect" | "polygon" | "polyline" => {
                        let filled = fill != "none";
                        line.color = if filled { fill } else { stroke }.to_string();
                        line.marker =
                            format!("{tag}{points}{}", if filled { " filled" } else { " open" });
                    }
                    _ => {}
                }
            }
            line
        })
        .collect()
}

/// The pairs of legend lines of an SVG plot that share a colour and a marker.
pub fn legend_clashes(svg: &str) -> Vec<(String, String)> {
    let lines = legend_lines(svg);
    let mut clashes = Vec::new();
    for (i, a) in lines.iter().enumerate() {
        for b in &lines[i + 1..] {
            if a.color == b.color && a.marker == b.marker {
                clashes.push((a.label.clone(), b.label.clone()));
            }
        }
    }
    clashes
}
