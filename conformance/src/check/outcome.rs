//! Outcomes are typed data: the same values feed text, JSON, JUnit and
//! snapshots, and a report never has to parse its own prose.

use std::fmt;

use serde::Serialize;

use super::Level;
use crate::framing::Violation;
use crate::transport::{ExitOutcome, Leftover, Phase};

/// What happened when a check ran.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The plugin did what the check requires.
    Pass,
    /// It did not.
    Fail {
        /// How it failed.
        failure: Failure,
    },
    /// The check could not run because an earlier step failed; this counts as
    /// a failure, never as a silent skip.
    Untestable {
        /// The check whose failure blocked this one, when there is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        blocked_by: Option<&'static str>,
        /// Why it could not run.
        reason: String,
    },
    /// The plugin does not claim the capability this check needs.
    Skip {
        /// Which capability, and why it is not claimed.
        reason: String,
    },
}

/// Why a check failed, with the data to show for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    /// A value is not what the protocol requires.
    Mismatch {
        /// JSON path of the value (`$.result.score`).
        path: String,
        /// What the protocol requires.
        expected: String,
        /// What arrived.
        actual: String,
    },
    /// A deadline expired.
    Timeout {
        /// Which deadline.
        phase: Phase,
        /// How long proctor waited.
        waited_ms: u64,
        /// The last bytes seen on stdout, if any.
        last_bytes: String,
    },
    /// The reply only arrived once stdin was closed: the plugin's stdout is
    /// block-buffered and the runtime, which keeps stdin open, never sees it.
    Buffered {
        /// How long proctor waited with stdin open.
        waited_ms: u64,
        /// What arrived after stdin was closed.
        arrived_after_eof: String,
    },
    /// Something that should have happened did not: a plugin's reply to a
    /// request (while it kept running), or a runtime's call to a plugin.
    Missing {
        /// What is missing.
        what: String,
    },
    /// The plugin died when it should have answered or kept running.
    Crash {
        /// How it ended.
        exit: ExitOutcome,
        /// The end of its stderr.
        stderr_tail: String,
    },
    /// The bytes on stdout broke framing.
    Framing {
        /// Where and how.
        violation: Violation,
    },
    /// The reply's id does not echo the request's.
    IdMismatch {
        /// The id sent.
        sent: String,
        /// The id received.
        received: String,
    },
    /// Something outlived the plugin.
    Leak {
        /// What was left.
        leftover: Leftover,
    },
    /// Something arrived that must not (a reply to a notification, say).
    Unexpected {
        /// What arrived.
        what: String,
    },
    /// The plugin's writes were blocked: a pipe its runtime does not read
    /// (yet, or any more) was full, so the plugin never finished.
    PipeBlocked {
        /// `stdout` or `stderr`.
        pipe: String,
        /// What had filled it: bytes written and unread, or the line that
        /// stopped the runtime's reader.
        filled_by: String,
        /// How the runtime reads that pipe, and what it does next.
        runtime_does: String,
    },
    /// The plugin answered, but the runtime never took the answer: it waits
    /// for more than the answer (the exit, the pipes closing) and that did
    /// not come within its deadline.
    Lost {
        /// What the runtime was still waiting for.
        waiting_for: String,
        /// The runtime's deadline, in ms.
        deadline_ms: u64,
        /// What the runtime does then.
        runtime_does: String,
    },
    /// The plugin could not be started or written to.
    Transport {
        /// The transport error.
        error: String,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Mismatch { path, expected, actual } => write!(f, "{path}: expected {expected}, got {actual}"),
            Failure::Timeout { phase, waited_ms, last_bytes } if last_bytes.is_empty() => {
                write!(f, "no answer within the {phase} deadline ({waited_ms} ms)")
            }
            Failure::Timeout { phase, waited_ms, last_bytes } => {
                write!(f, "no complete answer within the {phase} deadline ({waited_ms} ms); last bytes: {last_bytes}")
            }
            Failure::Buffered { waited_ms, arrived_after_eof } => write!(
                f,
                "no reply within {waited_ms} ms while stdin was open; it arrived only after stdin was closed: {arrived_after_eof}"
            ),
            Failure::Missing { what } => write!(f, "missing: {what}"),
            Failure::Crash { exit, .. } => write!(f, "the plugin ended ({exit})"),
            Failure::Framing { violation } => write!(f, "{violation}"),
            Failure::IdMismatch { sent, received } => write!(f, "sent id {sent}, reply carried id {received}"),
            Failure::Leak { leftover } => {
                let mut parts = Vec::new();
                if leftover.stdout_held_open {
                    parts.push("another process still held stdout open after the plugin exited".to_string());
                }
                if leftover.stderr_held_open && !leftover.stdout_held_open {
                    parts.push("another process still held stderr open after the plugin exited".to_string());
                }
                if leftover.group_alive {
                    parts.push("processes of the plugin's group were still running".to_string());
                }
                if !leftover.escaped.is_empty() {
                    parts.push(format!("descendants its process group does not hold outlived it: {}", leftover.escaped.join(", ")));
                }
                write!(f, "{} (killed by proctor)", parts.join("; "))
            }
            Failure::PipeBlocked { pipe, filled_by, runtime_does } => {
                write!(f, "the plugin blocked writing to {pipe}: {filled_by}; {runtime_does}")
            }
            Failure::Lost { waiting_for, deadline_ms, runtime_does } => {
                write!(f, "answered, but {waiting_for} within the {deadline_ms} ms deadline; {runtime_does}")
            }
            Failure::Unexpected { what } => f.write_str(what),
            Failure::Transport { error } => f.write_str(error),
        }
    }
}

