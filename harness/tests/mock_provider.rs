//! `proctor mock-provider` against real clients: the binary is started with
//! a fixture scenario, its URL read from its first stdout line, and curl
//! (and, with PROCTOR_PYTHON, the official openai Python package) talks to
//! it over loopback. Every server is stopped by closing its stdin, and must
//! exit 0 when it is.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{MockProvider, proctor, repo_root};
use serde_json::{Value, json};

/// A running `proctor mock-provider` serving a fixture of this test.
type Server = MockProvider;

impl Server {
    fn start(fixture: &str, extra: &[&str]) -> Server {
        MockProvider::serve(&repo_root().join("harness/tests/fixtures/provider").join(fixture), extra)
    }

    fn stop_ok(self) {
        let status = self.stop();
        assert!(status.success(), "mock-provider exited with {status}");
    }

    fn post(&self, body: &Value) -> Reply {
        curl(&[&format!("{}/chat/completions", self.url), "-H", "Content-Type: application/json", "--data-binary", &body.to_string()])
    }

    fn get(&self, path: &str) -> Reply {
        let base = self.url.trim_end_matches("/v1");
        curl(&[&format!("{base}{path}")])
    }
}

/// One curl exchange.
#[derive(Debug)]
struct Reply {
    status: u16,
    /// Header lines, lowercased.
    head: String,
    body: String,
    /// curl's exit code (18: the transfer ended before the body did).
    curl_code: i32,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.body))
    }
}

fn curl(args: &[&str]) -> Reply {
    assert!(Command::new("curl").arg("--version").output().is_ok_and(|o| o.status.success()), "curl is required for these tests");
    let out = Command::new("curl").args(["-sS", "-i", "-N", "--max-time", "20"]).args(args).output().expect("run curl");
    let raw = String::from_utf8(out.stdout).expect("UTF-8 from the server");
    let (head, body) = raw
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {raw:?}; curl stderr: {}", String::from_utf8_lossy(&out.stderr)));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status in {head:?}"));
    Reply { status, head: head.to_ascii_lowercase(), body: body.to_string(), curl_code: out.status.code().unwrap_or(-1) }
}

