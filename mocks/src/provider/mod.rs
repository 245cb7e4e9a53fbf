//! The scripted LLM provider: answers each call from a script, in order,
//! and refuses (with the nearest scripted round and the difference) any
//! call the script does not cover.

pub mod anthropic;
pub mod journal;
mod llm;
pub mod openai;
pub mod responses;
mod script;
pub mod server;
pub mod sse;

pub use llm::{LlmMessage, LlmRequest, LlmResponse, ResolvedCall, ScriptMiss, ScriptedLlm};
pub use script::{LlmDisconnect, LlmError, LlmReply, LlmRound, RoundMatch, ToolCall};
pub use server::{ProviderOptions, ProviderServer};
