//! PicoClaw answers: interceptor actions, their payloads, approvals.
//!
//! Judged as picoclaw@cf67dd3 decodes them (pkg/agent/hook_process.go): an
//! empty action is `continue`; actions are case-sensitive; `respond` and
//! `deny_tool` exist only in `before_tool`; a `modify` payload replaces the
//! whole object it names, and after_tool / after_llm payloads are nested.

use serde_json::Value;

use super::{Asked, Decision, Finding, Judged, describe};
use crate::protocol::picoclaw_hook::{AFTER_LLM, AFTER_TOOL, APPROVE_TOOL, BEFORE_LLM, BEFORE_TOOL};

const ACTIONS: &[&str] = &["continue", "modify", "respond", "deny_tool", "abort_turn", "hard_abort"];

pub(super) fn judge(asked: Asked<'_>, result: &Value) -> Judged {
    match asked.method {
        Some(APPROVE_TOOL) => judge_approval(result),
        Some(method @ (BEFORE_LLM | AFTER_LLM | BEFORE_TOOL | AFTER_TOOL)) => interceptor(asked, method, result),
        _ => Judged::default(),
    }
}

fn interceptor(asked: Asked<'_>, method: &str, result: &Value) -> Judged {
    let raw = result.get("action");
    let action = match raw {
        None | Some(Value::Null) => Some("continue"),
        Some(Value::String(s)) if s.is_empty() => Some("continue"),
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => None,
    };
    let allowed = |a: &str| match a {
        "respond" | "deny_tool" => method == BEFORE_TOOL,
        a => ACTIONS.contains(&a),
    };
    let mut findings = vec![Finding::check(
        "PICOCLAW-ACTION",
        action.is_some_and(allowed),
        "$.result.action",
        if method == BEFORE_TOOL {
            "continue, modify, respond, deny_tool, abort_turn or hard_abort"
        } else {
            "continue, modify, abort_turn or hard_abort"
        },
        || format!("{} in {method} (PicoClaw discards this hook's answer)", describe(raw)),
    )];
    let Some(action) = action.filter(|a| allowed(a)) else {
        // PicoClaw ignores the reply and carries on as if nothing was said.
        return Judged { decision: Some(Decision::Action("continue".into())), findings };
    };
    match action {
        "modify" => findings.push(modify_payload(asked, method, result)),
        "respond" => {
            let r = result.get("result");
            let ok = r.and_then(|r| r.get("for_llm")).is_some_and(Value::is_string);
            findings.push(Finding::check("PICOCLAW-RESPOND-RESULT", ok, "$.result.result.for_llm", "a string", || {
                format!("result {} (PicoClaw then runs the tool anyway)", describe(r))
            }));
        }
        "deny_tool" => findings.push(reason("$.result.reason", result)),
        _ => {}
    }
    Judged { decision: Some(Decision::Action(action.to_string())), findings }
}

/// The payload a `modify` must carry, per method, in the profile's shape.
fn modify_payload(asked: Asked<'_>, method: &str, result: &Value) -> Finding {
    const ID: &str = "PICOCLAW-MODIFY-PAYLOAD";
    let nested = asked.profile.picoclaw_nested_after_payloads();
    match method {
        BEFORE_LLM => {
            let req = result.get("request");
            let ok = req.is_some_and(|r| r.get("model").is_some_and(Value::is_string) && r.get("messages").is_some_and(Value::is_array));
            if ok && asked.profile.picoclaw_restores_system_messages() {
                // hooks.go:388-409 applyBeforeLLMControls: when the system
                // messages differ from the request's, every message is restored.
                let system = |v: Option<&Value>| -> Vec<(usize, Value)> {
                    let messages = v.and_then(|r| r.get("messages")).and_then(Value::as_array);
                    messages
                        .into_iter()
                        .flatten()
                        .enumerate()
                        .filter(|(_, m)| m.get("role").and_then(Value::as_str) == Some("system"))
                        .map(|(i, m)| (i, m.get("content").cloned().unwrap_or(Value::Null)))
                        .collect()
                };
                let (sent, modified) = (system(Some(asked.request)), system(req));
                return Finding::check(
                    ID,
                    sent == modified,
                    "$.result.request.messages",
                    "the request's system messages, unchanged and in place",
                    || {
                        format!(
                            "system messages {} where the request had {} (PicoClaw then restores every message and keeps only the rest of the change)",
                            modified.len(),
                            sent.len()
                        )
                    },
                );
            }
            Finding::check(ID, ok, "$.result.request", "the whole request: model, messages, tools, options", || {
                format!("{} (PicoClaw replaces model and messages with what is sent)", describe(req))
            })
        }
        BEFORE_TOOL => {
            let call = result.get("call");
            let ok = call.is_some_and(|c| c.get("tool").is_some_and(Value::is_string) && c.get("arguments").is_some_and(Value::is_object));
            Finding::check(ID, ok, "$.result.call", "call.tool (a string) and call.arguments (an object)", || {
                format!("{} (a call without tool renames the tool to \"\")", describe(call))
            })
        }
        AFTER_TOOL => {
            let r = result.get("result");
            let (ok, expected) = if nested {
                (
                    r.and_then(|r| r.get("result")).and_then(|r| r.get("for_llm")).is_some_and(Value::is_string),
                    "result.result.for_llm: the whole after_tool payload, nested",
                )
            } else {
                (r.is_some_and(Value::is_object), "a result object")
            };
            Finding::check(ID, ok, "$.result.result", expected, || {
                format!("{}{}", describe(r), if nested { " (a flat result is silently ignored by PicoClaw)" } else { "" })
            })
        }
        _ => {
            let r = result.get("response");
            let (ok, expected) = if nested {
                (r.and_then(|r| r.get("response")).is_some_and(Value::is_object), "response.response: the whole after_llm payload, nested")
            } else {
                (r.is_some_and(Value::is_object), "a response object")
            };
            Finding::check(ID, ok, "$.result.response", expected, || {
                format!("{}{}", describe(r), if nested { " (a flat response is silently ignored by PicoClaw)" } else { "" })
            })
        }
    }
}

