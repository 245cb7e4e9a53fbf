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

/// A variable's value as text, the way an implementation prints it.
pub fn value_text(profile: PackProfile, value: &Value) -> String {
    match (profile, value) {
        (_, Value::String(s)) => s.clone(),
        (PackProfile::PromptKit, Value::Number(n)) => go_float(n.as_f64().unwrap_or_default()),
        (PackProfile::PromptPackPython, Value::Bool(b)) => if *b { "True" } else { "False" }.to_string(),
        (_, other) => other.to_string(),
    }
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
    /// [`PROMPTKIT_FALLBACK`], and the prompt's tools and validators were dropped.
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
#[derive(Debug, Clone)]
pub struct Declared {
    pub name: String,
    pub required: bool,
    pub default: Option<Value>,
}

/// Renders `template` under `profile` with the given values (already text, as a host passes them).
pub fn render(
    profile: PackProfile,
    template: &str,
    declared: &[Declared],
    given: &BTreeMap<String, String>,
    fragments: &BTreeMap<String, String>,
) -> Rendered {
    let mut values: BTreeMap<String, String> =
        declared.iter().filter_map(|d| Some((d.name.clone(), value_text(profile, d.default.as_ref()?)))).collect();
    values.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
    match profile {
        PackProfile::PromptKit => render_promptkit(template, declared, &values),
        PackProfile::Documented => render_documented(template, declared, &values, fragments),
        PackProfile::PromptPackPython => render_python(template, declared, &values, fragments),
    }
}

fn render_promptkit(template: &str, declared: &[Declared], values: &BTreeMap<String, String>) -> Rendered {
    if let Some(missing) = declared.iter().find(|d| d.required && values.get(&d.name).is_none_or(String::is_empty)) {
        return Rendered {
            text: PROMPTKIT_FALLBACK.into(),
            outcome: Outcome::PromptKitFallback { variable: missing.name.clone() },
            notes: Vec::new(),
        };
    }
    let mut text = template.to_string();
    for _ in 0..PROMPTKIT_PASSES {
        let before = text.clone();
        for (key, value) in values {
            text = text.replace(&format!("{{{{{key}}}}}"), value);
        }
        if text == before {
            break;
        }
    }
    let unresolved: Vec<String> = scan(&text).into_iter().map(|f| f.raw).collect();
    if unresolved.is_empty() {
        Rendered { text, outcome: Outcome::Rendered, notes: Vec::new() }
    } else {
        Rendered { text: template.to_string(), outcome: Outcome::PromptKitRaw { unresolved }, notes: Vec::new() }
    }
}

/// Replaces each placeholder once, left to right, by what `fill` returns (`None` leaves it).
fn substitute(template: &str, mut fill: impl FnMut(&Found) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut last = 0;
    for found in scan(template) {
        out.push_str(&template[last..found.offset]);
        match fill(&found) {
            Some(text) => out.push_str(&text),
            None => out.push_str(&found.raw),
        }
        last = found.offset + found.raw.len();
    }
    out.push_str(&template[last..]);
    out
}

fn render_documented(
    template: &str,
    declared: &[Declared],
    values: &BTreeMap<String, String>,
    fragments: &BTreeMap<String, String>,
) -> Rendered {
    if let Some(missing) = declared.iter().find(|d| d.required && !values.contains_key(&d.name)) {
        return Rendered {
            text: String::new(),
            outcome: Outcome::Refused { message: format!("required variable `{}` has no value", missing.name) },
            notes: Vec::new(),
        };
    }
    let mut notes = Vec::new();
    // Fragments first (they may hold variables, as the spec's examples imply), then one variable pass.
    let expanded = substitute(template, |found| match &found.placeholder {
        Placeholder::Fragment(name) => fragments.get(name).cloned(),
        _ => None,
    });
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
    });
    Rendered { text, outcome: Outcome::Rendered, notes }
}

