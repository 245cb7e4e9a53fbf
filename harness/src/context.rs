//! What a pipeline holds while it plays a runtime: the scenario, the wire
//! profile, the scripted LLM (journaled when recording) and the records it
//! writes. The runner makes one per scenario run and judges what is left in
//! it when the pipeline is done.

use std::path::PathBuf;
use std::time::Duration;

use proctor_conformance::protocol::{Family, Profile, Role};
use proctor_conformance::transport::{Deadlines, PluginCommand};
use proctor_mocks::provider::journal::{Answer, Journal, JournalEntry};
use proctor_mocks::provider::{LlmRequest, LlmResponse, ScriptMiss, ScriptedLlm, openai};

use crate::record::{Summary, Transcript};
use crate::scenario::{Plugin, Process, Scenario};

/// The LLM journal's file name in a record dir.
pub const LLM_JOURNAL: &str = "llm.journal.jsonl";

/// Variables that make interpreters unbuffered, removed from every plugin's
/// environment (certify and scenarios alike): the runtimes do not set them, so
/// a developer shell exporting one would hide the classic unflushed-print bug.
pub const UNBUFFERING_VARIABLES: &[&str] = &["PYTHONUNBUFFERED"];

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
    /// Plugins whose command could not be started at all: the scenario's
    /// mistake (a wrong path, a missing interpreter), not the plugin's.
    spawn_failures: Vec<(String, String)>,
}

impl<'a> RunContext<'a> {
    /// A fresh context for one run of `scenario` under `profile`. A journal
    /// that cannot be opened is reported in `problems` and the run goes on
    /// without it.
    pub fn new(scenario: &'a Scenario, profile: Profile, env: &'a RunEnv, problems: &mut Vec<String>) -> Self {
        let journal = env.record_dir.as_ref().and_then(|dir| {
            let path = dir.join(LLM_JOURNAL);
            crate::output::Target::prepare("--record-dir", &path)
                .and_then(|target| target.into_file(false))
                .map(Journal::writing_to)
                .map_err(|e| problems.push(format!("cannot write the LLM journal: {e}")))
                .ok()
        });
        RunContext {
            scenario,
            profile,
            transcript: Transcript::default(),
            summary: Summary::default(),
            llm: ScriptedLlm::new(scenario.llm.clone()),
            journal,
            env,
            spawn_failures: Vec::new(),
        }
    }

    /// Notes that `plugin`'s command could not be started. The runtime's
    /// own reaction (fail closed, ask, score 0) still plays out; the run is
    /// then reported as unusable (exit 2), with the command, where it
    /// resolved and the OS error.
    pub fn cannot_start(&mut self, plugin: &str, command: &PluginCommand, error: &proctor_conformance::transport::SpawnError) {
        let resolved = resolve(command.program(), command.cwd.as_deref());
        let message = format!("plugin `{plugin}`: {error} (command: {}; {resolved})", command.display());
        if !self.spawn_failures.iter().any(|(p, _)| p == plugin) {
            self.spawn_failures.push((plugin.to_string(), message));
        }
    }

    /// The plugins that could not be started: (name, what happened).
    pub fn spawn_failures(&self) -> &[(String, String)] {
        &self.spawn_failures
    }

    /// How many scripted LLM rounds were never asked for.
    pub fn unused_llm_rounds(&self) -> usize {
        self.llm.unused()
    }

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
                // `proctor run` refused a scenario whose plugin names no record inside the folder.
                if let Some(record) = self.env.record_dir.as_ref().and_then(|dir| record_file(dir, &plugin.name).ok()) {
                    argv.extend(["--record".into(), record.display().to_string()]);
                }
                argv
            }
        };
        let mut cmd = PluginCommand::new(argv).unwrap_or_else(|| PluginCommand::new(vec!["false".into()]).expect("non-empty"));
        cmd.cwd = Some(self.env.root.clone());
        cmd.env_remove = UNBUFFERING_VARIABLES.iter().map(|v| v.to_string()).collect();
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
                body: request.wire.clone().unwrap_or_else(|| openai::request_body(request)),
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

/// Where mock plugin `plugin`'s record goes in record folder `dir`:
/// `dir/<plugin>.jsonl`, or why that is not a file inside `dir` of its own
/// (a name with `/` or `..` in it, an absolute one, the LLM journal's).
pub fn record_file(dir: &std::path::Path, plugin: &str) -> Result<PathBuf, String> {
    let name = format!("{plugin}.jsonl");
    let plain = matches!(std::path::Path::new(&name).components().collect::<Vec<_>>()[..], [std::path::Component::Normal(_)]);
    if !plain || plugin.contains('/') {
        return Err(format!(
            "its record would be {}, outside --record-dir {}\nhint: give mock plugins plain names (no `/` or `..`), or run without --record-dir",
            dir.join(&name).display(),
            dir.display()
        ));
    }
    if name == LLM_JOURNAL {
        return Err(format!(
            "its record would be {}, the LLM journal's file\nhint: rename the plugin, or run without --record-dir",
            dir.join(&name).display()
        ));
    }
    Ok(dir.join(name))
}

/// Where argv[0] resolves, in words, for a plugin that could not be started.
fn resolve(program: &str, cwd: Option<&std::path::Path>) -> String {
    if program.contains('/') {
        let path = cwd.map_or_else(|| PathBuf::from(program), |d| d.join(program));
        return match path.exists() {
            true => format!("resolved to {}", path.display()),
            false => format!("{} does not exist", path.display()),
        };
    }
    let found = std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(program)).find(|p| p.is_file()));
    match found {
        Some(path) => format!("resolved on PATH to {}", path.display()),
        None => format!("`{program}` is not on PATH"),
    }
}
