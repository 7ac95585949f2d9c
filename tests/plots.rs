//! The report plots: which plots are written for which rows, and that the files are real
//! SVG and PNG images carrying the titles, labels and series names.

use puzzlebench::puzzles::size_units;
use puzzlebench::record::Record;
use puzzlebench::report::plots::{write_plots, FigureFormat, PlotFile};

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
            "hashi_time_vs_size",
            "hashi_lp_ratio",
            "hashi_profile_highs",
            "hashi_cactus",
            "hashi_scatter_highs_base_vs_hdc",
            // Plots chosen for what they show: the formulations on the main engine (cbc
            // and highs ran as many runs: the first in key order), the engines on the
            // formulation run on the most engines (binary, the first of a tie), one
            // scatter on the main engine.
            "sudoku_time_vs_size",
            "sudoku_profile_cbc",
            "sudoku_profile_binary",
            "sudoku_cactus",
            "sudoku_scatter_cbc_binary_vs_values",
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
    assert_eq!(p.title, "sudoku: solve time against instance size");
    let svg = svg_text(p);
    for name in [
        "binary / highs",
        "binary / cbc",
        "values / highs",
        "values / cbc",
        "size (cells)",
        "time (s)",
        // The time-limit failure is marked and explained in the legend.
        "failed (charged the time limit)",
    ] {
        assert!(
            has_text(&svg, name),
            "{name:?} missing from {:?}",
            texts(&svg)
        );
    }
    let hashi = svg_text(find(&plots, "hashi_time_vs_size"));
    assert!(has_text(&hashi, "size (islands)"), "{:?}", texts(&hashi));
    assert!(hashi.contains("base / highs") && hashi.contains("hdc / highs"));
    assert!(!hashi.contains("failed (charged"), "hashi has no failure");
}

#[test]
fn profiles_scatter_and_cactus_carry_their_series() {
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows(), dir.path(), &size_units(), SVG_PNG).unwrap();
    let by_backend = svg_text(find(&plots, "sudoku_profile_cbc"));
    assert!(has_text(&by_backend, "binary") && has_text(&by_backend, "values"));
    assert!(!has_text(&by_backend, "highs"), "cbc profile shows highs");
    assert!(by_backend.contains("performance ratio"));
    let by_formulation = svg_text(find(&plots, "sudoku_profile_binary"));
    assert!(has_text(&by_formulation, "highs") && has_text(&by_formulation, "cbc"));
    let scatter = svg_text(find(&plots, "sudoku_scatter_cbc_binary_vs_values"));
    assert!(scatter.contains("binary: time (s)") && scatter.contains("values: time (s)"));
    assert!(scatter.contains("y = x"));
    assert!(scatter.contains("a run failed"));
    let cactus = svg_text(find(&plots, "sudoku_cactus"));
    assert!(cactus.contains("instances solved") && cactus.contains("values / cbc"));
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
    assert_eq!(stems(&plots), ["sudoku_time_vs_size", "sudoku_cactus"]);
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
    let svg = svg_text(find(&plots, "circuit_scatter_cm1_bc_vs_cm2_highs"));
    assert!(has_text(&svg, "cm1 on bc: time (s)"), "{:?}", texts(&svg));
    assert!(has_text(&svg, "cm2 on highs: time (s)"));
    let svg = svg_text(find(&plots, "circuit_profile_engines"));
    assert!(has_text(&svg, "cm1 on bc") && has_text(&svg, "cm2 on highs"));
}

/// An objective the verifier refused (or never checked) says nothing about the relaxation:
/// such rows are left out of the LP-ratio plot, though they still show as failures in the
/// time plot.
#[test]
fn lp_ratio_leaves_out_unverified_objectives() {
    let mut rows = rows();
    for (f, verified) in [("cuts", Some(false)), ("cuts-hdc", None)] {
        let mut r = row("hashi", "h10", 100.0, f, "highs", 1, "time_limit", 10.0);
        r.verified = verified;
        r.objective = Some(50.0);
        r.lp_bound = Some(5.0);
        rows.push(r);
    }
    let dir = tempfile::tempdir().unwrap();
    let plots = write_plots(&rows, dir.path(), &size_units(), SVG_PNG).unwrap();
    let lp = svg_text(find(&plots, "hashi_lp_ratio"));
    assert!(has_text(&lp, "base / highs") && has_text(&lp, "hdc / highs"));
    for name in ["cuts / highs", "cuts-hdc / highs"] {
        assert!(!has_text(&lp, name), "{name} in {:?}", texts(&lp));
    }
    // The verified ratios are 0.6 and 0.9; the refused one (0.1) would widen the axis.
    assert!(
        !has_text(&lp, "0.1") && !has_text(&lp, "0.2"),
        "{:?}",
        texts(&lp)
    );
    let time = svg_text(find(&plots, "hashi_time_vs_size"));
    assert!(has_text(&time, "cuts / highs") && has_text(&time, "cuts-hdc / highs"));
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
    let svg = svg_text(find(&plots, "hashi_cactus"));
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
        "hashi_cactus",
        "hashi_scatter_highs_base_vs_hdc",
    ] {
        let svg = svg_text(find(&plots, stem));
        assert!(has_text(&svg, CLAMP_NOTE), "{stem}: {:?}", texts(&svg));
    }
    // Neither the LP ratio nor the other puzzle draws that time.
    for stem in [
        "hashi_lp_ratio",
        "hashi_profile_highs",
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
