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
}

/// The tail keeps this many bytes.
pub const STDERR_TAIL_BYTES: usize = 8 * 1024;

impl StderrTail {
    /// Starts draining `stderr` in the background; the task ends at EOF.
    pub(crate) fn drain(mut stderr: ChildStderr) -> (StderrTail, JoinHandle<()>) {
        let tail = StderrTail::default();
        let shared = tail.clone();
        let task = tokio::spawn(async move {
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match stderr.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => shared.push(&buf[..n]),
                }
            }
        });
        (tail, task)
    }

    fn push(&self, chunk: &[u8]) {
        let mut t = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        t.total += chunk.len() as u64;
        t.bytes.extend_from_slice(chunk);
        if t.bytes.len() > STDERR_TAIL_BYTES {
            let cut = t.bytes.len() - STDERR_TAIL_BYTES;
            t.bytes.drain(..cut);
        }
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
