//! PicoClaw's agent loop with process hooks, as at cf67dd3 (and as the
//! protocol document describes it under the `documented` profile).
//!
//! Per user turn: `agent.turn.start`; then LLM rounds, each `before_llm`
//! chain → provider → `after_llm` chain → for every tool call in order:
//! `before_tool` chain → `approve_tool` over every approver → the scripted
//! tool → `after_tool` chain → a `tool` message; a round without tool calls
//! ends the turn. Chains run by priority, then name; interceptors fail open,
//! approvers fail closed. Sources: research picoclaw-runok.md §A1–A3 (cited
//! by section below), the pinned PicoClaw files they quote.
//!
//! Where the notes are silent this pipeline picks one plausible reading and
//! keeps to it: `agent.llm.request` is emitted after the before_llm chain and
//! `agent.tool.exec_start` after approval; notifications go out in line with
//! the calls (PicoClaw sends them from a separate goroutine, so their real
//! interleaving varies); event payloads carry the fields of the Go payload
//! types that a scripted run can fill (turn_end leaves out workspace, skills
//! and durations); a denied call's tool message counts as an error result;
//! `hooks.init_failed` is proctor's name for PicoClaw's init error, not a
//! runtime event kind. Volatile values are fixed: event ids count up, event
//! times and after_tool durations are constants.

mod hooks;
mod wire;

use std::time::Duration;

use proctor_conformance::protocol::Profile;
use proctor_conformance::protocol::picoclaw_hook::{AFTER_LLM, AFTER_TOOL, APPROVE_TOOL, BEFORE_LLM, BEFORE_TOOL};
use proctor_conformance::protocol::wire::sort_keys;
use proctor_mocks::provider::{LlmMessage, LlmRequest, LlmResponse, ResolvedCall};
use serde_json::{Map, Value, json};

use self::hooks::{Called, Hook};
use self::wire::{Action, At, LlmAnswer, LlmCall, ToolCallNow, ToolOutput, Verdict};
use super::PipelineError;
use crate::context::RunContext;
use crate::scenario::{ScriptedTool, Turn};

/// Default `interceptor_timeout_ms` (§A1, hooks.go:18-23).
const INTERCEPTOR_TIMEOUT: Duration = Duration::from_secs(5);
/// Default `approval_timeout_ms`.
const APPROVAL_TIMEOUT: Duration = Duration::from_secs(60);
/// Default `observer_timeout_ms`, per hook per event.
const OBSERVER_TIMEOUT: Duration = Duration::from_millis(500);
/// PicoClaw's default `max_tool_iterations`.
const MAX_ITERATIONS: usize = 20;
/// The model and options of every LLM call (the scenario has no model).
const MODEL: &str = "scripted-model";
/// The context builder's system prompt, shortened.
const SYSTEM_PROMPT: &str = "You are PicoClaw, a personal AI assistant.";
/// What `abort_turn` becomes: the hook's reason is dropped (turn_coord.go:213-216).
const ABORT_ERROR: &str = "hook requested turn abort";

pub(super) async fn run(ctx: &mut RunContext<'_>) -> Result<(), PipelineError> {
    let hooks = match hooks::mount(ctx).await {
        Ok(hooks) => hooks,
        Err(e) => {
            // `AgentLoop.Run` returns the init error before its loop (§A2):
            // no turn is processed, no LLM is called.
            ctx.transcript.push("runtime", "error", e);
            ctx.transcript.push("runtime", "event", "hooks.init_failed");
            ctx.summary.events.push("hooks.init_failed".into());
            ctx.summary.outcome = Some("error".into());
            for turn in &ctx.scenario.turns {
                if let Turn::User(text) = turn {
                    ctx.transcript.push("user", "message (never processed)", text.clone());
                }
            }
            return Ok(());
        }
    };
    let order = wire::chain_order(&hooks.iter().map(|h| (h.name.as_str(), h.priority)).collect::<Vec<_>>());
    let tools = ctx.scenario.tools.keys().map(|n| wire::tool_definition(n)).collect();
    let mut agent = Agent { profile: ctx.profile, hooks, order, tools, history: Vec::new(), events: 0, turns: 0 };
    let mut result = Ok(());
    for turn in &ctx.scenario.turns {
        match turn {
            Turn::User(text) => {
                result = agent.turn(ctx, text).await;
                if result.is_err() {
                    break;
                }
            }
            other => ctx.transcript.push(
                "runtime",
                "log",
                format!("PicoClaw has no such input; ignored: {}", serde_json::to_string(other).unwrap_or_default()),
            ),
        }
    }
    for hook in agent.hooks {
        hook.close(&mut ctx.transcript).await;
    }
    result
}

