//! The template renderers' tests: the three implementations part ways, and nothing renders past the bound.

use serde_json::json;

use super::*;

fn declared(name: &str, required: bool, default: Option<Value>) -> Declared {
    Declared { name: name.into(), required, default, ..Declared::default() }
}

fn text(pairs: &[(&str, &str)]) -> BTreeMap<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), Value::from(*v))).collect()
}

/// Renders within the bound (every test here but one does).
fn render(
    profile: PackProfile,
    template: &str,
    declared: &[Declared],
    given: &BTreeMap<String, Value>,
    fragments: &BTreeMap<String, String>,
) -> Rendered {
    super::render(profile, template, declared, given, fragments).expect("within MAX_RENDERED_BYTES")
}

#[test]
fn a_render_past_the_bound_is_refused_under_every_profile_before_it_is_built() {
    // A 1 MB template repeating a 100 KB variable: 20 GB of text.
    let template = "{{v}}".repeat(200_000);
    let vars = [declared("v", true, None)];
    let given = text(&[("v", &"x".repeat(100_000))]);
    let none = BTreeMap::new();
    for profile in [PackProfile::Documented, PackProfile::PromptKit, PackProfile::PromptPackPython] {
        assert_eq!(super::render(profile, &template, &vars, &given, &none), Err(TooLarge), "{profile:?}");
    }
    // PromptKit's passes re-expand a value holding its own placeholder: 2^10 copies.
    let given = text(&[("v", &format!("{}{{{{v}}}}{{{{v}}}}", "y".repeat(40_000)))]);
    assert_eq!(super::render(PackProfile::PromptKit, "{{v}}", &vars, &given, &none), Err(TooLarge));
    // promptpack-python's fragments including fragments, 16 deep, each twice.
    let fragments: BTreeMap<String, String> =
        (0..16).map(|i| (format!("f{i}"), format!("{}{{{{fragment:f{}}}}}{{{{fragment:f{}}}}}", "z".repeat(1000), i + 1, i + 1))).collect();
    let given = text(&[("v", "1")]);
    assert_eq!(super::render(PackProfile::PromptPackPython, "{{fragment:f0}}", &vars, &given, &fragments), Err(TooLarge));
}

#[test]
fn scan_classifies_placeholders() {
    let kinds: Vec<Placeholder> =
        scan("{{a}} {{fragments.f}} {{fragment:g}} {{artifacts.x}} {{ b }} {{#if c}} {{").into_iter().map(|f| f.placeholder).collect();
    assert_eq!(
        kinds,
        vec![
            Placeholder::Variable("a".into()),
            Placeholder::Fragment("f".into()),
            Placeholder::PythonFragment("g".into()),
            Placeholder::Artifact("x".into()),
            Placeholder::Spaced("b".into()),
            Placeholder::Other("#if c".into()),
        ]
    );
}

#[test]
fn go_and_python_print_numbers_their_own_way() {
    assert_eq!(go_float(1_000_000.0), "1e+06");
    assert_eq!(go_float(100_000.0), "100000");
    assert_eq!(go_float(1.5), "1.5");
    assert_eq!(go_float(123_456_789.0), "1.23456789e+08");
    assert_eq!(go_float(0.00001), "1e-05");
    assert_eq!(go_float(0.0001), "0.0001");
    assert_eq!(go_float(-2.0), "-2");
    assert_eq!(python_float(150.0), "150.0");
    assert_eq!(python_float(1e16), "1e+16");
    assert_eq!(python_float(0.00001), "1e-05");
    assert_eq!(python_text(&json!(true)), "true");
    assert_eq!(python_text(&json!(null)), "");
    assert_eq!(python_text(&json!({"a": [1, "x"]})), "{\"a\": [1, \"x\"]}");
}

#[test]
fn the_three_part_ways_on_fragments_and_missing_variables() {
    let fragments = BTreeMap::from([("tone".to_string(), "Be kind to {{user}}.".to_string())]);
    let vars = [declared("user", true, None)];
    let given = text(&[("user", "Ann")]);
    let t = "Hi. {{fragments.tone}}";
    assert_eq!(render(PackProfile::Documented, t, &vars, &given, &fragments).text, "Hi. Be kind to Ann.");
    let pk = render(PackProfile::PromptKit, t, &vars, &given, &fragments);
    assert_eq!((pk.text.as_str(), pk.outcome), (t, Outcome::PromptKitRaw { unresolved: vec!["{{fragments.tone}}".into()] }));
    assert_eq!(render(PackProfile::PromptPackPython, t, &vars, &given, &fragments).text, t);
    // promptpack-python's own fragment syntax, rendered with the same variables
    assert_eq!(render(PackProfile::PromptPackPython, "Hi. {{fragment:tone}}", &vars, &given, &fragments).text, "Hi. Be kind to Ann.");

    let none = BTreeMap::new();
    let pk = render(PackProfile::PromptKit, "{{user}}", &vars, &none, &fragments);
    assert_eq!(pk.outcome, Outcome::PromptKitFallback { variable: "user".into() });
    assert_eq!(pk.text, PROMPTKIT_FALLBACK);
    let empty = text(&[("user", "")]);
    assert!(matches!(render(PackProfile::PromptKit, "{{user}}", &vars, &empty, &fragments).outcome, Outcome::PromptKitFallback { .. }));
    assert_eq!(render(PackProfile::PromptPackPython, "{{user}}", &vars, &empty, &fragments).outcome, Outcome::Rendered);
    assert!(matches!(render(PackProfile::Documented, "{{user}}", &vars, &none, &fragments).outcome, Outcome::Refused { .. }));
    let python = render(PackProfile::PromptPackPython, "{{user}}", &vars, &none, &fragments);
    assert_eq!(python.outcome, Outcome::Refused { message: "Variable 'user': Required variable is missing".into() });
}

