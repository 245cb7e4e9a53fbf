//! What to run: an argv array, never a shell string.

use std::path::{Path, PathBuf};

/// The command line of a plugin, with its environment and working directory.
///
/// proctor never goes through a shell: `argv[0]` is looked up on `PATH` exactly
/// as the runtimes do (`exec.Command` in Go, `Command::new` in Rust).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginCommand {
    /// Program and arguments. Never empty once validated by [`PluginCommand::new`].
    pub argv: Vec<String>,
    /// Extra environment variables, added to proctor's own environment
    /// (or, with `env_clear`, the whole environment).
    pub env: Vec<(String, String)>,
    /// Start from an empty environment, so only `env` reaches the plugin (as
    /// PromptKit starts an exec tool whose runtime config lists `env:`).
    pub env_clear: bool,
    /// Variables of proctor's own environment the plugin must not inherit.
    pub env_remove: Vec<String>,
    /// Working directory; `None` keeps proctor's.
    pub cwd: Option<PathBuf>,
}

impl PluginCommand {
    /// A command from argv; `None` when argv is empty.
    pub fn new(argv: Vec<String>) -> Option<Self> {
        if argv.is_empty() || argv[0].is_empty() {
            return None;
        }
        Some(PluginCommand { argv, env: Vec::new(), env_clear: false, env_remove: Vec::new(), cwd: None })
    }

    /// The program name (first element of argv).
    pub fn program(&self) -> &str {
        &self.argv[0]
    }

    /// The script an interpreter in argv would open, when it cannot be run:
    /// `python3 ./nope.py` dies before it says a word, and a report would
    /// blame the plugin for the user's command. Only a word that looks like a
    /// script (a path, or a script's extension) after a known interpreter and
    /// its options counts; `-c`, `-m`, `-e` and friends mean there is none.
    /// `env [NAME=VALUE]… PROGRAM …` is looked through. A relative path is
    /// resolved against `cwd`, as the plugin would.
    pub fn missing_script(&self) -> Option<MissingScript> {
        let program = self.interpreter()?;
        let script = self.script_operand()?;
        if script.is_empty() {
            return Some(MissingScript { path: PathBuf::new(), why: "is an empty word where the script's path goes" });
        }
        let looks_like_script =
            script.contains('/') || Path::new(script).extension().is_some_and(|e| SCRIPT_EXTENSIONS.iter().any(|x| e == *x));
        let path = self.resolve_path(script);
        // `components` drops the `.` of `dir/./x.py`, so the message names the file as people write it.
        let tidy = || path.components().collect();
        match std::fs::metadata(&path) {
            Err(_) if looks_like_script => Some(MissingScript { path: tidy(), why: "which does not exist" }),
            // Python runs a folder that holds a `__main__.py`; nothing runs any other folder.
            Ok(m) if m.is_dir() && !(program.starts_with("python") && path.join("__main__.py").is_file()) => {
                Some(MissingScript { path: tidy(), why: "which is a folder, not a script" })
            }
            _ => None,
        }
    }

    /// The interpreter's name (`python3.11`, `sh`), when the command runs a
    /// known one (through `env` too).
    pub(crate) fn interpreter(&self) -> Option<&str> {
        let program = Path::new(self.without_env().first()?).file_name()?.to_str()?;
        INTERPRETERS.iter().any(|(i, _)| program == *i || program.strip_prefix(i).is_some_and(is_version)).then_some(program)
    }

    /// The script word an interpreter in argv would open: its first operand
    /// after its options; `None` after `-c`, `-m`, `-e` and friends (code on
    /// the command line, a module, stdin), or when there is none.
    pub(crate) fn script_operand(&self) -> Option<&str> {
        let argv = self.without_env();
        let program = self.interpreter()?;
        let (_, no_script) = INTERPRETERS.iter().find(|(i, _)| program == *i || program.strip_prefix(i).is_some_and(is_version))?;
        let mut args = argv[1..].iter();
        loop {
            let arg = args.next()?;
            match arg.as_str() {
                "--" => return args.next().map(String::as_str),
                a if a == "-" || no_script.contains(&a) => return None,
                a if TAKES_VALUE.contains(&a) => {
                    args.next();
                }
                a if a.starts_with('-') => {}
                _ => return Some(arg),
            }
        }
    }

