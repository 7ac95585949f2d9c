//! `glpk`: GLPK's `glpsol` (Debian's glpk-utils), in a child process, on the model as a
//! temporary free MPS file ([`crate::formats::mps::write_plain`]: GLPK refuses the
//! `OBJSENSE` section, so the sense goes as `--max`/`--min`, and the objective's constant
//! is added back here). The solution comes back in glpsol's plain solution file (`-w`),
//! read by the same reader as an engine definition's glpsol answer
//! ([`readers::glpk`]); the bound, the timeline and the version come from its log.
//!
//! * **Settings**: the time limit (`--tmlim`, whole seconds: what is left of the run's
//!   budget rounded to the nearest second, at least 1), the gap (`--mipgap`) and presolve
//!   (off: `--nopresol --nointopt`, GLPK's LP and MIP presolvers). GLPK has one thread and
//!   no seed for its search: `threads` and `seed` are not applied. Cuts stay at glpsol's
//!   default (none), as in the report's GLPK runs.
//! * **Hard limit**: since `--tmlim` takes whole seconds, glpsol may stop up to half a
//!   second after the deadline by itself (more where it was given its minimum of 1 s, as in
//!   a late round of row generation); a glpsol alive [`KILL_AFTER`] seconds after the
//!   deadline is killed, and the run ends as `time_limit` with the bound its log reported
//!   but without a solution (glpsol writes its solution file only when it stops).
//! * **Times**: glpsol prints its own solve time ("Time used") to a tenth of a second
//!   only, so `seconds` is timed here from its log, which it flushes line by line: from
//!   the arrival of its first optimizer line ("GLPK Integer Optimizer", "GLPK Simplex
//!   Optimizer", after the model is read) to that of its "Time used" line, the same span
//!   glpsol times; where the log lacks them, glpsol's own figure. `call_seconds` is the
//!   whole call.
//! * **Bound**: the last line of the branch-and-bound log (`mip = … <= bound`); "tree is
//!   empty" proves the incumbent optimal. GLPK reports no node count.
//! * **Timeline**: each branch-and-bound log line (`+ ITER: mip = INCUMBENT >= BOUND …`,
//!   with `>>>>>` in place of `mip =` where a new incumbent was found; `<=` when
//!   maximising) is handed to the run's timeline as it arrives, stamped with its arrival,
//!   incumbent and bound with the objective's constant added ("tree is empty": the bound
//!   is the incumbent).
//! * **Version**: from glpsol's banner in the run's own log ("GLPSOL--GLPK LP/MIP Solver
//!   5.0"), else from `glpsol --version`.
//! * **Row generation**: each round a new call with the rows added so far.

use super::definition::readers::{self, Said};
use super::external;
use super::{Budget, Capabilities, Declaration, Engine, EngineImpl, Outcome, Settings, Status};
use crate::model::{Model, Sense};
use crate::process::{self, Finished};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The engine.
pub const GLPK: Engine = Engine::new(&Glpk);

/// glpsol.
pub struct Glpk;

/// The environment variable naming the glpsol program.
pub const GLPSOL_VAR: &str = "PUZZLEBENCH_GLPSOL";

/// Seconds glpsol may run past the run's deadline before it is killed: its own
/// `--tmlim`, rounded to whole seconds, stops it up to half a second after the deadline.
pub const KILL_AFTER: f64 = 0.5;

static DECLARATION: Declaration = Declaration {
    key: "glpk",
    description:
        "GLPK's glpsol (glpk-utils), in a child process, on the model as MPS (no threads, no seed)",
    capabilities: Capabilities {
        threads: false,
        seed: false,
        external: true,
        general: true,
        timeline: true,
        ..Capabilities::MIP
    },
};

/// `PUZZLEBENCH_GLPSOL`, else `glpsol` (found on the PATH).
pub fn glpsol() -> PathBuf {
    process::program(GLPSOL_VAR, "glpsol")
}

