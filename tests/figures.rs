//! Figures for papers: the PDF plots are real PDFs with the font embedded and the plot's
//! text extractable, the PGFPlots sources hold the series of the SVG, `--figures` picks the
//! formats, and `paper.tex` compiles where pdflatex with pgfplots is installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn puzzlebench(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args(args)
        .arg("--out")
        .arg(out)
        .current_dir(root())
        .output()
        .unwrap()
}

/// The report of the test CSV with the given `--figures`.
fn report(figures: &str) -> tempfile::TempDir {
    report_of("tests/data/report/results.csv", figures)
}

/// The report of the results file `csv` with the given `--figures`.
fn report_of(csv: &str, figures: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let o = puzzlebench(&["report", csv, "--figures", figures], dir.path());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir
}

/// The files of `dir/plots` with extension `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("plots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

use common::svg_texts;

#[test]
fn pdf_plots_embed_the_font_and_hold_their_text() {
    let dir = report("svg,pdf");
    let pdfs = files(dir.path(), "pdf");
    assert!(!pdfs.is_empty());
    assert_eq!(pdfs.len(), files(dir.path(), "svg").len());
    for pdf in &pdfs {
        let bytes = std::fs::read(pdf).unwrap();
        assert!(bytes.starts_with(b"%PDF-"), "{}", pdf.display());
        let doc =
            lopdf::Document::load_mem(&bytes).unwrap_or_else(|e| panic!("{}: {e}", pdf.display()));
        let embedded = doc.objects.values().any(|o| {
            o.as_dict()
                .is_ok_and(|d| d.has(b"FontFile2") || d.has(b"FontFile3") || d.has(b"FontFile"))
        });
        assert!(embedded, "{}: no embedded font", pdf.display());
        // svg2pdf places glyphs one by one, and the extraction puts spaces between them:
        // compared without any white space.
        let bare = |s: &str| s.split_whitespace().collect::<String>();
        let text = bare(&doc.extract_text(&[1]).unwrap());
        // Every text of the SVG (title, axis labels, series names) is in the PDF.
        for t in svg_texts(&read(&pdf.with_extension("svg"))) {
            let t = bare(&t);
            assert!(
                text.contains(&t),
                "{}: {t:?} missing from {text:?}",
                pdf.display()
            );
        }
    }
}

#[test]
fn pgf_sources_hold_the_series_and_points_of_the_svg() {
    let dir = report("svg,pgf");
    let texs = files(dir.path(), "tex");
    assert_eq!(texs.len(), files(dir.path(), "svg").len());
    for tex in &texs {
        let src = read(tex);
        let stem = tex.file_stem().unwrap().to_string_lossy().to_string();
        assert!(src.contains("\\begin{tikzpicture}") && src.contains("\\begin{axis}"));
        let data = format!("{{plots/{stem}.csv}}");
        assert!(src.contains(&data), "{stem}: no {data}");
        let svg = read(&tex.with_extension("svg"));
        let texts = svg_texts(&svg);
        // The legend: the SVG's series names, escaped for LaTeX.
        let entries: Vec<String> = src
            .lines()
            .filter_map(|l| l.strip_prefix("\\addlegendentry{")?.strip_suffix('}'))
            .map(|e| e.replace("\\_", "_"))
            .collect();
        assert!(!entries.is_empty(), "{stem}: no legend");
        for e in &entries {
            assert!(texts.contains(e), "{stem}: {e:?} not in {texts:?}");
        }
        // The time axis is logarithmic, as in the SVG.
        if texts.iter().any(|t| t == "time (s)") && stem.ends_with("time_vs_size") {
            assert!(src.contains("ymode=log"), "{stem}");
        }
        // As many markers as the SVG draws, less those of the legend.
        let csv = read(&tex.with_extension("csv"));
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let mut points = 0;
        for line in csv.lines().skip(1) {
            for (h, v) in header.iter().zip(line.split(',')) {
                if h.starts_with('y') && v != "nan" {
                    points += 1;
                }
            }
        }
        let legend_marks = src
            .lines()
            .filter(|l| l.starts_with("\\addlegendimage") && l.contains("mark=*"))
            .count();
        assert_eq!(
            svg.matches("<circle").count(),
            points + legend_marks,
            "{stem}"
        );
    }
}

