//! PicoClaw's payloads as it writes and reads them, as pure functions: the
//! params of every method per profile, and how each result is decoded.
//!
//! Shapes follow the Go types in research picoclaw-runok.md §A3: struct
//! fields in declaration order (with `omitempty` where the struct has it),
//! `map[string]any` values (arguments, options) with sorted keys, and the
//! nested `after_*` modify payloads of picoclaw@cf67dd3. Under `documented`
//! the shapes are the protocol document's instead (channel and chat_id,
//! full tool results, tool calls with their function, flat after payloads).

use proctor_conformance::protocol::picoclaw_hook::{self, BEFORE_TOOL};
use proctor_conformance::protocol::wire::sort_keys;
use proctor_conformance::protocol::{Profile, Role};
use proctor_mocks::provider::{LlmMessage, ResolvedCall};
use serde_json::{Map, Value, json};

use crate::scenario::PicoclawHook;

/// `after_tool`'s `duration` (ns): fixed, so snapshots are stable.
pub(super) const DURATION_NS: u64 = 15_000_000;

/// Where in the conversation a request is made (meta's `TurnID`, `Iteration`).
#[derive(Debug, Clone, Copy)]
pub(super) struct At<'a> {
    pub turn_id: &'a str,
    pub iteration: usize,
}

fn meta(profile: Profile, at: At<'_>, trace: &str) -> Value {
    let mut m = picoclaw_hook::meta(profile, trace);
    m["TurnID"] = json!(at.turn_id);
    m["Iteration"] = json!(at.iteration);
    m
}

/// The document's `channel` and `chat_id`, which PicoClaw never sends (§A7).
fn channel(profile: Profile, p: &mut Value) {
    if profile.picoclaw_sends_channel() {
        p["channel"] = json!("cli");
        p["chat_id"] = json!("chat-1");
    }
}

// --- hook modes (§A1) ------------------------------------------------------

/// What a hook is mounted for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Modes {
    /// Observed kinds, normalised to dotted runtime kinds; `*` for all.
    pub observe: Vec<String>,
    /// before_llm and after_llm.
    pub llm: bool,
    /// before_tool and after_tool.
    pub tool: bool,
    /// approve_tool.
    pub approve: bool,
}

/// The legacy short kinds of the events this pipeline emits, with their
/// dotted runtime kinds (the `hook.event` kinds of the document).
const KINDS: &[(&str, &str)] = &[
    ("turn_start", "agent.turn.start"),
    ("turn_end", "agent.turn.end"),
    ("llm_request", "agent.llm.request"),
    ("llm_response", "agent.llm.response"),
    ("tool_exec_start", "agent.tool.exec_start"),
    ("tool_exec_end", "agent.tool.exec_end"),
    ("tool_exec_skipped", "agent.tool.exec_skipped"),
];

/// Legacy aliases PicoClaw accepts in `observe` but this pipeline never emits.
const OTHER_ALIASES: &[&str] = &[
    "llm_delta",
    "llm_retry",
    "context_compress",
    "session_summarize",
    "steering_injected",
    "follow_up_queued",
    "interrupt_received",
    "subturn_spawn",
    "subturn_end",
    "subturn_result_delivered",
    "subturn_orphan",
    "error",
];

/// The document's short name of a dotted runtime kind.
pub(super) fn short_kind(kind: &str) -> &str {
    KINDS.iter().find(|(_, dotted)| *dotted == kind).map_or(kind, |(short, _)| short)
}