impl EngineImpl for Glpk {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        external::cached_version(&VERSION, || {
            let program = glpsol();
            let out = Command::new(&program)
                .arg("--version")
                .output()
                .map_err(|e| format!("{}: {e} (install glpk-utils)", program.display()))?;
            let text = String::from_utf8_lossy(&out.stdout);
            let first = text.lines().next().unwrap_or("");
            // "GLPSOL--GLPK LP/MIP Solver 5.0"
            let v = first.rsplit(' ').next().unwrap_or("").to_string();
            Ok(format!("GLPK {v}"))
        })
    }

    fn solve_mip(&self, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
        solve_with(&glpsol(), model, settings, budget)
    }
}

/// Solves `model` with the glpsol at `program` (one that cannot be started is "not
/// installed").
pub fn solve_with(program: &Path, model: &Model, settings: &Settings, budget: &Budget) -> Outcome {
    let started = Instant::now();
    let tmlim = match budget.left() {
        Some(left) if left <= 0.0 => return Outcome::time_limit(0.0),
        // The nearest whole second, at least 1 (0 would stop glpsol at once).
        Some(left) => Some(left.round().max(1.0) as u64),
        None => None,
    };
    let (mps, sol) = match (
        process::temp_file(&crate::formats::mps::write_plain(model), ".mps"),
        process::temp_file("", ".sol"),
    ) {
        (Ok(m), Ok(s)) => (m, s),
        (Err(e), _) | (_, Err(e)) => return Outcome::error(e, 0.0),
    };
    let mut cmd = Command::new(program);
    cmd.arg("--freemps").arg(&*mps).arg("-w").arg(&*sol);
    cmd.arg(if model.sense == Sense::Maximize {
        "--max"
    } else {
        "--min"
    });
    if let Some(t) = tmlim {
        cmd.arg("--tmlim").arg(t.to_string());
    }
    cmd.arg("--mipgap")
        .arg(settings.mip_gap.unwrap_or(0.0).to_string());
    if settings.presolve == Some(false) {
        cmd.arg("--nopresol").arg("--nointopt");
    }
    budget.set_sense(model.sense);
    let offset = model.objective_offset;
    let report = |at: Instant, line: &str| {
        if let Some(p) = progress(line) {
            if let Some(z) = p.incumbent {
                budget.record_at(true, z + offset, at);
            }
            if let Some(b) = p.bound {
                budget.record_at(false, b + offset, at);
            }
        }
    };
    let finished = match process::run_watched(
        cmd,
        Vec::new(),
        budget.deadline().map(|d| process::after(d, KILL_AFTER)),
        started,
        &report,
    ) {
        Ok(f) => f,
        Err(e) => return Outcome::error(format!("{e} (install glpk-utils)"), 0.0),
    };
    let solution = std::fs::read_to_string(&sol).unwrap_or_default();
    let mut o = read(model, &finished, &solution);
    o.call_seconds = Some(started.elapsed().as_secs_f64());
    o.version = Some(banner_version(&finished.stdout).unwrap_or_else(|| GLPK.version()));
    o
}

/// "GLPK 5.0" from glpsol's banner ("GLPSOL--GLPK LP/MIP Solver 5.0"), the first line of
/// its log.
fn banner_version(log: &str) -> Option<String> {
    let first = log.lines().find(|l| l.starts_with("GLPSOL"))?;
    let v = first.rsplit(' ').next()?.trim();
    (!v.is_empty() && v.chars().next()?.is_ascii_digit()).then(|| format!("GLPK {v}"))
}

/// What one branch-and-bound log line of glpsol reports, without the objective's
/// constant.
#[derive(Debug, PartialEq)]
struct Progress {
    /// The incumbent's objective, where there is one.
    incumbent: Option<f64>,
    /// The bound, where finite ("tree is empty": the incumbent).
    bound: Option<f64>,
}

