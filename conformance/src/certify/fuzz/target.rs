//! Where fuzzed arguments go, and whether one input kept the protocol.
//!
//! The request is the family's real tool request (built by the same
//! `protocol` builders as every other probe, in the profile's wire shape),
//! so a failure here reproduces inside the runtime. The property is
//! protocol-level only: an answer in time, well framed, with the right id
//! and a body the family allows. A tool answering `{"error": …}` to odd
//! arguments is doing its job; crashing, hanging or printing garbage is not.

use serde_json::{Value, json};

use crate::check::{Evidence, Failure};
use crate::client::{RpcClient, RpcOutcome, one_shot};
use crate::framing::read_document;
use crate::protocol::{Family, Profile, Role, picoclaw_hook as pico, promptkit_exec, promptkit_server as server, wire};
use crate::transport::Phase;

use super::super::prefetch::Prefetch;
use super::super::recorder::Recorder;
use super::super::semantics::{Asked, judge};
use super::super::{CertifyError, Options};

/// The tool request a family sends with arguments in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// PromptKit exec tool: `{"args": …}` as the one-shot document.
    ExecTool,
    /// PromptKit exec tool hook: `before_execution` with `request.args`.
    ExecToolHook,
    /// PromptKit server: `execute` with `{"args": …}`.
    Server,
    /// PicoClaw: `hook.before_tool` (tool mode) and/or `hook.approve_tool` (approve mode).
    Pico {
        /// Send `hook.before_tool`.
        before_tool: bool,
        /// Send `hook.approve_tool`.
        approve: bool,
    },
}

/// Which request a plugin taking `roles` gets tool arguments in, or why none.
pub fn kind(family: Family, roles: &[Role]) -> Result<Kind, String> {
    match family {
        Family::PromptkitExec if roles.contains(&Role::Tool) => Ok(Kind::ExecTool),
        Family::PromptkitExec if roles.contains(&Role::ToolHook) => Ok(Kind::ExecToolHook),
        Family::PromptkitExec => Err(format!(
            "--fuzz generates tool arguments, and a promptkit-exec {} never receives any\nhint: fuzz a tool (--role tool) or a tool hook (--role tool-hook)",
            roles.first().map_or("plugin", |r| r.name())
        )),
        Family::PromptkitServer => Ok(Kind::Server),
        Family::PicoclawHook => {
            let (before_tool, approve) = (roles.contains(&Role::ToolMode), roles.contains(&Role::Approve));
            if before_tool || approve {
                Ok(Kind::Pico { before_tool, approve })
            } else {
                Err("--fuzz generates tool arguments, which a PicoClaw hook only receives in the `tool` and `approve` modes\nhint: add tool or approve to --role".into())
            }
        }
        Family::ClaudeCodeHook | Family::CodexHook => Err(format!(
            "--fuzz generates the arguments of a tool described by a JSON Schema, and a {family} hook is given an agent's own tools\nhint: drop --fuzz, and write the tool inputs you care about as --cases"
        )),
        Family::RunokExtension => Err("runok extensions receive a command line, not arguments described by a JSON Schema, so there is nothing to generate from\nhint: drop --fuzz, or check your policy with --cases".into()),
    }
}

/// One request of an input: its label (PicoClaw method, for the case) and body.
struct Request {
    method: &'static str,
    params: Value,
}

impl Kind {
    fn requests(self, profile: Profile, tool: &str, args: &Value) -> Vec<Request> {
        match self {
            Kind::ExecTool => vec![Request { method: "", params: promptkit_exec::documented(Role::Tool, None, &json!({"args": args})) }],
            Kind::ExecToolHook => {
                let fields = json!({"request": {"name": tool, "args": args}});
                vec![Request { method: "", params: promptkit_exec::documented(Role::ToolHook, Some("before_execution"), &fields) }]
            }
            Kind::Server => vec![Request { method: server::EXECUTE, params: server::params(&json!({"args": args})) }],
            Kind::Pico { before_tool, approve } => {
                let fields = json!({"tool": tool, "arguments": args});
                let mut out = Vec::new();
                if before_tool {
                    out.push(Request { method: pico::BEFORE_TOOL, params: pico::params(profile, pico::BEFORE_TOOL, &fields) });
                }
                if approve {
                    out.push(Request { method: pico::APPROVE_TOOL, params: pico::params(profile, pico::APPROVE_TOOL, &fields) });
                }
                out
            }
        }
    }

