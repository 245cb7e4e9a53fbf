//! The protocol families proctor speaks, and the roles each one knows.
//!
//! A family fixes the transport (one-shot document, long-lived JSON-RPC, one
//! JSON-RPC request per process) and the vocabulary of messages. Roles narrow
//! the vocabulary: a PromptKit exec plugin is a tool *or* an eval *or* a hook.

use std::fmt;
use std::str::FromStr;

/// A plugin protocol family, named as on the command line (`--protocol`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// PromptKit exec, one-shot: one JSON document in, one out, process exits.
    PromptkitExec,
    /// PromptKit `runtime: server`: long-lived JSON-RPC 2.0, method `execute`.
    PromptkitServer,
    /// PicoClaw process hooks: long-lived JSON-RPC 2.0 with a `hook.hello` handshake.
    PicoclawHook,
    /// runok extensions: one JSON-RPC 2.0 `validateCommand` request per process.
    RunokExtension,
    /// Claude Code command hooks: one event document per process; exit status, stdout and stderr answer.
    ClaudeCodeHook,
    /// Codex CLI command hooks: the same shape, read by Codex's own rules.
    CodexHook,
}

/// How bytes move between the runtime and the plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// Write one document, close stdin, read stdout to EOF, process exits.
    OneShot,
    /// Line-delimited JSON-RPC 2.0 over a process that serves many requests.
    LongLivedJsonRpc,
    /// A coding agent's command hook: one event document in, stdin closed;
    /// the exit status, stdout and stderr together are the answer.
    CommandHook,
}

