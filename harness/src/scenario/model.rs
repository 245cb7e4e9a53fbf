//! The scenario format: one conversation on one timeline.
//!
//! Every enum is externally tagged (`- user: "hi"`, `- text: "hello"`) and
//! every struct denies unknown fields, so serde-saphyr keeps the line and
//! column of every error and a typo is an error, not a silent default.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use proctor_mocks::provider::{LlmError, LlmReply, LlmRound, RoundMatch, ToolCall};

/// A scenario file.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The file the scenario was read from, which `pack:` and `runtime_config:` are relative to
    /// (not part of the format).
    #[serde(skip)]
    #[schemars(skip)]
    pub source: Option<std::path::PathBuf>,
    /// Stable identifier; names the snapshot (`picoclaw/respond-skips-approval`).
    pub id: String,
    /// What the scenario shows, in a sentence or two.
    #[serde(default)]
    pub description: String,
    /// The runtime whose semantics proctor plays.
    pub runtime: Runtime,
    /// Wire profile (`documented` or the runtime as implemented, the default).
    #[serde(default)]
    pub profile: Option<String>,
    /// PromptKit: a PromptPack to run (JSON or YAML, relative to this scenario file's folder). Its prompt's
    /// template, tools and validators, and the plugins `runtime_config` binds, are added to the
    /// scenario as PromptKit would build them under the scenario's profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<String>,
    /// PromptKit: the RuntimeConfig binding the pack's tools, eval types and hooks to exec plugins
    /// (relative to this scenario file's folder; its own relative paths are relative to its folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_config: Option<String>,
    /// The pack prompt (task) the conversation runs. Under PromptKit, naming it opens that prompt
    /// alone (`sdk.Open`), without the pack's workflow; leave it out to run the workflow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The template variables the host passes (as text; numbers and booleans are printed as the
    /// implementation prints them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variables: BTreeMap<String, Value>,
    /// The system prompt the pack gave this run (set when the pack is expanded, never read from YAML).
    #[serde(skip)]
    #[schemars(skip)]
    pub system_prompt: Option<String>,
    /// The pack as this run reads it (workflow states render their prompts from it as they are entered).
    #[serde(skip)]
    #[schemars(skip)]
    pub pack_run: Option<std::sync::Arc<super::pack::PackRun>>,
    /// The tools the pack's prompt offers the model (none when PromptKit fell back); `None` when
    /// the scenario lists its tools itself.
    #[serde(skip)]
    #[schemars(skip)]
    pub offered_tools: Option<Vec<String>>,
    /// Each pack tool's `parameters`, which its call's arguments are checked against before it runs.
    #[serde(skip)]
    #[schemars(skip)]
    pub tool_parameters: BTreeMap<String, Value>,
    /// Why the implementation refused to render the pack's prompt (the run then never starts).
    #[serde(skip)]
    #[schemars(skip)]
    pub refusal: Option<String>,
    /// The plugins taking part, configured as the runtime's own config would.
    #[serde(default)]
    pub plugins: Vec<Plugin>,
    /// Tools the runtime executes in-process, with scripted results
    /// (PicoClaw's built-in tools; PromptKit tools without an exec binding).
    #[serde(default)]
    pub tools: BTreeMap<String, ScriptedTool>,
    /// PromptKit pack validators (guardrails), in pack order.
    #[serde(default)]
    pub guardrails: Vec<Guardrail>,
    /// The scripted LLM, one entry per LLM call, in order.
    #[serde(default)]
    pub llm: Vec<LlmRound>,
    /// What happens from outside: user turns, resolutions, commands.
    pub turns: Vec<Turn>,
    /// What must be observed.
    #[serde(default)]
    pub expect: Expectations,
    /// Volatile values to redact from the transcript before snapshotting.
    #[serde(default)]
    pub redact: Vec<Redaction>,
}

/// The runtime proctor plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Runtime {
    /// PromptKit SDK: provider, tool, session and eval hooks; exec tools and evals.
    Promptkit,
    /// PicoClaw agent loop with process hooks.
    Picoclaw,
    /// runok command validation with one extension.
    Runok,
    /// Claude Code's agent loop, as its command hooks see it.
    #[serde(rename = "claude-code")]
    ClaudeCode,
    /// Codex CLI's agent loop, as its command hooks see it.
    Codex,
}

impl Runtime {
    /// The family whose profiles describe this runtime (`--profile`, `profile:`).
    pub fn family(self) -> proctor_conformance::protocol::Family {
        use proctor_conformance::protocol::Family;
        match self {
            Runtime::Promptkit => Family::PromptkitExec,
            Runtime::Picoclaw => Family::PicoclawHook,
            Runtime::Runok => Family::RunokExtension,
            Runtime::ClaudeCode => Family::ClaudeCodeHook,
            Runtime::Codex => Family::CodexHook,
        }
    }
}

