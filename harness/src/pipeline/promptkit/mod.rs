//! PromptKit's pipeline: provider hooks around each LLM round, chunk
//! interception on streams, tool hooks around each tool call, session hooks
//! at start / after each turn / at end, exec evals with their triggers and
//! eval hooks, and pack guardrails. Semantics follow promptkit@86d9f36
//! (research: promptkit.md §1.5.4–1.5.5, §5, §6); the documented profile
//! switches the behaviours the documents describe differently.

mod agents;
mod arguments;
mod evals;
mod gojsonschema;
mod guardrails;
mod hooks;
mod selector;
mod skills;
mod tool_loop;
mod tools;
mod wire;
mod workflow;

use proctor_mocks::provider::{LlmMessage, LlmRequest, LlmResponse, ResolvedCall};
use serde_json::{Value, json};

use self::evals::When;
use self::guardrails::Side;
use self::hooks::{Verdict, of_kind};
use self::tools::{Servers, ToolOutcome};
use super::PipelineError;
use crate::context::RunContext;
use crate::record::{DenialRecord, ToolResultRecord};
use crate::scenario::{PluginConfig, Turn};

/// The SDK's session id is random; proctor fixes it so sampling and
/// snapshots are reproducible.
const SESSION_ID: &str = "session-1";
/// `tool_policy.max_rounds` default.
const MAX_ROUNDS: usize = 50;
/// PromptKit's canned text for an enforced `before_call` without a replacement.
const POLICY_TEXT: &str = "Sorry, we can't provide this response as it would violate our content policy.";

/// How a turn (or its continuation) ended.
#[derive(Debug, Clone, PartialEq)]
enum TurnEnd {
    Completed,
    Denied,
    Paused(Vec<ResolvedCall>),
    Error,
}

struct State {
    messages: Vec<LlmMessage>,
    servers: Servers,
    pending: Vec<ResolvedCall>,
    /// The pack's workflow, when the scenario runs a pack that has one.
    workflow: Option<workflow::Workflow>,
    /// The pack's agent members' own conversations.
    members: agents::Members,
    /// The pack's skills, when it declares any.
    skills: Option<skills::Skills>,
}

