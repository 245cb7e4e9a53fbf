//! A proptest strategy built from a tool's JSON Schema parameters.
//!
//! Every value the strategy generates is valid against the schema: a fuzz
//! failure must be the plugin's fault, never proctor's, or authors stop
//! trusting it. So a keyword the generator cannot honour is an error naming
//! its JSON pointer, not something silently ignored. The only exceptions are
//! annotations that JSON Schema itself does not enforce by default (`format`)
//! and `pattern`s the regex generator cannot handle; both come back as notes
//! the report prints.
//!
//! Strings lean towards what breaks hand-written plugins while staying valid:
//! quotes, backslashes, newlines, `<>&` (which the Go runtimes escape as
//! `\u003c`…), U+2028, control characters, non-ASCII and the empty string.
//! Shrinking goes towards fewer characters, absent optional properties,
//! the first `enum` value and numbers near zero, so a shrunk case is short.

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Number, Value};

use super::validate;

/// A generated-value strategy.
pub type ValueStrategy = BoxedStrategy<Value>;

/// A schema the generator cannot turn into valid values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("schema at {pointer}: {problem}")]
pub struct SchemaError {
    /// JSON pointer of the offending subschema, `#` for the root.
    pub pointer: String,
    /// What is wrong or unsupported, and what to do instead.
    pub problem: String,
}

/// The strategy for a schema and what it could not enforce.
pub struct Generator {
    /// Generates schema-valid values, unless `capped` says otherwise.
    pub strategy: ValueStrategy,
    /// Constraints that are not enforced (`format`, some `pattern`s), for the report.
    pub notes: Vec<String>,
    /// Each `minItems`/`minLength` larger than proctor generates, with the
    /// size it was capped at. When any is, the values are *not* schema-valid,
    /// and the report must say so.
    pub capped: Vec<String>,
}

/// Builds the generator for `schema` (its own root, for `$ref`).
pub fn generator(schema: &Value) -> Result<Generator, SchemaError> {
    let mut b = Builder { root: schema, notes: Vec::new(), capped: Vec::new(), refs: Vec::new(), scale: 1 };
    let strategy = b.build(schema, "#")?;
    Ok(Generator { strategy, notes: b.notes, capped: b.capped })
}

/// The most array items and string characters one generated value holds,
/// all nesting levels multiplied. A schema asking for `minItems` in the
/// billions (or arrays of such arrays) aborted proctor on allocation; such a
/// minimum is capped instead, and said to be. 4096 is far more than a tool's
/// argument needs to break it, and an input stays cheap to judge (at 65536
/// one input took seconds).
pub const MAX_GENERATED: usize = 1 << 12;

/// Keywords with no effect on validity (or none the generator must honour).
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "id",
    "$comment",
    "$anchor",
    "title",
    "description",
    "default",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "definitions",
    "$defs",
    "contentMediaType",
    "contentEncoding",
    "x-order",
];

/// Keywords that constrain values and that this generator does not implement.
const UNSUPPORTED: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "$dynamicRef",
    "$recursiveRef",
];

/// Characters that break naive plugins yet are valid in any JSON string.
const NASTY: &[char] = &[
    '"', '\\', '\n', '<', '>', '&', '\'', '\r', '\t', '\u{2028}', '\u{2029}', '\u{0}', '\u{1b}', '\u{7f}', 'é', 'ß', '日', '🦀',
    '\u{feff}', '\u{202e}', ' ', '{', '}', '[', ']', '$', '%', ';', '|', '`', '/',
];

/// Whole strings that mean something to code that should treat them as text.
const NASTY_WORDS: &[&str] = &[
    "",
    "null",
    "true",
    "0",
    "-1",
    "NaN",
    "1e999",
    "../../etc/passwd",
    "$(id)",
    "%s%n",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\\u0000",
    "a\r\nb",
    "\u{1F600}\u{200D}\u{1F4BB}",
];

