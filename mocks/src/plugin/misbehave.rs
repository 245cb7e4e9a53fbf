//! Semantic faults: well-framed replies whose body means the wrong thing.
//!
//! They act on the body of a successful answer only (the one-shot document or
//! the JSON-RPC `result`). Error answers pass through untouched, since the
//! faults model plugins that answer successfully but badly.

use proctor_conformance::protocol::Role;
use serde_json::{Value, json};

use super::fault::Fault;
use super::reply::{Answer, respond_result};

/// Where an answer is going, which decides what each fault can change.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Site<'a> {
    /// A one-shot PromptKit plugin playing this role.
    Exec(Role),
    /// A PromptKit selector, with the request (its candidates).
    Selector(&'a Value),
    /// A PromptKit server-mode tool (`execute`).
    Server,
    /// A PicoClaw hook answering `method`, with the request's params.
    Picoclaw { method: &'a str, params: &'a Value },
    /// A runok extension (`validateCommand`).
    Runok,
}

/// Applies every semantic fault in `faults` to `answer`.
///
/// Faults apply in [`Fault::ALL`] order, so with two faults that replace the
/// whole body the later one wins; `unknown-action` goes last so that it
/// capitalises whatever action the others left.
pub(crate) fn apply(faults: &[Fault], site: Site<'_>, answer: Answer) -> Answer {
    let Answer::Result(mut body) = answer else {
        return answer;
    };
    let ordered = Fault::ALL.iter().filter(|f| **f != Fault::UnknownAction).chain([&Fault::UnknownAction]);
    for &fault in ordered.filter(|f| faults.contains(f)) {
        body = bend(fault, site, body);
    }
    Answer::Result(body)
}

fn bend(fault: Fault, site: Site<'_>, body: Value) -> Value {
    use Fault::*;
    use Site::*;
    let filter_hook = |role: Role| matches!(role, Role::ProviderHook | Role::ToolHook);
    match (fault, site) {
        (ToolEmpty, Exec(Role::Tool) | Server) => json!({}),
        (ToolBoth, Exec(Role::Tool) | Server) => json!({"result": 1, "error": "x"}),
        (PendingNoReason, Exec(Role::Tool)) => json!({"pending": {"message": "m"}}),
        (ScoreOutOfRange, Exec(Role::Eval)) => with(body, "score", json!(1.7)),
        (ScoreString, Exec(Role::Eval)) => with(body, "score", json!("0.9")),
        (AllowString, Exec(role)) if filter_hook(role) => json!({"allow": "true"}),
        (AckOnly, Exec(role)) if filter_hook(role) => json!({"ack": true}),
        (DenyNoReason, Exec(role)) if filter_hook(role) => json!({"allow": false}),
        (NoAck, Exec(Role::SessionHook)) => json!({}),
        (StatusUppercase, Runok) => match body.get("status").and_then(Value::as_str) {
            Some(status) => {
                let upper = status.to_uppercase();
                with(body, "status", json!(upper))
            }
            None => body,
        },
        (MessageNumber, Runok) => with(body, "message", json!(42)),
        (SelectorNotList, Selector(_)) => with(body, "selected", json!("a,b")),
        (SelectorUnknownId, Selector(_)) => {
            let mut ids = body.get("selected").and_then(Value::as_array).cloned().unwrap_or_default();
            ids.push(json!("no-such-candidate"));
            with(body, "selected", Value::Array(ids))
        }
        (SelectorTooMany, Selector(request)) => with(body, "selected", json!(super::reply::candidate_ids(request))),
        (DocumentedKeysOnly, Selector(request)) => {
            let ids = request.get("candidates").and_then(Value::as_array).into_iter().flatten().filter_map(|c| c.get("id")?.as_str());
            let k = request.get("query").and_then(|q| q.get("k")).and_then(Value::as_u64).unwrap_or(u64::MAX);
            with(body, "selected", json!(ids.take(k as usize).collect::<Vec<_>>()))
        }
        (_, Picoclaw { method, params }) => bend_picoclaw(fault, method, params, body),
        _ => body,
    }
}

