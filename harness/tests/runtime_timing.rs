//! Each runtime's own time, pipes and extra lines, as a plugin author hits
//! them: the same plugin works under one profile and not another, because
//! the runtimes wait, read and count lines differently (measured with the
//! real runtimes in interop/; `interop/timing` holds them to boundary pairs).
//!
//! Each plugin is slow only where a case marks it, so one exchange, not
//! every probe, pays the wait.

mod common;

use std::io::Write;

use common::{certify_json, problems, results};
use serde_json::Value;

fn script(body: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(suffix).tempfile().expect("temp plugin");
    f.write_all(body.as_bytes()).expect("write plugin");
    f
}

fn cases(yaml: &str) -> tempfile::NamedTempFile {
    script(yaml, ".yaml")
}

/// The status of `check` under `profile` (its built-in result, not a case's).
fn status(report: &Value, check: &str, profile: &str) -> String {
    results(report, check)
        .iter()
        .find(|c| c["profile"] == profile && c["case"].is_null())
        .map_or("missing".into(), |c| c["status"].as_str().unwrap_or("").to_string())
}

/// The status of case `name` under `profile`.
fn case_status(report: &Value, name: &str, profile: &str) -> String {
    results(report, "CASE-DECISION")
        .iter()
        .find(|c| c["profile"] == profile && c["case"] == name)
        .map_or("missing".into(), |c| c["status"].as_str().unwrap_or("").to_string())
}

fn verdict(report: &Value, profile: &str) -> String {
    report["profile_verdicts"][profile].as_str().unwrap_or("missing").to_string()
}

const PK: &str = "promptkit@86d9f36";

#[test]
fn a_tool_hook_answering_in_7_s_works_in_promptkit_which_waits_10_s() {
    let hook = script("input=$(cat)\ncase \"$input\" in *slow_tool*) sleep 7;; esac\nprintf '{\"allow\":true}'\n", ".sh");
    let cases = cases(
        "cases:\n  - name: a slow lookup\n    phase: before_execution\n    request: {name: slow_tool}\n    expect: {decision: allow}\n",
    );
    let plugin = vec!["sh".to_string(), hook.path().display().to_string()];
    let flags = ["--protocol", "promptkit-exec", "--role", "tool-hook", "--cases", &cases.path().display().to_string()];
    let (_, report, _) = certify_json(&flags, &plugin);
    assert_eq!(verdict(&report, PK), "conformant", "{}", problems(&report));
    assert_eq!(case_status(&report, "a slow lookup", PK), "pass");
    // The documents name no deadline: proctor's own 5 s holds there, and says so.
    assert_eq!(case_status(&report, "a slow lookup", "documented"), "fail", "{}", problems(&report));
}

#[test]
fn a_hook_that_exits_3_s_after_answering_works_where_the_runtime_waits_for_the_exit() {
    let hook = script("input=$(cat)\nprintf '{\"allow\":true}'\ncase \"$input\" in *lingering*) sleep 3;; esac\n", ".sh");
    let cases =
        cases("cases:\n  - name: lingers\n    phase: before_execution\n    request: {name: lingering}\n    expect: {decision: allow}\n");
    let plugin = vec!["sh".to_string(), hook.path().display().to_string()];
    let flags = ["--protocol", "promptkit-exec", "--role", "tool-hook", "--cases", &cases.path().display().to_string()];
    let (_, report, _) = certify_json(&flags, &plugin);
    // PromptKit runs the hook under one 10 s context and takes the answer at the exit.
    assert_eq!(verdict(&report, PK), "conformant", "{}", problems(&report));
    // The documented rule: exit within 2 s of answering.
    let exit = results(&report, "LIFECYCLE-EXIT-ON-EOF");
    assert!(exit.iter().any(|c| c["profile"] == "documented" && c["status"] == "fail"), "{}", problems(&report));
}

/// A line-delimited JSON-RPC server in Python: `before` is written before every reply.
fn server(before: &str, reply: &str, startup_sleep: f64) -> tempfile::NamedTempFile {
    script(
        &format!(
            r#"import json, sys, time
time.sleep({startup_sleep})
for line in sys.stdin:
    req = json.loads(line)
    if "id" not in req:
        continue
    body = {reply:?}
    if req.get("method") != "execute":
        body = '{{"jsonrpc":"2.0","id":$ID,"error":{{"code":-32601,"message":"method not found"}}}}'
    out = {before:?} + body.replace("$ID", json.dumps(req["id"])) + "\n"
    sys.stdout.write(out)
    sys.stdout.flush()
"#
        ),
        ".py",
    )
}

const OK_REPLY: &str = r#"{"jsonrpc":"2.0","id":$ID,"result":{"ok":true}}"#;

