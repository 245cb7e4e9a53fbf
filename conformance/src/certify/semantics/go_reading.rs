//! What a Go runtime reads of a reply, as the document the judges hold to it.
//!
//! PromptKit and PicoClaw decode every reply with `json.Unmarshal` into their
//! own types ([`crate::protocol::reply_types`]). Under their profiles, a
//! reply is judged by what that decoding leaves the runtime holding, not by
//! the JSON as written: `{"Allow": true}` allows, `{"allow": "true"}` is an
//! error, `{}` is a denial with no reason. This module runs the model of
//! `json.Unmarshal` ([`crate::gojson`]) and rewrites what it decoded into the
//! documented shape the judges already read, keeping only what the runtime
//! acts on. Nothing here knows about checks: the judges and the certify
//! drivers decide what each reading means.

use serde_json::{Map, Value, json};

use crate::gojson::{GoJsonError, GoType, GoValue, unmarshal};
use crate::protocol::picoclaw_hook::{AFTER_LLM, APPROVE_TOOL, BEFORE_LLM, BEFORE_TOOL, HELLO};
use crate::protocol::{Role, reply_types};

/// A raw JSON value (a `json.RawMessage` the runtime kept) as proctor shows
/// it; text that cannot be held as a value (a number out of range) is kept
/// as a string.
pub(in crate::certify) fn raw_value(bytes: &[u8]) -> Value {
    // The runtime decodes the raw bytes later, into its own types, and Go
    // reads invalid UTF-8 in a string as U+FFFD: so does this.
    let text = String::from_utf8_lossy(bytes);
    crate::framing::read_value(text.as_bytes()).unwrap_or_else(|| Value::String(text.into_owned()))
}

fn string(v: Option<&GoValue>) -> String {
    match v {
        Some(GoValue::String(s)) => s.clone(),
        _ => String::new(),
    }
}

fn boolean(v: Option<&GoValue>) -> bool {
    matches!(v, Some(GoValue::Bool(true)))
}

/// A PromptKit one-shot reply of `role` as PromptKit reads it, or Go's
/// error; `None` for the roles whose stdout PromptKit never reads.
pub fn promptkit_oneshot(role: Role, stdout: &[u8]) -> Option<Result<Value, GoJsonError>> {
    let ty = reply_types::promptkit_oneshot(role)?;
    Some(unmarshal(stdout, &ty).map(|v| match role {
        // exec_executor.go:74-88: a non-empty error fails the call; else the
        // raw result; else the whole of stdout is the result. pending is never read.
        Role::Tool => match (string(v.field("error")), v.field("result")) {
            (e, _) if !e.is_empty() => json!({"error": e}),
            (_, Some(GoValue::Raw(raw))) => json!({"result": raw_value(raw)}),
            _ => json!({"result": raw_value(stdout)}),
        },
        // exec_hooks.go:126-159: allow, else enforced, else deny, with the reason.
        Role::ProviderHook | Role::ToolHook => {
            let mut out = Map::new();
            out.insert("allow".into(), Value::Bool(boolean(v.field("allow"))));
            out.insert("reason".into(), Value::String(string(v.field("reason"))));
            out.insert("enforced".into(), Value::Bool(boolean(v.field("enforced"))));
            Value::Object(out)
        }
        // exec_handler.go:100-130: the score as decoded (0 when absent).
        Role::Eval => match v.field("score") {
            Some(GoValue::Float(s)) => json!({"score": s}),
            _ => json!({"score": 0.0}),
        },
        // exec_client.go:98-108: the ids as decoded; nil is no selection.
        Role::Selector => match v.field("selected") {
            Some(GoValue::Slice(s)) => {
                json!({"selected": s.items.iter().map(|i| Value::String(string(Some(i)))).collect::<Vec<_>>()})
            }
            _ => json!({"selected": null}),
        },
        _ => v.to_json(),
    }))
}

