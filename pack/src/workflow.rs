//! What a pack's workflow must say that its schema cannot: an entry, events and `on_max_visits` that
//! name states, `prompt_task`s that name prompts, a terminal state the entry can reach, and (under
//! PromptKit) state prompts PromptKit can render each round and a workflow its loader accepts.

use std::collections::{BTreeMap, VecDeque};

use serde_json::{Map, Value};

use crate::diagnostic::Findings;
use crate::profile::PackProfile;
use crate::source::child;

pub fn check(workflow: &Map<String, Value>, prompts: Option<&Map<String, Value>>, profile: PackProfile, out: &mut Findings) {
    let Some(states) = workflow.get("states").and_then(Value::as_object) else { return };
    let state_names: Vec<&str> = states.keys().map(String::as_str).collect();
    let missing_state = |name: &str| {
        format!(
            "{}the states are {}",
            crate::shape::nearest(name, &state_names).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default(),
            state_names.join(", ")
        )
    };
    if profile.is_promptkit()
        && let Some(version) = workflow.get("version").and_then(Value::as_i64)
        && !(1..=2).contains(&version)
    {
        out.error(
            "/workflow/version",
            "PACK-PROMPTKIT-LOADER",
            format!("PromptKit refuses to open the pack: workflow.version must be 1 or 2, got {version}"),
            "use version 1",
        );
    }
    let entry = workflow.get("entry").and_then(Value::as_str);
    if let Some(entry) = entry
        && !states.contains_key(entry)
    {
        out.error("/workflow/entry", "PACK-REF-STATE", format!("entry `{entry}` is not a state"), missing_state(entry));
    }
    for (name, state) in states {
        let at = child("/workflow/states", name);
        let Some(state) = state.as_object() else { continue };
        let composition = profile.is_promptkit() && state.get("orchestration").and_then(Value::as_str) == Some("composition");
        if profile.is_promptkit()
            && !composition
            && let Some(task) = state.get("prompt_task").and_then(Value::as_str)
            && let Some(prompt) = prompts.and_then(|p| p.get(task)).and_then(Value::as_object)
        {
            host_variables(name, task, prompt, &child(&at, "prompt_task"), out);
        }
        if let Some(task) = state.get("prompt_task").and_then(Value::as_str)
            && !composition
            && !prompts.is_some_and(|p| p.contains_key(task))
        {
            let keys: Vec<&str> = prompts.iter().flat_map(|p| p.keys().map(String::as_str)).collect();
            out.error(
                &child(&at, "prompt_task"),
                "PACK-REF-PROMPT",
                format!("prompt_task `{task}` is not a prompt key"),
                format!("the prompts are {}", keys.join(", ")),
            );
        }
        for (event, target) in state.get("on_event").and_then(Value::as_object).iter().flat_map(|m| m.iter()) {
            if let Some(target) = target.as_str()
                && !states.contains_key(target)
            {
                out.error(
                    &child(&child(&at, "on_event"), event),
                    "PACK-REF-STATE",
                    format!("event `{event}` goes to `{target}`, which is not a state"),
                    missing_state(target),
                );
            }
        }
        if let Some(target) = state.get("on_max_visits").and_then(Value::as_str)
            && !states.contains_key(target)
        {
            let pointer = child(&at, "on_max_visits");
            match profile {
                PackProfile::PromptKit => out.warning(
                    &pointer,
                    "PACK-REF-STATE",
                    format!(
                        "on_max_visits `{target}` is not a state; PromptKit opens the pack and the transition at the cap fails at run time"
                    ),
                    missing_state(target),
                ),
                _ => out.error(&pointer, "PACK-REF-STATE", format!("on_max_visits `{target}` is not a state"), missing_state(target)),
            }
        }
        if state.get("terminal").and_then(Value::as_bool) == Some(true)
            && state.get("on_event").and_then(Value::as_object).is_some_and(|m| !m.is_empty())
        {
            out.warning(
                &child(&at, "on_event"),
                "WORKFLOW-GRAPH",
                format!("state `{name}` is terminal and also has events: they never fire"),
                "drop `terminal` or the events",
            );
        }
        if profile.is_promptkit() && state.get("terminal").and_then(Value::as_bool) != Some(true) && !state.contains_key("on_event") {
            out.error(
                &at,
                "PACK-PROMPTKIT-SCHEMA",
                format!("PromptKit refuses to open the pack: its schema fork says a state that is not `terminal: true` needs `on_event` (state `{name}`)"),
                "add `terminal: true` to the state",
            );
        }
    }
    if let Some(entry) = entry.filter(|e| states.contains_key(*e)) {
        graph(states, entry, out);
    }
}

