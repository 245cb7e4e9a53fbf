//! PromptKit exec (one-shot) requests: tools, evals and the four hook kinds.
//!
//! Requests are written in their documented (snake_case) form and rendered
//! for a profile by [`render`]. Under `promptkit@86d9f36` the hook payloads
//! become Go structs without json tags: PascalCase keys, zero values always
//! present, in declaration order (runtime/hooks/types.go).

use serde_json::{Map, Value, json};

use super::{Profile, Role};

/// A hook phase (or `None` for tools and evals).
pub type Phase = Option<&'static str>;

/// The phases proctor probes for a role, in the order a runtime fires them.
pub fn phases(role: Role) -> &'static [&'static str] {
    match role {
        Role::ProviderHook => &["before_call", "after_call"],
        Role::ToolHook => &["before_execution", "after_execution"],
        Role::SessionHook => &["session_start", "session_update", "session_end"],
        _ => &[],
    }
}

/// The `hook` value of a hook role's payload.
fn hook_kind(role: Role) -> Option<&'static str> {
    match role {
        Role::ProviderHook => Some("provider"),
        Role::ToolHook => Some("tool"),
        Role::SessionHook => Some("session"),
        _ => None,
    }
}

/// The documented request for `role` in `phase`, with the author's (or a
/// probe's) fields laid over realistic defaults. For hooks, `fields` holds the
/// `request`/`response`/`event` objects' members; for tools, `{"args": …}`;
/// for evals, the top-level members.
pub fn documented(role: Role, phase: Option<&str>, fields: &Value) -> Value {
    match role {
        Role::Tool => overlay(json!({"args": {"city": "Paris", "units": "metric"}}), fields),
        Role::Eval => overlay(
            json!({
                "type": "tone_check",
                "params": {"expected_tone": "professional"},
                "content": "I'd be happy to help you with that <order #42> & more!",
                "context": {"messages": [], "turn_index": 1, "tool_calls": [], "variables": {}, "metadata": {}},
            }),
            fields,
        ),
        Role::EvalHook => overlay(
            json!({
                "eval_id": "tone", "type": "tone_check", "score": 0.85, "passed": true,
                "explanation": "polite", "duration_ms": 12, "session_id": "sess_123", "turn_index": 1,
            }),
            fields,
        ),
        Role::ProviderHook => {
            let phase = phase.unwrap_or("before_call");
            let request = json!({
                "provider_id": "main", "model": "claude-sonnet-4-20250514",
                "messages": [{"role": "user", "content": "What is the weather in Paris? <b>now</b>"}],
                "system_prompt": "You are a helpful assistant.", "round": 1,
            });
            let mut msg =
                json!({"hook": "provider", "phase": phase, "request": overlay(request, fields.get("request").unwrap_or(&Value::Null))});
            if phase == "after_call" {
                let response = json!({
                    "provider_id": "main", "model": "claude-sonnet-4-20250514",
                    "message": {"role": "assistant", "content": "It is 18 °C and cloudy in Paris."}, "round": 1, "latency_ms": 450,
                });
                msg["response"] = overlay(response, fields.get("response").unwrap_or(&Value::Null));
            }
            msg
        }
        Role::ToolHook => {
            let phase = phase.unwrap_or("before_execution");
            let request =
                json!({"name": "db_query", "args": {"query": "SELECT name FROM users WHERE id < 10"}, "call_id": "call_0_db_query"});
            let mut msg =
                json!({"hook": "tool", "phase": phase, "request": overlay(request, fields.get("request").unwrap_or(&Value::Null))});
            if phase == "after_execution" {
                let response = json!({"name": "db_query", "call_id": "call_0_db_query", "content": "{\"rows\": []}", "latency_ms": 120});
                msg["response"] = overlay(response, fields.get("response").unwrap_or(&Value::Null));
            }
            msg
        }
        Role::Selector => {
            let candidates = json!([
                {"id": "book_flight", "name": "Book a flight", "description": "Books flights <one-way> & return", "metadata": {"team": "travel"}},
                {"id": "weather", "name": "Weather", "description": "Forecasts for a city", "metadata": {}},
                {"id": "currency", "name": "Currency", "description": "Converts amounts between currencies", "metadata": {}},
            ]);
            let request = json!({
                "query": {"text": "I need a flight to Paris", "kind": "skill", "pack_id": "travel-pack", "agent_id": "planner", "k": 2},
                "candidates": candidates,
            });
            let mut v = request;
            if let Some(q) = fields.get("query") {
                v["query"] = overlay(v["query"].clone(), q);
            }
            if let Some(c) = fields.get("candidates") {
                v["candidates"] = c.clone();
            }
            v
        }
        Role::SessionHook => {
            let phase = phase.unwrap_or("session_start");
            let event = json!({"session_id": "sess_123", "conversation_id": "conv_456", "messages": [], "turn_index": 0});
            json!({"hook": "session", "phase": phase, "event": overlay(event, fields.get("event").unwrap_or(&Value::Null))})
        }
        _ => fields.clone(),
    }
}

