//! The composite action (`action.yml`) run step by step as a GitHub runner
//! runs it (`action_runner`), against the real mock plugin: what a workflow
//! gets from it (outputs, files, the job summary, the job's pass or fail).
//!
//! proctor comes from this build, first on PATH; with `PROCTOR_WHEEL` naming
//! a wheel (`.ci/run` sets it), the action installs that wheel instead and the
//! tests check that the wheel's binary is the one that ran.

mod action_runner;
mod common;

use std::path::{Path, PathBuf};

use action_runner::{Action, Outcome, Runner};
use common::{proctor, repo_root};
use serde_json::Value;

/// One job: a workspace and a runner temp folder of its own.
struct Job {
    _dir: tempfile::TempDir,
    runner: Runner,
    wheel: Option<String>,
}

impl Job {
    fn new() -> Job {
        let dir = tempfile::tempdir().expect("temp dir");
        let runner = Runner {
            action_path: repo_root(),
            workspace: dir.path().join("workspace"),
            temp: dir.path().join("runner-temp"),
            files: dir.path().join("runner-files"),
            path: std::env::join_paths(
                std::iter::once(Path::new(proctor()).parent().expect("bin dir").to_path_buf())
                    .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
            )
            .expect("PATH"),
            os: "Linux".to_string(),
            env: Default::default(),
        };
        for dir in [&runner.workspace, &runner.temp] {
            std::fs::create_dir_all(dir).expect("job dirs");
        }
        let wheel = std::env::var("PROCTOR_WHEEL").ok().filter(|w| !w.is_empty()).map(|w| {
            let wheel = std::fs::canonicalize(&w).unwrap_or_else(|e| panic!("PROCTOR_WHEEL={w}: {e}"));
            wheel.to_str().expect("UTF-8 wheel path").to_string()
        });
        Job { _dir: dir, runner, wheel }
    }

    fn run(&self, inputs: &[(&str, &str)]) -> Outcome {
        let action = Action::load(&repo_root().join("action.yml")).unwrap_or_else(|e| panic!("{e}"));
        let mut inputs = inputs.to_vec();
        if let Some(wheel) = self.wheel.as_deref().filter(|_| !inputs.iter().any(|(name, _)| *name == "wheel")) {
            inputs.push(("wheel", wheel));
        }
        let outcome = self.runner.run(&action, &inputs).unwrap_or_else(|e| panic!("{e}"));
        self.assert_ran_the_right_proctor(&outcome);
        outcome
    }

    /// The wheel's binary when a wheel was given, else the one on PATH.
    fn assert_ran_the_right_proctor(&self, outcome: &Outcome) {
        let Some(line) = outcome.step("certify").stdout.lines().find_map(|l| l.strip_prefix("proctor: ")) else {
            return; // refused before proctor ran
        };
        let ran = line.split(" (").next().unwrap_or_default();
        match &self.wheel {
            Some(_) => assert_eq!(Path::new(ran), self.runner.temp.join("proctor-bin/proctor"), "{}", outcome.log()),
            None => assert_eq!(ran, proctor(), "{}", outcome.log()),
        }
    }

    fn workspace(&self, path: &str) -> PathBuf {
        self.runner.workspace.join(path)
    }
}

/// The mock plugin's command line, as a user writes it in the `command` input.
fn mock_command(flags: &str) -> String {
    format!("'{}' mock-plugin --protocol picoclaw-hook {flags}", proctor())
}