/// The figures of a branch-and-bound log line ("+ 5: mip = 18.5 <= 19 2.6% (3; 0)", or
/// ">>>>>" for "mip =" where a new incumbent was found); `None` for any other line.
fn progress(line: &str) -> Option<Progress> {
    let rest = line.strip_prefix('+')?;
    let (_, rest) = rest.split_once(':')?;
    let rest = rest.trim_start();
    let rest = rest
        .strip_prefix(">>>>>")
        .or_else(|| rest.strip_prefix("mip ="))?;
    let (incumbent, bound) = rest.split_once(['<', '>'])?;
    let incumbent = incumbent
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|z| z.is_finite());
    let bound = bound.trim_start_matches('=').trim();
    let bound = if bound.starts_with("tree is empty") {
        incumbent
    } else {
        bound
            .split_whitespace()
            .next()
            .and_then(|b| b.parse::<f64>().ok())
            .filter(|b| b.is_finite())
    };
    Some(Progress { incumbent, bound })
}

/// The outcome from glpsol's log and solution file.
fn read(model: &Model, run: &Finished, solution: &str) -> Outcome {
    let log = &run.stdout;
    let seconds = solve_seconds(run);
    if run.killed {
        let best_bound = match bound(log) {
            Some(LogBound::Value(b)) => Some(b + model.objective_offset),
            _ => None,
        };
        return Outcome {
            message: Some(format!(
                "killed {KILL_AFTER} s after the run's deadline (glpsol had not stopped at its limit)"
            )),
            best_bound,
            ..Outcome::time_limit(seconds)
        };
    }
    let timed_out = log.contains("TIME LIMIT EXCEEDED");
    let no_solution = log.contains("HAS NO PRIMAL FEASIBLE SOLUTION")
        || log.contains("HAS NO INTEGER FEASIBLE SOLUTION");
    let last = log
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no output");
    // The solution file by the reader engine definitions use for glpsol's answers.
    let reading = match readers::glpk::read(solution) {
        Ok(r) => r,
        Err(e) => {
            return Outcome::error(
                format!(
                    "glpsol's solution file, line {}: {} ({last})",
                    e.line, e.why
                ),
                seconds,
            )
        }
    };
    let integer = solution
        .lines()
        .find(|l| l.starts_with("s "))
        .is_some_and(|l| l.starts_with("s mip"));
    let status = match reading.status {
        _ if no_solution => Status::Infeasible,
        Some(Said::Optimal) => Status::Optimal,
        Some(Said::Infeasible) => Status::Infeasible,
        // A feasible point when the limit struck is the run's incumbent.
        Some(Said::Feasible) if timed_out => Status::TimeLimit,
        Some(Said::TimeLimit) if timed_out => Status::TimeLimit,
        Some(Said::Feasible) => Status::Feasible,
        None if timed_out => Status::TimeLimit,
        None => return Outcome::error(format!("glpsol wrote no solution: {last}"), seconds),
        Some(Said::TimeLimit) => {
            return Outcome::error(
                format!("glpsol ended with an undefined solution: {last}"),
                seconds,
            )
        }
        Some(Said::Error(why)) => return Outcome::error(format!("glpsol: {why}: {last}"), seconds),
    };
    let mut values = vec![f64::NAN; model.vars.len()];
    for (name, v) in reading.values.iter().flatten() {
        let j = name.strip_prefix('C').and_then(|j| j.parse::<usize>().ok());
        if let Some(slot) = j.and_then(|j| values.get_mut(j)) {
            *slot = *v;
        }
    }
    let has_values = status != Status::Infeasible
        && reading.values.is_some()
        && values.iter().all(|v| v.is_finite());
    let values = has_values.then_some(values);
    let objective = values.as_deref().map(|v| model.objective_value(v));
    let best_bound = match (integer, bound(log)) {
        (true, Some(LogBound::TreeEmpty)) => objective,
        (true, Some(LogBound::Value(b))) => Some(b + model.objective_offset),
        _ => None,
    };
    // glpsol stopped by --mipgap says so; its status is then 'f' with the bound proved.
    let status = if status == Status::Feasible && log.contains("RELATIVE MIP GAP TOLERANCE REACHED")
    {
        Status::Optimal
    } else {
        status
    };
    Outcome {
        objective,
        best_bound,
        values,
        ..Outcome::with_status(status, seconds)
    }
}

