//! Reading a scenario file. Every error names the file, line and column and
//! says what to write instead; nothing is silently defaulted.

use std::path::{Path, PathBuf};

use super::model::{PluginConfig, Runtime, Scenario, Turn};

/// A scenario file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read (missing, a folder or a device, too large, not UTF-8).
    #[error("scenario {0}")]
    Read(#[from] proctor_input::InputError),
    /// Malformed YAML or an unknown key (rendered with a snippet).
    #[error("{0}")]
    Syntax(String),
    /// Well-formed but inconsistent.
    #[error("{}{}: {problem}\nhint: {hint}", path.display(), at.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Line and column of the offending value, when it can be found.
        at: Option<(usize, usize)>,
        /// What is wrong.
        problem: String,
        /// What to do.
        hint: String,
    },
}

/// Reads and validates a scenario file.
pub fn load(path: &Path) -> Result<Scenario, LoadError> {
    let text = proctor_input::read_to_string(path, proctor_input::MAX_BYTES)?;
    parse(&text, path)
}

/// Parses and validates scenario text (`path` names it in errors).
pub fn parse(text: &str, path: &Path) -> Result<Scenario, LoadError> {
    if text.trim().is_empty() {
        return Err(LoadError::Invalid {
            path: path.to_path_buf(),
            at: None,
            problem: "the file is empty".into(),
            hint: "a scenario needs at least `id`, `runtime` and `turns`; `proctor schema` prints the format".into(),
        });
    }
    let name = path.display().to_string();
    let mut scenario: Scenario =
        serde_saphyr::from_str_with_options(text, serde_saphyr::options! { strict_booleans: true }).map_err(|e| {
            LoadError::Syntax(format!(
                "invalid scenario {}\nhint: `proctor schema` prints the format; point your editor at it for completion",
                proctor_input::yaml_message(
                    &e.render_with_options(serde_saphyr::render_options! { source_name: Some(name.as_str()) }),
                    &name
                )
            ))
        })?;
    validate(&scenario, path)?;
    super::values::validate(&scenario, text, path)?;
    scenario.source = Some(path.to_path_buf());
    Ok(scenario)
}

fn validate(s: &Scenario, path: &Path) -> Result<(), LoadError> {
    let invalid =
        |problem: String, hint: &str| Err(LoadError::Invalid { path: path.to_path_buf(), at: None, problem, hint: hint.to_string() });
    if s.id.trim().is_empty() || s.id.contains(char::is_whitespace) {
        return invalid(format!("id {:?} must be non-empty and without spaces", s.id), "ids name snapshots: use `runtime/what-it-shows`");
    }
    for p in &s.plugins {
        let fits = matches!(
            (s.runtime, &p.config),
            (
                Runtime::Promptkit,
                PluginConfig::PromptkitHook(_)
                    | PluginConfig::PromptkitTool(_)
                    | PluginConfig::PromptkitEval(_)
                    | PluginConfig::PromptkitSelector(_)
            ) | (Runtime::Picoclaw, PluginConfig::PicoclawHook(_))
                | (Runtime::Runok, PluginConfig::RunokExtension(_))
                | (Runtime::ClaudeCode | Runtime::Codex, PluginConfig::AgentHook(_))
        );
        if !fits {
            return invalid(
                format!("plugin `{}` is configured for another runtime than {:?}", p.name, s.runtime),
                "promptkit takes promptkit_hook/promptkit_tool/promptkit_eval/promptkit_selector, picoclaw picoclaw_hook, runok runok_extension, claude-code and codex agent_hook",
            );
        }
    }
    match (&s.pack, s.runtime) {
        (Some(_), Runtime::Promptkit) => {}
        (Some(_), _) => return invalid("`pack:` is PromptKit's".into(), "packs run in `runtime: promptkit` scenarios"),
        (None, _) if s.runtime_config.is_some() || s.prompt.is_some() || !s.variables.is_empty() => {
            return invalid("`runtime_config`, `prompt` and `variables` belong to a pack".into(), "add `pack: path/to/agent.pack.json`");
        }
        (None, _) => {}
    }
    if s.turns.is_empty() {
        return invalid("the scenario has no turns".into(), "add `turns: [{user: \"...\"}]` (runok: `{command: {raw: \"...\"}}`)");
    }
    for t in &s.turns {
        let ok = match (s.runtime, t) {
            (Runtime::Runok, Turn::Command(_)) => true,
            (Runtime::Runok, _) | (_, Turn::Command(_)) => false,
            // The agents' loops have no pending calls to resolve: only the user speaks.
            (Runtime::ClaudeCode | Runtime::Codex, Turn::Resolve(_) | Turn::Reject(_)) => false,
            _ => true,
        };
        if !ok {
            return invalid(
                format!("turn {t:?} does not fit runtime {:?}", s.runtime),
                "runok scenarios are `command` turns; claude-code and codex ones `user`; promptkit and picoclaw use `user`, `resolve` and `reject`",
            );
        }
    }
    if let Some(profile) = &s.profile
        && let Err(e) = proctor_conformance::protocol::Profile::parse(s.runtime.family(), profile)
    {
        return invalid(e.to_string(), "leave `profile` out to simulate the runtime as implemented");
    }
    Ok(())
}
