//! `proctor verify` judges a runtime from what its mock plugins received.
//! Dogfood: proctor's own reference pipelines pass it. Bites: for every
//! runtime check, a record that fails it and one that passes it.

mod common;

use std::path::Path;
use std::process::Command;

use common::{proctor, repo_root, results};
use proctor_conformance::check::{CATALOGUE, Group};

fn verify(scenario: &Path, records: &Path) -> (i32, serde_json::Value) {
    verify_with(scenario, &[std::ffi::OsStr::new("--record"), records.as_os_str()])
}

fn verify_with(scenario: &Path, args: &[&std::ffi::OsStr]) -> (i32, serde_json::Value) {
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .args(["verify", "--format", "json", "--scenario"])
        .arg(scenario)
        .args(args)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), report)
}

#[test]
fn proctors_own_pipelines_pass_verify() {
    const LLM: [&str; 3] = ["RUNTIME-LLM-REQUEST", "RUNTIME-LLM-TOOL-RESULTS", "RUNTIME-LLM-SCRIPT"];
    // (scenario, checks that must have passed, not merely skipped)
    let cases: [(&str, &[&str]); 9] = [
        ("scenarios/picoclaw/respond-skips-approval-and-after-tool.yaml", &["RUNTIME-EXPECTED-CALLS", "RUNTIME-EXPECTED-RESULTS"]),
        ("scenarios/picoclaw/runtime-event-notifications.yaml", &LLM),
        ("scenarios/picoclaw/deny-tool-continues-the-turn.yaml", &["RUNTIME-EXPECTED-RESULTS"]),
        // hard_abort rolls the history back: the undone turn's tool calls are not owed a result.
        ("scenarios/picoclaw/hard-abort-rolls-back-history.yaml", &LLM),
        ("scenarios/promptkit/server-tool-restarted-as-documented.yaml", &["RUNTIME-EXPECTED-RESULTS"]),
        ("scenarios/promptkit/crashing-observe-hook-ignored.yaml", &LLM),
        // A filter hook failing closed: the runtime never asks the LLM, as scripted.
        ("scenarios/promptkit/crashing-filter-hook-fails-closed.yaml", &["RUNTIME-LLM-SCRIPT"]),
        // A denial reaches the LLM as a blocked tool result.
        ("scenarios/promptkit/tool-hook-denies-ssn.yaml", &["RUNTIME-EXPECTED-RESULTS", "RUNTIME-LLM-TOOL-RESULTS"]),
        // runok has no LLM: its journal is empty and the LLM checks skip.
        ("scenarios/runok/uppercase-status-falls-back-to-ask.yaml", &["RUNTIME-FRAMING"]),
    ];
    for (scenario, judged) in cases {
        let (code, report) = run_then_verify(scenario);
        assert_eq!(report["verdict"], "conformant", "{scenario}: {}", common::problems(&report));
        assert_eq!(code, 0);
        for check in judged {
            assert!(results(&report, check).iter().any(|c| c["status"] == "pass"), "{scenario}: {check} was not judged");
        }
    }
}

/// Runs `scenario` with proctor's reference pipeline as the runtime
/// (`proctor run --record-dir`), then verifies its records and LLM journal.
fn run_then_verify(scenario: &str) -> (i32, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let run = Command::new(proctor())
        .current_dir(repo_root())
        .args(["run", "--no-progress", "--record-dir"])
        .arg(dir.path())
        .arg(scenario)
        .output()
        .unwrap();
    assert!(run.status.success(), "{scenario} did not pass: {}", String::from_utf8_lossy(&run.stdout));
    let journal = dir.path().join("llm.journal.jsonl");
    verify_with(&repo_root().join(scenario), &["--record".as_ref(), dir.path().as_os_str(), "--journal".as_ref(), journal.as_os_str()])
}

/// PicoClaw as implemented keeps the history of a turn ended by
/// `abort_turn`, with the LLM's tool call and no result for it; the next
/// turn sends that to the LLM, which the OpenAI API rejects. proctor's
/// reference pipeline reproduces it, and verify must say so.
#[test]
fn verify_flags_the_unanswered_call_picoclaw_keeps_after_abort_turn() {
    let (code, report) = run_then_verify("scenarios/picoclaw/abort-turn-ends-with-error.yaml");
    assert_eq!(code, 1);
    assert_eq!(status(&report, "RUNTIME-LLM-TOOL-RESULTS"), [("fail".into(), "missing".into())], "{}", common::problems(&report));
}