/// Renders a documented request as `profile` writes it.
pub fn render(role: Role, documented: &Value, profile: Profile) -> Value {
    if profile.promptkit_pascal_case_hooks() && hook_kind(role).is_some() {
        let mut out = Map::new();
        for (key, value) in documented.as_object().into_iter().flatten() {
            let go = match (key.as_str(), role) {
                ("request", Role::ProviderHook) => go_struct(value, PROVIDER_REQUEST),
                ("response", Role::ProviderHook) => go_struct(value, PROVIDER_RESPONSE),
                ("request", Role::ToolHook) => go_struct(value, TOOL_REQUEST),
                ("response", Role::ToolHook) => go_struct(value, TOOL_RESPONSE),
                ("event", Role::SessionHook) => go_struct(value, SESSION_EVENT),
                _ => value.clone(),
            };
            out.insert(key.clone(), go);
        }
        return Value::Object(out);
    }
    match role {
        Role::Selector if profile.promptkit_selector_go_names() => {
            let mut v = documented.clone();
            if let Some(q) = documented.get("query") {
                v["query"] = go_struct(q, QUERY);
            }
            if let Some(Value::Array(cs)) = documented.get("candidates") {
                v["candidates"] = Value::Array(cs.iter().map(|c| go_struct(c, CANDIDATE)).collect());
            }
            v
        }
        Role::Eval if profile.promptkit_eval_context_omits_empty() => {
            let mut v = documented.clone();
            if let Some(ctx) = v.get_mut("context").and_then(Value::as_object_mut) {
                ctx.retain(|_, x| !is_empty_collection(x));
            }
            if v.get("params").is_some_and(is_empty_collection) {
                v.as_object_mut().map(|o| o.shift_remove("params"));
            }
            v
        }
        Role::EvalHook if !profile.promptkit_eval_hook_has_passed() => {
            let mut v = documented.clone();
            v.as_object_mut().map(|o| o.shift_remove("passed"));
            v
        }
        _ => documented.clone(),
    }
}

fn is_empty_collection(v: &Value) -> bool {
    matches!(v, Value::Array(a) if a.is_empty()) || matches!(v, Value::Object(o) if o.is_empty())
}

/// A Go struct field: documented key, Go name, zero value.
type GoField = (&'static str, &'static str, Zero);

#[derive(Clone, Copy)]
enum Zero {
    Str,
    Int,
    Null,
}

