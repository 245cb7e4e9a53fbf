//! One test per behaviour of `json.Unmarshal` the module models; the
//! differential test against real Go is `tests/gojson_oracle.rs`.

use serde_json::json;

use super::*;

fn approval() -> GoType {
    GoType::strukt(
        "hooks.approval",
        vec![GoField::new("approved", "Approved", GoType::Bool), GoField::new("reason", "Reason", GoType::String)],
    )
}

fn envelope() -> GoType {
    GoType::strukt(
        "",
        vec![
            GoField::new("jsonrpc", "JSONRPC", GoType::String),
            GoField::new("id", "ID", GoType::Uint { bits: 64 }),
            GoField::new("params", "Params", GoType::RawMessage),
            GoField::new(
                "error",
                "Error",
                GoType::ptr(GoType::strukt(
                    "",
                    vec![GoField::new("code", "Code", GoType::Int { bits: 0 }), GoField::new("message", "Message", GoType::String)],
                )),
            ),
        ],
    )
}

fn ok(data: &str, ty: &GoType) -> serde_json::Value {
    match unmarshal(data.as_bytes(), ty) {
        Ok(v) => v.to_json(),
        Err(e) => panic!("{data}: {e}"),
    }
}

fn err(data: &[u8], ty: &GoType) -> String {
    match unmarshal(data, ty) {
        Ok(v) => panic!("{}: decoded {:?}", String::from_utf8_lossy(data), v.to_json()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_field_is_present_with_its_zero_value() {
    assert_eq!(ok("{}", &approval()), json!({"approved": false, "reason": ""}));
    assert_eq!(ok("{}", &envelope()), json!({"jsonrpc": "", "id": 0, "params": null, "error": null}));
}

#[test]
fn keys_match_exactly_then_case_insensitively() {
    assert_eq!(ok(r#"{"APPROVED": true, "ReAsOn": "x"}"#, &approval())["approved"], json!(true));
    assert_eq!(ok("{\"rea\u{17f}on\": \"long s\"}", &approval())["reason"], json!("long s"));
    let kelvin = GoType::strukt("", vec![GoField::new("kind", "Kind", GoType::String)]);
    assert_eq!(ok("{\"\u{212a}ind\": \"k\"}", &kelvin)["kind"], json!("k"));
    assert_eq!(ok(r#"{"approvedx": true}"#, &approval())["approved"], json!(false));
}

#[test]
fn unknown_keys_are_ignored_but_syntax_checked() {
    assert_eq!(ok(r#"{"other": [1, {"a": null}], "approved": true}"#, &approval())["approved"], json!(true));
    assert!(err(br#"{"other": [1,], "approved": true}"#, &approval()).contains("invalid character ']'"));
}

#[test]
fn duplicate_keys_last_wins_and_structs_merge() {
    assert_eq!(ok(r#"{"approved": true, "approved": false}"#, &approval())["approved"], json!(false));
    let v = ok(r#"{"error": {"code": 1, "message": "a"}, "error": {"code": 2}}"#, &envelope());
    assert_eq!(v["error"], json!({"code": 2, "message": "a"}));
    let m = GoType::strukt("", vec![GoField::new("m", "M", GoType::map(GoType::Any))]);
    assert_eq!(ok(r#"{"m": {"a": 1}, "m": {"b": true}}"#, &m)["m"], json!({"a": 1.0, "b": true}));
}

#[test]
fn a_slice_reuses_its_backing_array() {
    let s = GoType::strukt("", vec![GoField::new("s", "S", GoType::slice(GoType::String))]);
    assert_eq!(ok(r#"{"s": ["a", "b", "c"], "s": ["x"]}"#, &s)["s"], json!(["x"]));
    assert_eq!(ok(r#"{"s": ["a", "b", "c"], "s": ["x"], "s": ["y", null, null]}"#, &s)["s"], json!(["y", "b", "c"]));
    assert_eq!(ok(r#"{"s": ["a", "b"], "s": [], "s": [null]}"#, &s)["s"], json!([""]));
    assert_eq!(ok(r#"{"s": []}"#, &s)["s"], json!([]));
    assert_eq!(ok(r#"{"s": null}"#, &s)["s"], json!(null));
}

#[test]
fn null_clears_references_and_leaves_values_alone() {
    assert_eq!(ok("null", &approval()), json!({"approved": false, "reason": ""}));
    assert_eq!(ok(r#"{"approved": true, "approved": null, "reason": null}"#, &approval())["approved"], json!(true));
    let v = ok(r#"{"error": {"code": 1}, "error": null, "params": null}"#, &envelope());
    assert_eq!(v["error"], json!(null));
    assert_eq!(v["params"], json!({"$raw": "null"}));
}

#[test]
fn raw_message_keeps_exact_bytes() {
    let v = unmarshal(br#"{"params": { "a" : [1, 2] } }"#, &envelope());
    let params = v.as_ref().ok().and_then(|v| v.field("params"));
    assert_eq!(params, Some(&GoValue::Raw(br#"{ "a" : [1, 2] }"#.to_vec())));
}

#[test]
fn type_errors_name_the_struct_field_and_keep_decoding() {
    assert_eq!(
        err(br#"{"approved": "true"}"#, &approval()),
        "json: cannot unmarshal string into Go struct field approval.approved of type bool"
    );
    let d = unmarshal_partial(br#"{"approved": "yes", "reason": 5, "approved": true}"#, &approval());
    assert_eq!(d.value.to_json(), json!({"approved": true, "reason": ""}));
    assert_eq!(d.error.map(|e| e.kind()), Some("type"));
    assert_eq!(
        err(br#"{"error": {"code": "x"}}"#, &envelope()),
        "json: cannot unmarshal string into Go struct field .error.code of type int"
    );
    assert_eq!(err(b"[]", &approval()), "json: cannot unmarshal array into Go value of type hooks.approval");
}

#[test]
fn integers_must_be_integer_literals_in_range() {
    assert_eq!(ok(r#"{"id": 18446744073709551615}"#, &envelope())["id"], json!(u64::MAX));
    for bad in ["1.0", "1e2", "-1", "18446744073709551616"] {
        assert_eq!(
            err(format!(r#"{{"id": {bad}}}"#).as_bytes(), &envelope()),
            format!("json: cannot unmarshal number {bad} into Go struct field .id of type uint64")
        );
    }
    assert_eq!(err(b"128", &GoType::Int { bits: 8 }), "json: cannot unmarshal number 128 into Go value of type int8");
}

#[test]
fn floats_and_interfaces() {
    assert_eq!(unmarshal(b"-0", &GoType::Float { bits: 64 }).map(|v| v.to_json()), Ok(json!(-0.0)));
    assert_eq!(err(b"1e999", &GoType::Any), "json: cannot unmarshal number 1e999 into Go value of type float64");
    assert_eq!(err(b"1e39", &GoType::Float { bits: 32 }), "json: cannot unmarshal number 1e39 into Go value of type float32");
    assert_eq!(ok(r#"[1, "a", null, {"b": false}]"#, &GoType::Any), json!([1.0, "a", null, {"b": false}]));
    assert_eq!(err(b"5", &GoType::String), "json: cannot unmarshal number into Go value of type string");
}

#[test]
fn syntax_is_checked_first_over_everything() {
    let cases: &[(&[u8], &str)] = &[
        (b"", "unexpected end of JSON input"),
        (b" \n", "unexpected end of JSON input"),
        (b"{\"a\":", "unexpected end of JSON input"),
        (b"\xef\xbb\xbf{}", "invalid character '\u{ef}' looking for beginning of value"),
        (b"{} x", "invalid character 'x' after top-level value"),
        (b"+1", "invalid character '+' looking for beginning of value"),
        (b"01", "invalid character '1' after top-level value"),
        (b"1.", "invalid character ' ' after decimal point in numeric literal"),
        (b"tru", "invalid character ' ' in literal true (expecting 'e')"),
        (b"NaN", "invalid character 'N' looking for beginning of value"),
        (b"\"a\x01\"", "invalid character '\\x01' in string literal"),
        (b"\"\\x\"", "invalid character 'x' in string escape code"),
        (b"{\"a\" 1}", "invalid character '1' after object key"),
        (b"[1 2]", "invalid character '2' after array element"),
        (b"\x80", "invalid character '\\u0080' looking for beginning of value"),
    ];
    for (data, msg) in cases {
        assert_eq!(err(data, &GoType::Any), *msg, "{}", String::from_utf8_lossy(data));
    }
    // Syntax wins over an earlier type error.
    assert_eq!(err(b"{\"approved\": 1, \"x\": }", &approval()).split(' ').next(), Some("invalid"));
}

#[test]
fn nesting_is_limited_to_10000_and_deep_values_do_not_overflow() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(unmarshal(deep(10000).as_bytes(), &GoType::Any).is_ok());
    let e = unmarshal(deep(10001).as_bytes(), &GoType::Any).err();
    assert!(e.as_ref().is_some_and(GoJsonError::is_max_depth), "{e:?}");
    assert_eq!(e.map(|e| e.to_string()).as_deref(), Some("invalid character '[' exceeded max depth"));
    let wrapped = format!(r#"{{"params": {}, "x": {}}}"#, deep(9999), deep(9999));
    assert!(unmarshal(wrapped.as_bytes(), &envelope()).is_ok());
}

#[test]
fn strings_replace_invalid_utf8_and_lone_surrogates() {
    let v = unmarshal(b"\"a\xffb\\ud800\"", &GoType::String);
    assert_eq!(v, Ok(GoValue::String("a\u{fffd}b\u{fffd}".into())));
    let m = unmarshal(b"{\"\xff\": 1}", &GoType::map(GoType::Int { bits: 0 })).map(|v| v.to_json());
    assert_eq!(m, Ok(json!({"\u{fffd}": 1})));
}

#[test]
fn embedded_structs_are_promoted() {
    let inner = GoType::strukt("", vec![GoField::new("reason", "Reason", GoType::String)]);
    let outer = GoType::strukt("main.Outer", vec![GoField::new("ok", "OK", GoType::Bool), GoField::embedded("Inner", GoType::ptr(inner))]);
    assert_eq!(ok(r#"{"ok": true, "REASON": "r"}"#, &outer), json!({"ok": true, "reason": "r"}));
    assert_eq!(err(br#"{"reason": 1}"#, &outer), "json: cannot unmarshal number into Go struct field Outer.Inner.reason of type string");
}

#[test]
fn unnamed_structs_print_as_literals() {
    assert_eq!(
        envelope().go_string(),
        "struct { JSONRPC string \"json:\\\"jsonrpc\\\"\"; ID uint64 \"json:\\\"id\\\"\"; Params json.RawMessage \"json:\\\"params\\\"\"; Error *struct { Code int \"json:\\\"code\\\"\"; Message string \"json:\\\"message\\\"\" } \"json:\\\"error\\\"\" }"
    );
}

#[test]
fn a_deep_interface_value_converts_to_json() {
    let deep = format!("{}{}", "[".repeat(10000), "]".repeat(10000));
    let v = unmarshal(deep.as_bytes(), &GoType::Any).map(|v| v.to_json());
    assert!(matches!(v, Ok(serde_json::Value::Array(_))));
}

#[test]
fn first_value_end_stops_after_the_value_as_gos_scanner_does() {
    use super::scan::first_value_end;
    assert_eq!(first_value_end(b"  {\"a\":[1]} {\"b\":2}"), Ok(11));
    assert_eq!(first_value_end(b"123 x"), Ok(3));
    assert_eq!(first_value_end(b"123"), Ok(3));
    assert_eq!(first_value_end(b"\"a\"\"b\""), Ok(3));
    assert_eq!(first_value_end(b"true}"), Ok(4));
    assert!(first_value_end(b"[1,").is_err());
    assert!(first_value_end(b"   ").is_err());
    assert!(first_value_end(b"x").is_err());
    let deep = format!("{}{}", "[".repeat(10001), "]".repeat(10001));
    assert!(first_value_end(deep.as_bytes()).unwrap_err().is_max_depth());
}