/// One plugin.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Plugin {
    /// Its name in the runtime's config (a hook name, a tool name …).
    pub name: String,
    /// How to run it: a real command, or the scripted mock plugin.
    pub process: Process,
    /// How the runtime is configured to use it.
    pub config: PluginConfig,
    /// The scenario shows how the runtime reacts to a plugin that cannot be
    /// started, so its command is meant to fail. Without this, a command that
    /// cannot be started is the scenario's mistake (exit 2), never a verdict.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fails_to_start: bool,
}

/// How a plugin process is started.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Process {
    /// A real command, as argv (paths relative to the repository root).
    Command(Vec<String>),
    /// `proctor mock-plugin` with these settings.
    Mock(MockSpec),
}

/// Settings of the scripted mock plugin.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MockSpec {
    /// allow, deny, pending, respond, modify.
    #[serde(default)]
    pub decision: Option<String>,
    /// Named faults (`proctor mock-plugin --list-faults`).
    #[serde(default)]
    pub faults: Vec<String>,
    /// For the crash-after fault.
    #[serde(default)]
    pub crash_after: Option<u32>,
}

/// The runtime configuration of a plugin, one variant per kind.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PluginConfig {
    /// PromptKit RuntimeConfig `spec.hooks.<name>`.
    PromptkitHook(PromptkitHook),
    /// PromptKit RuntimeConfig `spec.tools.<name>.exec`.
    PromptkitTool(PromptkitTool),
    /// PromptKit RuntimeConfig `spec.evals.<type>` plus the pack's eval definition.
    PromptkitEval(PromptkitEval),
    /// PromptKit RuntimeConfig `spec.selectors.<name>` used as the tool selector.
    PromptkitSelector(PromptkitSelector),
    /// PicoClaw `hooks.processes.<name>`.
    PicoclawHook(PicoclawHook),
    /// runok extension.
    RunokExtension(RunokExtension),
    /// A Claude Code or Codex command hook (`hooks.<event>[].hooks[]` in their settings).
    AgentHook(AgentHook),
}

/// A command hook as the agents' settings configure it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentHook {
    /// The event, as the agent spells it (`PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Stop` …).
    pub event: String,
    /// Tool events: which tools it runs for. `*`, empty or absent: all; a name or `A|B` list of
    /// names: those exactly; anything else is a regular expression on the tool's name.
    #[serde(default)]
    pub matcher: Option<String>,
    /// The hook's timeout (the agents' default: Claude Code 60 s, Codex 600 s).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// PromptKit exec hook.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptkitHook {
    /// provider, tool, session or eval.
    pub hook: String,
    /// Phases it runs in; empty means never (as in PromptKit).
    #[serde(default)]
    pub phases: Vec<String>,
    /// filter (default) or observe; anything but `observe` is filter, as in PromptKit.
    #[serde(default)]
    pub mode: Option<String>,
    /// Deadline; PromptKit's default is 10 s (5 s for eval hooks).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// PromptKit exec tool.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptkitTool {
    /// exec (one-shot, default) or server (JSON-RPC).
    #[serde(default)]
    pub runtime: Option<String>,
    /// The tool descriptor's `timeout_ms` (PromptKit's registry timeout;
    /// pack tools have none and wait up to the 30 s idle timeout). Applied to
    /// server-mode tools: the call fails and the process keeps running.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// PromptKit exec eval.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptkitEval {
    /// The eval id in the pack (defaults to the plugin name).
    #[serde(default)]
    pub id: Option<String>,
    /// every_turn, on_session_complete, sample_turns, sample_sessions.
    pub trigger: String,
    /// For the sampling triggers (default 5.0, as in PromptKit).
    #[serde(default)]
    pub sample_percentage: Option<f64>,
    /// Passed to the eval as `params`.
    #[serde(default)]
    pub params: Value,
    /// Conditions for running at all: tool_called, tool_called_pattern, any_tool_called,
    /// min_tool_calls (all PromptKit reads), and the spec's turn_count_gte and has_variable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Value>,
    /// `{operator: gte|lte|gt|lt|eq, value}`: whether a score passes, as documented (PromptKit
    /// ignores it and passes only a score of 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<Value>,
}

/// PromptKit exec selector, picking which tools the LLM is offered.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptkitSelector {
    /// How many tools to offer at most (the query's `k`; 0 or absent: no limit).
    #[serde(default)]
    pub k: Option<u32>,
}

