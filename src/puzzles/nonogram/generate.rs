//! Pictures to nonograms, `puzzlebench generate nonogram`: the two methods of the paper
//! "Nonokenken" (section 3), and random pictures.
//!
//! The image (PNG, JPEG, GIF or BMP) is turned to grey (transparent parts count as
//! white) and scaled to the puzzle's size (`--size WxH`, a triangle filter). Then:
//!
//! * `threshold`: a cell is black when its grey value (0 black … 255 white) is below the
//!   threshold (`--threshold`, 128 by default; the paper chose 60 for its photographs);
//! * `squares`: the translucent-squares integer program of the paper, after Bosch and
//!   Herman's pointillism: a black cell x[i,j] = 1 lays a translucent 3×3 square centred
//!   on it, so a cell is shaded by d[i,j] = Σ_{(i',j') ∈ N(i,j)} x[i',j'] squares (its
//!   neighbourhood N, clipped at the border); each cell wants g[i,j] of them, its
//!   darkness times 9; minimise Σ |d − g|, written with z ≥ d − g and z ≥ g − d. Solved on
//!   HiGHS to the relative gap `--gap` (0.0005, the paper's 0.05 %, by default). Deviation:
//!   the paper writes g = 9·v/255 with v the grey value, 0 for black, which would give
//!   black pixels no squares; the intent, darker cells more squares, is g = 9·(255 − v)/255.
//! * `random` (no image): in the manner of Tatham's Pattern, random values in every cell,
//!   each replaced by the mean of its 3×3 neighbourhood, and the darker half black.
//!
//! The picture is the puzzle's goal; its clues are printed in the `.non` format (or the
//! text format, `--format text`), with a comment line that says whether the solution is
//! unique: the puzzle is solved again with that picture excluded (`bosch` on `sat`,
//! `--count 2`), and a second picture means it is not.
//!
//! `--givens` shows cells of the picture from the start, so that it becomes the only
//! solution ([`super::givens`]): `min` the fewest such cells (the `rowgen-plain`
//! row generation on `hitset`, or on HiGHS beyond `hitset`'s columns, for at most
//! `--givens-time` seconds; at the limit the best unique set found, and the comment says
//! it is not proved the fewest), `greedy` the greedy rule's (the cell that rules out the
//! most other solutions, until none is left), `none` (the default) no givens. The givens
//! are written as the `.non` key `givens` (puzzlebench's own) or the text format's
//! `givens` block, and a comment line says how many and how they were found.

use super::givens::{self, NonogramGivens};
use super::Nonogram;
use crate::engines::{highs::HIGHS, hitset, sat::SAT, Budget, Kind, SolveOptions, Status};
use crate::generate::{Generator, Param, Params};
use crate::model::{Model, Name, Sense, VarKind};
use crate::puzzles::fewest_clues::{self, Target};
use crate::puzzles::Solve;
use crate::puzzles::{Answer, Run};
use crate::rng::Rng;
use std::path::Path;

/// The generator of `puzzlebench generate nonogram`.
pub static GENERATOR: Generator = Generator {
    about: "A nonogram from a picture (threshold or the translucent-squares integer program of the paper Nonokenken) or a random picture; prints the puzzle and whether its solution is unique",
    params: &[
        Param::value("size", "WxH", "Width and height of the puzzle in cells"),
        Param::defaulted("method", "M", "threshold", "threshold, squares (both need --image) or random"),
        Param::value("image", "FILE", "The picture (PNG, JPEG, GIF or BMP)"),
        Param::defaulted("threshold", "G", "128", "threshold: grey values (0 black, 255 white) below G are black"),
        Param::defaulted("gap", "R", "0.0005", "squares: the relative MIP gap the integer program is solved to"),
        Param::defaulted("squares-time", "S", "300", "squares: seconds for the integer program; at the limit the best picture found so far is used, and its gap printed"),
        Param::defaulted("format", "F", "non", "Output: non (webpbn .non, with the picture as goal) or text"),
        Param::defaulted("unique-time", "S", "60", "Seconds for the uniqueness check (0: no check)"),
        Param::defaulted("givens", "G", "none", "Cells of the picture shown from the start, so that it is the only solution: min (the fewest, proved by row generation), greedy (each time the cell that rules out the most other solutions) or none"),
        Param::defaulted("givens-time", "S", "600", "givens min: seconds for the search; at the limit the best unique set found is used, and the comment says it is not proved the fewest"),
    ],
    make,
    separator,
};

