//! Children a plugin leaves behind: a `sleep` that may hold the plugin's
//! pipes and may run in a session of its own. The faults `grandchild` and
//! `escape-session` and a script's `child` all start one; what differs is
//! how long it sleeps, which pipes it holds, and whose signals reach it.

use std::io::{self, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Which of the plugin's pipes the child inherits (the others are /dev/null).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Holds {
    /// Neither: the child outlives the plugin without keeping a pipe open.
    #[default]
    None,
    /// stdout: the runtime reading to EOF waits for the child.
    Stdout,
    /// stderr: a runtime draining stderr to EOF waits for the child.
    Stderr,
    /// Both, as a forgotten background job of a shell script does.
    Both,
}

/// A child to start: how long it lives and what it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sleeper {
    /// How long it sleeps.
    pub lives: Duration,
    /// The pipes it keeps open.
    pub holds: Holds,
    /// In a session (and so a process group) of its own: signalling the
    /// plugin's group does not reach it.
    pub own_session: bool,
}

impl Sleeper {
    /// Starts the child and never waits for it; a failure is said on stderr
    /// (the plugin goes on: the child is a side show, not the answer).
    pub fn start(self) {
        let mut cmd = Command::new("sleep");
        // GNU and BSD sleep both take fractions of a second.
        cmd.arg(format!("{:.3}", self.lives.as_secs_f64())).stdin(Stdio::null());
        let (out, err) = match self.holds {
            Holds::None => (false, false),
            Holds::Stdout => (true, false),
            Holds::Stderr => (false, true),
            Holds::Both => (true, true),
        };
        cmd.stdout(if out { Stdio::inherit() } else { Stdio::null() });
        cmd.stderr(if err { Stdio::inherit() } else { Stdio::null() });
        if self.own_session {
            own_session(&mut cmd);
        }
        if let Err(err) = cmd.spawn() {
            let _ = writeln!(io::stderr(), "proctor mock plugin: failed to start a child (`sleep`): {err}");
        }
    }
}

#[cfg(unix)]
#[expect(unsafe_code, reason = "setsid must run in the forked child before exec")]
fn own_session(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec and only
    // calls setsid(2), which is async-signal-safe and touches no shared memory.
    unsafe {
        cmd.pre_exec(|| rustix::process::setsid().map(|_| ()).map_err(io::Error::from));
    }
}

#[cfg(not(unix))]
fn own_session(_: &mut Command) {}
