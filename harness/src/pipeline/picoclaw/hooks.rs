//! PicoClaw's process hooks as the host holds them: mounted in name order
//! with a `hook.hello` each, called with a per-stage deadline, notified
//! without waiting, closed at the end (research picoclaw-runok.md §A1, §A2).
//! Every byte written to or read from a hook goes to the transcript.

use std::time::Duration;

use proctor_conformance::client::{RpcClient, RpcOutcome};
use proctor_conformance::protocol::Family;
use proctor_conformance::protocol::picoclaw_hook::{self, HELLO};
use serde_json::{Value, json};

use super::wire::{self, Modes};
use crate::context::RunContext;
use crate::record::Transcript;
use crate::scenario::PluginConfig;

/// `hook.hello`: PicoClaw waits 5 s only when its context is nil (§A2);
/// proctor always applies it, so a silent hook cannot hang the run.
pub(super) const STARTUP_TIMEOUT: Duration = Duration::from_secs(5);

/// One mounted hook.
pub(super) struct Hook {
    pub name: String,
    pub priority: i64,
    pub modes: Modes,
    channel: String,
    client: RpcClient,
    /// Stray stdout lines already copied to the transcript.
    stray_seen: usize,
}

/// How a call ended, in the terms PicoClaw distinguishes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Called {
    /// A reply: its `result` (null when absent).
    Result(Value),
    /// An error reply, a dead process: the call failed.
    Failed(String),
    /// No reply within the stage's deadline.
    TimedOut,
}

impl Hook {
    /// Sends one request and waits for its reply.
    pub async fn call(&mut self, t: &mut Transcript, method: &str, params: Value, timeout: Duration) -> Called {
        let (sent, outcome) = self.client.call(method, &params, timeout).await;
        // Written even when the write failed: a hook that just died races
        // the write (EPIPE or an unread pipe), and the snapshot must not.
        t.bytes(self.channel.clone(), "stdin", &sent);
        self.copy_stray(t);
        match outcome {
            RpcOutcome::Reply { message, raw } => {
                t.bytes(self.channel.clone(), "stdout", &raw);
                match message.get("error") {
                    // When a line has both, `error` wins (§A2).
                    Some(e) if !e.is_null() => Called::Failed(format!("JSON-RPC error {e}")),
                    _ => Called::Result(message.get("result").cloned().unwrap_or(Value::Null)),
                }
            }
            RpcOutcome::Timeout => Called::TimedOut,
            RpcOutcome::WriteFailed(e) if e.contains("stopped reading") => Called::TimedOut,
            // Both are "the process is gone"; which one is seen is a race.
            RpcOutcome::Closed(_) | RpcOutcome::WriteFailed(_) => Called::Failed("the hook process is gone".into()),
        }
    }

    /// Sends a notification (no reply is read).
    pub async fn notify(&mut self, t: &mut Transcript, method: &str, params: Value, timeout: Duration) -> Result<(), String> {
        let (sent, result) = self.client.notify(method, params, timeout).await;
        t.bytes(self.channel.clone(), "stdin", &sent);
        result
    }

    fn copy_stray(&mut self, t: &mut Transcript) {
        for line in &self.client.stray[self.stray_seen..] {
            t.bytes(self.channel.clone(), "stdout (not a reply: dropped)", line);
        }
        self.stray_seen = self.client.stray.len();
    }

    /// Closes stdin and waits for the exit (PicoClaw: 2 s, then SIGKILL);
    /// records the stderr tail and how the hook ended.
    pub async fn close(self, t: &mut Transcript) {
        let channel = self.channel.clone();
        let (end, stderr) = self.client.close().await;
        if !stderr.is_empty() {
            t.push(channel.clone(), "stderr", stderr);
        }
        let mut body = json!({"exit": end.exit.to_string(), "how": end.how});
        if let Some(left) = end.leftover {
            body["leftover"] = json!(left);
        }
        t.push(channel, "exit", body);
    }
}

/// Mounts every configured hook: spawn and `hook.hello`, one at a time, in
/// alphabetical order (`loadConfiguredHooks`, hook_mount.go:126-190). On the
/// first failure every hook already mounted is closed and the error (as
/// PicoClaw words it) is returned: the agent loop never starts.
pub(super) async fn mount(ctx: &mut RunContext<'_>) -> Result<Vec<Hook>, String> {
    let mut plugins: Vec<_> = ctx
        .scenario
        .plugins
        .iter()
        .filter_map(|p| match &p.config {
            PluginConfig::PicoclawHook(c) => Some((p, c)),
            _ => None,
        })
        .collect();
    plugins.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let mut hooks: Vec<Hook> = Vec::new();
    for (plugin, config) in plugins {
        let failure = match wire::modes(config) {
            Err(e) => Err((format!("invalid hook {:?}: {e}", plugin.name), None)),
            Ok(modes) => start(ctx, plugin, config.priority, modes).await,
        };
        match failure {
            Ok(hook) => hooks.push(hook),
            Err((e, failed)) => {
                if let Some(h) = failed {
                    h.close(&mut ctx.transcript).await;
                }
                for h in hooks {
                    h.close(&mut ctx.transcript).await;
                }
                return Err(e);
            }
        }
    }
    Ok(hooks)
}

type StartError = (String, Option<Hook>);

async fn start(ctx: &mut RunContext<'_>, plugin: &crate::scenario::Plugin, priority: i64, modes: Modes) -> Result<Hook, StartError> {
    let command = ctx.command(plugin, Family::PicoclawHook, None);
    let fail = |why: String| format!("start process hook {:?}: {why}", plugin.name);
    let client = match RpcClient::start(&command, RunContext::deadlines(STARTUP_TIMEOUT), Family::PicoclawHook, ctx.profile) {
        Ok(client) => client,
        Err(e) => {
            ctx.cannot_start(&plugin.name, &command, &e);
            return Err((fail(e.to_string()), None));
        }
    };
    let mut hook = Hook { name: plugin.name.clone(), priority, modes, channel: format!("plugin {}", plugin.name), client, stray_seen: 0 };
    let mut params = picoclaw_hook::hello_params(&hook.modes.roles());
    params["name"] = json!(hook.name);
    let called = hook.call(&mut ctx.transcript, HELLO, params, STARTUP_TIMEOUT).await;
    // The hello result is decoded into a map and otherwise ignored: any
    // object (even {"ok":false}), null or nothing is success (§A2).
    let why = match called {
        Called::Result(r) if r.is_object() || r.is_null() => None,
        Called::Result(r) => Some(format!("decode hello result: {r} is not an object")),
        Called::Failed(e) => Some(e),
        Called::TimedOut => Some(format!("no hello reply within {} s", STARTUP_TIMEOUT.as_secs())),
    };
    let decision = if why.is_none() { "ok" } else { "failed" };
    ctx.summary.decided(&hook.name, HELLO, decision);
    ctx.transcript.push(hook.channel.clone(), "decision", json!({"call": HELLO, "decision": decision}));
    match why {
        None => Ok(hook),
        Some(why) => Err((fail(why), Some(hook))),
    }
}