impl Outcome {
    /// A failed outcome.
    pub fn fail(failure: Failure) -> Self {
        Outcome::Fail { failure }
    }

    /// Whether this outcome counts against the check.
    pub fn is_failure(&self) -> bool {
        matches!(self, Outcome::Fail { .. } | Outcome::Untestable { .. })
    }

    /// The report status of this outcome for a check of `level`.
    pub fn status(&self, level: Level) -> Status {
        match (self, level) {
            (Outcome::Pass, _) => Status::Pass,
            (Outcome::Skip { .. }, _) => Status::Skip,
            (Outcome::Untestable { .. }, _) => Status::Untestable,
            (_, Level::Must) => Status::Fail,
            (_, Level::Should) => Status::Warn,
        }
    }

    /// A one-line description for reports.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Pass => "ok".to_string(),
            Outcome::Fail { failure } => failure.to_string(),
            Outcome::Untestable { blocked_by: Some(id), reason } => format!("untestable: {reason} (blocked by {id})"),
            Outcome::Untestable { blocked_by: None, reason } => format!("untestable: {reason}"),
            Outcome::Skip { reason } => format!("skipped: {reason}"),
        }
    }
}

/// A check's status in a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Passed.
    Pass,
    /// A `must` check failed.
    Fail,
    /// The check could not be judged because another one failed first (its
    /// root cause, named in the outcome). A `must` one still fails the run,
    /// but it is counted and shown apart, so the cause is read first.
    Untestable,
    /// A `should` check failed.
    Warn,
    /// Not applicable to what the plugin claims.
    Skip,
    /// A failure the author's baseline lists as known and accepted: reported,
    /// but it does not fail the run.
    ExpectedFailure,
}

impl Status {
    /// Every status.
    pub const ALL: [Status; 6] = [Status::Pass, Status::Fail, Status::Untestable, Status::Warn, Status::Skip, Status::ExpectedFailure];

    /// The lowercase name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Untestable => "untestable",
            Status::Warn => "warn",
            Status::Skip => "skip",
            Status::ExpectedFailure => "expected_failure",
        }
    }
}
