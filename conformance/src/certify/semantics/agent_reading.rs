//! How Claude Code and Codex read what a command hook did: its exit status,
//! stdout and stderr, turned into what the agent does next.
//!
//! Each rule below was seen in the pinned release, run headless by
//! interop/agents against proctor's mock provider, and is held there by the
//! `agents` comparison of interop/fidelity.sh on generated hooks. Under the
//! `documented` profile the reading is the hooks references': stdout is JSON
//! only when it is one JSON object, exit 2 feeds stderr back, every other
//! status is a non-blocking error.

use serde_json::{Map, Value};

use crate::check::CheckId;
use crate::protocol::Profile;
use crate::protocol::agent_hook::{Agent, HookEvent};

use super::Finding;
use super::codex_output::{codex_schema, codex_unsupported};

/// What the agent does after the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It goes on as if the hook had said nothing.
    Proceed,
    /// It blocks what the event is about (the tool call, the prompt, the stop).
    Block,
    /// It allows a tool call without asking for permission (Claude Code).
    Allow,
    /// It asks the user (Claude Code; headless, that refuses the call).
    Ask,
    /// It stops the whole agent (`continue: false`, Claude Code).
    Stop,
}

impl Effect {
    /// The decision as `--cases` names it.
    pub fn name(self) -> &'static str {
        match self {
            Effect::Proceed => "proceed",
            Effect::Block => "block",
            Effect::Allow => "allow",
            Effect::Ask => "ask",
            Effect::Stop => "stop",
        }
    }
}

/// What the agent made of one hook run.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// What it does next.
    pub effect: Effect,
    /// The reason it passes on with a block (to the model, or to the user for a prompt).
    pub reason: Option<String>,
    /// Text it adds to the conversation.
    pub context: Option<String>,
    /// Why it calls the run a hook error, when it does: the hook's decision is then lost.
    pub error: Option<String>,
    /// The checks this run decided.
    pub findings: Vec<Finding>,
}

/// One finished hook run.
pub struct HookRun<'a> {
    /// The agent's profile (`documented`: the hooks reference).
    pub profile: Profile,
    /// Whose hook it is.
    pub agent: Agent,
    /// The event it ran for.
    pub event: HookEvent,
    /// Its exit status (`None`: killed by a signal).
    pub exit: Option<i32>,
    /// Its stdout.
    pub stdout: &'a [u8],
    /// Its stderr.
    pub stderr: &'a [u8],
}

const EXIT_STATUS: CheckId = "AGENT-HOOK-EXIT-STATUS";
const EXIT2_STDERR: CheckId = "AGENT-HOOK-EXIT2-STDERR";
const STDOUT_JSON: CheckId = "AGENT-HOOK-STDOUT-JSON";
const EVENT_NAME: CheckId = "AGENT-HOOK-EVENT-NAME";
const OUTPUT_SCHEMA: CheckId = "AGENT-HOOK-OUTPUT-SCHEMA";
const SUPPORTED: CheckId = "AGENT-HOOK-SUPPORTED-OUTPUT";
const BLOCK_REASON: CheckId = "AGENT-HOOK-BLOCK-REASON";

