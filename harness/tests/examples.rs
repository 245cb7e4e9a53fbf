//! The shipped examples: every well-behaved plugin is conformant under every
//! profile with its own cases; every broken one is nonconformant and the
//! report names the check its header promises. These are real Python and
//! sh subprocesses, as a plugin author would run them.

mod common;

use common::{certify_json, problems, repo_root, results};

fn argv(interp: &str, path: &str) -> Vec<String> {
    vec![interp.to_string(), repo_root().join(path).display().to_string()]
}

fn conformant(flags: &[&str], interp: &str, plugin: &str) {
    let (code, report, _) = certify_json(flags, &argv(interp, plugin));
    assert_eq!(report["verdict"], "conformant", "{plugin}:\n{}", problems(&report));
    assert_eq!(code, 0);
    assert_eq!(report["profiles"].as_array().unwrap().len(), 2, "both profiles run by default");
    assert_eq!(report["summary"]["failed"], 0);
}

#[test]
fn picoclaw_review_gate_is_conformant() {
    conformant(
        &["--protocol", "picoclaw-hook", "--cases", "examples/picoclaw-hook/review_gate.cases.yaml"],
        "python3",
        "examples/picoclaw-hook/review_gate.py",
    );
}

#[test]
fn promptkit_server_kv_is_conformant() {
    conformant(
        &["--protocol", "promptkit-server", "--cases", "examples/promptkit-server/kv_server.cases.yaml"],
        "python3",
        "examples/promptkit-server/kv_server.py",
    );
}

#[test]
fn promptkit_exec_examples_are_conformant() {
    for (role, stem) in [
        ("tool-hook", "pii_tool_hook"),
        ("provider-hook", "provider_hook"),
        ("session-hook", "audit_session_hook"),
        ("eval", "tone_eval"),
        ("selector", "rerank_selector"),
    ] {
        let cases = format!("examples/promptkit-exec/{stem}.cases.yaml");
        conformant(
            &["--protocol", "promptkit-exec", "--role", role, "--cases", &cases],
            "python3",
            &format!("examples/promptkit-exec/{stem}.py"),
        );
    }
}

