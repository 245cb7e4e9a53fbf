//! A small JSON Schema validator for the keywords the generator supports.
//!
//! The generator uses it to honour `oneOf` (a value matching two branches is
//! invalid) and the tests use it to prove every generated value is valid. It
//! is deliberately independent of how values are generated, so a generator
//! bug cannot hide behind a validator with the same bug.

use serde_json::{Map, Value};

/// Whether `value` is valid against `schema` (`root` resolves local `$ref`s).
/// The error names the JSON path of the first violation.
pub fn validate(value: &Value, schema: &Value, root: &Value) -> Result<(), String> {
    check(value, schema, root, "$", 0)
}

/// Whether the items are pairwise different (JSON equality, 1 == 1.0).
pub fn unique(items: &[Value]) -> bool {
    items.iter().enumerate().all(|(i, a)| items[i + 1..].iter().all(|b| !json_eq(a, b)))
}

fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w))),
        _ => a == b,
    }
}

fn check(value: &Value, schema: &Value, root: &Value, at: &str, depth: usize) -> Result<(), String> {
    if depth > 64 {
        return Err(format!("{at}: schema nests too deeply"));
    }
    let s = match schema {
        Value::Bool(true) => return Ok(()),
        Value::Bool(false) => return Err(format!("{at}: the schema is `false`")),
        Value::Object(s) => s,
        _ => return Err(format!("{at}: not a schema")),
    };
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let path = r.trim_start_matches('#').replace("~1", "/").replace("~0", "~");
        let target = root.pointer(&path).ok_or_else(|| format!("{at}: unresolved $ref {r}"))?;
        return check(value, target, root, at, depth + 1);
    }
    if value.is_null() && s.get("nullable") == Some(&Value::Bool(true)) {
        return Ok(());
    }
    if let Some(c) = s.get("const").filter(|c| !json_eq(c, value)) {
        return Err(format!("{at}: expected const {c}, got {value}"));
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array).filter(|e| !e.iter().any(|x| json_eq(x, value))) {
        return Err(format!("{at}: {value} is not one of {}", Value::Array(e.clone())));
    }
    if let Some(list) = s.get("anyOf").and_then(Value::as_array)
        && !list.iter().any(|b| check(value, b, root, at, depth + 1).is_ok())
    {
        return Err(format!("{at}: matches no anyOf branch"));
    }
    if let Some(list) = s.get("allOf").and_then(Value::as_array) {
        for b in list {
            check(value, b, root, at, depth + 1)?;
        }
    }
    if let Some(list) = s.get("oneOf").and_then(Value::as_array) {
        let n = list.iter().filter(|b| check(value, b, root, at, depth + 1).is_ok()).count();
        if n != 1 {
            return Err(format!("{at}: matches {n} oneOf branches, not exactly one"));
        }
    }
    match s.get("type") {
        Some(Value::String(t)) if !has_type(value, t) => return Err(format!("{at}: {value} is not of type {t}")),
        Some(Value::Array(ts)) if !ts.iter().filter_map(Value::as_str).any(|t| has_type(value, t)) => {
            return Err(format!("{at}: {value} is not of any type in {}", Value::Array(ts.clone())));
        }
        _ => {}
    }
    match value {
        Value::String(text) => string(text, s, at),
        Value::Number(_) => number(value, s, at),
        Value::Array(items) => array(items, s, root, at, depth),
        Value::Object(members) => object(members, s, root, at, depth),
        _ => Ok(()),
    }
}

fn has_type(value: &Value, t: &str) -> bool {
    match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.as_i64().is_some() || value.as_u64().is_some() || value.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn limit(s: &Map<String, Value>, key: &str) -> Option<u64> {
    s.get(key).and_then(Value::as_u64)
}

fn string(text: &str, s: &Map<String, Value>, at: &str) -> Result<(), String> {
    let n = text.chars().count() as u64;
    if limit(s, "minLength").is_some_and(|m| n < m) || limit(s, "maxLength").is_some_and(|m| n > m) {
        return Err(format!("{at}: length {n} is outside minLength/maxLength"));
    }
    Ok(())
}

fn number(value: &Value, s: &Map<String, Value>, at: &str) -> Result<(), String> {
    let x = value.as_f64().unwrap_or(f64::NAN);
    let bound = |k: &str| s.get(k).and_then(Value::as_f64);
    let flag = |k: &str| s.get(k) == Some(&Value::Bool(true));
    let below = |m: f64, exclusive: bool| if exclusive { x <= m } else { x < m };
    let above = |m: f64, exclusive: bool| if exclusive { x >= m } else { x > m };
    if bound("minimum").is_some_and(|m| below(m, flag("exclusiveMinimum"))) || bound("exclusiveMinimum").is_some_and(|m| below(m, true)) {
        return Err(format!("{at}: {value} is below the minimum"));
    }
    if bound("maximum").is_some_and(|m| above(m, flag("exclusiveMaximum"))) || bound("exclusiveMaximum").is_some_and(|m| above(m, true)) {
        return Err(format!("{at}: {value} is above the maximum"));
    }
    if let Some(m) = bound("multipleOf").filter(|m| *m > 0.0 && (x / m).fract() != 0.0) {
        return Err(format!("{at}: {value} is not a multiple of {m}"));
    }
    Ok(())
}

fn array(items: &[Value], s: &Map<String, Value>, root: &Value, at: &str, depth: usize) -> Result<(), String> {
    let n = items.len() as u64;
    if limit(s, "minItems").is_some_and(|m| n < m) || limit(s, "maxItems").is_some_and(|m| n > m) {
        return Err(format!("{at}: {n} items is outside minItems/maxItems"));
    }
    if s.get("uniqueItems") == Some(&Value::Bool(true)) && !unique(items) {
        return Err(format!("{at}: items are not unique"));
    }
    if let Some(item) = s.get("items").filter(|i| !i.is_array()) {
        for (i, v) in items.iter().enumerate() {
            check(v, item, root, &format!("{at}[{i}]"), depth + 1)?;
        }
    }
    Ok(())
}

fn object(members: &Map<String, Value>, s: &Map<String, Value>, root: &Value, at: &str, depth: usize) -> Result<(), String> {
    let empty = Map::new();
    let props = s.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    for name in s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        if !members.contains_key(name) {
            return Err(format!("{at}: required property `{name}` is missing"));
        }
    }
    for (k, v) in members {
        let path = format!("{at}.{k}");
        match (props.get(k), s.get("additionalProperties")) {
            (Some(sub), _) => check(v, sub, root, &path, depth + 1)?,
            (None, Some(Value::Bool(false))) => return Err(format!("{at}: property `{k}` is not allowed (additionalProperties: false)")),
            (None, Some(sub @ Value::Object(_))) => check(v, sub, root, &path, depth + 1)?,
            (None, _) => {}
        }
    }
    Ok(())
}
