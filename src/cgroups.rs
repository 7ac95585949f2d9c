//! A control group per run (BenchExec's rules: measure and limit the resources of a run's
//! whole process tree, and terminate all of its processes). Every process of a run —
//! the worker, and any solver it starts, even one that detaches — lands in the run's
//! cgroup, which counts their CPU time and peak memory, enforces the memory limit, and is
//! emptied with SIGKILL when the run ends.
//!
//! Two kinds of hierarchy are used, whichever the machine offers:
//! * cgroups v2 (`cgroup2`): the unified hierarchy with the memory controller delegated
//!   to this process's cgroup; per run `memory.max`, `memory.swap.max` = 0, `memory.peak`,
//!   `memory.events` (`oom_kill`), `cpu.stat` (`usage_usec`), `cgroup.kill`.
//! * cgroups v1 (`cgroup1`): the `memory` and `cpuacct` hierarchies; per run
//!   `memory.limit_in_bytes` and `memory.memsw.limit_in_bytes` (no swapping),
//!   `memory.max_usage_in_bytes`, `memory.oom_control` (`oom_kill`), `cpuacct.usage`.
//!
//! A sweep makes one folder `puzzlebench-<pid>` in this process's own cgroup of each
//! hierarchy it uses, and one `run-<n>` under it per run; both are removed when done. The
//! folders of a puzzlebench process that has died are removed when the next one starts.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Which cgroup hierarchy measures the runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// The unified hierarchy.
    V2,
    /// The `memory` and `cpuacct` hierarchies of cgroups v1.
    V1,
}

impl Version {
    /// The value of the `measured_by` column: `cgroup2` or `cgroup1`.
    pub fn key(self) -> &'static str {
        match self {
            Version::V2 => "cgroup2",
            Version::V1 => "cgroup1",
        }
    }
}

/// The cgroups of one sweep: the folder(s) runs are made in.
#[derive(Debug)]
pub struct Cgroups {
    version: Version,
    /// v2: the one parent folder; v1: the parent in the memory hierarchy, then cpuacct.
    parents: Vec<PathBuf>,
    next: AtomicU64,
}

/// The key of the measurement when there are no cgroups: `wait4`'s rusage.
pub const RUSAGE: &str = "rusage";

impl Cgroups {
    /// Makes the sweep's cgroup folders, in the unified hierarchy where the memory
    /// controller can be used there, else in the v1 memory and cpuacct hierarchies. The
    /// error says why neither works (no cgroup file system, not writable, memory
    /// controller not delegated).
    pub fn new() -> Result<Cgroups, String> {
        let mounts = std::fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
        let own = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
        let name = format!("puzzlebench-{}", std::process::id());
        let mut why = Vec::new();
        match own_dir(&mounts, &own, "cgroup2", "") {
            Some(dir) => match make_v2(&dir, &name) {
                Ok(parent) => {
                    return Ok(Cgroups {
                        version: Version::V2,
                        parents: vec![parent],
                        next: AtomicU64::new(1),
                    })
                }
                Err(e) => why.push(format!("cgroups v2: {e}")),
            },
            None => why.push("cgroups v2: not mounted".into()),
        }
        let memory = own_dir(&mounts, &own, "cgroup", "memory");
        let cpuacct = own_dir(&mounts, &own, "cgroup", "cpuacct");
        match (memory, cpuacct) {
            (Some(m), Some(c)) => {
                let made = [m, c]
                    .iter()
                    .map(|d| make_parent(d, &name))
                    .collect::<Result<Vec<_>, _>>();
                match made {
                    Ok(parents) => {
                        return Ok(Cgroups {
                            version: Version::V1,
                            parents,
                            next: AtomicU64::new(1),
                        })
                    }
                    Err(e) => why.push(format!("cgroups v1: {e}")),
                }
            }
            _ => why.push("cgroups v1: no memory and cpuacct hierarchies".into()),
        }
        Err(why.join("; "))
    }

