//! The user's mistakes are the user's: a malformed scenario, cases file or
//! flag is exit 2 with its location and the valid values, never a verdict
//! against a plugin, and one bad file never hides the others.

mod common;

use std::path::Path;
use std::process::Command;

use common::{proctor, repo_root};
use serde_json::Value;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(proctor()).current_dir(repo_root()).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

const GOOD: &str = "id: t/good\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: deny}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: deny\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// `proctor run FILE` on one scenario: (exit code, everything printed).
fn run_one(dir: &Path, text: &str) -> (i32, String) {
    let f = write(dir, "s.yaml", text);
    let (code, out, err) = run(&["run", "--no-progress", &f]);
    (code, out + &err)
}

#[test]
fn one_broken_file_is_reported_and_the_others_still_run() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a-good.yaml", GOOD);
    write(dir.path(), "b-empty.yaml", "");
    write(dir.path(), "c-typo.yaml", "id: t/typo\nruntime: runok\nturns:\n  - comand: {raw: ls}\n");
    let d = dir.path().display().to_string();
    let (code, out, _) = run(&["run", "--no-progress", "--format", "json", &d]);
    assert_eq!(code, 2, "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let rows: Vec<(String, String)> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["status"].as_str().unwrap().to_string(),
                Path::new(s["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [("pass".into(), "a-good.yaml".into()), ("error".into(), "b-empty.yaml".into()), ("error".into(), "c-typo.yaml".into())]
    );
    let empty = &report["scenarios"][1]["problems"][0];
    assert!(empty.as_str().unwrap().ends_with("b-empty.yaml: the file is empty\nhint: a scenario needs at least `id`, `runtime` and `turns`; `proctor schema` prints the format"), "{empty}");
    assert!(report["scenarios"][2]["problems"][0].as_str().unwrap().contains("c-typo.yaml:4:5"), "{report}");

    let (_, junit, _) = run(&["run", "--no-progress", "--format", "junit", &d]);
    assert!(junit.contains(&format!("classname=\"{d}/a-good.yaml\"")), "{junit}");
}

#[test]
fn closed_vocabularies_name_the_value_its_place_and_the_valid_ones() {
    let dir = tempfile::tempdir().unwrap();
    let hook = "id: t/p\nruntime: promptkit\nplugins:\n  - name: guard\n    process: {mock: {}}\n    config: {promptkit_hook: {hook: tool, phases: [before_exection]}}\nturns:\n  - user: hi\n";
    let (code, out) = run_one(dir.path(), hook);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("s.yaml:6:52: `before_exection` is not a tool hook phase"), "{out}");
    assert!(out.contains("hint: use one of: before_execution, after_execution"), "{out}");

    let pico = "id: t/p\nruntime: picoclaw\nplugins:\n  - {name: h, process: {mock: {decision: deny_tool}}, config: {picoclaw_hook: {intercept: [before_tool]}}}\nturns:\n  - user: hi\n";
    let (code, out) = run_one(dir.path(), pico);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("s.yaml:4:42: `deny_tool` is not a mock decision"), "{out}");
    assert!(out.contains("hint: use one of: allow, deny, pending, respond, modify"), "{out}");

    let mocked = "id: t/p\nruntime: codex\nplugins:\n  - {name: gate, process: {mock: {decision: deny}}, config: {agent_hook: {event: PreToolUse}}}\nturns:\n  - user: hi\n";
    let (code, out) = run_one(dir.path(), mocked);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("s.yaml:4:12: plugin `gate` is a command hook played by the mock plugin"), "{out}");

    let resolved = "id: t/p\nruntime: claude-code\nplugins:\n  - {name: gate, process: {command: [sh, g.sh]}, config: {agent_hook: {event: PreToolUse}}}\nturns:\n  - resolve: {call: c1, result: ok}\n";
    let (code, out) = run_one(dir.path(), resolved);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("claude-code and codex ones `user`"), "{out}");

    let twice = "id: t/p\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {}}, config: {runok_extension: {}}}\n  - {name: g, process: {mock: {}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\n";
    let (code, out) = run_one(dir.path(), twice);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("s.yaml:5:12: two plugins are named `g`"), "{out}");

    let yes = GOOD.replace("outcome: deny\n", "outcome: deny\n  tool_results:\n    - {tool: t, is_error: yes}\n");
    let (code, out) = run_one(dir.path(), &yes);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("invalid boolean (strict mode expects true/false)") && out.contains("s.yaml:10:27"), "{out}");
}

