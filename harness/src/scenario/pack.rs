//! A PromptKit scenario that names a `pack:` (and a `runtime_config:`) instead of listing its plugins:
//! the pack and the RuntimeConfig become the plugins, guardrails and system prompt PromptKit would
//! build from them, under the profile the scenario runs in. The reference pipeline then runs the
//! result like any other scenario: one round loop, one transcript.
//!
//! What PromptKit does, and so what happens here (../shared/research/promptpack.md §2–§3): the prompt's
//! template is rendered with the scenario's `variables` (a missing required one makes PromptKit fall
//! back to a generic prompt with no tools, its validators still guarding; an unresolved placeholder sends the raw
//! template); the prompt's tools are offered, and a call's arguments are checked against the tool's
//! `parameters` before it runs; its enabled validators guard the replies; pack evals,
//! overridden by prompt evals of the same id, run when the RuntimeConfig binds their type; the hooks
//! run as configured.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proctor_conformance::protocol::Profile;
use proctor_pack::PackProfile;
use proctor_pack::render::render;
use proctor_pack::runtime_config::{Binding, HookKind, Section};
use serde_json::{Value, json};

use super::model::{Guardrail, GuardrailSpec, Plugin, PluginConfig, Process, PromptkitEval, PromptkitHook, PromptkitTool, Scenario};

/// What the pack gave the run, for the transcript's first entry.
#[derive(Debug, Clone)]
pub struct PackSetup {
    /// The system prompt the model gets (none when the implementation refuses to render).
    pub system_prompt: Option<String>,
    /// `rendered`, `fallback`, `raw` or `refused`.
    pub outcome: &'static str,
    pub explanation: Option<String>,
    /// Tools the prompt offers the model.
    pub tools: Vec<String>,
    /// What proctor did not run, and why (built-in evals, validators it does not simulate).
    pub notes: Vec<String>,
    /// Where this run cannot be what PromptKit's would be: said loudly, as a fallback is.
    pub warnings: Vec<String>,
}

impl PackSetup {
    pub fn record(&self) -> Value {
        let mut record = json!({"outcome": self.outcome, "system_prompt": self.system_prompt, "explanation": self.explanation, "tools": self.tools, "notes": self.notes});
        if !self.warnings.is_empty() {
            record["warnings"] = json!(self.warnings);
        }
        record
    }
}

/// Skills given as a path (a folder of SKILL.md files), which proctor does not read: a note, and a
/// warning when PromptKit would activate them as the conversation opens (`preload`,
/// runtime/prompt/pack.go:132, sdk/capability_skills.go:90), since then every PromptKit
/// conversation starts with instructions this run cannot give.
fn path_skills(pack: &Value, notes: &mut Vec<String>, warnings: &mut Vec<String>) {
    for skill in pack["skills"].as_array().into_iter().flatten() {
        let (path, preload) = match skill {
            Value::String(path) => (path.as_str(), false),
            Value::Object(source) => match source.get("path").and_then(Value::as_str) {
                Some(path) => (path, source.get("preload").and_then(Value::as_bool) == Some(true)),
                None => continue,
            },
            _ => continue,
        };
        if preload {
            warnings.push(format!(
                "skills at `{path}` are preloaded: PromptKit activates them as the conversation opens, but proctor does not read SKILL.md folders, so this run has neither their instructions nor their tools"
            ));
        } else {
            notes.push(format!("skills at `{path}` are a SKILL.md folder proctor does not read: activating one fails here"));
        }
    }
}

/// The pack as one run reads it: what a workflow needs to render each state's prompt as it is entered.
#[derive(Debug)]
pub struct PackRun {
    pub document: Value,
    pub reader: PackProfile,
    pub variables: BTreeMap<String, Value>,
    /// How the host opened the pack.
    pub opening: Opening,
}

/// How the host opens a pack: PromptKit's SDK has one entry point for each, and they differ in what
/// runs. A scenario that names `prompt:` is `sdk.Open(pack, prompt)`: one prompt, no workflow tools
/// (FIDELITY.md: the SDK hand run), and agent members called through the remote A2A executor. Without
/// it, a pack with a workflow is `sdk.OpenWorkflow`, and one with `agents.entry` is
/// `sdk.OpenMultiAgent`, the only entry point whose members answer in-process
/// (sdk/multi_agent_open.go:95-107). The documents have no such split: a pack with a workflow runs it,
/// and members always answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    Prompt,
    Workflow,
    MultiAgent,
}

/// The pack profile a wire profile reads packs with.
pub fn pack_profile(profile: Profile) -> PackProfile {
    if profile.name().starts_with("promptkit@") { PackProfile::PromptKit } else { PackProfile::Documented }
}

