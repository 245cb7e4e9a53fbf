//! The behaviour file of `proctor mock-plugin --script FILE`: a plugin whose
//! every byte is dictated by JSON, for differential tests that run the same
//! generated plugin through proctor and through the real runtimes.
//!
//! Every text field `X` has an alternative `X_hex` (lowercase hex of raw
//! bytes, for bytes that are not UTF-8); giving both is an error. `$ID` in
//! `stdout`/`write` (text or `_hex` alike, so a reply with invalid UTF-8
//! still carries the request's id) is replaced by the request's `id` exactly
//! as its raw JSON text appeared (`7`, `"abc"`), or `null` when there is
//! none. Unknown keys are errors.
//!
//! One-shot families (`promptkit-exec`, `runok-extension`):
//!
//! ```json
//! {"read_stdin": true, "delay_ms": 0, "stderr": "", "stdout": "...", "exit": 0, "then": "exit"}
//! ```
//!
//! `read_stdin` (default true) reads stdin to EOF first (false: never reads
//! it); then sleep `delay_ms`, write `stderr`, write `stdout` (no newline
//! added), then `then`: `exit` (default, with `exit`), `hang` (sleep until
//! killed, stdout open), `close_then_hang` (close stdout, then sleep until
//! killed) or `signal` (SIGKILL itself). `exit` is only allowed with `then: exit`.
//!
//! Long-lived families (`picoclaw-hook`, `promptkit-server`):
//!
//! ```json
//! {"stderr": "", "banner": "",
//!  "on": {"hook.hello": {"write": "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{}}\n"},
//!         "hook.before_tool": [{"write": "..."}, {"write": "...", "then": "exit", "exit": 3}],
//!         "*": {}},
//!  "at_eof": {"stderr": "", "delay_ms": 0, "exit": 0}}
//! ```
//!
//! At start-up `stderr` then `banner` (stdout) are written. Each stdin line is
//! matched by its top-level `method` (a line that is not a JSON object or has
//! no string `method` matches `"*"`; invalid UTF-8 is matched on a lossy
//! parse); a key without match and without `"*"` writes nothing. A key's value
//! is one step or a non-empty list of steps used in order, the last repeating.
//! A step sleeps `delay_ms`, writes `stderr`, writes `write` (one write and
//! flush; nothing when absent), then `then`: `continue` (default), `hang`
//! (stop reading, stdout open, sleep until killed), `exit` (with the step's
//! `exit`, default 0; `exit` is only allowed with `then: exit`),
//! `close_stdout` (close stdout, read and discard stdin, then `at_eof`) or
//! `signal` (SIGKILL itself). At stdin EOF: `at_eof`'s `stderr`, its
//! `delay_ms`, then exit with its `exit` (default 0). Exit statuses are 0–255.
//!
//! Both kinds take what the process does around its answers:
//!
//! ```json
//! {"start_delay_ms": 0, "stderr_repeat": 1, "write_chunks": {"bytes": 7, "gap_ms": 1},
//!  "child": {"ms": 4000, "holds": "stdout", "own_session": false}}
//! ```
//!
//! `start_delay_ms` sleeps before anything else (a slow start: before the
//! one-shot reads stdin, before the long-lived one's stderr and banner).
//! `child` starts a `sleep` of `ms` first, holding `none` (default),
//! `stdout`, `stderr` or `both` of the plugin's pipes, in the plugin's
//! process group or, with `own_session`, out of it. `stderr_repeat` writes
//! every stderr text that many times in a row (volume without a huge file).
//! `write_chunks` cuts every stdout write into writes of `bytes` bytes with
//! `gap_ms` between them (partial writes, as a slow or unbuffered plugin makes).

use std::collections::HashMap;
use std::fmt;

use std::time::Duration;

use proctor_conformance::protocol::{Family, Transport};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use super::sleeper::{Holds, Sleeper};

/// A parsed and validated behaviour file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Script {
    /// For `promptkit-exec` and `runok-extension`.
    OneShot(OneShot),
    /// For `picoclaw-hook` and `promptkit-server`.
    LongLived(LongLived),
}

