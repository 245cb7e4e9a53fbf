//! The world a coding agent gives its command hooks, rebuilt for each run.
//!
//! A hook is more than its stdin: it runs in the session's working
//! directory, may read the transcript the payload points at, finds
//! `CLAUDE_PROJECT_DIR` in its environment, and may keep state per
//! `session_id`. A certify run that hands every probe the same made-up
//! session, a `cwd` and a `transcript_path` that are not on disk, calls a
//! well-written hook broken that both agents run as meant. So each run gets
//! a world as the profile's agent builds it (measured with interop/agents):
//!
//! - the hook runs in the project folder (`--cwd`, else proctor's own), which
//!   is also the payload's `cwd`;
//! - each request is a session of its own, with a fresh id in the agent's
//!   format (Claude Code: UUID v4; Codex: UUID v7), unless a case sets one;
//! - `transcript_path` names a file in the agent's own layout and format, in
//!   a folder of the run's; Claude Code writes it only once the first prompt
//!   of a new session is on its way, so it does not exist yet for
//!   `SessionStart` or `UserPromptSubmit` under its profile;
//! - Claude Code sets `CLAUDE_PROJECT_DIR` (its reference documents it), and
//!   2.1.332 a dozen more (`CLAUDECODE=1`, `CLAUDE_CODE_SESSION_ID` per
//!   session, `CLAUDE_ENV_FILE` on `SessionStart`, `CLAUDE_EFFORT` on tool
//!   and stop events …); Codex's npm launcher adds `CODEX_MANAGED_BY_NPM`
//!   and `CODEX_MANAGED_PACKAGE_ROOT`, and Codex itself nothing for hooks.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::protocol::Profile;
use crate::protocol::agent_hook::{Agent, HookEvent};

/// One certify run's world for an agent's hooks.
pub(super) struct World {
    agent: Agent,
    profile: Profile,
    /// The project folder: the hook's working directory and the payload's `cwd`.
    project: PathBuf,
    /// The agent's own folder (its transcripts), removed with the run.
    home: tempfile::TempDir,
    /// Random bits of this run, from which every session id is derived.
    seed: [u8; 16],
    /// When the run started, in seconds since the epoch (Codex's file names, UUID v7).
    started: u64,
}

