//! Unit tests of the well-behaved answers, one per family, role and decision.

use super::*;
use proctor_conformance::protocol::Family::*;

fn exec(role: Role, decision: Decision, request: Value) -> Option<Value> {
    well_behaved(PromptkitExec, &[role], decision, &request)
}

#[test]
fn exec_tool_allow_deny_pending() {
    let req = json!({"args": {"city": "NYC"}});
    assert_eq!(exec(Role::Tool, Decision::Allow, req.clone()), Some(json!({"result": {"echo": {"city": "NYC"}}})));
    assert_eq!(exec(Role::Tool, Decision::Deny, req.clone()), Some(json!({"error": "denied by mock"})));
    assert_eq!(
        exec(Role::Tool, Decision::Pending, req),
        Some(json!({"pending": {"reason": "requires_approval", "message": "mock pending"}}))
    );
    assert_eq!(exec(Role::Tool, Decision::Allow, json!({})), Some(json!({"result": {"echo": null}})));
}

#[test]
fn exec_eval_scores() {
    let req = json!({"type": "t", "params": {}, "content": "hi", "context": {"turn_index": 1}});
    assert_eq!(exec(Role::Eval, Decision::Allow, req.clone()), Some(json!({"score": 0.9, "detail": "mock", "data": {}})));
    assert_eq!(exec(Role::Eval, Decision::Deny, req).unwrap()["score"], json!(0.1));
}

#[test]
fn exec_hooks() {
    let provider = json!({"hook": "provider", "phase": "before_call", "request": {}});
    let tool = json!({"hook": "tool", "phase": "after_execution", "request": {}, "response": {}});
    for (role, req) in [(Role::ProviderHook, provider), (Role::ToolHook, tool)] {
        assert_eq!(exec(role, Decision::Allow, req.clone()), Some(json!({"allow": true})));
        assert_eq!(exec(role, Decision::Deny, req), Some(json!({"allow": false, "reason": "denied by mock"})));
    }
    let session = json!({"hook": "session", "phase": "session_start", "event": {}});
    assert_eq!(exec(Role::SessionHook, Decision::Deny, session), Some(json!({"ack": true})));
    assert_eq!(exec(Role::EvalHook, Decision::Allow, json!({"eval_id": "e", "type": "t"})), None);
}

#[test]
fn exec_role_is_recognised_from_the_request() {
    let all = PromptkitExec.roles();
    let cases = [
        (json!({"args": {}}), Role::Tool),
        (json!({"type": "t", "content": "c", "context": {}}), Role::Eval),
        (json!({"hook": "provider", "phase": "before_call"}), Role::ProviderHook),
        (json!({"hook": "tool", "phase": "before_execution"}), Role::ToolHook),
        (json!({"hook": "session", "phase": "session_end"}), Role::SessionHook),
        (json!({"eval_id": "e", "type": "t", "duration_ms": 3}), Role::EvalHook),
        (json!({"mystery": 1}), Role::Tool),
    ];
    for (req, role) in cases {
        assert_eq!(exec_role(Some(&req), all), role, "{req}");
    }
    // A role outside the configured set is never chosen.
    let hook = json!({"hook": "provider"});
    assert_eq!(exec_role(Some(&hook), &[Role::Eval, Role::SessionHook]), Role::Eval);
    assert_eq!(exec_role(None, &[Role::SessionHook]), Role::SessionHook);
}

#[test]
fn exec_unreadable_and_no_input() {
    let Answer::Result(doc) = exec_unreadable(Role::Tool, "EOF") else { panic!() };
    assert_eq!(doc, json!({"error": "invalid request JSON: EOF"}));
    let Answer::Result(doc) = exec_unreadable(Role::ToolHook, "EOF") else { panic!() };
    assert_eq!(doc["allow"], json!(false));
    assert_eq!(exec_no_input(Role::Tool), Answer::Result(json!({"error": "no input"})));
    assert_eq!(exec_no_input(Role::ProviderHook), Answer::Result(json!({"allow": true})));
    assert_eq!(exec_no_input(Role::EvalHook), Answer::Nothing);
}

fn rpc(family: Family, decision: Decision, id: Value, method: &str, params: Value) -> Option<Value> {
    let req = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    well_behaved(family, family.roles(), decision, &req)
}

