//! The closed vocabularies of a scenario: hook kinds and phases, PicoClaw
//! stages, tool runtimes, eval triggers, mock decisions and faults, plugin
//! names. The format keeps them as strings (they mirror the runtimes' own
//! config files), so a typo would otherwise be accepted and silently mean
//! "never": `before_exection` is a phase no call ever reaches. Each is the
//! author's mistake, reported with its line and column and the valid values.

use std::path::Path;
use std::str::FromStr;

use proctor_conformance::protocol::{Role, promptkit_exec};
use proctor_mocks::plugin::{Decision, Fault};

use super::load::LoadError;
use super::model::{PluginConfig, Process, Runtime, Scenario};

const HOOKS: &[&str] = &["provider", "tool", "session", "eval"];
const PICOCLAW_STAGES: &[&str] = &["before_llm", "after_llm", "before_tool", "after_tool", "approve_tool"];
const TOOL_RUNTIMES: &[&str] = &["exec", "server"];

/// Checks every closed-vocabulary value of `s` (whose source is `text`).
pub(super) fn validate(s: &Scenario, text: &str, path: &Path) -> Result<(), LoadError> {
    let bad = |key: &str, value: &str, what: &str, valid: &[&str]| LoadError::Invalid {
        path: path.to_path_buf(),
        at: locate(text, key, value),
        problem: format!("`{value}` is not {what}"),
        hint: format!("use one of: {}", valid.join(", ")),
    };
    let one_of = |key: &str, value: &str, what: &str, valid: &[&str]| {
        if valid.contains(&value) { Ok(()) } else { Err(bad(key, value, what, valid)) }
    };
    let mut names: Vec<&str> = Vec::new();
    for p in &s.plugins {
        if names.contains(&p.name.as_str()) {
            return Err(LoadError::Invalid {
                path: path.to_path_buf(),
                at: nth(text, "name", &p.name, 1),
                problem: format!("two plugins are named `{}`", p.name),
                hint: "plugin names identify calls, records and expectations: give each plugin its own".into(),
            });
        }
        names.push(&p.name);
        match &p.process {
            Process::Command(argv) if argv.first().is_none_or(|a| a.is_empty()) => {
                return Err(LoadError::Invalid {
                    path: path.to_path_buf(),
                    at: locate(text, "name", &p.name),
                    problem: format!("plugin `{}` has an empty command", p.name),
                    hint: "write the argv array, e.g. `process: {command: [python3, my_hook.py]}`".into(),
                });
            }
            Process::Mock(m) => {
                if let Some(d) = &m.decision {
                    let valid: Vec<&str> = Decision::ALL.iter().map(|d| d.name()).collect();
                    one_of("decision", d, "a mock decision", &valid)?;
                }
                for f in &m.faults {
                    if Fault::from_str(f).is_err() {
                        let valid: Vec<&str> = Fault::ALL.iter().map(|f| f.name()).collect();
                        return Err(bad("faults", f, "a mock fault (`proctor mock-plugin --list-faults`)", &valid));
                    }
                }
                if let Some(n) = m.crash_after.filter(|_| !m.faults.iter().any(|f| f == Fault::CrashAfter.name())) {
                    return Err(LoadError::Invalid {
                        path: path.to_path_buf(),
                        at: locate(text, "crash_after", &n.to_string()),
                        problem: format!(
                            "`crash_after: {n}` is read by the crash-after fault only, which plugin `{}` does not have: it would never crash",
                            p.name
                        ),
                        hint: "add `crash-after` to its `faults`".into(),
                    });
                }
            }
            Process::Command(_) => {}
        }
        match &p.config {
            PluginConfig::PromptkitHook(h) => {
                one_of("hook", &h.hook, "a PromptKit hook kind", HOOKS)?;
                let role = match h.hook.as_str() {
                    "provider" => Role::ProviderHook,
                    "tool" => Role::ToolHook,
                    "session" => Role::SessionHook,
                    _ => Role::EvalHook,
                };
                let phases = promptkit_exec::phases(role);
                for phase in &h.phases {
                    if phases.is_empty() {
                        return Err(LoadError::Invalid {
                            path: path.to_path_buf(),
                            at: locate(text, "phases", phase),
                            problem: format!("an {} hook has no phases (it runs on every eval result); `{phase}` is never reached", h.hook),
                            hint: "remove `phases`".into(),
                        });
                    }
                    one_of("phases", phase, &format!("a {} hook phase", h.hook), phases)?;
                }
            }
            PluginConfig::PromptkitTool(t) => {
                if let Some(r) = &t.runtime {
                    one_of("runtime", r, "a PromptKit tool runtime", TOOL_RUNTIMES)?;
                }
            }
            PluginConfig::PromptkitEval(e) => {
                one_of("trigger", &e.trigger, "an eval trigger", proctor_pack::shape::EVAL_TRIGGERS_PROMPTKIT)?
            }
            PluginConfig::PicoclawHook(h) => {
                for stage in &h.intercept {
                    one_of("intercept", stage, "a PicoClaw interceptor stage", PICOCLAW_STAGES)?;
                }
            }
            PluginConfig::RunokExtension(_) | PluginConfig::PromptkitSelector(_) => {}
            PluginConfig::AgentHook(h) => {
                let events: Vec<&str> = s.runtime.family().roles().iter().map(|r| r.name()).collect();
                one_of("event", &h.event, &format!("a {} hook event", s.runtime.family()), &events)?;
                if matches!(p.process, Process::Mock(_)) {
                    return Err(LoadError::Invalid {
                        path: path.to_path_buf(),
                        at: locate(text, "name", &p.name),
                        problem: format!("plugin `{}` is a command hook played by the mock plugin, which plays only the JSON protocols", p.name),
                        hint: "give the hook as a command, e.g. `process: {command: [sh, gate.sh]}` (a three-line sh script writes any exit, stdout and stderr)".into(),
                    });
                }
            }
        }
    }
    if let Some(outcome) = &s.expect.outcome {
        let (runtime, valid): (&str, &[&str]) = match s.runtime {
            Runtime::Promptkit => ("PromptKit", &["completed", "denied", "paused", "error"]),
            Runtime::Picoclaw => ("PicoClaw", &["completed", "aborted", "error"]),
            Runtime::Runok => ("runok", &["allow", "deny", "ask"]),
            Runtime::ClaudeCode => ("Claude Code", &["completed", "blocked", "stopped", "error"]),
            Runtime::Codex => ("Codex", &["completed", "blocked", "stopped", "error"]),
        };
        one_of("outcome", outcome, &format!("an outcome of a {runtime} conversation"), valid)?;
    }
    // An expectation about a plugin the scenario does not have is never met: a typo, said
    // here rather than as a failing run. A pack's plugins are known only once it is expanded.
    if s.pack.is_none() && s.runtime_config.is_none() {
        let e = &s.expect;
        let named = e.decisions.iter().map(|d| d.plugin.as_str()).chain(e.received.iter().map(|r| r.plugin.as_str()));
        // Besides the plugins, a guardrail decides too: `guardrail <kind>` (pipeline/promptkit).
        let guardrail = |name: &str| name.starts_with("guardrail ") && !s.guardrails.is_empty();
        for plugin in named.chain(e.not_called.iter().map(|c| c.plugin.as_str())) {
            if !names.contains(&plugin) && !guardrail(plugin) {
                return Err(bad("plugin", plugin, "a plugin of this scenario", &names));
            }
        }
    }
    Ok(())
}