fn render_python(
    template: &str,
    declared: &[Declared],
    values: &BTreeMap<String, String>,
    fragments: &BTreeMap<String, String>,
) -> Rendered {
    if let Some(missing) = declared.iter().find(|d| d.required && !values.contains_key(&d.name)) {
        return Rendered {
            text: String::new(),
            outcome: Outcome::Refused { message: format!("Required variable is missing: {}", missing.name) },
            notes: Vec::new(),
        };
    }
    let mut notes = Vec::new();
    let mut refused = None;
    let expanded = substitute(template, |found| match &found.placeholder {
        Placeholder::PythonFragment(name) => fragments.get(name).cloned(),
        _ => None,
    });
    let text = substitute(&expanded, |found| match &found.placeholder {
        Placeholder::Variable(name) => match values.get(name) {
            Some(value) => Some(value.clone()),
            None => {
                refused.get_or_insert_with(|| format!("no value for variable {name}"));
                None
            }
        },
        _ => {
            notes.push(format!("{} is left in the text as it is", found.raw));
            None
        }
    });
    match refused {
        Some(message) => Rendered { text: String::new(), outcome: Outcome::Refused { message }, notes },
        None => Rendered { text, outcome: Outcome::Rendered, notes },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(name: &str, required: bool, default: Option<Value>) -> Declared {
        Declared { name: name.into(), required, default }
    }

    #[test]
    fn scan_classifies_placeholders() {
        let kinds: Vec<Placeholder> =
            scan("{{a}} {{fragments.f}} {{fragment:g}} {{artifacts.x}} {{ b }} {{#if c}} {{").into_iter().map(|f| f.placeholder).collect();
        assert_eq!(
            kinds,
            vec![
                Placeholder::Variable("a".into()),
                Placeholder::Fragment("f".into()),
                Placeholder::PythonFragment("g".into()),
                Placeholder::Artifact("x".into()),
                Placeholder::Spaced("b".into()),
                Placeholder::Other("#if c".into()),
            ]
        );
    }

    #[test]
    fn go_prints_floats_as_percent_v() {
        assert_eq!(go_float(1_000_000.0), "1e+06");
        assert_eq!(go_float(100_000.0), "100000");
        assert_eq!(go_float(1.5), "1.5");
        assert_eq!(go_float(123_456_789.0), "1.23456789e+08");
        assert_eq!(go_float(0.00001), "1e-05");
        assert_eq!(go_float(0.0001), "0.0001");
        assert_eq!(go_float(-2.0), "-2");
    }

    #[test]
    fn the_three_part_ways_on_fragments_and_missing_variables() {
        let fragments = BTreeMap::from([("tone".to_string(), "Be kind to {{user}}.".to_string())]);
        let vars = [declared("user", true, None)];
        let given = BTreeMap::from([("user".to_string(), "Ann".to_string())]);
        let t = "Hi. {{fragments.tone}}";
        assert_eq!(render(PackProfile::Documented, t, &vars, &given, &fragments).text, "Hi. Be kind to Ann.");
        let pk = render(PackProfile::PromptKit, t, &vars, &given, &fragments);
        assert_eq!((pk.text.as_str(), pk.outcome), (t, Outcome::PromptKitRaw { unresolved: vec!["{{fragments.tone}}".into()] }));
        assert_eq!(render(PackProfile::PromptPackPython, t, &vars, &given, &fragments).text, t);

        let none = BTreeMap::new();
        let pk = render(PackProfile::PromptKit, "{{user}}", &vars, &none, &fragments);
        assert_eq!(pk.outcome, Outcome::PromptKitFallback { variable: "user".into() });
        assert_eq!(pk.text, PROMPTKIT_FALLBACK);
        let empty = BTreeMap::from([("user".to_string(), String::new())]);
        assert!(matches!(render(PackProfile::PromptKit, "{{user}}", &vars, &empty, &fragments).outcome, Outcome::PromptKitFallback { .. }));
        assert_eq!(render(PackProfile::PromptPackPython, "{{user}}", &vars, &empty, &fragments).text, "");
        assert!(matches!(render(PackProfile::Documented, "{{user}}", &vars, &none, &fragments).outcome, Outcome::Refused { .. }));
    }

    #[test]
    fn promptkit_re_expands_values_and_prints_defaults_its_own_way() {
        let vars = [declared("a", false, None), declared("b", false, None), declared("n", false, Some(Value::from(1_000_000)))];
        let given = BTreeMap::from([("a".to_string(), "{{b}}".to_string()), ("b".to_string(), "B".to_string())]);
        let none = BTreeMap::new();
        assert_eq!(render(PackProfile::PromptKit, "{{a}} {{n}}", &vars, &given, &none).text, "B 1e+06");
        assert_eq!(render(PackProfile::PromptPackPython, "{{a}} {{n}}", &vars, &given, &none).text, "{{b}} 1000000");
        let spaced = render(PackProfile::PromptKit, "{{a}} {{ b }}", &vars, &given, &none);
        assert_eq!(spaced.outcome, Outcome::PromptKitRaw { unresolved: vec!["{{ b }}".into()] });
    }
}
