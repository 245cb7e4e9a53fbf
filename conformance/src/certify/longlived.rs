//! Certifying long-lived JSON-RPC plugins (PromptKit server mode, PicoClaw
//! hooks): one process for the whole run, in the order a runtime would use
//! it: handshake, each method of each claimed mode, a notification, an
//! unknown method, unknown fields, requests in flight together, a hundred
//! requests in a row, the author's cases, and finally stdin closed.

#[path = "longlived_events.rs"]
mod events;

use std::time::Duration;

use serde_json::{Value, json};

use crate::check::{CheckId, Evidence, Failure, Outcome, clip, last_bytes, tolerance};
use crate::framing::{Envelope, Id, ReplyBody, parse_envelope};
use crate::protocol::{Family, Profile, Role, picoclaw_hook as pico, promptkit_server as server, wire};
use crate::transport::{Phase, PluginProcess, ShutdownHow};

use super::go_envelope::{self, GoReply};
use super::recorder::{Judged, Recorder};
use super::semantics::{Asked, Decision, go_reading, judge};
use super::session::{Called, Read, Session, Silence, check_envelope};
use super::{CertifyError, Options};

/// Requests sent together for ROBUST-CONCURRENT.
const IN_FLIGHT: u64 = 4;
/// Requests sent one after another for ROBUST-SEQUENTIAL.
const SEQUENTIAL: usize = 100;
/// The longest ROBUST-SEQUENTIAL goes on: a hook that takes 6 s per approval
/// (inside PicoClaw's 60 s) would otherwise keep certify ten minutes. Past
/// it, the requests answered so far are what is judged, and the pass says how many.
const SEQUENTIAL_BUDGET: Duration = Duration::from_secs(20);

/// Why the run could not go on.
struct Stopped {
    by: CheckId,
    reason: String,
    /// Whether the plugin was still running (so EXIT-ON-EOF can be judged).
    alive: bool,
    /// Why the request that stopped the run got no usable reply, when one did
    /// (a case reports this as its own outcome).
    failure: Option<Failure>,
}

type Step = Result<(), Stopped>;

pub(super) async fn run(opts: &Options, profile: Profile) -> Result<Judged, CertifyError> {
    let family = opts.family;
    let mut not_in_profile = Vec::new();
    if profile.line_limit(family).is_none() {
        not_in_profile.push("FRAMING-LINE-SIZE");
    }
    if profile.reads_one_line_per_call(family) {
        // The runtime cannot tell a duplicate from the next reply; what it
        // does with one shows as an id mismatch (JSONRPC-ID-ECHO).
        not_in_profile.push("JSONRPC-NO-DUPLICATE-REPLY");
    }
    if !profile.go_json_replies() {
        not_in_profile.push("GO-DECODE");
    }
    if !(profile.go_json_replies() && family == Family::PicoclawHook) {
        not_in_profile.push("GO-READS-AS-DOCUMENTED");
    }
    if !super::lifetime::pipes_can_block(&opts.deadlines(profile)) {
        not_in_profile.push("PIPE-WRITES-DRAINED");
    }
    not_in_profile.extend(opts.left_out.iter().copied());
    let mut rec = Recorder::new(family, &opts.roles, profile, &not_in_profile);
    rec.require(&opts.require);
    let command = opts.command_for(profile);
    let process = PluginProcess::spawn(&command, opts.deadlines(profile)).map_err(CertifyError::Spawn)?;
    let mut session = Session::new(process, family, profile);
    let mut run = Run { opts, profile, family, answered: 0 };
    let outcome = run.steps(&mut session, &mut rec).await;
    if session.replied_while_open {
        rec.pass("FRAMING-FLUSHED", Evidence::default());
    }
    let alive = outcome.as_ref().err().is_none_or(|s| s.alive);
    (opts.progress)(&format!("{profile}: closing stdin"));
    let shutdown_deadline = opts.deadlines(profile).shutdown;
    let stderr = session.stderr();
    let (stdout_bytes, stderr_tail) = (session.process.stdout.total(), session.process.stderr().clone());
    let shutdown = session.shutdown().await;
    if let Some(why) = crate::transport::interpreter_refusal(&command, Some(shutdown.exit), stdout_bytes, &stderr_tail.text()) {
        return Err(CertifyError::Refused(why));
    }
    if alive {
        match shutdown.how {
            ShutdownHow::ExitedByItself => rec.pass("LIFECYCLE-EXIT-ON-EOF", Evidence::default()),
            how => {
                let what = if how == ShutdownHow::Killed {
                    "still running; it ignored SIGTERM and was SIGKILLed"
                } else {
                    "still running; proctor sent SIGTERM"
                };
                rec.fail(
                    "LIFECYCLE-EXIT-ON-EOF",
                    Failure::Timeout { phase: Phase::Shutdown, waited_ms: shutdown_deadline.as_millis() as u64, last_bytes: what.into() },
                    Evidence::default().with_stderr(stderr.clone()),
                );
            }
        }
    }
    match &shutdown.leftover {
        None => rec.pass("LIFECYCLE-NO-LEFTOVER", Evidence::default()),
        Some(l) => rec.fail("LIFECYCLE-NO-LEFTOVER", Failure::Leak { leftover: l.clone() }, Evidence::default().with_stderr(stderr)),
    }
    // A stopped stderr reader blocks the plugin only once the pipe is full: a call left
    // unanswered, or an exit that never came because it sat in its write.
    let stuck = outcome.as_ref().is_err_and(|stop| !stop.alive) || shutdown.how != ShutdownHow::ExitedByItself;
    let stderr_blocked = super::lifetime::judge_stderr(&mut rec, &opts.timing(profile), &stderr_tail, stuck);
    if let Err(stop) = outcome {
        match stderr_blocked && !stop.alive {
            true => rec.block_rest("PIPE-WRITES-DRAINED", "the plugin blocked writing its stderr"),
            false => rec.block_rest(stop.by, &stop.reason),
        }
    }
    Ok(rec.finish())
}

