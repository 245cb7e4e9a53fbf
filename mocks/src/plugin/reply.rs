//! What a well-behaved plugin answers, per family, role and method.
//!
//! These are pure functions from request JSON to reply JSON, with no faults
//! and no I/O, so they double as the reference answers proctor compares
//! against and can be tested without spawning anything. The shapes follow the
//! runtimes as implemented (see `shared/research`), not only their docs: the
//! PicoClaw `modify` payloads are whole nested objects, for instance.

use proctor_conformance::protocol::{Family, Role};
use serde_json::{Value, json};

use super::config::Decision;
use super::rpc::{self, Incoming, RpcError, SERVER_ERROR};

/// The reason and message a denying mock gives, so checks can look for it.
pub const DENY_REASON: &str = "denied by mock";

/// A plugin's answer to one request, before it is wrapped and framed.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A one-shot document (`promptkit-exec`) or a JSON-RPC `result`.
    Result(Value),
    /// A JSON-RPC `error` object.
    Error(RpcError),
    /// Nothing is written: notifications, eval hooks.
    Nothing,
}

/// Picks the PromptKit exec role that `request` is addressed to.
///
/// One configured role is trusted as is. With several, the request tells:
/// hooks name themselves in `hook`, tools send `args`, eval hooks receive an
/// eval result (`eval_id`), evals send `content`/`context`. Anything else, or
/// no request at all, falls back to the first role.
pub fn exec_role(request: Option<&Value>, roles: &[Role]) -> Role {
    let first = roles.first().copied().unwrap_or(Role::Tool);
    let (Some(obj), true) = (request.and_then(Value::as_object), roles.len() > 1) else {
        return first;
    };
    let guess = match obj.get("hook").and_then(Value::as_str) {
        Some("provider") => Some(Role::ProviderHook),
        Some("tool") => Some(Role::ToolHook),
        Some("session") => Some(Role::SessionHook),
        _ if obj.contains_key("args") => Some(Role::Tool),
        _ if obj.contains_key("query") && obj.contains_key("candidates") => Some(Role::Selector),
        _ if obj.contains_key("eval_id") || obj.contains_key("duration_ms") => Some(Role::EvalHook),
        _ if obj.contains_key("content") || obj.contains_key("context") => Some(Role::Eval),
        _ => None,
    };
    guess.filter(|role| roles.contains(role)).unwrap_or(first)
}

/// The one-shot PromptKit answer for `role`.
///
/// Roles of other families are answered like a tool, the most common shape.
pub fn exec_answer(role: Role, decision: Decision, request: &Value) -> Answer {
    let doc = match role {
        Role::Eval => {
            let score = if decision == Decision::Deny { 0.1 } else { 0.9 };
            json!({"score": score, "detail": "mock", "data": {}})
        }
        Role::ProviderHook | Role::ToolHook => filter_decision(decision),
        Role::SessionHook => json!({"ack": true}),
        Role::EvalHook => return Answer::Nothing,
        Role::Selector => {
            // The first k candidates, read in either key style (PromptKit sends `ID`, `K`).
            let ids = candidate_ids(request);
            let k = request.get("query").and_then(|q| q.get("k").or_else(|| q.get("K"))).and_then(Value::as_u64).unwrap_or(u64::MAX);
            let selected: Vec<&String> = if decision == Decision::Deny { Vec::new() } else { ids.iter().take(k as usize).collect() };
            json!({"selected": selected, "reason": "mock: the first k"})
        }
        _ => match decision {
            Decision::Deny => json!({"error": DENY_REASON}),
            Decision::Pending => {
                json!({"pending": {"reason": "requires_approval", "message": "mock pending"}})
            }
            _ => json!({"result": {"echo": request.get("args").cloned().unwrap_or(Value::Null)}}),
        },
    };
    Answer::Result(doc)
}

/// The candidate ids of a selector request, `id` or Go's `ID`.
pub(crate) fn candidate_ids(request: &Value) -> Vec<String> {
    request
        .get("candidates")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("id").or_else(|| c.get("ID")).and_then(Value::as_str).map(String::from))
        .collect()
}

fn filter_decision(decision: Decision) -> Value {
    if decision == Decision::Deny { json!({"allow": false, "reason": DENY_REASON}) } else { json!({"allow": true}) }
}

/// What a robust one-shot PromptKit plugin says when stdin is not JSON.
///
/// Filter hooks fail closed; session hooks only observe, so they still ack.
pub fn exec_unreadable(role: Role, detail: &str) -> Answer {
    let why = format!("invalid request JSON: {detail}");
    Answer::Result(match role {
        Role::Eval => json!({"score": 0.0, "detail": why, "data": {}}),
        Role::ProviderHook | Role::ToolHook => json!({"allow": false, "reason": why}),
        Role::SessionHook => json!({"ack": true}),
        Role::EvalHook => return Answer::Nothing,
        _ => json!({"error": why}),
    })
}

/// What a `while read` plugin says when it saw no complete line: plausible
/// defaults that hide the lost request ([`Fault::NeedsNewline`](super::Fault::NeedsNewline)).
pub fn exec_no_input(role: Role) -> Answer {
    Answer::Result(match role {
        Role::Eval => json!({"score": 0.0, "detail": "no input", "data": {}}),
        Role::ProviderHook | Role::ToolHook => json!({"allow": true}),
        Role::SessionHook => json!({"ack": true}),
        Role::EvalHook => return Answer::Nothing,
        _ => json!({"error": "no input"}),
    })
}

/// The runok reply of a `while read` extension that saw no complete line.
pub fn runok_no_input() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": {"status": "ask"}})
}

