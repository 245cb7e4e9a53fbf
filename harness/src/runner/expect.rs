//! Judging a run's summary against the scenario's expectations. Each unmet
//! expectation is one readable line saying what was expected and what
//! happened instead.

use crate::scenario::Expectations;

use crate::record::Summary;
use crate::record::Transcript;

/// Every unmet expectation, as a line of text.
pub fn judge(expect: &Expectations, s: &Summary, transcript: &Transcript) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(want) = &expect.outcome
        && s.outcome.as_deref() != Some(want.as_str())
    {
        problems.push(format!("outcome: expected {want}, got {}", s.outcome.as_deref().unwrap_or("none")));
    }
    if let Some(text) = &expect.final_text_contains
        && !s.final_text.as_deref().is_some_and(|t| t.contains(text.as_str()))
    {
        problems.push(format!("final text: expected it to contain {text:?}, got {:?}", s.final_text.as_deref().unwrap_or("")));
    }
    in_order(
        &mut problems,
        "tool result",
        &expect.tool_results,
        &s.tool_results,
        |e, r| {
            e.tool == r.tool
                && e.contains.as_ref().is_none_or(|c| r.content.contains(c.as_str()))
                && e.is_error.is_none_or(|x| x == r.is_error)
        },
        |e| {
            format!(
                "{} containing {:?}{}",
                e.tool,
                e.contains.as_deref().unwrap_or(""),
                e.is_error.map_or(String::new(), |x| format!(" (is_error {x})"))
            )
        },
        &s.tool_results.iter().map(|r| format!("{}: {:?}", r.tool, r.content)).collect::<Vec<_>>(),
    );
    in_order(
        &mut problems,
        "decision",
        &expect.decisions,
        &s.decisions,
        |e, d| e.plugin == d.plugin && e.call.as_ref().is_none_or(|c| *c == d.call) && e.decision == d.decision,
        |e| format!("{} {} → {}", e.plugin, e.call.as_deref().unwrap_or("*"), e.decision),
        &s.decisions.iter().map(|d| format!("{} {} → {}", d.plugin, d.call, d.decision)).collect::<Vec<_>>(),
    );
    let stdin: Vec<(String, String)> = transcript
        .entries
        .iter()
        .filter(|e| e.kind == "stdin")
        .filter_map(|e| Some((e.channel.strip_prefix("plugin ")?.to_string(), e.body.as_str()?.to_string())))
        .collect();
    in_order(
        &mut problems,
        "received",
        &expect.received,
        &stdin,
        |e, (p, text)| e.plugin == *p && text.contains(e.contains.as_str()),
        |e| format!("{} receiving {:?}", e.plugin, e.contains),
        &stdin.iter().map(|(p, t)| format!("{p}: {t}")).collect::<Vec<_>>(),
    );
    for nc in &expect.not_called {
        if let Some((p, c)) = s.calls.iter().find(|(p, c)| *p == nc.plugin && nc.call.as_ref().is_none_or(|x| x == c)) {
            problems.push(format!("not called: {p} received {c}"));
        }
    }
    in_order(
        &mut problems,
        "denial",
        &expect.denials,
        &s.denials,
        |e, d| e.hook == d.hook && e.reason_contains.as_ref().is_none_or(|r| d.reason.contains(r.as_str())),
        |e| format!("{} ({:?})", e.hook, e.reason_contains.as_deref().unwrap_or("")),
        &s.denials.iter().map(|d| format!("{} {}: {:?}", d.hook, d.kind, d.reason)).collect::<Vec<_>>(),
    );
    for e in &expect.eval_scores {
        let scores: Vec<f64> = s.eval_scores.iter().filter(|(id, _)| *id == e.eval).map(|(_, v)| *v).collect();
        let runs_ok = e.runs.map_or(!scores.is_empty(), |n| scores.len() == n);
        let range_ok = scores.iter().all(|v| e.at_least.is_none_or(|l| *v >= l) && e.below.is_none_or(|b| *v < b));
        if !runs_ok || !range_ok {
            problems.push(format!(
                "eval {}: expected {} run(s){}{}, got scores {scores:?}",
                e.eval,
                e.runs.map_or("≥1".to_string(), |n| n.to_string()),
                e.at_least.map_or(String::new(), |l| format!(", each ≥ {l}")),
                e.below.map_or(String::new(), |b| format!(", each < {b}"))
            ));
        }
    }
    in_order(&mut problems, "event", &expect.events, &s.events, |e, got| e == got, |e| e.clone(), &s.events);
    if let Some(want) = &expect.workflow {
        match &s.workflow {
            None => problems.push("workflow: expected one, but the run had no pack workflow".into()),
            Some(got) => {
                let mut check = |what: &str, ok: bool, want: String, got: String| {
                    if !ok {
                        problems.push(format!("workflow {what}: expected {want}, got {got}"));
                    }
                };
                if let Some(state) = &want.state {
                    check("state", *state == got.state, state.clone(), got.state.clone());
                }
                if let Some(status) = &want.status {
                    check("status", *status == got.status, status.clone(), got.status.clone());
                }
                if let Some(path) = &want.path {
                    check("path", *path == got.path, path.join(" → "), got.path.join(" → "));
                }
                for (name, value) in &want.artifacts {
                    let found = got.artifacts.get(name);
                    check(&format!("artifact {name}"), found == Some(value), format!("{value:?}"), format!("{found:?}"));
                }
            }
        }
    }
    problems
}

/// Each expected item must match an observed one, in order (others may come between).
fn in_order<E, O>(
    problems: &mut Vec<String>,
    what: &str,
    expected: &[E],
    observed: &[O],
    matches: impl Fn(&E, &O) -> bool,
    show: impl Fn(&E) -> String,
    seen: &[String],
) {
    let mut at = 0;
    for e in expected {
        match observed[at..].iter().position(|o| matches(e, o)) {
            Some(i) => at += i + 1,
            None => {
                problems.push(format!("{what}: expected {} (in order), observed: [{}]", show(e), seen.join("; ")));
                return;
            }
        }
    }
}