fn json(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn exits(outcome: &Outcome) -> Vec<Option<i32>> {
    outcome.steps.iter().map(|s| s.exit).collect()
}

#[test]
fn a_conformant_plugin_passes_with_its_files_outputs_and_summary() {
    let job = Job::new();
    std::fs::create_dir_all(job.workspace("plugin dir")).unwrap();
    let outcome = job.run(&[
        ("protocol", "picoclaw-hook"),
        ("profiles", "documented\n"),
        ("command", &mock_command("")),
        ("working-directory", "plugin dir"),
    ]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0); 4], "{log}");
    assert!(outcome.failure().is_none(), "{log}");

    assert_eq!(outcome.outputs["verdict"], "conformant", "{log}");
    // Relative output paths are the working directory's, given back absolute.
    let certificate = job.workspace("plugin dir/proctor.cert.json");
    assert_eq!(Path::new(&outcome.outputs["certificate"]), certificate, "{log}");
    assert_eq!(Path::new(&outcome.outputs["badge"]), job.workspace("plugin dir/proctor-badge.json"), "{log}");
    assert_eq!(Path::new(&outcome.outputs["junit"]), job.workspace("plugin dir/proctor.xml"), "{log}");

    let certificate = json(&outcome.outputs["certificate"]);
    assert_eq!(certificate["verdict"], "conformant");
    assert_eq!(certificate["profiles"], serde_json::json!(["documented"]), "the profiles input is passed");
    // Split into words as a shell would (the quotes are gone), and run as those words, not by a shell.
    assert_eq!(certificate["command"], serde_json::json!([proctor(), "mock-plugin", "--protocol", "picoclaw-hook"]));
    assert_eq!(json(&outcome.outputs["badge"])["message"], "protocol only · documented", "no cases: decisions not judged");
    let junit = std::fs::read_to_string(&outcome.outputs["junit"]).unwrap();
    assert!(junit.starts_with("<?xml") && junit.contains(r#"failures="0""#), "{junit}");
    assert_eq!(Path::new(&outcome.outputs["html"]), job.workspace("plugin dir/proctor.html"), "{log}");
    assert!(std::fs::read_to_string(&outcome.outputs["html"]).unwrap().starts_with("<!DOCTYPE html>"), "the same run's HTML report");

    assert!(outcome.summary.starts_with("## proctor certify: `picoclaw-hook` — ✅ conformant"), "{log}");
    assert!(outcome.summary.contains("- `documented`: ✅ conformant"), "{log}");
    assert!(!outcome.summary.contains("picoclaw@"), "only the profile asked for: {log}");
}

#[test]
fn a_broken_plugin_fails_the_job_after_its_outputs_and_summary_are_written() {
    let job = Job::new();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("--fault no-jsonrpc"))]);
    let log = outcome.log();
    // Only the last step fails, with proctor's exit code: the others all ran.
    assert_eq!(exits(&outcome), [Some(0), Some(0), Some(0), Some(1)], "{log}");
    assert_eq!(outcome.failure().map(|(step, code)| (step.label.as_str(), code)), Some(("Exit with proctor's exit code", 1)));

    assert_eq!(outcome.outputs["verdict"], "nonconformant", "{log}");
    assert_eq!(Path::new(&outcome.outputs["certificate"]), job.workspace("proctor.cert.json"), "{log}");
    assert_eq!(json(&outcome.outputs["certificate"])["verdict"], "nonconformant");
    // Missing `jsonrpc` breaks the documented protocol only: PicoClaw never reads it.
    assert_eq!(json(&outcome.outputs["badge"])["message"], "works with picoclaw@cf67dd3", "{log}");
    let junit = std::fs::read_to_string(&outcome.outputs["junit"]).unwrap();
    assert!(junit.contains("JSONRPC-VERSION") && junit.contains("<failure"), "{junit}");

    assert!(outcome.summary.starts_with("## proctor certify: `picoclaw-hook` — ❌ nonconformant"), "{log}");
    assert!(outcome.summary.contains("`JSONRPC-VERSION`"), "{log}");
}

#[test]
fn a_missing_cases_file_is_an_error_exit_2_with_the_reason_in_the_summary() {
    let job = Job::new();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("cases", "missing.cases.yaml")]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0), Some(0), Some(0), Some(2)], "{log}");
    assert_eq!(outcome.outputs["verdict"], "error", "{log}");
    for file in ["certificate", "badge", "junit", "html"] {
        assert_eq!(outcome.outputs[file], "", "nothing was written: {log}");
    }
    assert!(!job.workspace("proctor.cert.json").exists());
    assert!(outcome.summary.starts_with("## proctor certify: the plugin could not be judged"), "{log}");
    assert!(outcome.summary.contains("    error: cases file missing.cases.yaml: cannot read"), "{log}");
}

