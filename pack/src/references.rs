//! What the spec's prose requires and its schema cannot say: names that must resolve (a prompt's tools,
//! agent members; the workflow's are in [`crate::workflow`]), and templates whose placeholders each
//! implementation can fill. Severity follows the profile: PromptKit
//! enforces some references when it opens a pack and only logs others at run time.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::diagnostic::{At, Findings, Severity};
use crate::profile::PackProfile;
use crate::source::child;
use crate::template::{Placeholder, scan};

/// Eval and validator types PromptKit 86d9f367 registers by default (`runtime/evals/handlers`, the
/// `Type()` of every handler, and the aliases of `RegisterDefaultAlias`). A validator of any other type
/// makes PromptKit refuse the pack (`guardrails.CompileValidators`, ErrUnknownGuardrailType); an eval of
/// another type is logged and skipped (`sdk/validate_pack.go`).
pub const PROMPTKIT_EVAL_TYPES: &[&str] = &[
    "a2a_eval",
    "a2a_eval_session",
    "agent_invoked",
    "agent_not_invoked",
    "agent_response_contains",
    "answer_relevancy",
    "audio_duration",
    "audio_emotion",
    "audio_format",
    "bias",
    "composition_branch_taken",
    "composition_output",
    "composition_parallel_complete",
    "composition_step_output",
    "contains",
    "contains_any",
    "content_excludes",
    "contextual_precision",
    "contextual_recall",
    "contextual_relevancy",
    "cosine_similarity",
    "cost_budget",
    "directional",
    "faithfulness",
    "field_presence",
    "guardrail_triggered",
    "hallucination",
    "image_dimensions",
    "image_format",
    "image_moderation",
    "invariant_fields_preserved",
    "json_path",
    "json_schema",
    "json_valid",
    "latency_budget",
    "llm_judge",
    "llm_judge_session",
    "llm_judge_tool_calls",
    "max_length",
    "min_length",
    "no_tool_errors",
    "outcome_equivalent",
    "regex",
    "rest_eval",
    "rest_eval_session",
    "role_violation",
    "sentence_count",
    "skill_activated",
    "skill_activation_order",
    "skill_not_activated",
    "spoke_in_state",
    "state_is",
    "text_sentiment",
    "text_toxicity",
    "tool_anti_pattern",
    "tool_args",
    "tool_args_excluded_session",
    "tool_args_session",
    "tool_call_chain",
    "tool_call_count",
    "tool_call_sequence",
    "tool_calls_with_args",
    "tool_efficiency",
    "tool_exec",
    "tool_no_repeat",
    "tool_result_has_media",
    "tool_result_includes",
    "tool_result_matches",
    "tool_result_media_type",
    "tools_called",
    "tools_called_session",
    "tools_not_called",
    "tools_not_called_session",
    "toxicity",
    "transitioned_to",
    "video_duration",
    "video_resolution",
    "workflow_complete",
    "workflow_tool_access",
    "workflow_transition_order", // aliases:
    "content_includes",
    "content_includes_any",
    "content_matches",
    "content_not_includes",
    "is_valid_json",
    "valid_json",
    "tool_called",
    "tools_not_called_with_args",
    "llm_judge_conversation",
    "banned_words",
    "length",
    "max_sentences",
    "required_fields",
];

/// Prompt fields PromptKit parses and never uses (../shared/research/promptpack.md §3).
const PROMPTKIT_IGNORED: &[&str] = &["tool_policy", "model_overrides", "media"];

