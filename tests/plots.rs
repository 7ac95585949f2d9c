//! The report plots: which plots are written for which rows, and that the files are real
//! SVG and PNG images carrying the titles, labels and series names.

use puzzlebench::puzzles::size_units;
use puzzlebench::record::Record;
use puzzlebench::report::answer::{answers, instance_key, Answer, Chosen};
use puzzlebench::report::anytime::Timelines;
use puzzlebench::report::plots::{write_plots, write_plots_with, FigureFormat, Inputs, PlotFile};

/// The formats of the SVG and PNG checks.
const SVG_PNG: &[FigureFormat] = &[FigureFormat::Svg, FigureFormat::Png];

const PNG_MAGIC: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

mod common;

#[allow(clippy::too_many_arguments)]
fn row(
    puzzle: &str,
    instance: &str,
    size: f64,
    formulation: &str,
    backend: &str,
    repeat: u32,
    status: &str,
    seconds: f64,
) -> Record {
    Record {
        puzzle: puzzle.into(),
        instance: instance.into(),
        size: Some(size),
        size_label: format!("{size}"),
        formulation: formulation.into(),
        backend: backend.into(),
        repeat,
        status: status.into(),
        seconds: Some(seconds),
        time_limit: Some(10.0),
        verified: (status == "optimal").then_some(true),
        objective: Some(0.0),
        lp_bound: Some(0.0),
        ..Record::default()
    }
}

/// Sudoku: two formulations × two backends over five instances of four sizes, two repeats
/// each, and one time-limit failure (values on cbc, the 25×25 instance). Hashi: two
/// formulations on one backend, with a nonzero objective and an LP bound.
fn rows() -> Vec<Record> {
    let mut rows = Vec::new();
    let instances = [
        ("s4", 16.0),
        ("s9a", 81.0),
        ("s9b", 81.0),
        ("s16", 256.0),
        ("s25", 625.0),
    ];
    for (fi, f) in ["binary", "values"].iter().enumerate() {
        for (bi, b) in ["highs", "cbc"].iter().enumerate() {
            for (ii, (inst, size)) in instances.iter().enumerate() {
                for repeat in 1..=2 {
                    let t = 0.001 * size * (1.0 + fi as f64) * (1.0 + 0.5 * bi as f64)
                        + 0.0001 * (ii + repeat as usize) as f64;
                    let failed = *f == "values" && *b == "cbc" && *inst == "s25";
                    rows.push(if failed {
                        row("sudoku", inst, *size, f, b, repeat, "time_limit", 10.3)
                    } else {
                        row("sudoku", inst, *size, f, b, repeat, "optimal", t)
                    });
                }
            }
        }
    }
    for (f, factor) in [("base", 3.0), ("hdc", 1.0)] {
        for (inst, size) in [("h7", 49.0), ("h10", 100.0), ("h15", 225.0)] {
            let mut r = row(
                "hashi",
                inst,
                size,
                f,
                "highs",
                1,
                "optimal",
                factor * size / 100.0,
            );
            r.objective = Some(size / 2.0);
            r.lp_bound = Some(size / 2.0 * if f == "hdc" { 0.9 } else { 0.6 });
            rows.push(r);
        }
    }
    rows
}

fn stems(plots: &[PlotFile]) -> Vec<&str> {
    plots.iter().map(|p| p.stem.as_str()).collect()
}

fn svg_text(p: &PlotFile) -> String {
    let svg = p.file(FigureFormat::Svg).expect("an SVG");
    std::fs::read_to_string(svg).unwrap_or_else(|e| panic!("{}: {e}", svg.display()))
}

use common::svg_texts as texts;

/// The y axis' tick labels (plotters anchors them at their end, every other text at its
/// start or middle), bottom to top.
fn y_ticks(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter(|t| t[..t.find('>').unwrap_or(0)].contains(r#"text-anchor="end""#))
        .flat_map(|t| texts(&format!("<text{t}")))
        .collect()
}

fn has_text(svg: &str, text: &str) -> bool {
    texts(svg).iter().any(|t| t == text)
}

fn find<'a>(plots: &'a [PlotFile], stem: &str) -> &'a PlotFile {
    plots
        .iter()
        .find(|p| p.stem == stem)
        .unwrap_or_else(|| panic!("no plot {stem} in {:?}", stems(plots)))
}