/// Line and column (1-based) of `value` written after `key` (the first
/// occurrence of the value on or after the key's line), else of its first
/// occurrence as a whole word anywhere.
fn locate(text: &str, key: &str, value: &str) -> Option<(usize, usize)> {
    nth(text, key, value, 0)
}

/// Like [`locate`], for the `n`th (0-based) occurrence of `key`.
fn nth(text: &str, key: &str, value: &str, n: usize) -> Option<(usize, usize)> {
    let key_at = text.match_indices(&format!("{key}:")).nth(n).map(|(i, _)| i).unwrap_or(0);
    let start = text[..key_at].rfind('\n').map_or(0, |i| i + 1);
    let found = word(&text[start..], value).map(|i| start + i).or_else(|| word(text, value))?;
    let line = text[..found].matches('\n').count() + 1;
    let column = found - text[..found].rfind('\n').map_or(0, |i| i + 1) + 1;
    Some((line, column))
}

/// Byte offset of `needle` in `hay` where it is not part of a longer word.
fn word(hay: &str, needle: &str) -> Option<usize> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    hay.match_indices(needle).map(|(i, _)| i).find(|&i| {
        let before = hay[..i].chars().next_back().is_none_or(|c| !is_word(c));
        let after = hay[i + needle.len()..].chars().next().is_none_or(|c| !is_word(c));
        before && after
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_found_where_they_are_written() {
        let text = "plugins:\n  - name: a\n    config: {promptkit_hook: {hook: tool, phases: [before_exection]}}\n";
        assert_eq!(locate(text, "phases", "before_exection"), Some((3, 52)));
        let twice = "plugins:\n  - name: g\n  - name: g\n";
        assert_eq!(nth(twice, "name", "g", 1), Some((3, 11)));
    }
}
