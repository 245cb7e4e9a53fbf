//! The mock plugin's stdio loop: read requests, answer them, apply faults.
//!
//! [`serve`] works on any reader and writers so tests can drive it in memory.
//! What needs the real process (signals, children, sleeping instead of
//! exiting, the exit status itself) lives in [`run`](super::run), which reads
//! the [`Ending`] returned here.

use std::io::{self, Read, Write};

use proctor_conformance::protocol::{Family, Transport};
use serde_json::Value;

use super::config::MockPluginConfig;
use super::envelope;
use super::fault::Fault;
use super::frame::{Framer, LOG_LINE};
use super::misbehave::{self, Site};
use super::pipe::{LineSource, Sink, read_all, read_complete_lines};
use super::reply::{self, Answer};
use super::rpc::{self, Incoming, METHOD_NOT_FOUND, RpcError, SERVER_ERROR};
use super::strict;

/// The stderr line of [`Fault::StderrLongLine`]: 1.1 MiB, so more than a pipe
/// buffer is left once a 1 MiB reader stops.
const LONG_STDERR_LINE: usize = 1126 * 1024;
/// Bytes written by [`Fault::StderrFlood`] and [`Fault::StdoutFlood`]: far
/// beyond any pipe buffer, so a host that does not drain blocks the plugin.
pub const FLOOD_BYTES: usize = 50 * 1024 * 1024;
/// The key [`Fault::LateReply`] adds to an object result, naming the
/// request it answers, so `proctor verify` can tell a late reply that a
/// runtime delivered to a later call.
pub const LATE_REPLY_MARKER: &str = "proctor_late_reply_to";

/// Marks a late object result with the id it answers.
fn mark_late(answer: &mut Answer, id: &Value) {
    if let Answer::Result(Value::Object(map)) = answer {
        map.insert(LATE_REPLY_MARKER.to_string(), id.clone());
    }
}

/// How late [`Fault::LateReply`] answers.
pub const LATE_REPLY: std::time::Duration = std::time::Duration::from_secs(6);

/// Why [`serve`] stopped, which decides how the process ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// stdin reached EOF and every reply owed was written: exit normally.
    InputClosed,
    /// [`Fault::CrashAfter`] fired: exit(1) at once (held output is lost).
    Crashed,
    /// [`Fault::Hang`] fired: the plugin stopped answering and must not exit.
    Hung,
}

