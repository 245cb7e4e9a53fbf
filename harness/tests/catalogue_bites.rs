//! Every check in the catalogue bites: for each one, a mock-plugin
//! configuration that fails it (a real failure, not untestable) and one that
//! passes it, run through the real `proctor certify` binary.

mod common;

use std::io::Write;

use common::{certify_json, mock, problems, results};
use proctor_conformance::check::{CATALOGUE, Group};

/// One row: the check, how to certify, and the mock flags that pass / fail it.
struct Bite {
    check: &'static str,
    certify: &'static [&'static str],
    protocol: &'static str,
    passing: &'static [&'static str],
    failing: &'static [&'static str],
    /// A cases file (YAML) both runs use, when the check needs one.
    cases: Option<&'static str>,
}

const EXEC_TOOL: &[&str] = &["--protocol", "promptkit-exec", "--role", "tool"];
const SELECTOR: &[&str] = &["--protocol", "promptkit-exec", "--role", "selector"];
const PICO: &[&str] = &["--protocol", "picoclaw-hook"];
const PICO_RT: &[&str] = &["--protocol", "picoclaw-hook", "--profile", "picoclaw@cf67dd3"];
const SERVER: &[&str] = &["--protocol", "promptkit-server"];
const RUNOK: &[&str] = &["--protocol", "runok-extension"];
const FAST: &str = "--timeout-ms=400";

