//! The certification report: the stable JSON contract of DESIGN.md, and the
//! data every other format (text, JUnit, Markdown) is rendered from.

use std::borrow::Cow;

use serde::Serialize;

use crate::check::{CheckId, Evidence, Group, Level, Outcome, Status, tolerance};
use crate::protocol::{Family, Profile};

/// The overall verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No `must` check failed.
    Conformant,
    /// At least one `must` check failed (or could not run).
    Nonconformant,
}

impl Verdict {
    /// The verdict of a run where a `must` check failed (or not).
    pub fn of(failed: bool) -> Verdict {
        if failed { Verdict::Nonconformant } else { Verdict::Conformant }
    }

    /// The lowercase name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Conformant => "conformant",
            Verdict::Nonconformant => "nonconformant",
        }
    }
}

/// Counts by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Checks that passed.
    pub passed: usize,
    /// `must` checks that failed.
    pub failed: usize,
    /// Checks that could not be judged because another failed first (the
    /// `must` ones fail the run too; the cause is among `failed`).
    pub untestable: usize,
    /// `should` checks that failed.
    pub warnings: usize,
    /// Checks skipped because the plugin does not claim what they need.
    pub skipped: usize,
    /// Failures the baseline lists as known (they do not fail the run).
    pub expected_failures: usize,
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
    /// The spec passage or runtime behaviour protected: in a report, only the citations that hold
    /// for the report's family (see [`crate::check::spec_for`]).
    pub spec: Cow<'static, str>,
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
    /// The tolerance that turned this failure into a warning: a documented
    /// rule the profile's runtime does not enforce.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerated: Option<&'static str>,
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
    /// The flags that shaped the run (cases, fuzzing, deadline, environment,
    /// requirements), so the header can be pasted to run it again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// `conformant` exactly when no `must` check failed under any profile.
    pub verdict: Verdict,
    /// The verdict under each profile, in run order: does the plugin follow
    /// the documents, and does it work in each runtime as implemented today.
    #[serde(serialize_with = "verdict_map")]
    pub profile_verdicts: Vec<(String, Verdict)>,
    /// The profiles whose verdict rests on the protocol alone: the run could
    /// have asked `--cases` of the plugin there and asked none, so what the
    /// plugin decides (allow or deny, this result or that) was not judged.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decisions_not_judged: Vec<String>,
    /// Counts.
    pub summary: Summary,
    /// What was selected when not every check was (`--check`, `--skip-check`,
    /// `--strict`), in words for the header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<String>,
    /// Notes for the reader about how the plugin was run (the environment a
    /// runtime gave it, say), printed under the header.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Baseline entries that no longer match a failure: each fails the run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stale_baseline: Vec<String>,
    /// Every check result, grouped by profile, in catalogue order.
    pub checks: Vec<CheckResult>,
}

impl Report {
    /// Builds a report, deriving the verdict and the summary from the checks.
    /// A failure a runtime's profile tolerates (see [`tolerance`]) becomes a
    /// warning under that profile, saying what the runtime does instead.
    pub fn new(protocol: String, role: Option<String>, profiles: Vec<String>, command: Vec<String>, mut checks: Vec<CheckResult>) -> Self {
        let family = protocol.parse::<Family>().ok();
        for c in &mut checks {
            c.tolerate();
            if let (Some(family), Cow::Borrowed(spec)) = (family, &c.spec) {
                c.spec = crate::check::spec_for(spec, family);
            }
        }
        explain_partings(&mut checks, &protocol, role.as_deref());
        let mut report = Report {
            proctor_version: env!("CARGO_PKG_VERSION"),
            title: None,
            protocol,
            role,
            profiles,
            command,
            options: Vec::new(),
            verdict: Verdict::Conformant,
            profile_verdicts: Vec::new(),
            decisions_not_judged: Vec::new(),
            summary: Summary::default(),
            selection: None,
            notes: Vec::new(),
            stale_baseline: Vec::new(),
            checks,
        };
        report.recount();
        report
    }

