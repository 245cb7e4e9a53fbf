//! What runok 0.3.1 reads of an extension's reply.
//!
//! runok waits for the extension to exit, takes the whole of stdout through
//! `String::from_utf8_lossy`, and parses it with `serde_json::from_str` into
//! its own `JsonRpcResponse` (src/exec/extension_runner.rs:22-46, the parse at
//! :144-162). So serde's rules decide, not the JSON as written: keys match
//! exactly, a known key given twice fails the reply, unknown keys (`id`,
//! `jsonrpc`, `Message`) are ignored, `null` is an absent `Option`, a struct
//! may be written as an array of its fields, nesting stops at 128 levels, and
//! only whitespace may follow the document. Then an `error` wins over a
//! `result`, and a reply with neither fails.
//!
//! The model is serde_json itself, decoding into types declared field for
//! field as runok declares them (the same crate runok pins, `=1.0.150`, whose
//! typed decoding has not changed since). interop/fidelity.sh holds it to
//! runok's own runner on generated replies (`--only differential --family
//! runok-extension`).

use serde::Deserialize;
use serde_json::{Map, Value};

/// runok `ExtensionResponse` (extension_runner.rs:22-28).
#[derive(Deserialize)]
struct ExtensionResponse {
    status: String,
    message: Option<String>,
    fix_suggestion: Option<String>,
}

/// runok `JsonRpcResponse` (extension_runner.rs:30-35).
#[derive(Deserialize)]
struct JsonRpcResponse {
    result: Option<ExtensionResponse>,
    error: Option<JsonRpcError>,
}

/// runok `JsonRpcError` (extension_runner.rs:37-46): `code` is never used,
/// but a value of the wrong type there fails the reply all the same.
#[derive(Deserialize)]
struct JsonRpcError {
    #[allow(dead_code)]
    code: Option<i64>,
    message: Option<String>,
}

/// A reply runok could read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunokReading {
    /// The envelope as runok holds it, in the documented shape the judges
    /// read: `jsonrpc` and `id` as written (runok never reads them), `result`
    /// as the fields it decoded (an array-written result becomes an object),
    /// `error` likewise; a `null` or absent member is left out.
    pub envelope: Value,
    /// `result` as written (runok reads only the exact three keys of it, so
    /// another spelling is ignored); `Null` when there was none.
    pub written_result: Value,
}

/// What runok makes of `stdout`: the reading, or runok's own error text
/// (`ExtensionError::InvalidResponse`), after which it asks the user.
/// An error reply is a reading: runok turns it into the error
/// `JSON-RPC error: …` too, but the plugin said so on purpose.
pub(crate) fn read(stdout: &[u8]) -> Result<RunokReading, String> {
    let text = String::from_utf8_lossy(stdout);
    let typed: JsonRpcResponse = serde_json::from_str(&text).map_err(|e| format!("JSON parse error: {e}"))?;
    // The same text as a plain value, for what runok does not type (`id`,
    // `jsonrpc`, the keys written). It parses unless a number past f64 sits
    // where runok skips it unread; then only the typed members are shown.
    let written: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if typed.error.is_none() && typed.result.is_none() {
        return Err("missing 'result' field in JSON-RPC response".into());
    }
    let mut envelope = Map::new();
    for key in ["jsonrpc", "id"] {
        if let Some(v) = written.get(key) {
            envelope.insert(key.into(), v.clone());
        }
    }
    if let Some(r) = &typed.result {
        let mut result = Map::new();
        result.insert("status".into(), Value::String(r.status.clone()));
        for (key, value) in [("message", &r.message), ("fix_suggestion", &r.fix_suggestion)] {
            if let Some(s) = value {
                result.insert(key.into(), Value::String(s.clone()));
            }
        }
        envelope.insert("result".into(), Value::Object(result));
    }
    if let Some(e) = &typed.error {
        // What a documented reader needs to see an error object: the code as
        // written (runok only checks its type), the message as decoded.
        let mut error = Map::new();
        if let Some(code) = written.get("error").and_then(|e| e.get("code")).filter(|c| !c.is_null()) {
            error.insert("code".into(), code.clone());
        }
        if let Some(m) = &e.message {
            error.insert("message".into(), Value::String(m.clone()));
        }
        envelope.insert("error".into(), Value::Object(error));
    }
    let written_result = written.get("result").cloned().unwrap_or(Value::Null);
    Ok(RunokReading { envelope: Value::Object(envelope), written_result })
}