/// How a turn ends.
#[derive(Debug, Clone, PartialEq)]
enum TurnEnd {
    Completed(String),
    /// Provider failure and the like.
    Error(String),
    /// `abort_turn`: an error, history kept.
    Abort,
    /// `hard_abort`: aborted, history rolled back, no error.
    HardAbort,
}

/// What a before_tool chain settled on.
enum ToolPlan {
    Run,
    Respond(String, ToolOutput),
    Deny(String, String),
    End(TurnEnd),
}

/// One interceptor's answer, once decoded and recorded.
enum Step<T> {
    /// Failed, unknown or unsupported: the chain goes on as if it had not run.
    Skip,
    Act(Action, String, Option<T>),
}

struct Agent {
    profile: Profile,
    hooks: Vec<Hook>,
    /// Indices into `hooks`, priority then name.
    order: Vec<usize>,
    tools: Vec<Value>,
    /// The session history (without the system prompt).
    history: Vec<LlmMessage>,
    events: u64,
    turns: usize,
}

impl Agent {
    async fn turn(&mut self, ctx: &mut RunContext<'_>, text: &str) -> Result<(), PipelineError> {
        self.turns += 1;
        let turn_id = format!("turn-{}", self.turns);
        let at = At { turn_id: &turn_id, iteration: 0 };
        ctx.transcript.push("user", "message", text);
        // The restore point hard_abort rolls back to (turn_coord.go:288-304).
        let restore = self.history.len();
        self.emit(ctx, at, "agent.turn.start", json!({"UserMessage": text, "MediaCount": 0})).await;
        self.history.push(LlmMessage::text("user", text));
        let (end, iterations) = self.rounds(ctx, &turn_id).await?;
        let (status, outcome, final_content) = match &end {
            TurnEnd::Completed(text) => ("completed", "completed", text.clone()),
            TurnEnd::Error(e) => {
                ctx.transcript.push("runtime", "error", e.clone());
                ("error", "error", String::new())
            }
            TurnEnd::Abort => {
                ctx.transcript.push("runtime", "error", ABORT_ERROR);
                ctx.transcript.push("user", "reply", format!("Error processing message: {ABORT_ERROR}"));
                ("error", "aborted", String::new())
            }
            TurnEnd::HardAbort => {
                self.history.truncate(restore);
                ctx.transcript.push("runtime", "log", format!("turn hard-aborted: session history rolled back to {restore} message(s)"));
                ("aborted", "aborted", String::new())
            }
        };
        if let TurnEnd::Completed(text) = &end {
            ctx.transcript.push("user", "reply", text.clone());
            ctx.summary.final_text = Some(text.clone());
        }
        ctx.summary.outcome = Some(outcome.into());
        let payload = json!({"Status": status, "Iterations": iterations, "FinalContentLen": final_content.len(), "UserMessage": text, "FinalContent": final_content});
        self.emit(ctx, at, "agent.turn.end", payload).await;
        Ok(())
    }

