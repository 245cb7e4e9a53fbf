//! The gojson model against real Go: a few thousand generated inputs, each
//! decoded by `json.Unmarshal` (interop/gojson-oracle, built here with
//! `go build`) and by `proctor_conformance::gojson::unmarshal`, must agree on
//! ok-or-error, the error's kind, message and (for syntax errors) offset, and
//! the decoded value.
//!
//! Without `go` the test skips loudly; `PROCTOR_REQUIRE_GO=1` makes that a
//! failure.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use proctor_conformance::gojson::{GoField, GoJsonError, GoType, GoValue, unmarshal};
use serde_json::{Map, Value, json};

/// A small deterministic PRNG (xorshift64*), so every run sends the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

fn f(name: &'static str, go_name: &'static str, ty: GoType) -> GoField {
    GoField::new(name, go_name, ty)
}

/// Schemas modelled on the runtimes' reply types. Unnamed (`""`), because
/// reflect.StructOf cannot name a type: messages then print the struct
/// literal, which the model renders the same way.
fn schemas() -> Vec<(&'static str, GoType)> {
    use GoType::*;
    let s = || String;
    vec![
        (
            "picoclaw envelope",
            GoType::strukt(
                "",
                vec![
                    f("jsonrpc", "JSONRPC", s()),
                    f("id", "ID", Uint { bits: 64 }),
                    f("method", "Method", s()),
                    f("params", "Params", RawMessage),
                    f("result", "Result", RawMessage),
                    f(
                        "error",
                        "Error",
                        GoType::ptr(GoType::strukt("", vec![f("code", "Code", Int { bits: 0 }), f("message", "Message", s())])),
                    ),
                ],
            ),
        ),
        (
            "picoclaw decision",
            GoType::strukt(
                "",
                vec![
                    f("action", "Action", s()),
                    f("reason", "Reason", s()),
                    f(
                        "call",
                        "Call",
                        GoType::ptr(GoType::strukt("", vec![f("tool", "Tool", s()), f("arguments", "Arguments", GoType::map(Any))])),
                    ),
                    f(
                        "result",
                        "Result",
                        GoType::ptr(GoType::strukt(
                            "",
                            vec![
                                f("for_llm", "ForLLM", s()),
                                f("for_user", "ForUser", s()),
                                f("silent", "Silent", Bool),
                                f("is_error", "IsError", Bool),
                            ],
                        )),
                    ),
                ],
            ),
        ),
        ("picoclaw approval", GoType::strukt("", vec![f("approved", "Approved", Bool), f("reason", "Reason", s())])),
        (
            "promptkit hook response",
            GoType::strukt(
                "",
                vec![
                    f("allow", "Allow", Bool),
                    f("reason", "Reason", s()),
                    f("enforced", "Enforced", Bool),
                    f("metadata", "Metadata", GoType::map(Any)),
                ],
            ),
        ),
        (
            "untagged with embedded",
            GoType::strukt(
                "",
                vec![
                    f("Name", "Name", s()),
                    f("Kind", "Kind", Int { bits: 64 }),
                    GoField::embedded("Meta", GoType::ptr(GoType::strukt("", vec![f("note", "Note", s()), f("Name", "Name", s())]))),
                ],
            ),
        ),
        (
            "promptkit eval result",
            GoType::strukt("", vec![f("score", "Score", GoType::ptr(Float { bits: 64 })), f("explanation", "Explanation", s())]),
        ),
        ("promptkit selector result", GoType::strukt("", vec![f("selected", "Selected", GoType::slice(s()))])),
        (
            "promptkit tool response",
            GoType::strukt(
                "",
                vec![
                    f("result", "Result", RawMessage),
                    f("error", "Error", s()),
                    f(
                        "pending",
                        "Pending",
                        GoType::ptr(GoType::strukt("", vec![f("reason", "Reason", s()), f("message", "Message", s())])),
                    ),
                ],
            ),
        ),
        (
            "numbers and nesting",
            GoType::strukt(
                "",
                vec![
                    f("i8", "I8", Int { bits: 8 }),
                    f("u8", "U8", Uint { bits: 8 }),
                    f("i64", "I64", Int { bits: 64 }),
                    f("f32", "F32", Float { bits: 32 }),
                    f("ints", "Ints", GoType::slice(Int { bits: 32 })),
                    f("counts", "Counts", GoType::map(Uint { bits: 16 })),
                    f("items", "Items", GoType::slice(GoType::strukt("", vec![f("k", "K", s()), f("v", "V", Float { bits: 64 })]))),
                    f("any", "Any", Any),
                    f("pp", "PP", GoType::ptr(GoType::ptr(s()))),
                ],
            ),
        ),
        ("any", Any),
        ("bool", Bool),
        ("string", String),
        ("int", Int { bits: 0 }),
        ("float64", Float { bits: 64 }),
        ("[]any", GoType::slice(Any)),
        ("map[string]string", GoType::map(String)),
        ("json.RawMessage", RawMessage),
        ("*int", GoType::ptr(Int { bits: 0 })),
    ]
}

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "1.0",
    "1e2",
    "1E+2",
    "1.5",
    "-2.5e-3",
    "127",
    "128",
    "-129",
    "255",
    "256",
    "65535",
    "65536",
    "2147483648",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "1e999",
    "-1e999",
    "1e-999",
    "3.4028235e38",
    "3.5e38",
    "0.1",
    "123456789012345678901234567890",
    "0.0000001",
];

