//! Reading stdout without trusting it: bounded lines, bounded documents, and
//! every byte that arrived kept (up to a cap) as evidence.
//!
//! `AsyncBufReadExt::lines` and `read_line` are unbounded and treat invalid
//! UTF-8 as an I/O error; proctor needs the opposite: a hard cap, the raw
//! bytes, and a precise account of what arrived.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::ChildStdout;
use tokio::time::Instant;

/// How a line was terminated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineEnding {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
}

/// One step of reading a line-delimited stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadEvent {
    /// A complete line (terminator stripped).
    Line {
        /// The line without its terminator.
        bytes: Vec<u8>,
        /// `\n` or `\r\n`.
        ending: LineEnding,
    },
    /// A line longer than the cap; its bytes were discarded up to the newline.
    TooLong {
        /// Length of the discarded line in bytes.
        len: usize,
    },
    /// The stream ended; `partial` holds bytes after the last newline.
    Eof {
        /// Unterminated bytes before EOF.
        partial: Vec<u8>,
    },
    /// The deadline passed; `partial` holds bytes of the unfinished line.
    Timeout {
        /// Bytes of the unfinished line.
        partial: Vec<u8>,
    },
}

/// Most bytes one read asks for.
const READ_CHUNK: usize = 64 * 1024;

/// A plugin's stdout with a line buffer and an evidence log. Generic over
/// the byte source so the reader can be tested on arbitrary chunkings.
#[derive(Debug)]
pub struct StdoutReader<R = ChildStdout> {
    stdout: R,
    /// Bytes read but not yet returned as a line.
    pending: Vec<u8>,
    /// When discarding an overlong line: how long it is so far.
    discarding: Option<usize>,
    /// How much of `pending` is known to hold no newline (keeps scanning linear).
    scanned: usize,
    max_line: usize,
    eof: bool,
    /// Every byte read, up to `log_cap`.
    log: Vec<u8>,
    log_cap: usize,
    total: u64,
    /// The read buffer, allocated on first read.
    buf: Option<Box<[u8]>>,
}

impl<R: AsyncRead + Unpin> StdoutReader<R> {
    /// A reader over `stdout` that gives up on lines longer than `max_line`.
    pub fn new(stdout: R, max_line: usize) -> Self {
        StdoutReader {
            stdout,
            pending: Vec::new(),
            discarding: None,
            scanned: 0,
            max_line,
            eof: false,
            log: Vec::new(),
            log_cap: 256 * 1024,
            total: 0,
            buf: None,
        }
    }

    /// Total bytes read from stdout.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The first bytes read from stdout (up to the evidence cap).
    pub fn log(&self) -> &[u8] {
        &self.log
    }

    /// Whether stdout reached EOF.
    pub fn at_eof(&self) -> bool {
        self.eof
    }

    /// Reads one chunk into the pending buffer (cancel-safe: state changes
    /// only after a read completes).
    pub(crate) async fn fill(&mut self, until: Instant) -> Fill {
        if self.eof {
            return Fill::Eof;
        }
        // The read buffer lives on the heap, once per reader: a 64 KiB array
        // here would sit inside every future that awaits this one and be
        // zeroed on each read and copied whenever such a future moves.
        let buf = self.buf.get_or_insert_with(|| vec![0u8; READ_CHUNK].into_boxed_slice());
        match tokio::time::timeout_at(until, self.stdout.read(buf)).await {
            Err(_) => Fill::Timeout,
            Ok(Ok(0)) | Ok(Err(_)) => {
                self.eof = true;
                Fill::Eof
            }
            Ok(Ok(n)) => {
                self.total += n as u64;
                let room = self.log_cap.saturating_sub(self.log.len());
                self.log.extend_from_slice(&buf[..n.min(room)]);
                self.pending.extend_from_slice(&buf[..n]);
                Fill::Data
            }
        }
    }

    /// Reads the next line, waiting at most `timeout`.
    pub async fn next_line(&mut self, timeout: Duration) -> ReadEvent {
        self.next_line_until(Instant::now() + timeout).await
    }

    /// Reads the next line, waiting until `until` (one deadline for a whole
    /// exchange: the clock is read once per call, not once per step).
    pub async fn next_line_until(&mut self, until: Instant) -> ReadEvent {
        loop {
            if let Some(pos) = self.pending[self.scanned..].iter().position(|&b| b == b'\n').map(|p| p + self.scanned) {
                self.scanned = 0;
                let mut line: Vec<u8> = self.pending.drain(..=pos).collect();
                line.pop();
                if let Some(skipped) = self.discarding.take() {
                    return ReadEvent::TooLong { len: skipped + line.len() };
                }
                // The cap is exact whatever the chunking: a line that
                // arrived in one read is judged like one that did not.
                if line.len() > self.max_line {
                    return ReadEvent::TooLong { len: line.len() };
                }
                let ending = if line.last() == Some(&b'\r') {
                    line.pop();
                    LineEnding::CrLf
                } else {
                    LineEnding::Lf
                };
                return ReadEvent::Line { bytes: line, ending };
            }
            self.scanned = self.pending.len();
            if self.pending.len() > self.max_line {
                let n = self.pending.len();
                self.pending.clear();
                self.scanned = 0;
                self.discarding = Some(self.discarding.unwrap_or(0) + n);
            }
            match self.fill(until).await {
                Fill::Data => {}
                Fill::Eof => {
                    self.scanned = 0;
                    if let Some(skipped) = self.discarding.take() {
                        return ReadEvent::TooLong { len: skipped + std::mem::take(&mut self.pending).len() };
                    }
                    return ReadEvent::Eof { partial: std::mem::take(&mut self.pending) };
                }
                Fill::Timeout => return ReadEvent::Timeout { partial: self.pending.clone() },
            }
        }
    }

    /// Takes the bytes read but not yet consumed.
    pub(crate) fn take_pending(&mut self) -> Vec<u8> {
        self.scanned = 0;
        std::mem::take(&mut self.pending)
    }

    /// Waits up to `window` for EOF, discarding data. `true` when EOF came.
    pub(crate) async fn wait_eof(&mut self, window: Duration) -> bool {
        let until = Instant::now() + window;
        loop {
            self.take_pending();
            match self.fill(until).await {
                Fill::Data => {}
                Fill::Eof => return true,
                Fill::Timeout => return false,
            }
        }
    }
}

pub(crate) enum Fill {
    Data,
    Eof,
    Timeout,
}
