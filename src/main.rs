//! The `puzzlebench` command line. Parsing arguments and exit codes only; the work is in
//! the library.

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use puzzlebench::backends::{Backend, Heuristics, SolveOptions};
use puzzlebench::isolation::Job;
use puzzlebench::puzzles::{self, PuzzleInfo, PUZZLES};
use puzzlebench::record::Record;
use puzzlebench::report::summary;
use puzzlebench::runner::{self, Loaded, Plan, RunEnv, RunSpec, SweepConfig};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Benchmark integer-programming formulations of logic puzzles across solver backends.
///
/// Every run records solve time, model-build time, LP-relaxation bound, best bound and
/// gap, and checks the solution with the puzzle's own verifier.
#[derive(Parser)]
#[command(name = "puzzlebench", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List puzzles, their formulations and input formats, and the backends.
    List,
    /// Solve the puzzles in FILE and print the solution (text grid or JSON).
    Solve(SolveArgs),
    /// Run a sweep: every instance x formulation x backend x repeat, one CSV row each.
    Run(RunArgs),
    /// Write the model of a formulation as MPS or LP.
    Export(ExportArgs),
    /// The main job: run the reproduction suites and write CSV, tables, plots and pictures.
    ///
    /// Each puzzle contributes one suite (its instances, formulations and repeats) and the
    /// tables of the report it reproduces, with the report's figures beside ours. Rows go
    /// to OUT/results.csv, which is resumed when it exists (finished runs are kept and
    /// skipped); --fresh starts a new file and keeps the old one under a dated name.
    Reproduce(ReproduceArgs),
    /// Rebuild every table and plot from result CSVs (gathered here or elsewhere).
    Report(ReportArgs),
    /// Make random puzzles, written in the puzzle's own format (one subcommand per puzzle).
    #[command(subcommand)]
    Generate(GenerateCommand),
    /// Internal: run one job read as JSON from stdin and print its record as JSON.
    #[command(hide = true)]
    Worker,
}

#[derive(Args, Clone)]
struct SolverArgs {
    /// Time limit per solve in seconds.
    #[arg(long, value_name = "S")]
    time_limit: Option<f64>,
    /// Threads per solve.
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Relative MIP gap at which a solver may stop (0 = prove optimality).
    #[arg(long, default_value_t = 0.0)]
    mip_gap: f64,
    /// Switch presolve off.
    #[arg(long)]
    no_presolve: bool,
    /// Random seed given to the solver.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Skip the LP relaxation (the lp_bound column stays empty).
    #[arg(long)]
    no_lp: bool,
    /// Search heuristics of the propagate backend: none, 1, 12, 123 (the report's Table 7.5
    /// configurations) or root (all constraints at the root, smallest domain first; the
    /// default); `run` takes a comma-separated list and sweeps each. MIP backends ignore it.
    #[arg(long, value_delimiter = ',', value_name = "H")]
    heuristics: Vec<Heuristics>,
    /// Solutions to look for; 2 proves uniqueness (the solutions column then says 1).
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u32,
}

impl SolverArgs {
    fn options(&self) -> Result<SolveOptions, String> {
        if let Some(t) = self.time_limit {
            if !(t > 0.0 && t.is_finite()) {
                return Err(format!(
                    "--time-limit must be a positive number of seconds, not {t}"
                ));
            }
        }
        if !(self.mip_gap >= 0.0 && self.mip_gap.is_finite()) {
            return Err(format!("--mip-gap must be 0 or more, not {}", self.mip_gap));
        }
        if self.threads == 0 {
            return Err("--threads must be at least 1".into());
        }
        if self.count == 0 {
            return Err("--count must be at least 1".into());
        }
        Ok(SolveOptions {
            time_limit: self.time_limit,
            threads: self.threads,
            mip_gap: self.mip_gap,
            presolve: !self.no_presolve,
            seed: self.seed,
            lp_relaxation: !self.no_lp,
            heuristics: self.heuristics.first().copied().unwrap_or_default(),
            count: self.count,
        })
    }

    /// The settings once per `--heuristics` value (once with the default when none is given).
    fn each_heuristics(&self) -> Result<Vec<SolveOptions>, String> {
        let base = self.options()?;
        if self.heuristics.is_empty() {
            return Ok(vec![base]);
        }
        Ok(self
            .heuristics
            .iter()
            .map(|&heuristics| SolveOptions {
                heuristics,
                ..base.clone()
            })
            .collect())
    }
}

