//! A Markdown summary: the verdict, a table per profile, then the details of
//! every problem.

use std::fmt::Write as _;

use proctor_conformance::certify::{Report, Verdict};
use proctor_conformance::check::Status;

/// Renders the Markdown report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let verdict = match (report.verdict, report.summary.expected_failures) {
        (Verdict::Conformant, 0) => "✅ conformant".to_string(),
        (Verdict::Conformant, _) => format!("🔶 {}", report.verdict_words()),
        (Verdict::Nonconformant, _) => "❌ nonconformant".to_string(),
    };
    match &report.title {
        Some(title) => {
            let _ = writeln!(out, "## {} — {verdict}\n", cell(title));
        }
        None => {
            let _ = writeln!(out, "## proctor certify: `{}` — {verdict}\n", report.protocol);
        }
    }
    if !report.options.is_empty() {
        let _ = writeln!(out, "Options: `{}`  ", report.options.join(" ").replace('`', "'"));
    }
    let _ = writeln!(out, "Command: `{}`  ", report.command.join(" ").replace('`', "'"));
    let s = &report.summary;
    let _ = writeln!(
        out,
        "{} passed, {} failed, {} warnings, {} skipped{}; {} exchanges judged\n",
        s.passed,
        s.failed,
        s.warnings,
        s.skipped,
        if s.expected_failures > 0 { format!(", {} accepted by the baseline", s.expected_failures) } else { String::new() },
        s.exchanges
    );
    for (profile, verdict) in &report.profile_verdicts {
        let mark = if *verdict == Verdict::Conformant { "✅ conformant" } else { "❌ nonconformant" };
        let _ = writeln!(out, "- `{profile}`: {mark}");
    }
    let _ = writeln!(out, "\n{}\n", report.verdict_sentence());
    if let Some(selection) = &report.selection {
        let _ = writeln!(out, "Selected: {}\n", cell(selection));
    }
    for note in &report.notes {
        let _ = writeln!(out, "> **Note:** {}\n", cell(note));
    }
    for stale in &report.stale_baseline {
        let _ = writeln!(out, "- ❌ {}", cell(stale));
    }
    for profile in &report.profiles {
        let _ = writeln!(out, "### Profile `{profile}`\n\n| status | check | level | message |\n|---|---|---|---|");
        for c in report.checks.iter().filter(|c| &c.profile == profile) {
            let mark = match c.status {
                Status::Pass => "✅ pass",
                Status::Fail => "❌ fail",
                Status::Untestable => "⊘ untestable",
                Status::Warn => "⚠️ warn",
                Status::Skip => "⏭️ skip",
                Status::ExpectedFailure => "🔶 expected failure",
            };
            let case = c.case.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
            let _ = writeln!(out, "| {mark} | `{}`{} | {:?} | {} |", c.id, cell(&case), c.level, cell(&c.message));
        }
        out.push('\n');
    }
    let problems: Vec<_> = report.problems().collect();
    if !problems.is_empty() {
        let _ = writeln!(out, "### Problems\n");
        for c in problems {
            let _ = writeln!(out, "#### `{}` ({})\n\n{}\n", c.id, c.profile, c.message);
            if let Some(hint) = c.hint {
                let _ = writeln!(out, "**Fix:** {hint}  \n**Spec:** {}\n", c.spec);
            }
            for (label, text) in [("sent", &c.evidence.sent), ("received", &c.evidence.received), ("stderr", &c.evidence.stderr_tail)] {
                if let Some(text) = text {
                    let _ = writeln!(out, "{label}:\n```\n{}\n```\n", text.replace("```", "`‌``"));
                }
            }
        }
    }
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
