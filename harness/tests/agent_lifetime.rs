//! Command hooks in the world each agent gives them, as hook authors write
//! them: children left running, a working folder, a transcript, per-session
//! state, and the text the model gets. What each agent does was measured with
//! interop/agents (Claude Code 2.1.332, Codex 0.171.0).

mod common;

use std::io::Write;

use common::{certify_json, problems, results};
use serde_json::Value;

const CLAUDE: &str = "claude-code@2.1.332";
const CODEX: &str = "codex@0.171.0";

fn hook(body: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".sh").tempfile().expect("temp hook");
    f.write_all(body.as_bytes()).expect("write hook");
    f
}

fn cases(yaml: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".yaml").tempfile().expect("temp cases");
    f.write_all(yaml.as_bytes()).expect("write cases");
    f
}

fn certify(protocol: &str, event: &str, hook: &tempfile::NamedTempFile, cases: &tempfile::NamedTempFile, extra: &[&str]) -> Value {
    let path = cases.path().display().to_string();
    let mut flags = vec!["--protocol", protocol, "--role", event, "--cases", path.as_str()];
    flags.extend(extra);
    let (_, report, _) = certify_json(&flags, &["sh".to_string(), hook.path().display().to_string()]);
    report
}

fn status(report: &Value, check: &str, profile: &str) -> String {
    results(report, check)
        .iter()
        .find(|c| c["profile"] == profile && c["case"].is_null())
        .map_or("missing".into(), |c| c["status"].as_str().unwrap_or("").to_string())
}

fn case(report: &Value, profile: &str) -> Value {
    results(report, "CASE-DECISION").into_iter().find(|c| c["profile"] == profile && !c["case"].is_null()).cloned().unwrap_or_default()
}

const BLOCK_RM: &str = "cases:\n  - name: rm is blocked\n    request: {tool_name: Bash, tool_input: {command: \"rm -rf build\"}}\n    expect: {decision: block}\n";

#[test]
fn a_child_holding_stdout_loses_the_block_in_codex_and_not_in_claude_code() {
    // A guard that blocks, then starts a notifier that inherits its pipes.
    let guard = hook("cat >/dev/null\n(sleep 4) &\necho 'rm is not allowed here' >&2\nexit 2\n");
    let cases = cases(BLOCK_RM);
    // Codex waits for stdout and stderr to close, up to the hook's timeout: the block is lost.
    let report = certify("codex-hook", "PreToolUse", &guard, &cases, &["--timeout-ms", "1500", "--profile", CODEX]);
    let leftover = results(&report, "LIFECYCLE-NO-LEFTOVER").into_iter().find(|c| c["profile"] == CODEX).cloned().unwrap_or_default();
    assert_eq!(leftover["status"], "fail", "{}", problems(&report));
    assert_eq!(leftover["detail"]["failure"]["kind"], "lost", "{leftover}");
    assert!(leftover["message"].as_str().unwrap_or("").contains("Codex kills the hook"), "{leftover}");
    assert_eq!(case(&report, CODEX)["status"], "fail", "the case fails as lost, not as a decision: {}", problems(&report));
    // Claude Code takes the answer at the exit and goes on: a warning, and the block holds.
    let report = certify("claude-code-hook", "PreToolUse", &guard, &cases, &["--timeout-ms", "1500", "--profile", CLAUDE]);
    assert_eq!(status(&report, "LIFECYCLE-NO-LEFTOVER", CLAUDE), "warn", "{}", problems(&report));
    assert_eq!(case(&report, CLAUDE)["status"], "pass", "{}", problems(&report));
}

#[test]
fn a_properly_detached_notifier_is_fine_in_both_agents() {
    let guard = hook("cat >/dev/null\nsetsid sleep 3 </dev/null >/dev/null 2>&1 &\necho 'rm is not allowed here' >&2\nexit 2\n");
    let cases = cases(BLOCK_RM);
    for (protocol, profile) in [("claude-code-hook", CLAUDE), ("codex-hook", CODEX)] {
        let report = certify(protocol, "PreToolUse", &guard, &cases, &["--timeout-ms", "3000"]);
        assert_eq!(report["profile_verdicts"][profile], "conformant", "{profile}: {}", problems(&report));
        assert_eq!(status(&report, "LIFECYCLE-NO-LEFTOVER", profile), "warn", "{profile}");
        // The documents still ask a hook to leave nothing behind.
        assert_eq!(status(&report, "LIFECYCLE-NO-LEFTOVER", "documented"), "fail", "{profile}");
    }
}

