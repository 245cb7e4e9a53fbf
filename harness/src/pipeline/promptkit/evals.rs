//! Exec evals and their triggers, with PromptKit's deterministic sampling,
//! and the eval hooks that observe each result (research: promptkit.md
//! §1.6, §1.7, §6.2).

use std::time::Duration;

use proctor_conformance::client::one_shot;
use proctor_conformance::framing::read_document;
use proctor_conformance::protocol::{Family, Role, promptkit_exec, wire};
use proctor_mocks::provider::LlmMessage;
use serde_json::{Value, json};

use super::hooks::{self, of_kind};
use crate::context::RunContext;
use crate::scenario::{Plugin, PluginConfig, PromptkitEval};

/// The runner's per-eval cap (and the exec eval default).
const EVAL_TIMEOUT: Duration = Duration::from_secs(30);
/// PromptKit's default sample percentage.
const DEFAULT_SAMPLE: f64 = 5.0;

/// When an eval runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum When {
    /// After each completed turn.
    Turn,
    /// When the session closes.
    Session,
}

/// FNV-1a, 64 bit.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// PromptKit's rule: hash the session id and the decimal turn index, run
/// iff `h % 10000 < pct * 100` (truncated).
pub(super) fn sampled(session_id: &str, turn_index: usize, pct: f64) -> bool {
    let key = format!("{session_id}{turn_index}");
    fnv1a64(key.as_bytes()) % 10000 < (pct * 100.0) as u64
}

/// `None` when the trigger does not belong to `when` (or never fires, as
/// on_workflow_step); otherwise whether sampling lets it run.
fn should_run(cfg: &PromptkitEval, when: When, session_id: &str, turn_index: usize) -> Option<bool> {
    let pct = cfg.sample_percentage.unwrap_or(DEFAULT_SAMPLE);
    match (cfg.trigger.as_str(), when) {
        ("every_turn", When::Turn) | ("on_session_complete", When::Session) => Some(true),
        ("sample_turns", When::Turn) => Some(sampled(session_id, turn_index, pct)),
        ("sample_sessions", When::Session) => Some(sampled(session_id, 0, pct)),
        _ => None,
    }
}

/// The first `when` condition the run does not meet, in words; `None` when all hold. PromptKit reads
/// tool_called, tool_called_pattern, any_tool_called and min_tool_calls (runtime/evals); the spec's
/// examples add turn_count_gte and has_variable; other keys are not judged.
fn unmet(when: &Value, ctx: &RunContext<'_>, turn_index: usize) -> Option<String> {
    let called: Vec<&str> = ctx.summary.tool_results.iter().map(|r| r.tool.as_str()).collect();
    let conditions = when.as_object()?;
    for (key, want) in conditions {
        let holds = match (key.as_str(), want) {
            ("tool_called", Value::String(name)) => called.contains(&name.as_str()),
            ("tool_called_pattern", Value::String(pattern)) => called.iter().any(|c| proctor_pack::shape::matches(pattern, c)),
            ("any_tool_called", Value::Bool(b)) => called.is_empty() != *b,
            ("min_tool_calls", n) => n.as_u64().is_none_or(|n| called.len() as u64 >= n),
            ("turn_count_gte", n) => n.as_u64().is_none_or(|n| turn_index as u64 >= n),
            ("has_variable", Value::String(name)) => ctx.scenario.variables.contains_key(name),
            _ => true,
        };
        if !holds {
            return Some(format!("{key}: {want} does not hold"));
        }
    }
    None
}

/// Whether `score` passes a documented `threshold {operator, value}`.
fn passes(threshold: &Value, score: f64) -> bool {
    let value = threshold["value"].as_f64().unwrap_or(1.0);
    match threshold["operator"].as_str().unwrap_or("gte") {
        "lte" => score <= value,
        "gt" => score > value,
        "lt" => score < value,
        "eq" => (score - value).abs() < f64::EPSILON,
        _ => score >= value,
    }
}