    /// The `--cases` entry parts for `args` when request `step` failed:
    /// the phase/method line, the documented request, a decision to expect.
    pub fn case(self, tool: &str, args: &Value, step: usize) -> (Option<(&'static str, &'static str)>, Value, &'static str) {
        match self {
            Kind::ExecTool | Kind::Server => (None, json!({"args": args}), "result"),
            Kind::ExecToolHook => (Some(("phase", "before_execution")), json!({"name": tool, "args": args}), "allow"),
            Kind::Pico { before_tool, .. } => {
                let request = json!({"tool": tool, "arguments": args});
                if before_tool && step == 0 {
                    (Some(("method", pico::BEFORE_TOOL)), request, "continue")
                } else {
                    (Some(("method", pico::APPROVE_TOOL)), request, "approved")
                }
            }
        }
    }
}

/// How one input went.
pub enum Trial {
    /// Every request got a well-formed answer in time.
    Held,
    /// Request `step` broke the property.
    Broke { step: usize, failure: Failure, evidence: Evidence },
    /// Fuzzing cannot go on (the PicoClaw handshake failed).
    Blocked(String),
}

/// Sends inputs to one plugin under one profile, keeping a long-lived
/// plugin's process across inputs and replacing it after a failure.
pub struct Driver<'a> {
    opts: &'a Options,
    profile: Profile,
    kind: Kind,
    tool: &'a str,
    client: Option<RpcClient>,
    /// One-shot kinds: the exchanges of inputs started ahead (`--jobs`).
    prefetch: Option<Prefetch>,
    /// Requests sent so far (shrinking included).
    pub exchanges: usize,
    /// The role-semantics checks, held to every well-formed answer: a fuzz
    /// answer is a protocol message like any other.
    semantics: &'a mut Recorder,
}

impl<'a> Driver<'a> {
    pub fn new(opts: &'a Options, profile: Profile, kind: Kind, tool: &'a str, semantics: &'a mut Recorder) -> Self {
        let one_shot = matches!(kind, Kind::ExecTool | Kind::ExecToolHook);
        let prefetch = one_shot.then(|| Prefetch::new(opts.command_for(profile), opts.deadlines(profile), opts.jobs));
        Driver { opts, profile, kind, tool, client: None, prefetch, exchanges: 0, semantics }
    }

    /// Whether inputs can be sent ahead of their judging (one-shot plugins, more than one job).
    pub fn overlaps(&self) -> bool {
        self.prefetch.is_some() && self.opts.jobs > 1
    }

    /// Starts the exchanges of `args` ahead of [`Driver::try_input`] (one-shot plugins).
    pub fn start(&self, args: &Value) {
        if let Some(px) = &self.prefetch {
            for request in self.kind.requests(self.profile, self.tool, args) {
                px.start(self.one_shot_bytes(&request));
            }
        }
    }

    fn one_shot_bytes(&self, request: &Request) -> Vec<u8> {
        let role = if self.kind == Kind::ExecToolHook { Role::ToolHook } else { Role::Tool };
        let mut sent = wire::encode(&promptkit_exec::render(role, &request.params, self.profile), self.profile);
        if self.profile.oneshot_trailing_newline() {
            sent.push(b'\n');
        }
        sent
    }

    /// Names the input whose answers are judged next (in failure messages).
    pub fn judging(&mut self, input: String) {
        self.semantics.set_origin(Some(input));
    }

