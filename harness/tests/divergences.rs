//! Every wire-fidelity divergence a profile encodes is observed on the wire
//! (or in the checks it changes) by a test here. The bytes are recorded with
//! `tee` in front of the mock plugin, so they are exactly what a plugin
//! receives, not what proctor thinks it sends.

mod common;

use std::path::Path;

use common::{certify_json, proctor, results};
use proctor_conformance::protocol::DIVERGENCES;

/// Certifies a `tee`-recorded mock plugin under one profile; returns every
/// request or stream the plugin received, in order, and the report.
fn recorded(protocol: &str, role: Option<&str>, profile: &str, mock_flags: &[&str]) -> (Vec<String>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    // One process at a time: the streams are told apart by when they started.
    let mut certify = vec!["--protocol", protocol, "--profile", profile, "--jobs", "1"];
    let mut mock = format!("--protocol {protocol}");
    if let Some(role) = role {
        certify.extend(["--role", role]);
        mock.push_str(&format!(" --role {role}"));
    }
    for f in mock_flags {
        mock.push(' ');
        mock.push_str(f);
    }
    let script = format!("f=\"$0/$(date +%s%N)\"; tee \"$f\" | exec \"$1\" mock-plugin {mock}");
    let plugin = vec!["sh".to_string(), "-c".into(), script, dir.path().display().to_string(), proctor().to_string()];
    let (_, report, _) = certify_json(&certify, &plugin);
    (read_all(dir.path()), report)
}

fn read_all(dir: &Path) -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    files.iter().map(|f| String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned()).collect()
}

/// Runs an inline scenario under `profile` with the reference pipeline.
fn simulate(yaml: &str, profile: &str) -> proctor::runner::RunResult {
    let text = format!("{yaml}\nprofile: {profile}\n");
    let scenario = proctor::scenario::parse(&text, Path::new("inline.yaml")).expect("inline scenario");
    let env = proctor::context::RunEnv { root: common::repo_root(), mock_program: proctor().into(), record_dir: None };
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(proctor::runner::run(&scenario, &env))
}

const PENDING_TOOL: &str = "id: d/pending\nruntime: promptkit\nplugins:\n  - {name: t, process: {mock: {decision: pending}}, config: {promptkit_tool: {}}}\nllm:\n  - reply: {tool_calls: [{name: t}]}\n  - reply: {text: done}\nturns:\n  - user: go";

