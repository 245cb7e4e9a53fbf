//! Turning a request into the exact bytes a runtime writes.

use serde_json::Value;

use super::Profile;

/// Serialises `value` as `profile`'s runtime would: compact, Go-style string
/// escaping for the Go runtimes, sorted keys where the runtime sorts them.
///
/// On the hot path of every exchange, so it copies only when it must: no
/// clone of the value unless keys are sorted, no second pass of the text
/// unless it holds a character Go escapes.
pub fn encode(value: &Value, profile: Profile) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(&mut out, value, profile);
    out
}

/// Appends `value` to `out` exactly as [`encode`] writes it, with no buffer of
/// its own: a request line is built in one allocation.
pub fn encode_into(out: &mut Vec<u8>, value: &Value, profile: Profile) {
    if profile.sorted_keys() {
        append(out, &sort_keys(value), profile);
    } else {
        append(out, value, profile);
    }
}

/// Appends `value` as serde_json writes it, with Go's escaping where the
/// profile's runtime is Go. `to_writer`, not Display: the formatting machinery
/// was a measurable share of a serial round trip's own CPU.
pub(crate) fn append<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T, profile: Profile) {
    let start = out.len();
    // Serialising a `Value` or a `str` into memory cannot fail (keys are strings).
    let _ = serde_json::to_writer(&mut *out, value);
    if profile.go_json_escaping() && out[start..].iter().any(|b| matches!(b, b'<' | b'>' | b'&' | 0xE2)) {
        // serde_json writes UTF-8, so the lossy view borrows and replaces nothing.
        let escaped = go_escape(&String::from_utf8_lossy(&out[start..])).into_bytes();
        out.truncate(start);
        out.extend_from_slice(&escaped);
    }
}

/// Sorts object keys recursively (serde_json's order without `preserve_order`).
pub fn sort_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sort_keys(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sort_keys).collect()),
        other => other.clone(),
    }
}

/// Applies Go `encoding/json`'s HTML-safe escaping to JSON text. Outside
/// strings JSON never contains these characters, so a textual replacement
/// is exact.
pub fn go_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn go_runtimes_escape_html_characters() {
        let v = json!({"q": "<b>a & b</b>"});
        assert_eq!(encode(&v, Profile::Promptkit86d9f36), br#"{"q":"\u003cb\u003ea \u0026 b\u003c/b\u003e"}"#);
        assert_eq!(encode(&v, Profile::Documented), br#"{"q":"<b>a & b</b>"}"#);
        let back: Value = serde_json::from_slice(&encode(&v, Profile::PicoclawCf67dd3)).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn runok_sorts_keys_and_documented_keeps_order() {
        let v = json!({"jsonrpc": "2.0", "id": 1, "params": {"z": 1, "a": 2}});
        assert_eq!(encode(&v, Profile::Runok031), br#"{"id":1,"jsonrpc":"2.0","params":{"a":2,"z":1}}"#);
        assert_eq!(encode(&v, Profile::Documented), br#"{"jsonrpc":"2.0","id":1,"params":{"z":1,"a":2}}"#);
    }
}
