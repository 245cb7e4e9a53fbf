//! Templates: the placeholders in a `system_template`, and filling them in as each implementation does.
//!
//! The three disagree (../shared/research/promptpack.md §2): the spec substitutes `{{name}}` and
//! `{{fragments.x}}`; PromptKit find-replaces `{{key}}` for each variable (up to 10 passes), never
//! substitutes fragments, and sends the raw template when anything is left, or a generic prompt with
//! no tools when a required variable is missing; promptpack-python substitutes `{{identifier}}` once,
//! uses its own `{{fragment:x}}`, and leaves anything else in the text.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::profile::PackProfile;

/// PromptKit's system prompt when a required variable is missing (`stages_core.go`, loadTemplate).
pub const PROMPTKIT_FALLBACK: &str = "You are a helpful AI assistant.";

/// How many find-replace passes PromptKit's renderer makes (`renderer.go`).
const PROMPTKIT_PASSES: usize = 10;

/// The largest system prompt proctor renders (16 MiB): far beyond any
/// model's context. A 1 MB template repeating a 100 KB variable came to
/// 100 GB (more through PromptKit's re-expanding passes, or fragments
/// including fragments) and aborted on allocation; it is refused before the
/// text is built.
pub const MAX_RENDERED_BYTES: usize = 16 << 20;

/// The rendered text would exceed [`MAX_RENDERED_BYTES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placeholder {
    /// `{{name}}`: a variable.
    Variable(String),
    /// `{{fragments.x}}`: the spec's fragment reference.
    Fragment(String),
    /// `{{fragment:x}}`: promptpack-python's own fragment syntax.
    PythonFragment(String),
    /// `{{artifacts.x}}`: a workflow artifact (PromptKit, once it was set).
    Artifact(String),
    /// `{{ name }}` and other inner spacing around an identifier.
    Spaced(String),
    /// Anything else: `{{#if x}}`, `{{x | upper}}`, `{{}}`.
    Other(String),
}

/// One placeholder and where it starts in the template (byte offset).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub offset: usize,
    pub raw: String,
    pub placeholder: Placeholder,
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every `{{…}}` in a template, in order.
pub fn scan(template: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = template[from..].find("{{").map(|i| from + i) {
        let Some(close) = template[open + 2..].find("}}").map(|i| open + 2 + i) else { break };
        let inner = &template[open + 2..close];
        let trimmed = inner.trim();
        let placeholder = if let Some(name) = inner.strip_prefix("fragments.").filter(|n| is_identifier(n)) {
            Placeholder::Fragment(name.to_string())
        } else if let Some(name) = inner.strip_prefix("fragment:").filter(|n| is_identifier(n)) {
            Placeholder::PythonFragment(name.to_string())
        } else if let Some(name) = inner.strip_prefix("artifacts.").filter(|n| is_identifier(n)) {
            Placeholder::Artifact(name.to_string())
        } else if is_identifier(inner) {
            Placeholder::Variable(inner.to_string())
        } else if trimmed != inner && is_identifier(trimmed) {
            Placeholder::Spaced(trimmed.to_string())
        } else {
            Placeholder::Other(inner.to_string())
        };
        found.push(Found { offset: open, raw: template[open..close + 2].to_string(), placeholder });
        from = close + 2;
    }
    found
}

/// The byte offset of a `{{` no `}}` follows, and what follows it on its
/// line: every implementation leaves such text as written (`{{company.`).
pub fn unclosed(template: &str) -> Option<(usize, String)> {
    let last = scan(template).last().map_or(0, |f| f.offset + f.raw.len());
    let open = template[last..].find("{{").map(|i| last + i)?;
    let line = template[open..].lines().next().unwrap_or_default();
    Some((open, line.chars().take(40).collect()))
}

