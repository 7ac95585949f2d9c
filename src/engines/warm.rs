//! Warm starts of the Python drivers ([`super::external::Session`]): a fork server per
//! driver imports the solver once, and each driver process is forked from it, already
//! warm, instead of a fresh interpreter importing the solver again (0.2 to 0.7 s a run).
//!
//! * **The fork server** (`drivers/forkserver.py`, part of this binary) runs on the
//!   drivers' interpreter, one per (interpreter, driver source). Its starter binds its
//!   Unix socket (in a private folder of the system's temporary folder, made with mode
//!   0700) and hands it over as the server's standard input; the server imports every
//!   module the driver imports, says it is ready, and forks a child per connection. It
//!   ends after [`IDLE_SECONDS`] without a connection or when the process that started
//!   it ends, removing its socket; a server found dead is started again, and one that
//!   fails to start (no "ready") is not tried again by this process. A server killed
//!   with its run's process tree cannot remove its socket: the next process that makes a
//!   folder removes such stale folders of its user ([`remove_stale_folders`]).
//! * **Who starts it**: the process that wants a driver, where it has no parent's server
//!   to use (tests, `--in-process`); in a sweep, the parent, before it starts the worker
//!   of a run that needs it, so that the server lives outside every run's cgroup and its
//!   start (interpreter and import, once a sweep) is charged to no run. The parent tells
//!   the worker where the servers are ([`DIR_VAR`]), or to start cold ([`WARM_VAR`] = 0:
//!   a sweep measured without cgroups, where `wait4` would miss a driver that is not the
//!   worker's own child).
//! * **A driver's start**: the client makes the driver's three pipes and sends their ends
//!   (SCM_RIGHTS) with the driver's arguments; the server forks and answers with the
//!   child's pid; the client opens a pidfd on it, moves it into its own cgroups
//!   ([`crate::cgroups::adopt`]: a worker's run cgroup, which measures its CPU time and
//!   memory, enforces the memory limit and kills it when the run ends) and onto its own
//!   CPUs, then says "go"; the child makes the pipes its standard streams and runs the
//!   driver as `python -I -c` would. From there the session is the same as a cold one:
//!   the same pipes, the same messages, killed at the deadline plus the grace through
//!   its pidfd.
//! * **Cold**: with `PUZZLEBENCH_WARM=0`, or when the server cannot be started or
//!   reached, or the child cannot be moved into the run's cgroup, a driver starts as
//!   before, a fresh interpreter of its own ([`super::external::Session::cold_because`]
//!   says why). A row's `solver_version` ends in ` [warm]` for a driver started warm.
//!
//! What differs from a cold start: the driver sees the fork server's environment and
//! working folder (the sweep's, the same the worker has), and the pages it shares
//! unchanged with the server (the imported modules) are charged to the server's cgroup,
//! not the run's, so a warm run's peak memory leaves them out.

use super::driver_source::BuiltIn;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The environment variable that turns warm starts off: `0` (or `off`, `no`, `false`):
/// every driver starts cold.
pub const WARM_VAR: &str = "PUZZLEBENCH_WARM";

/// The environment variable a sweep's parent gives its workers: the folder of its fork
/// servers' sockets. A process that has it uses those servers and starts none.
pub const DIR_VAR: &str = "PUZZLEBENCH_WARM_DIR";

/// Seconds a fork server waits for a connection before it ends.
pub const IDLE_SECONDS: f64 = 60.0;

/// Seconds a starter waits for a new fork server to be ready (its interpreter's start
/// and the solver's import).
const READY_SECONDS: u64 = 120;

/// Seconds a client waits for a ready server to answer a connection with the child's pid.
const ANSWER_SECONDS: u64 = 10;

/// The fork server's source, run as `python -I -c`, with the drivers' protocol module
/// registered ahead of it, for the drivers it forks ([`super::driver_source`]).
static SERVER: BuiltIn = BuiltIn::new(include_str!("drivers/forkserver.py"));

/// How this process starts drivers.
enum Mode {
    /// Always cold (`PUZZLEBENCH_WARM=0`).
    Cold,
    /// Through fork servers this process starts itself.
    Own,
    /// Through the fork servers whose sockets are in this folder (a sweep's parent
    /// started them).
    Shared(PathBuf),
}

fn mode() -> &'static Mode {
    static MODE: OnceLock<Mode> = OnceLock::new();
    MODE.get_or_init(|| {
        let off =
            std::env::var(WARM_VAR).is_ok_and(|v| matches!(v.trim(), "0" | "off" | "no" | "false"));
        if off {
            Mode::Cold
        } else if let Some(dir) = std::env::var_os(DIR_VAR) {
            Mode::Shared(PathBuf::from(dir))
        } else {
            Mode::Own
        }
    })
}