const STRINGS: &[&[u8]] = &[
    b"\"\"",
    b"\"a\"",
    b"\"true\"",
    b"\"1\"",
    b"\"null\"",
    b"\"\\u00e9t\\u00c9\"",
    b"\"\\ud83d\\ude00\"",
    b"\"\\ud800\"",
    b"\"\\udc00x\"",
    b"\"\\ud800\\ud800\"",
    b"\"a\xffb\"",
    b"\"\xe2\x82\"",
    b"\"\xed\xa0\x80\"",
    b"\"\\n\\t\\/\\\\\\\"\\b\\f\\r\"",
    b"\"\xc3\xa9\"",
    b"\"\\u0000\"",
    b"\"\xf0\x9f\x98\x80\"",
    b"\"\xc0\xaf\"",
    b"\"\xe2\x80\xa8\"",
];

const UNKNOWN_KEYS: &[&str] = &["extra", "id2", "", "\\u0000", "ALLOWED", "_"];

fn ws(rng: &mut Rng, out: &mut Vec<u8>) {
    if rng.chance(30) {
        out.extend_from_slice(rng.pick(&[&b" "[..], b"\n", b"\t", b"\r\n  ", b"  "]));
    }
}

/// A key that Go may match to `name`: case flips, ſ for s, K for k, escapes.
fn vary_key(rng: &mut Rng, name: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let wild = rng.chance(40);
    for c in name.chars() {
        if wild && (c == 's' || c == 'S') && rng.chance(40) {
            out.extend_from_slice("\u{17f}".as_bytes());
        } else if wild && (c == 'k' || c == 'K') && rng.chance(40) {
            out.extend_from_slice("\u{212a}".as_bytes());
        } else if wild && rng.chance(10) {
            out.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes());
        } else if wild && rng.chance(40) {
            let flipped = if c.is_ascii_lowercase() { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() };
            out.extend_from_slice(flipped.to_string().as_bytes());
        } else {
            out.extend_from_slice(c.to_string().as_bytes());
        }
    }
    if rng.chance(3) {
        out.push(b'x');
    }
    out.push(b'"');
}

fn scalar(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(4) {
        0 => out.extend_from_slice(rng.pick(NUMBERS).as_bytes()),
        1 => out.extend_from_slice(rng.pick(STRINGS)),
        2 => out.extend_from_slice(rng.pick(&[&b"true"[..], b"false"])),
        _ => out.extend_from_slice(b"null"),
    }
}

