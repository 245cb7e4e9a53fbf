//! Claude Code and Codex CLI, as far as their command hooks see them: the
//! session starts, each prompt is submitted, the model asks for tools, each
//! call passes PreToolUse, runs, passes PostToolUse, and the agent stops
//! (or a Stop hook makes it go on). Each hook is run as the agent runs it
//! and read by `agent_reading`, the model held to the real agents by
//! interop/fidelity.sh's `agents` comparison; what the model is told after
//! a hook is written in each agent's own words (seen in interop/agents).

use std::time::Duration;

use proctor_conformance::certify::semantics::agent_reading::{self, Effect, HookRun, Reading};
use proctor_conformance::client::one_shot;
use proctor_conformance::protocol::Role;
use proctor_conformance::protocol::agent_hook::{self, Agent, HookEvent};
use proctor_mocks::provider::{LlmMessage, LlmRequest, LlmResponse, ResolvedCall};
use serde_json::{Value, json};

use super::PipelineError;
use crate::context::RunContext;
use crate::scenario::{Plugin, PluginConfig, ScriptedTool, Turn};

/// Model rounds per prompt before the run is called stuck (Claude Code stops a Stop-hook loop
/// after 8 blocks; Codex has no cap, so a scenario's script ends it).
const MAX_ROUNDS: usize = 16;

/// What the hooks of one event decided, together.
struct Decided {
    effect: Effect,
    reason: Option<String>,
    context: Vec<String>,
    /// The hook that blocked, and its command line (Claude Code names it after exit 2).
    by: Option<(String, String, bool)>,
}

pub(super) async fn run(ctx: &mut RunContext<'_>, agent: Agent) -> Result<(), PipelineError> {
    let mut history: Vec<LlmMessage> = Vec::new();
    let start = fire(ctx, agent, HookEvent::SessionStart, json!({"source": "startup"}), None).await;
    history.extend(start.context.iter().map(|c| context_message(agent, HookEvent::SessionStart, None, c)));
    for turn in &ctx.scenario.turns {
        let Turn::User(text) = turn else { continue };
        ctx.transcript.push("user", "message", text.clone());
        let prompt = fire(ctx, agent, HookEvent::UserPromptSubmit, json!({"prompt": text}), None).await;
        if matches!(prompt.effect, Effect::Block | Effect::Stop) {
            let reason = prompt.reason.clone().unwrap_or_default();
            let shown = match agent {
                Agent::ClaudeCode => format!("UserPromptSubmit operation blocked by hook:\n{reason}\n\nOriginal prompt: {text}"),
                Agent::Codex => String::new(),
            };
            ctx.transcript.push("user", "reply", shown);
            ctx.summary.outcome = Some(if prompt.effect == Effect::Stop { "stopped" } else { "blocked" }.into());
            ctx.summary.events.push("prompt.blocked".into());
            continue;
        }
        history.push(LlmMessage::text("user", text.clone()));
        history.extend(prompt.context.iter().map(|c| context_message(agent, HookEvent::UserPromptSubmit, None, c)));
        let outcome = rounds(ctx, agent, &mut history).await?;
        ctx.summary.outcome = Some(outcome.into());
    }
    Ok(())
}

