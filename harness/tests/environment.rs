//! The environment each runtime really gives (`--env`, `--cwd`): PromptKit
//! starts a one-shot exec tool whose runtime config lists `env:` with only
//! those variables, so a tool that leans on the author's HOME or PATH fails
//! under promptkit@86d9f36 as it would in production, and passes
//! `documented`, which promises no such rule.

mod common;

use common::{certify_json, problems, proctor, repo_root};

const CLOCK: &[&str] = &["sh", "examples/broken/home_clock_tool.sh"];

fn clock() -> Vec<String> {
    CLOCK.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_tool_that_needs_home_fails_where_promptkit_gives_only_the_listed_variables() {
    let (code, report, _) = certify_json(&["--protocol", "promptkit-exec", "--role", "tool", "--env", "CLOCK_FORMAT=iso"], &clock());
    assert_eq!(code, 1, "{}", problems(&report));
    assert_eq!(report["profile_verdicts"]["documented"], "conformant", "{}", problems(&report));
    assert_eq!(report["profile_verdicts"]["promptkit@86d9f36"], "nonconformant");
    let notes: Vec<&str> = report["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("under promptkit@86d9f36 this exec tool got only the variables --env lists (CLOCK_FORMAT)"),
        "{}",
        notes[0]
    );
    assert!(notes[0].contains("It looked for HOME"), "{}", notes[0]);

    // With no `env:` list PromptKit passes the whole environment on.
    let (code, report, _) = certify_json(&["--protocol", "promptkit-exec", "--role", "tool"], &clock());
    assert_eq!(code, 0, "{}", problems(&report));
    assert!(report.get("notes").is_none());

    // Listing HOME is the fix.
    let home = format!("HOME={}", std::env::var("HOME").unwrap_or_else(|_| "/root".into()));
    let (code, report, _) =
        certify_json(&["--protocol", "promptkit-exec", "--role", "tool", "--env", "CLOCK_FORMAT=iso", "--env", &home], &clock());
    assert_eq!(code, 0, "{}", problems(&report));
}

#[test]
fn hooks_keep_the_host_environment_plus_the_list() {
    // The same script as a tool hook: PromptKit gives hooks the host
    // environment, so HOME is there (the answer is no hook answer, but the
    // script runs to the end: no crash, no note).
    let (_, report, _) = certify_json(&["--protocol", "promptkit-exec", "--role", "session-hook", "--env", "CLOCK_FORMAT=iso"], &clock());
    assert!(report.get("notes").is_none(), "{}", problems(&report));
    let exits: Vec<&str> = common::results(&report, "LIFECYCLE-EXIT-ZERO").iter().map(|c| c["status"].as_str().unwrap()).collect();
    assert!(exits.iter().all(|s| *s == "pass"), "{exits:?}: {}", problems(&report));
}

#[test]
fn env_and_cwd_mistakes_are_usage_errors() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(proctor()).current_dir(repo_root()).args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run(&["certify", "--protocol", "runok-extension", "--env", "NOEQUALS", "--", "true"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("`NOEQUALS` is not NAME=VALUE"), "{err}");
    let (code, err) = run(&["certify", "--protocol", "runok-extension", "--cwd", "/no/such/dir", "--", "true"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--cwd /no/such/dir: not a directory"), "{err}");
}
