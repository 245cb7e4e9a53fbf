//! `proctor run --update-snapshots`: a user without cargo starts and accepts
//! snapshots, written byte for byte as insta writes them, so `cargo test`,
//! `cargo insta` and `proctor run` agree about every scenario.

mod common;

use std::path::Path;
use std::process::Command;

use common::{proctor, repo_root};

const SCENARIO: &str = "scenarios/picoclaw/hello-failure-stops-the-agent.yaml";
const SNAPSHOT: &str = "scenarios/picoclaw/snapshots/picoclaw__hello-failure-stops-the-agent.snap";

fn run(dir: &Path, flags: &[&str]) -> (i32, String) {
    let out = Command::new(proctor()).current_dir(dir).args(["run", "--no-progress"]).args(flags).arg(SCENARIO).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

#[test]
fn a_snapshot_written_by_proctor_run_is_the_one_insta_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("scenarios/picoclaw")).unwrap();
    std::fs::copy(repo_root().join(SCENARIO), d.join(SCENARIO)).unwrap();
    let committed = std::fs::read_to_string(repo_root().join(SNAPSHOT)).unwrap();

    let (code, out) = run(d, &["--update-snapshots"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("{SNAPSHOT}: written (new)")), "{out}");
    assert_eq!(std::fs::read_to_string(d.join(SNAPSHOT)).unwrap(), committed, "not the bytes insta wrote (cargo test)");
    let (code, out) = run(d, &["--update-snapshots"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("{SNAPSHOT}: unchanged")), "{out}");

    // A transcript that changed: `run` fails on it, `--update-snapshots` accepts it.
    std::fs::write(d.join(SNAPSHOT), committed.replace("hook.hello", "hook.hallo")).unwrap();
    let (code, out) = run(d, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the transcript differs from"), "{out}");
    let (code, out) = run(d, &["--update-snapshots"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("written (the transcript changed; review it with `git diff`)"), "{out}");
    assert_eq!(std::fs::read_to_string(d.join(SNAPSHOT)).unwrap(), committed);
}

#[test]
fn a_failing_scenario_keeps_its_snapshot_and_other_profiles_write_none() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("scenarios/picoclaw/snapshots")).unwrap();
    let text = std::fs::read_to_string(repo_root().join(SCENARIO)).unwrap();
    std::fs::write(d.join(SCENARIO), text.replace("outcome: error", "outcome: completed")).unwrap();
    std::fs::write(d.join(SNAPSHOT), "kept").unwrap();
    let (code, out) = run(d, &["--update-snapshots"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("{SNAPSHOT}: kept as it was (the scenario fails)")), "{out}");
    assert_eq!(std::fs::read_to_string(d.join(SNAPSHOT)).unwrap(), "kept", "a failing run is never the reference");
    // A snapshot holds the scenario's own profile: another profile writes none.
    let (code, out) = run(d, &["--update-snapshots", "--profile", "documented"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("--profile"), "{out}");
}