#[test]
fn a_plugin_that_cannot_start_is_the_scenarios_mistake() {
    let dir = tempfile::tempdir().unwrap();
    let text = "id: t/missing\nruntime: runok\nplugins:\n  - {name: g, process: {command: [./no-such-guard]}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: ask\n";
    let (code, out) = run_one(dir.path(), text);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("cannot start a plugin: plugin `g`: cannot start `./no-such-guard`: No such file or directory (os error 2) (command: ./no-such-guard;"), "{out}");
    assert!(out.contains("no-such-guard does not exist)"), "{out}");
    // Marked as the point of the scenario, the same failure is the runtime's to handle.
    let meant = text.replace("process: {command: [./no-such-guard]},", "process: {command: [./no-such-guard]}, fails_to_start: true,");
    let (code, out) = run_one(dir.path(), &meant);
    assert_eq!(code, 0, "{out}");
    let started = GOOD.replace("process: {mock: {decision: deny}},", "process: {mock: {decision: deny}}, fails_to_start: true,");
    let (code, out) = run_one(dir.path(), &started);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("plugin `g` is marked `fails_to_start`, but it started"), "{out}");
}

#[test]
fn run_flags_that_would_judge_nothing_are_usage_errors() {
    for jobs in ["0", "2305843009213693952"] {
        // The second once panicked: more permits than a semaphore can hold.
        let (code, _, err) = run(&["run", "--no-progress", "--jobs", jobs, "scenarios/runok"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&format!("invalid value '{jobs}' for '--jobs <N>': {jobs} is not in 1..=1024")), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["run", "--no-progress", &dir.path().display().to_string()]);
    assert_eq!(code, 2);
    assert!(err.contains("no scenario files"), "{err}");
}

#[test]
fn the_cargo_test_entry_fails_on_an_empty_suite_a_shared_id_and_an_orphan_snapshot() {
    let env = || proctor::context::RunEnv { root: repo_root(), mock_program: proctor().into(), record_dir: None };
    let names = |dir: &Path| proctor::testing::trials(dir, env()).iter().map(|t| t.name().to_string()).collect::<Vec<_>>();
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(names(empty.path()), ["scenarios::discovery"], "an empty suite is one failing trial, never zero");

    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.yaml");
    let b = dir.path().join("b.yaml");
    std::fs::write(&a, GOOD).unwrap();
    std::fs::write(&b, GOOD).unwrap();
    std::fs::create_dir(dir.path().join("snapshots")).unwrap();
    write(&dir.path().join("snapshots"), "t__good.snap", "---\nsource: x\n---\n[]\n");
    write(&dir.path().join("snapshots"), "t__renamed.snap", "---\nsource: x\n---\n[]\n");
    assert_eq!(names(dir.path()), ["a", "b", "scenarios::ids-are-unique", "scenarios::no-orphan-snapshots"]);
    let files = vec![a.clone(), b.clone()];
    let clash = proctor::testing::unique_ids(&files).unwrap_err();
    assert!(format!("{clash:?}").contains("b.yaml: id `t/good` is already the id of"), "{clash:?}");
    assert!(proctor::testing::unique_ids(&files[..1]).is_ok());
    let orphan = proctor::testing::no_orphan_snapshots(dir.path(), &files).unwrap_err();
    assert!(format!("{orphan:?}").contains("snapshots/t__renamed.snap"), "{orphan:?}");
    std::fs::remove_file(dir.path().join("snapshots/t__renamed.snap")).unwrap();
    assert!(proctor::testing::no_orphan_snapshots(dir.path(), &files).is_ok());
}

#[test]
fn a_reader_that_goes_away_ends_proctor_quietly() {
    for args in
        [&["checks"][..], &["schema"], &["mock-plugin", "--protocol", "runok-extension", "--list-faults"], &["checks", "--format", "json"]]
    {
        // `| head -0`: the reader is gone before proctor starts. (Closing it after the spawn raced
        // with a fast proctor, whose whole output then fit in the pipe and exited 0.)
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let child = Command::new(proctor())
            .current_dir(repo_root())
            .args(args)
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
    }
}

#[test]
fn checks_formats_are_honest() {
    let (code, out, _) = run(&["checks", "--format", "markdown", "--protocol", "runok-extension"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("## proctor check catalogue (") && out.contains("| `RUNOK-STATUS` | Role semantics | Must | runok-extension |"),
        "{out}"
    );
    let (code, _, err) = run(&["checks", "--format", "junit"]);
    assert_eq!(code, 2);
    assert!(err.contains("the catalogue is not a test run"), "{err}");
}

#[test]
fn a_report_header_can_be_pasted_to_run_it_again() {
    let plugin = common::mock("runok-extension", &[]);
    let mut args = vec![
        "certify",
        "--no-progress",
        "--protocol",
        "runok-extension",
        "--timeout-ms",
        "700",
        "--cases",
        "examples/runok-extension/env_guard.cases.yaml",
        "--",
    ];
    args.extend(plugin.iter().map(String::as_str));
    let (_, out, _) = run(&args);
    let header = out.lines().next().unwrap();
    assert!(
        header.starts_with(
            "proctor certify --protocol runok-extension --cases examples/runok-extension/env_guard.cases.yaml --timeout-ms 700 -- "
        ),
        "{header}"
    );
    assert!(!header.contains("--role"), "runok has no --role: {header}");
}

#[test]
fn a_deadline_longer_than_the_runtimes_is_named() {
    let plugin = common::mock("promptkit-exec", &["--role", "eval-hook"]);
    let mut args = vec![
        "certify",
        "--no-progress",
        "--format",
        "json",
        "--protocol",
        "promptkit-exec",
        "--role",
        "eval-hook",
        "--timeout-ms",
        "6000",
        "--",
    ];
    args.extend(plugin.iter().map(String::as_str));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: --timeout-ms 6000 is above promptkit@86d9f36's own 5000 ms deadline (DefaultExecEvalHookTimeout = 5 s"),
        "{err}"
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["notes"].as_array().map(Vec::len), Some(1), "{report}");
}

#[test]
fn a_verify_report_is_titled_verify_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let scenario = "scenarios/runok/uppercase-status-falls-back-to-ask.yaml";
    let rec = records.display().to_string();
    let (code, _, err) = run(&["run", "--no-progress", "--record-dir", &rec, scenario]);
    assert_eq!(code, 0, "{err}");
    for (format, title) in [("markdown", "## proctor verify --scenario"), ("junit", "<testsuites name=\"proctor verify --scenario")] {
        let (_, out, err) = run(&["verify", "--format", format, "--scenario", scenario, "--record", &rec]);
        assert!(out.contains(title), "{format}: {out}{err}");
        assert!(!out.contains("proctor certify"), "{format}: {out}");
    }
}

