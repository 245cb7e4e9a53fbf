//! runok 0.3.1's real extension runner (the published crate, through its
//! public `runok::exec::extension_runner` API) driven against
//! `proctor mock-plugin --protocol runok-extension`, well-behaved and in each
//! misbehaviour that means something for a one-shot JSON-RPC plugin; then
//! `proctor verify` judges what runok sent.
//!
//! Every test asserts what runok really decides, and the "research" comments
//! quote the prediction in shared/research/picoclaw-runok.md Part B that the
//! assertion confirms. Set `PROCTOR_BIN` to the proctor binary (`.ci/run`
//! points it at target/release/proctor).
//!
//! Faults left out because they change nothing for runok: `partial-line`,
//! `no-flush` and `drop-pipelined` (line protocols only), `reply-to-notification`
//! and `ignore-unknown-method` (runok sends one request, `validateCommand`),
//! `no-hello`/`hello-error` (PicoClaw) and the PromptKit/PicoClaw semantic
//! faults. `bad-error-object` only bends error replies, and the runok mock
//! never sends one for `validateCommand`, so it is combined with
//! `both-result-error` below.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use runok::config::ActionKind;
use runok::exec::extension_runner::{
    ExtensionRequest, ExtensionResponse, ExtensionResult, ExtensionRunner, ProcessExtensionRunner, resolve_extension_result,
};
use serde_json::Value;
use tempfile::TempDir;

/// The deadline of the well-behaved cases (runok's docs show "timeout after 5s").
const TIMEOUT: Duration = Duration::from_secs(5);
/// The deadline of the cases that are meant to time out.
const SHORT: Duration = Duration::from_secs(1);

/// `resolve_extension_result`'s fixed messages for errors.
const TIMED_OUT: &str = "Extension timed out, asking user for confirmation";
const INVALID: &str = "Extension returned invalid response, asking user for confirmation";

/// The mock's deny (mocks/src/plugin/reply.rs `runok_answer`).
const DENY_MESSAGE: &str = "denied by mock";
const DENY_FIX: &str = "echo safe";

/// Exactly the bytes runok 0.3.1 writes for [`request`]: keys sorted at every
/// level, the `HashMap`s included (serde_json::json! without
/// preserve_order), compact, and no trailing newline. proctor's `runok@0.3.1`
/// profile encodes this as `runok.request-keys-sorted` and
/// `runok.request-no-trailing-newline`.
const WIRE: &str = concat!(
    r#"{"id":1,"jsonrpc":"2.0","method":"validateCommand","params":{"#,
    r#""args":["https://api.example.com/v1/items"],"#,
    r#""command":"curl","#,
    r#""cwd":"/home/user/project","#,
    r#""env":{"AWS_PROFILE":"prod","LANG":"C"},"#,
    r#""flags":{"X":"POST","silent":""},"#,
    r#""raw_command_line":"curl -X POST --silent https://api.example.com/v1/items"}}"#,
);

/// The scenario `proctor verify` judges the records against.
const SCENARIO: &str = "id: interop/runok\nruntime: runok\nplugins:\n  - {name: ext, process: {mock: {}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\n";

fn proctor() -> PathBuf {
    let bin = std::env::var_os("PROCTOR_BIN").expect(
        "PROCTOR_BIN is not set: point it at the proctor binary, e.g. \
         PROCTOR_BIN=$PWD/target/release/proctor cargo test --manifest-path interop/runok/Cargo.toml",
    );
    let bin = PathBuf::from(bin);
    assert!(bin.is_file(), "PROCTOR_BIN={} is not a file", bin.display());
    bin
}

/// `curl -X POST --silent …` with `AWS_PROFILE=prod`, the docs' example.
/// Two keys in each map, so unsorted `HashMap` output would show.
fn request() -> ExtensionRequest {
    let map = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    ExtensionRequest {
        command: "curl".into(),
        flags: map(&[("X", "POST"), ("silent", "")]),
        args: vec!["https://api.example.com/v1/items".into()],
        raw_command_line: "curl -X POST --silent https://api.example.com/v1/items".into(),
        env: map(&[("AWS_PROFILE", "prod"), ("LANG", "C")]),
        cwd: "/home/user/project".into(),
    }
}

/// One `validate` call of runok's runner against one mock process.
struct Run {
    dir: TempDir,
    /// What `validate` returned: the response, or the error's `Display`.
    raw: Result<ExtensionResponse, String>,
    /// What `resolve_extension_result` made of it.
    result: ExtensionResult,
    elapsed: Duration,
}

