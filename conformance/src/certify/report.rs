//! The certification report: the stable JSON contract of DESIGN.md, and the
//! data every other format (text, JUnit, Markdown) is rendered from.

use serde::Serialize;

use crate::check::{CheckId, Evidence, Group, Level, Outcome, Status};

/// The overall verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No `must` check failed.
    Conformant,
    /// At least one `must` check failed (or could not run).
    Nonconformant,
}

/// Counts by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Checks that passed.
    pub passed: usize,
    /// `must` checks that failed.
    pub failed: usize,
    /// `should` checks that failed.
    pub warnings: usize,
    /// Checks skipped because the plugin does not claim what they need.
    pub skipped: usize,
    /// Exchanges with the plugin (or, for verify, records and journal
    /// entries) the verdict rests on. Never 0 in a report that passed.
    pub exchanges: usize,
}

/// One check's result under one profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckResult {
    /// Stable check id.
    pub id: CheckId,
    /// `must` or `should`.
    pub level: Level,
    /// `pass`, `fail`, `warn` or `skip`.
    pub status: Status,
    /// The spec passage or runtime behaviour protected.
    pub spec: &'static str,
    /// One line for people.
    pub message: String,
    /// The profile this result was obtained under.
    pub profile: String,
    /// Report group.
    pub group: Group,
    /// The `--cases` case this result belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// The fix, when the check did not pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<&'static str>,
    /// The typed outcome behind `status` and `message`.
    pub detail: Outcome,
    /// The bytes that prove it.
    pub evidence: Evidence,
}

/// A whole certification.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// proctor's version.
    pub proctor_version: &'static str,
    /// What produced the report, when it is not `proctor certify`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `--protocol`.
    pub protocol: String,
    /// `--role`, when given or implied.
    pub role: Option<String>,
    /// Profiles run, in order.
    pub profiles: Vec<String>,
    /// The plugin's argv.
    pub command: Vec<String>,
    /// `conformant` exactly when no `must` check failed.
    pub verdict: Verdict,
    /// Counts.
    pub summary: Summary,
    /// Every check result, grouped by profile, in catalogue order.
    pub checks: Vec<CheckResult>,
}

impl Report {
    /// Builds a report, deriving the verdict and the summary from the checks.
    pub fn new(protocol: String, role: Option<String>, profiles: Vec<String>, command: Vec<String>, checks: Vec<CheckResult>) -> Self {
        let mut summary = Summary::default();
        for c in &checks {
            match c.status {
                Status::Pass => summary.passed += 1,
                Status::Fail => summary.failed += 1,
                Status::Warn => summary.warnings += 1,
                Status::Skip => summary.skipped += 1,
            }
        }
        let verdict = if summary.failed == 0 { Verdict::Conformant } else { Verdict::Nonconformant };
        Report { proctor_version: env!("CARGO_PKG_VERSION"), title: None, protocol, role, profiles, command, verdict, summary, checks }
    }

    /// States how many exchanges the verdict rests on.
    pub fn with_exchanges(mut self, exchanges: usize) -> Self {
        self.summary.exchanges = exchanges;
        self
    }

    /// The results that did not pass (fail or warn), in order.
    pub fn problems(&self) -> impl Iterator<Item = &CheckResult> {
        self.checks.iter().filter(|c| matches!(c.status, Status::Fail | Status::Warn))
    }
}

impl CheckResult {
    /// The result of check `def` under `profile`, for `case` (a `--cases`
    /// case, or for runtime checks the plugin the runtime talked to).
    pub fn new(def: &'static crate::check::CheckDef, profile: &str, case: Option<String>, outcome: Outcome, evidence: Evidence) -> Self {
        let message = match (&outcome, &case) {
            (Outcome::Pass, None) => def.summary.to_string(),
            (outcome, Some(case)) => {
                let what = if def.group == crate::check::Group::Runtime { "plugin" } else { "case" };
                format!("{what} `{case}`: {}", outcome.describe())
            }
            (outcome, None) => outcome.describe(),
        };
        let hint = (!matches!(outcome, Outcome::Pass | Outcome::Skip { .. })).then_some(def.hint);
        CheckResult {
            id: def.id,
            level: def.level,
            status: outcome.status(def.level),
            spec: def.spec,
            message,
            profile: profile.to_string(),
            group: def.group,
            case,
            hint,
            detail: outcome,
            evidence,
        }
    }

    /// Whether this result counts against the verdict.
    pub fn is_blocking(&self) -> bool {
        self.status == Status::Fail
    }

    /// Whether the outcome is a real failure rather than untestable.
    pub fn is_untestable(&self) -> bool {
        matches!(self.detail, Outcome::Untestable { .. })
    }
}
