//! Reading a pack file: JSON or YAML into one `serde_json::Value`, with the line and column of every
//! value and every key, so a diagnostic can point at what the user must edit.
//!
//! JSON is parsed by serde_json (whose syntax errors carry a line and column) and then walked once by a
//! small scanner that only records where each JSON pointer starts. YAML goes through serde-saphyr's
//! `Spanned` values. Both end as the same [`Document`]: the checker never knows which format it read.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// A pack larger than this is refused before it is parsed: real packs are kilobytes, and a checker
/// must not be the thing that runs out of memory on a mistaken path (a log file, a dataset).
pub const MAX_PACK_BYTES: u64 = 16 * 1024 * 1024;

/// Where something is in the file, both 1-based; columns count characters, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Place {
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Yaml,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "JSON",
            Format::Yaml => "YAML",
        })
    }
}

/// A file that cannot be read as a pack at all: the user's input, reported with its location (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Missing, a folder or a device, more than [`MAX_PACK_BYTES`], or not UTF-8.
    #[error("{0}")]
    Read(#[from] proctor_input::InputError),
    #[error("{file}:{line}:{column}: not valid {format}: {message}")]
    Syntax { file: PathBuf, format: Format, line: u32, column: u32, message: String },
    #[error("{file}: the file is empty; a pack is one {format} object with id, name, version, template_engine and prompts")]
    Empty { file: PathBuf, format: Format },
    #[error("{file}:{line}:{column}: a pack is one object at the top level, this is {found}")]
    NotAnObject { file: PathBuf, line: u32, column: u32, found: &'static str },
}

/// A pack as read: its value, and where each part of it is in the text.
#[derive(Debug, Clone)]
pub struct Document {
    pub file: PathBuf,
    pub format: Format,
    pub value: Value,
    values: HashMap<String, Place>,
    keys: HashMap<String, Place>,
    /// Keys given twice in one object (JSON only; YAML refuses them): every implementation keeps the
    /// last, silently.
    pub duplicate_keys: Vec<(String, Place)>,
}

impl Document {
    /// Where the value at `pointer` starts; for a pointer that is not in the document (a missing
    /// required field), where its nearest existing parent starts.
    pub fn place(&self, pointer: &str) -> Place {
        let mut pointer = pointer;
        loop {
            if let Some(place) = self.values.get(pointer) {
                return *place;
            }
            match pointer.rfind('/') {
                Some(cut) => pointer = &pointer[..cut],
                None => return Place { line: 1, column: 1 },
            }
        }
    }

    /// Where the key of the member at `pointer` starts (its value's place when it has no key).
    pub fn key_place(&self, pointer: &str) -> Place {
        self.keys.get(pointer).copied().unwrap_or_else(|| self.place(pointer))
    }

    /// Builds a document from a value with no text behind it (tests, generated packs).
    pub fn from_value(file: impl Into<PathBuf>, value: Value) -> Document {
        Document {
            file: file.into(),
            format: Format::Json,
            value,
            values: HashMap::new(),
            keys: HashMap::new(),
            duplicate_keys: Vec::new(),
        }
    }
}

/// Appends one reference token to a JSON pointer (RFC 6901 escaping).
pub fn child(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The format a file is read as: by extension, else by its first character.
pub fn format_of(path: &Path, text: &str) -> Format {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("json") => Format::Json,
        Some("yaml" | "yml") => Format::Yaml,
        _ if text.trim_start().starts_with('{') => Format::Json,
        _ => Format::Yaml,
    }
}

pub fn load(path: &Path) -> Result<Document, LoadError> {
    let text = proctor_input::read_to_string(path, MAX_PACK_BYTES)?;
    parse(path.to_path_buf(), &text)
}

/// Parses pack text named `file` (the name only decides the format and labels errors).
pub fn parse(file: PathBuf, text: &str) -> Result<Document, LoadError> {
    let format = format_of(&file, text);
    if text.trim().is_empty() {
        return Err(LoadError::Empty { file, format });
    }
    let document = match format {
        Format::Json => parse_json(file, text)?,
        Format::Yaml => parse_yaml(file, text)?,
    };
    if !document.value.is_object() {
        let place = document.place("");
        return Err(LoadError::NotAnObject { file: document.file, line: place.line, column: place.column, found: kind(&document.value) });
    }
    Ok(document)
}

/// The JSON type name of a value, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn parse_json(file: PathBuf, text: &str) -> Result<Document, LoadError> {
    if text.starts_with('\u{feff}') {
        // serde_json would say "expected value" at 1:1, which points nowhere a user can see.
        let message =
            "the file starts with a byte-order mark (BOM), which Go's and Python's JSON readers refuse; re-save it as UTF-8 without BOM"
                .into();
        return Err(LoadError::Syntax { file, format: Format::Json, line: 1, column: 1, message });
    }
    let value: Value = serde_json::from_str(text).map_err(|error| LoadError::Syntax {
        file: file.clone(),
        format: Format::Json,
        line: error.line() as u32,
        column: error.column() as u32,
        message: json_message(&error),
    })?;
    let mut scanner =
        Scanner { bytes: text.as_bytes(), at: 0, place: Place { line: 1, column: 1 }, document: Document::from_value(file, Value::Null) };
    scanner.value(String::new());
    let mut document = scanner.document;
    document.value = value;
    Ok(document)
}