/// A one-shot plugin's whole life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneShot {
    /// Read stdin to EOF before anything else (default); `false`: never read it.
    pub read_stdin: bool,
    /// Milliseconds to sleep before writing.
    pub delay_ms: u64,
    /// Written to stdout exactly, after `stderr`.
    pub stdout: Text,
    /// Written to stderr.
    pub stderr: Vec<u8>,
    /// The exit status with [`OneShotThen::Exit`].
    pub exit: i32,
    /// Milliseconds to sleep after writing, before `then`.
    pub linger_ms: u64,
    /// What happens after writing.
    pub then: OneShotThen,
    /// What the process does around its answer.
    pub process: Process,
}

/// What a scripted process does around its answers, whatever its family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Process {
    /// Milliseconds to sleep before reading or writing anything.
    pub start_delay_ms: u64,
    /// A child started first, left to run on.
    pub child: Option<Sleeper>,
    /// How many times each stderr text is written in a row (at least 1).
    pub stderr_repeat: usize,
    /// stdout writes cut into pieces, or whole.
    pub write_chunks: Option<Chunks>,
}

impl Default for Process {
    fn default() -> Self {
        Process { start_delay_ms: 0, child: None, stderr_repeat: 1, write_chunks: None }
    }
}

/// stdout written in pieces of `bytes`, `gap_ms` apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunks {
    /// The size of each write but the last (at least 1).
    pub bytes: usize,
    /// Milliseconds between two writes.
    pub gap_ms: u64,
}

/// What a one-shot plugin does after writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OneShotThen {
    /// Exit with the script's `exit` (the default).
    #[default]
    Exit,
    /// Sleep until killed, stdout open.
    Hang,
    /// Close stdout, then sleep until killed.
    CloseThenHang,
    /// SIGKILL itself.
    Signal,
}

/// A long-lived plugin: start-up output, steps per method, what to do at EOF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongLived {
    /// Written to stdout at start-up, before anything is read.
    pub banner: Vec<u8>,
    /// Written to stderr at start-up, before the banner.
    pub stderr: Vec<u8>,
    /// Steps by method (`"*"`: any other); never an empty list.
    pub on: HashMap<String, Vec<Step>>,
    /// What happens at stdin EOF.
    pub at_eof: AtEof,
    /// What the process does around its answers.
    pub process: Process,
}

/// The answer to one request line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Written to stdout in one write and flush (nothing when empty).
    pub write: Text,
    /// Milliseconds to sleep before writing.
    pub delay_ms: u64,
    /// Written to stderr before `write`.
    pub stderr: Vec<u8>,
    /// What happens after writing.
    pub then: StepThen,
    /// The exit status with [`StepThen::Exit`].
    pub exit: i32,
}

/// What a long-lived plugin does after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepThen {
    /// Read the next line (the default).
    #[default]
    Continue,
    /// Stop reading, keep stdout open, sleep until killed.
    Hang,
    /// Exit now with the step's `exit`.
    Exit,
    /// Close stdout, read and discard stdin, then [`AtEof`].
    CloseStdout,
    /// SIGKILL itself.
    Signal,
}

/// What happens at stdin EOF.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AtEof {
    /// The exit status.
    pub exit: i32,
    /// Written to stderr first.
    pub stderr: Vec<u8>,
    /// Milliseconds to sleep before exiting.
    pub delay_ms: u64,
}

/// Bytes to write; `$ID` in them stands for the request's id.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    /// The bytes as given.
    pub bytes: Vec<u8>,
}

impl Text {
    /// The bytes with every `$ID` replaced by `id`.
    pub fn render(&self, id: &[u8]) -> Vec<u8> {
        const NEEDLE: &[u8] = b"$ID";
        let mut out = Vec::with_capacity(self.bytes.len() + 16);
        let mut rest = self.bytes.as_slice();
        while let Some(pos) = rest.windows(NEEDLE.len()).position(|w| w == NEEDLE) {
            out.extend_from_slice(&rest[..pos]);
            out.extend_from_slice(id);
            rest = &rest[pos + NEEDLE.len()..];
        }
        out.extend_from_slice(rest);
        out
    }
}

