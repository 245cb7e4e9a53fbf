//! Envelope faults: a sensible answer in a broken JSON-RPC 2.0 response.

use serde_json::{Value, json};

use super::fault::Fault;
use super::reply::{self, Answer};
use super::rpc::SERVER_ERROR;

/// The response to send for `answer` to request `id`, bent by the envelope
/// faults in `faults`; `None` when nothing is to be written.
pub(crate) fn response(faults: &[Fault], id: &Value, answer: &Answer) -> Option<Value> {
    let mut reply = reply::envelope(id, answer)?;
    let Some(obj) = reply.as_object_mut() else {
        return Some(reply);
    };
    let has = |f| faults.contains(&f);
    if has(Fault::BothResultError) {
        if obj.contains_key("result") {
            obj.insert("error".into(), json!({"code": SERVER_ERROR, "message": "mock error"}));
        } else {
            obj.insert("result".into(), json!({}));
        }
    }
    if has(Fault::BadErrorObject) && obj.contains_key("error") {
        obj.insert("error".into(), json!({"code": "oops", "message": 42}));
    }
    if has(Fault::NeitherResultError) {
        obj.shift_remove("result");
        obj.shift_remove("error");
    }
    if has(Fault::WrongId)
        && let Some(id) = obj.get_mut("id")
    {
        *id = bumped(id);
    }
    if has(Fault::StringId)
        && let Some(id) = obj.get_mut("id")
        && id.is_number()
    {
        *id = Value::String(id.to_string());
    }
    if has(Fault::WrongVersion) {
        obj.insert("jsonrpc".into(), json!("1.0"));
    }
    if has(Fault::NoJsonrpc) {
        obj.shift_remove("jsonrpc");
    }
    Some(reply)
}

/// What [`Fault::ReplyToNotification`] sends back for a notification.
pub(crate) fn notification_response(faults: &[Fault]) -> Value {
    let answer = Answer::Result(json!({"ack": true}));
    response(faults, &Value::Null, &answer).unwrap_or(Value::Null)
}

/// The request id plus 1000, keeping its JSON type where it can; a `null`
/// id (a reply to garbage) stays `null` because there is nothing to get wrong.
fn bumped(id: &Value) -> Value {
    match id {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => json!(i.saturating_add(1000)),
            (_, Some(u), _) => json!(u.saturating_add(1000)),
            (_, _, Some(f)) => json!(f + 1000.0),
            _ => json!(1000),
        },
        Value::String(s) => match s.parse::<i64>() {
            Ok(i) => json!(i.saturating_add(1000).to_string()),
            Err(_) => json!(format!("{s}-1000")),
        },
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::rpc::RpcError;

    fn ok() -> Answer {
        Answer::Result(json!({"echo": 1}))
    }

    #[test]
    fn id_faults() {
        let r = response(&[Fault::WrongId], &json!(5), &ok()).unwrap();
        assert_eq!(r["id"], json!(1005));
        let r = response(&[Fault::StringId], &json!(5), &ok()).unwrap();
        assert_eq!(r["id"], json!("5"));
        let r = response(&[Fault::WrongId, Fault::StringId], &json!(5), &ok()).unwrap();
        assert_eq!(r["id"], json!("1005"));
        let r = response(&[Fault::WrongId], &Value::Null, &ok()).unwrap();
        assert_eq!(r["id"], Value::Null);
    }

    #[test]
    fn version_and_members() {
        let r = response(&[Fault::NoJsonrpc], &json!(1), &ok()).unwrap();
        assert!(r.get("jsonrpc").is_none());
        let r = response(&[Fault::WrongVersion], &json!(1), &ok()).unwrap();
        assert_eq!(r["jsonrpc"], json!("1.0"));
        let r = response(&[Fault::BothResultError], &json!(1), &ok()).unwrap();
        assert!(r.get("result").is_some() && r.get("error").is_some());
        let r = response(&[Fault::NeitherResultError], &json!(1), &ok()).unwrap();
        assert_eq!(r, json!({"jsonrpc": "2.0", "id": 1}));
        let err = Answer::Error(RpcError::method_not_found("x"));
        let r = response(&[Fault::BadErrorObject], &json!(1), &err).unwrap();
        assert_eq!(r["error"], json!({"code": "oops", "message": 42}));
        let r = response(&[Fault::BadErrorObject], &json!(1), &ok()).unwrap();
        assert!(r.get("error").is_none(), "results are left alone");
        assert_eq!(response(&[], &json!(1), &Answer::Nothing), None);
    }

    #[test]
    fn notification_reply_has_null_id() {
        let r = notification_response(&[]);
        assert_eq!(r, json!({"jsonrpc": "2.0", "id": null, "result": {"ack": true}}));
    }
}
