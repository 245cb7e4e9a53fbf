//! The plugin templates `proctor init` writes: for every family and role that
//! `proctor certify` supports, a minimal plugin that certifies conformant as
//! written, its cases file, a scenario that uses it, and the CI workflow that
//! certifies it with proctor's GitHub action.
//!
//! The plugins, cases and scenarios are real files under `harness/templates/`
//! (`<family>/<role>/`, the sh variants in `sh/` below it), compiled in with
//! `include_str!` so a reviewer can read and run them where they are. The
//! workflow is rendered here, because its `uses:` is the user's choice. The
//! Go and TypeScript templates, which are built before they run, are in
//! [`compiled`].

use proctor_conformance::protocol::{Family, Role};

mod agent_hooks;
mod compiled;

/// The language a template's plugin is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// Python 3, standard library only.
    Python,
    /// POSIX sh (with cat, tr and sed), where the role can be written honestly without a JSON parser.
    Sh,
    /// Go, standard library only, built once with `go build`.
    Go,
    /// TypeScript for Node, standard library only, compiled by `tsc`.
    Ts,
}

impl Lang {
    /// The name used on the command line (`--lang`).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::Sh => "sh",
            Lang::Go => "go",
            Lang::Ts => "ts",
        }
    }

    /// The command line that runs `plugin` from its folder: an interpreter and the
    /// script (no shebang or executable bit needed), or what the build wrote.
    fn command(self, plugin: &str) -> Vec<String> {
        match self {
            Lang::Python => vec!["python3".into(), plugin.into()],
            Lang::Sh => vec!["sh".into(), plugin.into()],
            Lang::Go | Lang::Ts => compiled::command(self, plugin),
        }
    }
}

/// One file of a template: its name once written, and its contents.
#[derive(Debug, Clone, Copy)]
pub struct File {
    /// The file name (no folder): `tool_hook.py`.
    pub name: &'static str,
    /// The bytes to write.
    pub contents: &'static str,
}

/// Everything `proctor init` writes for one family, role and language.
#[derive(Debug, Clone, Copy)]
pub struct Template {
    /// The `--protocol`.
    pub family: Family,
    /// The role (PicoClaw: the one mode) the plugin takes.
    pub role: Role,
    /// The plugin's language.
    pub lang: Lang,
    /// The plugin.
    pub plugin: File,
    /// Its cases: one per decision the role can make. `None` where the cases
    /// format has nothing to expect (an eval hook's stdout is ignored; a
    /// PicoClaw observer only receives notifications).
    pub cases: Option<File>,
    /// A `proctor run` scenario that uses the plugin as a real command.
    pub scenario: File,
}

/// `File` from a template folder (and sub-folder) and a file name, the contents compiled in.
macro_rules! template_file {
    ($dir:literal, $sub:literal, $name:literal) => {
        File { name: $name, contents: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $dir, $sub, "/", $name)) }
    };
}

/// A template whose cases file, when it has one, sits in the role's folder (shared by its languages).
macro_rules! template {
    ($family:ident, $role:ident, $lang:ident, $dir:literal, $sub:literal, $plugin:literal, $scenario:literal $(, cases: $cases:literal)?) => {
        Template {
            family: Family::$family,
            role: Role::$role,
            lang: Lang::$lang,
            plugin: template_file!($dir, $sub, $plugin),
            cases: template!(@cases $dir $($cases)?),
            scenario: template_file!($dir, $sub, $scenario),
        }
    };
    (@cases $dir:literal $cases:literal) => { Some(template_file!($dir, "", $cases)) };
    (@cases $dir:literal) => { None };
}