    /// The LLM rounds of one turn, and how many there were.
    async fn rounds(&mut self, ctx: &mut RunContext<'_>, turn_id: &str) -> Result<(TurnEnd, usize), PipelineError> {
        for iteration in 1..=MAX_ITERATIONS {
            let at = At { turn_id, iteration };
            let mut messages = vec![LlmMessage::text("system", SYSTEM_PROMPT)];
            messages.extend(self.history.iter().cloned());
            let options: Map<String, Value> =
                [("max_tokens".to_string(), json!(8192)), ("temperature".to_string(), json!(0.7))].into_iter().collect();
            let mut call = LlmCall { model: MODEL.into(), messages, tools: self.tools.clone(), options };
            if let Some(end) = self.before_llm(ctx, at, &mut call).await {
                return Ok((end, iteration));
            }
            let payload = json!({"Model": call.model, "MessagesCount": call.messages.len(), "ToolsCount": call.tools.len(),
                                 "MaxTokens": call.options.get("max_tokens").cloned().unwrap_or(json!(0)),
                                 "Temperature": call.options.get("temperature").cloned().unwrap_or(json!(0))});
            self.emit(ctx, at, "agent.llm.request", payload).await;
            // PicoClaw's tool definitions are already what it sends.
            let request =
                LlmRequest { messages: call.messages.clone(), tools: call.tool_names(), tool_specs: call.tools.clone(), wire: None };
            ctx.transcript.push(
                "llm",
                "request",
                json!({"model": call.model, "messages": call.messages.iter().map(wire::message_line).collect::<Vec<_>>()}),
            );
            let mut answer = match ctx.ask_llm(&request)? {
                LlmResponse::Reply { text, tool_calls, delay_ms, .. } => {
                    if delay_ms > 0 {
                        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
                    }
                    LlmAnswer { content: text, tool_calls }
                }
                LlmResponse::Error { status, message } => {
                    ctx.transcript.push("llm", "error", json!({"status": status, "message": message}));
                    return Ok((TurnEnd::Error(format!("LLM call failed: {status} {message}")), iteration));
                }
                fault @ (LlmResponse::Malformed { .. } | LlmResponse::Disconnect { .. }) => {
                    let fault = fault.fault().unwrap_or_default();
                    ctx.transcript.push("llm", "error", json!({"fault": fault}));
                    return Ok((TurnEnd::Error(format!("LLM call failed: {fault}")), iteration));
                }
            };
            ctx.transcript.push("llm", "reply", answer_json(&answer));
            let payload = json!({"ContentLen": answer.content.len(), "ToolCalls": answer.tool_calls.len(), "HasReasoning": false});
            self.emit(ctx, at, "agent.llm.response", payload).await;
            if let Some(end) = self.after_llm(ctx, at, &call.model, &mut answer).await {
                return Ok((end, iteration));
            }
            if answer.tool_calls.is_empty() {
                self.history.push(LlmMessage::text("assistant", answer.content.clone()));
                return Ok((TurnEnd::Completed(answer.content), iteration));
            }
            self.history.push(LlmMessage {
                role: "assistant".into(),
                content: answer.content.clone(),
                tool_calls: answer.tool_calls.clone(),
                tool_call_id: None,
            });
            for tc in &answer.tool_calls {
                if let Some(end) = self.tool_call(ctx, at, tc).await {
                    return Ok((end, iteration));
                }
            }
        }
        Ok((TurnEnd::Error(format!("max tool iterations ({MAX_ITERATIONS}) reached")), MAX_ITERATIONS))
    }

    /// The hooks of a mode, in chain order.
    fn chain(&self, mode: impl Fn(&wire::Modes) -> bool) -> Vec<usize> {
        self.order.iter().copied().filter(|&i| mode(&self.hooks[i].modes)).collect()
    }

    /// Calls hook `i` and decodes its interceptor answer; records the decision.
    async fn intercept<T>(
        &mut self,
        ctx: &mut RunContext<'_>,
        i: usize,
        method: &str,
        params: Value,
        read: impl FnOnce(&Value) -> Result<Option<T>, String>,
    ) -> Step<T> {
        let hook = &mut self.hooks[i];
        let called = hook.call(&mut ctx.transcript, method, params, INTERCEPTOR_TIMEOUT).await;
        let (decision, note, step) = match called {
            Called::Result(result) => match wire::decode(method, &result, read) {
                Ok(Verdict::Act(action, reason, payload)) => (action.name().to_string(), None, Step::Act(action, reason, payload)),
                // "Hook returned unsupported action for stage" (§A3): output discarded.
                Ok(Verdict::Unsupported(action)) => (
                    "ignored".into(),
                    Some(format!("unsupported action {action:?} for {method}: this hook's output is discarded")),
                    Step::Skip,
                ),
                Err(e) => ("skipped".into(), Some(format!("hook skipped: {method} failed: {e}")), Step::Skip),
            },
            // Fail-open: WARN "Interceptor hook failed" / "timed out" (§A2).
            Called::Failed(e) => ("skipped".into(), Some(format!("hook skipped: {method} failed: {e}")), Step::Skip),
            Called::TimedOut => (
                "skipped".into(),
                Some(format!("hook skipped: {method} timed out after {} ms", INTERCEPTOR_TIMEOUT.as_millis())),
                Step::Skip,
            ),
        };
        let hook = &self.hooks[i];
        ctx.summary.decided(&hook.name, method, decision.clone());
        let mut body = json!({"call": method, "decision": decision});
        if let Some(note) = note {
            body["note"] = json!(note);
        }
        ctx.transcript.push(format!("plugin {}", hook.name), "decision", body);
        step
    }

