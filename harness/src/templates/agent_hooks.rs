//! The command hook templates of Claude Code and Codex CLI: a PreToolUse
//! guard and a PostToolUse output scanner, in Python, Go and TypeScript.
//!
//! One hook is written for both agents (it keeps to what both read the same
//! way), so both families share its files; the scenario names Claude Code's
//! runtime and is written for Codex with its own (`for_family`).

use proctor_conformance::protocol::agent_hook::HookEvent;
use proctor_conformance::protocol::{Family, Role};

use super::{File, Lang, Template};

/// A `harness/templates/agent-hook/` file (`$dir$sub$name`), the contents compiled in.
macro_rules! hook_file {
    ($dir:literal, $sub:literal, $name:expr) => {
        File { name: $name, contents: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/agent-hook/", $dir, $sub, $name)) }
    };
}

/// One event's template in one language, for both families.
macro_rules! hook_templates {
    ($event:ident, $lang:ident, $dir:literal, $sub:literal, $plugin:literal, $stem:literal) => {
        [hook_templates!(@one ClaudeCodeHook $event $lang $dir $sub $plugin $stem), hook_templates!(@one CodexHook $event $lang $dir $sub $plugin $stem)]
    };
    (@one $family:ident $event:ident $lang:ident $dir:literal $sub:literal $plugin:literal $stem:literal) => {
        Template {
            family: Family::$family,
            role: Role::Event(HookEvent::$event),
            lang: Lang::$lang,
            plugin: hook_file!($dir, $sub, $plugin),
            cases: Some(hook_file!($dir, "", concat!($stem, ".cases.yaml"))),
            scenario: hook_file!($dir, $sub, concat!($stem, ".scenario.yaml")),
        }
    };
}

const PRE_PY: [Template; 2] = hook_templates!(PreToolUse, Python, "pre-tool-use/", "", "guard.py", "guard");
const PRE_GO: [Template; 2] = hook_templates!(PreToolUse, Go, "pre-tool-use/", "go/", "guard.go", "guard");
const PRE_TS: [Template; 2] = hook_templates!(PreToolUse, Ts, "pre-tool-use/", "ts/", "guard.ts", "guard");
const POST_PY: [Template; 2] = hook_templates!(PostToolUse, Python, "post-tool-use/", "", "output_scan.py", "output_scan");
const POST_GO: [Template; 2] = hook_templates!(PostToolUse, Go, "post-tool-use/", "go/", "output_scan.go", "output_scan");
const POST_TS: [Template; 2] = hook_templates!(PostToolUse, Ts, "post-tool-use/", "ts/", "output_scan.ts", "output_scan");

/// Every agent hook template: each event and language, Claude Code's then Codex's.
pub(super) const ALL: [[Template; 2]; 6] = [PRE_PY, PRE_GO, PRE_TS, POST_PY, POST_GO, POST_TS];

/// A template scenario as written for `family`: Codex's runtime where the file names Claude Code's.
pub(super) fn for_family(family: Family, scenario: &str) -> String {
    match family {
        Family::CodexHook => scenario.replace("runtime: claude-code", "runtime: codex").replace("claude-code-hook", "codex-hook"),
        _ => scenario.to_string(),
    }
}