/// The modes of a configured hook, or PicoClaw's config error
/// (`pkg/agent/hook_mount.go:222-311`): intercept entries set whole families.
pub(super) fn modes(cfg: &PicoclawHook) -> Result<Modes, String> {
    let mut m = Modes::default();
    for entry in &cfg.intercept {
        match entry.as_str() {
            "before_llm" | "after_llm" => m.llm = true,
            "before_tool" | "after_tool" => m.tool = true,
            "approve_tool" => m.approve = true,
            "" => {}
            other => {
                return Err(format!(
                    "unsupported intercept {other:?} (PicoClaw's are before_llm, after_llm, before_tool, after_tool, approve_tool)"
                ));
            }
        }
    }
    for entry in &cfg.observe {
        let kind = match entry.as_str() {
            "" | "*" | "all" => "*".to_string(),
            e if KINDS.iter().any(|(s, _)| *s == e) => KINDS.iter().find(|(s, _)| *s == e).map(|(_, d)| d.to_string()).unwrap_or_default(),
            e if OTHER_ALIASES.contains(&e) => format!("legacy.{e}"),
            e if ["agent.", "channel.", "bus.", "gateway.", "mcp."].iter().any(|p| e.starts_with(p)) => e.to_string(),
            other => return Err(format!("unsupported observe event {other:?}")),
        };
        m.observe.push(kind);
    }
    if m.observe.is_empty() && !m.llm && !m.tool && !m.approve {
        return Err("no hook modes enabled: give `observe: [\"*\"]` (event kinds) or `intercept: [before_tool]` (before_llm, after_llm, before_tool, after_tool, approve_tool), as in PicoClaw's hooks.processes.<name>".into());
    }
    Ok(m)
}

impl Modes {
    /// The modes for `hook.hello`.
    pub fn roles(&self) -> Vec<Role> {
        let flags =
            [(!self.observe.is_empty(), Role::Observe), (self.llm, Role::Llm), (self.tool, Role::ToolMode), (self.approve, Role::Approve)];
        flags.into_iter().filter(|(on, _)| *on).map(|(_, r)| r).collect()
    }

    /// Whether the hook is notified of `kind` (a dotted runtime kind).
    pub fn observes(&self, kind: &str) -> bool {
        self.observe.iter().any(|o| o == "*" || o == kind)
    }
}

/// Chain order: priority ascending, then name (`rebuildOrdered`, hooks.go:564-578).
pub(super) fn chain_order(hooks: &[(&str, i64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..hooks.len()).collect();
    order.sort_by(|&a, &b| hooks[a].1.cmp(&hooks[b].1).then_with(|| hooks[a].0.cmp(hooks[b].0)));
    order
}

// --- decisions (§A3) -------------------------------------------------------

/// An interceptor action PicoClaw acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Action {
    Continue,
    Modify,
    Respond,
    DenyTool,
    AbortTurn,
    HardAbort,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Continue => "continue",
            Action::Modify => "modify",
            Action::Respond => "respond",
            Action::DenyTool => "deny_tool",
            Action::AbortTurn => "abort_turn",
            Action::HardAbort => "hard_abort",
        }
    }
}

/// An interceptor's decoded answer.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Verdict<T> {
    /// An action valid for the stage, with its reason and payload.
    Act(Action, String, Option<T>),
    /// An unknown action, or one the stage does not support: PicoClaw logs
    /// it and discards this hook's output.
    Unsupported(String),
}

/// Decodes an interceptor result as PicoClaw does: a decode error (a
/// non-object result, a non-string action or reason, a mistyped payload)
/// fails the call (the hook is skipped); an empty or missing action is
/// `continue`; actions are case-sensitive; `respond` and `deny_tool` exist
/// only in before_tool.
pub(super) fn decode<T>(
    method: &str,
    result: &Value,
    payload: impl FnOnce(&Value) -> Result<Option<T>, String>,
) -> Result<Verdict<T>, String> {
    if !(result.is_object() || result.is_null()) {
        return Err(format!("cannot decode result {}: not an object", kind_of(result)));
    }
    let action = opt_str(result, "action")?;
    let reason = opt_str(result, "reason")?;
    let payload = payload(result)?;
    let action = match action.as_str() {
        "" | "continue" => Action::Continue,
        "modify" => Action::Modify,
        "respond" if method == BEFORE_TOOL => Action::Respond,
        "deny_tool" if method == BEFORE_TOOL => Action::DenyTool,
        "abort_turn" => Action::AbortTurn,
        "hard_abort" => Action::HardAbort,
        other => return Ok(Verdict::Unsupported(other.to_string())),
    };
    Ok(Verdict::Act(action, reason, payload))
}

/// Decodes an approval (`ApprovalDecision`): a missing `approved` (or a null
/// result) is a denial; a mistyped field is a decode error (denied as failed).
pub(super) fn decode_approval(result: &Value) -> Result<(bool, String), String> {
    if !(result.is_object() || result.is_null()) {
        return Err(format!("cannot decode result {}: not an object", kind_of(result)));
    }
    let approved = match result.get("approved") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("approved is {}, not a bool", kind_of(other))),
    };
    Ok((approved, opt_str(result, "reason")?))
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A string field (Go zero value when absent or null).
fn opt_str(v: &Value, key: &str) -> Result<String, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("{key} is {}, not a string", kind_of(other))),
    }
}