fn user(text: &str) -> Value {
    json!({"model": "gpt-test", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": text}]})
}

fn streamed(text: &str, include_usage: bool) -> Value {
    let mut body = user(text);
    body["stream"] = json!(true);
    if include_usage {
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

/// Parses a server-sent-events body strictly: only `data: ` lines, each
/// event ended by one blank line, LF only, nothing after the last event.
fn sse_events(body: &str) -> Vec<String> {
    let mut events = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let (event, tail) = rest.split_once("\n\n").unwrap_or_else(|| panic!("event not ended by a blank line: {rest:?}"));
        assert!(!event.contains('\r'), "CR in event {event:?}");
        let mut data = Vec::new();
        for line in event.split('\n') {
            let value = line.strip_prefix("data: ").unwrap_or_else(|| panic!("not a `data: ` line: {line:?}"));
            data.push(value);
        }
        events.push(data.join("\n"));
        rest = tail;
    }
    events
}

/// The chunks of a complete stream (which must end with `data: [DONE]`).
fn stream_chunks(reply: &Reply) -> Vec<Value> {
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.head.contains("content-type: text/event-stream"), "{}", reply.head);
    let events = sse_events(&reply.body);
    assert_eq!(events.last().map(String::as_str), Some("[DONE]"), "the stream must end with data: [DONE]: {events:?}");
    assert_eq!(events.iter().filter(|e| *e == "[DONE]").count(), 1);
    events[..events.len() - 1]
        .iter()
        .map(|e| serde_json::from_str(e).unwrap_or_else(|err| panic!("chunk is not JSON ({err}): {e}")))
        .collect()
}

fn deltas(chunks: &[Value]) -> Vec<&Value> {
    chunks.iter().filter_map(|c| c["choices"].get(0)).map(|choice| &choice["delta"]).collect()
}

#[test]
fn text_reply_is_a_chat_completion() {
    let server = Server::start("conversation.yaml", &[]);
    let reply = server.post(&user("Hello"));
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.head.contains("content-type: application/json"), "{}", reply.head);
    let body = reply.json();
    assert_eq!(body["id"], "chatcmpl-proctor-1");
    assert_eq!(body["object"], "chat.completion");
    assert_eq!(body["created"], 1_700_000_000);
    assert_eq!(body["model"], "gpt-test");
    assert_eq!(body["choices"][0]["message"], json!({"role": "assistant", "content": "Hello from proctor."}));
    assert_eq!(body["choices"][0]["finish_reason"], "stop");
    let usage = &body["usage"];
    // "be brief" + "Hello" = 13 chars -> 4 tokens; "Hello from proctor." = 19 -> 5.
    assert_eq!(usage, &json!({"prompt_tokens": 4, "completion_tokens": 5, "total_tokens": 9}));
    server.stop_ok();
}

#[test]
fn tool_calls_carry_ids_and_json_string_arguments() {
    let server = Server::start("conversation.yaml", &[]);
    assert_eq!(server.post(&user("Hello")).status, 200);
    let body = server.post(&user("Weather and time in Paris?")).json();
    let message = &body["choices"][0]["message"];
    assert_eq!(message["content"], Value::Null, "a tool-only answer has null content");
    assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
    let calls = message["tool_calls"].as_array().expect("tool_calls");
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0]["id"].as_str(), calls[0]["type"].as_str(), calls[0]["function"]["name"].as_str()),
        (Some("call_0_get_weather"), Some("function"), Some("get_weather"))
    );
    let args: Value = serde_json::from_str(calls[0]["function"]["arguments"].as_str().expect("arguments is a string")).unwrap();
    assert_eq!(args, json!({"city": "Paris", "unit": "celsius"}));
    assert_eq!(calls[1]["id"], "call_time");
    server.stop_ok();
}

#[test]
fn strict_mode_refuses_a_miss_naming_the_nearest_round_and_keeps_it() {
    let server = Server::start("conversation.yaml", &[]);
    assert_eq!(server.post(&user("Hello")).status, 200);
    assert_eq!(server.post(&user("Weather?")).status, 200);
    let miss = server.post(&user("Never mind the tool."));
    assert_eq!(miss.status, 400, "{miss:?}");
    let error = &miss.json()["error"];
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("round 3") && message.contains("It is 18 degrees") && message.contains("expected the last message from tool"),
        "{message}"
    );
    assert_eq!((error["type"].as_str(), error["code"].as_str()), (Some("invalid_request_error"), Some("script_miss")));
    // The miss consumed nothing: round 3 still answers the right request.
    let mut tool = user("Weather?");
    tool["messages"] = json!([
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "call_0_get_weather", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
        {"role": "tool", "tool_call_id": "call_0_get_weather", "content": "18 C, sunny"}
    ]);
    let answer = server.post(&tool);
    assert_eq!(answer.json()["choices"][0]["message"]["content"], "It is 18 degrees in Paris.", "{answer:?}");
    server.stop_ok();
}

#[test]
fn lenient_mode_answers_a_miss() {
    let server = Server::start("conversation.yaml", &["--lenient"]);
    for _ in 0..2 {
        assert_eq!(server.post(&user("Hello")).status, 200);
    }
    let reply = server.post(&user("Off script"));
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.json()["choices"][0]["message"]["content"].as_str().unwrap().contains("not scripted"));
    server.stop_ok();
}