#[test]
fn a_server_starting_in_7_s_works_in_promptkit_which_waits_30_s() {
    let s = server("", OK_REPLY, 7.0);
    let plugin = vec!["python3".to_string(), s.path().display().to_string()];
    let (_, report, _) = certify_json(&["--protocol", "promptkit-server"], &plugin);
    assert_eq!(verdict(&report, PK), "conformant", "{}", problems(&report));
    assert_eq!(verdict(&report, "documented"), "nonconformant");
    assert_eq!(status(&report, "ROBUST-DEADLINE", "documented"), "fail");
}

#[test]
fn a_notification_before_each_reply_shifts_every_promptkit_call() {
    let s = server("{\"jsonrpc\":\"2.0\",\"method\":\"log\",\"params\":{\"msg\":\"working\"}}\n", OK_REPLY, 0.0);
    let plugin = vec!["python3".to_string(), s.path().display().to_string()];
    let (_, report, _) = certify_json(&["--protocol", "promptkit-server", "--timeout-ms", "2000"], &plugin);
    // Matched by id, a notification is no reply; PromptKit reads one line per call and takes it as one.
    assert_eq!(verdict(&report, "documented"), "conformant", "{}", problems(&report));
    assert_eq!(verdict(&report, PK), "nonconformant");
    let echo = results(&report, "JSONRPC-ID-ECHO").into_iter().find(|c| c["profile"] == PK).cloned().unwrap_or_default();
    assert_eq!(echo["status"], "fail", "{}", problems(&report));
    assert_eq!(echo["detail"]["failure"]["kind"], "id_mismatch", "{echo}");
}