/// The model rounds of one prompt; how they ended.
async fn rounds(ctx: &mut RunContext<'_>, agent: Agent, history: &mut Vec<LlmMessage>) -> Result<&'static str, PipelineError> {
    let tools: Vec<String> = ctx.scenario.tools.keys().cloned().collect();
    let mut stop_hook_active = false;
    for _ in 0..MAX_ROUNDS {
        let request = LlmRequest { messages: history.clone(), tools: tools.clone(), tool_specs: Vec::new(), wire: None };
        ctx.transcript.push("llm", "request", json!({"messages": history.len(), "tools": tools}));
        let (text, calls) = match ctx.ask_llm(&request)? {
            LlmResponse::Reply { text, tool_calls, .. } => (text, tool_calls),
            LlmResponse::Error { status, message } => {
                ctx.transcript.push("llm", "error", json!({"status": status, "message": message}));
                return Ok("error");
            }
            fault => {
                ctx.transcript.push("llm", "error", json!({"fault": fault.fault().unwrap_or_default()}));
                return Ok("error");
            }
        };
        ctx.transcript.push("llm", "reply", json!({"text": text, "tool_calls": calls.iter().map(|c| json!({"name": c.name, "arguments": c.arguments})).collect::<Vec<_>>()}));
        history.push(LlmMessage { role: "assistant".into(), content: text.clone(), tool_calls: calls.clone(), tool_call_id: None });
        if calls.is_empty() {
            let fields = json!({"stop_hook_active": stop_hook_active, "last_assistant_message": text});
            let stop = fire(ctx, agent, HookEvent::Stop, fields, None).await;
            if stop.effect == Effect::Block {
                // The model is prompted again with the hook's reason.
                stop_hook_active = true;
                let reason = stop.reason.unwrap_or_default();
                let prompt = match agent {
                    Agent::ClaudeCode => format!("Stop hook feedback:\n{reason}"),
                    Agent::Codex => format!("<hook_prompt>{reason}</hook_prompt>"),
                };
                ctx.transcript.push("runtime", "continue", prompt.clone());
                history.push(LlmMessage::text("user", prompt));
                continue;
            }
            ctx.transcript.push("user", "reply", text.clone());
            ctx.summary.final_text = Some(text);
            return Ok("completed");
        }
        for call in &calls {
            if tool_call(ctx, agent, call, history).await == Effect::Stop {
                return Ok("stopped");
            }
        }
    }
    Ok("error")
}

/// One tool call through PreToolUse, the tool and PostToolUse; the effect that ended it.
async fn tool_call(ctx: &mut RunContext<'_>, agent: Agent, call: &ResolvedCall, history: &mut Vec<LlmMessage>) -> Effect {
    let input = call.arguments.clone();
    let fields = json!({"tool_name": call.name, "tool_input": input, "tool_use_id": call.id});
    let pre = fire(ctx, agent, HookEvent::PreToolUse, fields.clone(), Some(&call.name)).await;
    let command = input.get("command").and_then(Value::as_str).unwrap_or_default().to_string();
    let mut added: Vec<LlmMessage> =
        pre.context.iter().map(|c| context_message(agent, HookEvent::PreToolUse, Some(&call.name), c)).collect();
    let (content, is_error, effect) = match pre.effect {
        Effect::Block | Effect::Ask => {
            let reason = pre.reason.clone().unwrap_or_else(|| "Blocked by hook".into());
            ctx.summary.denials.push(crate::record::DenialRecord {
                hook: pre.by.as_ref().map(|b| b.0.clone()).unwrap_or_default(),
                kind: "PreToolUse".into(),
                reason: reason.clone(),
            });
            let told = match agent {
                Agent::ClaudeCode => match &pre.by {
                    Some((_, line, true)) => format!("PreToolUse:{} hook error: [{line}]: {reason}", call.name),
                    _ => format!("PreToolUse:{} hook error: {reason}", call.name),
                },
                Agent::Codex => format!("Command blocked by PreToolUse hook: {reason}. Command: {command}"),
            };
            (told, true, Effect::Block)
        }
        Effect::Stop => return Effect::Stop,
        Effect::Proceed | Effect::Allow => {
            let (mut content, is_error) = execute(ctx, call);
            let mut fields = fields;
            fields["tool_response"] = json!({"stdout": content, "stderr": ""});
            let post = fire(ctx, agent, HookEvent::PostToolUse, fields, Some(&call.name)).await;
            added.extend(post.context.iter().map(|c| context_message(agent, HookEvent::PostToolUse, Some(&call.name), c)));
            if post.effect == Effect::Block {
                let reason = post.reason.unwrap_or_default();
                match agent {
                    // Codex replaces the tool's output with the feedback.
                    Agent::Codex => content = reason,
                    Agent::ClaudeCode => {
                        let line = post.by.map(|b| b.1).unwrap_or_default();
                        let told = format!("PostToolUse:{} hook blocking error from command: \"{line}\": {reason}", call.name);
                        added.push(LlmMessage::text("system", told));
                    }
                }
            }
            if post.effect == Effect::Stop {
                return Effect::Stop;
            }
            (content, is_error, Effect::Proceed)
        }
    };
    ctx.summary.tool_results.push(crate::record::ToolResultRecord { tool: call.name.clone(), content: content.clone(), is_error });
    ctx.transcript.push(format!("tool {}", call.name), "result for the model", json!({"content": content, "is_error": is_error}));
    let tool_message = LlmMessage { role: "tool".into(), content, tool_calls: Vec::new(), tool_call_id: Some(call.id.clone()) };
    match agent {
        // Codex puts its developer messages before the call's output.
        Agent::Codex => {
            history.extend(added);
            history.push(tool_message);
        }
        Agent::ClaudeCode => {
            history.push(tool_message);
            history.extend(added);
        }
    }
    effect
}

/// The scripted tool's result (the agents' own tools are not run by proctor).
fn execute(ctx: &mut RunContext<'_>, call: &ResolvedCall) -> (String, bool) {
    let channel = format!("tool {}", call.name);
    ctx.transcript.push(channel.clone(), "request", call.arguments.clone());
    ctx.summary.events.push(format!("tool.{}", call.name));
    match ctx.scenario.tools.get(&call.name) {
        Some(ScriptedTool::Result(text)) => (text.clone(), false),
        Some(ScriptedTool::Error(text)) => (text.clone(), true),
        None => (format!("No such tool available: {}", call.name), true),
    }
}

/// Added context as the model sees it.
fn context_message(agent: Agent, event: HookEvent, tool: Option<&str>, text: &str) -> LlmMessage {
    match (agent, tool) {
        (Agent::ClaudeCode, Some(tool)) => LlmMessage::text("system", format!("{}:{tool} hook additional context: {text}", event.name())),
        (Agent::ClaudeCode, None) => LlmMessage::text("system", text.to_string()),
        (Agent::Codex, _) => LlmMessage::text("developer", text.to_string()),
    }
}

/// Runs every hook configured for `event` (and matching `tool`), one after another, and folds
/// what they decided: any block wins, with the first block's reason.
async fn fire(ctx: &mut RunContext<'_>, agent: Agent, event: HookEvent, fields: Value, tool: Option<&str>) -> Decided {
    let mut decided = Decided { effect: Effect::Proceed, reason: None, context: Vec::new(), by: None };
    let hooks: Vec<&Plugin> = ctx
        .scenario
        .plugins
        .iter()
        .filter(|p| matches!(&p.config, PluginConfig::AgentHook(h) if h.event == event.name() && tool.is_none_or(|t| matches(agent, h.matcher.as_deref(), t))))
        .collect();
    for plugin in hooks {
        let PluginConfig::AgentHook(config) = &plugin.config else { continue };
        let timeout = config.timeout_ms.map_or(agent.default_timeout(), Duration::from_millis);
        let family = ctx.scenario.runtime.family();
        let command = ctx.command(plugin, family, Some(Role::Event(event)));
        let bytes = agent_hook::stdin(agent, ctx.profile, event, &fields);
        let channel = format!("hook {} ({})", plugin.name, event.name());
        ctx.transcript.bytes(channel.clone(), "stdin", &bytes);
        let reading = match one_shot(&command, RunContext::deadlines(timeout), bytes).await {
            Err(e) => {
                ctx.cannot_start(&plugin.name, &command, &e);
                None
            }
            Ok(reply) => {
                ctx.transcript.bytes(channel.clone(), "stdout", &reply.collected.bytes);
                ctx.transcript.bytes(channel.clone(), "stderr", reply.stderr.as_bytes());
                match reply.collected.exit {
                    None => {
                        ctx.transcript.push(
                            channel.clone(),
                            "timeout",
                            format!("killed after {} ms; the agent goes on", timeout.as_millis()),
                        );
                        None
                    }
                    Some(exit) => {
                        let code = exit.code();
                        let run = HookRun {
                            profile: ctx.profile,
                            agent,
                            event,
                            exit: code,
                            stdout: &reply.collected.bytes,
                            stderr: reply.stderr.as_bytes(),
                        };
                        Some((agent_reading::read(&run), code == Some(2)))
                    }
                }
            }
        };
        let Some((reading, exit2)) = reading else {
            ctx.summary.decided(&plugin.name, event.name(), "error");
            continue;
        };
        record(ctx, &channel, &plugin.name, event, &reading);
        if reading.error.is_none() {
            fold(&mut decided, reading, plugin, exit2);
        }
    }
    decided
}

fn record(ctx: &mut RunContext<'_>, channel: &str, plugin: &str, event: HookEvent, reading: &Reading) {
    let decision = if reading.error.is_some() { "error" } else { reading.effect.name() };
    let mut body = json!({"decision": decision});
    for (key, value) in [("reason", &reading.reason), ("context", &reading.context), ("hook_error", &reading.error)] {
        if let Some(v) = value {
            body[key] = json!(v);
        }
    }
    ctx.transcript.push(channel.to_string(), "decision", body);
    ctx.summary.decided(plugin, event.name(), decision);
}

fn fold(decided: &mut Decided, reading: Reading, plugin: &Plugin, exit2: bool) {
    decided.context.extend(reading.context);
    let stronger = |e: Effect| match e {
        Effect::Stop => 4,
        Effect::Block => 3,
        Effect::Ask => 2,
        Effect::Allow => 1,
        Effect::Proceed => 0,
    };
    if stronger(reading.effect) > stronger(decided.effect) {
        decided.effect = reading.effect;
        decided.reason = reading.reason;
        let line = match &plugin.process {
            crate::scenario::Process::Command(argv) => argv.join(" "),
            crate::scenario::Process::Mock(_) => String::new(),
        };
        decided.by = Some((plugin.name.clone(), line, exit2));
    }
}

/// Whether a hook's matcher selects `tool`: `*`, empty or absent match all; a name or a list of
/// names (`A|B`; Claude Code also takes `A, B` and names with `-`) match exactly; anything else is
/// a regular expression (the agents' hooks references, "Matcher patterns").
fn matches(agent: Agent, matcher: Option<&str>, tool: &str) -> bool {
    let name_char =
        |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '|' || (agent == Agent::ClaudeCode && matches!(c, '-' | ' ' | ','));
    match matcher.map(str::trim) {
        None | Some("" | "*") => true,
        Some(m) if m.chars().all(name_char) => m.split(['|', ',']).any(|n| n.trim() == tool),
        Some(m) => regex::Regex::new(&format!("^(?:{m})$")).is_ok_and(|re| re.is_match(tool)),
    }
}

#[cfg(test)]
mod tests {
    use super::{Agent, matches};

    #[test]
    fn matchers_are_all_names_or_regular_expressions_as_the_agents_read_them() {
        for agent in [Agent::ClaudeCode, Agent::Codex] {
            let m = |matcher: Option<&str>, tool: &str| matches(agent, matcher, tool);
            for all in [None, Some(""), Some("*")] {
                assert!(m(all, "Bash") && m(all, "mcp__tickets__create"));
            }
            // Names match exactly: `Bas` is not `Bash`.
            assert!(m(Some("Bash"), "Bash") && !m(Some("Bas"), "Bash") && !m(Some("Bash"), "BashOutput"));
            assert!(m(Some("Edit|Write"), "Write") && !m(Some("Edit|Write"), "Read"));
            // Anything else is a regular expression over the whole name.
            assert!(m(Some("mcp__.*"), "mcp__tickets__create") && !m(Some("mcp__.*"), "Bash"));
            assert!(!m(Some("(unclosed"), "Bash"));
        }
        // Claude Code also lists names with commas.
        assert!(matches(Agent::ClaudeCode, Some("Edit, Write"), "Write"));
    }
}