#[derive(Args)]
struct GenerateZebraArgs {
    /// Houses (2 to 10).
    #[arg(long)]
    houses: usize,
    /// Attributes (1 to 8).
    #[arg(long)]
    attributes: usize,
    /// Random seed: the same seed gives the same puzzle.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the puzzle here instead of to standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Args)]
struct SolveArgs {
    /// Instance file (see `puzzlebench list` for the formats).
    file: PathBuf,
    /// Puzzle key.
    #[arg(long)]
    puzzle: String,
    /// Formulation key (default: the puzzle's first).
    #[arg(long)]
    formulation: Option<String>,
    /// Backend key.
    #[arg(long, default_value = "highs")]
    backend: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also draw the instance and its solution as SVG into this file (with several
    /// puzzles in FILE, the index is added before the extension).
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    solver: SolverArgs,
}

#[derive(Args)]
struct RunArgs {
    /// Puzzle key.
    #[arg(long)]
    puzzle: String,
    /// Formulation keys, comma-separated (default: all of the puzzle's).
    #[arg(long, value_delimiter = ',')]
    formulation: Vec<String>,
    /// Backend keys, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "highs")]
    backend: Vec<String>,
    /// Instance files or folders (a folder means every file in it but *.md, sorted).
    #[arg(long, num_args = 1.., required = true)]
    instances: Vec<PathBuf>,
    /// Repeats of every combination.
    #[arg(long, default_value_t = 1)]
    repeats: u32,
    /// Results CSV; rows are appended, never overwritten.
    #[arg(long, default_value = "results.csv")]
    out: PathBuf,
    /// Shift in seconds of the shifted geometric mean in the summary.
    #[arg(long, default_value_t = 1.0)]
    shift: f64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Skip runs already recorded in --out (matched by run id) and append only the rest.
    #[arg(long)]
    resume: bool,
    /// Runs at once, each in its own process. Timings are cleanest with 1 on a quiet machine.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Cap on each worker's address space in MiB; a run that exceeds it is recorded as an error.
    #[arg(long, value_name = "MB")]
    memory_limit: Option<u64>,
    /// Seconds a worker may run past its solver time limits before it is killed.
    #[arg(long, default_value_t = 5.0)]
    grace: f64,
    /// Run in this process, without isolation (a crashing solver ends the sweep).
    #[arg(long, hide = true)]
    in_process: bool,
    #[command(flatten)]
    solver: SolverArgs,
}

#[derive(Args)]
struct ReproduceArgs {
    /// The quick suite: every run once (under 10 minutes on 2 cores); the full suite
    /// repeats runs and may take longer.
    #[arg(long)]
    quick: bool,
    /// Backend keys, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "highs")]
    backend: Vec<String>,
    /// Time limit per solve in seconds (default: each suite's own).
    #[arg(long, value_name = "S")]
    time_limit: Option<f64>,
    /// Output folder.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Start a new results.csv (the old one is kept as results-DATE.csv).
    #[arg(long)]
    fresh: bool,
    /// Only these puzzles (default: all), comma-separated.
    #[arg(long, value_delimiter = ',')]
    puzzle: Vec<String>,
    /// Runs at once, each in its own process.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Shift in seconds of the shifted geometric mean.
    #[arg(long, default_value_t = 1.0)]
    shift: f64,
    /// Folder holding the instance folders.
    #[arg(long, default_value = "instances", hide = true)]
    instances_dir: PathBuf,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args)]
struct ReportArgs {
    /// Result CSVs (their rows are pooled).
    #[arg(required = true)]
    csv: Vec<PathBuf>,
    /// Output folder.
    #[arg(long, default_value = "report")]
    out: PathBuf,
    /// Shift in seconds of the shifted geometric mean.
    #[arg(long, default_value_t = 1.0)]
    shift: f64,
}

#[derive(Clone, Copy, ValueEnum)]
enum GenerateFormat {
    /// Tatham game IDs, one per line.
    Id,
    /// The .has format (one board; at most 2 bridges per pair).
    Has,
}

#[derive(Args)]
struct GenerateHashiArgs {
    /// Rows of the grid.
    #[arg(long)]
    rows: usize,
    /// Columns of the grid (default: as many as rows).
    #[arg(long)]
    cols: Option<usize>,
    /// Islands wanted (fewer when no more fit).
    #[arg(long)]
    islands: usize,
    /// Most bridges per pair, 1 to 4.
    #[arg(long, default_value_t = 2)]
    max_bridges: u32,
    /// Probability of joining two existing islands instead of laying a new one (makes cycles).
    #[arg(long, default_value_t = 0.2)]
    extra: f64,
    /// Seed of the first board; the next boards take the following seeds.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Boards to generate.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = GenerateFormat::Id)]
    format: GenerateFormat,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["mps", "lp"])))]
struct ExportArgs {
    /// Instance file (its first puzzle is exported).
    file: PathBuf,
    /// Puzzle key.
    #[arg(long)]
    puzzle: String,
    /// Formulation key (default: the puzzle's first).
    #[arg(long)]
    formulation: Option<String>,
    /// Write free MPS to this file.
    #[arg(long)]
    mps: Option<PathBuf>,
    /// Write CPLEX LP to this file.
    #[arg(long)]
    lp: Option<PathBuf>,
}

/// The puzzles `generate` can make.
#[derive(Subcommand)]
enum GenerateCommand {
    /// Battleship: place a random fleet, derive the sums, reveal cells until the solution
    /// is unique (checked with the grid-based model on HiGHS); the solution is written too.
    ///
    /// Levels: `hard` drops every given that is not needed for uniqueness; `easy` keeps
    /// the revealed cells and adds --extra more.
    Battleship(GenerateBattleshipArgs),
    /// Hashi: grow a random solution on the grid (new islands, and with probability
    /// --extra bridges between existing ones) and print its labels. Solvable by
    /// construction, not always uniquely.
    Hashi(GenerateHashiArgs),
    /// Zebra: a random puzzle with a unique solution and no redundant clue.
    Zebra(GenerateZebraArgs),
    /// Circuit Board: grow a random tree with degrees 1 and 3 on the grid, black out the
    /// cells it misses, give a share of its links; the tree is written as the solution.
    /// Uniqueness is checked with cm1 (a second solve that excludes the tree) and
    /// recorded as `unique yes|no` (left out when --unique-time does not decide it).
    Circuit(GenerateCircuitArgs),
}

