//! What the Go program holds after `json.Unmarshal`: [`GoValue`].

use std::collections::{BTreeMap, VecDeque};

use serde_json::{Map, Number, Value};

/// How deep [`GoValue::to_json`] shows arrays and objects.
pub const SHOWN_DEPTH: usize = 100;

/// A decoded Go value. Pointers are transparent: a non-nil `*T` is the `T`
/// it points to, a nil one is [`GoValue::Nil`].
#[derive(Debug, Clone, PartialEq)]
pub enum GoValue {
    /// A nil pointer, slice, map, interface or `json.RawMessage`.
    Nil,
    /// `bool`.
    Bool(bool),
    /// `string` (always valid UTF-8: Go's decoder replaces bad bytes).
    String(String),
    /// Any signed integer type.
    Int(i64),
    /// Any unsigned integer type.
    Uint(u64),
    /// `float64`, or a `float32` widened exactly; also every number an
    /// `interface{}` receives.
    Float(f64),
    /// A non-nil `json.RawMessage`: the exact bytes of the value as they
    /// appeared on the wire (a nil one, never assigned, is [`GoValue::Nil`];
    /// a JSON `null` assigns the four bytes `null`).
    Raw(Vec<u8>),
    /// A non-nil slice (`[]T` or an interface's `[]any`).
    Slice(GoSlice),
    /// A non-nil `map[string]T` (or an interface's `map[string]any`).
    Map(GoMap),
    /// A struct: every field, in declaration order; an embedded struct is
    /// one field holding its own struct value.
    Struct(Vec<GoFieldValue>),
}

/// One field of a decoded struct.
#[derive(Debug, Clone, PartialEq)]
pub struct GoFieldValue {
    /// The JSON name.
    pub name: &'static str,
    /// The Go field name.
    pub go_name: &'static str,
    /// Whether the field is an embedded struct whose fields are promoted.
    pub embedded: bool,
    /// The value.
    pub value: GoValue,
}

/// A non-nil Go slice. Go decodes an array into an existing slice by
/// reusing its backing array (decode.go `array`): the elements past the
/// current length that an earlier, longer array left behind come back into
/// view when a later array is longer again. `spare` keeps them, so duplicate
/// keys behave as in Go without modelling capacities.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GoSlice {
    /// The elements (the slice's length).
    pub items: Vec<GoValue>,
    pub(crate) spare: VecDeque<GoValue>,
}

/// A non-nil Go map with string keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GoMap {
    /// The entries (Go's maps are unordered; these are sorted by key).
    pub entries: BTreeMap<String, GoValue>,
}

impl GoSlice {
    /// A slice holding `items`.
    pub fn new(items: Vec<GoValue>) -> Self {
        GoSlice { items, spare: VecDeque::new() }
    }
}

// Values nest as deep as the input (10000 levels into an interface{}): drop
// them with a loop, not recursion, so a deep reply cannot overflow the stack.
fn drop_iteratively(mut stack: Vec<GoValue>) {
    while let Some(value) = stack.pop() {
        match value {
            GoValue::Slice(mut s) => {
                stack.append(&mut s.items);
                stack.extend(s.spare.drain(..));
            }
            GoValue::Map(mut m) => stack.extend(std::mem::take(&mut m.entries).into_values()),
            GoValue::Struct(fields) => stack.extend(fields.into_iter().map(|f| f.value)),
            _ => {}
        }
    }
}

impl Drop for GoSlice {
    fn drop(&mut self) {
        if self.items.is_empty() && self.spare.is_empty() {
            return;
        }
        let mut stack = std::mem::take(&mut self.items);
        stack.extend(self.spare.drain(..));
        drop_iteratively(stack);
    }
}

impl Drop for GoMap {
    fn drop(&mut self) {
        if !self.entries.is_empty() {
            drop_iteratively(std::mem::take(&mut self.entries).into_values().collect());
        }
    }
}

