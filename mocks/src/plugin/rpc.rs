//! The JSON-RPC 2.0 vocabulary the mock needs to read requests and name errors.
//!
//! Kept apart from the answers so that both the well-behaved replies and the
//! faulty envelopes agree on what a request, a notification and an error are.

use serde_json::{Value, json};

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist or is not served by the configured roles.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters (the mock's strict mode uses it for unknown fields).
pub const INVALID_PARAMS: i64 = -32602;
/// Implementation-defined server error; PicoClaw and PromptKit both use it.
pub const SERVER_ERROR: i64 = -32000;

/// A JSON-RPC error object, before any fault bends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    /// The error code (see the constants in this module).
    pub code: i64,
    /// A human-readable message.
    pub message: String,
}

impl RpcError {
    /// An error with an arbitrary code.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into() }
    }

    /// The reply to a method the plugin does not serve.
    pub fn method_not_found(method: &str) -> Self {
        RpcError::new(METHOD_NOT_FOUND, format!("method not found: {method}"))
    }

    /// The error object as it goes on the wire.
    pub fn to_value(&self) -> Value {
        json!({"code": self.code, "message": self.message})
    }
}

/// One message from the host, classified the way a careful plugin would.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// Has an `id` (any JSON type the host chose, echoed back as is): needs a reply.
    Request {
        /// The id, to echo with the same value and JSON type.
        id: Value,
        /// The method name.
        method: String,
        /// The params, `null` when absent.
        params: Value,
    },
    /// Has no `id` member: must not be answered.
    Notification {
        /// The method name.
        method: String,
        /// The params, `null` when absent.
        params: Value,
    },
    /// Not a request at all; answered with this error and this id (`null` if unknown).
    Invalid {
        /// The request's id if one could be read, else `null`.
        id: Value,
        /// Parse error or invalid request.
        error: RpcError,
    },
}

/// Parses one message's bytes; garbage becomes a -32700 error, to be sent
/// with id `null` because no id could be read.
pub fn parse(bytes: &[u8]) -> Result<Value, RpcError> {
    serde_json::from_slice(bytes).map_err(|err| RpcError::new(PARSE_ERROR, format!("parse error: {err}")))
}

/// Sorts a parsed message into request, notification or invalid request.
///
/// An `"id": null` member still makes a request (JSON-RPC 2.0 discourages it
/// but allows it); only an absent `id` makes a notification.
pub fn classify(message: &Value) -> Incoming {
    let Some(obj) = message.as_object() else {
        return invalid(Value::Null, "message is not a JSON object");
    };
    let id = obj.get("id").cloned();
    if let Some(id) = &id
        && !(id.is_number() || id.is_string() || id.is_null())
    {
        return invalid(Value::Null, "id must be a number, a string or null");
    }
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return invalid(id.unwrap_or(Value::Null), "method is missing or not a string");
    };
    let method = method.to_string();
    let params = obj.get("params").cloned().unwrap_or(Value::Null);
    match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    }
}

fn invalid(id: Value, why: &str) -> Incoming {
    Incoming::Invalid { id, error: RpcError::new(INVALID_REQUEST, format!("invalid request: {why}")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_notifications_and_garbage() {
        let req = json!({"jsonrpc":"2.0","id":"a","method":"execute","params":{"args":{}}});
        assert_eq!(classify(&req), Incoming::Request { id: json!("a"), method: "execute".into(), params: json!({"args":{}}) });
        let note = json!({"jsonrpc":"2.0","method":"hook.event"});
        assert_eq!(classify(&note), Incoming::Notification { method: "hook.event".into(), params: Value::Null });
        let Incoming::Invalid { id, error } = classify(&json!({"id": 4})) else { panic!() };
        assert_eq!((id, error.code), (json!(4), INVALID_REQUEST));
        let Incoming::Invalid { error, .. } = classify(&json!([1])) else { panic!() };
        assert_eq!(error.code, INVALID_REQUEST);
        let error = parse(b"{not json").unwrap_err();
        assert_eq!(error.code, PARSE_ERROR);
        assert!(error.message.starts_with("parse error: "), "{}", error.message);
    }

    #[test]
    fn null_id_is_a_request() {
        let Incoming::Request { id, .. } = classify(&json!({"id":null,"method":"m"})) else { panic!() };
        assert_eq!(id, Value::Null);
    }
}