fn bend_picoclaw(fault: Fault, method: &str, params: &Value, body: Value) -> Value {
    use Fault::*;
    let interceptor = matches!(method, "hook.before_llm" | "hook.after_llm" | "hook.before_tool" | "hook.after_tool");
    match (fault, method) {
        (DenyNoReason, "hook.before_tool") => json!({"action": "deny_tool"}),
        (DenyNoReason, "hook.approve_tool") => json!({"approved": false}),
        (ApproveMissing, "hook.approve_tool") => json!({"reason": "x"}),
        (ApproveString, "hook.approve_tool") => json!({"approved": "true"}),
        (RespondNoResult, "hook.before_tool") => json!({"action": "respond"}),
        // PicoClaw nests these payloads; the flat shapes decode to nothing.
        (ModifyFlat, "hook.after_tool") => json!({"action": "modify", "result": {"for_llm": "x"}}),
        (ModifyFlat, "hook.after_llm") => json!({"action": "modify", "response": {"content": "x"}}),
        (ModifyFlat, "hook.before_tool") => json!({"action": "modify", "call": {
            "arguments": params.get("arguments").cloned().unwrap_or_else(|| json!({})),
        }}),
        (RespondEverywhere, _) if interceptor => {
            json!({"action": "respond", "result": respond_result("mock result")})
        }
        (ModifyEmpty, _) if interceptor => json!({"action": "modify"}),
        (UnknownAction, _) if interceptor => match body.get("action").and_then(Value::as_str) {
            Some(action) => {
                let capitalised = capitalise(action);
                with(body, "action", json!(capitalised))
            }
            None => with(body, "action", json!("Continue")),
        },
        _ => body,
    }
}

/// Sets `key` on an object body; a non-object body is returned unchanged.
fn with(mut body: Value, key: &str, value: Value) -> Value {
    if let Some(obj) = body.as_object_mut() {
        obj.insert(key.to_string(), value);
    }
    body
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "Continue".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::rpc::RpcError;

    fn run(faults: &[Fault], site: Site<'_>, body: Value) -> Value {
        match apply(faults, site, Answer::Result(body)) {
            Answer::Result(v) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn promptkit_bodies() {
        let tool = json!({"result": {"echo": {}}});
        assert_eq!(run(&[Fault::ToolEmpty], Site::Exec(Role::Tool), tool.clone()), json!({}));
        assert_eq!(run(&[Fault::ToolBoth], Site::Server, tool.clone()), json!({"result": 1, "error": "x"}));
        assert_eq!(run(&[Fault::ToolEmpty], Site::Exec(Role::Eval), tool), json!({"result": {"echo": {}}}));
        let eval = json!({"score": 0.9, "detail": "mock", "data": {}});
        assert_eq!(run(&[Fault::ScoreString], Site::Exec(Role::Eval), eval.clone())["score"], json!("0.9"));
        assert_eq!(run(&[Fault::ScoreOutOfRange], Site::Exec(Role::Eval), eval)["score"], json!(1.7));
        let allow = json!({"allow": true});
        assert_eq!(run(&[Fault::AckOnly], Site::Exec(Role::ToolHook), allow.clone()), json!({"ack": true}));
        assert_eq!(run(&[Fault::AllowString], Site::Exec(Role::ProviderHook), allow.clone()), json!({"allow": "true"}));
        assert_eq!(run(&[Fault::AllowString], Site::Exec(Role::SessionHook), allow), json!({"allow": true}));
        assert_eq!(run(&[Fault::NoAck], Site::Exec(Role::SessionHook), json!({"ack": true})), json!({}));
    }

    #[test]
    fn picoclaw_bodies() {
        let params = json!({"tool": "t", "arguments": {"a": 1}});
        let site = |method| Site::Picoclaw { method, params: &params };
        let cont = json!({"action": "continue"});
        assert_eq!(run(&[Fault::UnknownAction], site("hook.after_llm"), cont.clone()), json!({"action": "Continue"}));
        assert_eq!(run(&[Fault::UnknownAction, Fault::ModifyEmpty], site("hook.before_llm"), cont.clone()), json!({"action": "Modify"}));
        assert_eq!(
            run(&[Fault::ModifyFlat], site("hook.before_tool"), cont.clone()),
            json!({"action": "modify", "call": {"arguments": {"a": 1}}})
        );
        assert_eq!(run(&[Fault::ModifyFlat], site("hook.before_llm"), cont.clone()), cont);
        assert_eq!(run(&[Fault::RespondEverywhere], site("hook.after_tool"), cont.clone())["action"], json!("respond"));
        assert_eq!(run(&[Fault::RespondEverywhere], site("hook.approve_tool"), json!({"approved": true})), json!({"approved": true}));
        assert_eq!(run(&[Fault::ApproveMissing], site("hook.approve_tool"), json!({"approved": true})), json!({"reason": "x"}));
        assert_eq!(run(&[Fault::DenyNoReason], site("hook.before_tool"), cont.clone()), json!({"action": "deny_tool"}));
        assert_eq!(run(&[Fault::UnknownAction], site("hook.hello"), json!({"ok": true})), json!({"ok": true}));
    }

    #[test]
    fn runok_bodies_and_errors_pass_through() {
        let allow = json!({"status": "allow"});
        assert_eq!(run(&[Fault::StatusUppercase], Site::Runok, allow.clone()), json!({"status": "ALLOW"}));
        assert_eq!(run(&[Fault::MessageNumber], Site::Runok, allow), json!({"status": "allow", "message": 42}));
        let error = Answer::Error(RpcError::new(-32000, "no"));
        assert_eq!(apply(&[Fault::ToolEmpty], Site::Server, error.clone()), error);
    }
}