impl Run {
    fn new(decision: &str, faults: &[&str], timeout: Duration) -> Run {
        Run::with_args(decision, faults, &[], timeout)
    }

    fn with_args(decision: &str, faults: &[&str], extra: &[&str], timeout: Duration) -> Run {
        let dir = tempfile::tempdir().expect("temporary directory");
        Run::in_dir(dir, decision, faults, extra, timeout)
    }

    /// Runs in `dir`, appending to its `ext.jsonl` record.
    fn in_dir(dir: TempDir, decision: &str, faults: &[&str], extra: &[&str], timeout: Duration) -> Run {
        let executor = executor(dir.path(), decision, faults, extra);
        let start = Instant::now();
        let raw = ProcessExtensionRunner.validate(&executor, &request(), timeout);
        let elapsed = start.elapsed();
        let shown = raw.as_ref().map(Clone::clone).map_err(ToString::to_string);
        let result = resolve_extension_result(raw, false);
        Run { dir, raw: shown, result, elapsed }
    }

    #[track_caller]
    fn assert_resolved(&self, action: ActionKind, message: Option<&str>, fix: Option<&str>) {
        let want = ExtensionResult { action, message: message.map(Into::into), fix_suggestion: fix.map(Into::into) };
        assert_eq!(self.result, want, "runok resolved {:?} (validate returned {:?})", self.result, self.raw);
    }

    /// `validate` failed with an error whose `Display` contains `needle`.
    #[track_caller]
    fn assert_error(&self, needle: &str) {
        match &self.raw {
            Err(shown) => assert!(shown.contains(needle), "runok's error {shown:?} does not mention {needle:?}"),
            Ok(resp) => panic!("runok accepted {resp:?}; expected an error mentioning {needle:?}"),
        }
    }

    #[track_caller]
    fn assert_accepted(&self, status: &str) {
        match &self.raw {
            Ok(resp) => assert_eq!(resp.status, status, "runok accepted {resp:?}"),
            Err(shown) => panic!("runok rejected the answer: {shown}"),
        }
    }

    /// Every process the mock ran received exactly [`WIRE`] and EOF, and
    /// `proctor verify` finds runok's requests conformant.
    #[track_caller]
    fn assert_requests_well_formed(&self, processes: usize) {
        let sessions = read_record(&self.dir.path().join("ext.jsonl"));
        assert_eq!(sessions.len(), processes, "mock processes recorded");
        let built = ProcessExtensionRunner.build_jsonrpc_request(&request()).expect("runok builds the request");
        assert_eq!(built, WIRE, "runok's own build_jsonrpc_request");
        for (bytes, eof) in &sessions {
            assert!(!bytes.ends_with('\n'), "runok@0.3.1 sends no trailing newline, got {bytes:?}");
            assert_eq!(bytes, WIRE, "what the mock received from runok");
            assert!(eof, "runok closes stdin after the request");
        }
        let report = verify(self.dir.path());
        assert_eq!(report["verdict"], "conformant", "proctor verify on runok's requests: {report:#}");
        assert_eq!(report["profiles"][0], "runok@0.3.1");
    }
}

/// The shell-style command line runok splits with shlex (no shell involved).
fn executor(dir: &Path, decision: &str, faults: &[&str], extra: &[&str]) -> String {
    let bin = proctor();
    let record = dir.join("ext.jsonl");
    let mut words: Vec<&str> =
        vec![bin.to_str().expect("UTF-8 PROCTOR_BIN"), "mock-plugin", "--protocol", "runok-extension", "--decision", decision];
    for fault in faults {
        words.extend(["--fault", fault]);
    }
    words.extend(extra);
    words.extend(["--record", record.to_str().expect("UTF-8 temp path")]);
    let cmd = shlex::try_join(words.iter().copied()).expect("quotable executor command");
    let back: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    assert_eq!(shlex::split(&cmd), Some(back), "runok splits the executor back into these words");
    cmd
}

/// The record's processes: the bytes each received and whether it saw EOF.
fn read_record(path: &Path) -> Vec<(String, bool)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("no record at {}: {e}", path.display()));
    let mut sessions: Vec<(String, bool)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("record line {line:?}: {e}"));
        if v.get("start").is_some() {
            sessions.push((String::new(), false));
            continue;
        }
        let last = sessions.last_mut().expect("record starts with a start marker");
        if v.get("eof") == Some(&Value::Bool(true)) {
            last.1 = true;
        } else if let Some(t) = v.get("text").and_then(Value::as_str) {
            last.0.push_str(t);
        } else if v.get("exit").is_some() {
            // How the mock ended; these tests judge only what runok sent.
        } else {
            panic!("runok sent bytes that are not UTF-8 text: {line}");
        }
    }
    sessions
}

