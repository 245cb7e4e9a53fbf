//! A GitHub Actions runner in miniature, for the composite action in
//! `action.yml`: it runs the action's steps as the real runner does, so that
//! the action is tested by executing it, not by reading it.
//!
//! What it does as GitHub does: each `run:` goes to a script file run with
//! `bash --noprofile --norc -eo pipefail {0}` in the workspace; `env:` and
//! `outputs:` are evaluated; `GITHUB_OUTPUT`, `GITHUB_ENV`, `GITHUB_PATH` and
//! `GITHUB_STEP_SUMMARY` are fresh files for each step, read back after it
//! (outputs by step id, variables and PATH entries for the steps after it,
//! summaries concatenated); `if:` decides whether a step runs after a failure;
//! a `required` input left out gets its default (or "") and a warning, since
//! GitHub does not enforce `required` for composite actions.
//!
//! What it refuses, so that the test fails when the action outgrows it: any
//! step key, expression or condition it does not implement, the
//! `NAME<<DELIMITER` form of the command files, and any `${{ }}` inside a
//! `run:` script (an input spliced into a script's source is a
//! script-injection hole; scripts read `env:`).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

/// `action.yml`, with only the keys this runner implements.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub name: String,
    pub description: String,
    /// The Marketplace's icon and colour (GitHub's action metadata; no part of a run).
    pub branding: Option<Branding>,
    pub inputs: BTreeMap<String, Input>,
    pub outputs: BTreeMap<String, Output>,
    pub runs: Runs,
}

