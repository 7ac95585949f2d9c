//! How `run` and `reproduce` take their measurements: workers at once and their CPU
//! cores, cgroups, memory limit, and the order runs start in.

use super::{bad_input, failed, Failure};
use crate::cgroups::{self, Cgroups};
use crate::cores;
use crate::machine::{append_sweep, Machine, SweepRecord};
use crate::runner::{Order, SweepConfig};
use crate::shard::ShardRecord;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The measurement settings a user chose.
#[derive(Clone, Debug)]
pub struct Measuring {
    /// Runs at once.
    pub jobs: usize,
    /// Memory limit of each run's process tree, MiB.
    pub memory_limit: Option<u64>,
    /// Start runs in the planned order (`false`: seeded random order).
    pub plan_order: bool,
    /// Seed of the random order (`None`: a fresh one, printed and recorded).
    pub order_seed: Option<u64>,
    /// Let workers share the hyperthreads of one physical core.
    pub share_cores: bool,
    /// Measure with rusage even where cgroups are available.
    pub no_cgroups: bool,
}

/// A sweep's measurement set-up: what [`SweepConfig`] needs, and what the sweep record
/// says about it.
pub struct Setup {
    /// The CPUs of each worker slot.
    pub cores: Vec<Vec<usize>>,
    /// The cgroups (`None`: rusage).
    pub cgroups: Option<Arc<Cgroups>>,
    /// The run order.
    pub order: Order,
    /// `cgroup2`, `cgroup1` or `rusage`.
    pub measured_by: String,
}

impl Measuring {
    /// Checks the settings, assigns cores to `jobs` workers of `per_worker` threads each,
    /// makes the cgroups, and draws the order's seed; prints warnings (cores shared, no
    /// cgroups) on stderr.
    pub fn setup(&self, per_worker: usize, in_process: bool) -> Result<Setup, Failure> {
        if self.jobs == 0 {
            return Err(bad_input("--jobs must be at least 1"));
        }
        if self.memory_limit == Some(0) {
            return Err(bad_input("--memory-limit must be at least 1 MiB"));
        }
        if self.plan_order && self.order_seed.is_some() {
            return Err(bad_input(
                "--order-seed seeds the random order; it does not go with --order plan",
            ));
        }
        let order = if self.plan_order {
            Order::Plan
        } else {
            Order::Random(
                self.order_seed
                    .unwrap_or_else(|| u64::from(rand::random::<u32>())),
            )
        };
        if in_process {
            return Ok(Setup {
                cores: Vec::new(),
                cgroups: None,
                order,
                measured_by: String::new(),
            });
        }
        let assignment = cores::assign(
            &cores::physical_cores(),
            self.jobs,
            per_worker,
            self.share_cores,
        );
        for w in &assignment.warnings {
            eprintln!("warning: {w}");
        }
        let cgroups = if self.no_cgroups {
            None
        } else {
            match Cgroups::new() {
                Ok(c) => Some(Arc::new(c)),
                Err(why) => {
                    eprintln!(
                        "note: no cgroups ({why}); CPU time and peak memory come from rusage, which misses processes the worker did not wait for{}",
                        if self.memory_limit.is_some() {
                            ", and --memory-limit caps each worker's address space"
                        } else {
                            ""
                        }
                    );
                    None
                }
            }
        };
        let measured_by = cgroups
            .as_ref()
            .map_or(cgroups::RUSAGE, |c| c.version().key())
            .to_string();
        Ok(Setup {
            cores: assignment.slots,
            cgroups,
            order,
            measured_by,
        })
    }
}

impl Setup {
    /// The sweep configuration with this set-up.
    pub fn config(
        &self,
        m: &Measuring,
        resume: bool,
        grace_seconds: f64,
        in_process: bool,
        exe: PathBuf,
    ) -> SweepConfig {
        SweepConfig {
            jobs: m.jobs,
            resume,
            memory_mb: m.memory_limit,
            grace_seconds,
            in_process,
            exe,
            cores: self.cores.clone(),
            cgroups: self.cgroups.clone(),
            order: self.order,
        }
    }

    /// Records the sweep, with this machine, in the sweep file beside `results` (which the
    /// caller has checked with [`crate::record::check_results_file`]), with its shard of a
    /// sharded sweep; returns the machine's id for the rows.
    pub fn record_sweep(
        &self,
        m: &Measuring,
        results: &Path,
        shard: Option<ShardRecord>,
    ) -> Result<String, Failure> {
        let mut sweep = SweepRecord::new(Machine::detect());
        sweep.order = self.order.key().into();
        sweep.order_seed = self.order.seed();
        sweep.jobs = m.jobs;
        sweep.cores = self.cores.iter().map(|c| cores::cpu_list(c)).collect();
        sweep.measured_by = self.measured_by.clone();
        sweep.memory_limit_mb = m.memory_limit;
        sweep.shard = shard;
        append_sweep(results, &sweep).map_err(failed)?;
        Ok(sweep.machine_id)
    }

    /// One line for stderr: how the runs are measured and ordered.
    pub fn describe(&self) -> String {
        let order = match self.order {
            Order::Plan => "in planned order".to_string(),
            Order::Random(s) => format!("in random order, seed {s} (--order-seed {s} repeats it)"),
        };
        let cores: Vec<String> = self
            .cores
            .iter()
            .map(|c| {
                if c.is_empty() {
                    "any".into()
                } else {
                    cores::cpu_list(c)
                }
            })
            .collect();
        format!(
            "runs {order}; measured by {}; worker CPUs: {}",
            if self.measured_by.is_empty() {
                "nothing (in process)"
            } else {
                &self.measured_by
            },
            if cores.is_empty() {
                "not pinned".into()
            } else {
                cores.join(" | ")
            }
        )
    }
}
