//! `proctor verify` judges a runtime from what its mock plugins received.
//! Dogfood: proctor's own reference pipelines pass it. Bites: for every
//! runtime check, a record that fails it and one that passes it.

mod common;

use std::path::Path;
use std::process::Command;

use common::{proctor, repo_root, results};
use proctor_conformance::check::{CATALOGUE, Group};

fn verify(scenario: &Path, records: &Path) -> (i32, serde_json::Value) {
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .args(["verify", "--format", "json", "--scenario"])
        .arg(scenario)
        .arg("--record")
        .arg(records)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), report)
}

#[test]
fn proctors_own_pipelines_pass_verify() {
    for scenario in [
        "scenarios/picoclaw/respond-skips-approval-and-after-tool.yaml",
        "scenarios/picoclaw/runtime-event-notifications.yaml",
        "scenarios/promptkit/server-tool-restarted-as-documented.yaml",
        "scenarios/promptkit/crashing-observe-hook-ignored.yaml",
        "scenarios/runok/uppercase-status-falls-back-to-ask.yaml",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let run = Command::new(proctor())
            .current_dir(repo_root())
            .args(["run", "--no-progress", "--record-dir"])
            .arg(dir.path())
            .arg(scenario)
            .output()
            .unwrap();
        assert!(run.status.success(), "{scenario} did not pass: {}", String::from_utf8_lossy(&run.stdout));
        let (code, report) = verify(&repo_root().join(scenario), dir.path());
        assert_eq!(report["verdict"], "conformant", "{scenario}: {}", common::problems(&report));
        assert_eq!(code, 0);
        assert!(report["summary"]["passed"].as_u64().unwrap() > 0, "{scenario}: nothing was verified");
    }
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
        assert!(results(&report, b.check).iter().any(|c| c["status"] == "fail"), "{} did not fail:\n{}", b.check, common::problems(&report));

        record(&records, b.good, b.good_eof);
        let (_, report) = verify(&scenario, &records);
        assert!(results(&report, b.check).iter().all(|c| c["status"] == "pass"), "{} did not pass:\n{}", b.check, common::problems(&report));
    }
    let covered = |id: &str| BITES.iter().any(|b| b.check == id) || id == "RUNTIME-EXPECTED-CALLS";
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
    let r = results(&report, "RUNTIME-EXPECTED-CALLS");
    assert!(r.iter().any(|c| c["detail"]["failure"]["kind"] == "unexpected"), "an unexpected interaction: {r:?}");

    record(&records, format!("{hello}\n").as_bytes(), true);
    let (_, report) = verify(&scenario, &records);
    let r = results(&report, "RUNTIME-EXPECTED-CALLS");
    assert!(r.iter().any(|c| c["detail"]["failure"]["kind"] == "missing"), "a missing interaction: {r:?}");
}
