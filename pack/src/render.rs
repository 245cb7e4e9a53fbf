//! What the model really gets from one prompt of a pack under one profile: the system prompt after the
//! implementation's own template rules, the tools it is offered and the validators that guard it.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::profile::PackProfile;
use crate::template::{self, Declared, Outcome};

#[derive(Debug, Clone, Serialize)]
pub struct RenderedPrompt {
    pub profile: String,
    pub prompt: String,
    pub system_prompt: String,
    /// `rendered`, `fallback` (PromptKit's generic prompt), `raw` (PromptKit's unsubstituted template)
    /// or `refused`.
    pub outcome: &'static str,
    /// One sentence on what happened, loud when the prompt is not what the author wrote.
    pub explanation: Option<String>,
    pub tools: Vec<Value>,
    /// Tools the prompt names that the model is not offered, each with why.
    pub dropped_tools: Vec<String>,
    pub validators: Vec<Value>,
    /// Validators the profile's implementation skips when it opens the pack, each with why.
    pub skipped_validators: Vec<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the pack has no prompt `{wanted}`; its prompts are {known}")]
    NoSuchPrompt { wanted: String, known: String },
}

/// Prompt `key` of `pack`, or which prompts there are.
pub fn prompt<'a>(pack: &'a Value, key: &str) -> Result<&'a Value, RenderError> {
    let prompts = pack.get("prompts").and_then(Value::as_object);
    prompts.and_then(|p| p.get(key)).ok_or_else(|| {
        let known: Vec<&str> = prompts.iter().flat_map(|p| p.keys().map(String::as_str)).collect();
        RenderError::NoSuchPrompt { wanted: key.to_string(), known: if known.is_empty() { "none".into() } else { known.join(", ") } }
    })
}

/// The variables `prompt` declares.
pub fn declared(prompt: &Value) -> Vec<Declared> {
    let list = prompt.get("variables").and_then(Value::as_array).into_iter().flatten();
    list.filter_map(|v| {
        Some(Declared {
            name: v.get("name")?.as_str()?.to_string(),
            required: v.get("required").and_then(Value::as_bool).unwrap_or(false),
            default: v.get("default").cloned(),
            kind: v.get("type").and_then(Value::as_str).map(String::from),
            validation: v.get("validation").cloned(),
        })
    })
    .collect()
}

/// Every name a value can be given for in `prompt`: its declared variables and
/// the variables its template names, sorted, once.
pub fn variable_names(prompt: &Value) -> Vec<String> {
    let mut names: Vec<String> = declared(prompt).into_iter().map(|d| d.name).collect();
    let template = prompt.get("system_template").and_then(Value::as_str).unwrap_or_default();
    names.extend(template::scan(template).into_iter().filter_map(|f| match f.placeholder {
        template::Placeholder::Variable(name) | template::Placeholder::Spaced(name) => Some(name),
        _ => None,
    }));
    names.sort_unstable();
    names.dedup();
    names
}

/// Renders prompt `key` of `pack` under `profile` with the variables a host passes (`--var`: strings).
pub fn render(pack: &Value, key: &str, profile: PackProfile, given: &BTreeMap<String, Value>) -> Result<RenderedPrompt, RenderError> {
    let prompt = prompt(pack, key)?;
    let declared = declared(prompt);
    let fragments: BTreeMap<String, String> = pack
        .get("fragments")
        .and_then(Value::as_object)
        .iter()
        .flat_map(|m| m.iter())
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
        .collect();
    let template = prompt.get("system_template").and_then(Value::as_str).unwrap_or_default();
    let rendered = template::render(profile, template, &declared, given, &fragments);

    let tool_defs = pack.get("tools").and_then(Value::as_object);
    let members = pack.get("agents").and_then(|a| a.get("members")).and_then(Value::as_object);
    let mut tools = Vec::new();
    let mut dropped_tools = Vec::new();
    let mut validators: Vec<Value> = prompt.get("validators").and_then(Value::as_array).cloned().unwrap_or_default();
    for name in prompt.get("tools").and_then(Value::as_array).iter().flat_map(|l| l.iter()).filter_map(Value::as_str) {
        if let Some(tool) = tool_defs.and_then(|t| t.get(name)) {
            tools.push(serde_json::json!({
                "name": name,
                "description": tool.get("description").cloned().unwrap_or(Value::Null),
                "parameters": tool.get("parameters").cloned().unwrap_or_else(|| serde_json::json!({"type": "object", "properties": {}})),
            }));
        } else if let Some(member) = members.and_then(|m| m.get(name)) {
            let name = if profile.is_promptkit() { format!("a2a__{name}") } else { name.to_string() };
            tools.push(
                serde_json::json!({"name": name, "description": member.get("description").cloned().unwrap_or(Value::Null), "agent": true}),
            );
        } else {
            dropped_tools.push(format!("{name}: not defined in the pack's tools"));
        }
    }
    // A `tools` that is not a list offers nothing; said, never dropped in silence.
    match prompt.get("tools") {
        None | Some(Value::Array(_)) => {}
        Some(other) => {
            dropped_tools.push(format!("`tools` is {}, not a list of tool names: no tool is offered", crate::source::kind(other)))
        }
    }
    for bad in prompt.get("tools").and_then(Value::as_array).into_iter().flatten().filter(|t| !t.is_string()) {
        dropped_tools.push(format!("{bad}: a tool is named by a string"));
    }
    let mut skipped_validators = Vec::new();
    if profile.is_promptkit() {
        validators.retain(|v| v.get("enabled").and_then(Value::as_bool) != Some(false));
        validators.retain(|v| match crate::references::promptkit_skips(v) {
            Some(why) => {
                skipped_validators.push(format!(
                    "validator {why}: PromptKit skips it when it opens the pack (a warning in its log), so it guards nothing"
                ));
                false
            }
            None => true,
        });
    }

    let (outcome, explanation) = match &rendered.outcome {
        Outcome::Rendered => ("rendered", None),
        Outcome::PromptKitFallback { variable } => {
            for tool in tools.drain(..) {
                dropped_tools
                    .push(format!("{}: dropped with the prompt (PromptKit's fallback)", tool["name"].as_str().unwrap_or_default()));
            }
            // The validators stay: PromptKit's SDK compiles the pack prompt's validators into provider
            // hooks when the conversation opens (sdk/sdk.go convertPackValidatorsToHooks), before and
            // apart from the template load that fell back.
            (
                "fallback",
                Some(format!(
                    "PROMPTKIT FALLBACK: required variable `{variable}` is missing or empty, so PromptKit silently replaced the whole prompt with {:?}, and dropped its tools; its validators still guard the replies (only a warning in its log)",
                    template::PROMPTKIT_FALLBACK
                )),
            )
        }
        Outcome::PromptKitRaw { unresolved } => (
            "raw",
            Some(format!(
                "PROMPTKIT RAW TEMPLATE: {} could not be resolved, so PromptKit sends the template exactly as written, with no variable substituted (only logged)",
                unresolved.join(", ")
            )),
        ),
        Outcome::Refused { message } => ("refused", Some(format!("{} refuses to render: {message}", profile.name()))),
    };
    Ok(RenderedPrompt {
        profile: profile.name().to_string(),
        prompt: key.to_string(),
        system_prompt: rendered.text,
        outcome,
        explanation,
        tools,
        dropped_tools,
        validators,
        skipped_validators,
        notes: rendered.notes,
    })
}
