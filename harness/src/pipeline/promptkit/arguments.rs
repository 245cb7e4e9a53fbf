//! A pack tool's arguments checked against its `parameters` before anything runs, as PromptKit's
//! tool registry does (`runtime/tools/registry.go`, `validator.go` at 86d9f367): string-encoded
//! numbers and booleans are first coerced to the schema's types, a string that is one of its `enum`
//! but for case or surrounding spaces is taken as that value (validator.go:366-374, 415-442), then
//! the arguments are validated;
//! a violation never reaches the tool, and the model is told `Error: tool NAME validation error
//! (args_invalid): argument validation failed: [...]`, the violations inside the brackets in
//! gojsonschema's words, space-separated (`%v` of a `[]string`, validator.go:77-84). A keyword
//! [`gojsonschema`](super::gojsonschema) does not model is still checked, in proctor's words.

use proctor_conformance::certify::fuzz::validate::validate;
use serde_json::Value;

/// The arguments to run the tool with, or the text the model gets instead.
pub(super) fn check(tool: &str, schema: &Value, arguments: &Value) -> Result<Value, String> {
    let mut coerced = if arguments.is_null() { Value::Object(Default::default()) } else { arguments.clone() };
    if let (Some(properties), Some(args)) = (schema.get("properties").and_then(Value::as_object), coerced.as_object_mut()) {
        for (name, value) in args.iter_mut() {
            let Some(text) = value.as_str() else { continue };
            let allowed = properties.get(name).and_then(|p| p.get("enum")).and_then(Value::as_array);
            let loose = allowed.into_iter().flatten().filter_map(Value::as_str).find(|a| *a != text && a.eq_ignore_ascii_case(text.trim()));
            if let Some(exact) = loose.filter(|_| !allowed.into_iter().flatten().any(|a| a == text)) {
                *value = Value::String(exact.to_string());
                continue;
            }
            let wanted = properties.get(name).and_then(|p| p.get("type")).and_then(Value::as_str);
            let parsed = match wanted {
                Some("number") => text.trim().parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number),
                Some("integer") => text.trim().parse::<i64>().ok().map(Value::from),
                Some("boolean") => text.trim().parse::<bool>().ok().map(Value::Bool),
                _ => None,
            };
            if let Some(parsed) = parsed {
                *value = parsed;
            }
        }
    }
    let mut violations = super::gojsonschema::violations(&coerced, schema);
    if violations.is_empty()
        && let Err(violation) = validate(&coerced, schema, schema).and_then(|()| patterns(&coerced, schema, "$"))
    {
        violations.push(violation);
    }
    match violations.is_empty() {
        true => Ok(coerced),
        false => Err(format!("Error: tool {tool} validation error (args_invalid): argument validation failed: [{}]", violations.join(" "))),
    }
}

/// `pattern`, which the fuzz validator leaves out (its generator never makes patterned strings),
/// through properties and items.
fn patterns(value: &Value, schema: &Value, at: &str) -> Result<(), String> {
    if let (Some(text), Some(pattern)) = (value.as_str(), schema.get("pattern").and_then(Value::as_str))
        && !proctor_pack::shape::matches(pattern, text)
    {
        return Err(format!("{at}: {text:?} does not match pattern {pattern:?}"));
    }
    if let (Some(object), Some(properties)) = (value.as_object(), schema.get("properties").and_then(Value::as_object)) {
        for (name, item) in object {
            if let Some(sub) = properties.get(name) {
                patterns(item, sub, &format!("{at}.{name}"))?;
            }
        }
    }
    if let (Some(items), Some(sub)) = (value.as_array(), schema.get("items")) {
        for (i, item) in items.iter().enumerate() {
            patterns(item, sub, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strings_are_coerced_then_the_schema_decides() {
        let schema = json!({"type": "object", "properties": {"order_id": {"type": "string", "pattern": "^A-[0-9]{4}$"}, "amount": {"type": "number"}}, "required": ["order_id"]});
        assert_eq!(
            check("refund", &schema, &json!({"order_id": "A-1234", "amount": "12.5"})),
            Ok(json!({"order_id": "A-1234", "amount": 12.5}))
        );
        let error = check("refund", &schema, &json!({"amount": 3})).unwrap_err();
        assert!(error.starts_with("Error: tool refund validation error (args_invalid): argument validation failed: ["), "{error}");
        assert!(error.contains("order_id"), "{error}");
        assert!(check("refund", &schema, &json!({"order_id": "B-1"})).is_err());
        assert!(check("refund", &schema, &Value::Null).is_err(), "null arguments are validated as {{}}");
        let events = json!({"type": "object", "properties": {"event": {"type": "string", "enum": ["Resolve", "Escalate"]}}});
        assert_eq!(check("t", &events, &json!({"event": " resolve "})), Ok(json!({"event": "Resolve"})), "case and spaces are forgiven");
        assert!(check("t", &events, &json!({"event": "Merge"})).unwrap_err().contains("args_invalid"));
    }
}
