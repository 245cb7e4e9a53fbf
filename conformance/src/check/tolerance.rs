//! Tolerances: documented rules a runtime does not enforce.
//!
//! Each profile's verdict answers "does the plugin work in that runtime
//! today?". Under `documented`, every documented rule is judged as written.
//! Under a runtime's profile, a violation the runtime demonstrably ignores
//! (it never reads the field, or reads the message anyway) is reported as a
//! warning that says what the runtime does with it, so the plugin author sees
//! both answers: it breaks the protocol, and it works there today. Each
//! tolerance is a fact about the runtime's code, cited like a divergence.

use serde::Serialize;

use super::{CheckId, Failure};
use crate::protocol::Profile;

/// One documented rule a runtime does not enforce.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Tolerance {
    /// Stable name, e.g. `runok.ignores-reply-id`.
    pub id: &'static str,
    /// The runtime profile that tolerates the violation.
    #[serde(serialize_with = "profile_name")]
    pub profile: Profile,
    /// The check whose failure it tolerates.
    pub check: CheckId,
    /// What the runtime does with the violation, for the report.
    pub runtime_does: &'static str,
    /// Where it comes from (source file at the pinned commit, research note).
    pub source: &'static str,
    /// Which failures of the check it covers (some checks guard several rules).
    #[serde(skip)]
    pub covers: fn(&Failure) -> bool,
}