/// The world could not be built (no temporary folder, say): the run cannot be judged.
#[derive(Debug, thiserror::Error)]
#[error("could not build the hook's world: {0}")]
pub struct WorldError(#[from] std::io::Error);

impl World {
    /// A fresh world for `agent` under `profile`, its project in `cwd` (else the current folder).
    pub(super) fn new(agent: Agent, profile: Profile, cwd: Option<&Path>) -> Result<World, WorldError> {
        let project = match cwd {
            Some(dir) => dir.to_path_buf(),
            None => std::env::current_dir()?,
        };
        let project = std::fs::canonicalize(&project).unwrap_or(project);
        let home = tempfile::Builder::new().prefix("proctor-agent-").tempdir()?;
        let mut seed = [0u8; 16];
        if std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut seed)).is_err() {
            // No urandom: the clock and the pid still make runs differ.
            let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
            seed[..16].copy_from_slice(&(nanos ^ u128::from(std::process::id())).to_le_bytes());
        }
        let started = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Ok(World { agent, profile, project, home, seed, started })
    }

    /// The project folder the hook runs in.
    pub(super) fn project(&self) -> &Path {
        &self.project
    }

    /// The variables the agent adds to a hook's environment for the whole run
    /// (measured with interop/agents; held by `interop/fidelity.sh --only world`).
    pub(super) fn env(&self, event: HookEvent) -> Vec<(String, String)> {
        let project = self.project.display().to_string();
        let home = self.home.path();
        let var = |k: &str, v: String| (k.to_string(), v);
        match (self.agent, self.profile) {
            (Agent::ClaudeCode, Profile::Documented) => vec![var("CLAUDE_PROJECT_DIR", project)],
            (Agent::ClaudeCode, _) => {
                let token: String = self.seed.iter().map(|b| format!("{b:02x}")).collect();
                let pid = std::process::id();
                let mut env = vec![
                    var("CLAUDE_PROJECT_DIR", project),
                    var("CLAUDECODE", "1".into()),
                    var("CLAUDE_CODE_ENTRYPOINT", "sdk-cli".into()),
                    var("CLAUDE_CODE_CHILD_SESSION", "1".into()),
                    var("CLAUDE_CODE_SESSION_ATTENDED", "0".into()),
                    var("CLAUDE_PID", pid.to_string()),
                    var("CLAUDE_CODE_MESSAGING_SOCKET", home.join("cc-socks").join(format!("{pid}.sock")).display().to_string()),
                    var("CLAUDE_CODE_MESSAGING_TOKEN", token),
                ];
                if matches!(event, HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::Stop) {
                    env.push(var("CLAUDE_EFFORT", "medium".into()));
                }
                env
            }
            // Codex's npm launcher (codex.js) adds these; the binary itself adds nothing for hooks.
            (Agent::Codex, Profile::Codex0171) => vec![
                var("CODEX_MANAGED_BY_NPM", "1".into()),
                var("CODEX_MANAGED_PACKAGE_ROOT", home.join("node_modules").join("@openai").join("codex").display().to_string()),
            ],
            (Agent::Codex, _) => Vec::new(),
        }
    }

    /// The variables Claude Code 2.1.332 sets per session, read from the
    /// `session_id` of the document it writes.
    pub(super) fn session_env(&self, event: HookEvent) -> Option<super::prefetch::EnvFor> {
        if (self.agent, self.profile) != (Agent::ClaudeCode, Profile::ClaudeCode21332) {
            return None;
        }
        let (home, slug) = (self.home.path().to_path_buf(), slug(&self.project));
        Some(std::sync::Arc::new(move |sent: &[u8]| {
            let doc: Value = serde_json::from_slice(sent).unwrap_or(Value::Null);
            let Some(id) = doc.get("session_id").and_then(Value::as_str) else { return Vec::new() };
            let mut env = vec![
                ("CLAUDE_CODE_SESSION_ID".to_string(), id.to_string()),
                (
                    "CLAUDE_CODE_CHILD_NOTES_DIR".to_string(),
                    home.join("claude-0").join(&slug).join(id).join("started").display().to_string(),
                ),
            ];
            if event == HookEvent::SessionStart {
                let file = home.join(".claude").join("session-env").join(id).join("sessionstart-hook-0.sh");
                env.push(("CLAUDE_ENV_FILE".to_string(), file.display().to_string()));
            }
            env
        }))
    }

    /// Session `slot` of the run: the identity fields of its payload (a
    /// case's own `session_id` or `transcript_path` is laid over them), with
    /// the transcript written where the agent would have written it by then.
    pub(super) fn session(&self, event: HookEvent, slot: usize) -> Result<Value, WorldError> {
        let id = self.session_id(slot);
        let cwd = self.project.display().to_string();
        let transcript = self.transcript_path(&id);
        let written_yet = !(self.agent == Agent::ClaudeCode
            && self.profile != Profile::Documented
            && matches!(event, HookEvent::SessionStart | HookEvent::UserPromptSubmit));
        if written_yet {
            if let Some(dir) = transcript.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&transcript, self.transcript(&id, &cwd))?;
        }
        Ok(json!({"session_id": id, "transcript_path": transcript.display().to_string(), "cwd": cwd}))
    }

    /// The session id of `slot`, in the agent's format: Claude Code a UUID
    /// v4, Codex a UUID v7 (time-ordered), both fresh per run.
    fn session_id(&self, slot: usize) -> String {
        let mut b = self.seed;
        for (i, byte) in (slot as u64).to_le_bytes().iter().enumerate() {
            b[8 + i] ^= *byte;
            b[i] = b[i].wrapping_add(byte.rotate_left(3));
        }
        match self.agent {
            Agent::ClaudeCode => b[6] = 0x40 | (b[6] & 0x0f),
            Agent::Codex => {
                let ms = (self.started * 1000 + slot as u64).to_be_bytes();
                b[..6].copy_from_slice(&ms[2..]);
                b[6] = 0x70 | (b[6] & 0x0f);
            }
        }
        b[8] = 0x80 | (b[8] & 0x3f);
        let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
        format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
    }

    /// Where the agent keeps the transcript of session `id`.
    fn transcript_path(&self, id: &str) -> PathBuf {
        let home = self.home.path();
        match self.agent {
            // `projects/<the project's path, / and _ as ->/<id>.jsonl`
            Agent::ClaudeCode => home.join(".claude").join("projects").join(slug(&self.project)).join(format!("{id}.jsonl")),
            Agent::Codex => {
                let (date, time) = civil(self.started);
                let day = date.replace('-', "/");
                home.join(".codex").join("sessions").join(day).join(format!("rollout-{date}T{}-{id}.jsonl", time.replace(':', "-")))
            }
        }
    }

    /// A short transcript in the agent's own format (JSON lines).
    fn transcript(&self, id: &str, cwd: &str) -> String {
        let (date, time) = civil(self.started);
        let at = format!("{date}T{time}.000Z");
        let lines = match self.agent {
            Agent::ClaudeCode => vec![
                json!({"type": "queue-operation", "operation": "enqueue", "timestamp": at, "sessionId": id, "content": "list the files"}),
                json!({"type": "user", "sessionId": id, "uuid": "00000000-0000-4000-8000-000000000001", "parentUuid": null,
                       "timestamp": at, "cwd": cwd, "isSidechain": false, "userType": "external",
                       "message": {"role": "user", "content": "list the files"}}),
                json!({"type": "assistant", "sessionId": id, "uuid": "00000000-0000-4000-8000-000000000002",
                       "parentUuid": "00000000-0000-4000-8000-000000000001", "timestamp": at, "cwd": cwd, "isSidechain": false,
                       "message": {"role": "assistant", "content": [{"type": "text", "text": "Listing them."}]}}),
            ],
            Agent::Codex => vec![
                json!({"timestamp": at, "ordinal": 0, "type": "session_meta", "payload": {"id": id, "session_id": id, "timestamp": at, "cwd": cwd, "originator": "codex_exec"}}),
                json!({"timestamp": at, "ordinal": 1, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list the files"}]}}),
            ],
        };
        lines.iter().map(|l| format!("{l}\n")).collect()
    }
}

/// Claude Code's name for a project folder: its path with `/` and `_` as `-`.
fn slug(project: &Path) -> String {
    project.display().to_string().chars().map(|c| if c == '/' || c == '_' { '-' } else { c }).collect()
}

/// `(YYYY-MM-DD, HH:MM:SS)` in UTC for `secs` since the epoch (the civil
/// calendar from a day count, after Howard Hinnant's `civil_from_days`).
fn civil(secs: u64) -> (String, String) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (format!("{year:04}-{month:02}-{day:02}"), format!("{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calendar_is_right() {
        assert_eq!(civil(0), ("1970-01-01".into(), "00:00:00".into()));
        assert_eq!(civil(1_795_830_330), ("2026-11-28".into(), "01:45:30".into()));
        assert_eq!(civil(951_782_400), ("2000-02-29".into(), "00:00:00".into()));
    }

    #[test]
    fn sessions_are_fresh_and_in_the_agents_format() {
        let dir = tempfile::tempdir().unwrap();
        let claude = World::new(Agent::ClaudeCode, Profile::ClaudeCode21332, Some(dir.path())).unwrap();
        let codex = World::new(Agent::Codex, Profile::Codex0171, Some(dir.path())).unwrap();
        let (a, b) = (claude.session_id(0), claude.session_id(1));
        assert_ne!(a, b);
        assert_ne!(a, World::new(Agent::ClaudeCode, Profile::ClaudeCode21332, Some(dir.path())).unwrap().session_id(0), "fresh per run");
        assert_eq!(&a[14..15], "4", "{a}");
        assert_eq!(&codex.session_id(0)[14..15], "7");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");

        // Claude Code has no transcript yet when the first prompt of a session is submitted.
        let first = claude.session(HookEvent::UserPromptSubmit, 0).unwrap();
        assert!(!Path::new(first["transcript_path"].as_str().unwrap()).exists());
        let tool = claude.session(HookEvent::PreToolUse, 1).unwrap();
        let text = std::fs::read_to_string(tool["transcript_path"].as_str().unwrap()).unwrap();
        assert!(text.lines().all(|l| serde_json::from_str::<Value>(l).unwrap()["sessionId"] == tool["session_id"]), "{text}");
        assert_eq!(tool["cwd"], json!(std::fs::canonicalize(dir.path()).unwrap().display().to_string()));
        let start = codex.session(HookEvent::SessionStart, 0).unwrap();
        assert!(Path::new(start["transcript_path"].as_str().unwrap()).exists(), "Codex writes it from the start");
    }
}
