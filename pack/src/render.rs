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
    /// `rendered`, `fallback` (PromptKit's generic prompt), `raw` (PromptKit's unsubstituted template),
    /// `refused`, or `error` (a workflow state's prompt PromptKit cannot load: the turn fails).
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
    /// PromptKit only: the offered pack tools as its OpenAI provider sends them ([`crate::wire`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wire_tools: Vec<Value>,
    /// With outcome `error`: the implementation's own error, word for word (the turn fails with it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the pack has no prompt `{wanted}`; its prompts are {known}")]
    NoSuchPrompt { wanted: String, known: String },
    #[error("the pack has no workflow state `{wanted}`; {known}")]
    NoSuchState { wanted: String, known: String },
    #[error(
        "prompt `{prompt}` renders to more than {} MiB under {profile} (a large variable repeated in its template, or re-expanded); proctor refuses to build it, and no model would take it",
        template::MAX_RENDERED_BYTES >> 20
    )]
    TooLarge { prompt: String, profile: String },
}

/// The prompt (its key) workflow state `state` runs, or which states there are.
pub fn state_prompt(pack: &Value, state: &str) -> Result<String, RenderError> {
    let states = pack.get("workflow").and_then(|w| w.get("states")).and_then(Value::as_object);
    let task = states.and_then(|s| s.get(state)).and_then(|s| s.get("prompt_task")).and_then(Value::as_str);
    task.map(String::from).ok_or_else(|| {
        let known: Vec<&str> = states.iter().flat_map(|s| s.keys().map(String::as_str)).collect();
        let known = match (states, known.is_empty()) {
            (None, _) => "it has no workflow".to_string(),
            (Some(_), true) => "its workflow has no states".to_string(),
            (Some(_), false) if states.is_some_and(|s| s.contains_key(state)) => format!("state `{state}` has no prompt_task"),
            (Some(_), false) => format!("its states are {}", known.join(", ")),
        };
        RenderError::NoSuchState { wanted: state.to_string(), known }
    })
}

/// Every artifact a workflow state declares, sorted, once.
pub fn artifact_names(pack: &Value) -> Vec<String> {
    artifacts_in(pack.get("workflow"))
}

/// Every artifact a state of `workflow` declares, sorted, once.
pub(crate) fn artifacts_in(workflow: Option<&Value>) -> Vec<String> {
    let states = workflow.and_then(|w| w.get("states")).and_then(Value::as_object);
    let declared = states.into_iter().flatten().filter_map(|(_, s)| s.get("artifacts").and_then(Value::as_object));
    let names: std::collections::BTreeSet<String> = declared.flat_map(|a| a.keys().cloned()).collect();
    names.into_iter().collect()
}

/// Whether a value of this name is one PromptKit's state resolver passes: an artifact or the brief.
pub fn passed_to_states(name: &str) -> bool {
    name == "workflow_context" || name.starts_with("artifacts.")
}

/// Workflow state `state`'s prompt as `profile` renders it for each round in that state. PromptKit's
/// state resolver renders it again before every round with the artifacts (`artifacts.NAME`) and
/// `workflow_context` only, never the host's variables (sdk/workflow_state_resolver.go:197-235), and
/// where a conversation's first render would fall back, a required variable missing there fails the
/// turn with the registry's error (registry.go:453-456). The documents render it with every value
/// given. Read in PromptKit's code; runtime/prompt's part is run by interop's `promptkit-state`.
pub fn state_round(
    pack: &Value,
    state: &str,
    profile: PackProfile,
    given: &BTreeMap<String, Value>,
) -> Result<RenderedPrompt, RenderError> {
    let task = state_prompt(pack, state)?;
    let resolver = profile == PackProfile::PromptKit;
    let (kept, dropped): (BTreeMap<String, Value>, BTreeMap<String, Value>) =
        given.clone().into_iter().partition(|(name, _)| !resolver || passed_to_states(name));
    let mut rendered = render(pack, &task, profile, &kept)?;
    if !dropped.is_empty() {
        let names: Vec<&str> = dropped.keys().map(String::as_str).collect();
        rendered.notes.push(format!(
            "PromptKit does not pass the host's {} to a workflow state's prompt: only the artifacts and workflow_context",
            names.join(", ")
        ));
    }
    if resolver && rendered.outcome == "fallback" {
        let missing: Vec<String> = declared(prompt(pack, &task)?)
            .into_iter()
            .filter(|d| d.required && kept.get(&d.name).and_then(Value::as_str).is_none_or(str::is_empty))
            .map(|d| d.name)
            .collect();
        let error = format!("load prompt {task:?} for state: missing required variables: [{}]", missing.join(" "));
        for dropped in &mut rendered.dropped_tools {
            *dropped = dropped.replace("dropped with the prompt (PromptKit's fallback)", "the turn fails first");
        }
        rendered.outcome = "error";
        rendered.system_prompt = String::new();
        rendered.explanation = Some(format!(
            "PROMPTKIT FAILS THE TURN: in a workflow conversation its state resolver cannot load the prompt without {} (it passes no host variables), so every turn in state `{state}` fails: {error}",
            missing.join(", ")
        ));
        rendered.error = Some(error);
    }
    Ok(rendered)
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
    let rendered = template::render(profile, template, &declared, given, &fragments)
        .map_err(|template::TooLarge| RenderError::TooLarge { prompt: key.to_string(), profile: profile.name().to_string() })?;

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
    // What goes on the wire is PromptKit's business only; the documents do not say. Agent members
    // (`a2a__`) are left out: their descriptor comes from an agent card proctor does not build.
    let wire_tools = if profile.is_promptkit() {
        crate::wire::pack_tools(pack, tools.iter().filter(|t| t.get("agent").is_none()).filter_map(|t| t["name"].as_str()))
    } else {
        Vec::new()
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
        wire_tools,
        error: None,
    })
}
