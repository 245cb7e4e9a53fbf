//! Judging a runtime from what it sent: the bytes a recording mock plugin
//! received (`proctor mock-plugin --record`), checked against the family's
//! framing, envelope, ids, methods and lifecycle. The runtime-side checks
//! live in the same catalogue (group `runtime`).

mod record;

use serde_json::Value;

use crate::certify::CheckResult;
use crate::check::{CATALOGUE, CheckId, Evidence, Failure, Group, Outcome, lookup};
use crate::framing::{Id, Violation, parse_envelope, read_document, read_line};
use crate::protocol::{Family, Profile, Role, picoclaw_hook, promptkit_server, runok_extension};
use crate::transport::LineEnding;

pub use record::{ParseError, Session, parse_record};

/// Everything one plugin received, process by process.
#[derive(Debug, Clone)]
pub struct Received {
    /// The plugin's name in the scenario.
    pub plugin: String,
    /// Its family.
    pub family: Family,
    /// Its roles.
    pub roles: Vec<Role>,
    /// One entry per process the runtime started.
    pub sessions: Vec<Session>,
    /// How many requests the conversation asked of this plugin (the LLM's
    /// tool calls naming it), when known: what a dead plugin's requests
    /// are counted against.
    pub calls_expected: Option<usize>,
}

/// The runtime checks' results for every plugin, in catalogue order per plugin.
pub fn verify(received: &[Received], profile: Profile) -> Vec<CheckResult> {
    let mut out = Vec::new();
    for r in received {
        let mut outcomes: Vec<(CheckId, Outcome, Evidence)> = Vec::new();
        for session in &r.sessions {
            let found = match r.family.is_jsonrpc() && r.family != Family::RunokExtension {
                true => judge_lines(r, session),
                false => judge_one_shot(r, session),
            };
            for (id, result, evidence) in found {
                merge(&mut outcomes, id, result, evidence);
            }
        }
        if r.family == Family::PromptkitServer && !r.sessions.is_empty() {
            let (outcome, evidence) = judge_restarts(r, profile);
            outcomes.push(("RUNTIME-RESTARTS-DEAD-SERVER", outcome, evidence));
        }
        // Every check not judged above is a skip, and says why once.
        let unjudged = match r.sessions.is_empty() {
            true => "the runtime never started this plugin",
            false => "nothing the runtime sent exercised this check",
        };
        for def in runtime_checks(r) {
            if !outcomes.iter().any(|(id, ..)| *id == def) {
                outcomes.push((def, Outcome::Skip { reason: unjudged.into() }, Evidence::default()));
            }
        }
        outcomes.sort_by_key(|(id, ..)| CATALOGUE.iter().position(|c| c.id == *id));
        for (id, outcome, evidence) in outcomes {
            if let Some(def) = lookup(id) {
                out.push(CheckResult::new(def, profile.name(), Some(r.plugin.clone()), outcome, evidence));
            }
        }
    }
    out
}

/// Runtime checks judged for the whole scenario rather than per plugin
/// record: its expectations, and the LLM journal (proctor's harness judges
/// these, since it reads scenarios and the provider's script).
pub const JUDGED_PER_SCENARIO: &[CheckId] = &[
    "RUNTIME-EXPECTED-CALLS",
    "RUNTIME-EXPECTED-RESULTS",
    "RUNTIME-LATE-REPLY-DISCARDED",
    "RUNTIME-LLM-REQUEST",
    "RUNTIME-LLM-TOOL-RESULTS",
    "RUNTIME-LLM-SCRIPT",
];

fn runtime_checks(r: &Received) -> Vec<CheckId> {
    CATALOGUE
        .iter()
        .filter(|c| c.group == Group::Runtime && c.applies(r.family, &r.roles) && !JUDGED_PER_SCENARIO.contains(&c.id))
        .map(|c| c.id)
        .collect()
}

/// The first failure of a check wins; a pass only fills an empty slot.
fn merge(outcomes: &mut Vec<(CheckId, Outcome, Evidence)>, id: CheckId, result: Result<(), Failure>, evidence: Evidence) {
    let outcome = match result {
        Ok(()) => Outcome::Pass,
        Err(f) => Outcome::fail(f),
    };
    match outcomes.iter_mut().find(|(i, ..)| *i == id) {
        Some(slot) if slot.1.is_failure() => {}
        Some(slot) if outcome.is_failure() => *slot = (id, outcome, evidence),
        Some(_) => {}
        None => outcomes.push((id, outcome, evidence)),
    }
}

type Found = Vec<(CheckId, Result<(), Failure>, Evidence)>;

fn mismatch(path: &str, expected: &str, actual: impl Into<String>) -> Failure {
    Failure::Mismatch { path: path.into(), expected: expected.into(), actual: actual.into() }
}