/// How many characters a string without `maxLength` gets at most beyond its minimum.
const FREE_LENGTH: usize = 24;
/// How many items an array without `maxItems` gets at most beyond its minimum.
const FREE_ITEMS: usize = 4;

struct Builder<'a> {
    root: &'a Value,
    notes: Vec<String>,
    capped: Vec<String>,
    /// The most items the enclosing arrays hold, multiplied: how many times
    /// one value of the schema being built may occur in one generated input.
    scale: usize,
    /// `$ref`s being expanded, to refuse recursion (its values are unbounded).
    refs: Vec<String>,
}

fn err<T>(pointer: &str, problem: impl Into<String>) -> Result<T, SchemaError> {
    Err(SchemaError { pointer: pointer.to_string(), problem: problem.into() })
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl Builder<'_> {
    fn build(&mut self, schema: &Value, ptr: &str) -> Result<ValueStrategy, SchemaError> {
        let obj = match schema {
            Value::Bool(true) => return Ok(any_json()),
            Value::Bool(false) => return err(ptr, "`false` accepts no value at all"),
            Value::Object(obj) => obj,
            other => return err(ptr, format!("a schema must be an object or a boolean, not {other}")),
        };
        if let Some(r) = obj.get("$ref") {
            return self.reference(r, ptr);
        }
        for key in obj.keys() {
            if UNSUPPORTED.contains(&key.as_str()) {
                return err(
                    ptr,
                    format!(
                        "`{key}` is not supported by proctor's generator (it cannot promise valid inputs); simplify the schema given to --schema"
                    ),
                );
            }
        }
        let mut base = self.typed(obj, ptr)?;
        if obj.get("nullable") == Some(&Value::Bool(true)) {
            base = prop_oneof![3 => base, 1 => Just(Value::Null)].boxed();
        }
        Ok(base)
    }

    fn reference(&mut self, r: &Value, ptr: &str) -> Result<ValueStrategy, SchemaError> {
        let Some(target) = r.as_str() else { return err(ptr, "`$ref` must be a string") };
        let Some(path) = target.strip_prefix('#') else {
            return err(
                ptr,
                format!("`$ref: {target}` points outside the file; only local references (#/definitions/…, #/$defs/…) are supported"),
            );
        };
        if self.refs.iter().any(|seen| seen == target) {
            return err(ptr, format!("`$ref: {target}` is recursive; proctor only generates from finite schemas"));
        }
        let path = path.replace("~1", "/").replace("~0", "~");
        let Some(resolved) = self.root.pointer(&path) else { return err(ptr, format!("`$ref: {target}` does not resolve in this file")) };
        self.refs.push(target.to_string());
        let built = self.build(resolved, target);
        self.refs.pop();
        built
    }

    fn typed(&mut self, obj: &Map<String, Value>, ptr: &str) -> Result<ValueStrategy, SchemaError> {
        if let Some(c) = obj.get("const") {
            return Ok(Just(c.clone()).boxed());
        }
        if let Some(e) = obj.get("enum") {
            let values: Vec<Value> = e.as_array().cloned().unwrap_or_default();
            if values.is_empty() {
                return err(&format!("{ptr}/enum"), "`enum` must be a non-empty array");
            }
            return Ok(select(values).boxed());
        }
        let combinators = ["anyOf", "oneOf", "allOf"];
        if let Some(key) = combinators.iter().find(|k| obj.contains_key(**k)) {
            let constraining = obj.keys().filter(|k| !ANNOTATIONS.contains(&k.as_str()) && k.as_str() != "nullable").count();
            if constraining > 1 {
                return err(
                    ptr,
                    format!("`{key}` next to other constraints is not supported; move the shared constraints into each branch"),
                );
            }
            return self.combinator(key, &obj[*key], obj, ptr);
        }
        let types: Vec<String> = match obj.get("type") {
            None => vec![infer_type(obj).to_string()],
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) if !ts.is_empty() && ts.iter().all(Value::is_string) => {
                ts.iter().filter_map(|t| t.as_str().map(String::from)).collect()
            }
            Some(other) => return err(&format!("{ptr}/type"), format!("`type` must be a type name or a list of them, not {other}")),
        };
        let mut branches = Vec::new();
        for t in &types {
            branches.push(match t.as_str() {
                "object" => self.object(obj, ptr)?,
                "array" => self.array(obj, ptr)?,
                "string" => self.string(obj, ptr)?,
                "integer" => integer(obj, ptr)?,
                "number" => number(obj, ptr)?,
                "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
                "null" => Just(Value::Null).boxed(),
                "any" => any_json(),
                other => return err(&format!("{ptr}/type"), format!("unknown type `{other}`")),
            });
        }
        Ok(one_of(branches))
    }

    fn combinator(&mut self, key: &str, branches: &Value, whole: &Map<String, Value>, ptr: &str) -> Result<ValueStrategy, SchemaError> {
        let Some(list) = branches.as_array().filter(|l| !l.is_empty()) else {
            return err(&format!("{ptr}/{key}"), format!("`{key}` must be a non-empty array"));
        };
        if key == "allOf" {
            if list.len() > 1 {
                return err(&format!("{ptr}/allOf"), "`allOf` with several branches is not supported; merge them into one schema");
            }
            return self.build(&list[0], &format!("{ptr}/allOf/0"));
        }
        let mut built = Vec::new();
        for (i, b) in list.iter().enumerate() {
            built.push(self.build(b, &format!("{ptr}/{key}/{i}"))?);
        }
        let union = one_of(built);
        if key == "anyOf" {
            return Ok(union);
        }
        // oneOf: a value matching two branches is invalid; drop those.
        let schema = Value::Object(whole.clone());
        let root = self.root.clone();
        Ok(union.prop_filter("oneOf: matches exactly one branch", move |v| validate::validate(v, &schema, &root).is_ok()).boxed())
    }

    fn object(&mut self, obj: &Map<String, Value>, ptr: &str) -> Result<ValueStrategy, SchemaError> {
        let empty = Map::new();
        let props = match obj.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => return err(&format!("{ptr}/properties"), "`properties` must be an object"),
        };
        let required: Vec<&str> = match obj.get("required") {
            None => Vec::new(),
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            Some(_) => return err(&format!("{ptr}/required"), "`required` must be an array of names"),
        };
        let additional = obj.get("additionalProperties");
        let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
        for (name, sub) in props {
            let s = self.build(sub, &format!("{ptr}/properties/{}", escape_pointer(name)))?;
            let key = name.clone();
            let pair = s.prop_map(move |v| (key.clone(), v));
            fields.push(pair_strategy(pair, required.contains(&name.as_str())));
        }
        for name in required.iter().filter(|n| !props.contains_key(**n)) {
            let s = match additional {
                Some(Value::Bool(false)) => {
                    return err(
                        &format!("{ptr}/required"),
                        format!("`{name}` is required but not in `properties`, and additionalProperties is false"),
                    );
                }
                Some(schema @ Value::Object(_)) => self.build(schema, &format!("{ptr}/additionalProperties"))?,
                _ => any_json(),
            };
            let name = name.to_string();
            fields.push(s.prop_map(move |v| Some((name.clone(), v))).boxed());
        }
        let extra = match additional {
            Some(schema @ Value::Object(_)) => {
                let s = self.build(schema, &format!("{ptr}/additionalProperties"))?;
                proptest::collection::vec(s, 0..=2).boxed()
            }
            _ => Just(Vec::new()).boxed(),
        };
        let taken: Vec<String> = props.keys().cloned().chain(required.iter().map(|s| s.to_string())).collect();
        Ok((fields, extra)
            .prop_map(move |(fields, extra)| {
                let mut m: Map<String, Value> = fields.into_iter().flatten().collect();
                for (i, v) in extra.into_iter().enumerate() {
                    let mut key = format!("extra_{i}");
                    while taken.contains(&key) || m.contains_key(&key) {
                        key.push('_');
                    }
                    m.insert(key, v);
                }
                Value::Object(m)
            })
            .boxed())
    }

    fn array(&mut self, obj: &Map<String, Value>, ptr: &str) -> Result<ValueStrategy, SchemaError> {
        let min = count(obj, "minItems", ptr)?.unwrap_or(0);
        let max = count(obj, "maxItems", ptr)?.unwrap_or(min.saturating_add(FREE_ITEMS)).min(min.saturating_add(FREE_ITEMS * 2));
        if max < min {
            return err(ptr, format!("maxItems {max} is below minItems {min}"));
        }
        let (min, max) = self.within_budget(ptr, "minItems", "items", min, max);
        let outer = self.scale;
        self.scale = outer.saturating_mul(max.max(1));
        let item = match obj.get("items") {
            None => Ok(any_json()),
            Some(Value::Array(_)) => err(&format!("{ptr}/items"), "tuple `items` (an array of schemas) is not supported"),
            Some(s) => self.build(s, &format!("{ptr}/items")),
        };
        self.scale = outer;
        let s = proptest::collection::vec(item?, min..=max).prop_map(Value::Array);
        if obj.get("uniqueItems") == Some(&Value::Bool(true)) {
            return Ok(s.prop_filter("uniqueItems", |v| validate::unique(v.as_array().map_or(&[][..], |a| a.as_slice()))).boxed());
        }
        Ok(s.boxed())
    }

    /// `min..=max` items (or characters) at this depth, cut to what the
    /// budget leaves ([`MAX_GENERATED`] over the enclosing arrays' sizes). A
    /// minimum cut is recorded in `capped`: such values break the schema.
    fn within_budget(&mut self, ptr: &str, keyword: &str, what: &str, min: usize, max: usize) -> (usize, usize) {
        let limit = (MAX_GENERATED / self.scale.max(1)).max(1);
        if min > limit {
            self.capped.push(format!("{ptr}: {keyword} {min} capped at {limit} {what}"));
            return (limit, limit);
        }
        (min, max.min(limit).max(min))
    }

    fn string(&mut self, obj: &Map<String, Value>, ptr: &str) -> Result<ValueStrategy, SchemaError> {
        let min = count(obj, "minLength", ptr)?.unwrap_or(0);
        let declared_max = count(obj, "maxLength", ptr)?;
        let max = declared_max.unwrap_or(min.saturating_add(FREE_LENGTH)).min(min.saturating_add(FREE_LENGTH * 4));
        if max < min {
            return err(ptr, format!("maxLength {max} is below minLength {min}"));
        }
        let (min, max) = self.within_budget(ptr, "minLength", "characters", min, max);
        if let Some(format) = obj.get("format").and_then(Value::as_str) {
            self.notes.push(format!(
                "{ptr}: `format: {format}` is not enforced; strings are arbitrary (JSON Schema treats format as an annotation)"
            ));
        }
        let in_bounds = move |s: &String| (min..=max).contains(&s.chars().count());
        if let Some(pattern) = obj.get("pattern").and_then(Value::as_str) {
            match proptest::string::string_regex(&ecma_to_rust(pattern)) {
                Ok(s) => return Ok(s.prop_filter("minLength/maxLength", in_bounds).prop_map(Value::String).boxed()),
                Err(e) => self.notes.push(format!("{ptr}: `pattern: {pattern}` is not enforced ({e}); generated strings may not match it")),
            }
        }
        let chars = proptest::collection::vec(nasty_char(), min..=max).prop_map(|cs| cs.into_iter().collect::<String>());
        let words: Vec<String> = NASTY_WORDS.iter().map(|w| w.to_string()).filter(|w| in_bounds(w)).collect();
        let s = if words.is_empty() { chars.boxed() } else { prop_oneof![6 => chars, 1 => select(words)].boxed() };
        Ok(s.prop_map(Value::String).boxed())
    }
}

