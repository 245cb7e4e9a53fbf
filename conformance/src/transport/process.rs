//! One plugin process: spawn, talk, and stop it with nothing left behind.
//!
//! Lifecycle: `spawn` → (`write` / `next_line` / `collect_answer`)* → `close_stdin` →
//! [`PluginProcess::shutdown`]. Shutdown is the only way out and always ends
//! in the same place: the leader reaped, the group killed, and a report of
//! how the plugin ended and what it left behind.

use std::io;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, Command};
use tokio::task::JoinHandle;

use tokio::time::Instant;

use super::group::ProcessGroup;
use super::stdout::Fill;
use super::tree;
use super::{Deadlines, Ending, EofWait, ExitOutcome, PluginCommand, StderrTail, StdoutReader};

/// The plugin could not be started.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SpawnError {
    /// The OS refused to start the program.
    #[error("cannot start `{program}`: {source}")]
    Exec {
        /// argv[0].
        program: String,
        /// Why (not found, permission denied, …).
        #[source]
        source: Arc<io::Error>,
    },
    /// The child started but had no pid (it was already reaped), or no pipes.
    #[error("`{program}` started but could not be supervised: {reason}")]
    Unsupervised {
        /// argv[0].
        program: String,
        /// What was missing.
        reason: &'static str,
    },
}

/// Writing to the plugin's stdin failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The plugin closed its stdin (or exited): EPIPE.
    #[error("the plugin closed its stdin (broken pipe)")]
    Closed,
    /// The plugin stopped reading and the pipe stayed full past the deadline.
    #[error("the plugin stopped reading stdin: the write did not finish within {0:?}")]
    Stalled(Duration),
    /// stdin was already closed by proctor.
    #[error("stdin was already closed")]
    AlreadyClosed,
}

/// How the plugin ended at shutdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShutdownHow {
    /// It exited by itself within the shutdown deadline.
    ExitedByItself,
    /// It needed SIGTERM.
    Terminated,
    /// It ignored SIGTERM and was SIGKILLed.
    Killed,
}

/// What was still around after the plugin's main process ended.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Leftover {
    /// stdout stayed open after the plugin exited: another process holds it.
    pub stdout_held_open: bool,
    /// stderr stayed open after the plugin exited: another process holds it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stderr_held_open: bool,
    /// Members of the plugin's process group were still alive.
    pub group_alive: bool,
    /// Descendants that left the group (a new session, a new group, a double
    /// fork) and were still alive, one description each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub escaped: Vec<String>,
}

/// The end of a plugin run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shutdown {
    /// How the leader ended.
    pub exit: ExitOutcome,
    /// Whether it needed help.
    pub how: ShutdownHow,
    /// What outlived it, if anything (killed since).
    pub leftover: Option<Leftover>,
}

/// What a one-shot plugin wrote before exiting (see [`PluginProcess::collect_answer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collected {
    /// stdout, up to the cap.
    pub bytes: Vec<u8>,
    /// Bytes beyond the cap, dropped.
    pub dropped: u64,
    /// When a complete answer was seen, measured from the start of collection.
    pub answered_after: Option<Duration>,
    /// Whether stdout reached EOF.
    pub eof: bool,
    /// The leader's exit, if it exited within the deadlines.
    pub exit: Option<ExitOutcome>,
}

/// A running plugin.
#[derive(Debug)]
pub struct PluginProcess {
    command: PluginCommand,
    child: Child,
    group: Option<ProcessGroup>,
    stdin: Option<ChildStdin>,
    /// The plugin's stdout.
    pub stdout: StdoutReader,
    stderr: StderrTail,
    stderr_task: JoinHandle<()>,
    exit: Option<ExitOutcome>,
    deadlines: Deadlines,
    /// Descendants seen outside the plugin's group (ended at shutdown).
    escaped: Vec<tree::Proc>,
    /// A pipe still open when the runtime's wait for the pipes after the exit
    /// ran out (Go's WaitDelay): already held too long, whatever comes later.
    held_past_wait: (bool, bool),
}

/// Longest stdout line proctor buffers before declaring it oversized.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

