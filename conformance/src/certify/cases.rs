//! The author's own cases (`--cases FILE`): requests with the decision each
//! must get.
//!
//! ```yaml
//! cases:
//!   - name: ssn in args is denied
//!     phase: before_execution        # PromptKit hooks
//!     request: {name: send_email, args: {body: "my ssn is 123-45-6789"}}
//!     expect: {decision: deny}
//!   - name: rm -rf is refused
//!     method: hook.before_tool       # PicoClaw
//!     request: {tool: bash, arguments: {command: "rm -rf /"}}
//!     expect: {decision: deny_tool}
//! ```
//!
//! `request` is written in the documented (snake_case) form; proctor renders
//! it in each profile's wire shape, which is how a plugin written from the
//! docs is caught failing its own cases under the runtime as implemented.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use super::semantics::Decision;
use crate::protocol::{Family, Role, picoclaw_hook, promptkit_exec};

/// A cases file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CasesFile {
    /// The cases, run in order.
    pub cases: Vec<Case>,
    /// Where each case and its keys are, for errors that point at them.
    #[serde(skip)]
    places: Places,
}

/// A 1-based line and column in the cases file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct At {
    /// Line.
    pub line: u64,
    /// Column.
    pub column: u64,
}

impl From<serde_saphyr::Location> for At {
    fn from(l: serde_saphyr::Location) -> Self {
        At { line: l.line(), column: l.column() }
    }
}

/// Positions of the parts of a cases file that validation points at.
#[derive(Debug, Clone, Default)]
struct Places {
    list: At,
    cases: Vec<CasePlaces>,
}

#[derive(Debug, Clone, Copy, Default)]
struct CasePlaces {
    case: At,
    phase: Option<At>,
    method: Option<At>,
    decision: Option<At>,
}

/// The same file read a second time for positions only (unknown keys were
/// already refused by the first read).
#[derive(Deserialize)]
struct SpannedFile {
    cases: serde_saphyr::Spanned<Vec<serde_saphyr::Spanned<SpannedCase>>>,
}

#[derive(Deserialize)]
struct SpannedCase {
    #[serde(default)]
    phase: Option<serde_saphyr::Spanned<String>>,
    #[serde(default)]
    method: Option<serde_saphyr::Spanned<String>>,
    #[serde(default)]
    expect: Option<SpannedExpect>,
}

#[derive(Deserialize)]
struct SpannedExpect {
    #[serde(default)]
    decision: Option<serde_saphyr::Spanned<String>>,
}

impl Places {
    fn read(text: &str) -> Places {
        let Ok(file) = serde_saphyr::from_str_with_options::<SpannedFile>(text, strict_yaml()) else { return Places::default() };
        let cases = file
            .cases
            .value
            .iter()
            .map(|c| CasePlaces {
                case: c.referenced.into(),
                phase: c.value.phase.as_ref().map(|p| p.referenced.into()),
                method: c.value.method.as_ref().map(|m| m.referenced.into()),
                decision: c.value.expect.as_ref().and_then(|e| e.decision.as_ref()).map(|d| d.referenced.into()),
            })
            .collect();
        Places { list: file.cases.referenced.into(), cases }
    }
}

/// One case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Shown in the report.
    pub name: String,
    /// PromptKit hook phase (`before_execution`, `after_call`, `session_start` …).
    #[serde(default)]
    pub phase: Option<String>,
    /// PicoClaw method (`hook.before_tool` …).
    #[serde(default)]
    pub method: Option<String>,
    /// Fields laid over the realistic default request.
    #[serde(default)]
    pub request: Value,
    /// What must come back.
    pub expect: Expect,
}