/// Every template, in the order families and roles are listed to users.
pub const ALL: &[Template] = &[
    template!(PromptkitExec, Tool, Python, "promptkit-exec/tool", "", "tool.py", "tool.scenario.yaml", cases: "tool.cases.yaml"),
    template!(PromptkitExec, Eval, Python, "promptkit-exec/eval", "", "eval.py", "eval.scenario.yaml", cases: "eval.cases.yaml"),
    template!(
        PromptkitExec,
        ProviderHook,
        Python,
        "promptkit-exec/provider-hook",
        "",
        "provider_hook.py",
        "provider_hook.scenario.yaml",
        cases: "provider_hook.cases.yaml"
    ),
    template!(
        PromptkitExec,
        ToolHook,
        Python,
        "promptkit-exec/tool-hook",
        "",
        "tool_hook.py",
        "tool_hook.scenario.yaml",
        cases: "tool_hook.cases.yaml"
    ),
    template!(
        PromptkitExec,
        SessionHook,
        Python,
        "promptkit-exec/session-hook",
        "",
        "session_hook.py",
        "session_hook.scenario.yaml",
        cases: "session_hook.cases.yaml"
    ),
    template!(
        PromptkitExec,
        SessionHook,
        Sh,
        "promptkit-exec/session-hook",
        "/sh",
        "session_hook.sh",
        "session_hook.scenario.yaml",
        cases: "session_hook.cases.yaml"
    ),
    template!(PromptkitExec, EvalHook, Python, "promptkit-exec/eval-hook", "", "eval_hook.py", "eval_hook.scenario.yaml"),
    template!(PromptkitExec, EvalHook, Sh, "promptkit-exec/eval-hook", "/sh", "eval_hook.sh", "eval_hook.scenario.yaml"),
    template!(
        PromptkitExec,
        Selector,
        Python,
        "promptkit-exec/selector",
        "",
        "selector.py",
        "selector.scenario.yaml",
        cases: "selector.cases.yaml"
    ),
    template!(
        PromptkitServer,
        Tool,
        Python,
        "promptkit-server/tool",
        "",
        "server_tool.py",
        "server_tool.scenario.yaml",
        cases: "server_tool.cases.yaml"
    ),
    template!(PicoclawHook, Observe, Python, "picoclaw-hook/observe", "", "observe_hook.py", "observe_hook.scenario.yaml"),
    template!(PicoclawHook, Llm, Python, "picoclaw-hook/llm", "", "llm_hook.py", "llm_hook.scenario.yaml", cases: "llm_hook.cases.yaml"),
    template!(
        PicoclawHook,
        ToolMode,
        Python,
        "picoclaw-hook/tool",
        "",
        "tool_hook.py",
        "tool_hook.scenario.yaml",
        cases: "tool_hook.cases.yaml"
    ),
    template!(
        PicoclawHook,
        Approve,
        Python,
        "picoclaw-hook/approve",
        "",
        "approve_hook.py",
        "approve_hook.scenario.yaml",
        cases: "approve_hook.cases.yaml"
    ),
    template!(RunokExtension, Guard, Python, "runok-extension/guard", "", "guard.py", "guard.scenario.yaml", cases: "guard.cases.yaml"),
    template!(RunokExtension, Guard, Sh, "runok-extension/guard", "/sh", "guard.sh", "guard.scenario.yaml", cases: "guard.cases.yaml"),
];

/// Every template: [`ALL`], then the Go and TypeScript ones, then the agents' hooks.
pub fn all() -> impl Iterator<Item = &'static Template> {
    ALL.iter().chain(compiled::ALL).chain(agent_hooks::ALL.iter().flatten())
}

/// The languages that have a template for `family` and `role`.
pub fn langs(family: Family, role: Role) -> Vec<Lang> {
    all().filter(|t| t.family == family && t.role == role).map(|t| t.lang).collect()
}

/// The template for `family`, `role` and `lang`, if there is one.
pub fn find(family: Family, role: Role, lang: Lang) -> Option<&'static Template> {
    all().find(|t| t.family == family && t.role == role && t.lang == lang)
}

/// Where the workflow goes, relative to the folder `init` writes into.
pub const WORKFLOW_PATH: &str = ".github/workflows/proctor.yml";

