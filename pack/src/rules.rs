//! The catalogue of pack diagnostics: every rule a diagnostic can carry, with what it guards and where
//! the fact comes from. `proctor checks` prints it; a test holds every emitted rule to this list.

#[derive(Debug, serde::Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub title: &'static str,
    pub source: &'static str,
}

const SCHEMA: &str = "promptpack-spec ef8124f5 schema/promptpack.schema.json (1.4.0)";
const FORK: &str = "PromptKit 86d9f367 runtime/prompt/schema/promptpack.schema.json (fork, \"1.5.0\", gojsonschema)";
const PROSE: &str = "promptpack-spec ef8124f5 promptpack-docs/docs/spec/schema-guide.md";

pub const RULES: &[Rule] = &[
    Rule { id: "PACK-UNKNOWN-FIELD", title: "a field the object does not have (objects are closed)", source: SCHEMA },
    Rule { id: "PACK-REQUIRED", title: "a required field is missing", source: SCHEMA },
    Rule { id: "PACK-TYPE", title: "a value of the wrong type (maps are keyed objects, never arrays)", source: SCHEMA },
    Rule { id: "PACK-PATTERN", title: "an id, name or version that does not match its pattern", source: SCHEMA },
    Rule { id: "PACK-ENUM", title: "a value outside its closed set", source: SCHEMA },
    Rule { id: "PACK-RANGE", title: "a number outside its range (max_visits 0, temperature 3)", source: SCHEMA },
    Rule { id: "PACK-LENGTH", title: "a string that is empty or too long", source: SCHEMA },
    Rule { id: "PACK-EMPTY", title: "a map or list that must not be empty", source: SCHEMA },
    Rule {
        id: "PACK-DUPLICATE-KEY",
        title: "a key given twice in one JSON object; every implementation keeps the last, silently",
        source: "RFC 8259 §4",
    },
    Rule { id: "PACK-DUPLICATE-NAME", title: "a variable or eval id used twice in one list", source: PROSE },
    Rule { id: "PACK-KEY-MISMATCH", title: "a prompt's id or a tool's name differs from its key", source: PROSE },
    Rule { id: "PACK-REF-TOOL", title: "a prompt names a tool the pack does not define", source: PROSE },
    Rule { id: "PACK-REF-STATE", title: "workflow entry, on_event or on_max_visits names no state", source: PROSE },
    Rule { id: "PACK-REF-PROMPT", title: "prompt_task or an agent member names no prompt", source: PROSE },
    Rule { id: "PACK-REF-AGENT", title: "agents.entry names no member", source: PROSE },
    Rule { id: "PACK-VARIABLE-DEFAULT", title: "a required variable with a default, or a default of the wrong type", source: PROSE },
    Rule { id: "PACK-VARIABLE-PATTERN", title: "a variable's validation pattern is not a regular expression", source: SCHEMA },
    Rule { id: "WORKFLOW-NO-END", title: "no terminal state is reachable from the entry: the workflow can never complete", source: PROSE },
    Rule {
        id: "WORKFLOW-PROMPTKIT-HOST-VARIABLE",
        title: "a workflow state's prompt needs a host variable, which PromptKit never passes when it renders the state each round",
        source: "PromptKit 86d9f367 sdk/workflow_state_resolver.go renderState, runtime/pipeline/stage/stages_provider.go applyStateHandoff",
    },
    Rule { id: "WORKFLOW-GRAPH", title: "a state never reached, or a terminal state with events", source: PROSE },
    Rule { id: "TEMPLATE-UNDECLARED", title: "a placeholder names no declared variable", source: "promptpack-spec rfcs/0003" },
    Rule { id: "TEMPLATE-FRAGMENT-MISSING", title: "a fragment placeholder names no fragment", source: PROSE },
    Rule {
        id: "TEMPLATE-FRAGMENT-SYNTAX",
        title: "a fragment written in another implementation's syntax",
        source: "promptpack-python c78e36b template.py",
    },
    Rule { id: "TEMPLATE-SPACING", title: "spaces inside the braces of a placeholder", source: PROSE },
    Rule { id: "TEMPLATE-UNKNOWN-SYNTAX", title: "braces that are no variable or fragment placeholder", source: PROSE },
    Rule { id: "TEMPLATE-UNCLOSED", title: "a `{{` never closed: the rest of the template goes out as written", source: PROSE },
    Rule { id: "TEMPLATE-NESTED-FRAGMENT", title: "a fragment that uses another fragment", source: PROSE },
    Rule {
        id: "TEMPLATE-ARTIFACT",
        title: "an artifact placeholder no state declares, or read before it is set",
        source: "PromptKit 86d9f367 runtime/workflow",
    },
    Rule {
        id: "TEMPLATE-PROMPTKIT-RAW",
        title: "PromptKit leaves a placeholder unresolved and sends the raw template, nothing substituted",
        source: "PromptKit 86d9f367 runtime/template/renderer.go, stage/stages_utilities.go",
    },
    Rule { id: "PACK-PROMPTKIT-SCHEMA", title: "PromptKit's schema fork refuses what the spec allows", source: FORK },
    Rule {
        id: "PACK-PROMPTKIT-VALIDATOR-SKIPPED",
        title: "a validator whose params PromptKit cannot use: logged and skipped at Open, guarding nothing",
        source: "PromptKit 86d9f367 sdk/sdk.go convertPackValidatorsToHooks, runtime/evals/handlers/length.go",
    },
    Rule { id: "PACK-FORMAT", title: "a date, date-time or URI gojsonschema rejects (the spec only annotates formats)", source: FORK },
    Rule {
        id: "PACK-PROMPTKIT-LOADER",
        title: "PromptKit's loader refuses the pack (workflow version, member state, MIME modes)",
        source: "PromptKit 86d9f367 sdk/internal/pack/validate.go",
    },
    Rule {
        id: "PACK-PROMPTKIT-VALIDATOR-TYPE",
        title: "a validator type PromptKit does not register: it refuses the pack",
        source: "PromptKit 86d9f367 runtime/hooks/guardrails/factory.go",
    },
    Rule {
        id: "PACK-PROMPTKIT-EVAL-TYPE",
        title: "an eval type PromptKit does not register: logged and skipped",
        source: "PromptKit 86d9f367 sdk/validate_pack.go",
    },
    Rule {
        id: "PACK-PYTHON-MODEL",
        title: "promptpack-python's models refuse what the spec allows (evals, workflow, agents, skills, validator message and types)",
        source: "promptpack-python c78e36b types.py",
    },
    Rule {
        id: "PACK-PYTHON-JSON-ONLY",
        title: "a YAML pack, which promptpack-python cannot open",
        source: "promptpack-python c78e36b parser.py",
    },
    Rule {
        id: "PACK-PROMPTKIT-IGNORED",
        title: "a field PromptKit parses and never uses (tool_policy, model_overrides, media)",
        source: "../shared/research/promptpack.md §3",
    },
];

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}
