//! One pack under one profile: its shape, its references and its templates, as a list of diagnostics.

use serde::Serialize;

use crate::diagnostic::{At, Diagnostic, Findings, Severity};
use crate::profile::PackProfile;
use crate::shape::{self, Dialect, Shape};
use crate::source::Document;

#[derive(Debug, Clone, Serialize)]
pub struct PackReport {
    pub file: String,
    pub profile: String,
    /// No error-severity diagnostic under this profile.
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// The schema a profile reads a pack with.
pub fn dialect(profile: PackProfile) -> Dialect {
    match profile {
        PackProfile::PromptKit => Dialect::PromptKit,
        PackProfile::Documented => Dialect::Spec,
        PackProfile::PromptPackPython => Dialect::Python,
    }
}

pub fn check(document: &Document, profile: PackProfile) -> PackReport {
    let mut findings = Findings::new(document);
    for (pointer, _) in &document.duplicate_keys {
        findings.push(
            At::Key,
            pointer,
            Severity::Warning,
            "PACK-DUPLICATE-KEY",
            "this key is given twice in one object; every implementation silently keeps the last value",
            "remove one of them",
        );
    }
    if profile == PackProfile::PromptPackPython && document.format == crate::source::Format::Yaml {
        findings.error(
            "",
            "PACK-PYTHON-JSON-ONLY",
            "promptpack-python reads packs with json.loads: it cannot open a YAML pack",
            "ship the pack as JSON for promptpack-python (the spec allows both)",
        );
    }
    shape::walk(&Shape::Object(&shape::PACK), &document.value, "", dialect(profile), &mut findings);
    if let Some(pack) = document.value.as_object() {
        let from = findings.diagnostics.len();
        crate::references::check(pack, profile, &mut findings);
        if profile == PackProfile::PromptPackPython {
            // promptpack-python loads a pack without checking a single reference or template.
            for d in &mut findings.diagnostics[from..] {
                if d.severity == Severity::Error {
                    d.severity = Severity::Warning;
                    d.message.push_str(" (promptpack-python does not check this when it loads the pack)");
                }
            }
        }
    }
    let diagnostics = findings.finish();
    PackReport {
        file: document.file.display().to_string(),
        profile: profile.name().to_string(),
        valid: !diagnostics.iter().any(|d| d.severity == Severity::Error),
        diagnostics,
    }
}

impl PackReport {
    /// How many errors and how many warnings it has.
    pub fn counts(&self) -> (usize, usize) {
        let errors = self.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        (errors, self.diagnostics.len() - errors)
    }
}

/// Whether `profile`'s implementation refuses to load the pack over this diagnostic. The spec makes
/// every error a refusal; PromptKit opens a pack whose templates it cannot fill (it sends them raw
/// at run time) and a workflow whose state prompts it cannot render (the turns fail at run time).
pub fn refuses_to_open(diagnostic: &Diagnostic, profile: PackProfile) -> bool {
    let at_run_time = diagnostic.rule.starts_with("TEMPLATE-") || diagnostic.rule == "WORKFLOW-PROMPTKIT-HOST-VARIABLE";
    diagnostic.severity == Severity::Error && !(profile.is_promptkit() && at_run_time)
}