/// The expected decision.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `allow`, `deny`, `result`, `error`, `pending`, `ack`, a PicoClaw action,
    /// `approved`/`denied`, or a runok status.
    #[serde(default)]
    pub decision: Option<String>,
    /// For evals: the score must be below this.
    #[serde(default)]
    pub score_below: Option<f64>,
    /// For evals: the score must be at least this.
    #[serde(default)]
    pub score_at_least: Option<f64>,
    /// For selectors: exactly these candidate ids, in this order.
    #[serde(default)]
    pub selected: Option<Vec<String>>,
    /// Command hooks: the text the agent adds to the model's conversation
    /// contains this (`additionalContext`, or plain stdout where the agent
    /// reads it as context).
    #[serde(default)]
    pub context: Option<String>,
    /// Command hooks: the reason a block passes on contains this.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A cases file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CasesError {
    /// The file could not be read (missing, a folder or a device, too large, not UTF-8).
    #[error("cases file {0}")]
    Read(#[from] proctor_input::InputError),
    /// The YAML is malformed or has unknown keys (the message has file:line:column).
    #[error("{rendered}")]
    Parse {
        /// serde-saphyr's rendering, with the location and a snippet.
        rendered: String,
    },
    /// A case is well-formed YAML but says nothing checkable, or asks for
    /// something the plugin's family does not have.
    #[error("{}:{}:{}: case `{case}`: {problem}", path.display(), at.line, at.column)]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Where in it.
        at: At,
        /// The case name.
        case: String,
        /// What is wrong and what to write instead.
        problem: String,
    },
    /// The file holds no case at all: nothing would be judged.
    #[error(
        "{}:{}:{}: `cases:` is empty, so there is nothing to judge\nhint: add at least one case ({{name, request, expect}}), or drop --cases to certify with the built-in probes only",
        path.display(), at.line, at.column
    )]
    Empty {
        /// The file.
        path: PathBuf,
        /// Where the list is.
        at: At,
    },
}

/// YAML as the author means it: only `true`/`false` are booleans (YAML 1.1's
/// `yes`, `no`, `on`, `off` are an error where a boolean is expected, and
/// stay strings elsewhere), and a key written twice is an error.
fn strict_yaml() -> serde_saphyr::Options {
    serde_saphyr::options! { strict_booleans: true }
}

impl CasesFile {
    /// Reads and validates a cases file.
    pub fn load(path: &Path) -> Result<CasesFile, CasesError> {
        let text = proctor_input::read_to_string(path, proctor_input::MAX_BYTES)?;
        Self::parse(&text, path)
    }

    /// Parses cases from text (`path` names it in errors).
    pub fn parse(text: &str, path: &Path) -> Result<CasesFile, CasesError> {
        let name = path.display().to_string();
        let mut file: CasesFile = serde_saphyr::from_str_with_options(text, strict_yaml()).map_err(|e| CasesError::Parse {
            rendered: format!(
                "invalid cases file {}\nhint: a cases file is `cases:` followed by a list of {{name, phase|method, request, expect: {{decision | score_below | score_at_least}}}}",
                proctor_input::yaml_message(&e.render_with_options(serde_saphyr::render_options! { source_name: Some(name.as_str()) }), &name)
            ),
        })?;
        file.places = Places::read(text);
        if file.cases.is_empty() {
            return Err(CasesError::Empty { path: path.to_path_buf(), at: file.places.list });
        }
        for (i, case) in file.cases.iter().enumerate() {
            let e = &case.expect;
            let invalid = |problem: &str| CasesError::Invalid {
                path: path.to_path_buf(),
                at: file.place(i, |p| p.case),
                case: case.name.clone(),
                problem: problem.into(),
            };
            if e.decision.is_none()
                && e.score_below.is_none()
                && e.score_at_least.is_none()
                && e.selected.is_none()
                && e.context.is_none()
                && e.reason.is_none()
            {
                return Err(invalid(
                    "`expect` is empty; write `expect: {decision: deny}`, `expect: {score_below: 0.5}`, (selectors) `expect: {selected: [id]}` or (command hooks) `expect: {context: TEXT}`",
                ));
            }
            if [&e.context, &e.reason].into_iter().flatten().any(|t| t.is_empty()) {
                return Err(invalid("`context` and `reason` name text the agent must pass on; an empty one says nothing: give the words"));
            }
            if [e.score_below, e.score_at_least].into_iter().flatten().any(f64::is_nan) {
                return Err(invalid("a score bound is not a number (`.nan`); give one like 0.5"));
            }
            if let (Some(below), Some(at_least)) = (e.score_below, e.score_at_least)
                && at_least >= below
            {
                return Err(invalid(&format!(
                    "no score is both at least {at_least} and below {below}: every plugin would fail this case; swap or fix the bounds"
                )));
            }
            if !case.request.is_null() && !case.request.is_object() {
                return Err(invalid("`request` must be a mapping of request fields"));
            }
        }
        Ok(file)
    }

