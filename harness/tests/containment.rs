//! No process survives proctor, whatever the plugin did to escape: a child
//! in a new session (the mock's `escape-session` fault), for `run` and
//! `load` as for `certify` (fault_corpus.rs holds certify for every family;
//! fault_tolerance.rs holds an interrupted proctor).

mod common;

use std::process::Command;

use common::{assert_nothing_left, marker, mock, proctor, repo_root};

#[test]
fn a_scenario_plugin_that_escapes_its_session_is_ended() {
    let m = marker("containment-run");
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("escape.yaml");
    std::fs::write(
        &scenario,
        "id: t/escape\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: deny, faults: [escape-session]}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: deny\n",
    )
    .unwrap();
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .env("PROCTOR_TEST_MARKER", &m)
        .args(["run", "--no-progress"])
        .arg(&scenario)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert_nothing_left(&m);
}

#[test]
fn a_loaded_plugin_that_escapes_its_session_is_ended() {
    let m = marker("containment-load");
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .env("PROCTOR_TEST_MARKER", &m)
        .args(["load", "--protocol", "promptkit-server", "--requests", "20", "--"])
        .args(mock("promptkit-server", &["--fault", "escape-session"]))
        .output()
        .unwrap();
    assert!(out.status.code().is_some(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_nothing_left(&m);
}
