//! JSON-RPC 2.0 envelopes, taken apart without normalising anything away.
//!
//! A conformance tool must tell `"id": null` from a missing id, `"id": "1"`
//! from `"id": 1`, and a reply with both `result` and `error` from one with
//! neither. Typed JSON-RPC crates reject or normalise exactly these, so the
//! envelope is read field by field from a `serde_json::Value`.

use std::fmt;

use serde_json::{Number, Value};

use super::line::json_type;

/// The `id` member as it arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Id {
    /// No `id` member.
    Absent,
    /// `"id": null`.
    Null,
    /// A number (integer or not).
    Number(Number),
    /// A string.
    String(String),
    /// Anything else (object, array, boolean).
    Other(String),
}

impl Id {
    /// Reads the `id` member of an object.
    pub fn of(obj: &Value) -> Id {
        match obj.get("id") {
            None => Id::Absent,
            Some(Value::Null) => Id::Null,
            Some(Value::Number(n)) => Id::Number(n.clone()),
            Some(Value::String(s)) => Id::String(s.clone()),
            Some(other) => Id::Other(other.to_string()),
        }
    }

    /// The id as an unsigned integer, when it is one.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Id::Number(n) => n.as_u64(),
            _ => None,
        }
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Absent => f.write_str("(no id)"),
            Id::Null => f.write_str("null"),
            Id::Number(n) => write!(f, "{n}"),
            Id::String(s) => write!(f, "{s:?} (a string)"),
            Id::Other(s) => write!(f, "{s}"),
        }
    }
}

/// Which of `result` and `error` a reply carries.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplyBody {
    /// Only `result`.
    Result(Value),
    /// Only `error`.
    Error(Value),
    /// Both, which JSON-RPC forbids.
    Both,
    /// Neither, which JSON-RPC forbids.
    Neither,
}

impl ReplyBody {
    /// Which of `result` and `error` `message` carries, moved out of it rather
    /// than copied: for callers that keep the body and drop the message (a load
    /// run tallies thousands of replies whose results may be large).
    pub fn take(message: &mut Value) -> ReplyBody {
        let Some(obj) = message.as_object_mut() else { return ReplyBody::Neither };
        match (obj.remove("result"), obj.remove("error")) {
            (Some(r), None) => ReplyBody::Result(r),
            (None, Some(e)) => ReplyBody::Error(e),
            (Some(_), Some(_)) => ReplyBody::Both,
            (None, None) => ReplyBody::Neither,
        }
    }
}

/// A JSON-RPC message's envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// The `jsonrpc` member; `None` when absent.
    pub version: Option<Value>,
    /// The `id` member.
    pub id: Id,
    /// The `method` member, when present (requests and notifications).
    pub method: Option<Value>,
    /// `result` / `error`.
    pub body: ReplyBody,
}

impl Envelope {
    /// Whether `"jsonrpc": "2.0"` is present exactly.
    pub fn version_ok(&self) -> bool {
        self.version.as_ref().and_then(Value::as_str) == Some("2.0")
    }
}

/// Takes a JSON-RPC message apart.
pub fn parse_envelope(obj: &Value) -> Envelope {
    let body = match (obj.get("result"), obj.get("error")) {
        (Some(r), None) => ReplyBody::Result(r.clone()),
        (None, Some(e)) => ReplyBody::Error(e.clone()),
        (Some(_), Some(_)) => ReplyBody::Both,
        (None, None) => ReplyBody::Neither,
    };
    Envelope { version: obj.get("jsonrpc").cloned(), id: Id::of(obj), method: obj.get("method").cloned(), body }
}

/// What is wrong with an `error` member, if anything: it must be an object
/// with an integer `code` and a string `message`.
pub fn error_object_problem(err: &Value) -> Option<String> {
    let Some(obj) = err.as_object() else {
        return Some(format!("`error` is {}, not an object", json_type(err)));
    };
    let code_ok = obj.get("code").and_then(Value::as_i64).is_some();
    let message_ok = obj.get("message").is_some_and(Value::is_string);
    match (code_ok, message_ok) {
        (true, true) => None,
        (false, _) => Some(match obj.get("code") {
            None => "`error.code` is missing".to_string(),
            Some(c) => format!("`error.code` is {} ({c}), not an integer", json_type(c)),
        }),
        (true, false) => Some(match obj.get("message") {
            None => "`error.message` is missing".to_string(),
            Some(m) => format!("`error.message` is {} ({m}), not a string", json_type(m)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_taken_body_is_the_parsed_one() {
        for message in
            [json!({"id": 1, "result": {"a": [1]}}), json!({"error": {"code": 1}}), json!({"result": 1, "error": 2}), json!({}), json!([])]
        {
            let expected = if message.is_object() { parse_envelope(&message).body } else { ReplyBody::Neither };
            assert_eq!(ReplyBody::take(&mut message.clone()), expected, "{message}");
        }
    }

    #[test]
    fn null_absent_and_string_ids_differ() {
        assert_eq!(Id::of(&json!({})), Id::Absent);
        assert_eq!(Id::of(&json!({"id": null})), Id::Null);
        assert_eq!(Id::of(&json!({"id": "1"})), Id::String("1".into()));
        assert_eq!(Id::of(&json!({"id": 1})).as_u64(), Some(1));
        assert_eq!(Id::of(&json!({"id": 1.0})).as_u64(), None);
    }

    #[test]
    fn bodies() {
        assert!(matches!(parse_envelope(&json!({"result": null})).body, ReplyBody::Result(Value::Null)));
        assert_eq!(parse_envelope(&json!({"result": 1, "error": {}})).body, ReplyBody::Both);
        assert_eq!(parse_envelope(&json!({"jsonrpc": "2.0", "id": 1})).body, ReplyBody::Neither);
        assert!(parse_envelope(&json!({"jsonrpc": "2.0"})).version_ok());
        assert!(!parse_envelope(&json!({"jsonrpc": 2.0})).version_ok());
    }

    #[test]
    fn error_objects() {
        assert_eq!(error_object_problem(&json!({"code": -32601, "message": "x"})), None);
        assert!(error_object_problem(&json!({"code": "oops", "message": "x"})).unwrap().contains("not an integer"));
        assert!(error_object_problem(&json!({"code": 1, "message": 42})).unwrap().contains("not a string"));
        assert!(error_object_problem(&json!("boom")).unwrap().contains("not an object"));
    }
}
