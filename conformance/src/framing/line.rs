//! Line framing: each line of stdout must be exactly one JSON object.

use serde_json::Value;

use super::document::offset_of;
use super::violation::{Violation, excerpt};
use crate::transport::LineEnding;

/// What one stdout line held.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The JSON object, when the line held one (possibly recovered after a
    /// BOM or lossy UTF-8 repair: see `violations`).
    pub value: Option<Value>,
    /// Every framing problem on this line.
    pub violations: Vec<Violation>,
}

impl Line {
    /// Whether the runtime would read this line as one message.
    pub fn is_clean(&self) -> bool {
        self.violations.iter().all(|v| matches!(v, Violation::CrLf))
    }
}

/// Classifies one line (terminator already stripped).
pub fn read_line(bytes: &[u8], ending: LineEnding) -> Line {
    let mut violations = Vec::new();
    if ending == LineEnding::CrLf {
        violations.push(Violation::CrLf);
    }
    let mut body = bytes;
    if let Some(rest) = body.strip_prefix(b"\xEF\xBB\xBF") {
        violations.push(Violation::Bom);
        body = rest;
    }
    let text = match std::str::from_utf8(body) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        Err(e) => {
            violations.push(Violation::NotUtf8 { offset: e.valid_up_to() + (bytes.len() - body.len()) });
            String::from_utf8_lossy(body)
        }
    };
    if text.trim().is_empty() {
        violations.push(Violation::BlankLine);
        return Line { value: None, violations };
    }
    let mut stream = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
    let value = match stream.next() {
        Some(Ok(v)) => {
            let end = stream.byte_offset();
            if let Some(skip) = text[end..].find(|c: char| !c.is_whitespace()) {
                violations.push(Violation::TrailingData { offset: end + skip, excerpt: excerpt(text.as_bytes(), end + skip) });
            }
            if v.is_object() {
                Some(v)
            } else {
                violations.push(Violation::NotAnObject { found: json_type(&v) });
                None
            }
        }
        Some(Err(e)) if e.is_eof() => {
            violations.push(Violation::Truncated { excerpt: excerpt(text.as_bytes(), 0) });
            None
        }
        Some(Err(e)) => {
            let offset = offset_of(&text, e.line(), e.column());
            violations.push(Violation::Garbage { offset, excerpt: excerpt(text.as_bytes(), offset) });
            None
        }
        None => None,
    };
    Line { value, violations }
}

/// The JSON type name of a value, as JSON calls it.
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_line() {
        let l = read_line(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#, LineEnding::Lf);
        assert!(l.is_clean() && l.value.is_some());
    }

    #[test]
    fn crlf_is_noted_but_readable() {
        let l = read_line(br#"{"id":1}"#, LineEnding::CrLf);
        assert!(l.is_clean());
        assert_eq!(l.violations, vec![Violation::CrLf]);
    }

    #[test]
    fn first_line_of_pretty_print_is_truncated() {
        let l = read_line(b"{", LineEnding::Lf);
        assert!(matches!(l.violations[..], [Violation::Truncated { .. }]));
    }

    #[test]
    fn log_line_is_garbage_with_offset() {
        let l = read_line(b"INFO ready", LineEnding::Lf);
        assert!(matches!(l.violations[..], [Violation::Garbage { offset: 0, .. }]), "{:?}", l.violations);
        let l = read_line(br#"{"id":1} trailing"#, LineEnding::Lf);
        assert!(matches!(l.violations[..], [Violation::TrailingData { offset: 9, .. }]), "{:?}", l.violations);
    }

    #[test]
    fn arrays_and_blank_lines() {
        assert!(matches!(read_line(b"[1]", LineEnding::Lf).violations[..], [Violation::NotAnObject { found: "array" }]));
        assert!(matches!(read_line(b"  ", LineEnding::Lf).violations[..], [Violation::BlankLine]));
    }
}
