//! The machine a sweep ran on, recorded once per sweep (BenchExec's rule: say what the
//! numbers were measured on), and the sweep file that holds those records beside a results
//! file: `results.csv` → `results.sweeps.jsonl`, one JSON line per sweep. Each row names
//! its machine by [`Machine::id`] in its `machine` column; `report` reads the sweep files
//! to print the machines under every table.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// An engine of the build and its version, as written into result rows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineVersion {
    /// Engine key, e.g. `highs`.
    pub key: String,
    /// Its name and version, e.g. `HiGHS 1.15.0`.
    pub version: String,
}

/// What a machine is, as far as it bears on timings. Files of later versions may hold
/// more fields; missing ones read as empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Machine {
    /// Host name.
    pub host: String,
    /// CPU model (`model name` of `/proc/cpuinfo`); empty where not readable.
    pub cpu_model: String,
    /// Physical cores this process may run on (its affinity).
    pub physical_cores: usize,
    /// Logical CPUs (hyperthreads) this process may run on (its affinity).
    pub logical_cores: usize,
    /// Frequency governor of those CPUs (`scaling_governor`; several, comma-separated,
    /// where they differ); `None` where not readable (no cpufreq, as in most VMs).
    pub governor: Option<String>,
    /// Turbo/boost: on (true) or off (false), from `cpufreq/boost` or
    /// `intel_pstate/no_turbo`; `None` where not readable.
    pub boost: Option<bool>,
    /// Memory in MiB (`MemTotal` of `/proc/meminfo`); `None` where not readable.
    pub memory_mib: Option<u64>,
    /// Swap in MiB (`SwapTotal`); `None` where not readable.
    pub swap_mib: Option<u64>,
    /// NUMA nodes of the cores this process may run on.
    pub numa_nodes: usize,
    /// Kernel release (`uname -r`).
    pub kernel: String,
    /// Operating system (`PRETTY_NAME` of `/etc/os-release`).
    pub os: String,
    /// The compiler puzzlebench was built with (`rustc --version` at build time).
    pub rustc: String,
    /// Every engine of the build with its version.
    pub engines: Vec<EngineVersion>,
}

impl Machine {
    /// Reads this machine: host, CPU, cores of this process's affinity, governor, boost,
    /// memory, kernel, OS, the compiler of this build and its engines' versions. Whatever
    /// cannot be read is left empty (`None`, `""`, 0), never guessed.
    pub fn detect() -> Machine {
        let cores = crate::cores::physical_cores();
        let cpus: Vec<usize> = cores.iter().flat_map(|c| c.cpus.iter().copied()).collect();
        let root = Path::new("/");
        let mut m = read_system(root, &cpus);
        m.physical_cores = cores.len();
        m.logical_cores = cpus.len();
        m.numa_nodes = cores.iter().map(|c| c.node).collect::<BTreeSet<_>>().len();
        m.rustc = env!("PUZZLEBENCH_RUSTC").to_string();
        m.engines = crate::engines::ENGINES
            .iter()
            .map(|e| EngineVersion {
                key: e.key().to_string(),
                version: e.version(),
            })
            .collect();
        m
    }

    /// The machine's id: the first 8 hex digits of a SHA-256 over its JSON (fields in
    /// declaration order, no maps, no floats: the same record always gives the same id).
    pub fn id(&self) -> String {
        let json = serde_json::to_vec(self).expect("a machine record serialises");
        let digest = Sha256::digest(&json);
        digest.iter().take(4).map(|b| format!("{b:02x}")).collect()
    }

