//! A PromptKit RuntimeConfig, certified binding by binding
//! (`proctor certify --runtime-config`), in each output format: one report
//! per exec plugin, then the config's own verdict. A binding that could not
//! be judged (a missing script, a broken cases file) is the config author's
//! mistake, said at its place; the others are still judged.

use std::path::PathBuf;

use proctor_conformance::certify::{Report, Verdict};
use proctor_conformance::protocol::Family;
use proctor_pack::runtime_config::Binding;
use serde_json::json;

use super::html::Plugin;
use super::{Format, escape, render as render_one};

/// One binding, certified, or why it could not be.
pub struct BoundPlugin {
    /// Where the config binds it, and what it runs.
    pub binding: Binding,
    /// How PromptKit speaks to it.
    pub family: Family,
    /// Its role in that family.
    pub role: &'static str,
    /// The cases file found beside its script, if any.
    pub cases: Option<PathBuf>,
    /// Its certification, or why it could not be certified.
    pub report: Result<Report, String>,
}

impl BoundPlugin {
    fn conformant(&self) -> bool {
        self.report.as_ref().is_ok_and(|r| r.verdict == Verdict::Conformant)
    }

    /// A binding in one line: where it is, how PromptKit speaks to it, what it runs.
    fn heading(&self) -> String {
        let cases = self.cases.as_ref().map(|c| format!(", cases {}", c.display())).unwrap_or_default();
        let b = &self.binding;
        format!("{} (line {}): {} {} — {}{cases}", b.label(), b.line, self.family.name(), self.role, b.command.join(" "))
    }
}

/// A whole RuntimeConfig, certified.
pub struct Checked {
    /// The RuntimeConfig file.
    pub path: PathBuf,
    /// `--pack`, when given.
    pub pack: Option<PathBuf>,
    /// Each exec binding, in the config's order.
    pub plugins: Vec<BoundPlugin>,
    /// What the config and the pack say beside the bindings.
    pub notes: Vec<String>,
}

impl Checked {
    /// `error` when a plugin could not be judged, `conformant` when every plugin is, else `nonconformant`.
    pub fn verdict(&self) -> &'static str {
        match (self.plugins.iter().any(|j| j.report.is_err()), self.plugins.iter().all(BoundPlugin::conformant)) {
            (true, _) => "error",
            (false, true) => "conformant",
            (false, false) => "nonconformant",
        }
    }
}

/// Renders the certified config in `format`.
pub fn render(checked: &Checked, format: Format) -> Result<String, serde_json::Error> {
    let path = checked.path.display().to_string();
    Ok(match format {
        Format::Json => format!("{}\n", serde_json::to_string_pretty(&as_json(checked))?),
        Format::Junit => super::junit::render_many(
            &format!("proctor certify --runtime-config {path}"),
            &checked.plugins.iter().filter_map(|j| j.report.as_ref().ok()).collect::<Vec<_>>(),
            &checked.plugins.iter().filter_map(|j| Some((j.binding.label(), j.report.as_ref().err()?.clone()))).collect::<Vec<_>>(),
        ),
        Format::Html => {
            let plugins: Vec<Plugin> = checked
                .plugins
                .iter()
                .map(|j| Plugin { heading: j.heading(), report: j.report.as_ref().map_err(String::as_str) })
                .collect();
            super::html::runtime_config(&path, checked.verdict(), &plugins, &checked.notes)
        }
        // Labels, commands and notes come from the config file: escaped for the terminal.
        Format::Markdown | Format::Text => escape(&as_text(checked, format)),
    })
}

fn as_json(checked: &Checked) -> serde_json::Value {
    json!({
        "runtime_config": checked.path.display().to_string(),
        "pack": checked.pack.as_ref().map(|p| p.display().to_string()),
        "verdict": checked.verdict(),
        "notes": checked.notes,
        "plugins": checked.plugins.iter().map(|j| json!({
            "binding": j.binding.label(),
            "line": j.binding.line,
            "column": j.binding.column,
            "protocol": j.family.name(),
            "role": j.role,
            "command": j.binding.command,
            "cases": j.cases.as_ref().map(|c| c.display().to_string()),
            "report": j.report.as_ref().ok().and_then(|r| serde_json::to_value(r).ok()),
            "error": j.report.as_ref().err(),
        })).collect::<Vec<_>>(),
    })
}

fn as_text(checked: &Checked, format: Format) -> String {
    let markdown = format == Format::Markdown;
    let judged = &checked.plugins;
    let mut out = String::new();
    for j in judged {
        let heading = j.heading();
        out.push_str(&if markdown { format!("## {heading}\n\n") } else { format!("══ {heading}\n") });
        match &j.report {
            Ok(report) => out.push_str(&render_one(report, format, false)),
            Err(why) => out.push_str(&format!("ERROR {}\n", escape(why).replace('\n', "\n      "))),
        }
        out.push('\n');
    }
    let conformant = judged.iter().filter(|j| j.conformant()).count();
    let errors = judged.iter().filter(|j| j.report.is_err()).count();
    let path = checked.path.display();
    out.push_str(&if markdown {
        format!("## {path} ({} plugins)\n\n", judged.len())
    } else {
        format!("RuntimeConfig {path} ({} plugins)\n", judged.len())
    });
    for j in judged {
        let (verdict, sentence) = match &j.report {
            Ok(r) if r.verdict == Verdict::Conformant => (r.verdict_words().to_lowercase(), r.verdict_sentence()),
            Ok(r) => ("NONCONFORMANT".to_string(), r.verdict_sentence()),
            Err(_) => ("ERROR".to_string(), format!("not judged: see line {}", j.binding.line)),
        };
        let line = format!("{:<40} {:<30} {verdict:<14} {sentence}", j.binding.label(), format!("{} {}", j.family.name(), j.role));
        out.push_str(&if markdown { format!("- {line}\n") } else { format!("  {line}\n") });
    }
    for note in &checked.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    let not_judged = if errors > 0 { format!(", {errors} could not be judged (exit 2)") } else { String::new() };
    out.push_str(&format!("{}: {conformant} of {} plugins conformant{not_judged}\n", checked.verdict().to_uppercase(), judged.len()));
    out
}