/// serde_json's message without its own " at line L column C" tail (the location is printed once, in front).
fn json_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

/// Records where each value and key of already-valid JSON starts. It trusts serde_json's verdict on
/// the syntax, and stops quietly at the end of the text rather than panic if it ever disagrees.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    place: Place,
    document: Document,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) {
        if let Some(&byte) = self.bytes.get(self.at) {
            self.at += 1;
            if byte == b'\n' {
                self.place.line += 1;
                self.place.column = 1;
            } else if byte & 0xC0 != 0x80 {
                self.place.column += 1;
            }
        }
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.bump();
        }
    }

    fn value(&mut self, pointer: String) {
        self.skip_space();
        self.document.values.insert(pointer.clone(), self.place);
        match self.peek() {
            Some(b'{') => self.object(&pointer),
            Some(b'[') => self.array(&pointer),
            Some(b'"') => {
                self.string();
            }
            Some(_) => {
                while !matches!(self.peek(), None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n')) {
                    self.bump();
                }
            }
            None => {}
        }
    }

    fn object(&mut self, pointer: &str) {
        self.bump();
        let mut seen = std::collections::HashSet::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'}') | None => break,
                Some(b',') => self.bump(),
                Some(_) => {
                    let key_place = self.place;
                    let key = self.string();
                    let member = child(pointer, &key);
                    if !seen.insert(key) {
                        self.document.duplicate_keys.push((member.clone(), key_place));
                    }
                    self.document.keys.insert(member.clone(), key_place);
                    self.skip_space();
                    if self.peek() == Some(b':') {
                        self.bump();
                    }
                    self.value(member);
                }
            }
        }
        self.bump();
    }

    fn array(&mut self, pointer: &str) {
        self.bump();
        let mut index = 0;
        loop {
            self.skip_space();
            match self.peek() {
                Some(b']') | None => break,
                Some(b',') => self.bump(),
                Some(_) => {
                    self.value(child(pointer, &index.to_string()));
                    index += 1;
                }
            }
        }
        self.bump();
    }

    /// Skips a string token and returns its decoded text.
    fn string(&mut self) -> String {
        let start = self.at;
        self.bump();
        while let Some(byte) = self.peek() {
            match byte {
                b'\\' => {
                    self.bump();
                    self.bump();
                }
                b'"' => {
                    self.bump();
                    break;
                }
                _ => self.bump(),
            }
        }
        std::str::from_utf8(&self.bytes[start..self.at]).ok().and_then(|token| serde_json::from_str(token).ok()).unwrap_or_default()
    }
}