    /// The program as the OS will find it: a path (from `cwd`) to a file, or a
    /// name on `PATH`; `None` when it is not there. A program that is not there
    /// would fail every spawn, and a tool that spawns per request would count
    /// each as the plugin's failure.
    pub fn resolve_program(&self) -> Option<PathBuf> {
        let program = self.program();
        if program.contains('/') {
            return Some(self.resolve_path(program)).filter(|p| p.is_file());
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| p.is_file())
    }

    /// `path` as the plugin sees it: a relative one starts from `cwd`.
    fn resolve_path(&self, path: &str) -> PathBuf {
        match &self.cwd {
            Some(dir) if Path::new(path).is_relative() => dir.join(path),
            _ => PathBuf::from(path),
        }
    }

    /// argv with a leading `env [-i] [NAME=VALUE]…` taken off: the program env runs.
    fn without_env(&self) -> &[String] {
        let mut argv = &self.argv[..];
        if Path::new(self.program()).file_name().is_some_and(|n| n == "env") {
            argv = &argv[1..];
            while argv.first().is_some_and(|a| a.starts_with('-') || a.contains('=')) {
                argv = &argv[1..];
            }
        }
        argv
    }

    /// The option that hands a known interpreter code written on the command
    /// line itself (`sh -c`, `python3 -c`, `node -e` …), when argv has one
    /// before its script: such code is in no file, so no file's hash can
    /// vouch for it. `-m` (a module) and `-s` (stdin) are not counted.
    pub fn inline_code_option(&self) -> Option<&str> {
        let argv = self.without_env();
        let program = Path::new(argv.first()?).file_name()?.to_str()?;
        let (_, no_script) = INTERPRETERS.iter().find(|(i, _)| program == *i || program.strip_prefix(i).is_some_and(is_version))?;
        let mut args = argv[1..].iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--" => return None,
                a if no_script.contains(&a) => return (a != "-m" && a != "-s").then_some(a),
                a if TAKES_VALUE.contains(&a) => {
                    args.next();
                }
                a if a.starts_with('-') => {}
                _ => return None,
            }
        }
        None
    }

    /// The command as a user would type it, for messages (not for execution).
    pub fn display(&self) -> String {
        self.argv
            .iter()
            .map(|a| {
                if a.is_empty() || a.chars().any(|c| c.is_whitespace() || "'\"\\$`".contains(c)) {
                    format!("'{}'", a.replace('\'', r"'\''"))
                } else {
                    a.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A script the command names that cannot be run, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingScript {
    /// The script, resolved against the command's working directory.
    pub path: PathBuf,
    /// "which does not exist", "which is a folder", …
    pub why: &'static str,
}

/// Programs that take a script file as their first operand, each with the
/// options after which there is none (code on the command line, a module,
/// stdin).
const INTERPRETERS: &[(&str, &[&str])] = &[
    ("python", &["-c", "-m"]),
    ("pypy", &["-c", "-m"]),
    ("sh", &["-c", "-s"]),
    ("bash", &["-c", "-s"]),
    ("dash", &["-c", "-s"]),
    ("zsh", &["-c", "-s"]),
    ("ksh", &["-c", "-s"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("nodejs", &["-e", "--eval", "-p", "--print"]),
    ("ruby", &["-e"]),
    ("perl", &["-e", "-E"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
];
/// Options that take the next word as their value.
const TAKES_VALUE: &[&str] = &["-W", "-X", "-o", "-O", "-I", "--import", "--loader"];
const SCRIPT_EXTENSIONS: &[&str] = &["py", "sh", "bash", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "lua"];

/// `3`, `3.11`, `2.7` …: the version suffix of `python3.11`.
fn is_version(rest: &str) -> bool {
    !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit() || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn missing(argv: &[&str]) -> Option<String> {
        let cmd = PluginCommand::new(argv.iter().map(|s| s.to_string()).collect()).unwrap();
        cmd.missing_script().map(|p| p.path.display().to_string())
    }

    #[test]
    fn a_missing_script_after_an_interpreter_is_named() {
        assert_eq!(missing(&["python3", "./nope.py"]).as_deref(), Some("./nope.py"));
        assert_eq!(missing(&["/usr/bin/python3.11", "-u", "-X", "dev", "nope.py"]).as_deref(), Some("nope.py"));
        assert_eq!(missing(&["sh", "-e", "--", "dir/nope"]).as_deref(), Some("dir/nope"));
        assert_eq!(missing(&["node", "nope.mjs", "--flag"]).as_deref(), Some("nope.mjs"));
        assert_eq!(missing(&["env", "-i", "A=1", "python3", "/missing.py"]).as_deref(), Some("/missing.py"));
        assert_eq!(missing(&["/usr/bin/env", "python3", "/missing.py"]).as_deref(), Some("/missing.py"));
        assert_eq!(missing(&["sh", "src"]).as_deref(), Some("src"), "a folder is no script");
        assert_eq!(missing(&["sh", ""]).as_deref(), Some(""), "an empty word is no script");
    }

    #[test]
    fn code_on_the_command_line_is_found_before_the_script() {
        let inline = |argv: &[&str]| {
            PluginCommand::new(argv.iter().map(|s| s.to_string()).collect()).unwrap().inline_code_option().map(String::from)
        };
        assert_eq!(inline(&["sh", "-c", "rm -rf ~"]).as_deref(), Some("-c"));
        assert_eq!(inline(&["/usr/bin/env", "A=1", "python3.11", "-u", "-c", "print(1)"]).as_deref(), Some("-c"));
        assert_eq!(inline(&["node", "--eval", "x"]).as_deref(), Some("--eval"));
        assert_eq!(inline(&["sh", "guard.sh", "-c"]), None, "after the script, -c is the script's");
        assert_eq!(inline(&["python3", "-m", "pkg"]), None);
        assert_eq!(inline(&["cat", "-c"]), None);
    }

    #[test]
    fn anything_else_is_left_to_the_plugin() {
        // It exists (this crate's sources, from the crate's directory).
        assert_eq!(missing(&["sh", "src/lib.rs"]), None);
        assert_eq!(missing(&["python3", "-m", "nope_pkg"]), None);
        assert_eq!(missing(&["sh", "-c", "nope.sh"]), None);
        assert_eq!(missing(&["python3"]), None);
        // Not an interpreter, or not a script-looking word.
        assert_eq!(missing(&["./nope.py"]), None);
        assert_eq!(missing(&["cat", "nope.py"]), None);
        assert_eq!(missing(&["python3", "nope"]), None);
        assert_eq!(missing(&["pythonic", "nope.py"]), None);
    }

    #[test]
    fn a_relative_script_is_looked_for_in_the_plugins_directory() {
        let mut cmd = PluginCommand::new(vec!["sh".into(), "run.sh".into()]).unwrap();
        cmd.cwd = Some(PathBuf::from("/nonexistent-dir"));
        assert_eq!(cmd.missing_script().map(|m| m.path), Some(PathBuf::from("/nonexistent-dir/run.sh")));
        cmd.argv[1] = "/bin/../bin/sh".into();
        assert_eq!(cmd.missing_script(), None, "an absolute path is not moved under cwd");
        cmd.argv = vec!["env".into(), "FOO=1".into()];
        assert_eq!(cmd.missing_script(), None, "env with no program runs nothing to look at");
    }
}
