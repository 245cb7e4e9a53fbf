//! What one turn's tool loop remembers (runtime/pipeline/stage/stages_provider.go at 86d9f367).
//! A resumed turn is a new loop and starts from nothing.
//!
//! - [`Repeats`], the breaker for a model that repeats itself (:793-838 and :1021-1040): every call
//!   of a round counts against its tool and canonical arguments; once one reaches the limit (3 by
//!   default, and a pack's `tool_policy` is not read), that round's repeated calls are not run:
//!   each is answered "Repeated call ignored" (a plain result, not an error) while the round's
//!   other calls run, and the turn goes on. If the model repeats itself again after that, the turn
//!   fails.
//! - [`Rejections`] (:2452-2475): a tool whose result is an error a second time in the turn (a
//!   failed run, refused arguments, a hook's block) is no longer offered for the rest of it; a
//!   call the model makes anyway still runs.

use std::collections::{BTreeMap, BTreeSet};

use proctor_conformance::protocol::wire;
use proctor_mocks::provider::ResolvedCall;

/// The counts of one turn's tool loop.
pub(super) struct Repeats {
    limit: Option<usize>,
    counts: BTreeMap<String, usize>,
    nudged: bool,
}

/// What a round's calls come to.
pub(super) enum Round {
    /// Run them all.
    Run,
    /// Run all but these (by call id), which get [`ignored`] instead.
    Ignore(BTreeSet<String>),
    /// The model repeated itself after being told: the turn fails with this error.
    Abort(String),
}

impl Repeats {
    /// `limit`: the profile's, `None` when nothing stops repeated calls.
    pub(super) fn new(limit: Option<usize>) -> Self {
        Repeats { limit, counts: BTreeMap::new(), nudged: false }
    }

    /// Counts this round's calls and says which may run.
    pub(super) fn judge(&mut self, calls: &[ResolvedCall]) -> Round {
        let Some(limit) = self.limit else { return Round::Run };
        let mut looping = Vec::new();
        for call in calls {
            // Go re-encodes the arguments through a map: keys sorted, spacing gone.
            let key = format!("{}\0{}", call.name, serde_json::to_string(&wire::sort_keys(&call.arguments)).unwrap_or_default());
            let count = self.counts.entry(key).or_default();
            *count += 1;
            if *count >= limit {
                looping.push(call);
            }
        }
        match looping.first() {
            None => Round::Run,
            Some(first) if self.nudged => Round::Abort(format!(
                "provider stage: tool loop persisted after a self-correction nudge: {:?} called with identical arguments",
                first.name
            )),
            Some(_) => {
                self.nudged = true;
                Round::Ignore(looping.iter().map(|c| c.id.clone()).collect())
            }
        }
    }

    /// The result a repeated call gets instead of running.
    pub(super) fn ignored(&self, name: &str) -> String {
        format!(
            "Repeated call ignored: {name:?} has been called {} times with identical arguments and was NOT executed again — the result will not change. Stop repeating this exact call: change the arguments, use a different tool, or finish the task.",
            self.limit.unwrap_or_default()
        )
    }
}

/// The tools taken away from the rest of a turn's rounds after failing twice.
pub(super) struct Rejections {
    enabled: bool,
    counts: BTreeMap<String, usize>,
    withdrawn: BTreeSet<String>,
}

impl Rejections {
    /// `enabled`: whether the profile withdraws failing tools.
    pub(super) fn new(enabled: bool) -> Self {
        Rejections { enabled, counts: BTreeMap::new(), withdrawn: BTreeSet::new() }
    }

    /// Counts a result of `tool`; true when this one withdrew it.
    pub(super) fn count(&mut self, tool: &str, is_error: bool) -> bool {
        if !self.enabled || !is_error {
            return false;
        }
        let count = self.counts.entry(tool.to_string()).or_default();
        *count += 1;
        *count > 1 && self.withdrawn.insert(tool.to_string())
    }

    /// Whether `tool` is still offered.
    pub(super) fn offered(&self, tool: &str) -> bool {
        !self.withdrawn.contains(tool)
    }
}