pub(super) async fn run(ctx: &mut RunContext<'_>) -> Result<(), PipelineError> {
    let workflow = ctx.scenario.pack_run.as_ref().and_then(workflow::Workflow::start);
    let mut st = State {
        messages: Vec::new(),
        servers: Servers::default(),
        pending: Vec::new(),
        workflow,
        members: agents::Members::default(),
        skills: ctx.scenario.pack_run.as_ref().and_then(|run| skills::Skills::of(&run.document)),
    };
    if let Some(refusal) = &ctx.scenario.refusal {
        // The implementation refuses to render the pack's prompt: no conversation starts.
        ctx.transcript.push("runtime", "error", refusal.clone());
        ctx.summary.outcome = Some("error".into());
        return Ok(());
    }
    if let Some(system) = &ctx.scenario.system_prompt {
        st.messages.push(LlmMessage::text("system", system.clone()));
    }
    let mut turn_index = 0;
    session(ctx, "session_start", &st.messages, 0).await;
    let scenario = ctx.scenario;
    for turn in &scenario.turns {
        let end = match turn {
            Turn::User(text) => {
                if !st.pending.is_empty() {
                    ctx.transcript.push(
                        "runtime",
                        "error",
                        "a user turn arrived while tool calls are pending; resolve or reject them first",
                    );
                    ctx.summary.outcome = Some("error".into());
                    continue;
                }
                if let Some(wf) = st.workflow.as_mut()
                    && wf.new_conversation()
                {
                    // PromptKit opens a fresh conversation for the state the workflow moved to.
                    match wf.system_prompt(false) {
                        Ok(system) => {
                            ctx.transcript.push("workflow", "conversation", json!({"state": wf.record.state, "system_prompt": system}));
                            st.messages = vec![LlmMessage::text("system", system)];
                        }
                        Err(e) => {
                            ctx.transcript.push("runtime", "error", e);
                            ctx.summary.outcome = Some("error".into());
                            continue;
                        }
                    }
                }
                ctx.transcript.push("user", "message", text.clone());
                let before = st.messages.len();
                st.messages.push(LlmMessage::text("user", text.clone()));
                let end = rounds(ctx, &mut st).await?;
                if matches!(end, TurnEnd::Error | TurnEnd::Denied) && ctx.profile.promptkit_forgets_failed_turns() {
                    // The failed Send saved nothing: the next turn starts from the history before it.
                    st.messages.truncate(before);
                    ctx.transcript.push("runtime", "note", "the failed turn is not kept in the conversation");
                }
                end
            }
            Turn::Resolve(r) => {
                let Some(call) = take_pending(ctx, &mut st, &r.call) else { continue };
                ctx.transcript.push("user", "resolve", json!({"call": r.call, "result": r.result}));
                tool_message(ctx, &mut st, &call, &ToolOutcome::Result(r.result.clone()));
                if st.pending.is_empty() { rounds(ctx, &mut st).await? } else { TurnEnd::Paused(st.pending.clone()) }
            }
            Turn::Reject(r) => {
                let Some(call) = take_pending(ctx, &mut st, &r.call) else { continue };
                ctx.transcript.push("user", "reject", json!({"call": r.call, "reason": r.reason}));
                tool_message(ctx, &mut st, &call, &ToolOutcome::Error(format!("tool call rejected: {}", r.reason)));
                if st.pending.is_empty() { rounds(ctx, &mut st).await? } else { TurnEnd::Paused(st.pending.clone()) }
            }
            Turn::Command(_) => continue,
        };
        let outcome = match &end {
            TurnEnd::Completed => "completed",
            TurnEnd::Denied => "denied",
            TurnEnd::Paused(_) => "paused",
            TurnEnd::Error => "error",
        };
        ctx.summary.outcome = Some(outcome.into());
        ctx.summary.events.push(format!("turn.{outcome}"));
        if let TurnEnd::Paused(calls) = end {
            st.pending = calls;
            continue;
        }
        if end == TurnEnd::Completed {
            turn_index += 1;
            session(ctx, "session_update", &st.messages, turn_index).await;
            evals::run_due(ctx, When::Turn, SESSION_ID, turn_index, &st.messages).await;
        }
    }
    ctx.summary.workflow = st.workflow.as_ref().map(|wf| wf.record.clone());
    session(ctx, "session_end", &st.messages, turn_index).await;
    evals::run_due(ctx, When::Session, SESSION_ID, 0, &st.messages).await;
    let servers = std::mem::take(&mut st.servers);
    servers.close(ctx).await;
    Ok(())
}

fn take_pending(ctx: &mut RunContext<'_>, st: &mut State, id: &str) -> Option<ResolvedCall> {
    match st.pending.iter().position(|c| c.id == id) {
        Some(i) => Some(st.pending.remove(i)),
        None => {
            ctx.transcript.push("runtime", "error", format!("no pending tool call {id}"));
            ctx.summary.outcome = Some("error".into());
            None
        }
    }
}