const PROVIDER_REQUEST: &[GoField] = &[
    ("provider_id", "ProviderID", Zero::Str),
    ("model", "Model", Zero::Str),
    ("messages", "Messages", Zero::Null),
    ("system_prompt", "SystemPrompt", Zero::Str),
    ("round", "Round", Zero::Int),
    ("metadata", "Metadata", Zero::Null),
    ("replacement", "Replacement", Zero::Str),
];
const PROVIDER_RESPONSE: &[GoField] = &[
    ("provider_id", "ProviderID", Zero::Str),
    ("model", "Model", Zero::Str),
    ("message", "Message", Zero::Null),
    ("round", "Round", Zero::Int),
    ("latency_ms", "LatencyMs", Zero::Int),
];
const TOOL_REQUEST: &[GoField] = &[("name", "Name", Zero::Str), ("args", "Args", Zero::Null), ("call_id", "CallID", Zero::Str)];
const TOOL_RESPONSE: &[GoField] = &[
    ("name", "Name", Zero::Str),
    ("call_id", "CallID", Zero::Str),
    ("content", "Content", Zero::Str),
    ("error", "Error", Zero::Str),
    ("latency_ms", "LatencyMs", Zero::Int),
];
/// runtime/selection: `Query` and `Candidate` have no json tags.
const QUERY: &[GoField] = &[
    ("text", "Text", Zero::Str),
    ("kind", "Kind", Zero::Str),
    ("pack_id", "PackID", Zero::Str),
    ("agent_id", "AgentID", Zero::Str),
    ("k", "K", Zero::Int),
];
const CANDIDATE: &[GoField] = &[
    ("id", "ID", Zero::Str),
    ("name", "Name", Zero::Str),
    ("description", "Description", Zero::Str),
    ("metadata", "Metadata", Zero::Null),
];
const SESSION_EVENT: &[GoField] = &[
    ("session_id", "SessionID", Zero::Str),
    ("conversation_id", "ConversationID", Zero::Str),
    ("messages", "Messages", Zero::Null),
    ("turn_index", "TurnIndex", Zero::Int),
    ("metadata", "Metadata", Zero::Null),
];

