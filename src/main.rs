//! The `puzzlebench` command line: argument parsing and exit codes only; every command is
//! a function of [`puzzlebench::commands`].

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use puzzlebench::commands::{self, Failure};
use puzzlebench::engines::{Heuristics, SolveOptions};
use puzzlebench::report::plots::{FigureFormat, DEFAULT_FIGURES};
use std::path::PathBuf;
use std::process::ExitCode;

/// Benchmark integer-programming formulations of logic puzzles across solver engines.
///
/// Every run records solve time, model-build time, LP-relaxation bound, best bound and
/// gap, and checks the solution with the puzzle's own verifier.
#[derive(Parser)]
#[command(name = "puzzlebench", version, about, long_about = None)]
struct Cli {
    /// A folder of engine definitions (`*.toml`, docs/engines.md "Adding an engine without
    /// Rust"), read beside the project's `engines/` and the folders of PUZZLEBENCH_ENGINES;
    /// may be given more than once.
    #[arg(long, global = true, value_name = "DIR")]
    engines: Vec<PathBuf>,
    /// A folder of formulation definitions (`*.toml`, also in its subfolders;
    /// docs/user-formulations.md), read beside the project's `formulations/` and the
    /// folders of PUZZLEBENCH_FORMULATIONS; may be given more than once. Their keys start
    /// with `user:`.
    #[arg(long, global = true, value_name = "DIR")]
    formulations: Vec<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List puzzles, their formulations and input formats, and the engines (the values of --backend)
    /// with what each takes.
    List,
    /// Solve the puzzles in FILE and print the solution (text grid or JSON).
    Solve(SolveArgs),
    /// Count the solutions of the puzzles in FILE, up to --limit.
    ///
    /// After each solution the row that excludes it (a no-good row on MIP engines, a
    /// blocking clause on the SAT engine) is added and the model solved again. For an
    /// optimisation model (n-Queens) the optimal solutions are counted: the model is
    /// solved to optimality first and its objective fixed to the optimum. Solutions are
    /// puzzle answers: two assignments of a model's columns that give one answer count
    /// once (the least-walls model counts boards, i.e. distinct wall sets). Exit status 1
    /// when a count is not settled (time limit) or a solution fails the verifier.
    Count(CountArgs),
    /// Run a sweep: every instance x formulation x engine x repeat, one CSV row each.
    ///
    /// A formulation on an engine that does not take its kind (lazy rows on highs, a
    /// constraint program on cbc, ...) gives a row with status error and the reason.
    Run(RunArgs),
    /// Write the model of a formulation as MPS or LP, or the instance as JSON.
    ///
    /// --json writes the instance in its puzzle's documented JSON shape (docs/puzzles/<puzzle>.md,
    /// "Formulations without Rust"), the input of a formulation written outside Rust;
    /// with --all, every instance of the file as a JSON array.
    Export(ExportArgs),
    /// The main job: run the reproduction suites and write CSV, tables, plots and pictures.
    ///
    /// Each puzzle contributes one suite (its instances, formulations and repeats) and the
    /// tables of the report it reproduces, with the report's figures beside ours. Rows go
    /// to OUT/results.csv, which is resumed when it exists (finished runs are kept and
    /// skipped); --fresh starts a new file and keeps the old one under a dated name.
    Reproduce(ReproduceArgs),
    /// Race a puzzle's configurations over a plan of instances: drop those a test shows
    /// are not the best, call equivalent those shown within a margin of it.
    ///
    /// The candidates are those of the puzzle's engine comparison: every formulation on
    /// every installed engine that takes it (or those of --backend and --formulation). The
    /// plan (--instances, default 48) is fixed before the race starts: one instance from
    /// each rung of the puzzle's ladder (instances/<puzzle>/ladder.txt) in turn, within a
    /// rung in the order --seed fixes, so it is the same on any machine and with any
    /// engines. Each round runs every survivor once on the next planned instance, one run
    /// at a time (the best first, the others under an adaptive cap of twice its time plus
    /// 0.02 s), each in a worker process and a row of OUT/results.csv with the race's name
    /// in its `race` column. At looks fixed before the start (after 12 to 17 instances, then
    /// every 6, and at the plan's end; alpha 0.05 spent over them) every survivor's exact
    /// one-sided signed-rank test against every other, on the log ratios of their times
    /// over the instances separating them, decides by the closure of "a is a best": a
    /// candidate is dropped when its test against some survivor meets its level; a
    /// survivor whose ratio's interval lies within --margin of the best is equivalent to
    /// it. The race ends when one candidate is left, when every survivor is equivalent to
    /// the best ("decided"), or when the plan is run; --budget is a safety cap that stops
    /// it short (and says so). Each candidate's label against the best (ahead, equivalent
    /// within the margin, or undecided, because ...) and ratio with its interval are
    /// printed; every look and drop goes to OUT/race.jsonl. Started again with the same
    /// command, a race goes on where it stopped. docs/race.md explains the method and what
    /// it guarantees.
    Race(RaceArgs),
    /// Rebuild every table and plot from result CSVs (gathered here or elsewhere).
    Report(ReportArgs),
    /// Merge the results files of a sharded sweep (--shard I/N) into one.
    ///
    /// Checks that the files are shards of one plan split one way (their sweep files
    /// record the plan's digest, the partition and each shard's runs) and of one build;
    /// drops exact duplicate rows; fails on a run recorded twice with different results;
    /// names the runs of the plan that no file holds (a shard not run, or cut short: run
    /// it again with --resume). `report` then works on the merged file.
    Merge(MergeArgs),
    /// Compare two results files of the same sweep (a new engine version, another machine,
    /// a changed setting): regressions, status changes and differing answers.
    ///
    /// Runs are matched by run id (instance content, puzzle, formulation, engine,
    /// settings, time limit, repeat), each file's last attempt of a run id kept; refused
    /// runs enter no statistic. Per configuration, over the instances both ran: the ratio
    /// NEW/OLD of the shifted geometric means of the instances' median times (a failure at
    /// its limit) with a 95 % bootstrap interval, and a verdict: regression (NEW solved
    /// fewer, or the interval lies above 1), improvement (solved more, or below 1), within
    /// noise, or no verdict (both medians under 1 ms, or one instance run once a side).
    /// The machine factor is the median over configurations of their time ratios NEW/OLD
    /// (95 % CI from order statistics); when the two sides' machines differ, NEW's times
    /// of solved runs are divided by it before the verdict, so that a configuration is
    /// flagged only when it moved differently from the rest (solved counts are not
    /// adjusted). On the same machines the factor is 1 and the median time ratio is printed.
    /// Differing answers come first: a run both solved to optimality with different
    /// objectives, both counted to different settled counts, or with different answer_hash
    /// values where the answer is known to be unique (a settled count of one solution, or
    /// unique=yes among the instance's facts). Writes OUT/diff.html, OUT/diff.md and
    /// OUT/diff.csv (one row per configuration); names the machines and engine versions of
    /// each side. Exit status 1 when an answer differs, 2 when a file is not a results
    /// file or they share no run, else 0 (regressions are printed, not failed).
    Diff(DiffArgs),
    /// Write (and with --submit, submit) a sweep as a SLURM job array: one task per shard,
    /// then a job that merges and reports. `puzzlebench slurm --help` for its options.
    #[command(disable_help_flag = true)]
    Slurm(SlurmArgs),
    /// Engine definitions: `engine check FILE` runs a definition on the tiny instance of
    /// every formulation it takes, verifies each answer and compares it with the usual
    /// engine's, and tries a 1 s limit on a hard instance.
    Engine(EngineArgs),
    /// Internal: run one job read as JSON from stdin and print its record as JSON.
    #[command(hide = true)]
    Worker,
}

