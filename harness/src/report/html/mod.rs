//! `--format html`: a report to open in a browser. One self-contained file (inline CSS and
//! script, nothing fetched), the verdicts at the top, a check × profile matrix whose failing cells
//! jump to their evidence, and everything that came from a plugin, a scenario or a pack escaped.
//!
//! Each page is rendered from the same data as the other formats; nothing is judged here.

mod certification;
mod packs;
mod page;
mod scenarios;

use std::fmt::Write as _;

use proctor_conformance::certify::{Report, Verdict};

pub use packs::render as packs;
pub use scenarios::render as scenarios;

use page::{count, document, status, text};

/// The page of one certification (`certify`, `verify`).
pub fn certify(report: &Report) -> String {
    let mut body = String::new();
    certification::render(&mut body, report, "", 1);
    let title = match &report.title {
        Some(title) => format!("{title}: {}", report.verdict.name()),
        None => format!("proctor certify {}: {}", report.protocol, report.verdict.name()),
    };
    document(&title, &body)
}

/// One plugin of a RuntimeConfig: where it is bound, and its certification or why there is none.
pub struct Plugin<'a> {
    /// The binding, its place in the file, its protocol, role and command, in one line.
    pub heading: String,
    /// The certification, or why the plugin could not be judged.
    pub report: Result<&'a Report, &'a str>,
}

/// The page of `certify --runtime-config`: the verdict (`conformant`, `nonconformant`, or `error`
/// when a plugin could not be judged), a line per plugin, then each plugin's certification.
pub fn runtime_config(config: &str, verdict: &str, plugins: &[Plugin], notes: &[String]) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "<h1>proctor certify --runtime-config <code>{}</code></h1>", text(config));
    let conformant = plugins.iter().filter(|p| p.report.is_ok_and(|r| r.verdict == Verdict::Conformant)).count();
    let _ = writeln!(
        body,
        "<div class=\"verdict-line\"><span class=\"verdict s-{verdict}\" data-verdict=\"{verdict}\">{}</span><span>{conformant} of {} conformant</span></div>",
        status(verdict),
        count(plugins.len(), "plugin", "plugins")
    );
    body.push_str("<div class=\"scroll\" role=\"region\" aria-label=\"Plugins\" tabindex=\"0\">\n<table>\n<thead><tr><th scope=\"col\">plugin</th><th scope=\"col\">verdict</th><th scope=\"col\">per profile</th></tr></thead>\n<tbody>\n");
    for (i, plugin) in plugins.iter().enumerate() {
        let (word, sentence) = match plugin.report {
            Ok(r) => (r.verdict.name(), r.verdict_sentence()),
            Err(_) => ("error", "not judged: see below".to_string()),
        };
        let _ = writeln!(
            body,
            "<tr><td><a href=\"#p{i}-title\">{}</a></td><td>{}</td><td>{}</td></tr>",
            text(&plugin.heading),
            status(word),
            text(&sentence)
        );
    }
    body.push_str("</tbody>\n</table>\n</div>\n");
    for note in notes {
        let _ = writeln!(body, "<p class=\"note\"><strong>Note:</strong> {}</p>", text(note));
    }
    for (i, plugin) in plugins.iter().enumerate() {
        let _ = writeln!(body, "<hr>\n<p class=\"muted\">{}</p>", text(&plugin.heading));
        match plugin.report {
            Ok(report) => certification::render(&mut body, report, &format!("p{i}-"), 2),
            Err(why) => {
                let _ = writeln!(
                    body,
                    "<section class=\"certification\" data-verdict=\"error\"><h2 id=\"p{i}-title\">{} {}</h2>\n<pre>{}</pre>\n</section>",
                    status("error"),
                    text(&plugin.heading),
                    text(why)
                );
            }
        }
    }
    document(&format!("proctor certify --runtime-config {config}: {verdict}"), &body)
}

#[cfg(test)]
mod tests;
