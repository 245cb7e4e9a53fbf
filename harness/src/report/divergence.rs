//! Where one scenario's transcripts part ways across profiles (`proctor run
//! --profile all`): the first entry that differs between the documented run
//! and the run as the runtime implements it, so a runtime implementer sees at
//! a glance which documented behaviours their target runtime breaks.

use std::fmt::Write as _;

use super::escape;
use crate::record::Entry;
use crate::runner::RunResult;

/// One table row per scenario: its id and the ids of its two profile runs.
pub fn render(pairs: &[(String, [String; 2])], results: &[RunResult]) -> String {
    let mut out = String::from("\nWhere the profiles part ways (first differing transcript entry):\n");
    let find = |id: &str| results.iter().find(|r| r.id == id);
    for (scenario, [a, b]) in pairs {
        let (Some(ra), Some(rb)) = (find(a), find(b)) else { continue };
        let profile = |id: &str| id.rsplit('[').next().unwrap_or("").trim_end_matches(']').to_string();
        let (pa, pb) = (profile(a), profile(b));
        let line = match first_difference(&ra.transcript.entries, &rb.transcript.entries) {
            None => "identical".to_string(),
            Some(i) => {
                let round = ra.transcript.entries[..i.min(ra.transcript.entries.len())]
                    .iter()
                    .filter(|e| e.channel == "llm" && e.kind == "request")
                    .count()
                    + 1;
                let show = |entries: &[Entry]| match entries.get(i) {
                    Some(e) => format!("{} {}: {}", e.channel, e.kind, excerpt(&e.body)),
                    None => "(the transcript ends)".to_string(),
                };
                format!(
                    "entry {}, round {round}\n      {pa:<18} {}\n      {pb:<18} {}",
                    i + 1,
                    show(&ra.transcript.entries),
                    show(&rb.transcript.entries)
                )
            }
        };
        let _ = writeln!(out, "  {}: {}", escape(scenario), escape(&line));
    }
    out
}

/// The index of the first entry that differs (or where one transcript ends).
fn first_difference(a: &[Entry], b: &[Entry]) -> Option<usize> {
    let common = a.iter().zip(b).position(|(x, y)| x != y);
    match common {
        Some(i) => Some(i),
        None if a.len() != b.len() => Some(a.len().min(b.len())),
        None => None,
    }
}

fn excerpt(v: &serde_json::Value) -> String {
    let text = v.as_str().map_or_else(|| v.to_string(), String::from).replace('\n', "⏎");
    if text.chars().count() > 100 { format!("{}…", text.chars().take(100).collect::<String>()) } else { text }
}
