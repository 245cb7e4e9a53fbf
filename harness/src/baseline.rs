//! Baselines: the failures an author has accepted for now.
//!
//! A plugin author certifies by hand once, then wants the same run in CI:
//! fail on a regression, not on a gap they know about. `--baseline FILE`
//! lists those gaps; each listed failure is reported as an expected failure
//! and does not fail the run. A listed check that passes again fails the run
//! as stale, naming the line to delete, so a baseline never silently outlives
//! the gap it excused. `--write-baseline FILE` writes one from a run.

use std::path::{Path, PathBuf};

use proctor_conformance::certify::Report;
use proctor_conformance::check::{Status, lookup};
use proctor_conformance::protocol::Profile;
use serde::Deserialize;

/// A baseline file, read.
#[derive(Debug, Clone)]
pub struct Baseline {
    path: PathBuf,
    entries: Vec<Entry>,
}

/// One accepted failure, with the line it is written on: a check under a
/// profile (certify, verify) or a scenario (run).
#[derive(Debug, Clone)]
struct Entry {
    target: Target,
    case: Option<String>,
    reason: String,
    line: u64,
}

#[derive(Debug, Clone, PartialEq)]
enum Target {
    Check { check: String, profile: String },
    Scenario(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File<T> {
    expected_failures: Vec<T>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    #[serde(default)]
    check: Option<String>,
    #[serde(default)]
    profile: Option<String>,
    #[serde(default)]
    scenario: Option<String>,
    #[serde(default)]
    case: Option<String>,
    reason: String,
}

/// The first lines of a written baseline.
const HEADER: &str = "# proctor baseline: failures accepted for now. Each is reported as an expected failure and does not\n# fail the run; an entry whose check or scenario passes again fails the run as stale (delete it then).\nexpected_failures:";

/// A baseline that cannot be used: the author's mistake, exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BaselineError(pub String);

/// What a baseline lists: check failures (certify, verify) or failing scenarios (run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `{check, profile, reason}` entries.
    Checks,
    /// `{scenario, reason}` entries.
    Scenarios,
}

impl Kind {
    fn shape(self) -> &'static str {
        match self {
            Kind::Checks => "{check, profile, reason} (certify, verify)",
            Kind::Scenarios => "{scenario, reason} (run)",
        }
    }
}

impl Baseline {
    /// Reads and validates a baseline of `kind`: every check id and profile must
    /// exist, and an entry of the other kind is refused (it would excuse nothing).
    /// An entry whose reason is still the placeholder `--write-baseline`
    /// wrote is refused: accepting a failure is a decision someone explains.
    pub fn load(path: &Path, kind: Kind) -> Result<Baseline, BaselineError> {
        let baseline = Baseline::read(path, kind)?;
        match baseline.entries.iter().find(|e| e.reason == TODO) {
            Some(e) => Err(BaselineError(format!(
                "{}:{}: `reason` is still the placeholder --write-baseline wrote ({TODO:?}); replace it with why this failure is accepted for now",
                path.display(),
                e.line
            ))),
            None => Ok(baseline),
        }
    }

    /// Reads and validates a baseline of `kind`, placeholders and all.
    fn read(path: &Path, kind: Kind) -> Result<Baseline, BaselineError> {
        let text = proctor_input::read_to_string(path, proctor_input::MAX_BYTES).map_err(|e| BaselineError(format!("baseline {e}")))?;
        let name = path.display().to_string();
        let file: File<serde_saphyr::Spanned<Written>> = serde_saphyr::from_str_with_options(&text, serde_saphyr::options! { strict_booleans: true }).map_err(|e| {
            BaselineError(format!(
                "invalid baseline {}\nhint: a baseline is `expected_failures:` followed by a list of {} (write one with --write-baseline FILE)",
                proctor_input::yaml_message(&e.render_with_options(serde_saphyr::render_options! { source_name: Some(name.as_str()) }), &name),
                kind.shape()
            ))
        })?;
        let mut entries = Vec::new();
        for spanned in file.expected_failures {
            let (line, column) = (spanned.referenced.line(), spanned.referenced.column());
            let w = spanned.value;
            let at = format!("{name}:{line}:{column}");
            let target = match (w.check, w.profile, w.scenario) {
                (Some(check), Some(profile), None) => {
                    if lookup(&check).is_none() {
                        return Err(BaselineError(format!("{at}: no check `{check}`; `proctor checks` lists them")));
                    }
                    if Profile::from_name(&profile).is_none() {
                        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
                        return Err(BaselineError(format!("{at}: no profile `{profile}`; use one of: {}", names.join(", "))));
                    }
                    Target::Check { check, profile }
                }
                (None, None, Some(id)) => Target::Scenario(id),
                _ => {
                    return Err(BaselineError(format!(
                        "{at}: an entry names either `check` and `profile` (certify, verify) or `scenario` (run)"
                    )));
                }
            };
            let fits = matches!((&target, kind), (Target::Check { .. }, Kind::Checks) | (Target::Scenario(_), Kind::Scenarios));
            if !fits {
                return Err(BaselineError(format!(
                    "{at}: this command's baseline lists {}; this entry is of the other kind",
                    kind.shape()
                )));
            }
            if w.reason.trim().is_empty() {
                return Err(BaselineError(format!("{at}: `reason` is empty; say why this failure is accepted")));
            }
            entries.push(Entry { target, case: w.case, reason: w.reason, line });
        }
        Ok(Baseline { path: path.to_path_buf(), entries })
    }