fn judge_lines(r: &Received, s: &Session) -> Found {
    let mut found = Found::new();
    let mut parts: Vec<&[u8]> = s.bytes.split(|b| *b == b'\n').collect();
    let partial = parts.pop().unwrap_or_default();
    let mut messages = Vec::new();
    for line in parts {
        let (body, ending) = match line.strip_suffix(b"\r") {
            Some(b) => (b, LineEnding::CrLf),
            None => (line, LineEnding::Lf),
        };
        let parsed = read_line(body, ending);
        let ev = Evidence::received(line);
        match (parsed.value, parsed.violations.first()) {
            (Some(v), None) => {
                found.push(("RUNTIME-FRAMING", Ok(()), ev));
                messages.push((v, line.to_vec()));
            }
            (_, Some(v)) => found.push(("RUNTIME-FRAMING", Err(Failure::Framing { violation: v.clone() }), ev)),
            (None, None) => {}
        }
    }
    if !partial.is_empty() {
        found.push(("RUNTIME-FRAMING", Err(Failure::Framing { violation: Violation::unterminated(partial) }), Evidence::received(partial)));
    }
    let mut expected_id = 1u64;
    for (i, (msg, raw)) in messages.iter().enumerate() {
        let ev = Evidence::received(raw);
        let env = parse_envelope(msg);
        let method = env.method.as_ref().and_then(Value::as_str).unwrap_or_default().to_string();
        let notification = env.id == Id::Absent;
        let envelope_ok = env.version_ok()
            && !method.is_empty()
            && msg.get("params").is_none_or(Value::is_object)
            && (notification || env.id.as_u64().is_some());
        found.push((
            "RUNTIME-JSONRPC-ENVELOPE",
            if envelope_ok {
                Ok(())
            } else {
                Err(mismatch("$", "jsonrpc \"2.0\", a method, object params, an integer id", String::from_utf8_lossy(raw)))
            },
            ev.clone(),
        ));
        if !notification {
            let got = env.id.as_u64();
            found.push((
                "RUNTIME-IDS-INCREASING",
                if got == Some(expected_id) {
                    Ok(())
                } else {
                    Err(Failure::IdMismatch { sent: expected_id.to_string(), received: env.id.to_string() })
                },
                ev.clone(),
            ));
            expected_id = got.map_or(expected_id + 1, |g| g.max(expected_id) + 1);
        }
        found.push(("RUNTIME-METHODS", method_ok(r.family, &method, msg.get("params"), notification), ev.clone()));
        if r.family == Family::PicoclawHook && i == 0 {
            let p = msg.get("params");
            let ok = method == picoclaw_hook::HELLO
                && p.and_then(|p| p.get("version")) == Some(&Value::from(1))
                && p.and_then(|p| p.get("modes")).is_some_and(Value::is_array);
            found.push((
                "RUNTIME-HELLO-FIRST",
                if ok { Ok(()) } else { Err(mismatch("$.method", "hook.hello with version 1 and modes, first", method.clone())) },
                ev,
            ));
        }
    }
    found
}

/// Whether a line-protocol message uses the family's methods and params.
fn method_ok(family: Family, method: &str, params: Option<&Value>, notification: bool) -> Result<(), Failure> {
    let params = params.cloned().unwrap_or(Value::Null);
    let ok = match family {
        Family::PromptkitServer => method == promptkit_server::EXECUTE && params.get("args").is_some(),
        Family::PicoclawHook if notification => matches!(method, "hook.event" | "hook.runtime_event"),
        Family::PicoclawHook => match method {
            picoclaw_hook::HELLO => params.get("name").is_some_and(Value::is_string),
            picoclaw_hook::BEFORE_TOOL | picoclaw_hook::AFTER_TOOL | picoclaw_hook::APPROVE_TOOL => {
                params.get("tool").is_some_and(Value::is_string)
            }
            picoclaw_hook::BEFORE_LLM => params.get("messages").is_some_and(Value::is_array) || params.get("model").is_some(),
            picoclaw_hook::AFTER_LLM => params.get("response").is_some(),
            _ => false,
        },
        _ => true,
    };
    if ok { Ok(()) } else { Err(mismatch("$.method", &format!("a {family} method with its params"), format!("{method} {params}"))) }
}

