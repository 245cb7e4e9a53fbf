//! PromptKit exec hooks (provider, tool, session, eval): one process per
//! invocation, the payload of the profile on stdin, the decision read as
//! `execFilter` reads it (research: promptkit.md §1.5.3).

use std::time::Duration;

use proctor_conformance::client::one_shot;
use proctor_conformance::framing::read_document;
use proctor_conformance::protocol::{Family, Role, promptkit_exec, wire};
use serde_json::{Value, json};

use crate::context::RunContext;
use crate::scenario::{Plugin, PluginConfig, PromptkitHook};

/// PromptKit's default exec-hook deadline; eval hooks get 5 s.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
const EVAL_HOOK_TIMEOUT: Duration = Duration::from_secs(5);

/// What a filter hook decided, as the pipeline sees it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Verdict {
    /// `allow: true`.
    Allow,
    /// Anything else without `enforced` (including failures: fail closed).
    Deny { reason: String, metadata: Value },
    /// `allow: false, enforced: true`.
    Enforced { reason: String, metadata: Value },
}

impl Verdict {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Deny { .. } => "deny",
            Verdict::Enforced { .. } => "enforced",
        }
    }
}

/// A configured exec hook.
pub(super) struct ExecHook<'a> {
    pub plugin: &'a Plugin,
    pub config: &'a PromptkitHook,
}

impl ExecHook<'_> {
    /// Exactly `observe` is observe; anything else (typos included) is filter.
    pub fn observe(&self) -> bool {
        self.config.mode.as_deref() == Some("observe")
    }

    /// Phases are matched exactly; none listed means the hook never runs.
    pub fn runs_in(&self, phase: &str) -> bool {
        self.config.phases.iter().any(|p| p == phase)
    }

    /// The role the hook's config gives it (one place decides: `Plugin::protocol`).
    fn role(&self) -> Role {
        self.plugin.protocol().1.first().copied().unwrap_or(Role::EvalHook)
    }
}

/// The exec hooks of a kind, in scenario order. (PromptKit ranges over a Go
/// map, so its order is random per run; proctor uses the file's order.)
pub(super) fn of_kind<'a>(plugins: &'a [Plugin], kind: &str) -> Vec<ExecHook<'a>> {
    plugins
        .iter()
        .filter_map(|p| match &p.config {
            PluginConfig::PromptkitHook(c) if c.hook == kind => Some(ExecHook { plugin: p, config: c }),
            _ => None,
        })
        .collect()
}

/// Runs one hook invocation with the documented payload `doc`; returns the
/// verdict (observe hooks always allow) and records the exchange.
pub(super) async fn invoke(ctx: &mut RunContext<'_>, hook: &ExecHook<'_>, phase: &str, doc: Value) -> Verdict {
    let role = hook.role();
    let timeout =
        hook.config.timeout_ms.map_or(if role == Role::EvalHook { EVAL_HOOK_TIMEOUT } else { DEFAULT_TIMEOUT }, Duration::from_millis);
    let wire_value = promptkit_exec::render(role, &doc, ctx.profile);
    let mut bytes = wire::encode(&wire_value, ctx.profile);
    if ctx.profile.oneshot_trailing_newline() {
        bytes.push(b'\n');
    }
    let name = hook.plugin.name.clone();
    let channel = format!("plugin {name}");
    ctx.transcript.bytes(channel.clone(), "stdin", &bytes);
    ctx.summary.calls.push((name.clone(), phase.to_string()));
    let command = ctx.command(hook.plugin, Family::PromptkitExec, Some(role));
    let verdict = match one_shot(&command, RunContext::deadlines(timeout), bytes).await {
        Err(e) => {
            ctx.cannot_start(&hook.plugin.name, &command, &e);
            Verdict::Deny { reason: format!("exec hook {name:?} failed: {e}"), metadata: Value::Null }
        }
        Ok(reply) => {
            ctx.transcript.bytes(channel.clone(), "stdout", &reply.collected.bytes);
            ctx.transcript.bytes(channel.clone(), "stderr", reply.stderr.as_bytes());
            let exit = reply.collected.exit.unwrap_or(reply.shutdown.exit);
            let stderr = reply.stderr.trim();
            let with_stderr = |e: String| if stderr.is_empty() { e } else { format!("{e} (stderr: {stderr})") };
            if reply.collected.exit.is_none() {
                Verdict::Deny {
                    reason: with_stderr(format!("exec hook {name:?} failed: signal: killed (timeout after {} ms)", timeout.as_millis())),
                    metadata: Value::Null,
                }
            } else if !exit.success() {
                Verdict::Deny { reason: with_stderr(format!("exec hook {name:?} failed: {exit}")), metadata: Value::Null }
            } else if role == Role::SessionHook || role == Role::EvalHook {
                Verdict::Allow // stdout of session and eval hooks is never parsed
            } else {
                decide(&name, &reply.collected.bytes)
            }
        }
    };
    let verdict = if hook.observe() { Verdict::Allow } else { verdict };
    let mode = if hook.observe() { "observe" } else { "filter" };
    ctx.transcript.push(
        channel,
        "decision",
        json!({"phase": phase, "mode": mode, "decision": verdict.name(), "reason": reason_of(&verdict)}),
    );
    ctx.summary.decisions.push(crate::record::DecisionRecord {
        plugin: name,
        call: phase.to_string(),
        decision: verdict.name().to_string(),
    });
    verdict
}

fn reason_of(v: &Verdict) -> &str {
    match v {
        Verdict::Allow => "",
        Verdict::Deny { reason, .. } | Verdict::Enforced { reason, .. } => reason,
    }
}

/// `execFilter`'s reading of stdout: one JSON object, `allow: true` allows,
/// `enforced: true` enforces, anything else denies (even `{"ack": true}`).
fn decide(name: &str, stdout: &[u8]) -> Verdict {
    let doc = read_document(stdout);
    let Some(value) = doc.into_readable() else {
        return Verdict::Deny { reason: format!("exec hook {name:?}: invalid response JSON"), metadata: Value::Null };
    };
    let reason = value.get("reason").and_then(Value::as_str).unwrap_or_default().to_string();
    let metadata = value.get("metadata").cloned().unwrap_or(Value::Null);
    if value.get("allow") == Some(&Value::Bool(true)) {
        Verdict::Allow
    } else if value.get("enforced") == Some(&Value::Bool(true)) {
        Verdict::Enforced { reason, metadata }
    } else {
        Verdict::Deny { reason, metadata }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_decisions_fail_closed() {
        assert_eq!(decide("h", br#"{"allow":true}"#), Verdict::Allow);
        assert!(matches!(decide("h", br#"{"ack":true}"#), Verdict::Deny { .. }));
        assert!(matches!(decide("h", b"null"), Verdict::Deny { .. }));
        assert!(matches!(decide("h", b"log\n{\"allow\":true}"), Verdict::Deny { .. }));
        assert!(matches!(decide("h", br#"{"allow":false,"enforced":true,"reason":"r"}"#), Verdict::Enforced { .. }));
    }
}