#[test]
fn verify_with_nothing_to_judge_is_a_usage_error_not_conformant() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let scenario = "scenarios/runok/uppercase-status-falls-back-to-ask.yaml";
    let (code, out, err) = run(&["verify", "--scenario", scenario, "--record", &d]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains(&format!("nothing to judge: no <plugin>.jsonl records in {d}")), "{err}");
    // A record for a plugin the scenario does not have (a misnamed file): named, with the plugins there are.
    std::fs::write(dir.path().join("someone_else.jsonl"), "").unwrap();
    let (code, out, err) = run(&["verify", "--scenario", scenario, "--record", &d]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("someone_else.jsonl: no mock plugin of the scenario is named `someone_else`; its mock plugins: "), "{err}");
}

#[test]
fn a_pack_scenario_runs_the_same_from_any_folder() {
    // `pack:` and `runtime_config:` are found beside the scenario, and the RuntimeConfig's tools
    // beside it: the snapshot (compared by `run`) holds wherever proctor is started.
    let elsewhere = tempfile::tempdir().unwrap();
    let scenario = repo_root().join("scenarios/promptpack/runtime-config-agent.yaml");
    for dir in [elsewhere.path(), &repo_root().join("scenarios")] {
        let out = Command::new(proctor()).current_dir(dir).args(["run", "--no-progress"]).arg(&scenario).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "from {}: {text}", dir.display());
        assert!(text.contains("PASS promptpack/runtime-config-agent"), "{text}");
    }
}

