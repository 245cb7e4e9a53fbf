//! `proctor certify --fuzz N`, through the real binary: well-behaved mock
//! plugins hold for every generated input, a plugin that crashes on a `"`
//! is caught, the failing input is shrunk to a lone quote and printed as a
//! `--cases` entry that really reproduces the failure when pasted.

mod common;

use std::process::Command;

use common::{certify_json, mock, problems, proctor, repo_root, results};
use serde_json::Value;

const SCHEMA: &str = "harness/tests/fixtures/fuzz_tool.schema.json";

fn fuzz_flags<'a>(protocol: &'a [&'a str], n: &'a str) -> Vec<&'a str> {
    let mut flags = protocol.to_vec();
    flags.extend(["--fuzz", n, "--schema", SCHEMA]);
    flags
}

fn fuzz_results(report: &Value) -> Vec<&Value> {
    let found = results(report, "ROBUST-FUZZ");
    assert_eq!(found.len(), 2, "one ROBUST-FUZZ result per profile:\n{}", problems(report));
    found
}

/// The `--cases` entry a failing fuzz result prints, from `- name:` on.
fn printed_case(result: &Value) -> String {
    let message = result["message"].as_str().expect("message");
    let start = message.find("  - name:").unwrap_or_else(|| panic!("no case in:\n{message}"));
    message[start..].trim_end().to_string()
}

#[test]
fn well_behaved_tools_hold_for_every_generated_input() {
    for (protocol, mock_flags) in [
        (&["--protocol", "promptkit-exec", "--role", "tool"][..], &["--role", "tool"][..]),
        (&["--protocol", "promptkit-server"][..], &[][..]),
    ] {
        let family = protocol[1];
        let (code, report, _) = certify_json(&fuzz_flags(protocol, "100"), &mock(family, mock_flags));
        assert_eq!(code, 0, "{family}:\n{}", problems(&report));
        for r in fuzz_results(&report) {
            assert_eq!(r["status"], "pass", "{family}: {r}");
            assert!(r["message"].as_str().unwrap().contains("100 schema-valid inputs (seed 1)"), "{r}");
        }
    }
}