fn opt_bool(v: &Value, key: &str) -> Result<bool, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("{key} is {}, not a bool", kind_of(other))),
    }
}

/// An object field: `None` when absent or null (a nil pointer in Go).
fn opt_obj<'a>(v: &'a Value, key: &str) -> Result<Option<&'a Value>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(o @ Value::Object(_)) => Ok(Some(o)),
        Some(other) => Err(format!("{key} is {}, not an object", kind_of(other))),
    }
}

fn opt_array<'a>(v: &'a Value, key: &str) -> Result<&'a [Value], String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(format!("{key} is {}, not an array", kind_of(other))),
    }
}

// --- messages (providers.Message) ------------------------------------------

fn call_json(c: &ResolvedCall) -> Value {
    json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": sort_keys(&c.arguments).to_string()}})
}

/// A history message as `before_llm` carries it (assistant tool calls with
/// their function: pipeline_llm.go:636-648 sets it).
pub(super) fn message_json(m: &LlmMessage) -> Value {
    let mut v = json!({"role": m.role, "content": m.content});
    if !m.tool_calls.is_empty() {
        v["tool_calls"] = m.tool_calls.iter().map(call_json).collect();
    }
    if let Some(id) = &m.tool_call_id {
        v["tool_call_id"] = json!(id);
    }
    v
}

/// A tool call as decoded from a hook: `Name` and `Arguments` are `json:"-"`,
/// so they come back only through `function` (absent: tool `""`, no arguments).
fn parse_call(v: &Value) -> Result<ResolvedCall, String> {
    let id = opt_str(v, "id")?;
    let (name, arguments) = match opt_obj(v, "function")? {
        None => (String::new(), json!({})),
        Some(f) => {
            let args = opt_str(f, "arguments")?;
            (opt_str(f, "name")?, serde_json::from_str::<Value>(&args).ok().filter(Value::is_object).unwrap_or_else(|| json!({})))
        }
    };
    Ok(ResolvedCall { id, name, arguments })
}

fn parse_message(v: &Value) -> Result<LlmMessage, String> {
    if !v.is_object() {
        return Err(format!("a message is {}", kind_of(v)));
    }
    let tool_calls = opt_array(v, "tool_calls")?.iter().map(parse_call).collect::<Result<Vec<_>, _>>()?;
    let id = opt_str(v, "tool_call_id")?;
    Ok(LlmMessage { role: opt_str(v, "role")?, content: opt_str(v, "content")?, tool_calls, tool_call_id: (!id.is_empty()).then_some(id) })
}

/// One line per message, for the transcript.
pub(super) fn message_line(m: &LlmMessage) -> String {
    let mut parts = vec![m.content.clone()];
    parts.extend(m.tool_calls.iter().map(|c| format!("[call {} {} {}]", c.id, c.name, sort_keys(&c.arguments))));
    let text = parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" ");
    match &m.tool_call_id {
        Some(id) => format!("{} ({id}): {text}", m.role),
        None => format!("{}: {text}", m.role),
    }
}

// --- before_llm (LLMHookRequest) -------------------------------------------

/// What the next LLM call is made of.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LlmCall {
    pub model: String,
    pub messages: Vec<LlmMessage>,
    pub tools: Vec<Value>,
    pub options: Map<String, Value>,
}

/// A tool definition (`providers.ToolDefinition`) for a scripted tool.
pub(super) fn tool_definition(name: &str) -> Value {
    json!({"type": "function", "function": {"name": name, "description": format!("built-in tool {name} (scripted)"), "parameters": {"type": "object"}}})
}

impl LlmCall {
    /// The tool names offered.
    pub fn tool_names(&self) -> Vec<String> {
        self.tools.iter().filter_map(|t| t.pointer("/function/name").and_then(Value::as_str).map(String::from)).collect()
    }
}

