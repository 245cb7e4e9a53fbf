//! Where reports go: the terminal (with colour when it is one) or a file,
//! written atomically so an interrupted run never leaves half a report.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::Context;

/// Whether stdout is a terminal that wants colour (honours NO_COLOR and CLICOLOR_FORCE).
pub fn stdout_wants_color() -> bool {
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    if std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    std::io::stdout().is_terminal()
}

/// Writes `text` to stdout. A reader that went away (`proctor checks | head`)
/// ends proctor quietly with 141, as a Unix tool killed by SIGPIPE would;
/// proctor itself ignores SIGPIPE so that a plugin closing its stdin is an
/// error it can report, never its own death.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(141),
        Err(e) => {
            eprintln!("error: cannot write to stdout: {e}");
            std::process::exit(2);
        }
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().with_context(|| format!("--output {} names no file", path.display()))?;
    let tmp = dir.join(format!(".{}.proctor-tmp", name.to_string_lossy()));
    let mut file = std::fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    file.write_all(bytes).and_then(|()| file.sync_all()).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot move the report into place at {}", path.display()))
}
