//! The report for people: per profile, grouped by family of check; passes
//! in one line each, every failure with the exchange that proves it and the
//! fix.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use proctor_conformance::certify::{CheckResult, Report, Verdict};
use proctor_conformance::check::{Outcome, Status};

use super::escape;
use super::escape::visible;

/// How much of each evidence excerpt a terminal report shows.
const TEXT_EVIDENCE_BYTES: usize = 1200;

struct Paint {
    color: bool,
}

impl Paint {
    fn paint(&self, style: Style, text: &str) -> String {
        if self.color { format!("{style}{text}{style:#}") } else { text.to_string() }
    }
    fn status(&self, s: Status) -> String {
        let (style, mark) = match s {
            Status::Pass => (AnsiColor::Green.on_default(), "PASS"),
            Status::Fail => (AnsiColor::Red.on_default().bold(), "FAIL"),
            Status::Untestable => (AnsiColor::Magenta.on_default(), "UNTESTABLE"),
            Status::Warn => (AnsiColor::Yellow.on_default().bold(), "WARN"),
            Status::Skip => (AnsiColor::BrightBlack.on_default(), "SKIP"),
            Status::ExpectedFailure => (AnsiColor::Yellow.on_default(), "XFAIL"),
        };
        self.paint(style, mark)
    }
    fn dim(&self, text: &str) -> String {
        self.paint(AnsiColor::BrightBlack.on_default(), text)
    }
    fn bold(&self, text: &str) -> String {
        self.paint(Style::new().bold(), text)
    }
}

/// Renders the text report.
pub fn render(report: &Report, color: bool) -> String {
    let p = Paint { color };
    let mut out = String::new();
    let role = report.role.as_deref().map(|r| format!(" --role {r}")).unwrap_or_default();
    match &report.title {
        Some(title) => {
            let _ = writeln!(out, "{}", p.bold(&escape(title)));
        }
        None => {
            let options: String = report.options.iter().map(|o| format!(" {}", escape(o))).collect();
            let _ = writeln!(
                out,
                "{} --protocol {}{}{options} -- {}",
                p.bold("proctor certify"),
                report.protocol,
                role,
                escape(&report.command.join(" "))
            );
        }
    }
    if let Some(selection) = &report.selection {
        let _ = writeln!(out, "{}", p.dim(&format!("selected: {}", escape(selection))));
    }
    for note in &report.notes {
        let _ = writeln!(out, "{} {}", p.paint(AnsiColor::Cyan.on_default(), "note:"), escape(note));
    }
    for profile in &report.profiles {
        let _ = writeln!(out, "\n{}", p.bold(&format!("profile {profile}")));
        let checks: Vec<&CheckResult> = report.checks.iter().filter(|c| &c.profile == profile).collect();
        // Each group once, where its first check comes (root causes are listed first).
        let mut groups = Vec::new();
        for c in &checks {
            if !groups.contains(&c.group) {
                groups.push(c.group);
            }
        }
        for group in groups {
            let in_group: Vec<&&CheckResult> = checks.iter().filter(|c| c.group == group).collect();
            let _ = writeln!(out, "  {}", p.bold(group.title()));
            for c in in_group.iter().filter(|c| matches!(c.status, Status::Fail | Status::Warn) && !c.is_untestable()) {
                // The same failure, on the same bytes, under an earlier profile: named, not shown
                // again (its message may differ only by a measured time).
                let same_kind = |o: &CheckResult| std::mem::discriminant(&o.detail) == std::mem::discriminant(&c.detail);
                let earlier = report
                    .checks
                    .iter()
                    .take_while(|o| o.profile != c.profile)
                    .find(|o| o.id == c.id && o.case == c.case && o.status == c.status && same_kind(o) && o.evidence == c.evidence);
                match earlier {
                    Some(o) => {
                        let case = c.case.as_deref().map(|n| format!(" [{}]", escape(n))).unwrap_or_default();
                        let _ = writeln!(
                            out,
                            "    {} {}{case} {}",
                            p.status(c.status),
                            c.id,
                            p.dim(&format!("(as under {} above)", o.profile))
                        );
                    }
                    None => problem(&mut out, &p, c),
                }
            }
            let untestable: Vec<&&&CheckResult> = in_group.iter().filter(|c| c.is_untestable()).collect();
            if let Some(first) = untestable.first() {
                let ids: Vec<&str> = untestable.iter().map(|c| c.id).collect();
                let why = match &first.detail {
                    Outcome::Untestable { blocked_by: Some(by), .. } => format!("blocked by {by}"),
                    _ => "the run ended before them".to_string(),
                };
                let _ = writeln!(out, "    {} {} {}", p.status(first.status), ids.join(", "), p.dim(&format!("({why})")));
            }
            list(&mut out, &p, Status::Pass, &in_group);
            for c in in_group.iter().filter(|c| c.status == Status::ExpectedFailure) {
                let _ = writeln!(out, "    {} {} {}", p.status(c.status), c.id, p.dim(&format!("({})", escape(&c.message))));
            }
            for c in in_group.iter().filter(|c| c.status == Status::Skip) {
                // A skip may carry a ready-to-paste case on the lines after its reason.
                let message = escape(&c.message).replace('\n', "\n           ");
                let _ = writeln!(out, "    {} {} {}", p.status(Status::Skip), c.id, p.dim(&format!("({message})")));
            }
        }
    }
    let s = &report.summary;
    let verdict = match (report.verdict, s.expected_failures) {
        (Verdict::Conformant, 0) => p.paint(AnsiColor::Green.on_default().bold(), "CONFORMANT"),
        // Green only because of a baseline: not the words or colour of a clean pass.
        (Verdict::Conformant, _) => p.paint(AnsiColor::Yellow.on_default().bold(), &report.verdict_words().to_uppercase()),
        (Verdict::Nonconformant, _) => p.paint(AnsiColor::Red.on_default().bold(), "NONCONFORMANT"),
    };
    let causes: Vec<&CheckResult> = report.problems().filter(|c| !c.is_untestable()).collect();
    if !causes.is_empty() {
        let _ = writeln!(out, "\n{}", p.bold("To fix"));
        let mut seen: Vec<(&str, Option<&str>)> = Vec::new();
        for c in causes {
            if seen.contains(&(c.id, c.case.as_deref())) {
                continue;
            }
            seen.push((c.id, c.case.as_deref()));
            let profiles: Vec<String> = report
                .problems()
                .filter(|o| o.id == c.id && o.case == c.case)
                .map(|o| if o.tolerated.is_some() { format!("{} tolerates it", o.profile) } else { o.profile.clone() })
                .collect();
            let case = c.case.as_deref().map(|n| format!(" [{}]", escape(n))).unwrap_or_default();
            let _ = writeln!(out, "  {} {}{case} ({}): {}", p.status(c.status), c.id, profiles.join(", "), c.hint.unwrap_or(""));
        }
    }
    let _ = writeln!(
        out,
        "\n{verdict}: {} passed, {} failed{}, {} warnings, {} skipped{} ({} profiles, {} exchanges judged)",
        s.passed,
        s.failed,
        if s.untestable > 0 { format!(", {} untestable", s.untestable) } else { String::new() },
        s.warnings,
        s.skipped,
        if s.expected_failures > 0 { format!(", {} expected failures (baseline)", s.expected_failures) } else { String::new() },
        report.profiles.len(),
        s.exchanges
    );
    for (profile, verdict) in &report.profile_verdicts {
        let word = match verdict {
            Verdict::Conformant => p.paint(AnsiColor::Green.on_default(), "conformant"),
            Verdict::Nonconformant => p.paint(AnsiColor::Red.on_default(), "nonconformant"),
        };
        let _ = writeln!(out, "  {profile:<20} {word}");
    }
    let _ = writeln!(out, "{}", report.verdict_sentence());
    for stale in &report.stale_baseline {
        let _ = writeln!(out, "{} {}", p.status(Status::Fail), escape(stale));
    }
    out
}