/// Between two puzzles of one output: the `.non` bundle's divider; the text format holds
/// one puzzle per file.
fn separator(params: &Params) -> Result<&'static str, String> {
    match params.need::<String>("format")?.as_str() {
        "text" => Err(
            "--format text holds one puzzle per file: use --count 1, or --format non (a bundle)"
                .into(),
        ),
        _ => Ok("====\n"),
    }
}

fn make(params: &Params, seed: u64) -> Result<String, String> {
    let size: String = params.need("size")?;
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)))
        .filter(|&(w, h)| {
            (1..=super::parse::MAX_SIDE).contains(&w) && (1..=super::parse::MAX_SIDE).contains(&h)
        })
        .ok_or_else(|| {
            format!(
                "--size {size}: not WxH with sides 1 to {}",
                super::parse::MAX_SIDE
            )
        })?;
    let method: String = params.need("method")?;
    let mut squares_note: Option<String> = None;
    let picture = match method.as_str() {
        "random" => random_picture(w, h, seed),
        "threshold" | "squares" => {
            let file: String = params
                .need("image")
                .map_err(|_| format!("--method {method} needs --image FILE"))?;
            let grey = load_grey(Path::new(&file), w, h)?;
            if method == "threshold" {
                let t: f64 = params.need("threshold")?;
                if !(0.0..=256.0).contains(&t) {
                    return Err(format!("--threshold {t}: not within 0 and 256"));
                }
                grey.iter()
                    .map(|r| r.iter().map(|&v| v < t).collect())
                    .collect()
            } else {
                let gap: f64 = params.need("gap")?;
                if !(0.0..1.0).contains(&gap) {
                    return Err(format!("--gap {gap}: not within 0 and 1"));
                }
                let limit: f64 = params.need("squares-time")?;
                if !(limit > 0.0 && limit.is_finite()) {
                    return Err(format!(
                        "--squares-time {limit}: not a positive number of seconds"
                    ));
                }
                let (picture, how) = squares(&grey, gap, limit)?;
                squares_note = Some(how);
                picture
            }
        }
        other => {
            return Err(format!(
                "--method {other}: not threshold, squares or random"
            ))
        }
    };
    let mut p = Nonogram::from_picture(&picture);
    p.name = format!("{method}-{w}x{h}");
    let format: String = params.need("format")?;
    if !["non", "text"].contains(&format.as_str()) {
        return Err(format!("--format {format}: not non or text"));
    }
    let mut notes: Vec<String> = squares_note.into_iter().collect();
    let how: String = params.need("givens")?;
    if how != "none" {
        let limit: f64 = params.need("givens-time")?;
        if !(limit > 0.0 && limit.is_finite()) {
            return Err(format!(
                "--givens-time {limit}: not a positive number of seconds"
            ));
        }
        let (shown, note) = choose_givens(&p.name, &picture, &how, limit)?;
        for (k, &g) in shown.iter().enumerate() {
            p.givens[k / w][k % w] = g.then(|| picture[k / w][k % w]);
        }
        notes.push(note);
    }
    let seconds: f64 = params.need("unique-time")?;
    notes.push(uniqueness(&p, seconds));
    let comments: String = notes.iter().map(|n| format!("# {n}\n")).collect();
    if format == "non" {
        return Ok(format!("{comments}{}", p.to_non(&p.name)));
    }
    let mut s = format!("{comments}{}picture\n", p.to_text());
    for line in Nonogram::draw(&picture) {
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str(&p.givens_text());
    Ok(s)
}

