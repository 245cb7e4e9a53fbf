//! Tool execution: exec tools one-shot (`runtime: exec`) and JSON-RPC
//! (`runtime: server`), and the scenario's scripted in-process tools, with
//! PromptKit's error texts and result formatting (research: promptkit.md
//! §1.2, §1.3, §1.4).

use std::collections::BTreeMap;
use std::time::Duration;

use proctor_conformance::client::{RpcClient, RpcOutcome, one_shot};
use proctor_conformance::framing::read_document;
use proctor_conformance::gojson::encode::marshal_indent_any;
use proctor_conformance::protocol::{Family, Role, promptkit_server, wire};
use serde_json::{Value, json};

use crate::context::RunContext;
use crate::scenario::{Plugin, PluginConfig, ScriptedTool};

/// PromptKit applies no tool timeout of its own; the pipeline's idle
/// timeout (30 s) is the only bound.
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// What running a tool produced.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ToolOutcome {
    /// A JSON result.
    Result(Value),
    /// An error message.
    Error(String),
    /// A tool hook blocked the call; the LLM sees exactly this text.
    Blocked(String),
    /// The tool asked for approval (documented profile only).
    Pending { reason: String, message: String },
}

impl ToolOutcome {
    /// Whether the model is told the call failed (PromptKit sets the result's `Error`).
    pub fn is_error(&self) -> bool {
        matches!(self, ToolOutcome::Error(_) | ToolOutcome::Blocked(_))
    }

    /// The text the LLM sees (`formatToolResult` / `handleToolResult`).
    pub fn text(&self) -> String {
        match self {
            ToolOutcome::Result(v) => format_result(v),
            ToolOutcome::Error(e) => format!("Tool execution failed: {e}"),
            ToolOutcome::Blocked(text) => text.clone(),
            ToolOutcome::Pending { message, .. } => message.clone(),
        }
    }
}

/// Strings raw, objects and arrays as Go's MarshalIndent writes a decoded
/// `any` (sorted keys, float64 numbers, HTML-escaped), `null` as `<nil>`,
/// the rest as `%v`.
pub(super) fn format_result(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".to_string(),
        Value::Object(_) | Value::Array(_) => marshal_indent_any(v),
        Value::Number(n) => proctor_pack::template::go_float(n.as_f64().unwrap_or(0.0)),
        other => other.to_string(),
    }
}

/// Long-lived server-mode tool processes, one per tool name, started lazily.
#[derive(Default)]
pub(super) struct Servers {
    running: BTreeMap<String, Server>,
}

enum Server {
    // Boxed: the client is large and the map also holds small `Dead` entries.
    Up(Box<RpcClient>),
    /// promptkit@86d9f36 never notices a dead server and never restarts it.
    Dead(String),
}

impl Servers {
    /// Stops every server (stdin closed, 2 s, then killed) and records stderr.
    pub async fn close(self, ctx: &mut RunContext<'_>) {
        for (name, server) in self.running {
            if let Server::Up(client) = server {
                let (shutdown, stderr) = client.close().await;
                ctx.transcript.bytes(format!("plugin {name}"), "stderr", stderr.as_bytes());
                ctx.transcript.push(format!("plugin {name}"), "exit", shutdown.exit.to_string());
            }
        }
    }
}