/// The fields of runok's `ExtensionResponse`, as it spells them.
pub(crate) const RESULT_FIELDS: [&str; 3] = ["status", "message", "fix_suggestion"];

/// Each key of a written `result` that holds a string runok will never see
/// for the key's spelling, with the field it was meant to be.
pub(crate) fn misspelt_fields(written_result: &Value) -> Vec<(String, &'static str)> {
    let Some(obj) = written_result.as_object() else { return Vec::new() };
    // Only strings: every field is one, and a key holding anything else
    // says nothing runok would show even when spelt right.
    obj.iter().filter(|(_, v)| v.is_string()).filter_map(|(k, _)| misspelt_field(k).map(|f| (k.clone(), f))).collect()
}

/// The field a key was meant to be, when runok will ignore it for its
/// spelling: the same letters in another case (Unicode folding included:
/// `ſtatus`), or with `_`/`-` moved or dropped (`fixSuggestion`,
/// `fix-suggestion`). `None` for an exact field name or an unrelated key.
fn misspelt_field(key: &str) -> Option<&'static str> {
    if RESULT_FIELDS.contains(&key) {
        return None;
    }
    let bare = |s: &str| crate::gojson::fold::fold_name(&s.replace(['_', '-'], ""));
    let wanted = bare(key);
    RESULT_FIELDS.into_iter().find(|f| bare(f) == wanted)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn reads(text: &str) -> Result<Value, String> {
        read(text.as_bytes()).map(|r| r.envelope)
    }

    #[test]
    fn serdes_rules_not_the_documents() {
        let ok = reads(r#"{"jsonrpc":"2.0","id":1,"result":{"status":"deny","message":"no","x":[1]}}"#).unwrap();
        assert_eq!(ok, json!({"jsonrpc": "2.0", "id": 1, "result": {"status": "deny", "message": "no"}}));
        // A number past f64 where runok types nothing is skipped unread; only
        // what runok typed can then be shown.
        let huge = reads(r#"{"jsonrpc":"2.0","id":1e999,"result":{"status":"deny"}}"#).unwrap();
        assert_eq!(huge, json!({"result": {"status": "deny"}}));
        // null is an absent Option; an array is a struct written by position.
        let null_error = reads(r#"{"result":{"status":"allow"},"error":null}"#).unwrap();
        assert_eq!(null_error, json!({"result": {"status": "allow"}}));
        assert_eq!(reads(r#"{"result":["ask","why",null]}"#).unwrap(), json!({"result": {"status": "ask", "message": "why"}}));
        // Exact keys; a known key twice; text after the document; a missing result.
        assert!(reads(r#"{"result":{"Status":"allow"}}"#).unwrap_err().contains("missing field `status`"));
        assert!(reads(r#"{"result":{"status":"allow","status":"allow"}}"#).unwrap_err().contains("duplicate field `status`"));
        assert!(reads("{\"result\":{\"status\":\"allow\"}}\n{}").unwrap_err().contains("trailing characters"));
        assert_eq!(reads(r#"{"result":null}"#).unwrap_err(), "missing 'result' field in JSON-RPC response");
        // A wrong type in a field runok never uses still fails.
        assert!(reads(r#"{"result":{"status":"allow"},"error":{"code":1.5}}"#).is_err());
        // Invalid UTF-8 inside a string is U+FFFD; outside one it is not JSON.
        assert!(read(b"{\"result\":{\"status\":\"allow\",\"message\":\"a\xff\"}}").is_ok());
        assert!(read(b"{\"result\":{\"status\":\"allow\"}}\xff").is_err());
    }

    #[test]
    fn an_error_keeps_its_code_as_written() {
        let e = reads(r#"{"id":1,"error":{"code":-32000,"message":"boom"}}"#).unwrap();
        assert_eq!(e, json!({"id": 1, "error": {"code": -32000, "message": "boom"}}));
    }

    #[test]
    fn misspellings_are_named() {
        assert_eq!(misspelt_field("Message"), Some("message"));
        assert_eq!(misspelt_field("fixSuggestion"), Some("fix_suggestion"));
        assert_eq!(misspelt_field("fix-suggestion"), Some("fix_suggestion"));
        assert_eq!(misspelt_field("\u{17f}tatus"), Some("status"));
        assert_eq!(misspelt_field("message"), None);
        assert_eq!(misspelt_field("note"), None);
        let written = json!({"status": "deny", "Message": "why", "fixSuggestion": {}, "FIX_SUGGESTION": null});
        assert_eq!(misspelt_fields(&written), [("Message".to_string(), "message")]);
    }
}
