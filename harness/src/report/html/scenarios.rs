//! The page of `proctor run`: the verdict and counts, a line per scenario, where profiles part
//! ways (`--profile all`), then each scenario with its problems and its transcript.

use std::fmt::Write as _;

use super::page::{count, document, status, text};
use crate::report::divergence::partings;
use crate::report::scenarios::{Tally, status as outcome};
use crate::runner::RunResult;

/// Renders the results of a scenario run; `pairs` as for [`crate::report::scenarios::render`].
pub fn render(results: &[RunResult], stale: &[String], pairs: &[(String, [String; 2])]) -> String {
    let tally = Tally::of(results);
    let verdict = tally.verdict(stale);
    let mut body = String::from("<h1>proctor run</h1>\n");
    let _ = writeln!(
        body,
        "<div class=\"verdict-line\"><span class=\"verdict s-{verdict}\" data-verdict=\"{verdict}\">{}</span></div>",
        status(verdict)
    );
    let _ = writeln!(
        body,
        "<ul class=\"counts\" aria-label=\"Summary\"><li>{}</li><li>{} passed</li><li>{} failed</li><li>{} could not be used</li><li>{} (baseline)</li><li>{}</li></ul>",
        count(results.len(), "scenario", "scenarios"),
        tally.passed(),
        tally.failed_runs(),
        tally.errors,
        count(tally.expected, "expected failure", "expected failures"),
        count(stale.len(), "stale baseline entry", "stale baseline entries")
    );
    for s in stale {
        let _ = writeln!(body, "<p class=\"note\">{} {}</p>", status("fail"), text(s));
    }
    body.push_str("<div class=\"scroll\" role=\"region\" aria-label=\"Scenarios\" tabindex=\"0\">\n<table class=\"scenarios\">\n<thead><tr><th scope=\"col\">scenario</th><th scope=\"col\">status</th><th scope=\"col\">problems</th></tr></thead>\n<tbody>\n");
    for (i, r) in results.iter().enumerate() {
        let _ = writeln!(
            body,
            "<tr data-scenario=\"{0}\"><th scope=\"row\"><a href=\"#s{i}\">{0}</a></th><td>{1}</td><td>{2}</td></tr>",
            text(&r.id),
            status(outcome(r)),
            r.problems.len()
        );
    }
    body.push_str("</tbody>\n</table>\n</div>\n");
    divergence(&mut body, results, pairs);
    body.push_str("<h2>Scenarios</h2>\n");
    for (i, r) in results.iter().enumerate() {
        scenario(&mut body, i, r);
    }
    document(&format!("proctor run: {verdict}"), &body)
}

/// Per scenario played under two profiles, the first transcript entry where they differ.
fn divergence(out: &mut String, results: &[RunResult], pairs: &[(String, [String; 2])]) {
    if pairs.is_empty() {
        return;
    }
    out.push_str("<h2>Where the profiles part ways</h2>\n<div class=\"scroll\" role=\"region\" aria-label=\"Where the profiles part ways\" tabindex=\"0\">\n<table class=\"divergence\">\n<thead><tr><th scope=\"col\">scenario</th><th scope=\"col\">first difference</th><th scope=\"col\">one profile</th><th scope=\"col\">the other</th></tr></thead>\n<tbody>\n");
    for p in partings(pairs, results) {
        let [a, b] = &p.profiles;
        match &p.fork {
            None => {
                let _ = writeln!(
                    out,
                    "<tr><th scope=\"row\">{}</th><td>identical</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
                    text(&p.scenario),
                    text(a),
                    text(b)
                );
            }
            Some(f) => {
                let _ = writeln!(
                    out,
                    "<tr><th scope=\"row\">{}</th><td>entry {}, round {}</td><td><code>{}</code><pre>{}</pre></td><td><code>{}</code><pre>{}</pre></td></tr>",
                    text(&p.scenario),
                    f.entry,
                    f.round,
                    text(a),
                    text(&f.sides[0]),
                    text(b),
                    text(&f.sides[1])
                );
            }
        }
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

/// One scenario, open when it did not pass, with its transcript folded inside.
fn scenario(out: &mut String, i: usize, r: &RunResult) {
    let name = outcome(r);
    let open = if r.passed() { "" } else { " open" };
    let _ = writeln!(
        out,
        "<details class=\"scenario\" id=\"s{i}\" data-status=\"{name}\"{open}>\n<summary>{} <code>{}</code></summary>\n<div class=\"body\">",
        status(name),
        text(&r.id)
    );
    if let Some(file) = &r.file {
        let _ = writeln!(out, "<p class=\"muted\">file: <code>{}</code></p>", text(file));
    }
    if let Some(warning) = r.pack_warning() {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", text(&warning));
    }
    if !r.problems.is_empty() {
        out.push_str("<p class=\"label\">Problems</p>\n<ul class=\"problems\">\n");
        for p in &r.problems {
            let _ = writeln!(out, "<li>{}</li>", text(p));
        }
        out.push_str("</ul>\n");
    }
    if let Some(why) = &r.expected_failure {
        let _ = writeln!(out, "<p>Accepted by the baseline: {}</p>", text(why));
    }
    if !r.passed() {
        for e in r.runtime_errors() {
            let _ = writeln!(out, "<p class=\"label\">Root cause (runtime error)</p>\n<pre>{}</pre>", text(&e));
        }
    }
    let entries = &r.transcript.entries;
    let _ = writeln!(
        out,
        "<details class=\"transcript\"><summary>Transcript ({})</summary>\n<div class=\"scroll\" role=\"region\" aria-label=\"Transcript of {}\" tabindex=\"0\">\n<table class=\"transcript\">\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">channel</th><th scope=\"col\">kind</th><th scope=\"col\">body</th></tr></thead>\n<tbody>",
        count(entries.len(), "entry", "entries"),
        text(&r.id)
    );
    for (n, e) in entries.iter().enumerate() {
        let shown = match &e.body {
            serde_json::Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"body mono\">{}</td></tr>",
            n + 1,
            text(&e.channel),
            text(&e.kind),
            text(&shown)
        );
    }
    out.push_str("</tbody>\n</table>\n</div>\n</details>\n</div>\n</details>\n");
}
