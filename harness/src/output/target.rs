//! An output path the user named, checked before anything runs and written so
//! that nothing the user named is destroyed.
//!
//! A regular file (or a file not there yet) is written to a temporary file
//! beside it and renamed over it, so an interrupted run never leaves half a
//! report. A character device (`/dev/null`, a terminal), a FIFO, or a path
//! under `/dev` or `/proc` (`/dev/stdout`, `/dev/fd/N` of a process
//! substitution) is written to directly: a rename would put a regular file
//! where the device was, or fail at the end of a long run. A FIFO is opened
//! before the run, so one that nobody reads is refused at once instead of
//! hanging proctor afterwards. A folder, a socket and a block device are
//! refused before the run.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;
use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};

use crate::cli::UsageError;

/// What an output path names, as far as writing it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A regular file, or none yet: written whole, replacing what was there.
    File,
    /// A character device, a FIFO or a pipe: written to as it is, never replaced.
    Stream,
}

/// Finds what `path` names and refuses what cannot be written safely.
/// `flag` names the path in messages (`--output`, `--journal` …).
pub(crate) fn classify(flag: &str, path: &Path) -> Result<Kind, UsageError> {
    let named = || format!("{flag} {}", path.display());
    if path.as_os_str().is_empty() {
        return Err(UsageError(format!("{flag} is empty\nhint: give a file name")));
    }
    let kind = match std::fs::metadata(path) {
        Ok(m) => m.file_type(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = folder_of(path);
            if !folder.is_dir() {
                return Err(UsageError(format!(
                    "{}: the folder {} does not exist\nhint: create it first, or write somewhere else",
                    named(),
                    folder.display()
                )));
            }
            return Ok(Kind::File);
        }
        Err(e) => return Err(UsageError(format!("{}: cannot use it: {e}", named()))),
    };
    if kind.is_dir() {
        return Err(UsageError(format!("{}: is a folder\nhint: give a file name (inside it, if you like)", named())));
    }
    if kind.is_block_device() {
        return Err(UsageError(format!(
            "{}: is a block device (a disk): writing there would overwrite what it holds\nhint: give a file",
            named()
        )));
    }
    if kind.is_socket() {
        return Err(UsageError(format!(
            "{}: is a socket, which cannot be opened as a file\nhint: give a file, a device or a FIFO",
            named()
        )));
    }
    let names_an_open_file = under_dev_or_proc(path) || std::fs::read_link(path).is_ok_and(|to| under_dev_or_proc(&to));
    if kind.is_char_device() || kind.is_fifo() || names_an_open_file {
        return Ok(Kind::Stream);
    }
    Ok(Kind::File)
}

/// `/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1` (or a link to one): names of
/// something already open, written to even when they lead to a regular file.
fn under_dev_or_proc(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// The folder a new file at `path` goes in.
pub(crate) fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// An output checked before the run, to be written after it.
#[derive(Debug)]
pub struct Target {
    flag: String,
    path: PathBuf,
    how: How,
}

#[derive(Debug)]
enum How {
    /// Written beside `real` (where a symbolic link leads, so the link stays) and renamed over it.
    Replace { real: PathBuf },
    /// Opened before the run and written as it is.
    Stream(File),
}

impl Target {
    /// Checks `path` for `flag` and, for a device or a FIFO, opens it now.
    pub fn prepare(flag: &str, path: &Path) -> Result<Target, UsageError> {
        let how = match classify(flag, path)? {
            Kind::File => How::Replace { real: std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()) },
            Kind::Stream => How::Stream(open_stream(flag, path)?),
        };
        Ok(Target { flag: flag.to_string(), path: path.to_path_buf(), how })
    }

    /// The path as the user wrote it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The flag that named it.
    pub fn flag(&self) -> &str {
        &self.flag
    }

    /// Writes `bytes` whole: atomically over a file, directly into a device or FIFO.
    pub fn write(self, bytes: &[u8]) -> anyhow::Result<()> {
        let Target { flag, path, how } = self;
        match how {
            How::Stream(mut file) => {
                file.write_all(bytes).and_then(|()| file.flush()).with_context(|| format!("cannot write {flag} {}", path.display()))
            }
            How::Replace { real } => replace(&real, bytes).with_context(|| format!("cannot write {flag} {}", path.display())),
        }
    }

    /// The file to write as things happen (a record, a journal): a device or
    /// FIFO as opened, a regular file appended to (`append`) or started afresh.
    pub fn into_file(self, append: bool) -> Result<File, UsageError> {
        match self.how {
            How::Stream(file) => Ok(file),
            How::Replace { real } => std::fs::OpenOptions::new()
                .create(true)
                .append(append)
                .write(true)
                .truncate(!append)
                .open(&real)
                .map_err(|e| UsageError(format!("{} {}: cannot open it: {e}", self.flag, self.path.display()))),
        }
    }
}

