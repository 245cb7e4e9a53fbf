//! `proctor verify`: judging a runtime from what it sent. Its plugins' side
//! comes from the mock plugins' records (framing, envelopes, ids, methods,
//! lifecycle, restarts: [`proctor_conformance::verify`]) and the scenario's
//! expectations ([`expected`]); its LLM side from the mock provider's
//! journal ([`llm`], [`late_reply`]).

mod expected;
mod late_reply;
mod llm;

use std::path::{Path, PathBuf};

use proctor_conformance::certify::Report;
use proctor_conformance::protocol::Profile;
use proctor_conformance::verify::{Received, parse_record, verify as verify_records};
use proctor_mocks::provider::journal::{JournalEntry, parse_journal};
use proctor_mocks::provider::{LlmRound, openai};

use crate::scenario::{Process, Scenario};

/// The most a record or a journal may hold: a long run records every byte, so more than other inputs.
const MAX_RECORD_BYTES: u64 = 256 * 1024 * 1024;

/// What a runtime left behind for verify to judge.
#[derive(Debug, Default)]
pub struct Evidence {
    /// Record files (`<plugin>.jsonl`), one per mock plugin at most.
    pub records: Vec<PathBuf>,
    /// The provider's journal, when the runtime talked to the mock provider.
    pub journal: Option<Vec<JournalEntry>>,
}

/// Input verify cannot use, with what to do about it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Reads records (files, or folders of `*.jsonl`) and a journal file.
pub fn read_evidence(records: &[PathBuf], journal: Option<&Path>) -> Result<Evidence, BadInput> {
    let mut files = Vec::new();
    for p in records {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| BadInput(format!("cannot read {}: {e}", p.display())))?;
            // The LLM journal `proctor run --record-dir` writes is not a plugin record.
            let before = files.len();
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|f| f.extension().is_some_and(|x| x == "jsonl") && !f.ends_with(crate::context::LLM_JOURNAL)),
            );
            // An empty folder judges nothing, unless the journal is what is judged.
            if files.len() == before && journal.is_none() {
                return Err(BadInput(format!(
                    "nothing to judge: no <plugin>.jsonl records in {}\nhint: run the mock plugins with --record {}/<plugin>.jsonl (or `proctor run --record-dir {}`)",
                    p.display(),
                    p.display(),
                    p.display()
                )));
            }
        } else if p.exists() {
            files.push(p.clone());
        } else {
            return Err(BadInput(format!("no record at {}", p.display())));
        }
    }
    // A mock writes its record and journal as files: a FIFO or a device holds no record of a run.
    for f in files.iter().map(PathBuf::as_path).chain(journal) {
        match std::fs::metadata(f) {
            Err(e) => return Err(BadInput(format!("cannot read {}: {e}", f.display()))),
            Ok(m) if !m.is_file() => {
                return Err(BadInput(format!("{} is not a regular file (a FIFO or a device?): give the file the mock wrote", f.display())));
            }
            Ok(_) => {}
        }
    }
    let journal = match journal {
        None => None,
        Some(path) => {
            let text = proctor_input::read_to_string(path, MAX_RECORD_BYTES).map_err(|e| BadInput(format!("journal {e}")))?;
            Some(parse_journal(&text).map_err(|e| BadInput(format!("{}: {e}", path.display())))?)
        }
    };
    Ok(Evidence { records: files, journal })
}

/// The profile a scenario's runtime is judged against: `profile` when given,
/// else the scenario's, else the runtime as implemented.
pub fn profile_for(scenario: &Scenario, profile: Option<&str>) -> Result<Profile, BadInput> {
    let family = scenario.runtime.family();
    match profile.or(scenario.profile.as_deref()) {
        None => Ok(Profile::for_family(family)[1]),
        Some(name) => Profile::parse(family, name).map_err(|e| BadInput(format!("--profile: {e}"))),
    }
}

