//! The process layer: what every part that runs another program shares, below the
//! engines and the user formulations (neither is imported here). After BenchExec's split
//! of process measurement (runexec) from the tools, this module knows processes, not
//! solvers:
//!
//! * **Finding programs** ([`python`], [`program`]): the project's Python interpreter
//!   and the command-line solvers.
//! * **Starting a child** ([`spawn`]): its standard streams piped, leading a process
//!   group of its own, killed when the thread that started it ends, and marked with a
//!   tree mark ([`TREE_VAR`]) that every process it starts inherits, so that what it
//!   leaves behind can be found even when it left the group (`setsid`, a daemon).
//! * **Ending a tree** ([`kill_tree`]): the child's process group and every process that
//!   carries its mark are killed; a run calls it when its child ends, so that no
//!   background child of a solver outlives the run or holds its pipes open. A watchdog
//!   started with the first child ([`watchdog`]) does the same for every mark of this
//!   process when puzzlebench ends in any way (a normal exit, Ctrl-C, `kill -9`).
//! * **Watching a child** ([`watched::run_watched`]): its output read as bytes (one
//!   byte that is not UTF-8 loses nothing: it becomes U+FFFD), killed at a deadline, its
//!   whole tree ended when it exits.
//! * **Temporary files** ([`temp_file`]) and **quoting** what a program printed in a
//!   message ([`quote`]), capped so that a 3 MB line never becomes a 3 MB error cell.
//! * **A hard stop for plug-ins** ([`plugin_deadline`]): a program that a file added (an
//!   engine definition, a user formulation) run without a time limit is still stopped,
//!   after [`PLUGIN_HARD_STOP_SECONDS`] (or `PUZZLEBENCH_PLUGIN_HARD_STOP`).

pub mod watched;

pub use watched::{run_watched, Finished};

use std::io::{BufRead, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The environment variable naming the Python interpreter of the drivers.
pub const PYTHON_VAR: &str = "PUZZLEBENCH_PYTHON";

/// How to install the Python solvers, for "not installed" messages.
pub const PYTHON_HINT: &str = "run scripts/setup-python.sh (or set PUZZLEBENCH_PYTHON)";

/// The environment variable that marks a child's tree: `<process mark>-<child number>`.
pub const TREE_VAR: &str = "PUZZLEBENCH_TREE";

/// Seconds a program added by a file may run when its run has no time limit: an hour.
pub const PLUGIN_HARD_STOP_SECONDS: f64 = 3600.0;

/// The environment variable that sets [`PLUGIN_HARD_STOP_SECONDS`] (seconds, more than 0).
pub const PLUGIN_HARD_STOP_VAR: &str = "PUZZLEBENCH_PLUGIN_HARD_STOP";

/// The most characters of a program's text quoted in a message ([`quote`]).
pub const QUOTE_CHARS: usize = 300;

/// The Python interpreter of the drivers: `PUZZLEBENCH_PYTHON`, else the first
/// `.venv/bin/python` in the current folder or a folder above the executable.
pub fn python() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(PYTHON_VAR) {
        return Ok(PathBuf::from(p));
    }
    project_places()
        .into_iter()
        .map(|d| d.join(".venv").join("bin").join("python"))
        .find(|p| p.exists())
        .ok_or_else(|| {
            format!(
                "no project Python environment (.venv/bin/python in this folder or above the puzzlebench executable); {PYTHON_HINT}"
            )
        })
}

/// Where the project's folders are looked for, in order: the current folder, then each
/// folder above the puzzlebench executable (its `.venv`, `engines/`, `formulations/`).
pub fn project_places() -> Vec<PathBuf> {
    let mut places = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        places.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        places.extend(exe.ancestors().skip(1).map(Path::to_path_buf));
    }
    places
}

/// The program an engine runs: the environment variable `var` when set, else `name`,
/// found on the PATH when started (`glpsol`, `swipl`).
pub fn program(var: &str, name: &str) -> PathBuf {
    std::env::var_os(var).map_or_else(|| PathBuf::from(name), PathBuf::from)
}

/// `python`, when it exists; else why it is not installed.
pub fn existing(python: &Path) -> Result<&Path, String> {
    if python.exists() {
        Ok(python)
    } else {
        Err(format!(
            "no Python interpreter at {}; {PYTHON_HINT}",
            python.display()
        ))
    }
}