impl PluginProcess {
    /// Starts the plugin in its own process group with all three stdio piped.
    pub fn spawn(command: &PluginCommand, deadlines: Deadlines) -> Result<Self, SpawnError> {
        let mut cmd = Command::new(command.program());
        cmd.args(&command.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        if command.env_clear {
            cmd.env_clear();
        }
        for k in &command.env_remove {
            cmd.env_remove(k);
        }
        for (k, v) in &command.env {
            cmd.env(k, v);
        }
        if let Some(cwd) = &command.cwd {
            cmd.current_dir(cwd);
        }
        // Spawned and registered under the gate, so no orphan scan sees it in between.
        let gate = super::reaper::gate();
        let mut child =
            super::spawner::spawn(cmd).map_err(|e| SpawnError::Exec { program: command.program().to_string(), source: Arc::new(e) })?;
        let unsupervised = |reason| SpawnError::Unsupervised { program: command.program().to_string(), reason };
        let group = child.id().and_then(ProcessGroup::adopt).ok_or_else(|| unsupervised("no pid"))?;
        drop(gate);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| unsupervised("no stdout pipe"))?;
        let stderr = child.stderr.take().ok_or_else(|| unsupervised("no stderr pipe"))?;
        let (stderr, stderr_task) = StderrTail::drain(stderr, deadlines.pipes.stderr_line_limit);
        Ok(PluginProcess {
            command: command.clone(),
            child,
            group: Some(group),
            stdin,
            stdout: StdoutReader::new(stdout, MAX_LINE_BYTES),
            stderr,
            stderr_task,
            exit: None,
            deadlines,
            escaped: Vec::new(),
            held_past_wait: (false, false),
        })
    }

    /// The command this process runs.
    pub fn command(&self) -> &PluginCommand {
        &self.command
    }

    /// The deadlines this process runs under.
    pub fn deadlines(&self) -> Deadlines {
        self.deadlines
    }

    /// Whether every process of the plugin's group sits waiting for input
    /// (see [`super::idle`]).
    pub fn waiting_for_input(&self) -> bool {
        self.group.as_ref().is_some_and(|g| super::idle::waiting_for_input(g.leader()))
    }

    /// The stderr tail so far.
    pub fn stderr(&self) -> &StderrTail {
        &self.stderr
    }

    /// Writes `bytes` to stdin, giving up after `timeout`.
    pub async fn write(&mut self, bytes: &[u8], timeout: Duration) -> Result<(), WriteError> {
        self.write_until(bytes, tokio::time::Instant::now() + timeout, timeout).await
    }

    /// Writes `bytes` to stdin, giving up at `until` (`timeout` is what the
    /// caller allowed, for the error).
    pub async fn write_until(&mut self, bytes: &[u8], until: tokio::time::Instant, timeout: Duration) -> Result<(), WriteError> {
        let stdin = self.stdin.as_mut().ok_or(WriteError::AlreadyClosed)?;
        let write = async {
            stdin.write_all(bytes).await?;
            stdin.flush().await
        };
        match tokio::time::timeout_at(until, write).await {
            Err(_) => Err(WriteError::Stalled(timeout)),
            Ok(Err(_)) => Err(WriteError::Closed),
            Ok(Ok(())) => Ok(()),
        }
    }

    /// Closes stdin so the plugin sees EOF.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Whether proctor has closed the plugin's stdin.
    pub fn stdin_closed(&self) -> bool {
        self.stdin.is_none()
    }

    /// The exit, if the leader has already exited (never blocks).
    pub fn try_exit(&mut self) -> Option<ExitOutcome> {
        if self.exit.is_none()
            && let Ok(Some(status)) = self.child.try_wait()
        {
            self.exit = Some(status.into());
        }
        self.exit
    }

    /// Waits up to `timeout` for the leader to exit by itself.
    pub async fn wait_exit(&mut self, timeout: Duration) -> Option<ExitOutcome> {
        if let Some(exit) = self.exit {
            return Some(exit);
        }
        match tokio::time::timeout(timeout, self.child.wait()).await {
            Ok(Ok(status)) => {
                self.exit = Some(status.into());
                self.exit
            }
            _ => None,
        }
    }

    /// [`wait_exit`](Self::wait_exit), reading stdout meanwhile where the runtime
    /// keeps reading it until EOF (what a plugin writes at the end is then
    /// discarded, not left to fill the pipe and block its exit).
    async fn wait_exit_reading(&mut self, timeout: Duration) -> Option<ExitOutcome> {
        if !self.deadlines.pipes.stdout_read_to_exit || self.exit.is_some() {
            return self.wait_exit(timeout).await;
        }
        let until = Instant::now() + timeout;
        let mut eof = self.stdout.at_eof();
        loop {
            tokio::select! {
                status = self.child.wait() => {
                    self.exit = status.ok().map(Into::into);
                    return self.exit;
                }
                fill = self.stdout.fill(until), if !eof => match fill {
                    Fill::Data => drop(self.stdout.take_pending()),
                    Fill::Eof => eof = true,
                    Fill::Timeout => return None,
                },
                _ = tokio::time::sleep_until(until), if eof => return None,
            }
        }
    }

