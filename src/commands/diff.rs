//! `puzzlebench diff OLD NEW`: two results files compared run by run
//! ([`crate::report::diff`] says how), written as `diff.html`, `diff.md` and `diff.csv`,
//! the regressions and differing answers printed.

use super::{bad_input, failed, Failure};
use crate::machine::read_sweeps;
use crate::record::{self, last_attempts, Paired, Record};
use crate::report::diff::{self, Change, Side};
use std::path::{Path, PathBuf};

/// What to compare and where the comparison goes.
pub struct DiffConfig {
    /// The results file of before.
    pub old: PathBuf,
    /// The results file of after.
    pub new: PathBuf,
    /// The folder of `diff.html`, `diff.md` and `diff.csv`.
    pub out: PathBuf,
    /// The shift of the shifted geometric means, seconds.
    pub shift: f64,
    /// The machine factor to judge the configurations against instead of the one
    /// estimated (1: plain ratios, as on one machine).
    pub machine_factor: Option<f64>,
    /// `A=B`: OLD's runs on engine (or of formulation) A against NEW's on B ([`pair_runs`]).
    pub pair: Option<String>,
}

/// At most this many runs of a list are printed; the files hold them all.
const PRINTED: usize = 20;

/// Reads one side: the rows of a results file (the last attempt of each run id) and the
/// sweep records beside it. Anything that is not a results file is bad input.
fn read_side(path: &Path) -> Result<Side, Failure> {
    if !crate::gz::existing(path).is_file() {
        return Err(bad_input(format!(
            "{}: no such results file",
            path.display()
        )));
    }
    let rows = record::read_results(path).map_err(bad_input)?;
    let (rows, set_aside) = last_attempts(rows);
    Ok(Side {
        path: path.to_path_buf(),
        rows,
        set_aside,
        sweeps: read_sweeps(path).map_err(bad_input)?,
    })
}

/// Keeps `old`'s rows of engine (or formulation) `a` and `new`'s of `b`, each run id
/// replaced by [`record::paired_run_id`] (the run id without the engine, or without the
/// formulation), each engine (or formulation) named `a→b`, so that the comparison pairs
/// the runs of the same instance, settings, race and repeat. Two engines are compared on
/// the run clock (`run_seconds`, the clock every engine shares, where `seconds` is a
/// solver's own time for one and a whole call for another); two formulations on one
/// engine by their solve times (`seconds`, the same engine's clock), so that a model
/// built by a script is not charged its interpreter's start. `a` and `b` are engines when
/// both sides have runs on them, else formulations; a key with no row on its side is bad
/// input, naming the engines and formulations that side has.
fn pair_runs(old: &mut Side, a: &str, new: &mut Side, b: &str) -> Result<Paired, Failure> {
    let engine = |side: &Side, key: &str| side.rows.iter().any(|r| r.backend == key);
    let formulation = |side: &Side, key: &str| side.rows.iter().any(|r| r.formulation == key);
    let paired = if engine(old, a) || engine(new, b) {
        Paired::Engines
    } else if formulation(old, a) || formulation(new, b) {
        Paired::Formulations
    } else {
        let names = |side: &Side, f: fn(&Record) -> &str| {
            let mut has: Vec<&str> = side.rows.iter().map(f).collect();
            has.sort_unstable();
            has.dedup();
            has.join(", ")
        };
        return Err(bad_input(format!(
            "--pair {a}={b}: {a} is no engine or formulation of {} (its engines: {}; its formulations: {})",
            old.path.display(),
            names(old, |r| r.backend.as_str()),
            names(old, |r| r.formulation.as_str()),
        )));
    };
    let label = format!("{a}→{b}");
    for (side, key) in [(&mut *old, a), (&mut *new, b)] {
        let of = |r: &Record| match paired {
            Paired::Engines => r.backend.clone(),
            Paired::Formulations => r.formulation.clone(),
        };
        if !side.rows.iter().any(|r| of(r) == key) {
            let what = match paired {
                Paired::Engines => "engine",
                Paired::Formulations => "formulation",
            };
            let mut has: Vec<String> = side.rows.iter().map(of).collect();
            has.sort_unstable();
            has.dedup();
            return Err(bad_input(format!(
                "{}: no run on {what} {key} (its {what}s: {})",
                side.path.display(),
                has.join(", ")
            )));
        }
        side.rows.retain(|r| of(r) == key);
        for r in &mut side.rows {
            r.run_id = record::paired_run_id(r, paired);
            match paired {
                Paired::Engines => {
                    r.backend = label.clone();
                    // One clock for both: an engine in process reports its solver's time,
                    // a command line its whole call; the run clock is the same for every
                    // engine.
                    if r.run_seconds.is_some() {
                        r.seconds = r.run_seconds;
                    }
                }
                Paired::Formulations => r.formulation = label.clone(),
            }
        }
    }
    Ok(paired)
}