/// True unless `PUZZLEBENCH_WARM=0` turned warm starts off.
pub fn enabled() -> bool {
    !matches!(mode(), Mode::Cold)
}

/// The file name of the socket of the server of `source` on `python`: a hash of both
/// (FNV-1a, the same in every build).
fn socket_name(python: &Path, source: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = python.as_os_str().as_encoded_bytes().iter();
    for &b in bytes.chain([0u8].iter()).chain(source.as_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}.sock")
}

/// The fork servers this process started.
#[derive(Default)]
struct Registry {
    /// The folder of their sockets.
    dir: Option<PathBuf>,
    /// Running servers by socket name.
    running: HashMap<String, Child>,
    /// Servers that failed to start, by socket name: why.
    failed: HashMap<String, String>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);
static SERVERS_STARTED: AtomicU64 = AtomicU64::new(0);

/// How many fork servers this process has started.
pub fn servers_started() -> u64 {
    SERVERS_STARTED.load(Ordering::SeqCst)
}

/// The pid of the running fork server this process started for `source` on `python`.
pub fn server_pid(python: &Path, source: &str) -> Option<u32> {
    let mut guard = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    let registry = guard.as_mut()?;
    let child = registry.running.get_mut(&socket_name(python, source))?;
    matches!(child.try_wait(), Ok(None)).then(|| child.id())
}

/// The socket of the fork server of `source` on `python` that this process runs: started
/// (and waited for until ready) when there is none or it has ended.
fn ensure(python: &Path, source: &str) -> Result<PathBuf, String> {
    let name = socket_name(python, source);
    let mut guard = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    let registry = guard.get_or_insert_with(Registry::default);
    if let Some(why) = registry.failed.get(&name) {
        return Err(why.clone());
    }
    let dir = match &registry.dir {
        Some(d) if d.is_dir() => d.clone(),
        _ => {
            remove_stale_folders(&std::env::temp_dir(), STALE_AFTER);
            // Private (0700): without permissions, tempfile leaves it to the umask.
            let private = {
                use std::os::unix::fs::PermissionsExt;
                std::fs::Permissions::from_mode(0o700)
            };
            let d = tempfile::Builder::new()
                .prefix("puzzlebench-warm-")
                .permissions(private)
                .tempdir()
                .map_err(|e| format!("cannot make a folder for the fork servers: {e}"))?
                .keep();
            registry.dir = Some(d.clone());
            d
        }
    };
    let socket = dir.join(&name);
    if let Some(child) = registry.running.get_mut(&name) {
        if matches!(child.try_wait(), Ok(None)) && socket.exists() {
            return Ok(socket);
        }
        registry.running.remove(&name);
    }
    match start_server(python, source, &socket) {
        Ok(child) => {
            registry.running.insert(name, child);
            Ok(socket)
        }
        Err(why) => {
            // The folder goes too when no other server uses it (a later one makes another).
            let _ = std::fs::remove_dir(&dir);
            let why = format!("the fork server did not start: {why}");
            registry.failed.insert(name, why.clone());
            Err(why)
        }
    }
}

/// How old a fork servers' folder must be before [`remove_stale_folders`] may take it: a
/// folder that another process has just made has no socket yet.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Removes the fork servers' folders in `tmp` that earlier processes of this user left
/// behind, older than `age`: a server killed with its run's process tree (SIGKILL, which
/// no `finally` outlives) leaves its socket file and folder. A folder is stale when it
/// holds nothing but socket files and none of them is bound by a live process (Linux's
/// `/proc/net/unix` lists every bound path); where that list cannot be read, nothing is
/// removed.
fn remove_stale_folders(tmp: &Path, age: Duration) {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let Ok(bound) = std::fs::read_to_string("/proc/net/unix") else {
        return;
    };
    // SAFETY: getuid(2) cannot fail and touches no memory.
    let uid = unsafe { libc::getuid() };
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let dir = entry.path();
        let ours = entry
            .file_name()
            .to_string_lossy()
            .starts_with("puzzlebench-warm-");
        let Ok(meta) = std::fs::symlink_metadata(&dir) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|e| e >= age);
        if !ours || !meta.is_dir() || meta.uid() != uid || !old {
            continue;
        }
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        let files: Vec<(PathBuf, bool)> = files
            .flatten()
            .map(|f| (f.path(), f.file_type().is_ok_and(|t| t.is_socket())))
            .collect();
        let live = files
            .iter()
            .any(|(f, _)| bound.contains(&*f.to_string_lossy()));
        if live || files.iter().any(|(_, socket)| !socket) {
            continue;
        }
        for (f, _) in &files {
            let _ = std::fs::remove_file(f);
        }
        let _ = std::fs::remove_dir(&dir);
    }
}