    /// Derives the summary and the verdicts from the checks again, after a
    /// selection, `--strict` or a baseline changed them. A stale baseline
    /// entry fails the run like a failed check.
    pub fn recount(&mut self) {
        let exchanges = self.summary.exchanges;
        let mut summary = Summary { exchanges, ..Summary::default() };
        for c in &self.checks {
            match c.status {
                Status::Pass => summary.passed += 1,
                Status::Fail => summary.failed += 1,
                Status::Untestable => summary.untestable += 1,
                Status::Warn => summary.warnings += 1,
                Status::Skip => summary.skipped += 1,
                Status::ExpectedFailure => summary.expected_failures += 1,
            }
        }
        let checks = &self.checks;
        self.profile_verdicts =
            self.profiles.iter().map(|p| (p.clone(), Verdict::of(checks.iter().any(|c| &c.profile == p && c.is_blocking())))).collect();
        self.verdict = Verdict::of(checks.iter().any(CheckResult::is_blocking) || !self.stale_baseline.is_empty());
        self.summary = summary;
        // A run with a CASE-DECISION row could have judged decisions: it did
        // where a case was asked.
        let asked = |p: &str, case: bool| checks.iter().any(|c| c.id == "CASE-DECISION" && c.profile == p && c.case.is_some() == case);
        self.decisions_not_judged = self.profiles.iter().filter(|p| asked(p, false) && !asked(p, true)).cloned().collect();
    }

    /// Keeps only the checks `keep` selects, saying so in the header.
    pub fn select(&mut self, keep: impl Fn(&str) -> bool, described: String) {
        self.checks.retain(|c| keep(c.id));
        self.selection = Some(described);
        self.recount();
    }

    /// `--strict`: a failed `should` check fails the run. A tolerated failure
    /// stays a warning: the runtime really does accept it.
    pub fn make_strict(&mut self) {
        for c in &mut self.checks {
            if c.status == Status::Warn && c.tolerated.is_none() {
                c.status = Status::Fail;
            }
        }
        self.recount();
    }

    /// The verdict in words, per profile: "works with runok@0.3.1 today;
    /// breaks the documented protocol: JSONRPC-ID-ECHO".
    pub fn verdict_sentence(&self) -> String {
        // Root causes only: a check another failure kept from running is not one.
        let failing = |profile: &str| {
            let of = |status: Status| self.ids(|c| c.profile == profile && c.status == status && c.is_blocking());
            match of(Status::Fail).as_slice() {
                [] => format!("{} (untestable: the run ended before them)", of(Status::Untestable).join(", ")),
                ids => ids.join(", "),
            }
        };
        // Green only because a baseline accepts failures is not a pass: said so.
        let but = |profile: &str| match self.accepted(Some(profile)).as_slice() {
            [] => String::new(),
            ids => format!(" only with {} (baseline): {}", accepted_failures(ids.len()), ids.join(", ")),
        };
        // The runtimes first: "does it work where I deploy it" is the first question.
        let mut ordered: Vec<&(String, Verdict)> = self.profile_verdicts.iter().collect();
        ordered.sort_by_key(|(profile, _)| profile == "documented");
        let parts: Vec<String> = ordered
            .into_iter()
            .map(|(profile, verdict)| match (profile.as_str(), verdict) {
                ("documented", Verdict::Conformant) => format!("follows the documented protocol{}", but(profile)),
                ("documented", Verdict::Nonconformant) => format!("breaks the documented protocol: {}", failing(profile)),
                // Without cases only the protocol was judged: claimed as such.
                (runtime, Verdict::Conformant) if self.decisions_not_judged.iter().any(|p| p == runtime) => format!(
                    "speaks {runtime}'s protocol{}; its decisions were not judged (no --cases: `proctor init` writes a cases file)",
                    but(runtime)
                ),
                (runtime, Verdict::Conformant) => format!("works with {runtime} today{}", but(runtime)),
                (runtime, Verdict::Nonconformant) => format!("fails with {runtime}: {}", failing(runtime)),
            })
            .collect();
        parts.join("; ")
    }