/// `branding:`: GitHub takes a Feather icon name and one of its colours.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Branding {
    pub icon: String,
    pub color: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Input {
    pub description: String,
    #[serde(default)]
    pub required: bool,
    pub default: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    pub description: String,
    pub value: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Runs {
    pub using: String,
    pub steps: Vec<Step>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub id: Option<String>,
    pub name: Option<String>,
    #[serde(rename = "if")]
    pub condition: Option<String>,
    pub shell: String,
    pub run: String,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

impl Action {
    pub fn load(path: &Path) -> Result<Action, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let action: Action = serde_saphyr::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        // GitHub's metadata requires these; the Marketplace and `uses:` pages show them.
        let mut texts = vec![("name", &action.name), ("description", &action.description)];
        texts.extend(action.inputs.iter().map(|(name, input)| (name.as_str(), &input.description)));
        texts.extend(action.outputs.iter().map(|(name, output)| (name.as_str(), &output.description)));
        if let Some((name, _)) = texts.iter().find(|(_, text)| text.trim().is_empty()) {
            return Err(format!("{}: {name} has no description", path.display()));
        }
        Ok(action)
    }
}

/// The job around the action: its folders and the PATH it starts with.
pub struct Runner {
    /// The action's checkout (`GITHUB_ACTION_PATH`).
    pub action_path: PathBuf,
    /// `GITHUB_WORKSPACE`, where every step runs.
    pub workspace: PathBuf,
    /// `RUNNER_TEMP`.
    pub temp: PathBuf,
    /// Where the runner keeps its own files (scripts, per-step command files).
    pub files: PathBuf,
    /// The job's PATH before any step added to it.
    pub path: OsString,
    /// `RUNNER_OS`: `Linux`, `macOS` or `Windows` on GitHub.
    pub os: String,
    /// The workflow's `env:`, which every step of the action sees.
    pub env: BTreeMap<String, String>,
}

/// What one step did; `exit` is `None` when its `if:` skipped it.
#[derive(Debug)]
pub struct StepRun {
    pub id: Option<String>,
    pub label: String,
    pub exit: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

#[derive(Debug)]
pub struct Outcome {
    /// The runner's own warnings (`##[warning]...` lines in the job log).
    pub warnings: Vec<String>,
    pub steps: Vec<StepRun>,
    pub outputs: BTreeMap<String, String>,
    pub summary: String,
}

impl Outcome {
    /// The step that failed the action, as the job sees it: the first one
    /// that exited non-zero.
    pub fn failure(&self) -> Option<(&StepRun, i32)> {
        self.steps.iter().find_map(|s| s.exit.filter(|code| *code != 0).map(|code| (s, code)))
    }

    pub fn step(&self, id: &str) -> &StepRun {
        self.steps.iter().find(|s| s.id.as_deref() == Some(id)).unwrap_or_else(|| panic!("no step {id}\n{}", self.log()))
    }

    /// Every step's exit and output, for assertion messages.
    pub fn log(&self) -> String {
        let mut log = String::new();
        for warning in &self.warnings {
            log.push_str(&format!("##[warning]{warning}\n"));
        }
        for s in &self.steps {
            let exit = s.exit.map_or("skipped".to_string(), |c| format!("exit {c}"));
            log.push_str(&format!("--- {} ({exit})\n{}{}", s.label, s.stdout, s.stderr));
        }
        log.push_str(&format!("--- outputs {:?}\n--- summary\n{}", self.outputs, self.summary));
        log
    }
}

/// What expressions can see while the action runs.
struct Context<'a> {
    inputs: &'a BTreeMap<String, String>,
    step_ids: &'a BTreeSet<&'a str>,
    step_outputs: &'a BTreeMap<String, BTreeMap<String, String>>,
    action_path: &'a str,
    temp: &'a str,
}

impl Runner {
    /// Runs the action with `given` inputs, every step in order.
    pub fn run(&self, action: &Action, given: &[(&str, &str)]) -> Result<Outcome, String> {
        if action.runs.using != "composite" {
            return Err(format!("runs.using is {:?}; this runner plays composite actions", action.runs.using));
        }
        let (inputs, warnings) = resolve_inputs(action, given)?;
        let step_ids: BTreeSet<&str> = action.runs.steps.iter().filter_map(|s| s.id.as_deref()).collect();
        let (action_path, temp) = (utf8(&self.action_path)?, utf8(&self.temp)?);
        let mut step_outputs = BTreeMap::new();
        let mut job_env = BTreeMap::new();
        let mut path_added: Vec<String> = Vec::new();
        let mut steps = Vec::new();
        let mut summary = String::new();
        let mut failed = false;
        for (index, step) in action.runs.steps.iter().enumerate() {
            let label = step.id.clone().or_else(|| step.name.clone()).unwrap_or_else(|| format!("step {index}"));
            if !should_run(step.condition.as_deref(), failed)? {
                steps.push(StepRun { id: step.id.clone(), label, exit: None, stdout: String::new(), stderr: String::new() });
                continue;
            }
            let context = Context { inputs: &inputs, step_ids: &step_ids, step_outputs: &step_outputs, action_path, temp };
            let mut env = BTreeMap::new();
            for (name, value) in &step.env {
                env.insert(name.clone(), evaluate(value, &context)?);
            }
            let files = StepFiles::create(&self.files.join(format!("step-{index}")))?;
            let run = self.run_script(step, &label, &files, &job_env, &env, &path_added)?;
            failed |= run.exit != Some(0);
            if let Some(id) = &step.id {
                step_outputs.insert(id.clone(), parse_commands(&read(&files.output)?)?.into_iter().collect());
            }
            job_env.extend(parse_commands(&read(&files.env)?)?);
            for dir in read(&files.path)?.lines().filter(|l| !l.is_empty()) {
                path_added.insert(0, dir.to_string());
            }
            summary.push_str(&read(&files.summary)?);
            steps.push(run);
        }
        let context = Context { inputs: &inputs, step_ids: &step_ids, step_outputs: &step_outputs, action_path, temp };
        let mut outputs = BTreeMap::new();
        for (name, output) in &action.outputs {
            outputs.insert(name.clone(), evaluate(&output.value, &context)?);
        }
        Ok(Outcome { warnings, steps, outputs, summary })
    }

    fn run_script(
        &self,
        step: &Step,
        label: &str,
        files: &StepFiles,
        job_env: &BTreeMap<String, String>,
        step_env: &BTreeMap<String, String>,
        path_added: &[String],
    ) -> Result<StepRun, String> {
        if step.shell != "bash" {
            return Err(format!("step {label}: shell {:?}; this runner runs `shell: bash` only", step.shell));
        }
        if step.run.contains("${{") {
            return Err(format!(
                "step {label}: an expression inside `run:` is spliced into the script (injection); pass it through `env:`"
            ));
        }
        std::fs::write(&files.script, &step.run).map_err(|e| format!("{}: {e}", files.script.display()))?;
        let mut path = OsString::new();
        for dir in path_added {
            path.push(dir);
            path.push(":");
        }
        path.push(&self.path);
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&files.script)
            .current_dir(&self.workspace)
            .envs(&self.env)
            .envs(job_env)
            .envs(step_env)
            .env("PATH", path)
            .env("GITHUB_OUTPUT", &files.output)
            .env("GITHUB_ENV", &files.env)
            .env("GITHUB_PATH", &files.path)
            .env("GITHUB_STEP_SUMMARY", &files.summary)
            .env("GITHUB_ACTION_PATH", &self.action_path)
            .env("GITHUB_WORKSPACE", &self.workspace)
            .env("RUNNER_TEMP", &self.temp)
            .env("RUNNER_OS", &self.os)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("step {label}: cannot start bash: {e}"))?;
        Ok(StepRun {
            id: step.id.clone(),
            label: label.to_string(),
            // A step killed by a signal has failed too; the runner shows no code for it.
            exit: Some(out.status.code().unwrap_or(-1)),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}

/// The files a runner gives one step.
struct StepFiles {
    script: PathBuf,
    output: PathBuf,
    env: PathBuf,
    path: PathBuf,
    summary: PathBuf,
}

impl StepFiles {
    fn create(dir: &Path) -> Result<StepFiles, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let files = StepFiles {
            script: dir.join("script.sh"),
            output: dir.join("output"),
            env: dir.join("env"),
            path: dir.join("path"),
            summary: dir.join("summary.md"),
        };
        for file in [&files.output, &files.env, &files.path, &files.summary] {
            std::fs::write(file, "").map_err(|e| format!("{}: {e}", file.display()))?;
        }
        Ok(files)
    }
}

/// Every declared input's value: the one given, or its default (else ""),
/// and the warnings the runner logs. A `required` input left out is no error:
/// GitHub does not enforce `required` for composite actions, so the action
/// must refuse an empty value itself; the runner only warns. An input the
/// action does not declare is the caller's bug.
fn resolve_inputs(action: &Action, given: &[(&str, &str)]) -> Result<(BTreeMap<String, String>, Vec<String>), String> {
    if let Some((name, _)) = given.iter().find(|(name, _)| !action.inputs.contains_key(*name)) {
        return Err(format!("input {name:?} is not declared by the action"));
    }
    let mut inputs = BTreeMap::new();
    let mut warnings = Vec::new();
    for (name, input) in &action.inputs {
        let value = match given.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) => value.to_string(),
            None => {
                if input.required {
                    warnings.push(format!("Input required and not supplied: {name}"));
                }
                input.default.clone().unwrap_or_default()
            }
        };
        if value.contains("${{") && !given.iter().any(|(n, _)| n == name) {
            return Err(format!("input {name:?}: an expression in a default is not implemented here"));
        }
        inputs.insert(name.clone(), value);
    }
    Ok((inputs, warnings))
}

