//! The named ways the mock plugin can misbehave.
//!
//! Each fault exists to prove that one proctor check bites: run the mock with
//! the fault, and the check it names must fail, while every other check should
//! still pass. Faults combine freely; a fault that means nothing for a family
//! (a JSON-RPC envelope fault on a PromptKit one-shot tool, say) has no effect
//! there, and [`Fault::applies_to`] says so, so a harness can skip the pair
//! instead of expecting a failure that cannot happen.

use std::fmt;
use std::str::FromStr;

use proctor_conformance::protocol::{Family, Role, Transport, UnknownName};

/// What part of the exchange a fault breaks, for grouping in reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// Bytes on stdout: documents, lines, encodings, buffering.
    Framing,
    /// The JSON-RPC 2.0 envelope around an otherwise sensible reply.
    Envelope,
    /// Process lifecycle: handshake, exit, signals, leftover children.
    Lifecycle,
    /// The body of a reply: well-framed JSON with the wrong meaning or types.
    Semantics,
    /// Behaviour under load or unusual input: hangs, floods, strictness.
    Robustness,
}

/// Declares the fault enum, its kebab-case names and kinds in one table, so a
/// name can never be missing from [`Fault::ALL`] or from parsing.
macro_rules! faults {
    ($( $(#[doc = $doc:literal])* $kind:ident $variant:ident = $name:literal; )*) => {
        /// A named misbehaviour of the mock plugin (the string after `--fault`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Fault {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Fault {
            /// Every fault, in the order semantic faults are applied (later wins).
            pub const ALL: &'static [Fault] = &[$(Fault::$variant),*];

            /// The kebab-case name used on the command line and in reports.
            pub fn name(self) -> &'static str {
                match self { $(Fault::$variant => $name,)* }
            }

            /// What part of the exchange this fault breaks.
            pub fn kind(self) -> FaultKind {
                match self { $(Fault::$variant => FaultKind::$kind,)* }
            }

            /// Its documentation: what it breaks and how (`--list-faults`).
            fn doc(self) -> &'static str {
                match self { $(Fault::$variant => concat!($($doc, "\n"),*),)* }
            }
        }
    };
}