/// Starts the fork server of `source` on `python` at `socket` and waits until it is ready.
fn start_server(python: &Path, source: &str, socket: &Path) -> Result<Child, String> {
    let _ = std::fs::remove_file(socket);
    let listener =
        UnixListener::bind(socket).map_err(|e| format!("cannot bind {}: {e}", socket.display()))?;
    let mut command = Command::new(python);
    command
        .arg("-I")
        .arg("-c")
        .arg(SERVER.source())
        .arg(IDLE_SECONDS.to_string())
        .arg(source)
        .stdin(Stdio::from(OwnedFd::from(listener)))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Its own process group: a Ctrl-C at the terminal does not reach it.
        .process_group(0);
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_file(socket);
            return Err(format!("cannot start {}: {e}", python.display()));
        }
    };
    SERVERS_STARTED.fetch_add(1, Ordering::SeqCst);
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let fail = |child: &mut Child, why: String| {
        // SAFETY: a plain kill(2) of the server's own process group, not yet reaped.
        unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
        let _ = child.kill();
        let _ = child.wait();
        let _ = std::fs::remove_file(socket);
        Err(why)
    };
    let line = match rx.recv_timeout(Duration::from_secs(READY_SECONDS)) {
        Ok(l) => l,
        Err(_) => return fail(&mut child, format!("not ready within {READY_SECONDS} s")),
    };
    let ready = serde_json::from_str::<serde_json::Value>(&line)
        .is_ok_and(|v| v.get("kind").and_then(|k| k.as_str()) == Some("ready"));
    if !ready {
        let said = line.trim();
        let said = if said.is_empty() { "nothing" } else { said };
        return fail(&mut child, format!("it said {said} instead of ready"));
    }
    Ok(child)
}

/// The environment a sweep's parent gives the worker of a run on an engine whose driver
/// is `driver` (None: no Python driver), `measured` when the run has a cgroup of its own:
/// the folder of this process's fork servers, with the server of `driver` started, or
/// `PUZZLEBENCH_WARM=0` (warm starts off, no driver, no cgroup to move a forked driver
/// into, or no server).
pub fn worker_env(driver: Option<&str>, measured: bool) -> Vec<(&'static str, OsString)> {
    let cold = vec![(WARM_VAR, OsString::from("0"))];
    let Some(source) = driver.filter(|_| measured) else {
        return cold;
    };
    match mode() {
        Mode::Cold => cold,
        Mode::Shared(dir) => vec![(DIR_VAR, dir.clone().into_os_string())],
        Mode::Own => {
            let socket = crate::process::python().and_then(|p| ensure(&p, source));
            match socket.ok().as_deref().and_then(Path::parent) {
                Some(dir) => vec![(DIR_VAR, dir.as_os_str().to_owned())],
                None => cold,
            }
        }
    }
}

/// A driver process forked by a fork server, with the ends of its standard streams.
pub struct Started {
    /// The driver process.
    pub child: WarmChild,
    /// Its standard input.
    pub stdin: File,
    /// Its standard output.
    pub stdout: File,
    /// Its standard error.
    pub stderr: File,
}

