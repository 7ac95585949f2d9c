//! One run of a formulation written outside Rust: the instance goes to the definition's
//! command as JSON, the command writes the model (its wall time and the reading of the
//! model are the row's `build_seconds`), the model is read into the engine-neutral
//! [`Model`] and solved on the run's engine through the common path of every compact
//! formulation ([`Run::compact`], or the shared no-good loop when counting), and the
//! answer is read from the puzzle's answer variables and checked by its verifier.
//!
//! What can go wrong, and what the row says:
//! * the command fails, writes no model, or the model does not read: `error`, naming the
//!   instance, and the command's last words or the model's line and problem;
//! * the command outlives the run's time limit: killed, `time_limit`;
//!
//! The command runs, and its model is read, before the run's clock starts (`run_seconds`,
//! what a race charges): an interpreter's start, a modelling library's import and the
//! reading of a text file (about 60 ms for a 1.6 MB LP file of 15,625 columns) are no
//! part of the formulation's solve. A built-in formulation's clock holds its model
//! building, in process, a few milliseconds at most (0.4 to 3.4 ms for the Sudoku `binary`
//! models of the race's ladder): that much a race charges the built-in and not the user
//! formulation. What is left of the time limit after the command is the run's;
//! `build_seconds` and `run_seconds` together are the whole.
//! * the model lacks an answer variable: `error`, naming it;
//! * an answer variable's value is no whole number of its domain (`0.5` where 0 or 1 is
//!   asked): `error`, naming the variable and its value;
//! * the answer breaks a rule of the puzzle: the verifier's reason, `verified = false`.

use super::definition::UserFormulation;
use super::{whole_values, UserSchema};
use crate::engines::Status;
use crate::formats::{read_model, Format};
use crate::model::{Model, VarId};
use crate::process::{self, python, run_watched};
use crate::puzzles::formulation::{NoRows, Shape};
use crate::puzzles::{Answer, Instance, Run, RunResult};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// Why a model could not be had: the row's status and reason.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildFailure {
    /// `error`, or `time_limit` when the command outlived the run's limit.
    pub status: Status,
    /// What went wrong, naming the instance.
    pub reason: String,
    /// Seconds spent until then.
    pub seconds: f64,
}

/// A user's model of one instance, read, with the columns of its answer variables.
pub struct Built {
    /// The model as read.
    pub model: Model,
    /// The column of each answer variable, in the schema's order.
    pub answer_columns: Vec<VarId>,
    /// Seconds the command took plus the reading of the model.
    pub seconds: f64,
}

impl BuildFailure {
    /// The row of a run that ended here: its status and reason, and the seconds spent as
    /// its build.
    pub fn into_result(self) -> RunResult {
        let mut r = RunResult::failed(self.reason);
        r.outcome.status = self.status;
        r.build_seconds = self.seconds;
        r
    }
}

/// The model file a user formulation's command wrote, in its scratch folder (removed
/// when this is dropped).
pub struct Written {
    _dir: tempfile::TempDir,
    file: PathBuf,
    /// Seconds the command took.
    pub command_seconds: f64,
}

/// Runs the definition's command on `p` and then reads the model it writes ([`write`],
/// [`read`]).
pub fn build<P: Instance>(
    p: &P,
    schema: &UserSchema<P>,
    f: &UserFormulation,
    time_limit: Option<f64>,
) -> Result<Built, BuildFailure> {
    read(p, schema, f, &write(p, schema, f, time_limit)?)
}