#[derive(Args)]
struct EngineArgs {
    #[command(subcommand)]
    command: EngineCommand,
}

#[derive(Subcommand)]
enum EngineCommand {
    /// Check the engine definition FILE: its version and capabilities, a solve of the tiny
    /// instance of every formulation it takes (verified, and compared with the
    /// formulation's usual engine), and a 1 s limit on a hard instance. Exit status 1 when
    /// a check fails.
    Check {
        /// The definition file (TOML).
        file: PathBuf,
        /// Folder holding the instance folders.
        #[arg(long, default_value = "instances", hide = true)]
        instances_dir: PathBuf,
    },
}

#[derive(Args, Clone)]
struct SolverArgs {
    /// Time limit of each run in seconds: model building, LP relaxation and every solve
    /// (all rounds of row generation) draw on it. Default: none, so a run goes on until it
    /// ends, which can take many minutes on a hard instance or a slow engine; on a terminal
    /// `solve` shows the elapsed time (and the incumbent, bound and nodes where the engine
    /// reports them) once a solve has run for a second.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Threads per solve.
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Relative MIP gap at which a solver may stop (0 = prove optimality).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
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
    /// Search heuristics of the propagate and prolog engines: none, 1, 12, 123 (the
    /// report's Table 7.5 configurations: clue orders) or root (all constraints at the
    /// root, smallest domain first; the default; prolog runs it as none); `run` takes a
    /// comma-separated list and sweeps each. MIP engines ignore it.
    #[arg(long, value_delimiter = ',', value_name = "H")]
    heuristics: Vec<Heuristics>,
    /// Solutions to look for; 2 proves uniqueness (the solutions column then says 1).
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u32,
    #[command(flatten)]
    certify: CertifyArgs,
}