/// The givens that make `picture` its clues' only solution, by `how` (`min` within
/// `limit` seconds, or `greedy`), with a comment line that says how many and how found.
fn choose_givens(
    name: &str,
    picture: &[Vec<bool>],
    how: &str,
    limit: f64,
) -> Result<(Vec<bool>, String), String> {
    let q = NonogramGivens::of_picture(name, picture);
    match how {
        "greedy" => {
            let mut f = q.follower(&Budget::unlimited());
            let g = givens::greedy(&q, &mut f).map_err(|_| "the greedy givens were stopped")?;
            let others = if g.capped {
                format!("more than {} other solutions", g.solutions)
            } else {
                format!("{} other solutions", g.solutions)
            };
            let note = format!(
                "givens: {} by the greedy rule (each the cell that rules out the most other solutions; the clues alone allow {others})",
                fewest_clues::count(&g.givens)
            );
            Ok((g.givens, note))
        }
        "min" => {
            let engine = if q.cells() <= hitset::MAX_COLUMNS {
                hitset::HITSET
            } else {
                HIGHS
            };
            let opts = SolveOptions {
                time_limit: Some(limit),
                lp_relaxation: false,
                ..SolveOptions::default()
            };
            let run = Run::new(engine, Kind::RowGeneration, &opts);
            // The nonogram's own verifier checks that the picture solves the puzzle with
            // the givens; the uniqueness check after this says whether it is the only one.
            let answer = |shown: &[bool], _: bool| {
                let with = q.with_givens(shown);
                Answer::of_marked_grid(picture, '#', super::verify::check(&with, picture))
            };
            // No certificate is asked for here (`opts.certify` is off), so no row needs its
            // witness checked; were one asked for, every row would be refused, not taken.
            let r = fewest_clues::solve(&q, &run, false, &answer, &|_| {
                Err("no witness check while generating".into())
            });
            let seconds = run.budget.elapsed();
            let o = &r.outcome;
            let Some(values) = o.values.as_ref().filter(|_| r.answer.is_some()) else {
                return Err(format!(
                    "--givens min: no unique set of givens found ({}{})",
                    o.status,
                    o.message
                        .as_deref()
                        .map(|e| format!(": {e}"))
                        .unwrap_or_default()
                ));
            };
            let shown: Vec<bool> = values.iter().take(q.cells()).map(|&v| v > 0.5).collect();
            let k = fewest_clues::count(&shown);
            let note = if o.status == Status::Optimal {
                format!(
                    "givens: {k}, the fewest (proved: rowgen-plain on {}, {seconds:.3} s)",
                    engine.key()
                )
            } else {
                format!(
                    "givens: {k}, not proved the fewest: {} after {seconds:.1} s with the bound {} (rowgen-plain on {})",
                    o.status,
                    o.best_bound.map_or("unknown".into(), |b| format!("{b}")),
                    engine.key()
                )
            };
            Ok((shown, note))
        }
        other => Err(format!("--givens {other}: not min, greedy or none")),
    }
}

/// Whether `p` has one solution, in words, from `bosch` on `sat` with a count of 2.
fn uniqueness(p: &Nonogram, seconds: f64) -> String {
    if seconds <= 0.0 {
        return "uniqueness not checked".into();
    }
    let opts = SolveOptions {
        time_limit: Some(seconds),
        count: 2,
        lp_relaxation: false,
        ..SolveOptions::default()
    };
    match p.solve("bosch", SAT, &opts) {
        Ok(r) if r.outcome.status == Status::Optimal => match r.outcome.solutions {
            Some(1) => format!(
                "unique: the only solution is the picture (bosch on sat, {:.2} s)",
                r.outcome.seconds
            ),
            Some(n) => format!(
                "not unique: at least {n} solutions (bosch on sat, {:.2} s)",
                r.outcome.seconds
            ),
            None => "uniqueness unknown".into(),
        },
        Ok(r) => format!(
            "uniqueness not settled: {} after {:.1} s",
            r.outcome.status, r.outcome.seconds
        ),
        Err(e) => format!("uniqueness not checked: {e}"),
    }
}

/// The picture in grey, scaled to `w`×`h` cells: 0 black … 255 white.
fn load_grey(path: &Path, w: usize, h: usize) -> Result<Vec<Vec<f64>>, String> {
    let img =
        image::open(path).map_err(|e| format!("{}: cannot read the image: {e}", path.display()))?;
    let rgba = img.to_rgba8();
    // Transparent parts over white, then luma (ITU-R BT.601 weights).
    let grey = image::GrayImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let p = rgba.get_pixel(x, y).0;
        let a = f64::from(p[3]) / 255.0;
        let luma = 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]);
        image::Luma([(luma * a + 255.0 * (1.0 - a)).round() as u8])
    });
    let scaled = image::imageops::resize(
        &grey,
        w as u32,
        h as u32,
        image::imageops::FilterType::Triangle,
    );
    Ok((0..h)
        .map(|i| {
            (0..w)
                .map(|j| f64::from(scaled.get_pixel(j as u32, i as u32).0[0]))
                .collect()
        })
        .collect())
}