#[test]
fn streaming_is_sse_with_role_content_finish_and_done() {
    let server = Server::start("stream.yaml", &[]);
    let chunks = stream_chunks(&server.post(&streamed("Hello", false)));
    assert!(chunks.iter().all(|c| c["object"] == "chat.completion.chunk" && c["id"] == "chatcmpl-proctor-1" && c["model"] == "gpt-test"));
    let d = deltas(&chunks);
    assert_eq!(d[0], &json!({"role": "assistant", "content": ""}));
    let contents: Vec<&str> = d[1..].iter().filter_map(|d| d["content"].as_str()).collect();
    assert_eq!(contents, ["Hel", "lo, ", "wörld."], "the scripted chunks, one delta each");
    assert_eq!(chunks.last().unwrap()["choices"][0]["finish_reason"], "stop");
    assert!(chunks.iter().all(|c| c.get("usage").is_none()), "no usage chunk unless asked");

    // A text without chunks streams in pieces of at most 20 bytes, and usage comes last when asked for.
    let chunks = stream_chunks(&server.post(&streamed("More", true)));
    let pieces: Vec<&str> = deltas(&chunks)[1..].iter().filter_map(|d| d["content"].as_str()).collect();
    assert!(pieces.len() > 3 && pieces.iter().all(|p| p.len() <= 20), "{pieces:?}");
    assert_eq!(pieces.concat(), "The quick brown fox jumps over the lazy dog, then naps in the sun for a while.");
    let usage = chunks.last().unwrap();
    assert_eq!(usage["choices"], json!([]));
    assert!(usage["usage"]["total_tokens"].as_u64().unwrap() > 1, "{usage}");

    // Tool calls stream as indexed deltas whose arguments concatenate to JSON.
    let chunks = stream_chunks(&server.post(&streamed("Search", false)));
    let d = deltas(&chunks);
    let call_deltas: Vec<&Value> = d.iter().filter_map(|d| d["tool_calls"].get(0)).collect();
    assert_eq!(
        (call_deltas[0]["index"].as_u64(), call_deltas[0]["id"].as_str(), call_deltas[0]["function"]["name"].as_str()),
        (Some(0), Some("call_0_search"), Some("search"))
    );
    let args: String = call_deltas.iter().filter_map(|c| c["function"]["arguments"].as_str()).collect();
    assert_eq!(serde_json::from_str::<Value>(&args).unwrap(), json!({"query": "rust sse framing", "limit": 3}));
    assert_eq!(chunks.last().unwrap()["choices"][0]["finish_reason"], "tool_calls");
    server.stop_ok();
}

/// Sends `n` requests to get past the rounds before the one under test.
fn skip(server: &Server, n: usize) {
    for _ in 0..n {
        server.post(&user("skip"));
    }
}

#[test]
fn scripted_429_has_retry_after_and_500_is_a_server_error() {
    let server = Server::start("faults.yaml", &[]);
    let limited = server.post(&user("Hello"));
    assert_eq!(limited.status, 429, "{limited:?}");
    assert!(limited.head.contains("\r\nretry-after: 1\r\n") || limited.head.ends_with("\r\nretry-after: 1"), "{}", limited.head);
    assert_eq!(
        limited.json()["error"],
        json!({"message": "Rate limit reached: slow down", "type": "rate_limit_error", "param": null, "code": "rate_limit_exceeded"})
    );
    let failed = server.post(&user("Hello"));
    assert_eq!(failed.status, 500, "{failed:?}");
    assert!(!failed.head.contains("retry-after"));
    assert_eq!(failed.json()["error"]["type"], "server_error");
    server.stop_ok();
}