faults! {
    /// Trips "one-shot stdout is exactly one JSON document" (line protocols: each reply is written twice, tripping "no unsolicited or duplicate responses").
    Framing TwoDocuments = "two-documents";
    /// Trips "stdout carries only protocol messages": a log line precedes the reply (every reply on line protocols).
    Framing LogLine = "log-line";
    /// Trips "one-shot plugin writes a reply": nothing on stdout, exit 0.
    Framing EmptyOutput = "empty-output";
    /// Trips "one JSON message per line" on line protocols; one-shot hosts accept it, so it must pass there.
    Framing PrettyPrint = "pretty-print";
    /// Trips "every reply line is newline-terminated": the first reply lacks its newline and nothing follows.
    Framing PartialLine = "partial-line";
    /// Trips "one JSON message per line" (one-shot: "exactly one JSON document"): the first reply stops in the middle of its JSON, with no newline, and nothing follows.
    Framing TruncatedLine = "truncated-line";
    /// Trips "stdout is valid UTF-8": raw 0xff 0xfe bytes inside a JSON string.
    Framing InvalidUtf8 = "invalid-utf8";
    /// Trips "no byte-order mark": every reply starts with EF BB BF.
    Framing Bom = "bom";
    /// Trips "lines end in LF" (a warning at most: Go's scanner strips the CR).
    Framing Crlf = "crlf";
    /// Trips "replies are flushed promptly": everything is held until stdin closes.
    Framing NoFlush = "no-flush";
    /// Trips "reply lines fit the host's line limit" (PicoClaw: 1 MiB): each reply carries ~1.5 MiB of padding.
    Framing HugeLine = "huge-line";
    /// Trips "reply carries jsonrpc: 2.0": the member is omitted.
    Envelope NoJsonrpc = "no-jsonrpc";
    /// Trips "reply carries jsonrpc: 2.0": the member says "1.0".
    Envelope WrongVersion = "wrong-version";
    /// Trips "reply id matches the request id": id + 1000.
    Envelope WrongId = "wrong-id";
    /// Trips "no stray output" (line protocols): every reply is written twice, with the same id.
    Envelope DuplicateId = "duplicate-id";
    /// Trips "reply id keeps the request id's JSON type": a number comes back as a string.
    Envelope StringId = "string-id";
    /// Trips "result and error are mutually exclusive": both are present.
    Envelope BothResultError = "both-result-error";
    /// Trips "a response has result or error": neither is present.
    Envelope NeitherResultError = "neither-result-error";
    /// Trips "error objects have an integer code and a string message": code "oops", message 42.
    Envelope BadErrorObject = "bad-error-object";
    /// Trips "notifications get no reply": each notification is answered with id null.
    Envelope ReplyToNotification = "reply-to-notification";
    /// Trips "unknown methods get error -32601": no reply at all, so the host times out.
    Envelope IgnoreUnknownMethod = "ignore-unknown-method";
    /// Trips "hook answers hook.hello" (PicoClaw): the handshake never completes.
    Lifecycle NoHello = "no-hello";
    /// Trips "hook.hello succeeds" (PicoClaw): the handshake gets a JSON-RPC error.
    Lifecycle HelloError = "hello-error";
    /// Trips "plugin survives across requests" (one-shot: "exit status 0"): exit 1 after `crash_after` answers.
    Lifecycle CrashAfter = "crash-after";
    /// Trips "plugin exits when stdin closes": it sleeps an hour instead.
    Lifecycle IgnoreEof = "ignore-eof";
    /// Trips "one-shot plugin exits 0" (PromptKit exec): exit status 3 after a
    /// correct reply. Harmless elsewhere: runok, PromptKit server and PicoClaw
    /// never read the status of a plugin that answered.
    Lifecycle ExitNonzero = "exit-nonzero";
    /// Trips "request without trailing newline is read": like `while read`, the unterminated last line is lost.
    Lifecycle NeedsNewline = "needs-newline";
    /// Trips "no process outlives the plugin": a `sleep 45` child keeps stdout and stderr open.
    Lifecycle Grandchild = "grandchild";
    /// Trips "no process survives the plugin": starts `sleep 300` in a new session (setsid), out of
    /// the plugin's process group and detached from its pipes, so only proctor's descendant tracking can end it.
    Lifecycle EscapeSession = "escape-session";
    /// Trips "plugin stops on SIGTERM": SIGTERM is ignored, only SIGKILL ends it.
    Lifecycle IgnoreSigterm = "ignore-sigterm";
    /// Trips a tight startup deadline: nothing is read for 2 s (should pass with default deadlines).
    Lifecycle SlowStart = "slow-start";
    /// Trips "tool result is well-formed" (PromptKit exec tool): the answer is
    /// `{}`. A server-mode result is passed to the model as it is, so there it
    /// changes the bytes and breaks nothing.
    Semantics ToolEmpty = "tool-empty";
    /// Trips "tool answer has result or error, not both" (PromptKit exec tool):
    /// `{"result":1,"error":"x"}`; harmless in server mode, as [`Fault::ToolEmpty`].
    Semantics ToolBoth = "tool-both";
    /// Trips "pending carries a reason" (PromptKit tool): `{"pending":{"message":"m"}}`.
    Semantics PendingNoReason = "pending-no-reason";
    /// Trips "eval score is within 0..1": score 1.7.
    Semantics ScoreOutOfRange = "score-out-of-range";
    /// Trips "eval score is a JSON number": score "0.9".
    Semantics ScoreString = "score-string";
    /// Trips "allow is a boolean" (PromptKit filter hooks): `{"allow":"true"}`.
    Semantics AllowString = "allow-string";
    /// Trips "filter hook answers allow" (an ack reads as deny): `{"ack":true}`.
    Semantics AckOnly = "ack-only";
    /// Trips "a denial carries a reason": PromptKit `{"allow":false}`, PicoClaw deny_tool or approved false without reason.
    Semantics DenyNoReason = "deny-no-reason";
    /// Trips "session hook acknowledges" (PromptKit session hook): the answer is `{}`.
    Semantics NoAck = "no-ack";
    /// Trips "action is one of the known lowercase names" (PicoClaw): "Continue", capitalised.
    Semantics UnknownAction = "unknown-action";
    /// Trips "respond only in before_tool" (PicoClaw): every interceptor answers respond.
    Semantics RespondEverywhere = "respond-everywhere";
    /// Trips "modify payloads are whole, nested objects" (PicoClaw): flat after_tool/after_llm payloads, a call without tool.
    Semantics ModifyFlat = "modify-flat";
    /// Trips "modify carries a payload" (PicoClaw): `{"action":"modify"}` everywhere.
    Semantics ModifyEmpty = "modify-empty";
    /// Trips "respond carries a result" (PicoClaw before_tool): `{"action":"respond"}`.
    Semantics RespondNoResult = "respond-no-result";
    /// Trips "approve_tool answers approved" (PicoClaw): `{"reason":"x"}`, read as deny.
    Semantics ApproveMissing = "approve-missing";
    /// Trips "approved is a boolean" (PicoClaw): `{"approved":"true"}`.
    Semantics ApproveString = "approve-string";
    /// Trips "selected is a list of ids" (PromptKit selector): `"selected": "a,b"`.
    Semantics SelectorNotList = "selector-not-list";
    /// Trips "selected ids name candidates" (PromptKit selector): adds `no-such-candidate`.
    Semantics SelectorUnknownId = "selector-unknown-id";
    /// Trips "at most k selected" (PromptKit selector): every candidate, whatever k is.
    Semantics SelectorTooMany = "selector-too-many";
    /// Trips "reads the keys the runtime sends" (PromptKit selector): it reads the documented `id` and
    /// `k` only, so under PromptKit (`ID`, `K`) it selects nothing, as a selector written from the docs does.
    Semantics DocumentedKeysOnly = "documented-keys-only";
    /// Trips "status is allow, deny or ask in lowercase" (runok): "ALLOW".
    Semantics StatusUppercase = "status-uppercase";
    /// Trips "message is a string" (runok): `"message": 42`.
    Semantics MessageNumber = "message-number";
    /// Trips every request deadline: requests are read and never answered, and the process never exits on its own.
    Robustness Hang = "hang";
    /// Trips "unknown request fields are ignored": any key outside the documented set gets an error reply.
    Robustness StrictFields = "strict-fields";
    /// Trips "pipelined requests are all answered": only the first line of each 64 KiB read is handled.
    Robustness DropPipelined = "drop-pipelined";
    /// Trips "host drains stderr": 50 MiB of stderr before the first answer.
    Robustness StderrFlood = "stderr-flood";
    /// Trips "stdout stays within the size limit": 50 MiB of "x" without a newline before the first answer.
    Robustness StdoutFlood = "stdout-flood";
    /// Trips "never blocks on a pipe its runtime does not read" (PicoClaw): after the first answer,
    /// one stderr line of 1.1 MiB, past the 1 MiB at which PicoClaw's stderr reader stops for good.
    Robustness StderrLongLine = "stderr-long-line";
    /// Trips "never blocks on a pipe its runtime does not read" (runok): each reply carries 96 KiB
    /// of padding, more than the 64 KiB pipe buffer runok leaves unread until the exit.
    Robustness BigReply = "big-reply";
    /// Trips "every schema-valid tool call is answered" (`--fuzz`): exit 1 when a
    /// string in the tool arguments (`args`, PicoClaw `arguments`) contains `"`.
    Robustness CrashOnQuote = "crash-on-quote";
    /// Answers each request (after the handshake) 6 s late, past PicoClaw's 5 s
    /// interceptor deadline and proctor's default: the runtime must not hand the
    /// late reply to the next call.
    Robustness LateReply = "late-reply";
    /// Not a misbehaviour of its own: with it, the semantic faults apply only to
    /// requests whose JSON contains `proctor-mark`, so the built-in probes get
    /// well-behaved answers and only an author's case (or fuzz input) carrying
    /// the mark exercises the fault. Proves that checks judge case answers too.
    Robustness OnlyMarked = "only-marked";
}