#[test]
fn figures_pgf_writes_only_pgf() {
    let dir = report("pgf");
    assert!(!files(dir.path(), "tex").is_empty());
    assert_eq!(
        files(dir.path(), "tex").len(),
        files(dir.path(), "csv").len()
    );
    for ext in ["svg", "png", "pdf"] {
        assert!(files(dir.path(), ext).is_empty(), "{ext} written");
    }
    let paper = read(&dir.path().join("paper.tex"));
    assert!(paper.contains("\\input{plots/sudoku_time_vs_size.tex}"));
    assert!(paper.contains("\\input{tables/summary.tex}"));
    // Each figure's caption: its title, then which instances and configurations it draws.
    assert!(
        paper.contains("\\caption[sudoku: solve time against instance size,")
            && paper.contains("configurations that ran all of them"),
        "{paper}"
    );
}

#[test]
fn a_bad_figure_format_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o = puzzlebench(
        &[
            "report",
            "tests/data/report/results.csv",
            "--figures",
            "pdf,eps",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("eps") && err.contains("possible values"),
        "{err}"
    );
    assert!(!dir.path().join("README.md").exists());
}

/// Whether `pdflatex` runs and finds pgfplots.
fn latex_available() -> bool {
    let found = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    found("pdflatex", &["--version"]) && found("kpsewhich", &["pgfplots.sty"])
}

/// Compiles `dir/paper.tex` and checks that a PDF came out.
fn compile(dir: &Path) {
    let o = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "paper.tex"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "pdflatex failed:\n{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let pdf = std::fs::read(dir.join("paper.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
}

#[test]
fn paper_compiles_with_pgf_and_with_pdf_figures() {
    if !latex_available() {
        eprintln!("skipped: no pdflatex with pgfplots (scripts/setup-latex.sh installs them)");
        return;
    }
    for figures in ["pgf", "pdf"] {
        compile(report(figures).path());
    }
}