/// Reads one hook run as `run.profile`'s agent does.
pub fn read(run: &HookRun<'_>) -> Reading {
    let mut r = Reading { effect: Effect::Proceed, reason: None, context: None, error: None, findings: Vec::new() };
    let stdout = String::from_utf8_lossy(run.stdout);
    let stderr = String::from_utf8_lossy(run.stderr);
    // Claude Code reads a JSON object on stdout whatever the exit status (its hooks reference,
    // "Exit code output"): after exit 2 its reason goes first, after another status it decides.
    let claude = run.agent == Agent::ClaudeCode;
    match run.exit {
        Some(code) if code != 0 && code != 2 && claude && braced_object(&stdout).is_some() => {
            // Claude Code acts on the object, and still reports the run as a hook error.
            read_stdout(run, &stdout, &mut r);
            let actual = format!("exit status {code} with a JSON decision: Claude Code acts on it but reports a hook error");
            r.findings.push(Finding::mismatch(EXIT_STATUS, "exit", "0 (read stdout) or 2 (block, reason on stderr)", actual));
        }
        Some(0) => {
            r.findings.push(Finding::pass(EXIT_STATUS));
            read_stdout(run, &stdout, &mut r);
        }
        Some(2) => {
            r.findings.push(Finding::pass(EXIT_STATUS));
            // Claude Code still reads a JSON object on stdout after exit 2, and takes its reason first.
            let json_reason = if claude { braced_object(&stdout).and_then(|o| block_reason(&o)) } else { None };
            let said = stderr.trim();
            if said.is_empty() && json_reason.is_none() {
                let expected = "the reason on stderr (the agent feeds stderr, and only stderr, back after exit 2)";
                let actual = if stdout.trim().is_empty() {
                    "nothing on stderr".to_string()
                } else {
                    "nothing on stderr; the reason went to stdout".into()
                };
                r.findings.push(Finding::mismatch(EXIT2_STDERR, "stderr", expected, actual));
                if run.agent == Agent::Codex && run.profile.codex_exit2_fails_open() {
                    // Codex fails open: the hook run is an error and the call goes on.
                    r.error = Some(format!("{} hook exited with code 2 but did not write a blocking reason to stderr", run.event.name()));
                    return r;
                }
                r.reason = Some("No stderr output".into());
            } else {
                r.findings.push(Finding::pass(EXIT2_STDERR));
                r.reason = Some(json_reason.unwrap_or_else(|| said.to_string()));
            }
            r.effect = blocking_effect(run.event);
            if claude && run.event == HookEvent::PermissionRequest {
                // "Exit code 2 isn't honored" there: the permission flow goes on unchanged.
                r.effect = Effect::Proceed;
            }
            if r.effect != Effect::Block && run.agent == Agent::Codex && run.profile.codex_exit2_fails_open() {
                // Codex gives exit 2 no meaning where nothing can be blocked: the run fails.
                r.error = Some(format!("{} hook exited with code 2, which blocks nothing here", run.event.name()));
            }
        }
        other => {
            let actual = match other {
                Some(code) => format!("exit status {code}: a non-blocking error; the agent goes on without the hook's decision"),
                None => "killed by a signal".into(),
            };
            let tail: String = stderr.trim().chars().rev().take(200).collect::<Vec<_>>().into_iter().rev().collect();
            let actual = if tail.is_empty() { actual } else { format!("{actual} (stderr: {tail})") };
            r.findings.push(Finding::mismatch(EXIT_STATUS, "exit", "0 (read stdout) or 2 (block, reason on stderr)", actual.clone()));
            r.error = Some(actual);
        }
    }
    r
}

/// The effect a block has for an event (most events cannot be blocked: their block is ignored).
fn blocking_effect(event: HookEvent) -> Effect {
    if event.decisions().contains(&"block") { Effect::Block } else { Effect::Proceed }
}

/// Whitespace as each agent trims it: JavaScript's `trim` also strips a byte-order mark, Rust's does not.
fn trimmed(agent: Agent, text: &str) -> &str {
    match agent {
        Agent::ClaudeCode => text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}'),
        Agent::Codex => text.trim(),
    }
}

/// Stdout as Claude Code parses it: when trimmed it is braced, it is JSON.
fn braced_object(stdout: &str) -> Option<Map<String, Value>> {
    let t = trimmed(Agent::ClaudeCode, stdout);
    if !(t.starts_with('{') && t.ends_with('}')) {
        return None;
    }
    match parse(Agent::ClaudeCode, t) {
        Ok(Value::Object(o)) => Some(o),
        _ => None,
    }
}

/// JSON as each agent's parser reads it: Codex's serde_json refuses a lone surrogate escape
/// (`"\ud800"`), Claude Code's `JSON.parse` keeps it (and shows it as U+FFFD).
fn parse(agent: Agent, text: &str) -> serde_json::Result<Value> {
    match serde_json::from_str(text) {
        Err(e) if agent == Agent::ClaudeCode => {
            let replaced = lone_surrogates_replaced(text);
            if replaced == text { Err(e) } else { serde_json::from_str(&replaced) }
        }
        read => read,
    }
}

