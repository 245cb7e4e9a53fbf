//! The Go and TypeScript templates: the languages whose plugin is built
//! before the runtime runs it, so `init` also writes the build's own files,
//! prints the build commands and puts them in the workflow.
//!
//! Go: the plugin is `package main` in NAME.go beside a `go.mod` without
//! requires (the standard library only), built once with `go build -o NAME .`
//! and run as `./NAME`; `go run .` would compile it again on every spawn,
//! and a one-shot plugin is spawned for every call.
//!
//! TypeScript: Node 20, which the project supports, has no type stripping,
//! so tsc compiles NAME.ts to NAME.js beside it (`npm install` fetches the
//! compiler pinned in `package.json`, `npm run build` runs it) and the runtime
//! runs `node NAME.js`. The plugin declares the few Node APIs it uses instead
//! of depending on @types/node, so the compiler is the only package.
//!
//! Each plugin is its Python template written again in that language, with
//! the same rules, the same cases file and a scenario that runs the built
//! command; the files are under `harness/templates/<family>/<role>/{go,ts}/`.

use proctor_conformance::protocol::{Family, Role};

use super::{File, Lang, Template};

/// A file of `harness/templates/`, named by its path there and its name, the contents compiled in.
macro_rules! support_file {
    ($dir:literal, $name:literal) => {
        File { name: $name, contents: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $dir, "/", $name)) }
    };
}

/// One template for a role in `$lang`: `$dir/$sub/$stem$ext` and `$dir/$sub/$stem.scenario.yaml`,
/// and, when the row says `cases`, the role's own `$dir/$stem.cases.yaml`, shared with Python.
macro_rules! compiled_template {
    ($family:ident $role:ident $lang:ident $sub:literal $ext:literal $dir:literal $stem:literal $($cases:ident)?) => {
        Template {
            family: Family::$family,
            role: Role::$role,
            lang: Lang::$lang,
            plugin: File {
                name: concat!($stem, $ext),
                contents: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $dir, $sub, $stem, $ext)),
            },
            cases: compiled_template!(@cases $dir $stem $($cases)?),
            scenario: File {
                name: concat!($stem, ".scenario.yaml"),
                contents: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $dir, $sub, $stem, ".scenario.yaml")),
            },
        }
    };
    (@cases $dir:literal $stem:literal cases) => {
        Some(File {
            name: concat!($stem, ".cases.yaml"),
            contents: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $dir, "/", $stem, ".cases.yaml")),
        })
    };
    (@cases $dir:literal $stem:literal) => {
        None
    };
}

/// The Go and the TypeScript template of each row: family, role, folder, file stem, and
/// `cases` when the role has a cases file.
macro_rules! compiled_templates {
    ($($family:ident $role:ident $dir:literal $stem:literal $($cases:ident)?;)*) => {
        &[$(
            compiled_template!($family $role Go "/go/" ".go" $dir $stem $($cases)?),
            compiled_template!($family $role Ts "/ts/" ".ts" $dir $stem $($cases)?),
        )*]
    };
}

/// Every Go and TypeScript template, in the order families and roles are listed to users.
pub(super) const ALL: &[Template] = compiled_templates! {
    PromptkitExec Tool "promptkit-exec/tool" "tool" cases;
    PromptkitExec Eval "promptkit-exec/eval" "eval" cases;
    PromptkitExec ProviderHook "promptkit-exec/provider-hook" "provider_hook" cases;
    PromptkitExec ToolHook "promptkit-exec/tool-hook" "tool_hook" cases;
    PromptkitExec SessionHook "promptkit-exec/session-hook" "session_hook" cases;
    PromptkitExec EvalHook "promptkit-exec/eval-hook" "eval_hook";
    PromptkitExec Selector "promptkit-exec/selector" "selector" cases;
    PromptkitServer Tool "promptkit-server/tool" "server_tool" cases;
    PicoclawHook Observe "picoclaw-hook/observe" "observe_hook";
    PicoclawHook Llm "picoclaw-hook/llm" "llm_hook" cases;
    PicoclawHook ToolMode "picoclaw-hook/tool" "tool_hook" cases;
    PicoclawHook Approve "picoclaw-hook/approve" "approve_hook" cases;
    RunokExtension Guard "runok-extension/guard" "guard" cases;
};

/// A role's cases file as written beside `plugin`: the file is shared by the role's
/// languages, and its first comment, which names the Python plugin, names this one.
pub(super) fn cases_for(plugin: &str, contents: &str) -> String {
    contents.replacen(&format!("# What {}.py ", stem(plugin)), &format!("# What {plugin} "), 1)
}

