//! The scripted LLM provider: answers each call from a script, in order,
//! and refuses (with the nearest scripted round and the difference) any
//! call the script does not cover.

mod llm;
mod script;

pub use llm::{LlmMessage, LlmRequest, LlmResponse, ResolvedCall, ScriptMiss, ScriptedLlm};
pub use script::{LlmError, LlmReply, LlmRound, RoundMatch, ToolCall};