/// Prints up to [`PRINTED`] lines of `lines` under `title`, indented, and how many more
/// the files hold.
fn print_list(title: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    println!("{title} ({}):", lines.len());
    for l in lines.iter().take(PRINTED) {
        println!("  {l}");
    }
    if lines.len() > PRINTED {
        println!("  … and {} more (diff.md)", lines.len() - PRINTED);
    }
}

/// Compares the two files, writes the three files into `out` and prints the machine
/// factor, the differing answers, the regressions, the improvements, the status changes and what the sides ran
/// on. Exit status: 2 for files that are not results files or share no run, 1 when an
/// answer differs (one side is wrong), 0 otherwise: regressions are reported, not failed,
/// since times of two runs differ by machine and load.
pub fn diff(c: &DiffConfig) -> Result<(), Failure> {
    super::check_shift(c.shift)?;
    if let Some(f) = c.machine_factor.filter(|f| !(f.is_finite() && *f > 0.0)) {
        return Err(bad_input(format!(
            "--machine-factor must be a number above 0, not {f}"
        )));
    }
    let mut old = read_side(&c.old)?;
    let mut new = read_side(&c.new)?;
    if let Some(pair) = &c.pair {
        let (a, b) = pair.split_once('=').ok_or_else(|| {
            bad_input(format!(
                "--pair {pair}: two engine keys or two formulation keys, OLD's and NEW's, as A=B (cbc=cbc-cli, gbm=user:gbm-pulp)"
            ))
        })?;
        match pair_runs(&mut old, a, &mut new, b)? {
            Paired::Engines => println!(
                "engines paired: {a} in {} against {b} in {}, on the run clock (run_seconds)",
                c.old.display(),
                c.new.display()
            ),
            Paired::Formulations => println!(
                "formulations paired: {a} in {} against {b} in {}, each on the same engine, by solve time (seconds)",
                c.old.display(),
                c.new.display()
            ),
        }
    }
    let d = diff::compare_with_factor(&old, &new, c.shift, c.machine_factor).map_err(bad_input)?;
    let files = diff::write(&d, &c.out).map_err(failed)?;
    println!("{}", d.summary());
    println!("{}", d.factor_line());
    for l in d.provenance_lines() {
        println!("{l}");
    }
    print_list(
        "differing answers, one side is wrong",
        &d.differing
            .iter()
            .map(|x| format!("{}: {}", x.run, x.what))
            .collect::<Vec<_>>(),
    );
    for (title, change) in [
        ("regressions", Change::Regression),
        ("improvements", Change::Improvement),
    ] {
        let lines: Vec<String> = d.with(change).iter().map(|x| d.config_line(x)).collect();
        print_list(title, &lines);
    }
    print_list(
        "status changes",
        &d.status_changes
            .iter()
            .map(|s| format!("{}: {} → {}", s.run, s.old, s.new))
            .collect::<Vec<_>>(),
    );
    for f in [&files.html, &files.markdown, &files.csv] {
        println!("wrote {}", f.display());
    }
    if d.differing.is_empty() {
        Ok(())
    } else {
        Err(failed(format!(
            "{} differing answer{} between {} and {}: one side is wrong (listed first in {})",
            d.differing.len(),
            if d.differing.len() == 1 { "" } else { "s" },
            c.old.display(),
            c.new.display(),
            files.markdown.display()
        )))
    }
}
