//! Decoding syntax-checked input into a [`GoType`] (decode.go `value`,
//! `object`, `array`, `literalStore`, `valueInterface` and `indirect`).
//!
//! Like Go, this runs only after [`check_valid`](super::scan::check_valid)
//! accepted the whole input, so it trusts the syntax. Type mismatches do not
//! stop it: Go records the first `UnmarshalTypeError` (`saveError`), skips
//! the offending value and decodes the rest, returning that error at the end.
//!
//! Recursion follows the Go type, which is finite; input nested deeper than
//! the type (into `interface{}`, a `json.RawMessage`, an unknown key or a
//! mismatched value) is walked with loops, so 10000 levels cannot overflow
//! the stack.

use std::collections::BTreeMap;

use super::GoJsonError;
use super::fold::fold_name;
use super::literal::{parse_float, parse_int, parse_uint, unquote};
use super::types::{GoStruct, GoType};
use super::value::{GoMap, GoSlice, GoValue};

pub(crate) struct Decoder<'a> {
    data: &'a [u8],
    /// Index of the next byte to read.
    off: usize,
    /// The first type error (decode.go `savedError`).
    saved: Option<GoJsonError>,
    /// decode.go `errorContext.Struct` (its `Name()`) ...
    ctx_struct: Option<&'static str>,
    /// ... and `errorContext.FieldStack`.
    ctx_fields: Vec<&'static str>,
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Decoder { data, off: 0, saved: None, ctx_struct: None, ctx_fields: Vec::new() }
    }

    /// Decode the single top-level value into `dst` (of type `ty`) and
    /// return the first saved error.
    pub(crate) fn run(mut self, ty: &GoType, dst: &mut GoValue) -> Option<GoJsonError> {
        self.skip_ws();
        self.value(ty, dst);
        self.saved
    }

    fn byte(&self) -> u8 {
        self.data.get(self.off).copied().unwrap_or(b' ')
    }

    fn skip_ws(&mut self) {
        while matches!(self.data.get(self.off), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.off += 1;
        }
    }

    /// decode.go `saveError` with `addErrorContext`: keep only the first,
    /// naming the struct and field path being decoded when it happened.
    fn type_error(&mut self, value: String, ty: &GoType, offset: usize) {
        if self.saved.is_some() {
            return;
        }
        let (struct_name, field) = if self.ctx_struct.is_some() || !self.ctx_fields.is_empty() {
            (self.ctx_struct.unwrap_or(""), self.ctx_fields.join("."))
        } else {
            ("", String::new())
        };
        self.saved = Some(GoJsonError::UnmarshalTypeError {
            value,
            go_type: ty.go_string(),
            offset: offset as u64,
            struct_name: struct_name.to_string(),
            field,
        });
    }

    /// The end (exclusive) of the literal starting at `start`
    /// (decode.go `rescanLiteral`).
    fn literal_end(&self, start: usize) -> usize {
        let data = self.data;
        let mut i = start + 1;
        match data.get(start) {
            Some(b'"') => {
                while i < data.len() {
                    match data[i] {
                        b'\\' => i += 2,
                        b'"' => return i + 1,
                        _ => i += 1,
                    }
                }
            }
            Some(b't' | b'n') => i = start + 4,
            Some(b'f') => i = start + 5,
            _ => {
                while i < data.len() && matches!(data[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                    i += 1;
                }
            }
        }
        i.min(data.len())
    }

    /// Skip the value at `off` (decode.go `skip`), leaving `off` after it.
    fn skip_value(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.byte() {
                b'{' | b'[' => {
                    depth += 1;
                    self.off += 1;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    self.off += 1;
                }
                b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => self.off = self.literal_end(self.off),
                _ => self.off += 1,
            }
            if depth == 0 || self.off >= self.data.len() {
                return;
            }
        }
    }

    /// decode.go `value`: dispatch on the next value's first byte.
    fn value(&mut self, ty: &GoType, dst: &mut GoValue) {
        self.skip_ws();
        let start = self.off;
        match self.byte() {
            b'{' => self.object(ty, dst, start),
            b'[' => self.array(ty, dst, start),
            _ => {
                let end = self.literal_end(start);
                self.off = end;
                self.literal(ty, dst, start, end);
            }
        }
    }

    fn raw(&mut self, dst: &mut GoValue, start: usize) {
        self.skip_value();
        *dst = GoValue::Raw(self.data[start..self.off].to_vec());
    }

    /// decode.go `literalStore`.
    fn literal(&mut self, ty: &GoType, dst: &mut GoValue, start: usize, end: usize) {
        let item = &self.data[start..end];
        let Some(&c) = item.first() else { return };
        if c == b'n' {
            // indirect(v, true): the first settable pointer becomes nil; a
            // json.RawMessage (an Unmarshaler) still sees the bytes `null`.
            match ty {
                GoType::Ptr(_) | GoType::Any | GoType::Map(_) | GoType::Slice(_) => *dst = GoValue::Nil,
                GoType::RawMessage => *dst = GoValue::Raw(item.to_vec()),
                _ => {}
            }
            return;
        }
        let ty = deref(ty, dst);
        match (c, ty) {
            (_, GoType::RawMessage) => *dst = GoValue::Raw(item.to_vec()),
            (b't' | b'f', GoType::Bool | GoType::Any) => *dst = GoValue::Bool(c == b't'),
            (b't' | b'f', _) => self.type_error("bool".into(), ty, end),
            (b'"', GoType::String | GoType::Any) => *dst = GoValue::String(unquote(item).unwrap_or_default()),
            (b'"', GoType::Slice(elem)) if **elem == GoType::Uint { bits: 8 } => {
                if self.saved.is_none() {
                    self.saved = Some(GoJsonError::Unsupported { what: "a JSON string into []byte (base64)".into() });
                }
            }
            (b'"', _) => self.type_error("string".into(), ty, end),
            (_, GoType::Int { bits }) => {
                let s = String::from_utf8_lossy(item);
                match parse_int(&s, *bits) {
                    Some(n) => *dst = GoValue::Int(n),
                    None => self.type_error(format!("number {s}"), ty, end),
                }
            }
            (_, GoType::Uint { bits }) => {
                let s = String::from_utf8_lossy(item);
                match parse_uint(&s, *bits) {
                    Some(n) => *dst = GoValue::Uint(n),
                    None => self.type_error(format!("number {s}"), ty, end),
                }
            }
            (_, GoType::Float { bits }) => {
                let s = String::from_utf8_lossy(item);
                match parse_float(&s, *bits) {
                    Some(f) => *dst = GoValue::Float(f),
                    None => self.type_error(format!("number {s}"), ty, end),
                }
            }
            (_, GoType::Any) => {
                if let Some(v) = self.number_interface(item, end) {
                    *dst = v;
                }
            }
            _ => self.type_error("number".into(), ty, end),
        }
    }

    /// decode.go `convertNumber`: a number into an interface is a float64;
    /// one out of float64's range is an error reported against float64.
    fn number_interface(&mut self, item: &[u8], end: usize) -> Option<GoValue> {
        let s = String::from_utf8_lossy(item);
        match parse_float(&s, 64) {
            Some(f) => Some(GoValue::Float(f)),
            None => {
                self.type_error(format!("number {s}"), &GoType::Float { bits: 64 }, end + 1);
                None
            }
        }
    }

    /// Read an object key at `off` and the `:` after it.
    fn key(&mut self) -> String {
        self.skip_ws();
        let start = self.off;
        let end = self.literal_end(start);
        self.off = end;
        self.skip_ws();
        self.off += 1; // ':'
        unquote(&self.data[start..end]).unwrap_or_default()
    }

    /// After a member or element: consume `,` (true, more follow) or the
    /// closing bracket (false).
    fn next_member(&mut self) -> bool {
        self.skip_ws();
        let more = self.byte() == b',';
        self.off += 1;
        more
    }

    /// Consume `{` or `[`; true when the container is empty (and consumed).
    fn open(&mut self) -> bool {
        self.off += 1;
        self.skip_ws();
        if matches!(self.byte(), b'}' | b']') {
            self.off += 1;
            return true;
        }
        false
    }

    /// decode.go `object`.
    fn object(&mut self, ty: &GoType, dst: &mut GoValue, start: usize) {
        let ty = deref(ty, dst);
        match ty {
            GoType::RawMessage => self.raw(dst, start),
            GoType::Any => *dst = self.interface(),
            GoType::Map(elem) => {
                if !matches!(dst, GoValue::Map(_)) {
                    *dst = GoValue::Map(GoMap::default());
                }
                if self.open() {
                    return;
                }
                loop {
                    let key = self.key();
                    // A fresh zero element per key: duplicate keys replace.
                    let mut v = elem.zero();
                    self.value(elem, &mut v);
                    if let GoValue::Map(m) = dst {
                        m.entries.insert(key, v);
                    }
                    if !self.next_member() {
                        return;
                    }
                }
            }
            GoType::Struct(st) => self.struct_members(st, dst),
            _ => {
                self.type_error("object".into(), ty, start + 1);
                self.skip_value();
            }
        }
    }

    fn struct_members(&mut self, st: &GoStruct, dst: &mut GoValue) {
        if self.open() {
            return;
        }
        let fields = st.visible_fields();
        loop {
            let key = self.key();
            let folded = fold_name(&key);
            let found = fields.iter().find(|f| f.name == key).or_else(|| fields.iter().find(|f| fold_name(f.name) == folded));
            match found.and_then(|f| field_slot(dst, st, &f.path).map(|s| (f.name, s))) {
                Some((name, (slot, fty, embedded_names))) => {
                    let (saved_struct, saved_len) = (self.ctx_struct, self.ctx_fields.len());
                    self.ctx_fields.extend(embedded_names);
                    self.ctx_struct = Some(st.short_name());
                    self.ctx_fields.push(name);
                    self.value(fty, slot);
                    self.ctx_fields.truncate(saved_len);
                    self.ctx_struct = saved_struct;
                }
                None => {
                    self.skip_ws();
                    self.skip_value();
                }
            }
            if !self.next_member() {
                return;
            }
        }
    }

    /// decode.go `array`.
    fn array(&mut self, ty: &GoType, dst: &mut GoValue, start: usize) {
        let ty = deref(ty, dst);
        let elem = match ty {
            GoType::RawMessage => return self.raw(dst, start),
            GoType::Any => {
                *dst = self.interface();
                return;
            }
            GoType::Slice(elem) => elem,
            _ => {
                self.type_error("array".into(), ty, start + 1);
                self.skip_value();
                return;
            }
        };
        if !matches!(dst, GoValue::Slice(_)) {
            *dst = GoValue::Slice(GoSlice::default());
        }
        let GoValue::Slice(slice) = dst else { return };
        let mut i = 0;
        if !self.open() {
            loop {
                if i >= slice.items.len() {
                    // Growing into the backing array brings back what an
                    // earlier, longer array left there (or a zero).
                    let next = slice.spare.pop_front().unwrap_or_else(|| elem.zero());
                    slice.items.push(next);
                }
                self.value(elem, &mut slice.items[i]);
                i += 1;
                if !self.next_member() {
                    break;
                }
            }
        }
        if i == 0 {
            // Go replaces the slice with a new empty one.
            *slice = GoSlice::default();
        } else if i < slice.items.len() {
            let tail = slice.items.split_off(i);
            for v in tail.into_iter().rev() {
                slice.spare.push_front(v);
            }
        }
    }

    /// decode.go `valueInterface`: the generic decoding into `interface{}`
    /// (objects → `map[string]any`, arrays → `[]any`, numbers → float64),
    /// with an explicit stack instead of recursion.
    fn interface(&mut self) -> GoValue {
        enum Frame {
            Array(Vec<GoValue>),
            Object(BTreeMap<String, GoValue>, String),
        }
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            // Parse one value start; containers push a frame and continue.
            self.skip_ws();
            let start = self.off;
            let mut done = match self.byte() {
                b'[' => {
                    if self.open() {
                        GoValue::Slice(GoSlice::default())
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue;
                    }
                }
                b'{' => {
                    if self.open() {
                        GoValue::Map(GoMap::default())
                    } else {
                        let key = self.key();
                        stack.push(Frame::Object(BTreeMap::new(), key));
                        continue;
                    }
                }
                c => {
                    let end = self.literal_end(start);
                    self.off = end;
                    let item = &self.data[start..end];
                    match c {
                        b'n' => GoValue::Nil,
                        b't' | b'f' => GoValue::Bool(c == b't'),
                        b'"' => GoValue::String(unquote(item).unwrap_or_default()),
                        _ => self.number_interface(item, end).unwrap_or(GoValue::Nil),
                    }
                }
            };
            // Hand finished values to their containers, closing those that end.
            loop {
                match stack.last_mut() {
                    None => return done,
                    Some(Frame::Array(items)) => {
                        items.push(done);
                        if self.next_member() {
                            break;
                        }
                    }
                    Some(Frame::Object(map, key)) => {
                        map.insert(std::mem::take(key), done);
                        if self.next_member() {
                            *key = self.key();
                            break;
                        }
                    }
                }
                done = match stack.pop() {
                    Some(Frame::Array(items)) => GoValue::Slice(GoSlice::new(items)),
                    Some(Frame::Object(entries, _)) => GoValue::Map(GoMap { entries }),
                    None => GoValue::Nil,
                };
            }
        }
    }
}