/// The translucent-squares integer program (module doc), solved on HiGHS to `gap` or
/// for at most `limit` seconds, with a line saying how far it got.
fn squares(grey: &[Vec<f64>], gap: f64, limit: f64) -> Result<(Vec<Vec<bool>>, String), String> {
    let (h, w) = (grey.len(), grey[0].len());
    let mut m = Model::new("translucent_squares");
    m.sense = Sense::Minimize;
    let x: Vec<Vec<_>> = (0..h)
        .map(|i| {
            (0..w)
                .map(|j| m.add_binary(Name::idx("x", &[i + 1, j + 1])))
                .collect()
        })
        .collect();
    for (i, grey_row) in grey.iter().enumerate() {
        for (j, &v) in grey_row.iter().enumerate() {
            let z = m.add_var(
                Name::idx("z", &[i + 1, j + 1]),
                VarKind::Continuous,
                0.0,
                f64::INFINITY,
                1.0,
            );
            let g = 9.0 * (255.0 - v) / 255.0;
            let around: Vec<_> = (i.saturating_sub(1)..=(i + 1).min(h - 1))
                .flat_map(|a| (j.saturating_sub(1)..=(j + 1).min(w - 1)).map(move |b| (a, b)))
                .map(|(a, b)| x[a][b])
                .collect();
            // z ≥ d − g and z ≥ g − d
            let over = around.iter().map(|&v| (v, -1.0)).chain([(z, 1.0)]);
            m.add_ge(Name::idx("over", &[i + 1, j + 1]), over, -g);
            let under = around.iter().map(|&v| (v, 1.0)).chain([(z, 1.0)]);
            m.add_ge(Name::idx("under", &[i + 1, j + 1]), under, g);
        }
    }
    let opts = SolveOptions {
        mip_gap: gap,
        time_limit: Some(limit),
        lp_relaxation: false,
        ..SolveOptions::default()
    };
    let o = HIGHS.solve_model(&m, &opts);
    let how = match (o.status, o.objective, o.gap) {
        (Status::TimeLimit, Some(z), Some(g)) => format!(
            "squares: Σ|d − g| = {z:.1}, gap {:.3} % at the {limit} s limit (--gap {gap} not reached)",
            100.0 * g
        ),
        (_, Some(z), g) => format!(
            "squares: Σ|d − g| = {z:.1}, gap {} (within --gap {gap})",
            g.map_or("0".to_string(), |g| format!("{:.3} %", 100.0 * g))
        ),
        _ => String::new(),
    };
    let kept = o.status.has_solution() || o.status == Status::TimeLimit;
    let values = o.values.filter(|_| kept).ok_or_else(|| match o.status {
        Status::TimeLimit => format!(
            "the squares program found no picture within --squares-time {limit} s; give it more"
        ),
        s => format!("the squares program ended {s}: {:?}", o.message),
    })?;
    let picture = x
        .iter()
        .map(|r| r.iter().map(|v| values[v.0] > 0.5).collect())
        .collect();
    Ok((picture, how))
}

/// A random picture in the manner of Tatham's Pattern: random values, each replaced by
/// the mean of its 3×3 neighbourhood, the darker half black.
fn random_picture(w: usize, h: usize, seed: u64) -> Vec<Vec<bool>> {
    let mut rng = Rng::new(seed);
    let raw: Vec<Vec<f64>> = (0..h)
        .map(|_| (0..w).map(|_| rng.below(1_000_000) as f64).collect())
        .collect();
    let mean = |i: usize, j: usize| {
        let cells: Vec<f64> = (i.saturating_sub(1)..=(i + 1).min(h - 1))
            .flat_map(|a| (j.saturating_sub(1)..=(j + 1).min(w - 1)).map(move |b| (a, b)))
            .map(|(a, b)| raw[a][b])
            .collect();
        cells.iter().sum::<f64>() / cells.len() as f64
    };
    let smooth: Vec<Vec<f64>> = (0..h)
        .map(|i| (0..w).map(|j| mean(i, j)).collect())
        .collect();
    let mut all: Vec<f64> = smooth.iter().flatten().copied().collect();
    all.sort_by(f64::total_cmp);
    let threshold = all[all.len() / 2];
    smooth
        .iter()
        .map(|r| r.iter().map(|&v| v >= threshold).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_pictures_are_seeded_and_half_black() {
        let a = random_picture(20, 10, 5);
        assert_eq!(a, random_picture(20, 10, 5));
        assert_ne!(a, random_picture(20, 10, 6));
        let black = a.iter().flatten().filter(|&&b| b).count();
        assert!((95..=105).contains(&black), "{black}");
    }

    #[test]
    fn squares_follow_the_darkness() {
        // Left half black, right half white: squares only on the left.
        let grey: Vec<Vec<f64>> = (0..6)
            .map(|_| (0..8).map(|j| if j < 4 { 0.0 } else { 255.0 }).collect())
            .collect();
        let (x, _) = squares(&grey, 0.0, 60.0).unwrap();
        let left = x.iter().flat_map(|r| &r[..3]).filter(|&&b| b).count();
        let right = x.iter().flat_map(|r| &r[5..]).filter(|&&b| b).count();
        assert!(left > right, "{left} {right}");
        assert_eq!(right, 0);
    }
}
