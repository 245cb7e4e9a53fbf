//! Line framing: each line of stdout must be exactly one JSON object.

use serde_json::Value;

use super::text::{decode, first_value, trailing};
use super::violation::Violation;
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
    let (text, base) = decode(bytes, &mut violations);
    if text.trim().is_empty() {
        violations.push(Violation::BlankLine);
        return Line { value: None, violations };
    }
    let Some((value, end)) = first_value(&text, base, &mut violations) else {
        return Line { value: None, violations };
    };
    trailing(&text, end, base, &mut violations);
    if !value.is_object() {
        violations.push(Violation::NotAnObject { found: json_type(&value) });
        return Line { value: None, violations };
    }
    Line { value: Some(value), violations }
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