/// An I/O failure while serving; the plugin cannot continue.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// stdin could not be read.
    #[error("failed to read requests from stdin")]
    Read(#[source] io::Error),
    /// stdout refused a reply (usually the host closed it).
    #[error("failed to write a reply to stdout")]
    Write(#[source] io::Error),
    /// stderr refused the flood.
    #[error("failed to write to stderr")]
    Diagnostics(#[source] io::Error),
}

/// Serves one plugin lifetime: reads `input` to EOF (or until a fault stops
/// it), writes replies to `output` and diagnostics to `diag`.
///
/// One-shot families read one document; line families answer each line as
/// it is read, so pipelined requests are answered in order.
pub fn serve<R: Read, W: Write, E: Write>(config: &MockPluginConfig, input: R, output: W, diag: E) -> Result<Ending, ServeError> {
    let line_protocol = config.family.transport() == Transport::LongLivedJsonRpc;
    let mut session = Session {
        config,
        framer: Framer::new(config),
        out: Sink::new(output, line_protocol && config.has(Fault::NoFlush)),
        diag,
        line_protocol,
        answered: 0,
        wrote_reply: false,
        flooded: false,
        hung: false,
    };
    if line_protocol { session.lines(input) } else { session.one_shot(input) }
}

/// What to do after one request.
enum Flow {
    Continue,
    Crash,
    Hang,
}

struct Session<'c, W: Write, E: Write> {
    config: &'c MockPluginConfig,
    framer: Framer,
    out: Sink<W>,
    diag: E,
    line_protocol: bool,
    /// Requests answered so far, for [`Fault::CrashAfter`].
    answered: u32,
    wrote_reply: bool,
    flooded: bool,
    hung: bool,
}

impl<W: Write, E: Write> Session<'_, W, E> {
    fn has(&self, fault: Fault) -> bool {
        self.config.has(fault)
    }

    /// The semantic faults that bend the answer to `request`: all of them,
    /// or with [`Fault::OnlyMarked`] none unless the request carries the mark.
    fn semantic_faults(&self, request: &Value) -> &[Fault] {
        if self.has(Fault::OnlyMarked) && !request.to_string().contains(super::fault::MARK) { &[] } else { &self.config.faults }
    }

    fn one_shot<R: Read>(&mut self, input: R) -> Result<Ending, ServeError> {
        let request = if self.has(Fault::NeedsNewline) { read_complete_lines(input) } else { read_all(input) }.map_err(ServeError::Read)?;
        if self.has(Fault::Hang) {
            return Ok(Ending::Hung);
        }
        if self.crash_due() {
            return Ok(Ending::Crashed);
        }
        let no_input = self.has(Fault::NeedsNewline) && request.trim_ascii().is_empty();
        let flow = match (self.config.family, no_input) {
            (Family::PromptkitExec, _) => self.exec_document(&request, no_input)?,
            (_, true) => {
                let default = reply::runok_no_input();
                let answer = Answer::Result(default["result"].clone());
                self.respond(&default["id"], &answer)?;
                self.answered_one()
            }
            (_, false) => self.handle_rpc(&request)?,
        };
        if let Flow::Crash = flow {
            return Ok(Ending::Crashed);
        }
        self.out.finish().map_err(ServeError::Write)?;
        Ok(Ending::InputClosed)
    }

    fn exec_document(&mut self, request: &[u8], no_input: bool) -> Result<Flow, ServeError> {
        let roles = self.config.effective_roles();
        let answer = if no_input {
            reply::exec_no_input(reply::exec_role(None, roles))
        } else {
            match serde_json::from_slice::<Value>(request) {
                Err(err) => reply::exec_unreadable(reply::exec_role(None, roles), &err.to_string()),
                Ok(req) if self.has(Fault::CrashOnQuote) && quote_in_args(&req) => {
                    self.say_crash_on_quote();
                    return Ok(Flow::Crash);
                }
                Ok(req) => {
                    let role = reply::exec_role(Some(&req), roles);
                    match self.strict_exec(role, &req) {
                        Some(rejection) => rejection,
                        None => {
                            let answer = reply::exec_answer(role, self.config.decision, &req);
                            let site =
                                if role == proctor_conformance::protocol::Role::Selector { Site::Selector(&req) } else { Site::Exec(role) };
                            misbehave::apply(self.semantic_faults(&req), site, answer)
                        }
                    }
                }
            }
        };
        self.before_first_answer()?;
        if let Answer::Result(doc) = answer {
            self.emit(doc, false)?;
        }
        Ok(self.answered_one())
    }

    fn strict_exec(&self, role: proctor_conformance::protocol::Role, req: &Value) -> Option<Answer> {
        if !self.has(Fault::StrictFields) {
            return None;
        }
        strict::exec_unknown_field(role, req).map(|field| strict::exec_rejection(role, &field))
    }

    fn lines<R: Read>(&mut self, input: R) -> Result<Ending, ServeError> {
        let mut source = if self.has(Fault::DropPipelined) { LineSource::naive(input) } else { LineSource::careful(input) };
        let mut line = Vec::new();
        while source.next_line(&mut line).map_err(ServeError::Read)? {
            if let Some(end) = self.on_line(&line)? {
                return Ok(end);
            }
        }
        if self.hung {
            return Ok(Ending::Hung);
        }
        self.out.finish().map_err(ServeError::Write)?;
        Ok(Ending::InputClosed)
    }

    fn on_line(&mut self, raw: &[u8]) -> Result<Option<Ending>, ServeError> {
        let line = raw.strip_suffix(b"\n").unwrap_or(raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if self.hung || line.trim_ascii().is_empty() {
            return Ok(None);
        }
        match self.handle_rpc(line)? {
            Flow::Continue => Ok(None),
            Flow::Hang => {
                self.hung = true;
                Ok(None)
            }
            Flow::Crash => Ok(Some(Ending::Crashed)),
        }
    }

    /// Answers one JSON-RPC message (a line, or runok's whole stdin).
    fn handle_rpc(&mut self, bytes: &[u8]) -> Result<Flow, ServeError> {
        let message = match rpc::parse(bytes) {
            Ok(message) => message,
            Err(error) => {
                self.respond(&Value::Null, &Answer::Error(error))?;
                return Ok(Flow::Continue);
            }
        };
        match rpc::classify(&message) {
            Incoming::Invalid { id, error } => {
                self.respond(&id, &Answer::Error(error))?;
                Ok(Flow::Continue)
            }
            Incoming::Notification { .. } => {
                if self.has(Fault::ReplyToNotification) {
                    self.emit(envelope::notification_response(&self.config.faults), true)?;
                }
                Ok(Flow::Continue)
            }
            Incoming::Request { id, method, params } => {
                // Hanging at the handshake is `no-hello`'s job; `hang` stalls real work.
                let hello = self.config.family == Family::PicoclawHook && method == "hook.hello";
                if self.has(Fault::Hang) && !hello {
                    return Ok(Flow::Hang);
                }
                if self.crash_due() {
                    return Ok(Flow::Crash);
                }
                if self.has(Fault::CrashOnQuote) && quote_in_args(&params) {
                    self.say_crash_on_quote();
                    return Ok(Flow::Crash);
                }
                if self.has(Fault::LateReply) && !hello {
                    std::thread::sleep(LATE_REPLY);
                }
                let mut answer = self.rpc_answer(&message, &method, &params);
                if self.has(Fault::LateReply) && !hello {
                    mark_late(&mut answer, &id);
                }
                if answer == Answer::Nothing {
                    return Ok(Flow::Continue);
                }
                self.respond(&id, &answer)?;
                Ok(self.answered_one())
            }
        }
    }

    fn rpc_answer(&self, message: &Value, method: &str, params: &Value) -> Answer {
        let config = self.config;
        if self.has(Fault::StrictFields)
            && let Some(field) = strict::rpc_unknown_field(config.family, message)
        {
            return strict::rpc_rejection(&field);
        }
        if config.family == Family::PicoclawHook && method == "hook.hello" {
            if self.has(Fault::NoHello) {
                return Answer::Nothing;
            }
            if self.has(Fault::HelloError) {
                return Answer::Error(RpcError::new(SERVER_ERROR, "mock refuses the handshake"));
            }
        }
        let roles = config.effective_roles();
        let answer = reply::rpc_answer(config.family, roles, config.decision, method, params);
        let site = match config.family {
            Family::PromptkitServer => Site::Server,
            Family::PicoclawHook => Site::Picoclaw { method, params },
            _ => Site::Runok,
        };
        let answer = misbehave::apply(self.semantic_faults(message), site, answer);
        let unknown = matches!(&answer, Answer::Error(e) if e.code == METHOD_NOT_FOUND);
        if unknown && self.has(Fault::IgnoreUnknownMethod) { Answer::Nothing } else { answer }
    }

    fn respond(&mut self, id: &Value, answer: &Answer) -> Result<(), ServeError> {
        match envelope::response(&self.config.faults, id, answer) {
            Some(reply) => self.emit(reply, true),
            None => Ok(()),
        }
    }

    /// The stderr line a crashing plugin typically leaves (evidence in reports).
    fn say_crash_on_quote(&mut self) {
        let _ = writeln!(self.diag, "mock plugin: crash-on-quote: a '\"' in the tool arguments");
        let _ = self.diag.flush();
    }

    fn crash_due(&self) -> bool {
        self.has(Fault::CrashAfter) && self.answered >= self.config.crash_after_count()
    }

    fn answered_one(&mut self) -> Flow {
        self.answered = self.answered.saturating_add(1);
        if self.crash_due() { Flow::Crash } else { Flow::Continue }
    }

    /// Writes one reply with the framing faults that act per write.
    fn emit(&mut self, reply: Value, jsonrpc: bool) -> Result<(), ServeError> {
        if self.has(Fault::EmptyOutput) && !self.line_protocol {
            return Ok(());
        }
        self.before_first_answer()?;
        let truncated = self.has(Fault::TruncatedLine);
        let partial = (self.has(Fault::PartialLine) && self.line_protocol) || truncated;
        let mut frame = Vec::new();
        if self.has(Fault::LogLine) && (self.line_protocol || !self.wrote_reply) {
            frame.extend_from_slice(LOG_LINE.as_bytes());
        }
        let mut body = self.framer.encode(reply, jsonrpc, !partial);
        if truncated {
            body.truncate(body.len() / 2);
        }
        frame.extend_from_slice(&body);
        if (self.has(Fault::TwoDocuments) || self.has(Fault::DuplicateId)) && !partial {
            frame.extend_from_slice(&body);
        }
        self.out.write(&frame).map_err(ServeError::Write)?;
        if partial {
            self.out.stopped = true;
        }
        if self.has(Fault::StderrLongLine) && !self.wrote_reply {
            // One line past PicoClaw's 1 MiB stderr scanner; it blocks here where nobody reads on.
            let mut line = vec![b'e'; LONG_STDERR_LINE];
            line.push(b'\n');
            self.diag.write_all(&line).map_err(ServeError::Diagnostics)?;
            self.diag.flush().map_err(ServeError::Diagnostics)?;
        }
        self.wrote_reply = true;
        Ok(())
    }

    /// The floods, once, just before the first answer is due.
    fn before_first_answer(&mut self) -> Result<(), ServeError> {
        if std::mem::replace(&mut self.flooded, true) {
            return Ok(());
        }
        if self.has(Fault::StderrFlood) {
            // Short lines, so a line-based stderr reader is tested on volume,
            // not on line length.
            let mut line = vec![b'e'; 1023];
            line.push(b'\n');
            let block = line.repeat(1024);
            for _ in 0..FLOOD_BYTES / block.len() {
                self.diag.write_all(&block).map_err(ServeError::Diagnostics)?;
            }
            self.diag.flush().map_err(ServeError::Diagnostics)?;
        }
        if self.has(Fault::StdoutFlood) {
            let block = vec![b'x'; 1024 * 1024];
            for _ in 0..FLOOD_BYTES / block.len() {
                self.out.write(&block).map_err(ServeError::Write)?;
            }
        }
        Ok(())
    }
}

/// Whether a string (or key) in the tool arguments (`args`, or PicoClaw's
/// `arguments`) of `holder` contains a double quote: [`Fault::CrashOnQuote`].
fn quote_in_args(holder: &Value) -> bool {
    fn quoted(v: &Value) -> bool {
        match v {
            Value::String(s) => s.contains('"'),
            Value::Array(items) => items.iter().any(quoted),
            Value::Object(m) => m.iter().any(|(k, v)| k.contains('"') || quoted(v)),
            _ => false,
        }
    }
    ["args", "arguments"].iter().filter_map(|k| holder.get(*k)).any(quoted)
}

#[cfg(test)]
#[path = "serve_tests.rs"]
mod tests;
