//! A pack's workflow as PromptKit runs it (runtime/workflow and sdk/workflow*.go at 86d9f367):
//!
//! - the model moves the workflow by calling `workflow__transition {event, context}`, answered at once
//!   with `{"event", "status": "transition_scheduled", "target_state"}`; the transition commits after
//!   that round's tool results, and the next round runs as the destination state (its system prompt
//!   and tools swapped in mid-turn, same history: PromptKit #1747);
//! - committing checks, in order: the budget (`engine.budget`: total visits, tool calls — the
//!   `workflow__*` calls count, #1788 — and the whole seconds since the workflow started,
//!   `machine.go:268-276`; a scripted round's `delay_ms` spends them), a terminal
//!   state, an unknown event, then the target's `max_visits` (entering the entry state was a visit;
//!   at the cap the transition goes to `on_max_visits`, whose own cap is not checked, or fails with
//!   "max visits exceeded"); a failure ends the turn with PromptKit's error;
//! - both tools' arguments are checked against the schemas PromptKit registers before they run
//!   (`transition_tool.go:57-75`: `event` one of the current state's events, `context` a string,
//!   both required; `artifact_tool.go:81-108`: `name` one of the artifacts a state declares, `value`
//!   a string): a bad call is an `args_invalid` tool error, nothing is scheduled or stored, and the
//!   turn goes on;
//! - `workflow__set_artifact {name, value}` stores a string (`append` concatenates with no separator;
//!   the current state's declaration decides the mode first, `machine.go:228-242`), and
//!   `{{artifacts.NAME}}` is filled in the prompts rendered after it was set;
//! - in a terminal state the transition tool is unregistered: a conversation opened there gets
//!   `tool not found` and goes on (`transition_executor.go:174-177`). In the turn that entered the
//!   state PromptKit's cached registry still runs it, and the commit fails the turn, as here;
//! - a transition into an `orchestration: external` or `composition` state ends the turn there;
//! - a new user turn after a state change opens a fresh conversation for the state; its
//!   `{{workflow_context}}` is the `context` the model gave with the transition under `documented`,
//!   and nothing under PromptKit, which spent it on the round after the transition (so a template
//!   naming it goes out raw there).
//!
//! Before the first round and after every round of a workflow conversation, PromptKit renders the
//! current state's prompt again with the artifacts and `workflow_context` only, not the host's
//! variables (`workflowStateResolver.renderState`), and swaps it in when it differs: a state whose
//! prompt needs a required host variable fails every turn, an optional one goes out with its default
//! (or the raw template), and an artifact set mid-turn shows in the next round's prompt. Under
//! `documented` a prompt is rendered, with the host's variables, only when a conversation opens or
//! a transition enters a state.
//!
//! A scenario that names `prompt:` runs a plain conversation under PromptKit (`sdk.Open`): no
//! workflow at all. Without it the conversation is the workflow's (`sdk.OpenWorkflow`).

use std::collections::BTreeMap;

use proctor_pack::PackProfile;
use serde_json::{Value, json};

use crate::record::WorkflowRecord;
use crate::scenario::pack::PackRun;

pub(super) const TRANSITION: &str = "workflow__transition";
pub(super) const SET_ARTIFACT: &str = "workflow__set_artifact";

/// The workflow of one run.
pub(super) struct Workflow {
    run: std::sync::Arc<PackRun>,
    spec: Value,
    current: String,
    visits: BTreeMap<String, u64>,
    tool_calls: u64,
    artifacts: BTreeMap<String, String>,
    pending: Option<(String, String)>,
    /// The `context` of the last committed transition, for `{{workflow_context}}`.
    context: Option<String>,
    /// The state whose conversation is open (a new user turn in another state opens a new one).
    conversation_state: String,
    /// When the workflow started (its wall-time budget counts from here).
    started: std::time::Instant,
    pub(super) record: WorkflowRecord,
}

/// A committed transition, for the transcript.
pub(super) struct Moved {
    pub from: String,
    pub to: String,
    pub event: String,
    pub redirected: bool,
}