#[test]
fn a_command_with_an_unclosed_quote_is_refused_without_a_shell() {
    let job = Job::new();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", "python3 'hook.py")]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0), Some(0), Some(0), Some(2)], "{log}");
    assert_eq!(outcome.outputs["verdict"], "error", "{log}");
    assert!(outcome.step("certify").stdout.contains("::error title=proctor::command: No closing quotation"), "{log}");
    assert!(outcome.summary.contains("    error: command: No closing quotation"), "{log}");
}

#[test]
fn a_working_directory_that_does_not_exist_is_refused() {
    let job = Job::new();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("working-directory", "nowhere")]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0), Some(0), Some(0), Some(2)], "{log}");
    assert_eq!(outcome.outputs["verdict"], "error", "{log}");
    assert!(outcome.summary.contains("    error: working-directory: nowhere is not a directory of the workspace"), "{log}");
}

#[test]
fn a_wheel_that_does_not_exist_stops_the_job_before_certifying() {
    let job = Job::new();
    // A newline in the input cannot start a workflow command of its own in the log.
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("wheel", "dist/nothing.whl\n::warning::x")]);
    let log = outcome.log();
    // certify is skipped after the failure; the summary and exit steps run always() and say why.
    assert_eq!(exits(&outcome), [Some(2), None, Some(0), Some(2)], "{log}");
    let install = &outcome.step("install").stdout;
    assert!(install.contains("::error title=proctor::wheel: no file matches dist/nothing.whl%0A::warning::x"), "{log}");
    assert!(!install.lines().any(|l| l.starts_with("::warning")), "{log}");
    assert_eq!(outcome.outputs["verdict"], "error", "{log}");
    assert!(outcome.summary.contains("    error: wheel: no file matches dist/nothing.whl"), "{log}");
}

/// A glob names the wheel when it matches one file, and is refused, naming
/// the files, when it matches several (two builds left in dist/).
#[test]
fn a_wheel_glob_must_match_exactly_one_file() {
    let job = Job::new();
    std::fs::create_dir_all(job.workspace("dist")).unwrap();
    for name in ["proctor-0.1.0-a.whl", "proctor-0.2.0-a.whl"] {
        std::fs::write(job.workspace("dist").join(name), "not a wheel").unwrap();
    }
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("wheel", "dist/proctor-*.whl")]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(2), None, Some(0), Some(2)], "{log}");
    assert!(
        outcome
            .summary
            .contains("    error: wheel: dist/proctor-*.whl matches 2 files, give one: dist/proctor-0.1.0-a.whl dist/proctor-0.2.0-a.whl"),
        "{log}"
    );

    // One match: the glob is expanded and that file installed. A python3 that
    // fails at once stands in for the venv, which would take seconds to make.
    std::fs::remove_file(job.workspace("dist/proctor-0.2.0-a.whl")).unwrap();
    let mut job = job;
    let bin = job.workspace("../fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let python3 = bin.join("python3");
    std::fs::write(&python3, "#!/bin/sh\necho \"python3 $*\"\nexit 3\n").unwrap();
    std::fs::set_permissions(&python3, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    job.runner.path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&job.runner.path))).unwrap();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("wheel", "dist/proctor-*.whl")]);
    let log = outcome.log();
    let install = &outcome.step("install").stdout;
    assert!(install.contains("Installing proctor from the wheel dist/proctor-0.1.0-a.whl"), "{log}");
    assert!(install.contains("python3 -m venv"), "{log}");
    assert_eq!(outcome.failure().map(|(step, code)| (step.label.as_str(), code)), Some(("install", 3)), "{log}");
}

