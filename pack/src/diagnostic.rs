//! One finding about a pack: where (JSON pointer and `file:line:column`), how bad, which rule, and
//! what to do about it.

use serde::Serialize;

use crate::source::{Document, Place};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The pack is invalid under this profile: it will not load, or it will not do what it says.
    Error,
    /// The pack loads, but something in it is ignored, lost or surprising under this profile.
    Warning,
}

impl Severity {
    /// The word reports print (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// A JSON pointer (RFC 6901) into the pack; `""` is the whole pack.
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub severity: Severity,
    /// A rule id from [`crate::rules::RULES`].
    pub rule: &'static str,
    pub message: String,
    /// One line saying what to change.
    pub fix: String,
}

/// Collects diagnostics for one document, placing each at its pointer.
pub struct Findings<'d> {
    pub document: &'d Document,
    pub diagnostics: Vec<Diagnostic>,
}

/// Which place of a member a diagnostic points at: the value, or the key (an unknown field).
#[derive(Clone, Copy)]
pub enum At {
    Value,
    Key,
}

impl<'d> Findings<'d> {
    pub fn new(document: &'d Document) -> Self {
        Findings { document, diagnostics: Vec::new() }
    }

    pub fn push(&mut self, at: At, path: &str, severity: Severity, rule: &'static str, message: impl Into<String>, fix: impl Into<String>) {
        let Place { line, column } = match at {
            At::Value => self.document.place(path),
            At::Key => self.document.key_place(path),
        };
        self.diagnostics.push(Diagnostic {
            path: path.to_string(),
            line,
            column,
            severity,
            rule,
            message: message.into(),
            fix: fix.into(),
        });
    }

    pub fn error(&mut self, path: &str, rule: &'static str, message: impl Into<String>, fix: impl Into<String>) {
        self.push(At::Value, path, Severity::Error, rule, message, fix);
    }

    pub fn warning(&mut self, path: &str, rule: &'static str, message: impl Into<String>, fix: impl Into<String>) {
        self.push(At::Value, path, Severity::Warning, rule, message, fix);
    }

    /// Diagnostics in file order (line, column), errors first at one place.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.diagnostics.sort_by(|a, b| (a.line, a.column, a.severity, &a.path).cmp(&(b.line, b.column, b.severity, &b.path)));
        self.diagnostics.dedup();
        self.diagnostics
    }
}