fn profile_name<S: serde::Serializer>(p: &Profile, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

fn any(_: &Failure) -> bool {
    true
}

/// `both result and error`, as the envelope check words it.
fn both(f: &Failure) -> bool {
    matches!(f, Failure::Mismatch { actual, .. } if actual == "both")
}

/// How the tool shape check words an `error` beside a `result` when the
/// author's case expects the error: the runtime's reading, and what was meant.
pub const ERROR_BESIDE_A_RESULT_MEANT: &str = "result and error together, which the cases say means the error";

/// `result` beside an empty or null `error`, or an error beside a result
/// where the case says the error was meant, as the tool shape check words it.
fn result_and_error(f: &Failure) -> bool {
    matches!(f, Failure::Mismatch { actual, .. } if actual == "result and an empty error together" || actual == ERROR_BESIDE_A_RESULT_MEANT)
}

/// `pending` beside exactly one of `result` and `error`, as the tool shape
/// check words it.
fn pending_beside_an_answer(f: &Failure) -> bool {
    matches!(f, Failure::Mismatch { actual, .. } if actual == "result and pending together" || actual == "error and pending together")
}

/// How a reply without its newline is worded when the next reply joined
/// its line: no runtime that reads a line at a time survives that.
pub const SWALLOWS_THE_NEXT_REPLY: &str = "written without its newline, so the next reply joined its line (PicoClaw skips that whole line, and the call waiting for the reply runs out its deadline)";

/// Any failure but a reply that swallowed the next one.
fn kept_apart(f: &Failure) -> bool {
    !matches!(f, Failure::Unexpected { what } if what.contains(SWALLOWS_THE_NEXT_REPLY))
}

/// A number past float64, which Go reads as raw text where the runtime
/// keeps it raw or skips it.
fn number_out_of_range(f: &Failure) -> bool {
    matches!(f, Failure::Framing { violation: crate::framing::Violation::NumberOutOfRange { .. } })
}

/// A `hook.hello` result of `null`, as the handshake check words it.
fn null_hello_result(f: &Failure) -> bool {
    matches!(f, Failure::Mismatch { actual, .. } if actual == "result null")
}

/// A score that is a number, only out of range (not missing, not a string).
fn numeric_score(f: &Failure) -> bool {
    matches!(f, Failure::Mismatch { actual, .. } if actual.starts_with("number "))
}

/// A process left behind that holds none of the plugin's output pipes: the
/// runtimes wait for the exit and for the pipes they read, never for the
/// process group, so it runs on without costing the answer.
fn detached_leftover(f: &Failure) -> bool {
    matches!(f, Failure::Leak { leftover } if !leftover.stdout_held_open && !leftover.stderr_held_open)
}

use Profile::{ClaudeCode21332 as CLAUDE, Codex0171 as CODEX, PicoclawCf67dd3 as PICO, Promptkit86d9f36 as PK, Runok031 as RUNOK};

/// Every tolerance proctor knows. `proctor checks` prints them.
pub static TOLERANCES: &[Tolerance] = &[
    Tolerance {
        id: "claude-code.children-not-waited",
        profile: CLAUDE,
        check: "LIFECYCLE-NO-LEFTOVER",
        runtime_does: "Claude Code takes the hook's answer at its exit and goes on about 0.5 s later even while a child still holds stdout or stderr; after a normal exit it leaves the children running",
        source: "measured with interop/agents (a PreToolUse hook exiting 2 with `(sleep 15) &` holding its pipes: blocked, the next model request 0.5 s after the exit, the child ending 15 s later)",
        covers: any,
    },
    Tolerance {
        id: "codex.detached-child-not-waited",
        profile: CODEX,
        check: "LIFECYCLE-NO-LEFTOVER",
        runtime_does: "Codex waits for the hook's stdout and stderr to close, not for its process group: a child that let go of both runs on, unseen",
        source: "measured with interop/agents (a child with its stdio on /dev/null, in the hook's group or its own session: the next model request at once)",
        covers: detached_leftover,
    },
    Tolerance {
        id: "runok.ignores-reply-id",
        profile: RUNOK,
        check: "JSONRPC-ID-ECHO",
        runtime_does: "runok ignores the id: your reply is used anyway",
        source: "src/exec/extension_runner.rs (the response is decoded without its id); research picoclaw-runok.md part B",
        covers: any,
    },
    Tolerance {
        id: "runok.ignores-jsonrpc",
        profile: RUNOK,
        check: "JSONRPC-VERSION",
        runtime_does: "runok ignores `jsonrpc`: your reply is used anyway",
        source: "src/exec/extension_runner.rs (the response is decoded without jsonrpc); research picoclaw-runok.md part B",
        covers: any,
    },
    Tolerance {
        id: "promptkit.server-ignores-jsonrpc",
        profile: PK,
        check: "JSONRPC-VERSION",
        runtime_does: "PromptKit never reads `jsonrpc`: your reply is used anyway",
        source: "runtime/tools/server_executor.go parseJSONRPCResponse; research promptkit.md §1.3.2",
        covers: any,
    },
    Tolerance {
        id: "promptkit.server-error-before-result",
        profile: PK,
        check: "JSONRPC-RESULT-XOR-ERROR",
        runtime_does: "PromptKit reads `error` first: the call fails with your error and the result is ignored",
        source: "runtime/tools/server_executor.go parseJSONRPCResponse (error is checked before result); research promptkit.md §1.3.2",
        covers: both,
    },
    Tolerance {
        id: "promptkit.eval-score-unclamped",
        profile: PK,
        check: "EVAL-SCORE",
        runtime_does: "PromptKit uses the score as it is, unclamped",
        source: "runtime/evals/handlers/exec_handler.go (score copied without a range check); research promptkit.md §1.6",
        covers: numeric_score,
    },
    Tolerance {
        id: "promptkit.invalid-utf8-replaced",
        profile: PK,
        check: "FRAMING-UTF8",
        runtime_does: "Go's encoding/json reads the reply and turns the invalid bytes into U+FFFD",
        source: "Go encoding/json Unmarshal (invalid UTF-8 in strings decodes as U+FFFD), used by runtime/tools; research promptkit.md §1.1",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.invalid-utf8-replaced",
        profile: PICO,
        check: "FRAMING-UTF8",
        runtime_does: "Go's encoding/json reads the reply and turns the invalid bytes into U+FFFD",
        source: "Go encoding/json Unmarshal in pkg/agent/hook_process.go readLoop",
        covers: any,
    },
    Tolerance {
        id: "runok.invalid-utf8-lossy",
        profile: RUNOK,
        check: "FRAMING-UTF8",
        runtime_does: "runok reads stdout with String::from_utf8_lossy: your reply is used, the invalid bytes become U+FFFD",
        source: "src/exec/extension_runner.rs (String::from_utf8_lossy before parsing); research picoclaw-runok.md; interop/runok",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.ignores-jsonrpc",
        profile: PICO,
        check: "JSONRPC-VERSION",
        runtime_does: "PicoClaw never reads `jsonrpc`: your reply is used anyway",
        source: "pkg/agent/hook_process.go readLoop (processHookRPCMessage is matched by id only); research picoclaw-runok.md, reading stdout",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.error-wins",
        profile: PICO,
        check: "JSONRPC-RESULT-XOR-ERROR",
        runtime_does: "PicoClaw takes the `error` and ignores the result",
        source: "pkg/agent/hook_process.go readLoop (if a line has both result and error, error wins); research picoclaw-runok.md, reading stdout",
        covers: both,
    },
    Tolerance {
        id: "picoclaw.skips-undecodable-lines",
        profile: PICO,
        check: "FRAMING-NO-STRAY-OUTPUT",
        runtime_does: "PicoClaw logs a warning and skips a line it cannot decode",
        source: "pkg/agent/hook_process.go readLoop (a decode error is logged and the line skipped); research picoclaw-runok.md, reading stdout",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.skips-broken-lines",
        profile: PICO,
        check: "FRAMING-LINE-PER-MESSAGE",
        runtime_does: "PicoClaw logs a warning and skips a line Go cannot decode (a broken or half message); a reply on a later line is still read",
        source: "pkg/agent/hook_process.go:410-416 readLoop (json.Unmarshal error: warn and continue); found by interop/fidelity.sh --only differential",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.hello-result-ignored",
        profile: PICO,
        check: "LIFECYCLE-HANDSHAKE",
        runtime_does: "PicoClaw decodes the hook.hello result into map[string]any and never reads it: `null` is an empty map and the hook starts (a result that is not an object or null fails the hello)",
        source: "pkg/agent/hook_process.go:287-308 (hello result into map[string]any, otherwise ignored); interop/fidelity.sh --only differential, seed 30",
        covers: null_hello_result,
    },
    Tolerance {
        id: "picoclaw.drops-stale-replies",
        profile: PICO,
        check: "JSONRPC-NO-DUPLICATE-REPLY",
        runtime_does: "PicoClaw matches replies by id and silently drops one whose id it no longer waits for",
        source: "pkg/agent/hook_process.go readLoop (an unknown id is dropped); research picoclaw-runok.md, reading stdout",
        covers: any,
    },
    // Measured against the real runtimes (interop/fidelity.sh, FIDELITY.md):
    // the fault sweep found each of these verdicts stricter than the runtime.
    Tolerance {
        id: "promptkit.tool-whole-document-result",
        profile: PK,
        check: "TOOL-RESPONSE-SHAPE",
        runtime_does: "PromptKit passes a document with neither result nor error (a null error is none) to the model, whole, as the tool's result",
        source: "runtime/tools/exec_executor.go (no result key: the whole stdout is the result); interop/promptkit, fault tool-empty",
        covers: no_known_key,
    },
    Tolerance {
        id: "promptkit.pending-not-read",
        profile: PK,
        check: "TOOL-PENDING-SHAPE",
        runtime_does: "PromptKit never reads `pending` (promptkit.pending-ignored): the document is the tool's result, whatever its shape",
        source: "runtime/tools/exec_executor.go (execPending decoded, never consulted); interop/promptkit, fault pending-no-reason",
        covers: any,
    },
    Tolerance {
        id: "promptkit.pending-beside-an-answer",
        profile: PK,
        check: "TOOL-RESPONSE-SHAPE",
        runtime_does: "PromptKit never reads `pending` (promptkit.pending-ignored): beside a `result` or an `error` it changes nothing",
        source: "runtime/tools/exec_executor.go (execPending decoded, never consulted); interop/fidelity.sh --only boundary",
        covers: pending_beside_an_answer,
    },
    Tolerance {
        id: "promptkit.tool-error-before-result",
        profile: PK,
        check: "TOOL-RESPONSE-SHAPE",
        runtime_does: "PromptKit reads a one-shot tool's `error` first: an empty or null error is none, and the result beside it is the answer; a non-empty one fails the call, which is what a case that expects `error` means (without such a case, an answer holding both stays a failure: which did you mean?)",
        source: "runtime/tools/exec_executor.go:74-88 (execToolResponse decoded, Error checked before Result); interop/fidelity.sh --only differential, seed 29",
        covers: result_and_error,
    },
    Tolerance {
        id: "runok.skips-unknown-keys-unread",
        profile: RUNOK,
        check: "FRAMING-SINGLE-DOCUMENT",
        runtime_does: "runok skips the keys it does not type (`id`, `jsonrpc`, any other) without converting them: a number past f64 there (`1e999`) is read anyway (in a typed field, RUNOK-DECODE fails)",
        source: "src/exec/extension_runner.rs:30-46 (JsonRpcResponse has no id or jsonrpc field; serde skips unknown keys as IgnoredAny); found by interop/fidelity.sh --only differential --family runok-extension",
        covers: number_out_of_range,
    },
    Tolerance {
        id: "promptkit.keeps-raw-numbers",
        profile: PK,
        check: "FRAMING-SINGLE-DOCUMENT",
        runtime_does: "PromptKit keeps a tool's `result` as raw text and skips unknown keys unread: a number past float64 there (`1e999`) reaches the model as written (where PromptKit decodes one, as a score, GO-DECODE fails)",
        source: "runtime/tools/exec_executor.go:38-49 (Result json.RawMessage); encoding/json decode.go (a literal is parsed only into a typed field); interop/fidelity.sh --only differential, seed 29",
        covers: number_out_of_range,
    },
    Tolerance {
        id: "promptkit.selector-unknown-ids-dropped",
        profile: PK,
        check: "SELECTOR-KNOWN-IDS",
        runtime_does: "PromptKit keeps the candidates whose ids you named, drops the rest, and uses every candidate if none is left",
        source: "runtime/pipeline/stage/stages_provider.go:687-697 (intersectInOrder), runtime/skills/executor.go:281-300; interop/promptkit",
        covers: any,
    },
    Tolerance {
        id: "promptkit.sends-only-known-fields",
        profile: PK,
        check: "ROBUST-UNKNOWN-FIELDS",
        runtime_does: "PromptKit at this commit sends only the fields of its own types: refusing others breaks nothing today (a later PromptKit may add some)",
        source: "measured: interop/fidelity.sh wire comparison (every request re-encoded by PromptKit's types); fault strict-fields",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.sends-only-known-fields",
        profile: PICO,
        check: "ROBUST-UNKNOWN-FIELDS",
        runtime_does: "PicoClaw at this commit sends only the fields of its own types: refusing others breaks nothing today (a later PicoClaw may add some)",
        source: "measured: interop/fidelity.sh wire comparison (every request re-encoded by PicoClaw's types); fault strict-fields",
        covers: any,
    },
    Tolerance {
        id: "runok.sends-only-known-fields",
        profile: RUNOK,
        check: "ROBUST-UNKNOWN-FIELDS",
        runtime_does: "runok 0.3.1 sends only the six documented params: refusing others breaks nothing today (a later runok may add some)",
        source: "measured: interop/runok strict_fields_accepts_runok_because_it_sends_only_the_documented_fields",
        covers: any,
    },
    Tolerance {
        id: "promptkit.server-sends-only-execute",
        profile: PK,
        check: "JSONRPC-UNKNOWN-METHOD",
        runtime_does: "PromptKit's server mode sends only `execute`: how you answer another method cannot break it",
        source: "runtime/tools/server_executor.go (the only method written); interop/promptkit, fault ignore-unknown-method",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.sends-only-its-methods",
        profile: PICO,
        check: "JSONRPC-UNKNOWN-METHOD",
        runtime_does: "PicoClaw sends only hook.hello, its five hook methods and hook.runtime_event: how you answer another cannot break it",
        source: "pkg/agent/hook_process.go (every call and notify names its method); interop/picoclaw, fault ignore-unknown-method",
        covers: any,
    },
    Tolerance {
        id: "picoclaw.drops-replies-without-id",
        profile: PICO,
        check: "JSONRPC-NOTIFICATION-SILENT",
        runtime_does: "PicoClaw drops a line whose id is missing, 0 or null: a reply to a notification is ignored (on a line of its own)",
        source: "pkg/agent/hook_process.go readLoop (msg.ID == 0 is skipped); interop/picoclaw, fault reply-to-notification",
        covers: kept_apart,
    },
];

/// A tool answer with none of `result`, `error`, `pending` (as TOOL-RESPONSE-SHAPE words it).
fn no_known_key(f: &Failure) -> bool {
    matches!(f, Failure::Mismatch { actual, .. } if actual.starts_with("none of them") || actual == ONLY_A_NULL_ERROR)
}

/// How the tool shape check words `{"error": null}`: PromptKit reads a null
/// error as none, so the document is its result, whole.
pub const ONLY_A_NULL_ERROR: &str = "only a null error, which PromptKit reads as no error";

/// Whether `profile`'s runtime reads a reply carrying both `result` and
/// `error` as the error (the tolerances `promptkit.server-error-before-result`
/// and `picoclaw.error-wins`), so the rest of the run judges it as one.
pub fn reads_error_first(profile: Profile) -> bool {
    // Both tolerances of this check say the runtime takes the error.
    TOLERANCES.iter().any(|t| t.profile == profile && t.check == "JSONRPC-RESULT-XOR-ERROR")
}

/// Whether `profile`'s runtime reads output holding invalid UTF-8 (lossily),
/// so such a one-shot answer is still the answer it acts on.
pub fn reads_invalid_utf8(profile: Profile) -> bool {
    TOLERANCES.iter().any(|t| t.profile == profile && t.check == "FRAMING-UTF8")
}

/// Whether `profile`'s runtime starts a hook whose `hook.hello` result is
/// `null` (the tolerance `picoclaw.hello-result-ignored`).
pub fn ignores_hello_result(profile: Profile) -> bool {
    TOLERANCES.iter().any(|t| t.profile == profile && t.check == "LIFECYCLE-HANDSHAKE")
}

/// The tolerance `profile` has for `failure` of `check`, if any.
pub fn tolerated(profile: Profile, check: CheckId, failure: &Failure) -> Option<&'static Tolerance> {
    TOLERANCES.iter().find(|t| t.profile == profile && t.check == check && (t.covers)(failure))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tolerance_names_a_real_check_under_a_runtime_profile() {
        for t in TOLERANCES {
            assert!(super::super::lookup(t.check).is_some(), "{}: no check {}", t.id, t.check);
            assert_ne!(t.profile, Profile::Documented, "{}: documented enforces every documented rule", t.id);
            assert!(t.id.starts_with(t.profile.name().split('@').next().unwrap()), "{}", t.id);
        }
    }

    #[test]
    fn what_each_runtime_reads_anyway() {
        let utf8 = Failure::Framing { violation: crate::framing::Violation::NotUtf8 { offset: 3 } };
        for profile in [PK, PICO, RUNOK] {
            assert!(tolerated(profile, "FRAMING-UTF8", &utf8).is_some(), "{profile}");
            assert!(reads_invalid_utf8(profile), "{profile}");
        }
        assert!(tolerated(Profile::Documented, "FRAMING-UTF8", &utf8).is_none());
        let both = Failure::Mismatch { path: "$".into(), expected: "exactly one of result and error".into(), actual: "both".into() };
        let neither = Failure::Mismatch { path: "$".into(), expected: "exactly one of result and error".into(), actual: "neither".into() };
        assert_eq!(tolerated(PICO, "JSONRPC-RESULT-XOR-ERROR", &both).map(|t| t.id), Some("picoclaw.error-wins"));
        assert!(tolerated(PICO, "JSONRPC-RESULT-XOR-ERROR", &neither).is_none(), "neither is not read as anything");
        assert!(reads_error_first(PK) && reads_error_first(PICO) && !reads_error_first(RUNOK));
        let range = Failure::Mismatch { path: "$.score".into(), expected: "a number between 0 and 1".into(), actual: "number 1.5".into() };
        let text =
            Failure::Mismatch { path: "$.score".into(), expected: "a number between 0 and 1".into(), actual: "string \"0.5\"".into() };
        assert!(tolerated(PK, "EVAL-SCORE", &range).is_some());
        assert!(tolerated(PK, "EVAL-SCORE", &text).is_none(), "a string score is read as 0");
        let huge = Failure::Framing { violation: crate::framing::Violation::NumberOutOfRange { offset: 10, excerpt: "1e999".into() } };
        assert_eq!(tolerated(PK, "FRAMING-SINGLE-DOCUMENT", &huge).map(|t| t.id), Some("promptkit.keeps-raw-numbers"));
        let garbage = Failure::Framing { violation: crate::framing::Violation::Garbage { offset: 0, excerpt: "x".into() } };
        assert!(tolerated(PK, "FRAMING-SINGLE-DOCUMENT", &garbage).is_none());
        let note = |what: String| Failure::Unexpected { what };
        assert!(tolerated(PICO, "JSONRPC-NOTIFICATION-SILENT", &note("a reply to the notification: {}".into())).is_some());
        let glued = note(format!("a reply to the notification, {SWALLOWS_THE_NEXT_REPLY}: {{}}{{}}"));
        assert!(tolerated(PICO, "JSONRPC-NOTIFICATION-SILENT", &glued).is_none(), "the next reply is lost with the line");
    }
}