/// The families `proctor certify --help` lists for `--protocol`.
fn protocol_families() -> String {
    let help = std::process::Command::new(proctor()).args(["certify", "--help"]).output().expect("proctor certify --help");
    let help = String::from_utf8(help.stdout).expect("UTF-8 help");
    // The list may wrap onto the next lines: it ends at the paragraph's end.
    let mut lines = help.lines().map(str::trim).skip_while(|l| !l.starts_with("Protocol family: "));
    let first = lines.next().and_then(|l| l.strip_prefix("Protocol family: ")).expect("the --protocol help line");
    std::iter::once(first).chain(lines.take_while(|l| !l.is_empty())).collect::<Vec<_>>().join(" ")
}

#[test]
fn a_required_input_left_out_is_empty_and_an_empty_protocol_is_refused() {
    let job = Job::new();
    // protocol is required unless scenarios is given: left out, it arrives empty and is refused.
    let outcome = job.run(&[("command", &mock_command(""))]);
    let log = outcome.log();
    assert!(outcome.warnings.is_empty(), "{log}");
    assert_eq!(exits(&outcome), [Some(0), Some(0), Some(0), Some(2)], "{log}");
    assert_eq!(outcome.outputs["verdict"], "error", "{log}");
    assert!(outcome.step("certify").stdout.contains("::error title=proctor::protocol: it is empty"), "{log}");
    let families = protocol_families();
    assert!(outcome.summary.contains("    error: protocol: it is empty"), "{log}");
    assert!(outcome.summary.contains(&families), "the summary names the families ({families}): {log}");
    assert!(!outcome.step("certify").stdout.contains("proctor: "), "proctor never ran: {log}");
}

#[test]
fn a_runner_that_is_not_linux_is_refused_by_the_first_step_with_the_reason_in_the_summary() {
    let mut job = Job::new();
    job.runner.os = "macOS".to_string();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command(""))]);
    let log = outcome.log();
    // certify is skipped after the failure; the summary and exit steps run always() and say why.
    assert_eq!(exits(&outcome), [Some(2), None, Some(0), Some(2)], "{log}");
    assert!(outcome.step("install").stdout.contains("::error title=proctor::runner: this action runs on Linux runners only"), "{log}");
    assert_eq!(outcome.outputs["verdict"], "error", "{log}");
    assert!(outcome.summary.starts_with("## proctor certify: the plugin could not be judged"), "{log}");
    assert!(outcome.summary.contains("    error: runner: this action runs on Linux runners only, and this one is macOS"), "{log}");
}

#[test]
fn output_files_in_folders_that_do_not_exist_get_their_folders() {
    let job = Job::new();
    let outcome = job.run(&[
        ("protocol", "picoclaw-hook"),
        ("command", &mock_command("")),
        ("certificate", "out/certs/plugin.cert.json"),
        ("badge", "out/badges/plugin.json"),
        ("junit", "reports/junit/proctor.xml"),
    ]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0); 4], "{log}");
    assert_eq!(Path::new(&outcome.outputs["certificate"]), job.workspace("out/certs/plugin.cert.json"), "{log}");
    assert_eq!(json(&outcome.outputs["certificate"])["verdict"], "conformant");
    assert_eq!(json(&outcome.outputs["badge"])["schemaVersion"], 1);
    assert!(job.workspace("reports/junit/proctor.xml").is_file(), "{log}");

    // A folder that cannot be made (a file is in the way) is the user's mistake, named as such.
    std::fs::write(job.workspace("blocked"), "").unwrap();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("junit", "blocked/proctor.xml")]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0), Some(0), Some(0), Some(2)], "{log}");
    assert!(outcome.summary.contains("    error: junit: cannot create the folder "), "{log}");
    assert!(outcome.summary.contains("/blocked: mkdir: "), "{log}");
}

#[test]
fn shell_operators_outside_quotes_are_refused_with_the_way_to_use_a_shell() {
    for (command, operator) in
        [("python3 hook.py; touch X", ";"), ("a && b", "&&"), ("a | b", "|"), ("python3 hook.py > out", ">"), ("a 2>&1", ">&")]
    {
        let job = Job::new();
        let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", command)]);
        let log = outcome.log();
        assert_eq!(exits(&outcome), [Some(0), Some(0), Some(0), Some(2)], "{command}: {log}");
        assert_eq!(outcome.outputs["verdict"], "error", "{command}: {log}");
        let reason = format!(
            "    error: command: {operator} is a shell operator, but the command runs without a shell: write sh -c '...' explicitly"
        );
        assert!(outcome.summary.contains(&reason), "{command}: {log}");
    }
}