const BITES: &[Bite] = &[
    Bite {
        check: "FRAMING-SINGLE-DOCUMENT",
        certify: EXEC_TOOL,
        protocol: "promptkit-exec",
        passing: &["--role", "tool"],
        failing: &["--role", "tool", "--fault", "two-documents"],
        cases: None,
    },
    Bite {
        check: "FRAMING-LINE-PER-MESSAGE",
        certify: SERVER,
        protocol: "promptkit-server",
        passing: &[],
        failing: &["--fault", "pretty-print"],
        cases: None,
    },
    Bite {
        check: "FRAMING-NO-STRAY-OUTPUT",
        certify: SERVER,
        protocol: "promptkit-server",
        passing: &[],
        failing: &["--fault", "log-line"],
        cases: None,
    },
    Bite {
        check: "FRAMING-COMPACT",
        certify: EXEC_TOOL,
        protocol: "promptkit-exec",
        passing: &["--role", "tool"],
        failing: &["--role", "tool", "--fault", "pretty-print"],
        cases: None,
    },
    Bite {
        check: "FRAMING-UTF8",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &[],
        failing: &["--fault", "invalid-utf8"],
        cases: None,
    },
    Bite {
        check: "FRAMING-NO-BOM",
        certify: &["--protocol", "promptkit-exec", "--role", "eval"],
        protocol: "promptkit-exec",
        passing: &["--role", "eval"],
        failing: &["--role", "eval", "--fault", "bom"],
        cases: None,
    },
    Bite {
        check: "FRAMING-LF-ENDINGS",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "crlf"],
        cases: None,
    },
    Bite {
        check: "FRAMING-FLUSHED",
        certify: &["--protocol", "picoclaw-hook", FAST],
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "no-flush"],
        cases: None,
    },
    Bite {
        check: "FRAMING-LINE-SIZE",
        certify: PICO_RT,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "huge-line"],
        cases: None,
    },
    Bite {
        check: "JSONRPC-VERSION",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &[],
        failing: &["--fault", "no-jsonrpc"],
        cases: None,
    },
    Bite {
        check: "JSONRPC-ID-ECHO",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "string-id"],
        cases: None,
    },
    Bite {
        check: "JSONRPC-RESULT-XOR-ERROR",
        certify: SERVER,
        protocol: "promptkit-server",
        passing: &[],
        failing: &["--fault", "both-result-error"],
        cases: None,
    },
    Bite {
        check: "JSONRPC-ERROR-SHAPE",
        certify: SERVER,
        protocol: "promptkit-server",
        passing: &[],
        failing: &["--fault", "bad-error-object"],
        cases: None,
    },
    Bite {
        check: "JSONRPC-NOTIFICATION-SILENT",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "reply-to-notification"],
        cases: None,
    },
    Bite {
        check: "JSONRPC-UNKNOWN-METHOD",
        certify: &["--protocol", "promptkit-server", FAST],
        protocol: "promptkit-server",
        passing: &[],
        failing: &["--fault", "ignore-unknown-method"],
        cases: None,
    },
    Bite {
        check: "LIFECYCLE-HANDSHAKE",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "hello-error"],
        cases: None,
    },
    Bite {
        check: "LIFECYCLE-STAYS-ALIVE",
        certify: SERVER,
        protocol: "promptkit-server",
        passing: &[],
        failing: &["--fault", "crash-after", "--crash-after", "1"],
        cases: None,
    },
    Bite {
        check: "LIFECYCLE-EXIT-ON-EOF",
        certify: PICO_RT,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "ignore-eof"],
        cases: None,
    },
    Bite {
        check: "LIFECYCLE-EXIT-ZERO",
        certify: EXEC_TOOL,
        protocol: "promptkit-exec",
        passing: &["--role", "tool"],
        failing: &["--role", "tool", "--fault", "exit-nonzero"],
        cases: None,
    },
    Bite {
        check: "LIFECYCLE-READS-TO-EOF",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &[],
        failing: &["--fault", "needs-newline"],
        cases: None,
    },
    Bite {
        check: "LIFECYCLE-NO-LEFTOVER",
        certify: EXEC_TOOL,
        protocol: "promptkit-exec",
        passing: &["--role", "tool"],
        failing: &["--role", "tool", "--fault", "grandchild"],
        cases: None,
    },
    Bite {
        check: "TOOL-RESPONSE-SHAPE",
        certify: EXEC_TOOL,
        protocol: "promptkit-exec",
        passing: &["--role", "tool"],
        failing: &["--role", "tool", "--fault", "tool-both"],
        cases: None,
    },
    Bite {
        check: "TOOL-PENDING-SHAPE",
        certify: EXEC_TOOL,
        protocol: "promptkit-exec",
        passing: &["--role", "tool", "--decision", "pending"],
        failing: &["--role", "tool", "--decision", "pending", "--fault", "pending-no-reason"],
        cases: None,
    },
    Bite {
        check: "EVAL-SCORE",
        certify: &["--protocol", "promptkit-exec", "--role", "eval"],
        protocol: "promptkit-exec",
        passing: &["--role", "eval"],
        failing: &["--role", "eval", "--fault", "score-out-of-range"],
        cases: None,
    },
    Bite {
        check: "HOOK-ALLOW-BOOLEAN",
        certify: &["--protocol", "promptkit-exec", "--role", "tool-hook"],
        protocol: "promptkit-exec",
        passing: &["--role", "tool-hook"],
        failing: &["--role", "tool-hook", "--fault", "ack-only"],
        cases: None,
    },
    Bite {
        check: "HOOK-DENY-REASON",
        certify: &["--protocol", "promptkit-exec", "--role", "provider-hook"],
        protocol: "promptkit-exec",
        passing: &["--role", "provider-hook", "--decision", "deny"],
        failing: &["--role", "provider-hook", "--decision", "deny", "--fault", "deny-no-reason"],
        cases: None,
    },
    Bite {
        check: "HOOK-OBSERVE-ACK",
        certify: &["--protocol", "promptkit-exec", "--role", "session-hook", "--profile", "documented"],
        protocol: "promptkit-exec",
        passing: &["--role", "session-hook"],
        failing: &["--role", "session-hook", "--fault", "no-ack"],
        cases: None,
    },
    Bite {
        check: "PICOCLAW-ACTION",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "unknown-action"],
        cases: None,
    },
    Bite {
        // `"action": 5` is a type error for PicoClaw's Go decoder: the hook errors and is skipped.
        check: "GO-DECODE",
        certify: PICO_RT,
        protocol: "picoclaw-hook",
        passing: &["--script", "mocks/scripts/picoclaw-well.json"],
        failing: &["--script", "mocks/scripts/picoclaw-bad-action.json"],
        cases: None,
    },
    Bite {
        // `{"Allow": true}` allows in PromptKit (Go matches keys in any case): a warning, not a failure.
        check: "GO-READS-AS-DOCUMENTED",
        certify: &["--protocol", "promptkit-exec", "--role", "tool-hook", "--profile", "promptkit@86d9f36"],
        protocol: "promptkit-exec",
        passing: &["--role", "tool-hook"],
        failing: &["--role", "tool-hook", "--script", "mocks/scripts/promptkit-hook-allow-capitalised.json"],
        cases: None,
    },
    Bite {
        check: "PICOCLAW-MODIFY-PAYLOAD",
        certify: PICO_RT,
        protocol: "picoclaw-hook",
        passing: &["--decision", "modify"],
        failing: &["--decision", "modify", "--fault", "modify-flat"],
        cases: None,
    },
    Bite {
        check: "PICOCLAW-RESPOND-RESULT",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &["--decision", "respond"],
        failing: &["--decision", "respond", "--fault", "respond-no-result"],
        cases: None,
    },
    Bite {
        check: "PICOCLAW-APPROVE-BOOLEAN",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "approve-missing"],
        cases: None,
    },
    Bite {
        check: "RUNOK-STATUS",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &[],
        failing: &["--fault", "status-uppercase"],
        cases: None,
    },
    Bite {
        check: "RUNOK-OPTIONAL-STRINGS",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &["--decision", "deny"],
        failing: &["--decision", "deny", "--fault", "message-number"],
        cases: None,
    },
    Bite {
        // `"Message"`: serde matches keys exactly, so runok shows no message.
        check: "RUNOK-EXACT-KEYS",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &["--decision", "deny"],
        failing: &["--script", "mocks/scripts/runok-message-capitalised.json"],
        cases: None,
    },
    Bite {
        // `status` twice: serde fails the whole reply ("duplicate field"), and runok asks.
        check: "RUNOK-DECODE",
        certify: &["--protocol", "runok-extension", "--profile", "runok@0.3.1"],
        protocol: "runok-extension",
        passing: &["--decision", "deny"],
        failing: &["--script", "mocks/scripts/runok-duplicate-status.json"],
        cases: None,
    },
    Bite {
        check: "ROBUST-DEADLINE",
        certify: &["--protocol", "promptkit-exec", "--role", "tool", FAST],
        protocol: "promptkit-exec",
        passing: &["--role", "tool"],
        failing: &["--role", "tool", "--fault", "hang"],
        cases: None,
    },
    Bite {
        check: "PIPE-WRITES-DRAINED",
        certify: &["--protocol", "picoclaw-hook", "--profile", "picoclaw@cf67dd3", FAST],
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "stderr-long-line"],
        cases: None,
    },
    Bite {
        check: "ROBUST-SEQUENTIAL",
        certify: SERVER,
        protocol: "promptkit-server",
        passing: &[],
        failing: &["--fault", "crash-after", "--crash-after", "50"],
        cases: None,
    },
    Bite {
        check: "ROBUST-UNKNOWN-FIELDS",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &[],
        failing: &["--fault", "strict-fields"],
        cases: None,
    },
    Bite {
        check: "ROBUST-FUZZ",
        certify: &[
            "--protocol",
            "promptkit-exec",
            "--role",
            "tool",
            "--fuzz",
            "30",
            "--schema",
            "harness/tests/fixtures/fuzz_tool.schema.json",
        ],
        protocol: "promptkit-exec",
        passing: &["--role", "tool"],
        failing: &["--role", "tool", "--fault", "crash-on-quote"],
        cases: None,
    },
    Bite {
        check: "ROBUST-CONCURRENT",
        certify: &["--protocol", "picoclaw-hook", FAST],
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "drop-pipelined"],
        cases: None,
    },
    Bite {
        check: "JSONRPC-NO-DUPLICATE-REPLY",
        certify: PICO,
        protocol: "picoclaw-hook",
        passing: &[],
        failing: &["--fault", "duplicate-id"],
        cases: None,
    },
    Bite {
        check: "SELECTOR-RESPONSE-SHAPE",
        certify: SELECTOR,
        protocol: "promptkit-exec",
        passing: &["--role", "selector"],
        failing: &["--role", "selector", "--fault", "selector-not-list"],
        cases: None,
    },
    Bite {
        check: "SELECTOR-KNOWN-IDS",
        certify: SELECTOR,
        protocol: "promptkit-exec",
        passing: &["--role", "selector"],
        failing: &["--role", "selector", "--fault", "selector-unknown-id"],
        cases: None,
    },
    Bite {
        check: "SELECTOR-AT-MOST-K",
        certify: SELECTOR,
        protocol: "promptkit-exec",
        passing: &["--role", "selector"],
        failing: &["--role", "selector", "--fault", "selector-too-many"],
        cases: None,
    },
    Bite {
        check: "PROMPTKIT-KEY-SPELLING",
        certify: SELECTOR,
        protocol: "promptkit-exec",
        passing: &["--role", "selector"],
        failing: &["--role", "selector", "--fault", "documented-keys-only"],
        cases: None,
    },
    Bite {
        check: "CASE-DECISION",
        certify: RUNOK,
        protocol: "runok-extension",
        passing: &["--decision", "deny"],
        failing: &["--decision", "allow"],
        cases: Some(
            "cases:\n  - name: POST to prod is denied\n    request: {raw_command_line: curl -X POST https://prod, env: {AWS_PROFILE: prod}}\n    expect: {decision: deny}\n",
        ),
    },
    Bite {
        check: "CASE-REQUIRE",
        certify: &["--protocol", "promptkit-exec", "--role", "tool-hook", "--require", "deny"],
        protocol: "promptkit-exec",
        passing: &["--role", "tool-hook", "--decision", "deny"],
        failing: &["--role", "tool-hook"],
        cases: None,
    },
];

