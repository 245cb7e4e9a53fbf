//! `proctor verify`: judge what a runtime sent to the scenario's mock
//! plugins, from their records (`proctor mock-plugin --record`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use proctor_conformance::certify::{CheckResult, Report, Verdict};
use proctor_conformance::check::{Evidence, Failure, Outcome, lookup};
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
    let mut checks = verify(&received, profile);
    checks.extend(expected_calls(&scenario, &received, profile));
    let mut report = Report::new(format!("{:?}", scenario.runtime).to_lowercase(), None, vec![profile.name().to_string()], Vec::new(), checks);
    report.title = Some(format!("proctor verify --scenario {} (what the runtime sent to its plugins)", args.scenario.display()));
    let rendered = render(&report, args.format, args.output.is_none() && crate::output::stdout_wants_color());
    match &args.output {
        Some(path) => crate::output::write_atomically(path, rendered.as_bytes())?,
        None => print!("{rendered}"),
    }
    Ok(if report.verdict == Verdict::Conformant { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The scenario's `received` and `not_called` expectations, judged on what
/// the runtime sent: a missing interaction and an unexpected one are
/// different failures.
fn expected_calls(scenario: &crate::scenario::Scenario, received: &[Received], profile: Profile) -> Vec<CheckResult> {
    let Some(def) = lookup("RUNTIME-EXPECTED-CALLS") else { return Vec::new() };
    let expect = &scenario.expect;
    let name = "the scenario".to_string();
    if expect.received.is_empty() && expect.not_called.is_empty() {
        let skip = Outcome::Skip { reason: "the scenario expects nothing about what plugins receive".into() };
        return vec![CheckResult::new(def, profile.name(), Some(name), skip, Evidence::default())];
    }
    let mut out = Vec::new();
    for want in &expect.received {
        let sessions = received.iter().filter(|r| r.plugin == want.plugin).flat_map(|r| &r.sessions);
        let hit = sessions.clone().any(|s| String::from_utf8_lossy(&s.bytes).contains(want.contains.as_str()));
        let outcome = if hit { Outcome::Pass } else { Outcome::fail(Failure::Missing { what: format!("{} receiving {:?}", want.plugin, want.contains) }) };
        out.push(CheckResult::new(def, profile.name(), Some(want.plugin.clone()), outcome, Evidence::default()));
    }
    for forbidden in &expect.not_called {
        let calls: Vec<(String, Vec<u8>)> = received
            .iter()
            .filter(|r| r.plugin == forbidden.plugin)
            .flat_map(|r| r.sessions.iter().flat_map(|s| calls_in(&s.bytes)))
            .filter(|(call, _)| forbidden.call.as_ref().is_none_or(|c| c == call))
            .collect();
        let outcome = match calls.first() {
            None => Outcome::Pass,
            Some((call, _)) => Outcome::fail(Failure::Unexpected { what: format!("{} received {call}", forbidden.plugin) }),
        };
        let evidence = calls.first().map(|(_, raw)| Evidence::received(raw)).unwrap_or_default();
        out.push(CheckResult::new(def, profile.name(), Some(forbidden.plugin.clone()), outcome, evidence));
    }
    out
}

/// Each message's call: a JSON-RPC method, or a PromptKit hook phase; with its bytes.
fn calls_in(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    bytes
        .split(|b| *b == b'\n')
        .filter_map(|line| {
            let v: serde_json::Value = serde_json::from_slice(line).ok()?;
            let call = v.get("method").or_else(|| v.get("phase")).and_then(serde_json::Value::as_str)?.to_string();
            Some((call, line.to_vec()))
        })
        .collect()
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
