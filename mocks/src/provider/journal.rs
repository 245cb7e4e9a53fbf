//! The mock provider's request journal: every request received, in order,
//! with its body and what was answered. `proctor verify` reads it to judge
//! what a runtime sent; a test reads it to see what its client did.
//!
//! Kept in memory (served at `GET /__proctor/journal`) and, with
//! `--journal FILE`, written as JSON lines, one write and flush per request,
//! so a server killed mid-run still leaves every completed line.

use std::fs::File;
use std::io::Write;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::llm::{LlmResponse, ScriptMiss};

/// One request and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// 1-based, in order of arrival (also the `N` of `chatcmpl-proctor-N`).
    pub seq: u64,
    /// HTTP method.
    pub method: String,
    /// Request path.
    pub path: String,
    /// The body: parsed JSON, or the raw text when it is not JSON, or null.
    pub body: Value,
    /// What was answered.
    pub answer: Answer,
}

/// What the server answered a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// HTTP status sent (200 also for a malformed body or a dropped stream).
    pub status: u16,
    /// reply, error, malformed, disconnect, miss, bad_request, models.
    pub kind: String,
    /// The 1-based scripted round that answered, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<usize>,
    /// Whether the answer was streamed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stream: bool,
    /// Why a request was refused (a miss names the nearest round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Answer {
    /// An answer of `kind` with `status`, nothing else set.
    pub fn new(status: u16, kind: &str) -> Self {
        Answer { status, kind: kind.to_string(), round: None, stream: false, message: None }
    }

    /// How the script answered a chat request (round `round`, 1-based):
    /// the record both the HTTP server and the in-process runs keep.
    /// `status` is the HTTP status the caller sends for a scripted error.
    pub fn scripted(result: &Result<LlmResponse, ScriptMiss>, round: usize, stream: bool, lenient: bool) -> Answer {
        let answered = |status: u16, kind: &str| Answer { round: Some(round), stream, ..Answer::new(status, kind) };
        match result {
            Ok(LlmResponse::Reply { .. }) => answered(200, "reply"),
            Ok(LlmResponse::Error { status, .. }) => answered(*status, "error"),
            Ok(LlmResponse::Malformed { .. }) => answered(200, "malformed"),
            Ok(LlmResponse::Disconnect { .. }) => answered(200, "disconnect"),
            Err(miss) => Answer { stream, message: Some(miss.message.clone()), ..Answer::new(if lenient { 200 } else { 400 }, "miss") },
        }
    }
}

/// A journal line that is not what the mock provider writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("journal line {line}: {problem}")]
pub struct JournalParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// Reads a journal file's JSON lines (blank lines are skipped).
pub fn parse_journal(text: &str) -> Result<Vec<JournalEntry>, JournalParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| JournalParseError {
                line: i + 1,
                problem: format!("not a journal entry ({e}); write journals with `proctor mock-provider --journal FILE`"),
            })
        })
        .collect()
}

/// The journal: in memory, and optionally mirrored to a file.
#[derive(Debug, Default)]
pub struct Journal {
    entries: Vec<JournalEntry>,
    file: Option<File>,
}

impl Journal {
    /// A journal that also writes JSON lines to `file`, opened by the caller
    /// (who decides how a path the user named may be written: proctor's
    /// `output` module truncates a file and writes a FIFO or device as it is).
    pub fn writing_to(file: File) -> Journal {
        Journal { entries: Vec::new(), file: Some(file) }
    }

    /// The number the next entry gets.
    pub fn next_seq(&self) -> u64 {
        self.entries.len() as u64 + 1
    }

    /// Records an entry; a failing journal file is reported on stderr once
    /// per entry and does not stop the server (the in-memory journal is
    /// still complete).
    pub fn record(&mut self, entry: JournalEntry) {
        if let Some(file) = &mut self.file {
            let mut line = serde_json::to_string(&entry).unwrap_or_default();
            line.push('\n');
            if let Err(e) = file.write_all(line.as_bytes()).and_then(|()| file.flush()) {
                eprintln!("proctor mock-provider: cannot write the journal file: {e}");
            }
        }
        self.entries.push(entry);
    }

    /// Every entry so far.
    pub fn entries(&self) -> &[JournalEntry] {
        &self.entries
    }
}

/// A request body as the journal keeps it.
pub fn body_value(body: &[u8]) -> Value {
    if body.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(body).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_gets_one_line_per_entry_as_it_happens() {
        let dir = std::env::temp_dir().join(format!("proctor-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("j.jsonl");
        std::fs::write(&path, "stale\n").unwrap();
        let mut j = Journal::writing_to(std::fs::File::create(&path).unwrap());
        for kind in ["reply", "miss"] {
            let seq = j.next_seq();
            j.record(JournalEntry {
                seq,
                method: "POST".into(),
                path: "/v1/chat/completions".into(),
                body: body_value(b"{not json"),
                answer: Answer::new(200, kind),
            });
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(text.lines().count() as u64, seq, "{text}");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("stale"));
        let second: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        assert_eq!(second["seq"], 2);
        assert_eq!(second["body"], "{not json");
        assert_eq!(second["answer"], serde_json::json!({"status": 200, "kind": "miss"}));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