/// The text that makes a request "marked" for [`Fault::OnlyMarked`].
pub const MARK: &str = "proctor-mark";

impl Fault {
    /// Whether the fault changes anything for a plugin of `family` playing `role`.
    ///
    /// `false` means the mock behaves exactly as without the fault, so a check
    /// cannot be expected to fail. (`only-marked` is the exception: it is
    /// listed everywhere so the fault corpus runs it alone, as harmless.)
    pub fn applies_to(self, family: Family, role: Role) -> bool {
        use Fault::*;
        if family.is_agent_hook() {
            // The mock plugin plays the JSON protocols only; a command hook is a script.
            return false;
        }
        let one_shot = family.transport() == Transport::OneShot;
        let silent = family == Family::PromptkitExec && role == Role::EvalHook;
        match self {
            EmptyOutput | NeedsNewline => one_shot,
            PartialLine | NoFlush | DropPipelined => !one_shot,
            TwoDocuments | LogLine | PrettyPrint | InvalidUtf8 | Bom | Crlf | HugeLine | TruncatedLine => !silent,
            DuplicateId | LateReply => family.is_jsonrpc(),
            NoJsonrpc | WrongVersion | WrongId | StringId | BothResultError | NeitherResultError | BadErrorObject | ReplyToNotification
            | IgnoreUnknownMethod => family.is_jsonrpc(),
            NoHello | HelloError => family == Family::PicoclawHook,
            CrashAfter | IgnoreEof | ExitNonzero | Grandchild | EscapeSession | IgnoreSigterm | SlowStart => true,
            Hang | StderrFlood | StdoutFlood => true,
            StderrLongLine => family == Family::PicoclawHook,
            BigReply => family == Family::RunokExtension,
            StrictFields => !silent,
            CrashOnQuote => matches!(role, Role::Tool | Role::ToolMode | Role::Approve),
            // A modifier: the fault corpus holds that alone it is harmless.
            OnlyMarked => true,
            ToolEmpty | ToolBoth => role == Role::Tool,
            PendingNoReason => family == Family::PromptkitExec && role == Role::Tool,
            ScoreOutOfRange | ScoreString => role == Role::Eval,
            AllowString | AckOnly => matches!(role, Role::ProviderHook | Role::ToolHook),
            DenyNoReason => matches!(role, Role::ProviderHook | Role::ToolHook | Role::ToolMode | Role::Approve),
            NoAck => role == Role::SessionHook,
            UnknownAction | RespondEverywhere | ModifyFlat | ModifyEmpty => {
                matches!(role, Role::Llm | Role::ToolMode)
            }
            RespondNoResult => role == Role::ToolMode,
            ApproveMissing | ApproveString => role == Role::Approve,
            StatusUppercase | MessageNumber => family == Family::RunokExtension,
            SelectorNotList | SelectorUnknownId | SelectorTooMany | DocumentedKeysOnly => {
                family == Family::PromptkitExec && role == Role::Selector
            }
        }
    }

