//! The walker: one pass over a document against the table, under one dialect.

use serde_json::Value;

use super::schema::{INLINE_SKILL, SKILL_PATH};
use super::{Dialect, Object, Shape, Str, matches, nearest};
use crate::diagnostic::{At, Findings, Severity};
use crate::source::{child, kind};

/// Checks `value` at `pointer` against `shape` under `dialect`.
pub fn walk(shape: &Shape, value: &Value, pointer: &str, dialect: Dialect, out: &mut Findings) {
    let mut w = Walker { dialect, out };
    w.shape(shape, value, pointer);
}

struct Walker<'a, 'd> {
    dialect: Dialect,
    out: &'a mut Findings<'d>,
}

impl Walker<'_, '_> {
    /// A value outside the closed list one implementation accepts (`allowed` empty: it accepts the spec's).
    fn implementation_enum(&mut self, pointer: &str, text: &str, allowed: &[&str], implementation: &str) {
        if allowed.is_empty() || allowed.contains(&text) {
            return;
        }
        let allowed = allowed.join(", ");
        self.fail(
            At::Value,
            pointer,
            "PACK-ENUM",
            true,
            format!("{text:?} is not one of {allowed}"),
            format!("for {implementation}, use one of {allowed}"),
        );
    }

    /// A violation; `fork` marks one that only PromptKit's schema fork has, which is reported under
    /// its own rule so the author sees it is PromptKit, not the spec, that refuses.
    fn fail(&mut self, at: At, pointer: &str, rule: &'static str, fork: bool, message: String, fix: String) {
        match (fork, self.dialect) {
            (true, Dialect::PromptKit) => {
                let message = format!("PromptKit refuses to open the pack: its schema fork says {message}");
                self.out.push(at, pointer, Severity::Error, "PACK-PROMPTKIT-SCHEMA", message, fix);
            }
            (true, Dialect::Python) => {
                let message = format!("promptpack-python refuses to load the pack: its models say {message}");
                self.out.push(at, pointer, Severity::Error, "PACK-PYTHON-MODEL", message, fix);
            }
            _ => self.out.push(at, pointer, Severity::Error, rule, message, fix),
        }
    }

    fn shape(&mut self, shape: &Shape, value: &Value, pointer: &str) {
        match shape {
            Shape::Any => {}
            Shape::Bool => {
                if !value.is_boolean() {
                    self.type_error(pointer, value, "a boolean (true or false)");
                }
            }
            Shape::Int { min } => match value.as_i64() {
                Some(n) => self.minimum(pointer, n as f64, min.map(|m| m as f64)),
                None => self.type_error(pointer, value, "an integer"),
            },
            Shape::IntOrNull { min } => match value {
                Value::Null => {}
                _ => self.shape(&Shape::Int { min: *min }, value, pointer),
            },
            Shape::Num { min, max } => match value.as_f64() {
                Some(n) => {
                    self.minimum(pointer, n, *min);
                    if let Some(max) = max
                        && n > *max
                    {
                        self.fail(
                            At::Value,
                            pointer,
                            "PACK-RANGE",
                            false,
                            format!("{n} is above the maximum {max}"),
                            format!("use a value from its range, at most {max}"),
                        );
                    }
                }
                None => self.type_error(pointer, value, "a number"),
            },
            Shape::Str(rule) => match value.as_str() {
                Some(text) => self.string(rule, text, pointer),
                None => self.type_error(pointer, value, "a string"),
            },
            Shape::Array { items, min_items } => match value.as_array() {
                Some(array) => {
                    if array.len() < *min_items {
                        self.fail(
                            At::Value,
                            pointer,
                            "PACK-EMPTY",
                            false,
                            format!("at least {min_items} item(s) are required"),
                            "add the missing items".into(),
                        );
                    }
                    for (i, item) in array.iter().enumerate() {
                        self.shape(items, item, &child(pointer, &i.to_string()));
                    }
                }
                None => self.type_error(pointer, value, "an array"),
            },
            Shape::Map { values, min_entries } => match value.as_object() {
                Some(map) => {
                    if map.len() < *min_entries {
                        self.fail(
                            At::Value,
                            pointer,
                            "PACK-EMPTY",
                            false,
                            "must not be empty".into(),
                            "add at least one entry, keyed by its name".into(),
                        );
                    }
                    for (key, item) in map {
                        self.shape(values, item, &child(pointer, key));
                    }
                }
                None if value.is_array() => self.fail(
                    At::Value,
                    pointer,
                    "PACK-TYPE",
                    false,
                    "expected an object keyed by name, found an array".into(),
                    "write it as a map: each entry's key is its identifier (\"name\": {...}), not a list".into(),
                ),
                None => self.type_error(pointer, value, "an object"),
            },
            Shape::Object(object) => self.object(object, value, pointer),
            Shape::Skill => match value {
                Value::String(_) => {}
                Value::Object(map) if map.contains_key("path") => self.object(&SKILL_PATH, value, pointer),
                Value::Object(_) => self.object(&INLINE_SKILL, value, pointer),
                _ => self.type_error(pointer, value, "a skill: a path string, {path, preload}, or {name, description, instructions}"),
            },
        }
    }

