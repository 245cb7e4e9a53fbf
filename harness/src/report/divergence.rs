//! Where one scenario's transcripts part ways across profiles (`proctor run
//! --profile all`): the first entry that differs between the documented run
//! and the run as the runtime implements it, so a runtime implementer sees at
//! a glance which documented behaviours their target runtime breaks.

use std::fmt::Write as _;

use super::escape;
use crate::record::Entry;
use crate::runner::RunResult;

/// One scenario played under two profiles, and where its transcripts part.
pub struct Parting {
    /// The scenario's own id.
    pub scenario: String,
    /// The two profiles' names, in run order.
    pub profiles: [String; 2],
    /// The first differing entry; `None` when the transcripts are identical.
    pub fork: Option<Fork>,
}

/// The first transcript entry two runs disagree on.
pub struct Fork {
    /// 1-based entry number.
    pub entry: usize,
    /// 1-based LLM round the entry falls in.
    pub round: usize,
    /// Each run's entry there (`channel kind: excerpt`), or that its transcript ended.
    pub sides: [String; 2],
}

/// Every pair (a scenario id and the ids of its two profile runs) whose runs are both in `results`.
pub fn partings(pairs: &[(String, [String; 2])], results: &[RunResult]) -> Vec<Parting> {
    let find = |id: &str| results.iter().find(|r| r.id == id);
    let mut out = Vec::new();
    for (scenario, [a, b]) in pairs {
        let (Some(ra), Some(rb)) = (find(a), find(b)) else { continue };
        let profile = |id: &str| id.rsplit('[').next().unwrap_or("").trim_end_matches(']').to_string();
        let (ea, eb) = (&ra.transcript.entries, &rb.transcript.entries);
        let fork = first_difference(ea, eb).map(|i| {
            let round = ea[..i.min(ea.len())].iter().filter(|e| e.channel == "llm" && e.kind == "request").count() + 1;
            let show = |entries: &[Entry]| match entries.get(i) {
                Some(e) => format!("{} {}: {}", e.channel, e.kind, excerpt(&e.body)),
                None => "(the transcript ends)".to_string(),
            };
            Fork { entry: i + 1, round, sides: [show(ea), show(eb)] }
        });
        out.push(Parting { scenario: scenario.clone(), profiles: [profile(a), profile(b)], fork });
    }
    out
}

/// One text line (or three) per scenario: where its two profile runs part ways.
pub fn render(pairs: &[(String, [String; 2])], results: &[RunResult]) -> String {
    let mut out = String::from("\nWhere the profiles part ways (first differing transcript entry):\n");
    for p in partings(pairs, results) {
        let [pa, pb] = &p.profiles;
        let line = match &p.fork {
            None => "identical".to_string(),
            Some(f) => format!("entry {}, round {}\n      {pa:<18} {}\n      {pb:<18} {}", f.entry, f.round, f.sides[0], f.sides[1]),
        };
        let _ = writeln!(out, "  {}: {}", escape(&p.scenario), escape(&line));
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