    /// Holds a well-formed answer (a one-shot document, a JSON-RPC result)
    /// to the role-semantics checks.
    fn judge_semantics(&mut self, request: &Request, answer: &Value, evidence: &Evidence) {
        let (role, method) = match self.kind {
            Kind::ExecTool => (Role::Tool, None),
            Kind::ExecToolHook => (Role::ToolHook, Some("before_execution")),
            Kind::Server => (Role::Tool, Some(request.method)),
            Kind::Pico { .. } if request.method == pico::APPROVE_TOOL => (Role::Approve, Some(request.method)),
            Kind::Pico { .. } => (Role::ToolMode, Some(request.method)),
        };
        let asked = Asked { family: self.opts.family, role, method, profile: self.profile, request: &request.params, meant: None };
        for finding in judge(asked, answer).findings {
            self.semantics.finding(finding, evidence);
        }
    }

    /// Whether inputs share a process (so a failure may depend on earlier ones).
    pub fn long_lived(&self) -> bool {
        !matches!(self.kind, Kind::ExecTool | Kind::ExecToolHook)
    }

    /// Sends one input and judges every answer.
    pub async fn try_input(&mut self, args: &Value) -> Result<Trial, CertifyError> {
        let requests = self.kind.requests(self.profile, self.tool, args);
        for (step, request) in requests.into_iter().enumerate() {
            self.exchanges += 1;
            let judged = if self.long_lived() { self.call(request).await? } else { self.one_shot(request).await? };
            if !matches!(judged, Trial::Held) {
                return Ok(match judged {
                    Trial::Broke { failure, evidence, .. } => Trial::Broke { step, failure, evidence },
                    other => other,
                });
            }
        }
        Ok(Trial::Held)
    }

    /// Stops the long-lived plugin, if one is running.
    pub async fn close(&mut self) -> String {
        if let Some(px) = self.prefetch.take() {
            px.finish().await;
        }
        match self.client.take() {
            Some(client) => client.close().await.1,
            None => String::new(),
        }
    }

    async fn one_shot(&mut self, request: Request) -> Result<Trial, CertifyError> {
        let sent = self.one_shot_bytes(&request);
        let ex = match &self.prefetch {
            Some(px) => px.take(sent).await,
            None => one_shot(&self.opts.command_for(self.profile), self.opts.deadlines(self.profile), sent).await,
        }
        .map_err(CertifyError::Spawn)?;
        let evidence = Evidence::exchange(&ex.sent, &ex.collected.bytes).with_stderr(ex.stderr.clone());
        let broke = |failure| Ok(Trial::Broke { step: 0, failure, evidence: evidence.clone() });
        if !ex.finished() {
            let last_bytes = String::from_utf8_lossy(&ex.collected.bytes).into_owned();
            return broke(Failure::Timeout { phase: Phase::Request, waited_ms: ex.waited.as_millis() as u64, last_bytes });
        }
        let exit = ex.collected.exit.unwrap_or(ex.shutdown.exit);
        if !exit.success() {
            return broke(Failure::Crash { exit, stderr_tail: ex.stderr.clone() });
        }
        let doc = read_document(&ex.collected.bytes);
        if let Some(violation) = doc.violations.iter().find(|_| !doc.is_clean()) {
            return broke(Failure::Framing { violation: violation.clone() });
        }
        match doc.value {
            Some(answer @ Value::Object(_)) => {
                self.judge_semantics(&request, &answer, &evidence);
                Ok(Trial::Held)
            }
            other => broke(Failure::Mismatch {
                path: "$".into(),
                expected: "one JSON object".into(),
                actual: other.map_or("nothing readable".to_string(), |v| v.to_string()),
            }),
        }
    }

