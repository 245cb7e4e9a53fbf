//! What an answer means for the plugin's role, judged the way its runtime
//! reads it.
//!
//! A judge returns the [`Decision`] the runtime would act on (so `--cases`
//! can compare it with the author's expectation) and one [`Finding`] per
//! semantic check the answer could be held to.

pub mod agent_reading;
mod codex_output;
pub(crate) mod go_reading;
mod picoclaw;
mod promptkit;
mod runok;
pub(crate) mod runok_reading;

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::check::{CheckId, Failure};
use crate::protocol::{Family, Profile, Role};

pub use picoclaw::judge_approval;

/// The decision a runtime takes from an answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A filter hook let the call through.
    Allow,
    /// A filter hook blocked it (also: anything the runtime reads as a block).
    Deny,
    /// A filter hook blocked it and says it enforced its policy itself.
    Enforced,
    /// An observer acknowledged.
    Ack,
    /// A tool returned a result.
    Result,
    /// A tool (or JSON-RPC server) returned an error.
    Error,
    /// A tool asked to pause for approval.
    Pending,
    /// An eval scored the output.
    Score(f64),
    /// A PicoClaw interceptor's action.
    Action(String),
    /// A PicoClaw approval.
    Approved(bool),
    /// A runok verdict (`allow`, `deny`, `ask`).
    Status(String),
    /// A selector's picks, in its order.
    Selected(Vec<String>),
    /// What a coding agent does after its hook (`proceed`, `block`, `allow`, `ask`, `stop`).
    Effect(String),
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Allow => f.write_str("allow"),
            Decision::Deny => f.write_str("deny"),
            Decision::Enforced => f.write_str("enforced"),
            Decision::Ack => f.write_str("ack"),
            Decision::Result => f.write_str("result"),
            Decision::Error => f.write_str("error"),
            Decision::Pending => f.write_str("pending"),
            Decision::Score(s) => write!(f, "score {s}"),
            Decision::Action(a) => f.write_str(a),
            Decision::Approved(true) => f.write_str("approved"),
            Decision::Approved(false) => f.write_str("denied"),
            Decision::Status(s) => f.write_str(s),
            Decision::Selected(ids) => write!(f, "selected [{}]", ids.join(", ")),
            Decision::Effect(e) => f.write_str(e),
        }
    }
}

/// One semantic check decided by one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The check.
    pub check: CheckId,
    /// `Ok` when the answer satisfies it.
    pub result: Result<(), Failure>,
}

impl Finding {
    pub(crate) fn pass(check: CheckId) -> Self {
        Finding { check, result: Ok(()) }
    }

    pub(crate) fn mismatch(check: CheckId, path: &str, expected: &str, actual: impl Into<String>) -> Self {
        Finding { check, result: Err(Failure::Mismatch { path: path.to_string(), expected: expected.to_string(), actual: actual.into() }) }
    }

    pub(crate) fn check(check: CheckId, ok: bool, path: &str, expected: &str, actual: impl FnOnce() -> String) -> Self {
        if ok { Finding::pass(check) } else { Finding::mismatch(check, path, expected, actual()) }
    }
}

/// The decision and the findings of one answer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Judged {
    /// What the runtime would do; `None` when the answer carries no decision.
    pub decision: Option<Decision>,
    /// Semantic checks decided by this answer.
    pub findings: Vec<Finding>,
}

/// What was asked, for judging what came back.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    /// The plugin's family.
    pub family: Family,
    /// The role the request addressed (for PicoClaw, the mode of the method).
    pub role: Role,
    /// The PicoClaw method or PromptKit hook phase, when there is one.
    pub method: Option<&'a str>,
    /// The profile the request was rendered for.
    pub profile: Profile,
    /// The params (PicoClaw) or whole request (one-shot) that were sent.
    pub request: &'a Value,
    /// The decision the author's `--cases` case expects of this answer
    /// (`None` for the built-in probes): where the runtime resolves an
    /// ambiguous answer one way, the case says whether that way was meant.
    pub meant: Option<&'a str>,
}

/// Judges an answer: a one-shot document, or a JSON-RPC `result`.
pub fn judge(asked: Asked<'_>, answer: &Value) -> Judged {
    match asked.family {
        Family::PromptkitExec => promptkit::judge(asked, answer),
        Family::PicoclawHook => picoclaw::judge(asked, answer),
        Family::RunokExtension => runok::judge(answer),
        Family::PromptkitServer => Judged { decision: Some(Decision::Result), findings: Vec::new() },
        // Read whole by agent_reading, never as one document.
        Family::ClaudeCodeHook | Family::CodexHook => Judged::default(),
    }
}

/// Names a JSON value's type for messages.
pub(crate) fn describe(v: Option<&Value>) -> String {
    match v {
        None => "missing".to_string(),
        Some(v) => {
            let text = v.to_string();
            let text = if text.len() > 80 { format!("{}…", &text[..text.floor_char_boundary(80)]) } else { text };
            format!("{} {text}", crate::framing::json_type_name(v))
        }
    }
}
