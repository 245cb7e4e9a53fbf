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
    assert_eq!(
        outcomes(&report, "PICOCLAW-RESPOND-RESULT"),
        [fail("documented", "mismatch"), fail("picoclaw@cf67dd3", "mismatch")],
        "{}",
        problems(&report)
    );
    for r in results(&report, "PICOCLAW-RESPOND-RESULT") {
        let message = r["message"].as_str().unwrap();
        assert!(message.starts_with("case `trigger gets a canned answer`: $.result.result.for_llm"), "{message}");
        let received = r["evidence"]["received"].as_str().unwrap();
        assert!(received.contains(r#""result": "not-an-object""#), "{r}");
        // The line arrived with its newline, and the evidence says so.
        assert!(received.ends_with("}}\n"), "{received:?}");
    }
    // The decision itself is what the author expected: only the shape is wrong.
    assert!(outcomes(&report, "CASE-DECISION").iter().all(|(_, status, _)| status == "pass"), "{}", problems(&report));
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