/// `text` with every `\uXXXX` escape of a surrogate that is not half of a pair written as
/// `\ufffd`, as a JavaScript string holding it is shown.
fn lone_surrogates_replaced(text: &str) -> String {
    let escape_at = |i: usize| -> Option<u32> {
        let hex = text.get(i + 2..i + 6)?;
        text[i..].starts_with("\\u").then(|| u32::from_str_radix(hex, 16).ok()).flatten()
    };
    let (mut out, mut i) = (String::with_capacity(text.len()), 0);
    while i < text.len() {
        let Some(c) = text[i..].chars().next() else { break };
        if c != '\\' {
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        match escape_at(i) {
            Some(0xD800..=0xDBFF) if matches!(escape_at(i + 6), Some(0xDC00..=0xDFFF)) => {
                out.push_str(&text[i..i + 12]);
                i += 12;
            }
            Some(0xD800..=0xDFFF) => {
                out.push_str("\\ufffd");
                i += 6;
            }
            _ => {
                // Any other escape, `\\` included, is copied whole so its second character is never read as a start.
                let next = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                out.push_str(&text[i..i + 1 + next]);
                i += 1 + next;
            }
        }
    }
    out
}

/// Whether stdout is taken as JSON by the agent (as opposed to plain text).
fn taken_as_json(run: &HookRun<'_>, t: &str) -> bool {
    t.starts_with('{') || (run.agent == Agent::Codex && run.profile.codex_json_when_bracket() && t.starts_with('['))
}

fn read_stdout(run: &HookRun<'_>, stdout: &str, r: &mut Reading) {
    let t = trimmed(run.agent, stdout);
    if !taken_as_json(run, t) {
        return read_plain(run, t, r);
    }
    let object = match parse(run.agent, t) {
        Ok(Value::Object(o)) => o,
        Ok(other) => {
            let actual = format!("a JSON {}", crate::framing::json_type_name(&other));
            r.findings.push(Finding::mismatch(STDOUT_JSON, "stdout", "one JSON object", actual.clone()));
            r.error = Some(format!("hook returned invalid JSON output: {actual}"));
            return;
        }
        // Claude Code 2.1.332 (its parseHookOutput) reads what does not parse as plain text when
        // it does not end in `}`, or when it is several JSON lines of which none says anything.
        Err(_) if run.agent == Agent::ClaudeCode && run.profile.claude_parse_hook_output() && (!t.ends_with('}') || silent_lines(t)) => {
            return read_plain(run, t, r);
        }
        Err(e) => {
            let actual = format!("not valid JSON ({e}): two objects, or an object with text after it, are not one object");
            r.findings.push(Finding::mismatch(
                STDOUT_JSON,
                "stdout",
                "one JSON object and nothing else (logs go to stderr)",
                actual.clone(),
            ));
            r.error = Some(format!("hook output looks like JSON but is not valid: {e}"));
            return;
        }
    };
    r.findings.push(Finding::pass(STDOUT_JSON));
    read_object(run, &object, r);
}

/// Stdout the agent reads as plain text: harmless, unless a JSON decision is in it that the
/// agent will never see.
fn read_plain(run: &HookRun<'_>, t: &str, r: &mut Reading) {
    if let Some(object) = hidden_object(t) {
        let first = t.lines().next().unwrap_or_default();
        let before = if t.starts_with('\u{feff}') {
            "a byte-order mark (U+FEFF) before it".to_string()
        } else {
            format!("other text (`{}`) around it", cut(first))
        };
        let actual =
            format!("the JSON object `{}` with {before}: read as plain text, so its decision is ignored", cut(&object.replace('\n', " ")));
        r.findings.push(Finding::mismatch(STDOUT_JSON, "stdout", "one JSON object and nothing else (logs go to stderr)", actual));
    } else if !t.is_empty() && run.agent == Agent::Codex && matches!(run.event, HookEvent::Stop | HookEvent::SubagentStop) {
        // Codex expects JSON from a stop hook that exits 0 with output.
        let actual = format!("plain text (`{}`), which Codex refuses from a {} hook", cut(t), run.event.name());
        r.findings.push(Finding::mismatch(STDOUT_JSON, "stdout", "nothing, or one JSON object", actual.clone()));
        r.error = Some(actual);
    } else {
        r.findings.push(Finding::pass(STDOUT_JSON));
        if !t.is_empty() && plain_text_is_context(run.agent, run.event) {
            r.context = Some(t.to_string());
        }
    }
}

/// Two or more lines, each a JSON object that Claude Code's output schema keeps nothing of: no
/// top-level output field, or one of the wrong type (its parseHookOutput reads such output as
/// plain text).
fn silent_lines(t: &str) -> bool {
    let silent = |o: &Map<String, Value>| {
        let known: Vec<(&String, &Value, Kind)> =
            o.iter().filter_map(|(k, v)| COMMON.iter().find(|(c, _)| c == k).map(|(_, kind)| (k, v, *kind))).collect();
        known.is_empty() || known.iter().any(|(_, v, kind)| !kind.holds(v))
    };
    let lines: Vec<&str> = t.lines().filter(|l| !l.trim().is_empty()).collect();
    lines.len() >= 2 && lines.iter().all(|l| serde_json::from_str::<Map<String, Value>>(l.trim()).is_ok_and(|o| silent(&o)))
}

/// Whether an object holds something an author meant the agent to act on: an output field, at
/// the top level or where hookSpecificOutput holds it (`continue: true` changes nothing).
fn says_something(o: &Map<String, Value>) -> bool {
    const INNER: &[&str] = &["additionalContext", "permissionDecision", "permissionDecisionReason", "updatedInput"];
    o.iter()
        .any(|(k, v)| (COMMON.iter().any(|(c, _)| c == k) || INNER.contains(&k.as_str())) && !(k == "continue" && v == &Value::Bool(true)))
}

/// A JSON object inside plain-text stdout that says something (a decision, a reason, context…):
/// what an author meant the agent to read, lost because of the text around it. An empty object,
/// or one that only says `continue: true`, loses nothing.
fn hidden_object(t: &str) -> Option<String> {
    let body = t.trim_start_matches('\u{feff}');
    let whole = match (body.find('{'), body.rfind('}')) {
        (Some(i), Some(j)) if i < j => Some(&body[i..=j]),
        _ => None,
    };
    let candidates = whole.into_iter().chain(t.lines().map(|l| l.trim().trim_start_matches('\u{feff}')));
    for candidate in candidates {
        if let Ok(o) = serde_json::from_str::<Map<String, Value>>(candidate)
            && says_something(&o)
        {
            return Some(candidate.to_string());
        }
    }
    None
}

/// Whether plain stdout is added to the conversation (both agents: for a prompt and a session
/// start; Codex for a subagent's start too).
pub(crate) fn plain_text_is_context(agent: Agent, event: HookEvent) -> bool {
    matches!(event, HookEvent::UserPromptSubmit | HookEvent::SessionStart) || (agent == Agent::Codex && event == HookEvent::SubagentStart)
}

fn cut(s: &str) -> String {
    if s.chars().count() > 60 { format!("{}…", s.chars().take(60).collect::<String>()) } else { s.to_string() }
}

/// The top-level fields of the agents' hook output, and the type each must have.
const COMMON: &[(&str, Kind)] = &[
    ("continue", Kind::Bool),
    ("suppressOutput", Kind::Bool),
    ("stopReason", Kind::Str),
    ("decision", Kind::Str),
    ("reason", Kind::Str),
    ("systemMessage", Kind::Str),
    ("hookSpecificOutput", Kind::Object),
];

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bool,
    Str,
    Object,
}

