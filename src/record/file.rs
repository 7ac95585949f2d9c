//! The results file: an append-only CSV of [`Record`]s, header first, every row flushed as
//! it comes, an incomplete last line (a killed writer) cut off and reported, never kept;
//! and reading such a file back, with errors that name the file and line.

use super::Record;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Held while a results file is opened (read, and its incomplete last line cut) or a row
/// appended, so that races running at once in one process ([`crate::commands::race`]) never
/// cut a row another is writing.
static FILE_LOCK: Mutex<()> = Mutex::new(());

/// An append-only results file: header written once, every row flushed as it comes.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

/// What opening an existing results file found.
#[derive(Debug, Default)]
pub struct Existing {
    /// The rows already in the file.
    pub rows: Vec<Record>,
    /// Bytes of an incomplete last line that were cut off (a killed writer).
    pub repaired_bytes: usize,
    /// The file had the columns of an older version and was rewritten in today's (every
    /// value kept, the new columns empty).
    pub upgraded_columns: bool,
}

impl ResultsFile {
    /// Opens `path` for appending, creating it with the header when it is new or empty.
    /// An existing file must start with puzzlebench's header and parse; an incomplete last
    /// line (no newline, or a row that does not parse) is cut off and reported, never kept.
    pub fn open(path: &Path) -> Result<(Self, Existing), String> {
        let _held = FILE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        Self::open_held(path)
    }

    fn open_held(path: &Path) -> Result<(Self, Existing), String> {
        let shown = path.display();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot create folder: {e}", dir.display()))?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{shown}: cannot open: {e}"))?;
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(|e| format!("{shown}: cannot read: {e}"))?;
        let header = Record::header().join(",");
        let mut existing = Existing::default();
        if text.is_empty() {
            writeln!(file, "{header}").map_err(|e| format!("{shown}: {e}"))?;
            return Ok((
                ResultsFile {
                    path: path.to_path_buf(),
                    file,
                },
                existing,
            ));
        }
        check_results_file(path)?;
        let header_line = text.lines().next().unwrap_or("");
        if header_line.trim_end_matches('\r') != header {
            // A file of an older version: rewritten whole in today's columns, through a
            // file beside it renamed over it, so that no row is lost on the way.
            let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
            let new_text = upgraded(path, complete)?;
            let beside = path.with_extension("csv.upgrading");
            std::fs::write(&beside, &new_text)
                .and_then(|_| File::open(&beside)?.sync_all())
                .and_then(|_| std::fs::rename(&beside, path))
                .map_err(|e| format!("{shown}: cannot rewrite in today's columns: {e}"))?;
            drop(file);
            let (f, mut e) = ResultsFile::open_held(path)?;
            e.upgraded_columns = true;
            e.repaired_bytes += text.len().saturating_sub(complete.len());
            return Ok((f, e));
        }
        let (rows, keep) = complete_rows(path, &text)?;
        existing.repaired_bytes = text.len() - keep;
        if existing.repaired_bytes > 0 {
            file.set_len(keep as u64)
                .map_err(|e| format!("{shown}: cannot cut the incomplete last line: {e}"))?;
        }
        file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
        existing.rows = rows;
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file,
            },
            existing,
        ))
    }

    /// The rows of the results file at `path`, read as [`ResultsFile::open`] reads them but
    /// without changing the file: none when it does not exist or is empty; an incomplete
    /// last line is not counted; the header must be puzzlebench's, of today or an older
    /// version.
    pub fn recorded(path: &Path) -> Result<Vec<Record>, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
        };
        if text.is_empty() {
            return Ok(Vec::new());
        }
        check_results_file(path)?;
        Ok(complete_rows(path, &text)?.0)
    }

    /// Appends one row and flushes it to the operating system.
    pub fn append(&mut self, record: &Record) -> Result<(), String> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(vec![]);
        // Keep every row on one line, so a cut-off last line is always recognisable, and
        // an error cell short: a program's huge output quoted in it is cut, its length said.
        let mut one_line = record.clone();
        one_line.error = record
            .error
            .as_ref()
            .map(|e| cap_cell(&e.replace(['\n', '\r'], " / ")));
        w.serialize(&one_line).map_err(|e| e.to_string())?;
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        // One write call per row, so a row is never interleaved with another.
        let _held = FILE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        self.file
            .write_all(&bytes)
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.path.display()))
    }
}