/// A character: mostly plain letters, often a nasty one, sometimes anything.
fn nasty_char() -> impl Strategy<Value = char> {
    prop_oneof![4 => proptest::char::range('a', 'z'), 3 => select(NASTY), 1 => any::<char>()]
}

/// A required property is always present; an optional one is present most
/// of the time and shrinks to absent.
fn pair_strategy(pair: impl Strategy<Value = (String, Value)> + 'static, required: bool) -> BoxedStrategy<Option<(String, Value)>> {
    if required { pair.prop_map(Some).boxed() } else { proptest::option::weighted(0.7, pair).boxed() }
}

fn one_of(mut branches: Vec<ValueStrategy>) -> ValueStrategy {
    if branches.len() == 1 {
        return branches.remove(0);
    }
    proptest::strategy::Union::new(branches).boxed()
}

fn infer_type(obj: &Map<String, Value>) -> &'static str {
    let has = |keys: &[&str]| keys.iter().any(|k| obj.contains_key(*k));
    if has(&["properties", "required", "additionalProperties"]) {
        "object"
    } else if has(&["items", "minItems", "maxItems", "uniqueItems"]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]) {
        "number"
    } else {
        "any"
    }
}

fn count(obj: &Map<String, Value>, key: &str, ptr: &str) -> Result<Option<usize>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            // Any size is taken as written: `within_budget` caps it, and says so.
            Some(n) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
            None => err(&format!("{ptr}/{key}"), format!("`{key}` must be a non-negative integer, not {v}")),
        },
    }
}

