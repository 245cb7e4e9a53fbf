//! The shape of a pack, as data: the spec's JSON Schema 1.4.0 written as a table of objects and fields,
//! with PromptKit's fork of it (`runtime/prompt/schema/promptpack.schema.json` at 86d9f367, "1.5.0")
//! marked field by field where it differs, and one walker that checks a document against it.
//!
//! A table rather than an embedded schema so that every difference between the two schemas is a named
//! line here, and every diagnostic can say in words what to change.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use regex::Regex;

mod schema;
mod walk;

pub use schema::{EVAL_TRIGGERS_PROMPTKIT, PACK};
pub use walk::walk;

/// Which schema a walk follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The spec's schema 1.4.0.
    Spec,
    /// PromptKit's fork, validated by gojsonschema (which also checks `format`).
    PromptKit,
    /// promptpack-python's pydantic models (`types.py` at c78e36b): older than 1.4.0, closed, with no
    /// evals, workflow, agents or skills, and a closed list of validator types.
    Python,
}

impl Dialect {
    const fn bit(self) -> u8 {
        match self {
            Dialect::Spec => 1,
            Dialect::PromptKit => 2,
            Dialect::Python => 4,
        }
    }
}

/// A set of dialects: which readers a field exists for, or is required by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readers(u8);

impl Readers {
    pub const NONE: Readers = Readers(0);
    pub const SPEC: Readers = Readers(1);
    pub const PROMPTKIT: Readers = Readers(2);
    pub const PYTHON: Readers = Readers(4);
    pub const ALL: Readers = Readers(7);

    pub const fn and(self, other: Readers) -> Readers {
        Readers(self.0 | other.0)
    }

    pub const fn has(self, dialect: Dialect) -> bool {
        self.0 & dialect.bit() != 0
    }
}

pub enum Shape {
    Str(Str),
    Int {
        min: Option<i64>,
    },
    /// An integer or null (`top_k`).
    IntOrNull {
        min: Option<i64>,
    },
    Num {
        min: Option<f64>,
        max: Option<f64>,
    },
    Bool,
    Any,
    Array {
        items: &'static Shape,
        min_items: usize,
    },
    /// A keyed map (`prompts`, `tools`, `states`…): the key is the identifier.
    Map {
        values: &'static Shape,
        min_entries: usize,
    },
    Object(&'static Object),
    /// A skill: a path string, `{path, preload}`, or an inline `{name, description, instructions}`.
    Skill,
}

pub struct Str {
    pub min_len: usize,
    pub max_len: Option<usize>,
    pub pattern: Option<&'static Pattern>,
    /// Allowed values under both schemas (empty: any).
    pub one_of: &'static [&'static str],
    /// Allowed values under PromptKit's fork only (empty: any).
    pub promptkit_one_of: &'static [&'static str],
    /// Allowed values under promptpack-python's models only (empty: any).
    pub python_one_of: &'static [&'static str],
    /// A `format` gojsonschema enforces and the spec's draft 2020-12 only annotates.
    pub promptkit_format: Option<TextFormat>,
}

#[derive(Debug, Clone, Copy)]
pub enum TextFormat {
    Date,
    DateTime,
    Uri,
}

pub struct Pattern {
    pub regex: &'static str,
    /// What the pattern means, in words, for the message.
    pub meaning: &'static str,
}

pub struct Object {
    /// What this object is, for messages ("prompt", "validator").
    pub what: &'static str,
    pub fields: &'static [Field],
    /// Unknown keys are errors (`additionalProperties: false`).
    pub closed: bool,
}

pub struct Field {
    pub name: &'static str,
    pub shape: &'static Shape,
    /// The readers that require it.
    pub required: Readers,
    /// The readers that have it (a closed object elsewhere rejects it).
    pub exists: Readers,
}

impl TextFormat {
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            TextFormat::Date => "a date such as 2026-11-25",
            TextFormat::DateTime => "an RFC 3339 date-time such as 2026-11-25T10:00:00Z",
            TextFormat::Uri => "an absolute URI such as https://example.com/x",
        }
    }

    pub(crate) fn accepts(self, text: &str) -> bool {
        const DATE: &str = r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])";
        match self {
            TextFormat::Date => matches(&format!("^{DATE}$"), text),
            TextFormat::DateTime => {
                matches(&format!(r"^{DATE}[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$"), text)
            }
            TextFormat::Uri => matches(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$", text),
        }
    }
}

/// Whether `text` matches `regex`; patterns are compiled once and kept.
pub fn matches(regex: &str, text: &str) -> bool {
    static CACHE: LazyLock<Mutex<HashMap<String, Option<Regex>>>> = LazyLock::new(Default::default);
    let mut cache = CACHE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let compiled = cache.entry(regex.to_string()).or_insert_with(|| Regex::new(regex).ok());
    compiled.as_ref().is_some_and(|r| r.is_match(text))
}

/// The known name closest to a misspelt one (edit distance at most 2), for "did you mean".
pub fn nearest<'a>(wrong: &str, known: &[&'a str]) -> Option<&'a str> {
    known.iter().map(|k| (distance(wrong, k), *k)).filter(|(d, _)| *d <= 2).min().map(|(_, k)| k)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_patterns() {
        assert!(TextFormat::DateTime.accepts("2026-11-25T10:00:00Z"));
        assert!(!TextFormat::DateTime.accepts("2026-11-25 10:00"));
        assert!(TextFormat::Date.accepts("2026-02-28"));
        assert!(!TextFormat::Date.accepts("28/02/2026"));
        assert!(matches(schema::SEMVER.regex, "v1.2.3-rc.1+build.5"));
        assert!(!matches(schema::SEMVER.regex, "1.2"));
        assert_eq!(nearest("sytem_template", &["system_template", "tools"]), Some("system_template"));
        assert_eq!(nearest("zzz", &["system_template"]), None);
    }
}
