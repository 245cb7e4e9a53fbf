//! PromptKit exec answers: tools, evals, filter and observe hooks.

use serde_json::Value;

use super::{Asked, Decision, Finding, Judged, describe};
use crate::check::tolerance;
use crate::protocol::{Profile, Role};

pub(super) fn judge(asked: Asked<'_>, answer: &Value) -> Judged {
    match asked.role {
        Role::Tool => tool(answer, asked.profile, asked.meant),
        Role::Eval => eval(answer),
        Role::ProviderHook | Role::ToolHook => filter(answer),
        Role::SessionHook => observe(answer),
        Role::Selector => selector(asked.request, answer),
        _ => Judged::default(),
    }
}

/// A selector's answer: `selected`, a list of candidate ids, at most `k` of
/// them. PromptKit unmarshals it into `[]string`; anything else is an error
/// and the caller falls back to including every candidate.
fn selector(request: &Value, answer: &Value) -> Judged {
    let selected = answer.get("selected");
    let ids: Option<Vec<String>> =
        selected.and_then(Value::as_array).and_then(|a| a.iter().map(|v| v.as_str().map(String::from)).collect());
    let mut findings =
        vec![Finding::check("SELECTOR-RESPONSE-SHAPE", ids.is_some(), "$.selected", "a list of candidate id strings", || {
            format!("{} (PromptKit fails the selection and includes every candidate)", describe(selected))
        })];
    let Some(ids) = ids else { return Judged { decision: None, findings } };
    // The request's candidate ids and k, in whichever key style it was sent.
    let key = |v: &Value, lower: &str, go: &str| v.get(lower).or_else(|| v.get(go)).cloned();
    let candidates: Vec<String> = request
        .get("candidates")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| key(c, "id", "ID").and_then(|v| v.as_str().map(String::from)))
        .collect();
    let unknown: Vec<&String> = ids.iter().filter(|id| !candidates.contains(id)).collect();
    let mut seen = Vec::new();
    let repeated: Vec<&String> = ids
        .iter()
        .filter(|id| {
            if seen.contains(id) {
                true
            } else {
                seen.push(*id);
                false
            }
        })
        .collect();
    findings.push(Finding::check(
        "SELECTOR-KNOWN-IDS",
        unknown.is_empty() && repeated.is_empty(),
        "$.selected",
        &format!(
            "ids drawn from the candidates ({}), each once",
            if candidates.is_empty() { "none".to_string() } else { candidates.join(", ") }
        ),
        || match (unknown.is_empty(), repeated.is_empty()) {
            (false, _) => format!("unknown {unknown:?}"),
            _ => format!("repeated {repeated:?}"),
        },
    ));
    if let Some(k) = request.get("query").and_then(|q| key(q, "k", "K")).and_then(|k| k.as_u64()).filter(|k| *k > 0) {
        findings.push(Finding::check("SELECTOR-AT-MOST-K", ids.len() as u64 <= k, "$.selected", &format!("at most k = {k} ids"), || {
            format!("{} ids", ids.len())
        }));
    }
    Judged { decision: Some(Decision::Selected(ids)), findings }
}

fn tool(answer: &Value, profile: Profile, meant: Option<&str>) -> Judged {
    let keys: Vec<&str> = ["result", "error", "pending"].into_iter().filter(|k| answer.get(*k).is_some()).collect();
    let mut findings = Vec::new();
    let documented = match keys.as_slice() {
        ["result"] => Some(Decision::Result),
        ["error"] => Some(Decision::Error),
        ["pending"] => Some(Decision::Pending),
        _ => None,
    };
    let shape_ok = documented.is_some() && answer.get("error").is_none_or(Value::is_string);
    // What the runtime makes of it: PromptKit at 86d9f36 never pauses on
    // `pending`, and a document with none of the keys is a result too, whole
    // (both measured in interop/promptkit: the tool call completes).
    // `"error": ""` or `null` is no error to PromptKit, which reads the error first.
    let empty_error = answer.get("error").is_some_and(|e| e.is_null() || e.as_str() == Some(""));
    let error_text = answer.get("error").and_then(Value::as_str).is_some_and(|e| !e.is_empty());
    // Beside a result or an error, an unread `pending` changes nothing.
    let acts_on_pending = profile.promptkit_acts_on_pending();
    let read: Vec<&str> = keys.iter().copied().filter(|k| acts_on_pending || *k != "pending").collect();
    let decision = match (documented, read.as_slice()) {
        (Some(Decision::Pending), _) if !acts_on_pending => Some(Decision::Result),
        (None, ["result"]) => Some(Decision::Result),
        (None, ["result", "error"]) if empty_error && profile != Profile::Documented => Some(Decision::Result),
        (None, ["result", "error"]) if error_text && profile != Profile::Documented => Some(Decision::Error),
        (None, ["error"]) => Some(Decision::Error),
        (None, []) if profile.promptkit_whole_document_result() && keys.is_empty() => Some(Decision::Result),
        // An empty or null error alone is no error: the document is the result, whole.
        (Some(Decision::Error), _) if empty_error && profile.promptkit_whole_document_result() => Some(Decision::Result),
        (other, _) => other,
    };
    findings.push(Finding::check("TOOL-RESPONSE-SHAPE", shape_ok, "$", "exactly one of result, error (a string), pending", || {
        if keys.is_empty() {
            format!("none of them: {}", describe(Some(answer)))
        } else if keys == ["result", "error"] && empty_error {
            "result and an empty error together".to_string()
        } else if keys == ["error"] && answer.get("error").is_some_and(Value::is_null) {
            tolerance::ONLY_A_NULL_ERROR.to_string()
        } else if keys == ["result", "error"] && error_text && meant == Some("error") {
            tolerance::ERROR_BESIDE_A_RESULT_MEANT.to_string()
        } else if keys.len() > 1 {
            format!("{} together", keys.join(" and "))
        } else {
            format!("error as {}", describe(answer.get("error")))
        }
    }));
    if let Some(pending) = answer.get("pending") {
        let reason = pending.get("reason");
        let message = pending.get("message");
        let ok = reason.is_some_and(Value::is_string) && message.is_some_and(Value::is_string);
        findings.push(Finding::check("TOOL-PENDING-SHAPE", ok, "$.pending", "string reason and string message", || {
            format!("reason {}, message {}", describe(reason), describe(message))
        }));
    }
    Judged { decision, findings }
}