#[derive(Args)]
struct GenerateCircuitArgs {
    /// Rows and columns of a square grid (or use --rows and --cols).
    #[arg(long, required_unless_present = "rows")]
    size: Option<usize>,
    /// Rows of the grid.
    #[arg(long, requires = "cols", conflicts_with = "size")]
    rows: Option<usize>,
    /// Columns of the grid.
    #[arg(long, requires = "rows", conflicts_with = "size")]
    cols: Option<usize>,
    /// Share of cells blacked out, 0 to 1 (the points are the even number nearest to
    /// the rest).
    #[arg(long, default_value_t = 0.05, conflicts_with = "points")]
    blocked: f64,
    /// Number of points instead of --blocked (even).
    #[arg(long)]
    points: Option<usize>,
    /// Share of the tree's links that are given, 0 to 1.
    #[arg(long, default_value_t = 0.15)]
    given: f64,
    /// Also mark two endpoints S and T (the shortest-path variant, cm3).
    #[arg(long)]
    endpoints: bool,
    /// Random seed of the first board; board k uses seed + k - 1.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of boards.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Seconds the uniqueness check of each board may take (0: no check).
    #[arg(long, default_value_t = 60.0)]
    unique_time: f64,
    /// Name prefix (default: cRxC); boards are named PREFIX_SEED.
    #[arg(long)]
    name: Option<String>,
    /// Write to this file (it must not exist yet) instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Args)]
struct GenerateBattleshipArgs {
    /// Rows of the grid.
    #[arg(long)]
    rows: usize,
    /// Columns of the grid.
    #[arg(long)]
    cols: usize,
    /// Ships of each length, comma-separated, from length 1: `4,3,2,1` is four one-cell
    /// ships, three of length 2, two of length 3 and one of length 4.
    #[arg(long, value_delimiter = ',', required = true)]
    fleet: Vec<u32>,
    /// Difficulty: which givens are kept.
    #[arg(long, value_enum, default_value_t = LevelArg::Hard)]
    level: LevelArg,
    /// Extra random givens of an `easy` puzzle (default: one cell in ten).
    #[arg(long)]
    extra: Option<usize>,
    /// Random seed of the first puzzle; puzzle k uses seed + k - 1.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of puzzles.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Name prefix (default: LEVEL_MxN); puzzles are named PREFIX_SEED.
    #[arg(long)]
    name: Option<String>,
    /// Write to this file (it must not exist yet) instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum LevelArg {
    Easy,
    Hard,
}

/// A failure and its exit code: 2 for bad input, 1 for a run that failed.
struct Failure(u8, String);

fn bad_input(e: impl ToString) -> Failure {
    Failure(2, e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Command::List | Command::Solve(_) | Command::Export(_) | Command::Generate(_)
    ) {
        // Die quietly on a closed pipe (`puzzlebench solve ... | head`) like other Unix
        // tools. Not for `run`, which writes to its workers' pipes and must survive them.
        // SAFETY: setting a signal disposition to its default before any other thread exists.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let result = match cli.command {
        Command::List => {
            list();
            Ok(())
        }
        Command::Solve(a) => solve(a),
        Command::Run(a) => run(a),
        Command::Export(a) => export(a),
        Command::Worker => worker(),
        Command::Reproduce(a) => reproduce(a),
        Command::Report(a) => report(a),
        Command::Generate(GenerateCommand::Battleship(a)) => generate_battleship(a),
        Command::Generate(GenerateCommand::Hashi(a)) => generate_hashi(a),
        Command::Generate(GenerateCommand::Zebra(a)) => generate_zebra(a),
        Command::Generate(GenerateCommand::Circuit(a)) => generate_circuit(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(code, msg)) => {
            eprintln!("puzzlebench: {msg}");
            ExitCode::from(code)
        }
    }
}

fn list() {
    println!("Puzzles and formulations (the first is the default):");
    for p in PUZZLES.iter().filter(|p| !p.hidden) {
        println!("  {:<12} {}", p.key, p.description);
        for f in p.formulations {
            println!("      {:<10} {}", f.key, f.description);
        }
        println!("      input: {}", p.formats);
    }
    println!("Backends:");
    for b in Backend::EVERY {
        println!("  {:<12} {} [{}]", b.key(), b.description(), b.version());
    }
}

fn formulation_of(p: &PuzzleInfo, f: &Option<String>) -> Result<String, Failure> {
    match f {
        Some(f) => p
            .formulation(f)
            .map(|f| f.key.to_string())
            .map_err(bad_input),
        None => Ok(p.default_formulation().to_string()),
    }
}

fn solve(a: SolveArgs) -> Result<(), Failure> {
    let p = puzzles::puzzle(&a.puzzle).map_err(bad_input)?;
    let formulation = formulation_of(p, &a.formulation)?;
    let backend: Backend = a.backend.parse().map_err(bad_input)?;
    let options = a.solver.options().map_err(bad_input)?;
    if a.solver.heuristics.len() > 1 {
        return Err(bad_input(
            "solve takes one --heuristics value (run sweeps a list)",
        ));
    }
    let instances = (p.load)(&a.file).map_err(bad_input)?;
    let env = RunEnv::detect();
    let mut worst: Option<Failure> = None;
    let several = instances.len() > 1;
    for (k, inst) in instances.iter().enumerate() {
        let spec = RunSpec {
            instance: inst.as_ref(),
            file: &a.file,
            formulation: &formulation,
            backend,
            repeat: 1,
        };
        let result = inst.solve(&formulation, backend, &options);
        let answer = result.as_ref().ok().and_then(|r| r.answer.clone());
        let rec = runner::to_record(p.key, &spec, &options, &env, result);
        print_solution(a.format, &rec, answer.as_ref());
        if let Some(path) = &a.svg {
            let path = if several {
                numbered(path, k + 1)
            } else {
                path.clone()
            };
            match inst.svg(answer.as_ref()) {
                Some(svg) => std::fs::write(&path, svg)
                    .map_err(|e| Failure(1, format!("{}: cannot write: {e}", path.display())))?,
                None => return Err(bad_input(format!("{} has no picture", p.key))),
            }
        }
        if let Some(reason) = failure_reason(&rec) {
            worst = Some(Failure(1, format!("{}: {reason}", rec.instance)));
        }
    }
    worst.map_or(Ok(()), Err)
}

/// `out.svg` with index 3 becomes `out-3.svg`.
fn numbered(path: &Path, k: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("picture".into(), |s| s.to_string_lossy().to_string());
    let ext = path
        .extension()
        .map_or("svg".into(), |e| e.to_string_lossy().to_string());
    path.with_file_name(format!("{stem}-{k}.{ext}"))
}

/// Why a run counts as a failure for the exit code, or None when it solved or proved infeasibility.
fn failure_reason(r: &Record) -> Option<String> {
    match r.status.as_str() {
        "infeasible" => None,
        "optimal" | "feasible" if r.verified == Some(true) => None,
        "optimal" | "feasible" => Some(format!(
            "the verifier refused the solution: {}",
            r.error.clone().unwrap_or_default()
        )),
        s => Some(format!(
            "{s}{}",
            r.error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        )),
    }
}

fn print_solution(format: Format, r: &Record, answer: Option<&puzzles::Answer>) {
    match format {
        Format::Json => {
            let obj = serde_json::json!({
                "puzzle": r.puzzle,
                "instance": r.instance,
                "formulation": r.formulation,
                "backend": r.backend,
                "status": r.status,
                "seconds": r.seconds,
                "build_seconds": r.build_seconds,
                "objective": r.objective,
                "best_bound": r.best_bound,
                "gap": r.gap,
                "lp_bound": r.lp_bound,
                "verified": r.verified,
                "heuristics": r.heuristics,
                "nodes": r.nodes,
                "rounds": r.rounds,
                "cuts": r.cuts,
                "fixings": r.fixings,
                "inferences": r.inferences,
                "solutions": r.solutions,
                "solution": answer.map(|a| a.json.clone()),
            });
            println!("{obj}");
        }
        Format::Text => {
            let secs = r.seconds.map_or("-".into(), |s| format!("{s:.4} s"));
            println!(
                "{}: {} ({} / {}) in {secs}, build {:.4} s, LP bound {}, verified {}",
                r.instance,
                r.status,
                r.formulation,
                r.backend,
                r.build_seconds.unwrap_or(0.0),
                r.lp_bound.map_or("-".into(), |b| format!("{b}")),
                r.verified.map_or("-".into(), |v| if v {
                    "yes".into()
                } else {
                    "NO".to_string()
                }),
            );
            let mut extra = Vec::new();
            if let Some(h) = &r.heuristics {
                extra.push(format!("heuristics {h}"));
            }
            if let (Some(n), true) = (r.nodes, r.inferences.is_some()) {
                extra.push(format!("{n} nodes"));
            }
            if let Some(i) = r.inferences {
                extra.push(format!("{i} inferences"));
            }
            if let (Some(rounds), Some(cuts)) = (r.rounds, r.cuts) {
                let nodes = r.nodes.map(|n| format!(", {n} nodes")).unwrap_or_default();
                extra.push(format!("{rounds} cut rounds, {cuts} rows added{nodes}"));
            }
            if let Some(f) = r.fixings {
                extra.push(format!("{f} fixings"));
            }
            if let Some(n) = r.solutions.filter(|_| r.count > 1) {
                let what = match (n, n >= u64::from(r.count)) {
                    (1, false) => "1 solution: unique".to_string(),
                    (n, false) => format!("{n} solutions, all there are"),
                    (n, true) => format!("{n} solutions found (stopped at --count {})", r.count),
                };
                extra.push(what);
            }
            if !extra.is_empty() {
                println!("  {}", extra.join(", "));
            }
            if let Some(e) = &r.error {
                println!("  reason: {e}");
            }
            if let Some(a) = answer {
                println!("{}", a.text);
            }
        }
    }
}

/// Every instance file named: files as they are, folders as their files (not *.md), sorted.
fn instance_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| bad_input(format!("{}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && is_instance_file(f))
                .collect();
            inner.sort();
            files.extend(inner);
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            return Err(bad_input(format!(
                "{}: no such file or folder",
                p.display()
            )));
        }
    }
    Ok(files)
}

