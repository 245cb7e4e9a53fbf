//! The generator's promises: every value is schema-valid (checked by the
//! independent validator), bounds hold, strings are nasty, runs are
//! reproducible from the seed, unsupported schemas are refused by pointer,
//! and shrinking reaches the minimal counterexample.

use proptest::strategy::{Strategy, ValueTree};
use serde_json::{Value, json};

use super::schema::generator;
use super::validate::validate;
use super::{ToolSchema, runner};

fn samples(schema: &Value, n: usize, seed: u64) -> Vec<Value> {
    let g = generator(schema).unwrap_or_else(|e| panic!("{e}"));
    let mut r = runner(seed);
    (0..n).map(|_| g.strategy.new_tree(&mut r).expect("a value").current()).collect()
}

fn assert_all_valid(schema: &Value, n: usize) -> Vec<Value> {
    let values = samples(schema, n, 7);
    for v in &values {
        if let Err(e) = validate(v, schema, schema) {
            panic!("generated an invalid value {v}: {e}\nschema: {schema}");
        }
    }
    values
}

fn tool() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1, "maxLength": 12},
            "units": {"type": "string", "enum": ["metric", "imperial", "kelvin"]},
            "days": {"type": "integer", "minimum": 1, "exclusiveMaximum": 8},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "minItems": 1, "maxItems": 3, "uniqueItems": true},
            "flag": {"type": "boolean"},
            "nothing": {"type": "null"},
            "mode": {"const": "fast"},
            "either": {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "integer", "minimum": 100}]},
            "one": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0.5, "maximum": 0.75}]},
            "maybe": {"type": ["string", "null"], "maxLength": 1},
            "step": {"type": "integer", "multipleOf": 5, "minimum": -12, "maximum": 40},
            "nested": {"type": "object", "properties": {"deep": {"$ref": "#/$defs/point"}}, "required": ["deep"], "additionalProperties": false},
            "legacy": {"$ref": "#/definitions/legacy"},
            "anything": {},
            "extra": {"type": "object", "additionalProperties": {"type": "integer", "maximum": 0}}
        },
        "required": ["city", "days", "nested"],
        "additionalProperties": false,
        "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}},
        "definitions": {"legacy": {"type": "integer", "minimum": 0, "maximum": 10, "exclusiveMaximum": true}}
    })
}

#[test]
fn every_generated_value_is_valid_and_bounded() {
    let schema = tool();
    let values = assert_all_valid(&schema, 400);
    for v in &values {
        let days = v["days"].as_i64().expect("required integer");
        assert!((1..8).contains(&days), "{v}");
        let city = v["city"].as_str().expect("required string").chars().count();
        assert!((1..=12).contains(&city), "{v}");
        assert!(v["nested"]["deep"]["x"].is_number() && v["nested"]["deep"]["y"].is_number(), "{v}");
        if let Some(l) = v.get("legacy") {
            assert!((0..10).contains(&l.as_i64().unwrap()), "{v}");
        }
        if let Some(s) = v.get("step") {
            assert_eq!(s.as_i64().unwrap() % 5, 0, "{v}");
        }
    }
    // Optional properties are sometimes there and sometimes not.
    assert!(values.iter().any(|v| v.get("units").is_some()) && values.iter().any(|v| v.get("units").is_none()));
    assert!(values.iter().any(|v| v.get("ratio").is_some()));
}

#[test]
fn unconstrained_and_small_schemas_are_valid_too() {
    for schema in [
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        json!({"type": "object", "required": ["free"]}),
        json!({"type": "object", "properties": {"a": true, "b": {"type": "integer", "minimum": 9007199254740993i64}}, "required": ["a", "b"]}),
        json!({"type": "object", "properties": {"x": {"type": "number", "minimum": 2, "maximum": 2}}, "required": ["x"]}),
        json!({"type": "object", "properties": {"s": {"type": "string", "minLength": 40}}, "required": ["s"]}),
        json!({"type": "object", "properties": {"s": {"type": "string", "nullable": true, "maxLength": 0}}, "required": ["s"]}),
    ] {
        assert_all_valid(&schema, 150);
    }
}

#[test]
fn strings_carry_the_characters_that_break_plugins() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "string"}}, "required": ["s"]});
    let strings: Vec<String> = samples(&schema, 600, 3).iter().map(|v| v["s"].as_str().unwrap().to_string()).collect();
    for (what, found) in [
        ("a quote", strings.iter().any(|s| s.contains('"'))),
        ("a backslash", strings.iter().any(|s| s.contains('\\'))),
        ("a newline", strings.iter().any(|s| s.contains('\n'))),
        ("<>&", strings.iter().any(|s| s.contains(['<', '>', '&']))),
        ("U+2028", strings.iter().any(|s| s.contains('\u{2028}'))),
        ("non-ASCII", strings.iter().any(|s| !s.is_ascii())),
        ("the empty string", strings.iter().any(String::is_empty)),
    ] {
        assert!(found, "600 strings without {what}");
    }
}

#[test]
fn the_seed_fixes_the_inputs() {
    let schema = tool();
    assert_eq!(samples(&schema, 30, 42), samples(&schema, 30, 42));
    assert_ne!(samples(&schema, 30, 42), samples(&schema, 30, 43));
    // A longer run starts with the same inputs as a shorter one.
    assert_eq!(samples(&schema, 60, 42)[..30], samples(&schema, 30, 42)[..]);
}