#[test]
fn promptkit_re_expands_values_and_prints_defaults_its_own_way() {
    let vars = [declared("a", false, None), declared("b", false, None), declared("n", false, Some(Value::from(1_000_000)))];
    let given = text(&[("a", "{{b}}"), ("b", "B")]);
    let none = BTreeMap::new();
    assert_eq!(render(PackProfile::PromptKit, "{{a}} {{n}}", &vars, &given, &none).text, "B 1e+06");
    assert_eq!(render(PackProfile::PromptPackPython, "{{a}} {{n}}", &vars, &given, &none).text, "{{b}} 1000000");
    let spaced = render(PackProfile::PromptKit, "{{a}} {{ b }}", &vars, &given, &none);
    assert_eq!(spaced.outcome, Outcome::PromptKitRaw { unresolved: vec!["{{ b }}".into()] });
}

#[test]
fn promptpack_python_coerces_and_validates_variables() {
    let number =
        Declared { name: "limit".into(), kind: Some("number".into()), validation: Some(json!({"maximum": 500})), ..Declared::default() };
    let code = Declared {
        name: "code".into(),
        kind: Some("string".into()),
        validation: Some(json!({"pattern": "[A-Z]{3}", "enum": ["EUR", "USD"]})),
        ..Declared::default()
    };
    let vars = [number, code];
    let none = BTreeMap::new();
    let render = |given: &[(&str, &str)]| render(PackProfile::PromptPackPython, "{{limit}} {{code}}", &vars, &text(given), &none);
    // a --var is a string; a number variable turns it into a float, printed with its .0
    assert_eq!(render(&[("limit", "150"), ("code", "EUR")]).text, "150.0 EUR");
    assert_eq!(render(&[("limit", "900")]).outcome, Outcome::Refused { message: "Variable 'limit': Value above maximum: 500.0".into() });
    assert_eq!(render(&[("limit", "many")]).outcome, Outcome::Refused { message: "Variable 'limit': Expected number, got str".into() });
    // re.match anchors at the start only: "EURO" matches [A-Z]{3}, and the enum then refuses it
    assert_eq!(
        render(&[("code", "EURO")]).outcome,
        Outcome::Refused { message: "Variable 'code': Value not in allowed values: ['EUR', 'USD']".into() }
    );
    assert_eq!(
        render(&[("code", "eur")]).outcome,
        Outcome::Refused { message: "Variable 'code': Value does not match pattern: [A-Z]{3}".into() }
    );
    assert_eq!(render(&[("other", "x")]).outcome, Outcome::Refused { message: "Variable 'other': Unknown variable".into() });
    // an optional variable with no value and no default is empty text, not an error
    assert_eq!(render(&[]).text, " ");
}

#[test]
fn documented_holds_a_value_to_its_type_and_pattern_and_promptkit_says_it_does_not() {
    let currency = Declared {
        name: "currency".into(),
        required: true,
        default: None,
        kind: Some("string".into()),
        validation: Some(serde_json::json!({"pattern": "^[A-Z]{3}$"})),
    };
    let given: BTreeMap<String, Value> = [("currency".to_string(), Value::from("euro"))].into();
    let none = BTreeMap::new();
    let documented = render(PackProfile::Documented, "in {{currency}}", std::slice::from_ref(&currency), &given, &none);
    assert!(
        matches!(&documented.outcome, Outcome::Refused { message } if message.starts_with("variable `currency`: Value does not match pattern: ^[A-Z]{3}$")),
        "{:?}",
        documented.outcome
    );
    let promptkit = render(PackProfile::PromptKit, "in {{currency}}", std::slice::from_ref(&currency), &given, &none);
    assert_eq!((promptkit.outcome, promptkit.text.as_str()), (Outcome::Rendered, "in euro"));
    assert!(promptkit.notes[0].contains("PromptKit checks neither a variable's type nor its validation"), "{:?}", promptkit.notes);
    let fine: BTreeMap<String, Value> = [("currency".to_string(), Value::from("EUR"))].into();
    assert_eq!(render(PackProfile::Documented, "in {{currency}}", &[currency], &fine, &none).outcome, Outcome::Rendered);
}