/// Certificates of claims (`--certify`).
#[derive(Args, Clone)]
struct CertifyArgs {
    /// Certify each run's claim beyond a valid answer: `optimal`, `unique` (a count that
    /// found fewer answers than asked for) or `infeasible`, on a model of 0/1 columns with
    /// whole coefficients, whichever engine made it. A proof-logging search proves the
    /// claim and VeriPB checks the proof (scripts/setup-veripb.sh installs it); the row's
    /// certificate column says `checked`, `rejected` with the checker's reason, or `none`
    /// with why (docs/certificates.md). The certificate's time is not the run's.
    #[arg(long)]
    certify: bool,
    /// Seconds the certifying search and the checker may each take per claim (with
    /// --certify); past it the certificate is `none` and says so.
    #[arg(long, default_value_t = 60.0, value_name = "S")]
    certify_limit: f64,
}

impl CertifyArgs {
    /// The certify option of the runs: the limit when --certify is given.
    fn seconds(&self) -> Result<Option<f64>, String> {
        if !(self.certify_limit > 0.0 && self.certify_limit.is_finite()) {
            return Err(format!(
                "--certify-limit must be a positive number of seconds, not {}",
                self.certify_limit
            ));
        }
        Ok(self.certify.then_some(self.certify_limit))
    }
}

impl SolverArgs {
    fn options(&self) -> Result<SolveOptions, String> {
        commands::check_time_limit(self.time_limit).map_err(|f| f.message)?;
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
            certify: self.certify.seconds()?,
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
    /// Engine key (see `list`). Default: the usual engine of the formulation's kind:
    /// highs for integer programs and row generation, bc for lazy rows, propagate for
    /// constraint programs.
    #[arg(long, visible_alias = "engine", value_name = "ENGINE")]
    backend: Option<String>,
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
struct CountArgs {
    /// Instance file (see `puzzlebench list` for the formats).
    file: PathBuf,
    /// Puzzle key.
    #[arg(long)]
    puzzle: String,
    /// Formulation key (default: the puzzle's first).
    #[arg(long)]
    formulation: Option<String>,
    /// Engine key (see `list`). Default: the usual engine of the formulation's kind. The
    /// sat engine is by far the fastest at counting (its blocking clauses keep the
    /// search's learnt clauses); a MIP engine solves again from scratch after each row.
    #[arg(long, visible_alias = "engine", value_name = "ENGINE")]
    backend: Option<String>,
    /// Stop after this many solutions (2 tells a unique puzzle from one with several).
    #[arg(long, value_name = "K")]
    limit: u32,
    /// Time limit in seconds for the whole count (default: none).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Threads per solve.
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Random seed given to the solver.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Also print the first solution found.
    #[arg(long)]
    show: bool,
    /// Output format (json: the run's CSV row and its first solution, one line per
    /// puzzle).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    certify: CertifyArgs,
}

#[derive(Args)]
struct RunArgs {
    /// Puzzle key.
    #[arg(long)]
    puzzle: String,
    /// Formulation keys, comma-separated (default: all of the puzzle's).
    #[arg(long, value_delimiter = ',')]
    formulation: Vec<String>,
    /// Engine keys, comma-separated (see `list`). A formulation on an engine that does not
    /// take its kind gives a row with status error and the reason. Default: for each
    /// formulation the usual engine of its kind (highs, bc for lazy rows, propagate for
    /// constraint programs).
    #[arg(
        long,
        visible_alias = "engine",
        value_delimiter = ',',
        value_name = "ENGINES"
    )]
    backend: Vec<String>,
    /// Instance files or folders (a folder means every file in it but *.md, sorted).
    #[arg(long, num_args = 1.., required = true)]
    instances: Vec<PathBuf>,
    /// Repeats of every combination.
    #[arg(long, default_value_t = 1)]
    repeats: u32,
    /// Results CSV; rows are appended, never overwritten (its folder is made when missing;
    /// results/ is ignored by git).
    #[arg(long, default_value = "results/run.csv")]
    out: PathBuf,
    /// Shift in seconds of the shifted geometric mean (SGM) in the summary printed after the
    /// sweep, the same default as the report's.
    #[arg(long, default_value_t = puzzlebench::stats::DEFAULT_SHIFT, allow_negative_numbers = true)]
    shift: f64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Skip runs already recorded in --out (matched by run id) and append only the rest.
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    measuring: MeasureArgs,
    /// Seconds a worker may run past its solver time limits before it is killed.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    grace: f64,
    /// Run in this process, without isolation (a crashing solver ends the sweep).
    #[arg(long, hide = true)]
    in_process: bool,
    #[command(flatten)]
    sharding: ShardArgs,
    #[command(flatten)]
    solver: SolverArgs,
}