pub fn check(pack: &Map<String, Value>, profile: PackProfile, out: &mut Findings) {
    let prompts = object(pack, "prompts");
    let tools = object(pack, "tools");
    let fragments = object(pack, "fragments");
    let members = pack.get("agents").and_then(|a| a.get("members")).and_then(Value::as_object);
    let artifacts: BTreeSet<String> = crate::render::artifacts_in(pack.get("workflow")).into_iter().collect();

    for (key, prompt) in prompts.iter().flat_map(|m| m.iter()) {
        let at = child("/prompts", key);
        let Some(prompt) = prompt.as_object() else { continue };
        if let Some(id) = prompt.get("id").and_then(Value::as_str)
            && id != key
        {
            out.warning(
                &child(&at, "id"),
                "PACK-KEY-MISMATCH",
                format!("prompt `{key}` has id `{id}`; runtimes select a prompt by its key (`{key}`)"),
                format!("make the id `{key}`, or rename the key"),
            );
        }
        prompt_tools(prompt, &at, tools, members, profile, out);
        variables(prompt, &at, out);
        templates(prompt, &at, fragments, &artifacts, profile, out);
        validators(prompt, &at, profile, out);
        evals(prompt.get("evals"), &child(&at, "evals"), profile, out);
        if profile.is_promptkit() {
            for field in PROMPTKIT_IGNORED.iter().filter(|f| prompt.contains_key(**f)) {
                out.push(
                    At::Key,
                    &child(&at, field),
                    Severity::Warning,
                    "PACK-PROMPTKIT-IGNORED",
                    format!("PromptKit reads `{field}` and never uses it: it has no effect there"),
                    format!("enforce what `{field}` says another way, or accept that PromptKit ignores it"),
                );
            }
        }
    }
    for (key, tool) in tools.iter().flat_map(|m| m.iter()) {
        if let Some(name) = tool.get("name").and_then(Value::as_str)
            && name != key
        {
            out.warning(
                &child(&child("/tools", key), "name"),
                "PACK-KEY-MISMATCH",
                format!("tool `{key}` is named `{name}`; prompts refer to tools by their key"),
                format!("make the name `{key}`, or rename the key"),
            );
        }
    }
    evals(pack.get("evals"), "/evals", profile, out);
    if let Some(workflow) = pack.get("workflow").and_then(Value::as_object) {
        crate::workflow::check(workflow, prompts, profile, out);
    }
    if let Some(agents) = pack.get("agents").and_then(Value::as_object) {
        agent_refs(agents, prompts, pack.get("workflow"), profile, out);
    }
}

fn object<'a>(pack: &'a Map<String, Value>, key: &str) -> Option<&'a Map<String, Value>> {
    pack.get(key).and_then(Value::as_object)
}

fn prompt_tools(
    prompt: &Map<String, Value>,
    at: &str,
    tools: Option<&Map<String, Value>>,
    members: Option<&Map<String, Value>>,
    profile: PackProfile,
    out: &mut Findings,
) {
    let Some(names) = prompt.get("tools").and_then(Value::as_array) else { return };
    for (i, name) in names.iter().enumerate() {
        let Some(name) = name.as_str() else { continue };
        let defined = tools.is_some_and(|t| t.contains_key(name)) || members.is_some_and(|m| m.contains_key(name));
        if defined {
            continue;
        }
        let pointer = child(&child(at, "tools"), &i.to_string());
        let known: Vec<&str> = tools.iter().flat_map(|t| t.keys().map(String::as_str)).collect();
        let near = crate::shape::nearest(name, &known).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
        let fix = format!("{near}define `{name}` under the pack's `tools`, or remove it from this list");
        match profile {
            PackProfile::PromptKit => out.warning(
                &pointer,
                "PACK-REF-TOOL",
                format!("tool `{name}` is not defined; PromptKit opens the pack, logs it at run time and offers the model the other tools"),
                fix,
            ),
            _ => out.error(&pointer, "PACK-REF-TOOL", format!("tool `{name}` is not defined in the pack's `tools`"), fix),
        }
    }
}