/// A server-mode tool that died must be started again for the calls left.
fn judge_restarts(r: &Received, profile: Profile) -> (Outcome, Evidence) {
    let Some(died) = r.sessions.iter().position(Session::died) else {
        return (Outcome::Skip { reason: "the plugin never died while the runtime held it".into() }, Evidence::default());
    };
    if !profile.promptkit_restarts_dead_servers() {
        return (
            Outcome::Skip { reason: format!("{} never restarts a dead server (promptkit.server-never-restarted)", profile.name()) },
            Evidence::default(),
        );
    }
    let requests = |s: &Session| s.bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).count();
    let evidence = Evidence::received(&r.sessions[died].bytes);
    if r.sessions[died + 1..].iter().any(|s| requests(s) > 0) {
        return (Outcome::Pass, evidence);
    }
    let received: usize = r.sessions.iter().map(requests).sum();
    match r.calls_expected {
        Some(expected) if expected > received => {
            let exit = r.sessions[died].exit.unwrap_or_default();
            let what = format!(
                "a new process for the {} call(s) left after the plugin died (exit {exit}) having received {received} of {expected} request(s)",
                expected - received
            );
            (Outcome::fail(Failure::Missing { what }), evidence)
        }
        Some(_) => (Outcome::Skip { reason: "the plugin died after its last call; nothing was left to restart it for".into() }, evidence),
        None => (Outcome::Skip { reason: "how many calls the plugin should have had is unknown".into() }, evidence),
    }
}

fn judge_one_shot(r: &Received, s: &Session) -> Found {
    let mut found = Found::new();
    let ev = Evidence::received(&s.bytes);
    found.push((
        "RUNTIME-STDIN-CLOSED",
        if s.eof { Ok(()) } else { Err(Failure::Unexpected { what: "the plugin ended before stdin was closed".into() }) },
        ev.clone(),
    ));
    let doc = read_document(&s.bytes);
    let framing = match doc.violations.iter().find(|v| !matches!(v, Violation::MultiLine { .. })) {
        None => Ok(()),
        Some(v) => Err(Failure::Framing { violation: v.clone() }),
    };
    found.push(("RUNTIME-FRAMING", framing, ev.clone()));
    let Some(value) = doc.into_readable() else { return found };
    if r.family == Family::RunokExtension {
        let env = parse_envelope(&value);
        let ok = env.version_ok() && env.id.as_u64().is_some();
        found.push((
            "RUNTIME-JSONRPC-ENVELOPE",
            if ok { Ok(()) } else { Err(mismatch("$", "jsonrpc \"2.0\" and an integer id", value.to_string())) },
            ev.clone(),
        ));
        let params = value.get("params").cloned().unwrap_or(Value::Null);
        let fields = ["command", "flags", "args", "raw_command_line", "env", "cwd"];
        let missing: Vec<&str> = fields.iter().copied().filter(|f| params.get(*f).is_none()).collect();
        let ok = env.method.as_ref().and_then(Value::as_str) == Some(runok_extension::VALIDATE_COMMAND) && missing.is_empty();
        found.push((
            "RUNTIME-METHODS",
            if ok {
                Ok(())
            } else {
                Err(mismatch(
                    "$.params",
                    "validateCommand with command, flags, args, raw_command_line, env, cwd",
                    format!("missing {}", missing.join(", ")),
                ))
            },
            ev,
        ));
    } else {
        let role = r.roles.first().copied().unwrap_or(Role::Tool);
        let ok = match role {
            Role::Tool => value.get("args").is_some(),
            Role::Eval => value.get("type").is_some() && value.get("content").is_some(),
            Role::EvalHook => value.get("eval_id").is_some(),
            // A selector request is {query, candidates}, not a hook payload
            // (measured: verify rejected every request the real ExecClient sent).
            Role::Selector => value.get("query").is_some_and(Value::is_object) && value.get("candidates").is_some(),
            _ => value.get("hook").is_some_and(Value::is_string) && value.get("phase").is_some_and(Value::is_string),
        };
        found.push((
            "RUNTIME-METHODS",
            if ok { Ok(()) } else { Err(mismatch("$", &format!("a PromptKit {role} request"), value.to_string())) },
            ev,
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server plugin the runtime never started gets one result per check,
    /// each a skip that says so: RUNTIME-RESTARTS-DEAD-SERVER was once
    /// reported twice (a "never started" skip and a "never died" one).
    #[test]
    fn a_plugin_never_started_is_skipped_once_per_check() {
        let r = Received {
            plugin: "kv".into(),
            family: Family::PromptkitServer,
            roles: vec![Role::Tool],
            sessions: Vec::new(),
            calls_expected: Some(0),
        };
        let results = verify(&[r], Profile::for_family(Family::PromptkitServer)[1]);
        let mut ids: Vec<_> = results.iter().map(|c| c.id).collect();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "a check reported twice: {ids:?}");
        assert!(ids.contains(&"RUNTIME-RESTARTS-DEAD-SERVER"), "{ids:?}");
        for c in &results {
            assert!(
                matches!(&c.detail, Outcome::Skip { reason } if reason == "the runtime never started this plugin"),
                "{}: {:?}",
                c.id,
                c.detail
            );
        }
    }
}
