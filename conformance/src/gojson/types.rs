//! The Go types a reply is decoded into, and what `encoding/json` derives
//! from them: the type's printed name (for error messages), its zero value,
//! and the table of JSON field names of a struct.

use serde::Serialize;

use super::value::{GoFieldValue, GoValue};

/// A Go type, as far as `json.Unmarshal` cares.
///
/// Serialises (serde, externally tagged) to the shape the Go oracle in
/// `interop/gojson-oracle` rebuilds with `reflect`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum GoType {
    /// `bool`.
    Bool,
    /// `string`.
    String,
    /// `int8`, `int16`, `int32`, `int64` for `bits` 8..64; `bits: 0` is the
    /// platform `int` (64-bit range, printed `int` in error messages).
    Int {
        /// Width in bits, or 0 for `int`.
        bits: u8,
    },
    /// `uint8`..`uint64`; `bits: 0` is the platform `uint` (printed `uint`).
    Uint {
        /// Width in bits, or 0 for `uint`.
        bits: u8,
    },
    /// `float32` or `float64`.
    Float {
        /// 32 or 64.
        bits: u8,
    },
    /// `interface{}` / `any`: the generic decoding (map, slice, string,
    /// float64, bool, nil).
    Any,
    /// `json.RawMessage`: keeps the exact bytes of the value.
    RawMessage,
    /// `[]T`.
    Slice(Box<GoType>),
    /// `map[string]T`.
    Map(Box<GoType>),
    /// A struct.
    Struct(GoStruct),
    /// `*T`.
    Ptr(Box<GoType>),
}

/// A Go struct type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoStruct {
    /// The type's name as `reflect.Type.String()` prints it, e.g.
    /// `"hooks.hookResponse"`, or `""` for an unnamed struct type (then
    /// messages print the struct literal, as Go does for `struct { ... }`).
    pub name: &'static str,
    /// The fields, in declaration order.
    pub fields: Vec<GoField>,
}

/// One field of a [`GoStruct`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoField {
    /// The JSON name: the `json:"..."` tag name, or the Go field name when
    /// untagged. A field whose `name` equals `go_name` is modelled as
    /// untagged (it matters only for the printed struct literal and for the
    /// tie-break between promoted fields of the same depth).
    pub name: &'static str,
    /// The Go field name (an exported identifier).
    pub go_name: &'static str,
    /// The field's type.
    pub ty: GoType,
    /// An anonymous (embedded) field of struct or pointer-to-struct type
    /// whose fields are promoted. An embedded field with a json tag name is
    /// not promoted by Go: model it as an ordinary field (`embedded: false`).
    pub embedded: bool,
}

impl GoField {
    /// A named (non-embedded) field.
    pub fn new(name: &'static str, go_name: &'static str, ty: GoType) -> Self {
        GoField { name, go_name, ty, embedded: false }
    }

    /// An embedded struct (or `*struct`) field; `go_name` is the type's name.
    pub fn embedded(go_name: &'static str, ty: GoType) -> Self {
        GoField { name: go_name, go_name, ty, embedded: true }
    }

    fn tagged(&self) -> bool {
        self.name != self.go_name
    }
}

impl GoType {
    /// `[]T`.
    pub fn slice(elem: GoType) -> Self {
        GoType::Slice(Box::new(elem))
    }
    /// `map[string]T`.
    pub fn map(elem: GoType) -> Self {
        GoType::Map(Box::new(elem))
    }
    /// `*T`.
    pub fn ptr(elem: GoType) -> Self {
        GoType::Ptr(Box::new(elem))
    }
    /// A struct type.
    pub fn strukt(name: &'static str, fields: Vec<GoField>) -> Self {
        GoType::Struct(GoStruct { name, fields })
    }

    /// The type as `reflect.Type.String()` prints it, which is what
    /// `UnmarshalTypeError.Error` (decode.go) puts after "of type".
    pub fn go_string(&self) -> String {
        let mut out = String::new();
        self.write_go_string(&mut out);
        out
    }

    fn write_go_string(&self, out: &mut String) {
        match self {
            GoType::Bool => out.push_str("bool"),
            GoType::String => out.push_str("string"),
            GoType::Int { bits: 0 } => out.push_str("int"),
            GoType::Int { bits } => out.push_str(&format!("int{bits}")),
            GoType::Uint { bits: 0 } => out.push_str("uint"),
            GoType::Uint { bits } => out.push_str(&format!("uint{bits}")),
            GoType::Float { bits } => out.push_str(&format!("float{bits}")),
            GoType::Any => out.push_str("interface {}"),
            GoType::RawMessage => out.push_str("json.RawMessage"),
            GoType::Slice(elem) => {
                out.push_str("[]");
                elem.write_go_string(out);
            }
            GoType::Map(elem) => {
                out.push_str("map[string]");
                elem.write_go_string(out);
            }
            GoType::Ptr(elem) => {
                out.push('*');
                elem.write_go_string(out);
            }
            GoType::Struct(s) if !s.name.is_empty() => out.push_str(s.name),
            GoType::Struct(s) => s.write_literal(out),
        }
    }

