//! What Codex 0.171.0 takes from a hook's JSON output: its closed output schema per event, and
//! the fields it parses but refuses. Both come from the schemas and messages embedded in the
//! binary (research notes: agent-hook-docs.md §2.7-2.8) and are held to Codex by interop/agents.

use serde_json::{Map, Value};

use crate::protocol::agent_hook::HookEvent;

/// Codex 0.171.0's output schema for an event (embedded in its binary; every object closed):
/// its top-level keys, and its `hookSpecificOutput` keys when it has one.
pub(super) fn codex_schema(event: HookEvent) -> (&'static [&'static str], Option<&'static [&'static str]>) {
    const PLAIN: &[&str] = &["continue", "stopReason", "suppressOutput", "systemMessage"];
    const DECIDING: &[&str] = &["continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"];
    match event {
        HookEvent::PreToolUse => {
            (DECIDING, Some(&["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"]))
        }
        HookEvent::PermissionRequest => (PLAIN, Some(&["hookEventName", "decision"])),
        HookEvent::PostToolUse => (DECIDING, Some(&["hookEventName", "additionalContext", "updatedMCPToolOutput"])),
        HookEvent::UserPromptSubmit => (DECIDING, Some(&["hookEventName", "additionalContext"])),
        HookEvent::Stop | HookEvent::SubagentStop => (DECIDING, None),
        HookEvent::SessionStart | HookEvent::SubagentStart => (PLAIN, Some(&["hookEventName", "additionalContext"])),
        _ => (PLAIN, None),
    }
}

/// What Codex 0.171.0 refuses (the hook run fails, and the call goes on): the
/// messages are the binary's own.
pub(super) fn codex_unsupported(event: HookEvent, o: &Map<String, Value>, specific: Option<&Map<String, Value>>) -> Option<String> {
    let tool_call = matches!(event, HookEvent::PreToolUse | HookEvent::PermissionRequest);
    if tool_call && o.get("continue") == Some(&Value::Bool(false)) {
        return Some("unsupported continue:false".into());
    }
    if matches!(event, HookEvent::PreToolUse | HookEvent::PermissionRequest | HookEvent::PostToolUse)
        && o.get("suppressOutput") == Some(&Value::Bool(true))
    {
        return Some("unsupported suppressOutput".into());
    }
    if tool_call && o.get("stopReason").is_some_and(|v| !v.is_null()) {
        return Some("unsupported stopReason".into());
    }
    let decision = o.get("decision").and_then(Value::as_str);
    if decision == Some("approve") {
        return Some("unsupported decision:approve".into());
    }
    if decision.is_none() && o.get("reason").is_some_and(|v| !v.is_null()) && o.get("continue") != Some(&Value::Bool(false)) {
        return Some("reason without decision".into());
    }
    let s = specific?;
    match event {
        HookEvent::PreToolUse => {
            match s.get("permissionDecision").and_then(Value::as_str) {
                // allow is taken only to rewrite the call (with updatedInput).
                Some("allow") if s.get("updatedInput").is_none() => return Some("unsupported permissionDecision:allow".into()),
                Some("ask") => return Some("unsupported permissionDecision:ask".into()),
                None if s.get("permissionDecisionReason").is_some() => {
                    return Some("permissionDecisionReason without permissionDecision".into());
                }
                None if s.get("updatedInput").is_some() => return Some("updatedInput without permissionDecision:allow".into()),
                _ => {}
            }
        }
        HookEvent::PostToolUse if s.get("updatedMCPToolOutput").is_some() => return Some("unsupported updatedMCPToolOutput".into()),
        HookEvent::PermissionRequest => {
            let d = s.get("decision");
            for key in ["updatedInput", "updatedPermissions"] {
                if d.and_then(|d| d.get(key)).is_some() {
                    return Some(format!("unsupported {key}"));
                }
            }
            if d.and_then(|d| d.get("interrupt")) == Some(&Value::Bool(true)) {
                return Some("unsupported interrupt:true".into());
            }
        }
        _ => {}
    }
    None
}