impl Workflow {
    /// The pack's workflow, in its entry state; `None` when the pack has none.
    pub(super) fn start(run: &std::sync::Arc<PackRun>) -> Option<Workflow> {
        if run.opening != crate::scenario::pack::Opening::Workflow {
            return None;
        }
        let spec = run.document.get("workflow")?.clone();
        let entry = spec.get("entry")?.as_str()?.to_string();
        let record = WorkflowRecord {
            state: entry.clone(),
            status: status_of(&spec, &entry).into(),
            path: vec![entry.clone()],
            artifacts: BTreeMap::new(),
        };
        Some(Workflow {
            run: run.clone(),
            spec,
            visits: BTreeMap::from([(entry.clone(), 1)]),
            conversation_state: entry.clone(),
            current: entry,
            tool_calls: 0,
            artifacts: BTreeMap::new(),
            pending: None,
            context: None,
            started: std::time::Instant::now(),
            record,
        })
    }

    fn state(&self, name: &str) -> &Value {
        &self.spec["states"][name]
    }

    /// The tools the current state offers: its prompt's, then the workflow's own. Under PromptKit a
    /// member's `a2a__` tool is registered when the conversation opens, for the members the opening
    /// state's prompt names (sdk/capability_a2a.go:85-104), and as a capability tool it is offered
    /// in every round whatever the state (stages_provider.go:2536-2545); the documents scope it to
    /// the current state's prompt like any tool.
    pub(super) fn tools(&self, available: &[String]) -> Vec<String> {
        let listed = |state: &str| -> Vec<String> {
            let task = self.state(state)["prompt_task"].as_str().unwrap_or_default();
            let names = self.run.document["prompts"][task]["tools"].as_array().into_iter().flatten().filter_map(Value::as_str);
            names.map(String::from).collect()
        };
        let promptkit = self.run.reader == PackProfile::PromptKit;
        let member_tool = |t: &str| promptkit && available.contains(&format!("a2a__{t}"));
        // A member named as a tool is offered under its agent tool name (`a2a__<member>` in PromptKit).
        let mut tools: Vec<String> = listed(&self.current)
            .into_iter()
            .filter(|t| !member_tool(t))
            .filter_map(|t| [t.clone(), format!("a2a__{t}")].into_iter().find(|name| available.contains(name)))
            .collect();
        if promptkit {
            tools.extend(listed(&self.conversation_state).into_iter().filter(|t| member_tool(t)).map(|t| format!("a2a__{t}")));
        }
        if !terminal(self.state(&self.current)) && self.transition_registered() {
            tools.push(TRANSITION.into());
        }
        if !self.artifact_names().is_empty() {
            tools.push(SET_ARTIFACT.into());
        }
        tools
    }

    /// The arguments schema PromptKit registers for workflow tool `name` here; `None` for any other
    /// tool, or for the transition tool where it is not registered.
    pub(super) fn parameters(&self, name: &str) -> Option<Value> {
        let strings = |names: Vec<String>| Value::Array(names.into_iter().map(Value::String).collect());
        match name {
            TRANSITION if self.transition_registered() => {
                let mut events: Vec<String> =
                    self.state(&self.current)["on_event"].as_object().into_iter().flatten().map(|(k, _)| k.clone()).collect();
                events.sort_unstable();
                Some(json!({"type": "object", "properties": {"event": {"type": "string", "enum": strings(events)},
                    "context": {"type": "string"}}, "required": ["event", "context"]}))
            }
            SET_ARTIFACT => {
                Some(json!({"type": "object", "properties": {"name": {"type": "string", "enum": strings(self.artifact_names())},
                "value": {"type": "string"}}, "required": ["name", "value"]}))
            }
            _ => None,
        }
    }

    /// Every artifact a state declares, sorted, once.
    fn artifact_names(&self) -> Vec<String> {
        proctor_pack::render::artifact_names(&self.run.document)
    }

