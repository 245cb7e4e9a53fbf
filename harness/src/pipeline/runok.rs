//! runok 0.3.1's extension runner, per command: one process, the request
//! without a trailing newline, stdout read after exit as exactly one JSON
//! value; `jsonrpc` and `id` ignored; any failure falls back to `ask`
//! (research: picoclaw-runok.md, part B1).

use std::time::Duration;

use proctor_conformance::client::one_shot;
use proctor_conformance::protocol::{Family, Role, runok_extension, wire};
use serde_json::{Value, json};

use super::PipelineError;
use crate::context::RunContext;
use crate::scenario::{Command, PluginConfig, Turn};

/// runok's own tests use 5 s; the runner has no default.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) async fn run(ctx: &mut RunContext<'_>) -> Result<(), PipelineError> {
    let Some(plugin) = ctx.scenario.plugins.iter().find(|p| matches!(p.config, PluginConfig::RunokExtension(_))) else {
        // No extension configured: runok never asks one.
        for turn in &ctx.scenario.turns {
            if let Turn::Command(c) = turn {
                ctx.transcript.push("user", "command", c.raw.clone());
            }
        }
        return Ok(());
    };
    let timeout = match &plugin.config {
        PluginConfig::RunokExtension(e) => e.timeout_ms.map_or(DEFAULT_TIMEOUT, Duration::from_millis),
        _ => DEFAULT_TIMEOUT,
    };
    let command = ctx.command(plugin, Family::RunokExtension, Some(Role::Guard));
    let channel = format!("plugin {}", plugin.name);
    for turn in &ctx.scenario.turns {
        let Turn::Command(cmd) = turn else { continue };
        ctx.transcript.push("user", "command", cmd.raw.clone());
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": runok_extension::VALIDATE_COMMAND, "params": params(cmd)});
        let bytes = wire::encode(&request, ctx.profile);
        ctx.transcript.bytes(channel.clone(), "stdin", &bytes);
        let (status, message) = match one_shot(&command, RunContext::deadlines(timeout), bytes).await {
            Err(e) => {
                ctx.cannot_start(&plugin.name, &command, &e);
                ("ask".to_string(), format!("Extension failed to start, asking user for confirmation ({e})"))
            }
            Ok(reply) => {
                ctx.transcript.bytes(channel.clone(), "stdout", &reply.collected.bytes);
                ctx.transcript.bytes(channel.clone(), "stderr (discarded by runok)", reply.stderr.as_bytes());
                if reply.collected.exit.is_none() {
                    ("ask".to_string(), "Extension timed out, asking user for confirmation".to_string())
                } else {
                    resolve(&reply.collected.bytes)
                }
            }
        };
        ctx.transcript.push(channel.clone(), "decision", json!({"status": status, "message": message}));
        ctx.summary.decided(&plugin.name, runok_extension::VALIDATE_COMMAND, status.clone());
        ctx.summary.events.push(format!("command.{status}"));
        ctx.summary.outcome = Some(status);
    }
    Ok(())
}

/// runok's `resolve_extension_result`: the status, or `ask` with runok's own
/// message for an invalid response. Unknown statuses are `ask` too.
fn resolve(stdout: &[u8]) -> (String, String) {
    let invalid = || ("ask".to_string(), "Extension returned invalid response, asking user for confirmation".to_string());
    let Ok(value) = serde_json::from_str::<Value>(&String::from_utf8_lossy(stdout)) else { return invalid() };
    if value.get("error").is_some_and(|e| !e.is_null()) {
        return invalid();
    }
    let Some(result) = value.get("result").filter(|r| !r.is_null()) else { return invalid() };
    let Some(status) = result.get("status").and_then(Value::as_str) else { return invalid() };
    let strings_ok = ["message", "fix_suggestion"].iter().all(|k| result.get(*k).is_none_or(|v| v.is_string() || v.is_null()));
    if !strings_ok {
        return invalid();
    }
    let message = result.get("message").and_then(Value::as_str).unwrap_or_default().to_string();
    match status {
        "allow" | "deny" | "ask" => (status.to_string(), message),
        _ => ("ask".to_string(), message),
    }
}

/// The request params for a command line: argv[0] is the command; `-X VALUE`
/// and `--flag=value` are flags with values; other `-`-tokens are boolean
/// flags (""); the rest are arguments. Quotes group words; no expansion.
fn params(cmd: &Command) -> Value {
    let words = split(&cmd.raw);
    let (program, rest) = words.split_first().map_or(("", &[][..]), |(p, r)| (p.as_str(), r));
    let mut flags = serde_json::Map::new();
    let mut args = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let w = &rest[i];
        if let Some(long) = w.strip_prefix("--") {
            match long.split_once('=') {
                Some((k, v)) => flags.insert(k.to_string(), json!(v)),
                None => flags.insert(long.to_string(), json!("")),
            };
        } else if let Some(short) = w.strip_prefix('-').filter(|s| !s.is_empty()) {
            let value = rest.get(i + 1).filter(|n| !n.starts_with('-') && short.len() == 1);
            flags.insert(short.to_string(), json!(value.map_or("", |v| v.as_str())));
            if value.is_some() {
                i += 1;
            }
        } else {
            args.push(w.clone());
        }
        i += 1;
    }
    json!({
        "command": program,
        "flags": flags,
        "args": args,
        "raw_command_line": cmd.raw,
        "env": cmd.env,
        "cwd": cmd.cwd.clone().unwrap_or_else(|| "/home/user/project".into()),
    })
}

/// Splits a command line on whitespace, honouring single and double quotes.
fn split(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_become_runok_params() {
        let cmd = Command { raw: "curl -X POST --silent --data='a b' https://x".into(), env: Default::default(), cwd: None };
        let p = params(&cmd);
        assert_eq!(p["command"], "curl");
        assert_eq!(p["flags"], json!({"X": "POST", "silent": "", "data": "a b"}));
        assert_eq!(p["args"], json!(["https://x"]));
    }

    #[test]
    fn runok_falls_back_to_ask() {
        assert_eq!(resolve(br#"{"result":{"status":"deny","message":"no"}}"#).0, "deny");
        assert_eq!(resolve(br#"{"result":{"status":"DENY"}}"#).0, "ask");
        assert_eq!(resolve(br#"{"error":{"code":1,"message":"x"}}"#).0, "ask");
        assert_eq!(resolve(b"not json").0, "ask");
        assert_eq!(resolve(br#"{"result":{"status":"allow","message":42}}"#).0, "ask");
    }
}
