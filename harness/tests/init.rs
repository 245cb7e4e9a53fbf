//! `proctor init`: every template it can write certifies conformant under every
//! profile of its family with the certify command init prints, its scenario
//! passes with `proctor run`, its workflow names the action's inputs, and init
//! never writes over a file. The Go and TypeScript templates are built as init
//! says first (see `toolchains`).

mod common;
mod toolchains;

use std::path::Path;
use std::process::{Command, Output};

use common::{proctor, repo_root};
use proctor::templates::{self, Lang, Template};
use proctor_conformance::protocol::{Family, Profile, Role};
use serde_json::Value;

/// The inputs of proctor's composite action (`action.yml`), as agreed.
const ACTION_INPUTS: &[&str] = &[
    "protocol",
    "role",
    "profiles",
    "command",
    "cases",
    "baseline",
    "schema",
    "fuzz",
    "working-directory",
    "certificate",
    "badge",
    "junit",
    "wheel",
];

fn init(template: &Template, dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["init", "--protocol", template.family.name(), "--lang", template.lang.name()];
    args.extend(template.role_flag().into_iter().flat_map(|r| ["--role", r]));
    args.extend(["--dir", dir.to_str().expect("utf-8 temp dir")]);
    args.extend(extra);
    Command::new(proctor()).args(&args).output().expect("run proctor init")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `proctor …` commands init printed for the user to run next (each is plain words).
fn printed_commands(stdout: &str) -> Vec<Vec<String>> {
    stdout.lines().filter_map(|l| l.trim().strip_prefix("proctor ")).map(|c| c.split_whitespace().map(String::from).collect()).collect()
}

/// The build commands init printed for the user to run first (`go build …`, `npm …`).
fn printed_builds(stdout: &str) -> Vec<Vec<String>> {
    let build = |l: &&str| l.starts_with("go ") || l.starts_with("npm ");
    stdout.lines().map(str::trim).filter(build).map(|c| c.split_whitespace().map(String::from).collect()).collect()
}

/// Writes `template` into a fresh folder, runs the build, certify and run commands
/// init printed from there, and says what is wrong, if anything.
fn check_template(template: &Template) -> Result<(), String> {
    let what = format!("{} {} ({})", template.family, template.role, template.lang.name());
    check_init(&what, template.family, template.cases.is_some(), |dir| init(template, dir, &[]))
}

/// Runs `init` (into the folder it is given), then the build, certify and run
/// commands it printed, from there; says what is wrong, if anything.
fn check_init(what: &str, family: Family, has_cases: bool, init: impl Fn(&Path) -> Output) -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    // A folder that does not exist yet, two levels down: init creates it.
    let dir = tmp.path().join("plugins").join("mine");
    let out = init(&dir);
    if out.status.code() != Some(0) {
        return Err(format!("{what}: init exited {:?}: {}", out.status.code(), text(&out.stderr)));
    }
    let stdout = text(&out.stdout);
    if !stdout.contains(&format!("cd {}", dir.display())) {
        return Err(format!("{what}: init does not say to run the commands from {}:\n{stdout}", dir.display()));
    }
    let commands = printed_commands(&stdout);
    let certify = commands.iter().find(|c| c[0] == "certify").ok_or_else(|| format!("{what}: no certify command printed:\n{stdout}"))?;
    let run = commands.iter().find(|c| c[0] == "run").ok_or_else(|| format!("{what}: no run command printed:\n{stdout}"))?;
    if has_cases != certify.iter().any(|a| a == "--cases") {
        return Err(format!("{what}: the certify command and the cases file disagree: {certify:?}"));
    }
    toolchains::build(&dir, &printed_builds(&stdout)).map_err(|e| format!("{what}: {e}"))?;

    // The printed certify command, asked for JSON.
    let mut args = vec!["certify".to_string(), "--format".into(), "json".into(), "--no-progress".into()];
    args.extend(certify[1..].iter().cloned());
    let out = Command::new(proctor()).args(&args).current_dir(&dir).output().map_err(|e| e.to_string())?;
    let report: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("{what}: certify printed no JSON report ({e}): {}", text(&out.stderr)))?;
    let failing: Vec<String> = report["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["status"] == "fail")
        .map(|c| format!("{} [{}] {}", c["id"], c["profile"], c["message"]))
        .collect();
    if out.status.code() != Some(0) || report["verdict"] != "conformant" {
        return Err(format!(
            "{what}: `proctor {}` exited {:?}, verdict {}:\n{}",
            certify.join(" "),
            out.status.code(),
            report["verdict"],
            failing.join("\n")
        ));
    }
    for profile in Profile::for_family(family) {
        if report["profile_verdicts"][profile.name()] != "conformant" {
            return Err(format!("{what}: not conformant under {profile}: {}", report["profile_verdicts"]));
        }
    }
    let cases_passed =
        report["checks"].as_array().into_iter().flatten().filter(|c| c["id"] == "CASE-DECISION" && c["status"] == "pass").count();
    if has_cases && cases_passed == 0 {
        return Err(format!("{what}: no case was judged"));
    }

    // The printed scenario run.
    let out = Command::new(proctor()).args(run).arg("--no-progress").current_dir(&dir).output().map_err(|e| e.to_string())?;
    if out.status.code() != Some(0) || !text(&out.stdout).contains("1 passed, 0 failed") {
        return Err(format!(
            "{what}: `proctor {}` exited {:?}:\n{}{}",
            run.join(" "),
            out.status.code(),
            text(&out.stdout),
            text(&out.stderr)
        ));
    }
    Ok(())
}