/// Provider rounds until the model answers without tool calls.
async fn rounds(ctx: &mut RunContext<'_>, st: &mut State) -> Result<TurnEnd, PipelineError> {
    if let Some(end) = rerender(ctx, st) {
        return Ok(end);
    }
    let mut repeats = tool_loop::Repeats::new(ctx.profile.promptkit_identical_call_limit());
    let mut rejections = tool_loop::Rejections::new(ctx.profile.promptkit_withdraws_failing_tools());
    for round in 1..=MAX_ROUNDS {
        // before_call: guardrails (input side) first, then exec provider hooks.
        match before_call(ctx, st, round).await {
            Some((Verdict::Deny { reason, .. }, hook)) => return Ok(deny(ctx, &hook, "provider_before", reason)),
            Some((Verdict::Enforced { reason, metadata }, _)) => {
                let text = metadata
                    .get("replacement")
                    .and_then(Value::as_str)
                    .map_or_else(|| if reason.is_empty() { POLICY_TEXT.to_string() } else { reason.clone() }, str::to_string);
                ctx.transcript.push("runtime", "event", json!({"enforced": "before_call", "finish_reason": "safety"}));
                return Ok(finish(ctx, st, text));
            }
            _ => {}
        }
        // The tool selector, if any, picks the tools of this call from the user's last message.
        let query = st.messages.iter().rev().find(|m| m.role == "user").map(|m| m.content.clone()).unwrap_or_default();
        let mut tools = selector::offered(ctx, &query, tool_names(ctx, st)).await;
        tools.retain(|t| rejections.offered(t));
        if as_implemented(ctx) {
            // PromptKit hands the provider its tools in name order (stages_provider.go collectProviderDescriptors).
            tools.sort();
        }
        let tool_specs = ctx.scenario.pack_run.as_deref().map(|run| pack_tool_specs(run, &tools)).unwrap_or_default();
        let wire = as_implemented(ctx).then(|| {
            let generation = wire::Generation::of(conversation_prompt(ctx, st));
            wire::body(&st.messages, &tools, &tool_specs, &builtins(ctx, st), &generation)
        });
        let request = LlmRequest { messages: st.messages.clone(), tools, tool_specs, wire };
        ctx.transcript.push(
            "llm",
            "request",
            json!(request.messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect::<Vec<_>>()),
        );
        let response = ctx.ask_llm(&request)?;
        let (mut text, mut calls, chunks) = match response {
            LlmResponse::Error { status, message } => {
                ctx.transcript.push("llm", "error", json!({"status": status, "message": message}));
                if as_implemented(ctx) {
                    // What Send returns: the OpenAI provider's words around the error body as sent
                    // (openai.go; measured by the sdk comparison). No server runs here, so no address.
                    let body = proctor_mocks::provider::openai::error_body(status, &message, None);
                    let words = format!(
                        "provider stream failed: failed to send request: API request to <provider> failed with status {status}: {body}"
                    );
                    ctx.transcript.push("runtime", "error", words);
                }
                return Ok(TurnEnd::Error);
            }
            fault @ (LlmResponse::Malformed { .. } | LlmResponse::Disconnect { .. }) => {
                ctx.transcript.push("llm", "error", json!({"fault": fault.fault()}));
                return Ok(TurnEnd::Error);
            }
            LlmResponse::Reply { text, tool_calls, chunks, delay_ms } => {
                if delay_ms > 0 {
                    tokio::time::sleep(std::time::Duration::from_millis(delay_ms)).await;
                }
                (text, tool_calls, chunks)
            }
        };
        ctx.transcript.push("llm", "reply", json!({"text": text, "tool_calls": calls, "chunks": chunks}));
        let mut enforced = false;
        if !chunks.is_empty()
            && let Some(fired) = intercept_chunks(ctx, &chunks)
        {
            text = fired;
            calls.clear();
            enforced = true;
        }
        if !enforced {
            match after_call(ctx, st, round, &text).await {
                Some((Verdict::Deny { reason, .. }, hook, _)) => return Ok(deny(ctx, &hook, "provider_after", reason)),
                Some((Verdict::Enforced { .. }, _, rewritten)) => {
                    // A guardrail rewrites the content; an exec hook cannot, so the text stays.
                    text = rewritten.unwrap_or(text);
                    calls.clear();
                    enforced = true;
                }
                _ => {}
            }
        }
        if enforced {
            ctx.transcript.push("runtime", "event", json!({"enforced": "after_call", "finish_reason": "safety"}));
        }
        let mut assistant = LlmMessage::text("assistant", text.clone());
        assistant.tool_calls = calls.clone();
        st.messages.push(assistant);
        if calls.is_empty() {
            ctx.summary.final_text = Some(text);
            return Ok(TurnEnd::Completed);
        }
        let ignored = match repeats.judge(&calls) {
            tool_loop::Round::Run => Default::default(),
            tool_loop::Round::Ignore(ids) => ids,
            tool_loop::Round::Abort(error) => {
                ctx.transcript.push("runtime", "error", error);
                return Ok(TurnEnd::Error);
            }
        };
        let mut paused = Vec::new();
        for call in &calls {
            if ignored.contains(&call.id) {
                tool_message(ctx, st, call, &ToolOutcome::Result(Value::String(repeats.ignored(&call.name))));
            } else if let Some(outcome) = run_call(ctx, st, call).await {
                tool_message(ctx, st, call, &outcome);
                if rejections.count(&call.name, outcome.is_error()) {
                    // PromptKit logs it ("Tool excluded after repeated rejection").
                    ctx.transcript.push(
                        "runtime",
                        "event",
                        json!({"tool_withdrawn": call.name, "why": "its result was an error twice in this turn"}),
                    );
                }
            } else {
                paused.push(call.clone());
            }
        }
        if !paused.is_empty() {
            return Ok(TurnEnd::Paused(paused));
        }
        if let Some(end) = handoff(ctx, st, calls.len()) {
            if end == TurnEnd::Completed {
                // Into an external or composition state: the turn stops, its answer the text of
                // the message that made the call.
                ctx.summary.final_text = Some(text);
            }
            return Ok(end);
        }
    }
    ctx.transcript.push("runtime", "error", format!("more than {MAX_ROUNDS} rounds"));
    Ok(TurnEnd::Error)
}

