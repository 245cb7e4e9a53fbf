//! A long-lived JSON-RPC reply as a Go runtime reads it.
//!
//! PicoClaw decodes every stdout line into `processHookRPCMessage` and
//! PromptKit's server mode each line into `jsonRPCResponse`
//! ([`crate::protocol::reply_types`]); a line Go cannot decode, or whose
//! integer id is not the one sent, is no reply to them (PicoClaw skips it
//! and waits, PromptKit fails the call). Of a decoded reply the error wins,
//! then the raw `result`; PicoClaw then decodes the result into the method's
//! own type. What survives is handed to the same judges as under the
//! documents, in the documented shape.

use serde_json::Value;

use crate::check::Failure;
use crate::gojson::{GoValue, unmarshal};
use crate::protocol::{Family, reply_types};

use super::semantics::go_reading;

/// What the runtime took a reply line for.
pub(super) enum GoReply {
    /// The runtime could not take it as the reply to this call.
    Rejected(Failure),
    /// The reply as the runtime reads it, as a documented envelope;
    /// `result` is the raw `result` text when there was one (PicoClaw
    /// decodes it per method).
    Read { envelope: Value, result: Option<Vec<u8>> },
}

fn rejected(family: Family, what: String) -> GoReply {
    let runtime = if family == Family::PicoclawHook { "PicoClaw skips the line and the call waits" } else { "PromptKit fails the call" };
    GoReply::Rejected(Failure::Mismatch {
        path: "$".into(),
        expected: "a reply line the runtime's json.Unmarshal decodes into its message type".into(),
        actual: format!("{what} ({runtime})"),
    })
}

fn decode(family: Family, raw: &[u8]) -> Result<GoValue, crate::gojson::GoJsonError> {
    let ty = match family {
        Family::PicoclawHook => reply_types::picoclaw_envelope(),
        _ => reply_types::promptkit_server_response(),
    };
    let line = raw.strip_suffix(b"\n").unwrap_or(raw);
    unmarshal(line.strip_suffix(b"\r").unwrap_or(line), &ty)
}

fn id_of(v: &GoValue) -> Option<i128> {
    match v.field("id") {
        Some(GoValue::Uint(n)) => Some(i128::from(*n)),
        Some(GoValue::Int(n)) => Some(i128::from(*n)),
        _ => None,
    }
}

/// The pending call a PicoClaw line is delivered to: its id as Go decodes
/// it, or `None` when the host drops the line (undecodable, or id 0:
/// hook_process.go readLoop). A line for an id nobody waits on is dropped too.
pub(super) fn picoclaw_delivered_to(raw: &[u8]) -> Option<u64> {
    // bufio.Scanner hands over one line at a time: a message spread over
    // lines is never one PicoClaw can decode.
    let line = raw.strip_suffix(b"\n").unwrap_or(raw);
    if line.contains(&b'\n') {
        return None;
    }
    let v = decode(Family::PicoclawHook, raw).ok()?;
    id_of(&v).and_then(|n| u64::try_from(n).ok()).filter(|n| *n != 0)
}

/// The ids of the replies written after the first message on one line
/// (a message without its newline, and the next reply joined to it).
/// PicoClaw skips a line it cannot decode whole, so each of them is lost
/// with it and its call waits out the deadline.
pub(super) fn glued_reply_ids(raw: &[u8]) -> Vec<u64> {
    let mut ids = Vec::new();
    let mut rest = raw.strip_suffix(b"\n").unwrap_or(raw);
    while let Ok(end) = crate::gojson::scan::first_value_end(rest) {
        rest = &rest[end..];
        let Some(start) = rest.iter().position(|b| !b" \t\r".contains(b)) else { break };
        rest = &rest[start..];
        let Ok(next) = crate::gojson::scan::first_value_end(rest) else { break };
        if let Ok(v) = decode(Family::PicoclawHook, &rest[..next])
            && let Some(id) = id_of(&v).and_then(|n| u64::try_from(n).ok()).filter(|n| *n != 0)
        {
            ids.push(id);
        }
    }
    ids
}