    /// Which hierarchy measures the runs.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Makes the cgroup of one run, with its memory limit (and no swap) where given.
    pub fn run(&self, memory_limit_mb: Option<u64>) -> Result<RunCgroup, String> {
        let n = self.next.fetch_add(1, Ordering::SeqCst);
        let mut dirs = Vec::new();
        for parent in &self.parents {
            let dir = parent.join(format!("run-{n}"));
            std::fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            dirs.push(dir);
        }
        let group = RunCgroup {
            version: self.version,
            procs: dirs
                .iter()
                .map(|d| {
                    OpenOptions::new()
                        .write(true)
                        .open(d.join("cgroup.procs"))
                        .map_err(|e| format!("{}: {e}", d.display()))
                })
                .collect::<Result<_, _>>()?,
            dirs,
        };
        if let Some(mb) = memory_limit_mb {
            let bytes = mb.saturating_mul(1024 * 1024).to_string();
            let mem = &group.dirs[0];
            match self.version {
                Version::V2 => {
                    write(&mem.join("memory.max"), &bytes)?;
                    // No swap: a run that swaps measures the disk. Absent without swap
                    // accounting, which also means it cannot swap into this cgroup's name.
                    let _ = write(&mem.join("memory.swap.max"), "0");
                }
                Version::V1 => {
                    write(&mem.join("memory.limit_in_bytes"), &bytes)?;
                    let _ = write(&mem.join("memory.memsw.limit_in_bytes"), &bytes);
                }
            }
        }
        Ok(group)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        for p in &self.parents {
            let _ = std::fs::remove_dir(p);
        }
    }
}

/// The cgroup(s) of one run. Dropping it kills whatever is left in it and removes it.
#[derive(Debug)]
pub struct RunCgroup {
    version: Version,
    dirs: Vec<PathBuf>,
    /// `cgroup.procs` of each folder, open for writing before the child starts.
    procs: Vec<File>,
}

/// What a run cgroup measured once its processes were gone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Usage {
    /// CPU seconds, user + system, of every process that was in the cgroup.
    pub cpu_seconds: Option<f64>,
    /// Peak memory of the cgroup in MiB.
    pub peak_memory_mb: Option<f64>,
    /// Processes the kernel killed for exceeding the memory limit.
    pub oom_kills: u64,
}

