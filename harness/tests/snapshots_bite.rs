//! Corrupting a snapshot, or an expectation, fails exactly that scenario's
//! test. The scenarios are copies of shipped ones, run in a scratch folder.

mod common;

use std::path::Path;

use common::{proctor, repo_root};
use proctor::context::RunEnv;

fn copy_scenario(from: &str, to: &Path) {
    let src = repo_root().join("scenarios/runok");
    std::fs::create_dir_all(to.join("snapshots")).unwrap();
    std::fs::copy(src.join(format!("{from}.yaml")), to.join(format!("{from}.yaml"))).unwrap();
    std::fs::copy(src.join(format!("snapshots/runok__{from}.snap")), to.join(format!("snapshots/runok__{from}.snap"))).unwrap();
}

/// Tests here change the process environment; they take turns.
static ENV_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn failing(dir: &Path) -> (u64, u64) {
    let _turn = ENV_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: every test of this binary that touches the environment holds ENV_LOCK.
    unsafe {
        std::env::set_var("INSTA_UPDATE", "no");
        std::env::set_var("INSTA_FORCE_PASS", "0");
    }
    let env = RunEnv { root: repo_root(), mock_program: proctor().into(), record_dir: None };
    let args = libtest_mimic::Arguments { test_threads: Some(1), quiet: true, logfile: Some("/dev/null".into()), ..Default::default() };
    let c = proctor::testing::run_trials(dir, env, &args);
    (c.num_passed, c.num_failed)
}

#[test]
fn a_corrupted_snapshot_or_expectation_fails_exactly_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_scenario("spawn-failure-falls-back-to-ask", d);
    copy_scenario("uppercase-status-falls-back-to-ask", d);
    // Two scenarios, plus the suite's own trials (unique ids, no orphan snapshots).
    assert_eq!(failing(d), (4, 0), "pristine copies pass");

    let snap = d.join("snapshots/runok__uppercase-status-falls-back-to-ask.snap");
    let text = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(&snap, text.replace("DENY", "DENIED")).unwrap();
    assert_eq!(failing(d), (3, 1), "one corrupted snapshot, one failure");
    std::fs::write(&snap, text).unwrap();

    let yaml = d.join("spawn-failure-falls-back-to-ask.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, text.replace("outcome: ask", "outcome: allow")).unwrap();
    assert_eq!(failing(d), (3, 1), "one broken expectation, one failure");
}

#[test]
fn a_malformed_scenario_is_a_failing_trial_with_its_location() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.yaml"), "id: x\nruntime: runok\nturns:\n  - comand: {raw: ls}\n").unwrap();
    let env = RunEnv { root: repo_root(), mock_program: proctor().into(), record_dir: None };
    let trials = proctor::testing::trials(dir.path(), env);
    let names: Vec<&str> = trials.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["bad", "scenarios::ids-are-unique", "scenarios::no-orphan-snapshots"]);
    let (_, failed) = failing(dir.path());
    assert_eq!(failed, 1);
}

/// `proctor run FOLDER` from the repository root: (exit code, stdout).
fn proctor_run(dir: &Path) -> (i32, String) {
    let out = std::process::Command::new(proctor())
        .current_dir(repo_root())
        .args(["run", "--no-progress", &dir.display().to_string()])
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn proctor_run_judges_the_snapshot_cargo_test_judges() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_scenario("uppercase-status-falls-back-to-ask", d);
    assert_eq!(proctor_run(d).0, 0, "the pristine copy passes");
    let snap = d.join("snapshots/runok__uppercase-status-falls-back-to-ask.snap");
    let text = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(&snap, text.replace("DENY", "DENIED")).unwrap();
    let (code, out) = proctor_run(d);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("snapshot: the transcript differs from") && out.contains("at entry 3:"), "{out}");
    std::fs::write(&snap, "garbage").unwrap();
    let (code, out) = proctor_run(d);
    assert_eq!(code, 2, "a snapshot that cannot be read judges nothing: {out}");
    assert!(out.contains("is malformed"), "{out}");
}

#[test]
fn a_scenario_that_expects_nothing_is_judged_by_its_snapshot_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_scenario("uppercase-status-falls-back-to-ask", d);
    let yaml = d.join("uppercase-status-falls-back-to-ask.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    let without = &text[..text.find("\nexpect:").expect("the scenario has expectations")];
    std::fs::write(&yaml, format!("{without}\n")).unwrap();
    assert_eq!(proctor_run(d).0, 0, "its snapshot still judges it");
    let snap = d.join("snapshots/runok__uppercase-status-falls-back-to-ask.snap");
    let text = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(&snap, text.replace("DENY", "DENIED")).unwrap();
    assert_eq!(proctor_run(d).0, 1, "a crashing or changed plugin fails it");
    std::fs::remove_file(&snap).unwrap();
    let (code, out) = proctor_run(d);
    assert_eq!(code, 2, "nothing judges it: {out}");
    assert!(out.contains("the scenario judges nothing: it has no `expect`, and there is no snapshot at"), "{out}");
}