/// Agent command hooks answer with an exit status, stdout and stderr: each row is two small
/// sh scripts (they have read their stdin), one failing the check and one passing it.
struct ShBite {
    check: &'static str,
    certify: &'static [&'static str],
    passing: &'static str,
    failing: &'static str,
}

const CLAUDE_PRE: &[&str] = &["--protocol", "claude-code-hook", "--role", "PreToolUse"];
const CODEX_PRE: &[&str] = &["--protocol", "codex-hook", "--role", "PreToolUse"];
const DENY: &str =
    r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'"#;

const SH_BITES: &[ShBite] = &[
    ShBite { check: "AGENT-HOOK-EXIT-STATUS", certify: CLAUDE_PRE, passing: "exit 0", failing: "echo 'KeyError' >&2; exit 1" },
    ShBite { check: "AGENT-HOOK-EXIT2-STDERR", certify: CODEX_PRE, passing: "echo no >&2; exit 2", failing: "echo no; exit 2" },
    ShBite {
        check: "AGENT-HOOK-STDOUT-JSON",
        certify: CLAUDE_PRE,
        passing: DENY,
        failing: "echo 'gate v1'; echo '{\"decision\":\"block\",\"reason\":\"no\"}'",
    },
    ShBite {
        check: "AGENT-HOOK-OUTPUT-SCHEMA",
        certify: CODEX_PRE,
        passing: r#"echo '{"decision":"block","reason":"no"}'"#,
        failing: r#"echo '{"decision":"block","reason":"no","session_id":"s"}'"#,
    },
    ShBite {
        check: "AGENT-HOOK-EVENT-NAME",
        certify: CLAUDE_PRE,
        passing: DENY,
        failing: r#"echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}'"#,
    },
    ShBite {
        check: "AGENT-HOOK-BLOCK-REASON",
        certify: CLAUDE_PRE,
        passing: r#"echo '{"decision":"block","reason":"no"}'"#,
        failing: r#"echo '{"decision":"block","reason":""}'"#,
    },
    ShBite {
        check: "AGENT-HOOK-SUPPORTED-OUTPUT",
        certify: CODEX_PRE,
        passing: DENY,
        failing: r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#,
    },
];

