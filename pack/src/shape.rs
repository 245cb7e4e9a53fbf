//! The shape of a pack, as data: the spec's JSON Schema 1.4.0 written as a table of objects and fields,
//! with PromptKit's fork of it (`runtime/prompt/schema/promptpack.schema.json` at 86d9f367, "1.5.0")
//! marked field by field where it differs, and one walker that checks a document against it.
//!
//! A table rather than an embedded schema so that every difference between the two schemas is a named
//! line here, and every diagnostic can say in words what to change.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use regex::Regex;
use serde_json::Value;

use crate::diagnostic::{At, Findings, Severity};
use crate::source::{child, kind};

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

const fn f(name: &'static str, shape: &'static Shape) -> Field {
    Field { name, shape, required: Readers::NONE, exists: Readers::ALL }
}
const fn req(name: &'static str, shape: &'static Shape) -> Field {
    Field { name, shape, required: Readers::ALL, exists: Readers::ALL }
}
/// In the spec only: PromptKit's fork and promptpack-python reject it.
const fn spec_only(name: &'static str, shape: &'static Shape) -> Field {
    Field { name, shape, required: Readers::NONE, exists: Readers::SPEC }
}
const fn promptkit_only(name: &'static str, shape: &'static Shape) -> Field {
    Field { name, shape, required: Readers::NONE, exists: Readers::PROMPTKIT }
}
/// In the spec and PromptKit's fork; promptpack-python's models predate it.
const fn not_python(name: &'static str, shape: &'static Shape) -> Field {
    Field { name, shape, required: Readers::NONE, exists: Readers::SPEC.and(Readers::PROMPTKIT) }
}
const fn text() -> Str {
    Str { min_len: 0, max_len: None, pattern: None, one_of: &[], promptkit_one_of: &[], python_one_of: &[], promptkit_format: None }
}

const STRING: Shape = Shape::Str(text());
const NONEMPTY: Shape = Shape::Str(Str { min_len: 1, ..text() });
const BOOL: Shape = Shape::Bool;
const ANY: Shape = Shape::Any;
const NUMBER: Shape = Shape::Num { min: None, max: None };
const NON_NEGATIVE: Shape = Shape::Num { min: Some(0.0), max: None };
const UNIT: Shape = Shape::Num { min: Some(0.0), max: Some(1.0) };
const POSITIVE_INT: Shape = Shape::Int { min: Some(1) };
const STRINGS: Shape = Shape::Array { items: &STRING, min_items: 0 };
const OPEN: Shape = Shape::Object(&Object { what: "object", fields: &[], closed: false });

pub const SEMVER: Pattern = Pattern {
    regex: r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$",
    meaning: "a semantic version such as 1.0.0 (an optional leading v)",
};
const PACK_ID: Pattern = Pattern { regex: r"^[a-z][a-z0-9-]*$", meaning: "lowercase letters, digits and '-', starting with a letter" };
const PROMPT_ID: Pattern =
    Pattern { regex: r"^[a-z][a-z0-9_-]*$", meaning: "lowercase letters, digits, '_' and '-', starting with a letter" };
pub const IDENTIFIER: Pattern =
    Pattern { regex: r"^[a-zA-Z_][a-zA-Z0-9_]*$", meaning: "letters, digits and '_', not starting with a digit" };
const METRIC_NAME: Pattern =
    Pattern { regex: r"^[a-zA-Z_:][a-zA-Z0-9_:]*$", meaning: "a Prometheus metric name (letters, digits, '_' and ':')" };
const LANGUAGE: Pattern = Pattern { regex: r"^[a-z]{2}$", meaning: "a two-letter lowercase language code such as en" };
const MEDIA_TYPE: Pattern = Pattern { regex: r"^[a-z0-9_]+$", meaning: "lowercase letters, digits and '_'" };

const VERSION: Shape = Shape::Str(Str { pattern: Some(&SEMVER), ..text() });

const TEMPLATE_ENGINE: Object = Object {
    what: "template_engine",
    closed: true,
    fields: &[
        req("version", &STRING),
        req("syntax", &STRING),
        f(
            "features",
            &Shape::Array {
                items: &Shape::Str(Str { one_of: &["basic_substitution", "fragments", "conditionals", "loops", "filters"], ..text() }),
                min_items: 0,
            },
        ),
    ],
};

