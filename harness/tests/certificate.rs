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
        serde_json::json!({"schemaVersion": 1, "label": "proctor runok-extension", "message": "protocol only · runok@0.3.1", "color": "green"}),
        "no --cases: what the guard decides was not judged, and the badge claims no more"
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
fn a_badge_green_only_because_of_a_baseline_says_so_in_its_own_colour() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = "expected_failures:\n  - {check: JSONRPC-ID-ECHO, profile: documented, reason: ids are ours to fix in v2}\n";
    std::fs::write(dir.path().join("base.yaml"), baseline).unwrap();
    let mut args =
        vec!["certify", "--no-progress", "--protocol", "runok-extension", "--baseline", "base.yaml", "--badge", "badge.json", "--"];
    let plugin = mock("runok-extension", &["--fault", "wrong-id"]);
    args.extend(plugin.iter().map(String::as_str));
    let (code, _, _) = run(dir.path(), &args);
    assert_eq!(code, 0);
    let badge: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("badge.json")).unwrap()).unwrap();
    assert_eq!(badge["message"], "conformant with 1 accepted failure · runok@0.3.1");
    assert_ne!(badge["color"], "brightgreen", "a clean pass's colour");
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

/// Certifies `guard.sh` in `dir` with a certificate, plus `extra` flags.
fn certify_guard(dir: &std::path::Path, extra: &[&str]) -> Value {
    std::fs::write(dir.join("guard.sh"), GUARD).unwrap();
    let mut args = vec!["certify", "--no-progress", "--protocol", "runok-extension", "--certificate", "cert.json"];
    args.extend(extra);
    args.extend(["--", "sh", "guard.sh"]);
    let (code, _, err) = run(dir, &args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&std::fs::read_to_string(dir.join("cert.json")).unwrap()).unwrap()
}

#[test]
fn an_edited_certificate_is_not_a_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let cert = certify_guard(dir.path(), &[]);
    assert!(cert["digest"].as_str().unwrap().starts_with("sha256:"), "{cert}");
    type Edit = fn(&mut Value);
    let edits: [(&str, Edit); 5] = [
        ("its verdict is not conformant, the verdict its outcomes give", |c| c["verdict"] = "nonconformant".into()),
        ("its verdict under runok@0.3.1 is not conformant", |c| c["profile_verdicts"]["runok@0.3.1"] = "nonconformant".into()),
        ("it holds no check outcome", |c| c["checks"] = Value::Array(vec![])),
        ("it was edited after proctor wrote it", |c| c["command"][1] = "other.sh".into()),
        ("it was edited after proctor wrote it", |c| {
            // A failure made to look like a pass, verdicts and all: only the digest can tell.
            let checks = c["checks"].as_array_mut().unwrap();
            let pass = checks.iter_mut().find(|x| x["status"] == "pass").unwrap();
            pass["status"] = "skip".into();
        }),
    ];
    for (i, (phrase, edit)) in edits.iter().enumerate() {
        let mut edited = cert.clone();
        edit(&mut edited);
        let name = format!("edited-{i}.json");
        std::fs::write(dir.path().join(&name), edited.to_string()).unwrap();
        let (code, out, err) = run(dir.path(), &["certificate", "check", &name]);
        assert_eq!(code, 2, "edit {i}: {out}{err}");
        assert!(err.contains("not a proctor certificate") && err.contains(phrase), "edit {i}: {err}");
    }
}

