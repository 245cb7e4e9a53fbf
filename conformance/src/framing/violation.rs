//! The ways bytes on stdout can break framing.

use std::fmt;

use serde::Serialize;

/// One framing problem, located precisely.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Violation {
    /// Nothing (or only whitespace) was written.
    Empty,
    /// The output starts with a UTF-8 byte-order mark, which Go's and serde's
    /// JSON decoders both reject.
    Bom,
    /// Bytes that are not UTF-8, starting at `offset`.
    NotUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// Text that is not JSON where JSON was expected.
    Garbage {
        /// Byte offset where the decoder gave up.
        offset: usize,
        /// The bytes around that offset.
        excerpt: String,
    },
    /// A number past what a 64-bit float holds (`1e400`): valid JSON text
    /// that neither Go's decoder nor serde can read.
    NumberOutOfRange {
        /// Byte offset where the decoder gave up.
        offset: usize,
        /// The bytes around that offset.
        excerpt: String,
    },
    /// JSON nested deeper than Go's decoder reads.
    TooDeep {
        /// Byte offset of the bracket that went one level too deep.
        offset: usize,
        /// Go's `maxNestingDepth`.
        limit: usize,
    },
    /// JSON that stops in the middle (a partial line, or one line of a
    /// pretty-printed document).
    Truncated {
        /// What arrived.
        excerpt: String,
    },
    /// More output after the first complete JSON value.
    TrailingData {
        /// Byte offset of the extra output.
        offset: usize,
        /// The extra bytes.
        excerpt: String,
    },
    /// The document spans several lines (pretty-printed).
    MultiLine {
        /// How many lines it spans.
        lines: usize,
    },
    /// A line ended in `\r\n`.
    CrLf,
    /// An empty line between messages.
    BlankLine,
    /// A line that was never terminated before EOF.
    Unterminated {
        /// The bytes after the last newline.
        excerpt: String,
        /// Whether those bytes stop in the middle of a JSON value (a
        /// writer that died or stalled mid-message) rather than being a
        /// complete message without its newline.
        cut_off: bool,
    },
    /// A line longer than the runtime reads.
    Oversize {
        /// The line's length in bytes.
        len: usize,
        /// The runtime's limit.
        limit: usize,
    },
    /// The JSON value is not an object.
    NotAnObject {
        /// The JSON type that arrived.
        found: &'static str,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Empty => write!(f, "stdout was empty"),
            Violation::Bom => write!(f, "output starts with a UTF-8 byte-order mark (EF BB BF)"),
            Violation::NotUtf8 { offset } => write!(f, "invalid UTF-8 at byte {offset}"),
            Violation::Garbage { offset, excerpt } => write!(f, "not JSON at byte {offset}: {excerpt}"),
            Violation::NumberOutOfRange { offset, excerpt } => {
                write!(f, "a number out of the range of a 64-bit float at byte {offset}, which no runtime's decoder reads: {excerpt}")
            }
            Violation::TooDeep { offset, limit } => {
                write!(f, "nested deeper than {limit} levels at byte {offset}, which Go's encoding/json refuses")
            }
            Violation::Truncated { excerpt } => write!(f, "JSON cut off in the middle: {excerpt}"),
            Violation::TrailingData { offset, excerpt } => {
                write!(f, "more output after the JSON value, at byte {offset}: {excerpt}")
            }
            Violation::MultiLine { lines } => write!(f, "the JSON spans {lines} lines (pretty-printed)"),
            Violation::CrLf => write!(f, "line ends in CRLF (\\r\\n)"),
            Violation::BlankLine => write!(f, "an empty line on stdout"),
            Violation::Unterminated { excerpt, cut_off: false } => write!(f, "last line has no newline: {excerpt}"),
            Violation::Unterminated { excerpt, cut_off: true } => write!(f, "last line has no newline and its JSON is cut off: {excerpt}"),
            Violation::Oversize { len, limit } => write!(f, "line of {len} bytes exceeds the runtime's {limit}-byte limit"),
            Violation::NotAnObject { found } => write!(f, "expected a JSON object, found {found}"),
        }
    }
}

impl Violation {
    /// The bytes a stream ended with after its last newline.
    pub fn unterminated(partial: &[u8]) -> Violation {
        let cut_off = crate::gojson::scan::check_valid(partial).is_err();
        Violation::Unterminated { excerpt: excerpt(partial, 0), cut_off }
    }
}

/// A short, printable excerpt of `bytes` around `offset` (lossy, capped).
pub fn excerpt(bytes: &[u8], offset: usize) -> String {
    const BEFORE: usize = 16;
    const AFTER: usize = 64;
    let start = offset.saturating_sub(BEFORE).min(bytes.len());
    let end = (offset + AFTER).min(bytes.len());
    let mut s = String::new();
    if start > 0 {
        s.push('…');
    }
    s.push_str(&String::from_utf8_lossy(&bytes[start..end]));
    if end < bytes.len() {
        s.push('…');
    }
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unterminated_line_says_whether_its_json_is_cut_off() {
        assert!(matches!(Violation::unterminated(br#"{"id":1}"#), Violation::Unterminated { cut_off: false, .. }));
        assert!(matches!(Violation::unterminated(br#"{"id":1,"res"#), Violation::Unterminated { cut_off: true, .. }));
        assert!(Violation::unterminated(br#"{"id":1,"res"#).to_string().contains("cut off"));
    }
}
