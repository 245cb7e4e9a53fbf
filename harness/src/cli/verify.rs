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
    if args.records.is_empty() && args.journal.is_none() {
        return Err(UsageError(
            "nothing to verify: give the mock plugins' records (--record DIR) and/or the mock provider's journal (--journal FILE)".into(),
        )
        .into());
    }
    let mut outputs = outputs(&args, &scenario)?;
    let mut judging = args.judging.validate()?;
    let evidence = read_evidence(&args.records, args.journal.as_deref()).map_err(|e| UsageError(e.to_string()))?;
    let profile = profile_for(&scenario, args.profile.as_deref()).map_err(|e| UsageError(e.to_string()))?;
    let mut report = verify(&scenario, &evidence, profile).map_err(|e| UsageError(format!("{}: {e}", args.scenario.display())))?;
    report.title = Some(format!("proctor verify --scenario {} (what the runtime sent)", args.scenario.display()));
    args.judging.apply(&mut report, &mut judging)?;
    let rendered = render(&report, args.format, args.output.is_none() && crate::output::stdout_wants_color());
    crate::output::deliver(outputs.take("--output"), &rendered)?;
    Ok(if report.verdict == Verdict::Conformant { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Before anything runs: neither the report nor `--write-baseline` may replace
/// the scenario, the journal, a record (or land among the records a `--record`
/// folder holds), the scenario's pack or the other output; the report may not
/// replace the `--baseline` either.
fn outputs(args: &VerifyArgs, scenario: &crate::scenario::Scenario) -> Result<crate::output::Outputs, UsageError> {
    let mut inputs = crate::output::Inputs::default();
    inputs.file("the --scenario file", &args.scenario);
    super::run::scenario_inputs(&mut inputs, &args.scenario, scenario, &std::env::current_dir().unwrap_or_default());
    if let Some(journal) = &args.journal {
        inputs.file("the --journal file", journal);
    }
    for record in &args.records {
        inputs.folder("a --record folder", record, |folder, file| {
            file.parent() == Some(folder) && file.extension().is_some_and(|e| e == "jsonl")
        });
    }
    let rewrite = args.judging.write_baseline_file().map(|p| ("--write-baseline", p));
    if let (Some(out), Some(baseline)) = (&args.output, args.judging.baseline_file()) {
        let mut with_baseline = crate::output::Inputs::default();
        with_baseline.file("the --baseline file", baseline);
        crate::output::refuse_clobbering(&[("--output", out)], &with_baseline)?;
    }
    let report: Vec<_> = args.output.as_deref().map(|p| ("--output", p)).into_iter().collect();
    let all: Vec<_> = report.iter().copied().chain(rewrite).collect();
    crate::output::refuse_clobbering(&all, &inputs)?;
    crate::output::Outputs::prepare(&report, &inputs)
}