fn sh_bite(check: &str) {
    let row = SH_BITES.iter().find(|b| b.check == check).unwrap_or_else(|| panic!("no sh bite row for {check}"));
    for (script, fails) in [(row.failing, true), (row.passing, false)] {
        let mut f = tempfile::NamedTempFile::new().expect("temp hook");
        writeln!(f, "cat >/dev/null\n{script}").expect("write hook");
        let argv = vec!["sh".to_string(), f.path().display().to_string()];
        let (_, report, _) = certify_json(row.certify, &argv);
        let found = results(&report, check);
        assert!(!found.is_empty(), "{check} did not run with `{script}`");
        let ok = if fails {
            found.iter().any(|c| c["status"] == "fail" && c["detail"]["outcome"] == "fail")
        } else {
            found.iter().all(|c| c["status"] == "pass")
        };
        assert!(ok, "{check} did not {} against `{script}`:\n{}", if fails { "fail" } else { "pass" }, problems(&report));
    }
}

fn bite(check: &str) {
    if SH_BITES.iter().any(|b| b.check == check) {
        return sh_bite(check);
    }
    let row = BITES.iter().find(|b| b.check == check).unwrap_or_else(|| panic!("no bite row for {check}"));
    let cases_file = row.cases.map(|yaml| {
        let mut f = tempfile::NamedTempFile::new().expect("temp cases file");
        f.write_all(yaml.as_bytes()).expect("write cases");
        f
    });
    let mut flags: Vec<&str> = row.certify.to_vec();
    let path;
    if let Some(f) = &cases_file {
        path = f.path().display().to_string();
        flags.push("--cases");
        flags.push(&path);
    }

    let (_, report, _) = certify_json(&flags, &mock(row.protocol, row.failing));
    let found = results(&report, check);
    assert!(!found.is_empty(), "{check} did not run with {:?}", row.failing);
    assert!(
        found.iter().any(|c| (c["status"] == "fail" || c["status"] == "warn") && c["detail"]["outcome"] == "fail"),
        "{check} did not fail (for real) against mock-plugin {:?}:\n{}",
        row.failing,
        problems(&report)
    );

    let (_, report, _) = certify_json(&flags, &mock(row.protocol, row.passing));
    let found = results(&report, check);
    assert!(!found.is_empty(), "{check} did not run with {:?}", row.passing);
    assert!(
        found.iter().all(|c| c["status"] == "pass"),
        "{check} did not pass against mock-plugin {:?}:\n{}",
        row.passing,
        problems(&report)
    );
}

