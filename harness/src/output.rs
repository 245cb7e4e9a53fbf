//! Where reports go: the terminal (with colour when it is one) or a file,
//! written atomically so an interrupted run never leaves half a report.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

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

/// Refuses an output file that is one of the inputs, or another output: a
/// report written over the scenario it judged, or a certificate over the
/// plugin it certified, destroys the user's work; two outputs on one file
/// lose one of them. Each pair is (the flag or role, the path).
pub fn refuse_clobbering(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), String> {
    for (i, (flag, out)) in outputs.iter().enumerate() {
        let target = identity(out);
        if let Some((what, _)) = inputs.iter().find(|(_, input)| identity(input) == target) {
            return Err(format!(
                "{flag} {} is also {what}: writing there would destroy it\nhint: write the {} to another file",
                out.display(),
                if *flag == "--output" { "report" } else { flag.trim_start_matches('-') }
            ));
        }
        if let Some((other, _)) = outputs[..i].iter().find(|(_, o)| identity(o) == target) {
            return Err(format!(
                "{other} and {flag} both name {}: one would overwrite the other\nhint: give each its own file",
                out.display()
            ));
        }
    }
    Ok(())
}

/// Where a path points: canonical when it exists, else absolute with `.` and
/// `..` taken out, so `./a`, `a` and `dir/../a` are one file.
fn identity(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let absolute = std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path));
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_on_an_input_or_another_output_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let cases = dir.path().join("cases.yaml");
        std::fs::write(&cases, "cases: []").unwrap();
        let same = dir.path().join("sub/../cases.yaml");
        let err = refuse_clobbering(&[("--output", &same)], &[("the --cases file", &cases)]).unwrap_err();
        assert!(err.starts_with(&format!("--output {} is also the --cases file: writing there would destroy it", same.display())), "{err}");
        let report = dir.path().join("r.json");
        let err = refuse_clobbering(&[("--badge", &report), ("--output", &report)], &[]).unwrap_err();
        assert!(err.starts_with("--badge and --output both name"), "{err}");
        assert!(refuse_clobbering(&[("--output", &report)], &[("the --cases file", &cases)]).is_ok());
    }
}
