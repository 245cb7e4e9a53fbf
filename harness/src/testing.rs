//! The `cargo test` entry for scenarios: one libtest-mimic trial per
//! scenario file, named by its path (`runok::env-guard-denies-post-to-prod`).
//! A trial passes when every expectation holds and the transcript matches
//! the insta snapshot beside the scenario (`snapshots/<id with / as __>.snap`).
//!
//! `--list`, name filters, `--exact` and `cargo nextest` work. Discovery only
//! walks and names files (nextest lists once per test); a malformed scenario
//! becomes a failing trial carrying its diagnostic.

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use libtest_mimic::{Arguments, Conclusion, Failed, Trial};

use crate::context::RunEnv;
use crate::runner::run;
use crate::scenario::{discover, load};

static RUNTIME: LazyLock<tokio::runtime::Runtime> =
    LazyLock::new(|| tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime"));

/// The trials for every scenario under `dir`, plus the checks that keep the
/// suite honest: finding no scenario at all, two scenarios with one id, or a
/// snapshot whose scenario is gone each fail a trial of their own.
pub fn trials(dir: &Path, env: RunEnv) -> Vec<Trial> {
    let env = Arc::new(env);
    let files = match discover(&[dir.to_path_buf()]) {
        Ok(files) if !files.is_empty() => files,
        Ok(_) => {
            return vec![failing(
                "scenarios::discovery",
                format!("no scenario files (*.yaml) under {}: nothing would be judged", dir.display()),
            )];
        }
        Err(e) => return vec![failing("scenarios::discovery", format!("cannot read {}: {e}", dir.display()))],
    };
    let mut trials: Vec<Trial> = files
        .iter()
        .map(|path| {
            let name = path.strip_prefix(dir).unwrap_or(path).with_extension("").to_string_lossy().replace(std::path::MAIN_SEPARATOR, "::");
            let (env, path) = (env.clone(), path.clone());
            Trial::test(name, move || run_one(&path, &env))
        })
        .collect();
    let files = Arc::new(files);
    let dir = dir.to_path_buf();
    let for_ids = files.clone();
    trials.push(Trial::test("scenarios::ids-are-unique", move || unique_ids(&for_ids)));
    trials.push(Trial::test("scenarios::no-orphan-snapshots", move || no_orphan_snapshots(&dir, &files)));
    trials
}

/// A trial that fails with `message`.
fn failing(name: &str, message: String) -> Trial {
    Trial::test(name, move || Err(message.clone().into()))
}

/// Every scenario id names one snapshot and one test: two files must not share one.
pub fn unique_ids(files: &[PathBuf]) -> Result<(), Failed> {
    let mut seen: Vec<(String, &PathBuf)> = Vec::new();
    let mut clashes = Vec::new();
    for f in files {
        let Ok(s) = load(f) else { continue }; // its own trial reports why
        match seen.iter().find(|(id, _)| *id == s.id) {
            Some((id, first)) => clashes.push(format!("{}: id `{id}` is already the id of {}", f.display(), first.display())),
            None => seen.push((s.id, f)),
        }
    }
    if clashes.is_empty() { Ok(()) } else { Err(clashes.join("\n").into()) }
}

/// A snapshot whose scenario was deleted or renamed would linger unnoticed.
pub fn no_orphan_snapshots(dir: &Path, files: &[PathBuf]) -> Result<(), Failed> {
    let ids: Vec<(PathBuf, String)> =
        files.iter().filter_map(|f| Some((crate::snapshot::dir(f), crate::snapshot::name(&load(f).ok()?.id)))).collect();
    let mut orphans = Vec::new();
    let mut dirs: Vec<PathBuf> = files.iter().map(|f| crate::snapshot::dir(f)).collect();
    dirs.sort();
    dirs.dedup();
    for snapshots in dirs {
        for entry in std::fs::read_dir(&snapshots).into_iter().flatten().flatten() {
            let path = entry.path();
            let Some(stem) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".snap")) else { continue };
            if !ids.iter().any(|(d, id)| *d == snapshots && id == stem) {
                orphans.push(path.strip_prefix(dir).unwrap_or(&path).display().to_string());
            }
        }
    }
    match orphans.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "snapshots whose scenario is gone (deleted, renamed or given another id): {}\nhint: delete each, or rename it to the scenario's new id",
            orphans.join(", ")
        )
        .into()),
    }
}

/// Runs the trials under `dir` with `args`.
pub fn run_trials(dir: &Path, env: RunEnv, args: &Arguments) -> Conclusion {
    libtest_mimic::run(args, trials(dir, env))
}

fn run_one(path: &PathBuf, env: &RunEnv) -> Result<(), Failed> {
    let scenario = load(path).map_err(|e| Failed::from(e.to_string()))?;
    let result = RUNTIME.block_on(run(&scenario, env));
    if !result.passed() {
        let transcript = serde_json::to_string_pretty(&result.transcript.entries).unwrap_or_default();
        return Err(format!("{}\n\ntranscript:\n{transcript}", result.problems.join("\n")).into());
    }
    // A snapshot holding no transcript (a header alone) is refused here as by `proctor run`:
    // whatever insta would make of it, it compares nothing.
    crate::snapshot::compare(&crate::snapshot::path(path, &scenario.id), &result.transcript.entries).map_err(Failed::from)?;
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(crate::snapshot::dir(path));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(path);
    settings.set_omit_expression(true);
    settings.set_description(scenario.description.clone());
    let name = crate::snapshot::name(&scenario.id);
    // insta panics on a mismatch; libtest-mimic reports the panic as this trial's failure.
    settings.bind(|| insta::assert_yaml_snapshot!(name, result.transcript.entries));
    Ok(())
}
