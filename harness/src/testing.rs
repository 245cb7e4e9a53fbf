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

/// The trials for every scenario under `dir`.
pub fn trials(dir: &Path, env: RunEnv) -> Vec<Trial> {
    let env = Arc::new(env);
    discover(&[dir.to_path_buf()])
        .unwrap_or_default()
        .into_iter()
        .map(|path| {
            let name =
                path.strip_prefix(dir).unwrap_or(&path).with_extension("").to_string_lossy().replace(std::path::MAIN_SEPARATOR, "::");
            let env = env.clone();
            Trial::test(name, move || run_one(&path, &env))
        })
        .collect()
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
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(path.parent().unwrap_or(Path::new(".")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(path);
    settings.set_omit_expression(true);
    settings.set_description(scenario.description.clone());
    let name = scenario.id.replace('/', "__");
    // insta panics on a mismatch; libtest-mimic reports the panic as this trial's failure.
    settings.bind(|| insta::assert_yaml_snapshot!(name, result.transcript.entries));
    Ok(())
}