    /// One line for a table note: "host vm, AMD EPYC, 2 physical cores (2 logical),
    /// governor and boost not readable, 23.5 GiB memory, no swap, 1 NUMA node, Linux
    /// 6.18.44 (Debian GNU/Linux 12 (bookworm)), rustc 1.95.0; engines: HiGHS 1.15.0, …".
    pub fn describe(&self) -> String {
        let or = |s: &str, none: &str| {
            if s.is_empty() {
                none.to_string()
            } else {
                s.to_string()
            }
        };
        let mut parts = vec![
            format!("host {}", or(&self.host, "unknown")),
            or(&self.cpu_model, "CPU model not readable"),
            format!(
                "{} physical core{} ({} logical)",
                self.physical_cores,
                plural(self.physical_cores),
                self.logical_cores
            ),
        ];
        let boost = self.boost.map(|b| if b { "on" } else { "off" });
        parts.push(match (&self.governor, boost) {
            (None, None) => "governor and boost not readable".into(),
            (Some(g), None) => format!("governor {g}, boost not readable"),
            (None, Some(b)) => format!("governor not readable, boost {b}"),
            (Some(g), Some(b)) => format!("governor {g}, boost {b}"),
        });
        parts.push(match self.memory_mib {
            Some(m) => format!("{} memory", gib(m)),
            None => "memory not readable".into(),
        });
        parts.push(match self.swap_mib {
            Some(0) => "no swap".into(),
            Some(s) => format!("{} swap", gib(s)),
            None => "swap not readable".into(),
        });
        parts.push(format!(
            "{} NUMA node{}",
            self.numa_nodes,
            plural(self.numa_nodes)
        ));
        let kernel = format!("Linux {}", or(&self.kernel, "(release not readable)"));
        parts.push(if self.os.is_empty() {
            kernel
        } else {
            format!("{kernel} ({})", self.os)
        });
        // "rustc 1.95.0 (59807616e 2026-04-14)" → "rustc 1.95.0".
        let rustc: Vec<&str> = self.rustc.split_whitespace().take(2).collect();
        parts.push(if rustc.is_empty() {
            "rustc not known".into()
        } else {
            rustc.join(" ")
        });
        let engines: Vec<&str> = self.engines.iter().map(|e| e.version.as_str()).collect();
        let mut line = parts.join(", ");
        if !engines.is_empty() {
            line.push_str("; engines: ");
            line.push_str(&engines.join(", "));
        }
        line
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// MiB as GiB with one decimal: "23.5 GiB".
fn gib(mib: u64) -> String {
    format!("{:.1} GiB", mib as f64 / 1024.0)
}

/// The fields read from files under `root` (`/` for this machine): host, CPU model,
/// governor and boost of `cpus`, memory, swap, kernel and OS. Cores, compiler and engines
/// are left empty.
fn read_system(root: &Path, cpus: &[usize]) -> Machine {
    let read = |p: &str| std::fs::read_to_string(root.join(p)).ok();
    let line = |p: &str| {
        read(p)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let sys = root.join("sys/devices/system/cpu");
    let meminfo = read("proc/meminfo").unwrap_or_default();
    Machine {
        host: line("proc/sys/kernel/hostname").unwrap_or_default(),
        cpu_model: read("proc/cpuinfo")
            .map(|t| cpu_model(&t))
            .unwrap_or_default(),
        governor: governor(&sys, cpus),
        boost: boost(&sys),
        memory_mib: meminfo_mib(&meminfo, "MemTotal"),
        swap_mib: meminfo_mib(&meminfo, "SwapTotal"),
        kernel: line("proc/sys/kernel/osrelease").unwrap_or_default(),
        os: read("etc/os-release")
            .or_else(|| read("usr/lib/os-release"))
            .map(|t| os_name(&t))
            .unwrap_or_default(),
        ..Machine::default()
    }
}

/// The CPU model of a `/proc/cpuinfo` text: its first `model name` (x86), else
/// `cpu model`, `Processor` or `Hardware` (other architectures); empty when none.
fn cpu_model(cpuinfo: &str) -> String {
    for key in ["model name", "cpu model", "Processor", "Hardware"] {
        let found = cpuinfo.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_string())
        });
        if let Some(v) = found {
            return v;
        }
    }
    String::new()
}

/// A `/proc/meminfo` entry (in kB) in MiB.
fn meminfo_mib(meminfo: &str, key: &str) -> Option<u64> {
    meminfo.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        if k.trim() != key {
            return None;
        }
        let kb: u64 = v.trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kb / 1024)
    })
}

/// `PRETTY_NAME` of an os-release text, unquoted; empty when missing.
fn os_name(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim().trim_matches('"').trim_matches('\'').to_string())
        .unwrap_or_default()
}

/// The distinct scaling governors of `cpus` in a sysfs CPU folder, comma-separated;
/// `None` when none is readable.
fn governor(sys: &Path, cpus: &[usize]) -> Option<String> {
    let found: BTreeSet<String> = cpus
        .iter()
        .filter_map(|c| {
            std::fs::read_to_string(sys.join(format!("cpu{c}/cpufreq/scaling_governor"))).ok()
        })
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    (!found.is_empty()).then(|| found.into_iter().collect::<Vec<_>>().join(","))
}

/// Turbo/boost from a sysfs CPU folder: `cpufreq/boost` (1: on), else
/// `intel_pstate/no_turbo` (1: off); `None` when neither is readable.
fn boost(sys: &Path) -> Option<bool> {
    let flag = |p: &str| -> Option<bool> {
        match std::fs::read_to_string(sys.join(p)).ok()?.trim() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    };
    flag("cpufreq/boost").or_else(|| flag("intel_pstate/no_turbo").map(|off| !off))
}

