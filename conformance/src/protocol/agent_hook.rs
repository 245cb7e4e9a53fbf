//! Command hooks of coding agents (Claude Code, Codex CLI): the events, and
//! the JSON document each agent writes on a hook's stdin.
//!
//! A command hook is a process started per event through the agent's shell:
//! one JSON object in (with a trailing `\n` from Claude Code, none from
//! Codex), then stdin closes. What comes back is the exit status, stdout and
//! stderr together; how each agent reads them is modelled in
//! `certify::semantics::agent_reading`. Payloads are written here in the
//! documented form and reshaped per profile: the fields each agent really
//! sends were captured from the pinned releases by interop/agents.

use serde_json::{Map, Value, json};

use super::promptkit_exec::overlay;
use super::{Family, Profile, Role};

/// The coding agent whose hooks a family speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    /// Anthropic's Claude Code (`settings.json` `hooks`).
    ClaudeCode,
    /// OpenAI's Codex CLI (`$CODEX_HOME/hooks.json`).
    Codex,
}

impl Agent {
    /// The agent a family's hooks run in, if it is an agent hook family.
    pub fn of(family: Family) -> Option<Agent> {
        match family {
            Family::ClaudeCodeHook => Some(Agent::ClaudeCode),
            Family::CodexHook => Some(Agent::Codex),
            _ => None,
        }
    }

    /// How long the agent lets a hook run when its settings give no `timeout` (the hooks
    /// references: Claude Code 60 s, Codex 600 s); then it kills the hook and goes on.
    pub fn default_timeout(self) -> std::time::Duration {
        std::time::Duration::from_secs(match self {
            Agent::ClaudeCode => 60,
            Agent::Codex => 600,
        })
    }

    /// The agent's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code",
            Agent::Codex => "Codex",
        }
    }
}

/// A hook event, spelt as the agents spell it in their settings (`--role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookEvent {
    /// Before a tool call runs; may block it (both agents).
    PreToolUse,
    /// When the agent would ask the user for permission (both agents).
    PermissionRequest,
    /// After the auto mode classifier denied a call (Claude Code).
    PermissionDenied,
    /// After a tool call succeeded; may give the model feedback (both agents).
    PostToolUse,
    /// After a tool call failed (Claude Code).
    PostToolUseFailure,
    /// After a batch of tool calls, before the next model call (Claude Code).
    PostToolBatch,
    /// When the agent shows a notification (Claude Code).
    Notification,
    /// Before the user's prompt reaches the model; may block it or add context.
    UserPromptSubmit,
    /// Before a slash command expands into a prompt (Claude Code).
    UserPromptExpansion,
    /// When a message is displayed (Claude Code).
    MessageDisplay,
    /// When the agent is about to stop; may make it go on.
    Stop,
    /// When a turn ends on an API error (Claude Code).
    StopFailure,
    /// When a subagent starts.
    SubagentStart,
    /// When a subagent is about to stop; may make it go on.
    SubagentStop,
    /// When a task is created (Claude Code).
    TaskCreated,
    /// When a task is marked completed (Claude Code).
    TaskCompleted,
    /// When a teammate is about to go idle (Claude Code).
    TeammateIdle,
    /// Before the conversation is compacted.
    PreCompact,
    /// After the conversation was compacted.
    PostCompact,
    /// When a session starts or resumes; may add context.
    SessionStart,
    /// When a session ends.
    SessionEnd,
    /// At `claude --init` or maintenance (Claude Code).
    Setup,
    /// When a CLAUDE.md or rule file is loaded (Claude Code).
    InstructionsLoaded,
    /// When a settings file changes (Claude Code).
    ConfigChange,
    /// When the working directory changes (Claude Code).
    CwdChanged,
    /// When a directory is added to the session (Claude Code).
    DirectoryAdded,
    /// When a watched file changes (Claude Code).
    FileChanged,
    /// When a worktree is to be created; stdout is its path (Claude Code).
    WorktreeCreate,
    /// When a worktree is removed (Claude Code).
    WorktreeRemove,
    /// When an MCP server asks the user for input (Claude Code).
    Elicitation,
    /// After the user answered an MCP elicitation (Claude Code).
    ElicitationResult,
    /// Before the model is switched (Claude Code 2.1.332, not in the reference).
    PreModelSwitch,
    /// After the model was switched (Claude Code 2.1.332, not in the reference).
    PostModelSwitch,
    /// Before a skill runs a shell command (Claude Code 2.1.332, not in the reference).
    PreSkillShellCommand,
    /// When the user interrupts a turn (Codex 0.171.0).
    Interrupt,
}