fn check_ids(report: &serde_json::Value, profile: &str) -> Vec<String> {
    report["checks"].as_array().unwrap().iter().filter(|c| c["profile"] == profile).map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

/// `proctor mock-plugin --script` with `script` written to a file in `dir`.
fn scripted(dir: &Path, protocol: &str, role: Option<&str>, script: &str) -> Vec<String> {
    let path = dir.join("script.json");
    std::fs::write(&path, script).unwrap();
    let mut plugin = vec![proctor().to_string(), "mock-plugin".into(), "--protocol".into(), protocol.into()];
    if let Some(role) = role {
        plugin.extend(["--role".into(), role.into()]);
    }
    plugin.extend(["--script".into(), path.display().to_string()]);
    plugin
}

/// The statuses of `check` under `profile`, as JSON text (`"pass"`).
fn statuses(report: &serde_json::Value, check: &str, profile: &str) -> Vec<String> {
    results(report, check).iter().filter(|c| c["profile"] == profile).map(|c| c["status"].to_string()).collect()
}

fn observe(id: &str) {
    match id {
        "promptkit.hook-payload-pascal-case" => {
            let (pk, _) = recorded("promptkit-exec", Some("tool-hook"), "promptkit@86d9f36", &[]);
            let (doc, _) = recorded("promptkit-exec", Some("tool-hook"), "documented", &[]);
            assert!(pk[0].contains(r#""request":{"Name":"db_query","Args":"#) && pk[0].contains(r#""CallID":"#), "{}", pk[0]);
            assert!(doc[0].contains(r#""request":{"name":"db_query","args":"#), "{}", doc[0]);
        }
        "promptkit.oneshot-no-trailing-newline" => {
            let (pk, _) = recorded("promptkit-exec", Some("tool"), "promptkit@86d9f36", &[]);
            let (doc, _) = recorded("promptkit-exec", Some("tool"), "documented", &[]);
            assert!(!pk[0].ends_with('\n') && doc[0].ends_with('\n'), "{:?} / {:?}", pk[0], doc[0]);
        }
        "promptkit.go-html-escaping" => {
            let (pk, _) = recorded("promptkit-exec", Some("eval"), "promptkit@86d9f36", &[]);
            let (doc, _) = recorded("promptkit-exec", Some("eval"), "documented", &[]);
            assert!(pk[0].contains(r"\u003corder #42\u003e \u0026 more") && !pk[0].contains('<'), "{}", pk[0]);
            assert!(doc[0].contains("<order #42> & more"), "{}", doc[0]);
        }
        "promptkit.eval-context-omits-empty" => {
            let (pk, _) = recorded("promptkit-exec", Some("eval"), "promptkit@86d9f36", &[]);
            let (doc, _) = recorded("promptkit-exec", Some("eval"), "documented", &[]);
            assert!(!pk[0].contains("tool_calls") && pk[0].contains(r#""turn_index":1"#), "{}", pk[0]);
            assert!(doc[0].contains(r#""tool_calls":[]"#) && doc[0].contains(r#""variables":{}"#), "{}", doc[0]);
        }
        "promptkit.eval-hook-no-passed" => {
            let (pk, _) = recorded("promptkit-exec", Some("eval-hook"), "promptkit@86d9f36", &[]);
            let (doc, _) = recorded("promptkit-exec", Some("eval-hook"), "documented", &[]);
            assert!(!pk[0].contains("passed") && doc[0].contains(r#""passed":true"#), "{} / {}", pk[0], doc[0]);
        }
        "promptkit.session-hook-stdout-ignored" => {
            let (_, pk) = recorded("promptkit-exec", Some("session-hook"), "promptkit@86d9f36", &["--fault", "no-ack"]);
            let (_, doc) = recorded("promptkit-exec", Some("session-hook"), "documented", &["--fault", "no-ack"]);
            assert!(!check_ids(&pk, "promptkit@86d9f36").contains(&"HOOK-OBSERVE-ACK".to_string()));
            assert!(results(&doc, "HOOK-OBSERVE-ACK").iter().all(|c| c["status"] == "warn"));
            assert_eq!(pk["verdict"], "conformant");
        }
        "promptkit.server-request-field-order" => {
            let (pk, _) = recorded("promptkit-server", None, "promptkit@86d9f36", &[]);
            let (doc, _) = recorded("promptkit-server", None, "documented", &[]);
            let first = pk[0].lines().next().unwrap();
            assert!(
                first.starts_with(r#"{"jsonrpc":"2.0","method":"execute","params":{"args":"#) && first.ends_with(r#","id":1}"#),
                "{first}"
            );
            assert!(doc[0].starts_with(r#"{"jsonrpc":"2.0","id":1,"method":"execute""#), "{}", doc[0]);
        }
        "promptkit.server-line-limit-10mib" => {
            let (_, pk) = recorded("promptkit-server", None, "promptkit@86d9f36", &["--fault", "huge-line"]);
            let (_, doc) = recorded("promptkit-server", None, "documented", &[]);
            assert!(results(&pk, "FRAMING-LINE-SIZE").iter().all(|c| c["status"] == "pass"), "1.5 MiB fits in 10 MiB");
            assert!(!results(&pk, "FRAMING-LINE-SIZE").is_empty());
            assert!(results(&doc, "FRAMING-LINE-SIZE").is_empty(), "the documents set no limit");
        }
        "promptkit.selector-payload-go-names" => {
            let (rt, _) = recorded("promptkit-exec", Some("selector"), "promptkit@86d9f36", &[]);
            let (doc, _) = recorded("promptkit-exec", Some("selector"), "documented", &[]);
            assert!(rt[0].starts_with(r#"{"query":{"Text":"I need a flight to Paris","Kind":"skill","PackID":"travel-pack","AgentID":"planner","K":2},"candidates":[{"ID":"book_flight""#), "{}", rt[0]);
            assert!(doc[0].starts_with(r#"{"query":{"text":"I need a flight to Paris""#), "{}", doc[0]);
        }
        "promptkit.exec-tool-env-only-listed" => {
            // A tool that reads HOME, certified with an `env:` list (tests/environment.rs has the rest).
            let clock = ["sh".to_string(), "examples/broken/home_clock_tool.sh".into()];
            let (_, report, _) =
                common::certify_json(&["--protocol", "promptkit-exec", "--role", "tool", "--env", "CLOCK_FORMAT=iso"], &clock);
            assert_eq!(report["profile_verdicts"]["documented"], "conformant", "{}", common::problems(&report));
            assert_eq!(report["profile_verdicts"]["promptkit@86d9f36"], "nonconformant");
        }
        "promptkit.server-one-line-per-call" => {
            // Each reply written twice: PromptKit takes the copy as the next call's reply.
            let (_, pk) = recorded("promptkit-server", None, "promptkit@86d9f36", &["--fault", "duplicate-id"]);
            let (_, doc) = recorded("promptkit-server", None, "documented", &["--fault", "duplicate-id"]);
            assert!(results(&pk, "JSONRPC-ID-ECHO").iter().any(|c| c["status"] == "fail"), "{}", common::problems(&pk));
            assert!(results(&pk, "JSONRPC-NO-DUPLICATE-REPLY").is_empty(), "PromptKit cannot tell a copy from a reply");
            assert!(results(&doc, "JSONRPC-ID-ECHO").iter().all(|c| c["status"] == "pass"), "{}", common::problems(&doc));
            assert!(results(&doc, "JSONRPC-NO-DUPLICATE-REPLY").iter().any(|c| c["status"] == "fail"));
        }
        "picoclaw.runtime-event-notification" => {
            let (rt, _) = recorded("picoclaw-hook", None, "picoclaw@cf67dd3", &[]);
            let (doc, _) = recorded("picoclaw-hook", None, "documented", &[]);
            assert!(rt[0].contains(r#""method":"hook.runtime_event","params":{"id":"evt-1","kind":"agent.tool.exec_start""#), "{}", rt[0]);
            assert!(doc[0].contains(r#""method":"hook.event","params":{"Kind":"tool_exec_start""#), "{}", doc[0]);
        }
        "picoclaw.go-html-escaping" => {
            let (rt, _) = recorded("picoclaw-hook", None, "picoclaw@cf67dd3", &[]);
            assert!(rt[0].contains(r"list the files \u003chere\u003e \u0026 there"), "{}", rt[0]);
        }
        "picoclaw.no-channel-chat-id" => {
            let (rt, _) = recorded("picoclaw-hook", None, "picoclaw@cf67dd3", &[]);
            let (doc, _) = recorded("picoclaw-hook", None, "documented", &[]);
            assert!(!rt[0].contains("chat_id") && rt[0].contains(r#""TracePath":"turn.tool.before","Source":"runTurn""#), "{}", rt[0]);
            assert!(doc[0].contains(r#""channel":"cli","chat_id":"chat-1""#), "{}", doc[0]);
        }
        "picoclaw.after-llm-tool-calls-bare" => {
            let (rt, _) = recorded("picoclaw-hook", None, "picoclaw@cf67dd3", &[]);
            let after = rt[0].lines().find(|l| l.contains("hook.after_llm")).unwrap();
            assert!(after.contains(r#""tool_calls":[{"id":"tc-1"}]"#), "{after}");
        }
        "picoclaw.nested-after-modify" => {
            let (_, rt) = recorded("picoclaw-hook", None, "picoclaw@cf67dd3", &["--decision", "modify", "--fault", "modify-flat"]);
            let (_, doc) = recorded("picoclaw-hook", None, "documented", &["--decision", "modify", "--fault", "modify-flat"]);
            assert!(results(&rt, "PICOCLAW-MODIFY-PAYLOAD").iter().any(|c| c["status"] == "fail"));
            let (_, rt_ok) = recorded("picoclaw-hook", None, "picoclaw@cf67dd3", &["--decision", "modify"]);
            assert!(results(&rt_ok, "PICOCLAW-MODIFY-PAYLOAD").iter().all(|c| c["status"] == "pass"));
            // A flat after_tool payload is fine by the document; the flat
            // before_tool call (no tool name) fails under both.
            let doc_msgs: Vec<_> = results(&doc, "PICOCLAW-MODIFY-PAYLOAD").iter().map(|c| c["message"].to_string()).collect();
            assert!(doc_msgs.iter().all(|m| !m.contains("result.result")), "{doc_msgs:?}");
        }
        "picoclaw.line-limit-1mib" => {
            let (_, rt) = recorded("picoclaw-hook", None, "picoclaw@cf67dd3", &["--fault", "huge-line"]);
            let (_, doc) = recorded("picoclaw-hook", None, "documented", &["--fault", "huge-line"]);
            assert!(results(&rt, "FRAMING-LINE-SIZE").iter().any(|c| c["status"] == "fail"));
            assert!(results(&doc, "FRAMING-LINE-SIZE").is_empty());
        }
        "runok.request-no-trailing-newline" => {
            let (rt, _) = recorded("runok-extension", None, "runok@0.3.1", &[]);
            let (doc, _) = recorded("runok-extension", None, "documented", &[]);
            assert!(!rt[0].ends_with('\n') && doc[0].ends_with('\n'));
        }
        "runok.request-keys-sorted" => {
            let (rt, _) = recorded("runok-extension", None, "runok@0.3.1", &[]);
            assert!(rt[0].starts_with(r#"{"id":1,"jsonrpc":"2.0","method":"validateCommand","params":{"args":["#), "{}", rt[0]);
        }
        "promptkit.pending-ignored" => {
            let rt = simulate(PENDING_TOOL, "promptkit@86d9f36");
            let doc = simulate(PENDING_TOOL, "documented");
            assert_eq!(rt.summary.outcome.as_deref(), Some("completed"));
            assert!(rt.summary.tool_results[0].content.contains("\"pending\""), "{:?}", rt.summary.tool_results);
            assert_eq!(doc.summary.outcome.as_deref(), Some("paused"), "{:?}", doc.problems);
        }
        "promptkit.tool-document-is-the-result" => {
            // `{}`: under PromptKit a result (a warning for its shape), under the documents no decision at all.
            let (_, pk) = recorded("promptkit-exec", Some("tool"), "promptkit@86d9f36", &["--fault", "tool-empty"]);
            let (_, doc) = recorded("promptkit-exec", Some("tool"), "documented", &["--fault", "tool-empty"]);
            assert_eq!(pk["verdict"], "conformant", "{pk:#}");
            assert!(results(&pk, "TOOL-RESPONSE-SHAPE").iter().all(|c| c["status"] == "warn"), "{pk:#}");
            assert_eq!(doc["verdict"], "nonconformant");
        }
        "promptkit.server-never-restarted" => {
            let yaml = "id: d/server\nruntime: promptkit\nplugins:\n  - {name: kv, process: {mock: {faults: [crash-after], crash_after: 1}}, config: {promptkit_tool: {runtime: server}}}\nllm:\n  - reply: {tool_calls: [{name: kv, arguments: {n: 1}}]}\n  - reply: {tool_calls: [{name: kv, arguments: {n: 2}}]}\n  - reply: {tool_calls: [{name: kv, arguments: {n: 3}}]}\n  - reply: {text: done}\nturns:\n  - user: go";
            // (different arguments each time: PromptKit does not run a third identical call at all)
            let errors = |r: proctor::runner::RunResult| r.summary.tool_results.iter().map(|t| t.is_error).collect::<Vec<_>>();
            assert_eq!(errors(simulate(yaml, "promptkit@86d9f36")), [false, true, true]);
            assert_eq!(errors(simulate(yaml, "documented")), [false, true, false]);
        }
        "promptkit.denial-hook-name-constant" => {
            let yaml = "id: d/deny\nruntime: promptkit\nplugins:\n  - {name: guard, process: {mock: {decision: deny}}, config: {promptkit_hook: {hook: provider, phases: [before_call]}}}\nturns:\n  - user: go";
            assert_eq!(simulate(yaml, "promptkit@86d9f36").summary.denials[0].hook, "provider_hook");
            assert_eq!(simulate(yaml, "documented").summary.denials[0].hook, "guard");
        }
        "promptkit.after-execution-ignored" => {
            let yaml = "id: d/after\nruntime: promptkit\nplugins:\n  - {name: guard, process: {mock: {decision: deny}}, config: {promptkit_hook: {hook: tool, phases: [after_execution]}}}\ntools:\n  t: {result: ok}\nllm:\n  - reply: {tool_calls: [{name: t}]}\n  - reply: {text: done}\nturns:\n  - user: go";
            assert!(!simulate(yaml, "promptkit@86d9f36").summary.tool_results[0].is_error);
            assert!(simulate(yaml, "documented").summary.tool_results[0].content.contains("blocked by hook"));
        }
        "promptkit.identical-calls-stopped" => {
            // The third identical call is answered, not run; the fourth fails the turn.
            let call = "  - reply: {tool_calls: [{name: t, arguments: {q: 1, r: 2}}]}\n";
            let yaml = format!(
                "id: d/repeats\nruntime: promptkit\ntools:\n  t: {{result: ok}}\nllm:\n{call}{call}  - reply: {{tool_calls: [{{name: t, arguments: {{r: 2, q: 1}}}}]}}\n{call}  - reply: {{text: done}}\nturns:\n  - user: go"
            );
            let pk = simulate(&yaml, "promptkit@86d9f36");
            let results: Vec<&str> = pk.summary.tool_results.iter().map(|r| r.content.as_str()).collect();
            assert_eq!(results.len(), 3, "{results:?}");
            assert_eq!(&results[..2], ["ok", "ok"]);
            assert!(results[2].starts_with("Repeated call ignored: \"t\" has been called 3 times"), "{results:?}");
            assert_eq!(pk.summary.outcome.as_deref(), Some("error"));
            assert!(pk.runtime_errors().any(|e| e.contains("tool loop persisted after a self-correction nudge: \"t\"")));
            let doc = simulate(&yaml, "documented");
            assert_eq!(doc.summary.tool_results.iter().filter(|r| r.content == "ok").count(), 4);
            assert_eq!(doc.summary.outcome.as_deref(), Some("completed"));
        }
        "promptkit.failing-tool-withdrawn" => {
            // Two failing results of `t` in one turn: PromptKit stops offering it (a third call still runs).
            let yaml = "id: d/withdrawn\nruntime: promptkit\ntools:\n  t: {error: down}\nllm:\n  - reply: {tool_calls: [{name: t, arguments: {n: 1}}]}\n  - reply: {tool_calls: [{name: t, arguments: {n: 2}}]}\n  - reply: {text: done}\nturns:\n  - user: go";
            let withdrawn = |r: proctor::runner::RunResult| {
                r.transcript
                    .entries
                    .iter()
                    .filter(|e| e.body.get("tool_withdrawn").is_some())
                    .map(|e| e.body["tool_withdrawn"].to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(withdrawn(simulate(yaml, "promptkit@86d9f36")), ["\"t\""]);
            assert!(withdrawn(simulate(yaml, "documented")).is_empty());
        }
        "promptkit.failed-turn-forgotten" => {
            // The first turn fails at the provider; the second turn's request does not carry it.
            let yaml = "id: d/forgotten\nruntime: promptkit\nllm:\n  - error: {status: 500, message: down}\n  - reply: {text: back}\nturns:\n  - user: first\n  - user: second";
            let users = |r: proctor::runner::RunResult| {
                let requests: Vec<&serde_json::Value> =
                    r.transcript.entries.iter().filter(|e| e.channel == "llm" && e.kind == "request").map(|e| &e.body).collect();
                requests
                    .last()
                    .unwrap()
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|m| m["role"] == "user")
                    .map(|m| m["content"].as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(users(simulate(yaml, "promptkit@86d9f36")), ["second"]);
            assert_eq!(users(simulate(yaml, "documented")), ["first", "second"]);
        }
        "promptkit.max-sentences-never-triggers" => {
            let yaml = "id: d/sentences\nruntime: promptkit\nguardrails:\n  - max_sentences: {max: 1, message: short}\nllm:\n  - reply: {text: One. Two.}\nturns:\n  - user: go";
            assert_eq!(simulate(yaml, "promptkit@86d9f36").summary.final_text.as_deref(), Some("One. Two."));
            assert_eq!(simulate(yaml, "documented").summary.final_text.as_deref(), Some("short"));
        }
        "promptkit.go-json-replies" => {
            // `{"Allow": true}`: Go matches keys case-insensitively, so PromptKit allows.
            let dir = tempfile::tempdir().unwrap();
            let plugin = scripted(dir.path(), "promptkit-exec", Some("tool-hook"), r#"{"stdout": "{\"Allow\": true}"}"#);
            let cases = dir.path().join("cases.yaml");
            std::fs::write(&cases, "cases:\n  - name: allowed\n    phase: before_execution\n    expect: {decision: allow}\n").unwrap();
            let cases = cases.display().to_string();
            let flags = ["--protocol", "promptkit-exec", "--role", "tool-hook", "--cases", cases.as_str()];
            let (_, report, _) = certify_json(&flags, &plugin);
            assert_eq!(report["profile_verdicts"]["promptkit@86d9f36"], "conformant", "{report:#}");
            assert_eq!(report["profile_verdicts"]["documented"], "nonconformant", "{report:#}");
        }
        "picoclaw.go-json-replies" => {
            // `{"Approved": true}` approves in PicoClaw (case-insensitive keys); the documents need `approved`.
            let dir = tempfile::tempdir().unwrap();
            let reply = |r: &str| format!(r#"{{"write": "{{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{r}}}\n"}}"#);
            let text = format!(
                r#"{{"on": {{"hook.hello": {}, "hook.approve_tool": {}, "*": {}}}}}"#,
                reply("{}"),
                reply(r#"{\"Approved\":true}"#),
                r#"{"write": "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"error\":{\"code\":-32601,\"message\":\"no\"}}\n"}"#
            );
            let plugin = scripted(dir.path(), "picoclaw-hook", None, &text);
            let (_, report, _) = certify_json(&["--protocol", "picoclaw-hook", "--role", "approve"], &plugin);
            let approve = |profile: &str| statuses(&report, "PICOCLAW-APPROVE-BOOLEAN", profile);
            assert!(approve("documented").iter().any(|s| s == "\"fail\""), "{report:#}");
            assert!(approve("picoclaw@cf67dd3").iter().all(|s| s == "\"pass\""), "{report:#}");
        }
        "picoclaw.before-llm-system-messages-kept" => {
            // A before_llm modify without the request's system message: PicoClaw restores every message.
            let dir = tempfile::tempdir().unwrap();
            let text = r#"{"on": {"hook.hello": {"write": "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{}}\n"}, "hook.before_llm": {"write": "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"action\":\"modify\",\"request\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}}}\n"}, "*": {"write": "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"action\":\"continue\"}}\n"}}}"#;
            let plugin = scripted(dir.path(), "picoclaw-hook", None, text);
            let (_, report, _) = certify_json(&["--protocol", "picoclaw-hook", "--role", "llm"], &plugin);
            let payload = |profile: &str| statuses(&report, "PICOCLAW-MODIFY-PAYLOAD", profile);
            assert!(payload("picoclaw@cf67dd3").iter().any(|s| s == "\"fail\""), "{report:#}");
            assert!(payload("documented").iter().all(|s| s == "\"pass\""), "{report:#}");
        }
        "runok.serde-json-replies" => {
            // `status` twice: serde fails the whole reply, so runok asks; the documents read the last one.
            let dir = tempfile::tempdir().unwrap();
            let twice = r#"{"stdout": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"deny\",\"status\":\"deny\"}}"}"#;
            let plugin = scripted(dir.path(), "runok-extension", None, twice);
            let (_, report, _) = certify_json(&["--protocol", "runok-extension"], &plugin);
            assert_eq!(report["profile_verdicts"]["runok@0.3.1"], "nonconformant", "{report:#}");
            assert!(statuses(&report, "RUNOK-DECODE", "runok@0.3.1").iter().any(|s| s == "\"fail\""), "{report:#}");
            assert_eq!(report["profile_verdicts"]["documented"], "conformant", "{report:#}");
            // `"error": null` beside a result: serde reads an absent error, and runok uses the result.
            let null_error = r#"{"stdout": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"allow\"},\"error\":null}"}"#;
            let plugin = scripted(dir.path(), "runok-extension", None, null_error);
            let (_, report, _) = certify_json(&["--protocol", "runok-extension"], &plugin);
            assert!(statuses(&report, "JSONRPC-RESULT-XOR-ERROR", "runok@0.3.1").iter().all(|s| s == "\"pass\""), "{report:#}");
            assert!(statuses(&report, "JSONRPC-RESULT-XOR-ERROR", "documented").iter().any(|s| s == "\"fail\""), "{report:#}");
        }
        "claude-code.json-when-braced" => {
            // Two JSON lines with no output field: plain text to Claude Code, broken JSON to the reference.
            let report = agent_hook("claude-code-hook", "PreToolUse", r#"printf '{"a":1}\n{"b":2}\n'"#);
            assert!(statuses(&report, "AGENT-HOOK-STDOUT-JSON", "claude-code@2.1.332").iter().all(|s| s == "\"pass\""), "{report:#}");
            assert!(statuses(&report, "AGENT-HOOK-STDOUT-JSON", "documented").iter().any(|s| s == "\"fail\""), "{report:#}");
        }
        "claude-code.event-fields" => {
            let sent = agent_hook_stdin("claude-code-hook", "PostToolUse");
            let (documented, release) = (&sent["documented"], &sent["claude-code@2.1.332"]);
            assert!(release.ends_with('\n') && !documented.ends_with('\n'), "{sent:?}");
            assert!(release.contains("\"prompt_id\"") && release.contains("\"isImage\":false"), "{release}");
            assert!(!documented.contains("\"prompt_id\""), "{documented}");
        }
        "codex.shell-as-bash" => {
            let sent = agent_hook_stdin("codex-hook", "PostToolUse");
            assert!(sent["codex@0.171.0"].contains("\"tool_input\":{\"command\":\"ls -la\"}"), "{sent:?}");
            assert!(sent["codex@0.171.0"].contains("\"tool_response\":\"a.txt\\nb.txt\\n\""), "{sent:?}");
            assert!(sent["documented"].contains("\"description\""), "{sent:?}");
        }
        "codex.exit2-without-stderr-fails-open" => {
            // exit 2 with the reason on stdout: Codex runs the call, so a case expecting the block fails there only.
            let cases = "cases:\n  - name: blocked\n    expect: {decision: block}\n";
            let report = agent_hook_with_cases("codex-hook", "PreToolUse", "echo no; exit 2", cases);
            assert!(statuses(&report, "CASE-DECISION", "codex@0.171.0").iter().any(|s| s == "\"fail\""), "{report:#}");
            assert!(statuses(&report, "CASE-DECISION", "documented").iter().all(|s| s == "\"pass\""), "{report:#}");
        }
        "codex.json-when-brace-or-bracket" => {
            let report = agent_hook("codex-hook", "PreToolUse", "echo '[1]'");
            assert!(statuses(&report, "AGENT-HOOK-STDOUT-JSON", "codex@0.171.0").iter().any(|s| s == "\"fail\""), "{report:#}");
            assert!(statuses(&report, "AGENT-HOOK-STDOUT-JSON", "documented").iter().all(|s| s == "\"pass\""), "{report:#}");
        }
        "codex.event-name-not-compared" => {
            let wrong = r#"echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'"#;
            let report = agent_hook("codex-hook", "PreToolUse", wrong);
            assert!(statuses(&report, "AGENT-HOOK-EVENT-NAME", "codex@0.171.0").iter().all(|s| s == "\"pass\""), "{report:#}");
            assert!(statuses(&report, "AGENT-HOOK-EVENT-NAME", "documented").iter().any(|s| s == "\"fail\""), "{report:#}");
        }
        other => panic!("divergence {other} has no wire test: add one to harness/tests/divergences.rs"),
    }
}

/// Certifies a command hook written as sh (after it has read its stdin) for `event`.
fn agent_hook(protocol: &str, event: &str, script: &str) -> serde_json::Value {
    agent_hook_with_cases(protocol, event, script, "")
}

fn agent_hook_with_cases(protocol: &str, event: &str, script: &str, cases: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let hook = dir.path().join("hook.sh");
    std::fs::write(&hook, format!("cat >/dev/null\n{script}\n")).unwrap();
    let mut flags = vec!["--protocol".to_string(), protocol.into(), "--role".into(), event.into()];
    if !cases.is_empty() {
        let file = dir.path().join("cases.yaml");
        std::fs::write(&file, cases).unwrap();
        flags.extend(["--cases".into(), file.display().to_string()]);
    }
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    certify_json(&flags, &["sh".to_string(), hook.display().to_string()]).1
}

/// The first document a hook for `event` gets under each profile, as it arrived on stdin.
fn agent_hook_stdin(protocol: &str, event: &str) -> std::collections::BTreeMap<String, String> {
    let mut sent = std::collections::BTreeMap::new();
    let profile = if protocol == "codex-hook" { "codex@0.171.0" } else { "claude-code@2.1.332" };
    for p in ["documented", profile] {
        let dir = tempfile::tempdir().unwrap();
        let script = "cat > \"$0/$(date +%s%N)\"".to_string();
        let plugin = vec!["sh".to_string(), "-c".into(), script, dir.path().display().to_string()];
        certify_json(&["--protocol", protocol, "--role", event, "--profile", p, "--jobs", "1"], &plugin);
        sent.insert(p.to_string(), read_all(dir.path()).into_iter().next().unwrap_or_default());
    }
    sent
}

#[test]
fn every_divergence_is_observed_on_the_wire() {
    for d in DIVERGENCES {
        observe(d.id);
    }
}
