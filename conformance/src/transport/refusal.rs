//! An interpreter that refused to start the plugin: the user's mistake, not
//! the plugin's failure.
//!
//! `python3 -m nosuchmodule` starts Python, which cannot find the module and
//! exits before reading a byte; certification then blamed the "plugin" with
//! 22 failures. [`PluginCommand::missing_script`] catches a missing script by
//! its path before anything runs, but a module (`-m`), a script word with no
//! path or extension, or a node entry point resolved by node itself can only
//! be seen in what the interpreter says.
//!
//! Where the line is. It is the user's mistake only when *all* of these hold:
//! 1. the command runs a known interpreter (`python3`, `sh`, `node`, … also
//!    through `env`);
//! 2. the process exited by itself with a non-zero code (not a signal) and
//!    wrote nothing on stdout;
//! 3. stderr opens with the interpreter's *own* start-up refusal, in its own
//!    words, naming what the command line asked it to run:
//!    - Python: a first line `…python…: No module named X`, `…: Error while
//!      finding module specification for 'X'`, `…: can't open file 'X'` or
//!      `…: can't find '__main__' module in 'X'`;
//!    - a shell: a first line `sh: 0: cannot open X`, `bash: X: No such file
//!      or directory` (the shell's name, then the script of the command line);
//!    - node: `Error: Cannot find module 'X'` with `requireStack: []` (the
//!      entry point itself; a plugin's own `require` lists the plugin there);
//!    - perl: `Can't open perl script "X"`; ruby: `ruby: No such file or
//!      directory -- X (LoadError)`.
//!
//! Everything else is the plugin's: a traceback (its own `import` failed, so
//! its code ran), a script's own error (`plugin.sh: 3: foo: not found`
//! starts with the script, not the shell), any byte on stdout, a signal, a
//! zero exit.

use std::path::Path;

use super::{ExitOutcome, PluginCommand};