/// `proctor verify --scenario … --record DIR/ --format json`, parsed.
fn verify(dir: &Path) -> Value {
    let scenario = dir.join("scenario.yaml");
    std::fs::write(&scenario, SCENARIO).expect("write scenario");
    let out = Command::new(proctor())
        .arg("verify")
        .arg("--scenario")
        .arg(&scenario)
        .arg("--record")
        .arg(format!("{}/", dir.display()))
        .args(["--format", "json"])
        .output()
        .expect("run proctor verify");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("proctor verify printed no JSON report ({e}); status {}, stderr:\n{}", out.status, String::from_utf8_lossy(&out.stderr))
    });
    let conformant = report["verdict"] == "conformant";
    assert_eq!(out.status.code(), Some(if conformant { 0 } else { 1 }), "verify's exit status matches its verdict");
    report
}

// ---------------------------------------------------------------- well-behaved

#[test]
fn allow_then_deny_and_verify_judges_runoks_requests_conformant() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let allow = Run::in_dir(dir, "allow", &[], &[], TIMEOUT);
    allow.assert_resolved(ActionKind::Allow, None, None);
    // Same record file: a second process appends its own start marker.
    let deny = Run::in_dir(allow.dir, "deny", &[], &[], TIMEOUT);
    deny.assert_resolved(ActionKind::Deny, Some(DENY_MESSAGE), Some(DENY_FIX));
    deny.assert_requests_well_formed(2);
    let report = verify(deny.dir.path());
    let ids: Vec<&str> = report["checks"].as_array().expect("checks").iter().filter_map(|c| c["id"].as_str()).collect();
    for id in ["RUNTIME-STDIN-CLOSED", "RUNTIME-FRAMING", "RUNTIME-JSONRPC-ENVELOPE", "RUNTIME-METHODS"] {
        assert!(ids.contains(&id), "verify ran {id}: {ids:?}");
    }
    assert_eq!(report["summary"]["passed"], 4, "{report:#}");
}

/// The verdict above can fail: a request without `cwd` is not conformant.
#[test]
fn verify_rejects_a_request_runok_would_never_send() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let bad = WIRE.replace(r#""cwd":"/home/user/project","#, "");
    let record = [
        serde_json::json!({"at_ms": 0, "start": true, "pid": 1}),
        serde_json::json!({"at_ms": 0, "text": bad}),
        serde_json::json!({"at_ms": 0, "eof": true}),
    ];
    let text: String = record.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(dir.path().join("ext.jsonl"), text).expect("write record");
    let report = verify(dir.path());
    assert_eq!(report["verdict"], "nonconformant", "{report:#}");
}

#[test]
fn pending_is_ask_with_the_mocks_message() {
    let run = Run::new("pending", &[], TIMEOUT);
    run.assert_resolved(ActionKind::Ask, Some("mock asks"), None);
    run.assert_requests_well_formed(1);
}

// ----------------------------------------------------------------- robustness

#[test]
fn hang_times_out_and_asks() {
    let run = Run::new("allow", &["hang"], SHORT);
    // research B1: "If elapsed >= timeout, it calls child.kill() … returns ExtensionError::Timeout(timeout)".
    run.assert_error("timeout after 1s");
    run.assert_resolved(ActionKind::Ask, Some(TIMED_OUT), None);
    assert!(run.elapsed >= SHORT && run.elapsed < Duration::from_secs(4), "timed out after {:?}", run.elapsed);
    run.assert_requests_well_formed(1);
}

#[test]
fn ignore_sigterm_does_not_matter_because_runok_sends_sigkill() {
    let run = Run::new("allow", &["hang", "ignore-sigterm"], SHORT);
    // research B1: "child.kill() (SIGKILL, direct child only …)".
    run.assert_error("timeout after 1s");
    run.assert_resolved(ActionKind::Ask, Some(TIMED_OUT), None);
    assert!(run.elapsed < Duration::from_secs(4), "kill took {:?}", run.elapsed);
}

#[test]
fn a_valid_answer_from_a_process_that_never_exits_is_lost() {
    // ignore-eof writes a correct allow, then sleeps: runok reads stdout only
    // after exit, so the answer is never read. research B1: "Once the child has exited, it calls wait_with_output()".
    let run = Run::new("allow", &["ignore-eof"], SHORT);
    run.assert_error("timeout after 1s");
    run.assert_resolved(ActionKind::Ask, Some(TIMED_OUT), None);
}

