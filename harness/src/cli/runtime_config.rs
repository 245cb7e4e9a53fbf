//! `proctor certify --runtime-config FILE [--pack PACK]`: every exec plugin a PromptKit RuntimeConfig
//! binds, each certified in its role as `proctor certify` would, in one report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use proctor_conformance::certify::fuzz::{Fuzz, ToolSchema};
use proctor_conformance::certify::{CasesFile, Report};
use proctor_conformance::protocol::{Family, Profile};
use proctor_conformance::transport::PluginCommand;
use proctor_pack::runtime_config::{Binding, HookKind, RuntimeConfig, Section};
use serde_json::Value;

use super::certify::{Plan, WrittenIn, judge, roles};
use super::{CertifyArgs, UsageError};
use crate::output;
use crate::report::runtime_config::{BoundPlugin, Checked};

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
        judged.push(BoundPlugin { binding: binding.clone(), family, role, cases, report });
    }
    let checked = Checked { path: path.to_path_buf(), pack: args.pack.clone(), plugins: judged, notes };
    let rendered = crate::report::runtime_config::render(&checked, args.format)?;
    output::deliver(outputs.take("--output"), &rendered)?;
    super::certify::write_reports(&mut outputs, &args.reports, |format| Ok(crate::report::runtime_config::render(&checked, format)?))?;
    Ok(match checked.verdict() {
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
    let labels: Vec<String> = args.reports.iter().map(|(format, _)| format.report_flag()).collect();
    let mut named: Vec<(&str, &Path)> = args.output.as_deref().map(|out| ("--output", out)).into_iter().collect();
    named.extend(labels.iter().zip(&args.reports).map(|(label, (_, path))| (label.as_str(), path.as_path())));
    output::Outputs::prepare(&named, &inputs)
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
        timeout: timeout(binding, notes),
        jobs: super::certify::jobs(args.jobs),
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
/// `None`: the runtime's own deadline for the surface, per profile.
fn timeout(binding: &Binding, notes: &mut Vec<String>) -> Option<std::time::Duration> {
    const PROMPTKIT_TOOL_TIMEOUT_MS: u64 = 30_000;
    if binding.section != Section::Tool {
        return binding.timeout_ms.map(std::time::Duration::from_millis);
    }
    if let Some(ms) = binding.timeout_ms.filter(|&ms| ms != PROMPTKIT_TOOL_TIMEOUT_MS) {
        notes.push(format!(
            "{} sets timeout_ms: {ms}, which PromptKit never applies to an exec tool: its registry's 30000 ms does, and so it does here",
            binding.label()
        ));
    }
    None
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
