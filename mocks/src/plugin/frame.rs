//! Framing faults that change the bytes of one reply.
//!
//! Faults about *when* and *how often* bytes are written (log lines, repeats,
//! partial lines, buffering, floods) belong to the serving loop; this module
//! only turns one reply value into the bytes of one frame.

use serde_json::{Map, Value};

use super::config::MockPluginConfig;
use super::fault::Fault;

/// The log line that [`Fault::LogLine`] writes before replies.
pub const LOG_LINE: &str = "starting mock plugin v1\n";
/// Size of the `padding` string added by [`Fault::HugeLine`]: 1.5 MiB, over
/// PicoClaw's 1 MiB line limit and well under PromptKit's 10 MiB.
pub const HUGE_PADDING: usize = 1536 * 1024;
/// Size of the `padding` string added by [`Fault::BigReply`]: 96 KiB, over
/// the 64 KiB pipe buffer and far under every line limit.
pub const BIG_PADDING: usize = 96 * 1024;
const BOM: &[u8] = b"\xEF\xBB\xBF";
/// Unique text placed in a JSON string, then swapped for invalid bytes after
/// serialising (serde_json cannot emit invalid UTF-8 itself).
const MARKER: &str = "\u{E000}proctor-invalid-utf8\u{E000}";
const INVALID_BYTES: &[u8] = b"\xff\xfe";

/// Turns reply values into frames according to the framing faults.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Framer {
    pretty: bool,
    bom: bool,
    crlf: bool,
    invalid_utf8: bool,
    huge: bool,
    big: bool,
}

impl Framer {
    pub(crate) fn new(config: &MockPluginConfig) -> Self {
        Framer {
            pretty: config.has(Fault::PrettyPrint),
            bom: config.has(Fault::Bom),
            crlf: config.has(Fault::Crlf),
            invalid_utf8: config.has(Fault::InvalidUtf8),
            huge: config.has(Fault::HugeLine),
            big: config.has(Fault::BigReply),
        }
    }

    /// The bytes of one reply, with its line terminator when `terminate`.
    ///
    /// `jsonrpc` says whether `reply` is an envelope, whose payload (the
    /// `result`, else the `error`) is where padding and bad bytes go, so the
    /// envelope members stay recognisable.
    pub(crate) fn encode(&self, mut reply: Value, jsonrpc: bool, terminate: bool) -> Vec<u8> {
        if self.invalid_utf8 {
            mark_first_string(payload(&mut reply, jsonrpc));
        }
        if self.huge || self.big {
            let size = if self.huge { HUGE_PADDING } else { BIG_PADDING };
            insert(payload(&mut reply, jsonrpc), "padding", Value::String("p".repeat(size)));
        }
        let text = if self.pretty { serde_json::to_vec_pretty(&reply) } else { serde_json::to_vec(&reply) };
        // Writing a `Value` into memory has no failure mode (keys are strings,
        // numbers are finite), so this never triggers.
        let text = text.expect("serialising a serde_json::Value into memory cannot fail");
        let mut frame = Vec::with_capacity(text.len() + 8);
        if self.bom {
            frame.extend_from_slice(BOM);
        }
        if self.invalid_utf8 {
            splice(&mut frame, &text);
        } else {
            frame.extend_from_slice(&text);
        }
        if terminate {
            frame.extend_from_slice(if self.crlf { b"\r\n" } else { b"\n" });
        }
        frame
    }
}

fn payload(reply: &mut Value, jsonrpc: bool) -> &mut Value {
    if !jsonrpc {
        return reply;
    }
    let key = match reply.as_object() {
        Some(obj) if obj.contains_key("result") => "result",
        Some(obj) if obj.contains_key("error") => "error",
        _ => return reply,
    };
    &mut reply[key]
}

/// Inserts into `target` if it is an object; otherwise replaces a non-object
/// payload (such as `"result": 1`) by an object holding the old value.
fn insert(target: &mut Value, key: &str, value: Value) {
    if !target.is_object() {
        let mut obj = Map::new();
        obj.insert("value".into(), target.take());
        *target = Value::Object(obj);
    }
    if let Some(obj) = target.as_object_mut() {
        obj.insert(key.into(), value);
    }
}

/// Appends the marker to the first string value found depth-first, or adds a
/// `note` member when the payload holds no string at all (`{"allow":true}`).
fn mark_first_string(target: &mut Value) {
    fn visit(v: &mut Value) -> bool {
        match v {
            Value::String(s) => {
                s.push_str(MARKER);
                true
            }
            Value::Array(items) => items.iter_mut().any(visit),
            Value::Object(obj) => obj.values_mut().any(visit),
            _ => false,
        }
    }
    if !visit(target) {
        insert(target, "note", Value::String(MARKER.into()));
    }
}

fn splice(frame: &mut Vec<u8>, text: &[u8]) {
    let marker = MARKER.as_bytes();
    let mut rest = text;
    while let Some(pos) = rest.windows(marker.len()).position(|w| w == marker) {
        frame.extend_from_slice(&rest[..pos]);
        frame.extend_from_slice(INVALID_BYTES);
        rest = &rest[pos + marker.len()..];
    }
    frame.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proctor_conformance::protocol::Family;
    use serde_json::json;

    fn framer(faults: &[Fault]) -> Framer {
        let mut config = MockPluginConfig::new(Family::PromptkitServer);
        config.faults = faults.to_vec();
        Framer::new(&config)
    }

    #[test]
    fn plain_frame_is_compact_with_lf() {
        let bytes = framer(&[]).encode(json!({"a": [1, 2]}), false, true);
        assert_eq!(bytes, b"{\"a\":[1,2]}\n");
        let bytes = framer(&[Fault::Crlf]).encode(json!({}), false, true);
        assert_eq!(bytes, b"{}\r\n");
        let bytes = framer(&[Fault::Bom]).encode(json!({}), false, false);
        assert_eq!(bytes, b"\xEF\xBB\xBF{}");
        let bytes = framer(&[Fault::PrettyPrint]).encode(json!({"a": 1}), false, true);
        assert_eq!(bytes, b"{\n  \"a\": 1\n}\n");
    }

    #[test]
    fn invalid_utf8_lands_inside_a_payload_string() {
        let reply = json!({"jsonrpc": "2.0", "id": 1, "result": {"echo": "hi"}});
        let bytes = framer(&[Fault::InvalidUtf8]).encode(reply, true, true);
        assert!(std::str::from_utf8(&bytes).is_err());
        let pos = bytes.windows(2).position(|w| w == INVALID_BYTES).unwrap();
        assert_eq!(&bytes[pos - 2..pos], b"hi");
        assert_eq!(bytes[pos + 2], b'"');
        assert!(bytes.starts_with(b"{\"") && bytes.windows(5).any(|w| w == b"\"2.0\""));

        let bytes = framer(&[Fault::InvalidUtf8]).encode(json!({"allow": true}), false, true);
        let lossy = String::from_utf8_lossy(&bytes);
        assert!(lossy.contains("\"note\":\"\u{FFFD}\u{FFFD}\""), "{lossy}");
    }

    #[test]
    fn huge_line_pads_the_result_object() {
        let reply = json!({"jsonrpc": "2.0", "id": 1, "result": {"action": "continue"}});
        let bytes = framer(&[Fault::HugeLine]).encode(reply, true, true);
        assert!(bytes.len() > HUGE_PADDING && bytes.len() < HUGE_PADDING + 200);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["result"]["action"], json!("continue"));
        assert_eq!(v["result"]["padding"].as_str().unwrap().len(), HUGE_PADDING);
    }
}