pub(super) fn before_llm_params(profile: Profile, at: At<'_>, call: &LlmCall) -> Value {
    let mut p = json!({"meta": meta(profile, at, "turn.llm.request"), "model": call.model,
                       "messages": call.messages.iter().map(message_json).collect::<Vec<_>>()});
    if !call.tools.is_empty() {
        p["tools"] = json!(call.tools);
    }
    if !call.options.is_empty() {
        p["options"] = sort_keys(&Value::Object(call.options.clone()));
    }
    channel(profile, &mut p);
    if profile.picoclaw_sends_channel() {
        p["graceful_terminal"] = json!(false);
    }
    p
}

/// `result.request`: a whole `LLMHookRequest` that replaces model, messages,
/// tools and options (pipeline_llm.go:95-111); omitted fields become empty.
pub(super) fn read_request(result: &Value) -> Result<Option<LlmCall>, String> {
    let Some(r) = opt_obj(result, "request")? else { return Ok(None) };
    let messages = opt_array(r, "messages")?.iter().map(parse_message).collect::<Result<Vec<_>, _>>()?;
    let options = opt_obj(r, "options")?.and_then(Value::as_object).cloned().unwrap_or_default();
    Ok(Some(LlmCall { model: opt_str(r, "model")?, messages, tools: opt_array(r, "tools")?.to_vec(), options }))
}

/// `applyBeforeLLMControls` (hooks.go:388-409): a change to the system
/// messages reverts the whole message list, any change to the tool
/// definitions reverts the tools. Returns the call and what was reverted.
pub(super) fn before_llm_controls(prev: &LlmCall, mut next: LlmCall) -> (LlmCall, Vec<&'static str>) {
    let system = |c: &LlmCall| -> Vec<(usize, String)> {
        c.messages.iter().enumerate().filter(|(_, m)| m.role == "system").map(|(i, m)| (i, m.content.clone())).collect()
    };
    let mut reverted = Vec::new();
    if system(prev) != system(&next) {
        next.messages = prev.messages.clone();
        reverted.push("messages (the system messages changed)");
    }
    if prev.tools != next.tools {
        next.tools = prev.tools.clone();
        reverted.push("tools (tool definitions cannot be changed)");
    }
    (next, reverted)
}

// --- after_llm (LLMHookResponse) -------------------------------------------

/// The provider's answer as the loop sees it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LlmAnswer {
    pub content: String,
    pub tool_calls: Vec<ResolvedCall>,
}

pub(super) fn after_llm_params(profile: Profile, at: At<'_>, model: &str, answer: &LlmAnswer) -> Value {
    let response = if profile.picoclaw_after_llm_tool_calls_bare() {
        // protocoltypes.LLMResponse; tool calls lose name and arguments (json:"-").
        let mut r = json!({"content": answer.content});
        if !answer.tool_calls.is_empty() {
            r["tool_calls"] = answer.tool_calls.iter().map(|c| json!({"id": c.id})).collect();
        }
        r["finish_reason"] = json!(if answer.tool_calls.is_empty() { "stop" } else { "tool_calls" });
        r["reasoning"] = json!("");
        r["reasoning_details"] = Value::Null;
        r
    } else {
        let mut r = json!({"role": "assistant", "content": answer.content});
        if !answer.tool_calls.is_empty() {
            r["tool_calls"] = answer.tool_calls.iter().map(call_json).collect();
        }
        r
    };
    let mut p = json!({"meta": meta(profile, at, "turn.llm.response"), "model": model, "response": response});
    channel(profile, &mut p);
    p
}

fn parse_answer(r: &Value) -> Result<LlmAnswer, String> {
    let tool_calls = opt_array(r, "tool_calls")?.iter().map(parse_call).collect::<Result<Vec<_>, _>>()?;
    Ok(LlmAnswer { content: opt_str(r, "content")?, tool_calls })
}

/// `result.response`: nested under picoclaw@cf67dd3 (an `LLMHookResponse`
/// whose `response` replaces the answer; a flat one decodes to nothing),
/// the answer itself as documented.
pub(super) fn read_response(profile: Profile, result: &Value) -> Result<Option<LlmAnswer>, String> {
    let Some(r) = opt_obj(result, "response")? else { return Ok(None) };
    if profile.picoclaw_nested_after_payloads() { opt_obj(r, "response")?.map(parse_answer).transpose() } else { parse_answer(r).map(Some) }
}

// --- tools (ToolCallHookRequest, ToolApprovalRequest, ToolResult) ----------

/// The tool call in effect.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ToolCallNow {
    pub tool: String,
    /// An object, or null (a nil map).
    pub arguments: Value,
}