/// The record of one sweep, one JSON line of the sweep file beside its results file: when
/// and how it started and the machine it ran on. `run` and `reproduce` fill the fields
/// after `machine`; this module only carries them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SweepRecord {
    /// When the sweep started, UTC, RFC 3339.
    pub started: String,
    /// The command line, arguments joined by spaces.
    pub command: String,
    /// [`Machine::id`] of `machine`, as the sweep's rows carry it in their `machine` column.
    pub machine_id: String,
    /// The machine.
    pub machine: Machine,
    /// The order of the runs: `plan` or `random`.
    #[serde(default)]
    pub order: String,
    /// The seed of a random order.
    #[serde(default)]
    pub order_seed: Option<u64>,
    /// Runs at once (`--jobs`).
    #[serde(default)]
    pub jobs: usize,
    /// The logical CPUs of each worker slot ("0", "2,3"), one per slot.
    #[serde(default)]
    pub cores: Vec<String>,
    /// How CPU time and memory were measured (`cgroup2`, `cgroup1`, `rusage`).
    #[serde(default)]
    pub measured_by: String,
    /// Memory limit of each run in MiB, `None` for none.
    #[serde(default)]
    pub memory_limit_mb: Option<u64>,
    /// The shard of a sharded sweep (`--shard I/N`): its runs and the plan's digest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::shard::ShardRecord>,
}

impl SweepRecord {
    /// A record of a sweep starting now on `machine` under this process's command line;
    /// the sweep's own fields (order, jobs, cores, …) are left for the caller.
    pub fn new(machine: Machine) -> SweepRecord {
        SweepRecord {
            started: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            command: std::env::args().collect::<Vec<_>>().join(" "),
            machine_id: machine.id(),
            machine,
            ..SweepRecord::default()
        }
    }
}

/// The sweep file of a results file: beside it, `<file stem>.sweeps.jsonl`
/// (`out/results.csv` → `out/results.sweeps.jsonl`; the same for `out/results.csv.gz`).
pub fn sweeps_path(results_csv: &Path) -> PathBuf {
    let results_csv = crate::gz::plain(results_csv);
    let stem = results_csv
        .file_stem()
        .map_or("results".into(), |s| s.to_string_lossy().to_string());
    results_csv.with_file_name(format!("{stem}.sweeps.jsonl"))
}