const COST: Object = Object {
    what: "cost_estimate",
    closed: false,
    fields: &[f("min_cost_usd", &NON_NEGATIVE), f("max_cost_usd", &NON_NEGATIVE), f("avg_cost_usd", &NON_NEGATIVE)],
};
const METADATA: Object = Object {
    what: "metadata",
    closed: false,
    fields: &[
        f("domain", &STRING),
        f("language", &Shape::Str(Str { pattern: Some(&LANGUAGE), ..text() })),
        f("tags", &STRINGS),
        f("cost_estimate", &Shape::Object(&COST)),
    ],
};
const COMPILATION: Object = Object {
    what: "compilation",
    closed: false,
    fields: &[
        req("compiled_with", &STRING),
        req("created_at", &Shape::Str(Str { promptkit_format: Some(TextFormat::DateTime), ..text() })),
        req("schema", &STRING),
        f("source", &STRING),
    ],
};

const VALIDATION: Object = Object {
    what: "variable validation",
    closed: true,
    fields: &[
        f("pattern", &STRING),
        f("min_length", &Shape::Int { min: Some(0) }),
        f("max_length", &POSITIVE_INT),
        f("minimum", &NUMBER),
        f("maximum", &NUMBER),
        f("enum", &Shape::Array { items: &ANY, min_items: 0 }),
    ],
};
const BINDING: Object = Object {
    what: "variable binding",
    closed: true,
    fields: &[f("kind", &STRING), f("field", &STRING), f("auto_populate", &BOOL), f("filter", &STRING)],
};
const VARIABLE: Object = Object {
    what: "variable",
    closed: true,
    fields: &[
        req("name", &Shape::Str(Str { pattern: Some(&IDENTIFIER), ..text() })),
        req("type", &Shape::Str(Str { promptkit_one_of: VARIABLE_TYPES, python_one_of: VARIABLE_TYPES, ..text() })),
        req("required", &BOOL),
        f("default", &ANY),
        f("description", &STRING),
        f("example", &ANY),
        f("validation", &Shape::Object(&VALIDATION)),
        spec_only("binding", &Shape::Object(&BINDING)),
    ],
};

const TOOL_PARAMETERS: Object = Object {
    what: "tool parameters (a JSON Schema)",
    closed: false,
    fields: &[
        req("type", &Shape::Str(Str { one_of: &["object"], ..text() })),
        req("properties", &Shape::Map { values: &OPEN, min_entries: 0 }),
        f("required", &STRINGS),
    ],
};
const TOOL: Object = Object {
    what: "tool",
    closed: true,
    fields: &[
        req("name", &Shape::Str(Str { pattern: Some(&IDENTIFIER), ..text() })),
        req("description", &NONEMPTY),
        f("parameters", &Shape::Object(&TOOL_PARAMETERS)),
    ],
};

const TOOL_POLICY: Object = Object {
    what: "tool_policy",
    closed: true,
    fields: &[
        f("tool_choice", &Shape::Str(Str { one_of: &["auto", "required", "none"], ..text() })),
        f("max_rounds", &POSITIVE_INT),
        f("max_tool_calls_per_turn", &POSITIVE_INT),
        f("blocklist", &STRINGS),
    ],
};
const MIDDLEWARE: Object = Object { what: "middleware", closed: true, fields: &[req("type", &STRING), f("config", &OPEN)] };
const PIPELINE: Object = Object {
    what: "pipeline",
    closed: true,
    fields: &[req("stages", &STRINGS), f("middleware", &Shape::Array { items: &Shape::Object(&MIDDLEWARE), min_items: 0 })],
};
pub const PARAMETERS: Object = Object {
    what: "parameters",
    closed: true,
    fields: &[
        f("temperature", &Shape::Num { min: Some(0.0), max: Some(2.0) }),
        f("max_tokens", &POSITIVE_INT),
        f("top_p", &UNIT),
        f("top_k", &Shape::IntOrNull { min: Some(1) }),
        f("frequency_penalty", &Shape::Num { min: Some(-2.0), max: Some(2.0) }),
        f("presence_penalty", &Shape::Num { min: Some(-2.0), max: Some(2.0) }),
    ],
};
const VARIABLE_TYPES: &[&str] = &["string", "number", "boolean", "object", "array"];
/// promptpack-python's closed `Validator.type` Literal (`types.py`).
const PYTHON_VALIDATOR_TYPES: &[&str] =
    &["banned_words", "max_length", "min_length", "regex_match", "json_schema", "sentiment", "toxicity", "pii_detection", "custom"];
