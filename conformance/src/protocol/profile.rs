//! Wire-fidelity profiles: the published documents, and each runtime as it
//! is actually implemented.
//!
//! A plugin written from the documents can pass every documented check and
//! still silently do nothing inside the real runtime, because the runtimes
//! diverge from their own documents. Each divergence a plugin can observe is
//! a named [`Divergence`] here, citing where it was found, and the request
//! builders consult the profile through the methods below, never through
//! ad-hoc conditions.

use std::fmt;

use super::Family;

/// Whose wire behaviour proctor plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    /// Exactly what the protocol documents in `shared/specs/` say.
    Documented,
    /// PromptKit as implemented at commit 86d9f36 (2026-08-21).
    Promptkit86d9f36,
    /// PicoClaw as implemented at commit cf67dd3 (2026-06-13).
    PicoclawCf67dd3,
    /// runok 0.3.1 (commit c9b1726), its `exec::extension_runner`.
    Runok031,
    /// Claude Code 2.1.332 (npm `@anthropic-ai/claude-code`), its command hooks.
    ClaudeCode21332,
    /// Codex CLI 0.171.0 (npm `@openai/codex`), its command hooks.
    Codex0171,
}

/// A documented-vs-implemented difference that a plugin can observe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Divergence {
    /// Stable name, e.g. `promptkit.hook-payload-pascal-case`.
    pub id: &'static str,
    /// The runtime profile that behaves this way.
    #[serde(serialize_with = "profile_name")]
    pub profile: Profile,
    /// What differs, in one sentence.
    pub summary: &'static str,
    /// Where it comes from (source file at the pinned commit, or document).
    pub source: &'static str,
}