impl RunCgroup {
    /// The descriptors the child writes "0" to between fork and exec, to move itself in.
    pub fn enter_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Which hierarchy this is.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Kills every process in the cgroup (SIGKILL) and waits until it is empty, up to a
    /// second. True when it is empty.
    pub fn kill_all(&self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(1);
        if self.version == Version::V2 {
            let _ = write(&self.dirs[0].join("cgroup.kill"), "1");
        }
        loop {
            let pids = self.pids();
            if pids.is_empty() {
                return true;
            }
            for pid in pids {
                // SAFETY: kill is a plain system call; the pid is in our run's cgroup.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The processes in the cgroup now.
    fn pids(&self) -> Vec<libc::pid_t> {
        self.dirs
            .iter()
            .flat_map(|d| {
                std::fs::read_to_string(d.join("cgroup.procs"))
                    .unwrap_or_default()
                    .lines()
                    .filter_map(|l| l.trim().parse().ok())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Reads CPU time, peak memory and OOM kills (call after [`RunCgroup::kill_all`]).
    pub fn usage(&self) -> Usage {
        let mem = &self.dirs[0];
        match self.version {
            Version::V2 => Usage {
                cpu_seconds: keyed(&mem.join("cpu.stat"), "usage_usec").map(|us| us as f64 / 1e6),
                peak_memory_mb: number(&mem.join("memory.peak")).map(mib),
                oom_kills: keyed(&mem.join("memory.events"), "oom_kill").unwrap_or(0),
            },
            Version::V1 => Usage {
                cpu_seconds: number(&self.dirs[1].join("cpuacct.usage")).map(|ns| ns as f64 / 1e9),
                peak_memory_mb: number(&mem.join("memory.max_usage_in_bytes")).map(mib),
                oom_kills: keyed(&mem.join("memory.oom_control"), "oom_kill").unwrap_or(0),
            },
        }
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        self.kill_all();
        for d in &self.dirs {
            // A process that just died may keep the folder busy for a moment.
            for _ in 0..100 {
                if std::fs::remove_dir(d).is_ok() || !d.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Moves the calling process into the cgroups whose `cgroup.procs` descriptors are given.
/// Only system calls: safe between fork and exec.
pub fn enter(fds: &[RawFd]) -> std::io::Result<()> {
    for &fd in fds {
        // SAFETY: writing two bytes from a static buffer to an open descriptor.
        let n = unsafe { libc::write(fd, b"0\n".as_ptr().cast(), 2) };
        if n < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn write(path: &Path, value: &str) -> Result<(), String> {
    OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(value.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn number(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The value of `key` in a file of `key value` lines (cpu.stat, memory.events).
fn keyed(path: &Path, key: &str) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// This process's own folder in the hierarchy of file-system type `fstype` (`cgroup2`, or
/// `cgroup` with the v1 controller `controller`), from `/proc/self/mountinfo` and
/// `/proc/self/cgroup`.
fn own_dir(mountinfo: &str, own: &str, fstype: &str, controller: &str) -> Option<PathBuf> {
    let (root, mount) = mountinfo.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        let mut r = right.split_whitespace();
        if r.next()? != fstype {
            return None;
        }
        let options = r.nth(1).unwrap_or("");
        if !controller.is_empty() && !options.split(',').any(|o| o == controller) {
            return None;
        }
        let f: Vec<&str> = left.split_whitespace().collect();
        Some((f.get(3)?.to_string(), f.get(4)?.to_string()))
    })?;
    let path = cgroup_path(own, fstype, controller)?;
    let inside = path.strip_prefix(root.as_str()).unwrap_or(&path);
    Some(Path::new(&mount).join(inside.trim_start_matches('/')))
}

/// The path of a process's cgroup in the hierarchy of file-system type `fstype`
/// (`cgroup2`, or `cgroup` with the v1 controller `controller`), from its
/// `/proc/<pid>/cgroup` text `own`.
fn cgroup_path(own: &str, fstype: &str, controller: &str) -> Option<String> {
    own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let _id = parts.next()?;
        let controllers = parts.next()?;
        let path = parts.next()?;
        let matches = if fstype == "cgroup2" {
            controllers.is_empty()
        } else {
            controllers.split(',').any(|c| c == controller)
        };
        matches.then(|| path.to_string())
    })
}

/// The hierarchies a run is measured and limited in: the unified one, and cgroups v1's
/// memory and cpuacct.
const MEASURING: [(&str, &str); 3] = [("cgroup2", ""), ("cgroup", "memory"), ("cgroup", "cpuacct")];

/// Moves the process `pid` into the calling process's cgroups, in each hierarchy that
/// measures runs ([`MEASURING`]) where it is in another one, so that a process started
/// for this one by another (a driver forked by a fork server, [`crate::engines::warm`]) is
/// measured, limited and killed with the run, as a child of its own would be. Returns how
/// many hierarchies it was moved in (0: it was already where this process is); the error
/// says which move failed. Memory the process had charged elsewhere before the move stays
/// charged there (the kernel does not move it).
pub fn adopt(pid: libc::pid_t) -> Result<usize, String> {
    let read = |p: &str| std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}"));
    let mounts = read("/proc/self/mountinfo")?;
    let own = read("/proc/self/cgroup")?;
    let theirs = read(&format!("/proc/{pid}/cgroup"))?;
    let mut moved = 0;
    for (fstype, controller) in MEASURING {
        let Some(mine) = cgroup_path(&own, fstype, controller) else {
            continue;
        };
        if cgroup_path(&theirs, fstype, controller).as_deref() == Some(mine.as_str()) {
            continue;
        }
        let dir = own_dir(&mounts, &own, fstype, controller).ok_or_else(|| {
            format!("cannot find the {fstype} {controller} hierarchy of this process")
        })?;
        write(&dir.join("cgroup.procs"), &pid.to_string())?;
        moved += 1;
    }
    Ok(moved)
}

/// Makes `dir/name`, first removing the `puzzlebench-<pid>` folders of dead processes.
fn make_parent(dir: &Path, name: &str) -> Result<PathBuf, String> {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().to_string();
            let Some(pid) = n
                .strip_prefix("puzzlebench-")
                .and_then(|p| p.parse::<i32>().ok())
            else {
                continue;
            };
            if !Path::new(&format!("/proc/{pid}")).exists() {
                if let Ok(runs) = std::fs::read_dir(e.path()) {
                    for r in runs.flatten().filter(|r| r.path().is_dir()) {
                        let _ = std::fs::remove_dir(r.path());
                    }
                }
                let _ = std::fs::remove_dir(e.path());
            }
        }
    }
    let parent = dir.join(name);
    match std::fs::create_dir(&parent) {
        Ok(()) => Ok(parent),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(parent),
        Err(e) => Err(format!("cannot make {}: {e}", parent.display())),
    }
}

/// The unified hierarchy: the memory controller must be available in `dir` and enabled
/// for its children, which the kernel refuses while `dir` (other than the root) holds
/// processes. Alone in a delegated cgroup (`systemd-run --user --scope -p Delegate=yes`),
/// this process moves itself into a child `self` first, as BenchExec does.
fn make_v2(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let controllers = std::fs::read_to_string(dir.join("cgroup.controllers"))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    if !controllers.split_whitespace().any(|c| c == "memory") {
        return Err(format!(
            "the memory controller is not available in {} (it may be bound to cgroups v1)",
            dir.display()
        ));
    }
    let subtree = dir.join("cgroup.subtree_control");
    let enabled = std::fs::read_to_string(&subtree).unwrap_or_default();
    let parent = make_parent(dir, name)?;
    if !enabled.split_whitespace().any(|c| c == "memory") {
        if let Err(e) = write(&subtree, "+memory") {
            // The kernel refuses while `dir` holds processes. When the only one is this
            // process (a delegated scope of its own), move it into `parent/self`, which
            // empties `dir`, and try again.
            let me = std::process::id().to_string();
            let procs = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
            let alone = procs.split_whitespace().all(|p| p == me);
            let moved = alone && {
                let own = parent.join("self");
                std::fs::create_dir_all(&own).is_ok()
                    && write(&own.join("cgroup.procs"), &me).is_ok()
            };
            if !moved || write(&subtree, "+memory").is_err() {
                if moved {
                    let _ = write(&dir.join("cgroup.procs"), &me);
                }
                let _ = std::fs::remove_dir(parent.join("self"));
                let _ = std::fs::remove_dir(&parent);
                return Err(format!(
                    "cannot enable the memory controller for the runs ({e}); run puzzlebench as root or alone in a cgroup with the memory controller delegated"
                ));
            }
        }
    }
    write(&parent.join("cgroup.subtree_control"), "+memory")?;
    Ok(parent)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const OWN: &str = "4:memory:/box/a\n2:cpu,cpuacct:/box\n0::/user.slice/x.scope\n";

    #[test]
    fn own_folders_come_from_mountinfo_and_proc_cgroup() {
        assert_eq!(
            own_dir(MOUNTINFO, OWN, "cgroup", "memory"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/box/a"))
        );
        assert_eq!(
            own_dir(MOUNTINFO, OWN, "cgroup", "cpuacct"),
            Some(PathBuf::from("/sys/fs/cgroup/cpu,cpuacct/box"))
        );
        assert_eq!(
            own_dir(MOUNTINFO, OWN, "cgroup2", ""),
            Some(PathBuf::from("/sys/fs/cgroup/unified/user.slice/x.scope"))
        );
        assert_eq!(own_dir(MOUNTINFO, OWN, "cgroup", "pids"), None);
    }

    #[test]
    fn keyed_files_are_read_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("cpu.stat");
        std::fs::write(&f, "usage_usec 1500000\nuser_usec 1000000\n").unwrap();
        assert_eq!(keyed(&f, "usage_usec"), Some(1_500_000));
        assert_eq!(keyed(&f, "user_usec"), Some(1_000_000));
        assert_eq!(keyed(&f, "system_usec"), None);
    }
}
