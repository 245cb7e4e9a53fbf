//! [`Fault::StrictFields`](super::Fault::StrictFields): a plugin that rejects
//! any request key it was not written for.
//!
//! Runtimes add fields over time, so a plugin must ignore what it does not
//! know. The known keys come from the specs and, where the runtime's wire
//! differs from its docs, from the implementation too (PromptKit hook payloads
//! arrive in PascalCase but are documented in snake_case: both are known, so
//! the fault fires on genuinely new keys, not on the casing mismatch).

use proctor_conformance::protocol::{Family, Role};
use serde_json::{Value, json};

use super::reply::Answer;
use super::rpc::{INVALID_PARAMS, RpcError};

const EXEC_TOOL: &[&str] = &["args"];
const EXEC_EVAL: &[&str] = &["type", "params", "content", "context"];
const EVAL_CONTEXT: &[&str] = &["messages", "turn_index", "tool_calls", "variables", "metadata", "session_id", "prompt_id"];
const EXEC_HOOK: &[&str] = &["hook", "phase", "request", "response", "event"];
const PROVIDER_REQUEST: &[&str] = &[
    "ProviderID",
    "Model",
    "Messages",
    "SystemPrompt",
    "Round",
    "Metadata",
    "Replacement",
    "provider_id",
    "model",
    "messages",
    "system_prompt",
    "round",
    "metadata",
];
const PROVIDER_RESPONSE: &[&str] =
    &["ProviderID", "Model", "Message", "Round", "LatencyMs", "provider_id", "model", "message", "round", "latency_ms"];
const TOOL_REQUEST: &[&str] = &["Name", "Args", "CallID", "name", "args", "call_id"];
const TOOL_RESPONSE: &[&str] = &["Name", "CallID", "Content", "Error", "LatencyMs", "name", "call_id", "content", "error", "latency_ms"];
const SESSION_EVENT: &[&str] = &[
    "SessionID",
    "ConversationID",
    "Messages",
    "TurnIndex",
    "Metadata",
    "session_id",
    "conversation_id",
    "messages",
    "turn_index",
    "metadata",
];
const RPC_ENVELOPE: &[&str] = &["jsonrpc", "id", "method", "params"];
const SERVER_PARAMS: &[&str] = &["args"];
const RUNOK_PARAMS: &[&str] = &["command", "flags", "args", "raw_command_line", "env", "cwd"];

/// The first key of a one-shot PromptKit request that `role` does not know.
///
/// Tool arguments are the LLM's business and never checked; eval hooks write
/// nothing, so they cannot complain.
pub(crate) fn exec_unknown_field(role: Role, request: &Value) -> Option<String> {
    match role {
        Role::Eval => unknown(request, EXEC_EVAL).or_else(|| unknown(&request["context"], EVAL_CONTEXT)),
        Role::ProviderHook => unknown(request, EXEC_HOOK)
            .or_else(|| unknown(&request["request"], PROVIDER_REQUEST))
            .or_else(|| unknown(&request["response"], PROVIDER_RESPONSE)),
        Role::ToolHook => unknown(request, EXEC_HOOK)
            .or_else(|| unknown(&request["request"], TOOL_REQUEST))
            .or_else(|| unknown(&request["response"], TOOL_RESPONSE)),
        Role::SessionHook => unknown(request, EXEC_HOOK).or_else(|| unknown(&request["event"], SESSION_EVENT)),
        Role::EvalHook => None,
        _ => unknown(request, EXEC_TOOL),
    }
}

/// The strict plugin's reply to an unknown key, in `role`'s own vocabulary.
pub(crate) fn exec_rejection(role: Role, field: &str) -> Answer {
    let why = format!("unknown field {field}");
    Answer::Result(match role {
        Role::Eval => json!({"score": 0.0, "detail": why, "data": {}}),
        Role::ProviderHook | Role::ToolHook | Role::SessionHook => {
            json!({"allow": false, "reason": why})
        }
        Role::EvalHook => return Answer::Nothing,
        _ => json!({"error": why}),
    })
}

/// The first key of a JSON-RPC message (envelope, then params) that the
/// family's plugin does not know. PicoClaw params grow too often to pin, so
/// only its envelope is checked.
pub(crate) fn rpc_unknown_field(family: Family, message: &Value) -> Option<String> {
    let params = match family {
        Family::PromptkitServer => SERVER_PARAMS,
        Family::RunokExtension => RUNOK_PARAMS,
        Family::PicoclawHook | Family::PromptkitExec | Family::ClaudeCodeHook | Family::CodexHook => &[],
    };
    unknown(message, RPC_ENVELOPE).or_else(|| if params.is_empty() { None } else { unknown(&message["params"], params) })
}

/// The strict plugin's JSON-RPC error for an unknown key.
pub(crate) fn rpc_rejection(field: &str) -> Answer {
    Answer::Error(RpcError::new(INVALID_PARAMS, format!("unknown field {field}")))
}

/// Non-objects (including a missing member, seen as `null`) have no keys.
fn unknown(value: &Value, known: &[&str]) -> Option<String> {
    value.as_object()?.keys().find(|k| !known.contains(&k.as_str())).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_requests() {
        assert_eq!(exec_unknown_field(Role::Tool, &json!({"args": {"anything": 1}})), None);
        assert_eq!(exec_unknown_field(Role::Tool, &json!({"args": {}, "x": 1})), Some("x".into()));
        let hook = json!({"hook": "tool", "phase": "before_execution",
            "request": {"Name": "t", "Args": null, "CallID": "c"}});
        assert_eq!(exec_unknown_field(Role::ToolHook, &hook), None);
        let hook = json!({"hook": "tool", "phase": "p", "request": {"Name": "t", "Extra": 1}});
        assert_eq!(exec_unknown_field(Role::ToolHook, &hook), Some("Extra".into()));
        let eval = json!({"type": "t", "content": "c", "context": {"turn_index": 1, "new": 2}});
        assert_eq!(exec_unknown_field(Role::Eval, &eval), Some("new".into()));
        assert_eq!(exec_rejection(Role::Tool, "x"), Answer::Result(json!({"error": "unknown field x"})));
    }

    #[test]
    fn rpc_messages() {
        let runok = json!({"jsonrpc": "2.0", "id": 1, "method": "validateCommand",
            "params": {"command": "ls", "flags": {}, "args": [], "raw_command_line": "ls",
                       "env": {}, "cwd": "/", "shell": "bash"}});
        assert_eq!(rpc_unknown_field(Family::RunokExtension, &runok), Some("shell".into()));
        let pico = json!({"jsonrpc": "2.0", "id": 1, "method": "hook.before_tool",
            "params": {"anything": 1}});
        assert_eq!(rpc_unknown_field(Family::PicoclawHook, &pico), None);
        let extra = json!({"jsonrpc": "2.0", "id": 1, "method": "execute", "trace": 1});
        assert_eq!(rpc_unknown_field(Family::PromptkitServer, &extra), Some("trace".into()));
    }
}
