//! The chat-completions body PromptKit sends for one round, so that the LLM journal of a run under
//! `promptkit@…` shows what a pack author's provider will really receive. Measured against the real
//! SDK (interop/promptkit-sdk, the `sdk` comparison of interop/fidelity.sh), for a host that declares
//! its provider (`sdk.WithLLMProvider` or a RuntimeConfig's `providers`):
//!
//! - every round streams: `"stream": true, "stream_options": {"include_usage": true}`
//!   (openai_tools.go:604-628);
//! - `max_completion_tokens` and `temperature` are the prompt's `parameters.max_tokens` and
//!   `parameters.temperature`, else the SDK's 4096 and 0.7 (sdk/conversation.go:34-35, 618-626);
//!   `top_p` is the declared provider's default, 0 (openai.go:627-643);
//! - a user message's content is a list of parts (`[{"text", "type": "text"}]`), a tool message
//!   carries the tool's `name`, and every offered tool goes out with its description and its
//!   strict schema (`proctor_pack::wire`);
//! - the body is a Go map, so its keys go out sorted; the messages too when tools are offered (the
//!   tool-calling path builds maps), and as `role`, `content` otherwise.
//!
//! The tools PromptKit defines itself (`workflow__*`, `skill__*`, `a2a__*`) carry PromptKit's own
//! prose, which proctor does not copy: their descriptions here are proctor's words, and the `sdk`
//! comparison holds them to PromptKit's by presence. Their schemas are facts and are PromptKit's.

use std::collections::BTreeMap;

use proctor_mocks::provider::LlmMessage;
use proctor_mocks::provider::openai::{MODEL, arguments};
use serde_json::{Map, Value, json};

/// The SDK's generation defaults (sdk/conversation.go:34-35).
const MAX_TOKENS: u64 = 4096;
const TEMPERATURE: f64 = 0.7;

/// A prompt's generation parameters as the SDK applies them.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Generation {
    max_tokens: u64,
    temperature: f64,
}

impl Generation {
    /// From a pack prompt (`None` without a pack: the SDK's defaults). A zero falls back to the
    /// provider's default, which is 0 for a declared provider.
    pub(super) fn of(prompt: Option<&Value>) -> Generation {
        let params = prompt.and_then(|p| p.get("parameters"));
        let max_tokens = params.and_then(|p| p.get("max_tokens")).and_then(Value::as_u64).unwrap_or(MAX_TOKENS);
        // The SDK holds temperature as a float32 (pipelineCfg.Temperature); Go writes it back in
        // its shortest float32 form, which is the value as written for the usual one or two digits.
        let temperature = params.and_then(|p| p.get("temperature")).and_then(Value::as_f64).unwrap_or(TEMPERATURE);
        Generation { max_tokens, temperature: (temperature as f32).to_string().parse().unwrap_or(temperature) }
    }
}

/// What PromptKit's own tools need from the run to be described on the wire.
#[derive(Debug, Default)]
pub(super) struct Builtins {
    /// The arguments schemas of the workflow tools offered now (`workflow::Workflow::parameters`).
    pub workflow: BTreeMap<String, Value>,
    /// The pack's skills: name and description.
    pub skills: Vec<(String, String)>,
    /// The pack's agent members' tool names and descriptions.
    pub members: BTreeMap<String, String>,
}

/// The request body of one round: `messages` so far, `tools` offered (names, in the order sent),
/// `pack_specs` the pack tools' wire form.
pub(super) fn body(messages: &[LlmMessage], tools: &[String], pack_specs: &[Value], builtins: &Builtins, generation: &Generation) -> Value {
    let with_tools = !tools.is_empty();
    let names = tool_names_by_id(messages);
    let messages: Vec<Value> = messages.iter().map(|m| message(m, &names, with_tools)).collect();
    let mut body = Map::new();
    body.insert("max_completion_tokens".into(), json!(generation.max_tokens));
    body.insert("messages".into(), Value::Array(messages));
    body.insert("model".into(), json!(MODEL));
    body.insert("stream".into(), json!(true));
    body.insert("stream_options".into(), json!({"include_usage": true}));
    body.insert("temperature".into(), json!(generation.temperature));
    if with_tools {
        body.insert("tools".into(), Value::Array(tools.iter().map(|t| tool(t, pack_specs, builtins)).collect()));
    }
    body.insert("top_p".into(), json!(0));
    Value::Object(body)
}

/// The tool each call id names, for the `name` of the tool message that answers it.
fn tool_names_by_id(messages: &[LlmMessage]) -> BTreeMap<&str, &str> {
    messages.iter().flat_map(|m| &m.tool_calls).map(|c| (c.id.as_str(), c.name.as_str())).collect()
}

