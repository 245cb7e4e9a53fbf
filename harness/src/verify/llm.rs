//! Judging what a runtime sent its LLM, from the mock provider's journal
//! (`proctor mock-provider --journal FILE`, or `proctor run --record-dir`).
//!
//! The journal is replayed against a fresh copy of the scenario's script, so
//! the verdict does not depend on what the server happened to answer (a
//! lenient server answers misses too): every request either is the next
//! scripted round (pass), comes after the script ended (unexpected), or does
//! not match its round's `when` (mismatch); rounds never asked for are
//! missing.

use proctor_conformance::certify::CheckResult;
use proctor_conformance::check::{CheckId, Evidence, Failure, Outcome, lookup};
use proctor_conformance::protocol::Profile;
use proctor_mocks::provider::journal::JournalEntry;
use proctor_mocks::provider::openai::{self, ChatRequest};
use proctor_mocks::provider::{LlmResponse, ResolvedCall, ScriptedLlm};
use serde_json::Value;

use crate::scenario::Scenario;

/// Who the LLM checks are about, in the report's plugin column.
const SUBJECT: &str = "the LLM provider";

/// Roles a chat-completions message may have.
const ROLES: &[&str] = &["system", "developer", "user", "assistant", "tool"];

/// `RUNTIME-LLM-REQUEST`, `RUNTIME-LLM-TOOL-RESULTS` and `RUNTIME-LLM-SCRIPT`.
pub fn judge_journal(scenario: &Scenario, entries: &[JournalEntry], profile: Profile) -> Vec<CheckResult> {
    let mut found = Found::default();
    let mut replay = ScriptedLlm::new(scenario.llm.clone());
    let mut unanswered: Vec<ResolvedCall> = Vec::new();
    let mut previous: &[Value] = &[];
    for entry in entries {
        if entry.path != openai::CHAT_COMPLETIONS {
            if entry.method == "POST" && entry.answer.kind == "not_found" {
                let ev = Evidence::received(entry.path.as_bytes());
                found.add(
                    "RUNTIME-LLM-REQUEST",
                    Err(mismatch("path", &format!("POST {}", openai::CHAT_COMPLETIONS), format!("{} {}", entry.method, entry.path))),
                    ev,
                );
            }
            continue;
        }
        let raw = body_bytes(&entry.body);
        let ev = Evidence::received(&raw);
        let request = match ChatRequest::parse(&raw) {
            Ok(r) => r,
            Err(message) => {
                found.add("RUNTIME-LLM-REQUEST", Err(mismatch("$", "a chat-completions request", message)), ev);
                continue;
            }
        };
        found.add("RUNTIME-LLM-REQUEST", well_formed(&entry.body), ev.clone());
        let messages = entry.body.get("messages").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        if rolled_back(previous, messages) {
            // The runtime undid the turn that made those calls (PicoClaw's
            // hard_abort): they are gone from the history, not unanswered.
            unanswered.clear();
        }
        previous = messages;
        found.add("RUNTIME-LLM-TOOL-RESULTS", tool_results(&entry.body, &unanswered), ev.clone());
        unanswered.clear();
        match replay.complete(&request.to_llm()) {
            Ok(response) => {
                found.add("RUNTIME-LLM-SCRIPT", Ok(()), ev);
                if let LlmResponse::Reply { tool_calls, .. } = response {
                    unanswered = tool_calls;
                }
            }
            Err(miss) if miss.beyond_script => found.add("RUNTIME-LLM-SCRIPT", Err(Failure::Unexpected { what: miss.message }), ev),
            Err(miss) => {
                found.add("RUNTIME-LLM-SCRIPT", Err(mismatch(&format!("round {}", miss.call), "the round's `when`", miss.message)), ev)
            }
        }
    }
    let left = replay.unused_rounds();
    if let Some(first) = left.first() {
        let more = if left.len() > 1 { format!(" and {} more", left.len() - 1) } else { String::new() };
        let what = format!("a request for {first}{more}: the runtime ended the conversation before the script did");
        found.add("RUNTIME-LLM-SCRIPT", Err(Failure::Missing { what }), Evidence::default());
    }
    if !unanswered.is_empty() && !left.is_empty() {
        // The last answer called tools, and no request carried their results
        // although the script had more to say. (When it had not, the script
        // itself ends on those calls: the turn was meant to end there.)
        let what = format!("a request carrying the results of {}", names(&unanswered));
        found.add("RUNTIME-LLM-TOOL-RESULTS", Err(Failure::Missing { what }), Evidence::default());
    }
    if scenario.llm.is_empty() && !entries.iter().any(|e| e.path == openai::CHAT_COMPLETIONS) {
        // No round scripted and none asked for: the runtime stopped before
        // the LLM, as the scenario says (a filter hook failing closed).
        found.add("RUNTIME-LLM-SCRIPT", Ok(()), Evidence::default());
    }
    found.into_results(profile, entries.is_empty())
}

/// The first failure of each check, else its first pass.
#[derive(Default)]
struct Found(Vec<(CheckId, Result<(), Failure>, Evidence)>);

