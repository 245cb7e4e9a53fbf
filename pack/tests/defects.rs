//! One defect at a time: the example pack with a single edit, and what each profile must say about it
//! (rule, JSON pointer, severity, and the line the user must go to).

use proctor_pack::source::parse;
use proctor_pack::{Diagnostic, PackProfile, Severity, check};

const BASE: &str = include_str!("../../examples/promptpack/support.pack.json");

const DOC: PackProfile = PackProfile::Documented;
const PK: PackProfile = PackProfile::PromptKit;
const PY: PackProfile = PackProfile::PromptPackPython;

/// What one profile must say: `None` for "no error beyond the example pack's own" (valid, where the
/// example is).
struct Expect {
    profile: PackProfile,
    finding: Option<(Severity, &'static str, &'static str)>,
}

const fn error(profile: PackProfile, rule: &'static str, path: &'static str) -> Expect {
    Expect { profile, finding: Some((Severity::Error, rule, path)) }
}
const fn warning(profile: PackProfile, rule: &'static str, path: &'static str) -> Expect {
    Expect { profile, finding: Some((Severity::Warning, rule, path)) }
}
const fn valid(profile: PackProfile) -> Expect {
    Expect { profile, finding: None }
}

struct Defect {
    name: &'static str,
    edits: &'static [(&'static str, &'static str)],
    /// Text on the line the diagnostic must point at (first occurrence after the edits).
    line_of: &'static str,
    expect: &'static [Expect],
}

