//! `--baseline`, `--write-baseline`, `--check`/`--skip-check` and `--strict`,
//! through the real binary: accepted failures do not fail the run, a stale
//! entry does, and the header says what was selected.

mod common;

use std::process::Command;

use common::{mock, proctor, results};

fn certify(dir: &std::path::Path, flags: &[&str], mock_flags: &[&str]) -> (i32, String) {
    let out = Command::new(proctor())
        .current_dir(dir)
        .args(["certify", "--no-progress", "--protocol", "runok-extension"])
        .args(flags)
        .arg("--")
        .args(mock("runok-extension", mock_flags))
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

#[test]
fn a_baseline_accepts_known_failures_and_fails_when_one_goes_stale() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A wrong id: fails under documented (runok itself ignores ids).
    let (code, _) = certify(d, &["--write-baseline", "base.yaml"], &["--fault", "wrong-id"]);
    assert_eq!(code, 1);
    let written = std::fs::read_to_string(d.join("base.yaml")).unwrap();
    assert!(written.contains("  - {check: JSONRPC-ID-ECHO, profile: \"documented\", reason: \"TODO:"), "{written}");
    // Accepting a failure is a decision someone explains: the placeholder is refused, by line.
    let (code, out) = certify(d, &["--baseline", "base.yaml"], &["--fault", "wrong-id"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("base.yaml:4: `reason` is still the placeholder --write-baseline wrote"), "{out}");
    std::fs::write(d.join("base.yaml"), written.replace("TODO: why this failure is accepted for now", "ids are ours to fix in v2"))
        .unwrap();

    // Green only because of the baseline: said in its own words, never a clean pass's.
    let (code, out) = certify(d, &["--baseline", "base.yaml"], &["--fault", "wrong-id"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\nCONFORMANT WITH 1 ACCEPTED FAILURE: "), "{out}");
    assert!(out.contains("follows the documented protocol only with 1 accepted failure (baseline): JSONRPC-ID-ECHO"), "{out}");
    let (_, markdown) = certify(d, &["--baseline", "base.yaml", "--format", "markdown"], &["--fault", "wrong-id"]);
    assert!(markdown.contains("— 🔶 conformant with 1 accepted failure"), "{markdown}");

    let (code, out) = certify(d, &["--baseline", "base.yaml", "--format", "json"], &["--fault", "wrong-id"]);
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let echo: Vec<&str> = results(&report, "JSONRPC-ID-ECHO").iter().map(|c| c["status"].as_str().unwrap()).collect();
    assert_eq!(echo, ["expected_failure", "warn"]);
    assert_eq!(report["summary"]["expected_failures"], 1);

    // Fixed plugin, old baseline: the entry is stale and fails the run, naming the line.
    let (code, out) = certify(d, &["--baseline", "base.yaml"], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("stale baseline entry base.yaml:4: JSONRPC-ID-ECHO under documented no longer fails; delete that entry"), "{out}");
}

#[test]
fn rewriting_a_baseline_in_place_keeps_the_authors_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, _) = certify(d, &["--write-baseline", "base.yaml"], &["--fault", "wrong-id"]);
    assert_eq!(code, 1);
    let written = std::fs::read_to_string(d.join("base.yaml")).unwrap();
    let reasoned = written.replace("TODO: why this failure is accepted for now", "ids are ours to fix in v2");
    std::fs::write(d.join("base.yaml"), &reasoned).unwrap();
    // Same failures, one more (a pretty-printed answer is a `should`: no new entry).
    let (code, out) = certify(d, &["--baseline", "base.yaml", "--write-baseline", "base.yaml"], &["--fault", "wrong-id"]);
    assert_eq!(code, 0, "{out}");
    let rewritten = std::fs::read_to_string(d.join("base.yaml")).unwrap();
    assert_eq!(rewritten, reasoned, "the reasons survive a rewrite");
    // And the rewritten file still accepts the failure on the next run.
    let (code, out) = certify(d, &["--baseline", "base.yaml"], &["--fault", "wrong-id"]);
    assert_eq!(code, 0, "{out}");
    // A failure that is new gets a TODO entry after the kept ones.
    let (code, _) =
        certify(d, &["--baseline", "base.yaml", "--write-baseline", "next.yaml"], &["--fault", "wrong-id", "--fault", "status-uppercase"]);
    assert_eq!(code, 1);
    let next = std::fs::read_to_string(d.join("next.yaml")).unwrap();
    assert!(next.contains("ids are ours to fix in v2") && next.contains("TODO: why"), "{next}");
}

#[test]
fn a_baseline_naming_what_does_not_exist_is_the_authors_mistake() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.yaml"), "expected_failures:\n  - {check: JSONRPC-ID-ECHO, profile: runok, reason: x}\n").unwrap();
    let (code, out) = certify(dir.path(), &["--baseline", "b.yaml"], &[]);
    assert_eq!(code, 2);
    assert!(out.contains("b.yaml:2:5: no profile `runok`; use one of: documented"), "{out}");
}