    /// Reads a one-shot answer: stdout until EOF and the leader's exit, at
    /// most `answer_timeout` for a complete answer (as judged by `complete`)
    /// and then at most the shutdown deadline for the exit. If the leader
    /// exits while something else still holds stdout, reading stops after
    /// the leak window instead of waiting on the grandchild.
    pub async fn collect_answer(&mut self, answer_timeout: Duration, cap: usize, complete: impl Fn(&[u8]) -> bool) -> Collected {
        let start = Instant::now();
        let mut until = start + answer_timeout;
        let mut bytes = Vec::new();
        let mut dropped = 0u64;
        let mut answered_after = None;
        let mut eof = self.stdout.at_eof();
        let mut keep = |bytes: &mut Vec<u8>, chunk: Vec<u8>| {
            let room = cap.saturating_sub(bytes.len());
            dropped += chunk.len().saturating_sub(room) as u64;
            bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        };
        // A runtime that reads stdout only after the exit leaves it in the pipe till then.
        let after_exit = self.deadlines.pipes.stdout_after_exit;
        loop {
            if eof && self.exit.is_some() {
                break;
            }
            tokio::select! {
                fill = self.stdout.fill(until), if !eof && !after_exit => match fill {
                    Fill::Data => {
                        keep(&mut bytes, self.stdout.take_pending());
                        if answered_after.is_none() && complete(&bytes) {
                            answered_after = Some(start.elapsed());
                            // Where the runtime waits for the exit within the request deadline, so does proctor.
                            if self.deadlines.ending == Ending::ExitAfterAnswer {
                                until = Instant::now() + self.deadlines.shutdown;
                            }
                        }
                    }
                    Fill::Eof => eof = true,
                    Fill::Timeout => break,
                },
                status = self.child.wait(), if self.exit.is_none() => {
                    if let Ok(status) = status {
                        self.exit = Some(status.into());
                    }
                    // Output written just before exit is still in the pipe; a
                    // pipe still open after the leak window is held by a leftover.
                    // A runtime that takes the answer at the pipes' EOF waits as long as it does.
                    let leak = Instant::now() + self.deadlines.leak_window;
                    let window = match self.deadlines.pipes.output_to_eof {
                        Some(EofWait::Grace(grace)) => Instant::now() + grace,
                        Some(EofWait::UntilDeadline) => until.max(leak),
                        None => leak,
                    };
                    while !eof {
                        match self.stdout.fill(window).await {
                            Fill::Data => keep(&mut bytes, self.stdout.take_pending()),
                            Fill::Eof => eof = true,
                            Fill::Timeout => break,
                        }
                    }
                    let stderr_closed = !self.deadlines.pipes.stderr_to_eof || settle(window, || self.stderr_task.is_finished()).await;
                    if self.deadlines.pipes.output_to_eof.is_some() {
                        self.held_past_wait = (!eof, !stderr_closed);
                    }
                    if answered_after.is_none() && complete(&bytes) {
                        answered_after = Some(start.elapsed());
                    }
                    break;
                }
                _ = tokio::time::sleep_until(until), if eof || after_exit => break,
            }
        }
        if after_exit && self.exit.is_none() {
            // What sits in the pipe is evidence of why the plugin never exited.
            let glance = Instant::now() + Duration::from_millis(50);
            while let Fill::Data = self.stdout.fill(glance).await {
                keep(&mut bytes, self.stdout.take_pending());
            }
        }
        Collected { bytes, dropped, answered_after, eof, exit: self.exit }
    }

