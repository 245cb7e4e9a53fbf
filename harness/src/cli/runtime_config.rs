//! `proctor certify --runtime-config FILE [--pack PACK]`: every exec plugin a PromptKit RuntimeConfig
//! binds, each certified in its role as `proctor certify` would, in one report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use proctor_conformance::certify::fuzz::{Fuzz, ToolSchema};
use proctor_conformance::certify::{CasesFile, Report, Verdict};
use proctor_conformance::protocol::{Family, Profile};
use proctor_conformance::transport::PluginCommand;
use proctor_pack::runtime_config::{Binding, HookKind, RuntimeConfig, Section};
use serde_json::{Value, json};

use super::certify::{DEFAULT_TIMEOUT_MS, Plan, WrittenIn, judge, roles};
use super::{CertifyArgs, UsageError};
use crate::output;
use crate::report::html::Plugin;
use crate::report::{Format, render};

/// One binding, certified, or why it could not be: a missing script, a broken
/// cases file. That is the config author's mistake, said at the binding's
/// place; the other bindings are still judged.
struct Judged {
    binding: Binding,
    family: Family,
    role: &'static str,
    cases: Option<PathBuf>,
    report: Result<Report, String>,
}

impl Judged {
    fn conformant(&self) -> bool {
        self.report.as_ref().is_ok_and(|r| r.verdict == Verdict::Conformant)
    }
}