    /// The running client, started (and greeted, for PicoClaw) if needed.
    async fn client(&mut self) -> Result<Result<&mut RpcClient, String>, CertifyError> {
        if self.client.is_none() {
            let family = self.opts.family;
            let mut client =
                RpcClient::start(&self.opts.command_for(self.profile), self.opts.deadlines(self.profile), family, self.profile)
                    .map_err(CertifyError::Spawn)?;
            if family == Family::PicoclawHook {
                let (_, _, outcome) = client
                    .call_next_line(pico::HELLO, &pico::hello_params(&self.opts.roles), self.opts.deadlines(self.profile).startup)
                    .await;
                let ok = matches!(&outcome, RpcOutcome::Reply { message, .. } if message.get("result").is_some_and(Value::is_object));
                if !ok {
                    let _ = client.close().await;
                    return Ok(Err("the hook.hello handshake did not succeed, so no tool call can reach the hook".into()));
                }
            }
            self.client = Some(client);
        }
        Ok(Ok(self.client.as_mut().expect("started above")))
    }

    async fn call(&mut self, request: Request) -> Result<Trial, CertifyError> {
        let timeout = self.opts.deadlines(self.profile).request;
        let client = match self.client().await? {
            Ok(client) => client,
            Err(reason) => return Ok(Trial::Blocked(reason)),
        };
        let (sent, id, outcome) = client.call_next_line(request.method, &request.params, timeout).await;
        let (failure, received) = match outcome {
            RpcOutcome::Reply { message, raw } => match reply_problem(&message, id) {
                None => {
                    if let Some(result) = message.get("result") {
                        let evidence = Evidence::exchange(&sent, &raw);
                        self.judge_semantics(&request, result, &evidence);
                    }
                    return Ok(Trial::Held);
                }
                Some(failure) => (failure, raw),
            },
            RpcOutcome::Timeout => {
                (Failure::Timeout { phase: Phase::Request, waited_ms: timeout.as_millis() as u64, last_bytes: String::new() }, Vec::new())
            }
            RpcOutcome::Closed(Some(exit)) => (Failure::Crash { exit, stderr_tail: String::new() }, Vec::new()),
            RpcOutcome::Closed(None) => (Failure::Unexpected { what: "the plugin closed stdout without exiting".into() }, Vec::new()),
            RpcOutcome::WriteFailed(error) => (Failure::Transport { error }, Vec::new()),
        };
        // A failed plugin is replaced for the next input; its whole stderr is evidence.
        let stderr = self.close().await;
        let failure = match failure {
            Failure::Crash { exit, .. } => Failure::Crash { exit, stderr_tail: stderr.clone() },
            other => other,
        };
        Ok(Trial::Broke { step: 0, failure, evidence: Evidence::exchange(&sent, &received).with_stderr(stderr) })
    }
}

/// What is wrong with a reply line to request `id`, if anything.
fn reply_problem(message: &Value, id: u64) -> Option<Failure> {
    let Some(obj) = message.as_object() else {
        return Some(Failure::Mismatch {
            path: "$".into(),
            expected: "one JSON-RPC reply object on the line".into(),
            actual: "a line that is not a JSON object".into(),
        });
    };
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        let actual = obj.get("jsonrpc").map_or("missing".to_string(), Value::to_string);
        return Some(Failure::Mismatch { path: "$.jsonrpc".into(), expected: "\"2.0\"".into(), actual });
    }
    if obj.get("id") != Some(&json!(id)) {
        return Some(Failure::IdMismatch { sent: id.to_string(), received: obj.get("id").map_or("none".to_string(), Value::to_string) });
    }
    match (obj.contains_key("result"), obj.get("error")) {
        (true, None) => None,
        (false, Some(e)) if e.is_object() => None,
        (r, e) => Some(Failure::Mismatch {
            path: "$".into(),
            expected: "exactly one of result and an error object".into(),
            actual: match (r, e) {
                (true, Some(_)) => "both".into(),
                (false, None) => "neither".into(),
                (_, Some(e)) => format!("error {e}"),
                (true, None) => "a result".into(),
            },
        }),
    }
}