/// Every runtime check on what the runtime sent, as a report.
pub fn verify(scenario: &Scenario, evidence: &Evidence, profile: Profile) -> Result<Report, BadInput> {
    let mut checks = Vec::new();
    let with_records = !evidence.records.is_empty();
    if with_records {
        let received = received(scenario, evidence)?;
        if received.is_empty() {
            return Err(BadInput("the scenario has no `process: {mock: …}` plugin to judge records against".into()));
        }
        checks.extend(verify_records(&received, profile));
        checks.extend(expected::expected_calls(scenario, &received, profile));
    }
    if let Some(journal) = &evidence.journal {
        checks.extend(llm::judge_journal(scenario, journal, profile));
        checks.extend(expected::expected_results(scenario, journal, profile));
    }
    checks.extend(late_reply::judge_late_replies(scenario, evidence.journal.as_deref(), profile));
    let runtime = format!("{:?}", scenario.runtime).to_lowercase();
    // What the verdict rests on: every line a mock plugin received, every LLM request.
    let mut judged = evidence.journal.as_ref().map_or(0, Vec::len);
    for f in &evidence.records {
        judged += proctor_input::read_to_string(f, MAX_RECORD_BYTES).map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count());
    }
    let report = Report::new(runtime, None, vec![profile.name().to_string()], Vec::new(), checks).with_exchanges(judged);
    let s = &report.summary;
    if s.passed + s.failed + s.warnings == 0 {
        return Err(BadInput(format!(
            "nothing was judged: every check was skipped ({} records, {} journal entries)\nhint: did the runtime run the scenario with proctor's mock plugins and provider?",
            evidence.records.len(),
            evidence.journal.as_ref().map_or(0, Vec::len)
        )));
    }
    Ok(report)
}

/// Each mock plugin's sessions, from its record file (none when the
/// runtime never started it).
fn received(scenario: &Scenario, evidence: &Evidence) -> Result<Vec<Received>, BadInput> {
    let mut out = Vec::new();
    for plugin in scenario.plugins.iter().filter(|p| matches!(p.process, Process::Mock(_))) {
        let (family, roles) = plugin.protocol();
        let file = evidence.records.iter().find(|f| f.file_stem().is_some_and(|s| s == plugin.name.as_str()));
        let sessions = match file {
            Some(f) => {
                let text = proctor_input::read_to_string(f, MAX_RECORD_BYTES).map_err(|e| BadInput(format!("record {e}")))?;
                parse_record(&text).map_err(|e| BadInput(format!("{}: {e}", f.display())))?
            }
            None => Vec::new(),
        };
        let calls_expected = Some(tool_calls_to(scenario, evidence.journal.as_deref(), &plugin.name));
        out.push(Received { plugin: plugin.name.clone(), family, roles, sessions, calls_expected });
    }
    // A record named after no mock plugin judges nothing, and the plugin it
    // was meant for would be judged as never started: the user's mistake.
    let mocks: Vec<&str> = scenario.plugins.iter().filter(|p| matches!(p.process, Process::Mock(_))).map(|p| p.name.as_str()).collect();
    if let Some(stray) = evidence.records.iter().find(|f| !f.file_stem().and_then(|s| s.to_str()).is_some_and(|s| mocks.contains(&s))) {
        return Err(BadInput(format!(
            "{}: no mock plugin of the scenario is named `{}`; its mock plugins: {}\nhint: a record is named after the plugin it records (--record DIR/<plugin>.jsonl)",
            stray.display(),
            stray.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default(),
            if mocks.is_empty() { "none".to_string() } else { mocks.join(", ") }
        )));
    }
    Ok(out)
}

/// How often the LLM called tool `name`: as the journal shows the runtime
/// was asked (the last request's history), else as the script says.
fn tool_calls_to(scenario: &Scenario, journal: Option<&[JournalEntry]>, name: &str) -> usize {
    let last_chat = journal.and_then(|j| j.iter().rev().find(|e| e.path == openai::CHAT_COMPLETIONS));
    if let Some(entry) = last_chat {
        let messages = entry.body.get("messages").and_then(serde_json::Value::as_array).cloned().unwrap_or_default();
        return messages
            .iter()
            .flat_map(|m| m.get("tool_calls").and_then(serde_json::Value::as_array).cloned().unwrap_or_default())
            .filter(|c| c.pointer("/function/name").and_then(serde_json::Value::as_str) == Some(name))
            .count();
    }
    scenario
        .llm
        .iter()
        .map(|round| match round {
            LlmRound::Reply(r) => r.tool_calls.iter().filter(|c| c.name == name).count(),
            _ => 0,
        })
        .sum()
}
