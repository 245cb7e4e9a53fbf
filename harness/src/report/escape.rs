//! Making plugin-originated text safe for a terminal.
//!
//! A plugin controls the bytes it writes; printed raw they could move the
//! cursor, rewrite earlier lines or reorder text (bidi controls). A
//! conformance tool must *show* such bytes, so they are escaped, not dropped.

/// Escapes control characters (except newline and tab), DEL, C1 controls and
/// bidi controls as visible `\u{..}` sequences.
pub fn escape(text: &str) -> String {
    escape_where(text, |c| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202A}'..='\u{202E}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
            || c == '\u{200E}'
            || c == '\u{200F}'
    })
}

/// `text` with every character `dangerous` picks written as `\u{..}`.
fn escape_where(text: &str, dangerous: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if dangerous(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A name (a file name, an id) on one line: [`escape`], and newlines and tabs
/// too, so a name with a newline cannot forge a line of the report.
pub fn escape_name(name: &str) -> String {
    escape(name).replace('\n', "\\n").replace('\t', "\\t")
}

/// XML text: every character XML 1.0 forbids (C0 controls but tab, newline
/// and carriage return; U+FFFE, U+FFFF; lone surrogates cannot occur in a
/// Rust string) escaped as visible `\u{..}`, like [`escape`] does for the
/// terminal, so a plugin's bytes cannot make the document ill-formed.
pub fn xml_safe(xml: &str) -> String {
    escape_where(xml, |c| (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{FFFE}' || c == '\u{FFFF}')
}

/// Shows line endings and trailing whitespace explicitly (they are often the point of a failure),
/// keeping at most `max_bytes` of the text.
pub(super) fn visible(text: &str, max_bytes: usize) -> String {
    let trimmed = text.strip_suffix('\n');
    let body = trimmed.unwrap_or(text).replace("\r\n", "\\r\\n\n").replace('\r', "\\r");
    let body = if body.len() > max_bytes { format!("{}…", &body[..body.floor_char_boundary(max_bytes)]) } else { body };
    match trimmed {
        Some(_) => format!("{body}⏎"),
        None if text.is_empty() => "(nothing)".to_string(),
        None => format!("{body} (no trailing newline)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_but_keeps_newlines() {
        assert_eq!(escape("a\x1b[31mb"), "a\\u{1b}[31mb");
        assert_eq!(escape("x\u{9b}y"), "x\\u{9b}y");
        assert_eq!(escape("\u{202e}evil"), "\\u{202e}evil");
        assert_eq!(escape("line\n\tnext\r"), "line\n\tnext\\u{d}");
        assert_eq!(escape_name("new\nline\t.json"), "new\\nline\\t.json");
    }

    #[test]
    fn xml_keeps_what_xml_allows() {
        assert_eq!(
            xml_safe("<a>x\u{1b}[31m\u{ffff}\u{fffe}\u{0}\t\n\r\u{fffd}é</a>"),
            "<a>x\\u{1b}[31m\\u{ffff}\\u{fffe}\\u{0}\t\n\r\u{fffd}é</a>"
        );
    }
}
