//! Runs a [`Script`](super::script::Script): the mock plugin whose every byte
//! comes from a behaviour file (`proctor mock-plugin --script FILE`).
//!
//! Script bytes are written with one write and one flush each, straight to
//! fd 1. Write failures (a host that closed stdout) are ignored, so the exit
//! status stays the script's. A stdin that cannot be read, or a line over
//! the mock's byte cap, ends the plugin with status 1 and a message on stderr.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::thread;
use std::time::Duration;

use serde::de::{DeserializeOwned, IgnoredAny};

use super::pipe::{LineSource, read_all};
use super::run::{raw_stdin, raw_stdout, recording};
use super::script::{AtEof, Chunks, LongLived, OneShot, OneShotThen, Script, Step, StepThen};

/// Runs `script` on this process's stdio and returns the exit status (the
/// caller exits with it). `hang` and `signal` never return.
pub fn run_script(script: &Script) -> i32 {
    play(script, raw_stdin())
}

/// [`run_script`], recording stdin as [`run_recording`](super::run_recording) does.
pub fn run_script_recording(script: &Script, record: std::fs::File) -> io::Result<i32> {
    recording(record, |stdin| play(script, stdin))
}

fn play(script: &Script, stdin: Box<dyn Read>) -> i32 {
    let process = match script {
        Script::OneShot(s) => &s.process,
        Script::LongLived(s) => &s.process,
    };
    sleep_ms(process.start_delay_ms);
    if let Some(child) = process.child {
        child.start();
    }
    let mut out = Out { stdout: Some(raw_stdout()), chunks: process.write_chunks, stderr_repeat: process.stderr_repeat };
    match script {
        Script::OneShot(s) => one_shot(s, stdin, &mut out),
        Script::LongLived(s) => long_lived(s, stdin, &mut out),
    }
}

fn one_shot(script: &OneShot, stdin: Box<dyn Read>, out: &mut Out) -> i32 {
    let id = if script.read_stdin {
        match read_all(stdin) {
            Ok(request) => request_id(&request),
            Err(err) => return failed("failed to read the request from stdin", &err),
        }
    } else {
        drop(stdin);
        b"null".to_vec()
    };
    sleep_ms(script.delay_ms);
    out.stderr(&script.stderr);
    out.write(&script.stdout.render(&id));
    sleep_ms(script.linger_ms);
    match script.then {
        OneShotThen::Exit => script.exit,
        OneShotThen::Hang => hang(),
        OneShotThen::CloseThenHang => {
            out.close();
            hang()
        }
        OneShotThen::Signal => kill_self(),
    }
}

fn long_lived(script: &LongLived, stdin: Box<dyn Read>, out: &mut Out) -> i32 {
    out.stderr(&script.stderr);
    out.write(&script.banner);
    let mut lines = LineSource::careful(stdin);
    let mut line = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut discarding = false;
    loop {
        match lines.next_line(&mut line) {
            Ok(true) => {}
            Ok(false) => return at_eof(&script.at_eof, out),
            Err(err) => return failed("failed to read a request from stdin", &err),
        }
        if discarding {
            continue;
        }
        let request = probe(&line);
        let method = request.as_ref().and_then(|r| r.method.as_deref());
        let Some((key, steps)) = method.and_then(|m| script.on.get_key_value(m)).or_else(|| script.on.get_key_value("*")) else {
            continue;
        };
        let count = seen.entry(key.as_str()).or_insert(0);
        let Some(step) = steps.get(*count).or_else(|| steps.last()) else { continue };
        *count += 1;
        let id = request.and_then(|r| r.id).unwrap_or_else(|| b"null".to_vec());
        match play_step(step, &id, out) {
            StepThen::Continue => {}
            StepThen::CloseStdout => discarding = true,
            StepThen::Exit => return step.exit,
            StepThen::Hang => hang(),
            StepThen::Signal => kill_self(),
        }
    }
}

fn play_step(step: &Step, id: &[u8], out: &mut Out) -> StepThen {
    sleep_ms(step.delay_ms);
    out.stderr(&step.stderr);
    if !step.write.bytes.is_empty() {
        out.write(&step.write.render(id));
    }
    if step.then == StepThen::CloseStdout {
        out.close();
    }
    step.then
}

fn at_eof(at_eof: &AtEof, out: &mut Out) -> i32 {
    out.stderr(&at_eof.stderr);
    sleep_ms(at_eof.delay_ms);
    at_eof.exit
}

/// stdout, until the script closes it, and stderr, as the script writes them.
struct Out {
    stdout: Option<Box<dyn Write>>,
    chunks: Option<Chunks>,
    stderr_repeat: usize,
}

impl Out {
    /// One write and flush, or the script's pieces: a write that fails
    /// (the host closed stdout) ends this one quietly.
    fn write(&mut self, bytes: &[u8]) {
        let Some(stdout) = &mut self.stdout else { return };
        let Some(chunks) = self.chunks else {
            if !bytes.is_empty() {
                let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
            }
            return;
        };
        for (i, piece) in bytes.chunks(chunks.bytes).enumerate() {
            if i > 0 {
                sleep_ms(chunks.gap_ms);
            }
            if stdout.write_all(piece).and_then(|()| stdout.flush()).is_err() {
                return;
            }
        }
    }

    /// `bytes` to stderr, as many times as the script says.
    fn stderr(&self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut err = io::stderr().lock();
        for _ in 0..self.stderr_repeat {
            if err.write_all(bytes).is_err() {
                return;
            }
        }
        let _ = err.flush();
    }