fn variables(prompt: &Map<String, Value>, at: &str, out: &mut Findings) {
    let Some(list) = prompt.get("variables").and_then(Value::as_array) else { return };
    let mut seen = BTreeSet::new();
    for (i, variable) in list.iter().enumerate() {
        let pointer = child(&child(at, "variables"), &i.to_string());
        let Some(name) = variable.get("name").and_then(Value::as_str) else { continue };
        if !seen.insert(name) {
            out.error(
                &child(&pointer, "name"),
                "PACK-DUPLICATE-NAME",
                format!("variable `{name}` is declared twice in this prompt"),
                "keep one declaration",
            );
        }
        let required = variable.get("required").and_then(Value::as_bool) == Some(true);
        if required && variable.get("default").is_some() {
            out.warning(
                &child(&pointer, "default"),
                "PACK-VARIABLE-DEFAULT",
                format!("required variable `{name}` has a default; the spec says it must not, and PromptKit and promptpack-python apply it anyway, so it is never really required"),
                "drop the default, or make the variable optional",
            );
        }
        if let Some(pattern) = variable.get("validation").and_then(|v| v.get("pattern")).and_then(Value::as_str)
            && let Err(error) = regex::Regex::new(pattern)
        {
            let first = error.to_string().lines().last().unwrap_or_default().trim().to_string();
            let at = child(&child(&pointer, "validation"), "pattern");
            // The spec's patterns are ECMA-262's (JSON Schema), which has
            // lookaround and backreferences; RE2-style engines (Rust's regex,
            // Go's regexp) do not. Such a pattern is valid, only not
            // evaluated here: a warning, not an error.
            if first.contains("look-around") || first.contains("backreferences") {
                out.warning(
                    &at,
                    "PACK-VARIABLE-PATTERN",
                    format!("valid in ECMA-262, the spec's regular expressions, but RE2-style engines (Go's regexp, Rust's regex) refuse it: {first}; proctor does not evaluate it"),
                    "if your runtime is written in Go, write it without lookaround or backreferences",
                );
            } else {
                out.error(&at, "PACK-VARIABLE-PATTERN", format!("not a valid regular expression: {first}"), "fix the pattern");
            }
        }
        if let (Some(kind), Some(default)) = (variable.get("type").and_then(Value::as_str), variable.get("default")) {
            let fits = match kind {
                "string" => default.is_string(),
                "number" | "integer" => default.is_number(),
                "boolean" => default.is_boolean(),
                "object" => default.is_object(),
                "array" => default.is_array(),
                _ => true,
            };
            if !fits {
                out.warning(
                    &child(&pointer, "default"),
                    "PACK-VARIABLE-DEFAULT",
                    format!("variable `{name}` is a {kind}, its default is {}", crate::source::kind(default)),
                    format!("give `{name}` a {kind} default"),
                );
            }
        }
    }
}

