//! Running one scenario: start the simulation of its runtime, drive the
//! turns, record the transcript, judge the expectations.

mod expect;
mod summary;
mod transcript;

use std::path::PathBuf;
use std::time::Duration;

use proctor_conformance::protocol::{Family, Profile, Role};
use proctor_conformance::transport::{Deadlines, PluginCommand};
use proctor_mocks::provider::ScriptedLlm;
use serde::Serialize;

use crate::pipeline;
use crate::scenario::{Plugin, Process, Runtime, Scenario};

pub use summary::{DecisionRecord, DenialRecord, Summary, ToolResultRecord};
pub use transcript::{Entry, Transcript};

/// Where and how scenarios run.
#[derive(Debug, Clone)]
pub struct RunEnv {
    /// Plugin commands run from here (the repository root).
    pub root: PathBuf,
    /// The `proctor` executable, for `process: {mock: …}` plugins.
    pub mock_program: PathBuf,
    /// When set, mock plugins record what they receive here (`<name>.jsonl`),
    /// so `proctor verify` can judge proctor's own pipelines (dogfood).
    pub record_dir: Option<PathBuf>,
}

/// Everything a pipeline needs while it plays a runtime.
pub struct RunContext<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The wire profile.
    pub profile: Profile,
    /// What happened, in order.
    pub transcript: Transcript,
    /// What happened, in the terms of the expectations.
    pub summary: Summary,
    /// The scripted LLM.
    pub llm: ScriptedLlm,
    env: &'a RunEnv,
}

impl RunContext<'_> {
    /// The command that starts `plugin`, speaking `family` as `role`.
    pub fn command(&self, plugin: &Plugin, family: Family, role: Option<Role>) -> PluginCommand {
        let argv = match &plugin.process {
            Process::Command(argv) => argv.clone(),
            Process::Mock(m) => {
                let mut argv = vec![self.env.mock_program.display().to_string(), "mock-plugin".into(), "--protocol".into(), family.name().into()];
                if let Some(role) = role {
                    argv.extend(["--role".into(), role.name().into()]);
                }
                if let Some(d) = &m.decision {
                    argv.extend(["--decision".into(), d.clone()]);
                }
                for f in &m.faults {
                    argv.extend(["--fault".into(), f.clone()]);
                }
                if let Some(n) = m.crash_after {
                    argv.extend(["--crash-after".into(), n.to_string()]);
                }
                if let Some(dir) = &self.env.record_dir {
                    argv.extend(["--record".into(), dir.join(format!("{}.jsonl", plugin.name)).display().to_string()]);
                }
                argv
            }
        };
        let mut cmd = PluginCommand::new(argv).unwrap_or_else(|| PluginCommand::new(vec!["false".into()]).expect("non-empty"));
        cmd.cwd = Some(self.env.root.clone());
        cmd.env_remove = vec!["PYTHONUNBUFFERED".into()];
        cmd
    }

    /// Deadlines for a plugin with a per-request timeout.
    pub fn deadlines(timeout: Duration) -> Deadlines {
        Deadlines { request: timeout, ..Deadlines::default() }
    }
}

/// The result of one scenario run.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// The scenario id.
    pub id: String,
    /// Unmet expectations and run errors; empty when the scenario passed.
    pub problems: Vec<String>,
    /// What was observed.
    pub summary: Summary,
    /// What happened.
    pub transcript: Transcript,
}

impl RunResult {
    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Runs a scenario to the end and judges it.
pub async fn run(scenario: &Scenario, env: &RunEnv) -> RunResult {
    let family = match scenario.runtime {
        Runtime::Promptkit => Family::PromptkitExec,
        Runtime::Picoclaw => Family::PicoclawHook,
        Runtime::Runok => Family::RunokExtension,
    };
    let profile = scenario.profile.as_deref().and_then(|p| Profile::parse(family, p).ok()).unwrap_or(Profile::for_family(family)[1]);
    let mut ctx = RunContext { scenario, profile, transcript: Transcript::default(), summary: Summary::default(), llm: ScriptedLlm::new(scenario.llm.clone()), env };
    let mut problems = Vec::new();
    if let Err(e) = pipeline::run(&mut ctx).await {
        ctx.transcript.push("runtime", "error", e.to_string());
        problems.push(format!("run error: {e}"));
    }
    if ctx.llm.unused() > 0 {
        problems.push(format!("the LLM script has {} round(s) that were never asked for", ctx.llm.unused()));
    }
    problems.extend(expect::judge(&scenario.expect, &ctx.summary, &ctx.transcript));
    let root = env.root.display().to_string();
    ctx.transcript.redact(&root, "[repo]");
    for r in &scenario.redact {
        ctx.transcript.redact(&r.pattern, r.with.as_deref().unwrap_or("[redacted]"));
    }
    RunResult { id: scenario.id.clone(), problems, summary: ctx.summary, transcript: ctx.transcript }
}