fn profile_name<S: serde::Serializer>(p: &Profile, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 6] = [
        Profile::Documented,
        Profile::Promptkit86d9f36,
        Profile::PicoclawCf67dd3,
        Profile::Runok031,
        Profile::ClaudeCode21332,
        Profile::Codex0171,
    ];

    /// Name used on the command line (`--profile`) and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Documented => "documented",
            Profile::Promptkit86d9f36 => "promptkit@86d9f36",
            Profile::PicoclawCf67dd3 => "picoclaw@cf67dd3",
            Profile::Runok031 => "runok@0.3.1",
            Profile::ClaudeCode21332 => "claude-code@2.1.332",
            Profile::Codex0171 => "codex@0.171.0",
        }
    }

    /// Which code the profile describes, and which published release of it
    /// interop/ runs to hold the profile to the real runtime (FIDELITY.md).
    pub fn provenance(self) -> &'static str {
        match self {
            Profile::Documented => "the spec documents in shared/specs",
            Profile::Promptkit86d9f36 => {
                "PromptKit commit 86d9f36: the runtime module v1.5.11 plus two commits that touch only deploy adapters and docs; \
                 interop/promptkit runs runtime v1.5.11"
            }
            Profile::PicoclawCf67dd3 => {
                "PicoClaw commit cf67dd3 (nightly after v0.2.9); its hook host files are byte-identical in v0.2.9 and v0.3.1, which interop/picoclaw runs"
            }
            Profile::Runok031 => "runok 0.3.1 from crates.io, which interop/runok runs",
            Profile::ClaudeCode21332 => "Claude Code 2.1.332 from npm (a native binary), which interop/agents runs headless",
            Profile::Codex0171 => "Codex CLI 0.171.0 from npm (a Rust binary), which interop/agents runs headless",
        }
    }

    /// Other names for the profile: the published releases whose code it
    /// describes (the hook host or exec clients are the same code there), so
    /// `--profile picoclaw@0.3.1` names what a user installed. The commit
    /// name stays the profile's own.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Profile::Documented => &[],
            Profile::Promptkit86d9f36 => &["promptkit@1.5.11", "promptkit@v1.5.11"],
            Profile::PicoclawCf67dd3 => &["picoclaw@0.3.1", "picoclaw@v0.3.1", "picoclaw@0.2.9", "picoclaw@v0.2.9"],
            Profile::Runok031 => &["runok@v0.3.1"],
            Profile::ClaudeCode21332 => &["claude-code@v2.1.332"],
            Profile::Codex0171 => &["codex@v0.171.0", "codex@0.171"],
        }
    }

    /// Which releases interop/ last held the profile to, how, and when
    /// (FIDELITY.md has the numbers).
    pub fn compared_with(self) -> &'static str {
        match self {
            Profile::Documented => "not a runtime: held to the spec documents by the catalogue's own tests",
            Profile::Promptkit86d9f36 => {
                "runtime v1.5.11 (Go module proxy): wire, faults, cases, workflow states, tools, generated plugins (interop/fidelity.sh --only differential), the SDK on every pack scenario (2026-11-27), and deadlines, pipes and extra lines at their edges (--only timing, 2026-11-29)"
            }
            Profile::PicoclawCf67dd3 => {
                "v0.3.1 (Go module proxy; its hook host is byte-identical with v0.2.9 and cf67dd3): wire, faults, cases and generated plugins (interop/fidelity.sh --only differential, 2026-11-27), and deadlines, pipes and extra lines at their edges (--only timing, 2026-11-29)"
            }
            Profile::Runok031 => {
                "the runok crate 0.3.1 (crates.io): its extension runner in interop/runok's tests and on generated plugins (interop/fidelity.sh --only differential, 2026-11-28), and its deadline, pipe and envelope at their edges (--only timing, 2026-11-29)"
            }
            Profile::ClaudeCode21332 => {
                "Claude Code 2.1.332 (npm), run headless against proctor mock-provider with each generated hook (interop/fidelity.sh --only agents, 2026-11-28) and with a probe of the world it gives hooks (--only world, 2026-11-29)"
            }
            Profile::Codex0171 => {
                "Codex CLI 0.171.0 (npm), run headless against proctor mock-provider with each generated hook (interop/fidelity.sh --only agents, 2026-11-28) and with a probe of the world it gives hooks (--only world, 2026-11-29)"
            }
        }
    }

    /// Whether `name` is this profile's name or one of its aliases.
    pub fn is_named(self, name: &str) -> bool {
        self.name() == name || self.aliases().contains(&name)
    }

    /// The profiles certification runs for a family by default: the
    /// documents first, then the runtime as implemented.
    pub fn for_family(family: Family) -> [Profile; 2] {
        let runtime = match family {
            Family::PromptkitExec | Family::PromptkitServer => Profile::Promptkit86d9f36,
            Family::PicoclawHook => Profile::PicoclawCf67dd3,
            Family::RunokExtension => Profile::Runok031,
            Family::ClaudeCodeHook => Profile::ClaudeCode21332,
            Family::CodexHook => Profile::Codex0171,
        };
        [Profile::Documented, runtime]
    }

    /// The profile named `name` (any family), as reports name them.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.is_named(name))
    }

    /// Parses a profile name valid for `family`.
    pub fn parse(family: Family, s: &str) -> Result<Profile, super::UnknownName> {
        let allowed = Profile::for_family(family);
        allowed.into_iter().find(|p| p.is_named(s)).ok_or_else(|| super::UnknownName {
            what: "profile",
            given: s.to_string(),
            expected: allowed.iter().map(|p| p.name()).collect(),
        })
    }

    /// The divergences this profile encodes (empty for `documented`).
    pub fn divergences(self) -> impl Iterator<Item = &'static Divergence> {
        DIVERGENCES.iter().filter(move |d| d.profile == self)
    }

    fn has(self, id: &str) -> bool {
        debug_assert!(DIVERGENCES.iter().any(|d| d.id == id), "unknown divergence {id}");
        self.divergences().any(|d| d.id == id)
    }

    /// Whether a one-shot request ends in `\n`. The documents show requests
    /// as typed with `echo` (runok's tutorial tests with `echo '{…}' |`).
    pub fn oneshot_trailing_newline(self) -> bool {
        !self.has("promptkit.oneshot-no-trailing-newline") && !self.has("runok.request-no-trailing-newline")
    }

    /// Whether strings are written the way Go's `encoding/json` writes them
    /// (`<`, `>`, `&`, U+2028, U+2029 escaped as `\u003c` …).
    pub fn go_json_escaping(self) -> bool {
        self.has("promptkit.go-html-escaping") || self.has("picoclaw.go-html-escaping")
    }

    /// Whether object keys go out sorted (serde_json without `preserve_order`).
    pub fn sorted_keys(self) -> bool {
        self.has("runok.request-keys-sorted")
    }

    /// Whether PromptKit hook payloads use Go field names (`Name`, `Args`, `CallID`).
    pub fn promptkit_pascal_case_hooks(self) -> bool {
        self.has("promptkit.hook-payload-pascal-case")
    }

    /// Whether selector requests use Go field names (`Text`, `PackID`, `K`, `ID` …).
    pub fn promptkit_selector_go_names(self) -> bool {
        self.has("promptkit.selector-payload-go-names")
    }

    /// Whether empty eval-context collections are omitted rather than sent as `[]`/`{}`.
    pub fn promptkit_eval_context_omits_empty(self) -> bool {
        self.has("promptkit.eval-context-omits-empty")
    }

    /// Whether the eval-hook payload carries the documented `passed` field.
    pub fn promptkit_eval_hook_has_passed(self) -> bool {
        !self.has("promptkit.eval-hook-no-passed")
    }

    /// Whether a session hook's stdout is read at all.
    pub fn promptkit_reads_session_hook_stdout(self) -> bool {
        !self.has("promptkit.session-hook-stdout-ignored")
    }

    /// Whether a one-shot tool's `pending` answer pauses the pipeline (the
    /// documents) rather than being ignored (promptkit@86d9f36).
    pub fn promptkit_acts_on_pending(self) -> bool {
        !self.has("promptkit.pending-ignored")
    }

    /// Whether a one-shot tool's document without `result` or `error` is
    /// the tool's result, whole (promptkit@86d9f36), not a malformed answer.
    pub fn promptkit_whole_document_result(self) -> bool {
        self.has("promptkit.tool-document-is-the-result")
    }

    /// Whether replies are read as Go's `json.Unmarshal` reads them into the
    /// runtime's own types ([`super::reply_types`]) rather than as written.
    pub fn go_json_replies(self) -> bool {
        self.has("promptkit.go-json-replies") || self.has("picoclaw.go-json-replies")
    }

    /// Whether replies are read as runok reads them: serde_json into runok's
    /// own types (certify/semantics/runok_reading.rs), not as written.
    pub fn runok_serde_replies(self) -> bool {
        self.has("runok.serde-json-replies")
    }

    /// Whether a before_llm `modify` whose system messages differ from the
    /// request's is undone for every message (picoclaw@cf67dd3).
    pub fn picoclaw_restores_system_messages(self) -> bool {
        self.has("picoclaw.before-llm-system-messages-kept")
    }

    /// Whether a dead server-mode tool is restarted on the next call.
    pub fn promptkit_restarts_dead_servers(self) -> bool {
        !self.has("promptkit.server-never-restarted")
    }

    /// Whether a hook denial names the hook (documents) or the constant
    /// `provider_hook` (promptkit@86d9f36).
    pub fn promptkit_denial_names_hook(self) -> bool {
        !self.has("promptkit.denial-hook-name-constant")
    }

    /// Whether tool-hook `after_execution` decisions are acted on.
    pub fn promptkit_acts_on_after_execution(self) -> bool {
        !self.has("promptkit.after-execution-ignored")
    }

    /// How many identical calls (same tool, same arguments) one turn runs before the next one is
    /// answered "Repeated call ignored" instead of run; `None` when nothing stops them.
    pub fn promptkit_identical_call_limit(self) -> Option<usize> {
        self.has("promptkit.identical-calls-stopped").then_some(3)
    }

    /// Whether a user turn that fails leaves nothing in the conversation (its message, tool rounds).
    pub fn promptkit_forgets_failed_turns(self) -> bool {
        self.has("promptkit.failed-turn-forgotten")
    }

    /// Whether a tool whose result is an error a second time in a turn stops being offered.
    pub fn promptkit_withdraws_failing_tools(self) -> bool {
        self.has("promptkit.failing-tool-withdrawn")
    }

    /// Whether the `max_sentences` guardrail enforces its maximum.
    pub fn promptkit_max_sentences_enforced(self) -> bool {
        !self.has("promptkit.max-sentences-never-triggers")
    }

    /// Whether the server-mode request writes `id` last (Go struct order).
    pub fn promptkit_server_id_last(self) -> bool {
        self.has("promptkit.server-request-field-order")
    }

    /// The notification method PicoClaw observers receive.
    pub fn picoclaw_notification_method(self) -> &'static str {
        if self.has("picoclaw.runtime-event-notification") { "hook.runtime_event" } else { "hook.event" }
    }

    /// Whether requests carry `channel` and `chat_id` as the document shows.
    pub fn picoclaw_sends_channel(self) -> bool {
        !self.has("picoclaw.no-channel-chat-id")
    }

    /// Whether `after_llm` tool calls arrive as bare ids (no function name or arguments).
    pub fn picoclaw_after_llm_tool_calls_bare(self) -> bool {
        self.has("picoclaw.after-llm-tool-calls-bare")
    }

    /// Whether `modify` payloads of after_tool / after_llm are decoded nested
    /// (`result.result`, `response.response`).
    pub fn picoclaw_nested_after_payloads(self) -> bool {
        self.has("picoclaw.nested-after-modify")
    }

    /// Whether the runtime takes the next stdout line as the reply to a call
    /// whatever its id (PromptKit server mode), rather than matching replies
    /// by id as JSON-RPC (and PicoClaw) do: then a second reply to an earlier
    /// request is read as the answer to the next one.
    pub fn reads_one_line_per_call(self, family: Family) -> bool {
        family == Family::PromptkitServer && self.has("promptkit.server-one-line-per-call")
    }

    /// Whether a plugin of `family` playing `role` gets only the variables its
    /// runtime config lists (when it lists any), with no PATH or HOME of the
    /// host's: PromptKit's one-shot exec tools. Every other plugin gets the
    /// host environment plus the list.
    pub fn env_only_listed(self, family: Family, role: super::Role) -> bool {
        family == Family::PromptkitExec && role == super::Role::Tool && self.has("promptkit.exec-tool-env-only-listed")
    }

    /// Whether a coding agent's hook documents carry what its release adds to the documented
    /// fields, and its shapes (Claude Code's `prompt_id`, `effort`, Bash result object and final
    /// `\n`; Codex's shell as `Bash` with the command only, its output as a string).
    pub fn agent_event_fields(self) -> bool {
        self.has("claude-code.event-fields") || self.has("codex.shell-as-bash")
    }

    /// Whether hook stdout that starts with `{` and does not parse is read as Claude Code 2.1.332
    /// reads it: plain text unless it ends in `}` and is not several silent JSON lines.
    pub fn claude_parse_hook_output(self) -> bool {
        self.has("claude-code.json-when-braced")
    }

    /// Whether hook stdout starting with `[` is taken as JSON too (and fails as output).
    pub fn codex_json_when_bracket(self) -> bool {
        self.has("codex.json-when-brace-or-bracket")
    }

    /// Whether exit 2 without a reason on stderr, or on an event nothing can block, fails the
    /// hook run and lets the agent go on.
    pub fn codex_exit2_fails_open(self) -> bool {
        self.has("codex.exit2-without-stderr-fails-open")
    }

    /// Whether `hookSpecificOutput.hookEventName` may name another event.
    pub fn codex_event_name_not_compared(self) -> bool {
        self.has("codex.event-name-not-compared")
    }

    /// The longest reply line the runtime reads, when it has a limit.
    pub fn line_limit(self, family: Family) -> Option<usize> {
        match (family, self) {
            (Family::PicoclawHook, p) if p.has("picoclaw.line-limit-1mib") => Some(1024 * 1024),
            (Family::PromptkitServer, p) if p.has("promptkit.server-line-limit-10mib") => Some(10 * 1024 * 1024),
            _ => None,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

use Profile::{ClaudeCode21332 as CLAUDE, Codex0171 as CODEX, PicoclawCf67dd3 as PICO, Promptkit86d9f36 as PK, Runok031 as RUNOK};

/// Every divergence proctor encodes. `proctor checks` prints them.
pub static DIVERGENCES: &[Divergence] = &[
    Divergence {
        id: "promptkit.go-json-replies",
        profile: PK,
        summary: "every reply is read by Go's json.Unmarshal into PromptKit's own type: keys match case-insensitively, the last duplicate wins, a wrong type in any field fails the whole reply, null leaves a struct empty",
        source: "runtime/tools/exec_executor.go:75, server_executor.go:236, hooks/exec_hooks.go:145, evals/handlers/exec_handler.go:114, selection/exec_client.go:106 (types in conformance/src/protocol/reply_types.rs); held to Go by conformance/tests/gojson_oracle.rs",
    },
    Divergence {
        id: "picoclaw.before-llm-system-messages-kept",
        profile: PICO,
        summary: "a before_llm modify that adds, drops or changes a system message is undone for every message: the host restores the request's messages and keeps only the rest (model, options)",
        source: "pkg/agent/hooks.go:388-409 applyBeforeLLMControls (reflect.DeepEqual of the system messages); found by interop/fidelity.sh --only differential",
    },
    Divergence {
        id: "picoclaw.go-json-replies",
        profile: PICO,
        summary: "every stdout line is read by Go's json.Unmarshal into processHookRPCMessage (a line that fails is skipped) and each result into the method's type: keys match case-insensitively, a wrong type fails the reply",
        source: "pkg/agent/hook_process.go:364 and :412 (types in conformance/src/protocol/reply_types.rs); held to Go by conformance/tests/gojson_oracle.rs",
    },
    Divergence {
        id: "promptkit.hook-payload-pascal-case",
        profile: PK,
        summary: "hook payloads use Go field names (ProviderID, Messages, Name, Args, CallID, SessionID, TurnIndex); the docs and example hooks read snake_case",
        source: "runtime/hooks/types.go (structs without json tags); docs exec-hooks.md shows snake_case",
    },
    Divergence {
        id: "promptkit.oneshot-no-trailing-newline",
        profile: PK,
        summary: "one-shot requests are json.Marshal output with no trailing newline, then EOF",
        source: "runtime/tools/exec_executor.go (cmd.Stdin = bytes.NewReader(reqBytes))",
    },
    Divergence {
        id: "promptkit.go-html-escaping",
        profile: PK,
        summary: "strings escape <, >, & as \\u003c, \\u003e, \\u0026 (Go encoding/json)",
        source: "Go encoding/json HTMLEscape default, used by every PromptKit marshal",
    },
    Divergence {
        id: "promptkit.eval-context-omits-empty",
        profile: PK,
        summary: "eval requests omit empty context.messages, tool_calls, variables and metadata (the docs show [] and {})",
        source: "runtime/evals/handlers/exec_handler.go (execEvalCtx fields are omitempty)",
    },
    Divergence {
        id: "promptkit.eval-hook-no-passed",
        profile: PK,
        summary: "the eval-hook payload has no `passed` field (the docs show one)",
        source: "runtime/evals/types.go EvalResult; docs exec-hooks.md",
    },
    Divergence {
        id: "promptkit.session-hook-stdout-ignored",
        profile: PK,
        summary: "a session hook's stdout is never parsed; only its exit status matters",
        source: "runtime/hooks/exec_hooks.go (session hooks in filter mode check spawn and exit only)",
    },
    Divergence {
        id: "promptkit.selector-payload-go-names",
        profile: PK,
        summary: "selector requests marshal Query and Candidate without json tags: Text, Kind, PackID, AgentID, K and ID, Name, Description, Metadata (the docs and the reference rerank.py read lowercase, and select nothing)",
        source: "runtime/selection/exec_client.go (execRequest{Query, Candidates}); research promptkit.md §1.8",
    },
    Divergence {
        id: "promptkit.exec-tool-env-only-listed",
        profile: PK,
        summary: "a one-shot exec tool whose runtime config lists `env:` gets only those variables: no PATH, no HOME (server tools, hooks and evals get the host environment plus the list)",
        source: "runtime/tools/exec_executor.go (cmd.Env built from the listed names only); research promptkit.md §1.0, table column 'Env when env: non-empty'",
    },
    Divergence {
        id: "promptkit.server-one-line-per-call",
        profile: PK,
        summary: "server mode reads exactly one stdout line per call and takes it as the reply whatever its id: one extra line shifts every later reply (an ID mismatch each time)",
        source: "runtime/tools/server_executor.go call (one scanner.Scan() per call); research promptkit.md §1.3.2, Desync",
    },
    Divergence {
        id: "promptkit.server-request-field-order",
        profile: PK,
        summary: "server-mode requests are written as {\"jsonrpc\",\"method\",\"params\",\"id\"} (Go struct order), one line ending in \\n",
        source: "runtime/tools/server_executor.go jsonRPCRequest",
    },
    Divergence {
        id: "promptkit.server-line-limit-10mib",
        profile: PK,
        summary: "server-mode replies longer than 10 MiB fail the scanner for the rest of the conversation",
        source: "runtime/tools/server_executor.go serverMaxLineSize",
    },
    Divergence {
        id: "promptkit.pending-ignored",
        profile: PK,
        summary: "a one-shot tool's {\"pending\": …} answer is never read: the raw stdout becomes a successful tool result",
        source: "runtime/tools/exec_executor.go (execPending decoded, never consulted)",
    },
    Divergence {
        id: "promptkit.tool-document-is-the-result",
        profile: PK,
        summary: "a one-shot tool's document with neither result nor error reaches the model whole, as a successful result",
        source: "runtime/tools/exec_executor.go (no result key: the whole stdout is the result); measured in interop/promptkit",
    },
    Divergence {
        id: "promptkit.server-never-restarted",
        profile: PK,
        summary: "a server-mode tool that dies is never detected or restarted; every later call fails (the docs promise a restart)",
        source: "runtime/tools/server_executor.go isRunning (ProcessState is only set by Wait)",
    },
    Divergence {
        id: "promptkit.denial-hook-name-constant",
        profile: PK,
        summary: "a provider-hook denial always names the hook \"provider_hook\", not the exec hook's name",
        source: "runtime/pipeline/stage/stages_provider.go (HookDeniedError{HookName: \"provider_hook\"})",
    },
    Divergence {
        id: "promptkit.after-execution-ignored",
        profile: PK,
        summary: "tool-hook after_execution decisions are discarded (only logged)",
        source: "runtime/pipeline/stage/stages_provider.go runAfterToolHooks",
    },
    Divergence {
        id: "promptkit.identical-calls-stopped",
        profile: PK,
        summary: "within one turn the third call of a tool with the same arguments is not run: the model gets \"Repeated call ignored\", and a fourth fails the turn",
        source: "runtime/pipeline/stage/stages_provider.go:793-838 and 1021-1040 (defaultMaxIdenticalCalls = 3, :30)",
    },
    Divergence {
        id: "promptkit.failing-tool-withdrawn",
        profile: PK,
        summary: "a tool whose result is an error a second time in one turn is no longer offered for the rest of that turn",
        source: "runtime/pipeline/stage/stages_provider.go:2452-2475 updateExcludedTools, :2525 collectProviderDescriptors",
    },
    Divergence {
        id: "promptkit.failed-turn-forgotten",
        profile: PK,
        summary: "a turn that fails (a provider error, a hook's denial) is not kept: the next turn's request has neither its user message nor its tool rounds",
        source: "measured by the sdk comparison (interop/promptkit-sdk, sdk v1.5.10 on runtime v1.5.11): runtime/pipeline/stage/stages_save.go:81-133 persists a Send's messages only when the pipeline completes",
    },
    Divergence {
        id: "promptkit.max-sentences-never-triggers",
        profile: PK,
        summary: "the max_sentences guardrail only measures: it never triggers, whatever the count (the docs still document `max`)",
        source: "runtime/evals/handlers sentence_count via the max_sentences alias (register.go, normalize.go)",
    },
    Divergence {
        id: "picoclaw.runtime-event-notification",
        profile: PICO,
        summary: "observer notifications are hook.runtime_event with a lower-case events.Event envelope; the document says hook.event with Kind/Meta/Payload",
        source: "pkg/agent/hook_process.go notify (commits 8caf9aeb2, b954e6b8d)",
    },
    Divergence {
        id: "picoclaw.go-html-escaping",
        profile: PICO,
        summary: "strings escape <, >, & as \\u003c, \\u003e, \\u0026 (Go encoding/json)",
        source: "Go encoding/json HTMLEscape default (pkg/agent/hook_process.go json.Marshal)",
    },
    Divergence {
        id: "picoclaw.no-channel-chat-id",
        profile: PICO,
        summary: "requests never carry channel or chat_id (the document shows both); meta has Source \"runTurn\" and a TracePath",
        source: "pkg/agent/pipeline_execute.go; LLMHookRequest and ToolApprovalRequest have no such fields",
    },
    Divergence {
        id: "picoclaw.after-llm-tool-calls-bare",
        profile: PICO,
        summary: "after_llm tool calls arrive as {\"id\": …} only, without function name or arguments",
        source: "pkg/providers/protocoltypes/types.go (ToolCall.Name and Arguments are json:\"-\")",
    },
    Divergence {
        id: "picoclaw.nested-after-modify",
        profile: PICO,
        summary: "after_tool and after_llm modify payloads are decoded nested (result.result.for_llm, response.response.content); a flat payload is a silent no-op",
        source: "pkg/agent/hook_process.go processHookAfterToolResponse, processHookAfterLLMResponse",
    },
    Divergence {
        id: "picoclaw.line-limit-1mib",
        profile: PICO,
        summary: "a reply line over 1 MiB stops PicoClaw's reader for good; every later call times out",
        source: "pkg/agent/hook_process.go processHookReadBufferSize",
    },
    Divergence {
        id: "runok.serde-json-replies",
        profile: RUNOK,
        summary: "the reply is read once the extension exits, whatever its status: stdout through String::from_utf8_lossy, then serde_json into runok's JsonRpcResponse: keys are exact, a known key twice fails the reply, unknown keys (id, jsonrpc) are ignored, null is absent, a struct may be an array of its fields; then error wins over result",
        source: "src/exec/extension_runner.rs:22-46 (types), :144-162 (parse), :239-244 (read after exit); held to runok by interop/fidelity.sh --only differential --family runok-extension",
    },
    Divergence {
        id: "runok.request-no-trailing-newline",
        profile: RUNOK,
        summary: "the request is written without a trailing newline, then stdin is closed",
        source: "src/exec/extension_runner.rs (write_all of serde_json::to_string, then drop)",
    },
    Divergence {
        id: "runok.request-keys-sorted",
        profile: RUNOK,
        summary: "request keys come out sorted (serde_json::json! without preserve_order), params included",
        source: "src/exec/extension_runner.rs (json!({...}) envelope)",
    },
    Divergence {
        id: "claude-code.json-when-braced",
        profile: CLAUDE,
        summary: "stdout that starts with `{` but does not parse is plain text when it does not end in `}` (a log line after the object), or when it is several JSON lines none of which holds an output field; otherwise a hook error (the reference says only that JSON must start with `{`)",
        source: "parseHookOutput in the 2.1.332 binary; measured by interop/agents",
    },
    Divergence {
        id: "claude-code.event-fields",
        profile: CLAUDE,
        summary: "the event document ends in `\\n` and carries prompt_id and effort beside the documented fields; Bash's tool_response is an object (stdout, stderr, interrupted, isImage, noOutputExpected)",
        source: "payloads captured from 2.1.332 by interop/agents/agent_host.py",
    },
    Divergence {
        id: "codex.exit2-without-stderr-fails-open",
        profile: CODEX,
        summary: "exit 2 with nothing on stderr is a failed hook run, not a block: the tool runs",
        source: "0.171.0 binary: `hook exited with code 2 but did not write a blocking reason to stderr`; observed by interop/agents",
    },
    Divergence {
        id: "codex.json-when-brace-or-bracket",
        profile: CODEX,
        summary: "stdout that, trimmed, starts with `{` or `[` must be the output object (anything after it fails the run); a byte-order mark, which Rust does not trim, makes it plain text",
        source: "observed in 0.171.0 by interop/agents",
    },
    Divergence {
        id: "codex.event-name-not-compared",
        profile: CODEX,
        summary: "hookSpecificOutput.hookEventName is required but not compared with the event",
        source: "observed in 0.171.0 by interop/agents (a PreToolUse deny naming PostToolUse blocked the tool)",
    },
    Divergence {
        id: "codex.shell-as-bash",
        profile: CODEX,
        summary: "the shell tool (exec_command {cmd}) is shown to hooks as Bash with tool_input {command} only, tool_response is the command's output as a string, and the document has no trailing newline",
        source: "payloads captured from 0.171.0 by interop/agents/agent_host.py",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_has_documented_and_one_runtime() {
        for f in Family::ALL {
            let [doc, rt] = Profile::for_family(f);
            assert_eq!(doc, Profile::Documented);
            assert_ne!(rt, Profile::Documented);
            assert!(rt.divergences().count() > 0, "{rt} encodes no divergence");
            assert_eq!(Profile::parse(f, rt.name()).unwrap(), rt);
        }
        assert!(Profile::parse(Family::RunokExtension, "picoclaw@cf67dd3").is_err());
        // Releases name the profile that describes their code; the commit names keep working.
        assert_eq!(Profile::parse(Family::PicoclawHook, "picoclaw@0.3.1").unwrap(), Profile::PicoclawCf67dd3);
        assert_eq!(Profile::parse(Family::PromptkitServer, "promptkit@1.5.11").unwrap(), Profile::Promptkit86d9f36);
        assert!(Profile::parse(Family::PicoclawHook, "promptkit@1.5.11").is_err());
    }

    #[test]
    fn divergence_ids_unique_and_documented_has_none() {
        let mut ids: Vec<_> = DIVERGENCES.iter().map(|d| d.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), DIVERGENCES.len());
        assert_eq!(Profile::Documented.divergences().count(), 0);
    }

    #[test]
    fn facts_read_from_the_table() {
        assert!(Profile::Documented.oneshot_trailing_newline());
        assert!(!Profile::Promptkit86d9f36.oneshot_trailing_newline());
        assert!(!Profile::Runok031.oneshot_trailing_newline());
        assert_eq!(Profile::Documented.picoclaw_notification_method(), "hook.event");
        assert_eq!(Profile::PicoclawCf67dd3.picoclaw_notification_method(), "hook.runtime_event");
        assert!(Profile::Promptkit86d9f36.promptkit_pascal_case_hooks());
        assert!(!Profile::Documented.promptkit_pascal_case_hooks());
        assert_eq!(Profile::PicoclawCf67dd3.line_limit(Family::PicoclawHook), Some(1 << 20));
        assert_eq!(Profile::Documented.line_limit(Family::PicoclawHook), None);
        assert!(Profile::Runok031.sorted_keys() && !Profile::Promptkit86d9f36.sorted_keys());
    }
}
