//! The table itself: every object and field of the spec's schema 1.4.0, with PromptKit's fork and
//! promptpack-python's models marked where they part ways.

use super::{Field, Object, Pattern, Readers, Shape, Str, TextFormat};

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

pub(super) const SEMVER: Pattern = Pattern {
    regex: r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$",
    meaning: "a semantic version such as 1.0.0 (an optional leading v)",
};
const PACK_ID: Pattern = Pattern { regex: r"^[a-z][a-z0-9-]*$", meaning: "lowercase letters, digits and '-', starting with a letter" };
const PROMPT_ID: Pattern =
    Pattern { regex: r"^[a-z][a-z0-9_-]*$", meaning: "lowercase letters, digits, '_' and '-', starting with a letter" };
const IDENTIFIER: Pattern = Pattern { regex: r"^[a-zA-Z_][a-zA-Z0-9_]*$", meaning: "letters, digits and '_', not starting with a digit" };
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
const PARAMETERS: Object = Object {
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
pub(super) const SKILL_PATH: Object = Object { what: "skill source", closed: true, fields: &[req("path", &STRING), f("preload", &BOOL)] };
pub(super) const INLINE_SKILL: Object = Object {
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
