//! Each profile's verdict answers "does it work in that runtime today?". A
//! documented rule a runtime does not enforce fails under `documented` and
//! is a warning under the runtime's profile that says what the runtime does
//! (a tolerance); replies are attributed as each runtime attributes them.

mod common;

use common::{certify_json, mock, problems, results};
use proctor_conformance::check::tolerance::TOLERANCES;
use serde_json::Value;

/// One tolerance: a plugin that breaks the rule, and the check it breaks.
struct Row {
    tolerance: &'static str,
    certify: &'static [&'static str],
    protocol: &'static str,
    mock: &'static [&'static str],
    check: &'static str,
}

const ROWS: &[Row] = &[
    Row {
        tolerance: "runok.ignores-reply-id",
        certify: &["--protocol", "runok-extension"],
        protocol: "runok-extension",
        mock: &["--fault", "wrong-id"],
        check: "JSONRPC-ID-ECHO",
    },
    Row {
        tolerance: "runok.ignores-jsonrpc",
        certify: &["--protocol", "runok-extension"],
        protocol: "runok-extension",
        mock: &["--fault", "no-jsonrpc"],
        check: "JSONRPC-VERSION",
    },
    Row {
        tolerance: "promptkit.server-ignores-jsonrpc",
        certify: &["--protocol", "promptkit-server"],
        protocol: "promptkit-server",
        mock: &["--fault", "no-jsonrpc"],
        check: "JSONRPC-VERSION",
    },
    Row {
        tolerance: "promptkit.server-error-before-result",
        certify: &["--protocol", "promptkit-server"],
        protocol: "promptkit-server",
        mock: &["--fault", "both-result-error"],
        check: "JSONRPC-RESULT-XOR-ERROR",
    },
    Row {
        tolerance: "promptkit.eval-score-unclamped",
        certify: &["--protocol", "promptkit-exec", "--role", "eval"],
        protocol: "promptkit-exec",
        mock: &["--role", "eval", "--fault", "score-out-of-range"],
        check: "EVAL-SCORE",
    },
    Row {
        tolerance: "promptkit.invalid-utf8-replaced",
        certify: &["--protocol", "promptkit-exec", "--role", "tool"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool", "--fault", "invalid-utf8"],
        check: "FRAMING-UTF8",
    },
    // The same bytes on a JSON-RPC line: read lossily as a message, not
    // taken over by the stand-in for lines only Go reads.
    Row {
        tolerance: "promptkit.invalid-utf8-replaced",
        certify: &["--protocol", "promptkit-server", "--role", "tool"],
        protocol: "promptkit-server",
        mock: &["--role", "tool", "--fault", "invalid-utf8"],
        check: "FRAMING-UTF8",
    },
    Row {
        tolerance: "picoclaw.ignores-jsonrpc",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--fault", "no-jsonrpc"],
        check: "JSONRPC-VERSION",
    },
    Row {
        tolerance: "picoclaw.skips-undecodable-lines",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--fault", "log-line"],
        check: "FRAMING-NO-STRAY-OUTPUT",
    },
    Row {
        tolerance: "picoclaw.drops-stale-replies",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--fault", "duplicate-id"],
        check: "JSONRPC-NO-DUPLICATE-REPLY",
    },
    Row {
        tolerance: "promptkit.tool-whole-document-result",
        certify: &["--protocol", "promptkit-exec", "--role", "tool"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool", "--fault", "tool-empty"],
        check: "TOOL-RESPONSE-SHAPE",
    },
    Row {
        tolerance: "promptkit.pending-not-read",
        certify: &["--protocol", "promptkit-exec", "--role", "tool"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool", "--decision", "pending", "--fault", "pending-no-reason"],
        check: "TOOL-PENDING-SHAPE",
    },
    Row {
        tolerance: "promptkit.pending-beside-an-answer",
        certify: &["--protocol", "promptkit-exec", "--role", "tool"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool", "--script", "mocks/scripts/promptkit-tool-result-beside-pending.json"],
        check: "TOOL-RESPONSE-SHAPE",
    },
    Row {
        tolerance: "promptkit.tool-error-before-result",
        certify: &["--protocol", "promptkit-exec", "--role", "tool"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool", "--script", "mocks/scripts/promptkit-tool-result-beside-empty-error.json"],
        check: "TOOL-RESPONSE-SHAPE",
    },
    Row {
        // serde skips an `id` unread: runok types none, so 1e999 there is no error.
        tolerance: "runok.skips-unknown-keys-unread",
        certify: &["--protocol", "runok-extension"],
        protocol: "runok-extension",
        mock: &["--script", "mocks/scripts/runok-huge-id.json"],
        check: "FRAMING-SINGLE-DOCUMENT",
    },
    Row {
        tolerance: "promptkit.keeps-raw-numbers",
        certify: &["--protocol", "promptkit-exec", "--role", "tool"],
        protocol: "promptkit-exec",
        mock: &["--role", "tool", "--script", "mocks/scripts/promptkit-tool-raw-huge-number.json"],
        check: "FRAMING-SINGLE-DOCUMENT",
    },
    Row {
        tolerance: "picoclaw.hello-result-ignored",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--script", "mocks/scripts/picoclaw-hello-null.json"],
        check: "LIFECYCLE-HANDSHAKE",
    },
    Row {
        tolerance: "promptkit.selector-unknown-ids-dropped",
        certify: &["--protocol", "promptkit-exec", "--role", "selector"],
        protocol: "promptkit-exec",
        mock: &["--role", "selector", "--fault", "selector-unknown-id"],
        check: "SELECTOR-KNOWN-IDS",
    },
    Row {
        tolerance: "promptkit.sends-only-known-fields",
        certify: &["--protocol", "promptkit-exec", "--role", "eval"],
        protocol: "promptkit-exec",
        mock: &["--role", "eval", "--fault", "strict-fields"],
        check: "ROBUST-UNKNOWN-FIELDS",
    },
    Row {
        tolerance: "picoclaw.sends-only-known-fields",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--fault", "strict-fields"],
        check: "ROBUST-UNKNOWN-FIELDS",
    },
    Row {
        tolerance: "runok.sends-only-known-fields",
        certify: &["--protocol", "runok-extension"],
        protocol: "runok-extension",
        mock: &["--fault", "strict-fields"],
        check: "ROBUST-UNKNOWN-FIELDS",
    },
    Row {
        tolerance: "promptkit.server-sends-only-execute",
        certify: &["--protocol", "promptkit-server"],
        protocol: "promptkit-server",
        mock: &["--fault", "ignore-unknown-method"],
        check: "JSONRPC-UNKNOWN-METHOD",
    },
    Row {
        tolerance: "picoclaw.sends-only-its-methods",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--fault", "ignore-unknown-method"],
        check: "JSONRPC-UNKNOWN-METHOD",
    },
    Row {
        tolerance: "picoclaw.skips-broken-lines",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--script", "mocks/scripts/picoclaw-broken-line-first.json"],
        check: "FRAMING-LINE-PER-MESSAGE",
    },
    Row {
        tolerance: "picoclaw.drops-replies-without-id",
        certify: &["--protocol", "picoclaw-hook"],
        protocol: "picoclaw-hook",
        mock: &["--fault", "reply-to-notification"],
        check: "JSONRPC-NOTIFICATION-SILENT",
    },
];

fn status_of(report: &Value, check: &str) -> Vec<(String, String, Option<String>)> {
    results(report, check)
        .iter()
        .map(|c| {
            (
                c["profile"].as_str().unwrap().to_string(),
                c["status"].as_str().unwrap().to_string(),
                c["tolerated"].as_str().map(String::from),
            )
        })
        .collect()
}

#[test]
fn every_tolerance_warns_under_its_runtime_and_fails_the_documents() {
    for row in ROWS {
        let (code, report, _) = certify_json(row.certify, &mock(row.protocol, row.mock));
        let runtime = report["profiles"][1].as_str().unwrap().to_string();
        let what = format!("{} ({:?})", row.tolerance, row.mock);
        assert_eq!(code, 1, "{what}: the documented verdict still fails the run:\n{}", problems(&report));
        assert_eq!(
            status_of(&report, row.check),
            [("documented".into(), "fail".into(), None), (runtime.clone(), "warn".into(), Some(row.tolerance.to_string()))],
            "{what}:\n{}",
            problems(&report)
        );
        assert_eq!(report["profile_verdicts"]["documented"], "nonconformant", "{what}");
        assert_eq!(report["profile_verdicts"][&runtime], "conformant", "{what}:\n{}", problems(&report));
        // Nothing else is blamed: the rule broken is the only real failure
        // (under `documented` an unreadable answer leaves later checks untestable).
        let failing: Vec<&str> = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] == "fail" && c["detail"]["outcome"] == "fail")
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert_eq!(failing, [row.check], "{what}:\n{}", problems(&report));
    }
    let missing: Vec<&str> = TOLERANCES.iter().map(|t| t.id).filter(|id| !ROWS.iter().any(|r| r.tolerance == *id)).collect();
    // picoclaw.error-wins: a hook answering both fails its handshake there (PicoClaw reads the error), see below.
    // The mock's invalid bytes land inside the status or action, which the runtime then rejects:
    // see the plugin below for runok; a unit test holds PicoClaw's (conformance check::tolerance).
    // The agents' tolerances are shown by command hooks, in agent_lifetime.rs (the mock plays no agent).
    assert_eq!(
        missing,
        [
            "claude-code.children-not-waited",
            "codex.detached-child-not-waited",
            "picoclaw.invalid-utf8-replaced",
            "runok.invalid-utf8-lossy",
            "picoclaw.error-wins"
        ],
        "tolerances without a plugin that shows them"
    );
}

#[test]
fn an_error_wins_reply_is_judged_as_the_error_picoclaw_reads() {
    // Both result and error on every reply: PicoClaw takes the error, so the
    // handshake fails there; the envelope rule itself is only a warning.
    let (code, report, _) = certify_json(&["--protocol", "picoclaw-hook"], &mock("picoclaw-hook", &["--fault", "both-result-error"]));
    assert_eq!(code, 1);
    assert_eq!(
        status_of(&report, "JSONRPC-RESULT-XOR-ERROR"),
        [("documented".into(), "fail".into(), None), ("picoclaw@cf67dd3".into(), "warn".into(), Some("picoclaw.error-wins".into()))]
    );
    assert_eq!(report["profile_verdicts"]["picoclaw@cf67dd3"], "nonconformant");
    let handshake = status_of(&report, "LIFECYCLE-HANDSHAKE");
    assert_eq!(handshake[1], ("picoclaw@cf67dd3".into(), "fail".into(), None), "{}", problems(&report));
}

#[test]
fn a_duplicate_reply_is_its_own_finding_never_the_next_answer() {
    // Every reply written twice. Before replies were matched by id, the
    // duplicate was taken as the answer to the next request and blamed on
    // JSONRPC-ID-ECHO, JSONRPC-UNKNOWN-METHOD and PICOCLAW-APPROVE-BOOLEAN.
    let (_, report, _) = certify_json(&["--protocol", "picoclaw-hook"], &mock("picoclaw-hook", &["--fault", "duplicate-id"]));
    for check in ["JSONRPC-ID-ECHO", "JSONRPC-UNKNOWN-METHOD", "PICOCLAW-APPROVE-BOOLEAN", "ROBUST-SEQUENTIAL"] {
        assert!(status_of(&report, check).iter().all(|(_, s, _)| s == "pass"), "{check}:\n{}", problems(&report));
    }
    let message = results(&report, "JSONRPC-NO-DUPLICATE-REPLY")[0]["message"].as_str().unwrap();
    assert_eq!(message, "a second reply to request 1, while request 2 waited");

    // PromptKit server mode reads one line per call: there the duplicate
    // really is taken as the next call's reply.
    let (_, report, _) = certify_json(&["--protocol", "promptkit-server"], &mock("promptkit-server", &["--fault", "duplicate-id"]));
    assert_eq!(status_of(&report, "JSONRPC-NO-DUPLICATE-REPLY"), [("documented".into(), "fail".into(), None)]);
    assert_eq!(status_of(&report, "JSONRPC-ID-ECHO")[1], ("promptkit@86d9f36".into(), "fail".into(), None), "{}", problems(&report));
    assert_eq!(report["profile_verdicts"]["promptkit@86d9f36"], "nonconformant");
}

#[test]
fn the_text_report_says_the_verdict_per_profile_in_words() {
    let out = std::process::Command::new(common::proctor())
        .current_dir(common::repo_root())
        .args(["certify", "--no-progress", "--protocol", "runok-extension", "--"])
        .args(mock("runok-extension", &["--fault", "wrong-id"]))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("  documented           nonconformant\n  runok@0.3.1          conformant\n"), "{text}");
    assert!(
        text.ends_with(
            "speaks runok@0.3.1's protocol; its decisions were not judged (no --cases: `proctor init` writes a cases file); breaks the documented protocol: JSONRPC-ID-ECHO\n"
        ),
        "{text}"
    );
    assert!(text.contains("FAIL JSONRPC-ID-ECHO (documented, runok@0.3.1 tolerates it)"), "{text}");
}

#[test]
fn invalid_utf8_in_a_message_is_read_by_runok() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("latin1.sh");
    // "café" in Latin-1: one byte that is not UTF-8, in an optional message.
    std::fs::write(
        &script,
        "#!/bin/sh\ncat >/dev/null\nprintf '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"allow\",\"message\":\"caf\\351\"}}'\n",
    )
    .unwrap();
    let (code, report, _) = certify_json(&["--protocol", "runok-extension"], &["sh".into(), script.display().to_string()]);
    assert_eq!(code, 1);
    assert_eq!(
        status_of(&report, "FRAMING-UTF8"),
        [("documented".into(), "fail".into(), None), ("runok@0.3.1".into(), "warn".into(), Some("runok.invalid-utf8-lossy".into()))]
    );
    assert_eq!(report["profile_verdicts"]["runok@0.3.1"], "conformant", "{}", problems(&report));
}

#[test]
fn an_error_beside_a_result_works_in_promptkit_only_when_a_case_says_the_error_was_meant() {
    // PromptKit reads the error first and fails the call with it. Whether
    // that is what the plugin meant, only its cases can say.
    let dir = tempfile::tempdir().unwrap();
    let plugin = mock("promptkit-exec", &["--role", "tool", "--script", "mocks/scripts/promptkit-tool-error-beside-result.json"]);
    let verdict = |cases: Option<&str>| {
        let mut flags = vec!["--protocol", "promptkit-exec", "--role", "tool"];
        let path = dir.path().join("cases.yaml");
        let path = path.display().to_string();
        if let Some(text) = cases {
            std::fs::write(&path, text).unwrap();
            flags.extend(["--cases", path.as_str()]);
        }
        let (_, report, _) = certify_json(&flags, &plugin);
        (report["profile_verdicts"]["promptkit@86d9f36"].as_str().unwrap().to_string(), status_of(&report, "TOOL-RESPONSE-SHAPE"), report)
    };
    let (unknown, shape, report) = verdict(None);
    assert_eq!(unknown, "nonconformant", "which did the plugin mean? {}", problems(&report));
    assert_eq!(shape[1], ("promptkit@86d9f36".into(), "fail".into(), None));
    let (error, shape, report) =
        verdict(Some("cases:\n  - name: unknown city\n    request: {city: Atlantis}\n    expect: {decision: error}\n"));
    assert_eq!(error, "conformant", "{}", problems(&report));
    assert_eq!(shape[1], ("promptkit@86d9f36".into(), "warn".into(), Some("promptkit.tool-error-before-result".into())));
    assert_eq!(shape[0].1, "fail", "the documents still want one of them");
    let (result, _, report) = verdict(Some("cases:\n  - name: known city\n    request: {city: Paris}\n    expect: {decision: result}\n"));
    assert_eq!(result, "nonconformant", "PromptKit fails the call the case wants answered: {}", problems(&report));
}

#[test]
fn a_verdict_claims_the_plugins_decisions_only_when_cases_judged_them() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = mock("runok-extension", &[]);
    let run = |extra: &[&str]| {
        let mut flags = vec!["--protocol", "runok-extension"];
        flags.extend(extra);
        certify_json(&flags, &plugin).1
    };
    // No cases: the protocol was judged, what the guard decides was not.
    let report = run(&[]);
    assert_eq!(report["decisions_not_judged"], serde_json::json!(["documented", "runok@0.3.1"]), "{}", problems(&report));
    let text = std::process::Command::new(common::proctor())
        .current_dir(common::repo_root())
        .args(["certify", "--no-progress", "--protocol", "runok-extension", "--"])
        .args(&plugin)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.ends_with(
            "speaks runok@0.3.1's protocol; its decisions were not judged (no --cases: `proctor init` writes a cases file); follows the documented protocol\n"
        ),
        "{text}"
    );
    // A case asked of it: its decisions were judged, and the verdict says it works.
    let cases = dir.path().join("cases.yaml");
    std::fs::write(&cases, "cases:\n  - name: ls is allowed\n    request: {command: ls}\n    expect: {decision: allow}\n").unwrap();
    let cases = cases.display().to_string();
    let report = run(&["--cases", cases.as_str()]);
    assert_eq!(report["profile_verdicts"]["runok@0.3.1"], "conformant", "{}", problems(&report));
    assert!(report.get("decisions_not_judged").is_none(), "{report}");
}

