//! A child run to its end or to a deadline ([`run_watched`]), its output read as it
//! comes.

use super::{kill_tree, read_all, read_lines, spawn, Spawned};
use std::io::Write;
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// Seconds the readers of a child's output are waited for once its tree was ended (a
/// process that escaped its tree's mark may still hold a pipe; its output is then cut).
const DRAIN_SECONDS: f64 = 2.0;

/// How a child process ended.
#[derive(Debug)]
pub struct Finished {
    /// Its standard output.
    pub stdout: String,
    /// The lines of its standard output, each with the moment it arrived (a solver that
    /// flushes its log line by line can be timed from it).
    pub lines: Vec<(Instant, String)>,
    /// Its standard error.
    pub stderr: String,
    /// True when it exited with status 0.
    pub success: bool,
    /// Its exit status, when it exited (none when a signal ended it).
    pub code: Option<i32>,
    /// The signal that ended it, when one did (9 for a kill at the deadline).
    pub signal: Option<i32>,
    /// True when it was killed at the deadline.
    pub killed: bool,
    /// Wall-clock seconds from `started` to the end of the child.
    pub seconds: f64,
}

impl Finished {
    /// How it ended, in words: "exit code 3", "killed by signal 6 (SIGABRT)".
    pub fn ending(&self) -> String {
        ending(self.code, self.signal)
    }
}

/// How a process with exit `code` or ending `signal` ended, in words: "exit code 3",
/// "killed by signal 6 (SIGABRT)".
pub fn ending(code: Option<i32>, signal: Option<i32>) -> String {
    match (code, signal) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(s)) => format!("killed by signal {s}{}", signal_name(s)),
        (None, None) => "an unknown ending".to_string(),
    }
}

/// " (SIGKILL)" and the like for the common signals, else "".
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGPIPE => " (SIGPIPE)",
        libc::SIGINT => " (SIGINT)",
        _ => "",
    }
}

/// Runs `command` (started as [`spawn`] does) with `input` on its standard input, reading
/// its output as it comes: `on_line` gets each line of the child's standard output with
/// the moment it arrived, as it arrives (so that what a solver's log reported stays known
/// when the child is killed). The child is killed when it is alive at `kill_at`. When it
/// ends, its whole tree is ended ([`super::kill_tree`]): a background process it left
/// holding its output can neither keep the run waiting nor outlive it. `started` is when
/// the call began (before the model was written), for [`Finished::seconds`]. A program
/// that cannot be started because it does not exist is "not installed".
pub fn run_watched(
    command: Command,
    input: Vec<u8>,
    kill_at: Option<Instant>,
    started: Instant,
    on_line: &(dyn Fn(Instant, &str) + Sync),
) -> Result<Finished, String> {
    let Spawned { mut child, mark } = spawn(command)?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        // The writer is not scoped: a process that escaped the tree and holds the input
        // pipe without reading it must not keep the run waiting.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let stop = &stop;
        // The readers send what they read; one held open by a process that escaped the
        // tree is left behind after the drain time (it ends with that process).
        let (out_tx, out_rx) = mpsc::channel();
        let (line_tx, line_rx) = mpsc::channel::<(Instant, String)>();
        std::thread::spawn(move || {
            read_lines(stdout, |at, l| {
                let _ = line_tx.send((at, l));
            });
        });
        let (err_tx, err_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = err_tx.send(read_all(stderr));
        });
        // Lines are handed to `on_line` as they arrive, on this scope's thread.
        let forward = scope.spawn(move || {
            let mut lines = Vec::new();
            loop {
                match line_rx.recv_timeout(Duration::from_millis(50)) {
                    Ok((at, l)) => {
                        on_line(at, &l);
                        lines.push((at, l));
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if stop.load(std::sync::atomic::Ordering::Relaxed) {
                            break;
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            let _ = out_tx.send(());
            lines
        });
        let mut killed = false;
        let status = match kill_at {
            None => child.wait().map_err(|e| e.to_string()),
            Some(at) => {
                let wait = at.saturating_duration_since(Instant::now());
                match child.wait_timeout(wait).map_err(|e| e.to_string()) {
                    Ok(Some(s)) => Ok(s),
                    Ok(None) => {
                        killed = true;
                        kill_tree(child.id(), &mark);
                        let _ = child.kill();
                        child.wait().map_err(|e| e.to_string())
                    }
                    Err(e) => Err(e),
                }
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        // Whatever the child left behind goes with it.
        kill_tree(child.id(), &mark);
        let status = status?;
        let drain = Duration::from_secs_f64(DRAIN_SECONDS);
        let _ = out_rx.recv_timeout(drain);
        let stderr = err_rx.recv_timeout(drain).unwrap_or_default();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let lines = forward.join().unwrap_or_default();
        let mut stdout = String::new();
        for (_, l) in &lines {
            stdout.push_str(l);
            stdout.push('\n');
        }
        use std::os::unix::process::ExitStatusExt;
        Ok(Finished {
            stdout,
            lines,
            stderr,
            success: status.success(),
            code: status.code(),
            signal: status.signal(),
            killed,
            seconds,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(script);
        c
    }

    #[test]
    fn a_background_child_holding_the_output_neither_delays_the_run_nor_outlives_it() {
        let started = Instant::now();
        let f = run_watched(
            sh("sleep 30 & echo answer"),
            Vec::new(),
            Some(Instant::now() + Duration::from_secs(20)),
            started,
            &|_, _| {},
        )
        .unwrap();
        assert!(f.seconds < 5.0, "{}", f.seconds);
        assert!(started.elapsed().as_secs_f64() < 5.0);
        assert_eq!(f.stdout.trim(), "answer");
        assert!(f.success && !f.killed);
    }

    #[test]
    fn a_child_past_its_deadline_is_killed_and_says_so() {
        let f = run_watched(
            sh("echo started; sleep 30"),
            Vec::new(),
            Some(Instant::now() + Duration::from_millis(300)),
            Instant::now(),
            &|_, _| {},
        )
        .unwrap();
        assert!(f.killed && f.seconds < 5.0, "{f:?}");
        assert_eq!(f.stdout.trim(), "started");
    }

    #[test]
    fn a_crash_names_its_signal() {
        let f = run_watched(
            sh("kill -ABRT $$"),
            Vec::new(),
            None,
            Instant::now(),
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(f.ending(), "killed by signal 6 (SIGABRT)");
    }

    #[test]
    fn a_long_output_is_read_whole_without_breaking_the_pipe() {
        // 200,000 lines, one of them not UTF-8: nothing lost, no SIGPIPE.
        let f = run_watched(
            sh("i=0; printf 'bad \\377\\n'; seq 1 200000"),
            Vec::new(),
            None,
            Instant::now(),
            &|_, _| {},
        )
        .unwrap();
        assert!(f.success, "{}", f.ending());
        assert_eq!(f.lines.len(), 200_001);
        assert_eq!(f.lines[0].1, "bad \u{fffd}");
    }
}
