//! The scenario's expectations judged on what the runtime passed on: to its
//! plugins (`received`, `not_called`) and to its LLM (`tool_results`). A
//! missing interaction, an unexpected one and a mismatched one are
//! different failures.

use proctor_conformance::certify::CheckResult;
use proctor_conformance::check::{Evidence, Failure, Outcome, Status, lookup};
use proctor_conformance::protocol::Profile;
use proctor_conformance::verify::Received;
use proctor_mocks::provider::journal::JournalEntry;
use proctor_mocks::provider::openai;
use serde_json::Value;

use crate::scenario::Scenario;

/// `RUNTIME-EXPECTED-CALLS`, one result per expectation.
pub fn expected_calls(scenario: &Scenario, received: &[Received], profile: Profile) -> Vec<CheckResult> {
    let Some(def) = lookup("RUNTIME-EXPECTED-CALLS") else { return Vec::new() };
    let expect = &scenario.expect;
    if expect.received.is_empty() && expect.not_called.is_empty() {
        let skip = Outcome::Skip { reason: "the scenario expects nothing about what plugins receive".into() };
        return vec![CheckResult::new(def, profile.name(), Some("the scenario".into()), skip, Evidence::default())];
    }
    let mut out = Vec::new();
    for want in &expect.received {
        let sessions = received.iter().filter(|r| r.plugin == want.plugin).flat_map(|r| &r.sessions);
        let hit = sessions.clone().any(|s| String::from_utf8_lossy(&s.bytes).contains(want.contains.as_str()));
        let outcome = if hit {
            Outcome::Pass
        } else {
            Outcome::fail(Failure::Missing { what: format!("{} receiving {:?}", want.plugin, want.contains) })
        };
        out.push(CheckResult::new(def, profile.name(), Some(want.plugin.clone()), outcome, Evidence::default()));
    }
    for forbidden in &expect.not_called {
        let calls: Vec<(String, Vec<u8>)> = received
            .iter()
            .filter(|r| r.plugin == forbidden.plugin)
            .flat_map(|r| r.sessions.iter().flat_map(|s| calls_in(&s.bytes)))
            .filter(|(call, _)| forbidden.call.as_ref().is_none_or(|c| c == call))
            .collect();
        let outcome = match calls.first() {
            None => Outcome::Pass,
            Some((call, _)) => Outcome::fail(Failure::Unexpected { what: format!("{} received {call}", forbidden.plugin) }),
        };
        let evidence = calls.first().map(|(_, raw)| Evidence::received(raw)).unwrap_or_default();
        out.push(CheckResult::new(def, profile.name(), Some(forbidden.plugin.clone()), outcome, evidence));
    }
    out
}

/// `RUNTIME-EXPECTED-RESULTS`: the scenario's `tool_results`, in order, on
/// the tool messages the runtime sent its LLM. `is_error` is the runtime's
/// own flag and never reaches the wire, so the tool and the text are judged.
pub fn expected_results(scenario: &Scenario, journal: &[JournalEntry], profile: Profile) -> Vec<CheckResult> {
    let Some(def) = lookup("RUNTIME-EXPECTED-RESULTS") else { return Vec::new() };
    let expected = &scenario.expect.tool_results;
    if expected.is_empty() {
        let skip = Outcome::Skip { reason: "the scenario expects no tool results".into() };
        return vec![CheckResult::new(def, profile.name(), Some("the scenario".into()), skip, Evidence::default())];
    }
    let delivered = delivered_results(journal);
    let mut at = 0;
    let mut out = Vec::new();
    for want in expected {
        let contains = |d: &Delivered| want.contains.as_ref().is_none_or(|c| d.content.contains(c.as_str()));
        // A runtime may run a call under another name than the LLM gave it
        // (a PicoClaw hook's `modify`); the wire only shows the LLM's name,
        // so a tool the LLM never called is judged on the text alone.
        let renamed = !delivered.iter().any(|d| d.tool == want.tool);
        let (outcome, evidence) = match delivered[at..].iter().position(|d| (renamed || d.tool == want.tool) && contains(d)) {
            Some(i) => {
                at += i + 1;
                (Outcome::Pass, Evidence::received(delivered[at - 1].content.as_bytes()))
            }
            // The tool's result reached the LLM, saying something else.
            None => match delivered[at..].iter().find(|d| !renamed && d.tool == want.tool) {
                Some(d) => {
                    let expected = format!("text containing {:?}", want.contains.as_deref().unwrap_or_default());
                    let failure = Failure::Mismatch {
                        path: format!("the tool message for call {} ({})", d.call_id, d.tool),
                        expected,
                        actual: d.content.clone(),
                    };
                    (Outcome::fail(failure), Evidence::received(d.content.as_bytes()))
                }
                None => {
                    let what = format!("a tool message for {} after the {} result(s) matched before it", want.tool, out.len());
                    (Outcome::fail(Failure::Missing { what }), Evidence::default())
                }
            },
        };
        let mut result = CheckResult::new(def, profile.name(), Some(want.tool.clone()), outcome, evidence);
        if want.contains.is_none() && want.is_error.is_some() && result.status == Status::Pass {
            result.message = format!(
                "a result for {} reached the LLM; `is_error` is the runtime's own flag and not on the wire: add `contains` to judge what the LLM was told",
                want.tool
            );
        }
        out.push(result);
    }
    out
}

/// A tool result as the LLM was told it.
struct Delivered {
    call_id: String,
    tool: String,
    content: String,
}

/// Every tool message the runtime sent, in order, each once: a request
/// repeats the history before it, so only what follows the part it shares
/// with the previous request is new (after a rollback, that is everything
/// past the point where the histories part). A message is named by the
/// call it answers, as the LLM made it.
fn delivered_results(journal: &[JournalEntry]) -> Vec<Delivered> {
    let mut out = Vec::new();
    let mut previous: &[Value] = &[];
    for entry in journal.iter().filter(|e| e.path == openai::CHAT_COMPLETIONS) {
        let Some(messages) = entry.body.get("messages").and_then(Value::as_array) else { continue };
        let shared = messages.iter().zip(previous).take_while(|(a, b)| a == b).count();
        for (i, m) in messages.iter().enumerate().skip(shared) {
            if m.get("role").and_then(Value::as_str) != Some("tool") {
                continue;
            }
            let call_id = m.get("tool_call_id").and_then(Value::as_str).unwrap_or_default().to_string();
            let tool = messages[..i].iter().rev().find_map(|earlier| call_name(earlier, &call_id)).unwrap_or_default();
            out.push(Delivered { call_id, tool, content: text_of(m.get("content")) });
        }
        previous = messages;
    }
    out
}

/// The name of call `id` when `message` made it.
fn call_name(message: &Value, id: &str) -> Option<String> {
    let calls = message.get("tool_calls")?.as_array()?;
    let call = calls.iter().find(|c| c.get("id").and_then(Value::as_str) == Some(id))?;
    Some(call.pointer("/function/name")?.as_str()?.to_string())
}

/// A message's content as text: a string, or the text of its parts.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join(""),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// Each message's call: a JSON-RPC method, or a PromptKit hook phase; with its bytes.
fn calls_in(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    bytes
        .split(|b| *b == b'\n')
        .filter_map(|line| {
            let v: Value = serde_json::from_slice(line).ok()?;
            let call = v.get("method").or_else(|| v.get("phase")).and_then(Value::as_str)?.to_string();
            Some((call, line.to_vec()))
        })
        .collect()
}
