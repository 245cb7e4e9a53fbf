//! One request per process: spawn, write, close stdin, read to EOF, wait.

use std::time::{Duration, Instant};

use crate::transport::{Collected, Deadlines, PluginCommand, PluginProcess, Shutdown, SpawnError};

/// Most stdout kept from a one-shot plugin.
const STDOUT_CAP: usize = 16 * 1024 * 1024;

/// Everything one one-shot invocation produced.
#[derive(Debug, Clone)]
pub struct OneShotReply {
    /// What was written to stdin.
    pub sent: Vec<u8>,
    /// stdout, the exit, and when the answer was complete.
    pub collected: Collected,
    /// How the process ended and what it left behind.
    pub shutdown: Shutdown,
    /// The stderr tail.
    pub stderr: String,
    /// Why the request could not be written completely, if it could not.
    pub write_error: Option<String>,
    /// Time from the write to the end of collection, at most the request deadline.
    pub waited: Duration,
    /// The request deadline it ran under.
    pub deadline: Duration,
}

impl OneShotReply {
    /// Whether the plugin answered (or at least exited) within the deadline.
    pub fn finished(&self) -> bool {
        self.collected.answered_after.is_some() || self.collected.exit.is_some()
    }
}

/// Whether `bytes` already hold one complete JSON value (BOM tolerated).
/// Called after every chunk, so it must stay cheap on floods: output that
/// cannot start a JSON value is rejected at its first byte, and parsing
/// builds nothing.
fn complete(bytes: &[u8]) -> bool {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if !matches!(first, Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')) {
        return false;
    }
    crate::gojson::scan::first_value_end(body).is_ok()
}

/// Runs `command` once with `request` on stdin.
pub async fn one_shot(command: &PluginCommand, deadlines: Deadlines, request: Vec<u8>) -> Result<OneShotReply, SpawnError> {
    let mut process = PluginProcess::spawn(command, deadlines)?;
    let write_error = process.write(&request, deadlines.request).await.err().map(|e| e.to_string());
    process.close_stdin();
    let start = Instant::now();
    let collected = process.collect_answer(deadlines.request, STDOUT_CAP, complete).await;
    // Collection stops at the deadline: anything past it is scheduling noise,
    // which would make two runs' reports of the same hang differ.
    let waited = start.elapsed().min(deadlines.request);
    let tail = process.stderr().clone();
    let shutdown = process.shutdown().await;
    let stderr = tail.text();
    Ok(OneShotReply { sent: request, collected, shutdown, stderr, write_error, waited, deadline: deadlines.request })
}

#[cfg(test)]
mod tests {
    use super::complete;

    #[test]
    fn completeness() {
        assert!(complete(b"{\"a\":1}"));
        assert!(complete(b"\xEF\xBB\xBF {\"a\":1}"));
        assert!(!complete(b"{\"a\":"));
        assert!(!complete(b"loading... {\"a\":1}"));
        assert!(complete(b"null"));
    }
}