/// Runs tool `name` with `args`.
pub(super) async fn run(ctx: &mut RunContext<'_>, servers: &mut Servers, name: &str, args: &Value) -> ToolOutcome {
    let scenario = ctx.scenario;
    if let Some(plugin) = scenario.plugins.iter().find(|p| p.name == name && matches!(p.config, PluginConfig::PromptkitTool(_))) {
        let PluginConfig::PromptkitTool(cfg) = &plugin.config else { unreachable!("matched above") };
        return if cfg.runtime.as_deref() == Some("server") {
            server(ctx, servers, plugin, cfg.timeout_ms, args).await
        } else {
            exec(ctx, plugin, args).await
        };
    }
    let in_pack = |run: &crate::scenario::pack::PackRun| {
        run.reader == proctor_pack::PackProfile::PromptKit && run.document["tools"].get(name).is_some()
    };
    match scenario.tools.get(name) {
        // A pack tool the host gave no handler: the SDK's local executor has nothing to call
        // (sdk/tool_executors.go:86-88).
        None if scenario.pack_run.as_deref().is_some_and(in_pack) => ToolOutcome::Error(format!("no handler registered for tool: {name}")),
        // A host's handler returns a value: JSON text is that value (the SDK comparison's driver
        // returns it so), anything else a string.
        Some(ScriptedTool::Result(text)) => ToolOutcome::Result(serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone()))),
        Some(ScriptedTool::Error(e)) => ToolOutcome::Error(e.clone()),
        // The registry's own words (runtime/tools/registry.go:343, errors.go:14), framed as every
        // failed call is (`Error: %v`, stages_provider.go:1905).
        None => ToolOutcome::Blocked(format!("Error: tool not found: {name}")),
    }
}

async fn exec(ctx: &mut RunContext<'_>, plugin: &Plugin, args: &Value) -> ToolOutcome {
    let name = &plugin.name;
    let channel = format!("plugin {name}");
    let mut bytes = wire::encode(&json!({"args": args}), ctx.profile);
    if ctx.profile.oneshot_trailing_newline() {
        bytes.push(b'\n');
    }
    ctx.transcript.bytes(channel.clone(), "stdin", &bytes);
    ctx.summary.calls.push((name.clone(), "execute".into()));
    let command = ctx.command(plugin, Family::PromptkitExec, Some(Role::Tool));
    let reply = match one_shot(&command, RunContext::deadlines(IDLE_TIMEOUT), bytes).await {
        Err(e) => {
            ctx.cannot_start(&plugin.name, &command, &e);
            return ToolOutcome::Error(format!("exec executor: tool {name:?} failed: {e}"));
        }
        Ok(r) => r,
    };
    ctx.transcript.bytes(channel.clone(), "stdout", &reply.collected.bytes);
    ctx.transcript.bytes(channel, "stderr", reply.stderr.as_bytes());
    let stderr = reply.stderr.trim();
    let exit = reply.collected.exit.unwrap_or(reply.shutdown.exit);
    if reply.collected.exit.is_none() || !exit.success() {
        let e = format!("exec executor: tool {name:?} failed: {exit}");
        return ToolOutcome::Error(if stderr.is_empty() { e } else { format!("{e} (stderr: {stderr})") });
    }
    let doc = read_document(&reply.collected.bytes);
    let Some(value) = doc.into_readable() else {
        return ToolOutcome::Error(format!("exec executor: tool {name:?} returned invalid JSON"));
    };
    if let Some(e) = value.get("error").and_then(Value::as_str).filter(|e| !e.is_empty()) {
        return ToolOutcome::Error(format!("exec executor: tool {name:?}: {e}"));
    }
    if let Some(result) = value.get("result") {
        return ToolOutcome::Result(result.clone());
    }
    if let Some(p) = value.get("pending").filter(|_| ctx.profile.promptkit_acts_on_pending()) {
        let s = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        return ToolOutcome::Pending { reason: s("reason"), message: s("message") };
    }
    // promptkit@86d9f36: no result and no error: the whole stdout is the result.
    ToolOutcome::Result(value)
}