/// A YAML node with the place of every value and key, as serde-saphyr reports them.
enum Node {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
    Seq(Vec<serde_saphyr::Spanned<Node>>),
    Map(Vec<(serde_saphyr::Spanned<String>, serde_saphyr::Spanned<Node>)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NodeVisitor;
        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_none<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
                Node::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
                Ok(Node::Uint(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Node, E> {
                Ok(Node::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Node::Seq(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut entries = Vec::new();
                while let Some(key) = map.next_key::<serde_saphyr::Spanned<String>>()? {
                    entries.push((key, map.next_value()?));
                }
                Ok(Node::Map(entries))
            }
        }
        deserializer.deserialize_any(NodeVisitor)
    }
}

fn parse_yaml(file: PathBuf, text: &str) -> Result<Document, LoadError> {
    let options = serde_saphyr::options! { strict_booleans: true };
    let node: serde_saphyr::Spanned<Node> = serde_saphyr::from_str_with_options(text, options).map_err(|error| {
        let place = error.location().map_or(Place { line: 1, column: 1 }, |l| Place { line: l.line() as u32, column: l.column() as u32 });
        let message = error.to_string();
        let first = message.lines().next().unwrap_or_default();
        // `line L column C:` is already in the diagnostic's place; keep the message alone.
        let message = proctor_input::yaml_message(first, &file.display().to_string());
        let message =
            message.split_once(": ").filter(|(place, _)| place.ends_with(char::is_numeric)).map_or(message.clone(), |(_, m)| m.to_string());
        LoadError::Syntax { file: file.clone(), format: Format::Yaml, line: place.line, column: place.column, message }
    })?;
    let mut document = Document::from_value(file, Value::Null);
    document.format = Format::Yaml;
    document.value = flatten(node, String::new(), &mut document);
    Ok(document)
}

fn place_of<T>(spanned: &serde_saphyr::Spanned<T>) -> Place {
    Place { line: spanned.referenced.line() as u32, column: spanned.referenced.column() as u32 }
}

fn flatten(node: serde_saphyr::Spanned<Node>, pointer: String, document: &mut Document) -> Value {
    document.values.insert(pointer.clone(), place_of(&node));
    match node.value {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Int(i) => Value::from(i),
        Node::Uint(u) => Value::from(u),
        Node::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        Node::Str(s) => Value::String(s),
        Node::Seq(items) => {
            Value::Array(items.into_iter().enumerate().map(|(i, item)| flatten(item, child(&pointer, &i.to_string()), document)).collect())
        }
        Node::Map(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                let member = child(&pointer, &key.value);
                document.keys.insert(member.clone(), place_of(&key));
                let value = flatten(value, member, document);
                map.insert(key.value, value);
            }
            Value::Object(map)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_input_is_refused_not_read_forever() {
        // /dev/zero reports size 0 and never ends: a device is refused before it is opened.
        let err = load(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("/dev/zero: is a device, not a file"), "{err}");
    }

    #[test]
    fn a_json_bom_is_named() {
        let err = parse(PathBuf::from("p.json"), "\u{feff}{}").unwrap_err().to_string();
        assert!(err.contains("p.json:1:1: not valid JSON: the file starts with a byte-order mark (BOM)"), "{err}");
    }

    #[test]
    fn json_places_point_at_values_and_keys() {
        let text = "{\n  \"id\": \"x\",\n  \"prompts\": {\n    \"a/b\": {\"tools\": [\"t\", \"ü\", 3]}\n  }\n}\n";
        let doc = parse("p.json".into(), text).unwrap();
        assert_eq!(doc.place("/id"), Place { line: 2, column: 9 });
        assert_eq!(doc.key_place("/id"), Place { line: 2, column: 3 });
        // columns count characters: the `ü` before it is one column, two bytes
        assert_eq!(doc.place("/prompts/a~1b/tools/2"), Place { line: 4, column: 33 });
        // a missing member points at its parent
        assert_eq!(doc.place("/prompts/a~1b/name"), Place { line: 4, column: 12 });
        assert!(doc.duplicate_keys.is_empty());
    }

    #[test]
    fn json_duplicate_keys_are_recorded() {
        let doc = parse("p.json".into(), "{\"id\": \"a\", \"id\": \"b\"}").unwrap();
        assert_eq!(doc.value["id"], "b");
        assert_eq!(doc.duplicate_keys, vec![("/id".to_string(), Place { line: 1, column: 13 })]);
    }

    #[test]
    fn yaml_places_point_at_values_and_keys() {
        let text = "id: x\nprompts:\n  main:\n    tools: [t, u]\n    enabled: yes\n";
        let doc = parse("p.yaml".into(), text).unwrap();
        assert_eq!(doc.key_place("/prompts/main/tools"), Place { line: 4, column: 5 });
        assert_eq!(doc.place("/prompts/main/tools/1"), Place { line: 4, column: 16 });
        // YAML 1.1 booleans stay strings: the shape check then says "expected a boolean"
        assert_eq!(doc.value["prompts"]["main"]["enabled"], "yes");
    }

    #[test]
    fn syntax_errors_carry_their_place() {
        let error = parse("p.json".into(), "{\n  \"id\": \"x\",\n}").unwrap_err().to_string();
        assert!(error.starts_with("p.json:3:1: not valid JSON: trailing comma"), "{error}");
        let error = parse("p.yaml".into(), "id: [x\nname: y\n").unwrap_err().to_string();
        assert!(error.starts_with("p.yaml:"), "{error}");
        let error = parse("p.json".into(), "[1]").unwrap_err().to_string();
        assert_eq!(error, "p.json:1:1: a pack is one object at the top level, this is an array");
        let error = parse("p.json".into(), "  \n").unwrap_err().to_string();
        assert!(error.contains("the file is empty"), "{error}");
    }
}
