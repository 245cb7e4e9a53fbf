//! The Anthropic Messages API wire format (`POST /v1/messages`), as far as
//! the mock provider speaks it: what Claude Code sends with
//! `ANTHROPIC_BASE_URL`, read into an [`LlmRequest`], and the answer written
//! back as a message or its streamed events.
//!
//! `system` (a string or text blocks) is the first system message. Each
//! message's blocks become the provider-neutral conversation: text joined,
//! `tool_use` blocks as the assistant's tool calls, each `tool_result` a tool
//! message of its own. Claude Code also puts `"role": "system"` entries
//! inside `messages` (its environment after the prompt, hook feedback after
//! a tool result): each is read as part of the message before it, so the
//! turn a script's `when` looks at is still the user's or the tool's, and its
//! text is still there to match. Thinking and image blocks are left out.

use serde_json::{Value, json};

use super::llm::{LlmMessage, LlmRequest, ResolvedCall};
use super::openai;

/// The route (clients add `?beta=true`; the query is not part of the match).
pub const MESSAGES: &str = "/v1/messages";

/// A Messages request, as the script sees it.
#[derive(Debug, Clone)]
pub struct MessagesRequest {
    /// The model asked for (echoed back).
    pub model: String,
    /// Whether to answer as server-sent events.
    pub stream: bool,
    /// The conversation and the tools offered.
    pub llm: LlmRequest,
}

impl MessagesRequest {
    /// Parses a request body, with a message that says what is wrong.
    pub fn parse(body: &[u8]) -> Result<MessagesRequest, String> {
        let value: Value = serde_json::from_slice(body).map_err(|e| format!("the request body is not JSON: {e}"))?;
        let Some(obj) = value.as_object() else { return Err("the request body is not a Messages request: not an object".into()) };
        let mut messages = Vec::new();
        match obj.get("system") {
            Some(Value::String(s)) => messages.push(LlmMessage::text("system", s.as_str())),
            Some(Value::Array(blocks)) => messages.push(LlmMessage::text("system", texts(blocks))),
            _ => {}
        }
        let Some(list) = obj.get("messages").and_then(Value::as_array) else {
            return Err("the request body is not a Messages request: it has no `messages` list".into());
        };
        for message in list {
            read_message(message, &mut messages)?;
        }
        let tools = obj
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_string))
            .collect();
        Ok(MessagesRequest {
            model: obj.get("model").and_then(Value::as_str).unwrap_or_default().to_string(),
            stream: obj.get("stream").and_then(Value::as_bool).unwrap_or(false),
            llm: LlmRequest { messages, tools, tool_specs: Vec::new(), wire: None },
        })
    }

    /// Total characters of the conversation, for the token estimate.
    pub fn prompt_chars(&self) -> usize {
        self.llm.messages.iter().map(|m| m.content.chars().count()).sum()
    }
}

fn texts(blocks: &[Value]) -> String {
    blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("text")).filter_map(|b| b["text"].as_str()).collect()
}

fn read_message(message: &Value, messages: &mut Vec<LlmMessage>) -> Result<(), String> {
    let Some(role) = message.get("role").and_then(Value::as_str) else {
        return Err(format!("the request body is not a Messages request: a message without `role`: {message}"));
    };
    if role == "system" && messages.iter().any(|m| m.role != "system") {
        let text = match message.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(blocks)) => texts(blocks),
            _ => String::new(),
        };
        if let Some(last) = messages.last_mut() {
            last.content = if last.content.is_empty() { text } else { format!("{}\n\n{text}", last.content) };
        }
        return Ok(());
    }
    let blocks = match message.get("content") {
        Some(Value::String(s)) => {
            messages.push(LlmMessage::text(role, s.as_str()));
            return Ok(());
        }
        Some(Value::Array(blocks)) => blocks,
        _ => {
            return Err(format!(
                "the request body is not a Messages request: a message whose `content` is neither text nor blocks: {message}"
            ));
        }
    };
    // Tool results first: each answers a call of the assistant message before.
    for block in blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result")) {
        let content = match block.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => texts(parts),
            _ => String::new(),
        };
        let id = block.get("tool_use_id").and_then(Value::as_str).map(str::to_string);
        messages.push(LlmMessage { role: "tool".into(), content, tool_calls: Vec::new(), tool_call_id: id });
    }
    let calls: Vec<ResolvedCall> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        .map(|b| ResolvedCall {
            id: b["id"].as_str().unwrap_or_default().to_string(),
            name: b["name"].as_str().unwrap_or_default().to_string(),
            arguments: b.get("input").cloned().unwrap_or(json!({})),
        })
        .collect();
    let text = texts(blocks);
    if !text.is_empty() || !calls.is_empty() {
        messages.push(LlmMessage { role: role.to_string(), content: text, tool_calls: calls, tool_call_id: None });
    }
    Ok(())
}

/// Who the answer is for, and its fixed id.
#[derive(Debug, Clone, Copy)]
pub struct Answering<'a> {
    /// `msg_proctor_N`.
    pub id: &'a str,
    /// The request's model.
    pub model: &'a str,
}

fn stop_reason(calls: &[ResolvedCall]) -> &'static str {
    if calls.is_empty() { "end_turn" } else { "tool_use" }
}