/// The Python and sh templates (the agents' hooks' too); the Go and TypeScript ones, which
/// are built first, are held by the two tests after this one.
#[test]
fn every_template_certifies_conformant_and_its_scenario_passes() {
    // Four at a time: each certify spawns the plugin a few dozen times.
    let mut failures = Vec::new();
    let interpreted: Vec<&Template> = templates::all().filter(|t| matches!(t.lang, Lang::Python | Lang::Sh)).collect();
    assert!(interpreted.iter().any(|t| t.family.is_agent_hook()), "the agents' hooks are among them");
    for batch in interpreted.chunks(4) {
        std::thread::scope(|s| {
            let handles: Vec<_> = batch.iter().map(|t| s.spawn(move || check_template(t))).collect();
            failures.extend(handles.into_iter().filter_map(|h| h.join().expect("no panic").err()));
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let sh = templates::ALL.iter().filter(|t| t.lang == Lang::Sh).count();
    assert!(sh >= 1 && templates::ALL.len() > sh, "both languages are covered");
}

/// Every template in `lang` (Go or TypeScript), and its PicoClaw hook serving every
/// mode and two of them, built with the commands init printed, certifies
/// conformant and its scenario passes.
fn built_templates_certify(lang: Lang, test: &str) {
    if !toolchains::ready(lang, test) {
        return;
    }
    let chosen: Vec<&Template> = templates::all().filter(|t| t.lang == lang).collect();
    assert!(!chosen.is_empty(), "no {} template", lang.name());
    // Four at a time: each builds once, then certify spawns it a few dozen times.
    let mut failures = Vec::new();
    for batch in chosen.chunks(4) {
        std::thread::scope(|s| {
            let handles: Vec<_> = batch.iter().map(|t| s.spawn(move || check_template(t))).collect();
            failures.extend(handles.into_iter().filter_map(|h| h.join().expect("no panic").err()));
        });
    }
    let modes: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = [None, Some("observe,llm")]
            .into_iter()
            .map(|role| {
                s.spawn(move || {
                    let what = format!("picoclaw-hook --role {} ({})", role.unwrap_or("(none)"), lang.name());
                    check_init(&what, Family::PicoclawHook, true, |dir| {
                        let mut args = vec!["init", "--protocol", "picoclaw-hook", "--lang", lang.name()];
                        args.extend(role.iter().flat_map(|r| ["--role", r]));
                        args.extend(["--dir", dir.to_str().expect("utf-8 temp dir")]);
                        Command::new(proctor()).args(&args).output().expect("run proctor init")
                    })
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().expect("no panic").err()).collect()
    });
    failures.extend(modes);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_go_template_builds_certifies_conformant_and_its_scenario_passes() {
    built_templates_certify(Lang::Go, "every_go_template_builds_certifies_conformant_and_its_scenario_passes");
}

#[test]
fn every_typescript_template_builds_certifies_conformant_and_its_scenario_passes() {
    built_templates_certify(Lang::Ts, "every_typescript_template_builds_certifies_conformant_and_its_scenario_passes");
}

/// `init --protocol picoclaw-hook` without --role writes one hook serving every
/// mode; with several modes, the same hook with the cases and scenario of
/// those modes. Each certifies conformant, its cases judged, its scenario passing.
#[test]
fn picoclaw_hooks_for_several_modes_certify_and_their_scenarios_pass() {
    let choices: [Option<&str>; 4] = [None, Some("tool,approve"), Some("observe,llm"), Some("approve,llm,tool")];
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = choices
            .iter()
            .map(|role| {
                s.spawn(move || {
                    let what = format!("picoclaw-hook --role {}", role.unwrap_or("(none)"));
                    check_init(&what, Family::PicoclawHook, true, |dir| {
                        let mut args = vec!["init", "--protocol", "picoclaw-hook", "--dir", dir.to_str().expect("utf-8 temp dir")];
                        args.extend(role.iter().flat_map(|r| ["--role", r]));
                        Command::new(proctor()).args(&args).output().expect("run proctor init")
                    })
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().expect("no panic").err()).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The modes chosen are the ones certified and listed in the workflow.
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(proctor())
        .args(["init", "--protocol", "picoclaw-hook", "--role", "approve,tool", "--dir"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains("--role tool,approve --cases hook.cases.yaml -- python3 hook.py"), "{}", text(&out.stdout));
    let workflow = std::fs::read_to_string(tmp.path().join(templates::WORKFLOW_PATH)).unwrap();
    assert!(workflow.contains("role: \"tool,approve\""), "{workflow}");
    let cases = std::fs::read_to_string(tmp.path().join("hook.cases.yaml")).unwrap();
    assert!(cases.contains("hook.approve_tool") && !cases.contains("hook.before_llm"), "only the chosen modes' cases:\n{cases}");
}

/// The `with:` of the workflow's step that uses `action`, after checking the checkout step.
fn action_step(workflow: &str, action: &str) -> serde_json::Map<String, Value> {
    let parsed: Value = serde_saphyr::from_str(workflow).unwrap_or_else(|e| panic!("the workflow is not YAML ({e}):\n{workflow}"));
    let steps = parsed["jobs"]["certify"]["steps"].as_array().unwrap_or_else(|| panic!("no jobs.certify.steps:\n{workflow}"));
    let checkout = steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/checkout@"))).expect("a checkout step");
    assert_eq!(checkout["with"]["submodules"] == true, action.starts_with("./"), "submodules exactly for a local action:\n{workflow}");
    let step = steps.iter().find(|s| s["uses"] == action).unwrap_or_else(|| panic!("no step uses {action}:\n{workflow}"));
    step["with"].as_object().cloned().expect("the action step has `with:`")
}

#[test]
fn every_workflow_gives_the_action_the_templates_protocol_role_command_and_cases() {
    // When the action is in this checkout, its own inputs are the reference too.
    let defined: Option<Vec<String>> = std::fs::read_to_string(repo_root().join("action.yml")).ok().map(|text| {
        let action: Value = serde_saphyr::from_str(&text).expect("action.yml is YAML");
        action["inputs"].as_object().expect("action.yml has inputs").keys().cloned().collect()
    });
    for template in templates::all() {
        for action in ["./proctor", "acme/proctor@v1"] {
            let tmp = tempfile::tempdir().unwrap();
            let out = init(template, tmp.path(), &["--action", action]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let workflow = std::fs::read_to_string(tmp.path().join(".github/workflows/proctor.yml")).unwrap();
            let with = action_step(&workflow, action);
            for key in with.keys() {
                assert!(ACTION_INPUTS.contains(&key.as_str()), "`{key}` is not an input of the action:\n{workflow}");
                if let Some(defined) = &defined {
                    assert!(defined.contains(key), "action.yml defines no input `{key}`");
                }
            }
            assert_eq!(with["protocol"], template.family.name());
            assert_eq!(with.get("role").and_then(Value::as_str), template.role_flag(), "{workflow}");
            assert_eq!(with["command"], template.command().join(" "));
            // What is built is built before proctor's step runs it.
            let build: Vec<String> = template.rendered().build().iter().map(|argv| argv.join(" ")).collect();
            if !build.is_empty() {
                let (before, _) = workflow.split_once(&format!("uses: \"{action}\"")).expect("the action step");
                assert!(before.contains(&format!("- run: {}\n", build.join(" && "))), "{workflow}");
            }
            for file in template.rendered().support() {
                assert!(tmp.path().join(file.name).is_file(), "{} was not written", file.name);
            }
            assert_eq!(with.get("cases").and_then(Value::as_str), template.cases.map(|c| c.name), "{workflow}");
            // The files the workflow names are the ones init wrote beside it.
            assert!(tmp.path().join(template.plugin.name).is_file());
            if let Some(cases) = template.cases {
                assert!(tmp.path().join(cases.name).is_file());
            }
        }
    }
}

#[test]
fn an_existing_file_is_named_and_nothing_is_written() {
    let template = templates::ALL.iter().find(|t| t.cases.is_some()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path().join(template.cases.unwrap().name);
    std::fs::write(&cases, "mine").unwrap();
    let out = init(template, tmp.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains(&cases.display().to_string()) && err.contains("nothing written"), "{err}");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![cases.file_name().unwrap().to_owned()], "only the user's file is there");
    assert_eq!(std::fs::read_to_string(&cases).unwrap(), "mine");

    // Every file in the way is named, the workflow too.
    std::fs::create_dir_all(tmp.path().join(".github/workflows")).unwrap();
    std::fs::write(tmp.path().join(templates::WORKFLOW_PATH), "mine").unwrap();
    let err = text(&init(template, tmp.path(), &[]).stderr);
    assert!(err.contains(templates::WORKFLOW_PATH) && err.contains(&cases.display().to_string()), "{err}");
    assert!(!tmp.path().join(template.plugin.name).exists());

    // A --dir that is a file (or lies under one) is named as such.
    for dir in [cases.clone(), cases.join("sub")] {
        let out = init(template, &dir, &[]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("{} is a file, not a folder", cases.display())), "{err}");
    }
}

#[test]
fn unknown_or_missing_choices_are_usage_errors_naming_the_valid_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let cases: [(&[&str], &str); 7] = [
        (&["--protocol", "promptkit-exec"], "needs --role: one of tool, eval, provider-hook, tool-hook, session-hook, eval-hook, selector"),
        (&["--protocol", "picoclaw-hook", "--role", "tool-hook"], "expected one of: observe, llm, tool, approve"),
        (&["--protocol", "picoclaw-hook", "--role", ","], "--role names no mode"),
        (&["--protocol", "picoclaw-hook", "--lang", "sh"], "use --lang python"),
        (&["--protocol", "promptkit-exec", "--role", "tool", "--lang", "sh"], "languages for it: python"),
        (
            &["--protocol", "picoclaw", "--role", "tool"],
            "expected one of: promptkit-exec, promptkit-server, picoclaw-hook, runok-extension",
        ),
        (&["--protocol", "runok-extension", "--lang", "perl"], "possible values: python, sh, go, ts"),
    ];
    for (args, expected) in cases {
        let out = Command::new(proctor()).arg("init").args(args).arg("--dir").arg(&dir).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(expected), "{args:?}: {}", text(&out.stderr));
        assert!(!dir.exists(), "{args:?} wrote something");
    }
}

#[test]
fn a_long_lived_template_survives_a_bug_in_the_users_rule() {
    // PicoClaw keeps one hook process for the whole session and never restarts it: an exception
    // (a panic in Go) in the user's rule must become a JSON-RPC error for that request, not the
    // end of the hook. Each language's approve hook gets a bug at the start of its rule.
    let bugs = [
        (Lang::Python, "    arguments = params.get(\"arguments\")", "    raise ValueError(\"boom\")\n"),
        (Lang::Go, "\targuments, _ := params[\"arguments\"]", "\tif params[\"tool\"] != nil {\n\t\tpanic(\"boom\")\n\t}\n"),
        (
            Lang::Ts,
            "  const command = isObject(params.arguments)",
            "  if (params.tool !== undefined) {\n    throw new Error(\"boom\");\n  }\n",
        ),
    ];
    for (lang, rule, bug) in bugs {
        if !toolchains::ready(lang, "a_long_lived_template_survives_a_bug_in_the_users_rule") {
            continue;
        }
        let template = templates::find(Family::PicoclawHook, Role::Approve, lang).expect("the approve template");
        let tmp = tempfile::tempdir().unwrap();
        assert!(init(template, tmp.path(), &[]).status.success());
        let script = tmp.path().join(template.plugin.name);
        let text_of = std::fs::read_to_string(&script).unwrap();
        let broken = text_of.replacen(rule, &format!("{bug}{rule}"), 1);
        assert_ne!(broken, text_of, "{}: the template's rule changed: update this test", template.plugin.name);
        std::fs::write(&script, broken).unwrap();
        let rendered = template.rendered();
        toolchains::build(tmp.path(), &rendered.build()).unwrap_or_else(|e| panic!("{e}"));
        let input = concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"hook.approve_tool","params":{"tool":"bash","arguments":{"command":"ls"}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"method":"hook.hello","params":{"name":"x","version":1,"modes":["approve"]}}"#,
            "\n"
        );
        let argv = rendered.command();
        // `./approve_hook` is in the folder init wrote.
        let program = if argv[0].starts_with("./") { tmp.path().join(&argv[0]) } else { argv[0].clone().into() };
        let mut child = Command::new(program)
            .args(&argv[1..])
            .current_dir(tmp.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let lines: Vec<serde_json::Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2, "{}: {lines:?}", lang.name());
        assert_eq!((lines[0]["id"].as_i64(), lines[0]["error"]["code"].as_i64()), (Some(1), Some(-32603)), "{}: {lines:?}", lang.name());
        assert_eq!(lines[1]["result"]["ok"], true, "{}: the hook still answers after the bug: {lines:?}", lang.name());
        assert!(text(&out.stderr).contains("boom"), "{}: the bug is logged on stderr", lang.name());
    }
}