impl Family {
    /// Every family, in the order they are listed to users.
    pub const ALL: [Family; 6] = [
        Family::PromptkitExec,
        Family::PromptkitServer,
        Family::PicoclawHook,
        Family::RunokExtension,
        Family::ClaudeCodeHook,
        Family::CodexHook,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::PromptkitExec => "promptkit-exec",
            Family::PromptkitServer => "promptkit-server",
            Family::PicoclawHook => "picoclaw-hook",
            Family::RunokExtension => "runok-extension",
            Family::ClaudeCodeHook => "claude-code-hook",
            Family::CodexHook => "codex-hook",
        }
    }

    /// The document that specifies this family, as the check catalogue cites it (PromptKit's
    /// server mode is a section of its exec document).
    pub fn document(self) -> &'static str {
        match self {
            Family::PromptkitExec | Family::PromptkitServer => "promptkit-exec-protocol.txt",
            Family::PicoclawHook => "picoclaw-hook-protocol.md",
            Family::RunokExtension => "runok-extension-protocol.txt",
            Family::ClaudeCodeHook => "code.claude.com/docs/en/hooks",
            Family::CodexHook => "developers.openai.com/codex/hooks",
        }
    }

    /// How the runtime talks to plugins of this family.
    pub fn transport(self) -> Transport {
        match self {
            Family::PromptkitExec | Family::RunokExtension => Transport::OneShot,
            Family::PromptkitServer | Family::PicoclawHook => Transport::LongLivedJsonRpc,
            Family::ClaudeCodeHook | Family::CodexHook => Transport::CommandHook,
        }
    }

    /// Whether messages are JSON-RPC 2.0 envelopes (runok is one-shot *and* JSON-RPC).
    pub fn is_jsonrpc(self) -> bool {
        !matches!(self, Family::PromptkitExec | Family::ClaudeCodeHook | Family::CodexHook)
    }

    /// Whether plugins of this family are a coding agent's command hooks (`--role` is the event).
    pub fn is_agent_hook(self) -> bool {
        matches!(self, Family::ClaudeCodeHook | Family::CodexHook)
    }

    /// The roles (PicoClaw: modes) a plugin of this family can take.
    pub fn roles(self) -> &'static [Role] {
        match self {
            Family::PromptkitExec => {
                &[Role::Tool, Role::Eval, Role::ProviderHook, Role::ToolHook, Role::SessionHook, Role::EvalHook, Role::Selector]
            }
            Family::PromptkitServer => &[Role::Tool],
            Family::PicoclawHook => &[Role::Observe, Role::Llm, Role::ToolMode, Role::Approve],
            Family::RunokExtension => &[Role::Guard],
            Family::ClaudeCodeHook => super::agent_hook::CLAUDE_CODE_EVENTS,
            Family::CodexHook => super::agent_hook::CODEX_EVENTS,
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown family or role name, with the names that would have worked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{given}`; expected one of: {}", expected.join(", "))]
pub struct UnknownName {
    /// "protocol" or "role".
    pub what: &'static str,
    /// What the user wrote.
    pub given: String,
    /// The accepted names.
    pub expected: Vec<&'static str>,
}

impl FromStr for Family {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Family::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| UnknownName {
            what: "protocol",
            given: s.to_string(),
            expected: Family::ALL.iter().map(|f| f.name()).collect(),
        })
    }
}

/// What a plugin does for its runtime. PicoClaw calls these "modes"; a PicoClaw
/// hook usually takes several at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// PromptKit tool (one-shot or server mode).
    Tool,
    /// PromptKit exec eval: scores assistant output.
    Eval,
    /// PromptKit provider hook: filters LLM calls (`before_call`, `after_call`).
    ProviderHook,
    /// PromptKit tool hook: filters tool calls (`before_execution`, `after_execution`).
    ToolHook,
    /// PromptKit session hook: observes session start, updates and end.
    SessionHook,
    /// PromptKit eval hook: receives each eval result; its stdout is ignored.
    EvalHook,
    /// PromptKit exec selector (`spec.selectors`): picks candidates for a query.
    Selector,
    /// PicoClaw mode `observe`: runtime event notifications.
    Observe,
    /// PicoClaw mode `llm`: `hook.before_llm` and `hook.after_llm`.
    Llm,
    /// PicoClaw mode `tool`: `hook.before_tool` and `hook.after_tool`.
    ToolMode,
    /// PicoClaw mode `approve`: `hook.approve_tool`.
    Approve,
    /// runok's single role: validate a command.
    Guard,
    /// A coding agent's hook event (Claude Code, Codex), spelt as the agent spells it.
    Event(super::agent_hook::HookEvent),
}

impl Role {
    /// The name used on the command line (`--role`) and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Role::Tool => "tool",
            Role::Eval => "eval",
            Role::ProviderHook => "provider-hook",
            Role::ToolHook => "tool-hook",
            Role::SessionHook => "session-hook",
            Role::EvalHook => "eval-hook",
            Role::Selector => "selector",
            Role::Observe => "observe",
            Role::Llm => "llm",
            Role::ToolMode => "tool",
            Role::Approve => "approve",
            Role::Guard => "guard",
            Role::Event(e) => e.name(),
        }
    }

    /// Parses a role name within a family (PicoClaw's `tool` is a mode, not PromptKit's tool).
    pub fn parse(family: Family, s: &str) -> Result<Role, UnknownName> {
        family.roles().iter().copied().find(|r| r.name() == s).ok_or_else(|| UnknownName {
            what: "role",
            given: s.to_string(),
            expected: family.roles().iter().map(|r| r.name()).collect(),
        })
    }

    /// Parses a comma-separated list of roles (PicoClaw modes), keeping the family's order.
    pub fn parse_list(family: Family, s: &str) -> Result<Vec<Role>, UnknownName> {
        let mut roles = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let role = Role::parse(family, part)?;
            if !roles.contains(&role) {
                roles.push(role);
            }
        }
        roles.sort_by_key(|r| family.roles().iter().position(|x| x == r));
        Ok(roles)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_names_round_trip() {
        for f in Family::ALL {
            assert_eq!(f.name().parse::<Family>().unwrap(), f);
        }
        let err = "picoclaw".parse::<Family>().unwrap_err();
        assert!(err.to_string().contains("picoclaw-hook"), "{err}");
    }

    #[test]
    fn picoclaw_modes_parse_in_canonical_order() {
        let roles = Role::parse_list(Family::PicoclawHook, "approve, observe,tool").unwrap();
        assert_eq!(roles, vec![Role::Observe, Role::ToolMode, Role::Approve]);
        assert!(Role::parse(Family::PicoclawHook, "eval").is_err());
        assert_eq!(Role::parse(Family::PromptkitExec, "tool").unwrap(), Role::Tool);
    }
}
