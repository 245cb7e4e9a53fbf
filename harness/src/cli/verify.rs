//! `proctor verify`: judge what a runtime sent to the scenario's mock
//! plugins (their records) and to the mock provider (its journal).

use std::process::ExitCode;

use proctor_conformance::certify::Verdict;

use super::{UsageError, VerifyArgs};
use crate::report::render;
use crate::scenario::load;
use crate::verify::{profile_for, read_evidence, verify};

pub(super) fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let scenario = load(&args.scenario).map_err(|e| UsageError(e.to_string()))?;
    let baseline = args.judging.validate()?;
    if args.records.is_empty() && args.journal.is_none() {
        return Err(UsageError(
            "nothing to verify: give the mock plugins' records (--record DIR) and/or the mock provider's journal (--journal FILE)".into(),
        )
        .into());
    }
    if let Some(out) = &args.output {
        let mut inputs: Vec<(&str, &std::path::Path)> = vec![("the --scenario file", args.scenario.as_path())];
        inputs.extend(args.journal.as_deref().map(|j| ("the --journal file", j)));
        inputs.extend(args.records.iter().map(|r| ("a --record path", r.as_path())));
        crate::output::refuse_clobbering(&[("--output", out)], &inputs).map_err(UsageError)?;
    }
    let evidence = read_evidence(&args.records, args.journal.as_deref()).map_err(|e| UsageError(e.to_string()))?;
    let profile = profile_for(&scenario, args.profile.as_deref()).map_err(|e| UsageError(e.to_string()))?;
    let mut report = verify(&scenario, &evidence, profile).map_err(|e| UsageError(format!("{}: {e}", args.scenario.display())))?;
    report.title = Some(format!("proctor verify --scenario {} (what the runtime sent)", args.scenario.display()));
    args.judging.apply(&mut report, baseline.as_ref())?;
    let rendered = render(&report, args.format, args.output.is_none() && crate::output::stdout_wants_color());
    match &args.output {
        Some(path) => crate::output::write_atomically(path, rendered.as_bytes())?,
        None => crate::output::emit(&rendered),
    }
    Ok(if report.verdict == Verdict::Conformant { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