/// The answer of a JSON-RPC family to one request (not a notification).
pub fn rpc_answer(family: Family, roles: &[Role], decision: Decision, method: &str, params: &Value) -> Answer {
    match family {
        Family::PromptkitServer => server_answer(decision, method, params),
        Family::PicoclawHook => picoclaw_answer(roles, decision, method, params),
        Family::RunokExtension => runok_answer(decision, method, params),
        Family::PromptkitExec | Family::ClaudeCodeHook | Family::CodexHook => Answer::Error(RpcError::method_not_found(method)),
    }
}

/// PromptKit `runtime: server`: `execute` echoes the tool arguments.
///
/// Server mode has no `pending`; tool errors must be JSON-RPC errors, because
/// the host hands `result` to the LLM as is.
pub fn server_answer(decision: Decision, method: &str, params: &Value) -> Answer {
    if method != "execute" {
        return Answer::Error(RpcError::method_not_found(method));
    }
    if decision == Decision::Deny {
        return Answer::Error(RpcError::new(SERVER_ERROR, DENY_REASON));
    }
    Answer::Result(json!({"echo": params.get("args").cloned().unwrap_or(Value::Null)}))
}

/// The PicoClaw mode that serves `method`, or `None` for hello and unknown methods.
pub fn picoclaw_mode(method: &str) -> Option<Role> {
    match method {
        "hook.before_llm" | "hook.after_llm" => Some(Role::Llm),
        "hook.before_tool" | "hook.after_tool" => Some(Role::ToolMode),
        "hook.approve_tool" => Some(Role::Approve),
        "hook.event" | "hook.runtime_event" => Some(Role::Observe),
        _ => None,
    }
}

/// A PicoClaw process hook's answer.
///
/// Methods of a mode outside `roles` get -32601, as from a hook that does not
/// implement them. Observer events never get a reply, even if the host (as
/// the old docs allow) sends them with id 0.
pub fn picoclaw_answer(roles: &[Role], decision: Decision, method: &str, params: &Value) -> Answer {
    if method == "hook.hello" {
        return Answer::Result(json!({"ok": true, "name": "mock"}));
    }
    match picoclaw_mode(method) {
        Some(Role::Observe) => Answer::Nothing,
        Some(mode) if roles.contains(&mode) => Answer::Result(picoclaw_result(decision, method, params)),
        _ => Answer::Error(RpcError::method_not_found(method)),
    }
}

fn picoclaw_result(decision: Decision, method: &str, params: &Value) -> Value {
    let echo = || params.clone();
    match (method, decision) {
        ("hook.approve_tool", Decision::Deny) => json!({"approved": false, "reason": DENY_REASON}),
        ("hook.approve_tool", _) => json!({"approved": true}),
        ("hook.before_tool", Decision::Deny) => {
            json!({"action": "deny_tool", "reason": DENY_REASON})
        }
        ("hook.before_tool", Decision::Respond) => {
            json!({"action": "respond", "result": respond_result("mock result")})
        }
        ("hook.before_tool", Decision::Modify) => json!({"action": "modify", "call": {
            "tool": params.get("tool").cloned().unwrap_or_else(|| json!("")),
            "arguments": params.get("arguments").cloned().unwrap_or_else(|| json!({})),
        }}),
        ("hook.before_llm", Decision::Modify) => json!({"action": "modify", "request": echo()}),
        ("hook.after_llm", Decision::Modify) => json!({"action": "modify", "response": echo()}),
        ("hook.after_tool", Decision::Modify) => json!({"action": "modify", "result": echo()}),
        _ => json!({"action": "continue"}),
    }
}

/// A PicoClaw `ToolResult` as a `respond` action carries it.
pub(crate) fn respond_result(for_llm: &str) -> Value {
    json!({"for_llm": for_llm, "silent": false, "is_error": false})
}

/// A runok extension's answer to `validateCommand`; `pending` becomes `ask`.
pub fn runok_answer(decision: Decision, method: &str, _params: &Value) -> Answer {
    if method != "validateCommand" {
        return Answer::Error(RpcError::method_not_found(method));
    }
    Answer::Result(match decision {
        Decision::Deny => json!({
            "status": "deny", "message": DENY_REASON, "fix_suggestion": "echo safe"
        }),
        Decision::Pending => json!({"status": "ask", "message": "mock asks"}),
        _ => json!({"status": "allow"}),
    })
}

/// Wraps an answer in a correct JSON-RPC 2.0 response; `None` for [`Answer::Nothing`].
pub fn envelope(id: &Value, answer: &Answer) -> Option<Value> {
    match answer {
        Answer::Result(result) => Some(json!({"jsonrpc": "2.0", "id": id, "result": result})),
        Answer::Error(error) => Some(json!({"jsonrpc": "2.0", "id": id, "error": error.to_value()})),
        Answer::Nothing => None,
    }
}

/// The complete reply of a well-behaved plugin to one parsed message, or
/// `None` when it writes nothing.
///
/// `roles` are the effective roles (never empty for a useful answer). For
/// `promptkit-exec` this is the one-shot document; for the JSON-RPC families
/// it is the whole response envelope.
pub fn well_behaved(family: Family, roles: &[Role], decision: Decision, message: &Value) -> Option<Value> {
    if family == Family::PromptkitExec {
        let role = exec_role(Some(message), roles);
        return match exec_answer(role, decision, message) {
            Answer::Result(doc) => Some(doc),
            _ => None,
        };
    }
    match rpc::classify(message) {
        Incoming::Request { id, method, params } => envelope(&id, &rpc_answer(family, roles, decision, &method, &params)),
        Incoming::Notification { .. } => None,
        Incoming::Invalid { id, error } => envelope(&id, &Answer::Error(error)),
    }
}

#[cfg(test)]
#[path = "reply_tests.rs"]
mod tests;
