//! What the mock plugin is told to be: family, roles, decision and faults.

use std::fmt;
use std::str::FromStr;

use proctor_conformance::protocol::{Family, Role, UnknownName};

use super::fault::Fault;

/// Everything that shapes one run of the mock plugin.
///
/// The config is plain data so the harness can build it from CLI flags or a
/// scenario file and hand the same value to [`run`](super::run) or to the
/// in-memory [`serve`](super::serve) in tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockPluginConfig {
    /// Which protocol the mock speaks.
    pub family: Family,
    /// The roles (PicoClaw: modes) it plays; empty means every role of the family.
    /// For `promptkit-exec` the role picks the answer shape; with several roles
    /// the mock recognises the role from the request.
    pub roles: Vec<Role>,
    /// Misbehaviours to apply; several combine.
    pub faults: Vec<Fault>,
    /// What a well-behaved plugin decides. The default is [`Decision::Allow`].
    pub decision: Decision,
    /// For [`Fault::CrashAfter`]: how many requests to answer before exit(1).
    /// `None` means 1.
    pub crash_after: Option<u32>,
}

impl MockPluginConfig {
    /// A well-behaved plugin of `family`: every role, no faults, allow.
    pub fn new(family: Family) -> Self {
        MockPluginConfig { family, roles: Vec::new(), faults: Vec::new(), decision: Decision::default(), crash_after: None }
    }

    /// Whether `fault` is switched on.
    pub fn has(&self, fault: Fault) -> bool {
        self.faults.contains(&fault)
    }

    /// The roles actually played: the configured ones, or all of the family's.
    pub fn effective_roles(&self) -> &[Role] {
        if self.roles.is_empty() { self.family.roles() } else { &self.roles }
    }

    /// How many requests [`Fault::CrashAfter`] lets through (default 1).
    pub fn crash_after_count(&self) -> u32 {
        self.crash_after.unwrap_or(1)
    }
}

/// What a well-behaved mock decides, where its role lets it decide anything.
///
/// A decision a role cannot express falls back to allowing: `pending` only
/// exists for PromptKit tools (and maps to `ask` for runok), `respond` and
/// `modify` only for PicoClaw interceptors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Decision {
    /// Let the operation through (tools echo their arguments).
    #[default]
    Allow,
    /// Refuse, with the reason "denied by mock".
    Deny,
    /// Ask a human: PromptKit tool `pending`, runok `ask`.
    Pending,
    /// PicoClaw `before_tool`: answer the tool call without running the tool.
    Respond,
    /// PicoClaw interceptors: hand back a (whole, unchanged) modified payload.
    Modify,
}

impl Decision {
    /// Every decision, in the order they are listed to users.
    pub const ALL: [Decision; 5] = [Decision::Allow, Decision::Deny, Decision::Pending, Decision::Respond, Decision::Modify];

    /// The kebab-case name used on the command line (`--decision`).
    pub fn name(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
            Decision::Pending => "pending",
            Decision::Respond => "respond",
            Decision::Modify => "modify",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Decision {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Decision::ALL.into_iter().find(|d| d.name() == s).ok_or_else(|| UnknownName {
            what: "decision",
            given: s.to_string(),
            expected: Decision::ALL.iter().map(|d| d.name()).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_round_trip_and_default_to_allow() {
        for d in Decision::ALL {
            assert_eq!(d.name().parse::<Decision>().unwrap(), d);
        }
        assert_eq!(Decision::default(), Decision::Allow);
        let err = "Allow".parse::<Decision>().unwrap_err().to_string();
        assert!(err.contains("allow, deny, pending, respond, modify"), "{err}");
    }

    #[test]
    fn empty_roles_mean_all_roles() {
        let mut config = MockPluginConfig::new(Family::PicoclawHook);
        assert_eq!(config.effective_roles(), Family::PicoclawHook.roles());
        config.roles = vec![Role::Approve];
        assert_eq!(config.effective_roles(), &[Role::Approve]);
        assert_eq!(config.crash_after_count(), 1);
        assert!(!config.has(Fault::Hang));
    }
}
