//! The OpenAI Responses API wire format (`POST /v1/responses`), as far as the
//! mock provider speaks it: what Codex CLI sends to a custom provider with
//! `wire_api = "responses"`, read into an [`LlmRequest`], and the answer
//! written back as a response object or its streamed events.
//!
//! Input items become the provider-neutral conversation: a `message` (its
//! text parts joined; a `developer` message is a system one), a
//! `function_call` (an assistant tool call, consecutive ones in one message),
//! a `function_call_output` (a tool message). Items the script cannot match
//! on (reasoning, images) are left out; `instructions` is the first system
//! message. Like the chat-completions route, requests are read leniently
//! and answers are written with fixed ids, so runs are reproducible.

use serde_json::{Value, json};

use super::llm::{LlmMessage, LlmRequest, ResolvedCall};
use super::openai::{self, CREATED};

/// The route.
pub const RESPONSES: &str = "/v1/responses";

/// A Responses request, as the script sees it.
#[derive(Debug, Clone)]
pub struct ResponsesRequest {
    /// The model asked for (echoed back).
    pub model: String,
    /// Whether to answer as server-sent events.
    pub stream: bool,
    /// The conversation and the function tools offered.
    pub llm: LlmRequest,
}

impl ResponsesRequest {
    /// Parses a request body, with a message that says what is wrong.
    pub fn parse(body: &[u8]) -> Result<ResponsesRequest, String> {
        let value: Value = serde_json::from_slice(body).map_err(|e| format!("the request body is not JSON: {e}"))?;
        let Some(obj) = value.as_object() else { return Err("the request body is not a Responses request: not an object".into()) };
        let mut messages = Vec::new();
        if let Some(instructions) = obj.get("instructions").and_then(Value::as_str) {
            messages.push(LlmMessage::text("system", instructions));
        }
        match obj.get("input") {
            Some(Value::String(text)) => messages.push(LlmMessage::text("user", text.as_str())),
            Some(Value::Array(items)) => {
                for item in items {
                    read_item(item, &mut messages)?;
                }
            }
            None | Some(Value::Null) => {}
            Some(other) => return Err(format!("the request body is not a Responses request: `input` is {other}, not a string or a list")),
        }
        let tools = obj
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|t| t.get("type").and_then(Value::as_str) == Some("function"))
            .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_string))
            .collect();
        Ok(ResponsesRequest {
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

fn read_item(item: &Value, messages: &mut Vec<LlmMessage>) -> Result<(), String> {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or(if item.get("role").is_some() { "message" } else { "" });
    match kind {
        "message" => {
            let role = match item.get("role").and_then(Value::as_str).unwrap_or("user") {
                "developer" => "system",
                other => other,
            };
            messages.push(LlmMessage::text(role, text_of(item.get("content").unwrap_or(&Value::Null))));
        }
        "function_call" => {
            let text = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            let raw = text("arguments");
            let call = ResolvedCall {
                id: text("call_id"),
                name: text("name"),
                arguments: serde_json::from_str(&raw).unwrap_or(Value::String(raw)),
            };
            match messages.last_mut() {
                Some(last) if last.role == "assistant" && last.content.is_empty() && !last.tool_calls.is_empty() => {
                    last.tool_calls.push(call)
                }
                _ => messages.push(LlmMessage {
                    role: "assistant".into(),
                    content: String::new(),
                    tool_calls: vec![call],
                    tool_call_id: None,
                }),
            }
        }
        "function_call_output" => {
            let output = match item.get("output") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => text_of(other),
                None => String::new(),
            };
            let id = item.get("call_id").and_then(Value::as_str).map(str::to_string);
            messages.push(LlmMessage { role: "tool".into(), content: output, tool_calls: Vec::new(), tool_call_id: id });
        }
        "" => return Err(format!("the request body is not a Responses request: an input item without `type`: {item}")),
        _ => {} // reasoning and the like: nothing a script matches on
    }
    Ok(())
}

/// A string, or the `text` of every part of a list joined.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect(),
        _ => String::new(),
    }
}

/// Who the answer is for, and its fixed ids.
#[derive(Debug, Clone, Copy)]
pub struct Answering<'a> {
    /// `resp_proctor_N`.
    pub id: &'a str,
    /// The request's model.
    pub model: &'a str,
}