#[test]
fn a_pack_scenarios_own_mistakes_are_exit_2_with_their_location() {
    let dir = tempfile::tempdir().unwrap();
    let head = "id: t/pack\nruntime: promptkit\n";
    let turns = "turns:\n  - user: hi\n";
    // `pack:` is relative to the scenario's folder (here a temporary one), not to where proctor runs
    let examples = repo_root().join("examples").display().to_string();
    let (code, out) = run_one(dir.path(), &format!("{head}pack: nope.pack.json\nprompt: triage\n{turns}"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("pack: {}: cannot read: No such file", dir.path().join("nope.pack.json").display())), "{out}");
    let (code, out) = run_one(dir.path(), &format!("{head}pack: examples/promptpack/support.pack.json\nprompt: triage\n{turns}"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("pack: {}: cannot read", dir.path().join("examples/promptpack/support.pack.json").display())), "{out}");
    // a prompt the pack does not have
    let (code, out) = run_one(dir.path(), &format!("{head}pack: {examples}/promptpack/support.pack.json\nprompt: nope\n{turns}"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no prompt `nope`; its prompts are triage, resolve, escalate"), "{out}");
    // a pack invalid under the profile the scenario runs in, with the pack's own line
    let broken = std::fs::read_to_string(repo_root().join("examples/promptpack/support.pack.json")).unwrap().replacen(
        "\"entry\": \"triage\"",
        "\"entry\": \"start\"",
        1,
    );
    let pack = write(dir.path(), "broken.pack.json", &broken);
    let line = broken.lines().position(|l| l.contains("\"entry\": \"start\"")).unwrap() + 1;
    let (code, out) = run_one(dir.path(), &format!("{head}pack: {pack}\nprompt: triage\n{turns}"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("broken.pack.json:{line}:")) && out.contains("[PACK-REF-STATE]"), "{out}");
    // pack fields without a pack, and a pack without a prompt
    let (code, out) = run_one(dir.path(), &format!("{head}prompt: triage\n{turns}"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("belong to a pack"), "{out}");
    // (a pack with a workflow starts in its entry state's prompt; this one has none)
    let (code, out) = run_one(dir.path(), &format!("{head}pack: {examples}/promptkit-runtime-config/agent.pack.json\n{turns}"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("without `prompt:`"), "{out}");
    // a prompt that is not where the workflow starts, under the documented profile (under PromptKit
    // `prompt:` opens that prompt alone, without the workflow: promptpack/prompt-opens-without-workflow)
    let (code, out) =
        run_one(dir.path(), &format!("{head}profile: documented\npack: {examples}/promptpack/support.pack.json\nprompt: resolve\n{turns}"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("starts in a state whose prompt_task is `triage`; leave `prompt:` out"), "{out}");
}

#[test]
fn an_output_never_overwrites_an_input_or_another_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases = write(d, "cases.yaml", "cases:\n  - name: ls\n    request: {command: ls}\n    expect: {decision: allow}\n");
    let plugin = write(d, "guard.sh", "cat >/dev/null\nprintf '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"allow\"}}'\n");
    let certify = |extra: &[&str]| {
        let mut args = vec!["certify", "--no-progress", "--protocol", "runok-extension"];
        args.extend(extra);
        args.extend(["--", "sh", plugin.as_str()]);
        run(&args)
    };
    let report = d.join("r.json").display().to_string();
    let rows: [(&[&str], &str); 3] = [
        (&["--cases", &cases, "--output", &cases], "is also the --cases file: writing there would destroy it"),
        (&["--certificate", &plugin], "is also a file of the plugin's command"),
        (&["--output", &report, "--badge", &report], "--output and --badge both name"),
    ];
    for (flags, phrase) in rows {
        let (code, _, err) = certify(flags);
        assert_eq!(code, 2, "{flags:?}: {err}");
        assert!(err.contains(phrase), "{flags:?}: {err}");
    }
    assert!(std::fs::read_to_string(&cases).unwrap().starts_with("cases:"), "the cases file is intact");
    assert!(std::fs::read_to_string(&plugin).unwrap().starts_with("cat"), "the plugin is intact");

    let scenario = write(d, "s.yaml", GOOD);
    let (code, _, err) = run(&["run", "--no-progress", "--output", &scenario, &scenario]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is also a scenario file"), "{err}");
    assert_eq!(std::fs::read_to_string(&scenario).unwrap(), GOOD);
}

#[test]
fn what_the_user_typed_is_quoted_escaped() {
    let (code, out, err) = run(&["certify", "--no-progress", "--protocol", "runok-extension", "--", "/nonexistent/\x1b]0;pwn\x07\x1b[2J"]);
    assert_eq!(code, 2);
    assert!(!(out.clone() + &err).contains('\x1b'), "{err}");
    assert!(err.contains("\\u{1b}]0;pwn\\u{7}"), "{err}");
    let (code, _, err) = run(&["pack", "render", "examples/promptpack/support.pack.json", "--prompt", "\u{202e}\x1b[31mred"]);
    assert_eq!(code, 2);
    assert!(!err.contains('\x1b') && !err.contains('\u{202e}'), "{err}");
}

#[test]
fn a_pack_scenario_that_passes_on_promptkits_fallback_says_so_loudly() {
    let (code, out, _) = run(&["run", "--no-progress", "scenarios/promptpack/missing-variable-falls-back.yaml"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS promptpack/missing-variable-falls-back\n       !! the pack's prompt was not sent as written (fallback): PROMPTKIT FALLBACK"), "{out}");
    let (_, json, _) = run(&["run", "--no-progress", "--format", "json", "scenarios/promptpack/missing-variable-falls-back.yaml"]);
    let report: Value = serde_json::from_str(&json).unwrap();
    assert!(report["scenarios"][0]["pack_warning"].as_str().unwrap().contains("fallback"), "{report}");
    let (_, quiet, _) = run(&["run", "--no-progress", "scenarios/promptpack/tool-arguments-checked-first.yaml"]);
    assert!(!quiet.contains("!!"), "a prompt sent as written is not flagged: {quiet}");
    // A workflow state's prompt PromptKit rendered again without the host's value: said, with the
    // prompt the model got. A re-render that only fills an artifact drops nothing and is not flagged.
    let (code, out, _) = run(&["run", "--no-progress", "scenarios/promptpack/workflow-prompt-loses-host-value.yaml"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("!! PromptKit rendered state `greet`'s prompt again without the host's `language`, and the model got that instead: \"You greet the customers of the order desk in English"),
        "{out}"
    );
    let (code, quiet, _) = run(&["run", "--no-progress", "scenarios/promptpack/workflow-artifact-shows-next-round.yaml"]);
    assert_eq!(code, 0, "{quiet}");
    assert!(!quiet.contains("!!"), "an artifact filled in is not flagged: {quiet}");
}

#[test]
fn crash_after_without_its_fault_is_refused_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let text = "id: t/crash\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: deny, crash_after: 1}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: deny\n";
    let (code, out) = run_one(dir.path(), text);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("s.yaml:4:") && out.contains("`crash_after: 1` is read by the crash-after fault only"), "{out}");
    let (code, _, err) = run(&["mock-plugin", "--protocol", "runok-extension", "--crash-after", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("hint: add --fault crash-after"), "{err}");
}

#[test]
fn a_pack_scenario_with_preloaded_path_skills_says_this_run_is_not_promptkits() {
    // PromptKit activates `preload` skills as the conversation opens; proctor does not read SKILL.md
    // folders, so the run passes on a conversation PromptKit would not have, and must say so.
    let dir = tempfile::tempdir().unwrap();
    let pack = r#"{"id": "sk", "name": "Skills", "version": "1.0.0", "template_engine": {"version": "v1", "syntax": "{{variable}}"},
        "prompts": {"chat": {"id": "chat", "name": "Chat", "version": "1.0.0", "system_template": "You help."}},
        "skills": [{"path": "skills/refunds", "preload": true}, "skills/other"]}"#;
    write(dir.path(), "p.pack.json", pack);
    let scenario = "id: t/skills\nruntime: promptkit\npack: p.pack.json\nprompt: chat\nllm:\n  - reply: {text: hi}\nturns:\n  - user: hello\nexpect:\n  outcome: completed\n";
    let (code, out) = run_one(dir.path(), scenario);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("!! skills at `skills/refunds` are preloaded: PromptKit activates them as the conversation opens"), "{out}");
    assert!(!out.contains("skills/other"), "a path skill without preload is a note, not a warning: {out}");
}