/// Appends `sweep` as one JSON line to the sweep file of `results_csv` (created when
/// missing).
pub fn append_sweep(results_csv: &Path, sweep: &SweepRecord) -> Result<(), String> {
    let path = sweeps_path(results_csv);
    let mut line = serde_json::to_string(sweep).map_err(|e| format!("{}: {e}", path.display()))?;
    line.push('\n');
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // One write, so that the line goes in whole.
    f.write_all(line.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The sweep records beside `results_csv`, in file order: none when there is no sweep file
/// (results of older versions); a line that is not a sweep record is an error naming the
/// file and line. Blank lines are skipped.
pub fn read_sweeps(results_csv: &Path) -> Result<Vec<SweepRecord>, String> {
    let path = sweeps_path(results_csv);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let sweep = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: not a sweep record: {e}", path.display(), i + 1))?;
        out.push(sweep);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Machine {
        Machine {
            host: "node1".into(),
            cpu_model: "AMD EPYC".into(),
            physical_cores: 2,
            logical_cores: 4,
            governor: Some("performance".into()),
            boost: Some(false),
            memory_mib: Some(24_064),
            swap_mib: Some(0),
            numa_nodes: 1,
            kernel: "6.18.44".into(),
            os: "Debian GNU/Linux 12 (bookworm)".into(),
            rustc: "rustc 1.91.0 (f8297e351 2025-10-28)".into(),
            engines: vec![EngineVersion {
                key: "highs".into(),
                version: "HiGHS 1.15.0".into(),
            }],
        }
    }

    #[test]
    fn detect_reads_this_machine() {
        let m = Machine::detect();
        assert!(!m.cpu_model.is_empty(), "{m:?}");
        assert!(m.physical_cores >= 1 && m.logical_cores >= m.physical_cores);
        assert!(m.numa_nodes >= 1);
        assert!(m.memory_mib.is_some_and(|x| x > 0), "{m:?}");
        assert!(!m.kernel.is_empty() && !m.host.is_empty());
        assert!(m.rustc.starts_with("rustc "), "{}", m.rustc);
        assert_eq!(m.engines.len(), crate::engines::ENGINES.len());
        assert!(m.engines.iter().any(|e| e.version.starts_with("HiGHS ")));
        // Nothing of it changes between two readings.
        assert_eq!(Machine::detect().id(), m.id());
    }

    #[test]
    fn id_is_stable_and_changes_with_any_field() {
        let m = sample();
        let id = m.id();
        assert_eq!(id.len(), 8);
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(m.clone().id(), id);
        // Through JSON and back: the same id.
        let back: Machine = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back.id(), id);
        let changed = [
            Machine {
                host: "node2".into(),
                ..m.clone()
            },
            Machine {
                governor: None,
                ..m.clone()
            },
            Machine {
                logical_cores: 2,
                ..m.clone()
            },
            Machine {
                rustc: "rustc 1.92.0".into(),
                ..m.clone()
            },
            Machine {
                engines: vec![],
                ..m.clone()
            },
        ];
        for other in changed {
            assert_ne!(other.id(), id, "{other:?}");
        }
    }

    #[test]
    fn describe_says_what_is_known_and_what_is_not() {
        let m = sample();
        assert_eq!(
            m.describe(),
            "host node1, AMD EPYC, 2 physical cores (4 logical), governor performance, boost off, 23.5 GiB memory, no swap, 1 NUMA node, Linux 6.18.44 (Debian GNU/Linux 12 (bookworm)), rustc 1.91.0; engines: HiGHS 1.15.0"
        );
        let bare = Machine::default().describe();
        assert!(bare.contains("CPU model not readable"), "{bare}");
        assert!(bare.contains("governor and boost not readable"), "{bare}");
        assert!(bare.contains("memory not readable"), "{bare}");
    }

    #[test]
    fn system_files_are_read_from_a_tree() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let put = |p: &str, text: &str| {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        put("proc/sys/kernel/hostname", "box\n");
        put("proc/sys/kernel/osrelease", "6.1.0-13-amd64\n");
        put(
            "proc/cpuinfo",
            "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6230\n",
        );
        put(
            "proc/meminfo",
            "MemTotal:       65536000 kB\nMemFree: 1 kB\nSwapTotal:       2097152 kB\n",
        );
        put(
            "etc/os-release",
            "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n",
        );
        put(
            "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
            "performance\n",
        );
        put(
            "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
            "powersave\n",
        );
        put("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
        let m = read_system(root, &[0, 1, 2]);
        assert_eq!(m.host, "box");
        assert_eq!(m.kernel, "6.1.0-13-amd64");
        assert_eq!(m.cpu_model, "Intel(R) Xeon(R) Gold 6230");
        assert_eq!(m.memory_mib, Some(64_000));
        assert_eq!(m.swap_mib, Some(2048));
        assert_eq!(m.os, "Debian GNU/Linux 12 (bookworm)");
        assert_eq!(m.governor.as_deref(), Some("performance,powersave"));
        assert_eq!(m.boost, Some(false));
        // cpufreq/boost wins over intel_pstate; nothing readable gives None.
        put("sys/devices/system/cpu/cpufreq/boost", "1\n");
        assert_eq!(read_system(root, &[0]).boost, Some(true));
        let empty = tempfile::tempdir().unwrap();
        let none = read_system(empty.path(), &[0]);
        assert_eq!(
            (none.governor, none.boost, none.memory_mib),
            (None, None, None)
        );
        assert_eq!(none.cpu_model, "");
    }

    #[test]
    fn sweep_file_sits_beside_the_results() {
        assert_eq!(
            sweeps_path(Path::new("out/results.csv")),
            Path::new("out/results.sweeps.jsonl")
        );
        assert_eq!(
            sweeps_path(Path::new("a.b.csv")),
            Path::new("a.b.sweeps.jsonl")
        );
    }

    #[test]
    fn sweeps_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        // A results folder that does not exist yet is made.
        let csv = dir.path().join("new").join("results.csv");
        assert_eq!(read_sweeps(&csv).unwrap(), vec![]);
        let first = SweepRecord {
            order: "random".into(),
            order_seed: Some(7),
            jobs: 2,
            cores: vec!["0".into(), "1".into()],
            measured_by: "cgroup2".into(),
            memory_limit_mb: Some(4096),
            ..SweepRecord::new(sample())
        };
        let second = SweepRecord {
            machine: Machine {
                host: "other".into(),
                ..sample()
            },
            ..SweepRecord::new(sample())
        };
        append_sweep(&csv, &first).unwrap();
        append_sweep(&csv, &second).unwrap();
        assert_eq!(read_sweeps(&csv).unwrap(), vec![first.clone(), second]);
        assert_eq!(first.machine_id, sample().id());
        assert!(chrono::DateTime::parse_from_rfc3339(&first.started).is_ok());
        let text = std::fs::read_to_string(sweeps_path(&csv)).unwrap();
        assert_eq!(text.lines().count(), 2);
    }

    #[test]
    fn a_bad_line_names_its_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("r.csv");
        append_sweep(&csv, &SweepRecord::new(sample())).unwrap();
        let path = sweeps_path(&csv);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("\n{\"started\": 3}\n");
        std::fs::write(&path, text).unwrap();
        let e = read_sweeps(&csv).unwrap_err();
        assert!(
            e.starts_with(&format!("{}:3: not a sweep record", path.display())),
            "{e}"
        );
    }
}