/// A numeric bound and whether it is exclusive.
type Bound = Option<(f64, bool)>;

/// Lower and upper bounds with their exclusivity, in draft 4 or draft 6+ style.
fn bounds(obj: &Map<String, Value>, ptr: &str) -> Result<(Bound, Bound), SchemaError> {
    let num = |key: &str| -> Result<Option<f64>, SchemaError> {
        match obj.get(key) {
            None | Some(Value::Bool(_)) => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| SchemaError { pointer: format!("{ptr}/{key}"), problem: format!("`{key}` must be a number, not {v}") }),
        }
    };
    let flag = |key: &str| obj.get(key) == Some(&Value::Bool(true));
    let lo = match (num("minimum")?, num("exclusiveMinimum")?) {
        (_, Some(x)) => Some((x, true)),
        (Some(m), None) => Some((m, flag("exclusiveMinimum"))),
        (None, None) => None,
    };
    let hi = match (num("maximum")?, num("exclusiveMaximum")?) {
        (_, Some(x)) => Some((x, true)),
        (Some(m), None) => Some((m, flag("exclusiveMaximum"))),
        (None, None) => None,
    };
    Ok((lo, hi))
}

fn integer(obj: &Map<String, Value>, ptr: &str) -> Result<ValueStrategy, SchemaError> {
    let (lo, hi) = bounds(obj, ptr)?;
    let lo = lo.map_or(i64::MIN as i128, |(x, ex)| if ex { x.floor() as i128 + 1 } else { x.ceil() as i128 });
    let hi = hi.map_or(i64::MAX as i128, |(x, ex)| if ex { x.ceil() as i128 - 1 } else { x.floor() as i128 });
    let step = match obj.get("multipleOf") {
        None => 1,
        Some(m) => match m.as_f64() {
            Some(f) if f >= 1.0 && f.fract() == 0.0 && f < 1e15 => f as i128,
            _ => {
                return err(
                    &format!("{ptr}/multipleOf"),
                    format!("only positive whole `multipleOf` steps are supported for integers, not {m}"),
                );
            }
        },
    };
    let (klo, khi) = (div_ceil(lo.max(i64::MIN as i128), step), (hi.min(i64::MAX as i128)).div_euclid(step));
    if klo > khi {
        return err(ptr, "no integer satisfies minimum/maximum/multipleOf");
    }
    let (klo, khi) = (klo as i64, khi as i64);
    let near_zero = (klo.max(-16))..=(khi.min(16));
    let edges: Vec<i64> =
        [0, 1, -1, i32::MAX as i64, i32::MIN as i64, 1 << 53, -(1 << 53), i64::MAX / step as i64, i64::MIN / step as i64, klo, khi]
            .into_iter()
            .filter(|k| (klo..=khi).contains(k))
            .collect();
    let ks = if near_zero.is_empty() {
        prop_oneof![2 => klo..=khi, 1 => select(edges)].boxed()
    } else {
        prop_oneof![3 => near_zero, 2 => klo..=khi, 1 => select(edges)].boxed()
    };
    Ok(ks.prop_map(move |k| Value::from((k as i128 * step) as i64)).boxed())
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -((-a).div_euclid(b))
}