/// One runtime check: a scenario plugin and the bytes a good and a bad runtime sent.
struct Bite {
    check: &'static str,
    scenario: &'static str,
    good: &'static [u8],
    good_eof: bool,
    bad: &'static [u8],
    bad_eof: bool,
}

const PICO: &str = "id: t/p\nruntime: picoclaw\nplugins:\n  - {name: hook, process: {mock: {}}, config: {picoclaw_hook: {intercept: [before_tool]}}}\nturns:\n  - user: hi\n";
const SERVER: &str = "id: t/s\nruntime: promptkit\nplugins:\n  - {name: hook, process: {mock: {}}, config: {promptkit_tool: {runtime: server}}}\nturns:\n  - user: hi\n";
const RUNOK: &str = "id: t/r\nruntime: runok\nplugins:\n  - {name: hook, process: {mock: {}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\n";
const RUNOK_REQ: &str = r#"{"id":1,"jsonrpc":"2.0","method":"validateCommand","params":{"args":[],"command":"ls","cwd":"/","env":{},"flags":{},"raw_command_line":"ls"}}"#;

const BITES: &[Bite] = &[
    Bite { check: "RUNTIME-FRAMING", scenario: PICO, good: concat!(r#"{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"hook","version":1,"modes":["tool"]}}"#, "\n").as_bytes(), good_eof: true,
           bad: concat!("{\"jsonrpc\":\"2.0\",\n", "\"id\":1}\n").as_bytes(), bad_eof: true },
    Bite { check: "RUNTIME-JSONRPC-ENVELOPE", scenario: SERVER, good: b"{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{}},\"id\":1}\n", good_eof: true,
           bad: b"{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{}},\"id\":\"1\"}\n", bad_eof: true },
    Bite { check: "RUNTIME-IDS-INCREASING", scenario: SERVER,
           good: b"{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{}},\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{}},\"id\":2}\n", good_eof: true,
           bad: b"{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{}},\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{}},\"id\":1}\n", bad_eof: true },
    Bite { check: "RUNTIME-METHODS", scenario: SERVER, good: b"{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{}},\"id\":1}\n", good_eof: true,
           bad: b"{\"jsonrpc\":\"2.0\",\"method\":\"run\",\"params\":{},\"id\":1}\n", bad_eof: true },
    Bite { check: "RUNTIME-HELLO-FIRST", scenario: PICO, good: concat!(r#"{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"hook","version":1,"modes":["tool"]}}"#, "\n").as_bytes(), good_eof: true,
           bad: b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hook.before_tool\",\"params\":{\"tool\":\"bash\"}}\n", bad_eof: true },
    Bite { check: "RUNTIME-STDIN-CLOSED", scenario: RUNOK, good: RUNOK_REQ.as_bytes(), good_eof: true, bad: RUNOK_REQ.as_bytes(), bad_eof: false },
];

fn record(dir: &Path, bytes: &[u8], eof: bool) {
    let mut lines = vec![serde_json::json!({"at_ms": 0, "start": true}).to_string()];
    lines.push(serde_json::json!({"at_ms": 1, "text": String::from_utf8_lossy(bytes)}).to_string());
    if eof {
        lines.push(serde_json::json!({"at_ms": 2, "eof": true}).to_string());
    }
    std::fs::write(dir.join("hook.jsonl"), lines.join("\n") + "\n").unwrap();
}

#[test]
fn every_runtime_check_bites() {
    for b in BITES {
        let dir = tempfile::tempdir().unwrap();
        let scenario = dir.path().join("s.yaml");
        std::fs::write(&scenario, b.scenario).unwrap();
        let records = dir.path().join("records");
        std::fs::create_dir(&records).unwrap();

        record(&records, b.bad, b.bad_eof);
        let (code, report) = verify(&scenario, &records);
        assert_eq!(code, 1, "{}", b.check);
        assert!(
            results(&report, b.check).iter().any(|c| c["status"] == "fail"),
            "{} did not fail:\n{}",
            b.check,
            common::problems(&report)
        );

        record(&records, b.good, b.good_eof);
        let (_, report) = verify(&scenario, &records);
        assert!(
            results(&report, b.check).iter().all(|c| c["status"] == "pass"),
            "{} did not pass:\n{}",
            b.check,
            common::problems(&report)
        );
    }
    // Judged with more than one record or with a journal: their own tests below.
    let elsewhere = [
        "RUNTIME-EXPECTED-CALLS",
        "RUNTIME-EXPECTED-RESULTS",
        "RUNTIME-RESTARTS-DEAD-SERVER",
        "RUNTIME-LLM-REQUEST",
        "RUNTIME-LLM-TOOL-RESULTS",
        "RUNTIME-LLM-SCRIPT",
        "RUNTIME-LATE-REPLY-DISCARDED",
    ];
    let covered = |id: &str| BITES.iter().any(|b| b.check == id) || elsewhere.contains(&id);
    let missing: Vec<&str> = CATALOGUE.iter().filter(|c| c.group == Group::Runtime).map(|c| c.id).filter(|id| !covered(id)).collect();
    assert!(missing.is_empty(), "runtime checks without a failing and a passing record: {missing:?}");
}

#[test]
fn expected_calls_are_judged_from_what_the_runtime_sent() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.yaml");
    std::fs::write(&scenario, format!("{PICO}expect:\n  received:\n    - {{plugin: hook, contains: '\"tool\":\"bash\"'}}\n  not_called:\n    - {{plugin: hook, call: hook.after_tool}}\n")).unwrap();
    let records = dir.path().join("records");
    std::fs::create_dir(&records).unwrap();
    let hello = r#"{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"hook","version":1,"modes":["tool"]}}"#;
    let before = r#"{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"bash"}}"#;
    let after = r#"{"jsonrpc":"2.0","id":3,"method":"hook.after_tool","params":{"tool":"bash"}}"#;

    record(&records, format!("{hello}\n{before}\n").as_bytes(), true);
    let (code, report) = verify(&scenario, &records);
    assert_eq!(code, 0, "{}", common::problems(&report));

    record(&records, format!("{hello}\n{before}\n{after}\n").as_bytes(), true);
    let (code, report) = verify(&scenario, &records);
    assert_eq!(code, 1);
    // The `received` expectation holds; the `not_called` one fails.
    assert_eq!(status(&report, "RUNTIME-EXPECTED-CALLS"), [pass(), ("fail".into(), "unexpected".into())], "{}", common::problems(&report));

    record(&records, format!("{hello}\n").as_bytes(), true);
    let (code, report) = verify(&scenario, &records);
    assert_eq!(code, 1);
    assert_eq!(status(&report, "RUNTIME-EXPECTED-CALLS"), [("fail".into(), "missing".into()), pass()], "{}", common::problems(&report));
}

/// A scenario whose LLM calls the server tool `hook` twice, then answers.
const TWO_CALLS: &str = "id: t/two\nruntime: promptkit\nplugins:\n  - {name: hook, process: {mock: {}}, config: {promptkit_tool: {runtime: server}}}\nllm:\n  - reply: {tool_calls: [{name: hook, arguments: {n: 1}}]}\n  - reply: {tool_calls: [{name: hook, arguments: {n: 2}}]}\n  - reply: {text: done, when: {last_role: tool}}\nturns:\n  - user: hi\n";

const EXECUTE_1: &str = "{\"jsonrpc\":\"2.0\",\"method\":\"execute\",\"params\":{\"args\":{\"n\":1}},\"id\":1}\n";

fn pass() -> (String, String) {
    ("pass".into(), String::new())
}

fn status(report: &serde_json::Value, check: &str) -> Vec<(String, String)> {
    results(report, check)
        .iter()
        .map(|c| {
            (c["status"].as_str().unwrap_or_default().to_string(), c["detail"]["failure"]["kind"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

#[test]
fn a_dead_server_must_be_restarted_as_documented() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.yaml");
    std::fs::write(&scenario, TWO_CALLS).unwrap();
    let file = dir.path().join("hook.jsonl");
    let start = serde_json::json!({"at_ms": 0, "start": true}).to_string();
    let text = serde_json::json!({"at_ms": 1, "text": EXECUTE_1}).to_string();
    let died = serde_json::json!({"at_ms": 2, "exit": 1}).to_string();
    let eof = serde_json::json!({"at_ms": 3, "eof": true}).to_string();
    let documented = ["--profile".as_ref(), "documented".as_ref(), "--record".as_ref(), file.as_os_str()];

    // The plugin died after one request and nothing started it again.
    std::fs::write(&file, [start.as_str(), &text, &died].join("\n")).unwrap();
    let (code, report) = verify_with(&scenario, &documented);
    assert_eq!(code, 1);
    assert_eq!(status(&report, "RUNTIME-RESTARTS-DEAD-SERVER"), [("fail".into(), "missing".into())], "{}", common::problems(&report));
    // PromptKit as implemented never restarts: a known divergence, not judged.
    let (_, report) = verify_with(&scenario, &["--record".as_ref(), file.as_os_str()]);
    assert_eq!(status(&report, "RUNTIME-RESTARTS-DEAD-SERVER")[0].0, "skip");

    // A second process took the next call.
    std::fs::write(&file, [start.as_str(), &text, &died, &start, &text, &eof].join("\n")).unwrap();
    let (code, report) = verify_with(&scenario, &documented);
    assert_eq!(status(&report, "RUNTIME-RESTARTS-DEAD-SERVER"), [("pass".into(), String::new())], "{}", common::problems(&report));
    assert_eq!(code, 0, "{}", common::problems(&report));
}

fn user() -> serde_json::Value {
    serde_json::json!({"role": "user", "content": "hi"})
}

fn assistant(n: u64) -> serde_json::Value {
    serde_json::json!({"role": "assistant", "content": "", "tool_calls": [{"id": "call_0_hook", "type": "function", "function": {"name": "hook", "arguments": format!("{{\"n\":{n}}}")}}]})
}

fn tool(content: &str) -> serde_json::Value {
    serde_json::json!({"role": "tool", "tool_call_id": "call_0_hook", "content": content})
}

/// A journal of chat requests with these message lists.
fn journal(path: &Path, requests: &[serde_json::Value]) {
    let lines: Vec<String> = requests
        .iter()
        .enumerate()
        .map(|(i, messages)| {
            let body = match messages {
                serde_json::Value::Array(_) => serde_json::json!({"model": "m", "messages": messages}),
                other => other.clone(),
            };
            serde_json::json!({"seq": i + 1, "method": "POST", "path": "/v1/chat/completions", "body": body, "answer": {"status": 200, "kind": "reply"}}).to_string()
        })
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn what_the_runtime_sent_the_llm_is_judged_from_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.yaml");
    std::fs::write(&scenario, TWO_CALLS).unwrap();
    let file = dir.path().join("llm.jsonl");
    let args = ["--journal".as_ref(), file.as_os_str()];
    let good = [
        serde_json::json!([user()]),
        serde_json::json!([user(), assistant(1), tool("one")]),
        serde_json::json!([user(), assistant(1), tool("one"), assistant(2), tool("two")]),
    ];

    journal(&file, &good);
    let (code, report) = verify_with(&scenario, &args);
    assert_eq!(code, 0, "{}", common::problems(&report));
    for check in ["RUNTIME-LLM-REQUEST", "RUNTIME-LLM-TOOL-RESULTS", "RUNTIME-LLM-SCRIPT"] {
        assert_eq!(status(&report, check), [("pass".into(), String::new())], "{check}");
    }

    // (journal, the check that must fail, its failure kind)
    let bad: Vec<(Vec<serde_json::Value>, &str, &str)> = vec![
        (vec![serde_json::json!({"messages": [user()]}), good[1].clone(), good[2].clone()], "RUNTIME-LLM-REQUEST", "mismatch"),
        (vec![good[0].clone(), serde_json::json!([user(), assistant(1)]), good[2].clone()], "RUNTIME-LLM-TOOL-RESULTS", "missing"),
        (
            vec![good[0].clone(), serde_json::json!([user(), assistant(1), tool("one"), tool("again")]), good[2].clone()],
            "RUNTIME-LLM-TOOL-RESULTS",
            "unexpected",
        ),
        (vec![good[0].clone(), good[1].clone()], "RUNTIME-LLM-SCRIPT", "missing"),
        // The second call was never answered although the script goes on.
        (vec![good[0].clone(), good[1].clone()], "RUNTIME-LLM-TOOL-RESULTS", "missing"),
        (vec![good[0].clone(), good[1].clone(), good[2].clone(), good[2].clone()], "RUNTIME-LLM-SCRIPT", "unexpected"),
        (
            vec![
                good[0].clone(),
                good[1].clone(),
                serde_json::json!([user(), assistant(1), tool("one"), assistant(2), tool("two"), user()]),
            ],
            "RUNTIME-LLM-SCRIPT",
            "mismatch",
        ),
    ];
    for (requests, check, kind) in bad {
        journal(&file, &requests);
        let (code, report) = verify_with(&scenario, &args);
        assert_eq!(code, 1, "{check} {kind}");
        assert_eq!(status(&report, check), [("fail".into(), kind.into())], "{check} {kind}: {}", common::problems(&report));
    }
}

#[test]
fn expected_tool_results_are_judged_from_what_the_llm_was_told() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.yaml");
    std::fs::write(
        &scenario,
        format!("{TWO_CALLS}expect:\n  tool_results:\n    - {{tool: hook, contains: one}}\n    - {{tool: hook, contains: two}}\n"),
    )
    .unwrap();
    let file = dir.path().join("llm.jsonl");
    let args = ["--journal".as_ref(), file.as_os_str()];
    let (first, second) = (serde_json::json!([user()]), serde_json::json!([user(), assistant(1), tool("one")]));
    let pass = ("pass".to_string(), String::new());

    journal(&file, &[first.clone(), second.clone(), serde_json::json!([user(), assistant(1), tool("one"), assistant(2), tool("two")])]);
    let (code, report) = verify_with(&scenario, &args);
    assert_eq!(code, 0, "{}", common::problems(&report));
    assert_eq!(status(&report, "RUNTIME-EXPECTED-RESULTS"), [pass.clone(), pass.clone()]);

    // The second call's result reached the LLM saying something else.
    journal(&file, &[first.clone(), second.clone(), serde_json::json!([user(), assistant(1), tool("one"), assistant(2), tool("blocked")])]);
    let (code, report) = verify_with(&scenario, &args);
    assert_eq!(code, 1);
    assert_eq!(
        status(&report, "RUNTIME-EXPECTED-RESULTS"),
        [pass.clone(), ("fail".into(), "mismatch".into())],
        "{}",
        common::problems(&report)
    );

    // It never reached the LLM at all.
    journal(&file, &[first, second]);
    let (_, report) = verify_with(&scenario, &args);
    assert_eq!(status(&report, "RUNTIME-EXPECTED-RESULTS"), [pass, ("fail".into(), "missing".into())], "{}", common::problems(&report));
}

#[test]
fn a_script_without_rounds_passes_only_if_the_llm_is_never_asked() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.yaml");
    std::fs::write(&scenario, "id: t/closed\nruntime: promptkit\nplugins:\n  - {name: policy, process: {mock: {faults: [exit-nonzero]}}, config: {promptkit_hook: {hook: provider, phases: [before_call], mode: filter}}}\nturns:\n  - user: hi\n").unwrap();
    let file = dir.path().join("llm.jsonl");
    let args = ["--journal".as_ref(), file.as_os_str()];

    journal(&file, &[]);
    let (code, report) = verify_with(&scenario, &args);
    assert_eq!(code, 0, "{}", common::problems(&report));
    assert_eq!(status(&report, "RUNTIME-LLM-SCRIPT"), [("pass".into(), String::new())]);

    // The filter hook failed and the runtime asked the LLM anyway (fail open).
    journal(&file, &[serde_json::json!([user()])]);
    let (code, report) = verify_with(&scenario, &args);
    assert_eq!(code, 1);
    assert_eq!(status(&report, "RUNTIME-LLM-SCRIPT"), [("fail".into(), "unexpected".into())], "{}", common::problems(&report));
}

#[test]
fn a_late_reply_must_not_answer_the_next_call() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.yaml");
    std::fs::write(&scenario, TWO_CALLS.replace("process: {mock: {}}", "process: {mock: {faults: [late-reply]}}")).unwrap();
    let file = dir.path().join("llm.jsonl");
    let args = ["--journal".as_ref(), file.as_os_str()];
    let timed_out = tool("tool execution timed out");
    let first = serde_json::json!([user()]);
    let second = serde_json::json!([user(), assistant(1), timed_out]);

    // The runtime handed the reply to request 1 to the second call.
    let misdelivered =
        serde_json::json!([user(), assistant(1), timed_out, assistant(2), tool("{\"echo\":{\"n\":1},\"proctor_late_reply_to\":1}")]);
    journal(&file, &[first.clone(), second.clone(), misdelivered]);
    let (code, report) = verify_with(&scenario, &args);
    assert_eq!(code, 1);
    assert_eq!(status(&report, "RUNTIME-LATE-REPLY-DISCARDED"), [("fail".into(), "unexpected".into())], "{}", common::problems(&report));

    // It matched replies by id and waited for the second call's own.
    let matched =
        serde_json::json!([user(), assistant(1), timed_out, assistant(2), tool("{\"echo\":{\"n\":2},\"proctor_late_reply_to\":2}")]);
    journal(&file, &[first, second, matched]);
    let (code, report) = verify_with(&scenario, &args);
    assert_eq!(status(&report, "RUNTIME-LATE-REPLY-DISCARDED"), [("pass".into(), String::new())], "{}", common::problems(&report));
    assert_eq!(code, 0, "{}", common::problems(&report));
}
