//! The commands shown in README.md run as written.
//!
//! Every line of a fenced ```sh block of README.md that starts with `puzzlebench ` is run
//! with the binary built for the tests, from the repository's root, with a time limit of
//! its own. Paths under `results/` (the folder the main job writes, ignored by git) are
//! redirected into a temporary folder, so the test leaves the tree as it was. Lines that
//! start with `./scripts/` (the main job and the test suite themselves) and the expensive
//! commands of `SKIPPED` are not run. A command that fails, or runs too long, fails the
//! test with its command line and stderr. The links of README.md and docs/ must name files
//! that exist.
//!
//! Only std and the binary are used.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Time limit of each command.
const LIMIT: Duration = Duration::from_secs(60);

/// Commands not run, by their first words, unless they contain the word after `unless`.
const SKIPPED: &[(&str, Option<&str>)] = &[
    // The main job's own command: minutes to hours.
    ("puzzlebench reproduce", Some("--dry-run")),
    // Sweeps on a cluster need SLURM and shards.
    ("puzzlebench slurm", None),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The command lines of the fenced `sh` blocks of `markdown`: continuation lines joined,
/// comments and blank lines left out.
fn sh_commands(markdown: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in markdown.lines() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            if in_sh {
                in_sh = false;
                if !pending.trim().is_empty() {
                    commands.push(pending.trim().to_string());
                }
                pending.clear();
            } else {
                let lang = info.split(|c: char| c == ',' || c.is_whitespace()).next();
                in_sh = matches!(lang, Some("sh") | Some("bash") | Some("shell"));
            }
            continue;
        }
        if !in_sh {
            continue;
        }
        let text = strip_comment(line);
        let text = text.trim_end();
        if let Some(head) = text.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(text);
        if !pending.trim().is_empty() {
            commands.push(pending.trim().to_string());
        }
        pending.clear();
    }
    commands
}

/// `line` without a `#` comment (a `#` at the start or after a blank, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// The words of a command line, with simple single and double quotes.
fn words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

fn skipped(command: &str) -> bool {
    SKIPPED.iter().any(|(prefix, unless)| {
        let starts = command == *prefix || command.starts_with(&format!("{prefix} "));
        starts && !unless.is_some_and(|u| words(command).iter().any(|w| w == u))
    })
}

/// `arg` with a leading `results/` moved into `tmp`.
fn redirect(arg: &str, tmp: &Path) -> String {
    if arg == "results" {
        tmp.join("results").display().to_string()
    } else if let Some(rest) = arg.strip_prefix("results/") {
        tmp.join("results").join(rest).display().to_string()
    } else {
        arg.to_string()
    }
}

/// A folder of its own under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("puzzlebench-docs-{}-{nanos}", std::process::id()));
        fs::create_dir_all(path.join("results")).expect("make the temporary folder");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `args` with the binary from the repository's root; `Err` says why it failed.
fn run(args: &[String]) -> Result<Duration, String> {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlebench"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    // Read stderr on a thread of its own, so a chatty command never blocks on a full pipe.
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = reader.join().unwrap_or_default();
    let tail: String = {
        let lines: Vec<&str> = stderr.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    };
    match status {
        None => Err(format!(
            "still running after {} s; stderr:\n{tail}",
            LIMIT.as_secs()
        )),
        Some(s) if s.success() => Ok(start.elapsed()),
        Some(s) => Err(format!("exit status {s}; stderr:\n{tail}")),
    }
}

#[test]
fn readme_commands_run_as_written() {
    let readme = fs::read_to_string(root().join("README.md")).expect("read README.md");
    let commands = sh_commands(&readme);
    let tmp = TempDir::new();
    let mut ran = 0;
    let mut failures = Vec::new();
    for command in &commands {
        if command.starts_with("./scripts/") {
            continue;
        }
        if !command.starts_with("puzzlebench ") && command != "puzzlebench" {
            failures.push(format!(
                "`{command}`: a README sh block may hold only `puzzlebench ...` and `./scripts/...` \
                 lines (write other commands in a text block)"
            ));
            continue;
        }
        if skipped(command) {
            eprintln!("skipped: {command}");
            continue;
        }
        let args: Vec<String> = words(command)[1..]
            .iter()
            .map(|a| redirect(a, &tmp.0))
            .collect();
        match run(&args) {
            Ok(took) => {
                eprintln!("ok ({:.1} s): {command}", took.as_secs_f64());
                ran += 1;
            }
            Err(why) => failures.push(format!("`{command}` failed: {why}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} README command(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        ran >= 5,
        "only {ran} README commands ran: is the README's sh block format still read?"
    );
}

/// Relative link targets of `markdown`: the part of `](target)` before any `#`, without
/// web addresses and pure anchors.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            rest = &rest[end..];
            let path = target.split('#').next().unwrap_or("");
            if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
                continue;
            }
            targets.push(path.to_string());
        }
    }
    targets
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        // The example report is generated; its links are the report's business.
        if path.ends_with("example-report") {
            continue;
        }
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn readme_and_docs_links_name_files_that_exist() {
    let mut files = vec![root().join("README.md")];
    markdown_files(&root().join("docs"), &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("read a Markdown file");
        let dir = file.parent().expect("a file has a folder");
        for target in link_targets(&text) {
            if !dir.join(&target).exists() {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to missing files:\n{}",
        broken.join("\n")
    );
}

#[test]
fn commands_are_read_from_sh_blocks() {
    let md = "text\n```sh\npuzzlebench list   # what there is\n./scripts/main.sh\n\
              puzzlebench run --puzzle sudoku \\\n    --out results/x.csv\n```\n\
              ```text\npuzzlebench solve FILE\n```\n";
    let found: Vec<String> = sh_commands(md)
        .iter()
        .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        found,
        [
            "puzzlebench list",
            "./scripts/main.sh",
            "puzzlebench run --puzzle sudoku --out results/x.csv"
        ]
    );
    assert_eq!(words("a 'b c' \"d\" e"), ["a", "b c", "d", "e"]);
    assert!(skipped("puzzlebench reproduce --quick"));
    assert!(!skipped("puzzlebench reproduce --dry-run"));
    assert!(!skipped("puzzlebench report x.csv"));
    let tmp = Path::new("/tmp/x");
    assert_eq!(redirect("results/a.csv", tmp), "/tmp/x/results/a.csv");
    assert_eq!(redirect("docs/results.csv", tmp), "docs/results.csv");
}