    fn minimum(&mut self, pointer: &str, n: f64, min: Option<f64>) {
        if let Some(min) = min
            && n < min
        {
            self.fail(
                At::Value,
                pointer,
                "PACK-RANGE",
                false,
                format!("{n} is below the minimum {min}"),
                format!("use a value of at least {min}"),
            );
        }
    }

    fn type_error(&mut self, pointer: &str, value: &Value, expected: &str) {
        let found = match value {
            Value::String(s) if matches!(s.as_str(), "yes" | "no" | "on" | "off" | "y" | "n" | "True" | "False") => {
                format!("the string {s:?} (YAML 1.2 reads only true/false as booleans)")
            }
            _ => kind(value).to_string(),
        };
        self.fail(At::Value, pointer, "PACK-TYPE", false, format!("expected {expected}, found {found}"), format!("write {expected} here"));
    }

    fn string(&mut self, rule: &Str, text: &str, pointer: &str) {
        let length = text.chars().count();
        if length < rule.min_len {
            self.fail(At::Value, pointer, "PACK-LENGTH", false, "must not be empty".into(), "write a non-empty value".into());
        }
        if let Some(max) = rule.max_len
            && length > max
        {
            self.fail(
                At::Value,
                pointer,
                "PACK-LENGTH",
                false,
                format!("{length} characters, at most {max} are allowed"),
                format!("shorten it to {max} characters"),
            );
        }
        if let Some(pattern) = rule.pattern
            && !matches(pattern.regex, text)
        {
            self.fail(
                At::Value,
                pointer,
                "PACK-PATTERN",
                false,
                format!("{text:?} is not {}", pattern.meaning),
                format!("use {}", pattern.meaning),
            );
        }
        if !rule.one_of.is_empty() && !rule.one_of.contains(&text) {
            self.fail(
                At::Value,
                pointer,
                "PACK-ENUM",
                false,
                format!("{text:?} is not one of {}", rule.one_of.join(", ")),
                format!("use one of {}", rule.one_of.join(", ")),
            );
        }
        if self.dialect == Dialect::Python {
            self.implementation_enum(pointer, text, rule.python_one_of, "promptpack-python");
        }
        if self.dialect == Dialect::PromptKit {
            self.implementation_enum(pointer, text, rule.promptkit_one_of, "PromptKit");
            if let Some(format) = rule.promptkit_format
                && !format.accepts(text)
            {
                let message =
                    format!("PromptKit refuses to open the pack: gojsonschema checks formats, and {text:?} is not {}", format.meaning());
                self.out.push(At::Value, pointer, Severity::Error, "PACK-FORMAT", message, format!("write {}", format.meaning()));
            }
        }
    }

    fn object(&mut self, object: &Object, value: &Value, pointer: &str) {
        let Some(map) = value.as_object() else {
            return self.type_error(pointer, value, &format!("an object ({})", object.what));
        };
        let dialect = self.dialect;
        let reader = match dialect {
            Dialect::Spec => "the spec",
            Dialect::PromptKit => "PromptKit",
            Dialect::Python => "promptpack-python",
        };
        for field in object.fields {
            let member = child(pointer, field.name);
            match map.get(field.name) {
                None if field.required.has(dialect) && field.exists.has(dialect) => self.fail(
                    At::Value,
                    &member,
                    "PACK-REQUIRED",
                    !field.required.has(Dialect::Spec),
                    format!("the {} has no `{}`, which is required", object.what, field.name),
                    format!("add `{}`", field.name),
                ),
                Some(item) if field.exists.has(dialect) => self.shape(field.shape, item, &member),
                _ => {}
            }
        }
        if !object.closed {
            return;
        }
        for key in map.keys() {
            let member = child(pointer, key);
            match object.fields.iter().find(|f| f.name == key).map(|f| f.exists) {
                Some(exists) if exists.has(dialect) => {}
                // The spec has it and this reader does not.
                Some(exists) if exists.has(Dialect::Spec) => self.fail(
                    At::Key,
                    &member,
                    "PACK-UNKNOWN-FIELD",
                    true,
                    format!("a {} has no field `{key}`", object.what),
                    format!("remove `{key}` for {reader} (the spec has it; {reader} does not)"),
                ),
                Some(_) => self.fail(
                    At::Key,
                    &member,
                    "PACK-UNKNOWN-FIELD",
                    false,
                    format!("a {} has no field `{key}` in the spec (it is PromptKit's extension)", object.what),
                    format!("remove `{key}`, or accept that only PromptKit reads this pack"),
                ),
                None => {
                    let known: Vec<&str> = object.fields.iter().filter(|f| f.exists.has(dialect)).map(|f| f.name).collect();
                    let near = nearest(key, &known).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                    self.fail(
                        At::Key,
                        &member,
                        "PACK-UNKNOWN-FIELD",
                        false,
                        format!("a {} has no field `{key}`", object.what),
                        format!("{near}the fields of a {} are {}", object.what, known.join(", ")),
                    );
                }
            }
        }
    }
}
