//! `proctor certify --runtime-config`: every exec plugin of a PromptKit RuntimeConfig, judged as the
//! per-plugin certify judges it, in one report.

mod common;

use std::process::Command;

use common::{proctor, repo_root};
use serde_json::Value;

const CONFIG: &str = "examples/promptkit-runtime-config/runtime.yaml";
const PACK: &str = "examples/promptkit-runtime-config/agent.pack.json";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(proctor()).current_dir(repo_root()).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `(check id, case, profile) -> status` for every result of a certify report.
fn outcomes(report: &Value) -> Vec<(String, String, String, String)> {
    let mut all: Vec<_> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].to_string(), c["case"].to_string(), c["profile"].to_string(), c["status"].to_string()))
        .collect();
    all.sort();
    all
}

#[test]
fn the_example_runtime_config_is_judged_plugin_by_plugin() {
    let (code, out, err) = run(&["certify", "--no-progress", "--runtime-config", CONFIG, "--pack", PACK, "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["verdict"], "nonconformant");
    let plugins = report["plugins"].as_array().unwrap();
    let summary: Vec<(&str, &str, &str)> = plugins
        .iter()
        .map(|p| (p["binding"].as_str().unwrap(), p["role"].as_str().unwrap(), p["report"]["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            ("spec.tools.sentiment_analysis.exec", "tool", "conformant"),
            ("spec.evals.tone_check", "eval", "conformant"),
            ("spec.evals.response_quality", "eval", "conformant"),
            ("spec.hooks.content_policy", "provider-hook", "nonconformant"),
            ("spec.hooks.audit_logger", "session-hook", "conformant"),
        ]
    );
    // The content-policy hook reads the documented shape: its deny case fails under PromptKit only.
    let policy = &plugins[3];
    assert!(policy["cases"].as_str().unwrap().ends_with("hooks/content_policy.cases.yaml"));
    assert_eq!(policy["report"]["profile_verdicts"], serde_json::json!({"documented": "conformant", "promptkit@86d9f36": "nonconformant"}));
    let failed: Vec<(&str, &str)> = policy["report"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail")
        .map(|c| (c["id"].as_str().unwrap(), c["profile"].as_str().unwrap()))
        .collect();
    assert_eq!(failed, [("CASE-DECISION", "promptkit@86d9f36")]);
    // Its failure says which PromptKit fact parts it from the documents (report/, one place for every report).
    let case = policy["report"]["checks"].as_array().unwrap().iter().find(|c| c["status"] == "fail").unwrap();
    assert!(case["message"].as_str().unwrap().contains("promptkit.hook-payload-pascal-case"), "{case}");
    // A binding with no cases beside it was judged on the protocol alone, and its report says so.
    assert_eq!(plugins[0]["report"]["decisions_not_judged"], serde_json::json!(["documented", "promptkit@86d9f36"]));
    let text = std::fs::read_to_string(repo_root().join(CONFIG)).unwrap();
    let line = text.lines().position(|l| l.trim() == "content_policy:").unwrap() + 1;
    assert_eq!(plugins[3]["line"], line);
    // the tool's timeout_ms is one PromptKit copies and never reads: said, not silently honoured
    let notes = report["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].as_str().unwrap().starts_with("spec.tools.sentiment_analysis.exec sets timeout_ms: 5000, which PromptKit never applies")
    );
}

#[test]
fn each_plugin_gets_the_same_judgement_as_certifying_it_alone() {
    let (_, out, _) = run(&["certify", "--no-progress", "--runtime-config", CONFIG, "--format", "json"]);
    let combined: Value = serde_json::from_str(&out).unwrap();
    let dir = repo_root().join("examples/promptkit-runtime-config");
    for (index, role, script, cases) in [
        (0, "tool", "./tools/sentiment.py", None),
        (3, "provider-hook", "./hooks/content_policy.py", Some("hooks/content_policy.cases.yaml")),
    ] {
        let mut args = vec!["certify", "--no-progress", "--protocol", "promptkit-exec", "--role", role, "--format", "json", "--timeout-ms"];
        args.push(if index == 3 { "3000" } else { "5000" });
        if let Some(cases) = cases {
            args.extend(["--cases", cases]);
        }
        args.extend(["--", "python3", script]);
        let out = Command::new(proctor()).current_dir(&dir).args(&args).output().unwrap();
        let alone: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(outcomes(&combined["plugins"][index]["report"]), outcomes(&alone), "{script}");
    }
}

#[test]
fn with_the_pack_tools_are_fuzzed_from_their_parameters() {
    let (_, out, err) = run(&["certify", "--no-progress", "--runtime-config", CONFIG, "--pack", PACK, "--fuzz", "5", "--format", "json"]);
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let tool = &report["plugins"][0]["report"]["checks"];
    let fuzzed: Vec<&Value> = tool.as_array().unwrap().iter().filter(|c| c["id"] == "ROBUST-FUZZ").collect();
    assert_eq!(fuzzed.len(), 2, "one per profile");
    assert!(fuzzed.iter().all(|c| c["status"] == "pass"), "{fuzzed:?}");
    // only tools are fuzzed
    assert!(!report["plugins"][1]["report"]["checks"].as_array().unwrap().iter().any(|c| c["id"] == "ROBUST-FUZZ"));
}

#[test]
fn junit_holds_every_plugins_suites_in_one_document() {
    let (code, out, _) = run(&["certify", "--no-progress", "--runtime-config", CONFIG, "--format", "junit"]);
    assert_eq!(code, 1);
    assert_eq!(out.matches("<?xml").count(), 1);
    assert_eq!(out.matches("<testsuite ").count(), 10, "five plugins, two profiles each");
    assert!(out.contains("spec.hooks.content_policy"), "{out}");
}

#[test]
fn mistakes_in_the_runtime_config_or_the_flags_are_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("runtime.yaml");
    std::fs::write(&bad, "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: RuntimeConfig\nspec:\n  evals:\n    tone: {args: [x.py]}\n")
        .unwrap();
    let (code, _, err) = run(&["certify", "--runtime-config", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("runtime.yaml:5:11: `tone` has no command"), "{err}");
    let (code, _, err) = run(&["certify", "--runtime-config", CONFIG, "--protocol", "promptkit-exec"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    let (code, _, err) = run(&["certify", "--runtime-config", CONFIG, "--fuzz", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --pack"), "{err}");
    let (code, _, err) = run(&["certify", "--pack", PACK, "--protocol", "runok-extension", "--", "true"]);
    assert_eq!(code, 2);
    assert!(err.contains("--runtime-config"), "{err}");
}

#[test]
fn a_binding_that_cannot_start_is_its_own_error_and_the_rest_are_judged() {
    let dir = tempfile::tempdir().unwrap();
    let good = common::mock("promptkit-exec", &["--role", "eval"]);
    let args: Vec<String> = good[1..].iter().map(|a| format!("{a:?}")).collect();
    let config = format!(
        "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: RuntimeConfig\nhookz: {{}}\nspec:\n  evals:\n    good:\n      command: {:?}\n      args: [{}]\n      timeuot_ms: 100\n    missing_script:\n      command: python3\n      args: [./nope.py]\n    missing_binary:\n      command: ./no-such-binary\n",
        good[0],
        args.join(", ")
    );
    let path = dir.path().join("runtime.yaml");
    std::fs::write(&path, config).unwrap();
    let path = path.to_str().unwrap();
    let (code, out, err) = run(&["certify", "--no-progress", "--runtime-config", path, "--format", "json"]);
    assert_eq!(code, 2, "the config's own mistakes: {err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["verdict"], "error");
    let plugins = report["plugins"].as_array().unwrap();
    assert_eq!(plugins[0]["report"]["verdict"], "conformant", "the good plugin is still judged: {report}");
    let missing = plugins[1]["error"].as_str().unwrap();
    assert!(
        missing.contains("runtime.yaml:10:5: spec.evals.missing_script:")
            && missing.contains("/nope.py (from ")
            && missing.contains("which does not exist"),
        "{missing}"
    );
    assert!(missing.contains("check the binding's command and args"), "{missing}");
    let binary = plugins[2]["error"].as_str().unwrap();
    assert!(binary.contains("runtime.yaml:13:5: spec.evals.missing_binary: cannot start `./no-such-binary`"), "{binary}");
    let notes: Vec<&str> = report["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(notes.iter().any(|n| n.contains("runtime.yaml:3:1: `hookz` is not a key of the top level")), "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("runtime.yaml:9:7: `timeuot_ms` is not a key of spec.evals.good")
                && n.contains("did you mean `timeout_ms`?")),
        "{notes:?}"
    );

    let (code, out, _) = run(&["certify", "--no-progress", "--runtime-config", path]);
    assert_eq!(code, 2);
    assert!(out.contains("ERROR: 1 of 3 plugins conformant, 2 could not be judged (exit 2)"), "{out}");
    let (_, junit, _) = run(&["certify", "--no-progress", "--runtime-config", path, "--format", "junit"]);
    assert_eq!(junit.matches("<error").count(), 2, "{junit}");
}