    /// Whether PromptKit's registry still holds the transition tool: not in a terminal state whose
    /// conversation opened there (in the turn that entered it, the cached tool still runs), and not
    /// in an `orchestration: external` one either, where only the host moves the workflow
    /// (transition_executor.go:167-176 registers nothing there).
    fn transition_registered(&self) -> bool {
        let state = self.state(&self.current);
        let external = state["orchestration"].as_str() == Some("external");
        !((terminal(state) || external) && self.conversation_state == self.current)
    }

    /// Whether the turn stops in the state just entered: one `orchestration: external` (RFC 0009:
    /// it waits for an injected event) or `composition` runs no further round in PromptKit
    /// (sdk/workflow_state_resolver.go:172-180, stages_provider.go:642-644).
    pub(super) fn stops_here(&self) -> bool {
        matches!(self.state(&self.current)["orchestration"].as_str(), Some("external" | "composition"))
    }

    /// Counts the tool calls a round executed (the budget's `max_tool_calls`).
    pub(super) fn count_calls(&mut self, n: usize) {
        self.tool_calls += n as u64;
    }

    /// Runs a workflow tool call; `None` when `name` is not one.
    pub(super) fn call(&mut self, name: &str, arguments: &Value) -> Option<Result<Value, String>> {
        match name {
            TRANSITION if !self.transition_registered() => None,
            TRANSITION => {
                let event = arguments["event"].as_str().unwrap_or_default().to_string();
                let context = arguments["context"].as_str().unwrap_or_default().to_string();
                // PromptKit names the target by scanning every state's on_event for the event.
                let target = self.state(&self.current)["on_event"][&event]
                    .as_str()
                    .or_else(|| self.spec["states"].as_object()?.values().find_map(|s| s["on_event"][&event].as_str()))
                    .map(String::from);
                self.pending = Some((event.clone(), context));
                let mut answer = json!({"event": event, "status": "transition_scheduled"});
                if let Some(target) = target {
                    answer["target_state"] = Value::String(target);
                }
                Some(Ok(answer))
            }
            SET_ARTIFACT => {
                // `parameters` was checked first: both are strings, the name a declared one.
                let artifact = arguments["name"].as_str().unwrap_or_default();
                let value = arguments["value"].as_str().unwrap_or_default();
                // The current state's declaration first, then the first state declaring it.
                let declared = |s: &Value| s["artifacts"].get(artifact).map(|a| a["mode"] == "append");
                let append = declared(self.state(&self.current))
                    .or_else(|| self.spec["states"].as_object().into_iter().flatten().find_map(|(_, s)| declared(s)))
                    .unwrap_or(false);
                let slot = self.artifacts.entry(artifact.to_string()).or_default();
                if append {
                    slot.push_str(value);
                } else {
                    *slot = value.to_string();
                }
                self.record.artifacts = self.artifacts.clone();
                Some(Ok(json!({"artifact": artifact, "status": "artifact_set"})))
            }
            _ => None,
        }
    }