fn templates(
    prompt: &Map<String, Value>,
    at: &str,
    fragments: Option<&Map<String, Value>>,
    artifacts: &BTreeSet<String>,
    profile: PackProfile,
    out: &mut Findings,
) {
    let Some(template) = prompt.get("system_template").and_then(Value::as_str) else { return };
    let pointer = child(at, "system_template");
    let declared: BTreeSet<&str> =
        prompt.get("variables").and_then(Value::as_array).iter().flat_map(|l| l.iter()).filter_map(|v| v.get("name")?.as_str()).collect();
    let fragment = |name: &str| fragments.and_then(|f| f.get(name)).and_then(Value::as_str);
    if let Some((_, text)) = crate::template::unclosed(template) {
        out.warning(
            &pointer,
            "TEMPLATE-UNCLOSED",
            format!("`{text}` opens a placeholder that never closes: no implementation substitutes it, and it goes out as written"),
            "close it with `}}`, or remove the braces",
        );
    }
    // Placeholders inside the fragments a template uses count as the template's own.
    let mut texts = vec![template.to_string()];
    for found in scan(template) {
        if let Placeholder::Fragment(name) | Placeholder::PythonFragment(name) = &found.placeholder
            && let Some(text) = fragment(name)
        {
            for inner in scan(text) {
                if let Placeholder::Fragment(_) | Placeholder::PythonFragment(_) = inner.placeholder {
                    out.warning(
                        &pointer,
                        "TEMPLATE-NESTED-FRAGMENT",
                        format!(
                            "fragment `{name}` itself uses {}: the spec substitutes fragments into templates, not into each other, so whether it is resolved depends on the implementation",
                            inner.raw
                        ),
                        "paste the inner fragment's text into the outer one",
                    );
                }
            }
            texts.push(text.to_string());
        }
    }
    let mut said = BTreeSet::new();
    for found in texts.iter().flat_map(|t| scan(t)) {
        if !said.insert(found.raw.clone()) {
            continue;
        }
        let raw = &found.raw;
        let raw_prompt = "every conversation with this prompt gets the raw template, with nothing substituted";
        match (&found.placeholder, profile) {
            (Placeholder::Variable(name), _) if declared.contains(name.as_str()) || name == "workflow_context" => {}
            (Placeholder::Variable(name), PackProfile::Documented) => out.error(
                &pointer,
                "TEMPLATE-UNDECLARED",
                format!("{raw} names no declared variable (the spec: every variable must be declared)"),
                format!("declare `{name}` under this prompt's `variables`"),
            ),
            (Placeholder::Variable(name), _) => out.warning(
                &pointer,
                "TEMPLATE-UNDECLARED",
                format!("{raw} names no declared variable: unless the host passes `{name}`, {}", undeclared_outcome(profile)),
                format!("declare `{name}` under this prompt's `variables`"),
            ),
            (Placeholder::Fragment(name), PackProfile::PromptKit) => out.error(
                &pointer,
                "TEMPLATE-PROMPTKIT-RAW",
                format!("PromptKit never substitutes {raw}: {raw_prompt}"),
                format!("paste fragment `{name}` into the template for PromptKit"),
            ),
            (Placeholder::Fragment(name), PackProfile::PromptPackPython) => out.warning(
                &pointer,
                "TEMPLATE-FRAGMENT-SYNTAX",
                format!("promptpack-python leaves {raw} in the text (it reads fragments as {{{{fragment:{name}}}}})"),
                "accept the literal text under promptpack-python, or paste the fragment in",
            ),
            (Placeholder::Fragment(name), _) | (Placeholder::PythonFragment(name), PackProfile::PromptPackPython) if fragment(name).is_none() => out.error(
                &pointer,
                "TEMPLATE-FRAGMENT-MISSING",
                format!("{raw}: the pack has no fragment `{name}`"),
                format!("add `{name}` under the pack's `fragments`"),
            ),
            (Placeholder::Fragment(_), _) | (Placeholder::PythonFragment(_), PackProfile::PromptPackPython) => {}
            (Placeholder::PythonFragment(name), PackProfile::PromptKit) => out.error(
                &pointer,
                "TEMPLATE-PROMPTKIT-RAW",
                format!("{raw} is promptpack-python's syntax, which PromptKit never substitutes: {raw_prompt}"),
                format!("paste fragment `{name}` into the template"),
            ),
            (Placeholder::PythonFragment(name), _) => out.warning(
                &pointer,
                "TEMPLATE-FRAGMENT-SYNTAX",
                format!("{raw} is promptpack-python's syntax; the spec writes {{{{fragments.{name}}}}}"),
                format!("write {{{{fragments.{name}}}}}"),
            ),
            (Placeholder::Artifact(name), _) if !artifacts.contains(name) => out.warning(
                &pointer,
                "TEMPLATE-ARTIFACT",
                format!("{raw}: no workflow state declares an artifact `{name}`"),
                format!("declare `{name}` under a state's `artifacts`"),
            ),
            (Placeholder::Artifact(_), PackProfile::PromptKit) => out.warning(
                &pointer,
                "TEMPLATE-ARTIFACT",
                format!("PromptKit fills {raw} only once the artifact was set: before that, {raw_prompt}"),
                "set the artifact before the state whose prompt reads it, or accept the raw prompt until then",
            ),
            (Placeholder::Artifact(_), _) => {}
            (Placeholder::Spaced(name), PackProfile::PromptKit) => out.error(
                &pointer,
                "TEMPLATE-PROMPTKIT-RAW",
                format!("PromptKit replaces only {{{{{name}}}}} exactly, so {raw} stays unresolved and {raw_prompt}"),
                format!("write {{{{{name}}}}} with no spaces"),
            ),
            (Placeholder::Spaced(name), _) => out.warning(
                &pointer,
                "TEMPLATE-SPACING",
                format!("{raw} has spaces inside the braces: the spec does not say it is a placeholder, and promptpack-python leaves it in the text"),
                format!("write {{{{{name}}}}}"),
            ),
            (Placeholder::Other(_), PackProfile::PromptKit) => {
                out.error(&pointer, "TEMPLATE-PROMPTKIT-RAW", format!("PromptKit cannot resolve {raw}: {raw_prompt}"), "remove it, or write a plain {{variable}}")
            }
            (Placeholder::Other(_), _) => out.warning(
                &pointer,
                "TEMPLATE-UNKNOWN-SYNTAX",
                format!("{raw} is not a variable or fragment placeholder; no implementation read here fills it in"),
                "remove it, or write a plain {{variable}}",
            ),
        }
    }
}

