//! The command line as a user meets it: usage errors exit 2 with a message
//! that says what to do, the catalogue prints, every format renders the
//! same results, and --output writes the file.

mod common;

use std::process::Command;

use common::{mock, proctor, repo_root};
use proctor_conformance::check::CATALOGUE;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(proctor()).current_dir(repo_root()).args(args).output().expect("run proctor");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn usage_errors_exit_2_and_explain() {
    let (code, _, err) = run(&["certify", "--protocol", "picoclaw", "--", "true"]);
    assert_eq!(code, 2);
    assert!(err.contains("picoclaw-hook"), "lists valid protocols: {err}");

    let (code, _, err) = run(&["certify", "--protocol", "promptkit-exec", "--", "true"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --role") && err.contains("tool-hook"), "{err}");

    let (code, _, err) = run(&["certify", "--protocol", "runok-extension", "--profile", "picoclaw@cf67dd3", "--", "true"]);
    assert_eq!(code, 2);
    assert!(err.contains("runok@0.3.1"), "{err}");

    let (code, _, err) = run(&["certify", "--protocol", "runok-extension", "--", "/nonexistent/plugin"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot start `/nonexistent/plugin`") && err.contains("hint"), "{err}");

    let (code, _, err) = run(&["certify", "--protocol", "runok-extension"]);
    assert_eq!(code, 2, "a missing command is a usage error: {err}");

    // The interpreter starts, the script does not exist: the user's command, not the plugin's failure.
    let (code, out, err) = run(&["certify", "--protocol", "runok-extension", "--", "python3", "./nope.py"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("`python3` would run ./nope.py, which does not exist") && err.contains("hint"), "{err}");
    assert!(!out.contains("FRAMING-SINGLE-DOCUMENT"), "no verdict against the plugin: {out}");
    let (code, _, err) = run(&["certify", "--protocol", "runok-extension", "--cwd", "/tmp", "--", "sh", "nope.sh"]);
    assert_eq!(code, 2);
    assert!(err.contains("would run /tmp/nope.sh (from /tmp)"), "{err}");
}

#[test]
fn a_malformed_cases_file_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.cases.yaml");
    std::fs::write(&path, "cases:\n  - name: typo\n    expcet: {decision: deny}\n").unwrap();
    let p = path.display().to_string();
    let (code, _, err) = run(&["certify", "--protocol", "runok-extension", "--cases", &p, "--", "true"]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{p}:3:5")), "{err}");
    assert!(err.contains("expcet") && err.contains("hint"), "{err}");
}

#[test]
fn checks_prints_every_check_and_the_profiles() {
    let (code, out, _) = run(&["checks"]);
    assert_eq!(code, 0);
    for c in CATALOGUE {
        assert!(out.contains(c.id), "{} missing from `proctor checks`", c.id);
    }
    assert!(out.contains("picoclaw.runtime-event-notification"), "divergences are listed");
    // Which release each profile is held to by interop/ (FIDELITY.md).
    assert!(out.contains("runtime module v1.5.11 plus two commits that touch only deploy adapters and docs"), "{out}");
    assert!(out.contains("byte-identical in v0.2.9"), "{out}");
    let (_, json, _) = run(&["checks", "--protocol", "runok-extension", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ids: Vec<&str> = v["checks"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"RUNOK-STATUS") && !ids.contains(&"PICOCLAW-ACTION"), "{ids:?}");
}

#[test]
fn every_format_renders_and_output_goes_to_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = mock("runok-extension", &["--fault", "status-uppercase"]);
    let plugin: Vec<&str> = plugin.iter().map(String::as_str).collect();
    // Each format must carry the verdict, the failing check under both
    // profiles, and the reply that proves it (escaped as the format escapes).
    let reply = r#"{"jsonrpc":"2.0","id":1,"result":{"status":"ALLOW"}}"#;
    let reply_xml = reply.replace('"', "&quot;");
    for (format, needles) in [
        ("text", vec!["FAIL RUNOK-STATUS (must)", reply, "NONCONFORMANT: 30 passed, 2 failed"]),
        ("junit", vec![r#"<testcase name="RUNOK-STATUS" classname="runok-extension.runok@0.3.1">"#, "<failure", &reply_xml]),
        ("markdown", vec!["❌ nonconformant", "| ❌ fail | `RUNOK-STATUS` | Must |", "#### `RUNOK-STATUS` (runok@0.3.1)", reply]),
    ] {
        let written = certify_to_file(dir.path(), format, &plugin);
        for needle in needles {
            assert!(written.contains(needle), "{format} report lacks {needle:?}:\n{written}");
        }
    }
    let json: serde_json::Value = serde_json::from_str(&certify_to_file(dir.path(), "json", &plugin)).unwrap();
    assert_eq!(json["verdict"], "nonconformant");
    let received = format!("{reply}\n");
    let failed: Vec<(&str, &str, &str)> = json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail")
        .map(|c| (c["id"].as_str().unwrap(), c["profile"].as_str().unwrap(), c["evidence"]["received"].as_str().unwrap()))
        .collect();
    assert_eq!(failed, [("RUNOK-STATUS", "documented", received.as_str()), ("RUNOK-STATUS", "runok@0.3.1", received.as_str())]);
}

/// Certifies `plugin` with `--format FORMAT --output FILE`: exit 1, nothing on
/// stdout, and the report read back from the file.
fn certify_to_file(dir: &std::path::Path, format: &str, plugin: &[&str]) -> String {
    let file = dir.join(format!("report.{format}"));
    let f = file.display().to_string();
    let mut args = vec!["certify", "--no-progress", "--protocol", "runok-extension", "--format", format, "--output", &f, "--"];
    args.extend(plugin);
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{format}: {err}");
    assert!(out.is_empty(), "{format}: the report goes to the file, not stdout");
    std::fs::read_to_string(&file).unwrap()
}

#[test]
fn text_output_escapes_terminal_controls_from_plugins() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("evil.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ncat >/dev/null\nprintf '\\033[2J{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"allow\"}}'\n",
    )
    .unwrap();
    let s = script.display().to_string();
    let (code, out, _) = run(&["certify", "--protocol", "runok-extension", "--", "sh", &s]);
    assert_eq!(code, 1);
    assert!(!out.contains('\u{1b}'), "raw ESC reached the terminal");
    assert!(out.contains("\\u{1b}[2J"), "the escape is shown, not dropped:\n{out}");
}

#[test]
fn mock_plugin_lists_its_faults() {
    let (code, out, _) = run(&["mock-plugin", "--protocol", "runok-extension", "--list-faults"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("grandchild"), "{out}");
    // Each fault says what it does, on its own line.
    assert!(out.lines().any(|l| l.starts_with("grandchild") && l.contains("Trips \"no process outlives the plugin\"")), "{out}");
    // Only what changes something for the family (and role): no-flush is a
    // line-protocol fault, meaningless for a one-shot runok extension.
    assert!(!out.contains("no-flush"), "{out}");
    let (code, out, _) = run(&["mock-plugin", "--protocol", "promptkit-exec", "--role", "eval", "--list-faults"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("score-string") && !out.contains("tool-empty") && !out.contains("no-hello"), "{out}");
    let (code, out, _) = run(&["mock-plugin", "--list-faults"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no-flush") && out.contains("no-hello") && out.contains("score-string"), "{out}");
    let (code, _, err) = run(&["mock-plugin", "--protocol", "runok-extension", "--fault", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-flush"), "lists valid faults: {err}");
}

#[test]
fn run_exit_codes_follow_the_outcome() {
    let (code, out, err) = run(&["run", "--no-progress", "scenarios/runok"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("PASS runok/env-guard-denies-post-to-prod"), "{out}");

    let dir = tempfile::tempdir().unwrap();
    let failing = dir.path().join("wrong.yaml");
    std::fs::write(&failing, "id: t/wrong\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: allow}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: deny\n").unwrap();
    let f = failing.display().to_string();
    let (code, out, _) = run(&["run", "--no-progress", &f]);
    assert_eq!(code, 1);
    assert!(out.contains("outcome: expected deny, got allow"), "{out}");

    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "id: t/bad\nruntime: runok\nturns:\n  - comand: {raw: ls}\n").unwrap();
    let b = bad.display().to_string();
    // The malformed file is part of the report (and the exit code), not only stderr.
    let (code, out, _) = run(&["run", "--no-progress", &b]);
    assert_eq!(code, 2);
    assert!(out.contains(&format!("ERROR {b}")), "{out}");
    assert!(out.contains(&format!("{b}:4:5")) && out.contains("unknown variant `comand`") && out.contains("hint"), "{out}");
}

#[test]
fn the_checked_in_schema_is_current() {
    let (code, out, _) = run(&["schema"]);
    assert_eq!(code, 0);
    let shipped = std::fs::read_to_string(repo_root().join("scenarios/scenario.schema.json")).unwrap();
    assert_eq!(out, shipped, "regenerate with `proctor schema > scenarios/scenario.schema.json`");
    let schema: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(schema["title"], "Scenario");
}

#[test]
fn run_profile_all_shows_where_the_profiles_part_ways() {
    let (_, out, _) = run(&["run", "--no-progress", "--profile", "all", "scenarios/runok/uppercase-status-falls-back-to-ask.yaml"]);
    assert!(out.contains("runok/uppercase-status-falls-back-to-ask [documented]"), "{out}");
    assert!(out.contains("runok/uppercase-status-falls-back-to-ask [runok@0.3.1]"), "{out}");
    let table = &out[out.find("Where the profiles part ways").expect("the divergence table")..];
    // runok sorts its request keys and sends no trailing newline: the first stdin differs.
    assert!(table.contains("runok/uppercase-status-falls-back-to-ask: entry"), "{table}");
    assert!(table.contains("documented         plugin shouty_guard stdin: {\"jsonrpc\":\"2.0\",\"id\":1,"), "{table}");
    assert!(table.contains("runok@0.3.1        plugin shouty_guard stdin: {\"id\":1,\"jsonrpc\":\"2.0\","), "{table}");

    let (code, _, err) = run(&["run", "--no-progress", "--profile", "picoclaw@cf67dd3", "scenarios/runok"]);
    assert_eq!(code, 2);
    assert!(err.contains("--profile") && err.contains("runok@0.3.1") && err.contains("`all`"), "{err}");
}

/// The examples printed by `--help` (the `  proctor …` lines under `Examples:`,
/// `\` continuing a line).
fn help_examples(help: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let Some(at) = help.find("Examples:") else { return examples };
    let mut lines = help[at..].lines().skip(1).take_while(|l| !l.trim().is_empty());
    while let Some(line) = lines.next() {
        let Some(start) = line.trim_start().strip_prefix("proctor ").map(|_| line.trim()) else { continue };
        let mut example = start.to_string();
        while example.ends_with('\\') {
            example.pop();
            example.push(' ');
            example.push_str(lines.next().unwrap_or_default().trim());
        }
        examples.push(example);
    }
    examples
}

#[test]
fn every_help_example_runs_as_written() {
    // From a folder of its own (the examples may write files), seeing the repository's
    // examples and scenarios where the help's relative paths expect them.
    let dir = tempfile::tempdir().unwrap();
    for shared in ["examples", "scenarios"] {
        std::os::unix::fs::symlink(repo_root().join(shared), dir.path().join(shared)).unwrap();
    }
    let bin = std::path::Path::new(proctor()).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let commands: [&[&str]; 13] = [
        &[],
        &["certify"],
        &["checks"],
        &["init"],
        &["certificate", "check"],
        &["pack", "check"],
        &["pack", "render"],
        &["mock-plugin"],
        &["mock-provider"],
        &["run"],
        &["load"],
        &["schema"],
        &["verify"],
    ];
    let mut examples = Vec::new();
    for command in commands {
        let (_, help, _) = run(&[command, &["--help"]].concat());
        examples.extend(help_examples(&help));
    }
    assert!(examples.len() >= 8, "the helps teach by example: {examples:?}");
    for example in &examples {
        let out = Command::new("sh").arg("-c").arg(example).current_dir(dir.path()).env("PATH", &path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(matches!(out.status.code(), Some(0 | 1)), "`{example}` does not run as written ({:?}): {err}", out.status.code());
    }
}

#[test]
fn a_plugin_command_without_the_separator_gets_the_command_line_with_it() {
    let (code, _, err) = run(&["certify", "--protocol", "runok-extension", "python3", "gate.py"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unexpected argument 'python3'"), "{err}");
    assert!(
        err.contains("tip: the plugin's command goes after `--`")
            && err.contains("proctor certify --protocol runok-extension -- python3 gate.py"),
        "{err}"
    );
    // Another mistake gets no such tip.
    let (code, _, err) = run(&["certify", "--protocol", "runok-extension", "--nope", "--", "true"]);
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("tip: the plugin's command"), "{err}");
}

#[test]
fn one_certify_run_writes_every_report_it_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).display().to_string();
    let (junit, markdown, json, text) = (file("r.xml"), file("s.md"), file("r.json"), file("r.txt"));
    let reports = [format!("junit={junit}"), format!("markdown={markdown}"), format!("json={json}"), format!("text={text}")];
    let mut args = vec!["certify", "--no-progress", "--protocol", "runok-extension", "--format", "json"];
    for report in &reports {
        args.extend(["--report", report.as_str()]);
    }
    args.push("--");
    let plugin = mock("runok-extension", &[]);
    args.extend(plugin.iter().map(String::as_str));
    let (code, stdout, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    // Every file is the report the same run rendered: the JSON file is stdout's JSON, byte for byte.
    assert_eq!(std::fs::read_to_string(&json).unwrap(), stdout);
    assert!(std::fs::read_to_string(&junit).unwrap().starts_with("<?xml"));
    assert!(std::fs::read_to_string(&markdown).unwrap().contains("runok@0.3.1"));
    let text = std::fs::read_to_string(&text).unwrap();
    assert!(text.contains("CONFORMANT") && !text.contains('\u{1b}'), "text without colour: {text}");
    // A format that is not one, and two reports on one file, are usage errors before anything runs.
    let (code, _, err) = run(&["certify", "--protocol", "runok-extension", "--report", "yaml=x.yaml", "--", "true"]);
    assert_eq!(code, 2);
    assert!(err.contains("`yaml` is not a report format: use text, json, junit, markdown or html"), "{err}");
    let same = format!("json={junit}");
    let (code, _, err) =
        run(&["certify", "--protocol", "runok-extension", "--report", &format!("junit={junit}"), "--report", &same, "--", "true"]);
    assert_eq!(code, 2);
    assert!(err.contains("--report junit and --report json both name"), "{err}");
}

#[test]
fn one_scenario_run_writes_every_report_it_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).display().to_string();
    let (junit, markdown, json, baseline) = (file("r.xml"), file("s.md"), file("r.json"), file("b.yaml"));
    let scenario = "scenarios/promptkit/exec-tool-success.yaml";
    let (junit_arg, markdown_arg, json_arg) = (format!("junit={junit}"), format!("markdown={markdown}"), format!("json={json}"));
    let args =
        ["run", "--no-progress", "--format", "json", "--report", &junit_arg, "--report", &markdown_arg, "--report", &json_arg, scenario];
    let (code, stdout, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&json).unwrap(), stdout, "the JSON file is stdout's report, byte for byte");
    assert!(std::fs::read_to_string(&junit).unwrap().contains("promptkit/exec-tool-success"));
    assert!(std::fs::read_to_string(&markdown).unwrap().starts_with("## proctor run: 1 passed, 0 failed"));
    // A report may not replace the baseline the run reads.
    std::fs::write(&baseline, "expected_failures: []\n").unwrap();
    let over = format!("junit={baseline}");
    let (code, _, err) = run(&["run", "--no-progress", "--baseline", &baseline, "--report", &over, scenario]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is also the --baseline file"), "{err}");
    assert_eq!(std::fs::read_to_string(&baseline).unwrap(), "expected_failures: []\n", "the baseline is untouched");
}