/// The weather tool answers `pending` for kelvin, as the documents say a tool
/// asks for approval; PromptKit never pauses on it (measured in
/// interop/promptkit: the call completes with the document as its result).
/// So its kelvin case holds under the documents and fails as implemented, and
/// nothing else does.
#[test]
fn weather_tool_pauses_only_where_the_runtime_reads_pending() {
    let (code, report, _) = certify_json(
        &["--protocol", "promptkit-exec", "--role", "tool", "--cases", "examples/promptkit-exec/weather_tool.cases.yaml"],
        &argv("python3", "examples/promptkit-exec/weather_tool.py"),
    );
    assert_eq!(code, 1);
    assert_eq!(report["profile_verdicts"]["documented"], "conformant", "{}", problems(&report));
    let failed: Vec<String> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail")
        .map(|c| format!("{} {} {}", c["profile"].as_str().unwrap(), c["id"].as_str().unwrap(), c["case"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(failed, ["promptkit@86d9f36 CASE-DECISION kelvin readings need approval"], "{}", problems(&report));
}

#[test]
fn runok_examples_are_conformant() {
    conformant(
        &["--protocol", "runok-extension", "--cases", "examples/runok-extension/env_guard.cases.yaml"],
        "sh",
        "examples/runok-extension/env_guard.sh",
    );
    conformant(
        &["--protocol", "runok-extension", "--cases", "examples/runok-extension/url_check.cases.yaml"],
        "python3",
        "examples/runok-extension/url_check.py",
    );
}

/// Asserts a real (not untestable) failure of `check`, under `profile` if given.
fn fails(report: &serde_json::Value, check: &str, profile: Option<&str>) {
    let hit = results(report, check)
        .into_iter()
        .any(|c| c["status"] == "fail" && c["detail"]["outcome"] == "fail" && profile.is_none_or(|p| c["profile"] == p));
    assert!(hit, "expected {check} to fail{}:\n{}", profile.map(|p| format!(" under {p}")).unwrap_or_default(), problems(report));
}

#[test]
fn buffered_hook_fails_flushed_with_the_reply_as_evidence() {
    let (code, report, _) =
        certify_json(&["--protocol", "picoclaw-hook", "--timeout-ms", "1000"], &argv("python3", "examples/broken/buffered_hook.py"));
    assert_eq!(code, 1);
    fails(&report, "FRAMING-FLUSHED", None);
    let flushed = results(&report, "FRAMING-FLUSHED")[0];
    assert!(flushed["evidence"]["received"].as_str().unwrap().contains("\"id\":1"), "{flushed}");
    assert!(flushed["hint"].as_str().unwrap().contains("flush"));
}

#[test]
fn docs_tool_hook_passes_documented_but_fails_its_cases_as_implemented() {
    let (code, report, _) = certify_json(
        &["--protocol", "promptkit-exec", "--role", "tool-hook", "--cases", "examples/broken/docs_tool_hook.cases.yaml"],
        &argv("python3", "examples/broken/docs_tool_hook.py"),
    );
    assert_eq!(code, 1);
    fails(&report, "CASE-DECISION", Some("promptkit@86d9f36"));
    let documented_failures: Vec<_> =
        report["checks"].as_array().unwrap().iter().filter(|c| c["profile"] == "documented" && c["status"] == "fail").collect();
    assert!(documented_failures.is_empty(), "documented profile should pass: {documented_failures:?}");
    let case = results(&report, "CASE-DECISION").into_iter().find(|c| c["status"] == "fail").unwrap();
    assert!(case["evidence"]["sent"].as_str().unwrap().contains("\"Args\""), "evidence shows the PascalCase payload: {case}");
}

#[test]
fn chatty_tool_fails_single_document_at_byte_zero() {
    let (code, report, _) =
        certify_json(&["--protocol", "promptkit-exec", "--role", "tool"], &argv("python3", "examples/broken/chatty_tool.py"));
    assert_eq!(code, 1);
    fails(&report, "FRAMING-SINGLE-DOCUMENT", None);
    let c = results(&report, "FRAMING-SINGLE-DOCUMENT").into_iter().find(|c| c["status"] == "fail").unwrap();
    assert_eq!(c["detail"]["failure"]["violation"]["kind"], "garbage");
    assert_eq!(c["detail"]["failure"]["violation"]["offset"], 0);
}

#[test]
fn while_read_guard_fails_reads_to_eof() {
    let (code, report, _) = certify_json(&["--protocol", "runok-extension"], &argv("sh", "examples/broken/while_read_guard.sh"));
    assert_eq!(code, 1);
    fails(&report, "LIFECYCLE-READS-TO-EOF", None);
}

#[test]
fn docs_rerank_selector_selects_nothing_under_promptkit() {
    // Read from the docs (lowercase keys), it never sees PromptKit's `Text` and `ID`.
    let (code, report, _) = certify_json(
        &["--protocol", "promptkit-exec", "--role", "selector", "--cases", "examples/broken/docs_rerank_selector.cases.yaml"],
        &argv("python3", "examples/broken/docs_rerank_selector.py"),
    );
    assert_eq!(code, 1);
    assert_eq!(report["profile_verdicts"]["documented"], "conformant", "{}", problems(&report));
    fails(&report, "CASE-DECISION", Some("promptkit@86d9f36"));
    let message = results(&report, "CASE-DECISION").iter().find(|c| c["profile"] == "promptkit@86d9f36").unwrap()["message"].clone();
    assert!(message.as_str().unwrap().contains("got `selected []`"), "{message}");
}

#[test]
fn docs_rerank_selector_fails_under_promptkit_without_any_cases() {
    // Written from the documents, it reads `id` and `k`; PromptKit sends `ID` and `K`, so inside
    // PromptKit it selects nothing. Certify sees it from its own probes: the same content in the
    // other key spelling gets another answer, and this spelling's answer is the empty request's.
    let (code, report, _) =
        certify_json(&["--protocol", "promptkit-exec", "--role", "selector"], &argv("python3", "examples/broken/docs_rerank_selector.py"));
    assert_eq!(code, 1, "{}", problems(&report));
    fails(&report, "PROMPTKIT-KEY-SPELLING", Some("promptkit@86d9f36"));
    assert_eq!(report["profile_verdicts"]["documented"], "conformant", "{}", problems(&report));
    let spelling = results(&report, "PROMPTKIT-KEY-SPELLING").into_iter().find(|c| c["status"] == "fail").unwrap();
    assert!(
        spelling["message"].as_str().unwrap().contains("`selected []` in promptkit@86d9f36's key spelling, its answer to an empty request"),
        "{spelling}"
    );
}

#[test]
fn a_check_left_out_sends_none_of_its_probes() {
    let plugin = common::mock("promptkit-exec", &["--role", "selector", "--fault", "documented-keys-only"]);
    let flags = ["--protocol", "promptkit-exec", "--role", "selector"];
    let (_, all, _) = certify_json(&flags, &plugin);
    let (code, without, _) = certify_json(&[&flags[..], &["--skip-check", "PROMPTKIT-KEY-SPELLING"]].concat(), &plugin);
    assert_eq!(code, 0, "the only failing check is left out: {}", problems(&without));
    let exchanges = |r: &serde_json::Value| r["summary"]["exchanges"].as_u64().unwrap();
    assert!(exchanges(&without) < exchanges(&all), "{} vs {}", exchanges(&without), exchanges(&all));
}

#[test]
fn agent_hook_examples_are_conformant_under_both_agents() {
    for family in ["claude-code-hook", "codex-hook"] {
        conformant(
            &["--protocol", family, "--role", "PreToolUse", "--cases", "examples/agent-hooks/bash_guard.cases.yaml"],
            "python3",
            "examples/agent-hooks/bash_guard.py",
        );
        conformant(
            &["--protocol", family, "--role", "PostToolUse", "--cases", "examples/agent-hooks/secret_scan.cases.yaml"],
            "python3",
            "examples/agent-hooks/secret_scan.py",
        );
    }
}

/// Each broken hook of issue 33's bug classes fails the check its header names, under the
/// families whose agent it breaks.
#[test]
fn broken_agent_hooks_fail_the_check_they_promise() {
    let rows: &[(&str, &str, &str, &str, &str)] = &[
        ("claude-code-hook", "PreToolUse", "python3", "examples/broken/banner_hook.py", "AGENT-HOOK-STDOUT-JSON"),
        ("codex-hook", "PreToolUse", "python3", "examples/broken/banner_hook.py", "AGENT-HOOK-STDOUT-JSON"),
        ("codex-hook", "PreToolUse", "python3", "examples/broken/echo_hook.py", "AGENT-HOOK-OUTPUT-SCHEMA"),
        ("codex-hook", "PreToolUse", "sh", "examples/broken/exit2_stdout_hook.sh", "AGENT-HOOK-EXIT2-STDERR"),
        ("claude-code-hook", "PreToolUse", "sh", "examples/broken/exit2_stdout_hook.sh", "AGENT-HOOK-EXIT2-STDERR"),
        ("claude-code-hook", "PreToolUse", "python3", "examples/broken/nameless_hook.py", "AGENT-HOOK-EVENT-NAME"),
        ("codex-hook", "PreToolUse", "python3", "examples/broken/nameless_hook.py", "AGENT-HOOK-EVENT-NAME"),
    ];
    for (family, event, interp, hook, check) in rows {
        let (code, report, _) = certify_json(&["--protocol", family, "--role", event], &argv(interp, hook));
        assert_eq!(code, 1, "{hook} under {family}:\n{}", problems(&report));
        fails(&report, check, None);
    }
    // An echoed payload is only extra keys to Claude Code, which ignores them.
    let (_, report, _) =
        certify_json(&["--protocol", "claude-code-hook", "--role", "PreToolUse"], &argv("python3", "examples/broken/echo_hook.py"));
    assert_eq!(report["verdict"], "conformant", "{}", problems(&report));
    // Reading tool_input for the output passes every protocol check and fails its own cases.
    let (code, report, _) = certify_json(
        &["--protocol", "codex-hook", "--role", "PostToolUse", "--cases", "examples/broken/input_reading_scan.cases.yaml"],
        &argv("python3", "examples/broken/input_reading_scan.py"),
    );
    assert_eq!(code, 1);
    let failed: Vec<_> =
        report["checks"].as_array().unwrap().iter().filter(|c| c["status"] == "fail").map(|c| c["id"].as_str().unwrap()).collect();
    assert!(!failed.is_empty() && failed.iter().all(|id| *id == "CASE-DECISION"), "{failed:?}");
}
