//! One-shot framing: all of stdout must be exactly one JSON document.
//!
//! This mirrors what the runtimes accept: Go's `json.Unmarshal` (PromptKit)
//! and `serde_json::from_str` (runok) both take one value with optional
//! surrounding whitespace, and nothing else.

use serde_json::Value;

use super::text::{decode, first_value, trailing};
use super::violation::Violation;

/// What a one-shot plugin's stdout held.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The first JSON value proctor could recover (after a BOM or a lossy
    /// UTF-8 repair), for the semantic checks; `None` when there is none.
    pub value: Option<Value>,
    /// Every framing problem found; empty when the runtime would read it.
    pub violations: Vec<Violation>,
}

impl Document {
    /// Whether the runtime would read this output as one document.
    pub fn is_clean(&self) -> bool {
        self.violations.iter().all(|v| matches!(v, Violation::MultiLine { .. }))
    }

    /// The value, when the runtime would read it (clean framing).
    pub fn into_readable(self) -> Option<Value> {
        if self.is_clean() { self.value } else { None }
    }
}

/// Classifies the whole of a one-shot plugin's stdout.
pub fn read_document(bytes: &[u8]) -> Document {
    let mut violations = Vec::new();
    let (text, base) = decode(bytes, &mut violations);
    if text.trim().is_empty() {
        violations.push(Violation::Empty);
        return Document { value: None, violations };
    }
    let Some((value, end)) = first_value(&text, base, &mut violations) else {
        return Document { value: None, violations };
    };
    let lines = text[..end].trim().lines().count();
    if lines > 1 {
        violations.push(Violation::MultiLine { lines });
    }
    trailing(&text, end, base, &mut violations);
    Document { value: Some(value), violations }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(bytes: &[u8]) -> Vec<String> {
        read_document(bytes).violations.iter().map(|v| format!("{v:?}").split([' ', '{']).next().unwrap().to_string()).collect()
    }

    #[test]
    fn one_document_with_or_without_newline_is_clean() {
        assert!(read_document(br#"{"result":1}"#).is_clean());
        assert!(read_document(b"{\"result\":1}\n").is_clean());
        assert_eq!(read_document(b"  {\"a\":1}  \n").value.unwrap()["a"], 1);
    }

    #[test]
    fn log_line_before_json_is_garbage_at_offset_zero() {
        let doc = read_document(b"loading data...\n{\"result\":1}\n");
        assert!(doc.value.is_none());
        assert!(matches!(doc.violations[0], Violation::Garbage { offset: 0, .. }), "{:?}", doc.violations);
    }

    #[test]
    fn two_documents_report_the_offset_of_the_second() {
        let doc = read_document(b"{\"a\":1}\n{\"a\":2}\n");
        assert_eq!(doc.value.unwrap()["a"], 1);
        assert!(matches!(doc.violations[..], [Violation::TrailingData { offset: 8, .. }]), "{:?}", doc.violations);
    }

    #[test]
    fn pretty_printed_is_readable_but_flagged() {
        let doc = read_document(b"{\n  \"a\": 1\n}\n");
        assert!(doc.is_clean());
        assert_eq!(doc.violations, vec![Violation::MultiLine { lines: 3 }]);
    }

    #[test]
    fn nesting_deeper_than_serde_reads_is_one_document_up_to_gos_limit() {
        let nested = |depth: usize| format!("{{\"score\":1,\"detail\":{}{}}}", "[".repeat(depth), "]".repeat(depth));
        let doc = read_document(nested(9998).as_bytes());
        assert!(doc.is_clean(), "{:?}", doc.violations);
        let value = doc.value.unwrap();
        assert_eq!(value["score"].as_u64(), Some(1), "numbers stay exact");
        // Shown to 100 levels, the rest emptied, so nothing later recurses 10000 deep.
        let mut level = &value["detail"];
        let mut shown = 1;
        while let Some(inner) = level.as_array().and_then(|a| a.first()) {
            level = inner;
            shown += 1;
        }
        // The object is level 1, so `detail` shows levels 2 to 101, the last one empty.
        assert_eq!((shown, level), (100, &serde_json::json!([])));

        // The object is the first level, so the 10000th bracket (byte 10019) is one too many.
        let doc = read_document(nested(10001).as_bytes());
        assert!(matches!(doc.violations[..], [Violation::TooDeep { offset: 10019, limit: 10000 }]), "{:?}", doc.violations);
        assert_eq!(kinds(format!("{}1,]", "[".repeat(200)).as_bytes()), ["Garbage"]);
        assert_eq!(kinds("[".repeat(200).as_bytes()), ["Truncated"]);
        assert_eq!(kinds(b"{\"id\":1e400}"), ["NumberOutOfRange"]);
    }

    #[test]
    fn bom_utf8_empty_truncated() {
        assert_eq!(kinds(b"\xEF\xBB\xBF{\"a\":1}"), ["Bom"]);
        assert_eq!(kinds(b"{\"a\":\"\xff\"}"), ["NotUtf8"]);
        assert!(matches!(read_document(b"{\"a\":\"\xff\"}").violations[0], Violation::NotUtf8 { offset: 6 }));
        assert_eq!(kinds(b" \n"), ["Empty"]);
        assert_eq!(kinds(b"{\"a\":"), ["Truncated"]);
    }
}