/// The most characters an `error` cell holds; a longer reason is cut and says how long it
/// was.
pub const ERROR_CELL_CHARS: usize = 2000;

/// `text` cut to [`ERROR_CELL_CHARS`] characters, with its length when it was longer.
fn cap_cell(text: &str) -> String {
    match text.char_indices().nth(ERROR_CELL_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… (cut: {} bytes in all)", &text[..cut], text.len()),
    }
}

/// The rows of `text`, a results file at `path` with its header, in today's terms
/// ([`as_today`]), and the length of the text they fill: the complete lines, without an
/// incomplete last line (no newline, or a row that does not parse: a killed writer's). A
/// row that does not parse before the last line is an error naming its line.
fn complete_rows(path: &Path, text: &str) -> Result<(Vec<Record>, usize), String> {
    let mut keep = text.rfind('\n').map_or(0, |i| i + 1);
    let body = &text[..keep];
    let mut rd = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    let mut rows = Vec::new();
    let mut iter = rd.deserialize::<Record>();
    loop {
        let pos = iter.reader().position().byte() as usize;
        match iter.next() {
            None => break,
            Some(Ok(r)) => rows.push(as_today(r)),
            Some(Err(e)) => {
                let line = e.position().map_or(0, |p| p.line());
                let rest_from = e.position().map_or(pos, |p| p.byte() as usize);
                if body[rest_from..].trim_end().contains('\n') {
                    return Err(format!("{}:{line}: not a result row: {e}", path.display()));
                }
                // The last line is damaged: not counted.
                keep = rest_from;
                break;
            }
        }
    }
    Ok((rows, keep))
}

/// Checks, without changing it, that `path` can take rows: it does not exist, is empty, or
/// starts with puzzlebench's header ([`ResultsFile::open`] then reads and repairs it).
pub fn check_results_file(path: &Path) -> Result<(), String> {
    use std::io::BufRead;
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let mut first = Vec::new();
    std::io::BufReader::new(file)
        .read_until(b'\n', &mut first)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let first = String::from_utf8_lossy(&first);
    let first = first.trim_end_matches(['\n', '\r']);
    if first.is_empty() || first == Record::header().join(",") {
        return Ok(());
    }
    if let Some(why) = header_problem(first) {
        return Err(format!(
            "{}:1: the header is not puzzlebench's ({why}: another file); write to a new file",
            path.display()
        ));
    }
    if let Some(c) = unknown_column(first) {
        return Err(format!(
            "{}:1: column {c} is unknown to this version of puzzlebench (a file of a newer version?); write to a new file",
            path.display()
        ));
    }
    // The columns of an older version: [`ResultsFile::open`] rewrites it in today's layout.
    Ok(())
}

/// The first column of a header line that no field of [`Record`] reads, if any.
fn unknown_column(line: &str) -> Option<String> {
    let known = Record::header();
    line.split(',')
        .map(|c| c.trim_matches('"'))
        .find(|c| !known.iter().any(|k| k == c) && !Record::OLD_NAMES.contains(c))
        .map(String::from)
}

/// Rewrites the complete rows of `body` (a results file whose header is that of an older
/// version) in today's columns, as the whole new text of the file: every value the old
/// columns held is kept, and the new columns are empty.
fn upgraded(path: &Path, body: &str) -> Result<String, String> {
    let mut rd = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    let mut w = csv::Writer::from_writer(vec![]);
    for (i, rec) in rd.deserialize::<Record>().enumerate() {
        let r = rec.map_err(|e| format!("{}:{}: {e}", path.display(), i + 2))?;
        w.serialize(&r).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|e| e.to_string())?;
    if text.is_empty() {
        Ok(Record::header().join(",") + "\n")
    } else {
        Ok(text)
    }
}

/// A row as read from a file, in today's terms: formulation keys in today's spelling
/// ([`super::formulation_key`]), and a refusal of an older version (status `error`,
/// its reason starting with `refused:` or `unsupported by `) with status `refused`.
fn as_today(mut r: Record) -> Record {
    r.formulation = super::formulation_key(&r.formulation);
    let refusal = r
        .error
        .as_deref()
        .is_some_and(|e| e.starts_with("refused:") || e.starts_with("unsupported by "));
    if r.status == "error" && refusal {
        r.status = "refused".into();
    }
    r
}