/// Runs every eval due `when`, in scenario order, then its eval hooks.
pub(super) async fn run_due(ctx: &mut RunContext<'_>, when: When, session_id: &str, turn_index: usize, messages: &[LlmMessage]) {
    let scenario = ctx.scenario;
    for plugin in &scenario.plugins {
        let PluginConfig::PromptkitEval(cfg) = &plugin.config else { continue };
        let id = cfg.id.clone().unwrap_or_else(|| plugin.name.clone());
        let Some(run) = should_run(cfg, when, session_id, turn_index) else { continue };
        if !run {
            ctx.transcript.push(format!("plugin {}", plugin.name), "event", format!("eval {id} not sampled (turn {turn_index})"));
            continue;
        }
        if let Some(unmet) = cfg.when.as_ref().and_then(|w| unmet(w, ctx, turn_index)) {
            ctx.transcript.push(format!("plugin {}", plugin.name), "event", format!("eval {id} skipped: when {unmet}"));
            continue;
        }
        let score = run_one(ctx, plugin, cfg, &id, session_id, turn_index, messages).await;
        ctx.summary.eval_scores.push((id.clone(), score));
        let passed = match (&cfg.threshold, ctx.profile.name().starts_with("promptkit@")) {
            (Some(threshold), false) => passes(threshold, score),
            _ => score >= 1.0,
        };
        // EvalResult's field order (runtime/evals/types.go); `passed` exists only in the docs.
        let result = json!({"eval_id": id, "type": plugin.name, "score": score, "passed": passed, "duration_ms": 0, "session_id": session_id, "turn_index": turn_index});
        let result = if turn_index == 0 { without(result, "turn_index") } else { result };
        for hook in of_kind(&scenario.plugins, "eval") {
            hooks::invoke(ctx, &hook, "eval_result", result.clone()).await;
        }
    }
}

fn without(mut v: Value, key: &str) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.shift_remove(key);
    }
    v
}

async fn run_one(
    ctx: &mut RunContext<'_>,
    plugin: &Plugin,
    cfg: &PromptkitEval,
    id: &str,
    session_id: &str,
    turn_index: usize,
    messages: &[LlmMessage],
) -> f64 {
    let content = messages.iter().rev().find(|m| m.role == "assistant").map(|m| m.content.clone()).unwrap_or_default();
    let history: Vec<Value> = messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect();
    let params = if cfg.params.is_null() { json!({}) } else { cfg.params.clone() };
    let doc = json!({
        "type": plugin.name, "params": params, "content": content,
        "context": {"messages": history, "turn_index": turn_index, "tool_calls": [], "variables": {}, "metadata": {}, "session_id": session_id},
    });
    let mut bytes = wire::encode(&promptkit_exec::render(Role::Eval, &doc, ctx.profile), ctx.profile);
    if ctx.profile.oneshot_trailing_newline() {
        bytes.push(b'\n');
    }
    let channel = format!("plugin {}", plugin.name);
    ctx.transcript.bytes(channel.clone(), "stdin", &bytes);
    ctx.summary.calls.push((plugin.name.clone(), "eval".into()));
    let command = ctx.command(plugin, Family::PromptkitExec, Some(Role::Eval));
    // Every failure is a score of 0, never an error (exec_handler.go).
    let score = match one_shot(&command, RunContext::deadlines(EVAL_TIMEOUT), bytes).await {
        Err(e) => {
            ctx.cannot_start(&plugin.name, &command, &e);
            0.0
        }
        Ok(reply) => {
            ctx.transcript.bytes(channel.clone(), "stdout", &reply.collected.bytes);
            ctx.transcript.bytes(channel.clone(), "stderr", reply.stderr.as_bytes());
            let ok = reply.collected.exit.is_some_and(|e| e.success());
            let doc = read_document(&reply.collected.bytes);
            match doc.into_readable().filter(|_| ok) {
                Some(v) => v.get("score").and_then(Value::as_f64).filter(|_| v.get("score").is_some_and(Value::is_number)).unwrap_or(0.0),
                None => 0.0,
            }
        }
    };
    ctx.transcript.push(channel, "decision", json!({"eval": id, "score": score}));
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_thresholds_decide_passing() {
        let t = |op: &str, v: f64| json!({"operator": op, "value": v});
        assert!(passes(&t("gte", 0.5), 0.5) && !passes(&t("gte", 0.5), 0.49));
        assert!(passes(&t("lt", 0.5), 0.4) && !passes(&t("lt", 0.5), 0.5));
        assert!(passes(&t("eq", 1.0), 1.0) && !passes(&t("eq", 1.0), 0.9));
        assert!(passes(&t("lte", 0.2), 0.2) && passes(&t("gt", 0.2), 0.3));
    }

    #[test]
    fn fnv_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn sampling_is_deterministic_and_bounded() {
        assert!(sampled("s", 1, 100.0));
        assert!(!sampled("s", 1, 0.0));
        let runs = (1..=200).filter(|t| sampled("session-1", *t, 50.0)).count();
        assert!((60..=140).contains(&runs), "{runs}");
        assert_eq!(sampled("ab", 12, 50.0), sampled("ab1", 2, 50.0), "concatenation without a separator collides");
    }
}