/// glpsol's solve time: from the arrival of its first optimizer line to that of its
/// "Time used" line; else the figure of that line (a tenth of a second); else the call.
fn solve_seconds(run: &Finished) -> f64 {
    let at = |p: &dyn Fn(&str) -> bool| run.lines.iter().find(|(_, l)| p(l)).map(|(t, _)| *t);
    let start = at(&|l: &str| l.starts_with("GLPK ") && l.contains("Optimizer"));
    let end = at(&|l: &str| l.starts_with("Time used:"));
    if let (Some(s), Some(e)) = (start, end) {
        return e.saturating_duration_since(s).as_secs_f64();
    }
    run.lines
        .iter()
        .find_map(|(_, l)| l.strip_prefix("Time used:"))
        .and_then(|t| t.trim().trim_end_matches("secs").trim().parse().ok())
        .unwrap_or(run.seconds)
}

/// The bound in glpsol's branch-and-bound log.
#[derive(Debug, PartialEq)]
enum LogBound {
    /// "tree is empty": the incumbent is proved optimal.
    TreeEmpty,
    /// A bound, without the objective's constant.
    Value(f64),
}

/// The bound of the last branch-and-bound log line ("+ 5: mip = 18.5 <= 19 3.0% (3; 0)").
fn bound(log: &str) -> Option<LogBound> {
    let line = log
        .lines()
        .rev()
        .find(|l| l.starts_with('+') && l.contains("mip ="))?;
    let rest = line.split("mip =").nth(1)?;
    let after = rest
        .split(['<', '>'])
        .nth(1)?
        .trim_start_matches('=')
        .trim();
    if after.starts_with("tree is empty") {
        return Some(LogBound::TreeEmpty);
    }
    let b = after.split_whitespace().next()?.parse::<f64>().ok()?;
    b.is_finite().then_some(LogBound::Value(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_comes_from_the_last_log_line() {
        let log = "+     3: mip =     not found yet <=              +inf        (1; 0)\n\
                   +     5: >>>>>   1.850000000e+01 <=   1.900000000e+01   2.6% (3; 0)\n\
                   +     7: mip =   1.850000000e+01 <=   1.900000000e+01   2.6% (3; 0)\n";
        assert_eq!(bound(log), Some(LogBound::Value(19.0)));
        let done =
            format!("{log}+     9: mip =   1.850000000e+01 <=     tree is empty   0.0% (0; 5)\n");
        assert_eq!(bound(&done), Some(LogBound::TreeEmpty));
        let min = "+   100: mip =   2.000000000e+00 >=   1.500000000e+00  25.0% (7; 2)\n";
        assert_eq!(bound(min), Some(LogBound::Value(1.5)));
        assert_eq!(
            bound("+     3: mip =     not found yet >=              -inf        (1; 0)\n"),
            None
        );
    }

    #[test]
    fn each_branch_and_bound_line_gives_its_incumbent_and_bound() {
        let p = |z, b| {
            Some(Progress {
                incumbent: z,
                bound: b,
            })
        };
        assert_eq!(
            progress("+   245: mip =     not found yet >=              -inf        (1; 0)"),
            p(None, None)
        );
        assert_eq!(
            progress("+ 11444: >>>>>   5.900000000e+01 >=   3.600000000e+01  39.0% (326; 60)"),
            p(Some(59.0), Some(36.0))
        );
        assert_eq!(
            progress("+106692: mip =   5.900000000e+01 >=   4.000000000e+01  32.2% (3404; 884)"),
            p(Some(59.0), Some(40.0))
        );
        assert_eq!(
            progress("+     9: mip =   1.850000000e+01 <=     tree is empty   0.0% (0; 5)"),
            p(Some(18.5), Some(18.5))
        );
        // The simplex's own lines, '*' for its second phase, are no incumbents.
        assert_eq!(
            progress("*   435: obj =   5.134408602e+01 inf =   8.440e-15 (0) 1"),
            None
        );
        assert_eq!(progress("OPTIMAL LP SOLUTION FOUND"), None);
    }

    #[test]
    fn the_version_comes_from_the_banner() {
        let log = "GLPSOL--GLPK LP/MIP Solver 5.0\nParameter(s) specified in the command line:\n";
        assert_eq!(banner_version(log), Some("GLPK 5.0".to_string()));
        assert_eq!(banner_version("glpsol: not found\n"), None);
    }
}