/// Runs the definition's command on `p`: the model file it wrote. The command is killed
/// when it outlives `time_limit` seconds.
pub fn write<P: Instance>(
    p: &P,
    schema: &UserSchema<P>,
    f: &UserFormulation,
    time_limit: Option<f64>,
) -> Result<Written, BuildFailure> {
    let started = Instant::now();
    let fail = |reason: String| BuildFailure {
        status: Status::Error,
        reason: format!("{} on instance {}: {reason}", f.key, p.name()),
        seconds: started.elapsed().as_secs_f64(),
    };
    let dir = tempfile::Builder::new()
        .prefix("puzzlebench-user-")
        .tempdir()
        .map_err(|e| fail(format!("cannot make a scratch folder: {e}")))?;
    let instance = dir.path().join("instance.json");
    let text = serde_json::to_string(&(schema.instance)(p)).expect("JSON values serialize");
    std::fs::write(&instance, text)
        .map_err(|e| fail(format!("cannot write {}: {e}", instance.display())))?;
    let model_file = dir.path().join(match f.format {
        Format::Lp => "model.lp",
        Format::Mps => "model.mps",
    });
    let python = python().map_or_else(|_| "python3".to_string(), |p| p.display().to_string());
    let words: Vec<String> = f
        .command
        .iter()
        .map(|w| {
            w.replace("{instance_json}", &instance.display().to_string())
                .replace("{model}", &model_file.display().to_string())
                .replace("{python}", &python)
        })
        .collect();
    let mut command = Command::new(&words[0]);
    command.args(&words[1..]).current_dir(dir.path());
    // Killed at the run's deadline; without a time limit, at the plug-in hard stop.
    let deadline = time_limit.map(|l| process::after(started, l));
    let (kill_at, hard_stop) = process::plugin_deadline(deadline, started);
    let done = run_watched(command, Vec::new(), Some(kill_at), started, &|_, _| {})
        .map_err(|e| fail(format!("the model command cannot run: {e}")))?;
    let command_seconds = done.seconds;
    if let (true, Some(why)) = (done.killed, hard_stop) {
        return Err(fail(format!("the model command was {why}")));
    }
    if done.killed {
        return Err(BuildFailure {
            status: Status::TimeLimit,
            reason: format!(
                "{} on instance {}: the model command did not finish within the time limit",
                f.key,
                p.name()
            ),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    if !done.success {
        let last: Vec<&str> = done
            .stderr
            .lines()
            .chain(done.stdout.lines())
            .filter(|l| !l.trim().is_empty())
            .collect();
        let tail = process::quote(&last[last.len().saturating_sub(3)..].join(" | "));
        let how = done.code.map_or_else(
            || format!("ended with {}", done.ending()),
            |c| format!("exited with status {c}"),
        );
        return Err(fail(format!(
            "the model command ({}) {how}: {tail}",
            words.join(" ")
        )));
    }
    if !model_file.exists() {
        return Err(fail(format!(
            "the model command wrote no model to {} (its {{model}})",
            model_file.display()
        )));
    }
    Ok(Written {
        _dir: dir,
        file: model_file,
        command_seconds,
    })
}

/// Reads the model the command wrote, and finds its answer variables.
pub fn read<P: Instance>(
    p: &P,
    schema: &UserSchema<P>,
    f: &UserFormulation,
    written: &Written,
) -> Result<Built, BuildFailure> {
    let started = Instant::now();
    let command_seconds = written.command_seconds;
    let fail = |reason: String| BuildFailure {
        status: Status::Error,
        reason: format!("{} on instance {}: {reason}", f.key, p.name()),
        seconds: command_seconds + started.elapsed().as_secs_f64(),
    };
    let model_file = &written.file;
    let model = read_model(model_file, f.format).map_err(|e| {
        let line = std::fs::read_to_string(model_file)
            .ok()
            .and_then(|t| t.lines().nth(e.line.wrapping_sub(1)).map(str::to_string))
            .map(|l| format!(" (the line: '{}')", l.chars().take(80).collect::<String>()))
            .unwrap_or_default();
        let at = if e.line > 0 {
            format!("line {}: ", e.line)
        } else {
            String::new()
        };
        fail(format!("its model does not read: {at}{}{line}", e.message))
    })?;
    let answer_columns = answer_columns(&model, schema, p).map_err(fail)?;
    Ok(Built {
        model,
        answer_columns,
        seconds: command_seconds + started.elapsed().as_secs_f64(),
    })
}

/// The columns of the answer variables in `model`, or the ones it lacks, named.
fn answer_columns<P: Instance>(
    model: &Model,
    schema: &UserSchema<P>,
    p: &P,
) -> Result<Vec<VarId>, String> {
    let by_name: HashMap<String, VarId> = model
        .vars
        .iter()
        .enumerate()
        .map(|(j, v)| (v.name.to_string(), VarId(j)))
        .collect();
    let vars = (schema.answer_vars)(p);
    let missing: Vec<&str> = vars
        .iter()
        .filter(|v| !by_name.contains_key(&v.name))
        .map(|v| v.name.as_str())
        .collect();
    if let Some(first) = missing.first() {
        let more = match missing.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        return Err(format!(
            "the model has no answer variable {first}{more}: the answer is read from {}",
            schema.meaning
        ));
    }
    Ok(vars.iter().map(|v| by_name[&v.name]).collect())
}

/// Runs user formulation `f` on `p` from its model, written and read before the run
/// started ([`build`]): solves on the run's engine, reads the answer variables and
/// verifies. The row's `build_seconds` are the command's and the reading's.
pub fn solve<P: Instance>(
    p: &P,
    schema: &UserSchema<P>,
    f: &UserFormulation,
    built: Built,
    run: &Run,
) -> RunResult {
    let seconds = built.seconds;
    let vars = (schema.answer_vars)(p);
    let bad_value: RefCell<Option<String>> = RefCell::new(None);
    let decode = |columns: &Vec<VarId>, x: &[f64]| -> Answer {
        let values: Vec<f64> = columns.iter().map(|c| x[c.0]).collect();
        match whole_values(&vars, &values) {
            Ok(v) => (schema.answer)(p, &v),
            Err(e) => {
                let reason = format!("{} on instance {}: {e}", f.key, p.name());
                bad_value.borrow_mut().get_or_insert(reason.clone());
                Answer {
                    json: serde_json::Value::Null,
                    text: String::new(),
                    verdict: Err(reason),
                }
            }
        }
    };
    let Built {
        model,
        answer_columns,
        ..
    } = built;
    let mut r = if run.options.count > 1 {
        run.counted(
            move || (model, answer_columns, NoRows),
            Shape::Mip,
            None,
            decode,
        )
    } else {
        let mut r = run.compact(move || (model, answer_columns), decode);
        if !r.outcome.status.has_reason() {
            r.outcome.solutions = Some(u64::from(r.outcome.status.has_solution()));
        }
        r
    };
    r.build_seconds += seconds;
    if let Some(reason) = bad_value.into_inner() {
        r.outcome.status = Status::Error;
        r.outcome.message = Some(reason);
        r.answer = None;
    }
    r
}

/// Reads the model a user formulation writes for `p`, for `export` and `engine check`:
/// the model, or the reason there is none.
pub fn model<P: Instance>(
    p: &P,
    schema: &UserSchema<P>,
    f: &UserFormulation,
) -> Result<Model, String> {
    build(p, schema, f, None)
        .map(|b| b.model)
        .map_err(|e| e.reason)
}