/// Whether the run plays PromptKit as implemented (`promptkit@…`), not its documents.
fn as_implemented(ctx: &RunContext<'_>) -> bool {
    ctx.profile.name().starts_with("promptkit@")
}

/// The pack prompt whose conversation is asking: the workflow state's whose conversation is open,
/// the prompt the host opened, or the agents' entry.
fn conversation_prompt<'a>(ctx: &'a RunContext<'_>, st: &State) -> Option<&'a Value> {
    let run = ctx.scenario.pack_run.as_deref()?;
    let name = match (&st.workflow, &ctx.scenario.prompt) {
        (Some(wf), _) => wf.conversation_task().to_string(),
        (None, Some(prompt)) => prompt.clone(),
        (None, None) => run.document["agents"]["entry"].as_str()?.to_string(),
    };
    run.document["prompts"].get(name)
}

/// What PromptKit's own tools need to be described on the wire in this round.
fn builtins(ctx: &RunContext<'_>, st: &State) -> wire::Builtins {
    let mut builtins = wire::Builtins::default();
    if let Some(wf) = &st.workflow {
        for name in [workflow::TRANSITION, workflow::SET_ARTIFACT] {
            if let Some(schema) = wf.parameters(name) {
                builtins.workflow.insert(name.to_string(), schema);
            }
        }
    }
    if let Some(run) = ctx.scenario.pack_run.as_deref() {
        for (member, spec) in run.document["agents"]["members"].as_object().into_iter().flatten() {
            let description = spec["description"].as_str().unwrap_or_default().to_string();
            builtins.members.insert(agents::tool_name(run, member), description);
        }
        for skill in run.document["skills"].as_array().into_iter().flatten() {
            if let Some(name) = skill["name"].as_str() {
                builtins.skills.push((name.to_string(), skill["description"].as_str().unwrap_or_default().to_string()));
            }
        }
    }
    builtins
}

/// The offered pack tools as PromptKit's OpenAI provider sends them (the in-process journal writes
/// them); the documents say nothing of the wire, and the other tools are named only.
fn pack_tool_specs(run: &crate::scenario::pack::PackRun, offered: &[String]) -> Vec<Value> {
    if run.reader != proctor_pack::PackProfile::PromptKit {
        return Vec::new();
    }
    proctor_pack::wire::pack_tools(&run.document, offered.iter().map(String::as_str))
}

