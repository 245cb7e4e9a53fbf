//! Reports of `proctor run`: every scenario with its unmet expectations.

use std::fmt::Write as _;

use quick_junit::{NonSuccessKind, Report as Junit, TestCase, TestCaseStatus, TestSuite};
use serde_json::json;

use super::{Format, escape};
use crate::runner::RunResult;

/// Renders the results of a scenario run in `format`.
pub fn render(results: &[RunResult], format: Format) -> String {
    let failed = results.iter().filter(|r| !r.passed()).count();
    match format {
        Format::Json => {
            let out = json!({
                "proctor_version": env!("CARGO_PKG_VERSION"),
                "verdict": if failed == 0 { "pass" } else { "fail" },
                "summary": {"passed": results.len() - failed, "failed": failed},
                "scenarios": results.iter().map(|r| json!({"id": r.id, "status": if r.passed() { "pass" } else { "fail" }, "problems": r.problems, "summary": r.summary})).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
        }
        Format::Junit => {
            let mut junit = Junit::new("proctor run");
            let mut suite = TestSuite::new("scenarios");
            for r in results {
                let status = if r.passed() {
                    TestCaseStatus::success()
                } else {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(r.problems.first().cloned().unwrap_or_default()).set_description(r.problems.join("\n"));
                    s
                };
                suite.add_test_case(TestCase::new(r.id.clone(), status));
            }
            junit.add_test_suite(suite);
            junit.to_string().unwrap_or_default()
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
            out
        }
        Format::Text => {
            let mut out = String::new();
            for r in results {
                let _ = writeln!(out, "{} {}", if r.passed() { "PASS" } else { "FAIL" }, escape(&r.id));
                for p in &r.problems {
                    let _ = writeln!(out, "       {}", escape(p).replace('\n', "\n       "));
                }
            }
            let _ = writeln!(out, "\n{} passed, {failed} failed", results.len() - failed);
            out
        }
    }
}
