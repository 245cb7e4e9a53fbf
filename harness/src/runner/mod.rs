//! Running one scenario: start the simulation of its runtime, drive the
//! turns, record the transcript, judge the expectations.

mod expect;

use proctor_conformance::protocol::Profile;
use serde::Serialize;

use crate::context::{RunContext, RunEnv};
use crate::pipeline;
use crate::record::{Summary, Transcript};
use crate::scenario::Scenario;

/// The result of one scenario run.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// The scenario id (the file's path when the file could not be read).
    pub id: String,
    /// The scenario file, when the run came from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The scenario could not be used as written (a malformed file, a plugin
    /// command that cannot be started): the author's mistake, exit 2.
    pub unusable: bool,
    /// A baseline accepts this failure for now (where, and why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_failure: Option<String>,
    /// Unmet expectations and run errors; empty when the scenario passed.
    pub problems: Vec<String>,
    /// What `proctor run --update-snapshots` did with its snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_update: Option<String>,
    /// What was observed.
    pub summary: Summary,
    /// What happened.
    pub transcript: Transcript,
}

impl RunResult {
    /// Whether the run may go on green: it passed, or a baseline accepts its failure.
    pub fn accepted(&self) -> bool {
        self.passed() || self.expected_failure.is_some()
    }

    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }

    /// A scenario proctor could not run to the end (a bug in proctor, such
    /// as a panic): failed, with what went wrong, and nothing observed.
    pub fn harness_failure(id: String, problem: String) -> Self {
        RunResult {
            id,
            file: None,
            unusable: false,
            expected_failure: None,
            snapshot_update: None,
            problems: vec![problem],
            summary: Summary::default(),
            transcript: Transcript::default(),
        }
    }

    /// A scenario file that could not be read or validated.
    pub fn unusable_file(file: &std::path::Path, problem: String) -> Self {
        let file = file.display().to_string();
        RunResult {
            id: file.clone(),
            file: Some(file),
            unusable: true,
            expected_failure: None,
            snapshot_update: None,
            problems: vec![problem],
            summary: Summary::default(),
            transcript: Transcript::default(),
        }
    }

    /// A scenario whose own inputs cannot be used (its pack, its RuntimeConfig): the author's
    /// mistake, exit 2, with what is wrong and where.
    pub fn unusable(scenario: &Scenario, problem: String) -> Self {
        RunResult { id: scenario.id.clone(), unusable: true, ..RunResult::harness_failure(scenario.id.clone(), problem) }
    }

    /// When the run's pack prompt was not sent as written (PromptKit's fallback, a raw template, a
    /// refusal, a workflow state's prompt rendered again without the host's variables), what was
    /// sent instead: a scenario can pass while that happens, and must say so.
    pub fn pack_warning(&self) -> Option<String> {
        let entries = &self.transcript.entries;
        let mut said = Vec::new();
        if let Some(pack) = entries.iter().find(|e| e.channel == "runtime" && e.kind == "pack") {
            if let Some(outcome) = pack.body["outcome"].as_str().filter(|o| *o != "rendered") {
                let why = pack.body["explanation"].as_str().unwrap_or_default();
                said.push(format!("the pack's prompt was not sent as written ({outcome}): {why}"));
            }
            said.extend(pack.body["warnings"].as_array().into_iter().flatten().filter_map(|w| w.as_str().map(String::from)));
        }
        let rerenders = entries.iter().filter(|e| e.channel == "workflow" && e.kind == "rerender");
        let dropped = rerenders.map(|e| {
            let names: Vec<&str> = e.body["host_variables_dropped"].as_array().into_iter().flatten().filter_map(|n| n.as_str()).collect();
            (e, names)
        });
        if let Some((e, names)) = dropped.into_iter().find(|(_, names)| !names.is_empty()) {
            said.push(format!(
                "PromptKit rendered state `{}`'s prompt again without the host's `{}`, and the model got that instead: {:?}",
                e.body["state"].as_str().unwrap_or_default(),
                names.join("`, `"),
                e.body["system_prompt"].as_str().unwrap_or_default()
            ));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }

    /// What the runtime itself reported as an error during the run (the
    /// root cause behind unmet expectations, such as a hook that failed to start).
    pub fn runtime_errors(&self) -> impl Iterator<Item = String> + '_ {
        self.transcript
            .entries
            .iter()
            .filter(|e| e.channel == "runtime" && e.kind == "error")
            .map(|e| e.body.as_str().map_or_else(|| e.body.to_string(), String::from))
    }
}