fn finish(ctx: &mut RunContext<'_>, st: &mut State, text: String) -> TurnEnd {
    st.messages.push(LlmMessage::text("assistant", text.clone()));
    ctx.summary.final_text = Some(text);
    TurnEnd::Completed
}

/// A HookDeniedError: the turn aborts.
fn deny(ctx: &mut RunContext<'_>, hook: &str, kind: &str, reason: String) -> TurnEnd {
    let hook = if ctx.profile.promptkit_denial_names_hook() { hook.to_string() } else { "provider_hook".to_string() };
    ctx.transcript.push("runtime", "error", format!("hook {hook:?} ({kind}) denied: {reason}"));
    ctx.summary.denials.push(DenialRecord { hook, kind: kind.into(), reason });
    TurnEnd::Denied
}

/// The tools this round offers: every tool the scenario can run, narrowed to the pack prompt's (or
/// the workflow state's) when a pack decides.
fn tool_names(ctx: &RunContext<'_>, st: &State) -> Vec<String> {
    let mut names: Vec<String> =
        ctx.scenario.plugins.iter().filter(|p| matches!(p.config, PluginConfig::PromptkitTool(_))).map(|p| p.name.clone()).collect();
    names.extend(ctx.scenario.tools.keys().cloned());
    // A pack's agent members are tools too (`a2a__<member>` in PromptKit).
    if let Some(run) = ctx.scenario.pack_run.as_deref() {
        names.extend(run.document["agents"]["members"].as_object().into_iter().flatten().map(|(m, _)| agents::tool_name(run, m)));
        // PromptKit offers every pack tool its prompt lists, whether or not the host gave it a
        // handler (seen in the SDK comparison); calling one without fails (`tools::run`).
        if run.reader == proctor_pack::PackProfile::PromptKit {
            let pack_tools = run.document["tools"].as_object().into_iter().flatten().map(|(name, _)| name.clone());
            let new: Vec<String> = pack_tools.filter(|name| !names.contains(name)).collect();
            names.extend(new);
        }
    }
    let mut offered = match (&st.workflow, &ctx.scenario.offered_tools) {
        (Some(wf), _) => wf.tools(&names),
        (None, Some(offered)) => names.into_iter().filter(|n| offered.contains(n)).collect(),
        (None, None) => names,
    };
    if st.skills.is_some() {
        offered.extend(skills::TOOLS.map(String::from));
    }
    offered
}

/// After a round's tool results: a transition the model asked for commits, and the next round runs
/// as the destination state (its prompt swapped in). A failed commit ends the turn as PromptKit does.
/// With nothing to commit, PromptKit still renders the state's prompt again (`rerender`).
fn handoff(ctx: &mut RunContext<'_>, st: &mut State, calls: usize) -> Option<TurnEnd> {
    let wf = st.workflow.as_mut()?;
    wf.count_calls(calls);
    let moved = match wf.commit() {
        Ok(Some(moved)) => moved,
        Ok(None) => return rerender(ctx, st),
        Err(e) => {
            ctx.transcript.push("runtime", "error", format!("provider stage: workflow handoff: {e}"));
            ctx.summary.events.push(format!("workflow.{}", wf.record.status));
            return Some(TurnEnd::Error);
        }
    };
    let system = wf.system_prompt(true);
    ctx.transcript.push(
        "workflow",
        "transition",
        json!({"from": moved.from, "to": moved.to, "event": moved.event, "redirected": moved.redirected, "system_prompt": system.as_ref().ok()}),
    );
    ctx.summary.events.push("workflow.transitioned".into());
    if wf.stops_here() {
        ctx.transcript.push("workflow", "stop", json!({"state": moved.to, "why": "an external or composition state: the turn ends here"}));
        return Some(TurnEnd::Completed);
    }
    match system {
        Ok(system) => {
            set_system_prompt(st, system);
            None
        }
        Err(e) => {
            ctx.transcript.push("runtime", "error", e);
            Some(TurnEnd::Error)
        }
    }
}