#[test]
fn paper_of_a_small_reproduce_compiles() {
    if !latex_available() {
        eprintln!("skipped: no pdflatex with pgfplots (scripts/setup-latex.sh installs them)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let o = puzzlebench(
        &[
            "reproduce",
            "--quick",
            "--puzzle",
            "zebra",
            "--time-limit",
            "1",
            "--quiet",
            "--figures",
            "pgf,pdf",
            "--race-budget",
            "10s",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    compile(dir.path());
}

/// The report of the committed example (`docs/example-report/results.csv`), its figures
/// in SVG.
fn example_report() -> tempfile::TempDir {
    report_of("docs/example-report/results.csv", "svg")
}

/// The cells of the column headed `header` of a Markdown table file, row by row.
fn column(table: &str, header: &str) -> Vec<String> {
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_string())
            .collect()
    };
    let mut lines = table.lines().filter(|l| l.starts_with('|'));
    let headers = cells(lines.next().expect("a header"));
    let at = headers
        .iter()
        .position(|h| h == header)
        .unwrap_or_else(|| panic!("no column {header:?} in {headers:?}"));
    lines.skip(1).map(|l| cells(l)[at].clone()).collect()
}

/// The number `n` of a cactus plot's axis label `instances solved (of n)`.
fn instances_of(svg: &str) -> usize {
    svg_texts(svg)
        .iter()
        .find_map(|t| {
            t.strip_prefix("instances solved (of ")?
                .strip_suffix(')')?
                .parse()
                .ok()
        })
        .expect("a count axis naming its instances")
}

/// The comparative figures of the example report are drawn on the overview's comparison
/// instances: each comparison cactus plot counts exactly the overview's instances, no
/// series climbs past their number (Sudoku's `binary` on HiGHS once climbed to 160 over
/// the report's own instances beside a winner that ran two), its legend starts with the overview's best, and the scatter plots the best
/// against the runner-up, both named in its title.
#[test]
fn example_comparative_figures_hold_only_the_comparison_instances() {
    let dir = example_report();
    let answers = read(&dir.path().join("tables/answers.md"));
    let puzzles = column(&answers, "puzzle");
    let best = column(&answers, "best configuration");
    let second = column(&answers, "runner-up");
    // The best's `solved` cell, `s/n` or `s/n (k stopped)`: n is the number of
    // comparison instances.
    let sizes = column(&answers, "solved");
    assert!(puzzles.contains(&"sudoku".to_string()), "{puzzles:?}");
    // A puzzle that asks several questions (n-Queens: `queens: base`, `queens:
    // least-walls`) has one comparison set per question, in the answers' order:
    // `comparison`, `comparison2`, ...
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    for (i, line) in puzzles.iter().enumerate() {
        let p = line.split(": ").next().unwrap().to_string();
        let k = seen.entry(p.clone()).or_default();
        *k += 1;
        let tag = match *k {
            1 => "comparison".to_string(),
            k => format!("comparison{k}"),
        };
        let cactus = read(&dir.path().join(format!("plots/{p}_{tag}_cactus.svg")));
        let n = instances_of(&cactus);
        // The comparison's instances as the overview counts them (a raced puzzle: those
        // its race's best and runner-up both ran).
        let counted: usize = sizes[i]
            .split('/')
            .nth(1)
            .and_then(|n| n.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{p}: no instance count in {:?}", sizes[i]));
        assert_eq!(n, counted, "{p}");
        let legend = common::legend_lines(&cactus);
        assert_eq!(legend[0].label, best[i], "{p}");
        for (k, g) in cactus.split(r#"<g class="series""#).skip(1).enumerate() {
            let g = &g[..g.find("</g>").unwrap()];
            // The example's series have filled markers (circles, triangles, squares,
            // diamonds): circles, polygons and rectangles.
            let markers = g.matches("<circle").count()
                + g.matches("<polygon").count()
                + g.matches("<rect").count();
            assert!(
                markers <= n,
                "{p}: {} draws {markers} of {n}",
                legend[k].label
            );
        }
        let scatter = svg_texts(&read(
            &dir.path().join(format!("plots/{p}_{tag}_scatter.svg")),
        ))
        .remove(0);
        let named = format!("{} (best) against {} (runner-up)", best[i], second[i]);
        assert!(scatter.contains(&named), "{p}: {scatter}");
    }
}

/// Every SVG file of the example report's plots.
fn svgs(dir: &Path) -> Vec<(PathBuf, String)> {
    files(dir, "svg")
        .into_iter()
        .map(|f| {
            let s = read(&f);
            (f, s)
        })
        .collect()
}

/// No legend of the example report gives two series one colour and one marker (legends
/// of 15 to 24 series reused ten colours), and every configuration's legend line shows its
/// marker, also where it solved nothing.
#[test]
fn example_legends_give_each_series_its_own_colour_and_marker() {
    let dir = example_report();
    for (file, svg) in svgs(dir.path()) {
        let clashes = common::legend_clashes(&svg);
        assert!(clashes.is_empty(), "{}: {clashes:?}", file.display());
        for l in common::legend_lines(&svg) {
            if l.label.contains(" on ") && !l.label.starts_with("y = x") {
                assert_ne!(l.marker, "none", "{}: {}", file.display(), l.label);
            }
        }
    }
}

/// Runs that count solutions (n-Queens' `highs-count1000`) do another task: no figure of
/// the example report draws them.
#[test]
fn example_figures_draw_no_counting_run() {
    let dir = example_report();
    let all = svgs(dir.path());
    assert!(all
        .iter()
        .any(|(f, _)| f.ends_with("queens_time_vs_size.svg")));
    for (file, svg) in all {
        assert!(!svg.contains("-count"), "{}", file.display());
    }
}
