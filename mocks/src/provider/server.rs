//! The scripted LLM as an OpenAI-compatible HTTP server
//! (`proctor mock-provider`): a runtime under test points its OpenAI base
//! URL here and gets the scenario's rounds, in order, as chat completions,
//! streamed or not, including the scripted faults.
//!
//! Routes:
//! - `POST /v1/chat/completions`: the next scripted round (strict: a
//!   request the script does not cover is a 400 naming the nearest round).
//! - `POST /v1/responses` (OpenAI Responses API, as Codex CLI sends it) and
//!   `POST /v1/messages` (Anthropic Messages API, as Claude Code sends it):
//!   the same script, the same rounds, in each API's own shapes and events.
//! - `GET /v1/models`: one model, [`openai::MODEL`].
//! - `GET /__proctor/journal`: every request so far with its answer.
//! - anything else: a 404 in OpenAI's error shape (journaled too, since a
//!   runtime calling the wrong path is worth seeing).
//!
//! Requests are answered one at a time in arrival order: the script is a
//! sequence, so concurrency would only make the answers nondeterministic.

use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;
use tokio::net::TcpListener;

use super::journal::{Answer, Journal, JournalEntry, body_value};
use super::llm::{LlmRequest, LlmResponse, ScriptedLlm};
use super::openai::{self, ChatRequest};
use super::script::LlmRound;
use super::sse::{self, StreamId};
use super::{anthropic, responses};

/// What `--lenient` answers a request the script does not cover.
pub const LENIENT_TEXT: &str = "proctor mock-provider: this request is not scripted (answered because of --lenient)";

/// How long in-flight answers may go on after a shutdown was asked for.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Request bodies up to this size are read (and journaled); runtimes send
/// whole conversations, which can be large.
const BODY_LIMIT: usize = 64 * 1024 * 1024;

/// How the server behaves.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProviderOptions {
    /// Answer requests the script does not cover with [`LENIENT_TEXT`]
    /// instead of an HTTP 400.
    pub lenient: bool,
}

