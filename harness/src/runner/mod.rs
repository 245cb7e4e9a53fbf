//! Running one scenario: start the simulation of its runtime, drive the
//! turns, record the transcript, judge the expectations.

mod expect;
mod summary;
mod transcript;

use std::path::PathBuf;
use std::time::Duration;

use proctor_conformance::protocol::{Family, Profile, Role};
use proctor_conformance::transport::{Deadlines, PluginCommand};
use proctor_mocks::provider::journal::{Answer, Journal, JournalEntry};
use proctor_mocks::provider::{LlmRequest, LlmResponse, ScriptMiss, ScriptedLlm, openai};
use serde::Serialize;

use crate::pipeline;
use crate::scenario::{Plugin, Process, Scenario};

pub use summary::{DecisionRecord, DenialRecord, Summary, ToolResultRecord};
pub use transcript::{Entry, Transcript};

/// The LLM journal's file name in a record dir.
pub const LLM_JOURNAL: &str = "llm.journal.jsonl";

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
    /// The scripted LLM: asked through [`RunContext::ask_llm`], so every
    /// call is journaled.
    llm: ScriptedLlm,
    /// With a record dir: every LLM call, as `proctor mock-provider
    /// --journal` writes them, for `proctor verify --journal` (dogfood).
    journal: Option<Journal>,
    env: &'a RunEnv,
}

impl RunContext<'_> {
    /// The command that starts `plugin`, speaking `family` as `role`.
    pub fn command(&self, plugin: &Plugin, family: Family, role: Option<Role>) -> PluginCommand {
        let argv = match &plugin.process {
            Process::Command(argv) => argv.clone(),
            Process::Mock(m) => {
                let mut argv =
                    vec![self.env.mock_program.display().to_string(), "mock-plugin".into(), "--protocol".into(), family.name().into()];
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

    /// Asks the scripted LLM, journaling the call when recording.
    pub fn ask_llm(&mut self, request: &LlmRequest) -> Result<LlmResponse, ScriptMiss> {
        let round = self.llm.used() + 1;
        let result = self.llm.complete(request);
        if let Some(journal) = &mut self.journal {
            let seq = journal.next_seq();
            let answer = Answer::scripted(&result, round, false, false);
            journal.record(JournalEntry {
                seq,
                method: "POST".into(),
                path: openai::CHAT_COMPLETIONS.into(),
                body: openai::request_body(request),
                answer,
            });
        }
        result
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

    /// A scenario proctor could not run to the end (a bug in proctor, such
    /// as a panic): failed, with what went wrong, and nothing observed.
    pub fn harness_failure(id: String, problem: String) -> Self {
        RunResult { id, problems: vec![problem], summary: Summary::default(), transcript: Transcript::default() }
    }
}

/// Runs a scenario to the end and judges it.
pub async fn run(scenario: &Scenario, env: &RunEnv) -> RunResult {
    let family = scenario.runtime.family();
    let profile = scenario.profile.as_deref().and_then(|p| Profile::parse(family, p).ok()).unwrap_or(Profile::for_family(family)[1]);
    let mut problems = Vec::new();
    let journal = match &env.record_dir {
        None => None,
        Some(dir) => {
            let path = dir.join(LLM_JOURNAL);
            Journal::to_file(&path).map_err(|e| problems.push(format!("cannot write the LLM journal {}: {e}", path.display()))).ok()
        }
    };
    let mut ctx = RunContext {
        scenario,
        profile,
        transcript: Transcript::default(),
        summary: Summary::default(),
        llm: ScriptedLlm::new(scenario.llm.clone()),
        journal,
        env,
    };
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
