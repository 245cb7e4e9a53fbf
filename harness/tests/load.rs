//! `proctor load` against the mock plugin and a shipped example: the JSON
//! shape, the counts and the exit code. Timings are never asserted.

mod common;

use std::process::Command;

use common::{mock, proctor, repo_root};
use serde_json::Value;

/// Runs `proctor load --format json` and returns (exit code, report).
fn load(flags: &[&str], plugin: &[String]) -> (i32, Value) {
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .args(["load", "--format", "json"])
        .args(flags)
        .arg("--")
        .args(plugin)
        .output()
        .expect("run proctor load");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}); stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap_or(-1), report)
}

fn assert_shape(r: &Value) {
    for key in ["requests", "errors", "throughput_per_s", "latency_us", "plugin_rss_kib"] {
        assert!(r.get(key).is_some(), "missing {key}: {r:#}");
    }
    for key in ["p50", "p90", "p99", "max"] {
        assert!(r["latency_us"][key].is_u64(), "latency_us.{key}: {r:#}");
    }
    let l = &r["latency_us"];
    assert!(
        l["p50"].as_u64() <= l["p90"].as_u64() && l["p90"].as_u64() <= l["p99"].as_u64() && l["p99"].as_u64() <= l["max"].as_u64(),
        "{l}"
    );
    assert!(r["plugin_rss_kib"].get("start").is_some() && r["plugin_rss_kib"].get("end").is_some(), "{r:#}");
}

#[test]
fn picoclaw_hook_pipelined() {
    let (code, r) = load(&["--protocol", "picoclaw-hook", "--requests", "200", "--concurrency", "8"], &mock("picoclaw-hook", &[]));
    assert_shape(&r);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["requests"], 200);
    assert_eq!(r["ok"], 200);
    assert_eq!(r["errors"], 0);
    assert_eq!(r["processes"], 1);
    assert!(r["plugin_rss_kib"]["start"].as_u64().is_some_and(|k| k > 0), "{r:#}");
    assert!(r["plugin_rss_kib"]["end"].as_u64().is_some_and(|k| k > 0), "{r:#}");
}

#[test]
fn promptkit_exec_one_process_per_request() {
    let (code, r) =
        load(&["--protocol", "promptkit-exec", "--role", "tool", "--requests", "12", "--concurrency", "3"], &mock("promptkit-exec", &[]));
    assert_shape(&r);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["ok"], 12);
    assert_eq!(r["errors"], 0);
    assert_eq!(r["processes"], 12);
    assert!(r["plugin_rss_kib"]["start"].is_null(), "one-shot plugins cannot be sampled: {r:#}");
}

#[test]
fn promptkit_server_one_process_per_concurrent_request() {
    let (code, r) = load(&["--protocol", "promptkit-server", "--requests", "30", "--concurrency", "2"], &mock("promptkit-server", &[]));
    assert_shape(&r);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["ok"], 30);
    assert_eq!(r["processes"], 2);
}

#[test]
fn a_crashing_plugin_is_an_error_and_exit_1() {
    let (code, r) = load(
        &["--protocol", "picoclaw-hook", "--requests", "20"],
        &mock("picoclaw-hook", &["--fault", "crash-after", "--crash-after", "5"]),
    );
    assert_shape(&r);
    assert_eq!(code, 1, "{r:#}");
    assert!(r["errors"].as_u64().is_some_and(|e| e > 0), "{r:#}");
    assert!(r["error_kinds"]["crashes"].as_u64().is_some_and(|e| e > 0), "{r:#}");
    assert_eq!(r["ok"].as_u64().unwrap_or(0) + r["errors"].as_u64().unwrap_or(0), 20, "every request is accounted for: {r:#}");
}

#[test]
fn shipped_python_hook() {
    let plugin = ["python3", "examples/picoclaw-hook/review_gate.py"].map(String::from);
    let (code, r) = load(&["--protocol", "picoclaw-hook", "--requests", "20", "--concurrency", "4"], &plugin);
    assert_shape(&r);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["ok"], 20);
}

#[test]
fn usage_errors_exit_2() {
    let out = Command::new(proctor()).args(["load", "--protocol", "promptkit-exec", "--", "true"]).output().expect("run proctor");
    assert_eq!(out.status.code(), Some(2), "no --role: {}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(proctor())
        .args(["load", "--protocol", "picoclaw-hook", "--requests", "0", "--", "true"])
        .output()
        .expect("run proctor");
    assert_eq!(out.status.code(), Some(2));
    // A count no machine can hold is refused before anything is allocated or spawned.
    for (flag, n) in [("--requests", "100000000000"), ("--concurrency", "18446744073709551615")] {
        let out =
            Command::new(proctor()).args(["load", "--protocol", "runok-extension", flag, n, "--", "true"]).output().expect("run proctor");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {n}: {err}");
        assert!(err.contains(&format!("{n} is not in 1..=")), "{err}");
    }
    let out =
        Command::new(proctor()).args(["load", "--protocol", "picoclaw-hook", "--", "/nonexistent/plugin"]).output().expect("run proctor");
    assert_eq!(out.status.code(), Some(2), "unstartable plugin: {}", String::from_utf8_lossy(&out.stderr));
}