/// The scenario with the pack's plugins, guardrails and prompt folded in. An error is the scenario's
/// own mistake (a pack that cannot be read, a prompt it does not have), said with its location.
pub fn expand(scenario: &Scenario, profile: Profile, root: &Path) -> Result<(Scenario, PackSetup), String> {
    let Some(pack_file) = &scenario.pack else { return Err("no `pack:`".into()) };
    let pack_file = &beside_scenario(scenario, pack_file, root);
    // Errors name files as the scenario wrote them, not under the repository root.
    let relative = |e: &dyn std::fmt::Display| e.to_string().replace(&format!("{}/", root.display()), "");
    let document = proctor_pack::load(&root.join(pack_file)).map_err(|e| relative(&e))?;
    // A workflow starts in its entry state, whose prompt_task is the prompt.
    let entry_task =
        document.value["workflow"]["states"][document.value["workflow"]["entry"].as_str().unwrap_or_default()]["prompt_task"].as_str();
    if let Some(prompt) = &scenario.prompt {
        proctor_pack::render::prompt(&document.value, prompt).map_err(|e| e.to_string())?;
    }
    let reader = pack_profile(profile);
    // The agents' entry member (`agents.entry`), when the pack has one.
    let agents_entry = document.value["agents"]["entry"].as_str().filter(|e| document.value["agents"]["members"].get(*e).is_some());
    let opening = match (&scenario.prompt, entry_task, agents_entry) {
        (Some(_), _, _) if reader == PackProfile::PromptKit => Opening::Prompt,
        (_, Some(_), _) => Opening::Workflow,
        (None, None, Some(_)) => Opening::MultiAgent,
        _ => Opening::Prompt,
    };
    let prompt = match (&scenario.prompt, opening) {
        (Some(prompt), Opening::Prompt) => prompt.clone(),
        (Some(prompt), Opening::Workflow) if Some(prompt.as_str()) != entry_task => {
            return Err(format!(
                "`prompt: {prompt}`, but the pack's workflow starts in a state whose prompt_task is `{}`; leave `prompt:` out (under PromptKit, `prompt:` opens that prompt alone, without the workflow)",
                entry_task.unwrap_or_default()
            ));
        }
        (_, Opening::Workflow) => entry_task.unwrap_or_default().to_string(),
        (_, Opening::MultiAgent) => agents_entry.unwrap_or_default().to_string(),
        (None, Opening::Prompt) => {
            return Err("`pack:` is given without `prompt:`: name the pack prompt (its key under `prompts`) the conversation runs (a pack with a workflow, or with `agents.entry`, may leave it out)".into());
        }
    };
    let prompt = &prompt;
    let check = proctor_pack::check(&document, reader);
    let refusals: Vec<String> = check
        .diagnostics
        .iter()
        .filter(|d| proctor_pack::check::refuses_to_open(d, reader))
        .take(5)
        .map(|d| relative(&format!("{}:{}:{}: [{}] {}", check.file, d.line, d.column, d.rule, d.message)))
        .collect();
    if !refusals.is_empty() {
        return Err(format!("the pack is invalid under {reader} (`proctor pack check` says why):\n  {}", refusals.join("\n  ")));
    }
    let given: BTreeMap<String, Value> = scenario.variables.clone().into_iter().collect();
    let rendered = render(&document.value, prompt, reader, &given).map_err(|e| format!("{}: {e}", pack_file.display()))?;
    let prompt_def = &document.value["prompts"][prompt.as_str()];

    let mut expanded = scenario.clone();
    for (name, tool) in document.value["tools"].as_object().into_iter().flatten() {
        if let Some(parameters) = tool.get("parameters") {
            expanded.tool_parameters.insert(name.clone(), parameters.clone());
        }
    }
    let mut notes = rendered.skipped_validators.clone();
    let offered: Vec<String> = rendered.tools.iter().filter_map(|t| t["name"].as_str().map(String::from)).collect();
    if let Some(config_file) = &scenario.runtime_config {
        let config_file = beside_scenario(scenario, config_file, root);
        let config = proctor_pack::runtime_config::load(&root.join(config_file)).map_err(|e| relative(&e))?;
        for binding in &config.bindings {
            let process = Process::Command(resolve(&binding.command, &config.dir, root));
            let plugin = |name: &str, config: PluginConfig| Plugin {
                name: name.to_string(),
                process: process.clone(),
                config,
                fails_to_start: false,
            };
            match binding.section {
                // Every bound tool can run; which are offered is the prompt's (or the state's) business.
                Section::Tool => expanded.plugins.push(plugin(
                    &binding.name,
                    PluginConfig::PromptkitTool(PromptkitTool { runtime: binding.server.then(|| "server".to_string()), timeout_ms: None }),
                )),
                Section::Hook => expanded.plugins.push(plugin(&binding.name, PluginConfig::PromptkitHook(hook(binding)))),
                Section::Eval | Section::Selector => {}
            }
        }
        for eval in evals(&document.value, prompt_def) {
            let (Some(id), Some(kind)) = (eval["id"].as_str(), eval["type"].as_str()) else { continue };
            if eval["enabled"] == false {
                continue;
            }
            match config.bindings.iter().find(|b| b.section == Section::Eval && b.name == kind) {
                Some(binding) => expanded.plugins.push(Plugin {
                    name: id.to_string(),
                    process: Process::Command(resolve(&binding.command, &config.dir, root)),
                    config: PluginConfig::PromptkitEval(PromptkitEval {
                        id: Some(id.to_string()),
                        trigger: eval["trigger"].as_str().unwrap_or("every_turn").to_string(),
                        sample_percentage: eval["sample_percentage"].as_f64(),
                        params: eval.get("params").cloned().unwrap_or(Value::Null),
                        when: eval.get("when").cloned(),
                        threshold: eval.get("threshold").cloned(),
                    }),
                    fails_to_start: false,
                }),
                None => notes.push(format!("eval `{id}` (type `{kind}`) is a PromptKit built-in, not an exec plugin: not run here")),
            }
        }
    }
    for validator in &rendered.validators {
        match guardrail(validator) {
            Some(g) => expanded.guardrails.push(g),
            None => {
                notes.push(format!("validator `{}` is not one proctor simulates: not run here", validator["type"].as_str().unwrap_or("?")))
            }
        }
    }
    expanded.system_prompt = match rendered.outcome {
        "refused" => None,
        _ => Some(rendered.system_prompt.clone()),
    };
    expanded.offered_tools = Some(offered.clone());
    expanded.pack_run =
        Some(std::sync::Arc::new(PackRun { document: document.value.clone(), reader, variables: scenario.variables.clone(), opening }));
    let mut warnings = Vec::new();
    path_skills(&document.value, &mut notes, &mut warnings);
    let setup = PackSetup {
        warnings,
        system_prompt: expanded.system_prompt.clone(),
        outcome: rendered.outcome,
        explanation: rendered.explanation,
        tools: offered,
        notes,
    };
    expanded.refusal = (setup.outcome == "refused").then(|| setup.explanation.clone().unwrap_or_default());
    Ok((expanded, setup))
}

