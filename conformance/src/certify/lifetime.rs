//! The life of one one-shot process as its runtime lives it: did the answer
//! come in time, did the process exit, did its pipes close, and did what it
//! wrote ever leave them.
//!
//! The same bytes mean different things to different runtimes. A hook that
//! answers at once and exits 3 s later is fine under PromptKit, which waits
//! for the exit within its 10 s; a child that inherited stdout makes
//! PromptKit deny (its 500 ms `WaitDelay`) and keeps Codex waiting, while
//! Claude Code does not wait for it; a 100 KiB reply never reaches runok,
//! which reads stdout only after the exit. Each rule comes from the profile's
//! [`Timing`]; this module turns one exchange into the checks they decide,
//! for the PromptKit exec, runok and agent hook runners alike.

use crate::check::{Evidence, Failure, last_bytes};
use crate::client::OneShotReply;
use crate::protocol::timing::Timing;
use crate::transport::{Deadlines, Ending, Leftover, PIPE_BUFFER, Phase, ShutdownHow, StderrTail};

/// Records ROBUST-DEADLINE, PIPE-WRITES-DRAINED, LIFECYCLE-EXIT-ON-EOF and
/// LIFECYCLE-NO-LEFTOVER for one exchange. `Err` is the failure that cost
/// the runtime the answer (it never took it): the caller then judges the
/// runtime's fallback, not the bytes.
pub(super) fn judge(rec: &mut super::recorder::Recorder, timing: &Timing, ex: &OneShotReply, evidence: &Evidence) -> Result<(), Failure> {
    let c = &ex.collected;
    let request_ms = ex.deadline.as_millis() as u64;
    if !ex.finished() {
        let mut last = last_bytes(&c.bytes);
        if let Some(e) = &ex.write_error {
            last = format!("(stdin: {e}) {last}");
        }
        // Read only at the exit, which never came: what it wrote sat in the pipe.
        let unread = c.bytes.len();
        if timing.pipes.stdout_after_exit && c.exit.is_none() && unread >= PIPE_BUFFER {
            let blocked = Failure::PipeBlocked {
                pipe: "stdout".into(),
                filled_by: format!("{unread} bytes written and not yet read, a full pipe buffer ({PIPE_BUFFER} bytes)"),
                runtime_does: format!("the runtime reads stdout only after the process exits, so it never exits; {}", timing.gives_up),
            };
            rec.fail("PIPE-WRITES-DRAINED", blocked, evidence.clone());
        }
        let timeout = Failure::Timeout { phase: Phase::Request, waited_ms: ex.waited.as_millis() as u64, last_bytes: last };
        rec.fail("ROBUST-DEADLINE", timeout.clone(), evidence.clone());
        return Err(timeout);
    }
    rec.pass("PIPE-WRITES-DRAINED", evidence.clone());
    rec.pass("ROBUST-DEADLINE", evidence.clone());

    if c.exit.is_some() {
        rec.pass("LIFECYCLE-EXIT-ON-EOF", evidence.clone());
    } else {
        let how = match ex.shutdown.how {
            ShutdownHow::Killed => "it ignored SIGTERM and was killed",
            _ => "proctor had to terminate it",
        };
        match timing.ending {
            Ending::ExitAfterAnswer => {
                let shutdown_ms = timing.shutdown.duration.as_millis() as u64;
                let failure = Failure::Timeout {
                    phase: Phase::Shutdown,
                    waited_ms: shutdown_ms,
                    last_bytes: format!("answered but did not exit; {how}"),
                };
                rec.fail("LIFECYCLE-EXIT-ON-EOF", failure, evidence.clone());
            }
            Ending::ExitWithinRequest => {
                let lost = Failure::Lost {
                    waiting_for: format!("the process did not exit ({how}), and the runtime takes the answer only at the exit,"),
                    deadline_ms: request_ms,
                    runtime_does: timing.gives_up.to_string(),
                };
                rec.fail("LIFECYCLE-EXIT-ON-EOF", lost.clone(), evidence.clone());
                return Err(lost);
            }
        }
    }
    judge_leftover(rec, timing, ex, evidence)
}