    /// Closes our copy of fd 1 and points fd 1 itself at /dev/null, so the
    /// host's read end sees EOF while the process lives on.
    fn close(&mut self) {
        self.stdout = None;
        #[cfg(unix)]
        if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
            let _ = rustix::stdio::dup2_stdout(&null);
        }
    }
}

fn failed(what: &str, err: &io::Error) -> i32 {
    let _ = writeln!(io::stderr(), "proctor mock plugin: {what}: {err}");
    1
}

fn sleep_ms(ms: u64) {
    if ms > 0 {
        thread::sleep(Duration::from_millis(ms));
    }
}

/// Sleeps until killed.
fn hang() -> ! {
    loop {
        thread::sleep(Duration::from_secs(3600));
    }
}

/// SIGKILL to ourselves: no handler, no exit status, no flush.
fn kill_self() -> ! {
    let _ = rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::KILL);
    hang()
}

/// The request id of a one-shot document as raw JSON text (`null` when none).
fn request_id(request: &[u8]) -> Vec<u8> {
    probe(request).and_then(|r| r.id).unwrap_or_else(|| b"null".to_vec())
}

/// What a script needs from one request: its top-level `method` (when a
/// string) and the raw JSON text of its `id`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    pub(crate) method: Option<String>,
    pub(crate) id: Option<Vec<u8>>,
}

/// Reads `line` as one JSON object (surrounding whitespace allowed); `None`
/// when it is not one. Bytes that are not UTF-8 are read lossily (U+FFFD),
/// as a tolerant plugin would. Duplicate keys: the last one wins.
pub(crate) fn probe(line: &[u8]) -> Option<Probe> {
    members(line).or_else(|| members(String::from_utf8_lossy(line).as_bytes()))
}

fn members(text: &[u8]) -> Option<Probe> {
    let mut probe = Probe { method: None, id: None };
    let mut pos = skip_ws(text, 0);
    if text.get(pos) != Some(&b'{') {
        return None;
    }
    pos = skip_ws(text, pos + 1);
    if text.get(pos) == Some(&b'}') {
        return only_ws(text, pos + 1).then_some(probe);
    }
    loop {
        if text.get(pos) != Some(&b'"') {
            return None;
        }
        let (key, end) = value_at::<String>(text, pos)?;
        pos = skip_ws(text, end);
        if text.get(pos) != Some(&b':') {
            return None;
        }
        pos = skip_ws(text, pos + 1);
        let (_, end) = value_at::<IgnoredAny>(text, pos)?;
        let value = text.get(pos..end)?;
        match key.as_str() {
            "id" => probe.id = Some(value.to_vec()),
            "method" => probe.method = serde_json::from_slice::<serde_json::Value>(value).ok()?.as_str().map(str::to_string),
            _ => {}
        }
        pos = skip_ws(text, end);
        match text.get(pos) {
            Some(b',') => pos = skip_ws(text, pos + 1),
            Some(b'}') => return only_ws(text, pos + 1).then_some(probe),
            _ => return None,
        }
    }
}

/// The JSON value starting at `pos` and the offset just after it.
fn value_at<T: DeserializeOwned>(text: &[u8], pos: usize) -> Option<(T, usize)> {
    let mut stream = serde_json::Deserializer::from_slice(text.get(pos..)?).into_iter::<T>();
    let value = stream.next()?.ok()?;
    Some((value, pos + stream.byte_offset()))
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_ws(text: &[u8], mut pos: usize) -> usize {
    while text.get(pos).is_some_and(|&b| is_ws(b)) {
        pos += 1;
    }
    pos
}

fn only_ws(text: &[u8], pos: usize) -> bool {
    text.get(pos..).is_some_and(|rest| rest.iter().all(|&b| is_ws(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(line: &str) -> Option<Vec<u8>> {
        probe(line.as_bytes()).and_then(|p| p.id)
    }

    #[test]
    fn probe_keeps_the_raw_id_text() {
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":7,"method":"m"}"#).unwrap(), b"7");
        assert_eq!(id(r#"{"id" : "a\u0062c" , "method":"m"}"#).unwrap(), br#""a\u0062c""#);
        assert_eq!(id(r#" {"id":1.50e1}"#).unwrap(), b"1.50e1");
        assert_eq!(id(r#"{"id":{"x":[1,2]}}"#).unwrap(), br#"{"x":[1,2]}"#);
        assert_eq!(id(r#"{"id":1,"id":2}"#).unwrap(), b"2");
        assert_eq!(id(r#"{"method":"m"}"#), None);
        let p = probe(b"{\"method\":\"hook.hello\",\"id\":3}\r\n").unwrap();
        assert_eq!((p.method.as_deref(), p.id.as_deref()), (Some("hook.hello"), Some(&b"3"[..])));
    }

    #[test]
    fn probe_refuses_what_is_not_one_object() {
        for bad in ["", "\n", "[1]", "{", r#"{"id":1} x"#, r#"{"id":01}"#, r#"{"id":1,}"#, r#"{"a" 1}"#, r#"{1:2}"#, "{}{}"] {
            assert_eq!(probe(bad.as_bytes()), None, "{bad:?}");
        }
        assert_eq!(probe(b"{}").unwrap(), Probe { method: None, id: None });
        assert_eq!(probe(br#"{"method":5}"#).unwrap().method, None);
    }

    #[test]
    fn probe_reads_invalid_utf8_lossily() {
        let p = probe(b"{\"method\":\"m\",\"params\":\"\xff\",\"id\":9}\n").unwrap();
        assert_eq!((p.method.as_deref(), p.id.as_deref()), (Some("m"), Some(&b"9"[..])));
    }
}
