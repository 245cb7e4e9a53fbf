//! What a pipeline observed, in the terms expectations are written in.

use serde::Serialize;

/// A plugin's decision on one call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecisionRecord {
    /// Plugin name.
    pub plugin: String,
    /// The call (method, phase).
    pub call: String,
    /// The decision as the runtime took it.
    pub decision: String,
}

/// A tool result the LLM was given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolResultRecord {
    /// Tool name.
    pub tool: String,
    /// The text the LLM sees.
    pub content: String,
    /// Whether it reports an error.
    pub is_error: bool,
}

/// A denial raised by a hook.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DenialRecord {
    /// The hook, as the runtime names it.
    pub hook: String,
    /// The runtime's kind of denial (provider_before, tool_before …).
    pub kind: String,
    /// The reason.
    pub reason: String,
}

/// Everything expectations are judged against.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// How the conversation ended.
    pub outcome: Option<String>,
    /// The last assistant text.
    pub final_text: Option<String>,
    /// Tool results, in order.
    pub tool_results: Vec<ToolResultRecord>,
    /// Plugin decisions, in order.
    pub decisions: Vec<DecisionRecord>,
    /// Plugin calls (plugin, call), in order.
    pub calls: Vec<(String, String)>,
    /// Denials, in order.
    pub denials: Vec<DenialRecord>,
    /// Eval scores (eval id, score), in order.
    pub eval_scores: Vec<(String, f64)>,
    /// Runtime events, in order.
    pub events: Vec<String>,
    /// A pack workflow's run: where it went and how it ended.
    pub workflow: Option<WorkflowRecord>,
}

/// What a pack workflow did in one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WorkflowRecord {
    /// The state it is in at the end.
    pub state: String,
    /// `running`, `completed`, `max_visits_exceeded` or `budget_exhausted`.
    pub status: String,
    /// Every state entered, in order, the entry state first.
    pub path: Vec<String>,
    /// Artifact values at the end.
    pub artifacts: std::collections::BTreeMap<String, String>,
}

impl Summary {
    /// Records a call and the decision taken on it.
    pub fn decided(&mut self, plugin: &str, call: &str, decision: impl Into<String>) {
        self.calls.push((plugin.to_string(), call.to_string()));
        self.decisions.push(DecisionRecord { plugin: plugin.into(), call: call.into(), decision: decision.into() });
    }
}