    /// Stops the plugin: closes stdin, waits for it to exit by itself within
    /// the shutdown deadline, else SIGTERM, else SIGKILL after the kill grace.
    /// Then checks for leftovers and kills the whole group.
    pub async fn shutdown(mut self) -> Shutdown {
        self.close_stdin();
        let closed_at = Instant::now();
        let group = self.group.take();
        let shutdown = self.deadlines.shutdown;
        let (exit, how) = match self.wait_exit_reading(shutdown).await {
            Some(exit) => (exit, ShutdownHow::ExitedByItself),
            None => {
                // Read the tree while the leader still holds it together.
                self.note_escaped(group.as_ref());
                self.terminate(group.as_ref()).await
            }
        };
        // A runtime whose close waits for stderr's copy gives a child holding it the rest of the shutdown.
        let stderr_until = self.deadlines.pipes.stderr_waited_at_close.then_some(closed_at + shutdown);
        let mut leftover = self.leftovers(group.as_ref(), stderr_until).await;
        self.note_escaped(group.as_ref());
        if !self.escaped.is_empty() {
            // As in the group: a child that ends within the leak window (a short job the
            // plugin started in a session of its own) was not left behind.
            let until = Instant::now() + self.deadlines.leak_window;
            settle(until, || tree::still_running(&self.escaped).is_empty()).await;
            self.escaped = tree::still_running(&self.escaped);
        }
        if !self.escaped.is_empty() {
            let plugin_group = group.as_ref().map_or(0, ProcessGroup::leader);
            let escaped: Vec<String> = self.escaped.iter().map(|p| p.describe(plugin_group)).collect();
            tree::kill_and_reap(&std::mem::take(&mut self.escaped));
            let l = leftover.get_or_insert_with(Leftover::default);
            l.escaped = escaped;
        }
        if let Some(group) = group {
            group.release();
        }
        // The drain task ends when every writer of stderr is gone (just killed).
        let _ = tokio::time::timeout(Duration::from_millis(200), &mut self.stderr_task).await;
        self.stderr_task.abort();
        Shutdown { exit, how, leftover }
    }

    /// SIGTERM, grace, SIGKILL; returns the leader's exit and which step ended it.
    async fn terminate(&mut self, group: Option<&ProcessGroup>) -> (ExitOutcome, ShutdownHow) {
        if let Some(g) = group {
            g.terminate();
        }
        if let Some(exit) = self.wait_exit(self.deadlines.kill_grace).await {
            return (exit, ShutdownHow::Terminated);
        }
        if let Some(g) = group {
            g.kill();
        }
        let _ = self.child.start_kill();
        let exit = match self.child.wait().await {
            Ok(status) => status.into(),
            Err(_) => ExitOutcome::Signal(9),
        };
        self.exit = Some(exit);
        (exit, ShutdownHow::Killed)
    }

    /// After the leader has exited: does anything still hold stdout or live in the group?
    async fn leftovers(&mut self, group: Option<&ProcessGroup>, stderr_until: Option<Instant>) -> Option<Leftover> {
        let (stdout_held, stderr_held) = self.held_past_wait;
        let stdout_held_open = !self.stdout.wait_eof(self.deadlines.leak_window).await || stdout_held;
        // The drain task ends at stderr's EOF, unless the runtime's reader stopped reading it.
        let until = (Instant::now() + self.deadlines.leak_window).max(stderr_until.unwrap_or_else(Instant::now));
        let stderr_done = || self.stderr_task.is_finished() || self.stderr.stopped_at_line().is_some();
        let stderr_held_open = !settle(until, stderr_done).await || stderr_held;
        // A child that ends as the pipes close may still be there for a moment, or a zombie
        // not yet reaped: what is left is what still runs once the leak window has passed.
        let group_alive = match group {
            Some(g) => {
                let until = Instant::now() + self.deadlines.leak_window;
                !settle(until, || !(g.any_alive() && tree::group_has_live(g.leader()))).await
            }
            None => false,
        };
        (stdout_held_open || stderr_held_open || group_alive).then_some(Leftover {
            stdout_held_open,
            stderr_held_open,
            group_alive,
            escaped: Vec::new(),
        })
    }

    /// Adds what now lives outside the plugin's group to the escaped list.
    fn note_escaped(&mut self, group: Option<&ProcessGroup>) {
        let Some(leader) = group.map(ProcessGroup::leader) else { return };
        for p in tree::escaped(leader) {
            match self.escaped.iter_mut().find(|e| e.pid == p.pid) {
                Some(seen) => *seen = p, // the latest view (it may have called setsid since)
                None => self.escaped.push(p),
            }
        }
    }
}

/// Polls `settled` until it holds or `until` passes; returns whether it held.
/// For what the kernel settles a moment after a process ends: a pipe's last
/// writer gone, a child reaped.
async fn settle(until: Instant, mut settled: impl FnMut() -> bool) -> bool {
    loop {
        if settled() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