/// Splitting a sweep over machines (`run` and `reproduce`).
#[derive(Args)]
struct ShardArgs {
    /// Run only the I-th of N parts of the plan (I from 1 to N), e.g. on the I-th of N
    /// machines: the parts are fixed by the runs' ids and cost estimates only, so N
    /// processes given 1/N ... N/N run every run exactly once. Merge their results files
    /// with `puzzlebench merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<puzzlebench::shard::Shard>,
    /// Results files of an earlier sweep whose times balance the shards (matched by run
    /// id, else by instance, formulation and engine); without them a run's estimate is its
    /// time limit. Every shard must be given the same files. Repeatable.
    #[arg(long, value_name = "CSV")]
    costs: Vec<PathBuf>,
    /// Run nothing: print what the plan costs per puzzle and engine (runs, their time
    /// limits summed, the estimate as for --shard, with --costs if given) and its
    /// estimated wall time on 1, 2, 4, ... 64 shards.
    #[arg(long)]
    dry_run: bool,
}
#[derive(Args)]
struct ReproduceArgs {
    /// The quick suite: every run once (under 10 minutes on 2 cores); the full suite
    /// repeats runs and may take longer.
    #[arg(long)]
    quick: bool,
    /// Engine keys, comma-separated: every part of every suite runs on them (each
    /// formulation on those that take its kind and model). Default: each puzzle's engine
    /// comparison (a few instances, all formulations) on every installed engine (`list`
    /// says which are installed), and the report's tables on one engine per kind: highs
    /// (integer programs and row generation), bc (lazy rows), propagate (constraint
    /// programs).
    #[arg(
        long,
        visible_alias = "engine",
        value_delimiter = ',',
        value_name = "ENGINES"
    )]
    backend: Option<Vec<String>>,
    /// Engine keys, comma-separated, left out of every part (with the default engines or
    /// --backend): for example `--without gurobi` for a report to publish, since the terms
    /// of gurobipy's evaluation licence forbid publishing benchmark results made with it.
    #[arg(long, value_delimiter = ',', value_name = "ENGINES")]
    without: Vec<String>,
    /// Time limit of each run in seconds (default: each suite's own).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Output folder (ignored by git; the committed example report is
    /// docs/example-report/).
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// Start a new results.csv (the old one is kept as results-DATE.csv).
    #[arg(long)]
    fresh: bool,
    /// Only these puzzles (default: all), comma-separated.
    #[arg(long, value_delimiter = ',')]
    puzzle: Vec<String>,
    #[command(flatten)]
    measuring: MeasureArgs,
    /// Shift in seconds of the shifted geometric mean (SGM), the one shift of every table,
    /// figure and verdict; 0.01 s suits millisecond-to-seconds times (docs/measurement.md says
    /// why).
    #[arg(long, default_value_t = puzzlebench::stats::DEFAULT_SHIFT, allow_negative_numbers = true)]
    shift: f64,
    /// Folder holding the instance folders.
    #[arg(long, default_value = "instances", hide = true)]
    instances_dir: PathBuf,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Formats of the plots, comma-separated: pdf (vector, fonts embedded), pgf (PGFPlots
    /// .tex with its data in a .csv), svg, png.
    #[arg(long, value_enum, value_delimiter = ',', default_value = DEFAULT_FIGURES)]
    figures: Vec<FigureFormat>,
    #[command(flatten)]
    sharding: ShardArgs,
    /// The safety cap of each puzzle's race, its engine comparison (`puzzlebench race`):
    /// wall time of its runs, as seconds (300) or with a unit (90s, 5m). A race plans its
    /// instances (--race-instances); the cap only stops one that would run too long, and
    /// the report says so. Default: 5 minutes.
    #[arg(long, value_parser = parse_budget, value_name = "DURATION")]
    race_budget: Option<f64>,
    /// The instances each race plans (looks after 12, then every 6): the same instances
    /// in the same order on any machine and with any engines.
    #[arg(long, value_name = "N", default_value_t = commands::race::DEFAULT_INSTANCES)]
    race_instances: usize,
    /// Races at once, each on a physical core of its own and running its runs one at a
    /// time, so that the best and the others are timed alike (default: one per physical
    /// core; the report's parts run as --jobs says).
    #[arg(long, value_name = "N")]
    race_jobs: Option<usize>,
    /// The races' margin of equivalence (`puzzlebench race --margin`): 10% unless said.
    #[arg(long, default_value = "10%", value_name = "M", value_parser = parse_margin)]
    race_margin: f64,
    /// Once the runs are done, store the raw files (results.csv, its timelines and
    /// race.jsonl) gzip-compressed (.gz, a tenth of the size), and link the compressed rows
    /// from the report; `report` and `diff` read them as they are, and a later reproduce
    /// into the same folder takes them back before it goes on.
    #[arg(long)]
    compress_raw: bool,
    #[command(flatten)]
    certify: CertifyArgs,
}