/// PromptKit's state resolver before a turn's first round and after each round with no transition:
/// the current state's prompt rendered again without the host's variables replaces the one in use
/// when it differs (`Workflow::rerendered`), and a prompt that cannot load fails the turn.
fn rerender(ctx: &mut RunContext<'_>, st: &mut State) -> Option<TurnEnd> {
    let wf = st.workflow.as_ref()?;
    match wf.rerendered()? {
        Ok(system) => {
            if st.messages.first().is_some_and(|m| m.role == "system" && m.content == system) {
                return None;
            }
            ctx.transcript.push(
                "workflow",
                "rerender",
                json!({"state": wf.record.state, "system_prompt": system, "host_variables_dropped": wf.host_variables_dropped(),
                    "why": "PromptKit renders the state's prompt again each round with the artifacts and workflow_context only, not the host's variables"}),
            );
            set_system_prompt(st, system);
            None
        }
        Err(e) => {
            ctx.transcript.push("runtime", "error", e);
            Some(TurnEnd::Error)
        }
    }
}

fn set_system_prompt(st: &mut State, system: String) {
    match st.messages.first_mut().filter(|m| m.role == "system") {
        Some(first) => first.content = system,
        None => st.messages.insert(0, LlmMessage::text("system", system)),
    }
}

fn provider_request(st: &State, round: usize) -> Value {
    json!({
        "provider_id": "mock", "model": "mock-model",
        "messages": st.messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect::<Vec<_>>(),
        "system_prompt": st.messages.first().filter(|m| m.role == "system").map_or("", |m| m.content.as_str()), "round": round,
    })
}

/// Input guardrails (when the last message is the user's), then exec
/// provider hooks; the first non-allow wins, with the name of who decided.
async fn before_call(ctx: &mut RunContext<'_>, st: &mut State, round: usize) -> Option<(Verdict, String)> {
    let scenario = ctx.scenario;
    if let Some(last) = st.messages.last().filter(|m| m.role == "user") {
        let content = last.content.clone();
        for g in scenario.guardrails.iter().filter(|g| guardrails::judges(g, Side::Input)) {
            if let Some(fired) = guardrails::check(g, &content, enforce_max_sentences(ctx)) {
                record_guardrail(ctx, &fired, "before_call");
                return Some((
                    Verdict::Enforced { reason: fired.content.clone(), metadata: json!({"replacement": fired.content}) },
                    fired.kind.to_string(),
                ));
            }
        }
    }
    let doc = json!({"hook": "provider", "phase": "before_call", "request": provider_request(st, round)});
    for hook in of_kind(&scenario.plugins, "provider").iter().filter(|h| h.runs_in("before_call")) {
        let verdict = hooks::invoke(ctx, hook, "before_call", doc.clone()).await;
        if verdict != Verdict::Allow {
            return Some((verdict, hook.plugin.name.clone()));
        }
    }
    None
}

/// Output guardrails on this response, then exec provider hooks; returns
/// the first non-allow, who decided, and, for a guardrail, the rewritten content.
async fn after_call(ctx: &mut RunContext<'_>, st: &mut State, round: usize, text: &str) -> Option<(Verdict, String, Option<String>)> {
    let scenario = ctx.scenario;
    for g in scenario.guardrails.iter().filter(|g| guardrails::judges(g, Side::Output)) {
        if let Some(fired) = guardrails::check(g, text, enforce_max_sentences(ctx)) {
            record_guardrail(ctx, &fired, "after_call");
            return Some((
                Verdict::Enforced { reason: fired.explanation.clone(), metadata: Value::Null },
                fired.kind.to_string(),
                Some(fired.content),
            ));
        }
    }
    let doc = json!({
        "hook": "provider", "phase": "after_call", "request": provider_request(st, round),
        // The response carries the request's round (runtime/pipeline/stage/stages_provider.go:1983).
        "response": {"provider_id": "mock", "model": "mock-model", "message": {"role": "assistant", "content": text}, "round": round, "latency_ms": 0},
    });
    for hook in of_kind(&scenario.plugins, "provider").iter().filter(|h| h.runs_in("after_call")) {
        let verdict = hooks::invoke(ctx, hook, "after_call", doc.clone()).await;
        if verdict != Verdict::Allow {
            return Some((verdict, hook.plugin.name.clone(), None));
        }
    }
    None
}