#[test]
fn malformed_json_is_sent_raw_with_status_200() {
    let server = Server::start("faults.yaml", &[]);
    skip(&server, 2);
    let reply = server.post(&user("Hello"));
    assert_eq!(reply.status, 200);
    assert!(reply.head.contains("content-type: application/json"), "{}", reply.head);
    assert_eq!(reply.body, r#"{"id": "chatcmpl-broken", "choices": [{"message": "#);
    assert!(serde_json::from_str::<Value>(&reply.body).is_err());
    server.stop_ok();
}

#[test]
fn disconnect_drops_the_stream_after_the_scripted_chunks() {
    let server = Server::start("faults.yaml", &[]);
    skip(&server, 3);
    let reply = server.post(&streamed("Hello", false));
    assert_eq!(reply.status, 200);
    assert_ne!(reply.curl_code, 0, "curl must see the transfer cut short: {reply:?}");
    let events = sse_events(&reply.body);
    assert_eq!(events.len(), 2, "exactly after_chunks events, then the drop: {events:?}");
    assert!(!events.iter().any(|e| e == "[DONE]"));
    let second: Value = serde_json::from_str(&events[1]).unwrap();
    assert_eq!(second["choices"][0]["delta"]["content"], "partial ");
    // The server survives the drop and goes on with the next round.
    let started = Instant::now();
    let late = server.post(&user("Hello"));
    assert_eq!(late.json()["choices"][0]["message"]["content"], "Late but fine.");
    assert!(started.elapsed() >= Duration::from_millis(400), "delay_ms 400 honoured, took {:?}", started.elapsed());
    server.stop_ok();
}

#[test]
fn journal_lists_every_request_over_http_and_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("journal.jsonl");
    let server = Server::start("conversation.yaml", &["--journal", file.to_str().unwrap()]);
    assert_eq!(server.post(&user("Hello")).status, 200);
    assert_eq!(server.post(&user("Weather?")).status, 200);
    assert_eq!(server.post(&user("No tool")).status, 400);
    let models = server.get("/v1/models");
    assert_eq!(models.json()["data"][0]["id"], "proctor-scripted");
    let bad = server.post(&json!({"messages": "not a list"}));
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"]["message"].as_str().unwrap().contains("not a chat-completions request"), "{bad:?}");

    let journal = server.get("/__proctor/journal").json();
    let summary: Vec<(u64, &str, &str, Option<u64>)> = journal
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (e["seq"].as_u64().unwrap(), e["path"].as_str().unwrap(), e["answer"]["kind"].as_str().unwrap(), e["answer"]["round"].as_u64())
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, "/v1/chat/completions", "reply", Some(1)),
            (2, "/v1/chat/completions", "reply", Some(2)),
            (3, "/v1/chat/completions", "miss", None),
            (4, "/v1/models", "models", None),
            (5, "/v1/chat/completions", "bad_request", None),
        ]
    );
    assert_eq!(journal[2]["body"], user("No tool"));
    assert!(journal[2]["answer"]["message"].as_str().unwrap().contains("round 3"));
    // The file is written as requests happen: complete before the server stops.
    let lines: Vec<Value> = std::fs::read_to_string(&file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(Value::Array(lines), journal);
    server.stop_ok();
}

#[test]
fn non_loopback_listen_and_bad_scenarios_are_usage_errors() {
    let scenario = repo_root().join("harness/tests/fixtures/provider/conversation.yaml");
    for (args, says) in [
        (vec!["--scenario", scenario.to_str().unwrap(), "--listen", "0.0.0.0:0"], "only loopback"),
        (vec!["--scenario", scenario.to_str().unwrap(), "--listen", "localhost"], "not an address"),
        (vec!["--scenario", "/nonexistent/scenario.yaml"], "scenario.yaml"),
    ] {
        let out = Command::new(proctor()).arg("mock-provider").args(&args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "no URL printed on a usage error");
    }
}

#[test]
fn sigterm_stops_the_server_cleanly() {
    let server = Server::start("conversation.yaml", &[]);
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let mut server = server;
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "no exit within 10 s of SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
}