/// PicoClaw process hook.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PicoclawHook {
    /// Event kinds to observe (`*` for all).
    #[serde(default)]
    pub observe: Vec<String>,
    /// before_llm, after_llm, before_tool, after_tool, approve_tool.
    #[serde(default)]
    pub intercept: Vec<String>,
    /// Lower runs first; ties by name.
    #[serde(default)]
    pub priority: i64,
}

/// runok extension.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunokExtension {
    /// Deadline (runok's tests use 5 s).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// A tool the runtime runs itself, with a scripted result.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ScriptedTool {
    /// The tool returns this text. Under PromptKit, text that is JSON is the value the tool
    /// returns (a host's handler returns a value, not its text), and the model sees it formatted
    /// as PromptKit formats every JSON result.
    Result(String),
    /// The tool fails with this message.
    Error(String),
}

/// A PromptKit pack validator.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Guardrail {
    /// Content must not contain these words (word boundary, case-insensitive).
    BannedWords(GuardrailSpec),
    /// Content at most `max` bytes (PromptKit counts bytes).
    Length(GuardrailSpec),
    /// Sentence count (never triggers in promptkit@86d9f36).
    MaxSentences(GuardrailSpec),
    /// Each field name must occur (case-insensitive substring).
    RequiredFields(GuardrailSpec),
}

/// Parameters of a guardrail.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GuardrailSpec {
    /// banned_words: the words.
    #[serde(default)]
    pub words: Vec<String>,
    /// length: maximum bytes; max_sentences: maximum sentences.
    #[serde(default)]
    pub max: Option<u64>,
    /// required_fields: the fields.
    #[serde(default)]
    pub fields: Vec<String>,
    /// input, output (default) or both.
    #[serde(default)]
    pub direction: Option<String>,
    /// Replacement text when the guardrail blocks.
    #[serde(default)]
    pub message: Option<String>,
}

/// Something that happens from outside the runtime.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Turn {
    /// The user says this.
    User(String),
    /// A pending tool call is approved, with the result the tool returns.
    Resolve(Resolution),
    /// A pending tool call is rejected.
    Reject(Rejection),
    /// runok: a command to validate.
    Command(Command),
}

/// Approval of a pending call.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Resolution {
    /// The call id.
    pub call: String,
    /// The tool result.
    pub result: Value,
}

/// Rejection of a pending call.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rejection {
    /// The call id.
    pub call: String,
    /// Why.
    #[serde(default)]
    pub reason: String,
}

/// A command runok validates.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// The command line as typed.
    pub raw: String,
    /// Environment variables runok passes along.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Working directory.
    #[serde(default)]
    pub cwd: Option<String>,
}

/// What must be observed.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// How the conversation ends: completed, denied, aborted, paused, error.
    #[serde(default)]
    pub outcome: Option<String>,
    /// Text the final assistant message must contain.
    #[serde(default)]
    pub final_text_contains: Option<String>,
    /// Tool results the conversation must contain, in order.
    #[serde(default)]
    pub tool_results: Vec<ExpectToolResult>,
    /// Plugin decisions that must occur, in order.
    #[serde(default)]
    pub decisions: Vec<ExpectDecision>,
    /// Text plugins must have received on stdin, in order (what the runtime sent).
    #[serde(default)]
    pub received: Vec<ExpectReceived>,
    /// Plugin calls that must not occur (`plugin` and `call`).
    #[serde(default)]
    pub not_called: Vec<ExpectCall>,
    /// Denials (hook name, reason text).
    #[serde(default)]
    pub denials: Vec<ExpectDenial>,
    /// Eval scores.
    #[serde(default)]
    pub eval_scores: Vec<ExpectScore>,
    /// Runtime events that must occur, in order.
    #[serde(default)]
    pub events: Vec<String>,
    /// Where a pack's workflow must end up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<ExpectWorkflow>,
}

impl Expectations {
    /// Whether nothing is expected: such a scenario is judged by its snapshot alone.
    pub fn is_empty(&self) -> bool {
        let Expectations {
            outcome,
            final_text_contains,
            tool_results,
            decisions,
            received,
            not_called,
            denials,
            eval_scores,
            events,
            workflow,
        } = self;
        outcome.is_none()
            && final_text_contains.is_none()
            && tool_results.is_empty()
            && decisions.is_empty()
            && received.is_empty()
            && not_called.is_empty()
            && denials.is_empty()
            && eval_scores.is_empty()
            && events.is_empty()
            && workflow.is_none()
    }
}