fn message(m: &LlmMessage, names: &BTreeMap<&str, &str>, sorted: bool) -> Value {
    let content = match m.role.as_str() {
        "user" => json!([{"text": m.content, "type": "text"}]),
        _ => json!(m.content),
    };
    let mut fields: Vec<(&str, Value)> = vec![("role", json!(m.role)), ("content", content)];
    if !m.tool_calls.is_empty() {
        let calls: Vec<Value> = m
            .tool_calls
            .iter()
            .map(|c| json!({"function": {"arguments": arguments(c), "name": c.name}, "id": c.id, "type": "function"}))
            .collect();
        fields.push(("tool_calls", Value::Array(calls)));
    }
    if let Some(id) = &m.tool_call_id {
        if let Some(name) = names.get(id.as_str()) {
            fields.push(("name", json!(name)));
        }
        fields.push(("tool_call_id", json!(id)));
    }
    if sorted {
        fields.sort_by(|a, b| a.0.cmp(b.0));
    }
    Value::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// One offered tool as it goes out: a pack tool from the pack's own definition, one of
/// PromptKit's with its schema, anything else (a scenario's exec tool with no pack) by name.
fn tool(name: &str, pack_specs: &[Value], builtins: &Builtins) -> Value {
    if let Some(spec) = pack_specs.iter().find(|s| s.pointer("/function/name").and_then(Value::as_str) == Some(name)) {
        return spec.clone();
    }
    let described = |description: &str, parameters: Value| {
        proctor_pack::wire::promptkit_tools(&[(name.to_string(), description.to_string(), Some(parameters))]).remove(0)
    };
    if let Some(schema) = builtins.workflow.get(name) {
        let (what, properties) = match name {
            "workflow__transition" => (
                "Moves the workflow to another state by one of this state's events.",
                [("event", "Which of this state's events to take."), ("context", "What the next state needs to know.")],
            ),
            _ => ("Stores a workflow artifact, kept across states.", [("name", "Which artifact to store."), ("value", "Its new value.")]),
        };
        return described(what, with_descriptions(schema, &properties));
    }
    if let Some(description) = builtins.members.get(name) {
        let schema = json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]});
        return described(description, with_descriptions(&schema, &[("query", "What to ask this agent.")]));
    }
    let skill = |property: &str| json!({"type": "string", "description": format!("The skill's {property}.")});
    match name {
        "skill__activate" => {
            let listing: String = builtins.skills.iter().map(|(n, d)| format!("\n- {n}: {d}")).collect();
            let schema = json!({"type": "object", "properties": {"name": skill("name")}, "required": ["name"]});
            described(&format!("Activates a skill: its instructions and tools join the conversation. Skills:{listing}"), schema)
        }
        "skill__deactivate" => {
            let schema = json!({"type": "object", "properties": {"name": skill("name")}, "required": ["name"]});
            described("Deactivates an active skill.", schema)
        }
        "skill__read_resource" => {
            let schema = json!({"type": "object", "properties": {"path": skill("resource path"), "skill_name": skill("name")},
                "required": ["path", "skill_name"]});
            described("Reads a file from a skill's folder.", schema)
        }
        _ => json!({"type": "function", "function": {"name": name}}),
    }
}

/// `schema` with a description on each named property.
fn with_descriptions(schema: &Value, descriptions: &[(&str, &str)]) -> Value {
    let mut schema = schema.clone();
    for (property, description) in descriptions {
        if let Some(p) = schema.pointer_mut(&format!("/properties/{property}")).and_then(Value::as_object_mut) {
            p.insert("description".into(), json!(description));
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;
    use proctor_mocks::provider::ResolvedCall;

    fn conversation() -> Vec<LlmMessage> {
        let call = ResolvedCall { id: "call_0_lookup".into(), name: "lookup".into(), arguments: json!({"id": 1}) };
        let mut assistant = LlmMessage::text("assistant", "");
        assistant.tool_calls.push(call);
        let mut tool = LlmMessage::text("tool", "{}");
        tool.tool_call_id = Some("call_0_lookup".into());
        vec![LlmMessage::text("system", "s"), LlmMessage::text("user", "hi"), assistant, tool]
    }

    #[test]
    fn with_tools_the_messages_are_maps_and_a_tool_message_names_its_tool() {
        let body = body(&conversation(), &["lookup".into()], &[], &Builtins::default(), &Generation::of(None));
        let text = body.to_string();
        assert!(text.starts_with(r#"{"max_completion_tokens":4096,"messages":[{"content":"s","role":"system"},{"content":[{"text":"hi","type":"text"}],"role":"user"}"#), "{text}");
        assert!(text.contains(r#"{"content":"{}","name":"lookup","role":"tool","tool_call_id":"call_0_lookup"}"#), "{text}");
        assert!(text.ends_with(r#""stream":true,"stream_options":{"include_usage":true},"temperature":0.7,"tools":[{"type":"function","function":{"name":"lookup"}}],"top_p":0}"#), "{text}");
    }

    #[test]
    fn without_tools_the_messages_keep_role_then_content_and_the_prompt_sets_the_generation() {
        let prompt = json!({"parameters": {"temperature": 0.2, "max_tokens": 800}});
        let body = body(&conversation()[..2], &[], &[], &Builtins::default(), &Generation::of(Some(&prompt)));
        assert_eq!(
            body.to_string(),
            r#"{"max_completion_tokens":800,"messages":[{"role":"system","content":"s"},{"role":"user","content":[{"text":"hi","type":"text"}]}],"model":"proctor-scripted","stream":true,"stream_options":{"include_usage":true},"temperature":0.2,"top_p":0}"#
        );
    }

    #[test]
    fn promptkits_own_tools_go_out_with_their_schemas() {
        let mut builtins = Builtins::default();
        builtins.members.insert("a2a__billing".into(), "Answers billing questions".into());
        let spec = tool("a2a__billing", &[], &builtins);
        assert_eq!(spec["function"]["description"], "Answers billing questions");
        assert_eq!(spec["function"]["parameters"]["required"], json!(["query"]));
        assert_eq!(spec["function"]["parameters"]["additionalProperties"], json!(false));
        assert_eq!(spec["function"]["strict"], json!(true));
        assert_eq!(tool("unknown", &[], &builtins), json!({"type": "function", "function": {"name": "unknown"}}));
    }
}
