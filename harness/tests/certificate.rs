//! `certify --certificate/--badge` and `proctor certificate check`: a
//! certificate is tied to the bytes that were certified, and says so when
//! they change.

mod common;

use std::process::Command;

use common::{mock, proctor};
use serde_json::Value;

fn run(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(proctor()).current_dir(dir).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

const GUARD: &str = "#!/bin/sh\ncat >/dev/null\nprintf '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"allow\"}}'\n";

#[test]
fn a_certificate_goes_stale_when_the_certified_script_changes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("guard.sh"), GUARD).unwrap();
    let args = [
        "certify",
        "--no-progress",
        "--protocol",
        "runok-extension",
        "--certificate",
        "cert.json",
        "--badge",
        "badge.json",
        "--",
        "sh",
        "guard.sh",
    ];
    let (code, _, err) = run(dir.path(), &args);
    assert_eq!(code, 0, "{err}");

    let cert: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("cert.json")).unwrap()).unwrap();
    let roles: Vec<&str> = cert["files"].as_array().unwrap().iter().map(|f| f["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["executable", "argument"], "{cert}");
    assert!(cert["files"][1]["path"].as_str().unwrap().ends_with("/guard.sh"));
    assert_eq!(cert["files"][1]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(cert["verdict"], "conformant");
    assert_eq!(cert["profile_verdicts"]["runok@0.3.1"], "conformant");
    assert!(cert["checks"].as_array().unwrap().iter().any(|c| c["id"] == "RUNOK-STATUS" && c["status"] == "pass"));
    let badge: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("badge.json")).unwrap()).unwrap();
    assert_eq!(
        badge,
        serde_json::json!({"schemaVersion": 1, "label": "proctor runok-extension", "message": "conformant · runok@0.3.1", "color": "brightgreen"})
    );

    let (code, out, _) = run(dir.path(), &["certificate", "check", "cert.json"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("certificate current: 2 file(s) unchanged"), "{out}");

    // One byte more in the script: stale, and the file is named.
    std::fs::write(dir.path().join("guard.sh"), format!("{GUARD}\n")).unwrap();
    let (code, out, _) = run(dir.path(), &["certificate", "check", "cert.json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("guard.sh (argument) changed: sha256"), "{out}");

    std::fs::remove_file(dir.path().join("guard.sh")).unwrap();
    let (code, out, _) = run(dir.path(), &["certificate", "check", "cert.json"]);
    assert_eq!(code, 1);
    assert!(out.contains("guard.sh (argument) cannot be read"), "{out}");

    // A digest that is not one is a broken certificate (exit 2), not a changed file (exit 1).
    let mut broken = cert.clone();
    broken["files"][0]["sha256"] = Value::from("not-a-digest");
    std::fs::write(dir.path().join("broken.json"), broken.to_string()).unwrap();
    let (code, _, err) = run(dir.path(), &["certificate", "check", "broken.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("broken.json: not a proctor certificate (the sha256 of") && err.contains("not 64 hex digits"), "{err}");
}

#[test]
fn a_badge_says_where_a_nonconformant_plugin_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["certify", "--no-progress", "--protocol", "runok-extension", "--badge", "badge.json", "--"];
    let plugin = mock("runok-extension", &["--fault", "wrong-id"]);
    args.extend(plugin.iter().map(String::as_str));
    let (code, _, _) = run(dir.path(), &args);
    assert_eq!(code, 1);
    let badge: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("badge.json")).unwrap()).unwrap();
    assert_eq!(badge["message"], "works with runok@0.3.1");
    assert_eq!(badge["color"], "yellow");
}

#[test]
fn something_that_is_not_a_certificate_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.json"), "{\"hello\": 1}").unwrap();
    let (code, _, err) = run(dir.path(), &["certificate", "check", "x.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("x.json: not a proctor certificate") && err.contains("hint:"), "{err}");
    let (code, _, err) = run(dir.path(), &["certificate", "check", "missing.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.json"), "{err}");
}
