//! The in-process provider: a runtime under simulation calls
//! [`ScriptedLlm::complete`] where the real one would call a model.

use serde::Serialize;
use serde_json::Value;

use super::script::{LlmDisconnect, LlmError, LlmRound, RoundMatch, ToolCall};

/// One message of a conversation, in the provider-neutral shape the
/// reference pipelines use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmMessage {
    /// system, user, assistant or tool.
    pub role: String,
    /// Text content.
    pub content: String,
    /// Tool calls (assistant messages).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ResolvedCall>,
    /// The call a tool message answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

/// A tool call with its id settled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResolvedCall {
    /// Call id.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments.
    pub arguments: Value,
}

impl LlmMessage {
    /// A message with text only.
    pub fn text(role: &str, content: impl Into<String>) -> Self {
        LlmMessage { role: role.to_string(), content: content.into(), tool_calls: Vec::new(), tool_call_id: None }
    }
}

/// What the runtime asks the provider.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmRequest {
    /// The conversation so far.
    pub messages: Vec<LlmMessage>,
    /// Tool names offered.
    pub tools: Vec<String>,
    /// The offered tools as the runtime puts them on the wire (`{"type": "function", "function":
    /// {...}}`), for those the simulation knows; a journal writes these instead of a bare name.
    pub tool_specs: Vec<serde_json::Value>,
    /// The whole body as the runtime under simulation sends it, when the simulation knows it (a
    /// runtime profile that was measured on the wire); a journal writes it as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire: Option<serde_json::Value>,
}

/// What the provider answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmResponse {
    /// An assistant message.
    Reply {
        /// Text.
        text: String,
        /// Tool calls, ids resolved.
        tool_calls: Vec<ResolvedCall>,
        /// The stream chunks, when streamed.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        chunks: Vec<String>,
        /// Scripted delay.
        #[serde(skip)]
        delay_ms: u64,
    },
    /// A provider error.
    Error {
        /// Status.
        status: u16,
        /// Message.
        message: String,
    },
    /// HTTP 200 with a raw body that is (usually) not valid JSON.
    Malformed {
        /// The body, sent as is.
        body: String,
    },
    /// The connection drops mid-answer.
    Disconnect {
        /// SSE events sent before the drop.
        after_chunks: usize,
        /// Content deltas streamed before the drop.
        chunks: Vec<String>,
    },
}

impl LlmResponse {
    /// For the transport faults (malformed body, dropped connection), what a
    /// client would have seen, in words; `None` for replies and errors. The
    /// in-process pipelines treat these as a failed provider call.
    pub fn fault(&self) -> Option<String> {
        match self {
            LlmResponse::Malformed { body } => Some(format!("the provider answered a malformed body: {body:?}")),
            LlmResponse::Disconnect { after_chunks, .. } => {
                Some(format!("the provider dropped the connection after {after_chunks} stream chunk(s)"))
            }
            LlmResponse::Reply { .. } | LlmResponse::Error { .. } => None,
        }
    }
}

/// A call the script does not cover.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ScriptMiss {
    /// 1-based number of the call.
    pub call: usize,
    /// Whether the script had ended (an unexpected call) rather than the
    /// round's `when` not matching (a mismatched one).
    pub beyond_script: bool,
    /// What went wrong, naming the nearest scripted round and the difference.
    pub message: String,
}

/// The scripted provider.
#[derive(Debug, Clone)]
pub struct ScriptedLlm {
    rounds: Vec<LlmRound>,
    next: usize,
}

impl ScriptedLlm {
    /// A provider answering from `rounds`.
    pub fn new(rounds: Vec<LlmRound>) -> Self {
        ScriptedLlm { rounds, next: 0 }
    }

    /// How many rounds were consumed.
    pub fn used(&self) -> usize {
        self.next
    }

    /// Rounds never asked for (a scenario that scripts more than happens is
    /// usually wrong too).
    pub fn unused(&self) -> usize {
        self.rounds.len() - self.next
    }

    /// The rounds never asked for, each as `round N (what it answers)`.
    pub fn unused_rounds(&self) -> Vec<String> {
        self.rounds.iter().enumerate().skip(self.next).map(|(i, r)| format!("round {} ({})", i + 1, summary(r))).collect()
    }

    /// Answers the next call, or explains why the script does not cover it.
    pub fn complete(&mut self, request: &LlmRequest) -> Result<LlmResponse, ScriptMiss> {
        let call = self.next + 1;
        let Some(round) = self.rounds.get(self.next) else {
            let nearest = self
                .rounds
                .last()
                .map_or("the script is empty".to_string(), |r| format!("the last scripted round is {}: {}", self.rounds.len(), summary(r)));
            return Err(ScriptMiss {
                call,
                beyond_script: true,
                message: format!("LLM call {call} is not scripted ({nearest}); the request ended with {}", last(request)),
            });
        };
        if let LlmRound::Reply(reply) = round
            && let Some(when) = &reply.when
            && let Some(diff) = mismatch(when, request)
        {
            return Err(ScriptMiss {
                call,
                beyond_script: false,
                message: format!("LLM call {call} does not match round {call} ({}): {diff}", summary(round)),
            });
        }
        self.next += 1;
        Ok(match round {
            LlmRound::Reply(r) => LlmResponse::Reply {
                text: if r.text.is_empty() { r.chunks.concat() } else { r.text.clone() },
                tool_calls: r.tool_calls.iter().enumerate().map(|(i, c)| resolve(i, c)).collect(),
                chunks: r.chunks.clone(),
                delay_ms: r.delay_ms,
            },
            LlmRound::Error(LlmError { status, message }) => LlmResponse::Error { status: *status, message: message.clone() },
            LlmRound::Malformed(body) => LlmResponse::Malformed { body: body.clone() },
            LlmRound::Disconnect(LlmDisconnect { after_chunks, chunks }) => {
                LlmResponse::Disconnect { after_chunks: *after_chunks, chunks: chunks.clone() }
            }
        })
    }
}