#[test]
fn envelope_keys_in_upper_case_are_read_by_go_as_they_are_by_json_unmarshal() {
    let s = server("", r#"{"JSONRPC":"2.0","ID":$ID,"RESULT":{"ok":true}}"#, 0.0);
    let plugin = vec!["python3".to_string(), s.path().display().to_string()];
    let (_, report, _) = certify_json(&["--protocol", "promptkit-server", "--timeout-ms", "2000"], &plugin);
    // Go matches keys case-insensitively, so every call completes: sequential calls too.
    assert_eq!(status(&report, "ROBUST-SEQUENTIAL", PK), "pass", "{}", problems(&report));
    assert_eq!(verdict(&report, PK), "conformant", "{}", problems(&report));
    assert_eq!(verdict(&report, "documented"), "nonconformant");
}

/// A runok extension whose whole reply is exactly `size` bytes.
fn runok_reply_of(size: usize) -> tempfile::NamedTempFile {
    script(
        &format!(
            r#"import json, sys
req = json.loads(sys.stdin.read())
head = json.dumps({{"jsonrpc": "2.0", "id": req["id"], "result": {{"status": "allow", "message": ""}}}}, separators=(",", ":"))
pad = {size} - len(head)
sys.stdout.write(head.replace('"message":""', '"message":"' + "m" * pad + '"'))
"#
        ),
        ".py",
    )
}

#[test]
fn runok_takes_a_reply_that_fits_the_pipe_and_never_one_byte_more() {
    // runok reads stdout only after the extension exits: 65536 bytes fit the pipe, 65537 block the write.
    for (size, expected) in [(65_536, "pass"), (65_537, "fail")] {
        let ext = runok_reply_of(size);
        let plugin = vec!["python3".to_string(), ext.path().display().to_string()];
        let (_, report, _) =
            certify_json(&["--protocol", "runok-extension", "--profile", "runok@0.3.1", "--timeout-ms", "1500", "--jobs", "1"], &plugin);
        assert_eq!(status(&report, "PIPE-WRITES-DRAINED", "runok@0.3.1"), expected, "{size} bytes:\n{}", problems(&report));
        if expected == "fail" {
            let c = results(&report, "PIPE-WRITES-DRAINED")[0];
            assert_eq!(c["detail"]["failure"]["kind"], "pipe_blocked");
            assert!(c["message"].as_str().unwrap_or("").contains("only after the process exits"), "{c}");
        }
    }
}

#[test]
fn a_picoclaw_stderr_line_of_1_mib_stops_picoclaws_reader_and_a_shorter_one_does_not() {
    for (kib, expected) in [(900, "pass"), (1100, "fail")] {
        let hook = script(
            &format!(
                r#"import json, sys
for n, line in enumerate(sys.stdin):
    req = json.loads(line)
    if "id" not in req:
        continue
    result = {{"ok": True}} if req["method"] == "hook.hello" else {{"action": "continue"}}
    sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": req["id"], "result": result}}) + "\n")
    sys.stdout.flush()
    if req["method"] == "hook.hello":
        sys.stderr.write("e" * ({kib} * 1024) + "\n")
        sys.stderr.flush()
"#
            ),
            ".py",
        );
        let plugin = vec!["python3".to_string(), hook.path().display().to_string()];
        let (_, report, _) = certify_json(
            &["--protocol", "picoclaw-hook", "--role", "tool", "--profile", "picoclaw@cf67dd3", "--timeout-ms", "1000"],
            &plugin,
        );
        assert_eq!(status(&report, "PIPE-WRITES-DRAINED", "picoclaw@cf67dd3"), expected, "{kib} KiB:\n{}", problems(&report));
    }
}

#[test]
fn a_quick_job_in_a_session_of_its_own_is_no_leftover_and_a_daemon_is() {
    // `setsid CMD &` from a tool: a job done in 50 ms has ended before anyone could
    // call it left behind; one that runs on is still there after the session, in
    // every runtime (measured: interop/differential/regressions/promptkit-exec-selector-501001628.json).
    for (job, expected) in [("sleep 0.05", "pass"), ("sleep 30", "fail")] {
        let tool =
            script(&format!("cat >/dev/null\nsetsid {job} </dev/null >/dev/null 2>&1 &\nprintf '{{\"result\":{{\"temp\":18}}}}'\n"), ".sh");
        let plugin = vec!["sh".to_string(), tool.path().display().to_string()];
        let (_, report, _) = certify_json(&["--protocol", "promptkit-exec", "--role", "tool", "--profile", PK], &plugin);
        assert_eq!(status(&report, "LIFECYCLE-NO-LEFTOVER", PK), expected, "{job}:\n{}", problems(&report));
    }
}

#[test]
fn picoclaw_drops_a_line_that_is_no_reply_even_right_after_a_notification() {
    // A hook that prints `{}` before every reply (a debug dump of an empty state, say):
    // PicoClaw delivers a line only to the call whose id Go reads from it, and `{}` has
    // none, so it is dropped, after hook.runtime_event as anywhere else. A reply to the
    // notification itself (`"result"` without an id) stays a finding, one PicoClaw tolerates.
    for (stray, expected) in [("{}", "pass"), (r#"{"jsonrpc":"2.0","result":{}}"#, "warn")] {
        let hook = script(
            &format!(
                r#"import json, sys
for line in sys.stdin:
    req = json.loads(line)
    out = {stray:?} + "\n"
    if "id" in req:
        result = {{"ok": True}} if req["method"] == "hook.hello" else {{"approved": True}} if req["method"] == "hook.approve_tool" else {{"action": "continue"}}
        out += json.dumps({{"jsonrpc": "2.0", "id": req["id"], "result": result}}) + "\n"
    sys.stdout.write(out)
    sys.stdout.flush()
"#
            ),
            ".py",
        );
        let plugin = vec!["python3".to_string(), hook.path().display().to_string()];
        let (_, report, _) =
            certify_json(&["--protocol", "picoclaw-hook", "--profile", "picoclaw@cf67dd3", "--timeout-ms", "2000"], &plugin);
        assert_eq!(status(&report, "JSONRPC-NOTIFICATION-SILENT", "picoclaw@cf67dd3"), expected, "{stray}:\n{}", problems(&report));
        assert_eq!(status(&report, "JSONRPC-ID-ECHO", "picoclaw@cf67dd3"), "pass", "{stray}:\n{}", problems(&report));
        assert_eq!(verdict(&report, "picoclaw@cf67dd3"), "conformant", "{stray}:\n{}", problems(&report));
    }
}

#[test]
fn promptkit_waits_for_a_tools_background_job_on_stdout_within_its_deadline() {
    // `git fetch &` left holding stdout: PromptKit's cmd.Run has no WaitDelay for tools, so
    // the call completes once the job ends: fine within the deadline, late past it.
    for (secs, expected) in [("1", "pass"), ("3.5", "fail")] {
        let tool =
            script(&format!("cat >/dev/null\nprintf '{{\"result\":{{\"temp\":18}}}}'\nsleep {secs} </dev/null 2>/dev/null &\n"), ".sh");
        let plugin = vec!["sh".to_string(), tool.path().display().to_string()];
        let (_, report, _) =
            certify_json(&["--protocol", "promptkit-exec", "--role", "tool", "--profile", PK, "--timeout-ms", "2000"], &plugin);
        assert_eq!(status(&report, "LIFECYCLE-NO-LEFTOVER", PK), expected, "{secs} s:\n{}", problems(&report));
    }
}

#[test]
fn promptkit_closes_a_server_whose_helper_keeps_stderr_a_moment() {
    // A helper that logs to the server's stderr for a second after the server exits:
    // PromptKit's Close waits (cmd.Wait copies stderr) within its 2 s; longer holds it up.
    for (secs, expected) in [("1", "pass"), ("6", "fail")] {
        let s = script(
            &format!(
                r#"import json, subprocess, sys
for line in sys.stdin:
    req = json.loads(line)
    if "id" in req:
        sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": req["id"], "result": {{"ok": True}}}}) + "\n")
        sys.stdout.flush()
# At EOF: a helper flushing the last logs to stderr, left to finish after the exit.
subprocess.Popen(["sleep", "{secs}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
"#
            ),
            ".py",
        );
        let plugin = vec!["python3".to_string(), s.path().display().to_string()];
        let (_, report, _) = certify_json(&["--protocol", "promptkit-server", "--profile", PK], &plugin);
        assert_eq!(status(&report, "LIFECYCLE-NO-LEFTOVER", PK), expected, "{secs} s:\n{}", problems(&report));
    }
}