impl Kind {
    fn holds(self, v: &Value) -> bool {
        match self {
            Kind::Bool => v.is_boolean(),
            Kind::Str => v.is_string(),
            Kind::Object => v.is_object(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Bool => "a boolean",
            Kind::Str => "a string",
            Kind::Object => "an object",
        }
    }
}

/// The `hookSpecificOutput` fields an event takes.
fn specific_fields(event: HookEvent) -> &'static [(&'static str, Kind)] {
    match event {
        HookEvent::PreToolUse => &[
            ("hookEventName", Kind::Str),
            ("permissionDecision", Kind::Str),
            ("permissionDecisionReason", Kind::Str),
            ("updatedInput", Kind::Object),
            ("additionalContext", Kind::Str),
        ],
        HookEvent::PermissionRequest => &[("hookEventName", Kind::Str), ("decision", Kind::Object)],
        _ => &[("hookEventName", Kind::Str), ("additionalContext", Kind::Str)],
    }
}

fn read_object(run: &HookRun<'_>, o: &Map<String, Value>, r: &mut Reading) {
    let codex = run.agent == Agent::Codex;
    // Types first: a wrong type makes the whole output invalid, in both agents.
    let mut wrong: Vec<String> = Vec::new();
    for (key, kind) in COMMON {
        if let Some(v) = o.get(*key)
            && !(kind.holds(v) || (codex && v.is_null()))
        {
            wrong.push(format!("`{key}` is {} (expected {})", super::describe(Some(v)), kind.name()));
        }
    }
    let approve = !codex || run.event == HookEvent::PreToolUse;
    if let Some(d) = o.get("decision").and_then(Value::as_str)
        && !(d == "block" || (approve && d == "approve"))
    {
        wrong.push(format!("`decision` is \"{d}\" (expected \"block\"{})", if approve { " or \"approve\"" } else { "" }));
    }
    let specific = o.get("hookSpecificOutput").and_then(Value::as_object);
    let permission = specific.and_then(|s| s.get("permissionDecision")).and_then(Value::as_str);
    let permissions: &[&str] = if codex { &["allow", "deny", "ask"] } else { &["allow", "deny", "ask", "defer"] };
    if let Some(p) = permission.filter(|p| run.event == HookEvent::PreToolUse && !permissions.contains(p)) {
        wrong.push(format!("`hookSpecificOutput.permissionDecision` is \"{p}\" (expected one of {})", permissions.join(", ")));
    }
    if let Some(s) = specific {
        for (key, kind) in specific_fields(run.event) {
            if let Some(v) = s.get(*key)
                && !kind.holds(v)
            {
                wrong.push(format!("`hookSpecificOutput.{key}` is {} (expected {})", super::describe(Some(v)), kind.name()));
            }
        }
    }
    // Codex's output schemas are closed (additionalProperties: false): an unknown key fails them.
    let unknown: Vec<String> = if codex {
        let (top, inner) = codex_schema(run.event);
        let mut u: Vec<String> = o
            .keys()
            .filter(|k| !(top.contains(&k.as_str()) || (inner.is_some() && *k == "hookSpecificOutput")))
            .map(|k| format!("`{k}`"))
            .collect();
        if let (Some(s), Some(inner)) = (specific, inner) {
            u.extend(s.keys().filter(|k| !inner.contains(&k.as_str())).map(|k| format!("`hookSpecificOutput.{k}`")));
        }
        u
    } else {
        Vec::new()
    };
    // A field written where it does not belong is lost in both agents (Claude Code ignores it).
    let misplaced: Vec<String> = {
        let inner: Vec<&str> = specific_fields(run.event).iter().map(|(k, _)| *k).filter(|k| *k != "hookEventName").collect();
        let mut m: Vec<String> =
            o.keys().filter(|k| inner.contains(&k.as_str())).map(|k| format!("`{k}` belongs in hookSpecificOutput")).collect();
        if let Some(s) = specific {
            m.extend(
                s.keys()
                    .filter(|k| COMMON.iter().any(|(c, _)| c == k) && !inner.contains(&k.as_str()))
                    .map(|k| format!("`hookSpecificOutput.{k}` belongs at the top level")),
            );
        }
        m
    };
    if !misplaced.is_empty() && !codex {
        wrong.extend(misplaced);
    }
    if !unknown.is_empty() {
        wrong.push(format!(
            "{} not in {}'s output schema for {} (its schemas allow no other key)",
            unknown.join(", "),
            run.agent.name(),
            run.event.name()
        ));
    }
    if wrong.is_empty() {
        r.findings.push(Finding::pass(OUTPUT_SCHEMA));
    } else {
        let expected = format!("the fields of {}'s hook output for {}, each of its type", run.agent.name(), run.event.name());
        r.findings.push(Finding::mismatch(OUTPUT_SCHEMA, "$", &expected, wrong.join("; ")));
        r.error = Some(format!("hook output failed {}'s output schema: {}", run.agent.name(), wrong.join("; ")));
        return;
    }

    if let Some(s) = specific {
        match s.get("hookEventName").and_then(Value::as_str) {
            None => {
                r.findings.push(Finding::mismatch(EVENT_NAME, "$.hookSpecificOutput.hookEventName", run.event.name(), "missing"));
                r.error = Some("hookSpecificOutput is missing required field \"hookEventName\"".into());
                return;
            }
            // Codex requires the field but does not compare it with the event (seen in 0.171.0).
            Some(name) if name != run.event.name() && !(codex && run.profile.codex_event_name_not_compared()) => {
                r.findings.push(Finding::mismatch(
                    EVENT_NAME,
                    "$.hookSpecificOutput.hookEventName",
                    run.event.name(),
                    format!("\"{name}\""),
                ));
                r.error = Some(format!("Hook returned incorrect event name: expected '{}' but got '{name}'", run.event.name()));
                return;
            }
            Some(_) => r.findings.push(Finding::pass(EVENT_NAME)),
        }
    }

    if let Some((field, codex_says)) = reasonless_block(o) {
        let actual = match run.agent {
            Agent::ClaudeCode => format!("{field} is empty or missing: the model is told only \"Blocked by hook\""),
            Agent::Codex => format!("{field} is empty or missing: Codex refuses the block ({codex_says}) and the call goes on"),
        };
        r.findings.push(Finding::mismatch(BLOCK_REASON, "$", "a block with a non-empty reason", actual));
        if codex {
            r.error = Some(format!("{} hook returned {codex_says}", run.event.name()));
            return;
        }
    } else if block_reason(o).is_some() {
        r.findings.push(Finding::pass(BLOCK_REASON));
    }
    if codex {
        if let Some(why) = codex_unsupported(run.event, o, specific) {
            r.findings.push(Finding::mismatch(SUPPORTED, "$", "output Codex acts on", why.clone()));
            r.error = Some(format!("{} hook returned {why}", run.event.name()));
            return;
        }
        r.findings.push(Finding::pass(SUPPORTED));
    }
    decide(run, o, specific, r);
}