fn undeclared_outcome(profile: PackProfile) -> &'static str {
    match profile {
        PackProfile::PromptKit => "PromptKit sends the raw template, with nothing substituted",
        _ => "promptpack-python refuses to render",
    }
}

/// Why PromptKit skips a validator at Open, when it does: a length validator with no positive bound
/// fails its handler's `ValidateParams` (runtime/evals/handlers/length.go:188-217; `length` is an
/// alias of `max_length`, register.go), and `convertPackValidatorsToHooks` (sdk/sdk.go:1240) logs a
/// warning and skips it, so nothing guards what it was meant to (TestOpen_UnusableValidatorParamsAreSkipped).
pub fn promptkit_skips(validator: &Value) -> Option<String> {
    let kind = validator.get("type").and_then(Value::as_str)?;
    let keys: [&str; 3] = match kind {
        "length" | "max_length" => ["max", "max_characters", "max_chars"],
        "min_length" => ["min", "min_characters", "min_chars"],
        _ => return None,
    };
    let params = validator.get("params");
    let bounded = keys.iter().any(|k| params.and_then(|p| p.get(*k)).and_then(Value::as_f64).is_some_and(|n| n >= 1.0));
    (!bounded).then(|| format!("`{kind}` needs one of {} to be a positive integer", keys.map(|k| format!("`{k}`")).join(", ")))
}

fn validators(prompt: &Map<String, Value>, at: &str, profile: PackProfile, out: &mut Findings) {
    if !profile.is_promptkit() {
        return;
    }
    let Some(list) = prompt.get("validators").and_then(Value::as_array) else { return };
    for (i, validator) in list.iter().enumerate() {
        let Some(kind) = validator.get("type").and_then(Value::as_str) else { continue };
        if validator.get("enabled").and_then(Value::as_bool) == Some(false) {
            continue;
        }
        if let Some(why) = promptkit_skips(validator) {
            out.warning(
                &child(&child(at, "validators"), &i.to_string()),
                "PACK-PROMPTKIT-VALIDATOR-SKIPPED",
                format!(
                    "{why}: PromptKit logs a warning and skips this validator when it opens the pack, so nothing guards the replies with it"
                ),
                "give it a positive bound (e.g. `params: {max: 500}`)",
            );
            continue;
        }
        if PROMPTKIT_EVAL_TYPES.contains(&kind) {
            continue;
        }
        let near = crate::shape::nearest(kind, PROMPTKIT_EVAL_TYPES).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
        out.error(
            &child(&child(&child(at, "validators"), &i.to_string()), "type"),
            "PACK-PROMPTKIT-VALIDATOR-TYPE",
            format!("PromptKit has no validator type `{kind}` and refuses to open the pack (unknown guardrail type)"),
            format!("{near}use a type PromptKit registers, or bind `{kind}` as an exec eval in the RuntimeConfig's spec.evals"),
        );
    }
}