const DEFECTS: &[Defect] = &[
    Defect {
        name: "misspelt top-level field",
        edits: &[("\"description\": \"Triage", "\"descripton\": \"Triage")],
        line_of: "\"descripton\"",
        expect: &[error(DOC, "PACK-UNKNOWN-FIELD", "/descripton"), error(PK, "PACK-UNKNOWN-FIELD", "/descripton")],
    },
    Defect {
        name: "template_engine missing (as in two of the spec's own examples)",
        edits: &[("\"template_engine\": {", "\"engine_template\": {")],
        line_of: "{",
        expect: &[error(DOC, "PACK-REQUIRED", "/template_engine"), error(PY, "PACK-REQUIRED", "/template_engine")],
    },
    Defect {
        name: "pack id with capitals",
        edits: &[("\"id\": \"acme-support\"", "\"id\": \"Acme_Support\"")],
        line_of: "Acme_Support",
        expect: &[error(DOC, "PACK-PATTERN", "/id")],
    },
    Defect {
        name: "version that is not semver",
        edits: &[("\"version\": \"1.2.0\"", "\"version\": \"1.2\"")],
        line_of: "\"1.2\"",
        expect: &[error(DOC, "PACK-PATTERN", "/version"), error(PK, "PACK-PATTERN", "/version")],
    },
    Defect {
        name: "prompt names a tool the pack does not define",
        edits: &[("\"tools\": [\"lookup_order\"],", "\"tools\": [\"lookup_ordr\"],")],
        line_of: "lookup_ordr",
        expect: &[
            error(DOC, "PACK-REF-TOOL", "/prompts/triage/tools/0"),
            warning(PK, "PACK-REF-TOOL", "/prompts/triage/tools/0"),
            valid(PK),
        ],
    },
    Defect {
        name: "workflow entry names no state",
        edits: &[("\"entry\": \"triage\"", "\"entry\": \"start\"")],
        line_of: "\"entry\"",
        expect: &[error(DOC, "PACK-REF-STATE", "/workflow/entry"), error(PK, "PACK-REF-STATE", "/workflow/entry")],
    },
    Defect {
        name: "on_event goes to no state",
        edits: &[("\"Resolved\": \"done\"", "\"Resolved\": \"closed\"")],
        line_of: "\"closed\"",
        expect: &[
            error(DOC, "PACK-REF-STATE", "/workflow/states/resolve/on_event/Resolved"),
            error(PK, "PACK-REF-STATE", "/workflow/states/resolve/on_event/Resolved"),
        ],
    },
    Defect {
        name: "on_max_visits names no state (PromptKit does not check it at load)",
        edits: &[("\"on_max_visits\": \"escalate\"", "\"on_max_visits\": \"human\"")],
        line_of: "\"human\"",
        expect: &[
            error(DOC, "PACK-REF-STATE", "/workflow/states/triage/on_max_visits"),
            warning(PK, "PACK-REF-STATE", "/workflow/states/triage/on_max_visits"),
            valid(PK),
        ],
    },
    Defect {
        name: "prompt_task names no prompt",
        edits: &[("\"prompt_task\": \"resolve\"", "\"prompt_task\": \"resolver\"")],
        line_of: "\"resolver\"",
        expect: &[
            error(DOC, "PACK-REF-PROMPT", "/workflow/states/resolve/prompt_task"),
            error(PK, "PACK-REF-PROMPT", "/workflow/states/resolve/prompt_task"),
        ],
    },
    Defect {
        name: "max_visits of 0",
        edits: &[("\"max_visits\": 2", "\"max_visits\": 0")],
        line_of: "\"max_visits\": 0",
        expect: &[
            error(DOC, "PACK-RANGE", "/workflow/states/triage/max_visits"),
            error(PK, "PACK-RANGE", "/workflow/states/triage/max_visits"),
        ],
    },
    Defect {
        name: "a cycle of on_event with no terminal state",
        edits: &[
            (
                "\"escalate\": { \"prompt_task\": \"escalate\", \"terminal\": true },",
                "\"escalate\": { \"prompt_task\": \"escalate\", \"on_event\": { \"Retry\": \"triage\" } },",
            ),
            (
                "\"done\": { \"prompt_task\": \"escalate\", \"terminal\": true,",
                "\"done\": { \"prompt_task\": \"escalate\", \"on_event\": { \"Reopen\": \"triage\" },",
            ),
        ],
        line_of: "\"entry\"",
        // RFC 0009 keeps a workflow without a terminal state valid: a warning everywhere.
        expect: &[warning(DOC, "WORKFLOW-NO-END", "/workflow/entry"), warning(PK, "WORKFLOW-NO-END", "/workflow/entry")],
    },
    Defect {
        name: "temperature above 2",
        edits: &[("\"temperature\": 0.2", "\"temperature\": 3")],
        line_of: "\"temperature\"",
        expect: &[error(DOC, "PACK-RANGE", "/prompts/triage/parameters/temperature")],
    },
    Defect {
        name: "a validator type PromptKit does not register",
        edits: &[("\"type\": \"banned_words\"", "\"type\": \"regex_match\"")],
        line_of: "regex_match",
        expect: &[valid(DOC), error(PK, "PACK-PROMPTKIT-VALIDATOR-TYPE", "/prompts/triage/validators/0/type")],
    },
    Defect {
        name: "a validator without `enabled` (the fork requires it)",
        edits: &[("\"type\": \"max_length\", \"enabled\": true,", "\"type\": \"max_length\",")],
        line_of: "max_length",
        expect: &[valid(DOC), error(PK, "PACK-PROMPTKIT-SCHEMA", "/prompts/resolve/validators/0/enabled")],
    },
    Defect {
        name: "a validator `message` (the fork has none)",
        edits: &[(
            "\"type\": \"max_length\", \"enabled\": true,",
            "\"type\": \"max_length\", \"enabled\": true, \"message\": \"Too long\",",
        )],
        line_of: "Too long",
        expect: &[
            valid(DOC),
            error(PY, "PACK-PYTHON-MODEL", "/prompts/resolve/validators/0/message"),
            error(PK, "PACK-PROMPTKIT-SCHEMA", "/prompts/resolve/validators/0/message"),
        ],
    },
    Defect {
        name: "an eval trigger outside the fork's four",
        edits: &[("\"trigger\": \"on_session_complete\"", "\"trigger\": \"on_conversation_complete\"")],
        line_of: "on_conversation_complete",
        expect: &[valid(DOC), error(PK, "PACK-PROMPTKIT-SCHEMA", "/evals/0/trigger")],
    },
    Defect {
        name: "an eval threshold (the fork has none)",
        edits: &[(
            "\"trigger\": \"on_session_complete\"",
            "\"trigger\": \"on_session_complete\", \"threshold\": { \"operator\": \"gte\", \"value\": 1 }",
        )],
        line_of: "threshold",
        expect: &[valid(DOC), error(PK, "PACK-PROMPTKIT-SCHEMA", "/evals/0/threshold")],
    },
    Defect {
        name: "a fragment placeholder",
        edits: &[
            ("Answer in {{language}}.", "Answer in {{language}}. {{fragments.tone}}"),
            ("\"tools\": {\n    \"lookup_order\"", "\"fragments\": { \"tone\": \"Be brief.\" },\n  \"tools\": {\n    \"lookup_order\""),
        ],
        line_of: "{{fragments.tone}}",
        expect: &[
            valid(DOC),
            error(PK, "TEMPLATE-PROMPTKIT-RAW", "/prompts/triage/system_template"),
            warning(PY, "TEMPLATE-FRAGMENT-SYNTAX", "/prompts/triage/system_template"),
        ],
    },
    Defect {
        name: "a fragment the pack does not have",
        edits: &[("Answer in {{language}}.", "Answer in {{language}}. {{fragments.tone}}")],
        line_of: "{{fragments.tone}}",
        expect: &[error(DOC, "TEMPLATE-FRAGMENT-MISSING", "/prompts/triage/system_template")],
    },
    Defect {
        name: "a placeholder naming no declared variable",
        edits: &[("assistant of {{company}}.", "assistant of {{brand}}.")],
        line_of: "{{brand}}",
        expect: &[
            error(DOC, "TEMPLATE-UNDECLARED", "/prompts/triage/system_template"),
            warning(PK, "TEMPLATE-UNDECLARED", "/prompts/triage/system_template"),
            valid(PK),
        ],
    },
    Defect {
        name: "spaces inside the braces",
        edits: &[("assistant of {{company}}.", "assistant of {{ company }}.")],
        line_of: "{{ company }}",
        expect: &[
            warning(DOC, "TEMPLATE-SPACING", "/prompts/triage/system_template"),
            valid(DOC),
            error(PK, "TEMPLATE-PROMPTKIT-RAW", "/prompts/triage/system_template"),
        ],
    },
    Defect {
        name: "a variable declared twice",
        edits: &[("{ \"name\": \"language\"", "{ \"name\": \"company\"")],
        line_of: "{ \"name\": \"company\", \"type\": \"string\", \"required\": false",
        expect: &[error(DOC, "PACK-DUPLICATE-NAME", "/prompts/triage/variables/1/name")],
    },
    Defect {
        name: "an eval id used twice (PromptKit runs both)",
        edits: &[("\"id\": \"tone\"", "\"id\": \"no-tool-errors\"")],
        line_of: "\"id\": \"no-tool-errors\", \"type\": \"content_excludes\"",
        expect: &[error(DOC, "PACK-DUPLICATE-NAME", "/evals/1/id"), warning(PK, "PACK-DUPLICATE-NAME", "/evals/1/id"), valid(PK)],
    },
    Defect {
        name: "a variable type outside the fork's enum",
        edits: &[("\"type\": \"number\", \"required\": false", "\"type\": \"int\", \"required\": false")],
        line_of: "\"int\"",
        expect: &[valid(DOC), error(PK, "PACK-PROMPTKIT-SCHEMA", "/prompts/resolve/variables/1/type")],
    },
    Defect {
        name: "a YAML-1.1 style boolean",
        edits: &[("\"required\": false, \"default\": \"English\"", "\"required\": \"no\", \"default\": \"English\"")],
        line_of: "\"no\"",
        expect: &[error(DOC, "PACK-TYPE", "/prompts/triage/variables/1/required")],
    },
    Defect {
        name: "workflow version 3 (PromptKit's loader takes 1 or 2)",
        edits: &[("\"version\": 1,\n    \"entry\"", "\"version\": 3,\n    \"entry\"")],
        line_of: "\"version\": 3",
        expect: &[valid(DOC), error(PK, "PACK-PROMPTKIT-LOADER", "/workflow/version")],
    },
    Defect {
        name: "PromptKit's compositions extension",
        edits: &[("\"workflow\": {", "\"compositions\": {},\n  \"workflow\": {")],
        line_of: "compositions",
        expect: &[error(DOC, "PACK-UNKNOWN-FIELD", "/compositions"), valid(PK)],
    },
    Defect {
        name: "tool_policy, which PromptKit ignores",
        edits: &[("\"parameters\": { \"temperature\"", "\"tool_policy\": { \"max_rounds\": 2 },\n      \"parameters\": { \"temperature\"")],
        line_of: "tool_policy",
        expect: &[valid(DOC), warning(PK, "PACK-PROMPTKIT-IGNORED", "/prompts/triage/tool_policy"), valid(PK)],
    },
    Defect {
        name: "a state that is neither terminal nor has events",
        edits: &[(
            "\"escalate\": { \"prompt_task\": \"escalate\", \"terminal\": true },",
            "\"escalate\": { \"prompt_task\": \"escalate\" },",
        )],
        line_of: "\"escalate\": { \"prompt_task\"",
        expect: &[valid(DOC), error(PK, "PACK-PROMPTKIT-SCHEMA", "/workflow/states/escalate")],
    },
    Defect {
        name: "a compilation date gojsonschema rejects",
        edits: &[(
            "\"workflow\": {",
            "\"compilation\": { \"compiled_with\": \"packc\", \"created_at\": \"yesterday\", \"schema\": \"1.4.0\" },\n  \"workflow\": {",
        )],
        line_of: "yesterday",
        expect: &[valid(DOC), error(PK, "PACK-FORMAT", "/compilation/created_at")],
    },
    Defect {
        name: "a key given twice",
        edits: &[("\"name\": \"Acme support desk\",", "\"name\": \"Acme support desk\",\n  \"name\": \"Acme desk\",")],
        line_of: "\"Acme desk\"",
        expect: &[warning(DOC, "PACK-DUPLICATE-KEY", "/name"), valid(DOC)],
    },
    Defect {
        name: "a validation pattern that is no regular expression",
        edits: &[("\"pattern\": \"^[A-Z]{3}$\"", "\"pattern\": \"^[A-Z{3}$\"")],
        line_of: "^[A-Z{3}$",
        expect: &[error(DOC, "PACK-VARIABLE-PATTERN", "/prompts/resolve/variables/2/validation/pattern")],
    },
    Defect {
        name: "a lookahead pattern, valid in ECMA-262 but not in RE2",
        edits: &[("\"pattern\": \"^[A-Z]{3}$\"", "\"pattern\": \"^(?=[A-Z])[A-Z]{3}$\"")],
        line_of: "(?=[A-Z])",
        expect: &[warning(DOC, "PACK-VARIABLE-PATTERN", "/prompts/resolve/variables/2/validation/pattern"), valid(DOC)],
    },
    Defect {
        name: "a keyed map written as a list",
        edits: &[("\"workflow\": {", "\"fragments\": [\"Be brief.\"],\n  \"workflow\": {")],
        line_of: "\"fragments\": [",
        expect: &[error(DOC, "PACK-TYPE", "/fragments")],
    },
    Defect {
        name: "an agent member that is no prompt",
        edits: &[(
            "\"workflow\": {",
            "\"agents\": { \"entry\": \"triage\", \"members\": { \"triage\": {}, \"billing\": {} } },\n  \"workflow\": {",
        )],
        line_of: "billing",
        expect: &[error(DOC, "PACK-REF-PROMPT", "/agents/members/billing"), error(PK, "PACK-REF-PROMPT", "/agents/members/billing")],
    },
    Defect {
        name: "a prompt id that is not its key",
        edits: &[("\"id\": \"escalate\",", "\"id\": \"handoff\",")],
        line_of: "\"handoff\"",
        expect: &[warning(DOC, "PACK-KEY-MISMATCH", "/prompts/escalate/id"), valid(DOC)],
    },
    Defect {
        name: "an empty prompt name",
        edits: &[("\"name\": \"Triage\",", "\"name\": \"\",")],
        line_of: "\"name\": \"\"",
        expect: &[error(DOC, "PACK-LENGTH", "/prompts/triage/name")],
    },
    Defect {
        name: "a workflow with no states",
        edits: &[("\"states\": {\n      \"triage\": {", "\"states\": {},\n    \"unused\": {\n      \"triage\": {")],
        line_of: "\"states\": {}",
        expect: &[error(DOC, "PACK-EMPTY", "/workflow/states")],
    },
    Defect {
        name: "an artifact mode outside replace and append",
        edits: &[(
            "\"max_visits\": 2,",
            "\"max_visits\": 2,\n        \"artifacts\": { \"summary\": { \"type\": \"text\", \"mode\": \"merge\" } },",
        )],
        line_of: "\"merge\"",
        expect: &[error(DOC, "PACK-ENUM", "/workflow/states/triage/artifacts/summary/mode")],
    },
    Defect {
        name: "a required variable with a default",
        edits: &[(
            "{ \"name\": \"company\", \"type\": \"string\", \"required\": true, \"description\"",
            "{ \"name\": \"company\", \"type\": \"string\", \"required\": true, \"default\": \"Acme\", \"description\"",
        )],
        line_of: "\"default\": \"Acme\"",
        expect: &[warning(DOC, "PACK-VARIABLE-DEFAULT", "/prompts/triage/variables/0/default"), valid(DOC)],
    },
    Defect {
        name: "a state no path reaches",
        edits: &[(
            "\"escalate\": { \"prompt_task\": \"escalate\", \"terminal\": true },",
            "\"escalate\": { \"prompt_task\": \"escalate\", \"terminal\": true },\n      \"limbo\": { \"prompt_task\": \"escalate\", \"terminal\": true },",
        )],
        line_of: "\"limbo\"",
        expect: &[warning(DOC, "WORKFLOW-GRAPH", "/workflow/states/limbo"), valid(DOC)],
    },
    Defect {
        name: "a conditional no implementation fills",
        edits: &[("Answer in {{language}}.", "Answer in {{language}}.{{#if vip}} Be extra polite.{{/if}}")],
        line_of: "{{#if vip}}",
        expect: &[
            warning(DOC, "TEMPLATE-UNKNOWN-SYNTAX", "/prompts/triage/system_template"),
            error(PK, "TEMPLATE-PROMPTKIT-RAW", "/prompts/triage/system_template"),
        ],
    },
    Defect {
        name: "a length validator with no bound (PromptKit skips it at Open)",
        edits: &[(
            "{ \"type\": \"banned_words\", \"enabled\": true, \"fail_on_violation\": true, \"params\": { \"words\": [\"guarantee\", \"lawsuit\"] } }",
            "{ \"type\": \"length\", \"enabled\": true, \"params\": { \"limit\": 500 } }",
        )],
        line_of: "\"type\": \"length\"",
        expect: &[warning(PK, "PACK-PROMPTKIT-VALIDATOR-SKIPPED", "/prompts/triage/validators/0")],
    },
    Defect {
        name: "a placeholder that never closes",
        edits: &[("Answer in {{language}}.", "Answer in {{language}}. Signed, {{company.")],
        line_of: "{{company.",
        expect: &[
            warning(DOC, "TEMPLATE-UNCLOSED", "/prompts/triage/system_template"),
            warning(PK, "TEMPLATE-UNCLOSED", "/prompts/triage/system_template"),
            warning(PY, "TEMPLATE-UNCLOSED", "/prompts/triage/system_template"),
        ],
    },
    Defect {
        name: "a fragment that uses another fragment",
        edits: &[
            (
                "\"template_engine\": {",
                "\"fragments\": {\"voice\": \"Be kind. {{fragments.sign}}\", \"sign\": \"Bye.\"},\n  \"template_engine\": {",
            ),
            ("Answer in {{language}}.", "Answer in {{language}}. {{fragments.voice}}"),
        ],
        line_of: "{{fragments.voice}}",
        expect: &[warning(DOC, "TEMPLATE-NESTED-FRAGMENT", "/prompts/triage/system_template")],
    },
    Defect {
        name: "an artifact placeholder no state declares",
        edits: &[("Confirm every refund with its order id.", "Confirm every refund with its order id. Notes so far: {{artifacts.notes}}")],
        line_of: "{{artifacts.notes}}",
        expect: &[warning(DOC, "TEMPLATE-ARTIFACT", "/prompts/resolve/system_template"), valid(DOC)],
    },
    Defect {
        name: "an eval type PromptKit does not know (skipped there)",
        edits: &[("\"type\": \"no_tool_errors\"", "\"type\": \"sentiment\"")],
        line_of: "\"sentiment\"",
        expect: &[valid(DOC), warning(PK, "PACK-PROMPTKIT-EVAL-TYPE", "/evals/0/type"), valid(PK)],
    },
    Defect {
        name: "agents.entry that is no member",
        edits: &[("\"workflow\": {", "\"agents\": { \"entry\": \"boss\", \"members\": { \"triage\": {} } },\n  \"workflow\": {")],
        line_of: "\"boss\"",
        expect: &[error(DOC, "PACK-REF-AGENT", "/agents/entry"), error(PK, "PACK-REF-AGENT", "/agents/entry")],
    },
];

