//! Collects outcomes while a family's probes run, and guarantees that every
//! applicable check ends up with exactly one result: a check nobody decided
//! is reported failed-untestable, naming the failure that stopped the run.

use crate::check::{CATALOGUE, CheckDef, CheckId, Evidence, Failure, Group, Outcome, lookup};
use crate::protocol::{Family, Profile, Role};

use super::capability::{self, Capability};

/// The check that every `--require`d capability was used.
const REQUIRE: CheckId = "CASE-REQUIRE";
use super::report::CheckResult;
use super::semantics::Finding;

/// One profile's results, and how many exchanges with the plugin they rest on.
pub(crate) struct Judged {
    pub checks: Vec<CheckResult>,
    pub exchanges: usize,
}

struct Entry {
    id: CheckId,
    /// The `--cases` case a CASE-DECISION row belongs to.
    case: Option<String>,
    /// Which exchange decided the outcome, when it was not a built-in probe
    /// (a case, a fuzz input): named in the report next to the failure.
    origin: Option<String>,
    outcome: Outcome,
    evidence: Evidence,
}

impl Entry {
    /// The report's result; a failure names the exchange it came from.
    fn into_result(self, profile: &str) -> Option<CheckResult> {
        let def = lookup(self.id)?;
        let origin = self.origin.filter(|_| self.outcome.is_failure());
        let mut result = CheckResult::new(def, profile, self.case, self.outcome, self.evidence);
        if let Some(origin) = origin {
            result.message = format!("{origin}: {}", result.message);
        }
        Some(result)
    }
}

/// Outcomes of one profile's run.
pub(crate) struct Recorder {
    profile: Profile,
    applicable: Vec<&'static CheckDef>,
    entries: Vec<Entry>,
    blocker: Option<CheckId>,
    /// The exchange being judged now, when it is not a built-in probe.
    origin: Option<String>,
    /// How many exchanges with the plugin were judged.
    exchanges: usize,
    family: Family,
    roles: Vec<Role>,
    /// `--require`d capabilities.
    required: Vec<&'static Capability>,
}

impl Recorder {
    /// A recorder for the checks that apply to `family` / `roles` under
    /// `profile`, minus `not_in_profile` (checks the profile's runtime has no
    /// notion of).
    pub(crate) fn new(family: Family, roles: &[Role], profile: Profile, not_in_profile: &[CheckId]) -> Self {
        let applicable =
            CATALOGUE.iter().filter(|c| c.group != Group::Runtime && c.applies(family, roles) && !not_in_profile.contains(&c.id)).collect();
        Recorder {
            profile,
            applicable,
            entries: Vec::new(),
            blocker: None,
            origin: None,
            exchanges: 0,
            family,
            roles: roles.to_vec(),
            required: Vec::new(),
        }
    }