/// A `tools.ToolResult`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct ToolOutput {
    pub for_llm: String,
    pub for_user: String,
    pub silent: bool,
    pub is_error: bool,
    pub is_async: bool,
}

fn args_json(p: &mut Value, arguments: &Value) {
    // `map[string]any` with omitempty: an empty or nil map is left out.
    if arguments.as_object().is_some_and(|a| !a.is_empty()) {
        p["arguments"] = sort_keys(arguments);
    }
}

/// before_tool (`trace` turn.tool.before) and approve_tool (turn.tool.approve).
pub(super) fn tool_params(profile: Profile, at: At<'_>, trace: &str, call: &ToolCallNow) -> Value {
    let mut p = json!({"meta": meta(profile, at, trace), "tool": call.tool});
    args_json(&mut p, &call.arguments);
    channel(profile, &mut p);
    p
}

pub(super) fn tool_output_json(profile: Profile, r: &ToolOutput) -> Value {
    let mut v = json!({"for_llm": r.for_llm});
    if profile.picoclaw_sends_channel() || !r.for_user.is_empty() {
        v["for_user"] = json!(r.for_user);
    }
    v["silent"] = json!(r.silent);
    v["is_error"] = json!(r.is_error);
    v["async"] = json!(r.is_async);
    if profile.picoclaw_sends_channel() {
        // The document's example spells out the empty optional fields.
        v["media"] = json!([]);
        v["artifact_tags"] = json!([]);
        v["response_handled"] = json!(false);
    }
    v
}

fn parse_output(v: &Value) -> Result<ToolOutput, String> {
    Ok(ToolOutput {
        for_llm: opt_str(v, "for_llm")?,
        for_user: opt_str(v, "for_user")?,
        silent: opt_bool(v, "silent")?,
        is_error: opt_bool(v, "is_error")?,
        is_async: opt_bool(v, "async")?,
    })
}

/// What a before_tool result carries: `call` (replaces tool and arguments
/// wholesale, pipeline_execute.go:173-177) and the `respond` result (top-level
/// `result`, else `call.hook_result`).
pub(super) type BeforeTool = (Option<ToolCallNow>, Option<ToolOutput>);

pub(super) fn read_before_tool(result: &Value) -> Result<Option<BeforeTool>, String> {
    let call = opt_obj(result, "call")?;
    let call_now = call
        .map(|c| -> Result<ToolCallNow, String> {
            let arguments = opt_obj(c, "arguments")?.cloned().unwrap_or(Value::Null);
            Ok(ToolCallNow { tool: opt_str(c, "tool")?, arguments })
        })
        .transpose()?;
    let output = match opt_obj(result, "result")? {
        Some(r) => Some(parse_output(r)?),
        None => call.map(|c| opt_obj(c, "hook_result")).transpose()?.flatten().map(parse_output).transpose()?,
    };
    Ok((call_now.is_some() || output.is_some()).then_some((call_now, output)))
}

pub(super) fn after_tool_params(profile: Profile, at: At<'_>, call: &ToolCallNow, output: &ToolOutput) -> Value {
    let mut p = json!({"meta": meta(profile, at, "turn.tool.after"), "tool": call.tool});
    args_json(&mut p, &call.arguments);
    p["result"] = tool_output_json(profile, output);
    p["duration"] = json!(DURATION_NS);
    channel(profile, &mut p);
    p
}

/// `result.result` of after_tool: under picoclaw@cf67dd3 a whole
/// `ToolResultHookResponse` (its non-empty `tool` renames, its non-nil
/// `result` replaces; pipeline_execute.go:595-603), so a flat result is a
/// no-op; as documented, the tool result itself.
/// What an after_tool result carries: a new tool name, a new result.
pub(super) type AfterTool = (Option<String>, Option<ToolOutput>);

pub(super) fn read_after_tool(profile: Profile, result: &Value) -> Result<Option<AfterTool>, String> {
    let Some(r) = opt_obj(result, "result")? else { return Ok(None) };
    if profile.picoclaw_nested_after_payloads() {
        let tool = opt_str(r, "tool")?;
        let output = opt_obj(r, "result")?.map(parse_output).transpose()?;
        Ok(Some(((!tool.is_empty()).then_some(tool), output)))
    } else {
        Ok(Some((None, Some(parse_output(r)?))))
    }
}

