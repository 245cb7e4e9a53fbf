//! Reading the files a user names: packs, scenarios, cases, baselines,
//! certificates, variables, records and journals.
//!
//! A user may name anything: a folder, `/dev/zero`, a FIFO nobody writes, a
//! 20 GB log. Every read here is bounded, refuses folders and devices before
//! opening them, and never blocks on a FIFO: a pipe is opened without waiting,
//! so `<(…)` process substitution works and a FIFO with no writer reads as
//! empty instead of hanging proctor.

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};

/// The most any input file may hold unless its reader says otherwise.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// Why a named file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// It does not exist, or the OS refused it.
    #[error("{}: cannot read: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A folder where a file was expected.
    #[error("{}: is a folder; give a file", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
    },
    /// A device has no end to read to (`/dev/zero`) or blocks (a terminal).
    #[error("{}: is a device, not a file; give a file (or a pipe)", path.display())]
    Device {
        /// The device.
        path: PathBuf,
    },
    /// More bytes than a file of this kind may hold.
    #[error("{}: more than {max} bytes; is this the right file?", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit.
        max: u64,
    },
    /// A folder holding more files than its reader takes.
    #[error("{}: more than {max} files: give a narrower folder", path.display())]
    TooMany {
        /// The folder.
        path: PathBuf,
        /// The limit.
        max: usize,
    },
    /// Not UTF-8 text.
    #[error("{}:{line}:{column}: not UTF-8 text; re-save the file as UTF-8", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Line of the first byte that is not UTF-8 (1-based).
        line: u32,
        /// Its column (1-based, in characters).
        column: u32,
    },
}

/// The bytes of `path`, at most `max` of them.
pub fn read(path: &Path, max: u64) -> Result<Vec<u8>, InputError> {
    let open = |source| InputError::Open { path: path.to_path_buf(), source };
    let metadata = std::fs::metadata(path).map_err(open)?;
    let kind = metadata.file_type();
    if kind.is_file() && metadata.len() > max {
        // Said before a byte is read: a 20 GB log named by mistake costs nothing.
        return Err(InputError::TooLarge { path: path.to_path_buf(), max });
    }
    if kind.is_dir() {
        return Err(InputError::Folder { path: path.to_path_buf() });
    }
    if kind.is_char_device() || kind.is_block_device() {
        return Err(InputError::Device { path: path.to_path_buf() });
    }
    // O_NONBLOCK makes opening a FIFO return at once even with no writer; the
    // reads that follow block as usual (the flag is cleared), and read EOF when
    // nobody writes.
    let file = std::fs::OpenOptions::new().read(true).custom_flags(OFlags::NONBLOCK.bits() as i32).open(path).map_err(open)?;
    let flags = fcntl_getfl(&file).map_err(|e| open(e.into()))?;
    fcntl_setfl(&file, flags - OFlags::NONBLOCK).map_err(|e| open(e.into()))?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(open)?;
    if bytes.len() as u64 > max {
        return Err(InputError::TooLarge { path: path.to_path_buf(), max });
    }
    Ok(bytes)
}

/// The text of `path`, at most `max` bytes of UTF-8.
pub fn read_to_string(path: &Path, max: u64) -> Result<String, InputError> {
    String::from_utf8(read(path, max)?).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let before = String::from_utf8_lossy(valid);
        let line = before.matches('\n').count() as u32 + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
        InputError::NotUtf8 { path: path.to_path_buf(), line, column }
    })
}

/// `path` itself when it is not a folder; else every regular file under it that
/// `keep` accepts, sorted. Symbolic links are not followed, so a loop cannot
/// trap the walk; more than `max` files is refused.
pub fn files_under(path: &Path, keep: impl Fn(&Path) -> bool, max: usize) -> Result<Vec<PathBuf>, InputError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let open = |source| InputError::Open { path: dir.clone(), source };
        for entry in std::fs::read_dir(&dir).map_err(open)? {
            let entry = entry.map_err(open)?;
            let kind = entry.file_type().map_err(open)?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() && keep(&entry.path()) {
                found.push(entry.path());
            }
        }
        if found.len() > max {
            return Err(InputError::TooMany { path: path.to_path_buf(), max });
        }
    }
    found.sort();
    Ok(found)
}