impl Template {
    /// The files as `init` writes them.
    pub fn rendered(&self) -> Rendered {
        Rendered {
            family: self.family,
            roles: vec![self.role],
            lang: self.lang,
            plugin: (self.plugin.name.to_string(), self.plugin.contents.to_string()),
            cases: self.cases.map(|c| (c.name.to_string(), compiled::cases_for(self.plugin.name, c.contents))),
            scenario: (self.scenario.name.to_string(), agent_hooks::for_family(self.family, self.scenario.contents)),
        }
    }

    /// The plugin's command line, relative to the folder it is written in.
    pub fn command(&self) -> Vec<String> {
        self.lang.command(self.plugin.name)
    }

    /// The `--role` to pass, when the family has more than one role to choose from.
    pub fn role_flag(&self) -> Option<&'static str> {
        (self.family.roles().len() > 1).then(|| self.role.name())
    }

    /// The GitHub Actions workflow that certifies the plugin (see [`Rendered::workflow`]).
    pub fn workflow(&self, action: &str) -> String {
        self.rendered().workflow(action)
    }
}

/// The hook of `proctor init --protocol picoclaw-hook` with no `--role`, or
/// with several: one plugin that answers every mode (as a PicoClaw hook
/// usually does, like proctor's examples/picoclaw-hook/review_gate.py), its
/// cases (those of each chosen mode's own template, whose rules it keeps),
/// and a scenario whose one conversation reaches each chosen mode.
pub const PICOCLAW_MODES: File = template_file!("picoclaw-hook/modes", "", "hook.py");

/// The files for a PicoClaw hook serving `modes` (two or more, in the family's order)
/// in `lang`, when that language has it (sh has no JSON parser to answer them).
pub fn picoclaw_modes(modes: &[Role], lang: Lang) -> Option<Rendered> {
    let plugin = if lang == Lang::Python { PICOCLAW_MODES } else { compiled::picoclaw_modes(lang)? };
    let chosen = |role: Role| modes.contains(&role);
    let names: Vec<&str> = modes.iter().map(|r| r.name()).collect();
    let mut cases = format!(
        "# What {} must decide in modes {} (run with the certify\n# command `proctor init` printed).\ncases:\n",
        plugin.name,
        names.join(", ")
    );
    for role in modes {
        if let Some(own) = find(Family::PicoclawHook, *role, Lang::Python).and_then(|t| t.cases) {
            cases.extend(own.contents.lines().filter(|l| !l.starts_with('#') && *l != "cases:").map(|l| format!("{l}\n")));
        }
    }
    let has_cases = cases.lines().any(|l| l.trim_start().starts_with("- name:"));
    let command = lang.command(plugin.name).join(", ");
    Some(Rendered {
        family: Family::PicoclawHook,
        roles: modes.to_vec(),
        lang,
        plugin: (plugin.name.to_string(), plugin.contents.to_string()),
        cases: has_cases.then(|| ("hook.cases.yaml".to_string(), cases)),
        scenario: ("hook.scenario.yaml".to_string(), modes_scenario(plugin.name, &command, &names, chosen)),
    })
}