// --- observer notifications ------------------------------------------------

/// A notification: `hook.runtime_event` with an `events.Event` under
/// picoclaw@cf67dd3, `hook.event` with `Kind`/`Meta`/`Payload` and short
/// kinds as documented (§A2 notifications, headline finding 2). The event
/// time is fixed so snapshots are stable.
pub(super) fn event(profile: Profile, seq: u64, kind: &str, at: At<'_>, payload: &Value) -> (&'static str, Value) {
    let method = profile.picoclaw_notification_method();
    let params = if method == "hook.event" {
        json!({"Kind": short_kind(kind), "Meta": {"AgentID": "agent-1", "TurnID": at.turn_id}, "Payload": payload})
    } else {
        json!({"id": format!("evt-{seq}"), "kind": kind, "time": "2026-06-13T10:00:00Z",
               "source": {"component": "agent"},
               "scope": {"agent_id": "agent-1", "session_key": "session-1", "turn_id": at.turn_id},
               "correlation": {}, "payload": payload})
    };
    (method, params)
}

#[cfg(test)]
mod tests {
    use proctor_conformance::protocol::picoclaw_hook::{AFTER_TOOL, BEFORE_LLM};

    use super::*;

    fn cfg(observe: &[&str], intercept: &[&str]) -> PicoclawHook {
        PicoclawHook {
            observe: observe.iter().map(|s| s.to_string()).collect(),
            intercept: intercept.iter().map(|s| s.to_string()).collect(),
            priority: 0,
        }
    }

    #[test]
    fn intercept_entries_enable_whole_families_in_hello_order() {
        let m = modes(&cfg(&["tool_exec_start"], &["approve_tool", "after_tool"])).unwrap();
        assert!(m.tool && m.approve && !m.llm);
        assert_eq!(m.roles(), vec![Role::Observe, Role::ToolMode, Role::Approve]);
        assert!(m.observes("agent.tool.exec_start") && !m.observes("agent.turn.start"));
        assert!(modes(&cfg(&["*"], &[])).unwrap().observes("agent.turn.end"));
        assert!(
            modes(&cfg(&[], &["before_exec"]))
                .unwrap_err()
                .starts_with("unsupported intercept \"before_exec\" (PicoClaw's are before_llm,")
        );
        assert!(modes(&cfg(&[], &[])).unwrap_err().starts_with("no hook modes enabled: give `observe:"));
        assert!(modes(&cfg(&["tool_start"], &[])).is_err());
    }

    #[test]
    fn chains_run_by_priority_then_name() {
        assert_eq!(chain_order(&[("b", 10), ("a", 10), ("z", 1)]), vec![2, 1, 0]);
        assert_eq!(chain_order(&[("b", 0), ("a", 0)]), vec![1, 0]);
    }

    #[test]
    fn actions_are_case_sensitive_and_stage_bound() {
        let none = |_: &Value| Ok(None::<()>);
        assert_eq!(decode(BEFORE_LLM, &Value::Null, none).unwrap(), Verdict::Act(Action::Continue, String::new(), None));
        assert_eq!(decode(BEFORE_LLM, &json!({"action": ""}), none).unwrap(), Verdict::Act(Action::Continue, String::new(), None));
        assert_eq!(decode(BEFORE_LLM, &json!({"action": "Continue"}), none).unwrap(), Verdict::Unsupported("Continue".into()));
        assert_eq!(decode(AFTER_TOOL, &json!({"action": "respond"}), none).unwrap(), Verdict::Unsupported("respond".into()));
        assert_eq!(
            decode(BEFORE_TOOL, &json!({"action": "deny_tool", "reason": "r"}), none).unwrap(),
            Verdict::Act(Action::DenyTool, "r".into(), None)
        );
        assert!(decode(BEFORE_TOOL, &json!({"action": 1}), none).is_err());
        assert!(decode(BEFORE_TOOL, &json!("continue"), none).is_err());
    }

    #[test]
    fn approval_needs_an_explicit_true() {
        assert_eq!(decode_approval(&json!({"approved": true})).unwrap(), (true, String::new()));
        assert_eq!(decode_approval(&json!({"reason": "x"})).unwrap(), (false, "x".into()));
        assert_eq!(decode_approval(&Value::Null).unwrap(), (false, String::new()));
        assert!(decode_approval(&json!({"approved": "true"})).is_err());
    }