/// A PicoClaw `result` of `method` as the hook host reads it, or Go's error:
/// the promoted `action` and `reason`, and each payload the reply carried
/// (a nil pointer is no payload: the host keeps what it sent).
pub fn picoclaw_result(method: &str, result: &[u8]) -> Option<Result<Value, GoJsonError>> {
    let ty = reply_types::picoclaw_result(method)?;
    Some(unmarshal(result, &ty).map(|v| {
        let GoValue::Struct(fields) = &v else { return v.to_json() };
        let mut out = Map::new();
        for f in fields {
            if f.embedded {
                if let GoValue::Struct(inner) = &f.value {
                    for g in inner {
                        out.insert(g.name.to_string(), g.value.to_json());
                    }
                }
            } else if f.value != GoValue::Nil {
                out.insert(f.name.to_string(), f.value.to_json());
            }
        }
        // hooks.go:325-536: `continue` (or no action) with a payload is a
        // modify: the host applies any payload the reply carries.
        let payload = match method {
            BEFORE_LLM => "request",
            AFTER_LLM => "response",
            BEFORE_TOOL => "call",
            _ => "result",
        };
        let continues = matches!(out.get("action"), Some(Value::String(a)) if a.is_empty() || a == "continue");
        if method != APPROVE_TOOL && method != HELLO && continues && out.contains_key(payload) {
            out.insert("action".into(), Value::String("modify".into()));
        }
        Value::Object(out)
    }))
}

/// `doc` with every top-level key Go matches to a field of `ty` only
/// case-insensitively (`Allow` for `allow`, `ſcore` for `score`) renamed to
/// the field's own spelling, as the runtime reads it (a later key wins);
/// `None` when no key needs it. Judging this under the documents tells a
/// failure the spelling caused from one it did not.
fn fold_keys(ty: &GoType, doc: &Value) -> Option<Value> {
    fn names(ty: &GoType, out: &mut Vec<&'static str>) {
        match ty {
            GoType::Ptr(inner) => names(inner, out),
            GoType::Struct(s) => {
                for f in &s.fields {
                    if f.embedded { names(&f.ty, out) } else { out.push(f.name) }
                }
            }
            _ => {}
        }
    }
    let mut fields = Vec::new();
    names(ty, &mut fields);
    let obj = doc.as_object()?;
    let field_of = |k: &str| {
        if fields.contains(&k) {
            return None;
        }
        fields.iter().find(|f| crate::gojson::fold::fold_name(f) == crate::gojson::fold::fold_name(k)).copied()
    };
    if !obj.keys().any(|k| field_of(k).is_some()) {
        return None;
    }
    let mut out = Map::new();
    for (k, v) in obj {
        out.insert(field_of(k).map_or_else(|| k.clone(), str::to_string), v.clone());
    }
    Some(Value::Object(out))
}

/// The document in `raw` with each repeated key's object merged into the
/// earlier one's, as Go decodes a repeated key into the struct it already
/// filled (`{"result":{"for_llm":"a"},"result":{"x":1}}` keeps `for_llm`);
/// `None` when no key repeats, or the text is no document serde reads.
fn merged_repeats(raw: &[u8]) -> Option<Value> {
    use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
    use std::cell::Cell;

    struct Merging<'a>(&'a Cell<bool>);
    impl<'de> DeserializeSeed<'de> for Merging<'_> {
        type Value = Value;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }
    fn merge(into: &mut Value, later: Value) {
        match (into, later) {
            (Value::Object(a), Value::Object(b)) => {
                for (k, v) in b {
                    match a.get_mut(&k) {
                        Some(old) => merge(old, v),
                        None => drop(a.insert(k, v)),
                    }
                }
            }
            (slot, later) => *slot = later,
        }
    }
    impl<'de> Visitor<'de> for Merging<'_> {
        type Value = Value;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.to_string()))
        }
        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let mut out = Vec::new();
            while let Some(v) = seq.next_element_seed(Merging(self.0))? {
                out.push(v);
            }
            Ok(Value::Array(out))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut out = Map::new();
            while let Some(k) = map.next_key::<String>()? {
                let v = map.next_value_seed(Merging(self.0))?;
                match out.get_mut(&k) {
                    Some(old) => {
                        self.0.set(true);
                        merge(old, v);
                    }
                    None => drop(out.insert(k, v)),
                }
            }
            Ok(Value::Object(out))
        }
    }
    let repeated = Cell::new(false);
    let text = String::from_utf8_lossy(raw);
    let mut de = serde_json::Deserializer::from_str(&text);
    let value = Merging(&repeated).deserialize(&mut de).ok()?;
    repeated.get().then_some(value)
}