#[test]
fn rerun_certifies_again_and_names_every_outcome_that_changed() {
    let dir = tempfile::tempdir().unwrap();
    certify_guard(dir.path(), &["--check", "RUNOK-*"]);
    let (code, out, err) = run(dir.path(), &["certificate", "check", "--rerun", "cert.json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("certified again: all") && out.contains("outcome(s) are the certificate's"), "{out}");

    // Same bytes on disk, different behaviour: what the script reads changed (here, the
    // answer it prints lives in a file the certificate does not cover).
    std::fs::write(dir.path().join("answer"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"allow\"}}").unwrap();
    let reads = "#!/bin/sh\ncat >/dev/null\ncat answer\n";
    std::fs::write(dir.path().join("guard.sh"), reads).unwrap();
    let (code, ..) = run(
        dir.path(),
        &[
            "certify",
            "--no-progress",
            "--protocol",
            "runok-extension",
            "--check",
            "RUNOK-*",
            "--certificate",
            "cert.json",
            "--",
            "sh",
            "guard.sh",
        ],
    );
    assert_eq!(code, 0);
    std::fs::write(dir.path().join("answer"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"maybe\"}}").unwrap();
    let (code, out, _) = run(dir.path(), &["certificate", "check", "cert.json"]);
    assert_eq!(code, 0, "the hashes cannot see it: {out}");
    let (code, out, _) = run(dir.path(), &["certificate", "check", "--rerun", "cert.json"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("outcome(s) differ from the certificate")
            && out.contains("RUNOK-STATUS under runok@0.3.1: pass when certified, fail now"),
        "{out}"
    );
}

#[test]
fn a_certificate_covers_what_judged_the_plugin_and_what_the_author_adds() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("lib/sub")).unwrap();
    std::fs::write(dir.path().join("lib/a.py"), "a").unwrap();
    std::fs::write(dir.path().join("lib/sub/b.py"), "b").unwrap();
    std::fs::write(dir.path().join("cases.yaml"), "cases:\n  - name: ls\n    request: {command: ls}\n    expect: {decision: allow}\n")
        .unwrap();
    let cert = certify_guard(dir.path(), &["--cases", "cases.yaml", "--covers", "lib"]);
    let files: Vec<(String, String)> = cert["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["role"].as_str().unwrap().to_string(), f["path"].as_str().unwrap().rsplit('/').next().unwrap().to_string()))
        .collect();
    let names: Vec<(&str, &str)> = files.iter().map(|(r, p)| (r.as_str(), p.as_str())).collect();
    assert_eq!(&names[1..], [("argument", "guard.sh"), ("cases", "cases.yaml"), ("covered", "a.py"), ("covered", "b.py")]);
    std::fs::write(dir.path().join("lib/sub/b.py"), "changed").unwrap();
    let (code, out, _) = run(dir.path(), &["certificate", "check", "cert.json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("b.py (covered) changed"), "{out}");
}

/// `cert` with its digest recomputed, as anyone can: the digest shows an
/// edit, it does not prove who made it.
fn resealed(mut cert: Value) -> String {
    use sha2::Digest;
    cert["digest"] = "".into();
    let sum = sha2::Sha256::digest(serde_json::to_vec(&cert).unwrap());
    cert["digest"] = format!("sha256:{}", sum.iter().map(|b| format!("{b:02x}")).collect::<String>()).into();
    cert.to_string()
}

/// The certificate with `command` (and the command its invocation ends with)
/// replaced, resealed.
fn rewritten(cert: &Value, command: &[&str]) -> String {
    let mut forged = cert.clone();
    forged["command"] = serde_json::json!(command);
    let invocation = forged["invocation"].as_array().unwrap().clone();
    let at = invocation.iter().position(|a| a == "--").unwrap();
    let mut new: Vec<Value> = invocation[..=at].to_vec();
    new.extend(command.iter().map(|a| Value::from(*a)));
    forged["invocation"] = Value::Array(new);
    resealed(forged)
}

#[test]
fn a_resealed_certificate_runs_nothing_it_does_not_hash() {
    let dir = tempfile::tempdir().unwrap();
    let cert = certify_guard(dir.path(), &["--check", "RUNOK-*"]);
    // Resealing alone is accepted: the test's digest is the real one.
    std::fs::write(dir.path().join("same.json"), resealed(cert.clone())).unwrap();
    let (code, out, err) = run(dir.path(), &["certificate", "check", "same.json"]);
    assert_eq!(code, 0, "{out}{err}");

    // Code of its own on the command line: no hash vouches for it, so it is
    // said, and a rerun refuses to run it.
    std::fs::write(dir.path().join("inline.json"), rewritten(&cert, &["sh", "-c", "touch pwned"])).unwrap();
    // Rewritten alone, the command no longer names the script the certificate hashes.
    let (code, _, err) = run(dir.path(), &["certificate", "check", "inline.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("not a proctor certificate") && err.contains("guard.sh as a file of the command, which its command does not name"),
        "{err}"
    );
    // With that file dropped too, it is consistent, but still runs code no hash covers.
    let mut forged: Value = serde_json::from_str(&rewritten(&cert, &["sh", "-c", "touch pwned"])).unwrap();
    forged["files"].as_array_mut().unwrap().retain(|f| f["role"] != "argument");
    std::fs::write(dir.path().join("inline.json"), resealed(forged)).unwrap();
    let (_, out, _) = run(dir.path(), &["certificate", "check", "inline.json"]);
    assert!(out.contains("runs code written on the command line (`sh -c …`)") && out.contains("no hash vouches for it"), "{out}");
    let (code, out, err) = run(dir.path(), &["certificate", "check", "--rerun", "inline.json"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("not certifying again") && err.contains("anyone can edit a certificate"), "{err}");

    // Another script, present but never certified: stale, and never run.
    std::fs::write(dir.path().join("other.sh"), "#!/bin/sh\ntouch pwned\n").unwrap();
    let mut other: Value = serde_json::from_str(&rewritten(&cert, &["sh", "other.sh"])).unwrap();
    other["files"].as_array_mut().unwrap().retain(|f| f["role"] != "argument");
    std::fs::write(dir.path().join("other.json"), resealed(other)).unwrap();
    let (code, out, _) = run(dir.path(), &["certificate", "check", "other.json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("certificate stale") && out.contains("other.sh is on the command line but was not certified"), "{out}");
    let (code, out, err) = run(dir.path(), &["certificate", "check", "--rerun", "other.json"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("not certifying again"), "{err}");

    // Another program: `cat` is no file the certificate hashes.
    std::fs::write(dir.path().join("program.json"), rewritten(&cert, &["cat", "guard.sh"])).unwrap();
    let (code, out, _) = run(dir.path(), &["certificate", "check", "program.json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the command's program is now") && out.contains("cat, which was not certified"), "{out}");

    // Arguments that load other code, or run another command than the certified one.
    let mut preload = cert.clone();
    let at = preload["invocation"].as_array().unwrap().iter().position(|a| a == "--").unwrap();
    preload["invocation"].as_array_mut().unwrap().splice(at..at, ["--env".into(), "LD_PRELOAD=/tmp/evil.so".into()]);
    std::fs::write(dir.path().join("preload.json"), resealed(preload)).unwrap();
    let (code, _, err) = run(dir.path(), &["certificate", "check", "--rerun", "preload.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("its arguments set LD_PRELOAD"), "{err}");
    let mut elsewhere = cert.clone();
    let n = elsewhere["invocation"].as_array().unwrap().len();
    elsewhere["invocation"][n - 1] = "other.sh".into();
    std::fs::write(dir.path().join("elsewhere.json"), resealed(elsewhere)).unwrap();
    let (code, _, err) = run(dir.path(), &["certificate", "check", "--rerun", "elsewhere.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("run another command than the one it certifies"), "{err}");
    assert!(!dir.path().join("pwned").exists(), "a forged certificate ran its command");

    // A field outside the digest's knowledge is refused.
    let mut extra = cert.clone();
    extra["note"] = "trust me".into();
    std::fs::write(dir.path().join("extra.json"), resealed(extra)).unwrap();
    let (code, _, err) = run(dir.path(), &["certificate", "check", "extra.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown field `note`"), "{err}");
}
