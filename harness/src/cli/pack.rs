//! `proctor pack check` and `proctor pack render`: a PromptPack as the spec, PromptKit and
//! promptpack-python each read it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use proctor_pack::render::RenderedPrompt;
use proctor_pack::{PackProfile, PackReport};
use serde_json::Value;

use super::UsageError;

#[derive(Debug, clap::Subcommand)]
pub(super) enum PackCommand {
    /// Check packs: the 1.4.0 shape, every cross-reference, the workflow, the templates.
    ///
    /// Each diagnostic names its JSON pointer, file:line:column, severity, rule
    /// (`proctor checks` lists them) and a one-line fix. Under
    /// promptkit@86d9f36 it also says what PromptKit does with the pack: what
    /// its forked schema refuses, validator types it cannot open, fields it
    /// ignores, placeholders it never fills, workflow states whose prompts it
    /// cannot render without the host's variables. Exit 0 valid under every profile,
    /// 1 invalid under some, 2 when a file cannot be read as a pack.
    #[command(after_help = "Examples:
  proctor pack check examples/promptpack/support.pack.json
  proctor pack check examples/promptpack
  proctor pack check --profile promptkit --format json examples/promptpack/*.pack.json")]
    Check {
        /// A profile to check under (repeatable): documented, promptkit@86d9f36,
        /// promptpack-python@c78e36b. Default: all three.
        #[arg(long = "profile", value_name = "NAME", value_parser = parse_profile)]
        profiles: Vec<PackProfile>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: PackCheckFormat,
        /// Write the report to FILE instead of stdout.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The pack files (JSON or YAML), or folders: every `*.pack.json`,
        /// `*.pack.yaml` and `*.pack.yml` under a folder is checked.
        #[arg(value_name = "PACK|DIR", required = true)]
        packs: Vec<PathBuf>,
    },
    /// Show what the model really gets from one prompt: system prompt, tools, validators.
    ///
    /// Renders the prompt's template as each implementation does. PromptKit's
    /// silent failures are shown as what they are: a missing required
    /// variable replaces the whole prompt with "You are a helpful AI
    /// assistant." and drops its tools (its validators still apply); an unresolved
    /// placeholder (a fragment, `{{ spaced }}`) sends the raw template.
    /// Exit 0 when every profile renders the prompt as written, 1 when one
    /// falls back, sends the raw template or refuses (or the pack is invalid
    /// under it), 2 for usage errors.
    ///
    /// With `--state`, the prompt a workflow state runs, as each profile renders
    /// it for every round in that state: PromptKit renders it again before each
    /// round with the artifacts (`--var artifacts.NAME=...`) and
    /// `workflow_context` only, never the host's variables, so a required host
    /// variable fails every turn there (outcome `error`).
    #[command(after_help = "Examples:
  proctor pack render examples/promptpack/support.pack.json --prompt triage --var company=Acme
  proctor pack render examples/promptpack/support.pack.json --prompt resolve \\
      --vars-file examples/promptpack/support.vars.yaml --profile promptkit
  proctor pack render examples/promptpack/order-desk.pack.json \\
      --state greet --var language=French
  proctor pack render examples/promptpack/order-desk.pack.json \\
      --state taking_notes --var artifacts.notes=late")]
    Render {
        #[arg(value_name = "PACK")]
        pack: PathBuf,
        /// The prompt's key under `prompts`.
        #[arg(long, value_name = "KEY", required_unless_present = "state", conflicts_with = "state")]
        prompt: Option<String>,
        /// A workflow state: render the prompt it runs, as each round in it gets it.
        #[arg(long, value_name = "NAME")]
        state: Option<String>,
        /// A variable's value (repeatable), as the host passes it.
        #[arg(long = "var", value_name = "NAME=VALUE", value_parser = parse_var)]
        vars: Vec<(String, String)>,
        /// Variables from a YAML or JSON file of NAME: VALUE (given --var wins).
        #[arg(long, value_name = "FILE")]
        vars_file: Option<PathBuf>,
        /// A profile to render under (repeatable). Default: all three.
        #[arg(long = "profile", value_name = "NAME", value_parser = parse_profile)]
        profiles: Vec<PackProfile>,
        #[arg(long, value_enum, default_value = "text")]
        format: PackFormat,
    },
}

/// What `pack render` prints.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(super) enum PackFormat {
    Text,
    Json,
}

/// What `pack check` prints.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(super) enum PackCheckFormat {
    /// For people: each diagnostic at file:line:column with its fix.
    Text,
    /// `{"packs": [{file, profile, valid, diagnostics}]}`.
    Json,
    /// One self-contained HTML page to open in a browser: a pack x profile grid and every diagnostic.
    Html,
}

fn parse_var(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() && !k.contains(char::is_whitespace) => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("`{s}` is not NAME=VALUE (e.g. --var company=Acme)")),
    }
}

fn parse_profile(name: &str) -> Result<PackProfile, String> {
    PackProfile::parse(name)
}

fn profiles_or_all(profiles: Vec<PackProfile>) -> Vec<PackProfile> {
    if profiles.is_empty() { PackProfile::ALL.to_vec() } else { profiles }
}

pub(super) fn run(command: PackCommand) -> anyhow::Result<ExitCode> {
    match command {
        PackCommand::Check { profiles, format, output, packs } => check(&profiles_or_all(profiles), format, output.as_deref(), &packs),
        PackCommand::Render { pack, prompt, state, vars, vars_file, profiles, format } => {
            let target = match (prompt, state) {
                (_, Some(state)) => Target::State(state),
                (Some(prompt), None) => Target::Prompt(prompt),
                (None, None) => return Err(UsageError("name a prompt (--prompt KEY) or a workflow state (--state NAME)".into()).into()),
            };
            render(&pack, &target, vars, vars_file.as_deref(), &profiles_or_all(profiles), format)
        }
    }
}

fn check(profiles: &[PackProfile], format: PackCheckFormat, output: Option<&Path>, packs: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let mut reports: Vec<PackReport> = Vec::new();
    let mut unreadable: Vec<(String, String)> = Vec::new();
    let mut files = Vec::new();
    for path in packs {
        match pack_files_under(path) {
            Ok(found) => files.extend(found),
            Err(why) => unreadable.push((path.display().to_string(), why)),
        }
    }
    let mut inputs = crate::output::Inputs::default();
    for path in packs {
        inputs.folder("a pack folder", path, |_, file| pack_file(file));
    }
    for file in &files {
        inputs.file("a pack file", file);
    }
    let named: Vec<(&str, &Path)> = output.map(|out| ("--output", out)).into_iter().collect();
    let mut outputs = crate::output::Outputs::prepare(&named, &inputs)?;
    for path in &files {
        match proctor_pack::load(path) {
            Ok(document) => reports.extend(profiles.iter().map(|p| proctor_pack::check(&document, *p))),
            Err(error) => unreadable.push((path.display().to_string(), error.to_string())),
        }
    }
    let rendered = match format {
        PackCheckFormat::Json => {
            let mut entries: Vec<Value> = reports.iter().map(serde_json::to_value).collect::<Result<_, _>>()?;
            entries.extend(unreadable.iter().map(|(file, error)| serde_json::json!({"file": file, "error": error})));
            format!("{}\n", serde_json::to_string_pretty(&serde_json::json!({"packs": entries}))?)
        }
        // Names, messages and file names come from the pack: escape control and bidi characters.
        PackCheckFormat::Text => crate::report::escape(&check_text(&reports, &unreadable)),
        PackCheckFormat::Html => {
            let given: Vec<String> = packs.iter().map(|p| p.display().to_string()).collect();
            crate::report::html::packs(&reports, &unreadable, &given)
        }
    };
    crate::output::deliver(outputs.take("--output"), &rendered)?;
    Ok(if !unreadable.is_empty() {
        ExitCode::from(2)
    } else if reports.iter().any(|r| !r.valid) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `path` when it is not a folder; else the pack files under it, sorted, or why there are none.
/// The names `pack check` finds in a folder.
const SUFFIXES: [&str; 3] = [".pack.json", ".pack.yaml", ".pack.yml"];

/// Whether `pack check` on a folder reads `file`.
fn pack_file(file: &Path) -> bool {
    file.file_name().is_some_and(|n| SUFFIXES.iter().any(|s| n.to_string_lossy().ends_with(s)))
}

fn pack_files_under(path: &Path) -> Result<Vec<PathBuf>, String> {
    let found = proctor_input::files_under(path, pack_file, usize::MAX).map_err(|e| e.to_string())?;
    if found.is_empty() {
        return Err(format!("{}: no pack files under it ({})", path.display(), SUFFIXES.map(|s| format!("*{s}")).join(", ")));
    }
    Ok(found)
}

fn check_text(reports: &[PackReport], unreadable: &[(String, String)]) -> String {
    let mut out = String::new();
    for report in reports {
        let (errors, warnings) = report.counts();
        let verdict = if report.valid { "valid" } else { "INVALID" };
        let file = crate::report::escape_name(&report.file);
        out.push_str(&format!("{file} under {}: {verdict} ({errors} error(s), {warnings} warning(s))\n", report.profile));
        for d in &report.diagnostics {
            let severity = d.severity.name();
            let path = if d.path.is_empty() { "(the pack)" } else { &d.path };
            out.push_str(&format!(
                "  {}:{}:{}: {severity}[{}] {} (at {path})\n      fix: {}\n",
                file, d.line, d.column, d.rule, d.message, d.fix
            ));
        }
    }
    for (path, error) in unreadable {
        out.push_str(&format!("error: {}\n", error.replace(path.as_str(), &crate::report::escape_name(path))));
    }
    let profiles: std::collections::BTreeSet<&str> = reports.iter().map(|r| r.profile.as_str()).collect();
    let invalid: Vec<String> =
        reports.iter().filter(|r| !r.valid).map(|r| format!("{} under {}", crate::report::escape_name(&r.file), r.profile)).collect();
    let unread = match unreadable.len() {
        0 => String::new(),
        n => format!("; {n} file(s) could not be read as a pack"),
    };
    if reports.is_empty() {
        out.push_str(&format!("\nno pack checked{unread}\n"));
        return out;
    }
    // One line per invalid pack: with eighty packs the summary stays readable.
    out.push_str(&format!(
        "\n{} pack(s) checked under {}: {} of {} verdicts valid{unread}\n",
        reports.len() / profiles.len().max(1),
        profiles.into_iter().collect::<Vec<_>>().join(", "),
        reports.len() - invalid.len(),
        reports.len(),
    ));
    for pack in &invalid {
        out.push_str(&format!("  INVALID {pack}\n"));
    }
    out
}

/// Variables as a host passes them: text. A --vars file may hold numbers and booleans, which each
/// implementation turns into text its own way, so they stay values until a profile is chosen.
/// The values `--vars-file` and `--var` give (a `--var` wins), each with
/// where it was given, for messages.
fn variables(vars: Vec<(String, String)>, file: Option<&Path>) -> anyhow::Result<BTreeMap<String, (Value, String)>> {
    let mut values = BTreeMap::new();
    if let Some(file) = file {
        let text = proctor_input::read_to_string(file, proctor_input::MAX_BYTES).map_err(|e| UsageError(e.to_string()))?;
        if text.trim().is_empty() {
            return Err(
                UsageError(format!("{}: the file is empty; a variables file is a mapping of NAME: VALUE lines", file.display())).into()
            );
        }
        let parsed: BTreeMap<String, Value> = serde_saphyr::from_str_with_options(&text, serde_saphyr::options! { strict_booleans: true })
            .map_err(|e| {
                let name = file.display().to_string();
                UsageError(format!(
                    "{}\nhint: a variables file is a mapping of NAME: VALUE lines",
                    proctor_input::yaml_message(&e.to_string(), &name)
                ))
            })?;
        let from = format!("--vars-file {}", file.display());
        values.extend(parsed.into_iter().map(|(k, v)| (k, (v, from.clone()))));
    }
    values.extend(vars.into_iter().map(|(k, v)| (k.clone(), (Value::String(v), format!("--var {k}")))));
    Ok(values)
}

/// What `pack render` renders: a prompt, or the prompt a workflow state runs each round.
enum Target {
    Prompt(String),
    State(String),
}

fn render(
    pack: &Path,
    target: &Target,
    vars: Vec<(String, String)>,
    vars_file: Option<&Path>,
    profiles: &[PackProfile],
    format: PackFormat,
) -> anyhow::Result<ExitCode> {
    let document = proctor_pack::load(pack).map_err(|e| UsageError(e.to_string()))?;
    let given = variables(vars, vars_file)?;
    let values: BTreeMap<String, Value> = given.iter().map(|(k, (v, _))| (k.clone(), v.clone())).collect();
    let unknown = |e: proctor_pack::render::RenderError| UsageError(format!("{}: {e}", pack.display()));
    let (prompt, state) = match target {
        Target::Prompt(prompt) => (prompt.clone(), None),
        Target::State(state) => (proctor_pack::render::state_prompt(&document.value, state).map_err(unknown)?, Some(state.as_str())),
    };
    if let Ok(declared) = proctor_pack::render::prompt(&document.value, &prompt) {
        // A state's round also takes the names PromptKit's resolver passes: the workflow's artifacts
        // and the brief.
        let passed: Vec<String> = match state {
            Some(_) => std::iter::once("workflow_context".to_string())
                .chain(proctor_pack::render::artifact_names(&document.value).into_iter().map(|a| format!("artifacts.{a}")))
                .collect(),
            None => Vec::new(),
        };
        refuse_unknown_variables(declared, &prompt, &passed, &given)?;
    }
    let mut rendered: Vec<(RenderedPrompt, PackReport)> = Vec::new();
    for profile in profiles {
        let one = match state {
            Some(state) => proctor_pack::render::state_round(&document.value, state, *profile, &values),
            None => proctor_pack::render::render(&document.value, &prompt, *profile, &values),
        }
        .map_err(unknown)?;
        rendered.push((one, proctor_pack::check(&document, *profile)));
    }
    match format {
        PackFormat::Json => {
            let entries: Vec<Value> = rendered
                .iter()
                .map(|(r, report)| {
                    let mut entry = serde_json::to_value(r).unwrap_or_default();
                    entry["pack_valid"] = Value::Bool(report.valid);
                    entry
                })
                .collect();
            crate::output::emit(&format!(
                "{}\n",
                serde_json::to_string_pretty(&serde_json::json!({"file": pack.display().to_string(), "renders": entries}))?
            ));
        }
        PackFormat::Text => crate::output::emit(&crate::report::escape(&render_text(&rendered, state))),
    }
    // Exit 1 when some implementation does not send the prompt as written (a fallback, a raw
    // template or a refusal is what a pack author runs this command to catch), or would not
    // take the pack as it is: a rendering of an invalid pack is no green.
    let as_written = rendered.iter().all(|(r, report)| r.outcome == "rendered" && report.valid);
    Ok(if as_written { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A value given for a name the prompt neither declares nor uses is a typo
/// (`compnay`): every implementation would ignore it and render without it,
/// so it is named, with the names there are.
fn refuse_unknown_variables(
    prompt: &Value,
    key: &str,
    passed: &[String],
    values: &BTreeMap<String, (Value, String)>,
) -> Result<(), UsageError> {
    let mut known = proctor_pack::render::variable_names(prompt);
    known.extend(passed.iter().cloned());
    let names: Vec<&str> = known.iter().map(String::as_str).collect();
    if let Some((given, (_, from))) = values.iter().find(|(g, _)| !names.contains(&g.as_str())) {
        let near = proctor_pack::shape::nearest(given, &names).map(|n| format!("; did you mean `{n}`?")).unwrap_or_default();
        return Err(UsageError(format!(
            "{from}: prompt `{key}` has no variable `{given}` (its variables: {}){near}\nhint: every implementation ignores a value nobody reads, so the prompt would render without it",
            if names.is_empty() { "none".to_string() } else { names.join(", ") }
        )));
    }
    Ok(())
}

fn render_text(rendered: &[(RenderedPrompt, PackReport)], state: Option<&str>) -> String {
    let mut out = String::new();
    for (r, report) in rendered {
        let what = match state {
            Some(state) => format!("state `{state}` (prompt `{}`), each round,", r.prompt),
            None => format!("prompt `{}`", r.prompt),
        };
        out.push_str(&format!("=== {what} under {}: {} ===\n", r.profile, r.outcome));
        if !report.valid {
            let (errors, _) = report.counts();
            // PromptKit opens some invalid packs and fails later (raw templates, workflow turns).
            let refuses = PackProfile::parse(&r.profile)
                .is_ok_and(|profile| report.diagnostics.iter().any(|d| proctor_pack::check::refuses_to_open(d, profile)));
            let opens = match (r.profile.starts_with("promptkit"), refuses) {
                (true, true) => "PromptKit may refuse to open it; ",
                (true, false) => "PromptKit opens it and fails at run time; ",
                (false, _) => "",
            };
            out.push_str(&format!("!! the pack has {errors} error(s) under this profile: {opens}see `proctor pack check`\n"));
        }
        if let Some(explanation) = &r.explanation {
            out.push_str(&format!("!! {explanation}\n"));
        }
        out.push_str("--- system prompt ---\n");
        if r.outcome == "error" {
            out.push_str("(none: the turn fails before the model is asked)");
        }
        out.push_str(&r.system_prompt);
        if !r.system_prompt.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("--- tools offered ({}) ---\n", r.tools.len()));
        for tool in &r.tools {
            let parameters = tool.get("parameters").map(|p| format!(" parameters {p}")).unwrap_or_default();
            out.push_str(&format!(
                "  {}: {}{parameters}\n",
                tool["name"].as_str().unwrap_or_default(),
                tool["description"].as_str().unwrap_or_default()
            ));
        }
        for dropped in &r.dropped_tools {
            out.push_str(&format!("  (not offered) {dropped}\n"));
        }
        out.push_str(&format!("--- validators ({}) ---\n", r.validators.len()));
        for validator in &r.validators {
            out.push_str(&format!("  {validator}\n"));
        }
        for skipped in &r.skipped_validators {
            out.push_str(&format!("  (inactive) {skipped}\n"));
        }
        for note in &r.notes {
            out.push_str(&format!("note: {note}\n"));
        }
        out.push('\n');
    }
    out
}