fn any_value(rng: &mut Rng, depth: usize, out: &mut Vec<u8>) {
    match if depth > 3 { 0 } else { rng.below(4) } {
        0 | 1 => scalar(rng, out),
        2 => {
            out.push(b'[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(b',');
                }
                ws(rng, out);
                any_value(rng, depth + 1, out);
            }
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(b',');
                }
                let key = rng.pick(&["a", "b", "A", "s"]);
                vary_key(rng, key, out);
                out.push(b':');
                ws(rng, out);
                any_value(rng, depth + 1, out);
            }
            out.push(b'}');
        }
    }
}

/// A value meant for `ty`, often right, sometimes of another kind or null.
fn value_for(rng: &mut Rng, ty: &GoType, depth: usize, out: &mut Vec<u8>) {
    let roll = rng.below(100);
    if roll < 7 {
        out.extend_from_slice(b"null");
        return;
    }
    if roll < 17 || depth > 4 {
        any_value(rng, depth, out);
        return;
    }
    match ty {
        GoType::Bool => out.extend_from_slice(rng.pick(&[&b"true"[..], b"false"])),
        GoType::String => out.extend_from_slice(rng.pick(STRINGS)),
        GoType::Int { .. } | GoType::Uint { .. } | GoType::Float { .. } => out.extend_from_slice(rng.pick(NUMBERS).as_bytes()),
        GoType::Any | GoType::RawMessage => any_value(rng, depth, out),
        GoType::Ptr(inner) => value_for(rng, inner, depth, out),
        GoType::Slice(elem) => {
            out.push(b'[');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(b',');
                }
                ws(rng, out);
                value_for(rng, elem, depth + 1, out);
            }
            out.push(b']');
        }
        GoType::Map(elem) => {
            out.push(b'{');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(b',');
                }
                let key = rng.pick(&["k", "K", "ſ", "\\u006b", "a b", ""]);
                out.extend_from_slice(format!("\"{key}\"").as_bytes());
                out.push(b':');
                value_for(rng, elem, depth + 1, out);
            }
            out.push(b'}');
        }
        GoType::Struct(st) => {
            out.push(b'{');
            ws(rng, out);
            let members = rng.below(st.fields.len() + 3);
            for i in 0..members {
                if i > 0 {
                    out.push(b',');
                    ws(rng, out);
                }
                if rng.chance(12) || st.fields.is_empty() {
                    let key = rng.pick(UNKNOWN_KEYS);
                    out.extend_from_slice(format!("\"{key}\"").as_bytes());
                    out.push(b':');
                    any_value(rng, depth + 1, out);
                    continue;
                }
                let field = &st.fields[rng.below(st.fields.len())];
                // Embedded struct: use one of its fields' names.
                let (name, fty) = match (&field.embedded, &field.ty) {
                    (true, GoType::Ptr(inner)) => match inner.as_ref() {
                        GoType::Struct(inner) => {
                            let g = &inner.fields[rng.below(inner.fields.len())];
                            (g.name, &g.ty)
                        }
                        t => (field.name, t),
                    },
                    _ => (field.name, &field.ty),
                };
                vary_key(rng, name, out);
                ws(rng, out);
                out.push(b':');
                ws(rng, out);
                value_for(rng, fty, depth + 1, out);
            }
            ws(rng, out);
            out.push(b'}');
        }
    }
}

/// Damage at the byte level: truncation, stray bytes, BOM, garbage after.
fn corrupt(rng: &mut Rng, data: &mut Vec<u8>) {
    let at = rng.below(data.len() + 1);
    match rng.below(6) {
        0 => data.truncate(at),
        1 => data.insert(at, rng.pick(&[0x01, 0xff, 0x80, b'"', b'\\', b'{', b',', b'}', b']', b'x', b' '])),
        2 => data.splice(0..0, [0xef, 0xbb, 0xbf]).for_each(drop),
        3 => data.extend_from_slice(rng.pick(&[&b" x"[..], b"}", b" {}", b"\x00", b"\n\t ", b"1"])),
        4 if !data.is_empty() => {
            let last = data.len() - 1;
            data[at.min(last)] = rng.pick(&[0x01, 0xff, b'"', b'e', b'.', b'-']);
        }
        _ => data.splice(0..0, rng.pick(&[&b" "[..], b"\t\n", b"\r"]).iter().copied()).for_each(drop),
    }
}

