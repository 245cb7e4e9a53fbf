//! The server in process, over a real loopback socket with hand-written
//! HTTP/1.1 (the CLI tests drive the binary with curl and the openai SDK).

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;
use crate::provider::{LlmError, LlmReply};

/// Starts a server on 127.0.0.1:0; returns its address and a handle on it.
async fn start(rounds: Vec<LlmRound>, lenient: bool) -> (std::net::SocketAddr, ProviderServer) {
    let server = ProviderServer::new(rounds, &ProviderOptions { lenient }, Journal::default());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server.clone().serve(listener, std::future::pending()));
    (addr, server)
}

/// One request on its own connection; returns the status line, the raw
/// head and the body (with a Content-Length body, as JSON answers are).
async fn request(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let raw = String::from_utf8(raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

fn chat(text: &str) -> String {
    json!({"model": "gpt-test", "messages": [{"role": "user", "content": text}]}).to_string()
}

fn reply(text: &str) -> LlmRound {
    LlmRound::Reply(LlmReply { text: text.into(), ..Default::default() })
}

#[tokio::test]
async fn answers_in_order_then_refuses_naming_the_nearest_round() {
    let (addr, server) = start(vec![reply("one"), LlmRound::Error(LlmError { status: 429, message: "slow down".into() })], false).await;
    let (status, _, body) = request(addr, "POST", "/v1/chat/completions", &chat("hi")).await;
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, body["id"].as_str(), body["model"].as_str()), (200, Some("chatcmpl-proctor-1"), Some("gpt-test")));
    assert_eq!(body["choices"][0]["message"]["content"], "one");
    let (status, head, body) = request(addr, "POST", "/v1/chat/completions", &chat("again")).await;
    assert_eq!(status, 429);
    assert!(head.contains("retry-after: 1"), "{head}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["error"]["message"], "slow down");
    let (status, _, body) = request(addr, "POST", "/v1/chat/completions", &chat("more")).await;
    assert_eq!(status, 400);
    let message = serde_json::from_str::<Value>(&body).unwrap()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("LLM call 3 is not scripted") && message.contains("error 429"), "{message}");
    let kinds: Vec<(String, Option<usize>)> = server.journal().into_iter().map(|e| (e.answer.kind, e.answer.round)).collect();
    assert_eq!(kinds, vec![("reply".into(), Some(1)), ("error".into(), Some(2)), ("miss".into(), None)]);
}

#[tokio::test]
async fn a_bad_body_is_a_400_that_says_why_and_uses_no_round() {
    let (addr, server) = start(vec![reply("one")], false).await;
    let (status, _, body) = request(addr, "POST", "/v1/chat/completions", "{\"messages\": 3}").await;
    assert_eq!(status, 400);
    assert!(body.contains("not a chat-completions request"), "{body}");
    let (status, _, _) = request(addr, "POST", "/v1/chat/completions", &chat("hi")).await;
    assert_eq!(status, 200, "the bad request must not consume round 1");
    assert_eq!(server.journal()[0].body, json!({"messages": 3}));
}

#[tokio::test]
async fn lenient_answers_a_miss_and_journals_it() {
    let (addr, _server) = start(vec![], true).await;
    let (status, _, body) = request(addr, "POST", "/v1/chat/completions", &chat("hi")).await;
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["choices"][0]["message"]["content"], LENIENT_TEXT);
    let (_, _, journal) = request(addr, "GET", "/__proctor/journal", "").await;
    let journal: Value = serde_json::from_str(&journal).unwrap();
    assert_eq!(journal[0]["answer"]["kind"], "miss");
    assert!(journal[0]["answer"]["message"].as_str().unwrap().contains("the script is empty"));
}

#[tokio::test]
async fn models_and_unknown_paths() {
    let (addr, server) = start(vec![], false).await;
    let (status, _, body) = request(addr, "GET", "/v1/models", "").await;
    assert_eq!((status, serde_json::from_str::<Value>(&body).unwrap()["data"][0]["id"].clone()), (200, json!(openai::MODEL)));
    let (status, _, body) = request(addr, "POST", "/v1/completions", "{}").await;
    assert_eq!(status, 404);
    assert!(body.contains("not POST /v1/completions"), "{body}");
    assert_eq!(server.journal().len(), 2);
}