fn parse_budget(s: &str) -> Result<f64, String> {
    commands::race::parse_budget(s)
}

fn parse_margin(s: &str) -> Result<f64, String> {
    commands::race::parse_margin(s)
}

#[derive(Args)]
struct RaceArgs {
    /// Puzzle key (see `list`).
    #[arg(long)]
    puzzle: String,
    /// Engine keys, comma-separated (default: every installed engine; `list` says which).
    #[arg(
        long,
        visible_alias = "engine",
        value_delimiter = ',',
        value_name = "ENGINES"
    )]
    backend: Option<Vec<String>>,
    /// Formulation keys, comma-separated (default: those of the puzzle's engine
    /// comparison; n-Queens races `base` and `least-walls` apart).
    #[arg(long, value_delimiter = ',')]
    formulation: Vec<String>,
    /// The instances the race plans (fewer where the ladder holds fewer): taken from the
    /// ladder's rungs in turn, in the order --seed fixes, the same on any machine and with
    /// any engines. The tests (looks) come once they could drop a candidate (after 12 to
    /// 17 instances, by the number of candidates), then every 6, and at the plan's end,
    /// with α = 0.05 spent over them; the race runs until every candidate but the best is
    /// dropped or equivalent to it, or the plan (or --budget) runs out (docs/race.md).
    #[arg(long, value_name = "N", default_value_t = commands::race::DEFAULT_INSTANCES)]
    instances: usize,
    /// The margin of equivalence: a candidate whose ratio to the best lies, with the
    /// race's confidence, within it both ways is "equivalent within" it. A percentage
    /// (10%) or a fraction (0.1).
    #[arg(long, default_value = "10%", value_name = "M")]
    margin: String,
    /// A safety cap on each race: wall time of its runs, worker starts included, as seconds
    /// (90) or with a unit (90s, 5m, 1h). When spent (checked before each instance) the race
    /// stops short of its plan, and its summary and report say so.
    #[arg(long, default_value = "10m")]
    budget: String,
    /// Time limit of each run in seconds (default: that of the puzzle's engine comparison).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Output folder: results.csv (rows appended) and race.jsonl (the race's record).
    #[arg(long, default_value = "results/race")]
    out: PathBuf,
    /// Seed of the instance order within each rung (the same seed, the same instances in
    /// the same order).
    #[arg(long, default_value_t = commands::race::DEFAULT_SEED)]
    seed: u64,
    #[command(flatten)]
    measuring: MeasureArgs,
    /// Folder holding the instance folders and the ladders.
    #[arg(long, default_value = "instances", hide = true)]
    instances_dir: PathBuf,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args)]
struct MergeArgs {
    /// The results files (shards) to merge.
    #[arg(required = true)]
    csv: Vec<PathBuf>,
    /// The merged results file (its sweep file is written beside it). An existing file is
    /// replaced only when every row of it is among the merged rows.
    #[arg(long)]
    out: PathBuf,
    /// Merge files of different plans, partitions or builds anyway (each difference is
    /// printed); rows that conflict still fail the merge.
    #[arg(long)]
    force: bool,
    /// Fail when a run of the plan is missing (default: name the missing runs and merge).
    #[arg(long)]
    require_complete: bool,
}