    /// Where part `of` case `i` is (the case itself when the part is absent).
    fn place(&self, i: usize, of: impl Fn(&CasePlaces) -> At) -> At {
        self.places.cases.get(i).map(of).unwrap_or(self.places.list)
    }
}

impl CasesFile {
    /// Checks that every case addresses something the plugin takes part in:
    /// a phase of its PromptKit hook role, a method of its PicoClaw modes.
    pub fn check_applicable(&self, family: Family, roles: &[Role], path: &Path) -> Result<(), CasesError> {
        for (i, case) in self.cases.iter().enumerate() {
            let invalid = |at: fn(&CasePlaces) -> Option<At>, problem: String| {
                let at = self.places.cases.get(i).and_then(at).unwrap_or_else(|| self.place(i, |p| p.case));
                CasesError::Invalid { path: path.to_path_buf(), at, case: case.name.clone(), problem }
            };
            match family {
                Family::PicoclawHook => {
                    let allowed = picoclaw_hook::methods(roles);
                    match case.method.as_deref() {
                        Some(m) if allowed.contains(&m) => {}
                        Some(m) => {
                            return Err(invalid(
                                |p| p.method,
                                format!(
                                    "method `{m}` is not sent to a hook with modes {}; use one of: {}",
                                    names(roles),
                                    allowed.join(", ")
                                ),
                            ));
                        }
                        None => return Err(invalid(|_| None, format!("PicoClaw cases need `method:`, one of: {}", allowed.join(", ")))),
                    }
                    if case.phase.is_some() {
                        return Err(invalid(|p| p.phase, "`phase` is for PromptKit hooks; PicoClaw cases use `method`".into()));
                    }
                }
                Family::PromptkitExec => {
                    let role = roles.first().copied().unwrap_or(Role::Tool);
                    let phases = promptkit_exec::phases(role);
                    match (case.phase.as_deref(), phases.is_empty()) {
                        (None, _) => {}
                        (Some(p), false) if phases.contains(&p) => {}
                        (Some(p), true) => return Err(invalid(|p| p.phase, format!("a {role} has no phases; remove `phase: {p}`"))),
                        (Some(p), false) => {
                            return Err(invalid(|p| p.phase, format!("`{p}` is not a {role} phase; use one of: {}", phases.join(", "))));
                        }
                    }
                    if case.method.is_some() {
                        return Err(invalid(|p| p.method, "`method` is for PicoClaw cases; PromptKit hooks use `phase`".into()));
                    }
                }
                _ => {
                    if case.phase.is_some() || case.method.is_some() {
                        return Err(invalid(|p| p.phase.or(p.method), format!("{family} has a single method; remove `phase`/`method`")));
                    }
                }
            }
            let decisions = decisions(family, roles, case.method.as_deref());
            if let Some(d) = case.expect.decision.as_deref()
                && !decisions.contains(&d)
            {
                let problem = match decisions {
                    [] => {
                        format!(
                            "decision `{d}`: this plugin's answers carry no decision; use score_below/score_at_least (evals) or selected (selectors)"
                        )
                    }
                    valid => format!("decision `{d}` is not one this plugin can give; use one of: {}", valid.join(", ")),
                };
                return Err(invalid(|p| p.decision, problem));
            }
            if (case.expect.context.is_some() || case.expect.reason.is_some()) && !family.is_agent_hook() {
                return Err(invalid(
                    |_| None,
                    format!(
                        "`context` and `reason` are judged for command hooks (claude-code-hook, codex-hook); {family} cases expect a `decision`"
                    ),
                ));
            }
            if case.expect.selected.is_some() && !roles.contains(&Role::Selector) {
                return Err(invalid(|_| None, "`selected` is for selectors; expect a `decision` instead".into()));
            }
            if (case.expect.score_below.is_some() || case.expect.score_at_least.is_some()) && !roles.contains(&Role::Eval) {
                return Err(invalid(|_| None, "score_below/score_at_least are for evals; expect a `decision` instead".into()));
            }
        }
        Ok(())
    }
}