/// One line listing every check of a status.
fn list(out: &mut String, p: &Paint, status: Status, checks: &[&&CheckResult]) {
    let ids: Vec<String> = checks
        .iter()
        .filter(|c| c.status == status)
        .map(|c| match &c.case {
            Some(case) => format!("{} [{}]", c.id, escape(case)),
            None => c.id.to_string(),
        })
        .collect();
    if !ids.is_empty() {
        let _ = writeln!(out, "    {} {}", p.status(status), ids.join(", "));
    }
}

/// A failure or warning, with the exchange that proves it and the fix.
fn problem(out: &mut String, p: &Paint, c: &CheckResult) {
    let case = c.case.as_deref().map(|n| format!(" [{}]", escape(n))).unwrap_or_default();
    let level = format!("{:?}", c.level).to_lowercase();
    let _ = writeln!(out, "    {} {}{case} {}", p.status(c.status), c.id, p.dim(&format!("({level})")));
    let _ = writeln!(out, "         {}", indent(&escape(&c.message), 9));
    let ev = &c.evidence;
    for (label, text) in [("sent", &ev.sent), ("received", &ev.received), ("stderr", &ev.stderr_tail)] {
        if let Some(text) = text.as_deref().filter(|t| !t.is_empty()) {
            let shown = escape(&visible(text, TEXT_EVIDENCE_BYTES));
            let _ = writeln!(out, "         {} {}", p.dim(&format!("{label:>8}:")), indent(&shown, 19));
        }
    }
    if let Some(hint) = c.hint {
        let _ = writeln!(out, "         {} {hint}", p.paint(AnsiColor::Cyan.on_default(), "    hint:"));
    }
    let _ = writeln!(out, "         {} {}", p.dim("    spec:"), p.dim(&c.spec));
    for link in proctor_conformance::check::spec_links(&c.spec) {
        let _ = writeln!(out, "         {} {}", p.dim("     see:"), p.dim(&link));
    }
}

fn indent(text: &str, by: usize) -> String {
    text.replace('\n', &format!("\n{}", " ".repeat(by)))
}
