//! Reading a mock plugin's record (`--record FILE`): JSON lines of what it
//! received, a `start` marker per process.

use serde_json::Value;

/// What one plugin process received.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    /// Every byte, in order.
    pub bytes: Vec<u8>,
    /// Whether stdin reached EOF (the runtime closed it).
    pub eof: bool,
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
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let err = |problem: &str| ParseError { line: i + 1, problem: problem.to_string() };
        let v: Value = serde_json::from_str(line).map_err(|e| err(&format!("not JSON: {e}")))?;
        if v.get("start").is_some() {
            sessions.push(Session::default());
            continue;
        }
        let session = sessions.last_mut().ok_or_else(|| err("data before the first start marker"))?;
        if v.get("eof") == Some(&Value::Bool(true)) {
            session.eof = true;
        } else if let Some(text) = v.get("text").and_then(Value::as_str) {
            session.bytes.extend_from_slice(text.as_bytes());
        } else if let Some(hex) = v.get("hex").and_then(Value::as_str) {
            let bytes = (0..hex.len()).step_by(2).map(|j| u8::from_str_radix(hex.get(j..j + 2).unwrap_or("zz"), 16)).collect::<Result<Vec<u8>, _>>().map_err(|_| err("bad hex"))?;
            session.bytes.extend(bytes);
        } else {
            return Err(err("expected start, text, hex or eof"));
        }
    }
    Ok(sessions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_split_at_start_markers() {
        let text = "{\"at_ms\":0,\"start\":true}\n{\"at_ms\":1,\"text\":\"ab\"}\n{\"at_ms\":2,\"hex\":\"ff0a\"}\n{\"at_ms\":3,\"eof\":true}\n{\"at_ms\":0,\"start\":true}\n";
        let s = parse_record(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0], Session { bytes: b"ab\xff\n".to_vec(), eof: true });
        assert_eq!(s[1], Session::default());
        assert_eq!(parse_record("{\"text\":\"x\"}").unwrap_err().line, 1);
    }
}