fn reason(path: &str, result: &Value) -> Finding {
    let r = result.get("reason");
    let ok = r.and_then(Value::as_str).is_some_and(|s| !s.trim().is_empty());
    Finding::check("HOOK-DENY-REASON", ok, path, "a non-empty string", || describe(r))
}

/// Judges a `hook.approve_tool` result: a missing or mistyped `approved` is a denial.
pub fn judge_approval(result: &Value) -> Judged {
    let approved = result.get("approved");
    let mut findings = vec![Finding::check(
        "PICOCLAW-APPROVE-BOOLEAN",
        approved.is_some_and(Value::is_boolean),
        "$.result.approved",
        "true or false",
        || format!("{} (PicoClaw denies the tool)", describe(approved)),
    )];
    let granted = approved == Some(&Value::Bool(true));
    if !granted && approved.is_some_and(Value::is_boolean) {
        findings.push(reason("$.result.reason", result));
    }
    Judged { decision: Some(Decision::Approved(granted)), findings }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::{Family, Profile, Role};

    fn asked<'a>(method: &'a str, profile: Profile, request: &'a Value) -> Asked<'a> {
        Asked { family: Family::PicoclawHook, role: Role::ToolMode, method: Some(method), profile, request, meant: None }
    }

    fn failed(j: &Judged) -> Vec<&str> {
        j.findings.iter().filter(|f| f.result.is_err()).map(|f| f.check).collect()
    }

    #[test]
    fn actions_valid_per_method() {
        let req = json!({});
        assert!(failed(&judge(asked(BEFORE_TOOL, Profile::Documented, &req), &json!({"action": "deny_tool", "reason": "r"}))).is_empty());
        assert_eq!(
            failed(&judge(asked(AFTER_TOOL, Profile::Documented, &req), &json!({"action": "respond", "result": {"for_llm": "x"}}))),
            ["PICOCLAW-ACTION"]
        );
        assert_eq!(failed(&judge(asked(BEFORE_LLM, Profile::Documented, &req), &json!({"action": "Continue"}))), ["PICOCLAW-ACTION"]);
        assert_eq!(judge(asked(BEFORE_LLM, Profile::Documented, &req), &json!({})).decision, Some(Decision::Action("continue".into())));
    }

    #[test]
    fn after_tool_modify_is_nested_in_the_runtime() {
        let req = json!({});
        let flat = json!({"action": "modify", "result": {"for_llm": "x"}});
        assert!(failed(&judge(asked(AFTER_TOOL, Profile::Documented, &req), &flat)).is_empty());
        assert_eq!(failed(&judge(asked(AFTER_TOOL, Profile::PicoclawCf67dd3, &req), &flat)), ["PICOCLAW-MODIFY-PAYLOAD"]);
        let nested = json!({"action": "modify", "result": {"tool": "bash", "result": {"for_llm": "x"}}});
        assert!(failed(&judge(asked(AFTER_TOOL, Profile::PicoclawCf67dd3, &req), &nested)).is_empty());
    }

    #[test]
    fn respond_needs_result_and_approval_needs_boolean() {
        let req = json!({});
        assert_eq!(
            failed(&judge(asked(BEFORE_TOOL, Profile::Documented, &req), &json!({"action": "respond"}))),
            ["PICOCLAW-RESPOND-RESULT"]
        );
        assert_eq!(judge_approval(&json!({"reason": "x"})).decision, Some(Decision::Approved(false)));
        assert_eq!(failed(&judge_approval(&json!({"approved": "true"}))), ["PICOCLAW-APPROVE-BOOLEAN"]);
        assert_eq!(failed(&judge_approval(&json!({"approved": false}))), ["HOOK-DENY-REASON"]);
    }
}
