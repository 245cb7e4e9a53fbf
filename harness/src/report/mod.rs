//! Rendering a certification [`Report`] in each output format. Every format
//! is a function of the same report data; none adds or drops a result.

pub mod divergence;
mod escape;
pub mod html;
pub mod junit;
mod markdown;
pub mod matrix;
pub mod runtime_config;
pub mod scenarios;
mod text;

use proctor_conformance::certify::Report;

pub use escape::{escape, escape_name, xml_safe};

/// An output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people: grouped, coloured on a terminal, failures with evidence and a hint.
    Text,
    /// The stable JSON report contract.
    Json,
    /// JUnit XML, one test case per check and profile.
    Junit,
    /// A Markdown summary for pull requests and CI job pages.
    Markdown,
    /// One self-contained HTML page to open in a browser: verdicts, a check x profile matrix, evidence.
    Html,
}

impl Format {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Markdown => "markdown",
            Format::Html => "html",
        }
    }

    /// The flag an extra report is named by in messages (`--report junit`).
    pub fn report_flag(self) -> String {
        format!("--report {}", self.name())
    }
}

/// Parses `--report FORMAT=FILE`.
pub fn parse_report_arg(text: &str) -> Result<(Format, std::path::PathBuf), String> {
    let names = "text, json, junit, markdown or html";
    let Some((format, file)) = text.split_once('=') else {
        return Err(format!("`{text}` is not FORMAT=FILE (FORMAT is {names}; e.g. junit=report.xml)"));
    };
    let format =
        <Format as clap::ValueEnum>::from_str(format, true).map_err(|_| format!("`{format}` is not a report format: use {names}"))?;
    if file.is_empty() {
        return Err(format!("`{text}` names no file after `=`"));
    }
    Ok((format, std::path::PathBuf::from(file)))
}

/// Renders `report` in `format`. `color` only affects text.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    match format {
        Format::Text => text::render(report, color),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
            s.push('\n');
            s
        }
        Format::Junit => junit::render(report),
        // A plugin's bytes and the user's --env values reach the Markdown
        // too, and it is printed to terminals as often as to job pages.
        Format::Markdown => escape(&markdown::render(report)),
        Format::Html => html::certify(report),
    }
}
