//! The exec selector as PromptKit's tool selector: before an LLM call, the
//! selector gets the user's query and the tools as candidates and answers
//! which to offer (research promptkit.md §1.8). Any failure (spawn, exit,
//! an unreadable answer) makes PromptKit include every candidate.
//!
//! The request is the documented one rendered for the profile, so under
//! promptkit@86d9f36 a selector that reads lowercase keys sees no query and
//! no ids, exactly as in production.

use std::time::Duration;

use proctor_conformance::client::one_shot;
use proctor_conformance::framing::read_document;
use proctor_conformance::protocol::{Family, Role, promptkit_exec, wire};
use serde_json::{Value, json};

use crate::context::RunContext;
use crate::scenario::PluginConfig;

/// PromptKit's selector deadline (sandbox default).
const SELECTOR_TIMEOUT: Duration = Duration::from_secs(10);

/// The tools to offer for `query`: what the scenario's selector picks from
/// `tools`, in its order, or all of them without a selector or on failure.
pub(super) async fn offered(ctx: &mut RunContext<'_>, query: &str, tools: Vec<String>) -> Vec<String> {
    let scenario = ctx.scenario;
    let Some((plugin, k)) = scenario.plugins.iter().find_map(|p| match &p.config {
        PluginConfig::PromptkitSelector(s) => Some((p, s.k.unwrap_or(0))),
        _ => None,
    }) else {
        return tools;
    };
    let channel = format!("plugin {}", plugin.name);
    // Tools carry no metadata: Go marshals the nil map as null.
    let candidates: Vec<Value> = tools.iter().map(|t| json!({"id": t, "name": t, "description": ""})).collect();
    let fields = json!({"query": {"text": query, "kind": "tool", "pack_id": "", "agent_id": "", "k": k}, "candidates": candidates});
    let documented = promptkit_exec::documented(Role::Selector, None, &fields);
    let bytes = wire::encode(&promptkit_exec::render(Role::Selector, &documented, ctx.profile), ctx.profile);
    ctx.transcript.bytes(channel.clone(), "stdin", &bytes);
    let command = ctx.command(plugin, Family::PromptkitExec, Some(Role::Selector));
    let picked = match one_shot(&command, RunContext::deadlines(SELECTOR_TIMEOUT), bytes).await {
        Err(e) => {
            ctx.cannot_start(&plugin.name, &command, &e);
            None
        }
        Ok(reply) => {
            ctx.transcript.bytes(channel.clone(), "stdout", &reply.collected.bytes);
            ctx.transcript.bytes(channel.clone(), "stderr", reply.stderr.as_bytes());
            let ok = reply.collected.exit.is_some_and(|e| e.success());
            read_document(&reply.collected.bytes)
                .into_readable()
                .filter(|_| ok)
                .and_then(|v| v.get("selected")?.as_array()?.iter().map(|s| s.as_str().map(String::from)).collect::<Option<Vec<String>>>())
        }
    };
    let offered: Vec<String> = match &picked {
        // Only ids PromptKit knows become tools; an unknown id is dropped.
        Some(ids) => ids.iter().filter(|id| tools.contains(id)).cloned().collect(),
        None => tools,
    };
    let decision = match &picked {
        Some(_) => format!("selected [{}]", offered.join(", ")),
        None => "failed: every tool offered".to_string(),
    };
    ctx.summary.decided(&plugin.name, "select", decision.clone());
    ctx.transcript.push(channel, "decision", json!({"call": "select", "decision": decision}));
    offered
}
