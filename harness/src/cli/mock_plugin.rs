//! `proctor mock-plugin`: the scripted plugin, as a process.

use std::process::ExitCode;

use proctor_conformance::protocol::Role;
use proctor_mocks::plugin::{Decision, Fault, MockPluginConfig};

use super::{MockPluginArgs, UsageError};

pub(super) fn run(args: MockPluginArgs) -> anyhow::Result<ExitCode> {
    if args.list_faults {
        for fault in Fault::ALL {
            println!("{:<24} {:?}", fault.name(), fault.kind());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let family = args.protocol.ok_or_else(|| UsageError("--protocol is required".into()))?;
    let roles = match &args.role {
        Some(r) => Role::parse_list(family, r).map_err(|e| UsageError(e.to_string()))?,
        None => Vec::new(),
    };
    let faults = args
        .faults
        .iter()
        .map(|f| f.parse::<Fault>().map_err(|e| UsageError(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    let decision: Decision = args.decision.parse().map_err(|e: proctor_conformance::protocol::UnknownName| UsageError(e.to_string()))?;
    let config = MockPluginConfig { family, roles, faults, decision, crash_after: args.crash_after };
    let code = proctor_mocks::plugin::run(&config);
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}