/// One conversation that reaches every chosen mode: the turn starts and ends
/// (observe), the LLM is asked (llm), the tool delete_file is refused (tool),
/// a sudo command is not approved (approve); what a mode left out lets through runs.
/// `command` is the plugin's command line as a YAML flow sequence's items.
fn modes_scenario(plugin: &str, command: &str, names: &[&str], chosen: impl Fn(Role) -> bool) -> String {
    let mut config = Vec::new();
    if chosen(Role::Observe) {
        config.push(r#"observe: ["*"]"#.to_string());
    }
    let mut intercept = Vec::new();
    if chosen(Role::Llm) {
        intercept.extend(["before_llm", "after_llm"]);
    }
    if chosen(Role::ToolMode) {
        intercept.extend(["before_tool", "after_tool"]);
    }
    if chosen(Role::Approve) {
        intercept.push("approve_tool");
    }
    if !intercept.is_empty() {
        config.push(format!("intercept: [{}]", intercept.join(", ")));
    }
    let mut decisions = Vec::new();
    let mut decide = |role: Role, call: &str, decision: &str| {
        if chosen(role) {
            decisions.push(format!("    - {{plugin: gate, call: {call}, decision: {decision}}}\n"));
        }
    };
    decide(Role::Observe, "hook.runtime_event", "agent.turn.start");
    decide(Role::Llm, "hook.before_llm", "continue");
    decide(Role::ToolMode, "hook.before_tool", "deny_tool");
    decide(Role::Approve, "hook.approve_tool", "denied");
    decide(Role::Observe, "hook.runtime_event", "agent.turn.end");
    let deleted = if chosen(Role::ToolMode) { "Tool execution denied by hook" } else { "deleted" };
    let installed = if chosen(Role::Approve) { "commands using sudo need a human" } else { "Reading package lists" };
    format!(
        "# A conversation that reaches {plugin} in modes {modes}, played by\n# `proctor run hook.scenario.yaml`.\n\
id: my-plugin/picoclaw-hook-{id}\n\
runtime: picoclaw\n\
plugins:\n  - name: gate\n    process: {{command: [{command}]}}\n    config: {{picoclaw_hook: {{{config}}}}}\n\
tools:\n  delete_file: {{result: deleted}}\n  bash: {{result: \"Reading package lists... Done\"}}\n\
llm:\n  - reply:\n      tool_calls:\n        - {{name: delete_file, arguments: {{path: notes.txt}}}}\n        - {{name: bash, arguments: {{command: \"sudo apt-get install jq\"}}}}\n  - reply: {{text: \"Done what I was allowed to.\", when: {{last_role: tool}}}}\n\
turns:\n  - user: delete notes.txt and install jq\n\
expect:\n  outcome: completed\n  decisions:\n{decisions}  tool_results:\n    - {{tool: delete_file, contains: \"{deleted}\"}}\n    - {{tool: bash, contains: \"{installed}\"}}\n",
        modes = names.join(", "),
        id = names.join("-"),
        config = config.join(", "),
        decisions = decisions.concat(),
    )
}

/// What `proctor init` writes: a template's files, or the PicoClaw hook for several modes.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The `--protocol`.
    pub family: Family,
    /// The roles (PicoClaw: modes) the plugin takes.
    pub roles: Vec<Role>,
    /// The plugin's language.
    pub lang: Lang,
    /// The plugin: file name and contents.
    pub plugin: (String, String),
    /// Its cases, when the roles make decisions a case can expect.
    pub cases: Option<(String, String)>,
    /// A `proctor run` scenario that uses the plugin as a real command.
    pub scenario: (String, String),
}

impl Rendered {
    /// The plugin's command line, relative to the folder it is written in.
    pub fn command(&self) -> Vec<String> {
        self.lang.command(&self.plugin.0)
    }

    /// The commands that build the plugin before it runs, from its folder (none for Python and sh).
    pub fn build(&self) -> Vec<Vec<String>> {
        compiled::build(self.lang, &self.plugin.0)
    }

