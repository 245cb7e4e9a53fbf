//! A long-lived JSON-RPC session with a plugin: send requests, read what
//! comes back line by line, and record every framing observation on the way.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::check::{Evidence, Failure};
use crate::framing::{Envelope, Id, ReplyBody, Violation, error_object_problem, excerpt, parse_envelope, read_line};
use crate::protocol::{Family, Profile, jsonrpc};
use crate::transport::{ExitOutcome, LineEnding, PluginProcess, ReadEvent, Shutdown, WriteError, idle};

use super::observe;
use super::recorder::Recorder;

/// How many lines proctor will join trying to recover a pretty-printed message.
const MAX_JOINED_LINES: usize = 256;

/// A message the plugin wrote.
#[derive(Debug, Clone)]
pub(crate) struct Incoming {
    pub value: Value,
    /// The bytes exactly as written, line terminator included, so evidence
    /// never claims a newline was missing.
    pub raw: Vec<u8>,
}

/// Whether `line` alone is a JSON-RPC message: an object with an `id`, a
/// `method` or a `jsonrpc` member (a line inside a pretty-printed document
/// never is one on its own).
fn whole_message(line: &[u8], ending: LineEnding) -> bool {
    read_line(line, ending)
        .value
        .as_ref()
        .and_then(Value::as_object)
        .is_some_and(|o| ["id", "method", "jsonrpc"].iter().any(|k| o.contains_key(*k)))
}

/// The line's bytes with the terminator it arrived with.
fn terminated(mut bytes: Vec<u8>, ending: LineEnding) -> Vec<u8> {
    bytes.extend_from_slice(match ending {
        LineEnding::Lf => b"\n",
        LineEnding::CrLf => b"\r\n",
    });
    bytes
}

/// How a call ended.
// One `Called` per request, matched once and dropped: boxing the envelope would
// add an allocation per reply on the serial hot path and save nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum Called {
    /// A reply arrived (its id may be wrong; see the envelope).
    Replied { envelope: Envelope, raw: Vec<u8>, sent: Vec<u8> },
    /// No reply before the deadline; the plugin is still running.
    NoReply { sent: Vec<u8>, partial: Vec<u8>, waited: Duration },
    /// stdout closed (the plugin exited or closed it) before a reply.
    Closed { sent: Vec<u8>, exit: Option<ExitOutcome> },
    /// The request could not be written.
    WriteFailed { sent: Vec<u8>, error: WriteError },
}

pub(crate) struct Session {
    pub process: PluginProcess,
    family: Family,
    profile: Profile,
    next_id: u64,
    abandoned: Vec<u64>,
    /// Requests that got their reply, to tell a duplicate from a wrong id.
    answered: std::collections::HashSet<u64>,
    /// Whether any reply arrived while stdin was open.
    pub replied_while_open: bool,
    /// While the notification's fence waits: a line without an id is handed
    /// on (it answers the notification), not dropped as PicoClaw drops it.
    pub fencing_notification: bool,
    /// When a wait was cut short because the plugin sat idle on its stdin
    /// (see [`crate::transport::idle`]): the deadline it would have run to.
    pub idle_cut: Option<Duration>,
}

impl Session {
    pub(crate) fn new(process: PluginProcess, family: Family, profile: Profile) -> Self {
        Session {
            process,
            family,
            profile,
            next_id: 1,
            abandoned: Vec::new(),
            answered: Default::default(),
            replied_while_open: false,
            fencing_notification: false,
            idle_cut: None,
        }
    }