/// decode.go `indirect` for a non-null value: follow pointers, allocating
/// nil ones, to the type that receives the value.
fn deref<'t>(mut ty: &'t GoType, dst: &mut GoValue) -> &'t GoType {
    while let GoType::Ptr(inner) = ty {
        if matches!(dst, GoValue::Nil) {
            *dst = inner.zero();
        }
        ty = inner;
    }
    ty
}

/// The slot of the field at `path` (through embedded structs, allocating
/// nil embedded pointers as decode.go `object` does), its type, and the Go
/// names of the embedded fields passed on the way (they join the error's
/// field path).
fn field_slot<'v, 't>(dst: &'v mut GoValue, st: &'t GoStruct, path: &[usize]) -> Option<(&'v mut GoValue, &'t GoType, Vec<&'static str>)> {
    let mut value = dst;
    let mut st = st;
    let mut names = Vec::new();
    for (i, &idx) in path.iter().enumerate() {
        let GoValue::Struct(fields) = value else { return None };
        let field = st.fields.get(idx)?;
        let slot = &mut fields.get_mut(idx)?.value;
        if i + 1 == path.len() {
            return Some((slot, &field.ty, names));
        }
        names.push(field.go_name);
        let inner = deref(&field.ty, slot);
        let GoType::Struct(inner) = inner else { return None };
        st = inner;
        value = slot;
    }
    None
}