/// The official openai Python package against the server: run by `.ci/run`
/// (which builds the venv and sets PROCTOR_PYTHON); skipped elsewhere.
#[test]
fn openai_python_client() {
    let Some(python) = std::env::var_os("PROCTOR_PYTHON") else {
        // Written past libtest's capture (which holds `eprintln!` of a passing
        // test), so `cargo test` shows the skip next to the test's `ok`.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "openai_python_client: SKIPPED, PROCTOR_PYTHON is unset (.ci/run sets it to a venv with the openai package)"
        );
        return;
    };
    let server = Server::start("openai-client.yaml", &[]);
    let script = repo_root().join("tests/python/test_openai_client.py");
    let out = Command::new(Path::new(&python)).arg(&script).arg(&server.url).output().expect("run the Python client test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the openai client test failed:\n{stdout}\n{stderr}");
    assert!(stdout.lines().any(|l| l.ends_with(" passed, 0 failed")), "{stdout}");
    // Every scripted round was asked for, in order: the client really talked to us.
    let journal = server.get("/__proctor/journal").json();
    let rounds: Vec<Option<u64>> = journal.as_array().unwrap().iter().map(|e| e["answer"]["round"].as_u64()).collect();
    assert_eq!(rounds, (1..=7).map(Some).collect::<Vec<_>>(), "{journal:#}");
    server.stop_ok();
}

/// The Responses and Messages routes with curl: named events, each API's own
/// error shape for a body it cannot read, and the journal naming the route.
#[test]
fn responses_and_messages_routes_speak_their_own_shapes() {
    let server = Server::start("agent-apis.yaml", &[]);
    let base = server.url.trim_end_matches("/v1").to_string();
    let post = |path: &str, body: &str| curl(&[&format!("{base}{path}"), "-H", "Content-Type: application/json", "--data-binary", body]);
    let r = post("/v1/responses", r#"{"model":"m","input":"list the files","tools":[{"type":"function","name":"exec_command"}]}"#);
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.json()["output"][0]["type"], "function_call", "{r:?}");
    let r =
        post("/v1/responses", r#"{"model":"m","stream":true,"input":[{"type":"function_call_output","call_id":"c","output":"a.txt"}]}"#);
    assert!(r.head.contains("content-type: text/event-stream"), "{r:?}");
    assert!(r.body.starts_with("event: response.created\ndata: {"), "{r:?}");
    assert!(r.body.trim_end().rsplit("\n\n").next().unwrap().starts_with("event: response.completed\n"), "{r:?}");
    let r = post("/v1/messages?beta=true", r#"{"model":"m","max_tokens":8}"#);
    assert_eq!(r.status, 400, "{r:?}");
    assert_eq!(r.json()["type"], "error", "Anthropic's error shape: {r:?}");
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("`messages`"), "{r:?}");
    let journal = server.get("/__proctor/journal").json();
    let paths: Vec<&str> = journal.as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["/v1/responses", "/v1/responses", "/v1/messages"], "{journal:#}");
    server.stop_ok();
}

/// The official openai (Responses API) and anthropic (Messages API) Python
/// packages, unstreamed and streamed: run by `.ci/run`; skipped elsewhere.
#[test]
fn agent_api_python_clients() {
    let Some(python) = std::env::var_os("PROCTOR_PYTHON") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "agent_api_python_clients: SKIPPED, PROCTOR_PYTHON is unset (.ci/run sets it to a venv with openai and anthropic)"
        );
        return;
    };
    let server = Server::start("agent-apis.yaml", &[]);
    let script = repo_root().join("tests/python/test_agent_apis.py");
    let out = Command::new(Path::new(&python)).arg(&script).arg(&server.url).output().expect("run the Python client test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the agent API client test failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.lines().any(|l| l == "4 passed, 0 failed"), "{stdout}");
    let journal = server.get("/__proctor/journal").json();
    let rounds: Vec<(Option<&str>, Option<u64>)> =
        journal.as_array().unwrap().iter().map(|e| (e["path"].as_str(), e["answer"]["round"].as_u64())).collect();
    let want: Vec<(Option<&str>, Option<u64>)> =
        (1..=8).map(|n| (Some(if n <= 4 { "/v1/responses" } else { "/v1/messages" }), Some(n))).collect();
    assert_eq!(rounds, want, "{journal:#}");
    server.stop_ok();
}
