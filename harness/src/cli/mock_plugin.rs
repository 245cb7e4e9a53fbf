//! `proctor mock-plugin`: the scripted plugin, as a process, configured by
//! flags or by a scenario's plugin entry.

use std::process::ExitCode;

use proctor_conformance::protocol::{Family, Role};
use proctor_mocks::plugin::{Decision, Fault, MockPluginConfig, Script};

use super::{MockPluginArgs, UsageError};
use crate::scenario::{Process, load};

pub(super) fn run(args: MockPluginArgs) -> anyhow::Result<ExitCode> {
    if args.list_faults {
        crate::output::emit(&list_faults(&args)?);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.script {
        return run_script(path, &args);
    }
    let config = match (&args.scenario, &args.plugin) {
        (Some(path), Some(name)) => from_scenario(path, name, &args)?,
        _ => from_flags(&args)?,
    };
    let code = match record(args.record.as_deref(), args.scenario.as_deref().map(|s| ("the --scenario file", s)))? {
        Some((path, file)) => proctor_mocks::plugin::run_recording(&config, file)
            .map_err(|e| UsageError(format!("cannot write the record {}: {e}", path.display())))?,
        None => proctor_mocks::plugin::run(&config),
    };
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}

/// `--script FILE`: a plugin whose every byte the file dictates (see
/// [`proctor_mocks::plugin::script`]).
fn run_script(path: &std::path::Path, args: &MockPluginArgs) -> anyhow::Result<ExitCode> {
    let family = json_protocol(args.protocol.ok_or_else(|| UsageError("--protocol is required".into()))?)?;
    if let Some(r) = &args.role {
        // The script decides every answer; the role is only checked for typos.
        Role::parse_list(family, r).map_err(|e| UsageError(e.to_string()))?;
    }
    let text = std::fs::read_to_string(path).map_err(|e| UsageError(format!("cannot read the script {}: {e}", path.display())))?;
    let script = Script::parse(family, &text).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let code = match record(args.record.as_deref(), Some(("the --script file", path)))? {
        Some((record, file)) => proctor_mocks::plugin::run_script_recording(&script, file)
            .map_err(|e| UsageError(format!("cannot write the record {}: {e}", record.display())))?,
        None => proctor_mocks::plugin::run_script(&script),
    };
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}

/// `--record FILE`, opened for appending (one file can hold many one-shot
/// runs), unless it would replace `read` (the scenario or script the mock
/// plays): the record would destroy it.
fn record<'a>(
    record: Option<&'a std::path::Path>,
    read: Option<(&str, &std::path::Path)>,
) -> Result<Option<(&'a std::path::Path, std::fs::File)>, UsageError> {
    let Some(path) = record else { return Ok(None) };
    let mut inputs = crate::output::Inputs::default();
    if let Some((what, file)) = read {
        inputs.file(what, file);
    }
    let mut outputs = crate::output::Outputs::prepare(&[("--record", path)], &inputs)?;
    let target = outputs.take("--record").ok_or_else(|| UsageError("--record was not prepared".into()))?;
    Ok(Some((path, target.into_file(true)?)))
}

/// Every fault with its kind; with `--protocol` (and `--role`), only the
/// faults that change something there, so a harness that sweeps the faults
/// (interop/fidelity.py) never runs a pair that cannot fail.
fn list_faults(args: &MockPluginArgs) -> Result<String, UsageError> {
    let roles = match (args.protocol, &args.role) {
        (Some(family), Some(r)) => Role::parse_list(family, r).map_err(|e| UsageError(e.to_string()))?,
        (Some(family), None) => family.roles().to_vec(),
        (None, Some(_)) => return Err(UsageError("--role needs --protocol".into())),
        (None, None) => Vec::new(),
    };
    let applies = |f: Fault| match args.protocol {
        None => true,
        Some(family) if roles.is_empty() => f.applies_to_family(family),
        Some(family) => roles.iter().any(|&r| f.applies_to(family, r)),
    };
    Ok(Fault::ALL
        .iter()
        .filter(|&&f| applies(f))
        .map(|f| format!("{:<24} {:<11} {}\n", f.name(), format!("{:?}", f.kind()), f.description()))
        .collect())
}

fn parse_faults(names: &[String]) -> Result<Vec<Fault>, UsageError> {
    names.iter().map(|f| f.parse::<Fault>().map_err(|e| UsageError(e.to_string()))).collect()
}

fn parse_decision(name: Option<&str>) -> Result<Decision, UsageError> {
    name.unwrap_or("allow").parse().map_err(|e: proctor_conformance::protocol::UnknownName| UsageError(e.to_string()))
}

/// mock-plugin plays the JSON protocols; a command hook is any script that writes fixed bytes.
fn json_protocol(family: Family) -> Result<Family, UsageError> {
    if family.is_agent_hook() {
        return Err(UsageError(format!(
            "mock-plugin does not play {family}: a command hook answers with an exit status, stdout and stderr, which a three-line sh script plays exactly\nhint: see examples/agent-hooks and examples/broken/exit2_stdout_hook.sh"
        )));
    }
    Ok(family)
}

fn from_flags(args: &MockPluginArgs) -> Result<MockPluginConfig, UsageError> {
    let family = json_protocol(args.protocol.ok_or_else(|| UsageError("--protocol is required".into()))?)?;
    let roles = match &args.role {
        Some(r) => Role::parse_list(family, r).map_err(|e| UsageError(e.to_string()))?,
        None => Vec::new(),
    };
    let faults = parse_faults(&args.faults)?;
    crash_after_needs_its_fault(args.crash_after, &faults)?;
    Ok(MockPluginConfig { family, roles, faults, decision: parse_decision(args.decision.as_deref())?, crash_after: args.crash_after })
}

/// `--crash-after N` is read by the `crash-after` fault alone: without it the mock never crashes,
/// and a harness relying on the crash would test nothing.
fn crash_after_needs_its_fault(crash_after: Option<u32>, faults: &[Fault]) -> Result<(), UsageError> {
    match crash_after {
        Some(n) if !faults.contains(&Fault::CrashAfter) => Err(UsageError(format!(
            "--crash-after {n} is read by the crash-after fault only, which is not given: the mock would never crash\nhint: add --fault crash-after"
        ))),
        _ => Ok(()),
    }
}

/// The scenario's plugin entry decides; flags given as well are added to it.
fn from_scenario(path: &std::path::Path, name: &str, args: &MockPluginArgs) -> anyhow::Result<MockPluginConfig> {
    let scenario = load(path).map_err(|e| UsageError(e.to_string()))?;
    let plugin = scenario.plugins.iter().find(|p| p.name == name).ok_or_else(|| {
        UsageError(format!(
            "{}: no plugin named `{name}`; plugins: {}",
            path.display(),
            scenario.plugins.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
        ))
    })?;
    let Process::Mock(spec) = &plugin.process else {
        return Err(UsageError(format!(
            "{}: plugin `{name}` runs a real command; only `process: {{mock: …}}` plugins can be played",
            path.display()
        ))
        .into());
    };
    let (family, roles) = plugin.protocol();
    let mut faults = parse_faults(&spec.faults)?;
    faults.extend(parse_faults(&args.faults)?);
    let decision = parse_decision(args.decision.as_deref().or(spec.decision.as_deref()))?;
    let crash_after = args.crash_after.or(spec.crash_after);
    crash_after_needs_its_fault(crash_after, &faults)?;
    Ok(MockPluginConfig { family, roles, faults, decision, crash_after })
}