fn evals(list: Option<&Value>, at: &str, profile: PackProfile, out: &mut Findings) {
    let Some(list) = list.and_then(Value::as_array) else { return };
    let mut seen = BTreeSet::new();
    for (i, eval) in list.iter().enumerate() {
        let pointer = child(at, &i.to_string());
        if let Some(id) = eval.get("id").and_then(Value::as_str)
            && !seen.insert(id)
        {
            let (severity, says) = match profile {
                PackProfile::PromptKit => (Severity::Warning, "PromptKit does not check it; both run"),
                _ => (Severity::Error, "ids name evals for overrides and results"),
            };
            out.push(
                At::Value,
                &child(&pointer, "id"),
                severity,
                "PACK-DUPLICATE-NAME",
                format!("eval id `{id}` is used twice in this list: {says}"),
                "give each eval its own id",
            );
        }
        if profile.is_promptkit()
            && let Some(kind) = eval.get("type").and_then(Value::as_str)
            && !PROMPTKIT_EVAL_TYPES.contains(&kind)
        {
            out.warning(
                &child(&pointer, "type"),
                "PACK-PROMPTKIT-EVAL-TYPE",
                format!("PromptKit has no built-in eval type `{kind}`: unless the RuntimeConfig binds it (spec.evals), PromptKit logs it and skips this eval"),
                format!("bind `{kind}` in the RuntimeConfig's spec.evals, or use a built-in type"),
            );
        }
    }
}

fn agent_refs(
    agents: &Map<String, Value>,
    prompts: Option<&Map<String, Value>>,
    workflow: Option<&Value>,
    profile: PackProfile,
    out: &mut Findings,
) {
    let Some(members) = agents.get("members").and_then(Value::as_object) else { return };
    for key in members.keys() {
        if !prompts.is_some_and(|p| p.contains_key(key)) {
            out.push(
                At::Key,
                &child("/agents/members", key),
                Severity::Error,
                "PACK-REF-PROMPT",
                format!("agent member `{key}` is not a prompt key (each member is the prompt it runs)"),
                format!("add a prompt `{key}`, or rename the member"),
            );
        }
    }
    if let Some(entry) = agents.get("entry").and_then(Value::as_str)
        && !members.contains_key(entry)
    {
        let keys: Vec<&str> = members.keys().map(String::as_str).collect();
        out.error(
            "/agents/entry",
            "PACK-REF-AGENT",
            format!("agents.entry `{entry}` is not a member"),
            format!("the members are {}", keys.join(", ")),
        );
    }
    if !profile.is_promptkit() {
        return;
    }
    let states = workflow.and_then(|w| w.get("states")).and_then(Value::as_object);
    for (key, member) in members {
        let at = child("/agents/members", key);
        if let Some(state) = member.get("state").and_then(Value::as_str)
            && !states.is_some_and(|s| s.contains_key(state))
        {
            out.error(
                &child(&at, "state"),
                "PACK-PROMPTKIT-LOADER",
                format!("PromptKit refuses to open the pack: member `{key}` names state `{state}`, which is not a workflow state"),
                "name a state of the workflow",
            );
        }
        for field in ["input_modes", "output_modes"] {
            for (i, mode) in member.get(field).and_then(Value::as_array).iter().flat_map(|l| l.iter().enumerate()) {
                let Some(mode) = mode.as_str() else { continue };
                let mime = mode.split_once('/').is_some_and(|(t, s)| !t.is_empty() && !s.is_empty() && !s.contains('/'));
                if !mime {
                    out.error(
                        &child(&child(&at, field), &i.to_string()),
                        "PACK-PROMPTKIT-LOADER",
                        format!("PromptKit refuses to open the pack: {field} `{mode}` is not a MIME type"),
                        "write a MIME type such as text/plain",
                    );
                }
            }
        }
    }
}