const VALIDATOR: Object = Object {
    what: "validator",
    closed: true,
    fields: &[
        req("type", &Shape::Str(Str { min_len: 1, python_one_of: PYTHON_VALIDATOR_TYPES, ..text() })),
        Field { name: "enabled", shape: &BOOL, required: Readers::PROMPTKIT.and(Readers::PYTHON), exists: Readers::ALL },
        spec_only("message", &STRING),
        f("fail_on_violation", &BOOL),
        f("params", &OPEN),
    ],
};
const TESTED_MODEL: Object = Object {
    what: "tested model",
    closed: true,
    fields: &[
        req("provider", &STRING),
        req("model", &STRING),
        req("date", &Shape::Str(Str { promptkit_format: Some(TextFormat::Date), ..text() })),
        f("success_rate", &UNIT),
        f("avg_tokens", &NON_NEGATIVE),
        f("avg_cost", &NON_NEGATIVE),
        f("avg_latency_ms", &NON_NEGATIVE),
        f("notes", &STRING),
    ],
};
const MODEL_OVERRIDE: Object = Object {
    what: "model override",
    closed: true,
    fields: &[
        f("system_template_prefix", &STRING),
        f("system_template_suffix", &STRING),
        f("system_template", &STRING),
        f("parameters", &Shape::Object(&PARAMETERS)),
    ],
};
const MEDIA: Object = Object {
    what: "media",
    closed: false,
    fields: &[
        req("enabled", &BOOL),
        f("supported_types", &Shape::Array { items: &Shape::Str(Str { pattern: Some(&MEDIA_TYPE), ..text() }), min_items: 0 }),
        f("image", &OPEN),
        f("audio", &OPEN),
        f("video", &OPEN),
        f("document", &OPEN),
        f("examples", &Shape::Array { items: &OPEN, min_items: 0 }),
    ],
};

const THRESHOLD: Object = Object { what: "threshold", closed: true, fields: &[f("operator", &STRING), f("value", &NUMBER)] };
const METRIC: Object = Object {
    what: "metric",
    closed: false,
    fields: &[
        req("name", &Shape::Str(Str { pattern: Some(&METRIC_NAME), ..text() })),
        req("type", &Shape::Str(Str { one_of: &["gauge", "counter", "histogram", "boolean"], ..text() })),
        f("range", &Shape::Object(&Object { what: "range", closed: false, fields: &[f("min", &NUMBER), f("max", &NUMBER)] })),
    ],
};
pub const EVAL_TRIGGERS_PROMPTKIT: &[&str] = &["every_turn", "on_session_complete", "sample_turns", "sample_sessions"];
const EVAL: Object = Object {
    what: "eval",
    closed: true,
    fields: &[
        req("id", &NONEMPTY),
        f("description", &STRING),
        req("type", &NONEMPTY),
        req("trigger", &Shape::Str(Str { promptkit_one_of: EVAL_TRIGGERS_PROMPTKIT, ..text() })),
        f("sample_percentage", &Shape::Num { min: Some(0.0), max: Some(100.0) }),
        f("enabled", &BOOL),
        f("params", &OPEN),
        f("metric", &Shape::Object(&METRIC)),
        spec_only("threshold", &Shape::Object(&THRESHOLD)),
        spec_only("message", &STRING),
        spec_only("when", &OPEN),
        spec_only("groups", &STRINGS),
    ],
};
const EVALS: Shape = Shape::Array { items: &Shape::Object(&EVAL), min_items: 0 };

const PROMPT: Object = Object {
    what: "prompt",
    closed: true,
    fields: &[
        req("id", &Shape::Str(Str { pattern: Some(&PROMPT_ID), ..text() })),
        req("name", &NONEMPTY),
        f("description", &STRING),
        req("version", &VERSION),
        req("system_template", &NONEMPTY),
        f("variables", &Shape::Array { items: &Shape::Object(&VARIABLE), min_items: 0 }),
        f("tools", &STRINGS),
        f("tool_policy", &Shape::Object(&TOOL_POLICY)),
        f("pipeline", &Shape::Object(&PIPELINE)),
        f("parameters", &Shape::Object(&PARAMETERS)),
        f("validators", &Shape::Array { items: &Shape::Object(&VALIDATOR), min_items: 0 }),
        not_python("evals", &EVALS),
        f("tested_models", &Shape::Array { items: &Shape::Object(&TESTED_MODEL), min_items: 0 }),
        f("model_overrides", &Shape::Map { values: &Shape::Object(&MODEL_OVERRIDE), min_entries: 0 }),
        f("media", &Shape::Object(&MEDIA)),
    ],
};