#[test]
fn shell_operators_inside_quotes_are_words() {
    let job = Job::new();
    // `;` quoted twice: inside the script sh runs, and as a word of its own ($0).
    let command = format!("sh -c 'exec \"$1\" mock-plugin --protocol picoclaw-hook; exit 9' ';' '{}'", proctor());
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("profiles", "documented"), ("command", &command)]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0); 4], "{log}");
    assert_eq!(outcome.outputs["verdict"], "conformant", "{log}");
    let certificate = json(&outcome.outputs["certificate"]);
    assert_eq!(certificate["command"][3], ";", "{log}");
}

/// One certify run writes the JUnit report and the job summary's Markdown page: here the plugin
/// breaks the baseline file once the run has read it, which a second run would trip over.
#[test]
fn the_summary_is_the_certify_runs_own_report() {
    let job = Job::new();
    std::fs::write(job.workspace("base.yaml"), "expected_failures: []\n").unwrap();
    let command = format!("sh -c 'echo broken > base.yaml; exec \"$0\" mock-plugin --protocol picoclaw-hook' '{}'", proctor());
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("profiles", "documented"), ("baseline", "base.yaml"), ("command", &command)]);
    let log = outcome.log();
    assert_eq!(exits(&outcome), [Some(0); 4], "{log}");
    assert_eq!(outcome.outputs["verdict"], "conformant", "{log}");
    assert!(!outcome.summary.contains("could not be"), "{log}");
    assert!(!outcome.summary.contains("invalid baseline"), "no second run: {log}");
    assert!(outcome.summary.contains("documented"), "the Markdown report: {log}");
}

#[test]
fn the_args_input_passes_any_other_certify_flag_split_as_a_shell_would() {
    let job = Job::new();
    // `--require deny` on an always-allowing hook: CASE-REQUIRE fails, so the flag reached certify.
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("args", "--require 'deny' --timeout-ms 4000")]);
    let log = outcome.log();
    assert_eq!(outcome.outputs["verdict"], "nonconformant", "{log}");
    assert!(outcome.summary.contains("CASE-REQUIRE"), "{log}");
    // A shell operator outside quotes would only be a word: refused, as for the command.
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("args", "--require deny; rm -rf /")]);
    let log = outcome.log();
    assert_eq!(outcome.outputs["verdict"], "error", "{log}");
    assert!(outcome.summary.contains("args: ; is a shell operator, but the args are passed without a shell"), "{log}");
}

#[test]
fn the_action_carries_its_marketplace_branding() {
    let action = Action::load(&repo_root().join("action.yml")).unwrap();
    let branding = action.branding.expect("branding:");
    // GitHub's Marketplace takes a Feather icon name and one of eight colours.
    assert_eq!((branding.icon.as_str(), branding.color.as_str()), ("check-circle", "green"));
}

