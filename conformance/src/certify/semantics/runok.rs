//! runok extension answers: `result.status` and its optional strings.

use serde_json::Value;

use super::{Decision, Finding, Judged, describe};

pub(super) fn judge(result: &Value) -> Judged {
    let status = result.get("status");
    let known = status.and_then(Value::as_str).filter(|s| matches!(*s, "allow" | "deny" | "ask"));
    let mut findings = vec![Finding::check("RUNOK-STATUS", known.is_some(), "$.result.status", "\"allow\", \"deny\" or \"ask\"", || {
        format!("{} (runok falls back to ask)", describe(status))
    })];
    let bad: Vec<String> = ["message", "fix_suggestion"]
        .into_iter()
        .filter(|k| result.get(*k).is_some_and(|v| !v.is_string() && !v.is_null()))
        .map(|k| format!("{k} is {}", describe(result.get(k))))
        .collect();
    findings.push(Finding::check(
        "RUNOK-OPTIONAL-STRINGS",
        bad.is_empty(),
        "$.result",
        "message and fix_suggestion as strings or absent",
        || bad.join(", "),
    ));
    // runok: an unknown status is ask; a mistyped message fails the parse, which is ask too.
    let decision = if bad.is_empty() { known.unwrap_or("ask") } else { "ask" };
    Judged { decision: Some(Decision::Status(decision.to_string())), findings }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn statuses() {
        let j = judge(&json!({"status": "deny", "message": "no"}));
        assert_eq!(j.decision, Some(Decision::Status("deny".into())));
        assert!(j.findings.iter().all(|f| f.result.is_ok()));
        let upper = judge(&json!({"status": "ALLOW"}));
        assert_eq!(upper.decision, Some(Decision::Status("ask".into())));
        assert!(upper.findings[0].result.is_err());
        assert!(judge(&json!({"status": "allow", "message": 42})).findings[1].result.is_err());
    }
}
