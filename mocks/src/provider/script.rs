//! The script of an LLM: one entry per call, in order, as a scenario writes it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One LLM call's scripted answer.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum LlmRound {
    /// An answer: text and/or tool calls, optionally streamed.
    Reply(LlmReply),
    /// The provider fails.
    Error(LlmError),
    /// The provider answers HTTP 200 with this raw body (content type
    /// `application/json`), typically JSON that does not parse.
    Malformed(String),
    /// The provider drops the connection mid-answer.
    Disconnect(LlmDisconnect),
}

/// A scripted LLM answer.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlmReply {
    /// Assistant text.
    #[serde(default)]
    pub text: String,
    /// Tool calls.
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    /// Stream the text in these chunks (their concatenation must equal `text` when both are given).
    #[serde(default)]
    pub chunks: Vec<String>,
    /// Delay before answering, in milliseconds (at most [`MAX_DELAY_MS`]).
    #[serde(default, deserialize_with = "bounded_delay")]
    #[schemars(range(max = 600_000))]
    pub delay_ms: u64,
    /// What the request for this round must contain; a mismatch fails the scenario.
    #[serde(default)]
    pub when: Option<RoundMatch>,
}

/// The longest a scripted reply may wait: ten minutes, past every runtime's
/// deadline. Longer is a hang no scenario can wait out (`u64::MAX` ms would
/// keep `run` waiting for half a billion years), so it is refused with its
/// place in the file instead.
pub const MAX_DELAY_MS: u64 = 600_000;

fn bounded_delay<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let ms = u64::deserialize(d)?;
    if ms > MAX_DELAY_MS {
        return Err(serde::de::Error::custom(format!(
            "delay_ms {ms} is more than {MAX_DELAY_MS} (10 minutes): a reply that late is a hang; give a shorter delay"
        )));
    }
    Ok(ms)
}

/// A scripted tool call.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    /// Tool name.
    pub name: String,
    /// Arguments (an object).
    #[serde(default)]
    pub arguments: Value,
    /// Call id; default `call_<index>_<name>` (PromptKit's mock provider).
    #[serde(default)]
    pub id: Option<String>,
}

/// A scripted provider failure.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlmError {
    /// HTTP-like status (429, 500 …).
    pub status: u16,
    /// Error message.
    pub message: String,
}

/// A scripted connection drop.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlmDisconnect {
    /// How many SSE events (the role delta counts as the first) are sent
    /// before the connection is dropped; a non-streaming request gets a
    /// truncated body instead.
    #[serde(default)]
    pub after_chunks: usize,
    /// The content deltas streamed before the drop (default: a few
    /// placeholder pieces).
    #[serde(default)]
    pub chunks: Vec<String>,
}

/// Conditions on the request an LLM round answers.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundMatch {
    /// The last message's role (user, tool, assistant).
    #[serde(default)]
    pub last_role: Option<String>,
    /// Text the last message must contain.
    #[serde(default)]
    pub last_contains: Option<String>,
    /// Text the system prompt (a first message with role system) must contain: what the model was
    /// really told, as a pack rendered it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_contains: Option<String>,
}