/// A YAML parser's message (serde-saphyr's, rendered or not) in the user's
/// terms: the file named where the parser says `<input>` or `line L column C`,
/// and the library's own advice and debug output replaced by what it means.
pub fn yaml_message(raw: &str, file: &str) -> String {
    let mut text = raw.trim_start_matches("error: ").to_string();
    if let Some(rest) = text.strip_prefix("line ")
        && let Some((line, rest)) = rest.split_once(" column ")
        && let Some((column, message)) = rest.split_once(": ")
        && line.bytes().all(|b| b.is_ascii_digit())
        && column.bytes().all(|b| b.is_ascii_digit())
    {
        text = format!("{file}:{line}:{column}: {message}");
    }
    if text.starts_with("unexpected end of input at line 1, column 1") {
        return format!("{file}: the file is empty");
    }
    let replacements = [
        (", set DuplicateKeyPolicy in Options if acceptable", " (a key may be given once)"),
        ("<input>", file),
        ("use from_str_multiple", "give one document (no second `---`)"),
        ("expected mapping start", "expected a mapping of `key: value` lines"),
    ];
    for (from, to) in replacements {
        text = text.replace(from, to);
    }
    // `budget breached: Depth { depth: 65 }`: the parser's limits, in words.
    while let Some(at) = text.find("budget breached: ") {
        let end = text[at..].find('}').map_or(text.len(), |e| at + e + 1);
        let what = if text[at..end].contains("Depth") {
            "nested too deeply (more than 64 levels)"
        } else if text[at..end].contains("Nodes") || text[at..end].contains("Alias") {
            "too many values once its aliases are expanded (an alias bomb?)"
        } else {
            "too large to read"
        };
        text.replace_range(at..end, what);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_devices_and_endless_inputs_are_refused() {
        let dir = std::env::temp_dir().join(format!("proctor-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(matches!(read(&dir, MAX_BYTES), Err(InputError::Folder { .. })));
        assert!(matches!(read(Path::new("/dev/zero"), MAX_BYTES), Err(InputError::Device { .. })));
        let big = dir.join("big");
        std::fs::write(&big, vec![b'x'; 11]).unwrap();
        assert!(matches!(read(&big, 10), Err(InputError::TooLarge { max: 10, .. })));
        assert_eq!(read(&big, 11).unwrap().len(), 11);
        std::fs::write(&big, b"ok\n\xffbad").unwrap();
        let err = read_to_string(&big, 100).unwrap_err().to_string();
        assert!(err.ends_with("big:2:1: not UTF-8 text; re-save the file as UTF-8"), "{err}");
        let missing = read(&dir.join("missing"), 10).unwrap_err().to_string();
        assert!(missing.contains("missing: cannot read: No such file"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_is_walked_sorted_without_following_links_and_within_its_cap() {
        let dir = std::env::temp_dir().join(format!("proctor-walk-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("b.json"), "").unwrap();
        std::fs::write(dir.join("sub/a.json"), "").unwrap();
        std::fs::write(dir.join("c.txt"), "").unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("sub/loop")).unwrap();
        let json = |p: &Path| p.extension().is_some_and(|e| e == "json");
        let found = files_under(&dir, json, 10).unwrap();
        assert_eq!(found, [dir.join("b.json"), dir.join("sub/a.json")]);
        assert!(matches!(files_under(&dir, json, 1), Err(InputError::TooMany { max: 1, .. })));
        assert_eq!(files_under(&dir.join("b.json"), json, 1).unwrap(), [dir.join("b.json")], "a file stands for itself");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn yaml_messages_speak_of_the_file_not_the_library() {
        let m = |raw: &str| yaml_message(raw, "c.yaml");
        assert_eq!(
            m("error: line 3 column 5: duplicate mapping key: name, set DuplicateKeyPolicy in Options if acceptable\n --> c.yaml:3:5"),
            "c.yaml:3:5: duplicate mapping key: name (a key may be given once)\n --> c.yaml:3:5"
        );
        assert_eq!(m("unexpected end of input at line 1, column 1"), "c.yaml: the file is empty");
        assert_eq!(
            m("error: line 3 column 258: budget breached: Depth { depth: 65 }"),
            "c.yaml:3:258: nested too deeply (more than 64 levels)"
        );
        assert_eq!(
            m("line 15 column 18: budget breached: Nodes { nodes: 250001 }"),
            "c.yaml:15:18: too many values once its aliases are expanded (an alias bomb?)"
        );
        assert_eq!(m("<input>:1:10: unclosed bracket"), "c.yaml:1:10: unclosed bracket");
    }

    #[test]
    fn a_fifo_nobody_writes_reads_as_empty_instead_of_hanging() {
        let dir = std::env::temp_dir().join(format!("proctor-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("f");
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, rustix::fs::Mode::from_raw_mode(0o600), 0).unwrap();
        assert_eq!(read(&fifo, 10).unwrap(), b"");
        // With a writer, a pipe is read as written (`<(…)`), to the writer's end. The writer opens
        // read-write (which never waits for a reader) before the read starts: no race.
        let mut w = std::fs::OpenOptions::new().read(true).write(true).open(&fifo).unwrap();
        std::io::Write::write_all(&mut w, b"{}").unwrap();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            drop(w);
        });
        let text = read_to_string(&fifo, 10).unwrap();
        writer.join().unwrap();
        assert_eq!(text, "{}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
