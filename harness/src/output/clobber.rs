//! No output over an input: a report written over the scenario it judged, a
//! certificate over the plugin it certified or a journal over the scenario it
//! serves destroys the user's work, and two outputs on one file lose one of
//! them. Files are compared by what they are, not by how they are spelt: the
//! same device and inode when both exist (so a hard link, a symbolic link and
//! `dir/../x` are all caught), else the canonical folder and the file name.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use proctor_conformance::transport::PluginCommand;

use super::target::{Kind, Target, classify, folder_of};
use crate::cli::UsageError;

/// What a command reads, which none of its outputs may replace.
#[derive(Debug, Default)]
pub struct Inputs {
    entries: Vec<Input>,
}

#[derive(Debug)]
struct Input {
    /// What the file is to the command ("the --cases file", "a scenario file").
    what: String,
    path: PathBuf,
    /// For a folder: which files under it the command reads (the folder, a file in it).
    reads: Option<fn(&Path, &Path) -> bool>,
}

impl Inputs {
    /// A file the command reads.
    pub fn file(&mut self, what: impl Into<String>, path: &Path) -> &mut Self {
        self.entries.push(Input { what: what.into(), path: path.to_path_buf(), reads: None });
        self
    }

    /// A path that may be a folder, of which the command reads the files `reads`
    /// accepts (a file is taken as one input).
    pub fn folder(&mut self, what: impl Into<String>, path: &Path, reads: fn(&Path, &Path) -> bool) -> &mut Self {
        let reads = path.is_dir().then_some(reads);
        self.entries.push(Input { what: what.into(), path: path.to_path_buf(), reads });
        self
    }

    /// The files a plugin's command runs or names: its program (a path from its
    /// folder, or found on `PATH`) and every argument that is a file.
    pub fn command(&mut self, what: &str, command: &PluginCommand) -> &mut Self {
        if let Some(program) = command.resolve_program() {
            self.file(format!("the program {what} runs"), &program);
        }
        for arg in command.argv.iter().skip(1).filter(|a| !a.is_empty()) {
            let path = match &command.cwd {
                Some(dir) => dir.join(arg),
                None => PathBuf::from(arg),
            };
            if path.is_file() {
                self.file(format!("a file of {what}"), &path);
            }
        }
        self
    }
}

/// Every output of one command, checked together before anything runs.
#[derive(Debug)]
pub struct Outputs {
    targets: Vec<Target>,
}

impl Outputs {
    /// Checks each output (flag, path): that it can be written, and that it
    /// replaces no input and no other output; then prepares each.
    pub fn prepare(named: &[(&str, &Path)], inputs: &Inputs) -> Result<Outputs, UsageError> {
        refuse_clobbering(named, inputs)?;
        let targets = named.iter().map(|(flag, path)| Target::prepare(flag, path)).collect::<Result<_, _>>()?;
        Ok(Outputs { targets })
    }

    /// The prepared output of `flag`, if it was named.
    pub fn take(&mut self, flag: &str) -> Option<Target> {
        let at = self.targets.iter().position(|t| t.flag() == flag)?;
        Some(self.targets.remove(at))
    }
}

/// Refuses an output (flag, path) that is one of `inputs`, or another output.
/// A device or a FIFO is written to, never replaced, so it destroys nothing.
pub fn refuse_clobbering(outputs: &[(&str, &Path)], inputs: &Inputs) -> Result<(), UsageError> {
    let mut files: Vec<(&str, &Path)> = Vec::new();
    for &(flag, out) in outputs {
        if classify(flag, out)? == Kind::Stream {
            continue;
        }
        let target = identity(out);
        let at = location(out);
        for input in &inputs.entries {
            let clash = match input.reads {
                None => identity(&input.path) == target,
                Some(reads) => {
                    let folder = location(&input.path);
                    at.starts_with(&folder) && reads(&folder, &at)
                }
            };
            if !clash {
                continue;
            }
            let thing = if flag == "--output" { "report".to_string() } else { flag.trim_start_matches('-').replace('-', " ") };
            let how = match input.reads {
                None if input.path != out => format!("is also {} ({})", input.what, input.path.display()),
                None => format!("is also {}", input.what),
                Some(_) => format!("is inside {} ({}), which would read it as one of its own", input.what, input.path.display()),
            };
            return Err(UsageError(format!(
                "{flag} {} {how}: writing there would destroy it\nhint: write the {thing} to another file",
                out.display()
            )));
        }
        if let Some((other, _)) = files.iter().find(|(_, o)| identity(o) == target) {
            return Err(UsageError(format!(
                "{other} and {flag} both name {}: one would overwrite the other\nhint: give each its own file",
                out.display()
            )));
        }
        files.push((flag, out));
    }
    Ok(())
}

/// A file as the file system knows it.
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    /// It exists: its device and inode.
    Inode(u64, u64),
    /// It does not exist yet: where it would be.
    Path(PathBuf),
}

fn identity(path: &Path) -> Identity {
    match std::fs::metadata(path) {
        Ok(m) => Identity::Inode(m.dev(), m.ino()),
        Err(_) => Identity::Path(location(path)),
    }
}

/// Where a path points: canonical when it exists, else its folder canonical
/// (or absolute, with `.` and `..` taken out) and its name.
pub(crate) fn location(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let folder = folder_of(path);
    let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| lexical(folder));
    match path.file_name() {
        Some(name) => folder.join(name),
        None => lexical(path),
    }
}

/// `path` made absolute with `.` and `..` taken out as written.
fn lexical(path: &Path) -> PathBuf {
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
        let mut inputs = Inputs::default();
        inputs.file("the --cases file", &cases);
        let same = dir.path().join("sub/../cases.yaml");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let err = refuse_clobbering(&[("--output", &same)], &inputs).unwrap_err().0;
        assert!(err.starts_with(&format!("--output {} is also the --cases file", same.display())), "{err}");
        // A hard link is the same file under another name.
        let linked = dir.path().join("linked.yaml");
        std::fs::hard_link(&cases, &linked).unwrap();
        assert!(refuse_clobbering(&[("--output", &linked)], &inputs).is_err());
        let report = dir.path().join("r.json");
        let err = refuse_clobbering(&[("--badge", &report), ("--output", &report)], &Inputs::default()).unwrap_err().0;
        assert!(err.starts_with("--badge and --output both name"), "{err}");
        assert!(refuse_clobbering(&[("--output", &report)], &inputs).is_ok());
    }

    #[test]
    fn an_output_a_folder_input_would_read_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut inputs = Inputs::default();
        inputs.folder("the --record folder", dir.path(), |folder, file| {
            file.parent() == Some(folder) && file.extension().is_some_and(|e| e == "jsonl")
        });
        let err = refuse_clobbering(&[("--output", &dir.path().join("x.jsonl"))], &inputs).unwrap_err().0;
        assert!(err.contains("is inside the --record folder"), "{err}");
        assert!(refuse_clobbering(&[("--output", &dir.path().join("report.txt"))], &inputs).is_ok());
    }
}