impl Found {
    fn add(&mut self, id: CheckId, result: Result<(), Failure>, evidence: Evidence) {
        match self.0.iter_mut().find(|(i, ..)| *i == id) {
            Some(slot) if slot.1.is_ok() && result.is_err() => *slot = (id, result, evidence),
            Some(_) => {}
            None => self.0.push((id, result, evidence)),
        }
    }

    fn into_results(self, profile: Profile, empty: bool) -> Vec<CheckResult> {
        ["RUNTIME-LLM-REQUEST", "RUNTIME-LLM-TOOL-RESULTS", "RUNTIME-LLM-SCRIPT"]
            .into_iter()
            .filter_map(|id| {
                let def = lookup(id)?;
                let (outcome, evidence) = match self.0.iter().find(|(i, ..)| *i == id) {
                    Some((_, Ok(()), ev)) => (Outcome::Pass, ev.clone()),
                    Some((_, Err(f), ev)) => (Outcome::fail(f.clone()), ev.clone()),
                    None if empty => (Outcome::Skip { reason: "the journal has no requests".into() }, Evidence::default()),
                    None => (Outcome::Skip { reason: "no request exercised this check".into() }, Evidence::default()),
                };
                Some(CheckResult::new(def, profile.name(), Some(SUBJECT.into()), outcome, evidence))
            })
            .collect()
    }
}

fn mismatch(path: &str, expected: &str, actual: impl Into<String>) -> Failure {
    Failure::Mismatch { path: path.into(), expected: expected.into(), actual: actual.into() }
}

/// The body as the runtime sent it: JSON re-encoded, or the raw text.
fn body_bytes(body: &Value) -> Vec<u8> {
    match body {
        Value::String(text) => text.clone().into_bytes(),
        other => other.to_string().into_bytes(),
    }
}

fn names(calls: &[ResolvedCall]) -> String {
    calls.iter().map(|c| format!("{} ({})", c.id, c.name)).collect::<Vec<_>>().join(", ")
}

/// Whether `current` starts a new turn on a history rolled back to before
/// the previous request's turn: everything but its last (user) message is
/// a strict prefix of `previous`. A runtime that merely forgot to record a
/// turn keeps all of `previous`, so it is not mistaken for a rollback.
fn rolled_back(previous: &[Value], current: &[Value]) -> bool {
    let Some((last, history)) = current.split_last() else { return false };
    last.get("role").and_then(Value::as_str) == Some("user") && history.len() < previous.len() && previous.starts_with(history)
}

/// Model, messages, roles and tool-call shapes, on the body as sent (the
/// provider itself reads leniently).
fn well_formed(body: &Value) -> Result<(), Failure> {
    if body.get("model").and_then(Value::as_str).is_none_or(|m| m.is_empty()) {
        return Err(mismatch("$.model", "a model name", body.get("model").map_or("nothing".into(), Value::to_string)));
    }
    let Some(messages) = body.get("messages").and_then(Value::as_array).filter(|m| !m.is_empty()) else {
        return Err(mismatch(
            "$.messages",
            "a non-empty array of messages",
            body.get("messages").map_or("nothing".into(), Value::to_string),
        ));
    };
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or_default();
        if !ROLES.contains(&role) {
            return Err(mismatch(&format!("$.messages[{i}].role"), "system, developer, user, assistant or tool", role));
        }
        if role == "tool" && m.get("tool_call_id").and_then(Value::as_str).is_none_or(|id| id.is_empty()) {
            return Err(mismatch(&format!("$.messages[{i}].tool_call_id"), "the id of the call this tool message answers", "nothing"));
        }
        for (j, call) in m.get("tool_calls").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let at = format!("$.messages[{i}].tool_calls[{j}]");
            let args = call.pointer("/function/arguments");
            if call.get("id").and_then(Value::as_str).is_none_or(|id| id.is_empty()) {
                return Err(mismatch(&format!("{at}.id"), "the call id", call.get("id").map_or("nothing".into(), Value::to_string)));
            }
            if call.get("type").and_then(Value::as_str) != Some("function") {
                return Err(mismatch(&format!("{at}.type"), "\"function\"", call.get("type").map_or("nothing".into(), Value::to_string)));
            }
            if args.and_then(Value::as_str).is_none_or(|a| serde_json::from_str::<Value>(a).is_err()) {
                return Err(mismatch(
                    &format!("{at}.function.arguments"),
                    "a string of JSON (arguments are encoded, not nested)",
                    args.map_or("nothing".into(), Value::to_string),
                ));
            }
        }
    }
    Ok(())
}

