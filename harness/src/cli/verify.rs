//! `proctor verify`: judge what a runtime sent to the scenario's mock
//! plugins, from their records (`proctor mock-plugin --record`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use proctor_conformance::certify::{Report, Verdict};
use proctor_conformance::protocol::Profile;
use proctor_conformance::verify::{Received, parse_record, verify};

use super::{UsageError, VerifyArgs};
use crate::report::render;
use crate::scenario::{Process, load};

pub(super) fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let scenario = load(&args.scenario).map_err(|e| UsageError(e.to_string()))?;
    let files = record_files(&args.records)?;
    let mut received = Vec::new();
    for plugin in scenario.plugins.iter().filter(|p| matches!(p.process, Process::Mock(_))) {
        let (family, roles) = plugin.protocol();
        let file = files.iter().find(|f| f.file_stem().is_some_and(|s| s == plugin.name.as_str()));
        let sessions = match file {
            Some(f) => {
                let text = std::fs::read_to_string(f).map_err(|e| UsageError(format!("cannot read {}: {e}", f.display())))?;
                parse_record(&text).map_err(|e| UsageError(format!("{}: {e}", f.display())))?
            }
            None => Vec::new(),
        };
        received.push(Received { plugin: plugin.name.clone(), family, roles, sessions });
    }
    if received.is_empty() {
        return Err(UsageError(format!("{}: no `process: {{mock: …}}` plugin to verify against", args.scenario.display())).into());
    }
    let family = received[0].family;
    let profile = scenario.profile.as_deref().and_then(|p| Profile::parse(family, p).ok()).unwrap_or(Profile::for_family(family)[1]);
    let checks = verify(&received, profile);
    let mut report = Report::new(format!("{:?}", scenario.runtime).to_lowercase(), None, vec![profile.name().to_string()], Vec::new(), checks);
    report.title = Some(format!("proctor verify --scenario {} (what the runtime sent to its plugins)", args.scenario.display()));
    let rendered = render(&report, args.format, args.output.is_none() && crate::output::stdout_wants_color());
    match &args.output {
        Some(path) => crate::output::write_atomically(path, rendered.as_bytes())?,
        None => print!("{rendered}"),
    }
    Ok(if report.verdict == Verdict::Conformant { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Record files: the files given, and the `*.jsonl` files of folders given.
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, UsageError> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| UsageError(format!("cannot read {}: {e}", p.display())))?;
            files.extend(entries.flatten().map(|e| e.path()).filter(|f| f.extension().is_some_and(|x| x == "jsonl")));
        } else if Path::new(p).exists() {
            files.push(p.clone());
        } else {
            return Err(UsageError(format!("no record at {}", p.display())));
        }
    }
    Ok(files)
}