fn is_instance_file(f: &Path) -> bool {
    let name = f
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    !name.starts_with('.') && !name.ends_with(".md")
}

fn run(a: RunArgs) -> Result<(), Failure> {
    let p = puzzles::puzzle(&a.puzzle).map_err(bad_input)?;
    let formulations: Vec<String> = if a.formulation.is_empty() {
        p.formulations.iter().map(|f| f.key.to_string()).collect()
    } else {
        a.formulation
            .iter()
            .map(|f| p.formulation(f).map(|f| f.key.to_string()))
            .collect::<Result<_, _>>()
            .map_err(bad_input)?
    };
    let backends = parse_backends(&a.backend)?;
    if a.repeats == 0 {
        return Err(bad_input("--repeats must be at least 1"));
    }
    if a.jobs == 0 {
        return Err(bad_input("--jobs must be at least 1"));
    }
    if !(a.grace >= 0.0 && a.grace.is_finite()) {
        return Err(bad_input("--grace must be 0 or more seconds"));
    }
    let settings = a.solver.each_heuristics().map_err(bad_input)?;
    if load_instances(p, &a.instances)?.is_empty() {
        return Err(bad_input("no instance files found"));
    }
    // One plan per --heuristics value; they share the results file.
    let plans: Vec<Plan> = settings
        .into_iter()
        .map(|options| {
            Ok(Plan {
                puzzle: p,
                instances: load_instances(p, &a.instances)?,
                formulations: formulations.clone(),
                backends: backends.clone(),
                repeats: a.repeats,
                options,
            })
        })
        .collect::<Result<_, Failure>>()?;
    let config = SweepConfig {
        jobs: a.jobs,
        resume: a.resume,
        memory_mb: a.memory_limit,
        grace_seconds: a.grace,
        in_process: a.in_process,
        exe: std::env::current_exe()
            .map_err(|e| Failure(1, format!("cannot find my own executable: {e}")))?,
    };
    static STOP: AtomicBool = AtomicBool::new(false);
    ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst))
        .map_err(|e| Failure(1, format!("cannot install the signal handler: {e}")))?;
    let total: usize = plans.iter().map(|plan| plan.runs().len()).sum();
    let bar = progress_bar(total as u64, a.quiet, p.key);
    let env = RunEnv::detect();
    let on_row = |r: &Record| {
        bar.set_message(format!(
            "{} {} {} {}",
            r.instance,
            r.formulation,
            r.backend_label(),
            r.status
        ));
        bar.inc(1);
    };
    let mut outcome = runner::SweepOutcome::default();
    for plan in &plans {
        let o = runner::sweep(plan, &a.out, &env, &config, &STOP, &on_row).map_err(bad_input)?;
        outcome.rows.extend(o.rows);
        outcome.skipped += o.skipped;
        outcome.not_run += o.not_run;
        outcome.stopped |= o.stopped;
        outcome.repaired_bytes += o.repaired_bytes;
        if o.stopped {
            break;
        }
    }
    bar.finish_and_clear();
    let rows = &outcome.rows;
    if outcome.repaired_bytes > 0 {
        eprintln!(
            "{}: cut off an incomplete last line ({} bytes) left by a killed run; that run is done again",
            a.out.display(),
            outcome.repaired_bytes
        );
    }
    if outcome.skipped > 0 {
        eprintln!(
            "{} runs already in {} were skipped (--resume)",
            outcome.skipped,
            a.out.display()
        );
    }
    eprintln!("{} runs appended to {}", rows.len(), a.out.display());
    eprint!(
        "{}",
        summary::text_table(&summary::summarise(rows, a.shift), a.shift)
    );
    if outcome.stopped {
        return Err(Failure(
            130,
            format!(
                "stopped by a signal: {} runs written, {} not run; run again with --resume to finish",
                rows.len(),
                outcome.not_run
            ),
        ));
    }
    let failed = rows.iter().filter(|r| failure_reason(r).is_some()).count();
    if failed > 0 {
        return Err(Failure(
            1,
            format!(
                "{failed} of {} runs did not solve (see the status and error columns)",
                rows.len()
            ),
        ));
    }
    Ok(())
}

