//! The steps every framing reader shares: strip and note a BOM, repair and
//! note invalid UTF-8, and find the first JSON value with its extent.

use std::borrow::Cow;

use serde_json::Value;

use super::violation::{Violation, excerpt};

/// `bytes` as text, after a BOM (noted) and lossy UTF-8 repair (noted), and
/// the byte offset at which the text starts in `bytes`.
pub(crate) fn decode<'a>(bytes: &'a [u8], violations: &mut Vec<Violation>) -> (Cow<'a, str>, usize) {
    let mut body = bytes;
    if let Some(rest) = body.strip_prefix(b"\xEF\xBB\xBF") {
        violations.push(Violation::Bom);
        body = rest;
    }
    let base = bytes.len() - body.len();
    let text = match std::str::from_utf8(body) {
        Ok(t) => Cow::Borrowed(t),
        Err(e) => {
            violations.push(Violation::NotUtf8 { offset: base + e.valid_up_to() });
            String::from_utf8_lossy(body)
        }
    };
    (text, base)
}

/// The first JSON value in `text` and the offset just past it; a failure is
/// noted as `Truncated` (the value stops early) or `Garbage` (with its
/// offset, shifted by `base`).
pub(crate) fn first_value(text: &str, base: usize, violations: &mut Vec<Violation>) -> Option<(Value, usize)> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Ok(v)) => Some((v, stream.byte_offset())),
        Some(Err(e)) if e.is_eof() => {
            violations.push(Violation::Truncated { excerpt: excerpt(text.as_bytes(), 0) });
            None
        }
        Some(Err(e)) => {
            let offset = offset_of(text, e.line(), e.column());
            violations.push(Violation::Garbage { offset: base + offset, excerpt: excerpt(text.as_bytes(), offset) });
            None
        }
        None => None,
    }
}

/// Notes anything but whitespace after `end` as trailing data.
pub(crate) fn trailing(text: &str, end: usize, base: usize, violations: &mut Vec<Violation>) {
    if let Some(skip) = text[end..].find(|c: char| !c.is_whitespace()) {
        let offset = end + skip;
        violations.push(Violation::TrailingData { offset: base + offset, excerpt: excerpt(text.as_bytes(), offset) });
    }
}

/// Byte offset of a 1-based (line, column) position reported by serde_json.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}