fn enforce_max_sentences(ctx: &RunContext<'_>) -> bool {
    ctx.profile.promptkit_max_sentences_enforced()
}

fn record_guardrail(ctx: &mut RunContext<'_>, fired: &guardrails::Fired, phase: &str) {
    ctx.transcript.push(
        format!("guardrail {}", fired.kind),
        "decision",
        json!({"phase": phase, "decision": "enforced", "explanation": fired.explanation, "content": fired.content}),
    );
    ctx.summary.decided(&format!("guardrail {}", fired.kind), phase, "enforced");
    ctx.summary.events.push("validation.failed".into());
}

/// Streaming guardrails (banned_words, length) judge the accumulated text
/// after every chunk; the first to fire rewrites it and the stream stops.
fn intercept_chunks(ctx: &mut RunContext<'_>, chunks: &[String]) -> Option<String> {
    let scenario = ctx.scenario;
    let mut acc = String::new();
    for chunk in chunks {
        acc.push_str(chunk);
        ctx.transcript.push("llm", "chunk", chunk.clone());
        let streaming = scenario
            .guardrails
            .iter()
            .filter(|g| matches!(g, crate::scenario::Guardrail::BannedWords(_) | crate::scenario::Guardrail::Length(_)));
        for g in streaming.filter(|g| guardrails::judges(g, Side::Output)) {
            if let Some(fired) = guardrails::check(g, &acc, true) {
                record_guardrail(ctx, &fired, "chunk");
                return Some(fired.content);
            }
        }
    }
    None
}