/// Whether a step runs, from its `if:` and whether an earlier step failed.
fn should_run(condition: Option<&str>, failed: bool) -> Result<bool, String> {
    let condition = condition.map(|c| {
        let c = c.trim();
        c.strip_prefix("${{").and_then(|c| c.strip_suffix("}}")).map_or(c, str::trim)
    });
    match condition {
        None | Some("success()") => Ok(!failed),
        Some("failure()") => Ok(failed),
        Some("always()") => Ok(true),
        Some(other) => Err(format!("if: {other:?} is not implemented here (always(), success(), failure())")),
    }
}

/// `text` with every `${{ expression }}` replaced by its value.
fn evaluate(text: &str, context: &Context) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 3..];
        let end = after.find("}}").ok_or_else(|| format!("unclosed expression in {text:?}"))?;
        out.push_str(&value_of(after[..end].trim(), context)?);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One expression: context properties joined by `||`, which (as GitHub
/// evaluates it) gives the first operand that is not "", else the last.
fn value_of(expression: &str, context: &Context) -> Result<String, String> {
    let mut value = String::new();
    for operand in expression.split("||") {
        value = property(operand.trim(), context)?;
        if !value.is_empty() {
            break;
        }
    }
    Ok(value)
}

/// One context property the action uses, nothing else.
fn property(expression: &str, context: &Context) -> Result<String, String> {
    let parts: Vec<&str> = expression.split('.').collect();
    let name_like = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !parts.iter().all(|p| name_like(p)) {
        return Err(format!("`{expression}` is not implemented here (only context properties)"));
    }
    match parts.as_slice() {
        ["inputs", name] => context.inputs.get(*name).cloned().ok_or_else(|| format!("`{expression}`: no such input")),
        ["github", "action_path"] => Ok(context.action_path.to_string()),
        ["runner", "temp"] => Ok(context.temp.to_string()),
        ["steps", id, "outputs", name] if context.step_ids.contains(id) => {
            // As GitHub: an output a step did not set (or a step that did not run) is "".
            Ok(context.step_outputs.get(*id).and_then(|o| o.get(*name)).cloned().unwrap_or_default())
        }
        ["steps", id, ..] => Err(format!("`{expression}`: no step has id {id:?}, or the property is not implemented")),
        _ => Err(format!("`{expression}` is not implemented here")),
    }
}

/// The `NAME=value` lines of `GITHUB_OUTPUT` and `GITHUB_ENV`. The
/// `NAME<<DELIMITER` form is refused: the action does not use it, so it is
/// not implemented here.
fn parse_commands(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        match line.split_once('=') {
            Some((name, value)) if !name.contains("<<") => pairs.push((name.to_string(), value.to_string())),
            _ => return Err(format!("command file line {line:?}: only NAME=value is implemented here")),
        }
    }
    Ok(pairs)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn utf8(path: &Path) -> Result<&str, String> {
    path.to_str().ok_or_else(|| format!("{} is not UTF-8", path.display()))
}