/// A field's text, when it is a non-empty string.
fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The decision in a valid output object.
fn decide(run: &HookRun<'_>, o: &Map<String, Value>, specific: Option<&Map<String, Value>>, r: &mut Reading) {
    r.context = specific.and_then(|s| text(s.get("additionalContext")));
    if o.get("continue") == Some(&Value::Bool(false)) {
        r.effect = Effect::Stop;
        r.reason = text(o.get("stopReason"));
        return;
    }
    if let Some(reason) = block_reason(o) {
        r.effect = blocking_effect(run.event);
        r.reason = (r.effect == Effect::Block).then_some(reason);
        return;
    }
    if run.agent == Agent::ClaudeCode && matches!(run.event, HookEvent::Stop | HookEvent::SubagentStop) && r.context.is_some() {
        // Claude Code 2.1.332 goes on working with a stop hook's context as feedback, like a block.
        r.effect = Effect::Block;
        r.reason = r.context.take();
        return;
    }
    if run.event == HookEvent::PreToolUse
        && let Some(s) = specific
    {
        match s.get("permissionDecision").and_then(Value::as_str) {
            Some("allow") => r.effect = Effect::Allow,
            Some("ask") => {
                r.effect = Effect::Ask;
                r.reason = text(s.get("permissionDecisionReason"));
            }
            _ => {}
        }
    }
    if run.agent == Agent::ClaudeCode && run.event == HookEvent::PreToolUse && o.get("decision").and_then(Value::as_str) == Some("approve")
    {
        r.effect = Effect::Allow;
    }
    if run.event == HookEvent::PermissionRequest
        && let Some(d) = specific.and_then(|s| s.get("decision"))
    {
        match d.get("behavior").and_then(Value::as_str) {
            Some("allow") => r.effect = Effect::Allow,
            Some("deny") => {
                r.effect = Effect::Block;
                r.reason = text(d.get("message"));
            }
            _ => {}
        }
    }
}