/// Runs `python -I -c code` and returns its trimmed standard output, for version probes.
pub fn python_output(code: &str) -> Result<String, String> {
    let python = python()?;
    let python = existing(&python)?;
    let out = Command::new(python)
        .arg("-I")
        .arg("-c")
        .arg(code)
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{}: {}; {PYTHON_HINT}",
            python.display(),
            quote(last_line(&err))
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The last line of `text` that is not blank ("" when there is none).
pub fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

/// `text` as a message quotes it: at most [`QUOTE_CHARS`] characters, and when it was
/// longer, how long it was.
pub fn quote(text: &str) -> String {
    let mut chars = text.char_indices();
    match chars.nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

/// This process's mark, which the marks of its children's trees start with: its process
/// id and a number unique to this start, so that a later process with the same id never
/// takes it for its own.
fn process_mark() -> &'static str {
    static MARK: OnceLock<String> = OnceLock::new();
    MARK.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        format!("pb{}x{nanos}", std::process::id())
    })
}

/// A fresh tree mark for one child.
fn tree_mark() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        process_mark(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A child started by [`spawn`]: the process and the mark of its tree.
#[derive(Debug)]
pub struct Spawned {
    /// The child (its standard streams piped).
    pub child: Child,
    /// The mark every process of its tree carries in [`TREE_VAR`].
    pub mark: String,
}

/// Starts `command` with its standard streams piped, leading a process group of its own
/// (so that killing the group reaches whatever it started: a shell's children hold its
/// pipes open), killed when the thread that started it ends, and marked for
/// [`kill_tree`]. A program that cannot be started because it does not exist is "not
/// installed".
pub fn spawn(mut command: Command) -> Result<Spawned, String> {
    watchdog();
    let program = command.get_program().to_string_lossy().to_string();
    let mark = tree_mark();
    command.env(TREE_VAR, &mark);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::setpgid(0, 0);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
                format!("not installed: {program}: {e}")
            }
            _ => format!("cannot start {program}: {e}"),
        })?;
    Ok(Spawned { child, mark })
}

/// Kills the tree of a child [`spawn`] started: its process group `pid` (the child leads
/// it) and every process whose environment holds `mark`. Call it while the child is not
/// yet reaped or right after: its group id cannot be taken by another process while a
/// member of the group lives.
pub fn kill_tree(pid: u32, mark: &str) {
    // SAFETY: kill(2) of a process group; an empty group is ESRCH, which is ignored.
    unsafe {
        libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
    }
    kill_marked(&format!("{TREE_VAR}={mark}\0"));
}

/// Kills every process (but this one) whose environment holds the entry `needle` (with
/// its closing NUL, or a prefix of an entry without one).
fn kill_marked(needle: &str) {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    let me = std::process::id();
    let needle = needle.as_bytes();
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let holds = env.split(|&b| b == 0).any(|e| {
            needle
                .strip_suffix(b"\0")
                .map_or(e.starts_with(needle), |n| e == n)
        });
        if holds {
            // SAFETY: kill(2) of one process that carries our mark.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

/// Starts, once per process, the watchdog: a shell that ignores the signals a terminal
/// sends, waits until puzzlebench's end closes its standard input (however puzzlebench
/// ended, `kill -9` included), then kills every process that carries one of this
/// process's tree marks. Without `/bin/sh` there is no watchdog (a note on standard
/// error), and trees are still ended at the end of each run.
pub fn watchdog() {
    static STARTED: OnceLock<Option<std::process::ChildStdin>> = OnceLock::new();
    STARTED.get_or_init(|| {
        let prefix = format!("{TREE_VAR}={}-", process_mark());
        let script = r#"trap '' INT TERM HUP QUIT
cat >/dev/null
for p in /proc/[0-9]*; do
  if tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -q "^$1"; then kill -9 "${p#/proc/}" 2>/dev/null; fi
done"#;
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(script)
            .arg("puzzlebench-watchdog")
            .arg(&prefix)
            .env_remove(TREE_VAR)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // Its own session: a terminal's signals and a killed process group leave it be.
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        match command.spawn() {
            Ok(mut child) => {
                let stdin = child.stdin.take();
                // Reaped by a thread of its own, so that it never lingers as a zombie.
                std::thread::spawn(move || {
                    let _ = child.wait();
                });
                stdin
            }
            Err(e) => {
                eprintln!("puzzlebench: no watchdog for child processes ({e}); each run still ends its children");
                None
            }
        }
    });
}

/// The deadline of a program added by a file (an engine definition, a user
/// formulation): `deadline` when the run has one, else [`PLUGIN_HARD_STOP_SECONDS`]
/// (or `PUZZLEBENCH_PLUGIN_HARD_STOP`) after `started`, with the message a run stopped
/// there gives.
pub fn plugin_deadline(deadline: Option<Instant>, started: Instant) -> (Instant, Option<String>) {
    match deadline {
        Some(d) => (d, None),
        None => {
            let seconds = plugin_hard_stop();
            (
                started + Duration::from_secs_f64(seconds),
                Some(format!(
                    "stopped after {seconds} s: the run has no time limit, and a program added by a file is stopped at the plug-in hard stop ({PLUGIN_HARD_STOP_VAR}, default {PLUGIN_HARD_STOP_SECONDS} s)"
                )),
            )
        }
    }
}

/// The plug-in hard stop in seconds: `PUZZLEBENCH_PLUGIN_HARD_STOP` when it is a number
/// above 0 (at most a year), else [`PLUGIN_HARD_STOP_SECONDS`].
pub fn plugin_hard_stop() -> f64 {
    std::env::var(PLUGIN_HARD_STOP_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|&s| s > 0.0 && s <= 3.2e7)
        .unwrap_or(PLUGIN_HARD_STOP_SECONDS)
}

/// `deadline` plus `seconds` (clamped to 0 ..= a year, so that no setting overflows the
/// clock).
pub fn after(deadline: Instant, seconds: f64) -> Instant {
    let s = if seconds.is_finite() {
        seconds.clamp(0.0, 3.2e7)
    } else {
        0.0
    };
    deadline + Duration::from_secs_f64(s)
}

/// A temporary file holding `text`, removed when dropped.
pub fn temp_file(text: &str, suffix: &str) -> Result<tempfile::TempPath, String> {
    let mut f = tempfile::Builder::new()
        .prefix("puzzlebench-")
        .suffix(suffix)
        .tempfile()
        .map_err(|e| format!("cannot write a temporary model file: {e}"))?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.flush())
        .map_err(|e| format!("cannot write a temporary model file: {e}"))?;
    Ok(f.into_temp_path())
}

/// Reads `reader` to its end line by line as bytes, handing each line (without its line
/// end; bytes that are not UTF-8 become U+FFFD) with the moment it arrived to `line`.
/// It never stops before the end, so a program is never killed by a closed pipe for
/// writing more than its reader wanted.
pub fn read_lines(reader: impl std::io::Read, mut line: impl FnMut(Instant, String)) {
    let mut reader = std::io::BufReader::new(reader);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let at = Instant::now();
                while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    buf.pop();
                }
                line(at, String::from_utf8_lossy(&buf).into_owned());
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
}