    #[test]
    fn before_tool_call_replaces_wholesale_and_respond_falls_back_to_hook_result() {
        let (call, out) = read_before_tool(&json!({"call": {"arguments": {"a": 1}}})).unwrap().unwrap();
        assert_eq!(call.unwrap(), ToolCallNow { tool: String::new(), arguments: json!({"a": 1}) });
        assert!(out.is_none());
        let (_, out) = read_before_tool(&json!({"call": {"tool": "t", "hook_result": {"for_llm": "h"}}})).unwrap().unwrap();
        assert_eq!(out.unwrap().for_llm, "h");
        let (_, out) =
            read_before_tool(&json!({"result": {"for_llm": "top"}, "call": {"hook_result": {"for_llm": "h"}}})).unwrap().unwrap();
        assert_eq!(out.unwrap().for_llm, "top");
        assert_eq!(read_before_tool(&json!({"action": "continue"})).unwrap(), None);
    }

    #[test]
    fn after_payloads_are_nested_in_the_runtime_and_flat_as_documented() {
        let flat = json!({"result": {"for_llm": "x"}});
        let nested = json!({"result": {"tool": "", "result": {"for_llm": "y"}}});
        assert_eq!(read_after_tool(Profile::PicoclawCf67dd3, &flat).unwrap(), Some((None, None)));
        assert_eq!(read_after_tool(Profile::PicoclawCf67dd3, &nested).unwrap().unwrap().1.unwrap().for_llm, "y");
        assert_eq!(read_after_tool(Profile::Documented, &flat).unwrap().unwrap().1.unwrap().for_llm, "x");
        let flat = json!({"response": {"content": "x"}});
        assert_eq!(read_response(Profile::PicoclawCf67dd3, &flat).unwrap(), None);
        assert_eq!(read_response(Profile::Documented, &flat).unwrap().unwrap().content, "x");
        // An echoed runtime response erases tool names: hooks only saw ids.
        let echoed = json!({"response": {"response": {"content": "", "tool_calls": [{"id": "c1"}]}}});
        let answer = read_response(Profile::PicoclawCf67dd3, &echoed).unwrap().unwrap();
        assert_eq!(answer.tool_calls[0].name, "");
    }

    #[test]
    fn before_llm_cannot_touch_system_messages_or_tools() {
        let prev = LlmCall {
            model: "m".into(),
            messages: vec![LlmMessage::text("system", "sys"), LlmMessage::text("user", "hi")],
            tools: vec![tool_definition("bash")],
            options: Map::new(),
        };
        let mut next = prev.clone();
        next.messages[1].content = "hello".into();
        next.model = "other".into();
        let (applied, reverted) = before_llm_controls(&prev, next.clone());
        assert_eq!(applied, next);
        assert!(reverted.is_empty());
        let mut bad = next.clone();
        bad.messages[0].content = "evil".into();
        bad.tools.push(tool_definition("injected"));
        let (applied, reverted) = before_llm_controls(&prev, bad);
        assert_eq!(applied.messages, prev.messages);
        assert_eq!(applied.tools, prev.tools);
        assert_eq!(applied.model, "other");
        assert_eq!(reverted.len(), 2);
    }

    #[test]
    fn requests_have_the_profile_shape() {
        let at = At { turn_id: "turn-2", iteration: 1 };
        let call = ToolCallNow { tool: "bash".into(), arguments: json!({"z": 1, "a": 2}) };
        let rt = tool_params(Profile::PicoclawCf67dd3, at, "turn.tool.before", &call);
        assert_eq!(
            rt.to_string(),
            r#"{"meta":{"AgentID":"agent-1","TurnID":"turn-2","ParentTurnID":"","SessionKey":"session-1","Iteration":1,"TracePath":"turn.tool.before","Source":"runTurn"},"tool":"bash","arguments":{"a":2,"z":1}}"#
        );
        let doc = tool_params(Profile::Documented, at, "turn.tool.before", &call);
        assert_eq!(doc["chat_id"], "chat-1");
        let (m, p) = event(Profile::Documented, 1, "agent.tool.exec_skipped", at, &json!({}));
        assert_eq!((m, p["Kind"].as_str()), ("hook.event", Some("tool_exec_skipped")));
    }
}