    async fn before_llm(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, call: &mut LlmCall) -> Option<TurnEnd> {
        for i in self.chain(|m| m.llm) {
            let params = wire::before_llm_params(self.profile, at, call);
            match self.intercept(ctx, i, BEFORE_LLM, params, wire::read_request).await {
                Step::Act(Action::AbortTurn, ..) => return Some(TurnEnd::Abort),
                Step::Act(Action::HardAbort, ..) => return Some(TurnEnd::HardAbort),
                // `continue` applies a returned payload exactly like `modify` (§A3).
                Step::Act(_, _, Some(next)) => {
                    let (next, reverted) = wire::before_llm_controls(call, next);
                    for what in reverted {
                        ctx.transcript.push(
                            "runtime",
                            "log",
                            format!("before_llm controls: hook {} changed {what}; reverted", self.hooks[i].name),
                        );
                    }
                    *call = next;
                }
                _ => {}
            }
        }
        None
    }

    async fn after_llm(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, model: &str, answer: &mut LlmAnswer) -> Option<TurnEnd> {
        let profile = self.profile;
        for i in self.chain(|m| m.llm) {
            let params = wire::after_llm_params(profile, at, model, answer);
            match self.intercept(ctx, i, AFTER_LLM, params, |r| wire::read_response(profile, r)).await {
                Step::Act(Action::AbortTurn, ..) => return Some(TurnEnd::Abort),
                Step::Act(Action::HardAbort, ..) => return Some(TurnEnd::HardAbort),
                Step::Act(_, _, Some(next)) => {
                    if next != *answer {
                        ctx.transcript.push(
                            "runtime",
                            "log",
                            format!("after_llm: hook {} replaced the answer: {}", self.hooks[i].name, answer_json(&next)),
                        );
                    }
                    *answer = next;
                }
                _ => {}
            }
        }
        None
    }

    /// One tool call, from before_tool to the `tool` message.
    async fn tool_call(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, tc: &ResolvedCall) -> Option<TurnEnd> {
        let mut call = ToolCallNow { tool: tc.name.clone(), arguments: tc.arguments.clone() };
        let plan = self.before_tool(ctx, at, &mut call).await;
        let output = match plan {
            ToolPlan::End(end) => return Some(end),
            // deny_tool: approval and after_tool skipped; the turn goes on (§A3).
            ToolPlan::Deny(hook, reason) => {
                let message = with_reason("Tool execution denied by hook", &reason);
                ctx.summary.denials.push(crate::record::DenialRecord { hook, kind: "deny_tool".into(), reason });
                self.skipped(ctx, at, &call, message).await
            }
            // respond: not executed; approval and after_tool skipped (pipeline_execute.go:178-400).
            ToolPlan::Respond(hook, output) => {
                ctx.transcript.push(
                    "runtime",
                    "log",
                    format!("tool {:?} answered by hook {hook}: not executed; approve_tool and after_tool skipped", call.tool),
                );
                self.emit(ctx, at, "agent.tool.exec_start", json!({"Tool": call.tool, "Arguments": sort_keys(&call.arguments)})).await;
                self.emit(ctx, at, "agent.tool.exec_end", exec_end(&call, &output, 0)).await;
                output
            }
            ToolPlan::Run => match self.approve(ctx, at, &call).await {
                Some((hook, reason)) => {
                    let message = with_reason("Tool execution denied by approval hook", &reason);
                    ctx.summary.denials.push(crate::record::DenialRecord { hook, kind: "approve_tool".into(), reason });
                    self.skipped(ctx, at, &call, message).await
                }
                None => {
                    let output = self.execute(ctx, at, &call).await;
                    match self.after_tool(ctx, at, &mut call, output).await {
                        Ok(output) => output,
                        Err(end) => return Some(end),
                    }
                }
            },
        };
        ctx.summary.tool_results.push(crate::record::ToolResultRecord {
            tool: call.tool.clone(),
            content: output.for_llm.clone(),
            is_error: output.is_error,
        });
        ctx.transcript.push(
            "runtime",
            "tool message",
            json!({"tool_call_id": tc.id, "tool": call.tool, "content": output.for_llm, "is_error": output.is_error}),
        );
        self.history.push(LlmMessage {
            role: "tool".into(),
            content: output.for_llm,
            tool_calls: Vec::new(),
            tool_call_id: Some(tc.id.clone()),
        });
        None
    }