/// The output items of an answer: the message (when there is text), then
/// each function call.
fn output_items(to: Answering<'_>, text: &str, calls: &[ResolvedCall]) -> Vec<Value> {
    let mut items = Vec::new();
    if !text.is_empty() || calls.is_empty() {
        items.push(json!({"type": "message", "id": format!("msg_{}", to.id), "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}));
    }
    for call in calls {
        items.push(json!({"type": "function_call", "id": format!("fc_{}", call.id), "call_id": call.id, "name": call.name,
            "arguments": openai::arguments(call), "status": "completed"}));
    }
    items
}

/// The `usage` object, from the same estimate as chat completions.
pub fn usage(prompt_chars: usize, completion_chars: usize) -> Value {
    let (input, output) = (openai::tokens(prompt_chars), openai::tokens(completion_chars));
    json!({"input_tokens": input, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": output,
        "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": input + output})
}

fn response(to: Answering<'_>, status: &str, output: Vec<Value>, usage: Option<Value>) -> Value {
    json!({"id": to.id, "object": "response", "created_at": CREATED, "status": status, "model": to.model,
        "output": output, "usage": usage})
}

/// The whole answer, unstreamed.
pub fn body(to: Answering<'_>, text: &str, calls: &[ResolvedCall], usage: Value) -> Value {
    response(to, "completed", output_items(to, text, calls), Some(usage))
}

/// The streamed answer as (event, data) pairs: `response.created`, each
/// output item added, its text in deltas (`chunks`, or the text in pieces),
/// done, then `response.completed` with everything.
pub fn events(to: Answering<'_>, text: &str, chunks: &[String], calls: &[ResolvedCall], usage: Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<(String, Value)>, kind: &str, mut data: Value| {
        data["type"] = json!(kind);
        data["sequence_number"] = json!(out.len());
        out.push((kind.to_string(), data));
    };
    push(&mut out, "response.created", json!({"response": response(to, "in_progress", Vec::new(), None)}));
    let items = output_items(to, text, calls);
    for (index, item) in items.iter().enumerate() {
        let mut started = item.clone();
        started["status"] = json!("in_progress");
        if item["type"] == "message" {
            started["content"] = json!([]);
        } else {
            started["arguments"] = json!("");
        }
        push(&mut out, "response.output_item.added", json!({"output_index": index, "item": started}));
        if item["type"] == "message" {
            let pieces = if chunks.is_empty() { openai::pieces(text, 64) } else { chunks.to_vec() };
            for piece in pieces {
                push(
                    &mut out,
                    "response.output_text.delta",
                    json!({"item_id": item["id"], "output_index": index, "content_index": 0, "delta": piece}),
                );
            }
            push(
                &mut out,
                "response.output_text.done",
                json!({"item_id": item["id"], "output_index": index, "content_index": 0, "text": text}),
            );
        } else {
            push(
                &mut out,
                "response.function_call_arguments.delta",
                json!({"item_id": item["id"], "output_index": index, "delta": item["arguments"]}),
            );
            push(
                &mut out,
                "response.function_call_arguments.done",
                json!({"item_id": item["id"], "output_index": index, "arguments": item["arguments"]}),
            );
        }
        push(&mut out, "response.output_item.done", json!({"output_index": index, "item": item}));
    }
    push(&mut out, "response.completed", json!({"response": response(to, "completed", items, Some(usage))}));
    out
}

/// An error body in OpenAI's shape (the Responses API shares it).
pub fn error_body(status: u16, message: &str, code: Option<&str>) -> Value {
    openai::error_body(status, message, code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_codex_sends() {
        let body = json!({"model": "m", "stream": true, "instructions": "be brief", "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "rules"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list"}, {"type": "input_text", "text": " files"}]},
            {"type": "reasoning", "summary": []},
            {"type": "function_call", "call_id": "call_1", "name": "exec_command", "arguments": "{\"cmd\":\"ls\"}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "a.txt"}],
            "tools": [{"type": "function", "name": "exec_command"}, {"type": "web_search"}]});
        let r = ResponsesRequest::parse(body.to_string().as_bytes()).unwrap();
        assert!(r.stream);
        let roles: Vec<&str> = r.llm.messages.iter().map(|m| m.role.as_str()).collect();
        assert_eq!(roles, ["system", "system", "user", "assistant", "tool"]);
        assert_eq!(r.llm.messages[2].content, "list files");
        assert_eq!(r.llm.messages[3].tool_calls[0].arguments, json!({"cmd": "ls"}));
        assert_eq!(r.llm.messages[4].tool_call_id.as_deref(), Some("call_1"));
        assert_eq!(r.llm.tools, ["exec_command"]);
        assert!(ResponsesRequest::parse(b"{\"input\": 3}").unwrap_err().contains("`input`"));
        assert!(ResponsesRequest::parse(b"[]").is_err());
    }

    #[test]
    fn streams_items_and_completes_with_them() {
        let call = ResolvedCall { id: "call_0_exec".into(), name: "exec_command".into(), arguments: json!({"cmd": "ls"}) };
        let to = Answering { id: "resp_proctor_1", model: "m" };
        let events = events(to, "", &[], std::slice::from_ref(&call), usage(4, 4));
        let kinds: Vec<&str> = events.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(kinds.first(), Some(&"response.created"));
        assert_eq!(kinds.last(), Some(&"response.completed"));
        let done = &events.last().unwrap().1["response"]["output"][0];
        assert_eq!(
            (done["type"].as_str(), done["call_id"].as_str(), done["arguments"].as_str()),
            (Some("function_call"), Some("call_0_exec"), Some("{\"cmd\":\"ls\"}"))
        );
        assert!(events.iter().enumerate().all(|(n, (_, d))| d["sequence_number"] == n));
    }
}