/// `version:` installs that release with pip from the package index pip is
/// pointed at: here a local folder holding the wheel `.ci/run` built
/// (PIP_FIND_LINKS, no network index), as a runner would from the Python
/// package index. Skipped without `PROCTOR_WHEEL`.
#[test]
fn version_installs_that_release_from_the_package_index() {
    let Some(wheel) = std::env::var_os("PROCTOR_WHEEL").filter(|w| !w.is_empty()) else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "version_installs_that_release_from_the_package_index: SKIPPED, PROCTOR_WHEEL is unset (.ci/run sets it)"
        );
        return;
    };
    let mut job = Job::new();
    let index = job.runner.temp.with_file_name("index");
    std::fs::create_dir_all(&index).unwrap();
    let wheel = Path::new(&wheel);
    std::fs::copy(wheel, index.join(wheel.file_name().unwrap())).unwrap();
    job.runner.env.insert("PIP_NO_INDEX".into(), "1".into());
    job.runner.env.insert("PIP_FIND_LINKS".into(), index.display().to_string());
    let version = wheel.file_name().unwrap().to_str().unwrap().split('-').nth(1).expect("proctor-VERSION-… wheel name").to_string();
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("wheel", ""), ("version", &version)]);
    let log = outcome.log();
    assert!(outcome.step("install").stdout.contains(&format!("Installing proctor {version} from the package index")), "{log}");
    assert_eq!(outcome.outputs["verdict"], "conformant", "{log}");
    let ran = outcome.step("certify").stdout.lines().find_map(|l| l.strip_prefix("proctor: ")).unwrap_or_default().to_string();
    assert!(ran.starts_with(&job.runner.temp.join("proctor-bin/proctor").display().to_string()), "the installed release ran: {log}");
    // A release the index does not have stops the job before certifying, saying so.
    let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("wheel", ""), ("version", "99.0.0")]);
    assert!(outcome.summary.contains("version: pip could not install proctor 99.0.0"), "{}", outcome.log());
    assert_eq!(exits(&outcome)[1], None, "certify did not run: {}", outcome.log());
}

/// `version:` is a release number, never a path, URL or pip option.
#[test]
fn a_version_that_is_not_a_release_number_is_refused() {
    let job = Job::new();
    for bad in ["--index-url=https://evil.example", "../dist/proctor.whl", "1.0 ; sys_platform"] {
        let outcome = job.run(&[("protocol", "picoclaw-hook"), ("command", &mock_command("")), ("wheel", ""), ("version", bad)]);
        assert!(outcome.summary.contains("is not a release number"), "{bad}: {}", outcome.log());
    }
}

/// `scenarios:` runs `proctor run` instead of certify: one run writes the
/// JUnit, HTML and Markdown reports, the verdict follows the scenarios, and no
/// certificate or badge is claimed.
#[test]
fn scenarios_run_instead_of_certify_with_every_report() {
    let job = Job::new();
    let scenarios = job.workspace("scenarios");
    std::fs::create_dir_all(&scenarios).unwrap();
    let root = repo_root();
    // A scenario with a mock plugin only: it runs anywhere.
    let passing = std::fs::read_to_string(root.join("scenarios/runok/uppercase-status-falls-back-to-ask.yaml")).unwrap();
    std::fs::write(scenarios.join("one.yaml"), &passing).unwrap();
    let outcome = job.run(&[("scenarios", "scenarios"), ("args", "--jobs 1")]);
    let log = outcome.log();
    assert_eq!(outcome.outputs["verdict"], "conformant", "{log}");
    assert!(outcome.step("certify").stdout.contains("proctor run exited 0: conformant"), "{log}");
    assert!(outcome.summary.contains("## proctor run: 1 passed, 0 failed"), "{log}");
    assert!(json_or_text(&outcome.outputs["junit"]).contains("<testsuite"), "{log}");
    assert!(json_or_text(&outcome.outputs["html"]).contains("<html"), "{log}");
    assert_eq!(outcome.outputs["certificate"], "", "no certificate for scenarios: {log}");
    // A scenario that fails fails the job, after the reports.
    let failing = passing.replace("id: runok/", "id: broken/").replace("outcome: ask", "outcome: allow");
    assert_ne!(failing, passing);
    std::fs::write(scenarios.join("two.yaml"), failing).unwrap();
    let outcome = job.run(&[("scenarios", "scenarios")]);
    assert_eq!(outcome.outputs["verdict"], "nonconformant", "{}", outcome.log());
    assert_eq!(exits(&outcome).last(), Some(&Some(1)), "{}", outcome.log());
    // Scenarios that cannot be used are an error, named as run's.
    let outcome = job.run(&[("scenarios", "no-such-folder")]);
    assert_eq!(outcome.outputs["verdict"], "error", "{}", outcome.log());
    assert!(outcome.summary.contains("## proctor run: the scenarios could not be run"), "{}", outcome.log());
}

fn json_or_text(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