    /// Commits a transition left pending by this round's tool calls.
    pub(super) fn commit(&mut self) -> Result<Option<Moved>, String> {
        let Some((event, context)) = self.pending.take() else { return Ok(None) };
        let budget = &self.spec["engine"]["budget"];
        let total: u64 = self.visits.values().sum();
        let limit = |key: &str| budget[key].as_u64().filter(|m| *m > 0);
        if let Some(max) = limit("max_total_visits").filter(|m| total >= *m) {
            return Err(self.fail("budget_exhausted", format!("workflow budget exhausted: max_total_visits {total} reached limit {max}")));
        }
        if let Some(max) = limit("max_tool_calls").filter(|m| self.tool_calls >= *m) {
            let calls = self.tool_calls;
            return Err(self.fail("budget_exhausted", format!("workflow budget exhausted: max_tool_calls {calls} reached limit {max}")));
        }
        let elapsed = self.started.elapsed().as_secs();
        if let Some(max) = limit("max_wall_time_sec").filter(|m| elapsed >= *m) {
            return Err(
                self.fail("budget_exhausted", format!("workflow budget exhausted: max_wall_time_sec {elapsed} reached limit {max}"))
            );
        }
        let state = self.state(&self.current).clone();
        if terminal(&state) {
            return Err(self
                .fail("completed", format!("current state is terminal (no outgoing transitions): state {:?} is terminal", self.current)));
        }
        let Some(original) = state["on_event"][&event].as_str().map(String::from) else {
            let mut events: Vec<&str> = state["on_event"].as_object().into_iter().flatten().map(|(k, _)| k.as_str()).collect();
            events.sort();
            let message = format!(
                "invalid event for current state: event {event:?} not defined for state {:?} (available: [{}])",
                self.current,
                events.join(" ")
            );
            return Err(self.fail("running", message));
        };
        let mut target = original.clone();
        let cap = self.state(&original)["max_visits"].as_u64().filter(|m| *m > 0);
        let visits = self.visits.get(&original).copied().unwrap_or(0);
        if let Some(max) = cap.filter(|m| visits >= *m) {
            match self.state(&original)["on_max_visits"].as_str() {
                Some(fallback) => target = fallback.to_string(),
                None => {
                    // The spec's prose calls this outcome the budget being exhausted.
                    let status = if self.run.reader == PackProfile::PromptKit { "max_visits_exceeded" } else { "budget_exhausted" };
                    return Err(self.fail(status, format!("max visits exceeded: state {original:?} visited {visits} times (max {max})")));
                }
            }
        }
        let from = std::mem::replace(&mut self.current, target.clone());
        *self.visits.entry(target.clone()).or_default() += 1;
        self.context = Some(context);
        self.record.state = target.clone();
        self.record.path.push(target.clone());
        self.record.status = status_of(&self.spec, &target).into();
        let redirected = target != original;
        Ok(Some(Moved { from, to: target, event, redirected }))
    }

    fn fail(&mut self, status: &str, message: String) -> String {
        self.record.status = status.into();
        message
    }

    /// The current state's system prompt, rendered as the profile renders it at this point: mid-turn
    /// (`handoff`) PromptKit passes only artifacts and `workflow_context`; at a new conversation the
    /// host's variables as well.
    pub(super) fn system_prompt(&self, handoff: bool) -> Result<String, String> {
        let task = self.state(&self.current)["prompt_task"].as_str().unwrap_or_default().to_string();
        let mut given: BTreeMap<String, Value> = self.run.variables.clone();
        for (name, value) in &self.artifacts {
            given.insert(format!("artifacts.{name}"), Value::String(value.clone()));
        }
        // Under PromptKit the brief is gone by the time a new conversation opens (`new_conversation`).
        if let Some(context) = &self.context {
            given.insert("workflow_context".into(), Value::String(context.clone()));
        }
        // Each round in a state, PromptKit's resolver renders without the host's variables and fails
        // where the conversation's first render would fall back (`state_round`).
        let rendered = if handoff {
            proctor_pack::render::state_round(&self.run.document, &self.current, self.run.reader, &given)
        } else {
            proctor_pack::render::render(&self.run.document, &task, self.run.reader, &given)
        }
        .map_err(|e| e.to_string())?;
        match rendered.outcome {
            "error" => Err(rendered.error.unwrap_or_default()),
            "refused" => Err(format!("load prompt {task:?} for state: {}", rendered.explanation.unwrap_or_default())),
            _ => Ok(rendered.system_prompt),
        }
        .map_err(|e| if handoff { format!("provider stage: workflow handoff: {e}") } else { e })
    }

    /// The prompt of the state whose conversation is open: its `parameters` are the conversation's.
    pub(super) fn conversation_task(&self) -> &str {
        self.state(&self.conversation_state)["prompt_task"].as_str().unwrap_or_default()
    }

