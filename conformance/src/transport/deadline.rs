//! Named deadlines: every wait in proctor has one, and a timeout names it.

use std::fmt;
use std::time::Duration;

/// The phase a deadline belongs to, reported when it expires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// From spawn to the first answer (PicoClaw's `hook.hello`, for instance).
    Startup,
    /// From writing a request to reading its complete answer.
    Request,
    /// From closing stdin to the process exiting on its own.
    Shutdown,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Startup => "start-up",
            Phase::Request => "request",
            Phase::Shutdown => "shutdown",
        })
    }
}

/// The deadlines of one plugin run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadlines {
    /// Spawn to first answer. Generous: interpreters and shims start slowly
    /// (PicoClaw itself waits 5 s when it waits at all).
    pub startup: Duration,
    /// Each request, from the write to the complete answer (`--timeout-ms`).
    pub request: Duration,
    /// Stdin closed to exit. PromptKit and PicoClaw both SIGKILL after 2 s.
    pub shutdown: Duration,
    /// SIGTERM to SIGKILL when proctor has to stop the plugin itself.
    pub kill_grace: Duration,
    /// After the plugin exited: how long a still-open stdout counts as held by
    /// a leftover process rather than as data in flight.
    pub leak_window: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            startup: Duration::from_secs(5),
            request: Duration::from_secs(5),
            shutdown: Duration::from_secs(2),
            kill_grace: Duration::from_millis(500),
            leak_window: Duration::from_millis(250),
        }
    }
}

impl Deadlines {
    /// The deadline of a phase.
    pub fn of(&self, phase: Phase) -> Duration {
        match phase {
            Phase::Startup => self.startup,
            Phase::Request => self.request,
            Phase::Shutdown => self.shutdown,
        }
    }
}