/// Tool hooks before, the tool, tool hooks after. `None` when the call is
/// pending. PromptKit runs a round's calls concurrently (up to 10); proctor
/// runs them in order so transcripts are reproducible.
async fn run_call(ctx: &mut RunContext<'_>, st: &mut State, call: &ResolvedCall) -> Option<ToolOutcome> {
    let scenario = ctx.scenario;
    let request = json!({"name": call.name, "args": call.arguments, "call_id": call.id});
    let before = json!({"hook": "tool", "phase": "before_execution", "request": request});
    for hook in of_kind(&scenario.plugins, "tool").iter().filter(|h| h.runs_in("before_execution")) {
        match hooks::invoke(ctx, hook, "before_execution", before.clone()).await {
            Verdict::Allow => {}
            Verdict::Deny { reason, .. } | Verdict::Enforced { reason, .. } => {
                ctx.summary.denials.push(DenialRecord {
                    hook: hook.plugin.name.clone(),
                    kind: "tool_before".into(),
                    reason: reason.clone(),
                });
                return Some(ToolOutcome::Blocked(format!("Tool {} blocked by hook: {reason}", call.name)));
            }
        }
    }
    ctx.transcript.push(format!("tool {}", call.name), "call", json!({"id": call.id, "arguments": call.arguments}));
    let mut arguments = call.arguments.clone();
    let workflow_schema = st.workflow.as_ref().and_then(|wf| wf.parameters(&call.name));
    if let Some(schema) = workflow_schema.as_ref().or_else(|| scenario.tool_parameters.get(&call.name)) {
        match arguments::check(&call.name, schema, &call.arguments) {
            Ok(checked) => arguments = checked,
            Err(text) => {
                ctx.transcript.push(format!("tool {}", call.name), "invalid_arguments", text.clone());
                return Some(ToolOutcome::Blocked(text));
            }
        }
    }
    let member = scenario.pack_run.as_deref().and_then(|run| Some((run, agents::member_of(run, &call.name)?)));
    let own =
        st.workflow.as_mut().and_then(|wf| wf.call(&call.name, &arguments)).or_else(|| st.skills.as_mut()?.call(&call.name, &arguments));
    if own.as_ref().is_some_and(Result::is_ok) && call.name == "skill__activate" {
        ctx.summary.events.push(format!("skill.activated:{}", arguments["name"].as_str().unwrap_or_default()));
    }
    let outcome = match (own, member) {
        (Some(Ok(answer)), _) => ToolOutcome::Result(answer),
        (Some(Err(e)), _) => ToolOutcome::Error(e),
        (None, Some((run, member))) if !agents::answer_locally(run) => {
            ctx.transcript.push(
                format!("agent {member}"),
                "unreachable",
                "the host did not open the pack with sdk.OpenMultiAgent: PromptKit calls the member through its remote A2A executor, and there is no endpoint",
            );
            ToolOutcome::Error(agents::UNREACHABLE.to_string())
        }
        (None, Some((run, member))) => match st.members.call(ctx, run, &member, &arguments) {
            Ok(Ok(answer)) => ToolOutcome::Result(answer),
            Ok(Err(e)) => ToolOutcome::Error(e),
            Err(miss) => {
                ctx.transcript.push("runtime", "error", miss.to_string());
                ToolOutcome::Error(miss.to_string())
            }
        },
        (None, None) => tools::run(ctx, &mut st.servers, &call.name, &arguments).await,
    };
    if let ToolOutcome::Pending { reason, message } = &outcome {
        ctx.transcript.push(format!("tool {}", call.name), "pending", json!({"id": call.id, "reason": reason, "message": message}));
        ctx.summary.events.push("tool.pending".into());
        return None;
    }
    let after = json!({"hook": "tool", "phase": "after_execution", "request": request,
        "response": {"name": call.name, "call_id": call.id, "content": outcome.text(), "latency_ms": 0}});
    for hook in of_kind(&scenario.plugins, "tool").iter().filter(|h| h.runs_in("after_execution")) {
        let verdict = hooks::invoke(ctx, hook, "after_execution", after.clone()).await;
        if let (Verdict::Deny { reason, .. } | Verdict::Enforced { reason, .. }, true) =
            (&verdict, ctx.profile.promptkit_acts_on_after_execution())
        {
            ctx.summary.denials.push(DenialRecord { hook: hook.plugin.name.clone(), kind: "tool_after".into(), reason: reason.clone() });
            return Some(ToolOutcome::Blocked(format!("Tool {} blocked by hook: {reason}", call.name)));
        }
    }
    Some(outcome)
}

fn tool_message(ctx: &mut RunContext<'_>, st: &mut State, call: &ResolvedCall, outcome: &ToolOutcome) {
    let text = outcome.text();
    let is_error = outcome.is_error();
    ctx.transcript.push(format!("tool {}", call.name), "result", json!({"id": call.id, "content": text, "is_error": is_error}));
    ctx.summary.tool_results.push(ToolResultRecord { tool: call.name.clone(), content: text.clone(), is_error });
    let mut m = LlmMessage::text("tool", text);
    m.tool_call_id = Some(call.id.clone());
    st.messages.push(m);
}

/// Session hooks for `phase`; a filter failure is swallowed but stops the
/// later session hooks (sdk/session_hooks.go dispatch).
async fn session(ctx: &mut RunContext<'_>, phase: &str, messages: &[LlmMessage], turn_index: usize) {
    let scenario = ctx.scenario;
    let event = json!({
        "session_id": SESSION_ID, "conversation_id": "conv-1",
        "messages": messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect::<Vec<_>>(),
        "turn_index": turn_index,
    });
    let doc = json!({"hook": "session", "phase": phase, "event": event});
    for hook in of_kind(&scenario.plugins, "session").iter().filter(|h| h.runs_in(phase)) {
        if hooks::invoke(ctx, hook, phase, doc.clone()).await != Verdict::Allow {
            ctx.transcript.push(
                "runtime",
                "event",
                format!("session hook {} failed in {phase}; later session hooks skipped", hook.plugin.name),
            );
            break;
        }
    }
}