/// The content blocks of an answer: its text (when there is any), then each tool use.
fn blocks(text: &str, calls: &[ResolvedCall]) -> Vec<Value> {
    let mut out = Vec::new();
    if !text.is_empty() || calls.is_empty() {
        out.push(json!({"type": "text", "text": text}));
    }
    out.extend(calls.iter().map(|c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input_of(c)})));
    out
}

/// A call's input: an object, as the API requires (a scripted non-object is wrapped).
fn input_of(call: &ResolvedCall) -> Value {
    match &call.arguments {
        Value::Object(_) => call.arguments.clone(),
        other => json!({"value": other}),
    }
}

fn usage(prompt_chars: usize, completion_chars: usize) -> Value {
    json!({"input_tokens": openai::tokens(prompt_chars), "output_tokens": openai::tokens(completion_chars)})
}

/// The whole answer, unstreamed.
pub fn body(to: Answering<'_>, text: &str, calls: &[ResolvedCall], prompt_chars: usize) -> Value {
    json!({"id": to.id, "type": "message", "role": "assistant", "model": to.model, "content": blocks(text, calls),
        "stop_reason": stop_reason(calls), "stop_sequence": null,
        "usage": usage(prompt_chars, openai::completion_chars(text, calls))})
}

/// The streamed answer as (event, data) pairs: `message_start`, each block
/// started, its deltas (text in `chunks` or pieces; a tool's input as JSON in
/// pieces) and stopped, `message_delta` with the stop reason, `message_stop`.
pub fn events(to: Answering<'_>, text: &str, chunks: &[String], calls: &[ResolvedCall], prompt_chars: usize) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut push = |kind: &str, mut data: Value| {
        data["type"] = json!(kind);
        out.push((kind.to_string(), data));
    };
    let usage = usage(prompt_chars, openai::completion_chars(text, calls));
    push(
        "message_start",
        json!({"message": {"id": to.id, "type": "message", "role": "assistant", "model": to.model, "content": [],
            "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1}}}),
    );
    for (index, block) in blocks(text, calls).into_iter().enumerate() {
        if block["type"] == "text" {
            push("content_block_start", json!({"index": index, "content_block": {"type": "text", "text": ""}}));
            let pieces = if chunks.is_empty() { openai::pieces(text, 64) } else { chunks.to_vec() };
            for piece in pieces {
                push("content_block_delta", json!({"index": index, "delta": {"type": "text_delta", "text": piece}}));
            }
        } else {
            let head = json!({"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}});
            push("content_block_start", json!({"index": index, "content_block": head}));
            for piece in openai::pieces(&block["input"].to_string(), 64) {
                push("content_block_delta", json!({"index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}));
            }
        }
        push("content_block_stop", json!({"index": index}));
    }
    push(
        "message_delta",
        json!({"delta": {"stop_reason": stop_reason(calls), "stop_sequence": null}, "usage": {"output_tokens": usage["output_tokens"]}}),
    );
    push("message_stop", json!({}));
    out
}

/// An error body in Anthropic's shape.
pub fn error_body(status: u16, message: &str) -> Value {
    let kind = match status {
        400 => "invalid_request_error",
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        _ => "api_error",
    };
    json!({"type": "error", "error": {"type": kind, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_claude_code_sends() {
        let body = json!({"model": "m", "stream": true, "system": [{"type": "text", "text": "You are"}, {"type": "text", "text": " an agent"}],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "list the files"}]},
                {"role": "system", "content": "# Environment"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}]},
                {"role": "user", "content": [{"tool_use_id": "toolu_1", "type": "tool_result", "content": "a.txt", "is_error": false}]},
                {"role": "system", "content": "hook feedback"}],
            "tools": [{"name": "Bash", "input_schema": {}}, {"name": "Read"}]});
        let r = MessagesRequest::parse(body.to_string().as_bytes()).unwrap();
        let roles: Vec<&str> = r.llm.messages.iter().map(|m| m.role.as_str()).collect();
        // In-conversation system entries belong to the message before them.
        assert_eq!(roles, ["system", "user", "assistant", "tool"]);
        assert_eq!(r.llm.messages[0].content, "You are an agent");
        assert_eq!(r.llm.messages[1].content, "list the files\n\n# Environment");
        assert_eq!(r.llm.messages[2].tool_calls[0].arguments, json!({"command": "ls"}));
        assert_eq!(
            (r.llm.messages[3].content.as_str(), r.llm.messages[3].tool_call_id.as_deref()),
            ("a.txt\n\nhook feedback", Some("toolu_1"))
        );
        assert_eq!(r.llm.tools, ["Bash", "Read"]);
        assert!(MessagesRequest::parse(b"{\"model\": \"m\"}").unwrap_err().contains("`messages`"));
    }

    #[test]
    fn streams_a_tool_use_whose_input_reassembles() {
        let call = ResolvedCall {
            id: "toolu_proctor_0".into(),
            name: "Bash".into(),
            arguments: json!({"command": "ls -la /a/long/path/that/splits/into/pieces/of/sixty/four/bytes/each"}),
        };
        let events = events(Answering { id: "msg_proctor_1", model: "m" }, "", &[], std::slice::from_ref(&call), 10);
        let kinds: Vec<&str> = events.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(kinds[0], "message_start");
        assert_eq!(kinds[kinds.len() - 2..], ["message_delta", "message_stop"]);
        let json: String = events.iter().filter_map(|(_, d)| d["delta"]["partial_json"].as_str()).collect();
        assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), call.arguments);
        assert_eq!(events[events.len() - 2].1["delta"]["stop_reason"], "tool_use");
    }
}