#[test]
fn a_crash_on_a_quote_is_shrunk_to_a_pasteable_lone_quote() {
    let flags = fuzz_flags(&["--protocol", "promptkit-exec", "--role", "tool"], "60");
    let faulty = mock("promptkit-exec", &["--role", "tool", "--fault", "crash-on-quote"]);
    let (code, report, _) = certify_json(&flags, &faulty);
    assert_eq!(code, 1, "{}", problems(&report));
    for r in fuzz_results(&report) {
        assert_eq!((r["status"].as_str(), r["detail"]["outcome"].as_str()), (Some("fail"), Some("fail")), "{r}");
        assert_eq!(r["detail"]["failure"]["kind"], "crash", "{r}");
        let sent = r["evidence"]["sent"].as_str().unwrap();
        assert!(sent.starts_with(r#"{"args":{"text":"\""}}"#), "evidence shows the shrunk request: {sent}");
        assert!(r["evidence"]["stderr_tail"].as_str().unwrap().contains("crash-on-quote"), "{r}");
        let message = r["message"].as_str().unwrap();
        assert!(message.contains("Reproduce with --fuzz 60 --fuzz-seed 1"), "{message}");
        assert_eq!(
            printed_case(r),
            "  - name: \"fuzz seed 1 input 1\"\n    request: {\"args\": {\"text\": \"\\\"\"}}\n    expect: {decision: result}   # what this input should get; edit to taste",
        );
    }

    // Pasted into a cases file, the case fails the faulty plugin and passes a good one.
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases.yaml");
    std::fs::write(&cases, format!("cases:\n{}\n", printed_case(fuzz_results(&report)[0]))).unwrap();
    let cases = cases.display().to_string();
    let with_cases = ["--protocol", "promptkit-exec", "--role", "tool", "--cases", cases.as_str()];
    let (_, report, _) = certify_json(&with_cases, &faulty);
    let decided: Vec<_> = results(&report, "CASE-DECISION").iter().map(|c| (c["profile"].as_str(), c["status"].as_str())).collect();
    assert_eq!(decided, [(Some("documented"), Some("fail")), (Some("promptkit@86d9f36"), Some("fail"))], "{}", problems(&report));
    let (code, report, _) = certify_json(&with_cases, &mock("promptkit-exec", &["--role", "tool"]));
    assert_eq!(code, 0, "{}", problems(&report));
}

#[test]
fn picoclaw_cases_name_the_method_and_the_tool() {
    let flags = fuzz_flags(&["--protocol", "picoclaw-hook", "--role", "tool"], "40");
    let (code, report, _) = certify_json(&flags, &mock("picoclaw-hook", &["--role", "tool", "--fault", "crash-on-quote"]));
    assert_eq!(code, 1);
    let case = printed_case(fuzz_results(&report)[0]);
    assert!(case.contains("method: hook.before_tool\n"), "{case}");
    assert!(case.contains(r#"request: {"tool": "fuzz_tool", "arguments": {"text": "\""}}"#), "{case}");
}

#[test]
fn the_same_seed_gives_the_same_report_and_text_names_the_seed() {
    let flags = fuzz_flags(&["--protocol", "promptkit-server", "--fuzz-seed", "77"], "30");
    let faulty = mock("promptkit-server", &["--fault", "crash-on-quote"]);
    let (_, a, _) = certify_json(&flags, &faulty);
    let (_, b, _) = certify_json(&flags, &faulty);
    assert_eq!(fuzz_results(&a)[0]["message"], fuzz_results(&b)[0]["message"]);
    assert!(fuzz_results(&a)[0]["message"].as_str().unwrap().contains("--fuzz-seed 77"));

    let out = Command::new(proctor())
        .current_dir(repo_root())
        .args(["certify", "--no-progress"])
        .args(&flags)
        .arg("--")
        .args(&faulty)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fuzz: 30 generated inputs per profile from seed 77 (rerun with --fuzz 30 --fuzz-seed 77)"), "{text}");
    assert!(text.contains("FAIL ROBUST-FUZZ"), "{text}");
}

#[test]
fn without_fuzz_the_check_is_skipped() {
    let (code, report, _) = certify_json(&["--protocol", "promptkit-server"], &mock("promptkit-server", &["--fault", "crash-on-quote"]));
    assert_eq!(code, 0, "{}", problems(&report));
    for r in fuzz_results(&report) {
        assert_eq!(r["status"], "skip", "{r}");
        assert!(r["message"].as_str().unwrap().contains("--fuzz"), "the skip says what would exercise it: {r}");
    }
}

fn usage_error(flags: &[&str]) -> String {
    let out = Command::new(proctor()).current_dir(repo_root()).arg("certify").args(flags).args(["--", "true"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{flags:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn misuse_is_a_usage_error_with_a_hint() {
    let err = usage_error(&["--protocol", "runok-extension", "--fuzz", "5", "--schema", SCHEMA]);
    assert!(err.contains("runok") && err.contains("hint:"), "{err}");
    let err = usage_error(&["--protocol", "promptkit-exec", "--role", "tool", "--fuzz", "5"]);
    assert!(err.contains("--fuzz needs --schema") && err.contains("hint:"), "{err}");
    let err = usage_error(&["--protocol", "promptkit-exec", "--role", "eval", "--fuzz", "5", "--schema", SCHEMA]);
    assert!(err.contains("hint: fuzz a tool"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "type: object\nproperties:\n  q: {not: {type: string}}\n").unwrap();
    let err = usage_error(&["--protocol", "promptkit-server", "--fuzz", "5", "--schema", bad.to_str().unwrap()]);
    assert!(err.contains("#/properties/q") && err.contains("`not`"), "{err}");
}
