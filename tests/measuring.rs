//! Measurements after BenchExec's rules: CPU time and memory of a run's whole process tree
//! (cgroups where the machine has them, rusage otherwise), memory limits, processes left
//! behind killed, workers on cores of their own, a seeded run order. The hidden `fault`
//! puzzle provides runs that burn CPU, start child processes and eat memory.

use puzzlebench::record::Record;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{pb, rows, stderr};

/// A fault instance file with one uniquely named instance (the name marks its child
/// processes).
fn instance(dir: &Path, name: &str) -> PathBuf {
    let f = dir.join("faults.txt");
    std::fs::write(&f, format!("{name}\n")).unwrap();
    f
}

/// Runs the fault puzzle's `formulations` on a fresh instance and returns the rows.
fn sweep(formulations: &str, extra: &[&str]) -> (Vec<Record>, Output) {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("m{}", std::process::id());
    let file = instance(dir.path(), &name);
    let out = dir.path().join("r.csv");
    let o = pb()
        .args(["run", "--puzzle", "fault", "--formulation", formulations])
        .args(["--instances", file.to_str().unwrap(), "--quiet"])
        .args(["--out", out.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    let r = if out.exists() { rows(&out) } else { Vec::new() };
    (r, o)
}

#[test]
fn cpu_time_of_a_busy_child_process_is_counted() {
    // The worker starts a child that burns 1 s of CPU and waits for it; the worker itself
    // only sleeps in wait. Both measurements count the child.
    for extra in [&[][..], &["--no-cgroups"][..]] {
        let (r, o) = sweep("spawn,ok", extra);
        assert!(o.status.success(), "{}", stderr(&o));
        let by = |f: &str| r.iter().find(|r| r.formulation == f).unwrap();
        let spawn = by("spawn");
        let cpu = spawn.cpu_seconds.expect("cpu time measured");
        assert!(
            cpu >= 0.99,
            "{extra:?}: the child's 1 s of CPU counted, got {cpu}"
        );
        assert!(!spawn.measured_by.is_empty());
        let ok = by("ok").cpu_seconds.unwrap();
        assert!(ok < 0.5, "{extra:?}: a run without a child used {ok} s");
        if extra.is_empty() {
            eprintln!("measured by {}", spawn.measured_by);
        } else {
            assert_eq!(spawn.measured_by, "rusage");
        }
    }
}

#[test]
fn processes_left_behind_are_killed_when_the_run_ends() {
    for extra in [&[][..], &["--no-cgroups"][..]] {
        let dir = tempfile::tempdir().unwrap();
        let name = format!("detach{}x{}", std::process::id(), extra.len());
        let file = instance(dir.path(), &name);
        let out = dir.path().join("r.csv");
        let o = pb()
            .args(["run", "--puzzle", "fault", "--formulation", "detach"])
            .args(["--instances", file.to_str().unwrap(), "--quiet"])
            .args(["--out", out.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let mark = format!("PUZZLEBENCH_FAULT_CHILD={name}");
        let left: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
            .filter(|e| {
                std::fs::read(e.path().join("environ"))
                    .map(|env| env.split(|&b| b == 0).any(|v| v == mark.as_bytes()))
                    .unwrap_or(false)
            })
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        assert!(
            left.is_empty(),
            "{extra:?}: processes {left:?} outlived their run"
        );
    }
}

#[test]
fn a_memory_hungry_run_under_a_cgroup_limit_is_stopped_and_recorded() {
    let (r, o) = sweep("oom,ok", &["--memory-limit", "200", "--time-limit", "30"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let oom = r.iter().find(|r| r.formulation == "oom").unwrap();
    assert_eq!(oom.status, "error");
    assert_eq!(oom.memory_limit_mb, Some(200));
    let ok = r.iter().find(|r| r.formulation == "ok").unwrap();
    assert_eq!(ok.status, "optimal", "the sweep goes on");
    if !oom.measured_by.starts_with("cgroup") {
        eprintln!("skipped the cgroup part: this machine has no usable cgroups");
        assert!(oom.error.as_ref().unwrap().contains("memory"));
        return;
    }
    let e = oom.error.as_ref().unwrap();
    assert!(e.starts_with("out of memory"), "{e}");
    assert!(e.contains("200 MiB"), "{e}");
    let peak = oom.peak_memory_mb.unwrap();
    assert!(
        (150.0..=201.0).contains(&peak),
        "peak {peak} MiB under a 200 MiB limit"
    );
}

#[test]
fn two_workers_under_jobs_2_run_on_different_cores() {
    let cores = puzzlebench::cores::physical_cores();
    if cores.len() < 2 {
        eprintln!("skipped: one physical core");
        return;
    }
    // Two runs of 1 s of CPU each at once.
    let (r, o) = sweep("busy", &["--jobs", "2", "--repeats", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(r.len(), 2);
    let (a, b) = (&r[0].cores, &r[1].cores);
    assert!(
        !a.is_empty() && !b.is_empty(),
        "cores recorded: {a:?} {b:?}"
    );
    assert_ne!(a, b, "both workers ran on {a}");
    // No two on one physical core: the CPUs belong to different cores.
    let core_of = |cpu: usize| cores.iter().position(|c| c.cpus.contains(&cpu)).unwrap();
    let cpu = |s: &str| s.split(',').next().unwrap().parse::<usize>().unwrap();
    assert_ne!(core_of(cpu(a)), core_of(cpu(b)));
}

#[test]
fn the_same_seed_starts_the_runs_in_the_same_order() {
    let order = |seed: &str| -> Vec<String> {
        let (r, o) = sweep(
            "ok,busy,detach,exit,panic",
            &["--order-seed", seed, "--repeats", "2"],
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        r.iter()
            .map(|r| format!("{}#{}", r.formulation, r.repeat))
            .collect()
    };
    let first = order("11");
    assert_eq!(first.len(), 10);
    assert_eq!(first, order("11"));
    assert_ne!(first, order("12"));
    let (planned, _) = sweep("ok,busy", &["--order", "plan", "--repeats", "2"]);
    let names: Vec<String> = planned
        .iter()
        .map(|r| format!("{}#{}", r.formulation, r.repeat))
        .collect();
    assert_eq!(names, ["ok#1", "ok#2", "busy#1", "busy#2"]);
}