async fn server(ctx: &mut RunContext<'_>, servers: &mut Servers, plugin: &Plugin, timeout_ms: Option<u64>, args: &Value) -> ToolOutcome {
    let name = plugin.name.clone();
    let channel = format!("plugin {name}");
    if let Some(Server::Dead(why)) = servers.running.get(&name) {
        if !ctx.profile.promptkit_restarts_dead_servers() {
            return ToolOutcome::Error(why.clone());
        }
        // The documents promise a restart on unexpected termination.
        ctx.transcript.push(channel.clone(), "event", "restarted after unexpected termination");
        servers.running.remove(&name);
    }
    if !servers.running.contains_key(&name) {
        let command = ctx.command(plugin, Family::PromptkitServer, Some(Role::Tool));
        match RpcClient::start(&command, RunContext::deadlines(IDLE_TIMEOUT), Family::PromptkitServer, ctx.profile) {
            Ok(client) => servers.running.insert(name.clone(), Server::Up(Box::new(client))),
            Err(e) => {
                ctx.cannot_start(&plugin.name, &command, &e);
                return ToolOutcome::Error(format!("starting server tool {name:?}: {e}"));
            }
        };
    }
    let Some(Server::Up(client)) = servers.running.get_mut(&name) else { return ToolOutcome::Error("server unavailable".into()) };
    ctx.summary.calls.push((name.clone(), promptkit_server::EXECUTE.into()));
    let timeout = timeout_ms.map_or(IDLE_TIMEOUT, Duration::from_millis);
    let (sent, id, outcome) =
        client.call_next_line(promptkit_server::EXECUTE, &promptkit_server::params(&json!({"args": args})), timeout).await;
    ctx.transcript.bytes(channel.clone(), "stdin", &sent);
    let dead = |why: String| (ToolOutcome::Error(why.clone()), Some(Server::Dead(why)));
    let (result, replace) = match outcome {
        RpcOutcome::Reply { message, raw } => {
            ctx.transcript.bytes(channel.clone(), "stdout", &raw);
            let got = message.get("id").and_then(Value::as_i64);
            if message.is_null() {
                (ToolOutcome::Error(format!("invalid JSON-RPC response: {}", String::from_utf8_lossy(&raw))), None)
            } else if got != Some(id as i64) {
                (
                    ToolOutcome::Error(format!(
                        "JSON-RPC response ID mismatch: got {}, want {id}",
                        got.map_or("0".into(), |g| g.to_string())
                    )),
                    None,
                )
            } else if let Some(e) = message.get("error").filter(|e| !e.is_null()) {
                let code = e.get("code").and_then(Value::as_i64).unwrap_or_default();
                let msg = e.get("message").and_then(Value::as_str).unwrap_or_default();
                (ToolOutcome::Error(format!("JSON-RPC error {code}: {msg}")), None)
            } else {
                // The result is the tool result itself: no {"result"|"error"} envelope inside.
                (ToolOutcome::Result(message.get("result").cloned().unwrap_or(Value::Null)), None)
            }
        }
        // The registry's timeout (ToolDescriptor.timeout_ms) gives up on the
        // call and leaves the process, and its late reply, in place.
        RpcOutcome::Timeout if timeout_ms.is_some() => {
            (ToolOutcome::Error(format!("tool execution timed out: {name} exceeded {}ms timeout", timeout.as_millis())), None)
        }
        RpcOutcome::Timeout => (ToolOutcome::Error("context canceled waiting for response".into()), None),
        // PromptKit reports either a broken pipe on the write or EOF on the
        // read, depending on how far the dying process got; proctor reports
        // one message for both so runs are reproducible.
        RpcOutcome::Closed(_) | RpcOutcome::WriteFailed(_) => dead("server process closed stdout unexpectedly".into()),
    };
    if let Some(replacement) = replace
        && let Some(Server::Up(client)) = servers.running.insert(name.clone(), replacement)
    {
        let (shutdown, _) = client.close().await;
        ctx.transcript.push(channel, "exit", shutdown.exit.to_string());
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_formatted_as_promptkit_shows_them() {
        assert_eq!(format_result(&json!("plain")), "plain");
        assert_eq!(format_result(&Value::Null), "<nil>");
        assert_eq!(format_result(&json!({"b": 1, "a": "<x>"})), "{\n  \"a\": \"\\u003cx\\u003e\",\n  \"b\": 1\n}");
        assert_eq!(format_result(&json!(3.5)), "3.5");
        assert_eq!(ToolOutcome::Error("boom".into()).text(), "Tool execution failed: boom");
    }
}