/// `doc` (read from `raw`) as Go's decoder takes its keys, when that
/// changes anything: each repeated key merged (see [`merged_repeats`]),
/// then each key spelt as the field Go matched it to (see [`fold_keys`]).
fn as_go_keys(ty: &GoType, raw: Option<&[u8]>, doc: &Value) -> Option<Value> {
    let merged = raw.and_then(merged_repeats);
    let base = merged.as_ref().unwrap_or(doc);
    fold_keys(ty, base).or(merged)
}

/// A PromptKit one-shot answer of `role` (stdout `raw`) with its keys as
/// Go took them, when that changes anything (see [`as_go_keys`]).
pub(crate) fn promptkit_folded(role: Role, raw: &[u8], doc: &Value) -> Option<Value> {
    reply_types::promptkit_oneshot(role).and_then(|ty| as_go_keys(&ty, Some(raw), doc))
}

/// A PicoClaw result of `method` (raw text `raw`) with its keys as Go took
/// them, when that changes anything (see [`as_go_keys`]).
pub(crate) fn picoclaw_folded(method: &str, raw: Option<&[u8]>, doc: &Value) -> Option<Value> {
    reply_types::picoclaw_result(method).and_then(|ty| as_go_keys(&ty, raw, doc))
}

/// Where the documents and the Go runtime read one answer differently.
///
/// `tolerated`: the documented findings the runtime's reading passes and a
/// tolerance of `profile` covers (recorded as they are, they become that
/// tolerance's warning, with its words), and the passing ones of rules the
/// runtime's reading never decides. `otherwise`: the first such finding
/// no tolerance names, or the two decisions when they differ (the warning
/// of GO-READS-AS-DOCUMENTED).
pub(crate) struct Difference {
    pub tolerated: Vec<super::Finding>,
    pub otherwise: Option<crate::check::Failure>,
}