/// What an agent does with an event's hook: whether it is matched on the tool name, whether
/// exit 2 (or a JSON block) blocks anything, and the event's own fields, documented form.
struct EventSpec {
    name: &'static str,
    tool: bool,
    blocks: bool,
    fields: &'static str,
}

const BASH: &str = r#"{"tool_name":"Bash","tool_input":{"command":"ls -la","description":"List files"}}"#;

impl HookEvent {
    fn spec(self) -> EventSpec {
        let e = |name, blocks, fields| EventSpec { name, tool: false, blocks, fields };
        let tool = |name, blocks, fields| EventSpec { name, tool: true, blocks, fields };
        match self {
            HookEvent::PreToolUse => tool("PreToolUse", true, BASH),
            HookEvent::PermissionRequest => tool("PermissionRequest", true, BASH),
            HookEvent::PermissionDenied => tool(
                "PermissionDenied",
                false,
                r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf build"},"reason":"the auto mode classifier denied it"}"#,
            ),
            HookEvent::PostToolUse => tool(
                "PostToolUse",
                true,
                r#"{"tool_name":"Bash","tool_input":{"command":"ls -la","description":"List files"},"tool_response":{"stdout":"a.txt\nb.txt","stderr":""}}"#,
            ),
            HookEvent::PostToolUseFailure => tool(
                "PostToolUseFailure",
                true,
                r#"{"tool_name":"Bash","tool_input":{"command":"ls -la","description":"List files"},"error":"Command exited with non-zero status code 1","is_interrupt":false}"#,
            ),
            HookEvent::PostToolBatch => e(
                "PostToolBatch",
                true,
                r#"{"tool_calls":[{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_01","tool_response":"a.txt"}]}"#,
            ),
            HookEvent::Notification => e(
                "Notification",
                false,
                r#"{"message":"Claude needs your permission to use Bash","title":"Permission needed","notification_type":"permission_prompt"}"#,
            ),
            HookEvent::UserPromptSubmit => e("UserPromptSubmit", true, r#"{"prompt":"list the files"}"#),
            HookEvent::UserPromptExpansion => e(
                "UserPromptExpansion",
                true,
                r#"{"expansion_type":"slash_command","command_name":"review","command_args":"","command_source":"project","prompt":"/review"}"#,
            ),
            HookEvent::MessageDisplay => {
                e("MessageDisplay", false, r#"{"message_id":"msg_01","delta":"Here are","index":0,"final":false}"#)
            }
            HookEvent::Stop => e("Stop", true, r#"{"stop_hook_active":false,"last_assistant_message":"Here are the files."}"#),
            HookEvent::StopFailure => e("StopFailure", false, r#"{"error":"rate_limit","last_assistant_message":""}"#),
            HookEvent::SubagentStart => e("SubagentStart", false, r#"{"agent_id":"agent-1","agent_type":"general-purpose"}"#),
            HookEvent::SubagentStop => e(
                "SubagentStop",
                true,
                r#"{"stop_hook_active":false,"agent_id":"agent-1","agent_type":"general-purpose","agent_transcript_path":"/home/user/.claude/agents/agent-1.jsonl","last_assistant_message":"Done."}"#,
            ),
            HookEvent::TaskCreated => e("TaskCreated", true, r#"{"task_id":"task-1","task_subject":"Write the tests"}"#),
            HookEvent::TaskCompleted => e("TaskCompleted", true, r#"{"task_id":"task-1","task_subject":"Write the tests"}"#),
            HookEvent::TeammateIdle => e("TeammateIdle", true, r#"{"teammate_name":"reviewer","team_name":"core"}"#),
            HookEvent::PreCompact => e("PreCompact", true, r#"{"trigger":"manual","custom_instructions":""}"#),
            HookEvent::PostCompact => e("PostCompact", false, r#"{"trigger":"manual","compact_summary":"The user asked for the files."}"#),
            HookEvent::SessionStart => e("SessionStart", false, r#"{"source":"startup"}"#),
            HookEvent::SessionEnd => e("SessionEnd", false, r#"{"reason":"other"}"#),
            HookEvent::Setup => e("Setup", false, r#"{"trigger":"init"}"#),
            HookEvent::InstructionsLoaded => e(
                "InstructionsLoaded",
                false,
                r#"{"file_path":"/home/user/project/CLAUDE.md","memory_type":"Project","load_reason":"session_start"}"#,
            ),
            HookEvent::ConfigChange => {
                e("ConfigChange", true, r#"{"source":"project_settings","file_path":"/home/user/project/.claude/settings.json"}"#)
            }
            HookEvent::CwdChanged => e("CwdChanged", false, r#"{"old_cwd":"/home/user/project","new_cwd":"/home/user/project/src"}"#),
            HookEvent::DirectoryAdded => e("DirectoryAdded", false, r#"{"directory":"/home/user/shared","source":"add_dir"}"#),
            HookEvent::FileChanged => e("FileChanged", false, r#"{"file_path":"/home/user/project/.env","event":"change"}"#),
            HookEvent::WorktreeCreate => e("WorktreeCreate", true, r#"{"name":"feature-x"}"#),
            HookEvent::WorktreeRemove => e("WorktreeRemove", false, r#"{"worktree_path":"/home/user/project-feature-x"}"#),
            HookEvent::Elicitation => {
                e("Elicitation", true, r#"{"mcp_server_name":"tickets","message":"Which project?","mode":"form","elicitation_id":"el-1"}"#)
            }
            HookEvent::ElicitationResult => {
                e("ElicitationResult", true, r#"{"mcp_server_name":"tickets","action":"accept","elicitation_id":"el-1"}"#)
            }
            HookEvent::PreModelSwitch => e("PreModelSwitch", true, r#"{"from_model":"claude-sonnet-5","to_model":"claude-opus-5-5"}"#),
            HookEvent::PostModelSwitch => e("PostModelSwitch", false, r#"{"from_model":"claude-sonnet-5","to_model":"claude-opus-5-5"}"#),
            HookEvent::PreSkillShellCommand => e("PreSkillShellCommand", true, r#"{"skill_name":"release","command":"git tag v1.2.0"}"#),
            HookEvent::Interrupt => e("Interrupt", false, "{}"),
        }
    }

    /// The name as the agents spell it.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Whether the event is about one tool call (its matcher is matched against the tool's name).
    pub fn is_tool_event(self) -> bool {
        self.spec().tool
    }

    /// The decisions a hook on this event can bring about, as `--cases` names them: `proceed`
    /// (the agent goes on), `block` (the call, prompt or stop is blocked), `allow` (a tool call
    /// is allowed without asking), `ask` (the user is asked), `stop` (`continue: false`).
    pub fn decisions(self) -> &'static [&'static str] {
        match self {
            HookEvent::PreToolUse => &["proceed", "block", "allow", "ask", "stop"],
            HookEvent::PermissionRequest => &["proceed", "block", "allow", "stop"],
            e if e.spec().blocks => &["proceed", "block", "stop"],
            _ => &["proceed", "stop"],
        }
    }
}

/// Claude Code's events: the 31 of its hooks reference (as of 2.1.240, the newest published),
/// and the three more its 2.1.332 binary knows.
pub const CLAUDE_CODE_EVENTS: &[Role] = &[
    Role::Event(HookEvent::PreToolUse),
    Role::Event(HookEvent::PermissionRequest),
    Role::Event(HookEvent::PermissionDenied),
    Role::Event(HookEvent::PostToolUse),
    Role::Event(HookEvent::PostToolUseFailure),
    Role::Event(HookEvent::PostToolBatch),
    Role::Event(HookEvent::Notification),
    Role::Event(HookEvent::UserPromptSubmit),
    Role::Event(HookEvent::UserPromptExpansion),
    Role::Event(HookEvent::MessageDisplay),
    Role::Event(HookEvent::Stop),
    Role::Event(HookEvent::StopFailure),
    Role::Event(HookEvent::SubagentStart),
    Role::Event(HookEvent::SubagentStop),
    Role::Event(HookEvent::TaskCreated),
    Role::Event(HookEvent::TaskCompleted),
    Role::Event(HookEvent::TeammateIdle),
    Role::Event(HookEvent::PreCompact),
    Role::Event(HookEvent::PostCompact),
    Role::Event(HookEvent::SessionStart),
    Role::Event(HookEvent::SessionEnd),
    Role::Event(HookEvent::Setup),
    Role::Event(HookEvent::InstructionsLoaded),
    Role::Event(HookEvent::ConfigChange),
    Role::Event(HookEvent::CwdChanged),
    Role::Event(HookEvent::DirectoryAdded),
    Role::Event(HookEvent::FileChanged),
    Role::Event(HookEvent::WorktreeCreate),
    Role::Event(HookEvent::WorktreeRemove),
    Role::Event(HookEvent::Elicitation),
    Role::Event(HookEvent::ElicitationResult),
    Role::Event(HookEvent::PreModelSwitch),
    Role::Event(HookEvent::PostModelSwitch),
    Role::Event(HookEvent::PreSkillShellCommand),
];

/// Codex's events: the ten of its hooks documentation, and SessionEnd and Interrupt, which
/// 0.171.0 adds (schemas embedded in its binary).
pub const CODEX_EVENTS: &[Role] = &[
    Role::Event(HookEvent::PreToolUse),
    Role::Event(HookEvent::PermissionRequest),
    Role::Event(HookEvent::PostToolUse),
    Role::Event(HookEvent::UserPromptSubmit),
    Role::Event(HookEvent::Stop),
    Role::Event(HookEvent::SubagentStart),
    Role::Event(HookEvent::SubagentStop),
    Role::Event(HookEvent::PreCompact),
    Role::Event(HookEvent::PostCompact),
    Role::Event(HookEvent::SessionStart),
    Role::Event(HookEvent::SessionEnd),
    Role::Event(HookEvent::Interrupt),
];

/// The event a role names, for an agent hook role.
pub fn event_of(role: Role) -> Option<HookEvent> {
    match role {
        Role::Event(e) => Some(e),
        _ => None,
    }
}

/// The event-specific fields of a probe when the author gives none: a shell command listing
/// files, its output, a prompt …
pub fn default_fields(event: HookEvent) -> Value {
    serde_json::from_str(event.spec().fields).unwrap_or(Value::Null)
}

/// The probes certify sends for an event: the fields of each, in the documented form.
pub fn probes(agent: Agent, event: HookEvent) -> Vec<Value> {
    let mut probes = vec![default_fields(event)];
    if event.is_tool_event() && agent == Agent::ClaudeCode {
        // Claude Code's hooks see every tool, not only the shell: a file write too.
        let write = json!({"tool_name": "Write", "tool_input": {"file_path": "/home/user/project/notes.md", "content": "# Notes\n"}});
        let write = match event {
            HookEvent::PostToolUse => {
                overlay(write, &json!({"tool_response": {"filePath": "/home/user/project/notes.md", "success": true}}))
            }
            HookEvent::PostToolUseFailure => overlay(write, &json!({"error": "EACCES: permission denied"})),
            _ => write,
        };
        probes.push(write);
    }
    probes
}

/// The whole stdin document for `event` with `fields` (documented form), as
/// `profile`'s agent writes it. Under `documented` the common fields are the
/// ones the hooks references list; each release adds its own, and reshapes
/// `tool_response` (Codex: the command's output as a string).
pub fn payload(agent: Agent, profile: Profile, event: HookEvent, fields: &Value) -> Value {
    let runtime = profile.agent_event_fields();
    let mut doc = Map::new();
    let mut put = |k: &str, v: Value| {
        doc.insert(k.to_string(), v);
    };
    match agent {
        Agent::ClaudeCode => {
            put("session_id", json!("5f1c2d3e-8a9b-4c0d-9e1f-2a3b4c5d6e7f"));
            put("transcript_path", json!("/home/user/.claude/projects/-home-user-project/5f1c2d3e-8a9b-4c0d-9e1f-2a3b4c5d6e7f.jsonl"));
            put("cwd", json!("/home/user/project"));
            if runtime && event != HookEvent::SessionStart {
                put("prompt_id", json!("8e05a8bb-10fd-4e41-9dbb-92d1d2dbf01e"));
            }
            if !matches!(event, HookEvent::SessionStart | HookEvent::SessionEnd) {
                put("permission_mode", json!("default"));
            }
            if runtime && (event.is_tool_event() || matches!(event, HookEvent::Stop | HookEvent::SubagentStop)) {
                put("effort", json!({"level": "medium"}));
            }
            put("hook_event_name", json!(event.name()));
        }
        Agent::Codex => {
            put("session_id", json!("01a21f98-030b-7a80-8a81-03197c051829"));
            if !matches!(event, HookEvent::SessionStart) {
                put("turn_id", json!("01a21f98-031f-7b51-9b43-d860295ff071"));
            }
            put("transcript_path", json!("/home/user/.codex/sessions/2026/11/28/rollout-2026-11-28T00-39-45-01a21f98.jsonl"));
            put("cwd", json!("/home/user/project"));
            put("hook_event_name", json!(event.name()));
            put("model", json!("gpt-5.5-codex"));
            put("permission_mode", json!(if runtime { "bypassPermissions" } else { "default" }));
        }
    }
    let mut doc = Value::Object(doc);
    doc = overlay(doc, &reshaped(agent, profile, event, fields));
    if agent == Agent::ClaudeCode && runtime {
        // What 2.1.332 adds beside the documented fields (captured by interop/agents).
        let extra = match event {
            HookEvent::PostToolUse => json!({"duration_ms": 54}),
            HookEvent::Stop => json!({"background_tasks": [], "session_crons": []}),
            _ => json!({}),
        };
        if let (Some(d), Some(e)) = (doc.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                d.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    if event.is_tool_event() && doc.get("tool_use_id").is_none() {
        let id = if agent == Agent::Codex { "call_61c2d4fb113c" } else { "toolu_4e77ca0b7f904e728431" };
        if let Some(obj) = doc.as_object_mut() {
            obj.insert("tool_use_id".into(), json!(id));
        }
    }
    doc
}

/// The event's fields as the agent sends them: Codex shows its shell tool to
/// hooks as `Bash` with the command only, and a tool's response as the
/// command's output string; Claude Code sends the tool's own response object.
fn reshaped(agent: Agent, profile: Profile, event: HookEvent, fields: &Value) -> Value {
    let mut fields = fields.clone();
    let Some(obj) = fields.as_object_mut() else { return fields };
    if agent == Agent::Codex && profile.agent_event_fields() {
        if let Some(input) = obj.get_mut("tool_input").and_then(Value::as_object_mut) {
            input.retain(|k, _| k == "command");
        }
        if let Some(response) = obj.get_mut("tool_response")
            && !response.is_string()
        {
            let out = response.get("stdout").and_then(Value::as_str).map(|s| format!("{s}\n")).unwrap_or_else(|| response.to_string());
            *response = json!(out);
        }
    }
    if agent == Agent::ClaudeCode && event == HookEvent::PostToolUse && obj.get("tool_name") == Some(&json!("Bash")) {
        // Bash's result object, whole (a case may give the output as a string, or stdout only).
        let given = obj.get("tool_response").cloned().unwrap_or(Value::Null);
        let stdout = given.as_str().map(str::to_string);
        let base = json!({"stdout": stdout.clone().unwrap_or_default(), "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false});
        let response = if stdout.is_some() || !given.is_object() { base } else { overlay(base, &given) };
        obj.insert("tool_response".into(), response);
    }
    fields
}

/// The bytes the agent writes on the hook's stdin for `event` with `fields` (documented form):
/// compact JSON, and Claude Code 2.1.332 ends it in `\n` (Codex, and the references, do not).
pub fn stdin(agent: Agent, profile: Profile, event: HookEvent, fields: &Value) -> Vec<u8> {
    let mut bytes = super::wire::encode(&payload(agent, profile, event, fields), Profile::Documented);
    if agent == Agent::ClaudeCode && profile.agent_event_fields() {
        bytes.push(b'\n');
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_shows_its_shell_as_bash_with_the_command_only_and_its_output_as_a_string() {
        let fields = default_fields(HookEvent::PostToolUse);
        let doc = payload(Agent::Codex, Profile::Codex0171, HookEvent::PostToolUse, &fields);
        assert_eq!(doc["tool_input"], json!({"command": "ls -la"}));
        assert_eq!(doc["tool_response"], json!("a.txt\nb.txt\n"));
        assert_eq!(doc["tool_use_id"], json!("call_61c2d4fb113c"));
        let claude = payload(Agent::ClaudeCode, Profile::ClaudeCode21332, HookEvent::PostToolUse, &fields);
        assert_eq!(claude["tool_response"]["stdout"], json!("a.txt\nb.txt"));
        assert_eq!(claude["effort"], json!({"level": "medium"}));
    }

    #[test]
    fn a_string_response_reaches_claude_code_as_its_bash_result_object() {
        let fields = json!({"tool_name": "Bash", "tool_input": {"command": "cat .env"}, "tool_response": "KEY=1"});
        let doc = payload(Agent::ClaudeCode, Profile::Documented, HookEvent::PostToolUse, &fields);
        assert_eq!(doc["tool_response"]["stdout"], json!("KEY=1"));
        assert_eq!(doc["hook_event_name"], json!("PostToolUse"));
    }
}