#[test]
fn unsupported_schemas_are_refused_by_pointer() {
    let cases = [
        (json!({"type": "object", "properties": {"a": {"not": {"type": "string"}}}}), "#/properties/a", "`not`"),
        (
            json!({"type": "object", "properties": {"a/b": {"type": "array", "items": [{"type": "string"}]}}}),
            "#/properties/a~1b/items",
            "tuple",
        ),
        (
            json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}}}}),
            "#/$defs/n/properties/next",
            "recursive",
        ),
        (json!({"type": "object", "properties": {"r": {"$ref": "other.json#/x"}}}), "#/properties/r", "outside"),
        (
            json!({"type": "object", "properties": {"s": {"type": "string", "minLength": 5, "maxLength": 2}}}),
            "#/properties/s",
            "below minLength",
        ),
        (json!({"type": "object", "properties": {"e": {"enum": []}}}), "#/properties/e/enum", "non-empty"),
        (json!({"type": "object", "properties": {"f": false}}), "#/properties/f", "no value"),
    ];
    for (schema, pointer, problem) in cases {
        let e = generator(&schema).err().unwrap_or_else(|| panic!("accepted {schema}"));
        assert_eq!(e.pointer, pointer, "{e}");
        assert!(e.problem.contains(problem), "{e}");
    }
}

#[test]
fn patterns_are_generated_and_formats_are_noted() {
    let schema = json!({"type": "object", "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{2}-\\d{3}$"},
        "when": {"type": "string", "format": "date-time"}
    }, "required": ["code"]});
    let g = generator(&schema).unwrap();
    assert!(g.notes.iter().any(|n| n.contains("date-time")), "{:?}", g.notes);
    for v in samples(&schema, 100, 5) {
        let code: Vec<char> = v["code"].as_str().unwrap().chars().collect();
        assert_eq!(code.len(), 6, "{v}");
        assert!(code[..2].iter().all(char::is_ascii_uppercase) && code[2] == '-' && code[3..].iter().all(char::is_ascii_digit), "{v}");
    }
}

/// Drives proptest's shrinking exactly as the fuzz runner does.
fn shrink(schema: &Value, fails: impl Fn(&Value) -> bool) -> Value {
    let g = generator(schema).unwrap();
    let mut r = runner(1);
    for _ in 0..2000 {
        let mut tree = g.strategy.new_tree(&mut r).unwrap();
        if !fails(&tree.current()) {
            continue;
        }
        let mut best = tree.current();
        let mut more = tree.simplify();
        while more {
            let candidate = tree.current();
            more = if fails(&candidate) {
                best = candidate;
                tree.simplify()
            } else {
                tree.complicate()
            };
        }
        return best;
    }
    panic!("no failing input in 2000");
}

#[test]
fn shrinking_reaches_a_lone_quote() {
    let schema = json!({"type": "object", "properties": {
        "text": {"type": "string"}, "count": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}
    }, "required": ["text"]});
    let quoted = |v: &Value| v.to_string().contains("\\\"");
    assert_eq!(shrink(&schema, quoted), json!({"text": "\""}));
}

#[test]
fn shrinking_reaches_the_boundary_number() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": -1000, "maximum": 1000}}, "required": ["n"]});
    assert_eq!(shrink(&schema, |v| v["n"].as_i64().unwrap() >= 17), json!({"n": 17}));
}

#[test]
fn descriptors_and_bare_schemas_are_both_accepted() {
    let params = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let pack = ToolSchema::from_document(json!({"name": "search", "description": "d", "parameters": params}), Some("file"));
    assert_eq!((pack.name.as_str(), &pack.parameters), ("search", &params));
    let openai = ToolSchema::from_document(json!({"type": "function", "function": {"name": "lookup", "parameters": params}}), None);
    assert_eq!((openai.name.as_str(), &openai.parameters), ("lookup", &params));
    let anthropic = ToolSchema::from_document(json!({"name": "q", "input_schema": params}), None);
    assert_eq!(anthropic.name, "q");
    let bare = ToolSchema::from_document(params.clone(), Some("weather_tool"));
    assert_eq!((bare.name.as_str(), &bare.parameters), ("weather_tool", &params));
    assert!(bare.check().is_ok());
    let not_object = ToolSchema::from_document(json!({"type": "string"}), None);
    assert!(not_object.check().unwrap_err().problem.contains("\"type\": \"object\""));
}

/// Items and characters in a value, all levels counted.
fn size(v: &Value) -> usize {
    match v {
        Value::Array(a) => a.len() + a.iter().map(size).sum::<usize>(),
        Value::Object(m) => m.values().map(size).sum(),
        Value::String(s) => s.chars().count(),
        _ => 0,
    }
}

#[test]
fn minimums_in_the_billions_are_capped_and_said_to_be() {
    // Arrays of arrays of strings, each asking for billions: generated whole,
    // this aborted on allocation.
    let schema = json!({
        "type": "object",
        "required": ["rows"],
        "properties": {"rows": {"type": "array", "minItems": 3_000_000_000u64,
            "items": {"type": "array", "minItems": 3_000_000_000u64, "items": {"type": "string", "minLength": 4_000_000_000u64}}}}
    });
    let g = generator(&schema).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.capped.len(), 3, "{:?}", g.capped);
    assert!(g.capped[0].contains("#/properties/rows: minItems 3000000000 capped at 4096 items"), "{:?}", g.capped);
    for v in samples(&schema, 3, 1) {
        assert!(size(&v) <= 3 * super::schema::MAX_GENERATED, "a value of {} items and characters", size(&v));
        assert!(validate(&v, &schema, &schema).is_err(), "a capped value cannot meet the schema's minimum");
    }
    let note = super::capped_note(&g.capped).expect("a note");
    assert!(note.contains("NOT schema-valid") && note.contains("capped at"), "{note}");
}

#[test]
fn a_schema_within_the_budget_is_not_capped() {
    let g = generator(&tool()).unwrap_or_else(|e| panic!("{e}"));
    assert!(g.capped.is_empty(), "{:?}", g.capped);
    assert_eq!(super::capped_note(&g.capped), None);
}