/// The PicoClaw hook serving every mode (see [`super::picoclaw_modes`]), in Go or TypeScript.
pub(super) fn picoclaw_modes(lang: Lang) -> Option<File> {
    match lang {
        Lang::Go => Some(support_file!("picoclaw-hook/modes/go", "hook.go")),
        Lang::Ts => Some(support_file!("picoclaw-hook/modes/ts", "hook.ts")),
        Lang::Python | Lang::Sh => None,
    }
}

/// The plugin file's name without its extension: the Go binary, the stem of the .js.
fn stem(plugin: &str) -> &str {
    plugin.rsplit_once('.').map_or(plugin, |(stem, _)| stem)
}

/// The built plugin's command line, run from its folder.
pub(super) fn command(lang: Lang, plugin: &str) -> Vec<String> {
    match lang {
        Lang::Ts => vec!["node".into(), format!("{}.js", stem(plugin))],
        _ => vec![format!("./{}", stem(plugin))],
    }
}

/// The commands that build the plugin, run from its folder, in order.
pub(super) fn build(lang: Lang, plugin: &str) -> Vec<Vec<String>> {
    let words = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
    match lang {
        Lang::Go => vec![words(&format!("go build -o {} .", stem(plugin)))],
        Lang::Ts => vec![words("npm install"), words("npm run build")],
        Lang::Python | Lang::Sh => Vec::new(),
    }
}

/// The files the build needs beside the plugin.
pub(super) fn support(lang: Lang) -> &'static [File] {
    const GO: &[File] = &[support_file!("support", "go.mod")];
    const TS: &[File] = &[support_file!("support", "package.json"), support_file!("support", "tsconfig.json")];
    match lang {
        Lang::Go => GO,
        Lang::Ts => TS,
        Lang::Python | Lang::Sh => &[],
    }
}

/// The workflow steps that install the toolchain and build the plugin, before proctor's.
pub(super) fn workflow_steps(lang: Lang, plugin: &str) -> String {
    let (setup, with) = match lang {
        Lang::Go => ("actions/setup-go@v5", "go-version-file: go.mod"),
        Lang::Ts => ("actions/setup-node@v4", "node-version: 20"),
        Lang::Python | Lang::Sh => return String::new(),
    };
    let build: Vec<String> = build(lang, plugin).iter().map(|argv| argv.join(" ")).collect();
    format!("      - uses: {setup}\n        with:\n          {with}\n      - run: {}\n", build.join(" && "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_python_template_has_a_go_and_a_typescript_one_with_its_cases() {
        for python in super::super::ALL.iter().filter(|t| t.lang == Lang::Python) {
            for lang in [Lang::Go, Lang::Ts] {
                let t = ALL.iter().find(|t| (t.family, t.role, t.lang) == (python.family, python.role, lang));
                let t = t.unwrap_or_else(|| panic!("no {} template for {} {}", lang.name(), python.family, python.role));
                assert_eq!(t.cases.map(|c| c.contents), python.cases.map(|c| c.contents), "{}: the cases differ", t.plugin.name);
                assert_eq!(stem(t.plugin.name), stem(python.plugin.name), "{}: named apart from {}", t.plugin.name, python.plugin.name);
            }
        }
        assert_eq!(ALL.len(), 2 * super::super::ALL.iter().filter(|t| t.lang == Lang::Python).count(), "a template without a Python one");
    }

    #[test]
    fn the_built_command_is_what_the_build_writes() {
        assert_eq!(command(Lang::Go, "tool_hook.go"), ["./tool_hook"]);
        assert_eq!(build(Lang::Go, "tool_hook.go"), [["go", "build", "-o", "tool_hook", "."]]);
        assert_eq!(command(Lang::Ts, "tool_hook.ts"), ["node", "tool_hook.js"]);
        assert_eq!(build(Lang::Ts, "tool_hook.ts").last().unwrap(), &["npm", "run", "build"]);
        assert_eq!(
            cases_for("tool_hook.go", "# What tool_hook.py must decide\ncases: []\n"),
            "# What tool_hook.go must decide\ncases: []\n"
        );
        assert!(support(Lang::Ts).iter().any(|f| f.name == "package.json" && f.contents.contains("\"build\": \"tsc\"")));
        assert!(support(Lang::Go).iter().any(|f| f.name == "go.mod" && !f.contents.lines().any(|l| l.starts_with("require"))));
    }
}