pub(super) fn run(args: &CertifyArgs, path: &Path) -> anyhow::Result<ExitCode> {
    let config = proctor_pack::runtime_config::load(path).map_err(|e| UsageError(e.to_string()))?;
    let pack = args.pack.as_deref().map(proctor_pack::load).transpose().map_err(|e| UsageError(e.to_string()))?;
    let mut outputs = outputs(args, path, &config)?;
    if args.fuzz.is_some() && pack.is_none() {
        return Err(UsageError("--fuzz with --runtime-config needs --pack: the tools' parameters are taken from the pack".into()).into());
    }
    let mut notes = pack.as_ref().map(|p| pack_notes(&config, &p.value)).unwrap_or_default();
    notes.extend(
        config.not_exec.iter().map(|t| format!("spec.tools.{t} is not an exec binding (mock, HTTP, MCP or client): no plugin to certify")),
    );
    notes.extend(config.unknown_keys.iter().cloned());
    let mut judged = Vec::new();
    for binding in &config.bindings {
        let (family, role) = family_and_role(binding);
        if !args.no_progress {
            let command = crate::report::escape(&binding.command.join(" "));
            eprintln!("certifying {} ({} {role}): {command}", crate::report::escape(&binding.label()), family.name());
        }
        let profiles = if args.profiles.is_empty() {
            Profile::for_family(family).to_vec()
        } else {
            args.profiles.iter().map(|p| Profile::parse(family, p).map_err(|e| UsageError(e.to_string()))).collect::<Result<_, _>>()?
        };
        let cases = cases_beside(binding, &config);
        let report = certify_binding(
            args,
            &config,
            pack.as_ref().map(|p| &p.value),
            binding,
            (family, role),
            profiles,
            cases.as_deref(),
            &mut notes,
        )
        .map_err(|e| format!("{}:{}:{}: {}: {e:#}", config.file.display(), binding.line, binding.column, binding.label()));
        if let (Err(e), false) = (&report, args.no_progress) {
            eprintln!("error: {}", crate::report::escape(e));
        }
        judged.push(Judged { binding: binding.clone(), family, role, cases, report });
    }
    let rendered = match args.format {
        Format::Json => format!("{}\n", serde_json::to_string_pretty(&as_json(path, args.pack.as_deref(), &judged, &notes))?),
        Format::Junit => crate::report::junit::render_many(
            &format!("proctor certify --runtime-config {}", path.display()),
            &judged.iter().filter_map(|j| j.report.as_ref().ok()).collect::<Vec<_>>(),
            &judged.iter().filter_map(|j| Some((j.binding.label(), j.report.as_ref().err()?.clone()))).collect::<Vec<_>>(),
        ),
        Format::Html => {
            let plugins: Vec<Plugin> =
                judged.iter().map(|j| Plugin { heading: heading(j), report: j.report.as_ref().map_err(String::as_str) }).collect();
            crate::report::html::runtime_config(&path.display().to_string(), verdict(&judged), &plugins, &notes)
        }
        // Labels, commands and notes come from the config file: escaped for the terminal.
        Format::Markdown | Format::Text => crate::report::escape(&as_text(path, &judged, &notes, args.format)),
    };
    output::deliver(outputs.take("--output"), &rendered)?;
    Ok(match verdict(&judged) {
        "error" => ExitCode::from(2),
        "conformant" => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// Before anything runs: the report can be written and replaces nothing the
/// run reads: the RuntimeConfig, `--pack`, and every binding's program,
/// scripts and the cases file found beside its script.
fn outputs(args: &CertifyArgs, path: &Path, config: &RuntimeConfig) -> Result<output::Outputs, UsageError> {
    let mut inputs = output::Inputs::default();
    inputs.file("the --runtime-config file", path);
    if let Some(pack) = &args.pack {
        inputs.file("the --pack file", pack);
    }
    for binding in &config.bindings {
        let what = format!("binding `{}`", binding.label());
        if let Some(mut command) = PluginCommand::new(binding.command.clone()) {
            command.cwd = Some(config.dir.clone());
            inputs.command(&what, &command);
        }
        if let Some(cases) = cases_beside(binding, config) {
            inputs.file(format!("the cases file of {what}"), &cases);
        }
    }
    let named: Vec<(&str, &Path)> = args.output.as_deref().map(|out| ("--output", out)).into_iter().collect();
    output::Outputs::prepare(&named, &inputs)
}

/// `error` when a plugin could not be judged, `conformant` when every plugin is, else `nonconformant`.
fn verdict(judged: &[Judged]) -> &'static str {
    match (judged.iter().any(|j| j.report.is_err()), judged.iter().all(Judged::conformant)) {
        (true, _) => "error",
        (false, true) => "conformant",
        (false, false) => "nonconformant",
    }
}

/// A binding in one line: where it is, how PromptKit speaks to it, what it runs.
fn heading(j: &Judged) -> String {
    let cases = j.cases.as_ref().map(|c| format!(", cases {}", c.display())).unwrap_or_default();
    format!("{} (line {}): {} {} — {}{cases}", j.binding.label(), j.binding.line, j.family.name(), j.role, j.binding.command.join(" "))
}

/// Certifies one binding in its role, as `proctor certify` would.
#[allow(clippy::too_many_arguments)]
fn certify_binding(
    args: &CertifyArgs,
    config: &RuntimeConfig,
    pack: Option<&Value>,
    binding: &Binding,
    (family, role): (Family, &'static str),
    profiles: Vec<Profile>,
    cases_path: Option<&Path>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Report> {
    let roles = roles(family, Some(role))?;
    let cases = match cases_path {
        Some(p) => {
            let cases = CasesFile::load(p).map_err(|e| UsageError(e.to_string()))?;
            cases.check_applicable(family, &roles, p).map_err(|e| UsageError(e.to_string()))?;
            Some(cases)
        }
        None => None,
    };
    let fuzz = match (args.fuzz, binding.section, pack.and_then(|p| p.get("tools")?.get(&binding.name))) {
        (Some(inputs), Section::Tool, Some(tool)) => {
            Some(Fuzz { inputs, seed: args.fuzz_seed, tool: ToolSchema::from_document(tool.clone(), Some(&binding.name)) })
        }
        _ => None,
    };
    let mut command = PluginCommand::new(binding.command.clone()).ok_or_else(|| UsageError("empty command".into()))?;
    command.env_remove = crate::context::UNBUFFERING_VARIABLES.iter().map(|v| v.to_string()).collect();
    command.env = environment(binding, &args.env);
    command.cwd = Some(config.dir.clone());
    let plan = Plan {
        family,
        roles,
        profiles,
        command,
        cases,
        fuzz,
        require: Vec::new(),
        timeout_ms: timeout_ms(binding, notes),
        left_out: args.judging.left_out(),
        written_in: WrittenIn::Binding,
    };
    let mut report = judge(plan, !args.no_progress)?;
    report.title = Some(format!("proctor certify {} ({})", binding.label(), config.file.display()));
    args.judging.apply(&mut report, &mut super::judging::Checked::default())?;
    Ok(report)
}

/// The protocol family and role PromptKit speaks to a binding with.
fn family_and_role(binding: &Binding) -> (Family, &'static str) {
    match (binding.section, binding.hook) {
        (Section::Tool, _) if binding.server => (Family::PromptkitServer, "tool"),
        (Section::Tool, _) => (Family::PromptkitExec, "tool"),
        (Section::Eval, _) => (Family::PromptkitExec, "eval"),
        (Section::Selector, _) => (Family::PromptkitExec, "selector"),
        (Section::Hook, Some(HookKind::Provider)) => (Family::PromptkitExec, "provider-hook"),
        (Section::Hook, Some(HookKind::Tool)) => (Family::PromptkitExec, "tool-hook"),
        (Section::Hook, Some(HookKind::Session)) => (Family::PromptkitExec, "session-hook"),
        (Section::Hook, _) => (Family::PromptkitExec, "eval-hook"),
    }
}

/// How long PromptKit waits for a binding. Evals, hooks and selectors honour `timeout_ms`; an exec
/// tool's is copied into its ExecConfig and never read: the tool registry's deadline applies, 30 s
/// unless the host changed it (PromptKit 86d9f367 runtime/tools/registry.go `DefaultToolTimeout`,
/// sdk/exec_tools.go). Said in the report, because the author wrote a number that does nothing.
fn timeout_ms(binding: &Binding, notes: &mut Vec<String>) -> u64 {
    const PROMPTKIT_TOOL_TIMEOUT_MS: u64 = 30_000;
    if binding.section != Section::Tool {
        return binding.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    }
    if let Some(ms) = binding.timeout_ms.filter(|&ms| ms != PROMPTKIT_TOOL_TIMEOUT_MS) {
        notes.push(format!(
            "{} sets timeout_ms: {ms}, which PromptKit never applies to an exec tool: its registry's 30000 ms does, and so it does here",
            binding.label()
        ));
    }
    PROMPTKIT_TOOL_TIMEOUT_MS
}

/// The binding's `env:` names with their values: `--env` first, then proctor's own environment
/// (PromptKit reads them from its host). A name set nowhere is left out, as PromptKit leaves it.
fn environment(binding: &Binding, given: &[(String, String)]) -> Vec<(String, String)> {
    binding
        .env
        .iter()
        .filter_map(|name| {
            let value = given.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).or_else(|| std::env::var(name).ok())?;
            Some((name.clone(), value))
        })
        .collect()
}

/// `X.cases.yaml` beside a script the binding runs (`./hooks/x.py` → `./hooks/x.cases.yaml`).
fn cases_beside(binding: &Binding, config: &RuntimeConfig) -> Option<PathBuf> {
    binding.command.iter().map(|arg| config.dir.join(arg)).filter(|p| p.is_file()).find_map(|script| {
        let cases = script.with_extension("cases.yaml");
        cases.is_file().then_some(cases)
    })
}

/// What the pack and the config say about each other: tools bound to nothing in the pack, pack tools
/// and eval types with no binding.
fn pack_notes(config: &RuntimeConfig, pack: &Value) -> Vec<String> {
    let mut notes = Vec::new();
    let tools: Vec<&str> = pack.get("tools").and_then(Value::as_object).into_iter().flat_map(|m| m.keys().map(String::as_str)).collect();
    let prompts = pack.get("prompts").and_then(Value::as_object).into_iter().flat_map(|m| m.values());
    let eval_types: Vec<&str> = pack
        .get("evals")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .chain(prompts.filter_map(|p| p.get("evals")?.as_array()).flatten())
        .filter_map(|e| e.get("type")?.as_str())
        .collect();
    for binding in &config.bindings {
        match binding.section {
            Section::Tool if !tools.contains(&binding.name.as_str()) => notes.push(format!(
                "{} binds tool `{}`, which the pack does not define: PromptKit never offers it to the model",
                binding.label(),
                binding.name
            )),
            Section::Eval if !eval_types.contains(&binding.name.as_str()) => {
                notes.push(format!("{} binds eval type `{}`, which no eval of the pack uses: it never runs", binding.label(), binding.name))
            }
            _ => {}
        }
    }
    let bound = |section: Section, name: &str| {
        config.bindings.iter().any(|b| b.section == section && b.name == name) || config.not_exec.iter().any(|t| t == name)
    };
    for tool in tools.iter().filter(|t| !bound(Section::Tool, t)) {
        notes.push(format!("pack tool `{tool}` has no binding in spec.tools: PromptKit has nothing to run when the model calls it"));
    }
    notes
}

fn as_json(path: &Path, pack: Option<&Path>, judged: &[Judged], notes: &[String]) -> Value {
    json!({
        "runtime_config": path.display().to_string(),
        "pack": pack.map(|p| p.display().to_string()),
        "verdict": verdict(judged),
        "notes": notes,
        "plugins": judged.iter().map(|j| json!({
            "binding": j.binding.label(),
            "line": j.binding.line,
            "column": j.binding.column,
            "protocol": j.family.name(),
            "role": j.role,
            "command": j.binding.command,
            "cases": j.cases.as_ref().map(|c| c.display().to_string()),
            "report": j.report.as_ref().ok().and_then(|r| serde_json::to_value(r).ok()),
            "error": j.report.as_ref().err(),
        })).collect::<Vec<_>>(),
    })
}

fn as_text(path: &Path, judged: &[Judged], notes: &[String], format: Format) -> String {
    let markdown = format == Format::Markdown;
    let mut out = String::new();
    for j in judged {
        let heading = heading(j);
        out.push_str(&if markdown { format!("## {heading}\n\n") } else { format!("══ {heading}\n") });
        match &j.report {
            Ok(report) => out.push_str(&render(report, format, false)),
            Err(why) => out.push_str(&format!("ERROR {}\n", crate::report::escape(why).replace('\n', "\n      "))),
        }
        out.push('\n');
    }
    let conformant = judged.iter().filter(|j| j.conformant()).count();
    let errors = judged.iter().filter(|j| j.report.is_err()).count();
    out.push_str(&if markdown {
        format!("## {} ({} plugins)\n\n", path.display(), judged.len())
    } else {
        format!("RuntimeConfig {} ({} plugins)\n", path.display(), judged.len())
    });
    for j in judged {
        let (verdict, sentence) = match &j.report {
            Ok(r) if r.verdict == Verdict::Conformant => ("conformant", r.verdict_sentence()),
            Ok(r) => ("NONCONFORMANT", r.verdict_sentence()),
            Err(_) => ("ERROR", format!("not judged: see line {}", j.binding.line)),
        };
        let line = format!("{:<40} {:<30} {verdict:<14} {sentence}", j.binding.label(), format!("{} {}", j.family.name(), j.role));
        out.push_str(&if markdown { format!("- {line}\n") } else { format!("  {line}\n") });
    }
    for note in notes {
        out.push_str(&format!("note: {note}\n"));
    }
    let not_judged = if errors > 0 { format!(", {errors} could not be judged (exit 2)") } else { String::new() };
    out.push_str(&format!("{}: {conformant} of {} plugins conformant{not_judged}\n", verdict(judged).to_uppercase(), judged.len()));
    out
}