/// A variable's value as text, the way an implementation prints it.
pub fn value_text(profile: PackProfile, value: &Value) -> String {
    match (profile, value) {
        (_, Value::String(s)) => s.clone(),
        (PackProfile::PromptKit, Value::Number(n)) => go_float(n.as_f64().unwrap_or_default()),
        (PackProfile::PromptPackPython, other) => python_text(other),
        (_, other) => other.to_string(),
    }
}

/// promptpack-python's `_format_value` (`template.py`): None is empty, booleans lowercase, lists
/// and objects `json.dumps` (", " and ": " separators), numbers `str()` (a float keeps its `.0`).
fn python_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.is_f64() => python_float(n.as_f64().unwrap_or_default()),
        Value::Number(n) => n.to_string(),
        Value::Array(_) | Value::Object(_) => python_json(value),
    }
}

fn python_json(value: &Value) -> String {
    match value {
        Value::Array(items) => format!("[{}]", items.iter().map(python_json).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter().map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), python_json(v))).collect::<Vec<_>>().join(", ")
        ),
        Value::Number(n) if n.is_f64() => python_float(n.as_f64().unwrap_or_default()),
        other => other.to_string(),
    }
}

/// Python's `repr(float)`: shortest digits, always a decimal point or an exponent, the exponent
/// from 1e+16 up or below 1e-4.
pub fn python_float(value: f64) -> String {
    if value == 0.0 {
        return "0.0".into();
    }
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..16).contains(&exponent) {
        let plain = format!("{value}");
        return if plain.contains('.') { plain } else { format!("{plain}.0") };
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

/// Go's `%v` of a float64 (JSON numbers decode to float64): shortest digits, and an exponent from
/// 1e+06 up or below 1e-4, as `strconv.FormatFloat(f, 'g', -1, 64)` does.
pub fn go_float(value: f64) -> String {
    if value == 0.0 {
        return "0".into();
    }
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..6).contains(&exponent) {
        return format!("{value}");
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

/// What became of one template under one profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every placeholder was filled in (or, for promptpack-python, left as it is by design).
    Rendered,
    /// PromptKit: a required variable is missing or empty; the prompt was replaced by
    /// [`PROMPTKIT_FALLBACK`], and the prompt's tools were dropped (its validators were not: the SDK compiles them apart).
    PromptKitFallback { variable: String },
    /// PromptKit: something was left unresolved, so the raw template, with nothing substituted, is sent.
    PromptKitRaw { unresolved: Vec<String> },
    /// The implementation refuses to render (the spec's missing required variable; promptpack-python's
    /// strict errors).
    Refused { message: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub outcome: Outcome,
    /// Things worth saying that did not stop the render (a placeholder left in the text).
    pub notes: Vec<String>,
}

/// A prompt's declared variable, as rendering needs it.
#[derive(Debug, Clone, Default)]
pub struct Declared {
    pub name: String,
    pub required: bool,
    pub default: Option<Value>,
    /// The declared `type` (promptpack-python coerces a value to it).
    pub kind: Option<String>,
    /// The declared `validation` (promptpack-python enforces it).
    pub validation: Option<Value>,
}

/// Renders `template` under `profile` with the values a host gives (`--var` values are strings).
pub fn render(
    profile: PackProfile,
    template: &str,
    declared: &[Declared],
    given: &BTreeMap<String, Value>,
    fragments: &BTreeMap<String, String>,
) -> Result<Rendered, TooLarge> {
    if profile == PackProfile::PromptPackPython {
        return render_python(template, declared, given, fragments);
    }
    let mut values: BTreeMap<String, String> =
        declared.iter().filter_map(|d| Some((d.name.clone(), value_text(profile, d.default.as_ref()?)))).collect();
    values.extend(given.iter().map(|(k, v)| (k.clone(), value_text(profile, v))));
    match profile {
        PackProfile::PromptKit => {
            let mut rendered = render_promptkit(template, declared, &values)?;
            rendered.notes.extend(unchecked_by_promptkit(declared, given));
            Ok(rendered)
        }
        _ => {
            // The spec: a value must be of the declared `type` and meet its `validation` (the same
            // rules promptpack-python enforces, so its checks say it).
            for variable in declared {
                if let Some(value) = given.get(&variable.name).filter(|v| !v.is_null())
                    && let Err(message) = python_coerce(variable, value)
                {
                    let message =
                        format!("variable `{}`: {message} (the spec: a value meets its declared type and validation)", variable.name);
                    return Ok(Rendered { text: String::new(), outcome: Outcome::Refused { message }, notes: Vec::new() });
                }
            }
            render_documented(template, declared, &values, fragments)
        }
    }
}

/// PromptKit copies a variable's `type` and `validation` and never reads them
/// (runtime/prompt/pack.go:1016-1043 at 86d9f367; read, not run): a value that
/// breaks them goes out as given. Said, per variable it concerns.
fn unchecked_by_promptkit(declared: &[Declared], given: &BTreeMap<String, Value>) -> Vec<String> {
    declared
        .iter()
        .filter_map(|variable| {
            let value = given.get(&variable.name).filter(|v| !v.is_null())?;
            let message = python_coerce(variable, value).err()?;
            Some(format!(
                "`{}`: {message}; PromptKit checks neither a variable's type nor its validation, so it goes out as given",
                variable.name
            ))
        })
        .collect()
}

fn render_promptkit(template: &str, declared: &[Declared], values: &BTreeMap<String, String>) -> Result<Rendered, TooLarge> {
    if let Some(missing) = declared.iter().find(|d| d.required && values.get(&d.name).is_none_or(String::is_empty)) {
        return Ok(Rendered {
            text: PROMPTKIT_FALLBACK.into(),
            outcome: Outcome::PromptKitFallback { variable: missing.name.clone() },
            notes: Vec::new(),
        });
    }
    let mut text = template.to_string();
    for _ in 0..PROMPTKIT_PASSES {
        let before = text.clone();
        for (key, value) in values {
            let pattern = format!("{{{{{key}}}}}");
            // The size after the replacement, known before it is built.
            let grows = value.len().saturating_sub(pattern.len());
            if text.len().saturating_add(text.matches(&pattern).count().saturating_mul(grows)) > MAX_RENDERED_BYTES {
                return Err(TooLarge);
            }
            text = text.replace(&pattern, value);
        }
        if text == before {
            break;
        }
    }
    let unresolved: Vec<String> = scan(&text).into_iter().map(|f| f.raw).collect();
    Ok(if unresolved.is_empty() {
        Rendered { text, outcome: Outcome::Rendered, notes: Vec::new() }
    } else {
        Rendered { text: template.to_string(), outcome: Outcome::PromptKitRaw { unresolved }, notes: Vec::new() }
    })
}

/// Replaces each placeholder once, left to right, by what `fill` returns
/// (`None` leaves it); stops as soon as the text would pass [`MAX_RENDERED_BYTES`].
fn substitute(template: &str, mut fill: impl FnMut(&Found) -> Option<String>) -> Result<String, TooLarge> {
    let mut out = String::with_capacity(template.len().min(MAX_RENDERED_BYTES));
    let push = |out: &mut String, text: &str| {
        if out.len() + text.len() > MAX_RENDERED_BYTES {
            return Err(TooLarge);
        }
        out.push_str(text);
        Ok(())
    };
    let mut last = 0;
    for found in scan(template) {
        push(&mut out, &template[last..found.offset])?;
        match fill(&found) {
            Some(text) => push(&mut out, &text)?,
            None => push(&mut out, &found.raw)?,
        }
        last = found.offset + found.raw.len();
    }
    push(&mut out, &template[last..])?;
    Ok(out)
}

fn render_documented(
    template: &str,
    declared: &[Declared],
    values: &BTreeMap<String, String>,
    fragments: &BTreeMap<String, String>,
) -> Result<Rendered, TooLarge> {
    if let Some(missing) = declared.iter().find(|d| d.required && !values.contains_key(&d.name)) {
        return Ok(Rendered {
            text: String::new(),
            outcome: Outcome::Refused { message: format!("required variable `{}` has no value", missing.name) },
            notes: Vec::new(),
        });
    }
    let mut notes = Vec::new();
    // Fragments first (they may hold variables, as the spec's examples imply), then one variable pass.
    let expanded = substitute(template, |found| match &found.placeholder {
        Placeholder::Fragment(name) => fragments.get(name).cloned(),
        _ => None,
    })?;
    let text = substitute(&expanded, |found| match &found.placeholder {
        Placeholder::Variable(name) => match values.get(name) {
            Some(value) => Some(value.clone()),
            None => {
                notes.push(format!("{} has no value and no default: the spec does not say what it becomes; rendered as empty", found.raw));
                Some(String::new())
            }
        },
        _ => {
            notes.push(format!("{} is left in the text: the spec defines no such placeholder", found.raw));
            None
        }
    })?;
    Ok(Rendered { text, outcome: Outcome::Rendered, notes })
}

/// promptpack-python: `validate_variables` (strict: an unknown name, a missing required variable, a
/// value of the wrong type or against its `validation` is an error; values are coerced to the declared
/// type), then `TemplateEngine.render` (strict: `{{name}}` and `{{fragment:x}}` with no value are
/// errors; anything its pattern does not match, such as `{{fragments.x}}`, stays in the text).
fn render_python(
    template: &str,
    declared: &[Declared],
    given: &BTreeMap<String, Value>,
    fragments: &BTreeMap<String, String>,
) -> Result<Rendered, TooLarge> {
    let refuse = |message: String| Ok(Rendered { text: String::new(), outcome: Outcome::Refused { message }, notes: Vec::new() });
    if let Some(unknown) = given.keys().find(|k| !declared.iter().any(|d| &d.name == *k)) {
        return refuse(format!("Variable '{unknown}': Unknown variable"));
    }
    let mut values: BTreeMap<String, String> = BTreeMap::new();
    for variable in declared {
        let value = match given.get(&variable.name).filter(|v| !v.is_null()) {
            None if variable.required && variable.default.as_ref().is_none_or(Value::is_null) => {
                return refuse(format!("Variable '{}': Required variable is missing", variable.name));
            }
            None => variable.default.clone().unwrap_or(Value::Null),
            Some(value) => match python_coerce(variable, value) {
                Ok(value) => value,
                Err(message) => return refuse(format!("Variable '{}': {message}", variable.name)),
            },
        };
        values.insert(variable.name.clone(), python_text(&value));
    }
    let mut notes = Vec::new();
    let mut refused = None;
    let text = python_fill(template, &values, fragments, &mut refused, &mut notes, 0)?;
    match refused {
        Some(message) => refuse(message),
        None => Ok(Rendered { text, outcome: Outcome::Rendered, notes }),
    }
}

/// One strict pass of `TemplateEngine.render`; a fragment is rendered with the same variables.
fn python_fill(
    template: &str,
    values: &BTreeMap<String, String>,
    fragments: &BTreeMap<String, String>,
    refused: &mut Option<String>,
    notes: &mut Vec<String>,
    depth: usize,
) -> Result<String, TooLarge> {
    // A fragment too large to include stops the whole render, not only its placeholder.
    let mut too_large = false;
    let text = substitute(template, |found| match &found.placeholder {
        Placeholder::Variable(name) => match values.get(name) {
            Some(value) => Some(value.clone()),
            None => {
                refused.get_or_insert_with(|| format!("Undefined variable: {name}"));
                None
            }
        },
        Placeholder::PythonFragment(name) => match fragments.get(name) {
            // A fragment naming itself recurses until Python's stack gives out; stop earlier.
            Some(text) if depth < 16 => match python_fill(text, values, fragments, refused, notes, depth + 1) {
                Ok(text) => Some(text),
                Err(TooLarge) => {
                    too_large = true;
                    None
                }
            },
            Some(_) => {
                refused.get_or_insert_with(|| format!("fragment {name} includes itself (RecursionError)"));
                None
            }
            None => {
                refused.get_or_insert_with(|| format!("Undefined fragment: {name}"));
                None
            }
        },
        _ => {
            notes.push(format!("{} is left in the text as it is", found.raw));
            None
        }
    })?;
    if too_large { Err(TooLarge) } else { Ok(text) }
}

/// `_validate_type` and `_validate_rules` of promptpack-python's `variables.py`.
fn python_coerce(variable: &Declared, value: &Value) -> Result<Value, String> {
    let coerced = match (variable.kind.as_deref(), value) {
        (Some("string"), Value::String(_)) => value.clone(),
        (Some("string"), other) => Value::String(python_text(other)),
        (Some("number"), Value::Bool(_)) => return Err("Expected number, got bool".into()),
        (Some("number"), Value::Number(_)) => value.clone(),
        (Some("number"), Value::String(s)) => match s.trim().parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
            Some(n) => Value::Number(n),
            None => return Err("Expected number, got str".into()),
        },
        (Some("boolean"), Value::Bool(_)) => value.clone(),
        (Some("boolean"), Value::String(s)) => match s.to_lowercase().as_str() {
            "true" | "1" | "yes" => Value::Bool(true),
            "false" | "0" | "no" => Value::Bool(false),
            _ => return Err("Expected boolean, got str".into()),
        },
        (Some("boolean"), _) => return Err(format!("Expected boolean, got {}", python_type(value))),
        (Some("object"), v) if !v.is_object() => return Err(format!("Expected object, got {}", python_type(value))),
        (Some("array"), v) if !v.is_array() => return Err(format!("Expected array, got {}", python_type(value))),
        _ => value.clone(),
    };
    let Some(rules) = &variable.validation else { return Ok(coerced) };
    if let Some(text) = coerced.as_str() {
        // re.match anchors at the start only.
        if let Some(pattern) = rules.get("pattern").and_then(Value::as_str)
            && !crate::shape::matches(&format!("^(?:{pattern})"), text)
        {
            return Err(format!("Value does not match pattern: {pattern}"));
        }
        let length = text.chars().count() as u64;
        if let Some(min) = rules.get("min_length").and_then(Value::as_u64).filter(|m| length < *m) {
            return Err(format!("String too short (min: {min})"));
        }
        if let Some(max) = rules.get("max_length").and_then(Value::as_u64).filter(|m| length > *m) {
            return Err(format!("String too long (max: {max})"));
        }
    }
    if let (true, Some(n)) = (coerced.is_number(), coerced.as_f64()) {
        if let Some(min) = rules.get("minimum").and_then(Value::as_f64).filter(|m| n < *m) {
            return Err(format!("Value below minimum: {}", python_float(min)));
        }
        if let Some(max) = rules.get("maximum").and_then(Value::as_f64).filter(|m| n > *m) {
            return Err(format!("Value above maximum: {}", python_float(max)));
        }
    }
    if let Some(allowed) = rules.get("enum").and_then(Value::as_array)
        && !allowed.iter().any(|a| a == &coerced || (a.is_number() && a.as_f64() == coerced.as_f64()))
    {
        return Err(format!("Value not in allowed values: [{}]", allowed.iter().map(python_repr).collect::<Vec<_>>().join(", ")));
    }
    Ok(coerced)
}

fn python_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// A value as Python's `repr` shows it inside a list (strings quoted with ').
fn python_repr(value: &Value) -> String {
    match value {
        Value::String(s) => format!("'{s}'"),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Null => "None".into(),
        other => python_text(other),
    }
}

#[cfg(test)]
#[path = "template_tests.rs"]
mod tests;