fn progress_bar(total: u64, quiet: bool, prefix: &str) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} {elapsed_precise} [{bar:30}] {pos}/{len} eta {eta} {msg}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    bar.set_prefix(prefix.to_string());
    bar
}

fn reproduce(a: ReproduceArgs) -> Result<(), Failure> {
    let backends = parse_backends(&a.backend)?;
    let chosen: Vec<&PuzzleInfo> = if a.puzzle.is_empty() {
        PUZZLES.iter().filter(|p| !p.hidden).collect()
    } else {
        a.puzzle
            .iter()
            .map(|k| puzzles::puzzle(k))
            .collect::<Result<_, _>>()
            .map_err(bad_input)?
    };
    if let Some(t) = a.time_limit {
        if !(t > 0.0 && t.is_finite()) {
            return Err(bad_input(format!(
                "--time-limit must be a positive number of seconds, not {t}"
            )));
        }
    }
    if !a.instances_dir.is_dir() {
        return Err(bad_input(format!(
            "{}: no such folder; run reproduce from the repository's root",
            a.instances_dir.display()
        )));
    }
    std::fs::create_dir_all(&a.out).map_err(|e| bad_input(format!("{}: {e}", a.out.display())))?;
    let csv = a.out.join("results.csv");
    if a.fresh && csv.exists() {
        let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
        let kept = a.out.join(format!("results-{stamp}.csv"));
        std::fs::rename(&csv, &kept).map_err(|e| Failure(1, format!("{}: {e}", csv.display())))?;
        eprintln!("kept the previous results as {}", kept.display());
    }
    static STOP: AtomicBool = AtomicBool::new(false);
    ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst))
        .map_err(|e| Failure(1, format!("cannot install the signal handler: {e}")))?;
    let env = RunEnv::detect();
    let exe = std::env::current_exe()
        .map_err(|e| Failure(1, format!("cannot find my own executable: {e}")))?;
    let pictures = a.out.join("pictures");
    std::fs::create_dir_all(&pictures)
        .map_err(|e| Failure(1, format!("{}: {e}", pictures.display())))?;
    // The files or folders of a suite (part) that this instances folder holds.
    let present = |names: &[&str]| -> Vec<PathBuf> {
        names
            .iter()
            .map(|i| a.instances_dir.join(i))
            .filter(|p| p.exists())
            .collect()
    };
    for p in chosen {
        let suite = (p.suite)(a.quick);
        // A suite whose instances are not in this instances folder is skipped, not fatal
        // (a test folder may hold the instances of some puzzles only).
        let paths = present(&suite.instances);
        if paths.is_empty() {
            eprintln!(
                "{}: no instances of its suite under {}; skipped",
                p.key,
                a.instances_dir.display()
            );
            continue;
        }
        let instances = load_instances(p, &paths)?;
        if instances.is_empty() {
            continue;
        }
        // One picture per puzzle: its first instance, solved in process.
        if let Some(first) = instances.first() {
            let formulation = suite.formulations[0];
            let report = first
                .instance
                .solve(formulation, backends[0], &SolveOptions::default())
                .ok();
            let answer = report.and_then(|r| r.answer);
            if let Some(svg) = first.instance.svg(answer.as_ref()) {
                let path = pictures.join(format!("{}.svg", p.key));
                std::fs::write(&path, svg)
                    .map_err(|e| Failure(1, format!("{}: {e}", path.display())))?;
            }
        }
        let options = SolveOptions {
            time_limit: Some(a.time_limit.unwrap_or(suite.time_limit)),
            ..SolveOptions::default()
        };
        // The main plan on the chosen backends, once per presolve setting of the suite
        // (the run id includes it), then each own-backend sweep (CP formulations on
        // propagate, once per heuristics setting). Each sweep is labelled in the summary.
        let mut plans: Vec<(String, Plan)> = Vec::new();
        let mut main_instances = Some(instances);
        for &presolve in &suite.presolve {
            let label = if suite.presolve.len() > 1 {
                let on = if presolve { "on" } else { "off" };
                format!("{} (presolve {on})", p.key)
            } else {
                p.key.to_string()
            };
            let instances = match main_instances.take() {
                Some(loaded) => loaded,
                None => load_instances(p, &paths)?,
            };
            plans.push((
                label,
                Plan {
                    puzzle: p,
                    instances,
                    formulations: suite.formulations.iter().map(|f| f.to_string()).collect(),
                    backends: backends.clone(),
                    repeats: suite.repeats,
                    options: SolveOptions {
                        presolve,
                        ..options.clone()
                    },
                },
            ));
        }
        for part in &suite.extra {
            let paths = present(&part.instances);
            if paths.is_empty() {
                continue;
            }
            let options = SolveOptions {
                time_limit: Some(a.time_limit.unwrap_or(part.time_limit)),
                ..SolveOptions::default()
            };
            let plan = Plan {
                puzzle: p,
                instances: load_instances(p, &paths)?,
                formulations: part.formulations.iter().map(|f| f.to_string()).collect(),
                backends: backends.clone(),
                repeats: suite.repeats,
                options,
            };
            plans.push((
                format!("{} ({})", p.key, part.formulations.join(", ")),
                plan,
            ));
        }
        for own in &suite.own_backend {
            for &heuristics in &own.heuristics {
                let options = SolveOptions {
                    heuristics,
                    ..options.clone()
                };
                let plan = Plan {
                    puzzle: p,
                    instances: load_instances(p, &paths)?,
                    formulations: own.formulations.iter().map(|f| f.to_string()).collect(),
                    backends: vec![own.backend],
                    repeats: suite.repeats,
                    options,
                };
                let label = format!(
                    "{} ({} heuristics {})",
                    p.key,
                    own.backend,
                    heuristics.key()
                );
                plans.push((label, plan));
            }
        }
        let config = SweepConfig {
            jobs: a.jobs.max(1),
            resume: true,
            memory_mb: None,
            grace_seconds: 5.0,
            in_process: false,
            exe: exe.clone(),
        };
        let total: usize = plans.iter().map(|(_, plan)| plan.runs().len()).sum();
        let bar = progress_bar(total as u64, a.quiet, p.key);
        let on_row = |r: &Record| {
            bar.set_message(format!(
                "{} {} {} {}",
                r.instance,
                r.formulation,
                r.backend_label(),
                r.status
            ));
            bar.inc(1);
        };
        let mut summary = Vec::new();
        for (label, plan) in &plans {
            let outcome =
                runner::sweep(plan, &csv, &env, &config, &STOP, &on_row).map_err(bad_input)?;
            summary.push(format!(
                "{label}: {} runs appended, {} already in {}",
                outcome.rows.len(),
                outcome.skipped,
                csv.display()
            ));
            if outcome.stopped {
                bar.finish_and_clear();
                return Err(Failure(
                    130,
                    "stopped by a signal; run reproduce again to finish (finished runs are kept)"
                        .into(),
                ));
            }
        }
        bar.finish_and_clear();
        for line in summary {
            eprintln!("{line}");
        }
    }
    let rows = runner::read_results(&csv).map_err(bad_input)?;
    let mode = if a.quick { "--quick" } else { "(full suite)" };
    let preamble = format!(
        "Made by `puzzlebench reproduce {mode} --backend {}` on {}. Raw rows: [results.csv](results.csv).\n",
        a.backend.join(","),
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC")
    );
    write_report(&rows, &a.out, a.shift, &preamble)
}

