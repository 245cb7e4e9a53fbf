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

/// What a one-shot runtime waits for after the plugin's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The answer is read, stdin is closed, and the process gets the
    /// shutdown deadline to exit (proctor's documented rule).
    ExitAfterAnswer,
    /// The process's whole life counts: the runtime waits for it to exit
    /// (and its output pipes to close) within the request deadline, and only
    /// then takes the answer (Go's `cmd.Run` under a context, runok's poll
    /// for the exit). Exiting late is a problem only past that deadline.
    ExitWithinRequest,
}

/// How the runtime reads a plugin's pipes, which decides whether a plugin
/// that writes a lot ever gets to finish: proctor reads them the same way,
/// so the kernel's pipe buffer blocks the plugin where the runtime's would.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pipes {
    /// stdout is read only once the process has exited (runok's
    /// `wait_with_output` after its poll): a reply larger than the pipe
    /// buffer blocks the plugin's write, and it never exits.
    pub stdout_after_exit: bool,
    /// stderr is read line by line and reading stops for good at a longer
    /// line (PicoClaw's 1 MiB `bufio.Scanner`): the plugin's next stderr
    /// writes fill the pipe and block it.
    pub stderr_line_limit: Option<usize>,
    /// A one-shot answer is taken only once stdout has closed (Go's
    /// `cmd.Run` copying into a buffer, runok's `wait_with_output`, Codex),
    /// waiting this long after the exit: a leftover process that inherited
    /// stdout keeps the runtime waiting, or makes the run fail.
    pub output_to_eof: Option<EofWait>,
    /// With `output_to_eof`: stderr must close too (Go copies both pipes).
    pub stderr_to_eof: bool,
    /// A long-lived plugin's stdout is read until EOF, after stdin is closed
    /// too (PicoClaw's read loop): what it writes at the end cannot block its exit.
    pub stdout_read_to_exit: bool,
    /// A long-lived plugin's stderr is copied to EOF and the runtime's close
    /// waits for the copy within its shutdown deadline (PromptKit's server:
    /// `cmd.Stderr` is a buffer, and `Close` waits on `cmd.Wait`): a child
    /// holding stderr a moment after the exit holds up nothing.
    pub stderr_waited_at_close: bool,
}

/// How long a runtime that takes a one-shot answer at the pipes' EOF waits
/// for it once the process has exited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EofWait {
    /// This long, then the run fails (Go's `Cmd.WaitDelay`: PromptKit's
    /// sandboxed hooks and selectors, 500 ms).
    Grace(Duration),
    /// Until the request deadline: runok (whose `wait_with_output` has no
    /// deadline of its own, the extension's timeout ends it) and Codex.
    UntilDeadline,
}

/// The size of a pipe's buffer on Linux (`F_GETPIPE_SZ` of a new pipe):
/// what a plugin can write that nobody reads before its write blocks.
pub const PIPE_BUFFER: usize = 64 * 1024;

/// The deadlines of one plugin run, and the runtime's way of reading it.
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
    /// What a one-shot runtime waits for after the answer.
    pub ending: Ending,
    /// How the runtime reads stdout and stderr.
    pub pipes: Pipes,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            startup: Duration::from_secs(5),
            request: Duration::from_secs(5),
            shutdown: Duration::from_secs(2),
            kill_grace: Duration::from_millis(500),
            leak_window: Duration::from_millis(250),
            ending: Ending::ExitAfterAnswer,
            pipes: Pipes::default(),
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