const ARTIFACT: Object = Object {
    what: "artifact",
    closed: true,
    fields: &[req("type", &STRING), f("description", &STRING), f("mode", &Shape::Str(Str { one_of: &["replace", "append"], ..text() }))],
};
const STATE: Object = Object {
    what: "workflow state",
    closed: true,
    fields: &[
        // Required under both; PromptKit waives it for `orchestration: composition` (checked in code).
        req("prompt_task", &STRING),
        f("description", &STRING),
        f("on_event", &Shape::Map { values: &STRING, min_entries: 0 }),
        f("persistence", &Shape::Str(Str { promptkit_one_of: &["transient", "persistent"], ..text() })),
        f("orchestration", &Shape::Str(Str { promptkit_one_of: &["internal", "external", "hybrid", "composition"], ..text() })),
        promptkit_only("composition", &STRING),
        f("skills", &STRING),
        f("terminal", &BOOL),
        f("max_visits", &POSITIVE_INT),
        f("on_max_visits", &STRING),
        f("artifacts", &Shape::Map { values: &Shape::Object(&ARTIFACT), min_entries: 0 }),
    ],
};
const BUDGET: Object = Object {
    what: "budget",
    closed: true,
    fields: &[f("max_total_visits", &POSITIVE_INT), f("max_tool_calls", &POSITIVE_INT), f("max_wall_time_sec", &POSITIVE_INT)],
};
/// The fork's `engine` is an open object with no `budget` in it: PromptKit's schema never checks a budget.
const ENGINE: Object = Object { what: "engine", closed: false, fields: &[spec_only("budget", &Shape::Object(&BUDGET))] };
const WORKFLOW: Object = Object {
    what: "workflow",
    closed: true,
    fields: &[
        req("version", &POSITIVE_INT),
        req("entry", &STRING),
        req("states", &Shape::Map { values: &Shape::Object(&STATE), min_entries: 1 }),
        f("engine", &Shape::Object(&ENGINE)),
    ],
};
const AGENT: Object = Object {
    what: "agent member",
    closed: true,
    fields: &[
        f("description", &STRING),
        f("tags", &STRINGS),
        f("input_modes", &STRINGS),
        f("output_modes", &STRINGS),
        promptkit_only("state", &STRING),
    ],
};
const AGENTS: Object = Object {
    what: "agents",
    closed: true,
    fields: &[req("entry", &STRING), req("members", &Shape::Map { values: &Shape::Object(&AGENT), min_entries: 1 })],
};
const SKILL_PATH: Object = Object { what: "skill source", closed: true, fields: &[req("path", &STRING), f("preload", &BOOL)] };
const INLINE_SKILL: Object = Object {
    what: "inline skill",
    closed: true,
    fields: &[req("name", &NONEMPTY), req("description", &NONEMPTY), req("instructions", &NONEMPTY)],
};

pub const PACK: Object = Object {
    what: "pack",
    closed: true,
    fields: &[
        f("$schema", &STRING),
        req("id", &Shape::Str(Str { min_len: 1, max_len: Some(100), pattern: Some(&PACK_ID), ..text() })),
        req("name", &Shape::Str(Str { min_len: 1, max_len: Some(200), ..text() })),
        req("version", &VERSION),
        f("description", &Shape::Str(Str { max_len: Some(5000), ..text() })),
        req("template_engine", &Shape::Object(&TEMPLATE_ENGINE)),
        req("prompts", &Shape::Map { values: &Shape::Object(&PROMPT), min_entries: 1 }),
        f("fragments", &Shape::Map { values: &STRING, min_entries: 0 }),
        f("tools", &Shape::Map { values: &Shape::Object(&TOOL), min_entries: 0 }),
        f("metadata", &Shape::Object(&METADATA)),
        f("compilation", &Shape::Object(&COMPILATION)),
        not_python("evals", &EVALS),
        not_python("workflow", &Shape::Object(&WORKFLOW)),
        not_python("agents", &Shape::Object(&AGENTS)),
        not_python("skills", &Shape::Array { items: &Shape::Skill, min_items: 0 }),
        // PromptKit's RFC 0011 compositions; the fork accepts any object of them (their inner shape is
        // PromptKit's own business and not judged here).
        promptkit_only("compositions", &Shape::Map { values: &OPEN, min_entries: 0 }),
    ],
};

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

impl TextFormat {
    fn meaning(self) -> &'static str {
        match self {
            TextFormat::Date => "a date such as 2026-11-25",
            TextFormat::DateTime => "an RFC 3339 date-time such as 2026-11-25T10:00:00Z",
            TextFormat::Uri => "an absolute URI such as https://example.com/x",
        }
    }

    fn accepts(self, text: &str) -> bool {
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
        assert!(matches(SEMVER.regex, "v1.2.3-rc.1+build.5"));
        assert!(!matches(SEMVER.regex, "1.2"));
        assert_eq!(nearest("sytem_template", &["system_template", "tools"]), Some("system_template"));
        assert_eq!(nearest("zzz", &["system_template"]), None);
    }
}