    /// The files the build needs beside the plugin (`go.mod`; `package.json`, `tsconfig.json`).
    pub fn support(&self) -> &'static [File] {
        compiled::support(self.lang)
    }

    /// The `--role` to pass, when the family has more than one role to choose from.
    pub fn role_flag(&self) -> Option<String> {
        (self.family.roles().len() > 1).then(|| self.roles.iter().map(|r| r.name()).collect::<Vec<_>>().join(","))
    }

    /// The roles as a report names them (`tool` or `observe,llm,tool,approve`).
    pub fn role_names(&self) -> String {
        self.roles.iter().map(|r| r.name()).collect::<Vec<_>>().join(",")
    }

    /// `proctor certify` with this plugin's protocol, role, cases and command, as typed
    /// from the folder it was written in.
    pub fn certify_args(&self) -> Vec<String> {
        let mut args = vec!["certify".to_string(), "--protocol".into(), self.family.name().into()];
        args.extend(self.role_flag().into_iter().flat_map(|r| ["--role".to_string(), r]));
        args.extend(self.cases.iter().flat_map(|c| ["--cases".to_string(), c.0.clone()]));
        args.push("--".into());
        args.extend(self.command());
        args
    }

    /// The GitHub Actions workflow that certifies the plugin on every push and
    /// pull request with proctor's composite action, referred to as `action`
    /// (`./proctor` for a submodule, or `OWNER/REPO@REF`).
    pub fn workflow(&self, action: &str) -> String {
        // Values are written as JSON strings, which YAML reads as double-quoted scalars:
        // whatever the user's `--action` holds, it stays one string.
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let local = action.starts_with("./");
        let mut inputs = vec![("protocol", self.family.name().to_string())];
        inputs.extend(self.role_flag().map(|r| ("role", r)));
        inputs.push(("command", self.command().join(" ")));
        inputs.extend(self.cases.as_ref().map(|c| ("cases", c.0.clone())));
        let mut out = String::new();
        out.push_str(&format!("# Certifies {} with proctor on every push and pull request.\n", self.plugin.0));
        if local {
            out.push_str(&format!(
                "# `uses: {action}` is proctor checked out as a git submodule there\n# (`git submodule add <proctor's repository> {}`); checkout fetches it.\n",
                action.trim_start_matches("./")
            ));
        }
        out.push_str("# The job fails when the plugin is not conformant; the report is in the job summary.\n");
        out.push_str("name: proctor\n\"on\": [push, pull_request]\njobs:\n  certify:\n    runs-on: ubuntu-latest\n    steps:\n");
        out.push_str("      - uses: actions/checkout@v4\n");
        if local {
            out.push_str("        with:\n          submodules: true\n");
        }
        out.push_str(&compiled::workflow_steps(self.lang, &self.plugin.0));
        out.push_str(&format!("      - id: proctor\n        uses: {}\n        with:\n", quote(action)));
        for (name, value) in inputs {
            out.push_str(&format!("          {name}: {}\n", quote(&value)));
        }
        out.push_str(&format!(
            "          # version: \"{}\"  # pin the proctor release pip installs (default: the action's own)\n",
            env!("CARGO_PKG_VERSION")
        ));
        // The reports the action wrote (its defaults), kept with the run, pass or fail.
        out.push_str("      - if: always()\n        uses: actions/upload-artifact@v4\n        with:\n          name: proctor-reports\n");
        out.push_str("          path: |\n            proctor.xml\n            proctor.html\n            proctor.cert.json\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_and_role_certify_knows_has_a_python_template() {
        use proctor_conformance::protocol::agent_hook::HookEvent;
        for family in Family::ALL {
            for role in family.roles() {
                // An agent hook reads every event the same way: the guard and the scanner show both ends.
                let sample = matches!(role, Role::Event(HookEvent::PreToolUse | HookEvent::PostToolUse));
                if family.is_agent_hook() && !sample {
                    continue;
                }
                assert!(find(family, *role, Lang::Python).is_some(), "no Python template for {family} {role}");
            }
        }
    }

    #[test]
    fn each_template_names_its_plugin_in_its_scenario_and_lives_once() {
        let every: Vec<&Template> = all().collect();
        for (i, t) in every.iter().enumerate() {
            let command = format!("[{}]", t.command().join(", "));
            assert!(t.scenario.contents.contains(&command), "{} does not run {command}", t.scenario.name);
            assert!(every[..i].iter().all(|o| (o.family, o.role, o.lang) != (t.family, t.role, t.lang)), "{} twice", t.plugin.name);
            for file in [Some(t.plugin), t.cases, Some(t.scenario)].into_iter().flatten() {
                assert!(!file.contents.contains("example.invalid"), "{} holds a placeholder URL", file.name);
            }
        }
    }

    #[test]
    fn a_local_action_checks_out_submodules_and_a_remote_one_does_not() {
        let t = find(Family::RunokExtension, Role::Guard, Lang::Python).unwrap();
        assert!(t.workflow("./proctor").contains("submodules: true"));
        let remote = t.workflow("acme/proctor@v1");
        assert!(!remote.contains("submodules"), "{remote}");
        assert!(remote.contains("uses: \"acme/proctor@v1\""), "{remote}");
        assert!(!remote.contains("role:"), "runok has one role: {remote}");
    }
}