    async fn before_tool(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, call: &mut ToolCallNow) -> ToolPlan {
        for i in self.chain(|m| m.tool) {
            let params = wire::tool_params(self.profile, at, "turn.tool.before", call);
            let before = call.clone();
            match self.intercept(ctx, i, BEFORE_TOOL, params, wire::read_before_tool).await {
                Step::Skip => {}
                Step::Act(Action::AbortTurn, ..) => return ToolPlan::End(TurnEnd::Abort),
                Step::Act(Action::HardAbort, ..) => return ToolPlan::End(TurnEnd::HardAbort),
                Step::Act(Action::DenyTool, reason, _) => return ToolPlan::Deny(self.hooks[i].name.clone(), reason),
                Step::Act(Action::Respond, _, payload) => {
                    let (next, output) = payload.unwrap_or((None, None));
                    if let Some(next) = next {
                        *call = next;
                    }
                    let Some(output) = output else {
                        // WARN "respond action but no HookResult provided": the
                        // chain has stopped; approval and execution go ahead with
                        // the call as it was before this hook.
                        ctx.transcript.push(
                            "runtime",
                            "log",
                            format!("hook {} answered respond without a result: the tool runs", self.hooks[i].name),
                        );
                        *call = before;
                        return ToolPlan::Run;
                    };
                    return ToolPlan::Respond(self.hooks[i].name.clone(), output);
                }
                // continue / modify: a `call` replaces tool and arguments wholesale.
                Step::Act(_, _, payload) => {
                    if let Some((Some(next), _)) = payload {
                        *call = next;
                    }
                }
            }
        }
        ToolPlan::Run
    }

    /// Every approver in chain order; the first denial wins. A hook without
    /// approve mode approves without a call; an error or timeout denies (§A3).
    async fn approve(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, call: &ToolCallNow) -> Option<(String, String)> {
        for i in self.chain(|m| m.approve) {
            let params = wire::tool_params(self.profile, at, "turn.tool.approve", call);
            let hook = &mut self.hooks[i];
            let called = hook.call(&mut ctx.transcript, APPROVE_TOOL, params, APPROVAL_TIMEOUT).await;
            let name = hook.name.clone();
            let (approved, reason, note) = match called {
                Called::Result(r) => match wire::decode_approval(&r) {
                    Ok((approved, reason)) => (approved, reason, None),
                    Err(e) => (false, format!("tool approval hook {name:?} failed"), Some(e)),
                },
                Called::Failed(e) => (false, format!("tool approval hook {name:?} failed"), Some(e)),
                Called::TimedOut => (false, format!("tool approval hook {name:?} timed out"), None),
            };
            let decision = if approved { "approved" } else { "denied" };
            ctx.summary.decided(&name, APPROVE_TOOL, decision);
            let mut body = json!({"call": APPROVE_TOOL, "decision": decision, "reason": reason});
            if let Some(note) = note {
                body["note"] = json!(note);
            }
            ctx.transcript.push(format!("plugin {name}"), "decision", body);
            if !approved {
                return Some((name, reason));
            }
        }
        None
    }