#[test]
fn writes_the_expected_plots_in_a_stable_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let plots = write_plots(&rows(), &out, &size_units(), SVG_PNG).unwrap();
    assert_eq!(
        stems(&plots),
        [
            // Without the report's answers, each puzzle's figures are on the instances
            // the most configurations ran (`rest`): the figures against size, then the
            // cactus plot, the performance profile and the scatter of the best against
            // the runner-up.
            "hashi_time_vs_size",
            "hashi_lp_ratio",
            "hashi_rest_cactus",
            "hashi_rest_profile",
            "hashi_rest_scatter",
            "sudoku_time_vs_size",
            "sudoku_rest_cactus",
            "sudoku_rest_profile",
            "sudoku_rest_scatter",
        ]
    );
    for p in &plots {
        assert_eq!(
            p.files,
            [
                out.join(format!("{}.svg", p.stem)),
                out.join(format!("{}.png", p.stem))
            ]
        );
        assert!(!p.title.is_empty());
    }
    // Exactly these files, nothing else.
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut expected: Vec<String> = plots
        .iter()
        .flat_map(|p| [format!("{}.png", p.stem), format!("{}.svg", p.stem)])
        .collect();
    expected.sort();
    assert_eq!(files, expected);
}

#[test]
fn files_are_svg_and_png_images() {
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows(), dir.path(), &size_units(), SVG_PNG).unwrap();
    assert!(!plots.is_empty());
    for p in &plots {
        let svg = svg_text(p);
        let open = svg
            .find("<svg")
            .unwrap_or_else(|| panic!("{}: no <svg", p.stem));
        let close = svg
            .rfind("</svg>")
            .unwrap_or_else(|| panic!("{}: no </svg>", p.stem));
        assert!(open < close, "{}", p.stem);
        assert!(svg.contains(r#"width="800""#) && svg.contains(r#"height="520""#));
        assert!(svg.contains(&p.title), "{}: title missing", p.stem);
        let png = std::fs::read(p.file(FigureFormat::Png).unwrap()).unwrap();
        assert!(png.len() > 1000, "{}: PNG of {} bytes", p.stem, png.len());
        assert_eq!(png[..8], PNG_MAGIC, "{}", p.stem);
        // IHDR: width and height, big-endian, at bytes 16..24.
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 800);
        assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 520);
    }
}

#[test]
fn time_vs_size_names_every_series_and_its_axes() {
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows(), dir.path(), &size_units(), SVG_PNG).unwrap();
    let p = find(&plots, "sudoku_time_vs_size");
    assert_eq!(
        p.title,
        "sudoku: solve time against instance size, instances every configuration shown ran (5, 10 s limit)"
    );
    let svg = svg_text(p);
    for name in [
        "binary on highs",
        "binary on cbc",
        "values on highs",
        "values on cbc",
        "size (cells)",
        "time (s)",
        // The time-limit failure is marked and explained in the legend.
        "failed or stopped (at its time limit or a race cap)",
    ] {
        assert!(
            has_text(&svg, name),
            "{name:?} missing from {:?}",
            texts(&svg)
        );
    }
    let hashi = svg_text(find(&plots, "hashi_time_vs_size"));
    assert!(has_text(&hashi, "size (islands)"), "{:?}", texts(&hashi));
    assert!(hashi.contains("base on highs") && hashi.contains("hdc on highs"));
    assert!(!hashi.contains("failed or stopped"), "hashi has no failure");
}

