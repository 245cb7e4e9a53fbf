//! The OpenAI chat-completions wire format, as far as the mock provider
//! speaks it: the request it reads (converted to an [`LlmRequest`]) and the
//! bodies and stream chunks it writes.
//!
//! Requests are read leniently (unknown fields such as `temperature` are
//! ignored, `content` may be a string, null or an array of text parts) so a
//! real client's request is never refused for a field the script does not
//! care about; replies are written exactly, with fixed ids and timestamps so
//! two runs of a scenario answer byte for byte the same.

use serde::Deserialize;
use serde_json::{Value, json};

use super::llm::{LlmMessage, LlmRequest, ResolvedCall};

/// The `created` timestamp of every answer: fixed, so runs are reproducible.
pub const CREATED: u64 = 1_700_000_000;

/// The chat-completions route.
pub const CHAT_COMPLETIONS: &str = "/v1/chat/completions";

/// The one model `GET /v1/models` lists.
pub const MODEL: &str = "proctor-scripted";

/// A chat-completions request body.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatRequest {
    /// Model name; echoed back in the answer.
    #[serde(default)]
    pub model: String,
    /// The conversation.
    pub messages: Vec<ChatMessage>,
    /// Tools offered.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub tools: Vec<ChatTool>,
    /// Whether to answer as server-sent events.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub stream: bool,
    /// Streaming options.
    #[serde(default)]
    pub stream_options: Option<StreamOptions>,
}

/// `stream_options`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct StreamOptions {
    /// Send a final chunk with token usage.
    #[serde(default)]
    pub include_usage: bool,
}

/// One message of the request.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatMessage {
    /// system, developer, user, assistant or tool.
    pub role: String,
    /// A string, null, or an array of content parts.
    #[serde(default)]
    pub content: Value,
    /// Tool calls of an assistant message.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub tool_calls: Vec<WireToolCall>,
    /// The call a tool message answers.
    #[serde(default)]
    pub tool_call_id: Option<String>,
}

/// A tool call as the wire carries it: arguments are a JSON *string*.
#[derive(Debug, Clone, Deserialize)]
pub struct WireToolCall {
    /// Call id.
    #[serde(default)]
    pub id: String,
    /// The function called.
    pub function: WireFunction,
}

/// `tool_calls[].function`.
#[derive(Debug, Clone, Deserialize)]
pub struct WireFunction {
    /// Tool name.
    pub name: String,
    /// Arguments, JSON-encoded.
    #[serde(default)]
    pub arguments: String,
}

/// `tools[]`.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatTool {
    /// The function offered.
    pub function: ToolFunction,
}

/// `tools[].function`: only the name matters to the script.
#[derive(Debug, Clone, Deserialize)]
pub struct ToolFunction {
    /// Tool name.
    pub name: String,
}

/// Clients send `null` for absent lists and flags as often as they leave
/// them out; both mean empty.
fn null_as_empty<'de, D: serde::Deserializer<'de>, T: Default + Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

impl ChatRequest {
    /// Parses a request body, with a message that says what is wrong (the
    /// server answers it as a 400).
    pub fn parse(body: &[u8]) -> Result<ChatRequest, String> {
        let value: Value = serde_json::from_slice(body).map_err(|e| format!("the request body is not JSON: {e}"))?;
        serde_json::from_value(value).map_err(|e| format!("the request body is not a chat-completions request: {e}"))
    }

    /// The provider-neutral request the script is matched against.
    pub fn to_llm(&self) -> LlmRequest {
        let messages = self
            .messages
            .iter()
            .map(|m| LlmMessage {
                role: m.role.clone(),
                content: text_of(&m.content),
                tool_calls: m
                    .tool_calls
                    .iter()
                    .map(|c| ResolvedCall {
                        id: c.id.clone(),
                        name: c.function.name.clone(),
                        // Arguments that are not JSON are kept as the string they are.
                        arguments: serde_json::from_str(&c.function.arguments)
                            .unwrap_or_else(|_| Value::String(c.function.arguments.clone())),
                    })
                    .collect(),
                tool_call_id: m.tool_call_id.clone(),
            })
            .collect();
        LlmRequest { messages, tools: self.tools.iter().map(|t| t.function.name.clone()).collect(), tool_specs: Vec::new(), wire: None }
    }

