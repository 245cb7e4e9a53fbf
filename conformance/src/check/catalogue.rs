//! Every check proctor can run, declared once.
//!
//! Ids are stable: reports, baselines and CI filters key on them. A check's
//! level comes from the spec's wording or from what breaks the real runtime;
//! `spec` says which passage or which runtime behaviour it protects, and
//! `hint` is the one-line fix shown with every failure.

use serde::Serialize;

use crate::protocol::{Family, Role};

/// A check's stable identifier, e.g. `JSONRPC-ID-ECHO`.
pub type CheckId = &'static str;

/// How much a check matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// A failure makes the plugin nonconformant.
    Must,
    /// A failure is a warning.
    Should,
}

/// The family of checks, for grouping in reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// How bytes are framed on stdout.
    Framing,
    /// The JSON-RPC 2.0 envelope.
    Jsonrpc,
    /// Start, stay alive, exit.
    Lifecycle,
    /// What the answers mean for the plugin's role.
    Semantics,
    /// Deadlines, load, unexpected input.
    Robustness,
    /// The author's own `--cases`.
    Cases,
    /// What a runtime sent to plugins (`proctor verify`), not what a plugin did.
    Runtime,
}

impl Group {
    /// Heading used in text reports.
    pub fn title(self) -> &'static str {
        match self {
            Group::Framing => "Framing",
            Group::Jsonrpc => "JSON-RPC envelope",
            Group::Lifecycle => "Lifecycle",
            Group::Semantics => "Role semantics",
            Group::Robustness => "Robustness",
            Group::Cases => "Cases",
            Group::Runtime => "Runtime (what the runtime sent)",
        }
    }
}

/// Which roles of its families a check applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every role.
    AnyRole,
    /// Only plugins taking one of these roles.
    Only(&'static [Role]),
    /// Every role but these.
    Except(&'static [Role]),
}

/// One check of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CheckDef {
    /// Stable id.
    pub id: CheckId,
    /// Report group.
    pub group: Group,
    /// `must` or `should`.
    pub level: Level,
    /// Families it applies to.
    #[serde(serialize_with = "family_names")]
    pub families: &'static [Family],
    /// Roles it applies to within those families.
    #[serde(skip)]
    pub scope: Scope,
    /// The spec passage or runtime behaviour it protects.
    pub spec: &'static str,
    /// What it requires, in one sentence.
    pub summary: &'static str,
    /// The one-line fix for a failure.
    pub hint: &'static str,
}

fn family_names<S: serde::Serializer>(families: &&'static [Family], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(families.iter().map(|f| f.name()))
}

impl CheckDef {
    /// Whether this check applies to a plugin of `family` taking `roles`.
    pub fn applies(&self, family: Family, roles: &[Role]) -> bool {
        self.families.contains(&family)
            && match self.scope {
                Scope::AnyRole => true,
                Scope::Only(only) => roles.iter().any(|r| only.contains(r)),
                Scope::Except(except) => roles.iter().any(|r| !except.contains(r)),
            }
    }
}

/// The checks that judge what a plugin writes on stdout: the ones a plugin
/// whose stdout the runtime discards is spared (an eval hook always; a
/// PromptKit session hook under its runtime profile).
pub fn answer_checks() -> impl Iterator<Item = CheckId> {
    CATALOGUE.iter().filter(|c| c.scope == WRITES_ANSWERS).map(|c| c.id)
}

/// The check with this id.
pub fn lookup(id: &str) -> Option<&'static CheckDef> {
    CATALOGUE.iter().find(|c| c.id == id)
}

use Family::{
    ClaudeCodeHook as CLAUDE, CodexHook as CODEX, PicoclawHook as PICO, PromptkitExec as EXEC, PromptkitServer as SERVER,
    RunokExtension as RUNOK,
};

const ALL: &[Family] = &Family::ALL;
/// The families whose answers are JSON documents or lines (an agent hook's stdout may be plain
/// text), and which `proctor verify` watches a runtime speak.
const JSON_ANSWERS: &[Family] = &[EXEC, SERVER, PICO, RUNOK];
/// Coding agents' command hooks.
const AGENT_HOOKS: &[Family] = &[CLAUDE, CODEX];
const ONE_SHOT: &[Family] = &[EXEC, RUNOK];
const LINES: &[Family] = &[SERVER, PICO];
const RPC: &[Family] = &[SERVER, PICO, RUNOK];
/// PromptKit discards an eval hook's stdout, so output checks do not apply to it.
const WRITES_ANSWERS: Scope = Scope::Except(&[Role::EvalHook]);
const FILTER_HOOKS: &[Role] = &[Role::ProviderHook, Role::ToolHook];
const INTERCEPTORS: &[Role] = &[Role::Llm, Role::ToolMode];