#[test]
fn selection_and_strictness_show_in_the_header_and_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    // A pretty-printed answer: FRAMING-COMPACT, a `should` (warn) under both profiles.
    let (code, out) = certify(dir.path(), &["--check", "FRAMING-*"], &["--fault", "pretty-print"]);
    assert!(out.lines().nth(1).is_some_and(|l| l == "selected: --check FRAMING-*"), "{out}");
    assert!(!out.contains("RUNOK-STATUS"), "only framing checks are judged:\n{out}");
    let lenient = code;
    let (code, out) = certify(dir.path(), &["--check", "FRAMING-*", "--strict"], &["--fault", "pretty-print"]);
    assert!(out.contains("selected: --check FRAMING-* --strict"), "{out}");
    assert_eq!((lenient, code), (0, 1), "--strict turns the warning into a failure:\n{out}");

    let (code, out) = certify(dir.path(), &["--check", "NOPE-*"], &[]);
    assert_eq!(code, 2);
    assert!(out.contains("--check/--skip-check NOPE-*: matches no check"), "{out}");
}

#[test]
fn a_selection_of_checks_that_only_skip_judges_nothing_and_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // CASE-* checks need --cases: selected alone, every one of them skips.
    let (code, out) = certify(dir.path(), &["--check", "CASE-*"], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("every selected check was skipped, so nothing would be judged: CASE-"), "{out}");
    assert!(!out.contains("CONFORMANT"), "no verdict is printed:\n{out}");
    // The same selection with a check that runs is judged as usual.
    let (code, out) = certify(dir.path(), &["--check", "CASE-*", "--check", "FRAMING-*"], &[]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_run_baseline_accepts_a_failing_scenario_until_it_passes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scenario = d.join("wrong.yaml");
    let text = "id: t/wrong\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: allow}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: deny\n";
    std::fs::write(&scenario, text).unwrap();
    let run = |flags: &[&str]| {
        let out = Command::new(proctor()).current_dir(d).args(["run", "--no-progress"]).args(flags).arg("wrong.yaml").output().unwrap();
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    assert_eq!(run(&["--write-baseline", "b.yaml"]).0, 1);
    let written = std::fs::read_to_string(d.join("b.yaml")).unwrap();
    assert!(written.contains("  - {scenario: \"t/wrong\", reason: \"TODO:"), "{written}");
    assert_eq!(run(&["--baseline", "b.yaml"]).0, 2, "the placeholder reason is refused");
    std::fs::write(d.join("b.yaml"), written.replace("TODO: why this failure is accepted for now", "waiting on runok 0.4")).unwrap();
    let (code, out) = run(&["--baseline", "b.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["scenarios"][0]["status"], "expected_failure");
    assert_eq!(report["summary"]["expected_failures"], 1);

    std::fs::write(&scenario, text.replace("outcome: deny", "outcome: allow")).unwrap();
    let (code, out) = run(&["--baseline", "b.yaml"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("stale baseline entry b.yaml:4: scenario t/wrong no longer fails; delete that entry"), "{out}");
}