/// Opens a device or FIFO for writing without waiting: a FIFO that nobody
/// reads is refused now, before a run whose report would have nowhere to go.
fn open_stream(flag: &str, path: &Path) -> Result<File, UsageError> {
    let named = || format!("{flag} {}", path.display());
    let file = std::fs::OpenOptions::new().append(true).custom_flags(OFlags::NONBLOCK.bits() as i32).open(path).map_err(|e| {
        if e.raw_os_error() == Some(rustix::io::Errno::NXIO.raw_os_error()) {
            UsageError(format!("{}: is a FIFO that no process reads\nhint: start its reader first, or give a file", named()))
        } else {
            UsageError(format!("{}: cannot open it: {e}", named()))
        }
    })?;
    // Writes block as usual once open: a slow reader gets the whole report.
    let flags = fcntl_getfl(&file).map_err(|e| UsageError(format!("{}: {e}", named())))?;
    fcntl_setfl(&file, flags - OFlags::NONBLOCK).map_err(|e| UsageError(format!("{}: {e}", named())))?;
    Ok(file)
}

/// Writes `bytes` to a temporary file beside `real` and renames it over `real`,
/// keeping `real`'s permissions; the temporary file never outlives a failure.
fn replace(real: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = folder_of(real).join(format!(".{name}.{}.proctor-tmp", std::process::id()));
    // Left by a run of this pid that was killed: ours to remove (a link is removed, not followed).
    let _ = std::fs::remove_file(&tmp);
    let written = write_then_rename(&tmp, real, bytes);
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

fn write_then_rename(tmp: &Path, real: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(tmp)?;
    if let Ok(before) = std::fs::metadata(real) {
        file.set_permissions(before.permissions())?;
    }
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(tmp, real)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_and_a_device_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.txt");
        std::fs::write(&file, "old").unwrap();
        Target::prepare("--output", &file).unwrap().write(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");

        let fifo = dir.path().join("f");
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, rustix::fs::Mode::from_raw_mode(0o600), 0).unwrap();
        let err = Target::prepare("--output", &fifo).unwrap_err().0;
        assert!(err.contains("is a FIFO that no process reads"), "{err}");
        let reader = std::fs::OpenOptions::new().read(true).custom_flags(OFlags::NONBLOCK.bits() as i32).open(&fifo).unwrap();
        Target::prepare("--output", &fifo).unwrap().write(b"through").unwrap();
        let mut got = String::new();
        std::io::Read::read_to_string(&mut &reader, &mut got).unwrap();
        assert_eq!(got, "through");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is still a FIFO");
    }

    #[test]
    fn what_cannot_be_written_is_refused_before_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let err = classify("--output", dir.path()).unwrap_err().0;
        assert!(err.contains("is a folder"), "{err}");
        let err = classify("--badge", &dir.path().join("none/b.json")).unwrap_err().0;
        assert!(err.contains("the folder") && err.contains("does not exist"), "{err}");
        assert_eq!(classify("--output", Path::new("/dev/stdout")).unwrap(), Kind::Stream);
    }
}