/// Starts `source` on `python` with the arguments `args` through its fork server (see
/// the module's doc); the error says why it cannot (then the driver starts cold).
pub fn start(python: &Path, source: &str, args: &[&str]) -> Result<Started, String> {
    let socket = match mode() {
        Mode::Cold => return Err(format!("warm starts are off ({WARM_VAR}=0)")),
        Mode::Own => ensure(python, source)?,
        Mode::Shared(dir) => dir.join(socket_name(python, source)),
    };
    let mut stream = UnixStream::connect(&socket)
        .map_err(|e| format!("cannot reach the fork server at {}: {e}", socket.display()))?;
    let timeout = Some(Duration::from_secs(ANSWER_SECONDS));
    let _ = stream.set_read_timeout(timeout);
    let _ = stream.set_write_timeout(timeout);
    let io = |what: &str, e: std::io::Error| format!("fork server: {what}: {e}");
    let (in_r, in_w) = pipe().map_err(|e| io("pipe", e))?;
    let (out_r, out_w) = pipe().map_err(|e| io("pipe", e))?;
    let (err_r, err_w) = pipe().map_err(|e| io("pipe", e))?;
    let mut request = serde_json::json!({ "argv": args }).to_string();
    request.push('\n');
    send_fds(
        &stream,
        request.as_bytes(),
        &[in_r.as_raw_fd(), out_w.as_raw_fd(), err_w.as_raw_fd()],
    )
    .map_err(|e| io("sending the request", e))?;
    drop((in_r, out_w, err_w));
    let mut answer = String::new();
    BufReader::new(&stream)
        .read_line(&mut answer)
        .map_err(|e| io("reading its answer", e))?;
    let answer: serde_json::Value = serde_json::from_str(&answer)
        .map_err(|_| format!("fork server: no pid in its answer {:?}", answer.trim()))?;
    let Some(pid) = answer.get("pid").and_then(|p| p.as_i64()) else {
        return Err(format!("fork server: {answer}"));
    };
    let pid = pid as libc::pid_t;
    // The child waits for "go": until then it is alive, and the pidfd is its own.
    let child = WarmChild::open(pid).map_err(|e| io("pidfd_open", e))?;
    // From here on an error drops the stream (the child ends without "go") and the child.
    crate::cgroups::adopt(pid)
        .map_err(|e| format!("cannot move the forked driver into this run's cgroup: {e}"))?;
    same_cpus(pid).map_err(|e| io("sched_setaffinity", e))?;
    stream.write_all(b"go\n").map_err(|e| io("sending go", e))?;
    Ok(Started {
        child,
        stdin: File::from(in_w),
        stdout: File::from(out_r),
        stderr: File::from(err_r),
    })
}

/// A driver process forked by a fork server: not this process's child, so it is known by
/// a pidfd (which stays its own, whatever happens to its pid), killed through it and
/// waited for by polling it. Dropping it kills the process.
pub struct WarmChild {
    pid: libc::pid_t,
    pidfd: OwnedFd,
}

impl WarmChild {
    fn open(pid: libc::pid_t) -> std::io::Result<WarmChild> {
        // SAFETY: pidfd_open(2) takes a pid and flags and returns a new descriptor.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: the descriptor was just returned to us and is owned by nobody else.
        let pidfd = unsafe { OwnedFd::from_raw_fd(fd as RawFd) };
        Ok(WarmChild { pid, pidfd })
    }

    /// Its process id.
    pub fn id(&self) -> u32 {
        self.pid as u32
    }

    /// Waits up to `timeout` for it to end; true when it has.
    pub fn wait_timeout(&self, timeout: Duration) -> bool {
        let mut poll = libc::pollfd {
            fd: self.pidfd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
        loop {
            // SAFETY: poll(2) on one pollfd we own.
            let n = unsafe { libc::poll(&mut poll, 1, ms) };
            if n >= 0 {
                return n > 0;
            }
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return false;
            }
        }
    }

    /// True while it runs.
    pub fn running(&self) -> bool {
        !self.wait_timeout(Duration::ZERO)
    }

    /// Kills it and its process group (it leads one) with SIGKILL; true when it is gone
    /// within a second.
    pub fn kill(&self) -> bool {
        if self.running() {
            // SAFETY: kill(2) of the group it leads: while it runs, the group id is its.
            unsafe { libc::kill(-self.pid, libc::SIGKILL) };
            // SAFETY: pidfd_send_signal(2) on our pidfd, no siginfo, no flags.
            unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    self.pidfd.as_raw_fd(),
                    libc::SIGKILL,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                )
            };
        }
        self.wait_timeout(Duration::from_secs(1))
    }
}

impl Drop for WarmChild {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A pipe (read end, write end), both closed on exec.
fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2(2) fills the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just made and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sends `data` on `stream` with the descriptors `fds` (SCM_RIGHTS) on its first byte.
fn send_fds(mut stream: &UnixStream, data: &[u8], fds: &[RawFd]) -> std::io::Result<()> {
    let fd_bytes = std::mem::size_of_val(fds);
    // SAFETY: CMSG_SPACE and CMSG_LEN are arithmetic.
    let (space, len) = unsafe {
        (
            libc::CMSG_SPACE(fd_bytes as u32) as usize,
            libc::CMSG_LEN(fd_bytes as u32) as usize,
        )
    };
    // u64 words keep the control buffer aligned for cmsghdr.
    let mut control = vec![0u64; space.div_ceil(8)];
    let mut iov = libc::iovec {
        iov_base: data.as_ptr() as *mut libc::c_void,
        iov_len: data.len(),
    };
    // SAFETY: msghdr is plain data; every pointer set below outlives the sendmsg call,
    // and the cmsghdr is written inside `control`, which CMSG_SPACE sized.
    let sent = unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = space as _;
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = len as _;
        std::ptr::copy_nonoverlapping(fds.as_ptr().cast::<u8>(), libc::CMSG_DATA(cmsg), fd_bytes);
        libc::sendmsg(stream.as_raw_fd(), &msg, libc::MSG_NOSIGNAL)
    };
    if sent < 0 {
        return Err(std::io::Error::last_os_error());
    }
    stream.write_all(&data[sent as usize..])
}