    /// The next stdout line within `timeout`. Past proctor's patience a
    /// plugin blocked reading its stdin is not working on an answer, and the
    /// runtime sends nothing more before one: the wait ends there, noted in
    /// [`Session::idle_cut`], rather than at a runtime deadline of a minute.
    async fn next_line_or_idle(&mut self, timeout: Duration) -> ReadEvent {
        let until = Instant::now() + timeout;
        if timeout <= idle::PATIENCE {
            return self.process.stdout.next_line_until(until).await;
        }
        let mut look = Instant::now() + idle::PATIENCE;
        loop {
            match self.process.stdout.next_line_until(look.min(until)).await {
                ReadEvent::Timeout { partial } if Instant::now() < until => {
                    if self.process.waiting_for_input() {
                        self.idle_cut = Some(timeout);
                        return ReadEvent::Timeout { partial };
                    }
                    look = Instant::now() + IDLE_LOOK;
                }
                other => return other,
            }
        }
    }

    pub(crate) fn stderr(&self) -> String {
        self.process.stderr().text()
    }

    /// Evidence for an exchange, with the stderr tail.
    pub(crate) fn evidence(&self, sent: &[u8], received: &[u8]) -> Evidence {
        Evidence::exchange(sent, received).with_stderr(self.stderr())
    }

    /// Notes that request `id` got its reply outside [`Session::call`] (requests in flight together).
    pub(crate) fn mark_answered(&mut self, id: u64) {
        self.answered.insert(id);
    }

    /// The next request id (PicoClaw and PromptKit count from 1).
    pub(crate) fn take_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The request bytes for `method`, as the profile's runtime writes them.
    pub(crate) fn request_bytes(&self, id: u64, method: &str, params: Value) -> Vec<u8> {
        jsonrpc::encode_request(self.family, self.profile, id, method, &params)
    }

    /// Writes raw bytes to the plugin.
    pub(crate) async fn write(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        let timeout = self.process.deadlines().request;
        self.process.write(bytes, timeout).await
    }

    /// Sends a notification (no id).
    pub(crate) async fn notify(&mut self, method: &str, params: Value) -> (Vec<u8>, Result<(), WriteError>) {
        let bytes = jsonrpc::encode_notification(self.profile, method, params);
        let result = self.write(&bytes).await;
        (bytes, result)
    }

    /// Sends a request and waits `timeout` for its reply.
    pub(crate) async fn call(&mut self, rec: &mut Recorder, method: &str, params: Value, timeout: Duration) -> Called {
        let id = self.take_id();
        let sent = self.request_bytes(id, method, params);
        self.call_raw(rec, id, sent, timeout).await
    }

