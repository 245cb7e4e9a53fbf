//! runok extension requests: one `validateCommand` per process.

use serde_json::{Value, json};

use super::promptkit_exec::overlay;

/// The only method runok calls.
pub const VALIDATE_COMMAND: &str = "validateCommand";

/// `validateCommand` params with the probe's or case's fields laid over a
/// realistic command. runok sends all six fields, always.
pub fn params(fields: &Value) -> Value {
    overlay(
        json!({
            "command": "curl",
            "flags": {"X": "POST", "silent": ""},
            "args": ["https://api.example.com/v1/items?a=1&b=2"],
            "raw_command_line": "curl -X POST --silent https://api.example.com/v1/items?a=1&b=2",
            "env": {"AWS_PROFILE": "dev"},
            "cwd": "/home/user/project",
        }),
        fields,
    )
}