#[derive(Args)]
struct DiffArgs {
    /// The results file of before.
    old: PathBuf,
    /// The results file of after.
    new: PathBuf,
    /// Folder of diff.html, diff.md and diff.csv (made when missing; files there of an
    /// earlier diff are replaced).
    #[arg(long, default_value = "results/diff")]
    out: PathBuf,
    /// Shift in seconds of the shifted geometric mean (SGM), the one shift of every table,
    /// figure and verdict; 0.01 s suits millisecond-to-seconds times (docs/measurement.md says
    /// why).
    #[arg(long, default_value_t = puzzlebench::stats::DEFAULT_SHIFT, allow_negative_numbers = true)]
    shift: f64,
    /// Judge every configuration against this machine factor (NEW's times of solved runs
    /// divided by it) instead of the estimate, which applies only when the machines differ;
    /// 1 judges the plain ratios, as on one machine.
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    machine_factor: Option<f64>,
    /// Compare two engines or two formulations instead of two sweeps: OLD's runs on engine
    /// A with NEW's runs on engine B (the same file may be given twice), matched by
    /// instance, formulation, time limit, seed, threads, presolve, gap, race and repeat,
    /// on the run clock; or OLD's runs of formulation A with NEW's of formulation B,
    /// matched by instance and engine and the rest, on their solve times. For example
    /// `--pair cbc=cbc-cli` compares CBC in process with CBC's command-line program, and
    /// `--pair gbm=user:gbm-pulp` the built-in gbm with the same model written in PuLP.
    #[arg(long, value_name = "A=B")]
    pair: Option<String>,
}

#[derive(Args)]
struct SlurmArgs {
    /// `run` or `reproduce`, their arguments, and the options of `slurm` (see --help).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<String>,
}

/// How runs are measured, placed and ordered (`run` and `reproduce`).
#[derive(Args)]
struct MeasureArgs {
    /// Runs at once, each in its own process on CPU cores of its own (never two on the
    /// hyperthreads of one physical core, unless --share-cores); for race, races at once
    /// (a puzzle that asks two questions races two), each running its runs one at a time
    /// on a core of its own. Default: 1 for run and race (timings are cleanest one at a
    /// time on a quiet machine); for reproduce one per physical core (BenchExec's rule).
    /// More than the physical cores gives a warning.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Memory limit of each run in MiB, for all its processes together (a cgroup's limit;
    /// without cgroups a cap on the worker's address space); a run that exceeds it is
    /// recorded as an error.
    #[arg(long, value_name = "MB")]
    memory_limit: Option<u64>,
    /// The order runs start in: random (instances, formulations, engines and repeats
    /// interleaved by a seeded shuffle, so a slow drift of the machine favours none of
    /// them) or plan (instance by instance, as listed).
    #[arg(long, value_enum, default_value_t = RunOrder::Random)]
    order: RunOrder,
    /// Seed of the random order (default: a fresh one, printed and recorded in the sweep
    /// file beside the results).
    #[arg(long, value_name = "N")]
    order_seed: Option<u64>,
    /// Let workers run on the two hyperthreads of one physical core.
    #[arg(long)]
    share_cores: bool,
    /// Measure CPU time and memory with rusage even where cgroups are available (rusage
    /// misses processes a worker does not wait for).
    #[arg(long)]
    no_cgroups: bool,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum RunOrder {
    Random,
    Plan,
}

impl MeasureArgs {
    /// The settings, with `default_jobs` runs at once unless --jobs says otherwise.
    fn measuring(&self, default_jobs: usize) -> commands::measuring::Measuring {
        commands::measuring::Measuring {
            jobs: self.jobs.unwrap_or(default_jobs),
            memory_limit: self.memory_limit,
            plan_order: self.order == RunOrder::Plan,
            order_seed: self.order_seed,
            share_cores: self.share_cores,
            no_cgroups: self.no_cgroups,
        }
    }
}

#[derive(Args)]
struct ReportArgs {
    /// Result CSVs (their rows are pooled, those of different machines kept apart; the
    /// machines' records are read from the sweep files beside them).
    #[arg(required = true)]
    csv: Vec<PathBuf>,
    /// Pool the rows of different machines instead of keeping them apart (every table then
    /// says that it pooled them).
    #[arg(long)]
    pool_machines: bool,
    /// Output folder, the same as reproduce's by default (a report rebuilt from
    /// results/results.csv replaces the one reproduce wrote there).
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// Shift in seconds of the shifted geometric mean (SGM), the one shift of every table,
    /// figure and verdict; 0.01 s suits millisecond-to-seconds times (docs/measurement.md says
    /// why).
    #[arg(long, default_value_t = puzzlebench::stats::DEFAULT_SHIFT, allow_negative_numbers = true)]
    shift: f64,
    /// Formats of the plots, comma-separated: pdf (vector, fonts embedded), pgf (PGFPlots
    /// .tex with its data in a .csv), svg, png.
    #[arg(long, value_enum, value_delimiter = ',', default_value = DEFAULT_FIGURES)]
    figures: Vec<FigureFormat>,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["mps", "lp", "json"])))]
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
    /// Write the instance as JSON to this file (`-` for standard output).
    #[arg(long)]
    json: Option<PathBuf>,
    /// With --json: every instance of the file, as a JSON array.
    #[arg(long, requires = "json")]
    all: bool,
}

