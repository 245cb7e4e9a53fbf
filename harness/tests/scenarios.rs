//! Every scenario under `scenarios/` as its own test; see `proctor::testing`.
//! Update snapshots with `INSTA_UPDATE=always cargo test --test scenarios`
//! and review them with `git diff` (or `cargo insta review`).

use std::path::{Path, PathBuf};

use proctor::context::RunEnv;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf();
    let env = RunEnv { root: root.clone(), mock_program: PathBuf::from(env!("CARGO_BIN_EXE_proctor")), record_dir: None };
    proctor::testing::run_trials(&root.join("scenarios"), env, &libtest_mimic::Arguments::from_args()).exit();
}