/// A path the scenario wrote (`pack:`, `runtime_config:`), relative to the scenario file's folder,
/// so that a scenario runs the same from `cargo test`, from the repository root and from anywhere
/// else. It is named under the run's root when it is there, as plugin commands are.
fn beside_scenario(scenario: &Scenario, written: &str, root: &Path) -> PathBuf {
    let folder = scenario.source.as_deref().and_then(Path::parent).unwrap_or(Path::new(""));
    let mut path = PathBuf::new();
    // `a/b/../../c` is `c`: lexically, so that a path through a missing folder is still named plainly.
    for part in folder.join(written).components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if matches!(path.components().next_back(), Some(std::path::Component::Normal(_))) => {
                path.pop();
            }
            other => path.push(other),
        }
    }
    path.strip_prefix(root).map(Path::to_path_buf).unwrap_or(path)
}

/// A binding's argv with relative paths made relative to the repository root: PromptKit's example is
/// run from the RuntimeConfig's folder, so `./tools/x.py` means that folder's `tools/x.py`.
fn resolve(argv: &[String], dir: &Path, root: &Path) -> Vec<String> {
    argv.iter()
        .map(|arg| {
            let candidate: PathBuf = root.join(dir).join(arg);
            if arg.contains('/') && !Path::new(arg).is_absolute() && candidate.exists() {
                dir.join(arg).components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect::<PathBuf>().display().to_string()
            } else {
                arg.clone()
            }
        })
        .collect()
}

fn hook(binding: &Binding) -> PromptkitHook {
    let kind = match binding.hook {
        Some(HookKind::Provider) => "provider",
        Some(HookKind::Tool) => "tool",
        Some(HookKind::Session) => "session",
        _ => "eval",
    };
    PromptkitHook { hook: kind.into(), phases: binding.phases.clone(), mode: Some(binding.mode.clone()), timeout_ms: binding.timeout_ms }
}

/// Pack evals, then the prompt's; a prompt eval replaces the pack eval with its id.
fn evals<'a>(pack: &'a Value, prompt: &'a Value) -> Vec<&'a Value> {
    let own: Vec<&Value> = prompt["evals"].as_array().into_iter().flatten().collect();
    let mut all: Vec<&Value> = pack["evals"].as_array().into_iter().flatten().filter(|e| !own.iter().any(|o| o["id"] == e["id"])).collect();
    all.extend(own);
    all
}

/// A pack validator as one of the guardrails the pipeline simulates (PromptKit's aliases included).
fn guardrail(validator: &Value) -> Option<Guardrail> {
    let params = &validator["params"];
    let strings = |key: &str| params[key].as_array().into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect::<Vec<_>>();
    let spec = GuardrailSpec {
        words: strings("words"),
        max: ["max_characters", "max_length", "max", "max_sentences"].iter().find_map(|k| params[*k].as_u64()),
        fields: strings("fields"),
        direction: None,
        message: validator["message"].as_str().or(params["message"].as_str()).map(String::from),
    };
    match validator["type"].as_str()? {
        "banned_words" | "content_excludes" => Some(Guardrail::BannedWords(spec)),
        "length" | "max_length" => Some(Guardrail::Length(spec)),
        "max_sentences" | "sentence_count" => Some(Guardrail::MaxSentences(spec)),
        "required_fields" | "field_presence" => Some(Guardrail::RequiredFields(spec)),
        _ => None,
    }
}