/// The mock provider: the script, its journal, and the HTTP routes.
#[derive(Debug, Clone)]
pub struct ProviderServer {
    state: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    lenient: bool,
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    llm: ScriptedLlm,
    journal: Journal,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere must not wedge the server: the data stays usable.
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl ProviderServer {
    /// A server answering from `rounds`, journaling to `journal` (see
    /// [`Journal::writing_to`] for one mirrored to a file).
    pub fn new(rounds: Vec<LlmRound>, options: &ProviderOptions, journal: Journal) -> ProviderServer {
        let inner = Mutex::new(Inner { llm: ScriptedLlm::new(rounds), journal });
        ProviderServer { state: Arc::new(Shared { lenient: options.lenient, inner }) }
    }

    /// The routes, for serving or for testing in process.
    pub fn router(&self) -> Router {
        Router::new()
            .route(openai::CHAT_COMPLETIONS, post(chat_completions))
            .route(responses::RESPONSES, post(responses_api))
            .route(anthropic::MESSAGES, post(messages_api))
            .route("/v1/models", get(models))
            .route("/__proctor/journal", get(journal))
            .fallback(not_found)
            .layer(DefaultBodyLimit::max(BODY_LIMIT))
            .with_state(self.state.clone())
    }

    /// Every request so far, in order.
    pub fn journal(&self) -> Vec<JournalEntry> {
        self.state.lock().journal.entries().to_vec()
    }

    /// Serves on `listener` until `shutdown` completes, then lets in-flight
    /// answers finish for up to two seconds.
    pub async fn serve(self, listener: TcpListener, shutdown: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel::<()>();
        let signal = async move {
            shutdown.await;
            let _ = stopping_tx.send(());
        };
        let serving = axum::serve(listener, self.router()).with_graceful_shutdown(signal).into_future();
        let grace = async move {
            match stopping_rx.await {
                Ok(()) => tokio::time::sleep(SHUTDOWN_GRACE).await,
                Err(_) => std::future::pending().await,
            }
        };
        tokio::select! {
            result = serving => result,
            () = grace => Ok(()),
        }
    }
}

/// What a chat-completions request is answered with, decided under the lock.
enum Plan {
    Reply { text: String, calls: Vec<super::llm::ResolvedCall>, chunks: Vec<String>, delay_ms: u64 },
    Error { status: u16, message: String, code: Option<&'static str> },
    Malformed(String),
    Disconnect { after_chunks: usize, chunks: Vec<String> },
}

/// Journals a request on `path` and decides its answer under the lock:
/// the request's sequence number and the plan.
fn script_call(state: &Shared, path: &str, body: &Bytes, parsed: Result<(LlmRequest, bool), String>) -> (u64, Plan) {
    let mut inner = state.lock();
    let seq = inner.journal.next_seq();
    let (plan, answer) = match parsed {
        Err(message) => {
            let answer = Answer { message: Some(message.clone()), ..Answer::new(400, "bad_request") };
            (Plan::Error { status: 400, message, code: Some("invalid_request") }, answer)
        }
        Ok((request, stream)) => {
            let round = inner.llm.used() + 1;
            decide(inner.llm.complete(&request), round, state.lenient, stream)
        }
    };
    inner.journal.record(JournalEntry { seq, method: "POST".into(), path: path.into(), body: body_value(body), answer });
    (seq, plan)
}

async fn chat_completions(State(state): State<Arc<Shared>>, body: Bytes) -> Response {
    let parsed = ChatRequest::parse(&body);
    let (seq, plan) =
        script_call(&state, openai::CHAT_COMPLETIONS, &body, parsed.as_ref().map(|r| (r.to_llm(), r.stream)).map_err(Clone::clone));
    let request = parsed.ok();
    let id = format!("chatcmpl-proctor-{seq}");
    let model = request.as_ref().map_or("", |r| r.model.as_str());
    let stream = request.as_ref().is_some_and(|r| r.stream);
    match plan {
        Plan::Error { status, message, code } => error_response(status, &message, code),
        Plan::Malformed(raw) => with_type(Response::new(Body::from(raw)), "application/json"),
        Plan::Reply { text, calls, chunks, delay_ms } => {
            if delay_ms > 0 {
                tokio::time::sleep(Duration::from_millis(delay_ms)).await;
            }
            let prompt_chars = request.as_ref().map_or(0, ChatRequest::prompt_chars);
            let usage = openai::usage(prompt_chars, openai::completion_chars(&text, &calls));
            if stream {
                let include_usage = request.as_ref().and_then(|r| r.stream_options.as_ref()).is_some_and(|o| o.include_usage);
                let chunks = sse::reply_chunks(StreamId { id: &id, model }, &text, &chunks, &calls, include_usage.then_some(usage));
                event_stream(sse::body(sse::frames(&chunks, None), false))
            } else {
                json_response(StatusCode::OK, &openai::completion(&id, model, &text, &calls, usage))
            }
        }
        Plan::Disconnect { after_chunks, chunks } => {
            if stream {
                let chunks = sse::disconnect_chunks(StreamId { id: &id, model }, &chunks);
                event_stream(sse::body(sse::frames(&chunks, Some(after_chunks)), true))
            } else {
                // A body cut short: the start of a completion, then the drop.
                let head = Bytes::from(format!("{{\"id\":\"{id}\",\"object\":\"chat.completion\","));
                with_type(Response::new(sse::body(vec![head], true)), "application/json")
            }
        }
    }
}

/// The events of a stream in one of the named-event APIs.
type Events = Vec<(String, Value)>;

/// One scripted answer, as every named-event API writes it.
struct Spoken<'a> {
    id: &'a str,
    model: &'a str,
    text: &'a str,
    /// The text's stream deltas, when the script gives them.
    chunks: &'a [String],
    calls: &'a [super::llm::ResolvedCall],
    /// Characters of the request's conversation, for the token estimate.
    prompt: usize,
}

/// How one of the named-event APIs (Responses, Messages) writes each kind of answer.
struct Dialect {
    path: &'static str,
    /// The answer's id from the request's sequence number.
    id: fn(u64) -> String,
    /// The whole answer.
    body: fn(&Spoken<'_>) -> Value,
    /// The answer as a stream.
    events: fn(&Spoken<'_>) -> Events,
    error: fn(u16, &str, Option<&str>) -> Value,
}

const RESPONSES: Dialect = Dialect {
    path: responses::RESPONSES,
    id: |seq| format!("resp_proctor_{seq}"),
    body: |a| {
        let usage = responses::usage(a.prompt, openai::completion_chars(a.text, a.calls));
        responses::body(responses::Answering { id: a.id, model: a.model }, a.text, a.calls, usage)
    },
    events: |a| {
        let usage = responses::usage(a.prompt, openai::completion_chars(a.text, a.calls));
        responses::events(responses::Answering { id: a.id, model: a.model }, a.text, a.chunks, a.calls, usage)
    },
    error: responses::error_body,
};

const MESSAGES: Dialect = Dialect {
    path: anthropic::MESSAGES,
    id: |seq| format!("msg_proctor_{seq}"),
    body: |a| anthropic::body(anthropic::Answering { id: a.id, model: a.model }, a.text, a.calls, a.prompt),
    events: |a| anthropic::events(anthropic::Answering { id: a.id, model: a.model }, a.text, a.chunks, a.calls, a.prompt),
    error: |status, message, _| anthropic::error_body(status, message),
};

async fn responses_api(State(state): State<Arc<Shared>>, body: Bytes) -> Response {
    let parsed = responses::ResponsesRequest::parse(&body).map(|r| (r.llm.clone(), r.stream, r.model.clone(), r.prompt_chars()));
    answer_in(&state, &RESPONSES, &body, parsed).await
}

async fn messages_api(State(state): State<Arc<Shared>>, body: Bytes) -> Response {
    let parsed = anthropic::MessagesRequest::parse(&body).map(|r| (r.llm.clone(), r.stream, r.model.clone(), r.prompt_chars()));
    answer_in(&state, &MESSAGES, &body, parsed).await
}

/// The next scripted round in `dialect`'s shapes; `parsed` is the request
/// (conversation, streamed, model, prompt characters) or what is wrong with it.
async fn answer_in(state: &Shared, dialect: &Dialect, body: &Bytes, parsed: Result<(LlmRequest, bool, String, usize), String>) -> Response {
    let (seq, plan) =
        script_call(state, dialect.path, body, parsed.as_ref().map(|(llm, stream, ..)| (llm.clone(), *stream)).map_err(Clone::clone));
    let (stream, model, prompt) = parsed.map_or((false, String::new(), 0), |(_, stream, model, prompt)| (stream, model, prompt));
    let id = (dialect.id)(seq);
    match plan {
        Plan::Error { status, message, code } => {
            retry_after(status, json_response(http_status(status), &(dialect.error)(status, &message, code)))
        }
        Plan::Malformed(raw) => with_type(Response::new(Body::from(raw)), "application/json"),
        Plan::Reply { text, calls, chunks, delay_ms } => {
            if delay_ms > 0 {
                tokio::time::sleep(Duration::from_millis(delay_ms)).await;
            }
            let spoken = Spoken { id: &id, model: &model, text: &text, chunks: &chunks, calls: &calls, prompt };
            if stream {
                event_stream(sse::body(sse::named_frames(&(dialect.events)(&spoken), None), false))
            } else {
                json_response(StatusCode::OK, &(dialect.body)(&spoken))
            }
        }
        Plan::Disconnect { after_chunks, chunks } => {
            if stream {
                let chunks = if chunks.is_empty() { sse::disconnect_filler() } else { chunks };
                let spoken = Spoken { id: &id, model: &model, text: "", chunks: &chunks, calls: &[], prompt };
                event_stream(sse::body(sse::named_frames(&(dialect.events)(&spoken), Some(after_chunks)), true))
            } else {
                let head = Bytes::from(format!("{{\"id\":\"{id}\","));
                with_type(Response::new(sse::body(vec![head], true)), "application/json")
            }
        }
    }
}

/// Turns the script's answer into a plan and its journal record.
fn decide(result: Result<LlmResponse, super::llm::ScriptMiss>, round: usize, lenient: bool, stream: bool) -> (Plan, Answer) {
    let mut answer = Answer::scripted(&result, round, stream, lenient);
    let plan = match result {
        Ok(LlmResponse::Reply { text, tool_calls, chunks, delay_ms }) => Plan::Reply { text, calls: tool_calls, chunks, delay_ms },
        Ok(LlmResponse::Error { status, message }) => {
            let status = http_status(status).as_u16();
            answer.status = status;
            Plan::Error { status, message, code: None }
        }
        Ok(LlmResponse::Malformed { body }) => Plan::Malformed(body),
        Ok(LlmResponse::Disconnect { after_chunks, chunks }) => Plan::Disconnect { after_chunks, chunks },
        Err(_) if lenient => Plan::Reply { text: LENIENT_TEXT.to_string(), calls: Vec::new(), chunks: Vec::new(), delay_ms: 0 },
        Err(miss) => Plan::Error { status: 400, message: miss.message, code: Some("script_miss") },
    };
    (plan, answer)
}

async fn models(State(state): State<Arc<Shared>>) -> Response {
    let mut inner = state.lock();
    let seq = inner.journal.next_seq();
    inner.journal.record(JournalEntry {
        seq,
        method: "GET".into(),
        path: "/v1/models".into(),
        body: Value::Null,
        answer: Answer::new(200, "models"),
    });
    json_response(StatusCode::OK, &openai::models())
}

async fn journal(State(state): State<Arc<Shared>>) -> Response {
    let entries = state.lock().journal.entries().to_vec();
    json_response(StatusCode::OK, &serde_json::to_value(entries).unwrap_or_default())
}

async fn not_found(State(state): State<Arc<Shared>>, method: Method, uri: Uri, body: Bytes) -> Response {
    let message = format!(
        "proctor mock-provider serves POST /v1/chat/completions, /v1/responses and /v1/messages and GET /v1/models, not {method} {}",
        uri.path()
    );
    let mut inner = state.lock();
    let seq = inner.journal.next_seq();
    let answer = Answer { message: Some(message.clone()), ..Answer::new(404, "not_found") };
    inner.journal.record(JournalEntry { seq, method: method.to_string(), path: uri.path().to_string(), body: body_value(&body), answer });
    error_response(404, &message, Some("unknown_url"))
}

/// A script's status as HTTP; one HTTP cannot carry (outside 100..=999) is 500.
fn http_status(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

fn error_response(status: u16, message: &str, code: Option<&str>) -> Response {
    retry_after(status, json_response(http_status(status), &openai::error_body(status, message, code)))
}

/// A 429 with `Retry-After: 1`: the clients honour it, and 1 s keeps retrying tests fast.
fn retry_after(status: u16, mut response: Response) -> Response {
    if status == 429 {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    response
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    let mut response = with_type(Response::new(Body::from(value.to_string())), "application/json");
    *response.status_mut() = status;
    response
}

fn event_stream(body: Body) -> Response {
    let mut response = with_type(Response::new(body), "text/event-stream");
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn with_type(mut response: Response, content_type: &'static str) -> Response {
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response.into_response()
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
