//! CPU cores for parallel runs (BenchExec's rule: assign cores deliberately). Each worker
//! slot of a sweep gets CPUs of its own; two slots never share a physical core (the two
//! hyperthreads of one core share its execution units and caches) unless the user asks
//! for it; a worker that runs several threads gets whole cores of one NUMA node.

use std::collections::BTreeMap;
use std::path::Path;

/// One physical core: the logical CPUs (hyperthreads) on it that this process may use, and
/// its NUMA node and package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhysicalCore {
    /// NUMA node (0 where the machine does not say).
    pub node: usize,
    /// Physical package (socket).
    pub package: usize,
    /// Logical CPU numbers, ascending.
    pub cpus: Vec<usize>,
}

/// The logical CPUs this process may run on (its affinity mask), ascending.
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity fills it for this process.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Restricts the calling thread (or, between fork and exec, the child) to `cpus`. Only a
/// system call: safe to use in a `pre_exec` hook.
pub fn set_affinity(cpus: &[usize]) -> std::io::Result<()> {
    // SAFETY: cpu_set_t is plain data; sched_setaffinity reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus {
            libc::CPU_SET(c, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// `cpus` as a list for a row: "0", "2,3".
pub fn cpu_list(cpus: &[usize]) -> String {
    cpus.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The physical cores this process may use, from the kernel's topology in
/// `/sys/devices/system/cpu` (each logical CPU its own core where it is not readable),
/// ordered by NUMA node, package and first CPU.
pub fn physical_cores() -> Vec<PhysicalCore> {
    topology(Path::new("/sys/devices/system/cpu"), &allowed_cpus())
}

/// The physical cores among `cpus`, read from a sysfs CPU folder.
fn topology(sys: &Path, cpus: &[usize]) -> Vec<PhysicalCore> {
    let read = |cpu: usize, file: &str| -> Option<usize> {
        std::fs::read_to_string(sys.join(format!("cpu{cpu}/topology/{file}")))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    let node_of = |cpu: usize| -> usize {
        std::fs::read_dir(sys.join(format!("cpu{cpu}")))
            .ok()
            .and_then(|d| {
                d.filter_map(|e| e.ok())
                    .filter_map(|e| {
                        e.file_name()
                            .to_str()?
                            .strip_prefix("node")?
                            .parse::<usize>()
                            .ok()
                    })
                    .next()
            })
            .unwrap_or(0)
    };
    // (node, package, core id) → CPUs; a CPU without topology files is a core of its own.
    let mut cores: BTreeMap<(usize, usize, usize, usize), Vec<usize>> = BTreeMap::new();
    for &cpu in cpus {
        let key = match (read(cpu, "physical_package_id"), read(cpu, "core_id")) {
            (Some(p), Some(c)) => (node_of(cpu), p, c, 0),
            _ => (node_of(cpu), usize::MAX, cpu, cpu),
        };
        cores.entry(key).or_default().push(cpu);
    }
    let mut out: Vec<PhysicalCore> = cores
        .into_iter()
        .map(|((node, package, ..), mut cpus)| {
            cpus.sort_unstable();
            PhysicalCore {
                node,
                package: if package == usize::MAX { 0 } else { package },
                cpus,
            }
        })
        .collect();
    out.sort_by_key(|c| (c.node, c.package, c.cpus[0]));
    out
}

/// The CPUs of each worker slot of a sweep, and what the user should know about them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Assignment {
    /// The logical CPUs of each slot (one slot per `--jobs`).
    pub slots: Vec<Vec<usize>>,
    /// Warnings: more workers than physical cores, cores shared.
    pub warnings: Vec<String>,
}

/// Assigns CPUs to `jobs` worker slots, `per_worker` physical cores each (the most threads
/// a run of the sweep uses). Without `share_hyperthreads`, a slot gets the first logical
/// CPU of each of its physical cores and no two slots share a core; with it, every logical
/// CPU counts as a core. A slot's cores come from one NUMA node where they fit. When the
/// cores run out, slots share them (round robin) and a warning says so.
pub fn assign(
    cores: &[PhysicalCore],
    jobs: usize,
    per_worker: usize,
    share_hyperthreads: bool,
) -> Assignment {
    let jobs = jobs.max(1);
    let per_worker = per_worker.max(1);
    let units: Vec<(usize, usize)> = if share_hyperthreads {
        cores
            .iter()
            .flat_map(|c| c.cpus.iter().map(move |&cpu| (c.node, cpu)))
            .collect()
    } else {
        cores.iter().map(|c| (c.node, c.cpus[0])).collect()
    };
    let mut a = Assignment::default();
    if units.is_empty() {
        a.warnings
            .push("cannot read this process's CPU affinity: workers are not pinned".into());
        a.slots = vec![Vec::new(); jobs];
        return a;
    }
    let physical = cores.len();
    if jobs > physical {
        a.warnings.push(format!(
            "--jobs {jobs} exceeds the {physical} physical cores this process may use: workers share cores, and their times are slower than with --jobs {physical} or fewer"
        ));
    } else if jobs * per_worker > units.len() {
        a.warnings.push(format!(
            "--jobs {jobs} with runs of {per_worker} threads needs {} cores, and {} are available: workers share cores",
            jobs * per_worker,
            units.len()
        ));
    }
    if share_hyperthreads && jobs > 1 && cores.iter().any(|c| c.cpus.len() > 1) {
        a.warnings.push(
            "--share-cores: workers may run on the two hyperthreads of one physical core, which slows both".into(),
        );
    }
    // Take units in order, keeping a slot's units on one node where the node has enough.
    let mut free: Vec<(usize, usize)> = units.clone();
    for _ in 0..jobs {
        let mut slot = Vec::new();
        if free.len() < per_worker {
            free = units.clone();
        }
        let node = free
            .iter()
            .map(|&(n, _)| n)
            .find(|&n| free.iter().filter(|&&(m, _)| m == n).count() >= per_worker)
            .unwrap_or(free[0].0);
        let mut rest = Vec::new();
        for (n, cpu) in free.drain(..) {
            if slot.len() < per_worker && n == node {
                slot.push(cpu);
            } else {
                rest.push((n, cpu));
            }
        }
        for (_, cpu) in &rest {
            if slot.len() >= per_worker {
                break;
            }
            slot.push(*cpu);
        }
        free = rest
            .into_iter()
            .filter(|(_, c)| !slot.contains(c))
            .collect();
        slot.sort_unstable();
        a.slots.push(slot);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core(node: usize, cpus: &[usize]) -> PhysicalCore {
        PhysicalCore {
            node,
            package: 0,
            cpus: cpus.to_vec(),
        }
    }

    /// Four cores with two hyperthreads each, numbered as Linux does (siblings n and n+4).
    fn smt4() -> Vec<PhysicalCore> {
        vec![
            core(0, &[0, 4]),
            core(0, &[1, 5]),
            core(0, &[2, 6]),
            core(0, &[3, 7]),
        ]
    }

    #[test]
    fn workers_never_share_a_physical_core_unless_asked() {
        let a = assign(&smt4(), 4, 1, false);
        assert_eq!(a.slots, vec![vec![0], vec![1], vec![2], vec![3]]);
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
        let shared = assign(&smt4(), 8, 1, true);
        assert_eq!(shared.slots.len(), 8);
        assert!(shared.warnings.iter().any(|w| w.contains("exceeds the 4")));
        assert!(shared.warnings.iter().any(|w| w.contains("hyperthreads")));
    }

    #[test]
    fn more_jobs_than_cores_warns_and_shares() {
        let a = assign(&smt4(), 6, 1, false);
        assert_eq!(a.slots.len(), 6);
        assert_eq!(a.slots[4], vec![0]);
        assert!(a.warnings[0].contains("--jobs 6 exceeds the 4 physical cores"));
    }

    #[test]
    fn a_multi_threaded_worker_gets_whole_cores_on_one_node() {
        let cores = vec![
            core(0, &[0]),
            core(0, &[1]),
            core(0, &[2]),
            core(1, &[3]),
            core(1, &[4]),
            core(1, &[5]),
        ];
        let a = assign(&cores, 3, 2, false);
        assert_eq!(a.slots, vec![vec![0, 1], vec![3, 4], vec![2, 5]]);
        assert!(a.warnings.is_empty());
    }

    #[test]
    fn topology_groups_hyperthreads_from_sysfs() {
        let dir = tempfile::tempdir().unwrap();
        for (cpu, core_id) in [(0, 0), (1, 1), (2, 0), (3, 1)] {
            let t = dir.path().join(format!("cpu{cpu}/topology"));
            std::fs::create_dir_all(&t).unwrap();
            std::fs::write(t.join("core_id"), format!("{core_id}\n")).unwrap();
            std::fs::write(t.join("physical_package_id"), "0\n").unwrap();
        }
        let cores = topology(dir.path(), &[0, 1, 2, 3]);
        assert_eq!(cores, vec![core(0, &[0, 2]), core(0, &[1, 3])]);
        // Without topology files every CPU is a core of its own.
        let bare = tempfile::tempdir().unwrap();
        assert_eq!(topology(bare.path(), &[0, 1]).len(), 2);
    }

    #[test]
    fn affinity_round_trips_on_this_thread() {
        let allowed = allowed_cpus();
        assert!(!allowed.is_empty());
        std::thread::spawn(move || {
            set_affinity(&allowed[..1]).unwrap();
            assert_eq!(allowed_cpus(), allowed[..1].to_vec());
        })
        .join()
        .unwrap();
    }
}
