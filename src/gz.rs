//! Files that a report reads and that may be stored gzip-compressed: a results CSV, its
//! timelines and a race log, which are most of a committed report's size and a tenth of it
//! compressed (the example report, `docs/example-report/`, keeps them so). A name that
//! ends in `.gz` is read decompressed; and where a file is missing but the same name with
//! `.gz` is there, that is read instead, so that `puzzlebench report results.csv` reads
//! `results.csv.gz` and the files beside it under their usual names. A sweep appends to
//! its files as it goes; `reproduce --compress-raw` stores them compressed once its runs
//! are done ([`compress`]), and a later `reproduce` into the same folder takes them back
//! ([`decompress`]) before it appends.

use flate2::read::MultiGzDecoder;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Whether `path` names a gzip file (`.gz`).
pub fn is_gz(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// `path` without a last `.gz`: the name of the file it holds compressed.
pub fn plain(path: &Path) -> PathBuf {
    if is_gz(path) {
        path.with_extension("")
    } else {
        path.to_path_buf()
    }
}

/// `path` with `.gz` added.
pub fn with_gz(path: &Path) -> PathBuf {
    with_suffix(path, ".gz")
}

/// `path` with `suffix` added to its name (`results.csv` → `results.csv.part`).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The file to read for `path`: `path` itself, or, where it is missing and `path.gz` is
/// there, `path.gz`.
pub fn existing(path: &Path) -> PathBuf {
    let gz = with_gz(path);
    if !is_gz(path) && !path.exists() && gz.exists() {
        gz
    } else {
        path.to_path_buf()
    }
}

/// Opens the file to read for `path` ([`existing`]), decompressing it when its name ends in
/// `.gz`. Returns the file read, for messages, and its reader.
pub fn open(path: &Path) -> std::io::Result<(PathBuf, Box<dyn BufRead>)> {
    let file = existing(path);
    let f = std::fs::File::open(&file)?;
    let reader: Box<dyn BufRead> = if is_gz(&file) {
        Box::new(BufReader::new(MultiGzDecoder::new(f)))
    } else {
        Box::new(BufReader::new(f))
    };
    Ok((file, reader))
}

/// The whole text of the file to read for `path` ([`open`]).
pub fn read_to_string(path: &Path) -> std::io::Result<String> {
    let (_, mut reader) = open(path)?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut reader, &mut text)?;
    Ok(text)
}

/// Replaces `path` by `path.gz`, its gzip-compressed copy: the copy is written beside it,
/// synced and renamed into place before `path` is removed, so that no byte is lost if
/// this stops half-way. Returns the compressed file, or `None` when `path` does not exist.
pub fn compress(path: &Path) -> std::io::Result<Option<PathBuf>> {
    use flate2::write::GzEncoder;
    if !path.exists() {
        return Ok(None);
    }
    let gz = with_gz(path);
    let part = with_suffix(&gz, ".part");
    {
        let mut input = std::fs::File::open(path)?;
        let mut e = GzEncoder::new(std::fs::File::create(&part)?, flate2::Compression::best());
        std::io::copy(&mut input, &mut e)?;
        e.finish()?.sync_all()?;
    }
    std::fs::rename(&part, &gz)?;
    std::fs::remove_file(path)?;
    Ok(Some(gz))
}

/// Where `path` is missing and `path.gz` is there, writes `path` back from it (through a
/// file beside it, renamed into place) and removes `path.gz`. Returns whether it did.
pub fn decompress(path: &Path) -> std::io::Result<bool> {
    let gz = with_gz(path);
    if path.exists() || !gz.exists() {
        return Ok(false);
    }
    let (_, mut reader) = open(&gz)?;
    let part = with_suffix(path, ".part");
    {
        let mut out = std::fs::File::create(&part)?;
        std::io::copy(&mut reader, &mut out)?;
        out.sync_all()?;
    }
    std::fs::rename(&part, path)?;
    std::fs::remove_file(&gz)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    #[test]
    fn compressing_and_taking_back_keeps_every_byte() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("results.csv");
        let text = "a,b\n".to_string() + &"1,2\n".repeat(1000);
        std::fs::write(&file, &text).unwrap();
        let gz = compress(&file).unwrap().unwrap();
        assert_eq!(gz, with_gz(&file));
        assert!(!file.exists());
        assert!(std::fs::metadata(&gz).unwrap().len() < text.len() as u64 / 10);
        assert_eq!(read_to_string(&file).unwrap(), text, "read through the .gz");
        assert!(decompress(&file).unwrap());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
        assert!(!gz.exists());
        assert!(!decompress(&file).unwrap(), "nothing to take back");
        assert_eq!(compress(&dir.path().join("missing")).unwrap(), None);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no part file left behind");
    }

    #[test]
    fn a_gz_file_reads_as_the_file_it_holds_and_stands_in_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let plain_file = dir.path().join("a.csv");
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(b"x,y\n1,2\n").unwrap();
        std::fs::write(with_gz(&plain_file), e.finish().unwrap()).unwrap();
        // Named, or standing in for the missing a.csv.
        assert_eq!(read_to_string(&with_gz(&plain_file)).unwrap(), "x,y\n1,2\n");
        assert_eq!(read_to_string(&plain_file).unwrap(), "x,y\n1,2\n");
        assert_eq!(existing(&plain_file), with_gz(&plain_file));
        // The plain file wins where both are there.
        std::fs::write(&plain_file, "x,y\n3,4\n").unwrap();
        assert_eq!(read_to_string(&plain_file).unwrap(), "x,y\n3,4\n");
        assert_eq!(plain(&with_gz(&plain_file)), plain_file);
        assert!(read_to_string(&dir.path().join("missing.csv")).is_err());
    }
}