#[test]
fn where_the_profiles_part_the_failure_names_the_runtime_fact_that_parts_them() {
    // A tool that asks for approval: the documents pause, PromptKit never reads `pending`.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("pending.json");
    std::fs::write(&script, r#"{"stdout": "{\"pending\": {\"reason\": \"requires_approval\", \"message\": \"ask an operator\"}}"}"#)
        .unwrap();
    let cases = dir.path().join("cases.yaml");
    std::fs::write(&cases, "cases:\n  - name: needs approval\n    request: {city: Paris}\n    expect: {decision: pending}\n").unwrap();
    let (script, cases) = (script.display().to_string(), cases.display().to_string());
    let plugin = mock("promptkit-exec", &["--role", "tool", "--script", script.as_str()]);
    let (_, report, _) = certify_json(&["--protocol", "promptkit-exec", "--role", "tool", "--cases", cases.as_str()], &plugin);
    let case = results(&report, "CASE-DECISION");
    let by = |p: &str| case.iter().find(|c| c["profile"] == p).unwrap_or_else(|| panic!("{}", problems(&report)));
    assert_eq!(by("documented")["status"], "pass");
    let pk = by("promptkit@86d9f36");
    assert_eq!(pk["status"], "fail");
    let message = pk["message"].as_str().unwrap();
    assert!(
        message.contains("why promptkit@86d9f36 parts from the documents here") && message.contains("promptkit.pending-ignored"),
        "{message}"
    );
    assert!(!message.contains("pascal-case"), "only the facts of a tool: {message}");
}