/// LIFECYCLE-NO-LEFTOVER for one exchange. An exchange judged only for a
/// comparison (the same request with another line ending) still reports
/// here: what it left behind, or what a scan of its found of an overlapping
/// exchange's, is a leftover all the same.
pub(super) fn judge_leftover(
    rec: &mut super::recorder::Recorder,
    timing: &Timing,
    ex: &OneShotReply,
    evidence: &Evidence,
) -> Result<(), Failure> {
    let request_ms = ex.deadline.as_millis() as u64;
    let Some(leftover) = &ex.shutdown.leftover else {
        rec.pass("LIFECYCLE-NO-LEFTOVER", evidence.clone());
        return Ok(());
    };
    let holds_output = leftover.stdout_held_open || (leftover.stderr_held_open && timing.pipes.stderr_to_eof);
    if holds_output && timing.pipes.output_to_eof.is_some() {
        let pipe = if leftover.stdout_held_open { "stdout" } else { "stderr" };
        let lost = Failure::Lost {
            waiting_for: format!(
                "a process it left behind still held its {pipe} open, and the runtime takes the answer only once stdout and stderr close,"
            ),
            deadline_ms: request_ms,
            runtime_does: timing.held_open.unwrap_or(timing.gives_up).to_string(),
        };
        rec.fail("LIFECYCLE-NO-LEFTOVER", lost.clone(), evidence.clone());
        return Err(lost);
    }
    rec.fail("LIFECYCLE-NO-LEFTOVER", Failure::Leak { leftover: leftover.clone() }, evidence.clone());
    Ok(())
}

/// Whether PIPE-WRITES-DRAINED means anything under these deadlines: only a
/// runtime that leaves a pipe unread (runok's stdout until the exit,
/// PicoClaw's stderr after a long line) can block a plugin's writes.
pub(super) fn pipes_can_block(deadlines: &Deadlines) -> bool {
    deadlines.pipes.stdout_after_exit || deadlines.pipes.stderr_line_limit.is_some()
}

/// PIPE-WRITES-DRAINED for a long-lived plugin, from its stderr: whether a
/// line stopped the runtime's stderr reader and the plugin then got `stuck`
/// (a call unanswered, or no exit: it sat in its stderr write). A stopped
/// reader with the rest of the line still in the pipe blocks nothing yet
/// (measured: PicoClaw takes a hook whose 1060 KiB line left 36 KiB unread),
/// so that passes, with a note. Returns whether the reader stopped and the
/// plugin got stuck.
pub(super) fn judge_stderr(rec: &mut super::recorder::Recorder, timing: &Timing, stderr: &StderrTail, stuck: bool) -> bool {
    let Some(limit) = timing.pipes.stderr_line_limit else { return false };
    let Some(line) = stderr.stopped_at_line() else {
        rec.pass("PIPE-WRITES-DRAINED", Evidence::default());
        return false;
    };
    if !stuck {
        let note = format!(
            "a stderr line reached {line} bytes with no newline and stopped the runtime's stderr reader for good; nothing blocked in this run, but once {PIPE_BUFFER} more bytes of stderr fill the pipe the hook will block"
        );
        rec.pass("PIPE-WRITES-DRAINED", Evidence::default().with_note(note));
        return false;
    }
    let blocked = Failure::PipeBlocked {
        pipe: "stderr".into(),
        filled_by: format!(
            "a stderr line reached {line} bytes with no newline, and the runtime's stderr reader stops for good at {limit} (a bufio.Scanner's buffer)"
        ),
        runtime_does: format!(
            "nothing reads stderr again, so once {PIPE_BUFFER} more bytes fill the pipe the hook blocks in its stderr write and every later call times out: {}",
            timing.gives_up
        ),
    };
    rec.fail("PIPE-WRITES-DRAINED", blocked, Evidence::default().with_stderr(stderr.text()));
    true
}

/// A one-shot run's last look for what its plugins left behind: processes
/// that escaped every exchange's own scan (overlapping exchanges can miss
/// one the kernel re-parents mid-scan) fail LIFECYCLE-NO-LEFTOVER here
/// (an exchange's own finding, recorded first, is kept).
pub(super) async fn judge_strays(rec: &mut super::recorder::Recorder) {
    use crate::transport::tree;
    if tree::adopted_orphans().is_empty() {
        return;
    }
    // A plugin an ended exchange just killed may not be gone yet: only what is
    // still alive a moment later, and still running a program, was left behind.
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let strays: Vec<_> = tree::adopted_orphans().into_iter().filter(|p| !p.cmdline.is_empty()).collect();
    if !strays.is_empty() {
        let leftover = Leftover { escaped: tree::end_adopted(&strays), ..Leftover::default() };
        rec.fail("LIFECYCLE-NO-LEFTOVER", Failure::Leak { leftover }, Evidence::default());
    }
}