pub(crate) fn reads_otherwise(
    documented: super::Judged,
    runtime: &super::Judged,
    profile: crate::protocol::Profile,
    folded: Option<&super::Judged>,
) -> Difference {
    use crate::check::{Failure, tolerance};
    let runtime_name = if profile.name().starts_with("picoclaw") { "PicoClaw" } else { "PromptKit" };
    let passes = |id: &str| runtime.findings.iter().find(|f| f.check == id).is_none_or(|f| f.result.is_ok());
    let mut out = Difference { tolerated: Vec::new(), otherwise: None };
    for f in documented.findings {
        let decided = runtime.findings.iter().any(|r| r.check == f.check);
        let Err(failure) = &f.result else {
            // A rule the runtime's reading never reaches (`pending` in PromptKit)
            // is held as written: it passes, and its tolerance covers its failure.
            if !decided {
                out.tolerated.push(f);
            }
            continue;
        };
        if !passes(f.check) {
            continue;
        }
        // Only Go's way with keys (any case, a repeated one merged) makes the
        // difference when the same answer, its keys as Go took them, passes the rule.
        let go_keys_only = folded.is_some_and(|j| j.findings.iter().filter(|g| g.check == f.check).all(|g| g.result.is_ok()));
        if tolerance::tolerated(profile, f.check, failure).is_some() || !go_keys_only {
            // Covered by a tolerance (its warning), or failing whatever the
            // spelling: the runtime sees what the documents see, so the rule stands.
            out.tolerated.push(f);
        } else if out.otherwise.is_none() {
            out.otherwise = Some(Failure::Mismatch {
                path: "$".into(),
                expected: "an answer the documents and the runtime read alike".into(),
                actual: format!(
                    "{}: {failure}; {runtime_name} reads it anyway (Go's encoding/json: keys in any case, a repeated key merged into the first, unknown keys ignored)",
                    f.check
                ),
            });
        }
    }
    if out.otherwise.is_none() && out.tolerated.is_empty() && documented.decision != runtime.decision {
        let show = |d: &Option<super::Decision>| d.as_ref().map_or("no decision".to_string(), |d| format!("`{d}`"));
        out.otherwise = Some(Failure::Mismatch {
            path: "$".into(),
            expected: format!("the documented reading, {}", show(&documented.decision)),
            actual: format!("{runtime_name} reads {}", show(&runtime.decision)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pk(role: Role, text: &str) -> Result<Value, String> {
        promptkit_oneshot(role, text.as_bytes()).unwrap().map_err(|e| e.to_string())
    }

    #[test]
    fn promptkit_reads_as_go_decodes() {
        assert_eq!(pk(Role::ToolHook, r#"{"Allow":true}"#).unwrap()["allow"], true);
        assert!(pk(Role::ToolHook, r#"{"allow":"true"}"#).unwrap_err().contains("cannot unmarshal string"));
        assert_eq!(pk(Role::ToolHook, "null").unwrap(), json!({"allow": false, "reason": "", "enforced": false}));
        assert_eq!(pk(Role::Tool, r#"{"RESULT":{"t":1}}"#).unwrap(), json!({"result": {"t": 1}}));
        assert_eq!(pk(Role::Tool, r#"{"error":"","x":1}"#).unwrap(), json!({"result": {"error": "", "x": 1}}));
        assert!(pk(Role::Tool, "[1]").is_err());
        assert_eq!(pk(Role::Eval, r#"{"ſcore":0.5}"#).unwrap(), json!({"score": 0.5}));
        assert!(pk(Role::Eval, r#"{"score":1e999}"#).is_err());
        assert_eq!(pk(Role::Selector, r#"{"selected":null}"#).unwrap(), json!({"selected": null}));
        assert!(promptkit_oneshot(Role::SessionHook, b"garbage").is_none());
    }

    #[test]
    fn a_repeated_key_is_merged_as_go_decodes_it_into_a_struct() {
        let raw = br#"{"action":"respond","result":{"for_llm":"a"},"result":{"x":1}}"#;
        let doc: Value = serde_json::from_slice(raw).unwrap();
        assert_eq!(doc["result"], json!({"x": 1}), "serde keeps the last");
        let go = picoclaw_folded("hook.before_tool", Some(raw), &doc).unwrap();
        assert_eq!(go["result"], json!({"for_llm": "a", "x": 1}));
        assert_eq!(merged_repeats(br#"{"a":1,"a":2}"#), Some(json!({"a": 2})), "a scalar: the last wins");
        assert_eq!(merged_repeats(br#"{"a":{"b":1}}"#), None, "nothing repeats");
        assert!(picoclaw_folded("hook.before_tool", Some(br#"{"action":"continue"}"#), &json!({"action": "continue"})).is_none());
    }

    #[test]
    fn picoclaw_promotes_the_decision_and_keeps_payloads() {
        let read = |m: &str, t: &str| picoclaw_result(m, t.as_bytes()).unwrap().map_err(|e| e.to_string());
        assert_eq!(
            read("hook.before_tool", r#"{"ACTION":"deny_tool","Reason":"r"}"#).unwrap(),
            json!({"action": "deny_tool", "reason": "r"})
        );
        assert!(read("hook.before_tool", r#"{"action":5}"#).is_err());
        assert_eq!(read("hook.approve_tool", r#"{"Approved":true}"#).unwrap()["approved"], true);
        let modify = read("hook.before_tool", r#"{"action":"modify","call":{"tool":"bash","arguments":{"a":1}}}"#).unwrap();
        assert_eq!(modify["call"]["tool"], "bash");
        assert!(read("hook.after_tool", r#"{"result":{"duration":"15ms"}}"#).is_err());
    }
}