    /// The ids of the failures a baseline accepted, under `profile` (under
    /// every profile with `None`), each once.
    pub fn accepted(&self, profile: Option<&str>) -> Vec<&'static str> {
        self.ids(|c| c.status == Status::ExpectedFailure && profile.is_none_or(|p| c.profile == p))
    }

    /// The ids of the results `keep` selects, each once, in report order.
    fn ids(&self, keep: impl Fn(&CheckResult) -> bool) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        for c in self.checks.iter().filter(|c| keep(c)) {
            if !ids.contains(&c.id) {
                ids.push(c.id);
            }
        }
        ids
    }

    /// The verdict in words: `conformant`, `nonconformant`, or, for a run
    /// green only because its baseline accepts failures, `conformant with N
    /// accepted failures`, never the words of a clean pass.
    pub fn verdict_words(&self) -> String {
        match (self.verdict, self.summary.expected_failures) {
            (Verdict::Conformant, n @ 1..) => format!("conformant with {}", accepted_failures(n)),
            (verdict, _) => verdict.name().to_string(),
        }
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

/// "1 accepted failure", "3 accepted failures".
fn accepted_failures(n: usize) -> String {
    format!("{n} accepted failure{}", if n == 1 { "" } else { "s" })
}

/// Appends to each result that failed under a runtime's profile, where the
/// same check (and case) passed under `documented`, the runtime facts that
/// can part them. A tolerated failure already says what the runtime does.
fn explain_partings(checks: &mut [CheckResult], family: &str, role: Option<&str>) {
    let passed_documented: Vec<(CheckId, Option<String>)> =
        checks.iter().filter(|c| c.profile == "documented" && c.status == Status::Pass).map(|c| (c.id, c.case.clone())).collect();
    for c in checks.iter_mut().filter(|c| c.profile != "documented" && c.status == Status::Fail && c.tolerated.is_none()) {
        if !passed_documented.contains(&(c.id, c.case.clone())) {
            continue;
        }
        let facts: Vec<String> = super::parting::divergences_for(&c.profile, family, role, c.id)
            .iter()
            .map(|d| format!("{} ({}: {})", d.summary, d.id, d.source))
            .collect();
        if !facts.is_empty() {
            c.message = format!("{}\nwhy {} parts from the documents here: {}", c.message, c.profile, facts.join("; "));
        }
    }
}

/// Serialises the per-profile verdicts as a JSON object in run order.
fn verdict_map<S: serde::Serializer>(verdicts: &[(String, Verdict)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(verdicts.len()))?;
    for (profile, verdict) in verdicts {
        map.serialize_entry(profile, verdict)?;
    }
    map.end()
}

impl CheckResult {
    /// Downgrades a failure the profile's runtime does not enforce to a
    /// warning that says what the runtime does with the violation.
    fn tolerate(&mut self) {
        let (Status::Fail, Outcome::Fail { failure }) = (self.status, &self.detail) else { return };
        let Some(profile) = Profile::from_name(&self.profile) else { return };
        if let Some(t) = tolerance::tolerated(profile, self.id, failure) {
            self.status = Status::Warn;
            self.tolerated = Some(t.id);
            self.message = format!("{} (tolerated: {})", self.message, t.runtime_does);
        }
    }

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
            spec: Cow::Borrowed(def.spec),
            message,
            profile: profile.to_string(),
            group: def.group,
            case,
            hint,
            tolerated: None,
            detail: outcome,
            evidence,
        }
    }

    /// Whether this result counts against the verdict.
    pub fn is_blocking(&self) -> bool {
        self.status == Status::Fail || (self.status == Status::Untestable && self.level == Level::Must)
    }

    /// Whether the outcome is a real failure rather than untestable.
    pub fn is_untestable(&self) -> bool {
        matches!(self.detail, Outcome::Untestable { .. })
    }
}
