//! How a process ended.

use std::fmt;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// A process's end: an exit code or the signal that killed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExitOutcome {
    /// Exited with this code.
    Code(i32),
    /// Killed by this signal number.
    Signal(i32),
}

impl ExitOutcome {
    /// Whether the process exited with code 0.
    pub fn success(self) -> bool {
        self == ExitOutcome::Code(0)
    }

    /// The exit code, when the process exited rather than being killed by a signal.
    pub fn code(self) -> Option<i32> {
        match self {
            ExitOutcome::Code(code) => Some(code),
            ExitOutcome::Signal(_) => None,
        }
    }
}

impl From<ExitStatus> for ExitOutcome {
    fn from(status: ExitStatus) -> Self {
        match (status.code(), status.signal()) {
            (Some(code), _) => ExitOutcome::Code(code),
            (None, Some(sig)) => ExitOutcome::Signal(sig),
            (None, None) => ExitOutcome::Code(-1),
        }
    }
}

impl fmt::Display for ExitOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExitOutcome::Code(c) => write!(f, "exit code {c}"),
            ExitOutcome::Signal(s) => write!(f, "signal {s} ({})", signal_name(*s)),
        }
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        6 => "SIGABRT",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => "signal",
    }
}