/// Runs a scenario to the end and judges it.
pub async fn run(scenario: &Scenario, env: &RunEnv) -> RunResult {
    let family = scenario.runtime.family();
    let profile = scenario.profile.as_deref().and_then(|p| Profile::parse(family, p).ok()).unwrap_or(Profile::for_family(family)[1]);
    let expanded;
    let mut setup = None;
    let scenario = match scenario.pack.is_some().then(|| crate::scenario::pack::expand(scenario, profile, &env.root)) {
        None => scenario,
        Some(Ok((with_pack, pack_setup))) => {
            expanded = with_pack;
            setup = Some(pack_setup);
            &expanded
        }
        Some(Err(problem)) => return RunResult::unusable(scenario, format!("pack: {problem}")),
    };
    // A script that is not there is the scenario's mistake, before any runtime fallback
    // (runok asks, PicoClaw continues) could hide it behind a passing outcome.
    for plugin in scenario.plugins.iter().filter(|p| !p.fails_to_start) {
        let crate::scenario::Process::Command(argv) = &plugin.process else { continue };
        let Some(mut command) = proctor_conformance::transport::PluginCommand::new(argv.clone()) else { continue };
        command.cwd = Some(env.root.clone());
        if let Some(script) = command.missing_script() {
            let problem = format!(
                "plugin `{}`: `{}` would run {}, {}: the plugin can never start\nhint: fix the path (relative paths start from {}), or mark the plugin `fails_to_start: true` if that is the point",
                plugin.name,
                command.program(),
                script.path.display(),
                script.why,
                env.root.display()
            );
            return RunResult::unusable(scenario, problem);
        }
    }
    let mut problems = Vec::new();
    let mut ctx = RunContext::new(scenario, profile, env, &mut problems);
    if let Some(setup) = &setup {
        ctx.transcript.push("runtime", "pack", setup.record());
    }
    if let Err(e) = pipeline::run(&mut ctx).await {
        ctx.transcript.push("runtime", "error", e.to_string());
        problems.push(format!("run error: {e}"));
    }
    // A plugin that cannot be started is the scenario's mistake, unless the
    // scenario says that is the point (`fails_to_start`).
    let meant = |name: &str| scenario.plugins.iter().any(|p| p.name == name && p.fails_to_start);
    let mistakes: Vec<String> =
        ctx.spawn_failures().iter().filter(|(name, _)| !meant(name)).map(|(_, m)| format!("cannot start a plugin: {m}")).collect();
    let unusable = !mistakes.is_empty();
    problems.splice(0..0, mistakes);
    for p in scenario.plugins.iter().filter(|p| p.fails_to_start) {
        if !ctx.spawn_failures().iter().any(|(name, _)| *name == p.name) {
            problems.push(format!("plugin `{}` is marked `fails_to_start`, but it started (or was never started)", p.name));
        }
    }
    if ctx.unused_llm_rounds() > 0 {
        problems.push(format!("the LLM script has {} round(s) that were never asked for", ctx.unused_llm_rounds()));
    }
    problems.extend(expect::judge(&scenario.expect, &ctx.summary, &ctx.transcript));
    let root = env.root.display().to_string();
    ctx.transcript.redact(&root, "[repo]");
    for r in &scenario.redact {
        ctx.transcript.redact(&r.pattern, r.with.as_deref().unwrap_or("[redacted]"));
    }
    RunResult {
        id: scenario.id.clone(),
        file: None,
        unusable,
        expected_failure: None,
        snapshot_update: None,
        problems,
        summary: ctx.summary,
        transcript: ctx.transcript,
    }
}