/// Why the interpreter would not start the plugin, in one line for a usage
/// error (the interpreter's own words, quoted), when it is the user's mistake.
pub fn interpreter_refusal(command: &PluginCommand, exit: Option<ExitOutcome>, stdout_bytes: u64, stderr: &str) -> Option<String> {
    if stdout_bytes > 0 || !matches!(exit, Some(ExitOutcome::Code(code)) if code != 0) {
        return None;
    }
    let program = command.interpreter()?;
    let first = stderr.lines().find(|l| !l.trim().is_empty())?.trim_end();
    let said = |line: &str| Some(format!("`{program}` could not start the plugin: {line}"));
    // `python3.11` and `python3` are one interpreter (a symlink may print either name).
    let family = |name: &'_ str| name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.').to_string();
    // The line's prefix before ": " must be the interpreter itself (its name or path).
    let by_interpreter = |line: &str| {
        line.split_once(": ")
            .and_then(|(who, _)| Path::new(who).file_name()?.to_str().map(family))
            .is_some_and(|who| who == family(program))
    };
    let family = family(program);
    match family.as_str() {
        "python" | "pypy" => {
            let refused =
                ["No module named ", "Error while finding module specification for ", "can't open file ", "can't find '__main__' module"];
            let (_, rest) = first.split_once(": ")?;
            (by_interpreter(first) && refused.iter().any(|r| rest.starts_with(r))).then(|| said(first))?
        }
        "sh" | "bash" | "dash" | "zsh" | "ksh" => {
            let script = command.script_operand()?;
            let missing = ["No such file", "cannot open", "Can't open", "Is a directory", "no such file"];
            (by_interpreter(first) && first.contains(script) && missing.iter().any(|m| first.contains(m))).then(|| said(first))?
        }
        "node" | "nodejs" => {
            let line = stderr.lines().find(|l| l.starts_with("Error: Cannot find module '"))?;
            stderr.contains("requireStack: []").then(|| said(line.trim_end()))?
        }
        "perl" => first.starts_with("Can't open perl script ").then(|| said(first))?,
        "ruby" => (first.starts_with("ruby: No such file or directory -- ") && first.ends_with("(LoadError)")).then(|| said(first))?,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(argv: &[&str], code: i32, stderr: &str) -> Option<String> {
        let cmd = PluginCommand::new(argv.iter().map(|s| s.to_string()).collect()).unwrap();
        interpreter_refusal(&cmd, Some(ExitOutcome::Code(code)), 0, stderr)
    }

    #[test]
    fn an_interpreter_refusing_to_start_is_the_users_mistake() {
        let py = "/root/.pyenv/versions/3.11.7/bin/python3";
        for (argv, stderr) in [
            (&["python3", "-m", "nosuchmodule"][..], format!("{py}: No module named nosuchmodule\n")),
            (&["python3", "-m", "a.b"], format!("{py}: Error while finding module specification for 'a.b' (ModuleNotFoundError: No module named 'a')\n")),
            (&["python3", "-m", "http"], format!("{py}: No module named http.__main__; 'http' is a package and cannot be directly executed\n")),
            (&["python3", "nope"], "python3: can't open file '/w/nope': [Errno 2] No such file or directory\n".into()),
            (&["env", "A=1", "python3.11", "-u", "-m", "x"], "python3.11: No module named x\n".into()),
            (&["sh", "none"], "sh: 0: cannot open none: No such file\n".into()),
            (&["bash", "none"], "bash: none: No such file or directory\n".into()),
            (&["node", "none"], "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find module '/w/none'\n    at Module._resolveFilename\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}\n".into()),
            (&["perl", "none"], "Can't open perl script \"none\": No such file or directory\n".into()),
        ] {
            let why = refusal(argv, 1, &stderr).unwrap_or_else(|| panic!("{argv:?} is the user's: {stderr}"));
            assert!(why.contains("could not start the plugin") && why.contains(stderr.lines().find(|l| l.contains("rror: Cannot") || l.contains(": ") || l.starts_with("Can't")).unwrap().trim()), "{why}");
        }
    }

    #[test]
    fn a_plugin_that_started_and_failed_is_the_plugins() {
        // Its own import failed: a traceback, so its code ran.
        let traceback = "Traceback (most recent call last):\n  File \"/w/p.py\", line 1, in <module>\n    import requests\nModuleNotFoundError: No module named 'requests'\n";
        assert_eq!(refusal(&["python3", "/w/p.py"], 1, traceback), None);
        // A plugin printing the same words itself (its stderr does not open with the interpreter's name).
        assert_eq!(refusal(&["python3", "p.py"], 1, "p.py: No module named x\n"), None);
        // A shell script's own failure starts with the script, and `-c` code is the plugin's.
        assert_eq!(refusal(&["sh", "p.sh"], 127, "p.sh: 3: foo: not found\n"), None);
        assert_eq!(refusal(&["sh", "-c", ". /nope"], 2, "sh: 1: .: cannot open /nope: No such file\n"), None);
        // node: a require of the plugin's own lists the plugin in its stack.
        let node =
            "Error: Cannot find module 'dep'\nRequire stack:\n- /w/p.js\n  code: 'MODULE_NOT_FOUND',\n  requireStack: [ '/w/p.js' ]\n";
        assert_eq!(refusal(&["node", "/w/p.js"], 1, node), None);
        // Not an interpreter.
        assert_eq!(refusal(&["./plugin"], 1, "plugin: No module named x\n"), None);
        let cmd = PluginCommand::new(vec!["python3".into(), "-m".into(), "x".into()]).unwrap();
        let refused = "python3: No module named x\n";
        assert_eq!(interpreter_refusal(&cmd, Some(ExitOutcome::Code(0)), 0, refused), None, "a zero exit");
        assert_eq!(interpreter_refusal(&cmd, Some(ExitOutcome::Signal(9)), 0, refused), None, "a signal");
        assert_eq!(interpreter_refusal(&cmd, Some(ExitOutcome::Code(1)), 3, refused), None, "it wrote on stdout");
        assert_eq!(interpreter_refusal(&cmd, None, 0, refused), None, "still running");
    }
}