/// PromptKit's mock provider ids: `call_<index>_<name>`.
fn resolve(i: usize, call: &ToolCall) -> ResolvedCall {
    ResolvedCall {
        id: call.id.clone().unwrap_or_else(|| format!("call_{i}_{}", call.name)),
        name: call.name.clone(),
        arguments: if call.arguments.is_null() { Value::Object(Default::default()) } else { call.arguments.clone() },
    }
}

fn summary(round: &LlmRound) -> String {
    match round {
        LlmRound::Reply(r) if !r.tool_calls.is_empty() => {
            format!("tool calls {}", r.tool_calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", "))
        }
        LlmRound::Reply(r) => format!("text {:?}", if r.text.is_empty() { r.chunks.concat() } else { r.text.clone() }),
        LlmRound::Error(e) => format!("error {} {:?}", e.status, e.message),
        LlmRound::Malformed(body) => format!("malformed body {body:?}"),
        LlmRound::Disconnect(d) => format!("disconnect after {} chunk(s)", d.after_chunks),
    }
}

fn last(request: &LlmRequest) -> String {
    request.messages.last().map_or("no messages".to_string(), |m| format!("a {} message {:?}", m.role, m.content))
}

fn mismatch(when: &RoundMatch, request: &LlmRequest) -> Option<String> {
    let last_msg = request.messages.last();
    if let Some(role) = &when.last_role
        && last_msg.map(|m| m.role.as_str()) != Some(role.as_str())
    {
        return Some(format!("expected the last message from {role}, the request ended with {}", last(request)));
    }
    if let Some(text) = &when.last_contains
        && !last_msg.is_some_and(|m| m.content.contains(text.as_str()))
    {
        return Some(format!("expected the last message to contain {text:?}, the request ended with {}", last(request)));
    }
    if let Some(text) = &when.system_contains {
        let system = request.messages.first().filter(|m| m.role == "system");
        if !system.is_some_and(|m| m.content.contains(text.as_str())) {
            let found = system.map_or("no system prompt".to_string(), |m| format!("the system prompt {:?}", m.content));
            return Some(format!("expected the system prompt to contain {text:?}, the request had {found}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::provider::LlmReply;

    fn req(role: &str, text: &str) -> LlmRequest {
        LlmRequest { messages: vec![LlmMessage::text(role, text)], tools: vec![], tool_specs: vec![], wire: None }
    }

    #[test]
    fn answers_in_order_with_promptkit_call_ids() {
        let mut llm = ScriptedLlm::new(vec![
            LlmRound::Reply(LlmReply {
                tool_calls: vec![ToolCall { name: "bash".into(), arguments: json!({"command": "ls"}), id: None }],
                ..Default::default()
            }),
            LlmRound::Reply(LlmReply { chunks: vec!["Hel".into(), "lo".into()], ..Default::default() }),
        ]);
        match llm.complete(&req("user", "hi")).unwrap() {
            LlmResponse::Reply { tool_calls, .. } => assert_eq!(tool_calls[0].id, "call_0_bash"),
            other => panic!("{other:?}"),
        }
        match llm.complete(&req("tool", "files")).unwrap() {
            LlmResponse::Reply { text, .. } => assert_eq!(text, "Hello"),
            other => panic!("{other:?}"),
        }
        let miss = llm.complete(&req("user", "more?")).unwrap_err();
        assert!(miss.message.contains("LLM call 3 is not scripted") && miss.message.contains("text \"Hello\""), "{miss}");
    }

    #[test]
    fn transport_faults_are_answers_with_a_description() {
        let mut llm = ScriptedLlm::new(vec![
            LlmRound::Malformed("{oops".into()),
            LlmRound::Disconnect(LlmDisconnect { after_chunks: 2, chunks: vec![] }),
        ]);
        let malformed = llm.complete(&req("user", "hi")).unwrap();
        assert_eq!(malformed, LlmResponse::Malformed { body: "{oops".into() });
        assert!(malformed.fault().unwrap().contains("malformed body"));
        let dropped = llm.complete(&req("user", "hi")).unwrap();
        assert!(dropped.fault().unwrap().contains("after 2 stream chunk(s)"), "{dropped:?}");
        let miss = llm.complete(&req("user", "hi")).unwrap_err();
        assert!(miss.message.contains("disconnect after 2 chunk(s)"), "{miss}");
    }

    #[test]
    fn when_conditions_are_strict() {
        let when = RoundMatch { last_role: Some("tool".into()), last_contains: None, system_contains: None };
        let mut llm = ScriptedLlm::new(vec![LlmRound::Reply(LlmReply { text: "ok".into(), when: Some(when), ..Default::default() })]);
        let miss = llm.complete(&req("user", "hi")).unwrap_err();
        assert!(miss.message.contains("expected the last message from tool"), "{miss}");
    }
}
