//! One certification as HTML: the verdicts first, then the check × profile matrix, the checks
//! whose outcome differs between profiles, and every failure and warning folded over its evidence.

use std::fmt::Write as _;

use proctor_conformance::certify::{CheckResult, Report};
use proctor_conformance::check::{Outcome, Status};

use super::page::{count, evidence, status, text};
use crate::report::matrix::{self, Row};

/// Appends `report` to `out`. `prefix` keeps its element ids apart from other reports' on the same
/// page; its title is an `<h{level}>`, its parts one level below.
pub fn render(out: &mut String, report: &Report, prefix: &str, level: u8) {
    let sub = level + 1;
    let verdict = report.verdict.name();
    let _ = writeln!(out, "<section class=\"certification\" data-verdict=\"{verdict}\" aria-labelledby=\"{prefix}title\">");
    let title = match &report.title {
        Some(title) => text(title),
        None => format!("proctor certify <code>{}</code>", text(&report.protocol)),
    };
    let _ = writeln!(out, "<h{level} id=\"{prefix}title\">{title}</h{level}>");
    // Green only because of a baseline: drawn as the accepted failures are, in its own words.
    let shown = match report.summary.expected_failures {
        0 => status(verdict),
        _ => format!("<span class=\"s s-expected_failure\"><span aria-hidden=\"true\">◇</span> {}</span>", text(&report.verdict_words())),
    };
    let _ = writeln!(
        out,
        "<div class=\"verdict-line\"><span class=\"verdict s-{verdict}\" data-verdict=\"{verdict}\" data-accepted=\"{}\">{shown}</span><span>{}</span></div>",
        report.summary.expected_failures,
        text(&report.verdict_sentence())
    );
    out.push_str("<ul class=\"profiles\" aria-label=\"Verdict per profile\">\n");
    for (profile, v) in &report.profile_verdicts {
        let _ = writeln!(out, "<li data-profile=\"{0}\"><code>{0}</code> {1}</li>", text(profile), status(v.name()));
    }
    out.push_str("</ul>\n");
    facts(out, report);
    for note in &report.notes {
        let _ = writeln!(out, "<p class=\"note\"><strong>Note:</strong> {}</p>", text(note));
    }
    for stale in &report.stale_baseline {
        let _ = writeln!(out, "<p class=\"note\">{} {}</p>", status("fail"), text(stale));
    }
    let rows = matrix::rows(report);
    let _ = writeln!(
        out,
        "<h{sub}>Checks by profile ({}, {})</h{sub}>",
        count(rows.len(), "check", "checks"),
        count(report.profiles.len(), "profile", "profiles")
    );
    grid(out, report, &rows, prefix);
    let _ = writeln!(out, "<h{sub}>Where the profiles disagree</h{sub}>");
    divergence(out, report, &rows, prefix);
    problems(out, report, prefix, sub);
    out.push_str("</section>\n");
}

/// The command, options, selection and counts.
fn facts(out: &mut String, report: &Report) {
    let s = &report.summary;
    out.push_str("<dl class=\"facts\">\n");
    if report.title.is_none() {
        let role = report.role.as_deref().map(|r| format!(" --role {r}")).unwrap_or_default();
        let options: String = report.options.iter().map(|o| format!(" {o}")).collect();
        let line = format!("proctor certify --protocol {}{role}{options} -- {}", report.protocol, report.command.join(" "));
        let _ = writeln!(out, "<dt>Command</dt><dd><code class=\"command\">{}</code></dd>", text(&line));
    } else {
        let _ = writeln!(out, "<dt>Plugin</dt><dd><code class=\"command\">{}</code></dd>", text(&report.command.join(" ")));
        if !report.options.is_empty() {
            let _ = writeln!(out, "<dt>Options</dt><dd><code>{}</code></dd>", text(&report.options.join(" ")));
        }
    }
    let role = report.role.as_deref().map(|r| format!(" {r}")).unwrap_or_default();
    let _ = writeln!(out, "<dt>Protocol</dt><dd>{}{}</dd>", text(&report.protocol), text(&role));
    if let Some(selection) = &report.selection {
        let _ = writeln!(out, "<dt>Selected</dt><dd>{}</dd>", text(selection));
    }
    let _ = writeln!(out, "<dt>Exchanges judged</dt><dd class=\"exchanges\">{}</dd>", s.exchanges);
    out.push_str("</dl>\n<ul class=\"counts\" aria-label=\"Summary\">\n");
    let _ = writeln!(
        out,
        "<li>{} passed</li><li>{} failed</li><li class=\"untestable\">{} untestable</li><li>{}</li><li>{} skipped</li>",
        s.passed,
        s.failed,
        s.untestable,
        count(s.warnings, "warning", "warnings"),
        s.skipped
    );
    if s.expected_failures > 0 {
        let _ = writeln!(out, "<li>{} (baseline)</li>", count(s.expected_failures, "expected failure", "expected failures"));
    }
    out.push_str("</ul>\n");
}