impl GoValue {
    /// The value as a caller reads it: a struct is an object holding every
    /// field under its JSON name (embedded structs' fields promoted into it;
    /// a nil embedded pointer promotes nothing), nil is `null`, integers stay
    /// integers, a float is a JSON float (non-finite cannot occur), and a
    /// non-nil `json.RawMessage` is `{"$raw": "<exact text>"}` (invalid UTF-8
    /// in the raw text shown as U+FFFD; [`GoValue::Raw`] has the bytes).
    ///
    /// Built with an explicit stack, not recursion: an interface can hold
    /// 10000 levels. Arrays and objects deeper than [`SHOWN_DEPTH`] are
    /// shown empty: serde_json reads no deeper than 128 levels, and its
    /// `Clone`, `Drop` and printing recurse, so a 10000-level `Value` could
    /// overflow a thread's stack wherever proctor passes it on.
    pub fn to_json(&self) -> Value {
        enum Open<'v> {
            Array(Vec<Value>, std::vec::IntoIter<&'v GoValue>),
            Object(Map<String, Value>, std::vec::IntoIter<(String, &'v GoValue)>, String),
        }
        let mut stack: Vec<Open<'_>> = Vec::new();
        let mut current = self;
        loop {
            let mut done = match current {
                GoValue::Nil => Value::Null,
                GoValue::Bool(b) => Value::Bool(*b),
                GoValue::String(s) => Value::String(s.clone()),
                GoValue::Int(i) => Value::from(*i),
                GoValue::Uint(u) => Value::from(*u),
                GoValue::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
                GoValue::Raw(bytes) => {
                    let mut m = Map::new();
                    m.insert("$raw".into(), Value::String(String::from_utf8_lossy(bytes).into_owned()));
                    Value::Object(m)
                }
                GoValue::Slice(_) if stack.len() >= SHOWN_DEPTH => Value::Array(Vec::new()),
                GoValue::Map(_) | GoValue::Struct(_) if stack.len() >= SHOWN_DEPTH => Value::Object(Map::new()),
                GoValue::Slice(s) => {
                    let mut rest = s.items.iter().collect::<Vec<_>>().into_iter();
                    match rest.next() {
                        Some(first) => {
                            stack.push(Open::Array(Vec::new(), rest));
                            current = first;
                            continue;
                        }
                        None => Value::Array(Vec::new()),
                    }
                }
                GoValue::Map(_) | GoValue::Struct(_) => {
                    let mut rest = match current {
                        GoValue::Map(m) => m.entries.iter().map(|(k, v)| (k.clone(), v)).collect(),
                        GoValue::Struct(fields) => visible_members(fields),
                        _ => Vec::new(),
                    }
                    .into_iter();
                    match rest.next() {
                        Some((key, first)) => {
                            stack.push(Open::Object(Map::new(), rest, key));
                            current = first;
                            continue;
                        }
                        None => Value::Object(Map::new()),
                    }
                }
            };
            loop {
                match stack.last_mut() {
                    None => return done,
                    Some(Open::Array(items, rest)) => {
                        items.push(done);
                        if let Some(next) = rest.next() {
                            current = next;
                            break;
                        }
                    }
                    Some(Open::Object(map, rest, key)) => {
                        map.insert(std::mem::take(key), done);
                        if let Some((k, next)) = rest.next() {
                            *key = k;
                            current = next;
                            break;
                        }
                    }
                }
                done = match stack.pop() {
                    Some(Open::Array(items, _)) => Value::Array(items),
                    Some(Open::Object(map, _, _)) => Value::Object(map),
                    None => Value::Null,
                };
            }
        }
    }

    /// The field named `name` (its JSON name) of a struct value, looking
    /// through embedded structs.
    pub fn field(&self, name: &str) -> Option<&GoValue> {
        let GoValue::Struct(fields) = self else {
            return None;
        };
        fields
            .iter()
            .find(|f| !f.embedded && f.name == name)
            .map(|f| &f.value)
            .or_else(|| fields.iter().filter(|f| f.embedded).find_map(|f| f.value.field(name)))
    }
}

/// A struct's members as a caller sees them: outer fields first, then the
/// promoted fields of embedded structs that no shallower field shadows (a
/// nil embedded pointer promotes nothing).
fn visible_members(fields: &[GoFieldValue]) -> Vec<(String, &GoValue)> {
    let mut out: Vec<(String, &GoValue)> = Vec::new();
    for f in fields.iter().filter(|f| !f.embedded) {
        out.push((f.name.to_string(), &f.value));
    }
    for f in fields.iter().filter(|f| f.embedded) {
        if let GoValue::Struct(inner) = &f.value {
            for (k, v) in visible_members(inner) {
                if !out.iter().any(|(seen, _)| *seen == k) {
                    out.push((k, v));
                }
            }
        }
    }
    out
}
