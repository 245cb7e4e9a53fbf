//! Go's `json.MarshalIndent(v, "", "  ")` of a value decoded into `any`
//! (encode.go): what PromptKit shows the model for a tool's JSON result.
//!
//! Decoded into `any`, an object is a `map[string]any` (keys sorted on the
//! way out) and every number a `float64`, which Go writes in the shortest
//! form that reads back the same: plain digits from 1e-6 up to 1e21, an
//! exponent outside (`1e+21`, `1e-7`). So `-1.0` comes back as `-1` and an
//! integer past 2^53 loses its last digits. Strings get Go's HTML-safe
//! escaping.

use serde_json::Value;

use crate::protocol::wire::go_escape;

/// `json.MarshalIndent` of `value` as a Go `any`, two spaces per level.
pub fn marshal_indent_any(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, 0);
    out
}

/// How Go's encoder writes a `float64` (encode.go `floatEncoder`, bits 64).
pub fn float64(f: f64) -> String {
    let abs = f.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        // Rust's Display is the shortest round-trip form without an exponent, as Go's 'f', -1.
        return format!("{f}");
    }
    let scientific = format!("{f:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    match exponent < 0 {
        // Go writes at least two exponent digits, then trims `e-07` to `e-7`.
        true => format!("{mantissa}e-{}", exponent.abs()),
        false => format!("{mantissa}e+{exponent:02}"),
    }
}

fn write(out: &mut String, value: &Value, depth: usize) {
    let indent = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&float64(n.as_f64().unwrap_or(0.0))),
        Value::String(s) => out.push_str(&go_escape(&Value::String(s.clone()).to_string())),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                write(out, item, depth + 1);
            }
            indent(out, depth);
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                out.push_str(&go_escape(&Value::String(key.clone()).to_string()));
                out.push_str(": ");
                write(out, item, depth + 1);
            }
            indent(out, depth);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_go_out_as_float64s() {
        let cases = [
            (-1.0, "-1"),
            (0.5, "0.5"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1.5e-10, "1.5e-10"),
            (-0.0, "-0"),
        ];
        for (f, go) in cases {
            assert_eq!(float64(f), go, "{f}");
        }
        assert_eq!(float64(12345678901234567890_u64 as f64), "12345678901234567000");
    }

    #[test]
    fn objects_are_indented_with_sorted_keys_and_html_safe_strings() {
        let v: Value = serde_json::from_str(r#"{"status": "<ok>", "eta": [1.0, {}], "empty": []}"#).unwrap();
        assert_eq!(
            marshal_indent_any(&v),
            "{\n  \"empty\": [],\n  \"eta\": [\n    1,\n    {}\n  ],\n  \"status\": \"\\u003cok\\u003e\"\n}"
        );
        assert_eq!(marshal_indent_any(&json!(null)), "null");
    }
}