    /// Whether the fault changes anything for some role of `family`.
    pub fn applies_to_family(self, family: Family) -> bool {
        family.roles().iter().any(|&role| self.applies_to(family, role))
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fault {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Fault::ALL.iter().copied().find(|f| f.name() == s).ok_or_else(|| UnknownName {
            what: "fault",
            given: s.to_string(),
            expected: Fault::ALL.iter().map(|f| f.name()).collect(),
        })
    }
}

impl Fault {
    /// What the fault does, on one line: its documentation with the lines
    /// joined (the doc comments above are the one source).
    pub fn description(self) -> String {
        self.doc().split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_fault_round_trips_through_its_name() {
        for &fault in Fault::ALL {
            assert_eq!(fault.name().parse::<Fault>().unwrap(), fault);
            assert_eq!(fault.to_string(), fault.name());
        }
        let names: HashSet<_> = Fault::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names.len(), Fault::ALL.len(), "duplicate fault names");
    }

    #[test]
    fn names_are_kebab_case() {
        for fault in Fault::ALL {
            let name = fault.name();
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !name.starts_with('-')
                    && !name.ends_with('-'),
                "{name}"
            );
        }
    }

    #[test]
    fn unknown_name_lists_the_valid_ones() {
        let err = "hangs".parse::<Fault>().unwrap_err();
        let text = err.to_string();
        assert!(text.contains("unknown fault `hangs`"), "{text}");
        assert!(text.contains("hang,") || text.contains("hang"), "{text}");
        assert!(text.contains("stdout-flood"), "{text}");
    }

    #[test]
    fn every_fault_applies_to_some_family() {
        for &fault in Fault::ALL {
            assert!(Family::ALL.iter().any(|&f| fault.applies_to_family(f)), "{fault} applies nowhere");
        }
        assert!(!Fault::WrongId.applies_to_family(Family::PromptkitExec));
        assert!(Fault::WrongId.applies_to_family(Family::RunokExtension));
        assert!(!Fault::NoHello.applies_to(Family::PromptkitServer, Role::Tool));
        assert!(Fault::ScoreString.applies_to(Family::PromptkitExec, Role::Eval));
        assert!(!Fault::ScoreString.applies_to(Family::PromptkitExec, Role::Tool));
    }
}