/// A hook written as the agents run it: it works in the session's folder,
/// reads the transcript, needs `CLAUDE_PROJECT_DIR`, and warns once per session.
const ONCE_PER_SESSION: &str = r#"input=$(cat)
field() { printf '%s' "$input" | python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
cd "$(field cwd)" || exit 1
[ -n "$CLAUDE_PROJECT_DIR" ] || { echo "CLAUDE_PROJECT_DIR is not set" >&2; exit 1; }
[ -s "$(field transcript_path)" ] || { echo "no transcript" >&2; exit 1; }
mark="${TMPDIR:-/tmp}/proctor-test-once-$(field session_id)"
[ -e "$mark" ] && exit 0
touch "$mark"
echo "first command of this session: review it" >&2
exit 2
"#;

#[test]
fn a_hook_that_uses_its_folder_transcript_and_session_works_as_in_claude_code() {
    let h = hook(ONCE_PER_SESSION);
    let cases = cases(BLOCK_RM);
    let report = certify("claude-code-hook", "PreToolUse", &h, &cases, &[]);
    // Every probe and case is a session of its own, so the case still gets its first warning.
    assert_eq!(report["verdict"], "conformant", "{}", problems(&report));
    for profile in ["documented", CLAUDE] {
        assert_eq!(case(&report, profile)["status"], "pass", "{profile}: {}", problems(&report));
    }
}

#[test]
fn claude_code_has_no_transcript_yet_when_the_first_prompt_is_submitted() {
    let reader = hook(
        "input=$(cat)\ntp=$(printf '%s' \"$input\" | python3 -c \"import json,sys; print(json.load(sys.stdin)['transcript_path'])\")\ncat \"$tp\" >/dev/null || exit 1\nexit 0\n",
    );
    let cases = cases("cases:\n  - name: a prompt goes through\n    request: {prompt: hello}\n    expect: {decision: proceed}\n");
    let report = certify("claude-code-hook", "UserPromptSubmit", &reader, &cases, &[]);
    assert_eq!(report["profile_verdicts"]["documented"], "conformant", "{}", problems(&report));
    assert_eq!(report["profile_verdicts"][CLAUDE], "nonconformant", "{}", problems(&report));
    assert_eq!(status(&report, "AGENT-HOOK-EXIT-STATUS", CLAUDE), "fail");
}

#[test]
fn a_case_says_what_the_model_is_told() {
    let want = "cases:\n  - name: the model is reminded\n    request: {tool_name: Bash, tool_input: {command: ls}}\n    expect: {context: \"run the tests\"}\n";
    let reminded = cases(want);
    let plain = hook("cat >/dev/null\necho 'REMEMBER: run the tests'\n");
    let report = certify("claude-code-hook", "PostToolUse", &plain, &reminded, &["--profile", CLAUDE]);
    let c = case(&report, CLAUDE);
    assert_eq!(c["status"], "fail", "{}", problems(&report));
    assert!(c["message"].as_str().unwrap_or("").contains("drops plain stdout on PostToolUse"), "{c}");
    let structured = hook(
        "cat >/dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"REMEMBER: run the tests\"}}'\n",
    );
    let report = certify("claude-code-hook", "PostToolUse", &structured, &reminded, &["--profile", CLAUDE]);
    assert_eq!(case(&report, CLAUDE)["status"], "pass", "{}", problems(&report));

    let reason = cases(
        "cases:\n  - name: rm is refused with its reason\n    request: {tool_name: Bash, tool_input: {command: \"rm -rf /\"}}\n    expect: {decision: block, reason: \"never rm\"}\n",
    );
    let guard = hook("cat >/dev/null\necho 'never rm the root' >&2\nexit 2\n");
    let report = certify("codex-hook", "PreToolUse", &guard, &reason, &["--profile", CODEX]);
    assert_eq!(case(&report, CODEX)["status"], "pass", "{}", problems(&report));
    let mute = hook("cat >/dev/null\necho '{\"decision\":\"block\",\"reason\":\"no\"}'\n");
    let report = certify("codex-hook", "PreToolUse", &mute, &reason, &["--profile", CODEX]);
    assert_eq!(case(&report, CODEX)["status"], "fail", "a block whose reason lacks the words: {}", problems(&report));
}