#[test]
fn stdout_over_the_pipe_buffer_deadlocks_into_a_timeout() {
    // research B1: "output beyond the OS pipe buffer (about 64 KiB on Linux) makes the child block, which ends in Timeout".
    for fault in ["stdout-flood", "huge-line"] {
        let run = Run::new("allow", &[fault], SHORT);
        run.assert_error("timeout after 1s");
        run.assert_resolved(ActionKind::Ask, Some(TIMED_OUT), None);
    }
}

#[test]
fn stderr_flood_is_harmless_because_runok_discards_stderr() {
    // research B1: ".stderr(Stdio::null())".
    let run = Run::new("deny", &["stderr-flood"], TIMEOUT);
    run.assert_resolved(ActionKind::Deny, Some(DENY_MESSAGE), Some(DENY_FIX));
}

#[test]
fn slow_start_fits_the_deadline_because_the_request_is_already_in_the_pipe() {
    // research B1: "The write happens before the timeout clock starts"; the
    // small request fits the pipe buffer, so 2 s of sleep cost 2 s of the 5.
    let run = Run::new("allow", &["slow-start"], TIMEOUT);
    run.assert_resolved(ActionKind::Allow, None, None);
    assert!(run.elapsed >= Duration::from_millis(1900), "answered after {:?}", run.elapsed);
    let late = Run::new("allow", &["slow-start"], SHORT);
    late.assert_error("timeout after 1s");
}

#[test]
fn strict_fields_accepts_runok_because_it_sends_only_the_documented_fields() {
    // The mock errors on any request key outside the documented set; runok's six params pass.
    let run = Run::new("allow", &["strict-fields"], TIMEOUT);
    run.assert_resolved(ActionKind::Allow, None, None);
}

// -------------------------------------------------------------------- framing