struct Run<'a> {
    opts: &'a Options,
    profile: Profile,
    family: Family,
    answered: usize,
}

/// The first probe's request and how the plugin answered it: what the
/// unknown-fields probe must reproduce.
struct First {
    method: &'static str,
    params: Value,
    decision: Option<Decision>,
    /// Whether the answer was a JSON-RPC error.
    error: bool,
}

/// A reply taken apart.
struct Reply {
    envelope: Envelope,
    evidence: Evidence,
    /// Under a Go runtime's profile, the raw `result` text it decodes per method.
    go_result: Option<Vec<u8>>,
}

impl Run<'_> {
    fn progress(&self, what: &str) {
        (self.opts.progress)(&format!("{}: {what}", self.profile));
    }

    /// The request deadline of a call that is no one mode's own.
    fn deadline(&self) -> Duration {
        self.opts.deadlines(self.profile).request
    }

    /// The request deadline of a call of `method` (a PicoClaw approval waits 60 s, an interceptor 5 s).
    fn deadline_of(&self, method: &str) -> Duration {
        match self.family {
            Family::PicoclawHook => self.opts.request_deadline(self.profile, pico::mode_of(method)),
            _ => self.deadline(),
        }
    }

    /// The methods probed in order, with their params.
    fn methods(&self) -> Vec<(&'static str, Value)> {
        match self.family {
            Family::PicoclawHook => {
                pico::methods(&self.opts.roles).into_iter().map(|m| (m, pico::params(self.profile, m, &Value::Null))).collect()
            }
            _ => vec![(server::EXECUTE, server::params(&Value::Null))],
        }
    }

    fn unknown_method(&self) -> &'static str {
        if self.family == Family::PicoclawHook { "hook.proctor_unknown_stage" } else { "proctor_unknown_method" }
    }

    async fn steps(&mut self, s: &mut Session, rec: &mut Recorder) -> Step {
        if self.family == Family::PicoclawHook {
            self.handshake(s, rec).await?;
        }
        let mut first: Option<First> = None;
        for (i, (method, params)) in self.methods().into_iter().enumerate() {
            self.progress(method);
            // A server has no handshake: its first call also waits out its
            // start-up (PromptKit starts it on that call), under the start-up deadline.
            let (deadline, phase) = match i == 0 && self.family != Family::PicoclawHook {
                true => (self.deadline().max(self.opts.deadlines(self.profile).startup), Phase::Startup),
                false => (self.deadline_of(method), Phase::Request),
            };
            let called = s.call(rec, method, params.clone(), deadline).await;
            let reply = self.replied(s, rec, called, "ROBUST-DEADLINE", phase).await?;
            let decision = self.judge(rec, method, &params, &reply, None);
            let error = matches!(reply.envelope.body, ReplyBody::Error(_));
            first.get_or_insert(First { method, params, decision, error });
        }
        self.notification(s, rec).await?;
        if let Some(f) = first.as_ref() {
            self.event_then_call(s, rec, f.method, &f.params).await?;
        }
        self.unknown_fields(s, rec, first.as_ref()).await?;
        let (method, params) = first.as_ref().map_or((self.unknown_method(), json!({})), |f| (f.method, f.params.clone()));
        if self.family == Family::PicoclawHook {
            self.concurrent(s, rec, method, &params).await?;
        }
        self.sequential(s, rec, method, &params).await?;
        // A hundred and more replies read by id, and none came twice.
        rec.pass("JSONRPC-NO-DUPLICATE-REPLY", Evidence::default());
        self.cases(s, rec).await
    }

    async fn handshake(&mut self, s: &mut Session, rec: &mut Recorder) -> Step {
        self.progress("hook.hello handshake");
        let params = pico::hello_params(&self.opts.roles);
        let startup = self.opts.deadlines(self.profile).startup;
        let called = s.call(rec, pico::HELLO, params, startup).await;
        let reply = self.replied(s, rec, called, "LIFECYCLE-HANDSHAKE", Phase::Startup).await?;
        match &reply.envelope.body {
            ReplyBody::Result(v) if v.is_object() => rec.pass("LIFECYCLE-HANDSHAKE", reply.evidence.clone()),
            // PicoClaw decodes the hello result into map[string]any and never
            // looks at it: null is an empty map, and the hook starts
            // (picoclaw.hello-result-ignored). The documents still want an object.
            ReplyBody::Result(Value::Null) if tolerance::ignores_hello_result(self.profile) => {
                let expected = "a result object such as {\"ok\": true}".into();
                rec.fail(
                    "LIFECYCLE-HANDSHAKE",
                    Failure::Mismatch { path: "$.result".into(), expected, actual: "result null".into() },
                    reply.evidence,
                );
            }
            body => {
                let actual = match body {
                    ReplyBody::Result(v) => format!("result {v} (not an object)"),
                    ReplyBody::Error(e) => format!("an error reply {e}"),
                    _ => "no usable result".into(),
                };
                rec.fail(
                    "LIFECYCLE-HANDSHAKE",
                    Failure::Mismatch { path: "$.result".into(), expected: "a result object such as {\"ok\": true}".into(), actual },
                    reply.evidence,
                );
                return Err(Stopped {
                    by: "LIFECYCLE-HANDSHAKE",
                    reason: "PicoClaw refuses a hook whose handshake fails".into(),
                    alive: true,
                    failure: None,
                });
            }
        }
        Ok(())
    }

    /// Turns a call's end into a reply, or records why there was none.
    async fn replied(
        &mut self,
        s: &mut Session,
        rec: &mut Recorder,
        called: Called,
        check: CheckId,
        phase: Phase,
    ) -> Result<Reply, Stopped> {
        rec.exchanged();
        match called {
            Called::Replied { mut envelope, raw, sent } => {
                let evidence = s.evidence(&sent, &raw);
                let sent_id = serde_json::from_slice::<Value>(&sent).ok().and_then(|v| v.get("id").cloned()).unwrap_or(Value::Null);
                let mut go_result = None;
                if self.profile.go_json_replies() {
                    match go_envelope::read(self.family, &raw) {
                        GoReply::Rejected(failure) => {
                            rec.fail("GO-DECODE", failure.clone(), evidence);
                            return Err(Stopped {
                                by: "GO-DECODE",
                                reason: "the runtime cannot take the reply for this call".into(),
                                alive: true,
                                failure: Some(failure),
                            });
                        }
                        GoReply::Read { envelope: read, result } => {
                            rec.pass("GO-DECODE", evidence.clone());
                            envelope = parse_envelope(&read);
                            go_result = result;
                        }
                    }
                }
                check_envelope(rec, &envelope, &sent_id, &evidence);
                // The envelope check judged `both`; from here on the reply is
                // what this profile's runtime takes it for.
                if envelope.body == ReplyBody::Both
                    && tolerance::reads_error_first(self.profile)
                    // Read as Go reads it (lossily: invalid UTF-8 in the message must not lose the error).
                    && let Some(error) = go_reading::raw_value(&raw).get("error").cloned()
                {
                    envelope.body = ReplyBody::Error(error);
                }
                rec.pass("ROBUST-DEADLINE", evidence.clone());
                self.answered += 1;
                if self.answered >= 2 {
                    rec.pass("LIFECYCLE-STAYS-ALIVE", evidence.clone());
                }
                Ok(Reply { envelope, evidence, go_result })
            }
            Called::NoReply { sent, partial, waited } => {
                let waited_ms = waited.as_millis() as u64;
                let idle_cut = s.idle_cut.take();
                let (last, evidence) = match s.diagnose_silence(rec).await {
                    Silence::Buffered(msg) => {
                        let evidence = s.evidence(&sent, &msg.raw);
                        let failure = Failure::Buffered { waited_ms, arrived_after_eof: clip(&msg.raw) };
                        rec.fail("FRAMING-FLUSHED", failure.clone(), evidence);
                        return Err(Stopped {
                            by: "FRAMING-FLUSHED",
                            reason: "replies only arrive when stdin closes".into(),
                            alive: false,
                            failure: Some(failure),
                        });
                    }
                    Silence::Late { msg, after_close } => {
                        let late_ms = waited_ms + after_close.as_millis() as u64;
                        (
                            format!("(the reply came {late_ms} ms after the request, too late) {}", last_bytes(&msg.raw)),
                            s.evidence(&sent, &msg.raw),
                        )
                    }
                    Silence::Nothing => (last_bytes(&partial), s.evidence(&sent, &partial)),
                };
                let last = match idle_cut {
                    Some(deadline) => format!(
                        "{last} (proctor stopped at {waited_ms} ms: the plugin sat blocked reading its stdin, so no answer was coming; {} would wait {} ms)",
                        self.profile,
                        deadline.as_millis()
                    ),
                    None => last,
                };
                let failure = Failure::Timeout { phase, waited_ms, last_bytes: last };
                rec.fail(check, failure.clone(), evidence.clone());
                if check != "ROBUST-DEADLINE" {
                    rec.fail("ROBUST-DEADLINE", failure.clone(), evidence);
                }
                Err(Stopped { by: check, reason: "a request went unanswered".into(), alive: false, failure: Some(failure) })
            }
            Called::Closed { sent, exit } => Err(self.gone(s, rec, &sent, exit, check)),
            Called::WriteFailed { sent, error } => {
                // A broken pipe usually means the plugin died: say so.
                if let Some(exit) = s.process.wait_exit(Duration::from_millis(500)).await {
                    return Err(self.gone(s, rec, &sent, Some(exit), check));
                }
                let evidence = s.evidence(&sent, b"");
                let failure = Failure::Transport { error: error.to_string() };
                rec.fail(check, failure.clone(), evidence);
                Err(Stopped { by: check, reason: "the plugin stopped reading its stdin".into(), alive: false, failure: Some(failure) })
            }
        }
    }

    /// Records a plugin that is gone (exited, or closed stdout) when `check` needed it.
    fn gone(&self, s: &Session, rec: &mut Recorder, sent: &[u8], exit: Option<crate::transport::ExitOutcome>, check: CheckId) -> Stopped {
        let evidence = s.evidence(sent, b"");
        let failure = match exit {
            Some(exit) => Failure::Crash { exit, stderr_tail: s.stderr() },
            None => Failure::Unexpected { what: "the plugin closed stdout without exiting".into() },
        };
        if self.answered > 0 {
            rec.fail("LIFECYCLE-STAYS-ALIVE", failure.clone(), evidence.clone());
        }
        rec.fail(check, failure.clone(), evidence);
        Stopped {
            by: if self.answered > 0 { "LIFECYCLE-STAYS-ALIVE" } else { check },
            reason: "the plugin is gone".into(),
            alive: false,
            failure: Some(failure),
        }
    }

    /// Records the semantic checks of a reply; returns the runtime's decision.
    fn judge(&self, rec: &mut Recorder, method: &str, params: &Value, reply: &Reply, meant: Option<&str>) -> Option<Decision> {
        match (&reply.envelope.body, self.family) {
            (ReplyBody::Result(result), _) => {
                let role = mode_of(method);
                let asked = Asked { family: self.family, role, method: Some(method), profile: self.profile, request: params, meant };
                let read = (self.family == Family::PicoclawHook && self.profile.go_json_replies())
                    .then(|| go_envelope::picoclaw_result(method, reply.go_result.as_deref()))
                    .flatten();
                let result = match read {
                    None => result.clone(),
                    Some(Ok(canonical)) => {
                        // What the documents would make of the same result: a difference is a warning.
                        let documented = judge(Asked { profile: Profile::Documented, ..asked }, result);
                        let folded = go_reading::picoclaw_folded(method, reply.go_result.as_deref(), result)
                            .map(|f| judge(Asked { profile: Profile::Documented, ..asked }, &f));
                        let difference = go_reading::reads_otherwise(documented, &judge(asked, &canonical), self.profile, folded.as_ref());
                        for finding in difference.tolerated {
                            rec.finding(finding, &reply.evidence);
                        }
                        match difference.otherwise {
                            Some(why) => rec.fail("GO-READS-AS-DOCUMENTED", why, reply.evidence.clone()),
                            None => rec.pass("GO-READS-AS-DOCUMENTED", reply.evidence.clone()),
                        }
                        canonical
                    }
                    Some(Err(failure)) => {
                        rec.fail("GO-DECODE", failure, reply.evidence.clone());
                        let skipped =
                            if method == pico::APPROVE_TOOL { Decision::Approved(false) } else { Decision::Action("continue".into()) };
                        return Some(skipped);
                    }
                };
                let judged = judge(asked, &result);
                for f in judged.findings {
                    rec.finding(f, &reply.evidence);
                }
                judged.decision
            }
            (ReplyBody::Error(e), Family::PicoclawHook) => {
                let (check, fallback) = if method == pico::APPROVE_TOOL {
                    ("PICOCLAW-APPROVE-BOOLEAN", Decision::Approved(false))
                } else {
                    ("PICOCLAW-ACTION", Decision::Action("continue".into()))
                };
                let what = if method == pico::APPROVE_TOOL { "PicoClaw denies the tool" } else { "PicoClaw skips the hook" };
                rec.fail(
                    check,
                    Failure::Mismatch {
                        path: "$".into(),
                        expected: format!("a result for {method}"),
                        actual: format!("an error reply {e} ({what})"),
                    },
                    reply.evidence.clone(),
                );
                Some(fallback)
            }
            (ReplyBody::Error(_), _) => Some(Decision::Error),
            _ => None,
        }
    }

    async fn notification(&mut self, s: &mut Session, rec: &mut Recorder) -> Step {
        if !rec.applies("JSONRPC-NOTIFICATION-SILENT") && !rec.applies("JSONRPC-UNKNOWN-METHOD") {
            return Ok(());
        }
        let observes = self.opts.roles.contains(&Role::Observe);
        let mut sent_note = Vec::new();
        if observes {
            let (method, params) = pico::notification(self.profile);
            self.progress(&format!("{method} notification"));
            let (bytes, result) = s.notify(method, params).await;
            if let Err(error) = result {
                rec.fail("JSONRPC-NOTIFICATION-SILENT", Failure::Transport { error: error.to_string() }, s.evidence(&bytes, b""));
                return Err(Stopped {
                    by: "JSONRPC-NOTIFICATION-SILENT",
                    reason: "the plugin stopped reading its stdin".into(),
                    alive: false,
                    failure: None,
                });
            }
            sent_note = bytes;
        } else {
            rec.skip("JSONRPC-NOTIFICATION-SILENT", "the plugin does not claim the observe mode");
        }
        // The unknown-method request doubles as a fence: anything that comes
        // back before its reply is an answer to the notification.
        let method = self.unknown_method();
        self.progress(&format!("unknown method {method}"));
        let id = s.take_id();
        let sent = s.request_bytes(id, method, json!({}));
        s.fencing_notification = true;
        let mut called = s.call_raw(rec, id, sent.clone(), self.deadline()).await;
        s.fencing_notification = false;
        loop {
            match called {
                Called::Replied { envelope, raw, sent: fence }
                    if envelope.id.as_u64() != Some(id) && matches!(envelope.id, Id::Null | Id::Absent) && observes =>
                {
                    let mut both = sent_note.clone();
                    both.extend_from_slice(&fence);
                    // Without its newline, the reply joins the next one on its
                    // line, and a runtime that skips the line loses that one too.
                    let what = match go_envelope::glued_reply_ids(&raw).contains(&id) && self.family == Family::PicoclawHook {
                        true => format!("a reply to the notification, {}: {}", tolerance::SWALLOWS_THE_NEXT_REPLY, clip(&raw)),
                        false => format!("a reply to the notification: {}", clip(&raw)),
                    };
                    rec.fail("JSONRPC-NOTIFICATION-SILENT", Failure::Unexpected { what }, s.evidence(&both, &raw));
                    called = loop {
                        match s.read_message(rec, self.deadline(), &fence).await {
                            // PicoClaw drops what it cannot deliver to the fence's call.
                            Read::Message(m) if s.runtime_drops(id, &m.raw) => continue,
                            Read::Message(m) => break Called::Replied { envelope: parse_envelope(&m.value), raw: m.raw, sent: fence },
                            Read::Timeout(partial) => break Called::NoReply { sent: fence, partial, waited: self.deadline() },
                            Read::Eof => break Called::Closed { sent: fence, exit: None },
                        }
                    };
                }
                Called::NoReply { sent, .. } => {
                    rec.fail(
                        "JSONRPC-UNKNOWN-METHOD",
                        Failure::Missing {
                            what: format!("a reply to a request for the unknown method {method} (the runtime waits for its deadline)"),
                        },
                        s.evidence(&sent, b""),
                    );
                    if observes {
                        rec.pass("JSONRPC-NOTIFICATION-SILENT", s.evidence(&sent_note, b""));
                    }
                    return Ok(());
                }
                other => {
                    let reply = self.replied(s, rec, other, "JSONRPC-UNKNOWN-METHOD", Phase::Request).await?;
                    if observes {
                        rec.pass("JSONRPC-NOTIFICATION-SILENT", reply.evidence.clone());
                    }
                    match &reply.envelope.body {
                        // `both` carries the error too; the envelope check blames the result.
                        ReplyBody::Error(_) | ReplyBody::Both => rec.pass("JSONRPC-UNKNOWN-METHOD", reply.evidence),
                        body => rec.fail(
                            "JSONRPC-UNKNOWN-METHOD",
                            Failure::Mismatch {
                                path: "$".into(),
                                expected: "an error reply (code -32601)".into(),
                                actual: body_name(body).to_string(),
                            },
                            reply.evidence,
                        ),
                    }
                    return Ok(());
                }
            }
        }
    }

    async fn unknown_fields(&mut self, s: &mut Session, rec: &mut Recorder, first: Option<&First>) -> Step {
        self.progress("a request with fields the plugin does not know");
        let (method, params, expected) = match first {
            Some(f) => (f.method, f.params.clone(), f.decision.clone()),
            None => (self.unknown_method(), json!({}), None),
        };
        let mut extended = params.clone();
        if let Some(obj) = extended.as_object_mut() {
            obj.insert("x_proctor_future".into(), json!({"added_in": "a later runtime"}));
        }
        let id = s.take_id();
        let mut request = crate::protocol::jsonrpc::request(self.family, self.profile, id, method, extended.clone());
        request["x_proctor_trace"] = json!("t-1");
        let mut sent = wire::encode(&request, self.profile);
        sent.push(b'\n');
        let called = s.call_raw(rec, id, sent, self.deadline_of(method)).await;
        let reply = self.replied(s, rec, called, "ROBUST-UNKNOWN-FIELDS", Phase::Request).await?;
        let got = if first.is_some() {
            let mut scratch = Recorder::new(self.family, &self.opts.roles, self.profile, &[]);
            self.judge(&mut scratch, method, &extended, &reply, None)
        } else {
            None
        };
        let error = matches!(reply.envelope.body, ReplyBody::Error(_));
        // The same decision is not enough: an error where the plain request
        // got a result is a refusal, even where the runtime reads both alike
        // (PicoClaw's before_llm continues on either).
        let same = match first {
            Some(f) => got == expected && error == f.error,
            None => error,
        };
        if same {
            rec.pass("ROBUST-UNKNOWN-FIELDS", reply.evidence);
        } else {
            let kind = |error: bool| if error { "an error" } else { "a result" };
            let show = |d: &Option<Decision>, error: bool| {
                d.as_ref().map_or(body_name(&reply.envelope.body).to_string(), |d| format!("`{d}` ({})", kind(error)))
            };
            let was_error = first.is_some_and(|f| f.error);
            rec.fail(
                "ROBUST-UNKNOWN-FIELDS",
                Failure::Mismatch {
                    path: "$.params.x_proctor_future".into(),
                    expected: format!("ignored (answer {} as without it)", show(&expected, was_error)),
                    actual: show(&got, error),
                },
                reply.evidence,
            );
        }
        Ok(())
    }

    async fn concurrent(&mut self, s: &mut Session, rec: &mut Recorder, method: &str, params: &Value) -> Step {
        self.progress(&format!("{IN_FLIGHT} requests in flight at once"));
        let ids: Vec<u64> = (0..IN_FLIGHT).map(|_| s.take_id()).collect();
        let mut sent = Vec::new();
        for id in &ids {
            sent.extend(s.request_bytes(*id, method, params.clone()));
        }
        if let Err(error) = s.write(&sent).await {
            rec.fail("ROBUST-CONCURRENT", Failure::Transport { error: error.to_string() }, s.evidence(&sent, b""));
            return Err(Stopped {
                by: "ROBUST-CONCURRENT",
                reason: "the plugin stopped reading its stdin".into(),
                alive: false,
                failure: None,
            });
        }
        let mut missing = ids.clone();
        let mut received = Vec::new();
        let until = tokio::time::Instant::now() + self.deadline_of(method);
        while !missing.is_empty() {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            match s.read_message(rec, left, &sent).await {
                Read::Message(m) => {
                    received.extend_from_slice(&m.raw);
                    let envelope = s.envelope_of(&m);
                    if let Some(id) = envelope.id.as_u64() {
                        missing.retain(|x| *x != id);
                        s.mark_answered(id);
                    }
                }
                Read::Timeout(_) | Read::Eof => break,
            }
        }
        let evidence = s.evidence(&sent, &received);
        if missing.is_empty() {
            rec.pass("ROBUST-CONCURRENT", evidence);
            self.answered += 1;
            Ok(())
        } else {
            let list = missing.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
            rec.fail(
                "ROBUST-CONCURRENT",
                Failure::Missing { what: format!("replies to ids {list} of {IN_FLIGHT} requests sent together") },
                evidence,
            );
            Err(Stopped {
                by: "ROBUST-CONCURRENT",
                reason: "replies to pipelined requests went missing; later replies cannot be matched".into(),
                alive: true,
                failure: None,
            })
        }
    }

    /// A hundred requests in a row, each answered with its own id and the
    /// same kind of answer as the first (a result where it gave a result).
    async fn sequential(&mut self, s: &mut Session, rec: &mut Recorder, method: &str, params: &Value) -> Step {
        self.progress(&format!("{SEQUENTIAL} sequential requests"));
        let mut first_error: Option<bool> = None;
        let started = std::time::Instant::now();
        for i in 1..=SEQUENTIAL {
            let called = s.call(rec, method, params.clone(), self.deadline_of(method)).await;
            let Called::Replied { envelope, raw, sent } = called else {
                if let Called::NoReply { sent, .. } | Called::Closed { sent, .. } = &called {
                    rec.fail(
                        "ROBUST-SEQUENTIAL",
                        Failure::Missing { what: format!("a reply to request {i} of {SEQUENTIAL}") },
                        s.evidence(sent, b""),
                    );
                }
                self.replied(s, rec, called, "ROBUST-SEQUENTIAL", Phase::Request).await?;
                continue;
            };
            rec.exchanged();
            let evidence = s.evidence(&sent, &raw);
            let sent_id = serde_json::from_slice::<Value>(&sent).ok().and_then(|v| v.get("id").and_then(Value::as_u64));
            if envelope.id.as_u64() != sent_id {
                let sent = sent_id.map_or("none".into(), |id| id.to_string());
                let failure = Failure::IdMismatch { sent, received: envelope.id.to_string() };
                rec.fail("ROBUST-SEQUENTIAL", failure, evidence);
                return Ok(());
            }
            let error = matches!(envelope.body, ReplyBody::Error(_));
            match first_error {
                None => first_error = Some(error),
                Some(was) if was != error => {
                    let kind = |e: bool| if e { "an error" } else { "a result" };
                    let failure = Failure::Mismatch {
                        path: "$".into(),
                        expected: format!("{} to request {i} of {SEQUENTIAL}, like the first (the same request each time)", kind(was)),
                        actual: body_name(&envelope.body),
                    };
                    rec.fail("ROBUST-SEQUENTIAL", failure, evidence);
                    return Ok(());
                }
                Some(_) => {}
            }
            if i == SEQUENTIAL {
                rec.pass("ROBUST-SEQUENTIAL", evidence);
            } else if i >= 3 && started.elapsed() > SEQUENTIAL_BUDGET {
                rec.pass(
                    "ROBUST-SEQUENTIAL",
                    evidence.with_note(format!(
                        "{i} of {SEQUENTIAL} requests answered in order; proctor stopped at its {} s budget for this check",
                        SEQUENTIAL_BUDGET.as_secs()
                    )),
                );
                return Ok(());
            }
        }
        Ok(())
    }

    async fn cases(&mut self, s: &mut Session, rec: &mut Recorder) -> Step {
        let Some(cases) = &self.opts.cases else {
            rec.skip("CASE-DECISION", "no --cases file given");
            return Ok(());
        };
        for (i, case) in cases.cases.iter().enumerate() {
            self.progress(&format!("case `{}`", case.name));
            let (method, params) = match self.family {
                Family::PicoclawHook => {
                    let method = case.method.clone().unwrap_or_else(|| pico::BEFORE_TOOL.to_string());
                    let params = pico::params(self.profile, &method, &case.request);
                    (method, params)
                }
                _ => (server::EXECUTE.to_string(), server::params(&case.request)),
            };
            let called = s.call(rec, &method, params.clone(), self.deadline_of(&method)).await;
            // The answer to a case is a protocol message like any other: every
            // check holds it, and names the case when it fails.
            rec.set_origin(Some(format!("case `{}`", case.name)));
            let replied = self.replied(s, rec, called, "ROBUST-DEADLINE", Phase::Request).await;
            let judged = replied.map(|reply| (self.judge(rec, &method, &params, &reply, case.expect.decision.as_deref()), reply.evidence));
            rec.set_origin(None);
            match judged {
                Ok((decision, evidence)) => rec.case(&case.name, case.expect.judge(decision.as_ref()), evidence),
                Err(stop) => {
                    // No reply is its own outcome (a timeout, a crash), never
                    // a decision; the cases after it cannot be asked.
                    let outcome = match &stop.failure {
                        Some(f) => Outcome::fail(f.clone()),
                        None => Outcome::Untestable { blocked_by: Some(stop.by), reason: stop.reason.clone() },
                    };
                    rec.case(&case.name, outcome, s.evidence(b"", b""));
                    for later in &cases.cases[i + 1..] {
                        let reason = format!("case `{}` stopped the run: {}", case.name, stop.reason);
                        rec.case(&later.name, Outcome::Untestable { blocked_by: Some(stop.by), reason }, Evidence::default());
                    }
                    return Err(stop);
                }
            }
        }
        Ok(())
    }
}

fn mode_of(method: &str) -> Role {
    match method {
        pico::BEFORE_LLM | pico::AFTER_LLM => Role::Llm,
        pico::BEFORE_TOOL | pico::AFTER_TOOL => Role::ToolMode,
        pico::APPROVE_TOOL => Role::Approve,
        _ => Role::Tool,
    }
}

fn body_name(body: &ReplyBody) -> String {
    match body {
        ReplyBody::Result(v) => format!("a result {v}"),
        ReplyBody::Error(e) => format!("an error {e}"),
        ReplyBody::Both => "both result and error".into(),
        ReplyBody::Neither => "neither result nor error".into(),
    }
}
