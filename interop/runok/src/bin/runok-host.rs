//! `runok-host`: runok 0.3.1's own extension runner against one command, for
//! `interop/fidelity.sh` (the differential and boundary comparisons).
//!
//! ```text
//! runok-host [--timeout-ms N] [--calls N] -- COMMAND [ARGS...]
//! ```
//!
//! Each call is what runok does for one command line it asks an extension
//! about: `ProcessExtensionRunner::validate` (spawn, write the request, close
//! stdin, wait for exit with the deadline, parse stdout) and then
//! `resolve_extension_result` (what runok decides). One JSON line per call:
//!
//! ```json
//! {"index":0,"ok":{"status":"deny","message":"…","fix_suggestion":null},
//!  "resolved":{"action":"deny","message":"…","fix_suggestion":null},"elapsed_ms":12}
//! {"index":1,"error":"invalid response: JSON parse error: …","error_kind":"invalid_response",
//!  "resolved":{"action":"ask","message":"Extension returned invalid response, …"},"elapsed_ms":11}
//! ```
//!
//! runok takes the executor as one shell-style string (split with shlex, no
//! shell); the words after `--` are joined the same way, and a command that
//! does not come back as the same words is refused (exit 2), so what runs is
//! what was named. Exit status: 0 when every call ran (whatever runok
//! decided), 2 for a usage error.

use std::collections::HashMap;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use runok::config::ActionKind;
use runok::exec::ExtensionError;
use runok::exec::extension_runner::{ExtensionRequest, ExtensionRunner, ProcessExtensionRunner, resolve_extension_result};
use serde_json::{Value, json};

const USAGE: &str = "usage: runok-host [--timeout-ms N] [--calls N] -- COMMAND [ARGS...]";

struct Args {
    timeout: Duration,
    calls: usize,
    command: Vec<String>,
}

fn parse(mut words: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args { timeout: Duration::from_secs(5), calls: 1, command: Vec::new() };
    while let Some(word) = words.next() {
        let mut number = |flag: &str| -> Result<u64, String> {
            let value = words.next().ok_or_else(|| format!("{flag} needs a value"))?;
            value.parse().map_err(|_| format!("{flag} {value}: not a whole number"))
        };
        match word.as_str() {
            "--timeout-ms" => args.timeout = Duration::from_millis(number("--timeout-ms")?),
            "--calls" => args.calls = usize::try_from(number("--calls")?).map_err(|e| e.to_string())?,
            "--" => {
                args.command = words.by_ref().collect();
                break;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if args.command.is_empty() {
        return Err("no command after `--`".into());
    }
    Ok(args)
}

/// The request of runok's documentation (`curl -X POST …` with a profile):
/// the plugin under test answers every request alike, so any realistic one does.
fn request() -> ExtensionRequest {
    let map = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<HashMap<_, _>>();
    ExtensionRequest {
        command: "curl".into(),
        flags: map(&[("X", "POST"), ("silent", "")]),
        args: vec!["https://api.example.com/v1/items".into()],
        raw_command_line: "curl -X POST --silent https://api.example.com/v1/items".into(),
        env: map(&[("AWS_PROFILE", "prod")]),
        cwd: "/home/user/project".into(),
    }
}

fn action_word(action: &ActionKind) -> &'static str {
    match action {
        ActionKind::Allow => "allow",
        ActionKind::Deny => "deny",
        ActionKind::Ask => "ask",
    }
}

fn error_kind(e: &ExtensionError) -> &'static str {
    match e {
        ExtensionError::Spawn(_) => "spawn",
        ExtensionError::Timeout(_) => "timeout",
        ExtensionError::InvalidResponse(_) => "invalid_response",
    }
}

fn call(index: usize, executor: &str, timeout: Duration) -> Value {
    let start = Instant::now();
    let raw = ProcessExtensionRunner.validate(executor, &request(), timeout);
    let elapsed_ms = start.elapsed().as_millis() as u64;
    let mut line = json!({"index": index, "elapsed_ms": elapsed_ms});
    match &raw {
        Ok(r) => line["ok"] = json!({"status": r.status, "message": r.message, "fix_suggestion": r.fix_suggestion}),
        Err(e) => {
            line["error"] = json!(e.to_string());
            line["error_kind"] = json!(error_kind(e));
        }
    }
    let resolved = resolve_extension_result(raw, false);
    line["resolved"] =
        json!({"action": action_word(&resolved.action), "message": resolved.message, "fix_suggestion": resolved.fix_suggestion});
    line
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("runok-host: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let executor = match shlex::try_join(args.command.iter().map(String::as_str)) {
        Ok(joined) if shlex::split(&joined).as_deref() == Some(args.command.as_slice()) => joined,
        _ => {
            eprintln!("runok-host: the command cannot be written as one shell-style string that splits back into the same words");
            return ExitCode::from(2);
        }
    };
    for index in 0..args.calls {
        println!("{}", call(index, &executor, args.timeout));
    }
    ExitCode::SUCCESS
}
