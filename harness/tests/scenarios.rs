//! Every scenario under `scenarios/` as its own test (libtest-mimic), named
//! by its path (`runok::env-guard-denies-post-to-prod`). A scenario passes
//! when every expectation holds and its transcript matches the insta
//! snapshot stored beside it in `snapshots/`, named from the scenario id.
//!
//! `--list`, name filters, `--exact` and `cargo nextest` all work. Update
//! snapshots with `INSTA_UPDATE=always cargo test --test scenarios` and
//! review the diff with git (or `cargo insta review`).

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use libtest_mimic::{Arguments, Failed, Trial};
use proctor::runner::{RunEnv, run};
use proctor::scenario::{discover, load};

static RUNTIME: LazyLock<tokio::runtime::Runtime> =
    LazyLock::new(|| tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime"));

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn main() {
    let args = Arguments::from_args();
    let dir = root().join("scenarios");
    let files = discover(&[dir.clone()]).unwrap_or_default();
    let trials = files
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(&dir).unwrap_or(&path).with_extension("").to_string_lossy().replace(std::path::MAIN_SEPARATOR, "::");
            Trial::test(name, move || run_one(&path))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn run_one(path: &Path) -> Result<(), Failed> {
    let scenario = load(path).map_err(|e| Failed::from(e.to_string()))?;
    let env = RunEnv { root: root(), mock_program: PathBuf::from(env!("CARGO_BIN_EXE_proctor")) };
    let result = RUNTIME.block_on(run(&scenario, &env));
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
    settings.bind(|| insta::assert_yaml_snapshot!(name, result.transcript.entries));
    Ok(())
}