fn main() -> ExitCode {
    let matches = Cli::command()
        .subcommand(commands::generate::command())
        .get_matches();
    let piped = !matches!(
        matches.subcommand_name(),
        Some("run" | "reproduce" | "worker" | "slurm")
    );
    if piped {
        // Die quietly on a closed pipe (`puzzlebench solve ... | head`) like other Unix
        // tools. Not for `run`, which writes to its workers' pipes and must survive them.
        // SAFETY: setting a signal disposition to its default before any other thread exists.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let result = match matches.subcommand() {
        Some(("generate", m)) => commands::generate::generate(m),
        _ => match Cli::from_arg_matches(&matches) {
            Ok(cli) => match puzzlebench::engines::registry::init(&cli.engines)
                .and_then(|()| puzzlebench::puzzles::user::registry::init(&cli.formulations))
            {
                Ok(()) => dispatch(cli.command),
                // `engine check` reports the definition it checks itself.
                Err(e) if matches!(cli.command, Command::Engine(_)) => {
                    eprintln!("warning: {e}");
                    dispatch(cli.command)
                }
                Err(e) => Err(commands::bad_input(e)),
            },
            Err(e) => e.exit(),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure { code, message }) => {
            eprintln!("puzzlebench: {message}");
            ExitCode::from(code)
        }
    }
}

fn dispatch(command: Command) -> Result<(), Failure> {
    match command {
        Command::List => {
            print!("{}", commands::list::text());
            Ok(())
        }
        Command::Solve(a) => {
            if a.solver.heuristics.len() > 1 {
                return Err(commands::bad_input(
                    "solve takes one --heuristics value (run sweeps a list)",
                ));
            }
            commands::solve::solve(&commands::solve::SolveConfig {
                file: a.file,
                puzzle: a.puzzle,
                formulation: a.formulation,
                engine: a.backend,
                json: matches!(a.format, Format::Json),
                svg: a.svg,
                options: a.solver.options().map_err(commands::bad_input)?,
                counting: None,
            })
        }
        Command::Count(a) => {
            commands::check_time_limit(a.time_limit)?;
            if a.limit == 0 {
                return Err(commands::bad_input("--limit must be at least 1"));
            }
            if a.threads == 0 {
                return Err(commands::bad_input("--threads must be at least 1"));
            }
            commands::solve::solve(&commands::solve::SolveConfig {
                file: a.file,
                puzzle: a.puzzle,
                formulation: a.formulation,
                engine: a.backend,
                json: matches!(a.format, Format::Json),
                svg: None,
                options: SolveOptions {
                    time_limit: a.time_limit,
                    threads: a.threads,
                    seed: a.seed,
                    lp_relaxation: false,
                    count: a.limit,
                    certify: a.certify.seconds().map_err(commands::bad_input)?,
                    ..SolveOptions::default()
                },
                counting: Some(commands::solve::Counting { show: a.show }),
            })
        }
        Command::Run(a) => commands::run::run(&run_config(a)?),
        Command::Export(a) => {
            let (out, what) = match (a.mps, a.lp, a.json) {
                (Some(path), _, _) => (path, commands::export::Target::Mps),
                (_, Some(path), _) => (path, commands::export::Target::Lp),
                (_, _, Some(path)) => (path, commands::export::Target::Json { all: a.all }),
                _ => unreachable!("clap requires --mps, --lp or --json"),
            };
            commands::export::export(&commands::export::ExportConfig {
                file: a.file,
                puzzle: a.puzzle,
                formulation: a.formulation,
                out,
                what,
            })
        }
        Command::Reproduce(a) => commands::reproduce::reproduce(&reproduce_config(a)?),
        Command::Race(a) => commands::race::race(&commands::race::RaceCommand {
            puzzle: a.puzzle,
            engines: a.backend,
            formulations: a.formulation,
            budget: a.budget,
            instances: a.instances,
            time_limit: a.time_limit,
            out: a.out,
            seed: a.seed,
            measuring: a.measuring.measuring(1),
            instances_dir: a.instances_dir,
            quiet: a.quiet,
            margin: a.margin,
        }),
        Command::Report(a) => {
            commands::report::report(&a.csv, &a.out, a.shift, &a.figures, a.pool_machines)
        }
        Command::Merge(a) => commands::merge::merge(&commands::merge::MergeConfig {
            inputs: a.csv,
            out: a.out,
            force: a.force,
            require_complete: a.require_complete,
        }),
        Command::Diff(a) => commands::diff::diff(&commands::diff::DiffConfig {
            old: a.old,
            new: a.new,
            out: a.out,
            shift: a.shift,
            machine_factor: a.machine_factor,
            pair: a.pair,
        }),
        Command::Slurm(a) => slurm(&a.args),
        Command::Engine(a) => match a.command {
            EngineCommand::Check {
                file,
                instances_dir,
            } => commands::engine_check::check(&file, &instances_dir),
        },
        Command::Worker => commands::worker::worker(),
    }
}