    /// What `--write-baseline FILE` is about to rewrite: the baseline FILE holds,
    /// whose reasons the new one keeps (as `--baseline FILE --write-baseline FILE`
    /// does), or `None` when FILE is new, empty or not a file. A file holding
    /// anything else is refused: rewriting it would destroy it.
    pub fn previous(path: &Path, kind: Kind) -> Result<Option<Baseline>, BaselineError> {
        match std::fs::metadata(path) {
            // Placeholders are kept as they are: rewriting is how they get written.
            Ok(m) if m.is_file() && m.len() > 0 => Baseline::read(path, kind).map(Some).map_err(|e| {
                BaselineError(format!(
                    "--write-baseline {} holds something that is not a baseline of this command, which writing would destroy:\n{e}",
                    path.display()
                ))
            }),
            _ => Ok(None),
        }
    }

    /// Marks the listed failures as expected and records each entry that no
    /// longer matches a failure as stale; then recounts the verdict.
    pub fn apply(&self, report: &mut Report) {
        let file = self.path.display();
        for e in &self.entries {
            let Target::Check { check, profile } = &e.target else { continue };
            let matches = |c: &&mut proctor_conformance::certify::CheckResult| {
                c.id == check && c.profile == *profile && (e.case.is_none() || c.case == e.case)
            };
            let mut judged = 0;
            let mut failing = 0;
            for c in report.checks.iter_mut().filter(matches) {
                judged += 1;
                if matches!(c.status, Status::Fail | Status::Untestable) {
                    failing += 1;
                    c.status = Status::ExpectedFailure;
                    c.message = format!("expected failure ({file}:{}: {}): {}", e.line, e.reason, c.message);
                }
            }
            if judged > 0 && failing == 0 {
                report.stale_baseline.push(format!(
                    "stale baseline entry {file}:{}: {} under {} no longer fails; delete that entry",
                    e.line, check, profile
                ));
            }
        }
        report.recount();
    }

    /// Marks listed failing scenarios as expected failures; returns one line
    /// per stale entry (a listed scenario that passed).
    pub fn apply_to_scenarios(&self, results: &mut [crate::runner::RunResult]) -> Vec<String> {
        let file = self.path.display();
        let mut stale = Vec::new();
        for e in &self.entries {
            let Target::Scenario(id) = &e.target else { continue };
            let Some(r) = results.iter_mut().find(|r| r.id == *id) else { continue };
            if r.passed() {
                stale.push(format!("stale baseline entry {file}:{}: scenario {id} no longer fails; delete that entry", e.line));
            } else if !r.unusable {
                r.expected_failure = Some(format!("{file}:{}: {}", e.line, e.reason));
            }
        }
        stale
    }

    /// The YAML of a baseline accepting every failing scenario of a run,
    /// keeping the entries (and their reasons) of `previous` that still apply.
    pub fn write_scenarios(results: &[crate::runner::RunResult], previous: Option<&Baseline>) -> String {
        let failing: Vec<_> = results.iter().filter(|r| !r.passed() && !r.unusable).collect();
        let covers = |e: &Entry, r: &crate::runner::RunResult| e.target == Target::Scenario(r.id.clone());
        let kept = kept_entries(previous, |e| failing.iter().any(|r| covers(e, r)));
        let new = failing
            .iter()
            .filter(|r| !kept.iter().any(|e| covers(e, r)))
            .map(|r| format!("{{scenario: {}, reason: {}}}", quote(&r.id), quote(TODO)));
        yaml(kept.iter().map(|e| e.yaml()).chain(new))
    }

