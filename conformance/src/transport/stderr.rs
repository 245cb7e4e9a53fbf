//! Draining stderr concurrently, keeping only a bounded tail as evidence.
//!
//! Nobody reads a plugin's stderr in lockstep with its stdout, so if proctor
//! did not drain it a plugin that logs more than a pipe buffer (64 KiB) would
//! block forever, and its failure would look like a hang.

use std::sync::{Arc, Mutex};

use tokio::io::AsyncReadExt;
use tokio::process::ChildStderr;
use tokio::task::JoinHandle;

/// The last bytes a plugin wrote to stderr, and how many it wrote in all.
#[derive(Debug, Clone, Default)]
pub struct StderrTail {
    inner: Arc<Mutex<TailBuf>>,
}

#[derive(Debug, Default)]
struct TailBuf {
    bytes: Vec<u8>,
    total: u64,
    /// The length of the unfinished line so far.
    line: u64,
    /// The length the line had reached when reading stopped for good.
    stopped_at_line: Option<u64>,
}

/// The tail keeps this many bytes.
pub const STDERR_TAIL_BYTES: usize = 8 * 1024;

impl StderrTail {
    /// Starts draining `stderr` in the background; the task ends at EOF.
    /// With `line_limit`, reading stops for good at a line longer than it,
    /// as the runtime's line reader does: the pipe stays open and unread, so
    /// the plugin's next writes block once its buffer is full.
    pub(crate) fn drain(mut stderr: ChildStderr, line_limit: Option<usize>) -> (StderrTail, JoinHandle<()>) {
        let tail = StderrTail::default();
        let shared = tail.clone();
        let task = tokio::spawn(async move {
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                // Never read past the limit: the runtime's buffer holds exactly that much.
                let room = line_limit.map_or(buf.len(), |limit| shared.room(limit).clamp(1, buf.len()));
                match stderr.read(&mut buf[..room]).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if shared.push(&buf[..n], line_limit) {
                            // Held, never read again: the task is aborted at shutdown.
                            std::future::pending::<()>().await;
                        }
                    }
                }
            }
        });
        (tail, task)
    }

    /// The length of the stderr line that made the runtime's reader stop, if one did.
    pub fn stopped_at_line(&self) -> Option<u64> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).stopped_at_line
    }

    /// How many more bytes the unfinished line may take before it reaches `limit`.
    fn room(&self, limit: usize) -> usize {
        let line = self.inner.lock().unwrap_or_else(|e| e.into_inner()).line;
        (limit as u64).saturating_sub(line) as usize
    }

    /// Keeps `chunk`; returns whether a line has now passed `line_limit`.
    fn push(&self, chunk: &[u8], line_limit: Option<usize>) -> bool {
        let mut t = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        t.total += chunk.len() as u64;
        t.bytes.extend_from_slice(chunk);
        if t.bytes.len() > STDERR_TAIL_BYTES {
            let cut = t.bytes.len() - STDERR_TAIL_BYTES;
            t.bytes.drain(..cut);
        }
        let Some(limit) = line_limit else { return false };
        for part in chunk.split_inclusive(|&b| b == b'\n') {
            t.line += part.len() as u64;
            // bufio.Scanner fails once a line without its newline fills the buffer.
            let content = t.line - u64::from(part.ends_with(b"\n"));
            if content >= limit as u64 {
                t.stopped_at_line = Some(content);
                return true;
            }
            if part.ends_with(b"\n") {
                t.line = 0;
            }
        }
        false
    }

    /// The tail as bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).bytes.clone()
    }

    /// Total bytes written to stderr so far.
    pub fn total(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).total
    }

    /// The tail as text (lossy), prefixed with how much was cut off, if anything.
    pub fn text(&self) -> String {
        let t = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let body = String::from_utf8_lossy(&t.bytes);
        let dropped = t.total.saturating_sub(t.bytes.len() as u64);
        if dropped > 0 { format!("[… {dropped} earlier bytes]\n{body}") } else { body.into_owned() }
    }
}