    /// Sends prepared request bytes carrying `id` and waits for the reply.
    pub(crate) async fn call_raw(&mut self, rec: &mut Recorder, id: u64, sent: Vec<u8>, timeout: Duration) -> Called {
        if let Err(error) = self.write(&sent).await {
            return Called::WriteFailed { sent, error };
        }
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.read_message(rec, left, &sent).await {
                Read::Message(msg) => {
                    // PicoClaw delivers a line only to the call pending on the
                    // id Go decodes from it; every other line it drops.
                    if self.family == Family::PicoclawHook && self.profile.go_json_replies() {
                        match super::go_envelope::picoclaw_delivered_to(&msg.raw) {
                            Some(to) if to == id => {}
                            // A reply without an id answers the notification; a line that is no
                            // reply at all (`{}`, neither result nor error) is a stray PicoClaw drops.
                            None if self.fencing_notification && {
                                let e = parse_envelope(&msg.value);
                                matches!(e.id, Id::Null | Id::Absent) && !matches!(e.body, ReplyBody::Neither)
                            } => {}
                            Some(earlier) if self.answered.contains(&earlier) => {
                                // Dropped by PicoClaw, and still a finding (tolerated there).
                                rec.fail(
                                    "JSONRPC-NO-DUPLICATE-REPLY",
                                    Failure::Unexpected { what: format!("a second reply to request {earlier}, while request {id} waited") },
                                    self.evidence(&sent, &msg.raw),
                                );
                                continue;
                            }
                            _ => continue,
                        }
                    }
                    let envelope = self.envelope_of(&msg);
                    // A runtime that reads one line per call takes whatever comes
                    // next as the reply: a notification too (PromptKit: `JSON-RPC
                    // response ID mismatch: got 0, want 1`, and every later reply
                    // shifts by one; measured in interop/promptkit).
                    if envelope.method.is_some() && !self.profile.reads_one_line_per_call(self.family) {
                        continue; // plugin-initiated request or notification: not a reply
                    }
                    if envelope.id.as_u64().is_some_and(|late| late != id && self.abandoned.contains(&late)) {
                        continue; // a late reply to a call that already timed out
                    }
                    // A second reply to a request already answered: a runtime
                    // that matches by id sees it for what it is; one that reads
                    // a line per call takes it as this call's reply.
                    if let Some(earlier) = envelope.id.as_u64().filter(|e| *e != id && self.answered.contains(e))
                        && !self.profile.reads_one_line_per_call(self.family)
                    {
                        rec.fail(
                            "JSONRPC-NO-DUPLICATE-REPLY",
                            Failure::Unexpected { what: format!("a second reply to request {earlier}, while request {id} waited") },
                            self.evidence(&sent, &msg.raw),
                        );
                        continue;
                    }
                    self.replied_while_open = true;
                    self.answered.insert(id);
                    return Called::Replied { envelope, raw: msg.raw, sent };
                }
                Read::Timeout(partial) => {
                    self.abandoned.push(id);
                    return Called::NoReply { sent, partial, waited: start.elapsed() };
                }
                Read::Eof => {
                    let exit = self.process.wait_exit(Duration::from_millis(500)).await;
                    return Called::Closed { sent, exit };
                }
            }
        }
    }

    /// Whether the runtime would not deliver this line to the call waiting on
    /// `id` (PicoClaw: one line at a time, by the id Go decodes from it).
    pub(crate) fn runtime_drops(&self, id: u64, raw: &[u8]) -> bool {
        self.family == Family::PicoclawHook && self.profile.go_json_replies() && super::go_envelope::picoclaw_delivered_to(raw) != Some(id)
    }

    /// The envelope of a message as the profile's runtime reads it: through
    /// Go's `json.Unmarshal` under PromptKit's and PicoClaw's profiles (keys
    /// match in any case, `"ID"` is the id), as written otherwise (runok's
    /// serde and the documents are case-sensitive). Every check that reads a
    /// reply's id, method or result reads this one.
    pub(crate) fn envelope_of(&self, msg: &Incoming) -> Envelope {
        let written = parse_envelope(&msg.value);
        // Only keys spelt otherwise than documented read differently: an id of
        // null stays null (the notification checks tell it from a missing one).
        let exact = |key: &str| msg.value.get(key).is_some();
        let spelt_otherwise = !exact("id") || !(exact("result") || exact("error"));
        if !self.profile.go_json_replies() || written.method.is_some() || !spelt_otherwise {
            return written;
        }
        match super::go_envelope::read(self.family, &msg.raw) {
            // Go's zero id is no id: PicoClaw drops such a line, PromptKit finds it mismatched.
            super::go_envelope::GoReply::Read { envelope, .. } if !envelope["id"].is_null() && envelope["id"] != json!(0) => {
                parse_envelope(&envelope)
            }
            _ => written,
        }
    }

    /// Reads lines until one holds a JSON object, recording framing on the way.
    pub(crate) async fn read_message(&mut self, rec: &mut Recorder, timeout: Duration, sent: &[u8]) -> Read {
        let start = Instant::now();
        let limit = self.profile.line_limit(self.family);
        let mut joined: Option<(Vec<u8>, usize)> = None;
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.next_line_or_idle(left).await {
                ReadEvent::Line { bytes, ending } => {
                    let evidence = self.evidence(sent, &bytes);
                    if let Some(limit) = limit {
                        if bytes.len() + 1 > limit {
                            observe::violation(rec, Violation::Oversize { len: bytes.len() + 1, limit }, &evidence);
                        } else {
                            rec.pass("FRAMING-LINE-SIZE", Evidence::default());
                        }
                    }
                    if let Some((acc, _)) = joined.as_ref()
                        && whole_message(&bytes, ending)
                    {
                        // A line that is a whole JSON-RPC message on its own ends the join: the
                        // lines before it were broken, not the start of it (a line-by-line
                        // runtime drops them and takes this one).
                        let ev = self.evidence(sent, acc);
                        observe::violation(rec, Violation::Truncated { excerpt: excerpt(acc, 0) }, &ev);
                        joined = None;
                    }
                    if let Some((mut acc, n)) = joined.take() {
                        acc.push(b'\n');
                        acc.extend_from_slice(&bytes);
                        if let Some(value) = crate::framing::read_value(&acc) {
                            let ev = self.evidence(sent, &acc);
                            observe::violation(rec, Violation::MultiLine { lines: n + 1 }, &ev);
                            rec.fail("FRAMING-LINE-PER-MESSAGE", Failure::Framing { violation: Violation::MultiLine { lines: n + 1 } }, ev);
                            return Read::Message(Incoming { value, raw: terminated(acc, ending) });
                        }
                        if n + 1 < MAX_JOINED_LINES && acc.len() < 1 << 20 {
                            joined = Some((acc, n + 1));
                            continue;
                        }
                        let ev = self.evidence(sent, &acc);
                        observe::violation(rec, Violation::Truncated { excerpt: excerpt(&acc, 0) }, &ev);
                        continue;
                    }
                    let mut parsed = read_line(&bytes, ending);
                    if parsed.violations.iter().any(|v| matches!(v, Violation::Truncated { .. })) {
                        joined = Some((bytes, 1));
                        continue;
                    }
                    // What proctor cannot hold as a value but the Go runtime
                    // reads is a message, framed as well as its other
                    // violations say.
                    if parsed.value.is_none()
                        && self.profile.go_json_replies()
                        && let Some(value) = super::go_envelope::stand_in(self.family, &bytes)
                    {
                        parsed.violations.retain(|v| {
                            !matches!(v, Violation::Garbage { .. } | Violation::NumberOutOfRange { .. } | Violation::NotAnObject { .. })
                        });
                        parsed.value = Some(value);
                    }
                    observe::line(rec, &parsed, &evidence);
                    if let Some(value) = parsed.value {
                        return Read::Message(Incoming { value, raw: terminated(bytes, ending) });
                    }
                    // A blank line or a banner is the reply to a runtime that reads
                    // one line per call (PromptKit: `invalid JSON-RPC response`).
                    if self.profile.reads_one_line_per_call(self.family) {
                        return Read::Message(Incoming { value: Value::Null, raw: terminated(bytes, ending) });
                    }
                }
                ReadEvent::TooLong { len } => {
                    let evidence = self.evidence(sent, format!("[{len} bytes without a newline]").as_bytes());
                    let limit = limit.unwrap_or(crate::transport::MAX_LINE_BYTES);
                    observe::violation(rec, Violation::Oversize { len, limit }, &evidence);
                }
                ReadEvent::Eof { partial } => {
                    let partial = joined.map(|(acc, _)| acc).unwrap_or_default().into_iter().chain(partial).collect::<Vec<u8>>();
                    if !partial.is_empty() {
                        let ev = self.evidence(sent, &partial);
                        observe::violation(rec, Violation::unterminated(&partial), &ev);
                    }
                    return Read::Eof;
                }
                ReadEvent::Timeout { partial } => {
                    let partial = joined.map(|(acc, _)| acc).unwrap_or_default().into_iter().chain(partial).collect();
                    return Read::Timeout(partial);
                }
            }
        }
    }

    /// After a request went unanswered: close stdin and see whether the
    /// reply was sitting in the plugin's stdout buffer all along. A plugin
    /// that flushes only at exit writes as soon as it reads EOF; a reply that
    /// takes longer than [`FLUSH_WINDOW`] was just late.
    pub(crate) async fn diagnose_silence(&mut self, rec: &mut Recorder) -> Silence {
        self.process.close_stdin();
        let closed = std::time::Instant::now();
        let shutdown = self.process.deadlines().shutdown;
        match self.read_message(rec, shutdown, b"").await {
            Read::Message(msg) if closed.elapsed() <= FLUSH_WINDOW => Silence::Buffered(msg),
            Read::Message(msg) => Silence::Late { msg, after_close: closed.elapsed() },
            _ => Silence::Nothing,
        }
    }

    pub(crate) async fn shutdown(self) -> Shutdown {
        self.process.shutdown().await
    }
}

