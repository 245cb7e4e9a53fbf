//! Reading a mock plugin's record (`--record FILE`): JSON lines of what it
//! received, a `start` marker per process. Processes that ran at once (a
//! one-shot plugin certified with `--jobs`, `load --concurrency`) append to
//! one file line by line, interleaved: every line names its process's `pid`,
//! and a line goes to the session that pid started. A line without a `pid`
//! (an older record) goes to the last session started.

use serde_json::Value;

/// What one plugin process received.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    /// Every byte, in order.
    pub bytes: Vec<u8>,
    /// Whether stdin reached EOF (the runtime closed it).
    pub eof: bool,
    /// The exit status, when the process ended by itself (a process the
    /// runtime killed records none).
    pub exit: Option<i32>,
}

impl Session {
    /// Whether the plugin died while the runtime still held it open: it
    /// exited before its stdin was closed.
    pub fn died(&self) -> bool {
        self.exit.is_some() && !self.eof
    }
}

/// A record line that is not what `--record` writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record line {line}: {problem}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// Parses a record file into its processes.
pub fn parse_record(text: &str) -> Result<Vec<Session>, ParseError> {
    let mut sessions: Vec<Session> = Vec::new();
    // The session each pid is writing (a pid reused later starts a new one).
    let mut by_pid: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let err = |problem: &str| ParseError { line: i + 1, problem: problem.to_string() };
        let v: Value = serde_json::from_str(line).map_err(|e| err(&format!("not JSON: {e}")))?;
        let pid = v.get("pid").and_then(Value::as_u64);
        if v.get("start").is_some() {
            sessions.push(Session::default());
            if let Some(pid) = pid {
                by_pid.insert(pid, sessions.len() - 1);
            }
            continue;
        }
        let at = match pid {
            Some(pid) => *by_pid.get(&pid).ok_or_else(|| err(&format!("data of pid {pid} before its start marker")))?,
            None => sessions.len().checked_sub(1).ok_or_else(|| err("data before the first start marker"))?,
        };
        let session = &mut sessions[at];
        if v.get("eof") == Some(&Value::Bool(true)) {
            session.eof = true;
        } else if let Some(code) = v.get("exit").and_then(Value::as_i64) {
            session.exit = i32::try_from(code).ok();
        } else if let Some(text) = v.get("text").and_then(Value::as_str) {
            session.bytes.extend_from_slice(text.as_bytes());
        } else if let Some(hex) = v.get("hex").and_then(Value::as_str) {
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|j| u8::from_str_radix(hex.get(j..j + 2).unwrap_or("zz"), 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| err("bad hex"))?;
            session.bytes.extend(bytes);
        } else {
            return Err(err("expected start, text, hex, eof or exit"));
        }
    }
    Ok(sessions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_processes_are_told_apart_by_pid() {
        let text = concat!(
            "{\"at_ms\":0,\"start\":true,\"pid\":7}\n",
            "{\"at_ms\":0,\"start\":true,\"pid\":8}\n",
            "{\"at_ms\":1,\"text\":\"b\",\"pid\":8}\n",
            "{\"at_ms\":1,\"text\":\"a\",\"pid\":7}\n",
            "{\"at_ms\":2,\"eof\":true,\"pid\":7}\n",
            "{\"at_ms\":3,\"exit\":0,\"pid\":8}\n",
        );
        let sessions = parse_record(text).unwrap();
        assert_eq!(sessions[0], Session { bytes: b"a".to_vec(), eof: true, exit: None });
        assert_eq!(sessions[1], Session { bytes: b"b".to_vec(), eof: false, exit: Some(0) });
        assert!(parse_record("{\"at_ms\":1,\"text\":\"a\",\"pid\":9}\n").unwrap_err().problem.contains("pid 9"));
    }

    #[test]
    fn sessions_split_at_start_markers() {
        let text = "{\"at_ms\":0,\"start\":true}\n{\"at_ms\":1,\"text\":\"ab\"}\n{\"at_ms\":2,\"hex\":\"ff0a\"}\n{\"at_ms\":3,\"eof\":true}\n{\"at_ms\":4,\"exit\":0}\n{\"at_ms\":0,\"start\":true}\n{\"at_ms\":9,\"exit\":1}\n";
        let s = parse_record(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0], Session { bytes: b"ab\xff\n".to_vec(), eof: true, exit: Some(0) });
        assert!(!s[0].died());
        assert_eq!(s[1], Session { exit: Some(1), ..Session::default() });
        assert!(s[1].died());
        assert_eq!(parse_record("{\"text\":\"x\"}").unwrap_err().line, 1);
    }
}
