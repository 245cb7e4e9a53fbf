//! The answers to the author's own cases are protocol messages like any
//! other: every check holds them, a failure names the case, and a plugin
//! that crashes, hangs or garbles its answer to a case fails with that
//! outcome, never with the decision the runtime falls back to.

mod common;

use common::{certify_json, mock, problems, results};
use serde_json::Value;

fn cases_file(dir: &tempfile::TempDir, yaml: &str) -> String {
    let path = dir.path().join("cases.yaml");
    std::fs::write(&path, yaml).unwrap();
    path.display().to_string()
}

/// (profile, status, failure kind) of every result of `id`.
fn outcomes(report: &Value, id: &str) -> Vec<(String, String, String)> {
    results(report, id)
        .iter()
        .map(|c| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(&c["profile"]), s(&c["status"]), s(&c["detail"]["failure"]["kind"]))
        })
        .collect()
}

fn fail(profile: &str, kind: &str) -> (String, String, String) {
    (profile.into(), "fail".into(), kind.into())
}

#[test]
fn a_broken_respond_to_a_case_fails_the_respond_check_naming_the_case() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases_file(
        &dir,
        "cases:\n  - name: trigger gets a canned answer\n    method: hook.before_tool\n    request: {tool: bash, arguments: {command: trigger}}\n    expect: {decision: respond}\n",
    );
    let hook = ["python3".to_string(), "harness/tests/fixtures/case_sensitive_hook.py".into()];
    let flags = ["--protocol", "picoclaw-hook", "--role", "tool"];

    // Without the case, nothing makes the hook respond: the check is a skip, and the run is green.
    let (code, report, _) = certify_json(&flags, &hook);
    assert_eq!(code, 0, "{}", problems(&report));
    assert!(outcomes(&report, "PICOCLAW-RESPOND-RESULT").iter().all(|(_, status, _)| status == "skip"), "{}", problems(&report));

    let mut with_cases = flags.to_vec();
    with_cases.extend(["--cases", &cases]);
    let (code, report, _) = certify_json(&with_cases, &hook);
    assert_eq!(code, 1, "{}", problems(&report));
    // By the documents, the respond's result has the wrong shape; PicoClaw's Go
    // decoder cannot read the reply at all (`result` is a tools.ToolResult), so
    // the hook errors, is skipped, and the tool runs: the case's decision is lost there.
    let respond = outcomes(&report, "PICOCLAW-RESPOND-RESULT");
    assert!(respond.contains(&fail("documented", "mismatch")), "{}", problems(&report));
    assert!(!respond.iter().any(|(p, s, _)| p == "picoclaw@cf67dd3" && s == "pass"), "{}", problems(&report));
    assert_eq!(
        outcomes(&report, "GO-DECODE").into_iter().filter(|(_, s, _)| s == "fail").collect::<Vec<_>>(),
        [fail("picoclaw@cf67dd3", "mismatch")],
        "{}",
        problems(&report)
    );
    for r in results(&report, "PICOCLAW-RESPOND-RESULT").into_iter().chain(results(&report, "GO-DECODE")).filter(|r| r["status"] == "fail")
    {
        let message = r["message"].as_str().unwrap();
        assert!(message.starts_with("case `trigger gets a canned answer`: $.result"), "{message}");
        let received = r["evidence"]["received"].as_str().unwrap();
        assert!(received.contains(r#""result": "not-an-object""#), "{r}");
        // The line arrived with its newline, and the evidence says so.
        assert!(received.ends_with("}}\n"), "{received:?}");
    }
    let decided = outcomes(&report, "CASE-DECISION");
    assert!(decided.iter().filter(|(p, _, _)| p == "documented").all(|(_, status, _)| status == "pass"), "{}", problems(&report));
    assert!(decided.iter().any(|(p, status, _)| p == "picoclaw@cf67dd3" && status == "fail"), "{}", problems(&report));
}

#[test]
fn a_one_shot_crash_on_a_case_is_a_crash_not_the_fallback_decision() {
    let dir = tempfile::tempdir().unwrap();
    // A crashing tool is read by PromptKit as an error result: the author's
    // `decision: error` once passed on a crash.
    let cases =
        cases_file(&dir, "cases:\n  - name: a quote\n    request: {args: {text: \"say \\\"hi\\\"\"}}\n    expect: {decision: error}\n");
    let flags = ["--protocol", "promptkit-exec", "--role", "tool", "--cases", &cases];
    let (code, report, _) = certify_json(&flags, &mock("promptkit-exec", &["--role", "tool", "--fault", "crash-on-quote"]));
    assert_eq!(code, 1);
    assert_eq!(outcomes(&report, "CASE-DECISION"), [fail("documented", "crash"), fail("promptkit@86d9f36", "crash")]);
    assert_eq!(outcomes(&report, "LIFECYCLE-EXIT-ZERO"), [fail("documented", "crash"), fail("promptkit@86d9f36", "crash")]);
    for r in results(&report, "LIFECYCLE-EXIT-ZERO") {
        assert!(r["message"].as_str().unwrap().starts_with("case `a quote`: "), "{r}");
    }
}

#[test]
fn a_server_crash_on_a_case_fails_it_and_makes_the_later_cases_untestable() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases_file(
        &dir,
        "cases:\n  - name: plain\n    request: {args: {text: hi}}\n    expect: {decision: result}\n  - name: a quote\n    request: {args: {text: \"\\\"\"}}\n    expect: {decision: result}\n  - name: after\n    request: {args: {text: hi}}\n    expect: {decision: result}\n",
    );
    let (code, report, _) = certify_json(
        &["--protocol", "promptkit-server", "--profile", "documented", "--cases", &cases],
        &mock("promptkit-server", &["--fault", "crash-on-quote"]),
    );
    assert_eq!(code, 1);
    let by_case: Vec<(String, String, String)> = results(&report, "CASE-DECISION")
        .iter()
        .map(|c| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(&c["case"]), s(&c["detail"]["outcome"]), s(&c["detail"]["failure"]["kind"]))
        })
        .collect();
    assert_eq!(
        by_case,
        [
            ("plain".into(), "pass".into(), String::new()),
            ("a quote".into(), "fail".into(), "crash".into()),
            ("after".into(), "untestable".into(), String::new()),
        ],
        "{}",
        problems(&report)
    );
}

