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
    let mut ctx = RunContext::new(scenario, profile, env, &mut problems);
    if let Err(e) = pipeline::run(&mut ctx).await {
        ctx.transcript.push("runtime", "error", e.to_string());
        problems.push(format!("run error: {e}"));
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
    RunResult { id: scenario.id.clone(), problems, summary: ctx.summary, transcript: ctx.transcript }
}