/// Parses backend keys; the error lists the valid ones.
fn parse_backends(keys: &[String]) -> Result<Vec<Backend>, Failure> {
    keys.iter()
        .map(|b| b.parse())
        .collect::<Result<_, _>>()
        .map_err(bad_input)
}

/// Writes the report and says where it went.
fn write_report(rows: &[Record], out: &Path, shift: f64, preamble: &str) -> Result<(), Failure> {
    let written =
        puzzlebench::report::write_report(rows, out, shift, preamble).map_err(|e| Failure(1, e))?;
    eprintln!(
        "wrote {} ({} table files, {} plot files)",
        written.index.display(),
        written.tables.len(),
        written.plots.len()
    );
    Ok(())
}

/// Loads every instance of the named files and folders.
fn load_instances(p: &PuzzleInfo, paths: &[PathBuf]) -> Result<Vec<Loaded>, Failure> {
    let mut instances = Vec::new();
    for f in instance_files(paths)? {
        for instance in (p.load)(&f).map_err(bad_input)? {
            instances.push(Loaded {
                file: f.clone(),
                instance,
            });
        }
    }
    Ok(instances)
}

fn report(a: ReportArgs) -> Result<(), Failure> {
    let mut rows = Vec::new();
    for f in &a.csv {
        rows.extend(runner::read_results(f).map_err(bad_input)?);
    }
    let names: Vec<String> = a.csv.iter().map(|p| p.display().to_string()).collect();
    let preamble = format!(
        "Rebuilt by `puzzlebench report` from {}.\n",
        names.join(", ")
    );
    write_report(&rows, &a.out, a.shift, &preamble)
}