#[test]
fn sequential_requests_must_keep_getting_results() {
    let server = ["python3".to_string(), "harness/tests/fixtures/tires_server.py".into()];
    let (code, report, _) = certify_json(&["--protocol", "promptkit-server", "--profile", "documented"], &server);
    assert_eq!(code, 1);
    assert_eq!(outcomes(&report, "ROBUST-SEQUENTIAL"), [fail("documented", "mismatch")], "{}", problems(&report));
    let message = results(&report, "ROBUST-SEQUENTIAL")[0]["message"].as_str().unwrap();
    assert!(message.contains("expected a result to request") && message.contains("out of file descriptors"), "{message}");

    // The mock echoes every id and answers every request alike.
    let (code, report, _) = certify_json(&["--protocol", "promptkit-server", "--profile", "documented"], &mock("promptkit-server", &[]));
    assert_eq!(code, 0, "{}", problems(&report));
    assert_eq!(outcomes(&report, "ROBUST-SEQUENTIAL"), [("documented".into(), "pass".into(), String::new())]);
}

#[test]
fn every_report_states_how_many_exchanges_it_judged() {
    let (_, report, _) = certify_json(&["--protocol", "runok-extension", "--profile", "documented"], &mock("runok-extension", &[]));
    // runok: the probe, the other line ending, the unknown fields.
    assert_eq!(report["summary"]["exchanges"], 3, "{}", report["summary"]);
}

#[test]
fn a_broken_respond_to_a_fuzz_input_fails_the_respond_check_naming_the_input() {
    let hook = ["python3".to_string(), "harness/tests/fixtures/case_sensitive_hook.py".into()];
    let flags =
        ["--protocol", "picoclaw-hook", "--role", "tool", "--fuzz", "40", "--schema", "harness/tests/fixtures/fuzz_tool.schema.json"];
    let (code, report, _) = certify_json(&flags, &hook);
    assert_eq!(code, 1, "{}", problems(&report));
    assert_eq!(
        outcomes(&report, "PICOCLAW-RESPOND-RESULT"),
        [fail("documented", "mismatch"), fail("picoclaw@cf67dd3", "mismatch")],
        "{}",
        problems(&report)
    );
    for r in results(&report, "PICOCLAW-RESPOND-RESULT") {
        let message = r["message"].as_str().unwrap();
        assert!(message.starts_with("fuzz input ") && message.contains("(seed 1): $.result.result.for_llm"), "{message}");
    }
    // The protocol-level fuzz property held: every input got a well-formed reply.
    assert!(outcomes(&report, "ROBUST-FUZZ").iter().all(|(_, status, _)| status == "pass"), "{}", problems(&report));
}

/// One role: a semantic fault the native mock applies only to requests
/// carrying `proctor-mark` (`--fault only-marked`), the check it breaks, and
/// a case whose request carries the mark.
struct Row {
    certify: &'static [&'static str],
    protocol: &'static str,
    mock: &'static [&'static str],
    check: &'static str,
    case: &'static str,
}