#[test]
fn profiles_scatter_and_cactus_carry_their_series() {
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows(), dir.path(), &size_units(), SVG_PNG).unwrap();
    // Every configuration ran every instance: all four are compared, best first.
    let best_first = [
        "binary on highs",
        "binary on cbc",
        "values on highs",
        "values on cbc",
    ];
    let profile = svg_text(find(&plots, "sudoku_rest_profile"));
    assert!(profile.contains("performance ratio"));
    let labels = |svg: &str| -> Vec<String> {
        common::legend_lines(svg)
            .into_iter()
            .map(|l| l.label)
            .collect()
    };
    assert_eq!(labels(&profile), best_first);
    // The scatter: the best (x) against the runner-up (y), named in the title.
    let scatter = find(&plots, "sudoku_rest_scatter");
    assert!(
        scatter
            .title
            .contains("binary on highs (best) against binary on cbc (runner-up)"),
        "{}",
        scatter.title
    );
    let scatter = svg_text(scatter);
    assert!(has_text(&scatter, "binary on highs: time (s)"));
    assert!(has_text(&scatter, "binary on cbc: time (s)"));
    assert!(scatter.contains("y = x"));
    let cactus = svg_text(find(&plots, "sudoku_rest_cactus"));
    assert!(
        has_text(&cactus, "instances solved (of 5)"),
        "{:?}",
        texts(&cactus)
    );
    assert_eq!(labels(&cactus), best_first);
    let lp = svg_text(find(&plots, "hashi_lp_ratio"));
    assert!(lp.contains("LP bound / objective"));
}

#[test]
fn output_is_deterministic() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let mut shuffled = rows();
    shuffled.reverse();
    let pa = write_plots(&rows(), a.path(), &size_units(), SVG_PNG).unwrap();
    let pb = write_plots(&shuffled, b.path(), &size_units(), SVG_PNG).unwrap();
    assert_eq!(stems(&pa), stems(&pb));
    for (x, y) in pa.iter().zip(&pb) {
        assert_eq!(
            svg_text(x),
            svg_text(y),
            "{} differs with row order",
            x.stem
        );
    }
}

#[test]
fn no_rows_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let plots = write_plots(&[], &out, &size_units(), SVG_PNG).unwrap();
    assert!(plots.is_empty());
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}

#[test]
fn one_series_gives_no_comparisons_and_no_lp_ratio_for_zero_objectives() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<Record> = rows()
        .into_iter()
        .filter(|r| r.puzzle == "sudoku" && r.formulation == "binary" && r.backend == "highs")
        .collect();
    let plots = write_plots(&rows, dir.path(), &size_units(), SVG_PNG).unwrap();
    assert_eq!(stems(&plots), ["sudoku_time_vs_size", "sudoku_rest_cactus"]);
    assert!(!dir.path().join("sudoku_lp_ratio.svg").exists());
}

#[test]
fn all_failures_still_plot_time_but_no_cactus() {
    let dir = tempfile::tempdir().unwrap();
    let rows = vec![
        row(
            "sudoku",
            "x",
            81.0,
            "binary",
            "highs",
            1,
            "time_limit",
            10.1,
        ),
        row("sudoku", "y", 256.0, "binary", "highs", 1, "error", 0.0),
    ];
    let plots = write_plots(&rows, dir.path(), &size_units(), SVG_PNG).unwrap();
    assert_eq!(stems(&plots), ["sudoku_time_vs_size"]);
}

