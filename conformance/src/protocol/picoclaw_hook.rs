//! PicoClaw process-hook requests, as documented and as PicoClaw sends them.
//!
//! The document (`picoclaw-hook-protocol.md`) predates several changes:
//! notifications are now `hook.runtime_event` with a lower-case event
//! envelope, `channel`/`chat_id` are never sent, meta's `Source` and
//! `TracePath` are the other way round, and `after_llm` tool calls lose their
//! function. [`params`] builds each method's params for a profile, with a
//! probe's or case's fields laid over them.

use serde_json::{Value, json};

use super::promptkit_exec::overlay;
use super::wire::sort_keys;
use super::{Profile, Role};

/// `hook.hello`.
pub const HELLO: &str = "hook.hello";
/// `hook.before_llm`.
pub const BEFORE_LLM: &str = "hook.before_llm";
/// `hook.after_llm`.
pub const AFTER_LLM: &str = "hook.after_llm";
/// `hook.before_tool`.
pub const BEFORE_TOOL: &str = "hook.before_tool";
/// `hook.after_tool`.
pub const AFTER_TOOL: &str = "hook.after_tool";
/// `hook.approve_tool`.
pub const APPROVE_TOOL: &str = "hook.approve_tool";

/// The mode whose deadline a call of `method` runs under (an interceptor's
/// for a method no mode owns).
pub fn mode_of(method: &str) -> Role {
    match method {
        APPROVE_TOOL => Role::Approve,
        BEFORE_LLM | AFTER_LLM => Role::Llm,
        _ => Role::ToolMode,
    }
}

/// The methods a hook with `modes` receives, in the order a turn fires them.
/// Modes are per family: `tool` brings both before_tool and after_tool.
pub fn methods(modes: &[Role]) -> Vec<&'static str> {
    let mut out = Vec::new();
    if modes.contains(&Role::Llm) {
        out.push(BEFORE_LLM);
    }
    if modes.contains(&Role::ToolMode) {
        out.push(BEFORE_TOOL);
    }
    if modes.contains(&Role::Approve) {
        out.push(APPROVE_TOOL);
    }
    if modes.contains(&Role::ToolMode) {
        out.push(AFTER_TOOL);
    }
    if modes.contains(&Role::Llm) {
        out.push(AFTER_LLM);
    }
    out
}

/// The `hook.hello` params for `modes` (listed in PicoClaw's fixed order).
pub fn hello_params(modes: &[Role]) -> Value {
    let names: Vec<&str> = Role::parse_list(super::Family::PicoclawHook, "observe,llm,tool,approve")
        .unwrap_or_default()
        .into_iter()
        .filter(|r| modes.contains(r))
        .map(Role::name)
        .collect();
    json!({"name": "proctor_probe", "version": 1, "modes": names})
}

/// The `meta` object of a request: `HookMeta` has no json tags, so its keys are
/// Go field names. The reference pipeline overrides `TurnID` and `Iteration`.
pub fn meta(profile: Profile, trace: &str) -> Value {
    if profile.picoclaw_sends_channel() {
        // As the document shows it (Source and TracePath swapped).
        json!({"AgentID": "agent-1", "TurnID": "turn-1", "ParentTurnID": "", "SessionKey": "session-1",
               "Iteration": 0, "TracePath": "runTurn", "Source": trace})
    } else {
        json!({"AgentID": "agent-1", "TurnID": "turn-1", "ParentTurnID": "", "SessionKey": "session-1",
               "Iteration": 0, "TracePath": trace, "Source": "runTurn"})
    }
}

/// Params of `method` under `profile`, with `fields` laid over the defaults.
pub fn params(profile: Profile, method: &str, fields: &Value) -> Value {
    let documented = profile.picoclaw_sends_channel();
    let mut p = match method {
        BEFORE_LLM => json!({
            "meta": meta(profile, "turn.llm.request"),
            "model": "claude-sonnet",
            "messages": [{"role": "system", "content": "You are PicoClaw."}, {"role": "user", "content": "list the files <here> & there"}],
            "tools": [{"type": "function", "function": {"name": "bash", "description": "run a shell command", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}}],
            "options": {"temperature": 0.7, "max_tokens": 1024},
        }),
        AFTER_LLM => {
            let calls = if profile.picoclaw_after_llm_tool_calls_bare() {
                json!([{"id": "tc-1"}])
            } else {
                json!([{"id": "tc-1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\":\"ls -la\"}"}}])
            };
            let response = if documented {
                json!({"role": "assistant", "content": "Listing files.", "tool_calls": calls})
            } else {
                json!({"content": "Listing files.", "tool_calls": calls, "finish_reason": "tool_calls", "reasoning": "", "reasoning_details": null})
            };
            json!({"meta": meta(profile, "turn.llm.response"), "model": "claude-sonnet", "response": response})
        }
        BEFORE_TOOL => json!({"meta": meta(profile, "turn.tool.before"), "tool": "bash", "arguments": {"command": "ls -la"}}),
        APPROVE_TOOL => json!({"meta": meta(profile, "turn.tool.approve"), "tool": "bash", "arguments": {"command": "ls -la"}}),
        AFTER_TOOL => {
            let result = if documented {
                json!({"for_llm": "file1.txt\nfile2.txt", "for_user": "", "silent": false, "is_error": false,
                       "async": false, "media": [], "artifact_tags": [], "response_handled": false})
            } else {
                json!({"for_llm": "file1.txt\nfile2.txt", "silent": false, "is_error": false, "async": false})
            };
            json!({"meta": meta(profile, "turn.tool.after"), "tool": "bash", "arguments": {"command": "ls -la"},
                   "result": result, "duration": 15000000})
        }
        _ => json!({}),
    };
    if documented
        && method != HELLO
        && let Some(obj) = p.as_object_mut()
    {
        obj.insert("channel".into(), json!("cli"));
        obj.insert("chat_id".into(), json!("chat-1"));
    }
    if documented && method == BEFORE_LLM {
        p["graceful_terminal"] = json!(false);
    }
    let mut p = overlay(p, fields);
    if !documented {
        sort_go_maps(&mut p);
    }
    p
}