#[test]
fn server_execute_echoes_and_keeps_the_id_type() {
    let reply = rpc(PromptkitServer, Decision::Allow, json!(7), "execute", json!({"args": {"q": 1}}));
    assert_eq!(reply, Some(json!({"jsonrpc": "2.0", "id": 7, "result": {"echo": {"q": 1}}})));
    let reply = rpc(PromptkitServer, Decision::Allow, json!("7"), "execute", json!({"args": {}}));
    assert_eq!(reply.unwrap()["id"], json!("7"));
    let reply = rpc(PromptkitServer, Decision::Deny, json!(1), "execute", json!({"args": {}}));
    assert_eq!(reply.unwrap()["error"], json!({"code": -32000, "message": "denied by mock"}));
    let reply = rpc(PromptkitServer, Decision::Allow, json!(2), "initialize", json!({}));
    assert_eq!(reply.unwrap()["error"], json!({"code": -32601, "message": "method not found: initialize"}));
    let note = json!({"jsonrpc": "2.0", "method": "execute", "params": {"args": {}}});
    assert_eq!(well_behaved(PromptkitServer, &[Role::Tool], Decision::Allow, &note), None);
}

#[test]
fn picoclaw_default_answers() {
    let p = |method: &str| rpc(PicoclawHook, Decision::Allow, json!(3), method, json!({})).map(|r| r["result"].clone());
    assert_eq!(p("hook.hello"), Some(json!({"ok": true, "name": "mock"})));
    for m in ["hook.before_llm", "hook.after_llm", "hook.before_tool", "hook.after_tool"] {
        assert_eq!(p(m), Some(json!({"action": "continue"})), "{m}");
    }
    assert_eq!(p("hook.approve_tool"), Some(json!({"approved": true})));
    assert_eq!(p("hook.runtime_event"), None, "observer events are never answered");
    let unknown = rpc(PicoclawHook, Decision::Allow, json!(9), "hook.nope", json!({})).unwrap();
    assert_eq!(unknown["error"]["code"], json!(-32601));
}

#[test]
fn picoclaw_decisions() {
    let params = json!({"tool": "bash", "arguments": {"command": "ls"}, "meta": {}});
    let p = |d, m: &str| picoclaw_answer(PicoclawHook.roles(), d, m, &params);
    assert_eq!(p(Decision::Deny, "hook.before_tool"), Answer::Result(json!({"action": "deny_tool", "reason": "denied by mock"})));
    assert_eq!(p(Decision::Deny, "hook.approve_tool"), Answer::Result(json!({"approved": false, "reason": "denied by mock"})));
    assert_eq!(p(Decision::Deny, "hook.after_llm"), Answer::Result(json!({"action": "continue"})));
    assert_eq!(
        p(Decision::Respond, "hook.before_tool"),
        Answer::Result(json!({"action": "respond", "result": {"for_llm": "mock result", "silent": false, "is_error": false}}))
    );
    assert_eq!(
        p(Decision::Modify, "hook.before_tool"),
        Answer::Result(json!({"action": "modify", "call": {"tool": "bash", "arguments": {"command": "ls"}}}))
    );
    for (m, key) in [("hook.before_llm", "request"), ("hook.after_llm", "response"), ("hook.after_tool", "result")] {
        assert_eq!(p(Decision::Modify, m), Answer::Result(json!({"action": "modify", key: params.clone()})), "{m}");
    }
}

#[test]
fn picoclaw_modes_outside_the_roles_are_not_found() {
    let only_approve = [Role::Approve];
    let answer = picoclaw_answer(&only_approve, Decision::Allow, "hook.before_tool", &json!({}));
    assert_eq!(answer, Answer::Error(RpcError::method_not_found("hook.before_tool")));
    let hello = picoclaw_answer(&only_approve, Decision::Allow, "hook.hello", &json!({}));
    assert!(matches!(hello, Answer::Result(_)));
}

#[test]
fn runok_statuses() {
    let params = json!({"command": "curl", "flags": {}, "args": [], "raw_command_line": "curl", "env": {}, "cwd": "/"});
    let r = |d| rpc(RunokExtension, d, json!(1), "validateCommand", params.clone()).unwrap();
    assert_eq!(r(Decision::Allow), json!({"jsonrpc": "2.0", "id": 1, "result": {"status": "allow"}}));
    assert_eq!(r(Decision::Deny)["result"], json!({"status": "deny", "message": "denied by mock", "fix_suggestion": "echo safe"}));
    assert_eq!(r(Decision::Pending)["result"]["status"], json!("ask"));
    let other = rpc(RunokExtension, Decision::Allow, json!(1), "validate", json!({})).unwrap();
    assert_eq!(other["error"]["code"], json!(-32601));
    assert_eq!(runok_no_input()["result"], json!({"status": "ask"}));
}

#[test]
fn invalid_messages_get_an_error_with_null_id() {
    let reply = well_behaved(PicoclawHook, PicoclawHook.roles(), Decision::Allow, &json!("hello")).unwrap();
    assert_eq!(reply["id"], Value::Null);
    assert_eq!(reply["error"]["code"], json!(-32600));
}