    /// The YAML of a baseline accepting every failure of `report`, keeping
    /// the entries (and their reasons) of `previous` that still apply, so
    /// `--baseline X --write-baseline X` never wipes what the author wrote.
    pub fn write(report: &Report, previous: Option<&Baseline>) -> String {
        let failing: Vec<_> =
            report.checks.iter().filter(|c| matches!(c.status, Status::Fail | Status::Untestable | Status::ExpectedFailure)).collect();
        let kept = kept_entries(previous, |e| failing.iter().any(|c| e.covers(c)));
        let new = failing.iter().filter(|c| !kept.iter().any(|e| e.covers(c))).map(|c| {
            let case = c.case.as_deref().map(|n| format!(", case: {}", quote(n))).unwrap_or_default();
            format!("{{check: {}, profile: {}{case}, reason: {}}}", c.id, quote(&c.profile), quote(TODO))
        });
        yaml(kept.iter().map(|e| e.yaml()).chain(new))
    }
}

/// The reason a freshly accepted failure is written with.
const TODO: &str = "TODO: why this failure is accepted for now";

/// Strings are written JSON-quoted, which YAML reads as double-quoted scalars.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn kept_entries(previous: Option<&Baseline>, applies: impl Fn(&Entry) -> bool) -> Vec<&Entry> {
    previous.map(|b| b.entries.iter().filter(|e| applies(e)).collect()).unwrap_or_default()
}

/// A baseline file from its entries, one per line.
fn yaml(entries: impl Iterator<Item = String>) -> String {
    let mut out = String::from(HEADER);
    let mut any = false;
    for e in entries {
        any = true;
        out.push_str("\n  - ");
        out.push_str(&e);
    }
    if !any {
        out.push_str(" []");
    }
    out.push('\n');
    out
}

impl Entry {
    /// Whether this entry accepts the failure `c`.
    fn covers(&self, c: &proctor_conformance::certify::CheckResult) -> bool {
        matches!(&self.target, Target::Check { check, profile } if c.id == check && c.profile == *profile)
            && (self.case.is_none() || c.case == self.case)
    }

    /// The entry as written back, reason and all.
    fn yaml(&self) -> String {
        let case = self.case.as_deref().map(|n| format!(", case: {}", quote(n))).unwrap_or_default();
        match &self.target {
            Target::Check { check, profile } => {
                format!("{{check: {check}, profile: {}{case}, reason: {}}}", quote(profile), quote(&self.reason))
            }
            Target::Scenario(id) => format!("{{scenario: {}{case}, reason: {}}}", quote(id), quote(&self.reason)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_baseline_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.yaml");
        std::fs::write(&path, "# note\nexpected_failures:\n  - {check: JSONRPC-ID-ECHO, profile: documented, reason: we echo strings}\n")
            .unwrap();
        let b = Baseline::load(&path, Kind::Checks).unwrap();
        assert_eq!(b.entries.len(), 1);
        assert_eq!(b.entries[0].line, 3);
        std::fs::write(&path, "expected_failures:\n  - {check: NOPE, profile: documented, reason: x}\n").unwrap();
        let err = Baseline::load(&path, Kind::Checks).unwrap_err().to_string();
        assert!(err.contains("b.yaml:2:5: no check `NOPE`"), "{err}");
        std::fs::write(&path, "expected_failures:\n  - {check: JSONRPC-ID-ECHO, profil: documented, reason: x}\n").unwrap();
        let err = Baseline::load(&path, Kind::Checks).unwrap_err().to_string();
        assert!(err.contains("profil") && err.contains("hint:"), "{err}");
        std::fs::write(&path, "expected_failures:\n  - {check: JSONRPC-ID-ECHO, profile: documented, reason: x}\n").unwrap();
        let err = Baseline::load(&path, Kind::Scenarios).unwrap_err().to_string();
        assert!(err.contains("b.yaml:2:5: this command's baseline lists {scenario, reason} (run)"), "{err}");
    }
}