    /// Capabilities some answer must use (CASE-REQUIRE).
    pub(crate) fn require(&mut self, required: &[&'static Capability]) {
        self.required = required.to_vec();
    }

    /// CASE-REQUIRE: every `--require`d capability was used by an answer,
    /// i.e. the check that judges its shape got a result (pass or fail).
    fn judge_required(&mut self) {
        if self.required.is_empty() {
            self.skip(REQUIRE, "no --require given");
            return;
        }
        let unused: Vec<String> = self
            .required
            .iter()
            .filter(|cap| !self.entries.iter().any(|e| e.id == cap.check && !matches!(e.outcome, Outcome::Skip { .. })))
            .map(|cap| {
                let case = cap.case(self.family, &self.roles).unwrap_or_default();
                format!("`{}` ({}); a case that would exercise it:\n{case}", cap.name, cap.unexercised)
            })
            .collect();
        match unused.is_empty() {
            true => self.pass(REQUIRE, Evidence::default()),
            false => {
                let what = format!("an answer using each --require'd capability; unused: {}", unused.join("\n"));
                self.fail(REQUIRE, Failure::Missing { what }, Evidence::default());
            }
        }
    }

    /// Attributes what is recorded from now on to `origin` (`case `x``), or
    /// to the built-in probes with `None`.
    pub(crate) fn set_origin(&mut self, origin: Option<String>) {
        self.origin = origin;
    }

    /// Counts one request/answer exchange with the plugin as judged.
    pub(crate) fn exchanged(&mut self) {
        self.exchanges += 1;
    }

    pub(crate) fn applies(&self, id: CheckId) -> bool {
        self.applicable.iter().any(|c| c.id == id)
    }

    fn entry(&mut self, id: CheckId) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.id == id && e.case.is_none())
    }

    fn set(&mut self, id: CheckId, outcome: Outcome, evidence: Evidence) {
        if !self.applies(id) {
            return;
        }
        let origin = self.origin.clone().filter(|_| outcome.is_failure());
        match self.entry(id) {
            Some(e) if e.outcome.is_failure() => {}
            Some(e) if matches!(outcome, Outcome::Pass) => {
                // A skip (capability not yet seen) turns into a pass once an
                // answer exercises it.
                if e.evidence.is_empty() || matches!(e.outcome, Outcome::Skip { .. }) {
                    e.outcome = outcome;
                    e.evidence = evidence;
                    e.origin = origin;
                }
            }
            Some(e) => {
                e.outcome = outcome;
                e.evidence = evidence;
                e.origin = origin;
            }
            None => self.entries.push(Entry { id, case: None, origin, outcome, evidence }),
        }
    }

    /// The check held on this observation (a later failure still wins).
    pub(crate) fn pass(&mut self, id: CheckId, evidence: Evidence) {
        self.set(id, Outcome::Pass, evidence);
    }

    /// The check failed (the first failure is kept).
    pub(crate) fn fail(&mut self, id: CheckId, failure: Failure, evidence: Evidence) {
        if self.applies(id) && self.blocker.is_none() {
            self.blocker = Some(id);
        }
        self.set(id, Outcome::fail(failure), evidence);
    }

    /// The check does not apply to what the plugin claims.
    pub(crate) fn skip(&mut self, id: CheckId, reason: impl Into<String>) {
        if self.entry(id).is_none() {
            self.set(id, Outcome::Skip { reason: reason.into() }, Evidence::default());
        }
    }

    /// Records a semantic finding.
    pub(crate) fn finding(&mut self, finding: Finding, evidence: &Evidence) {
        match finding.result {
            Ok(()) => self.pass(finding.check, evidence.clone()),
            Err(failure) => self.fail(finding.check, failure, evidence.clone()),
        }
    }

    /// Reads again, once the author's cases said what it meant, a failure
    /// recorded while that was unknown: the failure of `id`, when
    /// `ambiguous` matches it, becomes `resolved` (its evidence kept).
    pub(crate) fn resolve(&mut self, id: CheckId, ambiguous: impl Fn(&Failure) -> bool, resolved: Failure) {
        if let Some(e) = self.entry(id)
            && let Outcome::Fail { failure } = &mut e.outcome
            && ambiguous(failure)
        {
            *failure = resolved;
        }
    }

    /// Whether a check already has a result.
    pub(crate) fn decided(&self, id: CheckId) -> bool {
        self.entries.iter().any(|e| e.id == id && e.case.is_none())
    }

    /// The first check that failed in this run, if any.
    pub(crate) fn first_failure(&self) -> Option<CheckId> {
        self.blocker
    }

    /// Records the result of one `--cases` case.
    pub(crate) fn case(&mut self, name: &str, outcome: Outcome, evidence: Evidence) {
        if outcome.is_failure() && self.blocker.is_none() {
            self.blocker = Some("CASE-DECISION");
        }
        self.entries.push(Entry { id: "CASE-DECISION", case: Some(name.to_string()), origin: None, outcome, evidence });
    }

    /// Marks every undecided check untestable because of `blocked_by`.
    pub(crate) fn block_rest(&mut self, blocked_by: CheckId, reason: &str) {
        let undecided: Vec<CheckId> = self.applicable.iter().map(|c| c.id).filter(|id| !self.decided(id)).collect();
        for id in undecided {
            if id == "CASE-DECISION" && self.entries.iter().any(|e| e.id == id) {
                continue;
            }
            self.set(id, Outcome::Untestable { blocked_by: Some(blocked_by), reason: reason.to_string() }, Evidence::default());
        }
    }

    /// Only the results something decided (no skips or untestables for the
    /// rest): what a side run, such as fuzzing, adds to the main one.
    pub(crate) fn into_decided(self) -> Vec<CheckResult> {
        let profile = self.profile.name().to_string();
        self.entries
            .into_iter()
            .filter(|e| matches!(e.outcome, Outcome::Pass | Outcome::Fail { .. }))
            .filter_map(|e| e.into_result(&profile))
            .collect()
    }

    /// The results, in catalogue order. A check that needs a capability the
    /// plugin never used (a denial, `modify`, `pending` …) is skipped, with
    /// the case that would exercise it, or fails when `--require`d; any
    /// other undecided check is untestable.
    pub(crate) fn finish(mut self) -> Judged {
        let blocker = self.blocker;
        for def in self.applicable.clone() {
            if let Some(cap) = capability::for_check(def.id)
                && self.entry(def.id).is_none()
            {
                let how = cap.case(self.family, &self.roles).map(|case| format!("; a case that would exercise it:\n{case}"));
                let reason = format!(
                    "{}, so this was not judged (the built-in probes never ask for one){}",
                    cap.unexercised,
                    how.unwrap_or_default()
                );
                self.set(def.id, Outcome::Skip { reason }, Evidence::default());
            }
            if def.id == REQUIRE {
                self.judge_required();
            }
            if !self.entries.iter().any(|e| e.id == def.id) {
                let reason = "the run ended before this check was reached".to_string();
                self.entries.push(Entry {
                    id: def.id,
                    case: None,
                    origin: None,
                    outcome: Outcome::Untestable { blocked_by: blocker, reason },
                    evidence: Evidence::default(),
                });
            }
        }
        let order = |id: CheckId| CATALOGUE.iter().position(|c| c.id == id).unwrap_or(usize::MAX);
        self.entries.sort_by_key(|e| order(e.id));
        let profile = self.profile.name().to_string();
        let exchanges = self.exchanges;
        let checks = self.entries.into_iter().filter_map(|e| e.into_result(&profile)).collect();
        Judged { checks, exchanges }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Status;

    #[test]
    fn failure_wins_and_undecided_becomes_untestable() {
        let mut rec = Recorder::new(Family::RunokExtension, &[Role::Guard], Profile::Runok031, &[]);
        rec.pass("RUNOK-STATUS", Evidence::default());
        rec.fail("RUNOK-STATUS", Failure::Unexpected { what: "x".into() }, Evidence::default());
        rec.pass("RUNOK-STATUS", Evidence::default());
        rec.pass("TOOL-RESPONSE-SHAPE", Evidence::default()); // not applicable: ignored
        let results = rec.finish().checks;
        let status = results.iter().find(|r| r.id == "RUNOK-STATUS").unwrap();
        assert_eq!(status.status, Status::Fail);
        assert!(results.iter().all(|r| r.id != "TOOL-RESPONSE-SHAPE"));
        let other = results.iter().find(|r| r.id == "FRAMING-UTF8").unwrap();
        assert_eq!(other.status, Status::Untestable);
        assert!(matches!(other.detail, Outcome::Untestable { blocked_by: Some("RUNOK-STATUS"), .. }));
    }
}
