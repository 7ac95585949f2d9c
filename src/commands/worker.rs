//! `puzzlebench worker` (hidden): the worker side of process isolation. It reads one
//! [`Job`] as JSON from standard input, runs it, and prints its record as JSON.

use super::{bad_input, Failure};
use crate::isolation::Job;
use crate::record;
use crate::runner::{self, RunEnv, RunSpec};

/// Runs the job in `input` and returns the record's JSON line.
pub fn serve(input: &str) -> Result<String, Failure> {
    let job: Job = serde_json::from_str(input)
        .map_err(|e| Failure::new(2, format!("worker: bad job: {e}")))?;
    let p = job.puzzle;
    let info = p.formulation(&job.formulation).map_err(bad_input)?;
    let kind = info.kind;
    let instances = p.load(&job.file).map_err(bad_input)?;
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
    let settings = job.engine.settings(kind, &job.options);
    let run_id = record::run_id(
        p.key(),
        &inst.canonical(),
        &job.formulation,
        job.engine,
        &job.options,
        &settings,
        job.repeat,
    );
    let run_id = match &job.race {
        Some(race) => record::race_run_id(race, &run_id),
        None => run_id,
    };
    if run_id != job.run_id {
        return Err(Failure::new(
            2,
            format!(
                "worker: {} changed since the sweep started",
                job.file.display()
            ),
        ));
    }
    let spec = RunSpec {
        instance: 0,
        formulation: job.formulation.clone(),
        kind,
        source: info.source,
        engine: job.engine,
        options: job.options.clone(),
        settings,
        repeat: job.repeat,
        run_id,
        cap: job.cap,
    };
    let rec = runner::run_in_process(
        p.key(),
        inst.as_ref(),
        &spec,
        &RunEnv::detect(),
        job.timelines.as_deref(),
    );
    Ok(serde_json::to_string(&rec).expect("record serialises"))
}

/// Reads the job from standard input and prints the record.
pub fn worker() -> Result<(), Failure> {
    let mut input = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut input)
        .map_err(|e| Failure::new(2, format!("worker: cannot read the job: {e}")))?;
    println!("{}", serve(&input)?);
    Ok(())
}
