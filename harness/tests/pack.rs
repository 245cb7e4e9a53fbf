//! `proctor pack check` and `proctor pack render` as a user runs them: exit codes, the JSON report's
//! shape, bad input as exit 2 with its location, and PromptKit's silent fallbacks shown loudly.

mod common;

use std::process::Command;

use common::{proctor, repo_root};
use serde_json::Value;

const EXAMPLE: &str = "examples/promptpack/support.pack.json";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(proctor()).current_dir(repo_root()).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn the_example_pack_is_valid_as_documented_but_promptkit_cannot_run_its_workflow_nor_promptpack_python_load_it() {
    let (code, out, err) = run(&["pack", "check", "--format", "json", EXAMPLE]);
    assert_eq!(code, 1, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let packs = report["packs"].as_array().unwrap();
    let profiles: Vec<&str> = packs.iter().map(|p| p["profile"].as_str().unwrap()).collect();
    assert_eq!(profiles, ["documented", "promptkit@86d9f36", "promptpack-python@c78e36b"]);
    assert!(packs[0]["valid"] == true && packs[0]["diagnostics"] == serde_json::json!([]), "{out}");
    // Every workflow state's prompt requires the host's `company`, which PromptKit never passes there.
    assert_eq!(packs[1]["valid"], false, "{out}");
    let promptkit: Vec<(&str, &str)> = packs[1]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["severity"].as_str().unwrap(), d["rule"].as_str().unwrap()))
        .collect();
    assert!(promptkit.contains(&("error", "WORKFLOW-PROMPTKIT-HOST-VARIABLE")), "{out}");
    assert!(promptkit.iter().all(|(_, rule)| *rule == "WORKFLOW-PROMPTKIT-HOST-VARIABLE"), "{out}");
    // promptpack-python's models have no evals or workflow: those three fields, and nothing else.
    let python: Vec<(&str, &str)> =
        packs[2]["diagnostics"].as_array().unwrap().iter().map(|d| (d["rule"].as_str().unwrap(), d["path"].as_str().unwrap())).collect();
    assert_eq!(
        python,
        [("PACK-PYTHON-MODEL", "/prompts/resolve/evals"), ("PACK-PYTHON-MODEL", "/evals"), ("PACK-PYTHON-MODEL", "/workflow")]
    );
    let (code, out, _) = run(&["pack", "check", "--profile", "documented", EXAMPLE]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run(&["pack", "check", "--profile", "documented", "--profile", "promptkit", EXAMPLE]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn a_pack_invalid_under_promptkit_only_exits_1_with_every_field_of_the_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(repo_root().join(EXAMPLE)).unwrap().replacen("\"type\": \"banned_words\"", "\"type\": \"regex_match\"", 1);
    let pack = write(&dir, "p.pack.json", &text);
    let (code, out, _) = run(&["pack", "check", "--format", "json", "--profile", "documented", "--profile", "promptkit", &pack]);
    assert_eq!(code, 1, "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let packs = report["packs"].as_array().unwrap();
    assert_eq!(packs.iter().map(|p| p["valid"].as_bool().unwrap()).collect::<Vec<_>>(), [true, false]);
    let d = &packs[1]["diagnostics"][0];
    let line = text.lines().position(|l| l.contains("regex_match")).unwrap() + 1;
    assert_eq!(d["path"], "/prompts/triage/validators/0/type");
    assert_eq!(
        (d["line"].as_u64(), d["severity"].as_str(), d["rule"].as_str()),
        (Some(line as u64), Some("error"), Some("PACK-PROMPTKIT-VALIDATOR-TYPE"))
    );
    assert!(d["column"].as_u64().unwrap() > 1 && !d["message"].as_str().unwrap().is_empty() && !d["fix"].as_str().unwrap().is_empty());

    // one profile only: the documented verdict alone is valid
    let (code, out, _) = run(&["pack", "check", "--profile", "documented", &pack]);
    assert_eq!(code, 0, "{out}");
    // text: file:line:column, severity, rule, pointer and fix
    let (_, out, _) = run(&["pack", "check", "--profile", "promptkit", &pack]);
    assert!(
        out.contains(&format!("{pack}:{line}:")) && out.contains("error[PACK-PROMPTKIT-VALIDATOR-TYPE]") && out.contains("fix: "),
        "{out}"
    );
    assert!(out.contains("INVALID"), "{out}");
}

#[test]
fn unreadable_packs_are_exit_2_with_their_location_and_the_rest_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let broken = write(&dir, "broken.pack.json", "{\n  \"id\": \"x\",\n  \"name\": \n}\n");
    let yaml = write(&dir, "broken.pack.yaml", "id: x\nprompts: [a\n");
    let empty = write(&dir, "empty.pack.json", "");
    let list = write(&dir, "list.json", "[1, 2]");
    let (code, out, _) = run(&["pack", "check", "--format", "json", &broken, EXAMPLE, &yaml, &empty, &list, "/nonexistent/p.json"]);
    assert_eq!(code, 2, "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let errors: Vec<&str> = report["packs"].as_array().unwrap().iter().filter_map(|p| p["error"].as_str()).collect();
    assert_eq!(errors.len(), 5, "{out}");
    assert!(errors[0].starts_with(&format!("{broken}:4:1: not valid JSON")), "{}", errors[0]);
    assert!(errors[1].starts_with(&format!("{yaml}:")), "{}", errors[1]);
    assert!(errors[2].contains("the file is empty"), "{}", errors[2]);
    assert!(errors[3].ends_with("a pack is one object at the top level, this is an array"), "{}", errors[3]);
    assert!(errors[4].contains("cannot read: No such file"), "{}", errors[4]);
    // the readable pack was still judged, under every profile
    let judged: Vec<&Value> = report["packs"].as_array().unwrap().iter().filter(|p| p["file"] == EXAMPLE).collect();
    assert_eq!(judged.iter().map(|p| p["valid"].as_bool()).collect::<Vec<_>>(), [Some(true), Some(false), Some(false)], "{out}");
}

#[test]
fn a_huge_file_is_refused_before_it_is_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(proctor_pack::source::MAX_PACK_BYTES + 1).unwrap();
    let (code, out, _) = run(&["pack", "check", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("huge.json: more than 16777216 bytes; is this the right file?"), "{out}");
}

#[test]
fn an_endless_input_is_exit_2_after_the_cap() {
    let (code, out, _) = run(&["pack", "check", "/dev/zero"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("/dev/zero: is a device, not a file"), "{out}");
}

#[test]
fn control_characters_from_a_pack_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    // An ESC sequence in a prompt key and an OSC in a tool name: both are reported, escaped.
    let pack = write(
        &dir,
        "evil.json",
        "{\"id\": \"p\", \"name\": \"p\", \"version\": \"1.0.0\", \"template_engine\": {\"version\": \"v1\", \"syntax\": \"{{variable}}\"},\n \"prompts\": {\"x\\u001b[2J\": {\"id\": \"x\", \"name\": \"x\", \"version\": \"1.0.0\", \"system_template\": \"hi\", \"tools\": [\"t\\u001b]8;;http://e\\u0007\"]}}}\n",
    );
    for args in [&["pack", "check", pack.as_str()][..], &["pack", "render", pack.as_str(), "--prompt", "x\u{1b}[2J"][..]] {
        let (_, out, err) = run(args);
        assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "raw control bytes reached stdout: {out:?}");
        assert!(out.contains("\\u{1b}") || err.contains("\\u{1b}"), "the escape is shown, not dropped: {out}{err}");
    }
}

#[test]
fn usage_mistakes_are_exit_2_naming_the_valid_values() {
    let (code, _, err) = run(&["pack", "check", "--profile", "promptkit@0.0.1", EXAMPLE]);
    assert_eq!(code, 2);
    assert!(err.contains("the pack profiles are documented, promptkit@86d9f36, promptpack-python@c78e36b"), "{err}");
    let (code, _, err) = run(&["pack", "render", EXAMPLE, "--prompt", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no prompt `nope`; its prompts are triage, resolve, escalate"), "{err}");
    let (code, _, err) = run(&["pack", "render", EXAMPLE, "--prompt", "triage", "--var", "company"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not NAME=VALUE"), "{err}");
}

#[test]
fn render_shows_the_promptkit_fallback_loudly_and_exits_1() {
    let (code, out, _) = run(&["pack", "render", EXAMPLE, "--prompt", "resolve", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let renders = report["renders"].as_array().unwrap();
    let by_profile = |name: &str| renders.iter().find(|r| r["profile"] == name).unwrap();
    let pk = by_profile("promptkit@86d9f36");
    assert_eq!((pk["outcome"].as_str(), pk["system_prompt"].as_str()), (Some("fallback"), Some("You are a helpful AI assistant.")));
    assert_eq!(pk["tools"], serde_json::json!([]));
    // the validators stay: PromptKit's SDK compiles them into hooks apart from the template load
    assert_eq!(pk["validators"][0]["type"], "max_length");
    assert!(pk["explanation"].as_str().unwrap().contains("required variable `company`"));
    assert_eq!(by_profile("documented")["outcome"], "refused");
    assert_eq!(by_profile("promptpack-python@c78e36b")["outcome"], "refused");

    // Opened alone the prompt renders; the pack is still invalid there (its workflow cannot run), and
    // render says that PromptKit fails at run time, not that it refuses the pack.
    let (code, out, _) = run(&["pack", "render", EXAMPLE, "--prompt", "resolve", "--var", "company=Acme", "--profile", "promptkit"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("PromptKit opens it and fails at run time; see `proctor pack check`"), "{out}");
    assert!(out.contains("You resolve order problems for Acme. You may refund up to 100 EUR"), "{out}");
    assert!(out.contains("--- tools offered (2) ---") && out.contains("lookup_order:") && out.contains("--- validators (1) ---"), "{out}");
}

#[test]
fn render_shows_how_each_implementation_prints_a_number_and_a_fragment() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo_root().join(EXAMPLE))
        .unwrap()
        .replacen("\"default\": 100 }", "\"default\": 1000000 }", 1)
        .replacen("without approval.", "without approval. {{fragments.tone}}", 1)
        .replacen(
            "\"tools\": {\n    \"lookup_order\"",
            "\"fragments\": { \"tone\": \"Be brief.\" },\n  \"tools\": {\n    \"lookup_order\"",
            1,
        );
    let pack = write(&dir, "p.pack.json", &text);
    let vars = write(&dir, "vars.yaml", "company: Acme\n");
    let (code, out, _) = run(&["pack", "render", &pack, "--prompt", "resolve", "--vars-file", &vars, "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let prompt = |i: usize| report["renders"][i]["system_prompt"].as_str().unwrap().to_string();
    assert!(prompt(0).contains("up to 1000000 EUR without approval. Be brief."), "documented: {}", prompt(0));
    assert_eq!(report["renders"][1]["outcome"], "raw");
    assert!(prompt(1).contains("{{company}}") && prompt(1).contains("{{fragments.tone}}"), "promptkit: {}", prompt(1));
    assert!(prompt(2).contains("up to 1000000 EUR without approval. {{fragments.tone}}"), "python: {}", prompt(2));
    // without the fragment, PromptKit prints the default as Go's %v does
    let plain = write(&dir, "q.pack.json", &text.replacen(" {{fragments.tone}}", "", 1));
    let (_, out, _) = run(&["pack", "render", &plain, "--prompt", "resolve", "--var", "company=Acme", "--profile", "promptkit"]);
    assert!(out.contains("up to 1e+06 EUR"), "{out}");
}

#[test]
fn a_folder_is_checked_pack_by_pack_and_the_summary_stays_readable() {
    let (code, out, _) = run(&["pack", "check", "examples/promptpack"]);
    assert_eq!(code, 1, "some example packs are invalid under promptpack-python: {out}");
    let packs = std::fs::read_dir(repo_root().join("examples/promptpack"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().contains(".pack."))
        .count();
    assert!(out.contains(&format!("\n{packs} pack(s) checked under documented, promptkit@86d9f36, promptpack-python@c78e36b: ")), "{out}");
    let summary = &out[out.rfind("pack(s) checked").unwrap()..];
    assert!(summary.lines().all(|l| l.len() < 200), "one line per invalid pack: {summary}");
    assert!(summary.contains("\n  INVALID examples/promptpack/"), "{summary}");

    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) = run(&["pack", "check", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no pack files under it (*.pack.json, *.pack.yaml, *.pack.yml)") && out.contains("no pack checked"), "{out}");
}

#[test]
fn render_of_an_invalid_pack_is_no_green_and_a_tools_that_is_no_list_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo_root().join(EXAMPLE)).unwrap();
    let broken = text.replacen("\"tools\": [\"lookup_order\"]", "\"tools\": \"lookup_order\"", 1);
    assert_ne!(broken, text, "the example's triage prompt names its tools as a list");
    let path = dir.path().join("broken.pack.json");
    std::fs::write(&path, broken).unwrap();
    let (code, out, _) =
        run(&["pack", "render", path.to_str().unwrap(), "--prompt", "triage", "--profile", "documented", "--var", "company=Acme"]);
    assert_eq!(code, 1, "rendered, but from a pack the spec refuses: {out}");
    assert!(out.contains("!! the pack has") && out.contains("`tools` is a string, not a list of tool names: no tool is offered"), "{out}");
}

#[test]
fn render_state_shows_what_each_round_in_a_workflow_state_gets() {
    let json = |args: &[&str]| {
        let (code, out, err) = run(args);
        let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        (code, report["renders"].as_array().unwrap().clone())
    };
    // PromptKit passes no host variable to a state's prompt: the required `company` is missing, and
    // every turn there fails with the registry's words (interop's `state` comparison runs them).
    let (code, renders) = json(&["pack", "render", EXAMPLE, "--state", "triage", "--var", "company=Acme", "--format", "json"]);
    assert_eq!(code, 1);
    let by = |profile: &str| renders.iter().find(|r| r["profile"] == profile).cloned().unwrap();
    let pk = by("promptkit@86d9f36");
    assert_eq!(
        (pk["outcome"].as_str(), pk["error"].as_str()),
        (Some("error"), Some("load prompt \"triage\" for state: missing required variables: [company]"))
    );
    assert!(pk["notes"].to_string().contains("does not pass the host's company"), "{pk}");
    let documented = by("documented");
    assert_eq!(documented["outcome"], "rendered");
    assert!(documented["system_prompt"].as_str().unwrap().contains("assistant of Acme"), "{documented}");
    // An optional host variable falls back to its default there; an artifact is filled in.
    let desk = "examples/promptpack/order-desk.pack.json";
    let (_, renders) =
        json(&["pack", "render", desk, "--state", "greet", "--var", "language=French", "--profile", "promptkit", "--format", "json"]);
    assert_eq!(renders[0]["system_prompt"], "You greet the customers of the order desk in English, then pass them on to take notes.");
    let (code, renders) = json(&[
        "pack",
        "render",
        desk,
        "--state",
        "taking_notes",
        "--var",
        "artifacts.notes=late",
        "--profile",
        "promptkit",
        "--format",
        "json",
    ]);
    assert_eq!((code, renders[0]["outcome"].as_str()), (0, Some("rendered")), "{renders:?}");
    assert_eq!(renders[0]["system_prompt"], "You keep the order desk's notes. Notes so far: late");
    // The user's mistakes: a state the workflow lacks, an artifact no state declares.
    let (code, _, err) = run(&["pack", "render", desk, "--state", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("the pack has no workflow state `nope`; its states are greet, taking_notes, closed"), "{err}");
    let (code, _, err) = run(&["pack", "render", desk, "--state", "greet", "--var", "artifacts.note=x"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `artifacts.notes`?"), "{err}");
    let (code, _, err) = run(&["pack", "render", desk]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_pack_scenarios_journal_offers_pack_tools_as_promptkit_sends_them() {
    // Under PromptKit each pack tool goes out in strict mode with its description (interop's `tools`
    // comparison holds the shape to PromptKit's OpenAI provider); the documents say nothing of the
    // wire, so under `documented` a tool is only named.
    let scenario = "scenarios/promptpack/tool-arguments-checked-first.yaml";
    for (profile, strict) in [("promptkit@86d9f36", true), ("documented", false)] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display().to_string();
        let (code, out, err) = run(&["run", "--no-progress", "--profile", profile, "--record-dir", &d, scenario]);
        assert!(code == 0 || !strict, "{out}{err}");
        let journal = std::fs::read_to_string(dir.path().join("llm.journal.jsonl")).unwrap();
        let first: Value = serde_json::from_str(journal.lines().next().unwrap()).unwrap();
        let tool = &first["body"]["tools"][0]["function"];
        assert_eq!(tool["name"], "lookup_order", "{first}");
        if strict {
            assert_eq!(tool["strict"], true, "{tool}");
            assert_eq!(tool["parameters"]["additionalProperties"], false, "{tool}");
            assert!(tool["description"].as_str().unwrap().starts_with("Look up an order"), "{tool}");
        } else {
            assert_eq!(tool.as_object().unwrap().len(), 1, "only the name: {tool}");
        }
    }
}

#[test]
fn a_tool_failing_twice_in_a_turn_is_no_longer_offered_under_promptkit() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(
        &dir,
        "s.yaml",
        "id: t/withdrawn\nruntime: promptkit\ntools:\n  t: {error: down}\n  u: {result: ok}\nllm:\n  - reply: {tool_calls: [{name: t, arguments: {n: 1}}]}\n  - reply: {tool_calls: [{name: t, arguments: {n: 2}}]}\n  - reply: {text: done}\nturns:\n  - user: go\nexpect:\n  outcome: completed\n",
    );
    for (profile, third) in [("promptkit@86d9f36", vec!["u"]), ("documented", vec!["t", "u"])] {
        let records = tempfile::tempdir().unwrap();
        let d = records.path().display().to_string();
        let (code, out, err) = run(&["run", "--no-progress", "--profile", profile, "--record-dir", &d, &scenario]);
        assert_eq!(code, 0, "{out}{err}");
        let journal = std::fs::read_to_string(records.path().join("llm.journal.jsonl")).unwrap();
        let requests: Vec<Value> = journal.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let offered = |n: usize| -> Vec<String> {
            requests[n]["body"]["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap().to_string()).collect()
        };
        assert_eq!(offered(1), ["t", "u"], "{profile}: after one failure t is still offered");
        assert_eq!(offered(2), third, "{profile}: the round after the second failure");
    }
}
