//! The reference pipelines: each runtime's semantics, as documented and,
//! where the research notes show otherwise, as implemented (the profile
//! decides).

mod agent;
mod picoclaw;
mod promptkit;
mod runok;

use crate::context::RunContext;
use crate::scenario::Runtime;

/// A run that could not be carried out (as opposed to an unmet expectation).
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The scripted LLM was asked something the script does not cover.
    #[error(transparent)]
    Script(#[from] proctor_mocks::provider::ScriptMiss),
    /// A plugin could not be started.
    #[error("plugin `{plugin}`: {error}")]
    Spawn {
        /// The plugin.
        plugin: String,
        /// Why.
        error: String,
    },
}

/// Plays the scenario's runtime to the end of its turns.
pub async fn run(ctx: &mut RunContext<'_>) -> Result<(), PipelineError> {
    match ctx.scenario.runtime {
        Runtime::Runok => runok::run(ctx).await,
        Runtime::Picoclaw => picoclaw::run(ctx).await,
        Runtime::Promptkit => promptkit::run(ctx).await,
        Runtime::ClaudeCode => agent::run(ctx, proctor_conformance::protocol::agent_hook::Agent::ClaudeCode).await,
        Runtime::Codex => agent::run(ctx, proctor_conformance::protocol::agent_hook::Agent::Codex).await,
    }
}
