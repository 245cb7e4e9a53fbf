//! `--format html` on every command that has it: the page holds every result the JSON report
//! holds (scenarios, plugins, pack diagnostics), with the same verdict and exit code, to stdout or
//! to `--output FILE`. The browser reads it in html_report.rs.

mod common;

use std::process::Command;

use common::{proctor, repo_root};
use serde_json::Value;

/// Runs proctor in the repository; (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(proctor()).current_dir(repo_root()).args(args).output().expect("run proctor");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The same command in JSON and in HTML; (exit code, JSON report, HTML page), after checking both
/// exit the same way and the page is one whole document.
fn both(args: &[&str]) -> (i32, Value, String) {
    let (code, json, err) = run(&[args, &["--format", "json"]].concat());
    let report: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}\n{err}"));
    let (html_code, page, err) = run(&[args, &["--format", "html"]].concat());
    assert_eq!(html_code, code, "html exits otherwise than json: {err}");
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"), "not one HTML document:\n{page}");
    (code, report, page)
}

/// `s` as the page writes text.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

#[test]
fn run_shows_every_scenario_its_status_transcript_and_where_profiles_part() {
    let (_, report, page) = both(&["run", "--no-progress", "--profile", "all", "scenarios/runok/timeout-falls-back-to-ask.yaml"]);
    assert!(page.contains(&format!("data-verdict=\"{}\"", report["verdict"].as_str().unwrap())));
    let scenarios = report["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 2, "one run per profile");
    for s in scenarios {
        assert!(page.contains(&format!("data-status=\"{}\"", s["status"].as_str().unwrap())));
        assert!(page.contains(&format!("<code>{}</code></summary>", escaped(s["id"].as_str().unwrap()))), "{} is missing", s["id"]);
    }
    assert_eq!(page.matches("<details class=\"transcript\"><summary>Transcript (").count(), 2);
    assert!(page.contains("<h2>Where the profiles part ways</h2>"));
    let scenario = scenarios[0]["id"].as_str().unwrap().split(" [").next().unwrap();
    assert!(page.contains(&format!("<tr><th scope=\"row\">{}</th><td>entry ", escaped(scenario))), "no divergence row for {scenario}");
}

#[test]
fn pack_check_shows_every_diagnostic_at_its_place_per_profile_and_writes_output() {
    let (code, report, page) = both(&["pack", "check", "examples/promptpack"]);
    assert_eq!(code, 1, "some example pack is invalid under some profile");
    for pack in report["packs"].as_array().unwrap() {
        let file = escaped(pack["file"].as_str().unwrap());
        let profile = pack["profile"].as_str().unwrap();
        assert!(
            page.contains(&format!(
                "data-profile=\"{profile}\" data-status=\"{}\"",
                if pack["valid"] == true { "valid" } else { "invalid" }
            ))
        );
        for d in pack["diagnostics"].as_array().unwrap() {
            let place = format!("<code class=\"location\">{file}:{}:{}</code>", d["line"], d["column"]);
            assert!(page.contains(&place), "{place} is missing");
            assert!(page.contains(&format!("<tr data-rule=\"{}\">", d["rule"].as_str().unwrap())));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("packs.html");
    let (code, out, err) = run(&["pack", "check", "--format", "html", "--output", file.to_str().unwrap(), "examples/promptpack"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), page);
}

#[test]
fn runtime_config_shows_each_plugin_with_its_certification() {
    // One profile, the runtime as implemented, where the content-policy hook fails: half the Python spawns.
    let args = [
        "certify",
        "--no-progress",
        "--profile",
        "promptkit@86d9f36",
        "--runtime-config",
        "examples/promptkit-runtime-config/runtime.yaml",
    ];
    let (code, report, page) = both(&args);
    assert_eq!(code, 1);
    assert!(page.contains("data-verdict=\"nonconformant\""));
    for (i, plugin) in report["plugins"].as_array().unwrap().iter().enumerate() {
        let verdict = plugin["report"]["verdict"].as_str().unwrap();
        assert!(page.contains(&format!("<h2 id=\"p{i}-title\">")), "plugin {i} has no section");
        assert!(page.contains(&format!("<section class=\"certification\" data-verdict=\"{verdict}\" aria-labelledby=\"p{i}-title\">")));
        for c in plugin["report"]["checks"].as_array().unwrap() {
            assert!(page.contains(&format!("<tr data-check=\"{}\">", c["id"].as_str().unwrap())));
        }
    }
}

#[test]
fn certify_prints_the_page_to_stdout_and_checks_refuses_html() {
    let plugin = common::mock("runok-extension", &[]);
    let args: Vec<&str> =
        ["certify", "--no-progress", "--protocol", "runok-extension", "--"].into_iter().chain(plugin.iter().map(String::as_str)).collect();
    let (code, out, err) = run(&[&args[..2], &["--format", "html"], &args[2..]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<!DOCTYPE html>") && out.contains("data-verdict=\"conformant\""), "{out}");
    let (code, _, err) = run(&["checks", "--format", "html"]);
    assert_eq!(code, 2);
    assert!(err.contains("the catalogue is not a test run"), "{err}");
}

#[test]
fn verify_shows_every_check_of_what_the_runtime_sent() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().to_str().unwrap();
    let scenario = "scenarios/picoclaw/approval-hook-crash-denies.yaml";
    let (code, _, err) = run(&["run", "--no-progress", "--format", "json", "--record-dir", records, scenario]);
    assert_eq!(code, 0, "{err}");
    let journal = format!("{records}/llm.journal.jsonl");
    let (code, report, page) = both(&["verify", "--scenario", scenario, "--record", records, "--journal", &journal]);
    assert_eq!(code, 0);
    assert!(page.contains("(what the runtime sent)</h1>") && page.contains("data-verdict=\"conformant\""));
    let checks = report["checks"].as_array().unwrap();
    assert!(!checks.is_empty());
    for c in checks {
        assert!(page.contains(&format!("<tr data-check=\"{}\">", c["id"].as_str().unwrap())), "{} is missing", c["id"]);
    }
}
