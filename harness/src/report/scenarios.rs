//! Reports of `proctor run`: every scenario with its unmet expectations.

use std::fmt::Write as _;

use quick_junit::{NonSuccessKind, Report as Junit, TestCase, TestCaseStatus, TestSuite};
use serde_json::json;

use super::{Format, escape};
use crate::runner::RunResult;

/// `pass`, `fail`, `expected_failure` (a baseline accepts it), or `error` for a scenario that could
/// not be used as written.
pub(super) fn status(r: &RunResult) -> &'static str {
    match (r.unusable, r.passed(), r.expected_failure.is_some()) {
        (true, _, _) => "error",
        (false, true, _) => "pass",
        (false, false, true) => "expected_failure",
        (false, false, false) => "fail",
    }
}

/// How many scenarios ended each way; every format prints these same counts.
#[derive(Clone, Copy)]
pub(super) struct Tally {
    /// Every scenario run.
    pub total: usize,
    /// Not accepted: failed, or could not be used.
    pub failed: usize,
    /// Could not be used as written (exit 2); counted in `failed` too.
    pub errors: usize,
    /// Failed, but a baseline accepts it.
    pub expected: usize,
}

impl Tally {
    pub(super) fn of(results: &[RunResult]) -> Tally {
        Tally {
            total: results.len(),
            failed: results.iter().filter(|r| !r.accepted()).count(),
            errors: results.iter().filter(|r| r.unusable).count(),
            expected: results.iter().filter(|r| !r.passed() && r.expected_failure.is_some()).count(),
        }
    }

    /// Passed, not counting the failures a baseline accepts.
    pub(super) fn passed(&self) -> usize {
        self.total - self.failed - self.expected
    }

    /// Ran and failed (the ones that could not be used are `errors`).
    pub(super) fn failed_runs(&self) -> usize {
        self.failed - self.errors
    }

    /// `error` when a scenario could not be used, `pass` when every scenario was accepted and no
    /// baseline entry is stale, else `fail`.
    pub(super) fn verdict(&self, stale: &[String]) -> &'static str {
        match (self.errors, self.failed, stale.is_empty()) {
            (1.., _, _) => "error",
            (0, 0, true) => "pass",
            _ => "fail",
        }
    }
}

/// Renders the results of a scenario run in `format`. `pairs` are the scenarios played under two
/// profiles (`--profile all`: the scenario id and its two runs' ids), whose transcripts text and
/// HTML compare.
pub fn render(results: &[RunResult], stale: &[String], pairs: &[(String, [String; 2])], format: Format) -> String {
    let tally = Tally::of(results);
    let Tally { failed, errors, expected, .. } = tally;
    match format {
        Format::Html => super::html::scenarios(results, stale, pairs),
        Format::Json => {
            let out = json!({
                "proctor_version": env!("CARGO_PKG_VERSION"),
                "verdict": tally.verdict(stale),
                "summary": {"passed": tally.passed(), "failed": tally.failed_runs(), "errors": errors, "expected_failures": expected},
                "stale_baseline": stale,
                "scenarios": results.iter().map(|r| json!({"id": r.id, "file": r.file, "status": status(r), "problems": r.problems, "pack_warning": r.pack_warning(), "runtime_errors": r.runtime_errors().collect::<Vec<_>>(), "summary": r.summary})).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
        }
        Format::Junit => {
            let mut junit = Junit::new("proctor run");
            let mut suite = TestSuite::new("scenarios");
            for r in results {
                let status = if r.accepted() {
                    TestCaseStatus::success()
                } else {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(r.problems.first().cloned().unwrap_or_default()).set_description(r.problems.join("\n"));
                    s
                };
                let mut case = TestCase::new(r.id.clone(), status);
                if let Some(file) = &r.file {
                    case.set_classname(file.clone());
                }
                suite.add_test_case(case);
            }
            junit.add_test_suite(suite);
            super::xml_safe(&junit.to_string().unwrap_or_default())
        }
        Format::Markdown => {
            let mut out = format!(
                "## proctor run: {} passed, {failed} failed\n\n| status | scenario | problems |\n|---|---|---|\n",
                results.len() - failed
            );
            for r in results {
                let _ = writeln!(
                    out,
                    "| {} | `{}` | {} |",
                    if r.passed() { "✅" } else { "❌" },
                    r.id,
                    r.problems.join("<br>").replace('|', "\\|").replace('\n', " ")
                );
            }
            escape(&out)
        }
        Format::Text => {
            let mut out = String::new();
            for r in results {
                let _ = writeln!(out, "{} {}", status(r).to_uppercase(), escape(&r.id));
                if let Some(warning) = r.pack_warning() {
                    let _ = writeln!(out, "       !! {}", escape(&warning));
                }
                for p in &r.problems {
                    let _ = writeln!(out, "       {}", escape(p).replace('\n', "\n       "));
                }
                if let Some(why) = &r.expected_failure {
                    let _ = writeln!(out, "       accepted by the baseline: {}", escape(why));
                }
                if !r.passed() {
                    // The runtime's own error is often the root cause behind unmet expectations.
                    for e in r.runtime_errors() {
                        let _ = writeln!(out, "       root cause (runtime error): {}", escape(&e).replace('\n', "\n       "));
                    }
                    if let Some(file) = r.file.as_ref().filter(|f| **f != r.id) {
                        let _ = writeln!(out, "       file: {}", escape(file));
                    }
                }
            }
            let errors_text = if errors > 0 { format!(", {errors} could not be used (exit 2)") } else { String::new() };
            let expected_text = if expected > 0 { format!(", {expected} expected failures (baseline)") } else { String::new() };
            for s in stale {
                let _ = writeln!(out, "FAIL {}", escape(s));
            }
            let _ = writeln!(out, "\n{} passed, {} failed{errors_text}{expected_text}", tally.passed(), tally.failed_runs());
            if !pairs.is_empty() {
                out.push_str(&super::divergence::render(pairs, results));
            }
            out
        }
    }
}