const PER_ROLE: &[Row] = &[
    Row {
        certify: &["--protocol", "promptkit-exec", "--role", "tool"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool", "--fault", "tool-empty"],
        check: "TOOL-RESPONSE-SHAPE",
        case: "    request: {args: {note: proctor-mark}}\n    expect: {decision: result}",
    },
    Row {
        certify: &["--protocol", "promptkit-exec", "--role", "eval"],
        protocol: "promptkit-exec",
        mock: &["--role", "eval", "--fault", "score-out-of-range"],
        check: "EVAL-SCORE",
        case: "    request: {output: proctor-mark}\n    expect: {score_at_least: 0}",
    },
    Row {
        certify: &["--protocol", "promptkit-exec", "--role", "provider-hook"],
        protocol: "promptkit-exec",
        mock: &["--role", "provider-hook", "--fault", "allow-string"],
        check: "HOOK-ALLOW-BOOLEAN",
        case: "    phase: before_call\n    request: {messages: [{role: user, content: proctor-mark}]}\n    expect: {decision: allow}",
    },
    Row {
        certify: &["--protocol", "promptkit-exec", "--role", "tool-hook"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool-hook", "--fault", "allow-string"],
        check: "HOOK-ALLOW-BOOLEAN",
        case: "    phase: before_execution\n    request: {name: send, args: {body: proctor-mark}}\n    expect: {decision: allow}",
    },
    Row {
        certify: &["--protocol", "promptkit-exec", "--role", "session-hook", "--profile", "documented"],
        protocol: "promptkit-exec",
        mock: &["--role", "session-hook", "--fault", "no-ack"],
        check: "HOOK-OBSERVE-ACK",
        case: "    phase: session_start\n    request: {session_id: proctor-mark}\n    expect: {decision: ack}",
    },
    Row {
        certify: &["--protocol", "picoclaw-hook", "--role", "llm"],
        protocol: "picoclaw-hook",
        mock: &["--role", "llm", "--fault", "unknown-action"],
        check: "PICOCLAW-ACTION",
        case: "    method: hook.before_llm\n    request: {model: proctor-mark}\n    expect: {decision: continue}",
    },
    Row {
        certify: &["--protocol", "picoclaw-hook", "--role", "tool"],
        protocol: "picoclaw-hook",
        mock: &["--role", "tool", "--fault", "unknown-action"],
        check: "PICOCLAW-ACTION",
        case: "    method: hook.before_tool\n    request: {tool: bash, arguments: {command: proctor-mark}}\n    expect: {decision: continue}",
    },
    Row {
        certify: &["--protocol", "picoclaw-hook", "--role", "approve"],
        protocol: "picoclaw-hook",
        mock: &["--role", "approve", "--fault", "approve-string"],
        check: "PICOCLAW-APPROVE-BOOLEAN",
        case: "    method: hook.approve_tool\n    request: {tool: bash, arguments: {command: proctor-mark}}\n    expect: {decision: approved}",
    },
    Row {
        certify: &["--protocol", "runok-extension"],
        protocol: "runok-extension",
        mock: &["--fault", "status-uppercase"],
        check: "RUNOK-STATUS",
        case: "    request: {raw_command_line: echo proctor-mark}\n    expect: {decision: allow}",
    },
];

#[test]
fn every_role_holds_case_answers_to_its_semantic_checks() {
    for row in PER_ROLE {
        let mut mock_flags = row.mock.to_vec();
        mock_flags.extend(["--fault", "only-marked"]);
        let plugin = mock(row.protocol, &mock_flags);
        let what = format!("{} {:?}", row.check, row.certify);

        // The probes never carry the mark: the plugin is conformant without the case.
        let (code, report, _) = certify_json(row.certify, &plugin);
        assert_eq!(code, 0, "{what}: without cases:\n{}", problems(&report));

        let dir = tempfile::tempdir().unwrap();
        let cases = cases_file(&dir, &format!("cases:\n  - name: marked\n{}\n", row.case));
        let mut flags = row.certify.to_vec();
        flags.extend(["--cases", &cases]);
        let (code, report, _) = certify_json(&flags, &plugin);
        assert_eq!(code, 1, "{what}: with the marked case:\n{}", problems(&report));
        // A `should` check warns rather than fails.
        let failed: Vec<&Value> = results(&report, row.check).into_iter().filter(|c| c["detail"]["outcome"] == "fail").collect();
        assert!(!failed.is_empty(), "{what}: not failed:\n{}", problems(&report));
        for c in failed {
            assert!(c["message"].as_str().unwrap().starts_with("case `marked`: "), "{what}: {c}");
        }
    }
}