/// Reads one reply line the way `family`'s Go runtime does: the envelope
/// it holds, rewritten in the documented shape (the error wins over the
/// result; the id is Go's integer), and the raw result.
pub(super) fn read(family: Family, raw: &[u8]) -> GoReply {
    let v = match decode(family, raw) {
        Ok(v) => v,
        Err(e) => return rejected(family, e.to_string()),
    };
    // The id as Go holds it (0 when absent or null): JSONRPC-ID-ECHO judges
    // it against the request's, as the runtime matches it.
    let id = id_of(&v).map_or(Value::Null, |n| i64::try_from(n).map_or_else(|_| Value::from(n as f64), Value::from));
    let mut envelope = serde_json::Map::new();
    envelope.insert("jsonrpc".into(), v.field("jsonrpc").map_or(Value::Null, GoValue::to_json));
    envelope.insert("id".into(), id);
    let mut result = None;
    match (v.field("error"), v.field("result")) {
        (Some(e), r) if *e != GoValue::Nil => {
            // Both: kept, so JSONRPC-RESULT-XOR-ERROR says so (the error wins, as the runtime reads it).
            if let Some(GoValue::Raw(r)) = r {
                envelope.insert("result".into(), go_reading::raw_value(r));
            }
            envelope.insert("error".into(), e.to_json());
        }
        (_, Some(GoValue::Raw(r))) => {
            envelope.insert("result".into(), go_reading::raw_value(r));
            result = Some(r.clone());
        }
        // Neither (no `result` key at all, or `null` error only): left so,
        // and JSONRPC-RESULT-XOR-ERROR says so; the runtime holds a nil result.
        _ => {}
    }
    GoReply::Read { envelope: Value::Object(envelope), result }
}

/// A line the framing reader cannot hold as a value but the Go runtime can
/// read (a number past f64), as a stand-in envelope whose result is the raw
/// text: the session hands it on as a message instead of calling it
/// garbage. `None` when the framing reader reads it, or Go cannot.
pub(super) fn stand_in(family: Family, line: &[u8]) -> Option<Value> {
    if crate::framing::read_value(line).is_some() {
        return None;
    }
    let v = decode(family, line).ok()?;
    let mut envelope = serde_json::Map::new();
    envelope.insert("jsonrpc".into(), v.field("jsonrpc").map_or(Value::Null, GoValue::to_json));
    if let Some(id) = id_of(&v).and_then(|n| u64::try_from(n).ok()) {
        envelope.insert("id".into(), Value::from(id));
    }
    match (v.field("error"), v.field("result")) {
        (Some(e), _) if *e != GoValue::Nil => envelope.insert("error".into(), e.to_json()),
        (_, Some(GoValue::Raw(r))) => envelope.insert("result".into(), Value::String(String::from_utf8_lossy(r).into_owned())),
        _ => envelope.insert("result".into(), Value::Null),
    };
    Some(Value::Object(envelope))
}

/// A PicoClaw result of `method` as the hook host reads it (no result is
/// the zero value), or why decoding it failed.
pub(super) fn picoclaw_result(method: &str, result: Option<&[u8]>) -> Option<Result<Value, Failure>> {
    let read = go_reading::picoclaw_result(method, result.unwrap_or(b"null"))?;
    Some(read.map_err(|e| Failure::Mismatch {
        path: "$.result".into(),
        expected: format!("a result PicoClaw's json.Unmarshal reads for {method}"),
        actual: format!("{e} (PicoClaw logs a hook error: an interceptor is skipped, an approval denied)"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_joined_to_a_line_are_named_by_their_ids() {
        let line = br#"{"jsonrpc":"2.0","id":null,"result":{}}{"jsonrpc":"2.0","id":7,"result":{}}"#;
        assert_eq!(glued_reply_ids(line), [7]);
        assert_eq!(glued_reply_ids(b"{\"id\":1,\"result\":{}} {\"id\":2} {\"id\":3}\n"), [2, 3]);
        assert!(glued_reply_ids(br#"{"jsonrpc":"2.0","id":3,"result":{}} trailing"#).is_empty());
        assert!(glued_reply_ids(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#).is_empty());
        assert!(picoclaw_delivered_to(line).is_none(), "PicoClaw cannot decode the line whole");
    }
}