fn edited(defect: &Defect) -> String {
    let mut text = BASE.to_string();
    for (from, to) in defect.edits {
        assert!(text.contains(from), "{}: the base pack no longer contains {from:?}", defect.name);
        text = text.replacen(from, to, 1);
    }
    text
}

fn line_of(text: &str, needle: &str) -> u32 {
    text.lines().position(|l| l.contains(needle)).map(|i| i as u32 + 1).unwrap_or_else(|| panic!("no line holds {needle:?}"))
}

fn show(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| format!("\n  {}:{} {:?} {} {} — {}", d.line, d.column, d.severity, d.rule, d.path, d.message)).collect()
}

/// The findings of a report, without their lines (an edit may move them).
fn findings(diagnostics: &[Diagnostic]) -> std::collections::BTreeSet<(Severity, &'static str, String)> {
    diagnostics.iter().map(|d| (d.severity, d.rule, d.path.clone())).collect()
}

#[test]
fn the_example_pack_is_clean_as_documented_but_promptkit_cannot_run_its_workflow_nor_promptpack_python_load_it() {
    let document = parse("support.pack.json".into(), BASE).unwrap();
    let documented = check(&document, DOC);
    assert!(documented.valid && documented.diagnostics.is_empty(), "{}", show(&documented.diagnostics));
    // Every state's prompt requires the host's `company`, which PromptKit never passes when it renders
    // a state's prompt each round; the optional variables lose the host's values to their defaults.
    let promptkit = check(&document, PK);
    let found: Vec<(Severity, &str, &str)> = promptkit.diagnostics.iter().map(|d| (d.severity, d.rule, d.path.as_str())).collect();
    let rule = "WORKFLOW-PROMPTKIT-HOST-VARIABLE";
    assert_eq!(
        found,
        [
            (Severity::Error, rule, "/workflow/states/triage/prompt_task"),
            (Severity::Warning, rule, "/workflow/states/triage/prompt_task"),
            (Severity::Error, rule, "/workflow/states/resolve/prompt_task"),
            (Severity::Warning, rule, "/workflow/states/resolve/prompt_task"),
            (Severity::Warning, rule, "/workflow/states/resolve/prompt_task"),
            (Severity::Error, rule, "/workflow/states/escalate/prompt_task"),
            (Severity::Error, rule, "/workflow/states/done/prompt_task"),
        ],
        "{}",
        show(&promptkit.diagnostics)
    );
    assert!(!promptkit.valid);
    // promptpack-python's models predate evals and workflows: its only findings are those three fields.
    let python = check(&document, PY);
    let found: Vec<(&str, &str)> = python.diagnostics.iter().map(|d| (d.rule, d.path.as_str())).collect();
    assert_eq!(
        found,
        [("PACK-PYTHON-MODEL", "/prompts/resolve/evals"), ("PACK-PYTHON-MODEL", "/evals"), ("PACK-PYTHON-MODEL", "/workflow")]
    );
}

