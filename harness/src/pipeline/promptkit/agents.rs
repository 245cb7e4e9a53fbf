//! A pack's agents as PromptKit runs them in one process (sdk/local_agent_executor_impl.go,
//! agent_resolver.go at 86d9f367): a member named in a prompt's `tools` is offered as the tool
//! `a2a__<member>` taking `{"query": string}`; calling it sends the query to that member's own
//! conversation (its prompt, kept across calls) and answers `{"response": "<its text>"}`.

use std::collections::BTreeMap;

use proctor_mocks::provider::{LlmMessage, LlmRequest, LlmResponse, ScriptMiss};
use serde_json::{Value, json};

use crate::context::RunContext;
use crate::scenario::pack::PackRun;

/// What PromptKit's remote A2A executor answers for a member when the host gave it no endpoint:
/// measured by running runtime/a2a v1.5.11's `Executor` with an empty `AgentURL`, the URL
/// `AgentToolResolver.ResolveAgentTools` leaves without `WithAgentEndpoints` (sdk/agent_resolver.go:
/// 100-130). It fails after three retries (about 5 s); proctor answers at once.
pub(super) const UNREACHABLE: &str = "a2a executor: send message: a2a: message/send: Post \"/a2a\": unsupported protocol scheme \"\"";

/// Whether members answer in-process: under PromptKit only when the host opened the pack with
/// `sdk.OpenMultiAgent` (its local executor, sdk/multi_agent_open.go:95-107); any other entry
/// point sends a member's call to a remote A2A agent. The documents have no transport: members answer.
pub(super) fn answer_locally(run: &PackRun) -> bool {
    run.reader != proctor_pack::PackProfile::PromptKit || run.opening == crate::scenario::pack::Opening::MultiAgent
}

/// The tool name PromptKit gives a member (the documented profile keeps the member's own name).
pub(super) fn tool_name(run: &PackRun, member: &str) -> String {
    if run.reader == proctor_pack::PackProfile::PromptKit { format!("a2a__{member}") } else { member.to_string() }
}

/// The member a tool name calls, when it is one.
pub(super) fn member_of(run: &PackRun, tool: &str) -> Option<String> {
    let members = run.document["agents"]["members"].as_object()?;
    members.keys().find(|m| tool_name(run, m) == tool).cloned()
}

/// Every member conversation of the run, opened at its first call.
#[derive(Default)]
pub(super) struct Members {
    conversations: BTreeMap<String, Vec<LlmMessage>>,
}

impl Members {
    /// Sends `arguments.query` to `member` and returns PromptKit's tool result, or its error; a call
    /// the LLM script does not cover is the scenario's problem, not the member's.
    pub(super) fn call(
        &mut self,
        ctx: &mut RunContext<'_>,
        run: &PackRun,
        member: &str,
        arguments: &Value,
    ) -> Result<Result<Value, String>, ScriptMiss> {
        let Some(query) = arguments.get("query").and_then(Value::as_str) else {
            return Ok(Err("failed to parse agent tool args: `query` (a string) is required".into()));
        };
        let messages = match self.conversations.get_mut(member) {
            Some(messages) => messages,
            None => {
                let given: BTreeMap<String, Value> = run.variables.clone();
                let rendered = match proctor_pack::render::render(&run.document, member, run.reader, &given) {
                    Ok(rendered) => rendered,
                    Err(e) => return Ok(Err(format!("agent {member} failed: {e}"))),
                };
                self.conversations.entry(member.to_string()).or_insert_with(|| vec![LlmMessage::text("system", rendered.system_prompt)])
            }
        };
        messages.push(LlmMessage::text("user", query));
        let channel = format!("agent {member}");
        ctx.transcript.push(
            channel.clone(),
            "request",
            json!(messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect::<Vec<_>>()),
        );
        let wire = super::as_implemented(ctx).then(|| {
            let generation = super::wire::Generation::of(run.document["prompts"].get(member));
            super::wire::body(messages, &[], &[], &super::wire::Builtins::default(), &generation)
        });
        let request = LlmRequest { messages: messages.clone(), tools: Vec::new(), tool_specs: Vec::new(), wire };
        let text = match ctx.ask_llm(&request)? {
            LlmResponse::Reply { text, tool_calls, .. } => {
                if !tool_calls.is_empty() {
                    ctx.transcript.push(channel.clone(), "note", "the member's own tool calls are not run here; its text is the answer");
                }
                text
            }
            LlmResponse::Error { status, message } => return Ok(Err(format!("agent {member} failed: provider error {status}: {message}"))),
            other => return Ok(Err(format!("agent {member} failed: {}", other.fault().unwrap_or_default()))),
        };
        ctx.transcript.push(channel, "reply", text.clone());
        messages.push(LlmMessage::text("assistant", text.clone()));
        Ok(Ok(json!({"response": text})))
    }
}