/// Why a behaviour file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScriptError(pub String);

impl Script {
    /// Parses and validates `text` as a script for `family`.
    pub fn parse(family: Family, text: &str) -> Result<Script, ScriptError> {
        let raw: RawScript = serde_json::from_str(text).map_err(|e| ScriptError(e.to_string()))?;
        raw.validate(family).map_err(ScriptError)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScript {
    // One-shot.
    read_stdin: Option<bool>,
    delay_ms: Option<u64>,
    stdout: Option<String>,
    stdout_hex: Option<String>,
    exit: Option<i64>,
    then: Option<OneShotThen>,
    // Both.
    stderr: Option<String>,
    stderr_hex: Option<String>,
    linger_ms: Option<u64>,
    // Both.
    start_delay_ms: Option<u64>,
    child: Option<RawChild>,
    stderr_repeat: Option<usize>,
    write_chunks: Option<RawChunks>,
    // Long-lived.
    banner: Option<String>,
    banner_hex: Option<String>,
    on: Option<HashMap<String, Steps>>,
    at_eof: Option<RawAtEof>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChild {
    ms: u64,
    #[serde(default)]
    holds: Holds,
    #[serde(default)]
    own_session: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChunks {
    bytes: usize,
    #[serde(default)]
    gap_ms: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    write: Option<String>,
    write_hex: Option<String>,
    delay_ms: Option<u64>,
    stderr: Option<String>,
    stderr_hex: Option<String>,
    then: Option<StepThen>,
    exit: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAtEof {
    exit: Option<i64>,
    stderr: Option<String>,
    stderr_hex: Option<String>,
    delay_ms: Option<u64>,
}

/// One step or a list of them, keeping serde_json's line and column in errors
/// (an untagged enum would only say "did not match any variant").
struct Steps(Vec<RawStep>);

impl<'de> Deserialize<'de> for Steps {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StepsVisitor;
        impl<'de> Visitor<'de> for StepsVisitor {
            type Value = Steps;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a step object or a list of step objects")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Steps, A::Error> {
                RawStep::deserialize(de::value::MapAccessDeserializer::new(map)).map(|s| Steps(vec![s]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Steps, A::Error> {
                Vec::<RawStep>::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Steps)
            }
        }
        deserializer.deserialize_any(StepsVisitor)
    }
}

const ONE_SHOT_ONLY: &str = "one-shot families (promptkit-exec, runok-extension)";
const LONG_LIVED_ONLY: &str = "long-lived families (picoclaw-hook, promptkit-server)";

impl RawScript {
    fn validate(self, family: Family) -> Result<Script, String> {
        let long_lived = family.transport() == Transport::LongLivedJsonRpc;
        let stderr = bytes("stderr", self.stderr, self.stderr_hex)?;
        let process = Process {
            start_delay_ms: self.start_delay_ms.unwrap_or(0),
            child: self.child.map(|c| Sleeper { lives: Duration::from_millis(c.ms), holds: c.holds, own_session: c.own_session }),
            stderr_repeat: match self.stderr_repeat {
                Some(0) => return Err("stderr_repeat: 0 writes nothing; leave `stderr` out instead (at least 1)".into()),
                n => n.unwrap_or(1),
            },
            write_chunks: match self.write_chunks {
                Some(RawChunks { bytes: 0, .. }) => return Err("write_chunks.bytes: 0; a write is at least 1 byte".into()),
                c => c.map(|c| Chunks { bytes: c.bytes, gap_ms: c.gap_ms }),
            },
        };
        let one_shot_keys = [
            ("read_stdin", self.read_stdin.is_some()),
            ("delay_ms", self.delay_ms.is_some()),
            ("stdout", self.stdout.is_some() || self.stdout_hex.is_some()),
            ("exit", self.exit.is_some()),
            ("then", self.then.is_some()),
            ("linger_ms", self.linger_ms.is_some()),
        ];
        let long_lived_keys =
            [("banner", self.banner.is_some() || self.banner_hex.is_some()), ("on", self.on.is_some()), ("at_eof", self.at_eof.is_some())];
        let (misplaced, belongs) = if long_lived { (&one_shot_keys[..], ONE_SHOT_ONLY) } else { (&long_lived_keys[..], LONG_LIVED_ONLY) };
        if let Some((key, _)) = misplaced.iter().find(|(_, given)| *given) {
            return Err(format!("`{key}` is for {belongs}, not {family}"));
        }
        if !long_lived {
            let then = self.then.unwrap_or_default();
            if self.exit.is_some() && then != OneShotThen::Exit {
                return Err(format!("`exit` is only read with `then: \"exit\"`, not with {then:?}"));
            }
            return Ok(Script::OneShot(OneShot {
                read_stdin: self.read_stdin.unwrap_or(true),
                delay_ms: self.delay_ms.unwrap_or(0),
                stdout: text("stdout", self.stdout, self.stdout_hex)?,
                stderr,
                exit: status("exit", self.exit)?,
                linger_ms: self.linger_ms.unwrap_or(0),
                then,
                process,
            }));
        }
        let mut on = HashMap::new();
        for (method, Steps(steps)) in self.on.unwrap_or_default() {
            if steps.is_empty() {
                return Err(format!("on.{method:?}: an empty list of steps; give at least one (`{{}}` writes nothing)"));
            }
            let steps = steps
                .into_iter()
                .enumerate()
                .map(|(i, s)| s.validate().map_err(|e| format!("on.{method:?}[{i}].{e}")))
                .collect::<Result<_, _>>()?;
            on.insert(method, steps);
        }
        let at_eof = match self.at_eof {
            None => AtEof::default(),
            Some(raw) => AtEof {
                exit: status("at_eof.exit", raw.exit)?,
                stderr: bytes("at_eof.stderr", raw.stderr, raw.stderr_hex)?,
                delay_ms: raw.delay_ms.unwrap_or(0),
            },
        };
        Ok(Script::LongLived(LongLived { banner: bytes("banner", self.banner, self.banner_hex)?, stderr, on, at_eof, process }))
    }
}

impl RawStep {
    /// Errors start with the field name; the caller prefixes where the step is.
    fn validate(self) -> Result<Step, String> {
        let then = self.then.unwrap_or_default();
        if self.exit.is_some() && then != StepThen::Exit {
            return Err(format!("exit: only read with `then: \"exit\"`, not with {then:?}"));
        }
        Ok(Step {
            write: text("write", self.write, self.write_hex)?,
            delay_ms: self.delay_ms.unwrap_or(0),
            stderr: bytes("stderr", self.stderr, self.stderr_hex)?,
            then,
            exit: status("exit", self.exit)?,
        })
    }
}

fn status(field: &str, exit: Option<i64>) -> Result<i32, String> {
    match exit {
        None => Ok(0),
        Some(n @ 0..=255) => Ok(n as i32),
        Some(n) => Err(format!("{field}: {n} is not an exit status (0 to 255)")),
    }
}

fn text(field: &str, text: Option<String>, hex: Option<String>) -> Result<Text, String> {
    Ok(Text { bytes: bytes(field, text, hex)? })
}

/// The bytes of field `X`, given as text `X` or as `X_hex`.
fn bytes(field: &str, text: Option<String>, hex: Option<String>) -> Result<Vec<u8>, String> {
    match (text, hex) {
        (Some(_), Some(_)) => Err(format!("{field} and {field}_hex are both given; give one")),
        (Some(text), None) => Ok(text.into_bytes()),
        (None, Some(hex)) => decode_hex(&hex).map_err(|e| format!("{field}_hex: {e}")),
        (None, None) => Ok(Vec::new()),
    }
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("{} hex digits, an odd number", hex.len()));
    }
    let digit = |i: usize, c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        _ => Err(format!("{:?} at offset {i} is not a lowercase hex digit", char::from(c))),
    };
    hex.as_bytes().chunks(2).enumerate().map(|(i, pair)| Ok(digit(2 * i, pair[0])? << 4 | digit(2 * i + 1, pair[1])?)).collect()
}

#[cfg(test)]
#[path = "script_tests.rs"]
mod tests;