/// The decisions an answer of this family and role can carry, as the runtime
/// names them (what `expect: {decision: …}` may say).
fn decisions(family: Family, roles: &[Role], method: Option<&str>) -> &'static [&'static str] {
    match family {
        Family::RunokExtension => &["allow", "deny", "ask"],
        Family::PromptkitServer => &["result", "error"],
        Family::PicoclawHook => match method {
            Some(picoclaw_hook::APPROVE_TOOL) => &["approved", "denied"],
            Some(picoclaw_hook::BEFORE_TOOL) => &["continue", "modify", "respond", "deny_tool", "abort_turn", "hard_abort"],
            _ => &["continue", "modify", "abort_turn", "hard_abort"],
        },
        Family::ClaudeCodeHook | Family::CodexHook => {
            roles.first().copied().and_then(crate::protocol::agent_hook::event_of).map_or(&[], |e| e.decisions())
        }
        Family::PromptkitExec => match roles.first() {
            Some(Role::Tool) => &["result", "error", "pending"],
            Some(Role::ProviderHook | Role::ToolHook) => &["allow", "deny", "enforced"],
            Some(Role::SessionHook) => &["ack"],
            _ => &[],
        },
    }
}

fn names(roles: &[Role]) -> String {
    roles.iter().map(|r| r.name()).collect::<Vec<_>>().join(",")
}