/// The worker side of process isolation: one job from stdin, one record to stdout.
fn worker() -> Result<(), Failure> {
    let mut input = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut input)
        .map_err(|e| Failure(2, format!("worker: cannot read the job: {e}")))?;
    let job: Job =
        serde_json::from_str(&input).map_err(|e| Failure(2, format!("worker: bad job: {e}")))?;
    let p = puzzles::puzzle(&job.puzzle).map_err(bad_input)?;
    let backend: Backend = job.backend.parse().map_err(bad_input)?;
    let instances = (p.load)(&job.file).map_err(bad_input)?;
    let inst = instances
        .iter()
        .find(|i| i.name() == job.instance)
        .ok_or_else(|| {
            bad_input(format!(
                "{}: no instance named {}",
                job.file.display(),
                job.instance
            ))
        })?;
    let spec = RunSpec {
        instance: inst.as_ref(),
        file: &job.file,
        formulation: &job.formulation,
        backend,
        repeat: job.repeat,
    };
    let rec = runner::run_in_process(p.key, &spec, &job.options, &RunEnv::detect());
    if rec.run_id != job.run_id {
        return Err(Failure(
            2,
            format!(
                "worker: {} changed since the sweep started",
                job.file.display()
            ),
        ));
    }
    println!(
        "{}",
        serde_json::to_string(&rec).expect("record serialises")
    );
    Ok(())
}

fn generate_hashi(a: GenerateHashiArgs) -> Result<(), Failure> {
    use puzzlebench::puzzles::hashi::generate::{self as gen, Params};
    if matches!(a.format, GenerateFormat::Has) && a.count != 1 {
        return Err(bad_input("--format has writes one board; use --count 1"));
    }
    for seed in a.seed..a.seed.saturating_add(a.count) {
        let params = Params {
            rows: a.rows,
            cols: a.cols.unwrap_or(a.rows),
            islands: a.islands,
            max_bridges: a.max_bridges,
            extra: a.extra,
            seed,
        };
        let (board, _) = gen::generate(&params).map_err(bad_input)?;
        match a.format {
            GenerateFormat::Id => println!("{}", board.to_game_id()),
            GenerateFormat::Has => print!("{}", gen::to_has(&board).map_err(bad_input)?),
        }
    }
    Ok(())
}

fn export(a: ExportArgs) -> Result<(), Failure> {
    let p = puzzles::puzzle(&a.puzzle).map_err(bad_input)?;
    let formulation = formulation_of(p, &a.formulation)?;
    let instances = (p.load)(&a.file).map_err(bad_input)?;
    let model = instances[0].build(&formulation).map_err(bad_input)?;
    let (path, text) = match (&a.mps, &a.lp) {
        (Some(path), _) => (path, model.to_mps()),
        (_, Some(path)) => (path, model.to_lp()),
        _ => unreachable!("clap requires --mps or --lp"),
    };
    std::fs::write(path, text)
        .map_err(|e| Failure(1, format!("{}: cannot write: {e}", path.display())))?;
    let c = model.counts();
    eprintln!(
        "wrote {} ({} variables, {} rows, {} nonzeros)",
        path.display(),
        c.variables,
        c.constraints,
        c.nonzeros
    );
    Ok(())
}