/// Go's encoding/json writes a `map[string]any` with its keys sorted, and
/// struct fields in declaration order: `options`, `arguments` and each tool's
/// `parameters` are maps in PicoClaw's types (pkg/agent/hooks.go,
/// pkg/providers/protocoltypes/types.go), so their keys go out sorted, at
/// every depth (a decoded nested object is a map too). Measured: the real
/// host (interop/picoclaw) re-sends proctor's `{"temperature":..,"max_tokens":..}`
/// as `{"max_tokens":..,"temperature":..}`.
fn sort_go_maps(p: &mut Value) {
    for key in ["options", "arguments"] {
        if let Some(v) = p.get_mut(key) {
            *v = sort_keys(v);
        }
    }
    if let Some(tools) = p.get_mut("tools").and_then(Value::as_array_mut) {
        for tool in tools {
            if let Some(v) = tool.pointer_mut("/function/parameters") {
                *v = sort_keys(v);
            }
        }
    }
}

/// An observer notification (method and params) for a tool starting.
pub fn notification(profile: Profile) -> (&'static str, Value) {
    let method = profile.picoclaw_notification_method();
    let params = if method == "hook.event" {
        json!({"Kind": "tool_exec_start", "Meta": {"AgentID": "agent-1", "TurnID": "turn-1"},
               "Payload": {"Tool": "bash", "Arguments": {"command": "ls -la"}}})
    } else {
        json!({"id": "evt-1", "kind": "agent.tool.exec_start", "time": "2026-06-13T10:00:00Z",
               "source": {"component": "agent"},
               "scope": {"agent_id": "agent-1", "session_key": "session-1", "turn_id": "turn-1"},
               "correlation": {}, "payload": {"Tool": "bash", "Arguments": {"command": "ls -la"}}})
    };
    (method, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_bring_whole_families() {
        assert_eq!(methods(&[Role::ToolMode]), vec![BEFORE_TOOL, AFTER_TOOL]);
        assert_eq!(methods(&[Role::Observe]), Vec::<&str>::new());
        let all = methods(&[Role::Observe, Role::Llm, Role::ToolMode, Role::Approve]);
        assert_eq!(all, vec![BEFORE_LLM, BEFORE_TOOL, APPROVE_TOOL, AFTER_TOOL, AFTER_LLM]);
        assert_eq!(hello_params(&[Role::Approve, Role::Observe])["modes"], json!(["observe", "approve"]));
    }

    #[test]
    fn documented_sends_channel_and_runtime_does_not() {
        let doc = params(Profile::Documented, BEFORE_TOOL, &json!({"tool": "x"}));
        assert_eq!(doc["channel"], "cli");
        assert_eq!(doc["tool"], "x");
        let rt = params(Profile::PicoclawCf67dd3, BEFORE_TOOL, &Value::Null);
        assert!(rt.get("channel").is_none() && rt.get("chat_id").is_none());
        assert_eq!(rt["meta"]["Source"], "runTurn");
        assert_eq!(doc["meta"]["Source"], "turn.tool.before");
    }

    #[test]
    fn after_llm_tool_calls_are_bare_in_the_runtime() {
        let rt = params(Profile::PicoclawCf67dd3, AFTER_LLM, &Value::Null);
        assert_eq!(rt["response"]["tool_calls"], json!([{"id": "tc-1"}]));
        assert!(rt["response"].get("role").is_none());
        let doc = params(Profile::Documented, AFTER_LLM, &Value::Null);
        assert_eq!(doc["response"]["tool_calls"][0]["function"]["name"], "bash");
    }

    #[test]
    fn go_maps_go_out_with_sorted_keys_under_the_runtime() {
        let case = json!({"arguments": {"path": "a", "content": {"z": 1, "b": 2}}});
        let text = |p: Profile, m: &str, f: &Value| serde_json::to_string(&params(p, m, f)).unwrap();
        let rt = text(Profile::PicoclawCf67dd3, BEFORE_TOOL, &case);
        assert!(rt.contains(r#""arguments":{"content":{"b":2,"z":1},"path":"a"}"#), "{rt}");
        let llm = text(Profile::PicoclawCf67dd3, BEFORE_LLM, &Value::Null);
        assert!(llm.contains(r#""options":{"max_tokens":1024,"temperature":0.7}"#), "{llm}");
        assert!(llm.contains(r#""parameters":{"properties":{"command":{"type":"string"}},"type":"object"}"#), "{llm}");
        // The document's examples keep the order they are written in.
        let doc = text(Profile::Documented, BEFORE_LLM, &Value::Null);
        assert!(doc.contains(r#""options":{"temperature":0.7,"max_tokens":1024}"#), "{doc}");
    }

    #[test]
    fn notification_names_follow_profile() {
        assert_eq!(notification(Profile::Documented).0, "hook.event");
        let (m, p) = notification(Profile::PicoclawCf67dd3);
        assert_eq!(m, "hook.runtime_event");
        assert_eq!(p["kind"], "agent.tool.exec_start");
    }
}
