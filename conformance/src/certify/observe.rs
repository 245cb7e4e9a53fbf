//! Turning what the framing readers found into framing check outcomes.

use crate::check::{CheckId, Evidence, Failure};
use crate::framing::{Document, Line, Violation};

use super::recorder::Recorder;

/// The framing check a one-shot violation breaks.
fn document_check(v: &Violation) -> CheckId {
    match v {
        Violation::MultiLine { .. } => "FRAMING-COMPACT",
        Violation::NotUtf8 { .. } => "FRAMING-UTF8",
        Violation::Bom => "FRAMING-NO-BOM",
        _ => "FRAMING-SINGLE-DOCUMENT",
    }
}

/// The framing check a line violation breaks. A line that does not even
/// start like JSON is stray output (a log line); one that does but is
/// broken is a framing error of the message itself.
fn line_check(v: &Violation) -> CheckId {
    match v {
        Violation::Garbage { excerpt, .. } if !looks_like_json(excerpt) => "FRAMING-NO-STRAY-OUTPUT",
        Violation::BlankLine => "FRAMING-NO-STRAY-OUTPUT",
        Violation::MultiLine { .. } => "FRAMING-COMPACT",
        Violation::NotUtf8 { .. } => "FRAMING-UTF8",
        Violation::Bom => "FRAMING-NO-BOM",
        Violation::CrLf => "FRAMING-LF-ENDINGS",
        Violation::Oversize { .. } => "FRAMING-LINE-SIZE",
        _ => "FRAMING-LINE-PER-MESSAGE",
    }
}

fn looks_like_json(excerpt: &str) -> bool {
    // The excerpt is Debug-quoted: skip the quote and an ellipsis.
    let inner = excerpt.trim_start_matches('"').trim_start_matches('…').trim_start();
    inner.starts_with(['{', '[', '"', '}', ']'])
}

const DOCUMENT_CHECKS: &[CheckId] = &["FRAMING-SINGLE-DOCUMENT", "FRAMING-COMPACT", "FRAMING-UTF8", "FRAMING-NO-BOM"];

/// Records the framing checks a one-shot document decides.
pub(crate) fn document(rec: &mut Recorder, doc: &Document, evidence: &Evidence) {
    for v in &doc.violations {
        rec.fail(document_check(v), Failure::Framing { violation: v.clone() }, evidence.clone());
    }
    for id in DOCUMENT_CHECKS {
        rec.pass(id, evidence.clone());
    }
}

const LINE_CHECKS: &[CheckId] =
    &["FRAMING-LINE-PER-MESSAGE", "FRAMING-NO-STRAY-OUTPUT", "FRAMING-COMPACT", "FRAMING-UTF8", "FRAMING-NO-BOM", "FRAMING-LF-ENDINGS"];

/// Records the framing checks one stdout line decides.
pub(crate) fn line(rec: &mut Recorder, line: &Line, evidence: &Evidence) {
    for v in &line.violations {
        rec.fail(line_check(v), Failure::Framing { violation: v.clone() }, evidence.clone());
    }
    if line.value.is_some() {
        for id in LINE_CHECKS {
            rec.pass(id, evidence.clone());
        }
    }
}

/// Records a line-framing violation found outside a single line (a
/// pretty-printed message spanning lines, an unterminated last line).
pub(crate) fn violation(rec: &mut Recorder, v: Violation, evidence: &Evidence) {
    rec.fail(line_check(&v), Failure::Framing { violation: v }, evidence.clone());
}