/// The check × profile table; a failure's or warning's cell links to its evidence.
fn grid(out: &mut String, report: &Report, rows: &[Row], prefix: &str) {
    out.push_str("<div class=\"scroll\" role=\"region\" aria-label=\"Check by profile matrix\" tabindex=\"0\">\n<table class=\"matrix\">\n<thead><tr><th scope=\"col\">check</th><th scope=\"col\">level</th>");
    for profile in &report.profiles {
        let _ = write!(out, "<th scope=\"col\">{}</th>", text(profile));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        let level = row.cells.iter().flatten().next().map(|(_, c)| format!("{:?}", c.level).to_lowercase()).unwrap_or_default();
        let _ = write!(out, "<tr data-check=\"{}\"><th scope=\"row\">{}</th><td>{level}</td>", text(row.id), name(row.id, row.case));
        for cell in &row.cells {
            out.push_str(&self::cell(*cell, prefix));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

/// One result in the matrix: its status in words, a link to its evidence when it has a problem.
fn cell(cell: Option<(usize, &CheckResult)>, prefix: &str) -> String {
    let Some((index, c)) = cell else { return format!("<td data-status=\"none\">{}</td>", status("none")) };
    let name = c.status.name();
    // An untestable check says so in its own status; what blocked it is in the title.
    let shown = status(name);
    match folded(c.status) {
        true => {
            format!("<td data-status=\"{name}\"><a href=\"#{prefix}f{index}\" title=\"{}\">{shown}</a></td>", text(&c.message))
        }
        false => format!("<td data-status=\"{name}\" title=\"{}\">{shown}</td>", text(&c.message)),
    }
}

/// The checks whose outcome is not the same under every profile.
fn divergence(out: &mut String, report: &Report, rows: &[Row], prefix: &str) {
    if report.profiles.len() < 2 {
        out.push_str("<p class=\"divergence\">One profile was run: there is nothing to compare.</p>\n");
        return;
    }
    let differing: Vec<&Row> = rows.iter().filter(|r| r.diverges()).collect();
    if differing.is_empty() {
        out.push_str("<p class=\"divergence\">Every check has the same outcome under every profile.</p>\n");
        return;
    }
    let _ = writeln!(
        out,
        "<p>{} differently depending on the profile: the plugin behaves as one runtime needs and not as another does.</p>",
        count(differing.len(), "check ends", "checks end")
    );
    out.push_str("<div class=\"scroll\" role=\"region\" aria-label=\"Checks whose outcome differs between profiles\" tabindex=\"0\">\n<table class=\"divergence\">\n<thead><tr><th scope=\"col\">check</th>");
    for profile in &report.profiles {
        let _ = write!(out, "<th scope=\"col\">{}</th>", text(profile));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in differing {
        let _ = write!(out, "<tr data-check=\"{}\"><th scope=\"row\">{}</th>", text(row.id), name(row.id, row.case));
        for cell in &row.cells {
            match cell {
                Some((i, c)) if folded(c.status) => {
                    let _ =
                        write!(out, "<td><a href=\"#{prefix}f{i}\">{}</a><br>{}</td>", status(c.status.name()), message(report, c, prefix));
                }
                Some((_, c)) => {
                    let _ = write!(out, "<td>{}<br>{}</td>", status(c.status.name()), message(report, c, prefix));
                }
                None => out.push_str(&format!("<td>{}</td>", status("none"))),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

/// Whether a result gets its evidence folded under the matrix: a failure, a warning, or a failure a
/// baseline accepts (accepted for now, still worth seeing).
fn folded(status: Status) -> bool {
    matches!(status, Status::Fail | Status::Untestable | Status::Warn | Status::ExpectedFailure)
}

/// Every failure and warning, folded: its summary says what failed where, its body the proof. A
/// check that could not be tested because another failed first is not an entry of its own (its
/// fix would be beside the point): it is listed on one line under the failure that blocked it,
/// and that failure, the one to fix, is open.
fn problems(out: &mut String, report: &Report, prefix: &str, level: u8) {
    let problems: Vec<(usize, &CheckResult)> = report.checks.iter().enumerate().filter(|(_, c)| folded(c.status)).collect();
    // The count is of causes: an untestable check is listed under the failure that blocked it.
    let causes = problems.iter().filter(|(_, c)| c.status != Status::Untestable).count();
    let _ = writeln!(out, "<h{level}>Failures and warnings, with their evidence ({causes})</h{level}>");
    if problems.is_empty() {
        out.push_str("<p>None.</p>\n");
        return;
    }
    let _ = writeln!(
        out,
        "<div class=\"toolbar\"><button type=\"button\" data-open=\"true\" data-target=\"#{prefix}problems details\">Open all</button><button type=\"button\" data-open=\"false\" data-target=\"#{prefix}problems details\">Close all</button></div>\n<div id=\"{prefix}problems\">"
    );
    // What blocked each problem, found once (each lookup scans the report).
    let blockers: Vec<Option<usize>> = problems.iter().map(|(_, c)| blocker(report, c)).collect();
    for (&(index, c), by) in problems.iter().zip(&blockers) {
        if by.is_some() {
            continue;
        }
        let blocked: Vec<(usize, &CheckResult)> =
            problems.iter().zip(&blockers).filter(|(_, b)| **b == Some(index)).map(|(p, _)| *p).collect();
        entry(out, report, index, c, prefix, !blocked.is_empty());
        if !blocked.is_empty() {
            blocked_line(out, index, c, &blocked, prefix);
        }
    }
    out.push_str("</div>\n");
}

/// One failure or warning, folded over its evidence unless `open`.
fn entry(out: &mut String, report: &Report, index: usize, c: &CheckResult, prefix: &str, open: bool) {
    let _ = writeln!(
        out,
        "<details class=\"problem\" id=\"{prefix}f{index}\" data-check=\"{}\" data-profile=\"{}\"{}>\n<summary>{} {} under <code>{}</code>: {}</summary>\n<div class=\"body\">",
        text(c.id),
        text(&c.profile),
        if open { " open" } else { "" },
        status(c.status.name()),
        name(c.id, c.case.as_deref()),
        text(&c.profile),
        text(c.message.lines().next().unwrap_or_default())
    );
    let level = format!("{:?}", c.level).to_lowercase();
    let _ = writeln!(
        out,
        "<p class=\"message\">{}</p>\n<p class=\"muted\">level: {level}</p>",
        message(report, c, prefix).replace('\n', "<br>")
    );
    let ev = &c.evidence;
    for (kind, label, bytes) in
        [("sent", "Sent", &ev.sent), ("received", "Received", &ev.received), ("stderr", "stderr (tail)", &ev.stderr_tail)]
    {
        if let Some(bytes) = bytes.as_deref().filter(|b| !b.is_empty()) {
            evidence(out, kind, label, bytes);
        }
    }
    // An untestable check's own fix is beside the point: what blocked it is in its message.
    if let Some(hint) = c.hint.filter(|_| !c.is_untestable()) {
        let _ = writeln!(out, "<p class=\"label\">Fix</p>\n<p class=\"hint\">{}</p>", text(hint));
    }
    if let Some(tolerated) = c.tolerated {
        let _ = writeln!(out, "<p class=\"muted\">A warning here, not a failure: tolerance <code>{}</code>.</p>", text(tolerated));
    }
    let links: String = proctor_conformance::check::spec_links(&c.spec)
        .iter()
        .map(|url| format!("<a href=\"{0}\" rel=\"noopener\">{0}</a>", text(url)))
        .collect::<Vec<_>>()
        .join("<br>");
    let links = if links.is_empty() { String::new() } else { format!("\n<p class=\"spec-links\">{links}</p>") };
    let _ = writeln!(out, "<p class=\"label\">Spec</p>\n<p class=\"spec\"><code>{}</code></p>{links}\n</div>\n</details>", text(&c.spec));
}

/// The checks `cause` kept from being tested, on one line after it. Each keeps its own id as an
/// anchor, so its matrix cell still leads to it.
fn blocked_line(out: &mut String, index: usize, cause: &CheckResult, blocked: &[(usize, &CheckResult)], prefix: &str) {
    let _ = write!(
        out,
        "<div class=\"blocked\" data-blocker=\"{}\" data-profile=\"{}\"><p>{} could not be tested under <code>{}</code> because <a href=\"#{prefix}f{index}\">{}</a> failed:</p>\n<ul class=\"blocked\">",
        text(cause.id),
        text(&cause.profile),
        count(blocked.len(), "check", "checks"),
        text(&cause.profile),
        text(cause.id)
    );
    for (i, c) in blocked {
        let _ = write!(
            out,
            "<li id=\"{prefix}f{i}\" tabindex=\"-1\" data-check=\"{}\" data-status=\"{}\" title=\"{}\">{}</li>",
            text(c.id),
            c.status.name(),
            text(&c.message),
            name(c.id, c.case.as_deref())
        );
    }
    out.push_str("</ul></div>\n");
}

/// The index of the failure, under the same profile, that kept `c` from being tested; `None` when
/// `c` was tested, or nothing on the page blocked it.
fn blocker(report: &Report, c: &CheckResult) -> Option<usize> {
    let Outcome::Untestable { blocked_by: Some(by), .. } = c.detail else { return None };
    report.checks.iter().position(|o| o.id == by && o.profile == c.profile && folded(o.status) && !o.is_untestable())
}

/// A result's message as HTML; an untestable one's "blocked by X" links to X's failure.
fn message(report: &Report, c: &CheckResult, prefix: &str) -> String {
    let shown = text(&c.message);
    let (Outcome::Untestable { blocked_by: Some(by), .. }, Some(at)) = (&c.detail, blocker(report, c)) else { return shown };
    let by = text(by);
    shown.replacen(&format!("(blocked by {by})"), &format!("(blocked by <a href=\"#{prefix}f{at}\">{by}</a>)"), 1)
}

/// A check id, with its case when it has one.
fn name(id: &str, case: Option<&str>) -> String {
    match case {
        Some(case) => format!("<code>{}</code> <span class=\"muted\">[{}]</span>", text(id), text(case)),
        None => format!("<code>{}</code>", text(id)),
    }
}
