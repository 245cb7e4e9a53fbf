//! The scenario's `received` and `not_called` expectations, judged on what
//! the runtime sent its plugins: a missing interaction and an unexpected one
//! are different failures.

use proctor_conformance::certify::CheckResult;
use proctor_conformance::check::{Evidence, Failure, Outcome, lookup};
use proctor_conformance::protocol::Profile;
use proctor_conformance::verify::Received;
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
        let outcome = if hit { Outcome::Pass } else { Outcome::fail(Failure::Missing { what: format!("{} receiving {:?}", want.plugin, want.contains) }) };
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