/// How often a silent plugin is looked at, once proctor's patience is spent.
const IDLE_LOOK: Duration = Duration::from_millis(250);

/// How soon after stdin closes a buffered reply shows up: the plugin only
/// has to read EOF and exit.
pub(crate) const FLUSH_WINDOW: std::time::Duration = std::time::Duration::from_millis(500);

/// What closing stdin after an unanswered request revealed.
pub(crate) enum Silence {
    /// The reply came out at once: it was held in a stdout buffer.
    Buffered(Incoming),
    /// The reply came, but well after stdin closed: the plugin was slow.
    Late {
        /// The reply.
        msg: Incoming,
        /// How long after stdin closed.
        after_close: std::time::Duration,
    },
    /// Nothing came.
    Nothing,
}

pub(crate) enum Read {
    Message(Incoming),
    Timeout(Vec<u8>),
    Eof,
}

/// Records the JSON-RPC envelope checks a reply decides; returns the body.
pub(crate) fn check_envelope(rec: &mut Recorder, envelope: &Envelope, sent_id: &Value, evidence: &Evidence) {
    if envelope.version_ok() {
        rec.pass("JSONRPC-VERSION", evidence.clone());
    } else {
        let actual = envelope.version.as_ref().map_or("missing".to_string(), Value::to_string);
        rec.fail("JSONRPC-VERSION", Failure::Mismatch { path: "$.jsonrpc".into(), expected: "\"2.0\"".into(), actual }, evidence.clone());
    }
    let sent = Id::of(&json!({"id": sent_id}));
    if envelope.id == sent {
        rec.pass("JSONRPC-ID-ECHO", evidence.clone());
    } else {
        rec.fail("JSONRPC-ID-ECHO", Failure::IdMismatch { sent: sent.to_string(), received: envelope.id.to_string() }, evidence.clone());
    }
    match &envelope.body {
        ReplyBody::Result(_) => rec.pass("JSONRPC-RESULT-XOR-ERROR", evidence.clone()),
        ReplyBody::Error(err) => {
            rec.pass("JSONRPC-RESULT-XOR-ERROR", evidence.clone());
            match error_object_problem(err) {
                None => rec.pass("JSONRPC-ERROR-SHAPE", evidence.clone()),
                Some(problem) => rec.fail(
                    "JSONRPC-ERROR-SHAPE",
                    Failure::Mismatch {
                        path: "$.error".into(),
                        expected: "{\"code\": <integer>, \"message\": <string>}".into(),
                        actual: problem,
                    },
                    evidence.clone(),
                ),
            }
        }
        ReplyBody::Both => rec.fail(
            "JSONRPC-RESULT-XOR-ERROR",
            Failure::Mismatch { path: "$".into(), expected: "exactly one of result and error".into(), actual: "both".into() },
            evidence.clone(),
        ),
        ReplyBody::Neither => rec.fail(
            "JSONRPC-RESULT-XOR-ERROR",
            Failure::Mismatch { path: "$".into(), expected: "exactly one of result and error".into(), actual: "neither".into() },
            evidence.clone(),
        ),
    }
}