/// Formulations that each ran on an engine of their own (the Circuit Board's `cm1` on `bc`,
/// `cm2` on `highs`) are still compared: a scatter of the two and a profile over both.
#[test]
fn formulations_on_engines_of_their_own_are_compared() {
    let mut rows = Vec::new();
    for (i, inst) in ["c1", "c2", "c3"].iter().enumerate() {
        let size = 10.0 * (i + 1) as f64;
        rows.push(row(
            "circuit",
            inst,
            size,
            "cm1",
            "bc",
            1,
            "optimal",
            0.01 * size,
        ));
        rows.push(row(
            "circuit",
            inst,
            size,
            "cm2",
            "highs",
            1,
            "optimal",
            0.1 * size,
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows, dir.path(), &size_units(), SVG_PNG).unwrap();
    let svg = svg_text(find(&plots, "circuit_rest_scatter"));
    assert!(has_text(&svg, "cm1 on bc: time (s)"), "{:?}", texts(&svg));
    assert!(has_text(&svg, "cm2 on highs: time (s)"));
    let svg = svg_text(find(&plots, "circuit_rest_profile"));
    assert!(has_text(&svg, "cm1 on bc") && has_text(&svg, "cm2 on highs"));
}

/// Hashi's rows with two more formulations on HiGHS, `cuts` and `cuts-hdc`, on the same
/// three boards (LP bound / objective 0.75), whose run on h10 failed with an objective the
/// verifier refused (`cuts`) or never checked (`cuts-hdc`), and an LP bound of a tenth of it.
fn rows_with_unverified_objectives() -> Vec<Record> {
    let mut rows = rows();
    for (f, verified) in [("cuts", Some(false)), ("cuts-hdc", None)] {
        for (inst, size) in [("h7", 49.0), ("h10", 100.0), ("h15", 225.0)] {
            let mut r = row("hashi", inst, size, f, "highs", 1, "optimal", size / 100.0);
            r.objective = Some(size / 2.0);
            r.lp_bound = Some(size / 2.0 * 0.75);
            if inst == "h10" {
                r.status = "time_limit".into();
                r.verified = verified;
                r.lp_bound = Some(size / 20.0);
            }
            rows.push(r);
        }
    }
    rows
}

/// An objective the verifier refused (or never checked) says nothing about the relaxation:
/// such rows are left out of the LP-ratio plot, though they still show as failures in the
/// time plot.
#[test]
fn lp_ratio_leaves_out_unverified_objectives() {
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(
        &rows_with_unverified_objectives(),
        dir.path(),
        &size_units(),
        SVG_PNG,
    )
    .unwrap();
    let lp = svg_text(find(&plots, "hashi_lp_ratio"));
    for name in ["base", "hdc", "cuts", "cuts-hdc"] {
        assert!(has_text(&lp, name), "{name} not in {:?}", texts(&lp));
    }
    // The verified ratios are 0.6, 0.75 and 0.9; the refused one (0.1) would widen the axis.
    assert!(
        !has_text(&lp, "0.1") && !has_text(&lp, "0.2"),
        "{:?}",
        texts(&lp)
    );
    let time = svg_text(find(&plots, "hashi_time_vs_size"));
    assert!(has_text(&time, "cuts on highs") && has_text(&time, "cuts-hdc on highs"));
    assert!(has_text(
        &time,
        "failed or stopped (at its time limit or a race cap)"
    ));
}

/// Times under a millisecond are read off labelled ticks: the time axis starts at a
/// labelled power at or below the fastest run, and small ticks read 0.0001, not 1e-4 or
/// 0.000.
#[test]
fn time_axis_is_labelled_below_a_millisecond() {
    let rows: Vec<Record> = [(10.0, 0.0003), (20.0, 0.002), (30.0, 0.05)]
        .iter()
        .map(|&(size, t)| {
            row(
                "hashi",
                &format!("h{size}"),
                size,
                "base",
                "highs",
                1,
                "optimal",
                t,
            )
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows, dir.path(), &size_units(), SVG_PNG).unwrap();
    let svg = svg_text(find(&plots, "hashi_time_vs_size"));
    assert_eq!(y_ticks(&svg), ["0.0001", "0.001", "0.01"]);
    let svg = svg_text(find(&plots, "hashi_rest_cactus"));
    assert!(has_text(&svg, "0.0001"), "{:?}", texts(&svg));
}

const CLAMP_NOTE: &str = "times below 0.0001 s are drawn at 0.0001 s";

/// A time under the floor of the log axes (10⁻⁴ s) is drawn at the floor, and each plot
/// that draws one says so; plots without such a time say nothing.
#[test]
fn times_drawn_at_the_floor_are_noted() {
    let fast = |mut rows: Vec<Record>| {
        let r = rows
            .iter_mut()
            .find(|r| r.puzzle == "hashi" && r.formulation == "hdc")
            .unwrap();
        r.seconds = Some(1e-5);
        rows
    };
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&fast(rows()), dir.path(), &size_units(), SVG_PNG).unwrap();
    for stem in [
        "hashi_time_vs_size",
        "hashi_rest_cactus",
        "hashi_rest_scatter",
    ] {
        let svg = svg_text(find(&plots, stem));
        assert!(has_text(&svg, CLAMP_NOTE), "{stem}: {:?}", texts(&svg));
    }
    // Neither the LP ratio nor the other puzzle draws that time.
    for stem in [
        "hashi_lp_ratio",
        "hashi_rest_profile",
        "sudoku_time_vs_size",
    ] {
        let svg = svg_text(find(&plots, stem));
        assert!(!svg.contains("drawn at"), "{stem}");
    }
    let dir = tempfile::tempdir().unwrap();
    for p in write_plots(&rows(), dir.path(), &size_units(), SVG_PNG).unwrap() {
        assert!(!svg_text(&p).contains("drawn at"), "{}", p.stem);
    }
}

/// The size axis names what each puzzle's size counts, as the puzzle declares it; a puzzle
/// the registry does not know gets a bare `size`.
#[test]
fn size_axis_names_the_unit_of_each_puzzle() {
    let puzzles = [
        ("sudoku", "size (cells)"),
        ("battleship", "size (cells)"),
        ("circuit", "size (points)"),
        ("hashi", "size (islands)"),
        ("zebra", "size (houses × attributes)"),
        ("kakuro", "size"),
    ];
    let mut rows = Vec::new();
    for (puzzle, _) in puzzles {
        for (i, size) in [10.0, 20.0].iter().enumerate() {
            let mut r = row(
                puzzle,
                &format!("i{i}"),
                *size,
                "f",
                "highs",
                1,
                "optimal",
                0.1,
            );
            r.objective = Some(*size);
            r.lp_bound = Some(0.5 * size);
            rows.push(r);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows, dir.path(), &size_units(), SVG_PNG).unwrap();
    for (puzzle, label) in puzzles {
        for kind in ["time_vs_size", "lp_ratio"] {
            let svg = svg_text(find(&plots, &format!("{puzzle}_{kind}")));
            assert!(has_text(&svg, label), "{puzzle} {kind}: {:?}", texts(&svg));
        }
    }
}

/// A report's Sudoku rows: the comparison (c1, c2 at a 2 s limit) run by seven
/// configurations on four engines, `combinations on sat` the fastest; the report's part
/// (r0 … r5 at 60 s) run by `binary` and `values` on HiGHS, and `combinations` on HiGHS on
/// r0 and r1 only.
fn report_rows() -> Vec<Record> {
    let mut rows = Vec::new();
    let mut add = |inst: &str, size: f64, f: &str, b: &str, limit: f64, t: f64| {
        let mut r = row("sudoku", inst, size, f, b, 1, "optimal", t);
        r.time_limit = Some(limit);
        rows.push(r);
    };
    let compared = [
        ("combinations", "sat"),
        ("binary", "highs"),
        ("values", "highs"),
        ("binary", "cbc"),
        ("values", "cbc"),
        ("binary", "sat"),
        ("values", "sat"),
    ];
    for (i, inst) in ["c1", "c2"].iter().enumerate() {
        for (k, (f, b)) in compared.iter().enumerate() {
            add(
                inst,
                256.0,
                f,
                b,
                2.0,
                0.01 * (k + 1) as f64 + 0.001 * i as f64,
            );
        }
    }
    for i in 0..6 {
        let inst = format!("r{i}");
        let size = 81.0 * (i + 1) as f64;
        add(&inst, size, "binary", "highs", 60.0, 0.001 * size);
        add(&inst, size, "values", "highs", 60.0, 0.002 * size);
        if i < 2 {
            add(&inst, size, "combinations", "highs", 60.0, 0.003 * size);
        }
    }
    rows
}

/// The answers of `rows` with c1 and c2 at 2 s as the suite's comparison.
fn report_answers(rows: &[Record]) -> Vec<Answer> {
    let chosen = Chosen {
        puzzle: "sudoku".into(),
        suite: "quick".into(),
        names: [instance_key("c1", Some(2.0)), instance_key("c2", Some(2.0))].into(),
        how: "Two 16×16 Sudokus.".into(),
    };
    answers(rows, &[chosen], 0.01)
}

/// The plots of `rows` as the report writes them, with its `answers`.
fn report_plots(rows: &[Record], answers: &[Answer], dir: &std::path::Path) -> Vec<PlotFile> {
    let inputs = Inputs {
        timelines: &Timelines::default(),
        answers,
        tables: &[],
        shift: 0.01,
        races: &[],
    };
    write_plots_with(rows, &inputs, dir, &size_units(), &[FigureFormat::Svg]).unwrap()
}

/// The markers each series of an SVG plot draws (its `<g class="series">` group's circles,
/// polygons and rectangles).
fn markers_per_series(svg: &str) -> Vec<usize> {
    svg.split(r#"<g class="series""#)
        .skip(1)
        .map(|g| {
            let g = &g[..g.find("</g>").unwrap_or(g.len())];
            ["<circle", "<polygon", "<rect"]
                .iter()
                .map(|m| g.matches(m).count())
                .sum()
        })
        .collect()
}

fn legend_labels(svg: &str) -> Vec<String> {
    common::legend_lines(svg)
        .into_iter()
        .map(|l| l.label)
        .collect()
}

/// The comparative figures are drawn on one instance set each, named in the title: the
/// overview's comparison instances with the configurations it ranks, best first, and the
/// instances outside it with the configurations that ran all of them; the scatter on the
/// comparison is the best against the runner-up. No series of the comparison's cactus
/// climbs past its two instances.
#[test]
fn comparative_figures_are_drawn_on_the_answers_instances() {
    let rows = report_rows();
    let answers = report_answers(&rows);
    let a = &answers[0];
    assert_eq!(a.best().config.to_string(), "combinations on sat");
    let dir = tempfile::tempdir().unwrap();
    let plots = report_plots(&rows, &answers, dir.path());
    assert_eq!(
        stems(&plots),
        [
            "sudoku_time_vs_size",
            "sudoku_comparison_cactus",
            "sudoku_comparison_profile",
            "sudoku_comparison_scatter",
            "sudoku_rest_cactus",
            "sudoku_rest_profile",
            "sudoku_rest_scatter",
        ]
    );
    let ranked: Vec<String> = a.standings.iter().map(|s| s.config.to_string()).collect();
    for stem in ["sudoku_comparison_cactus", "sudoku_comparison_profile"] {
        let p = find(&plots, stem);
        assert!(p.title.ends_with("comparison instances (2)"), "{}", p.title);
        assert!(p.caption.contains("c1, c2"), "{}", p.caption);
        assert_eq!(legend_labels(&svg_text(p)), ranked, "{stem}");
    }
    let cactus = svg_text(find(&plots, "sudoku_comparison_cactus"));
    assert!(has_text(&cactus, "instances solved (of 2)"));
    let markers = markers_per_series(&cactus);
    assert_eq!(markers.len(), ranked.len());
    assert!(markers.iter().all(|&m| m == 2), "{markers:?}");
    let scatter = find(&plots, "sudoku_comparison_scatter");
    let r = a.runner_up().unwrap();
    let named = format!(
        "{} (best) against {} (runner-up)",
        a.best().config,
        r.config
    );
    assert!(scatter.title.contains(&named), "{}", scatter.title);
    // Outside the comparison: the six instances, by the two configurations that ran all
    // of them; combinations on HiGHS ran two and is named as left out.
    for stem in [
        "sudoku_rest_cactus",
        "sudoku_rest_profile",
        "sudoku_time_vs_size",
    ] {
        let p = find(&plots, stem);
        assert!(
            p.title
                .ends_with("instances outside the comparison (6, 60 s limit)"),
            "{}",
            p.title
        );
        assert!(
            p.caption
                .contains("Not drawn, having run only some of them: combinations on highs."),
            "{}",
            p.caption
        );
        let svg = svg_text(p);
        assert_eq!(legend_labels(&svg), ["binary on highs", "values on highs"]);
        assert!(
            has_text(
                &svg,
                "not drawn, having run only some of these instances: combinations on highs"
            ),
            "{stem}: {:?}",
            texts(&svg)
        );
    }
    let rest = svg_text(find(&plots, "sudoku_rest_cactus"));
    assert!(has_text(&rest, "instances solved (of 6)"));
    assert_eq!(markers_per_series(&rest), [6, 6]);
}

/// `formulations` × `engines` configurations on three instances, all solved but by the
/// last (`f<formulations-1> on e<engines-1>`), which solved none.
fn many_configurations(formulations: usize, engines: usize) -> Vec<Record> {
    let mut rows = Vec::new();
    for f in 0..formulations {
        for e in 0..engines {
            for (i, size) in [10.0, 20.0, 40.0].iter().enumerate() {
                let t = 0.01 * (1 + f * engines + e) as f64 * (1.0 + i as f64);
                let (status, t) = if (f, e) == (formulations - 1, engines - 1) {
                    ("time_limit", 10.0)
                } else {
                    ("optimal", t)
                };
                rows.push(row(
                    "sudoku",
                    &format!("i{i}"),
                    *size,
                    &format!("f{f}"),
                    &format!("e{e}"),
                    1,
                    status,
                    t,
                ));
            }
        }
    }
    rows
}

/// The SVG and PNG plots of `rows`, in a temporary folder (kept while it lives).
fn plots_of(rows: &[Record]) -> (tempfile::TempDir, Vec<PlotFile>) {
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(rows, dir.path(), &size_units(), SVG_PNG).unwrap();
    (dir, plots)
}

/// No legend gives two series one colour and one marker, even with twenty series (more
/// than the colours), and a series looks the same in every figure of its puzzle (twenty
/// configurations, four formulations on five engines).
#[test]
fn every_legend_line_has_its_own_colour_and_marker() {
    let (_dir, plots) = plots_of(&many_configurations(4, 5));
    let mut look: std::collections::BTreeMap<String, (String, String)> = Default::default();
    for p in &plots {
        let svg = svg_text(p);
        let clashes = common::legend_clashes(&svg);
        assert!(clashes.is_empty(), "{}: {clashes:?}", p.stem);
        for l in common::legend_lines(&svg) {
            if p.stem.ends_with("_scatter") {
                continue;
            }
            let seen = look
                .entry(l.label.clone())
                .or_insert((l.color.clone(), l.marker.clone()));
            assert_eq!(*seen, (l.color, l.marker), "{}: {}", p.stem, l.label);
        }
    }
    assert_eq!(look.len(), 20, "{:?}", look.keys());
}

/// A configuration that solved nothing keeps its line in the legend, with its marker, in
/// the cactus plot (where it draws no step) and in the time plot (where it draws crosses).
#[test]
fn a_series_that_solved_nothing_keeps_its_legend_marker() {
    let (_dir, plots) = plots_of(&many_configurations(4, 5));
    for stem in ["sudoku_rest_cactus", "sudoku_time_vs_size"] {
        let svg = svg_text(find(&plots, stem));
        let line = common::legend_lines(&svg)
            .into_iter()
            .find(|l| l.label == "f3 on e4")
            .unwrap_or_else(|| panic!("{stem}: no legend line for f3 on e4"));
        assert_ne!(line.marker, "none", "{stem}");
    }
}

/// The LP bound / objective depends on the formulation only: one series per formulation,
/// whichever engines ran it, and a note that says whether the engines' LP bounds agree.
#[test]
fn lp_ratio_has_one_series_per_formulation_and_says_when_engines_differ() {
    let mut rows: Vec<Record> = rows().into_iter().filter(|r| r.puzzle == "hashi").collect();
    let on_cbc: Vec<Record> = rows
        .iter()
        .map(|r| Record {
            backend: "cbc".into(),
            seconds: r.seconds.map(|s| 2.0 * s),
            ..r.clone()
        })
        .collect();
    rows.extend(on_cbc);
    let (_dir, plots) = plots_of(&rows);
    let svg = svg_text(find(&plots, "hashi_lp_ratio"));
    let mut labels = legend_labels(&svg);
    labels.sort();
    assert_eq!(labels, ["base", "hdc"]);
    assert!(
        has_text(
            &svg,
            "two or more engines solved the LP on 3 instances: their LP bounds agree (within 1e-6, relative)"
        ),
        "{:?}",
        texts(&svg)
    );
    // CBC's LP bound of base on h10 a little higher: said, not hidden.
    let r = rows
        .iter_mut()
        .find(|r| r.backend == "cbc" && r.formulation == "base" && r.instance == "h10")
        .unwrap();
    r.lp_bound = r.lp_bound.map(|b| b + 0.5);
    let (_dir, plots) = plots_of(&rows);
    let svg = svg_text(find(&plots, "hashi_lp_ratio"));
    assert!(
        texts(&svg)
            .iter()
            .any(|t| t.starts_with("LP bounds of different engines differ on 1 of 3 instances")),
        "{:?}",
        texts(&svg)
    );
}

/// Runs that count solutions do another task, and a refused run searched nothing: no
/// figure draws either, and the captions say that counting runs are left out.
#[test]
fn counting_and_refused_runs_are_in_no_figure() {
    let mut rows = rows();
    let base: Vec<Record> = rows
        .iter()
        .filter(|r| r.puzzle == "sudoku" && r.formulation == "binary" && r.backend == "highs")
        .cloned()
        .collect();
    for r in &base {
        rows.push(Record {
            count: 1000,
            seconds: r.seconds.map(|s| 5.0 * s),
            ..r.clone()
        });
        rows.push(Record {
            backend: "glpk".into(),
            status: "refused".into(),
            verified: None,
            error: Some("refused: not on this engine".into()),
            ..r.clone()
        });
    }
    let (_dir, plots) = plots_of(&rows);
    assert!(plots.iter().any(|p| p.stem == "sudoku_rest_cactus"));
    for p in &plots {
        let svg = svg_text(p);
        for name in ["count1000", "glpk"] {
            assert!(
                !svg.contains(name),
                "{}: {name} in {:?}",
                p.stem,
                texts(&svg)
            );
        }
        if p.stem.starts_with("sudoku") {
            assert!(p.caption.contains("count solutions"), "{}", p.caption);
            assert!(p.caption.contains("Refused runs"), "{}", p.caption);
        }
    }
}

/// The SVG, inlined in a page, shrinks to the width of its container and keeps its
/// proportions: its root element has a `viewBox` and a style that lets it scale down;
/// the PNG keeps its 800 × 520 pixels.
#[test]
fn svg_scales_down_to_its_container() {
    let (_dir, plots) = plots_of(&rows());
    for p in &plots {
        let svg = svg_text(p);
        let root = &svg[svg.find("<svg").unwrap()..];
        let root = &root[..root.find('>').unwrap()];
        assert!(
            root.contains(r#"viewBox="0 0 800 520""#),
            "{}: {root}",
            p.stem
        );
        assert!(
            root.contains("max-width: 100%") && root.contains("height: auto"),
            "{}: {root}",
            p.stem
        );
        let png = std::fs::read(p.file(FigureFormat::Png).unwrap()).unwrap();
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 800);
    }
}

/// A legend of 29 lines (28 configurations and the failures' cross) fits in the image: its
/// lines move closer together (22 pixels apart, 638 in all, would run off the 520).
#[test]
fn a_long_legend_fits_in_the_image() {
    let (_dir, plots) = plots_of(&many_configurations(4, 7));
    let svg = svg_text(find(&plots, "sudoku_time_vs_size"));
    assert_eq!(common::legend_lines(&svg).len(), 28);
    assert!(has_text(
        &svg,
        "failed or stopped (at its time limit or a race cap)"
    ));
    // The y of each legend line's text.
    let mut lowest = 0.0f64;
    for entry in svg.split(r#"<g class="legend-entry""#).skip(1) {
        let text = &entry[entry.find("<text").unwrap()..];
        let at = text.find(" y=\"").unwrap() + 4;
        let y: f64 = text[at..at + text[at..].find('"').unwrap()]
            .parse()
            .unwrap();
        lowest = lowest.max(y);
    }
    assert!(
        lowest > 400.0 && lowest < 510.0,
        "lowest legend text at y {lowest}"
    );
}