/// An expected pack workflow run.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectWorkflow {
    /// The state it ends in.
    #[serde(default)]
    pub state: Option<String>,
    /// running, completed, max_visits_exceeded or budget_exhausted.
    #[serde(default)]
    pub status: Option<String>,
    /// Every state entered, in order, the entry state first.
    #[serde(default)]
    pub path: Option<Vec<String>>,
    /// Artifact values at the end (each must be equal).
    #[serde(default)]
    pub artifacts: BTreeMap<String, String>,
}

/// An expected tool result.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectToolResult {
    /// Tool name.
    pub tool: String,
    /// Text the result must contain.
    #[serde(default)]
    pub contains: Option<String>,
    /// Whether the result is an error.
    #[serde(default)]
    pub is_error: Option<bool>,
}

/// An expected plugin decision.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectDecision {
    /// Plugin name.
    pub plugin: String,
    /// The call (PicoClaw method, PromptKit phase, `execute`, `validateCommand`).
    #[serde(default)]
    pub call: Option<String>,
    /// The decision (allow, deny, continue, respond, deny_tool, approved, ask …).
    pub decision: String,
}

/// Something a plugin received.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectReceived {
    /// Plugin name.
    pub plugin: String,
    /// Text one of its stdin writes must contain (exact bytes, e.g. `"Args":`).
    pub contains: String,
}

/// A plugin call.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectCall {
    /// Plugin name.
    pub plugin: String,
    /// The call; any call when absent.
    #[serde(default)]
    pub call: Option<String>,
}

/// An expected denial.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectDenial {
    /// The hook (as the runtime names it in the error).
    pub hook: String,
    /// Text the reason must contain.
    #[serde(default)]
    pub reason_contains: Option<String>,
}

/// An expected eval score.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectScore {
    /// The eval id.
    pub eval: String,
    /// How many times it must have run (default: at least once).
    #[serde(default)]
    pub runs: Option<usize>,
    /// Every score at least this.
    #[serde(default)]
    pub at_least: Option<f64>,
    /// Every score below this.
    #[serde(default)]
    pub below: Option<f64>,
}

/// A transcript redaction: every string matching `pattern` becomes `with`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Redaction {
    /// A literal substring to replace.
    pub pattern: String,
    /// The replacement (default `[redacted]`).
    #[serde(default)]
    pub with: Option<String>,
}

impl Plugin {
    /// The protocol family the plugin speaks and the roles it plays, from its
    /// runtime configuration (a server-mode tool speaks JSON-RPC; PicoClaw
    /// modes come from `intercept` and `observe`).
    pub fn protocol(&self) -> (proctor_conformance::protocol::Family, Vec<proctor_conformance::protocol::Role>) {
        use proctor_conformance::protocol::{Family, Role};
        match &self.config {
            PluginConfig::PromptkitHook(h) => {
                let role = match h.hook.as_str() {
                    "provider" => Role::ProviderHook,
                    "tool" => Role::ToolHook,
                    "session" => Role::SessionHook,
                    _ => Role::EvalHook,
                };
                (Family::PromptkitExec, vec![role])
            }
            PluginConfig::PromptkitTool(t) if t.runtime.as_deref() == Some("server") => (Family::PromptkitServer, vec![Role::Tool]),
            PluginConfig::PromptkitTool(_) => (Family::PromptkitExec, vec![Role::Tool]),
            PluginConfig::PromptkitEval(_) => (Family::PromptkitExec, vec![Role::Eval]),
            PluginConfig::PromptkitSelector(_) => (Family::PromptkitExec, vec![Role::Selector]),
            PluginConfig::PicoclawHook(h) => {
                let mut modes = Vec::new();
                if !h.observe.is_empty() {
                    modes.push(Role::Observe);
                }
                if h.intercept.iter().any(|i| i == "before_llm" || i == "after_llm") {
                    modes.push(Role::Llm);
                }
                if h.intercept.iter().any(|i| i == "before_tool" || i == "after_tool") {
                    modes.push(Role::ToolMode);
                }
                if h.intercept.iter().any(|i| i == "approve_tool") {
                    modes.push(Role::Approve);
                }
                (Family::PicoclawHook, modes)
            }
            PluginConfig::RunokExtension(_) => (Family::RunokExtension, vec![Role::Guard]),
            PluginConfig::AgentHook(h) => {
                use proctor_conformance::protocol::agent_hook;
                let events = [Family::ClaudeCodeHook, Family::CodexHook].map(|f| Role::parse(f, &h.event).ok());
                let event = events.into_iter().flatten().next().and_then(agent_hook::event_of);
                (Family::ClaudeCodeHook, event.map(Role::Event).into_iter().collect())
            }
        }
    }
}
