//! Flags that change how a report is judged, shared by `certify` and
//! `verify`: which checks count (`--check`, `--skip-check`), how strictly
//! (`--strict`), and which failures are accepted for now (`--baseline`).

use std::path::PathBuf;

use proctor_conformance::certify::Report;
use proctor_conformance::check::{CATALOGUE, Status};

use super::UsageError;
use crate::baseline::Baseline;
use crate::output::Target;

/// The judging flags.
#[derive(Debug, Clone, clap::Args)]
pub(super) struct JudgingArgs {
    /// Judge only checks matching ID (repeatable; `*` is a wildcard, e.g. `FRAMING-*`).
    #[arg(long = "check", value_name = "ID")]
    checks: Vec<String>,
    /// Leave out checks matching ID (repeatable; `*` is a wildcard).
    #[arg(long = "skip-check", value_name = "ID")]
    skip_checks: Vec<String>,
    /// A failed `should` check fails the run too (a tolerated failure stays a warning).
    #[arg(long)]
    strict: bool,
    /// Failures accepted for now (YAML: expected_failures: [{check, profile, reason}]). A listed
    /// failure does not fail the run; a listed check that passes again fails it as stale.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write a baseline accepting every current failure to FILE (edit each `reason`).
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
}

/// The judging flags' files, checked before anything runs.
#[derive(Debug, Default)]
pub(super) struct Checked {
    /// `--baseline`, read.
    baseline: Option<Baseline>,
    /// `--write-baseline`, ready to write, with the baseline it rewrites (whose reasons it keeps).
    rewrite: Option<(Target, Option<Baseline>)>,
}

impl JudgingArgs {
    /// Checks the flags before anything runs: every pattern matches some check,
    /// the baseline reads, and `--write-baseline` can be written. The caller has
    /// refused a `--write-baseline` over an input already.
    pub(super) fn validate(&self) -> Result<Checked, UsageError> {
        for pattern in self.checks.iter().chain(&self.skip_checks) {
            if !CATALOGUE.iter().any(|c| glob(pattern, c.id)) {
                return Err(UsageError(format!("--check/--skip-check {pattern}: matches no check; `proctor checks` lists them")));
            }
        }
        let kind = crate::baseline::Kind::Checks;
        let baseline = self.baseline.as_deref().map(|p| Baseline::load(p, kind)).transpose().map_err(|e| UsageError(e.to_string()))?;
        let rewrite = match &self.write_baseline {
            Some(path) => {
                let previous = Baseline::previous(path, kind).map_err(|e| UsageError(e.to_string()))?;
                Some((Target::prepare("--write-baseline", path)?, previous))
            }
            None => None,
        };
        Ok(Checked { baseline, rewrite })
    }

    /// Applies selection, strictness and the baseline to `report`, and writes
    /// the baseline file when asked, keeping the reasons of the baseline it
    /// rewrites (the `--baseline` given, else the one already in the file).
    pub(super) fn apply(&self, report: &mut Report, checked: &mut Checked) -> anyhow::Result<()> {
        let baseline = checked.baseline.as_ref();
        if !self.checks.is_empty() || !self.skip_checks.is_empty() {
            let (include, exclude) = (&self.checks, &self.skip_checks);
            let mut words = Vec::new();
            if !include.is_empty() {
                words.push(format!("--check {}", include.join(",")));
            }
            if !exclude.is_empty() {
                words.push(format!("--skip-check {}", exclude.join(",")));
            }
            report.select(|id| self.keeps(id), words.join(" "));
            if report.checks.is_empty() {
                return Err(UsageError("the selection leaves no check that applies to this plugin: nothing would be judged".into()).into());
            }
            // A selection of checks that could not run (case checks without
            // --cases, say) is as empty as no selection: green would mean nothing.
            if report.checks.iter().all(|c| c.status == Status::Skip) {
                let why: Vec<String> = report.checks.iter().map(|c| format!("{} ({})", c.id, c.message)).take(4).collect();
                return Err(UsageError(format!(
                    "every selected check was skipped, so nothing would be judged: {}; select a check that runs, or give what the skipped ones need",
                    why.join("; ")
                ))
                .into());
            }
        }
        if self.strict {
            report.make_strict();
            report.selection = Some(match report.selection.take() {
                Some(s) => format!("{s} --strict"),
                None => "--strict".into(),
            });
        }
        if let Some(b) = baseline {
            b.apply(report);
        }
        if let Some((target, previous)) = checked.rewrite.take() {
            target.write(Baseline::write(report, baseline.or(previous.as_ref())).as_bytes())?;
        }
        Ok(())
    }
}

impl JudgingArgs {
    /// The judging flags as they would be typed again (`--write-baseline` aside:
    /// it writes, it does not judge).
    pub(super) fn invocation(&self) -> Vec<String> {
        let mut flags = Vec::new();
        for c in &self.checks {
            flags.extend(["--check".to_string(), c.clone()]);
        }
        for c in &self.skip_checks {
            flags.extend(["--skip-check".to_string(), c.clone()]);
        }
        if self.strict {
            flags.push("--strict".into());
        }
        if let Some(b) = &self.baseline {
            flags.extend(["--baseline".to_string(), b.display().to_string()]);
        }
        flags
    }

    /// The checks `--check`/`--skip-check` leave out, so that the probes only they need are not sent.
    pub(super) fn left_out(&self) -> Vec<proctor_conformance::check::CheckId> {
        if self.checks.is_empty() && self.skip_checks.is_empty() {
            return Vec::new();
        }
        CATALOGUE.iter().map(|c| c.id).filter(|id| !self.keeps(id)).collect()
    }

    /// Whether `--check`/`--skip-check` keep check `id`.
    fn keeps(&self, id: &str) -> bool {
        (self.checks.is_empty() || self.checks.iter().any(|p| glob(p, id))) && !self.skip_checks.iter().any(|p| glob(p, id))
    }

    /// The file `--write-baseline` writes.
    pub(super) fn write_baseline_file(&self) -> Option<&std::path::Path> {
        self.write_baseline.as_deref()
    }

    /// The baseline file, when one judges the run.
    pub(super) fn baseline_file(&self) -> Option<&std::path::Path> {
        self.baseline.as_deref()
    }
}

/// Whether `id` matches `pattern`, where `*` stands for any run of characters.
fn glob(pattern: &str, id: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == id;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !id.starts_with(first) || !id[first.len()..].ends_with(last) || id.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &id[first.len()..id.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn wildcards() {
        assert!(glob("FRAMING-*", "FRAMING-UTF8"));
        assert!(!glob("FRAMING-*", "JSONRPC-VERSION"));
        assert!(glob("*-ECHO", "JSONRPC-ID-ECHO"));
        assert!(glob("JSONRPC-*-ECHO", "JSONRPC-ID-ECHO"));
        assert!(!glob("JSONRPC-*-ECHO", "JSONRPC-ECHO"));
        assert!(glob("CASE-DECISION", "CASE-DECISION") && !glob("CASE", "CASE-DECISION"));
        assert!(glob("*", "ANY"));
    }
}
