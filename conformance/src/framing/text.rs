//! The steps every framing reader shares: strip and note a BOM, repair and
//! note invalid UTF-8, and find the first JSON value with its extent.

use std::borrow::Cow;

use serde_json::Value;

use super::violation::{Violation, excerpt};
use crate::gojson::value::SHOWN_DEPTH;
use crate::gojson::{self, GoJsonError};

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
        Some(Err(e)) if too_deep_for_serde(&e) => deep_value(text, base, violations),
        // Valid JSON text, but a number no runtime holds (Go's float64 and
        // serde's f64 both refuse `1e400`): said as such, not "not JSON".
        Some(Err(e)) if e.to_string().starts_with("number out of range") => {
            let offset = offset_of(text, e.line(), e.column());
            violations.push(Violation::NumberOutOfRange { offset: base + offset, excerpt: excerpt(text.as_bytes(), offset) });
            None
        }
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

/// serde_json stops at 128 levels of nesting; JSON does not, and Go's
/// decoder (PromptKit's, PicoClaw's) reads 10000.
fn too_deep_for_serde(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// The first value of `text` when it nests deeper than serde reads: found
/// as Go's decoder finds it, and read by serde with arrays and objects
/// past [`SHOWN_DEPTH`] levels shown empty (numbers stay exact).
/// Deeper than Go's 10000 levels is noted as `TooDeep`.
fn deep_value(text: &str, base: usize, violations: &mut Vec<Violation>) -> Option<(Value, usize)> {
    let bytes = text.as_bytes();
    match gojson::scan::first_value_end(bytes) {
        Ok(end) => match serde_json::from_slice(&clipped(&bytes[..end])) {
            Ok(v) => Some((v, end)),
            // Valid JSON that serde still refuses (a number past f64).
            Err(_) => {
                violations.push(Violation::Garbage { offset: base, excerpt: excerpt(bytes, 0) });
                None
            }
        },
        Err(GoJsonError::SyntaxError { msg, .. }) if msg == "unexpected end of JSON input" => {
            violations.push(Violation::Truncated { excerpt: excerpt(bytes, 0) });
            None
        }
        Err(e) => {
            // Go's offset counts the offending byte.
            let offset = match &e {
                GoJsonError::SyntaxError { offset, .. } => (*offset as usize).saturating_sub(1).min(bytes.len()),
                _ => 0,
            };
            violations.push(if e.is_max_depth() {
                Violation::TooDeep { offset: base + offset, limit: gojson::scan::MAX_DEPTH }
            } else {
                Violation::Garbage { offset: base + offset, excerpt: excerpt(bytes, offset) }
            });
            None
        }
    }
}

/// `value` (one valid JSON value) with every array and object nested
/// deeper than [`SHOWN_DEPTH`] emptied, so serde reads it and nothing that
/// recurses over it later can overflow a stack.
fn clipped(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len().min(1 << 16));
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &c in value {
        let level = match c {
            _ if in_string => {
                if escaped {
                    escaped = false;
                } else if c == b'\\' {
                    escaped = true;
                } else if c == b'"' {
                    in_string = false;
                }
                depth
            }
            b'"' => {
                in_string = true;
                depth
            }
            b'[' | b'{' => {
                depth += 1;
                depth - 1
            }
            b']' | b'}' => {
                depth -= 1;
                depth
            }
            _ => depth,
        };
        if level <= SHOWN_DEPTH {
            out.push(c);
        }
    }
    out
}

/// `bytes` as exactly one JSON value (surrounding whitespace allowed), read
/// as deep as Go reads; `None` when they are not. For plugin output that
/// is not judged for framing here (a raw result, joined lines).
pub fn read_value(bytes: &[u8]) -> Option<Value> {
    match serde_json::from_slice(bytes) {
        Ok(v) => Some(v),
        Err(e) if too_deep_for_serde(&e) => {
            let end = gojson::scan::first_value_end(bytes).ok()?;
            if !bytes[end..].iter().all(u8::is_ascii_whitespace) {
                return None;
            }
            serde_json::from_slice(&clipped(&bytes[..end])).ok()
        }
        Err(_) => None,
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
