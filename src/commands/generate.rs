//! `puzzlebench generate PUZZLE`: the subcommands are made from the registry, one per
//! puzzle whose entry declares a [`Generator`], with the generator's own parameters and
//! the three every generator has (`--seed`, `--count`, `--out`).

use super::{bad_input, failed, progress_bar, Failure};
use crate::generate::{self, GenerateError, Generator, Params};
use crate::puzzles::{self, PUZZLES};
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::path::PathBuf;

/// The `generate` command with one subcommand per puzzle that has a generator.
pub fn command() -> Command {
    let mut cmd = Command::new("generate")
        .about(
            "Make random puzzles, written in the puzzle's own format (one subcommand per puzzle)",
        )
        .subcommand_required(true)
        .arg_required_else_help(true);
    for p in PUZZLES.iter().filter(|p| !p.hidden()) {
        if let Some(g) = p.generator() {
            cmd = cmd.subcommand(puzzle_command(p.key(), g));
        }
    }
    cmd
}

/// The subcommand of one puzzle.
fn puzzle_command(key: &'static str, g: &'static Generator) -> Command {
    let short = g.about.split("\n\n").next().unwrap_or(g.about);
    let mut c = Command::new(key).about(short).long_about(g.about);
    for prm in g.params {
        let mut a = Arg::new(prm.name).long(prm.name).help(prm.help);
        a = match prm.value {
            None => a.action(ArgAction::SetTrue),
            Some(v) => {
                let a = a.value_name(v).num_args(1);
                match prm.default {
                    Some(d) => a.default_value(d),
                    None => a,
                }
            }
        };
        c = c.arg(a);
    }
    c.arg(
        Arg::new("seed")
            .long("seed")
            .value_name("S")
            .value_parser(clap::value_parser!(u64))
            .default_value("1")
            .help("Random seed of the first puzzle; puzzle k uses seed + k - 1 (the same seed gives the same puzzle)"),
    )
    .arg(
        Arg::new("count")
            .long("count")
            .value_name("N")
            .value_parser(clap::value_parser!(u64))
            .default_value("1")
            .help("Number of puzzles"),
    )
    .arg(
        Arg::new("out")
            .long("out")
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .help("Write to this file (it must not exist yet; its folder is made when missing) instead of standard output"),
    )
}

/// Runs the subcommand in `matches` (those of `generate`).
pub fn generate(matches: &ArgMatches) -> Result<(), Failure> {
    let Some((key, m)) = matches.subcommand() else {
        return Err(bad_input("generate needs a puzzle"));
    };
    let p = puzzles::puzzle(key).map_err(bad_input)?;
    let g = p
        .generator()
        .ok_or_else(|| bad_input(format!("{key} has no generator")))?;
    let seed = *m.get_one::<u64>("seed").expect("defaulted");
    let count = *m.get_one::<u64>("count").expect("defaulted");
    let out = m.get_one::<PathBuf>("out");
    let mut values = vec![("count".to_string(), count.to_string())];
    for prm in g.params {
        if prm.value.is_none() {
            if m.get_flag(prm.name) {
                values.push((prm.name.to_string(), "true".to_string()));
            }
        } else if let Some(v) = m.get_one::<String>(prm.name) {
            values.push((prm.name.to_string(), v.clone()));
        }
    }
    let params = Params::new(values);
    let bar = progress_bar(count, count == 1, "generating");
    let result = generate::write(
        g,
        &params,
        seed,
        count,
        out.map(|p| p.as_path()),
        &mut || bar.inc(1),
    );
    bar.finish_and_clear();
    result.map_err(|e| match e {
        GenerateError::Input(m) => bad_input(m),
        GenerateError::Output(m) => failed(m),
    })
}