/// Reads `reader` to its end as text (bytes that are not UTF-8 become U+FFFD).
pub fn read_all(mut reader: impl std::io::Read) -> String {
    let mut buf = Vec::new();
    let _ = reader.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_quoted_short_with_its_length() {
        let long = "x".repeat(3_000_000);
        let q = quote(&long);
        assert!(q.chars().count() < QUOTE_CHARS + 40, "{}", q.len());
        assert!(q.contains("3000000 bytes in all"), "{q}");
        assert_eq!(quote("short"), "short");
        let multibyte = "é".repeat(QUOTE_CHARS + 5);
        assert!(quote(&multibyte).starts_with(&"é".repeat(QUOTE_CHARS)));
    }

    #[test]
    fn lines_that_are_not_utf8_are_read_whole() {
        let input: &[u8] = b"first\nbad \xff byte\r\nlast without end";
        let mut got = Vec::new();
        read_lines(input, |_, l| got.push(l));
        assert_eq!(got, vec!["first", "bad \u{fffd} byte", "last without end"]);
    }

    #[test]
    fn a_huge_setting_does_not_overflow_the_clock() {
        let now = Instant::now();
        assert!(after(now, 1e300) > now);
        assert_eq!(after(now, f64::NAN), now);
        assert_eq!(after(now, -5.0), now);
    }

    #[test]
    fn a_detached_grandchild_is_killed_with_its_tree() {
        // The child starts a grandchild in a session of its own (out of its group) that
        // would sleep for a minute, prints its id and exits.
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg("setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $!");
        let Spawned { mut child, mark } = spawn(command).unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
        child.wait().unwrap();
        let pid: i32 = out.trim().parse().unwrap();
        // Not yet: the grandchild lives on after its parent.
        std::thread::sleep(Duration::from_millis(100));
        assert!(
            alive(pid),
            "the grandchild should still run before kill_tree"
        );
        kill_tree(child.id(), &mark);
        let gone = (0..50).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !alive(pid)
        });
        assert!(gone, "the detached grandchild {pid} survived kill_tree");
    }

    /// True while `pid` runs (a zombie counts as ended).
    fn alive(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| {
                s.rsplit(')')
                    .next()
                    .is_some_and(|r| !r.trim_start().starts_with('Z'))
            })
            .unwrap_or(false)
    }
}