/// The catalogue, in report order.
pub static CATALOGUE: &[CheckDef] = &[
    // ── Framing ─────────────────────────────────────────────────────────
    CheckDef {
        id: "FRAMING-SINGLE-DOCUMENT",
        group: Group::Framing,
        level: Level::Must,
        families: ONE_SHOT,
        scope: WRITES_ANSWERS,
        spec: "promptkit-exec-protocol.txt#one-shot-mode; runok-extension-protocol.txt#response",
        summary: "stdout holds exactly one JSON document: not empty, no log line, no second document",
        hint: "Write exactly one JSON document to stdout and send every log line to stderr.",
    },
    CheckDef {
        id: "FRAMING-LINE-PER-MESSAGE",
        group: Group::Framing,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "picoclaw-hook-protocol.md (\"one JSON message per line\"); promptkit-exec-protocol.txt#server-mode-json-rpc-20",
        summary: "every stdout line is one complete JSON object",
        hint: "Serialise each reply on one line (json.dumps(obj), no indent) and end it with \\n.",
    },
    CheckDef {
        id: "FRAMING-NO-STRAY-OUTPUT",
        group: Group::Framing,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "promptkit@86d9f36 runtime/tools/server_executor.go reads one line per call: a stray line shifts every later reply",
        summary: "stdout carries replies only: no banner, log line or blank line",
        hint: "Log to stderr; one stray stdout line desynchronises PromptKit's server mode for good.",
    },
    CheckDef {
        id: "FRAMING-COMPACT",
        group: Group::Framing,
        level: Level::Should,
        families: JSON_ANSWERS,
        scope: WRITES_ANSWERS,
        spec: "promptkit-exec-protocol.txt (\"a single JSON object\"); line protocols need one object per line",
        summary: "replies are compact JSON, not pretty-printed across lines",
        hint: "Drop pretty-printing: json.dumps(obj, separators=(\",\", \":\")).",
    },
    CheckDef {
        id: "FRAMING-UTF8",
        group: Group::Framing,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: WRITES_ANSWERS,
        spec: "runok-extension-protocol.txt#transport (UTF-8); RFC 8259 §8.1",
        summary: "output is valid UTF-8",
        hint: "Encode stdout as UTF-8 and never write raw bytes into JSON strings.",
    },
    CheckDef {
        id: "FRAMING-NO-BOM",
        group: Group::Framing,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: WRITES_ANSWERS,
        spec: "RFC 8259 §8.1; Go encoding/json and serde_json both reject a leading BOM",
        summary: "output does not start with a byte-order mark",
        hint: "Write UTF-8 without a BOM (encoding \"utf-8\", not \"utf-8-sig\").",
    },
    CheckDef {
        id: "FRAMING-LF-ENDINGS",
        group: Group::Framing,
        level: Level::Should,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "picoclaw-hook-protocol.md (one message per line); Go bufio.ScanLines tolerates \\r\\n, other readers do not",
        summary: "lines end in \\n, not \\r\\n",
        hint: "End lines with \\n only (open stdout with newline=\"\\n\").",
    },
    CheckDef {
        id: "FRAMING-FLUSHED",
        group: Group::Framing,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "long-lived JSON-RPC: the runtime waits for each reply while stdin stays open",
        summary: "each reply is flushed as soon as it is written, not when stdin closes",
        hint: "stdout is block-buffered on a pipe: flush after every line (print(..., flush=True) or python3 -u).",
    },
    CheckDef {
        id: "FRAMING-LINE-SIZE",
        group: Group::Framing,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "picoclaw@cf67dd3 pkg/agent/hook_process.go: 1 MiB line buffer; promptkit@86d9f36 server_executor.go: 10 MiB",
        summary: "reply lines fit the runtime's line buffer (PicoClaw 1 MiB, PromptKit 10 MiB)",
        hint: "Do not echo whole requests back; a longer line wedges the runtime's reader until restart.",
    },
    CheckDef {
        id: "AGENT-HOOK-STDOUT-JSON",
        group: Group::Framing,
        level: Level::Must,
        families: AGENT_HOOKS,
        scope: Scope::AnyRole,
        spec: "code.claude.com/docs/en/hooks#json-output (stdout must contain only the JSON object); developers.openai.com/codex/hooks (stdout that starts with `{` or `[` must parse as the output object)",
        summary: "stdout on exit 0 is one JSON object and nothing else, or plain text with no JSON decision in it",
        hint: "Print the decision as the only thing on stdout and send banners, logs and debug output to stderr: a line before the JSON turns the whole stdout into plain text, and the decision in it is ignored.",
    },
    // ── JSON-RPC envelope ───────────────────────────────────────────────
    CheckDef {
        id: "JSONRPC-VERSION",
        group: Group::Jsonrpc,
        level: Level::Must,
        families: RPC,
        scope: Scope::AnyRole,
        spec: "picoclaw-hook-protocol.md#basic-protocol-structure; runok-extension-protocol.txt#response; JSON-RPC 2.0 §5",
        summary: "every reply carries \"jsonrpc\": \"2.0\"",
        hint: "Add \"jsonrpc\": \"2.0\" to every reply.",
    },
    CheckDef {
        id: "JSONRPC-NO-DUPLICATE-REPLY",
        group: Group::Jsonrpc,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "JSON-RPC 2.0 §5 (one response per request)",
        summary: "each request gets exactly one reply: no second reply to a request already answered",
        hint: "Write each reply once: a retry or a second print of the same reply is read as the answer to the next request by a runtime that reads one line per call.",
    },
    CheckDef {
        id: "JSONRPC-ID-ECHO",
        group: Group::Jsonrpc,
        level: Level::Must,
        families: RPC,
        scope: Scope::AnyRole,
        spec: "JSON-RPC 2.0 §5; picoclaw@cf67dd3 and promptkit@86d9f36 match replies by integer id only",
        summary: "the reply's id equals the request's, with the same value and JSON type",
        hint: "Copy the request id into the reply unchanged; never turn it into a string.",
    },
    CheckDef {
        id: "JSONRPC-RESULT-XOR-ERROR",
        group: Group::Jsonrpc,
        level: Level::Must,
        families: RPC,
        scope: Scope::AnyRole,
        spec: "JSON-RPC 2.0 §5 (\"result\" and \"error\" must not both exist); promptkit-exec-protocol.txt#json-rpc-response",
        summary: "a reply has exactly one of result and error",
        hint: "Send either \"result\" or \"error\", never both and never neither.",
    },
    CheckDef {
        id: "JSONRPC-ERROR-SHAPE",
        group: Group::Jsonrpc,
        level: Level::Must,
        families: RPC,
        scope: Scope::AnyRole,
        spec: "JSON-RPC 2.0 §5.1; promptkit-exec-protocol.txt#json-rpc-response (error.code integer, error.message string)",
        summary: "an error has an integer code and a string message",
        hint: "Answer errors as {\"code\": -32601, \"message\": \"method not found\"}.",
    },
    CheckDef {
        id: "JSONRPC-NOTIFICATION-SILENT",
        group: Group::Jsonrpc,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::AnyRole,
        spec: "picoclaw-hook-protocol.md#7-hookevent-notification (\"no response required\"); JSON-RPC 2.0 §4.1",
        summary: "no reply to a notification (a message without an id)",
        hint: "Do not answer messages that have no id.",
    },
    CheckDef {
        id: "JSONRPC-UNKNOWN-METHOD",
        group: Group::Jsonrpc,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "JSON-RPC 2.0 §5.1 (-32601 Method not found); a silent plugin stalls the runtime until its deadline",
        summary: "a request for an unknown method gets an error reply, not silence",
        hint: "Answer unknown methods with error -32601 instead of ignoring them.",
    },
    // ── Lifecycle ───────────────────────────────────────────────────────
    CheckDef {
        id: "LIFECYCLE-HANDSHAKE",
        group: Group::Lifecycle,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::AnyRole,
        spec: "picoclaw-hook-protocol.md#1-hookhello-handshake; picoclaw@cf67dd3 fails hook start-up on an error or non-object result",
        summary: "answers hook.hello with a result object",
        hint: "Answer hook.hello with {\"ok\": true, \"name\": \"...\"}; PicoClaw will not start its agent loop otherwise.",
    },
    CheckDef {
        id: "LIFECYCLE-STAYS-ALIVE",
        group: Group::Lifecycle,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "promptkit-exec-protocol.txt#server-mode (\"the process stays alive across invocations\"); neither runtime restarts a dead plugin",
        summary: "keeps running and answering after a reply",
        hint: "Loop over stdin until EOF; never exit after one request.",
    },
    CheckDef {
        id: "LIFECYCLE-EXIT-ON-EOF",
        group: Group::Lifecycle,
        level: Level::Must,
        families: ALL,
        scope: Scope::AnyRole,
        spec: "PicoClaw and PromptKit's server mode close stdin, wait 2 s, then SIGKILL; PromptKit's one-shot surfaces, runok and both agents take the answer only at the exit, within the request deadline (measured in interop/: FIDELITY.md)",
        summary: "exits by itself once stdin is closed: within the shutdown deadline, or (where the runtime takes the answer at the exit) within the request's",
        hint: "Exit when stdin reaches EOF (and after answering, for one-shot plugins).",
    },
    CheckDef {
        id: "LIFECYCLE-EXIT-ZERO",
        group: Group::Lifecycle,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::AnyRole,
        spec: "promptkit-exec-protocol.txt#one-shot-mode (\"exit: 0 = success\"); a non-zero exit discards stdout",
        summary: "a one-shot plugin that answered exits with status 0",
        hint: "Exit 0 whenever you wrote an answer; report failures inside the JSON.",
    },
    CheckDef {
        id: "LIFECYCLE-READS-TO-EOF",
        group: Group::Lifecycle,
        level: Level::Must,
        families: ONE_SHOT,
        scope: Scope::AnyRole,
        spec: "promptkit@86d9f36 and runok@0.3.1 write the request with no trailing newline, then close stdin",
        summary: "answers the same request alike with and without a trailing newline",
        hint: "Read stdin to EOF (sys.stdin.read(), $(cat)); a `while read` loop drops a request without a final newline.",
    },
    CheckDef {
        id: "LIFECYCLE-NO-LEFTOVER",
        group: Group::Lifecycle,
        level: Level::Must,
        families: ALL,
        scope: Scope::AnyRole,
        spec: "runok@0.3.1 reads stdout to EOF, so a grandchild holding it hangs runok; PromptKit's exec hooks fail 500 ms after the exit while a child holds stdout or stderr (WaitDelay), its exec tools wait for it; Codex waits for stdout to close; measured in interop/ (FIDELITY.md)",
        summary: "leaves no process behind holding its pipes or running in its group",
        hint: "Wait for child processes before exiting, and do not let them inherit stdout/stderr.",
    },
    CheckDef {
        id: "AGENT-HOOK-EXIT-STATUS",
        group: Group::Lifecycle,
        level: Level::Must,
        families: AGENT_HOOKS,
        scope: Scope::AnyRole,
        spec: "code.claude.com/docs/en/hooks#exit-code-output (0: stdout read; 2: blocking error; any other: non-blocking error; claude-code@2.1.332 still acts on a valid JSON object then, and reports a hook error); developers.openai.com/codex/hooks (the same codes; codex@0.171.0 reports other codes as `hook: EVENT Failed`)",
        summary: "exits 0 (the agent reads stdout) or 2 (a block with its reason on stderr), never another status",
        hint: "Catch your own errors and exit 0 (nothing to say) or 2 (block, reason on stderr): any other status is a hook error the agent steps over, so your check never happened. A crash on a real payload (a KeyError) is the usual cause.",
    },
    // ── Role semantics ──────────────────────────────────────────────────
    CheckDef {
        id: "GO-DECODE",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC, SERVER, PICO],
        scope: Scope::Except(&[Role::SessionHook, Role::EvalHook]),
        spec: "runtime behaviour: the runtime's json.Unmarshal into its own reply type (conformance/src/protocol/reply_types.rs, divergences promptkit.go-json-replies and picoclaw.go-json-replies)",
        summary: "the runtime's own decoder (Go's encoding/json into its reply type) accepts the reply",
        hint: "Every field must have the JSON type the runtime's struct declares (a bool is true/false, not \"true\"; an id is an integer, not 1.0 or \"1\"; numbers fit a float64), and nothing may follow the document.",
    },
    CheckDef {
        id: "GO-READS-AS-DOCUMENTED",
        group: Group::Semantics,
        level: Level::Should,
        families: &[EXEC, PICO],
        scope: Scope::Except(&[Role::SessionHook, Role::EvalHook]),
        spec: "runtime behaviour: the runtime's json.Unmarshal reads keys in any case and ignores shape rules (divergences promptkit.go-json-replies, picoclaw.go-json-replies)",
        summary: "the runtime reads the answer as the documents do (a warning when it works there only because Go's decoder is lenient)",
        hint: "Write the keys exactly as documented and keep to the documented shape: another runtime, or the next release, may read it strictly.",
    },
    CheckDef {
        id: "TOOL-RESPONSE-SHAPE",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::Only(&[Role::Tool]),
        spec: "promptkit-exec-protocol.txt#tool-protocol",
        summary: "a tool answers exactly one of result, error (a string) or pending",
        hint: "Answer {\"result\": ...}, {\"error\": \"message\"} or {\"pending\": {...}}: exactly one key.",
    },
    CheckDef {
        id: "SELECTOR-RESPONSE-SHAPE",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::Only(&[Role::Selector]),
        spec: "promptkit@86d9f36 runtime/selection/exec_client.go (execResponse{Selected []string, Reason})",
        summary: "a selector answers {\"selected\": [ids…]}: a list of strings",
        hint: "Answer {\"selected\": [\"id\", …]} with candidate ids as strings; PromptKit includes every candidate when it cannot read the answer.",
    },
    CheckDef {
        id: "SELECTOR-KNOWN-IDS",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::Only(&[Role::Selector]),
        spec: "promptkit@86d9f36 runtime/selection/selector.go (Candidate.ID) and runtime/selection/exec_client.go (execResponse.Selected: candidate ids)",
        summary: "every selected id is one of the request's candidates, named once (an empty candidate list gets an empty selection)",
        hint: "Pick ids from the request's candidates only (PromptKit sends them as `ID`, the docs as `id`); read both.",
    },
    CheckDef {
        id: "SELECTOR-AT-MOST-K",
        group: Group::Semantics,
        level: Level::Should,
        families: &[EXEC],
        scope: Scope::Only(&[Role::Selector]),
        spec: "promptkit@86d9f36 runtime/selection/selector.go (Query.K: desired max results)",
        summary: "a selector selects at most k candidates",
        hint: "Truncate your ranking to the query's k (`K` as PromptKit sends it).",
    },
    CheckDef {
        id: "PROMPTKIT-KEY-SPELLING",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::Only(&[Role::ProviderHook, Role::ToolHook, Role::SessionHook, Role::Selector, Role::Eval]),
        spec: "promptkit@86d9f36 sends hook payloads and selector queries with Go field names (runtime/hooks/exec_hooks.go, runtime/selection/exec_client.go: no json tags); the documents spell them in snake_case",
        summary: "answers a probe as it answers the same content in the other profile's key spelling, unless it answers this spelling as it answers an empty request",
        hint: "Your plugin reads keys this profile's runtime does not send, so it sees an empty request: read both spellings (`request.get(\"text\") or request.get(\"Text\")`), as examples/promptkit-exec/rerank_selector.py does.",
    },
    CheckDef {
        id: "TOOL-PENDING-SHAPE",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::Only(&[Role::Tool]),
        spec: "promptkit-exec-protocol.txt#tool-protocol (pending: reason, message)",
        summary: "pending carries a string reason and a string message",
        hint: "Answer {\"pending\": {\"reason\": \"requires_approval\", \"message\": \"...\"}}.",
    },
    CheckDef {
        id: "EVAL-SCORE",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::Only(&[Role::Eval]),
        spec: "promptkit-exec-protocol.txt#eval-protocol (score: float 0.0—1.0)",
        summary: "an eval answers a numeric score between 0 and 1",
        hint: "Answer {\"score\": 0.85} with a JSON number in [0, 1] (not a string).",
    },
    CheckDef {
        id: "HOOK-ALLOW-BOOLEAN",
        group: Group::Semantics,
        level: Level::Must,
        families: &[EXEC],
        scope: Scope::Only(FILTER_HOOKS),
        spec: "promptkit-exec-protocol.txt#hook-response; promptkit@86d9f36 denies any reply without allow: true",
        summary: "a filter hook answers a boolean allow",
        hint: "Answer {\"allow\": true} or {\"allow\": false, \"reason\": \"...\"}; {\"ack\": true} denies in filter mode.",
    },
    CheckDef {
        id: "HOOK-DENY-REASON",
        group: Group::Semantics,
        level: Level::Should,
        families: &[EXEC, PICO],
        scope: Scope::Only(&[Role::ProviderHook, Role::ToolHook, Role::ToolMode, Role::Approve]),
        spec: "promptkit-exec-protocol.txt#hook-response (reason when allow is false); picoclaw-hook-protocol.md#4-hookbefore_tool",
        summary: "a denial says why",
        hint: "Add a \"reason\" to every denial; it is what the user and the LLM are told.",
    },
    CheckDef {
        id: "HOOK-OBSERVE-ACK",
        group: Group::Semantics,
        level: Level::Should,
        families: &[EXEC],
        scope: Scope::Only(&[Role::SessionHook]),
        spec: "promptkit-exec-protocol.txt#hook-response (observe mode: {\"ack\": true})",
        summary: "a session hook acknowledges with {\"ack\": true}",
        hint: "Answer {\"ack\": true}.",
    },
    CheckDef {
        id: "PICOCLAW-ACTION",
        group: Group::Semantics,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::Only(INTERCEPTORS),
        spec: "picoclaw-hook-protocol.md#action-options; picoclaw@cf67dd3 discards a reply whose action is unknown for the stage",
        summary: "the action is one PicoClaw knows and allows for the method",
        hint: "Use lower-case actions; respond and deny_tool only in hook.before_tool.",
    },
    CheckDef {
        id: "PICOCLAW-MODIFY-PAYLOAD",
        group: Group::Semantics,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::Only(INTERCEPTORS),
        spec: "picoclaw-hook-protocol.md#4-hookbefore_tool; picoclaw@cf67dd3 pkg/agent/hook_process.go result types (whole, nested payloads)",
        summary: "modify carries the whole payload it replaces, in the shape the runtime decodes",
        hint: "With modify, send the full object back (before_tool: call.tool and call.arguments; after_tool: result.result).",
    },
    CheckDef {
        id: "PICOCLAW-RESPOND-RESULT",
        group: Group::Semantics,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::Only(&[Role::ToolMode]),
        spec: "picoclaw-hook-protocol.md#response-return-result-directly---respond",
        summary: "respond carries a tool result with a string for_llm",
        hint: "Answer {\"action\": \"respond\", \"result\": {\"for_llm\": \"...\"}}.",
    },
    CheckDef {
        id: "PICOCLAW-APPROVE-BOOLEAN",
        group: Group::Semantics,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::Only(&[Role::Approve]),
        spec: "picoclaw-hook-protocol.md#6-hookapprove_tool; picoclaw@cf67dd3 treats a missing approved as a denial",
        summary: "approve_tool answers a boolean approved",
        hint: "Answer {\"approved\": true} or {\"approved\": false, \"reason\": \"...\"}.",
    },
    CheckDef {
        id: "RUNOK-STATUS",
        group: Group::Semantics,
        level: Level::Must,
        families: &[RUNOK],
        scope: Scope::AnyRole,
        spec: "runok-extension-protocol.txt#result-fields (status: allow, deny or ask; matched case-sensitively)",
        summary: "result.status is exactly allow, deny or ask",
        hint: "Answer \"status\": \"allow\" | \"deny\" | \"ask\" in lower case; anything else becomes ask.",
    },
    CheckDef {
        id: "RUNOK-OPTIONAL-STRINGS",
        group: Group::Semantics,
        level: Level::Must,
        families: &[RUNOK],
        scope: Scope::AnyRole,
        spec: "runok-extension-protocol.txt#result-fields (message, fix_suggestion: string, optional)",
        summary: "message and fix_suggestion are strings when present",
        hint: "Send message and fix_suggestion as strings, or leave them out.",
    },
    CheckDef {
        id: "RUNOK-EXACT-KEYS",
        group: Group::Semantics,
        level: Level::Must,
        families: &[RUNOK],
        scope: Scope::AnyRole,
        spec: "runok-extension-protocol.txt#result-fields (status, message, fix_suggestion; runok decodes with serde, which matches keys exactly: src/exec/extension_runner.rs:22-28)",
        summary: "no key of result is a known field spelt another way (Message, fixSuggestion), which runok ignores",
        hint: "Spell the keys exactly status, message and fix_suggestion: runok reads no other spelling, so the user never sees a `Message` or a `fixSuggestion`.",
    },
    CheckDef {
        id: "RUNOK-DECODE",
        group: Group::Semantics,
        level: Level::Must,
        families: &[RUNOK],
        scope: Scope::AnyRole,
        spec: "runtime behaviour: runok's serde_json::from_str into its JsonRpcResponse (src/exec/extension_runner.rs:144-162; divergence runok.serde-json-replies)",
        summary: "runok's own decoder (serde_json into its response type) reads the reply and finds a result or an error",
        hint: "Write one JSON document and nothing after it but whitespace, each key once and spelt exactly (`result`, `status`), status as a string, and `result` as an object; runok asks the user whenever it cannot read the reply.",
    },
    CheckDef {
        id: "AGENT-HOOK-EXIT2-STDERR",
        group: Group::Semantics,
        level: Level::Must,
        families: AGENT_HOOKS,
        scope: Scope::AnyRole,
        spec: "code.claude.com/docs/en/hooks#exit-code-2-behavior (stderr is fed back; stdout is not); developers.openai.com/codex/hooks (codex@0.171.0: exit 2 without stderr fails open, `did not write a blocking reason to stderr`)",
        summary: "exit 2 comes with the reason on stderr",
        hint: "Write the reason to stderr before `exit 2` (`print(reason, file=sys.stderr)`, `echo \"$reason\" >&2`): after exit 2 Claude Code tells the model only \"No stderr output\", and Codex runs the tool anyway.",
    },
    CheckDef {
        id: "AGENT-HOOK-OUTPUT-SCHEMA",
        group: Group::Semantics,
        level: Level::Must,
        families: AGENT_HOOKS,
        scope: Scope::AnyRole,
        spec: "code.claude.com/docs/en/hooks#common-json-fields (claude-code@2.1.332 validates each field's type: `Hook JSON output validation failed`); developers.openai.com/codex/hooks (codex@0.171.0's output schemas set additionalProperties: false)",
        summary: "the JSON object holds only the fields the agent's output schema has for the event, each of its type",
        hint: "Write only the documented fields (decision, reason, continue, systemMessage, hookSpecificOutput …) with their types; never echo the payload back. Codex refuses the whole output for one unknown key, and the hook's decision is lost.",
    },
    CheckDef {
        id: "AGENT-HOOK-EVENT-NAME",
        group: Group::Semantics,
        level: Level::Must,
        families: AGENT_HOOKS,
        scope: Scope::AnyRole,
        spec: "code.claude.com/docs/en/hooks#hookspecificoutput (hookEventName is required, and must name the event); developers.openai.com/codex/hooks (codex@0.171.0 requires it)",
        summary: "hookSpecificOutput names the event it answers in hookEventName",
        hint: "Add `\"hookEventName\": \"<the event>\"` to hookSpecificOutput, copied from the payload's hook_event_name: without it both agents report a hook error and drop the decision.",
    },
    CheckDef {
        id: "AGENT-HOOK-BLOCK-REASON",
        group: Group::Semantics,
        level: Level::Must,
        families: AGENT_HOOKS,
        scope: Scope::AnyRole,
        spec: "code.claude.com/docs/en/hooks#pretooluse-decision-control (permissionDecisionReason: shown to Claude on deny; claude-code@2.1.332 says \"Blocked by hook\" without one); developers.openai.com/codex/hooks (a block needs a non-empty reason; codex@0.171.0 fails the run without one)",
        summary: "a block or deny written as JSON gives a non-empty reason",
        hint: "Give every block a reason (`reason`, or `permissionDecisionReason` for a deny): the model needs it to change course, Claude Code tells it only \"Blocked by hook\" without one, and Codex does not block at all.",
    },
    CheckDef {
        id: "AGENT-HOOK-SUPPORTED-OUTPUT",
        group: Group::Semantics,
        level: Level::Must,
        families: &[CODEX],
        scope: Scope::AnyRole,
        spec: "developers.openai.com/codex/hooks (on PreToolUse codex@0.171.0 refuses permissionDecision allow without updatedInput and ask, decision approve, continue:false, suppressOutput, stopReason; on PostToolUse suppressOutput and updatedMCPToolOutput; on PermissionRequest continue:false, stopReason, suppressOutput, updatedInput, updatedPermissions, interrupt)",
        summary: "the output uses only what Codex acts on for the event",
        hint: "Under Codex, block with a reason and otherwise say nothing (exit 0, empty stdout): `allow` (without updatedInput), `ask`, `approve` and `continue: false` on a tool call make the hook run fail, and the tool runs.",
    },
    // ── Robustness ──────────────────────────────────────────────────────
    CheckDef {
        id: "ROBUST-DEADLINE",
        group: Group::Robustness,
        level: Level::Must,
        families: ALL,
        scope: Scope::AnyRole,
        spec: "each runtime's own deadline per surface (`proctor checks` lists them with their sources): PromptKit exec hooks and selectors 10 s, eval hooks 5 s, evals and tools 30 s, a server's start and calls 30 s; PicoClaw interceptors 5 s, approvals 60 s; runok 5 s; Claude Code hooks 60 s, Codex hooks 600 s; documented 5 s; --timeout-ms sets your configuration's",
        summary: "answers each request within the deadline of the runtime it is judged for",
        hint: "Answer within the runtime's deadline; do slow work asynchronously or cache it.",
    },
    CheckDef {
        id: "PIPE-WRITES-DRAINED",
        group: Group::Robustness,
        level: Level::Must,
        families: &[PICO, RUNOK],
        scope: Scope::AnyRole,
        spec: "picoclaw@cf67dd3 pkg/agent/hook_process.go:435-444 (readStderr: a 1 MiB bufio.Scanner; a longer line stops it for good); runok@0.3.1 src/exec/extension_runner.rs:234-259 (stdout is read by wait_with_output only after the exit); both measured in interop/ (FIDELITY.md)",
        summary: "never blocks on a pipe its runtime is not reading: no stderr line of 1 MiB or more under PicoClaw, no reply over the 64 KiB pipe buffer under runok",
        hint: "Keep each stderr line short (log one event per line, truncate long values); under runok keep the reply under 64 KiB (shorten the message, leave details out).",
    },
    CheckDef {
        id: "ROBUST-SEQUENTIAL",
        group: Group::Robustness,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "long-lived plugins serve a whole session on one process",
        summary: "answers 100 sequential requests on one process",
        hint: "Keep per-request state bounded and never exit between requests.",
    },
    CheckDef {
        id: "ROBUST-UNKNOWN-FIELDS",
        group: Group::Robustness,
        level: Level::Must,
        families: ALL,
        scope: Scope::AnyRole,
        spec: "runtimes add fields over time (picoclaw@cf67dd3 sends context, PromptKit adds Metadata)",
        summary: "tolerates fields it does not know in requests",
        hint: "Ignore unknown fields instead of rejecting the request.",
    },
    CheckDef {
        id: "ROBUST-CONCURRENT",
        group: Group::Robustness,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::AnyRole,
        spec: "picoclaw@cf67dd3 pkg/agent/hook_process.go: several requests in flight, replies matched by id",
        summary: "answers several requests sent at once, each under its own id",
        hint: "Read stdin line by line and answer every line; never drop the rest of a read chunk.",
    },
    CheckDef {
        id: "ROBUST-FUZZ",
        group: Group::Robustness,
        level: Level::Must,
        families: &[EXEC, SERVER, PICO],
        scope: Scope::Only(&[Role::Tool, Role::ToolHook, Role::ToolMode, Role::Approve]),
        spec: "promptkit-exec-protocol.txt (Tool Protocol: args \"as provided by the LLM, matching the tool's input schema\"); picoclaw-hook-protocol.md#4-hookbefore_tool",
        summary: "every schema-valid tool argument object gets a well-formed answer in time (--fuzz)",
        hint: "Treat arguments as untrusted text: quotes, backslashes, newlines, <>&, non-ASCII and empty strings are all valid. Answer bad input with a tool error, never a crash; add the printed case to your --cases file.",
    },
    // ── Cases ───────────────────────────────────────────────────────────
    // ── Runtime (proctor verify) ────────────────────────────────────────
    CheckDef {
        id: "RUNTIME-FRAMING",
        group: Group::Runtime,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: Scope::AnyRole,
        spec: "line protocols: one JSON object per line, ending in \\n; one-shot: exactly one JSON document",
        summary: "every request is framed as the family requires",
        hint: "Write each line-protocol message as compact JSON plus \\n; write a one-shot request as one document.",
    },
    CheckDef {
        id: "RUNTIME-JSONRPC-ENVELOPE",
        group: Group::Runtime,
        level: Level::Must,
        families: RPC,
        scope: Scope::AnyRole,
        spec: "JSON-RPC 2.0 §4: \"jsonrpc\": \"2.0\", a string method, object params, an integer id on requests",
        summary: "requests carry a JSON-RPC 2.0 envelope with integer ids",
        hint: "Send {\"jsonrpc\":\"2.0\",\"id\":N,\"method\":…,\"params\":{…}}; plugins echo integer ids only.",
    },
    CheckDef {
        id: "RUNTIME-IDS-INCREASING",
        group: Group::Runtime,
        level: Level::Must,
        families: LINES,
        scope: Scope::AnyRole,
        spec: "picoclaw@cf67dd3 and promptkit@86d9f36 number requests 1, 2, 3 … per process",
        summary: "request ids increase per process, starting at 1",
        hint: "Keep one counter per plugin process and never reuse an id.",
    },
    CheckDef {
        id: "RUNTIME-METHODS",
        group: Group::Runtime,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: Scope::AnyRole,
        spec: "promptkit-exec-protocol.txt (methods and params); picoclaw-hook-protocol.md (methods and params); runok-extension-protocol.txt (methods and params)",
        summary: "methods and params are the family's",
        hint: "Use the family's method names and params shapes (execute/{args}, hook.*, validateCommand/{six fields}).",
    },
    CheckDef {
        id: "RUNTIME-HELLO-FIRST",
        group: Group::Runtime,
        level: Level::Must,
        families: &[PICO],
        scope: Scope::AnyRole,
        spec: "picoclaw-hook-protocol.md#1-hookhello-handshake",
        summary: "the first message to a hook is hook.hello with version 1 and its modes",
        hint: "Send hook.hello (id 1, version 1, modes) before anything else.",
    },
    CheckDef {
        id: "RUNTIME-STDIN-CLOSED",
        group: Group::Runtime,
        level: Level::Must,
        families: ONE_SHOT,
        scope: Scope::AnyRole,
        spec: "one-shot plugins read stdin to EOF: the runtime closes stdin after the request",
        summary: "stdin is closed after the one-shot request",
        hint: "Close the plugin's stdin right after writing the request.",
    },
    CheckDef {
        id: "RUNTIME-EXPECTED-CALLS",
        group: Group::Runtime,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: Scope::AnyRole,
        spec: "the scenario's expectations on what plugins receive (`received`, `not_called`), e.g. respond skips after_tool",
        summary: "plugins received what the scenario expects, and nothing it forbids",
        hint: "Compare your runtime's control flow with the reference pipeline's transcript for this scenario (`proctor run`).",
    },
    CheckDef {
        id: "RUNTIME-EXPECTED-RESULTS",
        group: Group::Runtime,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: Scope::AnyRole,
        spec: "the scenario's `tool_results` expectations, judged on the tool messages the runtime sent its LLM: a denied call reported as blocked, a crashed filter hook failing closed",
        summary: "the LLM was told each tool result the scenario expects, in order",
        hint: "Compare the tool messages your runtime sent (evidence) with the reference pipeline's transcript (`proctor run`): a denied or failed call still reaches the LLM, saying why.",
    },
    CheckDef {
        id: "RUNTIME-RESTARTS-DEAD-SERVER",
        group: Group::Runtime,
        level: Level::Must,
        families: &[SERVER],
        scope: Scope::AnyRole,
        spec: "promptkit-exec-protocol.txt#error-handling: \"The process is restarted on unexpected termination\" (promptkit@86d9f36 never does: promptkit.server-never-restarted)",
        summary: "a server-mode tool that died is started again for the next call",
        hint: "Notice the process exited (wait for it, or treat EOF/EPIPE as death) and start a new one on the next call, with ids from 1 again.",
    },
    CheckDef {
        id: "RUNTIME-LATE-REPLY-DISCARDED",
        group: Group::Runtime,
        level: Level::Must,
        families: &[SERVER],
        scope: Scope::AnyRole,
        spec: "JSON-RPC 2.0 §5: a response answers the request with its id; a reply that arrives after the runtime gave up answers no later call",
        summary: "a reply that arrives after its call timed out is not delivered as a later call's result",
        hint: "Match replies to calls by id and drop replies to calls you gave up on (or restart the process after a timeout); never hand the next line to whichever call is waiting.",
    },
    CheckDef {
        id: "RUNTIME-LLM-REQUEST",
        group: Group::Runtime,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: Scope::AnyRole,
        spec: "OpenAI chat completions: POST /v1/chat/completions with a model, a non-empty messages array of known roles; tool calls carry id, type function, name and string arguments",
        summary: "every request to the LLM is a well-formed chat-completions request",
        hint: "Send {\"model\":…,\"messages\":[{\"role\":…,\"content\":…}…]}; tool-call arguments are a JSON-encoded string.",
    },
    CheckDef {
        id: "RUNTIME-LLM-TOOL-RESULTS",
        group: Group::Runtime,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: Scope::AnyRole,
        spec: "OpenAI chat completions: every tool call of an assistant message is answered by a tool message with its tool_call_id before the next request",
        summary: "every tool call the LLM made is answered, once, under its call id",
        hint: "After running (or refusing) each tool call, append {\"role\":\"tool\",\"tool_call_id\":<the call's id>,\"content\":…} — a denied or failed call needs one too.",
    },
    CheckDef {
        id: "RUNTIME-LLM-SCRIPT",
        group: Group::Runtime,
        level: Level::Must,
        families: JSON_ANSWERS,
        scope: Scope::AnyRole,
        spec: "the scenario's `llm` script: one request per round, in order, each matching the round's `when`",
        summary: "the conversation with the LLM followed the scenario's script",
        hint: "A missing round means the runtime stopped early; an unexpected one, it asked again (a retry?); a mismatch shows what the runtime sent where the script expected otherwise.",
    },
    CheckDef {
        id: "CASE-DECISION",
        group: Group::Cases,
        level: Level::Must,
        families: ALL,
        scope: Scope::AnyRole,
        spec: "the author's --cases file",
        summary: "each case gets the decision it expects",
        hint: "Compare the request proctor sent (see evidence) with the keys your plugin reads.",
    },
    CheckDef {
        id: "CASE-REQUIRE",
        group: Group::Cases,
        level: Level::Must,
        families: ALL,
        scope: Scope::AnyRole,
        spec: "the author's --require list",
        summary: "every --require'd capability (deny, respond, modify, pending, error) is used by some answer",
        hint: "Add a --cases entry whose request makes the plugin use it (the report prints one), or drop it from --require.",
    },
];

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut seen = HashSet::new();
        for c in CATALOGUE {
            assert!(seen.insert(c.id), "duplicate id {}", c.id);
            assert!(c.id.chars().all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '-'), "{}", c.id);
            assert!(!c.summary.is_empty() && !c.hint.is_empty() && !c.spec.is_empty(), "{}", c.id);
            assert!(!c.families.is_empty(), "{}", c.id);
        }
    }

    #[test]
    fn scopes_select_roles() {
        let tool = lookup("TOOL-RESPONSE-SHAPE").unwrap();
        assert!(tool.applies(Family::PromptkitExec, &[Role::Tool]));
        assert!(!tool.applies(Family::PromptkitExec, &[Role::Eval]));
        let compact = lookup("FRAMING-COMPACT").unwrap();
        assert!(!compact.applies(Family::PromptkitExec, &[Role::EvalHook]));
        assert!(compact.applies(Family::PicoclawHook, &[Role::Observe]));
    }
}
