//! The page of `proctor pack check`: a pack × profile verdict grid, then each pack's diagnostics
//! per profile, each at its file:line:column with its rule, severity, message and fix.

use std::fmt::Write as _;

use proctor_pack::PackReport;

use super::page::{count, document, status, text};

/// Renders pack check results; `unreadable` are the files that could not be read as a pack (file,
/// why); `given` are the files and folders named on the command line, which the grid names packs from.
pub fn render(reports: &[PackReport], unreadable: &[(String, String)], given: &[String]) -> String {
    let mut files: Vec<&str> = Vec::new();
    let mut profiles: Vec<&str> = Vec::new();
    for r in reports {
        if !files.contains(&r.file.as_str()) {
            files.push(&r.file);
        }
        if !profiles.contains(&r.profile.as_str()) {
            profiles.push(&r.profile);
        }
    }
    let invalid = reports.iter().filter(|r| !r.valid).count();
    let verdict = match (unreadable.is_empty(), invalid) {
        (false, _) => "error",
        (true, 0) => "valid",
        (true, _) => "invalid",
    };
    let mut body = String::from("<h1>proctor pack check</h1>\n");
    let _ = writeln!(
        body,
        "<div class=\"verdict-line\"><span class=\"verdict s-{verdict}\" data-verdict=\"{verdict}\">{}</span><span>{} under {}: {} of {} valid; {} could not be read</span></div>",
        status(verdict),
        count(files.len(), "pack", "packs"),
        count(profiles.len(), "profile", "profiles"),
        reports.len() - invalid,
        count(reports.len(), "verdict", "verdicts"),
        count(unreadable.len(), "file", "files")
    );
    for (file, why) in unreadable {
        let _ = writeln!(body, "<p class=\"note\">{} <code>{}</code>: {}</p>", status("error"), text(file), text(why));
    }
    grid(&mut body, reports, &files, &profiles, given);
    for (f, file) in files.iter().enumerate() {
        let _ = writeln!(body, "<h2><code>{}</code></h2>", text(file));
        for (i, r) in reports.iter().enumerate().filter(|(_, r)| r.file == *file) {
            diagnostics(&mut body, i, f, r);
        }
    }
    document(&format!("proctor pack check: {verdict}"), &body)
}

/// One row per pack, one column per profile: valid or not, with the counts.
fn grid(out: &mut String, reports: &[PackReport], files: &[&str], profiles: &[&str], given: &[String]) {
    if reports.is_empty() {
        out.push_str("<p>No pack was checked.</p>\n");
        return;
    }
    out.push_str("<div class=\"scroll\" role=\"region\" aria-label=\"Pack by profile matrix\" tabindex=\"0\">\n<table class=\"matrix\">\n<thead><tr><th scope=\"col\">pack</th>");
    for p in profiles {
        let _ = write!(out, "<th scope=\"col\">{}</th>", text(p));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for file in files {
        let _ = write!(
            out,
            "<tr data-pack=\"{0}\"><th scope=\"row\" title=\"{0}\"><code>{1}</code></th>",
            text(file),
            text(short(file, given))
        );
        for p in profiles {
            match reports.iter().enumerate().find(|(_, r)| r.file == *file && r.profile == *p) {
                Some((i, r)) => {
                    let (errors, warnings) = r.counts();
                    let word = if r.valid { "valid" } else { "invalid" };
                    let _ = write!(out, "<td data-status=\"{word}\"><a href=\"#k{i}\">{}</a> {errors} E, {warnings} W</td>", status(word));
                }
                None => out.push_str(&format!("<td>{}</td>", status("none"))),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

/// One pack under one profile: folded when it has nothing to say.
fn diagnostics(out: &mut String, index: usize, file_index: usize, r: &PackReport) {
    let (errors, warnings) = r.counts();
    let word = if r.valid { "valid" } else { "invalid" };
    let open = if r.diagnostics.is_empty() { "" } else { " open" };
    let _ = writeln!(
        out,
        "<details class=\"pack\" id=\"k{index}\" data-file=\"{file_index}\" data-profile=\"{}\" data-status=\"{word}\"{open}>\n<summary>{} under <code>{}</code>: {}, {}</summary>\n<div class=\"body\">",
        text(&r.profile),
        status(word),
        text(&r.profile),
        count(errors, "error", "errors"),
        count(warnings, "warning", "warnings")
    );
    if r.diagnostics.is_empty() {
        out.push_str("<p>No diagnostics.</p>\n</div>\n</details>\n");
        return;
    }
    out.push_str("<div class=\"scroll\" role=\"region\" aria-label=\"Diagnostics\" tabindex=\"0\">\n<table class=\"diagnostics\">\n<thead><tr><th scope=\"col\">where</th><th scope=\"col\">severity</th><th scope=\"col\">rule</th><th scope=\"col\">message and fix</th></tr></thead>\n<tbody>\n");
    for d in &r.diagnostics {
        let severity = d.severity.name();
        let pointer = if d.path.is_empty() { "(the pack)" } else { &d.path };
        let _ = writeln!(
            out,
            "<tr data-rule=\"{rule}\"><td><code class=\"location\">{}:{}:{}</code><br><span class=\"muted\">{}</span></td><td>{}</td><td><code>{rule}</code></td><td>{}<br><span class=\"muted\">fix:</span> {}</td></tr>",
            text(&r.file),
            d.line,
            d.column,
            text(pointer),
            status(severity),
            text(&d.message),
            text(&d.fix),
            rule = text(d.rule),
        );
    }
    out.push_str("</tbody>\n</table>\n</div>\n</div>\n</details>\n");
}

/// `file` relative to the folder given on the command line that holds it, when there is one: the
/// grid's first column stays in view while the verdicts scroll under it, so it must stay narrow.
fn short<'a>(file: &'a str, given: &[String]) -> &'a str {
    given
        .iter()
        .filter_map(|folder| file.strip_prefix(folder.trim_end_matches('/')).and_then(|rest| rest.strip_prefix('/')))
        .filter(|rest| !rest.is_empty())
        .min_by_key(|rest| rest.len())
        .unwrap_or(file)
}