    /// Total characters of the conversation, for the token estimate.
    pub fn prompt_chars(&self) -> usize {
        self.messages.iter().map(|m| text_of(&m.content).chars().count()).sum()
    }
}

/// The chat-completions body a runtime would send for `request` (the
/// inverse of [`ChatRequest::to_llm`]): how the in-process runs journal
/// their LLM calls in the same shape as `proctor mock-provider` does.
pub fn request_body(request: &LlmRequest) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| {
            let mut msg = json!({"role": m.role, "content": m.content});
            if !m.tool_calls.is_empty() {
                msg["tool_calls"] = m
                    .tool_calls
                    .iter()
                    .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments(c)}}))
                    .collect();
            }
            if let Some(id) = &m.tool_call_id {
                msg["tool_call_id"] = json!(id);
            }
            msg
        })
        .collect();
    let mut body = json!({"model": MODEL, "messages": messages});
    if !request.tools.is_empty() {
        let spec =
            |name: &str| request.tool_specs.iter().find(|s| s.pointer("/function/name").and_then(Value::as_str) == Some(name)).cloned();
        body["tools"] =
            request.tools.iter().map(|t| spec(t).unwrap_or_else(|| json!({"type": "function", "function": {"name": t}}))).collect();
    }
    body
}

/// The text of a message's `content`: a string as is, the `text` of each
/// part of an array joined, anything else empty.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join(""),
        _ => String::new(),
    }
}

/// A deterministic token estimate: a quarter of the characters, rounded up,
/// at least 1. No real tokenizer: clients only need plausible numbers.
pub fn tokens(chars: usize) -> u64 {
    (chars.div_ceil(4)).max(1) as u64
}

/// The `usage` object.
pub fn usage(prompt_chars: usize, completion_chars: usize) -> Value {
    let (p, c) = (tokens(prompt_chars), tokens(completion_chars));
    json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c})
}

/// Characters of an answer, for the token estimate.
pub fn completion_chars(text: &str, calls: &[ResolvedCall]) -> usize {
    text.chars().count() + calls.iter().map(|c| c.name.chars().count() + arguments(c).chars().count()).sum::<usize>()
}

/// A tool call's arguments as the wire wants them: a JSON-encoded string.
pub fn arguments(call: &ResolvedCall) -> String {
    match &call.arguments {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `finish_reason`: `tool_calls` when the answer calls tools.
pub fn finish_reason(calls: &[ResolvedCall]) -> &'static str {
    if calls.is_empty() { "stop" } else { "tool_calls" }
}

/// A non-streaming `chat.completion` body.
pub fn completion(id: &str, model: &str, text: &str, calls: &[ResolvedCall], usage: Value) -> Value {
    let mut message = json!({"role": "assistant", "content": if text.is_empty() && !calls.is_empty() { Value::Null } else { json!(text) }});
    if !calls.is_empty() {
        message["tool_calls"] = calls
            .iter()
            .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments(c)}}))
            .collect();
    }
    json!({
        "id": id,
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(calls)}],
        "usage": usage,
    })
}

/// A `chat.completion.chunk` with one choice carrying `delta`.
pub fn chunk(id: &str, model: &str, delta: Value, finish_reason: Option<&str>) -> Value {
    json!({
        "id": id,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    })
}

/// The usage chunk (`stream_options.include_usage`): no choices.
pub fn usage_chunk(id: &str, model: &str, usage: Value) -> Value {
    json!({"id": id, "object": "chat.completion.chunk", "created": CREATED, "model": model, "choices": [], "usage": usage})
}

