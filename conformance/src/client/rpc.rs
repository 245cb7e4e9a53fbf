//! A long-lived line-delimited JSON-RPC plugin, as a runtime drives it:
//! integer ids, replies matched by id, lines that are not replies skipped.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use crate::framing::{Id, read_line};
use crate::protocol::{Family, Profile, jsonrpc};
use crate::transport::{Deadlines, ExitOutcome, PluginCommand, PluginProcess, ReadEvent, Shutdown, SpawnError};

/// How a call ended.
#[derive(Debug, Clone)]
pub enum RpcOutcome {
    /// The reply (the whole message) and its raw line.
    Reply {
        /// The reply message.
        message: Value,
        /// The line as written.
        raw: Vec<u8>,
    },
    /// No reply in time.
    Timeout,
    /// stdout closed: the plugin is gone.
    Closed(Option<ExitOutcome>),
    /// The request could not be written.
    WriteFailed(String),
}

/// A running JSON-RPC plugin.
pub struct RpcClient {
    process: PluginProcess,
    family: Family,
    profile: Profile,
    next_id: u64,
    /// Replies that arrived for other ids (out of order), kept for their callers.
    early: BTreeMap<u64, (Value, Vec<u8>)>,
    /// Every line the plugin wrote that was not a reply.
    pub stray: Vec<Vec<u8>>,
}

impl RpcClient {
    /// Starts the plugin.
    pub fn start(command: &PluginCommand, deadlines: Deadlines, family: Family, profile: Profile) -> Result<Self, SpawnError> {
        Ok(RpcClient {
            process: PluginProcess::spawn(command, deadlines)?,
            family,
            profile,
            next_id: 1,
            early: BTreeMap::new(),
            stray: Vec::new(),
        })
    }

    /// The bytes of a request, as the profile's runtime writes them.
    pub fn encode_request(&self, id: u64, method: &str, params: &Value) -> Vec<u8> {
        jsonrpc::encode_request(self.family, self.profile, id, method, params)
    }

    /// Sends a request and waits for the reply with its id.
    pub async fn call(&mut self, method: &str, params: &Value, timeout: Duration) -> (Vec<u8>, RpcOutcome) {
        let id = self.next_id;
        self.next_id += 1;
        let sent = self.encode_request(id, method, params);
        let until = Instant::now() + timeout;
        if let Err(e) = self.process.write_until(&sent, until, timeout).await {
            return (sent, RpcOutcome::WriteFailed(e.to_string()));
        }
        let outcome = self.await_reply(id, until).await;
        (sent, outcome)
    }

    /// Sends a notification.
    pub async fn notify(&mut self, method: &str, params: Value, timeout: Duration) -> (Vec<u8>, Result<(), String>) {
        let sent = jsonrpc::encode_notification(self.profile, method, params);
        let result = self.process.write(&sent, timeout).await.map_err(|e| e.to_string());
        (sent, result)
    }

    /// Sends a request and takes the very next stdout line as its reply,
    /// whatever its id, as PromptKit's server executor does (one line per
    /// call: a stray line shifts every later reply).
    pub async fn call_next_line(&mut self, method: &str, params: &Value, timeout: Duration) -> (Vec<u8>, u64, RpcOutcome) {
        let id = self.next_id;
        self.next_id += 1;
        let sent = self.encode_request(id, method, params);
        if let Err(e) = self.process.write(&sent, timeout).await {
            return (sent, id, RpcOutcome::WriteFailed(e.to_string()));
        }
        let outcome = match self.process.stdout.next_line(timeout).await {
            ReadEvent::Line { bytes, ending } => match read_line(&bytes, ending).value {
                Some(message) => RpcOutcome::Reply { message, raw: bytes },
                None => RpcOutcome::Reply { message: Value::Null, raw: bytes },
            },
            ReadEvent::TooLong { .. } => RpcOutcome::Reply { message: Value::Null, raw: b"[line too long]".to_vec() },
            ReadEvent::Timeout { .. } => RpcOutcome::Timeout,
            ReadEvent::Eof { .. } => RpcOutcome::Closed(self.process.wait_exit(Duration::from_millis(500)).await),
        };
        (sent, id, outcome)
    }

    async fn await_reply(&mut self, id: u64, until: Instant) -> RpcOutcome {
        if let Some((message, raw)) = self.early.remove(&id) {
            return RpcOutcome::Reply { message, raw };
        }
        loop {
            match self.process.stdout.next_line_until(until).await {
                ReadEvent::Line { bytes, ending } => {
                    let Some(message) = read_line(&bytes, ending).value else {
                        self.stray.push(bytes);
                        continue;
                    };
                    match Id::of(&message) {
                        Id::Number(n) if n.as_u64() == Some(id) => return RpcOutcome::Reply { message, raw: bytes },
                        Id::Number(n) if n.as_u64().is_some_and(|other| other > id) => {
                            self.early.insert(n.as_u64().unwrap_or_default(), (message, bytes));
                        }
                        _ => self.stray.push(bytes),
                    }
                }
                ReadEvent::TooLong { .. } => self.stray.push(b"[line too long]".to_vec()),
                ReadEvent::Timeout { .. } => return RpcOutcome::Timeout,
                ReadEvent::Eof { .. } => return RpcOutcome::Closed(self.process.wait_exit(Duration::from_millis(500)).await),
            }
        }
    }

    /// The stderr tail.
    pub fn stderr(&self) -> String {
        self.process.stderr().text()
    }

    /// Closes stdin and stops the plugin (shutdown deadline, then signals);
    /// returns how it ended and its whole stderr tail, read once every
    /// writer of stderr is gone.
    pub async fn close(self) -> (Shutdown, String) {
        let tail = self.process.stderr().clone();
        let shutdown = self.process.shutdown().await;
        (shutdown, tail.text())
    }
}
