//! The shrunk input as a ready-to-paste `--cases` entry.
//!
//! The request is written as a YAML flow mapping in pure ASCII: every
//! character outside printable ASCII is a `\u`/`\U` escape. That survives the
//! report's terminal escaping unchanged, cannot be mangled by a terminal or
//! an editor, and reads back (through serde-saphyr, as `--cases` does) as
//! exactly the value that was sent.

use std::fmt::Write as _;

use serde_json::Value;

/// A `--cases` list entry (indented for a `cases:` list) for `request`.
///
/// `selector` is the `phase:`/`method:` line when the family needs one;
/// `decision` is the expectation proposed (the author edits it to what the
/// plugin should answer).
pub fn render(name: &str, selector: Option<(&str, &str)>, request: &Value, decision: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  - name: {}", scalar(&Value::String(name.to_string())));
    if let Some((key, value)) = selector {
        let _ = writeln!(out, "    {key}: {value}");
    }
    let _ = writeln!(out, "    request: {}", flow(request));
    let _ = write!(out, "    expect: {{decision: {decision}}}   # what this input should get; edit to taste");
    out
}

/// A JSON value as an ASCII-only YAML flow node.
pub fn flow(value: &Value) -> String {
    match value {
        Value::Array(items) => format!("[{}]", items.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Value::Object(m) => {
            let members: Vec<String> = m.iter().map(|(k, v)| format!("{}: {}", scalar(&Value::String(k.clone())), flow(v))).collect();
            format!("{{{}}}", members.join(", "))
        }
        other => scalar(other),
    }
}

fn scalar(value: &Value) -> String {
    let Value::String(s) = value else { return value.to_string() };
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c if (c as u32) <= 0xFFFF => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08X}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    use super::*;
    use crate::certify::CasesFile;

    #[test]
    fn nasty_values_read_back_exactly_as_a_cases_file() {
        let nasty = json!({
            "args": {"q": "\"\\\n\r\t<>&'\u{2028}\u{0}\u{1b}\u{7f}é日🦀\u{feff}\u{202e}", "": "", "n": [1, -2, 3.5, null, true, {"k": []}], "big": i64::MAX, "#x": "a: b # c"}
        });
        let yaml = format!("cases:\n{}\n", render("fuzz \"1\"", Some(("method", "hook.before_tool")), &nasty, "continue"));
        assert!(yaml.is_ascii(), "{yaml}");
        let file = CasesFile::parse(&yaml, Path::new("fuzz.yaml")).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
        assert_eq!(file.cases[0].request, nasty, "{yaml}");
        assert_eq!(file.cases[0].name, "fuzz \"1\"");
        assert_eq!(file.cases[0].method.as_deref(), Some("hook.before_tool"));
        assert_eq!(file.cases[0].expect.decision.as_deref(), Some("continue"));
    }

    #[test]
    fn a_lone_quote_reads_as_a_lone_quote() {
        assert_eq!(flow(&json!({"args": {"text": "\""}})), r#"{"args": {"text": "\""}}"#);
    }
}
