//! The bytes that prove an outcome.

use serde::Serialize;

/// What was sent and received when a check was decided, and the stderr tail.
/// Text is kept lossy-UTF-8 and unescaped; reports escape it for terminals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// The request bytes, as written to the plugin's stdin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<String>,
    /// The bytes the plugin wrote back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub received: Option<String>,
    /// The end of the plugin's stderr.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
    /// What the outcome rests on, when it is less than the check's summary
    /// says (a check cut short by proctor's own budget).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Longest excerpt of sent or received bytes kept in a report.
const EVIDENCE_BYTES: usize = 4096;

impl Evidence {
    /// Evidence of one exchange.
    pub fn exchange(sent: &[u8], received: &[u8]) -> Self {
        Evidence { sent: Some(clip(sent)), received: Some(clip(received)), ..Evidence::default() }
    }

    /// Evidence of bytes received only.
    pub fn received(received: &[u8]) -> Self {
        Evidence { received: Some(clip(received)), ..Evidence::default() }
    }

    /// Adds the stderr tail (when it is not empty).
    pub fn with_stderr(mut self, tail: String) -> Self {
        if !tail.is_empty() {
            self.stderr_tail = Some(clip(tail.as_bytes()));
        }
        self
    }

    /// Adds a note on what the outcome rests on.
    pub fn with_note(mut self, note: String) -> Self {
        self.note = Some(note);
        self
    }

    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.sent.is_none() && self.received.is_none() && self.stderr_tail.is_none()
    }
}

/// Most bytes a timeout's `last_bytes` shows.
const LAST_BYTES: usize = 256;

/// What a plugin wrote last, as text: at most [`LAST_BYTES`] from the end,
/// so a flood that ends in a timeout costs a few hundred bytes in the report.
pub fn last_bytes(bytes: &[u8]) -> String {
    let start = bytes.len().saturating_sub(LAST_BYTES);
    let tail = String::from_utf8_lossy(&bytes[start..]);
    if start == 0 { tail.into_owned() } else { format!("[… {start} bytes before] {tail}") }
}

/// Lossy text of at most [`EVIDENCE_BYTES`], saying how much was left out.
pub fn clip(bytes: &[u8]) -> String {
    if bytes.len() <= EVIDENCE_BYTES {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let head = String::from_utf8_lossy(&bytes[..EVIDENCE_BYTES]);
    format!("{head}[… {} more bytes]", bytes.len() - EVIDENCE_BYTES)
}