/// An OpenAI error body.
pub fn error_body(status: u16, message: &str, code: Option<&str>) -> Value {
    let kind = match status {
        400 | 404 | 409 | 422 => "invalid_request_error",
        401 => "authentication_error",
        403 => "permission_error",
        429 => "rate_limit_error",
        _ if status >= 500 => "server_error",
        _ => "api_error",
    };
    let code = code.or(match status {
        429 => Some("rate_limit_exceeded"),
        _ => None,
    });
    json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
}

/// The `GET /v1/models` body.
pub fn models() -> Value {
    json!({"object": "list", "data": [{"id": MODEL, "object": "model", "created": CREATED, "owned_by": "proctor"}]})
}

/// Splits `text` into pieces of about `size` bytes, on char boundaries, for
/// streaming a reply that scripts no chunks of its own.
pub fn pieces(text: &str, size: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for ch in text.chars() {
        if !current.is_empty() && current.len() + ch.len_utf8() > size {
            out.push(std::mem::take(&mut current));
        }
        current.push(ch);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_string_null_and_part_contents_and_tool_calls() {
        let body = br#"{"model":"m","temperature":0.2,"messages":[
            {"role":"system","content":"be brief"},
            {"role":"user","content":[{"type":"text","text":"hi "},{"type":"text","text":"there"}]},
            {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{\"dir\":\".\"}"}}]},
            {"role":"tool","tool_call_id":"c1","content":"a b"}],
            "tools":[{"type":"function","function":{"name":"ls","parameters":{}}}]}"#;
        let req = ChatRequest::parse(body).unwrap().to_llm();
        assert_eq!(req.messages[1].content, "hi there");
        assert_eq!(req.messages[2].content, "");
        assert_eq!(req.messages[2].tool_calls[0].arguments, json!({"dir": "."}));
        assert_eq!(req.messages[3].tool_call_id.as_deref(), Some("c1"));
        assert_eq!(req.tools, vec!["ls"]);
    }

    #[test]
    fn request_body_is_the_inverse_of_to_llm() {
        let body = br#"{"model":"m","messages":[
            {"role":"user","content":"hi"},
            {"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{\"dir\":\".\"}"}}]},
            {"role":"tool","tool_call_id":"c1","content":"a b"}],
            "tools":[{"type":"function","function":{"name":"ls"}}]}"#;
        let req = ChatRequest::parse(body).unwrap().to_llm();
        let again = request_body(&req);
        assert_eq!(again["model"], MODEL);
        assert_eq!(again["messages"][1]["tool_calls"][0]["function"]["arguments"], "{\"dir\":\".\"}");
        assert_eq!(ChatRequest::parse(again.to_string().as_bytes()).unwrap().to_llm(), req);
    }

    #[test]
    fn bad_bodies_say_what_is_wrong() {
        assert!(ChatRequest::parse(b"{nope").unwrap_err().starts_with("the request body is not JSON"));
        assert!(ChatRequest::parse(br#"{"model":"m"}"#).unwrap_err().contains("missing field `messages`"));
    }

    #[test]
    fn pieces_split_on_char_boundaries() {
        let text = "héllo wörld, ünïcode everywhere ✓✓✓";
        let p = pieces(text, 5);
        assert_eq!(p.concat(), text);
        assert!(p.iter().all(|s| s.len() <= 5 && !s.is_empty()));
        assert!(pieces("", 20).is_empty());
    }

    #[test]
    fn tool_only_answers_have_null_content() {
        let call = ResolvedCall { id: "c".into(), name: "ls".into(), arguments: json!({"a": 1}) };
        let body = completion("x", "m", "", std::slice::from_ref(&call), usage(10, 3));
        assert_eq!(body["choices"][0]["message"]["content"], Value::Null);
        assert_eq!(body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"], "{\"a\":1}");
        assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(body["usage"], json!({"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}));
    }
}