/// A block or deny whose reason is empty or missing: the field that should hold it, and Codex's
/// words for refusing it.
fn reasonless_block(o: &Map<String, Value>) -> Option<(&'static str, &'static str)> {
    let empty = |v: Option<&Value>| v.and_then(Value::as_str).is_none_or(|s| s.trim().is_empty());
    let specific = o.get("hookSpecificOutput").and_then(Value::as_object);
    if specific.and_then(|s| s.get("permissionDecision")).and_then(Value::as_str) == Some("deny")
        && empty(specific.and_then(|s| s.get("permissionDecisionReason")))
    {
        return Some(("permissionDecisionReason", "permissionDecision:deny without a non-empty permissionDecisionReason"));
    }
    if o.get("decision").and_then(Value::as_str) == Some("block") && empty(o.get("reason")) {
        return Some(("reason", "decision:block without a non-empty reason"));
    }
    None
}

/// The reason of a block in an output object (`decision: block`, or a
/// PreToolUse `permissionDecision: deny`), with Claude Code's stand-in when none is given.
fn block_reason(o: &Map<String, Value>) -> Option<String> {
    let specific = o.get("hookSpecificOutput").and_then(Value::as_object);
    if specific.and_then(|s| s.get("permissionDecision")).and_then(Value::as_str) == Some("deny") {
        return Some(text(specific.and_then(|s| s.get("permissionDecisionReason"))).unwrap_or_else(|| "Blocked by hook".into()));
    }
    if o.get("decision").and_then(Value::as_str) == Some("block") {
        return Some(text(o.get("reason")).unwrap_or_else(|| "Blocked by hook".into()));
    }
    None
}

#[cfg(test)]
#[path = "agent_reading_tests.rs"]
mod tests;