fn run_config(a: RunArgs) -> Result<commands::run::RunConfig, Failure> {
    Ok(commands::run::RunConfig {
        variants: a.solver.each_heuristics().map_err(commands::bad_input)?,
        puzzle: a.puzzle,
        formulations: a.formulation,
        engines: a.backend,
        instances: a.instances,
        repeats: a.repeats,
        out: a.out,
        shift: a.shift,
        quiet: a.quiet,
        resume: a.resume,
        measuring: a.measuring.measuring(1),
        grace: a.grace,
        in_process: a.in_process,
        shard: a.sharding.shard,
        costs: a.sharding.costs,
        dry_run: a.sharding.dry_run,
    })
}

fn reproduce_config(
    a: ReproduceArgs,
) -> Result<commands::reproduce::ReproduceConfig, commands::Failure> {
    Ok(commands::reproduce::ReproduceConfig {
        certify: a.certify.seconds().map_err(commands::bad_input)?,
        quick: a.quick,
        engines: a.backend,
        without: a.without,
        time_limit: a.time_limit,
        out: a.out,
        fresh: a.fresh,
        puzzles: a.puzzle,
        measuring: a
            .measuring
            .measuring(puzzlebench::cores::physical_cores().len().max(1)),
        shift: a.shift,
        instances_dir: a.instances_dir,
        quiet: a.quiet,
        figures: a.figures,
        shard: a.sharding.shard,
        costs: a.sharding.costs,
        dry_run: a.sharding.dry_run,
        race_budget: a.race_budget,
        race_instances: a.race_instances,
        race_jobs: a.race_jobs,
        race_margin: a.race_margin,
        compress_raw: a.compress_raw,
    })
}

/// `puzzlebench slurm (run|reproduce) ARGS`: the slurm options taken out, the rest parsed
/// as the sweep's own command line (with a task's --out), so that its errors and defaults
/// are exactly those of `run` or `reproduce`.
fn slurm(args: &[String]) -> Result<(), Failure> {
    use commands::slurm::{self, Sweep};
    let (what, rest) =
        match args.split_first() {
            Some((w, rest)) if w == "run" || w == "reproduce" => (w.as_str(), rest),
            Some((h, _)) if h == "-h" || h == "--help" => {
                print!("{}", slurm::HELP);
                return Ok(());
            }
            None => return Err(commands::bad_input(
                "slurm: say run or reproduce, then their arguments (see puzzlebench slurm --help)",
            )),
            Some((other, _)) => {
                return Err(commands::bad_input(format!(
                    "slurm: {other}: say run or reproduce first (see puzzlebench slurm --help)"
                )))
            }
        };
    let (options, forwarded) = slurm::split_args(rest)?;
    if options.help {
        print!("{}", slurm::HELP);
        return Ok(());
    }
    let mut argv = vec!["puzzlebench".to_string(), what.to_string()];
    argv.extend(forwarded.iter().cloned());
    argv.push("--out".into());
    argv.push(options.dir.join("task").display().to_string());
    let cli = Cli::try_parse_from(&argv).map_err(|e| {
        commands::bad_input(format!(
            "slurm {what}: {}",
            e.render().to_string().trim_end()
        ))
    })?;
    let sweep = match cli.command {
        Command::Run(a) => Sweep::Run(Box::new(run_config(a)?)),
        Command::Reproduce(a) => Sweep::Reproduce(Box::new(reproduce_config(a)?)),
        _ => unreachable!("parsed as {what}"),
    };
    slurm::slurm(sweep, &forwarded, &options)
}
