//! Streaming answers: the chunk sequence OpenAI sends for a reply, framed
//! as server-sent events by hand (`data: {json}\n\n`, then
//! `data: [DONE]\n\n`), so a scripted fault can stop the stream anywhere.
//!
//! The body is a stream of byte frames; a dropped connection is an error
//! item, which makes hyper abort the connection mid-body (the client sees a
//! chunked transfer that never terminates properly).

use axum::body::{Body, Bytes};
use serde_json::{Value, json};

use super::llm::ResolvedCall;
use super::openai;

/// Bytes per content delta when the script gives no chunks of its own.
pub const PIECE_BYTES: usize = 20;

/// The content streamed before a scripted disconnect that names no chunks.
const DISCONNECT_FILLER: [&str; 3] = ["This answer ", "is cut off ", "mid-stream."];

/// The pause between the last frame sent and a scripted drop, so the frames
/// reach the client first.
const DROP_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

/// Who the stream is for: the chunk id and the model echoed in each chunk.
#[derive(Debug, Clone, Copy)]
pub struct StreamId<'a> {
    /// `chatcmpl-proctor-N`.
    pub id: &'a str,
    /// The request's model.
    pub model: &'a str,
}

/// The chunks of a streamed reply, unframed: the role delta, the content
/// deltas (`chunks`, or `text` in [`PIECE_BYTES`] pieces), each tool call
/// (its id, type and name, then its arguments in pieces), the chunk with
/// `finish_reason`, and the usage chunk when asked for.
pub fn reply_chunks(to: StreamId<'_>, text: &str, chunks: &[String], calls: &[ResolvedCall], usage: Option<Value>) -> Vec<Value> {
    let mut out = vec![openai::chunk(to.id, to.model, json!({"role": "assistant", "content": ""}), None)];
    let pieces = if chunks.is_empty() { openai::pieces(text, PIECE_BYTES) } else { chunks.to_vec() };
    for piece in pieces {
        out.push(openai::chunk(to.id, to.model, json!({"content": piece}), None));
    }
    for (index, call) in calls.iter().enumerate() {
        let head =
            json!({"tool_calls": [{"index": index, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": ""}}]});
        out.push(openai::chunk(to.id, to.model, head, None));
        for piece in openai::pieces(&openai::arguments(call), PIECE_BYTES) {
            out.push(openai::chunk(to.id, to.model, json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}), None));
        }
    }
    out.push(openai::chunk(to.id, to.model, json!({}), Some(openai::finish_reason(calls))));
    if let Some(usage) = usage {
        out.push(openai::usage_chunk(to.id, to.model, usage));
    }
    out
}

/// The chunks a scripted disconnect streams (before it is cut).
pub fn disconnect_chunks(to: StreamId<'_>, chunks: &[String]) -> Vec<Value> {
    let filler = disconnect_filler();
    reply_chunks(to, "", if chunks.is_empty() { &filler } else { chunks }, &[], None)
}

/// The content deltas a scripted disconnect streams when the script gives none.
pub fn disconnect_filler() -> Vec<String> {
    DISCONNECT_FILLER.iter().map(|s| s.to_string()).collect()
}

/// Named events (`event: NAME` then `data: JSON`), as the Responses and
/// Messages APIs stream them; with `cut_after: Some(n)`, only the first `n`.
pub fn named_frames(events: &[(String, Value)], cut_after: Option<usize>) -> Vec<Bytes> {
    let take = cut_after.unwrap_or(events.len()).min(events.len());
    events[..take].iter().map(|(name, data)| Bytes::from(format!("event: {name}\ndata: {data}\n\n"))).collect()
}

/// One SSE event.
pub fn frame(data: &str) -> Bytes {
    Bytes::from(format!("data: {data}\n\n"))
}

/// The framed stream: every chunk then `data: [DONE]`, or, with
/// `cut_after: Some(n)`, the first `n` chunks and then a dropped connection.
pub fn frames(chunks: &[Value], cut_after: Option<usize>) -> Vec<Bytes> {
    let take = cut_after.unwrap_or(chunks.len()).min(chunks.len());
    let mut out: Vec<Bytes> = chunks[..take].iter().map(|c| frame(&c.to_string())).collect();
    if cut_after.is_none() {
        out.push(frame("[DONE]"));
    }
    out
}

/// A response body sending `frames` one write each; with `then_drop`, an
/// error after the last one aborts the connection instead of ending the
/// body cleanly.
pub fn body(frames: Vec<Bytes>, then_drop: bool) -> Body {
    use futures_util::StreamExt;
    let sent = futures_util::stream::iter(frames.into_iter().map(Ok::<Bytes, std::io::Error>));
    if !then_drop {
        return Body::from_stream(sent);
    }
    // hyper flushes what it buffered only when the body stream is pending;
    // an error that is ready at once would discard the frames unsent.
    let drop = futures_util::stream::once(async {
        tokio::time::sleep(DROP_PAUSE).await;
        Err(std::io::Error::new(std::io::ErrorKind::ConnectionAborted, "scripted disconnect"))
    });
    Body::from_stream(sent.chain(drop))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TO: StreamId<'static> = StreamId { id: "chatcmpl-proctor-1", model: "m" };

    #[test]
    fn reply_streams_role_content_calls_finish_usage() {
        let call = ResolvedCall { id: "call_0_ls".into(), name: "ls".into(), arguments: json!({"path": "/a/long/path/name/here"}) };
        let chunks = reply_chunks(TO, "Hello", &[], std::slice::from_ref(&call), Some(openai::usage(8, 5)));
        let deltas: Vec<&Value> = chunks.iter().filter_map(|c| c["choices"].get(0).map(|ch| &ch["delta"])).collect();
        assert_eq!(deltas[0], &json!({"role": "assistant", "content": ""}));
        assert_eq!(deltas[1], &json!({"content": "Hello"}));
        assert_eq!(deltas[2]["tool_calls"][0]["id"], "call_0_ls");
        let args: String = deltas[2..].iter().filter_map(|d| d["tool_calls"][0]["function"]["arguments"].as_str()).collect();
        assert_eq!(serde_json::from_str::<Value>(&args).unwrap(), call.arguments);
        assert_eq!(chunks[chunks.len() - 2]["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(chunks.last().unwrap()["choices"], json!([]));
        assert_eq!(chunks.last().unwrap()["usage"]["prompt_tokens"], 2);
    }

    #[test]
    fn framing_ends_with_done_unless_cut() {
        let chunks = disconnect_chunks(TO, &[]);
        let whole = frames(&chunks, None);
        assert_eq!(whole.last().unwrap(), &Bytes::from_static(b"data: [DONE]\n\n"));
        assert!(whole.iter().all(|f| f.starts_with(b"data: ") && f.ends_with(b"\n\n")));
        let cut = frames(&chunks, Some(2));
        assert_eq!(cut.len(), 2);
        assert!(!cut.iter().any(|f| f.as_ref() == b"data: [DONE]\n\n"));
    }
}