#[test]
fn every_check_in_the_catalogue_has_a_bite_row() {
    // Runtime checks judge records, not plugins: harness/tests/verify.rs bites them.
    let missing: Vec<&str> = CATALOGUE
        .iter()
        .filter(|c| c.group != Group::Runtime)
        .map(|c| c.id)
        .filter(|id| !BITES.iter().any(|b| b.check == *id) && !SH_BITES.iter().any(|b| b.check == *id))
        .collect();
    assert!(missing.is_empty(), "checks without a failing and a passing plugin: {missing:?}");
    let stale: Vec<&str> = BITES.iter().map(|b| b.check).filter(|id| !CATALOGUE.iter().any(|c| c.id == *id)).collect();
    assert!(stale.is_empty(), "bite rows for checks that do not exist: {stale:?}");
}

macro_rules! bites {
    ($($name:ident => $id:literal,)*) => {
        $(#[test] fn $name() { bite($id); })*
    };
}

bites! {
    framing_single_document => "FRAMING-SINGLE-DOCUMENT",
    framing_line_per_message => "FRAMING-LINE-PER-MESSAGE",
    framing_no_stray_output => "FRAMING-NO-STRAY-OUTPUT",
    framing_compact => "FRAMING-COMPACT",
    framing_utf8 => "FRAMING-UTF8",
    framing_no_bom => "FRAMING-NO-BOM",
    framing_lf_endings => "FRAMING-LF-ENDINGS",
    framing_flushed => "FRAMING-FLUSHED",
    framing_line_size => "FRAMING-LINE-SIZE",
    jsonrpc_version => "JSONRPC-VERSION",
    jsonrpc_no_duplicate_reply => "JSONRPC-NO-DUPLICATE-REPLY",
    jsonrpc_id_echo => "JSONRPC-ID-ECHO",
    jsonrpc_result_xor_error => "JSONRPC-RESULT-XOR-ERROR",
    jsonrpc_error_shape => "JSONRPC-ERROR-SHAPE",
    jsonrpc_notification_silent => "JSONRPC-NOTIFICATION-SILENT",
    jsonrpc_unknown_method => "JSONRPC-UNKNOWN-METHOD",
    lifecycle_handshake => "LIFECYCLE-HANDSHAKE",
    lifecycle_stays_alive => "LIFECYCLE-STAYS-ALIVE",
    lifecycle_exit_on_eof => "LIFECYCLE-EXIT-ON-EOF",
    lifecycle_exit_zero => "LIFECYCLE-EXIT-ZERO",
    lifecycle_reads_to_eof => "LIFECYCLE-READS-TO-EOF",
    lifecycle_no_leftover => "LIFECYCLE-NO-LEFTOVER",
    tool_response_shape => "TOOL-RESPONSE-SHAPE",
    tool_pending_shape => "TOOL-PENDING-SHAPE",
    eval_score => "EVAL-SCORE",
    hook_allow_boolean => "HOOK-ALLOW-BOOLEAN",
    hook_deny_reason => "HOOK-DENY-REASON",
    hook_observe_ack => "HOOK-OBSERVE-ACK",
    picoclaw_action => "PICOCLAW-ACTION",
    go_decode => "GO-DECODE",
    go_reads_as_documented => "GO-READS-AS-DOCUMENTED",
    picoclaw_modify_payload => "PICOCLAW-MODIFY-PAYLOAD",
    picoclaw_respond_result => "PICOCLAW-RESPOND-RESULT",
    picoclaw_approve_boolean => "PICOCLAW-APPROVE-BOOLEAN",
    runok_status => "RUNOK-STATUS",
    runok_optional_strings => "RUNOK-OPTIONAL-STRINGS",
    runok_exact_keys => "RUNOK-EXACT-KEYS",
    runok_decode => "RUNOK-DECODE",
    robust_deadline => "ROBUST-DEADLINE",
    pipe_writes_drained => "PIPE-WRITES-DRAINED",
    robust_sequential => "ROBUST-SEQUENTIAL",
    robust_unknown_fields => "ROBUST-UNKNOWN-FIELDS",
    robust_concurrent => "ROBUST-CONCURRENT",
    robust_fuzz => "ROBUST-FUZZ",
    selector_response_shape => "SELECTOR-RESPONSE-SHAPE",
    selector_known_ids => "SELECTOR-KNOWN-IDS",
    selector_at_most_k => "SELECTOR-AT-MOST-K",
    promptkit_key_spelling => "PROMPTKIT-KEY-SPELLING",
    case_decision => "CASE-DECISION",
    case_require => "CASE-REQUIRE",
    agent_hook_exit_status => "AGENT-HOOK-EXIT-STATUS",
    agent_hook_exit2_stderr => "AGENT-HOOK-EXIT2-STDERR",
    agent_hook_stdout_json => "AGENT-HOOK-STDOUT-JSON",
    agent_hook_output_schema => "AGENT-HOOK-OUTPUT-SCHEMA",
    agent_hook_event_name => "AGENT-HOOK-EVENT-NAME",
    agent_hook_block_reason => "AGENT-HOOK-BLOCK-REASON",
    agent_hook_supported_output => "AGENT-HOOK-SUPPORTED-OUTPUT",
}