    /// Runs the scripted built-in tool.
    async fn execute(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, call: &ToolCallNow) -> ToolOutput {
        self.emit(ctx, at, "agent.tool.exec_start", json!({"Tool": call.tool, "Arguments": sort_keys(&call.arguments)})).await;
        let channel = format!("tool {}", call.tool);
        ctx.transcript.push(channel.clone(), "request", call.arguments.clone());
        let output = match ctx.scenario.tools.get(&call.tool) {
            Some(ScriptedTool::Result(text)) => ToolOutput { for_llm: text.clone(), ..ToolOutput::default() },
            Some(ScriptedTool::Error(text)) => ToolOutput { for_llm: text.clone(), is_error: true, ..ToolOutput::default() },
            None => ToolOutput { for_llm: format!("tool not found: {}", call.tool), is_error: true, ..ToolOutput::default() },
        };
        ctx.transcript.push(channel, "result", json!({"for_llm": output.for_llm, "is_error": output.is_error}));
        self.emit(ctx, at, "agent.tool.exec_end", exec_end(call, &output, wire::DURATION_NS)).await;
        output
    }

    async fn after_tool(
        &mut self,
        ctx: &mut RunContext<'_>,
        at: At<'_>,
        call: &mut ToolCallNow,
        mut output: ToolOutput,
    ) -> Result<ToolOutput, TurnEnd> {
        let profile = self.profile;
        for i in self.chain(|m| m.tool) {
            let params = wire::after_tool_params(profile, at, call, &output);
            match self.intercept(ctx, i, AFTER_TOOL, params, |r| wire::read_after_tool(profile, r)).await {
                Step::Act(Action::AbortTurn, ..) => return Err(TurnEnd::Abort),
                Step::Act(Action::HardAbort, ..) => return Err(TurnEnd::HardAbort),
                Step::Act(_, _, Some((tool, next))) => {
                    if let Some(tool) = tool {
                        call.tool = tool;
                    }
                    if let Some(next) = next {
                        if next != output {
                            ctx.transcript.push(
                                "runtime",
                                "log",
                                format!("after_tool: hook {} replaced the result: {:?}", self.hooks[i].name, next.for_llm),
                            );
                        }
                        output = next;
                    }
                }
                _ => {}
            }
        }
        Ok(output)
    }

    /// A denied call: `agent.tool.exec_skipped` and the denial as the tool message.
    async fn skipped(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, call: &ToolCallNow, message: String) -> ToolOutput {
        self.emit(ctx, at, "agent.tool.exec_skipped", json!({"Tool": call.tool, "Reason": message})).await;
        ToolOutput { for_llm: message, is_error: true, ..ToolOutput::default() }
    }

    /// Emits a runtime event: recorded, and sent to every hook observing it
    /// (one after the other, 500 ms each, no reply read; §A2 notifications).
    async fn emit(&mut self, ctx: &mut RunContext<'_>, at: At<'_>, kind: &str, payload: Value) {
        self.events += 1;
        ctx.summary.events.push(kind.to_string());
        ctx.transcript.push("runtime", "event", kind);
        for &i in &self.order {
            let hook = &mut self.hooks[i];
            if !hook.modes.observes(kind) {
                continue;
            }
            let (method, params) = wire::event(self.profile, self.events, kind, at, &payload);
            // Recorded as a decision (what the observer was told), so that
            // scenarios can expect a notification and not only its absence.
            let told = if method == "hook.event" { wire::short_kind(kind) } else { kind };
            ctx.summary.decided(&hook.name, method, told);
            if let Err(e) = hook.notify(&mut ctx.transcript, method, params, OBSERVER_TIMEOUT).await {
                ctx.transcript.push("runtime", "log", format!("observer {} not notified of {kind}: {e}", hook.name));
            }
        }
    }
}

fn with_reason(prefix: &str, reason: &str) -> String {
    if reason.is_empty() { prefix.to_string() } else { format!("{prefix}: {reason}") }
}

fn exec_end(call: &ToolCallNow, output: &ToolOutput, duration_ns: u64) -> Value {
    json!({"Tool": call.tool, "Duration": duration_ns, "ForLLMLen": output.for_llm.len(), "ForUserLen": output.for_user.len(),
           "IsError": output.is_error, "Async": output.is_async})
}

fn answer_json(a: &LlmAnswer) -> Value {
    let mut v = json!({"text": a.content});
    if !a.tool_calls.is_empty() {
        v["tool_calls"] = a.tool_calls.iter().map(|c| json!({"id": c.id, "name": c.name, "arguments": c.arguments})).collect();
    }
    v
}