#[test]
fn every_defect_is_found_where_it_is_under_each_profile() {
    assert!(DEFECTS.len() >= 20);
    let mut failures = Vec::new();
    let base = parse("support.pack.json".into(), BASE).unwrap();
    for defect in DEFECTS {
        let text = edited(defect);
        let document = parse("support.pack.json".into(), &text).unwrap_or_else(|e| panic!("{}: {e}", defect.name));
        for expect in defect.expect {
            let report = check(&document, expect.profile);
            match expect.finding {
                None => {
                    let own = check(&base, expect.profile);
                    let added: Vec<_> = findings(&report.diagnostics)
                        .difference(&findings(&own.diagnostics))
                        .filter(|(severity, ..)| *severity == Severity::Error)
                        .cloned()
                        .collect();
                    if !added.is_empty() || report.valid != own.valid {
                        failures.push(format!(
                            "{} under {}: expected no error beyond the example's own, got{}",
                            defect.name,
                            expect.profile,
                            show(&report.diagnostics)
                        ));
                    }
                }
                Some((severity, rule, path)) => {
                    let line = line_of(&text, defect.line_of);
                    let found =
                        report.diagnostics.iter().any(|d| d.severity == severity && d.rule == rule && d.path == path && d.line == line);
                    if !found {
                        failures.push(format!(
                            "{} under {}: expected {severity:?} {rule} at {path} line {line}, got{}",
                            defect.name,
                            expect.profile,
                            show(&report.diagnostics)
                        ));
                    }
                    if severity == Severity::Error && report.valid {
                        failures.push(format!("{} under {}: an error, yet the pack is called valid", defect.name, expect.profile));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_emitted_is_in_the_catalogue() {
    for defect in DEFECTS {
        let document = parse("support.pack.json".into(), &edited(defect)).unwrap();
        for profile in PackProfile::ALL {
            for d in check(&document, profile).diagnostics {
                assert!(proctor_pack::rules::find(d.rule).is_some(), "{}: rule {} is not in the catalogue", defect.name, d.rule);
                assert!(!d.fix.is_empty(), "{}: {} has no fix", defect.name, d.rule);
            }
        }
    }
}

#[test]
fn yaml_packs_are_checked_with_their_lines() {
    let yaml = "id: tiny\nname: Tiny\nversion: 1.0.0\ntemplate_engine: {version: v1, syntax: '{{variable}}'}\nprompts:\n  main:\n    id: main\n    name: Main\n    version: 1.0.0\n    system_template: Hi {{who}}\n    tools: [nope]\n";
    let document = parse("tiny.pack.yaml".into(), yaml).unwrap();
    let report = check(&document, DOC);
    let tool = report.diagnostics.iter().find(|d| d.rule == "PACK-REF-TOOL").unwrap_or_else(|| panic!("{}", show(&report.diagnostics)));
    assert_eq!((tool.path.as_str(), tool.line, tool.column), ("/prompts/main/tools/0", 11, 13));
    let undeclared =
        report.diagnostics.iter().find(|d| d.rule == "TEMPLATE-UNDECLARED").unwrap_or_else(|| panic!("{}", show(&report.diagnostics)));
    assert_eq!(undeclared.line, 10);
}

#[test]
fn every_rule_in_the_catalogue_has_a_defect_that_raises_it() {
    let mut raised = std::collections::BTreeSet::new();
    for defect in DEFECTS {
        let document = parse("support.pack.json".into(), &edited(defect)).unwrap();
        for profile in PackProfile::ALL {
            raised.extend(check(&document, profile).diagnostics.into_iter().map(|d| d.rule));
        }
    }
    let yaml = include_str!("../../examples/promptpack/fragments.pack.yaml");
    let document = parse("fragments.pack.yaml".into(), yaml).unwrap();
    for profile in PackProfile::ALL {
        raised.extend(check(&document, profile).diagnostics.into_iter().map(|d| d.rule));
    }
    let unknown: Vec<&str> = raised.iter().copied().filter(|r| proctor_pack::rules::find(r).is_none()).collect();
    assert!(unknown.is_empty(), "rules raised but not in the catalogue: {unknown:?}");
    let never: Vec<&str> = proctor_pack::rules::RULES.iter().map(|r| r.id).filter(|id| !raised.contains(id)).collect();
    assert!(never.is_empty(), "rules no defect raises (add one): {never:?}");
}

#[test]
fn promptkit_never_passes_host_variables_to_a_workflow_states_prompt() {
    // A state prompt with an optional variable and no default goes out raw; a default replaces the
    // host's value; the names PromptKit does pass (artifacts, workflow_context) are never findings.
    let pack = r#"{"id": "desk", "name": "Desk", "version": "1.0.0", "template_engine": {"version": "v1", "syntax": "{{variable}}"},
      "prompts": {"greet": {"id": "greet", "name": "Greet", "version": "1.0.0",
        "system_template": "Greet in {{language}} for {{brand}}. {{workflow_context}}",
        "variables": [{"name": "language", "type": "string", "required": false},
                      {"name": "brand", "type": "string", "required": false, "default": "Acme"},
                      {"name": "workflow_context", "type": "string", "required": true},
                      {"name": "unused", "type": "string", "required": false}]}},
      "workflow": {"version": 1, "entry": "greet", "states": {"greet": {"prompt_task": "greet", "terminal": true}}}}"#;
    let document = parse("desk.pack.json".into(), pack).unwrap();
    let report = check(&document, PK);
    let ours: Vec<(Severity, &str)> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == "WORKFLOW-PROMPTKIT-HOST-VARIABLE")
        .map(|d| (d.severity, d.message.split(", so ").nth(1).unwrap_or_default()))
        .collect();
    assert_eq!(
        ours,
        [
            (Severity::Warning, "{{language}} is never filled there and the prompt goes out as the raw template"),
            (Severity::Warning, "the model always gets `brand`'s default (\"Acme\"), whatever the host passes"),
        ],
        "{}",
        show(&report.diagnostics)
    );
    assert!(report.valid, "warnings only: {}", show(&report.diagnostics));
    assert!(check(&document, DOC).diagnostics.iter().all(|d| d.rule != "WORKFLOW-PROMPTKIT-HOST-VARIABLE"));
}
