//! PromptKit server-mode tool requests: method `execute`, params `{"args": …}`.

use serde_json::{Value, json};

use super::promptkit_exec::overlay;

/// The only method PromptKit's server executor ever calls.
pub const EXECUTE: &str = "execute";

/// `execute` params with the probe's or case's `args` laid over realistic defaults.
pub fn params(fields: &Value) -> Value {
    overlay(json!({"args": {"key": "greeting", "value": "hello <world> & co"}}), fields)
}
