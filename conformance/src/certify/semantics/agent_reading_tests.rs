//! The readings below are what the pinned agents were seen doing (interop/agents,
//! PreToolUse unless named): each row is a hook's exit, stdout and stderr, and
//! the effect, reason and error the agent showed.

use super::*;
use crate::protocol::agent_hook::{self, Agent, HookEvent};

const CLAUDE: (Agent, Profile) = (Agent::ClaudeCode, Profile::ClaudeCode21332);
const CODEX: (Agent, Profile) = (Agent::Codex, Profile::Codex0171);

fn run((agent, profile): (Agent, Profile), event: HookEvent, exit: i32, stdout: &str, stderr: &str) -> Reading {
    read(&HookRun { profile, agent, event, exit: Some(exit), stdout: stdout.as_bytes(), stderr: stderr.as_bytes() })
}

fn pre(who: (Agent, Profile), exit: i32, stdout: &str, stderr: &str) -> Reading {
    run(who, HookEvent::PreToolUse, exit, stdout, stderr)
}

fn failed(r: &Reading) -> Vec<&'static str> {
    r.findings.iter().filter(|f| f.result.is_err()).map(|f| f.check).collect()
}

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R1"}}"#;

#[test]
fn a_decision_blocks_in_both_agents() {
    for who in [CLAUDE, CODEX] {
        for out in [r#"{"decision":"block","reason":"R1"}"#, DENY, "\n  {\"decision\":\"block\",\"reason\":\"R1\"}  \r\n"] {
            let r = pre(who, 0, out, "");
            assert_eq!((r.effect, r.reason.as_deref(), r.error.as_deref()), (Effect::Block, Some("R1"), None), "{out}");
            assert!(failed(&r).is_empty());
        }
    }
}

#[test]
fn exit_2_reads_stderr_and_without_it_claude_blocks_while_codex_fails_open() {
    for who in [CLAUDE, CODEX] {
        let r = pre(who, 2, "", "no shell today\n");
        assert_eq!((r.effect, r.reason.as_deref()), (Effect::Block, Some("no shell today")));
    }
    let claude = pre(CLAUDE, 2, "no shell today\n", "");
    assert_eq!((claude.effect, claude.reason.as_deref()), (Effect::Block, Some("No stderr output")));
    assert_eq!(failed(&claude), ["AGENT-HOOK-EXIT2-STDERR"]);
    let codex = pre(CODEX, 2, "no shell today\n", "  \n");
    assert_eq!(codex.effect, Effect::Proceed);
    assert!(codex.error.is_some());
    assert_eq!(failed(&codex), ["AGENT-HOOK-EXIT2-STDERR"]);
    // Claude Code takes a JSON reason on stdout after exit 2 before stderr; Codex only stderr.
    let both = r#"{"decision":"block","reason":"OUT"}"#;
    assert_eq!(pre(CLAUDE, 2, both, "ERR").reason.as_deref(), Some("OUT"));
    assert_eq!(pre(CODEX, 2, both, "ERR").reason.as_deref(), Some("ERR"));
}

#[test]
fn a_banner_before_the_decision_loses_it_in_both() {
    for who in [CLAUDE, CODEX] {
        let r = pre(who, 0, &format!("starting gate v1\n{DENY}\n"), "");
        assert_eq!(r.effect, Effect::Proceed);
        assert_eq!(failed(&r), ["AGENT-HOOK-STDOUT-JSON"]);
    }
    // A log line after it: Claude Code reads plain text, Codex fails the run.
    let after = format!("{DENY}\ndone.\n");
    assert_eq!(pre(CLAUDE, 0, &after, "").error, None);
    assert!(pre(CODEX, 0, &after, "").error.is_some());
    assert_eq!(failed(&pre(CLAUDE, 0, &after, "")), ["AGENT-HOOK-STDOUT-JSON"]);
}

#[test]
fn braces_bom_and_arrays_are_read_as_each_agent_reads_them() {
    // Two objects: both agents fail the run.
    let two = "{\"decision\":\"block\",\"reason\":\"A\"}\n{\"decision\":\"block\",\"reason\":\"B\"}";
    assert!(pre(CLAUDE, 0, two, "").error.is_some() && pre(CODEX, 0, two, "").error.is_some());
    // A byte-order mark: JavaScript trims it away, Rust does not (plain text to Codex).
    let bom = "\u{feff}{\"decision\":\"block\",\"reason\":\"R1\"}";
    assert_eq!(pre(CLAUDE, 0, bom, "").effect, Effect::Block);
    assert_eq!(pre(CODEX, 0, bom, "").effect, Effect::Proceed);
    assert_eq!(failed(&pre(CODEX, 0, bom, "")), ["AGENT-HOOK-STDOUT-JSON"]);
    // An array: plain text to Claude Code, invalid output to Codex.
    assert_eq!(pre(CLAUDE, 0, "[]", "").error, None);
    assert!(pre(CODEX, 0, "[]", "").error.is_some());
    // `{broken`: not braced at both ends, so plain text to Claude Code.
    assert_eq!(pre(CLAUDE, 0, "{broken", "").error, None);
    assert!(pre(CODEX, 0, "{broken", "").error.is_some());
}

