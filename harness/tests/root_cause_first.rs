//! A report leads with the cause: a check another failure kept from running
//! is `untestable`, counted and drawn apart from the failures, and the
//! verdict sentence and "To fix" name only the cause.

mod common;

use std::process::Command;

use common::{mock, proctor, repo_root};

fn certify(format: &str) -> (i32, String) {
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .args(["certify", "--no-progress", "--protocol", "picoclaw-hook", "--format", format, "--timeout-ms", "500", "--"])
        .args(mock("picoclaw-hook", &["--fault", "no-flush"]))
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_hook_that_never_flushes_is_reported_by_its_one_cause() {
    let (code, text) = certify("text");
    assert_eq!(code, 1, "{text}");
    let summary = text.lines().find(|l| l.starts_with("NONCONFORMANT:")).unwrap_or_else(|| panic!("{text}"));
    assert!(summary.contains(" 2 failed, ") && summary.contains(" untestable, "), "{summary}");
    assert!(text.contains("UNTESTABLE JSONRPC-VERSION"), "{text}");
    // The same failure under both profiles: shown in full once, then named.
    assert_eq!(text.matches("hint: stdout is block-buffered").count(), 1, "{text}");
    assert!(text.contains("FAIL FRAMING-FLUSHED (as under documented above)"), "{text}");
    assert!(text.ends_with("fails with picoclaw@cf67dd3: FRAMING-FLUSHED; breaks the documented protocol: FRAMING-FLUSHED\n"), "{text}");
    let to_fix = &text[text.find("To fix").unwrap_or_else(|| panic!("{text}"))..];
    assert_eq!(to_fix.lines().filter(|l| l.starts_with("  FAIL")).count(), 1, "one cause to fix:\n{to_fix}");

    let (_, json) = certify("json");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let statuses: Vec<&str> = report["checks"].as_array().unwrap().iter().map(|c| c["status"].as_str().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == "fail").count(), 2, "the cause, under each profile: {statuses:?}");
    assert_eq!(report["summary"]["failed"], 2);
    assert_eq!(report["summary"]["untestable"], statuses.iter().filter(|s| **s == "untestable").count());
    assert!(report["summary"]["untestable"].as_u64().unwrap() > 10, "{}", report["summary"]);

    let (_, junit) = certify("junit");
    assert!(junit.contains(r#"type="untestable""#) && junit.contains("<error"), "an untestable check is a JUnit error, not a failure");
    let (_, html) = certify("html");
    assert!(html.contains("class=\"s s-untestable\""), "drawn apart in the matrix");
    assert!(html.contains("Failures and warnings, with their evidence (2)"), "the causes are counted, not what they blocked");
}