    /// The zero value Go allocates for this type (`reflect.New(t).Elem()`).
    pub fn zero(&self) -> GoValue {
        match self {
            GoType::Bool => GoValue::Bool(false),
            GoType::String => GoValue::String(String::new()),
            GoType::Int { .. } => GoValue::Int(0),
            GoType::Uint { .. } => GoValue::Uint(0),
            GoType::Float { .. } => GoValue::Float(0.0),
            GoType::Any | GoType::RawMessage | GoType::Slice(_) | GoType::Map(_) | GoType::Ptr(_) => GoValue::Nil,
            GoType::Struct(s) => GoValue::Struct(
                s.fields
                    .iter()
                    .map(|f| GoFieldValue { name: f.name, go_name: f.go_name, embedded: f.embedded, value: f.ty.zero() })
                    .collect(),
            ),
        }
    }
}

impl GoStruct {
    /// `reflect.Type.Name()`: what `UnmarshalTypeError.Struct` holds (the
    /// name without its package; empty for an unnamed struct).
    pub fn short_name(&self) -> &'static str {
        match self.name.rfind('.') {
            Some(dot) => &self.name[dot + 1..],
            None => self.name,
        }
    }

    /// An unnamed struct prints as its literal, tags quoted with Go's
    /// `strconv.Quote`, e.g. `struct { Allow bool "json:\"allow\"" }`.
    fn write_literal(&self, out: &mut String) {
        out.push_str("struct {");
        for (i, f) in self.fields.iter().enumerate() {
            out.push_str(if i == 0 { " " } else { "; " });
            if !f.embedded {
                out.push_str(f.go_name);
                out.push(' ');
            }
            f.ty.write_go_string(out);
            if f.tagged() {
                out.push_str(" \"json:\\\"");
                out.push_str(f.name);
                out.push_str("\\\"\"");
            }
        }
        if !self.fields.is_empty() {
            out.push(' ');
        }
        out.push('}');
    }

    /// The JSON-visible fields, with Go's rules for embedded structs
    /// (encode.go `typeFields` and `dominantField`): breadth first through
    /// embedded structs; for each name the shallowest field wins, a tagged
    /// one breaking a tie of depth; two equally good fields hide each other.
    ///
    /// Approximation: Go's extra rule for the same struct type embedded twice
    /// at one depth (`count[f.typ] > 1`) is not modelled.
    pub(crate) fn visible_fields(&self) -> Vec<VisibleField> {
        let mut found: Vec<VisibleField> = Vec::new();
        let mut level: Vec<(&GoStruct, Vec<usize>)> = vec![(self, Vec::new())];
        let mut visited: Vec<&GoStruct> = Vec::new();
        while !level.is_empty() {
            let mut next = Vec::new();
            for (st, prefix) in level {
                if visited.contains(&st) {
                    continue;
                }
                visited.push(st);
                for (i, f) in st.fields.iter().enumerate() {
                    let mut path = prefix.clone();
                    path.push(i);
                    let inner = match &f.ty {
                        GoType::Ptr(t) => t.as_ref(),
                        t => t,
                    };
                    match (f.embedded, inner) {
                        (true, GoType::Struct(sub)) => next.push((sub, path)),
                        _ => found.push(VisibleField { name: f.name, tagged: f.tagged(), path }),
                    }
                }
            }
            level = next;
        }
        found.sort_by(|a, b| {
            a.name.cmp(b.name).then(a.path.len().cmp(&b.path.len())).then(b.tagged.cmp(&a.tagged)).then(a.path.cmp(&b.path))
        });
        let mut out: Vec<VisibleField> = Vec::new();
        let mut i = 0;
        while i < found.len() {
            let mut j = i + 1;
            while j < found.len() && found[j].name == found[i].name {
                j += 1;
            }
            let group = &found[i..j];
            let hidden = group.len() > 1 && group[0].path.len() == group[1].path.len() && group[0].tagged == group[1].tagged;
            if !hidden {
                out.push(group[0].clone());
            }
            i = j;
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
}

/// A field as the decoder sees it: its JSON name and the path of field
/// indexes from the outer struct through embedded structs.
#[derive(Debug, Clone)]
pub(crate) struct VisibleField {
    pub name: &'static str,
    pub tagged: bool,
    pub path: Vec<usize>,
}
