//! `RUNTIME-LATE-REPLY-DISCARDED`: a mock server tool with the `late-reply`
//! fault marks each result with the id it answers
//! ([`LATE_REPLY_MARKER`]); in the LLM journal, the tool message for the
//! k-th call to that tool must not carry the reply to another request.
//!
//! Calls are numbered in the order the LLM made them, which is the order of
//! the request ids of one server process (PromptKit serialises calls per
//! process); a runtime that restarts the process mid-conversation renumbers
//! its requests, so keep late-reply scenarios to one process.

use proctor_conformance::certify::CheckResult;
use proctor_conformance::check::{Evidence, Failure, Outcome, lookup};
use proctor_conformance::protocol::{Family, Profile};
use proctor_mocks::plugin::{Fault, LATE_REPLY_MARKER};
use proctor_mocks::provider::journal::JournalEntry;
use proctor_mocks::provider::openai;
use serde_json::Value;

use crate::scenario::{Process, Scenario};

/// One result per mock server tool that replies late.
pub fn judge_late_replies(scenario: &Scenario, journal: Option<&[JournalEntry]>, profile: Profile) -> Vec<CheckResult> {
    let Some(def) = lookup("RUNTIME-LATE-REPLY-DISCARDED") else { return Vec::new() };
    let late = scenario.plugins.iter().filter(|p| {
        let Process::Mock(m) = &p.process else { return false };
        p.protocol().0 == Family::PromptkitServer && m.faults.iter().any(|f| f == Fault::LateReply.name())
    });
    let mut out = Vec::new();
    for plugin in late {
        let (outcome, evidence) = match journal {
            None => (Outcome::Skip { reason: "judged on the LLM journal: give --journal".into() }, Evidence::default()),
            Some(entries) => judge(entries, &plugin.name),
        };
        out.push(CheckResult::new(def, profile.name(), Some(plugin.name.clone()), outcome, evidence));
    }
    out
}

fn judge(entries: &[JournalEntry], tool: &str) -> (Outcome, Evidence) {
    let Some(last) = entries.iter().rev().find(|e| e.path == openai::CHAT_COMPLETIONS) else {
        return (Outcome::Skip { reason: "the journal has no chat requests".into() }, Evidence::default());
    };
    let messages = last.body.get("messages").and_then(Value::as_array).cloned().unwrap_or_default();
    // Calls to `tool` not answered yet: (call id, 1-based ordinal).
    let mut open: Vec<(String, u64)> = Vec::new();
    let mut made = 0u64;
    let mut answered = 0;
    for m in &messages {
        for call in m.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            if call.pointer("/function/name").and_then(Value::as_str) == Some(tool) {
                made += 1;
                open.push((call.get("id").and_then(Value::as_str).unwrap_or_default().to_string(), made));
            }
        }
        if m.get("role").and_then(Value::as_str) != Some("tool") {
            continue;
        }
        let id = m.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
        let Some(at) = open.iter().position(|(c, _)| c == id) else { continue };
        let (call_id, ordinal) = open.remove(at);
        answered += 1;
        let content = m.get("content").and_then(Value::as_str).unwrap_or_default();
        if let Some(answers) = marked_request(content).filter(|n| *n != ordinal) {
            let what = format!("the late reply to request {answers} was delivered as the result of call {ordinal} to {tool} ({call_id})");
            return (Outcome::fail(Failure::Unexpected { what }), Evidence::received(content.as_bytes()));
        }
    }
    if answered == 0 {
        return (Outcome::Skip { reason: format!("no call to {tool} was answered in the conversation") }, Evidence::default());
    }
    (Outcome::Pass, Evidence::default())
}

/// The request id a marked result names, however the runtime formatted it
/// (`"proctor_late_reply_to":1` or pretty-printed with spaces).
fn marked_request(content: &str) -> Option<u64> {
    let rest = &content[content.find(LATE_REPLY_MARKER)? + LATE_REPLY_MARKER.len()..];
    let digits: String = rest
        .trim_start_matches(|c: char| c == '"' || c == '\\' || c == ':' || c.is_whitespace())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_is_found_however_it_is_formatted() {
        assert_eq!(marked_request(r#"{"echo":{},"proctor_late_reply_to":1}"#), Some(1));
        assert_eq!(marked_request("{\n  \"proctor_late_reply_to\": 12\n}"), Some(12));
        assert_eq!(marked_request(r#"{\"proctor_late_reply_to\":3}"#), Some(3));
        assert_eq!(marked_request("{\"echo\":{}}"), None);
    }
}
