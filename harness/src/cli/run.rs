//! `proctor run`: scenarios without cargo, in parallel, with the verdict as
//! the exit code (2 when a scenario file is malformed).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;

use super::{RunArgs, UsageError, runtime};
use proctor_conformance::protocol::Profile;

use proctor_conformance::transport::PluginCommand;

use crate::context::RunEnv;
use crate::output::{Inputs, Outputs, refuse_clobbering};
use crate::report::escape;
use crate::runner::{RunResult, run};
use crate::scenario::{Process, Scenario, discover, load};
use crate::snapshot::Comparison;

pub(super) fn main(args: RunArgs) -> anyhow::Result<ExitCode> {
    let paths = if args.paths.is_empty() { vec![PathBuf::from("scenarios")] } else { args.paths.clone() };
    let files = discover(&paths)
        .with_context(|| format!("cannot read {}", paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")))?;
    if files.is_empty() {
        return Err(UsageError(format!(
            "no scenario files (*.yaml) under {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ))
        .into());
    }
    // A file that cannot be used is reported with its location, and the rest run.
    let mut unusable = Vec::new();
    let mut scenarios: Vec<(PathBuf, crate::scenario::Scenario)> = Vec::new();
    for f in &files {
        match load(f) {
            Ok(s) => match scenarios.iter().find(|(_, other)| other.id == s.id) {
                Some((first, _)) => unusable.push(RunResult::unusable_file(
                    f,
                    format!(
                        "{}: id `{}` is already the id of {}\nhint: ids name snapshots and tests: give each scenario its own",
                        f.display(),
                        s.id,
                        first.display()
                    ),
                )),
                None => scenarios.push((f.clone(), s)),
            },
            Err(e) => unusable.push(RunResult::unusable_file(f, e.to_string())),
        }
    }
    let root = std::env::current_dir()?;
    let mut outputs = outputs(&args, &paths, &files, &scenarios, &root)?;
    let kind = crate::baseline::Kind::Scenarios;
    let baseline =
        args.baseline.as_deref().map(|p| crate::baseline::Baseline::load(p, kind)).transpose().map_err(|e| UsageError(e.to_string()))?;
    let previous = match (&baseline, &args.write_baseline) {
        (None, Some(path)) => crate::baseline::Baseline::previous(path, kind).map_err(|e| UsageError(e.to_string()))?,
        _ => None,
    };
    if let Some(dir) = &args.record_dir {
        scenarios.retain(|(file, scenario)| match records_stay_inside(dir, scenario) {
            Ok(()) => true,
            Err(why) => {
                unusable.push(RunResult::unusable_file(file, format!("{}: {why}", file.display())));
                false
            }
        });
    }
    // `--profile`: one profile for every scenario, or each under both (`all`).
    let mut pairs: Vec<(String, [String; 2])> = Vec::new();
    if let Some(wanted) = &args.profile {
        let mut expanded = Vec::new();
        for (file, scenario) in scenarios {
            let family = scenario.runtime.family();
            let profiles: Vec<Profile> = match wanted.as_str() {
                "all" => Profile::for_family(family).to_vec(),
                name => vec![Profile::parse(family, name).map_err(|e| UsageError(format!("--profile: {e} (or `all`)")))?],
            };
            if profiles.len() > 1 {
                let ids = profiles.iter().map(|p| format!("{} [{}]", scenario.id, p.name()));
                let ids: Vec<String> = ids.collect();
                pairs.push((scenario.id.clone(), [ids[0].clone(), ids[1].clone()]));
            }
            for p in &profiles {
                let mut s = scenario.clone();
                s.profile = Some(p.name().to_string());
                if profiles.len() > 1 {
                    s.id = format!("{} [{}]", scenario.id, p.name());
                }
                expanded.push((file.clone(), s));
            }
        }
        scenarios = expanded;
    }
    let env = Arc::new(RunEnv { root, mock_program: std::env::current_exe()?, record_dir: args.record_dir.clone() });
    // clap bounds --jobs to 1..=1024, within what a semaphore can hold.
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()), |n| n as usize);
    let progress = std::io::stderr().is_terminal() && !args.no_progress;
    // A snapshot records a run under the scenario's own profile; `--profile` runs others.
    let own_profile = args.profile.is_none();
    let update = args.update_snapshots;
    let total = scenarios.len();
    let results: Vec<RunResult> = runtime::run(async move {
        let permits = Arc::new(tokio::sync::Semaphore::new(jobs.max(1)));
        let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for (file, scenario) in scenarios {
            let (env, permits, done) = (env.clone(), permits.clone(), done.clone());
            let id = scenario.id.clone();
            let task = tokio::spawn(async move {
                let _permit = permits.acquire_owned().await;
                let mut result = run(&scenario, &env).await;
                result.file = Some(file.display().to_string());
                match update {
                    true => update_snapshot(&mut result, &file, &scenario),
                    false => judge_snapshot(&mut result, &file, &scenario, own_profile),
                }
                let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                if progress {
                    eprint!("\r\x1b[2K  {n}/{total} {}", escape(&scenario.id));
                }
                result
            });
            tasks.push((id, task));
        }
        let mut results = Vec::new();
        for (id, task) in tasks {
            // A scenario whose run panicked is a failed scenario, never a missing one.
            results.push(task.await.unwrap_or_else(|e| RunResult::harness_failure(id, format!("proctor failed while running it: {e}"))));
        }
        results
    })?;
    if progress {
        eprint!("\r\x1b[2K");
    }
    for update in results.iter().filter_map(|r| r.snapshot_update.as_deref()) {
        eprintln!("proctor run: {update}");
    }
    let mut results = results;
    results.extend(unusable);
    let stale = baseline.as_ref().map(|b| b.apply_to_scenarios(&mut results)).unwrap_or_default();
    if let Some(target) = outputs.take("--write-baseline") {
        target.write(crate::baseline::Baseline::write_scenarios(&results, baseline.as_ref().or(previous.as_ref())).as_bytes())?;
    }
    let failed = results.iter().filter(|r| !r.accepted()).count();
    let unusable = results.iter().filter(|r| r.unusable).count();
    let rendered = crate::report::scenarios::render(&results, &stale, &pairs, args.format);
    crate::output::deliver(outputs.take("--output"), &rendered)?;
    super::certify::write_reports(&mut outputs, &args.reports, |format| {
        Ok(crate::report::scenarios::render(&results, &stale, &pairs, format))
    })?;
    Ok(match (unusable, failed, stale.is_empty()) {
        (1.., _, _) => ExitCode::from(2),
        (0, 0, true) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// Before anything runs: the report and `--write-baseline` can be written and
/// replace nothing the run reads (a scenario file, or one a folder would find,
/// a snapshot, a pack, a RuntimeConfig, a plugin's program or script); nor may
/// a record `--record-dir` gets. The report may not replace `--baseline`; the
/// record folder is created.
fn outputs(
    args: &RunArgs,
    paths: &[PathBuf],
    files: &[PathBuf],
    scenarios: &[(PathBuf, Scenario)],
    root: &Path,
) -> Result<Outputs, UsageError> {
    let mut inputs = Inputs::default();
    for path in paths.iter().filter(|p| p.is_dir()) {
        inputs.folder("a scenario folder", path, |_, file| file.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "snap"));
    }
    for file in files {
        inputs.file("a scenario file", file);
    }
    for (file, scenario) in scenarios {
        scenario_inputs(&mut inputs, file, scenario, root);
    }
    let labels: Vec<String> = args.reports.iter().map(|(format, _)| format.report_flag()).collect();
    let mut named: Vec<(&str, &Path)> = args.output.iter().map(|p| ("--output", p.as_path())).collect();
    named.extend(labels.iter().zip(&args.reports).map(|(label, (_, path))| (label.as_str(), path.as_path())));
    named.extend(args.write_baseline.iter().map(|p| ("--write-baseline", p.as_path())));
    if let Some(read) = &args.baseline {
        let mut baseline = Inputs::default();
        baseline.file("the --baseline file", read);
        let reports: Vec<(&str, &Path)> = named.iter().filter(|(label, _)| *label != "--write-baseline").copied().collect();
        refuse_clobbering(&reports, &baseline)?;
    }
    if let Some(dir) = &args.record_dir {
        if dir.exists() && !dir.is_dir() {
            return Err(UsageError(format!(
                "--record-dir {}: is not a folder\nhint: give a folder (it is created when missing)",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|e| UsageError(format!("--record-dir {}: cannot create it: {e}", dir.display())))?;
        let journal = dir.join(crate::context::LLM_JOURNAL);
        record_can_be_kept(&journal).map_err(|why| UsageError(format!("--record-dir: the LLM journal {why}")))?;
        let mut records: Vec<PathBuf> = vec![journal];
        for (_, scenario) in scenarios {
            let mocks = scenario.plugins.iter().filter(|p| matches!(p.process, Process::Mock(_)));
            records.extend(mocks.filter_map(|p| crate::context::record_file(dir, &p.name).ok()));
        }
        let mut all = named.clone();
        all.extend(records.iter().map(|r| ("--record-dir", r.as_path())));
        refuse_clobbering(&all, &inputs)?;
    }
    Outputs::prepare(&named, &inputs)
}

/// What a scenario reads besides itself: its snapshot, its pack and
/// RuntimeConfig, and the program and files of every plugin it runs (and
/// every plugin its RuntimeConfig binds).
pub(super) fn scenario_inputs(inputs: &mut Inputs, file: &Path, scenario: &Scenario, root: &Path) {
    inputs.file("the scenario's snapshot", &crate::snapshot::path(file, &scenario.id));
    let beside = |written: &str| file.parent().unwrap_or(Path::new("")).join(written);
    if let Some(pack) = &scenario.pack {
        inputs.file("the scenario's pack", &beside(pack));
    }
    if let Some(config) = &scenario.runtime_config {
        let config = beside(config);
        inputs.file("the scenario's RuntimeConfig", &config);
        for binding in proctor_pack::runtime_config::load(&config).map(|c| c.bindings).unwrap_or_default() {
            if let Some(mut command) = PluginCommand::new(binding.command.clone()) {
                command.cwd = config.parent().map(Path::to_path_buf);
                inputs.command(&format!("binding `{}`", binding.label()), &command);
            }
        }
    }
    for plugin in &scenario.plugins {
        if let Process::Command(argv) = &plugin.process
            && let Some(mut command) = PluginCommand::new(argv.clone())
        {
            command.cwd = Some(root.to_path_buf());
            inputs.command(&format!("plugin `{}`", plugin.name), &command);
        }
    }
}

/// `--record-dir D` writes each mock plugin's record to `D/<name>.jsonl`: a
/// name that would put it elsewhere (`../../x`, `/abs/x`, `a/b`), or on the
/// LLM journal, or a record that is a link leading out of D, is the
/// scenario's mistake, refused before it runs; so is a record that is there
/// already and is no file (a FIFO, a device): `proctor verify` reads files.
fn records_stay_inside(dir: &Path, scenario: &Scenario) -> Result<(), String> {
    let inside = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mocks = scenario.plugins.iter().filter(|p| matches!(p.process, Process::Mock(_))).map(|p| p.name.as_str());
    for name in mocks {
        let record = crate::context::record_file(dir, name).map_err(|why| format!("plugin `{name}`: {why}"))?;
        record_can_be_kept(&record).map_err(|why| format!("plugin `{name}`: {why}"))?;
        // A link is followed as the mock would follow it, even to a file not there yet.
        let leads_to = std::fs::read_link(&record).ok().map(|to| crate::output::location(&dir.join(to)));
        if let Some(real) = leads_to
            && !real.starts_with(&inside)
        {
            return Err(format!(
                "plugin `{name}`: its record {} leads to {}, outside --record-dir {}\nhint: remove the link, or record to another folder",
                record.display(),
                real.display(),
                dir.display()
            ));
        }
    }
    Ok(())
}

/// A record or journal `--record-dir` writes must be a file (or none yet):
/// one `proctor verify` can read back, and one nobody has to read meanwhile.
fn record_can_be_kept(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(format!(
            "{} is there and is not a file (a FIFO, a device or a folder), which `proctor verify` could not read back\nhint: remove it, or record to another folder",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// `--update-snapshots`: a scenario whose expectations hold gets its
/// transcript as its snapshot; one that fails keeps the snapshot it has (a
/// failing run is never the reference), and says so.
fn update_snapshot(result: &mut RunResult, file: &Path, scenario: &Scenario) {
    if result.unusable {
        return;
    }
    let path = crate::snapshot::path(file, &scenario.id);
    if !result.passed() {
        result.snapshot_update = Some(format!("{}: kept as it was (the scenario fails)", path.display()));
        return;
    }
    // The scenario harness always sets the description, an empty one too (testing.rs).
    let description = Some(scenario.description.as_str());
    result.snapshot_update = Some(match crate::snapshot::write(file, &scenario.id, description, &result.transcript.entries) {
        Ok(crate::snapshot::Written::New) => format!("{}: written (new)", path.display()),
        Ok(crate::snapshot::Written::Replaced) => {
            format!("{}: written (the transcript changed; review it with `git diff`)", path.display())
        }
        Ok(crate::snapshot::Written::Unchanged) => format!("{}: unchanged", path.display()),
        Err(e) => {
            result.problems.push(e.clone());
            e
        }
    });
}

/// The snapshot beside a scenario judges `proctor run` as it judges `cargo test`.
/// A scenario that expects nothing and has no snapshot to compare would judge
/// nothing: it is refused as written (exit 2), never reported as passing.
fn judge_snapshot(result: &mut RunResult, file: &Path, scenario: &Scenario, own_profile: bool) {
    if result.unusable {
        return;
    }
    let snapshot = crate::snapshot::path(file, &scenario.id);
    let comparison = match own_profile {
        true => crate::snapshot::compare(&snapshot, &result.transcript.entries),
        false => Ok(Comparison::Missing),
    };
    let unusable = |problem: String| RunResult { file: Some(file.display().to_string()), ..RunResult::unusable(scenario, problem) };
    match comparison {
        Ok(Comparison::Matches) => {}
        Ok(Comparison::Differs(why)) if result.passed() => result.problems.push(why),
        Ok(Comparison::Differs(_)) => {} // its unmet expectations already say what went wrong
        Ok(Comparison::Missing) if scenario.expect.is_empty() => {
            let why = match own_profile {
                true => format!("there is no snapshot at {}", snapshot.display()),
                false => "its snapshot holds only for its own profile (run it without `--profile`)".to_string(),
            };
            *result = unusable(format!(
                "{}: the scenario judges nothing: it has no `expect`, and {why}\nhint: add an expectation (`expect: {{outcome: …}}`), or record a snapshot with `proctor run --update-snapshots`",
                file.display()
            ));
        }
        Ok(Comparison::Missing) => {}
        Err(e) => *result = unusable(e),
    }
}