fn number(obj: &Map<String, Value>, ptr: &str) -> Result<ValueStrategy, SchemaError> {
    if obj.contains_key("multipleOf") {
        // Integral multiples are exact; anything else is not representable reliably.
        let mut as_int = obj.clone();
        as_int.insert("type".into(), "integer".into());
        return integer(&as_int, ptr);
    }
    let (lo, hi) = bounds(obj, ptr)?;
    let (lo_v, lo_ex) = lo.unwrap_or((-1e9, false));
    let (hi_v, hi_ex) = hi.unwrap_or((1e9, false));
    if lo_v > hi_v || (lo_v == hi_v && (lo_ex || hi_ex)) {
        return err(ptr, "no number satisfies minimum/maximum");
    }
    let ok = move |x: &f64| x.is_finite() && (*x > lo_v || (!lo_ex && *x == lo_v)) && (*x < hi_v || (!hi_ex && *x == hi_v));
    let edges: Vec<f64> =
        [0.0, 0.5, -0.5, 1.0, -1.0, 1e-7, std::f64::consts::PI, 1e15, -1e15, lo_v, hi_v].into_iter().filter(|x| ok(x)).collect();
    let span = if lo_v == hi_v { Just(lo_v).boxed() } else { (lo_v..=hi_v).boxed() };
    let near_zero = (lo_v.max(-100.0))..=(hi_v.min(100.0));
    let mut branches: Vec<BoxedStrategy<f64>> = vec![span];
    if near_zero.start() < near_zero.end() {
        branches.insert(0, near_zero.prop_map(|x| (x * 4.0).round() / 4.0).boxed());
    }
    if !edges.is_empty() {
        branches.push(select(edges).boxed());
    }
    Ok(proptest::strategy::Union::new(branches)
        .prop_filter("minimum/maximum", ok)
        .prop_map(|x| Number::from_f64(x).map_or(Value::Null, Value::Number))
        .boxed())
}

/// Any small JSON value, for `{}`/`true` schemas and unconstrained items.
fn any_json() -> ValueStrategy {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(Value::from),
        proptest::collection::vec(nasty_char(), 0..8).prop_map(|c| Value::String(c.into_iter().collect())),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::vec(("[a-z_]{1,6}", inner), 0..3).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
    .boxed()
}

/// ECMA-262 classes are ASCII; Rust's are Unicode. Rewrites `\d`, `\w`, `\s`
/// (and their negations) to ASCII classes and drops a leading `^` and a
/// trailing `$`: a full match of the rest also matches the anchored or
/// unanchored pattern.
pub(crate) fn ecma_to_rust(pattern: &str) -> String {
    let mut p = pattern.strip_prefix('^').unwrap_or(pattern).to_string();
    if p.ends_with('$') && !p.ends_with("\\$") {
        p.pop();
    }
    let mut out = String::new();
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('w') => out.push_str("[A-Za-z0-9_]"),
            Some('W') => out.push_str("[^A-Za-z0-9_]"),
            Some('s') => out.push_str("[ \\t\\n\\r]"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}