impl Expect {
    /// What the case expects, for messages ("decision `deny`", "a score below 0.5").
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = &self.decision {
            parts.push(format!("decision `{d}`"));
        }
        if let Some(l) = self.score_below {
            parts.push(format!("a score below {l}"));
        }
        if let Some(l) = self.score_at_least {
            parts.push(format!("a score of at least {l}"));
        }
        if let Some(ids) = &self.selected {
            parts.push(format!("selected [{}]", ids.join(", ")));
        }
        if let Some(t) = &self.reason {
            parts.push(format!("a reason containing {t:?}"));
        }
        if let Some(t) = &self.context {
            parts.push(format!("context for the model containing {t:?}"));
        }
        parts.join(" and ")
    }

    /// Whether `got` meets the expectation.
    pub fn met_by(&self, got: Option<&Decision>) -> bool {
        let decision_ok = self.decision.as_ref().is_none_or(|want| got.is_some_and(|d| d.to_string() == *want));
        let score = match got {
            Some(Decision::Score(s)) => Some(*s),
            _ => None,
        };
        let below_ok = self.score_below.is_none_or(|l| score.is_some_and(|s| s < l));
        let least_ok = self.score_at_least.is_none_or(|l| score.is_some_and(|s| s >= l));
        let selected_ok = self.selected.as_ref().is_none_or(|want| matches!(got, Some(Decision::Selected(ids)) if ids == want));
        decision_ok && below_ok && least_ok && selected_ok
    }

    /// What a command hook's case expects of the text the agent passes on:
    /// `None` when it holds, else the failure (`dropped` says why text the
    /// hook wrote did not reach the model, when the agent dropped it).
    pub fn text_failure(&self, reason: Option<&str>, context: Option<&str>, dropped: Option<&str>) -> Option<crate::check::Failure> {
        let missing = |what: &str, want: &str, got: Option<&str>| {
            let actual = match (got, dropped) {
                (Some(text), _) => format!("{text:?}"),
                (None, Some(why)) => format!("none: {why}"),
                (None, None) => "none".to_string(),
            };
            crate::check::Failure::Mismatch { path: what.into(), expected: format!("text containing {want:?}"), actual }
        };
        if let Some(want) = &self.reason
            && !reason.is_some_and(|r| r.contains(want.as_str()))
        {
            return Some(missing("reason", want, reason));
        }
        if let Some(want) = &self.context
            && !context.is_some_and(|c| c.contains(want.as_str()))
        {
            return Some(missing("context", want, context));
        }
        None
    }

    /// The outcome of a case that got `got`.
    pub fn judge(&self, got: Option<&Decision>) -> crate::check::Outcome {
        if self.met_by(got) {
            return crate::check::Outcome::Pass;
        }
        crate::check::Outcome::fail(crate::check::Failure::Mismatch {
            path: "decision".into(),
            expected: self.describe(),
            actual: got.map_or("no decision".to_string(), |d| format!("`{d}`")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_checks() {
        let text = "cases:\n  - name: a\n    phase: before_execution\n    request: {name: x}\n    expect: {decision: deny}\n";
        let f = CasesFile::parse(text, Path::new("c.yaml")).unwrap();
        assert_eq!(f.cases[0].request["name"], "x");
        assert!(f.cases[0].expect.met_by(Some(&Decision::Deny)));
        assert!(!f.cases[0].expect.met_by(Some(&Decision::Allow)));
        assert_eq!(f.cases[0].expect.judge(Some(&Decision::Allow)).describe(), "decision: expected decision `deny`, got `allow`");
        let e = Expect { decision: None, score_below: Some(0.5), score_at_least: None, selected: None, context: None, reason: None };
        assert!(e.met_by(Some(&Decision::Score(0.2))));
        assert!(!e.met_by(Some(&Decision::Score(0.7))));
        assert!(!e.met_by(None));
    }

    #[test]
    fn cases_must_address_the_plugins_methods_and_phases() {
        let p = Path::new("c.yaml");
        let pico = CasesFile::parse("cases:\n  - name: a\n    method: hook.approve_tool\n    expect: {decision: approved}\n", p).unwrap();
        assert!(pico.check_applicable(Family::PicoclawHook, &[Role::Approve], p).is_ok());
        let err = pico.check_applicable(Family::PicoclawHook, &[Role::ToolMode], p).unwrap_err().to_string();
        assert!(err.contains("hook.before_tool, hook.after_tool"), "{err}");
        let hook = CasesFile::parse("cases:\n  - name: a\n    phase: before_call\n    expect: {decision: deny}\n", p).unwrap();
        assert!(hook.check_applicable(Family::PromptkitExec, &[Role::ProviderHook], p).is_ok());
        assert!(hook.check_applicable(Family::PromptkitExec, &[Role::ToolHook], p).unwrap_err().to_string().contains("before_execution"));
        assert!(hook.check_applicable(Family::RunokExtension, &[Role::Guard], p).is_err());
    }

    #[test]
    fn an_empty_list_is_the_authors_mistake_with_its_place() {
        let err = CasesFile::parse("# my cases\ncases: []\n", Path::new("my.yaml")).unwrap_err().to_string();
        assert!(err.starts_with("my.yaml:2:8: `cases:` is empty"), "{err}");
        assert!(err.contains("drop --cases"), "{err}");
    }

    #[test]
    fn a_decision_the_family_does_not_have_points_at_it_and_lists_the_valid_ones() {
        let p = Path::new("c.yaml");
        let text = "cases:\n  - name: ok\n    method: hook.before_tool\n    expect: {decision: continue}\n  - name: rm\n    method: hook.before_tool\n    expect:\n      decision: deny\n";
        let err = CasesFile::parse(text, p).unwrap().check_applicable(Family::PicoclawHook, &[Role::ToolMode], p).unwrap_err().to_string();
        assert_eq!(
            err,
            "c.yaml:8:17: case `rm`: decision `deny` is not one this plugin can give; use one of: continue, modify, respond, deny_tool, abort_turn, hard_abort"
        );
        // An approval answers approved or denied; a tool hook allow, deny or enforced.
        let approve =
            CasesFile::parse("cases:\n  - name: a\n    method: hook.approve_tool\n    expect: {decision: continue}\n", p).unwrap();
        let err = approve.check_applicable(Family::PicoclawHook, &[Role::Approve], p).unwrap_err().to_string();
        assert!(err.contains("use one of: approved, denied"), "{err}");
        let hook = CasesFile::parse("cases:\n  - name: a\n    expect: {decision: deny_tool}\n", p).unwrap();
        let err = hook.check_applicable(Family::PromptkitExec, &[Role::ToolHook], p).unwrap_err().to_string();
        assert!(err.starts_with("c.yaml:3:24: ") && err.contains("allow, deny, enforced"), "{err}");
        // A phase the role does not have points at the phase.
        let phase = CasesFile::parse("cases:\n  - name: a\n    phase: before_exection\n    expect: {decision: deny}\n", p).unwrap();
        let err = phase.check_applicable(Family::PromptkitExec, &[Role::ToolHook], p).unwrap_err().to_string();
        assert!(err.starts_with("c.yaml:3:12: ") && err.contains("before_execution"), "{err}");
    }

    #[test]
    fn errors_name_file_line_column() {
        let err = CasesFile::parse("cases:\n  - name: a\n    expcet: {decision: deny}\n", Path::new("my.yaml")).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("my.yaml:3:5"), "{text}");
        assert!(text.contains("expcet"), "{text}");
        let err = CasesFile::parse("cases:\n  - name: a\n    expect: {}\n", Path::new("my.yaml")).unwrap_err();
        assert!(err.to_string().contains("`expect` is empty"), "{err}");
    }
}
