//! `puzzlebench report`: every table and plot, rebuilt from result CSVs.

use super::{bad_input, failed, Failure};
use crate::puzzles;
use crate::record::{self, Record};
use crate::report::anytime::Timelines;
use crate::report::machines::Machines;
use crate::report::plots::FigureFormat;
use std::path::{Path, PathBuf};

/// Writes the report of `rows` (read from `csvs`, whose sweep files hold the records of
/// their machines and whose timelines files fill the primal integrals the rows lack,
/// [`crate::report::anytime`]) into `out`, its plots in each of `figures`, and says where it
/// went and what it set aside (refused runs, earlier attempts of a run id).
/// Rows of different machines are kept apart unless `pool_machines`. The suites' engine
/// comparisons, on which the answer ranks the configurations, are read from
/// `instances_dir`.
#[allow(clippy::too_many_arguments)]
pub fn write(
    rows: &[Record],
    csvs: &[PathBuf],
    pool_machines: bool,
    instances_dir: &Path,
    out: &Path,
    shift: f64,
    preamble: &str,
    figures: &[FigureFormat],
) -> Result<(), Failure> {
    let machines = Machines::read(csvs, pool_machines).map_err(bad_input)?;
    let timelines = Timelines::read(csvs).map_err(bad_input)?;
    // How each race ended, from the race logs beside the results (and in `out`).
    let mut race_ends = crate::report::race::endings(&out.join("race.jsonl"));
    for csv in csvs {
        race_ends.extend(crate::report::race::endings(
            &csv.with_file_name("race.jsonl"),
        ));
    }
    let written = crate::report::write_report(
        rows,
        out,
        shift,
        preamble,
        &machines,
        &puzzles::table_functions(),
        &puzzles::size_units(),
        &chosen(instances_dir),
        figures,
        &timelines,
        &race_ends,
    )
    .map_err(failed)?;
    if let Some(s) = written.set_aside.sentence() {
        eprintln!("{s}");
    }
    eprintln!(
        "wrote {} and {} ({} table files, {} plot files, {} HTML pages)",
        written.index.display(),
        written.paper.display(),
        written.tables.len(),
        written.plots.len(),
        written.html.len()
    );
    if let Some(index) = written.html.first() {
        println!("{}", index.display());
    }
    Ok(())
}

/// The suites' comparison instances, as the report takes them, read from `instances_dir`
/// (none where it is missing: the report then says how it chose the instances instead).
fn chosen(instances_dir: &Path) -> Vec<crate::report::answer::Chosen> {
    puzzles::comparison_instances(instances_dir)
        .into_iter()
        .map(|c| crate::report::answer::Chosen {
            puzzle: c.puzzle.to_string(),
            suite: if c.quick { "quick" } else { "full" }.to_string(),
            names: c
                .names
                .into_iter()
                .map(|(name, limit)| crate::report::answer::instance_key(&name, Some(limit)))
                .collect(),
            how: c.chosen,
        })
        .collect()
}

/// Reads every CSV (their rows are pooled, except that rows of different machines are kept
/// apart unless `pool_machines`) and the sweep files beside them, and writes the report
/// into `out`, its plots in each of `figures`.
pub fn report(
    csvs: &[PathBuf],
    out: &Path,
    shift: f64,
    figures: &[FigureFormat],
    pool_machines: bool,
) -> Result<(), Failure> {
    super::check_shift(shift)?;
    let mut rows = Vec::new();
    for f in csvs {
        rows.extend(record::read_results(f).map_err(bad_input)?);
    }
    let names: Vec<String> = csvs.iter().map(|p| p.display().to_string()).collect();
    let preamble = format!(
        "Rebuilt by `puzzlebench report` from {}.\n",
        names.join(", ")
    );
    write(
        &rows,
        csvs,
        pool_machines,
        Path::new("instances"),
        out,
        shift,
        &preamble,
        figures,
    )
}