fn nest(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn inputs(schemas: &[(&str, GoType)]) -> Vec<(usize, Vec<u8>)> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for (i, (_, ty)) in schemas.iter().enumerate() {
        let n = if matches!(ty, GoType::Struct(_)) { 450 } else { 150 };
        for _ in 0..n {
            let mut data = Vec::new();
            ws(&mut rng, &mut data);
            value_for(&mut rng, ty, 0, &mut data);
            ws(&mut rng, &mut data);
            if rng.chance(15) {
                corrupt(&mut rng, &mut data);
            }
            out.push((i, data));
        }
        // Fixed cases: empty, whitespace, BOM, depth around Go's limit.
        for fixed in [&b""[..], b" \t\r\n", b"\xef\xbb\xbf{}", b"{}", b"[]", b"null", b"nul", b"{\"a\":1,}"] {
            out.push((i, fixed.to_vec()));
        }
        for depth in [9999, 10000, 10001] {
            out.push((i, nest(depth).into_bytes()));
            out.push((i, format!("{{\"unknown\": {}}}", nest(depth - 1)).into_bytes()));
            out.push((i, format!("{{\"params\": {}, \"result\": 1}}", nest(depth - 1)).into_bytes()));
        }
    }
    out
}

/// The value in the oracle's canonical form (see interop/gojson-oracle).
fn canonical(v: &GoValue) -> Value {
    match v {
        GoValue::Nil => Value::Null,
        GoValue::Bool(b) => json!(b),
        GoValue::String(s) => json!(s),
        GoValue::Int(i) => json!(i),
        GoValue::Uint(u) => json!(u),
        GoValue::Float(f) => json!({"$f": format!("{:016x}", f.to_bits())}),
        GoValue::Raw(bytes) => match std::str::from_utf8(bytes) {
            Ok(s) => json!({"$raw": s}),
            Err(_) => json!({"$raw_hex": bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()}),
        },
        GoValue::Slice(s) => Value::Array(s.items.iter().map(canonical).collect()),
        GoValue::Map(m) => Value::Object(m.entries.iter().map(|(k, v)| (k.clone(), canonical(v))).collect()),
        GoValue::Struct(fields) => {
            let mut sorted: Vec<_> = fields.iter().collect();
            sorted.sort_by_key(|f| f.go_name);
            let mut m = Map::new();
            for f in sorted {
                m.insert(f.go_name.to_string(), canonical(&f.value));
            }
            Value::Object(m)
        }
    }
}

/// How deeply `v` nests (iteratively: it may be 10000 levels).
fn depth(v: &GoValue) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 1)];
    while let Some((v, d)) = stack.pop() {
        deepest = deepest.max(d);
        match v {
            GoValue::Slice(s) => stack.extend(s.items.iter().map(|c| (c, d + 1))),
            GoValue::Map(m) => stack.extend(m.entries.values().map(|c| (c, d + 1))),
            GoValue::Struct(fs) => stack.extend(fs.iter().map(|f| (&f.value, d + 1))),
            _ => {}
        }
    }
    deepest
}

/// Deeper than this, a value is compared by outcome only: serde_json will
/// not read the oracle's answer (recursion limit 128).
const COMPARABLE_DEPTH: usize = 100;