/// Puts the process `pid` on the CPUs this thread may run on (a worker's pinned cores).
fn same_cpus(pid: libc::pid_t) -> std::io::Result<()> {
    // SAFETY: cpu_set_t is plain data, filled by sched_getaffinity and read by
    // sched_setaffinity.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut set) != 0
            || libc::sched_setaffinity(pid, size, &set) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_servers_that_died_are_removed_and_live_ones_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let make = |name: &str| {
            let dir = tmp.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            dir
        };
        // A server killed with its tree: a socket file nobody holds.
        let dead = make("puzzlebench-warm-dead");
        drop(UnixListener::bind(dead.join("a.sock")).unwrap());
        // A live server: its socket is bound.
        let live = make("puzzlebench-warm-live");
        let _held = UnixListener::bind(live.join("b.sock")).unwrap();
        // Someone else's file, and a folder that is not a fork servers'.
        let other = make("puzzlebench-warm-other");
        std::fs::write(other.join("notes.txt"), "x").unwrap();
        let foreign = make("something-else");
        remove_stale_folders(tmp.path(), STALE_AFTER);
        assert!(dead.exists(), "a folder younger than a minute is kept");
        remove_stale_folders(tmp.path(), Duration::ZERO);
        assert!(!dead.exists(), "a dead server's folder is removed");
        assert!(
            live.join("b.sock").exists(),
            "a live server's socket is kept"
        );
        assert!(other.join("notes.txt").exists() && foreign.exists());
    }

    #[test]
    fn a_socket_name_depends_on_interpreter_and_source() {
        let a = socket_name(Path::new("/a/python"), "print(1)");
        assert_eq!(a, socket_name(Path::new("/a/python"), "print(1)"));
        assert_ne!(a, socket_name(Path::new("/b/python"), "print(1)"));
        assert_ne!(a, socket_name(Path::new("/a/python"), "print(2)"));
        assert!(a.ends_with(".sock") && a.len() == 21, "{a}");
    }

    #[test]
    fn a_server_that_cannot_start_leaves_no_socket_behind() {
        let missing = Path::new("/nonexistent/puzzlebench/python");
        let why = ensure(missing, "print(1)").unwrap_err();
        assert!(why.contains("did not start"), "{why}");
        let dir = REGISTRY
            .lock()
            .unwrap()
            .as_ref()
            .unwrap()
            .dir
            .clone()
            .unwrap();
        let socket = dir.join(socket_name(missing, "print(1)"));
        assert!(!socket.exists(), "{}", socket.display());
        // Not tried again.
        assert_eq!(ensure(missing, "print(1)").unwrap_err(), why);
    }

    #[test]
    fn descriptors_sent_arrive_as_descriptors() {
        let (a, b) = UnixStream::pair().unwrap();
        let (r, w) = pipe().unwrap();
        send_fds(&a, b"hello\n", &[w.as_raw_fd()]).unwrap();
        drop(w);
        let mut buf = [0u8; 16];
        let mut control = vec![0u64; 8];
        let mut iov = libc::iovec {
            iov_base: buf.as_mut_ptr().cast(),
            iov_len: buf.len(),
        };
        // SAFETY: a recvmsg(2) into buffers that outlive the call.
        let received = unsafe {
            let mut msg: libc::msghdr = std::mem::zeroed();
            msg.msg_iov = &mut iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = 64;
            let n = libc::recvmsg(b.as_raw_fd(), &mut msg, 0);
            assert_eq!(n, 6);
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            assert!(!cmsg.is_null());
            assert_eq!((*cmsg).cmsg_type, libc::SCM_RIGHTS);
            let mut fd: RawFd = -1;
            std::ptr::copy_nonoverlapping(
                libc::CMSG_DATA(cmsg),
                (&mut fd as *mut RawFd).cast::<u8>(),
                std::mem::size_of::<RawFd>(),
            );
            OwnedFd::from_raw_fd(fd)
        };
        assert_eq!(&buf[..6], b"hello\n");
        let mut writer = File::from(received);
        writer.write_all(b"through\n").unwrap();
        drop(writer);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut File::from(r), &mut text).unwrap();
        assert_eq!(text, "through\n");
    }
}