/// From the entry, some terminal state must be reachable (a state with `terminal: true`, or with no
/// events: both runtimes stop there); states no path reaches are dead text.
fn graph(states: &Map<String, Value>, entry: &str, out: &mut Findings) {
    let edges = |state: &Value| -> Vec<String> {
        let events = state.get("on_event").and_then(Value::as_object).into_iter().flat_map(|m| m.values());
        events.chain(state.get("on_max_visits")).filter_map(Value::as_str).filter(|t| states.contains_key(*t)).map(String::from).collect()
    };
    let terminal = |state: &Value| {
        state.get("terminal").and_then(Value::as_bool) == Some(true)
            || state.get("on_event").and_then(Value::as_object).is_none_or(|m| m.is_empty())
    };
    let mut reached: BTreeMap<String, ()> = BTreeMap::new();
    let mut queue = VecDeque::from([entry.to_string()]);
    while let Some(name) = queue.pop_front() {
        if reached.insert(name.clone(), ()).is_some() {
            continue;
        }
        queue.extend(edges(&states[&name]));
    }
    if !reached.keys().any(|name| terminal(&states[name])) {
        let cycle: Vec<&str> = reached.keys().map(String::as_str).collect();
        // A warning, not an error: RFC 0009 (Adoption Strategy) keeps workflows
        // without a terminal state valid; the author should still hear that this
        // one can only stop on a budget or from outside.
        out.warning(
            "/workflow/entry",
            "WORKFLOW-NO-END",
            format!(
                "the workflow can never complete: from `{entry}` every path stays among {} and none of them is terminal",
                cycle.join(", ")
            ),
            "mark the state where the work is done `terminal: true`, and give some path an event that reaches it",
        );
    }
    for name in states.keys().filter(|n| !reached.contains_key(*n)) {
        out.warning(
            &child("/workflow/states", name),
            "WORKFLOW-GRAPH",
            format!("state `{name}` is never reached from `{entry}`"),
            "add an event that goes there, or remove the state",
        );
    }
}

/// PromptKit renders a workflow state's prompt again before every round, with the artifacts and
/// `workflow_context` only, never the host's variables (sdk/workflow_state_resolver.go:204-215,
/// called from runtime/pipeline/stage/stages_provider.go:565 and 583), and swaps it in when it
/// differs. So a required host variable is always missing there (its registry refuses the prompt and
/// the turn fails, registry.go:453-456), and an optional one the template uses loses the host's
/// value: its default goes out, or the raw template when it has none (renderer.go, `RenderDetailed`).
/// Read in the code at 86d9f36; the SDK release that has it is not served to run.
fn host_variables(state: &str, task: &str, prompt: &Map<String, Value>, at: &str, out: &mut Findings) {
    let template = prompt.get("system_template").and_then(Value::as_str).unwrap_or_default();
    let resolver = "PromptKit renders it again before every round with the artifacts and workflow_context only, never the host's variables";
    for variable in prompt.get("variables").and_then(Value::as_array).into_iter().flatten() {
        let Some(name) = variable.get("name").and_then(Value::as_str) else { continue };
        if name == "workflow_context" || name.starts_with("artifacts.") {
            continue;
        }
        let required = variable.get("required").and_then(Value::as_bool) == Some(true);
        let used = template.contains(&format!("{{{{{name}}}}}"));
        match (required, variable.get("default")) {
            (true, _) => out.error(
                at,
                "WORKFLOW-PROMPTKIT-HOST-VARIABLE",
                format!(
                    "state `{state}` runs prompt `{task}`, which requires `{name}`: {resolver}, so `{name}` is always missing there and every turn in this state fails (\"missing required variables: [{name}]\")"
                ),
                format!("make `{name}` optional with a default, or write its value into the template: PromptKit cannot pass a host value to a workflow state's prompt"),
            ),
            (false, Some(default)) if used => out.warning(
                at,
                "WORKFLOW-PROMPTKIT-HOST-VARIABLE",
                format!("state `{state}` runs prompt `{task}`: {resolver}, so the model always gets `{name}`'s default ({default}), whatever the host passes"),
                "accept the default in PromptKit, or write the value into the template",
            ),
            (false, None) if used => out.warning(
                at,
                "WORKFLOW-PROMPTKIT-HOST-VARIABLE",
                format!("state `{state}` runs prompt `{task}`: {resolver}, so {{{{{name}}}}} is never filled there and the prompt goes out as the raw template"),
                format!("give `{name}` a default, or write its value into the template"),
            ),
            _ => {}
        }
    }
}