    /// Whether a new user turn must open a new conversation (the state changed since the last one).
    /// PromptKit's new conversation gets a new state resolver, which has no brief to hand on: the
    /// model's `context` went to the round after the transition (sdk/workflow.go:398-405, 580-583; the
    /// resolver keeps `contextSummary` only for its own conversation).
    pub(super) fn new_conversation(&mut self) -> bool {
        let changed = self.conversation_state != self.current;
        self.conversation_state = self.current.clone();
        if changed && self.run.reader == PackProfile::PromptKit {
            self.context = None;
        }
        changed
    }

    /// The current state's prompt as PromptKit's state resolver renders it before the first round
    /// and after every round of a workflow conversation (stages_provider.go:565 and 583, calling
    /// sdk/workflow_state_resolver.go `ResolveCurrentState`): with the artifacts and
    /// `workflow_context` only, never the host's variables (`renderState`, :204-215). The provider
    /// stage swaps it in when it differs from the prompt in use (stages_provider.go:652); a required
    /// host variable is missing there, and the turn fails. `None` under `documented`, which re-renders
    /// nothing, and for a state with no prompt (the resolver leaves the turn alone, :186-188).
    pub(super) fn rerendered(&self) -> Option<Result<String, String>> {
        let task = self.state(&self.current)["prompt_task"].as_str().unwrap_or_default();
        (self.run.reader == PackProfile::PromptKit && !task.is_empty()).then(|| self.system_prompt(true))
    }

    /// The host's variables the current state's prompt names, which a PromptKit re-render drops.
    pub(super) fn host_variables_dropped(&self) -> Vec<String> {
        let task = self.state(&self.current)["prompt_task"].as_str().unwrap_or_default();
        let mut names = proctor_pack::render::variable_names(&self.run.document["prompts"][task]);
        names.retain(|name| self.run.variables.contains_key(name));
        names.dedup();
        names
    }
}

fn terminal(state: &Value) -> bool {
    state["terminal"] == true || state["on_event"].as_object().is_none_or(|m| m.is_empty())
}

fn status_of(spec: &Value, state: &str) -> &'static str {
    if terminal(&spec["states"][state]) { "completed" } else { "running" }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::scenario::pack::Opening;

    /// A workflow whose entry state's prompt names the member `billing` and whose second state's
    /// prompt names `audit` instead.
    fn workflow(reader: PackProfile) -> Workflow {
        let document = json!({
            "prompts": {"desk": {"tools": ["lookup", "billing"]}, "review": {"tools": ["audit"]}},
            "agents": {"entry": "desk", "members": {"billing": {}, "audit": {}}},
            "workflow": {"entry": "desk", "states": {
                "desk": {"prompt_task": "desk", "on_event": {"Review": "review"}},
                "review": {"prompt_task": "review", "terminal": true}}}
        });
        let run = PackRun { document, reader, variables: BTreeMap::new(), opening: Opening::Workflow };
        Workflow::start(&Arc::new(run)).expect("the pack has a workflow")
    }

    #[test]
    fn promptkit_offers_the_opening_prompts_members_in_every_state_and_the_documents_the_current_ones() {
        let available: Vec<String> = ["lookup", "a2a__billing", "a2a__audit", "billing", "audit"].map(String::from).into();
        for (reader, after_handoff) in [(PackProfile::PromptKit, vec!["a2a__billing"]), (PackProfile::Documented, vec!["audit"])] {
            let mut wf = workflow(reader);
            let before = wf.tools(&available);
            let expected_before: Vec<&str> = match reader {
                PackProfile::PromptKit => vec!["lookup", "a2a__billing", TRANSITION],
                _ => vec!["lookup", "billing", TRANSITION],
            };
            assert_eq!(before, expected_before, "{reader}");
            assert!(wf.call(TRANSITION, &json!({"event": "Review", "context": "done"})).is_some_and(|r| r.is_ok()));
            assert!(wf.commit().expect("the transition commits").is_some());
            // Mid-turn, in `review`: PromptKit's registry still holds what the conversation opened with.
            assert_eq!(wf.tools(&available), after_handoff, "{reader}");
        }
    }
}