/// Every tool call in the history is answered once, by a tool message with
/// its id, before the next assistant turn; and the calls the previous answer
/// made (`pending`) are among them.
fn tool_results(body: &Value, pending: &[ResolvedCall]) -> Result<(), Failure> {
    let messages = body.get("messages").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut open: Vec<String> = Vec::new();
    let mut answered: Vec<String> = Vec::new();
    for m in &messages {
        match m.get("role").and_then(Value::as_str).unwrap_or_default() {
            "tool" => {
                let id = m.get("tool_call_id").and_then(Value::as_str).unwrap_or_default().to_string();
                match open.iter().position(|o| *o == id) {
                    Some(at) => {
                        open.remove(at);
                        answered.push(id);
                    }
                    None if answered.contains(&id) => {
                        return Err(Failure::Unexpected { what: format!("a second tool message for call {id}") });
                    }
                    None => {
                        return Err(Failure::Unexpected { what: format!("a tool message for {id:?}, which no assistant message called") });
                    }
                }
            }
            "assistant" | "user" if !open.is_empty() => {
                return Err(Failure::Missing {
                    what: format!(
                        "a tool message answering {} before the next {} message",
                        open.join(", "),
                        m["role"].as_str().unwrap_or_default()
                    ),
                });
            }
            _ => {}
        }
        if let Some(calls) = m.get("tool_calls").and_then(Value::as_array) {
            open.extend(calls.iter().filter_map(|c| c.get("id").and_then(Value::as_str)).map(str::to_string));
        }
    }
    if !open.is_empty() {
        return Err(Failure::Missing { what: format!("a tool message answering {}", open.join(", ")) });
    }
    let relayed: Vec<&ResolvedCall> = pending.iter().filter(|c| !answered.contains(&c.id)).collect();
    if !relayed.is_empty() {
        let calls: Vec<ResolvedCall> = relayed.into_iter().cloned().collect();
        return Err(Failure::Missing { what: format!("the results of {}, which the LLM called in its previous answer", names(&calls)) });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn call(id: &str) -> ResolvedCall {
        ResolvedCall { id: id.into(), name: "kv".into(), arguments: json!({}) }
    }

    fn assistant(ids: &[&str]) -> Value {
        json!({"role": "assistant", "content": null, "tool_calls": ids.iter().map(|id| json!({"id": id, "type": "function", "function": {"name": "kv", "arguments": "{}"}})).collect::<Vec<_>>()})
    }

    #[test]
    fn tool_results_must_answer_every_call_once() {
        let user = json!({"role": "user", "content": "hi"});
        let tool = |id: &str| json!({"role": "tool", "tool_call_id": id, "content": "ok"});
        let ok = json!({"messages": [user, assistant(&["a", "b"]), tool("b"), tool("a")]});
        assert_eq!(tool_results(&ok, &[call("a"), call("b")]), Ok(()));
        let missing = json!({"messages": [user, assistant(&["a", "b"]), tool("a")]});
        assert!(matches!(tool_results(&missing, &[]), Err(Failure::Missing { what }) if what.contains('b')));
        let twice = json!({"messages": [user, assistant(&["a"]), tool("a"), tool("a")]});
        assert!(matches!(tool_results(&twice, &[]), Err(Failure::Unexpected { what }) if what.contains("second")));
        let orphan = json!({"messages": [user, tool("z")]});
        assert!(matches!(tool_results(&orphan, &[]), Err(Failure::Unexpected { .. })));
        // The previous answer's calls were dropped from the history altogether.
        let dropped = json!({"messages": [user]});
        assert!(matches!(tool_results(&dropped, &[call("a")]), Err(Failure::Missing { what }) if what.contains("previous answer")));
    }

    #[test]
    fn a_rolled_back_turn_is_told_from_a_forgotten_one() {
        let (system, first, second) = (
            json!({"role": "system", "content": "s"}),
            json!({"role": "user", "content": "one"}),
            json!({"role": "user", "content": "two"}),
        );
        let previous = [system.clone(), first.clone()];
        assert!(rolled_back(&previous, &[system.clone(), second.clone()]), "history restored to before the turn");
        assert!(!rolled_back(&previous, &[system.clone(), first.clone(), second.clone()]), "the turn kept, its tool calls forgotten");
        assert!(
            !rolled_back(
                &previous,
                &[system.clone(), first, assistant(&["a"]), json!({"role": "tool", "tool_call_id": "a", "content": "x"})]
            ),
            "a tool round"
        );
        assert!(!rolled_back(&[], &[system, second]), "the first request");
    }

    #[test]
    fn requests_must_be_well_formed() {
        let good = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}, assistant(&["a"]), {"role": "tool", "tool_call_id": "a", "content": "x"}]});
        assert_eq!(well_formed(&good), Ok(()));
        let cases = [
            (json!({"messages": [{"role": "user", "content": "hi"}]}), "$.model"),
            (json!({"model": "m", "messages": []}), "$.messages"),
            (json!({"model": "m", "messages": [{"role": "human", "content": "hi"}]}), "$.messages[0].role"),
            (json!({"model": "m", "messages": [{"role": "tool", "content": "x"}]}), "$.messages[0].tool_call_id"),
            (
                json!({"model": "m", "messages": [{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "kv", "arguments": {}}}]}]}),
                "$.messages[0].tool_calls[0].function.arguments",
            ),
        ];
        for (body, path) in cases {
            assert!(matches!(well_formed(&body), Err(Failure::Mismatch { path: p, .. }) if p == path), "{body}");
        }
    }
}