fn eval(answer: &Value) -> Judged {
    let score = answer.get("score");
    let value = score.and_then(Value::as_f64).filter(|_| score.is_some_and(Value::is_number));
    let ok = value.is_some_and(|s| (0.0..=1.0).contains(&s));
    let finding = Finding::check("EVAL-SCORE", ok, "$.score", "a number between 0 and 1", || describe(score));
    // PromptKit reads a missing or mistyped score as 0.
    Judged { decision: Some(Decision::Score(value.unwrap_or(0.0))), findings: vec![finding] }
}

fn filter(answer: &Value) -> Judged {
    let allow = answer.get("allow");
    let mut findings = vec![Finding::check("HOOK-ALLOW-BOOLEAN", allow.is_some_and(Value::is_boolean), "$.allow", "true or false", || {
        format!("{} (PromptKit denies)", describe(allow))
    })];
    // PromptKit: anything but allow: true is a denial (runtime/hooks/exec_hooks.go execFilter).
    let decision = if allow == Some(&Value::Bool(true)) {
        Decision::Allow
    } else if answer.get("enforced") == Some(&Value::Bool(true)) {
        Decision::Enforced
    } else {
        Decision::Deny
    };
    if decision != Decision::Allow && allow.is_some_and(Value::is_boolean) {
        let reason = answer.get("reason");
        let ok = reason.and_then(Value::as_str).is_some_and(|r| !r.trim().is_empty());
        findings.push(Finding::check("HOOK-DENY-REASON", ok, "$.reason", "a non-empty string", || describe(reason)));
    }
    Judged { decision: Some(decision), findings }
}

fn observe(answer: &Value) -> Judged {
    let ack = answer.get("ack");
    let ok = ack == Some(&Value::Bool(true));
    Judged {
        decision: ok.then_some(Decision::Ack),
        findings: vec![Finding::check("HOOK-OBSERVE-ACK", ok, "$.ack", "true", || describe(ack))],
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::check::Failure;

    fn ok(j: &Judged, id: &str) -> bool {
        j.findings.iter().find(|f| f.check == id).unwrap().result.is_ok()
    }

    #[test]
    fn tool_shapes() {
        let tool = |v: &Value| super::tool(v, Profile::Documented, None);
        assert!(ok(&tool(&json!({"result": {"t": 1}})), "TOOL-RESPONSE-SHAPE"));
        assert!(!ok(&tool(&json!({})), "TOOL-RESPONSE-SHAPE"));
        assert!(!ok(&tool(&json!({"result": 1, "error": "x"})), "TOOL-RESPONSE-SHAPE"));
        assert!(!ok(&tool(&json!({"error": {"code": 1}})), "TOOL-RESPONSE-SHAPE"));
        // What PromptKit makes of it (measured in interop/promptkit): no pause, and a bare document is a result.
        let pk = |v: &Value| super::tool(v, Profile::Promptkit86d9f36, None).decision;
        assert_eq!(pk(&json!({"pending": {"reason": "r", "message": "m"}})), Some(Decision::Result));
        assert_eq!(pk(&json!({"status": "ok"})), Some(Decision::Result));
        // A null error is none to PromptKit: the document is the result, and the shape
        // failure is worded so that the whole-document tolerance names it.
        assert_eq!(pk(&json!({"error": null})), Some(Decision::Result));
        let null_error = tool(&json!({"error": null}));
        let failure = &null_error.findings[0].result;
        assert!(matches!(failure, Err(Failure::Mismatch { actual, .. }) if actual == tolerance::ONLY_A_NULL_ERROR), "{failure:?}");
        assert_eq!(tool(&json!({"pending": {"reason": "r", "message": "m"}})).decision, Some(Decision::Pending));
        let pending = tool(&json!({"pending": {"message": "m"}}));
        assert_eq!(pending.decision, Some(Decision::Pending));
        assert!(!ok(&pending, "TOOL-PENDING-SHAPE"));
    }

    #[test]
    fn eval_scores() {
        assert!(ok(&eval(&json!({"score": 0.85})), "EVAL-SCORE"));
        assert!(!ok(&eval(&json!({"score": 1.7})), "EVAL-SCORE"));
        assert!(!ok(&eval(&json!({"score": "0.9"})), "EVAL-SCORE"));
        assert_eq!(eval(&json!({})).decision, Some(Decision::Score(0.0)));
    }

    #[test]
    fn filter_hooks_deny_unless_allow_true() {
        assert_eq!(filter(&json!({"allow": true})).decision, Some(Decision::Allow));
        let ack = filter(&json!({"ack": true}));
        assert_eq!(ack.decision, Some(Decision::Deny));
        assert!(!ok(&ack, "HOOK-ALLOW-BOOLEAN"));
        assert!(!ok(&filter(&json!({"allow": false})), "HOOK-DENY-REASON"));
        assert!(ok(&filter(&json!({"allow": false, "reason": "pii"})), "HOOK-DENY-REASON"));
        assert_eq!(filter(&json!({"allow": false, "enforced": true, "reason": "r"})).decision, Some(Decision::Enforced));
    }
}