/// Reads every row of a results CSV (in today's terms, as [`ResultsFile::open`] does),
/// stored plain or gzip-compressed (`results.csv.gz`, read also for a missing
/// `results.csv`: [`crate::gz`]).
pub fn read_results(path: &Path) -> Result<Vec<Record>, String> {
    let (path, reader) = crate::gz::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let path = path.as_path();
    let mut rd = csv::Reader::from_reader(reader);
    let first = rd
        .headers()
        .map_err(|e| format!("{}:1: {e}", path.display()))?
        .iter()
        .collect::<Vec<_>>()
        .join(",");
    if let Some(why) = header_problem(&first) {
        return Err(format!(
            "{}:1: not a puzzlebench results file ({why})",
            path.display()
        ));
    }
    let mut rows = Vec::new();
    for (i, rec) in rd.deserialize().enumerate() {
        let r: Record = rec.map_err(|e| format!("{}:{}: {e}", path.display(), i + 2))?;
        rows.push(as_today(r));
    }
    Ok(rows)
}

/// What is wrong with a results file's header line, as far as reading its rows goes: the
/// columns of [`Record::REQUIRED`] it lacks, or None.
pub fn header_problem(line: &str) -> Option<String> {
    let have: Vec<&str> = line.split(',').map(|c| c.trim_matches('"')).collect();
    let missing: Vec<&str> = Record::REQUIRED
        .iter()
        .copied()
        .filter(|c| !have.contains(c))
        .collect();
    match missing.len() {
        0 => None,
        1 => Some(format!("missing column {}", missing[0])),
        n if n <= 5 => Some(format!("missing columns {}", missing.join(", "))),
        n => Some(format!(
            "missing columns {} and {} more",
            missing[..5].join(", "),
            n - 5
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 54, point 12: files of older versions recorded refusals as `error` rows; both
    /// readers read them as `refused`, and only them.
    #[test]
    fn refusals_of_older_versions_are_read_as_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.csv");
        let row = |id: &str, status: &str, error: Option<&str>| Record {
            run_id: id.into(),
            status: status.into(),
            error: error.map(String::from),
            ..Record::default()
        };
        let old = [
            row("a", "error", Some("refused: formulation cm1 is lazy-rows; the highs engine does not solve integer programs with lazy rows")),
            row("b", "error", Some("unsupported by sat: variable v_1 is a general integer")),
            row("c", "error", Some("out of memory: the run went over its memory limit")),
            row("d", "time_limit", Some("refused: not a refusal when the status is not error")),
            row("e", "optimal", None),
        ];
        let mut w = csv::Writer::from_path(&path).unwrap();
        for r in &old {
            w.serialize(r).unwrap();
        }
        w.flush().unwrap();
        let want = ["refused", "refused", "error", "time_limit", "optimal"];
        let statuses = |rows: &[Record]| rows.iter().map(|r| r.status.clone()).collect::<Vec<_>>();
        assert_eq!(statuses(&read_results(&path).unwrap()), want);
        assert_eq!(statuses(&ResultsFile::recorded(&path).unwrap()), want);
        let (_, existing) = ResultsFile::open(&path).unwrap();
        assert_eq!(statuses(&existing.rows), want);
        assert_eq!(existing.rows[0].error, old[0].error, "the reason is kept");
    }

    /// `recorded` reads what `open` would keep, without changing the file: a torn last
    /// line is not counted and stays where it is.
    #[test]
    fn recorded_rows_leave_the_file_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        assert!(ResultsFile::recorded(&path).unwrap().is_empty());
        let (mut f, _) = ResultsFile::open(&path).unwrap();
        for id in ["a", "b"] {
            f.append(&Record {
                run_id: id.into(),
                status: "optimal".into(),
                ..Record::default()
            })
            .unwrap();
        }
        drop(f);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("c,circ");
        std::fs::write(&path, &text).unwrap();
        let ids: Vec<String> = ResultsFile::recorded(&path)
            .unwrap()
            .into_iter()
            .map(|r| r.run_id)
            .collect();
        assert_eq!(ids, ["a", "b"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}
