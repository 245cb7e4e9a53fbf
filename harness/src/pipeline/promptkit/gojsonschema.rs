//! A tool's arguments checked as PromptKit checks them, with gojsonschema v1.2.0's words
//! (validation.go, locales.go): PromptKit's registry validates with gojsonschema and prints each
//! violation as `FIELD: DESCRIPTION` (result.go:159-182), FIELD the path to the value (`(root)` for
//! the arguments themselves, `a.b`, `list.0`).
//!
//! The order is gojsonschema's for one value: its type (a wrong type stops there), then for an
//! object `required` in the schema's order, unknown properties against `additionalProperties`,
//! `enum`, then each property; for a string `enum`, then `minLength`, `maxLength`, `pattern`; for a
//! number its bounds, then `enum`; for an array its item count, then `enum`, then the items.
//! Keywords outside that list are not modelled here (the caller falls back to proctor's own check).

use proctor_pack::template::go_float;
use serde_json::Value;

/// Every violation of `schema` by `value`, as gojsonschema words them.
pub(super) fn violations(value: &Value, schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(value, schema, "(root)", &mut out);
    out
}

fn walk(value: &Value, schema: &Value, field: &str, out: &mut Vec<String>) {
    let Some(schema) = schema.as_object() else { return };
    let mut say = |description: String| out.push(format!("{field}: {description}"));
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let given = given_type(value);
    let fits = types.contains(&given) || (given == "integer" && types.contains(&"number"));
    if !types.is_empty() && !fits {
        let expected = if types.len() > 1 { format!("[{}]", types.join(",")) } else { types[0].to_string() };
        say(format!("Invalid type. Expected: {expected}, given: {given}"));
        return;
    }
    let enum_check = |say: &mut dyn FnMut(String)| {
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            let listed: Vec<String> = allowed.iter().map(Value::to_string).collect();
            say(format!("{field} must be one of the following: {}", listed.join(", ")));
        }
    };
    match value {
        Value::Object(object) => {
            for required in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                if !object.contains_key(required) {
                    say(format!("{required} is required"));
                }
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
                for key in object.keys().filter(|k| !properties.is_some_and(|p| p.contains_key(*k))) {
                    say(format!("Additional property {key} is not allowed"));
                }
            }
            enum_check(&mut say);
            for (name, sub) in properties.into_iter().flatten() {
                if let Some(item) = object.get(name) {
                    walk(item, sub, &child(field, name), out);
                }
            }
        }
        Value::Array(items) => {
            if let Some(min) = schema.get("minItems").and_then(Value::as_u64).filter(|m| (items.len() as u64) < *m) {
                say(format!("Array must have at least {min} items"));
            }
            if let Some(max) = schema.get("maxItems").and_then(Value::as_u64).filter(|m| (items.len() as u64) > *m) {
                say(format!("Array must have at most {max} items"));
            }
            enum_check(&mut say);
            if let Some(sub) = schema.get("items").filter(|s| s.is_object()) {
                for (i, item) in items.iter().enumerate() {
                    walk(item, sub, &child(field, &i.to_string()), out);
                }
            }
        }
        Value::Number(n) => {
            let n = n.as_f64().unwrap_or(0.0);
            let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
            if let Some(max) = bound("maximum").filter(|m| n > *m) {
                say(format!("Must be less than or equal to {}", go_float(max)));
            }
            if let Some(max) = bound("exclusiveMaximum").filter(|m| n >= *m) {
                say(format!("Must be less than {}", go_float(max)));
            }
            if let Some(min) = bound("minimum").filter(|m| n < *m) {
                say(format!("Must be greater than or equal to {}", go_float(min)));
            }
            if let Some(min) = bound("exclusiveMinimum").filter(|m| n <= *m) {
                say(format!("Must be greater than {}", go_float(min)));
            }
            enum_check(&mut say);
        }
        Value::String(text) => {
            enum_check(&mut say);
            let length = text.chars().count() as u64;
            if let Some(min) = schema.get("minLength").and_then(Value::as_u64).filter(|m| length < *m) {
                say(format!("String length must be greater than or equal to {min}"));
            }
            if let Some(max) = schema.get("maxLength").and_then(Value::as_u64).filter(|m| length > *m) {
                say(format!("String length must be less than or equal to {max}"));
            }
            if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
                && !proctor_pack::shape::matches(pattern, text)
            {
                say(format!("Does not match pattern '{pattern}'"));
            }
        }
        Value::Bool(_) | Value::Null => enum_check(&mut say),
    }
}

/// gojsonschema's name for a JSON value's type: a whole number is an `integer`.
fn given_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn child(field: &str, name: &str) -> String {
    if field == "(root)" { name.to_string() } else { format!("{field}.{name}") }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_violation_reads_as_gojsonschema_prints_it() {
        let schema = json!({"type": "object", "properties": {
            "event": {"type": "string", "enum": ["Submitted"]}, "context": {"type": "string"},
            "order_id": {"type": "string", "pattern": "^A-[0-9]{4}$"}, "value": {"type": "string"}}, "required": ["context"]});
        assert_eq!(
            violations(&json!({"event": "Merged", "context": "x"}), &schema),
            [r#"event: event must be one of the following: "Submitted""#]
        );
        assert_eq!(violations(&json!({}), &schema), ["(root): context is required"]);
        assert_eq!(violations(&json!({"context": "x", "value": 42}), &schema), ["value: Invalid type. Expected: string, given: integer"]);
        assert_eq!(violations(&json!({"context": "x", "order_id": "12345"}), &schema), ["order_id: Does not match pattern '^A-[0-9]{4}$'"]);
        assert!(violations(&json!({"context": "x", "event": "Submitted"}), &schema).is_empty());
        let closed = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert_eq!(violations(&json!({"x": 1}), &closed), ["(root): Additional property x is not allowed"]);
    }
}