/// Writes `count` generated puzzles, made by `make` from seeds `seed`, `seed + 1`, ..., to
/// a new file (never overwriting one) or standard output, with a progress bar when there
/// are several.
fn write_generated(
    out: &Option<PathBuf>,
    seed: u64,
    count: u64,
    mut make: impl FnMut(u64) -> Result<String, Failure>,
) -> Result<(), Failure> {
    use std::io::Write as _;
    if count == 0 {
        return Err(bad_input("--count must be at least 1"));
    }
    let mut out: Box<dyn std::io::Write> = match out {
        Some(path) => Box::new(
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| bad_input(format!("cannot create {}: {e}", path.display())))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let cannot_write = |e: std::io::Error| Failure(1, format!("cannot write the puzzle: {e}"));
    let bar = progress_bar(count, count == 1, "generating");
    for k in 0..count {
        let text = make(seed + k)?;
        out.write_all(text.as_bytes()).map_err(cannot_write)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    out.flush().map_err(cannot_write)
}

fn generate_circuit(a: GenerateCircuitArgs) -> Result<(), Failure> {
    use puzzlebench::puzzles::circuit::generate::{self, Options};
    let (rows, cols) = match (a.size, a.rows, a.cols) {
        (Some(k), _, _) => (k, k),
        (None, Some(r), Some(c)) => (r, c),
        _ => return Err(bad_input("give --size K or --rows R --cols C")),
    };
    if rows == 0 || cols == 0 {
        return Err(bad_input("the grid needs at least one row and one column"));
    }
    if !(0.0..=1.0).contains(&a.blocked) {
        return Err(bad_input(format!(
            "--blocked {}: a share from 0 to 1",
            a.blocked
        )));
    }
    let points = a
        .points
        .unwrap_or_else(|| Options::points_for(rows, cols, a.blocked));
    let prefix = a.name.clone().unwrap_or_else(|| format!("c{rows}x{cols}"));
    let mut command = format!(
        "puzzlebench generate circuit --rows {rows} --cols {cols} --points {points} --given {}",
        a.given
    );
    if a.endpoints {
        command.push_str(" --endpoints");
    }
    if let Some(name) = &a.name {
        command.push_str(&format!(" --name {name}"));
    }
    write_generated(&a.out, a.seed, a.count, |seed| {
        let o = Options {
            rows,
            cols,
            points,
            given: a.given,
            endpoints: a.endpoints,
            seed,
            attempts: 10_000,
            name: format!("{prefix}_{seed}"),
        };
        let mut p = generate::generate(&o).map_err(bad_input)?;
        if a.unique_time > 0.0 {
            p.unique = generate::is_unique(&p, a.unique_time).map_err(|e| Failure(1, e))?;
        }
        Ok(format!("# {command} --seed {seed}\n{}\n", p.to_text()))
    })
}

fn generate_battleship(a: GenerateBattleshipArgs) -> Result<(), Failure> {
    use puzzlebench::puzzles::battleship::generate::{self, Level};
    let level = match a.level {
        LevelArg::Easy => Level::Easy,
        LevelArg::Hard => Level::Hard,
    };
    let prefix = a
        .name
        .clone()
        .unwrap_or_else(|| format!("{}_{}x{}", level.label(), a.rows, a.cols));
    let fleet: Vec<String> = a.fleet.iter().map(|s| s.to_string()).collect();
    let mut command = format!(
        "puzzlebench generate battleship --rows {} --cols {} --fleet {} --level {}",
        a.rows,
        a.cols,
        fleet.join(","),
        level.label()
    );
    if let Some(e) = a.extra {
        command.push_str(&format!(" --extra {e}"));
    }
    write_generated(&a.out, a.seed, a.count, |seed| {
        let o = generate::Options {
            rows: a.rows,
            cols: a.cols,
            fleet: a.fleet.clone(),
            level,
            extra: a.extra.unwrap_or(a.rows * a.cols / 10),
            seed,
            name: format!("{prefix}_{seed}"),
        };
        let p = generate::generate(&o).map_err(bad_input)?;
        let mut text = format!("# {command} --seed {seed}\n{}", p.to_text());
        if let Some(sol) = &p.solution {
            text.push_str("solution\n");
            for row in sol {
                text.extend(row.iter().map(|c| c.symbol()));
                text.push('\n');
            }
        }
        text.push('\n');
        Ok(text)
    })
}

fn generate_zebra(a: GenerateZebraArgs) -> Result<(), Failure> {
    let z =
        puzzles::zebra::generate::generate(a.houses, a.attributes, a.seed).map_err(bad_input)?;
    let text = format!(
        "# Made by: puzzlebench generate zebra --houses {} --attributes {} --seed {}\n# {} clues, unique solution, no redundant clue.\n{}",
        a.houses,
        a.attributes,
        a.seed,
        z.clues.len(),
        z.to_text()
    );
    match &a.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Failure(1, format!("{}: cannot write: {e}", path.display())))?,
        None => print!("{text}"),
    }
    Ok(())
}