fn model(data: &[u8], ty: &GoType) -> Value {
    match unmarshal(data, ty) {
        Ok(v) if depth(&v) > COMPARABLE_DEPTH => json!({"ok": "(deep)"}),
        Ok(v) => json!({"ok": canonical(&v)}),
        Err(e) => {
            let offset = match &e {
                GoJsonError::SyntaxError { offset, .. } | GoJsonError::UnmarshalTypeError { offset, .. } => {
                    json!(offset)
                }
                GoJsonError::Unsupported { .. } => Value::Null,
            };
            json!({"err": e.to_string(), "kind": e.kind(), "offset": offset})
        }
    }
}

fn build_oracle(dir: &Path) -> Option<std::path::PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../interop/gojson-oracle");
    let bin = dir.join("gojson-oracle");
    let required = std::env::var("PROCTOR_REQUIRE_GO").is_ok_and(|v| v == "1");
    match Command::new("go").arg("build").arg("-o").arg(&bin).arg(".").current_dir(&src).status() {
        Ok(status) if status.success() => Some(bin),
        Ok(status) => panic!("go build of the gojson oracle failed: {status}"),
        Err(e) => {
            assert!(!required, "PROCTOR_REQUIRE_GO=1 but `go` cannot run: {e}");
            eprintln!("\n*** SKIPPED gojson_oracle: `go` cannot run ({e}); nothing was compared against Go ***\n");
            None
        }
    }
}

#[test]
fn gojson_model_decodes_as_go_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(bin) = build_oracle(dir.path()) else { return };
    let schemas = schemas();
    let inputs = inputs(&schemas);

    let mut child = Command::new(&bin).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start the gojson oracle");
    let mut stdin = child.stdin.take().expect("stdin");
    let header = serde_json::to_string(&schemas.iter().map(|(_, t)| t).collect::<Vec<_>>()).expect("types");
    let lines: Vec<String> =
        inputs.iter().map(|(i, data)| format!("{i} {}\n", data.iter().map(|b| format!("{b:02x}")).collect::<String>())).collect();
    let writer = std::thread::spawn(move || {
        stdin.write_all(format!("{header}\n").as_bytes()).expect("write types");
        for line in lines {
            stdin.write_all(line.as_bytes()).expect("write input");
        }
    });
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let answers: Vec<String> = stdout.lines().map(|l| l.expect("oracle output")).collect();
    writer.join().expect("writer");
    assert!(child.wait().expect("oracle exit").success(), "the oracle failed");
    assert_eq!(answers.len(), inputs.len(), "one answer per input");

    let mut mismatches = Vec::new();
    let mut outcome_only = 0;
    let mut tally = std::collections::BTreeMap::<String, usize>::new();
    for ((i, data), answer) in inputs.iter().zip(&answers) {
        let (name, ty) = &schemas[*i];
        let ours = model(data, ty);
        let go: Value = match serde_json::from_str(answer) {
            Ok(v) => v,
            // Values nested deeper than serde_json's recursion limit (an
            // interface{} holding 10000 levels): compare the outcome only.
            Err(_) if answer.starts_with("{\"ok\":") && ours["ok"] == "(deep)" => {
                outcome_only += 1;
                continue;
            }
            Err(e) => panic!("unreadable oracle answer ({e}): {:.200}", answer),
        };
        let kind = go.get("kind").and_then(Value::as_str).unwrap_or("ok").to_string();
        *tally.entry(kind).or_default() += 1;
        if go != ours {
            mismatches.push(format!(
                "{name}: input {:?}\n    go:    {:.400}\n    model: {:.400}",
                String::from_utf8_lossy(&data[..data.len().min(300)]),
                go.to_string(),
                ours.to_string()
            ));
        }
    }
    let matched = inputs.len() - mismatches.len();
    eprintln!(
        "gojson oracle: compared {} inputs against Go's json.Unmarshal: {matched} matched \
         ({outcome_only} of them deep values compared by outcome only), {} differed",
        inputs.len(),
        mismatches.len()
    );
    eprintln!("gojson oracle: Go's outcomes: {tally:?}");
    for m in mismatches.iter().take(25) {
        eprintln!("{m}");
    }
    assert!(mismatches.is_empty(), "{} inputs decoded differently from Go", mismatches.len());
}