#[test]
fn codex_refuses_what_it_does_not_support_and_unknown_keys() {
    for out in [
        r#"{"decision":"approve","reason":"R1"}"#,
        r#"{"continue":false,"stopReason":"S1"}"#,
        r#"{"suppressOutput":true}"#,
        r#"{"decision":"block"}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R1"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
        r#"{"Decision":"block","reason":"R1"}"#,
        r#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash"}"#,
    ] {
        let r = pre(CODEX, 0, out, "");
        assert_eq!(r.effect, Effect::Proceed, "{out}");
        assert!(r.error.is_some(), "{out}");
        assert_eq!(failed(&r).len(), 1, "{out}: {:?}", failed(&r));
    }
    // Claude Code takes the same outputs.
    assert_eq!(pre(CLAUDE, 0, r#"{"decision":"approve"}"#, "").effect, Effect::Allow);
    assert_eq!(pre(CLAUDE, 0, r#"{"decision":"block"}"#, "").reason.as_deref(), Some("Blocked by hook"));
    assert!(failed(&pre(CLAUDE, 0, r#"{"session_id":"s","tool_name":"Bash"}"#, "")).is_empty());
    assert_eq!(pre(CLAUDE, 0, r#"{"continue":false,"stopReason":"S1"}"#, "").effect, Effect::Stop);
}

#[test]
fn the_event_name_is_required_and_claude_code_compares_it() {
    let none = r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"R1"}}"#;
    for who in [CLAUDE, CODEX] {
        let r = pre(who, 0, none, "");
        assert_eq!((r.effect, failed(&r)), (Effect::Proceed, vec!["AGENT-HOOK-EVENT-NAME"]));
    }
    let wrong = DENY.replace("\"PreToolUse\"", "\"PostToolUse\"");
    assert_eq!(failed(&pre(CLAUDE, 0, &wrong, "")), ["AGENT-HOOK-EVENT-NAME"]);
    assert_eq!(pre(CODEX, 0, &wrong, "").effect, Effect::Block);
    assert_eq!(failed(&run((Agent::Codex, Profile::Documented), HookEvent::PreToolUse, 0, &wrong, "")), ["AGENT-HOOK-EVENT-NAME"]);
}

#[test]
fn wrong_types_fail_the_schema_and_other_exits_are_errors() {
    for who in [CLAUDE, CODEX] {
        assert_eq!(failed(&pre(who, 0, r#"{"decision":"block","reason":5}"#, "")), ["AGENT-HOOK-OUTPUT-SCHEMA"]);
        assert_eq!(failed(&pre(who, 0, r#"{"decision":"deny","reason":"R"}"#, "")), ["AGENT-HOOK-OUTPUT-SCHEMA"]);
        let crashed = pre(who, 1, "", "Traceback: KeyError: 'tool_response'\n");
        assert_eq!((crashed.effect, failed(&crashed)), (Effect::Proceed, vec!["AGENT-HOOK-EXIT-STATUS"]));
        assert!(crashed.error.as_deref().is_some_and(|e| e.contains("KeyError")));
    }
    // `null` for an optional field: Codex reads no decision, Claude Code's schema refuses it.
    assert!(pre(CODEX, 0, r#"{"decision":null}"#, "").error.is_none());
    assert!(pre(CLAUDE, 0, r#"{"decision":null}"#, "").error.is_some());
}

#[test]
fn after_the_tool_and_around_the_prompt() {
    let ctx = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"C1"}}"#;
    for who in [CLAUDE, CODEX] {
        let r = run(who, HookEvent::PostToolUse, 0, ctx, "");
        assert_eq!((r.effect, r.context.as_deref()), (Effect::Proceed, Some("C1")));
        let blocked = run(who, HookEvent::PostToolUse, 0, r#"{"decision":"block","reason":"R1"}"#, "");
        assert_eq!((blocked.effect, blocked.reason.as_deref()), (Effect::Block, Some("R1")));
        assert_eq!(run(who, HookEvent::SessionStart, 2, "", "nope").effect, Effect::Proceed);
    }
    // Plain stdout on a prompt is context; on a stop, Codex refuses it (it wants JSON there).
    for who in [CLAUDE, CODEX] {
        assert_eq!(run(who, HookEvent::UserPromptSubmit, 0, "P1\n", "").context.as_deref(), Some("P1"));
    }
    assert_eq!(run(CLAUDE, HookEvent::Stop, 0, "P1\n", "").error, None);
    assert_eq!(failed(&run(CODEX, HookEvent::Stop, 0, "P1\n", "")), ["AGENT-HOOK-STDOUT-JSON"]);
    // Codex's stop schema has no hookSpecificOutput at all.
    let stop_ctx = r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"C1"}}"#;
    assert_eq!(failed(&run(CODEX, HookEvent::Stop, 0, stop_ctx, "")), ["AGENT-HOOK-OUTPUT-SCHEMA"]);
    // A session start cannot be blocked: Codex fails the run, Claude Code shows stderr to the user.
    assert!(run(CODEX, HookEvent::SessionStart, 2, "", "nope").error.is_some());
    assert!(run(CLAUDE, HookEvent::SessionStart, 2, "", "nope").error.is_none());
}

#[test]
fn a_field_in_the_wrong_place_is_lost_and_fails_the_schema() {
    let top = r#"{"additionalContext":"C1"}"#;
    let r = run(CLAUDE, HookEvent::PostToolUse, 0, top, "");
    assert_eq!((r.context.as_deref(), failed(&r)), (None, vec!["AGENT-HOOK-OUTPUT-SCHEMA"]));
    assert_eq!(failed(&run(CODEX, HookEvent::PostToolUse, 0, top, "")), ["AGENT-HOOK-OUTPUT-SCHEMA"]);
    // Claude Code continues after a stop hook that gives context.
    let stop = run(CLAUDE, HookEvent::Stop, 0, r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"C1"}}"#, "");
    assert_eq!((stop.effect, stop.reason.as_deref()), (Effect::Block, Some("C1")));
}

#[test]
fn claude_code_reads_several_silent_lines_as_plain_text_and_several_decisions_as_an_error() {
    let silent = "{\"a\":1}\n{\"b\":2}\n";
    assert_eq!((pre(CLAUDE, 0, silent, "").error, failed(&pre(CLAUDE, 0, silent, ""))), (None, vec![]));
    let deciding = "{\"a\":1}\n{\"decision\":\"block\",\"reason\":\"R2\"}\n";
    assert!(pre(CLAUDE, 0, deciding, "").error.is_some());
    // Not ending in `}`: plain text, and the decision in it is lost.
    let r = pre(CLAUDE, 0, "{\"decision\":\"block\",\"reason\":\"R\"}\ndone.", "");
    assert_eq!((r.effect, r.error.clone(), failed(&r)), (Effect::Proceed, None, vec!["AGENT-HOOK-STDOUT-JSON"]));
    assert!(pre(CLAUDE, 0, "{ x }", "").error.is_some());
}

#[test]
fn a_permission_decision_outside_the_enum_fails_the_schema() {
    let block = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block","permissionDecisionReason":"R"}}"#;
    for who in [CLAUDE, CODEX] {
        let r = pre(who, 0, block, "");
        assert_eq!((r.effect, failed(&r)), (Effect::Proceed, vec!["AGENT-HOOK-OUTPUT-SCHEMA"]));
    }
}

#[test]
fn claude_code_lets_a_valid_object_decide_whatever_the_exit_status_and_reports_a_hook_error() {
    let r = pre(CLAUDE, 1, DENY, "");
    assert_eq!((r.effect, r.error.clone(), failed(&r)), (Effect::Block, None, vec!["AGENT-HOOK-EXIT-STATUS"]));
    assert!(pre(CODEX, 1, DENY, "").error.is_some());
    // Exit 2 is not honoured on a permission request.
    assert_eq!(run(CLAUDE, HookEvent::PermissionRequest, 2, "", "no").effect, Effect::Proceed);
}

#[test]
fn every_event_has_its_fields_and_a_name_that_parses_back() {
    use crate::protocol::{Family, Role};
    for family in [Family::ClaudeCodeHook, Family::CodexHook] {
        for role in family.roles() {
            let event = agent_hook::event_of(*role).expect("an event");
            assert!(agent_hook::default_fields(event).is_object(), "{}", event.name());
            assert_eq!(Role::parse(family, event.name()), Ok(*role));
        }
    }
    assert_eq!(Family::ClaudeCodeHook.roles().len(), 34);
    assert_eq!(Family::CodexHook.roles().len(), 12);
}

#[test]
fn a_lone_surrogate_is_kept_by_claude_code_and_refused_by_codex() {
    let lone = r#"{"decision":"block","reason":"R\ud800"}"#;
    let claude = pre(CLAUDE, 0, lone, "");
    assert_eq!((claude.effect, claude.reason.as_deref()), (Effect::Block, Some("R\u{fffd}")));
    assert!(pre(CODEX, 0, lone, "").error.is_some());
    // A pair is a character; an escaped backslash before `u` is not an escape.
    assert_eq!(pre(CLAUDE, 0, r#"{"decision":"block","reason":"\ud83d\ude00 \\ud800"}"#, "").reason.as_deref(), Some("😀 \\ud800"));
}
