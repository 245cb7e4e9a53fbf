//! The disagreements `interop/fidelity.sh --only differential` found between
//! proctor's runtime-profile verdicts and the real runtimes, each shrunk to a
//! few genes and kept in `interop/differential/regressions/` with what the
//! runtime did. Here they run without Go: each script is certified by the
//! real binary against `proctor mock-plugin --script`, and the verdict under
//! the runtime's profile must be "conformant" exactly when the runtime
//! reached what the plugin meant. (`fidelity.sh` runs them through the
//! runtimes again, so a recorded outcome cannot go stale unseen.)

mod common;

use std::path::Path;

use common::{certify_json, proctor, repo_root};
use serde_json::Value;

const DEADLINE: &str = "--timeout-ms=2000";

fn check(path: &Path) -> Result<(), String> {
    let case: Value = serde_json::from_str(&std::fs::read_to_string(path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let target = case["genome"]["target"].as_str().ok_or("no genome.target")?;
    let (family, role) = target.split_once('/').map_or((target, None), |(f, r)| (f, Some(r)));
    let profile = case["profile"].as_str().ok_or("no profile")?;
    let reached = case["runtime"]["reached"].as_bool().ok_or("no runtime.reached")?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let script = dir.path().join("script.json");
    let cases = dir.path().join("cases.yaml");
    std::fs::write(&script, serde_json::to_vec(&case["script"]).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    std::fs::write(&cases, serde_json::to_vec(&serde_json::json!({"cases": case["cases"]})).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let mut plugin = vec![proctor().to_string(), "mock-plugin".into(), "--protocol".into(), family.into(), "--script".into()];
    plugin.push(script.display().to_string());
    let mut flags = vec!["--protocol", family, "--profile", profile, DEADLINE];
    let cases_arg = cases.display().to_string();
    flags.extend(["--cases", cases_arg.as_str()]);
    if let Some(role) = role {
        flags.extend(["--role", role]);
        if family == "promptkit-exec" {
            plugin.extend(["--role".to_string(), role.to_string()]);
        }
    }
    let (_, report, _) = certify_json(&flags, &plugin);
    let verdict = report["profile_verdicts"][profile].as_str().unwrap_or("missing");
    let conformant = verdict == "conformant";
    if conformant == reached {
        return Ok(());
    }
    let failed: Vec<&str> = report["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["status"] == "fail" && c["profile"] == profile)
        .filter_map(|c| c["id"].as_str())
        .collect();
    Err(format!(
        "{}: proctor says {verdict} under {profile} (failed: {failed:?}); the runtime {}",
        path.display(),
        if reached { "reached what the plugin meant".to_string() } else { format!("did not: {}", case["runtime"]["why"]) }
    ))
}

#[test]
fn every_shrunk_disagreement_stays_fixed() {
    let dir = repo_root().join("interop/differential/regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no regression case in {}", dir.display());
    let problems: Vec<String> = files.iter().filter_map(|f| check(f).err()).collect();
    eprintln!("differential regressions: {} cases, {} disagree", files.len(), problems.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