/// Writes `value` as Go marshals a tagless struct: Go names in declaration
/// order, zero values for absent fields, empty slices as `null`; nested
/// `types.Message` values (which do have json tags) gain their always-present
/// `timestamp`. Keys the struct does not know are kept at the end.
fn go_struct(value: &Value, fields: &[GoField]) -> Value {
    let empty = Map::new();
    let obj = value.as_object().unwrap_or(&empty);
    let mut out = Map::new();
    for (doc, go, zero) in fields {
        let v = match obj.get(*doc) {
            Some(Value::Array(a)) if a.is_empty() => Value::Null,
            Some(v) if *doc == "messages" => with_timestamps(v),
            Some(v) if *doc == "message" => with_timestamp(v),
            Some(v) => v.clone(),
            None => match zero {
                Zero::Str => json!(""),
                Zero::Int => json!(0),
                Zero::Null => Value::Null,
            },
        };
        out.insert((*go).to_string(), v);
    }
    for (k, v) in obj {
        if !fields.iter().any(|(doc, _, _)| doc == k) {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

fn with_timestamps(messages: &Value) -> Value {
    match messages {
        Value::Array(items) => Value::Array(items.iter().map(with_timestamp).collect()),
        other => other.clone(),
    }
}

/// `types.Message`'s members in the order its MarshalJSON writes them
/// (runtime/types/message.go:443-473 at v1.5.11): the tagged fields, then
/// `media_summary`, then `content` last, because MarshalJSON re-declares it
/// on an outer struct to control its omission.
const MESSAGE_ORDER: &[&str] = &[
    "role",
    "parts",
    "tool_calls",
    "tool_result",
    "timestamp",
    "latency_ms",
    "cost_info",
    "finish_reason",
    "meta",
    "reasoning",
    "validations",
    "media_summary",
    "content",
];

/// A `types.Message` as PromptKit marshals it: members in [`MESSAGE_ORDER`],
/// `timestamp` always present (omitempty is ignored for a struct), `content`
/// left out when empty or when a `tool_result` carries it. Measured against
/// the real exec hooks (interop/promptkit): proctor wrote `content` second.
fn with_timestamp(message: &Value) -> Value {
    let Some(obj) = message.as_object() else { return message.clone() };
    let mut out = Map::new();
    for key in MESSAGE_ORDER {
        let value = match (*key, obj.get(*key)) {
            ("timestamp", None) => json!("0001-01-01T00:00:00Z"),
            ("content", Some(Value::String(c))) if c.is_empty() || obj.get("tool_result").is_some_and(|r| !r.is_null()) => continue,
            (_, Some(v)) => v.clone(),
            (_, None) => continue,
        };
        out.insert((*key).to_string(), value);
    }
    // Members the type does not have (a probe's) stay, after the known ones.
    for (k, v) in obj {
        if !MESSAGE_ORDER.contains(&k.as_str()) {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// `base` with the members of `fields` (an object) replacing or added.
pub fn overlay(base: Value, fields: &Value) -> Value {
    let mut base = base;
    if let (Some(b), Some(f)) = (base.as_object_mut(), fields.as_object()) {
        for (k, v) in f {
            b.insert(k.clone(), v.clone());
        }
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_hook_is_pascal_case_under_promptkit() {
        let doc = documented(Role::ToolHook, Some("before_execution"), &json!({"request": {"args": {"q": 1}}}));
        assert_eq!(doc["request"]["args"], json!({"q": 1}));
        let wire = render(Role::ToolHook, &doc, Profile::Promptkit86d9f36);
        assert_eq!(serde_json::to_string(&wire["request"]).unwrap(), r#"{"Name":"db_query","Args":{"q":1},"CallID":"call_0_db_query"}"#);
        assert_eq!(render(Role::ToolHook, &doc, Profile::Documented), doc);
    }

    #[test]
    fn messages_go_out_in_promptkits_order_with_content_last() {
        let doc = documented(
            Role::ProviderHook,
            Some("before_call"),
            &json!({"request": {"messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": ""},
                {"role": "tool", "content": "42", "tool_result": {"id": "c1", "name": "calc", "latency_ms": 3}},
            ]}}),
        );
        let wire = render(Role::ProviderHook, &doc, Profile::Promptkit86d9f36);
        let text = serde_json::to_string(&wire["request"]["Messages"]).unwrap();
        assert_eq!(
            text,
            concat!(
                r#"[{"role":"user","timestamp":"0001-01-01T00:00:00Z","content":"hi"},"#,
                r#"{"role":"assistant","timestamp":"0001-01-01T00:00:00Z"},"#,
                r#"{"role":"tool","tool_result":{"id":"c1","name":"calc","latency_ms":3},"timestamp":"0001-01-01T00:00:00Z"}]"#
            )
        );
    }

    #[test]
    fn provider_request_has_go_zero_values_and_timestamps() {
        let doc = documented(Role::ProviderHook, Some("after_call"), &Value::Null);
        let wire = render(Role::ProviderHook, &doc, Profile::Promptkit86d9f36);
        let req = &wire["request"];
        assert_eq!(req["Replacement"], "");
        assert_eq!(req["Metadata"], Value::Null);
        assert_eq!(req["Messages"][0]["timestamp"], "0001-01-01T00:00:00Z");
        assert_eq!(wire["response"]["Message"]["role"], "assistant");
        // PromptKit sets the response's round to the request's (stages_provider.go:1983), never 0.
        assert_eq!(wire["response"]["Round"], 1);
    }

    #[test]
    fn session_event_empty_messages_are_null() {
        let doc = documented(Role::SessionHook, Some("session_end"), &Value::Null);
        let wire = render(Role::SessionHook, &doc, Profile::Promptkit86d9f36);
        assert_eq!(wire["event"]["Messages"], Value::Null);
        assert_eq!(wire["event"]["SessionID"], "sess_123");
        assert_eq!(wire["phase"], "session_end");
    }

    #[test]
    fn eval_context_and_eval_hook_fields_follow_profile() {
        let doc = documented(Role::Eval, None, &json!({"content": "hi"}));
        assert_eq!(doc["context"]["tool_calls"], json!([]));
        let wire = render(Role::Eval, &doc, Profile::Promptkit86d9f36);
        assert!(wire["context"].get("tool_calls").is_none());
        assert_eq!(wire["context"]["turn_index"], 1);
        let hook = documented(Role::EvalHook, None, &Value::Null);
        assert!(render(Role::EvalHook, &hook, Profile::Promptkit86d9f36).get("passed").is_none());
        assert_eq!(render(Role::EvalHook, &hook, Profile::Documented)["passed"], true);
        let keys: Vec<String> = render(Role::EvalHook, &hook, Profile::Promptkit86d9f36).as_object().unwrap().keys().cloned().collect();
        assert_eq!(
            keys,
            ["eval_id", "type", "score", "explanation", "duration_ms", "session_id", "turn_index"],
            "removing a field keeps Go's order"
        );
    }
}
