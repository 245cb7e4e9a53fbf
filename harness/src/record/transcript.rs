//! The transcript: every message on every channel, in order. It is what a
//! scenario's snapshot holds, so it is plain data with stable field order.

use serde::Serialize;
use serde_json::Value;

/// One message on one channel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// `user`, `llm`, `plugin <name>`, `tool <name>` or `runtime`.
    pub channel: String,
    /// request, reply, stdin, stdout, stderr, decision, event, result, error.
    pub kind: String,
    /// The content: text exactly as it crossed the channel, or structured data.
    pub body: Value,
}

/// Everything that happened in a run, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Transcript {
    /// The entries.
    pub entries: Vec<Entry>,
}

impl Transcript {
    /// Appends an entry.
    pub fn push(&mut self, channel: impl Into<String>, kind: &str, body: impl Into<Value>) {
        self.entries.push(Entry { channel: channel.into(), kind: kind.to_string(), body: body.into() });
    }

    /// Appends bytes that crossed a pipe, as text (lossy UTF-8), unless empty.
    pub fn bytes(&mut self, channel: impl Into<String>, kind: &str, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.push(channel, kind, String::from_utf8_lossy(bytes).into_owned());
        }
    }

    /// Replaces `pattern` with `with` in every string of the transcript.
    pub fn redact(&mut self, pattern: &str, with: &str) {
        if pattern.is_empty() {
            return;
        }
        for e in &mut self.entries {
            redact_value(&mut e.body, pattern, with);
        }
    }
}

fn redact_value(v: &mut Value, pattern: &str, with: &str) {
    match v {
        Value::String(s) if s.contains(pattern) => *s = s.replace(pattern, with),
        Value::Array(items) => items.iter_mut().for_each(|x| redact_value(x, pattern, with)),
        Value::Object(map) => map.values_mut().for_each(|x| redact_value(x, pattern, with)),
        _ => {}
    }
}