#[test]
fn empty_output_is_invalid_and_asks() {
    // research B1: "A crash with no output gives a JSON parse error ("EOF while parsing")".
    let run = Run::new("allow", &["empty-output"], TIMEOUT);
    run.assert_error("EOF while parsing");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

#[test]
fn two_documents_are_invalid_and_ask() {
    // research B1: "two JSON lines … makes the parse fail ("trailing characters" or similar)".
    let run = Run::new("allow", &["two-documents"], TIMEOUT);
    run.assert_error("trailing characters");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

#[test]
fn a_log_line_before_the_answer_is_invalid_and_asks() {
    // research B1: "a log line before the JSON, makes the parse fail".
    let run = Run::new("allow", &["log-line"], TIMEOUT);
    run.assert_error("invalid response: JSON parse error: expected value at line 1 column 1");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

#[test]
fn a_byte_order_mark_is_invalid_and_asks() {
    // serde_json does not skip a BOM (from_utf8_lossy keeps it as U+FEFF).
    let run = Run::new("allow", &["bom"], TIMEOUT);
    run.assert_error("invalid response: JSON parse error: expected value at line 1 column 1");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

#[test]
fn invalid_utf8_is_replaced_not_rejected() {
    // research B1: "wait_with_output() …, then String::from_utf8_lossy": the
    // bad bytes become U+FFFD and the JSON still parses. The mock puts them in
    // the first string of the result, here `status`, so runok sees an unknown
    // status ("allow\u{FFFD}\u{FFFD}") and asks: not an InvalidResponse.
    let run = Run::new("allow", &["invalid-utf8"], TIMEOUT);
    run.assert_accepted("allow\u{FFFD}\u{FFFD}");
    run.assert_resolved(ActionKind::Ask, None, None);
    // An unknown status keeps the extension's message and fix (research B1).
    let deny = Run::new("deny", &["invalid-utf8"], TIMEOUT);
    deny.assert_accepted("deny\u{FFFD}\u{FFFD}");
    deny.assert_resolved(ActionKind::Ask, Some(DENY_MESSAGE), Some(DENY_FIX));
}

#[test]
fn pretty_printed_and_crlf_answers_are_accepted() {
    // research B1: "exactly one JSON value. Surrounding whitespace is fine."
    for fault in ["pretty-print", "crlf"] {
        let run = Run::new("deny", &[fault], TIMEOUT);
        run.assert_resolved(ActionKind::Deny, Some(DENY_MESSAGE), Some(DENY_FIX));
    }
}

// ------------------------------------------------------------------- envelope

#[test]
fn jsonrpc_member_and_id_are_not_checked() {
    // research B1: "jsonrpc and id are not checked at all … and so is a wrong id".
    for fault in ["no-jsonrpc", "wrong-version", "wrong-id", "string-id"] {
        let run = Run::new("deny", &[fault], TIMEOUT);
        run.assert_resolved(ActionKind::Deny, Some(DENY_MESSAGE), Some(DENY_FIX));
    }
}

#[test]
fn an_error_member_wins_over_a_result_and_asks() {
    // research B1: "If error is Some, the result is InvalidResponse("JSON-RPC error: …"), even when result is also present".
    let run = Run::new("allow", &["both-result-error"], TIMEOUT);
    run.assert_error("JSON-RPC error: mock error");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

#[test]
fn a_bad_error_object_is_a_parse_error_and_asks() {
    // {"code":"oops","message":42}: runok's JsonRpcError wants code: Option<i64>.
    let run = Run::new("allow", &["both-result-error", "bad-error-object"], TIMEOUT);
    run.assert_error("invalid response: JSON parse error: invalid type");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

#[test]
fn neither_result_nor_error_asks() {
    // research B1: "No result, or result: null, gives InvalidResponse("missing 'result' field …")".
    let run = Run::new("allow", &["neither-result-error"], TIMEOUT);
    run.assert_error("missing 'result' field in JSON-RPC response");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

// ------------------------------------------------------------------ semantics

#[test]
fn status_uppercase_is_unknown_and_asks_keeping_the_message() {
    // research B1: "Matching is case-sensitive. Any other status maps to Ask, keeping the extension's message and fix_suggestion."
    let run = Run::new("deny", &["status-uppercase"], TIMEOUT);
    run.assert_accepted("DENY");
    run.assert_resolved(ActionKind::Ask, Some(DENY_MESSAGE), Some(DENY_FIX));
}

#[test]
fn a_numeric_message_is_invalid_and_asks() {
    // research B1: "A non-string message or fix_suggestion is a parse error."
    let run = Run::new("allow", &["message-number"], TIMEOUT);
    run.assert_error("invalid type: integer `42`, expected a string");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
}

// ------------------------------------------------------------------ lifecycle

#[test]
fn exit_nonzero_with_a_valid_answer_is_accepted() {
    // research B1: "Exit code: ignored completely (Ok(Some(_status))). Valid JSON from a process that exits with status 1 is accepted."
    let run = Run::new("deny", &["exit-nonzero"], TIMEOUT);
    run.assert_resolved(ActionKind::Deny, Some(DENY_MESSAGE), Some(DENY_FIX));
    // Likewise a crash (exit 1) right after answering.
    let crash = Run::new("deny", &["crash-after"], TIMEOUT);
    crash.assert_resolved(ActionKind::Deny, Some(DENY_MESSAGE), Some(DENY_FIX));
}

#[test]
fn a_crash_before_answering_asks() {
    // research B1: "A crash with no output gives a JSON parse error ("EOF while parsing"), hence InvalidResponse, hence ask."
    let run = Run::with_args("deny", &["crash-after"], &["--crash-after", "0"], TIMEOUT);
    run.assert_error("EOF while parsing");
    run.assert_resolved(ActionKind::Ask, Some(INVALID), None);
    run.assert_requests_well_formed(1);
}

#[test]
fn a_while_read_extension_never_sees_the_request() {
    // runok writes no trailing newline (research B1: "Writes the request JSON
    // with no trailing newline"), so a `while read` extension reads no line and
    // answers its empty-input default: the mock's deny never happens.
    let run = Run::new("deny", &["needs-newline"], TIMEOUT);
    run.assert_resolved(ActionKind::Ask, None, None);
    run.assert_requests_well_formed(1);
}

#[test]
fn a_grandchild_holding_stdout_blocks_runok_past_its_deadline() {
    // research B1: "If the extension leaves a background grandchild holding
    // stdout open, wait_with_output() blocks without any timeout after the
    // direct child has exited." The mock's `sleep 45` keeps stdout open, so a
    // 1 s deadline does not help: runok waits ~45 s, then accepts the answer.
    // This is the hang `proctor certify` warns about as LIFECYCLE-NO-LEFTOVER.
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(Run::new("deny", &["grandchild"], SHORT));
    });
    let run = rx.recv_timeout(Duration::from_secs(75)).expect("runok still blocked after 75 s");
    assert!(run.elapsed >= Duration::from_secs(40), "runok returned after {:?}; expected the grandchild's ~45 s", run.elapsed);
    run.assert_resolved(ActionKind::Deny, Some(DENY_MESSAGE), Some(DENY_FIX));
    run.assert_requests_well_formed(1);
}
