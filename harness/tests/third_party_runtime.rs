//! The runtime implementers' toolkit on a runtime that is not proctor's own:
//! `examples/runtime/mini_runtime.py` (stdlib Python) talks HTTP to
//! `proctor mock-provider` and JSON-RPC to `proctor mock-plugin`, exactly as
//! the README tells an implementer to wire theirs, and `proctor verify`
//! judges what it sent from the records and the journal.

mod common;

use std::path::Path;
use std::process::Command;

use common::{MockProvider, proctor, repo_root, results};
use serde_json::Value;

const SCENARIO: &str = "scenarios/promptkit/server-tool-restarted-as-documented.yaml";

/// Runs the mini runtime through the scenario; returns verify's exit code and report.
fn run_mini_runtime(dir: &Path, flags: &[&str]) -> (i32, Value) {
    let scenario = repo_root().join(SCENARIO);
    let journal = dir.join("llm.journal.jsonl");
    let provider = MockProvider::serve(&scenario, &["--journal", journal.to_str().unwrap()]);
    let plugin =
        format!("{} mock-plugin --scenario {} --plugin kv --record {}", proctor(), scenario.display(), dir.join("kv.jsonl").display());
    let runtime = Command::new("python3")
        .current_dir(repo_root())
        .env_remove("PYTHONUNBUFFERED")
        .arg("examples/runtime/mini_runtime.py")
        .args(["--base-url", &provider.url, "--tool", "kv", "--command", &plugin])
        .args(flags)
        .arg("Store and read a value.")
        .output()
        .expect("run python3 examples/runtime/mini_runtime.py");
    assert!(runtime.status.success(), "the mini runtime failed: {}", String::from_utf8_lossy(&runtime.stderr));
    assert_eq!(String::from_utf8_lossy(&runtime.stdout).trim(), "Done.");
    assert!(provider.stop().success());

    let out = Command::new(proctor())
        .current_dir(repo_root())
        .args(["verify", "--format", "json", "--scenario", SCENARIO, "--record"])
        .arg(dir)
        .arg("--journal")
        .arg(&journal)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), report)
}

fn statuses(report: &Value, check: &str) -> Vec<String> {
    results(report, check).iter().map(|c| c["status"].as_str().unwrap_or_default().to_string()).collect()
}

#[test]
fn a_runtime_that_restarts_its_dead_server_is_conformant() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run_mini_runtime(dir.path(), &["--restart-dead"]);
    assert_eq!(code, 0, "{}", common::problems(&report));
    for check in
        ["RUNTIME-RESTARTS-DEAD-SERVER", "RUNTIME-IDS-INCREASING", "RUNTIME-LLM-REQUEST", "RUNTIME-LLM-TOOL-RESULTS", "RUNTIME-LLM-SCRIPT"]
    {
        assert_eq!(statuses(&report, check), ["pass"], "{check}");
    }
}

#[test]
fn a_runtime_that_leaves_its_server_dead_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run_mini_runtime(dir.path(), &[]);
    assert_eq!(code, 1);
    let restart = results(&report, "RUNTIME-RESTARTS-DEAD-SERVER");
    assert_eq!(restart.len(), 1);
    assert_eq!(restart[0]["status"], "fail");
    assert_eq!(restart[0]["detail"]["failure"]["kind"], "missing");
    // Everything else it sent was fine.
    assert_eq!(report["summary"]["failed"], 1, "{}", common::problems(&report));
}
